"""Binomial confidence intervals for one proportion and their exact coverage.

A score such as accuracy is ``k`` successes out of ``n`` independent test
items. This module puts an interval around ``k / n`` with the five classical
methods compared by Brown, Cai & DasGupta (2001) and computes the exact
probability that each method's interval covers the true proportion.

Explained in :ref:`ch-intervals`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._results import ConfidenceInterval
from ._validation import (
    check_broadcast,
    check_choice,
    check_counts,
    check_memory,
    check_probability,
    check_sizes,
    check_unit_interval,
    scalar_or_array,
)

__all__ = ["METHODS", "ProportionCI", "proportion_ci", "coverage"]

METHODS = ("wald", "wilson", "agresti-coull", "jeffreys", "clopper-pearson")
IntervalMethod = Literal["wald", "wilson", "agresti-coull", "jeffreys", "clopper-pearson"]


@dataclass(frozen=True)
class ProportionCI(ConfidenceInterval):
    """Interval for a proportion, with the point estimate ``k / n``.

    Attributes
    ----------
    low, high : float or ndarray
        The bounds, inside [0, 1].
    estimate : float or ndarray
        The observed proportion ``k / n``.
    method : str
        The method that produced the bounds.
    confidence_level : float
        The nominal coverage.
    confidence_interval : ConfidenceInterval
        ``low`` and ``high`` as the interval of ``estimate``, under the name every
        other result uses (the result itself is that interval too).
    """

    estimate: float | np.ndarray
    method: str
    confidence_level: float
    confidence_interval: ConfidenceInterval = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "confidence_interval", ConfidenceInterval(self.low, self.high))


def proportion_ci(
    k: ArrayLike,
    n: ArrayLike,
    *,
    method: IntervalMethod = "wilson",
    confidence_level: float = 0.95,
) -> ProportionCI:
    r"""Confidence interval for a binomial proportion ``k / n``.

    With :math:`\hat p = k/n`, :math:`z = \Phi^{-1}(1 - \alpha/2)` and
    :math:`\alpha = 1 - \text{confidence\_level}`:

    ``"wald"``
        :math:`\hat p \pm z\sqrt{\hat p(1-\hat p)/n}`, the textbook interval.
    ``"wilson"``
        Inverts the score test (Wilson, 1927):
        :math:`\frac{k + z^2/2}{n + z^2} \pm \frac{z\sqrt n}{n + z^2}\sqrt{\hat p(1-\hat p) + z^2/(4n)}`.
    ``"agresti-coull"``
        The Wald form around Wilson's centre (Agresti & Coull, 1998):
        :math:`\tilde n = n + z^2`, :math:`\tilde p = (k + z^2/2)/\tilde n`,
        :math:`\tilde p \pm z\sqrt{\tilde p(1-\tilde p)/\tilde n}`.
    ``"jeffreys"``
        Equal-tailed quantiles of the Jeffreys posterior
        :math:`\mathrm{Beta}(k + 1/2,\, n - k + 1/2)`. Following Brown, Cai &
        DasGupta (2001, section 4.1.2) the lower bound is set to 0 when
        ``k = 0`` and the upper bound to 1 when ``k = n``.
    ``"clopper-pearson"``
        The exact interval (Clopper & Pearson, 1934): the ``alpha/2`` quantile of
        :math:`\mathrm{Beta}(k, n - k + 1)` and the ``1 - alpha/2`` quantile of
        :math:`\mathrm{Beta}(k + 1, n - k)`, with 0 at ``k = 0`` and 1 at ``k = n``.

    The Wald and Agresti–Coull bounds are clipped to [0, 1]; clipping never
    changes whether a true proportion in (0, 1) is covered.

    Parameters
    ----------
    k, n : int or array_like of int
        Successes and trials, broadcast against each other; ``0 <= k <= n``,
        ``1 <= n <= 2**53`` (float64 holds every count up to there exactly).
    method : str
        One of ``"wald"``, ``"wilson"``, ``"agresti-coull"``, ``"jeffreys"``,
        ``"clopper-pearson"``.
    confidence_level : float
        Nominal coverage, strictly between 0 and 1.

    Returns
    -------
    ProportionCI
        ``low``, ``high`` and ``estimate`` (floats, or arrays of the broadcast shape).

    Raises
    ------
    ValueError
        If ``k > n``, a count is negative or not whole, ``n = 0``, the level is
        outside (0, 1) or the method is unknown.

    Examples
    --------
    >>> from sigeval import proportion_ci
    >>> ci = proportion_ci(845, 1000, method="wilson")
    >>> round(ci.low, 4), round(ci.high, 4)
    (0.8214, 0.8661)
    >>> proportion_ci([0, 20], 20, method="jeffreys").high.round(4)
    array([0.1165, 1.    ])
    """
    k_arr, n_arr = check_counts(k, n)
    method = check_choice(method, "method", METHODS)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    low, high = _BOUNDS[method](k_arr, n_arr, confidence_level)
    return ProportionCI(
        low=scalar_or_array(low),
        high=scalar_or_array(high),
        estimate=scalar_or_array(k_arr / n_arr),
        method=method,
        confidence_level=confidence_level,
    )


def _z(confidence_level: float) -> float:
    return float(stats.norm.isf((1 - confidence_level) / 2))


def _wald(k, n, level):
    p = k / n
    half = _z(level) * np.sqrt(p * (1 - p) / n)
    return np.clip(p - half, 0, 1), np.clip(p + half, 0, 1)


def _wilson(k, n, level):
    z = _z(level)
    p = k / n
    centre = (k + z**2 / 2) / (n + z**2)
    half = z * np.sqrt(n) / (n + z**2) * np.sqrt(p * (1 - p) + z**2 / (4 * n))
    # At k = 0 and k = n the bound is exactly 0 or 1 in theory; rounding would
    # leave it a hair off and wrongly exclude p = 0 or p = 1.
    return np.where(k == 0, 0.0, centre - half), np.where(k == n, 1.0, centre + half)


def _agresti_coull(k, n, level):
    z = _z(level)
    n_tilde = n + z**2
    p_tilde = (k + z**2 / 2) / n_tilde
    half = z * np.sqrt(p_tilde * (1 - p_tilde) / n_tilde)
    return np.clip(p_tilde - half, 0, 1), np.clip(p_tilde + half, 0, 1)


def _jeffreys(k, n, level):
    tail = (1 - level) / 2
    low = np.where(k == 0, 0.0, stats.beta.ppf(tail, k + 0.5, n - k + 0.5))
    high = np.where(k == n, 1.0, stats.beta.isf(tail, k + 0.5, n - k + 0.5))
    return low, high


def _clopper_pearson(k, n, level):
    tail = (1 - level) / 2
    # The Beta parameters are 0 at the boundary, where the bound is fixed anyway.
    with np.errstate(invalid="ignore"):
        low = np.where(k == 0, 0.0, stats.beta.ppf(tail, k, n - k + 1))
        high = np.where(k == n, 1.0, stats.beta.isf(tail, k + 1, n - k))
    return low, high


_BOUNDS = {
    "wald": _wald,
    "wilson": _wilson,
    "agresti-coull": _agresti_coull,
    "jeffreys": _jeffreys,
    "clopper-pearson": _clopper_pearson,
}


def coverage(
    n: ArrayLike,
    p: ArrayLike,
    *,
    method: IntervalMethod = "wilson",
    confidence_level: float = 0.95,
) -> np.ndarray:
    r"""Exact coverage probability of a binomial interval.

    .. math:: C(n, p) = \sum_{k=0}^{n} \binom{n}{k} p^k (1-p)^{n-k}\,
              \mathbf 1\{L(k) \le p \le U(k)\}

    No simulation is involved. For every method here both bounds are
    non-decreasing in ``k``, so the covering outcomes form one run
    ``k_lo..k_hi`` and the sum is a difference of two binomial CDFs; the
    bounds are computed once per distinct ``n``, which bounds ``n`` by memory
    (about 100 million; larger sizes are refused up front).

    Parameters
    ----------
    n : int or array_like of int
        Test-set sizes, ``n >= 1``.
    p : float or array_like of float
        True proportions in [0, 1], broadcast against ``n``.
    method, confidence_level
        As in :func:`proportion_ci`.

    Returns
    -------
    ndarray
        Coverage probabilities, of the broadcast shape of ``n`` and ``p``: a 0-d
        array for one ``n`` and one ``p`` (``float(...)`` gives the number).

    References
    ----------
    Brown, L. D., Cai, T. T. and DasGupta, A. (2001). Interval estimation for a
    binomial proportion. *Statistical Science* 16(2), 101–133.

    Examples
    --------
    The oscillation of the Wald interval at ``n = 100`` (Brown et al., 2001):

    >>> from sigeval import coverage
    >>> coverage(100, [0.106, 0.107], method="wald").round(3)
    array([0.952, 0.911])
    """
    n_arr = check_sizes(n)
    p_arr = check_probability(p)
    method = check_choice(method, "method", METHODS)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")

    n_b, p_b = check_broadcast((n_arr, p_arr), ("n", "p"))
    # The bounds are tabulated at every k = 0..n (a few float64 arrays of n + 1).
    largest = int(n_b.max())
    check_memory(6 * (largest + 1.0), "n", largest, "the interval bounds at k = 0..n")
    k_lo = np.empty(n_b.shape, dtype=np.int64)
    k_hi = np.empty(n_b.shape, dtype=np.int64)
    for size in np.unique(n_b):
        at = n_b == size
        low, high = _BOUNDS[method](np.arange(size + 1), size, confidence_level)
        # Largest k whose lower bound is <= p; smallest k whose upper bound is >= p.
        k_hi[at] = np.searchsorted(low, p_b[at], side="right") - 1
        k_lo[at] = np.searchsorted(high, p_b[at], side="left")
    covered = stats.binom.cdf(k_hi, n_b, p_b) - stats.binom.cdf(k_lo - 1, n_b, p_b)
    return np.where(k_hi >= k_lo, np.clip(covered, 0, 1), 0.0)

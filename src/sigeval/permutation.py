"""The paired permutation (sign-flip) test of two models on the same items.

Exact where the null distribution can be computed (integer differences by
convolution, few nonzero differences by enumeration), Monte Carlo otherwise.

Explained in :ref:`ch-two-models`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import fft, stats

from ._options import ALTERNATIVES, Alternative
from ._validation import (
    RngLike,
    check_choice,
    check_difference,
    check_memory,
    check_paired,
    check_positive_int,
    check_rng,
    safe_scale,
)
from .resampling import _chunks

__all__ = ["PermutationResult", "paired_permutation_test"]

PERMUTATION_METHODS = ("auto", "exact", "monte-carlo")
PermutationMethod = Literal["auto", "exact", "monte-carlo"]
# Exact permutation null by convolution: support size and work (magnitudes x support).
_EXACT_MAX_SUM = 1_000_000
_EXACT_MAX_WORK = 20_000_000
_ENUMERATE_MAX = 20
# The smallest p-value reported: 2**-m for m nonzero differences, but never
# below the smallest normal float when 2**-m underflows (m > 1022).
_P_FLOOR = float(np.finfo(float).tiny)
# Monte Carlo tie tolerance on the scale of a mean difference of 0/1 scores;
# it grows with the magnitude of the differences (see paired_permutation_test).
_TIE_TOLERANCE = 1e-12


@dataclass(frozen=True)
class PermutationResult:
    """A paired permutation (sign-flip) test.

    Attributes
    ----------
    statistic : float
        The observed mean difference ``mean(scores_a - scores_b)``.
    pvalue : float
        The p-value for ``alternative``.
    method : str
        The method actually used: ``"exact"`` or ``"monte-carlo"``.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A better) or ``"less"`` (B better).
    n_resamples : int or None
        Random sign flips drawn; None when the null distribution was exact.
    null_distribution : ndarray or None
        The signed mean difference under each random sign flip; None when exact.
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str
    n_resamples: int | None
    null_distribution: np.ndarray | None = field(repr=False)


def paired_permutation_test(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    n_resamples: int = 10_000,
    method: PermutationMethod = "auto",
    alternative: Alternative = "two-sided",
    rng: RngLike = None,
) -> PermutationResult:
    r"""Paired permutation test of the mean difference between two models.

    Under :math:`H_0` the labels A and B are exchangeable on each item, so each
    difference :math:`d_i = a_i - b_i` keeps or flips its sign with probability
    1/2. The statistic is :math:`\bar d`, its null distribution that of
    :math:`T^* = \frac1n \sum_i s_i d_i` with independent random signs
    :math:`s_i = \pm 1` (Fisher, 1935; Good, 2005). The null is symmetric, so the
    exact two-sided p-value is :math:`\min(1, 2\min(P(T^* \ge \bar d), P(T^* \le \bar d)))
    = P(|T^*| \ge |\bar d|)`.

    ``method="auto"`` uses the first of these that applies:

    1. **exact, by the binomial**: when all nonzero :math:`|d_i|` are equal,
       as for 0/1 scores, only the :math:`m = n_{01} + n_{10}` disagreements
       matter and the two-sided p-value is McNemar's exact
       :math:`\min(1, 2\,F_{\mathrm{Bin}(m, 1/2)}(\min(n_{01}, n_{10})))`, at
       any number of disagreements.
    2. **exact, by convolution**: if every :math:`d_i` is an integer with
       :math:`M = \sum_i |d_i| \le 10^6` (and the work, distinct magnitudes × M,
       is at most 2·10⁷), the distribution of :math:`\sum_i s_i d_i` is the
       product of the magnitudes' characteristic functions, inverted by one FFT
       (tail probabilities are accurate to about 1e-12 absolute).
    3. **exact, by enumeration** of the :math:`2^m` sign patterns of the
       :math:`m \le 20` nonzero differences.
    4. **Monte Carlo**: ``n_resamples`` sign vectors over all ``n`` items, drawn
       chunk by chunk as ``rng.choice([-1.0, 1.0], size=(chunk, n))`` (the same
       stream as one call of size ``(n_resamples, n)``), and
       :math:`p = (1 + \#\{|T^*_b| \ge |\bar d| - \epsilon\}) / (1 + B)`, which
       counts the observed signs as one of the permutations (Phipson & Smyth,
       2010). The tolerance :math:`\epsilon = 10^{-12} \max(1, \max_i |d_i|)` keeps
       permutations whose statistic equals :math:`|\bar d|` mathematically but
       differs in the last bits from being missed. One-sided p-values count
       :math:`T^*_b \ge \bar d - \epsilon` (``"greater"``) or
       :math:`T^*_b \le \bar d + \epsilon` (``"less"``).

    Exact p-values are never below :math:`2^{-m}`, the probability of the
    observed signs (nor below the smallest normal float, 2.2e-308, where
    :math:`2^{-m}` underflows). Differences near the float64 limits are
    divided by a power of two before summing, which changes no p-value.
    The exact methods do not draw from ``rng``. For 0/1 correctness the test is
    McNemar's exact test (the Monte Carlo version approximates it). Explained in :ref:`ch-two-models`.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Per-item scores of the two models on the same items (1-D, finite).
    n_resamples : int
        Random sign flips for the Monte Carlo method, at least 1.
    method : str
        ``"auto"``, ``"exact"`` (an error if neither exact method applies) or
        ``"monte-carlo"``.
    alternative : str
        ``"two-sided"``, ``"greater"`` (mean of A larger) or ``"less"``.
    rng : numpy.random.Generator, int or None
        Source of the sign flips.

    Returns
    -------
    PermutationResult

    Warns
    -----
    UserWarning
        When every difference is zero: the p-value is then 1.0.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between
    correlated proportions or percentages. *Psychometrika* 12(2), 153–157.
    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be
    zero. *Stat. Appl. Genet. Mol. Biol.* 9(1), article 39.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import paired_permutation_test
    >>> a = np.r_[np.ones(44), np.zeros(28), np.ones(801), np.zeros(127)]
    >>> b = np.r_[np.zeros(44), np.ones(28), np.ones(801), np.zeros(127)]
    >>> res = paired_permutation_test(a, b)
    >>> res.method, round(res.statistic, 3), round(res.pvalue, 4)
    ('exact', 0.016, 0.0764)
    >>> res = paired_permutation_test(a, b, method="monte-carlo", n_resamples=20_000, rng=0)
    >>> res.method, round(res.pvalue, 2)
    ('monte-carlo', 0.08)
    """
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"))
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    method = check_choice(method, "method", PERMUTATION_METHODS)
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    rng = check_rng(rng)
    d = check_difference(a, b, ("scores_a", "scores_b"))
    # Sign flips commute with a power-of-two scale: it only keeps sums of
    # differences near 1.8e308 from overflowing.
    scale = safe_scale(d)
    observed = float((d / scale).mean()) * scale
    if not np.any(d):
        warnings.warn(
            "All paired differences are zero: the two models agree on every item, "
            "so the data hold no evidence of a difference; the p-value is 1.0.",
            UserWarning,
            stacklevel=2,
        )
    if method != "monte-carlo":
        tails = _exact_tails(d)
        if tails is not None:
            return PermutationResult(
                observed, float(_pvalue_from_tails(tails, alternative)), "exact", alternative, None, None
            )
        if method == "exact":
            raise ValueError(
                "`method`='exact' is not feasible here: the nonzero differences take "
                f"{np.unique(np.abs(d[d != 0])).size} distinct magnitudes (exact by the binomial "
                "needs one), are not integers with a total magnitude of at most "
                f"{_EXACT_MAX_SUM:,}, and number {np.count_nonzero(d)} nonzero differences "
                f"(at most {_ENUMERATE_MAX} can be enumerated); use method='monte-carlo' or 'auto'."
            )
    check_memory(n_resamples, "n_resamples", n_resamples, "the null distribution")
    null = _sign_flip_means(d / scale, n_resamples, rng) * scale
    tolerance = _TIE_TOLERANCE * max(1.0, float(np.abs(d).max()))
    if alternative == "two-sided":
        extreme = np.count_nonzero(np.abs(null) >= abs(observed) - tolerance)
    elif alternative == "greater":
        extreme = np.count_nonzero(null >= observed - tolerance)
    else:
        extreme = np.count_nonzero(null <= observed + tolerance)
    pvalue = (1 + extreme) / (1 + n_resamples)
    return PermutationResult(observed, float(pvalue), "monte-carlo", alternative, n_resamples, null)


def _exact_tails(d: np.ndarray) -> tuple[float, float] | None:
    """Exact ``(P(T* >= t), P(T* <= t))`` under random signs, or None if infeasible."""
    nonzero = d[d != 0]
    m = nonzero.size
    if m == 0:
        return 1.0, 1.0
    magnitude = np.abs(nonzero)
    floor = max(2.0**-m, _P_FLOOR)
    if np.all(magnitude == magnitude[0]):
        return _binomial_tails(int(np.count_nonzero(nonzero > 0)), m)
    with np.errstate(over="ignore"):  # an infinite total is simply too large
        total = magnitude.sum()
    if np.all(magnitude == np.round(magnitude)) and total <= _EXACT_MAX_SUM:
        distinct, multiplicity = np.unique(magnitude.astype(np.int64), return_counts=True)
        if distinct.size * (int(total) + 1) <= _EXACT_MAX_WORK:
            pmf = _signed_sum_pmf(distinct, multiplicity, int(total))
            w_obs = int(magnitude[nonzero > 0].sum())
            return (
                float(np.clip(pmf[w_obs:].sum(), floor, 1.0)),
                float(np.clip(pmf[: w_obs + 1].sum(), floor, 1.0)),
            )
    if m <= _ENUMERATE_MAX:
        # The tails do not change with the scale, which keeps the sums finite.
        return _enumerated_tails(nonzero / safe_scale(nonzero), d.size)
    return None


def _binomial_tails(n_pos: int, m: int) -> tuple[float, float]:
    """The exact tails when the ``m`` nonzero differences share one magnitude, ``n_pos`` of them positive.

    T* = u (2W - m) with W ~ Bin(m, 1/2) positive signs; by symmetry
    P(W >= n_pos) = P(W <= m - n_pos). No p-value is below 2**-m.
    """
    if m == 0:
        return 1.0, 1.0
    floor = max(2.0**-m, _P_FLOOR)
    return (
        max(float(stats.binom.cdf(m - n_pos, m, 0.5)), floor),
        max(float(stats.binom.cdf(n_pos, m, 0.5)), floor),
    )


def _signed_sum_pmf(distinct: np.ndarray, multiplicity: np.ndarray, total: int) -> np.ndarray:
    r"""pmf of :math:`W = \sum_i b_i |d_i|` over 0..total, :math:`b_i` fair coins.

    One difference of magnitude ``u`` has the DFT :math:`(1 + e^{-2\pi i f u/L})/2
    = e^{-i\pi f u/L}\cos(\pi f u / L)`, so the DFT of ``W`` is the product of the
    cosines, shifted by :math:`e^{-i\pi f\,\mathrm{total}/L}`; ``L > total`` avoids wrap-around.
    """
    length = fft.next_fast_len(total + 1, real=True)
    freq = np.arange(length // 2 + 1)
    spectrum = np.ones(freq.size)
    # One pass per distinct magnitude, not per item; integer phases are reduced
    # modulo a full turn before scaling, so large products lose no precision.
    for u, count in zip(distinct, multiplicity):
        spectrum *= np.cos(np.pi * ((u * freq) % (2 * length)) / length) ** count
    shift = np.exp(-1j * np.pi * ((total * freq) % (2 * length)) / length)
    pmf = fft.irfft(spectrum * shift, n=length)[: total + 1]
    return np.clip(pmf, 0.0, None)


def _enumerated_tails(nonzero: np.ndarray, n: int) -> tuple[float, float]:
    m = nonzero.size
    observed = nonzero.sum() / n
    tolerance = _TIE_TOLERANCE * max(1.0, float(np.abs(nonzero).max()))
    bits = np.arange(m)
    at_least = at_most = 0
    for start, rows in _chunks(2**m, 2 * m):
        pattern = np.arange(start, start + rows)[:, None]
        signs = 1.0 - 2.0 * ((pattern >> bits) & 1)
        null = signs @ nonzero / n
        at_least += np.count_nonzero(null >= observed - tolerance)
        at_most += np.count_nonzero(null <= observed + tolerance)
    return at_least / 2**m, at_most / 2**m


def _pvalue_from_tails(tails: tuple[float, float], alternative: str) -> float:
    greater, less = tails
    if alternative == "greater":
        return greater
    if alternative == "less":
        return less
    return min(1.0, 2 * min(greater, less))


def _sign_flip_means(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    out = np.empty(n_resamples)
    for start, rows in _chunks(n_resamples, 2 * d.size):
        flips = rng.choice([-1.0, 1.0], size=(rows, d.size))
        out[start : start + rows] = (flips * d).mean(axis=1)
    return out

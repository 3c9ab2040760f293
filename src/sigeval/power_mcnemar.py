"""McNemar's test, planned: its exact power at a test-set size, and the size needed.

Two fixed models scored on the same test items disagree on some of them; the
power of McNemar's test depends only on the two disagreement rates and the
number of items. Computed exactly from the binomial distribution of the
number of disagreements, with no simulation.

Explained in :ref:`ch-two-models`, and beside the paired t power in :ref:`ch-power`.
"""
from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._mcnemar import check_form, mcnemar_core
from ._validation import (
    _show,
    check_alpha,
    check_choice,
    check_memory,
    check_probability,
    check_sizes,
    check_unit_interval,
    scalar_or_array,
)

__all__ = [
    "McNemarPowerResult",
    "mcnemar_power",
    "mcnemar_sample_size",
]

_POWER_METHODS = ("enumeration", "normal")
PowerMethod = Literal["enumeration", "normal"]
_SIZE_RULES = ("first", "stable")
# The exact sample-size search computes the power at every size up to its
# horizon, at about 10 microseconds per size; it refuses to go beyond this.
_SEARCH_LIMIT = 1_000_000
# Binomial probabilities of the number of disagreements below this are dropped
# from the running sum of the sample-size search (their total is negligible).
_NEGLIGIBLE = 1e-30
# Below this disagreement rate the binomial probabilities are computed directly.
_TINY_RATE = 1e-300


def _critical_count(
    m: np.ndarray, alpha: float, exact: bool, continuity: bool, mid_p: bool
) -> np.ndarray:
    r"""Largest :math:`c < m/2` whose counts ``(c, m - c)`` give ``p <= alpha``; -1 if none.

    The p-value of every form of the test rises as ``min(n01, n10)`` rises
    towards ``m/2``, so given ``m`` the test rejects exactly when
    ``min(n01, n10) <= c``. A closed-form guess is corrected step by step with
    the p-value of ``mcnemar_core`` itself, so that the rejection region
    is the test's own, to the last rounding error.
    """
    m = np.asarray(m, dtype=np.int64)
    if exact:
        # Smallest k with F(k) >= alpha/2, less one: at most one step off for
        # the exact test, a step or two low for the mid-p test (corrected below).
        guess = stats.binom.ppf(alpha / 2, m, 0.5) - 1
    else:
        # (|2k - m| - corr)^2 / m >= chi2 critical value, solved for k <= m/2.
        reach = np.sqrt(stats.chi2.isf(alpha, 1) * m) + (1 if continuity else 0)
        guess = np.floor((m - reach) / 2)
    c = np.clip(np.nan_to_num(guess, nan=-1.0), -1, (m - 1) // 2).astype(np.int64)

    def rejects(k):
        k_safe = np.maximum(k, 0)
        pvalue = mcnemar_core(k_safe, m - k_safe, exact, continuity, mid_p)[1]
        return (k >= 0) & (pvalue <= alpha)

    while True:  # too high: step down
        down = (c >= 0) & ~rejects(c)
        if not down.any():
            break
        c = c - down
    while True:  # too low: step up while still below m/2
        up = (2 * (c + 1) < m) & rejects(c + 1)
        if not up.any():
            break
        c = c + up
    return c


def _rejection_probability(m: np.ndarray, q: float, alpha, exact, continuity, mid_p) -> np.ndarray:
    """P(the test rejects | m disagreements), when each favours A with probability q."""
    c = _critical_count(m, alpha, exact, continuity, mid_p)
    # n01 <= c or n01 >= m - c; both terms are 0 when c = -1.
    reject = stats.binom.cdf(c, m, q) + stats.binom.sf(m - c - 1, m, q)
    if mid_p:
        # The mid-p value of a tie n01 = n10 = m/2 is 1 - P(X = m/2)/2 < 1 (from 0.75 at
        # m = 2): at an alpha that high even the tie is significant, and so is every table.
        half = m // 2
        tie = (m > 0) & (m % 2 == 0) & (mcnemar_core(half, half, exact, continuity, mid_p)[1] <= alpha)
        reject = np.where(tie, 1.0, reject)
    return reject


def _share_of_a(p01: float, p10: float) -> float:
    psi = p01 + p10
    # Without disagreements the share is irrelevant (m = 0 surely); any value will do.
    return p01 / psi if psi > 0 else 0.5


def _exact_power(n: np.ndarray, p01: float, p10: float, alpha, exact, continuity, mid_p) -> np.ndarray:
    """Exact power at the sizes ``n`` (1-D) for one pair of disagreement rates.

    Only the disagreement counts ``m`` where Binomial(n, psi) is not
    negligible enter the sum: below the ``_NEGLIGIBLE`` quantile and above the
    ``1 - _NEGLIGIBLE`` one the mass left out is under 1e-30 on each side, so
    a size costs about 25 standard deviations of ``m`` rather than ``n`` terms.
    """
    psi = min(p01 + p10, 1.0)  # _check_rates lets a rounding error above 1 through
    lo = stats.binom.ppf(_NEGLIGIBLE, n, psi).astype(np.int64)
    hi = n - stats.binom.ppf(_NEGLIGIBLE, n, 1.0 - psi).astype(np.int64)
    first, last = int(lo.min()), int(hi.max())
    # The rejection probabilities are tabulated once over the union of the windows.
    check_memory(8.0 * (last - first + 1), "n", int(n.max()), "the exact power sum")
    reject = _rejection_probability(
        np.arange(first, last + 1), _share_of_a(p01, p10), alpha, exact, continuity, mid_p
    )
    width = int((hi - lo).max()) + 1
    power = np.empty(n.size)
    rows = max(1, 2**21 // width)  # bound the memory of the (sizes x window) block
    for start in range(0, n.size, rows):
        at = slice(start, start + rows)
        m = lo[at, None] + np.arange(width)
        inside = m <= hi[at, None]
        m = np.minimum(m, hi[at, None])
        weights = np.where(inside, _binomial_pmf(m, n[at, None], psi), 0.0)
        power[at] = np.sum(weights * reject[m - first], axis=1)
    return np.clip(power, 0.0, 1.0)


def _binomial_pmf(m: np.ndarray, n: np.ndarray, psi: float) -> np.ndarray:
    """Binomial(n, psi) probabilities; scipy's (Boost's) overflows for psi near 1e-307."""
    if psi >= _TINY_RATE:
        return stats.binom.pmf(m, n, psi)
    # n psi < 1e-284 (n <= 2**53): P(M >= 2) < (n psi)^2 underflows to 0 and
    # 1 - psi rounds to 1, so these are the float64 values exactly.
    return np.where(m == 0, 1.0, np.where(m == 1, n * psi, 0.0))


def _normal_power(n, p01, p10, alpha):
    """Connor's (1987) approximation, vectorized."""
    psi, delta = p01 + p10, np.abs(p01 - p10)
    z = stats.norm.isf(alpha / 2)
    with np.errstate(divide="ignore", invalid="ignore"):
        power = stats.norm.cdf((delta * np.sqrt(n) - z * np.sqrt(psi)) / np.sqrt(psi - delta**2))
    # Models that never disagree give a test that never rejects (0/0 above).
    return np.where(psi == 0, 0.0, power)


def _check_rates(p01: ArrayLike, p10: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    p01_arr = check_probability(p01, "p01")
    p10_arr = check_probability(p10, "p10")
    try:
        p01_b, p10_b = np.broadcast_arrays(p01_arr, p10_arr)
    except ValueError:
        raise ValueError(
            "`p01` and `p10` must broadcast to a common shape; got shapes "
            f"{p01_arr.shape} and {p10_arr.shape}."
        ) from None
    # A small tolerance lets rates such as 0.7 + 0.3 through despite rounding.
    bad = p01_b + p10_b > 1 + 1e-12
    if np.any(bad):
        raise ValueError(
            "`p01 + p10` is the rate of disagreement and cannot exceed 1; got "
            f"p01={_show(p01_b[bad])} with p10={_show(p10_b[bad])}."
        )
    return p01_arr, p10_arr


@dataclass(frozen=True)
class McNemarPowerResult:
    """Result of :func:`mcnemar_power`.

    Fields are scalars for scalar inputs and arrays of the broadcast shape
    of ``n``, ``p01`` and ``p10`` otherwise.

    Attributes
    ----------
    power : float or ndarray
        Probability that the test rejects at level ``alpha``.
    n : int or ndarray
        Test-set sizes.
    p01, p10 : float or ndarray
        Population rates of items only A, and only B, classifies correctly.
    delta : float or ndarray
        True difference of accuracies, ``p01 - p10``.
    alpha : float
        Level of the two-sided test.
    power_method : str
        ``"enumeration"`` or ``"normal"``.
    """

    power: float | np.ndarray
    n: int | np.ndarray
    p01: float | np.ndarray
    p10: float | np.ndarray
    delta: float | np.ndarray
    alpha: float
    power_method: str


def mcnemar_power(
    n: int | ArrayLike,
    p01: float | ArrayLike,
    p10: float | ArrayLike,
    *,
    alpha: float = 0.05,
    exact: bool = True,
    continuity: bool = True,
    mid_p: bool = False,
    power_method: PowerMethod = "enumeration",
) -> McNemarPowerResult:
    r"""Power of McNemar's test on a test set of ``n`` items.

    The two models disagree on an item with probability
    :math:`\psi = p_{01} + p_{10}`, where :math:`p_{01}` is the population
    rate of items only A gets right and :math:`p_{10}` of items only B gets
    right; the true difference of accuracies is :math:`\delta = p_{01} - p_{10}`.

    ``power_method="enumeration"`` (the default) computes the power without simulation.
    On a test set of :math:`n` items drawn from the population the number of
    disagreements is :math:`m \sim \mathrm{Binomial}(n, \psi)`, and given
    :math:`m`, :math:`n_{01} \sim \mathrm{Binomial}(m, p_{01}/\psi)`. Given
    :math:`m`, the test (the one :func:`~sigeval.paired.mcnemar_counts` runs with the same
    ``exact``, ``continuity`` and ``mid_p``) rejects at level :math:`\alpha` exactly
    when :math:`\min(n_{01}, n_{10}) \le c_m`, with :math:`c_m` the largest
    count whose p-value is at most :math:`\alpha` (:math:`c_m = -1` when no
    outcome is significant; the mid-p value of a tie is below 1, so at
    :math:`\alpha \ge 0.75` the tie and with it every outcome may be significant). Hence

    .. math::

        1 - \beta = \sum_{m=0}^{n} \binom{n}{m} \psi^m (1-\psi)^{n-m}\,
        \Bigl[F_{m,\,p_{01}/\psi}(c_m) + 1 - F_{m,\,p_{01}/\psi}(m - c_m - 1)\Bigr],

    with :math:`F_{m,q}` the :math:`\mathrm{Binomial}(m, q)` distribution
    function. At :math:`p_{01} = p_{10}` this is the exact probability of a
    type I error (the size), at most :math:`\alpha` for the exact test; the
    mid-p and chi-square forms can exceed :math:`\alpha`.

    ``power_method="normal"`` is the approximation of Connor (1987),

    .. math::

        1 - \beta \approx \Phi\!\left(\frac{|\delta|\sqrt n - z_{1-\alpha/2}\sqrt{\psi}}
        {\sqrt{\psi - \delta^2}}\right),

    which ignores ``exact``, ``continuity`` and ``mid_p``: it approximates the
    uncorrected chi-square test best and overstates the power of the exact
    test slightly.

    ``n``, ``p01`` and ``p10`` broadcast against each other.

    Parameters
    ----------
    n : int or array_like of int
        Test-set sizes, at least 1.
    p01 : float or array_like of float
        Population rate of items that model A gets right and model B wrong.
    p10 : float or array_like of float
        Population rate of items that model B gets right and model A wrong;
        ``p01 + p10 <= 1``.
    alpha : float
        Level of the two-sided test; it rejects when ``p <= alpha``.
    exact, continuity, mid_p : bool
        Which form of the test, as in :func:`~sigeval.paired.mcnemar_counts`.
    power_method : {"enumeration", "normal"}
        How the power is computed: ``"enumeration"``, the exact sum above
        over every table, or ``"normal"``, Connor's approximation.

    Returns
    -------
    McNemarPowerResult
        ``power`` of the broadcast shape of the inputs, with the design.

    Raises
    ------
    ValueError
        If ``n`` is not a whole number of at least 1, a rate lies outside
        [0, 1], ``p01 + p10 > 1``, ``alpha`` is outside (0, 1), the method is
        unknown or the shapes do not broadcast.

    See Also
    --------
    mcnemar_sample_size : the smallest test set that reaches a given power.

    Notes
    -----
    The exact sum runs only over the :math:`m` where
    :math:`\mathrm{Binomial}(n, \psi)` has mass (less than 1e-30 is left out on
    each side), about 25 standard deviations of :math:`m`: a million items
    take milliseconds, and a grid of a few hundred sizes a fraction of a second.

    Explained in :ref:`ch-two-models`.

    References
    ----------
    Connor, R. J. (1987). Sample size for testing differences in proportions
    for the paired-sample design. *Biometrics* 43(1), 207–211.

    McNemar, Q. (1947). Note on the sampling error of the difference between
    correlated proportions or percentages. *Psychometrika* 12(2), 153–157.

    Examples
    --------
    Matchers that disagree on 8% of the images, A alone right on 4.8%: the
    exact test on 1,000 images detects the gap less than half the time.

    >>> from sigeval import mcnemar_power
    >>> round(mcnemar_power(1000, 0.048, 0.032).power, 3)
    0.389
    >>> round(mcnemar_power(1000, 0.048, 0.032, power_method="normal").power, 3)
    0.432
    >>> mcnemar_power([500, 1000, 2000], 0.048, 0.032).power.round(3)
    array([0.198, 0.389, 0.692])

    With equal rates the power is the size of the test, below ``alpha``:

    >>> round(mcnemar_power(1000, 0.04, 0.04).power, 4)
    0.0381

    The mid-p test rejects more often, closer to the nominal level:

    >>> round(mcnemar_power(1000, 0.04, 0.04, mid_p=True).power, 4)
    0.0485
    >>> round(mcnemar_power(1000, 0.048, 0.032, mid_p=True).power, 3)
    0.429
    """
    n_arr = check_sizes(n, "n")
    p01_arr, p10_arr = _check_rates(p01, p10)
    alpha = check_alpha(alpha)
    exact, continuity, mid_p = check_form(exact, continuity, mid_p)
    power_method = check_choice(power_method, "power_method", _POWER_METHODS)
    try:
        n_b, p01_b, p10_b = np.broadcast_arrays(n_arr, p01_arr, p10_arr)
    except ValueError:
        raise ValueError(
            "`n`, `p01` and `p10` must broadcast to a common shape; got shapes "
            f"{n_arr.shape}, {p01_arr.shape} and {p10_arr.shape}."
        ) from None
    if power_method == "normal":
        return _power_result(_normal_power(n_b, p01_b, p10_b, alpha), n_b, p01_b, p10_b, alpha, power_method)
    sizes, rates = n_b.ravel(), np.stack([p01_b.ravel(), p10_b.ravel()], axis=1)
    power = np.empty(sizes.size)
    # One binomial mixture per distinct pair of rates, vectorized over the sizes.
    pairs, which = np.unique(rates, axis=0, return_inverse=True)
    which = which.ravel()
    for i, (r01, r10) in enumerate(pairs):
        at = which == i
        power[at] = _exact_power(sizes[at], r01, r10, alpha, exact, continuity, mid_p)
    return _power_result(power.reshape(n_b.shape), n_b, p01_b, p10_b, alpha, power_method)


def _power_result(power, n, p01, p10, alpha, power_method) -> McNemarPowerResult:
    n_out = int(n) if np.ndim(n) == 0 else np.asarray(n)
    return McNemarPowerResult(
        power=scalar_or_array(power),
        n=n_out,
        p01=scalar_or_array(p01),
        p10=scalar_or_array(p10),
        delta=scalar_or_array(p01 - p10),
        alpha=alpha,
        power_method=power_method,
    )


def _real_rate(value: float, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number in [0, 1]; got {value!r}.")
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"`{name}` must lie in [0, 1]; got {value!r}.")
    return value


def _normal_sample_size(p01: float, p10: float, alpha: float, power: float) -> int:
    psi, delta = p01 + p10, abs(p01 - p10)
    z_alpha, z_beta = float(stats.norm.isf(alpha / 2)), float(stats.norm.ppf(power))
    root = z_alpha * math.sqrt(psi) + z_beta * math.sqrt(max(psi - delta * delta, 0.0))
    # (root / delta)**2 rather than root**2 / delta**2: delta**2 underflows below 1e-162.
    # A Python float product that overflows is inf (a power would raise).
    ratio = root / delta
    n = ratio * ratio
    if not math.isfinite(n):
        raise ValueError(
            f"`p01` and `p10` differ by only {delta!r}: the normal approximation asks for more "
            "than 1e308 items, beyond any test set (and float64)."
        )
    return max(1, math.ceil(n))


def _exact_sample_size(p01, p10, alpha, target, exact, continuity, mid_p, rule, start) -> int:
    """Walk the exact power up the sizes n = 1, 2, ... (see mcnemar_sample_size).

    The distribution of m over 0..n is updated from one size to the next,
    P_{n+1}(m) = (1 - psi) P_n(m) + psi P_n(m - 1), on the window of m where
    it is not negligible, so each size costs a few vector operations.
    """
    psi, q = min(p01 + p10, 1.0), _share_of_a(p01, p10)
    horizon = max(64, 2 * start)
    weights = np.zeros(horizon + 2)
    weights[0] = 1.0  # n = 0: no disagreement
    reject = _rejection_probability(np.arange(horizon + 2), q, alpha, exact, continuity, mid_p)
    powers = [0.0]
    lo = hi = 0
    while True:
        for _ in range(len(powers), horizon + 1):
            moved = psi * weights[lo : hi + 1]
            weights[lo : hi + 1] *= 1.0 - psi
            weights[lo + 1 : hi + 2] += moved
            hi += 1
            while weights[lo] < _NEGLIGIBLE and lo < hi:
                weights[lo] = 0.0
                lo += 1
            while weights[hi] < _NEGLIGIBLE and hi > lo:
                weights[hi] = 0.0
                hi -= 1
            powers.append(float(weights[lo : hi + 1] @ reject[lo : hi + 1]))
        reached = np.asarray(powers) >= target
        if rule == "first":
            if reached.any():
                return int(np.argmax(reached))
            new_horizon = 2 * horizon
        else:
            # powers[0] = 0 is never reached, so 1 <= stable_from <= horizon + 1.
            stable_from = int(np.flatnonzero(~reached)[-1]) + 1
            if 2 * stable_from <= horizon:
                return stable_from
            new_horizon = 2 * stable_from
        if new_horizon > _SEARCH_LIMIT:
            raise ValueError(
                f"The exact search for the test-set size passed {horizon:,} items without "
                f"settling; it stops at {_SEARCH_LIMIT:,}. Use `power_method='normal'`."
            )
        weights = np.concatenate([weights, np.zeros(new_horizon - horizon)])
        extra_m = np.arange(horizon + 2, new_horizon + 2)
        reject = np.concatenate(
            [reject, _rejection_probability(extra_m, q, alpha, exact, continuity, mid_p)]
        )
        horizon = new_horizon


def mcnemar_sample_size(
    p01: float,
    p10: float,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    exact: bool = True,
    continuity: bool = True,
    mid_p: bool = False,
    power_method: PowerMethod = "enumeration",
    rule: Literal["first", "stable"] = "first",
) -> int:

    r"""Smallest test set on which McNemar's test reaches a given power.

    With :math:`\psi = p_{01} + p_{10}` the rate of disagreement and
    :math:`\delta = p_{01} - p_{10}` the true difference of accuracies (see
    :func:`mcnemar_power`):

    ``power_method="normal"``
        Connor's (1987) closed form, rounded up,

        .. math::

            n = \left\lceil \frac{\bigl(z_{1-\alpha/2}\sqrt{\psi}
                + z_{1-\beta}\sqrt{\psi - \delta^2}\bigr)^2}{\delta^2} \right\rceil,

        the smallest :math:`n` at which the approximate power of
        :func:`mcnemar_power` (``power_method="normal"``) reaches the target. It
        ignores ``exact``, ``continuity``, ``mid_p`` and ``rule``.
    ``power_method="enumeration"`` (the default)
        From the exact power of the test chosen by ``exact``,
        ``continuity`` and ``mid_p``, computed for every size :math:`n = 1, 2, \dots`.
        Exact power is not monotone in :math:`n`: the test is discrete, and
        its rejection region grows by whole counts, so the power rises along
        a slight saw-tooth and can dip below the target just after first
        reaching it. ``rule`` says which size is returned:

        ``"first"`` (default)
            the smallest :math:`n` at which the power is at least the target;
        ``"stable"``
            the smallest :math:`n` from which the power stays at least the
            target at every larger size. The search checks every size up to
            at least twice the answer; beyond that the power keeps rising
            towards 1 and the saw-tooth fades, but it is not computed.

        For the discordance rates of most model comparisons the two rules
        give the same size: the number of disagreements varies from one test
        set to the next, and averaging over it smooths the saw-tooth away.
        They differ when the models disagree on (nearly) every item.

    Parameters
    ----------
    p01, p10 : float
        Population rates of items only A gets right and only B gets right;
        ``p01 + p10 <= 1`` and ``p01 != p10``.
    alpha : float
        Level of the two-sided test.
    target_power : float
        Target power, greater than ``alpha`` and below 1.
    exact, continuity, mid_p : bool
        Which form of the test, as in :func:`~sigeval.paired.mcnemar_counts`.
    power_method : {"enumeration", "normal"}
        How the power is computed, as in :func:`mcnemar_power`.
    rule : {"first", "stable"}
        ``"first"`` or ``"stable"``, for ``power_method="enumeration"``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If a rate is outside [0, 1], ``p01 + p10 > 1``, ``p01 == p10`` (no
        test set is large enough), a level is outside (0, 1), ``target_power`` does
        not exceed ``alpha``, an option is unknown, or the exact search would
        pass 1,000,000 items (use ``power_method="normal"`` there).

    Notes
    -----
    The exact search examines every size up to at least twice Connor's
    :math:`n`, at about a second per 100,000 sizes.

    Explained in :ref:`ch-two-models`.

    References
    ----------
    Connor, R. J. (1987). Sample size for testing differences in proportions
    for the paired-sample design. *Biometrics* 43(1), 207–211.

    Examples
    --------
    Matchers that disagree on 8% of the images, A alone right on 4.8%:
    Connor's formula asks for 2,451 images, the exact test for about 100 more.

    >>> from sigeval import mcnemar_power, mcnemar_sample_size
    >>> mcnemar_sample_size(0.048, 0.032, power_method="normal")
    2451
    >>> n = mcnemar_sample_size(0.048, 0.032)
    >>> n, mcnemar_power(n - 1, 0.048, 0.032).power < 0.8 <= mcnemar_power(n, 0.048, 0.032).power
    (2553, True)

    The mid-p test, which does not pay for the discreteness of the binomial,
    needs about a hundred images fewer, close to the uncorrected chi-square test's 2,431:

    >>> mcnemar_sample_size(0.048, 0.032, mid_p=True)
    2437

    Models that disagree on every item (a binary task): the power first
    reaches 80% at 199 items, dips below it again, and stays above from 210.

    >>> mcnemar_sample_size(0.6, 0.4), mcnemar_sample_size(0.6, 0.4, rule="stable")
    (199, 210)
    >>> mcnemar_power([199, 200, 209, 210], 0.6, 0.4).power.round(3)
    array([0.804, 0.787, 0.798, 0.82 ])
    """
    p01 = _real_rate(p01, "p01")
    p10 = _real_rate(p10, "p10")
    _check_rates(p01, p10)
    if p01 == p10:
        raise ValueError(
            "`p01` and `p10` must differ: with equal rates the models are equally accurate "
            f"and no test set is large enough to detect a difference; got p01 = p10 = {p01!r}."
        )
    alpha = check_alpha(alpha)
    target_power = check_unit_interval(target_power, "target_power")
    if target_power <= alpha:
        raise ValueError(
            "`target_power` must exceed `alpha` (the test rejects with probability at most about "
            f"alpha when there is no difference); got target_power={target_power!r} with alpha={alpha!r}."
        )
    exact, continuity, mid_p = check_form(exact, continuity, mid_p)
    power_method = check_choice(power_method, "power_method", _POWER_METHODS)
    rule = check_choice(rule, "rule", _SIZE_RULES)
    start = _normal_sample_size(p01, p10, alpha, target_power)
    if power_method == "normal":
        return start
    if 2 * start > _SEARCH_LIMIT:
        raise ValueError(
            f"The normal approximation already asks for {start:,} items; the exact search "
            f"stops at {_SEARCH_LIMIT:,}. Use `power_method='normal'` for differences this small."
        )
    return _exact_sample_size(
        p01, p10, alpha, target_power, exact, continuity, mid_p, rule, start
    )

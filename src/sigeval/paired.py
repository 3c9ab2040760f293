"""Two fixed models scored on the same test items.

When two trained models are evaluated on the same test set, their errors are
correlated: an image that defeats one model tends to defeat the other. The
tools here use the pairing instead of wasting it: McNemar's test on the items
where the models disagree (with its exact power and the test-set size it
needs), and the standard error of the per-item difference set beside the one
that ignores the pairing. The Wilcoxon signed-rank test
applies the same idea one level up, to two models scored on many datasets.

Explained in the chapter *Comparing two fixed models* (``notebooks/05_two_models``);
the Wilcoxon test in *Many models, many datasets* (``notebooks/10_ranking``).
"""

from __future__ import annotations

import math
import numbers
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._validation import (
    _integer_array,
    _show,
    check_binary,
    check_choice,
    check_paired,
    check_probability,
    check_sizes,
    check_unit_interval,
    scalar_or_array,
)

__all__ = [
    "McNemarResult",
    "mcnemar",
    "mcnemar_counts",
    "mcnemar_power",
    "mcnemar_sample_size",
    "DifferenceSE",
    "difference_se",
    "WilcoxonResult",
    "wilcoxon_signed_rank",
]


def _check_correctness(correct_a: ArrayLike, correct_b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    a = check_binary(correct_a, "correct_a")
    b = check_binary(correct_b, "correct_b")
    if a.shape != b.shape:
        raise ValueError(
            "`correct_a` and `correct_b` must be paired, with the same length; "
            f"got {a.size} and {b.size}."
        )
    return a, b


# --------------------------------------------------------------------------- McNemar

_POWER_METHODS = ("exact", "normal")
_SIZE_RULES = ("first", "stable")
# The exact sample-size search computes the power at every size up to its
# horizon, at about 10 microseconds per size; it refuses to go beyond this.
_SEARCH_LIMIT = 1_000_000
# Binomial probabilities of the number of disagreements below this are dropped
# from the running sum of the sample-size search (their total is negligible).
_NEGLIGIBLE = 1e-30


@dataclass(frozen=True)
class McNemarResult:
    """Result of :func:`mcnemar` and :func:`mcnemar_counts`.

    Fields are scalars for one pair of counts and arrays of the broadcast
    shape when :func:`mcnemar_counts` was given arrays of counts.

    Attributes
    ----------
    n01 : int or ndarray
        Items that model A classifies correctly and model B does not.
    n10 : int or ndarray
        Items that model B classifies correctly and model A does not.
    statistic : float or ndarray
        ``min(n01, n10)`` for the exact test; the chi-square statistic otherwise.
    pvalue : float or ndarray
        Two-sided p-value for equal accuracy.
    method : str
        ``"exact"``, ``"chi-square"`` or ``"chi-square (continuity corrected)"``.
    """

    n01: int | np.ndarray
    n10: int | np.ndarray
    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    method: str


def _check_flag(value: bool, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be True or False; got {value!r}.")
    return bool(value)


def _check_disagreements(n01: ArrayLike, n10: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two disagreement counts as broadcast int64 arrays of non-negative whole numbers."""
    arrays = []
    for value, name in ((n01, "n01"), (n10, "n10")):
        arr = _integer_array(value, name)
        if np.any(arr < 0):
            raise ValueError(f"`{name}` must be a non-negative count; got {_show(arr[arr < 0])}.")
        arrays.append(arr)
    try:
        return tuple(np.array(x) for x in np.broadcast_arrays(*arrays))
    except ValueError:
        raise ValueError(
            "`n01` and `n10` must broadcast to a common shape; got shapes "
            f"{arrays[0].shape} and {arrays[1].shape}."
        ) from None


def _method_name(exact: bool, correction: bool) -> str:
    if exact:
        return "exact"
    return "chi-square (continuity corrected)" if correction else "chi-square"


def _mcnemar_core(n01: np.ndarray, n10: np.ndarray, exact: bool, correction: bool):
    """Statistic and two-sided p-value for validated integer counts (any shape).

    The one implementation of the test: :func:`mcnemar`, :func:`mcnemar_counts`
    and the rejection regions of :func:`mcnemar_power` all use it.
    """
    m = n01 + n10
    if exact:
        statistic = np.minimum(n01, n10).astype(float)
        # Binomial(0, 1/2) puts all its mass on 0, so m = 0 gives p = 1 here too.
        pvalue = np.minimum(1.0, 2.0 * stats.binom.cdf(statistic, m, 0.5))
    else:
        excess = np.abs(n01 - n10) - (1 if correction else 0)
        # With m = 0 the clipped excess is 0, so dividing by max(m, 1) gives chi2 = 0.
        statistic = np.maximum(excess, 0).astype(float) ** 2 / np.maximum(m, 1)
        pvalue = stats.chi2.sf(statistic, 1)
    return statistic, pvalue


def _mcnemar_result(n01, n10, exact, correction) -> McNemarResult:
    """Run the test and warn about pairs without disagreements (stack: user -> public -> here)."""
    none = (n01 + n10) == 0
    if none.any():
        if n01.ndim == 0:
            message = (
                "The two models agree on every item (n01 = n10 = 0): McNemar's test has "
                "no information about their difference; the p-value is set to 1."
            )
        else:
            message = (
                f"{int(none.sum())} of {none.size} count pairs have n01 = n10 = 0 (the models "
                "agree on every item): McNemar's test has no information there; their "
                "p-values are set to 1."
            )
        warnings.warn(message, UserWarning, stacklevel=3)
    statistic, pvalue = _mcnemar_core(n01, n10, exact, correction)
    scalar = n01.ndim == 0
    return McNemarResult(
        n01=int(n01) if scalar else n01,
        n10=int(n10) if scalar else n10,
        statistic=scalar_or_array(statistic),
        pvalue=scalar_or_array(pvalue),
        method=_method_name(exact, correction),
    )


def mcnemar_counts(
    n01: int | ArrayLike,
    n10: int | ArrayLike,
    *,
    exact: bool = True,
    correction: bool = True,
) -> McNemarResult:
    r"""McNemar's test from the two disagreement counts.

    Only the :math:`m = n_{01} + n_{10}` items on which two models disagree
    carry information about their difference. Under equal accuracy each
    disagreement favours either model with probability 1/2, so
    :math:`n_{01} \sim \mathrm{Binomial}(m, 1/2)` (McNemar, 1947).

    Exact test (the default)
        :math:`p = \min\bigl(1,\; 2\,F_{\mathrm{Bin}(m, 1/2)}(\min(n_{01}, n_{10}))\bigr)`.
        The reported ``statistic`` is :math:`\min(n_{01}, n_{10})`, the
        quantity whose binomial tail is the p-value.
    Chi-square test (``exact=False``)
        :math:`\chi^2 = (n_{01} - n_{10})^2 / m`, or with the continuity
        correction :math:`\chi^2 = \max(|n_{01} - n_{10}| - 1,\, 0)^2 / m`,
        referred to a chi-square distribution with 1 degree of freedom. The
        clipping at 0 (as R's ``mcnemar.test``) keeps ``n01 == n10`` at
        :math:`\chi^2 = 0`, ``p = 1``.

    When the models never disagree (``m = 0``) the data say nothing about the
    difference: the p-value is 1 and a ``UserWarning`` says so.

    The counts broadcast against each other. Given arrays (for instance the
    counts of many simulated test sets), the test is computed for every pair
    at once and the fields of the result are arrays of the broadcast shape;
    given two numbers, they are a Python ``int`` and ``float``.

    Parameters
    ----------
    n01 : int or array_like of int
        Items that model A gets right and model B gets wrong.
    n10 : int or array_like of int
        Items that model B gets right and model A gets wrong.
    exact : bool
        Use the exact binomial test (recommended; Dietterich, 1998, found the
        test has low type I error) rather than the chi-square approximation.
    correction : bool
        Apply the continuity correction to the chi-square statistic; ignored
        when ``exact=True``.

    Returns
    -------
    McNemarResult

    Raises
    ------
    ValueError
        If a count is negative or not a whole number, a count array is empty,
        or the two do not broadcast.
    TypeError
        If a count is not a number (booleans included) or ``exact`` or
        ``correction`` is not a bool.

    See Also
    --------
    mcnemar : the same test from two per-item correctness vectors.

    Notes
    -----
    Explained in the chapter *Comparing two fixed models* (``notebooks/05_two_models``).

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between
    correlated proportions or percentages. *Psychometrika* 12(2), 153–157.

    Examples
    --------
    The article's two template matchers: 44 items only A gets right, 28 only B.

    >>> from sigeval.paired import mcnemar_counts
    >>> res = mcnemar_counts(44, 28)
    >>> res.statistic, round(res.pvalue, 4)
    (28.0, 0.0764)
    >>> round(mcnemar_counts(44, 28, exact=False).statistic, 4)
    3.125

    Many pairs of counts at once, e.g. from simulated test sets:

    >>> mcnemar_counts([44, 50, 10], [28, 22, 10]).pvalue.round(4)
    array([0.0764, 0.0013, 1.    ])
    """
    n01_arr, n10_arr = _check_disagreements(n01, n10)
    exact = _check_flag(exact, "exact")
    correction = _check_flag(correction, "correction")
    return _mcnemar_result(n01_arr, n10_arr, exact, correction)


def mcnemar(
    correct_a: ArrayLike,
    correct_b: ArrayLike,
    *,
    exact: bool = True,
    correction: bool = True,
) -> McNemarResult:
    r"""McNemar's test for two models scored on the same test items.

    Counts the items only A gets right (:math:`n_{01}`) and those only B gets
    right (:math:`n_{10}`), and tests equal accuracy from those two counts
    exactly as :func:`mcnemar_counts` does (McNemar, 1947):

    Exact test (the default)
        :math:`n_{01} \sim \mathrm{Binomial}(m, 1/2)` under equal accuracy,
        with :math:`m = n_{01} + n_{10}`, and
        :math:`p = \min\bigl(1,\; 2\,F_{\mathrm{Bin}(m, 1/2)}(\min(n_{01}, n_{10}))\bigr)`.
    Chi-square test (``exact=False``)
        :math:`\chi^2 = (n_{01} - n_{10})^2 / m`, or with the continuity
        correction :math:`\max(|n_{01} - n_{10}| - 1,\, 0)^2 / m`, on 1
        degree of freedom.

    When the models never disagree (``m = 0``) the p-value is 1 and a
    ``UserWarning`` says so.

    Parameters
    ----------
    correct_a, correct_b : array_like of bool or 0/1
        Per-item correctness of models A and B on the same items, in the same order.
    exact : bool
        Use the exact binomial test (recommended; Dietterich, 1998, found the
        test has low type I error) rather than the chi-square approximation.
    correction : bool
        Apply the continuity correction to the chi-square statistic; ignored
        when ``exact=True``.

    Returns
    -------
    McNemarResult
        With ``n01`` and ``n10`` as ints and ``statistic`` and ``pvalue`` as floats.

    Raises
    ------
    ValueError
        If the vectors are empty, of different lengths, hold NaN or values
        other than 0/1.

    See Also
    --------
    mcnemar_counts : the test from the two counts, vectorized over arrays of counts.
    mcnemar_power : its power, for planning the size of a test set.

    Notes
    -----
    Explained in the chapter *Comparing two fixed models* (``notebooks/05_two_models``).

    Examples
    --------
    The article's two template matchers: 44 items only A gets right, 28 only B.

    >>> import numpy as np
    >>> from sigeval.paired import mcnemar
    >>> a = np.repeat([1, 1, 0, 0], [801, 44, 28, 127])
    >>> b = np.repeat([1, 0, 1, 0], [801, 44, 28, 127])
    >>> res = mcnemar(a, b)
    >>> res.n01, res.n10, round(res.pvalue, 4)
    (44, 28, 0.0764)
    >>> round(mcnemar(a, b, exact=False).statistic, 4)
    3.125
    """
    a, b = _check_correctness(correct_a, correct_b)
    exact = _check_flag(exact, "exact")
    correction = _check_flag(correction, "correction")
    n01 = np.int64(np.count_nonzero(a & ~b))
    n10 = np.int64(np.count_nonzero(~a & b))
    return _mcnemar_result(np.asarray(n01), np.asarray(n10), exact, correction)


# ------------------------------------------------------------ McNemar: power and test-set size


def _critical_count(m: np.ndarray, alpha: float, exact: bool, correction: bool) -> np.ndarray:
    r"""Largest :math:`c < m/2` whose counts ``(c, m - c)`` give ``p <= alpha``; -1 if none.

    The p-value of every form of the test rises as ``min(n01, n10)`` rises
    towards ``m/2``, so given ``m`` the test rejects exactly when
    ``min(n01, n10) <= c``. A closed-form guess is corrected step by step with
    the p-value of :func:`_mcnemar_core` itself, so that the rejection region
    is the test's own, to the last rounding error.
    """
    m = np.asarray(m, dtype=np.int64)
    if exact:
        # Smallest k with F(k) >= alpha/2, less one: at most one step off.
        guess = stats.binom.ppf(alpha / 2, m, 0.5) - 1
    else:
        # (|2k - m| - corr)^2 / m >= chi2 critical value, solved for k <= m/2.
        reach = np.sqrt(stats.chi2.isf(alpha, 1) * m) + (1 if correction else 0)
        guess = np.floor((m - reach) / 2)
    c = np.clip(np.nan_to_num(guess, nan=-1.0), -1, (m - 1) // 2).astype(np.int64)

    def rejects(k):
        k_safe = np.maximum(k, 0)
        pvalue = _mcnemar_core(k_safe, m - k_safe, exact, correction)[1]
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


def _rejection_probability(m: np.ndarray, q: float, alpha, exact, correction) -> np.ndarray:
    """P(the test rejects | m disagreements), when each favours A with probability q."""
    c = _critical_count(m, alpha, exact, correction)
    # n01 <= c or n01 >= m - c; both terms are 0 when c = -1.
    return stats.binom.cdf(c, m, q) + stats.binom.sf(m - c - 1, m, q)


def _share_of_a(p01: float, p10: float) -> float:
    psi = p01 + p10
    # Without disagreements the share is irrelevant (m = 0 surely); any value will do.
    return p01 / psi if psi > 0 else 0.5


def _exact_power(n: np.ndarray, p01: float, p10: float, alpha, exact, correction) -> np.ndarray:
    """Exact power at the sizes ``n`` (1-D) for one pair of disagreement rates."""
    psi = min(p01 + p10, 1.0)  # _check_rates lets a rounding error above 1 through
    m = np.arange(int(n.max()) + 1)
    reject = _rejection_probability(m, _share_of_a(p01, p10), alpha, exact, correction)
    power = np.empty(n.size)
    rows = max(1, 2**21 // m.size)  # bound the memory of the (sizes x m) block
    for start in range(0, n.size, rows):
        block = n[start : start + rows]
        # Binomial(n, psi) probabilities of m disagreements; zero for m > n.
        weights = stats.binom.pmf(m[None, :], block[:, None], psi)
        power[start : start + rows] = weights @ reject
    return np.clip(power, 0.0, 1.0)


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


def mcnemar_power(
    n: int | ArrayLike,
    p01: float | ArrayLike,
    p10: float | ArrayLike,
    *,
    alpha: float = 0.05,
    exact: bool = True,
    correction: bool = True,
    method: str = "exact",
) -> float | np.ndarray:
    r"""Power of McNemar's test on a test set of ``n`` items.

    The two models disagree on an item with probability
    :math:`\psi = p_{01} + p_{10}`, where :math:`p_{01}` is the population
    rate of items only A gets right and :math:`p_{10}` of items only B gets
    right; the true difference of accuracies is :math:`\delta = p_{01} - p_{10}`.

    ``method="exact"`` (the default) computes the power without simulation.
    On a test set of :math:`n` items drawn from the population the number of
    disagreements is :math:`m \sim \mathrm{Binomial}(n, \psi)`, and given
    :math:`m`, :math:`n_{01} \sim \mathrm{Binomial}(m, p_{01}/\psi)`. Given
    :math:`m`, the test (the one :func:`mcnemar_counts` runs with the same
    ``exact`` and ``correction``) rejects at level :math:`\alpha` exactly
    when :math:`\min(n_{01}, n_{10}) \le c_m`, with :math:`c_m` the largest
    count whose p-value is at most :math:`\alpha` (:math:`c_m = -1` when no
    outcome is significant). Hence

    .. math::

        1 - \beta = \sum_{m=0}^{n} \binom{n}{m} \psi^m (1-\psi)^{n-m}\,
        \Bigl[F_{m,\,p_{01}/\psi}(c_m) + 1 - F_{m,\,p_{01}/\psi}(m - c_m - 1)\Bigr],

    with :math:`F_{m,q}` the :math:`\mathrm{Binomial}(m, q)` distribution
    function. At :math:`p_{01} = p_{10}` this is the exact probability of a
    type I error (the size), at most :math:`\alpha` for the exact test; the
    chi-square forms can exceed :math:`\alpha`.

    ``method="normal"`` is the approximation of Connor (1987),

    .. math::

        1 - \beta \approx \Phi\!\left(\frac{|\delta|\sqrt n - z_{1-\alpha/2}\sqrt{\psi}}
        {\sqrt{\psi - \delta^2}}\right),

    which ignores ``exact`` and ``correction``: it approximates the
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
    exact, correction : bool
        Which form of the test, as in :func:`mcnemar_counts`.
    method : str
        ``"exact"`` (the sum above) or ``"normal"`` (Connor's approximation).

    Returns
    -------
    float or ndarray
        The power, of the broadcast shape of the inputs.

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
    The exact sum costs one binomial distribution over :math:`m = 0, \dots, n`
    per size: a grid of a few hundred sizes up to several thousand items
    takes a fraction of a second.

    Explained in the chapter *Comparing two fixed models* (``notebooks/05_two_models``).

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

    >>> from sigeval.paired import mcnemar_power
    >>> round(mcnemar_power(1000, 0.048, 0.032), 3)
    0.389
    >>> round(mcnemar_power(1000, 0.048, 0.032, method="normal"), 3)
    0.432
    >>> mcnemar_power([500, 1000, 2000], 0.048, 0.032).round(3)
    array([0.198, 0.389, 0.692])

    With equal rates the power is the size of the test, below ``alpha``:

    >>> round(mcnemar_power(1000, 0.04, 0.04), 4)
    0.0381
    """
    n_arr = check_sizes(n, "n")
    p01_arr, p10_arr = _check_rates(p01, p10)
    alpha = check_unit_interval(alpha, "alpha")
    exact = _check_flag(exact, "exact")
    correction = _check_flag(correction, "correction")
    method = check_choice(method, "method", _POWER_METHODS)
    try:
        n_b, p01_b, p10_b = np.broadcast_arrays(n_arr, p01_arr, p10_arr)
    except ValueError:
        raise ValueError(
            "`n`, `p01` and `p10` must broadcast to a common shape; got shapes "
            f"{n_arr.shape}, {p01_arr.shape} and {p10_arr.shape}."
        ) from None
    if method == "normal":
        return scalar_or_array(_normal_power(n_b, p01_b, p10_b, alpha))
    sizes, rates = n_b.ravel(), np.stack([p01_b.ravel(), p10_b.ravel()], axis=1)
    power = np.empty(sizes.size)
    # One binomial mixture per distinct pair of rates, vectorized over the sizes.
    pairs, which = np.unique(rates, axis=0, return_inverse=True)
    which = which.ravel()
    for i, (r01, r10) in enumerate(pairs):
        at = which == i
        power[at] = _exact_power(sizes[at], r01, r10, alpha, exact, correction)
    return scalar_or_array(power.reshape(n_b.shape))


def _real_rate(value: float, name: str) -> float:
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number in [0, 1]; got {value!r}.")
    value = float(value)
    if not 0.0 <= value <= 1.0:
        raise ValueError(f"`{name}` must lie in [0, 1]; got {value!r}.")
    return value


def _normal_sample_size(p01: float, p10: float, alpha: float, power: float) -> int:
    psi, delta = p01 + p10, abs(p01 - p10)
    z_alpha, z_beta = stats.norm.isf(alpha / 2), stats.norm.ppf(power)
    n = (z_alpha * math.sqrt(psi) + z_beta * math.sqrt(max(psi - delta**2, 0.0))) ** 2 / delta**2
    return max(1, math.ceil(n))


def _exact_sample_size(p01, p10, alpha, target, exact, correction, rule, start) -> int:
    """Walk the exact power up the sizes n = 1, 2, ... (see mcnemar_sample_size).

    The distribution of m over 0..n is updated from one size to the next,
    P_{n+1}(m) = (1 - psi) P_n(m) + psi P_n(m - 1), on the window of m where
    it is not negligible, so each size costs a few vector operations.
    """
    psi, q = min(p01 + p10, 1.0), _share_of_a(p01, p10)
    horizon = max(64, 2 * start)
    weights = np.zeros(horizon + 2)
    weights[0] = 1.0  # n = 0: no disagreement
    reject = _rejection_probability(np.arange(horizon + 2), q, alpha, exact, correction)
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
            stable_from = int(np.flatnonzero(~reached)[-1]) + 1
            if 2 * stable_from <= horizon:
                return stable_from
            new_horizon = max(2 * horizon if stable_from > horizon else 0, 2 * stable_from)
        if new_horizon > _SEARCH_LIMIT:
            raise ValueError(
                f"The exact search for the test-set size passed {horizon:,} items without "
                f"settling; it stops at {_SEARCH_LIMIT:,}. Use `method='normal'`."
            )
        weights = np.concatenate([weights, np.zeros(new_horizon - horizon)])
        extra_m = np.arange(horizon + 2, new_horizon + 2)
        reject = np.concatenate(
            [reject, _rejection_probability(extra_m, q, alpha, exact, correction)]
        )
        horizon = new_horizon


def mcnemar_sample_size(
    p01: float,
    p10: float,
    *,
    alpha: float = 0.05,
    power: float = 0.8,
    exact: bool = True,
    correction: bool = True,
    method: str = "exact",
    rule: str = "first",
) -> int:
    r"""Smallest test set on which McNemar's test reaches a given power.

    With :math:`\psi = p_{01} + p_{10}` the rate of disagreement and
    :math:`\delta = p_{01} - p_{10}` the true difference of accuracies (see
    :func:`mcnemar_power`):

    ``method="normal"``
        Connor's (1987) closed form, rounded up,

        .. math::

            n = \left\lceil \frac{\bigl(z_{1-\alpha/2}\sqrt{\psi}
                + z_{1-\beta}\sqrt{\psi - \delta^2}\bigr)^2}{\delta^2} \right\rceil,

        the smallest :math:`n` at which the approximate power of
        :func:`mcnemar_power` (``method="normal"``) reaches the target. It
        ignores ``exact``, ``correction`` and ``rule``.
    ``method="exact"`` (the default)
        From the exact power of the test chosen by ``exact`` and
        ``correction``, computed for every size :math:`n = 1, 2, \dots`.
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
    power : float
        Target power, greater than ``alpha`` and below 1.
    exact, correction : bool
        Which form of the test, as in :func:`mcnemar_counts`.
    method : str
        ``"exact"`` or ``"normal"``.
    rule : str
        ``"first"`` or ``"stable"``, for ``method="exact"``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If a rate is outside [0, 1], ``p01 + p10 > 1``, ``p01 == p10`` (no
        test set is large enough), a level is outside (0, 1), ``power`` does
        not exceed ``alpha``, an option is unknown, or the exact search would
        pass 1,000,000 items (use ``method="normal"`` there).

    Notes
    -----
    The exact search examines every size up to at least twice Connor's
    :math:`n`, at about a second per 100,000 sizes.

    Explained in the chapter *Comparing two fixed models* (``notebooks/05_two_models``).

    References
    ----------
    Connor, R. J. (1987). Sample size for testing differences in proportions
    for the paired-sample design. *Biometrics* 43(1), 207–211.

    Examples
    --------
    Matchers that disagree on 8% of the images, A alone right on 4.8%:
    Connor's formula asks for 2,451 images, the exact test for about 100 more.

    >>> from sigeval.paired import mcnemar_power, mcnemar_sample_size
    >>> mcnemar_sample_size(0.048, 0.032, method="normal")
    2451
    >>> n = mcnemar_sample_size(0.048, 0.032)
    >>> n, mcnemar_power(n - 1, 0.048, 0.032) < 0.8 <= mcnemar_power(n, 0.048, 0.032)
    (2553, True)

    Models that disagree on every item (a binary task): the power first
    reaches 80% at 199 items, dips below it again, and stays above from 210.

    >>> mcnemar_sample_size(0.6, 0.4), mcnemar_sample_size(0.6, 0.4, rule="stable")
    (199, 210)
    >>> mcnemar_power([199, 200, 209, 210], 0.6, 0.4).round(3)
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
    alpha = check_unit_interval(alpha, "alpha")
    power = check_unit_interval(power, "power")
    if power <= alpha:
        raise ValueError(
            "`power` must exceed `alpha` (the test rejects with probability at most about "
            f"alpha when there is no difference); got power={power!r} with alpha={alpha!r}."
        )
    exact = _check_flag(exact, "exact")
    correction = _check_flag(correction, "correction")
    method = check_choice(method, "method", _POWER_METHODS)
    rule = check_choice(rule, "rule", _SIZE_RULES)
    start = _normal_sample_size(p01, p10, alpha, power)
    if method == "normal":
        return start
    if 2 * start > _SEARCH_LIMIT:
        raise ValueError(
            f"The normal approximation already asks for {start:,} items; the exact search "
            f"stops at {_SEARCH_LIMIT:,}. Use `method='normal'` for differences this small."
        )
    return _exact_sample_size(p01, p10, alpha, power, exact, correction, rule, start)


# --------------------------------------------------------------------------- standard errors


@dataclass(frozen=True)
class DifferenceSE:
    """Result of :func:`difference_se`.

    Attributes
    ----------
    estimate : float
        Difference of accuracies, ``acc_a - acc_b``.
    paired : float
        Standard error from the per-item differences, ``sd(d, ddof=1) / sqrt(n)``.
    unpaired : float
        Standard error that treats the two accuracies as independent samples.
    correlation : float
        Pearson (phi) correlation of the two correctness vectors; NaN when a
        model is right on every item or wrong on every item.
    n : int
        Number of test items.
    """

    estimate: float
    paired: float
    unpaired: float
    correlation: float
    n: int


def difference_se(correct_a: ArrayLike, correct_b: ArrayLike) -> DifferenceSE:
    r"""Standard error of a difference of accuracies, with and without the pairing.

    With per-item correctness :math:`a_i, b_i \in \{0, 1\}`, accuracies
    :math:`\hat p_a, \hat p_b` and differences :math:`d_i = a_i - b_i`:

    .. math::

        \mathrm{SE}_{\text{paired}} = \frac{s_d}{\sqrt n}, \qquad
        \mathrm{SE}_{\text{unpaired}} = \sqrt{\frac{\hat p_a(1-\hat p_a)}{n}
                                             + \frac{\hat p_b(1-\hat p_b)}{n}},

    with :math:`s_d` the sample standard deviation of :math:`d` (``ddof=1``).
    The unpaired form is right only for two independent test sets. On one
    shared test set :math:`\operatorname{Var}(a - b) = \operatorname{Var}(a) +
    \operatorname{Var}(b) - 2\rho\,\mathrm{sd}(a)\,\mathrm{sd}(b)`: the
    positive correlation :math:`\rho` of the two models' errors is what the
    paired standard error takes into account.

    Parameters
    ----------
    correct_a, correct_b : array_like of bool or 0/1
        Per-item correctness of models A and B on the same items, at least 2.

    Returns
    -------
    DifferenceSE

    Raises
    ------
    ValueError
        If the vectors have fewer than 2 items, different lengths, NaN or
        values other than 0/1.

    Notes
    -----
    Explained in the chapter *Comparing two fixed models* (``notebooks/05_two_models``).

    Examples
    --------
    The article's two template matchers on 1,000 images: pairing halves the
    standard error of the difference.

    >>> import numpy as np
    >>> from sigeval.paired import difference_se
    >>> a = np.repeat([1, 1, 0, 0], [801, 44, 28, 127])
    >>> b = np.repeat([1, 0, 1, 0], [801, 44, 28, 127])
    >>> se = difference_se(a, b)
    >>> round(se.estimate, 3), round(se.unpaired, 4), round(se.paired, 4)
    (0.016, 0.0165, 0.0085)
    """
    a, b = _check_correctness(correct_a, correct_b)
    n = a.size
    if n < 2:
        raise ValueError(f"`correct_a` and `correct_b` must hold at least 2 items; got {n}.")
    a = a.astype(float)
    b = b.astype(float)
    d = a - b
    p_a, p_b = a.mean(), b.mean()
    cov = np.mean((a - p_a) * (b - p_b))
    # A model that is always right (or always wrong) has no variance: the
    # correlation is undefined and reported as NaN rather than as a warning.
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = cov / np.sqrt(p_a * (1 - p_a) * p_b * (1 - p_b))
    return DifferenceSE(
        estimate=float(p_a - p_b),
        paired=float(d.std(ddof=1) / np.sqrt(n)),
        unpaired=float(np.sqrt(p_a * (1 - p_a) / n + p_b * (1 - p_b) / n)),
        correlation=float(correlation),
        n=int(n),
    )


# --------------------------------------------------------------------------- Wilcoxon

_ZERO_METHODS = ("zsplit", "wilcox", "pratt")
_ALTERNATIVES = ("two-sided", "greater", "less")


@dataclass(frozen=True)
class WilcoxonResult:
    """Result of :func:`wilcoxon_signed_rank`.

    Attributes
    ----------
    statistic : float
        ``min(r_plus, r_minus)`` for the two-sided test (Demšar's *T*),
        ``r_plus`` for a one-sided one (as ``scipy.stats.wilcoxon``).
    pvalue : float
        The p-value from ``scipy.stats.wilcoxon``.
    r_plus : float
        Sum of the ranks of the datasets on which A scores higher than B.
    r_minus : float
        Sum of the ranks of the datasets on which B scores higher than A.
    n : int
        Number of datasets.
    n_zero : int
        Datasets on which the two scores are equal.
    zero_method : str
        How the zero differences entered the ranks.
    alternative : str
        The alternative hypothesis.
    """

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    n_zero: int
    zero_method: str
    alternative: str


def wilcoxon_signed_rank(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    alternative: str = "two-sided",
    zero_method: str = "zsplit",
) -> WilcoxonResult:
    r"""Wilcoxon signed-rank test for two models scored on the same datasets.

    Demšar (2006, section 3.1.3) recommends it for comparing two methods over
    :math:`N` datasets, because scores on different datasets are not
    commensurable but their differences can be ranked. With
    :math:`d_i = a_i - b_i` ranked by :math:`|d_i|` (average ranks for ties),

    .. math::

        R^+ = \sum_{d_i > 0} \operatorname{rank}(d_i), \qquad
        R^- = \sum_{d_i < 0} \operatorname{rank}(d_i), \qquad T = \min(R^+, R^-).

    Zero differences (the two models tie on a dataset), by ``zero_method``:

    ``"zsplit"`` (default)
        Zeros are ranked with the others and their ranks split evenly between
        :math:`R^+` and :math:`R^-`, as Demšar describes (he drops one zero
        when their number is odd; here its rank is split in half instead).
        :math:`R^+ + R^- = N(N+1)/2`.
    ``"wilcox"``
        Zeros are discarded before ranking (scipy's default).
    ``"pratt"``
        Zeros are ranked with the others, then their ranks are discarded.

    The p-value is that of ``scipy.stats.wilcoxon`` with the same
    ``zero_method`` (exact for small samples without ties or zeros, the normal
    approximation otherwise). If every difference is zero there is no
    information: ``pvalue`` is 1 and a ``UserWarning`` says so.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of models A and B on the same datasets, in the same order.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A scores higher) or ``"less"``.
    zero_method : str
        ``"zsplit"``, ``"wilcox"`` or ``"pratt"``, as above.

    Returns
    -------
    WilcoxonResult

    Raises
    ------
    ValueError
        If the arrays are empty, of different lengths or hold NaN, or an
        option is unknown.

    Notes
    -----
    Explained in the chapter *Many models, many datasets* (``notebooks/10_ranking``).

    Differences are ranked as computed in floating point: scores such as
    0.768 - 0.763 and 0.936 - 0.931 may differ in the last bit and then do
    not count as a tie.

    Examples
    --------
    Demšar's (2006, Table 2) AUCs of C4.5 with and without tuning *m*, in
    thousandths so that equal differences tie exactly:

    >>> from sigeval.paired import wilcoxon_signed_rank
    >>> tuned = [768, 591, 971, 661, 888, 931, 668, 583, 838, 1000, 962, 666, 981, 978]
    >>> plain = [763, 599, 954, 628, 882, 936, 661, 583, 775, 1000, 940, 619, 972, 957]
    >>> res = wilcoxon_signed_rank(tuned, plain)
    >>> res.r_plus, res.r_minus, res.statistic, res.n_zero
    (93.0, 12.0, 12.0, 2)
    >>> round(res.pvalue, 4)
    0.011
    """
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"))
    alternative = check_choice(alternative, "alternative", _ALTERNATIVES)
    zero_method = check_choice(zero_method, "zero_method", _ZERO_METHODS)
    d = a - b
    zero = d == 0
    ranked = ~zero if zero_method == "wilcox" else np.ones(d.size, dtype=bool)
    ranks = np.zeros(d.size)
    ranks[ranked] = stats.rankdata(np.abs(d[ranked]))
    zero_share = ranks[zero].sum() / 2 if zero_method == "zsplit" else 0.0
    r_plus = float(ranks[d > 0].sum() + zero_share)
    r_minus = float(ranks[d < 0].sum() + zero_share)
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    if zero.all():
        warnings.warn(
            "Every difference between `scores_a` and `scores_b` is zero: the test has "
            "no information; the p-value is set to 1.",
            UserWarning,
            stacklevel=2,
        )
        pvalue = 1.0
    else:
        res = stats.wilcoxon(a, b, zero_method=zero_method, alternative=alternative)
        pvalue = float(res.pvalue)
    return WilcoxonResult(
        statistic=statistic,
        pvalue=pvalue,
        r_plus=r_plus,
        r_minus=r_minus,
        n=int(d.size),
        n_zero=int(zero.sum()),
        zero_method=zero_method,
        alternative=alternative,
    )

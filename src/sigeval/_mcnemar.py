"""The McNemar core: the one implementation of the test on disagreement counts, and the checks of its counts and form.

Private: :mod:`sigeval.paired` (the tests), :mod:`sigeval.power_mcnemar` (rejection regions)
and :mod:`sigeval.course.dietterich` call it.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._validation import MAX_COUNT, _integer_array, _show, check_broadcast, check_flag


def check_disagreements(n01: ArrayLike, n10: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Two disagreement counts as broadcast int64 arrays of non-negative whole numbers."""
    arrays = []
    for value, name in ((n01, "n01"), (n10, "n10")):
        arr = _integer_array(value, name)
        if np.any(arr < 0):
            raise ValueError(f"`{name}` must be a non-negative count; got {_show(arr[arr < 0])}.")
        arrays.append(arr)
    n01_arr, n10_arr = check_broadcast(tuple(arrays), ("n01", "n10"))
    # The binomial of m = n01 + n10 trials is exact in float64 up to 2**53.
    big = n01_arr + n10_arr > MAX_COUNT
    if np.any(big):
        raise ValueError(
            f"`n01 + n10` must be at most 2**53 = {MAX_COUNT:,}; got "
            f"{_show(n01_arr[big] + n10_arr[big])}."
        )
    return n01_arr, n10_arr


def check_form(exact: bool, continuity: bool, mid_p: bool) -> tuple[bool, bool, bool]:
    """The three flags that choose the form of McNemar's test, validated together."""
    exact = check_flag(exact, "exact")
    continuity = check_flag(continuity, "continuity")
    mid_p = check_flag(mid_p, "mid_p")
    if mid_p and not exact:
        raise ValueError(
            "`mid_p=True` is the mid-p version of the exact binomial test and needs "
            "`exact=True`; got exact=False. Use exact=False alone for the chi-square test."
        )
    return exact, continuity, mid_p


def method_name(exact: bool, continuity: bool, mid_p: bool) -> str:
    if exact:
        return "mid-p" if mid_p else "exact"
    return "chi-square (continuity corrected)" if continuity else "chi-square"


def mcnemar_core(
    n01: np.ndarray, n10: np.ndarray, exact: bool, continuity: bool, mid_p: bool = False
):
    """Statistic and two-sided p-value for validated integer counts (any shape).

    The one implementation of the test: :func:`mcnemar`, :func:`mcnemar_counts`
    and the rejection regions of :func:`~sigeval.power_mcnemar.mcnemar_power` all use it.
    """
    m = n01 + n10
    if exact:
        statistic = np.minimum(n01, n10).astype(float)
        # Binomial(0, 1/2) puts all its mass on 0, so m = 0 gives p = 1 here too.
        pvalue = np.minimum(1.0, 2.0 * stats.binom.cdf(statistic, m, 0.5))
        if mid_p:
            point = stats.binom.pmf(statistic, m, 0.5)
            # Off the centre 2 F(k) <= 1, so the exact p-value was not capped and
            # the mid-p value is 2 [F(k) - P(k)/2]. At n01 == n10 Fagerland et al.
            # (2013) take 1 - P(k)/2; without disagreements p stays 1.
            tie = 2 * statistic == m
            pvalue = np.where(tie, 1.0 - 0.5 * point, pvalue - point)
            pvalue = np.where(m == 0, 1.0, pvalue)
    else:
        excess = np.abs(n01 - n10) - (1 if continuity else 0)
        # With m = 0 the clipped excess is 0, so dividing by max(m, 1) gives chi2 = 0.
        statistic = np.maximum(excess, 0).astype(float) ** 2 / np.maximum(m, 1)
        pvalue = stats.chi2.sf(statistic, 1)
    return statistic, pvalue

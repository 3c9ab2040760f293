"""Equivalence: can we claim that two procedures do not differ?

The two one-sided tests (TOST) ask whether the mean paired difference lies
within a margin declared negligible; crossed with the difference test, they
give one of four verdicts: different, equivalent, trivial, undetermined.

Explained in :ref:`ch-power`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._paired_t import Summaries, student, summarise, tost
from ._results import ConfidenceInterval
from ._validation import (
    _show,
    check_alpha,
    check_alpha_tost,
    check_broadcast,
    check_difference,
    check_finite_array,
    check_paired,
    check_positive_real,
)

__all__ = [
    "VERDICTS",
    "TOSTResult",
    "tost_paired",
    "VerdictResult",
    "verdict",
    "verdict_from_pvalues",
]

#: Verdicts of :func:`verdict`, crossing the difference test with TOST (seed report API).
VERDICTS = ("different", "equivalent", "trivial", "undetermined")



@dataclass(frozen=True)
class TOSTResult:
    """Result of :func:`tost_paired`.

    Attributes
    ----------
    estimate : float
        Mean paired difference ``scores_a - scores_b``.
    margin : float
        The equivalence margin: differences within ``(-margin, margin)`` are negligible.
    statistic_lower, pvalue_lower : float
        One-sided test of ``H0: mean <= -margin``.
    statistic_upper, pvalue_upper : float
        One-sided test of ``H0: mean >= +margin``.
    pvalue : float
        The larger of the two one-sided p-values: the TOST p-value.
    df : int
        Degrees of freedom, ``n - 1``.
    confidence_interval : ConfidenceInterval
        The ``1 - 2 alpha`` interval for the mean difference.
    confidence_level : float
        ``1 - 2 alpha``.
    equivalent : bool
        ``pvalue <= alpha``: the interval lies inside ``[-margin, margin]``.
    alpha : float
        The level of each one-sided test.
    n : int
        Number of pairs.
    """

    estimate: float
    margin: float
    statistic_lower: float
    pvalue_lower: float
    statistic_upper: float
    pvalue_upper: float
    pvalue: float
    df: int
    confidence_interval: ConfidenceInterval
    confidence_level: float
    equivalent: bool
    alpha: float
    n: int


def _tost(pairs: Summaries, margin: float, alpha: float) -> TOSTResult:
    values, reason = tost(pairs, margin, alpha)
    if reason[0]:
        raise ValueError(reason[0])
    v = {key: float(column[0]) for key, column in values.items()}
    return TOSTResult(
        estimate=float(pairs.mean[0]),
        margin=margin,
        statistic_lower=v["statistic_lower"],
        pvalue_lower=v["pvalue_lower"],
        statistic_upper=v["statistic_upper"],
        pvalue_upper=v["pvalue_upper"],
        pvalue=v["pvalue"],
        df=int(pairs.n[0] - 1),
        confidence_interval=ConfidenceInterval(v["ci_low"], v["ci_high"]),
        confidence_level=1 - 2 * alpha,
        equivalent=bool(v["pvalue"] <= alpha),
        alpha=alpha,
        n=int(pairs.n[0]),
    )


def _checked_pairs_for_tost(scores_a, scores_b, margin, alpha) -> tuple[Summaries, float, float]:
    c, r = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    check_difference(c, r, ("scores_a", "scores_b"))
    return summarise(c, r), check_positive_real(margin, "margin"), check_alpha_tost(alpha)


def tost_paired(
    scores_a: ArrayLike, scores_b: ArrayLike, *, margin: float, alpha: float = 0.05
) -> TOSTResult:
    r"""Two one-sided paired t-tests for equivalence within ``margin`` (TOST).

    A large p-value of the difference test does not show that two procedures
    are equivalent. TOST (Schuirmann, 1987; Lakens, 2017) rejects both
    :math:`H_0^-: \mu \le -\Delta` and :math:`H_0^+: \mu \ge \Delta` for the
    mean paired difference :math:`\mu` and a margin :math:`\Delta` fixed in advance:

    .. math::

        t^- = \frac{\bar d + \Delta}{s_d/\sqrt n},\quad p^- = P(T_{n-1} \ge t^-);
        \qquad
        t^+ = \frac{\bar d - \Delta}{s_d/\sqrt n},\quad p^+ = P(T_{n-1} \le t^+).

    The TOST p-value is :math:`\max(p^-, p^+)`; equivalence is declared when
    it is below :math:`\alpha`, which happens exactly when the
    :math:`1 - 2\alpha` interval :math:`\bar d \pm t_{n-1,1-\alpha}\,s_d/\sqrt n`
    lies inside :math:`(-\Delta, \Delta)`.

    The margin has no default: it is the smallest difference that would
    change a decision, and an equivalence claim means nothing without it.

    Both one-sided tests are t-tests: with few pairs and skewed differences
    their level is not kept (see :func:`~sigeval.procedures.paired_difference`),
    a property of the t test rather than of this code.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the paired runs, at least 2 pairs, no NaN.
    margin : float
        Equivalence margin :math:`\Delta > 0`, in the units of the scores.
    alpha : float
        Level of each one-sided test, in (0, 0.5).

    Returns
    -------
    TOSTResult

    Raises
    ------
    ValueError
        If the arrays differ in length, hold NaN or fewer than 2 pairs, the
        differences are all equal (up to rounding error relative to the
        scores), a result overflows float64, ``margin <= 0`` or ``alpha`` is
        outside (0, 0.5).

    Notes
    -----
    Explained in :ref:`ch-power`.

    Examples
    --------
    >>> from sigeval import tost_paired
    >>> a = [0.712, 0.705, 0.718, 0.709, 0.714, 0.707]
    >>> b = [0.710, 0.707, 0.715, 0.710, 0.712, 0.708]
    >>> res = tost_paired(a, b, margin=0.01)
    >>> round(res.pvalue, 6), res.equivalent
    (4.9e-05, True)
    >>> round(res.confidence_interval.low, 4), round(res.confidence_interval.high, 4)
    (-0.0012, 0.0022)
    """
    pairs, margin, alpha = _checked_pairs_for_tost(scores_a, scores_b, margin, alpha)
    return _tost(pairs, margin, alpha)


@dataclass(frozen=True)
class VerdictResult:
    """Result of :func:`verdict`.

    Attributes
    ----------
    verdict : str
        One of :data:`VERDICTS`.
    estimate : float
        Mean paired difference ``scores_a - scores_b``.
    pvalue_difference : float
        Two-sided paired t-test of a zero mean difference.
    pvalue_equivalence : float
        TOST p-value for the margin.
    margin : float
        The equivalence margin.
    alpha : float
        The level of both tests.
    """

    verdict: str
    estimate: float
    pvalue_difference: float
    pvalue_equivalence: float
    margin: float
    alpha: float


def verdict_from_pvalues(
    pvalue_difference: float | ArrayLike,
    pvalue_equivalence: float | ArrayLike,
    *,
    alpha: float = 0.05,
) -> str | np.ndarray:
    """Cross a difference test with an equivalence test into four verdicts.

    ============================  =================  ====================
    difference test (p <= alpha)  TOST (p <= alpha)  verdict
    ============================  =================  ====================
    rejects                       does not reject    ``"different"``
    does not reject               rejects            ``"equivalent"``
    rejects                       rejects            ``"trivial"``
    does not reject               does not reject    ``"undetermined"``
    ============================  =================  ====================

    Use it on p-values already adjusted for multiple comparisons (for
    example Holm within each family), as a report over many pairs does.

    Parameters
    ----------
    pvalue_difference, pvalue_equivalence : float or array_like
        p-values in [0, 1], broadcast against each other.
    alpha : float
        Level of both tests: each rejects when its p-value is at most ``alpha``.

    Returns
    -------
    str or ndarray of str
        A verdict per pair of p-values.

    Raises
    ------
    ValueError
        If a p-value is outside [0, 1], the shapes do not broadcast or
        ``alpha`` is outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-power`.

    Examples
    --------
    >>> from sigeval import verdict_from_pvalues
    >>> verdict_from_pvalues([0.01, 0.4, 0.01, 0.4], [0.3, 0.02, 0.001, 0.2])
    array(['different', 'equivalent', 'trivial', 'undetermined'], dtype='<U12')
    """
    alpha = check_alpha(alpha)
    p_diff = check_finite_array(pvalue_difference, "pvalue_difference")
    p_eq = check_finite_array(pvalue_equivalence, "pvalue_equivalence")
    for p, name in ((p_diff, "pvalue_difference"), (p_eq, "pvalue_equivalence")):
        bad = (p < 0) | (p > 1)
        if np.any(bad):
            raise ValueError(f"`{name}` must lie in [0, 1]; got {_show(p[bad])}.")
    p_diff, p_eq = check_broadcast((p_diff, p_eq), ("pvalue_difference", "pvalue_equivalence"))
    # Index = 2 * (difference rejects) + (TOST rejects) into this table.
    table = np.array(["undetermined", "equivalent", "different", "trivial"])
    labels = table[2 * (p_diff <= alpha) + (p_eq <= alpha)]
    return str(labels) if labels.ndim == 0 else labels


def verdict(
    scores_a: ArrayLike, scores_b: ArrayLike, *, margin: float, alpha: float = 0.05
) -> VerdictResult:

    """Four verdicts from a paired difference test and a paired TOST.

    Runs the two-sided paired t-test of a zero mean difference and
    :func:`tost_paired` on the same pairs, both at ``alpha``, and crosses
    them (:func:`verdict_from_pvalues`):

    ``"different"``
        The difference test rejects, TOST does not: a real difference, not
        shown to lie within the margin.
    ``"equivalent"``
        TOST rejects, the difference test does not: any difference is
        smaller than the margin.
    ``"trivial"``
        Both reject: a real difference, but smaller than the margin.
    ``"undetermined"``
        Neither rejects: the design cannot support either claim (see
        :func:`~sigeval.power.power_paired`).

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the paired runs, at least 2 pairs, no NaN.
    margin : float
        Equivalence margin, ``> 0``, in the units of the scores.
    alpha : float
        Level of both tests, in (0, 0.5).

    Returns
    -------
    VerdictResult

    Raises
    ------
    ValueError
        As :func:`tost_paired`.

    Notes
    -----
    Explained in :ref:`ch-power`.

    Examples
    --------
    >>> from sigeval import verdict
    >>> a = [0.712, 0.705, 0.718, 0.709, 0.714, 0.707]
    >>> b = [0.710, 0.707, 0.715, 0.710, 0.712, 0.708]
    >>> verdict(a, b, margin=0.01).verdict
    'equivalent'
    >>> verdict(a, b, margin=0.001).verdict
    'undetermined'
    """
    pairs, margin, alpha = _checked_pairs_for_tost(scores_a, scores_b, margin, alpha)
    equivalence = _tost(pairs, margin, alpha)
    difference, reason = student(pairs, alpha)
    if reason[0]:
        raise ValueError(reason[0])
    pvalue_difference = float(difference["pvalue"][0])
    return VerdictResult(
        verdict=verdict_from_pvalues(pvalue_difference, equivalence.pvalue, alpha=alpha),
        estimate=equivalence.estimate,
        pvalue_difference=pvalue_difference,
        pvalue_equivalence=equivalence.pvalue,
        margin=margin,
        alpha=alpha,
    )

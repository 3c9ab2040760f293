"""Tests over repeated train/test splits of one dataset.

The splits of a cross-validation share training data, so their differences are
not independent and the plain paired t-test over them is too liberal.
Dietterich's (1998) 5x2cv t-test, Alpaydin's (1999) combined F-test and the
corrected resampled t-test of Nadeau & Bengio (2003) account for it.

Explained in :ref:`ch-procedures`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._ttest import _spread, _two_sided_p
from ._validation import (
    check_finite_array,
    check_positive_int,
    check_scores,
)

__all__ = [
    "CVTTestResult",
    "CVFTestResult",
    "five_by_two_cv_t",
    "five_by_two_cv_f",
    "corrected_resampled_t",
]



@dataclass(frozen=True)
class CVTTestResult:
    """Result of :func:`five_by_two_cv_t` and :func:`corrected_resampled_t`.

    Attributes
    ----------
    statistic : float
        The t statistic.
    pvalue : float
        Two-sided p-value.
    df : int
        Degrees of freedom of the reference t distribution.
    estimate : float
        Mean of all the score differences given (for reporting; the 5×2cv t
        statistic's numerator is the first difference only).
    """

    statistic: float
    pvalue: float
    df: int
    estimate: float


@dataclass(frozen=True)
class CVFTestResult:
    """Result of :func:`five_by_two_cv_f`.

    Attributes
    ----------
    statistic : float
        The F statistic.
    pvalue : float
        Upper-tail p-value.
    df : tuple of int
        Numerator and denominator degrees of freedom, ``(10, 5)``.
    """

    statistic: float
    pvalue: float
    df: tuple[int, int]


def _five_by_two(differences: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The (5, 2) fold differences and each replication's variance estimate s_i^2."""
    p = check_finite_array(differences, "differences")
    if p.shape != (5, 2):
        raise ValueError(
            "`differences` must have shape (5, 2): 5 replications of 2-fold cross-validation, "
            f"one score difference per fold; got shape {p.shape}."
        )
    s2 = np.sum((p - p.mean(axis=1, keepdims=True)) ** 2, axis=1)
    if not np.any(s2 > 0):
        raise ValueError(
            "`differences` has equal differences in both folds of every replication: the "
            "5x2cv variance estimate is zero and the test is undefined."
        )
    return p, s2


def five_by_two_cv_t(differences: ArrayLike) -> CVTTestResult:
    r"""Dietterich's (1998) 5×2cv paired t-test.

    Five replications of 2-fold cross-validation give differences
    :math:`p_i^{(j)}` (replication :math:`i`, fold :math:`j`) between the two
    procedures' scores. With :math:`\bar p_i = (p_i^{(1)} + p_i^{(2)})/2` and
    :math:`s_i^2 = (p_i^{(1)} - \bar p_i)^2 + (p_i^{(2)} - \bar p_i)^2`,

    .. math:: t = \frac{p_1^{(1)}}{\sqrt{\frac15 \sum_{i=1}^5 s_i^2}} \sim t_5

    under the null hypothesis of equal performance. Dietterich found it has
    acceptable type I error and recommended it for algorithms that can be
    run ten times.

    Parameters
    ----------
    differences : array_like, shape (5, 2)
        ``differences[i, j]`` is the score of A minus the score of B when trained on
        one half and tested on the other, in replication ``i``, fold ``j``.

    Returns
    -------
    CVTTestResult

    Raises
    ------
    ValueError
        If ``differences`` is not (5, 2), holds NaN, or all :math:`s_i^2` are zero.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    >>> from sigeval import five_by_two_cv_t
    >>> differences = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.02], [0.02, 0.01]]
    >>> res = five_by_two_cv_t(differences)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (1.5811, 0.1747, 5)
    """
    p, s2 = _five_by_two(differences)
    statistic = float(p[0, 0] / np.sqrt(s2.mean()))
    return CVTTestResult(
        statistic=statistic, pvalue=_two_sided_p(statistic, 5), df=5, estimate=float(p.mean())
    )


def five_by_two_cv_f(differences: ArrayLike) -> CVFTestResult:
    r"""Alpaydin's (1999) combined 5×2cv F test.

    With the fold differences :math:`p_i^{(j)}` and :math:`s_i^2` of
    :func:`five_by_two_cv_t`,

    .. math::

        F = \frac{\sum_{i=1}^5 \sum_{j=1}^2 \bigl(p_i^{(j)}\bigr)^2}{2 \sum_{i=1}^5 s_i^2}
        \sim F_{10,\,5}

    under the null hypothesis. It uses all ten differences instead of the
    first one, which makes it more robust than Dietterich's t to the choice
    of that one fold.

    Parameters
    ----------
    differences : array_like, shape (5, 2)
        As in :func:`five_by_two_cv_t`.

    Returns
    -------
    CVFTestResult

    Raises
    ------
    ValueError
        If ``differences`` is not (5, 2), holds NaN, or all :math:`s_i^2` are zero.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    >>> from sigeval import five_by_two_cv_f
    >>> differences = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.02], [0.02, 0.01]]
    >>> res = five_by_two_cv_f(differences)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (3.25, 0.1027, (10, 5))
    """
    p, s2 = _five_by_two(differences)
    statistic = float(np.sum(p**2) / (2 * np.sum(s2)))
    pvalue = float(stats.f.sf(statistic, 10, 5))
    return CVFTestResult(statistic=statistic, pvalue=pvalue, df=(10, 5))


def corrected_resampled_t(differences: ArrayLike, *, n_train: int, n_test: int) -> CVTTestResult:
    r"""Nadeau and Bengio's (2003) corrected resampled t-test.

    Over :math:`J` random train/test splits (or the :math:`J = rk` folds of
    :math:`r`-times repeated :math:`k`-fold cross-validation) the score
    differences :math:`d_j` are correlated, because the training sets
    overlap; the naive t-test then rejects far too often (Dietterich, 1998).
    Nadeau and Bengio inflate the variance by the test-to-training ratio:

    .. math::

        t = \frac{\bar d}{\sqrt{\bigl(\frac1J + \frac{n_\text{test}}{n_\text{train}}\bigr)\, s^2}}
        \sim t_{J-1},

    with :math:`s^2` the sample variance of the :math:`d_j` (:math:`J - 1`
    denominator). Without the :math:`n_\text{test}/n_\text{train}` term this
    is the ordinary one-sample t-test.

    Parameters
    ----------
    differences : array_like of float, 1-D
        One score difference (A minus B) per split, at least 2.
    n_train, n_test : int
        Sizes of each training set and each test set.

    Returns
    -------
    CVTTestResult

    Raises
    ------
    ValueError
        If ``differences`` has fewer than 2 values, holds NaN, has zero spread, or
        a size is below 1.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    Ten 90/10 splits of 1,000 examples:

    >>> from sigeval import corrected_resampled_t
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01]
    >>> res = corrected_resampled_t(d, n_train=900, n_test=100)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (3.454, 0.0072, 9)
    """
    d = check_scores(differences, "differences", min_size=2)
    n_train = check_positive_int(n_train, "n_train")
    n_test = check_positive_int(n_test, "n_test")
    mean, sd, _ = _spread(d, "differences `differences`")
    df = d.size - 1
    statistic = mean / math.sqrt((1 / d.size + n_test / n_train) * sd**2)
    return CVTTestResult(
        statistic=statistic, pvalue=_two_sided_p(statistic, df), df=int(df), estimate=mean
    )

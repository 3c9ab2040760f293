"""Tests that compare two learning algorithms on one dataset.

Dietterich (1998) studied five tests: the test for the difference of two
proportions and McNemar's test (:func:`sigeval.paired.mcnemar`) on one
train/test split, the resampled paired t-test over random splits, the
cross-validated paired t-test over the folds of k-fold cross-validation, and
his own 5x2cv t-test. The splits of a cross-validation share training data, so
their differences are not independent and the plain paired t-test over them
is too liberal. The 5x2cv t-test, Alpaydin's (1999) combined F-test and the
corrected resampled t-test of Nadeau & Bengio (2003) account for it.

Explained in :ref:`ch-procedures`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import safe_scale
from ._ttest import (
    corrected_t_core,
    five_by_two_f_core,
    five_by_two_t_core,
    five_by_two_variances,
    paired_t_core,
    proportions_core,
    spread,
)
from ._validation import (
    check_broadcast,
    check_counts,
    check_finite_array,
    check_positive_int,
    check_scores,
    has_spread,
    scalar_or_array,
)

__all__ = [
    "CVTTestResult",
    "CVFTestResult",
    "ProportionsTestResult",
    "difference_of_proportions_test",
    "resampled_paired_t",
    "kfold_cv_paired_t",
    "five_by_two_cv_t",
    "five_by_two_cv_f",
    "corrected_resampled_t",
]



@dataclass(frozen=True)
class CVTTestResult:
    """Result of the t-tests over splits: :func:`resampled_paired_t`,
    :func:`kfold_cv_paired_t`, :func:`five_by_two_cv_t` and
    :func:`corrected_resampled_t`.

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








def _five_by_two(differences: ArrayLike) -> tuple[np.ndarray, float]:
    """The (5, 2) fold differences divided by a power of two, and that power.

    Both statistics are ratios of squares, unchanged by the scale, which only
    keeps the squares of values beyond about 1e154 from overflowing. Refused
    when every s_i^2 is zero.
    """
    p = check_finite_array(differences, "differences")
    if p.shape != (5, 2):
        raise ValueError(
            "`differences` must have shape (5, 2): 5 replications of 2-fold cross-validation, "
            f"one score difference per fold; got shape {p.shape}."
        )
    scale = safe_scale(p, power=2)
    p = p / scale
    # s_i^2 of equal folds can be rounding error above zero: compare with the scale.
    if not has_spread(math.sqrt(float(five_by_two_variances(p).max())), p):
        raise ValueError(
            "`differences` has equal differences in both folds of every replication: the "
            "5x2cv variance estimate is zero and the test is undefined."
        )
    return p, scale


@dataclass(frozen=True)
class ProportionsTestResult:
    """Result of :func:`difference_of_proportions_test`.

    Scalars for scalar counts, arrays of the broadcast shape otherwise.

    Attributes
    ----------
    statistic : float or ndarray
        The z statistic.
    pvalue : float or ndarray
        Two-sided p-value from the standard normal.
    estimate : float or ndarray
        Accuracy of A minus accuracy of B, ``(k_a - k_b) / n``.
    standard_error : float or ndarray
        :math:`\\sqrt{2\\bar p(1 - \\bar p)/n}`, the standard error of two
        *independent* proportions.
    """

    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    estimate: float | np.ndarray
    standard_error: float | np.ndarray




def difference_of_proportions_test(
    k_a: int | ArrayLike, k_b: int | ArrayLike, n: int | ArrayLike
) -> ProportionsTestResult:
    r"""Dietterich's (1998) test 1: the difference of two proportions on one test set.

    Models A and B, trained on the same training set, classify ``k_a`` and
    ``k_b`` of the same ``n`` test items correctly. The test treats the two
    accuracies :math:`\hat p_A = k_a/n` and :math:`\hat p_B = k_b/n` as
    independent binomial proportions:

    .. math::

        z = \frac{\hat p_A - \hat p_B}{\sqrt{2\bar p(1 - \bar p)/n}}, \qquad
        \bar p = \frac{\hat p_A + \hat p_B}{2},

    referred to the standard normal. (Dietterich writes it with error rates;
    :math:`\bar p(1 - \bar p)` and :math:`|z|` are the same.) It is in the
    library to show what goes wrong: the two accuracies are measured on the
    *same* items, so they are positively correlated and the denominator
    overstates the noise of their difference (:func:`~sigeval.paired.mcnemar`
    and :func:`~sigeval.paired.difference_se` use the pairing); and the
    training set is a single draw, whose variability no test on one split can
    see. Dietterich found its type I error high in some settings and
    recommended against it.

    The counts broadcast against each other (e.g. one test per simulated
    dataset). When both models are right on every item, or wrong on every
    item, the standard error is 0 and the statistic is set to 0 (p = 1).

    Parameters
    ----------
    k_a, k_b : int or array_like of int
        Test items that A, and B, classify correctly.
    n : int or array_like of int
        Test items, at least 1.

    Returns
    -------
    ProportionsTestResult

    Raises
    ------
    ValueError
        If a count is negative, not a whole number, exceeds ``n``, or the
        shapes do not broadcast.
    TypeError
        If a count is not a number.

    See Also
    --------
    sigeval.paired.mcnemar_counts : the paired test on the same split.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing
    supervised classification learning algorithms. *Neural Computation*
    10(7), 1895–1923.

    Examples
    --------
    The article's two matchers on 1,000 images (845 and 829 right): the
    unpaired test sees nothing, where McNemar's test on the same items is
    close to significance.

    >>> from sigeval import difference_of_proportions_test, mcnemar_counts
    >>> res = difference_of_proportions_test(845, 829, 1000)
    >>> round(res.estimate, 3), round(res.standard_error, 4), round(res.pvalue, 3)
    (0.016, 0.0165, 0.333)
    >>> round(mcnemar_counts(44, 28).pvalue, 3)
    0.076
    """
    k_a_arr, n_a = check_counts(k_a, n, ("k_a", "n"))
    k_b_arr, n_b = check_counts(k_b, n, ("k_b", "n"))
    k_a_arr, k_b_arr, n_arr, _ = check_broadcast((k_a_arr, k_b_arr, n_a, n_b), ("k_a", "k_b", "n", "n"))
    statistic, pvalue, estimate, se = proportions_core(k_a_arr, k_b_arr, n_arr)
    return ProportionsTestResult(
        statistic=scalar_or_array(statistic),
        pvalue=scalar_or_array(pvalue),
        estimate=scalar_or_array(estimate),
        standard_error=scalar_or_array(se),
    )




def _paired_t(differences: ArrayLike, what: str) -> CVTTestResult:
    d = check_scores(differences, "differences", min_size=2)
    mean, _, _ = spread(d, f"{what} `differences`")
    # t is unchanged by the power-of-two scale, which keeps squares from overflowing.
    statistic, pvalue = paired_t_core(d / safe_scale(d, power=2))
    return CVTTestResult(
        statistic=float(statistic), pvalue=float(pvalue), df=int(d.size - 1), estimate=mean
    )


def resampled_paired_t(differences: ArrayLike) -> CVTTestResult:
    r"""Dietterich's (1998) test 3: the resampled paired t-test over random splits.

    The data are split at random into a training and a test set :math:`J`
    times (Dietterich used :math:`J = 30` splits of two thirds and one
    third); both algorithms are trained on each training set and scored on
    its test set, giving differences :math:`d_j` (A minus B). Then

    .. math::

        t = \frac{\bar d \sqrt J}{s}, \qquad
        s^2 = \frac{1}{J - 1} \sum_{j=1}^J (d_j - \bar d)^2,

    referred to a t distribution with :math:`J - 1` degrees of freedom: the
    ordinary one-sample t-test of the differences. It is in the library to
    show what goes wrong. The splits reuse the same items, so the
    :math:`d_j` are far from independent and :math:`s^2/J` understates the
    variance of :math:`\bar d`; the test asks whether A beats B *on this
    dataset's items*, not in the population. Dietterich found its type I
    error far above :math:`\alpha` and advised never to use it;
    :func:`corrected_resampled_t` (Nadeau & Bengio, 2003) inflates the
    variance to compensate, and :func:`five_by_two_cv_t` keeps the level.

    Parameters
    ----------
    differences : array_like of float, 1-D
        One score difference (A minus B) per random split, at least 2.

    Returns
    -------
    CVTTestResult
        With ``df = J - 1`` and ``estimate`` the mean difference.

    Raises
    ------
    ValueError
        If ``differences`` has fewer than 2 values, holds NaN or has zero spread (all equal up to rounding error).

    See Also
    --------
    corrected_resampled_t : the same splits, with the variance corrected.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    Ten 90/10 splits of 1,000 examples; the corrected test on the same
    differences gives a smaller t, and a p-value ten times larger (0.0072):

    >>> from sigeval import corrected_resampled_t, resampled_paired_t
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01]
    >>> res = resampled_paired_t(d)
    >>> round(res.statistic, 3), round(res.pvalue, 5), res.df
    (5.019, 0.00072, 9)
    >>> round(corrected_resampled_t(d, n_train=900, n_test=100).statistic, 3)
    3.454
    """
    return _paired_t(differences, "split differences")


def kfold_cv_paired_t(differences: ArrayLike) -> CVTTestResult:
    r"""Dietterich's (1998) test 4: the k-fold cross-validated paired t-test.

    The data are cut into :math:`k` folds; each fold in turn is the test set
    of both algorithms, trained on the other :math:`k - 1` folds, giving one
    difference :math:`d_i` (A minus B) per fold. Then

    .. math:: t = \frac{\bar d \sqrt k}{s} \sim t_{k-1},

    with :math:`s` the sample standard deviation of the :math:`d_i`. Unlike
    :func:`resampled_paired_t` the test sets do not overlap, but every two
    training sets share :math:`(k - 2)/(k - 1)` of their items, so the
    differences are still correlated. Dietterich found the type I error of
    the 10-fold test somewhat above :math:`\alpha`, and its power the
    highest of the five tests.

    Parameters
    ----------
    differences : array_like of float, 1-D
        One score difference (A minus B) per fold, at least 2.

    Returns
    -------
    CVTTestResult
        With ``df = k - 1`` and ``estimate`` the mean difference.

    Raises
    ------
    ValueError
        If ``differences`` has fewer than 2 values, holds NaN or has zero spread (all equal up to rounding error).

    See Also
    --------
    five_by_two_cv_t : Dietterich's alternative with acceptable type I error.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    >>> from sigeval import kfold_cv_paired_t
    >>> d = [0.03, -0.01, 0.02, 0.04, 0.00, 0.01, 0.02, -0.02, 0.03, 0.01]
    >>> res = kfold_cv_paired_t(d)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (2.177, 0.0575, 9)
    """
    return _paired_t(differences, "fold differences")


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
    p, scale = _five_by_two(differences)
    statistic, pvalue = five_by_two_t_core(p)
    return CVTTestResult(
        statistic=float(statistic),
        pvalue=float(pvalue),
        df=5,
        estimate=float(p.mean()) * scale,
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
    statistic, pvalue = five_by_two_f_core(_five_by_two(differences)[0])
    return CVFTestResult(statistic=float(statistic), pvalue=float(pvalue), df=(10, 5))


def corrected_resampled_t(differences: ArrayLike, *, n_train: int, n_test: int) -> CVTTestResult:
    r"""Nadeau and Bengio's (2003) corrected resampled t-test.

    Over :math:`J` random train/test splits the score differences
    :math:`d_j` are correlated, because the training sets overlap; the naive
    t-test then has a high type I error (Dietterich, 1998). Nadeau and
    Bengio inflate the variance by the test-to-training ratio (Bouckaert &
    Frank, 2004, apply the same correction to the :math:`J = rk` folds of
    :math:`r`-times repeated :math:`k`-fold cross-validation, with
    :math:`n_\text{test}/n_\text{train} = 1/(k - 1)`):

    .. math::

        t = \frac{\bar d}{\sqrt{\bigl(\frac1J + \frac{n_\text{test}}{n_\text{train}}\bigr)\, s^2}}
        \approx t_{J-1},

    with :math:`s^2` the sample variance of the :math:`d_j` (:math:`J - 1`
    denominator). Without the :math:`n_\text{test}/n_\text{train}` term this
    is the ordinary one-sample t-test.

    The correction assumes that two splits' differences have the correlation
    :math:`\rho_0 = n_\text{test}/n`; the reference :math:`t_{J-1}` is exact only
    for normal differences with that one common correlation. When the true
    correlation is larger (a learner whose result depends more on the dataset)
    the variance is underestimated and the test is liberal; when it is smaller,
    conservative (:ref:`ch-procedures` computes by how much).

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
        If ``differences`` has fewer than 2 values, holds NaN, has zero spread (up to rounding error), or
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
    mean, _, _ = spread(d, "differences `differences`")
    statistic, pvalue = corrected_t_core(d / safe_scale(d, power=2), n_train, n_test)
    return CVTTestResult(
        statistic=float(statistic), pvalue=float(pvalue), df=int(d.size - 1), estimate=mean
    )



"""Two scoring models compared by the area under their ROC curves.

When two models output a score per item (a probability, a margin, a
similarity) rather than a hard decision, their ranking quality is summarised
by the area under the ROC curve (AUC): the probability that a random positive
item scores above a random negative one. Scored on the same items, the two
AUCs are correlated like two accuracies are; DeLong's test uses that pairing,
as McNemar's test does for accuracies.

Explained in :ref:`ch-two-models`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._results import ConfidenceInterval
from ._validation import check_binary, check_scores, check_unit_interval

__all__ = ["AUCInterval", "DeLongResult", "delong_ci", "delong_test"]


@dataclass(frozen=True)
class DeLongResult:
    """Result of :func:`delong_test`.

    Attributes
    ----------
    auc_a, auc_b : float
        Area under the ROC curve of each model (ties count one half).
    estimate : float
        ``auc_a - auc_b``.
    standard_error : float
        DeLong's standard error of the difference.
    statistic : float
        :math:`z = \\text{estimate} / \\text{standard\\_error}`.
    pvalue : float
        Two-sided p-value from the standard normal distribution.
    confidence_interval : ConfidenceInterval
        Wald interval of the difference, ``estimate ± z_{1-α/2} · standard_error``.
    confidence_level : float
        The level of ``confidence_interval``.
    n_positive, n_negative : int
        Number of positive (label 1) and negative (label 0) items.
    """

    auc_a: float
    auc_b: float
    estimate: float
    standard_error: float
    statistic: float
    pvalue: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n_positive: int
    n_negative: int


def _check_labels(labels: ArrayLike) -> np.ndarray:
    """Binary labels (0/1 or bool) holding at least two items of each class."""
    y = check_binary(labels, "labels")
    n_pos = int(np.count_nonzero(y))
    n_neg = y.size - n_pos
    if n_pos == 0 or n_neg == 0:
        only = "positive (1)" if n_neg == 0 else "negative (0)"
        raise ValueError(
            "`labels` must hold both classes (1 = positive, 0 = negative); got only "
            f"{only} labels in {y.size} items. The AUC compares positives with negatives."
        )
    if min(n_pos, n_neg) < 2:
        raise ValueError(
            "`labels` must hold at least 2 positive and 2 negative items (DeLong's variance "
            f"is a sample variance over each class); got {n_pos} positive and {n_neg} negative."
        )
    return y


def _placements(y: np.ndarray, scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """DeLong's structural components by one sort per model (Sun & Xu, 2014), for rows of ``scores``.

    ``scores`` has shape ``(k, n_items)``. Returns ``v10`` of shape
    ``(k, n_pos)``, the share of negatives each positive outscores, and
    ``v01`` of shape ``(k, n_neg)``, the share of positives that outscore
    each negative; ties count one half. In the sorted scores, a positive's
    negatives below are those before its group of tied scores, plus half of
    those in the group: Sun and Xu's midrank among all items less its
    midrank among the positives, counted directly.
    """
    k, size = scores.shape
    m = int(np.count_nonzero(y))
    n = size - m
    order = np.argsort(scores, axis=1)  # any order within ties: only counts per group are used
    ordered = np.take_along_axis(scores, order, axis=1)
    positive = y[order]
    position = np.arange(size)
    new_group = np.ones((k, size), dtype=bool)
    new_group[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    last_of_group = np.ones((k, size), dtype=bool)
    last_of_group[:, :-1] = new_group[:, 1:]
    first = np.maximum.accumulate(np.where(new_group, position, 0), axis=1)
    last = np.minimum.accumulate(np.where(last_of_group, position, size - 1)[:, ::-1], axis=1)[:, ::-1]
    rows = np.arange(k)[:, None]
    # Negatives (and positives) up to and including each sorted position.
    negatives_to = np.cumsum(~positive, axis=1)
    positives_to = position + 1 - negatives_to
    negatives_before = np.where(first > 0, negatives_to[rows, first - 1], 0)
    positives_before = np.where(first > 0, positives_to[rows, first - 1], 0)
    negatives_below = negatives_before + (negatives_to[rows, last] - negatives_before) / 2
    positives_below = positives_before + (positives_to[rows, last] - positives_before) / 2
    sorted_values = np.where(positive, negatives_below / n, 1.0 - positives_below / m)
    values = np.empty((k, size))
    values[rows, order] = sorted_values
    # Row-major copies: the means over each row then sum in numpy's pairwise order, as for the midranks.
    return np.ascontiguousarray(values[:, y]), np.ascontiguousarray(values[:, ~y])


def delong_test(
    labels: ArrayLike,
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    confidence_level: float = 0.95,
) -> DeLongResult:
    r"""DeLong's test for the difference of two AUCs measured on the same items.

    With :math:`m` positive items :math:`X_1, \dots, X_m` and :math:`n`
    negative items :math:`Y_1, \dots, Y_n`, a model's AUC is the
    Mann–Whitney estimate

    .. math::

        \hat\theta = \frac{1}{mn} \sum_{i=1}^m \sum_{j=1}^n \psi(X_i, Y_j), \qquad
        \psi(x, y) = \begin{cases} 1 & x > y \\ \tfrac12 & x = y \\ 0 & x < y, \end{cases}

    the probability that a positive scores above a negative, ties counting one
    half. DeLong, DeLong and Clarke-Pearson (1988) split it into structural
    components (placement values), one per item,

    .. math::

        V_{10}(X_i) = \frac1n \sum_j \psi(X_i, Y_j), \qquad
        V_{01}(Y_j) = \frac1m \sum_i \psi(X_i, Y_j),

    whose means are both :math:`\hat\theta`. For two models A and B scored on
    the same items, the variance of :math:`\hat\theta_A - \hat\theta_B` is
    estimated from the differences of their components,
    :math:`D_{10,i} = V^A_{10}(X_i) - V^B_{10}(X_i)` and
    :math:`D_{01,j} = V^A_{01}(Y_j) - V^B_{01}(Y_j)`:

    .. math::

        \widehat{\operatorname{Var}}(\hat\theta_A - \hat\theta_B)
        = \frac{s^2(D_{10})}{m} + \frac{s^2(D_{01})}{n}, \qquad
        z = \frac{\hat\theta_A - \hat\theta_B}{\sqrt{\widehat{\operatorname{Var}}}},

    with :math:`s^2` the sample variance (:math:`m - 1` and :math:`n - 1`
    denominators). This equals DeLong's
    :math:`S_{10}^{AA} + S_{10}^{BB} - 2 S_{10}^{AB}` (over :math:`m`) plus the
    same for :math:`S_{01}` (over :math:`n`). The p-value is two-sided from the
    standard normal, and the interval is
    :math:`\hat\theta_A - \hat\theta_B \pm z_{1-\alpha/2}\,\widehat{\mathrm{SE}}`.

    The components are computed in :math:`O(N \log N)` by sorting, not by the
    :math:`m \times n` comparisons above: a positive item's midrank among all
    items minus its midrank among the positives is the number of negatives it
    outscores, ties counting one half (Sun & Xu, 2014), which one sort per
    model counts directly. A million items take well under a second, where the
    pairwise comparisons would number :math:`2.5 \times 10^{11}`.

    Higher scores mean "more positive" for both models; for a score where
    lower means positive (a distance, a loss), pass its negative.

    Parameters
    ----------
    labels : array_like of bool or 0/1
        True class of each item: 1 (positive) or 0 (negative); at least 2 of each.
    scores_a, scores_b : array_like of float
        Scores of models A and B for the same items, in the same order.
    confidence_level : float
        Level of the interval for the difference.

    Returns
    -------
    DeLongResult
        The two AUCs, their difference (A minus B), its standard error, the
        z statistic, the two-sided p-value and the interval.

    Raises
    ------
    ValueError
        If the arrays are empty, not 1-D, of different lengths, hold NaN or
        infinity, ``labels`` holds values other than 0/1 or fewer than two
        items of either class, or ``confidence_level`` is outside (0, 1);
        and when the AUCs differ but the estimated covariance gives their
        difference a zero standard error (for example a perfect scorer
        against a constant one, or against its mirror image), where the
        z statistic would be infinite and the p-value 0.
    TypeError
        If an array does not hold numbers.

    Warns
    -----
    UserWarning
        When the standard error is zero and the AUCs are equal (both models
        rank every positive–negative pair alike, e.g. identical scores): the
        statistic is then 0 with p-value 1.

    See Also
    --------
    sigeval.metrics.roc_auc : the AUC as a batched statistic, for
        :func:`~sigeval.resampling.paired_bootstrap_ci`.

    Notes
    -----
    Explained in :ref:`ch-two-models`.

    References
    ----------
    DeLong, E. R., DeLong, D. M. and Clarke-Pearson, D. L. (1988). Comparing
    the areas under two or more correlated receiver operating characteristic
    curves: a nonparametric approach. *Biometrics* 44(3), 837–845.

    Sun, X. and Xu, W. (2014). Fast implementation of DeLong's algorithm for
    comparing the areas under correlated receiver operating characteristic
    curves. *IEEE Signal Processing Letters* 21(11), 1389–1393.

    Examples
    --------
    Two scorers of eight items, four of them positive:

    >>> from sigeval import delong_test
    >>> labels = [1, 1, 1, 1, 0, 0, 0, 0]
    >>> a = [0.9, 0.8, 0.7, 0.3, 0.6, 0.2, 0.1, 0.4]
    >>> b = [0.8, 0.4, 0.6, 0.2, 0.7, 0.3, 0.1, 0.5]
    >>> res = delong_test(labels, a, b)
    >>> res.auc_a, res.auc_b, res.estimate
    (0.875, 0.625, 0.25)
    >>> round(res.standard_error, 4), round(res.statistic, 3), round(res.pvalue, 4)
    (0.1443, 1.732, 0.0833)
    >>> low, high = res.confidence_interval
    >>> round(low, 3), round(high, 3)
    (-0.033, 0.533)
    """
    y = _check_labels(labels)
    a = check_scores(scores_a, "scores_a")
    b = check_scores(scores_b, "scores_b")
    for arr, name in ((a, "scores_a"), (b, "scores_b")):
        if arr.shape != y.shape:
            raise ValueError(
                f"`labels` and `{name}` must describe the same items, with the same length; "
                f"got {y.size} and {arr.size}."
            )
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    v10, v01 = _placements(y, np.stack([a, b]))
    m, n = v10.shape[1], v01.shape[1]
    auc = v10.mean(axis=1)
    estimate = float(auc[0] - auc[1])
    d10, d01 = v10[0] - v10[1], v01[0] - v01[1]
    variance = d10.var(ddof=1) / m + d01.var(ddof=1) / n
    se = math.sqrt(max(float(variance), 0.0))
    if se == 0.0 and estimate != 0.0:
        # A zero variance here is the estimate's degeneracy, not certainty: z would be inf and p 0 at any size.
        raise ValueError(
            f"DeLong's test cannot judge this difference: the estimated covariance of the two AUCs "
            f"({float(auc[0]):g} and {float(auc[1]):g}) is singular and gives their difference a standard error "
            "of exactly 0, because each model places every positive item, and every negative one, at the same "
            f"level against the other class ({m} positives, {n} negatives). The z statistic would be infinite and "
            "the p-value 0 whatever the number of items; the data give no estimate of the difference's "
            "variability. Score more items, or report the two AUCs without a test."
        )
    if se == 0.0:
        warnings.warn(
            "DeLong's standard error is zero: the two models order every positive-negative "
            "pair alike (identical rankings?), so the data show no variation in their "
            "difference. The statistic is 0 and the p-value 1 when the AUCs are equal.",
            UserWarning,
            stacklevel=2,
        )
        statistic = 0.0
    else:
        statistic = estimate / se
    pvalue = float(2 * stats.norm.sf(abs(statistic)))
    half = float(stats.norm.isf((1 - confidence_level) / 2)) * se
    return DeLongResult(
        auc_a=float(auc[0]),
        auc_b=float(auc[1]),
        estimate=estimate,
        standard_error=se,
        statistic=float(statistic),
        pvalue=min(pvalue, 1.0),
        confidence_interval=ConfidenceInterval(estimate - half, estimate + half),
        confidence_level=confidence_level,
        n_positive=int(m),
        n_negative=int(n),
    )


@dataclass(frozen=True)
class AUCInterval:
    """Result of :func:`delong_ci`.

    Attributes
    ----------
    estimate : float
        The area under the ROC curve (ties count one half).
    standard_error : float
        DeLong's standard error of the AUC.
    confidence_interval : ConfidenceInterval
        ``estimate ± z_{1-α/2} · standard_error``, clipped to [0, 1].
    confidence_level : float
        The level of ``confidence_interval``.
    n_positive, n_negative : int
        Number of positive (label 1) and negative (label 0) items.
    """

    estimate: float
    standard_error: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n_positive: int
    n_negative: int


def delong_ci(labels: ArrayLike, scores: ArrayLike, *, confidence_level: float = 0.95) -> AUCInterval:
    r"""The AUC of one scoring model with DeLong's standard error and interval.

    With the placement values of :func:`delong_test`, :math:`V_{10}(X_i)` for
    the :math:`m` positives and :math:`V_{01}(Y_j)` for the :math:`n`
    negatives, both with mean :math:`\hat\theta`, DeLong, DeLong and
    Clarke-Pearson (1988) estimate the variance of the AUC by

    .. math::

        \widehat{\operatorname{Var}}(\hat\theta) = \frac{s^2(V_{10})}{m} + \frac{s^2(V_{01})}{n},

    and the interval is :math:`\hat\theta \pm z_{1-\alpha/2}\,\widehat{\mathrm{SE}}`,
    clipped to [0, 1] (a Wald interval; near 0 or 1 with few items it is
    optimistic, and a bootstrap interval, :func:`~sigeval.resampling.bootstrap_ci`
    with :func:`~sigeval.metrics.roc_auc`, is the alternative). One sort:
    :math:`O(N \log N)`, a second for a million items.

    Parameters
    ----------
    labels : array_like of bool or 0/1
        True class of each item; at least 2 of each class.
    scores : array_like of float
        The model's score for each item, higher meaning "more positive".
    confidence_level : float
        Level of the interval.

    Returns
    -------
    AUCInterval

    Raises
    ------
    ValueError
        As :func:`delong_test`: empty or unequal arrays, NaN or infinity,
        labels other than 0/1 or fewer than two items of a class, or a level
        outside (0, 1).

    Warns
    -----
    UserWarning
        When the standard error is zero (every positive-negative pair ordered
        alike: a perfect, a perfectly wrong or a constant scorer): the interval
        is then the single point of the AUC.

    Notes
    -----
    Explained in :ref:`ch-two-models`.

    Examples
    --------
    >>> from sigeval import delong_ci
    >>> res = delong_ci([1, 1, 1, 1, 0, 0, 0, 0], [0.9, 0.8, 0.7, 0.3, 0.6, 0.2, 0.1, 0.4])
    >>> res.estimate, round(res.standard_error, 4)
    (0.875, 0.1443)
    >>> low, high = res.confidence_interval
    >>> round(low, 3), round(high, 3)
    (0.592, 1.0)
    """
    y = _check_labels(labels)
    s = check_scores(scores, "scores")
    if s.shape != y.shape:
        raise ValueError(
            f"`labels` and `scores` must describe the same items, with the same length; got {y.size} and {s.size}."
        )
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    v10, v01 = _placements(y, s[None])
    m, n = v10.shape[1], v01.shape[1]
    estimate = float(v10.mean())
    se = math.sqrt(float(v10.var(ddof=1)) / m + float(v01.var(ddof=1)) / n)
    if se == 0.0:
        warnings.warn(
            f"DeLong's standard error is zero: every positive-negative pair is ordered alike (AUC {estimate:g}: "
            "all positives above the negatives, below them, or tied with them), so the data show no variation "
            "and the interval is a single point. It does not mean the AUC is known exactly; with few items, "
            "see the bootstrap (sigeval.bootstrap_ci with roc_auc) or collect more.",
            UserWarning,
            stacklevel=2,
        )
    half = float(stats.norm.isf((1 - confidence_level) / 2)) * se
    return AUCInterval(
        estimate=estimate,
        standard_error=se,
        confidence_interval=ConfidenceInterval(max(estimate - half, 0.0), min(estimate + half, 1.0)),
        confidence_level=confidence_level,
        n_positive=int(m),
        n_negative=int(n),
    )

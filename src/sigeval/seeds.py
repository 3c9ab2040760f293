"""Seed sweeps: what training randomness does to a score.

When a repetition of the experiment retrains the model, the runs themselves are
the sample. This module summarises a sweep of seeds (mean, spread, range),
compares two independent sweeps with Welch's test, and splits a sweep's
variance into the part due to the test set and the part due to training.

Explained in :ref:`ch-noise` and :ref:`ch-training-randomness`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._numeric import check_finite_result, power_of_two_near, stable_mean_sd
from ._results import ConfidenceInterval
from ._validation import (
    check_accuracies,
    check_positive_int,
    check_scores,
    check_unit_interval,
    has_spread,
)

__all__ = [
    "SeedSummary",
    "seed_summary",
    "WelchResult",
    "welch_test",
    "VarianceSplit",
    "variance_split",
]


@dataclass(frozen=True)
class SeedSummary:
    """Result of :func:`seed_summary`.

    Attributes
    ----------
    n : int
        Number of runs.
    mean, sd, min, max : float
        Mean, sample standard deviation (``ddof=1``), smallest and largest score.
    standard_error : float
        Standard error of the mean over the runs, ``sd / sqrt(n)``.
    """

    n: int
    mean: float
    sd: float
    min: float
    max: float
    standard_error: float


def seed_summary(scores: ArrayLike) -> SeedSummary:
    r"""Summary of a seed sweep: the numbers Picard (2021) asks authors to report.

    Mean, standard deviation (:math:`n - 1` denominator), minimum and maximum
    of the scores of :math:`n` runs that differ only in their random seed, and
    the standard error of their mean, :math:`s/\sqrt n`: the run-to-run
    spread shrinks by :math:`\sqrt n` when one reports an average of runs.
    Scores that are all equal have ``sd = 0`` exactly (numpy's sd of equal
    floats is often a rounding error of about 1e-17, which is reported as 0).

    Parameters
    ----------
    scores : array_like of float
        One score per run, at least 2, no NaN (a failed run must be handled
        explicitly, not averaged away).

    Returns
    -------
    SeedSummary

    Raises
    ------
    ValueError
        If fewer than 2 scores are given, or one is NaN or infinite.

    Notes
    -----
    Explained in :ref:`ch-training-randomness`.

    Examples
    --------
    >>> from sigeval import seed_summary
    >>> s = seed_summary([0.639, 0.645, 0.628, 0.651, 0.634])
    >>> s.n, round(s.mean, 4), round(s.sd, 4), s.min, s.max
    (5, 0.6394, 0.009, 0.628, 0.651)
    """
    x = check_scores(scores, "scores", min_size=2)
    mean, sd = stable_mean_sd(x)
    # The mean of equal scores can round a hair outside them (0.1 * 7 / 7).
    mean = min(max(mean, float(x.min())), float(x.max()))
    # Equal scores such as 0.1 leave a rounding-error sd (about 1e-17): report 0.
    sd = sd if has_spread(sd, x) else 0.0
    check_finite_result({"sd": sd}, "`scores`")
    return SeedSummary(
        n=int(x.size),
        mean=mean,
        sd=sd,
        min=float(x.min()),
        max=float(x.max()),
        standard_error=sd / math.sqrt(x.size),
    )


@dataclass(frozen=True)
class WelchResult:
    """Result of :func:`welch_test`.

    Attributes
    ----------
    estimate : float
        Difference of the mean scores, ``mean(a) - mean(b)``.
    statistic : float
        Welch's t statistic.
    df : float
        Welch–Satterthwaite degrees of freedom.
    pvalue : float
        Two-sided p-value.
    confidence_interval : ConfidenceInterval
        Interval for the difference of the means.
    confidence_level : float
        Its nominal coverage.
    n_a, n_b : int
        Number of runs of each procedure.
    """

    estimate: float
    statistic: float
    df: float
    pvalue: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n_a: int
    n_b: int


def welch_test(
    scores_a: ArrayLike, scores_b: ArrayLike, *, confidence_level: float = 0.95
) -> WelchResult:
    r"""Welch's t-test between two independent sets of runs.

    .. math::

        t = \frac{\bar a - \bar b}{\sqrt{s_a^2/n_a + s_b^2/n_b}}, \qquad
        \nu = \frac{(s_a^2/n_a + s_b^2/n_b)^2}
                   {\frac{(s_a^2/n_a)^2}{n_a - 1} + \frac{(s_b^2/n_b)^2}{n_b - 1}}

    (Welch, 1947), computed by ``scipy.stats.ttest_ind(equal_var=False)``;
    the interval is that of its ``confidence_interval()``. The runs of the
    two procedures are treated as unpaired: when they share seeds or data
    splits by design, :func:`~sigeval.procedures.paired_difference` uses that pairing.

    On one fixed test set the test accounts for seed-to-seed variation only,
    not for the test-set sampling that moves both procedures' scores together.
    Like every t-test it assumes roughly normal scores: with few runs and a
    skewed distribution (a seed that occasionally diverges) its level is not kept.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the runs of procedures A and B, at least 2 each.
    confidence_level : float
        Level of the interval for the difference of means.

    Returns
    -------
    WelchResult

    Raises
    ------
    ValueError
        If a set has fewer than 2 scores or holds NaN, both sets have zero
        spread (up to rounding error), a result overflows float64, or the
        level is outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-training-randomness`.

    Examples
    --------
    >>> from sigeval import welch_test
    >>> res = welch_test([0.64, 0.65, 0.66, 0.65], [0.62, 0.64, 0.63, 0.61])
    >>> round(res.estimate, 4), round(res.df, 2), round(res.pvalue, 4)
    (0.025, 5.07, 0.0217)
    """
    a = check_scores(scores_a, "scores_a", min_size=2)
    b = check_scores(scores_b, "scores_b", min_size=2)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    # Spread is judged against the scale of both sets: the difference of the
    # means carries a rounding error relative to the larger scores.
    scale = float(max(np.max(np.abs(a)), np.max(np.abs(b))))
    if not (has_spread(stable_mean_sd(a)[1], a, scale) or has_spread(stable_mean_sd(b)[1], b, scale)):
        raise ValueError(
            "`scores_a` and `scores_b` both have zero spread (up to rounding error): Welch's "
            "test needs run-to-run variation in at least one of them."
        )
    # t, df and p are unchanged by a common power-of-two scale. Bringing the largest
    # score near 1 keeps the squares in the variances and the fourth powers in the
    # Welch-Satterthwaite df from overflowing or underflowing at any magnitude
    # (scaling only when squares overflow let df fall to scipy's fallback of 1 for
    # scores of about 1e80 or 1e-80). For ordinary scores the results are unchanged
    # bit for bit: dividing and multiplying by a power of two is exact.
    power_of_two = power_of_two_near(scale)
    a, b = a / power_of_two, b / power_of_two
    res = stats.ttest_ind(a, b, equal_var=False)
    ci = res.confidence_interval(confidence_level)
    low, high = float(ci.low) * power_of_two, float(ci.high) * power_of_two
    estimate = float(a.mean() - b.mean()) * power_of_two
    check_finite_result(
        {"estimate": estimate, "confidence_interval": np.array([low, high])},
        "`scores_a` and `scores_b`",
    )
    return WelchResult(
        estimate=estimate,
        statistic=float(res.statistic),
        df=float(res.df),
        pvalue=float(res.pvalue),
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=confidence_level,
        n_a=int(a.size),
        n_b=int(b.size),
    )


@dataclass(frozen=True)
class VarianceSplit:
    """Result of :func:`variance_split`. The terms are variances; ``np.sqrt`` gives standard deviations.

    Attributes
    ----------
    n_runs : int
        Number of runs (seeds).
    n_test : int
        Size of each run's test set.
    total : float
        Variance of the test scores across runs (``ddof=1``).
    sampling : float
        Estimated test-set sampling variance, the mean of ``a (1 - a) / (n_test - 1)``.
    training : float
        ``total - sampling``: training randomness by subtraction. Not clipped:
        a negative value means the spread across runs is no larger than
        test-set sampling alone explains (or that the runs shared one test set).
    training_direct : float or None
        Variance of ``true_scores`` across runs, minus their own sampling
        variance when ``n_true`` is given: a direct estimate of the training term.
    """

    n_runs: int
    n_test: int
    total: float
    sampling: float
    training: float
    training_direct: float | None


def variance_split(
    test_scores: ArrayLike,
    n_test: int,
    *,
    true_scores: ArrayLike | None = None,
    n_true: int | None = None,
) -> VarianceSplit:

    r"""Split a seed sweep's variance into test-set sampling and training randomness.

    With :math:`\xi` the random choices of training and :math:`S` a test set of
    :math:`n` items, the law of total variance gives

    .. math::

        \operatorname{Var}[\hat a] =
        \underbrace{\mathbb E_\xi\bigl[\operatorname{Var}_S[\hat a \mid \xi]\bigr]}_{\text{sampling}}
        + \underbrace{\operatorname{Var}_\xi\bigl[a(\xi)\bigr]}_{\text{training}},

    where :math:`a(\xi)` is the population accuracy of the network trained with
    :math:`\xi` and :math:`\operatorname{Var}_S[\hat a \mid \xi] = a(1-a)/n`
    for independent test items. Estimates, from the test accuracies
    :math:`\hat a_1, \dots, \hat a_R` of :math:`R` runs:

    - ``total``: the sample variance of the :math:`\hat a_r`;
    - ``sampling``: :math:`\frac1R \sum_r \hat a_r(1-\hat a_r)/(n-1)`, unbiased
      for :math:`\mathbb E_\xi[a(1-a)/n]` because
      :math:`\mathbb E[\hat a(1-\hat a)] = a(1-a)(1 - 1/n)`;
    - ``training``: ``total - sampling``, unbiased, and left negative when it
      comes out negative: clipping at 0 would bias it upwards and hide that
      the runs show no more spread than test-set sampling explains;
    - ``training_direct``: when the population (or fresh-data) accuracies of
      the same runs are known, their sample variance, which needs no
      subtraction; with ``n_true`` fresh items their own sampling variance
      :math:`\frac1R\sum_r t_r(1-t_r)/(n_\text{true}-1)` is subtracted.

    The split assumes that each run was scored on its own independently
    drawn test set (as in a simulation, or with resampled splits). When all
    runs share one fixed test set, the part of the test-set noise common to
    all networks does not vary from seed to seed: ``total`` then leaves it
    out, and ``total - sampling`` underestimates training randomness, often
    below zero. In the seed article's sweep on one 1,000-image test set,
    the test accuracies of 20 seeds spread by sd 0.0095, less than the
    binomial standard error 0.0152 of one test accuracy, while fresh accuracies spread by 0.0040.

    Parameters
    ----------
    test_scores : array_like of float
        Test-set accuracy of each run, in [0, 1], at least 2 runs.
    n_test : int
        Number of test items behind each accuracy, at least 2.
    true_scores : array_like of float, optional
        Population or fresh-data accuracy of the same runs, in the same order.
    n_true : int, optional
        Number of fresh items behind ``true_scores``; None if they are exact.

    Returns
    -------
    VarianceSplit

    Raises
    ------
    ValueError
        If scores are outside [0, 1], NaN, fewer than 2, of different lengths,
        a size is below 2, or ``n_true`` is given without ``true_scores``.

    Notes
    -----
    Explained in :ref:`ch-noise`
    and :ref:`ch-training-randomness`.

    Examples
    --------
    Four runs, each scored on its own test set of 1,000 images:

    >>> from sigeval import variance_split
    >>> v = variance_split([0.80, 0.83, 0.78, 0.85], 1000, true_scores=[0.805, 0.82, 0.79, 0.845])
    >>> round(v.total * 1e4, 3), round(v.sampling * 1e4, 3), round(v.training * 1e4, 3)
    (9.667, 1.502, 8.165)
    >>> round(v.training_direct * 1e4, 3)
    5.5
    """
    acc = check_accuracies(test_scores, "test_scores")
    n_test = check_positive_int(n_test, "n_test", minimum=2)
    total = float(acc.var(ddof=1))
    sampling = float(np.mean(acc * (1 - acc)) / (n_test - 1))
    if true_scores is None:
        if n_true is not None:
            raise ValueError("`n_true` was given without `true_scores`; give both or neither.")
        training_direct = None
    else:
        true = check_accuracies(true_scores, "true_scores")
        if true.shape != acc.shape:
            raise ValueError(
                "`true_scores` must be paired with `test_scores`, with the same length; "
                f"got {true.size} and {acc.size}."
            )
        own_sampling = 0.0
        if n_true is not None:
            n_true = check_positive_int(n_true, "n_true", minimum=2)
            own_sampling = float(np.mean(true * (1 - true)) / (n_true - 1))
        training_direct = float(true.var(ddof=1)) - own_sampling
    return VarianceSplit(
        n_runs=int(acc.size),
        n_test=n_test,
        total=total,
        sampling=sampling,
        training=total - sampling,
        training_direct=training_direct,
    )

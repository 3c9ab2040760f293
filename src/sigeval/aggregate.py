"""Aggregate scores over many tasks from a few runs each (Agarwal et al., 2021).

A benchmark of many tasks trained with a few runs (seeds) each gives one
model a *runs x tasks* matrix of scores, normalised so that tasks are
comparable (0 = a baseline, 1 = a reference, say). Agarwal, Schwarzer,
Castro, Courville and Bellemare (2021) summarise it with aggregates that a
single task cannot dominate, chiefly the interquartile mean (IQM), and give
each an interval from the *stratified bootstrap*: the runs are resampled
within each task, the tasks stay fixed. This module follows them (and the
``rliable`` package): :func:`iqm`, :func:`optimality_gap`,
:func:`aggregate_mean`, :func:`aggregate_median`, their intervals through
:func:`aggregate_ci`, and :func:`performance_profile`, the fraction of runs
above each threshold. The probability of improvement across tasks is
:func:`sigeval.procedures.prob_improvement` given two matrices.

Many models over many tasks are compared in :ref:`ch-ranking`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ._bootstrap_engine import counts_by_multinomial
from ._numeric import check_finite_result, safe_scale
from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    check_choice,
    check_finite_array,
    check_flag,
    check_memory,
    check_positive_int,
    check_real,
    check_rng,
    check_score_matrix,
    check_unit_interval,
)

__all__ = [
    "AGGREGATES",
    "iqm",
    "optimality_gap",
    "aggregate_mean",
    "aggregate_median",
    "AggregateInterval",
    "aggregate_ci",
    "PerformanceProfile",
    "performance_profile",
]

#: The aggregates of :func:`aggregate_ci`.
AGGREGATES = ("iqm", "mean", "median", "optimality_gap")

Aggregate = Literal["iqm", "mean", "median", "optimality_gap"]


def _aggregates(
    x: np.ndarray, counts: np.ndarray, aggregate: str, gamma: float, interpolate: bool
) -> np.ndarray:
    """The aggregate of each resample, from how often it draws each run of each task.

    ``x`` is runs x tasks, ``counts`` (batch, tasks, runs); a row of ones is
    the data itself. Values are divided by a power of two (exact) when large
    enough for a sum to overflow. ``interpolate`` cuts exactly a quarter of
    the scores from each end of the IQM, the scores on the cuts weighted by
    the fraction of them kept.
    """
    n_runs, n_tasks = x.shape
    s = safe_scale(np.r_[x.ravel(), gamma])
    y = x / s
    c = counts.astype(float)
    if aggregate == "iqm":
        order = np.argsort(y.T, axis=None)  # cells sorted by value, task-major like counts (ties are interchangeable)
        weight = c.reshape(len(c), x.size)[:, order]
        upper = np.cumsum(weight, axis=1)
        # scipy.stats.trim_mean's cut (whole values from each end), or exactly N/4: each cell's weight
        # occupies (upper - weight, upper] on the line of sorted scores, and counts where it overlaps [cut, N - cut].
        cut = 0.25 * x.size if interpolate else int(0.25 * x.size)
        inside = np.clip(np.minimum(upper, x.size - cut) - np.maximum(upper - weight, cut), 0, None)
        values = inside @ y.T.ravel()[order] / (x.size - 2 * cut)
    elif aggregate == "median":
        values = np.median(np.einsum("btr,rt->bt", c, y) / n_runs, axis=1)
    elif aggregate == "mean":
        values = np.einsum("btr,rt->b", c, y) / x.size
    else:  # the gap gamma - mean(min(x, gamma)) as the mean shortfall max(gamma - x, 0): never below 0
        values = np.einsum("btr,rt->b", c, np.maximum(gamma / s - y, 0.0)) / x.size
    with np.errstate(over="ignore"):  # an overflow is refused by the caller, naming `scores`
        return values * s


def _point(scores: ArrayLike, aggregate: str, gamma: float = 1.0, interpolate: bool = False) -> float:
    x = check_score_matrix(scores)
    value = float(_aggregates(x, np.ones((1, x.shape[1], x.shape[0])), aggregate, gamma, interpolate)[0])
    check_finite_result({aggregate: value}, "`scores`")
    return value


def iqm(scores: ArrayLike, *, interpolate: bool = False) -> float:
    r"""Interquartile mean of every score of a runs x tasks matrix.

    The mean of the middle half of all :math:`N` = runs x tasks scores, pooled
    over runs and tasks: :math:`\lfloor N/4 \rfloor` scores are cut from each
    end (``scipy.stats.trim_mean(scores, 0.25, axis=None)``, as ``rliable``
    does). Robust to an outlier task or run, like the median, yet it uses half
    of the scores, so its interval is narrower than the median's (Agarwal et
    al., 2021).

    When :math:`N` is not a multiple of 4 the rounded-down cut keeps more than
    half of the scores (10 of 18), and the result estimates the population's
    IQM with a bias. ``interpolate=True`` cuts exactly :math:`N/4` from each
    end, the score on each cut weighted by the fraction of it kept:

    .. math::

        \mathrm{IQM} = \frac{2}{N} \sum_{i=1}^{N} w_i\, x_{(i)}, \qquad
        w_i = \bigl|(i - 1,\, i] \cap [N/4,\, 3N/4]\bigr|,

    which is :math:`2\int_{1/4}^{3/4} F_N^{-1}(u)\,du`, the population's
    formula applied to the empirical distribution :math:`F_N` of the scores,
    and equals the rounded-down cut when :math:`N/4` is whole.

    Parameters
    ----------
    scores : array_like of float, shape (n_runs, n_tasks)
        One row per run, one column per task, finite.
    interpolate : bool
        Cut exactly a quarter of the scores from each end (True) rather than
        the largest whole number of scores up to a quarter (False, rliable's).

    Returns
    -------
    float

    Notes
    -----
    Explained, with the bias of the rounded cut, in :ref:`ch-bayes`.

    Examples
    --------
    >>> from sigeval import iqm
    >>> iqm([[0.1, 0.5, 0.9, 7.0], [0.2, 0.6, 1.0, 8.0]])  # the middle four of eight
    0.75
    >>> round(iqm([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], interpolate=True), 6)  # (0.5*1 + 2 + 3 + 0.5*4) / 3
    2.5
    """
    return _point(scores, "iqm", interpolate=check_flag(interpolate, "interpolate"))


def optimality_gap(scores: ArrayLike, *, gamma: float = 1.0) -> float:
    r"""How far the scores fall short of a target :math:`\gamma`, on average.

    .. math::

        \gamma - \frac{1}{N} \sum_{\text{runs, tasks}} \min(x_{rt}, \gamma),

    so a score above :math:`\gamma` counts as :math:`\gamma` (no credit for
    overshooting); lower is better (Agarwal et al., 2021).

    Parameters
    ----------
    scores : array_like of float, shape (n_runs, n_tasks)
    gamma : float
        The target score (1.0: the reference's normalised score).

    Returns
    -------
    float

    Notes
    -----
    Explained beside the rankings over tasks, :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import optimality_gap
    >>> round(optimality_gap([[0.5, 1.5], [0.9, 0.7]]), 6)  # 1 - (0.5 + 1 + 0.9 + 0.7) / 4
    0.225
    """
    return _point(scores, "optimality_gap", check_real(gamma, "gamma"))


def aggregate_mean(scores: ArrayLike) -> float:
    """Mean over tasks of each task's mean score (the mean of every score, the matrix being rectangular).

    Sensitive to a single task with very large scores: one outlier task can
    decide a comparison (Agarwal et al., 2021).

    Parameters
    ----------
    scores : array_like of float, shape (n_runs, n_tasks)

    Returns
    -------
    float

    Notes
    -----
    Explained beside the rankings over tasks, :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import aggregate_mean
    >>> aggregate_mean([[0.1, 0.5, 0.9, 7.0], [0.2, 0.6, 1.0, 8.0]])
    2.2875
    """
    return _point(scores, "mean")


def aggregate_median(scores: ArrayLike) -> float:
    """Median over tasks of each task's mean score over runs.

    Robust to outlier tasks, but it rests on the one or two middle tasks and
    varies more from one set of runs to another than the IQM (Agarwal et al.,
    2021).

    Parameters
    ----------
    scores : array_like of float, shape (n_runs, n_tasks)

    Returns
    -------
    float

    Notes
    -----
    Explained beside the rankings over tasks, :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import aggregate_median
    >>> round(aggregate_median([[0.1, 0.5, 0.9, 7.0], [0.2, 0.6, 1.0, 8.0]]), 6)  # task means .15 .55 .95 7.5
    0.75
    """
    return _point(scores, "median")


def _percentile(boot: np.ndarray, confidence_level: float) -> tuple[np.ndarray, np.ndarray]:
    tail = (1 - confidence_level) / 2
    return np.quantile(boot, tail, axis=0), np.quantile(boot, 1 - tail, axis=0)


@dataclass(frozen=True)
class AggregateInterval:
    """Result of :func:`aggregate_ci`.

    Attributes
    ----------
    estimate : float
        The aggregate of the scores.
    confidence_interval : ConfidenceInterval
        Percentile interval of the stratified bootstrap.
    confidence_level : float
        Its nominal coverage.
    aggregate : str
        Which aggregate, one of :data:`AGGREGATES`.
    n_runs, n_tasks : int
        The shape of the score matrix.
    n_resamples : int
        Number of bootstrap resamples.
    bootstrap_distribution : ndarray
        The aggregate of each resample.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    aggregate: str
    n_runs: int
    n_tasks: int
    n_resamples: int
    bootstrap_distribution: np.ndarray = field(repr=False)


def aggregate_ci(
    scores: ArrayLike,
    *,
    statistic: Aggregate = "iqm",
    n_resamples: int = 10_000,
    confidence_level: float = 0.95,
    gamma: float = 1.0,
    interpolate: bool = False,
    rng: RngLike = None,
) -> AggregateInterval:
    r"""An aggregate score over tasks with its stratified-bootstrap interval.

    The stratified bootstrap of Agarwal et al. (2021) resamples the runs
    *within each task*, with replacement and independently across tasks,
    and keeps the tasks fixed: it measures the uncertainty of repeating the
    experiment with new runs (seeds) on the same tasks. The interval is the
    percentile interval of the aggregate over ``n_resamples`` resamples,
    rliable's default. A resample is summarised by how often it draws each
    run of each task (a multinomial count), so every resample is evaluated
    at once, the IQM included, without sorting each resample.

    Parameters
    ----------
    scores : array_like of float, shape (n_runs, n_tasks)
        One row per run, one column per task; at least 2 runs.
    statistic : {"iqm", "mean", "median", "optimality_gap"}
        The aggregate: :func:`iqm`, :func:`aggregate_mean`,
        :func:`aggregate_median` or :func:`optimality_gap`.
    n_resamples : int
        Number of bootstrap resamples.
    confidence_level : float
        Level of the percentile interval.
    gamma : float
        The target of the optimality gap (used by ``"optimality_gap"`` only).
    interpolate : bool
        Cut exactly a quarter of the scores from each end of the IQM, as
        :func:`iqm` does with ``interpolate=True`` (used by ``"iqm"`` only).
    rng : numpy.random.Generator, int or None
        Source of the bootstrap draws.

    Returns
    -------
    AggregateInterval

    Raises
    ------
    ValueError
        If ``scores`` is not a 2-D matrix with at least 2 runs, holds NaN or
        inf, ``statistic`` is unknown, or the resamples need more than 4 GiB.

    Notes
    -----
    With few runs per task the percentile interval is too narrow: simulated
    with 20 normal tasks (``tests/test_aggregate.py``, 400 simulations each,
    Monte Carlo error 0.011) the 95% IQM interval covered the true IQM in
    87.0% of the simulations with 3 runs per task and 94.5% with 10. When
    runs x tasks is not a multiple of 4 the whole-score cut of the IQM also
    biases it, and the interval covers less still: 80.9% with 3 runs on 6
    tasks in :ref:`ch-bayes`, 83.8% with ``interpolate=True`` on the same
    benchmarks.

    Explained beside the rankings over tasks, :ref:`ch-ranking`.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import aggregate_ci
    >>> scores = np.random.default_rng(0).normal(1.0, 0.2, size=(5, 20))  # 5 runs, 20 tasks
    >>> res = aggregate_ci(scores, statistic="iqm", n_resamples=2000, rng=1)
    >>> round(res.estimate, 3), [round(b, 3) for b in res.confidence_interval]
    (1.008, [0.964, 1.05])
    """
    x = check_score_matrix(scores, min_runs=2)
    aggregate = check_choice(statistic, "statistic", AGGREGATES)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    gamma = check_real(gamma, "gamma")
    interpolate = check_flag(interpolate, "interpolate")
    rng = check_rng(rng)
    n_runs, n_tasks = x.shape
    check_memory(3.0 * n_resamples * x.size, "n_resamples", n_resamples, "the stratified resamples")
    estimate = float(_aggregates(x, np.ones((1, n_tasks, n_runs)), aggregate, gamma, interpolate)[0])
    # How often each resample draws each run of each task: shape (n_resamples, n_tasks, n_runs).
    boot = _aggregates(x, counts_by_multinomial(rng, n_runs, (n_resamples, n_tasks)), aggregate, gamma, interpolate)
    check_finite_result({"estimate": estimate, "bootstrap_distribution": boot}, "`scores`")
    low, high = _percentile(boot, confidence_level)
    return AggregateInterval(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(float(low), float(high)),
        confidence_level=confidence_level,
        aggregate=aggregate,
        n_runs=n_runs,
        n_tasks=n_tasks,
        n_resamples=n_resamples,
        bootstrap_distribution=boot,
    )


@dataclass(frozen=True)
class PerformanceProfile:
    """Result of :func:`performance_profile`.

    Attributes
    ----------
    taus : ndarray
        The thresholds, increasing.
    estimate : ndarray
        The fraction of all runs (of all tasks) that score above each threshold.
    confidence_interval : ConfidenceInterval
        Pointwise percentile bands of the stratified bootstrap (arrays, one
        bound per threshold).
    confidence_level : float
        Their nominal pointwise coverage.
    n_runs, n_tasks : int
        The shape of the score matrix.
    n_resamples : int
        Number of bootstrap resamples.
    """

    taus: np.ndarray
    estimate: np.ndarray
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n_runs: int
    n_tasks: int
    n_resamples: int


def performance_profile(
    scores: ArrayLike,
    taus: ArrayLike,
    *,
    n_resamples: int = 2_000,
    confidence_level: float = 0.95,
    rng: RngLike = None,
) -> PerformanceProfile:
    r"""The fraction of runs that score above each threshold, with bootstrap bands.

    Agarwal et al.'s (2021) *score distribution*: for each threshold
    :math:`\tau`, the fraction of all runs x tasks scores above it,

    .. math::

        \hat F(\tau) = \frac{1}{N} \sum_{\text{runs, tasks}} \mathbf 1[x_{rt} > \tau],

    a decreasing curve that shows the whole distribution rather than one
    aggregate: one curve above another everywhere is *stochastic dominance*.
    The bands are pointwise percentile intervals of the stratified bootstrap
    (runs resampled within each task, see :func:`aggregate_ci`); rliable
    computes the same with 2,000 resamples by default.

    Parameters
    ----------
    scores : array_like of float, shape (n_runs, n_tasks)
        At least 2 runs.
    taus : array_like of float, 1-D
        The thresholds, strictly increasing.
    n_resamples : int
        Number of bootstrap resamples.
    confidence_level : float
        Pointwise level of the bands.
    rng : numpy.random.Generator, int or None
        Source of the bootstrap draws.

    Returns
    -------
    PerformanceProfile

    Raises
    ------
    ValueError
        If ``scores`` is not a 2-D matrix with at least 2 runs, holds NaN or
        inf, ``taus`` is empty, not finite or not strictly increasing, or the
        resamples need more than 4 GiB.

    Notes
    -----
    Explained beside the rankings over tasks, :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import performance_profile
    >>> scores = [[0.2, 0.9, 1.4], [0.4, 1.1, 1.2]]
    >>> prof = performance_profile(scores, [0.0, 0.5, 1.0, 1.5], n_resamples=500, rng=0)
    >>> prof.estimate.tolist()
    [1.0, 0.6666666666666666, 0.5, 0.0]
    """
    x = check_score_matrix(scores, min_runs=2)
    t = check_finite_array(taus, "taus")
    if t.ndim != 1:
        raise ValueError(f"`taus` must be a 1-D array of thresholds; got shape {t.shape}.")
    unsorted = np.flatnonzero(np.diff(t) <= 0)
    if unsorted.size:
        i = int(unsorted[0])
        raise ValueError(
            f"`taus` must be strictly increasing; got {float(t[i])!r} then {float(t[i + 1])!r} at positions {i} and {i + 1}."
        )
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    rng = check_rng(rng)
    n_runs, n_tasks = x.shape
    check_memory(float(n_resamples) * (x.size + t.size) + float(x.size) * t.size,
                 "n_resamples", n_resamples, "the stratified resamples")
    above = (x[:, :, None] > t).astype(float)  # runs x tasks x taus
    counts = counts_by_multinomial(rng, n_runs, (n_resamples, n_tasks)).astype(float)
    boot = np.einsum("btr,rtk->bk", counts, above) / x.size
    low, high = _percentile(boot, confidence_level)
    return PerformanceProfile(
        taus=t,
        estimate=above.mean(axis=(0, 1)),
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=confidence_level,
        n_runs=n_runs,
        n_tasks=n_tasks,
        n_resamples=n_resamples,
    )

"""How sure is a ranking? Resampling the tasks, or the test items.

A ranking over ``N`` tasks is one draw of tasks: :func:`rank_stability`
resamples them (with replacement) and asks how often the full order comes
back, which pairs stay separated by the critical difference, and how far each
model moves when one task is left out. For ``k`` models scored on the same
test items, :func:`bootstrap_ranks` resamples the items and gives each model a
rank interval, as the PASCAL VOC summary tables do, and the models the leader
does not significantly beat; both describe how much the ranks move. For a
statement with a stated level (asymptotically valid, as any bootstrap
level), :func:`rank_confidence_sets` gives
simultaneous confidence intervals for every model's rank and the set of models
that may be the best (Mogstad, Romano, Shaikh & Wilhelm, 2024).

Explained in :ref:`ch-ranking` (rank stability) and :ref:`ch-multiple`
(bootstrap ranks, rank confidence sets).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ._bootstrap_engine import counts_by_index, resample_indices
from ._numeric import check_finite_result, safe_scale
from ._ranks import score_table, within_ranks
from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    check_alpha,
    check_flag,
    check_memory,
    check_positive_int,
    check_rng,
    check_unit_interval,
    real_array,
)
from .multiple import adjust_pvalues
from .ranking import nemenyi_cd

__all__ = [
    "RankStabilityResult",
    "rank_stability",
    "BootstrapRanksResult",
    "bootstrap_ranks",
    "RankConfidenceSetsResult",
    "rank_confidence_sets",
]


# --------------------------------------------------------------------------- rank stability


@dataclass(frozen=True)
class RankStabilityResult:
    """Result of :func:`rank_stability`.

    Attributes
    ----------
    models : tuple
        Model names or column indices.
    mean_ranks : ndarray
        Observed mean ranks.
    order_stability : float
        Fraction of resamples in which every pair of models is ordered as
        observed (the full order reproduced).
    separation : ndarray
        ``(k, k)`` symmetric: for each pair, the fraction of resamples whose
        mean ranks differ by at least the critical difference (0 on the diagonal).
    jackknife : ndarray
        ``(n_tasks, k)``: the shift of every model's mean rank when each
        task is dropped in turn (leave-one-out minus observed).
    critical_difference : float
        :func:`~sigeval.ranking.nemenyi_cd` for ``k`` models and ``n_tasks`` at ``alpha``.
    resampled_mean_ranks : ndarray
        ``(n_resamples, k)``: the mean ranks of every resample.
    n_resamples : int
    alpha : float
    """

    models: tuple
    mean_ranks: np.ndarray
    order_stability: float
    separation: np.ndarray
    jackknife: np.ndarray
    critical_difference: float
    resampled_mean_ranks: np.ndarray
    n_resamples: int
    alpha: float


def rank_stability(
    scores: ArrayLike,
    *,
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    rng: RngLike = None,
) -> RankStabilityResult:
    r"""How stable a ranking over tasks is when the tasks are resampled.

    A critical-difference diagram at small :math:`N` says nothing about whether
    its order would survive a different draw of benchmark tasks. Each of
    ``n_resamples`` resamples draws :math:`N` tasks with replacement (the
    ranks within a task do not change) and recomputes the mean ranks
    :math:`R^*_j`:

    ``order_stability``
        the fraction of resamples in which every pair is ordered as observed:
        :math:`\operatorname{sign}(R^*_i - R^*_j) = \operatorname{sign}(R_i - R_j)`
        for all :math:`i < j` (a tie observed must stay a tie);
    ``separation``
        for each pair, the fraction of resamples with
        :math:`|R^*_i - R^*_j| \ge \mathrm{CD}`, the Nemenyi critical difference
        of the observed design (:func:`~sigeval.ranking.nemenyi_cd`);
    ``jackknife``
        the shift :math:`R_{j,(-i)} - R_j = (R_j - r_{ij})/(N-1)` of every mean
        rank when task :math:`i` is left out.

    A low ``order_stability`` with uniformly low ``separation`` is the
    signature of an ordering that is noise; a large jackknife shift points at
    one task that drives the ranking. Vectorised: a resample is the vector
    of how often each task was drawn, and the resampled mean ranks are one
    matrix product.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_tasks, n_models)`` table, at least 2 × 2, no NaN.
    n_resamples : int
        Number of resamples, at least 1.
    alpha : float
        Level of the critical difference, in (0, 1).
    higher_is_better : bool
        ``False`` for errors or losses.
    rng : numpy.random.Generator, int or None
        Source of the resamples.

    Returns
    -------
    RankStabilityResult

    Raises
    ------
    ValueError
        For a table :func:`~sigeval.ranking.friedman` refuses, ``n_resamples < 1`` or ``alpha``
        outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    Model 0 wins on every task, model 2 loses on every one:

    >>> import numpy as np
    >>> from sigeval import rank_stability
    >>> scores = np.array([[0.9, 0.8, 0.7]] * 12) + np.arange(12)[:, None] / 100
    >>> res = rank_stability(scores, n_resamples=2000, rng=0)
    >>> res.order_stability, float(res.separation[0, 2])
    (1.0, 1.0)
    """
    table, models = score_table(scores)
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    alpha = check_alpha(alpha)
    gen = check_rng(rng)
    n, k = table.shape
    # Every resample's draws and counts, mean ranks and pairwise differences.
    check_memory(
        float(n_resamples) * (4 * n + k + k * (k - 1)), "n_resamples", n_resamples,
        "the resampled mean ranks",
    )
    ranks = within_ranks(table, higher_is_better)
    mean_ranks = ranks.mean(axis=0)
    cd = nemenyi_cd(k, n, alpha=alpha)

    counts = counts_by_index(gen, n, n_resamples).astype(float)
    resampled = counts @ ranks / n  # (B, k)
    # Pairwise differences on a grid of N-ths: compare counts of rank sums to avoid rounding.
    observed_sign = np.sign(_round_pairs(mean_ranks[:, None] - mean_ranks[None, :], n))
    iu = np.triu_indices(k, 1)
    resampled_diff = resampled[:, iu[0]] - resampled[:, iu[1]]  # (B, pairs)
    same_order = np.all(np.sign(_round_pairs(resampled_diff, n)) == observed_sign[iu], axis=1)
    separated = np.abs(resampled_diff) >= cd - 1e-12
    separation = np.zeros((k, k))
    separation[iu] = separated.mean(axis=0)
    separation = separation + separation.T
    jackknife = (mean_ranks[None, :] - ranks) / (n - 1)
    return RankStabilityResult(
        models=models,
        mean_ranks=mean_ranks,
        order_stability=float(same_order.mean()),
        separation=separation,
        jackknife=jackknife,
        critical_difference=cd,
        resampled_mean_ranks=resampled,
        n_resamples=n_resamples,
        alpha=alpha,
    )


def _round_pairs(diff: np.ndarray, n: int) -> np.ndarray:
    """Differences of mean ranks are multiples of 1/(2N): snap them to that grid."""
    return np.round(diff * 2 * n) / (2 * n)


# --------------------------------------------------------------------------- bootstrap ranks


@dataclass(frozen=True)
class BootstrapRanksResult:
    """Result of :func:`bootstrap_ranks`.

    Every array is in the order of ``models``.

    Attributes
    ----------
    models : tuple
        Model names or column indices.
    estimate : ndarray
        Every model's metric on the test set itself.
    rank : ndarray of int
        Observed rank (1 = highest metric; tied models share the better rank).
    rank_interval : ConfidenceInterval
        Percentile interval of every model's rank over the resamples, as
        integer arrays ``low`` and ``high`` ("rank 1–2").
    leader : object
        The model with rank 1 (the first of them if several tie).
    difference_interval : ConfidenceInterval
        Percentile intervals of ``leader - model`` at ``confidence_level``
        (unadjusted; zero width for the leader itself).
    pvalue : ndarray
        Two-sided bootstrap p-value of each difference to the leader (the
        smallest :math:`\\alpha` whose percentile interval excludes 0); 1 for
        the leader.
    pvalue_holm : ndarray
        Holm-adjusted over the ``k - 1`` comparisons with the leader; 1 for the leader.
    indistinguishable : ndarray of bool
        Models the leader does not significantly beat
        (``pvalue_holm > alpha``), the leader included.
    rank_distribution : ndarray
        ``(n_resamples, k)`` integer ranks of every resample.
    confidence_level : float
        Level of the rank and difference intervals, ``1 - alpha``.
    alpha : float
    n_resamples : int
    """

    models: tuple
    estimate: np.ndarray
    rank: np.ndarray
    rank_interval: ConfidenceInterval
    leader: Any
    difference_interval: ConfidenceInterval
    pvalue: np.ndarray
    pvalue_holm: np.ndarray
    indistinguishable: np.ndarray
    rank_distribution: np.ndarray
    confidence_level: float
    alpha: float
    n_resamples: int


def _competition_ranks(values: np.ndarray) -> np.ndarray:
    """1 + the number of models strictly better, along the last axis (higher is better)."""
    return 1 + np.sum(values[..., None, :] > values[..., :, None], axis=-1)


_CHUNK_ELEMENTS = 4_000_000


def _resampled_metrics(data, statistic, n_items, k, n_resamples, rng) -> np.ndarray:
    """(n_resamples, k) metrics of every model on every resample of the items."""
    out = np.empty((n_resamples, k))
    if statistic == "mean":
        rows = max(1, _CHUNK_ELEMENTS // max(n_items, 1))
        for start in range(0, n_resamples, rows):
            b = min(rows, n_resamples - start)
            counts = counts_by_index(rng, n_items, b).astype(float)
            out[start : start + b] = counts @ data / n_items
        return out
    per_item = sum(int(np.prod(x.shape[1:], dtype=np.int64)) for arrays in data for x in arrays)
    rows = max(1, _CHUNK_ELEMENTS // max(n_items * max(per_item, 1), 1))
    for start in range(0, n_resamples, rows):
        b = min(rows, n_resamples - start)
        idx = resample_indices(rng, n_items, b)
        for j, arrays in enumerate(data):
            out[start : start + b, j] = _call_statistic(statistic, arrays, idx)
    return out


def _call_statistic(statistic: Callable, arrays: tuple[np.ndarray, ...], idx: np.ndarray) -> np.ndarray:
    rows = idx.shape[0]
    value = np.asarray(statistic(*(x[idx] for x in arrays), axis=1), dtype=float)
    if value.shape != (rows,):
        raise ValueError(
            "`statistic` must return one value per resample: given arrays of shape "
            f"(batch, n_items, ...) with batch={rows}, it must return shape ({rows},); "
            f"got shape {value.shape}."
        )
    if not np.all(np.isfinite(value)):
        raise ValueError("`statistic` returned NaN or infinity on a resample.")
    return value


def _model_data(scores: Any, statistic: Any) -> tuple[Any, tuple, int]:
    """Per-item data: an (n, k) array for the mean, or k tuples of arrays for a callable."""
    if isinstance(statistic, str):
        if statistic != "mean":
            raise ValueError(f"`statistic` must be 'mean' or a callable; got {statistic!r}.")
        table, models = score_table(scores, unit="item")
        return table, models, table.shape[0]
    if not callable(statistic):
        raise TypeError(f"`statistic` must be 'mean' or a callable; got {type(statistic).__name__}.")
    if isinstance(scores, dict):
        models = tuple(scores)
        entries = list(scores.values())
    elif isinstance(scores, Sequence) and not isinstance(scores, (str, bytes)):
        models = tuple(range(len(scores)))
        entries = list(scores)
    else:
        raise TypeError(
            "With a callable `statistic`, `scores` must be a dict or a sequence with one entry "
            "per model: an array or a tuple of arrays sharing axis 0 (the test items); "
            f"got {type(scores).__name__}."
        )
    if len(entries) < 2:
        raise ValueError(f"`scores` must hold at least 2 models; got {len(entries)}.")
    data = []
    for model, entry in zip(models, entries):
        arrays = entry if isinstance(entry, tuple) else (entry,)
        arrays = tuple(real_array(x, f"scores[{model!r}]", allow_bool=True) for x in arrays)
        data.append(arrays)
    n_items = {x.shape[0] if x.ndim else -1 for arrays in data for x in arrays}
    if len(n_items) != 1 or -1 in n_items:
        raise ValueError(
            "Every model's arrays must share axis 0, the same test items in the same order; "
            f"got lengths {sorted(n_items)}."
        )
    n = n_items.pop()
    if n < 2:
        raise ValueError(f"`scores` must hold at least 2 test items; got {n}.")
    return data, models, n


def bootstrap_ranks(
    scores: Any,
    *,
    statistic: Literal["mean"] | Callable = "mean",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    rng: RngLike = None,
) -> BootstrapRanksResult:
    r"""Rank intervals of ``k`` models scored on the same test items, and the leader's tied group.

    Each of ``n_resamples`` resamples draws the :math:`n` test items with
    replacement, recomputes every model's metric on the *same* resample, and
    ranks the models (1 for the highest metric, tied models sharing the better
    rank). A model's rank interval is the percentile interval of its ranks
    ("rank 1–2"), as the PASCAL VOC challenge reports them (Everingham et al.,
    2015, section 3.5). The leader is the model ranked first on the test set;
    for every other model, the paired bootstrap distribution of
    ``leader - model`` gives a percentile interval and a two-sided p-value
    :math:`p = \min\big(1, 2\min(\#\{d^* \le 0\}, \#\{d^* \ge 0\})/B\big)`,
    Holm-adjusted over the :math:`k - 1` comparisons; models whose adjusted
    p-value exceeds :math:`\alpha` are the ones the leader does not
    significantly beat, which the VOC summary tables mark beside it. The rank
    intervals describe how much the ranks move; they are not simultaneous
    confidence sets for the ranks.

    Parameters
    ----------
    scores : array_like, DataFrame, dict or sequence
        With ``statistic="mean"``: an ``(n_items, k)`` table of per-item scores
        (0/1 correctness, per-image IoU, ...), a DataFrame's columns naming the
        models. With a callable: one entry per model (a dict from name to entry,
        or a sequence), each an array or a tuple of arrays sharing axis 0, the
        test items in the same order for every model (for example
        ``(detection_scores, is_true_positive, n_positives)`` per model).
    statistic : "mean" or callable
        ``"mean"``, or ``f(*arrays, axis=1)`` mapping arrays of shape
        ``(batch, n_items, ...)`` to shape ``(batch,)``, the item axis being
        ``axis`` (the convention of :func:`~sigeval.resampling.bootstrap_ci` and
        ``scipy.stats.bootstrap``, so ``np.mean`` and :func:`~sigeval.metrics.average_precision`
        work unchanged). Higher values are better.
    n_resamples : int
        Number of resamples, at least 1.
    alpha : float
        Level of the Holm-adjusted comparisons with the leader, in (0, 1); a
        model is significantly beaten when its adjusted p-value is at most
        ``alpha``. The rank and difference intervals are at ``1 - alpha``.
    rng : numpy.random.Generator, int or None
        Source of the resamples.

    Returns
    -------
    BootstrapRanksResult

    Raises
    ------
    ValueError
        For fewer than 2 models or items, NaN scores, models of different
        lengths, or a callable returning the wrong shape or non-finite values.

    Notes
    -----
    Explained in :ref:`ch-multiple`.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import bootstrap_ranks
    >>> rng = np.random.default_rng(0)
    >>> correct = rng.random((500, 3)) < [0.80, 0.79, 0.70]
    >>> res = bootstrap_ranks(correct.astype(float), n_resamples=2000, rng=1)
    >>> res.estimate
    array([0.76 , 0.782, 0.7  ])
    >>> res.leader, res.rank.tolist()
    (1, [2, 1, 3])
    >>> res.rank_interval.low.tolist(), res.rank_interval.high.tolist()
    ([1, 1, 3], [2, 2, 3])
    >>> res.indistinguishable.tolist()
    [True, True, False]
    """
    data, models, n_items = _model_data(scores, statistic)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    alpha = check_alpha(alpha)
    gen = check_rng(rng)
    k = len(models)
    # Metrics, ranks and differences of every resample, and the k x k comparisons
    # (booleans) behind each resample's ranks.
    check_memory(
        float(n_resamples) * (4 * k + k * k / 8), "n_resamples", n_resamples,
        "the resampled metrics and ranks",
    )
    if isinstance(statistic, str):
        estimate = data.mean(axis=0)
    else:
        everything = np.arange(n_items)[None]
        estimate = np.array([_call_statistic(statistic, arrays, everything)[0] for arrays in data])
    metrics = _resampled_metrics(data, statistic, n_items, k, n_resamples, gen)
    rank = _competition_ranks(estimate)
    rank_dist = _competition_ranks(metrics)
    tail = alpha / 2
    low = np.quantile(rank_dist, tail, axis=0, method="inverted_cdf").astype(int)
    high = np.quantile(rank_dist, 1 - tail, axis=0, method="inverted_cdf").astype(int)

    leader = int(np.argmax(estimate))
    differences = metrics[:, [leader]] - metrics  # (B, k)
    d_low, d_high = np.percentile(differences, [100 * tail, 100 * (1 - tail)], axis=0)
    at_most = np.mean(differences <= 0, axis=0)
    at_least = np.mean(differences >= 0, axis=0)
    pvalue = np.minimum(1.0, 2 * np.minimum(at_most, at_least))
    pvalue[leader] = 1.0
    others = np.arange(k) != leader
    pvalue_holm = np.ones(k)
    pvalue_holm[others] = adjust_pvalues(pvalue[others], method="holm")
    return BootstrapRanksResult(
        models=models,
        estimate=estimate,
        rank=rank,
        rank_interval=ConfidenceInterval(low, high),
        leader=models[leader],
        difference_interval=ConfidenceInterval(d_low, d_high),
        pvalue=pvalue,
        pvalue_holm=pvalue_holm,
        indistinguishable=pvalue_holm > alpha,
        rank_distribution=rank_dist,
        confidence_level=1 - alpha,
        alpha=alpha,
        n_resamples=n_resamples,
    )



# --------------------------------------------------------------------------- rank confidence sets


@dataclass(frozen=True)
class RankConfidenceSetsResult:
    """Result of :func:`rank_confidence_sets`.

    Every array is in the order of ``models``.

    Attributes
    ----------
    models : tuple
        Model names or column indices.
    estimate : ndarray
        Every model's mean score over the items.
    rank : ndarray of int
        Observed rank (1 = highest mean; tied models share the better rank).
    rank_interval : ConfidenceInterval
        Simultaneous confidence intervals for the true ranks, integer arrays
        ``low`` and ``high``: with probability at least ``confidence_level``
        (asymptotically) every model's true rank lies in its interval at once.
    best_set : tuple
        The models whose rank interval contains 1: a confidence set for the
        best model (it holds every truly best model with the same probability).
    difference_interval : ConfidenceInterval
        ``(k, k)`` arrays: simultaneous intervals of ``estimate[i] - estimate[j]``
        (row minus column), zero on the diagonal.
    critical_value : float
        The bootstrap quantile of the largest studentized pairwise deviation:
        every interval is the difference plus or minus this many standard errors.
    confidence_level : float
    n_resamples : int
    """

    models: tuple
    estimate: np.ndarray
    rank: np.ndarray
    rank_interval: ConfidenceInterval
    best_set: tuple
    difference_interval: ConfidenceInterval
    critical_value: float
    confidence_level: float
    n_resamples: int


def rank_confidence_sets(
    scores: ArrayLike,
    *,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    rng: RngLike = None,
) -> RankConfidenceSetsResult:
    r"""Simultaneous confidence intervals for the ranks of ``k`` models scored on the same items.

    The method of Mogstad, Romano, Shaikh & Wilhelm (2024, "Inference for
    ranks with applications to mobility across neighbourhoods and academic
    achievement across countries"), single-step version, with the paired
    bootstrap of the items. For every pair :math:`i < j` of models, the mean
    difference :math:`\hat\Delta_{ij} = \bar x_i - \bar x_j` has the
    standard error :math:`s_{ij}` of the per-item differences. Each of
    ``n_resamples`` resamples draws the :math:`n` items with replacement and
    records the largest studentized deviation over all pairs,

    .. math::

        T^* = \max_{i < j} \frac{|\hat\Delta^*_{ij} - \hat\Delta_{ij}|}{s_{ij}},

    and :math:`c` is its ``confidence_level`` quantile. The intervals
    :math:`\hat\Delta_{ij} \pm c\, s_{ij}` then cover every true difference
    at once with probability about ``confidence_level``; on that event, a
    model :math:`j` has at least :math:`b_j` models truly above it and
    :math:`w_j` truly below it, where :math:`b_j` (:math:`w_j`) counts the
    intervals of :math:`\theta_i - \theta_j` lying entirely above (below)
    zero. Hence the rank intervals :math:`[1 + b_j,\; k - w_j]` hold every
    true rank simultaneously, and the models with :math:`b_j = 0` form a
    confidence set for the best. Unlike the leader's "not significantly
    beaten" group of :func:`bootstrap_ranks`, no model is chosen from the data
    before the intervals are made, so the level (asymptotic, since the
    bootstrap approximates the distribution of :math:`T`) is a property of the
    procedure, not a description.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_items, k)`` per-item scores (0/1 correctness, per-image IoU, ...),
        at least 2 x 2, no NaN; a DataFrame's columns name the models. Higher
        is better; the statistic is the mean.
    confidence_level : float
        Simultaneous level of the intervals, in (0, 1).
    n_resamples : int
        Number of bootstrap resamples of the items, at least 1.
    rng : numpy.random.Generator, int or None
        Source of the resamples.

    Returns
    -------
    RankConfidenceSetsResult

    Raises
    ------
    ValueError
        For fewer than 2 models or items, NaN or infinite scores,
        ``confidence_level`` outside (0, 1) or ``n_resamples < 1``.

    Notes
    -----
    A pair whose per-item differences are all equal has a standard error of
    zero; the bootstrap sees no variation in it, so its interval is the
    difference itself (two identical models are then tied, and a constant
    non-zero difference separates them). The stepwise refinement of
    Mogstad et al. (their R package ``csranks``, ``stepdown=TRUE``) can only
    shorten the intervals; the single step is what this function computes.
    Its simultaneous coverage is measured by simulation in the tests.
    Explained in :ref:`ch-multiple`.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import rank_confidence_sets
    >>> rng = np.random.default_rng(0)
    >>> correct = (rng.random((2000, 4)) < [0.80, 0.79, 0.70, 0.60]).astype(float)
    >>> res = rank_confidence_sets(correct, n_resamples=2000, rng=1)
    >>> res.rank.tolist()
    [2, 1, 3, 4]
    >>> res.rank_interval.low.tolist(), res.rank_interval.high.tolist()
    ([1, 1, 3, 4], [2, 2, 3, 4])
    >>> res.best_set
    (0, 1)
    """
    table, models = score_table(scores, unit="item")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    gen = check_rng(rng)
    n, k = table.shape
    n_pairs = k * (k - 1) // 2
    # The per-item pairwise differences, and every resample's pairwise means and deviations
    # (checked before the pair indices exist: with many models they alone are large).
    check_memory(float(n) * n_pairs + 2.0 * n_pairs, "scores", f"{n:,} items x {k:,} models",
                 f"the per-item differences of all {n_pairs:,} pairs of models",
                 advice="Rank sets compare every pair of models: pass fewer models (for example the leading ones), "
                        "or fewer items.")
    check_memory(float(n) * n_pairs + float(n_resamples) * (n_pairs + 2), "n_resamples", n_resamples,
                 "the pairwise differences of every resample")
    iu = np.triu_indices(k, 1)
    # Ranks do not depend on the scale: values near the float64 limits are divided by a power of
    # two (exact), so that differences and their squares cannot overflow; ordinary values are not.
    unit = safe_scale(table, power=2)
    table = table / unit
    differences = table[:, iu[0]] - table[:, iu[1]]  # (n, pairs)
    estimate_pairs = differences.mean(axis=0)
    # Exactly constant differences have no spread; a computed sd would be rounding noise.
    varies = np.ptp(differences, axis=0) > 0
    standard_error = np.where(varies, differences.std(axis=0, ddof=1) / np.sqrt(n), 0.0)
    scale = np.where(varies, standard_error, 1.0)

    # Centred and studentized in place (no second n x pairs array); constant pairs contribute 0.
    differences -= estimate_pairs
    differences /= scale
    differences[:, ~varies] = 0.0
    largest = np.empty(n_resamples)
    rows = max(1, _CHUNK_ELEMENTS // max(n, n_pairs))
    for start in range(0, n_resamples, rows):
        b = min(rows, n_resamples - start)
        counts = counts_by_index(gen, n, b).astype(float)
        largest[start : start + b] = np.abs(counts @ differences / n).max(axis=1)
    critical = float(np.quantile(largest, confidence_level, method="inverted_cdf"))

    half = critical * standard_error
    low_pairs, high_pairs = estimate_pairs - half, estimate_pairs + half
    low = np.zeros((k, k))
    high = np.zeros((k, k))
    low[iu], high[iu] = low_pairs, high_pairs
    low[iu[::-1]], high[iu[::-1]] = -high_pairs, -low_pairs
    # The observed ranks from the same differences, so that rounding cannot put them outside.
    pairwise = np.zeros((k, k))
    pairwise[iu], pairwise[iu[::-1]] = estimate_pairs, -estimate_pairs
    with np.errstate(over="ignore"):  # an overflow is refused just below, with its own message
        low, high = low * unit, high * unit
    check_finite_result({"difference_interval": np.concatenate([low, high])}, "`scores`")
    # Row i minus column j: an interval above zero says i is truly above j.
    above = low > 0
    below = high < 0
    rank_low = 1 + above.sum(axis=0)
    rank_high = k - below.sum(axis=0)
    return RankConfidenceSetsResult(
        models=models,
        estimate=table.mean(axis=0) * unit,
        rank=1 + (pairwise > 0).sum(axis=0),
        rank_interval=ConfidenceInterval(rank_low, rank_high),
        best_set=tuple(m for m, lo in zip(models, rank_low) if lo == 1),
        difference_interval=ConfidenceInterval(low, high),
        critical_value=critical,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
    )

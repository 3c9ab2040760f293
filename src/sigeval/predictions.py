"""A table of predictions, every question in turn: what ``sigeval compare`` prints.

One row per test item, a column of true labels and one column per model
(predicted labels, 0/1 correctness, or scores for the positive class).
:func:`compare_predictions` gives each model's accuracy (or AUC) with its
interval and, for every pair of models, the difference A minus B with its
paired interval, a paired test and the Holm-adjusted p-value: exactly the
tables the command line prints, so that a Python user, a chapter and the
command get the same numbers from one function.

:func:`compare_items` does the same task by task for a long table of
per-item scores (one row per model, task, item and sample, as the readers of
harness logs return it): several samples per item, pass@k, Holm over the
pairs and rank confidence sets.

Explained in :ref:`ch-own-results`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from itertools import combinations
from typing import Any

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ._compare_predictions import (
    PredictionsComparison,
    _check_unique_columns,
    _column_name,
    _require,
    compare_predictions,
)
from ._labels import cell_text
from ._options import FAMILIES, Family
from ._validation import (
    RngLike,
    TableError,
    check_choice,
    check_numeric_column,
    check_positive_int,
    check_rng,
    check_unit_interval,
    group_codes,
    listing,
)
from .generative import pass_at_k, sampled_mean, sampled_paired_difference
from .multiple import adjust_pvalues
from .permutation import paired_permutation_test
from .rank_uncertainty import rank_confidence_sets

__all__ = ["PredictionsComparison", "compare_predictions", "ItemsComparison", "compare_items"]


# --------------------------------------------------------------------------- a long table of per-item scores


@dataclass(frozen=True)
class ItemsComparison:
    """Result of :func:`compare_items`; every table has a ``task`` column.

    Attributes
    ----------
    per_model : pandas.DataFrame
        One row per task and model: ``n_items`` (the items every model of the
        task has), ``n_samples`` (samples per item; their harmonic mean when
        they differ), ``score`` (accuracy, or the mean score), ``ci_low``,
        ``ci_high``, and ``method``, how the interval was made (or why there is none).
    pairs : pandas.DataFrame
        One row per task and pair of models: ``model_a``, ``model_b``,
        ``n_items``, ``estimate`` (A minus B), ``ci_low``, ``ci_high``,
        ``pvalue``, ``pvalue_holm`` (Holm over the pairs of the task, or of
        every task with ``family="all"``), ``method``.
    pass_at_k : pandas.DataFrame
        With several 0/1 samples per item: one row per task, model and ``k``,
        with ``estimate``, ``ci_low``, ``ci_high``. Empty otherwise.
    rank_sets : pandas.DataFrame
        One row per task and model: the observed ``rank``, the simultaneous
        rank interval ``rank_low``, ``rank_high`` and ``best_set`` (the model
        may be the best), from :func:`~sigeval.rank_uncertainty.rank_confidence_sets`
        on the items' mean scores. Empty with ``groups`` (the rank sets resample items).
    missing : pandas.DataFrame
        One row per task and model that lacks items another model of the task
        has: ``n_missing`` and ``items`` (the first five ids). These items are
        left out of every number of the task.
    note : str
        How every number was computed, and what was left out, in one paragraph.
    confidence_level : float
    n_resamples : int
    """

    per_model: pd.DataFrame
    pairs: pd.DataFrame
    pass_at_k: pd.DataFrame
    rank_sets: pd.DataFrame
    missing: pd.DataFrame
    note: str
    confidence_level: float
    n_resamples: int


@dataclass(frozen=True)
class _Roles:
    """The columns of the long table, by role; absent roles are None."""

    model: Any
    task: Any
    item: Any
    sample: Any
    metric: Any
    score: Any
    groups: Any


def _roles(table: pd.DataFrame, **columns: Any) -> _Roles:
    """The roles' columns, each present in the table, one column per role."""
    for role, column in columns.items():
        if column is not None:
            _require(table, _column_name(column, role), role if role == "groups" else f"{role}s")
    given = [c for c in columns.values() if c is not None]
    twice = [c for c in dict.fromkeys(given) if given.count(c) > 1]
    if twice:
        shared = "; ".join(f"{c!r} is named for {listing([r for r, v in columns.items() if v == c])}" for c in twice)
        raise ValueError(f"each role needs its own column; {shared}.")
    _check_unique_columns(table, given)
    return _Roles(**columns)


def _checked_scores(table: pd.DataFrame, roles: _Roles) -> np.ndarray:
    """The scores as floats; an empty (NaN) score is refused with the rows and the reader's reason."""
    scores = check_numeric_column(table, roles.score)
    bad = ~np.isfinite(scores)
    if bad.any():
        rows = np.flatnonzero(bad)
        reason = ""
        if "error" in table.columns and isinstance(table["error"].iloc[rows[0]], str) and table["error"].iloc[rows[0]]:
            reason = f" (the first: {table['error'].iloc[rows[0]]})"
        raise TableError(
            rows,
            f"{rows.size} score(s) are empty or infinite{reason}: a failed item is never dropped silently; "
            "score it, or remove its rows explicitly",
        )
    return scores


def _one_metric(table: pd.DataFrame, roles: _Roles, tasks: np.ndarray) -> None:
    if roles.metric is None:
        return
    counts = table.groupby(tasks, sort=False)[roles.metric].nunique(dropna=False)
    if (counts > 1).any():
        task = counts.index[counts.to_numpy() > 1][0]
        held = list(dict.fromkeys(table[roles.metric][tasks == task]))
        raise TableError(
            None,
            f"task {task!r} holds {len(held)} metrics ({', '.join(map(repr, held))}); one score per item is compared: "
            "choose the metric when reading (metric=...; --metric on the command line) or keep one metric's rows",
        )


def _no_duplicates(table: pd.DataFrame, keys: list) -> None:
    repeated = table.duplicated(keys, keep=False).to_numpy()
    if repeated.any():
        raise TableError(
            np.flatnonzero(repeated),
            f"the same {', '.join(map(str, keys))} appears more than once; items are matched by id, so each "
            "(task, model, item, sample) must be one row",
        )


def _missing(items: pd.Series, models: pd.Series, order: list, task: Any) -> list[dict]:
    """Per model, the items another model of the task has and it lacks (count and the first five)."""
    union = pd.Index(pd.unique(items))
    rows = []
    for m in order:
        have = pd.Index(pd.unique(items[models == m]))
        lacking = union.difference(have, sort=False)
        if len(lacking):
            shown = ", ".join(map(repr, lacking[:5])) + (f" and {len(lacking) - 5} more" if len(lacking) > 5 else "")
            rows.append({"task": task, "model": m, "n_missing": len(lacking), "items": shown})
    return rows


def _matrices(sub: pd.DataFrame, models: list, shared: pd.Index, scores: np.ndarray) -> dict[Any, np.ndarray]:
    """Per model, an (items, samples) array of scores on the shared items (as many samples as any model has), NaN
    where an item has fewer."""
    keep = sub["__item"].isin(shared).to_numpy()
    sub, scores = sub[keep], scores[keep]
    row = shared.get_indexer(sub["__item"])
    column = sub.groupby(["__model", "__item"], sort=False).cumcount().to_numpy()
    width = int(column.max()) + 1
    out = {}
    for m in models:
        mine = (sub["__model"] == m).to_numpy()
        matrix = np.full((len(shared), width), np.nan)
        matrix[row[mine], column[mine]] = scores[mine]
        out[m] = matrix
    return out


def _item_groups(sub: pd.DataFrame, shared: pd.Index, task: Any) -> np.ndarray | None:
    if "__group" not in sub.columns:
        return None
    per_item = sub.groupby("__item", sort=False)["__group"].nunique(dropna=False)
    if (per_item > 1).any():
        item = cell_text(per_item.index[per_item.to_numpy() > 1][0])
        raise TableError(None, f"task {task!r}: item {item} is in more than one group; each item belongs to one group")
    first = sub.drop_duplicates("__item").set_index("__item")["__group"]
    return group_codes(first.reindex(shared).to_numpy(dtype=object), len(shared))


def _binary_single(matrices: dict, task: Any, models: list, codes, level, n_resamples, gen) -> tuple:
    """One 0/1 answer per item: :func:`compare_predictions` on the items x models table of correctness."""
    key = object()  # a column name no model can have
    wide = pd.DataFrame({m: matrices[m][:, 0] for m in models})
    if codes is not None:
        wide[key] = codes
    res = compare_predictions(wide, label=None, models=models, groups=key if codes is not None else None,
                              confidence_level=level, n_resamples=n_resamples, rng=gen, progress=False)
    interval = "Wilson" if codes is None else "cluster bootstrap (groups)"
    test = "McNemar (exact)" if codes is None else "sign flips of whole groups"
    per_model = res.per_model.rename(columns={"accuracy": "score"}).assign(task=task, n_samples=1.0, method=interval)
    pairs = res.pairs.assign(task=task, n_items=len(wide), method=f"{test}; paired {'cluster ' if codes is not None else ''}"
                                                                  "bootstrap percentile interval")
    return per_model, pairs


def _refused(err: ValueError) -> str:
    return f"no interval: {str(err).split(':')[0]}"


def _sampled(matrices: dict, task: Any, models: list, codes, level, gen) -> tuple:
    """Several samples per item, or scores that are not 0/1: clustered means and paired differences by item."""
    unit = "group" if codes is not None else "item"
    per_model = []
    for m in models:
        row = {"task": task, "model": m, "n_items": matrices[m].shape[0]}
        try:
            res = sampled_mean(matrices[m], groups=codes, confidence_level=level)
            row |= {"n_samples": res.n_samples, "score": res.estimate, "ci_low": res.confidence_interval.low,
                    "ci_high": res.confidence_interval.high, "method": f"t, standard error clustered by {unit}"}
        except ValueError as err:  # all question means equal: a perfect model has no interval of this kind
            counts = np.sum(~np.isnan(matrices[m]), axis=1)
            row |= {"n_samples": float(counts.size / np.sum(1.0 / counts)), "score": float(np.nanmean(matrices[m])),
                    "ci_low": np.nan, "ci_high": np.nan, "method": _refused(err)}
        per_model.append(row)
    clusters = np.arange(next(iter(matrices.values())).shape[0]) if codes is None else codes
    pairs = []
    for a, b in combinations(models, 2):
        row = {"task": task, "model_a": a, "model_b": b, "n_items": matrices[a].shape[0]}
        # The test flips the sign of each cluster's summed difference of item means (items are the units).
        sums = [np.bincount(clusters, weights=np.nanmean(matrices[m], axis=1)) for m in (a, b)]
        with warnings.catch_warnings():
            # Two models that agree on every unit: the row says so (estimate 0, p-value 1) without a warning.
            warnings.filterwarnings("ignore", message="All paired differences are zero", category=UserWarning)
            pvalue = paired_permutation_test(sums[0], sums[1], rng=gen).pvalue
        try:
            res = sampled_paired_difference(matrices[a], matrices[b], groups=codes, confidence_level=level)
            row |= {"estimate": res.estimate, "ci_low": res.confidence_interval.low,
                    "ci_high": res.confidence_interval.high, "pvalue": pvalue,
                    "method": f"sign flips by {unit}; t interval clustered by {unit}"}
        except ValueError as err:
            row |= {"estimate": float(np.mean(np.nanmean(matrices[a], axis=1) - np.nanmean(matrices[b], axis=1))),
                    "ci_low": np.nan, "ci_high": np.nan, "pvalue": pvalue,
                    "method": f"sign flips by {unit}; {_refused(err)}"}
        pairs.append(row)
    return pd.DataFrame(per_model), pd.DataFrame(pairs)


def _pass_at_k(matrices: dict, task: Any, models: list, k: Any, codes, level, n_resamples, gen) -> list[dict]:
    fewest = min(int(np.min(np.sum(~np.isnan(x), axis=1))) for x in matrices.values())
    ks = sorted({1, fewest}) if k is None else [check_positive_int(v, "k") for v in np.atleast_1d(np.asarray(k, dtype=object))]
    too_many = [v for v in ks if v > fewest]
    if too_many:
        raise ValueError(f"`k` = {too_many[0]} exceeds the samples of some item of task {task!r} (the fewest are "
                         f"{fewest}): pass@k needs at least k samples of every item.")
    rows = []
    for m in models:
        n_samples = np.sum(~np.isnan(matrices[m]), axis=1)
        n_correct = np.nansum(matrices[m], axis=1).astype(np.int64)
        for v in ks:
            res = pass_at_k(n_samples, n_correct, v, groups=codes, confidence_level=level, n_resamples=n_resamples,
                            rng=gen)
            rows.append({"task": task, "model": m, "k": v, "estimate": res.estimate,
                         "ci_low": res.confidence_interval.low, "ci_high": res.confidence_interval.high})
    return rows


def _ranks(matrices: dict, task: Any, models: list, level, n_resamples, gen) -> list[dict]:
    means = pd.DataFrame({i: np.nanmean(matrices[m], axis=1) for i, m in enumerate(models)})
    res = rank_confidence_sets(means, confidence_level=level, n_resamples=n_resamples, rng=gen)
    best = set(res.best_set)
    low, high = np.asarray(res.rank_interval.low), np.asarray(res.rank_interval.high)
    return [{"task": task, "model": m, "rank": int(res.rank[i]), "rank_low": int(low[i]), "rank_high": int(high[i]),
             "best_set": i in best} for i, m in enumerate(models)]


def compare_items(
    table: pd.DataFrame,
    *,
    model: Any = "model",
    task: Any = "task",
    item: Any = "item",
    sample: Any = "sample",
    metric: Any = "metric",
    score: Any = "score",
    groups: Any = None,
    k: ArrayLike | None = None,
    family: Family = "task",
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    rng: RngLike = None,
) -> ItemsComparison:
    r"""Every model and every pair of a long table of per-item scores, task by task, on the items they share.

    The table is what :func:`~sigeval.readers.read_lm_eval` and
    :func:`~sigeval.readers.read_inspect` return: one row per (task, model,
    item, sample) with a score. Items are matched by their id within each
    task; the items one model has and another lacks are left out of the task
    and listed in ``missing`` (a count and the first ids). Then, per task:

    - **one 0/1 answer per item**: :func:`compare_predictions` on the table of
      correctness (items x models): Wilson intervals of the accuracies, paired
      bootstrap intervals of the differences and McNemar's exact test; with
      ``groups``, cluster bootstrap intervals and sign flips of whole groups;
    - **several samples per item, or scores that are not 0/1**: each model's
      mean over items of its items' means with the standard error clustered by
      item (or group), :func:`~sigeval.generative.sampled_mean`, and each pair's
      difference with :func:`~sigeval.generative.sampled_paired_difference`,
      paired by item: the samples of one item are never independent items.
      The p-value flips the sign of each item's (or group's) difference of
      means (:func:`~sigeval.permutation.paired_permutation_test`); with 0/1
      samples, pass@k of each model (:func:`~sigeval.generative.pass_at_k`);

    and in every case Holm's adjustment over the pairs of each task, or with
    ``family="all"`` over every pair of every task
    (:func:`~sigeval.multiple.adjust_pvalues`), and the simultaneous rank
    intervals of :func:`~sigeval.rank_uncertainty.rank_confidence_sets` on
    the items' mean scores (not with ``groups``, whose items are not
    independent). Every difference is A minus B, models in their order of
    appearance.

    Parameters
    ----------
    table : pandas.DataFrame
        One row per task, model, item and sample.
    model, task, item, sample, metric, score : column names
        The columns of each role. ``task``, ``sample`` and ``metric`` may be
        None: one task, one sample per item, one metric. A ``metric`` column
        must hold one metric per task (the readers' ``metric=`` chooses it).
    groups : column name, optional
        A column of group labels for items that come in groups (one label per item).
    k : int or array_like of int, optional
        The k of pass@k with several 0/1 samples per item; by default 1 and
        the fewest samples an item has.
    family : {"task", "all"}
        Holm's family: the pairs of each task (the default), or every pair of
        every task (two models on several tasks: one family of comparisons).
    confidence_level : float
        Level of every interval.
    n_resamples : int
        Bootstrap resamples of every bootstrap interval and of the rank sets
        (a sign-flip test that is not exact draws 10,000 random flips, as
        :func:`compare_predictions`'s does).
    rng : numpy.random.Generator, int or None
        Source of every draw (one generator for the whole table).

    Returns
    -------
    ItemsComparison

    Raises
    ------
    ValueError
        A missing column, a score that is empty or not a number (the rows; a
        failed run is never dropped silently), a task with several metrics (it
        lists them), the same (task, model, item, sample) twice, a task with
        fewer than 2 models or shared items, an item in two groups, or ``k``
        above the samples of an item.
    TypeError
        ``table`` not a DataFrame, a column name that is not one.

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    >>> import pandas as pd
    >>> from sigeval import compare_items
    >>> table = pd.DataFrame({
    ...     "model": ["A"] * 6 + ["B"] * 5, "item": [1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5],
    ...     "score": [1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 1]})
    >>> res = compare_items(table, task=None, sample=None, metric=None, n_resamples=1000, rng=0)
    >>> res.per_model[["model", "n_items", "score"]].to_dict("records")
    [{'model': 'A', 'n_items': 5, 'score': 0.8}, {'model': 'B', 'n_items': 5, 'score': 0.4}]
    >>> res.missing[["model", "n_missing", "items"]].to_dict("records")
    [{'model': 'B', 'n_missing': 1, 'items': '6'}]
    >>> res.pairs[["model_a", "model_b", "estimate", "pvalue"]].round(4).to_dict("records")
    [{'model_a': 'A', 'model_b': 'B', 'estimate': 0.4, 'pvalue': 0.5}]
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"`table` must be a pandas DataFrame, one row per item and sample; got {type(table).__name__}.")
    if table.empty:
        raise ValueError("`table` must hold at least one row; got an empty table.")
    roles = _roles(table, model=model, task=task, item=item, sample=sample, metric=metric, score=score, groups=groups)
    level = check_unit_interval(confidence_level, "confidence_level")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    family = check_choice(family, "family", FAMILIES)
    gen = check_rng(rng)
    scores = _checked_scores(table, roles)
    for role in ("model", "item", "task", "groups"):
        column = getattr(roles, role)
        if column is not None and table[column].isna().any():
            raise TableError(np.flatnonzero(table[column].isna().to_numpy()), f"the {role} column {column!r} is empty")
    tasks = table[task].to_numpy(dtype=object) if task is not None else np.full(len(table), None, dtype=object)
    _one_metric(table, roles, tasks)
    keys = [c for c in (task, model, item, sample) if c is not None]
    _no_duplicates(table, keys)
    long = pd.DataFrame({"__task": tasks, "__model": table[model].to_numpy(dtype=object),
                         "__item": table[item].to_numpy(dtype=object)})
    if groups is not None:
        long["__group"] = table[groups].to_numpy(dtype=object)
    per_model, pairs, passes, ranks, missing, notes = [], [], [], [], [], []
    for t in pd.unique(long["__task"]):
        in_task = (long["__task"] == t).to_numpy() if t is not None else np.ones(len(long), dtype=bool)
        sub, values = long[in_task], scores[in_task]
        models = list(pd.unique(sub["__model"]))
        name = "" if t is None else f"task {t!r}: "
        if len(models) < 2:
            raise TableError(np.flatnonzero(in_task)[:1], f"{name}a comparison needs at least 2 models; found {models!r}")
        shared = pd.Index(pd.unique(sub["__item"]))
        for m in models:
            shared = shared.intersection(pd.Index(pd.unique(sub["__item"][sub["__model"] == m])), sort=False)
        if len(shared) < 2:
            raise TableError(None, f"{name}the models share {len(shared)} item(s); a comparison needs at least 2")
        lacking = _missing(sub["__item"], sub["__model"], models, t)
        if lacking:
            left = len(pd.unique(sub["__item"])) - len(shared)
            notes.append(f"{name}{left} item(s) not held by every model left out (see `missing`)")
        missing += lacking
        codes = _item_groups(sub, shared, t)
        matrices = _matrices(sub, models, shared, values)
        binary = bool(np.all(np.isin(values, (0.0, 1.0))))
        single = all(x.shape[1] == 1 for x in matrices.values())
        if binary and single:
            task_models, task_pairs = _binary_single(matrices, t, models, codes, level, n_resamples, gen)
        else:
            task_models, task_pairs = _sampled(matrices, t, models, codes, level, gen)
            if binary:
                passes += _pass_at_k(matrices, t, models, k, codes, level, n_resamples, gen)
        per_model.append(task_models)
        pairs.append(task_pairs)
        if codes is None:
            ranks += _ranks(matrices, t, models, level, n_resamples, gen)
    model_columns = ["task", "model", "n_items", "n_samples", "score", "ci_low", "ci_high", "method"]
    pair_columns = ["task", "model_a", "model_b", "n_items", "estimate", "ci_low", "ci_high", "pvalue", "pvalue_holm",
                    "method"]
    if groups is not None:
        notes.append("rank sets not computed: they resample items, and grouped items are not independent")
    all_pairs = pd.concat(pairs, ignore_index=True)
    # Holm within each task, or over every pair of the table.
    families = all_pairs.task.to_numpy(dtype=object) if family == "task" else np.zeros(len(all_pairs))
    for f in pd.unique(families):
        members = families == f  # elementwise on an object array, None included
        all_pairs.loc[members, "pvalue_holm"] = adjust_pvalues(all_pairs.pvalue[members].to_numpy(), method="holm")
    holm = "Holm over the pairs of each task" if family == "task" else f"Holm over all {len(all_pairs)} pairs"
    note = "; ".join([f"{holm}; every difference is A minus B, on the items all models of the task share; "
                      f"intervals at {level:g}", *notes])
    return ItemsComparison(
        per_model=pd.concat(per_model, ignore_index=True)[model_columns],
        pairs=all_pairs[pair_columns],
        pass_at_k=pd.DataFrame(passes, columns=["task", "model", "k", "estimate", "ci_low", "ci_high"]),
        rank_sets=pd.DataFrame(ranks, columns=["task", "model", "rank", "rank_low", "rank_high", "best_set"]),
        missing=pd.DataFrame(missing, columns=["task", "model", "n_missing", "items"]),
        note=note,
        confidence_level=level,
        n_resamples=n_resamples,
    )

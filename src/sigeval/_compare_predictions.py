"""One row per test item, a column of true labels and one column per model: each model's accuracy (or AUC)
with its interval and every pair compared, the tables ``sigeval compare`` prints.

Public through :mod:`sigeval.predictions` (its own module only to keep each module short). Explained in
:ref:`ch-own-results`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import combinations
from typing import Any, Literal

import numpy as np
import pandas as pd

from ._labels import correctness as _correctness
from ._progress import progress_bar
from ._results import BootstrapResult
from ._validation import (
    RngLike,
    TableError,
    check_choice,
    check_numeric_column,
    check_positive_int,
    check_rng,
    check_unit_interval,
)
from .intervals import proportion_ci
from .metrics import roc_auc
from .multiple import adjust_pvalues
from .paired import mcnemar
from .permutation import paired_permutation_test
from .resampling import bootstrap_ci, paired_bootstrap_ci
from .roc import AUCInterval, delong_ci, delong_test

__all__ = [
    "PredictionsComparison",
    "compare_predictions",
]


Metric = Literal["accuracy", "auc"]
AUCMethod = Literal["delong", "bootstrap"]


@dataclass(frozen=True)
class PredictionsComparison:
    """Result of :func:`compare_predictions`.

    Attributes
    ----------
    per_model : pandas.DataFrame
        One row per model: ``model``, ``n_items``, ``accuracy`` (or ``auc``),
        ``ci_low``, ``ci_high``.
    pairs : pandas.DataFrame
        One row per pair of models: ``model_a``, ``model_b``, ``estimate``
        (A minus B), ``ci_low``, ``ci_high``, ``pvalue``, ``pvalue_holm``
        (Holm over all pairs).
    note : str
        How every number was computed, in one sentence.
    metric : str
    confidence_level : float
    n_resamples : int
    """

    per_model: pd.DataFrame
    pairs: pd.DataFrame
    note: str
    metric: str
    confidence_level: float
    n_resamples: int


def _column_name(value: Any, name: str) -> Any:
    """A column name given as an argument: hashable (a list is not one column)."""
    try:
        hash(value)
    except TypeError:
        raise TypeError(f"`{name}` must be a column name; got {value!r}.") from None
    return value


def _model_columns(table: pd.DataFrame, models: Any, used: set) -> list:
    """The model columns named by ``models``: a list of distinct columns, none of them the label or the groups."""
    if isinstance(models, str | bytes) or not isinstance(models, Iterable):
        raise TypeError(f"`models` must be a list of column names; got {models!r}.")
    models = [_column_name(m, "models") for m in models]
    for m in models:
        _require(table, m, "models")
    repeated = [m for m in dict.fromkeys(models) if models.count(m) > 1]
    if repeated:
        raise ValueError(f"`models` must name each column once; got {', '.join(map(repr, repeated))} more than once.")
    taken = [m for m in models if m in used]
    if taken:
        raise ValueError(
            f"`models` must not name the label or the groups column; got {', '.join(map(repr, taken))}."
        )
    return models


def _check_unique_columns(table: pd.DataFrame, columns: list) -> None:
    """Each column the comparison reads must be one column: a name the table holds twice is ambiguous."""
    repeated = set(table.columns[table.columns.duplicated(keep=False)])
    twice = [c for c in dict.fromkeys(columns) if c in repeated]
    if twice:
        raise TableError(
            None,
            f"the table has more than one column named {', '.join(map(repr, twice))}; rename them so that "
            "each name is one column",
        )


def _require(table: pd.DataFrame, column: Any, what: str) -> None:
    if column not in table.columns:
        raise TableError(None, f"no column {column!r} for the {what} (the columns are {', '.join(map(repr, table.columns))})")


def _check_budget(n_models: int, n_pairs: int, bootstraps: int, n_resamples: int, max_resamples: int) -> None:
    """Refuse, before any work, a comparison that would draw more resamples in all than ``max_resamples``."""
    total = bootstraps * n_resamples
    if total > max_resamples:
        raise ValueError(
            f"{n_models} models make {n_pairs:,} pairs; this comparison would draw {total:,} bootstrap resamples "
            f"({bootstraps:,} bootstraps x {n_resamples:,} resamples), above the limit of {max_resamples:,} "
            f"(`max_resamples`). Pass max_resamples={total} (--max-resamples {total} on the command line) to run "
            "it anyway, or compare fewer models (`models`, --models) or draw fewer resamples (`n_resamples`, "
            "--n-resamples)"
        )


def _group_codes(table: pd.DataFrame, column: Any) -> np.ndarray | None:
    if column is None:
        return None
    _require(table, column, "groups")
    values = table[column]
    if values.isna().any():
        raise TableError(np.flatnonzero(values.isna().to_numpy()), f"the groups column {column!r} is empty")
    return pd.factorize(values.astype(str))[0]


def _seed_text(rng: RngLike) -> str:
    return f", rng seed {rng}" if isinstance(rng, int | np.integer) and not isinstance(rng, bool) else ""


def _compare_accuracy(correct: dict, groups, level: float, n_resamples: int, gen, seed: str, bar):
    rows = []
    for m, c in correct.items():
        if groups is None:
            ci = proportion_ci(int(c.sum()), c.size, method="wilson", confidence_level=level)
            low, high, method = ci.low, ci.high, "Wilson"
        else:
            boot = bootstrap_ci(c, groups=groups, n_resamples=n_resamples, confidence_level=level, rng=gen,
                                progress=False)
            (low, high), method = boot.confidence_interval, "cluster bootstrap"
            bar.update(1)
        rows.append({"model": m, "n_items": c.size, "accuracy": c.mean(), "ci_low": low, "ci_high": high})
    pairs = []
    for a, b in combinations(correct, 2):
        ca, cb = correct[a], correct[b]
        boot = paired_bootstrap_ci(ca, cb, groups=groups, n_resamples=n_resamples, confidence_level=level, rng=gen,
                                   progress=False)
        if groups is None:
            pvalue = mcnemar(ca, cb).pvalue
        else:
            # Items of a group are not independent: flip the signs of whole groups' differences.
            sums = pd.DataFrame({"a": ca, "b": cb, "g": groups}).groupby("g").sum()
            pvalue = paired_permutation_test(sums.a.to_numpy(), sums.b.to_numpy(), rng=gen).pvalue
        pairs.append({"model_a": a, "model_b": b, "estimate": ca.mean() - cb.mean(),
                      "ci_low": boot.confidence_interval.low, "ci_high": boot.confidence_interval.high,
                      "pvalue": pvalue})
        bar.update(1)
    test = "McNemar (exact)" if groups is None else "sign flips of whole groups (exact or 10,000 draws)"
    note = (f"accuracy intervals: {method}; differences: A minus B, paired "
            f"{'cluster ' if groups is not None else ''}bootstrap percentile interval "
            f"({n_resamples} resamples{seed}); p: {test}, Holm-adjusted over {len(pairs)} pair(s)")
    return pd.DataFrame(rows), pd.DataFrame(pairs), note


def _compare_auc(table, label, models, groups, level: float, n_resamples: int, gen, seed: str, auc_method: str, bar):
    if label is None:
        raise TableError(None, "the AUC needs a label column (0/1) beside the models' scores")
    if groups is not None:
        raise TableError(None, "groups with the AUC are not supported: DeLong's test assumes independent items")
    y = check_numeric_column(table, label)
    if not np.isin(y, (0, 1)).all() or np.unique(y).size < 2:
        raise TableError(None, f"for the AUC the label column {label!r} must hold 0 and 1, both present")
    scores = {}
    for m in models:
        s = check_numeric_column(table, m)
        if np.isnan(s).any():
            raise TableError(np.flatnonzero(np.isnan(s)), f"model column {m!r} is empty")
        if np.isinf(s).any():
            raise TableError(np.flatnonzero(np.isinf(s)), f"model column {m!r} holds an infinite score")
        scores[m] = s
    n_positive = int(y.sum())
    bootstrap = auc_method == "bootstrap"
    rows = []
    for m, s in scores.items():
        interval: BootstrapResult | AUCInterval
        if bootstrap:
            try:  # roc_auc itself: the bootstrap then takes O(n) per resample
                interval = bootstrap_ci((y, s), statistic=roc_auc, n_resamples=n_resamples, confidence_level=level,
                                        rng=gen, progress=False)
            except ValueError as err:
                if not str(err).startswith("`statistic` returned"):
                    raise
                # A resample of one class has no AUC; the user should hear about the labels, not `statistic`.
                one_class = (n_positive / y.size) ** y.size + (1 - n_positive / y.size) ** y.size
                raise TableError(
                    None,
                    f"the label column {label!r} holds {n_positive} positive(s) and {y.size - n_positive} negative(s), "
                    f"too few for a bootstrap of the AUC: a resample of the {y.size} items draws one class only with "
                    f"probability {one_class:.3g}, about {one_class * n_resamples:,.0f} of the {n_resamples:,} "
                    "resamples, and an AUC needs both classes. No interval was computed; use DeLong's interval "
                    "(auc_method='delong', the default; --auc-method delong on the command line) or add items of "
                    "the rarer class",
                ) from None
        else:
            interval = delong_ci(y, s, confidence_level=level)
        rows.append({"model": m, "n_items": y.size, "auc": interval.estimate,
                     "ci_low": interval.confidence_interval.low, "ci_high": interval.confidence_interval.high})
        bar.update(1)
    pairs = []
    for a, b in combinations(scores, 2):
        try:
            res = delong_test(y, scores[a], scores[b], confidence_level=level)
        except ValueError as err:  # a zero standard error between different AUCs: the file's content, named
            raise TableError(None, f"models {a!r} and {b!r}: {err}") from None
        pairs.append({"model_a": a, "model_b": b, "estimate": res.estimate, "ci_low": res.confidence_interval.low,
                      "ci_high": res.confidence_interval.high, "pvalue": res.pvalue})
        bar.update(1)
    if bootstrap:
        intervals = f"bootstrap percentile ({n_resamples} resamples{seed})"
    else:
        intervals = "DeLong's standard error, normal interval clipped to [0, 1]"
    note = (f"AUC intervals: {intervals}; differences: AUC of A minus B with "
            f"DeLong's interval and test, Holm-adjusted over {len(pairs)} pair(s)")
    return pd.DataFrame(rows), pd.DataFrame(pairs), note


def compare_predictions(
    table: pd.DataFrame,
    *,
    label: Any = "label",
    models: list | None = None,
    groups: Any = None,
    metric: Metric = "accuracy",
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    rng: RngLike = None,
    auc_method: AUCMethod = "delong",
    max_resamples: int | None = None,
    progress: bool = True,
) -> PredictionsComparison:
    """Every model's score with its interval, and every pair compared, from a table of predictions.

    With ``metric="accuracy"`` each model's column holds predicted labels,
    compared with the ``label`` column (or 0/1 correctness with
    ``label=None``): each accuracy gets a Wilson interval
    (:func:`~sigeval.intervals.proportion_ci`), each pair the difference A
    minus B with its paired bootstrap percentile interval
    (:func:`~sigeval.resampling.paired_bootstrap_ci`) and McNemar's exact
    test (:func:`~sigeval.paired.mcnemar`). With ``groups`` (a column of
    group labels for correlated items) whole groups are resampled and their
    differences sign-flipped (:func:`~sigeval.permutation.paired_permutation_test`),
    and accuracies get a cluster bootstrap interval. With ``metric="auc"``
    the columns hold scores for the positive class and ``label`` is 0/1:
    DeLong's interval of each AUC (:func:`~sigeval.roc.delong_ci`), or with
    ``auc_method="bootstrap"`` a bootstrap percentile interval
    (:func:`~sigeval.metrics.roc_auc`, O(n) per resample), and DeLong's test
    of each difference (:func:`~sigeval.roc.delong_test`).
    The p-values are Holm-adjusted over all pairs.

    This is what ``sigeval compare`` prints (:mod:`sigeval.cli`).

    Parameters
    ----------
    table : pandas.DataFrame
        One row per test item.
    label : column name or None
        The column of true labels; None when the model columns are 0/1 correctness.
    models : list of column names, optional
        The model columns, at least 2; by default every column but ``label`` and ``groups``.
    groups : column name, optional
        A column of group labels for correlated items.
    metric : {"accuracy", "auc"}
    confidence_level : float
        Level of every interval.
    n_resamples : int
        Bootstrap resamples of every interval.
    rng : numpy.random.Generator, int or None
        Source of the resamples (one generator for the whole table).
    auc_method : {"delong", "bootstrap"}
        How each model's AUC interval is computed (``metric="auc"``): DeLong's
        standard error (the default; one sort per model), or ``n_resamples``
        bootstrap resamples.
    max_resamples : int, optional
        The most bootstrap resamples the comparison may draw in all, counted
        before any work as bootstraps x ``n_resamples`` (a bootstrap per pair,
        and per model with ``groups`` or ``auc_method="bootstrap"``); None (the
        default) sets no limit beyond the memory check of each bootstrap.
        ``sigeval compare`` passes 100,000,000 (``--max-resamples``), so that a
        table of many models does not run for hours unasked.
    progress : bool
        A progress bar over the models and pairs, on a terminal, when the
        work takes more than a couple of seconds (the ``progress`` extra).

    Returns
    -------
    PredictionsComparison

    Raises
    ------
    ValueError
        A missing column, a column name the table holds twice, an empty cell,
        text in a numeric column (an infinite score with the AUC), labels
        that no model predicts, fewer than 2 models, or too few items of a
        class for a bootstrap of the AUC; the message names the column and the
        rows (0-based positions of ``table``). Also ``models`` naming a column
        twice or the label or groups column, ``groups`` equal to ``label``, and
        more resamples in all than ``max_resamples``.
    TypeError
        ``label`` or ``groups`` not a column name, ``models`` not a list of them.

    Notes
    -----
    Explained in :ref:`ch-own-results`.

    Examples
    --------
    >>> import pandas as pd
    >>> from sigeval import compare_predictions
    >>> table = pd.DataFrame({"label": [0, 1, 1, 0, 1, 1, 0, 1],
    ...                       "A": [0, 1, 1, 0, 1, 1, 0, 0], "B": [0, 1, 0, 1, 1, 0, 0, 0]})
    >>> res = compare_predictions(table, n_resamples=1000, rng=0)
    >>> res.per_model[["model", "accuracy"]].to_dict("records")
    [{'model': 'A', 'accuracy': 0.875}, {'model': 'B', 'accuracy': 0.5}]
    >>> res.pairs[["model_a", "model_b", "estimate", "pvalue"]].to_dict("records")
    [{'model_a': 'A', 'model_b': 'B', 'estimate': 0.375, 'pvalue': 0.25}]
    """
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"`table` must be a pandas DataFrame, one row per test item; got {type(table).__name__}.")
    if table.empty:
        raise ValueError("`table` must hold at least one row (test item); got an empty table.")
    metric = check_choice(metric, "metric", ("accuracy", "auc"))
    level = check_unit_interval(confidence_level, "confidence_level")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    seed = _seed_text(rng)
    gen = check_rng(rng)
    if label is not None:
        _require(table, _column_name(label, "label"), "labels")
    if groups is not None:
        _require(table, _column_name(groups, "groups"), "groups")
        if label is not None and groups == label:
            raise ValueError(f"`groups` and `label` must be different columns; both are {label!r}.")
    used = {label, groups} - {None}
    _check_unique_columns(table, [c for c in (label, groups) if c is not None])
    if models is not None:
        models = _model_columns(table, models, used)
    else:
        models = [c for c in dict.fromkeys(table.columns) if c not in used]
    _check_unique_columns(table, models)
    if len(models) < 2:
        raise TableError(None, f"a comparison needs at least 2 model columns; found {models!r}")
    codes = _group_codes(table, groups)
    auc_method = check_choice(auc_method, "auc_method", ("delong", "bootstrap"))
    n_pairs = len(models) * (len(models) - 1) // 2
    if max_resamples is not None:
        bootstraps = (len(models) if auc_method == "bootstrap" else 0) if metric == "auc" else (
            n_pairs + (len(models) if codes is not None else 0))
        _check_budget(len(models), n_pairs, bootstraps, n_resamples, check_positive_int(max_resamples, "max_resamples"))
    steps = n_pairs + (len(models) if metric == "auc" or codes is not None else 0)
    with progress_bar(steps, "compare", enabled=progress, unit="comparison") as bar:
        if metric == "auc":
            per_model, pairs, note = _compare_auc(
                table, label, models, codes, level, n_resamples, gen, seed, auc_method, bar
            )
        else:
            correct = _correctness(table, label, models)
            per_model, pairs, note = _compare_accuracy(correct, codes, level, n_resamples, gen, seed, bar)
    pairs["pvalue_holm"] = adjust_pvalues(pairs.pvalue.to_numpy(), method="holm")
    return PredictionsComparison(
        per_model=per_model, pairs=pairs, note=note, metric=metric, confidence_level=level, n_resamples=n_resamples
    )

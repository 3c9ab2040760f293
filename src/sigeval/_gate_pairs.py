"""The pairs of :func:`~sigeval.gating.gate`: two score vectors matched by label, from arrays or tables.

Private: ``sigeval.gating`` reads runs (task, model, seed, score) and items (long or wide, as ``sigeval
compare`` reads predictions) through it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._labels import correctness
from ._runs_table import read_runs
from ._validation import TableError, check_numeric_column, check_scores_allowing_nan


def pairs(scores_a: Any, scores_b: Any) -> tuple[tuple, np.ndarray, np.ndarray]:
    """Labels and scores of the pairs: two Series matched by label, or two arrays by position."""
    series = isinstance(scores_a, pd.Series), isinstance(scores_b, pd.Series)
    if series[0] != series[1]:
        raise TypeError("`scores_a` and `scores_b` must both be arrays (paired by position) or both pandas Series "
                        f"(paired by label); got {type(scores_a).__name__} and {type(scores_b).__name__}.")
    if not series[0]:
        a = check_scores_allowing_nan(scores_a, "scores_a")
        b = check_scores_allowing_nan(scores_b, "scores_b")
        if a.shape != b.shape:
            raise ValueError(f"`scores_a` and `scores_b` must be paired, with the same length (NaN for a failed "
                             f"run); got {a.size} and {b.size}.")
        return tuple(range(a.size)), a, b
    for s, name in ((scores_a, "scores_a"), (scores_b, "scores_b")):
        repeated = s.index[s.index.duplicated()]
        if len(repeated):
            raise ValueError(f"`{name}` must hold one score per label; labels {list(repeated[:3])!r} repeat.")
    labels = scores_a.index.append(scores_b.index[~scores_b.index.isin(scores_a.index)])
    a = check_scores_allowing_nan(scores_a.reindex(labels).to_numpy(), "scores_a")
    b = check_scores_allowing_nan(scores_b.reindex(labels).to_numpy(), "scores_b")
    return tuple(labels.tolist()), a, b


def model_rows(frame: pd.DataFrame, keys: list[str], model: Any, name: str) -> pd.Series:
    """One model's scores, indexed by its pairs' labels (one row per label)."""
    rows = frame[(frame["model"] == model).to_numpy()]
    if rows.empty:
        models = ", ".join(map(repr, pd.unique(frame["model"])[:10]))
        raise ValueError(f"`{name}` = {model!r} is not in the model column; its models are {models}.")
    index = pd.MultiIndex.from_frame(rows[keys]) if len(keys) > 1 else pd.Index(rows[keys[0]])
    twice = index.duplicated(keep=False)
    if twice.any():
        raise TableError(np.flatnonzero(frame.index.isin(rows.index[twice])),
                         f"model {model!r} has more than one row for {as_written(index[twice][0])!r}")
    return pd.Series(rows["score"].to_numpy(dtype=float), index=index)


def as_written(value: Any) -> Any:
    """A label as the user wrote it (no NumPy repr), tuples element by element."""
    if isinstance(value, tuple):
        return tuple(as_written(v) for v in value)
    return value.item() if isinstance(value, np.generic) else value


def require(frame: pd.DataFrame, columns: tuple[str, ...], what: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise TableError(None, f"{what} needs the column(s) {', '.join(map(repr, missing))}; the table has "
                         f"{', '.join(map(repr, frame.columns))}")


def runs_pairs(table: Any, model_a: Any, model_b: Any) -> tuple[pd.Series, pd.Series]:
    """A table of runs (task, model, seed, score): each model's score by seed, its mean over the tasks."""
    try:
        runs = read_runs(table, {role: role for role in ("task", "model", "seed", "score")})
    except (ValueError, TypeError) as err:  # the checks of Report's table, whose messages name its columns
        raise type(err)(f"`table`: {err}") from None
    tasks = pd.unique(runs["task"])
    out = []
    for model, name in ((model_a, "model_a"), (model_b, "model_b")):
        by_pair = model_rows(runs, ["task", "seed"], model, name)
        grid = by_pair.unstack(level=0).reindex(columns=tasks)  # seeds x tasks; NaN where a run failed or is missing
        out.append(grid.mean(axis=1, skipna=False))  # a seed that failed on any task failed
    return out[0], out[1]


def items_pairs(table: pd.DataFrame, model_a: Any, model_b: Any, label: Any) -> tuple[pd.Series, pd.Series]:
    """Items: long (model, item, score; task optional) or wide (one row per item, a column per model)."""
    if "model" in table.columns:
        require(table, ("item", "score"), "a long table of items (a model column)")
        keys = ["task", "item"] if "task" in table.columns else ["item"]
        frame = pd.DataFrame({c: table[c].to_numpy() for c in ("model", *keys)})
        empty = frame.isna().to_numpy().any(axis=1)
        if empty.any():
            raise TableError(np.flatnonzero(empty), f"the {', '.join(('model', *keys))} columns must not be empty")
        frame["score"] = check_numeric_column(table.reset_index(drop=True), "score")
        return model_rows(frame, keys, model_a, "model_a"), model_rows(frame, keys, model_b, "model_b")
    require(table, (model_a, model_b), "a table of predictions (one column per model)")
    if label is None:
        scores = {m: check_numeric_column(table.reset_index(drop=True), m) for m in (model_a, model_b)}
    else:
        require(table, (label,), "the label")
        scores = correctness(table.reset_index(drop=True), label, [model_a, model_b])
    index = pd.Index(table["item"]) if "item" in table.columns else pd.RangeIndex(len(table))
    return pd.Series(scores[model_a], index=index), pd.Series(scores[model_b], index=index)

"""Score tables of models over tasks (or items) and their within-row ranks.

Private: :mod:`sigeval.ranking` and :mod:`sigeval.rank_uncertainty` read their tables through it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy import stats

from ._validation import _describe, as_array, check_distinct_names, real_array


def score_table(scores: Any, name: str = "scores", unit: str = "task") -> tuple[np.ndarray, tuple]:
    """A (tasks, models) float array without NaN, and the model names.

    The names are the DataFrame's columns, or the column indices 0..k-1.
    """
    models: tuple | None = None
    tasks = None
    if hasattr(scores, "columns") and hasattr(scores, "to_numpy"):
        models = check_distinct_names(scores.columns, f"`{name}`", "model")
        tasks = list(scores.index)
        scores = scores.to_numpy()
    try:
        arr = real_array(scores, name)
    except TypeError:
        raise TypeError(f"`{name}` must hold numbers; got {_describe(as_array(scores, name))}.") from None
    if arr.ndim != 2:
        raise ValueError(
            f"`{name}` must be a two-dimensional ({unit}s, models) table; got shape {arr.shape}."
        )
    n, k = arr.shape
    if k < 2:
        raise ValueError(f"`{name}` must hold at least 2 models (columns); got {k}.")
    if n < 2:
        raise ValueError(f"`{name}` must hold at least 2 {unit}s (rows); got {n}.")
    bad = ~np.isfinite(arr)
    if np.any(bad):
        rows, cols = np.nonzero(bad)
        names = models if models is not None else tuple(range(k))
        where = ", ".join(
            f"({unit} {tasks[r] if tasks is not None else int(r)!r}, model {names[c]!r})"
            for r, c in zip(rows[:3], cols[:3])
        )
        more = "" if rows.size <= 3 else f", ... ({rows.size} cells)"
        raise ValueError(
            f"`{name}` holds {rows.size} NaN or infinite score(s) (a failed run?) at {where}{more}; "
            f"a rank needs every model scored on every {unit}: rerun, or drop the "
            f"{unit} or the model explicitly."
        )
    return arr, models if models is not None else tuple(range(k))


def within_ranks(table: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Rank of every model on every task: 1 is the best, ties averaged."""
    return stats.rankdata(-table if higher_is_better else table, axis=1)

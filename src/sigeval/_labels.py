"""Predicted labels against true labels: 0/1 correctness per item, as the tables of predictions hold them.

Private: :func:`~sigeval.predictions.compare_predictions` and :func:`~sigeval.gate.gate_table`
read a table of predictions (one row per item, a label column, one column per model) the same way.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from ._validation import TableError, check_numeric_column


def cell_text(value: Any) -> str:
    """A cell as the user wrote it: text quoted, numbers plain (no NumPy repr)."""
    return repr(value) if isinstance(value, str) else str(value.item() if isinstance(value, np.generic) else value)



def correctness(table: pd.DataFrame, label: Any, models: list) -> dict[Any, np.ndarray]:
    """Per model, 0/1 correctness per item: predictions against the label, or given as 0/1."""
    for m in models:
        missing = table[m].isna().to_numpy()
        if missing.any():
            raise TableError(
                np.flatnonzero(missing),
                f"model column {m!r} is empty; every model must be scored on every item "
                "(the models would be compared on different numbers of items)",
            )
    if label is None:
        out = {}
        for m in models:
            values = check_numeric_column(table, m)
            bad = ~np.isin(values, (0, 1))
            if bad.any():
                raise TableError(
                    np.flatnonzero(bad)[:1],
                    f"without a label column, model column {m!r} must hold 0/1 correctness; "
                    f"it holds {cell_text(table[m][bad].iloc[0])}",
                )
            out[m] = values
        return out
    truth = table[label]
    missing = truth.isna().to_numpy()
    if missing.any():
        raise TableError(np.flatnonzero(missing), f"the label column {label!r} is empty")

    # Compared as text, so that 1, 1.0 and "1" from different columns agree: a cell holding a whole
    # number below 2**53 in magnitude is written as that integer, any other cell as its text (1e19 and
    # 2e19 must not both wrap around to the same int64). The bound is strict: a larger integer cell may
    # have been rounded on its way to float64 (2**53 + 1 becomes 2**53), while every float64 below
    # 2**53 is the cell's exact value.
    def as_text(column: pd.Series) -> pd.Series:
        text = column.astype(str).to_numpy(dtype=object)
        numeric = pd.to_numeric(column.astype(np.int64) if column.dtype == bool else column, errors="coerce")
        if numeric.dtype.kind in "iuf":  # complex numbers stay text
            values = numeric.to_numpy(dtype=float, na_value=np.nan)
            with np.errstate(invalid="ignore"):
                whole = np.isfinite(values) & (values == np.round(values)) & (np.abs(values) < 2**53)
            text[whole] = values[whole].astype(np.int64).astype(str)
        return pd.Series(text, index=column.index)

    truth_text = as_text(truth)
    predicted = {m: as_text(table[m]) for m in models}
    seen = set().union(*(set(p) for p in predicted.values()))
    if not seen & set(truth_text):
        raise TableError(
            None,
            f"the label column {label!r} holds values ({', '.join(sorted(set(truth_text))[:5])}) that no "
            f"model predicts (the models predict {', '.join(sorted(seen)[:5])}); are labels and predictions "
            "encoded alike? For 0/1 correctness columns, pass label=None (--label none on the command line)",
        )
    return {m: (predicted[m] == truth_text).to_numpy(dtype=float) for m in models}

"""Reading a long table of runs for :class:`~sigeval.report.Report`: checks and pairing.

The table's rows become, per task, a (seeds, models) array of scores with NaN
for every failed, missing or duplicated run, and a list of those runs with the
reason. Vectorised over rows: the cost grows with the table, not with the
number of tasks times the table.
"""

from __future__ import annotations

import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ._paired_t import Summaries, fill
from ._validation import MAX_COUNT, check_distinct_names, check_memory

ROLES = ("task", "model", "seed", "score")
#: Memory a report's views need per comparison, and per seed of a comparison (bytes, measured; see comparisons).
COMPARISON_BYTES, SEED_BYTES = 500, 40
# Sums and differences of scores below this stay finite in float64 for any
# realistic number of runs; larger scores are refused rather than overflowed.
SCORE_LIMIT = 1e300


def show_runs(runs: pd.DataFrame, limit: int = 10) -> str:
    """``(task 't', model 'm', seed s): reason; ...`` for the first ``limit`` runs."""
    shown = "; ".join(
        f"(task {t!r}, model {m!r}, seed {s!r}): {r}"
        for t, m, s, r in runs[["task", "model", "seed", "reason"]].head(limit).itertuples(index=False)
    )
    return shown + (f"; ... ({len(runs)} in all)" if len(runs) > limit else "")


def _frame(table: Any) -> pd.DataFrame:
    if isinstance(table, pd.DataFrame):
        return table
    if table is None or isinstance(table, str | bytes | numbers.Number):
        raise TypeError(
            "`table` must be a pandas DataFrame, or what pandas.DataFrame accepts (a dict of columns, "
            f"a list of records); got {type(table).__name__}. To read a file, pass pandas.read_csv(path)."
        )
    try:
        return pd.DataFrame(table)
    except (ValueError, TypeError) as err:
        raise TypeError(f"`table` could not be read as a table of runs: {err}") from None


def _column(frame: pd.DataFrame, name: Any, role: str) -> pd.Series:
    try:
        hash(name)
    except TypeError:
        raise TypeError(f"`{role}` must be a column name; got {name!r}.") from None
    if name not in frame.columns:
        raise ValueError(
            f"`{role}` names column {name!r}, which the table does not have; its columns are {list(frame.columns)!r}."
        )
    column = frame.loc[:, name]
    if isinstance(column, pd.DataFrame) and isinstance(frame.columns, pd.MultiIndex):
        raise ValueError(
            f"`{role}` names column {name!r}, but the table has a header of {frame.columns.nlevels} rows (a "
            f"MultiIndex), under which {name!r} heads {column.shape[1]} column(s): {list(column.columns)!r}. "
            "Name one column by its full tuple, or flatten the header first "
            "(table.columns = ['_'.join(map(str, c)) for c in table.columns])."
        )
    if isinstance(column, pd.DataFrame):
        raise ValueError(f"`{role}` names column {name!r}, which the table has {column.shape[1]} times.")
    return column


def _where(keys: pd.DataFrame, mask: np.ndarray, limit: int = 5) -> str:
    rows = keys[mask].head(limit)
    shown = "; ".join(f"(task {t!r}, model {m!r}, seed {s!r})" for t, m, s in rows.itertuples(index=False))
    return shown + (f"; ... ({int(mask.sum())} rows)" if mask.sum() > limit else "")


def _scores(raw: pd.Series, keys: pd.DataFrame) -> np.ndarray:
    """The score column as float: numbers only, NaN (a failed run) allowed, nothing else."""
    dtype = raw.dtype
    if pd.api.types.is_bool_dtype(dtype):
        raise TypeError("The score column must hold numbers; it holds booleans.")
    if pd.api.types.is_complex_dtype(dtype):
        raise TypeError("The score column must hold real numbers; it holds complex numbers.")
    if not (pd.api.types.is_numeric_dtype(dtype) or pd.api.types.is_object_dtype(dtype)
            or pd.api.types.is_string_dtype(dtype)):
        raise TypeError(f"The score column must hold numbers; it holds {dtype}.")
    if pd.api.types.is_object_dtype(dtype):
        kinds = raw.map(lambda v: isinstance(v, bool | np.bool_ | complex | np.complexfloating)).to_numpy(bool)
        if kinds.any():
            raise TypeError(
                f"The score column must hold real numbers; {int(kinds.sum())} row(s) hold booleans or complex "
                f"numbers: {_where(keys, kinds)}."
            )
    if pd.api.types.is_integer_dtype(dtype):
        _check_exact(raw.to_numpy(), keys)
    values = pd.to_numeric(raw, errors="coerce").to_numpy(dtype=float, na_value=np.nan)
    text = np.isnan(values) & raw.notna().to_numpy()
    if text.any():
        first = raw[text].iloc[0]
        raise TypeError(
            f"The score column must hold numbers; {int(text.sum())} row(s) do not, the first {first!r}: "
            f"{_where(keys, text)}."
        )
    huge = np.abs(values) >= SCORE_LIMIT
    if huge.any():
        raise ValueError(
            f"Scores must be finite and smaller than {SCORE_LIMIT:g} in magnitude (NaN marks a failed run), so that "
            f"their sums and differences stay finite; rescale them. Too large at {_where(keys, huge)}."
        )
    return values


def _check_exact(values: np.ndarray, keys: pd.DataFrame) -> None:
    """Refuse integer scores beyond 2**53 that float64 would round (2**62 + 1 becomes 2**62)."""
    big = (values > MAX_COUNT) | (values < -MAX_COUNT)
    if not big.any():
        return
    with np.errstate(invalid="ignore"):  # 2**63 and beyond do not cast back: rounded too
        rounded = big & (values.astype(float).astype(values.dtype) != values)
    if rounded.any():
        first = int(values[rounded][0])
        raise ValueError(
            f"The score column holds whole numbers that float64 cannot represent exactly (beyond 2**53): {first} "
            f"would become {int(float(first))}, and differences between such scores would be lost. Subtract a "
            f"common offset first (for example the smallest score). At {_where(keys, rounded)}."
        )


def read_runs(table: Any, columns: dict[str, Any]) -> pd.DataFrame:
    """The runs as a DataFrame with columns task, model, seed, score (and error, if given)."""
    frame = _frame(table)
    selected = {role: _column(frame, columns[role], role) for role in ROLES}
    if len({columns[role] for role in ROLES}) < 4:
        raise ValueError(f"The task, model, seed and score columns must be four different columns; got {columns!r}.")
    runs = pd.DataFrame({role: column.to_numpy() for role, column in selected.items()})
    if "error" in frame.columns and "error" not in {columns[role] for role in ROLES}:
        runs["error"] = _column(frame, "error", "error").to_numpy()
    if len(runs) == 0:
        raise ValueError("`table` must hold at least one run; it is empty.")
    keys = runs[["task", "model", "seed"]]
    missing = keys.isna().to_numpy().any(axis=1)
    if missing.any():
        raise ValueError(
            f"The task, model and seed columns must not be empty; {int(missing.sum())} row(s) have a missing key "
            f"(the first is row {int(np.argmax(missing))} of the table)."
        )
    for role in ("task", "model", "seed"):
        try:
            pd.unique(runs[role])
        except TypeError:
            bad = runs[role].map(lambda v: not isinstance(v, numbers.Number | str | bytes | tuple)).to_numpy(bool)
            raise TypeError(
                f"The {role} column must hold labels (text or numbers); row {int(np.argmax(bad))} holds "
                f"{runs[role].iloc[int(np.argmax(bad))]!r}."
            ) from None
    for role in ("task", "model", "seed"):
        _refuse_bool_and_numbers(runs[role], role)
        check_distinct_names(pd.unique(runs[role]), f"The {role} column", role)
    runs["score"] = _scores(runs["score"], keys)
    return runs


def _refuse_bool_and_numbers(labels: pd.Series, role: str) -> None:
    """Refuse a key column mixing booleans and numbers: pandas would merge True with 1 and False with 0."""
    if not pd.api.types.is_object_dtype(labels.dtype):
        return
    is_bool = labels.map(lambda v: isinstance(v, bool | np.bool_)).to_numpy(bool)
    is_number = labels.map(lambda v: isinstance(v, numbers.Number)).to_numpy(bool) & ~is_bool
    if is_bool.any() and is_number.any():
        first_bool, first_number = int(np.argmax(is_bool)), int(np.argmax(is_number))
        raise TypeError(
            f"The {role} column mixes booleans and numbers (row {first_bool} holds {labels.iloc[first_bool]!r}, "
            f"row {first_number} holds {labels.iloc[first_number]!r}); as labels True equals 1 and False equals 0, "
            f"so they would be merged into one {role}. Use numbers only (or text)."
        )


def pair_runs(runs: pd.DataFrame) -> tuple[tuple, tuple, dict, dict, pd.DataFrame]:
    """Tasks, models, per-task (seeds, models) score grids, per-task seeds, and the failed runs.

    Seeds are paired within a task; a task's seeds are those any of its models
    ran, in order of first appearance.
    """
    task_code, tasks = pd.factorize(runs["task"])
    model_code, models = pd.factorize(runs["model"])
    tasks, models = tuple(tasks), tuple(models)
    k = len(models)
    # One row per (task, seed), grouped by task and in order of first appearance within it.
    pair = pd.DataFrame({"t": task_code, "s": runs["seed"].to_numpy()})
    pair_code, pairs = pd.factorize(pd.MultiIndex.from_frame(pair))
    pair_task = np.asarray(pairs.get_level_values(0))
    order = np.argsort(pair_task, kind="stable")
    position = np.empty_like(order)
    position[order] = np.arange(order.size)
    row = position[pair_code]
    counts = np.zeros((len(pairs), k), dtype=np.int64)
    np.add.at(counts, (row, model_code), 1)
    grid = np.full((len(pairs), k), np.nan)
    single = counts[row, model_code] == 1
    grid[row[single], model_code[single]] = runs["score"].to_numpy()[single]

    bounds = np.searchsorted(pair_task[order], np.arange(len(tasks) + 1))
    seed_labels = np.asarray(pairs.get_level_values(1), dtype=object)[order]
    scores, seeds = {}, {}
    for i, t in enumerate(tasks):
        start, stop = bounds[i], bounds[i + 1]
        absent = [models[j] for j in np.flatnonzero(counts[start:stop].sum(axis=0) == 0)]
        if absent:
            raise ValueError(
                f"Task {t!r} has no run of model(s) {absent!r}: every model must run on every task "
                "(drop the task or the model from the table explicitly)."
            )
        if stop - start < 2:
            raise ValueError(
                f"Task {t!r} has {stop - start} seed ({list(seed_labels[start:stop])!r}); a paired comparison needs "
                "at least 2 seeds per task."
            )
        scores[t] = grid[start:stop]
        seeds[t] = tuple(seed_labels[start:stop])
    return tasks, models, scores, seeds, _failures(runs, tasks, models, counts, row, model_code, bounds, seed_labels)


def _failures(runs, tasks, models, counts, row, model_code, bounds, seed_labels) -> pd.DataFrame:
    """Every duplicated, NaN-scored or missing run, in the order of the tasks and seeds."""
    duplicated = counts > 1
    nan_score = np.zeros_like(duplicated)
    single = counts[row, model_code] == 1
    failed_rows = single & np.isnan(runs["score"].to_numpy())
    nan_score[row[failed_rows], model_code[failed_rows]] = True
    reasons = np.full(counts.shape, None, dtype=object)
    reasons[counts == 0] = "missing (other models ran this seed)"
    reasons[duplicated] = "duplicated row"
    reasons[nan_score] = "score is NaN"
    if "error" in runs.columns:
        why = runs["error"].to_numpy()
        explained = failed_rows & pd.notna(why)
        reasons[row[explained], model_code[explained]] = np.array([f"failed: {w}" for w in why[explained]], dtype=object)
    r, m = np.nonzero(reasons != None)  # noqa: E711 (an element-wise comparison)
    task_of = np.searchsorted(bounds, r, side="right") - 1
    return pd.DataFrame({
        "task": [tasks[i] for i in task_of],
        "model": [models[j] for j in m],
        "seed": [seed_labels[i] for i in r],
        "reason": reasons[r, m].tolist(),
    }, columns=["task", "model", "seed", "reason"])


@dataclass(frozen=True)
class Comparisons:
    """Every (task, A, B) comparison of a report at once, in the report's order.

    Row ``r`` is task ``task[r]`` (an index into the tasks), models ``a[r] < b[r]``
    (indices into the models): tasks in order, and within a task the pairs
    ``(0, 1), (0, 2), ..., (1, 2), ...``. ``pairs`` summarises the differences
    A - B over the seeds on which both ran (:class:`~sigeval._paired_t.Summaries`,
    the arithmetic of the per-comparison functions, row by row).
    """

    task: np.ndarray
    a: np.ndarray
    b: np.ndarray
    pairs: Summaries


def comparisons(tasks: tuple, models: tuple, scores: dict) -> Comparisons:
    """:class:`Comparisons` from the per-task (seeds, models) score grids of :func:`pair_runs`.

    Vectorised over comparisons and seeds: the Python loops run over the distinct
    numbers of seeds per task and of pairs per comparison, a handful at most.
    """
    k = len(models)
    per_task = k * (k - 1) // 2
    total = len(tasks) * per_task
    seeds_of = np.array([scores[t].shape[0] for t in tasks])
    # Measured with tracemalloc (every view, 5 to 20 seeds): about 150-480 bytes per comparison and 39 per
    # seed of it, for the pairs' scores, their differences and the views' frames.
    check_memory(
        total * (COMPARISON_BYTES + SEED_BYTES * float(seeds_of.max())), "table",
        f"{k:,} models on {len(tasks):,} task(s)", f"every comparison of the report ({total:,} pairs of models)",
        itemsize=1,
        advice="Compare fewer models at a time (for example the leading ones, or one family of models), "
               "or fewer tasks.",
    )
    first, second = np.triu_indices(k, 1)
    out = Comparisons(task=np.repeat(np.arange(len(tasks)), per_task), a=np.tile(first, len(tasks)),
                      b=np.tile(second, len(tasks)), pairs=Summaries.empty(total))
    for n_seeds in np.unique(seeds_of):
        which = np.flatnonzero(seeds_of == n_seeds)
        grid = np.stack([scores[tasks[t]] for t in which])  # (tasks, seeds, models)
        # (tasks, pairs, seeds) as rows of seeds, one row per comparison.
        a = np.ascontiguousarray(grid[:, :, first].transpose(0, 2, 1)).reshape(-1, n_seeds)
        b = np.ascontiguousarray(grid[:, :, second].transpose(0, 2, 1)).reshape(-1, n_seeds)
        rows = (which[:, None] * per_task + np.arange(per_task)).ravel()
        both = ~np.isnan(a) & ~np.isnan(b)
        count = both.sum(axis=1)
        out.pairs.n[rows] = count
        if count.min() == n_seeds:
            fill(out.pairs, rows, a, b)
            continue
        for c in np.unique(count[count >= 2]):
            sel = np.flatnonzero(count == c)
            # The seeds both ran, in their order: a stable sort puts them first.
            keep = np.argsort(~both[sel], axis=1, kind="stable")[:, :c]
            fill(out.pairs, rows[sel], np.take_along_axis(a[sel], keep, axis=1),
                 np.take_along_axis(b[sel], keep, axis=1))
    return out

"""Input checks of the figures and the course's apparatus: axes, results to draw, seeds, executors, tables.

Private, as :mod:`sigeval._validation` (whose general checks these build on); ``sigeval.plots`` and
``sigeval.course`` call them.
"""

from __future__ import annotations

import numbers
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import ArrayLike

from ._validation import _show, check_finite_array, check_positive_int, check_sizes


def check_seeds(seeds: int | Iterable[int], name: str = "seeds") -> tuple[int, ...]:
    """One seed or several: non-negative whole numbers (what numpy seeds with), at least one."""
    if isinstance(seeds, numbers.Integral):
        values: tuple = (seeds,)
    elif isinstance(seeds, str | bytes) or not isinstance(seeds, Iterable):
        raise TypeError(f"`{name}` must be an integer seed or an iterable of them; got {seeds!r}.")
    else:
        values = tuple(seeds)
    if not values:
        raise ValueError(f"`{name}` must hold at least one seed; got none.")
    for value in values:
        if isinstance(value, bool) or not isinstance(value, numbers.Integral):
            raise TypeError(f"`{name}` must hold integer seeds; got {value!r}.")
        if value < 0:
            raise ValueError(f"`{name}` must hold non-negative integer seeds; got {value!r}.")
    return tuple(int(v) for v in values)


def check_distinct_positive_ints(values: Iterable[int], name: str) -> tuple[int, ...]:
    """A non-empty sequence of distinct whole numbers >= 1 (network widths, for instance)."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"`{name}` must be a sequence of integers >= 1; got {values!r}.")
    out = tuple(check_positive_int(v, name) for v in values)
    if not out:
        raise ValueError(f"`{name}` must hold at least one value; got none.")
    if len(set(out)) != len(out):
        raise ValueError(f"`{name}` must not repeat a value; got {list(out)}.")
    return out


def check_sizes_at_least(n: ArrayLike, name: str, minimum: int) -> np.ndarray:
    """Whole numbers (an int64 array), each at least ``minimum``."""
    arr = check_sizes(n, name)
    if np.any(arr < minimum):
        raise ValueError(f"`{name}` must be at least {minimum}; got {_show(arr[arr < minimum])}.")
    return arr


def check_executor(executor: object, name: str = "executor") -> None:
    """None or an object with ``submit`` (a ``concurrent.futures.Executor``)."""
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(
            f"`{name}` must be a concurrent.futures.Executor (or None); got {type(executor).__name__}."
        )


def check_sequence(values: Iterable, name: str, length: int, of: str) -> list:
    """A sequence with one entry per ``of`` (``length`` of them): labels, colours, verdicts."""
    if isinstance(values, str | bytes) or not isinstance(values, Iterable):
        raise TypeError(f"`{name}` must be a sequence with one entry per {of}; got {values!r}.")
    out = list(values)
    if len(out) != length:
        raise ValueError(f"`{name}` must have one entry per {of} ({length}); got {len(out)}.")
    return out


def check_mapping(x: object, name: str, what: str, *, allow_empty: bool = False) -> Mapping:
    """A mapping (a dict from a name to ``what``), non-empty unless ``allow_empty``."""
    if not isinstance(x, Mapping):
        raise TypeError(f"`{name}` must be a dict from a name to {what}; got {type(x).__name__}.")
    if not x and not allow_empty:
        raise ValueError(f"`{name}` must hold at least one entry; got an empty {type(x).__name__}.")
    return x


def check_given_together(**arguments: object) -> None:
    """Optional arguments that only make sense together: all given or all None."""
    given = [name for name, value in arguments.items() if value is not None]
    if given and len(given) != len(arguments):
        missing = [name for name in arguments if name not in given]
        raise ValueError(
            f"{', '.join(f'`{n}`' for n in arguments)} must be given together; "
            f"got {', '.join(f'`{n}`' for n in given)} without {', '.join(f'`{n}`' for n in missing)}."
        )


def check_axes(ax: object, name: str = "ax") -> None:
    """A Matplotlib Axes to draw on (checked by what a plot calls, so the core needs no Matplotlib)."""
    if not all(callable(getattr(ax, method, None)) for method in ("plot", "text", "get_window_extent")):
        raise TypeError(
            f"`{name}` must be a Matplotlib Axes to draw on (e.g. from plt.subplots()); got {type(ax).__name__}."
        )


def check_result(result: object, name: str, kind: str, attributes: tuple[str, ...]) -> tuple:
    """The fields ``attributes`` of a result object of the kind ``kind``, in that order."""
    try:
        return tuple(getattr(result, a) for a in attributes)
    except AttributeError:
        fields = ", ".join(f"`{a}`" for a in attributes)
        raise TypeError(f"`{name}` must be a {kind} (with {fields}); got {type(result).__name__}.") from None


def check_interval_rows(x: ArrayLike, name: str, k: int) -> np.ndarray:
    """Intervals as a finite ``(k, 2)`` float array of (low, high) rows with low <= high."""
    arr = check_finite_array(x, name)
    if arr.shape != (k, 2):
        raise ValueError(f"`{name}` must have shape ({k}, 2), one (low, high) row per estimate; got {arr.shape}.")
    reversed_rows = np.flatnonzero(arr[:, 0] > arr[:, 1])
    if reversed_rows.size:
        raise ValueError(f"`{name}` must have low <= high in every row; not in row(s) {_show(reversed_rows)}.")
    return arr


def check_same_shape(x: np.ndarray, name: str, shape: tuple[int, ...], of: str) -> np.ndarray:
    """An array that must have the shape of another argument, ``of``."""
    if x.shape != shape:
        raise ValueError(f"`{name}` must have the shape of `{of}` {shape}; got {x.shape}.")
    return x


def check_positive_array(x: ArrayLike, name: str, *, allow_zero: bool = False) -> np.ndarray:
    """A non-empty finite float array of positive numbers (or non-negative, with ``allow_zero``)."""
    arr = check_finite_array(x, name)
    bad = arr < 0 if allow_zero else arr <= 0
    if np.any(bad):
        raise ValueError(f"`{name}` must be {'non-negative' if allow_zero else 'positive'}; got {_show(arr[bad])}.")
    return arr


def check_binary_matrix(x: ArrayLike, name: str) -> np.ndarray:
    """A non-empty 2-D boolean array from booleans or 0/1 numbers (models x items, say)."""
    arr = np.asarray(x)
    if arr.dtype != bool:
        arr = check_finite_array(arr, name)
        bad = (arr != 0) & (arr != 1)
        if np.any(bad):
            raise ValueError(f"`{name}` must be binary correctness (0/1 or bool); got {_show(arr[bad])}.")
    if arr.ndim != 2 or arr.size == 0:
        raise ValueError(f"`{name}` must be a non-empty 2-D array (models x items); got shape {arr.shape}.")
    return arr.astype(bool)


def check_table(table: object, name: str) -> np.ndarray:
    """A non-empty pandas DataFrame of finite numbers; returns its values as a 2-D float array."""
    if not (hasattr(table, "index") and hasattr(table, "columns")):
        raise TypeError(f"`{name}` must be a pandas DataFrame of numbers; got {type(table).__name__}.")
    values = np.asarray(table)
    if values.ndim != 2 or 0 in values.shape:
        raise ValueError(f"`{name}` must have at least one row and one column; got shape {values.shape}.")
    return check_finite_array(values, name)


def check_columns(table: object, name: str, columns: Iterable[str]) -> None:
    """A pandas DataFrame that has every one of ``columns``."""
    present = getattr(table, "columns", None)
    if present is None:
        raise TypeError(f"`{name}` must be a pandas DataFrame; got {type(table).__name__}.")
    missing = [c for c in columns if c not in present]
    if missing:
        raise ValueError(f"`{name}` has no column(s) {missing}; its columns are {list(present)}.")

"""Input checks shared by the public functions.

Each helper returns the normalised value or raises an error that names the
argument in backticks, says what was expected and shows what was given.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Iterable, Mapping

import numpy as np
from numpy.typing import ArrayLike

RngLike = np.random.Generator | int | None


def check_unit_interval(value: float, name: str) -> float:
    """A probability-like level strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number in (0, 1); got {value!r}.")
    value = float(value)
    if not 0.0 < value < 1.0:
        raise ValueError(f"`{name}` must be strictly between 0 and 1; got {value!r}.")
    return value


def check_counts(k: ArrayLike, n: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """Successes ``k`` and trials ``n`` as broadcast int64 arrays with 0 <= k <= n, n >= 1."""
    k_arr = _integer_array(k, "k")
    n_arr = check_sizes(n)
    if np.any(k_arr < 0):
        raise ValueError(f"`k` must be non-negative; got {_show(k_arr[k_arr < 0])}.")
    try:
        k_arr, n_arr = np.broadcast_arrays(k_arr, n_arr)
    except ValueError:
        raise ValueError(
            f"`k` and `n` must broadcast to a common shape; got shapes {k_arr.shape} and {n_arr.shape}."
        ) from None
    bad = k_arr > n_arr
    if np.any(bad):
        raise ValueError(
            f"`k` must not exceed `n`; got k={_show(k_arr[bad])} with n={_show(n_arr[bad])}."
        )
    return k_arr, n_arr


def check_sizes(n: ArrayLike, name: str = "n") -> np.ndarray:
    """Sample sizes as an int64 array, each at least 1."""
    arr = _integer_array(n, name)
    if np.any(arr < 1):
        raise ValueError(f"`{name}` must be at least 1; got {_show(arr[arr < 1])}.")
    return arr


def check_probability(p: ArrayLike, name: str = "p") -> np.ndarray:
    """An array of probabilities in [0, 1] (no NaN)."""
    arr = np.asarray(p, dtype=float)
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    bad = ~((arr >= 0) & (arr <= 1))
    if np.any(bad):
        raise ValueError(f"`{name}` must lie in [0, 1]; got {_show(arr[bad])}.")
    return arr


def check_choice(value: str, name: str, valid: tuple[str, ...]) -> str:
    """One of a fixed set of option strings, compared case-insensitively."""
    if not isinstance(value, str) or value.lower() not in valid:
        raise ValueError(f"`{name}` must be one of {', '.join(map(repr, valid))}; got {value!r}.")
    return value.lower()


def _integer_array(x: ArrayLike, name: str) -> np.ndarray:
    arr = np.asarray(x)
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise TypeError(f"`{name}` must hold integer counts; got dtype {arr.dtype}.")
    if np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if np.any(bad):
            raise ValueError(f"`{name}` must hold whole numbers; got {_show(arr[bad])}.")
    return arr.astype(np.int64)


def _show(values: np.ndarray, limit: int = 3) -> str:
    """The first few offending values, for an error message."""
    flat = np.ravel(values)
    shown = ", ".join(repr(v.item()) for v in flat[:limit])
    return shown if flat.size <= limit else f"{shown}, ... ({flat.size} values)"


def scalar_or_array(x: np.ndarray) -> float | np.ndarray:
    """Plain Python floats for 0-d results so they print without the NumPy wrapper."""
    return float(x) if np.ndim(x) == 0 else x


def check_rng(rng: RngLike) -> np.random.Generator:
    """A Generator from a Generator, an integer seed or None (fresh OS entropy)."""
    if isinstance(rng, np.random.Generator):
        return rng
    if rng is None or (isinstance(rng, numbers.Integral) and not isinstance(rng, bool)):
        return np.random.default_rng(rng)
    raise TypeError(
        f"`rng` must be a numpy.random.Generator, an integer seed or None; got {type(rng).__name__}."
    )


def check_positive_int(value: int, name: str, minimum: int = 1) -> int:
    """A whole number no smaller than ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer >= {minimum}; got {value!r}.")
    if value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def check_scores(x: ArrayLike, name: str, *, min_size: int = 1) -> np.ndarray:
    """A 1-D float array of finite scores with at least ``min_size`` entries.

    NaN marks a failed run or item; it is refused here with its positions so
    that it is never silently averaged away.
    """
    arr = np.asarray(x)
    if arr.dtype == object or not (
        np.issubdtype(arr.dtype, np.number) or arr.dtype == bool
    ):
        raise TypeError(f"`{name}` must hold numbers; got dtype {arr.dtype}.")
    arr = arr.astype(float)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional; got shape {arr.shape}.")
    if arr.size < min_size:
        raise ValueError(f"`{name}` must hold at least {min_size} value(s); got {arr.size}.")
    bad = ~np.isfinite(arr)
    if np.any(bad):
        where = np.flatnonzero(bad)
        raise ValueError(
            f"`{name}` holds {where.size} NaN or infinite value(s) (a failed run or item?) "
            f"at position(s) {_show(where)}; remove or handle them explicitly."
        )
    return arr


def check_paired(
    a: ArrayLike, b: ArrayLike, names: tuple[str, str], *, min_size: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Two score arrays measured on the same items (or seeds), in the same order."""
    a_arr = check_scores(a, names[0], min_size=min_size)
    b_arr = check_scores(b, names[1], min_size=min_size)
    if a_arr.shape != b_arr.shape:
        raise ValueError(
            f"`{names[0]}` and `{names[1]}` must be paired, with the same length; "
            f"got {a_arr.size} and {b_arr.size}."
        )
    return a_arr, b_arr


def check_binary(x: ArrayLike, name: str) -> np.ndarray:
    """A 1-D boolean correctness vector from booleans or 0/1 numbers."""
    arr = check_scores(x, name)
    bad = (arr != 0) & (arr != 1)
    if np.any(bad):
        raise ValueError(
            f"`{name}` must be binary correctness (0/1 or bool); got {_show(arr[bad])}."
        )
    return arr.astype(bool)


def check_real(value: float, name: str) -> float:
    """A finite real scalar."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number; got {value!r}.")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"`{name}` must be finite; got {value!r}.")
    return value


def check_positive_real(value: float, name: str) -> float:
    value = check_real(value, name)
    if value <= 0:
        raise ValueError(f"`{name}` must be positive; got {value!r}.")
    return value


def check_finite_array(x: ArrayLike, name: str) -> np.ndarray:
    """A non-empty float array of finite numbers, any shape (for vectorized inputs)."""
    arr = np.asarray(x)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"`{name}` must hold real numbers; got dtype {arr.dtype}.")
    arr = arr.astype(float)
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise ValueError(f"`{name}` must be finite; got {_show(arr[bad])}.")
    return arr


def check_scores_allowing_nan(x: ArrayLike, name: str) -> np.ndarray:
    """A 1-D float array in which NaN (a failed run) is kept for the caller to handle."""
    arr = np.asarray(x)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"`{name}` must hold numbers; got dtype {arr.dtype}.")
    arr = arr.astype(float)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional; got shape {arr.shape}.")
    infinite = np.flatnonzero(np.isinf(arr))
    if infinite.size:
        raise ValueError(
            f"`{name}` holds infinite value(s) at position(s) {_show(infinite)}; "
            "a score must be finite (use NaN to mark a failed run)."
        )
    return arr


def check_accuracies(x: ArrayLike, name: str) -> np.ndarray:
    arr = check_scores(x, name, min_size=2)
    bad = (arr < 0) | (arr > 1)
    if np.any(bad):
        raise ValueError(f"`{name}` must hold accuracies in [0, 1]; got {_show(arr[bad])}.")
    return arr


def check_alpha_tost(alpha: float) -> float:
    alpha = check_unit_interval(alpha, "alpha")
    if alpha >= 0.5:
        raise ValueError(
            "`alpha` must be below 0.5 for TOST (its interval has level 1 - 2 alpha); "
            f"got {alpha!r}."
        )
    return alpha


def check_batched(x: np.ndarray, name: str) -> None:
    if x.ndim < 2:
        raise ValueError(
            f"`{name}` must have a leading resample axis, shape (batch, n_items, ...); "
            f"got shape {x.shape}. To evaluate the data itself, pass `x[None]`."
        )


def check_item_axis(axis: int) -> None:
    """The item axis of a batched metric: 1 (arrays are ``(batch, n_items, ...)``)."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral) or axis != 1:
        raise ValueError(
            f"`axis` must be 1, the item axis of arrays of shape (batch, n_items, ...); got {axis!r}."
        )


# --------------------------------------------------------------------------- figures and the course apparatus


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


def check_choices(values: Iterable[str], name: str, valid: tuple[str, ...]) -> tuple[str, ...]:
    """A non-empty sequence of option strings, each one of ``valid`` (lower-cased)."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise TypeError(f"`{name}` must be a sequence of strings among {', '.join(map(repr, valid))}; got {values!r}.")
    out = tuple(check_choice(v, name, valid) for v in values)
    if not out:
        raise ValueError(f"`{name}` must hold at least one of {', '.join(map(repr, valid))}; got none.")
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


def check_result(result: object, name: str, kind: str, attributes: tuple[str, ...]) -> tuple:
    """The fields ``attributes`` of a result object of the kind ``kind``, in that order."""
    try:
        return tuple(getattr(result, a) for a in attributes)
    except AttributeError:
        fields = ", ".join(f"`{a}`" for a in attributes)
        raise TypeError(f"`{name}` must be a {kind} (with {fields}); got {type(result).__name__}.") from None


def check_interval(bounds: ArrayLike, name: str) -> tuple[float, float]:
    """One interval: a finite (low, high) pair, or a ``ConfidenceInterval``, with low <= high."""
    arr = check_finite_array(bounds, name).ravel()
    if arr.size != 2:
        raise ValueError(f"`{name}` must be one (low, high) pair; got {arr.size} value(s).")
    low, high = float(arr[0]), float(arr[1])
    if low > high:
        raise ValueError(f"`{name}` must have low <= high; got ({low!r}, {high!r}).")
    return low, high


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

"""Input checks shared by the public functions.

Each helper returns the normalised value or raises an error that names the
argument in backticks, says what was expected and shows what was given.
"""

from __future__ import annotations

import math
import numbers
import re
from collections.abc import Iterable
from typing import Any, TypeVar, cast

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import stable_mean_sd

RngLike = np.random.Generator | int | None
# An option of a Literal type: check_choice returns it with the caller's type.
Option = TypeVar("Option", bound=str)

# Counts enter float arithmetic (k / n, binomial distributions), which holds
# every whole number up to 2**53 exactly; larger counts would be rounded.
MAX_COUNT = 2**53
# The largest array an argument may make a function allocate. Beyond it the
# request is refused up front, naming the argument, rather than dying in
# numpy's MemoryError after trying to allocate it.
MEMORY_LIMIT = 2**32  # bytes (4 GiB)
# Spread below this fraction of the data's scale is rounding error: the sd of
# a constant float array is often ~1e-17 because its mean rounds, and a
# difference a - b carries an error of about eps * max(|a|, |b|).
ZERO_SPREAD_RTOL = 64 * np.finfo(float).eps


def check_unit_interval(value: float, name: str) -> float:
    """A probability-like level strictly between 0 and 1."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number in (0, 1); got {value!r}.")
    value = float(value)
    if not 0.0 < value < 1.0:
        raise ValueError(f"`{name}` must be strictly between 0 and 1; got {value!r}.")
    return value


#: The smallest level ``alpha`` takes, in every function and view: the quantiles of the tests at smaller levels
#: reach the limits of float64 (the studentized range's is infinite below about 1e-16, a t interval's bounds
#: overflow near 1e-300), and no evaluation decides at a one-in-a-trillion error rate.
SMALLEST_ALPHA = 1e-12


def check_alpha(alpha: float, name: str = "alpha") -> float:
    """A decision level: strictly between 0 and 1 and at least :data:`SMALLEST_ALPHA` (the one rule for ``alpha``)."""
    alpha = check_unit_interval(alpha, name)
    if alpha < SMALLEST_ALPHA:
        raise ValueError(f"`{name}` must be at least {SMALLEST_ALPHA:g}; got {alpha!r}.")
    return alpha


def check_counts(
    k: ArrayLike, n: ArrayLike, names: tuple[str, str] = ("k", "n")
) -> tuple[np.ndarray, np.ndarray]:
    """Successes ``k`` and trials ``n`` as broadcast int64 arrays with 0 <= k <= n, n >= 1."""
    k_name, n_name = names
    k_arr = _integer_array(k, k_name)
    n_arr = check_sizes(n, n_name)
    if np.any(k_arr < 0):
        raise ValueError(f"`{k_name}` must be non-negative; got {_show(k_arr[k_arr < 0])}.")
    k_arr, n_arr = check_broadcast((k_arr, n_arr), names)
    bad = k_arr > n_arr
    if np.any(bad):
        raise ValueError(
            f"`{k_name}` must not exceed `{n_name}`; got {k_name}={_show(k_arr[bad])} "
            f"with {n_name}={_show(n_arr[bad])}."
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
    arr = real_array(p, name)
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    bad = ~((arr >= 0) & (arr <= 1))
    if np.any(bad):
        raise ValueError(f"`{name}` must lie in [0, 1]; got {_show(arr[bad])}.")
    return arr


def check_flag(value: bool, name: str) -> bool:
    """A flag: True or False (NumPy's bool too), nothing else."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be True or False; got {value!r}.")
    return bool(value)


def check_choice(value: Option, name: str, valid: tuple[str, ...]) -> Option:
    """One of a fixed set of option strings, compared case-insensitively (returned lower-case)."""
    if not isinstance(value, str) or value.lower() not in valid:
        raise ValueError(f"`{name}` must be one of {', '.join(map(repr, valid))}; got {value!r}.")
    return cast(Option, value.lower())


def _integer_array(x: ArrayLike, name: str) -> np.ndarray:
    """Whole numbers as int64, refusing text, booleans and counts beyond :data:`MAX_COUNT`."""
    arr = as_array(x, name)
    if arr.dtype == object and arr.size and all(
        isinstance(v, numbers.Integral) and not isinstance(v, bool) for v in arr.flat
    ):
        # Python ints too large for int64 arrive as an object array.
        huge = [v for v in arr.flat if abs(v) > MAX_COUNT]
        if huge:
            raise ValueError(_too_large(name, huge))
        arr = arr.astype(np.int64)
    if arr.dtype == object:  # floats such as 3.0 among them: judged as whole numbers below
        arr = _unbox(arr, name, allow_bool=False)
    if arr.dtype == bool or not (
        np.issubdtype(arr.dtype, np.integer) or np.issubdtype(arr.dtype, np.floating)
    ):
        raise TypeError(
            f"`{name}` must hold integer counts; got {_describe(arr)}."
        )
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    if np.issubdtype(arr.dtype, np.floating):
        bad = ~np.isfinite(arr) | (arr != np.round(arr))
        if np.any(bad):
            raise ValueError(f"`{name}` must hold whole numbers; got {_show(arr[bad])}.")
    # Compared before the cast: uint64 and large floats would wrap around in int64.
    big = (arr > MAX_COUNT) | (arr < -MAX_COUNT)
    if np.any(big):
        raise ValueError(_too_large(name, arr[big].tolist()))
    return arr.astype(np.int64)


def _too_large(name: str, values: list) -> str:
    shown = ", ".join(repr(int(v)) for v in values[:3])
    return (
        f"`{name}` must be at most 2**53 = {MAX_COUNT:,} in absolute value (counts are "
        f"computed in float64, exact up to there); got {shown}."
    )


def _describe(arr: np.ndarray) -> str:
    """What a refused array holds, for a TypeError: the text itself, or its type."""
    if arr.dtype.kind in "US":
        return f"text {_show(arr)}"
    if arr.dtype.kind == "c":
        return f"complex values {_show(arr)}"
    if arr.dtype == object:
        kinds = sorted({type(v).__name__ for v in arr.flat})
        return f"values of type {', '.join(kinds) or 'object'}"
    return f"dtype {arr.dtype}"


def as_array(x: ArrayLike, name: str) -> np.ndarray:
    """``np.asarray``, with an error naming the argument for None and ragged lists."""
    if x is None:
        raise TypeError(f"`{name}` must be given as numbers; got None.")
    try:
        return np.asarray(x)
    except ValueError:
        raise ValueError(
            f"`{name}` must be a rectangular array (every row of the same length); "
            f"got a ragged {type(x).__name__}."
        ) from None


def real_array(x: ArrayLike, name: str, *, allow_bool: bool = False) -> np.ndarray:
    """A float array from real numbers (booleans if allowed), any shape, NaN kept.

    Text and complex numbers are refused rather than converted: ``"0.5"``
    would parse, and a complex value would lose its imaginary part.
    """
    arr = _unbox(as_array(x, name), name, allow_bool=allow_bool)
    kinds = "iuf" + ("b" if allow_bool else "")
    if arr.dtype.kind not in kinds:
        raise TypeError(f"`{name}` must hold real numbers; got {_describe(arr)}.")
    return _exact_float(arr, name)


def _unbox(arr: np.ndarray, name: str, *, allow_bool: bool) -> np.ndarray:
    """An object array of real numbers as a numeric array; the first other element refused by its type.

    Object arrays arrive from pandas columns of mixed origin and from lists of
    Python ints too large for int64; whole numbers go through :func:`_exact_float`.
    """
    if arr.dtype != object or arr.size == 0:
        return arr
    flat = arr.ravel()
    for position, value in enumerate(flat):
        is_bool = isinstance(value, bool | np.bool_)
        if (is_bool and not allow_bool) or not (is_bool or isinstance(value, numbers.Real)):
            where = tuple(int(i) for i in np.unravel_index(position, arr.shape)) if arr.ndim > 1 else position
            raise TypeError(
                f"`{name}` must hold real numbers; element {where} is {value!r} of type {type(value).__name__}."
            )
    if all(isinstance(v, numbers.Integral) and not isinstance(v, bool | np.bool_) for v in flat):
        return _exact_float(arr, name)
    return arr.astype(float)


def _exact_float(arr: np.ndarray, name: str) -> np.ndarray:
    """``arr`` as float64, refusing whole numbers beyond 2**53 that float64 would round.

    Two scores 2**62 and 2**62 + 1 become the same float: their difference,
    and the spread of a sample of them, would silently become 0.
    """
    if arr.dtype == object:  # Python ints (only they reach here as objects)
        rounded = [int(v) for v in arr.ravel() if abs(int(v)) > MAX_COUNT and int(float(v)) != int(v)]
    elif arr.dtype.kind in "iu":
        big = arr[(arr > MAX_COUNT) | (arr < -MAX_COUNT)]
        with np.errstate(invalid="ignore"):  # 2**63 and beyond do not cast back: rounded too
            rounded = big[big.astype(float).astype(arr.dtype) != big].tolist()
    else:
        rounded = []
    if rounded:
        raise ValueError(
            f"`{name}` holds whole numbers that float64 cannot represent exactly (beyond 2**53 = "
            f"{MAX_COUNT:,}): {rounded[0]} would become {int(float(rounded[0]))}, so differences between "
            "such scores would be lost. Subtract a common offset first (for example the smallest score), "
            "or convert them to float yourself if the rounding is acceptable."
        )
    return arr.astype(float)


def check_distinct_names(names: Any, where: str, what: str) -> tuple:
    """Names of models (or tasks, seeds) as a tuple, refusing repeats and names that print alike.

    Two columns named ``'a'``, or the labels ``1`` and ``'1'``, would give two
    rows of a table that no reader can tell apart.
    """
    names = tuple(names)
    seen: dict[str, Any] = {}
    for label in names:
        shown = str(label)
        if shown in seen:
            other = seen[shown]
            alike = "twice" if type(other) is type(label) and other == label else f"as {other!r} and {label!r}"
            raise ValueError(
                f"{where} names the {what} {shown!r} {alike}; every {what} needs a name of its own "
                "(two that print alike could not be told apart in a table)."
            )
        seen[shown] = label
    return names


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
    if rng is None:
        return np.random.default_rng()
    if isinstance(rng, numbers.Integral) and not isinstance(rng, bool):
        if rng < 0:
            raise ValueError(f"`rng` must be a non-negative integer seed; got {rng!r}.")
        return np.random.default_rng(int(rng))
    raise TypeError(
        f"`rng` must be a numpy.random.Generator, an integer seed or None; got {type(rng).__name__}."
    )


def check_positive_int(value: int, name: str, minimum: int = 1) -> int:
    """A whole number no smaller than ``minimum``."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError(f"`{name}` must be an integer >= {minimum}; got {value!r}.")
    if value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}; got {int(value)!r}.")  # np.int64(0) as 0
    return int(value)


#: The most decimals a table prints: beyond them a float64 shows only its binary rounding.
MAX_PRECISION = 30


def check_precision(value: int) -> int:
    """Decimals to print, 0 to :data:`MAX_PRECISION`."""
    value = check_positive_int(value, "precision", minimum=0)
    if value > MAX_PRECISION:
        raise ValueError(
            f"`precision` must be at most {MAX_PRECISION} decimals (a float64 holds about 17 significant digits; "
            f"more only print its binary rounding); got {value!r}."
        )
    return value


def check_scores(x: ArrayLike, name: str, *, min_size: int = 1) -> np.ndarray:
    """A 1-D float array of finite scores with at least ``min_size`` entries.

    NaN marks a failed run or item; it is refused here with its positions so
    that it is never silently averaged away.
    """
    arr = _score_vector(x, name)
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


def _score_vector(x: ArrayLike, name: str) -> np.ndarray:
    arr = _unbox(as_array(x, name), name, allow_bool=True)
    if arr.dtype.kind not in "iufb":
        raise TypeError(f"`{name}` must hold numbers; got {_describe(arr)}.")
    arr = _exact_float(arr, name)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional; got shape {arr.shape}.")
    return arr


def check_paired(
    a: ArrayLike, b: ArrayLike, names: tuple[str, str], *, min_size: int = 1
) -> tuple[np.ndarray, np.ndarray]:
    """Two score arrays measured on the same items (or seeds), in the same order."""
    a_arr = check_scores(a, names[0], min_size=min_size)
    b_arr = check_scores(b, names[1], min_size=min_size)
    return check_same_length(a_arr, b_arr, names)


def check_same_length(a: np.ndarray, b: np.ndarray, names: tuple[str, str]) -> tuple[np.ndarray, np.ndarray]:
    """Two checked 1-D arrays of paired values: the same length, or an error naming both."""
    if a.shape != b.shape:
        raise ValueError(
            f"`{names[0]}` and `{names[1]}` must be paired, with the same length; got {a.size} and {b.size}."
        )
    return a, b


def check_score_matrix(scores: ArrayLike, name: str = "scores", *, min_runs: int = 1) -> np.ndarray:
    """A finite runs x tasks float matrix with at least ``min_runs`` runs and one task."""
    x = real_array(scores, name, allow_bool=True)
    if x.ndim != 2 or x.shape[1] == 0:
        raise ValueError(
            f"`{name}` must be a runs x tasks matrix (2-D, one column per task); got shape {x.shape}."
        )
    if x.shape[0] < min_runs:
        raise ValueError(f"`{name}` must hold at least {min_runs} run(s) (rows) per task; got {x.shape[0]}.")
    bad = np.argwhere(~np.isfinite(x))
    if bad.size:
        where = ", ".join(f"(run {r}, task {t})" for r, t in bad[:3])
        more = f", ... ({len(bad)} cells)" if len(bad) > 3 else ""
        raise ValueError(
            f"`{name}` holds NaN or infinite score(s) (a failed run?) at {where}{more}; "
            "remove or handle them explicitly."
        )
    return x


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
    arr = real_array(x, name)
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise ValueError(f"`{name}` must be finite; got {_show(arr[bad])}.")
    return arr


def check_scores_allowing_nan(x: ArrayLike, name: str) -> np.ndarray:
    """A 1-D float array in which NaN (a failed run) is kept for the caller to handle."""
    arr = _score_vector(x, name)
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
    alpha = check_alpha(alpha)
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
            f"got shape {x.shape}. To evaluate one test set, call with axis=0 (the default)."
        )


def check_items(x: np.ndarray, name: str) -> None:
    """An array of one test set (``axis=0``): at least one dimension, the items on the first."""
    if x.ndim == 0:
        raise ValueError(
            f"`{name}` must hold one value per item, shape (n_items, ...) with axis=0; got a scalar, "
            f"{_show(x)}."
        )


def check_no_padding(x: np.ndarray, name: str) -> None:
    """NaN of one test set (``axis=0``): a failed item, refused; it pads only the resamples of ``axis=1``."""
    missing = np.isnan(x)
    if np.any(missing):
        raise ValueError(
            f"`{name}` holds NaN at position(s) {_show(np.argwhere(missing)[:, 0])} (a failed item?); with "
            "axis=0 (one test set) NaN is never dropped silently: it pads only the resamples of axis=1."
        )


def group_codes(groups: ArrayLike, n_items: int, unit: str = "item") -> np.ndarray:
    """One code per item, 0 .. n_groups - 1, for ``groups``' labels in sorted order.

    Labels are compared as given: ``1`` and ``"1"`` are refused together
    rather than merged, as NumPy would merge them by turning a list of both
    into text.
    """
    labels = as_array(groups, "groups")
    if labels.ndim != 1 or labels.shape[0] != n_items:
        raise ValueError(f"`groups` must hold one label per {unit}, {n_items} in all; got shape {labels.shape}.")
    if labels.dtype.kind in "US" and not isinstance(groups, np.ndarray):  # perhaps mixed labels made text
        labels = np.empty(n_items, dtype=object)
        labels[:] = list(cast(Iterable, groups))  # a sequence of n_items labels (checked above)
    missing = missing_labels(labels)
    if np.any(missing):
        raise ValueError(
            f"`groups` holds NaN labels (missing: NaN or None) at position(s) {_show(np.flatnonzero(missing))}; "
            f"every {unit} needs its group."
        )
    kinds = sorted({type(v).__name__ for v in labels}) if labels.dtype == object else []
    try:
        if labels.dtype == object and any(isinstance(v, str) for v in labels) and len(kinds) > 1:
            raise TypeError  # text beside numbers: 1 and "1" would print alike
        return np.unique(labels, return_inverse=True)[1].ravel()
    except TypeError:  # labels that cannot be sorted together, such as 1 and "a"
        raise TypeError(
            "`groups` labels must be comparable with each other (all numbers or all strings: 1 and \"1\" "
            "would print alike); "
            f"got labels of types {', '.join(kinds)}."
        ) from None


def missing_labels(labels: np.ndarray) -> np.ndarray:
    """Where an array of labels is missing: NaN, or in an object array None, NaN, NaT or ``pandas.NA``."""
    if labels.dtype.kind in "fc":
        return np.isnan(labels)
    if labels.dtype == object:
        return np.frompyfunc(_is_missing, 1, 1)(labels).astype(bool)
    return np.zeros(labels.shape, dtype=bool)


def _is_missing(value: object) -> bool:
    if value is None:
        return True
    try:
        return bool(value != value)  # NaN and NaT differ from themselves
    except (TypeError, ValueError):  # pandas.NA: "boolean value of NA is ambiguous"
        return True


def check_item_axis(axis: int) -> int:
    """The item axis of a metric: 0 for one test set ``(n_items, ...)``, 1 for ``(batch, n_items, ...)``."""
    if isinstance(axis, bool) or not isinstance(axis, numbers.Integral):
        raise TypeError(f"`axis` must be the integer 0 or 1, the item axis; got {axis!r}.")
    if axis not in (0, 1):
        raise ValueError(
            "`axis` must be 0 (one test set, items on the first axis) or 1 (a batch of "
            f"resamples, arrays of shape (batch, n_items, ...)); got {axis!r}."
        )
    return int(axis)


def check_broadcast(arrays: tuple[np.ndarray, ...], names: tuple[str, ...]) -> tuple[np.ndarray, ...]:
    """Writable copies of ``arrays`` broadcast to one shape, or an error naming them."""
    try:
        return tuple(np.array(x) for x in np.broadcast_arrays(*arrays))
    except ValueError:
        listed = listing([f"`{n}`" for n in dict.fromkeys(names)])
        shapes = listing([str(np.shape(x)) for x in arrays])
        raise ValueError(f"{listed} must broadcast to a common shape; got shapes {shapes}.") from None


def listing(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def check_memory(
    n_elements: float, name: str, value: object, what: str, itemsize: int = 8, *, advice: str | None = None
) -> None:
    """Refuse up front a request whose arrays would exceed :data:`MEMORY_LIMIT`.

    ``name`` and ``value`` say what makes the arrays large (an argument, or the
    size of the data), ``advice`` what to do instead of the default "Choose a
    smaller `name`".
    """
    need = float(n_elements) * itemsize
    if need > MEMORY_LIMIT:
        raise ValueError(
            f"`{name}` = {value if isinstance(value, str) else repr(value)} would need {_bytes(need)} of memory "
            f"for {what}; "
            f"the limit is {_bytes(MEMORY_LIMIT)}. {advice or f'Choose a smaller `{name}`.'}"
        )


def _bytes(size: float) -> str:
    """A byte count in binary units, e.g. ``'745.1 GiB'``."""
    exponent = min(max(int(math.log(max(size, 1.0), 1024)), 0), 5)
    return f"{size / 1024**exponent:,.1f} {('bytes', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB')[exponent]}"


def check_difference(a: np.ndarray, b: np.ndarray, names: tuple[str, str]) -> np.ndarray:
    """``a - b``, refused if a difference overflows float64 (scores near 1.8e308)."""
    with np.errstate(over="ignore", invalid="ignore"):
        d = a - b
    bad = ~np.isfinite(d)
    if np.any(bad):
        where = np.flatnonzero(bad)
        raise ValueError(
            f"The differences `{names[0]} - {names[1]}` overflow float64 at position(s) "
            f"{_show(where)} (|difference| > 1.8e308); rescale the scores (e.g. divide both by "
            "the same power of ten) before comparing them."
        )
    return d


def check_spread(d: np.ndarray, what: str, scale: float | None = None) -> tuple[float, float]:
    """Mean and sample sd (``ddof=1``) of ``d``, refusing zero spread.

    The spread counts as zero when the sd is at most :data:`ZERO_SPREAD_RTOL`
    times ``scale``, the magnitude of the data the values were computed from
    (by default ``max |d|``): below that it is rounding error, and a t
    statistic built on it would be astronomically large for constant data.
    """
    mean, sd = stable_mean_sd(d)
    if not has_spread(sd, d, scale):
        exactly = bool(np.all(d == d[0]))
        raise ValueError(
            f"The {what} have zero spread (all equal to {float(d[0])!r}"
            f"{'' if exactly else ' up to rounding error'}): a t-based test needs "
            "variation between repetitions. Identical values often mean the runs were not "
            "independent repetitions (e.g. the same checkpoint evaluated again)."
        )
    return mean, sd


def has_spread(sd: float, x: np.ndarray, scale: float | None = None) -> bool:
    """Whether the sd of ``x`` exceeds rounding error relative to ``scale`` (default ``max |x|``)."""
    if scale is None:
        scale = float(np.max(np.abs(x)))
    return bool(sd > ZERO_SPREAD_RTOL * scale)


# --------------------------------------------------------------------------- tables


class TableError(ValueError):
    """A problem in some rows of a table, or in the table as a whole.

    ``rows`` are the 0-based positions at fault (None for the whole table)
    and ``detail`` says what is wrong; the message joins them. The command
    line turns the positions into the line numbers of the user's file.
    """

    def __init__(self, rows: np.ndarray | None, detail: str) -> None:
        self.rows = None if rows is None else np.asarray(rows, dtype=np.int64)
        self.detail = detail
        super().__init__(detail if self.rows is None else f"{row_list(self.rows)}: {detail}")


def row_list(rows: np.ndarray, offset: int = 0, word: str = "row", limit: int = 5) -> str:
    """``row 3`` or ``rows 3, 7, 9 and 2 more``: positions shifted by ``offset``."""
    shown = ", ".join(str(int(r) + offset) for r in rows[:limit])
    more = f" and {rows.size - limit} more" if rows.size > limit else ""
    return f"{word}{'s' if rows.size > 1 else ''} {shown}{more}"


def check_numeric_column(table: Any, column: Any) -> np.ndarray:
    """A DataFrame column as floats (empty cells NaN), or a :class:`TableError` naming the first text cell."""
    import pandas as pd

    raw = table[column]
    values = pd.to_numeric(raw, errors="coerce")
    text = values.isna().to_numpy() & ~raw.isna().to_numpy()
    if text.any():
        first = raw[text].iloc[0]
        shown = repr(first) if isinstance(first, str) else str(first)
        comma = isinstance(first, str) and re.fullmatch(r"\s*[-+]?\d*,\d+\s*", first)
        hint = f" (a decimal comma? write {first.strip().replace(',', '.')})" if comma else ""
        raise TableError(np.flatnonzero(text)[:1], f"column {column!r} holds {shown}, not a number{hint}")
    if np.iscomplexobj(values.to_numpy()):  # a float of a complex number drops its imaginary part without a word
        first = np.flatnonzero(values.to_numpy() != values.to_numpy().real)[:1]
        shown = str(raw.iloc[first[0]]) if first.size else str(raw.iloc[0])
        raise TableError(first if first.size else np.array([0]),
                         f"column {column!r} holds complex numbers ({shown}), not real scores")
    return values.to_numpy(dtype=float)


# --------------------------------------------------------------------------- shared with the figures


def check_choices(values: Iterable[Option], name: str, valid: tuple[str, ...]) -> tuple[Option, ...]:
    """A non-empty sequence of option strings, each one of ``valid`` (lower-cased)."""
    if isinstance(values, str) or not isinstance(values, Iterable):
        raise TypeError(f"`{name}` must be a sequence of strings among {', '.join(map(repr, valid))}; got {values!r}.")
    out = tuple(check_choice(v, name, valid) for v in values)
    if not out:
        raise ValueError(f"`{name}` must hold at least one of {', '.join(map(repr, valid))}; got none.")
    return out


def check_interval(bounds: ArrayLike, name: str) -> tuple[float, float]:
    """One interval: a finite (low, high) pair, or a ``ConfidenceInterval``, with low <= high."""
    arr = check_finite_array(bounds, name).ravel()
    if arr.size != 2:
        raise ValueError(f"`{name}` must be one (low, high) pair; got {arr.size} value(s).")
    low, high = float(arr[0]), float(arr[1])
    if low > high:
        raise ValueError(f"`{name}` must have low <= high; got ({low!r}, {high!r}).")
    return low, high



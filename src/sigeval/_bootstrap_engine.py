"""The bootstrap engine: resamples of items, values or groups, and the percentile, basic and BCa intervals.

Private: :mod:`sigeval.resampling` and :mod:`sigeval.counts` are its front doors.
A statistic engine (:class:`MeanStatistic` for means, :class:`CallableStatistic`
for any vectorised callable) knows its estimate, draws its bootstrap
distribution in chunks of bounded memory and gives its jackknife;
:func:`run_bootstrap` turns it into a :class:`~sigeval.BootstrapResult`.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable

import numpy as np
from scipy import special

from ._numeric import check_finite_result, safe_scale, stable_mean_sd
from ._options import BOOTSTRAP_METHODS
from ._progress import progress_bar
from ._results import BootstrapResult, ConfidenceInterval
from ._validation import (
    check_choice,
    check_memory,
    check_positive_int,
    check_rng,
    check_unit_interval,
    group_codes,
)

#: The axis of the items in the arrays a callable statistic receives.
ITEM_AXIS = 1
# At most this many array elements are materialised per chunk of resamples
# (32 MB of float64), whatever the number of items and of resamples.
_CHUNK_ELEMENTS = 4_000_000
# The multinomial fast path draws one count per distinct value and resample,
# at about 30 times the cost of drawing one item index: it pays when the
# values are few (at most 256) and repeat often (n >= 32 per distinct value).
_MAX_DISTINCT = 256
_MIN_REPEATS = 32


def check_bootstrap_options(statistic, n_resamples, method, confidence_level, rng):
    if isinstance(statistic, str):
        if statistic.lower() != "mean":
            raise ValueError(f"`statistic` must be 'mean' or a callable; got {statistic!r}.")
        statistic = "mean"
    elif not callable(statistic):
        raise TypeError(
            f"`statistic` must be 'mean' or a callable; got {type(statistic).__name__}."
        )
    # Two resamples at least: a standard deviation and two quantiles need them.
    n_resamples = check_positive_int(n_resamples, "n_resamples", minimum=2)
    check_memory(n_resamples, "n_resamples", n_resamples, "the bootstrap distribution")
    method = check_choice(method, "method", BOOTSTRAP_METHODS)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    return statistic, n_resamples, method, confidence_level, check_rng(rng)


class Units:
    """What a resample draws: items, or groups of items laid out as padded rows."""

    def __init__(self, groups, n_items: int):
        if groups is None:
            self.inverse = self.layout = None
            self.count, self.width = n_items, 1
            return
        inverse = group_codes(groups, n_items)
        sizes = np.bincount(inverse)
        order = np.argsort(inverse, kind="stable")
        slot = np.arange(n_items) - (np.cumsum(sizes) - sizes)[inverse[order]]
        # Row g lists group g's items in their original order; index n_items
        # points at the NaN padding row appended to every data array.
        layout = np.full((sizes.size, sizes.max()), n_items)
        layout[inverse[order], slot] = order
        self.inverse, self.layout = inverse, layout
        self.count, self.width = sizes.size, sizes.max()

    def slots(self, unit_idx: np.ndarray) -> np.ndarray:
        """Item indices (rows of a resample) for rows of unit indices."""
        if self.layout is None:
            return unit_idx
        return self.layout[unit_idx].reshape(len(unit_idx), -1)

    def pad(self, arr: np.ndarray) -> np.ndarray:
        if self.layout is None:
            return arr
        return np.concatenate([arr, np.full((1,) + arr.shape[1:], np.nan)])


def _no_tick(rows: int) -> None:
    """The default progress callback of the engines: nothing."""


def chunks(total: int, per_row: int):
    """(start, rows) blocks of at most ``_CHUNK_ELEMENTS`` materialised elements."""
    rows = max(1, _CHUNK_ELEMENTS // max(per_row, 1))
    for start in range(0, total, rows):
        yield start, min(rows, total - start)


# Every resample of the library is drawn by one of the three functions below: the units of each resample as
# indices, how often each unit is drawn counted from those indices, or those counts drawn at once from the
# multinomial. The last two have the same distribution but are different streams of the generator: each
# caller keeps the one it has always drawn, so that a seed gives the numbers it gave (chapters and tests).


def resample_indices(rng: np.random.Generator, n_units: int, rows: int) -> np.ndarray:
    """The units of ``rows`` resamples of ``n_units`` units drawn with replacement, shape ``(rows, n_units)``."""
    return rng.integers(0, n_units, size=(rows, n_units))


def counts_by_index(rng: np.random.Generator, n_units: int, rows: int) -> np.ndarray:
    """How often each unit is drawn in each of ``rows`` resamples, counted from :func:`resample_indices`."""
    flat = (resample_indices(rng, n_units, rows) + n_units * np.arange(rows)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_units).reshape(rows, n_units)


def counts_by_multinomial(rng: np.random.Generator, n_units: int, shape: int | tuple[int, ...]) -> np.ndarray:
    """How often each of ``n_units`` units is drawn in a resample of ``n_units`` with replacement, one
    multinomial vector per entry of ``shape``: shape ``shape + (n_units,)`` (a stratified bootstrap passes
    ``(n_resamples, n_strata)``)."""
    return rng.multinomial(n_units, np.full(n_units, 1 / n_units), size=shape)


class MeanStatistic:
    """The mean of a score vector, from value counts or group sums rather than items.

    Built from per-item scores (:meth:`of_items`), or from what the mean
    depends on alone: the counts of the distinct values (:meth:`of_counts`) or
    each group's sum and size (:meth:`of_groups`). The three give the same
    resamples from the same generator wherever they describe the same data.
    """

    def __init__(self, *, n: int, scale: float, bounds: tuple[float, float], x=None,
                 values=None, counts=None, sums=None, sizes=None):
        self.n, self.scale, self.range = n, scale, bounds
        self.x, self.values, self.counts, self.sums, self.sizes = x, values, counts, sums, sizes
        self.grouped = sums is not None
        self.by_counts = not self.grouped and (
            values.size <= _MAX_DISTINCT and _MIN_REPEATS * values.size <= n
        )
        if not self.grouped and not self.by_counts and x is None:
            # Too few items for the multinomial path: the items themselves, in sorted order.
            self.x = np.repeat(values, counts)

    @classmethod
    def of_items(cls, x: np.ndarray, units: Units) -> MeanStatistic:
        # Means are taken of x divided by a power of two and multiplied back,
        # so that sums of scores near 1.8e308 do not overflow (exact, and 1
        # for scores of ordinary size).
        scale = safe_scale(x)
        bounds = float(x.min()), float(x.max())
        x = x / scale
        if units.inverse is not None:
            return cls(n=x.size, scale=scale, bounds=bounds, x=x,
                       sums=np.bincount(units.inverse, weights=x),
                       sizes=np.bincount(units.inverse).astype(float))
        values, counts = np.unique(x, return_counts=True)
        return cls(n=x.size, scale=scale, bounds=bounds, x=x, values=values, counts=counts)

    @classmethod
    def of_counts(cls, values: np.ndarray, counts: np.ndarray) -> MeanStatistic:
        """Distinct values in increasing order, each with its (positive) count."""
        return cls(n=int(counts.sum()), scale=1.0, bounds=(float(values[0]), float(values[-1])),
                   values=values, counts=counts)

    @classmethod
    def of_groups(cls, sums: np.ndarray, sizes: np.ndarray, bounds: tuple[float, float]) -> MeanStatistic:
        return cls(n=int(sizes.sum()), scale=1.0, bounds=bounds, sums=sums, sizes=sizes.astype(float))

    # The estimate goes through the same arithmetic as the resamples, so a
    # resample equal to the data gives exactly the estimate (it matters for ties in BCa).
    def estimate(self) -> float:
        if self.grouped:
            mean = self._group_means(np.ones((1, self.sums.size)))[0]
        elif self.by_counts:
            mean = self._count_means(self.counts[None])[0]
        else:
            mean = self.x[None].mean(axis=1)[0]
        return float(np.clip(mean * self.scale, *self.range))

    def resample(self, n_resamples: int, rng: np.random.Generator, tick: Callable[[int], object] = _no_tick) -> np.ndarray:
        # A mean lies between the smallest and the largest score; rounding can
        # put the mean of n equal values a hair outside (0.1 * 5 / 5).
        return np.clip(self._resample(n_resamples, rng, tick) * self.scale, *self.range)

    def _resample(self, n_resamples: int, rng: np.random.Generator, tick: Callable[[int], object]) -> np.ndarray:
        out = np.empty(n_resamples)
        n = self.n
        if self.grouped:
            g = self.sums.size
            for start, rows in chunks(n_resamples, 4 * g):
                out[start : start + rows] = self._group_means(counts_by_index(rng, g, rows))
                tick(rows)
        elif self.by_counts:
            freqs = self.counts / n
            for start, rows in chunks(n_resamples, self.values.size):
                counts = rng.multinomial(n, freqs, size=rows)
                out[start : start + rows] = self._count_means(counts)
                tick(rows)
        else:
            for start, rows in chunks(n_resamples, 2 * n):
                out[start : start + rows] = self.x[resample_indices(rng, n, rows)].mean(axis=1)
                tick(rows)
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-out means in closed form, with how many items (groups) give each."""
        if self.grouped:
            loo = (self.sums.sum() - self.sums) / (self.sizes.sum() - self.sizes)
            return loo * self.scale, np.ones_like(loo)
        loo = (self.counts @ self.values - self.values) / (self.n - 1)
        return loo * self.scale, self.counts.astype(float)

    # Row sums rather than BLAS products: a row's rounding then does not depend
    # on how many rows share its chunk, so results do not depend on chunking.
    def _count_means(self, counts: np.ndarray) -> np.ndarray:
        return (counts * self.values).sum(axis=1) / self.n

    def _group_means(self, multiplicity: np.ndarray) -> np.ndarray:
        return (multiplicity * self.sums).sum(axis=1) / (multiplicity * self.sizes).sum(axis=1)


class AUCStatistic:
    r"""The AUC (:func:`~sigeval.metrics.roc_auc`) on resamples of items, in O(n) per resample.

    Each model's scores are sorted once: for each positive item :math:`p`,
    :math:`c^<_p` and :math:`c^\le_p` count the negatives scored below it and
    below or level with it. A resample is the number of times it drew each item,
    :math:`w` (one ``bincount`` of its indices); with :math:`W(c)` the draws of
    the :math:`c` lowest-scored negatives (a cumulative sum), its Mann-Whitney
    count is

    .. math:: 2U = \sum_p w_p \bigl(W(c^<_p) + W(c^\le_p)\bigr),

    ties with a negative counting one half, and the AUC is :math:`U / (m n)`
    with :math:`m`, :math:`n` the positives and negatives drawn. The counts are
    integers, so :math:`U` is exact and equals the midrank sum of
    :func:`~sigeval.metrics.roc_auc` on the materialised resample: the same
    indices give the same AUCs, bit for bit. With two models (``scores`` of
    length 2) it is the paired difference A - B on the same resamples. The
    jackknife is closed-form too.
    """

    def __init__(self, labels: np.ndarray, scores: tuple[np.ndarray, ...], reference: CallableStatistic):
        self.reference = reference  # the generic engine, for the estimate and its checks
        positive = labels == 1
        self.n = labels.size
        self.positives = np.flatnonzero(positive)
        self.models = []
        for s in scores:
            negatives = np.flatnonzero(~positive)
            negatives = negatives[np.argsort(s[negatives], kind="stable")]  # in the order of their scores
            negative_scores = s[negatives]
            below = np.searchsorted(negative_scores, s[self.positives], side="left")
            level = np.searchsorted(negative_scores, s[self.positives], side="right")
            self.models.append((s, negatives, below, None if np.array_equal(below, level) else level))

    def estimate(self) -> float:
        return self.reference.estimate()

    def _aucs(self, drawn: np.ndarray) -> np.ndarray:
        """The AUC (or the difference A - B) of each row of drawn item indices; ``drawn`` is overwritten."""
        rows, n = drawn.shape
        if rows > 1:
            drawn += n * np.arange(rows)[:, None]
        counts = np.bincount(drawn.ravel(), minlength=rows * n).reshape(rows, n)
        on_positives = np.take(counts, self.positives, axis=1)
        values = []
        for _, negatives, below, level in self.models:
            cumulative = np.zeros((rows, negatives.size + 1), dtype=np.int64)  # W(0) = 0, W(1), ...
            np.cumsum(np.take(counts, negatives, axis=1), axis=1, out=cumulative[:, 1:])
            weights = np.take(cumulative, below, axis=1)
            if level is None:
                weights *= 2
            else:
                weights += np.take(cumulative, level, axis=1)
            n_negative = cumulative[:, -1]
            m = n - n_negative
            if np.any((m == 0) | (n_negative == 0)):
                bad = int(np.count_nonzero((m == 0) | (n_negative == 0)))
                raise ValueError(
                    f"`statistic` returned {bad} non-finite value(s) out of {rows} (a zero denominator, or a "
                    "resample without positives?); a bootstrap interval needs a finite value on every resample."
                )
            values.append((np.einsum("ij,ij->i", on_positives, weights) / 2) / (m * n_negative))
        return values[0] if len(values) == 1 else values[0] - values[1]

    def resample(self, n_resamples: int, rng: np.random.Generator, tick: Callable[[int], object] = _no_tick) -> np.ndarray:
        n = self.n
        out = np.empty(n_resamples)
        # A few arrays of n_items per resample: chunks of about 10^6 elements, which the
        # allocator reuses rather than maps afresh (cold pages cost about 1 ms per MB).
        for start, rows in chunks(n_resamples, 4 * n):
            out[start : start + rows] = self._aucs(resample_indices(rng, n, rows))
            tick(rows)
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        """Leave-one-out AUCs: an item takes its own pairs out of U, in closed form."""
        values = []
        m, n = self.positives.size, self.n - self.positives.size
        for scores, negatives, below, level in self.models:
            level = below if level is None else level
            twice_u = int(below.sum() + level.sum())
            # A negative's pairs: the positives above it, level ones counting one half.
            positive_scores = np.sort(scores[self.positives])
            negative_scores = scores[negatives]
            under = np.searchsorted(positive_scores, negative_scores, side="left")
            at_or_under = np.searchsorted(positive_scores, negative_scores, side="right")
            loo = np.empty(self.n)
            # A class of one item gives 0 / 0 (its own pairs are all of U): invalid, never a divide.
            with np.errstate(invalid="ignore"):
                loo[self.positives] = ((twice_u - below - level) / 2) / ((m - 1) * n)
                loo[negatives] = ((twice_u - (2 * m - under - at_or_under)) / 2) / (m * (n - 1))
            values.append(loo)
        jack = values[0] if len(values) == 1 else values[0] - values[1]
        if not np.all(np.isfinite(jack)):
            raise ValueError(
                "`statistic` returned non-finite value(s) on leaving an item out (a class with a single item?); "
                "BCa's jackknife needs a finite value for every item."
            )
        return jack, np.ones(self.n)


def _check_axis_keyword(fn: Callable) -> None:
    """Refuse a callable that cannot take ``axis=`` (scipy's vectorized convention)."""
    try:
        parameters = inspect.signature(fn).parameters.values()
    except (TypeError, ValueError):  # builtins without a signature: let the call decide
        return
    if not any(p.name == "axis" or p.kind is p.VAR_KEYWORD for p in parameters):
        raise TypeError(
            "`statistic` must accept the keyword `axis` (the convention of "
            "scipy.stats.bootstrap): it is called as statistic(*arrays, axis=1) on arrays "
            "of shape (batch, n_items, ...); e.g. `lambda x, axis: x.mean(axis=axis)`."
        )


class CallableStatistic:
    """A user statistic on resampled arrays; with two samples, their difference A - B."""

    def __init__(self, fn: Callable, samples: tuple[tuple[np.ndarray, ...], ...], units: Units):
        _check_axis_keyword(fn)
        self.fn, self.units = fn, units
        self.samples = tuple(tuple(units.pad(x) for x in arrays) for arrays in samples)
        item_elements = sum(x[0].size for arrays in samples for x in arrays)
        # Elements materialised per drawn unit: its slot indices and the gathered values.
        self.per_unit = units.width * (1 + item_elements)

    def estimate(self) -> float:
        return float(self.evaluate(np.arange(self.units.count)[None])[0])

    def resample(self, n_resamples: int, rng: np.random.Generator, tick: Callable[[int], object] = _no_tick) -> np.ndarray:
        k = self.units.count
        out = np.empty(n_resamples)
        for start, rows in chunks(n_resamples, k * self.per_unit):
            out[start : start + rows] = self.evaluate(resample_indices(rng, k, rows))
            tick(rows)
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        k = self.units.count
        out = np.empty(k)
        kept = np.arange(k - 1)
        for start, rows in chunks(k, (k - 1) * self.per_unit):
            left_out = np.arange(start, start + rows)[:, None]
            out[start : start + rows] = self.evaluate(kept + (kept >= left_out))
        return out, np.ones(k)

    def evaluate(self, unit_idx: np.ndarray) -> np.ndarray:
        slots = self.units.slots(unit_idx)
        values = [self._call(arrays, slots) for arrays in self.samples]
        return values[0] if len(values) == 1 else values[0] - values[1]

    def _call(self, arrays: tuple[np.ndarray, ...], slots: np.ndarray) -> np.ndarray:
        rows = slots.shape[0]
        out = np.asarray(self.fn(*(x[slots] for x in arrays), axis=ITEM_AXIS), dtype=float)
        if out.shape != (rows,):
            raise ValueError(
                "`statistic` must return one value per resample: given arrays of shape "
                f"(batch, n_items, ...) with batch={rows} and axis={ITEM_AXIS}, it must return "
                f"shape ({rows},); got shape {out.shape}. Reduce over every axis but the first."
            )
        bad = ~np.isfinite(out)
        if np.any(bad):
            hint = (
                " With `groups`, padding slots hold NaN: use NaN-aware reductions such as np.nansum."
                if self.units.layout is not None
                else ""
            )
            raise ValueError(
                f"`statistic` returned {np.count_nonzero(bad)} non-finite value(s) out of {rows} "
                "(a zero denominator, or a resample without positives?); a bootstrap "
                f"interval needs a finite value on every resample.{hint}"
            )
        return out


def run_bootstrap(engine, n_resamples, method, confidence_level, rng, names: str, *, progress: bool = False) -> BootstrapResult:
    """The interval of ``method`` from ``engine``; a progress bar over the resamples with ``progress``."""
    estimate = engine.estimate()
    with progress_bar(n_resamples, "bootstrap", enabled=progress, unit="resample") as bar:
        dist = engine.resample(n_resamples, rng, bar.update)
    notes = []
    degenerate = dist.min() == dist.max()
    if degenerate:
        notes.append(
            f"All {n_resamples} bootstrap resamples gave the same value {dist[0]:g} (e.g. every "
            "item correct), so the interval is a single point and shows no uncertainty; "
            "it does not mean the score is known exactly (for a proportion, see "
            "sigeval.intervals.proportion_ci)."
            + (" BCa falls back to the percentile interval." if method == "bca" else "")
        )
    lower, upper = _tail_percentiles(confidence_level)
    if method == "bca" and not degenerate:
        tails, bca_notes = _bca_percentiles(dist, estimate, *engine.jackknife(), confidence_level)
        low, high = _percentiles(dist, tails)
        notes += bca_notes
    else:
        low, high = _percentiles(dist, [lower, upper])
        if method == "basic":
            q_low, q_high = low, high
            with np.errstate(over="ignore"):  # a bound that still overflows is refused below
                low, high = 2 * estimate - q_high, 2 * estimate - q_low
                if not (np.isfinite(low) and np.isfinite(high)):  # 2 * estimate overflowed
                    low, high = estimate - (q_high - estimate), estimate - (q_low - estimate)
    standard_error = 0.0 if degenerate else stable_mean_sd(dist)[1]
    check_finite_result(
        {"estimate": estimate, "confidence_interval": np.array([low, high]),
         "standard_error": standard_error},
        names,
    )
    for note in notes:
        warnings.warn(note, UserWarning, stacklevel=3)
    return BootstrapResult(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(float(low), float(high)),
        bootstrap_distribution=dist,
        # np.std of a constant array can be a rounding error above zero.
        standard_error=standard_error,
        method=method,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
    )


def _percentiles(dist: np.ndarray, levels) -> np.ndarray:
    """``np.percentile``, kept inside the distribution's range.

    Its interpolation ``b - (b - a)(1 - t)`` can cancel to below ``a`` when the
    two neighbours differ by hundreds of orders of magnitude.
    """
    scale = safe_scale(dist)  # the interpolation's b - a overflows near 1.8e308
    return np.clip(np.percentile(dist / scale, levels) * scale, dist.min(), dist.max())


def _tail_percentiles(confidence_level: float) -> tuple[float, float]:
    # 100 * level is exact for the usual levels, so 0.95 gives exactly 2.5 and
    # 97.5 (100 * (1 - level) / 2 would give 2.500000000000002).
    level = 100.0 * confidence_level
    return (100.0 - level) / 2, (100.0 + level) / 2


def _bca_percentiles(dist, estimate, jack, weights, confidence_level):
    """BCa quantile levels (in percent) and notes on any fallback."""
    notes = []
    b = dist.size
    below = (np.count_nonzero(dist < estimate) + np.count_nonzero(dist <= estimate)) / (2 * b)
    if below in (0.0, 1.0):
        notes.append(
            f"The estimate lies {'below' if below == 0 else 'above'} every bootstrap value, so "
            "BCa's bias correction is infinite; it was bounded at half a resample from the edge."
        )
        below = min(max(below, 0.5 / b), 1 - 0.5 / b)
    z0 = special.ndtri(below)
    # The acceleration is scale-free; the power-of-two scale keeps cubes finite.
    jack = jack / safe_scale(jack, power=3)
    centred = np.average(jack, weights=weights) - jack
    spread = np.sum(weights * centred**2)
    if spread > 0:
        acceleration = np.sum(weights * centred**3) / (6 * spread**1.5)
    else:
        notes.append("The jackknife values are all equal, so BCa's acceleration is set to 0.")
        acceleration = 0.0
    z = special.ndtri((1 - confidence_level) / 2) * np.array([1.0, -1.0])
    with np.errstate(divide="ignore"):
        tails = special.ndtr(z0 + (z0 + z) / (1 - acceleration * (z0 + z)))
    return 100 * tails, notes

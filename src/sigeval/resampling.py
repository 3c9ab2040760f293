"""Bootstrap intervals, grouped resampling, non-average metrics and paired permutation tests.

The bootstrap puts an interval around any score computed from ``n`` test items
by recomputing it on resamples of the items drawn with replacement (Efron &
Tibshirani, 1993). The paired bootstrap and the paired permutation test compare
two models scored on the same items.

Explained in :ref:`ch-bootstrap` (intervals,
groups, metrics that are not averages) and :ref:`ch-two-models` (paired bootstrap, permutation test).

Statistics
----------
``statistic="mean"`` (the default) takes one 1-D array of per-item scores and is
computed without materialising resamples: a resample of items taking ``r``
distinct values is described by the multinomial counts of those values, and a
resample of groups by how often each group was drawn (see :func:`bootstrap_ci`).

Any other statistic is a **callable** that follows the convention of
``scipy.stats.bootstrap`` (``vectorized=True``): it receives the resampled data
arrays, each with a leading resample axis, and the item axis as ``axis``, and
returns one value per resample::

    statistic(*arrays, axis=1) -> shape (batch,)
    arrays[j].shape == (batch, n_items, *item_shape_j)

For one-dimensional items the item axis is the last one, as in scipy, so
``np.mean``, ``np.median`` and any statistic written for
``scipy.stats.bootstrap`` work unchanged. ``batch`` varies from call to call
(resamples are drawn in chunks of bounded memory), so the callable must reduce
over every axis but the first. All data
arrays are resampled with the same item indices, so the entries of one item
stay together (the intersection and union of one image, the padded detections
and the object count of one image). The estimate is the callable on the data
itself, with ``batch = 1``.
With ``groups=``, the resample is the concatenation of the drawn groups, each
padded with NaN to the size of the largest group: arrays then have shape
``(batch, n_groups * max_group_size, *item_shape)`` and the callable must ignore
NaN padding (``np.nansum``, ``np.nanmean``). :func:`~sigeval.metrics.ratio_of_sums` and
:func:`~sigeval.metrics.average_precision` follow both rules. A callable that returns NaN or
infinity on any resample raises an error instead of being averaged away.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    as_array,
    check_choice,
    check_difference,
    check_finite_result,
    check_memory,
    check_positive_int,
    check_rng,
    check_scores,
    check_unit_interval,
    real_array,
    safe_scale,
    stable_mean_sd,
)

__all__ = [
    "BOOTSTRAP_METHODS",
    "BootstrapResult",
    "bootstrap_ci",
    "paired_bootstrap_ci",
]

BOOTSTRAP_METHODS = ("percentile", "basic", "bca")
BootstrapMethod = Literal["percentile", "basic", "bca"]

Data = ArrayLike | tuple[ArrayLike, ...]
#: The axis of the items in the arrays a callable statistic receives.
ITEM_AXIS = 1
Statistic = str | Callable[..., np.ndarray]

# At most this many array elements are materialised per chunk of resamples
# (32 MB of float64), whatever the number of items and of resamples.
_CHUNK_ELEMENTS = 4_000_000
# The multinomial fast path draws one count per distinct value and resample,
# at about 30 times the cost of drawing one item index: it pays when the
# values are few (at most 256) and repeat often (n >= 32 per distinct value).
_MAX_DISTINCT = 256
_MIN_REPEATS = 32


# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class BootstrapResult:
    """A bootstrap confidence interval.

    Attributes
    ----------
    estimate : float
        The statistic on the original data (for a paired bootstrap, A minus B).
    confidence_interval : ConfidenceInterval
        ``low`` and ``high`` bounds.
    bootstrap_distribution : ndarray
        The statistic on each of the ``n_resamples`` resamples.
    standard_error : float
        Standard deviation of the bootstrap distribution (``ddof=1``).
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    confidence_level : float
        The nominal coverage.
    n_resamples : int
        Number of bootstrap resamples.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: np.ndarray = field(repr=False)
    standard_error: float
    method: str
    confidence_level: float
    n_resamples: int


# --------------------------------------------------------------------------- public API

def bootstrap_ci(
    data: Data,
    *,
    statistic: Statistic = "mean",
    n_resamples: int = 10_000,
    method: BootstrapMethod = "percentile",
    confidence_level: float = 0.95,
    groups: ArrayLike | None = None,
    rng: RngLike = None,
) -> BootstrapResult:
    r"""Bootstrap confidence interval for a statistic of one model's per-item scores.

    Each of ``n_resamples`` resamples draws ``n`` items (or, with ``groups``,
    the number of groups) with replacement and recomputes the statistic
    :math:`\hat\theta^*_b`; with :math:`q_p` the ``p``-quantile of the
    :math:`\hat\theta^*_b` and :math:`\alpha = 1 - \text{confidence\_level}`:

    ``"percentile"``
        :math:`[q_{\alpha/2},\ q_{1-\alpha/2}]` (Efron & Tibshirani, 1993, ch. 13),
        computed as ``np.percentile(dist, [100 α/2, 100 (1 − α/2)])``.
    ``"basic"``
        :math:`[2\hat\theta - q_{1-\alpha/2},\ 2\hat\theta - q_{\alpha/2}]`
        (Davison & Hinkley, 1997, section 5.2). It reflects the quantiles
        about the estimate, so it can leave the range the statistic can take:
        for a proportion near 0 or 1 the basic interval can reach below 0 or
        above 1. That is a property of the method, not rounding; the
        percentile and BCa bounds are quantiles of the resampled values and
        stay inside their range.
    ``"bca"``
        Bias-corrected and accelerated (Efron, 1987; Efron & Tibshirani, 1993,
        ch. 14): quantiles at :math:`\Phi\!\big(z_0 + \frac{z_0 + z}{1 - a(z_0 + z)}\big)`
        for :math:`z = \pm\Phi^{-1}(\alpha/2)`, with
        :math:`z_0 = \Phi^{-1}\big((\#\{\hat\theta^*_b < \hat\theta\} + \#\{\hat\theta^*_b \le \hat\theta\}) / 2B\big)`
        (SciPy's convention) and the acceleration
        :math:`a = \sum_i (\bar\theta_{(\cdot)} - \theta_{(i)})^3 / \big(6 [\sum_i (\bar\theta_{(\cdot)} - \theta_{(i)})^2]^{3/2}\big)`
        from the jackknife values :math:`\theta_{(i)}` leaving out one item, or one
        group when ``groups`` is given. The jackknife is closed-form for the mean;
        for a callable it costs ``n`` evaluations on ``n - 1`` items (in chunks).

    **Mean.** With ``statistic="mean"`` a resample is summarised without drawing
    items: if the scores take ``r <= 256`` distinct values :math:`v_j` (0/1
    correctness, differences in {−1, 0, 1}) that repeat (``32 r <= n``), the
    counts of the values in a resample are :math:`\mathrm{Multinomial}(n, c_j/n)`
    and the resample mean is :math:`\sum_j C_j v_j / n`, exactly the distribution
    of the index bootstrap at a cost independent of ``n``. Otherwise items are
    drawn with ``rng.integers(0, n, size=(chunk, n))``.

    **Groups.** Test items are often correlated: video frames from the same
    clip, several crops cut from one picture, images of the same patient. ``groups`` gives each item a group
    label, and each resample draws the ``G`` groups with replacement, keeping all
    items of a drawn group (the cluster bootstrap). For the mean,
    :math:`\hat\theta^* = \sum_g m_g S_g / \sum_g m_g N_g` with :math:`m_g` the
    number of times group ``g`` was drawn, :math:`S_g` its sum and :math:`N_g`
    its size. A callable sees the drawn groups concatenated, each padded with
    NaN to the largest group's size (see the module docstring).

    Parameters
    ----------
    data : array_like or tuple of array_like
        A 1-D array of per-item scores, or a tuple of arrays sharing axis 0 (one
        entry per item), such as ``(intersections, unions)`` or padded per-image
        detections of shape ``(n_items, D)``. Only arrays with per-item axes may
        hold NaN (as padding); 1-D scores must be finite.
    statistic : "mean" or callable
        ``"mean"``, or ``f(*arrays, axis=1)`` mapping arrays of shape
        ``(batch, n_items, *item_shape)`` to shape ``(batch,)``, such as
        ``np.median``, :func:`~sigeval.metrics.ratio_of_sums` or :func:`~sigeval.metrics.average_precision`
        (scipy's convention; see the module's notes).
    n_resamples : int
        Number of bootstrap resamples ``B``, at least 2.
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"`` (case-insensitive, so ``"BCa"``).
    confidence_level : float
        Nominal coverage, strictly between 0 and 1.
    groups : array_like, optional
        One group label per item; resample whole groups instead of items.
    rng : numpy.random.Generator, int or None
        Source of the resamples. Index resampling draws
        ``rng.integers(0, n, size=(chunk, n))`` chunk after chunk, which is the
        same stream as one ``rng.integers(0, n, (n_resamples, n))``.

    Returns
    -------
    BootstrapResult

    Raises
    ------
    ValueError
        For NaN or infinite 1-D scores (with their positions), empty data, arrays
        of different lengths, ``groups`` of the wrong length, an unknown method,
        a level outside (0, 1), a callable returning the wrong shape or a
        non-finite value, ``n_resamples`` whose distribution would need more
        than 4 GiB, or a result that overflows float64.
    TypeError
        For a non-integer ``n_resamples``, a non-numeric (text, complex) array,
        group labels that cannot be compared, or a bad ``rng``.

    Warns
    -----
    UserWarning
        When every resample gives the same value (e.g. every item correct): the
        interval is then that single point, for BCa too, and says nothing about
        the score's uncertainty. Also when BCa's bias correction or acceleration
        is undefined and had to be bounded or set to 0.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. *JASA* 82(397), 171–185.
    Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman & Hall.
    Davison, A. C. and Hinkley, D. V. (1997). *Bootstrap Methods and their Application*. CUP.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import bootstrap_ci, ratio_of_sums
    >>> correct = np.r_[np.ones(845), np.zeros(155)]
    >>> res = bootstrap_ci(correct, rng=0)
    >>> round(res.estimate, 3), round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.845, 0.822, 0.867)

    Dataset-level IoU, Σ intersections / Σ unions, with a BCa interval:

    >>> gen = np.random.default_rng(1)
    >>> unions = gen.integers(500, 1500, size=40).astype(float)
    >>> inters = unions * gen.beta(6, 2, size=40)
    >>> res = bootstrap_ci((inters, unions), statistic=ratio_of_sums, method="BCa", rng=0)
    >>> round(res.estimate, 3), round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.729, 0.677, 0.769)
    """
    statistic, n_resamples, method, confidence_level, rng = _check_bootstrap_options(
        statistic, n_resamples, method, confidence_level, rng
    )
    arrays = _check_data(data, "data")
    units = _Units(groups, len(arrays[0]))
    if statistic == "mean":
        engine = _MeanStatistic.of_items(_mean_vector(arrays, "data"), units)
    else:
        engine = _CallableStatistic(statistic, (arrays,), units)
    return _bootstrap(engine, n_resamples, method, confidence_level, rng, "`data`")


def paired_bootstrap_ci(
    scores_a: Data,
    scores_b: Data,
    *,
    statistic: Statistic = "mean",
    n_resamples: int = 10_000,
    method: BootstrapMethod = "percentile",
    confidence_level: float = 0.95,
    groups: ArrayLike | None = None,
    rng: RngLike = None,
) -> BootstrapResult:
    r"""Paired bootstrap interval for the difference of a statistic between two models.

    Both models are scored on the same resample each time, and the bootstrap
    distribution is :math:`\hat\theta^*_A - \hat\theta^*_B`: an item that defeats
    both models moves both scores together, so its difficulty cancels in the
    difference (Efron & Tibshirani, 1993; Everingham et al., 2015, section 3.5,
    for AP and segmentation scores). The estimate is
    :math:`\hat\theta_A - \hat\theta_B`. Intervals, groups and the callable
    convention are as in :func:`bootstrap_ci`; the jackknife for BCa leaves the
    same item (or group) out of both models.

    For ``statistic="mean"`` the difference of means is the mean of the per-item
    differences ``d = a - b``, which takes at most three values for 0/1
    correctness, so the multinomial fast path applies. Explained in :ref:`ch-two-models`.

    Parameters
    ----------
    scores_a, scores_b : array_like or tuple of array_like
        Each a 1-D array of per-item scores or a tuple of per-item arrays, for
        the same items in the same order.
    statistic, n_resamples, method, confidence_level, groups, rng
        As in :func:`bootstrap_ci`. A callable is applied to each model's arrays.

    Returns
    -------
    BootstrapResult
        The interval of ``statistic(A) - statistic(B)``.

    Raises
    ------
    ValueError
        As :func:`bootstrap_ci`, and when the two models have different numbers
        of items or of arrays.

    References
    ----------
    Everingham, M. et al. (2015). The PASCAL Visual Object Classes Challenge: a
    retrospective. *IJCV* 111, 98–136.

    Examples
    --------
    Two classifiers that disagree on 72 of 1,000 images (44 won by A, 28 by B):

    >>> import numpy as np
    >>> from sigeval import paired_bootstrap_ci
    >>> a = np.r_[np.ones(44), np.zeros(28), np.ones(801), np.zeros(127)]
    >>> b = np.r_[np.zeros(44), np.ones(28), np.ones(801), np.zeros(127)]
    >>> res = paired_bootstrap_ci(a, b, rng=0)
    >>> round(res.estimate, 3), round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.016, 0.0, 0.033)
    """
    statistic, n_resamples, method, confidence_level, rng = _check_bootstrap_options(
        statistic, n_resamples, method, confidence_level, rng
    )
    arrays_a = _check_data(scores_a, "scores_a")
    arrays_b = _check_data(scores_b, "scores_b")
    if len(arrays_a) != len(arrays_b):
        raise ValueError(
            "`scores_a` and `scores_b` must hold the same number of arrays; "
            f"got {len(arrays_a)} and {len(arrays_b)}."
        )
    if len(arrays_a[0]) != len(arrays_b[0]):
        raise ValueError(
            "`scores_a` and `scores_b` must be paired, with the same number of items; "
            f"got {len(arrays_a[0])} and {len(arrays_b[0])}."
        )
    units = _Units(groups, len(arrays_a[0]))
    if statistic == "mean":
        diff = check_difference(
            _mean_vector(arrays_a, "scores_a"), _mean_vector(arrays_b, "scores_b"),
            ("scores_a", "scores_b"),
        )
        engine = _MeanStatistic.of_items(diff, units)
    else:
        engine = _CallableStatistic(statistic, (arrays_a, arrays_b), units)
    return _bootstrap(engine, n_resamples, method, confidence_level, rng, "`scores_a` and `scores_b`")


# --------------------------------------------------------------------------- validation

def _check_bootstrap_options(statistic, n_resamples, method, confidence_level, rng):
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


def _check_data(data, name: str) -> tuple[np.ndarray, ...]:
    """The data as a tuple of float arrays that share axis 0."""
    arrays = data if isinstance(data, tuple) else (data,)
    if not arrays:
        raise ValueError(f"`{name}` must not be an empty tuple.")
    labels = [name] if len(arrays) == 1 else [f"{name}[{j}]" for j in range(len(arrays))]
    checked = tuple(_check_item_array(x, label) for x, label in zip(arrays, labels))
    lengths = [len(x) for x in checked]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"The arrays of `{name}` must share axis 0 (one entry per item); got lengths {lengths}."
        )
    return checked


def _check_item_array(x, name: str) -> np.ndarray:
    """Per-item values: 1-D scores must be finite; per-item arrays may hold NaN padding."""
    arr = as_array(x, name)
    if arr.ndim <= 1:
        return check_scores(arr, name)
    arr = real_array(arr, name, allow_bool=True)
    if arr.shape[0] == 0:
        raise ValueError(f"`{name}` must hold at least one item; got shape {arr.shape}.")
    if np.any(np.isinf(arr)):
        where = np.argwhere(np.isinf(arr))[:3].tolist()
        raise ValueError(f"`{name}` holds infinite values, e.g. at index {where}.")
    return arr


def _mean_vector(arrays: tuple[np.ndarray, ...], name: str) -> np.ndarray:
    if len(arrays) != 1 or arrays[0].ndim != 1:
        shapes = ", ".join(str(x.shape) for x in arrays)
        raise ValueError(
            f"statistic='mean' needs `{name}` to be one 1-D array of per-item scores; "
            f"got arrays of shape {shapes}. Pass a callable `statistic` for other data."
        )
    return arrays[0]


# --------------------------------------------------------------------------- resampling engine

class _Units:
    """What a resample draws: items, or groups of items laid out as padded rows."""

    def __init__(self, groups, n_items: int):
        if groups is None:
            self.inverse = self.layout = None
            self.count, self.width = n_items, 1
            return
        labels = as_array(groups, "groups")
        if labels.ndim != 1 or labels.shape[0] != n_items:
            raise ValueError(
                f"`groups` must hold one label per item, {n_items} in all; got shape {labels.shape}."
            )
        if labels.dtype.kind == "f" and np.any(np.isnan(labels)):
            where = np.flatnonzero(np.isnan(labels))
            raise ValueError(f"`groups` holds NaN labels at position(s) {where[:3].tolist()}.")
        try:
            _, inverse = np.unique(labels, return_inverse=True)
        except TypeError:  # labels that cannot be sorted together, such as 1 and "a"
            kinds = sorted({type(v).__name__ for v in labels})
            raise TypeError(
                "`groups` labels must be comparable with each other (all numbers or all "
                f"strings); got labels of types {', '.join(kinds)}."
            ) from None
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


def _chunks(total: int, per_row: int):
    """(start, rows) blocks of at most ``_CHUNK_ELEMENTS`` materialised elements."""
    rows = max(1, _CHUNK_ELEMENTS // max(per_row, 1))
    for start in range(0, total, rows):
        yield start, min(rows, total - start)


def _multiplicities(drawn: np.ndarray, n_units: int) -> np.ndarray:
    """How often each unit occurs in each row of ``drawn``."""
    rows = drawn.shape[0]
    flat = (drawn + n_units * np.arange(rows)[:, None]).ravel()
    return np.bincount(flat, minlength=rows * n_units).reshape(rows, n_units)


class _MeanStatistic:
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
    def of_items(cls, x: np.ndarray, units: _Units) -> _MeanStatistic:
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
    def of_counts(cls, values: np.ndarray, counts: np.ndarray) -> _MeanStatistic:
        """Distinct values in increasing order, each with its (positive) count."""
        return cls(n=int(counts.sum()), scale=1.0, bounds=(float(values[0]), float(values[-1])),
                   values=values, counts=counts)

    @classmethod
    def of_groups(cls, sums: np.ndarray, sizes: np.ndarray, bounds: tuple[float, float]) -> _MeanStatistic:
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

    def resample(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        # A mean lies between the smallest and the largest score; rounding can
        # put the mean of n equal values a hair outside (0.1 * 5 / 5).
        return np.clip(self._resample(n_resamples, rng) * self.scale, *self.range)

    def _resample(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        out = np.empty(n_resamples)
        n = self.n
        if self.grouped:
            g = self.sums.size
            for start, rows in _chunks(n_resamples, 4 * g):
                drawn = rng.integers(0, g, size=(rows, g))
                out[start : start + rows] = self._group_means(_multiplicities(drawn, g))
        elif self.by_counts:
            freqs = self.counts / n
            for start, rows in _chunks(n_resamples, self.values.size):
                counts = rng.multinomial(n, freqs, size=rows)
                out[start : start + rows] = self._count_means(counts)
        else:
            for start, rows in _chunks(n_resamples, 2 * n):
                out[start : start + rows] = self.x[rng.integers(0, n, size=(rows, n))].mean(axis=1)
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


class _CallableStatistic:
    """A user statistic on resampled arrays; with two samples, their difference A - B."""

    def __init__(self, fn: Callable, samples: tuple[tuple[np.ndarray, ...], ...], units: _Units):
        _check_axis_keyword(fn)
        self.fn, self.units = fn, units
        self.samples = tuple(tuple(units.pad(x) for x in arrays) for arrays in samples)
        item_elements = sum(x[0].size for arrays in samples for x in arrays)
        # Elements materialised per drawn unit: its slot indices and the gathered values.
        self.per_unit = units.width * (1 + item_elements)

    def estimate(self) -> float:
        return float(self.evaluate(np.arange(self.units.count)[None])[0])

    def resample(self, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
        k = self.units.count
        out = np.empty(n_resamples)
        for start, rows in _chunks(n_resamples, k * self.per_unit):
            out[start : start + rows] = self.evaluate(rng.integers(0, k, size=(rows, k)))
        return out

    def jackknife(self) -> tuple[np.ndarray, np.ndarray]:
        k = self.units.count
        out = np.empty(k)
        kept = np.arange(k - 1)
        for start, rows in _chunks(k, (k - 1) * self.per_unit):
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


# --------------------------------------------------------------------------- intervals

def _bootstrap(engine, n_resamples, method, confidence_level, rng, names: str) -> BootstrapResult:
    estimate = engine.estimate()
    dist = engine.resample(n_resamples, rng)
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

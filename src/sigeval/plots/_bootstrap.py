"""The bootstrap distribution, with bins aligned to the lattice of its values."""

from __future__ import annotations

import numbers

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .._validation import check_finite_array, check_interval, check_positive_int, check_real
from .._validation_figures import check_mapping, check_result
from ._style import _interval_color


def _histogram_edges(values: np.ndarray, max_bins: int = 60) -> np.ndarray:
    """Bin edges; values on a lattice (accuracies k/n) get whole lattice steps per bin.

    Each bin holds the same number of lattice points, with the points well
    inside the bins, so the histogram has no aliasing spikes; other values get
    NumPy's "auto" bins, at most ``max_bins`` of them.
    """
    distinct = np.unique(values)
    lattice = _lattice(distinct)
    if lattice is not None:
        step, origin = lattice
        points = int(round((distinct[-1] - origin) / step)) + 1
        per_bin = -(-points // max_bins)  # ceiling division
        n_bins = -(-points // per_bin)
        return origin - step / 2 + step * per_bin * np.arange(n_bins + 1)
    if np.ptp(distinct) <= _LATTICE_RTOL * np.abs(distinct).max():
        # One value, up to rounding.
        return np.array([distinct[0] - 0.5, distinct[0] + 0.5])
    edges = np.histogram_bin_edges(values, bins="auto")
    return edges if edges.size <= max_bins + 1 else np.histogram_bin_edges(values, bins=max_bins)


# Values closer than this fraction of their magnitude are one value, differing
# by float rounding only (far above the rounding of a mean of a million items).
_LATTICE_RTOL = 1e-9


def _lattice(distinct: np.ndarray, max_points: int = 10_000) -> tuple[float, float] | None:
    """Step and origin of an evenly spaced grid holding every value, or None.

    ``distinct`` is sorted. A statistic computed by a callable carries float
    noise (0.016 and 0.016000000000000014 are one lattice point 16/1000), so
    values within ``_LATTICE_RTOL`` of their magnitude are merged, points
    need only lie within a millionth of a step of the grid, and the step and
    origin are rounded to ``1/m`` and to a multiple of the step when they are
    that close to one.
    """
    if distinct.size < 2 or not np.all(np.isfinite(distinct[[0, -1]])):
        return None
    noise = _LATTICE_RTOL * float(np.abs(distinct).max())
    points = distinct[np.r_[True, np.diff(distinct) > noise]]
    if not 2 <= points.size <= max_points:
        return None
    step = float(np.diff(points).min())
    if step <= 1e3 * noise:  # a "step" within rounding of the values cannot be told from noise
        return None
    k = np.rint((points - points[0]) / step)
    step = float(points[-1] - points[0]) / float(k[-1])  # the widest span gives the sharpest step
    tolerance = 1e-6 * step + noise
    if np.any(np.abs(points - points[0] - k * step) > tolerance):
        return None
    m = round(1 / step)
    if m >= 1 and abs(1 / m - step) * k[-1] <= tolerance:  # a lattice k/m, e.g. accuracies
        step = 1 / m
    origin = float(points[0])
    j = round(origin / step)
    if abs(origin - j * step) <= tolerance:  # anchor the grid at 0
        origin = j * step
    return step, origin


def bootstrap_distribution(
    ax: Axes,
    result,
    *,
    intervals: dict | None = None,
    bins: ArrayLike | int | None = None,
    color: str = "#7f7f7f",
    label: str | None = None,
    show_estimate: bool = True,
) -> Axes:
    """Histogram of a bootstrap distribution, with the estimate and intervals marked.

    Draws the ``bootstrap_distribution`` of a
    :class:`~sigeval.BootstrapResult` as a density histogram. When
    the values lie on a lattice, as the accuracies ``k/n`` of resamples do
    (even with the float rounding of a callable statistic, which puts 0.016
    next to 0.016000000000000014), every bin holds the same number of lattice
    points, so the histogram has no aliasing spikes. A vertical line marks
    the estimate. Each interval of ``intervals`` (a mapping from a name to a
    ``(low, high)`` pair or a confidence interval) is drawn as a horizontal bar
    above the histogram, one row per interval, in the order given; by default
    the result's own interval.
    Pass ``intervals={}`` to draw none, for instance to overlay several
    distributions on one ``ax`` (give each a ``color`` and a ``label``).

    Used in :ref:`ch-bootstrap`.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    result : BootstrapResult
        The output of :func:`~sigeval.resampling.bootstrap_ci` or
        :func:`~sigeval.resampling.paired_bootstrap_ci`.
    intervals : dict, optional
        Name to ``(low, high)``. Colours follow the method names ("percentile",
        "basic", "bca", "wilson", ...).
    bins : int or array_like, optional
        Histogram bins; chosen automatically by default.
    color, label : str
        Colour and legend label of the histogram.
    show_estimate : bool
        Draw the vertical line at the estimate.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import bootstrap_distribution
    >>> from sigeval import bootstrap_ci
    >>> res = bootstrap_ci(np.r_[np.ones(85), np.zeros(15)], n_resamples=500, rng=0)
    >>> fig, ax = plt.subplots()
    >>> _ = bootstrap_distribution(ax, res, intervals={"percentile": res.confidence_interval,
    ...                                                "wilson": (0.77, 0.91)})
    >>> plt.close(fig)
    """
    dist, estimate, method, interval = check_result(
        result, "result", "BootstrapResult", ("bootstrap_distribution", "estimate", "method", "confidence_interval")
    )
    dist = check_finite_array(dist, "result.bootstrap_distribution")
    estimate = check_real(estimate, "result.estimate")
    if intervals is None:
        intervals = {method: interval}
    rows = [
        (name, check_interval(bounds, f"intervals[{name!r}]"))
        for name, bounds in check_mapping(intervals, "intervals", "a (low, high) pair", allow_empty=True).items()
    ]
    edges: int | np.ndarray
    if bins is None:
        edges = _histogram_edges(dist)
    elif isinstance(bins, numbers.Integral) and not isinstance(bins, bool):
        edges = check_positive_int(int(bins), "bins")
    else:
        edges = check_finite_array(bins, "bins")
    # matplotlib's stub types `bins` as a sequence, but hist hands it to
    # np.histogram, which takes an array as well.
    heights, _, _ = ax.hist(dist, bins=edges, density=True, color=color, alpha=0.45,  # type: ignore[arg-type]
                            edgecolor=color, linewidth=0.6, label=label)
    top = float(np.max(heights)) if len(heights) else 1.0
    if show_estimate:
        ax.axvline(estimate, color="black", lw=0.9)
    for j, (name, (low, high)) in enumerate(rows):
        y = top * (1.12 + 0.13 * j)
        c = _interval_color(name)
        ax.plot([low, high], [y, y], color=c, lw=2.2, solid_capstyle="butt")
        ax.plot([low, low], [y - 0.035 * top, y + 0.035 * top], color=c, lw=1.2)
        ax.plot([high, high], [y - 0.035 * top, y + 0.035 * top], color=c, lw=1.2)
        ax.annotate(f" {name}", (high, y), va="center", ha="left", fontsize="small", color=c)
    if rows:
        ax.set_ylim(0, top * (1.2 + 0.13 * len(rows)))
        # Leave room on the right for the names written after the bars.
        left, right = ax.get_xlim()
        rightmost = max(high for _, (_, high) in rows)
        ax.set_xlim(left, max(right, rightmost + 0.15 * (right - left)))
    ax.set(xlabel="statistic on a resample", ylabel="density")
    return ax

"""The figures the chapters draw.

Each function draws on a Matplotlib ``ax`` that the caller provides and returns
it, so a chapter (or a reader) controls the figure layout, size and saving.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from ._validation import check_binary
from .intervals import coverage
from .power import power_paired
from .ranking import cd_groups, nemenyi_cd

__all__ = [
    "METHOD_COLORS",
    "BOOTSTRAP_COLORS",
    "VERDICT_COLORS",
    "coverage_vs_p",
    "coverage_vs_n",
    "coverage_curves",
    "bootstrap_distribution",
    "disagreement_table",
    "interval_forest",
    "power_vs_test_size",
    "paired_scores",
    "power_curve",
    "verdict_intervals",
    "cd_diagram",
]

# One colour per interval method, kept across every figure of the book.
METHOD_COLORS = {
    "wald": "#d62728",
    "wilson": "#1f77b4",
    "agresti-coull": "#2ca02c",
    "jeffreys": "#9467bd",
    "clopper-pearson": "#7f7f7f",
}


def coverage_vs_p(
    ax: Axes,
    n: int,
    *,
    methods: Sequence[str] = ("wald", "wilson"),
    p: ArrayLike | None = None,
    confidence_level: float = 0.95,
) -> Axes:
    """Exact coverage against the true proportion for one test-set size ``n``.

    Used in :ref:`ch-intervals`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import coverage_vs_p
    >>> fig, ax = plt.subplots()
    >>> _ = coverage_vs_p(ax, 20)
    >>> plt.close(fig)
    """
    p_grid = np.linspace(0.001, 0.999, 999) if p is None else np.asarray(p, dtype=float)
    for method in methods:
        ax.plot(
            p_grid,
            coverage(n, p_grid, method=method, confidence_level=confidence_level),
            lw=0.9,
            color=METHOD_COLORS.get(method),
            label=method,
        )
    _nominal_line(ax, confidence_level)
    ax.set(xlabel="true proportion $p$", ylabel="coverage", title=f"$n = {n}$", xlim=(0, 1))
    ax.legend(loc="lower center")
    return ax


def coverage_vs_n(
    ax: Axes,
    p: float,
    *,
    n: ArrayLike | None = None,
    methods: Sequence[str] = ("wald", "wilson"),
    confidence_level: float = 0.95,
) -> Axes:
    """Exact coverage against the test-set size for one true proportion ``p``.

    Used in :ref:`ch-intervals`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import coverage_vs_n
    >>> fig, ax = plt.subplots()
    >>> _ = coverage_vs_n(ax, 0.98, n=range(10, 200))
    >>> plt.close(fig)
    """
    sizes = np.arange(10, 1001) if n is None else np.asarray(n)
    for method in methods:
        ax.plot(
            sizes,
            coverage(sizes, p, method=method, confidence_level=confidence_level),
            lw=0.9,
            color=METHOD_COLORS.get(method),
            label=method,
        )
    _nominal_line(ax, confidence_level)
    ax.set(xlabel="test-set size $n$", ylabel="coverage", title=f"$p = {p:g}$")
    ax.legend(loc="lower right")
    return ax


def _nominal_line(ax: Axes, confidence_level: float) -> None:
    ax.axhline(confidence_level, color="black", lw=0.8, ls="--")


def power_curve(
    ax: Axes,
    sigma_d: float,
    effects: Sequence[float],
    seeds: ArrayLike,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    labels: Sequence[str] | None = None,
) -> Axes:
    """Exact power of the paired t-test against the number of seeds, one curve per effect.

    For each true mean difference in ``effects`` draws the noncentral-t power
    of the two-sided paired t-test at level ``alpha`` (:func:`sigeval.power.power_paired`)
    with paired differences of standard deviation ``sigma_d``, at every seed
    count in ``seeds``. The dashed line marks ``target_power``, the dotted
    line ``alpha`` (the power at no effect). ``effects`` and ``sigma_d`` share
    one unit: pass ``sigma_d=1`` to draw effects in units of :math:`\\sigma_d`.
    ``labels`` name the curves (default: the effects).

    Used in :ref:`ch-power`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import power_curve
    >>> fig, ax = plt.subplots()
    >>> _ = power_curve(ax, 1.0, [0.5, 1.0], range(2, 31))
    >>> plt.close(fig)
    """

    n = np.asarray(seeds)
    effects = list(effects)
    if labels is None:
        labels = [f"$\\delta = {effect:g}$" for effect in effects]
    if len(labels) != len(effects):
        raise ValueError(
            f"`labels` must name every effect; got {len(labels)} labels for {len(effects)} effects."
        )
    for effect, label in zip(effects, labels):
        power = power_paired(sigma_d, n, alpha=alpha, target_power=target_power, delta=effect).power
        ax.plot(n, power, lw=1.2, label=label)
    ax.axhline(target_power, color="black", lw=0.8, ls="--")
    ax.axhline(alpha, color="black", lw=0.8, ls=":")
    ax.set(xlabel="number of seeds (pairs) $S$", ylabel="power", ylim=(0, 1.02),
           xlim=(n.min(), n.max()))
    ax.legend(loc="lower right")
    return ax


#: One colour per verdict of :func:`sigeval.equivalence.verdict`, kept across the book.
VERDICT_COLORS = {
    "different": "#d62728",
    "equivalent": "#2ca02c",
    "trivial": "#ff7f0e",
    "undetermined": "#7f7f7f",
}


def verdict_intervals(
    ax: Axes,
    estimates: ArrayLike,
    intervals: ArrayLike,
    tost_intervals: ArrayLike,
    verdicts: Sequence[str],
    *,
    margin: float,
    labels: Sequence[str] | None = None,
) -> Axes:
    """Forest plot of paired comparisons, coloured by their verdict.

    One row per comparison, the first at the top: a thin line for the
    :math:`1-\\alpha` interval of the mean difference (the difference test
    rejects when it excludes 0), a thick bar for the :math:`1-2\\alpha`
    interval (TOST declares equivalence when it lies inside the shaded band
    :math:`(-\\text{margin}, \\text{margin})`) and a dot at the estimate.
    ``intervals`` and ``tost_intervals`` have shape ``(k, 2)`` (low, high);
    colours come from :data:`VERDICT_COLORS`.

    Used in :ref:`ch-power`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import verdict_intervals
    >>> fig, ax = plt.subplots()
    >>> _ = verdict_intervals(ax, [0.5, 0.0], [[0.2, 0.8], [-0.3, 0.3]],
    ...                       [[0.25, 0.75], [-0.2, 0.2]], ["trivial", "equivalent"], margin=1.0)
    >>> plt.close(fig)
    """
    from matplotlib.lines import Line2D

    est = np.asarray(estimates, dtype=float).ravel()
    wide = np.asarray(intervals, dtype=float)
    narrow = np.asarray(tost_intervals, dtype=float)
    k = est.size
    if wide.shape != (k, 2) or narrow.shape != (k, 2) or len(verdicts) != k:
        raise ValueError(
            "`intervals` and `tost_intervals` must have shape (k, 2) and `verdicts` length k "
            f"for k = {k} estimates; got {wide.shape}, {narrow.shape} and {len(verdicts)}."
        )
    unknown = sorted(set(verdicts) - set(VERDICT_COLORS))
    if unknown:
        raise ValueError(f"`verdicts` must be among {tuple(VERDICT_COLORS)}; got {unknown}.")
    y = np.arange(k)[::-1]
    ax.axvspan(-margin, margin, color="#2ca02c", alpha=0.08, lw=0)
    for x in (-margin, margin):
        ax.axvline(x, color="#2ca02c", lw=0.8, ls="--")
    ax.axvline(0, color="black", lw=0.8)
    for row, e, (lo, hi), (tlo, thi), v in zip(y, est, wide, narrow, verdicts):
        color = VERDICT_COLORS[v]
        ax.plot([lo, hi], [row, row], color=color, lw=1.0)
        ax.plot([tlo, thi], [row, row], color=color, lw=4.0, solid_capstyle="butt")
        ax.plot(e, row, "o", color="white", mec=color, ms=5)
    ax.set_yticks(y, labels if labels is not None else [str(i + 1) for i in range(k)])
    ax.set(ylim=(-0.7, k - 0.3), xlabel="mean paired difference")
    present = [v for v in VERDICT_COLORS if v in set(verdicts)]
    ax.legend(
        [Line2D([], [], color=VERDICT_COLORS[v], lw=4) for v in present],
        present,
        loc="best",
        fontsize="small",
    )
    return ax


def disagreement_table(
    ax: Axes,
    correct_a: ArrayLike,
    correct_b: ArrayLike,
    *,
    labels: Sequence[str] = ("A", "B"),
) -> Axes:
    """The 2×2 table of two models' correctness on the same items.

    Rows say whether model A is right, columns whether model B is right. The
    two cells where the models agree (grey) say nothing about which model is
    better; the two disagreement cells, :math:`n_{01}` (only A right, blue)
    and :math:`n_{10}` (only B right, orange), are all that McNemar's test
    uses (:func:`sigeval.paired.mcnemar`).

    Used in :ref:`ch-two-models`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import disagreement_table
    >>> fig, ax = plt.subplots()
    >>> _ = disagreement_table(ax, [1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    >>> plt.close(fig)
    """
    from matplotlib.colors import to_rgb


    a = check_binary(correct_a, "correct_a")
    b = check_binary(correct_b, "correct_b")
    if a.shape != b.shape:
        raise ValueError(
            "`correct_a` and `correct_b` must be paired, with the same length; "
            f"got {a.size} and {b.size}."
        )
    name_a, name_b = labels
    counts = np.array([[np.sum(a & b), np.sum(a & ~b)], [np.sum(~a & b), np.sum(~a & ~b)]])
    texts = [
        ["both right", f"only {name_a} right\n$n_{{01}}$"],
        [f"only {name_b} right\n$n_{{10}}$", "both wrong"],
    ]
    colors = [["#e6e6e6", "#aec7e8"], ["#ffbb78", "#e6e6e6"]]
    ax.imshow(np.array([[to_rgb(c) for c in row] for row in colors]), interpolation="nearest")
    for (i, j), count in np.ndenumerate(counts):
        ax.text(j, i - 0.12, f"{count:,}", ha="center", va="center", fontsize="x-large")
        ax.text(j, i + 0.2, texts[i][j], ha="center", va="center", fontsize="small")
    ax.set_xticks([0, 1], [f"{name_b} right", f"{name_b} wrong"])
    ax.set_yticks([0, 1], [f"{name_a} right", f"{name_a} wrong"])
    ax.xaxis.tick_top()
    ax.tick_params(length=0)
    for spine in ax.spines.values():
        spine.set_visible(False)
    return ax


def interval_forest(
    ax: Axes,
    estimates: ArrayLike,
    intervals: ArrayLike,
    labels: Sequence[str],
    *,
    reference: float | None = None,
    colors: Sequence[str] | None = None,
) -> Axes:
    """Intervals drawn as horizontal lines, one row per estimate, the first at the top.

    ``intervals`` has shape ``(k, 2)`` (low, high); a dot marks each estimate.
    ``reference``, if given, draws a vertical line (0 for a difference), so
    one can see at a glance which intervals exclude it.

    Used in :ref:`ch-two-models`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import interval_forest
    >>> fig, ax = plt.subplots()
    >>> _ = interval_forest(ax, [0.02, 0.02], [[-0.01, 0.05], [0.0, 0.04]], ["one", "two"], reference=0)
    >>> plt.close(fig)
    """
    est = np.asarray(estimates, dtype=float).ravel()
    bounds = np.asarray(intervals, dtype=float)
    k = est.size
    if bounds.shape != (k, 2) or len(labels) != k:
        raise ValueError(
            "`intervals` must have shape (k, 2) and `labels` length k "
            f"for k = {k} estimates; got {bounds.shape} and {len(labels)}."
        )
    colors = list(colors) if colors is not None else ["#1f77b4"] * k
    y = np.arange(k)[::-1]
    if reference is not None:
        ax.axvline(reference, color="black", lw=0.8)
    for row, e, (lo, hi), color in zip(y, est, bounds, colors):
        ax.plot([lo, hi], [row, row], color=color, lw=2.5, solid_capstyle="butt")
        ax.plot(e, row, "o", color="white", mec=color, ms=6)
    ax.set_yticks(y, labels)
    ax.set(ylim=(-0.7, k - 0.3))
    return ax


def power_vs_test_size(
    ax: Axes,
    n: ArrayLike,
    power: ArrayLike,
    *,
    simulated_n: ArrayLike | None = None,
    simulated_power: ArrayLike | None = None,
    n_simulations: int | None = None,
    target_power: float = 0.8,
    label: str = "normal approximation",
) -> Axes:
    """Power of a comparison on one test set against the test-set size.

    Draws ``power`` against the test-set sizes ``n`` as a line (typically an
    approximation) and, if given, simulated powers at ``simulated_n`` as
    points; with ``n_simulations`` (test sets per size) the points carry
    ±1.96 Monte Carlo standard errors, :math:`\\sqrt{\\hat\\pi(1-\\hat\\pi)/R}`.
    The dashed line marks ``target_power``.

    Used in :ref:`ch-two-models`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import power_vs_test_size
    >>> fig, ax = plt.subplots()
    >>> _ = power_vs_test_size(ax, [500, 1000, 2000], [0.3, 0.5, 0.8],
    ...                        simulated_n=[1000], simulated_power=[0.45], n_simulations=2000)
    >>> plt.close(fig)
    """
    sizes = np.asarray(n, dtype=float)
    ax.plot(sizes, np.asarray(power, dtype=float), color="#1f77b4", lw=1.2, label=label)
    if simulated_n is not None:
        sim_n = np.asarray(simulated_n, dtype=float)
        sim_p = np.asarray(simulated_power, dtype=float)
        if sim_n.shape != sim_p.shape:
            raise ValueError(
                "`simulated_n` and `simulated_power` must have the same shape; "
                f"got {sim_n.shape} and {sim_p.shape}."
            )
        err = None if n_simulations is None else 1.96 * np.sqrt(sim_p * (1 - sim_p) / n_simulations)
        ax.errorbar(sim_n, sim_p, yerr=err, fmt="o", ms=3.5, color="black", mfc="white",
                    elinewidth=0.8, capsize=0, label="simulation")
    ax.axhline(target_power, color="black", lw=0.8, ls="--")
    ax.set(xlabel="test-set size $n$", ylabel="power", ylim=(0, 1.02))
    ax.legend(loc="lower right")
    return ax


# One colour per bootstrap interval, beside METHOD_COLORS for the binomial ones.
BOOTSTRAP_COLORS = {
    "percentile": "#ff7f0e",
    "basic": "#8c564b",
    "bca": "#e377c2",
}


def _interval_color(name: str, default: str = "black") -> str:
    key = name.lower()
    return BOOTSTRAP_COLORS.get(key) or METHOD_COLORS.get(key) or default


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
    :class:`~sigeval.resampling.BootstrapResult` as a density histogram. When
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
    dist = np.asarray(result.bootstrap_distribution, dtype=float)
    if intervals is None:
        intervals = {result.method: result.confidence_interval}
    edges = _histogram_edges(dist) if bins is None else bins
    heights, _, _ = ax.hist(dist, bins=edges, density=True, color=color, alpha=0.45,
                            edgecolor=color, linewidth=0.6, label=label)
    top = float(np.max(heights)) if len(heights) else 1.0
    if show_estimate:
        ax.axvline(result.estimate, color="black", lw=0.9)
    rows = list(intervals.items())
    for j, (name, bounds) in enumerate(rows):
        low, high = (float(v) for v in bounds)
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
        rightmost = max(float(tuple(bounds)[1]) for _, bounds in rows)
        ax.set_xlim(left, max(right, rightmost + 0.15 * (right - left)))
    ax.set(xlabel="statistic on a resample", ylabel="density")
    return ax


def coverage_curves(
    ax: Axes,
    p: ArrayLike,
    coverages: dict,
    *,
    confidence_level: float = 0.95,
) -> Axes:
    """Coverage of several interval procedures against the true value, one line each.

    ``coverages`` maps a procedure's name to its coverage at each value of
    ``p`` (computed by the caller, for instance exactly over all outcomes of a
    binomial test set); the dashed line is the nominal level. Colours follow the
    method names. Unlike :func:`coverage_vs_p`, which computes binomial
    coverage itself, this function draws any procedure, bootstrap ones included.

    Used in :ref:`ch-bootstrap`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import coverage_curves
    >>> fig, ax = plt.subplots()
    >>> _ = coverage_curves(ax, [0.5, 0.7, 0.9], {"percentile": [0.94, 0.93, 0.90],
    ...                                         "wilson": [0.95, 0.95, 0.95]})
    >>> plt.close(fig)
    """
    grid = np.asarray(p, dtype=float)
    for name, values in coverages.items():
        values = np.asarray(values, dtype=float)
        if values.shape != grid.shape:
            raise ValueError(
                f"`coverages[{name!r}]` must have the shape of `p` {grid.shape}; got {values.shape}."
            )
        ax.plot(grid, values, lw=0.9, color=_interval_color(name, default=None), label=name)
    _nominal_line(ax, confidence_level)
    ax.set(xlabel="true proportion $p$", ylabel="coverage")
    ax.legend(loc="lower left")
    return ax


def paired_scores(
    ax: Axes,
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    color: str | None = None,
    label: str | None = None,
    show_correlation: bool = True,
) -> Axes:
    """Scatter of paired scores: one point per pair, B across, A up.

    Points above the dotted diagonal are pairs that A wins. A
    cloud stretched along the diagonal means the two scores of a pair move
    together (they share something, such as a training set or a test set),
    and the pairing then removes that shared part from the differences; a
    round cloud means the pairs share nothing that moves the scores. Both axes
    have the same scale. With ``show_correlation`` the correlation of the
    pairs is written in the upper left corner.

    Used in :ref:`ch-procedures`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import paired_scores
    >>> fig, ax = plt.subplots()
    >>> _ = paired_scores(ax, [63.1, 64.0, 62.5, 63.8], [63.9, 64.2, 63.0, 64.6])
    >>> plt.close(fig)
    """
    y = np.asarray(scores_a, dtype=float).ravel()
    x = np.asarray(scores_b, dtype=float).ravel()
    if x.shape != y.shape or x.size < 2:
        raise ValueError(
            "`scores_a` and `scores_b` must be paired, with the same length of at least 2; "
            f"got {y.size} and {x.size}."
        )
    ax.scatter(x, y, s=14, color=color, label=label, linewidths=0, alpha=0.8)
    ax.axline((x.mean(), x.mean()), slope=1, color="black", lw=0.8, ls=":")
    ax.set_aspect("equal", adjustable="datalim")
    if show_correlation:
        r = np.corrcoef(x, y)[0, 1]
        ax.text(0.03, 0.97, f"r = {r:.2f}", transform=ax.transAxes, ha="left", va="top")
    ax.set(xlabel="B", ylabel="A")
    return ax


def _cd_bar_rows(groups: list[tuple[int, ...]], ranks: np.ndarray, gap: float) -> list[int]:
    """A row for every group's bar, so that bars on one row never touch."""
    row_ends: list[float] = []
    rows = []
    for group in groups:
        low, high = ranks[list(group)].min(), ranks[list(group)].max()
        for row, end in enumerate(row_ends):
            if low > end + gap:
                row_ends[row] = high
                rows.append(row)
                break
        else:
            row_ends.append(high)
            rows.append(len(row_ends) - 1)
    return rows


def cd_diagram(result, *, alpha: float = 0.05, ax: Axes | None = None) -> Axes:
    """Critical-difference diagram of a :func:`~sigeval.ranking.friedman` result (Demšar, 2006).

    The models sit on an axis of mean rank, rank 1 (the best) on the left;
    each is labelled with its name and mean rank, the better half on the left
    and the worse half on the right, one row per model so that labels never
    overlap however long the names are. Thick bars join the groups of models
    whose mean ranks differ by less than the Nemenyi critical difference at
    ``alpha`` (maximal groups from :func:`~sigeval.ranking.cd_groups`, each on
    a row where it touches no other bar); the CD itself is drawn above the
    axis with its ``alpha``.

    Used in :ref:`ch-ranking`.

    Parameters
    ----------
    result : FriedmanResult
        Or any object with ``mean_ranks``, ``models`` and ``n_datasets``.
    alpha : float
        Level of the critical difference, in (0, 1).
    ax : matplotlib Axes, optional
        Where to draw; a new figure when omitted.

    Returns
    -------
    Axes

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval import friedman
    >>> from sigeval.plots import cd_diagram
    >>> res = friedman([[0.9, 0.8, 0.7], [0.8, 0.85, 0.6], [0.7, 0.6, 0.5], [0.9, 0.7, 0.8]])
    >>> fig, ax = plt.subplots()
    >>> _ = cd_diagram(res, ax=ax)
    >>> plt.close(fig)
    """
    try:
        ranks = np.asarray(result.mean_ranks, dtype=float)
        models = list(result.models)
        n_datasets = result.n_datasets
    except AttributeError:
        raise TypeError(
            "`result` must be a FriedmanResult (with `mean_ranks`, `models` and `n_datasets`); "
            f"got {type(result).__name__}."
        ) from None
    k = ranks.size
    cd = nemenyi_cd(k, n_datasets, alpha=alpha)
    groups = cd_groups(ranks, cd)
    if ax is None:
        import matplotlib.pyplot as plt

        _, ax = plt.subplots(figsize=(7, 1.2 + 0.25 * k))
    order = np.argsort(ranks, kind="stable")
    n_left = (k + 1) // 2
    left, right = order[:n_left], order[n_left:][::-1]
    bar_rows = _cd_bar_rows(groups, ranks, gap=0.02 * (k - 1))
    n_bar_rows = max(bar_rows, default=-1) + 1

    step = 1.0  # vertical distance between label rows, in data units
    bar_y = [-0.7 - 0.5 * row for row in bar_rows]
    first_label = -0.9 - 0.5 * n_bar_rows
    n_rows = max(len(left), len(right))
    cd_y = 1.3
    y_low, y_high = first_label - step * (n_rows - 1) - 0.6, cd_y + 0.6
    # A font that fits one label per row at this axes' height, so labels never overlap.
    height_pt = ax.get_window_extent().height * 72 / ax.figure.dpi
    fontsize = float(np.clip(0.75 * height_pt / (y_high - y_low), 4, 9))
    # Axis with integer ticks, rank 1 on the left.
    ax.plot([1, k], [0, 0], color="black", lw=1)
    for r in range(1, k + 1):
        ax.plot([r, r], [0, 0.18], color="black", lw=1)
        ax.text(r, 0.3, str(r), ha="center", va="bottom", fontsize=fontsize)
    ax.set_title(
        f"mean rank (1 = best); Nemenyi CD = {cd:.3f} at \u03b1 = {alpha:g}, "
        f"{k} models, N = {n_datasets}",
        fontsize=fontsize,
    )
    # The critical difference as a segment above the axis, from rank 1.
    ax.plot([1, 1 + cd], [cd_y, cd_y], color="black", lw=1.5)
    for x in (1, 1 + cd):
        ax.plot([x, x], [cd_y - 0.15, cd_y + 0.15], color="black", lw=1.5)
    ax.text(1 + cd + 0.02 * (k - 1), cd_y, "CD", ha="left", va="center", fontsize=fontsize)
    # Labels: a row each; the elbow lines never cross because rows grow outwards.
    x_left, x_right = 1 - 0.15 * (k - 1) - 0.3, k + 0.15 * (k - 1) + 0.3
    for side, members, x_end, ha in (("left", left, x_left, "right"), ("right", right, x_right, "left")):
        for row, j in enumerate(members):
            y = first_label - step * row
            ax.plot([ranks[j], ranks[j], x_end], [0, y, y], color="0.35", lw=0.9)
            ax.plot(ranks[j], 0, "o", color="black", ms=3.5, zorder=3)
            pad = -0.08 if side == "left" else 0.08
            ax.text(x_end + pad, y, f"{models[j]} ({ranks[j]:.2f})", ha=ha, va="center",
                    fontsize=fontsize, clip_on=False)
    for group, y in zip(groups, bar_y):
        low, high = ranks[list(group)].min(), ranks[list(group)].max()
        ax.plot([low - 0.03, high + 0.03], [y, y], color="black", lw=4, solid_capstyle="butt",
                zorder=4)
    ax.set(xlim=(x_left, x_right), ylim=(y_low, y_high))
    ax.set_axis_off()
    return ax

"""Two models compared: disagreements, paired scores, intervals, power and verdicts."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .._validation import (
    check_alpha,
    check_binary,
    check_choices,
    check_finite_array,
    check_paired,
    check_positive_int,
    check_positive_real,
    check_probability,
    check_real,
    check_unit_interval,
)
from .._validation_figures import (
    check_given_together,
    check_interval_rows,
    check_same_shape,
    check_sequence,
    check_sizes_at_least,
)
from ..power import power_paired
from ._style import VERDICT_COLORS


def disagreement_table(
    ax: Axes,
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    labels: Sequence[str] = ("A", "B"),
) -> Axes:
    """The 2×2 table of two models' correctness on the same items.

    ``scores_a`` and ``scores_b`` are 0/1 correctness per item. Rows say whether model A is right, columns whether model B is right. The
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


    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"))
    a, b = check_binary(a, "scores_a"), check_binary(b, "scores_b")
    name_a, name_b = check_sequence(labels, "labels", 2, "model")
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
    est = check_finite_array(estimates, "estimates").ravel()
    k = est.size
    bounds = check_interval_rows(intervals, "intervals", k)
    labels = check_sequence(labels, "labels", k, "estimate")
    colors = check_sequence(colors, "colors", k, "estimate") if colors is not None else ["#1f77b4"] * k
    y = np.arange(k)[::-1]
    if reference is not None:
        ax.axvline(check_real(reference, "reference"), color="black", lw=0.8)
    for row, e, (lo, hi), color in zip(y, est, bounds, colors):
        ax.plot([lo, hi], [row, row], color=color, lw=2.5, solid_capstyle="butt")
        ax.plot(e, row, "o", color="white", mec=color, ms=6)
    ax.set_yticks(y, labels)
    ax.set(ylim=(-0.7, k - 0.3))
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
    y, x = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    ax.scatter(x, y, s=14, color=color, label=label, linewidths=0, alpha=0.8)
    ax.axline((x.mean(), x.mean()), slope=1, color="black", lw=0.8, ls=":")
    ax.set_aspect("equal", adjustable="datalim")
    if show_correlation:
        r = np.corrcoef(x, y)[0, 1]
        ax.text(0.03, 0.97, f"r = {r:.2f}", transform=ax.transAxes, ha="left", va="top")
    ax.set(xlabel="B", ylabel="A")
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
    sizes = check_finite_array(n, "n")
    power = check_same_shape(check_probability(check_finite_array(power, "power"), "power"), "power", sizes.shape, "n")
    target_power = check_unit_interval(target_power, "target_power")
    check_given_together(simulated_n=simulated_n, simulated_power=simulated_power)
    ax.plot(sizes, power, color="#1f77b4", lw=1.2, label=label)
    if simulated_n is not None and simulated_power is not None:
        sim_n = check_finite_array(simulated_n, "simulated_n")
        sim_p = check_probability(check_finite_array(simulated_power, "simulated_power"), "simulated_power")
        check_same_shape(sim_p, "simulated_power", sim_n.shape, "simulated_n")
        if n_simulations is None:
            err = None
        else:
            err = 1.96 * np.sqrt(sim_p * (1 - sim_p) / check_positive_int(n_simulations, "n_simulations"))
        ax.errorbar(sim_n, sim_p, yerr=err, fmt="o", ms=3.5, color="black", mfc="white",
                    elinewidth=0.8, capsize=0, label="simulation")
    ax.axhline(target_power, color="black", lw=0.8, ls="--")
    ax.set(xlabel="test-set size $n$", ylabel="power", ylim=(0, 1.02))
    ax.legend(loc="lower right")
    return ax


def power_curve(
    ax: Axes,
    sigma_d: float,
    deltas: Sequence[float],
    n: ArrayLike,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    labels: Sequence[str] | None = None,
) -> Axes:
    """Exact power of the paired t-test against the number of seeds, one curve per true difference.

    For each true mean difference in ``deltas`` draws the noncentral-t power
    of the two-sided paired t-test at level ``alpha`` (:func:`sigeval.power.power_paired`)
    with paired differences of standard deviation ``sigma_d``, at every number
    of seeds (pairs) in ``n``. The dashed line marks ``target_power``, the dotted
    line ``alpha`` (the power at no difference). ``deltas`` and ``sigma_d`` share
    one unit: pass ``sigma_d=1`` to draw differences in units of :math:`\\sigma_d`.
    ``labels`` name the curves (default: the differences).

    Used in :ref:`ch-power`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import power_curve
    >>> fig, ax = plt.subplots()
    >>> _ = power_curve(ax, 1.0, [0.5, 1.0], range(2, 31))
    >>> plt.close(fig)
    """

    sigma_d = check_positive_real(sigma_d, "sigma_d")
    # The paired t-test needs two pairs.
    n = check_sizes_at_least(n, "n", 2)
    deltas = check_finite_array(deltas, "deltas").ravel().tolist()
    alpha = check_alpha(alpha)
    target_power = check_unit_interval(target_power, "target_power")
    if labels is None:
        labels = [f"$\\delta = {delta:g}$" for delta in deltas]
    labels = check_sequence(labels, "labels", len(deltas), "delta")
    for delta, label in zip(deltas, labels):
        power = power_paired(sigma_d, n, alpha=alpha, target_power=target_power, delta=delta).power
        assert power is not None  # computed whenever a `delta` is given
        ax.plot(n, power, lw=1.2, label=label)
    ax.axhline(target_power, color="black", lw=0.8, ls="--")
    ax.axhline(alpha, color="black", lw=0.8, ls=":")
    ax.set(xlabel="number of seeds (pairs) $S$", ylabel="power", ylim=(0, 1.02),
           xlim=(n.min(), n.max()))
    ax.legend(loc="lower right")
    return ax


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

    est = check_finite_array(estimates, "estimates").ravel()
    k = est.size
    wide = check_interval_rows(intervals, "intervals", k)
    narrow = check_interval_rows(tost_intervals, "tost_intervals", k)
    verdicts = check_choices(check_sequence(verdicts, "verdicts", k, "estimate"), "verdicts", tuple(VERDICT_COLORS))
    margin = check_positive_real(margin, "margin")
    if labels is not None:
        labels = check_sequence(labels, "labels", k, "estimate")
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

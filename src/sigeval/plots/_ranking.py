"""Many models or many runs: critical-difference diagrams, error rates, the best of k."""

from __future__ import annotations

from typing import Literal

import numpy as np
from matplotlib.axes import Axes
from matplotlib.ticker import MaxNLocator
from numpy.typing import ArrayLike

from .._validation import _show, check_alpha, check_choice, check_paired, check_probability, check_scores
from .._validation_figures import check_axes, check_result, check_sequence, check_table
from ..multiple import expected_best_of_k
from ..ranking import cd_groups, nemenyi_cd, pairwise_wilcoxon


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


def cd_diagram(
    ax: Axes,
    result,
    *,
    alpha: float | None = None,
    method: Literal["nemenyi", "wilcoxon-holm"] = "nemenyi",
) -> Axes:
    """Critical-difference diagram of a :func:`~sigeval.ranking.friedman` result (Demšar, 2006).

    The models sit on an axis of mean rank, rank 1 (the best) on the left;
    each is labelled with its name and mean rank, the better half on the left
    and the worse half on the right, one row per model so that labels never
    overlap however long the names are. Thick bars join the groups of models
    that the pairwise tests do not separate at ``alpha`` (maximal groups from
    :func:`~sigeval.ranking.cd_groups`, each on a row where it touches no other
    bar). With ``method="nemenyi"`` a pair is separated when its mean ranks
    differ by at least the Nemenyi critical difference, drawn above the axis.
    With ``method="wilcoxon-holm"`` a pair is separated when the Wilcoxon
    signed-rank test on the two models' scores rejects after Holm's adjustment
    (:func:`~sigeval.ranking.pairwise_wilcoxon`), the decisions Benavoli,
    Corani and Mangili (2016) recommend; the bars then join runs of adjacent
    models with no rejected pair, and no CD is drawn.

    Used in :ref:`ch-ranking`.

    Parameters
    ----------
    ax : matplotlib Axes
        Where to draw.
    result : FriedmanResult or ReportFriedman
        The result of :func:`~sigeval.ranking.friedman` or of
        :meth:`sigeval.report.Report.friedman` (drawn from its ``result``),
        or any object with ``mean_ranks``, ``models`` and ``n_tasks``.
    alpha : float, optional
        Family-wise level of the decisions, in (0, 1); by default the result's
        own ``alpha`` where it has one (``Report.friedman``), else 0.05.
    method : {"nemenyi", "wilcoxon-holm"}
        Which pairwise decisions draw the bars; ``"wilcoxon-holm"`` needs the
        result's ``scores`` (and ``higher_is_better``), which
        :func:`~sigeval.ranking.friedman` keeps.

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
    >>> _ = cd_diagram(ax, res)
    >>> _ = cd_diagram(ax, res, method="wilcoxon-holm")
    >>> plt.close(fig)
    """
    check_axes(ax)
    method = check_choice(method, "method", ("nemenyi", "wilcoxon-holm"))
    if alpha is None:
        alpha = getattr(result, "alpha", 0.05)
    alpha = check_alpha(alpha)
    # Report.friedman() keeps the library's FriedmanResult, whose models and ranks are arrays.
    result = getattr(result, "result", result)
    ranks, models, n_tasks = check_result(result, "result", "FriedmanResult", ("mean_ranks", "models", "n_tasks"))
    ranks = check_scores(ranks, "result.mean_ranks", min_size=2)
    k = ranks.size
    outside = (ranks < 1 - 1e-9) | (ranks > k + 1e-9)
    if np.any(outside):
        raise ValueError(
            f"`result.mean_ranks` must lie between 1 and the number of models ({k}); got {_show(ranks[outside])}."
        )
    models = check_sequence(models, "result.models", k, "mean rank")
    if method == "nemenyi":
        cd = nemenyi_cd(k, n_tasks, alpha=alpha)
        groups = cd_groups(ranks, cd)
        title = f"Nemenyi CD = {cd:.3f}"
    else:
        scores, higher_is_better = check_result(
            result, "result", "FriedmanResult", ("scores", "higher_is_better"))
        pairs = pairwise_wilcoxon(scores, higher_is_better=higher_is_better)
        reject = np.zeros((k, k), dtype=bool)
        # The table's models are column indices here: the result's scores are a plain array.
        reject[pairs.model_a.to_numpy(int), pairs.model_b.to_numpy(int)] = pairs.pvalue_adjusted <= alpha
        groups = cd_groups(ranks, reject=reject)
        title = "Wilcoxon signed-rank, Holm"
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
        f"mean rank (1 = best); {title} at \u03b1 = {alpha:g}, {k} models, N = {n_tasks}",
        fontsize=fontsize,
    )
    if method == "nemenyi":
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
            # parse_math=False: a "$" in a model's name is text, not the start of a formula.
            ax.text(x_end + pad, y, f"{models[j]} ({ranks[j]:.2f})", ha=ha, va="center",
                    fontsize=fontsize, clip_on=False, parse_math=False)
    for group, y in zip(groups, bar_y):
        low, high = ranks[list(group)].min(), ranks[list(group)].max()
        ax.plot([low - 0.03, high + 0.03], [y, y], color="black", lw=4, solid_capstyle="butt",
                zorder=4)
    ax.set(xlim=(x_left, x_right), ylim=(y_low, y_high))
    ax.set_axis_off()
    return ax


def error_rates(ax: Axes, rates, *, alpha: float | None = 0.05) -> Axes:
    """Grouped bars of error rates (or power) per multiple-testing procedure.

    ``rates`` is a DataFrame with one row per procedure and one column per
    measure (for example ``FWER``, ``FDR`` and ``power``); each measure is a
    group of bars, one bar per procedure, labelled with its value. ``alpha``,
    if given, draws the nominal level as a dashed line.

    Used in :ref:`ch-multiple`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> from sigeval.plots import error_rates
    >>> rates = pd.DataFrame({"FWER": [0.64, 0.05], "power": [0.9, 0.5]}, index=["none", "holm"])
    >>> fig, ax = plt.subplots()
    >>> _ = error_rates(ax, rates)
    >>> plt.close(fig)
    """
    values = check_probability(check_table(rates, "rates"), "rates")
    if alpha is not None:
        alpha = check_alpha(alpha)
    methods, measures = list(rates.index), list(rates.columns)
    n_methods = len(methods)
    width = 0.8 / n_methods
    x = np.arange(len(measures))
    colors = ["#7f7f7f", "#1f77b4", "#2ca02c", "#9467bd", "#d62728", "#ff7f0e"]
    for i, method in enumerate(methods):
        pos = x - 0.4 + width * (i + 0.5)
        ax.bar(pos, values[i], width=width * 0.95, color=colors[i % len(colors)], label=str(method))
        for xi, v in zip(pos, values[i]):
            ax.text(xi, v + 0.01, f"{v:.2f}", ha="center", va="bottom", fontsize=7)
    if alpha is not None:
        ax.axhline(alpha, color="black", ls="--", lw=0.8)
        ax.text(x[-1] + 0.45, alpha, f"\u03b1 = {alpha:g}", ha="right", va="bottom", fontsize=8)
    ax.set_xticks(x, measures)
    ax.set(ylim=(0, 1.08), xlim=(-0.5, len(measures) - 0.5))
    ax.legend(fontsize=8, ncols=min(n_methods, 5), loc="upper left", frameon=False)
    return ax


def best_of_k(
    ax: Axes,
    scores: ArrayLike,
    *,
    values: ArrayLike | None = None,
    label: str = "",
    color: str = "#1f77b4",
) -> Axes:
    """The expected best of ``k`` runs against ``k``, from one sweep of ``n`` runs.

    Draws :func:`~sigeval.multiple.expected_best_of_k` of ``scores`` for
    ``k = 1..n`` (solid). With ``values`` (each run's score elsewhere, such as
    on fresh images) it adds the expected value of the selected run (dashed)
    and the mean of ``values`` (dotted): the gap between solid and dashed is
    what selecting on ``scores`` overstates.

    Used in :ref:`ch-multiple`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import best_of_k
    >>> fig, ax = plt.subplots()
    >>> _ = best_of_k(ax, [0.60, 0.62, 0.61, 0.65], values=[0.61, 0.60, 0.62, 0.61])
    >>> plt.close(fig)
    """
    if values is None:
        x = check_scores(scores, "scores")
    else:
        x, values = check_paired(scores, values, ("scores", "values"))
    k = np.arange(1, x.size + 1)
    prefix = f"{label}: " if label else ""
    ax.plot(k, expected_best_of_k(x, k), color=color, lw=1.8, label=f"{prefix}best reported score")
    if values is not None:
        ax.plot(k, expected_best_of_k(x, k, values=values), color=color, lw=1.4, ls="--",
                label=f"{prefix}selected run, elsewhere")
        ax.axhline(float(np.mean(values)), color=color, lw=0.9, ls=":",
                   label=f"{prefix}mean of all runs, elsewhere")
    ax.set(xlabel="runs trained, k (best one reported)", xlim=(1, x.size))
    ax.xaxis.set_major_locator(MaxNLocator(integer=True))
    return ax

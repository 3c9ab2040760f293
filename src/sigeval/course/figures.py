"""The figures that only the course draws: its benchmark images and seed sweeps.

Each function draws on a Matplotlib ``ax`` that the caller provides and returns
it. The figures any user may want (coverage curves, bootstrap distributions,
interval forests, power curves) are in :mod:`sigeval.plots`.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .._validation import (
    check_finite_array,
    check_paired,
    check_positive_int,
    check_probability,
    check_real,
    check_scores,
)
from .._validation_figures import (
    check_binary_matrix,
    check_columns,
    check_positive_array,
    check_same_shape,
    check_sequence,
    check_table,
)

__all__ = [
    "correctness_grid",
    "variance_components",
    "scatter_test_vs_true",
    "image_grid",
    "accuracy_histogram",
    "difference_histogram",
    "seed_spread",
]


def correctness_grid(
    ax: Axes,
    correct: ArrayLike,
    *,
    xlabel: str = "test item",
    ylabel: str = "training run",
) -> Axes:
    """Which items each model answers correctly: one row per model, one column per item.

    Light cells are correct answers, dark cells mistakes. Sorting the columns
    by difficulty shows at a glance which mistakes the models share and which
    belong to one model alone.

    Used in :ref:`ch-noise`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.course.figures import correctness_grid
    >>> fig, ax = plt.subplots()
    >>> _ = correctness_grid(ax, [[True, False, True], [True, True, False]])
    >>> plt.close(fig)
    """
    from matplotlib.colors import ListedColormap

    grid = check_binary_matrix(correct, "correct")
    ax.imshow(
        grid,
        cmap=ListedColormap(["#3b3b3b", "#e6e6e6"]),
        vmin=0,
        vmax=1,
        aspect="auto",
        interpolation="nearest",
    )
    ax.set(xlabel=xlabel, ylabel=ylabel, xticks=[], yticks=[])
    return ax


def variance_components(
    ax: Axes,
    n: ArrayLike,
    sampling_sd: ArrayLike,
    training_sd: ArrayLike,
    *,
    observed_sd: ArrayLike | None = None,
) -> Axes:
    """Standard deviation of a score and its two components against the test-set size.

    Draws the test-set sampling term, the training term and their total
    ``sqrt(sampling_sd**2 + training_sd**2)`` on log-log axes, where a term
    that shrinks like :math:`1/\\sqrt n` is a straight line of slope -1/2.
    ``training_sd`` may be a single number. ``observed_sd``, if given, marks
    standard deviations measured at the same sizes ``n``.

    Used in :ref:`ch-noise`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.course.figures import variance_components
    >>> n = [100, 1000, 10000]
    >>> fig, ax = plt.subplots()
    >>> _ = variance_components(ax, n, [0.036, 0.011, 0.0036], 0.004)
    >>> plt.close(fig)
    """
    sizes = check_positive_array(n, "n")
    sampling = check_same_shape(check_positive_array(sampling_sd, "sampling_sd", allow_zero=True),
                                "sampling_sd", sizes.shape, "n")
    training = check_positive_array(training_sd, "training_sd", allow_zero=True)
    if training.size != 1:  # one number for every size, or one per size
        check_same_shape(training, "training_sd", sizes.shape, "n")
    training = np.broadcast_to(training, sizes.shape)
    ax.plot(sizes, np.hypot(sampling, training), color="black", lw=1.2, label="total")
    ax.plot(sizes, sampling, color="#1f77b4", lw=1.0, ls="--", label="test-set sampling")
    ax.plot(sizes, training, color="#d62728", lw=1.0, ls=":", label="training randomness")
    if observed_sd is not None:
        observed = check_same_shape(check_positive_array(observed_sd, "observed_sd", allow_zero=True),
                                    "observed_sd", sizes.shape, "n")
        ax.plot(sizes, observed, "o", ms=4, mfc="none", color="black",
                label="simulated total")
    ax.set(xscale="log", yscale="log", xlabel="test-set size $n$", ylabel="standard deviation of the score")
    ax.legend(loc="upper right")
    return ax


def scatter_test_vs_true(
    ax: Axes,
    true_scores: ArrayLike,
    test_scores: ArrayLike,
    *,
    label: str | None = None,
    color: str | None = None,
) -> Axes:
    """Scatter of each run's test-set score against its true (population) score.

    One point per run; the dotted diagonal is where a test score equals the
    true score. Both axes have the same scale, so a cloud taller than it is
    wide means the test scores spread more than the true scores. Call it once
    per test set to compare several on one ``ax``.

    Used in :ref:`ch-noise`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.course.figures import scatter_test_vs_true
    >>> fig, ax = plt.subplots()
    >>> _ = scatter_test_vs_true(ax, [0.84, 0.85, 0.86], [0.85, 0.84, 0.87])
    >>> plt.close(fig)
    """
    x, y = check_paired(true_scores, test_scores, ("true_scores", "test_scores"))
    ax.scatter(x, y, s=9, alpha=0.6, color=color, label=label, linewidths=0)
    ax.axline((x.mean(), x.mean()), slope=1, color="black", lw=0.8, ls=":")
    ax.set(xlabel="true accuracy $a(\\xi)$", ylabel="test-set accuracy")
    ax.set_aspect("equal", adjustable="datalim")  # one point is the same length on both axes
    return ax


def image_grid(
    axes: np.ndarray,
    images: ArrayLike,
    *,
    row_labels: Sequence[str] | None = None,
    col_labels: Sequence[str] | None = None,
    vmin: float | None = None,
    vmax: float | None = None,
    cmap: str = "gray",
) -> np.ndarray:
    """Grayscale images on a grid of axes, one image per axes, on one common scale.

    Unlike the other functions here this one takes a whole 2-D array of axes,
    as ``plt.subplots(rows, cols, squeeze=False)`` returns it, and ``images``
    of shape ``(rows, cols, height, width)``: ``images[i, j]`` is drawn on
    ``axes[i, j]``. All images share one gray scale (by default from the
    smallest to the largest pixel of all of them), so that brightness can be
    compared across the grid. Ticks are removed; ``row_labels`` label the
    first column and ``col_labels`` title the first row.

    Used in :ref:`ch-benchmark`.

    Returns
    -------
    numpy.ndarray
        The same ``axes``.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.course.figures import image_grid
    >>> fig, axes = plt.subplots(2, 3, squeeze=False)
    >>> _ = image_grid(axes, np.zeros((2, 3, 16, 16)), row_labels=["a", "b"])
    >>> plt.close(fig)
    """
    axes = np.asarray(axes)
    pictures = check_finite_array(images, "images")
    if axes.ndim != 2 or pictures.ndim != 4 or pictures.shape[:2] != axes.shape:
        raise ValueError(
            "`images` must have shape (rows, cols, height, width) matching a 2-D array of `axes`; "
            f"got images of shape {pictures.shape} and axes of shape {axes.shape}."
        )
    low = float(pictures.min()) if vmin is None else check_real(vmin, "vmin")
    high = float(pictures.max()) if vmax is None else check_real(vmax, "vmax")
    for (i, j), ax in np.ndenumerate(axes):
        ax.imshow(pictures[i, j], cmap=cmap, vmin=low, vmax=high, interpolation="nearest")
        ax.set(xticks=[], yticks=[])
    for ax, label in zip(axes[:, 0], row_labels or ()):
        ax.set_ylabel(label)
    for ax, label in zip(axes[0], col_labels or ()):
        ax.set_title(label)
    return axes


def accuracy_histogram(
    ax: Axes,
    accuracies: ArrayLike,
    n: int,
    population_accuracy: float,
    *,
    color: str | None = "#1f77b4",
    label: str = "test sets",
) -> Axes:
    """Test accuracies of one model on many test sets of size ``n``, against the binomial.

    Each possible accuracy :math:`k/n` gets its own bar, the fraction of test
    sets that scored it; the black line is the :math:`\\mathrm{Binomial}(n, a)`
    probability of each :math:`k`, with :math:`a` the ``population_accuracy``,
    which the dashed vertical line marks.

    Used in :ref:`ch-benchmark`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.course.figures import accuracy_histogram
    >>> fig, ax = plt.subplots()
    >>> _ = accuracy_histogram(ax, [0.84, 0.85, 0.85, 0.86], 100, 0.85)
    >>> plt.close(fig)
    """
    from scipy.stats import binom

    scores = check_probability(check_scores(accuracies, "accuracies"), "accuracies")
    n = check_positive_int(n, "n")
    population_accuracy = float(check_probability(check_real(population_accuracy, "population_accuracy"),
                                                  "population_accuracy"))
    counts = np.rint(scores * n).astype(int)
    values, freq = np.unique(counts, return_counts=True)
    ax.bar(values / n, freq / scores.size, width=1 / n, color=color, alpha=0.6, label=label)
    k = np.arange(values.min() - 3, values.max() + 4)
    k = k[(k >= 0) & (k <= n)]
    ax.plot(k / n, binom.pmf(k, n, population_accuracy), color="black", lw=1.0,
            label=f"Binomial($n={n}$, $a$)")
    ax.axvline(population_accuracy, color="black", lw=0.8, ls="--", label="population accuracy $a$")
    ax.set(xlabel="test-set accuracy", ylabel="fraction of test sets")
    ax.legend(loc="upper left")
    return ax


def difference_histogram(
    ax: Axes,
    differences: ArrayLike,
    n: int,
    population_difference: float,
) -> Axes:
    """Differences of two models' test accuracies over many test sets, by sign.

    One bar per observed value (differences of accuracies on test sets of
    ``n`` items are multiples of :math:`1/n`). Bars are blue where the test set ranks the
    models as the population does, red where it ranks them the other way and
    grey at a tie; the dashed line marks the ``population_difference``.

    Used in :ref:`ch-benchmark`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.course.figures import difference_histogram
    >>> fig, ax = plt.subplots()
    >>> _ = difference_histogram(ax, [-0.01, 0.0, 0.01, 0.02, 0.02], 100, 0.015)
    >>> plt.close(fig)
    """
    diffs = check_scores(differences, "differences")
    n = check_positive_int(n, "n")
    population_difference = check_real(population_difference, "population_difference")
    steps, freq = np.unique(np.rint(diffs * n).astype(int), return_counts=True)
    sign = np.sign(steps) * (1 if population_difference >= 0 else -1)
    colors = np.where(sign > 0, "#1f77b4", np.where(sign < 0, "#d62728", "#7f7f7f"))
    ax.bar(steps / n, freq / diffs.size, width=1 / n, color=colors, alpha=0.8)
    ax.axvline(population_difference, color="black", lw=0.8, ls="--")
    ax.axvline(0, color="black", lw=0.6)
    ax.set(xlabel="difference of test accuracies", ylabel="fraction of test sets")
    return ax


def seed_spread(
    ax: Axes,
    runs,
    *,
    by: str = "hidden",
    scores: Sequence[str] = ("test_acc", "fresh_acc"),
    labels: Sequence[str] | None = None,
    group_format: str = "{}",
    colors: Sequence[str] | None = None,
    connect: bool = True,
    width: float = 0.5,
) -> Axes:
    """Strip plot of a seed sweep: one dot per run, for each group and each score.

    For every value of the column ``by`` of the table ``runs`` (for example the
    width of the network), the score columns ``scores`` are drawn side by side,
    one dot per run, spread sideways in the order of the rows so that equal
    scores stay visible. A short black bar marks each column's mean. With
    ``connect=True`` a thin line joins the scores of the same run, so lines
    that cross show runs whose order changes from one score to the other.

    Used in :ref:`ch-training-randomness`.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    runs : pandas.DataFrame
        One row per run, with the column ``by`` and the columns ``scores``.
    by : str
        Column that defines the groups, drawn left to right in sorted order.
    scores : sequence of str
        Score columns drawn for each group.
    labels : sequence of str, optional
        Names of the score columns for the legend; the column names by default.
    group_format : str
        Format of a group's tick label, e.g. ``"{} hidden units"``.
    colors : sequence of str, optional
        One colour per score column.
    connect : bool
        Join the scores of the same run with a line.
    width : float
        Width of a column of dots, in units of the spacing between columns.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import pandas as pd
    >>> from sigeval.course.figures import seed_spread
    >>> runs = pd.DataFrame({"hidden": [32, 32, 64, 64], "test_acc": [0.63, 0.65, 0.64, 0.66],
    ...                      "fresh_acc": [0.637, 0.640, 0.643, 0.645]})
    >>> fig, ax = plt.subplots()
    >>> _ = seed_spread(ax, runs)
    >>> plt.close(fig)
    """
    scores = list(scores)
    check_columns(runs, "runs", [by, *scores])
    check_table(runs[scores], f"runs[{scores!r}]")  # NaN (a failed run) would vanish from the plot
    labels = check_sequence(scores if labels is None else labels, "labels", len(scores), "score column")
    palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd"]
    colors = palette[: len(scores)] if colors is None else list(colors)
    groups = sorted(runs[by].unique())
    step = len(scores) + 1  # one empty column between groups
    for g, group in enumerate(groups):
        values = runs.loc[runs[by] == group, scores].to_numpy(dtype=float)
        offsets = np.linspace(-width / 2, width / 2, len(values)) if len(values) > 1 else np.zeros(1)
        x = g * step + np.arange(len(scores))[None, :] + offsets[:, None]
        if connect and len(scores) > 1:
            ax.plot(x.T, values.T, color="grey", lw=0.5, alpha=0.5, zorder=1)
        for j in range(len(scores)):
            ax.scatter(x[:, j], values[:, j], s=14, color=colors[j], zorder=2,
                       label=labels[j] if g == 0 else None, linewidths=0)
            centre = g * step + j
            ax.plot([centre - width / 2 - 0.1, centre + width / 2 + 0.1], [values[:, j].mean()] * 2,
                    color="black", lw=1.4, zorder=3)
    ax.set_xticks([g * step + (len(scores) - 1) / 2 for g in range(len(groups))],
                  [group_format.format(group) for group in groups])
    ax.set_xlim(-0.5 - width / 2, (len(groups) - 1) * step + len(scores) - 0.5 + width / 2)
    ax.set_ylabel("accuracy")
    ax.legend(loc="best")
    return ax

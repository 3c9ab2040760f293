"""The figures the chapters draw.

Each function draws on a Matplotlib ``ax`` that the caller provides and returns
it, so a chapter (or a reader) controls the figure layout, size and saving.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .intervals import coverage

__all__ = [
    "METHOD_COLORS",
    "coverage_vs_p",
    "coverage_vs_n",
    "correctness_grid",
    "variance_components",
    "scatter_test_vs_true",
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

    Used in the chapter *Intervals for one score*.

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

    Used in the chapter *Intervals for one score*.

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

    Used in the chapter *Why scores are noisy*.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import correctness_grid
    >>> fig, ax = plt.subplots()
    >>> _ = correctness_grid(ax, [[True, False, True], [True, True, False]])
    >>> plt.close(fig)
    """
    from matplotlib.colors import ListedColormap

    grid = np.asarray(correct, dtype=bool)
    if grid.ndim != 2:
        raise ValueError(f"`correct` must be a 2-D array (models x items); got {grid.ndim} dimensions.")
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

    Used in the chapter *Why scores are noisy*.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import variance_components
    >>> n = [100, 1000, 10000]
    >>> fig, ax = plt.subplots()
    >>> _ = variance_components(ax, n, [0.036, 0.011, 0.0036], 0.004)
    >>> plt.close(fig)
    """
    sizes = np.asarray(n, dtype=float)
    sampling = np.broadcast_to(np.asarray(sampling_sd, dtype=float), sizes.shape)
    training = np.broadcast_to(np.asarray(training_sd, dtype=float), sizes.shape)
    ax.plot(sizes, np.hypot(sampling, training), color="black", lw=1.2, label="total")
    ax.plot(sizes, sampling, color="#1f77b4", lw=1.0, ls="--", label="test-set sampling")
    ax.plot(sizes, training, color="#d62728", lw=1.0, ls=":", label="training randomness")
    if observed_sd is not None:
        ax.plot(sizes, np.asarray(observed_sd, dtype=float), "o", ms=4, mfc="none", color="black",
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

    Used in the chapter *Why scores are noisy*.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval.plots import scatter_test_vs_true
    >>> fig, ax = plt.subplots()
    >>> _ = scatter_test_vs_true(ax, [0.84, 0.85, 0.86], [0.85, 0.84, 0.87])
    >>> plt.close(fig)
    """
    x = np.asarray(true_scores, dtype=float)
    y = np.asarray(test_scores, dtype=float)
    if x.shape != y.shape:
        raise ValueError(
            f"`true_scores` and `test_scores` must have the same shape; got {x.shape} and {y.shape}."
        )
    ax.scatter(x, y, s=9, alpha=0.6, color=color, label=label, linewidths=0)
    ax.axline((x.mean(), x.mean()), slope=1, color="black", lw=0.8, ls=":")
    ax.set(xlabel="true accuracy $a(\\xi)$", ylabel="test-set accuracy")
    ax.set_aspect("equal", adjustable="datalim")  # one point is the same length on both axes
    return ax

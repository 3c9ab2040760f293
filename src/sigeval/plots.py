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

__all__ = ["METHOD_COLORS", "coverage_vs_p", "coverage_vs_n"]

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

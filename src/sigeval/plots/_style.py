"""Colours and marks shared by the figures of :mod:`sigeval.plots`."""

from __future__ import annotations

from matplotlib.axes import Axes

# One colour per interval method, kept across every figure of the book.
METHOD_COLORS = {
    "wald": "#d62728",
    "wilson": "#1f77b4",
    "agresti-coull": "#2ca02c",
    "jeffreys": "#9467bd",
    "clopper-pearson": "#7f7f7f",
}


#: One colour per verdict of :func:`sigeval.equivalence.verdict`, kept across the book.
VERDICT_COLORS = {
    "different": "#d62728",
    "equivalent": "#2ca02c",
    "trivial": "#ff7f0e",
    "undetermined": "#7f7f7f",
}


# One colour per bootstrap interval, beside METHOD_COLORS for the binomial ones.
BOOTSTRAP_COLORS = {
    "percentile": "#ff7f0e",
    "basic": "#8c564b",
    "bca": "#e377c2",
}


def _interval_color(name: str, default: str | None = "black") -> str | None:
    key = name.lower()
    return BOOTSTRAP_COLORS.get(key) or METHOD_COLORS.get(key) or default


def _nominal_line(ax: Axes, confidence_level: float) -> None:
    ax.axhline(confidence_level, color="black", lw=0.8, ls="--")

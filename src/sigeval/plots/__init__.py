"""The figures the chapters draw.

Each function draws on a Matplotlib ``ax`` that the caller provides and returns
it, so a chapter (or a reader) controls the figure layout, size and saving.
The functions live in private modules grouped by idea (coverage, the
bootstrap, comparisons of two models, many models, posteriors, aggregates over tasks,
sequential comparisons) and are used from here:
``from sigeval.plots import cd_diagram``.
"""

from . import _style
from ._aggregate import aggregate_intervals, performance_profiles
from ._bayes import posterior_density, posterior_simplex
from ._bootstrap import bootstrap_distribution
from ._comparison import (
    disagreement_table,
    interval_forest,
    paired_scores,
    power_curve,
    power_vs_test_size,
    verdict_intervals,
)
from ._coverage import coverage_curves, coverage_vs_n, coverage_vs_p
from ._ranking import best_of_k, cd_diagram, error_rates
from ._sequential import confidence_sequence_plot, group_sequential_plot

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
    "error_rates",
    "confidence_sequence_plot",
    "group_sequential_plot",
    "best_of_k",
    "posterior_density",
    "posterior_simplex",
    "aggregate_intervals",
    "performance_profiles",
]

# The palettes are bound here rather than imported so that their ``#:``
# comments document them on the API page (autodoc reads this file's comments).
#: One colour per binomial interval method of :func:`sigeval.intervals.proportion_ci`, kept across the book.
METHOD_COLORS = _style.METHOD_COLORS
#: One colour per bootstrap interval method of :func:`sigeval.resampling.bootstrap_ci`, beside :data:`METHOD_COLORS`.
BOOTSTRAP_COLORS = _style.BOOTSTRAP_COLORS
#: One colour per verdict of :func:`sigeval.equivalence.verdict`, kept across the book.
VERDICT_COLORS = _style.VERDICT_COLORS

"""Coverage of interval procedures: exact binomial coverage and any procedure's curves."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike

from .._validation import (
    check_choices,
    check_finite_array,
    check_positive_int,
    check_probability,
    check_real,
    check_sizes,
    check_unit_interval,
)
from .._validation_figures import check_mapping, check_same_shape
from ..intervals import METHODS, IntervalMethod, coverage
from ._style import METHOD_COLORS, _interval_color, _nominal_line


def coverage_vs_p(
    ax: Axes,
    n: int,
    *,
    methods: Sequence[IntervalMethod] = ("wald", "wilson"),
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
    n = check_positive_int(n, "n")
    methods = check_choices(methods, "methods", METHODS)
    p_grid = np.linspace(0.001, 0.999, 999) if p is None else check_probability(check_finite_array(p, "p"), "p")
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
    methods: Sequence[IntervalMethod] = ("wald", "wilson"),
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
    p = float(check_probability(check_real(p, "p"), "p"))
    methods = check_choices(methods, "methods", METHODS)
    sizes = np.arange(10, 1001) if n is None else check_sizes(n, "n")
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


def coverage_curves(
    ax: Axes,
    p: ArrayLike,
    coverages: Mapping[str, ArrayLike],
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
    grid = check_finite_array(p, "p")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    for name, values in check_mapping(coverages, "coverages", "its coverage at each `p`").items():
        key = f"coverages[{name!r}]"
        values = check_same_shape(check_probability(check_finite_array(values, key), key), key, grid.shape, "p")
        ax.plot(grid, values, lw=0.9, color=_interval_color(name, default=None), label=name)
    _nominal_line(ax, confidence_level)
    ax.set(xlabel="true proportion $p$", ylabel="coverage")
    ax.legend(loc="lower left")
    return ax

"""Aggregate scores over tasks: interval estimates of several aggregates, performance profiles with bands."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from matplotlib.axes import Axes

from .._validation import check_finite_array, check_interval
from .._validation_figures import check_mapping, check_result, check_same_shape, check_sequence

_PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f")

_AGGREGATE_NAMES = {"iqm": "IQM", "mean": "mean", "median": "median", "optimality_gap": "optimality gap"}


def _colors(colors: Sequence[str] | None, k: int) -> list:
    if colors is not None:
        return check_sequence(colors, "colors", k, "model")
    return [_PALETTE[i % len(_PALETTE)] for i in range(k)]


def aggregate_intervals(
    ax: Axes,
    results: Mapping[str, Sequence],
    *,
    colors: Sequence[str] | None = None,
) -> Axes:
    """Interval estimates of several aggregates for several models, grouped by aggregate.

    ``results`` maps each model's name to its
    :class:`~sigeval.aggregate.AggregateInterval` results (from
    :func:`~sigeval.aggregate.aggregate_ci`), one per aggregate, the same
    aggregates in the same order for every model. Each aggregate gets a band
    of rows, one row per model in its colour: a bar for the interval and a
    tick for the estimate, as Agarwal et al. (2021) draw them. Lower is better
    for the optimality gap, higher for the others.

    Used in :ref:`ch-ranking`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sigeval import aggregate_ci
    >>> from sigeval.plots import aggregate_intervals
    >>> rng = np.random.default_rng(0)
    >>> scores = {"A": rng.normal(1.0, 0.3, (5, 12)), "B": rng.normal(0.9, 0.3, (5, 12))}
    >>> results = {m: [aggregate_ci(s, statistic=a, n_resamples=500, rng=1) for a in ("iqm", "mean")]
    ...            for m, s in scores.items()}
    >>> fig, ax = plt.subplots()
    >>> _ = aggregate_intervals(ax, results)
    >>> plt.close(fig)
    """
    results = check_mapping(results, "results", "a sequence of AggregateInterval results")
    models = list(results)
    colors = _colors(colors, len(models))
    rows: dict[str, list] = {}
    order: list[str] | None = None
    for model in models:
        entries = results[model]
        if isinstance(entries, str | bytes) or not isinstance(entries, Sequence) or not entries:
            raise TypeError(
                f"`results[{model!r}]` must be a non-empty sequence of AggregateInterval results; got {entries!r}."
            )
        names = []
        for j, entry in enumerate(entries):
            name, estimate, bounds = check_result(
                entry, f"results[{model!r}][{j}]", "AggregateInterval", ("aggregate", "estimate", "confidence_interval")
            )
            low, high = check_interval(bounds, f"results[{model!r}][{j}].confidence_interval")
            estimate = float(check_finite_array(estimate, f"results[{model!r}][{j}].estimate"))
            names.append(str(name))
            rows.setdefault(str(name), []).append((model, estimate, low, high))
        if order is None:
            order = names
        elif names != order:
            raise ValueError(
                f"`results` must hold the same aggregates in the same order for every model; "
                f"{models[0]!r} has {order}, {model!r} has {names}."
            )
    assert order is not None
    k = len(models)
    ticks, labels = [], []
    for g, name in enumerate(order):
        top = g * (k + 1)
        for i, ((model, estimate, low, high), color) in enumerate(zip(rows[name], colors)):
            y = -(top + i)
            ax.plot([low, high], [y, y], color=color, lw=6, alpha=0.55, solid_capstyle="butt",
                    label=model if g == 0 else None)
            ax.plot([estimate, estimate], [y - 0.35, y + 0.35], color="black", lw=1.5)
        ticks.append(-(top + (k - 1) / 2))
        labels.append(_AGGREGATE_NAMES.get(name, name))
    ax.set_yticks(ticks, labels)
    ax.set(xlabel="normalised score", ylim=(-(len(order) * (k + 1) - 1) - 0.2, 0.8))
    ax.legend(loc="best", fontsize="small")
    return ax


def performance_profiles(
    ax: Axes,
    profiles: Mapping,
    *,
    colors: Sequence[str] | None = None,
) -> Axes:
    """Performance profiles of several models with their bootstrap bands.

    ``profiles`` maps each model's name to its
    :class:`~sigeval.aggregate.PerformanceProfile` (from
    :func:`~sigeval.aggregate.performance_profile`): the fraction of runs
    scoring above each threshold :math:`\\tau`, drawn as a line, with its
    pointwise stratified-bootstrap band shaded. A curve above another at every
    threshold is stochastic dominance (Agarwal et al., 2021).

    Used in :ref:`ch-ranking`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sigeval import performance_profile
    >>> from sigeval.plots import performance_profiles
    >>> rng = np.random.default_rng(0)
    >>> taus = np.linspace(0, 2, 41)
    >>> profiles = {m: performance_profile(rng.normal(mu, 0.3, (5, 12)), taus, n_resamples=300, rng=1)
    ...             for m, mu in (("A", 1.0), ("B", 0.8))}
    >>> fig, ax = plt.subplots()
    >>> _ = performance_profiles(ax, profiles)
    >>> plt.close(fig)
    """
    profiles = check_mapping(profiles, "profiles", "a PerformanceProfile")
    colors = _colors(colors, len(profiles))
    for (model, profile), color in zip(profiles.items(), colors):
        where = f"profiles[{model!r}]"
        taus, estimate, bounds = check_result(
            profile, where, "PerformanceProfile", ("taus", "estimate", "confidence_interval")
        )
        taus = check_finite_array(taus, f"{where}.taus").ravel()
        estimate = check_same_shape(check_finite_array(estimate, f"{where}.estimate"), f"{where}.estimate",
                                    taus.shape, f"{where}.taus")
        low, high = (
            check_same_shape(check_finite_array(b, f"{where}.confidence_interval"), f"{where}.confidence_interval",
                             taus.shape, f"{where}.taus")
            for b in bounds
        )
        ax.fill_between(taus, low, high, color=color, alpha=0.25, lw=0)
        ax.plot(taus, estimate, color=color, lw=1.5, label=str(model))
    ax.set(xlabel=r"normalised score $\tau$", ylabel=r"fraction of runs with score > $\tau$", ylim=(-0.02, 1.02))
    ax.legend(loc="best", fontsize="small")
    return ax

"""sigeval.plots: lattice-aligned bootstrap histograms, and every figure function runs."""

import dataclasses

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sigeval import (  # noqa: E402
    bootstrap_ci,
    paired_bootstrap_ci,
    plots,  # noqa: E402
)
from sigeval.course import figures  # noqa: E402


@pytest.fixture
def ax():
    fig, ax = plt.subplots()
    yield ax
    plt.close(fig)


def _bar_edges(ax):
    """Left edges of the histogram bars, and the right edge of the last one."""
    bars = sorted(ax.patches, key=lambda p: p.get_x())
    return np.array([p.get_x() for p in bars] + [bars[-1].get_x() + bars[-1].get_width()])


def test_noisy_lattice_gets_lattice_aligned_bins(ax):
    # A difference of accuracies on 1,000 items, computed by a callable: multiples
    # of 1/1000 up to float rounding (0.016 next to 0.016000000000000014).
    rng = np.random.default_rng(0)
    a, b = rng.random(1000) < 0.87, rng.random(1000) < 0.85
    res = paired_bootstrap_ci(a, b, statistic=lambda x, axis: x.mean(axis=axis), n_resamples=2000, rng=1)
    dist = res.bootstrap_distribution
    counts = np.rint(dist * 1000)
    assert np.allclose(dist * 1000, counts, rtol=0, atol=1e-9)
    assert np.unique(dist).size > np.unique(counts).size, "the data must carry float noise"

    plots.bootstrap_distribution(ax, res, intervals={})
    edges = _bar_edges(ax) * 1000
    # Every edge lies halfway between two lattice points, every bin is a whole
    # number of steps wide (the same number for all) and holds every count.
    np.testing.assert_allclose(edges - 0.5, np.rint(edges - 0.5), rtol=0, atol=1e-6)
    widths = np.diff(edges)
    np.testing.assert_allclose(widths, widths[0], rtol=0, atol=1e-6)
    assert round(widths[0]) >= 1
    assert edges[0] < counts.min() and counts.max() < edges[-1]
    # With the noise rounded away the histogram is the same.
    fig2, ax2 = plt.subplots()
    exact = dataclasses.replace(res, bootstrap_distribution=counts / 1000)
    plots.bootstrap_distribution(ax2, exact, intervals={})
    np.testing.assert_allclose(_bar_edges(ax2) * 1000, edges, rtol=0, atol=1e-6)
    np.testing.assert_allclose([p.get_height() for p in sorted(ax2.patches, key=lambda p: p.get_x())],
                               [p.get_height() for p in sorted(ax.patches, key=lambda p: p.get_x())])
    plt.close(fig2)


def test_continuous_values_get_at_most_60_bins(ax):
    res = bootstrap_ci(np.random.default_rng(0).normal(size=300), n_resamples=5000, rng=0)
    plots.bootstrap_distribution(ax, res)
    assert 2 <= len(ax.patches) <= 60


def _smoke_calls():
    runs = pd.DataFrame({"hidden": [8, 8, 16, 16], "test_acc": [0.6, 0.62, 0.63, 0.61],
                         "fresh_acc": [0.61, 0.615, 0.62, 0.618]})
    res = bootstrap_ci(np.r_[np.ones(17), np.zeros(3)], n_resamples=200, rng=0)
    return {
        "coverage_vs_p": lambda ax: plots.coverage_vs_p(ax, 10, p=[0.2, 0.5, 0.8]),
        "coverage_vs_n": lambda ax: plots.coverage_vs_n(ax, 0.9, n=[10, 20, 30]),
        "coverage_curves": lambda ax: plots.coverage_curves(ax, [0.5, 0.9], {"bca": [0.94, 0.9]}),
        "correctness_grid": lambda ax: figures.correctness_grid(ax, [[1, 0, 1], [1, 1, 0]]),
        "variance_components": lambda ax: figures.variance_components(ax, [10, 100], [0.1, 0.03], 0.01,
                                                                    observed_sd=[0.1, 0.04]),
        "scatter_test_vs_true": lambda ax: figures.scatter_test_vs_true(ax, [0.8, 0.81], [0.79, 0.83]),
        "image_grid": lambda ax: figures.image_grid(np.array([[ax]]), np.zeros((1, 1, 4, 4)),
                                                  row_labels=["r"], col_labels=["c"])[0, 0],
        "accuracy_histogram": lambda ax: figures.accuracy_histogram(ax, [0.8, 0.9, 0.9], 10, 0.85),
        "difference_histogram": lambda ax: figures.difference_histogram(ax, [-0.1, 0.0, 0.1], 10, 0.05),
        "bootstrap_distribution": lambda ax: plots.bootstrap_distribution(ax, res),
        "disagreement_table": lambda ax: plots.disagreement_table(ax, [1, 0, 1], [1, 1, 0]),
        "interval_forest": lambda ax: plots.interval_forest(ax, [0.1], [[0.0, 0.2]], ["x"], reference=0),
        "power_vs_test_size": lambda ax: plots.power_vs_test_size(ax, [100, 200], [0.3, 0.6]),
        "seed_spread": lambda ax: figures.seed_spread(ax, runs),
        "paired_scores": lambda ax: plots.paired_scores(ax, [1.0, 2.0, 3.0], [1.5, 2.0, 3.5]),
        "power_curve": lambda ax: plots.power_curve(ax, 1.0, [1.0], [2, 5, 10]),
        "verdict_intervals": lambda ax: plots.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[-0.1, 0.1]],
                                                                ["equivalent"], margin=0.5),
    }


PUBLIC_FUNCTIONS = sorted(
    name
    for module in (plots, figures)
    for name in module.__all__
    if callable(getattr(module, name))
)


@pytest.mark.parametrize("name", PUBLIC_FUNCTIONS)
def test_every_plot_function_runs_on_small_inputs(name, ax):
    calls = _smoke_calls()
    assert name in calls, f"add a small call of {name} to _smoke_calls()"
    assert calls[name](ax) is ax
    ax.figure.canvas.draw()

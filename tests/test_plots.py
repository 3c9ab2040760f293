"""sigeval.plots: lattice-aligned bootstrap histograms, and every figure function runs."""

import dataclasses
from types import SimpleNamespace

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
import pytest  # noqa: E402

from sigeval import (  # noqa: E402
    aggregate_ci,
    bayesian_signed_rank,
    bootstrap_ci,
    cd_groups,
    confidence_sequence,
    correlated_ttest,
    friedman,
    group_sequential_bounds,
    nemenyi_cd,
    paired_bootstrap_ci,
    pairwise_wilcoxon,
    performance_profile,
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


def _posteriors():
    t_post = correlated_ttest([0.02, 0.01, 0.03, 0.0, 0.02], test_fraction=0.2, rope=0.01)
    dp = bayesian_signed_rank([0.8, 0.7, 0.9, 0.6], [0.79, 0.72, 0.88, 0.6], rope=0.01, n_draws=300, rng=0)
    scores = np.array([[0.9, 1.1, 0.5], [1.0, 1.3, 0.4], [0.8, 1.0, 0.6]])
    agg = [aggregate_ci(scores, statistic=s, n_resamples=50, rng=0) for s in ("iqm", "mean")]
    profile = performance_profile(scores, [0.0, 0.5, 1.0, 1.5], n_resamples=50, rng=0)
    return t_post, dp, agg, profile


def _smoke_calls():
    t_post, dp, agg, profile = _posteriors()
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
        "cd_diagram": lambda ax: plots.cd_diagram(ax, friedman([[0.9, 0.8, 0.7], [0.8, 0.85, 0.6],
                                                                 [0.7, 0.6, 0.5]])),
        "error_rates": lambda ax: plots.error_rates(
            ax, pd.DataFrame({"FWER": [0.6, 0.05], "power": [0.9, 0.7]}, index=["none", "holm"])),
        "best_of_k": lambda ax: plots.best_of_k(ax, [0.6, 0.62, 0.61], values=[0.6, 0.6, 0.61]),
        "verdict_intervals": lambda ax: plots.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[-0.1, 0.1]],
                                                                ["equivalent"], margin=0.5),
        "posterior_density": lambda ax: plots.posterior_density(ax, t_post, names=("new", "old")),
        "posterior_simplex": lambda ax: plots.posterior_simplex(ax, dp),
        "aggregate_intervals": lambda ax: plots.aggregate_intervals(ax, {"A": agg, "B": agg}),
        "performance_profiles": lambda ax: plots.performance_profiles(ax, {"A": profile}),
        "confidence_sequence_plot": lambda ax: plots.confidence_sequence_plot(
            ax, confidence_sequence([0.1, -0.1, 0.2, 0.0], method="t-mixture"), [0.1, -0.1, 0.2, 0.0], truth=0.0),
        "group_sequential_plot": lambda ax: plots.group_sequential_plot(
            ax, group_sequential_bounds(2), [5, 10], statistics=[1.0, 9.0]),
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


# --------------------------------------------------------------------------- bad input

NAN = float("nan")


def _bad_calls():
    """Bad inputs of every figure function: the error each raises and the message it must match."""
    res = bootstrap_ci(np.r_[np.ones(17), np.zeros(3)], n_resamples=200, rng=0)
    nan_dist = dataclasses.replace(res, bootstrap_distribution=np.r_[res.bootstrap_distribution[1:], NAN])
    no_dist = dataclasses.replace(res, bootstrap_distribution=np.array([]))
    ranks = SimpleNamespace(mean_ranks=[1.0, NAN, 2.0], models=["a", "b", "c"], n_tasks=4)
    runs = pd.DataFrame({"hidden": [8, 8], "test_acc": [0.6, NAN], "fresh_acc": [0.61, 0.62]})
    rates = pd.DataFrame({"FWER": [0.6, NAN]}, index=["none", "holm"])
    t_post, dp, agg, profile = _posteriors()
    P = plots
    F = figures
    return {
        "coverage_vs_p": [
            (lambda ax: P.coverage_vs_p(ax, 10, p=[0.2, NAN]), ValueError, "`p` must be finite; got nan"),
            (lambda ax: P.coverage_vs_p(ax, 10, p=[]), ValueError, "`p` must not be empty"),
            (lambda ax: P.coverage_vs_p(ax, 10, p=[1.5]), ValueError, r"`p` must lie in \[0, 1\]; got 1.5"),
            (lambda ax: P.coverage_vs_p(ax, 0), ValueError, "`n` must be an integer >= 1; got 0"),
            (lambda ax: P.coverage_vs_p(ax, 10, methods=()), ValueError, "`methods` must hold at least one of"),
            (lambda ax: P.coverage_vs_p(ax, 10, methods=("wald", "nope")), ValueError, "`methods` must be one of"),
            (lambda ax: P.coverage_vs_p(ax, 10, methods="wald"), TypeError, "`methods` must be a sequence of strings"),
        ],
        "coverage_vs_n": [
            (lambda ax: P.coverage_vs_n(ax, NAN), ValueError, "`p` must be finite; got nan"),
            (lambda ax: P.coverage_vs_n(ax, 0.5, n=[]), ValueError, "`n` must not be empty"),
            (lambda ax: P.coverage_vs_n(ax, 0.5, n=[10, NAN]), ValueError, "`n` must hold whole numbers; got nan"),
            (lambda ax: P.coverage_vs_n(ax, [0.5]), TypeError, "`p` must be a real number"),
        ],
        "coverage_curves": [
            (lambda ax: P.coverage_curves(ax, [0.5, NAN], {"bca": [0.9, 0.9]}), ValueError, "`p` must be finite"),
            (lambda ax: P.coverage_curves(ax, [], {"bca": []}), ValueError, "`p` must not be empty"),
            (lambda ax: P.coverage_curves(ax, [0.5, 0.9], {"bca": [0.9, NAN]}), ValueError,
             r"`coverages\['bca'\]` must be finite; got nan"),
            (lambda ax: P.coverage_curves(ax, [0.5, 0.9], {"bca": [0.9]}), ValueError,
             r"`coverages\['bca'\]` must have the shape of `p` \(2,\)"),
            (lambda ax: P.coverage_curves(ax, [0.5], {}), ValueError, "`coverages` must hold at least one entry"),
            (lambda ax: P.coverage_curves(ax, [0.5], [0.9]), TypeError, "`coverages` must be a dict"),
        ],
        "bootstrap_distribution": [
            (lambda ax: P.bootstrap_distribution(ax, nan_dist), ValueError,
             "`result.bootstrap_distribution` must be finite; got nan"),
            (lambda ax: P.bootstrap_distribution(ax, no_dist), ValueError,
             "`result.bootstrap_distribution` must not be empty"),
            (lambda ax: P.bootstrap_distribution(ax, res, intervals={"x": (NAN, 0.9)}), ValueError,
             r"`intervals\['x'\]` must be finite; got nan"),
            (lambda ax: P.bootstrap_distribution(ax, res, intervals={"x": (0.9, 0.8)}), ValueError,
             r"`intervals\['x'\]` must have low <= high"),
            (lambda ax: P.bootstrap_distribution(ax, np.ones(3)), TypeError, "`result` must be a BootstrapResult"),
            (lambda ax: P.bootstrap_distribution(ax, res, bins=0), ValueError, "`bins` must be an integer >= 1"),
            (lambda ax: P.bootstrap_distribution(ax, res, bins=[0.0, NAN, 1.0]), ValueError, "`bins` must be finite"),
        ],
        "disagreement_table": [
            (lambda ax: P.disagreement_table(ax, [1, NAN], [1, 0]), ValueError, "`scores_a` holds 1 NaN"),
            (lambda ax: P.disagreement_table(ax, [], []), ValueError, "`scores_a` must hold at least 1 value"),
            (lambda ax: P.disagreement_table(ax, [1, 0], [1]), ValueError, "must be paired, with the same length"),
            (lambda ax: P.disagreement_table(ax, [1, 0], [1, 2]), ValueError, "`scores_b` must be binary"),
            (lambda ax: P.disagreement_table(ax, [1, 0], [1, 0], labels=("A",)), ValueError,
             r"`labels` must have one entry per model \(2\); got 1"),
        ],
        "interval_forest": [
            (lambda ax: P.interval_forest(ax, [NAN], [[0.0, 0.2]], ["x"]), ValueError, "`estimates` must be finite"),
            (lambda ax: P.interval_forest(ax, [], [], []), ValueError, "`estimates` must not be empty"),
            (lambda ax: P.interval_forest(ax, [0.1], [[NAN, 0.2]], ["x"]), ValueError, "`intervals` must be finite"),
            (lambda ax: P.interval_forest(ax, [0.1], [0.0, 0.2], ["x"]), ValueError,
             r"`intervals` must have shape \(1, 2\)"),
            (lambda ax: P.interval_forest(ax, [0.1], [[0.2, 0.0]], ["x"]), ValueError, "low <= high in every row"),
            (lambda ax: P.interval_forest(ax, [0.1], [[0.0, 0.2]], ["x", "y"]), ValueError,
             r"`labels` must have one entry per estimate \(1\); got 2"),
            (lambda ax: P.interval_forest(ax, [0.1], [[0.0, 0.2]], "x"), TypeError, "`labels` must be a sequence"),
            (lambda ax: P.interval_forest(ax, [0.1], [[0.0, 0.2]], ["x"], reference=NAN), ValueError,
             "`reference` must be finite"),
            (lambda ax: P.interval_forest(ax, [0.1], [[0.0, 0.2]], ["x"], colors=[]), ValueError,
             r"`colors` must have one entry per estimate \(1\); got 0"),
        ],
        "power_vs_test_size": [
            (lambda ax: P.power_vs_test_size(ax, [100, 200], [0.3, NAN]), ValueError, "`power` must be finite"),
            (lambda ax: P.power_vs_test_size(ax, [], []), ValueError, "`n` must not be empty"),
            (lambda ax: P.power_vs_test_size(ax, [100, 200], [0.3]), ValueError, "`power` must have the shape of `n`"),
            (lambda ax: P.power_vs_test_size(ax, [100], [1.2]), ValueError, r"`power` must lie in \[0, 1\]"),
            (lambda ax: P.power_vs_test_size(ax, [100], [0.3], simulated_n=[100]), ValueError,
             "must be given together"),
            (lambda ax: P.power_vs_test_size(ax, [100], [0.3], simulated_n=[100], simulated_power=[NAN]), ValueError,
             "`simulated_power` must be finite"),
            (lambda ax: P.power_vs_test_size(ax, [100], [0.3], simulated_n=[100], simulated_power=[0.3],
                                             n_simulations=0), ValueError, "`n_simulations` must be an integer >= 1"),
        ],
        "paired_scores": [
            (lambda ax: P.paired_scores(ax, [1.0, NAN, 3.0], [1.0, 2.0, 3.0]), ValueError, "`scores_a` holds 1 NaN"),
            (lambda ax: P.paired_scores(ax, [], []), ValueError, r"`scores_a` must hold at least 2 value\(s\); got 0"),
            (lambda ax: P.paired_scores(ax, [1.0, 2.0], [1.0, 2.0, 3.0]), ValueError, "must be paired"),
        ],
        "power_curve": [
            (lambda ax: P.power_curve(ax, 1.0, [1.0, NAN], [2, 5]), ValueError, "`deltas` must be finite"),
            (lambda ax: P.power_curve(ax, 1.0, [], [2, 5]), ValueError, "`deltas` must not be empty"),
            (lambda ax: P.power_curve(ax, 1.0, [1.0], [1, 5]), ValueError, "`n` must be at least 2; got 1"),
            (lambda ax: P.power_curve(ax, 1.0, [1.0], []), ValueError, "`n` must not be empty"),
            (lambda ax: P.power_curve(ax, NAN, [1.0], [2, 5]), ValueError, "`sigma_d` must be finite"),
            (lambda ax: P.power_curve(ax, 0.0, [1.0], [2, 5]), ValueError, "`sigma_d` must be positive"),
            (lambda ax: P.power_curve(ax, 1.0, [1.0], [2, 5], labels=["a", "b"]), ValueError,
             r"`labels` must have one entry per delta \(1\); got 2"),
        ],
        "verdict_intervals": [
            (lambda ax: P.verdict_intervals(ax, [NAN], [[-0.2, 0.2]], [[-0.1, 0.1]], ["equivalent"], margin=0.5),
             ValueError, "`estimates` must be finite"),
            (lambda ax: P.verdict_intervals(ax, [], [], [], [], margin=0.5), ValueError,
             "`estimates` must not be empty"),
            (lambda ax: P.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[NAN, 0.1]], ["equivalent"], margin=0.5),
             ValueError, "`tost_intervals` must be finite"),
            (lambda ax: P.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[-0.1, 0.1]], ["nope"], margin=0.5),
             ValueError, "`verdicts` must be one of"),
            (lambda ax: P.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[-0.1, 0.1]], ["trivial"] * 2, margin=0.5),
             ValueError, r"`verdicts` must have one entry per estimate \(1\); got 2"),
            (lambda ax: P.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[-0.1, 0.1]], ["equivalent"], margin=NAN),
             ValueError, "`margin` must be finite"),
            (lambda ax: P.verdict_intervals(ax, [0.0], [[-0.2, 0.2]], [[-0.1, 0.1]], ["equivalent"], margin=0),
             ValueError, "`margin` must be positive"),
        ],
        "cd_diagram": [
            (lambda ax: P.cd_diagram(ax, ranks), ValueError, "`result.mean_ranks` holds 1 NaN"),
            (lambda ax: P.cd_diagram(ax, SimpleNamespace(mean_ranks=[1.0], models=["a"], n_tasks=4)),
             ValueError, r"`result.mean_ranks` must hold at least 2 value\(s\); got 1"),
            (lambda ax: P.cd_diagram(ax, SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a"], n_tasks=4)),
             ValueError, r"`result.models` must have one entry per mean rank \(2\); got 1"),
            (lambda ax: P.cd_diagram(ax, np.ones((4, 3))), TypeError, "`result` must be a FriedmanResult"),
            (lambda ax: P.cd_diagram(ax, SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a", "b"], n_tasks=4),
                                     method="wilcoxon-holm"),
             TypeError, r"`result` must be a FriedmanResult \(with `scores`, `higher_is_better`\)"),
            (lambda ax: P.cd_diagram(ax, SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a", "b"], n_tasks=4),
                                     method="tukey"),
             ValueError, "`method` must be one of 'nemenyi', 'wilcoxon-holm'; got 'tukey'"),
        ],
        "error_rates": [
            (lambda ax: P.error_rates(ax, rates), ValueError, "`rates` must be finite; got nan"),
            (lambda ax: P.error_rates(ax, pd.DataFrame()), ValueError, "`rates` must have at least one row"),
            (lambda ax: P.error_rates(ax, np.ones((2, 2))), TypeError, "`rates` must be a pandas DataFrame"),
            (lambda ax: P.error_rates(ax, pd.DataFrame({"FWER": [1.5]})), ValueError, r"`rates` must lie in \[0, 1\]"),
            (lambda ax: P.error_rates(ax, pd.DataFrame({"FWER": [0.5]}), alpha=1.5), ValueError,
             "`alpha` must be strictly between 0 and 1"),
        ],
        "best_of_k": [
            (lambda ax: P.best_of_k(ax, [0.6, NAN]), ValueError, "`scores` holds 1 NaN"),
            (lambda ax: P.best_of_k(ax, []), ValueError, r"`scores` must hold at least 1 value\(s\); got 0"),
            (lambda ax: P.best_of_k(ax, [0.6, 0.7], values=[0.6, NAN]), ValueError, "`values` holds 1 NaN"),
            (lambda ax: P.best_of_k(ax, [0.6, 0.7], values=[0.6]), ValueError, "must be paired"),
        ],
        "correctness_grid": [
            (lambda ax: F.correctness_grid(ax, [[1, NAN]]), ValueError, "`correct` must be finite"),
            (lambda ax: F.correctness_grid(ax, [[]]), ValueError, "`correct` must not be empty"),
            (lambda ax: F.correctness_grid(ax, [1, 0]), ValueError, "`correct` must be a non-empty 2-D array"),
            (lambda ax: F.correctness_grid(ax, [[0.5, 1]]), ValueError, "`correct` must be binary"),
        ],
        "variance_components": [
            (lambda ax: F.variance_components(ax, [10, NAN], [0.1, 0.03], 0.01), ValueError, "`n` must be finite"),
            (lambda ax: F.variance_components(ax, [], [], 0.01), ValueError, "`n` must not be empty"),
            (lambda ax: F.variance_components(ax, [0, 10], [0.1, 0.03], 0.01), ValueError, "`n` must be positive"),
            (lambda ax: F.variance_components(ax, [10, 100], [0.1, NAN], 0.01), ValueError,
             "`sampling_sd` must be finite"),
            (lambda ax: F.variance_components(ax, [10, 100], [0.1, 0.03], [0.1, 0.1, 0.1]), ValueError,
             "`training_sd` must have the shape of `n`"),
            (lambda ax: F.variance_components(ax, [10, 100], [0.1, 0.03], 0.01, observed_sd=[0.1]), ValueError,
             "`observed_sd` must have the shape of `n`"),
        ],
        "scatter_test_vs_true": [
            (lambda ax: F.scatter_test_vs_true(ax, [0.8, NAN], [0.8, 0.8]), ValueError, "`true_scores` holds 1 NaN"),
            (lambda ax: F.scatter_test_vs_true(ax, [], []), ValueError, "`true_scores` must hold at least 1"),
            (lambda ax: F.scatter_test_vs_true(ax, [0.8], [0.8, 0.7]), ValueError, "must be paired"),
        ],
        "image_grid": [
            (lambda ax: F.image_grid(np.array([[ax]]), np.full((1, 1, 4, 4), NAN)), ValueError,
             "`images` must be finite"),
            (lambda ax: F.image_grid(np.array([[ax]]), np.zeros((1, 1, 0, 4))), ValueError, "`images` must not be empty"),
            (lambda ax: F.image_grid(np.array([[ax]]), np.zeros((1, 1, 4, 4)), vmin=NAN), ValueError,
             "`vmin` must be finite"),
        ],
        "accuracy_histogram": [
            (lambda ax: F.accuracy_histogram(ax, [0.8, NAN], 10, 0.85), ValueError, "`accuracies` holds 1 NaN"),
            (lambda ax: F.accuracy_histogram(ax, [], 10, 0.85), ValueError, "`accuracies` must hold at least 1"),
            (lambda ax: F.accuracy_histogram(ax, [1.5], 10, 0.85), ValueError, r"`accuracies` must lie in \[0, 1\]"),
            (lambda ax: F.accuracy_histogram(ax, [0.8], 0, 0.85), ValueError, "`n` must be an integer >= 1"),
            (lambda ax: F.accuracy_histogram(ax, [0.8], 10, NAN), ValueError, "`population_accuracy` must be finite"),
        ],
        "difference_histogram": [
            (lambda ax: F.difference_histogram(ax, [0.1, NAN], 10, 0.05), ValueError, "`differences` holds 1 NaN"),
            (lambda ax: F.difference_histogram(ax, [], 10, 0.05), ValueError, "`differences` must hold at least 1"),
            (lambda ax: F.difference_histogram(ax, [0.1], 10, NAN), ValueError,
             "`population_difference` must be finite"),
        ],
        "posterior_density": [
            (lambda ax: P.posterior_density(ax, dp), TypeError, "`posterior` must be a StudentPosterior"),
            (lambda ax: P.posterior_density(ax, dataclasses.replace(t_post, loc=NAN)), ValueError,
             "`posterior.loc` must be finite"),
            (lambda ax: P.posterior_density(ax, dataclasses.replace(t_post, df=0)), ValueError,
             "`posterior.df` must be an integer >= 1"),
            (lambda ax: P.posterior_density(ax, dataclasses.replace(t_post, prob_rope=NAN)), ValueError,
             "`posterior probabilities` must be finite"),
            (lambda ax: P.posterior_density(ax, t_post, names=("A",)), ValueError,
             r"`names` must have one entry per model \(2\); got 1"),
        ],
        "posterior_simplex": [
            (lambda ax: P.posterior_simplex(ax, t_post), TypeError, "`posterior` must be a DirichletPosterior"),
            (lambda ax: P.posterior_simplex(ax, dataclasses.replace(dp, posterior_samples=np.ones((3, 2)))),
             ValueError, r"must have shape \(n_draws, 3\); got \(3, 2\)"),
            (lambda ax: P.posterior_simplex(ax, dataclasses.replace(dp, posterior_samples=np.full((3, 3), NAN))),
             ValueError, "`posterior.posterior_samples` must be finite"),
            (lambda ax: P.posterior_simplex(ax, dp, gridsize=0), ValueError, "`gridsize` must be an integer >= 1"),
            (lambda ax: P.posterior_simplex(ax, dp, names="AB"), TypeError, "`names` must be a sequence"),
        ],
        "aggregate_intervals": [
            (lambda ax: P.aggregate_intervals(ax, {}), ValueError, "`results` must hold at least one entry"),
            (lambda ax: P.aggregate_intervals(ax, [agg]), TypeError, "`results` must be a dict"),
            (lambda ax: P.aggregate_intervals(ax, {"A": agg[0]}), TypeError,
             r"`results\['A'\]` must be a non-empty sequence of AggregateInterval"),
            (lambda ax: P.aggregate_intervals(ax, {"A": [1.0]}), TypeError,
             r"`results\['A'\]\[0\]` must be a AggregateInterval"),
            (lambda ax: P.aggregate_intervals(ax, {"A": agg, "B": agg[::-1]}), ValueError,
             "must hold the same aggregates in the same order for every model"),
            (lambda ax: P.aggregate_intervals(ax, {"A": [dataclasses.replace(agg[0], estimate=NAN)]}), ValueError,
             r"`results\['A'\]\[0\].estimate` must be finite"),
            (lambda ax: P.aggregate_intervals(ax, {"A": agg}, colors=["red", "blue"]), ValueError,
             r"`colors` must have one entry per model \(1\); got 2"),
        ],
        "performance_profiles": [
            (lambda ax: P.performance_profiles(ax, {}), ValueError, "`profiles` must hold at least one entry"),
            (lambda ax: P.performance_profiles(ax, {"A": agg[0]}), TypeError,
             r"`profiles\['A'\]` must be a PerformanceProfile"),
            (lambda ax: P.performance_profiles(ax, {"A": dataclasses.replace(profile, estimate=np.ones(2))}),
             ValueError, r"`profiles\['A'\].estimate` must have the shape of"),
            (lambda ax: P.performance_profiles(ax, {"A": dataclasses.replace(profile, taus=profile.taus * NAN)}),
             ValueError, r"`profiles\['A'\].taus` must be finite"),
        ],
        "confidence_sequence_plot": [
            (lambda ax: P.confidence_sequence_plot(ax, np.ones(3), [0.1, 0.2, 0.3]), TypeError,
             "`sequence` must be a ConfidenceSequence"),
            (lambda ax: P.confidence_sequence_plot(ax, confidence_sequence([0.1, 0.2, 0.3], method="t-mixture"),
                                                   [0.1, 0.2]), ValueError, "`differences` must be the 3 differences"),
            (lambda ax: P.confidence_sequence_plot(ax, confidence_sequence([0.1, 0.2], method="t-mixture"),
                                                   [0.1, NAN]), ValueError, "`differences` must be finite"),
            (lambda ax: P.confidence_sequence_plot("ax", confidence_sequence([0.1, 0.2], method="t-mixture"),
                                                   [0.1, 0.2]), TypeError, "`ax` must be a Matplotlib Axes"),
        ],
        "group_sequential_plot": [
            (lambda ax: P.group_sequential_plot(ax, "design", [5, 10]), TypeError,
             "`bounds` must be a GroupSequentialBounds"),
            (lambda ax: P.group_sequential_plot(ax, group_sequential_bounds(2), [5, 10, 20]), ValueError,
             r"`n_pairs` must give one number of pairs per look \(2\)"),
            (lambda ax: P.group_sequential_plot(ax, group_sequential_bounds(2), [5, 10], statistics=[1, 2, 3]),
             ValueError, "`statistics` must hold at most one value per look"),
            (lambda ax: P.group_sequential_plot(ax, group_sequential_bounds(2), [5, 10], t_scale="yes"),
             TypeError, "`t_scale` must be True or False"),
        ],
        "seed_spread": [
            (lambda ax: F.seed_spread(ax, runs), ValueError, r"`runs\[\['test_acc', 'fresh_acc'\]\]` must be finite"),
            (lambda ax: F.seed_spread(ax, runs.iloc[:0]), ValueError, "must have at least one row"),
            (lambda ax: F.seed_spread(ax, np.ones((2, 3))), TypeError, "`runs` must be a pandas DataFrame"),
            (lambda ax: F.seed_spread(ax, runs, by="width"), ValueError, r"`runs` has no column\(s\) \['width'\]"),
        ],
    }


def test_every_plot_function_has_bad_inputs():
    assert sorted(_bad_calls()) == PUBLIC_FUNCTIONS


BAD_CASES = [(name, i) for name, cases in _bad_calls().items() for i in range(len(cases))]


@pytest.mark.parametrize(("name", "case"), BAD_CASES, ids=[f"{n}-{i}" for n, i in BAD_CASES])
def test_bad_input_is_refused_with_the_argument_named(name, case, ax):
    call, error, match = _bad_calls()[name][case]
    with pytest.raises(error, match=match):
        call(ax)


# --------------------------------------------------------------------------- CD diagram


def _maximal_cliques_brute_force(ranks, cd):
    """Every maximal set of models whose pairwise mean-rank gaps are all below ``cd``."""
    from itertools import combinations

    k = len(ranks)
    cliques = [
        set(c)
        for size in range(2, k + 1)
        for c in combinations(range(k), size)
        if all(abs(ranks[i] - ranks[j]) < cd for i, j in combinations(c, 2))
    ]
    return {frozenset(c) for c in cliques if not any(c < other for other in cliques)}


def test_cd_groups_are_the_maximal_cliques():
    rng = np.random.default_rng(0)
    for _ in range(300):
        k = int(rng.integers(2, 9))
        ranks = np.round(rng.uniform(1, k, size=k), 2)
        cd = float(rng.uniform(0.1, k / 2))
        groups = cd_groups(ranks, cd)
        assert {frozenset(g) for g in groups} == _maximal_cliques_brute_force(ranks, cd)
        for g in groups:  # each group listed from best to worst
            assert list(ranks[list(g)]) == sorted(ranks[list(g)])
        assert [ranks[g[0]] for g in groups] == sorted(ranks[g[0]] for g in groups)


def test_cd_groups_edge_cases():
    assert cd_groups([1.0, 2.0, 3.0], 0.5) == []             # all separated
    assert cd_groups([2.0, 1.0, 3.0], 5.0) == [(1, 0, 2)]     # one group, in rank order
    assert cd_groups([1.0, 2.0], 1.0) == []                   # a gap of exactly the CD separates
    assert cd_groups([1.0, 1.4, 1.8, 2.2], 0.5) == [(0, 1), (1, 2), (2, 3)]
    with pytest.raises(ValueError, match="`critical_difference` must be positive"):
        cd_groups([1.0, 2.0], 0.0)
    with pytest.raises(ValueError, match="at least 2 models"):
        cd_groups([1.0], 1.0)
    with pytest.raises(ValueError, match="finite"):
        cd_groups([1.0, np.nan], 1.0)


def _text_boxes(ax):
    ax.figure.canvas.draw()
    renderer = ax.figure.canvas.get_renderer()
    return {t.get_text(): t.get_window_extent(renderer) for t in ax.texts}


def test_cd_diagram_many_models_long_names():
    rng = np.random.default_rng(1)
    k = 14
    names = [f"resnet50_variant_{i:02d}_with_a_long_descriptive_suffix" for i in range(k)]
    scores = pd.DataFrame(rng.normal(size=(25, k)) + np.linspace(0, 3, k), columns=names)
    res = friedman(scores)
    fig, ax = plt.subplots(figsize=(8, 4))
    plots.cd_diagram(ax, res, alpha=0.10)
    boxes = _text_boxes(ax)
    labels = {t: b for t, b in boxes.items() if t.startswith("resnet50")}
    assert len(labels) == k  # every model labelled, with its mean rank
    for name, r in zip(names, res.mean_ranks):
        assert f"{name} ({r:.2f})" in labels
    items = list(labels.values())
    for i in range(k):
        for j in range(i + 1, k):
            assert not items[i].overlaps(items[j]), "labels overlap"
    # The order: left labels from the top are the best models, by mean rank.
    middle = ax.get_window_extent().x0 + ax.get_window_extent().width / 2
    left = sorted(((b.y0, t) for t, b in labels.items() if b.x1 < middle), reverse=True)
    left_ranks = [float(t.rsplit("(", 1)[1].rstrip(")")) for _, t in left]
    assert left_ranks == sorted(left_ranks) and left_ranks[0] == pytest.approx(res.mean_ranks.min(), abs=0.005)
    # Alpha is not hard-coded: the CD drawn and written is the one at 0.10.
    cd = nemenyi_cd(k, 25, alpha=0.10)
    assert f"CD = {cd:.3f}" in ax.get_title() and "0.1," in ax.get_title()
    # Bars: one per maximal group, never touching another bar on the same row.
    bars = [line for line in ax.lines if line.get_linewidth() == 4]
    assert len(bars) == len(cd_groups(res.mean_ranks, cd))
    for a in range(len(bars)):
        for b in range(a + 1, len(bars)):
            (xa, ya), (xb, yb) = bars[a].get_data(), bars[b].get_data()
            if ya[0] == yb[0]:
                assert xa[1] < xb[0] or xb[1] < xa[0], "bars on one row overlap"
    plt.close(fig)


def test_cd_diagram_from_wilcoxon_holm_decisions():
    rng = np.random.default_rng(2)
    scores = pd.DataFrame(rng.normal(size=(20, 5)) + np.array([0.0, 0.1, 0.9, 1.0, 2.0]), columns=list("ABCDE"))
    res = friedman(scores)
    pairs = pairwise_wilcoxon(scores)
    reject = np.zeros((5, 5), dtype=bool)
    index = {m: i for i, m in enumerate(scores.columns)}
    for a, b, p in zip(pairs.model_a, pairs.model_b, pairs.pvalue_adjusted):
        reject[index[a], index[b]] = p <= 0.05
    groups = cd_groups(res.mean_ranks, reject=reject)
    fig, ax = plt.subplots(figsize=(7, 2.5))
    plots.cd_diagram(ax, res, method="wilcoxon-holm")
    bars = [line for line in ax.lines if line.get_linewidth() == 4]
    assert len(bars) == len(groups) >= 1
    for bar, group in zip(bars, groups):  # each bar spans its group's mean ranks
        low, high = res.mean_ranks[list(group)].min(), res.mean_ranks[list(group)].max()
        np.testing.assert_allclose(bar.get_xdata(), [low - 0.03, high + 0.03])
    assert "Wilcoxon" in ax.get_title() and "CD" not in [t.get_text() for t in ax.texts]
    plt.close(fig)


def test_cd_diagram_takes_a_report_result_and_its_alpha():
    from sigeval import Report

    rng = np.random.default_rng(0)
    runs = pd.DataFrame([(t, m, s, rng.normal() + i) for t in "abcdef" for i, m in enumerate("XYZ") for s in range(3)],
                        columns=["task", "model", "seed", "score"])
    f = Report(runs).friedman(alpha=0.10)
    fig, (left, right) = plt.subplots(1, 2)
    plots.cd_diagram(left, f)
    plots.cd_diagram(right, f.result, alpha=0.10)
    assert left.get_title() == right.get_title() and "0.1," in left.get_title()
    assert [t.get_text() for t in left.texts] == [t.get_text() for t in right.texts]
    plt.close(fig)


def test_cd_diagram_bad_result():
    fig, ax = plt.subplots()
    with pytest.raises(TypeError, match="FriedmanResult"):
        plots.cd_diagram(ax, np.ones((4, 3)))
    with pytest.raises(ValueError, match="`alpha`"):
        plots.cd_diagram(ax, friedman(np.ones((4, 3))), alpha=1.5)
    plt.close(fig)


# --------------------------------------------------------------------------- hostile inputs (tools/hostile_check.py)


def _runs(models=("A", "B", "C")):
    rng = np.random.default_rng(0)
    rows = [(t, m, s, 0.7 + 0.02 * i + 0.01 * rng.standard_normal())
            for t in range(5) for i, m in enumerate(models) for s in range(3)]
    return pd.DataFrame(rows, columns=["task", "model", "seed", "score"])


def test_cd_diagram_draws_model_names_with_dollar_signs_as_text():
    # Mathtext raised a ParseSyntaxException from inside Matplotlib when the figure was drawn.
    from sigeval import Report

    fig, ax = plt.subplots()
    plots.cd_diagram(ax, Report(_runs(("$x", "a$b$c", r"$\frac$"))).friedman())
    fig.canvas.draw()
    assert sorted(t.get_text().split(" (")[0] for t in ax.texts if " (" in t.get_text()) == ["$\\frac$", "$x", "a$b$c"]
    plt.close(fig)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        # AttributeError: 'NoneType' object has no attribute 'get_window_extent'.
        (lambda ax: plots.cd_diagram(None, friedman(np.eye(3) + 1)), TypeError,
         r"^`ax` must be a Matplotlib Axes to draw on \(e\.g\. from plt\.subplots\(\)\); got NoneType\.$"),
        (lambda ax: plots.cd_diagram(ax.figure, friedman(np.eye(3) + 1)), TypeError, r"^`ax` must be a Matplotlib Axes"),
        # "`critical_difference` must be finite; got inf": the level at fault went unnamed.
        (lambda ax: plots.cd_diagram(ax, friedman(np.eye(3) + 1), alpha=1e-300), ValueError,
         r"^`alpha` must be at least 1e-12; got 1e-300\.$"),
        # Drawn, with a mean rank that no ranking of 2 models can have.
        (lambda ax: plots.cd_diagram(ax, SimpleNamespace(mean_ranks=[1.0, 1e308], models=["a", "b"], n_tasks=3)),
         ValueError, r"^`result\.mean_ranks` must lie between 1 and the number of models \(2\); got 1e\+308\.$"),
    ],
)
def test_cd_diagram_refuses_hostile_inputs(call, error, match, ax):
    with pytest.raises(error, match=match):
        call(ax)


# --------------------------------------------------------------------------- posteriors and aggregates


def test_posterior_density_shades_each_region_and_draws_a_point_mass(ax):
    post = correlated_ttest([0.02, 0.01, 0.03, 0.0, 0.02], test_fraction=0.2, rope=0.01)
    plots.posterior_density(ax, post, names=("new", "old"))
    labels = ax.get_legend_handles_labels()[1]
    assert labels == [f"new better: {post.prob_a_better:.3f}", f"equivalent: {post.prob_rope:.3f}",
                      f"old better: {post.prob_b_better:.3f}"]
    fig, ax2 = plt.subplots()
    plots.posterior_density(ax2, correlated_ttest([0.02] * 4, test_fraction=0.2, rope=0.01))
    assert ax2.get_legend_handles_labels()[1] == ["A better: 1.000 (point mass)"]
    plots.posterior_density(ax2, correlated_ttest([0.02, 0.01, -0.01], test_fraction=0.2))
    assert "equivalent: 0.000" not in ax2.get_legend_handles_labels()[1]
    plt.close(fig)


def test_posterior_simplex_puts_each_certain_sample_in_its_corner(ax):
    post = bayesian_signed_rank([0.8, 0.7, 0.9, 0.6], [0.79, 0.72, 0.88, 0.6], rope=0.01, n_draws=3, rng=0)
    corners = dataclasses.replace(post, posterior_samples=np.eye(3))
    plots.posterior_simplex(ax, corners, gridsize=5)
    offsets = ax.collections[0].get_offsets()
    assert len(offsets) == 3  # one occupied hexagon per corner
    texts = [t.get_text() for t in ax.texts]
    assert texts[0].startswith("A better") and texts[1].startswith("B better") and texts[2].startswith("equivalent")


def test_sequential_plots_draw_what_they_say(ax):
    bounds = group_sequential_bounds(3)
    plots.group_sequential_plot(ax, bounds, [5, 10, 20], statistics=[1.0, 4.5])
    line = ax.get_lines()[0]
    np.testing.assert_allclose(line.get_ydata(), bounds.t_critical_values([5, 10, 20]))
    assert any("stop at 10 pairs" in t.get_text() for t in ax.get_legend().get_texts())
    ax.clear()
    d = np.random.default_rng(0).normal(0.01, 0.02, 40)
    cs = confidence_sequence(d, method="t-mixture")
    plots.confidence_sequence_plot(ax, cs, d, scale=100)
    band = ax.collections[0].get_paths()[0].vertices
    assert np.nanmax(band[:, 1][np.isfinite(band[:, 1])]) <= np.nanmax(100 * cs.high[np.isfinite(cs.high)]) + 1e-9

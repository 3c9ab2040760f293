"""sigeval.report: the views in probabilities and aggregates, Report.bayesian and Report.aggregate."""

import re
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sigeval import (
    Report,
    aggregate_ci,
    bayesian_paired_t,
    bayesian_signed_rank,
    correlated_ttest,
)

PROBS = ["prob_a_better", "prob_rope", "prob_b_better"]


def long_table(scores: dict) -> pd.DataFrame:
    """{task: {model: [score per seed]}} as a long table."""
    rows = [(task, model, i, value) for task, by_model in scores.items() for model, values in by_model.items()
            for i, value in enumerate(values)]
    return pd.DataFrame(rows, columns=["task", "model", "seed", "score"])


HAND = {
    "t1": {"A": [0.80, 0.82, 0.81, 0.79, 0.83], "B": [0.78, 0.80, 0.80, 0.78, 0.80], "C": [0.70, 0.73, 0.69, 0.71, 0.72]},
    "t2": {"A": [0.60, 0.64, 0.61, 0.62, 0.60], "B": [0.61, 0.62, 0.62, 0.61, 0.63], "C": [0.55, 0.57, 0.50, 0.58, 0.52]},
    # A - B is 0.01 on every seed: zero spread, a point mass (the per-comparison path).
    "t3": {"A": [0.51, 0.52, 0.53, 0.54, 0.55], "B": [0.50, 0.51, 0.52, 0.53, 0.54], "C": [0.40, 0.45, 0.41, 0.47, 0.40]},
}


@pytest.fixture
def hand():
    return Report(long_table(HAND))


def _pairs(report):
    """(task, model A, model B, scores of A, scores of B) per comparison, in the report's order."""
    for task in report.tasks:
        for i, a in enumerate(report.models):
            for b in report.models[i + 1:]:
                yield task, a, b, np.array(HAND[task][a]), np.array(HAND[task][b])


# --------------------------------------------------------------------------- over seeds


@pytest.mark.parametrize("rope", [0.0, 0.005, 0.02])
def test_bayesian_over_seeds_is_bayesian_paired_t_of_each_comparison(hand, rope):
    view = hand.bayesian(rope=rope)
    assert list(view.columns) == ["task", "model_a", "model_b", "n_pairs", "mean_diff", "posterior_scale", "rope",
                                  *PROBS, "note"]
    assert (view.note == "").all()
    assert len(view) == 9 and (view.n_pairs == 5).all() and (view.rope == rope).all()
    for row, (task, a, b, x, y) in zip(view.itertuples(index=False), _pairs(hand), strict=True):
        assert (row.task, row.model_a, row.model_b) == (task, a, b)
        post = bayesian_paired_t(x, y, rope=rope)
        got = [row.mean_diff, row.posterior_scale, row.prob_a_better, row.prob_rope, row.prob_b_better]
        assert got == [post.loc, post.scale, post.prob_a_better, post.prob_rope, post.prob_b_better]
    point = view[(view.task == "t3") & (view.model_a == "A") & (view.model_b == "B")].iloc[0]
    assert point.posterior_scale == 0
    assert [point.prob_a_better, point.prob_rope, point.prob_b_better] == ([1.0, 0.0, 0.0] if rope < 0.01 else
                                                                           [0.0, 1.0, 0.0])


def test_bayesian_over_seeds_against_the_t_distribution(hand):
    # An independent oracle: the posterior t(n - 1, mean, sd / sqrt(n)) through scipy's distribution object.
    rope = 0.01
    row = hand.bayesian(rope=rope).iloc[0]
    d = np.array(HAND["t1"]["A"]) - np.array(HAND["t1"]["B"])
    post = stats.t(df=d.size - 1, loc=d.mean(), scale=d.std(ddof=1) / np.sqrt(d.size))
    assert row.prob_a_better == pytest.approx(post.sf(rope), rel=1e-12)
    assert row.prob_b_better == pytest.approx(post.cdf(-rope), rel=1e-12)
    assert row.prob_rope == pytest.approx(post.cdf(rope) - post.cdf(-rope), rel=1e-12)


@pytest.mark.parametrize("test_fraction", [0.1, 0.5, 0.8])
def test_bayesian_over_splits_is_the_correlated_ttest(hand, test_fraction):
    view = hand.bayesian(rope=0.01, test_fraction=test_fraction)
    for row, (_, _, _, x, y) in zip(view.itertuples(index=False), _pairs(hand), strict=True):
        post = correlated_ttest(x - y, test_fraction=test_fraction, rope=0.01)
        got = [row.mean_diff, row.posterior_scale, row.prob_a_better, row.prob_rope, row.prob_b_better]
        assert got == [post.loc, post.scale, post.prob_a_better, post.prob_rope, post.prob_b_better]
    # The correlation widens the posterior: sqrt(1/n + rho/(1 - rho)) against sqrt(1/n).
    independent = hand.bayesian(rope=0.01)
    ratio = np.sqrt((1 / 5 + test_fraction / (1 - test_fraction)) / (1 / 5))
    spread = independent.posterior_scale > 0
    assert np.allclose(view.posterior_scale[spread], independent.posterior_scale[spread] * ratio, rtol=1e-12)


def test_bayesian_over_splits_matches_baycomp(hand):
    baycomp = pytest.importorskip("baycomp")
    # Five seeds as the five folds of one 5-fold cross-validation: baycomp's rho is 1/5.
    view = hand.bayesian(rope=0.01, test_fraction=1 / 5)
    for row, (task, _, _, x, y) in zip(view.itertuples(index=False), _pairs(hand), strict=True):
        if task == "t3" and row.posterior_scale == 0:
            continue  # a point mass: baycomp divides by the zero variance
        ref = baycomp.CorrelatedTTest(x, y, rope=0.01, runs=1)  # its difference is y - x: "left" is A better
        assert row.mean_diff == pytest.approx(-ref.mean, rel=1e-12)
        assert row.posterior_scale == pytest.approx(np.sqrt(ref.var), rel=1e-12)
        np.testing.assert_allclose([row.prob_a_better, row.prob_rope, row.prob_b_better], ref.probs(),
                                   rtol=1e-9, atol=1e-13)


def test_bayesian_probabilities_sum_to_one_and_swap_with_the_models():
    table = long_table({t: HAND[t] for t in ("t1", "t2")})
    forward = Report(table).bayesian(rope=0.01)
    backward = Report(table.iloc[::-1]).bayesian(rope=0.01)  # meets the models as C, B, A: B minus A
    assert np.allclose(forward[PROBS].sum(axis=1), 1, rtol=0, atol=1e-12)
    back = backward.set_index(["task", "model_b", "model_a"])
    for row in forward.itertuples(index=False):
        other = back.loc[(row.task, row.model_a, row.model_b)]
        assert other.mean_diff == pytest.approx(-row.mean_diff, rel=1e-12)
        assert other.prob_a_better == pytest.approx(row.prob_b_better, rel=1e-9, abs=1e-15)
        assert other.prob_b_better == pytest.approx(row.prob_a_better, rel=1e-9, abs=1e-15)


@pytest.mark.parametrize("over", ["seeds", "tasks"])
def test_bayesian_when_lower_is_better_swaps_the_outer_probabilities(over):
    table = long_table(HAND)
    higher = Report(table).bayesian(rope=0.01, over=over, n_draws=500, rng=1)
    lower = Report(table, higher_is_better=False).bayesian(rope=0.01, over=over, n_draws=500, rng=1)
    assert lower.mean_diff.tolist() == higher.mean_diff.tolist()
    assert lower.prob_a_better.tolist() == higher.prob_b_better.tolist()
    assert lower.prob_b_better.tolist() == higher.prob_a_better.tolist()
    assert lower.prob_rope.tolist() == higher.prob_rope.tolist()


def test_a_wider_rope_never_lowers_prob_rope(hand):
    ropes = [0.0, 0.001, 0.005, 0.01, 0.05]
    middle = np.array([hand.bayesian(rope=r).prob_rope.to_numpy() for r in ropes])
    assert (np.diff(middle, axis=0) >= 0).all() and (middle[0] == 0).all()


def test_bayesian_drops_failed_pairs_and_names_a_comparison_with_too_few():
    table = long_table({"t": {"A": [1.0, 2.0, 3.0, 2.5], "B": [1.5, np.nan, 2.0, 2.0], "C": [0.5, 1.0, 2.5, 2.0]}})
    report = Report(table, failed="drop-pairs")
    row = report.bayesian(rope=0.1).iloc[0]
    post = bayesian_paired_t([1.0, 3.0, 2.5], [1.5, 2.0, 2.0], rope=0.1)
    assert row.n_pairs == 3 and row.prob_a_better == post.prob_a_better
    table.loc[(table.model == "B") & table.seed.isin([2, 3]), "score"] = np.nan
    view = Report(table, failed="drop-pairs").bayesian(rope=0.1)  # marked in its row, as in the other views
    assert view.note[0] == "not tested: 1 seed(s) on which both ran; a paired comparison needs at least 2 " \
                           "(see `failed_runs`)."
    assert view[["posterior_scale", *PROBS]].iloc[0].isna().all()
    assert view.note[1] == "" and view.note[2] == view.note[0]  # A vs C keeps its 4 pairs; B vs C has 1


def test_bayesian_when_b_is_far_better_keeps_the_tiny_middle_exact():
    """With the mean far below -rope the middle comes from the upper tails, as the functions compute it."""
    report = Report(long_table({"t": {"A": HAND["t1"]["C"], "B": HAND["t1"]["A"]}}))
    for test_fraction in (None, 0.2):
        row = report.bayesian(rope=0.001, test_fraction=test_fraction).iloc[0]
        d = np.array(HAND["t1"]["C"]) - np.array(HAND["t1"]["A"])
        post = (bayesian_paired_t(HAND["t1"]["C"], HAND["t1"]["A"], rope=0.001) if test_fraction is None
                else correlated_ttest(d, test_fraction=test_fraction, rope=0.001))
        assert post.prob_rope < 1e-4  # a tail difference: 1 - tail would lose its digits
        assert [row.prob_a_better, row.prob_rope, row.prob_b_better] == [post.prob_a_better, post.prob_rope,
                                                                          post.prob_b_better]


def test_bayesian_over_splits_treats_spread_at_rounding_level_as_correlated_ttest_does():
    """Scores of opposite signs: a spread the paired t still sees, but rounding error against the differences.

    correlated_ttest judges the spread against max |d| (up to twice the scores' scale) and returns a point
    mass; the view must route such a comparison through it rather than compute a tiny-scale t.
    """
    a = 4.0 * np.array([1 - 1.2e-14, 1 + 1.2e-14] * 3)
    report = Report(long_table({"t": {"A": list(a), "B": list(-a)}}))
    post = correlated_ttest(a - (-a), test_fraction=0.2, rope=8.0)
    assert post.scale == 0 and report.pairwise().note.iloc[0] == ""  # the case: a point mass, yet a testable pair
    row = report.bayesian(rope=8.0, test_fraction=0.2).iloc[0]
    assert [row.posterior_scale, *row[PROBS]] == [0.0, post.prob_a_better, post.prob_rope, post.prob_b_better]


def test_bayesian_notes_a_posterior_scale_that_overflows():
    # Differences of +-1.98e300 (inside the limit of the scores) and a test fraction a rounding step below 1:
    # sd * sqrt(1/n + rho / (1 - rho)) is about 2.3e300 * 9.5e7, beyond float64.
    a = np.array([0.99, -0.99, 0.99, -0.99]) * 1e300
    report = Report(long_table({"t": {"A": list(a), "B": list(-a)}}))
    rho = np.nextafter(1.0, 0.0)
    with pytest.raises(ValueError, match=r"overflows float64 \(scale not finite\)") as refusal:
        correlated_ttest(2 * a, test_fraction=rho)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the overflow is caught and explained, not warned about
        view = report.bayesian(rope=0.0, test_fraction=rho)
    assert view.note[0] == f"not tested: {refusal.value}" and np.isnan(view.prob_a_better[0])


def test_bayesian_on_subnormal_scores_is_the_function_s_answer():
    """Subnormal scores: the posterior is computed in units of a power of two, as the function computes it.

    The differences [1e-323, 0, 0, 0] have a spread of their own; their probabilities are those of the same
    scores times 2**1000, although the scale printed (5e-324 / 2 = 2.5e-324) rounds to a subnormal.
    """
    report = Report(long_table({"t": {"A": [1e-323, 0.0, 0.0, 0.0], "B": [0.0] * 4}}))
    post = bayesian_paired_t([1e-323, 0.0, 0.0, 0.0], [0.0] * 4, rope=0.0)
    scaled = bayesian_paired_t(np.array([1e-323, 0.0, 0.0, 0.0]) * 2.0**1000, [0.0] * 4, rope=0.0)
    assert (post.prob_a_better, post.prob_b_better) == (scaled.prob_a_better, scaled.prob_b_better)
    row = report.bayesian(rope=0.0).iloc[0]
    assert [row.posterior_scale, *row[PROBS]] == [post.scale, post.prob_a_better, post.prob_rope, post.prob_b_better]


# --------------------------------------------------------------------------- over tasks


@pytest.mark.parametrize("rope, prior_strength", [(0.0, 0.5), (0.01, 0.5), (0.01, 2.0)])
def test_bayesian_over_tasks_is_the_signed_rank_test_of_the_task_means(hand, rope, prior_strength):
    view = hand.bayesian(rope=rope, over="tasks", prior_strength=prior_strength, n_draws=2_000, rng=7)
    assert list(view.columns) == ["model_a", "model_b", "n_tasks", "mean_diff", "rope", *PROBS]
    means, _ = hand.mean_scores()
    generator = np.random.default_rng(7)  # one generator, pair after pair
    for row, (a, b) in zip(view.itertuples(index=False), [("A", "B"), ("A", "C"), ("B", "C")], strict=True):
        post = bayesian_signed_rank(means[a], means[b], rope=rope, prior_strength=prior_strength, n_draws=2_000,
                                    rng=generator)
        assert (row.model_a, row.model_b, row.n_tasks) == (a, b, 3)
        assert [row.prob_a_better, row.prob_rope, row.prob_b_better] == [post.prob_a_better, post.prob_rope,
                                                                         post.prob_b_better]
        task_means = {t: (np.mean(HAND[t][a]), np.mean(HAND[t][b])) for t in HAND}
        assert row.mean_diff == pytest.approx(np.mean([x - y for x, y in task_means.values()]), rel=1e-12)
    assert np.allclose(view[PROBS].sum(axis=1), 1, rtol=0, atol=1e-12)


def test_bayesian_over_tasks_uses_fifty_thousand_samples_by_default(hand, monkeypatch):
    import sigeval._report_across as report_module

    seen = []
    original = report_module.bayesian_signed_rank
    monkeypatch.setattr(report_module, "bayesian_signed_rank",
                        lambda *args, **kwargs: seen.append(kwargs) or original(*args, **{**kwargs, "n_draws": 10}))
    hand.bayesian(rope=0.01, over="tasks", rng=0)
    assert {k["n_draws"] for k in seen} == {50_000} and {k["prior_strength"] for k in seen} == {0.5}


def test_bayesian_over_tasks_needs_two_tasks():
    with pytest.raises(ValueError, match="at least 2 tasks"):
        Report(long_table({"t1": HAND["t1"]})).bayesian(rope=0.01, over="tasks", rng=0)


# --------------------------------------------------------------------------- aggregate


def _matrix(model):
    return np.column_stack([HAND[t][model] for t in HAND])


def test_aggregate_is_aggregate_ci_of_each_models_matrix(hand):
    view = hand.aggregate(n_resamples=300, confidence_level=0.9, gamma=0.75, rng=3)
    names = ["iqm", "mean", "median", "optimality_gap"]
    assert list(view.columns) == ["model", "n_runs", "n_tasks", *[f"{n}{s}" for n in names
                                                                  for s in ("", "_ci_low", "_ci_high")]]
    assert view.model.tolist() == ["A", "B", "C"] and (view.n_runs == 5).all() and (view.n_tasks == 3).all()
    generator = np.random.default_rng(3)  # one generator, model after model, aggregate after aggregate
    for _, row in view.iterrows():
        for name in names:
            res = aggregate_ci(_matrix(row.model), statistic=name, n_resamples=300, confidence_level=0.9,
                               gamma=0.75, rng=generator)
            assert [row[name], row[f"{name}_ci_low"], row[f"{name}_ci_high"]] == [res.estimate,
                                                                                  *res.confidence_interval]
    assert view.iqm[0] == pytest.approx(stats.trim_mean(_matrix("A"), 0.25, axis=None), rel=1e-12)
    assert view["mean"][1] == pytest.approx(_matrix("B").mean(), rel=1e-12)
    assert view.optimality_gap[2] == pytest.approx(0.75 - np.minimum(_matrix("C"), 0.75).mean(), rel=1e-12)


def test_aggregate_statistics_in_the_order_given():
    report = Report(long_table(HAND))
    view = report.aggregate(["median", "iqm"], n_resamples=50, rng=0)
    assert list(view.columns[3:]) == ["median", "median_ci_low", "median_ci_high", "iqm", "iqm_ci_low", "iqm_ci_high"]
    assert list(report.aggregate(("mean",), rng=0).columns) == ["model", "n_runs", "n_tasks", "mean", "mean_ci_low",
                                                                "mean_ci_high"]


def test_aggregate_when_lower_is_better_leaves_out_the_optimality_gap():
    report = Report(long_table(HAND), higher_is_better=False)
    assert list(report.aggregate(n_resamples=50, rng=0).columns[3::3]) == ["iqm", "mean", "median"]
    with pytest.raises(ValueError, match=re.escape(
            "`statistics`: the optimality gap measures a shortfall below `gamma` and assumes higher scores are "
            "better; this report has higher_is_better=False.")):
        report.aggregate(["optimality_gap"], n_resamples=50, rng=0)


def test_aggregate_refuses_failed_runs_and_ragged_tasks():
    table = long_table(HAND)
    table.loc[(table.task != "t1") & (table.model == "C") & (table.seed == 1), "score"] = np.nan
    with pytest.raises(ValueError, match="^" + re.escape(
            "Model 'C' has failed or missing runs on 2 task(s) ('t2': 1, 't3': 1); an aggregate over tasks needs "
            "every run (see `failed_runs`).") + "$"):
        Report(table, failed="drop-pairs").aggregate(rng=0)
    ragged = long_table({"t1": HAND["t1"], "t2": {m: v[:3] for m, v in HAND["t2"].items()}})
    with pytest.raises(ValueError, match="^" + re.escape(
            "Model 'A' has 3 to 5 runs per task; an aggregate over tasks needs the same number of runs (seeds) "
            "on every task.") + "$"):
        Report(ragged).aggregate(rng=0)


def test_aggregate_resamples_ten_thousand_times_at_gamma_one_by_default(hand, monkeypatch):
    import sigeval._report_across as module

    seen = []
    real = module.aggregate_ci
    monkeypatch.setattr(module, "aggregate_ci", lambda *args, **kwargs: seen.append(kwargs) or real(*args, **kwargs))
    hand.aggregate(["optimality_gap"], rng=0)
    assert [(k["n_resamples"], k["gamma"], k["confidence_level"]) for k in seen] == [(10_000, 1.0, 0.95)] * 3


# --------------------------------------------------------------------------- bad inputs


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        ({"rope": -0.01}, ValueError, r"`rope` must be a half-width >= 0 .* got -0.01"),
        ({"rope": float("nan")}, ValueError, "`rope` must be finite"),
        ({"rope": float("inf")}, ValueError, "`rope` must be finite"),
        ({"rope": "0.01"}, TypeError, "`rope` must be a real number"),
        ({"rope": None}, TypeError, "`rope` must be a real number"),
        ({"rope": 0.01, "over": "runs"}, ValueError, "`over` must be one of 'seeds', 'tasks'"),
        ({"rope": 0.01, "test_fraction": 0}, ValueError, "`test_fraction` must be strictly between 0 and 1"),
        ({"rope": 0.01, "test_fraction": 1.0}, ValueError, "`test_fraction` must be strictly between 0 and 1"),
        ({"rope": 0.01, "test_fraction": float("nan")}, ValueError, "`test_fraction` must be strictly between"),
        ({"rope": 0.01, "test_fraction": "0.5"}, TypeError, "`test_fraction` must be a real number"),
        ({"rope": 0.01, "over": "tasks", "test_fraction": 0.5}, ValueError, "^" + re.escape(
            "`test_fraction` belongs to over='seeds' (the splits within a task); the signed-rank test over tasks "
            "has none; got test_fraction=0.5.") + "$"),
        ({"rope": 0.01, "over": "tasks", "prior_strength": 0}, ValueError, "`prior_strength` must be positive"),
        ({"rope": 0.01, "over": "tasks", "n_draws": 0}, ValueError, "`n_draws` must be an integer >= 1"),
        ({"rope": 0.01, "over": "tasks", "n_draws": 2.5}, TypeError, "`n_draws` must be an integer"),
        ({"rope": 0.01, "over": "tasks", "rng": "seed"}, TypeError, "`rng`"),
    ],
)
def test_bayesian_refuses_bad_arguments_by_name(hand, kwargs, error, match):
    with pytest.raises(error, match=match):
        hand.bayesian(**kwargs)


def test_bayesian_needs_a_rope(hand):
    with pytest.raises(TypeError, match="rope"):
        hand.bayesian()


@pytest.mark.parametrize(
    "args, kwargs, error, match",
    [
        ((["trimmed"],), {}, ValueError, "`statistics` must be one of 'iqm', 'mean', 'median', 'optimality_gap'"),
        (("iqm",), {}, TypeError, "`statistics` must be a sequence of strings"),
        (([],), {}, ValueError, "`statistics` must hold at least one"),
        ((["iqm", "iqm"],), {}, ValueError, r"`statistics` must be distinct; got \['iqm', 'iqm'\]"),
        ((), {"n_resamples": 0}, ValueError, "`n_resamples` must be an integer >= 1"),
        ((), {"confidence_level": 1.0}, ValueError, "`confidence_level` must be strictly between 0 and 1"),
        ((), {"gamma": float("nan")}, ValueError, "`gamma` must be finite"),
        ((), {"rng": 1.5}, TypeError, "`rng`"),
    ],
)
def test_aggregate_refuses_bad_arguments_by_name(hand, args, kwargs, error, match):
    with pytest.raises(error, match=match):
        hand.aggregate(*args, **kwargs)


def test_bayesian_judges_a_rounding_level_spread_against_the_scores_or_the_differences():
    # Scores near 1e6 whose differences vary at 1e-10: rounding error against the scores (a point mass for
    # the Bayesian paired t, as bayesian_paired_t gives), real variation against the differences themselves
    # (the correlated t's spread_of="differences", as correlated_ttest gives).
    d = np.array([1.0, 3.0, 2.0, 4.0, 2.5]) * 1e-10
    runs = pd.DataFrame([("t", m, s, 1e6 + (d[s] if m == "a" else 0.0)) for m in ("a", "b") for s in range(5)],
                        columns=["task", "model", "seed", "score"])
    seeds = Report(runs).bayesian(rope=1e-12)
    assert seeds.posterior_scale.iloc[0] == 0.0
    assert seeds.posterior_scale.iloc[0] == bayesian_paired_t(runs.score[:5], runs.score[5:], rope=1e-12).scale
    resplits = Report(runs).bayesian(rope=1e-12, test_fraction=0.2)
    one = correlated_ttest(runs.score[:5].to_numpy() - runs.score[5:].to_numpy(), test_fraction=0.2, rope=1e-12)
    assert resplits.posterior_scale.iloc[0] > 0 and resplits.posterior_scale.iloc[0] == one.scale

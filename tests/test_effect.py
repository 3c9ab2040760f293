"""sigeval.effect: Cohen's d_z, Hedges' g, Cliff's delta, the common-language effect size, the paired mean sign.

Checked against their formulas, the noncentral t by scipy, a brute-force
dominance matrix, the published output of R's effsize, scipy's exact binomial
interval, and by simulated or enumerated coverage.
"""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import special, stats

from sigeval import EFFECT_SIZES, MAGNITUDE_CONVENTIONS, EffectSize, effect_size, prob_improvement
from sigeval import effect as effect_module

A = np.array([71.6, 71.1, 71.6, 71.4, 71.2])
B = np.array([71.2, 70.8, 71.5, 70.9, 71.1])


# --------------------------------------------------------------------------- Cohen's d_z and Hedges' g


@pytest.mark.parametrize("level", [0.5, 0.9, 0.95, 0.99])
def test_cohen_dz_is_the_standardised_mean_difference_with_the_noncentral_t_interval(level):
    rng = np.random.default_rng(0)
    for n in (2, 3, 6, 30):
        b = rng.normal(0.7, 0.02, n)
        a = b + rng.normal(0.004, 0.01, n)
        res = effect_size(a, b, confidence_level=level)
        d = a - b
        dz = d.mean() / d.std(ddof=1)
        assert res.estimate == pytest.approx(dz, rel=1e-10)
        assert (res.kind, res.paired, res.interval_method, res.n_a, res.n_b) == ("cohen_dz", True, "noncentral t", n, n)
        t = dz * math.sqrt(n)
        tail = (1 - level) / 2
        low, high = res.confidence_interval
        # The bounds are the noncentralities at which the observed t sits at each tail.
        assert stats.nct.sf(t, n - 1, low * math.sqrt(n)) == pytest.approx(tail, rel=1e-6)
        assert stats.nct.cdf(t, n - 1, high * math.sqrt(n)) == pytest.approx(tail, rel=1e-6)
        assert low < res.estimate < high


def test_cohen_dz_is_unlabelled_since_cohens_thresholds_are_for_two_groups():
    # Strongly correlated pairs: the two-group d is small, d_z = d / sqrt(2 (1 - r)) is not.
    rng = np.random.default_rng(3)
    b = rng.normal(0.7, 0.05, 40)
    a = b + 0.01 + rng.normal(0, 0.01, 40)
    paired = effect_size(a, b)
    groups = effect_size(a, b, paired=False)
    assert paired.estimate > 0.8 and groups.magnitude in ("negligible", "small")
    assert paired.magnitude == "unlabelled" and "two-group d" in paired.convention
    assert groups.convention == MAGNITUDE_CONVENTIONS["cohen_d"][1]


@pytest.mark.parametrize("sizes", [(2, 2), (3, 5), (8, 8), (20, 12)])
def test_hedges_g_is_the_corrected_pooled_difference(sizes):
    n_a, n_b = sizes
    rng = np.random.default_rng(n_a + n_b)
    a, b = rng.normal(0.72, 0.02, n_a), rng.normal(0.70, 0.02, n_b)
    res = effect_size(a, b, paired=False)
    df = n_a + n_b - 2
    pooled = math.sqrt(((n_a - 1) * a.var(ddof=1) + (n_b - 1) * b.var(ddof=1)) / df)
    d = (a.mean() - b.mean()) / pooled
    j = special.gamma(df / 2) / (math.sqrt(df / 2) * special.gamma((df - 1) / 2))
    assert res.estimate == pytest.approx(j * d, rel=1e-10)
    assert j == pytest.approx(1 - 3 / (4 * df - 1), abs=0.01)  # Hedges' approximation
    assert (res.kind, res.paired, res.n_a, res.n_b) == ("hedges_g", False, n_a, n_b)
    root = math.sqrt(1 / n_a + 1 / n_b)
    t = d / root
    low, high = res.confidence_interval
    assert stats.nct.sf(t, df, low / root) == pytest.approx(0.025, rel=1e-6)
    assert stats.nct.cdf(t, df, high / root) == pytest.approx(0.025, rel=1e-6)
    assert low < res.estimate < high


def test_noncentral_t_intervals_cover_at_their_level():
    rng = np.random.default_rng(1)
    replications = 300
    hits_dz = hits_g = 0
    for _ in range(replications):
        low, high = effect_size(rng.normal(0.8, 1.0, 6), np.zeros(6)).confidence_interval  # true d_z = 0.8
        hits_dz += low <= 0.8 <= high
        a, b = rng.normal(0.5, 1.0, 5), rng.normal(0.0, 1.0, 7)  # true delta = 0.5
        low, high = effect_size(a, b, paired=False).confidence_interval
        hits_g += low <= 0.5 <= high
    mc_error = math.sqrt(0.95 * 0.05 / replications)
    assert abs(hits_dz / replications - 0.95) <= 3 * mc_error
    assert abs(hits_g / replications - 0.95) <= 3 * mc_error


def test_the_interval_of_a_huge_t_uses_the_limit_of_a_known_mean():
    # Beyond |t| = 1e4 the bounds are t * sqrt(chi2 quantile / df); at the switch they agree with the
    # noncentral t's to the order 1/t**2 that the limit neglects.
    for df in (1, 4, 30):
        for t in (3e3, 1e4):
            tail = 0.025
            q = stats.chi2.ppf([tail, 1 - tail], df) / df
            limit = t * np.sqrt(q)
            exact = effect_module._nct_interval(t, df, 0.95)
            np.testing.assert_allclose(exact, limit, rtol=3e-6 if t < 1e4 else 3e-7)
        above = effect_module._nct_interval(1e4 * (1 + 1e-9), df, 0.95)
        np.testing.assert_allclose(above, effect_module._nct_interval(1e4, df, 0.95), rtol=1e-6)
    low, high = effect_module._nct_interval(-2e4, 4, 0.9)
    assert (low, high) == pytest.approx(tuple(-x for x in effect_module._nct_interval(2e4, 4, 0.9)[::-1]))
    # Nearly constant differences: a huge but finite d_z with a finite interval.
    res = effect_size(1.0 + np.array([1e-9, 2e-9, 3e-9, 1.5e-9]) + 0.5, np.ones(4))
    assert res.estimate > 1e8 and np.isfinite(tuple(res.confidence_interval)).all()


def test_the_root_search_walks_either_way():
    root = effect_module._increasing_root(lambda x: x - 37.5, 0.0)
    assert root == pytest.approx(37.5)
    assert effect_module._increasing_root(lambda x: x + 37.5, 0.0) == pytest.approx(-37.5)
    assert effect_module._increasing_root(lambda x: x - 2.0, 2.0) == pytest.approx(2.0)
    # A level near 0 puts both bounds at the noncentrality whose median is the observed t
    # (below t: the noncentral t's median exceeds its noncentrality).
    low, high = effect_module._nct_interval(2.0, 5, 1e-6)
    assert 0 < high - low < 1e-5 and high < 2.0
    assert stats.nct.median(5, low) == pytest.approx(2.0, abs=1e-5)
    low, high = effect_module._nct_interval(0.0, 3, 0.95)
    assert low == pytest.approx(-high)


def test_scale_does_not_change_d():
    for factor in (1e-300, 1e-3, 1e3, 1e300):
        assert effect_size(A * factor, B * factor).estimate == pytest.approx(effect_size(A, B).estimate, rel=1e-9)
        assert effect_size(A * factor, B * factor, paired=False).estimate == pytest.approx(
            effect_size(A, B, paired=False).estimate, rel=1e-9)
    huge = effect_size(np.array([1.7e308, 1.6e308, 1.5e308]), np.array([-1.7e308, -1.2e308, -1.6e308]))
    assert np.isfinite(huge.estimate)


# --------------------------------------------------------------------------- Cliff's delta and the common language


def _dominance(a, b):
    return np.sign(np.subtract.outer(a, b))


@pytest.mark.parametrize("sizes", [(2, 2), (3, 5), (10, 6), (17, 23)])
def test_cliff_delta_against_the_dominance_matrix(sizes):
    rng = np.random.default_rng(sum(sizes))
    a = np.round(rng.normal(0.3, 1, sizes[0]), 1)
    b = np.round(rng.normal(0.0, 1, sizes[1]), 1)
    m = _dominance(a, b)
    delta = m.mean()
    n_a, n_b = m.shape
    rows, columns = m.mean(axis=1), m.mean(axis=0)
    unbiased = (n_b**2 * np.sum((rows - delta) ** 2) + n_a**2 * np.sum((columns - delta) ** 2)
                - np.sum((m - delta) ** 2)) / (n_a * n_b * (n_a - 1) * (n_b - 1))
    variance = max(unbiased, (1 - delta**2) / (n_a * n_b - 1))
    got_delta, got_variance = effect_module._cliff_unpaired(a, b)
    assert got_delta == pytest.approx(delta, abs=1e-12)
    assert got_variance == pytest.approx(variance, rel=1e-10)
    res = effect_size(a, b, kind="cliff_delta", paired=False, confidence_level=0.9)
    if variance == 0:  # complete separation: the interval is the point
        assert abs(delta) == 1 and tuple(res.confidence_interval) == (delta, delta)
        return
    z = stats.t.isf(0.05, n_a + n_b - 2)
    root = z * math.sqrt(variance) * math.sqrt((1 - delta**2) ** 2 + z**2 * variance)
    expected = ((delta - delta**3 - root) / (1 - delta**2 + z**2 * variance),
                (delta - delta**3 + root) / (1 - delta**2 + z**2 * variance))
    np.testing.assert_allclose(tuple(res.confidence_interval), expected, rtol=1e-10)
    assert (res.kind, res.interval_method) == ("cliff_delta", "Cliff (1993)")
    assert -1 <= res.confidence_interval.low <= res.estimate <= res.confidence_interval.high <= 1


def test_cliff_delta_reproduces_effsize():
    # R: effsize::cliff.delta(treatment, control) prints -0.25 (small), 95% CI [-0.7265846, 0.3890062].
    treatment = [10, 10, 20, 20, 20, 30, 30, 30, 40, 50]
    control = [10, 20, 30, 40, 40, 50]
    res = effect_size(treatment, control, kind="cliff_delta", paired=False)
    assert res.estimate == -0.25 and res.magnitude == "small"
    np.testing.assert_allclose(tuple(res.confidence_interval), (-0.7265846, 0.3890062), atol=5e-8)


def _cliff_unpaired_before_issue_40(a, b):
    """The previous implementation (random-order binary searches), kept as the oracle of the faster one."""
    n_a, n_b = a.size, b.size
    sorted_a, sorted_b = np.sort(a), np.sort(b)
    row = (np.searchsorted(sorted_b, a) - (n_b - np.searchsorted(sorted_b, a, side="right"))) / n_b
    column = ((n_a - np.searchsorted(sorted_a, b, side="right")) - np.searchsorted(sorted_a, b)) / n_a
    delta = float(row.mean())
    wins = float(np.sum(np.searchsorted(sorted_b, a)))
    losses = float(np.sum(n_b - np.searchsorted(sorted_b, a, side="right")))
    ties = float(n_a) * n_b - wins - losses
    residual = wins * (1 - delta) ** 2 + losses * (1 + delta) ** 2 + ties * delta**2
    unbiased = (
        float(n_b) ** 2 * np.sum((row - delta) ** 2) + float(n_a) ** 2 * np.sum((column - delta) ** 2) - residual
    ) / (float(n_a) * n_b * (n_a - 1) * (n_b - 1))
    return delta, max(float(unbiased), (1 - delta**2) / (float(n_a) * n_b - 1))


@pytest.mark.parametrize("seed", range(12))
def test_cliff_delta_equals_the_previous_implementation_to_the_last_digits(seed):
    # The counts are the same integers; the sums now run over the sorted scores (a different order of the same
    # terms) and delta is (wins - losses) / (n_a n_b) rounded once, where the mean of the rows rounded many times.
    rng = np.random.default_rng(seed)
    n_a, n_b = rng.integers(2, 3000, size=2)
    decimals = (0, 1, 3, 15)[seed % 4]  # from heavy ties to none
    a = np.round(rng.normal(0.2, 1, n_a), decimals)
    b = np.round(rng.normal(0.0, 1.5, n_b), decimals)
    delta, variance = effect_module._cliff_unpaired(a, b)
    old_delta, old_variance = _cliff_unpaired_before_issue_40(a, b)
    assert abs(delta - old_delta) <= 1e-15
    assert variance == pytest.approx(old_variance, rel=1e-12)
    # delta is the exact fraction of pairs won minus lost, rounded once.
    signs = np.sign(np.subtract.outer(a, b)).astype(np.int64)
    assert delta == int(signs.sum()) / (n_a * n_b)


def test_cliff_delta_equals_the_mann_whitney_u_of_scipy():
    # delta = 2 U / (n_a n_b) - 1, U counting ties one half (the peer of the benchmark in benchmarks/bench_effect.py).
    rng = np.random.default_rng(40)
    a, b = np.round(rng.normal(0.1, 1, 20_001), 2), np.round(rng.normal(0, 1, 19_999), 2)
    u = stats.mannwhitneyu(a, b).statistic
    assert effect_size(a, b, kind="cliff_delta", paired=False).estimate == pytest.approx(
        2 * u / (a.size * b.size) - 1, abs=1e-14)


def test_the_variance_floor_and_complete_separation():
    # Few ties and a large delta: the unbiased estimate falls below its floor (1 - delta^2) / (n_a n_b - 1).
    a, b = [3.0, 4.0, 5.0], [1.0, 2.0, 3.5]
    delta, variance = effect_module._cliff_unpaired(np.array(a), np.array(b))
    assert delta == pytest.approx(7 / 9)
    assert variance == pytest.approx((1 - delta**2) / 8)
    # Every pair won by A: the variance is 0 and the interval collapses to the point.
    res = effect_size([5.0, 6.0, 7.0], [1.0, 2.0], kind="cliff_delta", paired=False)
    assert res.estimate == 1.0 and tuple(res.confidence_interval) == (1.0, 1.0)
    assert effect_module._cliff_interval(0.3, 0.0, 1.96) == (0.3, 0.3)


def test_the_common_language_effect_size_is_p_of_a_beating_b():
    rng = np.random.default_rng(3)
    a, b = np.round(rng.normal(0.2, 1, 9), 1), np.round(rng.normal(0, 1, 12), 1)
    cl = effect_size(a, b, kind="common_language", paired=False)
    wins = np.mean(np.greater.outer(a, b)) + 0.5 * np.mean(np.equal.outer(a, b))
    assert cl.estimate == pytest.approx(wins)
    assert cl.estimate == pytest.approx(prob_improvement(a, b, paired=False, rng=0).estimate)
    cliff = effect_size(a, b, kind="cliff_delta", paired=False)
    np.testing.assert_allclose(tuple(cl.confidence_interval), (np.asarray(tuple(cliff.confidence_interval)) + 1) / 2)
    assert (cl.kind, cl.interval_method) == ("common_language", "Cliff (1993)")


def _clopper_pearson(k, n, level):
    """scipy's exact binomial interval, the independent oracle of the paired interval."""
    ci = stats.binomtest(k, n).proportion_ci(confidence_level=level, method="exact")
    return ci.low, ci.high


@pytest.mark.parametrize("level", [0.8, 0.95])
def test_the_paired_mean_sign_has_the_exact_binomial_interval(level):
    a = np.array([0.71, 0.69, 0.74, 0.70, 0.72, 0.68, 0.70])
    b = np.array([0.70, 0.69, 0.71, 0.71, 0.69, 0.66, 0.69])
    wins, ties, n = 5, 1, 7   # one loss
    res = effect_size(a, b, kind="cliff_delta", confidence_level=level)
    assert res.estimate == pytest.approx(np.sign(a - b).mean()) and res.estimate == pytest.approx(4 / 7)
    # The lower bound counts the tie as a loss, the upper as a win.
    low, high = _clopper_pearson(wins, n, level)[0], _clopper_pearson(wins + ties, n, level)[1]
    assert tuple(res.confidence_interval) == pytest.approx((2 * low - 1, 2 * high - 1), rel=1e-12)
    assert (res.kind, res.paired, res.interval_method) == ("paired_mean_sign", True, "exact binomial")
    assert res.magnitude == "unlabelled" and "two independent groups" in res.convention
    cl = effect_size(a, b, kind="common_language", confidence_level=level)
    assert cl.estimate == pytest.approx(prob_improvement(a, b, rng=0).estimate)
    assert tuple(cl.confidence_interval) == pytest.approx((low, high), rel=1e-12)
    assert (cl.kind, cl.interval_method, cl.magnitude) == ("paired_superiority", "exact binomial", "unlabelled")
    # Without ties it is the interval of the sign test, Clopper-Pearson on the wins.
    untied = effect_size(a[[0, 2, 3, 4, 5, 6]], b[[0, 2, 3, 4, 5, 6]], kind="cliff_delta", confidence_level=level)
    assert tuple(untied.confidence_interval) == pytest.approx(tuple(2 * np.array(_clopper_pearson(5, 6, level)) - 1))
    # Paired huge scores: signs come from comparisons, not from a difference that overflows.
    huge = effect_size([1.7e308, -1.7e308], [-1.7e308, 1.7e308], kind="cliff_delta")
    assert huge.estimate == 0.0


def test_complete_separation_of_pairs_does_not_collapse_the_interval():
    # Ten wins in ten pairs: the percentile bootstrap gave [1, 1]; the exact lower bound is 2 * 0.025**(1/10) - 1.
    res = effect_size(np.arange(10.0) + 0.5, np.arange(10.0), kind="cliff_delta")
    assert res.estimate == 1.0 and res.confidence_interval.high == 1.0
    assert res.confidence_interval.low == pytest.approx(2 * 0.025 ** 0.1 - 1, rel=1e-12)
    assert 0.38 < res.confidence_interval.low < 0.39
    every_tie = effect_size(np.zeros(4), np.zeros(4), kind="cliff_delta")
    assert every_tie.estimate == 0.0
    assert tuple(every_tie.confidence_interval) == pytest.approx((-1.0, 1.0))


@pytest.mark.parametrize(("n", "level"), [(6, 0.9), (9, 0.95)])
def test_the_paired_interval_covers_at_least_its_level_whatever_the_ties(n, level):
    """Exact coverage by enumerating every (wins, ties, losses) of n pairs, on a grid of trinomial laws."""
    outcomes = [(w, t, n - w - t) for w in range(n + 1) for t in range(n + 1 - w)]
    intervals = {}
    for w, t, loss in outcomes:
        a = np.r_[np.ones(w), np.zeros(t), np.zeros(loss)]
        b = np.r_[np.zeros(w), np.zeros(t), np.ones(loss)]
        intervals[w, t] = tuple(effect_size(a, b, kind="cliff_delta", confidence_level=level).confidence_interval)
    grid = np.linspace(0, 1, 21)
    for p_win in grid:
        for p_tie in grid[grid <= 1 - p_win + 1e-12]:
            p_loss = max(0.0, 1 - p_win - p_tie)
            truth = p_win - p_loss
            coverage = sum(
                stats.multinomial.pmf([w, t, loss], n, [p_win, p_tie, p_loss])
                for w, t, loss in outcomes if intervals[w, t][0] <= truth + 1e-12 and truth - 1e-12 <= intervals[w, t][1]
            )
            assert coverage >= level - 1e-9, (p_win, p_tie, coverage)
            if p_tie == 0 and 0 < p_win < 1:
                # No ties: exactly the coverage of Clopper-Pearson on the wins.
                cp = sum(stats.binom.pmf(w, n, p_win) for w in range(n + 1)
                         if _clopper_pearson(w, n, level)[0] <= p_win + 1e-12 <= _clopper_pearson(w, n, level)[1] + 2e-12)
                assert coverage == pytest.approx(cp, abs=1e-9)


@pytest.mark.parametrize("kind", EFFECT_SIZES)
@pytest.mark.parametrize("paired", [True, False])
def test_swapping_the_models_mirrors_the_effect(kind, paired):
    a = np.array([0.71, 0.69, 0.74, 0.70, 0.72, 0.68])
    b = np.array([0.70, 0.69, 0.71, 0.71, 0.69, 0.66])
    forward = effect_size(a, b, kind=kind, paired=paired)
    backward = effect_size(b, a, kind=kind, paired=paired)
    centre = 0.5 if kind == "common_language" else 0.0
    assert backward.estimate - centre == pytest.approx(-(forward.estimate - centre), abs=1e-12)
    np.testing.assert_allclose(np.asarray(tuple(backward.confidence_interval)) - centre,
                               -(np.asarray(tuple(forward.confidence_interval))[::-1] - centre), atol=1e-9)
    assert backward.magnitude == forward.magnitude
    assert isinstance(forward, EffectSize) and forward.confidence_level == 0.95


# --------------------------------------------------------------------------- labels are conventions


@pytest.mark.parametrize(
    ("kind", "values", "labels"),
    [
        ("cohen_d", [0.0, 0.199, 0.2, 0.49, 0.5, 0.79, 0.8, 3.0], ["negligible"] * 2 + ["small"] * 2 + ["medium"] * 2 + ["large"] * 2),
        ("cliff_delta", [0.0, 0.146, 0.147, 0.329, 0.33, 0.473, 0.474, 1.0],
         ["negligible"] * 2 + ["small"] * 2 + ["medium"] * 2 + ["large"] * 2),
        ("common_language", [0.0, 0.059, 0.06, 0.139, 0.14, 0.209, 0.21, 0.5],
         ["negligible"] * 2 + ["small"] * 2 + ["medium"] * 2 + ["large"] * 2),
    ],
)
def test_magnitude_labels_follow_their_conventions(kind, values, labels):
    for value, label in zip(values, labels):
        assert effect_module._label(kind, value)[0] == label
        assert effect_module._label(kind, -value)[0] == label
    assert effect_module._label(kind, 0.0)[1] == MAGNITUDE_CONVENTIONS[kind][1]


def test_conventions_name_their_sources():
    assert MAGNITUDE_CONVENTIONS["cohen_d"][0] == (0.2, 0.5, 0.8)
    assert MAGNITUDE_CONVENTIONS["cliff_delta"][0] == (0.147, 0.33, 0.474)
    assert MAGNITUDE_CONVENTIONS["common_language"][0] == (0.06, 0.14, 0.21)
    assert "Cohen (1988)" in MAGNITUDE_CONVENTIONS["cohen_d"][1]
    assert "Romano et al. (2006)" in MAGNITUDE_CONVENTIONS["cliff_delta"][1]
    assert "Vargha & Delaney (2000)" in MAGNITUDE_CONVENTIONS["common_language"][1]
    res = effect_size(A, B, kind="common_language", paired=False)
    assert res.convention == MAGNITUDE_CONVENTIONS["common_language"][1]
    assert res.magnitude == "large" and res.estimate == pytest.approx(0.8)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: effect_size([0.7, 0.7, 0.7], [0.6, 0.6, 0.6]), ValueError, "differences `scores_a - scores_b` have zero spread"),
        (lambda: effect_size([0.7, 0.7], [0.6, 0.6], paired=False), ValueError, "scores of `scores_a` and `scores_b` have zero spread"),
        (lambda: effect_size([0.7, 0.8], [0.6, 0.7], paired=1), TypeError, "`paired` must be True or False"),
        (lambda: effect_size([0.7, 0.8], [0.6, 0.7], kind="glass"), ValueError, "`kind` must be one of 'cohen_d'"),
        (lambda: effect_size([0.7], [0.6]), ValueError, r"`scores_a` must hold at least 2 value\(s\)"),
        (lambda: effect_size([0.7, 0.8], [0.6, 0.7, 0.8]), ValueError, "must be paired"),
        (lambda: effect_size([0.7, 0.8], [0.6]), ValueError, r"`scores_b` must hold at least 2 value\(s\)"),
        (lambda: effect_size([0.7, np.nan], [0.6, 0.7]), ValueError, "`scores_a` holds 1 NaN"),
        (lambda: effect_size([0.7, 0.8], [0.6, 0.7], confidence_level=0), ValueError, "`confidence_level` must be strictly"),
        (lambda: effect_size([0.7, 0.8], [0.6, 0.7], n_resamples=0), ValueError, "`n_resamples` must be an integer >= 1"),
        (lambda: effect_size([0.7, 0.8], [0.6, 0.7], rng="x"), TypeError, "`rng`"),
    ],
)
def test_bad_input_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


# --------------------------------------------------------------------------- edges the mutation tests asked for


def test_defaults():
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # the defaults of the deprecated arguments do not warn
        res = effect_size(A, B)
        paired_sign = effect_size(A, B, kind="cliff_delta")
    assert (res.kind, res.paired, res.confidence_level) == ("cohen_dz", True, 0.95)
    assert paired_sign.confidence_level == 0.95
    assert paired_sign.confidence_interval.low == pytest.approx(2 * 0.025 ** (1 / 5) - 1)


@pytest.mark.parametrize("given", [dict(n_resamples=500), dict(rng=3), dict(n_resamples=10, rng=0)])
@pytest.mark.parametrize("kind", EFFECT_SIZES)
def test_the_bootstrap_arguments_warn_and_change_nothing(given, kind):
    with pytest.warns(FutureWarning, match=r"^`n_resamples` and `rng` of effect_size are no longer used") as record:
        res = effect_size(A, B, kind=kind, **given)
    assert str(record[0].message) == (
        "`n_resamples` and `rng` of effect_size are no longer used: the paired kinds of winning now have an "
        "exact binomial interval, and no kind resamples. Drop them; they will be removed.")
    # The warning points at the caller (under mutation testing, at mutmut's trampoline that calls for it).
    assert record[0].filename == __file__ or "mutmut" in Path(record[0].filename).parts
    assert res == effect_size(A, B, kind=kind)


def test_zero_spread_message_in_full():
    with pytest.raises(ValueError, match=r"^The differences `scores_a - scores_b` have zero spread \(all equal up to "
                                         r"rounding error\): a standardised difference divides by their sd and is "
                                         r"undefined\. Use kind='cliff_delta' or 'common_language', or check that the "
                                         r"runs were independent repetitions\.$"):
        effect_size([0.7, 0.8, 0.9], [0.6, 0.7, 0.8])


def test_spread_is_judged_against_the_scores_at_the_threshold():
    # Scores near 1.9 (rescaled by 1): the zero-spread threshold is 64 eps = 1.42e-14 of the scale 1, not of 1.9.
    a = np.array([1.9, 1.9 + 2e-14, 1.9 + 4e-14, 1.9 + 6e-14])
    b = np.full(4, 1.9)
    sd = np.std(a - b, ddof=1)
    assert 64 * np.finfo(float).eps < sd < 64 * np.finfo(float).eps * 1.9
    assert np.isfinite(effect_size(a, b).estimate)
    pooled = np.sqrt((np.var(a, ddof=1) * 3 + 0) / 6)
    assert 64 * np.finfo(float).eps < pooled < 64 * np.finfo(float).eps * 1.9
    assert np.isfinite(effect_size(a, b, paired=False).estimate)
    # Differences of 1e-9 on scores of 1e6: rounding error of the scores, refused.
    with pytest.raises(ValueError, match="zero spread"):
        effect_size(1e6 + np.array([1e-9, 2e-9, 3e-9]), np.full(3, 1e6))


def test_the_variance_floor_is_used_when_the_unbiased_estimate_falls_below_it():
    a, b = np.array([0.0, 2.0]), np.array([5.0, 3.0, 2.0])
    delta, variance = effect_module._cliff_unpaired(a, b)
    assert delta == pytest.approx(-5 / 6)
    assert variance == pytest.approx((1 - delta**2) / 5)  # the unbiased estimate is 1/36


def test_the_noncentral_t_is_used_up_to_the_limit():
    for df in (1, 4, 30):
        low, high = effect_module._nct_interval(1e4, df, 0.95)
        assert stats.nct.sf(1e4, df, low) == pytest.approx(0.025, rel=1e-10)
        assert stats.nct.cdf(1e4, df, high) == pytest.approx(0.025, rel=1e-10)


def test_unpaired_inputs_are_checked_by_name():
    with pytest.raises(ValueError, match=r"^`scores_a` must hold at least 2 value\(s\); got 1"):
        effect_size([0.7], [0.6, 0.7], paired=False)
    with pytest.raises(ValueError, match=r"^`scores_b` must hold at least 2 value\(s\); got 1"):
        effect_size([0.7, 0.8], [0.6], paired=False)


def test_the_common_language_label_measures_the_distance_from_one_half():
    # Of the 25 pairs of runs, 9 won, 12 tied, 4 lost: A = 0.6, a distance of 0.1 from 1/2: "small" by Vargha
    # and Delaney. Paired, the same scores are three wins and two losses, and get no label.
    res = effect_size([1.0, 1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 1.0], kind="common_language", paired=False)
    assert res.estimate == pytest.approx(0.6) and res.magnitude == "small"
    paired = effect_size([1.0, 1.0, 1.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.0, 1.0], kind="common_language")
    assert paired.estimate == pytest.approx(0.6) and paired.magnitude == "unlabelled"


@pytest.mark.parametrize("n_a, n_b", [(10**5, 10**5), (10**6, 2 * 10**5), (3 * 10**5, 10**6)])
def test_cliff_delta_memory_check_counts_what_is_allocated(n_a, n_b):
    import tracemalloc

    rng = np.random.default_rng(0)
    a, b = rng.normal(0, 1, n_a), rng.normal(0, 1, n_b)
    tracemalloc.start()
    try:
        effect_size(a, b, kind="cliff_delta", paired=False)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    counted = effect_module._CLIFF_BYTES_PER_SCORE * (n_a + n_b)
    assert counted / 1.5 <= peak <= 1.5 * counted, (peak, counted)


def test_cliff_delta_refuses_up_front_what_would_exceed_the_memory_limit(monkeypatch):
    import sigeval._validation as validation

    monkeypatch.setattr(validation, "MEMORY_LIMIT", 46 * 1000)
    assert effect_size(np.arange(500.0), np.arange(500.0), kind="cliff_delta", paired=False).n_a == 500
    with pytest.raises(ValueError, match=r"^`scores_a` = 500 and 501 scores would need 45\.0 KiB of memory for "
                                         r"the sorted scores and their counts; the limit is 44\.9 KiB\. "
                                         r"Compare random subsamples of the scores"):
        effect_size(np.arange(500.0), np.arange(501.0), kind="cliff_delta", paired=False)

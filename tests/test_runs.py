"""sigeval.runs against scipy, hand computations, the seed documents and simulation."""

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    DECISIONS,
    VERDICTS,
    corrected_resampled_t,
    five_by_two_cv_f,
    five_by_two_cv_t,
    paired_difference,
    power_paired,
    prob_improvement,
    seed_summary,
    seeds_needed,
    tost_paired,
    variance_split,
    verdict,
    verdict_from_pvalues,
    welch_test,
)

# --------------------------------------------------------------------------- seed summaries


def test_seed_summary_matches_numpy():
    x = np.random.default_rng(0).normal(0.64, 0.01, 20)
    s = seed_summary(x)
    assert (s.n, s.min, s.max) == (20, x.min(), x.max())
    assert s.mean == pytest.approx(x.mean(), rel=1e-15)
    assert s.sd == pytest.approx(x.std(ddof=1), rel=1e-14)
    assert s.standard_error == pytest.approx(x.std(ddof=1) / np.sqrt(20), rel=1e-14)
    assert all(isinstance(v, float) for v in (s.mean, s.sd, s.min, s.max, s.standard_error))


def test_seed_summary_standard_error_example_of_the_article():
    # ImageNet's 0.1-point seed deviation: five runs give a standard error of about 0.045.
    z = np.array([-2.0, -1.0, 0.0, 1.0, 2.0])
    s = seed_summary(75.0 + 0.1 * z / z.std(ddof=1))
    assert s.sd == pytest.approx(0.1, rel=1e-12)
    assert f"{s.standard_error:.3f}" == "0.045"


@pytest.mark.parametrize(
    ("scores", "match"),
    [
        ([0.64], r"`scores` must hold at least 2 value\(s\); got 1"),
        ([0.64, np.nan, 0.65], r"`scores` holds 1 NaN or infinite value\(s\) \(a failed run or item\?\) at position\(s\) 1"),
        ([[0.64, 0.65]], r"`scores` must be one-dimensional"),
    ],
)
def test_seed_summary_rejects_bad_input(scores, match):
    with pytest.raises(ValueError, match=match):
        seed_summary(scores)


def test_welch_matches_scipy_and_hand_formula():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0.643, 0.007, 20), rng.normal(0.639, 0.0095, 15)
    for level in (0.9, 0.95, 0.99):
        res = welch_test(a, b, confidence_level=level)
        ref = stats.ttest_ind(a, b, equal_var=False)
        ci = ref.confidence_interval(level)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        assert (res.confidence_interval.low, res.confidence_interval.high) == pytest.approx(
            (ci.low, ci.high), rel=1e-12
        )
    va, vb = a.var(ddof=1) / a.size, b.var(ddof=1) / b.size
    df = (va + vb) ** 2 / (va**2 / (a.size - 1) + vb**2 / (b.size - 1))
    assert res.df == pytest.approx(df, rel=1e-12)
    assert res.statistic == pytest.approx((a.mean() - b.mean()) / np.sqrt(va + vb), rel=1e-12)
    assert res.estimate == pytest.approx(a.mean() - b.mean(), rel=1e-12)
    assert (res.n_a, res.n_b) == (20, 15)


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_welch_allows_one_constant_set():
    res = welch_test([0.5, 0.5, 0.5], [0.4, 0.45, 0.42])
    assert np.isfinite(res.pvalue)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(scores_a=[0.5, 0.5], scores_b=[0.4, 0.4]), r"both have zero spread"),
        (dict(scores_a=[0.5], scores_b=[0.4, 0.41]), r"`scores_a` must hold at least 2"),
        (dict(scores_a=[0.5, 0.6], scores_b=[0.4, np.nan]), r"`scores_b` holds 1 NaN"),
        (dict(scores_a=[0.5, 0.6], scores_b=[0.4, 0.5], confidence_level=95), r"`confidence_level` must be strictly between 0 and 1; got 95.0"),
    ],
)
def test_welch_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        welch_test(**kwargs)


# --------------------------------------------------------------------------- paired differences

# Seed 002: five pairs, differences 0.4, 0.3, 0.1, 0.5, 0.1 point, useful threshold 0.30.
REFERENCE = np.array([71.2, 70.8, 71.5, 70.9, 71.1])
CANDIDATE = REFERENCE + np.array([0.4, 0.3, 0.1, 0.5, 0.1])


def test_seed_002_worked_example():
    res = paired_difference(CANDIDATE, REFERENCE, threshold=0.30)
    assert res.estimate == pytest.approx(0.28, abs=1e-12)
    assert res.median == pytest.approx(0.30, abs=1e-12)
    assert f"{res.sd:.3f}" == "0.179"
    assert (res.n, res.df, res.n_dropped) == (5, 4, 0)
    # 0.28 +- 2.776 x 0.080 ~ [0.058, 0.502]
    assert f"{stats.t.ppf(0.975, 4):.3f}" == "2.776"
    assert f"{res.sd / np.sqrt(5):.3f}" == "0.080"
    ci = res.confidence_interval
    assert (f"{ci.low:.3f}", f"{ci.high:.3f}") == ("0.058", "0.502")
    assert ci.low > 0 and ci.high > 0.30 > ci.low  # above zero, overlaps the threshold
    assert res.decision == DECISIONS[1] == "gain established; useful gain not established"
    assert "useful gain not established" in res.decision
    np.testing.assert_allclose(res.differences, [0.4, 0.3, 0.1, 0.5, 0.1], atol=1e-12)


def test_decision_strings():
    assert DECISIONS == (
        "useful gain established",
        "gain established; useful gain not established",
        "gain not established",
    )


@pytest.mark.parametrize("level", [0.8, 0.9, 0.95, 0.99])
def test_paired_difference_matches_scipy_ttest_rel(level):
    rng = np.random.default_rng(3)
    for n in (2, 3, 7, 30):
        ref_scores = rng.normal(0.7, 0.01, n)
        cand = ref_scores + rng.normal(0.003, 0.004, n)
        res = paired_difference(cand, ref_scores, confidence_level=level)
        ref = stats.ttest_rel(cand, ref_scores)
        ci = ref.confidence_interval(level)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-10)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert res.df == ref.df
        assert res.confidence_interval.low == pytest.approx(ci.low, rel=1e-10)
        assert res.confidence_interval.high == pytest.approx(ci.high, rel=1e-10)
        assert res.decision is None and res.threshold is None


def test_the_three_decisions():
    base = np.array([0.0, 0.0, 0.0, 0.0, 0.0, 0.0])
    jitter = np.array([0.02, -0.02, 0.01, -0.01, 0.015, -0.015])
    useful = paired_difference(base + 0.5 + jitter, base, threshold=0.3)
    assert useful.decision == "useful gain established"
    small = paired_difference(base + 0.1 + jitter, base, threshold=0.3)
    assert small.decision == "gain established; useful gain not established"
    none = paired_difference(base + jitter, base, threshold=0.3)
    assert none.decision == "gain not established"
    worse = paired_difference(base - 0.5 + jitter, base, threshold=0.3)
    assert worse.decision == "gain not established"


def test_decision_boundaries_are_strict():
    res = paired_difference(CANDIDATE, REFERENCE)
    at_bound = paired_difference(CANDIDATE, REFERENCE, threshold=res.confidence_interval.low)
    assert at_bound.decision == DECISIONS[1]  # lower bound equal to the threshold: not shown useful
    zero = paired_difference(CANDIDATE, REFERENCE, threshold=0.0)
    assert zero.decision == DECISIONS[0]  # a threshold of 0: any established gain is useful


def test_failed_runs_raise_by_default_and_name_the_pairs():
    cand = [0.71, 0.70, np.nan, 0.72, 0.69, 0.70]
    ref = [0.70, 0.69, 0.61, 0.70, np.nan, 0.68]
    with pytest.raises(ValueError) as info:
        paired_difference(cand, ref)
    message = str(info.value)
    assert "2 pair(s) hold a NaN score" in message
    assert "pair 2 (scores_a=nan, scores_b=0.61)" in message
    assert "pair 4 (scores_a=0.69, scores_b=nan)" in message
    assert "nan_policy='omit'" in message


def test_many_failed_runs_are_summarised():
    cand = np.full(12, np.nan)
    cand[:2] = [0.7, 0.71]
    with pytest.raises(ValueError, match=r"10 pair\(s\) hold a NaN score.*\.\.\. \(10 pairs in all\)"):
        paired_difference(cand, np.full(12, 0.7))


def test_omit_drops_incomplete_pairs_and_reports_them():
    cand = np.array([0.71, 0.70, np.nan, 0.72, 0.69, 0.705])
    ref = np.array([0.70, 0.69, 0.61, 0.70, np.nan, 0.68])
    res = paired_difference(cand, ref, nan_policy="omit", threshold=0.005)
    assert res.n_dropped == 2 and res.n == 4
    np.testing.assert_array_equal(res.dropped_index, [2, 4])
    keep = [0, 1, 3, 5]
    clean = paired_difference(cand[keep], ref[keep], threshold=0.005)
    assert res.estimate == clean.estimate and res.confidence_interval == clean.confidence_interval
    assert res.decision == clean.decision
    assert "n_dropped=2" in repr(res)


def test_omit_needs_two_complete_pairs():
    with pytest.raises(ValueError, match=r"at least 2 complete pairs; got 1 after dropping 2 with NaN"):
        paired_difference([0.7, np.nan, 0.8], [0.6, 0.6, np.nan], nan_policy="omit")


def test_results_print_as_plain_floats():
    text = repr(paired_difference(CANDIDATE, REFERENCE, threshold=0.3))
    assert "np.float64" not in text and "differences" not in text


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(scores_a=[0.7, 0.8, 0.9], scores_b=[0.6, 0.7]), ValueError, r"`scores_a` and `scores_b` must be paired, with the same length; got 3 and 2"),
        (dict(scores_a=[0.7, np.inf], scores_b=[0.6, 0.7]), ValueError, r"`scores_a` holds infinite value\(s\) at position\(s\) 1"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, -np.inf], nan_policy="omit"), ValueError, r"`scores_b` holds infinite value"),
        (dict(scores_a=[1.5, 2.5, 3.5], scores_b=[1.0, 2.0, 3.0]), ValueError, r"zero spread \(all equal to 0.5\)"),
        (dict(scores_a=[0.7], scores_b=[0.6]), ValueError, r"at least 2 complete pairs; got 1\."),
        (dict(scores_a=[[0.7, 0.8]], scores_b=[[0.6, 0.7]]), ValueError, r"`scores_a` must be one-dimensional"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], threshold=-0.1), ValueError, r"`threshold` must be a useful gain >= 0.*got -0.1"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], threshold=np.nan), ValueError, r"`threshold` must be finite"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], threshold="0.3"), TypeError, r"`threshold` must be a real number; got '0.3'"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], nan_policy="propagate"), ValueError, r"`nan_policy` must be one of 'raise', 'omit'; got 'propagate'"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], confidence_level=1.5), ValueError, r"`confidence_level` must be strictly between 0 and 1"),
        (dict(scores_a=["a", "b"], scores_b=[0.6, 0.75]), TypeError, r"`scores_a` must hold numbers"),
    ],
)
def test_paired_difference_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        paired_difference(**kwargs)


def test_paired_t_size_and_coverage_under_the_null():
    # 3,000 simulated experiments of 8 paired seeds with no true difference.
    rng = np.random.default_rng(123)
    n_sims, alpha = 3000, 0.05
    ref = rng.normal(0.70, 0.01, (n_sims, 8))
    cand = ref + rng.normal(0.0, 0.003, (n_sims, 8))
    results = [paired_difference(c, r) for c, r in zip(cand, ref)]
    rejected = np.mean([res.pvalue < alpha for res in results])
    covered = np.mean([res.confidence_interval.low <= 0 <= res.confidence_interval.high for res in results])
    mc_se = np.sqrt(alpha * (1 - alpha) / n_sims)
    assert abs(rejected - alpha) < 3 * mc_se
    assert abs(covered - (1 - alpha)) < 3 * mc_se


# --------------------------------------------------------------------------- P(A > B)


def _brute_force_unpaired(a, b):
    total = 0.0
    for x in a:
        for y in b:
            total += 1.0 if x > y else 0.5 if x == y else 0.0
    return total / (len(a) * len(b))


def _brute_force_paired(a, b):
    return sum(1.0 if x > y else 0.5 if x == y else 0.0 for x, y in zip(a, b)) / len(a)


def test_prob_improvement_matches_brute_force_counts():
    rng = np.random.default_rng(5)
    for n_a, n_b in [(2, 2), (5, 9), (20, 20), (13, 4)]:
        a = rng.integers(60, 66, n_a) / 100  # coarse scores: many ties
        b = rng.integers(60, 66, n_b) / 100
        res = prob_improvement(a, b, paired=False, n_resamples=10, rng=0)
        assert res.estimate == pytest.approx(_brute_force_unpaired(a, b), abs=1e-15)
        assert (res.n_a, res.n_b, res.paired) == (n_a, n_b, False)
        if n_a == n_b:
            paired = prob_improvement(a, b, n_resamples=10, rng=0)
            assert paired.estimate == pytest.approx(_brute_force_paired(a, b), abs=1e-15)


def test_unpaired_estimate_is_the_mann_whitney_u():
    rng = np.random.default_rng(6)
    a, b = rng.normal(size=17), rng.normal(0.3, size=11)
    u = stats.mannwhitneyu(a, b).statistic
    assert prob_improvement(a, b, paired=False, n_resamples=10, rng=0).estimate == pytest.approx(u / (17 * 11))


def test_bootstrap_is_reproducible_and_has_the_right_spread():
    rng = np.random.default_rng(8)
    a, b = rng.normal(0.65, 0.01, 30), rng.normal(0.645, 0.01, 30)
    first = prob_improvement(a, b, rng=42)
    again = prob_improvement(a, b, rng=np.random.default_rng(42))
    np.testing.assert_array_equal(first.bootstrap_distribution, again.bootstrap_distribution)
    assert first.bootstrap_distribution.shape == (10_000,)
    # Paired: the bootstrap mean of n wins has variance var(w) / n.
    wins = (a > b) + 0.5 * (a == b)
    assert first.bootstrap_distribution.std() == pytest.approx(wins.std() / np.sqrt(30), rel=0.03)
    # Unpaired: compare with resampling indices explicitly (vectorized reference).
    res = prob_improvement(a, b, paired=False, rng=1)
    ref_rng = np.random.default_rng(2)
    ia = ref_rng.integers(0, 30, (4000, 30))
    ib = ref_rng.integers(0, 30, (4000, 30))
    ref = np.mean(a[ia][:, :, None] > b[ib][:, None, :], axis=(1, 2))
    assert res.bootstrap_distribution.std() == pytest.approx(ref.std(), rel=0.05)
    assert res.bootstrap_distribution.mean() == pytest.approx(ref.mean(), abs=0.005)


def test_percentile_interval_and_bouthillier_reading():
    rng = np.random.default_rng(9)
    a, b = rng.normal(0.66, 0.01, 25), rng.normal(0.65, 0.01, 25)
    res = prob_improvement(a, b, confidence_level=0.9, gamma=0.8, rng=3)
    low, high = np.quantile(res.bootstrap_distribution, [0.05, 0.95])
    assert (res.confidence_interval.low, res.confidence_interval.high) == (low, high)
    assert res.significant == (low > 0.5) and res.meaningful == (high > 0.8)
    clear = prob_improvement([0.9, 0.91, 0.92, 0.93], [0.1, 0.2, 0.3, 0.4], rng=0)
    assert (clear.estimate, clear.confidence_interval.low, clear.significant, clear.meaningful) == (1.0, 1.0, True, True)
    same = prob_improvement(b, b, rng=0)
    assert same.estimate == 0.5 and not same.significant and not same.meaningful


def test_prob_improvement_false_detections_under_the_null():
    # Identical procedures, 10 paired runs: the lower bound of the 95% interval
    # should exceed 0.5 in at most 2.5% of experiments (one side of the interval).
    rng = np.random.default_rng(10)
    n_sims = 400
    scores = rng.normal(0.7, 0.01, (n_sims, 2, 10))
    hits = np.mean([prob_improvement(a, b, n_resamples=2000, rng=i).significant for i, (a, b) in enumerate(scores)])
    assert hits <= 0.025 + 3 * np.sqrt(0.025 * 0.975 / n_sims)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(scores_a=[0.7, 0.8, 0.9], scores_b=[0.6, 0.7]), ValueError, r"`scores_a` and `scores_b` must be paired, with the same length; got 3 and 2"),
        (dict(scores_a=[0.7], scores_b=[0.6], paired=False), ValueError, r"`scores_a` must hold at least 2"),
        (dict(scores_a=[0.7, np.nan], scores_b=[0.6, 0.5]), ValueError, r"`scores_a` holds 1 NaN"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], gamma=0.5), ValueError, r"`gamma` must lie in \(0.5, 1\); got 0.5"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], gamma=1.0), ValueError, r"`gamma` must be strictly between 0 and 1"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], n_resamples=0), ValueError, r"`n_resamples` must be an integer >= 1; got 0"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], confidence_level=0), ValueError, r"`confidence_level`"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], paired="yes"), TypeError, r"`paired` must be True or False; got 'yes'"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], n_resamples=100.0), TypeError, r"`n_resamples` must be an integer"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], rng="seed"), TypeError, r"`rng` must be a numpy.random.Generator"),
    ],
)
def test_prob_improvement_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        prob_improvement(**kwargs)


# --------------------------------------------------------------------------- power


def test_mde_and_power_by_hand():
    sigma, n, alpha, target = 0.012, 10, 0.05, 0.8
    res = power_paired(sigma, n, alpha=alpha, target_power=target, delta=0.01)
    t_crit, t_pow = stats.t.ppf(1 - alpha / 2, n - 1), stats.t.ppf(target, n - 1)
    assert res.mde == pytest.approx((t_crit + t_pow) * sigma / np.sqrt(n), rel=1e-13)
    nc = 0.01 * np.sqrt(n) / sigma
    power = stats.nct.sf(t_crit, n - 1, nc) + stats.nct.cdf(-t_crit, n - 1, nc)
    assert res.power == pytest.approx(power, rel=1e-12)
    assert isinstance(res.mde, float) and isinstance(res.n, int)


def test_power_at_zero_effect_is_alpha_and_symmetric():
    res = power_paired(1.0, [3, 10, 50], alpha=0.05, delta=0.0)
    np.testing.assert_allclose(res.power, 0.05, rtol=1e-10)
    up = power_paired(1.0, 12, delta=0.4).power
    down = power_paired(1.0, 12, delta=-0.4).power
    assert up == pytest.approx(down, rel=1e-12)


def test_issue_claim_power_at_mde_is_0799_at_ten_seeds():
    res = power_paired(1.0, 10)
    assert f"{res.power_at_mde:.3f}" == "0.799"
    assert res.power_at_mde == pytest.approx(0.79900, abs=5e-5)


def test_power_at_mde_across_seed_counts():
    n = np.arange(3, 101)
    p = power_paired(1.0, n).power_at_mde
    # The formula is optimistic for few seeds: the exact power falls short of the target ...
    assert np.all(p[n <= 16] < 0.8)
    assert np.all(np.diff(p[n <= 17]) > 0)
    assert p[n == 3][0] == pytest.approx(0.7663, abs=1e-4)
    assert p[n == 5][0] == pytest.approx(0.7913, abs=1e-4)
    # ... 0.799 at 10 seeds, within 0.0005 of it from 12 seeds on, never 0.0002 above.
    assert np.all(np.abs(p[n >= 12] - 0.8) < 0.0005)
    assert p.max() < 0.8002
    assert n[np.argmax(p >= 0.8)] == 17
    # At a stricter level it stays further below: 0.782 at 10 seeds for alpha = 0.01.
    assert f"{power_paired(1.0, 10, alpha=0.01).power_at_mde:.3f}" == "0.782"


def test_seed_001_planetoid_numbers():
    # MDE about 0.014 at 10 seeds; half a point would take roughly 60 seeds.
    sigma = 0.014 * np.sqrt(10) / (stats.t.ppf(0.975, 9) + stats.t.ppf(0.8, 9))
    assert power_paired(sigma, 10).mde == pytest.approx(0.014, rel=1e-12)
    assert 55 <= seeds_needed(sigma, 0.005) <= 70


@pytest.mark.parametrize(("n", "effect"), [(10, 0.8), (5, 1.5), (20, 0.4)])
def test_power_matches_monte_carlo(n, effect):
    rng = np.random.default_rng(2024 + n)
    n_sims = 20_000
    d = rng.normal(effect, 1.0, (n_sims, n))
    simulated = np.mean(stats.ttest_1samp(d, 0.0, axis=1).pvalue < 0.05)
    exact = power_paired(1.0, n, delta=effect).power
    assert abs(simulated - exact) < 3.5 * np.sqrt(exact * (1 - exact) / n_sims)


def test_power_far_in_the_tails_is_finite():
    # scipy's nct.cdf is NaN far in the lower tail (df=19, nc=8.9); the power must not be.
    res = power_paired(0.5, [2, 20, 200], delta=[1.0, 1.0, 3.0])
    assert np.all(np.isfinite(res.power)) and res.power[1] > 0.999
    t_crit = stats.t.isf(0.025, 4)
    for nc in (0.5, 1.0, 3.0):  # where nct.cdf is reliable, both forms of the lower tail agree
        assert stats.nct.sf(t_crit, 4, -nc) == pytest.approx(stats.nct.cdf(-t_crit, 4, nc), rel=1e-8)


def test_power_broadcasts_over_n_and_effect():
    res = power_paired(0.5, np.array([5, 10, 20])[:, None], delta=np.array([0.1, 0.3, 0.5, 1.0]))
    assert res.power.shape == (3, 4) and res.mde.shape == (3, 4)
    assert np.all(np.diff(res.power, axis=0) > 0) and np.all(np.diff(res.power, axis=1) > 0)
    one = power_paired(0.5, 10, delta=0.3)
    assert res.power[1, 1] == pytest.approx(one.power, rel=1e-14)
    assert power_paired(0.5, 10).power is None


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((0.0, 10), {}, ValueError, r"`sigma_d` must be positive; got 0.0"),
        ((-1.0, 10), {}, ValueError, r"`sigma_d` must be positive"),
        ((np.nan, 10), {}, ValueError, r"`sigma_d` must be finite"),
        ((1.0, 1), {}, ValueError, r"`n` must be at least 2 pairs; got 1"),
        ((1.0, 2.5), {}, ValueError, r"`n` must hold whole numbers"),
        ((1.0, 10), dict(alpha=0.0), ValueError, r"`alpha` must be strictly between 0 and 1"),
        ((1.0, 10), dict(target_power=0.04), ValueError, r"`target_power` must exceed `alpha`.*got 0.04 with alpha=0.05"),
        ((1.0, 10), dict(delta=np.nan), ValueError, r"`delta` must be finite"),
        ((1.0, [5, 10]), dict(delta=[0.1, 0.2, 0.3]), ValueError, r"`sigma_d`, `n` and `delta` must broadcast"),
        (("1", 10), {}, TypeError, r"`sigma_d` must hold real numbers"),
    ],
)
def test_power_paired_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        power_paired(*args, **kwargs)


def _brute_force_seeds(sigma, delta, alpha, power, n_max=5000):
    n = np.arange(2, n_max)
    p = power_paired(sigma, n, alpha=alpha, delta=delta).power
    return int(n[np.argmax(p >= power)])


@pytest.mark.parametrize(
    ("sigma", "delta", "alpha", "power"),
    [(1.0, 0.5, 0.05, 0.8), (1.0, 0.2, 0.05, 0.9), (0.3, 0.1, 0.01, 0.8), (1.0, 1.0, 0.05, 0.8),
     (1.0, 0.1, 0.1, 0.5), (2.0, -0.7, 0.05, 0.95), (1.0, 3.0, 0.001, 0.99)],
)
def test_seeds_needed_matches_brute_force(sigma, delta, alpha, power):
    n = seeds_needed(sigma, delta, alpha=alpha, target_power=power)
    assert isinstance(n, int)
    assert n == _brute_force_seeds(sigma, delta, alpha, power)


def test_seeds_needed_edge_cases():
    assert seeds_needed(1.0, 30.0) == 2  # a huge effect: two pairs are enough
    assert seeds_needed(1.0, 10.0) == 3  # at 2 pairs (1 df) the power is only 0.73
    n = seeds_needed(1.0, 0.01)  # a tiny effect: tens of thousands of seeds
    at = power_paired(1.0, [n - 1, n], delta=0.01).power
    assert at[0] < 0.8 <= at[1]
    assert 70_000 < n < 90_000
    assert seeds_needed(1.0, -0.5) == seeds_needed(1.0, 0.5)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((1.0, 0.0), {}, ValueError, r"`delta` must be a non-zero difference"),
        ((0.0, 0.5), {}, ValueError, r"`sigma_d` must be positive; got 0.0"),
        ((1.0, 0.5), dict(target_power=0.05), ValueError, r"`target_power` must exceed `alpha`"),
        ((1.0, 0.5), dict(alpha=1.0), ValueError, r"`alpha` must be strictly between 0 and 1"),
        ((1.0, np.inf), {}, ValueError, r"`delta` must be finite"),
        ((True, 0.5), {}, TypeError, r"`sigma_d` must be a real number; got True"),
    ],
)
def test_seeds_needed_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        seeds_needed(*args, **kwargs)


# --------------------------------------------------------------------------- equivalence


def test_tost_by_hand():
    rng = np.random.default_rng(12)
    ref = rng.normal(0.7, 0.01, 12)
    cand = ref + rng.normal(0.002, 0.004, 12)
    margin, alpha = 0.005, 0.05
    res = tost_paired(cand, ref, margin=margin, alpha=alpha)
    d = cand - ref
    se = d.std(ddof=1) / np.sqrt(12)
    t_lo, t_hi = (d.mean() + margin) / se, (d.mean() - margin) / se
    assert res.statistic_lower == pytest.approx(t_lo, rel=1e-12)
    assert res.statistic_upper == pytest.approx(t_hi, rel=1e-12)
    assert res.pvalue_lower == pytest.approx(stats.t.sf(t_lo, 11), rel=1e-12)
    assert res.pvalue_upper == pytest.approx(stats.t.cdf(t_hi, 11), rel=1e-12)
    assert res.pvalue == max(res.pvalue_lower, res.pvalue_upper)
    half = stats.t.ppf(1 - alpha, 11) * se
    assert (res.confidence_interval.low, res.confidence_interval.high) == pytest.approx(
        (d.mean() - half, d.mean() + half), rel=1e-12
    )
    assert res.confidence_level == pytest.approx(0.9)
    # The two one-sided tests are scipy's one-sided t-tests against -margin and +margin.
    assert res.pvalue_lower == pytest.approx(stats.ttest_1samp(d, -margin, alternative="greater").pvalue, rel=1e-10)
    assert res.pvalue_upper == pytest.approx(stats.ttest_1samp(d, margin, alternative="less").pvalue, rel=1e-10)


def test_tost_equivalence_iff_interval_inside_margin():
    rng = np.random.default_rng(13)
    for _ in range(200):
        n = rng.integers(3, 15)
        d = rng.normal(rng.normal(0, 0.01), rng.uniform(0.002, 0.02), n)
        res = tost_paired(d, np.zeros(n), margin=0.01, alpha=0.05)
        inside = -0.01 < res.confidence_interval.low and res.confidence_interval.high < 0.01
        assert res.equivalent == inside


def test_tost_size_at_the_margin():
    # True mean difference exactly at the margin: TOST must declare equivalence at most alpha of the time.
    rng = np.random.default_rng(14)
    n_sims, alpha, margin = 3000, 0.05, 1.0
    d = rng.normal(margin, 1.0, (n_sims, 10))
    rate = np.mean([tost_paired(x, np.zeros(10), margin=margin, alpha=alpha).equivalent for x in d])
    assert abs(rate - alpha) < 3 * np.sqrt(alpha * (1 - alpha) / n_sims)


def test_verdict_strings_and_table():
    assert VERDICTS == ("different", "equivalent", "trivial", "undetermined")
    p_diff = np.array([0.01, 0.40, 0.01, 0.40, 0.05])
    p_eq = np.array([0.30, 0.02, 0.001, 0.20, 0.05])
    labels = verdict_from_pvalues(p_diff, p_eq)
    assert labels.tolist() == ["different", "equivalent", "trivial", "undetermined", "undetermined"]
    assert verdict_from_pvalues(0.2, 0.01) == "equivalent"
    assert isinstance(verdict_from_pvalues(0.2, 0.01), str)
    assert verdict_from_pvalues([[0.01], [0.5]], [0.01, 0.5]).shape == (2, 2)


def test_four_verdicts_from_data():
    jitter = np.array([0.002, -0.002, 0.001, -0.001, 0.0015, -0.0015, 0.0005, -0.0005])
    zeros = np.zeros(8)
    assert verdict(0.05 + jitter, zeros, margin=0.01).verdict == "different"
    assert verdict(jitter, zeros, margin=0.01).verdict == "equivalent"
    assert verdict(0.005 + jitter, zeros, margin=0.01).verdict == "trivial"
    noisy = np.array([0.03, -0.02, 0.01, -0.025])
    res = verdict(noisy, np.zeros(4), margin=0.01)
    assert res.verdict == "undetermined"
    assert res.difference_pvalue == pytest.approx(stats.ttest_1samp(noisy, 0).pvalue, rel=1e-12)
    assert res.equivalence_pvalue == tost_paired(noisy, np.zeros(4), margin=0.01).pvalue


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(margin=0.0), ValueError, r"`margin` must be positive; got 0.0"),
        (dict(margin=-0.01), ValueError, r"`margin` must be positive"),
        (dict(margin="1pt"), TypeError, r"`margin` must be a real number"),
        (dict(margin=0.01, alpha=0.5), ValueError, r"`alpha` must be below 0.5 for TOST"),
        (dict(margin=0.01, alpha=1.2), ValueError, r"`alpha` must be strictly between 0 and 1"),
    ],
)
@pytest.mark.parametrize("func", [tost_paired, verdict])
def test_tost_and_verdict_reject_bad_input(func, kwargs, error, match):
    with pytest.raises(error, match=match):
        func([0.7, 0.72, 0.71], [0.69, 0.7, 0.705], **kwargs)


@pytest.mark.parametrize("func", [tost_paired, verdict])
def test_tost_and_verdict_refuse_nan_and_constant_differences(func):
    with pytest.raises(ValueError, match=r"`scores_a` holds 1 NaN"):
        func([0.7, np.nan, 0.71], [0.69, 0.7, 0.705], margin=0.01)
    with pytest.raises(ValueError, match=r"zero spread"):
        func([0.7, 0.8, 0.9], [0.7, 0.8, 0.9], margin=0.01)
    with pytest.raises(TypeError, match="margin"):
        func([0.7, 0.8, 0.9], [0.7, 0.8, 0.9])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([1.2], [0.1]), r"`difference_pvalue` must lie in \[0, 1\]; got 1.2"),
        (([0.1], [-0.1]), r"`equivalence_pvalue` must lie in \[0, 1\]"),
        (([0.1, 0.2], [0.1, 0.2, 0.3]), r"must broadcast to a common shape"),
        (([np.nan], [0.1]), r"`difference_pvalue` must be finite"),
    ],
)
def test_verdict_from_pvalues_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        verdict_from_pvalues(*args)


# --------------------------------------------------------------------------- repeated splits


def _five_by_two_by_hand(p):
    variances = []
    for i in range(5):
        mean = (p[i][0] + p[i][1]) / 2
        variances.append((p[i][0] - mean) ** 2 + (p[i][1] - mean) ** 2)
    t = p[0][0] / np.sqrt(sum(variances) / 5)
    f = sum(p[i][j] ** 2 for i in range(5) for j in range(2)) / (2 * sum(variances))
    return t, f


def test_five_by_two_cv_by_hand():
    rng = np.random.default_rng(15)
    for _ in range(20):
        p = rng.normal(0.01, 0.02, (5, 2))
        t, f = _five_by_two_by_hand(p.tolist())
        res_t = five_by_two_cv_t(p)
        res_f = five_by_two_cv_f(p)
        assert res_t.statistic == pytest.approx(t, rel=1e-12)
        assert res_t.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 5), rel=1e-12)
        assert (res_t.df, res_f.df) == (5, (10, 5))
        assert res_t.estimate == pytest.approx(p.mean(), rel=1e-12)
        assert res_f.statistic == pytest.approx(f, rel=1e-12)
        assert res_f.pvalue == pytest.approx(stats.f.sf(f, 10, 5), rel=1e-12)


def test_five_by_two_cv_small_example():
    # p11 = 0.02; s_i^2 = 5e-5, 4.5e-4, 5e-5, 2e-4, 5e-5 (sum 8e-4); sum of squares 52e-4.
    differences = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.02], [0.02, 0.01]]
    assert five_by_two_cv_t(differences).statistic == pytest.approx(0.02 / np.sqrt(8e-4 / 5), rel=1e-12)
    assert five_by_two_cv_f(differences).statistic == pytest.approx(52e-4 / 16e-4, rel=1e-12)


def test_five_by_two_f_uses_every_fold():
    # Dietterich's t depends on which fold is listed first; Alpaydin's F does not.
    rng = np.random.default_rng(16)
    p = rng.normal(0.01, 0.02, (5, 2))
    shuffled = p[rng.permutation(5)][:, ::-1]
    assert five_by_two_cv_f(shuffled).statistic == pytest.approx(five_by_two_cv_f(p).statistic, rel=1e-12)
    assert five_by_two_cv_t(shuffled).statistic != pytest.approx(five_by_two_cv_t(p).statistic)


@pytest.mark.parametrize("func", [five_by_two_cv_t, five_by_two_cv_f])
@pytest.mark.parametrize(
    ("differences", "error", "match"),
    [
        (np.zeros((5, 3)), ValueError, r"`differences` must have shape \(5, 2\).*got shape \(5, 3\)"),
        (np.zeros(10), ValueError, r"`differences` must have shape \(5, 2\)"),
        (np.full((5, 2), 0.01), ValueError, r"variance estimate is zero"),
        (np.where(np.eye(5, 2) > 0, np.nan, 0.01), ValueError, r"`differences` must be finite; got nan"),
        (np.array([["a", "b"]] * 5), TypeError, r"`differences` must hold real numbers"),
    ],
)
def test_five_by_two_cv_rejects_bad_input(func, differences, error, match):
    with pytest.raises(error, match=match):
        func(differences)


def test_corrected_resampled_t_by_hand_and_against_the_naive_test():
    rng = np.random.default_rng(17)
    d = rng.normal(0.01, 0.02, 15)
    n_train, n_test = 800, 200
    res = corrected_resampled_t(d, n_train=n_train, n_test=n_test)
    s2 = d.var(ddof=1)
    t = d.mean() / np.sqrt((1 / 15 + n_test / n_train) * s2)
    assert res.statistic == pytest.approx(t, rel=1e-12)
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), 14), rel=1e-12)
    assert res.df == 14 and res.estimate == pytest.approx(d.mean())
    # The correction divides the naive one-sample t by sqrt(1 + J n_test / n_train).
    naive = stats.ttest_1samp(d, 0.0).statistic
    assert res.statistic == pytest.approx(naive / np.sqrt(1 + 15 * n_test / n_train), rel=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([0.01],), dict(n_train=90, n_test=10), ValueError, r"`differences` must hold at least 2 value"),
        (([0.01, 0.01],), dict(n_train=90, n_test=10), ValueError, r"zero spread"),
        (([0.01, np.nan],), dict(n_train=90, n_test=10), ValueError, r"`differences` holds 1 NaN"),
        (([0.01, 0.02],), dict(n_train=0, n_test=10), ValueError, r"`n_train` must be an integer >= 1; got 0"),
        (([0.01, 0.02],), dict(n_train=90, n_test=2.5), TypeError, r"`n_test` must be an integer"),
        (([[0.01, 0.02]],), dict(n_train=90, n_test=10), ValueError, r"`differences` must be one-dimensional"),
    ],
)
def test_corrected_resampled_t_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        corrected_resampled_t(*args, **kwargs)


# --------------------------------------------------------------------------- variance split


def test_variance_split_by_hand():
    acc = np.array([0.80, 0.83, 0.78, 0.85, 0.81])
    true = np.array([0.805, 0.82, 0.79, 0.845, 0.80])
    v = variance_split(acc, 500, true_scores=true)
    assert v.total == pytest.approx(acc.var(ddof=1), rel=1e-14)
    assert v.sampling == pytest.approx(np.mean(acc * (1 - acc)) / 499, rel=1e-14)
    assert v.training == pytest.approx(v.total - v.sampling, rel=1e-14)
    assert v.training_direct == pytest.approx(true.var(ddof=1), rel=1e-14)
    corrected = variance_split(acc, 500, true_scores=true, n_true=2000)
    assert corrected.training_direct == pytest.approx(true.var(ddof=1) - np.mean(true * (1 - true)) / 1999, rel=1e-12)
    assert variance_split(acc, 500).training_direct is None
    assert (v.n_runs, v.n_test) == (5, 500)


def test_article_part_two_binomial_standard_error():
    # At a test accuracy of 0.639 on 1,000 images the binomial SE is 0.0152; the article's
    # 20 seeds on that one test set spread by only 0.0095, so `training` is negative there.
    v = variance_split([0.639, 0.639], 1000)
    assert f"{np.sqrt(v.sampling):.4f}" == "0.0152"
    assert 0.0095**2 - v.sampling < 0


def test_variance_split_recovers_training_variance_by_simulation():
    # Each run: true accuracy a ~ N(0.8, 0.01^2) from training, then its own test set of 1,000.
    rng = np.random.default_rng(18)
    runs, n_test, n_fresh = 200_000, 1000, 2000
    true = rng.normal(0.8, 0.01, runs)
    test = rng.binomial(n_test, true) / n_test
    fresh = rng.binomial(n_fresh, true) / n_fresh
    v = variance_split(test, n_test, true_scores=true)
    assert v.sampling == pytest.approx(np.mean(true * (1 - true)) / n_test, rel=0.01)
    assert v.training == pytest.approx(1e-4, rel=0.05)
    assert v.training_direct == pytest.approx(1e-4, rel=0.02)
    # Fresh accuracies on 2,000 images carry their own binomial noise unless n_true removes it.
    naive = variance_split(test, n_test, true_scores=fresh).training_direct
    corrected = variance_split(test, n_test, true_scores=fresh, n_true=n_fresh).training_direct
    assert naive == pytest.approx(1e-4 + 0.16 / n_fresh, rel=0.05)
    assert corrected == pytest.approx(1e-4, rel=0.05)


def test_variance_split_on_one_shared_test_set_goes_negative():
    # Identical networks (no training randomness) on one fixed test set of items of
    # varying difficulty: the shared part of test-set noise does not vary across seeds.
    rng = np.random.default_rng(19)
    n_test = 1000
    difficulty = rng.beta(2.0, 0.5, n_test)
    correct = rng.random((2000, n_test)) < difficulty
    v = variance_split(correct.mean(axis=1), n_test)
    assert v.training < -3e-5
    assert v.total < v.sampling


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([0.8, 1.2], 100), {}, ValueError, r"`test_scores` must hold accuracies in \[0, 1\]; got 1.2"),
        (([0.8], 100), {}, ValueError, r"`test_scores` must hold at least 2"),
        (([0.8, np.nan], 100), {}, ValueError, r"`test_scores` holds 1 NaN"),
        (([0.8, 0.82], 1), {}, ValueError, r"`n_test` must be an integer >= 2; got 1"),
        (([0.8, 0.82], 100.0), {}, TypeError, r"`n_test` must be an integer"),
        (([0.8, 0.82], 100), dict(n_true=1000), ValueError, r"`n_true` was given without `true_scores`"),
        (([0.8, 0.82], 100), dict(true_scores=[0.8, 0.81, 0.82]), ValueError, r"`true_scores` must be paired with `test_scores`.*got 3 and 2"),
        (([0.8, 0.82], 100), dict(true_scores=[0.8, -0.1]), ValueError, r"`true_scores` must hold accuracies"),
        (([0.8, 0.82], 100), dict(true_scores=[0.8, 0.81], n_true=0), ValueError, r"`n_true` must be an integer >= 2"),
    ],
)
def test_variance_split_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        variance_split(*args, **kwargs)

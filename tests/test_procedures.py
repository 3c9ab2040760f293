"""sigeval.procedures: paired differences with a threshold, and P(A > B)."""

import re
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    DECISIONS,
    paired_difference,
    prob_improvement,
)

# Seed 002: five pairs, differences 0.4, 0.3, 0.1, 0.5, 0.1 point, useful threshold 0.30.
REFERENCE = np.array([71.2, 70.8, 71.5, 70.9, 71.1])
CANDIDATE = REFERENCE + np.array([0.4, 0.3, 0.1, 0.5, 0.1])


def test_seed_002_worked_example():
    res = paired_difference(CANDIDATE, REFERENCE, threshold=0.30)
    assert res.estimate == pytest.approx(0.28, abs=1e-12)
    assert res.median == pytest.approx(0.30, abs=1e-12)
    assert f"{res.sigma_d:.3f}" == "0.179"
    assert (res.n, res.df, res.n_dropped) == (5, 4, 0)
    # 0.28 +- 2.776 x 0.080 ~ [0.058, 0.502]
    assert f"{stats.t.ppf(0.975, 4):.3f}" == "2.776"
    assert f"{res.sigma_d / np.sqrt(5):.3f}" == "0.080"
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


@pytest.mark.parametrize("alpha", [0.2, 0.1, 0.05, 0.01])
def test_paired_difference_matches_scipy_ttest_rel(alpha):
    rng = np.random.default_rng(3)
    for n in (2, 3, 7, 30):
        ref_scores = rng.normal(0.7, 0.01, n)
        cand = ref_scores + rng.normal(0.003, 0.004, n)
        res = paired_difference(cand, ref_scores, alpha=alpha)
        ref = stats.ttest_rel(cand, ref_scores)
        ci = ref.confidence_interval(1 - alpha)
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


def test_lower_bound_exactly_zero_does_not_establish_a_gain():
    # Differences 0 and 6: mean 3, se 3, and t(1) at 75% is 1, so the 50% interval starts at 0.
    res = paired_difference([0.0, 6.0], [0.0, 0.0], threshold=0.1, alpha=0.5)
    assert res.confidence_interval.low == 0.0
    assert res.decision == "gain not established"


def test_paired_difference_reports_its_arguments():
    res = paired_difference(CANDIDATE, REFERENCE, threshold=0.3, alpha=0.1)
    assert (res.threshold, res.alpha, res.confidence_level) == (0.3, 0.1, 0.9)


def test_paired_difference_median_near_the_float64_limit():
    # The two middle differences sum beyond 1.8e308; their average does not.
    res = paired_difference([1.5e308, 1.6e308, 1.7e308, 1.4e308], np.zeros(4))
    assert res.median == pytest.approx(1.55e308, rel=1e-12)
    assert res.estimate == pytest.approx(1.55e308, rel=1e-12)


def test_paired_difference_judges_spread_against_the_scores():
    # Differences of a few 1e-10 between scores of 1e6 are rounding error of the
    # scores, although they vary relative to themselves.
    with pytest.raises(ValueError, match=r"^The differences `scores_a - scores_b` have zero spread .*up to rounding error"):
        paired_difference(1e6 + np.array([0.0, 1e-9, 2e-9]), np.full(3, 1e6))
    assert paired_difference(1.0 + np.array([0.0, 1e-9, 2e-9]), np.ones(3)).estimate == pytest.approx(1e-9, rel=1e-6)


def test_paired_difference_overflow_messages_name_the_arguments():
    with pytest.raises(ValueError, match=r"^The differences `scores_a - scores_b` overflow float64 at position\(s\) 0 "):
        paired_difference([1.7e308, 1e308], [-1.7e308, 0.0])
    with pytest.raises(
        ValueError,
        match=r"^The result overflows float64 \(confidence_interval not finite\): the values of "
        r"`scores_a` and `scores_b` are too large",
    ):
        paired_difference([1.0e308, 1.5e308, 1.7e308], [-1e307, 1e307, 1e307])


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


def test_failed_runs_message_in_full():
    with pytest.raises(ValueError) as info:
        paired_difference([0.71, 0.70, np.nan, 0.72, 0.69, 0.70], [0.70, 0.69, 0.61, 0.70, np.nan, 0.68])
    assert str(info.value) == (
        "2 pair(s) hold a NaN score (a failed run?): pair 2 (scores_a=nan, scores_b=0.61); "
        "pair 4 (scores_a=0.69, scores_b=nan). Failed runs are not dropped silently: repair them, "
        "or pass nan_policy='omit' to drop incomplete pairs (the result reports how many in `n_dropped`)."
    )


def test_many_failed_runs_are_summarised():
    cand = np.full(12, np.nan)
    cand[:2] = [0.7, 0.71]
    with pytest.raises(ValueError, match=r"10 pair\(s\) hold a NaN score.*\.\.\. \(10 pairs in all\)"):
        paired_difference(cand, np.full(12, 0.7))


@pytest.mark.parametrize("n_failed", [5, 6])
def test_failed_runs_message_names_at_most_five_pairs(n_failed):
    cand = np.r_[0.7, 0.71, np.full(n_failed, np.nan)]
    with pytest.raises(ValueError) as info:
        paired_difference(cand, np.full(cand.size, 0.7))
    message = str(info.value)
    assert re.findall(r"; pair (\d+) \(", message) == ["3", "4", "5", "6"] and ": pair 2 (" in message
    assert f"; pair 6 (scores_a=nan, scores_b=0.7){'; ... (6 pairs in all)' if n_failed > 5 else ''}. " in message


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
        (dict(scores_a=[1.5, 2.5, 3.5], scores_b=[1.0, 2.0, 3.0]), ValueError, r"^The differences `scores_a - scores_b` have zero spread \(all equal to 0.5\)"),
        (dict(scores_a=[0.7], scores_b=[0.6]), ValueError, r"at least 2 complete pairs; got 1\."),
        (dict(scores_a=[[0.7, 0.8]], scores_b=[[0.6, 0.7]]), ValueError, r"`scores_a` must be one-dimensional"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], threshold=-0.1), ValueError, r"^`threshold` must be a useful gain >= 0 in the units of the scores; got -0.1\.$"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], threshold=np.nan), ValueError, r"`threshold` must be finite"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], threshold="0.3"), TypeError, r"`threshold` must be a real number; got '0.3'"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], nan_policy="propagate"), ValueError, r"`nan_policy` must be one of 'raise', 'omit'; got 'propagate'"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.75], alpha=1.5), ValueError, r"`alpha` must be strictly between 0 and 1"),
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
    first = prob_improvement(a, b, method="percentile", rng=42)
    again = prob_improvement(a, b, method="percentile", rng=np.random.default_rng(42))
    np.testing.assert_array_equal(first.bootstrap_distribution, again.bootstrap_distribution)
    assert first.bootstrap_distribution.shape == (10_000,)
    # Paired: the bootstrap mean of n wins has variance var(w) / n.
    wins = (a > b) + 0.5 * (a == b)
    assert first.bootstrap_distribution.std() == pytest.approx(wins.std() / np.sqrt(30), rel=0.03)
    # Unpaired: compare with resampling indices explicitly (vectorized reference).
    res = prob_improvement(a, b, paired=False, method="percentile", rng=1)
    ref_rng = np.random.default_rng(2)
    ia = ref_rng.integers(0, 30, (4000, 30))
    ib = ref_rng.integers(0, 30, (4000, 30))
    ref = np.mean(a[ia][:, :, None] > b[ib][:, None, :], axis=(1, 2))
    assert res.bootstrap_distribution.std() == pytest.approx(ref.std(), rel=0.05)
    assert res.bootstrap_distribution.mean() == pytest.approx(ref.mean(), abs=0.005)


def test_percentile_interval_and_bouthillier_reading():
    rng = np.random.default_rng(9)
    a, b = rng.normal(0.66, 0.01, 25), rng.normal(0.65, 0.01, 25)
    res = prob_improvement(a, b, method="percentile", alpha=0.1, gamma=0.8, rng=3)
    low, high = np.quantile(res.bootstrap_distribution, [0.05, 0.95])
    assert (res.confidence_interval.low, res.confidence_interval.high) == (low, high)
    assert res.reject == (low > 0.5) and res.meaningful == (high > 0.8)
    assert (res.method, res.n_trials) == ("percentile", 25)
    # Four pairs all won: every resample gives 1, a point interval that rejects; it warns, pointing at the caller.
    with pytest.warns(UserWarning) as caught:
        clear = prob_improvement([0.9, 0.91, 0.92, 0.93], [0.1, 0.2, 0.3, 0.4], method="percentile", rng=0)
    assert [(w.category, str(w.message)) for w in caught] == [(UserWarning, (
        "Every bootstrap resample gave P(A > B) = 1.0: the percentile interval is a single point, and it says "
        "nothing about the uncertainty of so few runs. method='clopper-pearson' gives an interval at least as "
        "conservative as the exact sign test."))]
    # It points at the caller, this file (under mutation testing, at mutmut's trampoline in between).
    assert caught[0].filename == __file__ or "mutmut" in Path(caught[0].filename).parts
    assert (clear.estimate, tuple(clear.confidence_interval), clear.reject, clear.meaningful) == (1.0, (1.0, 1.0), True, True)
    with pytest.warns(UserWarning, match=r"gave P\(A > B\) = 0\.5: "):  # every pair ties
        same = prob_improvement(b, b, method="percentile", rng=0)
    assert same.estimate == 0.5 and not same.reject and not same.meaningful


def test_prob_improvement_reports_its_arguments():
    res = prob_improvement([0.9, 0.8, 0.7, 0.1], [0.5] * 4, alpha=0.2, gamma=0.9, n_resamples=10, rng=0)
    assert (res.alpha, res.confidence_level, res.gamma, res.paired) == (0.2, 0.8, 0.9, True)


def test_meaningful_needs_an_upper_bound_strictly_above_gamma():
    # Wins 1, 1, 1, 0: bootstrap means are k/4, and the middle 10% of them is 3/4 exactly.
    with pytest.warns(UserWarning, match="a single point"):
        res = prob_improvement([0.9, 0.8, 0.7, 0.1], [0.5] * 4, method="percentile", alpha=0.9, gamma=0.75,
                               n_resamples=1000, rng=0)
    assert res.confidence_interval.high == 0.75
    assert not res.meaningful and res.reject


@pytest.mark.filterwarnings("ignore:Every bootstrap resample gave:UserWarning")  # equal scores: every pair ties
@pytest.mark.parametrize(
    ("paired", "n_b", "elements"),
    [(True, 5, 10 * 5), (False, 3, 10 * (5 + 3) + 5 * 3)],
)
def test_prob_improvement_memory_check_counts_the_bootstrap_arrays(monkeypatch, paired, n_b, elements):
    # Paired: n_resamples x n_a counts; unpaired: counts of both sets and the n_a x n_b wins.
    a, b = np.linspace(0.6, 0.7, 5), np.linspace(0.6, 0.7, n_b)
    monkeypatch.setattr("sigeval._validation.MEMORY_LIMIT", 8 * elements)
    assert prob_improvement(a, b, paired=paired, method="percentile", n_resamples=10, rng=0).bootstrap_distribution.shape == (10,)
    monkeypatch.setattr("sigeval._validation.MEMORY_LIMIT", 8 * elements - 1)
    # The Clopper-Pearson interval draws nothing and builds no table of wins.
    assert prob_improvement(a, b, paired=paired, n_resamples=10, rng=0).bootstrap_distribution.shape == (0,)
    message = (
        rf"^`n_resamples` = 10 would need {8 * elements}\.0 bytes of memory for the bootstrap counts; "
        rf"the limit is {8 * elements - 1}\.0 bytes\. Choose a smaller `n_resamples`\.$"
    )
    with pytest.raises(ValueError, match=message):
        prob_improvement(a, b, paired=paired, method="percentile", n_resamples=10, rng=0)


@pytest.mark.filterwarnings("ignore:Every bootstrap resample gave:UserWarning")  # 10 of 10 wins happens by chance
def test_prob_improvement_false_detections_under_the_null():
    # Identical procedures, 10 paired runs: the lower bound of the 95% interval
    # should exceed 0.5 in at most 2.5% of experiments (one side of the interval).
    rng = np.random.default_rng(10)
    n_sims = 400
    scores = rng.normal(0.7, 0.01, (n_sims, 2, 10))
    for method in ("percentile", "clopper-pearson"):
        hits = np.mean([prob_improvement(a, b, method=method, n_resamples=2000, rng=i).reject
                        for i, (a, b) in enumerate(scores)])
        assert hits <= 0.025 + 3 * np.sqrt(0.025 * 0.975 / n_sims)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(scores_a=[0.7, 0.8, 0.9], scores_b=[0.6, 0.7]), ValueError, r"`scores_a` and `scores_b` must be paired, with the same length; got 3 and 2"),
        (dict(scores_a=[0.7], scores_b=[0.6], paired=False), ValueError, r"`scores_a` must hold at least 2"),
        (dict(scores_a=[0.7], scores_b=[0.6]), ValueError, r"`scores_a` must hold at least 2"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6], paired=False), ValueError, r"`scores_b` must hold at least 2"),
        (dict(scores_a=[0.7, np.nan], scores_b=[0.6, 0.5]), ValueError, r"`scores_a` holds 1 NaN"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], gamma=0.5), ValueError, r"`gamma` must lie in \(0.5, 1\); got 0.5"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], gamma=1.0), ValueError, r"`gamma` must be strictly between 0 and 1"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], n_resamples=0), ValueError, r"`n_resamples` must be an integer >= 1; got 0"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], alpha=0), ValueError, r"`alpha`"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], paired="yes"), TypeError, r"`paired` must be True or False; got 'yes'"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], n_resamples=100.0), TypeError, r"`n_resamples` must be an integer"),
        (dict(scores_a=[0.7, 0.8], scores_b=[0.6, 0.5], rng="seed"), TypeError, r"`rng` must be a numpy.random.Generator"),
    ],
)
def test_prob_improvement_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        prob_improvement(**kwargs)


# --------------------------------------------------------------------------- P(A > B) honest at few runs


def _outcome(wins, ties, losses):
    """Paired scores with these numbers of wins, ties and losses of A."""
    a = np.r_[np.ones(wins), np.zeros(ties), np.zeros(losses)]
    b = np.r_[np.zeros(wins), np.zeros(ties), np.ones(losses)]
    return a, b


def test_five_paired_runs_all_won_do_not_reject():
    # The exact sign test on 5 of 5: two-sided p = 2 / 32 = 0.0625 > 0.05. The interval is not a point.
    assert stats.binomtest(5, 5).pvalue == 0.0625
    res = prob_improvement([0.71, 0.72, 0.70, 0.73, 0.72], [0.70, 0.71, 0.69, 0.71, 0.70], rng=0)
    assert res.estimate == 1.0 and res.reject is False
    low, high = res.confidence_interval
    assert low == pytest.approx(0.025 ** (1 / 5), abs=1e-12) and high == 1.0  # Clopper-Pearson at 5 of 5
    assert (res.method, res.n_trials) == ("clopper-pearson", 5)
    # Six of six: p = 2 / 64, and the lower bound 0.025 ** (1/6) = 0.54 clears one half.
    six = prob_improvement(*_outcome(6, 0, 0))
    assert six.reject and six.confidence_interval.low == pytest.approx(0.025 ** (1 / 6), abs=1e-12)


def test_paired_interval_is_scipys_exact_binomial_interval_without_ties():
    for wins, losses in [(0, 7), (3, 9), (10, 10), (17, 3), (30, 0)]:
        for level in (0.95, 0.8):
            res = prob_improvement(*_outcome(wins, 0, losses), alpha=1 - level)
            ref = stats.binomtest(wins, wins + losses).proportion_ci(level, method="exact")
            assert tuple(res.confidence_interval) == pytest.approx((ref.low, ref.high), abs=1e-12)
            assert res.estimate == wins / (wins + losses)


def test_a_tie_adds_one_half_to_the_count():
    # 3 wins, 2 ties, 1 loss: a count of 4 in 6 trials.
    res = prob_improvement(*_outcome(3, 2, 1))
    low, high = res.confidence_interval
    assert res.estimate == pytest.approx(4 / 6, abs=1e-15)
    assert (low, high) == pytest.approx((stats.beta.ppf(0.025, 4, 3), stats.beta.isf(0.025, 5, 2)), abs=1e-12)
    # 2 wins, 1 tie: a count of 2.5 in 3 trials (a Beta with a half-integer parameter).
    half = prob_improvement(*_outcome(2, 1, 0))
    assert tuple(half.confidence_interval) == pytest.approx(
        (stats.beta.ppf(0.025, 2.5, 1.5), stats.beta.isf(0.025, 3.5, 0.5)), abs=1e-12
    )


@pytest.mark.parametrize("alpha", [0.05, 0.1, 0.01])
def test_paired_rejections_are_never_bolder_than_the_exact_sign_test(alpha):
    # Every outcome (wins, ties, losses) of up to 25 pairs; the sign test drops the ties.
    checked = 0
    for n in range(2, 26):
        for wins in range(n + 1):
            for ties in range(n + 1 - wins):
                losses = n - wins - ties
                res = prob_improvement(*_outcome(wins, ties, losses), alpha=alpha)
                if res.reject:
                    assert stats.binomtest(wins, wins + losses).pvalue <= alpha, (wins, ties, losses)
                    checked += 1
    assert checked > 100  # the check is not empty


def test_paired_interval_covers_at_its_level_exactly():
    # Exact coverage over every outcome of n pairs (a multinomial over wins, ties, losses).
    for n in (5, 12, 20):
        outcomes = [(w, t, n - w - t) for w in range(n + 1) for t in range(n + 1 - w)]
        bounds = np.array([tuple(prob_improvement(*_outcome(*o)).confidence_interval) for o in outcomes])
        for p_tie in (0.0, 0.2, 0.5):
            for p_win in np.linspace(0, 1 - p_tie, 13):
                truth = p_win + p_tie / 2
                probs = stats.multinomial.pmf(outcomes, n, [p_win, p_tie, max(1 - p_win - p_tie, 0.0)])
                covered = (bounds[:, 0] <= truth) & (truth <= bounds[:, 1])
                assert probs[covered].sum() >= 0.95 - 1e-12, (n, p_win, p_tie)


@pytest.mark.parametrize(("n_a", "n_b", "p_exact"), [(2, 2, 1 / 3), (3, 3, 0.1), (2, 9, 1 / 27.5), (5, 5, 2 / 252)])
def test_unpaired_runs_all_won_are_judged_on_the_smaller_set(n_a, n_b, p_exact):
    a, b = np.arange(n_a) + 10.0, np.arange(n_b, dtype=float)  # every run of A above every run of B
    assert stats.mannwhitneyu(a, b, method="exact").pvalue == pytest.approx(p_exact, rel=1e-12)
    res = prob_improvement(a, b, paired=False)
    m = min(n_a, n_b)
    assert res.estimate == 1.0 and res.n_trials == m
    assert tuple(res.confidence_interval) == pytest.approx((0.025 ** (1 / m), 1.0), abs=1e-12)
    assert res.reject is False  # a point interval and a rejection under the percentile bootstrap
    with pytest.warns(UserWarning, match="a single point"):
        assert prob_improvement(a, b, paired=False, method="percentile", rng=0).reject


def test_unpaired_rejections_are_never_bolder_than_the_exact_mann_whitney_test():
    checked = 0
    for n_a in range(2, 9):
        for n_b in range(2, 9):
            b = np.arange(n_b, dtype=float)
            for u in range(n_a * n_b + 1):
                # Runs of A placed so that u pairs (i, j) have a_i > b_j.
                below = np.minimum(np.maximum(u - n_b * np.arange(n_a), 0), n_b)
                a = below - 0.5
                res = prob_improvement(a, b, paired=False, alpha=0.1)
                assert res.estimate == u / (n_a * n_b)
                if res.reject:
                    assert stats.mannwhitneyu(a, b, method="exact").pvalue <= 0.1, (n_a, n_b, u)
                    checked += 1
    assert checked > 20


def test_unpaired_interval_is_binomial_when_the_larger_set_scores_the_same():
    # B constant: each run of A beats it or not (or ties), a binomial count over the runs of A.
    a = np.array([0.9, 0.3, 0.8, 0.7, 0.2, 0.95, 0.85])
    res = prob_improvement(a, np.full(11, 0.5), paired=False)
    ref = stats.binomtest(5, 7).proportion_ci(0.95, method="exact")
    assert res.estimate == 5 / 7 and tuple(res.confidence_interval) == pytest.approx((ref.low, ref.high), abs=1e-12)
    swapped = prob_improvement(np.full(11, 0.5), a, paired=False)  # the smaller set decides, whichever it is
    assert swapped.n_trials == 7 and swapped.estimate == pytest.approx(2 / 7, abs=1e-15)


def test_unpaired_estimate_from_ranks_matches_the_table_with_ties():
    rng = np.random.default_rng(11)
    a, b = rng.integers(0, 4, 13).astype(float), rng.integers(0, 4, 6).astype(float)  # many ties
    res = prob_improvement(a, b, paired=False)
    assert res.estimate == pytest.approx(_brute_force_unpaired(a, b), abs=1e-15)
    assert res.n_trials == 6


def test_unpaired_interval_covers_at_least_its_level_by_simulation():
    # Shifts, unequal spreads and a nearly constant B, at few runs; coverage of the true P(A > B).
    rng = np.random.default_rng(12)
    n_sims = 1500
    worlds = [
        (lambda s: rng.normal(0.9, 1, s), lambda s: rng.normal(0, 1, s), stats.norm.cdf(0.9 / np.sqrt(2))),
        (lambda s: rng.normal(stats.norm.ppf(0.8), 1, s), lambda s: rng.normal(0, 1e-6, s), 0.8),
        (lambda s: rng.normal(0, 1e-6, s), lambda s: rng.normal(-stats.norm.ppf(0.9), 1, s), 0.9),
    ]
    for draw_a, draw_b, truth in worlds:
        for n_a, n_b in [(3, 3), (5, 5), (10, 10), (4, 12)]:
            a, b = draw_a((n_sims, n_a)), draw_b((n_sims, n_b))
            bounds = np.array([tuple(prob_improvement(x, y, paired=False).confidence_interval) for x, y in zip(a, b)])
            cover = np.mean((bounds[:, 0] <= truth) & (truth <= bounds[:, 1]))
            assert cover >= 0.95 - 3 * np.sqrt(0.95 * 0.05 / n_sims), (truth, n_a, n_b, cover)


def test_across_tasks_clopper_pearson_counts_every_task():
    a, b = _task_matrices(n_a=5, n_b=5, n_tasks=4, seed=4)
    paired = prob_improvement(a, b)
    flat = prob_improvement(a.ravel(), b.ravel())  # the 20 independent pairs
    assert paired.n_trials == 20 and paired.estimate == pytest.approx(flat.estimate, abs=1e-15)
    assert tuple(paired.confidence_interval) == pytest.approx(tuple(flat.confidence_interval), abs=1e-12)
    a2, b2 = _task_matrices(n_a=3, n_b=7, n_tasks=4, seed=5)
    unpaired = prob_improvement(a2, b2, paired=False)
    u = sum(stats.mannwhitneyu(a2[:, t], b2[:, t]).statistic for t in range(4))
    assert unpaired.n_trials == 4 * 3 and unpaired.estimate == pytest.approx(u / (4 * 3 * 7), abs=1e-15)
    low = stats.beta.ppf(0.025, u / 7, 12 - u / 7 + 1)
    assert unpaired.confidence_interval.low == pytest.approx(low, abs=1e-12)


def test_across_tasks_few_runs_all_won_do_not_reject():
    # Two tasks, two runs each, A above B everywhere. Paired: 4 pairs (sign test p = 1/8).
    # Unpaired: the stratified exact Mann-Whitney p is 2 * (1/6)**2 = 0.056.
    a, b = np.array([[0.9, 0.8], [0.91, 0.81]]), np.array([[0.5, 0.4], [0.51, 0.41]])
    for paired in (True, False):
        res = prob_improvement(a, b, paired=paired)
        assert res.estimate == 1.0 and res.reject is False and res.n_trials == 4
        assert res.confidence_interval.low == pytest.approx(0.025 ** (1 / 4), abs=1e-12)


# --------------------------------------------------------------------------- P(A > B) across tasks


def _task_matrices(n_a=5, n_b=5, n_tasks=4, seed=0, ties=True):
    rng = np.random.default_rng(seed)
    means = np.linspace(0.3, 0.9, n_tasks)
    a = rng.normal(means + 0.01, 0.02, size=(n_a, n_tasks))
    b = rng.normal(means, 0.02, size=(n_b, n_tasks))
    return (np.round(a, 2), np.round(b, 2)) if ties else (a, b)


def test_prob_improvement_across_tasks_is_the_mean_of_each_tasks_probability():
    a, b = _task_matrices(n_a=4, n_b=6)
    res = prob_improvement(a, b, paired=False, n_resamples=200, rng=0)
    per_task = [np.mean([(x > y) + 0.5 * (x == y) for x in a[:, t] for y in b[:, t]]) for t in range(a.shape[1])]
    assert res.estimate == pytest.approx(np.mean(per_task), abs=1e-15)
    assert (res.n_a, res.n_b, res.n_tasks, res.paired) == (4, 6, 4, False)
    a2, b2 = _task_matrices(n_a=5, n_b=5, seed=1)
    paired = prob_improvement(a2, b2, n_resamples=200, rng=0)
    assert paired.estimate == pytest.approx(np.mean((a2 > b2) + 0.5 * (a2 == b2)), abs=1e-15)
    assert (paired.n_a, paired.n_b, paired.n_tasks, paired.paired) == (5, 5, 4, True)


def test_prob_improvement_across_tasks_matches_rliable():
    metrics = pytest.importorskip("rliable.metrics")
    for seed, (n_a, n_b) in enumerate([(3, 3), (5, 8), (10, 4)]):
        a, b = _task_matrices(n_a=n_a, n_b=n_b, n_tasks=6, seed=seed)
        b[:, 0] = a[0, 0]  # a task where every run of B ties with A's first run
        res = prob_improvement(a, b, paired=False, n_resamples=10, rng=0)
        assert res.estimate == pytest.approx(metrics.probability_of_improvement(a, b), abs=1e-12)


@pytest.mark.parametrize("paired", [True, False])
def test_stratified_bootstrap_of_prob_improvement_matches_a_loop_over_the_same_draws(paired):
    a, b = _task_matrices(n_a=4, n_b=4 if paired else 3, n_tasks=5, seed=2)
    res = prob_improvement(a, b, paired=paired, method="percentile", n_resamples=300, alpha=0.2, rng=5)
    gen = np.random.default_rng(5)
    counts_a = gen.multinomial(4, np.full(4, 1 / 4), size=(300, 5))
    counts_b = None if paired else gen.multinomial(3, np.full(3, 1 / 3), size=(300, 5))
    boot = []
    for k in range(300):
        per_task = []
        for t in range(5):
            if paired:
                x = np.repeat(a[:, t], counts_a[k, t])
                y = np.repeat(b[:, t], counts_a[k, t])
                per_task.append(np.mean((x > y) + 0.5 * (x == y)))
            else:
                x, y = np.repeat(a[:, t], counts_a[k, t]), np.repeat(b[:, t], counts_b[k, t])
                per_task.append(np.mean((x[:, None] > y) + 0.5 * (x[:, None] == y)))
        boot.append(np.mean(per_task))
    np.testing.assert_allclose(res.bootstrap_distribution, boot, rtol=0, atol=1e-12)
    np.testing.assert_allclose(tuple(res.confidence_interval), np.quantile(boot, [0.1, 0.9]), atol=1e-12)
    assert res.reject == (res.confidence_interval.low > 0.5)
    assert res.meaningful == (res.confidence_interval.high > 0.75)


@pytest.mark.parametrize("paired", [True, False])
def test_one_task_is_the_vector_case(paired):
    a = np.array([0.652, 0.648, 0.661, 0.655, 0.640, 0.659])
    b = np.array([0.641, 0.650, 0.645, 0.638, 0.642, 0.651])
    for method in ("percentile", "clopper-pearson"):
        vector = prob_improvement(a, b, paired=paired, method=method, n_resamples=500, rng=3)
        matrix = prob_improvement(a[:, None], b[:, None], paired=paired, method=method, n_resamples=500, rng=3)
        assert matrix.estimate == vector.estimate and (matrix.n_tasks, vector.n_tasks) == (1, 1)
        assert matrix.n_trials == vector.n_trials
        np.testing.assert_allclose(matrix.bootstrap_distribution, vector.bootstrap_distribution, atol=1e-15)
        assert tuple(matrix.confidence_interval) == pytest.approx(tuple(vector.confidence_interval))


def test_prob_improvement_across_tasks_swaps_with_the_models():
    a, b = _task_matrices(n_a=5, n_b=7, seed=3)
    forward = prob_improvement(a, b, paired=False, n_resamples=50, rng=0)
    backward = prob_improvement(b, a, paired=False, n_resamples=50, rng=0)
    assert backward.estimate == pytest.approx(1 - forward.estimate, abs=1e-15)
    # An outlier task cannot dominate: each task weighs 1/T whatever its scale.
    a_far, b_far = a.copy(), b.copy()
    a_far[:, 0] *= 1000
    b_far[:, 0] *= 1000
    assert prob_improvement(a_far, b_far, paired=False, n_resamples=50, rng=0).estimate == pytest.approx(forward.estimate)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 5))), ValueError,
         r"must hold the same tasks \(columns\); got 4 and 5 tasks"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((4, 4))), ValueError,
         r"must hold paired runs \(rows\) with paired=True; got 3 and 4 runs"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros(3)), ValueError,
         r"`scores_b` must be a runs x tasks matrix .* got shape \(3,\)"),
        (dict(scores_a=np.zeros(3), scores_b=np.zeros((3, 1))), ValueError, "`scores_a` must be a runs x tasks matrix"),
        (dict(scores_a=np.zeros((1, 4)), scores_b=np.zeros((3, 4)), paired=False), ValueError,
         r"`scores_a` must hold at least 2 run\(s\)"),
        (dict(scores_a=[[0.1, np.nan], [0.2, 0.3]], scores_b=np.zeros((2, 2))), ValueError,
         r"`scores_a` holds NaN or infinite score\(s\) .* at \(run 0, task 1\)"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 4)), gamma=0.5), ValueError, r"`gamma` must lie in \(0.5, 1\)"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 4)), alpha=0.0), ValueError, "`alpha` must be strictly"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 4)), n_resamples=0), ValueError, "`n_resamples` must be"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 4)), rng="x"), TypeError, "`rng`"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 4)), paired="yes"), TypeError, "`paired` must be True or False"),
        (dict(scores_a=np.zeros((10, 100)), scores_b=np.zeros((10, 100)), n_resamples=10**8, method="percentile"),
         ValueError, "`n_resamples` = 100000000 would need"),
        (dict(scores_a=np.zeros((3, 4)), scores_b=np.zeros((3, 4)), method="bca"), ValueError,
         r"`method` must be one of 'clopper-pearson', 'percentile'; got 'bca'"),
    ],
)
def test_prob_improvement_across_tasks_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        prob_improvement(**kwargs)


def test_prob_improvement_across_tasks_reports_its_decisions_at_their_boundaries():
    ones = np.ones((3, 1))
    # Three tasks that A wins in every run, one that B wins: every resample gives exactly 0.75.
    a = np.hstack([ones, ones, ones, 0 * ones])
    b = np.hstack([0 * ones, 0 * ones, 0 * ones, ones])
    with pytest.warns(UserWarning, match="a single point"):
        res = prob_improvement(a, b, method="percentile", alpha=0.2, n_resamples=50, rng=0)
    assert (res.estimate, tuple(res.confidence_interval)) == (0.75, (0.75, 0.75))
    assert (res.reject, res.meaningful) == (True, False)  # U = 0.75 is not above gamma = 0.75
    assert (res.alpha, res.confidence_level, res.gamma) == (0.2, 0.8, 0.75)
    with pytest.warns(UserWarning, match="a single point"):
        sweep = prob_improvement(a[:, :3], b[:, :3], method="percentile", n_resamples=50, rng=0)  # A wins every run
    assert (sweep.estimate, sweep.reject, sweep.meaningful) == (1.0, True, True)
    # One task each way: exactly 0.5, not above it.
    with pytest.warns(UserWarning, match="a single point"):
        even = prob_improvement(a[:, 2:], b[:, 2:], paired=False, method="percentile", gamma=0.6, n_resamples=50, rng=0)
    assert tuple(even.confidence_interval) == (0.5, 0.5) and even.reject is False and even.gamma == 0.6


def test_prob_improvement_across_tasks_messages_in_full(monkeypatch):
    ragged, square = [[0.1, 0.2], [0.3]], [[0.1, 0.2], [0.3, 0.4]]
    for name, args in (("scores_a", (ragged, square)), ("scores_b", (square, ragged))):
        with pytest.raises(ValueError, match=rf"^`{name}` must be a rectangular array"):
            prob_improvement(*args)
    with pytest.raises(ValueError, match=r"^`scores_b` must be a rectangular array"):
        prob_improvement([0.1, 0.2], ragged)  # a vector beside a ragged list: the latter is named
    with pytest.raises(ValueError, match=r"^`scores_b` must hold at least 2 run\(s\) \(rows\) per task; got 1"):
        prob_improvement(np.zeros((3, 2)), np.zeros((1, 2)), paired=False)
    assert prob_improvement(np.zeros((3, 2)), np.ones((2, 2)), paired=False, n_resamples=5, rng=0).n_b == 2
    with pytest.raises(ValueError, match=r"got 3 and 5 runs\. Pass paired=False for independent runs\.$"):
        prob_improvement(np.zeros((3, 4)), np.zeros((5, 4)))
    import sigeval._validation as validation

    # 10 resamples x 3 tasks x (2 + 2) runs of counts, and the 3 x 2 x 2 table of wins.
    monkeypatch.setattr(validation, "MEMORY_LIMIT", (10 * 3 * 4 + 3 * 2 * 2) * 8)
    args = (np.zeros((2, 3)), np.ones((2, 3)))
    with pytest.warns(UserWarning, match="a single point"):
        assert prob_improvement(*args, paired=False, method="percentile", n_resamples=10, rng=0).n_tasks == 3
    monkeypatch.setattr(validation, "MEMORY_LIMIT", (10 * 3 * 4 + 3 * 2 * 2) * 8 - 1)
    with pytest.raises(ValueError, match=r"^`n_resamples` = 10 would need 1.0 KiB of memory for the stratified "
                                         r"bootstrap counts"):
        prob_improvement(*args, paired=False, method="percentile", n_resamples=10, rng=0)
    assert prob_improvement(*args, paired=False, n_resamples=10, rng=0).n_tasks == 3  # nothing drawn


@pytest.mark.parametrize("tasks", [False, True])
def test_unpaired_prob_improvement_blames_the_table_of_wins_not_n_resamples(tasks):
    # 10^5 runs each: the all-against-all table of wins (74.5 GiB), whatever n_resamples.
    a = np.zeros((100_000, 1) if tasks else 100_000)
    with pytest.raises(ValueError, match=r"^`scores_a` = 100,000 runs against 100,000 would need 74\.5 GiB of memory "
                                         r"for the table of wins of every run of A against every run of B "
                                         r"\(paired=False\); the limit is 4\.0 GiB\. Pass fewer runs, or pair them"):
        prob_improvement(a, a, paired=False, method="percentile", n_resamples=1)
    # The Clopper-Pearson interval counts the wins from ranks and builds no such table.
    res = prob_improvement(a, a, paired=False)
    assert (res.estimate, res.n_trials, res.n_tasks) == (0.5, 100_000, 1)


def test_unpaired_table_of_wins_names_the_tasks_when_there_are_several():
    # 40,000 runs each on 2 tasks: 3.2e9 wins (23.8 GiB).
    a = np.zeros((40_000, 2))
    with pytest.raises(ValueError, match=r"^`scores_a` = 40,000 runs against 40,000 on 2 tasks would need 23\.8 GiB "
                                         r"of memory for the table of wins"):
        prob_improvement(a, a, paired=False, method="percentile", n_resamples=1)

"""Bad and extreme inputs, category by category (issue 8).

Zero spread hidden by rounding, overflow near the float64 limits, huge
noncentrality, wrong types, counts beyond int64, memory-sized requests,
exact tests at scale and unclear errors from internals: each table gives the
inputs and the error each must produce, or the right finite answer.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import stats

import sigeval as sg
from sigeval._numeric import (
    check_finite_result,
    power_of_two_near,
    running_mean_and_squares,
    safe_scale,
    stable_mean_sd,
)
from sigeval._validation import MAX_COUNT, ZERO_SPREAD_RTOL
from sigeval.power_mcnemar import _rejection_probability, _share_of_a

# --------------------------------------------------------------------------- zero spread

# Constant differences that numpy's mean rounds, so np.std is ~1e-17, not 0.
CONSTANT_PAIRS = [
    (np.full(n, 0.1), np.zeros(n)) for n in (2, 3, 5, 7, 10, 33, 100)
] + [
    (np.array([0.81, 0.82, 0.83]), np.array([0.71, 0.72, 0.73])),  # 0.1 up to rounding
    (np.full(6, 75.3), np.full(6, 75.2)),
]

T_BASED = {
    "paired_difference": lambda a, b: sg.paired_difference(a, b, threshold=0.05),
    "tost_paired": lambda a, b: sg.tost_paired(a, b, margin=0.2),
    "verdict": lambda a, b: sg.verdict(a, b, margin=0.2),
    "resampled_paired_t": lambda a, b: sg.resampled_paired_t(a - b),
    "kfold_cv_paired_t": lambda a, b: sg.kfold_cv_paired_t(a - b),
    "corrected_resampled_t": lambda a, b: sg.corrected_resampled_t(a - b, n_train=90, n_test=10),
    "welch_test": lambda a, b: sg.welch_test(a - b, np.full(a.size, (a - b)[0])),
}


def test_the_examples_really_have_a_rounding_error_spread():
    assert sum(np.std(a - b, ddof=1) > 0 for a, b in CONSTANT_PAIRS) >= 3


@pytest.mark.parametrize("pair", CONSTANT_PAIRS, ids=lambda p: f"n={p[0].size},{p[0][0]}")
@pytest.mark.parametrize("name", sorted(T_BASED))
def test_constant_differences_are_refused_by_every_t_based_test(name, pair):
    a, b = pair
    with pytest.raises(ValueError, match="zero spread"):
        T_BASED[name](a, b)


@pytest.mark.parametrize("fn", [sg.five_by_two_cv_t, sg.five_by_two_cv_f])
def test_five_by_two_refuses_equal_folds_up_to_rounding(fn):
    folds = np.column_stack([np.full(5, 0.81) - 0.71, np.full(5, 0.1)])
    with pytest.raises(ValueError, match="variance estimate is zero"):
        fn(folds)


def test_seed_summary_reports_zero_spread_for_constant_runs():
    for a, b in CONSTANT_PAIRS:
        s = sg.seed_summary(a - b)
        assert s.sd == 0.0 and s.standard_error == 0.0


@pytest.mark.parametrize("scale", [1e-300, 1e-12, 1.0, 1e6, 1e300])
def test_real_spread_at_any_scale_is_kept(scale):
    # Differences 1, 2, 3, 5 times a scale: t does not depend on the scale.
    d = np.array([1.0, 2.0, 3.0, 5.0]) * scale
    reference = stats.ttest_1samp([1.0, 2.0, 3.0, 5.0], 0.0)
    res = sg.paired_difference(d, np.zeros(4))
    assert res.statistic == pytest.approx(reference.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(reference.pvalue, rel=1e-12)
    assert res.estimate == pytest.approx(2.75 * scale, rel=1e-12)
    assert sg.kfold_cv_paired_t(d).statistic == pytest.approx(reference.statistic, rel=1e-12)


def test_a_small_spread_relative_to_large_scores_is_kept_above_the_tolerance():
    a = 1000.0 + np.array([0.0, 1e-9, 3e-9, 2e-9])  # spread 1e-12 of the scale, above 1.4e-14
    res = sg.paired_difference(a, np.full(4, 1000.0))
    assert np.isfinite(res.statistic) and 0 < res.pvalue < 1
    assert ZERO_SPREAD_RTOL < 1e-13


# --------------------------------------------------------------------------- overflow

HUGE = 1.5e308


@pytest.mark.parametrize(
    "call",
    [
        lambda a, b: sg.paired_difference(a, b),
        lambda a, b: sg.tost_paired(a, b, margin=1.0),
        lambda a, b: sg.verdict(a, b, margin=1.0),
        lambda a, b: sg.paired_permutation_test(a, b),
        lambda a, b: sg.wilcoxon_signed_rank(a, b),
        lambda a, b: sg.paired_bootstrap_ci(a, b, n_resamples=50, rng=0),
    ],
    ids=["paired_difference", "tost_paired", "verdict", "permutation", "wilcoxon", "paired_bootstrap"],
)
def test_differences_beyond_float64_are_refused(call):
    a = np.array([HUGE, 1.0, -HUGE, 2.0])
    b = np.array([-HUGE, 0.0, HUGE, 1.0])
    with pytest.raises(ValueError, match=r"`scores_a - scores_b` overflow float64 at position\(s\) 0, 2"):
        call(a, b)


def test_permutation_test_of_huge_scores_is_exact_and_never_below_two_to_the_minus_n():
    a = np.array([1.0e308, 1.5e308, 1.7e308, 1.0e308])
    b = np.array([0.0, 1.0e307, 1.0e307, 0.0])
    res = sg.paired_permutation_test(a, b)
    assert res.method == "exact" and res.pvalue == pytest.approx(2 * 2.0**-4)
    assert res.statistic == pytest.approx(np.mean(a / 4 - b / 4) * 4)
    # Monte Carlo on huge, all-different differences: finite, and at least 1 / (B + 1).
    mc = sg.paired_permutation_test(np.linspace(1e307, 1.7e308, 30), np.zeros(30), n_resamples=99, rng=0)
    assert np.isfinite(mc.statistic) and mc.pvalue >= 1 / 100
    assert np.all(np.isfinite(mc.null_distribution))


@pytest.mark.parametrize("m", [1, 10, 60, 1100, 5000])
def test_permutation_pvalue_never_falls_below_two_to_the_minus_m(m):
    res = sg.paired_permutation_test(np.ones(m), np.zeros(m))
    assert res.pvalue >= max(2.0**-m, np.finfo(float).tiny) and res.pvalue > 0


def test_bootstrap_of_the_mean_of_huge_scores_is_finite():
    with pytest.warns(UserWarning, match="same value"):
        res = sg.bootstrap_ci(np.full(10, 1e308), rng=0)
    assert res.estimate == 1e308 and tuple(res.confidence_interval) == (1e308, 1e308)
    x = np.linspace(1e307, 1.7e308, 50)
    small = sg.bootstrap_ci(x / 2.0**1000, rng=0, method="bca")
    big = sg.bootstrap_ci(x, rng=0, method="bca")
    # The power-of-two scale is exact: the huge interval is the small one scaled back.
    assert big.estimate == pytest.approx(small.estimate * 2.0**1000, rel=1e-14)
    assert np.asarray(big.confidence_interval) == pytest.approx(
        np.asarray(small.confidence_interval) * 2.0**1000, rel=1e-14
    )
    assert big.standard_error == pytest.approx(small.standard_error * 2.0**1000, rel=1e-14)
    basic = sg.bootstrap_ci(x, rng=0, method="basic")
    assert np.all(np.isfinite(np.asarray(basic.confidence_interval)))


@pytest.mark.parametrize(
    "fn",
    [sg.resampled_paired_t, sg.kfold_cv_paired_t,
     lambda d: sg.corrected_resampled_t(d, n_train=9, n_test=1)],
    ids=["resampled", "kfold", "corrected"],
)
@pytest.mark.parametrize("scale", [1e-310, 1e300])
def test_t_tests_over_splits_do_not_depend_on_the_scale(fn, scale):
    d = np.array([0.02, 0.01, 0.03, 0.0, 0.02])
    ref, res = fn(d), fn(d * scale)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-9)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-9)


def test_five_by_two_and_welch_at_huge_scale():
    p = np.array([[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.0, 0.02], [0.02, 0.01]])
    assert sg.five_by_two_cv_t(p * 1e300).statistic == pytest.approx(sg.five_by_two_cv_t(p).statistic)
    assert sg.five_by_two_cv_f(p * 1e300).statistic == pytest.approx(sg.five_by_two_cv_f(p).statistic)
    a, b = np.array([1.0, 1.1, 1.2]), np.array([1.0, 1.05, 1.3])
    ref, big = sg.welch_test(a, b), sg.welch_test(a * 1e300, b * 1e300)
    assert big.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert big.estimate == pytest.approx(ref.estimate * 1e300, rel=1e-12)


def test_results_that_overflow_are_refused_not_returned_as_inf():
    with pytest.raises(ValueError, match=r"overflows float64 \(confidence_interval not finite\)"):
        sg.paired_difference([1.0e308, 1.5e308, 1.7e308], [-1e307, 1e307, 1e307])
    with pytest.raises(ValueError, match=r"overflows float64 \(mde not finite\).*`sigma_d`"):
        sg.power_paired(1.7e308, 5)


def test_tost_interval_and_seed_sd_beyond_float64_are_refused():
    b = np.r_[9.43579949e307, np.full(7, 1e300)]
    with pytest.raises(ValueError, match=r"overflows float64 \(confidence_interval not finite\)"):
        sg.tost_paired(np.zeros(8), b, margin=1.0, alpha=1e-6)
    with pytest.raises(ValueError, match=r"overflows float64 \(sd not finite\).*`scores`"):
        sg.seed_summary([-np.finfo(float).max, np.finfo(float).max])


def test_stable_mean_and_sd_match_numpy_for_ordinary_values_bit_for_bit():
    x = np.random.default_rng(0).normal(0.7, 0.01, 37)
    assert safe_scale(x) == 1.0
    assert stable_mean_sd(x) == (float(x.mean()), float(x.std(ddof=1)))


def test_safe_scale_at_its_boundaries():
    # Empty and all-zero arrays need no rescaling.
    assert safe_scale(np.array([])) == 1.0 and safe_scale(np.zeros(3), power=2) == 1.0
    # Sums of first powers (the default) of 2**600 stay in range; of squares they do not.
    x = np.array([2.0**600])
    assert safe_scale(x) == 1.0 and safe_scale(x, power=2) == 2.0**600
    # The growth of one term of magnitude 2**(e - 1): below 2**1000 is in range, at 2**1000 it is not.
    assert safe_scale(np.array([2.0**998])) == 1.0 and safe_scale(np.array([2.0**999])) == 2.0**999
    assert safe_scale(np.full(3, 2.0**997)) == 1.0 and safe_scale(np.full(4, 2.0**997)) == 2.0**997
    # Below: 2**-1000 (exponent -999) is kept, 2**-1001 (exponent -1000) is rescaled.
    assert safe_scale(np.array([2.0**-1000])) == 1.0 and safe_scale(np.array([-(2.0**-1001)])) == 2.0**-1001
    assert safe_scale(np.array([2.0**-500]), power=2) == 1.0 and safe_scale(np.array([2.0**-501]), power=2) == 2.0**-501


@pytest.mark.parametrize(("top", "want"), [(1.0, 1.0), (1.5, 1.0), (3.0, 2.0), (0.75, 0.5), (2.0**-1074, 2.0**-1074),
                                           (np.finfo(float).max, 2.0**1023)])
def test_power_of_two_near_is_the_power_of_two_at_or_below(top, want):
    assert power_of_two_near(top) == want


def test_stable_mean_and_sd_near_the_float64_limits():
    x = np.array([1.0, 2.0, 4.0, 7.0])
    mean, sd = float(x.mean()), float(x.std(ddof=1))
    for factor in (2.0**1000, 2.0**-1060):
        got = stable_mean_sd(x * factor)
        assert got == pytest.approx((mean * factor, sd * factor), rel=1e-15)


def test_check_finite_result_names_the_fields_and_the_arguments():
    check_finite_result({"estimate": 1.0, "standard_error": np.array([0.0, 2.0])}, "`x`")
    with pytest.raises(ValueError, match=r"^The result overflows float64 \(estimate, standard_error not finite\): the "
                                         r"values of `x` are too large, or too far apart in scale, for float64 "
                                         r"arithmetic; rescale them \(e\.g\. divide by a power of ten\)\.$"):
        check_finite_result({"estimate": np.inf, "standard_error": np.array([1.0, np.nan]), "n": 3.0}, "`x`")


# --------------------------------------------------------------------------- power at huge noncentrality


@pytest.mark.parametrize("sigma_d", [1e-9, 1e-10, 1e-12, 1e-300])
def test_power_paired_is_one_at_huge_noncentrality(sigma_d):
    res = sg.power_paired(sigma_d, [2, 3, 10, 100], delta=0.1)
    assert np.array_equal(res.power, np.ones(4))
    assert sg.power_paired(sigma_d, 10, delta=-0.1).power == 1.0


def test_power_far_in_the_tail_is_the_chi_square_limit():
    # alpha = 1e-12 with 1 degree of freedom: t_crit ~ 6e11, nc = 1e10 / ... stays below 1.
    res = sg.power_paired(1e-11, 2, delta=0.1, alpha=1e-12)
    nc = 0.1 * np.sqrt(2) / 1e-11
    t_crit = stats.t.isf(0.5e-12, 1)
    assert res.power == pytest.approx(stats.chi2.cdf((nc / t_crit) ** 2, 1), rel=1e-6)
    assert 0 < res.power <= 1


def test_seeds_needed_refuses_effects_no_count_can_detect():
    with pytest.raises(ValueError, match=r"`delta` = 1e-09 is too small against `sigma_d` = 1.0"):
        sg.seeds_needed(1.0, 1e-9)
    with pytest.raises(ValueError, match="`delta` = 1e-320 is too small"):
        sg.seeds_needed(1e10, 1e-320)
    assert sg.seeds_needed(1e-300, 1e300) == 2


# --------------------------------------------------------------------------- types

TYPE_CASES = [
    (lambda: sg.coverage(10, "0.5"), r"`p` must hold real numbers; got text '0.5'"),
    (lambda: sg.mcnemar_power(100, "0.1", 0.05), r"`p01` must hold real numbers; got text '0.1'"),
    (lambda: sg.mcnemar_power(100, 0.1, 0.05 + 0j), r"`p10` must hold real numbers; got complex"),
    (lambda: sg.proportion_ci("4", 10), r"`k` must hold integer counts; got text '4'"),
    (lambda: sg.proportion_ci(4, 10 + 0j), r"`n` must hold integer counts; got complex"),
    (lambda: sg.seed_summary(np.array([1 + 1j, 2, 3])), r"`scores` must hold numbers; got complex"),
    (lambda: sg.bootstrap_ci(np.array([0.1, 0.2 + 1j])), r"`data` must hold numbers; got complex"),
    (lambda: sg.bootstrap_ci((np.ones((3, 2)) + 1j,), statistic=np.mean), r"`data` must hold real numbers; got complex"),
    (lambda: sg.power_paired("0.2", 10), r"`sigma_d` must hold real numbers; got text"),
    (lambda: sg.power_paired(0.2, 10, delta=0.1j), r"`delta` must hold real numbers; got complex"),
    (lambda: sg.adjust_pvalues([0.1, 0.2j]), r"`pvalues` must hold real numbers; got complex"),
    (lambda: sg.friedman(np.ones((3, 3)) * 1j), r"`scores` must hold numbers; got complex"),
    (lambda: sg.cd_groups(["1", "2"], 1.0), r"`mean_ranks` must hold real numbers; got text"),
    (lambda: sg.verdict_from_pvalues("0.01", 0.3), r"`pvalue_difference` must hold real numbers"),
    (lambda: sg.five_by_two_cv_t(np.ones((5, 2)) * 1j), r"`differences` must hold real numbers"),
    (lambda: sg.ratio_of_sums([["1", "2"]], [[1.0, 2.0]], axis=1), r"`numerator` must hold real numbers"),
    (lambda: sg.roc_auc([[1, 0]], [[0.5j, 0.1]], axis=1), r"`scores` must hold real numbers"),
    (lambda: sg.mcnemar_sample_size("0.3", 0.1), r"`p01` must be a real number"),
    (lambda: sg.seeds_needed(0.1, 0.05j), r"`delta` must be a real number"),
    (lambda: sg.nemenyi_cd(4, "14"), r"`n_tasks` must be an integer"),
    (lambda: sg.bootstrap_ranks({"a": np.ones(4) * 1j, "b": np.ones(4)}, statistic=np.mean),
     r"`scores\['a'\]` must hold real numbers"),
]


@pytest.mark.parametrize(("call", "match"), TYPE_CASES, ids=[m[:30] for _, m in TYPE_CASES])
def test_strings_and_complex_numbers_are_refused_with_type_error(call, match):
    with pytest.raises(TypeError, match=match):
        call()


# --------------------------------------------------------------------------- counts beyond int64

BIG_COUNTS = [
    (lambda: sg.proportion_ci(1, 2**70), "`n`", "1180591620717411303424"),
    (lambda: sg.proportion_ci(1, np.uint64(2**63 + 5)), "`n`", "9223372036854775813"),
    (lambda: sg.proportion_ci(1, 1e30), "`n`", "1000000000000000019884624838656"),
    (lambda: sg.proportion_ci(-(2**64), 10), "`k`", "-18446744073709551616"),
    (lambda: sg.coverage([10, 2**70], 0.5), "`n`", "1180591620717411303424"),
    (lambda: sg.mcnemar_counts(2**62, 1), "`n01`", "4611686018427387904"),
    (lambda: sg.mcnemar_counts(1, np.array([2**63], dtype=np.uint64)), "`n10`", "9223372036854775808"),
    (lambda: sg.mcnemar_power(2**64, 0.1, 0.05), "`n`", "18446744073709551616"),
    (lambda: sg.power_paired(0.1, 2**80), "`n`", "1208925819614629174706176"),
    (lambda: sg.difference_of_proportions_test(1, 2, 2**66), "`n`", "73786976294838206464"),
    (lambda: sg.expected_best_of_k([0.1, 0.2], 2**70), "`k`", "1180591620717411303424"),
]


@pytest.mark.parametrize(("call", "name", "value"), BIG_COUNTS, ids=[v for _, _, v in BIG_COUNTS])
def test_counts_beyond_int64_are_refused_showing_the_value(call, name, value):
    with pytest.raises(ValueError, match=rf"{name} must be at most 2\*\*53") as info:
        call()
    assert value in str(info.value)


def test_counts_up_to_two_to_the_53_are_exact():
    ci = sg.proportion_ci(MAX_COUNT // 2, MAX_COUNT)
    assert ci.estimate == 0.5 and ci.low < 0.5 < ci.high
    assert sg.mcnemar_counts(MAX_COUNT // 2, MAX_COUNT // 2).pvalue == 1.0
    with pytest.raises(ValueError, match=r"`n01 \+ n10` must be at most 2\*\*53 = 9,007,199,254,740,992; got 13727961409361652"):
        sg.mcnemar_counts(6_863_980_704_680_826, 6_863_980_704_680_826)


def test_mcnemar_power_at_disagreement_rates_near_the_smallest_float():
    # scipy's binomial pmf overflows for rates near 1e-307; the power is n * psi * P(reject | m = 1).
    res = sg.mcnemar_power(21, 0.0, 2.666642218705874e-308, alpha=0.5, exact=False, continuity=False)
    assert res.power == pytest.approx(21 * 2.666642218705874e-308, rel=1e-12)
    assert sg.mcnemar_power(21, 0.0, 2.666642218705874e-308, alpha=0.5).power == 0.0


def test_expected_best_of_k_of_huge_scores_is_finite():
    assert sg.expected_best_of_k([8.98846567e307, 8.98846567e307], 1) == 8.98846567e307


# --------------------------------------------------------------------------- memory

MEMORY_CASES = [
    (lambda: sg.coverage(10**10, 0.5), r"`n` = 10000000000 would need 447\.0 GiB .*interval bounds"),
    (lambda: sg.coverage([10, 10**9], 0.5), r"`n` = 1000000000 would need 44\.7 GiB"),
    (lambda: sg.bootstrap_ci([0.1, 0.2], n_resamples=10**11), r"`n_resamples` = 100000000000 would need 745\.1 GiB"),
    (lambda: sg.paired_bootstrap_ci([0.1, 0.2], [0.2, 0.1], n_resamples=10**11), r"`n_resamples` = 100000000000"),
    (lambda: sg.paired_permutation_test(np.arange(30.0) / 7, np.zeros(30), n_resamples=10**11), r"`n_resamples` = 100000000000 .*null distribution"),
    (lambda: sg.prob_improvement([0.1, 0.2], [0.2, 0.1], method="percentile", n_resamples=10**11), r"`n_resamples` = 100000000000 .*bootstrap counts"),
    (lambda: sg.rank_stability(np.eye(3), n_resamples=10**10), r"`n_resamples` = 10000000000 .*mean ranks"),
    (lambda: sg.bootstrap_ranks(np.eye(3), n_resamples=10**10), r"`n_resamples` = 10000000000 .*metrics and ranks"),
    (lambda: sg.mcnemar_power(10**15, 0.048, 0.032), r"`n` = 1000000000000000 would need .* exact power sum"),
]


@pytest.mark.parametrize(("call", "match"), MEMORY_CASES, ids=[m[:24] for _, m in MEMORY_CASES])
def test_enormous_requests_are_refused_up_front_with_the_memory_needed(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --------------------------------------------------------------------------- exact at scale


@pytest.mark.parametrize(("n01", "n10"), [(1_600_000, 1_400_000), (600_001, 600_000), (3, 2_000_000)])
def test_permutation_test_on_01_scores_is_exact_at_millions_of_disagreements(n01, n10):
    a = np.r_[np.ones(n01), np.zeros(n10)]
    b = np.r_[np.zeros(n01), np.ones(n10)]
    res = sg.paired_permutation_test(a, b, method="exact")
    expected = max(sg.mcnemar_counts(n01, n10).pvalue, 2 * np.finfo(float).tiny)
    assert res.method == "exact" and res.pvalue == pytest.approx(expected, rel=1e-12)
    auto = sg.paired_permutation_test(a, b, alternative="greater")
    assert auto.method == "exact"
    assert auto.pvalue == pytest.approx(max(stats.binom.sf(n01 - 1, n01 + n10, 0.5), np.finfo(float).tiny), rel=1e-10)


def test_method_exact_works_for_equal_non_integer_magnitudes():
    a = np.r_[np.full(25, 0.5), np.full(5, -0.5), np.zeros(10)]
    res = sg.paired_permutation_test(a, np.zeros(40), method="exact")
    assert res.pvalue == pytest.approx(sg.mcnemar_counts(25, 5).pvalue, rel=1e-12)


def test_method_exact_states_why_it_is_infeasible():
    gen = np.random.default_rng(3)
    with pytest.raises(ValueError, match=r"take 30 distinct magnitudes .* number 30 nonzero differences"):
        sg.paired_permutation_test(gen.random(30), np.zeros(30), method="exact")


def _full_sum_power(n, p01, p10, alpha=0.05, exact=True, continuity=True, mid_p=False):
    """The exact power summed over every m = 0..n (the definition)."""
    m = np.arange(n + 1)
    reject = _rejection_probability(m, _share_of_a(p01, p10), alpha, exact, continuity, mid_p)
    return float(stats.binom.pmf(m, n, p01 + p10) @ reject)


@pytest.mark.parametrize(
    ("n", "p01", "p10", "form"),
    [
        (1000, 0.048, 0.032, {}),
        (50, 0.3, 0.1, {}),
        (3000, 0.001, 0.0005, {}),
        (2000, 0.6, 0.4, {}),
        (10, 0.5, 0.5, {}),
        (700, 0.0, 0.0, {}),
        (500, 1.0, 0.0, {}),
        (20_000, 0.02, 0.015, {"mid_p": True}),
        (20_000, 0.02, 0.015, {"exact": False}),
        (50_000, 0.01, 0.008, {"exact": False, "continuity": False}),
    ],
)
def test_windowed_mcnemar_power_equals_the_full_sum(n, p01, p10, form):
    res = sg.mcnemar_power(n, p01, p10, **form)
    assert res.power == pytest.approx(_full_sum_power(n, p01, p10, **form), rel=1e-12, abs=1e-15)


def test_mcnemar_power_at_a_million_items_is_close_to_the_normal_approximation():
    exact = sg.mcnemar_power(10**6, 0.0048, 0.0042).power
    normal = sg.mcnemar_power(10**6, 0.0048, 0.0042, power_method="normal").power
    assert 0.99 < exact < 1 and exact == pytest.approx(normal, abs=5e-4)
    grid = sg.mcnemar_power([500, 1000, 2000, 10**6], 0.048, 0.032).power
    assert np.all(np.diff(grid) > 0)


# --------------------------------------------------------------------------- internals

INTERNAL_CASES = [
    (lambda: sg.seed_summary([[1.0, 2.0], [3.0]]), ValueError, r"`scores` must be a rectangular array .* ragged list"),
    (lambda: sg.paired_difference([0.1, 0.2], [[0.1], [0.2, 0.3]]), ValueError, r"`scores_b` must be a rectangular"),
    (lambda: sg.bootstrap_ci([0.1, 0.2, 0.3], rng=-1), ValueError, r"`rng` must be a non-negative integer seed; got -1"),
    (lambda: sg.paired_permutation_test([1.0, 0.0], [0.0, 1.0], method="monte-carlo", rng=-5), ValueError, r"`rng` must be a non-negative integer seed; got -5"),
    (lambda: sg.bootstrap_ci([0.1, 0.2, 0.3], groups=[1, "a", None], rng=0), ValueError, r"`groups` holds NaN labels \(missing: NaN or None\) at position\(s\) 2"),
    (lambda: sg.bootstrap_ci([0.1, 0.2, 0.3], groups=[1, "a", 2], rng=0), TypeError, r"`groups` labels must be comparable .* int, str"),
    (lambda: sg.bootstrap_ci([0.1, 0.2, 0.3], groups=[[1], [2, 3], [4]], rng=0), ValueError, r"`groups` must be a rectangular"),
    (lambda: sg.coverage([10, 20], [0.1, 0.2, 0.3]), ValueError, r"`n` and `p` must broadcast to a common shape; got shapes \(2,\) and \(3,\)"),
    (lambda: sg.proportion_ci([1, 2], [5, 6, 7]), ValueError, r"`k` and `n` must broadcast"),
    (lambda: sg.power_paired([0.1, 0.2], [5, 6, 7]), ValueError, r"`sigma_d`, `n` and `delta` must broadcast"),
    (lambda: sg.difference_of_proportions_test([1, 2], [1, 2, 3], 10), ValueError, r"`k_a`, `k_b` and `n` must broadcast"),
    (lambda: sg.mcnemar_counts([1, 2], [1, 2, 3]), ValueError, r"`n01` and `n10` must broadcast"),
    (lambda: sg.verdict_from_pvalues([0.1, 0.2], [0.1, 0.2, 0.3]), ValueError, r"`pvalue_difference` and `pvalue_equivalence` must broadcast"),
    (lambda: sg.mcnemar_power([10, 20], [0.1, 0.2, 0.3], 0.01), ValueError, r"must broadcast"),
    (lambda: sg.expected_best_of_k([0.1, 0.2], []), ValueError, r"`k` must not be empty"),
    (lambda: sg.holm_vs_control(np.eye(3), np.array([0])), ValueError, r"`control` must be one of the models"),
    (lambda: sg.average_precision([[[0.9, 0.3]]], [[[2, 0]]], [[2]], axis=1), ValueError, r"`is_true_positive` must be 0 or 1"),
]


@pytest.mark.parametrize(("call", "error", "match"), INTERNAL_CASES, ids=[m[:28] for _, _, m in INTERNAL_CASES])
def test_errors_from_internals_name_the_argument(call, error, match):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(error, match=match):
            call()


# --------------------------------------------------------------------------- issue 24: values that were silently wrong


def test_object_arrays_of_real_numbers_are_accepted():
    """An object array of numbers used to be refused as "must hold numbers; got values of type float64"."""
    a, b = [0.91, 0.90, 0.93, 0.92], [0.88, 0.89, 0.90, 0.88]
    expected = sg.paired_difference(a, b)
    boxed = sg.paired_difference(np.array([np.float64(v) for v in a], dtype=object), np.array(b, dtype=object))
    assert repr(boxed) == repr(expected)
    ints = sg.paired_difference(np.array([3, 5, 4, 6], dtype=object), [1, 2, 2, 3])
    assert repr(ints) == repr(sg.paired_difference([3, 5, 4, 6], [1, 2, 2, 3]))
    low, high = sg.proportion_ci(np.array([3.0, 4], dtype=object), 10).low, sg.proportion_ci([3, 4], 10).low
    np.testing.assert_array_equal(low, high)


@pytest.mark.parametrize("element, kind", [("0.5", "str"), (None, "NoneType"), (1 + 2j, "complex")])
def test_object_arrays_name_the_offending_element_and_its_type(element, kind):
    values = np.array([0.1, np.float64(0.2), element, 0.4], dtype=object)
    with pytest.raises(TypeError, match=rf"`scores_a` must hold real numbers; element 2 is .* of type {kind}\."):
        sg.paired_difference(values, [0.1, 0.2, 0.3, 0.5])
    with pytest.raises(TypeError, match=rf"`scores` must hold real numbers; element \(1, 0\) is .* of type {kind}"):
        sg.iqm(np.array([[0.1, 0.2], [element, 0.3]], dtype=object))


@pytest.mark.parametrize("dtype", [np.int64, object])
def test_integer_scores_beyond_2_53_are_refused_with_a_message_about_precision(dtype):
    """2**62 + 1 and 2**62 + 2 become one float: the differences used to be refused as "zero spread"."""
    big = 2**62
    a = np.array([big, big + 1, big + 5], dtype=dtype)
    with pytest.raises(ValueError, match=r"`scores_a` holds whole numbers that float64 cannot represent exactly "
                                         r"\(beyond 2\*\*53.*4611686018427387905 would become 4611686018427387904"):
        sg.paired_difference(a, [big + 2, big + 2, big + 2][::-1])
    # Whole numbers float64 holds exactly stay accepted, however large.
    assert sg.paired_difference([2**60, 2**61, 2**62], [0, 1, 2]).n == 3
    assert sg.paired_difference(np.array([2**70, 2**71, 2**72], dtype=object), [3, 2, 1]).n == 3


def test_running_mean_and_squares_are_those_of_every_prefix_without_cancellation():
    x = np.random.default_rng(0).normal(1e8, 1e-3, 40)  # sum(x**2) - n mean**2 would lose every digit
    mean, squares = running_mean_and_squares(x)
    for n in (1, 2, 17, 40):
        assert mean[n - 1] == pytest.approx(np.mean(x[:n]), rel=1e-15)
        centred = x[:n] - np.mean(x[:n])
        assert squares[n - 1] == pytest.approx(np.sum(centred**2), rel=1e-3, abs=1e-20)
    naive = np.sum(x**2) - 40 * np.mean(x) ** 2
    assert abs(naive - squares[-1]) > 1e3 * squares[-1]
    assert squares[0] == 0.0

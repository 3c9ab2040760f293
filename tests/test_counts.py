"""sigeval.counts: the same answers from counts as from the per-item vectors."""

import warnings

import numpy as np
import pytest

from sigeval import (
    PairedCounts,
    bootstrap_ci,
    bootstrap_ci_counts,
    difference_se,
    difference_se_counts,
    mcnemar,
    paired_bootstrap_ci,
    paired_bootstrap_ci_counts,
    paired_permutation_test,
    paired_permutation_test_counts,
)


def correctness(n, seed=0, p_a=0.85, agree=0.9):
    gen = np.random.default_rng(seed)
    a = (gen.random(n) < p_a).astype(int)
    b = np.where(gen.random(n) < agree, a, (gen.random(n) < 0.8).astype(int))
    return a, b


def test_table_from_correctness_counts_each_cell():
    a, b = correctness(500)
    t = PairedCounts.from_correctness(a, b)
    assert t.both_correct == np.sum((a == 1) & (b == 1)) and t.both_wrong == np.sum((a == 0) & (b == 0))
    assert t.only_a_correct == np.sum((a == 1) & (b == 0)) and t.only_b_correct == np.sum((a == 0) & (b == 1))
    assert t.n == 500 and t.accuracy_a == a.mean() and t.accuracy_b == b.mean()
    m = mcnemar(a, b)
    assert (m.n01, m.n10) == (t.only_a_correct, t.only_b_correct)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("n, seed", [(1000, 0), (250, 1), (100_000, 2)])
def test_paired_bootstrap_from_counts_is_the_per_item_bootstrap_draw_for_draw(method, n, seed):
    a, b = correctness(n, seed)
    items = paired_bootstrap_ci(a, b, n_resamples=2000, method=method, rng=seed)
    counts = paired_bootstrap_ci_counts(PairedCounts.from_correctness(a, b), n_resamples=2000, method=method, rng=seed)
    np.testing.assert_array_equal(counts.bootstrap_distribution, items.bootstrap_distribution)
    assert counts.estimate == items.estimate
    assert tuple(counts.confidence_interval) == tuple(items.confidence_interval)
    assert counts.standard_error == items.standard_error


def test_paired_bootstrap_with_an_empty_cell():
    a = np.r_[np.ones(300), np.zeros(100), np.ones(50)]
    b = np.r_[np.ones(300), np.zeros(100), np.zeros(50)]  # B is never right where A is wrong
    table = PairedCounts.from_correctness(a, b)
    assert table.only_b_correct == 0
    items = paired_bootstrap_ci(a, b, rng=4)
    np.testing.assert_array_equal(paired_bootstrap_ci_counts(table, rng=4).bootstrap_distribution,
                                  items.bootstrap_distribution)


def test_few_items_agree_with_the_items_in_sorted_order():
    """Below 96 items the per-item bootstrap draws items by position: the counts path is that of sorted items."""
    a = np.array([1, 1, 0, 1, 0, 1, 1, 0, 1, 1])
    b = np.array([1, 0, 1, 1, 0, 0, 1, 1, 1, 0])
    d = a - b
    order = np.argsort(d, kind="stable")
    items = paired_bootstrap_ci(a[order], b[order], n_resamples=500, rng=7)
    counts = paired_bootstrap_ci_counts(PairedCounts.from_correctness(a, b), n_resamples=500, rng=7)
    np.testing.assert_array_equal(counts.bootstrap_distribution, items.bootstrap_distribution)


def test_paired_bootstrap_cost_does_not_depend_on_n():
    small = paired_bootstrap_ci_counts(PairedCounts(801, 44, 28, 127), rng=0)
    huge = paired_bootstrap_ci_counts(PairedCounts(801 * 10**9, 44 * 10**9, 28 * 10**9, 127 * 10**9), rng=0)
    assert huge.estimate == pytest.approx(small.estimate)
    width = np.diff(np.asarray(small.confidence_interval))[0]
    huge_width = np.diff(np.asarray(huge.confidence_interval))[0]
    assert huge_width == pytest.approx(width / np.sqrt(1e9), rel=0.05)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_permutation_from_counts_is_the_exact_per_item_test(alternative, seed):
    a, b = correctness(800, seed)
    items = paired_permutation_test(a, b, alternative=alternative)
    counts = paired_permutation_test_counts(PairedCounts.from_correctness(a, b), alternative=alternative)
    assert items.method == counts.method == "exact"
    assert counts.pvalue == items.pvalue and counts.statistic == pytest.approx(items.statistic, abs=1e-15)


def test_permutation_from_counts_is_mcnemars_exact_test_at_any_size():
    table = PairedCounts(10**15, 520_000, 480_000, 10**14)
    res = paired_permutation_test_counts(table)
    from sigeval import mcnemar_counts

    assert res.pvalue == pytest.approx(mcnemar_counts(520_000, 480_000).pvalue, rel=1e-12)
    assert 0 < res.pvalue < 1e-3
    never_disagree = paired_permutation_test_counts(PairedCounts(5, 0, 0, 5))
    assert never_disagree.pvalue == 1.0
    one_sided = paired_permutation_test_counts(PairedCounts(0, 60, 0, 0), alternative="greater")
    assert one_sided.pvalue == 2.0**-60


@pytest.mark.parametrize("seed", [0, 3])
def test_standard_errors_from_counts(seed):
    a, b = correctness(700, seed)
    items, counts = difference_se(a, b), difference_se_counts(PairedCounts.from_correctness(a, b))
    for field in ("estimate", "standard_error", "standard_error_unpaired", "correlation"):
        assert getattr(counts, field) == pytest.approx(getattr(items, field), rel=1e-12, abs=1e-15)
    assert counts.n == items.n


def test_standard_errors_when_a_model_is_always_right():
    a, b = np.ones(50, int), np.r_[np.ones(40, int), np.zeros(10, int)]
    items, counts = difference_se(a, b), difference_se_counts(PairedCounts.from_correctness(a, b))
    assert np.isnan(items.correlation) and np.isnan(counts.correlation)
    assert counts.standard_error == pytest.approx(items.standard_error, rel=1e-12)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_cluster_bootstrap_from_group_counts_is_the_grouped_bootstrap(method):
    gen = np.random.default_rng(5)
    sizes = gen.integers(1, 30, size=40)
    groups = np.repeat(np.arange(40), sizes)
    x = (gen.random(groups.size) < 0.7).astype(float)
    shuffle = gen.permutation(groups.size)  # the per-item call does not need the items in group order
    items = bootstrap_ci(x[shuffle], groups=groups[shuffle], n_resamples=1500, method=method, rng=9)
    correct = np.bincount(groups, weights=x).astype(int)
    counts = bootstrap_ci_counts(correct, sizes, n_resamples=1500, method=method, rng=9)
    np.testing.assert_array_equal(counts.bootstrap_distribution, items.bootstrap_distribution)
    assert counts.estimate == items.estimate
    assert tuple(counts.confidence_interval) == tuple(items.confidence_interval)


def test_cluster_bootstrap_of_perfect_groups_warns_and_stays_at_one():
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = bootstrap_ci_counts([5, 7], [5, 7], n_resamples=100, rng=0)
    assert res.estimate == 1.0 and tuple(res.confidence_interval) == (1.0, 1.0)
    assert any("same value" in str(w.message) for w in caught)


@pytest.mark.parametrize(
    "cells, error, match",
    [
        ((-1, 2, 3, 4), ValueError, "both_correct"),
        ((1, 2.5, 3, 4), ValueError, "only_a_correct"),
        ((1, 2, "3", 4), TypeError, "only_b_correct"),
        ((1, 2, 3, None), TypeError, "both_wrong"),
        ((1, 2, 3, [4, 5]), ValueError, "both_wrong"),
        ((1, 2, 3, 2**60), ValueError, r"2\*\*53"),
        ((0, 0, 0, 0), ValueError, "at least one item"),
        ((1, 2, 3, float("nan")), ValueError, "both_wrong"),
        ((True, 2, 3, 4), TypeError, "both_correct"),
    ],
)
def test_paired_counts_refuse_bad_cells(cells, error, match):
    with pytest.raises(error, match=match):
        PairedCounts(*cells)


@pytest.mark.parametrize("fn", [paired_bootstrap_ci_counts, paired_permutation_test_counts, difference_se_counts])
def test_functions_need_a_table(fn):
    with pytest.raises(TypeError, match="PairedCounts"):
        fn((801, 44, 28, 127))


def test_bootstrap_counts_options_are_checked():
    table = PairedCounts(801, 44, 28, 127)
    with pytest.raises(ValueError, match="n_resamples"):
        paired_bootstrap_ci_counts(table, n_resamples=1)
    with pytest.raises(ValueError, match="method"):
        paired_bootstrap_ci_counts(table, method="normal")
    with pytest.raises(ValueError, match="confidence_level"):
        paired_bootstrap_ci_counts(table, confidence_level=1.5)
    with pytest.raises(ValueError, match="alternative"):
        paired_permutation_test_counts(table, alternative="both")
    with pytest.raises(ValueError, match="at least 2 items"):
        difference_se_counts(PairedCounts(1, 0, 0, 0))


@pytest.mark.parametrize(
    "correct, total, error, match",
    [
        ([1, 2], [3], ValueError, "same length"),
        ([1], [3], ValueError, "at least 2 groups"),
        ([4, 2], [3, 3], ValueError, "group 0 has 4 of 3"),
        ([-1, 2], [3, 3], ValueError, r"`k` must lie in \[0, n\]"),
        ([1, 2], [0, 3], ValueError, "at least 1"),
        (["1", "2"], [3, 3], TypeError, "`k`"),
        ([1.5, 2], [3, 3], ValueError, "whole numbers"),
        ([[1, 2]], [[3, 3]], ValueError, "1-D"),
    ],
)
def test_group_counts_refused_clearly(correct, total, error, match):
    with pytest.raises(error, match=match):
        bootstrap_ci_counts(correct, total)


def test_defaults_are_those_of_the_per_item_calls():
    table = PairedCounts(801, 44, 28, 127)
    boot = paired_bootstrap_ci_counts(table, rng=0)
    assert (boot.n_resamples, boot.method, boot.confidence_level) == (10_000, "percentile", 0.95)
    grouped = bootstrap_ci_counts([9, 7, 10], [10, 10, 10], rng=0)
    assert (grouped.n_resamples, grouped.method, grouped.confidence_level) == (10_000, "percentile", 0.95)
    assert paired_permutation_test_counts(table).alternative == "two-sided"


def test_cells_become_python_ints_and_differences_skip_empty_values():
    table = PairedCounts(np.int64(0), np.uint8(5), 0, 5.0)
    assert all(type(getattr(table, f)) is int for f in ("both_correct", "only_a_correct", "only_b_correct", "both_wrong"))
    values, counts = table.differences()
    assert values.tolist() == [0.0, 1.0] and counts.tolist() == [5, 5]
    values, counts = PairedCounts(2, 0, 3, 0).differences()
    assert values.tolist() == [-1.0, 0.0] and counts.tolist() == [3, 2]


def test_groups_all_wrong_stay_at_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = bootstrap_ci_counts([0, 0, 0], [3, 4, 5], n_resamples=50, rng=0)
    assert res.estimate == 0.0 and tuple(res.confidence_interval) == (0.0, 0.0)


def test_mixed_groups_lie_between_their_accuracies():
    res = bootstrap_ci_counts([0, 5], [5, 5], n_resamples=2000, rng=1)
    assert res.estimate == 0.5
    assert 0.0 <= res.confidence_interval.low < 0.5 < res.confidence_interval.high <= 1.0


@pytest.mark.parametrize(
    "a, b, error, match",
    [
        ([1, 0, 1], [1, 0], ValueError, "same length"),
        ([1, 2, 0], [1, 0, 0], ValueError, "scores_a"),
        ([1, 0, 0], [1, 0.5, 0], ValueError, "scores_b"),
    ],
)
def test_table_from_bad_correctness(a, b, error, match):
    with pytest.raises(error, match=match):
        PairedCounts.from_correctness(a, b)


def test_permutation_statistic_and_every_alternative_from_counts():
    table = PairedCounts(10, 7, 2, 1)
    from scipy import stats

    greater = paired_permutation_test_counts(table, alternative="greater")
    less = paired_permutation_test_counts(table, alternative="less")
    both = paired_permutation_test_counts(table)
    assert greater.statistic == pytest.approx(5 / 20)
    assert greater.pvalue == pytest.approx(stats.binom.sf(6, 9, 0.5))
    assert less.pvalue == pytest.approx(stats.binom.cdf(7, 9, 0.5))
    assert both.pvalue == pytest.approx(min(1, 2 * greater.pvalue))


def test_no_disagreement_gives_p_one_for_every_alternative():
    for alternative in ("two-sided", "greater", "less"):
        res = paired_permutation_test_counts(PairedCounts(5, 0, 0, 5), alternative=alternative)
        assert (res.pvalue, res.statistic, res.alternative) == (1.0, 0.0, alternative)


def test_standard_errors_from_the_smallest_table():
    a, b = np.array([1, 1]), np.array([1, 0])
    items, counts = difference_se(a, b), difference_se_counts(PairedCounts.from_correctness(a, b))
    assert counts.n == 2 and counts.standard_error == pytest.approx(items.standard_error, rel=1e-12)
    assert counts.standard_error == pytest.approx(0.5)   # d = (0, 1): sd 1/sqrt(2), over sqrt(2)


def test_undefined_correlation_is_nan_without_a_runtime_warning():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        se = difference_se_counts(PairedCounts(40, 10, 0, 0))   # A is always right
    assert np.isnan(se.correlation) and se.standard_error > 0


def test_differences_keep_values_seen_once():
    values, counts = PairedCounts(0, 1, 1, 1).differences()
    assert values.tolist() == [-1.0, 0.0, 1.0] and counts.tolist() == [1, 1, 1]


def test_messages_name_the_argument_and_what_it_must_be():
    with pytest.raises(ValueError, match=r"^`both_correct`, `only_a_correct`, `only_b_correct` and `both_wrong` "
                                         r"are all 0: a table must count at least one item\.$"):
        PairedCounts(0, 0, 0, 0)
    with pytest.raises(TypeError, match=r"^`table` must be a PairedCounts\(both_correct, only_a_correct, "
                                        r"only_b_correct, both_wrong\); got tuple\.$"):
        paired_permutation_test_counts((801, 44, 28, 127))
    with pytest.raises(ValueError, match="`scores_a`"):
        PairedCounts.from_correctness([1, 2], [1, 0])
    with pytest.raises(ValueError, match="`scores_b`"):
        PairedCounts.from_correctness([1, 0], [1, 2])
    with pytest.raises(ValueError, match="`alternative`"):
        paired_permutation_test_counts(PairedCounts(1, 2, 3, 4), alternative="both")


@pytest.mark.parametrize(
    "correct, total, error, match",
    [
        (["1", "2"], [3, 3], TypeError, "`k`"),
        ([1, 2], ["3", "3"], TypeError, "`n`"),
        ([1, 2], [3], ValueError, r"^`k` and `n` must be 1-D, one count per group, of the same length"),
        ([0] * 5, [1, 0, -1, 0, -2], ValueError, r"`n` must be at least 1 in every group; got \[0, -1, 0\]\.$"),
        ([1, 4], [3, 3], ValueError, r"group 1 has 4 of 3\.$"),
    ],
)
def test_group_count_messages_name_the_argument_and_the_culprit(correct, total, error, match):
    with pytest.raises(error, match=match):
        bootstrap_ci_counts(correct, total)

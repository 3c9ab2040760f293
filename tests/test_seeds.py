"""sigeval.seeds: seed summaries, Welch's test and the variance split."""

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    seed_summary,
    variance_split,
    welch_test,
)


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


def test_seed_summary_of_equal_scores_reports_zero_sd():
    # numpy's sd of seven 0.1s is a rounding error of about 1.5e-17, not a spread.
    x = np.full(7, 0.1)
    assert x.std(ddof=1) > 0
    s = seed_summary(x)
    assert (s.mean, s.sd, s.standard_error) == (0.1, 0.0, 0.0)


def test_seed_summary_refuses_an_sd_beyond_float64():
    big = np.finfo(float).max
    with pytest.raises(ValueError, match=r"overflows float64 \(sd not finite\): the values of `scores` are too large"):
        seed_summary([-big, big])


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
    assert res.confidence_level == 0.99


@pytest.mark.parametrize("factor", [1e-300, 1e-100, 1e80, 1e150, 1e300])
def test_welch_is_unchanged_by_the_scale_of_the_scores(factor):
    # t, df and p do not depend on the unit of the scores; df holds fourth powers of
    # them, which overflow (or underflow) long before the scores themselves do.
    a, b = np.array([0.64, 0.65, 0.66, 0.65]), np.array([0.62, 0.64, 0.63, 0.61])
    ref, res = welch_test(a, b), welch_test(a * factor, b * factor)
    assert ref.df == pytest.approx(5.069, abs=1e-3)  # the docstring's example
    assert (res.statistic, res.df, res.pvalue) == pytest.approx((ref.statistic, ref.df, ref.pvalue), rel=1e-12)
    assert res.estimate == pytest.approx(ref.estimate * factor, rel=1e-12)
    ci, ref_ci = res.confidence_interval, ref.confidence_interval
    assert (ci.low, ci.high) == pytest.approx((ref_ci.low * factor, ref_ci.high * factor), rel=1e-12)


def test_welch_at_the_largest_floats():
    big = np.finfo(float).max
    a, b = big * np.array([1.0, 0.999, 0.998]), big * np.array([0.99, 0.991, 0.987])
    res, ref = welch_test(a, b), welch_test(a / big, b / big)
    assert (res.statistic, res.df, res.pvalue) == pytest.approx((ref.statistic, ref.df, ref.pvalue), rel=1e-12)
    assert res.estimate == pytest.approx(big * ref.estimate, rel=1e-12)


def test_welch_on_multiples_of_the_smallest_subnormal():
    # Scores of -1, 0 and 1 times 5e-324 are exact: t, df and p are those of -1, 0 and 1.
    a, b = np.array([1.0, -1.0, 1.0, 1.0]), np.array([-1.0, 1.0, -1.0, -1.0, 0.0])
    tiny = np.finfo(float).smallest_subnormal
    ref, res = welch_test(a, b), welch_test(a * tiny, b * tiny)
    assert (res.statistic, res.df, res.pvalue) == pytest.approx((ref.statistic, ref.df, ref.pvalue), rel=1e-12)


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
@pytest.mark.parametrize("small_first", [True, False])
def test_welch_judges_spread_against_the_scale_of_both_sets(small_first):
    # A spread of 1e-9 around 1 is real on its own scale but is rounding error next to
    # scores of 1e6, the scale at which the difference of the means is computed.
    small, large = [1.0, 1.0 + 1e-9], [1e6, 1e6]
    args = (small, large) if small_first else (large, small)
    with pytest.raises(ValueError, match="both have zero spread"):
        welch_test(*args)
    res = welch_test(*(([1.0, 1.0 + 1e-3], large) if small_first else (large, [1.0, 1.0 + 1e-3])))
    assert np.isfinite(res.pvalue)


def test_welch_refuses_an_estimate_beyond_float64():
    big = np.finfo(float).max
    with pytest.raises(
        ValueError,
        match=r"overflows float64 \(estimate, confidence_interval not finite\): the values of "
        r"`scores_a` and `scores_b` are too large",
    ):
        welch_test([big, big / 2], [-big, -big / 2])


@pytest.mark.filterwarnings("ignore:Precision loss occurred:RuntimeWarning")
def test_welch_allows_one_constant_set():
    res = welch_test([0.5, 0.5, 0.5], [0.4, 0.45, 0.42])
    assert np.isfinite(res.pvalue)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (
            dict(scores_a=[0.5, 0.5], scores_b=[0.4, 0.4]),
            r"^`scores_a` and `scores_b` both have zero spread \(up to rounding error\): Welch's test "
            r"needs run-to-run variation in at least one of them\.$",
        ),
        (dict(scores_a=[0.5], scores_b=[0.4, 0.41]), r"`scores_a` must hold at least 2"),
        (dict(scores_a=[0.5, 0.6], scores_b=[0.4]), r"`scores_b` must hold at least 2"),
        (dict(scores_a=[0.5, 0.6], scores_b=[0.4, np.nan]), r"`scores_b` holds 1 NaN"),
        (dict(scores_a=[0.5, 0.6], scores_b=[0.4, 0.5], confidence_level=95), r"`confidence_level` must be strictly between 0 and 1; got 95.0"),
    ],
)
def test_welch_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        welch_test(**kwargs)


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
        (([0.8, 0.82], 100), dict(n_true=1000), ValueError, r"^`n_true` was given without `true_scores`; give both or neither\.$"),
        (([0.8, 0.82], 100), dict(true_scores=[0.8, 0.81, 0.82]), ValueError, r"^`true_scores` must be paired with `test_scores`, with the same length; got 3 and 2\.$"),
        (([0.8, 0.82], 100), dict(true_scores=[0.8, -0.1]), ValueError, r"`true_scores` must hold accuracies"),
        (([0.8, 0.82], 100), dict(true_scores=[0.8, 0.81], n_true=0), ValueError, r"`n_true` must be an integer >= 2"),
    ],
)
def test_variance_split_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        variance_split(*args, **kwargs)

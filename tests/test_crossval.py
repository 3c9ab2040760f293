"""sigeval.crossval: Dietterich's tests, 5x2cv t and F, the corrected resampled t."""

import warnings
from fractions import Fraction

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    corrected_resampled_t,
    difference_of_proportions_test,
    five_by_two_cv_f,
    five_by_two_cv_t,
    kfold_cv_paired_t,
    resampled_paired_t,
)
from sigeval._ttest import (
    corrected_t_core,
    five_by_two_f_core,
    five_by_two_t_core,
    paired_t_core,
)


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
        (np.zeros((5, 3)), ValueError,
         r"`differences` must have shape \(5, 2\): 5 replications of 2-fold cross-validation, "
         r"one score difference per fold; got shape \(5, 3\)"),
        (np.zeros(10), ValueError, r"`differences` must have shape \(5, 2\)"),
        (np.full((5, 2), 0.01), ValueError,
         r"`differences` has equal differences in both folds of every replication: "
         r"the 5x2cv variance estimate is zero"),
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


def test_corrected_resampled_t_on_repeated_kfold_is_bouckaert_and_franks_test():
    """Bouckaert & Frank (2004): r x k folds, t = mean / sqrt((1/(kr) + 1/(k-1)) s^2) on kr - 1 df."""
    rng = np.random.default_rng(3)
    r, k, n = 10, 10, 1000
    x = rng.normal(0.005, 0.03, (r, k))
    res = corrected_resampled_t(x.ravel(), n_train=n - n // k, n_test=n // k)
    t = x.mean() / np.sqrt((1 / (k * r) + 1 / (k - 1)) * x.var(ddof=1))
    assert res.statistic == pytest.approx(t, rel=1e-12) and res.df == k * r - 1
    assert res.pvalue == pytest.approx(2 * stats.t.sf(abs(t), k * r - 1), rel=1e-12)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        (([0.01],), dict(n_train=90, n_test=10), ValueError, r"`differences` must hold at least 2 value"),
        (([0.01, 0.01],), dict(n_train=90, n_test=10), ValueError, r"The differences `differences` have zero spread"),
        (([0.01, np.nan],), dict(n_train=90, n_test=10), ValueError, r"`differences` holds 1 NaN"),
        (([0.01, 0.02],), dict(n_train=0, n_test=10), ValueError, r"`n_train` must be an integer >= 1; got 0"),
        (([0.01, 0.02],), dict(n_train=90, n_test=2.5), TypeError, r"`n_test` must be an integer"),
        (([[0.01, 0.02]],), dict(n_train=90, n_test=10), ValueError, r"`differences` must be one-dimensional"),
    ],
)
def test_corrected_resampled_t_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        corrected_resampled_t(*args, **kwargs)


# --------------------------------------------------------------------------- Dietterich's tests 1, 3 and 4


def test_difference_of_proportions_by_hand():
    # Dietterich's formula with error rates p_A, p_B; z with accuracies is -z with errors.
    for k_a, k_b, n in [(845, 829, 1000), (70, 81, 100), (3, 1, 10), (500, 500, 1000)]:
        err_a, err_b = 1 - k_a / n, 1 - k_b / n
        p = (err_a + err_b) / 2
        z_errors = (err_a - err_b) / np.sqrt(2 * p * (1 - p) / n)
        res = difference_of_proportions_test(k_a, k_b, n)
        assert res.statistic == pytest.approx(-z_errors, rel=1e-12, abs=1e-15)
        assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z_errors)), rel=1e-12)
        assert res.estimate == pytest.approx((k_a - k_b) / n, abs=1e-15)
        assert isinstance(res.pvalue, float)


def test_difference_of_proportions_exact_at_the_largest_counts():
    # Near n = 2**53 the accuracies are within 1e-16 of 1: 1 - (p_a + p_b) / 2 computed in
    # floating point cancels to 0 (z = 0, p = 1), where z is about 1. Exact by fractions.
    for k_a, k_b, n in [(2**53 - 1, 2**53 - 2, 2**53 - 1), (10**12, 10**12 - 3, 10**12), (5, 2**52, 2**53)]:
        pooled = Fraction(k_a + k_b, 2 * n)
        z2 = Fraction(k_a - k_b, n) ** 2 / (2 * pooled * (1 - pooled) / n)
        res = difference_of_proportions_test(k_a, k_b, n)
        assert res.statistic == pytest.approx(np.sign(k_a - k_b) * float(z2) ** 0.5, rel=1e-12)
        assert res.estimate == pytest.approx(float(Fraction(k_a - k_b, n)), rel=1e-12)


def test_difference_of_proportions_is_the_pooled_two_sample_z_test():
    # With equal n, 2 p(1-p)/n is the pooled variance of the classical two-proportion z-test;
    # its square is the chi-square statistic of the 2x2 table (A/B x right/wrong) without correction.
    k_a, k_b, n = 845, 829, 1000
    table = np.array([[k_a, n - k_a], [k_b, n - k_b]])
    chi2 = stats.chi2_contingency(table, correction=False).statistic
    assert difference_of_proportions_test(k_a, k_b, n).statistic ** 2 == pytest.approx(chi2, rel=1e-12)


def test_difference_of_proportions_vectorized_and_degenerate():
    res = difference_of_proportions_test([845, 10, 7], [829, 10, 3], [1000, 10, 10])
    assert res.pvalue.shape == (3,)
    assert res.pvalue[0] == difference_of_proportions_test(845, 829, 1000).pvalue
    # Both perfect: standard error 0, statistic 0, p = 1.
    assert (res.statistic[1], res.pvalue[1], res.standard_error[1]) == (0.0, 1.0, 0.0)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        ((11, 3, 10), ValueError, r"`k_a` must not exceed `n`"),
        ((3, 11, 10), ValueError, r"`k_b` must not exceed `n`; got k_b=11 with n=10"),
        ((-1, 3, 10), ValueError, r"`k_a` must be non-negative"),
        ((3, -1, 10), ValueError, r"`k_b` must be non-negative"),
        ((1.5, 3, 10), ValueError, r"whole numbers"),
        ((1, 3, 0), ValueError, r"`n` must be at least 1"),
        (("a", 3, 10), TypeError, r"integer counts"),
        (([1, 2], [1, 2, 3], 10), ValueError, r"`k_a`, `k_b` and `n` must broadcast to a common shape"),
    ],
)
def test_difference_of_proportions_rejects_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        difference_of_proportions_test(*args)


@pytest.mark.parametrize("func", [resampled_paired_t, kfold_cv_paired_t])
def test_paired_t_over_splits_is_the_one_sample_t_test(func):
    rng = np.random.default_rng(18)
    for size in (2, 5, 10, 30):
        d = rng.normal(0.01, 0.02, size)
        res = func(d)
        ref = stats.ttest_1samp(d, 0.0)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        assert res.df == size - 1
        # Dietterich's form: t = mean * sqrt(n) / s.
        assert res.statistic == pytest.approx(d.mean() * np.sqrt(size) / d.std(ddof=1), rel=1e-12)
        assert res.estimate == pytest.approx(d.mean(), rel=1e-12)


def test_corrected_resampled_t_shrinks_the_naive_t():
    d = np.random.default_rng(19).normal(0.01, 0.02, 30)
    naive = resampled_paired_t(d)
    corrected = corrected_resampled_t(d, n_train=200, n_test=100)
    factor = np.sqrt((1 / 30) / (1 / 30 + 100 / 200))
    assert corrected.statistic == pytest.approx(naive.statistic * factor, rel=1e-12)


@pytest.mark.parametrize("func", [resampled_paired_t, kfold_cv_paired_t])
@pytest.mark.parametrize(
    ("differences", "error", "match"),
    [
        ([0.1], ValueError, r"`differences` must hold at least 2"),
        ([0.1, np.nan], ValueError, r"`differences` holds 1 NaN"),
        ([[0.1, 0.2]], ValueError, r"one-dimensional"),
        (["a", "b"], TypeError, r"numbers"),
    ],
)
def test_paired_t_over_splits_rejects_bad_input(func, differences, error, match):
    with pytest.raises(error, match=match):
        func(differences)


@pytest.mark.parametrize(
    ("func", "what"),
    [(resampled_paired_t, "split differences"), (kfold_cv_paired_t, "fold differences")],
)
def test_paired_t_over_splits_zero_spread_error_says_which_differences(func, what):
    with pytest.raises(ValueError, match=f"The {what} `differences` have zero spread"):
        func([0.1, 0.1, 0.1])


# --------------------------------------------------------------------------- extreme magnitudes


@pytest.mark.parametrize("factor", [2.0**600, 2.0**-600])
def test_statistics_unchanged_by_extreme_scale(factor):
    # Squares of 1e180 overflow and squares of 1e-180 underflow; every statistic is a ratio
    # of squares, so scaling the differences by a power of two must leave it unchanged.
    rng = np.random.default_rng(20)
    p = rng.normal(0.01, 0.02, (5, 2))
    d = rng.normal(0.01, 0.02, 12)
    for func in (five_by_two_cv_t, five_by_two_cv_f):
        res, scaled = func(p), func(p * factor)
        assert scaled.statistic == pytest.approx(res.statistic, rel=1e-12)
        assert scaled.pvalue == pytest.approx(res.pvalue, rel=1e-12)
    assert five_by_two_cv_t(p * factor).estimate == pytest.approx(p.mean() * factor, rel=1e-12)
    for func in (resampled_paired_t, kfold_cv_paired_t,
                 lambda x: corrected_resampled_t(x, n_train=90, n_test=10)):
        res, scaled = func(d), func(d * factor)
        assert scaled.statistic == pytest.approx(res.statistic, rel=1e-12)
        assert scaled.pvalue == pytest.approx(res.pvalue, rel=1e-12)
        assert scaled.estimate == pytest.approx(res.estimate * factor, rel=1e-12)


# --------------------------------------------------------------------------- vectorised cores


def test_cores_over_a_batch_match_the_public_functions_row_by_row():
    # The course's simulation (sigeval.course.dietterich) calls the cores on (replications, ...) arrays.
    rng = np.random.default_rng(21)
    d = rng.normal(0.01, 0.02, (4, 7)) * [[1.0], [3.0], [0.5], [2.0]]
    p = rng.normal(0.01, 0.02, (4, 5, 2)) * np.array([1.0, 3.0, 0.5, 2.0])[:, None, None]
    t, p_t = paired_t_core(d)
    c, p_c = corrected_t_core(d, 80, 20)
    t52, p_t52 = five_by_two_t_core(p)
    f52, p_f52 = five_by_two_f_core(p)
    for i in range(4):
        res = resampled_paired_t(d[i])
        assert (t[i], p_t[i]) == pytest.approx((res.statistic, res.pvalue), rel=1e-12)
        res = corrected_resampled_t(d[i], n_train=80, n_test=20)
        assert (c[i], p_c[i]) == pytest.approx((res.statistic, res.pvalue), rel=1e-12)
        res = five_by_two_cv_t(p[i])
        assert (t52[i], p_t52[i]) == pytest.approx((res.statistic, res.pvalue), rel=1e-12)
        res = five_by_two_cv_f(p[i])
        assert (f52[i], p_f52[i]) == pytest.approx((res.statistic, res.pvalue), rel=1e-12)


def test_cores_on_zero_spread_rows_give_nan_or_infinity_without_warnings():
    # A simulated replication can have no spread; numpy's warnings must not reach the course.
    d = np.array([[0.0, 0.0, 0.0], [0.25, 0.25, 0.25]])
    p = np.array([np.zeros((5, 2)), np.full((5, 2), 0.25)])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for statistic, pvalue in (paired_t_core(d), corrected_t_core(d, 80, 20),
                                  five_by_two_t_core(p), five_by_two_f_core(p)):
            assert np.isnan(statistic[0]) and np.isnan(pvalue[0])  # 0 / 0
            assert statistic[1] == np.inf and pvalue[1] == 0.0  # positive / 0
        res = difference_of_proportions_test([10, 0], [10, 0], 10)  # SE = 0
    np.testing.assert_array_equal(res.statistic, [0.0, 0.0])
    np.testing.assert_array_equal(res.pvalue, [1.0, 1.0])

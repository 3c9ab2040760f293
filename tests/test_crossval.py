"""sigeval.crossval: Dietterich's tests, 5x2cv t and F, the corrected resampled t."""

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
        ((-1, 3, 10), ValueError, r"`k_a` must be non-negative"),
        ((1.5, 3, 10), ValueError, r"whole numbers"),
        ((1, 3, 0), ValueError, r"`n` must be at least 1"),
        (("a", 3, 10), TypeError, r"integer counts"),
        (([1, 2], [1, 2, 3], 10), ValueError, r"broadcast"),
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
        ([0.1], ValueError, r"at least 2"),
        ([0.1, 0.1, 0.1], ValueError, r"zero spread"),
        ([0.1, np.nan], ValueError, r"NaN"),
        ([[0.1, 0.2]], ValueError, r"one-dimensional"),
        (["a", "b"], TypeError, r"numbers"),
    ],
)
def test_paired_t_over_splits_rejects_bad_input(func, differences, error, match):
    with pytest.raises(error, match=match):
        func(differences)

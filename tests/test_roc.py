"""sigeval.roc (DeLong's test) and sigeval.metrics.roc_auc against independent computations."""

import math
import warnings
from pathlib import Path

import numpy as np
import pytest
from scipy import stats

from sigeval import ConfidenceInterval, delong_ci, delong_test, paired_bootstrap_ci, roc_auc
from sigeval.roc import _placements

DATA = Path(__file__).parent / "data"


def _brute_force_delong(y, a, b):
    """DeLong, DeLong & Clarke-Pearson (1988) from the m x n kernel, no ranks.

    Structural components V10 (one per positive) and V01 (one per negative)
    for each model, their covariance matrices S10 and S01, and the variance of
    the difference L theta with L = (1, -1).
    """
    y = np.asarray(y, dtype=bool)
    comps10, comps01, aucs = [], [], []
    for s in (np.asarray(a, float), np.asarray(b, float)):
        x, z = s[y], s[~y]
        psi = (x[:, None] > z[None, :]) + 0.5 * (x[:, None] == z[None, :])
        comps10.append(psi.mean(axis=1))
        comps01.append(psi.mean(axis=0))
        aucs.append(psi.mean())
    m, n = y.sum(), (~y).sum()
    s10 = np.cov(np.vstack(comps10))  # ddof = 1
    s01 = np.cov(np.vstack(comps01))
    cov = s10 / m + s01 / n
    contrast = np.array([1.0, -1.0])
    return aucs[0], aucs[1], float(contrast @ cov @ contrast)


def _mann_whitney_auc(y, s):
    y = np.asarray(y, dtype=bool)
    u = stats.mannwhitneyu(s[y], s[~y]).statistic
    return u / (y.sum() * (~y).sum())


def _tied_data(seed, n=157):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    # Rounding forces ties within and across the classes.
    a = np.round(0.6 * y + rng.normal(0, 1, n), 1)
    b = np.round(0.7 * a + rng.normal(0, 0.8, n), 1)
    return y, a, b


# --------------------------------------------------------------------------- DeLong


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_delong_matches_brute_force_structural_components(seed):
    y, a, b = _tied_data(seed)
    res = delong_test(y, a, b)
    auc_a, auc_b, var = _brute_force_delong(y, a, b)
    assert res.auc_a == pytest.approx(auc_a, abs=1e-13)
    assert res.auc_b == pytest.approx(auc_b, abs=1e-13)
    assert res.estimate == pytest.approx(auc_a - auc_b, abs=1e-13)
    assert res.standard_error == pytest.approx(math.sqrt(var), rel=1e-10)
    z = (auc_a - auc_b) / math.sqrt(var)
    assert res.statistic == pytest.approx(z, rel=1e-10)
    assert res.pvalue == pytest.approx(2 * stats.norm.sf(abs(z)), rel=1e-9)
    half = stats.norm.isf(0.025) * math.sqrt(var)
    assert res.confidence_interval.low == pytest.approx(z * math.sqrt(var) - half, abs=1e-12)
    assert res.confidence_interval.high == pytest.approx(z * math.sqrt(var) + half, abs=1e-12)
    assert (res.n_positive, res.n_negative) == (int(y.sum()), int((1 - y).sum()))


@pytest.mark.parametrize("seed", [0, 5])
def test_aucs_equal_mann_whitney_u(seed):
    y, a, b = _tied_data(seed, n=301)
    res = delong_test(y, a, b)
    assert res.auc_a == pytest.approx(_mann_whitney_auc(y, a), abs=1e-13)
    assert res.auc_b == pytest.approx(_mann_whitney_auc(y, b), abs=1e-13)


def _asah():
    data = np.loadtxt(DATA / "asah.csv", delimiter=",", comments="#", skiprows=6)
    poor, wfns, s100b, ndka = data.T
    assert (poor.size, int(poor.sum())) == (113, 41)
    return poor, wfns, s100b, ndka


# pROC's own tests (tests/testthat/test-roc.test.R): roc.test(r.wfns, r.s100b),
# roc.test(r.wfns, r.ndka), roc.test(r.ndka, r.s100b) on data(aSAH), method "delong",
# paired, two-sided: Z, p-value and the 95% interval of AUC1 - AUC2.
PROC_ROC_TEST = [
    ("wfns", "s100b", 2.20898359144091, 0.0271757822291882, 0.0104061769564846, 0.174214419249478),
    ("wfns", "ndka", 2.79777591868904, 0.00514557970691098, 0.0634011709339876, 0.3600405634833566),
    ("ndka", "s100b", -1.39077002573558, 0.164295175223054, -0.2876917446341914, 0.0488706064228094),
]


@pytest.mark.parametrize(("first", "second", "z", "p", "low", "high"), PROC_ROC_TEST)
def test_delong_reproduces_proc_roc_test_on_asah(first, second, z, p, low, high):
    poor, wfns, s100b, ndka = _asah()
    scores = {"wfns": wfns, "s100b": s100b, "ndka": ndka}
    res = delong_test(poor, scores[first], scores[second])
    assert res.statistic == pytest.approx(z, rel=1e-12)
    assert res.pvalue == pytest.approx(p, rel=1e-11)
    assert res.confidence_interval.low == pytest.approx(low, rel=1e-11)
    assert res.confidence_interval.high == pytest.approx(high, rel=1e-11)
    swapped = delong_test(poor, scores[second], scores[first])
    assert swapped.statistic == pytest.approx(-z, rel=1e-12)
    assert swapped.pvalue == pytest.approx(p, rel=1e-11)


def test_asah_aucs_match_proc():
    # pROC: auc(r.s100b) = 0.7314, auc(r.wfns) = 0.8237, auc(r.ndka) = 0.6120 (its print).
    poor, wfns, s100b, ndka = _asah()
    assert round(delong_test(poor, s100b, wfns).auc_a, 4) == 0.7314
    assert round(delong_test(poor, s100b, wfns).auc_b, 4) == 0.8237
    assert round(delong_test(poor, ndka, wfns).auc_a, 4) == 0.6120


def test_delong_confidence_level_and_labels_as_bool():
    y, a, b = _tied_data(7)
    r95 = delong_test(y, a, b)
    r90 = delong_test(y.astype(bool), a, b, confidence_level=0.90)
    assert r90.statistic == r95.statistic
    assert (r90.confidence_level, r95.confidence_level) == (0.90, 0.95)
    assert r90.confidence_interval.high - r90.confidence_interval.low == pytest.approx(
        2 * stats.norm.isf(0.05) * r95.standard_error, rel=1e-12
    )
    assert isinstance(r95.confidence_interval, ConfidenceInterval)
    assert all(isinstance(v, float) for v in (r95.auc_a, r95.statistic, r95.pvalue))


def test_delong_invariant_to_monotone_transform_and_item_order():
    y, a, b = _tied_data(11)
    res = delong_test(y, a, b)
    perm = np.random.default_rng(0).permutation(y.size)
    again = delong_test(y[perm], np.exp(a[perm]), 3 * b[perm] - 1)
    assert again.statistic == pytest.approx(res.statistic, rel=1e-12)
    assert again.auc_a == pytest.approx(res.auc_a, abs=1e-15)


def test_delong_identical_scores_warn_and_give_p_one():
    y, a, _ = _tied_data(1)
    with pytest.warns(UserWarning, match="standard error is zero"):
        res = delong_test(y, a, a)
    assert (res.estimate, res.statistic, res.pvalue, res.standard_error) == (0.0, 0.0, 1.0, 0.0)


def test_delong_se_agrees_with_paired_bootstrap():
    # Two correlated scorers of 3,000 items: DeLong's SE against the SD of 2,000
    # paired bootstrap replicates. The bootstrap SD has Monte Carlo relative error
    # about 1/sqrt(2 * 2000) = 1.6%, and the bootstrap and DeLong's variance differ
    # by O(1/n); allow 6%.
    rng = np.random.default_rng(2024)
    n = 3000
    y = rng.integers(0, 2, n)
    shared = rng.normal(0, 1, n)
    a = 0.9 * y + shared + rng.normal(0, 0.6, n)
    b = 0.7 * y + shared + rng.normal(0, 0.6, n)
    delong = delong_test(y, a, b)
    boot = paired_bootstrap_ci((y, a), (y, b), statistic=roc_auc, n_resamples=2000, rng=3)
    assert boot.estimate == pytest.approx(delong.estimate, abs=1e-13)
    assert boot.standard_error == pytest.approx(delong.standard_error, rel=0.06)
    low, high = boot.confidence_interval
    assert low == pytest.approx(delong.confidence_interval.low, abs=0.25 * delong.standard_error)
    assert high == pytest.approx(delong.confidence_interval.high, abs=0.25 * delong.standard_error)


def test_delong_level_under_the_null():
    # Exchangeable scorers (equal AUC): the test rejects about 5% of the time.
    rng = np.random.default_rng(9)
    reps, n = 1000, 200
    rejections = 0
    for _ in range(reps):
        y = rng.integers(0, 2, n)
        shared = rng.normal(0, 1, n)
        a = y + shared + rng.normal(0, 1, n)
        b = y + shared + rng.normal(0, 1, n)
        rejections += delong_test(y, a, b).pvalue <= 0.05
    rate = rejections / reps
    assert abs(rate - 0.05) <= 3 * math.sqrt(0.05 * 0.95 / reps)


@pytest.mark.parametrize(
    ("labels", "a", "b", "error", "match"),
    [
        ([1, 1, 1, 1], [1, 2, 3, 4], [1, 2, 3, 4], ValueError, "both classes"),
        ([0, 0, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4], ValueError, "both classes"),
        ([1, 0, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4], ValueError, "at least 2 positive"),
        ([1, 2, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4], ValueError, "binary"),
        ([1, 1, 0, 0], [1, 2, 3], [1, 2, 3, 4], ValueError, "same length"),
        ([1, 1, 0, 0], [1, 2, 3, 4], [1, 2, 3], ValueError, "scores_b"),
        ([1, 1, 0, 0], [1, np.nan, 3, 4], [1, 2, 3, 4], ValueError, "NaN"),
        ([1, np.nan, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4], ValueError, "labels"),
        ([1, 1, 0, 0], [1, 2, np.inf, 4], [1, 2, 3, 4], ValueError, "scores_a"),
        ([1, 1, 0, 0], ["a", "b", "c", "d"], [1, 2, 3, 4], TypeError, "scores_a"),
        (["x", "y", "x", "y"], [1, 2, 3, 4], [1, 2, 3, 4], TypeError, "labels"),
        ([], [], [], ValueError, "labels"),
    ],
)
def test_delong_refuses_bad_input(labels, a, b, error, match):
    with pytest.raises(error, match=match):
        delong_test(labels, a, b)


def test_delong_refuses_bad_level():
    with pytest.raises(ValueError, match="confidence_level"):
        delong_test([1, 1, 0, 0], [1, 2, 3, 4], [4, 3, 2, 1], confidence_level=95)


@pytest.mark.parametrize("seed", [0, 6])
def test_placements_are_delongs_structural_components(seed):
    """V10: share of negatives each positive outscores; V01: share of positives outscoring each negative."""
    y, a, b = _tied_data(seed, n=60)
    y = y.astype(bool)
    v10, v01 = _placements(y, np.stack([a, b]))
    for row, s in enumerate((a, b)):
        psi = (s[y][:, None] > s[~y][None, :]) + 0.5 * (s[y][:, None] == s[~y][None, :])
        np.testing.assert_allclose(v10[row], psi.mean(axis=1), rtol=0, atol=1e-14)
        np.testing.assert_allclose(v01[row], psi.mean(axis=0), rtol=0, atol=1e-14)
        assert v01[row].mean() == pytest.approx(v10[row].mean(), abs=1e-14)   # both are the AUC


def test_delong_with_two_items_of_each_class():
    y, a, b = [1, 1, 0, 0], [0.9, 0.2, 0.4, 0.1], [0.3, 0.6, 0.7, 0.1]
    res = delong_test(y, a, b)
    auc_a, auc_b, var = _brute_force_delong(y, np.array(a), np.array(b))
    assert (res.auc_a, res.auc_b) == (auc_a, auc_b) == (0.75, 0.5)
    assert res.standard_error == pytest.approx(math.sqrt(var), rel=1e-12)
    assert (res.n_positive, res.n_negative) == (2, 2)


@pytest.mark.parametrize("mirror", [lambda s: -s, lambda s: 1 - s, lambda s: np.zeros_like(s)])
def test_delong_refuses_a_zero_standard_error_between_different_aucs(mirror):
    """A singular covariance with different AUCs used to give z = inf, p = 0 and a zero-width interval."""
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    perfect = np.array([0.9, 0.8, 0.7, 0.65, 0.6, 0.2, 0.1, 0.4])
    with pytest.raises(ValueError, match=r"cannot judge this difference.*singular.*standard error of exactly 0"):
        delong_test(y, perfect, mirror(perfect))
    with pytest.raises(ValueError, match=r"4 positives, 4 negatives"):
        delong_test(y, mirror(perfect), perfect)


def test_delong_zero_se_warning_names_the_caller_and_says_why():
    y, a, _ = _tied_data(1)
    with pytest.warns(UserWarning) as record:
        delong_test(y, a, a)
    # It points at the caller, this file (under mutation testing, at mutmut's trampoline in between).
    assert len(record) == 1
    assert record[0].filename == __file__ or "mutmut" in Path(record[0].filename).parts
    assert str(record[0].message) == (
        "DeLong's standard error is zero: the two models order every positive-negative "
        "pair alike (identical rankings?), so the data show no variation in their "
        "difference. The statistic is 0 and the p-value 1 when the AUCs are equal."
    )


def test_delong_no_warning_for_ordinary_data():
    y, a, b = _tied_data(3)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        delong_test(y, a, b)


@pytest.mark.parametrize(
    ("labels", "a", "b", "match"),
    [
        ([1, 1, 1, 1], [1, 2, 3, 4], [1, 2, 3, 4],
         r"^`labels` must hold both classes \(1 = positive, 0 = negative\); got only positive \(1\) labels "
         r"in 4 items\. The AUC compares positives with negatives\.$"),
        ([0, 0, 0], [1, 2, 3], [1, 2, 3], r"got only negative \(0\) labels in 3 items"),
        ([1, 0, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4],
         r"^`labels` must hold at least 2 positive and 2 negative items \(DeLong's variance is a sample "
         r"variance over each class\); got 1 positive and 3 negative\.$"),
        ([1, 1, 1, 0], [1, 2, 3, 4], [1, 2, 3, 4], r"got 3 positive and 1 negative\.$"),
        ([1, 2, 0, 0], [1, 2, 3, 4], [1, 2, 3, 4], r"^`labels` must be binary"),
        ([1, 1, 0, 0], [1, np.nan, 3, 4], [1, 2, 3, 4], r"^`scores_a` holds 1 NaN"),
        ([1, 1, 0, 0], [1, 2, 3, 4], [1, 2, np.nan, 4], r"^`scores_b` holds 1 NaN"),
        ([1, 1, 0, 0], [1, 2, 3], [1, 2, 3, 4], r"^`labels` and `scores_a` must describe the same items"),
        ([1, 1, 0, 0], [1, 2, 3, 4], [1, 2, 3], r"^`labels` and `scores_b` must describe the same items"),
    ],
)
def test_delong_messages_name_the_argument(labels, a, b, match):
    with pytest.raises(ValueError, match=match):
        delong_test(labels, a, b)
    with pytest.raises(ValueError, match="`confidence_level`"):
        delong_test([1, 1, 0, 0], [1, 2, 3, 4], [4, 3, 2, 1], confidence_level=0)


# --------------------------------------------------------------------------- roc_auc


def test_roc_auc_batched_matches_mann_whitney_per_row():
    y, a, _ = _tied_data(4, n=120)
    rng = np.random.default_rng(0)
    idx = rng.integers(0, y.size, size=(6, y.size))
    got = roc_auc(y[idx], a[idx], axis=1)
    want = [_mann_whitney_auc(y[row], a[row]) for row in idx]
    np.testing.assert_allclose(got, want, rtol=0, atol=1e-13)
    assert got.shape == (6,)


def test_roc_auc_ignores_group_padding():
    y, a, _ = _tied_data(2, n=40)
    padded_y = np.r_[y, np.nan, np.nan][None]
    padded_a = np.r_[a, np.nan, np.nan][None]
    assert roc_auc(padded_y, padded_a, axis=1)[0] == pytest.approx(_mann_whitney_auc(y, a), abs=1e-14)


def test_roc_auc_with_grouped_bootstrap():
    y, a, b = _tied_data(3, n=90)
    groups = np.repeat(np.arange(30), 3)
    res = paired_bootstrap_ci(
        (y, a), (y, b), statistic=roc_auc, groups=groups, n_resamples=200, rng=0
    )
    assert res.estimate == pytest.approx(delong_test(y, a, b).estimate, abs=1e-13)


def test_roc_auc_one_class_resample_is_nan():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = roc_auc(np.array([[1, 1, 1]]), np.array([[0.1, 0.2, 0.3]]), axis=1)
    assert np.isnan(out[0])


@pytest.mark.parametrize(
    ("labels", "scores", "match"),
    [
        ([1, 0, 1], [0.1, 0.2, 0.3], "resample axis"),
        ([[1, 0, 2]], [[0.1, 0.2, 0.3]], "0 or 1"),
        ([[1, 0, 1]], [[0.1, 0.2]], "shape"),
        ([[1, 0, 1]], [[0.1, np.nan, 0.3]], "same positions"),
        ([[1, 0, 1]], [[0.1, np.inf, 0.3]], "finite"),
    ],
)
def test_roc_auc_refuses_bad_input(labels, scores, match):
    with pytest.raises(ValueError, match=match):
        roc_auc(np.asarray(labels, float), np.asarray(scores, float), axis=1)


def test_roc_auc_refuses_other_axis():
    with pytest.raises(ValueError, match="axis"):
        roc_auc(np.array([[1, 0]]), np.array([[0.2, 0.1]]), axis=2)
    with pytest.raises(ValueError, match=r"shape \(n_items,\) with axis=0"):
        roc_auc(np.array([[1, 0]]), np.array([[0.2, 0.1]]), axis=0)


# --------------------------------------------------------------------------- one AUC: delong_ci


def _brute_force_delong_ci(labels, scores, level):
    """DeLong's variance of one AUC from the m x n comparisons themselves."""
    labels, scores = np.asarray(labels, bool), np.asarray(scores, float)
    pos, neg = scores[labels], scores[~labels]
    psi = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    v10, v01 = psi.mean(axis=1), psi.mean(axis=0)
    auc = psi.mean()
    se = np.sqrt(v10.var(ddof=1) / pos.size + v01.var(ddof=1) / neg.size)
    z = stats.norm.isf((1 - level) / 2)
    return auc, se, max(auc - z * se, 0.0), min(auc + z * se, 1.0)


@pytest.mark.parametrize("seed, ties", [(0, False), (1, True), (2, True)])
def test_delong_ci_against_the_pairwise_comparisons(seed, ties):
    gen = np.random.default_rng(seed)
    labels = gen.integers(0, 2, 120)
    scores = labels + gen.normal(0, 1.2, 120)
    if ties:
        scores = np.round(scores, 0)
    res = delong_ci(labels, scores, confidence_level=0.9)
    auc, se, low, high = _brute_force_delong_ci(labels, scores, 0.9)
    assert res.estimate == pytest.approx(auc, rel=1e-14)
    assert res.standard_error == pytest.approx(se, rel=1e-12)
    assert tuple(res.confidence_interval) == pytest.approx((low, high), rel=1e-12)
    assert (res.n_positive, res.n_negative) == (labels.sum(), 120 - labels.sum())
    assert res.estimate == roc_auc(labels, scores)


def test_delong_ci_is_delong_tests_variance_against_a_constant_scorer():
    """Against a model that ties every item (AUC 1/2, no variance), DeLong's test has the same SE."""
    gen = np.random.default_rng(4)
    labels = gen.integers(0, 2, 60)
    scores = labels + gen.normal(0, 1, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        test = delong_test(labels, scores, np.zeros(60))
    assert delong_ci(labels, scores).standard_error == pytest.approx(test.standard_error, rel=1e-13)


def test_delong_ci_is_clipped_to_probabilities_and_refuses_bad_input():
    with pytest.warns(UserWarning, match="standard error is zero"):
        res = delong_ci([1, 1, 0, 0], [0.9, 0.8, 0.1, 0.2])
    assert res.estimate == 1.0 and res.standard_error == 0.0 and tuple(res.confidence_interval) == (1.0, 1.0)
    with pytest.raises(ValueError, match="same length"):
        delong_ci([1, 1, 0, 0], [0.9, 0.8, 0.1])
    with pytest.raises(ValueError, match="at least 2 positive"):
        delong_ci([1, 0, 0, 0], [0.9, 0.8, 0.1, 0.2])
    with pytest.raises(ValueError, match="`confidence_level`"):
        delong_ci([1, 1, 0, 0], [0.9, 0.8, 0.1, 0.2], confidence_level=1.0)


def _placements_by_ranks(y, scores):
    """DeLong's components by three rankings, as Sun and Xu (2014) write them."""
    pos, neg = scores[:, y], scores[:, ~y]
    m, n = pos.shape[1], neg.shape[1]
    overall = stats.rankdata(np.concatenate([pos, neg], axis=1), axis=1)
    within_pos = stats.rankdata(pos, axis=1)
    within_neg = stats.rankdata(neg, axis=1)
    return (overall[:, :m] - within_pos) / n, 1.0 - (overall[:, m:] - within_neg) / m


@pytest.mark.parametrize("size, decimals", [(9, None), (60, None), (300, 1), (2_000, 0), (40, 0)])
def test_placements_by_one_sort_equal_sun_and_xus_midranks(size, decimals):
    """The counts in sorted order give the midrank differences exactly, ties included, bit for bit."""
    gen = np.random.default_rng(size)
    for _ in range(5):
        y = gen.integers(0, 2, size).astype(bool)
        y[:2] = [True, False]
        scores = gen.normal(size=(3, size)) + y
        if decimals is not None:
            scores = np.round(scores, decimals)
        for mine, theirs in zip(_placements(y, scores), _placements_by_ranks(y, scores)):
            np.testing.assert_array_equal(mine, theirs)
            # The same layout too, so that means over rows add in the same order.
            assert mine.flags["C_CONTIGUOUS"]
            np.testing.assert_array_equal(mine.mean(axis=1), theirs.mean(axis=1))


# --- the AUC engine of the bootstrap: when it is used, and what it refuses -------------------------


def _spy_on_the_auc_engine(monkeypatch) -> list:
    """Record each construction of the O(n) AUC engine by the bootstrap."""
    import sigeval.resampling as resampling

    built = []

    class Spy(resampling.AUCStatistic):
        def __init__(self, *args, **kwargs):
            built.append(args[1])
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(resampling, "AUCStatistic", Spy)
    return built


def test_the_bootstrap_of_roc_auc_takes_the_fast_engine_exactly_when_it_applies(monkeypatch):
    from sigeval import bootstrap_ci

    built = _spy_on_the_auc_engine(monkeypatch)
    rng = np.random.default_rng(0)
    y = np.tile([0, 1], 30)
    a, b = y + rng.normal(size=60), y + rng.normal(size=60)
    bootstrap_ci((y, a), statistic=roc_auc, n_resamples=50, rng=0)
    paired_bootstrap_ci((y, a), (y, b), statistic=roc_auc, n_resamples=50, rng=0)
    assert len(built) == 2 and len(built[0]) == 1 and len(built[1]) == 2
    np.testing.assert_array_equal(built[1][1], b)
    # Not for two models with labels of their own, nor for another statistic, nor for groups.
    paired_bootstrap_ci((y, a), (y[::-1], b), statistic=roc_auc, n_resamples=50, rng=0)
    bootstrap_ci((y, a), statistic=lambda t, s, axis: roc_auc(t, s, axis=axis), n_resamples=50, rng=0)
    bootstrap_ci((y, a), statistic=roc_auc, groups=np.repeat(np.arange(20), 3), n_resamples=50, rng=0)
    assert len(built) == 2


def test_the_auc_engine_refuses_on_shapes_it_cannot_take():
    from sigeval._bootstrap_engine import Units
    from sigeval.resampling import _auc_engine

    y, s = np.tile([0.0, 1.0], 5), np.arange(10.0)
    units = Units(None, 10)
    assert _auc_engine(roc_auc, ((y, s),), units) is not None
    assert _auc_engine(roc_auc, ((y, s), (y, s[::-1])), units) is not None
    for samples in (((y, s, s),), ((y,),), ((y[:, None], s),), ((y, s[:, None]),), ((y, s), (y, s[:, None])),
                    ((y[:, None], s), (y, s))):
        assert _auc_engine(roc_auc, samples, units) is None


def test_resamples_without_a_class_are_counted_in_the_message():
    y = np.r_[1.0, np.zeros(19)]
    s = np.arange(20.0)
    drawn = np.random.default_rng(0).integers(0, 20, size=(300, 20))
    positives = (drawn == 0).sum(axis=1)
    bad = int(np.count_nonzero((positives == 0) | (positives == 20)))
    message = (f"`statistic` returned {bad} non-finite value(s) out of 300 (a zero denominator, or a resample "
               "without positives?); a bootstrap interval needs a finite value on every resample.")
    from sigeval import bootstrap_ci

    with pytest.raises(ValueError) as error:
        bootstrap_ci((y, s), statistic=roc_auc, n_resamples=300, rng=0)
    assert bad > 0 and message in str(error.value)


def test_a_resample_with_one_item_of_a_class_is_fine():
    # 3 positives among 40 items: seed chosen so that some resamples draw one positive (or one
    # negative... not possible here) and none draws zero; the fast engine equals the generic one.
    from sigeval import bootstrap_ci

    y = np.r_[np.ones(3), np.zeros(37)]
    s = np.random.default_rng(1).normal(size=40) + y
    seed = next(r for r in range(200) if (lambda k: np.all(k > 0) and np.any(k == 1))(
        np.isin(np.random.default_rng(r).integers(0, 40, size=(40, 40)), [0, 1, 2]).sum(axis=1)))
    fast = bootstrap_ci((y, s), statistic=roc_auc, n_resamples=40, rng=seed)
    slow = bootstrap_ci((y, s), statistic=lambda t, x, axis: roc_auc(t, x, axis=axis), n_resamples=40, rng=seed)
    assert fast.confidence_interval == slow.confidence_interval


def test_the_jackknife_of_a_class_with_one_item_is_refused_without_a_warning():
    from sigeval._bootstrap_engine import AUCStatistic, CallableStatistic, Units

    y = np.r_[1.0, np.zeros(9)]
    s = np.arange(10.0)
    units = Units(None, 10)
    engine = AUCStatistic(y, (s,), CallableStatistic(roc_auc, ((y, s),), units))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as error:
            engine.jackknife()
    assert str(error.value) == (
        "`statistic` returned non-finite value(s) on leaving an item out (a class with a single item?); "
        "BCa's jackknife needs a finite value for every item.")


# --------------------------------------------------------------------------- messages, levels and clipping


def test_delong_ci_keeps_its_level_and_clips_the_interval_at_one():
    # The docstring's scorer: AUC 7/8, and 0.875 + z_0.95 * SE > 1, so the upper end is clipped to 1.
    labels, scores = [1, 1, 1, 1, 0, 0, 0, 0], [0.9, 0.8, 0.7, 0.3, 0.6, 0.2, 0.1, 0.4]
    res = delong_ci(labels, scores, confidence_level=0.9)
    auc, se, low, _ = _brute_force_delong_ci(labels, scores, 0.9)
    assert res.confidence_level == 0.9
    assert res.estimate == auc == 0.875
    assert res.estimate + stats.norm.isf(0.05) * se > 1.0
    assert res.confidence_interval.high == 1.0
    assert res.confidence_interval.low == pytest.approx(low, rel=1e-12)


def test_delong_ci_messages_name_the_scores():
    match = (r"^`scores` holds 1 NaN or infinite value\(s\) \(a failed run or item\?\) at position\(s\) 2; "
             r"remove or handle them explicitly\.$")
    with pytest.raises(ValueError, match=match):
        delong_ci([1, 1, 0, 0], [0.9, 0.8, np.nan, 0.2])


def test_delong_ci_zero_se_warning_says_why():
    with pytest.warns(UserWarning) as record:
        delong_ci([1, 1, 0, 0], [0.9, 0.8, 0.1, 0.2])
    assert len(record) == 1
    assert record[0].filename == __file__ or "mutmut" in Path(record[0].filename).parts
    assert str(record[0].message) == (
        "DeLong's standard error is zero: every positive-negative pair is ordered alike (AUC 1: "
        "all positives above the negatives, below them, or tied with them), so the data show no variation "
        "and the interval is a single point. It does not mean the AUC is known exactly; with few items, "
        "see the bootstrap (sigeval.bootstrap_ci with roc_auc) or collect more."
    )


@pytest.mark.parametrize("call", [lambda: delong_ci([1, 1, 0, 0], [0.9, 0.8, 0.1, 0.2]),
                                  lambda: delong_test([1, 1, 0, 0], [0.9, 0.8, 0.1, 0.2], [0.9, 0.8, 0.1, 0.2])])
def test_zero_se_warnings_point_one_frame_up(monkeypatch, call):
    """stacklevel=2: the warning names the line that called sigeval (checked on the call itself,
    since a mutation tool's wrappers add frames between the test and the function)."""
    import sigeval.roc

    seen = []
    monkeypatch.setattr(sigeval.roc.warnings, "warn", lambda *args, **kwargs: seen.append(kwargs))
    call()
    assert seen == [{"stacklevel": 2}]


def test_delong_zero_se_error_message_in_full():
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    perfect = np.array([0.9, 0.8, 0.7, 0.65, 0.6, 0.2, 0.1, 0.4])
    expected = (
        "DeLong's test cannot judge this difference: the estimated covariance of the two AUCs "
        "({} and {}) is singular and gives their difference a standard error "
        "of exactly 0, because each model places every positive item, and every negative one, at the same "
        "level against the other class (4 positives, 4 negatives). The z statistic would be infinite and "
        "the p-value 0 whatever the number of items; the data give no estimate of the difference's "
        "variability. Score more items, or report the two AUCs without a test."
    )
    with pytest.raises(ValueError) as info:
        delong_test(y, perfect, -perfect)
    assert str(info.value) == expected.format(1, 0)
    with pytest.raises(ValueError) as info:
        delong_test(y, np.zeros(8), perfect)
    assert str(info.value) == expected.format(0.5, 1)

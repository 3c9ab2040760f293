"""sigeval.resampling against scipy, brute-force references and the seed article's constructions."""

import itertools
import re
import warnings

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    _bootstrap_engine,
    average_precision,
    bootstrap_ci,
    paired_bootstrap_ci,
    paired_permutation_test,
    proportion_ci,
    ratio_of_sums,
    resampling,
    roc_auc,
)

# Monte Carlo tolerance for comparing two independent bootstraps of B = 20,000
# resamples. An endpoint is a 2.5% quantile: its sd is sqrt(q(1-q)/B) / f(x_q),
# about 0.019 bootstrap SEs for a near-normal distribution, so the difference
# of two independent endpoints has sd about 0.027 SE. BCa adds the noise of z0
# (sd about 0.01 SE here). 0.15 SE is more than 5 sd, yet far below the
# BCa-percentile gap of the skewed case (about 0.5 SE).
B = 20_000
TOL_SE = 0.15
SCIPY_BATCH = 2_000   # keeps scipy's resample arrays small


def _mean_axis(x, axis=-1):
    return np.mean(x, axis=axis)


def _close(ours, ref, se, step=0.0):
    # ``step``: the lattice of a discrete bootstrap distribution, which an
    # endpoint can miss by one step whatever the number of resamples.
    low, high = ours.confidence_interval
    assert abs(low - ref.confidence_interval.low) < TOL_SE * se + step
    assert abs(high - ref.confidence_interval.high) < TOL_SE * se + step


# --------------------------------------------------------------------------- against scipy

@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_mean_matches_scipy(method):
    x = np.random.default_rng(0).normal(size=200)
    ours = bootstrap_ci(x, method=method, n_resamples=B, rng=1)
    ref = stats.bootstrap((x,), _mean_axis, method=method, n_resamples=B, batch=SCIPY_BATCH, rng=2)
    assert ours.estimate == pytest.approx(x.mean(), abs=1e-15)
    assert ours.standard_error == pytest.approx(ref.standard_error, rel=0.03)
    _close(ours, ref, ours.standard_error)


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_skewed_data_bca_differs_from_percentile_and_both_match_scipy(method):
    x = np.random.default_rng(7).lognormal(0, 1.5, size=40)
    ours = bootstrap_ci(x, statistic=lambda s, axis: s.mean(axis=axis), method=method, n_resamples=B, rng=1)
    ref = stats.bootstrap((x,), _mean_axis, method=method, n_resamples=B, batch=SCIPY_BATCH, rng=2)
    _close(ours, ref, ours.standard_error)
    pct = bootstrap_ci(x, n_resamples=B, rng=1)
    if method == "BCa":
        # BCa shifts the interval towards the long right tail.
        assert ours.confidence_interval.low - pct.confidence_interval.low > 0.2 * pct.standard_error
        assert ours.confidence_interval.high - pct.confidence_interval.high > 0.5 * pct.standard_error


@pytest.mark.parametrize("method", ["percentile", "basic", "BCa"])
def test_paired_ratio_statistic_matches_scipy_paired(method):
    gen = np.random.default_rng(3)
    union = gen.integers(200, 2000, size=200).astype(float)
    inter_a = union * gen.beta(5, 2, size=200)
    inter_b = np.clip(inter_a - union * gen.normal(0.03, 0.05, size=200), 0, union)
    ours = paired_bootstrap_ci(
        (inter_a, union), (inter_b, union), statistic=ratio_of_sums, method=method,
        n_resamples=B, rng=1,
    )

    def diff(ia, ua, ib, ub, axis=-1):
        return ia.sum(axis) / ua.sum(axis) - ib.sum(axis) / ub.sum(axis)

    ref = stats.bootstrap((inter_a, union, inter_b, union), diff, paired=True, method=method,
                          n_resamples=B, batch=SCIPY_BATCH, rng=2)
    assert ours.estimate == pytest.approx(diff(inter_a, union, inter_b, union))
    _close(ours, ref, ours.standard_error)


@pytest.mark.parametrize("method", ["percentile", "BCa"])
def test_paired_mean_fast_path_matches_scipy_paired(method):
    gen = np.random.default_rng(4)
    a = gen.random(2000) < 0.8
    b = np.where(gen.random(2000) < 0.85, a, gen.random(2000) < 0.7)
    ours = paired_bootstrap_ci(a, b, method=method, n_resamples=B, rng=1)
    ref = stats.bootstrap((a.astype(float), b.astype(float)),
                          lambda x, y, axis: x.mean(axis) - y.mean(axis),
                          paired=True, method=method, n_resamples=B, batch=SCIPY_BATCH, rng=2)
    assert ours.estimate == pytest.approx(a.mean() - b.mean())
    _close(ours, ref, ours.standard_error, step=1 / a.size)


# --------------------------------------------------------------------------- fast path

def _quantiles(dist):
    return np.percentile(dist, [2.5, 25, 50, 75, 97.5])


@pytest.mark.parametrize("values", [[0.0, 1.0], [-1.0, 0.0, 1.0]])
def test_multinomial_fast_path_has_the_index_bootstrap_distribution(values):
    x = np.random.default_rng(5).choice(values, size=500, p=None)
    fast = bootstrap_ci(x, n_resamples=B, rng=1)
    index = bootstrap_ci(x, statistic=lambda s, axis: s.mean(axis=axis), n_resamples=B, rng=2)
    se = index.standard_error
    assert fast.estimate == index.estimate
    # Mean: sd se / sqrt(B) each; quantiles: as TOL_SE above; sd within 2%.
    assert abs(fast.bootstrap_distribution.mean() - index.bootstrap_distribution.mean()) < 5 * se * np.sqrt(2 / B)
    np.testing.assert_allclose(_quantiles(fast.bootstrap_distribution),
                               _quantiles(index.bootstrap_distribution), atol=TOL_SE * se)
    assert fast.standard_error == pytest.approx(se, rel=0.03)


def test_mean_with_many_distinct_values_uses_the_index_stream():
    x = np.random.default_rng(6).normal(size=300)   # 300 distinct values > 256
    mean = bootstrap_ci(x, n_resamples=500, rng=8)
    gen = np.random.default_rng(8)
    expected = x[gen.integers(0, x.size, (500, x.size))].mean(axis=1)
    np.testing.assert_array_equal(mean.bootstrap_distribution, expected)


def test_million_items_fast_path_stays_small():
    # Speed is measured in benchmarks/bench_bootstrap.py; memory is deterministic enough to pin.
    import tracemalloc

    gen = np.random.default_rng(0)
    a = gen.random(1_000_000) < 0.85
    b = np.where(gen.random(1_000_000) < 0.9, a, ~a)
    tracemalloc.start()
    res = paired_bootstrap_ci(a, b, n_resamples=10_000, rng=0)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert res.confidence_interval.low < res.estimate < res.confidence_interval.high
    assert peak < 200e6


# --------------------------------------------------------------------------- the seed article

def _article_like_correctness(seed=0, n=1000):
    gen = np.random.default_rng(seed)
    ca = gen.random(n) < 0.845
    cb = np.where(gen.random(n) < 0.93, ca, ~ca)
    return ca, cb


def test_percentile_interval_reproduces_the_articles_numpy_construction():
    ca, cb = _article_like_correctness()
    d = ca.astype(float) - cb
    ours_rng, article_rng = np.random.default_rng(0), np.random.default_rng(0)
    res = bootstrap_ci(d, statistic=lambda x, axis: x.mean(axis=axis), n_resamples=10_000, rng=ours_rng)

    boot = article_rng.integers(0, d.size, (10_000, d.size))   # the article, verbatim
    diffs = d[boot].mean(1)
    lo, hi = np.percentile(diffs, [2.5, 97.5])

    assert (res.confidence_interval.low, res.confidence_interval.high) == (lo, hi)
    np.testing.assert_array_equal(res.bootstrap_distribution, diffs)
    assert ours_rng.bit_generator.state == article_rng.bit_generator.state


def test_monte_carlo_permutation_reproduces_the_articles_formula():
    ca, cb = _article_like_correctness(seed=1)
    d = ca.astype(float) - cb
    ours_rng, article_rng = np.random.default_rng(0), np.random.default_rng(0)
    # As in the article, the permutation test draws after the bootstrap.
    bootstrap_ci(d, statistic=lambda x, axis: x.mean(axis=axis), rng=ours_rng)
    res = paired_permutation_test(ca, cb, n_resamples=20_000, method="monte-carlo", rng=ours_rng)

    article_rng.integers(0, d.size, (10_000, d.size))
    flips = article_rng.choice([-1.0, 1.0], size=(20_000, d.size))   # the article, verbatim
    null = np.abs((flips * d).mean(1))
    p_perm = (1 + np.sum(null >= abs(d.mean()) - 1e-12)) / (1 + len(null))

    assert res.pvalue == p_perm and res.method == "monte-carlo"
    np.testing.assert_array_equal(np.abs(res.null_distribution), null)
    assert ours_rng.bit_generator.state == article_rng.bit_generator.state


def test_chunking_does_not_change_any_draw(monkeypatch):
    gen = np.random.default_rng(9)
    x = gen.normal(size=300)
    a, b = gen.random(300) < 0.7, gen.random(300) < 0.6
    groups = gen.integers(0, 40, size=300)
    runs = {}
    for chunk in (_bootstrap_engine._CHUNK_ELEMENTS, 1_000):
        monkeypatch.setattr(_bootstrap_engine, "_CHUNK_ELEMENTS", chunk)
        runs[chunk] = (
            bootstrap_ci(x, statistic=lambda s, axis: s.mean(axis=axis), method="bca", n_resamples=300, rng=1),
            bootstrap_ci(x, groups=groups, method="bca", n_resamples=300, rng=1),
            bootstrap_ci(x, statistic=lambda s, axis: np.nanmean(s, axis=axis), groups=groups,
                         method="bca", n_resamples=300, rng=1),
            paired_permutation_test(a, b, method="monte-carlo", n_resamples=300, rng=1),
        )
    for big, small in zip(*runs.values()):
        if isinstance(big, resampling.BootstrapResult):
            np.testing.assert_array_equal(big.bootstrap_distribution, small.bootstrap_distribution)
            assert tuple(big.confidence_interval) == pytest.approx(tuple(small.confidence_interval), abs=1e-14)
        else:
            assert big.pvalue == small.pvalue


# --------------------------------------------------------------------------- groups

def test_groups_of_one_item_are_the_ordinary_bootstrap():
    x = np.random.default_rng(10).normal(size=150)
    labels = np.arange(150)
    index = bootstrap_ci(x, statistic=lambda s, axis: s.mean(axis=axis), method="bca", n_resamples=2000, rng=1)
    grouped = bootstrap_ci(x, groups=labels, method="bca", n_resamples=2000, rng=1)
    grouped_callable = bootstrap_ci(x, statistic=lambda s, axis: s.mean(axis=axis), groups=labels,
                                    method="bca", n_resamples=2000, rng=1)
    # Group indices are item indices here: the same draws, so the same distribution
    # up to rounding, and the closed-form and chunked jackknives agree.
    np.testing.assert_allclose(grouped.bootstrap_distribution, index.bootstrap_distribution, rtol=1e-12)
    np.testing.assert_array_equal(grouped_callable.bootstrap_distribution, index.bootstrap_distribution)
    for res in (grouped, grouped_callable):
        assert tuple(res.confidence_interval) == pytest.approx(tuple(index.confidence_interval), abs=1e-12)
    # And in distribution, whatever the labels' order.
    shuffled = bootstrap_ci(x, groups=np.random.default_rng(0).permutation(150), n_resamples=B, rng=2)
    fast = bootstrap_ci(x, n_resamples=B, rng=3)
    np.testing.assert_allclose(_quantiles(shuffled.bootstrap_distribution),
                               _quantiles(fast.bootstrap_distribution), atol=TOL_SE * fast.standard_error)


def test_grouped_mean_equals_grouped_callable_on_the_same_draws():
    gen = np.random.default_rng(12)
    groups = np.repeat(np.arange(30), gen.integers(1, 9, size=30))
    x = gen.random(groups.size)
    fast = bootstrap_ci(x, groups=groups, n_resamples=1000, rng=4)
    padded = bootstrap_ci(x, statistic=lambda s, axis: np.nanmean(s, axis=axis), groups=groups,
                          n_resamples=1000, rng=4)
    np.testing.assert_allclose(fast.bootstrap_distribution, padded.bootstrap_distribution, rtol=1e-12)
    # Reference: concatenate the drawn groups' items, resample by resample.
    draws = np.random.default_rng(4).integers(0, 30, size=(1000, 30))
    members = [np.flatnonzero(groups == g) for g in range(30)]
    expected = [x[np.concatenate([members[g] for g in row])].mean() for row in draws]
    np.testing.assert_allclose(fast.bootstrap_distribution, expected, rtol=1e-12)
    paired = paired_bootstrap_ci(x, x**2, groups=groups, n_resamples=1000, rng=4)
    np.testing.assert_array_equal(
        paired.bootstrap_distribution, bootstrap_ci(x - x**2, groups=groups, n_resamples=1000, rng=4).bootstrap_distribution
    )


def _clustered(gen, n_groups=50, size=20):
    # Group-level accuracy ~ Beta(4, 1): mean 0.8, intra-class correlation 1/6,
    # design effect 1 + 19/6 ~ 4.2, so the binomial SE is ~2x too small.
    p = gen.beta(4, 1, size=n_groups)
    return (gen.random((n_groups, size)) < p[:, None]).ravel(), np.repeat(np.arange(n_groups), size)


def test_grouped_interval_is_wider_than_wilson_and_covers_nominally():
    gen = np.random.default_rng(11)
    y, groups = _clustered(gen)
    grouped = bootstrap_ci(y, groups=groups, rng=1)
    wilson = proportion_ci(int(y.sum()), y.size)
    assert (grouped.confidence_interval.high - grouped.confidence_interval.low) > 1.6 * (wilson.high - wilson.low)

    # 300 simulated test sets: coverage estimates have sd ~0.013 at 0.95 and ~0.027 at 0.7.
    hits_grouped = hits_wilson = 0
    for _ in range(300):
        y, groups = _clustered(gen)
        ci = bootstrap_ci(y, groups=groups, n_resamples=500, rng=gen).confidence_interval
        w = proportion_ci(int(y.sum()), y.size)
        hits_grouped += ci.low <= 0.8 <= ci.high
        hits_wilson += w.low <= 0.8 <= w.high
    # The percentile cluster bootstrap with 50 clusters is slightly liberal (~0.93).
    assert hits_grouped / 300 >= 0.89
    assert hits_wilson / 300 <= 0.80


# --------------------------------------------------------------------------- non-average metrics

def _detections(gen, n_images=12, slots=5):
    """Padded per-image detections: NaN scores for empty slots, TPs <= objects."""
    n_det = gen.integers(0, slots + 1, size=n_images)
    scores = gen.random((n_images, slots)).round(2)   # rounding creates ties
    present = np.arange(slots) < n_det[:, None]
    scores[~present] = np.nan
    tp = present & (gen.random((n_images, slots)) < 0.6)
    positives = tp.sum(axis=1) + gen.integers(0, 3, size=n_images)
    return scores, tp, positives


def _ap_reference(images, scores, tp, positives):
    """Non-vectorized AP of the detections of ``images`` (a list of image indices)."""
    dets = [(scores[i, j], bool(tp[i, j])) for i in images for j in range(scores.shape[1])
            if not np.isnan(scores[i, j])]
    dets = sorted(dets, key=lambda sd: -sd[0])   # stable: ties keep their order
    total = sum(positives[i] for i in images)
    found, area = 0, 0.0
    for rank, (_, hit) in enumerate(dets, start=1):
        if hit:
            found += 1
            area += found / rank
    return area / total


def test_average_precision_matches_reference_per_resample():
    gen = np.random.default_rng(13)
    scores, tp, positives = _detections(gen)
    res = bootstrap_ci((scores, tp, positives), statistic=average_precision, n_resamples=200, rng=5)
    draws = np.random.default_rng(5).integers(0, len(scores), size=(200, len(scores)))
    expected = [_ap_reference(list(row), scores, tp, positives) for row in draws]
    np.testing.assert_allclose(res.bootstrap_distribution, expected, rtol=1e-12)
    assert res.estimate == pytest.approx(_ap_reference(range(len(scores)), scores, tp, positives))


def test_average_precision_with_groups_of_images():
    gen = np.random.default_rng(14)
    scores, tp, positives = _detections(gen, n_images=15)
    groups = gen.integers(0, 6, size=15)
    labels = np.unique(groups)
    res = bootstrap_ci((scores, tp, positives), statistic=average_precision, groups=groups,
                       n_resamples=200, rng=6)
    draws = np.random.default_rng(6).integers(0, labels.size, size=(200, labels.size))
    members = [list(np.flatnonzero(groups == g)) for g in labels]
    expected = [_ap_reference(sum((members[g] for g in row), []), scores, tp, positives) for row in draws]
    np.testing.assert_allclose(res.bootstrap_distribution, expected, rtol=1e-12)


def test_average_precision_simple_cases():
    perfect = average_precision(np.array([[[0.9, 0.8]]]), np.array([[[1, 1]]]), np.array([[2]]), axis=1)
    assert perfect[0] == 1.0
    # One FP ranked first: precisions 1/2 and 2/3 at the TPs; one object missed.
    ap = average_precision(np.array([[[0.9, 0.8, 0.7]]]), np.array([[[0, 1, 1]]]), np.array([[3]]), axis=1)
    assert ap[0] == pytest.approx((1 / 2 + 2 / 3) / 3)


def test_ratio_of_sums_matches_reference_per_resample():
    gen = np.random.default_rng(15)
    union = gen.integers(10, 100, size=25).astype(float)
    inter = np.floor(union * gen.random(25))
    res = bootstrap_ci((inter, union), statistic=ratio_of_sums, n_resamples=300, rng=7)
    draws = np.random.default_rng(7).integers(0, 25, size=(300, 25))
    expected = [sum(inter[i] for i in row) / sum(union[i] for i in row) for row in draws]
    np.testing.assert_allclose(res.bootstrap_distribution, expected, rtol=1e-12)
    assert res.estimate == pytest.approx(inter.sum() / union.sum())
    # The dataset-level IoU is not the mean of per-image IoUs.
    assert res.estimate != pytest.approx(np.mean(inter / union))


# --------------------------------------------------------------------------- permutation test

def _zero_one(n01, n10, n11=30, n00=10):
    a = np.r_[np.ones(n01), np.zeros(n10), np.ones(n11), np.zeros(n00)]
    b = np.r_[np.zeros(n01), np.ones(n10), np.ones(n11), np.zeros(n00)]
    return a, b


@pytest.mark.parametrize("n01, n10", [(44, 28), (28, 44), (10, 0), (0, 1), (5, 5), (120, 95), (3, 17)])
def test_exact_path_is_mcnemars_exact_test(n01, n10):
    a, b = _zero_one(n01, n10)
    m = n01 + n10
    for alternative in ("two-sided", "greater", "less"):
        res = paired_permutation_test(a, b, alternative=alternative)
        ref = stats.binomtest(n01, m, 0.5, alternative=alternative).pvalue
        assert res.method == "exact" and res.null_distribution is None and res.n_resamples is None
        assert res.pvalue == pytest.approx(ref, rel=1e-10)
    formula = min(1.0, 2 * stats.binom.cdf(min(n01, n10), m, 0.5))
    assert paired_permutation_test(a, b).pvalue == pytest.approx(formula, rel=1e-12)


def _brute_force_pvalues(d):
    """Every sign pattern of every item, with the statistic on the sum scale."""
    t = d.sum()
    null = np.array([np.dot(s, d) for s in itertools.product((-1.0, 1.0), repeat=d.size)])
    tol = 1e-9
    return {
        "two-sided": np.mean(np.abs(null) >= abs(t) - tol),
        "greater": np.mean(null >= t - tol),
        "less": np.mean(null <= t + tol),
    }


@pytest.mark.parametrize("seed", range(4))
def test_enumeration_path_matches_brute_force(seed):
    gen = np.random.default_rng(seed)
    a = gen.random(12)
    b = a + gen.normal(0.1, 0.2, size=12)
    b[:2] = a[:2]   # zero differences are part of the data but not of the enumeration
    expected = _brute_force_pvalues(a - b)
    for alternative, p in expected.items():
        res = paired_permutation_test(a, b, alternative=alternative)
        assert res.method == "exact"
        assert res.pvalue == pytest.approx(p, abs=1e-12)


@pytest.mark.parametrize("seed", range(4))
def test_integer_convolution_path_matches_brute_force(seed):
    gen = np.random.default_rng(seed)
    a = gen.integers(0, 6, size=13)     # e.g. objects found per image
    b = gen.integers(0, 5, size=13)
    expected = _brute_force_pvalues((a - b).astype(float))
    for alternative, p in expected.items():
        assert paired_permutation_test(a, b, alternative=alternative).pvalue == pytest.approx(p, abs=1e-12)


def test_integer_convolution_handles_large_counts():
    gen = np.random.default_rng(16)
    a = gen.poisson(20, size=400)
    b = a - gen.integers(-3, 5, size=400)
    exact = paired_permutation_test(a, b, alternative="greater")
    mc = paired_permutation_test(a, b, alternative="greater", method="monte-carlo", n_resamples=20_000, rng=1)
    assert exact.method == "exact"
    se = np.sqrt(exact.pvalue * (1 - exact.pvalue) / 20_000)
    assert abs(mc.pvalue - exact.pvalue) < 4 * se + 1e-4


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_monte_carlo_agrees_with_exact(alternative):
    a, b = _zero_one(44, 28, n11=801, n00=127)
    exact = paired_permutation_test(a, b, alternative=alternative)
    mc = paired_permutation_test(a, b, alternative=alternative, method="monte-carlo",
                                 n_resamples=B, rng=3)
    se = np.sqrt(exact.pvalue * (1 - exact.pvalue) / B)
    assert abs(mc.pvalue - exact.pvalue) < 4 * se + 1 / B
    assert mc.null_distribution.shape == (B,) and mc.n_resamples == B


def test_auto_falls_back_to_monte_carlo_for_many_real_differences():
    gen = np.random.default_rng(17)
    a, b = gen.random(50), gen.random(50)
    res = paired_permutation_test(a, b, n_resamples=500, rng=0)
    assert res.method == "monte-carlo"
    with pytest.raises(ValueError, match=r"`method`='exact' is not feasible here.*50 nonzero"):
        paired_permutation_test(a, b, method="exact")


def test_permutation_tests_hold_their_level_under_the_null():
    # 2,000 test sets of 60 items on which A and B are equally accurate and exchangeable.
    gen = np.random.default_rng(18)
    n_sets, limit = 2000, 0.05 + 3 * np.sqrt(0.05 * 0.95 / 2000)
    a = gen.random((n_sets, 60)) < 0.7
    b = gen.random((n_sets, 60)) < 0.7
    exact = np.array([paired_permutation_test(x, y).pvalue for x, y in zip(a, b)])
    mc = np.array([paired_permutation_test(x, y, method="monte-carlo", n_resamples=199, rng=gen).pvalue
                   for x, y in zip(a, b)])
    assert np.mean(exact <= 0.05) <= limit
    assert np.mean(mc <= 0.05) <= limit


# --------------------------------------------------------------------------- degenerate data

@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
def test_every_item_correct_warns_and_gives_the_point(method):
    with pytest.warns(UserWarning, match="same value 1.*single point"):
        res = bootstrap_ci(np.ones(50), method=method, rng=0)
    assert (res.confidence_interval.low, res.confidence_interval.high) == (1.0, 1.0)
    assert res.standard_error == 0.0


def test_identical_models_warn_in_bootstrap_and_permutation():
    a = np.random.default_rng(19).random(80) < 0.7
    with pytest.warns(UserWarning, match="same value 0"):
        res = paired_bootstrap_ci(a, a, method="bca", rng=0)
    assert tuple(res.confidence_interval) == (0.0, 0.0)
    for method in ("auto", "monte-carlo"):
        with pytest.warns(UserWarning, match="All paired differences are zero.*1.0"):
            assert paired_permutation_test(a, a, method=method, n_resamples=99, rng=0).pvalue == 1.0


def test_bca_with_undefined_corrections_warns_and_stays_finite():
    # The number of distinct values: every resample has fewer than the data
    # (z0 infinite), and every leave-one-out sample one fewer (no acceleration).
    def n_distinct(x, axis):
        return 1.0 + (np.diff(np.sort(x, axis=axis), axis=axis) > 0).sum(axis=axis)

    x = np.arange(30.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = bootstrap_ci(x, statistic=n_distinct, method="bca", n_resamples=500, rng=0)
    messages = " ".join(str(w.message) for w in caught)
    assert "bias correction is infinite" in messages and "acceleration is set to 0" in messages
    assert np.isfinite(res.confidence_interval.low) and np.isfinite(res.confidence_interval.high)


# --------------------------------------------------------------------------- results

def test_results_hold_python_floats_and_print_without_the_distribution():
    res = bootstrap_ci(np.r_[np.ones(30), np.zeros(10)], method="BCa", n_resamples=100, rng=0)
    assert res.method == "bca"
    for value in (res.estimate, res.standard_error, *res.confidence_interval):
        assert type(value) is float
    assert "bootstrap_distribution" not in repr(res)
    assert res.bootstrap_distribution.shape == (100,)
    perm = paired_permutation_test(*_zero_one(5, 2), method="monte-carlo", n_resamples=50, rng=0)
    assert type(perm.statistic) is float and type(perm.pvalue) is float
    assert "null_distribution" not in repr(perm)


def test_intervals_widen_with_the_level_and_accept_generators():
    x = np.random.default_rng(20).normal(size=100)
    narrow = bootstrap_ci(x, confidence_level=0.8, rng=np.random.default_rng(1))
    wide = bootstrap_ci(x, confidence_level=0.99, rng=np.random.default_rng(1))
    assert wide.confidence_interval.low < narrow.confidence_interval.low
    assert wide.confidence_interval.high > narrow.confidence_interval.high


# --------------------------------------------------------------------------- bad input

X = np.array([0.0, 1.0, 1.0, 0.0, 1.0])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(data=[0.0, np.nan, 1.0]), r"`data` holds 1 NaN or infinite value\(s\).*position\(s\) 1"),
        (dict(data=(X, [1.0, 2, 3, np.inf, 5]), statistic=ratio_of_sums), r"`data\[1\]` holds 1 NaN.*position\(s\) 3"),
        (dict(data=np.ones((3, 2)) * np.inf, statistic=ratio_of_sums),
         r"^`data` holds infinite values, e\.g\. at index \[\[0, 0\], \[0, 1\], \[1, 0\]\]\.$"),
        (dict(data=[[1.0, 2.0], [3.0]]), r"^`data` must be a rectangular array"),
        (dict(data=X, n_resamples=10**9), r"^`n_resamples` = 1000000000 would need 7\.5 GiB of memory for the "
                                         r"bootstrap distribution; the limit is 4\.0 GiB\. Choose a smaller `n_resamples`\.$"),
        (dict(data=[]), r"`data` must hold at least 1 value"),
        (dict(data=()), r"`data` must not be an empty tuple"),
        (dict(data=np.empty((0, 3)), statistic=ratio_of_sums), r"`data` must hold at least one item"),
        (dict(data=(X, X[:4]), statistic=ratio_of_sums), r"The arrays of `data` must share axis 0.*\[5, 4\]"),
        (dict(data=(X, X)), r"statistic='mean' needs `data` to be one 1-D array of per-item scores; "
                            r"got a tuple, read as several arrays, of shapes \(5,\), \(5,\)\. Pass a callable"),
        (dict(data=X, statistic="median"), r"`statistic` must be 'mean' or a callable; got 'median'"),
        (dict(data=X, n_resamples=0), r"`n_resamples` must be an integer >= 2; got 0"),
        (dict(data=X, n_resamples=1), r"`n_resamples` must be an integer >= 2; got 1"),
        (dict(data=X, method="studentized"), r"`method` must be one of 'percentile', 'basic', 'bca'; got 'studentized'"),
        (dict(data=X, confidence_level=1.5), r"`confidence_level` must be strictly between 0 and 1"),
        (dict(data=X, confidence_level=0), r"`confidence_level` must be strictly between 0 and 1"),
        (dict(data=X, groups=[0, 0, 1]), r"`groups` must hold one label per item, 5 in all; got shape \(3,\)"),
        (dict(data=X, groups=[0, 0, 1, 1, np.nan]), r"`groups` holds NaN labels \(missing: NaN or None\) at position\(s\) 4"),
        (dict(data=X, statistic=lambda x, axis: x.mean()),
         r"^`statistic` must return one value per resample: given arrays of shape \(batch, n_items, \.\.\.\) "
         r"with batch=1 and axis=1, it must return shape \(1,\); got shape \(\)\. Reduce over every axis"),
        (dict(data=X, statistic=lambda x, axis: x), r"must return shape \(\d+,\); got shape \(\d+, 5\)"),
        (dict(data=(X, X * 0), statistic=ratio_of_sums),
         r"^`statistic` returned 1 non-finite value\(s\) out of 1 \(a zero denominator, or a resample without "
         r"positives\?\); a bootstrap interval needs a finite value on every resample\.$"),
        (dict(data=X, groups=[0, 0, 1, 1, 1], statistic=lambda x, axis: x.mean(axis=axis)), r"non-finite.*on every resample\. With `groups`, "
         r"padding slots hold NaN: use NaN-aware reductions such as np\.nansum\.$"),
    ],
)
def test_bootstrap_ci_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bootstrap_ci(**{"rng": 0, "n_resamples": 20, **kwargs})


def test_a_numpy_integer_too_small_is_named_as_a_number():
    with pytest.raises(ValueError) as caught:
        bootstrap_ci(X, n_resamples=np.int64(1))
    assert str(caught.value) == "`n_resamples` must be an integer >= 2; got 1."


def test_bootstrap_rejects_wrong_types():
    with pytest.raises(TypeError, match="`n_resamples` must be an integer >= 2; got 100.0"):
        bootstrap_ci(X, n_resamples=100.0)
    with pytest.raises(TypeError, match="`rng` must be a numpy.random.Generator, an integer seed or None; got str"):
        bootstrap_ci(X, rng="seed")
    with pytest.raises(TypeError, match="`statistic` must be 'mean' or a callable; got int"):
        bootstrap_ci(X, statistic=3)
    with pytest.raises(TypeError, match=r"^`statistic` must accept the keyword `axis` \(the convention of "
                                        r"scipy\.stats\.bootstrap\): it is called as statistic\(\*arrays, axis=1\) "
                                        r"on arrays of shape \(batch, n_items, \.\.\.\); "
                                        r"e\.g\. `lambda x, axis: x\.mean\(axis=axis\)`\.$"):
        bootstrap_ci(X, statistic=lambda x: x.mean(axis=1))
    with pytest.raises(TypeError, match="`data` must hold numbers"):
        bootstrap_ci(["a", "b"])
    with pytest.raises(TypeError, match=r"^`data\[1\]` must hold real numbers; got text"):
        bootstrap_ci((X, np.array([["a"]] * 5)), statistic=ratio_of_sums)
    with pytest.raises(TypeError, match="`confidence_level` must be a real number"):
        bootstrap_ci(X, confidence_level="95%")


@pytest.mark.parametrize(
    ("args", "kwargs", "match"),
    [
        ((X, X[:4]), {}, r"`scores_a` and `scores_b` must be paired, with the same number of items; got 5 and 4"),
        (((X, X), (X,)), dict(statistic=ratio_of_sums), r"must hold the same number of arrays; got 2 and 1"),
        ((X, [0, 1, np.nan, 1, 0]), {}, r"`scores_b` holds 1 NaN.*position\(s\) 2"),
        ((X, X), dict(method="bc"), r"`method` must be one of"),
        ((X, X), dict(groups=[1, 2]), r"`groups` must hold one label per item"),
    ],
)
def test_paired_bootstrap_rejects_bad_input(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        paired_bootstrap_ci(*args, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(scores_b=X[:3]), r"`scores_a` and `scores_b` must be paired, with the same length; got 5 and 3"),
        (dict(scores_a=[1, np.nan, 0, 1, 1]), r"`scores_a` holds 1 NaN.*position\(s\) 1"),
        (dict(scores_a=[], scores_b=[]), r"`scores_a` must hold at least 1 value"),
        (dict(n_resamples=0), r"`n_resamples` must be an integer >= 1; got 0"),
        (dict(method="permutation"), r"`method` must be one of 'auto', 'exact', 'monte-carlo'"),
        (dict(alternative="two_sided"), r"`alternative` must be one of 'two-sided', 'greater', 'less'"),
    ],
)
def test_permutation_test_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        paired_permutation_test(**{"scores_a": X, "scores_b": 1 - X, **kwargs})
    with pytest.raises(TypeError, match="`rng` must be"):
        paired_permutation_test(X, 1 - X, rng=1.5)


def test_metrics_reject_bad_shapes():
    with pytest.raises(ValueError, match=r"`numerator` must have a leading resample axis.*with axis=0"):
        ratio_of_sums(X, X, axis=1)
    with pytest.raises(ValueError, match=r"`numerator` and `denominator` must have the same shape"):
        ratio_of_sums(np.ones((2, 3)), np.ones((2, 4)), axis=1)
    scores = np.ones((1, 2, 3))
    with pytest.raises(ValueError, match=r"`is_true_positive` must have the shape of `scores`"):
        average_precision(scores, np.ones((1, 2, 2)), np.ones((1, 2)), axis=1)
    with pytest.raises(ValueError, match=r"`n_positives` must have shape \(batch, n_images\) = \(1, 2\)"):
        average_precision(scores, np.ones((1, 2, 3)), np.ones((1, 3)), axis=1)
    with pytest.raises(ValueError, match=r"marks 6 true positives but `n_positives` counts only 2"):
        average_precision(scores, np.ones((1, 2, 3)), np.ones((1, 2)), axis=1)


def test_a_statistic_written_for_scipy_works_unchanged():
    """scipy.stats.bootstrap's vectorized convention: statistic(x, axis) over the item axis."""
    x = np.random.default_rng(3).normal(size=40)
    ours = bootstrap_ci(x, statistic=np.median, n_resamples=999, rng=np.random.default_rng(4))
    theirs = stats.bootstrap((x,), np.median, n_resamples=999, method="percentile",
                             rng=np.random.default_rng(4))
    assert ours.estimate == np.median(x)
    np.testing.assert_allclose(ours.bootstrap_distribution, theirs.bootstrap_distribution, rtol=0, atol=0)
    mean_by_callable = bootstrap_ci(x, statistic=np.mean, n_resamples=500, rng=5)
    mean_builtin = bootstrap_ci(x, n_resamples=500, rng=5)
    assert mean_by_callable.estimate == pytest.approx(mean_builtin.estimate, rel=1e-15)


# --------------------------------------------------------------------------- BCa against its formula

def _bca_reference(dist, estimate, jackknife, level):
    """BCa bounds from scipy's building blocks: percentileofscore for z0, the textbook acceleration."""
    b = dist.size
    below = stats.percentileofscore(dist, estimate, kind="mean") / 100
    z0 = stats.norm.ppf(np.clip(below, 0.5 / b, 1 - 0.5 / b))   # bounded half a resample from the edge
    centred = jackknife.mean() - jackknife
    spread = np.sum(centred**2)
    a = np.sum(centred**3) / (6 * spread**1.5) if spread > 0 else 0.0
    z = stats.norm.ppf([(1 - level) / 2, (1 + level) / 2])
    return np.percentile(dist, 100 * stats.norm.cdf(z0 + (z0 + z) / (1 - a * (z0 + z))))


def _n_distinct(x, axis):
    return 1.0 + (np.diff(np.sort(x, axis=axis), axis=axis) > 0).sum(axis=axis)


def _leave_one_out(x, statistic):
    return np.array([statistic(np.delete(x, i)[None], axis=1)[0] for i in range(x.size)])


_BIAS_NOTE = ("^The estimate lies {} every bootstrap value, so BCa's bias correction is infinite; "
              "it was bounded at half a resample from the edge.$")
_ACCELERATION_NOTE = "^The jackknife values are all equal, so BCa's acceleration is set to 0.$"


def _bca_case(name):
    """bootstrap_ci arguments, the brute-force jackknife and the notes BCa must give."""
    gen = np.random.default_rng(21)
    if name == "skewed mean":   # a large acceleration
        x = gen.lognormal(0, 1.5, size=40)
        return dict(data=x), _leave_one_out(x, np.mean), set()
    if name == "0/1 mean":      # the counts path: weighted jackknife, resamples tied with the estimate
        x = (gen.random(200) < 0.9).astype(float)
        return dict(data=x), _leave_one_out(x, np.mean), set()
    if name == "two items":     # the smallest jackknife: one value each side
        return dict(data=np.array([0.0, 1.0])), np.array([1.0, 0.0]), set()
    if name == "unequal groups":
        groups = np.repeat(np.arange(12), gen.integers(1, 8, size=12))
        x = gen.lognormal(0, 1, size=groups.size)
        jack = np.array([x[groups != g].mean() for g in range(12)])
        return dict(data=x, groups=groups), jack, set()
    x = np.arange(30.0)   # every resample has fewer distinct values than the data
    if name == "estimate above every resample":
        return (dict(data=x, statistic=_n_distinct), _leave_one_out(x, _n_distinct),
                {_BIAS_NOTE.format("above"), _ACCELERATION_NOTE})
    negated = lambda s, axis: -_n_distinct(s, axis)   # noqa: E731
    return (dict(data=x, statistic=negated), _leave_one_out(x, negated),
            {_BIAS_NOTE.format("below"), _ACCELERATION_NOTE})


@pytest.mark.parametrize("case", ["skewed mean", "0/1 mean", "two items", "unequal groups",
                                  "estimate above every resample", "estimate below every resample"])
def test_bca_bounds_follow_the_formula_from_the_bootstrap_distribution_and_jackknife(case):
    kwargs, jack, notes = _bca_case(case)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        res = bootstrap_ci(**kwargs, method="bca", confidence_level=0.9, n_resamples=1000, rng=2)
    expected = _bca_reference(res.bootstrap_distribution, res.estimate, jack, 0.9)
    assert tuple(res.confidence_interval) == pytest.approx(tuple(expected), rel=1e-10, abs=1e-12)
    messages = [str(w.message) for w in caught]
    assert len(messages) == len(notes)
    for pattern in notes:
        assert any(re.search(pattern, m) for m in messages), (pattern, messages)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("power", [500, 1023])
def test_intervals_scale_with_the_scores_up_to_the_float64_limit(method, power):
    # 2**500 cubed, 40 scores near 2**1023 summed and twice their mean (the basic interval)
    # overflow float64 unless rescaled internally.
    x = 1.5 + 0.1 * np.random.default_rng(22).normal(size=40)
    k = 2.0**power
    small = bootstrap_ci(x, method=method, n_resamples=500, rng=3)
    large = bootstrap_ci(x * k, method=method, n_resamples=500, rng=3)
    assert large.estimate == pytest.approx(small.estimate * k, rel=1e-14)
    assert large.standard_error == pytest.approx(small.standard_error * k, rel=1e-12)
    np.testing.assert_allclose(large.bootstrap_distribution, small.bootstrap_distribution * k, rtol=1e-14)
    np.testing.assert_allclose(tuple(large.confidence_interval), np.array(tuple(small.confidence_interval)) * k,
                               rtol=1e-12)


def test_percentile_bounds_stay_inside_a_distribution_spanning_350_orders_of_magnitude():
    # The smallest of 10 draws: 1e-49 when the one tiny item is drawn (65%), else about 1e302.
    # Rescaling such a distribution to keep the interpolation finite flushes 1e-49 to 0.
    x = np.r_[1e-49, np.full(9, 1e302)]
    low = bootstrap_ci(x, statistic=lambda s, axis: s.min(axis=axis), n_resamples=200, rng=0)
    assert low.confidence_interval.low == 1e-49
    high = bootstrap_ci(-x, statistic=lambda s, axis: s.max(axis=axis), n_resamples=200, rng=0)
    assert high.confidence_interval.high == -1e-49


# --------------------------------------------------------------------------- the mean engine

def _index_means(x, n_resamples, seed):
    return x[np.random.default_rng(seed).integers(0, x.size, (n_resamples, x.size))].mean(axis=1)


def _multinomial_means(x, n_resamples, seed):
    values, counts = np.unique(x, return_counts=True)
    drawn = np.random.default_rng(seed).multinomial(x.size, counts / x.size, size=n_resamples)
    return (drawn * values).sum(axis=1) / x.size


@pytest.mark.parametrize(
    ("n_distinct", "n", "reference"),
    [
        (2, 64, _multinomial_means),     # 32 repeats per value: counts
        (2, 63, _index_means),           # one item fewer: items
        (256, 256 * 32, _multinomial_means),
        (257, 257 * 32, _index_means),   # one distinct value too many
    ],
)
def test_mean_uses_value_counts_from_32_repeats_and_up_to_256_values(n_distinct, n, reference):
    x = np.random.default_rng(23).permutation(np.arange(n) % n_distinct) / n_distinct
    res = bootstrap_ci(x, n_resamples=50, rng=4)
    np.testing.assert_allclose(res.bootstrap_distribution, reference(x, 50, 4), rtol=1e-14)


@pytest.mark.parametrize("n", [30, 400])   # items in sorted order, and value counts
def test_mean_engine_from_value_counts_is_the_engine_from_items(n):
    x = np.sort(np.random.default_rng(24).choice([-1.0, 0.0, 1.0], size=n, p=[0.2, 0.5, 0.3]))
    values, counts = np.unique(x, return_counts=True)
    from_items = _bootstrap_engine.MeanStatistic.of_items(x, _bootstrap_engine.Units(None, n))
    from_counts = _bootstrap_engine.MeanStatistic.of_counts(values, counts)
    assert from_counts.estimate() == from_items.estimate() == pytest.approx(x.mean())
    np.testing.assert_array_equal(from_counts.resample(300, np.random.default_rng(5)),
                                  from_items.resample(300, np.random.default_rng(5)))
    for got, want in zip(from_counts.jackknife(), from_items.jackknife()):
        np.testing.assert_array_equal(got, want)


def test_mean_engine_from_group_sums_is_the_engine_from_grouped_items():
    gen = np.random.default_rng(25)
    groups = np.repeat(np.arange(20), gen.integers(1, 6, size=20))
    x = (gen.random(groups.size) < 0.6).astype(float)
    sums, sizes = np.bincount(groups, weights=x), np.bincount(groups)
    from_items = _bootstrap_engine.MeanStatistic.of_items(x, _bootstrap_engine.Units(groups, x.size))
    from_groups = _bootstrap_engine.MeanStatistic.of_groups(sums, sizes, (0.0, 1.0))
    assert from_groups.estimate() == from_items.estimate() == pytest.approx(x.mean())
    np.testing.assert_array_equal(from_groups.resample(300, np.random.default_rng(6)),
                                  from_items.resample(300, np.random.default_rng(6)))
    for got, want in zip(from_groups.jackknife(), from_items.jackknife()):
        np.testing.assert_array_equal(got, want)
    # The bounds given are the range the resampled means are clipped to.
    clipped = _bootstrap_engine.MeanStatistic.of_groups(sums, sizes, (0.5, 0.55)).resample(300, np.random.default_rng(6))
    assert clipped.min() == 0.5 and clipped.max() == 0.55


def test_mean_of_equal_scores_is_that_score_despite_rounding():
    # np.mean of three 0.1 is 0.10000000000000002; a mean cannot leave the range of the scores.
    with pytest.warns(UserWarning, match="same value 0.1"):
        res = bootstrap_ci(np.full(3, 0.1), n_resamples=20, rng=0)
    assert res.estimate == 0.1
    assert np.all(res.bootstrap_distribution == 0.1)
    assert res.standard_error == 0.0   # np.std of twenty 0.1 is 1.4e-17


def test_mean_of_scores_near_the_float64_limit_does_not_overflow():
    x = np.array([1.0e308, 1.6e308, 1.5e308, 1.7e308])   # their sum overflows
    res = bootstrap_ci(x, n_resamples=200, rng=0)
    assert res.estimate == pytest.approx(1.45e308, rel=1e-15)
    assert x.min() <= res.bootstrap_distribution.min() and res.bootstrap_distribution.max() <= x.max()


def test_a_single_item_gives_its_value_as_a_point_for_a_callable_too():
    for statistic in ("mean", np.mean):
        with pytest.warns(UserWarning, match="same value 0.7"):
            res = bootstrap_ci([0.7], statistic=statistic, n_resamples=10, rng=0)
        assert res.estimate == 0.7 and tuple(res.confidence_interval) == (0.7, 0.7)


def test_paired_callable_returning_booleans_gives_their_difference_as_numbers():
    x = np.random.default_rng(26).normal(size=30)
    above = lambda s, axis: np.mean(s, axis=axis) > 0   # noqa: E731
    res = paired_bootstrap_ci(x, x - 1.0, statistic=above, n_resamples=200, rng=0)
    assert set(np.unique(res.bootstrap_distribution)) <= {-1.0, 0.0, 1.0}
    assert res.estimate == float(x.mean() > 0) - float(x.mean() > 1)


# --------------------------------------------------------------------------- options passed through

def test_paired_bootstrap_defaults_and_passes_the_method_through():
    a, b = _zero_one(20, 10)
    res = paired_bootstrap_ci(a, b, rng=0)
    assert res.n_resamples == 10_000 and res.method == "percentile" and res.bootstrap_distribution.size == 10_000
    pct = paired_bootstrap_ci(a, b, n_resamples=500, rng=1)
    basic = paired_bootstrap_ci(a, b, method="Basic", n_resamples=500, rng=1)
    assert basic.method == "basic"
    assert tuple(basic.confidence_interval) == pytest.approx(
        (2 * pct.estimate - pct.confidence_interval.high, 2 * pct.estimate - pct.confidence_interval.low)
    )


def test_overflowing_results_name_the_data():
    # Resamples of the one negative score lie 2.8e308 below the estimate: the basic bound overflows.
    # The error replaces NumPy's overflow warning, which must not reach the user as well.
    x = np.array([1.7e308, 1.7e308, -1.7e308])
    with warnings.catch_warnings(), pytest.raises(
        ValueError, match=r"^The result overflows float64 \(confidence_interval not finite\): "
                          r"the values of `data` are too large"
    ):
        warnings.simplefilter("error")
        bootstrap_ci(x, method="basic", n_resamples=200, rng=0)
    with pytest.raises(ValueError, match=r"the values of `scores_a` and `scores_b` are too large"):
        paired_bootstrap_ci(x, np.zeros(3), method="basic", n_resamples=200, rng=0)
    with pytest.raises(ValueError, match=r"The differences `scores_a - scores_b` overflow float64"):
        paired_bootstrap_ci(x, -x, n_resamples=200, rng=0)


def test_paired_errors_name_the_model():
    with pytest.raises(ValueError, match=r"`scores_a` holds 1 NaN"):
        paired_bootstrap_ci([0.0, np.nan, 1.0], X[:3])
    pairs = np.ones((5, 2))
    with pytest.raises(ValueError, match=r"statistic='mean' needs `scores_a` to be one 1-D array"):
        paired_bootstrap_ci(pairs, X)
    with pytest.raises(ValueError, match=r"statistic='mean' needs `scores_b` to be one 1-D array"):
        paired_bootstrap_ci(X, pairs)


@pytest.mark.parametrize(("level", "tails"), [(0.95, [2.5, 97.5]), (0.9, [5.0, 95.0])])
def test_percentile_interval_is_numpys_percentile_of_the_distribution(level, tails):
    x = np.random.default_rng(27).normal(size=300)   # a continuous distribution: every quantile differs
    res = bootstrap_ci(x, confidence_level=level, n_resamples=400, rng=0)
    assert tuple(res.confidence_interval) == tuple(np.percentile(res.bootstrap_distribution, tails))
    assert res.confidence_level == level and res.n_resamples == 400


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_single_point_warning_is_a_user_warning_outside_sigeval(method):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        bootstrap_ci(np.ones(50), method=method, n_resamples=20, rng=0)
    (w,) = caught
    # Attributed to the caller's code (not to this file: mutmut's trampolines add frames).
    assert w.category is UserWarning and w.filename not in (resampling.__file__, _bootstrap_engine.__file__)
    fallback = " BCa falls back to the percentile interval." if method == "bca" else ""
    assert str(w.message) == (
        "All 20 bootstrap resamples gave the same value 1 (e.g. every item correct), so the interval "
        "is a single point and shows no uncertainty; it does not mean the score is known exactly "
        "(for a proportion, see sigeval.intervals.proportion_ci)." + fallback
    )


def test_paired_difference_that_overflows_is_refused():
    # Each model's statistic is finite (about +-1.7e308); their difference is not.
    x = np.array([1.7e308, 1.0e308, 1.5e308])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # NumPy's, from arithmetic on the infinite differences
        with pytest.raises(ValueError, match=r"^The result overflows float64 \(estimate, confidence_interval "
                                             r"not finite\): the values of `scores_a` and `scores_b`"):
            paired_bootstrap_ci(x, -x, statistic=lambda s, axis: s.max(axis=axis), n_resamples=50, rng=0)


def test_standard_error_that_overflows_is_refused():
    # Two resamples at +-1.7e308: their sd (ddof=1) is 2.4e308.
    x = np.array([1.7e308, -1.7e308])
    with pytest.raises(ValueError, match=r"^The result overflows float64 \(standard_error not finite\)"):
        bootstrap_ci(x, statistic=lambda s, axis: s[:, 0], n_resamples=2, rng=1)


# --------------------------------------------------------------------------- group labels

def test_group_labels_may_be_strings():
    x = np.random.default_rng(28).random(12)
    ids = np.repeat(np.arange(4), 3)
    names = np.array(["ann", "bob", "cy", "dee"])[ids]
    by_name = bootstrap_ci(x, groups=names, n_resamples=100, rng=0)
    by_number = bootstrap_ci(x, groups=ids, n_resamples=100, rng=0)
    np.testing.assert_array_equal(by_name.bootstrap_distribution, by_number.bootstrap_distribution)


def test_a_drawn_group_keeps_its_items_in_their_original_order():
    # Order matters to a callable (AP ranks tied scores in resample order): the first slot
    # of a resample is the first item, in the data's order, of the first group drawn.
    n, n_groups = 200, 5
    x, groups = np.arange(n, dtype=float), np.arange(n) % n_groups
    res = bootstrap_ci(x, statistic=lambda s, axis: s[:, 0], groups=groups, n_resamples=50, rng=0)
    first_group = np.random.default_rng(0).integers(0, n_groups, size=(50, n_groups))[:, 0]
    np.testing.assert_array_equal(res.bootstrap_distribution, first_group.astype(float))


@pytest.mark.parametrize(
    ("groups", "error", "match"),
    [
        ([[0, 1], [2]], ValueError, r"^`groups` must be a rectangular array"),
        ([np.nan] * 4 + [0.0], ValueError,
         r"^`groups` holds NaN labels \(missing: NaN or None\) at position\(s\) 0, 1, 2, \.\.\. \(4 values\); every item "
         r"needs its group\.$"),
        (np.array([1, "a", 2, "b", 1], dtype=object), TypeError,
         r"^`groups` labels must be comparable with each other \(all numbers or all strings: 1 and \"1\" would print "
         r"alike\); "
         r"got labels of types int, str\.$"),
    ],
)
def test_bad_group_labels_are_refused_naming_groups(groups, error, match):
    with pytest.raises(error, match=match):
        bootstrap_ci(X, groups=groups, n_resamples=20, rng=0)


# --------------------------------------------------------------------------- the AUC in O(n) per resample


def _auc_generic(*arrays, axis):
    """roc_auc under another name: the bootstrap then materialises every resample and ranks it."""
    return roc_auc(*arrays, axis=axis)


def _scored(n, ties, seed=0):
    gen = np.random.default_rng(seed)
    y = gen.integers(0, 2, n)
    a, b = y + gen.normal(0, 1, n), y + gen.normal(0, 1.5, n)
    return (y, np.round(a, 1), np.round(b)) if ties else (y, a, b)


@pytest.mark.parametrize("method", ["percentile", "basic", "bca"])
@pytest.mark.parametrize("n, ties", [(30, False), (80, True), (7, True)])
def test_auc_bootstrap_equals_the_per_resample_computation(n, ties, method):
    """Same indices, same AUCs, bit for bit: single AUCs and paired differences, with ties."""
    y, a, b = _scored(n, ties)
    y[:2] = [0, 1]
    kwargs = dict(n_resamples=400, method=method, rng=5)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # BCa notes on tiny samples, alike on both paths
        try:
            generic = bootstrap_ci((y, a), statistic=_auc_generic, **kwargs)
        except ValueError as err:  # a resample of 7 items with one class: both paths refuse it
            with pytest.raises(ValueError, match="non-finite"):
                bootstrap_ci((y, a), statistic=roc_auc, **kwargs)
            assert "non-finite" in str(err)
            return
        fast = bootstrap_ci((y, a), statistic=roc_auc, **kwargs)
        paired_fast = paired_bootstrap_ci((y, a), (y, b), statistic=roc_auc, **kwargs)
        paired_generic = paired_bootstrap_ci((y, a), (y, b), statistic=_auc_generic, **kwargs)
    for f, g in ((fast, generic), (paired_fast, paired_generic)):
        np.testing.assert_array_equal(f.bootstrap_distribution, g.bootstrap_distribution)
        assert f.estimate == g.estimate and f.confidence_interval == g.confidence_interval
        assert f.standard_error == g.standard_error


def test_auc_jackknife_in_closed_form_equals_leaving_each_item_out():
    from sigeval._bootstrap_engine import AUCStatistic, CallableStatistic, Units

    y, a, b = _scored(40, ties=True, seed=2)
    samples = (((y.astype(float), a),), ((y.astype(float), a), (y.astype(float), b)))
    for arrays in samples:
        units = Units(None, y.size)
        generic = CallableStatistic(_auc_generic, arrays, units)
        fast = AUCStatistic(y.astype(float), tuple(s for _, s in arrays), generic)
        np.testing.assert_array_equal(fast.jackknife()[0], generic.jackknife()[0])


def test_auc_bootstrap_takes_the_general_path_when_the_fast_one_does_not_apply(monkeypatch):
    """Groups, labels that differ between the two models, or other shapes: roc_auc on each resample."""
    def refuse(*args, **kwargs):
        raise AssertionError("the fast engine was used")

    monkeypatch.setattr("sigeval.resampling.AUCStatistic", refuse)
    y, a, b = _scored(60, ties=False)
    groups = np.arange(60) // 2
    bootstrap_ci((y, a), statistic=roc_auc, groups=groups, n_resamples=50, rng=0)
    other = y.copy()
    other[:3] = 1 - other[:3]
    paired_bootstrap_ci((y, a), (other, b), statistic=roc_auc, n_resamples=50, rng=0)
    with pytest.raises(ValueError, match="labels"):
        bootstrap_ci((y[:, None], a[:, None]), statistic=roc_auc, n_resamples=50, rng=0)
    assert _bootstrap_engine.AUCStatistic is not refuse  # only the name in resampling was replaced


def test_auc_bootstrap_refuses_bad_labels_as_roc_auc_does():
    y, a, _ = _scored(30, ties=False)
    with pytest.raises(ValueError, match="`labels` must be 0 or 1"):
        bootstrap_ci((y * 2.0, a), statistic=roc_auc, n_resamples=50, rng=0)


def test_a_tuple_of_numbers_as_data_says_a_tuple_is_read_as_several_arrays():
    """`bootstrap_ci((0.1, 0.2, 0.3))` used to answer "`data[0]` must be one-dimensional; got shape ()"."""
    with pytest.raises(ValueError, match=r"`data` is a tuple of 4 single numbers; a tuple is read as several "
                                         r"arrays, one per argument of `statistic`.*list\(data\)"):
        bootstrap_ci((0.1, 0.2, 0.3, 0.4), n_resamples=10, rng=0)
    with pytest.raises(ValueError, match=r"got a tuple, read as several arrays, of shapes \(5,\), \(5,\)"):
        bootstrap_ci((np.arange(5.0), np.arange(5.0)), n_resamples=10, rng=0)
    assert bootstrap_ci(list((0.1, 0.2, 0.3, 0.4)), n_resamples=10, rng=0).estimate == pytest.approx(0.25)


# --------------------------------------------------------------------------- engine edges (mutation survivors)


def test_the_degenerate_note_quotes_the_first_resample():
    """Resamples equal as numbers but not as bits (0.0 and -0.0): the note quotes the first one."""
    def signed_zero(x, axis):
        return 0.0 * x.min(axis=axis)  # -0.0 when the resample drew the -1

    with pytest.warns(UserWarning) as caught:
        res = bootstrap_ci(np.array([-1.0, 1.0]), statistic=signed_zero, n_resamples=4, rng=0)
    signs = np.signbit(res.bootstrap_distribution).tolist()
    assert signs == [False, True, True, True]  # +0 first, then -0
    assert str(caught[0].message).startswith("All 4 bootstrap resamples gave the same value 0 (e.g. every")


def test_basic_falls_back_when_one_bound_overflows_though_twice_the_estimate_does_not():
    """2e - q rounds once and overflows; e - (q - e) rounds twice and lands on the largest float.

    Only the upper bound overflows at first: the fallback must still run (both bounds are
    recomputed), and the interval ends at the largest float instead of being refused.
    """
    e = float.fromhex("0x1.187ea6ab20a81p+1021")
    q_low = float.fromhex("-0x1.73c0acaa6fabfp+1023")
    with np.errstate(over="ignore"):
        assert np.isfinite(2 * e) and 2 * e - q_low == np.inf and e - (q_low - e) == np.finfo(float).max

    def stat(x, axis):  # e on the data itself; q_low or e on a resample, by its sum
        identity = np.all(x == np.arange(10.0), axis=axis)
        return np.where(identity, e, np.where(x.sum(axis=axis) < 45, q_low, e))

    res = bootstrap_ci(np.arange(10.0), statistic=stat, n_resamples=200, method="basic", rng=0)
    assert res.estimate == e
    assert 0.05 < np.mean(res.bootstrap_distribution == q_low) < 0.95  # both quantiles are hit exactly
    assert (res.confidence_interval.low, res.confidence_interval.high) == (e, np.finfo(float).max)


def test_a_vanishing_bca_denominator_gives_the_edge_level_without_a_warning():
    """1 - a (z0 + z) is exactly 0: the level is the distribution's edge, and numpy stays silent.

    z0 = 0 (the estimate splits the resamples evenly); the jackknife's acceleration times the
    upper z of a 1 - 1e-12 level rounds to exactly 1 (found by a search over the last value).
    """
    from scipy import special

    dist, estimate = np.array([0.0, 2.0]), 1.0
    jack = np.r_[np.ones(8), 0.0, float.fromhex("0x1.ee6b4349ed58ep-1")]
    level = 0.999999999999
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tails, notes = _bootstrap_engine._bca_percentiles(dist, estimate, jack, np.ones(10), level)
    z = special.ndtri((1 - level) / 2)
    centred = jack.mean() - jack
    acceleration = np.sum(centred**3) / (6 * np.sum(centred**2) ** 1.5)
    assert 1 - acceleration * -z == 0.0  # the upper denominator vanishes
    assert tails[1] == 100.0 and notes == []
    assert tails[0] == pytest.approx(100 * special.ndtr(z / (1 - acceleration * z)), rel=1e-12)


def test_auc_resamples_with_a_single_negative_are_fine():
    # 3 negatives among 40 items: seed chosen so that some resamples draw one negative and none
    # draws zero; the fast engine equals the generic one.
    y = np.r_[np.zeros(3), np.ones(37)]
    s = np.random.default_rng(1).normal(size=40) + y
    drawn_negatives = np.isin(np.random.default_rng(3).integers(0, 40, size=(40, 40)), [0, 1, 2]).sum(axis=1)
    assert np.all(drawn_negatives > 0) and np.any(drawn_negatives == 1)
    fast = bootstrap_ci((y, s), statistic=roc_auc, n_resamples=40, rng=3)
    slow = bootstrap_ci((y, s), statistic=lambda t, x, axis: roc_auc(t, x, axis=axis), n_resamples=40, rng=3)
    np.testing.assert_array_equal(fast.bootstrap_distribution, slow.bootstrap_distribution)
    assert fast.confidence_interval == slow.confidence_interval


@pytest.mark.parametrize("y", [[0.0, 1.0, 1.0], [1.0, 0.0, 0.0], [0.0, 1.0]])
def test_auc_on_two_or_three_items_counts_the_resamples_without_a_class(y):
    """Tiny samples are drawn like any other; the refusal counts the resamples missing a class."""
    y = np.array(y)
    drawn = y[np.random.default_rng(0).integers(0, y.size, size=(50, y.size))]
    bad = int(np.count_nonzero((drawn.sum(axis=1) == 0) | (drawn.sum(axis=1) == y.size)))
    with pytest.raises(ValueError) as error:
        bootstrap_ci((y, np.arange(y.size, dtype=float)), statistic=roc_auc, n_resamples=50, rng=0)
    assert 0 < bad < 50 and str(error.value) == (
        f"`statistic` returned {bad} non-finite value(s) out of 50 (a zero denominator, or a resample "
        "without positives?); a bootstrap interval needs a finite value on every resample.")


@pytest.mark.parametrize("labels", [np.r_[1.0, np.zeros(9)], np.r_[0.0, np.ones(9)], np.r_[np.zeros(9), 1.0]])
def test_the_auc_jackknife_of_a_one_item_class_is_zero_over_zero(labels):
    """Leaving out the only item of a class leaves 0 pairs of 0: NaN, refused, and no numpy warning."""
    from sigeval._bootstrap_engine import AUCStatistic, CallableStatistic, Units

    s = np.random.default_rng(0).normal(size=10)
    for scores in ((s,), (s, s[::-1])):
        samples = tuple((labels, x) for x in scores)
        engine = AUCStatistic(labels, scores, CallableStatistic(_auc_generic, samples, Units(None, 10)))
        with warnings.catch_warnings(), np.errstate(all="raise"):
            warnings.simplefilter("error")
            with pytest.raises(ValueError, match=r"non-finite value\(s\) on leaving an item out"):
                engine.jackknife()

"""sigeval.resampling against scipy, brute-force references and the seed article's constructions."""

import itertools
import warnings

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    average_precision,
    bootstrap_ci,
    paired_bootstrap_ci,
    paired_permutation_test,
    proportion_ci,
    ratio_of_sums,
    resampling,
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
    for chunk in (resampling._CHUNK_ELEMENTS, 1_000):
        monkeypatch.setattr(resampling, "_CHUNK_ELEMENTS", chunk)
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
    perfect = average_precision(np.array([[[0.9, 0.8]]]), np.array([[[1, 1]]]), np.array([[2]]))
    assert perfect[0] == 1.0
    # One FP ranked first: precisions 1/2 and 2/3 at the TPs; one object missed.
    ap = average_precision(np.array([[[0.9, 0.8, 0.7]]]), np.array([[[0, 1, 1]]]), np.array([[3]]))
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
        (dict(data=np.ones((3, 2)) * np.inf, statistic=ratio_of_sums), r"`data` holds infinite values"),
        (dict(data=[]), r"`data` must hold at least 1 value"),
        (dict(data=()), r"`data` must not be an empty tuple"),
        (dict(data=np.empty((0, 3)), statistic=ratio_of_sums), r"`data` must hold at least one item"),
        (dict(data=(X, X[:4]), statistic=ratio_of_sums), r"The arrays of `data` must share axis 0.*\[5, 4\]"),
        (dict(data=(X, X)), r"statistic='mean' needs `data` to be one 1-D array"),
        (dict(data=X, statistic="median"), r"`statistic` must be 'mean' or a callable; got 'median'"),
        (dict(data=X, n_resamples=0), r"`n_resamples` must be an integer >= 2; got 0"),
        (dict(data=X, n_resamples=1), r"`n_resamples` must be an integer >= 2; got 1"),
        (dict(data=X, method="studentized"), r"`method` must be one of 'percentile', 'basic', 'bca'; got 'studentized'"),
        (dict(data=X, confidence_level=1.5), r"`confidence_level` must be strictly between 0 and 1"),
        (dict(data=X, confidence_level=0), r"`confidence_level` must be strictly between 0 and 1"),
        (dict(data=X, groups=[0, 0, 1]), r"`groups` must hold one label per item, 5 in all; got shape \(3,\)"),
        (dict(data=X, groups=[0, 0, 1, 1, np.nan]), r"`groups` holds NaN labels at position\(s\) \[4\]"),
        (dict(data=X, statistic=lambda x, axis: x.mean()), r"`statistic` must return one value per resample.*got shape \(\)"),
        (dict(data=X, statistic=lambda x, axis: x), r"must return shape \(\d+,\); got shape \(\d+, 5\)"),
        (dict(data=(X, X * 0), statistic=ratio_of_sums), r"`statistic` returned \d+ non-finite value"),
        (dict(data=X, groups=[0, 0, 1, 1, 1], statistic=lambda x, axis: x.mean(axis=axis)), r"non-finite.*NaN-aware"),
    ],
)
def test_bootstrap_ci_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        bootstrap_ci(**{"rng": 0, "n_resamples": 20, **kwargs})


def test_bootstrap_rejects_wrong_types():
    with pytest.raises(TypeError, match="`n_resamples` must be an integer >= 2; got 100.0"):
        bootstrap_ci(X, n_resamples=100.0)
    with pytest.raises(TypeError, match="`rng` must be a numpy.random.Generator, an integer seed or None; got str"):
        bootstrap_ci(X, rng="seed")
    with pytest.raises(TypeError, match="`statistic` must be 'mean' or a callable; got int"):
        bootstrap_ci(X, statistic=3)
    with pytest.raises(TypeError, match="`statistic` must accept the keyword `axis`"):
        bootstrap_ci(X, statistic=lambda x: x.mean(axis=1))
    with pytest.raises(TypeError, match="`data` must hold numbers"):
        bootstrap_ci(["a", "b"])
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
    with pytest.raises(ValueError, match=r"`numerator` must have a leading resample axis.*pass `x\[None\]`"):
        ratio_of_sums(X, X)
    with pytest.raises(ValueError, match=r"`numerator` and `denominator` must have the same shape"):
        ratio_of_sums(np.ones((2, 3)), np.ones((2, 4)))
    scores = np.ones((1, 2, 3))
    with pytest.raises(ValueError, match=r"`is_true_positive` must have the shape of `scores`"):
        average_precision(scores, np.ones((1, 2, 2)), np.ones((1, 2)))
    with pytest.raises(ValueError, match=r"`n_positives` must have shape \(batch, n_images\) = \(1, 2\)"):
        average_precision(scores, np.ones((1, 2, 3)), np.ones((1, 3)))
    with pytest.raises(ValueError, match=r"marks 6 true positives but `n_positives` counts only 2"):
        average_precision(scores, np.ones((1, 2, 3)), np.ones((1, 2)))


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

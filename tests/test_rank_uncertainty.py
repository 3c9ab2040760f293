"""sigeval.rank_uncertainty: rank stability over datasets, bootstrap ranks over test items.

The first tests live in test_ranking.py; these cover the boundaries, the arguments passed
through, the callable path and its chunks, and the error messages.
"""

import re
import warnings

import numpy as np
import pytest

from sigeval import adjust_pvalues, bootstrap_ranks, nemenyi_cd, rank_stability
from sigeval import rank_uncertainty as ru
from sigeval._ranks import within_ranks


def _index_bootstrap(data, n_resamples, seed):
    """Metrics of explicit index resamples, the draws bootstrap_ranks makes with that seed."""
    n = data.shape[0]
    idx = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
    return data[idx].mean(axis=1)


# --------------------------------------------------------------------------- rank stability


def test_rank_stability_fields_and_arguments_passed_through():
    x = np.random.default_rng(1).normal(size=(9, 4)) + [0.0, 0.3, 0.6, 0.9]
    res = rank_stability(x, n_resamples=50, alpha=0.10, rng=0)
    assert res.models == (0, 1, 2, 3)
    assert res.critical_difference == nemenyi_cd(4, 9, alpha=0.10)
    assert (res.n_resamples, res.alpha) == (50, 0.10)
    # Lower is better reverses every rank.
    low = rank_stability(-x, n_resamples=50, alpha=0.10, higher_is_better=False, rng=0)
    np.testing.assert_array_equal(low.resampled_mean_ranks, res.resampled_mean_ranks)
    assert rank_stability(x[:3], rng=0).n_resamples == 10_000


def test_rank_stability_a_difference_equal_to_the_cd_separates(monkeypatch):
    # With N = 4 datasets, resampled differences of mean ranks are multiples of 1/4 (up to
    # rounding); at a CD of exactly 1/2, |R_i - R_j| >= CD must count those equal to it.
    x = np.array([[3.0, 2.0, 1.0], [1.0, 2.0, 3.0], [2.0, 3.0, 1.0], [3.0, 1.0, 2.0]])
    monkeypatch.setattr(ru, "nemenyi_cd", lambda k, n, alpha: 0.5)
    res = rank_stability(x, n_resamples=400, rng=4)
    ranks = within_ranks(x, True)
    r = _index_bootstrap(ranks, 400, 4)
    for i, j in [(0, 1), (0, 2), (1, 2)]:
        gap = np.round(np.abs(r[:, i] - r[:, j]) * 4)  # in quarters, exactly
        assert np.any(gap == 2)
        assert res.separation[i, j] == np.mean(gap >= 2)


def test_rank_stability_bad_arguments_name_themselves():
    x = np.eye(3)
    with pytest.raises(TypeError, match="`higher_is_better` must be True or False"):
        rank_stability(x, higher_is_better=1, rng=0)
    for func in (rank_stability, bootstrap_ranks):
        with pytest.raises(ValueError, match="`n_resamples` must be an integer >= 1; got 0"):
            func(x, n_resamples=0)


def test_memory_refusal_reports_the_size_of_the_resampled_arrays():
    # rank_stability: draws and counts (4 N), mean ranks (k) and pairwise differences k(k - 1)
    # per resample; bootstrap_ranks: 4 k values and k^2 booleans (k^2 / 8 floats) per resample.
    n, k, b = 5, 3, 10**12
    tib = b * (4 * n + k + k * (k - 1)) * 8 / 2**40
    with pytest.raises(ValueError, match=rf"^`n_resamples` = {b} would need {tib:,.1f} TiB of memory "
                                         r"for the resampled mean ranks; .* smaller `n_resamples`"):
        rank_stability(np.eye(n, k), n_resamples=b)
    tib = b * (4 * k + k * k / 8) * 8 / 2**40
    with pytest.raises(ValueError, match=rf"^`n_resamples` = {b} would need {tib:,.1f} TiB of memory "
                                         r"for the resampled metrics and ranks; .* smaller `n_resamples`"):
        bootstrap_ranks(np.eye(n, k), n_resamples=b)


# --------------------------------------------------------------------------- bootstrap ranks


def test_bootstrap_ranks_leader_need_not_be_the_first_model():
    rng = np.random.default_rng(2)
    correct = (rng.random((200, 3)) < [0.6, 0.7, 0.9]).astype(float)
    res = bootstrap_ranks(correct, n_resamples=300, alpha=0.1, rng=3)
    assert res.leader == 2 and res.rank.tolist() == [3, 2, 1]
    assert (res.alpha, res.confidence_level, res.n_resamples) == (0.1, 0.9, 300)
    metrics = _index_bootstrap(correct, 300, 3)
    d = metrics[:, [2]] - metrics
    np.testing.assert_allclose(res.difference_interval.low, np.percentile(d, 5, axis=0), atol=1e-15)
    np.testing.assert_allclose(res.difference_interval.high, np.percentile(d, 95, axis=0), atol=1e-15)
    assert res.pvalue[2] == 1.0 and res.pvalue_holm[2] == 1.0
    assert bootstrap_ranks(correct[:20], rng=0).n_resamples == 10_000


def _inverted_cdf(sorted_column, q):
    """The smallest value whose empirical distribution function reaches q."""
    b = sorted_column.size
    return sorted_column[int(np.ceil(b * q - 1e-9)) - 1]


@pytest.mark.parametrize(("n_resamples", "alpha"), [(14, 0.4), (37, 0.6), (37, 0.2), (50, 0.05)])
def test_rank_interval_is_the_inverted_cdf_percentile_of_the_ranks(n_resamples, alpha):
    # Three models of close skill: every rank occurs, and the interval ends are observed ranks
    # (here interpolating between two ranks and truncating would give a lower end).
    correct = (np.random.default_rng(0).random((30, 3)) < [0.75, 0.7, 0.65]).astype(float)
    res = bootstrap_ranks(correct, n_resamples=n_resamples, alpha=alpha, rng=6)
    tail = alpha / 2
    ranks = np.sort(res.rank_distribution, axis=0)
    for j in range(3):
        assert res.rank_interval.low[j] == _inverted_cdf(ranks[:, j], tail)
        assert res.rank_interval.high[j] == _inverted_cdf(ranks[:, j], 1 - tail)
    assert res.rank_interval.low.dtype.kind == "i" and res.rank_interval.high.dtype.kind == "i"


def test_bootstrap_pvalue_when_the_leader_loses_most_resamples():
    # The leader's per-item advantage is one large item and many small losses: its mean lead is
    # 0.01, yet most resamples put B ahead, so #{d* >= 0} is the smaller count.
    rng = np.random.default_rng(7)
    losses = rng.normal(-1.0, 0.5, 29)
    a = np.append(losses, -losses.sum() + 0.01)
    scores = np.column_stack([a, np.zeros(30)])
    res = bootstrap_ranks(scores, n_resamples=500, rng=8)
    assert res.leader == 0
    d = _index_bootstrap(scores, 500, 8) @ [1.0, -1.0]
    at_most, at_least = np.mean(d <= 0), np.mean(d >= 0)
    assert at_least < at_most
    assert res.pvalue[1] == pytest.approx(2 * at_least)


def test_a_copy_of_the_leader_is_indistinguishable_with_p_one():
    # d* = 0 on every resample: both tails hold all of them, and p is capped at 1.
    correct = (np.random.default_rng(9).random((40, 2)) < [0.8, 0.5]).astype(float)
    res = bootstrap_ranks(correct[:, [0, 0, 1]], n_resamples=200, rng=1)
    assert res.pvalue[1] == 1.0 and res.pvalue_holm[1] == 1.0
    assert res.indistinguishable.tolist() == [True, True, False]
    np.testing.assert_array_equal(res.rank_distribution[:, 1], res.rank_distribution[:, 0])


def test_indistinguishable_is_a_strict_comparison_with_alpha():
    # With 64 resamples the p-values are multiples of 1/32, exact in binary, so alpha = p puts
    # alpha exactly on the adjusted p-value: the leader then beats the model (p <= alpha rejects).
    correct = (np.random.default_rng(11).random((60, 2)) < [0.75, 0.6]).astype(float)
    first = bootstrap_ranks(correct, n_resamples=64, rng=12)
    p = float(first.pvalue_holm[1])
    assert 0 < p < 1 and p * 32 == round(p * 32)
    res = bootstrap_ranks(correct, n_resamples=64, alpha=p, rng=12)
    assert res.pvalue_holm[1] == p == res.alpha
    assert res.indistinguishable.tolist() == [True, False]


def test_callable_statistic_takes_the_same_draws_as_the_mean():
    correct = (np.random.default_rng(13).random((25, 3)) < [0.8, 0.7, 0.75]).astype(float)
    as_mean = bootstrap_ranks(correct, n_resamples=120, rng=14)
    columns = [correct[:, j] for j in range(3)]
    called = bootstrap_ranks(columns, statistic=np.mean, n_resamples=120, rng=14)
    assert called.models == (0, 1, 2)
    # Sums of 0/1 are exact, so both paths give the same metrics to the bit.
    np.testing.assert_array_equal(called.rank_distribution, as_mean.rank_distribution)
    np.testing.assert_array_equal(called.pvalue, as_mean.pvalue)
    np.testing.assert_array_equal(called.estimate, as_mean.estimate)


@pytest.mark.parametrize("statistic", ["mean", np.mean])
def test_resamples_in_chunks_equal_one_batch(monkeypatch, statistic):
    # Chunks of a few rows (of 17 resamples, so the last chunk is short) draw the same items.
    correct = (np.random.default_rng(15).random((20, 2)) < [0.8, 0.7]).astype(float)
    scores = correct if statistic == "mean" else [correct[:, 0], correct[:, 1]]
    whole = bootstrap_ranks(scores, statistic=statistic, n_resamples=17, rng=16)
    monkeypatch.setattr(ru, "_CHUNK_ELEMENTS", 120)  # 6 rows for the mean, 3 for two 1-D arrays
    chunked = bootstrap_ranks(scores, statistic=statistic, n_resamples=17, rng=16)
    np.testing.assert_array_equal(chunked.rank_distribution, whole.rank_distribution)
    np.testing.assert_array_equal(chunked.pvalue, whole.pvalue)
    metrics = _index_bootstrap(correct, 17, 16)
    np.testing.assert_array_equal(chunked.rank_distribution, ru._competition_ranks(metrics))


def test_callable_statistic_on_two_items_and_integer_values():
    # Two test items are enough; an integer-valued statistic still gives float estimates.
    res = bootstrap_ranks({"a": np.array([1, 1]), "b": np.array([0, 1])},
                          statistic=lambda x, axis: (x > 0).sum(axis=axis), n_resamples=20, rng=0)
    assert res.estimate.dtype == np.float64 and res.estimate.tolist() == [2.0, 1.0]
    assert res.leader == "a"


@pytest.mark.parametrize(
    ("scores", "statistic", "error", "match"),
    [
        (np.ones((1, 3)), "mean", ValueError, r"`scores` must hold at least 2 items \(rows\); got 1"),
        (np.ones((5, 2)), np.mean, TypeError,
         r"With a callable `statistic`, `scores` must be a dict or a sequence with one entry per model: "
         r"an array or a tuple of arrays sharing axis 0 \(the test items\); got ndarray"),
        (np.ones((5, 2)), 5, TypeError, r"`statistic` must be 'mean' or a callable; got int"),
        ({"a": np.ones(5)}, np.mean, ValueError, r"`scores` must hold at least 2 models; got 1"),
        ({"a": np.ones(4), "b": np.ones(4) * 1j}, np.mean, TypeError, r"`scores\['b'\]` must hold real numbers"),
        ({"a": 3.0, "b": 4.0}, np.mean, ValueError,
         r"Every model's arrays must share axis 0, the same test items in the same order; got lengths \[-1\]"),
        ({"a": np.ones(4), "b": 4.0}, np.mean, ValueError, r"must share axis 0"),
        ({"a": np.ones(1), "b": np.ones(1)}, np.mean, ValueError, r"`scores` must hold at least 2 test items; got 1"),
        ([np.ones(5), np.ones(5)], lambda x, axis: x.mean(), ValueError,
         r"`statistic` must return one value per resample: given arrays of shape \(batch, n_items, \.\.\.\) "
         r"with batch=1, it must return shape \(1,\); got shape \(\)"),
        ([np.ones(5), np.zeros(5)], lambda x, axis: np.log(x).mean(axis=axis), ValueError,
         r"^`statistic` returned NaN or infinity on a resample\.$"),
    ],
)
def test_bootstrap_ranks_rejects_bad_input(scores, statistic, error, match):
    with pytest.raises(error, match=match), np.errstate(divide="ignore"):
        bootstrap_ranks(scores, statistic=statistic, n_resamples=5, rng=0)


def test_bootstrap_ranks_holm_over_the_comparisons_with_the_leader():
    correct = (np.random.default_rng(17).random((80, 4)) < [0.7, 0.75, 0.6, 0.72]).astype(float)
    res = bootstrap_ranks(correct, n_resamples=200, rng=18)
    others = np.arange(4) != np.flatnonzero(np.asarray(res.models) == res.leader)[0]
    np.testing.assert_allclose(res.pvalue_holm[others], adjust_pvalues(res.pvalue[others], method="holm"))


# --------------------------------------------------------------------------- rank confidence sets


def _brute_rank_sets(x, n_resamples, seed, confidence_level):
    """Mogstad et al.'s single-step sets written with loops over pairs and models."""
    n, k = x.shape
    idx = np.random.default_rng(seed).integers(0, n, size=(n_resamples, n))
    pairs = [(i, j) for i in range(k) for j in range(i + 1, k)]
    t_star = np.zeros(n_resamples)
    se = {}
    for i, j in pairs:
        d = x[:, i] - x[:, j]
        se[i, j] = d.std(ddof=1) / np.sqrt(n)
        t_star = np.maximum(t_star, np.abs(d[idx].mean(axis=1) - d.mean()) / se[i, j])
    c = np.sort(t_star)[int(np.ceil(confidence_level * n_resamples)) - 1]
    low, high = np.ones(k, int), np.full(k, k)
    for i, j in pairs:
        d = x[:, i].mean() - x[:, j].mean()
        if d - c * se[i, j] > 0:  # i above j
            low[j] += 1
            high[i] -= 1
        if d + c * se[i, j] < 0:  # j above i
            low[i] += 1
            high[j] -= 1
    return c, low, high


def test_rank_confidence_sets_match_a_loop_over_pairs():
    rng = np.random.default_rng(3)
    x = rng.normal(size=(150, 5)) + [0.0, 0.05, 0.3, 0.32, 0.6] + rng.normal(size=(150, 1))
    res = ru.rank_confidence_sets(x, n_resamples=999, confidence_level=0.9, rng=11)
    c, low, high = _brute_rank_sets(x, 999, 11, 0.9)
    assert res.critical_value == pytest.approx(c, rel=1e-12)
    np.testing.assert_array_equal(res.rank_interval.low, low)
    np.testing.assert_array_equal(res.rank_interval.high, high)
    assert res.best_set == tuple(np.flatnonzero(low == 1))
    # The pairwise intervals are antisymmetric and centred on the differences.
    d_low, d_high = res.difference_interval
    np.testing.assert_allclose(d_low, -d_high.T)
    diff = x.mean(axis=0)[:, None] - x.mean(axis=0)[None, :]
    np.testing.assert_allclose((d_low + d_high) / 2, diff, atol=1e-12)
    assert (res.confidence_level, res.n_resamples) == (0.9, 999)
    assert res.estimate.shape == (5,)
    np.testing.assert_allclose(res.estimate, x.mean(axis=0), rtol=1e-15)


def test_rank_confidence_sets_critical_value_between_one_test_and_bonferroni():
    # Independent columns: the max over 3 correlated pairs lies between the single-test
    # quantile 1.96 and Bonferroni's z_{1 - 0.025/3} = 2.394.
    x = np.random.default_rng(0).normal(size=(4000, 3))
    res = ru.rank_confidence_sets(x, n_resamples=4000, rng=1)
    assert 1.96 < res.critical_value < 2.394
    assert res.rank_interval.low.tolist() == [1, 1, 1] and res.rank_interval.high.tolist() == [3, 3, 3]
    assert res.best_set == (0, 1, 2)


def test_rank_confidence_sets_separated_and_identical_models():
    rng = np.random.default_rng(2)
    base = rng.random((500, 1)) < 0.5
    x = np.hstack([base, base, rng.random((500, 1)) < 0.1]).astype(float)
    res = ru.rank_confidence_sets(x, n_resamples=500, rng=0)
    # Two identical columns: a zero-width interval at 0, tied, both possibly best.
    assert res.difference_interval.low[0, 1] == res.difference_interval.high[0, 1] == 0.0
    assert res.rank.tolist() == [1, 1, 3]
    assert res.rank_interval.low.tolist() == [1, 1, 3] and res.rank_interval.high.tolist() == [2, 2, 3]
    assert res.best_set == (0, 1)
    # A constant non-zero difference separates (the bootstrap sees no variation).
    y = np.column_stack([np.arange(10.0), np.arange(10.0) + 1])
    const = ru.rank_confidence_sets(y, n_resamples=50, rng=0)
    assert const.critical_value == 0.0 and const.best_set == (1,)
    assert const.rank_interval.low.tolist() == [2, 1]


def test_rank_confidence_sets_names_models_from_columns():
    pd = pytest.importorskip("pandas")
    x = np.random.default_rng(4).normal(size=(300, 3)) + [0.0, 0.0, 1.0]
    res = ru.rank_confidence_sets(pd.DataFrame(x, columns=["a", "b", "c"]), n_resamples=300, rng=0)
    assert res.models == ("a", "b", "c") and res.best_set == ("c",)
    assert ru.rank_confidence_sets(x[:20], rng=0).n_resamples == 10_000


@pytest.mark.parametrize(
    "means",
    [
        [0.0, 0.0, 0.0, 0.0],  # every pair tied: the hardest case, all four ranks are 1
        [0.0, 0.1, 0.1, 0.25, 0.5],  # ties and gaps of one to three standard errors
    ],
)
def test_rank_confidence_sets_cover_every_true_rank_at_once(means):
    # Simultaneous coverage at known means: P(every true rank in its interval) must be at least
    # nominal minus two Monte Carlo standard errors. Correlated, skewed per-item scores.
    n, reps, level = 200, 600, 0.9
    means = np.asarray(means)
    k = means.size
    true_rank = 1 + np.sum(means[None, :] > means[:, None], axis=1)
    rng = np.random.default_rng(20)
    covered = np.empty(reps, bool)
    for r in range(reps):
        shared = rng.exponential(size=(n, 1))
        x = 0.7 * shared + rng.exponential(size=(n, k)) - 1.7 + means * 1.0
        res = ru.rank_confidence_sets(x, confidence_level=level, n_resamples=400, rng=rng)
        covered[r] = np.all((res.rank_interval.low <= true_rank) & (true_rank <= res.rank_interval.high))
    mc_se = np.sqrt(level * (1 - level) / reps)
    assert covered.mean() >= level - 2 * mc_se


@pytest.mark.parametrize(
    "kwargs, error, message",
    [
        (dict(scores=[[0.1, 0.2, 0.3]]), ValueError, "at least 2 items"),
        (dict(scores=[[0.1], [0.2]]), ValueError, "at least 2 models"),
        (dict(scores=[0.1, 0.2]), ValueError, "two-dimensional"),
        (dict(scores=[[0.1, np.nan], [0.2, 0.3]]), ValueError, "NaN or infinite"),
        (dict(scores=[["a", "b"], ["c", "d"]]), TypeError, "`scores`"),
        (dict(scores=np.eye(3), confidence_level=1.0), ValueError, "`confidence_level`"),
        (dict(scores=np.eye(3), confidence_level="0.9"), TypeError, "`confidence_level`"),
        (dict(scores=np.eye(3), n_resamples=0), ValueError, "`n_resamples`"),
        (dict(scores=np.eye(3), n_resamples=10.5), TypeError, "`n_resamples`"),
        (dict(scores=np.eye(3), rng="seed"), TypeError, "`rng`"),
    ],
)
def test_rank_confidence_sets_refuse_bad_input(kwargs, error, message):
    with pytest.raises(error, match=message):
        ru.rank_confidence_sets(**kwargs)


def test_rank_confidence_sets_chunks_give_the_same_answer(monkeypatch):
    x = np.random.default_rng(5).normal(size=(40, 4))
    whole = ru.rank_confidence_sets(x, n_resamples=301, rng=7)
    monkeypatch.setattr(ru, "_CHUNK_ELEMENTS", 100)  # 2 resamples a chunk
    chunked = ru.rank_confidence_sets(x, n_resamples=301, rng=7)
    assert chunked.critical_value == whole.critical_value


def test_rank_confidence_sets_with_more_pairs_than_items_match_a_loop_over_pairs():
    """7 models on 6 items: 21 pairs, so the pair count (not the item count) sets the chunk size."""
    x = np.random.default_rng(8).normal(size=(6, 7)) + np.arange(7.0)
    res = ru.rank_confidence_sets(x, n_resamples=199, confidence_level=0.9, rng=4)
    c, low, high = _brute_rank_sets(x, 199, 4, 0.9)
    assert res.critical_value == pytest.approx(c, rel=1e-12)
    np.testing.assert_array_equal(res.rank_interval.low, low)
    np.testing.assert_array_equal(res.rank_interval.high, high)


def test_rank_confidence_sets_near_the_float64_limits():
    # Ranks do not depend on the scale: values near 1e308 give the ranks of the same values near 1.
    x = np.random.default_rng(6).normal(size=(200, 3)) + [0.0, 0.5, 1.0]
    small = ru.rank_confidence_sets(x, n_resamples=300, rng=0)
    huge = ru.rank_confidence_sets(x * 2.0**1020, n_resamples=300, rng=0)
    assert huge.critical_value == pytest.approx(small.critical_value, rel=1e-12)
    np.testing.assert_array_equal(huge.rank_interval.low, small.rank_interval.low)
    np.testing.assert_allclose(huge.estimate, small.estimate * 2.0**1020, rtol=1e-12)
    # Near 1e160 the values fit float64 but their squares (in the standard errors) do not.
    large = ru.rank_confidence_sets(x * 2.0**530, n_resamples=300, rng=0)
    assert large.critical_value == pytest.approx(small.critical_value, rel=1e-12)
    np.testing.assert_allclose(large.difference_interval.low, small.difference_interval.low * 2.0**530, rtol=1e-12)
    np.testing.assert_allclose(huge.difference_interval.low, small.difference_interval.low * 2.0**1020, rtol=1e-12)
    np.testing.assert_allclose(huge.difference_interval.high, small.difference_interval.high * 2.0**1020, rtol=1e-12)
    # Differences that overflow float64 are refused with their own message, without a
    # RuntimeWarning from the overflow on the way.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=re.escape(
            "The result overflows float64 (difference_interval not finite): the values of `scores` are "
            "too large, or too far apart in scale, for float64 arithmetic; rescale them (e.g. divide by "
            "a power of ten).")):
            ru.rank_confidence_sets(np.array([[1e308, -1e308], [1.2e308, -1e308], [1e308, -1.3e308]]),
                                    n_resamples=20)


def test_rank_confidence_sets_small_values_and_widely_spread_scales():
    # Scores in [0, 0.01]: per-item differences spread by far less than 1 still vary, and a
    # power-of-two rescaling gives the same critical value and ranks.
    x = np.random.default_rng(3).normal(size=(80, 3)) + [0.0, 0.4, 0.8]
    base = ru.rank_confidence_sets(x, n_resamples=300, rng=2)
    tiny = ru.rank_confidence_sets(x * 2.0**-10, n_resamples=300, rng=2)
    assert tiny.critical_value == pytest.approx(base.critical_value, rel=1e-12) and base.critical_value > 1
    np.testing.assert_array_equal(tiny.rank_interval.low, base.rank_interval.low)
    # A leader near 1e110 and two models near 1e-150: the values are ordinary (their squares stay in
    # float64), so nothing is rescaled and the tiny pair's differences do not underflow.
    rng = np.random.default_rng(12)
    n = 60
    y = np.column_stack([1e110 * (1 + 0.1 * rng.normal(size=n)), 1e-150 * rng.normal(size=n),
                         1e-150 * (rng.normal(size=n) + 1)])
    res = ru.rank_confidence_sets(y, n_resamples=400, rng=3)
    c, low, high = _brute_rank_sets(y, 400, 3, 0.95)
    assert res.critical_value == pytest.approx(c, rel=1e-12)
    assert res.rank_interval.low.tolist() == low.tolist() == [1, 3, 2]
    assert res.rank_interval.high.tolist() == high.tolist() == [1, 3, 2]


def test_rank_confidence_sets_single_resample_is_its_own_critical_value():
    # With one resample, c is that resample's largest studentized deviation.
    x = np.random.default_rng(3).normal(size=(30, 3)) + [0.0, 0.4, 0.8]
    res = ru.rank_confidence_sets(x, n_resamples=1, rng=5)
    c, low, high = _brute_rank_sets(x, 1, 5, 0.95)
    assert res.critical_value == pytest.approx(c, rel=1e-12) and c > 0
    np.testing.assert_array_equal(res.rank_interval.low, low)


def test_rank_confidence_sets_memory_refusal_counts_pairs_and_resamples():
    # n x pairs per-item differences, and pairs + 2 values per resample, k(k - 1)/2 pairs.
    n, k, b = 5, 3, 10**12
    tib = (n * 3 + b * (3 + 2)) * 8 / 2**40
    with pytest.raises(ValueError, match=rf"^`n_resamples` = {b} would need {tib:,.1f} TiB of memory "
                                         r"for the pairwise differences of every resample; the limit is "
                                         r"4\.0 GiB\. Choose a smaller `n_resamples`\.$"):
        ru.rank_confidence_sets(np.eye(n, k), n_resamples=b)
    # Many models on few items: the per-item differences alone exceed the limit, and the message blames the
    # models, not n_resamples (issue 35: it used to say "`n_resamples` = 1 would need 4.5 GiB").
    n, k = 300, 2000
    pairs = k * (k - 1) // 2
    gib = (n * pairs + 2 * pairs) * 8 / 2**30
    assert f"{gib:,.1f}" == "4.5"
    with pytest.raises(ValueError, match=r"^`scores` = 300 items x 2,000 models would need 4\.5 GiB of memory for "
                                         r"the per-item differences of all 1,999,000 pairs of models; the limit is "
                                         r"4\.0 GiB\. Rank sets compare every pair of models: pass fewer models "
                                         r"\(for example the leading ones\), or fewer items\.$"):
        ru.rank_confidence_sets(np.zeros((n, k)), n_resamples=1)


def test_rank_confidence_sets_memory_counts_at_their_limits(monkeypatch):
    # 4 items x 3 models: 3 pairs. The data: 4 x 3 differences and 2 numbers per pair (18 floats); each
    # resample adds the 3 pairs' means and 2 more numbers (5 floats).
    import sigeval._validation as validation

    scores = np.random.default_rng(0).normal(size=(4, 3))
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 8 * 18)
    assert ru.rank_confidence_sets(scores, n_resamples=1, rng=0).n_resamples == 1
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 8 * 18 - 1)
    with pytest.raises(ValueError, match=r"^`scores` = 4 items x 3 models would need 144\.0 bytes of memory"):
        ru.rank_confidence_sets(scores, n_resamples=1, rng=0)
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 8 * (12 + 10 * 5))
    assert ru.rank_confidence_sets(scores, n_resamples=10, rng=0).n_resamples == 10
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 8 * (12 + 10 * 5) - 1)
    with pytest.raises(ValueError, match=r"^`n_resamples` = 10 would need 496\.0 bytes of memory for the pairwise "
                                         r"differences of every resample"):
        ru.rank_confidence_sets(scores, n_resamples=10, rng=0)


def test_rank_confidence_sets_refuses_many_models_before_building_their_pairs():
    # 4,000 models have 8 million pairs: their indices alone would take 128 MB before the refusal.
    import tracemalloc

    tracemalloc.start()
    try:
        with pytest.raises(ValueError, match=r"^`n_resamples` = 1000000 would need .* TiB of memory"):
            ru.rank_confidence_sets(np.zeros((3, 4000)), n_resamples=10**6)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 10 * 2**20


def test_rank_confidence_sets_critical_value_matches_the_gaussian_one_of_csranks():
    # csranks (Mogstad et al.'s R package) draws the estimates from N(0, Sigma) instead of
    # resampling items; with many items the two critical values agree.
    rng = np.random.default_rng(8)
    x = rng.normal(size=(3000, 4)) @ np.array([[1, 0.5, 0, 0], [0, 1, 0.3, 0], [0, 0, 1, 0.8], [0, 0, 0, 1.5]])
    res = ru.rank_confidence_sets(x, n_resamples=20_000, rng=9)
    sigma = np.cov(x, rowvar=False) / x.shape[0]
    z = np.random.default_rng(10).multivariate_normal(np.zeros(4), sigma, size=200_000)
    i, j = np.triu_indices(4, 1)
    sd = np.sqrt(sigma[i, i] + sigma[j, j] - 2 * sigma[i, j])
    gaussian = np.quantile((np.abs(z[:, i] - z[:, j]) / sd).max(axis=1), 0.95)
    assert res.critical_value == pytest.approx(gaussian, abs=0.04)

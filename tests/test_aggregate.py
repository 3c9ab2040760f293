"""sigeval.aggregate: IQM, optimality gap, mean, median, the stratified bootstrap, performance profiles.

Checked against scipy.stats.trim_mean, hand computations, rliable.metrics
(installed only in the test run), and a plain loop over the same bootstrap
draws; the coverage of the IQM interval is simulated at a known truth.
"""

import numpy as np
import pytest
from scipy import optimize, stats

from sigeval import (
    AGGREGATES,
    AggregateInterval,
    PerformanceProfile,
    aggregate_ci,
    aggregate_mean,
    aggregate_median,
    iqm,
    optimality_gap,
    performance_profile,
)
from sigeval import aggregate as aggregate_module

SHAPES = [(1, 1), (1, 2), (3, 1), (1, 7), (2, 3), (5, 4), (3, 11), (10, 26)]


def _matrix(shape, seed=0, ties=False):
    rng = np.random.default_rng(seed)
    x = rng.gamma(2.0, 0.5, size=shape)
    return np.round(x, 1) if ties else x


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ties", [False, True])
def test_point_aggregates_against_scipy_and_numpy(shape, ties):
    x = _matrix(shape, ties=ties)
    assert iqm(x) == pytest.approx(stats.trim_mean(x, 0.25, axis=None), rel=1e-12)
    assert aggregate_mean(x) == pytest.approx(x.mean(), rel=1e-12)
    assert aggregate_median(x) == pytest.approx(np.median(x.mean(axis=0)), rel=1e-12)
    for gamma in (0.5, 1.0, 2.0):
        by_hand = gamma - np.mean([min(v, gamma) for v in x.ravel()])
        assert optimality_gap(x, gamma=gamma) == pytest.approx(by_hand, rel=1e-12, abs=1e-15)


def test_point_aggregates_against_rliable():
    metrics = pytest.importorskip("rliable.metrics")
    for shape in SHAPES:
        x = _matrix(shape, seed=1)
        assert iqm(x) == pytest.approx(metrics.aggregate_iqm(x), rel=1e-12)
        assert aggregate_mean(x) == pytest.approx(metrics.aggregate_mean(x), rel=1e-12)
        assert aggregate_median(x) == pytest.approx(metrics.aggregate_median(x), rel=1e-12)
        assert optimality_gap(x, gamma=1.2) == pytest.approx(metrics.aggregate_optimality_gap(x, 1.2), rel=1e-12)


def test_worked_examples():
    x = [[0.1, 0.5, 0.9, 7.0], [0.2, 0.6, 1.0, 8.0]]
    assert iqm(x) == pytest.approx((0.5 + 0.6 + 0.9 + 1.0) / 4)  # 8 scores, 2 cut from each end
    assert aggregate_mean(x) == pytest.approx(18.3 / 8)
    assert aggregate_median(x) == pytest.approx((0.55 + 0.95) / 2)
    assert optimality_gap([[0.5, 1.5], [0.9, 0.7]]) == pytest.approx(1 - 3.1 / 4)
    assert optimality_gap([[2.0, 3.0]], gamma=2.5) == pytest.approx(0.25)
    # The outlier task moves the mean, not the IQM.
    y = np.array(x)
    y[:, 3] *= 100
    assert iqm(y) == pytest.approx(iqm(x)) and aggregate_mean(y) > 50 * aggregate_mean(x)


def test_huge_and_tiny_scores_do_not_overflow():
    x = np.array([[1.5e308, 1.7e308], [1.6e308, 1.2e308]])
    assert aggregate_mean(x) == pytest.approx(1.5e308)
    assert iqm(x) == pytest.approx(1.55e308)
    assert aggregate_median(x) == pytest.approx(1.5e308)
    assert optimality_gap(x, gamma=1.6e308) == pytest.approx(1.6e308 - 1.475e308)  # 1.7e308 counts as 1.6e308
    tiny = x / 1e616 * 1e-30
    assert iqm(tiny) == pytest.approx(stats.trim_mean(tiny, 0.25, axis=None), rel=1e-12)
    with pytest.raises(ValueError, match="overflows float64"):
        optimality_gap([[-1.7e308]], gamma=1.7e308)


def _quantile_integral_iqm(x, steps=64):
    """2 * the integral of the empirical quantile function over [1/4, 3/4], by the midpoint rule on a grid
    whose cells never straddle a jump of the quantile function (each score owns steps*4 cells)."""
    v = np.sort(np.ravel(x))
    n = v.size
    u = (np.arange(4 * steps * n) + 0.5) / (4 * steps * n)
    inside = u[(u > 0.25) & (u < 0.75)]
    return 2 * np.sum(v[np.ceil(inside * n).astype(int) - 1]) / (4 * steps * n)


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("ties", [False, True])
def test_interpolated_iqm_is_the_iqm_of_the_empirical_distribution(shape, ties):
    x = _matrix(shape, seed=8, ties=ties)
    exact = iqm(x, interpolate=True)
    # Four copies of every score: a quarter of 4N is N copies, a whole number, so scipy's cut is exact.
    assert exact == pytest.approx(stats.trim_mean(np.repeat(x.ravel(), 4), 0.25), rel=1e-12)
    assert exact == pytest.approx(_quantile_integral_iqm(x), rel=1e-12)
    if x.size % 4 == 0:  # a whole quarter: both cuts agree
        assert exact == pytest.approx(iqm(x), rel=1e-12)


def test_interpolated_iqm_worked_examples():
    # 6 scores: 1.5 cut from each end; 1 and 4 keep half their weight.
    assert iqm([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], interpolate=True) == pytest.approx((0.5 * 1 + 2 + 3 + 0.5 * 4) / 3)
    assert iqm([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]) == pytest.approx((1 + 2 + 3 + 4) / 4)  # int(1.5) = 1 cut
    assert iqm([[7.0]], interpolate=True) == 7.0  # one score: a quarter of it cut from each end
    assert iqm([[1.0, 3.0]], interpolate=True) == pytest.approx(2.0)
    # 18 scores: 4.5 cut, the 5th and 14th smallest at half weight, nine scores' worth kept.
    x = np.arange(18.0).reshape(3, 6)
    assert iqm(x, interpolate=True) == pytest.approx((0.5 * 4 + sum(range(5, 13)) + 0.5 * 13) / 9)


def test_interpolated_iqm_equals_rliable_when_a_quarter_is_whole():
    metrics = pytest.importorskip("rliable.metrics")
    for shape in [(2, 2), (4, 3), (5, 4), (10, 26)]:
        x = _matrix(shape, seed=9)
        assert iqm(x, interpolate=True) == pytest.approx(metrics.aggregate_iqm(x), rel=1e-12)


def test_the_rounded_cut_biases_the_iqm_and_the_interpolated_one_hardly():
    # Six normal tasks, one far below the others (the chapter's matcher A); three runs each: 18 scores.
    mu = np.array([0.858, 0.954, 0.748, 0.734, 0.764, 0.462])
    sigma = 0.0139
    truth = _mixture_iqm(mu, sigma)
    sims = mu + sigma * np.random.default_rng(11).standard_normal((4000, 3, mu.size))
    rounded = np.array([iqm(s) for s in sims])
    interpolated = np.array([iqm(s, interpolate=True) for s in sims])
    error = interpolated.std(ddof=1) / np.sqrt(4000)
    # Measured: rounded cut +0.00253 (37 Monte Carlo errors of 0.00007), interpolated +0.00008.
    assert rounded.mean() - truth > 20 * error
    assert abs(interpolated.mean() - truth) < 0.1 * (rounded.mean() - truth)


# --------------------------------------------------------------------------- the stratified bootstrap


def _loop_bootstrap(x, counts, statistic, gamma=1.0):
    """Each resample built from the counts (runs drawn within each task), then the statistic, one at a time."""
    n_runs, n_tasks = x.shape
    out = []
    for c in counts:  # c: tasks x runs
        resample = np.column_stack([np.repeat(x[:, t], c[t]) for t in range(n_tasks)])
        out.append({
            "iqm": lambda m: stats.trim_mean(m, 0.25, axis=None),
            "iqm_interpolated": lambda m: stats.trim_mean(np.repeat(m.ravel(), 4), 0.25),
            "mean": lambda m: m.mean(),
            "median": lambda m: np.median(m.mean(axis=0)),
            "optimality_gap": lambda m: gamma - np.minimum(m, gamma).mean(),
        }[statistic](resample))
    return np.array(out)


@pytest.mark.parametrize("statistic", AGGREGATES)
@pytest.mark.parametrize("shape", [(2, 1), (3, 4), (5, 7), (4, 13)])
def test_stratified_bootstrap_matches_a_plain_loop_over_the_same_draws(statistic, shape):
    x = _matrix(shape, seed=2, ties=True)
    res = aggregate_ci(x, statistic=statistic, n_resamples=300, confidence_level=0.9, gamma=1.1, rng=4)
    counts = np.random.default_rng(4).multinomial(shape[0], np.full(shape[0], 1 / shape[0]), size=(300, shape[1]))
    loop = _loop_bootstrap(x, counts, statistic, gamma=1.1)
    np.testing.assert_allclose(res.bootstrap_distribution, loop, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(tuple(res.confidence_interval), np.quantile(loop, [0.05, 0.95]), rtol=1e-12)
    assert isinstance(res, AggregateInterval)
    assert (res.aggregate, res.n_runs, res.n_tasks, res.n_resamples, res.confidence_level) == (
        statistic, shape[0], shape[1], 300, 0.9)
    assert res.estimate == pytest.approx(_loop_bootstrap(x, [np.ones(shape[::-1], int)], statistic, 1.1)[0])


@pytest.mark.parametrize("shape", [(2, 1), (3, 2), (3, 6), (5, 7)])
def test_interpolated_iqm_bootstrap_matches_a_plain_loop_over_the_same_draws(shape):
    x = _matrix(shape, seed=10, ties=True)
    res = aggregate_ci(x, interpolate=True, n_resamples=300, rng=5)
    counts = np.random.default_rng(5).multinomial(shape[0], np.full(shape[0], 1 / shape[0]), size=(300, shape[1]))
    loop = _loop_bootstrap(x, counts, "iqm_interpolated")
    np.testing.assert_allclose(res.bootstrap_distribution, loop, rtol=1e-12, atol=1e-15)
    assert res.estimate == pytest.approx(iqm(x, interpolate=True), rel=1e-12)
    # The flag reaches the IQM only: the other aggregates are unchanged by it.
    for statistic in AGGREGATES[1:]:
        kept = aggregate_ci(x, statistic=statistic, n_resamples=50, rng=1)
        flagged = aggregate_ci(x, statistic=statistic, interpolate=True, n_resamples=50, rng=1)
        np.testing.assert_array_equal(kept.bootstrap_distribution, flagged.bootstrap_distribution)


def test_the_tasks_stay_fixed():
    # Runs that agree within every task: every resample is the data itself.
    x = np.tile([0.2, 0.9, 0.5, 3.0], (4, 1))
    for statistic in AGGREGATES:
        res = aggregate_ci(x, statistic=statistic, n_resamples=200, rng=0)
        assert np.ptp(res.bootstrap_distribution) < 1e-12
        assert res.confidence_interval.low == pytest.approx(res.estimate)
    # One noisy task: only it moves the mean of the resamples.
    x[:, 1] = [0.7, 0.8, 0.9, 1.3]
    res = aggregate_ci(x, statistic="mean", n_resamples=4000, rng=0)
    assert np.std(res.bootstrap_distribution) == pytest.approx(np.std(x[:, 1]) / 2 / 4, rel=0.05)


def test_percentile_interval_levels():
    x = _matrix((5, 10), seed=3)
    widths = [np.diff(tuple(aggregate_ci(x, n_resamples=2000, confidence_level=c, rng=0).confidence_interval))[0]
              for c in (0.5, 0.8, 0.95, 0.99)]
    assert np.all(np.diff(widths) > 0)


def _mixture_iqm(mu, sigma):
    """The interquartile mean of the equal mixture of normal tasks N(mu_t, sigma^2), in closed form."""
    def cdf(x):
        return np.mean(stats.norm.cdf((x - mu) / sigma))

    q25 = optimize.brentq(lambda x: cdf(x) - 0.25, mu.min() - 10 * sigma, mu.max() + 10 * sigma)
    q75 = optimize.brentq(lambda x: cdf(x) - 0.75, mu.min() - 10 * sigma, mu.max() + 10 * sigma)
    a, b = (q25 - mu) / sigma, (q75 - mu) / sigma
    inside = mu * (stats.norm.cdf(b) - stats.norm.cdf(a)) - sigma * (stats.norm.pdf(b) - stats.norm.pdf(a))
    return float(np.mean(inside) / 0.5)


def _iqm_coverage(n_runs, replications, mu, sigma, truth):
    rng = np.random.default_rng(n_runs)
    hits = 0
    for _ in range(replications):
        x = mu + sigma * rng.standard_normal((n_runs, mu.size))
        low, high = aggregate_ci(x, n_resamples=500, rng=rng).confidence_interval
        hits += low <= truth <= high
    return hits / replications


def test_the_iqm_interval_coverage_at_a_known_truth():
    # 20 tasks of unequal means; the truth is the IQM of the mixture of the tasks' distributions
    # (the runs are what the stratified bootstrap resamples; the tasks stay fixed).
    mu = np.linspace(0, 1, 20) ** 2 * 2
    sigma = 0.3
    truth = _mixture_iqm(mu, sigma)
    big = mu + sigma * np.random.default_rng(0).standard_normal((20_000, 20))
    assert iqm(big) == pytest.approx(truth, abs=0.005)  # the closed form, checked by simulation
    replications = 400
    mc_error = np.sqrt(0.95 * 0.05 / replications)  # 0.011
    few, many = _iqm_coverage(3, replications, mu, sigma, truth), _iqm_coverage(10, replications, mu, sigma, truth)
    # Measured: 0.870 with 3 runs per task, 0.945 with 10 (nominal 0.95, Monte Carlo error 0.011).
    # The percentile interval undercovers with few runs: the bootstrap takes the spread of n runs for
    # the population's, short by the factor (n - 1) / n; with 10 runs it is within one MC error of 0.95.
    assert few < 0.95 - 3 * mc_error
    assert abs(many - 0.95) <= 2 * mc_error


# --------------------------------------------------------------------------- performance profiles


def test_performance_profile_is_the_fraction_of_runs_above_each_threshold():
    x = _matrix((4, 6), seed=5, ties=True)
    taus = np.array([-1.0, 0.0, 0.3, 0.5, 1.0, 1.5, 5.0])
    prof = performance_profile(x, taus, n_resamples=200, confidence_level=0.8, rng=3)
    brute = [np.mean([v > t for v in x.ravel()]) for t in taus]
    np.testing.assert_allclose(prof.estimate, brute, rtol=0, atol=1e-15)
    counts = np.random.default_rng(3).multinomial(4, np.full(4, 0.25), size=(200, 6))
    boot = np.array([
        [np.mean(np.column_stack([np.repeat(x[:, t], c[t]) for t in range(6)]) > tau) for tau in taus] for c in counts
    ])
    np.testing.assert_allclose(prof.confidence_interval.low, np.quantile(boot, 0.1, axis=0), atol=1e-12)
    np.testing.assert_allclose(prof.confidence_interval.high, np.quantile(boot, 0.9, axis=0), atol=1e-12)
    assert isinstance(prof, PerformanceProfile)
    assert (prof.n_runs, prof.n_tasks, prof.n_resamples, prof.confidence_level) == (4, 6, 200, 0.8)
    np.testing.assert_array_equal(prof.taus, taus)
    assert prof.estimate[0] == 1.0 and prof.estimate[-1] == 0.0
    assert np.all(np.diff(prof.estimate) <= 0)
    assert np.all(prof.confidence_interval.low <= prof.estimate + 1e-12)


def test_performance_profile_against_rliable():
    library = pytest.importorskip("rliable.metrics")  # rliable.library needs pandas < 3; its profile is a mean
    del library
    x = _matrix((5, 8), seed=6)
    taus = np.linspace(0, 3, 13)
    prof = performance_profile(x, taus, n_resamples=10, rng=0)
    np.testing.assert_allclose(prof.estimate, [np.mean(x > t) for t in taus])


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: iqm([[0.1, 0.2], [0.3]]), ValueError, "`scores` must be a rectangular array"),
        (lambda: iqm([0.1, 0.2]), ValueError, r"`scores` must be a runs x tasks matrix .* got shape \(2,\)"),
        (lambda: iqm(np.zeros((2, 0))), ValueError, "`scores` must be a runs x tasks matrix"),
        (lambda: iqm(np.zeros((0, 3))), ValueError, r"`scores` must hold at least 1 run\(s\)"),
        (lambda: iqm([[0.1, np.nan], [0.2, 0.3]]), ValueError, r"`scores` holds NaN or infinite score\(s\) .* at \(run 0, task 1\)"),
        (lambda: iqm(np.full((3, 3), np.nan)), ValueError, r"\(run 0, task 0\), \(run 0, task 1\), \(run 0, task 2\), \.\.\. \(9 cells\)"),
        (lambda: iqm([["a", "b"]]), TypeError, "`scores` must hold real numbers"),
        (lambda: iqm(None), TypeError, "`scores` must be given as numbers"),
        (lambda: optimality_gap([[0.1]], gamma=np.nan), ValueError, "`gamma` must be finite"),
        (lambda: aggregate_ci([[0.1, 0.2]]), ValueError, r"`scores` must hold at least 2 run\(s\) \(rows\) per task; got 1"),
        (lambda: aggregate_ci([[0.1], [0.2]], statistic="trimmed"), ValueError, "`statistic` must be one of 'iqm'"),
        (lambda: aggregate_ci([[0.1], [0.2]], n_resamples=0), ValueError, "`n_resamples` must be an integer >= 1"),
        (lambda: aggregate_ci([[0.1], [0.2]], confidence_level=1.0), ValueError, "`confidence_level` must be strictly"),
        (lambda: aggregate_ci([[0.1], [0.2]], gamma="1"), TypeError, "`gamma` must be a real number"),
        (lambda: aggregate_ci([[0.1], [0.2]], rng=-1), ValueError, "`rng`"),
        (lambda: aggregate_ci([[0.1], [0.2]], interpolate=1), TypeError, "`interpolate` must be True or False; got 1"),
        (lambda: iqm([[0.1], [0.2]], interpolate="yes"), TypeError, "`interpolate` must be True or False; got 'yes'"),
        (lambda: aggregate_ci(np.zeros((10, 100)), n_resamples=10**8), ValueError, "`n_resamples` = 100000000 would need"),
        (lambda: performance_profile([[0.1], [0.2]], [0.5, 0.2]), ValueError,
         r"`taus` must be strictly increasing; got 0.5 then 0.2 at positions 0 and 1"),
        (lambda: performance_profile([[0.1], [0.2]], [0.5, 0.5]), ValueError, "`taus` must be strictly increasing"),
        (lambda: performance_profile([[0.1], [0.2]], []), ValueError, "`taus` must not be empty"),
        (lambda: performance_profile([[0.1], [0.2]], [[0.1, 0.2]]), ValueError, r"`taus` must be a 1-D array of thresholds; got shape \(1, 2\)"),
        (lambda: performance_profile([[0.1], [0.2]], [0.1, np.inf]), ValueError, "`taus` must be finite; got inf"),
        (lambda: performance_profile([[0.1], [0.2]], ["a"]), TypeError, "`taus` must hold real numbers"),
        (lambda: performance_profile([[0.1, 0.2]], [0.1]), ValueError, r"at least 2 run\(s\)"),
        (lambda: performance_profile(np.zeros((10, 100)), np.arange(100.0), n_resamples=10**7), ValueError,
         "`n_resamples` = 10000000 would need"),
    ],
)
def test_bad_input_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


def test_the_module_documents_every_aggregate():
    assert AGGREGATES == ("iqm", "mean", "median", "optimality_gap")
    assert set(AGGREGATES) <= set(aggregate_module.aggregate_ci.__doc__.replace('"', " ").split())


# --------------------------------------------------------------------------- edges the mutation tests asked for


def test_defaults_of_the_bootstrap_functions():
    x = _matrix((3, 4), seed=7)
    res = aggregate_ci(x, rng=0)
    assert (res.n_resamples, res.aggregate, res.confidence_level) == (10_000, "iqm", 0.95)
    assert aggregate_ci(x, statistic="optimality_gap", n_resamples=5, rng=0).estimate == pytest.approx(optimality_gap(x))
    prof = performance_profile(x, [0.5, 1.0], rng=0)
    assert (prof.n_resamples, prof.confidence_level) == (2_000, 0.95)


def test_tiny_scores_beside_large_ones_are_not_rescaled_away():
    # Scores of 1e200 need no rescaling for sums of first powers; dividing them by 2**664 would flush 1e-300 to 0.
    assert iqm([[1e200, 1e-300, 2e-300, 3e-300]]) == pytest.approx(2.5e-300)


def test_overflow_is_refused_in_full_and_silently(monkeypatch):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^The result overflows float64 \(optimality_gap not finite\): the values "
                                             r"of `scores` are too large"):
            optimality_gap([[-1.7e308]], gamma=1.7e308)
        with pytest.raises(ValueError, match=r"^The result overflows float64 \(estimate, bootstrap_distribution not "
                                             r"finite\): the values of `scores` are too large"):
            aggregate_ci([[-1.7e308], [-1.6e308]], statistic="optimality_gap", gamma=1.7e308, n_resamples=10, rng=0)


def test_memory_limits_are_exact(monkeypatch):
    import sigeval._validation as validation

    x = np.zeros((2, 2))
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 3 * 10 * 4 * 8)  # 3 numbers per cell and resample
    assert aggregate_ci(x, n_resamples=10, rng=0).n_resamples == 10
    with pytest.raises(ValueError, match=r"^`n_resamples` = 11 would need 1.0 KiB of memory for the stratified "
                                         r"resamples; the limit is 960.0 bytes"):
        aggregate_ci(x, n_resamples=11, rng=0)
    # The profile: 10 resamples x (4 cells + 2 thresholds), and the 4 x 2 table of cells above thresholds.
    monkeypatch.setattr(validation, "MEMORY_LIMIT", (10 * (4 + 2) + 4 * 2) * 8)
    assert performance_profile(x, [0.1, 0.2], n_resamples=10, rng=0).n_resamples == 10
    monkeypatch.setattr(validation, "MEMORY_LIMIT", (10 * (4 + 2) + 4 * 2) * 8 - 1)
    with pytest.raises(ValueError, match=r"^`n_resamples` = 10 would need 544.0 bytes of memory for the stratified "
                                         r"resamples"):
        performance_profile(x, [0.1, 0.2], n_resamples=10, rng=0)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(taus=[0.1, 0.5, 0.3]), r"^`taus` must be strictly increasing; got 0.5 then 0.3 at positions 1 and 2\.$"),
        (dict(taus=[0.1], n_resamples=0), r"^`n_resamples` must be an integer >= 1"),
        (dict(taus=[0.1], confidence_level=1.0), r"^`confidence_level` must be strictly between 0 and 1"),
    ],
)
def test_profile_messages_in_full(kwargs, match):
    with pytest.raises(ValueError, match=match):
        performance_profile([[0.1], [0.2]], **kwargs)


def test_each_aggregate_is_its_own_statistic():
    x = np.array([[0.0, 0.5, 3.0], [0.2, 0.9, 4.0]])
    values = {a: aggregate_ci(x, statistic=a, n_resamples=5, rng=0).estimate for a in AGGREGATES}
    # Sorted 0 .2 .5 .9 3 4: the middle four average 1.15; task means .1 .7 3.5; min(x, 1) sums to 3.6.
    assert values == pytest.approx({"iqm": 1.15, "mean": 8.6 / 6, "median": 0.7, "optimality_gap": 1 - 3.6 / 6})

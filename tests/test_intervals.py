"""sigeval.intervals against scipy, closed forms and published values."""

import numpy as np
import pytest
from scipy import stats

from sigeval import METHODS, ConfidenceInterval, coverage, proportion_ci

# Every (k, n) with n <= 30, plus a few large ones: boundaries included.
SMALL = [(k, n) for n in range(1, 31) for k in range(n + 1)]
LARGE = [(0, 1000), (3, 1000), (845, 1000), (999, 1000), (1000, 1000), (12_345, 20_000)]
CASES = SMALL + LARGE
LEVELS = [0.8, 0.95, 0.99]


def _arrays(cases):
    k, n = np.array(cases).T
    return k, n


@pytest.mark.parametrize("level", LEVELS)
def test_wilson_matches_scipy(level):
    k, n = _arrays(CASES)
    ours = proportion_ci(k, n, method="wilson", confidence_level=level)
    for i, (ki, ni) in enumerate(CASES):
        ref = stats.binomtest(int(ki), int(ni)).proportion_ci(level, method="wilson")
        assert ours.low[i] == pytest.approx(ref.low, abs=1e-12)
        assert ours.high[i] == pytest.approx(ref.high, abs=1e-12)


@pytest.mark.parametrize("level", LEVELS)
def test_clopper_pearson_matches_scipy_exact(level):
    k, n = _arrays(CASES)
    ours = proportion_ci(k, n, method="clopper-pearson", confidence_level=level)
    for i, (ki, ni) in enumerate(CASES):
        ref = stats.binomtest(int(ki), int(ni)).proportion_ci(level, method="exact")
        assert ours.low[i] == pytest.approx(ref.low, abs=1e-10)
        assert ours.high[i] == pytest.approx(ref.high, abs=1e-10)


@pytest.mark.parametrize("level", LEVELS)
def test_jeffreys_is_beta_quantiles_with_boundary_convention(level):
    k, n = _arrays(CASES)
    ours = proportion_ci(k, n, method="jeffreys", confidence_level=level)
    tail = (1 - level) / 2
    posterior = stats.beta(k + 0.5, n - k + 0.5)
    np.testing.assert_allclose(ours.low[k > 0], posterior.ppf(tail)[k > 0], rtol=1e-12)
    np.testing.assert_allclose(ours.high[k < n], posterior.ppf(1 - tail)[k < n], rtol=1e-12)
    # Brown, Cai & DasGupta (2001, 4.1.2): 0 at k = 0 and 1 at k = n.
    assert np.all(ours.low[k == 0] == 0) and np.all(ours.high[k == n] == 1)


def test_wald_and_agresti_coull_closed_forms():
    k, n = 845, 1000
    z = stats.norm.ppf(0.975)
    wald = proportion_ci(k, n, method="wald")
    half = z * np.sqrt(0.845 * 0.155 / 1000)
    assert (wald.low, wald.high) == pytest.approx((0.845 - half, 0.845 + half), abs=1e-15)
    ac = proportion_ci(k, n, method="agresti-coull")
    n_t = n + z**2
    p_t = (k + z**2 / 2) / n_t
    half = z * np.sqrt(p_t * (1 - p_t) / n_t)
    assert (ac.low, ac.high) == pytest.approx((p_t - half, p_t + half), abs=1e-15)


def test_agresti_coull_is_centred_like_wilson():
    k, n = _arrays(CASES)
    ac = proportion_ci(k, n, method="agresti-coull")
    wi = proportion_ci(k, n, method="wilson")
    inside = (ac.low > 0) & (ac.high < 1)
    np.testing.assert_allclose(((ac.low + ac.high) / 2)[inside], ((wi.low + wi.high) / 2)[inside])
    # and never narrower than Wilson's (Brown et al. 2001, section 4.1.3)
    assert np.all(ac.high - ac.low >= wi.high - wi.low - 1e-12)


def test_seed_article_interval_for_matcher_a():
    # 845 of 1000 test images right: the article prints Wald [0.823, 0.867], Wilson [0.821, 0.866].
    wald = proportion_ci(845, 1000, method="wald")
    wilson = proportion_ci(845, 1000)
    assert f"[{wald.low:.3f}, {wald.high:.3f}]" == "[0.823, 0.867]"
    assert f"[{wilson.low:.3f}, {wilson.high:.3f}]" == "[0.821, 0.866]"
    assert wilson.estimate == 0.845


@pytest.mark.parametrize("method", METHODS)
def test_edge_cases_stay_in_unit_interval_and_contain_estimate(method):
    for n in (1, 2, 5, 1000):
        k = np.arange(n + 1)
        ci = proportion_ci(k, n, method=method)
        assert np.all((0 <= ci.low) & (ci.low <= ci.estimate) & (ci.estimate <= ci.high) & (ci.high <= 1))
    zero = proportion_ci(0, 1, method=method)
    assert zero.low == 0
    assert proportion_ci(1, 1, method=method).high == 1


def test_wald_degenerates_at_zero_errors():
    ci = proportion_ci(20, 20, method="wald")
    assert ci.low == ci.high == 1.0


def test_broadcasting_and_scalar_results():
    ci = proportion_ci([[1], [2]], [10, 20, 30])
    assert ci.low.shape == (2, 3)
    single = proportion_ci(5, 10)
    assert isinstance(single.low, float) and isinstance(single.estimate, float)
    low, high = single
    assert (low, high) == (single.low, single.high)


def test_accepts_whole_floats_and_numpy_integers():
    a = proportion_ci(np.int32(7), np.uint16(12))
    b = proportion_ci(7.0, 12.0)
    assert (a.low, a.high) == (b.low, b.high)


def test_method_names_are_case_insensitive():
    assert proportion_ci(3, 9, method="Clopper-Pearson").method == "clopper-pearson"


def test_result_records_method_and_level():
    ci = proportion_ci(3, 9, method="jeffreys", confidence_level=0.9)
    assert (ci.method, ci.confidence_level) == ("jeffreys", 0.9)
    default = proportion_ci(3, 9)
    assert (default.method, default.confidence_level) == ("wilson", 0.95)


@pytest.mark.parametrize("method", METHODS)
def test_intervals_widen_with_level(method):
    k = np.arange(51)
    narrow = proportion_ci(k, 50, method=method, confidence_level=0.8)
    wide = proportion_ci(k, 50, method=method, confidence_level=0.99)
    assert np.all(wide.low <= narrow.low) and np.all(wide.high >= narrow.high)


# --------------------------------------------------------------------------- coverage

def _coverage_by_summation(n, p, method, level=0.95):
    # One row per outcome k, one column per p: add up the pmf of the outcomes whose interval covers p.
    k = np.arange(n + 1)[:, None]
    ci = proportion_ci(k, n, method=method, confidence_level=level)
    return np.sum(stats.binom.pmf(k, n, p) * ((ci.low <= p) & (p <= ci.high)), axis=0)


@pytest.mark.parametrize("method", METHODS)
def test_coverage_equals_direct_pmf_sum(method):
    ps = np.linspace(0, 1, 41)
    for n in (1, 2, 3, 10, 37, 150):
        expected = _coverage_by_summation(n, ps, method)
        np.testing.assert_allclose(coverage(n, ps, method=method), expected, atol=1e-12)


@pytest.mark.parametrize("level", [0.8, 0.99])
@pytest.mark.parametrize("method", METHODS)
def test_coverage_equals_direct_pmf_sum_at_other_levels(method, level):
    # At 0.99 Wilson's formula is still real one step past k = n: only k = 0..n may be tabulated.
    ps = np.linspace(0, 1, 201)
    for n in (1, 2, 3, 12):
        expected = _coverage_by_summation(n, ps, method, level)
        np.testing.assert_allclose(coverage(n, ps, method=method, confidence_level=level), expected, atol=1e-12)


@pytest.mark.parametrize("method", METHODS)
def test_extreme_counts_give_bounds_of_exactly_0_and_1(method):
    # Rounding leaves Wilson's formula a hair below 1 at k = n for some n (29, 30, ...),
    # which would wrongly exclude p = 1; coverage at p = 0 and p = 1 is then 1, not 0.
    n = np.arange(1, 61)
    assert np.all(proportion_ci(0, n, method=method).low == 0)
    assert np.all(proportion_ci(n, n, method=method).high == 1)
    assert np.all(coverage(n, 0.0, method=method) == 1)
    assert np.all(coverage(n, 1.0, method=method) == 1)


@pytest.mark.parametrize("method", METHODS)
def test_bounds_are_monotone_in_k(method):
    # coverage() relies on it: the covering outcomes form one run of k.
    for n in (1, 2, 5, 19, 100, 999):
        ci = proportion_ci(np.arange(n + 1), n, method=method)
        assert np.all(np.diff(ci.low) >= 0) and np.all(np.diff(ci.high) >= 0)


def test_coverage_table_of_the_seed_article():
    # Part 1 of the article: p = population accuracy of matcher A (171,764 of 200,000) and 0.98.
    printed = {
        171_764 / 200_000: "0.948 / 0.948   0.928 / 0.936   0.943 / 0.940   0.953 / 0.949",
        0.98: "0.332 / 0.940   0.635 / 0.922   0.866 / 0.949   0.950 / 0.947",
    }
    for p, row in printed.items():
        cells = [
            f"{coverage(n, p, method='wald'):.3f} / {coverage(n, p, method='wilson'):.3f}"
            for n in (20, 50, 100, 1000)
        ]
        assert "   ".join(cells) == row


def test_brown_cai_dasgupta_oscillation_example():
    # Brown, Cai & DasGupta (2001), section 2.1: n = 100, p = 0.106 vs 0.107.
    cov = coverage(100, [0.106, 0.107], method="wald")
    assert cov[0] == pytest.approx(0.952, abs=5e-4)
    assert cov[1] == pytest.approx(0.911, abs=5e-4)


def test_coverage_at_boundaries_and_shapes():
    # p = 0 is covered exactly when k = 0 gives a lower bound of 0, which holds for all methods.
    for method in METHODS:
        assert coverage(25, 0.0, method=method) == pytest.approx(1.0)
    grid = coverage(np.arange(1, 6)[:, None], np.linspace(0.1, 0.9, 7))
    assert grid.shape == (5, 7)
    # One return type: an array, 0-d for two numbers (it returned a float there, an array otherwise).
    one = coverage(10, 0.5)
    assert type(one) is np.ndarray and one.shape == () and float(one) == pytest.approx(0.978515625)


def test_clopper_pearson_coverage_never_below_nominal():
    cov = coverage(np.arange(1, 101)[:, None], np.linspace(0.01, 0.99, 99), method="clopper-pearson")
    assert cov.min() >= 0.95 - 1e-12


# --------------------------------------------------------------------------- bad input

@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(k=11, n=10), r"`k` must not exceed `n`.*k=11 with n=10"),
        (dict(k=-1, n=10), r"`k` must be non-negative; got -1"),
        (dict(k=2.5, n=10), r"`k` must hold whole numbers; got 2.5"),
        (dict(k=2, n=10.5), r"`n` must hold whole numbers"),
        (dict(k=0, n=0), r"`n` must be at least 1; got 0"),
        (dict(k=[], n=5), r"`k` must not be empty"),
        (dict(k=1, n=5, confidence_level=1.0), r"`confidence_level` must be strictly between 0 and 1; got 1.0"),
        (dict(k=1, n=5, confidence_level=-0.5), r"`confidence_level`"),
        (dict(k=1, n=5, method="exact"), r"`method` must be one of 'wald', 'wilson', 'agresti-coull', 'jeffreys', 'clopper-pearson'; got 'exact'"),
        (dict(k=[1, 2], n=[5, 6, 7]), r"`k` and `n` must broadcast"),
    ],
)
def test_proportion_ci_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        proportion_ci(**kwargs)


def test_proportion_ci_rejects_wrong_types():
    with pytest.raises(TypeError, match="`k` must hold integer counts"):
        proportion_ci(np.array([True]), 3)
    with pytest.raises(TypeError, match="`confidence_level` must be a real number"):
        proportion_ci(1, 3, confidence_level="95%")


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(n=0, p=0.5), r"`n` must be at least 1"),
        (dict(n=10, p=1.5), r"`p` must lie in \[0, 1\]; got 1.5"),
        (dict(n=10, p=np.nan), r"`p` must lie in \[0, 1\]; got nan"),
        (dict(n=10, p=0.5, method="normal"), r"`method` must be one of"),
        (dict(n=10, p=0.5, confidence_level=0), r"`confidence_level`"),
    ],
)
def test_coverage_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        coverage(**kwargs)


def test_coverage_rejects_shapes_that_do_not_broadcast():
    with pytest.raises(ValueError, match=r"^`n` and `p` must broadcast to a common shape; got shapes \(2,\) and \(3,\)"):
        coverage([10, 20], [0.1, 0.2, 0.3])


def test_coverage_refuses_n_whose_bounds_exceed_the_memory_limit(monkeypatch):
    # Six float64 arrays of n + 1 bounds: with a limit of 6 * 8 * 101 bytes, n = 100 fits, 101 does not.
    import sigeval._validation

    monkeypatch.setattr(sigeval._validation, "MEMORY_LIMIT", 6 * 8 * 101)
    assert float(coverage(100, 0.5)) == pytest.approx(_coverage_by_summation(100, 0.5, "wilson")[0], abs=1e-12)
    with pytest.raises(ValueError, match=r"^`n` = 101 would need 4.8 KiB of memory for the interval bounds at k = 0\.\.n; .*Choose a smaller `n`\.$"):
        coverage([3, 101], 0.5)


def test_the_interval_is_also_under_the_name_every_result_uses():
    ci = proportion_ci([4, 45], [10, 100], method="clopper-pearson")
    assert type(ci.confidence_interval) is ConfidenceInterval
    np.testing.assert_array_equal(np.asarray(ci.confidence_interval), np.asarray(ci))
    assert "confidence_interval" not in repr(ci)  # the printed result is unchanged

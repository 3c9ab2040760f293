"""sigeval.power_mcnemar: exact power and test-set size of McNemar's test."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

import sigeval.power_mcnemar as power_mcnemar
from sigeval import (
    mcnemar_counts,
    mcnemar_power,
    mcnemar_sample_size,
)
from sigeval.power_mcnemar import _critical_count, _exact_sample_size

# --------------------------------------------------------------------------- McNemar power

FORMS = [dict(), dict(mid_p=True), dict(exact=False), dict(exact=False, continuity=False)]


def _power_by_enumeration(n, p01, p10, alpha=0.05, **kwargs):
    """Sum the multinomial probabilities of every table on which the test rejects."""
    n01, n10 = np.meshgrid(np.arange(n + 1), np.arange(n + 1), indexing="ij")
    keep = n01 + n10 <= n
    n01, n10 = n01[keep], n10[keep]
    prob = stats.multinomial.pmf(np.stack([n01, n10, n - n01 - n10], axis=1), n, [p01, p10, 1 - p01 - p10])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # the table with no disagreement
        pvalues = mcnemar_counts(n01, n10, **kwargs).pvalue
    return prob[pvalues <= alpha].sum()


@pytest.mark.parametrize("kwargs", FORMS)
@pytest.mark.parametrize(("n", "p01", "p10"), [(30, 0.2, 0.1), (57, 0.05, 0.15), (40, 0.3, 0.3), (25, 0.6, 0.4), (12, 0.0, 0.5)])
def test_power_equals_the_sum_over_all_tables(kwargs, n, p01, p10):
    assert mcnemar_power(n, p01, p10, **kwargs).power == pytest.approx(_power_by_enumeration(n, p01, p10, **kwargs), rel=1e-11, abs=1e-14)


@pytest.mark.parametrize("kwargs", FORMS)
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_critical_counts_are_the_tests_own_rejection_region(kwargs, alpha):
    exact, continuity = kwargs.get("exact", True), kwargs.get("continuity", True)
    m = np.arange(0, 400)
    c = _critical_count(m, alpha, exact, continuity, kwargs.get("mid_p", False))
    for size in [0, 1, 2, 5, 6, 7, 17, 100, 257, 399]:
        k = np.arange(size + 1)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            rejects = mcnemar_counts(k, size - k, **kwargs).pvalue <= alpha
        np.testing.assert_array_equal(rejects, (k <= c[size]) | (k >= size - c[size]))


@pytest.mark.parametrize("kwargs", FORMS)
@pytest.mark.parametrize("size", [6, 17, 40])
def test_critical_counts_at_alphas_equal_to_attainable_p_values(kwargs, size):
    # The test rejects when p <= alpha: at alpha equal to an attainable p-value that table
    # is in the region, one float below it is not, even where the closed-form guess (which
    # rounds the other way for the chi-square tests) has to be corrected downwards.
    exact, continuity, mid_p = kwargs.get("exact", True), kwargs.get("continuity", True), kwargs.get("mid_p", False)
    k = np.arange(size + 1)
    pvalues = mcnemar_counts(k, size - k, **kwargs).pvalue
    off_tie = pvalues[2 * k != size]  # c < m/2 by definition; the mid-p tie is tested below
    for p in np.unique(off_tie[(off_tie > 0) & (off_tie < 1)]):
        for alpha in (p, np.nextafter(p, 0)):
            c = int(_critical_count(np.array([size]), alpha, exact, continuity, mid_p)[0])
            np.testing.assert_array_equal(pvalues <= alpha, (k <= c) | (k >= size - c))


@pytest.mark.parametrize("alpha", [0.5, 0.8, 0.9, 0.99])
def test_mid_p_power_when_even_a_tie_is_significant(alpha):
    # The mid-p value of a tie is below 1 (0.75 for n01 = n10 = 1, 0.84375 for 3 and 3),
    # so at a high alpha every table rejects: e.g. alpha = 0.8, n = 6 gave 0.787 instead of 0.899.
    for n in (2, 6, 7):
        exact = _power_by_enumeration(n, 0.3, 0.2, alpha=alpha, mid_p=True)
        assert mcnemar_power(n, 0.3, 0.2, alpha=alpha, mid_p=True).power == pytest.approx(exact, rel=1e-12)
    # Two disagreements: (2, 0) and (0, 2) have mid-p 0.25, (1, 1) has 1 - P(X = 1)/2 = 0.75.
    tie = mcnemar_counts(1, 1, mid_p=True).pvalue
    assert tie == pytest.approx(0.75, rel=1e-15)
    assert mcnemar_power(2, 0.5, 0.5, alpha=tie, mid_p=True).power == pytest.approx(1.0, rel=1e-12)
    assert mcnemar_power(2, 0.5, 0.5, alpha=np.nextafter(tie, 0), mid_p=True).power == pytest.approx(0.5, rel=1e-12)
    # The critical count itself stays below m/2; the tie is handled beside it.
    assert _critical_count(np.array([2, 6]), 0.99, True, True, True).tolist() == [0, 2]


def test_critical_count_is_minus_one_without_a_significant_outcome():
    m = np.arange(0, 8)
    for exact, continuity in [(True, True), (False, True), (False, False)]:
        c = _critical_count(m, 0.01, exact, continuity, False)
        assert c.dtype == np.int64 and c.min() == -1
        assert np.all(c[m < 6] == -1)  # 2 / 2**5 > 0.01: nothing below 6 disagreements is significant


def test_power_rejects_at_p_equal_to_alpha():
    # Six disagreements all favouring A give p = 2 / 2**6 = 0.03125 exactly.
    assert mcnemar_counts(6, 0).pvalue == 0.03125
    assert mcnemar_power(6, 1.0, 0.0, alpha=0.03125).power == 1.0
    assert mcnemar_power(6, 1.0, 0.0, alpha=np.nextafter(0.03125, 0)).power == 0.0


@pytest.mark.parametrize("kwargs", FORMS)
def test_power_agrees_with_simulation(kwargs):
    rng = np.random.default_rng(20240602)
    n, p01, p10, reps = 600, 0.06, 0.035, 20_000
    counts = rng.multinomial(n, [p01, p10, 1 - p01 - p10], size=reps)
    simulated = np.mean(mcnemar_counts(counts[:, 0], counts[:, 1], **kwargs).pvalue <= 0.05)
    exact = mcnemar_power(n, p01, p10, **kwargs).power
    assert abs(simulated - exact) < 3 * np.sqrt(exact * (1 - exact) / reps)


def test_power_at_equal_rates_is_the_size():
    for n in [20, 99, 500, 1000]:
        for rate in [0.02, 0.1, 0.3, 0.5]:
            size = mcnemar_power(n, rate, rate).power
            assert 0 <= size <= 0.05
    assert mcnemar_power(40, 0.3, 0.3).power == pytest.approx(_power_by_enumeration(40, 0.3, 0.3), rel=1e-11)
    # The uncorrected chi-square form does not hold its level everywhere.
    assert mcnemar_power(40, 0.3, 0.3, exact=False, continuity=False).power > 0.05


def test_power_approaches_connors_approximation_for_large_n():
    p01, p10 = 0.0515, 0.0485  # a small difference: power is moderate only at large n
    n = np.array([20_000, 60_000])
    normal = mcnemar_power(n, p01, p10, power_method="normal").power
    np.testing.assert_allclose(mcnemar_power(n, p01, p10, exact=False, continuity=False).power, normal, atol=0.002)
    np.testing.assert_allclose(mcnemar_power(n, p01, p10).power, normal, atol=0.01)
    assert 0.2 < normal[0] < normal[1] < 0.7


def test_connors_power_by_hand():
    p01, p10, n = 0.048, 0.032, 1000
    psi, delta = p01 + p10, p01 - p10
    z = 1.959963984540054
    hand = stats.norm.cdf((delta * np.sqrt(n) - z * np.sqrt(psi)) / np.sqrt(psi - delta**2))
    assert mcnemar_power(n, p01, p10, power_method="normal").power == pytest.approx(hand, rel=1e-12)
    assert mcnemar_power(n, p10, p01, power_method="normal").power == pytest.approx(hand, rel=1e-12)


def test_power_is_vectorized_and_symmetric():
    n = np.array([[200], [1000]])
    p01 = np.array([0.05, 0.1, 0.02])
    power = mcnemar_power(n, p01, 0.03).power
    assert power.shape == (2, 3)
    for i in range(2):
        for j in range(3):
            assert power[i, j] == pytest.approx(mcnemar_power(int(n[i, 0]), float(p01[j]), 0.03).power, rel=1e-12)
    assert mcnemar_power(1000, 0.03, 0.05).power == pytest.approx(mcnemar_power(1000, 0.05, 0.03).power, rel=1e-12)
    assert isinstance(mcnemar_power(1000, 0.05, 0.03).power, float)



@pytest.mark.parametrize("method", ["enumeration", "normal"])
def test_power_result_records_the_design(method):
    res = mcnemar_power(1000, 0.05, 0.03, alpha=0.01, power_method=method.upper())
    assert (res.n, res.p01, res.p10, res.alpha, res.power_method) == (1000, 0.05, 0.03, 0.01, method)
    assert type(res.n) is int and res.delta == pytest.approx(0.02, abs=1e-15)
    many = mcnemar_power([[200], [1000]], [0.05, 0.1], 0.03, power_method=method)
    np.testing.assert_array_equal(many.n, [[200, 200], [1000, 1000]])
    np.testing.assert_allclose(many.delta, [[0.02, 0.07], [0.02, 0.07]], atol=1e-15)
    assert many.power.shape == (2, 2) and many.alpha == 0.05 and many.power_method == method


def test_power_never_exceeds_one():
    # The binomial weights of m sum to 1 only up to rounding (1 + 2**-52 at n = 400 here).
    power = mcnemar_power([400, 1000], 0.5, 0.0).power
    assert np.all(power <= 1.0) and np.all(power == 1.0)


def test_power_at_vanishing_disagreement_rates():
    # Below 1e-300 scipy's binomial overflows; the models then (almost) never disagree.
    for rate in (1e-305, 5e-324):
        assert mcnemar_power([100, 10**6], rate, 0.0).power.tolist() == [0.0, 0.0]


def test_power_refuses_a_sum_beyond_the_memory_limit(monkeypatch):
    # The exact sum tabulates eight float64 arrays over the m where Binomial(n, psi) has mass.
    n, psi = 10**6, 0.5
    window = n - 2 * int(stats.binom.ppf(1e-30, n, psi)) + 1
    monkeypatch.setattr("sigeval._validation.MEMORY_LIMIT", 64 * window)
    assert 0.99 < mcnemar_power(n, 0.3, 0.2).power <= 1.0
    monkeypatch.setattr("sigeval._validation.MEMORY_LIMIT", 64 * window - 1)
    with pytest.raises(ValueError, match=r"^`n` = 1000000 would need .* of memory for the exact power sum; .*Choose a smaller `n`\.$"):
        mcnemar_power(n, 0.3, 0.2)


def test_power_at_the_edges():
    assert mcnemar_power(100, 0.0, 0.0).power == 0.0  # the models never disagree
    assert mcnemar_power(100, 0.0, 0.0, power_method="normal").power == 0.0
    # Always A alone right: m = n and n01 = n. The exact test needs 2 / 2**n <= alpha, n >= 6.
    assert mcnemar_power(5, 1.0, 0.0).power == 0.0 and mcnemar_power(6, 1.0, 0.0).power == 1.0
    assert mcnemar_power(1, 0.3, 0.2).power == 0.0  # one item is never significant


def test_connors_power_at_the_edges_is_silent():
    # psi = 0 gives 0/0 and psi = delta = 1 gives (sqrt(n) - z)/0 in Connor's formula:
    # the power is 0, or 0 then 1 once sqrt(n) > z = 1.96, without a RuntimeWarning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        never = mcnemar_power([1, 100], 0.0, 0.0, power_method="normal").power
        always = mcnemar_power([3, 4], 1.0, 0.0, power_method="normal").power
    np.testing.assert_array_equal(never, [0.0, 0.0])
    np.testing.assert_array_equal(always, [0.0, 1.0])


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((0, 0.1, 0.05), {}, ValueError, r"`n` must be at least 1; got 0"),
        ((10.5, 0.1, 0.05), {}, ValueError, r"`n` must hold whole numbers; got 10.5"),
        ((100, 1.2, 0.05), {}, ValueError, r"`p01` must lie in \[0, 1\]; got 1.2"),
        ((100, 0.1, -0.05), {}, ValueError, r"`p10` must lie in \[0, 1\]; got -0.05"),
        ((100, 0.1, np.nan), {}, ValueError, r"`p10` must lie in \[0, 1\]; got nan"),
        ((100, 0.7, 0.4), {}, ValueError, r"`p01 \+ p10` is the rate of disagreement and cannot exceed 1; got p01=0.7 with p10=0.4"),
        ((100, 0.1, 0.05), dict(alpha=1.5), ValueError, r"`alpha` must be strictly between 0 and 1; got 1.5"),
        ((100, 0.1, 0.05), dict(power_method="simulation"), ValueError, r"`power_method` must be one of 'enumeration', 'normal'; got 'simulation'"),
        ((100, 0.1, 0.05), dict(exact="no"), TypeError, r"`exact` must be True or False"),
        (([100, 200], [0.1, 0.2, 0.3], 0.05), {}, ValueError, r"^`n`, `p01` and `p10` must broadcast to a common shape; got shapes \(2,\), \(3,\) and \(\)\.$"),
        ((100, [0.1, 0.2], [0.05, 0.1, 0.2]), {}, ValueError, r"^`p01` and `p10` must broadcast to a common shape; got shapes \(2,\) and \(3,\)\.$"),
        ((100, 0.7, 0.30001), {}, ValueError, r"`p01 \+ p10` is the rate of disagreement and cannot exceed 1"),
    ],
)
def test_power_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        mcnemar_power(*args, **kwargs)


def test_power_allows_rates_summing_to_one_within_rounding():
    # 0.7 + 0.3 and the edge of the 1e-12 tolerance itself are a disagreement rate of 1.
    assert (0.7 + 0.3, 1e-12 + 1.0) == (1.0, 1 + 1e-12)
    assert mcnemar_power(10, 0.7, 0.3).power == pytest.approx(mcnemar_power(10, 0.7, 0.3 - 1e-12).power, abs=1e-9)
    assert mcnemar_power(10, 1e-12, 1.0).power == pytest.approx(mcnemar_power(10, 0.0, 1.0).power, abs=1e-9)


# --------------------------------------------------------------------------- McNemar test-set size


def test_connors_sample_size_by_hand():
    # p01 = 0.05, p10 = 0.02: psi = 0.07, delta = 0.03, z_0.975 = 1.959964, z_0.8 = 0.841621.
    hand = (1.959963984540054 * np.sqrt(0.07) + 0.8416212335729143 * np.sqrt(0.07 - 0.03**2)) ** 2 / 0.03**2
    assert 608 < hand < 609
    assert mcnemar_sample_size(0.05, 0.02, power_method="normal") == 609
    assert mcnemar_sample_size(0.02, 0.05, power_method="normal") == 609
    # It is the first size at which Connor's approximate power reaches the target.
    approx = mcnemar_power([608, 609], 0.05, 0.02, power_method="normal").power
    assert approx[0] < 0.8 <= approx[1]
    # alpha = 0.01, power = 0.9: z = 2.575829, 1.281552.
    hand = (2.5758293035489004 * np.sqrt(0.07) + 1.2815515655446004 * np.sqrt(0.0691)) ** 2 / 0.0009
    assert mcnemar_sample_size(0.05, 0.02, alpha=0.01, target_power=0.9, power_method="normal") == int(np.ceil(hand))


@pytest.mark.parametrize("kwargs", FORMS)
def test_exact_sample_size_is_the_first_size_reaching_the_power(kwargs):
    p01, p10 = 0.2, 0.1
    n = mcnemar_sample_size(p01, p10, **kwargs)
    power = mcnemar_power(np.arange(1, n + 1), p01, p10, **kwargs).power
    assert power[-1] >= 0.8 and np.all(power[:-1] < 0.8)


def test_exact_sample_size_of_the_article_matchers():
    p01, p10 = 0.04761, 0.031355  # the chapter's population rates
    n = mcnemar_sample_size(p01, p10)
    assert mcnemar_power(n - 1, p01, p10).power < 0.8 <= mcnemar_power(n, p01, p10).power
    assert mcnemar_sample_size(p01, p10, rule="stable") == n
    # Connor's approximation asks for fewer: the exact test is conservative.
    assert mcnemar_sample_size(p01, p10, power_method="normal") < n < 1.1 * mcnemar_sample_size(p01, p10, power_method="normal")


def test_stable_rule_skips_the_saw_tooth():
    # Models that disagree on every item: the power is that of a binomial test, saw-toothed in n.
    p01, p10 = 0.6, 0.4
    first = mcnemar_sample_size(p01, p10)
    stable = mcnemar_sample_size(p01, p10, rule="stable")
    power = mcnemar_power(np.arange(1, 2 * stable + 1), p01, p10).power  # power[k] is at n = k + 1
    assert power[first - 1] >= 0.8 and np.all(power[: first - 1] < 0.8)
    assert stable > first and power[stable - 2] < 0.8
    assert np.all(power[stable - 1 :] >= 0.8)


def test_exact_sample_size_reaching_the_target_exactly():
    # p10 = 0: every disagreement favours A and the exact test needs 6 of them, so the
    # power is P(Bin(n, 1/2) >= 6): 1/64 at n = 6, 8/128 at n = 7, 37/256 at n = 8. The
    # search's recursion P_{n+1}(m) = (P_n(m) + P_n(m - 1)) / 2 is exact in binary, so a
    # target of exactly 8/128 is reached (not exceeded) at n = 7.
    np.testing.assert_allclose(mcnemar_power([6, 7, 8], 0.5, 0.0).power, [1 / 64, 8 / 128, 37 / 256], rtol=1e-14)
    assert mcnemar_sample_size(0.5, 0.0, target_power=8 / 128) == 7
    assert mcnemar_sample_size(0.5, 0.0, target_power=np.nextafter(8 / 128, 1)) == 8


def test_exact_sample_size_when_the_rates_sum_to_one_plus_rounding():
    # p01 + p10 = 1 + 1e-12 passes the tolerance of the rate check; the search must still
    # treat it as a disagreement rate of 1 (powers not inflated by (1 + 1e-12)**n), so that it
    # agrees with mcnemar_power even for a target 1e-10 above the power at n = 199.
    p01, p10 = 0.6, 0.4 + 1e-12
    power = mcnemar_power(np.arange(1, 301), p01, p10).power
    target = power[198] * (1 + 1e-10)
    first = int(np.argmax(power >= target)) + 1
    assert first > 199 and mcnemar_sample_size(p01, p10, target_power=target) == first


@pytest.mark.parametrize("kwargs", FORMS)
@pytest.mark.parametrize(("p01", "p10"), [(0.6, 0.4), (0.2, 0.1)])
def test_exact_search_does_not_depend_on_its_first_horizon(kwargs, p01, p10):
    # The search starts at twice Connor's n (at least 64) and doubles its horizon as
    # needed; from a start far too small it must extend and find the same sizes.
    form = (kwargs.get("exact", True), kwargs.get("continuity", True), kwargs.get("mid_p", False))
    expected = [mcnemar_sample_size(p01, p10, rule=rule, **kwargs) for rule in ("first", "stable")]
    assert expected[0] > 66  # beyond the first horizon from start = 1
    for start in [1, 40, 99]:
        assert [_exact_sample_size(p01, p10, 0.05, 0.8, *form, rule, start) for rule in ("first", "stable")] == expected
    if not kwargs:
        assert expected == [199, 210] if p01 == 0.6 else [249, 249]


def test_exact_search_stops_at_its_limit(monkeypatch):
    # The stable size 210 of (0.6, 0.4) is checked up to 2 * 210 = 420 items, past the first
    # horizon 2 * 194 = 388 (Connor's n is 194): a limit of 420 allows that, 400 does not.
    monkeypatch.setattr(power_mcnemar, "_SEARCH_LIMIT", 420)
    assert mcnemar_sample_size(0.6, 0.4, rule="stable") == 210
    monkeypatch.setattr(power_mcnemar, "_SEARCH_LIMIT", 400)
    with pytest.raises(ValueError, match=r"^The exact search for the test-set size passed 388 items without settling; it stops at 400\. Use `power_method='normal'`\.$"):
        mcnemar_sample_size(0.6, 0.4, rule="stable")
    # The horizon is inclusive: the first size 199 is found from a horizon of 200 (start 100)
    # but needs another doubling, beyond a limit of 300, from a horizon of 198 (start 99).
    monkeypatch.setattr(power_mcnemar, "_SEARCH_LIMIT", 300)
    assert _exact_sample_size(0.6, 0.4, 0.05, 0.8, True, True, False, "first", 100) == 199
    with pytest.raises(ValueError, match=r"passed 198 items without settling; it stops at 300\."):
        _exact_sample_size(0.6, 0.4, 0.05, 0.8, True, True, False, "first", 99)
    # From the smallest horizon, 64, the search doubles to 128 and 256 (within 300).
    assert _exact_sample_size(0.6, 0.4, 0.05, 0.8, True, True, False, "first", 1) == 199
    monkeypatch.setattr(power_mcnemar, "_SEARCH_LIMIT", 100)
    with pytest.raises(ValueError, match=r"passed 64 items without settling; it stops at 100\."):
        _exact_sample_size(0.6, 0.4, 0.05, 0.8, True, True, False, "first", 1)
    # Connor's n may take exactly half the limit: 2 * 194 = 388.
    monkeypatch.setattr(power_mcnemar, "_SEARCH_LIMIT", 388)
    assert mcnemar_sample_size(0.6, 0.4) == 199
    monkeypatch.setattr(power_mcnemar, "_SEARCH_LIMIT", 387)
    with pytest.raises(ValueError, match=r"^The normal approximation already asks for 194 items; the exact search stops at 387\."):
        mcnemar_sample_size(0.6, 0.4)


def test_sample_size_at_the_edges_of_the_rates():
    # Rates of 0 and 1 are allowed. Always A alone right: the exact test needs 2 / 2**n <= 0.05.
    assert mcnemar_sample_size(1.0, 0.0) == 6
    assert mcnemar_sample_size(0.0, 0.3) == mcnemar_sample_size(0.3, 0.0)
    # Connor's n = z**2 = 0.708 at alpha = 0.4 (power 1 once sqrt(n) > z): one item.
    assert mcnemar_sample_size(1.0, 0.0, alpha=0.4, target_power=0.5, power_method="normal") == 1


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((0.05, 0.05), {}, ValueError, r"^`p01` and `p10` must differ: .*got p01 = p10 = 0.05\.$"),
        ((1.05, 0.0), {}, ValueError, r"`p01` must lie in \[0, 1\]; got 1.05"),
        ((0.05, "0.02"), {}, TypeError, r"`p10` must be a real number in \[0, 1\]; got '0.02'"),
        ((1.5, "0.02"), {}, ValueError, r"^`p01` must lie in \[0, 1\]; got 1.5\.$"),
        ((0.05, [0.02]), {}, TypeError, r"`p10` must be a real number"),
        ((0.8, 0.3), {}, ValueError, r"`p01 \+ p10` is the rate of disagreement and cannot exceed 1"),
        ((0.05, 0.02), dict(target_power=0.04), ValueError, r"^`target_power` must exceed `alpha`.*got target_power=0.04 with alpha=0.05\.$"),
        ((0.05, 0.02), dict(target_power=0.05), ValueError, r"^`target_power` must exceed `alpha`.*got target_power=0.05 with alpha=0.05\.$"),
        ((0.05, 0.02), dict(target_power=1.0), ValueError, r"`target_power` must be strictly between 0 and 1; got 1.0"),
        ((0.05, 0.02), dict(alpha=0.0), ValueError, r"`alpha` must be strictly between 0 and 1; got 0.0"),
        ((0.05, 0.02), dict(power_method="simulate"), ValueError, r"`power_method` must be one of 'enumeration', 'normal'"),
        ((0.05, 0.02), dict(rule="last"), ValueError, r"`rule` must be one of 'first', 'stable'; got 'last'"),
        ((0.05, 0.02), dict(continuity="yes"), TypeError, r"`continuity` must be True or False"),
        ((0.0101, 0.01), {}, ValueError, r"The normal approximation already asks for .* items; the exact search stops at 1,000,000. Use `power_method='normal'`"),
    ],
)
def test_sample_size_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        mcnemar_sample_size(*args, **kwargs)


def test_sample_size_tiny_difference_still_has_a_normal_answer():
    assert mcnemar_sample_size(0.0101, 0.01, power_method="normal") > 1_000_000




@pytest.mark.parametrize("p01, p10", [(1e-320, 0.0), (5e-324, 0.0), (3e-309, 1e-309)])
@pytest.mark.parametrize("method", ["normal", "enumeration"])
def test_sample_size_of_a_vanishing_difference_is_refused_clearly(p01, p10, method):
    # The size passes 1e308 items: a clear refusal, not inf, an OverflowError or a warning.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        refusal = r"`p01` and `p10` differ by only .*: the normal approximation asks for more than 1e308 items, beyond"
        with pytest.raises(ValueError, match=refusal):
            mcnemar_sample_size(p01, p10, power_method=method)


@pytest.mark.parametrize("p01, p10", [(0.3, 0.3 - 1e-10), (1e-200, 0.0), (3e-300, 1e-300)])
def test_normal_sample_size_of_a_tiny_difference_is_the_closed_form(p01, p10):
    # Connor's n = (z_a sqrt(psi) + z_b sqrt(psi - d^2))^2 / d^2, computed with exact
    # rationals, where float64 would underflow d^2 (d = 1e-200).
    from fractions import Fraction

    psi, d = Fraction(p01) + Fraction(p10), Fraction(p01) - Fraction(p10)
    z_a, z_b = Fraction(float(stats.norm.isf(0.025))), Fraction(float(stats.norm.ppf(0.8)))
    root_psi = Fraction(math.sqrt(psi))  # float precision is enough for rel=1e-12 below
    root_rest = Fraction(math.sqrt(psi - d * d))
    expected = (z_a * root_psi + z_b * root_rest) ** 2 / d**2
    assert mcnemar_sample_size(p01, p10, power_method="normal") == pytest.approx(float(expected), rel=1e-12)

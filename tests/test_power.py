"""sigeval.power: paired t power, MDE and seeds needed (McNemar's power is in test_power_mcnemar.py)."""

import re
import warnings

import numpy as np
import pytest
from scipy import integrate, stats

from sigeval import (
    power_paired,
    power_tost,
    seeds_needed,
    seeds_needed_tost,
    tost_paired,
)


def test_mde_and_power_by_hand():
    sigma, n, alpha, target = 0.012, 10, 0.05, 0.8
    res = power_paired(sigma, n, alpha=alpha, target_power=target, delta=0.01)
    t_crit, t_pow = stats.t.ppf(1 - alpha / 2, n - 1), stats.t.ppf(target, n - 1)
    assert res.mde == pytest.approx((t_crit + t_pow) * sigma / np.sqrt(n), rel=1e-13)
    nc = 0.01 * np.sqrt(n) / sigma
    power = stats.nct.sf(t_crit, n - 1, nc) + stats.nct.cdf(-t_crit, n - 1, nc)
    assert res.power == pytest.approx(power, rel=1e-12)
    assert isinstance(res.mde, float) and isinstance(res.n, int)


def test_power_at_zero_effect_is_alpha_and_symmetric():
    res = power_paired(1.0, [3, 10, 50], alpha=0.05, delta=0.0)
    np.testing.assert_allclose(res.power, 0.05, rtol=1e-10)
    up = power_paired(1.0, 12, delta=0.4).power
    down = power_paired(1.0, 12, delta=-0.4).power
    assert up == pytest.approx(down, rel=1e-12)


def test_issue_claim_power_at_mde_is_0799_at_ten_seeds():
    res = power_paired(1.0, 10)
    assert f"{res.power_at_mde:.3f}" == "0.799"
    assert res.power_at_mde == pytest.approx(0.79900, abs=5e-5)


def test_power_at_mde_across_seed_counts():
    n = np.arange(3, 101)
    p = power_paired(1.0, n).power_at_mde
    # The formula is optimistic for few seeds: the exact power falls short of the target ...
    assert np.all(p[n <= 16] < 0.8)
    assert np.all(np.diff(p[n <= 17]) > 0)
    assert p[n == 3][0] == pytest.approx(0.7663, abs=1e-4)
    assert p[n == 5][0] == pytest.approx(0.7913, abs=1e-4)
    # ... 0.799 at 10 seeds, within 0.0005 of it from 12 seeds on, never 0.0002 above.
    assert np.all(np.abs(p[n >= 12] - 0.8) < 0.0005)
    assert p.max() < 0.8002
    assert n[np.argmax(p >= 0.8)] == 17
    # At a stricter level it stays further below: 0.782 at 10 seeds for alpha = 0.01.
    assert f"{power_paired(1.0, 10, alpha=0.01).power_at_mde:.3f}" == "0.782"


def test_seed_001_planetoid_numbers():
    # MDE about 0.014 at 10 seeds; half a point would take roughly 60 seeds.
    sigma = 0.014 * np.sqrt(10) / (stats.t.ppf(0.975, 9) + stats.t.ppf(0.8, 9))
    assert power_paired(sigma, 10).mde == pytest.approx(0.014, rel=1e-12)
    assert 55 <= seeds_needed(sigma, 0.005) <= 70


@pytest.mark.parametrize(("n", "effect"), [(10, 0.8), (5, 1.5), (20, 0.4)])
def test_power_matches_monte_carlo(n, effect):
    rng = np.random.default_rng(2024 + n)
    n_sims = 20_000
    d = rng.normal(effect, 1.0, (n_sims, n))
    simulated = np.mean(stats.ttest_1samp(d, 0.0, axis=1).pvalue < 0.05)
    exact = power_paired(1.0, n, delta=effect).power
    assert abs(simulated - exact) < 3.5 * np.sqrt(exact * (1 - exact) / n_sims)


def test_power_far_in_the_tails_is_finite():
    # scipy's nct.cdf is NaN far in the lower tail (df=19, nc=8.9); the power must not be.
    res = power_paired(0.5, [2, 20, 200], delta=[1.0, 1.0, 3.0])
    assert np.all(np.isfinite(res.power)) and res.power[1] > 0.999
    t_crit = stats.t.isf(0.025, 4)
    for nc in (0.5, 1.0, 3.0):  # where nct.cdf is reliable, both forms of the lower tail agree
        assert stats.nct.sf(t_crit, 4, -nc) == pytest.approx(stats.nct.cdf(-t_crit, 4, nc), rel=1e-8)


@pytest.mark.parametrize("r", [0.3, 1.0, 3.0])
def test_power_with_a_huge_critical_value_is_the_chi_square_limit(r):
    # T = (Z + nc) / sqrt(V / df). With nc = r * t_crit and t_crit in the hundred thousands,
    # P(|T| > t_crit) = P(V < df r^2) up to ~1/nc^2: 2 Phi(r) - 1 at 1 df, 1 - exp(-r^2) at 2 df.
    # scipy's noncentral t is off there (0.46 instead of 0.62 at 1 df, alpha = 1e-6, r = 0.88;
    # a Monte Carlo of 1e6 draws gives 0.623) and NaN from nc ~ 1e10.
    cases = [(2, 1e-6, 2 * stats.norm.cdf(r) - 1), (3, 1e-12, 1 - np.exp(-r**2)),
             (2, 1e-12, 2 * stats.norm.cdf(r) - 1)]
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for n, alpha, expected in cases:
            nc = r * stats.t.isf(alpha / 2, n - 1)
            res = power_paired(1.0, n, alpha=alpha, delta=nc / np.sqrt(n))
            assert res.power == pytest.approx(expected, rel=1e-9), (n, alpha)


def test_power_is_the_chi_square_limit_from_noncentrality_1e4_on():
    # nc = 1e4 * sqrt(4) / 2 = 1e4 exactly, at a level putting t_crit near 1e4 (3 df):
    # the documented limit P(chi2_3 < 3 nc^2 / t_crit^2), not scipy's value (5e-9 higher).
    alpha = 2 * stats.t.sf(1e4, 3)
    t_crit = stats.t.isf(alpha / 2, 3)
    limit = stats.chi2.cdf(3 * (1e4 / t_crit) ** 2, 3)
    assert power_paired(2.0, 4, alpha=alpha, delta=1e4).power == pytest.approx(limit, rel=1e-13)


def test_power_of_a_tiny_sigma_is_one_without_warnings():
    # Noncentralities of 1e200 (squared: overflow) and beyond float64 (inf) have power 1.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert power_paired(1e-200, 10, delta=1.0).power == 1.0
        assert power_paired(1e-310, 10, delta=[-1e10, 1e10]).power.tolist() == [1.0, 1.0]


def test_mde_overflow_is_refused_naming_sigma_d_without_warnings():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^The result overflows float64 \(mde not finite\): the values of `sigma_d` are too large"):
            power_paired(1e308, 2)


def test_result_records_the_design():
    res = power_paired(0.3, 12, alpha=0.01, target_power=0.9, delta=0.2)
    assert (res.sigma_d, res.n, res.alpha, res.target_power, res.delta) == (0.3, 12, 0.01, 0.9, 0.2)
    grid = power_paired([0.3, 0.6], 12, delta=0.2)
    assert grid.delta.tolist() == [0.2, 0.2] and grid.sigma_d.tolist() == [0.3, 0.6]
    without = power_paired(0.3, 12)
    assert without.delta is None and without.power is None


def test_power_broadcasts_over_n_and_effect():
    res = power_paired(0.5, np.array([5, 10, 20])[:, None], delta=np.array([0.1, 0.3, 0.5, 1.0]))
    assert res.power.shape == (3, 4) and res.mde.shape == (3, 4)
    assert np.all(np.diff(res.power, axis=0) > 0) and np.all(np.diff(res.power, axis=1) > 0)
    one = power_paired(0.5, 10, delta=0.3)
    assert res.power[1, 1] == pytest.approx(one.power, rel=1e-14)
    assert power_paired(0.5, 10).power is None


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((0.0, 10), {}, ValueError, r"`sigma_d` must be positive; got 0.0"),
        ((-1.0, 10), {}, ValueError, r"`sigma_d` must be positive"),
        ((np.nan, 10), {}, ValueError, r"`sigma_d` must be finite"),
        ((1.0, 1), {}, ValueError, r"`n` must be at least 2 pairs; got 1"),
        ((1.0, [2, 1]), {}, ValueError, r"`n` must be at least 2 pairs; got 1\.$"),
        (([0.5, -1.0], 10), {}, ValueError, r"`sigma_d` must be positive; got -1\.0\.$"),
        ((1.0, 10), dict(target_power=1.0), ValueError, r"`target_power` must be strictly between 0 and 1; got 1\.0"),
        ((1.0, 2.5), {}, ValueError, r"`n` must hold whole numbers"),
        ((1.0, 10), dict(alpha=0.0), ValueError, r"`alpha` must be strictly between 0 and 1"),
        ((1.0, 10), dict(target_power=0.04), ValueError, r"`target_power` must exceed `alpha`.*got 0.04 with alpha=0.05"),
        ((1.0, 10), dict(delta=np.nan), ValueError, r"`delta` must be finite"),
        ((1.0, [5, 10]), dict(delta=[0.1, 0.2, 0.3]), ValueError, r"`sigma_d`, `n` and `delta` must broadcast"),
        (("1", 10), {}, TypeError, r"`sigma_d` must hold real numbers"),
    ],
)
def test_power_paired_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        power_paired(*args, **kwargs)


def _brute_force_seeds(sigma, delta, alpha, power, n_max=5000):
    n = np.arange(2, n_max)
    p = power_paired(sigma, n, alpha=alpha, delta=delta).power
    return int(n[np.argmax(p >= power)])


@pytest.mark.parametrize(
    ("sigma", "delta", "alpha", "power"),
    [(1.0, 0.5, 0.05, 0.8), (1.0, 0.2, 0.05, 0.9), (0.3, 0.1, 0.01, 0.8), (1.0, 1.0, 0.05, 0.8),
     (1.0, 0.1, 0.1, 0.5), (2.0, -0.7, 0.05, 0.95), (1.0, 3.0, 0.001, 0.99)],
)
def test_seeds_needed_matches_brute_force(sigma, delta, alpha, power):
    n = seeds_needed(sigma, delta, alpha=alpha, target_power=power)
    assert isinstance(n, int)
    assert n == _brute_force_seeds(sigma, delta, alpha, power)


def test_seeds_needed_edge_cases():
    assert seeds_needed(1.0, 30.0) == 2  # a huge effect: two pairs are enough
    assert seeds_needed(1.0, 10.0) == 3  # at 2 pairs (1 df) the power is only 0.73
    n = seeds_needed(1.0, 0.01)  # a tiny effect: tens of thousands of seeds
    at = power_paired(1.0, [n - 1, n], delta=0.01).power
    assert at[0] < 0.8 <= at[1]
    assert 70_000 < n < 90_000
    assert seeds_needed(1.0, -0.5) == seeds_needed(1.0, 0.5)


def test_seeds_needed_when_the_power_equals_the_target_exactly():
    # "reaches target_power" means power >= target: at a target equal to the power at n, n is enough.
    for n in (2, 10):
        at_n = power_paired(1.0, n, delta=0.9).power
        assert seeds_needed(1.0, 0.9, target_power=at_n) == n


def test_seeds_needed_for_a_tiny_effect_is_near_the_normal_approximation():
    # About 7.8e10 seeds: far too many to scan, found by root finding.
    n = seeds_needed(1.0, 1e-5)
    at = power_paired(1.0, [n - 1, n], delta=1e-5).power
    assert at[0] < 0.8 <= at[1]
    normal = ((stats.norm.isf(0.025) + stats.norm.ppf(0.8)) / 1e-5) ** 2
    assert abs(n - normal) < 1e-5 * normal


def test_seeds_needed_refuses_effects_too_small_for_a_count():
    z_sum = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    # The normal approximation asks for (z_sum / effect)^2 seeds; above 2**53 it cannot be counted.
    for delta, asks in [(1e-9, (z_sum / 1e-9) ** 2), (float(z_sum / np.sqrt(1.2 * 2.0**53)), 1.2 * 2.0**53)]:
        message = (
            f"`delta` = {delta!r} is too small against `sigma_d` = 1.0: the normal approximation "
            f"already asks for {asks:.3g} seeds, beyond the 9,007,199,254,740,992 a count can hold."
        )
        with pytest.raises(ValueError, match=f"^{re.escape(message)}$"):
            seeds_needed(1.0, delta)
    # An effect size that overflows or underflows asks for infinitely many, without warnings.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for sigma, delta in [(1.0, 1e-200), (1e300, 1e-300)]:
            with pytest.raises(ValueError, match=r"asks for inf seeds"):
                seeds_needed(sigma, delta)


@pytest.mark.parametrize(
    ("args", "kwargs", "error", "match"),
    [
        ((1.0, 0.0), {}, ValueError, r"^`delta` must be a non-zero difference to detect; got 0\.0\.$"),
        ((0.0, 0.5), {}, ValueError, r"`sigma_d` must be positive; got 0.0"),
        ((1.0, 0.5), dict(target_power=0.05), ValueError, r"`target_power` must exceed `alpha`"),
        ((1.0, 0.5), dict(alpha=1.0), ValueError, r"`alpha` must be strictly between 0 and 1"),
        ((1.0, np.inf), {}, ValueError, r"`delta` must be finite"),
        ((True, 0.5), {}, TypeError, r"`sigma_d` must be a real number; got True"),
    ],
)
def test_seeds_needed_rejects_bad_input(args, kwargs, error, match):
    with pytest.raises(error, match=match):
        seeds_needed(*args, **kwargs)


# --------------------------------------------------------------------------- many at once (Report.power)


@pytest.mark.parametrize("alpha, target_power", [(0.05, 0.80), (0.01, 0.90), (0.10, 0.50), (1e-6, 0.99)])
def test_seeds_needed_many_equals_seeds_needed_over_a_grid(alpha, target_power):
    """The vectorised search gives seeds_needed's exact integer, from 2 seeds to 10^12."""
    from sigeval._noncentral import _THRESHOLDS, seeds_needed_many

    _THRESHOLDS.clear()
    effect = np.geomspace(2e-6, 1e7, 130)
    got, refused = seeds_needed_many(effect, alpha, target_power)
    expected = [seeds_needed(1.0, float(e), alpha=alpha, target_power=target_power) for e in effect]
    assert not refused.any()
    np.testing.assert_array_equal(got, expected)
    assert got.min() == 2 and got.max() > 10**11


@pytest.mark.parametrize("alpha, target_power", [(0.05, 0.80), (1e-9, 0.80)])
def test_seeds_needed_many_at_its_thresholds(alpha, target_power):
    """Effect sizes on and next to the table's thresholds are decided by the power itself."""
    from sigeval._noncentral import _thresholds, seeds_needed_many

    low, high = _thresholds(alpha, target_power, 600)
    n = np.array([0, 1, 2, 5, 40, 500])
    effect = np.concatenate([low[n], high[n], np.nextafter(low[n], 0), np.nextafter(high[n], np.inf),
                             (low[n] + high[n]) / 2])
    got, _ = seeds_needed_many(effect, alpha, target_power)
    expected = [seeds_needed(1.0, float(e), alpha=alpha, target_power=target_power) for e in effect]
    np.testing.assert_array_equal(got, expected)
    assert set(n + 2) <= set(got.tolist())


def test_seeds_needed_many_marks_what_seeds_needed_refuses():
    from sigeval._noncentral import seeds_needed_many

    got, refused = seeds_needed_many(np.array([1e-9, 0.5, 1e-320, np.inf]), 0.05, 0.8)
    assert refused.tolist() == [True, False, True, False]
    assert got[1] == seeds_needed(1.0, 0.5) and got[3] == 2
    for effect in (1e-9, 1e-320):
        with pytest.raises(ValueError, match="too small"):
            seeds_needed(1.0, effect)
    with pytest.raises(ValueError, match="`target_power` must exceed `alpha`"):
        seeds_needed_many(np.array([1.0]), 0.5, 0.4)


def test_seeds_needed_each_equals_seeds_needed_at_each_level():
    """One level per effect size (Holm's), each searched directly: seeds_needed's integer and refusals."""
    from sigeval._noncentral import seeds_needed_each

    gen = np.random.default_rng(6)
    effect = np.concatenate([np.geomspace(2e-6, 1e7, 60), [1e-9, 1e-320, np.inf]])
    alpha = 10.0 ** gen.uniform(-9, np.log10(0.2), effect.size)
    got, refused = seeds_needed_each(effect, alpha, 0.8)
    assert got.dtype == np.int64 and refused.dtype == bool  # counts, exact beyond 2**53 too
    assert refused.tolist() == [False] * 60 + [True, True, False]
    expected = [seeds_needed(1.0, float(e), alpha=float(a)) for e, a in zip(effect[:60], alpha[:60], strict=True)]
    np.testing.assert_array_equal(got[:60], expected)
    assert got[-1] == 2 and got[:60].min() == 2 and got[:60].max() > 10**11
    assert got[60] == got[61] == 0


def test_seeds_needed_each_refuses_levels_that_do_not_match():
    from sigeval._noncentral import seeds_needed_each

    with pytest.raises(ValueError, match=r"one level per effect size \(1-D\); got shapes \(2,\) and \(3,\)"):
        seeds_needed_each(np.ones(3), np.full(2, 0.05), 0.8)
    with pytest.raises(ValueError, match=r"got shapes \(1, 2\) and \(1, 2\)"):
        seeds_needed_each(np.ones((1, 2)), np.full((1, 2), 0.05), 0.8)
    with pytest.raises(ValueError, match=r"must exceed every `alpha`.* got 0.4 with alpha up to 0.5\.$"):
        seeds_needed_each(np.ones(2), np.array([0.01, 0.5]), 0.4)
    for alpha, target_power in [(0.0, 0.8), (0.3, 0.3), (0.05, 1.0), (0.05, 1.5)]:
        with pytest.raises(ValueError, match=rf"must exceed every `alpha`.* got {target_power} with alpha up to {alpha}"):
            seeds_needed_each(np.ones(2), np.array([0.01, alpha]), target_power)
    with pytest.raises(ValueError, match=r"got 1.0 with alpha up to 0.0\.$"):  # nothing to search, a bad power
        seeds_needed_each(np.ones(0), np.ones(0), 1.0)
    assert [a.size for a in seeds_needed_each(np.ones(0), np.ones(0), 0.8)] == [0, 0]


def _recording(monkeypatch, module, name):
    """Replace module.name by a wrapper that records its arguments."""
    original = getattr(module, name)
    calls = []

    def recorded(*args):
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(module, name, recorded)
    return calls


def test_seeds_needed_many_decides_from_the_table_beyond_a_relative_margin_of_1e_8(monkeypatch):
    """Effect sizes more than 1e-8 (relative) from every threshold are answered by the table alone;
    closer ones by the power, at n = 2 and then by the search; all as seeds_needed answers."""
    from sigeval import _noncentral

    monkeypatch.setattr(_noncentral, "_THRESHOLDS", {})
    low, high = _noncentral._thresholds(0.05, 0.8, 600)
    i = np.array([0, 1, 8, 98, 498])  # n = 2, 3, 10, 100, 500
    sure = np.concatenate([high[i] * (1 + 2e-8), low[i] * (1 - 2e-8)])
    close = np.concatenate([high[i] * (1 + 5e-9), low[i] * (1 - 5e-9)])
    reached = _recording(monkeypatch, _noncentral, "_reached")
    got, refused = _noncentral.seeds_needed_many(sure, 0.05, 0.8)
    assert reached == [] and not refused.any()
    assert got.dtype == np.int64
    assert got.tolist() == (i + 2).tolist() + (i + 3).tolist()
    assert got.tolist() == [seeds_needed(1.0, float(e)) for e in sure]
    reached.clear()  # seeds_needed searches through _reached too: record seeds_needed_many's calls only
    got, _ = _noncentral.seeds_needed_many(np.concatenate([sure, close]), 0.05, 0.8)
    np.testing.assert_array_equal(reached[0][0], close)  # the power at n = 2 for the close ones only
    np.testing.assert_array_equal(reached[0][1], 2.0)
    assert got.tolist() == [seeds_needed(1.0, float(e)) for e in np.concatenate([sure, close])]



@pytest.mark.parametrize("t_crit, searched", [(949.0, True), (776.0, False)])
def test_seeds_needed_many_decides_by_the_power_next_to_thresholds_of_noncentrality_over_1000(
        monkeypatch, t_crit, searched):
    """Near the far limit (noncentrality 1e4, where the power switches formula) the table is not trusted:
    an effect size beside a threshold whose noncentrality exceeds 1e3 is decided by the power, even when
    the threshold on its other side is below 1e3."""
    from sigeval import _noncentral

    alpha = 2 * stats.t.sf(t_crit, 4)  # t_crit at 4 degrees of freedom, n = 5
    monkeypatch.setattr(_noncentral, "_THRESHOLDS", {})
    low, high = _noncentral._thresholds(alpha, 0.8, 64)
    nc = high * np.sqrt(np.arange(2, 65))
    assert (nc[3] > 1e3) == searched and 909.1 < nc[3] < 1.2e3 and nc[4] < 1e3 < nc[2] / 5
    effect = np.array([low[3] * (1 - 2e-8)])  # between the thresholds of n = 5 and n = 6
    reached = _recording(monkeypatch, _noncentral, "_reached")
    got, _ = _noncentral.seeds_needed_many(effect, alpha, 0.8)
    assert (reached != []) == searched
    assert got.tolist() == [6] == [seeds_needed(1.0, effect[0], alpha=alpha)]

def test_seeds_needed_many_does_not_trust_a_table_that_is_not_strictly_decreasing(monkeypatch):
    from sigeval import _noncentral

    low, high = _noncentral._threshold_brackets(np.arange(2, 65, dtype=float), 0.05, 0.8)
    high[5] = high[4]  # a tie: the effect sizes between are not sure to need n = 7
    monkeypatch.setattr(_noncentral, "_THRESHOLDS", {(0.05, 0.8): (low, high)})
    effect = np.array([5.0, 1.0, 0.5, 0.3])
    reached = _recording(monkeypatch, _noncentral, "_reached")
    got, _ = _noncentral.seeds_needed_many(effect, 0.05, 0.8)
    np.testing.assert_array_equal(reached[0][0], effect)  # every one decided by the power
    assert got.tolist() == [seeds_needed(1.0, e) for e in effect]


def test_seeds_needed_many_starts_its_search_at_the_t_formula(monkeypatch):
    """Beyond the table the search starts at ceil(((t_{1-alpha/2} + t_power) / e)^2), the t quantiles
    at the normal formula's n0 - 1 degrees of freedom (n0 at least 2)."""
    from sigeval import _noncentral

    searched = _recording(monkeypatch, _noncentral, "_search_reached")
    effect = np.array([0.01, 3e-4, 0.5, 5.0, 20.0])
    for alpha, target_power in [(0.05, 0.8), (0.2, 0.3)]:
        searched.clear()
        monkeypatch.setattr(_noncentral, "_THRESHOLDS", {})
        low, high = _noncentral._thresholds(alpha, target_power, 10**6)
        high = high.copy()
        high[1] = high[0]  # a table not strictly decreasing: every effect size is searched
        monkeypatch.setattr(_noncentral, "_THRESHOLDS", {(alpha, target_power): (low, high)})
        got, _ = _noncentral.seeds_needed_many(effect, alpha, target_power)
        z_sum = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
        n0 = np.maximum((z_sum / effect) ** 2, 2.0)
        start = np.ceil(((stats.t.isf(alpha / 2, n0 - 1) + stats.t.ppf(target_power, n0 - 1)) / effect) ** 2)
        (es, first, a, t), = searched
        two = np.array([seeds_needed(1.0, e, alpha=alpha, target_power=target_power) == 2 for e in effect])
        assert t == target_power and np.all(a == alpha)  # the level, once per effect size searched
        np.testing.assert_array_equal(es, effect[~two])
        np.testing.assert_array_equal(first, np.maximum(start[~two], 2))
        assert got.tolist() == [seeds_needed(1.0, e, alpha=alpha, target_power=target_power) for e in effect]


def test_seeds_needed_many_of_zero_tiny_and_infinite_effects_warns_nothing():
    from sigeval._noncentral import seeds_needed_many

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        got, refused = seeds_needed_many(np.array([0.0, 1e-320, 1e-9, np.inf, 0.5]), 0.05, 0.8)
    assert refused.dtype == bool and got.dtype == np.int64
    assert refused.tolist() == [True, True, True, False, False]
    assert got.tolist() == [0, 0, 0, 2, seeds_needed(1.0, 0.5)]


def test_seeds_needed_many_refuses_where_twice_the_normal_formula_exceeds_2_54_seeds():
    """As seeds_needed: refused when 2 (z_sum / e)^2 > 2**54, searched (to about 2**52.7) below."""
    from sigeval._noncentral import seeds_needed_many

    z_sum = stats.norm.isf(0.025) + stats.norm.ppf(0.8)
    effect = z_sum / np.sqrt(np.array([0.8, 1.2]) * 2.0**53)  # 2 (z/e)^2 = 1.6 and 2.4 times 2**53
    got, refused = seeds_needed_many(effect, 0.05, 0.8)
    assert refused.tolist() == [False, True] and got[1] == 0
    assert got[0] == seeds_needed(1.0, effect[0]) and 0.79 * 2.0**53 < got[0] < 0.81 * 2.0**53
    with pytest.raises(ValueError, match="too small"):
        seeds_needed(1.0, effect[1])


def test_seeds_needed_many_when_the_power_equals_the_target_exactly():
    """A target equal to the power at 10 seeds (the same arithmetic) is reached at 10 seeds."""
    from sigeval._noncentral import seeds_needed_many

    effect = 0.8
    target_power = float(_power_by_scipy(effect, 10.0, 0.05))
    got, _ = seeds_needed_many(np.array([effect]), 0.05, target_power)
    assert got.tolist() == [10]
    assert seeds_needed(1.0, effect, target_power=target_power) == 10


@pytest.mark.parametrize("alpha, target_power", [(0.0, 0.8), (0.5, 0.5), (0.05, 1.0), (0.05, 1.5), (1.0, 0.8)])
def test_seeds_needed_many_refuses_levels_outside_0_alpha_target_1(monkeypatch, alpha, target_power):
    from sigeval import _noncentral

    power_beyond, calls = _noncentral.power_beyond, []

    def bounded(*args):  # a level let through would search without end: fail instead
        calls.append(1)
        assert len(calls) < 300, "searched without end"
        return power_beyond(*args)

    monkeypatch.setattr(_noncentral, "power_beyond", bounded)
    monkeypatch.setattr(_noncentral, "_THRESHOLDS", {})
    message = (f"`target_power` must exceed `alpha` (a test rejects with probability alpha when there is no effect); "
               f"got {target_power!r} with alpha={alpha!r}.")
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        _noncentral.seeds_needed_many(np.array([0.5]), alpha, target_power)

def test_seeds_needed_many_stops_if_the_power_never_reaches_the_target(monkeypatch):
    """A power function that fails (always short) ends the search with an error, not an endless loop."""
    from sigeval import _noncentral

    monkeypatch.setattr(_noncentral, "_reached", lambda e, n, alpha, target: np.zeros(np.shape(n), dtype=bool))
    with pytest.raises(ArithmeticError, match="did not reach 0.8"):
        _noncentral._search_reached(np.array([0.5]), np.array([10]), 0.05, 0.8)



def test_search_reached_tries_up_to_2_62_seeds_and_names_three_effect_sizes(monkeypatch):
    """The message's bound is the last n tried; it quotes the first three effect sizes."""
    from sigeval import _noncentral

    probes = []

    def never(e, n, alpha, target_power):
        probes.extend(np.asarray(n).tolist())
        return np.zeros(np.shape(n), dtype=bool)

    monkeypatch.setattr(_noncentral, "_reached", never)
    message = ("The power of the paired t-test did not reach 0.8 for effect sizes [0.5, 0.25, 0.125] "
               "with up to 2**62 seeds; this is a numerical failure.")
    with pytest.raises(ArithmeticError, match="^" + re.escape(message) + "$"):
        _noncentral._search_reached(np.array([0.5, 0.25, 0.125, 0.0625]), np.full(4, 2**62 - 1), 0.05, 0.8)
    assert probes == [2**62 - 1] * 4 + [2**62] * 4


def _power_by_scipy(effect, n, alpha):
    """The two-sided paired t power at n seeds, term by term from scipy's noncentral t."""
    t_crit, nc = stats.t.isf(alpha / 2, n - 1), effect * np.sqrt(n)
    return stats.nct.sf(t_crit, n - 1, nc) + stats.nct.sf(t_crit, n - 1, -nc)


@pytest.mark.parametrize("alpha, target_power", [(0.05, 0.8), (0.01, 0.9), (0.3, 0.35)])
def test_threshold_brackets_hold_the_crossing_within_1e_13_in_few_evaluations(monkeypatch, alpha, target_power):
    """low falls short and high reaches, high / low - 1 <= 1e-13, in fewer vectorised power
    evaluations than the 42 halvings that bisection alone needs from a bracket of ratio 1.25."""
    from sigeval import _noncentral

    calls = []
    power_beyond = _noncentral.power_beyond

    def counted(*args):
        calls.append([np.array(a, dtype=float) for a in args])
        assert len(calls) <= 200, "no convergence"
        return power_beyond(*args)

    monkeypatch.setattr(_noncentral, "power_beyond", counted)
    n = np.r_[np.arange(2, 200), 500, 1000, 4096].astype(float)
    low, high = _noncentral._threshold_brackets(n, alpha, target_power)
    assert len(calls) <= 41
    assert low.shape == high.shape == n.shape
    assert np.all(low < high) and np.all(high - low <= 1e-13 * high)
    for m in (2, 3, 4, 7, 30, 199, 500, 4096):
        k = np.flatnonzero(n == m)[0]
        assert _power_by_scipy(low[k], m, alpha) < target_power <= _power_by_scipy(high[k], m, alpha), m
    # It starts at the MDE formula's effect size (t_crit + t_power) / sqrt(n), then widens by a factor 1.25:
    # down where that effect size reaches the target, up where it falls short.
    t_crit, t_power = stats.t.isf(alpha / 2, n - 1), stats.t.ppf(target_power, n - 1)
    start = (t_crit + t_power) / np.sqrt(n)
    np.testing.assert_allclose(calls[0][0], start * np.sqrt(n), rtol=1e-15)
    np.testing.assert_array_equal(calls[0][1], n - 1)
    np.testing.assert_allclose(calls[0][2], t_crit, rtol=1e-15)
    reaches = _power_by_scipy(start, n, alpha) >= target_power
    second = iter(calls[1:3])
    for moved, factor in [(reaches, 1 / 1.25), (~reaches, 1.25)]:
        if moved.any():
            nc, df, _ = next(second)
            np.testing.assert_array_equal(df, n[moved] - 1)
            np.testing.assert_allclose(nc, start[moved] * factor * np.sqrt(n[moved]), rtol=1e-15)


def test_thresholds_cover_n_from_2_growing_by_doubling_up_to_4096(monkeypatch):
    """The table starts at 64 seeds, at least doubles when it grows, stops at 4096, and is kept per level."""
    from sigeval import _noncentral

    monkeypatch.setattr(_noncentral, "_THRESHOLDS", {})
    brackets = _noncentral._threshold_brackets
    asked = []

    def recorded(n, alpha, target_power):
        asked.append((n[0], n[-1]) if n.size else ())
        return brackets(n, alpha, target_power)

    monkeypatch.setattr(_noncentral, "_threshold_brackets", recorded)
    low, high = _noncentral._thresholds(0.05, 0.8, 10)
    assert asked == [(2, 64)] and low.size == high.size == 63
    expected_low, expected_high = brackets(np.arange(2, 65, dtype=float), 0.05, 0.8)
    np.testing.assert_array_equal(low, expected_low)
    np.testing.assert_array_equal(high, expected_high)
    for n_max, computed in [(64, []), (65, [(65, 128)]), (300, [(129, 300)]), (200, []), (10**6, [(301, 4096)]),
                            (10**6, [])]:
        asked.clear()
        low, high = _noncentral._thresholds(0.05, 0.8, n_max)
        assert asked == computed, n_max
    assert low.size == high.size == 4095
    np.testing.assert_array_equal(low[:63], expected_low)
    assert _noncentral._thresholds(0.01, 0.8, 2)[0].size == 63  # another level, another table


def test_thresholds_keep_at_most_17_levels(monkeypatch):
    from sigeval import _noncentral

    monkeypatch.setattr(_noncentral, "_THRESHOLDS", {})
    levels = [(0.01 + k / 1000, 0.8) for k in range(18)]
    for alpha, target_power in levels[:17]:
        _noncentral._thresholds(alpha, target_power, 2)
    assert list(_noncentral._THRESHOLDS) == levels[:17]
    _noncentral._thresholds(*levels[17], 2)  # the 18th level starts the cache afresh
    assert list(_noncentral._THRESHOLDS) == levels[17:]

def _smallest_n_by_brute_force(effect, alpha, target_power):
    """The smallest n >= 2 whose noncentral-t power (scipy, term by term) reaches the target."""
    n = 2
    while True:
        t_crit, nc = stats.t.isf(alpha / 2, n - 1), effect * np.sqrt(n)
        if stats.nct.sf(t_crit, n - 1, nc) + stats.nct.sf(t_crit, n - 1, -nc) >= target_power:
            return n
        n += 1


@pytest.mark.parametrize("effect", [20.0, 3.0, 1.0])
def test_search_reached_finds_the_smallest_n_from_any_start(effect):
    """From starts below, at and above the answer (fractional ones are cut to integers), the same n >= 2."""
    from sigeval._noncentral import _search_reached

    answer = _smallest_n_by_brute_force(effect, 0.05, 0.8)
    starts = np.array([0.0, 1.0, 2.0, 2.9, 3.0, 4.0, 5.0, answer - 1, answer + 0.7, answer + 1, answer + 2,
                       answer + 3, 37.5, 1000.0])
    got = _search_reached(np.full(starts.size, effect), starts, 0.05, 0.8)
    assert got.dtype == np.int64
    assert got.tolist() == [answer] * starts.size


def test_search_reached_probes_the_power_near_its_start(monkeypatch):
    """A start at the answer costs two powers (it and the n below), one short of it two as well."""
    from sigeval import _noncentral

    answer = _smallest_n_by_brute_force(0.5, 0.05, 0.8)
    reached = _noncentral._reached
    probes = []

    def recorded(e, n, alpha, target_power):
        probes.extend(np.asarray(n).tolist())
        return reached(e, n, alpha, target_power)

    monkeypatch.setattr(_noncentral, "_reached", recorded)
    expected = {answer: [answer, answer - 1], answer - 1: [answer - 1, answer],
                answer + 1: [answer + 1, answer, answer - 2, answer - 1], 2: None}
    for start, path in expected.items():
        probes.clear()
        assert _noncentral._search_reached(np.array([0.5]), np.array([start]), 0.05, 0.8).tolist() == [answer]
        if path is not None:
            assert probes == path, start
    # From 2, a gallop: 2, 3, 5, 9, 17, 33, 65, then a bisection of (33, 65) in five steps.
    assert probes[:7] == [2, 3, 5, 9, 17, 33, 65] and len(probes) == 12
    # Stepping down to an answer of 2, the power is never asked at n = 1 (zero degrees of freedom).
    answer = _smallest_n_by_brute_force(20.0, 0.05, 0.8)
    for start, path in {4: [4, 3, 2], 3: [3, 2], 2: [2], 7: [7, 6, 4, 2]}.items():
        probes.clear()
        assert _noncentral._search_reached(np.array([20.0]), np.array([start]), 0.05, 0.8).tolist() == [answer]
        assert probes == path, start


# --------------------------------------------------------------------------- power of TOST


def _tost_power_quad(sigma, n, margin, delta, alpha):
    """Owen's integral for the paired TOST by adaptive quadrature over s_d (scipy's quad)."""
    df = n - 1
    t = stats.t.isf(alpha, df)
    a, e = margin * np.sqrt(n) / sigma, delta * np.sqrt(n) / sigma
    lo, hi = np.sqrt(stats.chi2.ppf(1e-15, df) / df), min(a / t, np.sqrt(stats.chi2.isf(1e-15, df) / df))
    if hi <= lo:
        return 0.0

    def integrand(w):
        inner = stats.norm.cdf(a - e - t * w) - stats.norm.cdf(-a - e + t * w)
        return max(inner, 0.0) * 2 * df * w * stats.chi2.pdf(df * w * w, df)

    points = [1.0] if lo < 1 < hi else None
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", integrate.IntegrationWarning)
        return integrate.quad(integrand, lo, hi, points=points, limit=400, epsabs=1e-13, epsrel=1e-12)[0]


@pytest.mark.parametrize("n", [2, 3, 5, 10, 30, 100, 1000, 100_000])
@pytest.mark.parametrize("alpha", [0.05, 0.01, 0.2])
def test_power_tost_matches_adaptive_quadrature(n, alpha):
    deltas = np.array([0.0, 0.1, 0.3, 0.49, -0.2, 0.6])
    res = power_tost(1.0, n, 0.5, delta=deltas, alpha=alpha)
    expected = [_tost_power_quad(1.0, n, 0.5, d, alpha) for d in deltas]
    np.testing.assert_allclose(res.power, expected, atol=1e-9)


def test_power_tost_matches_simulation_of_the_test_itself():
    # 20,000 experiments of 12 normal differences each, decided by tost_paired's own rule.
    gen = np.random.default_rng(11)
    for delta in (0.0, 0.3):
        d = gen.normal(delta, 1.0, (20_000, 12))
        mean, sd = d.mean(axis=1), d.std(axis=1, ddof=1)
        half = stats.t.isf(0.05, 11) * sd / np.sqrt(12)
        equivalent = (mean - half > -1.0) & (mean + half < 1.0)
        expected = power_tost(1.0, 12, 1.0, delta=delta).power
        assert abs(equivalent.mean() - expected) < 3 * np.sqrt(expected * (1 - expected) / 20_000)
    # ... and the library's test on a few of the same experiments agrees with that rule.
    for row in d[:20]:
        r = tost_paired(row, np.zeros(12), margin=1.0)
        assert r.equivalent == bool(abs(row.mean()) + stats.t.isf(0.05, 11) * row.std(ddof=1) / np.sqrt(12) < 1.0)


def test_power_tost_large_sample_limit_and_shape():
    # s_d is nearly sigma_d for many pairs: power -> Phi(a - e - z) - Phi(-a - e + z).
    n, sigma, margin, delta = 20_000, 1.0, 0.03, 0.01
    a, e = margin * np.sqrt(n) / sigma, delta * np.sqrt(n) / sigma
    z = stats.t.isf(0.05, n - 1)
    limit = stats.norm.cdf(a - e - z) - stats.norm.cdf(-a - e + z)
    assert power_tost(sigma, n, margin, delta=delta).power == pytest.approx(limit, abs=2e-3)
    # Increasing in n, symmetric in delta, largest at 0, at most alpha at the margin, scale-free.
    grid = power_tost(1.0, np.arange(2, 80), 0.5).power
    assert np.all(np.diff(grid[3:]) >= -1e-12)    # increasing from 5 pairs on ...
    assert grid[0] > grid[1] > grid[2] and grid[0] < 0.05   # ... after a dip below alpha at 2-4 pairs
    assert power_tost(1.0, 30, 0.5, delta=0.2).power == pytest.approx(power_tost(1.0, 30, 0.5, delta=-0.2).power)
    assert power_tost(1.0, 30, 0.5, delta=0.0).power > power_tost(1.0, 30, 0.5, delta=0.1).power
    assert power_tost(1.0, 500, 0.5, delta=0.5).power <= 0.05
    assert power_tost(1e-3, 30, 5e-4).power == pytest.approx(power_tost(1.0, 30, 0.5).power, rel=1e-12)
    res = power_tost(1.0, 30, 0.5)
    assert isinstance(res.power, float) and isinstance(res.n, int) and res.alpha == 0.05 and res.delta == 0.0
    shaped = power_tost([[1.0], [2.0]], [10, 20, 30], 0.5)
    assert shaped.power.shape == (2, 3) and shaped.n.shape == (2, 3)


def test_seeds_needed_tost_is_the_first_count_that_reaches_the_target():
    for sigma, margin, delta, target in ((1.0, 0.5, 0.0, 0.8), (1.0, 0.5, 0.1, 0.8), (0.6, 1.0, -0.3, 0.9),
                                         (2.0, 0.25, 0.0, 0.5)):
        n = seeds_needed_tost(sigma, margin, delta=delta, target_power=target)
        assert power_tost(sigma, n, margin, delta=delta).power >= target
        if n > 2:
            assert power_tost(sigma, n - 1, margin, delta=delta).power < target
        # Brute force over every count up to it agrees.
        scan = power_tost(sigma, np.arange(2, n + 1), margin, delta=delta).power
        assert int(np.argmax(scan >= target)) + 2 == n
    assert seeds_needed_tost(0.01, 1.0) == 2
    # Beyond the scanned counts, by bisection: still the first count that reaches the target.
    n = seeds_needed_tost(1.0, 0.08)
    assert n > 1024
    assert power_tost(1.0, n, 0.08).power >= 0.8 > power_tost(1.0, n - 1, 0.08).power
    # The normal approximation at delta = 0, (z_{1-a} + z_{1-b/2})^2 sigma^2 / margin^2, is close for many pairs.
    approx = (stats.norm.isf(0.05) + stats.norm.isf(0.1)) ** 2 * 4.0**2
    assert seeds_needed_tost(4.0, 1.0) == pytest.approx(approx, rel=0.05)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(sigma_d=1.0, margin=0.5, delta=0.5), "`delta` must lie strictly inside"),
        (dict(sigma_d=1.0, margin=0.5, delta=-0.7), "`delta` must lie strictly inside"),
        (dict(sigma_d=0.0, margin=0.5), "`sigma_d`"),
        (dict(sigma_d=1.0, margin=-0.5), "`margin`"),
        (dict(sigma_d=1.0, margin=0.5, alpha=0.5), "`alpha`"),
        (dict(sigma_d=1.0, margin=0.5, target_power=0.01), "`target_power`"),
        (dict(sigma_d=1e300, margin=1e-300), "`margin`"),
        (dict(sigma_d=1.0, margin=1e-9), "too narrow"),
    ],
)
def test_seeds_needed_tost_refuses(kwargs, match):
    with pytest.raises(ValueError, match=match):
        seeds_needed_tost(**kwargs)


@pytest.mark.parametrize(
    "args, kwargs, match",
    [
        ((0.0, 10, 0.5), {}, "`sigma_d`"),
        ((1.0, 1, 0.5), {}, "`n`"),
        ((1.0, 10, 0.0), {}, "`margin`"),
        ((1.0, 10, 0.5), dict(alpha=0.5), "`alpha`"),
        ((1.0, 10, 0.5), dict(delta=np.nan), "`delta`"),
        ((1e-300, 10, 1e300), {}, "`sigma_d`"),
        (([1.0, 2.0], [10, 20, 30], 0.5), {}, "broadcast"),
    ],
)
def test_power_tost_refuses(args, kwargs, match):
    with pytest.raises(ValueError, match=match):
        power_tost(*args, **kwargs)


@pytest.mark.parametrize(
    "sigma, margin, delta, target",
    [(0.3, 0.5, 0.0, 0.8), (0.5, 0.5, 0.2, 0.9), (0.8, 0.5, -0.1, 0.5), (1.0, 0.5, 0.0, 0.95), (1.0, 0.12, 0.03, 0.8)],
)
def test_seeds_needed_tost_against_a_scan_of_every_count(sigma, margin, delta, target):
    n = seeds_needed_tost(sigma, margin, delta=delta, target_power=target)
    counts = np.arange(2, 2 * n + 10)
    scan = power_tost(sigma, counts, margin, delta=delta).power
    assert n == int(counts[np.argmax(scan >= target)])


def test_seeds_needed_tost_at_the_edges_of_its_search():
    # The last count of the one-shot scan, and the first one after it.
    assert seeds_needed_tost(1.0, 0.09151069608289397) == 1024
    assert seeds_needed_tost(1.0, 0.09151069608289396) == 1025
    # An answer between 2**52 and 2**53: the doubling reaches exactly 2**53 and must still try it.
    n = seeds_needed_tost(1.0, 2.4e-8)
    assert 2**52 < n <= 2**53
    assert power_tost(1.0, n, 2.4e-8).power >= 0.8 > power_tost(1.0, n - 1, 2.4e-8).power


def test_power_tost_and_seeds_needed_tost_messages_name_the_argument():
    cases = [
        (lambda: power_tost([0.0, 0.5], 10, 0.5), "`sigma_d` must be positive; got 0.0."),
        (lambda: power_tost(1.0, [2, 1], 0.5), "`n` must be at least 2 pairs; got 1."),
        (lambda: power_tost(1.0, 10, [0.0, 0.5]), "`margin` must be positive; got 0.0."),
        (lambda: power_tost([1.0, 2.0], [10, 20, 30], 0.5),
         "`sigma_d`, `n`, `margin` and `delta` must broadcast to a common shape; got shapes (2,), (3,), () and ()."),
        (lambda: power_tost(1.0, 10, [0.5, 0.4], delta=[0.1, 0.2, 0.3]),
         "`sigma_d`, `n`, `margin` and `delta` must broadcast to a common shape; got shapes (), (), (2,) and (3,)."),
        (lambda: seeds_needed_tost(1e-300, 1e300), "`margin` / `sigma_d` overflows float64: 1e+300 / 1e-300."),
        (lambda: seeds_needed_tost(1.0, 0.5, delta=0.6),
         "`delta` must lie strictly inside the margin (|delta| < 0.5); got 0.6: at or beyond the margin "
         "TOST declares equivalence with probability at most alpha."),
    ]
    for call, message in cases:
        with pytest.raises(ValueError) as info:
            call()
        assert str(info.value) == message
    for call, name in [(lambda: power_tost("a", 10, 0.5), "`sigma_d`"), (lambda: power_tost(1.0, "a", 0.5), "`n`"),
                       (lambda: power_tost(1.0, 10, "a"), "`margin`"), (lambda: power_tost(1.0, 10, 0.5, delta="a"), "`delta`"),
                       (lambda: seeds_needed_tost(1.0, 0.5, delta="a"), "`delta`")]:
        with pytest.raises(TypeError, match=name):
            call()
    with pytest.raises(ValueError, match=r"\(margin \* sqrt\(n\) / sigma_d, delta \* sqrt\(n\) / sigma_d not finite\).*`sigma_d`"):
        power_tost(1e-308, 10, 1e308)
    with pytest.raises(ValueError, match=r"\(delta \* sqrt\(n\) / sigma_d not finite\).*`sigma_d`"):
        power_tost(1.0, 10, 0.5, delta=1e308)


def test_power_tost_warns_nothing_at_extremes_and_keeps_its_inputs():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError):
            power_tost(1e-308, 10, 1e308)
        wide = power_tost(1.0, 10, 1e307, alpha=0.4999).power     # a / t beyond float64: power 1
        assert wide == pytest.approx(1.0)
    res = power_tost(2.0, 30, 0.7, delta=0.1)
    assert (res.sigma_d, res.n, res.margin, res.delta) == (2.0, 30, 0.7, 0.1)


def test_power_tost_refuses_a_quadrature_beyond_the_memory_limit():
    with pytest.raises(ValueError, match=r"(?s)^`n` = array\(.*would need .* of memory for the quadrature of each power; "
                                         r"the limit is .*Choose a smaller `n`\.$"):
        power_tost(1.0, np.arange(2, 10**7), 0.5)
    with pytest.raises(ValueError, match=r"the values of `sigma_d` are too large"):
        power_tost(1.0, 10, 0.5, delta=1e308)

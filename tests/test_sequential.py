"""Group-sequential boundaries, confidence sequences and the sequential driver."""

from __future__ import annotations

import re
import warnings

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    SEQUENTIAL_VERDICTS,
    SequentialComparison,
    _group_sequential,
    confidence_sequence,
    group_sequential_bounds,
    max_information_inflation,
    sequential,
    spending_alpha,
)
from sigeval.sequential import _running_intersection, _t_mixture_limits


@pytest.fixture(autouse=True)
def _designs_computed_afresh():
    # The boundaries are cached per design; computing them again in each test exercises the integration.
    _group_sequential._bounds.cache_clear()


def _crossing(bounds, z_paths: np.ndarray, two_sided: bool = True) -> np.ndarray:
    """Whether each simulated path of z statistics (paths x looks) crosses a boundary at some look."""
    z = np.abs(z_paths) if two_sided else z_paths
    return np.any(z >= bounds.critical_values, axis=1)


def _brownian_z(rng, n_paths: int, t: np.ndarray, theta: float = 0.0) -> np.ndarray:
    """Z_k = W(t_k) / sqrt(t_k) for a Brownian motion with drift theta, at the information rates t."""
    dt = np.diff(np.concatenate(([0.0], t)))
    w = np.cumsum(rng.normal(theta * dt, np.sqrt(dt), size=(n_paths, t.size)), axis=1)
    return w / np.sqrt(t)


# --- published values -------------------------------------------------------------------------


def test_obrien_fleming_four_looks_matches_rpact_and_gsdesign():
    # rpact getDesignGroupSequential(kMax = 4, alpha = 0.05, sided = 2, typeOfDesign = "asOF"):
    # 4.3326, 2.9631, 2.3590, 2.0141 (the same values in gsDesign with sfLDOF, test.type = 2).
    b = group_sequential_bounds(4)
    np.testing.assert_allclose(b.critical_values, [4.3326, 2.9631, 2.3590, 2.0141], atol=6e-5)
    assert b.alpha_spent[-1] == pytest.approx(0.05)


def test_pocock_type_is_nearly_constant():
    # rpact typeOfDesign = "asP", kMax = 4, two-sided 0.05: 2.3683, 2.3675, 2.3582, 2.3500.
    b = group_sequential_bounds(4, spending="pocock")
    np.testing.assert_allclose(b.critical_values, [2.3683, 2.3675, 2.3582, 2.3500], atol=6e-5)


def test_fifty_looks_spend_their_tiny_early_levels():
    # Spent at t = 0.02: 2 sf(z_{0.9875} / sqrt(0.02)), about 1e-56, which 2 - 2 cdf(.) rounds to 0.
    b = group_sequential_bounds(50)
    assert np.all(np.isfinite(b.critical_values)) and np.all(np.diff(b.critical_values) < 0)
    assert b.alpha_spent[0] == pytest.approx(2 * 2 * stats.norm.sf(stats.norm.isf(0.0125) / np.sqrt(0.02)), rel=1e-9)


def test_one_look_is_the_fixed_sample_test():
    assert group_sequential_bounds(1).critical_values[0] == pytest.approx(stats.norm.isf(0.025), abs=1e-9)
    assert group_sequential_bounds(1, alternative="greater").critical_values[0] == pytest.approx(
        stats.norm.isf(0.05), abs=1e-9)


def test_two_sided_equals_one_sided_at_half_the_level_to_printed_precision():
    two = group_sequential_bounds(3, information_rates=[0.3, 0.7, 1.0])
    one = group_sequential_bounds(3, alternative="greater", alpha=0.025, information_rates=[0.3, 0.7, 1.0])
    np.testing.assert_allclose(two.critical_values, one.critical_values, atol=1e-4)


def test_spending_functions_by_formula():
    t = np.array([0.25, 0.5, 1.0])
    np.testing.assert_allclose(spending_alpha(t, alpha=0.025),
                               2 - 2 * stats.norm.cdf(stats.norm.isf(0.0125) / np.sqrt(t)))
    np.testing.assert_allclose(spending_alpha(t, alpha=0.025, spending="pocock"),
                               0.025 * np.log(1 + (np.e - 1) * t))


# --- against simulation ---------------------------------------------------------------------


@pytest.mark.parametrize("spending", ["obrien-fleming", "pocock"])
def test_null_rejection_probability_by_monte_carlo(spending):
    t = np.array([0.2, 0.5, 0.8, 1.0])
    b = group_sequential_bounds(4, spending=spending, information_rates=t)
    z = _brownian_z(np.random.default_rng(11), 400_000, t)
    crossed = _crossing(b, z)
    se = np.sqrt(0.05 * 0.95 / crossed.size)
    assert abs(crossed.mean() - 0.05) < 3 * se
    # And the level spent by each look: the first crossing happens at look k with the spent increment.
    first = np.where(crossed, np.argmax(np.abs(z) >= b.critical_values, axis=1), -1)
    spent = np.cumsum([np.mean(first == k) for k in range(4)])
    np.testing.assert_allclose(spent, b.alpha_spent, atol=4 * se)


def test_inflation_reaches_the_target_power_by_monte_carlo():
    b = group_sequential_bounds(4)
    inflation = max_information_inflation(b, target_power=0.8)
    assert 1.01 < inflation < 1.03
    theta = np.sqrt(inflation) * (stats.norm.isf(0.025) + stats.norm.ppf(0.8))
    z = _brownian_z(np.random.default_rng(3), 200_000, b.information_rates, theta)
    power = np.mean(np.any(z >= b.critical_values, axis=1))
    assert abs(power - 0.8) < 3 * np.sqrt(0.16 / z.shape[0])
    assert max_information_inflation(group_sequential_bounds(4, spending="pocock")) > inflation


def test_t_mapping_fixes_the_calibration_of_few_seeds():
    # Looks after 5, 10 and 20 pairs of normal differences under the null.
    looks = np.array([5, 10, 20])
    b = group_sequential_bounds(3, information_rates=looks / 20)
    critical_t = b.t_critical_values(looks)
    np.testing.assert_allclose(critical_t, stats.t.ppf(stats.norm.cdf(b.critical_values), looks - 1))
    d = np.random.default_rng(5).normal(size=(40_000, 20))
    t = np.stack([d[:, :n].mean(1) / (d[:, :n].std(1, ddof=1) / np.sqrt(n)) for n in looks], axis=1)
    plain = np.mean(np.any(np.abs(t) >= b.critical_values, axis=1))
    mapped = np.mean(np.any(np.abs(t) >= critical_t, axis=1))
    se = np.sqrt(0.05 * 0.95 / d.shape[0])
    assert plain > 0.08  # z boundaries on t statistics of 5 seeds: nearly twice the level
    # Mapped, the level is nearly kept: 0.0507 measured with 10^5 paths (0.0526 for Pocock, chapter 14).
    assert abs(mapped - 0.05) < 0.003 + 2 * se


# --- confidence sequences -------------------------------------------------------------------


def _ever_excluded(truth: float, cs) -> bool:
    return bool(np.any((cs.low > truth) | (cs.high < truth)))


@pytest.mark.parametrize(
    "draw, truth",
    [
        (lambda rng, n: rng.uniform(-0.2, 0.6, n), 0.2),
        (lambda rng, n: rng.beta(0.5, 5.0, n) * 2 - 1, 0.5 / 5.5 * 2 - 1),  # skewed
        (lambda rng, n: np.where(rng.random(n) < 0.3, 1.0, -1.0), -0.4),  # two points
    ],
)
def test_betting_sequence_covers_uniformly_in_time(draw, truth):
    rng = np.random.default_rng(2)
    paths = 80
    misses = sum(_ever_excluded(truth, confidence_sequence(draw(rng, 300), bounds=(-1, 1))) for _ in range(paths))
    assert misses / paths <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / paths)


def test_t_mixture_covers_normal_means_uniformly_in_time():
    rng = np.random.default_rng(4)
    paths = 2000
    misses = sum(_ever_excluded(0.3, confidence_sequence(rng.normal(0.3, 2.0, 500), method="t-mixture"))
                 for _ in range(paths))
    assert misses / paths <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / paths)


def test_t_mixture_limits_are_where_the_mixture_martingale_reaches_one_over_alpha():
    d = np.random.default_rng(0).normal(0.1, 1.0, 40)
    low, high = _t_mixture_limits(d, 0.05, 1.0)
    n, c2 = 40, 1.0
    for mu in (low[-1], high[-1]):
        x = d - mu
        s, v = x.sum(), (x**2).sum()
        martingale = np.sqrt(c2 / (n + c2)) * (v / (v - s**2 / (n + c2))) ** (n / 2)
        assert martingale == pytest.approx(20.0, rel=1e-9)


def test_sequences_are_nested_inside_bounds_and_wider_than_the_t_interval():
    d = np.random.default_rng(9).normal(0.004, 0.003, 1000)
    for cs in (confidence_sequence(d, bounds=(-1, 1)), confidence_sequence(d, method="t-mixture", bounds=(-1, 1))):
        assert np.all(np.diff(cs.low) >= 0) and np.all(np.diff(cs.high) <= 0)
        assert np.all(cs.low >= -1) and np.all(cs.high <= 1) and np.all(cs.low <= cs.high)
        for n in (10, 30, 100, 1000):
            half_t = stats.t.ppf(0.975, n - 1) * d[:n].std(ddof=1) / np.sqrt(n)
            assert (cs.high[n - 1] - cs.low[n - 1]) / 2 > half_t
    tm = confidence_sequence(d, method="t-mixture")
    half_t = stats.t.ppf(0.975, 999) * d.std(ddof=1) / np.sqrt(1000)
    assert (tm.high[-1] - tm.low[-1]) / 2 < 2.5 * half_t  # wider, not absurdly


# --- the driver -----------------------------------------------------------------------------


@pytest.mark.parametrize("method, kwargs, paths", [
    ("t-mixture", {"max_pairs": 100}, 1500),
    ("group-sequential", {"looks": [5, 10, 20]}, 3000),
])
def test_optional_stopping_under_the_null_keeps_the_level(method, kwargs, paths):
    rng = np.random.default_rng(8)
    n = kwargs.get("max_pairs") or kwargs["looks"][-1]
    wrong = 0
    for _ in range(paths):
        comp = SequentialComparison(method=method, **kwargs)
        comp.update(rng.normal(0.8, 0.01, n), rng.normal(0.8, 0.01, n))
        assert comp.decision in SEQUENTIAL_VERDICTS
        wrong += comp.decision == "different"
    assert wrong / paths <= 0.05 + 2 * np.sqrt(0.05 * 0.95 / paths)


def test_one_update_per_pair_equals_one_update_of_all_pairs():
    rng = np.random.default_rng(1)
    a, b = rng.normal(0.81, 0.01, 60), rng.normal(0.80, 0.01, 60)
    for kwargs in ({"method": "betting", "bounds": (0, 1), "max_pairs": 60, "margin": 0.5},
                   {"method": "t-mixture", "max_pairs": 60, "margin": 0.05}):
        one, all_ = SequentialComparison(**kwargs), SequentialComparison(**kwargs)
        for x, y in zip(a, b):
            if one.update(x, y) != "continue":
                break
        all_.update(a, b)
        assert (one.decision, one.decided_at) == (all_.decision, all_.decided_at)
        assert one.decision in ("different", "equivalent", "trivial")


def test_run_stops_at_a_decision_and_reaches_undetermined_at_max_pairs():
    rng = np.random.default_rng(0)
    comp = SequentialComparison(method="t-mixture", margin=0.005, max_pairs=50)
    assert comp.run(lambda i: (0.80 + rng.normal(0, 0.003), 0.79 + rng.normal(0, 0.003))) == "different"
    assert comp.decided_at == comp.n < 50
    flat = SequentialComparison(method="betting", bounds=(0, 1), max_pairs=5)
    assert flat.run(lambda i: (rng.uniform(), rng.uniform())) == "undetermined" and flat.n == 5


def test_group_sequential_equivalence_at_the_last_look():
    rng = np.random.default_rng(0)
    comp = SequentialComparison(method="group-sequential", looks=[5, 10, 20], margin=0.01)
    comp.update(0.8 + rng.normal(0, 0.002, 20), 0.8 + rng.normal(0, 0.002, 20))
    assert comp.decision == "equivalent" and comp.decided_at == 20


@pytest.mark.parametrize("kwargs, update, match", [
    ({"method": "betting", "bounds": (0, 1)}, (1.2, 0.5), "within `bounds`"),
    ({"method": "t-mixture"}, (np.nan, 0.5), "finite"),
    ({"method": "t-mixture"}, ("a", 0.5), "real numbers"),
    ({"method": "t-mixture"}, ([0.1, 0.2], [0.1]), "paired, with the same length"),
])
def test_driver_bad_updates(kwargs, update, match):
    with pytest.raises((ValueError, TypeError), match=match):
        SequentialComparison(**kwargs).update(*update)


@pytest.mark.parametrize("kwargs, match", [
    ({"method": "betting"}, "`bounds` must be given"),
    ({"method": "t-mixture", "alpha": 1.5}, "alpha"),
    ({"method": "group-sequential"}, "`looks` must be given"),
    ({"method": "group-sequential", "looks": [10, 5]}, "increase"),
    ({"method": "group-sequential", "looks": [1, 5]}, "start at 2"),
    ({"method": "group-sequential", "looks": []}, "whole numbers"),
    ({"method": "group-sequential", "looks": [5.0, 10.0]}, "whole numbers"),
    ({"method": "t-mixture", "looks": [5, 10]}, "group-sequential"),
    ({"method": "t-mixture", "margin": -1}, "margin"),
    ({"method": "t-mixture", "max_pairs": 1}, "max_pairs"),
    ({"method": "sprt"}, "method"),
])
def test_driver_bad_arguments(kwargs, match):
    with pytest.raises((ValueError, TypeError), match=match):
        SequentialComparison(**kwargs)


def test_update_after_a_decision_is_refused():
    comp = SequentialComparison(method="t-mixture", max_pairs=3)
    comp.update([0.1, 0.2, 0.3], [0.1, 0.3, 0.2])
    with pytest.raises(ValueError, match="reached its decision"):
        comp.update(0.1, 0.1)


@pytest.mark.parametrize("call, match", [
    (lambda: group_sequential_bounds(0), "n_looks"),
    (lambda: group_sequential_bounds(2.5), "n_looks"),
    (lambda: group_sequential_bounds(3, information_rates=[0.5, 0.4, 1.0]), "information_rates"),
    (lambda: group_sequential_bounds(2, information_rates=[0.5, 0.9]), "information_rates"),
    (lambda: group_sequential_bounds(2, alpha=0.0), "alpha"),
    (lambda: group_sequential_bounds(2, spending="haybittle"), "spending"),
    (lambda: spending_alpha([0.0, 1.0]), "information fractions"),
    (lambda: max_information_inflation("design"), "GroupSequentialBounds"),
    (lambda: group_sequential_bounds(3).t_critical_values([5, 10]), "one whole number"),
    (lambda: group_sequential_bounds(2).t_critical_values([10, 5]), "increase"),
    (lambda: confidence_sequence([0.1, 0.2]), "`bounds` must be given"),
    (lambda: confidence_sequence([0.1, 2.0], bounds=(-1, 1)), "within `bounds`"),
    (lambda: confidence_sequence([], bounds=(-1, 1)), "must not be empty"),
    (lambda: confidence_sequence([0.1, np.inf], method="t-mixture"), "finite"),
    (lambda: confidence_sequence([0.1, 0.2], bounds=(1, -1)), "low <= high"),
    (lambda: confidence_sequence([0.1, 0.2], bounds=(1, 1)), "low < high"),
    (lambda: confidence_sequence([0.1, 0.2], bounds="ab"), "real numbers"),
    (lambda: confidence_sequence([0.1, 0.2], method="t-mixture", prior_precision=0.0), "prior_precision"),
    (lambda: confidence_sequence(np.array([1j, 2j]), method="t-mixture"), "real numbers"),
    (lambda: confidence_sequence([0.1, 0.2], method="t-mixture", confidence_level=1.0), "confidence_level"),
])
def test_bad_arguments(call, match):
    with pytest.raises((ValueError, TypeError), match=match):
        call()


def test_t_mixture_is_scale_free_and_handles_extreme_magnitudes():
    d = np.random.default_rng(0).normal(1.0, 1.0, 50)
    base = confidence_sequence(d, method="t-mixture")
    for scale in (1e-300, 1e300):
        cs = confidence_sequence(d * scale, method="t-mixture")
        np.testing.assert_allclose(cs.high[1:] / scale, base.high[1:], rtol=1e-9)
    # Zero spread says nothing about the spread: no collapse on the common value, no NaN, no warning;
    # the first different pair then gives an interval.
    constant = confidence_sequence(np.r_[np.full(6, 0.2), 0.3, 0.25, 0.2, 0.22], method="t-mixture")
    assert np.all(np.isinf(constant.low[:6])) and np.all(np.isinf(constant.high[:6]))
    assert np.isfinite(constant.low[-1]) and constant.low[-1] < 0.2 < constant.high[-1]


def test_an_empty_intersection_starts_afresh():
    from sigeval.sequential import _running_intersection

    low, high = _running_intersection(np.array([0.0, 0.1, 0.5, 0.4, 0.45]), np.array([1.0, 0.3, 0.9, 0.8, 0.6]))
    np.testing.assert_array_equal(low, [0.0, 0.1, 0.5, 0.5, 0.5])
    np.testing.assert_array_equal(high, [1.0, 0.3, 0.9, 0.8, 0.6])


def test_a_verdict_is_returned_only_once_more_pairs_cannot_change_it():
    rng = np.random.default_rng(3)
    # A gain of two thirds of the margin: the interval leaves zero behind first, then fits inside the margin.
    small = SequentialComparison(method="t-mixture", margin=0.03, max_pairs=200)
    assert small.update(0.82 + rng.normal(0, 0.002, 200), np.full(200, 0.8)) == "trivial"
    assert 0 < small.low and small.high < 0.03 and small.decided_at < 200
    # No gain: inside the margin while still holding zero, which more pairs cannot undo.
    none = SequentialComparison(method="t-mixture", margin=0.03, max_pairs=200)
    assert none.update(0.8 + rng.normal(0, 0.002, 200), np.full(200, 0.8)) == "equivalent"
    # A gain three times the margin: "different" only once the interval clears the margin.
    large = SequentialComparison(method="t-mixture", margin=0.01, max_pairs=200)
    assert large.update(0.83 + rng.normal(0, 0.01, 200), np.full(200, 0.8)) == "different"
    assert large.low >= 0.01
    # A gain exactly at the margin never settles: at max_pairs, the verdict of the interval then.
    edge = SequentialComparison(method="t-mixture", margin=0.01, max_pairs=60)
    decision = edge.update(0.81 + rng.normal(0, 0.01, 60), np.full(60, 0.8))
    assert edge.decided_at == 60 and edge.low < 0.01 < edge.high
    assert decision == ("different" if edge.low > 0 else "undetermined")


def test_the_driver_spends_alpha_at_the_looks_it_was_given():
    comp = SequentialComparison(method="group-sequential", looks=[5, 10, 20])
    design = group_sequential_bounds(3, information_rates=[0.25, 0.5, 1.0])
    np.testing.assert_allclose(comp.critical, design.t_critical_values([5, 10, 20]))


# --- every refusal, word for word -------------------------------------------------------------


def _gs(**kwargs):
    return SequentialComparison(method="group-sequential", **kwargs)


def _tm(**kwargs):
    return SequentialComparison(method="t-mixture", **kwargs)


@pytest.mark.parametrize("call, error, message", [
    (lambda: spending_alpha([0.5], alpha=2.0), ValueError, "`alpha` must be strictly between 0 and 1; got 2.0."),
    (lambda: spending_alpha([0.5], spending="x"), ValueError,
     "`spending` must be one of 'obrien-fleming', 'pocock'; got 'x'."),
    (lambda: spending_alpha([np.nan]), ValueError, "`t` must be finite; got nan."),
    (lambda: spending_alpha([0.5, 1.5]), ValueError, "`t` must hold information fractions in (0, 1]; got [0.5, 1.5]."),
    (lambda: group_sequential_bounds(3).t_critical_values([5, 10]), ValueError,
     "`n_pairs` must hold one whole number of pairs per look (3); got [5, 10]."),
    (lambda: group_sequential_bounds(2).t_critical_values([5.0, 10.0]), ValueError,
     "`n_pairs` must hold one whole number of pairs per look (2); got [5.0, 10.0]."),
    (lambda: group_sequential_bounds(3).t_critical_values([2, 3, 3]), ValueError,
     "`n_pairs` must increase and start at 2 or more; got [2, 3, 3]."),
    (lambda: group_sequential_bounds(2).t_critical_values([1, 3]), ValueError,
     "`n_pairs` must increase and start at 2 or more; got [1, 3]."),
    (lambda: group_sequential_bounds(0), ValueError, "`n_looks` must be an integer >= 1; got 0."),
    (lambda: group_sequential_bounds(51), ValueError,
     "`n_looks` must be at most 50 (with more looks, use a confidence sequence); got 51."),
    (lambda: group_sequential_bounds(2, information_rates=[np.nan, 1.0]), ValueError,
     "`information_rates` must be finite; got nan."),
    (lambda: group_sequential_bounds(3, information_rates=[0.5, 1.0]), ValueError,
     "`information_rates` must hold 3 increasing fractions in (0, 1] ending at 1; got [0.5, 1.0]."),
    (lambda: group_sequential_bounds(3, information_rates=[0.0, 0.5, 1.0]), ValueError,
     "`information_rates` must hold 3 increasing fractions in (0, 1] ending at 1; got [0.0, 0.5, 1.0]."),
    (lambda: group_sequential_bounds(3, information_rates=[-0.5, 0.5, 1.0]), ValueError,
     "`information_rates` must hold 3 increasing fractions in (0, 1] ending at 1; got [-0.5, 0.5, 1.0]."),
    (lambda: group_sequential_bounds(3, information_rates=[0.5, 0.5, 1.0]), ValueError,
     "`information_rates` must hold 3 increasing fractions in (0, 1] ending at 1; got [0.5, 0.5, 1.0]."),
    (lambda: group_sequential_bounds(2, spending="x"), ValueError,
     "`spending` must be one of 'obrien-fleming', 'pocock'; got 'x'."),
    (lambda: group_sequential_bounds(2, alternative="less"), ValueError,
     "`alternative` must be one of 'two-sided', 'greater'; got 'less'."),
    (lambda: group_sequential_bounds(2, alpha=1.0), ValueError, "`alpha` must be strictly between 0 and 1; got 1.0."),
    (lambda: max_information_inflation("design"), TypeError, "`bounds` must be a GroupSequentialBounds; got str."),
    (lambda: max_information_inflation(group_sequential_bounds(2), target_power=0.02), ValueError,
     "`target_power` must exceed the design's one-sided level 0.025; got 0.02."),
    (lambda: max_information_inflation(group_sequential_bounds(2, alternative="greater"), target_power=0.04),
     ValueError, "`target_power` must exceed the design's one-sided level 0.05; got 0.04."),
    (lambda: max_information_inflation(group_sequential_bounds(2), target_power=1.0), ValueError,
     "`target_power` must be strictly between 0 and 1; got 1.0."),
    (lambda: confidence_sequence([], bounds=(-1, 1)), ValueError, "`differences` must not be empty."),
    (lambda: confidence_sequence([[0.1]], bounds=(-1, 1)), ValueError,
     "`differences` must be a 1-D array, in the order the pairs arrived; got shape (1, 1)."),
    (lambda: confidence_sequence([0.1]), ValueError,
     "`bounds` must be given for method='betting' (for differences of accuracies, (-1, 1))."),
    (lambda: confidence_sequence([0.1, 2.0, -3.0], bounds=(-1, 1)), ValueError,
     "`differences` must lie within `bounds` (-1.0, 1.0); got 2 outside, the first 2.0."),
    (lambda: confidence_sequence([0.1, -3.0], bounds=(-1, 1)), ValueError,
     "`differences` must lie within `bounds` (-1.0, 1.0); got 1 outside, the first -3.0."),
    (lambda: confidence_sequence([0.1], bounds=(1, 1)), ValueError,
     "`bounds` must have low < high and a finite width; got (1.0, 1.0)."),
    (lambda: confidence_sequence([0.1], bounds=(-1e300, 1e300)), ValueError,
     "`bounds` must have low < high and a finite width; got (-1e+300, 1e+300)."),
    (lambda: confidence_sequence([0.1], method="t-mixture", bounds=(2, 2)), ValueError,
     "`bounds` must have low < high and a finite width; got (2.0, 2.0)."),
    (lambda: confidence_sequence([0.1], bounds=(-1, 1), confidence_level=0), ValueError,
     "`confidence_level` must be strictly between 0 and 1; got 0.0."),
    (lambda: confidence_sequence([0.1], method="x"), ValueError,
     "`method` must be one of 'betting', 't-mixture'; got 'x'."),
    (lambda: confidence_sequence([0.1], method="t-mixture", prior_precision=-1), ValueError,
     "`prior_precision` must be positive; got -1.0."),
    (lambda: confidence_sequence([0.1], method="t-mixture", prior_precision=2e12), ValueError,
     "`prior_precision` must be at most 1e12; got 2000000000000.0."),
    (lambda: confidence_sequence([0.1], method="t-mixture", prior_precision=1e12 + 0.5), ValueError,
     "`prior_precision` must be at most 1e12; got 1000000000000.5."),
    (lambda: _tm(alpha=0), ValueError, "`alpha` must be strictly between 0 and 1; got 0.0."),
    (lambda: SequentialComparison(method="sprt"), ValueError,
     "`method` must be one of 'betting', 't-mixture', 'group-sequential'; got 'sprt'."),
    (lambda: _tm(threshold=np.inf), ValueError, "`threshold` must be finite; got inf."),
    (lambda: _tm(margin=0), ValueError, "`margin` must be positive; got 0.0."),
    (lambda: _tm(bounds=(1, 0)), ValueError, "`bounds` must have low <= high; got (1.0, 0.0)."),
    (lambda: _tm(bounds=(1, 1)), ValueError, "`bounds` must have low < high and a finite width; got (1.0, 1.0)."),
    (lambda: SequentialComparison(method="betting"), ValueError,
     "`bounds` must be given for method='betting' (for accuracies, (0, 1))."),
    (lambda: _gs(), ValueError, "`looks` must be given for method='group-sequential' (say [5, 10, 20])."),
    (lambda: _gs(looks=[[5, 10]]), ValueError, "`looks` must be increasing whole numbers of pairs; got [[5, 10]]."),
    (lambda: _gs(looks=[]), ValueError, "`looks` must be increasing whole numbers of pairs; got []."),
    (lambda: _gs(looks=[5.0, 10.0]), ValueError, "`looks` must be increasing whole numbers of pairs; got [5.0, 10.0]."),
    (lambda: _gs(looks=[1, 5]), ValueError, "`looks` must increase and start at 2 or more; got [1, 5]."),
    (lambda: _gs(looks=[5, 5]), ValueError, "`looks` must increase and start at 2 or more; got [5, 5]."),
    (lambda: _gs(looks=[5, 10, 20], max_pairs=12), ValueError, "`max_pairs` must be the last look, 20; got 12."),
    (lambda: SequentialComparison(), ValueError,
     "`bounds` must be given for method='betting' (for accuracies, (0, 1))."),
    (lambda: max_information_inflation(group_sequential_bounds(2), target_power=0.025), ValueError,
     "`target_power` must exceed the design's one-sided level 0.025; got 0.025."),
    (lambda: max_information_inflation(group_sequential_bounds(2), target_power=1 - 1e-10), ValueError,
     "`target_power` must be at most 1 - 1e-9; got 0.9999999999."),
    (lambda: _tm(looks=[5, 10]), ValueError, "`looks` is for method='group-sequential'; got method='t-mixture'."),
    (lambda: _tm(max_pairs=1), ValueError, "`max_pairs` must be a whole number >= 2; got 1."),
    (lambda: _tm(max_pairs=True), ValueError, "`max_pairs` must be a whole number >= 2; got True."),
    (lambda: _tm(max_pairs=5.0), ValueError, "`max_pairs` must be a whole number >= 2; got 5.0."),
    (lambda: _tm().update("a", 0.5), TypeError, "`scores_a` must hold real numbers; got dtype <U1."),
    (lambda: _tm().update(0.5, "a"), TypeError, "`scores_b` must hold real numbers; got dtype <U1."),
    (lambda: _tm().update(0.5, np.array([None])), TypeError, "`scores_b` must hold real numbers; got dtype object."),
    (lambda: _tm().update(np.inf, 0.5), ValueError, "`scores_a` must be finite; got [inf] (a failed run cannot be paired)."),
    (lambda: _tm().update(0.5, np.nan), ValueError, "`scores_b` must be finite; got [nan] (a failed run cannot be paired)."),
    (lambda: SequentialComparison(method="betting", bounds=(0, 1)).update(-0.5, 0.5), ValueError,
     "`scores_a` must lie within `bounds` (0.0, 1.0); got [-0.5]."),
    (lambda: SequentialComparison(method="betting", bounds=(0, 1)).update(0.5, 1.5), ValueError,
     "`scores_b` must lie within `bounds` (0.0, 1.0); got [1.5]."),
    (lambda: _tm().update([0.1, 0.2], [0.1]), ValueError,
     "`scores_a` and `scores_b` must be paired, with the same length; got 2 and 1."),
    (lambda: _tm().update([[0.1]], [0.1]), ValueError,
     "`scores_a` and `scores_b` must be one score or a 1-D array each; got shapes (1, 1) and (1,)."),
    (lambda: _tm().update([0.1], [[0.1]]), ValueError,
     "`scores_a` and `scores_b` must be one score or a 1-D array each; got shapes (1,) and (1, 1)."),
    (lambda: _tm(max_pairs=2).update([0.1, 0.2, 0.3], [0.1, 0.2, 0.3]), ValueError,
     "this update would exceed `max_pairs` (2); got 3 pairs after 0."),
    (lambda: _gs(looks=[3, 6]).update([0.5] * 3, [0.4] * 3), ValueError,
     "the first 3 differences are all equal: the paired t statistic is undefined."),
    (lambda: _tm().run(lambda i: (0.1, 0.2)), ValueError,
     "`max_pairs` must be given, here or to SequentialComparison, so that run() ends."),
    (lambda: _tm(max_pairs=3).run(5), TypeError, "`run_pair` must be callable; got int."),
])
def test_every_refusal_says_what_and_why(call, error, message):
    with pytest.raises(error, match="^" + re.escape(message) + "$"):
        call()


def test_an_update_after_a_decision_says_which_decision_and_when():
    comp = _tm(max_pairs=3)
    comp.update([0.1, 0.2, 0.3], [0.1, 0.3, 0.2])
    message = (f"the comparison has reached its decision {comp.decision!r} after 3 pairs; "
               "start a new SequentialComparison for new runs.")
    with pytest.raises(ValueError, match="^" + re.escape(message) + "$"):
        comp.update(0.1, 0.1)


# --- boundaries and power against scipy's multivariate normal (Genz's integration) ---------------


def _z_covariance(t: np.ndarray) -> np.ndarray:
    return np.sqrt(np.minimum.outer(t, t) / np.maximum.outer(t, t))


def _mvn(mean, cov):
    return stats.multivariate_normal(mean=mean, cov=cov, abseps=1e-9, releps=1e-9, maxpts=10**7)


@pytest.mark.parametrize("alternative", ["greater", "two-sided"])
@pytest.mark.parametrize("spending", ["obrien-fleming", "pocock"])
def test_level_spent_by_each_look_is_the_multivariate_normal_probability(spending, alternative):
    t = np.array([0.3, 0.6, 1.0])
    b = group_sequential_bounds(3, spending=spending, information_rates=t, alternative=alternative)
    assert (b.spending, b.alternative, b.alpha) == (spending, alternative, 0.05)
    cov, c = _z_covariance(t), b.critical_values
    for k in range(1, 4):
        lower = -c[:k] if alternative == "two-sided" else np.full(k, -np.inf)
        continuing = _mvn(np.zeros(k), cov[:k, :k]).cdf(c[:k], lower_limit=lower, rng=np.random.default_rng(0))
        assert 1.0 - continuing == pytest.approx(b.alpha_spent[k - 1], abs=2e-8)


def test_power_counts_upper_crossings_before_any_lower_one():
    # P(first exit through the upper boundary) = sum over k of P(|Z_j| < c_j for j < k, Z_k >= c_k).
    b = group_sequential_bounds(4)
    t, c, theta = b.information_rates, b.critical_values, 1.0
    cov = _z_covariance(t)
    expected = sum(
        _mvn(theta * np.sqrt(t[:k + 1]), cov[:k + 1, :k + 1]).cdf(
            np.r_[c[:k], np.inf], lower_limit=np.r_[-c[:k], c[k]], rng=np.random.default_rng(0))
        for k in range(4)
    )
    assert _group_sequential._rejection_probability(b, theta) == pytest.approx(expected, abs=2e-8)


def test_inflation_of_a_one_sided_design_reaches_its_power():
    b = group_sequential_bounds(3, alternative="greater", alpha=0.025)
    inflation = max_information_inflation(b, target_power=0.9)
    t = b.information_rates
    theta = np.sqrt(inflation) * (stats.norm.isf(0.025) + stats.norm.ppf(0.9))
    missed = _mvn(theta * np.sqrt(t), _z_covariance(t)).cdf(b.critical_values, rng=np.random.default_rng(0))
    assert 1.0 - missed == pytest.approx(0.9, abs=1e-8)
    # The one-sided level is alpha itself: at power just above it the design needs a tiny drift.
    assert max_information_inflation(b, target_power=0.026) > 0


def test_a_single_look_needs_no_inflation():
    assert max_information_inflation(group_sequential_bounds(1), target_power=0.8) == pytest.approx(1.0, abs=1e-8)
    assert max_information_inflation(group_sequential_bounds(1, alternative="greater"),
                                     target_power=0.3) == pytest.approx(1.0, abs=1e-8)


# --- the driver reads the same sequences and designs as the functions -------------------------


@pytest.mark.parametrize("bounds", [(0.0, 1.0), (0.0, 2.0), (-1.0, 3.0)])
def test_betting_driver_interval_is_the_betting_sequence_of_the_differences(bounds):
    lo, hi = bounds
    rng = np.random.default_rng(6)
    a = rng.uniform(lo, hi, 30)
    b = rng.uniform(lo, hi, 30)
    comp = SequentialComparison(method="betting", bounds=bounds, alpha=0.1)
    cs = confidence_sequence(a - b, bounds=(lo - hi, hi - lo), confidence_level=0.9)
    for i in range(30):
        assert comp.update(a[i], b[i]) == "continue"
        assert (comp.low, comp.high) == pytest.approx((cs.low[i], cs.high[i]), abs=1e-12)
    assert comp.decided_at is None and comp.n == 30
    np.testing.assert_array_equal(comp.differences, a - b)


@pytest.mark.parametrize("bounds, spread", [(None, None), ((0.0, 1.0), (-1.0, 1.0)), ((0.0, 0.5), (-0.5, 0.5)),
                                            ((-0.25, 0.75), (-1.0, 1.0))])
def test_t_mixture_driver_interval_is_the_t_mixture_sequence_within_the_range_of_differences(bounds, spread):
    rng = np.random.default_rng(7)
    a, b = rng.uniform(0.0, 0.5, 25), rng.uniform(0.0, 0.5, 25)
    comp = SequentialComparison(method="t-mixture", bounds=bounds, alpha=0.1)
    assert comp.looks is None and comp.decided_at is None and comp.max_pairs is None
    cs = confidence_sequence(a - b, bounds=spread, method="t-mixture", confidence_level=0.9)
    for i in range(25):
        assert comp.update(a[i], b[i]) == "continue"
        assert (comp.low, comp.high) == pytest.approx((cs.low[i], cs.high[i]), abs=1e-12)
    if spread is not None:  # a single pair says nothing: the interval is the whole range of differences
        assert (cs.low[0], cs.high[0]) == spread


def test_the_threshold_is_what_the_difference_is_tested_against():
    rng = np.random.default_rng(2)
    a, b = 0.81 + rng.normal(0, 0.002, 40), np.full(40, 0.8)
    assert _tm(max_pairs=40).update(a, b) == "different"
    shifted = _tm(threshold=0.01, max_pairs=40)
    assert shifted.threshold == 0.01 and shifted.update(a, b) == "undetermined"
    assert shifted.low < 0.01 < shifted.high
    gs = _gs(looks=[10, 20, 40], threshold=0.01)
    assert gs.update(a, b) == "undetermined" and gs.decided_at == 40
    assert _gs(looks=[10, 20, 40]).update(a, b) == "different"


def test_group_sequential_driver_uses_its_alpha_and_a_single_look_is_the_t_test():
    comp = _gs(looks=[5, 10, 20], alpha=0.1)
    design = group_sequential_bounds(3, alpha=0.1, information_rates=[0.25, 0.5, 1.0])
    np.testing.assert_allclose(comp.critical, design.t_critical_values([5, 10, 20]))
    one = _gs(looks=[10])
    assert one.max_pairs == 10 and one.critical[0] == pytest.approx(stats.t.ppf(0.975, 9), abs=1e-9)
    assert _gs(looks=[5, 10, 20], max_pairs=20).max_pairs == 20
    assert _gs(looks=[2, 3]).critical.size == 2


def test_group_sequential_driver_crosses_at_the_look_the_t_statistic_crosses():
    d = np.array([0.3, 0.5, 0.4, 0.6, 0.5, 0.2, 0.4, 0.5, 0.3, 0.6])
    comp = _gs(looks=[5, 10])
    assert comp.update(d, np.zeros(10)) == "different"
    t5 = d[:5].mean() / (d[:5].std(ddof=1) / np.sqrt(5))
    assert t5 >= comp.critical[0] and comp.decided_at == 5
    half = stats.t.ppf(0.95, 4) * d[:5].std(ddof=1) / np.sqrt(5)
    assert (comp.low, comp.high) == pytest.approx((d[:5].mean() - half, d[:5].mean() + half))


@pytest.mark.parametrize("max_pairs", [2, np.int64(3)])
def test_max_pairs_accepts_its_smallest_values_and_numpy_integers(max_pairs):
    comp = _tm(max_pairs=max_pairs)
    assert comp.max_pairs == max_pairs
    comp.update([0.1], [0.0])
    comp.update([0.2], [0.1])
    assert comp.n == 2


def test_max_pairs_counts_the_pairs_already_seen():
    comp = _tm(max_pairs=3)
    comp.update([0.1, 0.2], [0.0, 0.0])
    with pytest.raises(ValueError, match=re.escape("would exceed `max_pairs` (3); got 2 pairs after 2.")):
        comp.update([0.1, 0.2], [0.0, 0.0])
    assert _tm().update([0.1, 0.2], [0.0, 0.1]) == "continue"


def test_scores_at_the_bounds_integers_and_float32_are_accepted():
    comp = SequentialComparison(method="betting", bounds=(0, 1))
    assert comp.update([1, 0, 1], [0, 0, 1]) == "continue"
    assert comp.update(np.float32(1.0), np.float32(0.0)) == "continue"
    np.testing.assert_array_equal(comp.differences, [1.0, 0.0, 0.0, 1.0])


def test_t_mixture_limits_follow_the_prior_precision():
    d = np.random.default_rng(0).normal(0.1, 1.0, 40)
    for c2 in (0.25, 4.0):
        low, high = _t_mixture_limits(d, 0.05, c2)
        for mu in (low[-1], high[-1]):
            x = d - mu
            s, v = x.sum(), (x**2).sum()
            martingale = np.sqrt(c2 / (40 + c2)) * (v / (v - s**2 / (40 + c2))) ** 20
            assert martingale == pytest.approx(20.0, rel=1e-9)


def test_t_mixture_warns_of_nothing_and_treats_agreement_to_fourteen_digits_as_equal():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        cs = confidence_sequence(np.random.default_rng(1).normal(0, 1, 30), method="t-mixture")
        confidence_sequence(np.random.default_rng(1).uniform(-1, 1, 30), bounds=(-1, 1))
    assert np.isinf(cs.high[0]) and np.isfinite(cs.high[-1])
    nearly = confidence_sequence(np.r_[np.ones(9), 1 + 3e-14], method="t-mixture")
    assert np.all(np.isinf(nearly.high))


def _hedged_betting_limits(x: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Waudby-Smith & Ramdas' hedged capital process written out pair by pair, for x in [0, 1]: bets
    lambda_t = sqrt(2 log(2/alpha) / (sigma2_{t-1} t log(1 + t))), truncated at 1/(2m) and 1/(2(1 - m));
    m is rejected once max(K+, K-) reaches 2/alpha; the limits are the grid points just outside the rest."""
    grid = np.linspace(0.0, 1.0, 4001)
    mu_hat = [(0.5 + x[:i].sum()) / (i + 1) for i in range(1, x.size + 1)]
    up, down = np.ones(grid.size), np.ones(grid.size)
    low, high = [], []
    for t in range(1, x.size + 1):
        sigma2 = (0.25 + sum((x[i] - mu_hat[i]) ** 2 for i in range(t - 1))) / t
        lam = np.sqrt(2 * np.log(2 / alpha) / (sigma2 * t * np.log(1 + t)))
        with np.errstate(divide="ignore"):
            up = up * (1 + np.minimum(lam, 0.5 / grid) * (x[t - 1] - grid))
            down = down * (1 - np.minimum(lam, 0.5 / (1 - grid)) * (x[t - 1] - grid))
        kept = np.flatnonzero(np.maximum(up, down) < 2 / alpha)
        low.append(grid[max(kept[0] - 1, 0)])
        high.append(grid[min(kept[-1] + 1, grid.size - 1)])
    return np.maximum.accumulate(low), np.minimum.accumulate(high)


@pytest.mark.parametrize("bounds, alpha", [((-1.0, 1.0), 0.05), ((0.0, 4.0), 0.1)])
def test_betting_sequence_is_the_hedged_capital_process_written_out(bounds, alpha):
    lo, hi = bounds
    x = np.random.default_rng(12).beta(2.0, 3.0, 300)  # more pairs than one block of the vectorised code
    cs = confidence_sequence(lo + x * (hi - lo), bounds=bounds, confidence_level=1 - alpha)
    low, high = _hedged_betting_limits(x, alpha)
    np.testing.assert_allclose(cs.low, lo + low * (hi - lo), atol=1e-12)
    np.testing.assert_allclose(cs.high, lo + high * (hi - lo), atol=1e-12)
    assert cs.method == "betting" and cs.confidence_level == 1 - alpha
    np.testing.assert_array_equal(cs.n, np.arange(1, 301))
    assert 0 < cs.low[-1] - lo < 0.4 * (hi - lo) < cs.high[-1] - lo < hi - lo  # limits inside the range


def test_the_running_intersection_restarts_at_each_empty_one_and_keeps_a_single_point():
    from sigeval.sequential import _running_intersection

    low, high = _running_intersection(np.array([0.0, 0.5, 0.6, 0.55, 0.9, 0.85]),
                                      np.array([1.0, 0.55, 0.7, 0.6, 1.0, 0.95]))
    np.testing.assert_array_equal(low, [0.0, 0.5, 0.6, 0.6, 0.9, 0.9])
    np.testing.assert_array_equal(high, [1.0, 0.55, 0.7, 0.6, 1.0, 0.95])
    low, high = _running_intersection(np.array([0.3, 0.1, 0.5]), np.array([0.9, 0.8, 0.5]))
    np.testing.assert_array_equal(low, [0.3, 0.3, 0.5])
    np.testing.assert_array_equal(high, [0.9, 0.8, 0.5])


@pytest.mark.parametrize("low, high, settled, verdict", [
    (0.0, 0.05, True, "equivalent"),  # touching the threshold is not excluding it
    (-0.05, 0.0, True, "equivalent"),
    (0.01, 0.05, True, "trivial"),
    (-0.1, 0.05, True, "continue"),  # touching the margin is not inside it
    (-0.05, 0.1, True, "continue"),
    (-0.05, 0.1, False, "undetermined"),
    (0.02, 0.1, True, "continue"),  # excludes 0, reaches into the margin: more pairs may still say more
    (0.02, 0.1, False, "different"),
    (0.1, 0.3, True, "different"),  # at or beyond the margin
    (-0.3, -0.1, True, "different"),
    (-0.3, -0.11, True, "different"),
])
def test_verdict_of_an_interval_at_the_edges(low, high, settled, verdict):
    assert _tm(margin=0.1)._verdict(low, high, settled=settled) == verdict


def test_group_sequential_driver_looks_exactly_at_its_looks():
    d = np.array([0.3, 0.5, 0.4, 0.6, 0.5])
    comp = _gs(looks=[5, 10])
    assert comp.update(d, np.zeros(5)) == "different" and comp.decided_at == 5
    rng = np.random.default_rng(4)
    quiet = _gs(looks=[5, 10, 20], margin=0.1)
    assert quiet.update(rng.normal(0, 1, 10), np.zeros(10)) == "continue" and quiet.decided_at is None
    assert quiet.update(rng.normal(0, 1, 10), np.zeros(10)) == "undetermined" and quiet.decided_at == 20


def test_run_passes_the_pair_index_and_stops_at_its_own_max_pairs():
    seen = []

    def run_pair(i):
        seen.append(i)
        return 0.5 + 0.1 * (i % 2), 0.5

    comp = _tm()
    assert comp.run(run_pair, max_pairs=4) == "continue" and comp.n == 4
    assert seen == [0, 1, 2, 3]
    assert comp.run(run_pair, max_pairs=6) == "continue" and seen == [0, 1, 2, 3, 4, 5]


def test_power_of_a_two_sided_design_under_the_null_is_the_upper_half_of_its_level():
    # Pocock-type looks at 1% and 100% of the pairs: a path can cross the lower boundary at the first look
    # and the upper one at the last (about 4e-6), which a power counting upper crossings must not count.
    b = group_sequential_bounds(2, spending="pocock", information_rates=[0.01, 1.0])
    assert _group_sequential._rejection_probability(b, 0.0) == pytest.approx(0.025, abs=1e-10)
    assert max_information_inflation(b, target_power=0.06) > 1.0
    assert max_information_inflation(b, target_power=1 - 1e-9) > 0


def test_betting_limits_when_every_candidate_mean_is_rejected():
    # At a 5% confidence level, scores near one half and then ones: no candidate mean survives; the limits
    # are then the grid points around the least rejected one (the public sequence starts its intersection
    # again there).
    from sigeval.sequential import _Betting

    bet = _Betting(0.95)
    low, high = bet.extend(np.r_[np.full(5, 0.45), np.full(5, 0.55), np.ones(27)])
    capital = np.maximum(bet.log_up, bet.log_down)
    assert np.all(capital >= bet.threshold)
    best = bet.grid[np.argmin(capital)]
    step = bet.grid[1]
    assert (low[-1], high[-1]) == pytest.approx((best - step, best + step), abs=1e-15)
    assert SequentialComparison(bounds=(0, 1)).method == "betting"


def test_the_limits_of_the_options_are_accepted_and_the_defaults_are_the_documented_ones():
    d = np.random.default_rng(3).normal(0.1, 1.0, 20)
    default = confidence_sequence(d, method="t-mixture")
    unit = confidence_sequence(d, method="t-mixture", prior_precision=1.0)
    np.testing.assert_array_equal(default.high, unit.high)
    assert not np.array_equal(default.high, confidence_sequence(d, method="t-mixture", prior_precision=2.0).high)
    sharp = confidence_sequence(d, method="t-mixture", prior_precision=1e12)  # the largest accepted
    assert sharp.n[-1] == 20 and np.all(sharp.low <= sharp.high)
    wide = confidence_sequence([0.1, 0.2], bounds=(0.0, 1e300))  # the widest range accepted
    assert 0.0 <= wide.low[-1] < wide.high[-1] <= 1e300


@pytest.mark.parametrize("theta", [0.5, 2.5])
def test_power_of_a_one_sided_design_with_a_very_early_look(theta):
    # At 1% of the pairs the O'Brien-Fleming boundary is z = 22: the continuing paths must be integrated
    # around their own mean path, far below that boundary.
    b = group_sequential_bounds(2, alternative="greater", alpha=0.025, information_rates=[0.01, 1.0])
    t = b.information_rates
    missed = _mvn(theta * np.sqrt(t), _z_covariance(t)).cdf(b.critical_values, rng=np.random.default_rng(0))
    assert _group_sequential._rejection_probability(b, theta) == pytest.approx(1.0 - missed, abs=1e-9)


# --- issue 40: the t-mixture driver carries running sums ------------------------------------------


class _RecomputingComparison(SequentialComparison):
    """The driver before issue 40, kept as the oracle: the whole t-mixture sequence recomputed at each update."""

    def _sequence(self, new):
        spread = None if self.bounds is None else (self.bounds[0] - self.bounds[1], self.bounds[1] - self.bounds[0])
        cs = confidence_sequence(self.differences, bounds=spread, confidence_level=1.0 - self.alpha,
                                 method="t-mixture")
        lows, highs = _running_intersection(np.append(self.low, cs.low[-new.size:]),
                                            np.append(self.high, cs.high[-new.size:]))
        start = self.n - new.size
        for i, (lo_t, hi_t) in enumerate(zip(lows[1:], highs[1:])):
            self.low, self.high = float(lo_t), float(hi_t)
            last = self.max_pairs is not None and start + i + 1 >= self.max_pairs
            self.decision = self._verdict(self.low, self.high, settled=not last)
            if self.decision != "continue":
                self.decided_at = start + i + 1
                break


def _t_mixture_paths():
    rng = np.random.default_rng(40)
    yield {}, rng.normal(0.001, 0.01, 400), np.zeros(400), 1
    yield {"margin": 0.02, "max_pairs": 300}, rng.normal(0.5, 0.05, 300), rng.normal(0.5, 0.05, 300), 1
    yield {"bounds": (0.0, 1.0), "margin": 0.01}, rng.uniform(0.4, 0.6, 500), rng.uniform(0.4, 0.6, 500), 7
    # Zeros first, then differences growing by 1e100 at a time: the sums are rescaled by powers of two.
    grow = np.r_[np.zeros(5), rng.normal(1, 1, 30) * 1e-200, rng.normal(1, 1, 30), rng.normal(1, 1, 30) * 1e200]
    yield {"threshold": 1e300}, grow, np.zeros(grow.size), 3
    yield {"alpha": 0.2}, np.r_[np.full(20, 0.25), rng.normal(0.25, 1e-3, 80)], np.zeros(100), 4


@pytest.mark.parametrize("kwargs, a, b, batch", list(_t_mixture_paths()))
def test_t_mixture_driver_equals_the_driver_that_recomputed_the_sequence(kwargs, a, b, batch):
    # The limits agree to 1e-12 relative: the running sums are kept in units of a power of two near the largest
    # |difference| so far, where confidence_sequence divides by the largest one itself (a last-digit change).
    fast = SequentialComparison(method="t-mixture", **kwargs)
    slow = _RecomputingComparison(method="t-mixture", **kwargs)
    for start in range(0, a.size, batch):
        decisions = [comp.update(a[start:start + batch], b[start:start + batch]) for comp in (fast, slow)]
        assert decisions[0] == decisions[1] and fast.decided_at == slow.decided_at and fast.n == slow.n
        np.testing.assert_allclose([fast.low, fast.high], [slow.low, slow.high], rtol=1e-12, atol=0)
        if decisions[0] != "continue":
            break
    np.testing.assert_array_equal(fast.differences, slow.differences)


def test_the_t_mixture_driver_keeps_running_sums_not_the_whole_sequence():
    comp = SequentialComparison(method="t-mixture")
    comp.update(np.full(3, 0.5), np.zeros(3))
    assert comp._t_mixture.n == 3 and comp._t_mixture.total == 3 * 0.5 / comp._t_mixture.scale
    comp.update(0.25, 0.0)
    assert comp._t_mixture.n == 4 and comp._t_mixture.squares > 0
    assert len(comp._t_mixture.kappa) == 6  # the factors of n = 1..6: computed at n = 1 and 3 for twice the pairs
    np.testing.assert_array_equal(comp.differences, [0.5, 0.5, 0.5, 0.25])


def test_a_difference_that_overflows_is_refused_by_the_driver():
    comp = SequentialComparison(method="t-mixture")
    with pytest.raises(ValueError, match=r"`scores_a - scores_b` overflows float64"):
        comp.update(1e308, -1e308)
    assert comp.n == 0


# --- issue 40: the betting sequence carries a window of the grid -----------------------------------


class _DenseBetting(sequential._Betting):
    """The betting sequence before issue 40, kept as the oracle: every grid point carried at every pair."""

    def __init__(self, alpha):
        super().__init__(alpha)
        self.dense_up, self.dense_down = np.zeros(self.grid.size), np.zeros(self.grid.size)

    def capital_rows(self, x):
        """log K+ and log K- of every grid point after each pair, one block of up to 256 pairs at a time."""
        lam = self._bets(x)
        for start in range(0, x.size, 256):
            step = x[start:start + 256, None] - self.grid
            lb = lam[start:start + 256, None]
            up = self.dense_up + np.cumsum(np.log1p(np.minimum(lb, self.cap_up) * step), axis=0)
            down = self.dense_down + np.cumsum(np.log1p(-np.minimum(lb, self.cap_down) * step), axis=0)
            self.dense_up, self.dense_down = up[-1], down[-1]
            yield start, up, down

    def extend(self, x):
        low, high = np.empty(x.size), np.empty(x.size)
        for start, up, down in self.capital_rows(x):
            capital = np.maximum(up, down)
            inside = capital < self.threshold
            empty = ~inside.any(axis=1)
            inside[empty, np.argmin(capital[empty], axis=1)] = True
            first = np.argmax(inside, axis=1)
            last = self.grid.size - 1 - np.argmax(inside[:, ::-1], axis=1)
            low[start:start + up.shape[0]] = self.grid[np.maximum(first - 1, 0)]
            high[start:start + up.shape[0]] = self.grid[np.minimum(last + 1, self.grid.size - 1)]
        return low, high


def _betting_paths():
    rng = np.random.default_rng(40)
    yield "iid", rng.beta(2.0, 3.0, 3000), 0.05, [3000]
    yield "narrow", np.clip(rng.normal(0.5, 0.01, 2000), 0, 1), 0.05, [2000]
    # The mean moves: the set not rejected empties, then points left far behind are needed again.
    yield "jump", np.r_[rng.uniform(0.2, 0.4, 1500), rng.uniform(0.6, 0.8, 1500)], 0.05, [3000]
    yield "drift", np.clip(np.linspace(0.1, 0.9, 2500) + rng.normal(0, 0.05, 2500), 0, 1), 0.2, [2500]
    yield "edges", np.r_[np.zeros(300), np.ones(5), rng.uniform(0, 0.01, 700)], 0.05, [1005]
    yield "empty", np.r_[np.full(5, 0.45), np.full(5, 0.55), np.ones(27)], 0.95, [37]
    yield "updates", rng.beta(5.0, 2.0, 900), 0.1, [1] * 300 + [7] * 40 + [256, 64]


@pytest.mark.parametrize("name, x, alpha, sizes", list(_betting_paths()), ids=[p[0] for p in _betting_paths()])
def test_betting_window_gives_the_limits_and_capital_of_the_whole_grid(name, x, alpha, sizes):
    _assert_window_is_the_whole_grid(sequential._Betting(alpha), _DenseBetting(alpha), x, sizes)


def _assert_window_is_the_whole_grid(windowed, dense, x, sizes):
    start = 0
    for size in sizes:  # the same extends (one per update of a driver), so the same blocks
        chunk = x[start:start + size]
        start += size
        got, expected = windowed.extend(chunk), dense.extend(chunk)
        np.testing.assert_array_equal(got[0], expected[0])
        np.testing.assert_array_equal(got[1], expected[1])
    assert start == x.size
    # Every point's capital, those left behind by the window brought up to date, is the dense one, bit for bit.
    np.testing.assert_array_equal(windowed.log_up, dense.dense_up)
    np.testing.assert_array_equal(windowed.log_down, dense.dense_down)


def _capital_paths():
    rng = np.random.default_rng(7)
    for name, x, alpha, _ in _betting_paths():
        yield name, x, alpha
    for alpha in (0.999, 0.05, 1e-10):
        yield "uniform", rng.random(600), alpha
        yield "u-shaped", rng.beta(0.1, 0.1, 600), alpha
        yield "rare ones", (rng.random(600) < 0.01).astype(float), alpha
        yield "step", np.r_[np.ones(300), np.zeros(300)], alpha
        yield "near 0", np.full(600, 1e-4), alpha
        yield "near 1", np.full(600, 0.9999), alpha


@pytest.mark.parametrize("name, x, alpha", list(_capital_paths()))
def test_betting_capital_grows_outward_from_a_rejected_edge_by_the_bound(name, x, alpha):
    # Why the window's edge checks need no margin for rounding (sequential._Betting's docstring): where
    # log K+(m') = L >= log 2, log K+ one grid step below m' is higher by (1 - exp(-L)) / 4000 at least, and
    # log K- one step above likewise. The bound is nearly attained, so a ratio just above 1 is expected.
    step = 1 / 4000
    # The bets the docstring bounds the rounding with: at most sqrt(8 log(2/alpha) / log 2), reached at the first.
    bets = sequential._Betting(alpha)._bets(x)
    assert bets.max() == bets[0] <= np.sqrt(8 * np.log(2 / alpha) / np.log(2)) * (1 + 1e-15)
    for _, up, down in _DenseBetting(alpha).capital_rows(x):
        for outer, edge in ((up[:, :-1], up[:, 1:]), (down[:, 1:], down[:, :-1])):
            high = edge >= np.log(2)
            assert np.all(outer[high] - edge[high] >= (1 - np.exp(-edge[high])) * step)


def test_betting_window_checks_each_empty_row_against_its_own_least():
    # Two pairs in one block, both leaving nothing inside, their least capital at grid points 3197 and 3206.
    # The window ends at 3205: the second row's least lies beyond it, above the first row's. A check of the
    # edges against the block's least alone would keep the window and report 3205 for the second row.
    history = np.r_[np.full(5, 0.45), np.full(5, 0.55), np.ones(30)]
    windowed, dense = sequential._Betting(0.95), _DenseBetting(0.95)
    windowed.extend(history)
    dense.extend(history)
    windowed._window = (0, 3206)
    pair = np.array([0.4, 0.95])
    (_, up, down), = _DenseBetting(0.95).capital_rows(np.r_[history, pair])
    capital = np.maximum(up, down)[-2:]
    assert np.all(capital >= dense.threshold)
    np.testing.assert_array_equal(np.argmin(capital, axis=1), [3197, 3206])
    assert capital[1].min() > capital[0].min()
    _assert_window_is_the_whole_grid(windowed, dense, pair, [2])


def test_betting_window_narrows_and_blocks_are_kept_for_the_points_left_behind():
    bet = sequential._Betting(0.05)
    bet.extend(np.clip(np.random.default_rng(1).normal(0.5, 0.05, 5000), 0, 1))
    lo, hi = bet._window
    assert 0 < lo < hi < bet.grid.size and hi - lo < 400  # about 0.1 of the range, not the 4001 points
    assert len(bet._blocks) == 20 and bet._done[0] < 20 == bet._done[(lo + hi) // 2]


@pytest.mark.parametrize("n, method", [(10**5, "betting"), (10**6, "betting"), (10**5, "t-mixture"),
                                       (10**6, "t-mixture")])
def test_confidence_sequence_memory_check_counts_what_is_allocated(n, method):
    import tracemalloc

    d = np.clip(np.random.default_rng(0).normal(0.01, 0.1, n), -1, 1)
    tracemalloc.start()
    try:
        confidence_sequence(d, bounds=(-1, 1), method=method)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    counted = sequential._sequence_bytes(n, method)
    assert counted / 1.5 <= peak <= 1.5 * counted, (peak, counted)


def test_confidence_sequence_refuses_up_front_what_would_exceed_the_memory_limit(monkeypatch):
    import sigeval._validation as validation

    monkeypatch.setattr(validation, "MEMORY_LIMIT", 96 * 1000)
    assert confidence_sequence(np.zeros(1000), method="t-mixture").n.size == 1000
    with pytest.raises(ValueError, match=r"^`differences` = 1001 differences would need 93\.8 KiB of memory for "
                                         r"the t-mixture sequence; the limit is 93\.8 KiB\. Pass fewer differences"):
        confidence_sequence(np.zeros(1001), method="t-mixture")


@pytest.mark.parametrize("kwargs", [{"method": "t-mixture"}, {"method": "betting", "bounds": (0.0, 1.0)},
                                    {"method": "t-mixture", "bounds": (0.0, 1.0), "max_pairs": 40}])
def test_an_update_by_plain_floats_equals_an_update_by_arrays(kwargs):
    # One pair of floats skips building arrays for its checks: the same differences, limits and decisions.
    rng = np.random.default_rng(8)
    a, b = rng.uniform(0.3, 0.7, 40), rng.uniform(0.3, 0.7, 40)
    floats, arrays = SequentialComparison(**kwargs), SequentialComparison(**kwargs)
    for x, y in zip(a, b):
        assert floats.update(float(x), y) == arrays.update(np.array([x]), np.array([y]))
        assert (floats.low, floats.high) == (arrays.low, arrays.high)
    np.testing.assert_array_equal(floats.differences, arrays.differences)
    assert (floats.decision, floats.decided_at) == (arrays.decision, arrays.decided_at)


@pytest.mark.parametrize("pair, match", [((np.nan, 0.5), "`scores_a` must be finite"),
                                         ((0.5, np.inf), "`scores_b` must be finite"),
                                         ((1.5, 0.5), r"`scores_a` must lie within `bounds` \(0.0, 1.0\); got \[1.5\]"),
                                         ((0.5, -0.5), r"`scores_b` must lie within `bounds`"),
                                         ((True, 0.5), "`scores_a` must hold real numbers; got dtype bool")])
def test_plain_floats_that_fail_a_check_get_the_message_of_the_arrays(pair, match):
    comp = SequentialComparison(method="t-mixture", bounds=(0.0, 1.0))
    with pytest.raises((ValueError, TypeError), match=match):
        comp.update(*pair)
    assert comp.n == 0
    with pytest.raises(ValueError, match=r"`scores_a - scores_b` overflows float64"):
        SequentialComparison(method="t-mixture").update(1.7e308, -1.7e308)


# --- the t-mixture carried pair by pair, at its edges ------------------------------------------------------


def test_t_mixture_differences_count_as_equal_at_or_below_flat():
    from sigeval.sequential import _t_mixture_from_sums

    one = np.array([1.0])
    flat = np.array([2e-28])
    assert _t_mixture_from_sums(one, flat, flat, one, one) == (-np.inf, np.inf)
    low, high = _t_mixture_from_sums(one, np.nextafter(flat, 1.0), flat, one, one)
    assert np.isfinite(low).all() and np.isfinite(high).all()


def test_carried_t_mixture_is_scale_free():
    # Differences 2**40 times larger give limits exactly 2**40 times larger (sums kept in units of a power of two).
    d = np.random.default_rng(3).normal(0.02, 0.1, 60)
    small, large = SequentialComparison(method="t-mixture"), SequentialComparison(method="t-mixture")
    for x in d:
        small.update(float(x), 0.0)
        large.update(float(x) * 2.0**40, 0.0)
        assert (large.low, large.high) == (small.low * 2.0**40, small.high * 2.0**40)
    assert np.isfinite([large.low, large.high]).all()
    whole = confidence_sequence(d * 2.0**40, method="t-mixture")
    assert (large.low, large.high) == pytest.approx((whole.low[-1], whole.high[-1]), rel=1e-12)


def test_carried_t_mixture_counts_differences_equal_up_to_rounding_as_equal():
    # 100 differences alternating 1 and the next float: their spread is rounding, not information.
    d = np.tile([1.0, np.nextafter(1.0, 2.0)], 50)
    comp = SequentialComparison(method="t-mixture")
    comp.update(d, np.zeros(100))
    whole = confidence_sequence(d, method="t-mixture")
    assert (comp.low, comp.high) == (whole.low[-1], whole.high[-1]) == (-np.inf, np.inf)


def test_running_intersection_pair_by_pair_keeps_a_single_point(monkeypatch):
    # Intervals that touch at 2 intersect in the point 2, as _running_intersection does; they do not start afresh.
    comp = SequentialComparison(method="t-mixture")
    limits = iter([(0.0, 2.0), (2.0, 3.0)])
    monkeypatch.setattr(comp._t_mixture, "add", lambda d: next(limits))
    comp.update(np.array([0.5, 0.5]), np.zeros(2))
    low, high = _running_intersection(np.array([0.0, 2.0]), np.array([2.0, 3.0]))
    assert (comp.low, comp.high) == (low[-1], high[-1]) == (2.0, 2.0)


@pytest.mark.parametrize("method, kwargs, need", [
    ("betting", {"bounds": (-1, 1)}, 48 * 10 + 4 * 8 * 4001 * 256),
    ("t-mixture", {}, 96 * 10)])
def test_confidence_sequence_memory_at_its_limit(monkeypatch, method, kwargs, need):
    import sigeval._validation as validation

    monkeypatch.setattr(validation, "MEMORY_LIMIT", need)
    assert confidence_sequence(np.zeros(10), method=method, **kwargs).n.size == 10
    monkeypatch.setattr(validation, "MEMORY_LIMIT", need - 1)
    with pytest.raises(ValueError, match=rf"^`differences` = 10 differences would need .* of memory for the {method} "
                                         r"sequence"):
        confidence_sequence(np.zeros(10), method=method, **kwargs)


def test_an_overflowing_difference_is_refused_in_full_without_a_warning():
    comp = SequentialComparison(method="t-mixture")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError) as caught:
            comp.update(np.array([1.7e308, 0.5]), np.array([-1.7e308, 0.25]))
    assert str(caught.value) == ("`scores_a - scores_b` overflows float64 (|difference| > 1.8e308); got [inf, 0.25]: "
                                 "rescale the scores (e.g. divide both by the same power of ten).")


@pytest.mark.parametrize("window", [(1800, 1840), (0, 40), (3961, 4001), (2400, 2600), (1, 4000)])
@pytest.mark.parametrize("name, x, alpha, sizes", [p for p in _betting_paths() if p[0] in ("empty", "jump", "edges")],
                         ids=["empty", "jump", "edges"])
def test_betting_window_from_any_start_gives_the_whole_grid(window, name, x, alpha, sizes):
    # Wherever the window starts, far from the set or inside it, its edge checks widen it until the limits
    # are the whole grid's (the window only saves work).
    windowed = sequential._Betting(alpha)
    windowed._window = window
    _assert_window_is_the_whole_grid(windowed, _DenseBetting(alpha), x, sizes)

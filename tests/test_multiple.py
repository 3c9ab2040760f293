"""sigeval.multiple: adjusted p-values against scipy, hand computation and simulation."""

import warnings

import numpy as np
import pytest
from scipy import stats

from sigeval import ADJUST_METHODS, adjust_pvalues, decision_levels, expected_best_of_k


def _reject(p, method, alpha=0.05):
    return adjust_pvalues(p, method=method) <= alpha


# --------------------------------------------------------------------------- references


@pytest.mark.parametrize("method", ["bh", "by"])
def test_fdr_methods_match_scipy(method):
    rng = np.random.default_rng(1)
    p = np.concatenate([rng.uniform(size=40), rng.uniform(0, 0.01, size=10), [0.02, 0.02, 0.5, 1.0]])
    rng.shuffle(p)
    np.testing.assert_allclose(
        adjust_pvalues(p, method=method), stats.false_discovery_control(p, method=method), rtol=1e-13
    )


def test_fdr_methods_match_scipy_along_an_axis():
    p = np.random.default_rng(2).uniform(size=(5, 30)) ** 2
    for method in ("bh", "by"):
        np.testing.assert_allclose(
            adjust_pvalues(p, method=method, axis=1),
            stats.false_discovery_control(p, method=method, axis=1),
            rtol=1e-13,
        )
        np.testing.assert_allclose(
            adjust_pvalues(p.T, method=method, axis=0),
            stats.false_discovery_control(p.T, method=method, axis=0),
            rtol=1e-13,
        )


def test_hand_computed_unsorted_with_ties():
    # m = 5; sorted: 0.01, 0.02, 0.02, 0.04, 0.30 (ties at 0.02).
    p = np.array([0.04, 0.02, 0.30, 0.01, 0.02])
    expected = {
        # 5 p, capped at 1.
        "bonferroni": [0.20, 0.10, 1.00, 0.05, 0.10],
        # step-down max of (5, 4, 3, 2, 1) * p_(i): 0.05, 0.08, 0.08, 0.08, 0.30.
        "holm": [0.08, 0.08, 0.30, 0.05, 0.08],
        # step-up min of (5, 4, 3, 2, 1) * p_(i) = 0.05, 0.08, 0.06, 0.08, 0.30 from the top.
        "hochberg": [0.08, 0.06, 0.30, 0.05, 0.06],
        # step-up min of 5/i * p_(i) = 0.05, 0.05, 0.0333, 0.05, 0.30.
        "bh": [0.05, 1 / 30, 0.30, 1 / 30, 1 / 30],
    }
    for method, values in expected.items():
        np.testing.assert_allclose(adjust_pvalues(p, method=method), values, rtol=1e-12, err_msg=method)
    c = sum(1 / i for i in range(1, 6))
    np.testing.assert_allclose(
        adjust_pvalues(p, method="by"), np.minimum(1, np.array(expected["bh"]) * c), rtol=1e-12
    )


def test_holm_matches_its_step_down_definition():
    # Reject H_(1), H_(2), ... while p_(i) <= alpha / (m - i + 1); stop at the first failure.
    rng = np.random.default_rng(3)
    for _ in range(200):
        m = rng.integers(1, 12)
        p = np.round(rng.uniform(0, 0.1, size=m), 3)
        alpha = rng.choice([0.01, 0.05, 0.1])
        order = np.argsort(p, kind="stable")
        reject = np.zeros(m, bool)
        for i, j in enumerate(order):
            if p[j] <= alpha / (m - i):
                reject[j] = True
            else:
                break
        # Ties: the tied p-value that passes makes its equal passes too (same rule).
        assert np.array_equal(adjust_pvalues(p, method="holm") <= alpha + 1e-15, reject)


def test_bh_matches_largest_i_rule():
    rng = np.random.default_rng(4)
    for _ in range(200):
        m = rng.integers(1, 15)
        p = np.round(rng.uniform(0, 0.2, size=m), 3)
        q = 0.05
        sorted_p = np.sort(p)
        passing = np.flatnonzero(sorted_p <= np.arange(1, m + 1) * q / m)
        threshold = sorted_p[passing[-1]] if passing.size else -1.0
        assert np.array_equal(adjust_pvalues(p, method="bh") <= q + 1e-15, p <= threshold)


@pytest.mark.parametrize("method", ADJUST_METHODS)
def test_every_slice_along_an_axis_of_a_3d_array_is_its_own_family(method):
    # Distinct lengths per axis, ties included: each 1-D slice is adjusted as a family on its own.
    p = np.round(np.random.default_rng(7).uniform(size=(3, 4, 5)) ** 2, 2)
    for axis in (0, 1, 2, -1, -3):
        expected = np.apply_along_axis(lambda family: adjust_pvalues(family, method=method), axis, p)
        np.testing.assert_allclose(adjust_pvalues(p, method=method, axis=axis), expected, rtol=1e-15, err_msg=str(axis))
    one_d = p[0, 0]
    np.testing.assert_array_equal(adjust_pvalues(one_d, method=method, axis=0), adjust_pvalues(one_d, method=method))
    np.testing.assert_array_equal(adjust_pvalues(one_d, method=method, axis=-1), adjust_pvalues(one_d, method=method))


def test_shape_and_order_kept():
    p = np.array([[0.01, 0.5], [0.03, 0.02]])
    out = adjust_pvalues(p, method="holm")
    assert out.shape == (2, 2)
    np.testing.assert_allclose(out.ravel(), adjust_pvalues(p.ravel(), method="holm"))
    assert adjust_pvalues(0.3, method="bonferroni").shape == ()
    np.testing.assert_allclose(adjust_pvalues([0.3]), [0.3])


# --------------------------------------------------------------------------- properties


@pytest.mark.parametrize("seed", range(5))
def test_properties(seed):
    rng = np.random.default_rng(seed)
    p = rng.uniform(size=(300, 10)) ** rng.uniform(1, 4, size=(300, 1))
    adjusted = {m: adjust_pvalues(p, method=m, axis=1) for m in ADJUST_METHODS}
    for m, a in adjusted.items():
        assert np.all(a >= p - 1e-15), m
        assert np.all(a <= 1), m
        # Monotone in the sorted order of the raw p-values.
        order = np.argsort(p, axis=1)
        assert np.all(np.diff(np.take_along_axis(a, order, axis=1), axis=1) >= -1e-15), m
    for alpha in (0.01, 0.05, 0.2):
        bonf, holm, hoch, bh, by = (adjusted[m] <= alpha for m in ADJUST_METHODS)
        assert np.all(holm >= bonf)   # Holm rejects at least what Bonferroni rejects
        assert np.all(hoch >= holm)   # Hochberg at least what Holm rejects
        assert np.all(bh >= hoch)     # BH at least what Hochberg rejects
        assert np.all(bh >= by)
    assert np.any(adjusted["holm"] < adjusted["bonferroni"])
    assert np.any(adjusted["hochberg"] < adjusted["holm"])


def test_holm_fwer_and_bh_fdr_under_simulated_nulls():
    # 20 tests, 5 of them false nulls (z shifted by 3), independent; 20,000 families.
    rng = np.random.default_rng(20260)
    reps, m, m1, alpha = 20_000, 20, 5, 0.05
    z = rng.standard_normal((reps, m))
    z[:, :m1] += 3.0
    p = 2 * stats.norm.sf(np.abs(z))
    null = np.zeros(m, bool)
    null[m1:] = True

    def rates(method):
        rej = adjust_pvalues(p, method=method, axis=1) <= alpha
        false = rej[:, null].sum(axis=1)
        fwer = np.mean(false > 0)
        fdp = np.where(rej.sum(axis=1) > 0, false / np.maximum(rej.sum(axis=1), 1), 0.0)
        return fwer, fdp

    fwer_holm, _ = rates("holm")
    assert fwer_holm <= alpha + 2 * np.sqrt(alpha * (1 - alpha) / reps)
    _, fdp_bh = rates("bh")
    assert fdp_bh.mean() <= alpha + 2 * fdp_bh.std(ddof=1) / np.sqrt(reps)
    # All nulls true: FWER = FDR for every method; BH at the level, none far above it.
    p0 = rng.uniform(size=(reps, m))
    for method in ADJUST_METHODS:
        fwer = np.mean((adjust_pvalues(p0, method=method, axis=1) <= alpha).any(axis=1))
        assert fwer <= alpha + 2 * np.sqrt(alpha * (1 - alpha) / reps), method
    # Without correction the FWER is 1 - 0.95^20 = 0.64: the test can fail.
    assert np.mean((p0 <= alpha).any(axis=1)) > 0.6


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    "p, match",
    [
        ([], r"^`pvalues` must not be empty\.$"),
        (
            [0.1, np.nan, 0.2, np.nan],
            r"^`pvalues` holds 2 NaN value\(s\) at flat position\(s\) 1, 3; "
            r"a failed test must be handled explicitly, not dropped from the family\.$",
        ),
        ([0.1, 1.2], r"`pvalues` must lie in \[0, 1\]; got 1.2"),
        ([-0.01, 0.5], r"`pvalues` must lie in \[0, 1\]; got -0.01"),
    ],
)
def test_bad_pvalues(p, match):
    with pytest.raises(ValueError, match=match):
        adjust_pvalues(p)


def test_bad_options():
    with pytest.raises(ValueError, match="`method` must be one of"):
        adjust_pvalues([0.1], method="fdr")
    with pytest.raises(TypeError, match="`pvalues` must hold real numbers"):
        adjust_pvalues(["a"])
    with pytest.raises(ValueError, match=r"`axis` must be in \[-2, 1\] for `pvalues` of shape \(1, 1\); got 2\."):
        adjust_pvalues([[0.1]], axis=2)
    with pytest.raises(ValueError, match=r"`axis` must be in \[-2, 1\] .*; got -3\."):
        adjust_pvalues([[0.1]], axis=-3)
    with pytest.raises(TypeError, match="`axis`"):
        adjust_pvalues([0.1], axis=0.5)


# --------------------------------------------------------------------------- best of k


def _best_of_k_brute_force(x, k, v):
    from itertools import combinations

    total = 0.0
    subsets = list(combinations(range(len(x)), k))
    for subset in subsets:
        best = max(x[i] for i in subset)
        winners = [i for i in subset if x[i] == best]
        total += np.mean([v[i] for i in winners])  # ties broken at random
    return total / len(subsets)


def test_expected_best_of_k_by_brute_force_with_ties():
    rng = np.random.default_rng(6)
    for _ in range(20):
        n = int(rng.integers(1, 9))
        x = rng.integers(0, 4, size=n) / 10  # many ties
        v = rng.normal(size=n)
        ks = np.arange(1, n + 1)
        np.testing.assert_allclose(
            expected_best_of_k(x, ks), [_best_of_k_brute_force(x, k, x) for k in ks], rtol=1e-12
        )
        np.testing.assert_allclose(
            expected_best_of_k(x, ks, values=v),
            [_best_of_k_brute_force(x, k, v) for k in ks], rtol=1e-10, atol=1e-12,
        )
    x = rng.normal(size=20)
    assert expected_best_of_k(x, 1) == pytest.approx(x.mean())
    assert expected_best_of_k(x, 20) == pytest.approx(x.max())
    assert np.all(np.diff(expected_best_of_k(x, np.arange(1, 21))) > 0)


def test_expected_best_of_k_at_any_n_against_the_closed_form():
    # For the runs 0..n-1 the best of a random k-subset has mean k (n + 1) / (k + 1) - 1.
    # The binomials of the formula exceed float64 from n of about 1030: they used to give NaN.
    assert expected_best_of_k(np.arange(1100.0), 550) == pytest.approx(550 * 1101 / 551 - 1, rel=1e-12)
    n = 100_000
    ks = np.array([1, 2, 10, 300, 550, 999, 1000, n // 2, n - 1, n])
    got = expected_best_of_k(np.arange(float(n)), ks)
    np.testing.assert_allclose(got, ks * (n + 1) / (ks + 1) - 1, rtol=1e-11)
    # With values: the value of the selected run, here minus its score.
    np.testing.assert_allclose(expected_best_of_k(np.arange(float(n)), ks, values=-np.arange(float(n))), -got,
                               rtol=1e-11)


def test_expected_best_of_k_memory_grows_with_n_not_with_n_times_k():
    import tracemalloc

    x = np.arange(20_000.0)
    ks = np.arange(1, 2001)  # n * len(k) float64 would be 320 MB
    tracemalloc.start()
    try:
        expected_best_of_k(x, ks)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60e6


def test_expected_best_of_k_keeps_the_shape_of_k():
    x = [0.60, 0.62, 0.61, 0.65]
    # One return type: an array of the shape of k, 0-d for one k (it returned a float there).
    for one in (expected_best_of_k(x, 2), expected_best_of_k(x, np.int64(2), values=x)):
        assert type(one) is np.ndarray and one.shape == ()
    assert float(expected_best_of_k(x, 2)) == pytest.approx((0.62 + 0.61 + 0.65 + 0.62 + 0.65 + 0.65) / 6, rel=1e-15)
    grid = expected_best_of_k(x, [[1, 2], [3, 4]])
    assert grid.shape == (2, 2)
    np.testing.assert_allclose(grid.ravel(), expected_best_of_k(x, [1, 2, 3, 4]), rtol=1e-15)


def test_expected_best_of_k_of_values_near_the_float_limit():
    # Averaging values near 1.8e308 overflows unless they are rescaled; by brute force at 2**-1000.
    x = np.array([0.60, 0.62, 0.61, 0.65, 0.62])
    v = np.array([1.5e308, 1.7e308, 1.6e308, 1.0e308, 1.2e308])
    ks = np.arange(1, 6)
    expected = [_best_of_k_brute_force(x, k, v * 2.0**-1000) * 2.0**1000 for k in ks]
    np.testing.assert_allclose(expected_best_of_k(x, ks, values=v), expected, rtol=1e-12)


def test_expected_best_of_k_bad_input():
    with pytest.raises(ValueError, match="`k` must be between 1"):
        expected_best_of_k([0.1, 0.2], 3)
    with pytest.raises(ValueError, match="`k` must be between 1"):
        expected_best_of_k([0.1, 0.2], [0, 1])
    with pytest.raises(ValueError, match="`k` must hold whole numbers"):
        expected_best_of_k([0.1, 0.2], 1.5)
    with pytest.raises(ValueError, match="`values` must be paired"):
        expected_best_of_k([0.1, 0.2], 1, values=[0.3])
    with pytest.raises(ValueError, match=r"`scores` holds 1 NaN .* at position\(s\) 1;"):
        expected_best_of_k([0.1, np.nan], 1)
    with pytest.raises(ValueError, match=r"`values` holds 1 NaN .* at position\(s\) 0;"):
        expected_best_of_k([0.1, 0.2], 1, values=[np.nan, 0.3])


# --------------------------------------------------------------------------- statsmodels, and the fast sort

STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "hochberg": "simes-hochberg", "bh": "fdr_bh",
               "by": "fdr_by"}


def _families():
    gen = np.random.default_rng(19)
    return {
        "skewed": gen.uniform(size=20_000) ** 3,
        "ties": np.round(gen.uniform(size=5_000), 2),
        "edges": np.r_[np.zeros(50), np.ones(50), gen.uniform(size=50) * 1e-310, -0.0, gen.uniform(size=100)],
        # Values that share their leading bits: the fast sort must reorder them by their last ones.
        "close": gen.permutation(0.5 + gen.integers(0, 2**14, 4_000) * 2.0**-50),
        "few close": np.r_[gen.uniform(size=3_000), 0.25 + np.arange(40) * 2.0**-54],
        "one": np.array([0.3]),
    }


@pytest.mark.parametrize("method", ADJUST_METHODS)
@pytest.mark.parametrize("family", list(_families()))
def test_adjust_pvalues_equals_statsmodels_multipletests(method, family):
    """The same numbers as statsmodels, bit for bit, whatever the order, ties and edges."""
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    p = _families()[family]
    np.testing.assert_array_equal(adjust_pvalues(p, method=method), multipletests(p, method=STATSMODELS[method])[1])


@pytest.mark.parametrize("method", ADJUST_METHODS)
def test_adjust_pvalues_along_an_axis_equals_statsmodels(method):
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    p = np.random.default_rng(3).uniform(size=(4, 300)) ** 2
    expected = np.array([multipletests(row, method=STATSMODELS[method])[1] for row in p])
    np.testing.assert_array_equal(adjust_pvalues(p, method=method, axis=1), expected)
    np.testing.assert_array_equal(adjust_pvalues(p.T, method=method, axis=0), expected.T)


@pytest.mark.parametrize("family", list(_families()))
def test_sort_unit_sorts(family):
    from sigeval.multiple import _sort_unit

    p = _families()[family] + 0.0
    order, ordered = _sort_unit(p)
    assert order.dtype == np.intp
    np.testing.assert_array_equal(np.sort(order), np.arange(p.size))
    np.testing.assert_array_equal(ordered, p[order])
    np.testing.assert_array_equal(ordered, np.sort(p))


def test_sort_unit_reorders_only_the_groups_out_of_order(monkeypatch):
    """A few close values are sorted within their group; many fall back to numpy's sort."""
    from sigeval import multiple

    calls = []
    monkeypatch.setattr(multiple.np, "argsort", lambda x, *a, **k: calls.append(1) or np.asarray(x).argsort(kind="stable"))
    gen = np.random.default_rng(5)
    few = np.r_[gen.uniform(size=4_000), 0.25 + np.arange(40)[::-1] * 2.0**-54]
    order, ordered = multiple._sort_unit(few)
    assert not calls and np.array_equal(ordered, np.sort(few))
    many = 0.5 + gen.permutation(4_000) * 2.0**-50
    assert np.array_equal(multiple._sort_unit(many)[1], np.sort(many)) and len(calls) == 1
    # One descent, but in a group of 1,000 values that share their leading bits.
    big = np.r_[gen.uniform(size=3_000), 0.5 + np.arange(1_000) * 2.0**-53]
    big[[-1, -2]] = big[[-2, -1]]
    assert np.array_equal(multiple._sort_unit(big)[1], np.sort(big)) and len(calls) == 2


def _spy_argsort(monkeypatch):
    from sigeval import multiple

    calls = []
    monkeypatch.setattr(multiple.np, "argsort", lambda x, *a, **k: calls.append(1) or np.asarray(x).argsort(kind="stable"))
    return calls


def test_sort_unit_keeps_every_bit_it_has_room_for(monkeypatch):
    """Keys drop only the bits the positions need: values one kept bit apart sort without numpy's sort."""
    from sigeval.multiple import _sort_unit

    calls = _spy_argsort(monkeypatch)
    gen = np.random.default_rng(8)
    # n = 4096 needs 12 index bits, so 10 value bits are dropped: 2**10 ulps of 0.5 apart is kept.
    spaced = 0.5 + gen.permutation(4_096) * 2.0**-43
    assert np.array_equal(_sort_unit(spaced)[1], np.sort(spaced))
    # Up to 4 values need at most 2 index bits: no bit is dropped, neighbouring floats are told apart.
    for n in (1, 2, 3, 4):
        tiny = 0.5 + np.arange(n)[::-1] * 2.0**-53
        assert np.array_equal(_sort_unit(tiny)[1], np.sort(tiny))
    # Ties are no descent: equal values come in the order of their positions.
    ties = np.round(gen.uniform(size=5_000), 2)
    assert np.array_equal(_sort_unit(ties)[1], np.sort(ties))
    assert not calls


def test_sort_unit_reorders_the_lowest_and_the_highest_group():
    """Descents in the first and in the last group of equal leading bits, and -0.0 among the smallest."""
    from sigeval.multiple import _sort_unit

    rest = np.random.default_rng(9).uniform(0.3, 0.8, size=1_000)
    smallest = np.r_[3 * 2.0**-1074, -0.0, 2.0**-1074]  # share their leading bits with 0.0
    largest = np.r_[0.9, np.nextafter(0.9, 0)]
    p = np.r_[smallest, rest, largest]
    order, ordered = _sort_unit(p)
    np.testing.assert_array_equal(ordered, np.sort(p))
    np.testing.assert_array_equal(p[order], ordered)


def test_sort_unit_groups_by_the_bits_of_the_values_themselves():
    """Two values of one group whose sum with 1.0 would round across a group boundary are still sorted."""
    from sigeval.multiple import _sort_unit

    boundary = 0.25 + 2.0**-42
    pair = np.r_[boundary - 2.0**-54, boundary - 2.0**-45]  # descending, one group of 2**10 ulps
    p = np.r_[pair, np.random.default_rng(10).uniform(0.5, 1.0, size=4_000)]
    np.testing.assert_array_equal(_sort_unit(p)[1], np.sort(p))


def test_sort_unit_falls_back_to_numpys_sort_only_beyond_its_thresholds(monkeypatch):
    """Up to n // 64 descents and n // 8 values in the groups are sorted group by group; one more falls back."""
    from sigeval.multiple import _sort_unit

    calls = _spy_argsort(monkeypatch)
    gen = np.random.default_rng(11)
    n = 640  # 10 index bits, 8 value bits dropped; n // 64 = 10, n // 8 = 80

    def family(close):
        p = np.r_[close, gen.uniform(0.0, 0.45, size=n - close.size)]
        out = _sort_unit(p)[1]
        assert np.array_equal(out, np.sort(p))
        return len(calls)

    starts = 0.5 + np.arange(11) * 2.0**-40
    pairs = np.column_stack([starts + 2.0**-53, starts]).ravel()  # each pair one descent in its own group
    assert family(pairs[:20]) == 0  # 10 descents
    assert family(pairs) == 1  # 11 descents
    block = 0.5 + np.arange(81) * 2.0**-53  # one group
    block80 = block[:80].copy()
    block80[[0, 1]] = block80[[1, 0]]
    assert family(block80) == 1  # one descent, 80 values in its group
    block[[0, 1]] = block[[1, 0]]
    assert family(block) == 2  # 81 values


@pytest.mark.parametrize("method", ["holm", "hochberg", "bh", "by"])
def test_adjust_sorted_overwrites_its_argument(method):
    """The sorted copy is adjusted in place: no second array of the family's size."""
    from sigeval.multiple import _adjust_sorted

    p = np.sort(np.random.default_rng(12).uniform(size=50))
    expected = adjust_pvalues(p, method=method)
    out = _adjust_sorted(p, method)
    assert out is p
    np.testing.assert_array_equal(p, expected)


@pytest.mark.parametrize(
    "p, shown",
    [([0.0, 1.2], "1.2"), ([1.0, -0.5], "-0.5"), ([0.0, 1.0, 0.5, 2.0, -1.0], "2.0, -1.0")],
)
def test_bad_pvalues_name_only_the_values_outside_the_unit_interval(p, shown):
    # 0 and 1 are valid p-values: beside a bad one, they are not reported.
    with pytest.raises(ValueError, match=rf"^`pvalues` must lie in \[0, 1\]; got {shown}\.$"):
        adjust_pvalues(p)


def test_expected_best_of_k_takes_one_k_at_a_time_when_n_exceeds_the_block(monkeypatch):
    from sigeval import multiple

    x = np.array([0.3, 0.1, 0.4, 0.1, 0.5])
    ks = np.array([1, 2, 3, 4, 5])
    expected = [_best_of_k_brute_force(x, k, x) for k in ks]
    seen = []
    weights = multiple._best_of_k_weights
    monkeypatch.setattr(multiple, "_best_of_k_weights", lambda n, k: seen.append(k.size) or weights(n, k))
    monkeypatch.setattr(multiple, "_WEIGHT_BLOCK", 4)  # fewer numbers than one row of n = 5
    np.testing.assert_allclose(expected_best_of_k(x, ks), expected, rtol=1e-14)
    assert seen == [1, 1, 1, 1, 1]
    monkeypatch.setattr(multiple, "_WEIGHT_BLOCK", 10)  # two rows
    seen.clear()
    np.testing.assert_allclose(expected_best_of_k(x, ks), expected, rtol=1e-14)
    assert seen == [2, 2, 1]


def test_decision_levels_decide_exactly_as_holm_and_bonferroni():
    rng = np.random.default_rng(5)
    for _ in range(500):
        m = int(rng.integers(1, 12))
        p = rng.random(m) ** rng.integers(1, 6)
        p[rng.integers(0, m)] = p[0]  # ties
        alpha = float(rng.uniform(0.001, 0.2))
        for method in ("holm", "bonferroni"):
            np.testing.assert_array_equal(p <= decision_levels(p, alpha=alpha, method=method),
                                          adjust_pvalues(p, method=method) <= alpha)
    # Holm's levels by hand: sorted 0.005, 0.01, 0.03, 0.04 have terms 0.02, 0.03, 0.06, 0.04; the last is
    # decided at 0.05 x 0.04 / 0.06 (an earlier term is larger), the others at alpha / (m - i + 1).
    np.testing.assert_allclose(decision_levels([0.01, 0.04, 0.03, 0.005]),
                               [0.05 / 3, 0.05 * 0.04 / 0.06, 0.05 / 2, 0.05 / 4], rtol=1e-15)
    assert decision_levels([0.0, 0.0]).tolist() == [0.025, 0.05]
    with pytest.raises(ValueError, match=r"^`method` must be one of 'holm', 'bonferroni'; got 'bh'"):
        decision_levels([0.1], method="bh")


def test_decision_levels_keep_the_shape_and_warn_of_nothing():
    p = np.array([[0.01, 0.04], [0.03, 0.005]])
    for method in ("holm", "bonferroni"):
        levels = decision_levels(p, method=method)
        assert levels.shape == (2, 2)
        np.testing.assert_array_equal(levels.ravel(), decision_levels(p.ravel(), method=method))
    with np.errstate(all="warn"), warnings.catch_warnings():
        warnings.simplefilter("error")   # zero p-values: 0 / 0 in the branch np.where does not take, silently
        assert decision_levels([0.0, 0.0, 0.01]).tolist() == [0.05 / 3, 0.025, 0.05]

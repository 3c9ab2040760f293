"""sigeval.permutation: the limits of each exact method, the tie tolerance, huge scores and the messages.

The agreement of each path with brute-force enumeration and McNemar's exact
test on ordinary data is checked in tests/test_resampling.py.
"""

import itertools
import warnings
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest

from sigeval import paired_permutation_test

ALTERNATIVES = ("two-sided", "greater", "less")


def _brute_force(d):
    """Every sign pattern of ``d``, in exact arithmetic (no tolerance needed)."""
    d = [int(x) if float(x).is_integer() else Fraction(x) for x in d]
    t = sum(d)
    null = [sum(s * x for s, x in zip(signs, d)) for signs in itertools.product((-1, 1), repeat=len(d))]
    return {
        "two-sided": sum(abs(v) >= abs(t) for v in null) / len(null),
        "greater": sum(v >= t for v in null) / len(null),
        "less": sum(v <= t for v in null) / len(null),
    }


def _one_large_positive(small, large):
    """Differences: ``small`` negative ones and one ``large`` positive one that outweighs them all.

    W, the total magnitude with a plus sign, reaches the observed ``large``
    exactly when the large difference keeps its sign, so P(W <= large) =
    1/2 + 2**-m (the large one flipped, or kept alone).
    """
    return np.r_[-np.asarray(small, float), float(large)]


# --------------------------------------------------------------------------- limits of the exact methods


@pytest.mark.parametrize(
    "small, large",
    [
        ([1] * 20, 1_000_000 - 20),                          # total magnitude exactly 10**6
        ([1, *range(1, 20)], 1_000_000 - 1 - 190 - 1),       # 20 magnitudes x (total + 1) = 2 * 10**7
    ],
)
def test_convolution_is_exact_up_to_its_size_limits(small, large):
    d = _one_large_positive(small, large)
    m = d.size   # more than 20: enumeration is out of reach, so the convolution must do it
    res = paired_permutation_test(d, np.zeros(m), method="exact", alternative="less")
    assert res.method == "exact"
    assert res.pvalue == pytest.approx(0.5 + 2.0**-m, abs=1e-12)


@pytest.mark.parametrize(
    "small, large",
    [
        ([1] * 20, 1_000_000 - 20 + 1),                      # total magnitude 10**6 + 1
        ([1, *range(1, 21)], 952_381 - 1 - 1 - 210),         # 21 magnitudes x 952,381 = 2 * 10**7 + 1
    ],
)
def test_convolution_refuses_beyond_its_size_limits(small, large):
    d = _one_large_positive(small, large)
    with pytest.raises(ValueError, match="`method`='exact' is not feasible here"):
        paired_permutation_test(d, np.zeros(d.size), method="exact")
    assert paired_permutation_test(d, np.zeros(d.size), n_resamples=20, rng=0).method == "monte-carlo"


def test_enumeration_is_exact_up_to_twenty_differences():
    d = 0.5 + np.arange(20.0)   # not integers, all positive: only the observed signs reach the statistic
    greater = paired_permutation_test(d, np.zeros(20), alternative="greater")
    less = paired_permutation_test(d, np.zeros(20), alternative="less")
    assert greater.method == "exact" and greater.pvalue == 2.0**-20
    assert less.pvalue == 1.0
    with pytest.raises(ValueError, match="number 21 nonzero differences"):
        paired_permutation_test(np.r_[d, 20.5], np.zeros(21), method="exact")


def test_convolution_tails_are_exact_at_the_extremes():
    """All differences of one sign: the observed signs are the most extreme, p = 2**-m, and no tail exceeds 1.

    (For these magnitudes the FFT's raw tails are 2**-5 - 1.4e-17 and 1 + 8.9e-16.)
    """
    d = np.array([65.0, 91, 50, 61, 97])
    assert _brute_force(d)["greater"] == 2.0**-5
    for sign, extreme, other in ((1, "greater", "less"), (-1, "less", "greater")):
        assert paired_permutation_test(sign * d, np.zeros(5), alternative=extreme).pvalue == 2.0**-5
        assert paired_permutation_test(sign * d, np.zeros(5), alternative=other).pvalue == 1.0


@pytest.mark.parametrize("seed", range(3))
def test_convolution_with_large_magnitudes_matches_brute_force(seed):
    gen = np.random.default_rng(seed)
    d = gen.integers(-60, 61, size=12).astype(float)   # magnitudes up to 60, phases over many turns
    for alternative, p in _brute_force(d).items():
        res = paired_permutation_test(d, np.zeros(12), alternative=alternative)
        assert res.method == "exact" and res.pvalue == pytest.approx(p, abs=1e-12)


def test_no_disagreement_gives_p_one_for_every_alternative():
    a = np.array([1.0, 0.0, 2.5])
    for alternative in ALTERNATIVES:
        with pytest.warns(UserWarning, match="All paired differences are zero"):
            res = paired_permutation_test(a, a, alternative=alternative)
        assert (res.pvalue, res.method, res.alternative) == (1.0, "exact", alternative)


# --------------------------------------------------------------------------- tie tolerance


@pytest.mark.parametrize("scale", [1.0, 1e6])
@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
def test_tie_tolerance_is_1e12_times_the_largest_difference(scale, method):
    """Flipping a difference of 0.8e-12 (relative) is a tie with the observed statistic; 1.5e-12 is not.

    With d = (1, x) times ``scale``, the flip of x moves the mean by x: the
    permutation counts for "greater" when x <= 1e-12 max(1, max |d|).
    """
    kwargs = dict(method=method, alternative="greater", n_resamples=400, rng=1)
    tie = paired_permutation_test(scale * np.array([1.0, 0.8e-12]), np.zeros(2), **kwargs)
    apart = paired_permutation_test(scale * np.array([1.0, 1.5e-12]), np.zeros(2), **kwargs)
    if method == "exact":
        assert (tie.pvalue, apart.pvalue) == (0.5, 0.25)
    else:
        # "greater" counts the draws that keep the sign of the large difference (and of x, if apart).
        keep_large = np.count_nonzero(tie.null_distribution > 0)
        assert tie.pvalue == (1 + keep_large) / 401
        keep_both = np.count_nonzero(apart.null_distribution > 0.5 * scale)
        assert apart.pvalue == (1 + keep_both) / 401
        assert keep_both < keep_large


@pytest.mark.parametrize("method", ["exact", "monte-carlo"])
def test_a_permutation_exactly_at_the_tolerance_counts(method):
    """d = (1e12, 1): the tolerance is exactly 1 and the flip of the 1 lands exactly on mean - 1."""
    d = np.array([1e12, 1.0])
    kwargs = dict(method=method, n_resamples=400, rng=2)
    greater = paired_permutation_test(d, np.zeros(2), alternative="greater", **kwargs)
    less = paired_permutation_test(-d, np.zeros(2), alternative="less", **kwargs)
    both = paired_permutation_test(d, np.zeros(2), **kwargs)
    assert both.pvalue == 1.0
    if method == "exact":
        assert (greater.pvalue, less.pvalue) == (0.5, 0.5)
    else:
        assert greater.pvalue == (1 + np.count_nonzero(greater.null_distribution > 0)) / 401
        assert less.pvalue == (1 + np.count_nonzero(less.null_distribution < 0)) / 401


# --------------------------------------------------------------------------- huge scores


HUGE = np.array([1.5e308, 1e308, -0.7e308])


def test_huge_differences_exact_without_overflow():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        results = {alt: paired_permutation_test(HUGE, np.zeros(3), alternative=alt) for alt in ALTERNATIVES}
    mean = float(sum(Fraction(x) for x in HUGE) / 3)
    for alternative, p in _brute_force(HUGE).items():
        res = results[alternative]
        assert res.method == "exact" and res.pvalue == p
        assert res.statistic == pytest.approx(mean, rel=1e-15)


def test_huge_differences_monte_carlo_null_is_the_documented_stream():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = paired_permutation_test(HUGE, np.zeros(3), method="monte-carlo", n_resamples=64, rng=3)
    flips = np.random.default_rng(3).choice([-1.0, 1.0], size=(64, 3))
    expected = [float(sum(Fraction(s) * Fraction(x) for s, x in zip(row, HUGE)) / 3) for row in flips]
    np.testing.assert_allclose(res.null_distribution, expected, rtol=1e-15)
    mean = float(sum(Fraction(x) for x in HUGE) / 3)
    assert res.statistic == pytest.approx(mean, rel=1e-15)
    assert res.pvalue == (1 + np.count_nonzero(np.abs(expected) >= mean * (1 - 1e-12))) / 65


# --------------------------------------------------------------------------- options and messages


@pytest.mark.parametrize("alternative", ALTERNATIVES)
def test_result_records_the_alternative_and_the_defaults(alternative):
    a, b = np.array([3.0, 1, 4, 1, 5, 9]), np.array([2.0, 7, 1, 8, 2, 8])
    exact = paired_permutation_test(a, b, alternative=alternative)
    mc = paired_permutation_test(a, b, alternative=alternative, method="monte-carlo", rng=0)
    assert exact.alternative == mc.alternative == alternative
    assert mc.n_resamples == 10_000 and mc.null_distribution.shape == (10_000,)
    default = paired_permutation_test(a, b)
    assert (default.alternative, default.method) == ("two-sided", "exact")


def test_no_warning_when_some_difference_is_nonzero():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        paired_permutation_test([1.0, 0.0, 1.0], [1.0, 1.0, 1.0])
        paired_permutation_test([1.0, 0.0, 1.0], [1.0, 1.0, 1.0], method="monte-carlo", n_resamples=10, rng=0)


def test_zero_differences_warning_names_the_caller_and_says_why():
    a = np.array([1.0, 0.0, 1.0])
    with pytest.warns(UserWarning) as record:
        paired_permutation_test(a, a)
    # It points at the caller, this file (under mutation testing, at mutmut's trampoline in between).
    assert len(record) == 1
    assert record[0].filename == __file__ or "mutmut" in Path(record[0].filename).parts
    assert str(record[0].message) == (
        "All paired differences are zero: the two models agree on every item, "
        "so the data hold no evidence of a difference; the p-value is 1.0."
    )


def test_infeasible_exact_message_counts_what_blocks_each_method():
    d = np.r_[np.random.default_rng(4).random(30) + 0.1, 0.0, 0.0]   # 30 distinct magnitudes, two zeros
    expected = (
        r"^`method`='exact' is not feasible here: the nonzero differences take 30 distinct magnitudes "
        r"\(exact by the binomial needs one\), are not integers with a total magnitude of at most 1,000,000, "
        r"and number 30 nonzero differences \(at most 20 can be enumerated\); use method='monte-carlo' or 'auto'\.$"
    )
    with pytest.raises(ValueError, match=expected):
        paired_permutation_test(d, np.zeros(d.size), method="exact")


def test_overflowing_differences_are_named():
    with pytest.raises(ValueError, match=r"`scores_a - scores_b` overflow float64 at position\(s\) 0"):
        paired_permutation_test([1.7e308, 1.0], [-1.7e308, 0.0])


def test_too_many_resamples_are_refused_before_drawing():
    with pytest.raises(ValueError, match=r"^`n_resamples` = 1000000000000 would need .* for the null distribution; "
                                         r".*Choose a smaller `n_resamples`\.$"):
        paired_permutation_test([1.0, 2.5], [0.0, 0.0], method="monte-carlo", n_resamples=10**12)

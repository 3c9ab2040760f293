"""The paired t family's cores (sigeval._paired_t): one computation per statistic, for one comparison or many."""

import numpy as np
import pytest
from scipy import stats

from sigeval import bayesian_paired_t, paired_difference, power_paired, tost_paired
from sigeval._paired_t import Summaries, fill, posterior, power, refusals, student, summarise, t_regions, tost

RNG = np.random.default_rng(20261207)
A = RNG.normal(0.80, 0.02, (40, 7))
B = A - RNG.normal(0.005, 0.01, (40, 7))


def _many(a, b):
    out = Summaries.empty(a.shape[0])
    fill(out, np.arange(a.shape[0]), a, b)
    return out


def test_summaries_of_many_rows_equal_those_of_each_row_bit_for_bit():
    many = _many(A, B)
    for r in range(A.shape[0]):
        one = summarise(A[r], B[r])
        for name in ("n", "mean_u", "sd_u", "unit", "scale", "top", "first", "constant", "finite"):
            assert getattr(many, name)[r] == getattr(one, name)[0], name
    np.testing.assert_allclose(many.mean, (A - B).mean(axis=1), rtol=1e-13)
    np.testing.assert_allclose(many.sd, (A - B).std(axis=1, ddof=1), rtol=1e-13)


def test_student_is_scipys_paired_t_test_and_interval():
    values, reason = student(_many(A, B), 0.1)
    assert (reason == "").all()
    for r in range(A.shape[0]):
        ref = stats.ttest_rel(A[r], B[r])
        low, high = ref.confidence_interval(confidence_level=0.9)
        assert values["statistic"][r] == pytest.approx(ref.statistic, rel=1e-12)
        assert values["pvalue"][r] == pytest.approx(ref.pvalue, rel=1e-10)
        assert (values["ci_low"][r], values["ci_high"][r]) == pytest.approx((low, high), rel=1e-12)


def test_tost_is_two_one_sided_scipy_tests():
    margin = 0.01
    values, reason = tost(_many(A, B), margin, 0.05)
    assert (reason == "").all()
    for r in range(A.shape[0]):
        lower = stats.ttest_1samp(A[r] - B[r], -margin, alternative="greater")
        upper = stats.ttest_1samp(A[r] - B[r], margin, alternative="less")
        assert values["pvalue_lower"][r] == pytest.approx(lower.pvalue, rel=1e-10)
        assert values["pvalue_upper"][r] == pytest.approx(upper.pvalue, rel=1e-10)
        assert values["pvalue"][r] == max(values["pvalue_lower"][r], values["pvalue_upper"][r])
        low, high = stats.ttest_rel(A[r], B[r]).confidence_interval(confidence_level=0.9)
        assert (values["ci_low"][r], values["ci_high"][r]) == pytest.approx((low, high), rel=1e-12)


def test_power_is_the_noncentral_t_and_a_level_per_row_is_each_rows_level():
    sd, n = np.array([0.01, 0.02, 0.05]), np.array([5, 10, 40])
    levels = np.array([0.05, 0.01, 0.0125])
    values, reason = power(sd, n, levels, 0.8, delta=np.array([0.01, 0.02, 0.01]))
    assert (reason == "").all()
    for i in range(3):
        df, crit = n[i] - 1, stats.t.isf(levels[i] / 2, n[i] - 1)
        assert values["mde"][i] == pytest.approx((crit + stats.t.ppf(0.8, df)) * sd[i] / np.sqrt(n[i]), rel=1e-14)
        nc = [0.01, 0.02, 0.01][i] * np.sqrt(n[i]) / sd[i]
        exact = stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)
        assert values["power"][i] == pytest.approx(exact, rel=1e-9)
        one = power_paired(sd[i], int(n[i]), alpha=float(levels[i]), delta=[0.01, 0.02, 0.01][i])
        assert (one.mde, one.power) == (values["mde"][i], values["power"][i])


def test_t_regions_is_the_student_t_and_a_point_mass_where_the_scale_is_zero():
    loc, scale, df, rope = np.array([0.3, -2.0, 0.0, 0.0, 0.5]), np.array([1.0, 0.5, 0.0, 0.0, 0.0]), 4, \
        np.array([0.1, 0.1, 0.0, 0.1, 0.2])
    above, inside, below = t_regions(loc, scale, df, rope)
    assert above[0] == pytest.approx(stats.t.sf(0.1, 4, loc=0.3, scale=1.0), rel=1e-14)
    assert below[1] == pytest.approx(stats.t.cdf(-0.1, 4, loc=-2.0, scale=0.5), rel=1e-14)
    assert inside[1] == pytest.approx(stats.t.cdf(0.1, 4, -2.0, 0.5) - stats.t.cdf(-0.1, 4, -2.0, 0.5), rel=1e-9)
    assert [above[2], inside[2], below[2]] == [0.5, 0.0, 0.5]  # on the boundary of a zero ROPE: half and half
    assert [above[3], inside[3], below[3]] == [0.0, 1.0, 0.0]
    assert [above[4], inside[4], below[4]] == [1.0, 0.0, 0.0]


def test_refusals_say_what_the_public_functions_raise():
    a = np.array([[1.0, 2.0, 3.0], [0.7, 0.7, 0.7], [1.0, 1.0 + 2.2e-16, 1.0]])
    b = np.array([[0.5, 1.0, 2.5], [0.2, 0.2, 0.2], [0.5, 0.5, 0.5]])
    s = _many(a, b)
    reason = refusals(s)
    assert reason[0] == ""
    for r in (1, 2):
        with pytest.raises(ValueError) as raised:
            paired_difference(a[r], b[r])
        assert reason[r] == str(raised.value)
    few = Summaries.empty(1)  # no pairs yet: a report's comparison whose runs all failed
    assert refusals(few)[0] == "0 seed(s) on which both ran; a paired comparison needs at least 2 (see `failed_runs`)."


def test_overflows_are_refused_with_the_functions_messages():
    big = np.array([[1e308, -1e308, 1e308]])
    s = _many(big, -big)  # differences of 2e308: not finite
    assert "overflow float64" in refusals(s)[0]
    a, b = np.array([0.5e300, -0.5e300]), np.array([-0.5e300, 0.5e300])
    values, reason = power(np.array([np.sqrt(2) * 1e300]), np.array([2]), 1e-12, 0.8)
    with pytest.raises(ValueError) as raised:
        power_paired(np.sqrt(2) * 1e300, 2, alpha=1e-12)
    assert reason[0] == str(raised.value) and np.isnan(values["mde"][0])
    with pytest.raises(ValueError) as raised:  # t quantile 3e8 at one degree of freedom, times 1e300
        tost_paired(a, b, margin=1e-300, alpha=1e-9)
    assert tost(summarise(a, b), 1e-300, 1e-9)[1][0] == str(raised.value)


def test_posterior_is_bayesian_paired_t_row_by_row():
    post, reason = posterior(_many(A, B), 0.005, 0.0, "scores")
    assert (reason == "").all()
    for r in range(A.shape[0]):
        one = bayesian_paired_t(A[r], B[r], rope=0.005)
        assert [post[k][r] for k in ("loc", "scale", "prob_a_better", "prob_rope", "prob_b_better")] == [
            one.loc, one.scale, one.prob_a_better, one.prob_rope, one.prob_b_better]


# --------------------------------------------------------------------------- near the float64 limits


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 8, 1000])
def test_the_unit_is_safe_scale_of_the_differences_with_squares(n):
    # An independent implementation of the same rule: sigeval._numeric.safe_scale(power=2), one row at a time,
    # at the exponents where the rule switches (2 e + log2 n against 1000, 2 e against -1000).
    from sigeval._numeric import safe_scale
    from sigeval._paired_t import _unit

    exponents = np.r_[np.arange(490, 512), np.arange(-512, -490), [-1, 0, 1]]
    tops = np.r_[np.ldexp(1.0, exponents - 1), np.ldexp(1.5, exponents - 1), 0.0, 1.0]
    expected = [safe_scale(np.r_[top, np.zeros(n - 1)], power=2) for top in tops]
    assert _unit(tops, n).tolist() == expected


def test_summaries_near_the_limits_keep_the_mean_and_sd_and_ordinary_rows_have_unit_one():
    big = np.array([1.5e308, -1.2e308, 0.9e308])
    tiny = np.array([3e-310, -1e-310, 2e-310])
    a = np.vstack([big, tiny, [0.81, 0.83, 0.8]])
    b = np.zeros_like(a)
    s = _many(a, b)
    assert s.unit[2] == 1.0 and s.unit[0] == 2.0**1023 and s.unit[1] == 2.0**-1029
    assert s.mean[0] == pytest.approx(float(np.mean(big / 4)) * 4, rel=1e-15)
    assert s.sd[1] == pytest.approx(float(np.std(tiny * 2.0**1000, ddof=1)) * 2.0**-1000, rel=1e-15)
    assert s.constant.dtype == bool and s.finite.dtype == bool
    one = summarise(a[2], b[2])
    assert one.n.shape == (1,) and one.first.tolist() == [0.81]
    post, reason = posterior(s, 1e300, 0.0, "scores")  # the posterior computed in each row's unit
    assert post["loc"][0] == s.mean[0] and post["loc"][1] == s.mean[1] and (reason == "").all()


def test_fill_records_the_first_difference_and_the_largest_finite_one_and_warns_of_nothing():
    import warnings

    a = np.array([[0.9, 0.7, 0.8], [np.inf, 0.25, 0.5], [1.7e308, -1.7e308, 1.0], [np.inf, 0.1, 0.2]])
    b = np.array([[0.5, 0.6, 0.65], [np.inf, 0.0, 0.0], [-1.7e308, 1.7e308, 0.0], [0.0, 0.0, 0.0]])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # inf - inf, overflowing differences and their moments: no warning
        s = _many(a, b)
        reasons = refusals(s)
    assert s.first[0] == pytest.approx(0.4) and s.top[0] == pytest.approx(0.4)
    assert s.finite.tolist() == [True, False, False, False]
    assert s.top[1] == 0.5 and s.top[3] == 0.2  # the largest finite |difference|, the infinite ones left out
    assert reasons[0] == "" and all("overflow float64" in r for r in reasons[1:])


def test_each_refusal_in_full():
    few = Summaries.empty(2)
    fill(few, np.array([1]), np.array([[0.7, 0.7]]), np.array([[0.2, 0.2]]))  # two pairs, zero spread
    reason = refusals(few)
    assert reason[0] == "0 seed(s) on which both ran; a paired comparison needs at least 2 (see `failed_runs`)."
    assert reason[1] == (
        "The differences `scores_a - scores_b` have zero spread (all equal to 0.49999999999999994): a t-based "
        "test needs variation between repetitions. Identical values often mean the runs were not independent "
        "repetitions (e.g. the same checkpoint evaluated again).")
    rounding = summarise(np.array([1.0, 1.0 + 2.2e-16, 1.0]), np.array([0.5, 0.5, 0.5]))
    assert " up to rounding error): " in refusals(rounding)[0]
    huge = summarise(np.array([1.7e308, -1.7e308]), np.array([-1.7e308, 1.7e308]))
    assert refusals(huge)[0] == (
        "The differences `scores_a - scores_b` overflow float64 (|difference| > 1.8e308); rescale the scores "
        "(e.g. divide both by the same power of ten) before comparing them.")
    # Two equal differences are a point mass for the posterior, not a refusal; fewer than two pairs are refused.
    post, post_reason = posterior(few, 0.1, 0.0, "scores")
    assert post_reason[1] == "" and post["prob_a_better"][1] == 1.0 and post_reason[0] == reason[0]


def test_an_overflowing_interval_is_refused_on_its_own_row_only():
    wild = np.array([1.7e308, -1.7e308, 1.7e308])  # finite differences whose sd overflows
    a = np.vstack([[0.9, 0.7, 0.8], np.zeros(3) + 0.5 * wild])
    b = np.vstack([[0.5, 0.6, 0.65], -0.5 * wild])
    values, reason = student(_many(a, b), 0.05)
    assert reason[0] == "" and np.isfinite(values["ci_low"][0])
    assert reason[1] == (
        "The result overflows float64 (confidence_interval not finite): the values of `scores_a` and `scores_b` "
        "are too large, or too far apart in scale, for float64 arithmetic; rescale them (e.g. divide by a power "
        "of ten).")
    assert np.isnan(values["pvalue"][1])
    s = summarise(np.array([1e200, -1e200, 3e200]), np.array([0.0, 0.0, 0.0]))
    for spread_of, names in (("scores", "`scores_a` and `scores_b`"), ("differences", "`differences`")):
        _, why = posterior(s, 0.1, 1e300, spread_of)  # a scale of 1e350
        assert why[0].startswith(f"The result overflows float64 (scale not finite): the values of {names} are")


def test_the_rope_probability_far_in_a_tail_keeps_its_digits_and_a_point_mass_warns_of_nothing():
    import warnings

    # loc 40 scales above a ROPE of 0.5 on each side: the middle is a difference of two tiny upper tails.
    _, middle, _ = t_regions(40.0, 1.0, 30, 0.5)
    exact = stats.t.sf(39.5, 30) - stats.t.sf(40.5, 30)
    assert float(middle) == pytest.approx(exact, rel=1e-9, abs=0)
    _, middle_low, _ = t_regions(-40.0, 1.0, 30, 0.5)  # the other side: 1 - cdf would lose every digit
    assert float(middle_low) == pytest.approx(exact, rel=1e-9, abs=0)   # approx alone allows 1e-12
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        above, inside, below = t_regions(np.array([0.0, 0.3]), 0.0, 4, np.array([0.0, 0.1]))
    assert above.tolist() == [0.5, 1.0] and inside.tolist() == [0.0, 0.0] and below.tolist() == [0.5, 0.0]


def test_a_spread_exactly_at_the_tolerance_is_zero_spread():
    # Differences -x, -x, x, x, 0 have mean 0 and sd exactly x; the pair (4, 4) makes the scale 4, and
    # x = ZERO_SPREAD_RTOL * 4 = 2**-44: the spread must exceed the tolerance, and this one only equals it.
    from sigeval._validation import ZERO_SPREAD_RTOL

    x = ZERO_SPREAD_RTOL * 4.0
    b = np.array([1.0, 1.0, 1.0, 1.0, 4.0])
    a = b + np.array([-x, -x, x, x, 0.0])
    s = summarise(a, b)
    assert s.sd[0] == x and s.scale[0] == 4.0 and s.mean[0] == 0.0
    assert not s.spread()[0] and "zero spread" in refusals(s)[0]
    post, reason = posterior(s, 0.0, 0.0, "scores")
    assert reason[0] == "" and post["scale"][0] == 0.0   # a point mass at 0: half and half on a zero ROPE
    assert (post["prob_a_better"][0], post["prob_b_better"][0]) == (0.5, 0.5)

"""sigeval.equivalence: TOST and the four verdicts."""

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    VERDICTS,
    tost_paired,
    verdict,
    verdict_from_pvalues,
)


def test_tost_by_hand():
    rng = np.random.default_rng(12)
    ref = rng.normal(0.7, 0.01, 12)
    cand = ref + rng.normal(0.002, 0.004, 12)
    margin, alpha = 0.005, 0.05
    res = tost_paired(cand, ref, margin=margin, alpha=alpha)
    d = cand - ref
    se = d.std(ddof=1) / np.sqrt(12)
    t_lo, t_hi = (d.mean() + margin) / se, (d.mean() - margin) / se
    assert res.statistic_lower == pytest.approx(t_lo, rel=1e-12)
    assert res.statistic_upper == pytest.approx(t_hi, rel=1e-12)
    assert res.pvalue_lower == pytest.approx(stats.t.sf(t_lo, 11), rel=1e-12)
    assert res.pvalue_upper == pytest.approx(stats.t.cdf(t_hi, 11), rel=1e-12)
    assert res.pvalue == max(res.pvalue_lower, res.pvalue_upper)
    half = stats.t.ppf(1 - alpha, 11) * se
    assert (res.confidence_interval.low, res.confidence_interval.high) == pytest.approx(
        (d.mean() - half, d.mean() + half), rel=1e-12
    )
    assert res.confidence_level == pytest.approx(0.9)
    assert (res.estimate, res.margin, res.alpha, res.df, res.n) == (pytest.approx(d.mean(), rel=1e-12), margin, alpha, 11, 12)
    # The two one-sided tests are scipy's one-sided t-tests against -margin and +margin.
    assert res.pvalue_lower == pytest.approx(stats.ttest_1samp(d, -margin, alternative="greater").pvalue, rel=1e-10)
    assert res.pvalue_upper == pytest.approx(stats.ttest_1samp(d, margin, alternative="less").pvalue, rel=1e-10)


def test_tost_equivalence_iff_interval_inside_margin():
    rng = np.random.default_rng(13)
    for _ in range(200):
        n = rng.integers(3, 15)
        d = rng.normal(rng.normal(0, 0.01), rng.uniform(0.002, 0.02), n)
        res = tost_paired(d, np.zeros(n), margin=0.01, alpha=0.05)
        inside = -0.01 < res.confidence_interval.low and res.confidence_interval.high < 0.01
        assert res.equivalent == inside


def test_tost_pvalue_equal_to_alpha_is_equivalence():
    # One rule everywhere: a test rejects when p <= alpha. At p = alpha exactly the 1 - 2 alpha
    # interval touches the margin, inside the closed [-margin, margin].
    d = np.array([0.003, -0.001, 0.002, 0.0, 0.004, 0.001])
    p = tost_paired(d, np.zeros(6), margin=0.01).pvalue
    assert 0 < p < 0.5
    at = tost_paired(d, np.zeros(6), margin=0.01, alpha=p)
    assert at.pvalue == p and at.equivalent
    assert not tost_paired(d, np.zeros(6), margin=0.01, alpha=np.nextafter(p, 0)).equivalent


def test_tost_size_at_the_margin():
    # True mean difference exactly at the margin: TOST must declare equivalence at most alpha of the time.
    rng = np.random.default_rng(14)
    n_sims, alpha, margin = 3000, 0.05, 1.0
    d = rng.normal(margin, 1.0, (n_sims, 10))
    rate = np.mean([tost_paired(x, np.zeros(10), margin=margin, alpha=alpha).equivalent for x in d])
    assert abs(rate - alpha) < 3 * np.sqrt(alpha * (1 - alpha) / n_sims)


def test_verdict_strings_and_table():
    assert VERDICTS == ("different", "equivalent", "trivial", "undetermined")
    p_diff = np.array([0.01, 0.40, 0.01, 0.40, 0.05])
    p_eq = np.array([0.30, 0.02, 0.001, 0.20, 0.05])
    labels = verdict_from_pvalues(p_diff, p_eq)
    # p exactly at alpha rejects (p <= alpha), for both tests.
    assert labels.tolist() == ["different", "equivalent", "trivial", "undetermined", "trivial"]
    assert verdict_from_pvalues(0.05, 0.5) == "different" and verdict_from_pvalues(np.nextafter(0.05, 1), 0.5) == "undetermined"
    assert verdict_from_pvalues(0.2, 0.01) == "equivalent"
    assert type(verdict_from_pvalues(0.2, 0.01)) is str  # a plain str, not numpy's np.str_
    # p-values of exactly 0 and 1 are valid.
    assert verdict_from_pvalues([0.0, 1.0], [1.0, 0.0]).tolist() == ["different", "equivalent"]
    assert verdict_from_pvalues([[0.01], [0.5]], [0.01, 0.5]).shape == (2, 2)


def test_four_verdicts_from_data():
    jitter = np.array([0.002, -0.002, 0.001, -0.001, 0.0015, -0.0015, 0.0005, -0.0005])
    zeros = np.zeros(8)
    assert verdict(0.05 + jitter, zeros, margin=0.01).verdict == "different"
    assert verdict(jitter, zeros, margin=0.01).verdict == "equivalent"
    assert verdict(0.005 + jitter, zeros, margin=0.01).verdict == "trivial"
    noisy = np.array([0.03, -0.02, 0.01, -0.025])
    res = verdict(noisy, np.zeros(4), margin=0.01)
    assert res.verdict == "undetermined"
    assert (res.estimate, res.margin, res.alpha) == (pytest.approx(noisy.mean(), rel=1e-12), 0.01, 0.05)
    assert res.pvalue_difference == pytest.approx(stats.ttest_1samp(noisy, 0).pvalue, rel=1e-12)
    assert res.pvalue_equivalence == tost_paired(noisy, np.zeros(4), margin=0.01).pvalue


def test_verdict_uses_its_alpha_for_both_tests():
    jitter = np.array([0.002, -0.002, 0.001, -0.001, 0.0015, -0.0015, 0.0005, -0.0005])
    d = 0.0015 + jitter
    res = verdict(d, np.zeros(8), margin=0.01, alpha=0.01)
    assert 0.01 < res.pvalue_difference < 0.05  # the difference test rejects at 5%, not at 1%
    assert res.verdict == verdict_from_pvalues(res.pvalue_difference, res.pvalue_equivalence, alpha=0.01) == "equivalent"
    assert verdict(d, np.zeros(8), margin=0.01).verdict == "trivial"


@pytest.mark.parametrize("func", [tost_paired, verdict])
def test_spread_is_judged_against_the_scores_not_the_differences(func):
    # Differences of a few 1e-10 between scores of 1e6 are rounding error of the scores.
    with pytest.raises(ValueError, match=r"^The differences `scores_a - scores_b` have zero spread .*up to rounding error"):
        func(1e6 + np.array([0.0, 1e-9, 2e-9]), np.full(3, 1e6), margin=0.01)
    # Differences near 2 from scores of magnitude 1: a spread of 2e-14 is above the
    # rounding error of the scores (1.4e-14), though not above that of the differences.
    res = func(np.ones(3), -1 + np.array([0.0, 2e-14, 4e-14]), margin=1.0)
    assert res.estimate == pytest.approx(2.0)


@pytest.mark.parametrize("func", [tost_paired, verdict])
def test_tost_and_verdict_pair_checks_name_the_arguments(func):
    assert func([0.7, 0.72], [0.69, 0.7], margin=0.05).estimate == pytest.approx(0.015)  # 2 pairs suffice
    with pytest.raises(ValueError, match=r"^`scores_a` must hold at least 2 value\(s\); got 1\.$"):
        func([0.7], [0.69], margin=0.05)
    with pytest.raises(ValueError, match=r"^`scores_b` holds 1 NaN"):
        func([0.7, 0.72, 0.71], [0.69, np.nan, 0.705], margin=0.01)
    with pytest.raises(ValueError, match=r"^The differences `scores_a - scores_b` overflow float64 at position\(s\) 0 "):
        func([1.7e308, 1.0, 2.0], [-1.7e308, 0.0, 0.0], margin=0.01)


def test_tost_overflow_messages_name_what_overflowed():
    names = r"the values of `scores_a`, `scores_b` and `margin` are too large"
    with pytest.raises(ValueError, match=rf"^The result overflows float64 \(statistic_lower, statistic_upper not finite\): {names}"):
        tost_paired([0.0, 1e-3, 2e-3], np.zeros(3), margin=1e308)
    b = np.r_[9.43579949e307, np.full(7, 1e300)]
    with pytest.raises(ValueError, match=rf"^The result overflows float64 \(confidence_interval not finite\): {names}"):
        tost_paired(np.zeros(8), b, margin=1.0, alpha=1e-6)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(margin=0.0), ValueError, r"`margin` must be positive; got 0.0"),
        (dict(margin=-0.01), ValueError, r"`margin` must be positive"),
        (dict(margin="1pt"), TypeError, r"`margin` must be a real number"),
        (dict(margin=0.01, alpha=0.5), ValueError, r"`alpha` must be below 0.5 for TOST"),
        (dict(margin=0.01, alpha=1.2), ValueError, r"`alpha` must be strictly between 0 and 1"),
    ],
)
@pytest.mark.parametrize("func", [tost_paired, verdict])
def test_tost_and_verdict_reject_bad_input(func, kwargs, error, match):
    with pytest.raises(error, match=match):
        func([0.7, 0.72, 0.71], [0.69, 0.7, 0.705], **kwargs)


@pytest.mark.parametrize("func", [tost_paired, verdict])
def test_tost_and_verdict_refuse_nan_and_constant_differences(func):
    with pytest.raises(ValueError, match=r"`scores_a` holds 1 NaN"):
        func([0.7, np.nan, 0.71], [0.69, 0.7, 0.705], margin=0.01)
    with pytest.raises(ValueError, match=r"zero spread"):
        func([0.7, 0.8, 0.9], [0.7, 0.8, 0.9], margin=0.01)
    with pytest.raises(TypeError, match="margin"):
        func([0.7, 0.8, 0.9], [0.7, 0.8, 0.9])


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([1.2], [0.1]), r"`pvalue_difference` must lie in \[0, 1\]; got 1.2"),
        (([0.1], [-0.1]), r"`pvalue_equivalence` must lie in \[0, 1\]"),
        (
            ([0.1, 0.2], [0.1, 0.2, 0.3]),
            r"^`pvalue_difference` and `pvalue_equivalence` must broadcast to a common shape; got shapes \(2,\) and \(3,\)\.$",
        ),
        (([np.nan], [0.1]), r"`pvalue_difference` must be finite"),
        (([0.1], [np.inf]), r"`pvalue_equivalence` must be finite"),
        (([0.1], [0.1], 1.5), r"^`alpha` must be strictly between 0 and 1; got 1.5\.$"),
    ],
)
def test_verdict_from_pvalues_rejects_bad_input(args, match):
    with pytest.raises(ValueError, match=match):
        verdict_from_pvalues(*args[:2], **({"alpha": args[2]} if len(args) > 2 else {}))

"""Property-based tests of the public statistics functions (Hypothesis).

For any input drawn from wide strategies (constant arrays, ties, values near
0 and near the float64 limits, one or two items, huge and tiny counts) a call
either raises ``ValueError``/``TypeError`` naming an argument in backticks, or
returns finite values inside their documented ranges: p-values in [0, 1],
ordered intervals that contain the estimate where that is documented,
proportions' bounds in [0, 1]. The profile (``tests/conftest.py``) makes the
examples deterministic and bounded.
"""

from __future__ import annotations

import inspect
import json
import math
import re
import warnings
from functools import partial
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import sigeval as sg

FLOAT_MAX = float(np.finfo(float).max)

# --------------------------------------------------------------------------- strategies

wide = st.floats(allow_nan=False, allow_infinity=False)
unit = st.floats(0.0, 1.0)
levels = st.floats(1e-6, 1 - 1e-6) | st.sampled_from([0.5, 0.9, 0.95, 0.99])
counts = st.integers(0, 60) | st.integers(0, 2**53) | st.sampled_from([0, 1, 2, 2**31, 2**53])

_ELEMENTS = {
    "wide": wide,
    "unit": unit,
    "ties": st.sampled_from([0.0, 0.5, 1.0, -0.5]),
    "binary": st.sampled_from([0.0, 1.0]),
    "tiny": st.floats(-1e-300, 1e-300),
    "huge": st.floats(1e300, FLOAT_MAX) | st.floats(-FLOAT_MAX, -1e300),
    "near_one": st.floats(0.999999, 1.000001),
}


@st.composite
def vectors(draw, min_size=1, max_size=12, size=None):
    """1-D float vectors: wide values, constants, ties, 0/1, tiny and huge magnitudes."""
    n = size if size is not None else draw(st.integers(min_size, max_size))
    kind = draw(st.sampled_from(["constant", *_ELEMENTS]))
    if kind == "constant":
        return np.full(n, draw(wide | st.sampled_from([0.1, 1 / 3, 75.3, 1e-300, 1e308])))
    return draw(arrays(np.float64, n, elements=_ELEMENTS[kind]))


@st.composite
def pairs(draw, min_size=1, max_size=12):
    """Two vectors of one length; often B is A shifted, so the differences are constant."""
    n = draw(st.integers(min_size, max_size))
    a = draw(vectors(size=n))
    relation = draw(st.sampled_from(["independent", "shifted", "equal", "scaled"]))
    if relation == "independent":
        b = draw(vectors(size=n))
    elif relation == "shifted":
        with np.errstate(over="ignore"):
            b = a - draw(st.sampled_from([0.1, 1e-12, 1e300, 0.3]))
        b = np.where(np.isfinite(b), b, a)
    elif relation == "equal":
        b = a.copy()
    else:
        b = a * draw(st.sampled_from([0.5, 0.999, -1.0]))
    return a, b


def _binary(draw, n):
    return draw(arrays(np.float64, n, elements=st.sampled_from([0.0, 1.0])))


# --------------------------------------------------------------------------- checks


def outcome(call):
    """The result of ``call()``, or None when it raised a clear ValueError/TypeError."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)
            return call()
    except (ValueError, TypeError) as error:
        assert re.search(r"`[^`]+`", str(error)), f"an error that names no argument: {error!r}"
        return None


def finite(*values):
    for v in values:
        assert np.all(np.isfinite(np.asarray(v, dtype=float))), values


def pvalue(p):
    p = np.asarray(p, dtype=float)
    assert np.all(np.isfinite(p)) and np.all((p >= 0) & (p <= 1)), p


def interval(ci, estimate=None):
    low, high = (np.asarray(b, dtype=float) for b in ci)
    finite(low, high)
    assert np.all(low <= high), (low, high)
    if estimate is not None:
        assert np.all((low <= estimate) & (estimate <= high)), (low, estimate, high)


# --------------------------------------------------------------------------- intervals


@given(k=counts, n=counts, method=st.sampled_from(sg.METHODS), level=levels)
def test_proportion_ci_bounds_lie_in_the_unit_interval(k, n, method, level):
    res = outcome(lambda: sg.proportion_ci(k, n, method=method, confidence_level=level))
    if res is None:
        return
    interval(res, res.estimate if method in ("wald", "wilson") else None)
    assert 0 <= res.low <= res.high <= 1 and 0 <= res.estimate <= 1


@given(n=st.integers(1, 400) | st.integers(-5, 0), p=unit | wide, method=st.sampled_from(sg.METHODS), level=levels)
def test_coverage_is_a_probability(n, p, method, level):
    res = outcome(lambda: sg.coverage([n, n + 1], p, method=method, confidence_level=level))
    if res is not None:
        pvalue(res)


# --------------------------------------------------------------------------- resampling


@given(x=vectors(), method=st.sampled_from(sg.BOOTSTRAP_METHODS), level=levels, b=st.integers(1, 40))
def test_bootstrap_ci_is_finite_and_ordered(x, method, level, b):
    res = outcome(lambda: sg.bootstrap_ci(x, n_resamples=b, method=method, confidence_level=level, rng=0))
    if res is None:
        return
    interval(res.confidence_interval)
    finite(res.estimate, res.standard_error, res.bootstrap_distribution)
    assert res.standard_error >= 0
    if method != "basic":
        # Percentile and BCa bounds are quantiles of resample means: inside the data's
        # range (the basic interval can leave it, e.g. [0, 1] for a proportion).
        lo, hi = res.confidence_interval
        assert x.min() <= lo and hi <= x.max()


@given(ab=pairs(), method=st.sampled_from(sg.BOOTSTRAP_METHODS), b=st.integers(2, 40))
def test_paired_bootstrap_ci_is_finite_and_ordered(ab, method, b):
    a, b_ = ab
    res = outcome(lambda: sg.paired_bootstrap_ci(a, b_, n_resamples=b, method=method, rng=0))
    if res is not None:
        interval(res.confidence_interval)
        finite(res.estimate, res.standard_error)


@given(cells=st.tuples(counts, counts, counts, counts), method=st.sampled_from(sg.BOOTSTRAP_METHODS),
       alternative=st.sampled_from(["two-sided", "greater", "less"]))
def test_inference_from_counts_is_finite_and_in_range(cells, method, alternative):
    table = outcome(lambda: sg.PairedCounts(*cells))
    if table is None:
        return
    boot = outcome(lambda: sg.paired_bootstrap_ci_counts(table, n_resamples=20, method=method, rng=0))
    if boot is not None:
        interval(boot.confidence_interval)
        finite(boot.estimate, boot.standard_error)
        if method != "basic":  # the basic interval can leave the range (documented)
            assert -1 <= boot.confidence_interval.low <= boot.confidence_interval.high <= 1
    test = sg.paired_permutation_test_counts(table, alternative=alternative)
    pvalue(test.pvalue)
    assert test.pvalue >= 2.0 ** -(table.only_a_correct + table.only_b_correct)
    se = outcome(lambda: sg.difference_se_counts(table))
    if se is not None:
        finite(se.estimate, se.standard_error, se.standard_error_unpaired)
    for paired_method in sg.PAIRED_DIFFERENCE_METHODS:
        ci = outcome(lambda m=paired_method: sg.difference_ci_counts(table, method=m))
        if ci is None:
            continue
        interval(ci.confidence_interval)
        assert -1 <= ci.confidence_interval.low <= ci.confidence_interval.high <= 1
        if paired_method == "newcombe":   # Newcombe's interval always holds the observed difference
            assert ci.confidence_interval.low <= ci.estimate <= ci.confidence_interval.high


@given(data=st.data(), g=st.integers(1, 8), method=st.sampled_from(sg.BOOTSTRAP_METHODS))
def test_cluster_bootstrap_from_counts_is_an_accuracy(data, g, method):
    total = np.array(data.draw(st.lists(counts, min_size=g, max_size=g)))
    correct = np.array([data.draw(st.integers(0, max(int(t), 0))) for t in total])
    res = outcome(lambda: sg.bootstrap_ci_counts(correct, total, n_resamples=20, method=method, rng=0))
    if res is not None:
        interval(res.confidence_interval)
        if method != "basic":  # the basic interval can leave [0, 1] (documented)
            assert 0 <= res.confidence_interval.low <= res.confidence_interval.high <= 1


@given(
    ab=pairs(max_size=25),
    method=st.sampled_from(["auto", "exact", "monte-carlo"]),
    alternative=st.sampled_from(["two-sided", "greater", "less"]),
)
def test_permutation_pvalue_is_never_below_two_to_the_minus_n(ab, method, alternative):
    a, b = ab
    res = outcome(lambda: sg.paired_permutation_test(
        a, b, method=method, alternative=alternative, n_resamples=99, rng=0))
    if res is None:
        return
    pvalue(res.pvalue)
    finite(res.statistic)
    assert res.pvalue >= max(2.0**-a.size, 1 / 100 if res.method == "monte-carlo" else 0.0)


# --------------------------------------------------------------------------- paired


@given(n01=counts, n10=counts, form=st.sampled_from([(True, True, False), (True, True, True), (False, True, False), (False, False, False)]))
def test_mcnemar_counts_pvalue_is_a_probability(n01, n10, form):
    exact, continuity, mid_p = form
    res = outcome(lambda: sg.mcnemar_counts(n01, n10, exact=exact, continuity=continuity, mid_p=mid_p))
    if res is not None:
        pvalue(res.pvalue)
        finite(res.statistic)
        assert res.statistic >= 0


@given(data=st.data(), n=st.integers(1, 30))
def test_mcnemar_and_difference_se_on_correctness(data, n):
    a, b = _binary(data.draw, n), _binary(data.draw, n)
    res = outcome(lambda: sg.mcnemar(a, b))
    if res is not None:
        pvalue(res.pvalue)
    se = outcome(lambda: sg.difference_se(a, b))
    if se is not None:
        finite(se.estimate, se.standard_error, se.standard_error_unpaired)
        assert se.standard_error >= 0 and -1 <= se.estimate <= 1
        # The correlation is documented NaN when a model is always right or always wrong.
        constant = a.min() == a.max() or b.min() == b.max()
        assert constant or -1 - 1e-12 <= se.correlation <= 1 + 1e-12


@given(ab=pairs(), alternative=st.sampled_from(["two-sided", "greater", "less"]), zero=st.sampled_from(["zsplit", "wilcox", "pratt"]))
def test_wilcoxon_pvalue_is_a_probability(ab, alternative, zero):
    a, b = ab
    res = outcome(lambda: sg.wilcoxon_signed_rank(a, b, alternative=alternative, zero_method=zero))
    if res is not None:
        pvalue(res.pvalue)
        finite(res.r_plus, res.r_minus)


@given(ab=pairs(), alternative=st.sampled_from(["two-sided", "greater", "less"]), zero=st.sampled_from(["zsplit", "wilcox"]))
def test_sign_test_counts_the_tasks_and_gives_a_probability(ab, alternative, zero):
    a, b = ab
    res = outcome(lambda: sg.sign_test(a, b, alternative=alternative, zero_method=zero))
    if res is not None:
        pvalue(res.pvalue)
        pvalue(res.pvalue_conditional)
        assert res.n_positive + res.n_negative + res.n_zero == len(a)
        assert 0 <= res.statistic <= res.n <= len(a) and res.statistic == int(res.statistic)


@given(data=st.data(), n=st.integers(2, 20), level=levels)
def test_delong_aucs_and_pvalue_are_in_range(data, n, level):
    labels = _binary(data.draw, n)
    a, b = data.draw(vectors(size=n)), data.draw(vectors(size=n))
    res = outcome(lambda: sg.delong_test(labels, a, b, confidence_level=level))
    if res is None:
        return
    pvalue(res.pvalue)
    assert 0 <= res.auc_a <= 1 and 0 <= res.auc_b <= 1
    interval(res.confidence_interval, res.estimate)
    # With zero standard error (documented, with a warning) the statistic is 0 or infinite.
    assert math.isfinite(res.statistic) or res.standard_error == 0


@given(data=st.data(), n=st.integers(2, 20), level=levels)
def test_delong_ci_is_an_interval_of_a_probability(data, n, level):
    labels = _binary(data.draw, n)
    scores = data.draw(vectors(size=n))
    res = outcome(lambda: sg.delong_ci(labels, scores, confidence_level=level))
    if res is None:
        return
    assert 0 <= res.confidence_interval.low <= res.estimate <= res.confidence_interval.high <= 1
    assert math.isfinite(res.standard_error) and res.standard_error >= 0


# --------------------------------------------------------------------------- seeds and procedures


@given(x=vectors())
def test_seed_summary_is_finite_and_consistent(x):
    res = outcome(lambda: sg.seed_summary(x))
    if res is not None:
        finite(res.mean, res.sd, res.standard_error)
        assert res.sd >= 0 and res.min <= res.mean <= res.max


@given(a=vectors(), b=vectors(), level=levels)
def test_welch_interval_contains_the_estimate(a, b, level):
    res = outcome(lambda: sg.welch_test(a, b, confidence_level=level))
    if res is not None:
        pvalue(res.pvalue)
        finite(res.statistic, res.df)
        interval(res.confidence_interval, res.estimate)


@given(test=vectors(), true=vectors(), n_test=st.integers(-2, 2**53), n_true=st.none() | st.integers(0, 10**6))
def test_variance_split_terms_are_finite(test, true, n_test, n_true):
    res = outcome(lambda: sg.variance_split(test, n_test, true_scores=true, n_true=n_true))
    if res is not None:
        finite(res.total, res.sampling, res.training, res.training_direct)
        assert res.total >= 0 and res.sampling >= 0


@given(ab=pairs(), threshold=st.none() | st.floats(0, 1e300), level=levels)
def test_paired_difference_interval_contains_the_estimate(ab, threshold, level):
    a, b = ab
    res = outcome(lambda: sg.paired_difference(a, b, threshold=threshold, alpha=1 - level))
    if res is None:
        return
    pvalue(res.pvalue)
    finite(res.estimate, res.sigma_d, res.statistic, res.median)
    interval(res.confidence_interval, res.estimate)
    assert res.decision is None or res.decision in sg.DECISIONS


@pytest.mark.filterwarnings("ignore:Every bootstrap resample gave:UserWarning")
@given(ab=pairs(), paired=st.booleans(), level=levels, gamma=st.floats(0.5, 1.0),
       method=st.sampled_from(["clopper-pearson", "percentile"]))
def test_prob_improvement_is_a_probability(ab, paired, level, gamma, method):
    a, b = ab
    res = outcome(lambda: sg.prob_improvement(a, b, paired=paired, alpha=1 - level, gamma=gamma, method=method,
                                              n_resamples=30, rng=0))
    if res is not None:
        assert 0 <= res.estimate <= 1
        # The exact binomial interval always holds its estimate; the percentile one need not.
        interval(res.confidence_interval, res.estimate if method == "clopper-pearson" else None)
        assert 0 <= res.confidence_interval.low and res.confidence_interval.high <= 1
        assert res.reject == (res.confidence_interval.low > 0.5)


# --------------------------------------------------------------------------- cross-validation


@given(k_a=counts, k_b=counts, n=counts)
def test_difference_of_proportions_pvalue_is_a_probability(k_a, k_b, n):
    res = outcome(lambda: sg.difference_of_proportions_test(k_a, k_b, n))
    if res is not None:
        pvalue(res.pvalue)
        finite(res.statistic, res.standard_error)


@given(d=vectors(), n_train=st.integers(-1, 2**53), n_test=st.integers(-1, 2**53))
def test_t_tests_over_splits(d, n_train, n_test):
    for fn in (sg.resampled_paired_t, sg.kfold_cv_paired_t,
               lambda x: sg.corrected_resampled_t(x, n_train=n_train, n_test=n_test)):
        res = outcome(lambda fn=fn: fn(d))
        if res is not None:
            pvalue(res.pvalue)
            finite(res.statistic, res.estimate)


@given(d=vectors(size=10))
def test_five_by_two_tests(d):
    p = d.reshape(5, 2)
    t = outcome(lambda: sg.five_by_two_cv_t(p))
    if t is not None:
        pvalue(t.pvalue)
        finite(t.statistic, t.estimate)
    f = outcome(lambda: sg.five_by_two_cv_f(p))
    if f is not None:
        pvalue(f.pvalue)
        finite(f.statistic)
        assert f.statistic >= 0


# --------------------------------------------------------------------------- power


positive = st.floats(1e-300, 1e300) | st.sampled_from([1e-12, 0.01, 1.0])


@given(sigma=positive | wide, n=st.integers(0, 2**53) | st.integers(2, 50), delta=st.none() | wide, alpha=levels, target=levels)
def test_power_paired_is_a_probability(sigma, n, delta, alpha, target):
    res = outcome(lambda: sg.power_paired(sigma, n, delta=delta, alpha=alpha, target_power=target))
    if res is None:
        return
    pvalue(res.power_at_mde)
    finite(res.mde)
    assert res.mde > 0
    if delta is not None:
        pvalue(res.power)


@given(sigma=positive | wide, n=st.integers(0, 2**53) | st.integers(2, 50), margin=positive | wide,
       delta=wide | st.sampled_from([0.0, 0.1]), alpha=st.floats(1e-6, 0.6))
def test_power_tost_is_a_probability(sigma, n, margin, delta, alpha):
    res = outcome(lambda: sg.power_tost(sigma, n, margin, delta=delta, alpha=alpha))
    if res is not None:
        pvalue(res.power)
        # TOST declares equivalence only when |mean| < margin, so beyond the margin at most alpha.
        if abs(delta) >= margin:
            assert res.power <= alpha + 1e-9


@given(sigma=positive, margin=positive, delta=st.floats(-0.9, 0.9), alpha=st.sampled_from([0.01, 0.05, 0.2]),
       target=st.sampled_from([0.5, 0.8, 0.95]))
def test_seeds_needed_tost_is_a_count(sigma, margin, delta, alpha, target):
    res = outcome(lambda: sg.seeds_needed_tost(sigma, margin, delta=delta * margin, alpha=alpha, target_power=target))
    if res is not None:
        assert isinstance(res, int) and 2 <= res <= 2**53


@given(sigma=positive, delta=positive | wide, alpha=st.sampled_from([0.01, 0.05, 0.2]), target=st.sampled_from([0.5, 0.8, 0.95]))
def test_seeds_needed_is_a_count(sigma, delta, alpha, target):
    res = outcome(lambda: sg.seeds_needed(sigma, delta, alpha=alpha, target_power=target))
    if res is not None:
        assert isinstance(res, int) and 2 <= res <= 2**53


@given(n=st.integers(0, 3000) | st.sampled_from([10**5, 10**6]), p01=unit, p10=unit, alpha=levels,
       form=st.sampled_from([dict(), dict(mid_p=True), dict(exact=False), dict(power_method="normal")]))
def test_mcnemar_power_is_a_probability(n, p01, p10, alpha, form):
    res = outcome(lambda: sg.mcnemar_power(n, p01, p10, alpha=alpha, **form))
    if res is not None:
        pvalue(res.power)


@given(p01=st.floats(0, 0.5), gap=st.floats(0.05, 0.5), alpha=st.sampled_from([0.01, 0.05]),
       target=st.sampled_from([0.5, 0.8, 0.9]), method=st.sampled_from(["enumeration", "normal"]))
def test_mcnemar_sample_size_is_a_count(p01, gap, alpha, target, method):
    res = outcome(lambda: sg.mcnemar_sample_size(p01 + gap, p01, alpha=alpha, target_power=target, power_method=method))
    if res is not None:
        assert isinstance(res, int) and res >= 1


# --------------------------------------------------------------------------- equivalence


@given(ab=pairs(), margin=positive | wide, alpha=st.floats(1e-6, 0.499))
def test_tost_and_verdict(ab, margin, alpha):
    a, b = ab
    res = outcome(lambda: sg.tost_paired(a, b, margin=margin, alpha=alpha))
    if res is not None:
        pvalue([res.pvalue, res.pvalue_lower, res.pvalue_upper])
        interval(res.confidence_interval, res.estimate)
    v = outcome(lambda: sg.verdict(a, b, margin=margin, alpha=alpha))
    if v is not None:
        assert v.verdict in sg.VERDICTS
        pvalue([v.pvalue_difference, v.pvalue_equivalence])


@given(p=arrays(np.float64, st.integers(1, 6), elements=unit | wide), q=unit, alpha=levels)
def test_verdict_from_pvalues_gives_a_verdict(p, q, alpha):
    res = outcome(lambda: sg.verdict_from_pvalues(p, q, alpha=alpha))
    if res is not None:
        assert set(np.atleast_1d(res)) <= set(sg.VERDICTS)


# --------------------------------------------------------------------------- multiple


@given(p=arrays(np.float64, st.integers(1, 12), elements=unit | st.sampled_from([0.0, 1.0, 5e-324])), method=st.sampled_from(sg.ADJUST_METHODS))
def test_adjusted_pvalues_are_probabilities_not_below_the_raw_ones(p, method):
    res = outcome(lambda: sg.adjust_pvalues(p, method=method))
    pvalue(res)
    assert np.all(res >= p)
    order = np.argsort(p, kind="stable")
    assert np.all(np.diff(res[order]) >= 0)


@given(p=arrays(np.float64, st.integers(1, 12), elements=unit | st.sampled_from([0.0, 1.0, 5e-324])), alpha=levels,
       method=st.sampled_from(["holm", "bonferroni"]))
def test_decision_levels_decide_as_the_adjusted_pvalues(p, alpha, method):
    res = outcome(lambda: sg.decision_levels(p, alpha=alpha, method=method))
    if res is not None:
        assert np.all((res > 0) & (res <= alpha))
        np.testing.assert_array_equal(p <= res, sg.adjust_pvalues(p, method=method) <= alpha)


@given(x=vectors(), k=st.integers(-1, 14) | st.integers(2**53, 2**70))
def test_expected_best_of_k_lies_between_the_mean_and_the_max(x, k):
    res = outcome(lambda: sg.expected_best_of_k(x, k))
    if res is not None:
        finite(res)
        slack = 1e-12 * np.max(np.abs(x))
        assert x.min() - slack <= res <= x.max() + slack


# --------------------------------------------------------------------------- ranking


@st.composite
def tables(draw):
    n, k = draw(st.integers(1, 6)), draw(st.integers(1, 5))
    kind = draw(st.sampled_from(["wide", "ties", "unit", "constant"]))
    if kind == "constant":
        return np.full((n, k), draw(wide))
    return draw(arrays(np.float64, (n, k), elements=_ELEMENTS[kind]))


@given(table=tables(), higher=st.booleans(), alpha=levels)
def test_rank_tests_give_probabilities(table, higher, alpha):
    fr = outcome(lambda: sg.friedman(table, higher_is_better=higher))
    if fr is not None:
        pvalue([fr.pvalue, fr.pvalue_f])
        assert fr.statistic >= 0 and fr.statistic_f >= 0
        assert np.all((fr.mean_ranks >= 1) & (fr.mean_ranks <= table.shape[1]))
    holm = outcome(lambda: sg.holm_vs_control(table, 0, alpha=alpha, higher_is_better=higher))
    if holm is not None:
        pvalue(holm.pvalue)
        pvalue(holm.pvalue_holm)
    exact = outcome(lambda: sg.friedman(table, method="exact", ties="ignore", n_resamples=20, rng=0))
    if exact is not None:
        pvalue([exact.pvalue])
        assert exact.statistic <= fr.statistic + 1e-9  # the tie correction only enlarges chi2_F
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # a pair with every difference zero says so
        pw = outcome(lambda: sg.pairwise_wilcoxon(table, higher_is_better=higher))
    if pw is not None:
        pvalue(pw.pvalue.to_numpy())
        assert np.all(pw.pvalue_adjusted.to_numpy() >= pw.pvalue.to_numpy())


@given(table=tables(), alpha=levels)
def test_rank_resampling_gives_frequencies_and_ranks(table, alpha):
    st_ = outcome(lambda: sg.rank_stability(table, n_resamples=20, alpha=alpha, rng=0))
    if st_ is not None:
        assert 0 <= st_.order_stability <= 1
        assert np.all((st_.separation >= 0) & (st_.separation <= 1))
    br = outcome(lambda: sg.bootstrap_ranks(table, n_resamples=20, alpha=alpha, rng=0))
    if br is not None:
        k = table.shape[1]
        assert np.all((br.rank >= 1) & (br.rank <= k))
        assert np.all((br.rank_interval.low >= 1) & (br.rank_interval.high <= k))
        pvalue(br.pvalue)
        pvalue(br.pvalue_holm)
    cs = outcome(lambda: sg.rank_confidence_sets(table, n_resamples=20, confidence_level=1 - alpha, rng=0))
    if cs is not None:
        k = table.shape[1]
        low, high = cs.rank_interval
        assert np.all((1 <= low) & (low <= cs.rank) & (cs.rank <= high) & (high <= k))
        assert len(cs.best_set) >= 1 and cs.critical_value >= 0


@given(k=st.integers(-1, 60), n=st.integers(-1, 2**53), gap=wide, alpha=levels)
def test_nemenyi_quantities_are_positive(k, n, gap, alpha):
    q = outcome(lambda: sg.nemenyi_q(k, alpha=alpha))
    if q is not None:
        assert math.isfinite(q) and q > 0
    cd = outcome(lambda: sg.nemenyi_cd(k, n, alpha=alpha))
    if cd is not None:
        assert math.isfinite(cd) and cd > 0
    tasks = outcome(lambda: sg.tasks_for_gap(gap, k, alpha=alpha))
    if tasks is not None:
        assert isinstance(tasks, int) and tasks >= 2


@given(ranks=arrays(np.float64, st.integers(1, 8), elements=wide), cd=wide)
def test_cd_groups_are_groups_of_models(ranks, cd):
    groups = outcome(lambda: sg.cd_groups(ranks, cd))
    if groups is not None:
        assert all(len(g) >= 2 and set(g) <= set(range(ranks.size)) for g in groups)
        # The same decisions as a matrix give the same groups.
        separated = np.abs(ranks[:, None] - ranks[None, :]) >= cd
        assert sg.cd_groups(ranks, reject=separated) == groups


# --------------------------------------------------------------------------- metrics


@given(data=st.data(), batch=st.integers(1, 3), n=st.integers(1, 8))
def test_metrics_lie_in_the_unit_interval(data, batch, n):
    inter = data.draw(arrays(np.float64, (batch, n), elements=st.floats(0, 1e300)))
    extra = data.draw(arrays(np.float64, (batch, n), elements=st.floats(0, 1e300)))
    with np.errstate(over="ignore"):
        union = inter + extra
    ratio = outcome(lambda: sg.ratio_of_sums(inter, union, axis=1))
    if ratio is not None:
        ok = np.isfinite(ratio)  # NaN for an empty union: refused by bootstrap_ci
        assert np.all((ratio[ok] >= 0) & (ratio[ok] <= 1 + 1e-12))
    linear = outcome(lambda: sg.ratio_of_sums_ci(inter[0], union[0]))
    if linear is not None:
        finite(linear.estimate, linear.standard_error)
        interval(linear.confidence_interval, linear.estimate)
        assert 0 <= linear.estimate <= 1 + 1e-12 and linear.standard_error >= 0
    labels = data.draw(arrays(np.float64, (batch, n), elements=st.sampled_from([0.0, 1.0])))
    scores = data.draw(arrays(np.float64, (batch, n), elements=wide))
    auc = outcome(lambda: sg.roc_auc(labels, scores, axis=1))
    if auc is not None:
        ok = np.isfinite(auc)  # NaN for a resample of one class: documented
        assert np.all((auc[ok] >= 0) & (auc[ok] <= 1))
    positives = data.draw(arrays(np.float64, (batch, n), elements=st.sampled_from([0.0, 1.0, 2.0])))
    ap = outcome(lambda: sg.average_precision(scores[..., None], labels[..., None], positives, axis=1))
    if ap is not None:
        ok = np.isfinite(ap)  # NaN without ground-truth objects: documented
        assert np.all((ap[ok] >= 0) & (ap[ok] <= 1 + 1e-12))


@given(data=st.data(), n=st.integers(1, 40), level=levels)
def test_compare_predictions_tables_are_consistent(data, n, level):
    correct = data.draw(arrays(np.float64, (n, 3), elements=st.sampled_from([0.0, 1.0])))
    table = pd.DataFrame(correct, columns=["A", "B", "C"])
    res = outcome(lambda: sg.compare_predictions(table, label=None, confidence_level=level, n_resamples=20, rng=0))
    if res is None:
        return
    models = res.per_model
    assert np.all((models.ci_low <= models.accuracy) & (models.accuracy <= models.ci_high))
    pairs = res.pairs
    pvalue(pairs.pvalue.to_numpy())
    assert np.all(pairs.pvalue_holm >= pairs.pvalue - 1e-15)
    accuracy = dict(zip(models.model, models.accuracy))
    np.testing.assert_allclose(pairs.estimate, [accuracy[a] - accuracy[b] for a, b in zip(pairs.model_a, pairs.model_b)])


@settings(deadline=None, max_examples=30)
@given(data=st.data(), n=st.integers(2, 25), n_models=st.integers(2, 3), samples=st.integers(1, 3), level=levels)
def test_compare_items_tables_are_consistent(data, n, n_models, samples, level):
    scores = data.draw(arrays(np.float64, (n_models, n, samples), elements=st.sampled_from([0.0, 1.0])))
    models = ["A", "B", "C"][:n_models]
    table = pd.DataFrame([{"task": "t", "model": m, "item": i, "sample": s, "metric": "acc", "score": scores[j, i, s]}
                          for j, m in enumerate(models) for i in range(n) for s in range(samples)])
    order = data.draw(st.permutations(range(len(table))))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        res = sg.compare_items(table.iloc[list(order)], confidence_level=level, n_resamples=20, rng=0)
    per_model = res.per_model.set_index("model").loc[models]  # in the order of appearance of the shuffled rows
    np.testing.assert_allclose(per_model.score, scores.mean(axis=(1, 2)), atol=1e-12)
    ok = per_model.ci_low.notna().to_numpy()
    assert np.all((per_model.ci_low[ok] <= per_model.score[ok] + 1e-12) & (per_model.score[ok] <= per_model.ci_high[ok] + 1e-12))
    pairs = res.pairs
    pvalue(pairs.pvalue.to_numpy())
    assert np.all(pairs.pvalue_holm >= pairs.pvalue - 1e-15)
    score = dict(zip(res.per_model.model, res.per_model.score))
    np.testing.assert_allclose(pairs.estimate, [score[a] - score[b] for a, b in zip(pairs.model_a, pairs.model_b)],
                               atol=1e-12)
    assert res.missing.empty and res.pass_at_k.empty == (samples == 1)
    ranks = res.rank_sets
    assert np.all((ranks.rank_low <= ranks["rank"]) & (ranks["rank"] <= ranks.rank_high))


@settings(deadline=None, max_examples=20, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data(), n=st.integers(1, 20))
def test_read_lm_eval_gives_back_what_the_files_hold(data, n, tmp_path_factory):
    from harness_logs import lm_eval_line, write_lm_eval_run

    out = tmp_path_factory.mktemp("lm_eval")
    values = data.draw(arrays(np.float64, (2, n), elements=st.floats(-1e6, 1e6, allow_nan=False)))
    ids = data.draw(st.lists(st.integers(0, 10**6), min_size=n, max_size=n, unique=True))
    for m, row in zip(("a", "b"), values):
        write_lm_eval_run(out, m, "2026-01-01T00-00-00.000000",
                          {"task": [lm_eval_line(i, "none", {"score": float(v)}) for i, v in zip(ids, row)]})
    table = sg.read_lm_eval(out, metric="score")
    for m, row in zip(("a", "b"), values):
        mine = table[table.model == m]
        assert mine["item"].tolist() == ids and mine.score.tolist() == row.tolist()


@pytest.mark.parametrize("reader", ["inspect", "mlflow"])
def test_the_tool_readers_return_the_columns_they_promise(reader):
    pytest.importorskip({"inspect": "inspect_ai", "mlflow": "mlflow"}[reader], reason=f"the {reader} extra is not installed")
    import harness_logs

    if reader == "inspect":
        table = sg.read_inspect(list(harness_logs.inspect_logs()))
        assert list(table.columns[:6]) == ["model", "task", "item", "sample", "metric", "score"]
        assert table.score.notna().all() and table.score.between(0, 10).all()
    else:
        table = sg.read_mlflow("sweep", metric="val_acc", tracking_uri=harness_logs.mlflow_store())
        assert list(table.columns[:4]) == ["task", "model", "seed", "score"]
        assert (table.score.isna() == (table.error != "")).all()


_CELLS = st.one_of(st.integers(-10**6, 10**6), st.floats(allow_nan=False, allow_infinity=False),
                   st.text(st.characters(codec="utf-8", exclude_categories=["Cs", "Cc", "Zl", "Zp"]), min_size=1,
                           max_size=6).filter(lambda t: t.strip() == t and t.strip()))


@given(data=st.data(), n=st.integers(1, 8), sep=st.sampled_from([",", ";", "\t", "|"]),
       encoding=st.sampled_from(["utf-8", "utf-8-sig", "utf-16"]))
def test_a_csv_file_reads_as_pandas_reads_it_with_its_lines(tmp_path_factory, data, n, sep, encoding):
    columns = data.draw(st.lists(st.text("abcxyz_", min_size=1, max_size=4), min_size=1, max_size=4, unique=True))
    frame = pd.DataFrame({c: data.draw(st.lists(_CELLS, min_size=n, max_size=n)) for c in columns})
    path = tmp_path_factory.mktemp("csv") / "t.csv"
    path.write_bytes(frame.to_csv(index=False, sep=sep).encode(encoding))
    # The delimiter found, not given, where the header shows one; the encoding found from the byte-order mark.
    table = sg.read_csv_table(path, sep=sep if len(columns) == 1 else None)
    pd.testing.assert_frame_equal(table.reset_index(drop=True), pd.read_csv(path, sep=sep, encoding=encoding))
    assert table.index.is_monotonic_increasing and table.index[0] >= 2


@given(scores=arrays(np.float64, 8, elements=st.floats(-1e6, 1e6) | st.just(np.nan)))
def test_a_file_of_runs_reads_for_report_or_is_refused_naming_a_line(tmp_path_factory, scores):
    runs = pd.DataFrame({"task": ["t"] * 8, "model": list("AAAABBBB"), "seed": [0, 1, 2, 3] * 2, "score": scores})
    path = tmp_path_factory.mktemp("runs") / "runs.csv"
    runs.to_csv(path, index=False, float_format="%.17g")
    table = sg.read_runs_csv(path)
    np.testing.assert_array_equal(table.score.to_numpy(), scores)
    assert table.index.tolist() == list(range(2, 10))


@given(data=st.data(), n=st.integers(1, 30), k=st.integers(1, 30))
def test_pass_at_k_is_a_probability_growing_with_k(data, n, k):
    size = data.draw(st.integers(2, 6))
    n_samples = data.draw(arrays(np.int64, size, elements=st.integers(n, n + 40)))
    n_correct = data.draw(arrays(np.int64, size, elements=st.integers(0, n)))
    res = outcome(lambda: sg.pass_at_k(n_samples, n_correct, min(k, n), n_resamples=20, rng=0))
    if res is not None:
        pvalue(res.per_question)
        more = sg.pass_at_k(n_samples, n_correct, min(k, n) + 1, n_resamples=20, rng=0) if k < n else res
        assert np.all(more.per_question >= res.per_question - 1e-12)


@given(data=st.data(), n=st.integers(2, 12), k=st.integers(1, 5), level=levels)
def test_sampled_means_and_the_design_are_consistent(data, n, k, level):
    a = data.draw(arrays(np.float64, (n, k), elements=st.sampled_from([0.0, 1.0])))
    b = data.draw(arrays(np.float64, (n, k), elements=st.sampled_from([0.0, 1.0])))
    for res in (outcome(lambda: sg.sampled_mean(a, confidence_level=level)),
                outcome(lambda: sg.sampled_paired_difference(a, b, confidence_level=level))):
        if res is not None:
            finite(res.estimate, res.standard_error, res.standard_error_naive)
            interval(res.confidence_interval, res.estimate)
            assert res.standard_error > 0 and res.n_clusters == n
    sizes = outcome(lambda: sg.questions_needed(0.1, 0.2, target_standard_error=0.05, n_samples=[1, 2, 4, 8]))
    assert np.all(np.diff(sizes) <= 0)
    # In groups: whole groups, never fewer questions than independent ones need, more as the shared part grows.
    grouped = [sg.questions_needed(0.1, 0.2, target_standard_error=0.05, n_samples=k, variance_groups=shared,
                                   group_size=n) for shared in (0.0, 0.05, 0.1)]
    assert all(g % n == 0 for g in grouped) and grouped[0] >= sg.questions_needed(0.1, 0.2, target_standard_error=0.05,
                                                                                    n_samples=k)
    assert grouped[0] <= grouped[1] <= grouped[2]


# --------------------------------------------------------------------------- sequential comparisons


@given(n_looks=st.integers(1, 6), alpha=levels, pocock=st.booleans(), power=levels)
def test_group_sequential_designs_spend_exactly_alpha(n_looks, alpha, pocock, power):
    spending = "pocock" if pocock else "obrien-fleming"
    b = outcome(lambda: sg.group_sequential_bounds(n_looks, alpha=alpha, spending=spending))
    if b is None:
        return
    assert np.all(b.critical_values > 0) and np.all(np.diff(b.alpha_spent) >= 0)
    assert b.alpha_spent[-1] == pytest.approx(alpha, rel=1e-9)
    spent = sg.spending_alpha(b.information_rates, alpha=alpha / 2, spending=spending)
    np.testing.assert_allclose(b.alpha_spent, 2 * spent, rtol=1e-12)
    inflation = outcome(lambda: sg.max_information_inflation(b, target_power=power))
    if inflation is not None:
        assert inflation >= 1 - 1e-9 and math.isfinite(inflation)


@given(d=vectors(min_size=1, max_size=30), level=levels)
def test_confidence_sequences_are_nested_and_hold_the_running_mean(d, level):
    for x, kwargs in ((d, {"method": "t-mixture"}), (np.clip(d, -1.0, 1.0), {"bounds": (-1.0, 1.0)})):
        cs = outcome(lambda x=x, kwargs=kwargs: sg.confidence_sequence(x, confidence_level=level, **kwargs))
        if cs is None:
            continue
        assert not np.any(np.isnan(cs.low)) and not np.any(np.isnan(cs.high))
        assert np.array_equal(cs.low, np.maximum.accumulate(cs.low))
        assert np.array_equal(cs.high, np.minimum.accumulate(cs.high))
        assert np.all(cs.low <= cs.high)


@given(ab=pairs(min_size=1, max_size=10), failed=st.lists(st.integers(0, 19), max_size=4), margin=positive | wide,
       alpha=st.floats(1e-6, 0.499), method=st.sampled_from(sg.GATE_METHODS), higher=st.booleans(),
       fail_on=st.sampled_from(["margin", "zero"]))
def test_the_gate_decides_as_its_interval_says(ab, failed, margin, alpha, method, higher, fail_on):
    a, b = (x.copy() for x in ab)
    for i in failed:  # failed runs on either side
        (a if i % 2 else b)[(i // 2) % a.size] = np.nan
    bounds = None
    if method == "betting":
        a, b = np.clip(a, 0.0, 1.0), np.clip(b, 0.0, 1.0)
        bounds = (0.0, 1.0)
    res = outcome(lambda: sg.gate(a, b, margin=margin, alpha=alpha, method=method, higher_is_better=higher,
                                  fail_on=fail_on, bounds=bounds))
    runs = pd.DataFrame({"task": "t", "model": ["A"] * a.size + ["B"] * b.size, "seed": list(range(a.size)) * 2,
                         "score": np.r_[a, b]})
    table = outcome(lambda: sg.gate_table(runs, model_a="A", model_b="B", margin=margin, alpha=alpha, method=method,
                                          higher_is_better=higher, fail_on=fail_on, bounds=bounds))
    if res is None:
        assert table is None
        return
    if np.nanmax(np.abs(np.r_[a, b, 0.0])) < 1e300:  # a table of runs refuses scores beyond 1e300
        assert table is not None and (table.decision, table.n, table.failed_a) == (res.decision, res.n, res.failed_a)
    assert res.decision in sg.GATE_DECISIONS and res.exit_status == sg.EXIT_STATUS[res.decision]
    assert res.flagged == (res.n_failed_a > res.n_failed_b) and res.n + res.n_failed_a >= res.n_pairs - res.n_failed_b
    low, high = res.confidence_interval
    assert not (np.isnan(low) or np.isnan(high)) and low <= high
    if method == "fixed":
        interval(res.confidence_interval, res.estimate)
        pvalue([res.pvalue, res.pvalue_worse])
        assert (res.decision == "fail") == (res.pvalue_worse <= alpha)
    else:  # the sequence decides by its interval, oriented so that up is better
        up_low, up_high = (low, high) if higher else (-high, -low)
        worse_at = -res.margin if fail_on == "margin" else 0.0
        assert (res.decision == "fail") == (up_high < worse_at)
        assert (res.decision == "pass") == (up_high >= worse_at and up_low > -res.margin)
    assert res.n_needed is None or (res.n_needed >= 2 and res.n_more == max(res.n_needed - res.n, 0))
    json.dumps(res.to_dict(), allow_nan=False)
    assert res.to_line().startswith(res.decision)


# --------------------------------------------------------------------------- Bayesian comparisons


def _regions(post):
    p = np.array([post.prob_a_better, post.prob_rope, post.prob_b_better])
    assert np.all((p >= 0) & (p <= 1)) and abs(p.sum() - 1) < 1e-9, p
    return p


ropes = st.sampled_from([0.0, 1e-12, 0.01, 0.5]) | st.floats(0, 1e300)


@given(ab=pairs(), rope=ropes, fraction=st.floats(1e-9, 1 - 1e-9))
def test_t_posteriors_give_three_probabilities(ab, rope, fraction):
    a, b = ab
    for post in (outcome(lambda: sg.bayesian_paired_t(a, b, rope=rope)),
                 outcome(lambda: sg.correlated_ttest(a, test_fraction=fraction, rope=rope))):
        if post is not None:
            p = _regions(post)
            finite(post.loc, post.scale)
            assert post.scale >= 0 and (rope > 0 or p[1] == 0)


@given(ab=pairs(), rope=ropes, prior=st.sampled_from([0.1, 0.5, 1.0, 10.0]))
def test_dirichlet_posteriors_give_three_probabilities(ab, rope, prior):
    a, b = ab
    for test in (sg.bayesian_signed_rank, sg.bayesian_sign_test):
        post = outcome(lambda test=test: test(a, b, rope=rope, prior_strength=prior, n_draws=200, rng=0))
        if post is not None:
            p = _regions(post)
            samples = post.posterior_samples
            assert samples.shape == (200, 3) and np.all((samples >= 0) & (samples <= 1))
            np.testing.assert_allclose(samples.sum(axis=1), 1.0, atol=1e-9)
            assert rope > 0 or p[1] == 0


# --------------------------------------------------------------------------- aggregates and effect sizes


@given(table=tables(), gamma=wide, level=levels, statistic=st.sampled_from(sg.AGGREGATES))
def test_aggregates_lie_within_the_scores(table, gamma, level, statistic):
    for point in (sg.iqm, sg.aggregate_mean, sg.aggregate_median, partial(sg.iqm, interpolate=True)):
        value = outcome(lambda point=point: point(table))
        if value is not None:
            assert table.min() <= value <= table.max() or np.isclose(value, table.min()) or np.isclose(value, table.max())
    gap = outcome(lambda: sg.optimality_gap(table, gamma=gamma))
    if gap is not None:
        assert gap >= 0 and math.isfinite(gap)
    res = outcome(lambda: sg.aggregate_ci(table, statistic=statistic, n_resamples=20, confidence_level=level,
                                          gamma=gamma, rng=0))
    if res is not None:
        interval(res.confidence_interval)
        finite(res.estimate, res.bootstrap_distribution)
    across = outcome(lambda: sg.prob_improvement(table, table[::-1], paired=statistic == "iqm", n_resamples=20, rng=0))
    if across is not None:
        interval(across.confidence_interval)
        assert 0 <= across.estimate <= 1 and across.n_tasks == table.shape[1]
    prof = outcome(lambda: sg.performance_profile(table, np.unique(table), n_resamples=20, confidence_level=level,
                                                  rng=0))
    if prof is not None:
        interval(prof.confidence_interval)  # a percentile band need not hold the estimate
        assert np.all((prof.estimate >= 0) & (prof.estimate <= 1)) and np.all(np.diff(prof.estimate) <= 0)


@given(ab=pairs(), kind=st.sampled_from(sg.EFFECT_SIZES), paired=st.booleans(), level=levels)
def test_effect_sizes_are_finite_with_ordered_intervals(ab, kind, paired, level):
    a, b = ab
    res = outcome(lambda: sg.effect_size(a, b, kind=kind, paired=paired, confidence_level=level))
    if res is None:
        return
    # The noncentral t interval holds d at usual levels; at levels near 0 it shrinks to the
    # noncentrality whose median is t, which can miss d.
    interval(res.confidence_interval, res.estimate if kind != "cohen_d" or level >= 0.5 else None)
    bounds = {"cliff_delta": (-1, 1), "common_language": (0, 1)}.get(kind)
    if bounds:
        assert bounds[0] <= res.confidence_interval.low and res.confidence_interval.high <= bounds[1]
    if paired:
        assert res.magnitude == "unlabelled"   # the two-group conventions label two groups only
    else:
        assert res.magnitude in ("negligible", "small", "medium", "large")


def test_the_suite_checks_every_public_statistics_function():
    source = Path(__file__).read_text()
    functions = {n for n in sg.__all__ if inspect.isfunction(getattr(sg, n))}
    unchecked = {n for n in functions if not re.search(rf"\bsg\.{n}\b", source)}
    assert not unchecked, f"add a property to tests/test_properties.py for {sorted(unchecked)}"


pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

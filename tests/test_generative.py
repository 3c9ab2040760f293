"""sigeval.generative against exact combinatorics, brute force, closed forms, statsmodels and simulation."""

import itertools
import math
import warnings
from decimal import ROUND_CEILING, Decimal, getcontext
from fractions import Fraction

import numpy as np
import pytest

from sigeval import bootstrap_ci, pass_at_k, questions_needed, sampled_mean, sampled_paired_difference
from sigeval.generative import _pass_at_k_per_question

# --------------------------------------------------------------------------- pass@k


def _exact(n, c, k):
    return 1 - Fraction(math.comb(n - c, k), math.comb(n, k))


def test_pass_at_k_equals_the_exact_binomial_formula_everywhere_on_a_grid():
    cases = [(n, c, k) for n in range(1, 26) for c in range(n + 1) for k in range(1, n + 1)]
    n, c, k = (np.array(x) for x in zip(*cases))
    for kk in np.unique(k):
        at = k == kk
        got = _pass_at_k_per_question(n[at], c[at], int(kk))
        want = np.array([float(_exact(a, b, int(kk))) for a, b in zip(n[at], c[at])])
        np.testing.assert_allclose(got, want, rtol=1e-13, atol=1e-15)


def test_pass_at_k_is_the_chance_that_one_of_k_drawn_answers_is_correct():
    # Brute force over every subset of k of the n answers.
    answers = [1, 0, 0, 1, 0, 0, 0]
    n, c = len(answers), sum(answers)
    for k in range(1, n + 1):
        subsets = list(itertools.combinations(answers, k))
        share = sum(any(s) for s in subsets) / len(subsets)
        assert _pass_at_k_per_question(np.array([n]), np.array([c]), k)[0] == pytest.approx(share, rel=1e-14)


@pytest.mark.parametrize(("n", "c", "k"), [(10**6, 3, 100), (10**7, 1, 1), (5 * 10**5, 4000, 50), (200, 1, 199)])
def test_pass_at_k_keeps_its_precision_for_large_n(n, c, k):
    got = _pass_at_k_per_question(np.array([n]), np.array([c]), k)[0]
    assert got == pytest.approx(float(_exact(n, c, k)), rel=1e-12)


def test_pass_at_k_is_unbiased_where_the_plug_in_is_not():
    # True per-question success rates; n = 20 samples each; pass@5 estimated over many benchmarks.
    rng = np.random.default_rng(0)
    p = rng.uniform(0.02, 0.4, 50)
    truth = np.mean(1 - (1 - p) ** 5)
    correct = rng.binomial(20, p, size=(4000, 50))
    unbiased = np.array([_pass_at_k_per_question(np.full(50, 20), row, 5).mean() for row in correct[:400]])
    plug_in = np.mean(1 - (1 - correct / 20) ** 5, axis=1)
    mc_se = unbiased.std(ddof=1) / math.sqrt(unbiased.size)
    assert abs(unbiased.mean() - truth) < 3 * mc_se
    assert plug_in.mean() < truth - 10 * plug_in.std(ddof=1) / math.sqrt(plug_in.size)


def test_pass_at_k_interval_is_the_bootstrap_over_questions_or_groups():
    rng = np.random.default_rng(1)
    n = np.full(30, 10)
    c = rng.integers(0, 11, 30)
    groups = np.repeat(np.arange(10), 3)
    res = pass_at_k(n, c, 3, groups=groups, n_resamples=500, confidence_level=0.9, rng=2)
    ref = bootstrap_ci(res.per_question, groups=groups, n_resamples=500, confidence_level=0.9, rng=2)
    assert (res.confidence_interval.low, res.confidence_interval.high) == tuple(ref.confidence_interval)
    assert res.estimate == pytest.approx(res.per_question.mean()) and res.standard_error == ref.standard_error
    assert (res.k, res.n_questions, res.confidence_level) == (3, 30, 0.9)


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (([10], [3], 1), ValueError, r"at least 2 questions; got 1"),
        (([10, 10], [3, 11], 1), ValueError, r"`n_correct` must not exceed `n_samples`; question 1 has 11 of 10"),
        (([10, 10], [3, -1], 1), ValueError, r"`n_correct` must be non-negative"),
        (([10, 4], [3, 1], 5), ValueError, r"`k` = 5 exceeds `n_samples` for some question \(question 1 has 4"),
        (([10, 10], [3, 1], 0), ValueError, r"`k` must be an integer >= 1"),
        (([10, 10.5], [3, 1], 1), ValueError, r"`n_samples` must hold whole numbers"),
        (([10, 10], ["3", "1"], 1), TypeError, r"`n_correct` must hold integer counts"),
        (([10, 2**60], [3, 1], 1), ValueError, r"`n_samples`"),
    ],
)
def test_pass_at_k_refuses_bad_counts(args, error, match):
    with pytest.raises(error, match=match):
        pass_at_k(*args)


# --------------------------------------------------------------------------- sampled means


def _benchmark(rng, n_questions=200, n_samples=4, sd_between=0.2, groups_of=1):
    """0/1 samples: question difficulty shared within groups of questions."""
    n_groups = n_questions // groups_of
    group_effect = np.repeat(rng.normal(0, sd_between, n_groups), groups_of)
    p = np.clip(0.6 + group_effect, 0.01, 0.99)
    return (rng.random((n_questions, n_samples)) < p[:, None]).astype(float), p


def test_clustered_standard_error_is_the_spread_of_question_means():
    rng = np.random.default_rng(2)
    x, _ = _benchmark(rng, 60, 5)
    res = sampled_mean(x)
    means = x.mean(axis=1)
    assert res.estimate == pytest.approx(means.mean(), rel=1e-15)
    assert res.standard_error == pytest.approx(means.std(ddof=1) / math.sqrt(60), rel=1e-13)
    assert res.standard_error_naive == pytest.approx(x.std(ddof=1) / math.sqrt(x.size), rel=1e-13)
    assert res.design_effect == pytest.approx((res.standard_error / res.standard_error_naive) ** 2)
    half = (res.confidence_interval.high - res.confidence_interval.low) / 2
    from scipy import stats

    assert half == pytest.approx(stats.t.isf(0.025, 59) * res.standard_error, rel=1e-12)


def test_clustered_by_groups_is_cr1_by_hand():
    rng = np.random.default_rng(3)
    x, _ = _benchmark(rng, 40, 3, groups_of=4)
    groups = np.repeat(np.arange(10), 4)
    res = sampled_mean(x, groups=groups)
    m = x.mean(axis=1)
    score = [sum(m[i] - m.mean() for i in range(40) if groups[i] == g) for g in range(10)]
    cr1 = math.sqrt(10 / 9 * sum(s * s for s in score) / 40**2)
    assert res.standard_error == pytest.approx(cr1, rel=1e-13) and res.n_clusters == 10


def test_clustered_standard_error_equals_statsmodels_cluster_robust_ols():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(4)
    x, _ = _benchmark(rng, 48, 3, groups_of=6)
    groups = np.repeat(np.arange(8), 6)
    means = x.mean(axis=1)
    fit = sm.OLS(means, np.ones((48, 1))).fit(cov_type="cluster", cov_kwds={"groups": groups})
    res = sampled_mean(x, groups=groups)
    assert res.estimate == pytest.approx(fit.params[0], rel=1e-13)
    assert res.standard_error == pytest.approx(fit.bse[0], rel=1e-10)


def test_the_variance_split_is_unbiased():
    # Scores with a known between-question sd 0.3 and within-question sd 0.5, K = 3 samples.
    rng = np.random.default_rng(5)
    between, within = [], []
    for _ in range(400):
        mu = rng.normal(0, 0.3, 30)
        x = mu[:, None] + rng.normal(0, 0.5, (30, 3))
        res = sampled_mean(x)
        between.append(res.variance_between)
        within.append(res.variance_within)
    for values, truth in ((np.array(between), 0.09), (np.array(within), 0.25)):
        assert abs(values.mean() - truth) < 3 * values.std(ddof=1) / math.sqrt(values.size)


def test_unequal_samples_per_question_use_nan_padding():
    x = np.array([[1, 1, np.nan], [0, 1, 1], [1, np.nan, np.nan], [0, 0, 1]], dtype=float)
    res = sampled_mean(x)
    means = np.array([1.0, 2 / 3, 1.0, 1 / 3])
    assert res.estimate == pytest.approx(means.mean())
    assert res.n_samples == pytest.approx(4 / (1 / 2 + 1 / 3 + 1 + 1 / 3))
    # Within: mean sample variance of the questions with 2 samples or more.
    assert res.variance_within == pytest.approx(np.mean([0.0, 1 / 3, 1 / 3]))


def test_one_sample_per_question_has_no_variance_split():
    res = sampled_mean(np.array([[1.0], [0.0], [1.0], [1.0]]))
    assert res.variance_within is None and res.variance_between is None
    assert res.standard_error == pytest.approx(np.std([1, 0, 1, 1], ddof=1) / 2)


def test_clustered_interval_covers_and_the_naive_one_does_not():
    # Questions in groups of 5 with a shared difficulty: the naive interval under-covers badly.
    rng = np.random.default_rng(6)
    hits_clustered = hits_naive = 0
    reps = 400
    for _ in range(reps):
        x, p = _benchmark(rng, 100, 4, sd_between=0.25, groups_of=5)
        truth = 0.6  # the population mean of p (its clipping is negligible at sd 0.25)
        res = sampled_mean(x, groups=np.repeat(np.arange(20), 5))
        low, high = res.confidence_interval
        hits_clustered += low <= truth <= high
        z = 1.96 * res.standard_error_naive
        hits_naive += res.estimate - z <= truth <= res.estimate + z
    se = math.sqrt(0.95 * 0.05 / reps)
    assert hits_clustered / reps >= 0.95 - 3 * se
    assert hits_naive / reps < 0.80


def test_paired_difference_by_question():
    rng = np.random.default_rng(7)
    xa, _ = _benchmark(rng, 50, 4)
    xb = (rng.random((50, 6)) < 0.55).astype(float)
    res = sampled_paired_difference(xa, xb)
    d = xa.mean(axis=1) - xb.mean(axis=1)
    assert res.estimate == pytest.approx(d.mean()) and res.standard_error == pytest.approx(d.std(ddof=1) / math.sqrt(50))
    assert res.variance_within == pytest.approx(np.mean(xa.var(axis=1, ddof=1) + xb.var(axis=1, ddof=1)))
    assert res.n_samples == pytest.approx(2 / (1 / 4 + 1 / 6))
    naive = math.sqrt(xa.var(ddof=1) / xa.size + xb.var(ddof=1) / xb.size)
    assert res.standard_error_naive == pytest.approx(naive)


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: sampled_mean([1, 0, 1]), ValueError, r"`scores` must be a 2-D array"),
        (lambda: sampled_mean([[1, 0]]), ValueError, r"at least 2 questions"),
        (lambda: sampled_mean([[1, 0], [np.nan, np.nan]]), ValueError, r"without any sample \(rows 1 are all NaN\)"),
        (lambda: sampled_mean([[1, np.inf], [0, 1]]), ValueError, r"infinite"),
        (lambda: sampled_mean([[1, 0], [1, 0]]), ValueError, r"all equal"),
        (lambda: sampled_mean([["a", "b"], ["c", "d"]]), TypeError, r"`scores` must hold real numbers"),
        (lambda: sampled_mean([[1, 0], [0, 0]], groups=[1, 1]), ValueError, r"at least 2 distinct groups"),
        (lambda: sampled_mean([[1, 0], [0, 0]], groups=[1, 2, 3]), ValueError, r"one label per question, 2 in all"),
        (lambda: sampled_mean([[1, 0], [0, 0]], confidence_level=1.0), ValueError, r"`confidence_level`"),
        (lambda: sampled_paired_difference([[1, 0], [0, 0]], [[1, 0], [0, 1], [1, 1]]), ValueError, r"same number of rows; got 2 and 3"),
    ],
)
def test_sampled_means_refuse_bad_input(call, error, match):
    with pytest.raises(error, match=match):
        call()


# --------------------------------------------------------------------------- design


def test_questions_needed_is_the_closed_form_and_has_a_floor():
    got = questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=[1, 4, 16, 1000])
    np.testing.assert_array_equal(got, [2500, 1750, 1563, 1501])
    # However many samples, at least sigma_b^2 / SE^2 = 1,500 questions.
    assert questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=10**9) == 1501
    assert questions_needed(0.15, 0.0, target_standard_error=0.01, n_samples=7) == 1500
    assert isinstance(questions_needed(0.15, 0.10, target_standard_error=0.01), int)
    assert questions_needed(0.0, 0.10, target_standard_error=0.01, n_samples=10) == 100


def test_questions_needed_reaches_its_target_by_simulation():
    rng = np.random.default_rng(8)
    sb2, sw2, k = 0.04, 0.2, 4
    n = questions_needed(sb2, sw2, target_standard_error=0.02, n_samples=k)
    mu = rng.normal(0, math.sqrt(sb2), (3000, n))
    means = (mu[..., None] + rng.normal(0, math.sqrt(sw2), (3000, n, k))).mean(axis=(1, 2))
    assert means.std(ddof=1) == pytest.approx(0.02, rel=0.05)


def test_the_ceiling_of_questions_needed_is_exact():
    # The (1 - 1e-12) that used to keep 2500.0000000000005 at 2500 took two units off at 2e12 (issue 35, item 5).
    assert questions_needed(2000000000000.4, 0.0, target_standard_error=1.0) == 2000000000001
    assert questions_needed(2.0**51 + 0.5, 0.0, target_standard_error=1.0) == 2**51 + 1
    # Whole in decimals, whatever the binary floats: 0.25 / 0.01**2, 0.01 / 0.1**2, 2e-300 / 1e-150**2.
    assert questions_needed(0.15, 0.10, target_standard_error=0.01) == 2500
    assert questions_needed(0.0, 0.10, target_standard_error=0.1, n_samples=10) == 1
    assert questions_needed(0.0, 0.10, target_standard_error=0.01, n_samples=10) == 100
    assert questions_needed(1e-300, 1e-300, target_standard_error=1e-150) == 2
    # Against decimal arithmetic at 50 digits, on decimals of a few digits and on ratios near whole numbers.
    rng = np.random.default_rng(35)
    getcontext().prec = 50
    for _ in range(2000):
        between, within = (float(f"{x:.3g}") for x in rng.uniform(0, 1, 2))
        se = float(f"{rng.uniform(0.001, 0.1):.2g}")
        k = int(rng.integers(1, 50))
        exact = (Decimal(repr(between)) + Decimal(repr(within)) / k) / Decimal(repr(se)) ** 2
        assert questions_needed(between, within, target_standard_error=se, n_samples=k) == max(
            1, int(exact.to_integral_value(rounding=ROUND_CEILING)))
    for whole in (7, 1234, 987654321, 2**40 + 3):
        for step in (-1, 0, 1):
            value = float(np.nextafter(float(whole), np.inf * step)) if step else float(whole)
            exact = Decimal(repr(value)).to_integral_value(rounding=ROUND_CEILING)
            assert questions_needed(value, 0.0, target_standard_error=1.0) == int(exact)


def _variance_of_the_mean(between, within, shared, m, k, n_groups):
    """Var of the benchmark mean from the covariance matrix of the question means, summed cell by cell."""
    n = m * n_groups
    cov = np.kron(np.eye(n_groups), np.full((m, m), shared)) + np.eye(n) * (between - shared + within / k)
    return cov.sum() / n**2


@pytest.mark.parametrize("seed", range(6))
def test_questions_needed_in_groups_is_the_fewest_groups_by_brute_force(seed):
    rng = np.random.default_rng(seed)
    between, within = rng.uniform(0.01, 0.06), rng.uniform(0.05, 0.25)
    shared = between * rng.uniform(0, 1)
    m, k, se = int(rng.integers(1, 8)), int(rng.integers(1, 10)), 0.02
    got = questions_needed(between, within, target_standard_error=se, n_samples=k, variance_groups=shared,
                           group_size=m)
    groups = next(g for g in itertools.count(1) if _variance_of_the_mean(between, within, shared, m, k, g) <= se**2)
    assert got == m * groups
    # The design effect form: independent questions' variance times 1 + (m - 1) rho.
    rho = shared / (between + within / k)
    assert _variance_of_the_mean(between, within, shared, m, k, groups) == pytest.approx(
        (between + within / k) * (1 + (m - 1) * rho) / (m * groups), rel=1e-12)


def test_questions_needed_in_groups_reaches_its_target_by_simulation():
    # Three levels: a passage effect, a question effect, and 0/1 answers; every variance from the simulated world.
    rng = np.random.default_rng(17)
    sd_passage, sd_question, m, k = 0.12, 0.08, 5, 3
    p_draws = np.clip(0.6 + rng.normal(0, sd_passage, (4000, 1)) + rng.normal(0, sd_question, (4000, m)), 0, 1)
    shared = p_draws.mean(axis=1).var() - p_draws.var(axis=1, ddof=1).mean() / m
    between, within = p_draws.var(), float(np.mean(p_draws * (1 - p_draws)))
    n = questions_needed(between, within, target_standard_error=0.03, n_samples=k, variance_groups=shared,
                         group_size=m)
    independent = questions_needed(between, within, target_standard_error=0.03, n_samples=k)
    assert n % m == 0 and n > 1.5 * independent   # the design effect, 1 + (m - 1) rho, is about 1.6 here
    groups = n // m
    p = np.clip(0.6 + rng.normal(0, sd_passage, (2000, groups, 1)) + rng.normal(0, sd_question, (2000, groups, m)), 0, 1)
    scores = rng.binomial(k, p).mean(axis=(1, 2)) / k
    assert scores.std(ddof=1) == pytest.approx(0.03, rel=0.06)
    # The same number of questions, planned as if independent, misses the target by the design effect.
    p = np.clip(0.6 + rng.normal(0, sd_passage, (2000, independent // m, 1))
                + rng.normal(0, sd_question, (2000, independent // m, m)), 0, 1)
    assert (rng.binomial(k, p).mean(axis=(1, 2)) / k).std(ddof=1) > 1.15 * 0.03


def test_the_floors_of_questions_needed():
    # Independent questions: sigma_b^2 / SE^2 however many samples; in groups of m it grows by (m - 1) sigma_g^2.
    assert questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=10**12) == 1501
    assert questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=10**12, variance_groups=0.09,
                            group_size=5) == 5 * math.ceil((0.15 + 4 * 0.09) / (5 * 1e-4) + 1e-9)
    # However many questions per group, at least sigma_g^2 / SE^2 groups.
    huge = questions_needed(0.15, 0.10, target_standard_error=0.01, variance_groups=0.09, group_size=10**6)
    assert 900 < huge // 10**6 <= 901
    # Without a shared part, or with groups of one, the groups change nothing.
    assert questions_needed(0.15, 0.1, target_standard_error=0.01, variance_groups=0.0, group_size=5) == 2500
    assert questions_needed(0.15, 0.1, target_standard_error=0.01, variance_groups=0.15, group_size=1) == 2500


def test_questions_needed_refuses_bad_groups():
    base = dict(variance_between=0.15, variance_within=0.1, target_standard_error=0.01)
    with pytest.raises(ValueError, match=r"^`variance_groups` is the part of `variance_between` shared within a "
                                         r"group, so at most `variance_between` = 0\.15; got 0\.2\.$"):
        questions_needed(**base, variance_groups=0.2, group_size=5)
    with pytest.raises(ValueError, match=r"^`variance_groups` must be at least 0"):
        questions_needed(**base, variance_groups=-0.01, group_size=5)
    with pytest.raises(ValueError, match=r"^`group_size` must be an integer >= 1; got 0\.$"):
        questions_needed(**base, group_size=0)
    with pytest.raises(TypeError, match=r"^`group_size` must be an integer >= 1; got 2\.5\.$"):
        questions_needed(**base, group_size=2.5)
    with pytest.raises(ValueError, match=r"^\(`variance_between` \+ `variance_within` / `n_samples` \+ "
                                         r"\(`group_size` - 1\) `variance_groups`\) / `target_standard_error`\*\*2 "
                                         r"asks for more than 2\*\*53 questions"):
        questions_needed(**base, variance_groups=0.1, group_size=2**45)


def test_the_group_variance_is_the_anova_estimate():
    rng = np.random.default_rng(21)
    x, _ = _benchmark(rng, 60, 4, groups_of=5)
    groups = np.repeat(np.arange(12), 5)
    res = sampled_mean(x, groups=groups)
    means = x.mean(axis=1).reshape(12, 5)
    within = means.var(axis=1, ddof=1).mean()
    assert res.variance_groups == pytest.approx(means.mean(axis=1).var(ddof=1) - within / 5, rel=1e-12)
    assert sampled_mean(x).variance_groups is None
    assert sampled_mean(x, groups=np.arange(60)).variance_groups is None   # one question per group
    # Unbalanced groups: (MS_between - MS_within) / n0 by hand.
    labels = np.repeat(np.arange(6), [4, 7, 10, 12, 12, 15])
    m = x.mean(axis=1)
    sizes = np.bincount(labels).astype(float)
    g_means = np.array([m[labels == g].mean() for g in range(6)])
    msw = sum(((m[labels == g] - g_means[g]) ** 2).sum() for g in range(6)) / (60 - 6)
    msb = (sizes * (g_means - m.mean()) ** 2).sum() / 5
    n0 = (60 - (sizes**2).sum() / 60) / 5
    assert sampled_mean(x, groups=labels).variance_groups == pytest.approx((msb - msw) / n0, rel=1e-12)


def test_the_group_variance_equals_statsmodels_reml_on_balanced_groups():
    sm = pytest.importorskip("statsmodels.api")
    rng = np.random.default_rng(22)
    x, _ = _benchmark(rng, 80, 3, groups_of=8, sd_between=0.15)
    groups = np.repeat(np.arange(10), 8)
    fit = sm.MixedLM(x.mean(axis=1), np.ones((80, 1)), groups=groups).fit(reml=True)
    res = sampled_mean(x, groups=groups)
    assert res.variance_groups > 0
    assert res.variance_groups == pytest.approx(float(np.asarray(fit.cov_re).ravel()[0]), rel=1e-4)


def test_the_group_variance_is_unbiased_and_paired_too():
    rng = np.random.default_rng(23)
    shared, paired_shared = [], []
    for _ in range(300):
        passage = np.repeat(rng.normal(0, 0.2, 20), 4)        # sigma_g^2 = 0.04
        mu = passage + rng.normal(0, 0.3, 80)
        x = mu[:, None] + rng.normal(0, 0.5, (80, 3))
        y = x - (0.1 + np.repeat(rng.normal(0, 0.1, 20), 4))[:, None] + rng.normal(0, 0.5, (80, 3))  # gap var 0.01
        groups = np.repeat(np.arange(20), 4)
        shared.append(sampled_mean(x, groups=groups).variance_groups)
        paired_shared.append(sampled_paired_difference(x, y, groups=groups).variance_groups)
    for values, truth in ((np.array(shared), 0.04), (np.array(paired_shared), 0.01)):
        assert abs(values.mean() - truth) < 3 * values.std(ddof=1) / math.sqrt(values.size)


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(variance_between=-0.1, variance_within=0.1, target_standard_error=0.01), ValueError, r"at least 0"),
        (dict(variance_between=0.0, variance_within=0.0, target_standard_error=0.01), ValueError, r"both 0"),
        (dict(variance_between=0.1, variance_within=0.1, target_standard_error=0.0), ValueError, r"positive"),
        (dict(variance_between=0.1, variance_within=0.1, target_standard_error=0.01, n_samples=0), ValueError, r"at least 1"),
        (dict(variance_between=0.1, variance_within=0.1, target_standard_error=1e-9), ValueError, r"2\*\*53"),
        (dict(variance_between="0.1", variance_within=0.1, target_standard_error=0.01), TypeError, r"`variance_between`"),
    ],
)
def test_questions_needed_refuses_bad_designs(kwargs, error, match):
    with pytest.raises(error, match=match):
        questions_needed(**kwargs)


# --------------------------------------------------------------------------- hostile inputs (tools/hostile_check.py)


def test_pass_at_k_counts_the_memory_of_its_products_honestly(monkeypatch):
    # 100 questions x 1,000 factors (the widest question): n - j, x_j and 1 - x_j in float64 and the mask, 2.4 MiB.
    import tracemalloc

    import sigeval._validation as validation

    n, c = np.full(100, 3000), np.r_[1500, 1:100]
    tracemalloc.start()
    _pass_at_k_per_question(n, c, 1000)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert 100 * 1000 * 25 / 1.5 <= peak <= 1.5 * 100 * 1000 * 25  # the check counts what is allocated
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 2**20)
    with pytest.raises(ValueError, match=r"^`k` = 1000 would need 2\.4 MiB of memory for the pass@k products"):
        pass_at_k(n, c, 1000, n_resamples=10, rng=0)
    res = pass_at_k(n, c, 400, n_resamples=10, rng=0)  # 0.95 MiB fits
    assert res.per_question[0] == pytest.approx(float(_exact(3000, 1500, 400)), rel=1e-12)


def test_pass_at_1_is_exactly_the_share_correct():
    # c / n, with no exp/log round trip whose last ulp depends on the CPU's vector kernels (issue 35).
    rng = np.random.default_rng(3)
    n = rng.integers(1, 10**6, 5000)
    c = rng.integers(0, n + 1)
    np.testing.assert_array_equal(_pass_at_k_per_question(n, c, 1), c / n)
    # One correct answer: pass@k is exactly k / n.
    np.testing.assert_array_equal(_pass_at_k_per_question(np.full(4, 20), np.ones(4, int), 3), np.full(4, 3 / 20))
    # The chapter 15 benchmark's pass@1 (1032 of 3200 answers) is the exact share, not 0.32250000000000006.
    correct = np.r_[np.full(32, 12), np.full(128, 5)]
    assert pass_at_k(np.full(160, 20), correct, 1, n_resamples=10, rng=0).estimate == (32 * 12 + 128 * 5) / 3200


def test_pass_at_k_is_correctly_rounded_where_the_product_is_short():
    # Two ratios: 1 - (1 - a)(1 - b) = a + b(1 - a), each term within an ulp; against exact fractions.
    cases = [(n, c, 2) for n in range(2, 400) for c in range(n - 1)]
    n, c, _ = (np.array(x) for x in zip(*cases))
    got = _pass_at_k_per_question(n, c, 2)
    want = np.array([float(_exact(int(a), int(b), 2)) for a, b in zip(n, c)])
    np.testing.assert_allclose(got, want, rtol=4 * np.finfo(float).eps, atol=0)


def test_sampled_means_hold_at_the_float64_limits():
    x = np.array([[1.0, 3.0], [2.0, 0.0], [5.0, 1.0], [0.0, 0.0]])
    y = np.array([[0.0, 1.0], [2.0, 1.0], [1.0, 1.0], [1.0, 0.0]])
    ref = sampled_mean(x)
    # Scores of 1e-300: the squares underflowed and the means were called "all equal".
    tiny = sampled_mean(x * 1e-300)
    assert tiny.estimate == pytest.approx(ref.estimate * 1e-300, rel=1e-14)
    assert tiny.standard_error == pytest.approx(ref.standard_error * 1e-300, rel=1e-14)
    assert tiny.standard_error_naive == pytest.approx(ref.standard_error_naive * 1e-300, rel=1e-14)
    assert tiny.design_effect == pytest.approx(ref.design_effect, rel=1e-14)
    pair = sampled_paired_difference(x * 1e-300, y * 1e-300)
    assert pair.standard_error == pytest.approx(sampled_paired_difference(x, y).standard_error * 1e-300, rel=1e-14)
    # A variance beyond float64 was returned as inf with a RuntimeWarning; it is refused, without warnings.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"overflows float64 \(variance_between, variance_within not finite\)"):
            sampled_mean([[1e200, -1e200], [1.0, 0.0], [0.0, 1.0]])
        with pytest.raises(ValueError, match=r"overflows float64 \(estimate not finite\)"):
            sampled_paired_difference([[1e308, 1e308], [1e308, 0.0]], [[-1e308, -1e308], [0.0, 0.0]])


@pytest.mark.parametrize(
    ("groups", "error", "match"),
    [
        ([None, "a", "b", "b"], ValueError, r"^`groups` holds NaN labels \(missing: NaN or None\) at position\(s\) 0"),
        (np.array([np.nan, "a", "b", "b"], dtype=object), ValueError, r"^`groups` holds NaN labels"),
        ([None] * 4, ValueError, r"position\(s\) 0, 1, 2, \.\.\. \(4 values\)"),
        # An object array's 1 and "1" were merged as the text "1"; bootstrap_ci refuses labels that do not sort together.
        (np.array([1, "1", 2, "2"], dtype=object), TypeError, r"^`groups` labels must be comparable with each other"),
    ],
)
def test_sampled_mean_refuses_missing_or_mixed_group_labels(groups, error, match):
    with pytest.raises(error, match=match):
        sampled_mean([[1, 1, 1], [1, 0, 1], [0, 0, 1], [0, 0, 0]], groups=groups)


def test_questions_needed_at_the_float64_limits():
    # The square of the target overflowed (OverflowError) or underflowed (a divide-by-zero warning).
    assert questions_needed(0.15, 0.1, target_standard_error=1e200) == 1
    assert questions_needed(1e-300, 1e-300, target_standard_error=1e-150) == 2
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for call in (lambda: questions_needed(0.15, 0.1, target_standard_error=1e-300),
                     lambda: questions_needed(1e308, 1e308, target_standard_error=1.0)):
            with pytest.raises(ValueError, match=r"^\(`variance_between` \+ `variance_within` / `n_samples`\) / "
                                                 r"`target_standard_error`\*\*2 asks for more than 2\*\*53 questions"):
                call()


# --------------------------------------------------------------------------- exact messages, boundaries, fields (mutation testing)


def test_pass_at_k_names_every_argument_in_its_messages():
    with pytest.raises(ValueError, match=r"^`n_samples` and `n_correct` must broadcast to a common shape"):
        pass_at_k([10, 10, 10], [1, 2], 1)
    with pytest.raises(ValueError, match=r"^`n_correct` must be non-negative; got -1\.$"):
        pass_at_k([10, 10, 10], [0, -1, 2], 1)
    with pytest.raises(ValueError, match=r"^`k` = 5 exceeds `n_samples` for some question \(question 1 has 4 "
                                         r"sample\(s\)\): pass@k needs at least k samples of every question\.$"):
        pass_at_k([10, 4], [3, 1], 5)


def test_pass_at_k_with_exactly_k_samples_and_its_defaults():
    # n = k is allowed: a question with a correct answer among its k passes for sure.
    res = pass_at_k([3, 3, 5], [1, 0, 1], 3, n_resamples=50, rng=0)
    np.testing.assert_allclose(res.per_question, [1.0, 0.0, 1 - float(Fraction(math.comb(4, 3), math.comb(5, 3)))])
    # The default is 10,000 resamples, the bootstrap behind the interval is returned.
    res = pass_at_k([10, 10, 10, 10], [0, 3, 10, 5], 2, rng=0)
    ref = bootstrap_ci(res.per_question, rng=0)
    assert res.bootstrap.n_resamples == 10_000
    assert res.bootstrap.confidence_interval == ref.confidence_interval == res.confidence_interval
    np.testing.assert_array_equal(res.bootstrap.bootstrap_distribution, ref.bootstrap_distribution)


def test_sampled_means_name_every_argument_in_their_messages():
    x = [[1, 0], [0, 1]]
    for call, match in [
        (lambda: sampled_paired_difference([1, 0], x), r"^`scores_a` must be a 2-D array"),
        (lambda: sampled_paired_difference(x, [1, 0]), r"^`scores_b` must be a 2-D array"),
        (lambda: sampled_paired_difference([[1, 0, 1], [0, 1, 1]], [[1, 0, 1]] * 3),
         r"same number of rows; got 2 and 3\.$"),
        (lambda: sampled_paired_difference(x, x, confidence_level=1.5), r"^`confidence_level`"),
        (lambda: sampled_mean([[1, 0, 1]]), r"^`scores` must hold at least 2 questions \(rows\); got 1\.$"),
        (lambda: sampled_mean([[1, 0], [np.nan, np.nan]]),
         r"^`scores` has question\(s\) without any sample \(rows 1 are all NaN\): a failed question is never "
         r"dropped silently; score it, or remove it explicitly\.$"),
        (lambda: sampled_mean([[1, 0], [1, 0]]),
         r"^The question means of `scores` are all equal: the clustered standard error is zero, and no interval "
         r"or test can be built on it\.$"),
        (lambda: sampled_mean(x, groups=[[1, 2], [3]]), r"^`groups` must be a rectangular array"),
        (lambda: sampled_mean(x, groups=["a", None]),
         r"^`groups` holds NaN labels \(missing: NaN or None\) at position\(s\) 1; every question needs its group\.$"),
        (lambda: sampled_mean(x, groups=np.array([1, "a"], dtype=object)),
         r"^`groups` labels must be comparable with each other \(all numbers or all strings: 1 and \"1\" would print "
         r"alike\); "
         r"got labels of types int, str\.$"),
        (lambda: sampled_mean(x, groups=[7, 7]),
         r"^`groups` must hold at least 2 distinct groups: one group gives no clustered error\.$"),
    ]:
        with pytest.raises((ValueError, TypeError), match=match):
            call()


def test_sampled_mean_takes_booleans_and_two_groups():
    x = np.array([[1, 1, 0], [1, 0, 0], [0, 0, 0], [1, 1, 1]])
    res = sampled_mean(x.astype(bool), groups=["a", "a", "b", "b"], confidence_level=0.9)
    ref = sampled_mean(x.astype(float), groups=["a", "a", "b", "b"], confidence_level=0.9)
    assert res == ref
    m = x.mean(axis=1)
    sums = [m[:2].sum() - 2 * m.mean(), m[2:].sum() - 2 * m.mean()]
    assert res.standard_error == pytest.approx(math.sqrt(2 * (sums[0] ** 2 + sums[1] ** 2) / 16), rel=1e-14)
    assert (res.n_clusters, res.n_questions, res.confidence_level) == (2, 4, 0.9)


def test_sampled_mean_one_sample_questions_raise_no_warning_and_zero_within_is_zero():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = sampled_mean([[1.0, 0.0], [0.0, np.nan], [1.0, 1.0]])
    assert res.variance_within == pytest.approx(0.5 / 2)
    # Every question's samples agree: the within-question variance is exactly 0, not a default.
    assert sampled_mean([[1.0, 1.0], [0.0, 0.0], [1.0, 1.0]]).variance_within == 0.0


def test_a_zero_naive_standard_error_gives_an_infinite_design_effect():
    # Every sample is 0.1, but a mean over three of them rounds to 0.10000000000000002: the question
    # means differ by rounding while the samples do not.
    res = sampled_mean([[0.1, 0.1, 0.1], [0.1, np.nan, np.nan]])
    assert res.standard_error > 0 and res.standard_error_naive == 0.0 and res.design_effect == math.inf


def test_sampled_mean_rescales_means_and_scores_separately():
    # Scores near 1e152 (their squares need a rescaling) with question means near 1 (theirs do not).
    x = np.array([[1e152, -1e152], [1.0, 0.0], [0.0, 1.0]])
    res = sampled_mean(x)
    m = np.array([0.0, 0.5, 0.5])
    se = m.std(ddof=1) / math.sqrt(3)
    naive = (x / 1e152).std(ddof=1) * 1e152 / math.sqrt(6)
    assert res.standard_error == pytest.approx(se, rel=1e-14)
    assert res.standard_error_naive == pytest.approx(naive, rel=1e-14)
    assert res.design_effect == pytest.approx((se / naive) ** 2, rel=1e-12)
    assert res.variance_within == pytest.approx(2e304 / 3, rel=1e-14)


def test_sampled_means_of_tiny_scores_keep_their_interval():
    x = np.array([[1.0, 3.0], [2.0, 0.0], [5.0, 1.0], [0.0, 0.0]])
    ref, tiny = sampled_mean(x), sampled_mean(x * 1e-300)
    for got, want in zip(tiny.confidence_interval, ref.confidence_interval):
        assert got == pytest.approx(want * 1e-300, rel=1e-13)


def test_paired_difference_variance_split_with_unequal_samples_by_hand():
    nan = np.nan
    a = np.array([[0.2, 0.9, nan], [0.5, 0.1, 0.7], [0.3, nan, nan], [0.8, 0.4, nan]])
    b = np.array([[0.6, nan, nan], [0.3, 0.35, 0.9], [0.1, 0.5, nan], [0.2, 0.0, nan]])
    res = sampled_paired_difference(a, b)
    ma, mb = np.nanmean(a, axis=1), np.nanmean(b, axis=1)
    both = [1, 3]  # the questions where each model has 2 samples or more
    va, vb = np.nanvar(a[both], axis=1, ddof=1), np.nanvar(b[both], axis=1, ddof=1)
    ca, cb = np.sum(~np.isnan(a[both]), axis=1), np.sum(~np.isnan(b[both]), axis=1)
    d = ma - mb
    assert res.variance_within == pytest.approx(np.mean(va + vb), rel=1e-14)
    between = d.var(ddof=1) - np.mean(va / ca + vb / cb)
    assert res.variance_between == pytest.approx(between, rel=1e-14)
    # One sample per question for B: no variance split.
    res1 = sampled_paired_difference(a, b[:, :1])
    assert res1.variance_between is None and res1.variance_within is None


def test_paired_difference_clustered_by_groups_is_cr1_by_hand():
    rng = np.random.default_rng(9)
    a, b = rng.random((12, 3)), rng.random((12, 2))
    groups = np.repeat(np.arange(4), 3)
    res = sampled_paired_difference(a, b, groups=groups, confidence_level=0.8)
    d = a.mean(axis=1) - b.mean(axis=1)
    sums = [np.sum(d[groups == g] - d.mean()) for g in range(4)]
    assert res.standard_error == pytest.approx(math.sqrt(4 / 3 * np.sum(np.square(sums)) / 144), rel=1e-13)
    assert (res.n_clusters, res.confidence_level) == (4, 0.8)


@pytest.mark.parametrize("tiny_model", ["a", "b"])
def test_paired_difference_rescales_by_both_models(tiny_model):
    # One model scores 0 throughout: the other model's tiny scores alone set the scale.
    x = np.array([[1.0, 3.0], [2.0, 0.0], [5.0, 1.0], [0.0, 0.0]]) * 1e-300
    zero = np.zeros_like(x)
    res = sampled_paired_difference(x, zero) if tiny_model == "a" else sampled_paired_difference(zero, -x)
    ref = sampled_mean(x)
    assert res.estimate == pytest.approx(ref.estimate, rel=1e-14)
    assert res.standard_error == pytest.approx(ref.standard_error, rel=1e-14)
    assert res.variance_within == pytest.approx(ref.variance_within, rel=1e-14)
    # Unscaled, the squares of 1e-300 underflow and the naive standard error came out 0.
    assert res.standard_error_naive == pytest.approx(ref.standard_error_naive, rel=1e-14)
    assert res.design_effect == pytest.approx(ref.design_effect, rel=1e-14)


def test_overflows_are_refused_naming_the_field_and_the_arguments():
    with pytest.raises(ValueError, match=r"^The result overflows float64 \(variance_between, variance_within not "
                                         r"finite\): the values of `scores` are too large"):
        sampled_mean([[1e200, -1e200], [1.0, 0.0], [0.0, 1.0]])
    with pytest.raises(ValueError, match=r"^The result overflows float64 \(estimate not finite\): the values of "
                                         r"`scores_a` and `scores_b` are too large"):
        sampled_paired_difference([[1e308, 1e308], [1e308, 0.0]], [[-1e308, -1e308], [0.0, 0.0]])
    # Every sample independent: s_A^2 / N_A + s_B^2 / N_B overflows while the differences do not.
    with pytest.raises(ValueError, match=r"^The result overflows float64 \(standard_error_naive, confidence_interval not finite\): the "
                                         r"values of `scores_a` and `scores_b` are too large"):
        sampled_paired_difference([[1.5e308], [-1.5e308]], [[1.5e308], [-0.75e308]])


def test_questions_needed_messages_defaults_and_bounds():
    for kwargs, match in [
        (dict(variance_within=-0.1), r"^`variance_within` must be at least 0 \(take a negative estimate as 0\); "
                                     r"got -0\.1\.$"),
        (dict(variance_between=0.0, variance_within=0.0),
         r"^`variance_between` and `variance_within` are both 0: any one question would do\.$"),
        (dict(target_standard_error=-1.0), r"^`target_standard_error`"),
        (dict(n_samples=1.5), r"^`n_samples` must hold whole numbers"),
        (dict(n_samples=[0, 1, 2]), r"^`n_samples` must be at least 1; got 0\.$"),
    ]:
        with pytest.raises(ValueError, match=match):
            questions_needed(**{"variance_between": 0.15, "variance_within": 0.1, "target_standard_error": 0.01,
                                **kwargs})
    assert questions_needed(0.15, 0.10, target_standard_error=0.01) == 2500  # one sample per question
    got = questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=[1, 4])
    assert got.dtype == np.int64
    # Exactly 2**53 questions is the largest design; 1e16 is beyond it.
    assert questions_needed(2.0**53, 0.0, target_standard_error=1.0) == 2**53
    assert questions_needed(2.0**53 - 2, 0.0, target_standard_error=1.0) == 2**53 - 2
    with pytest.raises(ValueError, match=r"more than 2\*\*53 questions"):
        questions_needed(1e16, 0.0, target_standard_error=1.0)


def test_an_interval_that_overflows_is_refused_not_returned_infinite():
    # t x SE overflows although the estimate and the SE are finite.
    with pytest.raises(ValueError, match=r"confidence_interval not finite"):
        sampled_paired_difference([[1e308], [-1e308]], [[1e308], [-0.5e308]])


def test_group_labels_that_numpy_would_merge_as_text_are_refused():
    x = np.random.default_rng(0).random((40, 3))
    with pytest.raises(TypeError, match=r"^`groups` labels must be comparable with each other \(all numbers or all strings: 1 and \"1\""):
        sampled_mean(x, groups=[1, "1"] * 20)
    with pytest.raises(TypeError, match=r"^`groups` labels must be comparable with each other"):
        bootstrap_ci(x[:, 0], groups=[1, "1"] * 20)
    assert sampled_mean(x, groups=["a", "b"] * 20).n_clusters == sampled_mean(x, groups=[1, 2] * 20).n_clusters == 2

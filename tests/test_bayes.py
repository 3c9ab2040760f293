"""sigeval.bayes: the correlated t-test, the Bayesian paired t, the signed-rank and sign tests.

Checked against closed forms (scipy's t distribution), a plain loop over the
same posterior draws, and baycomp (installed only in the test run).
"""

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    DirichletPosterior,
    StudentPosterior,
    bayesian_paired_t,
    bayesian_sign_test,
    bayesian_signed_rank,
    correlated_ttest,
    paired_difference,
)
from sigeval import bayes as bayes_module


def _t_probabilities(loc, scale, df, rope):
    """P(delta > r), P(|delta| <= r), P(delta < -r) by scipy's t, plainly."""
    dist = stats.t(df, loc=loc, scale=scale)
    return 1 - dist.cdf(rope), dist.cdf(rope) - dist.cdf(-rope), dist.cdf(-rope)


# --------------------------------------------------------------------------- the correlated t-test


@pytest.mark.parametrize("k", [2, 5, 10])
@pytest.mark.parametrize("rope", [0.0, 0.005, 0.02])
def test_correlated_ttest_is_the_closed_form_t_posterior(k, rope):
    rng = np.random.default_rng(k)
    for n in (k, 3 * k):
        d = rng.normal(0.01, 0.02, n)
        post = correlated_ttest(d, test_fraction=1 / k, rope=rope)
        rho = 1 / k
        scale = np.std(d, ddof=1) * np.sqrt(1 / n + rho / (1 - rho))
        assert isinstance(post, StudentPosterior)
        assert (post.df, post.n, post.rope) == (n - 1, n, rope)
        assert post.loc == pytest.approx(np.mean(d), rel=1e-12)
        assert post.scale == pytest.approx(scale, rel=1e-12)
        expected = _t_probabilities(np.mean(d), scale, n - 1, rope)
        got = (post.prob_a_better, post.prob_rope, post.prob_b_better)
        np.testing.assert_allclose(got, expected, rtol=1e-9, atol=1e-14)
        if rope == 0:
            assert post.prob_rope == 0.0


def test_correlated_ttest_matches_baycomp():
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(0)
    for runs, folds in ((1, 10), (3, 5), (10, 10)):
        a = rng.normal(0.80, 0.02, runs * folds)
        b = a - rng.normal(0.004, 0.01, runs * folds)
        for rope in (0.0, 0.002, 0.01):
            post = correlated_ttest(a - b, test_fraction=1 / folds, rope=rope)
            ref = baycomp.CorrelatedTTest(a, b, rope=rope, runs=runs)
            # baycomp's difference is y - x: its "left" is x = A better.
            assert post.loc == pytest.approx(-ref.mean, rel=1e-12)
            assert post.scale == pytest.approx(np.sqrt(ref.var), rel=1e-12)
            assert post.df == ref.df
            probs = ref.probs()
            if rope > 0:
                np.testing.assert_allclose(
                    (post.prob_a_better, post.prob_rope, post.prob_b_better), probs, rtol=1e-9, atol=1e-13)
            else:
                np.testing.assert_allclose((post.prob_a_better, post.prob_b_better), probs, rtol=1e-9, atol=1e-13)


def test_correlated_ttest_worked_example():
    d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01]
    post = correlated_ttest(d, test_fraction=0.1, rope=0.01)
    # s = 0.011972, scale = s * sqrt(1/10 + 1/9) = 0.0055008
    assert post.scale == pytest.approx(0.011972189997378647 * np.sqrt(0.1 + 1 / 9), rel=1e-12)
    assert post.prob_a_better == pytest.approx(stats.t.sf((0.01 - 0.019) / post.scale, 9), rel=1e-12)


def test_the_correlated_prior_widens_the_posterior():
    d = np.random.default_rng(1).normal(0.01, 0.01, 10)
    plain = bayesian_paired_t(d, np.zeros(10))
    wider = [correlated_ttest(d, test_fraction=f).scale for f in (0.01, 0.1, 0.5, 0.9)]
    assert plain.scale < wider[0] < wider[1] < wider[2] < wider[3]
    assert correlated_ttest(d, test_fraction=0.5).scale == pytest.approx(np.std(d, ddof=1) * np.sqrt(1.1))


def test_tail_probabilities_far_out_are_kept():
    # The ROPE holds a tiny probability far in a tail of the posterior: 1 - P(A) - P(B) would
    # lose it to cancellation; the tail on the side of zero keeps it.
    d = 10.0 + np.linspace(-1e-3, 1e-3, 30)
    post = correlated_ttest(d, test_fraction=0.1, rope=9.99)
    tail = stats.t.cdf((9.99 - post.loc) / post.scale, 29)
    assert 0 < tail < 1e-15 and post.prob_a_better == 1.0  # 1 - P(A) - P(B) would be 0 or below
    assert post.prob_rope == pytest.approx(tail, rel=1e-9)
    far = correlated_ttest(-d, test_fraction=0.1, rope=9.99)
    assert far.prob_rope == pytest.approx(post.prob_rope, rel=1e-9)
    assert far.prob_b_better == pytest.approx(post.prob_a_better, rel=1e-12)
    # Inside a wide rope: all the mass.
    below = correlated_ttest([-1e-3, 1e-3, 0.0, 2e-3, -2e-3], test_fraction=0.2, rope=0.5)
    assert below.prob_rope == pytest.approx(1.0, abs=1e-9)


# --------------------------------------------------------------------------- the Bayesian paired t


def test_bayesian_paired_t_is_the_t_posterior_of_the_mean_difference():
    rng = np.random.default_rng(2)
    for n in (2, 3, 8, 40):
        b = rng.normal(0.7, 0.02, n)
        a = b + rng.normal(0.005, 0.01, n)
        for rope in (0.0, 0.003):
            post = bayesian_paired_t(a, b, rope=rope)
            d = a - b
            scale = np.std(d, ddof=1) / np.sqrt(n)
            assert post.loc == pytest.approx(d.mean(), rel=1e-10)
            assert post.scale == pytest.approx(scale, rel=1e-10)
            assert post.df == n - 1 and post.n == n
            np.testing.assert_allclose((post.prob_a_better, post.prob_rope, post.prob_b_better),
                                       _t_probabilities(d.mean(), scale, n - 1, rope), rtol=1e-9, atol=1e-14)
            # Its central 95% interval is the paired t interval.
            ci = paired_difference(a, b).confidence_interval
            np.testing.assert_allclose(stats.t.interval(0.95, post.df, post.loc, post.scale), tuple(ci), rtol=1e-10)


def test_bayesian_paired_t_is_the_correlated_t_without_correlation():
    a = [0.71, 0.69, 0.74, 0.70, 0.72, 0.68]
    b = [0.70, 0.69, 0.71, 0.71, 0.69, 0.66]
    d = np.subtract(a, b)
    near = correlated_ttest(d, test_fraction=1e-12, rope=0.01)
    post = bayesian_paired_t(a, b, rope=0.01)
    assert post.scale == pytest.approx(near.scale, rel=1e-9)
    assert post.prob_a_better == pytest.approx(near.prob_a_better, rel=1e-9)


# --------------------------------------------------------------------------- zero posterior scale


@pytest.mark.parametrize(
    ("value", "rope", "expected"),
    [
        (0.02, 0.01, (1.0, 0.0, 0.0)),
        (-0.02, 0.01, (0.0, 0.0, 1.0)),
        (0.005, 0.01, (0.0, 1.0, 0.0)),
        (0.01, 0.01, (0.0, 1.0, 0.0)),  # on the boundary: |delta| <= r is equivalence
        (-0.01, 0.01, (0.0, 1.0, 0.0)),
        (0.02, 0.0, (1.0, 0.0, 0.0)),
        (-0.02, 0.0, (0.0, 0.0, 1.0)),
        (0.0, 0.0, (0.5, 0.0, 0.5)),  # a point mass at 0 without a rope: half to each side
        (0.0, 0.01, (0.0, 1.0, 0.0)),
    ],
)
def test_equal_differences_are_a_point_mass_at_their_mean(value, rope, expected):
    post = correlated_ttest(np.full(5, value), test_fraction=0.2, rope=rope)
    assert post.scale == 0.0 and post.loc == pytest.approx(value, abs=1e-18)
    assert (post.prob_a_better, post.prob_rope, post.prob_b_better) == expected
    paired = bayesian_paired_t(np.full(4, 1.0) + value, np.full(4, 1.0), rope=rope)
    assert paired.scale == 0.0
    if abs(abs(value) - rope) > 1e-9:  # 1 + value - 1 is not exactly value on the boundary
        assert (paired.prob_a_better, paired.prob_rope, paired.prob_b_better) == expected


def test_differences_equal_up_to_rounding_have_zero_scale():
    d = np.array([0.1, 0.1 + 1e-17 * 3, 0.1 - 2.7e-17, 0.1])
    assert np.std(d) > 0
    post = correlated_ttest(d, test_fraction=0.25, rope=0.05)
    assert post.scale == 0.0 and post.prob_a_better == 1.0
    # Scores near 1.8e308 whose differences are rounding: zero spread relative to the scores.
    a = np.array([1.5e308, 1.5e308, 1.5e308])
    b = a - np.array([1e292, 1e292, 1e292 * (1 + 1e-15)])
    assert bayesian_paired_t(a, b).scale == 0.0


def test_values_near_the_float_limits_stay_finite():
    post = correlated_ttest([1e308, -1e308, 1.5e308, 0.0], test_fraction=0.1, rope=1e308)
    assert np.isfinite([post.loc, post.scale, post.prob_rope]).all()
    np.testing.assert_allclose(post.prob_a_better + post.prob_rope + post.prob_b_better, 1.0)
    tiny = correlated_ttest([1e-310, 2e-310, 3e-310], test_fraction=0.5)
    assert tiny.scale > 0 and tiny.prob_a_better > 0.5
    with pytest.raises(ValueError, match="overflows float64"):
        correlated_ttest([1.7e308, -1.7e308] * 3, test_fraction=1 - 1e-9)


# --------------------------------------------------------------------------- the signed-rank test


def _signed_rank_loop(z, rope, prior, weights):
    """baycomp's algorithm: for each posterior sample, the quadratic forms over all pairs, one at a time."""
    values = np.r_[0.0, z]
    theta = np.zeros((weights.shape[0], 3))
    for k, w in enumerate(weights):
        for i in range(values.size):
            for j in range(values.size):
                twice_walsh = values[i] + values[j]  # twice the Walsh average, against twice the rope
                weight = w[i] * w[j]
                theta[k, 0] += weight * ((twice_walsh > 2 * rope) + 0.5 * (twice_walsh == 2 * rope))
                if rope > 0:
                    theta[k, 2] += weight * ((twice_walsh < -2 * rope) + 0.5 * (twice_walsh == -2 * rope))
        if rope > 0:
            theta[k, 1] = 1 - theta[k, 0] - theta[k, 2]
        else:
            theta[k, 2] = 1 - theta[k, 0]
    return theta


@pytest.mark.parametrize("rope", [0.0, 0.01, 0.02])
@pytest.mark.parametrize("prior", [0.5, 1.0, 3.0])
def test_signed_rank_matches_a_plain_loop_over_the_same_draws(rope, prior):
    a = np.array([0.81, 0.74, 0.92, 0.66, 0.88, 0.79])
    b = np.array([0.80, 0.70, 0.90, 0.67, 0.84, 0.80])  # one difference of exactly 0.01 meets the rope
    post = bayesian_signed_rank(a, b, rope=rope, prior_strength=prior, n_draws=300, rng=7)
    weights = np.random.default_rng(7).dirichlet(np.r_[prior, np.ones(6)], 300)
    loop = _signed_rank_loop(a - b, rope, prior, weights)
    np.testing.assert_allclose(post.posterior_samples, loop, rtol=0, atol=1e-12)
    winners = np.bincount(np.argmax(loop, axis=1), minlength=3) / 300
    np.testing.assert_allclose((post.prob_a_better, post.prob_rope, post.prob_b_better), winners, atol=1e-12)
    assert isinstance(post, DirichletPosterior)
    assert (post.n, post.n_draws, post.rope, post.prior_strength) == (6, 300, rope, prior)


def test_signed_rank_matches_baycomp_in_distribution():
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(3)
    b = rng.uniform(0.6, 0.9, 12)
    a = b + rng.normal(0.006, 0.012, 12)
    n = 40_000
    for rope in (0.0, 0.005, 0.01):
        post = bayesian_signed_rank(a, b, rope=rope, n_draws=n, rng=1)
        ref = baycomp.SignedRankTest(a, b, rope=rope, nsamples=n, random_state=2)
        ours = np.array([post.prob_a_better, post.prob_rope, post.prob_b_better])
        theirs = np.array(ref.probs())
        # Two independent Monte Carlo estimates of one probability: within 5 standard errors.
        se = np.sqrt(2 * theirs * (1 - theirs) / n) + 1e-12
        assert np.all(np.abs(ours - theirs) <= 5 * se + 1e-4), (ours, theirs)
        for column in range(3):
            q = [0.1, 0.5, 0.9]
            np.testing.assert_allclose(np.quantile(post.posterior_samples[:, column], q),
                                       np.quantile(ref.sample[:, column], q), atol=0.01)


def test_signed_rank_in_chunks_gives_the_same_samples(monkeypatch):
    a = np.random.default_rng(4).normal(0, 1, 9)
    b = np.random.default_rng(5).normal(0, 1, 9)
    whole = bayesian_signed_rank(a, b, rope=0.2, n_draws=1001, rng=0)
    monkeypatch.setattr(bayes_module, "_CHUNK_ELEMENTS", 37)  # 3 samples of 10 weights per block
    chunked = bayes_module.bayesian_signed_rank(a, b, rope=0.2, n_draws=1001, rng=0)
    np.testing.assert_allclose(whole.posterior_samples, chunked.posterior_samples, rtol=0, atol=1e-15)
    monkeypatch.setattr(bayes_module, "_CHUNK_ELEMENTS", 1)  # one sample per block
    one = bayes_module.bayesian_signed_rank(a, b, rope=0.2, n_draws=50, rng=0)
    np.testing.assert_allclose(one.posterior_samples, whole.posterior_samples[:50], atol=1e-15)


def test_signed_rank_ties_between_regions_count_half():
    # Every difference 0 without a rope: A and B each win half of each sample's mass.
    post = bayesian_signed_rank([0.5, 0.6, 0.7], [0.5, 0.6, 0.7], n_draws=1000, rng=0)
    np.testing.assert_allclose(post.posterior_samples[:, [0, 2]], 0.5, atol=1e-12)
    assert (post.prob_a_better, post.prob_rope, post.prob_b_better) == (0.5, 0.0, 0.5)
    theta = np.array([[0.4, 0.2, 0.4], [0.5, 0.3, 0.2], [0.3, 0.3, 0.3 + 1e-13], [0.2, 0.2, 0.6]])
    # A and B tie, A wins, all three tie within 1e-12, B wins.
    np.testing.assert_allclose(bayes_module._winners(theta), np.array([0.5 + 1 + 1 / 3, 1 / 3, 0.5 + 1 / 3 + 1]) / 4)


def test_signed_rank_with_huge_scores():
    a = np.array([1.5e308, 1.6e308, 1.7e308, 1.2e308])
    b = a - np.array([1e307, 2e307, 3e307, -1e306])
    post = bayesian_signed_rank(a / 2, -b / 2, rope=1e307, n_draws=2000, rng=0)
    assert np.isfinite(post.posterior_samples).all() and post.prob_a_better > 0.99
    scaled = bayesian_signed_rank(a / 2 / 1e300, -b / 2 / 1e300, rope=1e7, n_draws=2000, rng=0)
    np.testing.assert_allclose(post.posterior_samples, scaled.posterior_samples, atol=1e-12)
    # Differences far below the rope's magnitude: all in the rope.
    tiny = bayesian_signed_rank([1.0, 2.0], [1.0, 2.0 + 1e-300], rope=1.7e308, n_draws=100, rng=0)
    assert tiny.prob_rope == 1.0


def test_signed_rank_uses_the_datasets_signs():
    # A better on every dataset by far more than the rope: A better in every sample but
    # those in which the prior's pseudo-observation at 0 carries most of the weight.
    a = np.arange(10) / 10 + 0.1
    post = bayesian_signed_rank(a, a - 0.05, rope=0.01, n_draws=5000, rng=0)
    assert post.prob_a_better > 0.99 and post.prob_b_better == 0.0
    swapped = bayesian_signed_rank(a - 0.05, a, rope=0.01, n_draws=5000, rng=0)
    np.testing.assert_array_equal(swapped.posterior_samples, post.posterior_samples[:, ::-1])


def test_signed_rank_memory_is_refused_up_front():
    with pytest.raises(ValueError, match="`n_draws` = .* would need .* of memory"):
        bayesian_signed_rank([0.1, 0.2, 0.3], [0.0, 0.1, 0.4], n_draws=2**30, rng=0)
    # Many tasks need no n x n table any more: the work (one weight per draw and task) is what is bounded.
    post = bayesian_signed_rank(np.zeros(30_000), np.ones(30_000), n_draws=2, rng=0)
    assert post.prob_b_better == 1.0
    with pytest.raises(ValueError, match=r"^`n_draws` = 50000 with 30000 tasks would draw 1\.5e\+09 posterior "
                                         r"weights \(n_draws x \(tasks \+ 1\)\); the limit is 1\.07e\+09, a minute "
                                         r"or two of work\. Choose a smaller `n_draws`\.$"):
        bayesian_signed_rank(np.zeros(30_000), np.ones(30_000), rng=0)


def test_signed_rank_work_limit_admits_its_value(monkeypatch):
    # At most _MAX_WEIGHTS weights (n_draws x (tasks + 1)): exactly the limit is drawn, one more sample is not.
    monkeypatch.setattr(bayes_module, "_MAX_WEIGHTS", 20)
    a, b = [0.1, 0.2, 0.3, 0.4], [0.0, 0.3, 0.1, 0.2]
    assert bayes_module.bayesian_signed_rank(a, b, n_draws=4, rng=0).posterior_samples.shape == (4, 3)
    with pytest.raises(ValueError, match=r"^`n_draws` = 5 with 4 tasks would draw 25 posterior weights"):
        bayes_module.bayesian_signed_rank(a, b, n_draws=5, rng=0)


def test_signed_rank_memory_counts_the_chunk_that_is_drawn():
    # 8 bytes x (3 numbers per sample + 5 arrays of one chunk: 2**18 // (m + 1) samples of m + 1 numbers, at
    # most n_draws samples and at least one).
    assert bayes_module._signed_rank_bytes(10**6, 9) == 8 * (3 * 10**6 + 5 * 26_214 * 10)
    assert bayes_module._signed_rank_bytes(100, 9) == 8 * (3 * 100 + 5 * 100 * 10)
    assert bayes_module._signed_rank_bytes(2, 300_000) == 8 * (3 * 2 + 5 * 1 * 300_001)


def _signed_rank_before_issue_40(z, rope, prior, n_draws, rng):
    """The previous implementation (the n x n tables of the Walsh sums and a matrix product per chunk of
    samples), kept as the oracle of the O(n) one."""
    values = np.r_[0.0, z]
    sums = values[:, None] + values[None, :]
    above = (sums - 2 * rope > 0) + 0.5 * (sums - 2 * rope == 0)
    below = (-2 * rope - sums > 0) + 0.5 * (-2 * rope - sums == 0)
    weights = np.random.default_rng(rng).dirichlet(np.r_[prior, np.ones(z.size)], n_draws)
    theta = np.zeros((n_draws, 3))
    theta[:, 0] = np.sum((weights @ above) * weights, axis=1)
    if rope > 0:
        theta[:, 2] = np.sum((weights @ below) * weights, axis=1)
        theta[:, 1] = 1 - theta[:, 0] - theta[:, 2]
    else:
        theta[:, 2] = 1 - theta[:, 0]
    return np.clip(theta, 0.0, 1.0)


@pytest.mark.parametrize("n, rope, prior, decimals", [(300, 0.0, 0.5, 2), (300, 0.01, 0.5, 2), (1000, 0.005, 1.0, 3),
                                                      (77, 0.02, 0.05, 15), (2, 0.0, 2.0, 1)])
def test_signed_rank_equals_the_implementation_with_the_table_of_walsh_sums(n, rope, prior, decimals):
    # Same draws; the sums of products differ in order only: 1e-12, and the same region wins in every sample.
    rng = np.random.default_rng(n)
    z = np.round(rng.normal(0.004, 0.01, n), decimals)  # rounded: many sums meet the rope exactly
    post = bayesian_signed_rank(z, np.zeros(n), rope=rope, prior_strength=prior, n_draws=3000, rng=5)
    old = _signed_rank_before_issue_40(z, rope, prior, 3000, 5)
    np.testing.assert_allclose(post.posterior_samples, old, rtol=0, atol=1e-12)
    winners = bayes_module._winners(old)
    assert (post.prob_a_better, post.prob_rope, post.prob_b_better) == tuple(winners)


def test_the_sums_below_a_level_are_counted_as_the_rounded_sums_compare():
    rng = np.random.default_rng(0)
    for v in (np.sort(np.round(rng.normal(0, 1, 200), 1)), np.sort(rng.normal(0, 1, 57)), np.array([0.0]),
              np.array([0.1, 0.2, 0.2, 0.3]) * 3):
        for level in (0.0, 0.3, 0.6000000000000001, -0.2, 5.0, -5.0):
            sums = v[:, None] + v[None, :]
            for inclusive in (False, True):
                expected = (sums <= level if inclusive else sums < level).sum(axis=1)
                got = bayes_module._count_sums_below(v, level, inclusive=inclusive)
                np.testing.assert_array_equal(got, expected)


@pytest.mark.parametrize("n, n_draws, rope", [(50, 50_000, 0.0), (50, 50_000, 0.01), (500, 20_000, 0.01),
                                                (3000, 3000, 0.0), (10, 100, 0.01)])
def test_signed_rank_memory_check_counts_what_is_allocated(n, n_draws, rope):
    import tracemalloc

    rng = np.random.default_rng(1)
    b = rng.uniform(0.6, 0.9, n)
    a = b + rng.normal(0.005, 0.01, n)
    tracemalloc.start()
    try:
        bayesian_signed_rank(a, b, rope=rope, n_draws=n_draws, rng=0)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    counted = bayes_module._signed_rank_bytes(n_draws, n + 1)
    assert counted / 1.5 <= peak <= 1.5 * counted, (peak, counted)


# --------------------------------------------------------------------------- the sign test


def test_sign_test_is_baycomps_dirichlet_with_a_rope():
    a = np.array([0.81, 0.74, 0.92, 0.66, 0.88, 0.79, 0.71, 0.85, 0.70])
    b = np.array([0.80, 0.70, 0.90, 0.67, 0.84, 0.78, 0.66, 0.84, 0.70])
    post = bayesian_sign_test(a, b, rope=0.015, prior_strength=2.0, n_draws=500, rng=3)
    # Differences .01 .04 .02 -.01 .04 .01 .05 .01 0: four beyond the rope for A, none for B.
    alpha = np.array([4, 5 + 2.0, 0]) + 1e-4
    np.testing.assert_array_equal(post.posterior_samples, np.random.default_rng(3).dirichlet(alpha, 500))
    winners = np.bincount(np.argmax(post.posterior_samples, axis=1), minlength=3) / 500
    np.testing.assert_allclose((post.prob_a_better, post.prob_rope, post.prob_b_better), winners)


def test_sign_test_without_a_rope_splits_zeros_and_the_prior():
    a = np.array([0.81, 0.74, 0.92, 0.66, 0.88, 0.70])
    b = np.array([0.80, 0.70, 0.90, 0.67, 0.84, 0.70])
    post = bayesian_sign_test(a, b, prior_strength=1.0, n_draws=400, rng=5)
    # Four wins for A, one for B, one tie: Beta(4 + 1 + eps, 1 + 1 + eps) (the tie and the prior split).
    theta = np.random.default_rng(5).beta(4 + 1 + 1e-4, 1 + 1 + 1e-4, 400)
    np.testing.assert_array_equal(post.posterior_samples[:, 0], theta)
    np.testing.assert_array_equal(post.posterior_samples[:, 2], 1 - theta)
    assert np.all(post.posterior_samples[:, 1] == 0) and post.prob_rope == 0.0
    assert post.prob_a_better == pytest.approx(np.mean(theta > 0.5), abs=1e-12)


def test_sign_test_matches_baycomp_in_distribution():
    baycomp = pytest.importorskip("baycomp")
    rng = np.random.default_rng(6)
    b = rng.uniform(0.6, 0.9, 15)
    a = b + rng.normal(0.004, 0.01, 15)
    n = 40_000
    post = bayesian_sign_test(a, b, rope=0.005, n_draws=n, rng=1)
    ref = baycomp.SignTest(a, b, rope=0.005, nsamples=n, random_state=2)
    theirs = np.array(ref.probs())
    ours = np.array([post.prob_a_better, post.prob_rope, post.prob_b_better])
    assert np.all(np.abs(ours - theirs) <= 5 * np.sqrt(2 * theirs * (1 - theirs) / n) + 1e-4)
    np.testing.assert_allclose(post.posterior_samples.mean(axis=0), ref.sample.mean(axis=0), atol=0.005)


# --------------------------------------------------------------------------- properties


def _three(post):
    return np.array([post.prob_a_better, post.prob_rope, post.prob_b_better])


def _all_tests(a, b, rope, rng=0):
    return [
        correlated_ttest(np.subtract(a, b), test_fraction=0.1, rope=rope),
        bayesian_paired_t(a, b, rope=rope),
        bayesian_signed_rank(a, b, rope=rope, n_draws=2000, rng=rng),
        bayesian_sign_test(a, b, rope=rope, n_draws=2000, rng=rng),
    ]


@pytest.mark.parametrize("rope", [0.0, 0.004, 0.02])
def test_the_three_probabilities_sum_to_one_and_swap_with_the_models(rope):
    rng = np.random.default_rng(8)
    b = rng.uniform(0.6, 0.9, 10)
    a = b + rng.normal(0.003, 0.01, 10)
    for k, (post, swapped) in enumerate(zip(_all_tests(a, b, rope), _all_tests(b, a, rope))):
        p = _three(post)
        assert np.all(p >= 0) and p.sum() == pytest.approx(1.0, abs=1e-12)
        if k < 3:  # the same draws give the mirrored samples
            np.testing.assert_allclose(_three(swapped), p[::-1], atol=1e-12)
        if rope == 0:
            assert post.prob_rope == 0.0
    # The sign test draws its Dirichlet cell by cell: the swap holds in distribution.
    n = 200_000
    post = bayesian_sign_test(a, b, rope=rope, n_draws=n, rng=1)
    swapped = bayesian_sign_test(b, a, rope=rope, n_draws=n, rng=2)
    p = _three(post)[::-1]
    assert np.all(np.abs(_three(swapped) - p) <= 5 * np.sqrt(2 * p * (1 - p) / n) + 1e-12)


def test_a_wider_rope_never_lowers_prob_rope():
    rng = np.random.default_rng(9)
    b = rng.uniform(0.6, 0.9, 10)
    a = b + rng.normal(0.003, 0.01, 10)
    ropes = [0.0, 0.001, 0.003, 0.006, 0.01, 0.03, 0.1]
    for k in range(4):
        values = [_all_tests(a, b, r)[k].prob_rope for r in ropes]
        assert np.all(np.diff(values) >= -1e-12), (k, values)
        assert values[0] == 0.0 and values[-1] > 0.9


def test_a_shift_beyond_the_rope_wins_as_the_evidence_grows():
    for k in range(4):
        probabilities = []
        for n in (5, 20, 100):
            rng = np.random.default_rng(n)
            b = rng.uniform(0.6, 0.9, n)
            a = b + 0.02 + rng.normal(0, 0.02, n)  # a shift of 0.02 beyond a rope of 0.005
            probabilities.append(_all_tests(a, b, 0.005)[k].prob_a_better)
        assert probabilities[0] < probabilities[2] and probabilities[2] > 0.99, (k, probabilities)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: correlated_ttest([0.1, 0.2], test_fraction=0.1, rope=-0.01), ValueError, "`rope` must be a half-width >= 0"),
        (lambda: correlated_ttest([0.1, 0.2], test_fraction=0.1, rope=float("nan")), ValueError, "`rope` must be finite"),
        (lambda: correlated_ttest([0.1, 0.2], test_fraction=0.1, rope=float("inf")), ValueError, "`rope` must be finite"),
        (lambda: correlated_ttest([0.1, 0.2], test_fraction=0.1, rope="0.1"), TypeError, "`rope` must be a real number"),
        (lambda: correlated_ttest([0.1, 0.2], test_fraction=0.0), ValueError, "`test_fraction` must be strictly between 0 and 1"),
        (lambda: correlated_ttest([0.1, 0.2], test_fraction=1.0), ValueError, "`test_fraction` must be strictly between 0 and 1"),
        (lambda: correlated_ttest([0.1], test_fraction=0.5), ValueError, r"`differences` must hold at least 2 value\(s\); got 1"),
        (lambda: correlated_ttest([0.1, np.nan], test_fraction=0.5), ValueError, "`differences` holds 1 NaN"),
        (lambda: correlated_ttest([[0.1, 0.2]], test_fraction=0.5), ValueError, "`differences` must be one-dimensional"),
        (lambda: bayesian_paired_t([0.1], [0.2]), ValueError, r"`scores_a` must hold at least 2 value\(s\)"),
        (lambda: bayesian_paired_t([0.1, 0.2], [0.2, 0.3, 0.4]), ValueError, "must be paired"),
        (lambda: bayesian_paired_t([1.7e308, 0.0], [-1.7e308, 0.0]), ValueError, "overflow float64"),
        (lambda: bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], prior_strength=0), ValueError, "`prior_strength` must be positive"),
        (lambda: bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], n_draws=0), ValueError, "`n_draws` must be an integer >= 1"),
        (lambda: bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], rope=-1.0), ValueError, "`rope` must be a half-width"),
        (lambda: bayesian_signed_rank([0.1], [0.2]), ValueError, r"at least 2 value\(s\)"),
        (lambda: bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], rng="0"), TypeError, "`rng`"),
        (lambda: bayesian_sign_test([0.1, 0.2], [0.2, 0.1], prior_strength=-1.0), ValueError, "`prior_strength` must be positive"),
        (lambda: bayesian_sign_test([0.1, 0.2], [0.2, np.inf]), ValueError, "`scores_b` holds 1 NaN or infinite"),
        (lambda: bayesian_sign_test([0.1, 0.2], [0.2, 0.1], n_draws=2**31), ValueError, "`n_draws` = .* would need"),
    ],
)
def test_bad_input_is_refused(call, error, match):
    with pytest.raises(error, match=match):
        call()


# --------------------------------------------------------------------------- edges the mutation tests asked for


def test_defaults():
    a, b = [0.71, 0.69, 0.74, 0.70], [0.70, 0.69, 0.71, 0.71]
    assert bayesian_paired_t(a, b).rope == 0.0 and bayesian_paired_t(a, b).prob_rope == 0.0
    assert correlated_ttest(np.subtract(a, b), test_fraction=0.25).rope == 0.0
    for test, prior in ((bayesian_signed_rank, 0.5), (bayesian_sign_test, 1.0)):
        post = test(a, b, rng=0)
        assert (post.n_draws, post.rope, post.prior_strength, post.n) == (50_000, 0.0, prior, 4)
        assert post.posterior_samples.shape == (50_000, 3)
    post = bayesian_sign_test(a, b, rope=0.02, prior_strength=2.5, n_draws=10, rng=0)
    assert (post.rope, post.prior_strength, post.n, post.n_draws) == (0.02, 2.5, 4, 10)


def test_paired_spread_is_judged_against_the_scores():
    # Differences of 1e-9 on scores of 1e6: their sd is rounding error of the scores (1e-15 relative),
    # though not of the differences themselves: a point mass.
    b = np.full(4, 1e6)
    a = b + np.array([1e-9, 2e-9, 3e-9, 4e-9])
    assert bayesian_paired_t(a, b).scale == 0.0
    assert correlated_ttest(a - b, test_fraction=0.1).scale > 0


def test_overflowing_scale_is_refused_naming_the_inputs():
    # The sd of these differences (2.4e308) overflows, the posterior scale sd / sqrt(2) = 1.7e308 does not:
    # computed in units of a power of two, it comes back finite and right.
    post = bayesian_paired_t([8.5e307, -8.5e307], [-8.5e307, 8.5e307])
    assert (post.loc, post.scale, post.prob_a_better) == (0.0, 1.7e308, 0.5)
    with pytest.raises(ValueError, match=r"^The result overflows float64 \(scale not finite\): the values of "
                                         r"`differences` are too large"):
        correlated_ttest([1.7e308, -1.7e308] * 3, test_fraction=1 - 1e-9)


def test_an_overflowing_standardised_rope_is_silent():
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        post = correlated_ttest([1e-310, 2e-310, 3e-310], test_fraction=0.5, rope=1e10)
    assert post.prob_rope == 1.0


@pytest.mark.parametrize("test", [bayesian_signed_rank, bayesian_sign_test, bayesian_paired_t])
def test_overflowing_differences_are_refused_naming_both_inputs(test):
    kwargs = {} if test is bayesian_paired_t else {"n_draws": 10, "rng": 0}
    with pytest.raises(ValueError, match=r"^The differences `scores_a - scores_b` overflow float64 at position\(s\) 0"):
        test([1.7e308, 0.0], [-1.7e308, 0.0], **kwargs)
    with pytest.raises(ValueError, match=r"^`scores_a` must hold at least 2 value\(s\); got 1"):
        test([0.1], [0.2], **kwargs)
    with pytest.raises(ValueError, match=r"^`scores_b` must hold at least 2 value\(s\); got 1"):
        test([0.1, 0.2], [0.2], **kwargs)


def test_memory_messages_in_full(monkeypatch):
    with pytest.raises(ValueError, match=r"^`n_draws` = 1073741824 would need 24.0 GiB of memory for the posterior "
                                         r"draws and the weights of one chunk; the limit is 4.0 GiB"):
        bayesian_signed_rank([0.1, 0.2, 0.3], [0.0, 0.1, 0.4], n_draws=2**30, rng=0)
    with pytest.raises(ValueError, match=r"^`n_draws` = 2147483648 would need 48.0 GiB of memory for the posterior "
                                         r"draws"):
        bayesian_sign_test([0.1, 0.2], [0.2, 0.1], n_draws=2**31)
    # At the limit: 3 numbers per sample of the sign test; the signed-rank test's 3 numbers per sample and its
    # 5 chunk arrays of 4 numbers per sample (3 weights: 2 tasks and the prior; and a cumulative zero).
    import sigeval._validation as validation

    monkeypatch.setattr(validation, "MEMORY_LIMIT", 3 * 8 * 100)
    assert bayesian_sign_test([0.1, 0.2], [0.2, 0.1], n_draws=100, rng=0).n_draws == 100
    monkeypatch.setattr(validation, "MEMORY_LIMIT", 8 * (3 * 100 + 5 * 100 * 4))
    assert bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], n_draws=100, rng=0).n_draws == 100
    with pytest.raises(ValueError, match="`n_draws` = 101 would need"):
        bayesian_signed_rank([0.1, 0.2], [0.2, 0.1], n_draws=101, rng=0)


def test_region_probabilities_stay_in_the_unit_interval():
    # These weights make a quadratic form 1 + 4e-16 and the rope's remainder -4e-16 before clipping.
    for a, b in (([1.0, 1.0], [0.0, 0.0]), ([0.0, 0.0], [1.0, 1.0])):
        samples = bayesian_signed_rank(a, b, rope=1e-12, prior_strength=0.1, n_draws=200, rng=0).posterior_samples
        assert samples.min() >= 0.0 and samples.max() <= 1.0
        assert np.any(samples == 1.0) and np.any(samples[:, 1] == 0.0)


def test_walsh_averages_keep_their_signs_at_both_ends_of_the_float_range():
    # Near the overflow: (1.7e308 + 1.7e308) / 2 exceeds a rope of 1e308, though 2 x 1e308 overflows.
    post = bayesian_signed_rank([1.7e308, 1.7e308], [0.0, 0.0], rope=1e308, n_draws=500, rng=0)
    loop = _signed_rank_loop(np.array([1.7e308, 1.7e308]) / 2**1023, 1e308 / 2**1023, 0.5,
                             np.random.default_rng(0).dirichlet([0.5, 1, 1], 500))
    np.testing.assert_allclose(post.posterior_samples, loop, atol=1e-12)
    # Mixed signs near the overflow: the sums of opposite values must not become inf - inf.
    z = np.array([1.5e308, -1.4e308, -1.6e308])
    post = bayesian_signed_rank(z, np.zeros(3), rope=1e306, n_draws=500, rng=1)
    loop = _signed_rank_loop(z / 2**1023, 1e306 / 2**1023, 0.5, np.random.default_rng(1).dirichlet([0.5, 1, 1, 1], 500))
    np.testing.assert_allclose(post.posterior_samples, loop, atol=1e-12)
    assert post.posterior_samples[:, 2].max() > 0.1
    # Near the underflow, beside a large value: 5e-324 stays positive (no rescaling at ordinary magnitudes).
    tiny = np.array([1e10, 5e-324])
    post = bayesian_signed_rank(tiny, np.zeros(2), n_draws=300, rng=2)
    loop = _signed_rank_loop(tiny, 0.0, 0.5, np.random.default_rng(2).dirichlet([0.5, 1, 1], 300))
    np.testing.assert_allclose(post.posterior_samples, loop, atol=1e-12)


@pytest.mark.parametrize("rope", [0.0, 2e-323, 1e-300])
def test_t_posteriors_are_the_same_for_data_scaled_by_a_power_of_two(rope):
    # Subnormal differences keep their precision: the probabilities equal those of the data times 2**1000
    # (with the ROPE scaled alike); before, 0.988 instead of 0.997 at rope 0.
    d = np.array([1, 3, 2, 5, 4, 2, 3], float) * 5e-324
    small = correlated_ttest(d, test_fraction=0.1, rope=rope)
    big = correlated_ttest(d * 2.0**1000, test_fraction=0.1, rope=rope * 2.0**1000)
    assert (small.prob_a_better, small.prob_rope, small.prob_b_better) == (
        big.prob_a_better, big.prob_rope, big.prob_b_better)
    k = np.array([1, 3, 2, 5, 4, 2, 3], float)  # the differences in units of 5e-324 (2**-1074)
    t_upper = (rope / 5e-324 - k.mean()) / (k.std(ddof=1) * np.sqrt(1 / 7 + 0.1 / 0.9))
    assert small.prob_a_better == pytest.approx(stats.t.sf(t_upper, 6), rel=1e-12)
    a = np.array([1, 3, 2, 5, 4, 2, 3], float) * 5e-324
    paired = bayesian_paired_t(a, np.zeros(7), rope=rope)
    scaled = bayesian_paired_t(a * 2.0**1000, np.zeros(7), rope=rope * 2.0**1000)
    assert paired.prob_a_better == scaled.prob_a_better and paired.prob_rope == scaled.prob_rope

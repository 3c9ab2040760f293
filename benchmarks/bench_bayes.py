"""Bayesian comparisons and the stratified bootstrap: sigeval against plain loops.

The signed-rank test evaluates every posterior sample's two quadratic forms
in O(n), from cumulative sums of its weights over the sorted differences;
baycomp's ``SignedRankTest`` (and the plain loop below, its algorithm) takes
one sample at a time, in O(n^2) each. The stratified bootstrap of the IQM
summarises each resample by its multinomial counts; the alternative builds
every resample and calls ``scipy.stats.trim_mean`` on it.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import aggregate_ci, bayesian_signed_rank


def signed_rank_loop(a, b, rope, n_draws, rng):
    """One posterior sample at a time, as baycomp does."""
    values = np.r_[0.0, a - b]
    sums = values[:, None] + values[None, :]
    above = (sums > 2 * rope) + 0.5 * (sums == 2 * rope)
    below = (sums < -2 * rope) + 0.5 * (sums == -2 * rope)
    theta = np.empty((n_draws, 3))
    for k, w in enumerate(np.random.default_rng(rng).dirichlet(np.r_[0.5, np.ones(a.size)], n_draws)):
        weights = np.outer(w, w)
        theta[k] = np.sum(weights * above), 0.0, np.sum(weights * below)
    theta[:, 1] = 1 - theta[:, 0] - theta[:, 2]
    return np.bincount(np.argmax(theta, axis=1), minlength=3) / n_draws


def iqm_loop(scores, n_resamples, rng):
    gen = np.random.default_rng(rng)
    n_runs, n_tasks = scores.shape
    out = np.empty(n_resamples)
    for k in range(n_resamples):
        rows = gen.integers(0, n_runs, size=(n_runs, n_tasks))
        out[k] = stats.trim_mean(np.take_along_axis(scores, rows, axis=0), 0.25, axis=None)
    return np.quantile(out, [0.025, 0.975])


def signed_rank_rows() -> list[Comparison]:
    """At 500 to 5,000 tasks, against baycomp's SignedRankTest (issue 40): the same posterior samples from
    baycomp's own draws, checked to 1e-12; baycomp's loop runs fewer samples and is scaled."""
    try:
        import baycomp
    except ImportError:
        print("baycomp is not installed (make bench installs the bench extra): no signed-rank rows")
        return []
    from sigeval.bayes import _SumsAbove

    rows = []
    for n_tasks, theirs in ((500, 1_000), (2_000, 100), (5_000, 20)):
        gen = np.random.default_rng(n_tasks)
        b = gen.uniform(0.6, 0.9, n_tasks)
        a = np.round(b + gen.normal(0.002, 0.01, n_tasks), 4)

        def agree(ours, samples, a=a, b=b, theirs=theirs) -> str:
            weights = np.random.RandomState(0).dirichlet(np.r_[0.5, np.ones(a.size)], theirs)
            values = np.r_[0.0, a - b]
            ours_on_theirs = np.c_[_SumsAbove(values, 0.02).mass(weights), _SumsAbove(-values, 0.02).mass(weights)]
            gap = float(np.max(np.abs(ours_on_theirs - samples[:, [0, 2]])))
            assert gap <= 1e-12, gap
            return f"same samples on baycomp's draws within {gap:.0e}"

        rows.append(Comparison(
            f"signed-rank test, {n_tasks:,} tasks, 50,000 samples",
            lambda a=a, b=b: bayesian_signed_rank(a, b, rope=0.01, rng=0),
            f"baycomp SignedRankTest, {theirs:,} samples",
            lambda a=a, b=b, theirs=theirs: baycomp.SignedRankTest.sample(a, b, rope=0.01, nsamples=theirs,
                                                                         random_state=0),
            scale=50_000 / theirs, repeats=1, warmup=False, agree=agree))
    return rows


def comparisons() -> list[Comparison]:
    gen = np.random.default_rng(0)
    b = gen.uniform(0.6, 0.9, 50)
    a = b + gen.normal(0.005, 0.01, 50)
    scores = gen.normal(1.0, 0.3, size=(10, 50))
    return [
        Comparison("signed-rank test, 50 datasets, 50,000 samples",
                   lambda: bayesian_signed_rank(a, b, rope=0.01, rng=0), "loop over samples (baycomp's), 5,000",
                   lambda: signed_rank_loop(a, b, 0.01, 5_000, 0), scale=10, repeats=3),
        Comparison("IQM, stratified bootstrap, 10 runs x 50 tasks, 10^4",
                   lambda: aggregate_ci(scores, n_resamples=10_000, rng=0), "loop of trim_mean, 10^3 resamples",
                   lambda: iqm_loop(scores, 1_000, 0), scale=10, repeats=3),
    ] + signed_rank_rows()


if __name__ == "__main__":
    run(comparisons())

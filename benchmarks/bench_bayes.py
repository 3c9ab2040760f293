"""Bayesian comparisons and the stratified bootstrap: sigeval against plain loops.

The signed-rank test evaluates every posterior sample's two quadratic forms
in one matrix product; baycomp's ``SignedRankTest`` (and the plain loop below,
its algorithm) takes one sample at a time. The stratified bootstrap of the IQM
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
    ]


if __name__ == "__main__":
    run(comparisons())

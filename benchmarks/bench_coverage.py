"""Exact coverage of the Wilson interval over a grid of (n, p): sigeval against a loop.

``sigeval.coverage`` computes, for every n up to 1,000 and 200 values of p, the
probability that the interval covers p, with one vectorised CDF difference per
n. What a user would write instead: for each (n, p), the interval of every
k = 0..n and the binomial probabilities of the k whose interval covers p.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import coverage, proportion_ci

N = np.arange(1, 1001)
P = np.linspace(0.005, 0.995, 200)


def loop(ns=N, ps=P) -> np.ndarray:
    out = np.empty((len(ns), len(ps)))
    for i, n in enumerate(ns):
        k = np.arange(n + 1)
        ci = proportion_ci(k, n, method="wilson")
        for j, p in enumerate(ps):
            covered = (ci.low <= p) & (p <= ci.high)
            out[i, j] = stats.binom.pmf(k[covered], n, p).sum()
    return out


def comparisons() -> list[Comparison]:
    ns = N[::10]  # the loop runs every tenth n; its time is scaled up
    assert np.allclose(coverage(ns[:20, None], P[None, :], method="wilson"), loop(ns[:20], P), atol=1e-9)
    return [Comparison("exact Wilson coverage, n = 1..1000 x 200 p",
                       lambda: coverage(N[:, None], P[None, :], method="wilson"),
                       "a loop over (n, p) with scipy.stats.binom", lambda: loop(ns, P),
                       scale=N.sum() / ns.sum(), repeats=3)]


if __name__ == "__main__":
    run(comparisons())

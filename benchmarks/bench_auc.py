"""The AUC at a million items: DeLong's test, and the bootstrap of an AUC and of a difference of AUCs.

sigeval's bootstrap of roc_auc sorts each model's scores once and then costs
O(n) per resample (a bincount of the resample's indices, cumulative counts in
score order). scipy.stats.bootstrap with a vectorised AUC ranks every
resample, O(n log n) and n-sized temporaries; it runs 10 resamples here and is
scaled to 1,000. Goals (issue 23): DeLong on 10^6 items under 1 s, the AUC
bootstrap of 10^6 items x 10^3 resamples under 30 s.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import bootstrap_ci, delong_test, paired_bootstrap_ci, roc_auc

N, RESAMPLES, SCIPY_RESAMPLES = 1_000_000, 1_000, 10


def scored(n: int = N, seed: int = 0):
    gen = np.random.default_rng(seed)
    y = gen.integers(0, 2, n)
    return y, y + gen.normal(0, 1.5, n), y + gen.normal(0, 1.0, n)


def auc(y, s, axis=-1):
    return roc_auc(np.atleast_2d(y), np.atleast_2d(s), axis=1)


def auc_difference(y, a, y2, b, axis=-1):
    return auc(y, a) - auc(y2, b)


def scipy_bootstrap(data, statistic, n_resamples):
    return stats.bootstrap(data, statistic, paired=True, vectorized=True, method="percentile",
                           n_resamples=n_resamples, batch=1, rng=np.random.default_rng(1))


def comparisons() -> list[Comparison]:
    y, a, b = scored()
    scale = RESAMPLES / SCIPY_RESAMPLES
    return [
        Comparison("DeLong's test, 10^6 items", lambda: delong_test(y, a, b),
                   "scipy mannwhitneyu x 2 (the two AUCs alone)",
                   lambda: (stats.mannwhitneyu(a[y == 1], a[y == 0]), stats.mannwhitneyu(b[y == 1], b[y == 0])),
                   repeats=3, goal=1.0),
        Comparison("AUC bootstrap, 10^6 items x 10^3 resamples", lambda: bootstrap_ci(
                       (y, a), statistic=roc_auc, n_resamples=RESAMPLES, rng=0, progress=False),
                   "scipy.stats.bootstrap, vectorised AUC",
                   lambda: scipy_bootstrap((y, a), auc, SCIPY_RESAMPLES), scale=scale, repeats=1, goal=30.0,
                   warmup=False),
        Comparison("paired AUC-difference bootstrap, 10^6 x 10^3", lambda: paired_bootstrap_ci(
                       (y, a), (y, b), statistic=roc_auc, n_resamples=RESAMPLES, rng=0, progress=False),
                   "scipy.stats.bootstrap, paired, vectorised",
                   lambda: scipy_bootstrap((y, a, y, b), auc_difference, SCIPY_RESAMPLES), scale=scale, repeats=1,
                   goal=30.0, warmup=False),
    ]


if __name__ == "__main__":
    run(comparisons())

"""The paired permutation test: sigeval against scipy.stats.permutation_test.

On 0/1 correctness the sign-flip distribution of the mean difference is a
binomial over the disagreements, so sigeval's test is exact at any size; on
continuous scores with few pairs it enumerates every sign pattern. scipy's
``permutation_test(permutation_type="samples")`` draws (or enumerates) the
sign flips.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import paired_permutation_test


def mean_difference(x, y, axis=-1):
    return np.mean(x - y, axis=axis)


def scipy_test(a, b, n_resamples):
    return stats.permutation_test((a, b), mean_difference, permutation_type="samples", vectorized=True,
                                  n_resamples=n_resamples, rng=np.random.default_rng(0))


def comparisons() -> list[Comparison]:
    gen = np.random.default_rng(0)
    a = (gen.random(100_000) < 0.85).astype(float)
    b = np.where(gen.random(100_000) < 0.9, a, (gen.random(100_000) < 0.8).astype(float))
    x, y = gen.normal(0.3, 1, 18), gen.normal(0, 1, 18)
    return [
        Comparison("permutation test, 10^5 paired 0/1 items (exact)",
                   lambda: paired_permutation_test(a, b), "scipy permutation_test, 10^4 flips",
                   lambda: scipy_test(a, b, 100), scale=100, repeats=1),
        Comparison("permutation test, 18 continuous pairs (all 2^18 flips)",
                   lambda: paired_permutation_test(x, y, method="exact"), "scipy permutation_test, all flips",
                   lambda: scipy_test(x, y, np.inf), repeats=3),
    ]


if __name__ == "__main__":
    run(comparisons())

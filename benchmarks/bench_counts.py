"""Counts in, inference out: the cost of an interval or a test once the items are counted.

The 2x2 table of two models on the same items gives the paired bootstrap of
the difference of accuracies and the exact permutation test at a cost that
does not depend on the number of items. Compared: the counts path against the
per-item path on ten million items (which must hold the items in memory), and
the counts path on 10^12 items against the same path on 10^3.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run

from sigeval import (
    PairedCounts,
    paired_bootstrap_ci,
    paired_bootstrap_ci_counts,
    paired_permutation_test,
    paired_permutation_test_counts,
)


def scaled(n_items: int) -> PairedCounts:
    """A table with the proportions of the article's two matchers (801, 44, 28, 127 of 1,000)."""
    unit = n_items // 1000
    return PairedCounts(801 * unit, 44 * unit, 28 * unit, 127 * unit)


def comparisons() -> list[Comparison]:
    n = 10_000_000
    gen = np.random.default_rng(0)
    a = (gen.random(n) < 0.85).astype(np.int8)
    b = np.where(gen.random(n) < 0.93, a, (gen.random(n) < 0.75).astype(np.int8))
    table = PairedCounts.from_correctness(a, b)
    return [
        Comparison("paired bootstrap 10^4 resamples, 10^7 items: counts",
                   lambda: paired_bootstrap_ci_counts(table, rng=0), "paired_bootstrap_ci on the items",
                   lambda: paired_bootstrap_ci(a, b, rng=0), repeats=3),
        Comparison("exact permutation test, 10^7 items: counts",
                   lambda: paired_permutation_test_counts(table), "paired_permutation_test on the items",
                   lambda: paired_permutation_test(a, b), repeats=3),
        Comparison("bootstrap from counts: 10^3 items (vs 10^12)",
                   lambda: paired_bootstrap_ci_counts(scaled(10**3), rng=0), "the same at 10^12 items",
                   lambda: paired_bootstrap_ci_counts(scaled(10**12), rng=0), repeats=5),
    ]


if __name__ == "__main__":
    run(comparisons())

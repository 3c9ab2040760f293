"""Cliff's delta of two large samples: sigeval against scipy's Mann-Whitney U (issue 40).

Cliff's delta is 2 U / (n_a n_b) - 1, with U the Mann-Whitney count of A beating B (ties one half), so
``scipy.stats.mannwhitneyu`` is what a user would call instead; it also ranks the pooled sample. sigeval
sorts each sample once and searches the other's sorted values, and gives Cliff's (1993) interval besides.
Goal (issue 40): at 10^7 runs a side, no slower than mannwhitneyu.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import effect_size

N = 10_000_000


def comparisons() -> list[Comparison]:
    gen = np.random.default_rng(0)
    a, b = gen.normal(0.05, 1.0, N), gen.normal(0.0, 1.0, N)

    def agree(ours, theirs) -> str:
        gap = abs(ours.estimate - (2 * theirs.statistic / (a.size * b.size) - 1))
        assert gap <= 1e-12, gap
        return f"delta = 2U/(n_a n_b) - 1 within {gap:.1e}"

    return [
        Comparison("Cliff's delta (unpaired), 10^7 runs a side",
                   lambda: effect_size(a, b, kind="cliff_delta", paired=False), "scipy mannwhitneyu",
                   lambda: stats.mannwhitneyu(a, b), repeats=1, warmup=False, agree=agree),
    ]


if __name__ == "__main__":
    run(comparisons())

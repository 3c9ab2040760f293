"""Every pair of 1,000 models on 20 tasks: sigeval's pairwise Wilcoxon against a loop over scipy (issue 40).

``pairwise_wilcoxon`` ranks the differences of a chunk of pairs in one sort and shares scipy's exact null
tables; a user would otherwise call ``scipy.stats.wilcoxon`` once per pair (499,500 of them), timed here on
the first 2,000 pairs and scaled. Goal: 1,000 models and 20 tasks under 60 s.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import pairwise_wilcoxon

N_TASKS, N_MODELS, N_LOOPED = 20, 1_000, 2_000


def comparisons() -> list[Comparison]:
    gen = np.random.default_rng(0)
    # Accuracies to 3 decimals: ties and zeros, so exact tables and the normal approximation both occur.
    table = np.round(gen.uniform(0.6, 0.9, (N_TASKS, 1)) + gen.normal(0, 0.02, (N_TASKS, N_MODELS)), 3)
    first, second = np.triu_indices(N_MODELS, 1)
    first, second = first[:N_LOOPED], second[:N_LOOPED]

    def loop():
        return np.array([stats.wilcoxon(table[:, i], table[:, j], zero_method="zsplit").pvalue
                         for i, j in zip(first, second)])

    def agree(ours, theirs) -> str:
        assert np.array_equal(ours.pvalue.to_numpy()[:N_LOOPED], theirs)
        return f"first {N_LOOPED:,} p-values identical"

    n_pairs = N_MODELS * (N_MODELS - 1) // 2
    return [
        Comparison("pairwise Wilcoxon-Holm, 1,000 models x 20 tasks", lambda: pairwise_wilcoxon(table),
                   "loop of scipy.stats.wilcoxon, 2,000 pairs", loop, scale=n_pairs / N_LOOPED, repeats=1,
                   goal=60.0, warmup=False, agree=agree),
    ]


if __name__ == "__main__":
    run(comparisons())

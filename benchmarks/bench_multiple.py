"""Adjusted p-values of 10^6 tests: sigeval against statsmodels' multipletests, method by method.

Both give the same numbers bit for bit (tests/test_multiple.py). Goal (issue 23):
at least as fast as multipletests for every method.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run

from sigeval import ADJUST_METHODS, adjust_pvalues

STATSMODELS = {"bonferroni": "bonferroni", "holm": "holm", "hochberg": "simes-hochberg", "bh": "fdr_bh",
               "by": "fdr_by"}


def comparisons() -> list[Comparison]:
    try:
        from statsmodels.stats.multitest import multipletests
    except ImportError:
        print("statsmodels is not installed (make bench installs the bench extra): no adjust_pvalues rows")
        return []
    p = np.random.default_rng(0).uniform(size=1_000_000) ** 3
    return [
        Comparison(f"adjust_pvalues {method}, 10^6 p-values", lambda m=method: adjust_pvalues(p, method=m),
                   f"statsmodels multipletests {STATSMODELS[method]}",
                   lambda m=STATSMODELS[method]: multipletests(p, method=m), repeats=7)
        for method in ADJUST_METHODS
    ]


if __name__ == "__main__":
    run(comparisons())

"""sigeval: statistical significance in evaluation.

The library of the course *Significance in Evaluation*. Each module holds one
idea of the course and names the chapter that explains it:

``intervals``   binomial intervals for one score and their exact coverage
``resampling``  bootstrap intervals (also paired, grouped, non-average metrics), permutation test
``paired``      two fixed models on the same test items: McNemar, paired standard error, Wilcoxon
``runs``        training randomness: seed summaries, paired differences, P(A>B), power, equivalence
``shapes``      the synthetic shape benchmark, template matchers and a NumPy MLP
``plots``       the figures of the chapters

The most used functions are importable from the package itself.
"""

from ._results import ConfidenceInterval
from .intervals import coverage, proportion_ci
from .paired import difference_se, mcnemar, mcnemar_power
from .resampling import bootstrap_ci, paired_bootstrap_ci, paired_permutation_test
from .runs import (
    paired_difference,
    power_paired,
    prob_improvement,
    seed_summary,
    seeds_needed,
    tost_paired,
    welch_test,
)

__version__ = "0.1.0"

__all__ = [
    "ConfidenceInterval",
    "bootstrap_ci",
    "coverage",
    "difference_se",
    "mcnemar",
    "mcnemar_power",
    "paired_bootstrap_ci",
    "paired_difference",
    "paired_permutation_test",
    "power_paired",
    "prob_improvement",
    "proportion_ci",
    "seed_summary",
    "seeds_needed",
    "tost_paired",
    "welch_test",
    "__version__",
]

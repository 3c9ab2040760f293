"""sigeval: statistical significance in evaluation.

The library of the course *Significance in Evaluation*. Each module holds one
idea of the course, and its chapter explains it:

====================  =============================================================================
``intervals``         binomial intervals for one score and their exact coverage
``resampling``        bootstrap intervals: percentile, basic, BCa; paired and grouped
``metrics``           metrics that are not averages (dataset IoU, average precision, ROC AUC)
``permutation``       the paired permutation (sign-flip) test
``paired``            two fixed models on the same items: McNemar, paired standard errors, Wilcoxon
``counts``            counts in, inference out: the 2x2 table and per-group counts for any test-set size
``roc``               two scoring models on the same items: DeLong's test for two AUCs
``seeds``             seed sweeps: summaries, Welch's test, the variance split
``procedures``        two training procedures from paired runs: thresholds, P(A>B)
``crossval``          Dietterich's tests of two learning algorithms (5x2cv, resampled and k-fold t)
``power``             paired t power, minimum detectable effect, seeds needed
``power_mcnemar``     McNemar's test planned: exact power, test items needed
``equivalence``       TOST and the four verdicts
``multiple``          adjusted p-values for a family of tests: Bonferroni, Holm, Hochberg, BH, BY
``ranking``           many models over many tasks: Friedman, Nemenyi, Holm vs control
``rank_uncertainty``  how sure a ranking is: rank stability, bootstrap rank intervals, rank confidence sets
``bayes``             Bayesian comparisons with a region of practical equivalence (correlated t, signed-rank)
``aggregate``         aggregate scores over runs x tasks: IQM, optimality gap, stratified bootstrap, profiles
``effect``            effect sizes with intervals: Cohen's d_z, Hedges' g, Cliff's delta, common language
``report``            a table of runs, view by view: pairwise, power, equivalence, ranking (``Report``)
``predictions``       a table of predictions, every model and every pair (what ``sigeval compare`` prints)
``readers``           files in: CSV tables of runs or predictions, harness logs (lm-evaluation-harness, Inspect AI, MLflow)
``generative``        sampled answers: pass@k, means over samples, clustered errors, questions vs samples
``sequential``        looking while the seeds come in: group-sequential bounds, confidence sequences
``plots``             figures any user may want (needs the ``plots`` extra: matplotlib)
``course``            the course's own apparatus: shape benchmark, MLP, the article's reproduction
====================  =============================================================================

Every public function and result class of the statistics modules is importable
from the package itself: ``from sigeval import proportion_ci``. Importing
``sigeval`` needs only numpy, scipy and pandas. ``sigeval.run_benchmark``
(:mod:`sigeval.course.benchmark`) trains the course's models and needs the
``course`` extra; it is imported on first use.
"""

from importlib import import_module as _import_module

from ._registry import EXPORTED as _EXPORTED
from ._results import BootstrapResult, ConfidenceInterval
from ._version import __version__

# Each exported module (the registry's one list) and every name of its __all__, as ``sigeval.<name>``.
for _name in _EXPORTED:
    _module = _import_module(f".{_name}", __name__)
    globals()[_name] = _module
    globals().update({_public: getattr(_module, _public) for _public in _module.__all__})
del _name, _module


def __getattr__(name: str):
    # run_benchmark trains the course's models, so it needs the `course` extra;
    # it is imported on first use to keep `import sigeval` to numpy and scipy.
    if name == "run_benchmark":
        from .course.benchmark import run_benchmark

        return run_benchmark
    raise AttributeError(f"module 'sigeval' has no attribute {name!r}")


__all__ = [
    "ConfidenceInterval",
    "BootstrapResult",
    *(_public for _name in _EXPORTED for _public in globals()[_name].__all__),
    "__version__",
]

"""The one list of the library's modules, and the test files that test each.

The tests that iterate over modules (bad inputs, properties, docstrings,
vocabulary, the import graph), ``tools/mutation.py`` and
``tools/import_graph.py`` read this registry; a new module gets its line here.
"""

from __future__ import annotations

#: The public statistics modules, in the order of the course, with their test files
#: (paths relative to the repository root). Each is exported by ``sigeval``.
STATISTICS: dict[str, tuple[str, ...]] = {
    "intervals": ("tests/test_intervals.py",),
    "resampling": ("tests/test_resampling.py", "tests/test_roc.py", "tests/test_progress.py"),
    "metrics": ("tests/test_metrics.py", "tests/test_resampling.py", "tests/test_roc.py"),
    "permutation": ("tests/test_permutation.py", "tests/test_resampling.py", "tests/test_counts.py"),
    "paired": ("tests/test_paired.py",),
    "counts": ("tests/test_counts.py",),
    "roc": ("tests/test_roc.py",),
    "seeds": ("tests/test_seeds.py",),
    "procedures": ("tests/test_procedures.py",),
    "crossval": ("tests/test_crossval.py",),
    "power": ("tests/test_power.py",),
    "power_mcnemar": ("tests/test_power_mcnemar.py",),
    "equivalence": ("tests/test_equivalence.py",),
    "multiple": ("tests/test_multiple.py",),
    "ranking": ("tests/test_ranking.py",),
    "rank_uncertainty": ("tests/test_rank_uncertainty.py", "tests/test_ranking.py"),
    "report": ("tests/test_report.py", "tests/test_report_bayesian.py", "tests/test_report_output.py"),
    "predictions": ("tests/test_predictions.py", "tests/test_cli.py"),
    "readers": ("tests/test_readers.py", "tests/test_cli.py"),
    "generative": ("tests/test_generative.py",),
    "sequential": ("tests/test_sequential.py",),
    "bayes": ("tests/test_bayes.py",),
    "aggregate": ("tests/test_aggregate.py",),
    "effect": ("tests/test_effect.py",),
}

#: The private engines the statistics modules share, with the test files that reach them.
ENGINES: dict[str, tuple[str, ...]] = {
    "_bootstrap_engine": ("tests/test_resampling.py", "tests/test_counts.py", "tests/test_roc.py", "tests/test_progress.py"),
    "_signflip": ("tests/test_permutation.py", "tests/test_resampling.py", "tests/test_counts.py"),
    "_mcnemar": ("tests/test_paired.py", "tests/test_power_mcnemar.py"),
    "_ttest": ("tests/test_seeds.py", "tests/test_procedures.py", "tests/test_equivalence.py", "tests/test_crossval.py"),
    "_report_base": ("tests/test_report.py",),
    "_report_across": ("tests/test_report.py", "tests/test_report_bayesian.py"),
    "_report_within": ("tests/test_report.py", "tests/test_report_bayesian.py", "tests/test_report_output.py"),
    "_paired_t": ("tests/test_paired_t.py", "tests/test_procedures.py", "tests/test_equivalence.py", "tests/test_power.py",
                  "tests/test_bayes.py", "tests/test_report.py", "tests/test_report_bayesian.py"),
    "_ranks": ("tests/test_ranking.py", "tests/test_rank_uncertainty.py"),
    "_numeric": ("tests/test_validation.py", "tests/test_resampling.py", "tests/test_procedures.py"),
    "_noncentral": ("tests/test_power.py", "tests/test_validation.py", "tests/test_report.py"),
    "_report_output": ("tests/test_report_output.py", "tests/test_cli.py"),
    "_tables": ("tests/test_report_output.py", "tests/test_cli.py"),
}

#: Public modules that are not statistics: the figures and the command line.
FRONT_ENDS: tuple[str, ...] = ("plots", "cli")

#: The front ends ``tools/mutation.py`` mutates, with the test files that test them (the command's run in-process).
MUTATED_FRONT_ENDS: dict[str, tuple[str, ...]] = {"cli": ("tests/test_cli.py",)}

"""The one list of the library's modules: each module's kind and the test files that test it.

Adding a module means adding its line to :data:`MODULES`, and nothing else: the package reads it for
its imports and ``__all__`` (``sigeval/__init__.py``), ``tools/import_graph.py`` for the floors,
``tools/mutation.py`` for the modules it mutates and their tests, and the tests that iterate over modules
(package, import graph, bad inputs, docstrings, vocabulary, draws) for what they check. ``tests/test_package.py``
fails when a module of the package is missing here, and when the package's type stub (``__init__.pyi``, which
tells type checkers and editors what the loop of ``__init__`` imports) is not the one
``python tools/package_stub.py`` writes from this list.

The kinds, from the floor of the import graph they sit on (an import may point down or along a floor,
never up):

``helper`` (floor 0)
    Private building blocks that compute no statistic: input checks, option sets, result types, this
    registry, the version number, progress bars, the run table of ``Report``.
``engine`` (floor 0)
    Private computations several public modules share (the bootstrap, sign-flip, McNemar, t, rank and
    noncentral-t engines, safe numerics).
``statistics`` (floor 1)
    The public modules of the course's ideas, exported by the package, and their private parts
    (``part_of``), which keep each module under 800 lines: ``ranking``'s Nemenyi test and its pairwise
    tests, ``sequential``'s group-sequential designs.
``front door``, ``renderer``, ``plots``, ``course`` (floor 2)
    What sits on the statistics: ``Report`` (and its private parts ``_report_*``), ``compare_predictions``,
    the readers of CSV files and the command; the renderer of their outputs; the figures (extra ``plots``); the course's own apparatus
    (extra ``course``).

The package itself (``sigeval/__init__.py``, floor 3) imports the exported modules; no module imports it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["helper", "engine", "statistics", "front door", "renderer", "plots", "course"]

#: Each kind's floor in the import graph.
FLOORS: dict[str, int] = {
    "helper": 0, "engine": 0, "statistics": 1, "front door": 2, "renderer": 2, "plots": 2, "course": 2,
}
#: The floor of the package itself, above every module it imports.
PACKAGE_FLOOR = 3
#: The kinds ``tools/mutation.py`` mutates: every module that computes, with the test files that test it.
MUTATED_KINDS = ("statistics", "engine", "front door", "renderer")


@dataclass(frozen=True)
class Module:
    """One module of the package: its kind, its test files (relative to the repository root), whether
    ``import sigeval`` re-exports its ``__all__``, and the public module it is a private part of (a module
    too long for one file: the public module re-exports the part's ``__all__`` as its own)."""

    kind: Kind
    tests: tuple[str, ...] = ()
    exported: bool = False
    part_of: str | None = None


def _statistics(*tests: str) -> Module:
    return Module("statistics", tests, exported=True)


#: Every module of the package, the statistics in the order of the course (the order of ``sigeval.__all__``).
MODULES: dict[str, Module] = {
    "intervals": _statistics("tests/test_intervals.py"),
    "resampling": _statistics("tests/test_resampling.py", "tests/test_roc.py", "tests/test_progress.py"),
    "metrics": _statistics("tests/test_metrics.py", "tests/test_resampling.py", "tests/test_roc.py"),
    "permutation": _statistics("tests/test_permutation.py", "tests/test_resampling.py", "tests/test_counts.py"),
    "paired": _statistics("tests/test_paired.py"),
    "counts": _statistics("tests/test_counts.py"),
    "roc": _statistics("tests/test_roc.py"),
    "seeds": _statistics("tests/test_seeds.py"),
    "procedures": _statistics("tests/test_procedures.py", "tests/test_draws.py"),
    "crossval": _statistics("tests/test_crossval.py"),
    "power": _statistics("tests/test_power.py"),
    "power_mcnemar": _statistics("tests/test_power_mcnemar.py"),
    "equivalence": _statistics("tests/test_equivalence.py"),
    "multiple": _statistics("tests/test_multiple.py"),
    "ranking": _statistics("tests/test_ranking.py"),
    "_critical_difference": Module("statistics", ("tests/test_ranking.py",), part_of="ranking"),
    "_pairwise_ranks": Module("statistics", ("tests/test_ranking.py",), part_of="ranking"),
    "rank_uncertainty": _statistics("tests/test_rank_uncertainty.py", "tests/test_ranking.py", "tests/test_draws.py"),
    "report": Module("front door", ("tests/test_report.py", "tests/test_report_bayesian.py",
                                    "tests/test_report_output.py"), exported=True),
    "predictions": Module("front door", ("tests/test_predictions.py", "tests/test_cli.py",
                                         "tests/test_harness_readers.py"), exported=True),
    "_compare_predictions": Module("front door", ("tests/test_predictions.py", "tests/test_cli.py"),
                                   part_of="predictions"),
    "readers": Module("front door", ("tests/test_readers.py", "tests/test_harness_readers.py", "tests/test_cli.py"),
                      exported=True),
    "_harness_logs": Module("front door", ("tests/test_harness_readers.py", "tests/test_cli.py"), part_of="readers"),
    "generative": _statistics("tests/test_generative.py"),
    "sequential": _statistics("tests/test_sequential.py"),
    "_group_sequential": Module("statistics", ("tests/test_sequential.py",), part_of="sequential"),
    "gating": _statistics("tests/test_gating.py"),
    "bayes": _statistics("tests/test_bayes.py"),
    "aggregate": _statistics("tests/test_aggregate.py", "tests/test_draws.py"),
    "effect": _statistics("tests/test_effect.py"),
    "cli": Module("front door", ("tests/test_cli.py", "tests/test_harness_readers.py", "tests/test_predictions.py")),
    "_cli_parser": Module("front door", ("tests/test_cli_parser.py", "tests/test_cli.py", "tests/test_vocabulary.py")),
    "_report_base": Module("front door", ("tests/test_report.py",)),
    "_report_across": Module("front door", ("tests/test_report.py", "tests/test_report_bayesian.py")),
    "_report_within": Module("front door", ("tests/test_report.py", "tests/test_report_bayesian.py",
                                            "tests/test_report_output.py")),
    "_report_output": Module("renderer", ("tests/test_report_output.py", "tests/test_cli.py",
                                          "tests/test_harness_readers.py", "tests/test_predictions.py")),
    "_tables": Module("renderer", ("tests/test_report_output.py", "tests/test_cli.py")),
    "plots": Module("plots", ("tests/test_plots.py",)),
    "course": Module("course", ("tests/test_shapes.py", "tests/test_mlp.py", "tests/test_cache.py",
                                "tests/test_dietterich.py", "tests/test_reproduce.py")),
    "_bootstrap_engine": Module("engine", ("tests/test_resampling.py", "tests/test_counts.py", "tests/test_roc.py",
                                           "tests/test_progress.py", "tests/test_draws.py")),
    "_signflip": Module("engine", ("tests/test_permutation.py", "tests/test_resampling.py", "tests/test_counts.py")),
    "_mcnemar": Module("engine", ("tests/test_paired.py", "tests/test_power_mcnemar.py")),
    "_ttest": Module("engine", ("tests/test_seeds.py", "tests/test_procedures.py", "tests/test_equivalence.py",
                                "tests/test_crossval.py")),
    "_paired_t": Module("engine", ("tests/test_paired_t.py", "tests/test_procedures.py", "tests/test_equivalence.py",
                                   "tests/test_power.py", "tests/test_bayes.py", "tests/test_report.py",
                                   "tests/test_report_bayesian.py")),
    "_ranks": Module("engine", ("tests/test_ranking.py", "tests/test_rank_uncertainty.py")),
    "_numeric": Module("engine", ("tests/test_validation.py", "tests/test_resampling.py", "tests/test_procedures.py")),
    "_noncentral": Module("engine", ("tests/test_power.py", "tests/test_validation.py", "tests/test_report.py")),
    "_labels": Module("helper", ("tests/test_predictions.py", "tests/test_gating.py", "tests/test_harness_readers.py")),
    "_gate_pairs": Module("helper", ("tests/test_gating.py",)),
    "_validation": Module("helper", ("tests/test_validation.py",)),
    "_validation_figures": Module("helper", ("tests/test_plots.py", "tests/test_validation.py")),
    "_options": Module("helper"),
    "_results": Module("helper"),
    "_registry": Module("helper", ("tests/test_package.py",)),
    "_version": Module("helper", ("tests/test_package.py",)),
    "_runs_table": Module("helper", ("tests/test_report.py",)),
    "_report_results": Module("helper", ("tests/test_report.py",)),
    "_progress": Module("helper", ("tests/test_progress.py",)),
}


def of_kind(*kinds: Kind) -> tuple[str, ...]:
    """The modules of these kinds, in the registry's order."""
    return tuple(name for name, module in MODULES.items() if module.kind in kinds)


#: The modules whose ``__all__`` the package re-exports, in the order of ``sigeval.__all__``.
EXPORTED: tuple[str, ...] = tuple(name for name, module in MODULES.items() if module.exported)

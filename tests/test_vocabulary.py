"""One vocabulary (CONTRIBUTING.md): every public name, result field, Report column and CLI flag is checked.

A name from the table of forbidden synonyms fails the test wherever it appears, except in the
documented exceptions: the ``Report`` calls and columns that the source's report guide writes
(``../shared/seeds/001_1e3ca91848b5879f.txt``), which readers' code calls as written.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import re
import typing

import numpy as np
import pandas as pd
import pytest

import sigeval
from sigeval import plots
from sigeval._registry import STATISTICS
from sigeval.cli import _parser

#: Forbidden name -> the vocabulary's word for it.
FORBIDDEN = {
    "n_boot": "n_resamples",
    "n_bootstrap": "n_resamples",
    "nboot": "n_resamples",
    "n_permutations": "n_resamples",
    "correct_a": "scores_a",
    "correct_b": "scores_b",
    "candidate": "scores_a (A is the one whose gain is measured)",
    "baseline": "scores_b",
    "diffs": "differences",
    "diff": "differences (or estimate)",
    "effect": "delta",
    "effects": "deltas",
    "effect_size": "delta",
    "sem": "standard_error",
    "se": "standard_error",
    "std": "sd (one sample) or sigma_d (paired differences)",
    "stdev": "sd",
    "level": "confidence_level or alpha",
    "conf_level": "confidence_level",
    "ci_level": "confidence_level",
    "p_value": "pvalue",
    "pval": "pvalue",
    "significant": "reject",
    "random_state": "rng",
    "seed_rng": "rng",
    "n_datasets": "n_tasks",
    "datasets": "tasks",
    "dataset": "task",
    "num_models": "n_models",
    "ci": "confidence_interval",
}
#: Names that are forbidden only as arguments of statistics functions (they are results there).
FORBIDDEN_ARGUMENTS = {"power": "target_power (the power to reach)", "seed": "rng", "correct": "k", "total": "n"}

#: The Report contract of the source's report guide, kept as written (CONTRIBUTING, "One vocabulary").
REPORT_CONTRACT = {
    ("Report.rank_stability", "n_boot"),
    ("ReportRankStability", "n_boot"),
    ("Report", "seed"),  # the name of the table's seed column, as task=, model=, score=
    ("read_runs_csv", "seed"),  # the same column of the same table, read from a file for Report
    ("read_mlflow", "seed"),  # the run's parameter naming its seed, as Report's seed= names the column
    ("course.run_benchmark", "seeds"),
}
#: Column-name arguments and plotting words that are text by nature, not option sets.
TEXT_ARGUMENTS = {"task", "model", "seed", "score", "label", "labels", "xlabel", "ylabel", "color", "cmap", "by",
                  "group_format", "name", "title",
                  # compare_items' columns (item, sample, metric) and the readers' metric to read, a name in a log
                  "item", "sample", "metric", "experiment", "tracking_uri"}


def _public_functions():
    """(qualified name, callable) for every public function and method a user can call."""
    for module_name in STATISTICS:
        module = importlib.import_module(f"sigeval.{module_name}")
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield name, obj
            elif inspect.isclass(obj):
                for meth_name, meth in inspect.getmembers(obj, inspect.isfunction):
                    if meth_name == "__init__" and dataclasses.is_dataclass(obj):
                        continue  # a result's fields are checked as fields
                    if not meth_name.startswith("_") or meth_name == "__init__":
                        yield (name if meth_name == "__init__" else f"{name}.{meth_name}"), meth
                for meth_name, meth in inspect.getmembers(obj, inspect.ismethod):
                    if not meth_name.startswith("_"):
                        yield f"{name}.{meth_name}", meth
    for name in plots.__all__:
        obj = getattr(plots, name)
        if inspect.isfunction(obj):
            yield f"plots.{name}", obj
    for course in ("shapes", "mlp", "benchmark", "figures", "dietterich"):
        module = importlib.import_module(f"sigeval.course.{course}")
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                yield f"course.{name}", obj


FUNCTIONS = dict(_public_functions())


def _result_classes():
    for module_name in STATISTICS:
        module = importlib.import_module(f"sigeval.{module_name}")
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isclass(obj) and dataclasses.is_dataclass(obj):
                yield name, obj
    yield "ConfidenceInterval", sigeval.ConfidenceInterval
    yield "BootstrapResult", sigeval.BootstrapResult


RESULTS = dict(_result_classes())


def _parameters(fn):
    return [p for p in inspect.signature(fn).parameters.values() if p.name not in ("self", "cls")]


def _violations_of_name(where: str, name: str, *, argument: bool) -> list[str]:
    if (where, name) in REPORT_CONTRACT:
        return []
    found = []
    if name in FORBIDDEN:
        found.append(f"{where}: `{name}` (say `{FORBIDDEN[name]}`)")
    if argument and name in FORBIDDEN_ARGUMENTS and not where.startswith(("plots.", "course.")):
        found.append(f"{where}: argument `{name}` (say `{FORBIDDEN_ARGUMENTS[name]}`)")
    if re.fullmatch(r"[a-z_]+_pvalue", name):
        found.append(f"{where}: `{name}` (p-values are named pvalue_<what>)")
    if re.fullmatch(r"[a-z_]+_ci", name):
        found.append(f"{where}: `{name}` (intervals are confidence_interval or <what>_interval)")
    return found


def test_the_inventory_is_complete():
    # The walk reaches the functions, methods, plots and result fields a reader meets on the API page.
    assert {"proportion_ci", "Report.pairwise", "Report.rank_stability", "plots.cd_diagram", "course.run_benchmark",
            "compare_predictions", "PairedCounts.from_correctness"} <= set(FUNCTIONS)
    assert {"TOSTResult", "FriedmanResult", "ReportFriedman", "BootstrapResult", "PredictionsComparison"} <= set(RESULTS)
    assert len(FUNCTIONS) > 80 and len(RESULTS) > 25


def test_no_forbidden_synonym_in_any_signature():
    found = [v for where, fn in FUNCTIONS.items() for p in _parameters(fn)
             for v in _violations_of_name(where, p.name, argument=True)]
    assert not found, "\n".join(found)


def test_no_forbidden_synonym_in_any_result_field():
    found = [v for where, cls in RESULTS.items() for f in dataclasses.fields(cls)
             for v in _violations_of_name(where, f.name, argument=False)]
    assert not found, "\n".join(found)


def _report() -> sigeval.Report:
    rng = np.random.default_rng(0)
    rows = [(t, m, s, 0.8 + 0.01 * i + rng.normal(0, 0.005)) for t in "abcd" for i, m in enumerate("XYZ")
            for s in range(5)]
    return sigeval.Report(pd.DataFrame(rows, columns=["task", "model", "seed", "score"]))


# The source's contract: these columns and keys, exactly as the report guide writes them.
SOURCE_COLUMNS = {
    "power": {"task", "model_a", "model_b", "mean_diff", "mde", "observed_power", "detectable", "sigma_d",
              "seeds_for_0.01", "seeds_for_0.005"},
    "equivalence": {"verdict"},
    "friedman": {"critical_difference", "max_rank_gap", "n_for_observed_gap"},
    "rank_stability": {"order_stability", "separation", "jackknife"},
}


def test_report_columns_keep_the_vocabulary_and_the_source_contract():
    report = _report()
    frames = {"pairwise": report.pairwise(), "power": report.power(), "equivalence": report.equivalence(margin=0.01),
              "describe": report.describe()}
    found = [v for view, frame in frames.items() for column in frame.columns
             for v in _violations_of_name(f"Report.{view}", str(column), argument=False)
             if not str(column).startswith("seeds_for_")]
    assert not found, "\n".join(found)
    for view in ("power", "equivalence"):
        assert SOURCE_COLUMNS[view] <= set(frames[view].columns), view
    assert SOURCE_COLUMNS["friedman"] <= set(report.friedman())
    assert SOURCE_COLUMNS["rank_stability"] <= set(report.rank_stability(n_boot=50, rng=0))


def test_the_sources_report_snippets_run_as_written():
    # The calls of the report guide, verbatim (../shared/seeds/001_..., "Is the evidence sufficient?").
    report = _report()
    power = report.power(alpha=0.05, target_power=0.80)
    assert list(power[["task", "model_a", "model_b", "mean_diff", "mde", "observed_power", "detectable"]].columns)
    assert list(power[["task", "model_a", "model_b", "sigma_d", "seeds_for_0.01", "seeds_for_0.005"]].columns)
    eq = report.equivalence(margin=0.01)
    assert set(eq["verdict"].value_counts().index) <= set(sigeval.VERDICTS)
    f = report.friedman(alpha=0.05)
    assert f["critical_difference"] > 0 and f["max_rank_gap"] >= 0 and f["n_for_observed_gap"] is not None
    st = report.rank_stability(n_boot=200)
    assert 0 <= st["order_stability"] <= 1 and st["separation"].shape == (3, 3) and st["jackknife"].shape == (4, 3)
    # "Putting it together", the four calls with their defaults.
    pw, pwr, eq, f = report.pairwise(), report.power(), report.equivalence(margin=0.01), report.friedman()
    assert len(pw) == len(pwr) == len(eq) == 4 * 3 and f["n_tasks"] == 4


def test_decisions_take_alpha_and_intervals_confidence_level():
    """scipy's rule, as CONTRIBUTING writes it: `alpha` where a function decides, `confidence_level` where it does not."""
    decision_fields = {"reject", "equivalent", "indistinguishable", "verdict", "decision", "meaningful"}
    found = []
    for where, fn in FUNCTIONS.items():
        names = {p.name for p in _parameters(fn)}
        if {"alpha", "confidence_level"} <= names:
            found.append(f"{where}: takes both `alpha` and `confidence_level`")
        hints = typing.get_type_hints(fn) if not where.startswith(("plots.", "Report")) else {}
        returned = hints.get("return")
        if dataclasses.is_dataclass(returned):
            fields = {f.name for f in dataclasses.fields(returned)}
            if fields & decision_fields and "confidence_level" in names:
                found.append(f"{where}: returns a decision ({sorted(fields & decision_fields)}) but takes `confidence_level`")
    assert not found, "\n".join(found)


def test_options_are_literal_types_and_never_shadow_a_flag():
    found = []
    for where, fn in FUNCTIONS.items():
        params = _parameters(fn)
        hints = typing.get_type_hints(fn)
        flags = {p.name for p in params if isinstance(p.default, bool)}
        for p in params:
            if isinstance(p.default, str) and p.name not in TEXT_ARGUMENTS:
                hint = hints.get(p.name)
                args = typing.get_args(hint)
                literal = typing.get_origin(hint) is typing.Literal or any(
                    typing.get_origin(a) is typing.Literal for a in args)
                if not literal:
                    found.append(f"{where}: option `{p.name}` is typed {hint}, not Literal[...]")
                values = set(typing.get_args(hint)) | {v for a in args for v in typing.get_args(a)}
                if values & flags:
                    found.append(f"{where}: option `{p.name}` has the value(s) {sorted(values & flags)}, also a flag")
    assert not found, "\n".join(found)


def test_plots_take_ax_first():
    found = [where for where, fn in FUNCTIONS.items() if where.startswith("plots.")
             and _parameters(fn)[0].name != "ax"]
    assert not found, f"plotting functions must take `ax` first: {found}"


def _flags(parser: argparse.ArgumentParser) -> dict[str, dict[str, str]]:
    out = {}
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for command, p in sub.choices.items():
        out[command] = {s: (a.help or "") for a in p._actions for s in a.option_strings}
    return out


def test_cli_flags_mirror_the_python_names_and_seed_means_one_thing():
    flags = _flags(_parser())
    found = [f"sigeval {cmd} {flag}" for cmd, fl in flags.items() for flag in fl
             for v in _violations_of_name(cmd, flag.lstrip("-").replace("-", "_"), argument=False)]
    assert not found, found
    # --seed names the seed column (as Report(seed=)); the random generator's seed is --rng.
    assert "--rng" in flags["compare"] and "--seed" not in flags["compare"]
    assert "--seed" in flags["runs"]


@pytest.mark.parametrize("name", sorted(FORBIDDEN)[:3])
def test_the_guard_fails_on_a_reintroduced_synonym(name):
    # A function with a forbidden argument is caught, so the tests above can fail.
    def leaky(scores, **kwargs):
        return scores

    leaky.__signature__ = inspect.Signature(
        [inspect.Parameter("scores", inspect.Parameter.POSITIONAL_OR_KEYWORD),
         inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, default=1)])
    assert _violations_of_name("leaky", name, argument=True)
    assert _violations_of_name("Result", "difference_pvalue", argument=False)


def test_report_bayesian_and_aggregate_columns_keep_the_vocabulary():
    report = _report()
    frames = {"bayesian": report.bayesian(rope=0.01), "bayesian_tasks": report.bayesian(rope=0.01, over="tasks",
                                                                                         n_samples=100, rng=0),
              "aggregate": report.aggregate(n_resamples=50, rng=0)}
    found = [v for view, frame in frames.items() for column in frame.columns
             for v in _violations_of_name(f"Report.{view}", str(column), argument=False)]
    assert not found, "\n".join(found)

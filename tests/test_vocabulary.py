"""One vocabulary (CONTRIBUTING.md): every public name, result field, Report column and CLI flag is checked.

A name from the table of forbidden synonyms fails the test wherever it appears, whole or as a part of a
compound name, except in the documented exceptions: the ``Report`` calls and columns that the source's
report guide writes (``../shared/seeds/001_1e3ca91848b5879f.txt``), which readers' code calls as written.
Each name holds one kind of thing across the API (the annotations of every parameter and result field of
that name), a function returns one type whatever its arguments, docstrings say task where Demšar says
dataset, and ``alpha`` follows one rule everywhere.
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import inspect
import itertools
import re
import types
import typing
from collections.abc import Callable, Sequence

import numpy as np
import pandas as pd
import pytest
from numpy.typing import ArrayLike

import sigeval
from sigeval import plots
from sigeval._cli_parser import build_parser
from sigeval._registry import EXPORTED

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
    "score_a": "scores_a (one pair or several)",
    "score_b": "scores_b (one pair or several)",
}
#: Compound names that hold a forbidden word as a part and are the vocabulary's own words.
COMPOUNDS = {
    "confidence_level": "the vocabulary's level of an interval",
    "design_effect": "Kish's design effect, a term of art (generative)",
    "mean_diff": "the Report contract of the source's report guide",
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
    for module_name in EXPORTED:
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
    for module_name in EXPORTED:
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


def _forbidden_parts(name: str) -> list[str]:
    """The forbidden words a compound name holds as whole parts (``n_datasets_used`` holds ``n_datasets``)."""
    if name in COMPOUNDS:
        return []
    parts = name.split("_")
    runs = ("_".join(parts[i:j]) for i in range(len(parts)) for j in range(i + 1, len(parts) + 1))
    return [run for run in runs if run in FORBIDDEN and run != name]


def _violations_of_name(where: str, name: str, *, argument: bool, column: bool = False) -> list[str]:
    if (where, name) in REPORT_CONTRACT:
        return []
    found = []
    if name in FORBIDDEN:
        found.append(f"{where}: `{name}` (say `{FORBIDDEN[name]}`)")
    table_interval = column and re.fullmatch(r"([a-z_]+_)?ci_(low|high)", name)  # the tables' rule: ci_low, ci_high
    found += [f"{where}: `{name}` holds `{part}` (say `{FORBIDDEN[part]}`)" for part in _forbidden_parts(name)
              if not table_interval]
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
             for v in _violations_of_name(f"Report.{view}", str(column), argument=False, column=True)
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
    flags = _flags(build_parser())
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
                                                                                         n_draws=100, rng=0),
              "aggregate": report.aggregate(n_resamples=50, rng=0)}
    found = [v for view, frame in frames.items() for column in frame.columns
             for v in _violations_of_name(f"Report.{view}", str(column), argument=False, column=True)]
    assert not found, "\n".join(found)


# --------------------------------------------------------------------------- one type per name (issue 36)

#: (where, name) whose type differs from the name's elsewhere, each with the reason it stays.
TYPE_EXCEPTIONS = {
    ("ReportFriedman", "mean_ranks"): "Report's views label the library's arrays with the model names (pandas)",
    ("ReportRankStability", "separation"): "Report's views label the library's arrays with the model names (pandas)",
    ("ReportRankStability", "jackknife"): "Report's views label the library's arrays with the model names (pandas)",
    ("WelchResult", "df"): "the Welch-Satterthwaite degrees of freedom are fractional",
    ("bootstrap_ci", "statistic"): "scipy's names: the statistic to bootstrap (scipy.stats.bootstrap), "
                                   "beside a test's statistic",
    ("paired_bootstrap_ci", "statistic"): "scipy's names, as bootstrap_ci",
    ("bootstrap_ranks", "statistic"): "scipy's names, as bootstrap_ci",
    ("aggregate_ci", "statistic"): "the statistic to bootstrap, as bootstrap_ci",
    ("max_information_inflation", "bounds"): "a group-sequential design, where confidence_sequence's bounds are "
                                             "the range of the differences: left for a later rename",
    ("compare_predictions", "table"): "a DataFrame of predictions, where the *_counts functions take a "
                                      "PairedCounts 2x2 table",
    ("gate_table", "table"): "a DataFrame of runs or predictions, as compare_predictions and Report take it",
    ("compare_items", "table"): "a DataFrame of per-item scores, as compare_predictions takes its DataFrame",
    ("read_lm_eval", "metric"): "the metric to read from a log: one name for every task, or a mapping task -> name",
    ("read_inspect", "metric"): "the scorer to read from a log: one name for every task, or a mapping task -> name",
}
_ARRAY_PARTS = {"_Buffer", "_SupportsArray", "_NestedSequence", "ndarray"}


def _kind(hint) -> str | None:
    """What a name holds, from its annotation: flag, count, real, text, table, labels, interval, array, callable,
    a class name; None when unknown (``Any``). An optional argument holds what it holds when given; scalars and
    arrays of them are one kind (``array`` goes with ``flag``, ``count`` and ``real``)."""
    if hint is typing.Any:
        return None
    members = [m for m in (typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType)
                           else (hint,)) if m is not type(None)]
    names = {getattr(typing.get_origin(m) or m, "__name__", str(m)) for m in members}
    if names & _ARRAY_PARTS:
        return "array"
    if len(members) > 1:
        kinds = {_kind(m) for m in members}
        return kinds.pop() if len(kinds) == 1 else " or ".join(sorted(str(k) for k in kinds))
    (hint,) = members
    origin = typing.get_origin(hint)
    if origin is typing.Literal or hint is str:
        return "text"
    if origin in (tuple, list, Sequence) or hint in (tuple, list, Sequence):
        elements = {_kind(a) for a in typing.get_args(hint) if a is not Ellipsis}
        return "array" if elements and elements <= {"count", "real"} else "labels"
    if origin is Callable or hint is Callable:
        return "callable"
    simple = {bool: "flag", int: "count", float: "real", pd.DataFrame: "table", pd.Series: "table",
              sigeval.ConfidenceInterval: "interval"}
    return simple.get(hint, getattr(hint, "__name__", str(hint)))


def _compatible(a: str, b: str) -> bool:
    return a == b or {a, b} <= {"array", "flag", "count", "real"} and "array" in {a, b}


def _typed_names() -> dict[str, list[tuple[str, str]]]:
    """name -> [(where, kind)] over every public parameter and result field of the statistics and front doors."""
    found: dict[str, list[tuple[str, str]]] = {}
    for where, fn in FUNCTIONS.items():
        if where.startswith(("plots.", "course.")):
            continue
        hints = typing.get_type_hints(fn)
        for p in _parameters(fn):
            if p.kind not in (p.VAR_KEYWORD, p.VAR_POSITIONAL) and (kind := _kind(hints.get(p.name, typing.Any))):
                found.setdefault(p.name, []).append((where, kind))
    for where, cls in RESULTS.items():
        hints = typing.get_type_hints(cls)
        for f in dataclasses.fields(cls):
            if kind := _kind(hints[f.name]):
                found.setdefault(f.name, []).append((where, kind))
    return found


def _type_breaks(typed: dict[str, list[tuple[str, str]]]) -> list[str]:
    breaks = []
    for name, uses in sorted(typed.items()):
        uses = [(where, kind) for where, kind in uses if (where, name) not in TYPE_EXCEPTIONS]
        if any(not _compatible(a, b) for (_, a), (_, b) in itertools.combinations(uses, 2)):
            by_kind: dict[str, list[str]] = {}
            for where, kind in uses:
                by_kind.setdefault(kind, []).append(where)
            breaks.append(f"`{name}`: " + "; ".join(f"{k} in {', '.join(sorted(w))}" for k, w in sorted(by_kind.items())))
    return breaks


def test_each_name_has_one_type_across_the_api():
    """A parameter or result field of one name holds one kind of thing everywhere (a count is not a real, a
    flag not an option, a table not a tuple of labels)."""
    breaks = _type_breaks(_typed_names())
    assert not breaks, "\n".join(breaks)


def test_the_type_guard_sees_a_break():
    typed = {"correction": [("mcnemar", _kind(bool)), ("pairwise_wilcoxon", _kind(typing.Literal["holm"]))],
             "models": [("FriedmanResult", _kind(tuple)), ("Other", _kind(pd.DataFrame))],
             "n_draws": [("f", _kind(int)), ("Result", _kind(float))],
             "n": [("f", _kind(ArrayLike)), ("Result", _kind(int | np.ndarray)), ("g", _kind(int | None))]}
    assert [b.split(":")[0] for b in _type_breaks(typed)] == ["`correction`", "`models`", "`n_draws`"]
    assert _kind(Sequence) == _kind(tuple[str, ...]) == _kind(list | None) == "labels" != _kind(tuple[int, int])
    assert set(TYPE_EXCEPTIONS) <= {(w, n) for n, uses in _typed_names().items() for w, _ in uses}


#: Public functions whose return type changes with an argument, each with the reason it stays for now.
RETURN_EXCEPTIONS = {
    "ratio_of_sums": "the metrics answer the plain call on one test set with a float, a batch with an array "
                     "(CONTRIBUTING, callable statistics)",
    "average_precision": "a metric, as ratio_of_sums",
    "roc_auc": "a metric, as ratio_of_sums",
    "verdict_from_pvalues": "a string for scalar p-values, an array of them for arrays: left for a later change",
    "questions_needed": "an int for a scalar number of samples, an array for arrays: left for a later change",
}


def _return_unions() -> list[str]:
    found = []
    for where, fn in FUNCTIONS.items():
        if where.startswith(("plots.", "course.")) or where in RETURN_EXCEPTIONS:
            continue
        returned = typing.get_type_hints(fn).get("return")
        if typing.get_origin(returned) in (typing.Union, types.UnionType):
            found.append(f"{where} returns {returned}")
    return found


def test_a_result_never_changes_type_with_an_argument():
    found = _return_unions()
    assert not found, "\n".join(found)


def test_an_interval_around_an_estimate_has_its_confidence_interval():
    found = [where for where, cls in RESULTS.items()
             if {"estimate", "low", "high"} <= {f.name for f in dataclasses.fields(cls)}
             and "confidence_interval" not in {f.name for f in dataclasses.fields(cls)}]
    assert not found, f"results with bounds around an estimate but no `confidence_interval`: {found}"
    ci = sigeval.proportion_ci(45, 100)
    assert ci.confidence_interval == sigeval.ConfidenceInterval(ci.low, ci.high)
    assert type(ci.confidence_interval) is sigeval.ConfidenceInterval


# --------------------------------------------------------------------------- docstrings: tasks, not datasets

#: Where "dataset" is the right word: a data set that is split or scored (not a benchmark's unit, a task),
#: or a sentence that quotes Demšar's word.
DATASET_ALLOWED = [
    r"dataset-level|dataset IoU",  # IoU over the whole test set
    r"one (fixed )?dataset|simulated dataset",  # the splits of one data set (correlated t, Dietterich's tests)
    r"dataset's items|\bthe dataset\b(?!s)",  # the one data set a learner is trained and tested on (crossval)
    r"Demšar.*datasets?|datasets?.*(Demšar|his tasks)",  # a sentence quoting Demšar
]


def _docstrings():
    for module_name in EXPORTED:
        module = importlib.import_module(f"sigeval.{module_name}")
        yield f"sigeval.{module_name}", module.__doc__ or ""
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj) or inspect.isclass(obj):
                yield f"sigeval.{module_name}.{name}", inspect.getdoc(obj) or ""
                for attr, member in vars(obj).items() if inspect.isclass(obj) else ():
                    if not attr.startswith("_") and callable(member) and member.__doc__:
                        yield f"sigeval.{module_name}.{name}.{attr}", inspect.getdoc(member)
    yield "sigeval", sigeval.__doc__ or ""


def _dataset_sentences(where: str, doc: str) -> list[str]:
    """The sentences of a docstring that say "dataset" where the vocabulary says task (its examples' code aside)."""
    prose = "\n".join(line for line in doc.splitlines() if not line.lstrip().startswith((">>>", "...")))
    paragraphs = re.split(r"\n\s*\n|\n\s*-{3,}\s*\n", prose)  # blank lines and section underlines end a sentence
    sentences = [s for par in paragraphs for s in re.split(r"(?<=[.;])\s+", " ".join(par.split()))]
    return [f"{where}: {s}" for s in sentences if re.search(r"\bdatasets?\b", s, re.IGNORECASE)
            and not any(re.search(allowed, s, re.IGNORECASE) for allowed in DATASET_ALLOWED)]


def test_docstrings_say_task_where_the_vocabulary_does():
    found = [line for where, doc in _docstrings() for line in _dataset_sentences(where, doc)]
    assert not found, "\n".join(found)


def test_the_dataset_guard_sees_a_dataset():
    assert _dataset_sentences("f", "Bayesian sign test over datasets (Benavoli et al.). Number of datasets.")
    assert not _dataset_sentences("f", "Demšar's example, 14 datasets (his tasks). Dataset-level IoU.")


# --------------------------------------------------------------------------- one rule for alpha

def _alpha_calls(tmp_path):
    """where -> call(alpha) for every public callable that takes `alpha`, with otherwise valid arguments."""
    import matplotlib.pyplot as plt
    from test_bad_inputs import VALID

    from sigeval.course import dietterich

    report = _report()
    _, ax = plt.subplots()
    calls = {name: (lambda alpha, name=name: FUNCTIONS[name](**{**VALID[name], "alpha": alpha}))
             for name in VALID if "alpha" in inspect.signature(FUNCTIONS[name]).parameters}
    calls.update({
        "Report.pairwise": lambda alpha: report.pairwise(alpha=alpha),
        "Report.power": lambda alpha: report.power(alpha=alpha),
        "Report.equivalence": lambda alpha: report.equivalence(margin=0.01, alpha=alpha),
        "Report.friedman": lambda alpha: report.friedman(alpha=alpha),
        "Report.rank_stability": lambda alpha: report.rank_stability(n_boot=20, alpha=alpha, rng=0),
        "Report.summary": lambda alpha: report.summary(alpha=alpha),
        "Report.to_markdown": lambda alpha: report.to_markdown(alpha=alpha),
        "Report.to_html": lambda alpha: report.to_html(tmp_path / "r.html", alpha=alpha),
        "SequentialComparison": lambda alpha: sigeval.SequentialComparison(bounds=(0.0, 1.0), alpha=alpha),
        "plots.cd_diagram": lambda alpha: plots.cd_diagram(ax, sigeval.friedman(np.eye(3) + 1), alpha=alpha),
        "plots.error_rates": lambda alpha: plots.error_rates(ax, pd.DataFrame({"FWER": [0.6, 0.05]}), alpha=alpha),
        "plots.power_curve": lambda alpha: plots.power_curve(ax, 0.02, [0.01], [3, 5], alpha=alpha),
        "course.rejection_rates": lambda alpha: dietterich.rejection_rates(n_items=30, n_replications=2,
                                                                           alpha=alpha, rng=0),
        "course.type_one_error": lambda alpha: dietterich.type_one_error(n_items=30, n_replications=2,
                                                                         alpha=alpha, rng=0),
    })
    return calls


def test_every_alpha_follows_one_rule(tmp_path):
    """`alpha` is a level in [1e-12, 1) everywhere: Report refused below 1e-12 what paired_difference took."""
    calls = _alpha_calls(tmp_path)
    takes_alpha = {where for where, fn in FUNCTIONS.items() if "alpha" in {p.name for p in _parameters(fn)}}
    assert takes_alpha <= set(calls), f"add a call for {sorted(takes_alpha - set(calls))}"
    accepted = []
    for where, call in calls.items():
        call(1e-12)
        try:
            call(1e-13)
        except ValueError as err:
            assert str(err) == "`alpha` must be at least 1e-12; got 1e-13.", f"{where}: {err}"
        else:
            accepted.append(where)
    assert not accepted, f"accept alpha = 1e-13, which Report refuses: {accepted}"

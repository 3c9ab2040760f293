"""The ``sigeval`` command: intervals, tests and a report from CSV files.

``sigeval compare PREDICTIONS.csv``
    one row per test item: each model's accuracy (or AUC) with its interval,
    and for every pair of models the difference, its paired bootstrap
    interval, a paired test and the Holm-adjusted p-value.
``sigeval runs RUNS.csv``
    a long table of runs (task, model, seed, score) through the views of
    :class:`~sigeval.report.Report`.
``sigeval example predictions|runs``
    prints an example file shipped with the package, made from the course's
    shape benchmark, to try the other two on.

Built on ``argparse`` (the standard library) so that the command needs
nothing beyond the statistics core. Explained in :ref:`ch-own-results`.
"""

from __future__ import annotations

import argparse
import collections
import csv
import itertools
import json
import math
import os
import re
import shlex
import sys
import textwrap
from collections.abc import Sequence
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._validation import TableError, check_numeric_column, row_list
from .predictions import compare_predictions
from .report import Report

__all__ = ["main"]

EXAMPLES = {"predictions": "example_predictions.csv", "runs": "example_runs.csv"}


class InputError(Exception):
    """A problem with the user's file or options, reported in one line."""


# --------------------------------------------------------------------------- reading files


def _read_csv(path: str) -> pd.DataFrame:
    file = Path(path)
    try:
        if not file.exists():
            raise InputError(f"{path}: no such file")
        if file.is_dir():
            raise InputError(f"{path}: is a directory, not a CSV file")
        _check_header(file, path)
        table = pd.read_csv(file)
    except pd.errors.EmptyDataError:
        raise InputError(f"{path}: the file is empty") from None
    except pd.errors.ParserError as err:
        raise _shifted(file, path) or InputError(f"{path}: not a readable CSV file ({str(err).splitlines()[0]})") from None
    except UnicodeDecodeError as err:
        raise InputError(f"{path}: not a readable CSV file (byte {err.start} is not UTF-8 text)") from None
    except OSError as err:  # permission denied, an I/O error, a special file
        raise InputError(f"{path}: cannot read the file ({err.strerror or err})") from None
    if not isinstance(table.index, pd.RangeIndex):
        # More fields on each row than in the header: pandas would silently use the first column as the index.
        raise _shifted(file, path) or InputError(f"{path}: the rows have more fields than the header (line 1)")
    if table.empty:
        raise InputError(f"{path}: the file has a header but no rows")
    return table


def _lines(file: Path, stop: int | None = None) -> list[list[str]]:
    """The first ``stop`` rows of the file, split into fields by the csv module (the header is row 0)."""
    with file.open(newline="", encoding="utf-8") as handle:
        return list(itertools.islice(csv.reader(handle), stop))


def _check_header(file: Path, path: str) -> None:
    """Refuse repeated column names (pandas renames the second ``a.1``), saying if line 2 is a second header."""
    rows = _lines(file, 2)
    if not rows:
        return
    header = [name.strip() for name in rows[0]]
    counts = collections.Counter(header)
    repeated = [name for name in counts if counts[name] > 1]
    if not repeated:
        return
    name = repeated[0]
    where = ", ".join(str(i + 1) for i, h in enumerate(header) if h == name)
    message = (f"{path}, line 1: column {name!r} appears {counts[name]} times (columns {where}); "
               "each column needs its own name (pandas would rename the repeats silently)")
    second = [field.strip() for field in rows[1]] if len(rows) > 1 else []
    if second and len(set(second)) == len(second) and not any(_is_number(field) for field in second):
        message += (f". Line 2 ({', '.join(second)}) looks like a second header row, as pandas writes a "
                    "two-level (MultiIndex) header: keep one header row")
    raise InputError(message)


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _decimal_comma(row: list[str]) -> str | None:
    """The rightmost pair of adjacent fields of digits only, joined by a comma: ``0,8620`` (scores come last)."""
    digits = [bool(re.fullmatch(r"[-+]?\d+", field.strip())) and bool(re.fullmatch(r"\d+", nxt.strip()))
              for field, nxt in zip(row, row[1:])]
    for i in range(len(digits) - 1, -1, -1):
        if digits[i]:
            return f"{row[i].strip()},{row[i + 1].strip()}"
    return None


def _shifted(file: Path, path: str) -> InputError | None:
    """The first line with more or fewer fields than the header, and a decimal comma on it if there is one."""
    try:
        rows = _lines(file)
    except (OSError, UnicodeDecodeError, csv.Error):
        return None
    width = len(rows[0]) if rows else 0
    for number, row in enumerate(rows[1:], start=2):
        if row and len(row) != width:
            comma = _decimal_comma(row) if len(row) > width else None
            hint = f": a decimal comma ({comma!r})? Write decimals with a point ({comma.replace(',', '.')})" if comma else ""
            return InputError(f"{path}, line {number}: {len(row)} fields where the header (line 1) has {width}{hint}")
    return None


def _require(table: pd.DataFrame, column: str, path: str, what: str) -> None:
    if column not in table.columns:
        raise InputError(f"{path}: no column {column!r} for the {what} (the columns are {', '.join(map(repr, table.columns))})")


#: The library's spelling of an option in a message, and the command's.
SPELLINGS = (
    ("failed='drop-pairs'", "--failed drop-pairs"),
    ("auc_method='delong'", "--auc-method delong"),
    ("(listed in `failed_runs`)", "(listed under 'failed runs')"),
    ("(see `failed_runs`)", "(see the failed runs, listed with --failed drop-pairs)"),
    ("`n_resamples`", "--n-resamples"),
    ("`confidence_level`", "--confidence-level"),
    ("`alpha`", "--alpha"),
    ("`margin`", "--margin"),
    ("`target_power`", "--target-power"),
)


def _spelled(message: str) -> str:
    """A library message with its options spelled as this command's flags."""
    for python, flag in SPELLINGS:
        message = message.replace(python, flag)
    return message


def _in_file(err: TableError, path: str) -> InputError:
    """A table's problem as a line of the user's file (the header is line 1)."""
    if err.rows is None:
        return InputError(f"{path}: {_spelled(err.detail)}")
    return InputError(f"{path}, {row_list(err.rows, offset=2, word='line')}: {_spelled(err.detail)}")


# --------------------------------------------------------------------------- compare


#: The most bootstrap resamples (bootstraps x resamples) `compare` draws unless --max-resamples raises it.
MAX_RESAMPLES = 100_000_000


def _check_work(table: pd.DataFrame, label: Any, args) -> None:
    """Refuse, before any work, a comparison that would draw more resamples than ``--max-resamples``."""
    n_models = len(args.models) if args.models else len([c for c in table.columns if c not in {label, args.groups}])
    n_pairs = n_models * (n_models - 1) // 2
    if args.metric == "auc":
        bootstraps = n_models if args.auc_method == "bootstrap" else 0
    else:
        bootstraps = n_pairs + (n_models if args.groups else 0)
    total = bootstraps * args.n_resamples
    if total > args.max_resamples:
        raise InputError(
            f"{args.file}: {n_models} models make {n_pairs:,} pairs; this comparison would draw {total:,} bootstrap "
            f"resamples ({bootstraps:,} bootstraps x {args.n_resamples:,} resamples), above the limit of "
            f"{args.max_resamples:,}. Pass --max-resamples {total} to run it anyway, or compare fewer models "
            "(--models) or draw fewer resamples (--n-resamples)"
        )


def _compare(args) -> dict[str, Any]:
    path = args.file
    table = _read_csv(path)
    label = None if args.label == "none" else args.label
    no_label = ""
    if label is not None and label not in table.columns:
        if args.label_given:
            _require(table, label, path, "labels")
        no_label = (f"no column {label!r}, so every column was read as a model's 0/1 correctness; name the column "
                    "of true labels with --label COLUMN (or say --label none)")
        label = None
    _check_work(table, label, args)
    try:
        res = compare_predictions(
            table, label=label, models=args.models, groups=args.groups, metric=args.metric,
            confidence_level=args.confidence_level, n_resamples=args.n_resamples, rng=args.rng,
            auc_method=args.auc_method,
        )
    except TableError as err:
        problem = _in_file(err, path)
        raise InputError(f"{problem} ({no_label})") if no_label else problem from None
    except (ValueError, TypeError) as err:
        raise InputError(f"{path}: {_spelled(str(err))}" + (f" ({no_label})" if no_label else "")) from None
    note = f"{res.note}; {no_label}" if no_label else res.note
    return {"models": res.models, "pairs": res.pairs, "note": note, "confidence_level": res.confidence_level}


# --------------------------------------------------------------------------- runs


def _runs(args) -> dict[str, Any]:
    path = args.file
    table = _read_csv(path)
    for role in ("task", "model", "seed", "score"):
        _require(table, getattr(args, role), path, f"{role}s" if role != "score" else "scores")
    try:
        values = check_numeric_column(table, args.score)  # names the line of a non-numeric score
        if np.isinf(values).any():
            raise TableError(np.flatnonzero(np.isinf(values)), f"column {args.score!r} holds an infinite score")
    except TableError as err:
        raise _in_file(err, path) from None
    try:
        report = Report(table, task=args.task, model=args.model, seed=args.seed, score=args.score,
                        higher_is_better=not args.lower_is_better, failed=args.failed)
    except (ValueError, TypeError) as err:
        raise InputError(f"{path}: {_spelled(str(err))}") from None
    views = ("pairwise", "power", "equivalence", "friedman") if args.view == "all" else (args.view,)
    if "equivalence" in views and args.margin is None:
        raise InputError("the equivalence view needs --margin (the smallest difference that matters, fixed in advance)")
    out: dict[str, Any] = {"report": repr(report), "failed_runs": report.failed_runs, "_report": report}
    try:
        if args.view == "all":
            out["summary"] = report.summary(margin=args.margin, alpha=args.alpha, target_power=args.target_power)
            out["describe"] = report.describe()
        if "pairwise" in views:
            out["pairwise"] = report.pairwise(alpha=args.alpha)
        if "power" in views:
            out["power"] = report.power(alpha=args.alpha, target_power=args.target_power)
        if "equivalence" in views:
            out["equivalence"] = report.equivalence(args.margin, alpha=args.alpha)
        if "friedman" in views or args.plot:
            if len(report.tasks) < 2:
                if args.view == "friedman" or args.plot:
                    raise InputError(f"{path}: the Friedman view needs at least 2 tasks; the file has {len(report.tasks)}")
            else:
                out["friedman"] = report.friedman(alpha=args.alpha)
    except ValueError as err:
        raise InputError(f"{path}: {_spelled(str(err))}") from None
    out["note"] = (f"Differences are model A minus model B over the seeds both ran (paired by task and seed); "
                   f"paired t test and {1 - args.alpha:.0%} intervals, p-values Holm-adjusted within each task, "
                   f"a difference rejects at p <= alpha = {args.alpha:g}"
                   + (f"; equivalence by TOST at margin {args.margin:g}" if "equivalence" in out else "")
                   + ("; ranks over the tasks' mean scores" + (", lower is better" if args.lower_is_better else "")
                      if "friedman" in out else "") + ".")
    if args.plot:
        _plot_cd(out["friedman"], args.plot, args.alpha)
        out["plot"] = args.plot
    if args.html:
        _write_html(out, args.html, args)
        out["html"] = args.html
    return out


def _plot_cd(friedman, path: str, alpha: float) -> None:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        from .plots import cd_diagram
    except ImportError:
        raise InputError(f"--plot {PLOTS_HINT}") from None
    fig, ax = plt.subplots(figsize=(7, 0.5 + 0.45 * friedman.n_models))
    cd_diagram(ax, friedman.result, alpha=alpha)
    fig.tight_layout()
    try:
        fig.savefig(path)
    except (OSError, ValueError) as err:
        raise InputError(f"--plot {path}: cannot write the figure ({err})") from None
    finally:
        plt.close(fig)


# --------------------------------------------------------------------------- output


#: What to install for figures, as the README installs the package (it is not on PyPI).
PLOTS_HINT = ("needs matplotlib, which sigeval's plots extra installs: pip install \"path/to/sigeval[plots]\" "
              "(as the README shows), or pip install matplotlib")

#: The width of a terminal the tables fit: wider ones continue below, as pandas wraps them.
WIDTH = 100


def _table(frame: pd.DataFrame) -> str:
    formats = {c: (lambda v: f"{v:.4g}") for c in frame.columns if c.startswith("pvalue")}
    return frame.to_string(index=False, float_format=lambda v: f"{v:.4f}", formatters=formats, line_width=WIDTH)


def _jsonable(value: Any, where: str, infinite: dict[str, str]) -> Any:
    """``value`` as strict JSON: floats at full precision, NaN as null, an infinity as null listed in ``infinite``."""
    if isinstance(value, pd.DataFrame):
        return [_jsonable(row, f"{where}[{i}]", infinite) for i, row in enumerate(value.to_dict(orient="records"))]
    if isinstance(value, pd.Series):
        return _jsonable(value.to_dict(), where, infinite)
    if hasattr(value, "keys") and hasattr(value, "__getitem__"):
        return {str(k): _jsonable(value[k], f"{where}.{k}" if where else str(k), infinite)
                for k in value.keys() if k not in ("result", "mean_scores", "n_seeds")}
    if isinstance(value, list | tuple):
        return [_jsonable(v, f"{where}[{i}]", infinite) for i, v in enumerate(value)]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        if not math.isnan(value):
            infinite[where] = "inf" if value > 0 else "-inf"
        return None
    return value


def _json(out: dict, env: dict) -> str:
    """The output as JSON that a strict parser reads; infinities are null, named under ``non_finite``."""
    infinite: dict[str, str] = {}
    shown = _jsonable({k: v for k, v in out.items() if not k.startswith("_")}, "", infinite)
    if infinite:
        shown["non_finite"] = infinite  # JSON has no infinity: which nulls were +inf or -inf
    return json.dumps({**shown, "environment": env}, indent=2, allow_nan=False) + "\n"


def _text_compare(out: dict) -> str:
    lines = [f"models ({out['confidence_level']:.0%} intervals)", _table(out["models"]), "", "pairs",
             _table(out["pairs"]), "", out["note"]]
    return "\n".join(lines) + "\n"


def _text_runs(out: dict) -> str:
    lines = [out["report"]]
    if "summary" in out:
        lines += ["", "summary", _wrapped(out["summary"])]
    if len(out["failed_runs"]):
        lines += ["", "failed runs (their pairs are left out)", _table(out["failed_runs"])]
    for view in ("describe", "pairwise", "power", "equivalence"):
        if view in out:
            lines += ["", VIEW_TITLES[view], _table(out[view])]
    if "friedman" in out:
        f = out["friedman"]
        lines += ["", "friedman (over the tasks' mean scores)",
                  _table(f.mean_ranks.rename("mean_rank").rename_axis("model").reset_index()),
                  f"chi2_F = {f.statistic:.4f}, p = {f.pvalue:.4g}; Iman-Davenport F_F = {f.statistic_f:.4f}, "
                  f"p = {f.pvalue_f:.4g}"]
        gap = f"tasks for that gap: {f.n_for_observed_gap}" if f.n_for_observed_gap else "no gap"
        lines.append(_wrapped(f"critical difference = {f.critical_difference:.4f} at alpha = {f.alpha:g} with "
                              f"{f.n_tasks} tasks; largest mean-rank gap = {f.max_rank_gap:.4f}; {gap}"))
    if "note" in out:
        lines += ["", _wrapped(out["note"])]
    for key, what in (("plot", "CD diagram"), ("html", "HTML report")):
        if key in out:
            lines += ["", f"{what} written to {out[key]}"]
    return "\n".join(lines) + "\n"


VIEW_TITLES = {"describe": "scores per task (mean and sd over the seeds)", "pairwise": "pairwise",
               "power": "power", "equivalence": "equivalence"}


def _wrapped(text: str) -> str:
    return textwrap.fill(text, width=WIDTH)


def _tables(out: dict) -> dict[str, pd.DataFrame]:
    """The tables of an output, by name."""
    tables = {k: v for k, v in out.items() if isinstance(v, pd.DataFrame) and (k != "failed_runs" or len(v))}
    if "friedman" in out:
        tables["friedman"] = out["friedman"].mean_ranks.rename("mean_rank").rename_axis("model").reset_index()
    return tables


def _render(out: dict, fmt: str, text: Any, args) -> str:
    """The output in one of FORMATS (html is written by _write_html)."""
    from . import _report_output as ro

    env = ro.environment(out["_report"], _command_line(args)) if "_report" in out else {**ro.versions(),
                                                                                      "call": _command_line(args)}
    if fmt == "text":
        return text(out)
    if fmt == "json":
        return _json(out, env)
    if fmt == "csv":
        frames = [t.assign(table=name)[["table", *t.columns]] for name, t in _tables(out).items()]
        return pd.concat(frames, ignore_index=True).to_csv(index=False)
    if fmt == "markdown":
        if "_report" in out and args.view == "all":
            return ro.to_markdown(out["_report"], args.margin, args.alpha, args.target_power, 4, _command_line(args),
                                  metric=args.score)
        parts = [f"## {name}\n\n{ro.markdown_table(t, 4)}" for name, t in _tables(out).items()]
        if "note" in out:
            parts.append(ro.md(out["note"]))
        parts.append("## environment\n\n" + ro.markdown_table(pd.DataFrame(list(env.items()), columns=["", "value"]), 4))
        return "\n\n".join(parts) + "\n"
    # latex: the runs' mean ± sd table, or each table of compare in booktabs
    if "_report" in out:
        tables = [ro.latex_table(t, 4) for name, t in _tables(out).items() if name != "describe"]
        return "\n".join([ro.to_latex(out["_report"], 4, True), *tables])
    return "\n".join(ro.latex_table(t, 4) for t in _tables(out).values())


def _command_line(args: argparse.Namespace) -> str:
    """The command as it was given (to ``main``, or on the command line), for the environment block."""
    return "sigeval " + " ".join(shlex.quote(a) for a in args.argv)


def _emit(out: dict, text: Any, args) -> None:
    """Print the output, or write it to --output (a .html name writes the page)."""
    target = getattr(args, "output", None)
    if target and Path(target).suffix.lower() in (".html", ".htm"):
        _write_html(out, target, args)
        print(f"HTML report written to {target}")
        return
    rendered = _render(out, args.format, text, args)
    if not target:
        sys.stdout.write(rendered)
        return
    try:
        Path(target).write_text(rendered, encoding="utf-8")
    except OSError as err:
        raise InputError(f"--output {target}: cannot write the file ({err.strerror or err})") from None
    print(f"{args.format} written to {target}")


def _write_html(out: dict, target: str, args) -> None:
    from . import _report_output as ro

    try:
        if "_report" in out:
            ro.to_html(out["_report"], target, args.margin, args.alpha, args.target_power, 4, _command_line(args),
                       None, metric=args.score)
        else:
            ro.tables_page(target, f"Comparison of {len(out['models'])} models: {args.file}", _tables(out),
                           out["note"], ro.versions() | {"call": _command_line(args)})
    except OSError as err:
        raise InputError(f"{target}: cannot write the page ({err.strerror or err})") from None


# --------------------------------------------------------------------------- parser


def _level(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a number strictly between 0 and 1; got {text!r}") from None
    if not 0 < value < 1:
        raise argparse.ArgumentTypeError(f"must be strictly between 0 and 1; got {text!r}")
    return value


def _positive(kind):
    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a positive {kind.__name__}; got {text!r}") from None
        if not value > 0 or value != value or value == float("inf"):
            raise argparse.ArgumentTypeError(f"must be a positive {kind.__name__}; got {text!r}")
        return value

    return parse


def _at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be a whole number >= {minimum}; got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be a whole number >= {minimum}; got {text!r}")
        return value

    return parse


def _seed(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer; got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"must be a non-negative integer; got {text!r}")
    return value


COMPARE_EXAMPLE = """example:
  sigeval example predictions > predictions.csv
  sigeval compare predictions.csv
  sigeval compare predictions.csv --models matcher_A matcher_B --n-resamples 2000 --json
"""
RUNS_EXAMPLE = """example:
  sigeval example runs > runs.csv
  sigeval runs runs.csv --view all --margin 0.01
  sigeval runs runs.csv --view friedman --plot cd.png
"""


FORMATS = ("text", "markdown", "latex", "csv", "json")


def _output_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=FORMATS, default="text",
                         help="text tables (default), Markdown, LaTeX (booktabs), CSV or JSON")
    command.add_argument("--output", metavar="FILE", help="write to FILE instead of printing; a .html FILE gets the "
                         "self-contained HTML page")
    command.add_argument("--json", action="store_const", dest="format", const="json", help="the same as --format json")


class _Version(argparse.Action):
    """``--version``: sigeval's version, then what a bug report needs (versions, platform, BLAS)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        from ._report_output import versions

        detail = versions()
        lines = [f"sigeval {detail.pop('sigeval')}"] + [f"  {k}: {v}" for k, v in detail.items()]
        sys.stdout.write("\n".join(lines) + "\n")
        parser.exit()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sigeval",
        description="Intervals, paired tests and reports for comparing models, from CSV files.",
        epilog="Run 'sigeval COMMAND --help' for each command's options and an example.",
    )
    parser.add_argument("--version", action=_Version, help="show the version, with those of Python, numpy, scipy, "
                        "pandas, the platform and the BLAS (for bug reports), and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compare = commands.add_parser(
        "compare", help="models scored on the same test items: accuracies, differences, tests",
        description="One row per test item: a label column and one column per model, holding the model's "
        "predicted labels (compared with the label), or 0/1 correctness (with --label none), or scores "
        "for the positive class (with --metric auc). Prints each model's accuracy with its interval and, "
        "for every pair, the difference (A minus B), its paired bootstrap interval, a paired test and the "
        "Holm-adjusted p-value.",
        epilog=COMPARE_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare.add_argument("file", metavar="PREDICTIONS.csv")
    compare.add_argument("--label", default=None,
                         help="the column of true labels (default 'label'; 'none' if the model columns are 0/1 correctness)")
    compare.add_argument("--models", nargs="+", metavar="COLUMN", help="the model columns (default: every other column)")
    compare.add_argument("--groups", metavar="COLUMN",
                         help="a column of group labels for correlated items: whole groups are resampled and sign-flipped")
    compare.add_argument("--metric", choices=("accuracy", "auc"), default="accuracy",
                         help="accuracy of predicted labels (default), or AUC of scores with DeLong's test")
    compare.add_argument("--confidence-level", type=_level, default=0.95, metavar="LEVEL")
    compare.add_argument("--n-resamples", type=_at_least(2), default=10_000, metavar="N",
                         help="bootstrap resamples per interval, at least 2 (default 10,000; at most --max-resamples in all)")
    compare.add_argument("--rng", type=_seed, default=0, metavar="SEED",
                         help="seed of the random generator of the bootstrap (default 0)")
    compare.add_argument("--auc-method", choices=("delong", "bootstrap"), default="delong",
                         help="each model's AUC interval with --metric auc: DeLong's (default) or a bootstrap")
    compare.add_argument("--max-resamples", type=_positive(int), default=MAX_RESAMPLES, metavar="N",
                         help=f"refuse to draw more than N bootstrap resamples in all, bootstraps x resamples "
                         f"(default {MAX_RESAMPLES:,})")
    _output_options(compare)

    runs = commands.add_parser(
        "runs", help="a table of runs (task, model, seed, score): pairwise, power, equivalence, friedman",
        description="A long table, one row per run: the task, the model, the seed and the score. Runs are "
        "paired by (task, seed). Prints the views of sigeval.Report: pairwise (paired t, Holm within each "
        "task), power (MDE and seeds needed), equivalence (TOST at --margin, four verdicts) and friedman "
        "(mean ranks over tasks, critical difference).",
        epilog=RUNS_EXAMPLE, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    runs.add_argument("file", metavar="RUNS.csv")
    runs.add_argument("--view", choices=("pairwise", "power", "equivalence", "friedman", "all"), default="pairwise")
    runs.add_argument("--margin", type=_positive(float), help="equivalence margin, in the units of the scores")
    runs.add_argument("--alpha", type=_level, default=0.05)
    runs.add_argument("--target-power", type=_level, default=0.80)
    runs.add_argument("--task", default="task", metavar="COLUMN")
    runs.add_argument("--model", default="model", metavar="COLUMN")
    runs.add_argument("--seed", default="seed", metavar="COLUMN")
    runs.add_argument("--score", default="score", metavar="COLUMN")
    runs.add_argument("--lower-is-better", action="store_true", help="for losses and error rates (ranks only)")
    runs.add_argument("--failed", choices=("raise", "drop-pairs"), default="raise",
                      help="failed, missing or duplicated runs: an error (default), or leave out their pairs")
    runs.add_argument("--plot", metavar="FILE", help="save the critical-difference diagram (needs matplotlib)")
    runs.add_argument("--html", metavar="FILE", help="also write the whole report as one self-contained HTML page")
    _output_options(runs)

    example = commands.add_parser("example", help="print an example CSV file shipped with sigeval",
                                  description="Print an example file, made from the course's shape benchmark.",
                                  epilog="example:\n  sigeval example predictions > predictions.csv",
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    example.add_argument("which", choices=tuple(EXAMPLES))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``sigeval`` command; returns its exit status.

    Examples
    --------
    >>> from sigeval.cli import main
    >>> main(["--version"])  # doctest: +SKIP
    sigeval 0.2.0
    """
    parser = _parser()
    args = parser.parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if args.command == "example":
            sys.stdout.write(resources.files("sigeval").joinpath("data", EXAMPLES[args.which]).read_text())
        elif args.command == "compare":
            args.label_given = args.label is not None
            args.label = args.label or "label"
            _emit(_compare(args), _text_compare, args)
        else:
            _emit(_runs(args), _text_runs, args)
    except InputError as err:
        print(f"sigeval {args.command}: error: {err}", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # noqa: BLE001 (a user sees one line, never a traceback; SIGEVAL_DEBUG=1 shows it)
        if os.environ.get("SIGEVAL_DEBUG"):
            raise
        print(f"sigeval {args.command}: internal error: {type(err).__name__}: {err}. This is a bug: please report "
              "it with the output of 'sigeval --version' (set SIGEVAL_DEBUG=1 for the traceback)", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

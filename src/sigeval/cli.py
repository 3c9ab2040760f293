"""The ``sigeval`` command: intervals, tests and a report from CSV files.

``sigeval compare PREDICTIONS.csv``
    one row per test item: each model's accuracy (or AUC) with its interval,
    and for every pair of models the difference, its paired bootstrap
    interval, a paired test and the Holm-adjusted p-value
    (:func:`~sigeval.predictions.compare_predictions`).
``sigeval runs RUNS.csv``
    a long table of runs (task, model, seed, score) through the views of
    :class:`~sigeval.report.Report`.
``sigeval gate FILE --model-a NAME --model-b NAME --margin M``
    a regression gate for CI (:func:`~sigeval.gating.gate_table`): pass, fail or
    undetermined, with exit status 0, 1 or 2 (3 for an error), a one-line verdict
    (or JSON), the Markdown summary appended to ``$GITHUB_STEP_SUMMARY``, and with
    ``--state FILE`` a confidence sequence kept between calls (:ref:`ch-gating`).
``sigeval example predictions|runs``
    prints an example file shipped with the package, made from the course's
    shape benchmark, to try the others on.

Parse, one library call, one render: the files are read by
:mod:`sigeval.readers`, the numbers computed by the library, every output
written by its one renderer. Built on ``argparse`` (the standard library) so
that the command needs nothing beyond the statistics core. Explained in
:ref:`ch-own-results`.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import shlex
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import pandas as pd

from . import _report_output as ro
from ._validation import TableError, row_list
from .gating import EXIT_STATUS, GateMethod, GateResult, GateState, gate_table
from .predictions import compare_predictions
from .readers import read_csv_table, read_runs_csv
from .report import Report

__all__ = ["main"]

EXAMPLES = {"predictions": "example_predictions.csv", "runs": "example_runs.csv"}

#: The most bootstrap resamples (bootstraps x resamples) `compare` draws unless --max-resamples raises it.
MAX_RESAMPLES = 100_000_000

#: The views `runs --view all` prints, in order; the page and the Markdown of `all` hold every view.
ALL_VIEWS = ("summary", "failed_runs", "describe", "pairwise", "power", "equivalence", "friedman")

#: The exit status of ``sigeval gate`` for an error (bad file or options): 0, 1 and 2 are its decisions.
GATE_ERROR = 3

#: What to install for figures, as the README installs the package (it is not on PyPI).
PLOTS_HINT = ("needs matplotlib, which sigeval's plots extra installs: pip install \"path/to/sigeval[plots]\" "
              "(as the README shows), or pip install matplotlib")


class InputError(Exception):
    """A problem with the user's file or options, reported in one line."""


# --------------------------------------------------------------------------- the two commands


def _read(reader, path: str, **columns) -> pd.DataFrame:
    """The file read by one of the library's readers, whose errors name the file and the line."""
    try:
        return reader(path, **columns)
    except (OSError, ValueError) as err:
        raise InputError(str(err)) from None


def _compare(args: argparse.Namespace) -> ro.ComparisonOutput:
    table = _read(read_csv_table, args.file)
    label = None if args.label == "none" else (args.label or "label")
    no_label = ""
    if args.label is None and label not in table.columns:
        no_label = (f"no column {label!r}, so every column was read as a model's 0/1 correctness; name the column "
                    "of true labels with --label COLUMN (or say --label none)")
        label = None
    try:
        res = compare_predictions(
            table, label=label, models=args.models, groups=args.groups, metric=args.metric,
            confidence_level=args.confidence_level, n_resamples=args.n_resamples, rng=args.rng,
            auc_method=args.auc_method, max_resamples=args.max_resamples,
        )
    except (ValueError, TypeError) as err:
        where = args.file
        if isinstance(err, TableError) and err.rows is not None:  # positions of the table, lines of the file
            where += ", " + row_list(table.index[err.rows].to_numpy(), word="line")
        detail = err.detail if isinstance(err, TableError) else str(err)
        raise InputError(f"{where}: {detail}" + (f" ({no_label})" if no_label else "")) from None
    return ro.ComparisonOutput(res, f"{res.note}; {no_label}" if no_label else res.note, args.file, _call(args))


def _runs(args: argparse.Namespace) -> ro.ReportOutput:
    table = _read(read_runs_csv, args.file, task=args.task, model=args.model, seed=args.seed, score=args.score)
    try:
        report = Report(table, task=args.task, model=args.model, seed=args.seed, score=args.score,
                        higher_is_better=not args.lower_is_better, failed=args.failed)
        if args.view in ("equivalence", "all") and args.margin is None:
            raise InputError("the equivalence view needs --margin (the smallest difference that matters, fixed in "
                             "advance)")
        if (args.view == "friedman" or args.plot) and len(report.tasks) < 2:
            raise InputError(f"{args.file}: the Friedman view needs at least 2 tasks; the file has {len(report.tasks)}")
        shown = ALL_VIEWS if args.view == "all" else ("failed_runs", args.view, *(("friedman",) if args.plot else ()))
        page = args.html or Path(args.output or "").suffix.lower() in (".html", ".htm")
        whole = page or (args.format == "markdown" and args.view == "all")
        choices = ro.Choices(margin=args.margin, alpha=args.alpha, target_power=args.target_power, metric=args.score)
        out = ro.ReportOutput(report, choices, ro.views(report, choices, ro.EVERY if whole else (*shown, "describe")),
                              shown, _call(args))
    except (ValueError, TypeError) as err:
        raise InputError(f"{args.file}: {err}") from None
    if args.plot:
        _write(f"--plot {args.plot}", "the figure", lambda: ro.cd_diagram_file(out.views["friedman"], args.alpha,
                                                                               args.plot))
    if args.html:
        _write(args.html, "the page", lambda: ro.page(out, args.html))
    written = (("plot", args.plot), ("html", args.html))
    return dataclasses.replace(out, written=tuple((key, path) for key, path in written if path))


def _gate(args: argparse.Namespace) -> GateResult:
    if args.paired_by == "seed":
        table = _read(read_runs_csv, args.file, task=args.task, model=args.model, seed=args.seed, score=args.score)
    else:
        table = _read(read_csv_table, args.file)
    names = {args.task: "task", args.model: "model", args.seed: "seed", args.score: "score", args.item: "item"}
    table = table.rename(columns={given: name for given, name in names.items() if given != name})
    method: GateMethod = args.method or ("t-mixture" if args.state else "fixed")
    if args.state and method == "fixed":
        raise InputError("--state keeps the history of a confidence sequence; --method fixed keeps none (use "
                         "--method t-mixture or betting)")
    state = _read_state(args.state) if args.state and Path(args.state).exists() else None
    try:
        res = gate_table(table, model_a=args.model_a, model_b=args.model_b, margin=args.margin, alpha=args.alpha,
                         higher_is_better=not args.lower_is_better, paired_by=args.paired_by, fail_on=args.fail_on,
                         target_power=args.target_power, method=method, state=state, bounds=args.bounds,
                         label=args.label)
    except (ValueError, TypeError) as err:
        where = args.file
        if isinstance(err, TableError) and err.rows is not None:  # positions of the table, lines of the file
            where += ", " + row_list(table.index[err.rows].to_numpy(), word="line")
        raise InputError(f"{where}: {err.detail if isinstance(err, TableError) else err}") from None
    if res.state is not None:
        _write(f"--state {args.state}", "the state", lambda: Path(args.state).write_text(res.state.to_json()))
    return res


def _read_state(path: str) -> GateState:
    try:
        return GateState.from_json(Path(path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise InputError(f"--state {path}: cannot read the file ({getattr(err, 'strerror', None) or err})") from None
    except ValueError as err:
        raise InputError(f"--state {path}: {err}") from None


def _emit_gate(res: GateResult, args: argparse.Namespace) -> None:
    """The verdict in one line (or JSON) on standard output, the Markdown summary appended to its file."""
    sys.stdout.write((json.dumps(res.to_dict(), indent=1) if args.json else res.to_line()) + "\n")
    summary = args.summary or os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        def append() -> None:
            with open(summary, "a", encoding="utf-8") as file:
                file.write(res.to_markdown() + "\n")
        _write(f"--summary {summary}" if args.summary else f"$GITHUB_STEP_SUMMARY ({summary})", "the summary", append)


# --------------------------------------------------------------------------- output


def _call(args: argparse.Namespace) -> str:
    """The command as it was given (to ``main``, or on the command line), for the environment block."""
    return "sigeval " + " ".join(shlex.quote(a) for a in args.argv)


def _write(where: str, what: str, write) -> None:
    """Write a file beside the output (the figure, the page), or say in one line why it cannot be written."""
    try:
        write()
    except ImportError:
        raise InputError(f"--plot {PLOTS_HINT}") from None
    except (OSError, ValueError) as err:  # the page's error as its OSError says it; the figure's as matplotlib does
        detail = err.strerror if isinstance(err, OSError) and what == "the page" and err.strerror else err
        raise InputError(f"{where}: cannot write {what} ({detail})") from None


def _emit(out: ro.ReportOutput | ro.ComparisonOutput, args: argparse.Namespace) -> None:
    """Print the output, or write it to --output (a .html name writes the page)."""
    target = args.output
    if target and Path(target).suffix.lower() in (".html", ".htm"):
        _write(target, "the page", lambda: ro.page(out, target))
        print(f"HTML report written to {target}")
        return
    rendered = ro.render(out, args.format)
    if not target:
        sys.stdout.write(rendered)
        return
    try:
        Path(target).write_text(rendered, encoding="utf-8")
    except OSError as err:
        raise InputError(f"--output {target}: cannot write the file ({err.strerror or err})") from None
    print(f"{args.format} written to {target}")


# --------------------------------------------------------------------------- parser


def _number(kind, valid, expect: str, expect_text: str | None = None):
    """An argparse type: a ``kind`` for which ``valid`` holds, or what is expected and the text given."""

    def parse(text: str):
        try:
            value = kind(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {expect_text or expect}; got {text!r}") from None
        if not valid(value):
            raise argparse.ArgumentTypeError(f"must be {expect}; got {text!r}")
        return value

    return parse


LEVEL = _number(float, lambda v: 0 < v < 1, "strictly between 0 and 1", "a number strictly between 0 and 1")
POSITIVE_FLOAT = _number(float, lambda v: 0 < v < float("inf"), "a positive float")


class _Version(argparse.Action):
    """``--version``: sigeval's version, then what a bug report needs (versions, platform, BLAS)."""

    def __init__(self, option_strings, dest=argparse.SUPPRESS, default=argparse.SUPPRESS, help=None):
        super().__init__(option_strings, dest=dest, default=default, nargs=0, help=help)

    def __call__(self, parser, namespace, values, option_string=None):
        detail = ro.versions()
        sys.stdout.write("\n".join([f"sigeval {detail.pop('sigeval')}"] + [f"  {k}: {v}" for k, v in detail.items()]) + "\n")
        parser.exit()


def _output_options(command: argparse.ArgumentParser) -> None:
    command.add_argument("--format", choices=("text", "markdown", "latex", "csv", "json"), default="text",
                         help="text tables (default), Markdown, LaTeX (booktabs), CSV or JSON")
    command.add_argument("--output", metavar="FILE", help="write to FILE instead of printing; a .html FILE gets the "
                         "self-contained HTML page")
    command.add_argument("--json", action="store_const", dest="format", const="json", help="the same as --format json")


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
        epilog="example:\n  sigeval example predictions > predictions.csv\n  sigeval compare predictions.csv\n"
        "  sigeval compare predictions.csv --models matcher_A matcher_B --n-resamples 2000 --json\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare.add_argument("file", metavar="PREDICTIONS.csv")
    compare.add_argument("--label", default=None,
                         help="the column of true labels (default 'label'; 'none' if the model columns are 0/1 correctness)")
    compare.add_argument("--models", nargs="+", metavar="COLUMN", help="the model columns (default: every other column)")
    compare.add_argument("--groups", metavar="COLUMN",
                         help="a column of group labels for correlated items: whole groups are resampled and sign-flipped")
    compare.add_argument("--metric", choices=("accuracy", "auc"), default="accuracy",
                         help="accuracy of predicted labels (default), or AUC of scores with DeLong's test")
    compare.add_argument("--confidence-level", type=LEVEL, default=0.95, metavar="LEVEL")
    compare.add_argument("--n-resamples", type=_number(int, lambda v: v >= 2, "a whole number >= 2"), default=10_000,
                         metavar="N",
                         help="bootstrap resamples per interval, at least 2 (default 10,000; at most --max-resamples in all)")
    compare.add_argument("--rng", type=_number(int, lambda v: v >= 0, "a non-negative integer"), default=0,
                         metavar="SEED", help="seed of the random generator of the bootstrap (default 0)")
    compare.add_argument("--auc-method", choices=("delong", "bootstrap"), default="delong",
                         help="each model's AUC interval with --metric auc: DeLong's (default) or a bootstrap")
    compare.add_argument("--max-resamples", type=_number(int, lambda v: v > 0, "a positive int"), default=MAX_RESAMPLES,
                         metavar="N", help=f"refuse to draw more than N bootstrap resamples in all, bootstraps x "
                         f"resamples (default {MAX_RESAMPLES:,})")
    _output_options(compare)

    runs = commands.add_parser(
        "runs", help="a table of runs (task, model, seed, score): pairwise, power, equivalence, friedman",
        description="A long table, one row per run: the task, the model, the seed and the score. Runs are "
        "paired by (task, seed). Prints the views of sigeval.Report: pairwise (paired t, Holm within each "
        "task), power (MDE and seeds needed), equivalence (TOST at --margin, four verdicts) and friedman "
        "(mean ranks over tasks, critical difference).",
        epilog="example:\n  sigeval example runs > runs.csv\n  sigeval runs runs.csv --view all --margin 0.01\n"
        "  sigeval runs runs.csv --view friedman --plot cd.png\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    runs.add_argument("file", metavar="RUNS.csv")
    runs.add_argument("--view", choices=("pairwise", "power", "equivalence", "friedman", "all"), default="pairwise")
    runs.add_argument("--margin", type=POSITIVE_FLOAT, help="equivalence margin, in the units of the scores")
    runs.add_argument("--alpha", type=LEVEL, default=0.05)
    runs.add_argument("--target-power", type=LEVEL, default=0.80)
    for role in ("task", "model", "seed", "score"):
        runs.add_argument(f"--{role}", default=role, metavar="COLUMN")
    runs.add_argument("--lower-is-better", action="store_true", help="for losses and error rates (ranks only)")
    runs.add_argument("--failed", choices=("raise", "drop-pairs"), default="raise",
                      help="failed, missing or duplicated runs: an error (default), or leave out their pairs")
    runs.add_argument("--plot", metavar="FILE", help="save the critical-difference diagram (needs matplotlib)")
    runs.add_argument("--html", metavar="FILE", help="also write the whole report as one self-contained HTML page")
    _output_options(runs)

    gate = commands.add_parser(
        "gate", help="a regression gate for CI: pass, fail or undetermined (exit status 0, 1, 2)",
        description="Is the candidate (--model-a) worse than the baseline (--model-b) by --margin? From a table of "
        "runs (task, model, seed, score; one task), or of items (--paired-by item: one row per item and a column "
        "per model, or a long table with model, item and score columns). Pass: the candidate is shown to be worse "
        "by less than the margin (one-sided at --alpha). Fail: it is shown worse by more than the margin, or at "
        "all with --fail-on zero. Undetermined: neither, with the seeds or items that would settle it. Failed runs "
        "(empty scores) are counted, and a candidate that fails more often is flagged. Exit status: 0 pass, 1 "
        "fail, 2 undetermined, 3 an error. With --state FILE the decision reads a confidence sequence over every "
        "call that used FILE, so that calling the gate again after running more seeds keeps its error rate.",
        epilog="example:\n  sigeval example runs > runs.csv\n"
        "  sigeval gate runs.csv --model-a matcher_B --model-b matcher_A --margin 0.01\n"
        "  sigeval gate runs.csv --model-a new --model-b main --margin 0.005 --state gate-state.json --json\n"
        "exit status: 0 pass, 1 fail, 2 undetermined, 3 error\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    # A usage error of the gate exits with its error status, not argparse's 2 (which means undetermined here).
    gate.error = lambda message: gate.exit(  # type: ignore[method-assign]
        GATE_ERROR, f"{gate.format_usage()}sigeval gate: error: {message}\n")
    gate.add_argument("file", metavar="FILE.csv")
    gate.add_argument("--model-a", required=True, metavar="NAME", help="the candidate (a model, or a model column)")
    gate.add_argument("--model-b", required=True, metavar="NAME", help="the baseline")
    gate.add_argument("--margin", type=POSITIVE_FLOAT, required=True,
                      help="the largest loss that does not matter, in the units of the scores, fixed in advance")
    gate.add_argument("--alpha", type=_number(float, lambda v: 0 < v < 0.5, "strictly between 0 and 0.5"),
                      default=0.05, help="level of each one-sided decision (default 0.05)")
    gate.add_argument("--lower-is-better", action="store_true", help="for losses and error rates")
    gate.add_argument("--fail-on", choices=("margin", "zero"), default="margin",
                      help="fail when shown worse by more than the margin (default), or worse at all")
    gate.add_argument("--paired-by", choices=("seed", "item"), default="seed",
                      help="runs paired by seed (default), or items paired by item")
    gate.add_argument("--label", metavar="COLUMN", help="with --paired-by item, a column of true labels: the model "
                      "columns hold predicted labels")
    gate.add_argument("--target-power", type=LEVEL, default=0.80,
                      help="probability of settling with the seeds or items an undetermined gate asks for (default 0.8)")
    gate.add_argument("--method", choices=("fixed", "t-mixture", "betting"),
                      help="the paired t-test at this sample size (default), or a confidence sequence (the default "
                      "with --state)")
    gate.add_argument("--state", metavar="FILE", help="keep the history of the comparison in FILE (JSON; created on "
                      "the first call): the decision is valid however often the gate is called")
    gate.add_argument("--bounds", type=float, nargs=2, metavar=("LOW", "HIGH"),
                      help="limits of every score, for --method betting (for accuracies: 0 1)")
    gate.add_argument("--summary", metavar="FILE", help="append the Markdown summary to FILE (default: to "
                      "$GITHUB_STEP_SUMMARY when it is set)")
    gate.add_argument("--json", action="store_true", help="print the result as JSON instead of one line")
    for role in ("task", "model", "seed", "score", "item"):
        gate.add_argument(f"--{role}", default=role, metavar="COLUMN")

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
    args = _parser().parse_args(argv)
    args.argv = list(sys.argv[1:] if argv is None else argv)
    gating = args.command == "gate"
    try:
        if args.command == "example":
            sys.stdout.write(resources.files("sigeval").joinpath("data", EXAMPLES[args.which]).read_text())
        elif gating:
            res = _gate(args)
            _emit_gate(res, args)
            return EXIT_STATUS[res.decision]
        else:
            _emit(_compare(args) if args.command == "compare" else _runs(args), args)
    except InputError as err:
        print(f"sigeval {args.command}: error: {err}", file=sys.stderr)
        return GATE_ERROR if gating else 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        return 130
    except Exception as err:  # noqa: BLE001 (a user sees one line, never a traceback; SIGEVAL_DEBUG=1 shows it)
        if os.environ.get("SIGEVAL_DEBUG"):
            raise
        print(f"sigeval {args.command}: internal error: {type(err).__name__}: {err}. This is a bug: please report "
              "it with the output of 'sigeval --version' (set SIGEVAL_DEBUG=1 for the traceback)", file=sys.stderr)
        return GATE_ERROR if gating else 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The ``sigeval`` command: intervals, tests and a report from CSV files.

``sigeval compare PREDICTIONS.csv``
    one row per test item: each model's accuracy (or AUC) with its interval,
    and for every pair of models the difference, its paired bootstrap
    interval, a paired test and the Holm-adjusted p-value
    (:func:`~sigeval.predictions.compare_predictions`).
``sigeval compare --from lm-eval OUTPUT_DIR ...``, ``--from inspect LOG ...``
    the same, task by task, from the per-item logs of lm-evaluation-harness
    or Inspect AI (:func:`~sigeval.readers.read_lm_eval`,
    :func:`~sigeval.readers.read_inspect`, :func:`~sigeval.predictions.compare_items`).
``sigeval runs RUNS.csv``, ``sigeval runs --from mlflow --experiment NAME --metric METRIC``
    a long table of runs (task, model, seed, score), from a CSV file or an
    MLflow experiment (:func:`~sigeval.readers.read_mlflow`), through the
    views of :class:`~sigeval.report.Report`.
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
import shutil
import sys
from collections.abc import Sequence
from importlib import resources
from pathlib import Path

import pandas as pd

from . import _report_output as ro
from ._cli_parser import (
    EXAMPLES,
    GATE_ERROR,
    LOG_READERS,
    MAX_RESAMPLES,
    VIEWS,
    build_parser,
)
from ._validation import TableError, row_list
from .gating import EXIT_STATUS, GateMethod, GateResult, GateState, gate_table
from .predictions import compare_items, compare_predictions
from .readers import read_csv_table, read_mlflow, read_runs_csv
from .report import Report

__all__ = ["main"]

#: What to install for figures, as the README installs the package (it is not on PyPI).
PLOTS_HINT = ("needs matplotlib, which sigeval's plots extra installs: pip install \"path/to/sigeval[plots]\" "
              "(as the README shows), or pip install matplotlib")


class InputError(Exception):
    """A problem with the user's file or options, reported in one line."""


# --------------------------------------------------------------------------- the commands


def _read(reader, path, **options) -> pd.DataFrame:
    """The file read by one of the library's readers, whose errors name the file and the line."""
    try:
        return reader(path, **options)
    except (OSError, ValueError, TypeError, ImportError) as err:
        raise InputError(str(err)) from None


def _metric(given: list[str] | None) -> str | dict[str, str] | None:
    """``--metric NAME`` or ``--metric TASK=NAME ...``: the metric to read, for every task or per task."""
    if not given:
        return None
    per_task = [m for m in given if "=" in m]
    if not per_task and len(given) == 1:
        return given[0]
    if len(per_task) != len(given):
        raise InputError(f"--metric takes one NAME, or TASK=NAME for each task; got {' '.join(given)}")
    return dict(m.split("=", 1) for m in per_task)


def _compare_logs(args: argparse.Namespace) -> ro.ComparisonOutput:
    """``compare --from lm-eval|inspect``: the logs read and compared task by task, on the items shared."""
    unused = [flag for flag, value in (("--label", args.label), ("--models", args.models), ("--groups", args.groups),
                                       ("--auc-method", args.auc_method != "delong" or None),
                                       ("--max-resamples", args.max_resamples != MAX_RESAMPLES or None)) if value]
    if unused:
        raise InputError(f"{', '.join(unused)}: not an option of --from {args.source} (for CSV files)")
    table = _read(LOG_READERS[args.source], args.files, metric=_metric(args.metric))
    source = " ".join(args.files)
    try:
        res = compare_items(table, k=args.k, family=args.family, confidence_level=args.confidence_level,
                            n_resamples=args.n_resamples, rng=args.rng)
    except (ValueError, TypeError) as err:
        if isinstance(err, TableError) and err.rows is not None:  # the table's rows, as the file and line they came from
            row = table.iloc[int(err.rows[0])]
            where = f"{row.file}, line {row.line}" if "line" in table.columns else f"{row.file}, item {row['item']!r}"
            raise InputError(f"{where}{' and more' if err.rows.size > 1 else ''}: {err.detail}") from None
        raise InputError(f"{source}: {err.detail if isinstance(err, TableError) else err}") from None
    return ro.ComparisonOutput(res, res.note, source, args.call)


def _compare(args: argparse.Namespace) -> ro.ComparisonOutput:
    if args.source != "csv":
        return _compare_logs(args)
    if len(args.files) != 1:
        raise InputError(f"one CSV file is compared at a time; got {len(args.files)} ({' '.join(args.files)})")
    if args.k is not None or args.family != "task":
        raise InputError(f"{'--k' if args.k is not None else '--family'}: not an option of a CSV file of predictions "
                         "(--from logs only)")
    args.file = args.files[0]
    metric = (args.metric or ["accuracy"])
    if len(metric) != 1 or metric[0] not in ("accuracy", "auc"):
        raise InputError(f"--metric of a CSV file is accuracy or auc; got {' '.join(metric)}")
    table = _read(read_csv_table, args.file)
    label = None if args.label == "none" else (args.label or "label")
    no_label = ""
    if args.label is None and label not in table.columns:
        no_label = (f"no column {label!r}, so every column was read as a model's 0/1 correctness; name the column "
                    "of true labels with --label COLUMN (or say --label none)")
        label = None
    try:
        res = compare_predictions(
            table, label=label, models=args.models, groups=args.groups, metric=metric[0],
            confidence_level=args.confidence_level, n_resamples=args.n_resamples, rng=args.rng,
            auc_method=args.auc_method, max_resamples=args.max_resamples,
        )
    except (ValueError, TypeError) as err:
        where = args.file
        if isinstance(err, TableError) and err.rows is not None:  # positions of the table, lines of the file
            where += ", " + row_list(table.index[err.rows].to_numpy(), word="line")
        detail = err.detail if isinstance(err, TableError) else str(err)
        raise InputError(f"{where}: {detail}" + (f" ({no_label})" if no_label else "")) from None
    return ro.ComparisonOutput(res, f"{res.note}; {no_label}" if no_label else res.note, args.file, args.call)


def _runs_table(args: argparse.Namespace) -> tuple[pd.DataFrame, dict[str, str]]:
    """The table of runs, from the CSV file or the MLflow experiment, and the names of its four columns."""
    columns = {role: getattr(args, role) for role in ("task", "model", "seed", "score")}
    if args.source == "csv":
        if args.file is None or args.experiment is not None or args.metric is not None:
            raise InputError("a CSV file of runs is read with: sigeval runs RUNS.csv (--experiment and --metric are "
                             "for --from mlflow)")
        return _read(read_runs_csv, args.file, **columns), columns
    if args.file is not None or args.experiment is None or args.metric is None:
        raise InputError("--from mlflow reads an experiment: sigeval runs --from mlflow --experiment NAME --metric "
                         "METRIC [--tracking-uri URI] (no file)")
    args.file = f"MLflow experiment {args.experiment!r}"
    task = None if args.task == "none" else args.task
    table = _read(read_mlflow, args.experiment, metric=args.metric, tracking_uri=args.tracking_uri, task=task,
                  model=args.model, seed=args.seed)
    return table, {"task": "task", "model": "model", "seed": "seed", "score": "score"}  # read_mlflow's columns


def _runs(args: argparse.Namespace) -> ro.ReportOutput:
    table, columns = _runs_table(args)
    needs = {"equivalence": "--margin", "bayesian": "--rope (or --margin)"}
    if args.view in needs and args.margin is None and (args.view == "equivalence" or args.rope is None):
        raise InputError(f"the {args.view} view needs {needs[args.view]} (the smallest difference that matters, fixed "
                         "in advance); --view all leaves it out without one")
    try:
        report = Report(table, task=columns["task"], model=columns["model"], seed=columns["seed"],
                        score=columns["score"], higher_is_better=not args.lower_is_better, failed=args.failed)
        if (args.view == "friedman" or args.plot) and len(report.tasks) < 2:
            raise InputError(f"{args.file}: the Friedman view needs at least 2 tasks; the file has {len(report.tasks)}")
        shown = (("summary", "failed_runs", "describe", *VIEWS) if args.view == "all" else
                 ("failed_runs", args.view, *(("friedman",) if args.plot else ())))
        # A page is the whole report whatever the view; --view all shows every view anyway.
        page = args.html or Path(args.output or "").suffix.lower() in (".html", ".htm")
        choices = ro.Choices(args.margin, args.alpha, args.target_power, args.family, args.correction, args.rope,
                             args.n_resamples, args.rng, args.metric if args.source == "mlflow" else args.score)
        out = ro.ReportOutput(report, choices, ro.views(report, choices, ro.EVERY if page else (*shown, "describe")),
                              shown, args.call)
    except (ValueError, TypeError) as err:
        raise InputError(f"{args.file}: {err}") from None
    if args.plot:
        _write(f"--plot {args.plot}", "the figure", lambda: ro.cd_diagram_file(out.views["friedman"], args.plot))
    if args.html:
        _write(args.html, "the page", lambda: ro.page(out, args.html))
    return dataclasses.replace(out, written=tuple((k, f) for k, f in (("plot", args.plot), ("html", args.html)) if f))


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
    if args.state and res.state is not None:  # a sequence method without --state decides once, keeping nothing
        _write(f"--state {args.state}", "the state", lambda: Path(args.state).write_text(res.state.to_json(), encoding="utf-8"))
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
    width = args.width or (shutil.get_terminal_size().columns if sys.stdout.isatty() else ro.WIDTH)
    rendered = ro.render(out, args.format, width)
    if not target:
        sys.stdout.write(rendered)
        return
    try:
        Path(target).write_text(rendered, encoding="utf-8")
    except OSError as err:
        raise InputError(f"--output {target}: cannot write the file ({err.strerror or err})") from None
    print(f"{args.format} written to {target}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``sigeval`` command; returns its exit status.

    Examples
    --------
    >>> from sigeval.cli import main
    >>> main(["--version"])  # doctest: +SKIP
    sigeval 0.2.0
    """
    args = build_parser().parse_args(argv)
    # The command as it was given (to main, or on the command line), for the environment block.
    args.call = "sigeval " + " ".join(shlex.quote(a) for a in (sys.argv[1:] if argv is None else argv))
    gating = args.command == "gate"
    try:
        if args.command == "example":
            sys.stdout.write(resources.files("sigeval").joinpath("data", EXAMPLES[args.which]).read_text(encoding="utf-8"))
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

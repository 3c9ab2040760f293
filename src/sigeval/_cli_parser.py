"""The ``sigeval`` command's arguments: its commands, their options with help and examples, and the checks
argparse makes of each value (a level strictly between 0 and 1, a positive whole number, ...).

Kept apart from :mod:`sigeval.cli`, which reads the files, makes one library call and renders the answer.
"""

from __future__ import annotations

import argparse
import sys

from . import _report_output as ro
from ._options import FAMILIES
from .readers import read_inspect, read_lm_eval

__all__ = [
    "EXAMPLES",
    "MAX_RESAMPLES",
    "VIEWS",
    "GATE_ERROR",
    "LOG_READERS",
    "build_parser",
]


EXAMPLES = {"predictions": "example_predictions.csv", "runs": "example_runs.csv"}

#: The most bootstrap resamples (bootstraps x resamples) `compare` draws unless --max-resamples raises it.
MAX_RESAMPLES = 100_000_000

#: The views `runs --view` prints, one or all of them (with the summary, the failed runs and the scores per task).
VIEWS = ("pairwise", "power", "equivalence", "bayesian", "friedman", "aggregate")

#: The exit status of ``sigeval gate`` for an error (bad file or options): 0, 1 and 2 are its decisions.
GATE_ERROR = 3

#: The readers of per-item logs, by the name ``--from`` gives them.
LOG_READERS = {"lm-eval": read_lm_eval, "inspect": read_inspect}


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
    command.add_argument("--width", type=_number(int, lambda v: v >= 40, "a whole number >= 40"), metavar="COLUMNS",
                         help="the width of the text tables (default: the terminal's, or 100 when not printing to one)")


def _bootstrap_options(command: argparse.ArgumentParser, resamples: str) -> None:
    command.add_argument("--n-resamples", type=_number(int, lambda v: v >= 2, "a whole number >= 2"), default=10_000,
                         metavar="N", help=f"bootstrap resamples {resamples}")
    command.add_argument("--rng", type=_number(int, lambda v: v >= 0, "a non-negative integer"), default=0,
                         metavar="SEED", help="seed of the random generator of the bootstrap (default 0)")


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="sigeval",
        description="Intervals, paired tests and reports for comparing models, from CSV files.",
        epilog="Run 'sigeval COMMAND --help' for each command's options and an example.",
    )
    parser.add_argument("--version", action=_Version, nargs=0, default=argparse.SUPPRESS, help="show the version, "
                        "with those of Python, numpy, scipy, pandas, the platform and the BLAS (for bug reports), and exit")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    compare = commands.add_parser(
        "compare", help="models scored on the same test items: accuracies, differences, tests",
        description="One row per test item: a label column and one column per model, holding the model's "
        "predicted labels (compared with the label), or 0/1 correctness (with --label none), or scores "
        "for the positive class (with --metric auc). Prints each model's accuracy with its interval and, "
        "for every pair, the difference (A minus B), its paired bootstrap interval, a paired test and the "
        "Holm-adjusted p-value.",
        epilog="example:\n  sigeval example predictions > predictions.csv\n  sigeval compare predictions.csv\n"
        "  sigeval compare predictions.csv --models matcher_A matcher_B --n-resamples 2000 --json\n"
        "  sigeval compare --from lm-eval results/ --metric arc_easy=acc gsm8k=exact_match,strict-match\n"
        "  sigeval compare --from inspect logs/ --metric match\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    compare.add_argument("files", nargs="+", metavar="FILE",
                         help="the CSV file of predictions; with --from, the harness's output folders or log files")
    compare.add_argument("--from", dest="source", choices=("csv", *LOG_READERS), default="csv",
                         help="what the files are: a CSV file of predictions (default), the --log_samples output of "
                         "lm-evaluation-harness, or Inspect AI's logs; the logs are compared task by task on the "
                         "items every model has (matched by id; the others listed)")
    compare.add_argument("--label", default=None,
                         help="the column of true labels (default 'label'; 'none' if the model columns are 0/1 correctness)")
    compare.add_argument("--models", nargs="+", metavar="COLUMN", help="the model columns (default: every other column)")
    compare.add_argument("--groups", metavar="COLUMN",
                         help="a column of group labels for correlated items: whole groups are resampled and sign-flipped")
    compare.add_argument("--metric", nargs="+", metavar="METRIC",
                         help="a CSV file: accuracy of predicted labels (default), or auc (scores, DeLong's test); "
                         "--from logs: the metric (lm-eval's NAME or NAME,FILTER; Inspect's scorer) to compare, one "
                         "for every task or TASK=NAME for each")
    compare.add_argument("--k", nargs="+", type=_number(int, lambda v: v >= 1, "a whole number >= 1"), metavar="K",
                         help="--from logs with several samples per item: the k of pass@k (default 1 and the fewest "
                         "samples of an item)")
    compare.add_argument("--family", choices=FAMILIES, default="task",
                         help="--from logs: Holm over the pairs of each task (default), or over every pair of every task")
    compare.add_argument("--confidence-level", type=LEVEL, default=0.95, metavar="LEVEL")
    _bootstrap_options(compare, "per interval, at least 2 (default 10,000; at most --max-resamples in all)")
    compare.add_argument("--auc-method", choices=("delong", "bootstrap"), default="delong",
                         help="each model's AUC interval with --metric auc: DeLong's (default) or a bootstrap")
    compare.add_argument("--max-resamples", type=_number(int, lambda v: v > 0, "a positive int"), default=MAX_RESAMPLES,
                         metavar="N", help=f"refuse to draw more than N bootstrap resamples in all, bootstraps x "
                         f"resamples (default {MAX_RESAMPLES:,})")
    _output_options(compare)

    runs = commands.add_parser(
        "runs", help="a table of runs (task, model, seed, score): every view of sigeval.Report",
        description="A long table, one row per run: the task, the model, the seed and the score. Runs are "
        "paired by (task, seed). Prints the views of sigeval.Report: pairwise (paired t, Holm within each "
        "task or over every comparison), power (MDE and seeds needed), equivalence (TOST at --margin, four "
        "verdicts), bayesian (posterior probabilities with a ROPE), friedman (mean ranks over tasks, "
        "critical difference) and aggregate (IQM, mean, median, optimality gap over tasks).",
        epilog="example:\n  sigeval example runs > runs.csv\n  sigeval runs runs.csv --view all --margin 0.01\n"
        "  sigeval runs runs.csv --view bayesian --rope 0.005 --width 80\n"
        "  sigeval runs runs.csv --view power --family all --correction holm\n"
        "  sigeval runs runs.csv --view friedman --plot cd.png\n"
        "  sigeval runs --from mlflow --experiment sweep --metric val_acc --tracking-uri sqlite:///mlflow.db\n",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    runs.add_argument("file", nargs="?", metavar="RUNS.csv")
    runs.add_argument("--from", dest="source", choices=("csv", "mlflow"), default="csv",
                      help="a CSV file of runs (default), or the runs of an MLflow experiment: --task, --model and "
                      "--seed then name the runs' parameters (or tags), failed and killed runs are kept as failed")
    runs.add_argument("--experiment", metavar="NAME", help="--from mlflow: the experiment")
    runs.add_argument("--metric", metavar="NAME", help="--from mlflow: the metric that scores a run (its last value)")
    runs.add_argument("--tracking-uri", metavar="URI", help="--from mlflow: where the runs are stored "
                      "(sqlite:///mlflow.db, a server's URL; default: MLflow's, MLFLOW_TRACKING_URI)")
    runs.add_argument("--view", choices=(*VIEWS, "all"), default="pairwise",
                      help="one view, or all of them with the summary and the scores per task (default pairwise)")
    runs.add_argument("--margin", type=POSITIVE_FLOAT, help="equivalence margin, in the units of the scores")
    runs.add_argument("--rope", type=_number(float, lambda v: 0 <= v < float("inf"), "a float >= 0"),
                      help="half-width of the Bayesian view's region of practical equivalence (default: the margin)")
    runs.add_argument("--family", choices=FAMILIES, default="task",
                      help="Holm's family: the comparisons of each task (default), or all of them")
    runs.add_argument("--correction", choices=("none", "holm", "bonferroni"), default="none",
                      help="the level of the power view's minimum detectable effects (default none: alpha)")
    runs.add_argument("--alpha", type=LEVEL, default=0.05)
    runs.add_argument("--target-power", type=LEVEL, default=0.80)
    for role in ("task", "model", "seed", "score"):
        runs.add_argument(f"--{role}", default=role, metavar="COLUMN")
    runs.add_argument("--lower-is-better", action="store_true", help="for losses and error rates (ranks only)")
    runs.add_argument("--failed", choices=("raise", "drop-pairs"), default="raise",
                      help="failed, missing or duplicated runs: an error (default), or leave out their pairs")
    _bootstrap_options(runs, "per interval of the aggregate view, at least 2 (default 10,000)")
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

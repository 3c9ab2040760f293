"""The sigeval command, driven as a user would, on CSV files: in-process through ``main(argv)``, and in a few
subprocesses for what only a real process shows (the installed script, exit statuses, a closed pipe)."""

import contextlib
import io
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigeval import EXIT_STATUS, GateState, Report, adjust_pvalues, gate, gate_table, mcnemar, proportion_ci
from sigeval.cli import main

SCRIPT = Path(sys.executable).with_name("sigeval")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sigeval.cli"]


@dataclass(frozen=True)
class Done:
    """What a run of the command gave: its exit status and what it printed."""

    returncode: int
    stdout: str
    stderr: str


def _run(args) -> Done:
    """``main(args)`` in this process, as the shell would run ``sigeval ARGS`` (argparse exits with its status)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            status = main([str(a) for a in args])
        except SystemExit as stop:
            status = stop.code
    return Done(status, out.getvalue(), err.getvalue())


def sigeval(*args) -> Done:
    return _run(args)


def in_subprocess(*args, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, timeout=120, **kwargs)


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    for which in ("predictions", "runs"):
        done = sigeval("example", which)
        assert done.returncode == 0, done.stderr
        (folder / f"{which}.csv").write_text(done.stdout)
    return folder


# --------------------------------------------------------------------------- in subprocesses: the installed command


def test_version_and_help_in_a_subprocess():
    done = in_subprocess("--version")
    assert done.returncode == 0 and done.stdout.startswith("sigeval ")
    assert done.stdout == sigeval("--version").stdout
    shown = in_subprocess("runs", "--help")
    assert shown.returncode == 0 and "example:" in shown.stdout and "sigeval example runs" in shown.stdout


def test_compare_and_runs_in_a_subprocess_print_what_main_prints(examples):
    compared = in_subprocess("compare", examples / "predictions.csv", "--n-resamples", 300)
    assert compared.returncode == 0 and not compared.stderr
    assert compared.stdout == sigeval("compare", examples / "predictions.csv", "--n-resamples", 300).stdout
    ran = in_subprocess("runs", "runs.csv", "--view", "all", "--margin", 0.01, cwd=examples)
    assert ran.returncode == 0 and not ran.stderr
    assert ran.stdout == sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01).stdout


def test_exit_statuses_and_a_closed_pipe_in_a_subprocess(tmp_path):
    missing = in_subprocess("runs", tmp_path / "missing.csv")
    assert (missing.returncode, missing.stdout) == (1, "")
    assert missing.stderr == f"sigeval runs: error: {tmp_path / 'missing.csv'}: no such file\n"
    usage = in_subprocess("runs", tmp_path / "missing.csv", "--alpha", "2")
    assert usage.returncode == 2 and "argument --alpha: must be strictly between 0 and 1" in usage.stderr
    # A reader that stops early (sigeval runs ... | head -1): no traceback, and status 0.
    rng = np.random.default_rng(0)
    rows = [(f"t{t}", m, s, rng.random()) for t in range(150) for m in "ABCD" for s in range(3)]
    pd.DataFrame(rows, columns=["task", "model", "seed", "score"]).to_csv(tmp_path / "big.csv", index=False)
    with subprocess.Popen([*COMMAND, "runs", str(tmp_path / "big.csv")], stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True) as process:
        assert process.stdout.readline().startswith("Report(150 task(s)")
        process.stdout.close()
        assert process.wait(timeout=120) == 0
        assert process.stderr.read() == ""


# --------------------------------------------------------------------------- in-process


def test_help_of_each_command_ends_with_an_example():
    for command in ("compare", "runs", "example"):
        shown = sigeval(command, "--help")
        assert shown.returncode == 0 and "example:" in shown.stdout and "sigeval example" in shown.stdout


def test_examples_are_what_the_generator_writes():
    sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
    try:
        import make_examples
    finally:
        sys.path.pop(0)
    shipped = Path(__file__).parents[1] / "src" / "sigeval" / "data"
    pd.testing.assert_frame_equal(pd.read_csv(shipped / "example_predictions.csv"), make_examples.predictions())
    runs = make_examples.runs().round(4).reset_index(drop=True)
    pd.testing.assert_frame_equal(pd.read_csv(shipped / "example_runs.csv"), runs, check_exact=False, atol=1e-12)


def test_compare_matches_the_library(examples):
    done = sigeval("compare", examples / "predictions.csv", "--json", "--n-resamples", 2000)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    table = pd.read_csv(examples / "predictions.csv")
    correct = {m: (table[m] == table.label).to_numpy(float) for m in ("matcher_A", "matcher_B", "MLP_64")}
    for row in out["models"]:
        c = correct[row["model"]]
        ci = proportion_ci(int(c.sum()), c.size, method="wilson")
        assert (row["accuracy"], row["ci_low"], row["ci_high"]) == pytest.approx((c.mean(), ci.low, ci.high))
    pvalues = []
    for row in out["pairs"]:
        a, b = correct[row["model_a"]], correct[row["model_b"]]
        assert row["estimate"] == pytest.approx(a.mean() - b.mean())
        assert row["ci_low"] <= row["estimate"] <= row["ci_high"]
        assert row["pvalue"] == pytest.approx(mcnemar(a, b).pvalue)
        pvalues.append(row["pvalue"])
    assert [r["pvalue_holm"] for r in out["pairs"]] == pytest.approx(adjust_pvalues(pvalues).tolist())


def test_compare_prints_readable_tables(examples):
    done = sigeval("compare", examples / "predictions.csv", "--n-resamples", 500, "--confidence-level", 0.9)
    assert done.returncode == 0, done.stderr
    assert "models (90% intervals)" in done.stdout and "pvalue_holm" in done.stdout
    assert re.search(r"\nmatcher_A +matcher_B +0\.0100", done.stdout) and "Traceback" not in done.stderr


def test_compare_seed_reproducible_and_changes_the_bootstrap(examples):
    runs = [sigeval("compare", examples / "predictions.csv", "--json", "--n-resamples", 500, "--rng", s).stdout
            for s in (1, 1, 2)]
    assert runs[0] == runs[1] and runs[0] != runs[2]


def test_compare_correctness_columns_and_groups(tmp_path):
    rng = np.random.default_rng(0)
    n = 400
    groups = np.repeat(np.arange(40), 10)
    a = (rng.random(n) < 0.8).astype(int)
    b = (rng.random(n) < 0.7).astype(int)
    pd.DataFrame({"clip": groups, "A": a, "B": b}).to_csv(tmp_path / "c.csv", index=False)
    plain = sigeval("compare", tmp_path / "c.csv", "--label", "none", "--models", "A", "B", "--json")
    assert plain.returncode == 0, plain.stderr
    assert json.loads(plain.stdout)["pairs"][0]["pvalue"] == pytest.approx(mcnemar(a, b).pvalue)
    grouped = sigeval("compare", tmp_path / "c.csv", "--label", "none", "--groups", "clip", "--json",
                      "--n-resamples", 2000)
    assert grouped.returncode == 0, grouped.stderr
    out = json.loads(grouped.stdout)
    assert [m["model"] for m in out["models"]] == ["A", "B"]
    assert "groups" in out["note"] and "cluster" in out["note"]


def test_compare_auc_uses_delong(tmp_path):
    from sigeval import delong_test

    rng = np.random.default_rng(1)
    y = rng.integers(0, 2, 300)
    s1, s2 = y + rng.normal(0, 1, 300), y + rng.normal(0, 1.5, 300)
    pd.DataFrame({"label": y, "m1": s1, "m2": s2}).to_csv(tmp_path / "s.csv", index=False)
    done = sigeval("compare", tmp_path / "s.csv", "--metric", "auc", "--json", "--n-resamples", 500)
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    pair = out["pairs"][0]
    ref = delong_test(y, s1, s2)
    assert (pair["estimate"], pair["pvalue"]) == pytest.approx((ref.estimate, ref.pvalue))
    # Each AUC's interval: DeLong's by default, a bootstrap when asked.
    assert "DeLong's standard error" in out["note"]
    boot = sigeval("compare", tmp_path / "s.csv", "--metric", "auc", "--json", "--n-resamples", 500,
                   "--auc-method", "bootstrap")
    assert boot.returncode == 0, boot.stderr
    booted = json.loads(boot.stdout)
    assert "bootstrap percentile (500 resamples" in booted["note"]
    assert booted["models"][0]["auc"] == out["models"][0]["auc"]
    assert booted["models"][0]["ci_low"] != out["models"][0]["ci_low"]


def test_compare_refuses_work_above_its_limit_and_says_how_to_raise_it(tmp_path):
    rng = np.random.default_rng(2)
    table = pd.DataFrame({"label": rng.integers(0, 2, 50)} | {f"m{i}": rng.integers(0, 2, 50) for i in range(6)})
    table.to_csv(tmp_path / "p.csv", index=False)
    done = sigeval("compare", tmp_path / "p.csv", "--n-resamples", 1000, "--max-resamples", 10_000)
    assert done.returncode == 1 and not done.stdout
    assert ("6 models make 15 pairs; this comparison would draw 15,000 bootstrap resamples (15 bootstraps x "
            "1,000 resamples), above the limit of 10,000 (`max_resamples`). Pass max_resamples=15000 "
            "(--max-resamples 15000 on the command line) to run it anyway") in done.stderr
    assert sigeval("compare", tmp_path / "p.csv", "--n-resamples", 1000, "--max-resamples", 15_000).returncode == 0
    # DeLong's intervals draw nothing: no limit applies.
    scores = table.assign(**{f"m{i}": rng.normal(size=50) for i in range(6)})
    scores.to_csv(tmp_path / "s.csv", index=False)
    assert sigeval("compare", tmp_path / "s.csv", "--metric", "auc", "--max-resamples", 1).returncode == 0
    refused = sigeval("compare", tmp_path / "s.csv", "--metric", "auc", "--auc-method", "bootstrap",
                      "--max-resamples", 1)
    assert refused.returncode == 1 and "(6 bootstraps x 10,000 resamples)" in refused.stderr


def test_runs_views_match_report(examples, tmp_path):
    done = sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01, "--json",
                   "--plot", tmp_path / "cd.png")
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    report = Report(pd.read_csv(examples / "runs.csv"))
    pd.testing.assert_frame_equal(pd.DataFrame(out["pairwise"]), report.pairwise(), check_dtype=False)
    assert [r["verdict"] for r in out["equivalence"]] == report.equivalence(0.01).verdict.tolist()
    assert out["friedman"]["critical_difference"] == pytest.approx(report.friedman()["critical_difference"])
    assert (tmp_path / "cd.png").stat().st_size > 1000


def test_runs_tables(examples):
    done = sigeval("runs", examples / "runs.csv", "--view", "friedman")
    assert done.returncode == 0, done.stderr
    assert "critical difference" in done.stdout and "mean_rank" in done.stdout


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


RUNS_OK = "task,model,seed,score\n" + "".join(
    f"t,{m},{s},{0.8 + 0.01 * s + (0.02 + 0.003 * (s % 2) if m == 'A' else 0.001 * (s % 3)):.4f}\n"
    for m in "AB" for s in range(4)
)


@pytest.mark.parametrize(
    "command, content, extra, message",
    [
        ("compare", None, [], r"missing\.csv: no such file"),
        ("compare", "", [], "the file is empty"),
        ("compare", "label,A,B\n", [], "header but no rows"),
        ("compare", "label,A,B\n1,1,0\n0,1,\n", [], r"line 3: model column 'B' is empty"),
        ("compare", "y,A,B\n1,1,0\n", ["--label", "truth"], "no column 'truth' for the labels"),
        ("compare", "label,A,B\n1,1,0\n", ["--models", "A", "C"], "no column 'C' for the models"),
        ("compare", "label,A,B\ncat,0,1\ndog,1,1\n", [], "no model predicts"),
        ("compare", "A,B\n1,0\n2,1\n", [], r"line 3: .*0/1 correctness; it holds 2"),
        ("compare", "label,A\n1,1\n", [], "at least 2 model columns"),
        ("compare", "label,A,B\n1,1,0\n", ["--groups", "clip"], "no column 'clip' for the groups"),
        ("compare", "label,A,B\n1,1,0\n", ["--confidence-level", "95"], "strictly between 0 and 1"),
        ("compare", "label,A,B\n1,1,0\n", ["--n-resamples", "-5"], "whole number >= 2"),
        ("runs", "task,model,seed\nt,A,0\n", [], "no column 'score' for the scores"),
        ("runs", RUNS_OK.replace("0.8330", "high", 1), [], r"line \d+: column 'score' holds 'high', not a number"),
        ("runs", RUNS_OK + "t,A,0,0.9\n", [], r"duplicated row"),
        ("runs", "\n".join(RUNS_OK.splitlines()[:-1]) + "\n", [], r"model 'B', seed 3\): missing"),
        ("runs", RUNS_OK, ["--view", "equivalence"], "needs --margin"),
        ("runs", RUNS_OK, ["--view", "friedman"], "at least 2 tasks"),
        ("runs", RUNS_OK, ["--margin", "0"], "positive float"),
        ("runs", RUNS_OK, ["--score", "acc"], "no column 'acc'"),
    ],
)
def test_bad_input_is_one_clear_line(tmp_path, command, content, extra, message):
    path = tmp_path / "missing.csv" if content is None else _write(tmp_path, "in.csv", content)
    done = sigeval(command, path, *extra)
    assert done.returncode != 0
    lines = done.stderr.strip().splitlines()
    assert "Traceback" not in done.stderr
    # An error in the file is one line (exit 1); argparse shows its usage above an option's error (exit 2).
    assert (done.returncode, len(lines)) == (1, 1) or done.returncode == 2
    assert lines[-1].startswith(f"sigeval {command}: error: ") and re.search(message, lines[-1]), done.stderr


def test_a_directory_is_not_a_file(tmp_path):
    done = sigeval("compare", tmp_path)
    assert done.returncode == 1 and "is a directory" in done.stderr


def test_failed_runs_can_be_dropped(tmp_path):
    lines = RUNS_OK.splitlines()
    path = _write(tmp_path, "r.csv", "\n".join(lines[:-1] + ["t,B,3,nan"]) + "\n")
    refused = sigeval("runs", path)
    assert refused.returncode == 1 and "score is NaN" in refused.stderr
    kept = sigeval("runs", path, "--failed", "drop-pairs")
    assert kept.returncode == 0, kept.stderr
    assert "failed runs" in kept.stdout and "      3" in kept.stdout


# --------------------------------------------------------------------------- hostile files (issue 24)


def _auc_file(n_positive, n=30, infinite_at=None):
    rng = np.random.default_rng(0)
    lines = ["label,m1,m2"] + [f"{int(i < n_positive)},{rng.uniform():.3f},{rng.uniform():.3f}" for i in range(n)]
    if infinite_at is not None:
        lines[infinite_at] = "1,inf,0.5"
    return "\n".join(lines) + "\n"


def _comma(text, line):
    """The file with the score on ``line`` (1-based) written with a decimal comma."""
    lines = text.splitlines()
    head, _, tail = lines[line - 1].rpartition(".")
    lines[line - 1] = f"{head},{tail}"
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize(
    "command, content, extra, message",
    [
        ("compare", _auc_file(15, infinite_at=6), ["--metric", "auc"],
         r"in\.csv, line 7: model column 'm1' holds an infinite score"),
        ("compare", _auc_file(2), ["--metric", "auc", "--auc-method", "bootstrap"],
         r"in\.csv: the label column 'label' holds 2 positive\(s\) and 28 negative\(s\).*about 1,262 of the "
         r"10,000 resamples.*No interval was computed; use DeLong's interval \(auc_method='delong', the default; "
         r"--auc-method delong on the command line\)"),
        ("compare", _auc_file(15), ["--n-resamples", "1"], r"argument --n-resamples: must be a whole number >= 2"),
        ("compare", "label,A,B\n1,1,0\n0,0,0\n", ["--n-resamples", "10" + "0" * 12],
         r"in\.csv: .*would draw 10,000,000,000,000 bootstrap resamples.*above the limit of 100,000,000"),
        ("compare", "label,A,B\n1,1,0\n0,0,0\n", ["--n-resamples", "10" + "0" * 12, "--max-resamples", "10" + "0" * 15],
         r"in\.csv: `n_resamples` = 10000000000000 would need .* TiB of memory.*the limit is 4\.0 GiB"),
        ("runs", _comma(RUNS_OK, 4), [],
         r"in\.csv, line 4: 5 fields where the header \(line 1\) has 4: a decimal comma \('0,8\d+'\)\? "
         r"Write decimals with a point \(0\.8"),
        ("runs", "".join(_comma(line, 1) if i else line + "\n" for i, line in enumerate(RUNS_OK.splitlines())), [],
         r"in\.csv, line 2: 5 fields where the header \(line 1\) has 4: a decimal comma"),
        ("runs", RUNS_OK.replace("task,model,seed,score", "task,model,score,score"), [],
         r"in\.csv, line 1: column 'score' appears 2 times \(columns 3, 4\)"),
        ("compare", "label,A,A\n1,1,0\n0,0,0\n", [], r"in\.csv, line 1: column 'A' appears 2 times"),
        ("runs", "run,run,run,result\n" + RUNS_OK, [],
         r"in\.csv, line 1: column 'run' appears 3 times.*Line 2 \(task, model, seed, score\) looks like a second "
         r"header row.*MultiIndex"),
        ("runs", RUNS_OK.replace("0.8330", "inf", 1), [], r"in\.csv, line \d+: column 'score' holds an infinite score"),
        ("runs", RUNS_OK.replace("0.8330", '"0,8330"', 1), [], r"in\.csv, line \d+: column 'score' holds '0,8330', not a number \(a decimal comma\? write 0\.8330\)"),
        ("runs", "\x00\xff\xfe garbage", [], r"in\.csv: "),
    ],
)
def test_hostile_files_give_one_line_naming_the_file_and_where(tmp_path, command, content, extra, message):
    path = tmp_path / "in.csv"
    path.write_bytes(content.encode("latin-1") if "\xff" in content else content.encode())
    done = sigeval(command, path, *extra)
    assert "Traceback" not in done.stderr, done.stderr
    lines = done.stderr.strip().splitlines()
    assert (done.returncode, len(lines)) == (1, 1) or done.returncode == 2, done.stderr
    assert lines[-1].startswith(f"sigeval {command}: error: ") and re.search(message, lines[-1]), done.stderr


def test_an_unreadable_file_is_one_line(tmp_path, monkeypatch):
    path = _write(tmp_path, "locked.csv", RUNS_OK)
    if os.geteuid() != 0:
        path.chmod(0)
    else:  # root reads any file: refuse the read as the kernel would for another user
        real = io.open

        def guarded(file, *args, **kwargs):
            if str(file).endswith("locked.csv"):
                raise PermissionError(13, "Permission denied", str(file))
            return real(file, *args, **kwargs)

        monkeypatch.setattr(io, "open", guarded)
    done = sigeval("runs", path)
    assert done.returncode == 1
    assert done.stderr.strip() == f"sigeval runs: error: {path}: cannot read the file (Permission denied)"


# --------------------------------------------------------------------------- outputs (issue 24)


def test_version_gives_what_a_bug_report_needs():
    done = sigeval("--version")
    lines = done.stdout.splitlines()
    assert done.returncode == 0 and re.fullmatch(r"sigeval \S+", lines[0])
    for key in ("Python", "numpy", "scipy", "pandas", "platform", "BLAS"):
        assert any(line.startswith(f"  {key}: ") for line in lines), key


@pytest.mark.parametrize("fmt, marker", [
    ("markdown", "| task | model_a | model_b |"),
    ("latex", "\\toprule"),
    ("csv", "table,task,model_a,model_b,n_pairs,mean_diff"),
    ("json", '"environment": {'),
])
def test_runs_formats(examples, fmt, marker):
    done = sigeval("runs", examples / "runs.csv", "--format", fmt)
    assert done.returncode == 0, done.stderr
    assert marker in done.stdout
    if fmt == "csv":
        table = pd.read_csv(io.StringIO(done.stdout))
        pairwise = Report(pd.read_csv(examples / "runs.csv")).pairwise()
        np.testing.assert_allclose(table.mean_diff, pairwise.mean_diff, rtol=1e-12)
    if fmt == "json":
        env = json.loads(done.stdout)["environment"]
        assert env["call"].startswith("sigeval runs ") and "--format json" in env["call"]
        assert re.fullmatch(r"sha256 [0-9a-f]{16} \(60 runs as CSV: task, model, seed, score\)", env["input table"])


@pytest.mark.parametrize("fmt", ["markdown", "latex", "csv", "json", "text"])
def test_compare_formats_and_output_file(examples, tmp_path, fmt):
    target = tmp_path / f"out.{fmt}"
    done = sigeval("compare", examples / "predictions.csv", "--n-resamples", 200, "--format", fmt, "--output", target)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{fmt} written to {target}"
    assert re.search(r"matcher(\\)?_A", target.read_text())


def test_html_pages_from_both_commands(examples, tmp_path):
    page = tmp_path / "report.html"
    done = sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", "0.01", "--html", page)
    assert done.returncode == 0, done.stderr
    assert f"HTML report written to {page}" in done.stdout
    text = page.read_text()
    assert text.count("<svg") == 2 and "In plain words" in text and "sigeval runs" in text
    other = tmp_path / "compare.html"
    done = sigeval("compare", examples / "predictions.csv", "--n-resamples", 200, "--output", other)
    assert done.returncode == 0, done.stderr
    assert "<table>" in other.read_text() and "<script" not in other.read_text()
    refused = sigeval("runs", examples / "runs.csv", "--output", tmp_path / "missing" / "r.md")
    assert refused.returncode == 1 and "cannot write the file" in refused.stderr and "Traceback" not in refused.stderr


def test_runs_view_all_shows_describe_summary_and_a_footnote_in_100_columns(examples):
    done = sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", "0.01")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "scores per task (mean and sd over the seeds)" in out and "\nsummary\n" in out
    report = Report(pd.read_csv(examples / "runs.csv"))
    assert " ".join(report.summary(margin=0.01).split()) in " ".join(out.split())
    assert "Differences are model A minus model B" in out and "Holm-adjusted within each task" in out
    assert max(len(line) for line in out.splitlines()) <= 100


def test_messages_are_the_librarys_and_name_the_label(tmp_path):
    lines = RUNS_OK.splitlines()
    path = _write(tmp_path, "r.csv", "\n".join(lines[:-1] + ["t,B,3,nan"]) + "\n")
    refused = sigeval("runs", path)
    with pytest.raises(ValueError) as library:
        Report(pd.read_csv(path))
    assert refused.stderr == f"sigeval runs: error: {path}: {library.value}\n"
    counts = _write(tmp_path, "c.csv", "A,B\n1,0\n2,1\n")
    done = sigeval("compare", counts)
    assert done.returncode == 1 and "no column 'label'" in done.stderr and "--label COLUMN" in done.stderr


def _count_views(monkeypatch) -> list[str]:
    """The views of Report the renderer asks for, in order, as the command runs (not those Report uses inside)."""
    calls, depth = [], []
    for name in ("describe", "pairwise", "power", "equivalence", "bayesian", "friedman", "aggregate", "summary"):
        real = getattr(Report, name)

        def counted(self, *args, _real=real, _name=name, **kwargs):
            if not depth:  # a view the renderer asked for, not one the summary's sentences use inside Report
                calls.append(_name)
            depth.append(_name)
            try:
                return _real(self, *args, **kwargs)
            finally:
                depth.pop()

        monkeypatch.setattr(Report, name, counted)
    return calls


def test_views_are_computed_once_whatever_the_outputs(examples, tmp_path, monkeypatch):
    from sigeval import _report_output as ro

    calls = _count_views(monkeypatch)
    computed = []
    real_views = ro.views
    monkeypatch.setattr(ro, "views", lambda *a, **k: computed.append(1) or real_views(*a, **k))
    done = sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01, "--format", "markdown",
                   "--html", tmp_path / "r.html", "--plot", tmp_path / "cd.png")
    assert done.returncode == 0, done.stderr
    assert computed == [1] and sorted(calls) == ["aggregate", "bayesian", "describe", "equivalence", "friedman",
                                                 "pairwise", "power", "summary"]
    assert done.stdout.startswith("# Report\n") and (tmp_path / "r.html").exists() and (tmp_path / "cd.png").exists()


def test_the_methods_sentence_says_what_was_done(examples):
    def note(*options):
        done = sigeval("runs", examples / "runs.csv", *options, "--json")
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["note"]

    pairs = "Differences are model A minus model B over the seeds both ran (paired by task and seed); "
    assert " ".join(sigeval("runs", examples / "runs.csv", "--view", "power").stdout.split("\n\n")[-1].split()) == (
        pairs + "minimum detectable effects at 80% power and alpha = 0.05.")
    assert note("--view", "all", "--margin", 0.02, "--alpha", 0.1, "--lower-is-better") == (
        pairs + "paired t test and 90% intervals, p-values Holm-adjusted within each task, a difference rejects at "
        "p <= alpha = 0.1; minimum detectable effects at 80% power and alpha = 0.1; equivalence by TOST at margin "
        "0.02; posterior probabilities of the Bayesian paired t (noninformative prior) with a ROPE of 0.02; ranks "
        "over the tasks' mean scores, lower is better; aggregates of every model's runs over the tasks, 95% "
        "stratified-bootstrap intervals (10,000 resamples, rng=0).")
    assert note("--view", "power", "--family", "all", "--correction", "holm") == (
        pairs + "minimum detectable effects at 80% power and alpha = 0.05, at the level of each Holm decision.")
    assert note("--view", "pairwise", "--family", "all") == (
        pairs + "paired t test and 95% intervals, p-values Holm-adjusted over every comparison, a difference rejects "
        "at p <= alpha = 0.05.")
    assert note("--view", "bayesian", "--rope", 0.005, "--margin", 0.01) == (
        pairs + "posterior probabilities of the Bayesian paired t (noninformative prior) with a ROPE of 0.005.")
    assert note("--view", "friedman") == "Ranks over the tasks' mean scores."
    assert note("--view", "aggregate", "--n-resamples", 500, "--rng", 3) == (
        "Aggregates of every model's runs over the tasks, 95% stratified-bootstrap intervals (500 resamples, rng=3).")


def test_separators_and_encodings_that_spreadsheets_write(examples, tmp_path):
    text = (examples / "runs.csv").read_text()
    expected = sigeval("runs", examples / "runs.csv").stdout
    for name, data in (("semicolons.csv", text.replace(",", ";").encode()), ("tabs.csv", text.replace(",", "\t").encode()),
                       ("bom.csv", b"\xef\xbb\xbf" + text.encode()), ("utf16.csv", text.encode("utf-16"))):
        (tmp_path / name).write_bytes(data)
        assert sigeval("runs", tmp_path / name).stdout == expected, name


# --------------------------------------------------------------------------- strict JSON (issue 35), in-process


def _strict_json(text):
    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def _main(capsys, *args):
    status = main([str(a) for a in args])
    out, err = capsys.readouterr()
    assert status == 0, err
    return out


def test_json_is_strict_when_every_task_ranks_the_models_alike(tmp_path, capsys):
    # Three models in the same order on every task: Iman-Davenport's F is infinite.
    rows = [(t, m, s, base + 0.01 * s + 0.1 * t) for t in range(4) for m, base in (("a", 0.7), ("b", 0.6), ("c", 0.5))
            for s in range(3)]
    pd.DataFrame(rows, columns=["task", "model", "seed", "score"]).to_csv(tmp_path / "r.csv", index=False)
    out = _strict_json(_main(capsys, "runs", tmp_path / "r.csv", "--view", "all", "--margin", 0.01, "--json"))
    assert out["friedman"]["statistic_f"] is None
    assert out["non_finite"] == {"friedman.statistic_f": "inf"}
    assert Report(pd.read_csv(tmp_path / "r.csv")).friedman().statistic_f == np.inf


def test_json_keeps_full_precision(tmp_path, capsys):
    # Scores near 1e-12 and p-values with 17 significant digits: not rounded to 10 decimals.
    rng = np.random.default_rng(1)
    rows = [(t, m, s, 1e-12 * (1 + rng.random()) + (1e-12 if m == "a" else 0.0)) for t in ("x", "y") for m in "ab"
            for s in range(5)]
    table = pd.DataFrame(rows, columns=["task", "model", "seed", "score"])
    table.to_csv(tmp_path / "r.csv", index=False, float_format="%.17g")
    out = _strict_json(_main(capsys, "runs", tmp_path / "r.csv", "--view", "pairwise", "--json"))
    expected = Report(pd.read_csv(tmp_path / "r.csv")).pairwise()
    got = pd.DataFrame(out["pairwise"])
    assert (got["mean_diff"] != 0).all()
    np.testing.assert_array_equal(got["mean_diff"], expected["mean_diff"])
    np.testing.assert_array_equal(got["pvalue"], expected["pvalue"])


def test_compare_json_is_strict_and_exact(examples, capsys):
    out = _strict_json(_main(capsys, "compare", examples / "predictions.csv", "--json", "--n-resamples", 200))
    table = pd.read_csv(examples / "predictions.csv")
    c = (table["matcher_A"] == table.label).to_numpy(float)
    row = next(r for r in out["models"] if r["model"] == "matcher_A")
    assert row["ci_low"] == proportion_ci(int(c.sum()), c.size, method="wilson").low


# --------------------------------------------------------------------------- sigeval gate

_Z = np.array([-1.5, -0.5, 0.0, 0.25, 1.75])
_Z = (_Z - _Z.mean()) / _Z.std(ddof=1)


def _gate_runs(folder: Path, mean: float, sd: float = 0.01, name: str = "runs.csv", n_seeds: int = 5) -> Path:
    """A table of runs of 'new' and 'main' on one task whose differences new - main have this mean and sd."""
    z = np.resize(_Z, n_seeds)
    base = 0.8 + 0.01 * np.arange(n_seeds) % 0.03
    rows = [("val", m, s, score) for m, scores in (("new", base + mean + sd * z), ("main", base))
            for s, score in enumerate(scores)]
    path = folder / name
    pd.DataFrame(rows, columns=["task", "model", "seed", "score"]).to_csv(path, index=False, float_format="%.17g")
    return path


def _gate(path, *args):
    return sigeval("gate", path, "--model-a", "new", "--model-b", "main", *args)


@pytest.mark.parametrize("mean, args, decision, status", [
    (0.002, (), "pass", 0),
    (-0.025, (), "fail", 1),
    (-0.004, (), "undetermined", 2),
    (-0.012, ("--fail-on", "zero"), "fail", 1),
])
def test_gate_decides_with_its_exit_status(tmp_path, monkeypatch, mean, args, decision, status):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    done = _gate(_gate_runs(tmp_path, mean), "--margin", 0.01, *args)
    assert done.returncode == status, done.stderr
    assert done.stdout.startswith(f"{decision}: A - B = ") and done.stdout.count("\n") == 1 and not done.stderr


def test_gate_lower_is_better_and_failed_runs(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    path = _gate_runs(tmp_path, -0.025)  # new scores lower: a better loss
    assert _gate(path, "--margin", 0.01, "--lower-is-better").returncode == 0
    table = pd.read_csv(path)
    table.loc[(table.model == "new") & (table.seed == 1), "score"] = np.nan  # a failed run: an empty cell
    table.to_csv(path, index=False)
    done = _gate(path, "--margin", 0.01, "--lower-is-better", "--json")
    out = _strict_json(done.stdout)
    assert (out["n"], out["n_failed_a"], out["failed_a"], out["flagged"]) == (4, 1, [1], True)
    assert done.returncode == out["exit_status"] == 0


def test_gate_json_is_the_library_result(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    path = _gate_runs(tmp_path, -0.004)
    done = _gate(path, "--margin", 0.01, "--json")
    out = _strict_json(done.stdout)
    expected = gate_table(pd.read_csv(path), model_a="new", model_b="main", margin=0.01)
    assert out == json.loads(json.dumps(expected.to_dict()))
    assert done.returncode == 2 and out["n_more"] == expected.n_more > 0


def test_gate_appends_its_summary(tmp_path, monkeypatch):
    step = tmp_path / "step_summary.md"
    step.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(step))
    path = _gate_runs(tmp_path, 0.002)
    assert _gate(path, "--margin", 0.01).returncode == 0
    expected = gate_table(pd.read_csv(path), model_a="new", model_b="main", margin=0.01).to_markdown()
    assert step.read_text() == "earlier step\n" + expected + "\n"
    mine = tmp_path / "mine.md"
    assert _gate(path, "--margin", 0.01, "--summary", mine).returncode == 0
    assert mine.read_text() == expected + "\n" and step.read_text().count("### sigeval gate") == 1
    done = _gate(path, "--margin", 0.01, "--summary", tmp_path / "no" / "such.md")
    assert done.returncode == 3 and "cannot write the summary" in done.stderr


def test_gate_state_keeps_one_sequence_over_calls(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    state = tmp_path / "state.json"
    first = _gate_runs(tmp_path, 0.004, sd=0.004, name="first.csv", n_seeds=5)
    more = _gate_runs(tmp_path, 0.004, sd=0.004, name="more.csv", n_seeds=12)
    done = _gate(first, "--margin", 0.005, "--state", state)
    assert done.returncode == 2 and "95% interval" in done.stdout and state.exists()
    done = _gate(more, "--margin", 0.005, "--state", state, "--json")
    out = _strict_json(done.stdout)
    table = pd.read_csv(more)
    expected = gate_table(table, model_a="new", model_b="main", margin=0.005, method="t-mixture")
    assert (out["ci_low"], out["ci_high"], out["n"]) == (*expected.confidence_interval, 12)
    assert done.returncode == EXIT_STATUS[expected.decision] and GateState.from_json(state.read_text()).keys == tuple(
        range(12))
    # A run that changed since the state saw it, another margin, or a fixed-sample gate with a state: errors (3).
    table.loc[0, "score"] += 0.01
    table.to_csv(more, index=False, float_format="%.17g")
    for args in ((), ("--margin", 0.01)):
        done = _gate(more, "--margin", 0.005, "--state", state, *args)
        assert done.returncode == 3 and done.stderr.startswith("sigeval gate: error: ")
    done = _gate(more, "--margin", 0.005, "--state", state, "--method", "fixed")
    assert done.returncode == 3 and "--method fixed keeps none" in done.stderr
    state.write_text("{not json")
    done = _gate(first, "--margin", 0.005, "--state", state)
    assert done.returncode == 3 and f"--state {state}: `text` is not JSON" in done.stderr


def test_gate_on_items(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    rng = np.random.default_rng(4)
    labels = rng.integers(0, 4, 400)
    right_a, right_b = rng.random(400) < 0.85, rng.random(400) < 0.84
    table = pd.DataFrame({"question": [f"q{i}" for i in range(400)], "label": labels,
                          "new": np.where(right_a, labels, (labels + 1) % 4),
                          "main": np.where(right_b, labels, (labels + 3) % 4)})
    table.to_csv(tmp_path / "p.csv", index=False)
    done = _gate(tmp_path / "p.csv", "--margin", 0.03, "--paired-by", "item", "--label", "label", "--item",
                 "question", "--json")
    out = _strict_json(done.stdout)
    expected = gate(right_a.astype(float), right_b.astype(float), margin=0.03, paired_by="item")
    assert (out["ci_low"], out["ci_high"], out["n"]) == (*expected.confidence_interval, 400)
    assert done.returncode == expected.exit_status
    done = _gate(tmp_path / "p.csv", "--margin", 0.03, "--paired-by", "item", "--label", "truth")
    assert done.returncode == 3 and "needs the column(s) 'truth'" in done.stderr


def test_gate_errors_exit_with_3(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    path = _gate_runs(tmp_path, 0.002)
    for args in (("--margin", 0.01, "--model-a", "old"), ("--margin", -1), ()):
        done = sigeval("gate", path, "--model-b", "main", *(args if "--model-a" in args else ("--model-a", "new",
                                                                                                *args)))
        assert done.returncode == 3, done
        assert "sigeval gate: error: " in done.stderr and not done.stdout
    done = _gate(tmp_path / "missing.csv", "--margin", 0.01)
    assert done.returncode == 3 and "no such file" in done.stderr


def test_gate_exit_statuses_in_a_real_process(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "GITHUB_STEP_SUMMARY"}
    for mean, status in ((0.002, 0), (-0.025, 1), (-0.004, 2)):
        path = _gate_runs(tmp_path, mean, name=f"r{status}.csv")
        done = in_subprocess("gate", path, "--model-a", "new", "--model-b", "main", "--margin", 0.01, env=env)
        assert done.returncode == status, done.stderr
    done = in_subprocess("gate", path, "--model-a", "new", env=env)
    assert done.returncode == 3 and "required" in done.stderr
# --------------------------------------------------------------------------- every view, tables that fit (issue 41)


def _views_of(done):
    out = json.loads(done.stdout)
    return {k: pd.DataFrame(v) if isinstance(v, list) and v and isinstance(v[0], dict) else v for k, v in out.items()}


def test_every_view_of_report_is_reachable_with_its_options(examples):
    report = Report(pd.read_csv(examples / "runs.csv"))
    same = pd.testing.assert_frame_equal
    cases = [
        (["--view", "pairwise", "--family", "all", "--alpha", 0.1], "pairwise", report.pairwise(alpha=0.1, family="all")),
        (["--view", "power", "--correction", "bonferroni", "--family", "all", "--target-power", 0.9], "power",
         report.power(target_power=0.9, correction="bonferroni", family="all")),
        (["--view", "equivalence", "--margin", 0.02, "--family", "all"], "equivalence",
         report.equivalence(0.02, family="all")),
        (["--view", "bayesian", "--rope", 0.005], "bayesian", report.bayesian(0.005)),
        (["--view", "bayesian", "--margin", 0.02], "bayesian", report.bayesian(0.02)),  # the ROPE is the margin
        (["--view", "bayesian", "--margin", 0.02, "--rope", 0], "bayesian", report.bayesian(0.0)),
        (["--view", "aggregate", "--n-resamples", 300, "--rng", 5], "aggregate",
         report.aggregate(n_resamples=300, rng=5)),
        (["--view", "aggregate", "--n-resamples", 300], "aggregate", report.aggregate(n_resamples=300, rng=0)),
    ]
    for options, view, expected in cases:
        done = sigeval("runs", examples / "runs.csv", *options, "--json")
        assert done.returncode == 0, done.stderr
        same(_views_of(done)[view], expected, check_dtype=False, obj=f"{options}")
    friedman = _views_of(sigeval("runs", examples / "runs.csv", "--view", "friedman", "--alpha", 0.1, "--json"))
    assert friedman["friedman"]["critical_difference"] == report.friedman(alpha=0.1).critical_difference
    everything = _views_of(sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01, "--json"))
    assert [k for k in everything if k in ("summary", "describe", *VIEW_NAMES)] == ["summary", "describe",
                                                                                   *VIEW_NAMES]
    same(everything["aggregate"], report.aggregate(rng=0), check_dtype=False)
    same(everything["bayesian"], report.bayesian(0.01), check_dtype=False)


VIEW_NAMES = ["pairwise", "power", "equivalence", "bayesian", "friedman", "aggregate"]


@pytest.mark.parametrize("options, message", [
    (["--view", "bayesian"], "the bayesian view needs --rope (or --margin)"),
    (["--view", "equivalence", "--rope", 0.01], "the equivalence view needs --margin"),
    (["--family", "tasks"], "argument --family: invalid choice"),
    (["--correction", "sidak"], "argument --correction: invalid choice"),
    (["--rope", -0.1], "argument --rope: must be a float >= 0"),
    (["--width", 30], "argument --width: must be a whole number >= 40"),
    (["--view", "aggregate", "--n-resamples", 1], "argument --n-resamples: must be a whole number >= 2"),
])
def test_the_new_options_refuse_what_they_cannot_do(examples, options, message):
    done = sigeval("runs", examples / "runs.csv", *options)
    assert done.returncode in (1, 2) and message in done.stderr.strip().splitlines()[-1]


@pytest.mark.parametrize("width", [80, 100])
def test_view_all_fits_the_terminal_without_splitting_a_table(examples, width, monkeypatch):
    import shutil

    monkeypatch.setattr(sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((width, 24)))
    through_terminal = _run_on_a_terminal(["runs", examples / "runs.csv", "--view", "all", "--margin", 0.01], width)
    given = sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01, "--width", width)
    assert given.returncode == 0 and through_terminal == given.stdout
    lines = given.stdout.split("\n")
    assert max(map(len, lines)) <= width
    assert not any(line.rstrip().endswith("\\") for line in lines)
    # A row's lines stay together: after a blank line comes a title, a header or a row's first line, never the
    # indented rest of a row (pandas prints the columns that do not fit as a second block of every row).
    assert not any(after.startswith(" ") for before, after in zip(lines, lines[1:]) if not before)
    for title in ("summary", "scores per task", "pairwise", "power", "equivalence", "bayesian", "friedman",
                  "aggregate"):
        assert sum(line.startswith(title) for line in lines) == 1, title
    # The same rows and numbers as the JSON: every p-value of the pairwise view, at 3 significant digits.
    report = Report(pd.read_csv(examples / "runs.csv"))
    for p in report.pairwise().pvalue_holm:
        assert f"{p:.3g}" in given.stdout


def _run_on_a_terminal(args, width):
    """main(args) with stdout a terminal ``width`` columns wide (isatty and the terminal size patched)."""
    out = io.StringIO()
    out.isatty = lambda: True
    with contextlib.redirect_stdout(out):
        assert main([str(a) for a in args]) == 0
    return out.getvalue()


def test_the_width_is_100_off_a_terminal_and_the_terminals_on_one(examples, monkeypatch):
    import shutil

    plain = sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01).stdout
    assert plain == sigeval("runs", examples / "runs.csv", "--view", "all", "--margin", 0.01, "--width", 100).stdout
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *a: os.terminal_size((60, 24)))
    narrow = _run_on_a_terminal(["runs", examples / "runs.csv", "--view", "all", "--margin", 0.01], 60)
    assert max(map(len, narrow.split("\n"))) <= 60 < max(map(len, plain.split("\n")))


def test_view_all_without_a_margin_says_what_it_leaves_out(examples):
    done = sigeval("runs", examples / "runs.csv", "--view", "all")
    assert done.returncode == 0, done.stderr
    assert ("left out: equivalence (needs a margin (--margin)); bayesian (needs a ROPE (--rope) or a margin "
            "(--margin)).") in " ".join(done.stdout.split())
    assert "\nequivalence\n" not in done.stdout and "\naggregate (" in done.stdout
    shown = json.loads(sigeval("runs", examples / "runs.csv", "--view", "all", "--json").stdout)
    assert shown["left_out"] == ["equivalence (needs a margin (--margin))",
                                 "bayesian (needs a ROPE (--rope) or a margin (--margin))"]
    assert "equivalence" not in shown and "aggregate" in shown
    one_task = pd.read_csv(examples / "runs.csv")
    one_task[one_task.task == "standard"].to_csv(examples / "one_task.csv", index=False)
    single = sigeval("runs", examples / "one_task.csv", "--view", "all", "--margin", 0.01)
    assert "left out: friedman (needs at least 2 tasks)." in single.stdout


def test_a_refused_view_is_explained_where_it_would_be(tmp_path):
    # A failed run leaves the aggregates without their matrix; a comparison of one pair has no posterior.
    rows = [(t, m, s, 0.5 + 0.1 * (m == "A") + 0.01 * s) for t in ("x", "y") for m in "AB" for s in range(3)]
    runs = pd.DataFrame(rows, columns=["task", "model", "seed", "score"])
    runs.loc[(runs.task == "x") & (runs.model == "A") & (runs.seed > 0), "score"] = np.nan
    runs.to_csv(tmp_path / "r.csv", index=False)
    done = sigeval("runs", tmp_path / "r.csv", "--view", "all", "--margin", 0.01, "--failed", "drop-pairs",
                   "--width", 80)
    assert done.returncode == 0, done.stderr
    report = Report(runs, failed="drop-pairs")
    with pytest.raises(ValueError) as aggregate:
        report.aggregate(rng=0)
    text = " ".join(done.stdout.split())
    assert " ".join(str(aggregate.value).split()) in text
    assert "not tested: 1 seed(s) on which both ran" in text and max(map(len, done.stdout.split("\n"))) <= 80
    shown = json.loads(sigeval("runs", tmp_path / "r.csv", "--view", "all", "--margin", 0.01, "--failed",
                               "drop-pairs", "--json").stdout)
    assert shown["aggregate_note"] == str(aggregate.value) and "aggregate" not in shown
    assert shown["bayesian"][0]["note"].startswith("not tested: 1 seed(s)")


def test_the_comparison_page_has_its_figures(examples, tmp_path):
    page = tmp_path / "compare.html"
    done = sigeval("compare", examples / "predictions.csv", "--n-resamples", 200, "--output", page)
    assert done.returncode == 0, done.stderr
    text = page.read_text()
    assert text.count("<svg") == 2 and "<script" not in text and "<link" not in text and "src=" not in text
    assert not re.search(r"url\((?!#)|@import", text)
    ids = re.findall(r"\bid=\"([^\"]+)\"", text)
    assert len(ids) == len(set(ids)) and all(i.startswith(("models-", "pairs-")) for i in ids)


# --------------------------------------------------------------------------- gate: every option reaches the library


def _renamed_runs(tmp_path, mean=0.002):
    """The gate's table of runs with columns of other names, as a harness might write them."""
    path = _gate_runs(tmp_path, mean, n_seeds=8)
    table = pd.read_csv(path)
    renamed = tmp_path / "renamed.csv"
    table.rename(columns={"task": "benchmark", "model": "system", "seed": "run", "score": "acc"}).to_csv(
        renamed, index=False, float_format="%.17g")
    return table, renamed


@pytest.mark.parametrize("args, kwargs", [
    (("--alpha", 0.1, "--target-power", 0.9), dict(alpha=0.1, target_power=0.9)),
    (("--lower-is-better", "--fail-on", "zero"), dict(higher_is_better=False, fail_on="zero")),
    (("--method", "betting", "--bounds", -1, 1), dict(method="betting", bounds=(-1.0, 1.0))),
    (("--method", "t-mixture",), dict(method="t-mixture")),
])
def test_gate_passes_every_option_and_column_name_to_gate_table(tmp_path, monkeypatch, args, kwargs):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    table, renamed = _renamed_runs(tmp_path)
    done = sigeval("gate", renamed, "--model-a", "new", "--model-b", "main", "--margin", 0.01, "--json",
                   "--task", "benchmark", "--model", "system", "--seed", "run", "--score", "acc", *args)
    expected = gate_table(table, model_a="new", model_b="main", margin=0.01, **kwargs)
    assert done.returncode == EXIT_STATUS[expected.decision], done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(expected.to_dict()))


def test_gate_pairs_by_item_with_a_label_column(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    rng = np.random.default_rng(4)
    label = rng.integers(0, 3, 400)
    new = np.where(rng.random(400) < 0.9, label, (label + 1) % 3)
    main_ = np.where(rng.random(400) < 0.85, label, (label + 1) % 3)
    table = pd.DataFrame({"question": np.arange(400), "truth": label, "new": new, "main": main_})
    path = tmp_path / "predictions.csv"
    table.to_csv(path, index=False)
    done = sigeval("gate", path, "--model-a", "new", "--model-b", "main", "--margin", 0.02, "--json",
                   "--paired-by", "item", "--item", "question", "--label", "truth")
    expected = gate_table(table.rename(columns={"question": "item"}), model_a="new", model_b="main", margin=0.02,
                          paired_by="item", label="truth")
    assert done.returncode == EXIT_STATUS[expected.decision], done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(expected.to_dict()))


def test_gate_errors_in_full(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    path = _gate_runs(tmp_path, 0.002)
    done = _gate(path, "--margin", 0.01, "--method", "fixed", "--state", tmp_path / "s.json")
    assert done.returncode == 3 and done.stderr == (
        "sigeval gate: error: --state keeps the history of a confidence sequence; --method fixed keeps none (use "
        "--method t-mixture or betting)\n")
    done = sigeval("gate", path, "--model-a", "old", "--model-b", "main", "--margin", 0.01)
    assert done.returncode == 3 and done.stderr.startswith(f"sigeval gate: error: {path}: ") and "'old'" in done.stderr
    blocked = tmp_path / "no-such-folder" / "state.json"
    done = _gate(path, "--margin", 0.01, "--state", blocked)
    assert done.returncode == 3
    assert done.stderr.startswith(f"sigeval gate: error: --state {blocked}: cannot write the state (")


# --------------------------------------------------------------------------- runs: options reach Report


def _three_task_runs(tmp_path):
    rng = np.random.default_rng(0)
    rows = [(t, m, s, 0.8 + 0.01 * (m == "a") + 0.01 * rng.standard_normal())
            for t in ("t1", "t2", "t3") for m in ("a", "b", "c") for s in range(5)]
    table = pd.DataFrame(rows, columns=["task", "model", "seed", "score"])
    plain, renamed = tmp_path / "runs.csv", tmp_path / "renamed.csv"
    table.to_csv(plain, index=False, float_format="%.17g")
    table.rename(columns={"task": "benchmark", "model": "system", "seed": "run", "score": "acc"}).to_csv(
        renamed, index=False, float_format="%.17g")
    return plain, renamed


@pytest.mark.parametrize("view, extra", [("pairwise", ()), ("power", ("--correction", "holm")),
                                         ("equivalence", ("--margin", 0.005)), ("friedman", ())])
def test_runs_reads_columns_of_other_names_as_the_same_report(tmp_path, view, extra):
    plain, renamed = _three_task_runs(tmp_path)
    by_default = json.loads(sigeval("runs", plain, "--json", "--view", view, *extra).stdout)
    named = sigeval("runs", renamed, "--json", "--view", view, "--task", "benchmark", "--model", "system",
                    "--seed", "run", "--score", "acc", *extra)
    assert named.returncode == 0, named.stderr
    named_out = json.loads(named.stdout)
    for out in (named_out, by_default):
        for key in ("call", "date"):   # the command lines differ, and the clock may turn a second between the runs
            out["environment"].pop(key)
    assert named_out == by_default


def test_runs_lower_is_better_reverses_every_difference(tmp_path):
    plain, _ = _three_task_runs(tmp_path)
    higher = json.loads(sigeval("runs", plain, "--json", "--view", "pairwise").stdout)["pairwise"]
    lower = json.loads(sigeval("runs", plain, "--json", "--view", "pairwise", "--lower-is-better").stdout)["pairwise"]
    table = pd.read_csv(plain)
    expected = Report(table, higher_is_better=False).pairwise()
    assert [row["mean_diff"] for row in lower] == pytest.approx(expected.mean_diff.tolist(), rel=1e-12)
    assert [row["mean_diff"] for row in lower] == pytest.approx([row["mean_diff"] for row in higher], rel=1e-12)


def test_runs_errors_in_full(tmp_path):
    plain, _ = _three_task_runs(tmp_path)
    done = sigeval("runs", plain, "--view", "equivalence")
    assert done.returncode == 1 and done.stderr == (
        "sigeval runs: error: the equivalence view needs --margin (the smallest difference that matters, fixed in advance); "
        "--view all leaves it out without one\n")
    one_task = tmp_path / "one.csv"
    pd.read_csv(plain).query("task == 't1'").to_csv(one_task, index=False)
    done = sigeval("runs", one_task, "--view", "friedman")
    assert done.stderr == f"sigeval runs: error: {one_task}: the Friedman view needs at least 2 tasks; the file has 1\n"
    done = sigeval("runs", plain, "--experiment", "x")
    assert done.stderr == ("sigeval runs: error: a CSV file of runs is read with: sigeval runs RUNS.csv (--experiment and "
                           "--metric are for --from mlflow)\n")
    done = sigeval("runs", "--from", "mlflow", "--experiment", "x")
    assert done.stderr == ("sigeval runs: error: --from mlflow reads an experiment: sigeval runs --from mlflow --experiment NAME "
                           "--metric METRIC [--tracking-uri URI] (no file)\n")
    blocked = tmp_path / "no-such-folder" / "page.html"
    done = sigeval("runs", plain, "--html", blocked)
    assert done.returncode == 1 and done.stderr.startswith(f"sigeval runs: error: {blocked}: cannot write the page (")


def test_compare_errors_in_full(tmp_path):
    path = tmp_path / "p.csv"
    pd.DataFrame({"A": [1, 0, 1, 1], "B": [0, 0, 1, 0]}).to_csv(path, index=False)
    cases = [
        ((path, path), f"one CSV file is compared at a time; got 2 ({path} {path})"),
        ((path, "--k", 1), "--k: not an option of a CSV file of predictions (--from logs only)"),
        ((path, "--family", "all"), "--family: not an option of a CSV file of predictions (--from logs only)"),
        ((path, "--metric", "f1"), "--metric of a CSV file is accuracy or auc; got f1"),
        ((path, "--metric", "accuracy", "auc"), "--metric of a CSV file is accuracy or auc; got accuracy auc"),
    ]
    for args, message in cases:
        done = sigeval("compare", *args)
        assert done.returncode == 1 and done.stderr == f"sigeval compare: error: {message}\n", args
    # Without a label column every column is read as 0/1 correctness: said in the note, and beside an error.
    done = sigeval("compare", path, "--json")
    hint = ("no column 'label', so every column was read as a model's 0/1 correctness; name the column of true "
            "labels with --label COLUMN (or say --label none)")
    assert done.returncode == 0 and json.loads(done.stdout)["note"].endswith(f"; {hint}")
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"A": [1, 0, 2, 1], "B": [0, 0, 1, 0]}).to_csv(bad, index=False)
    done = sigeval("compare", bad)
    assert done.returncode == 1 and done.stderr.startswith(f"sigeval compare: error: {bad}")
    assert done.stderr.endswith(f" ({hint})\n")
    labelled = sigeval("compare", path, "--label", "none", "--json")
    assert hint not in json.loads(labelled.stdout)["note"]


def test_files_beside_the_output_and_their_errors_in_full(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    plain, _ = _three_task_runs(tmp_path)
    page = tmp_path / "report.HTM"   # .htm, in any case, is a page too
    done = sigeval("runs", plain, "--output", page)
    assert done.returncode == 0 and done.stdout == f"HTML report written to {page}\n"
    assert page.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html>")
    missing = tmp_path / "no-such-folder"
    done = sigeval("runs", plain, "--output", missing / "report.html")
    assert done.stderr == f"sigeval runs: error: {missing / 'report.html'}: cannot write the page (No such file or directory)\n"
    done = sigeval("runs", plain, "--output", missing / "report.txt")
    assert done.stderr == f"sigeval runs: error: --output {missing / 'report.txt'}: cannot write the file (No such file or directory)\n"
    # The state of the gate: an unwritable one names the error as Python does, an unreadable one says why.
    runs = _gate_runs(tmp_path, 0.002)
    done = _gate(runs, "--margin", 0.01, "--state", missing / "s.json")
    assert done.stderr == (f"sigeval gate: error: --state {missing / 's.json'}: cannot write the state ([Errno 2] No such "
                           f"file or directory: '{missing / 's.json'}')\n")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    done = _gate(runs, "--margin", 0.01, "--state", folder)
    assert done.stderr == f"sigeval gate: error: --state {folder}: cannot read the file (Is a directory)\n"
    broken = tmp_path / "broken.json"
    broken.write_text("{", encoding="utf-8")
    done = _gate(runs, "--margin", 0.01, "--state", broken)
    assert done.returncode == 3 and done.stderr.startswith(f"sigeval gate: error: --state {broken}: ")
    # The summary: --summary FILE and $GITHUB_STEP_SUMMARY are named as the user gave them.
    done = _gate(runs, "--margin", 0.01, "--summary", missing / "summary.md")
    assert done.stderr.startswith(f"sigeval gate: error: --summary {missing / 'summary.md'}: cannot write the summary (")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(missing / "step.md"))
    done = _gate(runs, "--margin", 0.01)
    assert done.stderr.startswith(
        f"sigeval gate: error: $GITHUB_STEP_SUMMARY ({missing / 'step.md'}): cannot write the summary (")


def test_gate_json_is_the_results_dict_indented_by_one(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    runs = _gate_runs(tmp_path, 0.002)
    done = _gate(runs, "--margin", 0.01, "--json")
    expected = gate_table(pd.read_csv(runs), model_a="new", model_b="main", margin=0.01)
    assert done.stdout == json.dumps(expected.to_dict(), indent=1) + "\n"


def test_runs_writes_the_cd_diagram_with_any_view_and_says_where(tmp_path):
    pytest.importorskip("matplotlib")
    plain, _ = _three_task_runs(tmp_path)
    figure = tmp_path / "cd.png"
    done = sigeval("runs", plain, "--view", "pairwise", "--plot", figure)
    assert done.returncode == 0 and figure.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert done.stdout.rstrip().endswith(f"CD diagram written to {figure}")
    assert "critical difference" in done.stdout   # the Friedman view is shown beside the figure it draws
    blocked = tmp_path / "no-such-folder" / "cd.png"
    done = sigeval("runs", plain, "--plot", blocked)
    assert done.returncode == 1 and done.stderr == (
        f"sigeval runs: error: --plot {blocked}: cannot write the figure ([Errno 2] No such file or directory: "
        f"'{blocked}')\n")
    one_task = tmp_path / "one.csv"
    pd.read_csv(plain).query("task == 't2'").to_csv(one_task, index=False)
    done = sigeval("runs", one_task, "--plot", figure)
    assert done.stderr == f"sigeval runs: error: {one_task}: the Friedman view needs at least 2 tasks; the file has 1\n"
    two_tasks = tmp_path / "two.csv"
    pd.read_csv(plain).query("task != 't2'").to_csv(two_tasks, index=False)
    assert sigeval("runs", two_tasks, "--view", "friedman").returncode == 0   # two tasks are enough


# --------------------------------------------------------------------------- what each output computes, and the edges of main


@pytest.mark.parametrize("fmt, view, computed", [
    ("text", "pairwise", ["describe", "pairwise"]),
    ("markdown", "pairwise", ["describe", "pairwise"]),     # a view's table, not the whole report
    ("markdown", "power", ["describe", "power"]),
    ("text", "all", ["aggregate", "bayesian", "describe", "equivalence", "friedman", "pairwise", "power", "summary"]),
])
def test_an_output_computes_the_views_it_shows_and_no_others(examples, monkeypatch, fmt, view, computed):
    calls = _count_views(monkeypatch)
    done = sigeval("runs", examples / "runs.csv", "--view", view, "--margin", 0.01, "--format", fmt)
    assert done.returncode == 0, done.stderr
    assert sorted(set(calls)) == computed


def test_view_all_shows_the_failed_runs(tmp_path):
    lines = RUNS_OK.splitlines()
    path = _write(tmp_path, "r.csv", "\n".join(lines[:-1] + ["t,B,3,nan"]) + "\n")
    done = sigeval("runs", path, "--failed", "drop-pairs", "--view", "all", "--margin", 0.01)
    assert done.returncode == 0, done.stderr
    assert "failed runs (their pairs are left out)\ntask  model  seed  reason\nt     B         3  score is NaN\n" in done.stdout


def test_the_design_names_the_score_column(tmp_path):
    _, renamed = _three_task_runs(tmp_path)
    done = sigeval("runs", renamed, "--view", "all", "--format", "markdown", "--task", "benchmark", "--model",
                   "system", "--seed", "run", "--score", "acc")
    assert done.returncode == 0, done.stderr
    assert "| metric | acc, higher is better |" in done.stdout


def test_compare_errors_without_the_hint_and_the_page_names_the_file(tmp_path):
    bad = tmp_path / "bad.csv"
    pd.DataFrame({"y": [1, 0, 1, 1], "A": [1, 0, 2, 1], "B": [0, 0, 1, 0]}).to_csv(bad, index=False)
    done = sigeval("compare", bad, "--label", "y", "--models", "A", "Z")
    with pytest.raises(ValueError) as library:
        from sigeval import compare_predictions
        compare_predictions(pd.read_csv(bad), label="y", models=["A", "Z"])
    assert done.returncode == 1 and done.stderr == f"sigeval compare: error: {bad}: {library.value}\n"
    good = tmp_path / "good.csv"
    pd.DataFrame({"y": [1, 0, 1, 1, 0], "A": [1, 0, 1, 1, 1], "B": [0, 0, 1, 0, 0]}).to_csv(good, index=False)
    page = tmp_path / "page.html"
    argv = ("compare", good, "--label", "y", "--n-resamples", 200, "--output", page)
    assert sigeval(*argv).returncode == 0
    text = page.read_text(encoding="utf-8")
    assert f"<h1>Comparison of 2 models: {good}</h1>" in text
    assert f"<td class='text'>call</td><td class='text'>sigeval {' '.join(map(str, argv))}</td>" in text


def test_gate_reads_runs_with_the_runs_reader_and_items_by_the_named_column(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    infinite = tmp_path / "inf.csv"
    infinite.write_text("task,model,seed,score\nt,new,0,0.9\nt,new,1,inf\nt,main,0,0.8\nt,main,1,0.85\n")
    done = _gate(infinite, "--margin", 0.01)
    assert done.returncode == 3 and done.stderr == (
        f"sigeval gate: error: {infinite}, line 3: column 'score' holds an infinite score\n")
    # A long table of items whose item column has another name; a repeated item names the lines of the file.
    long = pd.DataFrame({"model": ["new"] * 40 + ["main"] * 40, "question": [*range(40)] * 2,
                         "score": [1] * 36 + [0] * 4 + [1] * 30 + [0] * 10})
    long = long.sample(frac=1, random_state=1)   # in no order: the items pair by their names, not their places
    path = tmp_path / "items.csv"
    long.to_csv(path, index=False)
    done = _gate(path, "--margin", 0.02, "--paired-by", "item", "--item", "question", "--json")
    expected = gate_table(long.rename(columns={"question": "item"}), model_a="new", model_b="main", margin=0.02,
                          paired_by="item")
    assert done.returncode == EXIT_STATUS[expected.decision], done.stderr
    assert json.loads(done.stdout) == json.loads(json.dumps(expected.to_dict()))
    twice = tmp_path / "twice.csv"
    twice.write_text("model,question,score\nnew,1,1\nnew,2,0\nnew,2,1\nmain,1,0\nmain,2,1\n")
    done = _gate(twice, "--margin", 0.01, "--paired-by", "item", "--item", "question")
    assert done.returncode == 3 and done.stderr == (
        f"sigeval gate: error: {twice}, lines 3, 4: model 'new' has more than one row for 2\n")


def _ascii_locale(monkeypatch):
    """Files opened without an encoding get ASCII, as on a machine whose locale is not UTF-8."""
    import builtins

    from sigeval import cli as command

    monkeypatch.setattr(io, "text_encoding", lambda encoding, stacklevel=2: encoding or "ascii")
    monkeypatch.setattr(command, "open", lambda file, mode="r", encoding=None, **kw: builtins.open(
        file, mode, encoding=encoding or "ascii", **kw), raising=False)


def test_files_are_utf8_whatever_the_locale(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    _ascii_locale(monkeypatch)
    with pytest.raises(UnicodeEncodeError):   # the simulated locale is in force
        (tmp_path / "x.txt").write_text("modèle")
    runs = pd.read_csv(_gate_runs(tmp_path, 0.002)).replace({"new": "modèle", "main": "référence"})
    path = tmp_path / "runs.csv"
    runs.to_csv(path, index=False, float_format="%.17g")
    report = tmp_path / "report.txt"
    done = sigeval("runs", path, "--output", report)
    assert done.returncode == 0, done.stderr
    assert "modèle" in report.read_text(encoding="utf-8")
    summary, state = tmp_path / "summary.md", tmp_path / "state.json"
    done = sigeval("gate", path, "--model-a", "modèle", "--model-b", "référence", "--margin", 0.01, "--summary",
                   summary, "--state", state)
    assert done.returncode in (0, 1, 2), done.stderr
    assert summary.read_text(encoding="utf-8").startswith("### sigeval gate: ")
    # A state rewritten by another tool (jq writes UTF-8, not escapes) is read back: its keys are the items' names.
    items = tmp_path / "items.csv"
    pd.DataFrame({"model": ["modèle"] * 30 + ["référence"] * 30, "item": [f"q-é{i}" for i in range(30)] * 2,
                  "score": [1] * 27 + [0] * 3 + [1] * 24 + [0] * 6}).to_csv(items, index=False)
    gate_items = ("gate", items, "--model-a", "modèle", "--model-b", "référence", "--margin", 0.05, "--paired-by",
                  "item", "--state", tmp_path / "items-state.json")
    assert sigeval(*gate_items).returncode in (0, 1, 2)
    state = tmp_path / "items-state.json"
    state.write_text(json.dumps(json.loads(state.read_text()), ensure_ascii=False), encoding="utf-8")
    assert "q-é0" in state.read_text(encoding="utf-8")
    done = sigeval(*gate_items)
    assert done.returncode in (0, 1, 2), done.stderr


def test_a_state_file_that_is_not_text_says_why(tmp_path, monkeypatch):
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    state = tmp_path / "state.json"
    state.write_bytes(b"\xff\xfe\x00garbage")
    done = _gate(_gate_runs(tmp_path, 0.002), "--margin", 0.01, "--state", state)
    assert done.returncode == 3 and done.stderr == (
        f"sigeval gate: error: --state {state}: cannot read the file ('utf-8' codec can't decode byte 0xff in "
        "position 0: invalid start byte)\n")


def test_main_reads_the_command_line_when_given_no_arguments(examples, monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["sigeval", "runs", str(examples / "runs.csv"), "--json"])
    assert main() == 0
    assert json.loads(capsys.readouterr().out)["environment"]["call"] == f"sigeval runs {examples / 'runs.csv'} --json"


def test_main_on_a_closed_pipe_an_interrupt_and_a_bug(examples, monkeypatch, tmp_path):
    from sigeval import cli as command

    def closed(*args, **kwargs):
        raise BrokenPipeError

    monkeypatch.setattr(command.ro, "render", closed)
    assert sigeval("runs", examples / "runs.csv").returncode == 0

    def interrupted(*args, **kwargs):
        raise KeyboardInterrupt

    monkeypatch.setattr(command.ro, "render", interrupted)
    assert sigeval("runs", examples / "runs.csv").returncode == 130

    def bug(*args, **kwargs):
        raise RuntimeError("something broke")

    monkeypatch.setattr(command.ro, "render", bug)
    monkeypatch.delenv("SIGEVAL_DEBUG", raising=False)
    done = sigeval("runs", examples / "runs.csv")
    assert done.returncode == 2 and done.stdout == "" and done.stderr == (
        "sigeval runs: internal error: RuntimeError: something broke. This is a bug: please report it with the output "
        "of 'sigeval --version' (set SIGEVAL_DEBUG=1 for the traceback)\n")
    monkeypatch.setattr(command, "gate_table", bug)
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)
    done = _gate(_gate_runs(tmp_path, 0.002), "--margin", 0.01)
    assert done.returncode == 3 and done.stderr.startswith("sigeval gate: internal error: RuntimeError: something broke.")
    monkeypatch.setenv("SIGEVAL_DEBUG", "1")
    with pytest.raises(RuntimeError, match="something broke"):
        sigeval("runs", examples / "runs.csv")


def test_a_figure_without_matplotlib_names_the_extra(tmp_path, monkeypatch):
    from sigeval import cli as command

    def no_matplotlib(*args, **kwargs):
        raise ImportError("No module named 'matplotlib'")

    monkeypatch.setattr(command.ro, "cd_diagram_file", no_matplotlib)
    plain, _ = _three_task_runs(tmp_path)
    done = sigeval("runs", plain, "--plot", tmp_path / "cd.png")
    assert done.returncode == 1 and done.stderr == f"sigeval runs: error: --plot {command.PLOTS_HINT}\n"

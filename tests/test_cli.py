"""The sigeval command, driven as a user would: in a subprocess, on CSV files."""

import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigeval import Report, adjust_pvalues, mcnemar, proportion_ci

SCRIPT = Path(sys.executable).with_name("sigeval")
COMMAND = [str(SCRIPT)] if SCRIPT.exists() else [sys.executable, "-m", "sigeval.cli"]


def sigeval(*args, cwd=None):
    return subprocess.run([*COMMAND, *map(str, args)], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture(scope="module")
def examples(tmp_path_factory):
    folder = tmp_path_factory.mktemp("examples")
    for which in ("predictions", "runs"):
        done = sigeval("example", which)
        assert done.returncode == 0, done.stderr
        (folder / f"{which}.csv").write_text(done.stdout)
    return folder


def test_version_and_help():
    done = sigeval("--version")
    assert done.returncode == 0 and done.stdout.startswith("sigeval ")
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
    assert "matcher_A matcher_B" in done.stdout and "Traceback" not in done.stderr


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
    pair = json.loads(done.stdout)["pairs"][0]
    ref = delong_test(y, s1, s2)
    assert (pair["estimate"], pair["pvalue"]) == pytest.approx((ref.estimate, ref.pvalue))


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
        ("compare", "label,A,B\n1,1,0\n", ["--n-resamples", "-5"], "positive int"),
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

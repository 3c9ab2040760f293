"""The readers of harness logs (sigeval.readers) and the comparison they feed (sigeval.predictions.compare_items).

The files are written as the tools write them: lm-evaluation-harness's sample and results files in the format of
its source (tests/harness_logs.py says which fields and where they come from), Inspect's logs by Inspect itself
(its mock model on a local dataset), an MLflow store through MLflow's client. Every number of the comparison is
checked against an independent computation (scipy, statsmodels, brute force).
"""

from __future__ import annotations

import itertools
import json
import math
import shutil
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from harness_logs import BROKEN, RUNS, lm_eval_line, write_inspect_logs, write_lm_eval_run
from scipy import stats

import sigeval
from sigeval import compare_items, read_inspect, read_lm_eval, read_mlflow

# --------------------------------------------------------------------------- lm-evaluation-harness files

#: Correctness of two models on 12 arc_easy documents (B lacks document 7) and 9 gsm8k documents (two filters).
ARC_A = [1, 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 1]
ARC_B = [1, 0, 0, 1, 0, 1, 1, None, 0, 1, 0, 0]
GSM = {  # (model, run) -> strict-match, flexible-extract per document
    ("org/model-a", 0): ([1, 0, 1, 1, 0, 1, 1, 0, 1], [1, 1, 1, 1, 0, 1, 1, 0, 1]),
    ("org/model-a", 1): ([1, 1, 1, 0, 0, 1, 1, 0, 1], [1, 1, 1, 1, 0, 1, 1, 1, 1]),
    ("model-b", 0): ([0, 0, 1, 0, 0, 1, 0, 0, 1], [0, 1, 1, 0, 0, 1, 0, 0, 1]),
    ("model-b", 1): ([0, 0, 1, 1, 0, 0, 0, 0, 1], [1, 0, 1, 1, 0, 0, 0, 0, 1]),
}
DATES = ("2026-03-01T10-00-00.000001", "2026-03-02T09-30-00.123456")


def _arc_lines(correct: list) -> list[dict]:
    return [lm_eval_line(i, "none", {"acc": float(c), "acc_norm": float(c)}) for i, c in enumerate(correct)
            if c is not None]


def _gsm_lines(strict: list, flexible: list) -> list[dict]:
    lines = [lm_eval_line(i, "strict-match", {"exact_match": float(c)}) for i, c in enumerate(strict)]
    return lines + [lm_eval_line(i, "flexible-extract", {"exact_match": float(c)}) for i, c in enumerate(flexible)]


@pytest.fixture
def lm_eval_out(tmp_path: Path) -> Path:
    out = tmp_path / "out"
    for model, arc in (("org/model-a", ARC_A), ("model-b", ARC_B)):
        for run, date in enumerate(DATES):
            tasks = {"gsm8k": _gsm_lines(*GSM[(model, run)])}
            if run == 0:
                tasks["arc_easy"] = _arc_lines(arc)
            write_lm_eval_run(out, model, date, tasks)
    return out


def test_lm_eval_reads_every_metric_filter_and_run(lm_eval_out):
    table = read_lm_eval(lm_eval_out)
    assert list(table.columns) == ["model", "task", "item", "sample", "metric", "score", "run", "file", "line"]
    counts = table.groupby(["model", "task", "metric", "sample"]).size().to_dict()
    assert counts[("org/model-a", "arc_easy", "acc,none", 0)] == 12
    assert counts[("model-b", "arc_easy", "acc_norm,none", 0)] == 11
    assert counts[("model-b", "gsm8k", "exact_match,flexible-extract", 1)] == 9
    assert len(table) == 2 * (12 + 11) + 4 * 2 * 9
    # The runs are the samples, numbered by date; the values those of the files.
    gsm = table[(table.model == "model-b") & (table.metric == "exact_match,strict-match")]
    for run, date in enumerate(DATES):
        rows = gsm[gsm["sample"] == run].sort_values("item")
        assert (rows.run == date).all()
        assert rows.score.tolist() == GSM[("model-b", run)][0]
    line = table[(table.model == "org/model-a") & (table.task == "arc_easy") & (table.item == 2)].iloc[0]
    assert Path(line.file).name == f"samples_arc_easy_{DATES[0]}.jsonl" and line.line == 3


def test_lm_eval_metric_is_chosen_explicitly(lm_eval_out):
    acc = read_lm_eval(lm_eval_out / "model-b" / f"samples_arc_easy_{DATES[0]}.jsonl", metric="acc")
    assert set(acc.metric) == {"acc,none"}
    with pytest.raises(ValueError, match=r"`metric` 'exact_match' matches several metrics of task 'gsm8k'.*"
                                         r"'exact_match,strict-match', 'exact_match,flexible-extract'"):
        read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match"})
    with pytest.raises(ValueError, match=r"'acc' matches no metric of task 'gsm8k', which holds 'exact_match,"):
        read_lm_eval(lm_eval_out, metric="acc")
    both = read_lm_eval(lm_eval_out, metric={"arc_easy": "acc_norm", "gsm8k": "exact_match,strict-match"})
    assert set(both.metric) == {"acc_norm,none", "exact_match,strict-match"}
    with pytest.raises(ValueError, match=r"no metric for task\(s\) 'gsm8k'"):
        read_lm_eval(lm_eval_out, metric={"arc_easy": "acc"})
    with pytest.raises(ValueError, match=r"names task\(s\) 'mmlu' that the files do not hold"):
        read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match", "mmlu": "acc"})
    with pytest.raises(TypeError, match="`metric` must be None"):
        read_lm_eval(lm_eval_out, metric=3)


def test_lm_eval_items_are_matched_by_id_not_by_order(lm_eval_out, tmp_path):
    table = read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match"})
    file = lm_eval_out / "model-b" / f"samples_arc_easy_{DATES[0]}.jsonl"
    lines = file.read_text().splitlines()
    file.write_text("\n".join(lines[::-1]) + "\n")
    shuffled = read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match"})
    a = compare_items(table[table.task == "arc_easy"], n_resamples=500, rng=0)
    b = compare_items(shuffled[shuffled.task == "arc_easy"], n_resamples=500, rng=0)
    pd.testing.assert_frame_equal(a.pairs, b.pairs)
    pd.testing.assert_frame_equal(a.per_model, b.per_model)


def test_lm_eval_missing_document_is_reported_and_left_out(lm_eval_out):
    table = read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match"})
    res = compare_items(table, n_resamples=2000, rng=0)
    assert res.missing.to_dict("records") == [{"task": "arc_easy", "model": "model-b", "n_missing": 1, "items": "7"}]
    assert "task 'arc_easy': 1 item(s) not held by every model left out" in res.note
    arc = res.per_model[res.per_model.task == "arc_easy"]
    shared = [i for i in range(12) if ARC_B[i] is not None]
    a = np.array([ARC_A[i] for i in shared])
    b = np.array([ARC_B[i] for i in shared])
    assert arc.model.tolist() == ["model-b", "org/model-a"]  # in the order the folders were read
    assert arc.n_items.tolist() == [11, 11]
    assert arc.score.tolist() == [b.mean(), a.mean()]
    # Wilson's interval (statsmodels) and McNemar's exact test (the binomial on the disagreements, scipy).
    from statsmodels.stats.proportion import proportion_confint

    for (_, row), x in zip(arc.iterrows(), (b, a)):
        low, high = proportion_confint(x.sum(), x.size, alpha=0.05, method="wilson")
        assert row.ci_low == pytest.approx(low, abs=1e-12) and row.ci_high == pytest.approx(high, abs=1e-12)
        assert row.method == "Wilson"
    pair = res.pairs[res.pairs.task == "arc_easy"].iloc[0]
    n01, n10 = int(np.sum((a == 1) & (b == 0))), int(np.sum((a == 0) & (b == 1)))
    assert pair.pvalue == pytest.approx(stats.binomtest(n01, n01 + n10).pvalue, abs=1e-12)
    assert pair.estimate == pytest.approx(b.mean() - a.mean(), abs=1e-15)
    assert (pair.model_a, pair.model_b, pair.n_items) == ("model-b", "org/model-a", 11)


def test_lm_eval_repeated_runs_are_samples_of_each_document(lm_eval_out):
    table = read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match"})
    res = compare_items(table, n_resamples=2000, rng=0)
    gsm = res.per_model[res.per_model.task == "gsm8k"].set_index("model")
    a = np.array([GSM[("org/model-a", r)][0] for r in (0, 1)], dtype=float).T  # items x samples
    b = np.array([GSM[("model-b", r)][0] for r in (0, 1)], dtype=float).T
    assert gsm.n_samples.tolist() == [2.0, 2.0]
    # The item is the unit: the t interval of the items' means (scipy), never of the 18 samples.
    for model, x in (("org/model-a", a), ("model-b", b)):
        means = x.mean(axis=1)
        low, high = stats.ttest_1samp(means, 0).confidence_interval(0.95)
        assert gsm.loc[model, "score"] == pytest.approx(means.mean(), abs=1e-15)
        assert gsm.loc[model, "ci_low"] == pytest.approx(low, abs=1e-12)
        assert gsm.loc[model, "ci_high"] == pytest.approx(high, abs=1e-12)
    pair = res.pairs[res.pairs.task == "gsm8k"].iloc[0]
    assert (pair.model_a, pair.model_b) == ("model-b", "org/model-a")
    d = b.mean(axis=1) - a.mean(axis=1)
    low, high = stats.ttest_rel(b.mean(axis=1), a.mean(axis=1)).confidence_interval(0.95)
    assert (pair.estimate, pair.ci_low, pair.ci_high) == pytest.approx((d.mean(), low, high), abs=1e-12)
    # The sign-flip test by brute force over the 2**9 sign patterns of the items' differences.
    flips = np.array(list(itertools.product((-1, 1), repeat=d.size)))
    assert pair.pvalue == pytest.approx(np.mean(np.abs(flips @ d) >= abs(d.sum()) - 1e-12), abs=1e-12)
    # pass@k per model: 1 - C(n - c, k) / C(n, k), averaged over the items.
    passes = res.pass_at_k[res.pass_at_k.task == "gsm8k"]
    assert passes.k.tolist() == [1, 2, 1, 2] and res.pass_at_k.task.eq("gsm8k").all()
    for _, row in passes.iterrows():
        x = a if row.model == "org/model-a" else b
        c = x.sum(axis=1).astype(int)
        expected = np.mean([1 - math.comb(2 - ci, row.k) / math.comb(2, row.k) for ci in c])
        assert row.estimate == pytest.approx(expected, abs=1e-15)


def test_lm_eval_holm_over_the_pairs_of_a_task(tmp_path):
    out = tmp_path / "out"
    rng = np.random.default_rng(3)
    for model, p in (("a", 0.8), ("b", 0.6), ("c", 0.55)):
        correct = (rng.random(60) < p).astype(float)
        write_lm_eval_run(out, model, DATES[0], {"boolq": [lm_eval_line(i, "none", {"acc": c})
                                                           for i, c in enumerate(correct)]})
    res = compare_items(read_lm_eval(out), n_resamples=500, rng=0)
    from statsmodels.stats.multitest import multipletests

    assert res.pairs.pvalue_holm.tolist() == pytest.approx(multipletests(res.pairs.pvalue, method="holm")[1],
                                                           abs=1e-15)
    assert [(r.model_a, r.model_b) for r in res.pairs.itertuples()] == [("a", "b"), ("a", "c"), ("b", "c")]
    # Holm over every pair of every task: one family of all the comparisons.
    table = pd.concat([read_lm_eval(out), read_lm_eval(out).assign(task="boolq_copy")], ignore_index=True)
    both = compare_items(table, family="all", n_resamples=200, rng=0)
    assert both.pairs.pvalue_holm.tolist() == pytest.approx(multipletests(both.pairs.pvalue, method="holm")[1],
                                                            abs=1e-15)
    assert "Holm over all 6 pairs" in both.note
    with pytest.raises(ValueError, match="`family` must be one of"):
        compare_items(table, family="tasks")
    ranks = res.rank_sets.set_index("model")
    assert (ranks.rank_low <= ranks["rank"]).all() and (ranks["rank"] <= ranks.rank_high).all()
    order = res.per_model.set_index("model").score.rank(ascending=False, method="min").astype(int)
    assert ranks["rank"].to_dict() == order.to_dict()


def test_lm_eval_duplicate_document_is_refused_naming_both_lines(lm_eval_out):
    file = lm_eval_out / "model-b" / f"samples_arc_easy_{DATES[0]}.jsonl"
    lines = file.read_text().splitlines()
    file.write_text("\n".join([*lines, lines[2]]) + "\n")
    with pytest.raises(ValueError, match=r"document .*item 2 appears 2 times \(.*samples_arc_easy_.*line 3 and "
                                         r".*line 12\).* each must appear once"):
        read_lm_eval(lm_eval_out)


@pytest.mark.parametrize(("content", "message"), [
    (lambda lines: lines[:3] + [lines[3][: len(lines[3]) // 2]], r"line 4: not a JSON object .*truncated"),
    (lambda lines: lines[:1] + ['{"id": "q1", "scores": {"match": {"value": "C"}}}'],
     r"line 2: no 'doc_id', 'filter', 'metrics' field: not a sample of lm-evaluation-harness"),
    (lambda lines: lines[:1] + [json.dumps(lm_eval_line(1, "none", {"bleu": ["ref", "pred"]}))],
     r"line 2: metric 'bleu' holds \['ref', 'pred'\], not a number"),
    (lambda lines: lines[:1] + [json.dumps(lm_eval_line(1, "none", {"acc": "high"}))],
     r"line 2: metric 'acc' holds 'high', not a number"),
    (lambda lines: lines[:1] + [json.dumps(lm_eval_line(1, "none", {"acc": float("nan")}))],
     r"line 2: metric 'acc' holds nan, not a number"),
    (lambda lines: lines[:1] + [json.dumps({**lm_eval_line(1, "none", {"acc": 1.0}), "metrics": ["acc", "f1"]})],
     r"line 2: metric 'f1' is listed in 'metrics' but has no value"),
])
def test_lm_eval_malformed_files_name_the_file_and_line(lm_eval_out, content, message):
    file = lm_eval_out / "model-b" / f"samples_arc_easy_{DATES[0]}.jsonl"
    file.write_text("\n".join(content(file.read_text().splitlines())) + "\n")
    with pytest.raises(ValueError, match=f"samples_arc_easy_{DATES[0]}.jsonl, {message}"):
        read_lm_eval(lm_eval_out)


def test_lm_eval_files_and_folders_are_checked(lm_eval_out, tmp_path):
    with pytest.raises(FileNotFoundError, match="no such file or folder"):
        read_lm_eval(tmp_path / "nowhere")
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError, match="no samples_<task>_<date>.jsonl file"):
        read_lm_eval(tmp_path / "empty")
    other = tmp_path / "predictions.jsonl"
    other.write_text("{}\n")
    with pytest.raises(ValueError, match=r"predictions.jsonl: not a sample file of lm-evaluation-harness"):
        read_lm_eval(other)
    (lm_eval_out / "model-b" / f"results_{DATES[1]}.json").unlink()
    with pytest.raises(FileNotFoundError, match=f"no results_{DATES[1]}.json beside it"):
        read_lm_eval(lm_eval_out)
    (lm_eval_out / "model-b" / f"results_{DATES[1]}.json").write_text('{"results": {}}')
    with pytest.raises(ValueError, match="no 'model_name'"):
        read_lm_eval(lm_eval_out)
    with pytest.raises(TypeError, match="`paths` must be a file or folder name"):
        read_lm_eval(3)
    with pytest.raises(ValueError, match="`paths` must name at least one"):
        read_lm_eval([])


def test_lm_eval_output_path_given_as_a_json_file(lm_eval_out):
    # --output_path OUT/run.json: the results file is run_<date>.json beside the sample files.
    folder = lm_eval_out / "model-b"
    for date in DATES:
        (folder / f"results_{date}.json").rename(folder / f"run_{date}.json")
    assert set(read_lm_eval(folder).model) == {"model-b"}
    (folder / f"other_{DATES[0]}.json").write_text("{}")
    with pytest.raises(ValueError, match=f"several results files of run {DATES[0]} beside it"):
        read_lm_eval(folder)


def test_lm_eval_the_same_file_twice_is_read_once(lm_eval_out):
    folder = lm_eval_out / "model-b"
    once = read_lm_eval(folder)
    twice = read_lm_eval([folder, folder / f"samples_gsm8k_{DATES[0]}.jsonl", str(folder)])
    pd.testing.assert_frame_equal(once, twice)


# --------------------------------------------------------------------------- the comparison's own checks


def _long(scores: dict, samples: int = 1) -> pd.DataFrame:
    rows = [{"task": "t", "model": m, "item": i, "sample": s, "metric": "acc", "score": v[i][s] if samples > 1 else v[i]}
            for m, v in scores.items() for i in range(len(v)) for s in range(samples)]
    return pd.DataFrame(rows)


def test_compare_items_refuses_what_it_cannot_compare():
    table = _long({"A": [1, 0, 1, 1], "B": [0, 0, 1, 0]})
    bad = table.copy()
    bad.loc[3, "score"] = np.nan
    bad["error"] = ["", "", "", "the sample failed: timeout", "", "", "", ""]
    with pytest.raises(ValueError, match=r"row 3: 1 score\(s\) are empty or infinite \(the first: the sample failed: "
                                         r"timeout\): a failed item is never dropped silently"):
        compare_items(bad)
    two = pd.concat([table, table.assign(metric="f1")], ignore_index=True)
    with pytest.raises(ValueError, match=r"task 't' holds 2 metrics \('acc', 'f1'\)"):
        compare_items(two)
    with pytest.raises(ValueError, match=r"rows 0, 8: the same task, model, item, sample appears more than once"):
        compare_items(pd.concat([table, table.iloc[[0]]], ignore_index=True))
    with pytest.raises(ValueError, match="a comparison needs at least 2 models"):
        compare_items(table[table.model == "A"])
    with pytest.raises(ValueError, match=r"the models share 1 item\(s\)"):
        compare_items(table[(table.model == "A") | (table["item"] == 0)])
    with pytest.raises(ValueError, match="no column 'seed' for the samples"):
        compare_items(table, sample="seed")
    with pytest.raises(ValueError, match="each role needs its own column"):
        compare_items(table, task="model")
    with pytest.raises(TypeError, match="`table` must be a pandas DataFrame"):
        compare_items(table.to_dict())
    # A complex score lost its imaginary part without a word before (found by a hostile call).
    for column in ([1, 0, 1j, 1, 0, 0, 1, 0], [1 + 0j] * 8):
        with pytest.raises(ValueError, match=r"row [02]: column 'score' holds complex numbers \((1j|\(1\+0j\))\)"):
            compare_items(table.assign(score=column))
    grouped = table.assign(group=[0, 0, 1, 1, 0, 1, 1, 1])
    with pytest.raises(ValueError, match="item 1 is in more than one group"):
        compare_items(grouped, groups="group")


def test_compare_items_groups_cluster_every_interval():
    rng = np.random.default_rng(5)
    n, k = 24, 3
    a = (rng.random((n, k)) < 0.7).astype(float)
    b = (rng.random((n, k)) < 0.5).astype(float)
    groups = np.repeat(np.arange(6), 4)
    table = _long({"A": a, "B": b}, samples=k)
    table["group"] = groups[table["item"]]
    with pytest.warns(UserWarning, match="All 500 bootstrap resamples gave the same value 1"):  # A's pass@3
        res = compare_items(table, groups="group", n_resamples=500, rng=0)
    # CR1 by hand: G/(G-1) * sum_g (sum of the group's centred item means)^2 / n^2, t on G - 1 df.
    for model, x in (("A", a), ("B", b)):
        means = x.mean(axis=1)
        sums = np.bincount(groups, weights=means - means.mean())
        se = math.sqrt(6 / 5 * np.sum(sums**2) / n**2)
        row = res.per_model.set_index("model").loc[model]
        half = stats.t.ppf(0.975, 5) * se
        assert (row.ci_low, row.ci_high) == pytest.approx((means.mean() - half, means.mean() + half), abs=1e-12)
        assert row.method == "t, standard error clustered by group"
    # The test flips whole groups: brute force over the 2**6 patterns of the groups' summed differences.
    d = np.bincount(groups, weights=a.mean(axis=1) - b.mean(axis=1))
    flips = np.array(list(itertools.product((-1, 1), repeat=6)))
    assert res.pairs.pvalue.iloc[0] == pytest.approx(np.mean(np.abs(flips @ d) >= abs(d.sum()) - 1e-12), abs=1e-12)
    assert res.rank_sets.empty and "rank sets not computed" in res.note
    # One 0/1 answer per item, with groups: compare_predictions' cluster bootstrap and group sign flips.
    single = _long({"A": a[:, 0], "B": b[:, 0]}).assign(group=lambda t: groups[t["item"]])
    res1 = compare_items(single, groups="group", n_resamples=500, rng=0)
    assert res1.per_model.method.tolist() == ["cluster bootstrap (groups)"] * 2
    d1 = np.bincount(groups, weights=a[:, 0] - b[:, 0])
    assert res1.pairs.pvalue.iloc[0] == pytest.approx(np.mean(np.abs(flips @ d1) >= abs(d1.sum()) - 1e-12),
                                                      abs=1e-12)


def test_compare_items_scores_that_are_not_binary():
    a = [0.2, 0.5, 0.9, 0.4, 0.7, 0.3]
    b = [0.1, 0.6, 0.5, 0.2, 0.6, 0.3]
    res = compare_items(_long({"A": a, "B": b}), n_resamples=500, rng=0)
    assert res.pass_at_k.empty
    low, high = stats.ttest_rel(a, b).confidence_interval(0.95)
    pair = res.pairs.iloc[0]
    assert (pair.ci_low, pair.ci_high) == pytest.approx((low, high), abs=1e-12)
    with pytest.raises(ValueError, match=r"`k` = 3 exceeds the samples of some item of task 't'"):
        compare_items(_long({"A": [[1, 0]] * 4, "B": [[0, 0]] * 4}, samples=2), k=3)


def test_compare_items_a_perfect_model_has_no_t_interval_but_is_compared():
    a = [[1, 1]] * 5
    b = [[1, 0], [0, 0], [1, 1], [0, 1], [0, 0]]
    with pytest.warns(UserWarning, match="All 500 bootstrap resamples gave the same value 1"):  # A's pass@k
        res = compare_items(_long({"A": a, "B": b}, samples=2), n_resamples=500, rng=0)
    row = res.per_model.set_index("model").loc["A"]
    assert row.score == 1.0 and np.isnan(row.ci_low) and row.method.startswith("no interval: The question means")
    assert res.pairs.estimate.iloc[0] == pytest.approx(0.6)


# --------------------------------------------------------------------------- compare_items: every table in full

MODEL_COLUMNS = ["task", "model", "n_items", "n_samples", "score", "ci_low", "ci_high", "method"]
PAIR_COLUMNS = ["task", "model_a", "model_b", "n_items", "estimate", "ci_low", "ci_high", "pvalue", "pvalue_holm",
                "method"]
PASS_COLUMNS = ["task", "model", "k", "estimate", "ci_low", "ci_high"]
RANK_COLUMNS = ["task", "model", "rank", "rank_low", "rank_high", "best_set"]
MISSING_COLUMNS = ["task", "model", "n_missing", "items"]


def _rank_rows(task, models, means, level, n_resamples, gen):
    """The rank sets compare_items should give: rank_confidence_sets on the items' mean scores."""
    sets = sigeval.rank_confidence_sets(pd.DataFrame(dict(enumerate(means))), confidence_level=level,
                                        n_resamples=n_resamples, rng=gen)
    low, high = np.asarray(sets.rank_interval.low), np.asarray(sets.rank_interval.high)
    return [{"task": task, "model": m, "rank": int(sets.rank[j]), "rank_low": int(low[j]), "rank_high": int(high[j]),
             "best_set": j in set(sets.best_set)} for j, m in enumerate(models)]


def _binary_tasks():
    """Two tasks of one 0/1 answer per item, ids out of order; A lacks five items of u, C six of s."""
    rng = np.random.default_rng(11)
    ids = {"u": [f"q{i}" for i in (9, 3, 12, 1, 7, 4, 10, 2, 8, 5, 11, 6)],
           "s": [f"s{i}" for i in (5, 1, 9, 3, 7, 2, 8, 4, 6, 10, 12, 11)]}
    order = {"u": ["B", "A", "C"], "s": ["A", "B", "C"]}
    lacks = {("u", "A"): ids["u"][-5:], ("s", "C"): ids["s"][:6]}
    correct, rows = {}, []
    for task in ("u", "s"):
        for m, p in zip(order[task], (0.8, 0.6, 0.4)):
            correct[task, m] = dict(zip(ids[task], (rng.random(12) < p).astype(float)))
            rows += [{"task": task, "model": m, "item": i, "score": v} for i, v in correct[task, m].items()
                     if i not in lacks.get((task, m), [])]
    shared = {"u": ids["u"][:7], "s": ids["s"][6:]}
    return pd.DataFrame(rows), correct, order, shared


def test_compare_items_one_answer_per_item_in_full():
    from statsmodels.stats.multitest import multipletests
    from statsmodels.stats.proportion import proportion_confint

    table, correct, order, shared = _binary_tasks()
    res = compare_items(table, sample=None, metric=None, confidence_level=0.9, n_resamples=300, rng=5)
    # The same draws from one generator, task by task: compare_predictions on the shared items, then the rank sets.
    gen = np.random.default_rng(5)
    models, pairs, ranks = [], [], []
    for task in ("u", "s"):
        wide = pd.DataFrame({m: [correct[task, m][i] for i in shared[task]] for m in order[task]})
        ref = sigeval.compare_predictions(wide, label=None, confidence_level=0.9, n_resamples=300, rng=gen,
                                          progress=False)
        models.append(ref.per_model.rename(columns={"accuracy": "score"}).assign(task=task, n_samples=1.0,
                                                                                 method="Wilson"))
        pairs.append(ref.pairs.assign(task=task, n_items=len(shared[task]),
                                      method="McNemar (exact); paired bootstrap percentile interval"))
        ranks += _rank_rows(task, order[task], [wide[m].to_numpy() for m in order[task]], 0.9, 300, gen)
    pd.testing.assert_frame_equal(res.per_model, pd.concat(models, ignore_index=True)[MODEL_COLUMNS])
    pd.testing.assert_frame_equal(res.pairs, pd.concat(pairs, ignore_index=True)[PAIR_COLUMNS])
    pd.testing.assert_frame_equal(res.rank_sets, pd.DataFrame(ranks, columns=RANK_COLUMNS))
    pd.testing.assert_frame_equal(res.pass_at_k, pd.DataFrame([], columns=PASS_COLUMNS))
    # The items a model lacks: in the order of the table, the first five and a count of the rest.
    assert res.missing.to_dict("records") == [
        {"task": "u", "model": "A", "n_missing": 5, "items": "'q2', 'q8', 'q5', 'q11', 'q6'"},
        {"task": "s", "model": "C", "n_missing": 6, "items": "'s5', 's1', 's9', 's3', 's7' and 1 more"}]
    assert res.note == (
        "Holm over the pairs of each task; every difference is A minus B, on the items all models of the task "
        "share; intervals at 0.9; task 'u': 5 item(s) not held by every model left out (see `missing`); "
        "task 's': 6 item(s) not held by every model left out (see `missing`)")
    assert (res.confidence_level, res.n_resamples) == (0.9, 300)
    # Independent checks: Wilson's interval and Holm within each task (statsmodels).
    first = res.per_model.iloc[0]
    x = np.array([correct["u", "B"][i] for i in shared["u"]])
    assert (first.ci_low, first.ci_high) == pytest.approx(
        proportion_confint(x.sum(), x.size, alpha=0.1, method="wilson"), abs=1e-12)
    for task in ("u", "s"):
        rows = res.pairs[res.pairs.task == task]
        np.testing.assert_allclose(rows.pvalue_holm, multipletests(rows.pvalue, method="holm")[1], atol=1e-15)
    # One family of every pair of every task.
    every = compare_items(table, sample=None, metric=None, family="all", confidence_level=0.9, n_resamples=300,
                          rng=5)
    np.testing.assert_allclose(every.pairs.pvalue_holm, multipletests(every.pairs.pvalue, method="holm")[1],
                               atol=1e-15)
    assert every.note.startswith("Holm over all 6 pairs; every difference is A minus B")


def test_compare_items_shows_no_progress_bar_per_task(monkeypatch):
    from sigeval import _compare_predictions

    shown, bar = [], _compare_predictions.progress_bar

    def recorded(*args, enabled, **kwargs):
        shown.append(enabled)
        return bar(*args, enabled=enabled, **kwargs)

    monkeypatch.setattr(_compare_predictions, "progress_bar", recorded)
    compare_items(_binary_tasks()[0], sample=None, metric=None, n_resamples=50, rng=0)
    assert shown == [False, False]


@pytest.mark.filterwarnings("ignore:All 200 bootstrap resamples gave the same value 1:UserWarning")  # pass@3
def test_compare_items_several_samples_in_full():
    # Three 0/1 samples of 30 items on two tasks: item means in thirds, so the sign-flip test is a Monte Carlo one.
    rng = np.random.default_rng(2)
    x = {(t, m): (rng.random((30, 3)) < p).astype(float) for t in ("t1", "t2") for m, p in (("A", 0.7), ("B", 0.4))}
    table = pd.concat([_long({"A": x[t, "A"], "B": x[t, "B"]}, samples=3).assign(task=t) for t in ("t1", "t2")],
                      ignore_index=True)
    res = compare_items(table, confidence_level=0.9, n_resamples=200, rng=4)
    gen = np.random.default_rng(4)
    models, pairs, passes, ranks = [], [], [], []
    for t in ("t1", "t2"):
        a, b = x[t, "A"], x[t, "B"]
        d = a.mean(axis=1) - b.mean(axis=1)
        assert np.count_nonzero(d) > 20 and np.unique(np.abs(d[d != 0])).size > 1  # neither exact method applies
        for m in ("A", "B"):
            est = sigeval.sampled_mean(x[t, m], confidence_level=0.9)
            models.append({"task": t, "model": m, "n_items": 30, "n_samples": 3.0, "score": est.estimate,
                           "ci_low": est.confidence_interval.low, "ci_high": est.confidence_interval.high,
                           "method": "t, standard error clustered by item"})
        pvalue = sigeval.paired_permutation_test(a.mean(axis=1), b.mean(axis=1), rng=gen).pvalue
        diff = sigeval.sampled_paired_difference(a, b, confidence_level=0.9)
        pairs.append({"task": t, "model_a": "A", "model_b": "B", "n_items": 30, "estimate": diff.estimate,
                      "ci_low": diff.confidence_interval.low, "ci_high": diff.confidence_interval.high,
                      "pvalue": pvalue, "pvalue_holm": pvalue, "method": "sign flips by item; t interval clustered by item"})
        for m in ("A", "B"):
            for k in (1, 3):
                p = sigeval.pass_at_k(np.full(30, 3), x[t, m].sum(axis=1).astype(int), k, confidence_level=0.9,
                                      n_resamples=200, rng=gen)
                passes.append({"task": t, "model": m, "k": k, "estimate": p.estimate,
                               "ci_low": p.confidence_interval.low, "ci_high": p.confidence_interval.high})
        ranks += _rank_rows(t, ["A", "B"], [a.mean(axis=1), b.mean(axis=1)], 0.9, 200, gen)
    pd.testing.assert_frame_equal(res.per_model, pd.DataFrame(models))
    pd.testing.assert_frame_equal(res.pairs, pd.DataFrame(pairs))
    pd.testing.assert_frame_equal(res.pass_at_k, pd.DataFrame(passes))
    pd.testing.assert_frame_equal(res.rank_sets, pd.DataFrame(ranks))
    pd.testing.assert_frame_equal(res.missing, pd.DataFrame([], columns=MISSING_COLUMNS))
    # pass@1 is the mean correctness; pass@3 the share of items with a correct sample (all three drawn).
    first = res.pass_at_k.iloc[:2]
    assert first.estimate.tolist() == pytest.approx([x["t1", "A"].mean(), np.mean(x["t1", "A"].max(axis=1))])


def test_compare_items_groups_in_full():
    # 24 items in 6 groups, three samples; B lacks the first item, so the groups are those of the 23 shared.
    rng = np.random.default_rng(6)
    a = (rng.random((24, 3)) < 0.7).astype(float)
    b = (rng.random((24, 3)) < 0.5).astype(float)
    labels = np.repeat(["g5", "g2", "g4", "g1", "g6", "g3"], 4)
    table = _long({"A": a, "B": b}, samples=3)
    table["group"] = labels[table["item"]]
    table = table[~((table.model == "B") & (table["item"] == 0))]
    with pytest.warns(UserWarning, match="bootstrap resamples gave the same value 1"):  # A's pass@3
        res = compare_items(table, groups="group", confidence_level=0.9, n_resamples=200, rng=3)
    a, b, labels = a[1:], b[1:], labels[1:]
    est = sigeval.sampled_mean(a, groups=labels, confidence_level=0.9)
    assert res.per_model.iloc[0][["score", "ci_low", "ci_high", "method"]].tolist() == [
        est.estimate, est.confidence_interval.low, est.confidence_interval.high, "t, standard error clustered by group"]
    diff = sigeval.sampled_paired_difference(a, b, groups=labels, confidence_level=0.9)
    sums = [pd.Series(x.mean(axis=1)).groupby(labels).sum().to_numpy() for x in (a, b)]
    assert res.pairs.iloc[0][["n_items", "estimate", "ci_low", "ci_high", "pvalue", "method"]].tolist() == [
        23, diff.estimate, diff.confidence_interval.low, diff.confidence_interval.high,
        sigeval.paired_permutation_test(*sums).pvalue, "sign flips by group; t interval clustered by group"]
    gen = np.random.default_rng(3)  # the group test is exact: pass@k draws first
    with pytest.warns(UserWarning, match="bootstrap resamples gave the same value 1"):
        expected = [sigeval.pass_at_k(np.full(23, 3), x.sum(axis=1).astype(int), k, groups=labels,
                                      confidence_level=0.9, n_resamples=200, rng=gen) for x in (a, b) for k in (1, 3)]
    assert res.pass_at_k[["estimate", "ci_low", "ci_high"]].to_numpy().tolist() == [
        [p.estimate, p.confidence_interval.low, p.confidence_interval.high] for p in expected]
    pd.testing.assert_frame_equal(res.rank_sets, pd.DataFrame([], columns=RANK_COLUMNS))
    assert res.note == (
        "Holm over the pairs of each task; every difference is A minus B, on the items all models of the task "
        "share; intervals at 0.9; task 't': 1 item(s) not held by every model left out (see `missing`); "
        "rank sets not computed: they resample items, and grouped items are not independent")
    # One answer per item with groups: compare_predictions' cluster bootstrap and sign flips of whole groups.
    single = table[table["sample"] == 0]
    res1 = compare_items(single, groups="group", n_resamples=100, rng=0)
    assert res1.pairs.method.tolist() == ["sign flips of whole groups; paired cluster bootstrap percentile interval"]


def test_compare_items_names_the_first_item_in_two_groups():
    table = _long({"A": [1, 0, 1, 1, 0, 1], "B": [0, 0, 1, 0, 1, 1]})
    table = table.assign(item=table["item"].map({0: 5, 1: 2, 2: 9, 3: 4, 4: 7, 5: 1}))
    table["group"] = [0, 0, 1, 1, 2, 2, 1, 1, 1, 1, 2, 2]  # items 5 and 2 each in two groups; 5 comes first
    with pytest.raises(ValueError, match=r"^task 't': item 5 is in more than one group; each item belongs to one "
                                         r"group$"):
        compare_items(table, groups="group")


def test_compare_items_when_no_interval_can_be_made():
    # C is right on every sample (its question means are all equal); A - B is 0.5 on every item. Unequal samples.
    rows = []
    for m, items in {"A": [[1], [1, 0], [1, 0]], "B": [[1, 0], [0], [0, 0]], "C": [[1], [1, 1], [1, 1]]}.items():
        rows += [{"task": "t", "model": m, "item": i, "sample": s, "score": float(v)}
                 for i, answers in enumerate(items) for s, v in enumerate(answers)]
    with pytest.warns(UserWarning, match="bootstrap resamples gave the same value 1"):  # C's pass@1
        res = compare_items(pd.DataFrame(rows), metric=None, n_resamples=100, rng=0)
    c = res.per_model.iloc[2]
    # Its samples per item: the harmonic mean of 1, 2 and 2.
    assert c[["n_samples", "score", "method"]].tolist() == [
        1.5, 1.0, "no interval: The question means of `scores` are all equal"]
    assert np.isnan(c.ci_low) and np.isnan(c.ci_high)
    ab = res.pairs.iloc[0]
    assert ab[["model_a", "model_b", "estimate", "method"]].tolist() == [
        "A", "B", 0.5, "sign flips by item; no interval: The question means of `scores_a` and `scores_b` are all equal"]
    # Two models right everywhere: no interval anywhere, a p-value of 1, and no warning about the zero differences.
    same = _long({"A": [[1, 1]] * 4, "B": [[1, 1]] * 4}, samples=2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        both = compare_items(same, n_resamples=100, rng=0)
    assert {str(w.message).split(" (")[0] for w in caught} == {
        "All 100 bootstrap resamples gave the same value 1"}  # pass@k of each model; nothing about the pair
    assert both.per_model[["ci_low", "ci_high"]].isna().all().all()
    assert both.pairs[["pvalue", "pvalue_holm"]].iloc[0].tolist() == [1.0, 1.0]
    assert both.pairs.iloc[0].estimate == 0.0 and np.isnan(both.pairs.iloc[0].ci_low)


def test_compare_items_without_a_task_column():
    table = pd.DataFrame({"model": ["A", "A", "B", "B"], "item": [1, 2, 1, 2], "score": [1.0, 0.0, 0.0, 0.0]})
    res = compare_items(table, task=None, sample=None, metric=None, rng=0)  # two shared items are enough
    assert res.n_resamples == 10_000
    assert res.per_model.task.tolist() == [None, None] and res.rank_sets.task.tolist() == [None, None]
    assert res.pairs[["task", "pvalue", "pvalue_holm"]].to_dict("records") == [
        {"task": None, "pvalue": 1.0, "pvalue_holm": 1.0}]
    with pytest.raises(ValueError, match=r"^row 0: a comparison needs at least 2 models; found \['A'\]$"):
        compare_items(table[table.model == "A"], task=None, sample=None, metric=None)
    with pytest.raises(ValueError, match=r"^row 0: a comparison needs at least 2 models; found \[1\]$"):
        compare_items(table[table.model == "A"].assign(model=1), task=None, sample=None, metric=None)
    with pytest.raises(ValueError, match=r"^task 't': the models share 1 item\(s\); a comparison needs at least 2$"):
        compare_items(table.assign(task="t", item=[1, 2, 1, 3]), sample=None, metric=None)


def test_compare_items_rank_sets_at_the_level_asked():
    rng = np.random.default_rng(8)
    a = rng.normal(0.5, 0.1, 30)
    b = a - 0.035 + rng.normal(0, 0.1, 30)
    res = compare_items(_long({"A": a, "B": b}), confidence_level=0.9, n_resamples=200, rng=1)
    # The pair's p-value draws first (a Monte Carlo sign-flip test: 30 distinct differences), then the rank sets.
    gen = np.random.default_rng(1)
    sigeval.paired_permutation_test(a, b, rng=gen)
    assert res.rank_sets.to_dict("records") == _rank_rows("t", ["A", "B"], [a, b], 0.9, 200, gen)
    # At 0.9 A is first for sure; at 0.95 either could be (so the level asked for is the one used).
    assert res.rank_sets[["rank_low", "rank_high"]].to_numpy().tolist() == [[1, 1], [2, 2]]
    wider = compare_items(_long({"A": a, "B": b}), n_resamples=200, rng=1).rank_sets
    assert wider[["rank_low", "rank_high"]].to_numpy().tolist() == [[1, 2], [1, 2]]


def test_compare_items_integer_task_labels_read_as_written():
    table = pd.concat([_small().assign(task=3), _small().assign(task=4)], ignore_index=True)
    with pytest.raises(ValueError, match=r"^row 8: task 4: a comparison needs at least 2 models; found \['A'\]$"):
        compare_items(table[(table.task == 3) | (table.model == "A")])
    assert compare_items(table, n_resamples=50, rng=0).pairs.task.tolist() == [3, 4]


def _small():
    return _long({"A": [1, 0, 1, 1], "B": [0, 0, 1, 0]})


COLUMNS = "(the columns are 'task', 'model', 'item', 'sample', 'metric', 'score')"


@pytest.mark.parametrize("table, kwargs, error, message", [
    ([1], {}, TypeError, "`table` must be a pandas DataFrame, one row per item and sample; got list."),
    (_small().iloc[:0], {}, ValueError, "`table` must hold at least one row; got an empty table."),
    (_small(), {"groups": "g"}, ValueError, f"no column 'g' for the groups {COLUMNS}"),
    (_small(), {"item": "id"}, ValueError, f"no column 'id' for the items {COLUMNS}"),
    (_small(), {"score": "acc"}, ValueError, f"no column 'acc' for the scores {COLUMNS}"),
    (_small(), {"model": ["model"]}, TypeError, "`model` must be a column name; got ['model']."),
    (_small(), {"task": "model", "sample": "item"}, ValueError,
     "each role needs its own column; 'model' is named for model and task; 'item' is named for item and sample."),
    (_small(), {"model": "item", "sample": "item"}, ValueError,
     "each role needs its own column; 'item' is named for model, item and sample."),
    (_small(), {"confidence_level": 1.0}, ValueError, "`confidence_level` must be strictly between 0 and 1; got 1.0."),
    (_small(), {"n_resamples": 0}, ValueError, "`n_resamples` must be an integer >= 1; got 0."),
    (_small().assign(score=[1, 0, np.nan, 1, 0, 0, 1, 0]), {}, ValueError,
     "row 2: 1 score(s) are empty or infinite: a failed item is never dropped silently; score it, or remove its "
     "rows explicitly"),
    (_small().assign(score=[1, 0, np.nan, 1, 0, 0, 1, 0], error=[""] * 8), {}, ValueError,
     "row 2: 1 score(s) are empty or infinite: a failed item is never dropped silently; score it, or remove its "
     "rows explicitly"),
    (_small().assign(score=[1, 0, np.nan, 1, 0, 0, 1, 0], error=[np.nan] * 8), {}, ValueError,
     "row 2: 1 score(s) are empty or infinite: a failed item is never dropped silently; score it, or remove its "
     "rows explicitly"),
    (_small().assign(task=["a"] * 4 + ["b"] * 4, metric=["x", "y"] * 4), {}, ValueError,
     "task 'a' holds 2 metrics ('x', 'y'); one score per item is compared: choose the metric when reading "
     "(metric=...; --metric on the command line) or keep one metric's rows"),
    (_small().assign(task=["z"] * 4 + ["b"] * 4, metric=["x"] * 4 + ["y", "w"] * 2), {}, ValueError,
     "task 'b' holds 2 metrics ('y', 'w')"),
    (_small().assign(task=["z"] * 4 + ["b"] * 4, metric=["x", "v"] * 2 + ["y", "w"] * 2), {}, ValueError,
     "task 'z' holds 2 metrics ('x', 'v')"),  # the first such task of the table, not of sorted names
    (_small().assign(metric=["acc"] * 7 + [np.nan]), {}, ValueError, "task 't' holds 2 metrics ('acc', nan)"),
    (_small().assign(sample=0, item=[1, 1, 2, 3, 1, 2, 3, 4]), {}, ValueError,
     "rows 0, 1: the same task, model, item, sample appears more than once; items are matched by id, so each "
     "(task, model, item, sample) must be one row"),
])
def test_compare_items_refusals_in_full(table, kwargs, error, message):
    with pytest.raises(error) as caught:
        compare_items(table, **kwargs)
    assert str(caught.value).startswith(message), str(caught.value)


@pytest.mark.parametrize("role, column", [("model", "model"), ("item", "item"), ("task", "task"),
                                          ("groups", "group")])
def test_compare_items_empty_role_cells_name_their_rows(role, column):
    table = _small().assign(group=[0, 0, 1, 1, 0, 0, 1, 1])
    table[column] = table[column].astype(object)
    table.loc[[2, 5], column] = None
    with pytest.raises(ValueError, match=rf"^rows 2, 5: the {role} column '{column}' is empty$"):
        compare_items(table, groups="group")


def test_compare_items_k_is_checked_by_name():
    table = _long({"A": [[1, 0]] * 4, "B": [[0, 0]] * 4}, samples=2)
    with pytest.raises(ValueError, match=r"^`k` must be an integer >= 1; got 0\.$"):
        compare_items(table, k=0)
    with pytest.raises(TypeError, match=r"^`k` must be an integer >= 1; got 2\.5\.$"):  # 2 is fine, 2.5 is not
        compare_items(table, k=[2, 2.5])


# --------------------------------------------------------------------------- Inspect


@pytest.fixture(scope="module")
def inspect_logs():
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    from harness_logs import inspect_logs

    return inspect_logs()


def test_inspect_reads_what_inspect_wrote(inspect_logs):
    table = read_inspect(list(inspect_logs))
    assert set(table.metric) == {"match", "includes", "length"}
    assert len(table) == 2 * 10 * 2 * 3
    assert set(table.model) == {"mockllm/a", "mockllm/b"} and set(table.task) == {"arith"}
    assert set(table.status) == {"success"} and (table.error == "").all()
    match = table[table.metric == "match"]
    assert match.groupby("model").score.mean().to_dict() == {"mockllm/a": 0.8, "mockllm/b": 0.45}
    b = match[(match.model == "mockllm/b") & (match["item"] == "q03")].sort_values("sample")
    assert b.score.tolist() == [1.0, 0.0] and b["sample"].tolist() == [1, 2]
    # The numeric scorer's values are the answers' lengths, as the log holds them.
    length = table[(table.metric == "length") & (table.model == "mockllm/a") & (table["item"] == "q01")]
    assert length.score.tolist() == [2.0, 2.0]  # "-1"


def test_inspect_marks_are_mapped_as_inspect_maps_them(inspect_logs):
    from inspect_ai.log import read_eval_log
    from inspect_ai.scorer import value_to_float

    log = read_eval_log(str(inspect_logs[1]))
    to_float = value_to_float()
    expected = {(s.id, s.epoch): to_float(s.scores["match"].value) for s in log.samples}
    table = read_inspect(inspect_logs[1], metric="match")
    assert {(r.item, r.sample): r.score for r in table.itertuples()} == expected
    assert set(s.scores["match"].value for s in log.samples) == {"C", "I"}


def test_inspect_comparison_on_epochs(inspect_logs):
    res = compare_items(read_inspect(list(inspect_logs), metric="match"), n_resamples=1000, rng=0)
    per_model = res.per_model.set_index("model")
    assert per_model.score.to_dict() == {"mockllm/a": 0.8, "mockllm/b": 0.45}
    assert per_model.n_items.tolist() == [10, 10] and per_model.n_samples.tolist() == [2.0, 2.0]
    passes = res.pass_at_k.set_index(["model", "k"]).estimate
    assert passes[("mockllm/b", 1)] == pytest.approx(0.45) and passes[("mockllm/b", 2)] == pytest.approx(0.5)
    assert res.pairs.estimate.iloc[0] == pytest.approx(0.35)


def test_inspect_json_logs_failed_samples_and_folders(tmp_path):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    logs = write_inspect_logs(tmp_path / "logs", log_format="json", epochs=1, failing="q04")
    assert all(p.suffix == ".json" for p in logs)
    table = read_inspect(tmp_path / "logs")  # the folder, listed by Inspect
    failed = table[table.error != ""]
    assert len(failed) == 2 and set(failed["item"]) == {"q04"} and failed.score.isna().all()
    assert failed.error.iloc[0].startswith("the sample failed: ") and failed.metric.isna().all()
    chosen = read_inspect(tmp_path / "logs", metric="match")
    assert len(chosen) == 2 * 9 + 2  # the failed samples are kept, whatever the metric
    with pytest.raises(ValueError, match=r"rows 18, 19: 2 score\(s\) are empty or infinite \(the first: the sample "
                                         r"failed: .*mock model failed on purpose"):
        compare_items(chosen)
    with pytest.raises(ValueError, match=r"task 'arith' holds 2 metrics \('match', nan\)"):
        compare_items(chosen.fillna({"score": 0.0}))


def test_inspect_refuses_values_and_files_it_cannot_read(tmp_path, inspect_logs):
    logs = write_inspect_logs(tmp_path / "logs", epochs=1, scorer_value=[1, 2], models=("a",))
    with pytest.raises(ValueError, match=r"\.eval, sample 'q00' epoch 1: scorer 'length' gave \[1, 2\], not a number"):
        read_inspect(logs)
    other = tmp_path / "results.json"
    other.write_text(json.dumps({"results": {"arc_easy": {"acc,none": 0.5}}}))
    with pytest.raises(ValueError, match=r"results.json: not an Inspect evaluation log"):
        read_inspect(other)
    truncated = tmp_path / "cut.eval"
    truncated.write_bytes(inspect_logs[0].read_bytes()[:500])
    with pytest.raises(ValueError, match=r"cut.eval: not an Inspect evaluation log"):
        read_inspect(truncated)
    copy = tmp_path / "copy.eval"
    shutil.copy(inspect_logs[0], copy)
    with pytest.raises(ValueError, match=r"sample model 'mockllm/a', task 'arith', item 'q00', sample 1, metric "
                                         r"'match' appears 2 times"):
        read_inspect([inspect_logs[0], copy])
    with pytest.raises(ValueError, match=r"`metric` 'exact' matches no metric of task 'arith', which holds 'match', "
                                         "'includes', 'length'"):
        read_inspect(inspect_logs[0], metric="exact")


# --------------------------------------------------------------------------- MLflow


@pytest.fixture(scope="module")
def mlflow_uri():
    pytest.importorskip("mlflow", reason="the mlflow extra (pip install 'sigeval[mlflow]') is not installed")
    pytest.importorskip("sqlalchemy", reason="the mlflow extra's SQLAlchemy is not installed")
    from harness_logs import mlflow_store

    return mlflow_store()


def test_mlflow_reads_every_run_and_keeps_the_failed(mlflow_uri):
    table = read_mlflow("sweep", metric="val_acc", tracking_uri=mlflow_uri)
    assert list(table.columns) == ["task", "model", "seed", "score", "status", "error", "run_id", "run_name"]
    assert len(table) == 12 and table.seed.tolist()[:3] == [0, 1, 2]
    for row in table.itertuples():
        broken = BROKEN.get((row.task, row.model, row.seed))
        if broken is None:
            assert row.score == RUNS[(row.task, row.model)][row.seed] and row.error == "" and row.status == "FINISHED"
        else:
            assert np.isnan(row.score)
            expected = "the run logged no metric 'val_acc'" if broken == "no metric" else f"MLflow status is {broken}"
            assert expected in row.error
    with pytest.raises(ValueError, match=r"3 failed or broken run\(s\)"):
        sigeval.Report(table)
    report = sigeval.Report(table, failed="drop-pairs")
    assert len(report.failed_runs) == 3
    by_hand = pd.DataFrame([{"task": t, "model": m, "seed": s, "score": v} for (t, m), scores in RUNS.items()
                            for s, v in enumerate(scores) if (t, m, s) not in BROKEN])
    expected = sigeval.Report(by_hand, failed="drop-pairs").pairwise()
    pd.testing.assert_frame_equal(report.pairwise(), expected)


def test_mlflow_names_what_is_missing(mlflow_uri):
    with pytest.raises(ValueError, match=r"no MLflow experiment named 'swept' .*\(the experiments are .*'sweep'"):
        read_mlflow("swept", metric="val_acc", tracking_uri=mlflow_uri)
    with pytest.raises(ValueError, match=r"MLflow run \w+ \('cifar-A-0'\) has no parameter or tag 'optimizer' for "
                                         r"the model \(it has 'lr', 'seed', 'task', 'model'\)"):
        read_mlflow("sweep", metric="val_acc", tracking_uri=mlflow_uri, model="optimizer")
    one = read_mlflow("sweep", metric="val_acc", tracking_uri=mlflow_uri, task=None)
    assert set(one.task) == {"sweep"}
    with pytest.raises(ValueError, match="holds no runs"):
        read_mlflow("other", metric="val_acc", tracking_uri=mlflow_uri)
    with pytest.raises(TypeError, match="`metric` must be a name"):
        read_mlflow("sweep", metric="", tracking_uri=mlflow_uri)


def test_mlflow_reads_every_page_of_runs(monkeypatch):
    from sigeval import readers

    class Page(list):
        def __init__(self, runs, token):
            super().__init__(runs)
            self.token = token

    pages = {None: Page([1, 2], "p2"), "p2": Page([3], "p3"), "p3": Page([4, 5], None)}

    class Client:
        def search_runs(self, ids, max_results, order_by, page_token):
            return pages[page_token]

    assert readers._all_runs(Client(), "1") == [1, 2, 3, 4, 5]


def test_readers_name_their_extras_when_missing(monkeypatch):
    import builtins

    real = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name.startswith(("inspect_ai", "mlflow")):
            raise ImportError(f"No module named {name!r}")
        return real(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(ImportError, match=r"pip install 'sigeval\[inspect\]'"):
        read_inspect(".")
    with pytest.raises(ImportError, match=r"pip install 'sigeval\[mlflow\]'"):
        read_mlflow("sweep", metric="acc")


# --------------------------------------------------------------------------- the command


def _run(capsys, *argv):
    from sigeval.cli import main

    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_command_compares_lm_eval_output(lm_eval_out, capsys):
    code, out, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--metric", "arc_easy=acc",
                          "gsm8k=exact_match,strict-match", "--n-resamples", 2000, "--json")
    assert code == 0, err
    shown = json.loads(out)
    table = read_lm_eval(lm_eval_out, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match"})
    res = compare_items(table, n_resamples=2000, rng=0)  # the command's default seed
    assert shown["pairs"] == res.pairs.to_dict("records")  # full precision
    assert shown["missing"] == [{"task": "arc_easy", "model": "model-b", "n_missing": 1, "items": "7"}]
    assert [r["k"] for r in shown["pass_at_k"]] == [1, 2, 1, 2] and shown["note"] == res.note
    code, out, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--metric", "exact_match")
    assert code == 1 and "`metric` 'exact_match' matches no metric of task 'arc_easy'" in err
    code, out, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out)
    assert code == 1 and "holds 2 metrics ('acc,none', 'acc_norm,none')" in err and "--metric on the command line" in err


def test_command_names_the_line_of_a_bad_score(lm_eval_out, capsys):
    file = lm_eval_out / "model-b" / f"samples_arc_easy_{DATES[0]}.jsonl"
    file.write_text(file.read_text().replace('"acc": 1.0', '"acc": "1,0"', 1))
    code, out, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--metric", "acc")
    assert code == 1 and err.startswith("sigeval compare: error: ") and "line 1: metric 'acc' holds '1,0'" in err


def test_command_refuses_options_of_the_other_source(lm_eval_out, tmp_path, capsys):
    for extra, message in ((["--label", "y"], "--label: not an option of --from lm-eval"),
                           (["--groups", "g"], "--groups: not an option of --from lm-eval"),
                           (["--max-resamples", 5], "--max-resamples: not an option of --from lm-eval")):
        code, _, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, *extra)
        assert code == 1 and message in err
    csv = tmp_path / "p.csv"
    csv.write_text("label,A,B\n1,1,0\n0,0,0\n1,1,1\n")
    assert _run(capsys, "compare", csv, "--n-resamples", 100)[0] == 0
    code, _, err = _run(capsys, "compare", csv, csv)
    assert code == 1 and "one CSV file is compared at a time; got 2" in err
    code, _, err = _run(capsys, "compare", csv, "--k", 2)
    assert code == 1 and "--k: not an option of a CSV file" in err
    code, _, err = _run(capsys, "compare", csv, "--family", "all")
    assert code == 1 and "--family: not an option of a CSV file" in err
    code, _, err = _run(capsys, "compare", csv, "--metric", "acc,none")
    assert code == 1 and "--metric of a CSV file is accuracy or auc; got acc,none" in err
    code, _, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--metric", "acc", "gsm8k=x")
    assert code == 1 and "--metric takes one NAME, or TASK=NAME for each task" in err


def test_command_compares_inspect_logs(inspect_logs, capsys):
    code, out, err = _run(capsys, "compare", "--from", "inspect", *inspect_logs, "--metric", "match", "--k", 1, 2,
                          "--n-resamples", 1000)
    assert code == 0, err
    assert "pass at k" in out and "rank sets" in out and "sign flips by item" in out
    row = next(line.split() for line in out.splitlines() if line.startswith("arith") and "mockllm/a" in line)
    assert row[:5] == ["arith", "mockllm/a", "10", "2.0000", "0.8000"]  # the first table's row: n_items, n_samples, score


def test_command_reads_mlflow_runs(mlflow_uri, capsys):
    code, out, err = _run(capsys, "runs", "--from", "mlflow", "--experiment", "sweep", "--metric", "val_acc",
                          "--tracking-uri", mlflow_uri, "--failed", "drop-pairs", "--json")
    assert code == 0, err
    shown = json.loads(out)
    assert {(r["task"], r["model"], r["seed"]) for r in shown["failed_runs"]} == set(BROKEN)
    code, _, err = _run(capsys, "runs", "--from", "mlflow", "--experiment", "sweep", "--metric", "val_acc",
                        "--tracking-uri", mlflow_uri)
    assert code == 1 and "MLflow experiment 'sweep': 3 failed or broken run(s)" in err
    code, _, err = _run(capsys, "runs", "--from", "mlflow", "--metric", "val_acc", "--tracking-uri", mlflow_uri)
    assert code == 1 and "--from mlflow reads an experiment" in err
    code, _, err = _run(capsys, "runs", "--from", "mlflow", "--experiment", "nope", "--metric", "val_acc",
                        "--tracking-uri", mlflow_uri)
    assert code == 1 and "no MLflow experiment named 'nope'" in err


def test_inspect_invalidated_samples_are_kept_and_marked(inspect_logs, tmp_path):
    from inspect_ai.log import ProvenanceData, invalidate_samples, read_eval_log, write_eval_log

    log = read_eval_log(str(inspect_logs[0]))
    target = next(s for s in log.samples if s.id == "q05" and s.epoch == 2)
    edited = invalidate_samples(log, [target.uuid], ProvenanceData(author="tests", reason="leaked into training"))
    path = tmp_path / "edited.eval"
    write_eval_log(edited, str(path))
    table = read_inspect(path, metric="match")
    marked = table[table.error != ""]
    assert len(table) == 20 and len(marked) == 1
    assert (marked["item"].iloc[0], marked["sample"].iloc[0]) == ("q05", 2) and np.isnan(marked.score.iloc[0])
    assert marked.error.iloc[0] == "the sample was invalidated (leaked into training)"


def test_command_passes_every_option_to_compare_items(lm_eval_out, capsys, tmp_path):
    folders = [lm_eval_out / "org__model-a", lm_eval_out / "model-b"]
    metric = {"arc_easy": "acc", "gsm8k": "exact_match,strict-match"}
    argv = ["compare", "--from", "lm-eval", *folders, "--metric", "arc_easy=acc", "gsm8k=exact_match,strict-match",
            "--k", 1, "--family", "all", "--confidence-level", 0.9, "--n-resamples", 300, "--rng", 7, "--json"]
    code, out, err = _run(capsys, *argv)
    assert code == 0, err
    shown = json.loads(out)
    table = read_lm_eval(folders, metric=metric)
    res = compare_items(table, k=1, family="all", confidence_level=0.9, n_resamples=300, rng=7)
    assert shown["pairs"] == res.pairs.to_dict("records") and shown["note"] == res.note
    assert shown["pass_at_k"] == res.pass_at_k.to_dict("records")
    assert shown["confidence_level"] == 0.9
    assert shown["environment"]["call"] == "sigeval " + " ".join(map(str, argv))
    # Each option changed the answer (otherwise the comparison above could not fail).
    base = dict(k=1, family="all", confidence_level=0.9, n_resamples=300, rng=7)
    for option, default in (("k", None), ("family", "task"), ("confidence_level", 0.95), ("n_resamples", 10_000),
                            ("rng", 0)):
        changed = compare_items(table, **(base | {option: default}))
        assert not (changed.pairs.equals(res.pairs) and changed.pass_at_k.equals(res.pass_at_k)), option
    # The page names the folders read, as given.
    page = tmp_path / "page.html"
    code, out, err = _run(capsys, "compare", "--from", "lm-eval", *folders, "--metric", "arc_easy=acc",
                          "gsm8k=exact_match,strict-match", "--output", page)
    assert code == 0, err
    assert f"<h1>Comparison of 2 models: {folders[0]} {folders[1]}</h1>" in page.read_text(encoding="utf-8")


def test_command_errors_from_logs_in_full(lm_eval_out, capsys):
    code, _, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--label", "y", "--models", "a", "b",
                        "--groups", "g", "--auc-method", "bootstrap", "--max-resamples", 5)
    assert code == 1 and err == ("sigeval compare: error: --label, --models, --groups, --auc-method, --max-resamples: "
                                 "not an option of --from lm-eval (for CSV files)\n")
    code, _, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--metric", "acc", "exact_match")
    assert err == "sigeval compare: error: --metric takes one NAME, or TASK=NAME for each task; got acc exact_match\n"
    # TASK=NAME splits at the first '='; one TASK=NAME alone is a mapping too.
    gsm = lm_eval_out / "model-b" / f"samples_gsm8k_{DATES[0]}.jsonl", lm_eval_out / "org__model-a"
    for given in (["gsm8k=exact_match=x"], ["arc_easy=acc"]):
        code, _, err = _run(capsys, "compare", "--from", "lm-eval", *(gsm if "=x" in given[0] else [lm_eval_out]),
                            "--metric", *given)
        mapping = dict(m.split("=", 1) for m in given)
        with pytest.raises(ValueError) as library:
            read_lm_eval(list(gsm) if "=x" in given[0] else lm_eval_out, metric=mapping)
        assert code == 1 and err == f"sigeval compare: error: {library.value}\n", given
    # An error of the comparison names the folders read, or the file and line of the row at fault.
    folders = [lm_eval_out / "org__model-a", lm_eval_out / "model-b"]
    code, _, err = _run(capsys, "compare", "--from", "lm-eval", *folders, "--metric", "arc_easy=acc",
                        "gsm8k=exact_match,strict-match", "--k", 5)
    with pytest.raises(ValueError) as library:
        compare_items(read_lm_eval(folders, metric={"arc_easy": "acc", "gsm8k": "exact_match,strict-match"}), k=5)
    assert code == 1 and err == f"sigeval compare: error: {folders[0]} {folders[1]}: {library.value}\n"
    write_lm_eval_run(lm_eval_out, "model-b", "2026-03-03T08-00-00.000000",
                      {"boolq": [lm_eval_line(i, "none", {"acc": 1.0}) for i in range(3)]})
    code, _, err = _run(capsys, "compare", "--from", "lm-eval", lm_eval_out, "--metric", "arc_easy=acc",
                        "gsm8k=exact_match,strict-match", "boolq=acc")
    boolq = lm_eval_out / "model-b" / "samples_boolq_2026-03-03T08-00-00.000000.jsonl"
    assert code == 1 and err == (f"sigeval compare: error: {boolq}, line 1: task 'boolq': a comparison needs at least "
                                 "2 models; found ['model-b']\n")


def test_command_names_the_first_failed_sample_and_says_there_are_more(tmp_path, capsys):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    logs = write_inspect_logs(tmp_path / "logs", log_format="json", epochs=1, failing="q04")
    table = read_inspect(list(logs), metric="match")   # the files in the order the command is given them
    with pytest.raises(ValueError) as library:
        compare_items(table)
    first = table[table.error != ""].iloc[0]
    code, _, err = _run(capsys, "compare", "--from", "inspect", *logs, "--metric", "match")
    detail = str(library.value).split(": ", 1)[1]   # the library's message without its "rows 18, 19"
    assert code == 1 and err == f"sigeval compare: error: {first.file}, item 'q04' and more: {detail}\n"


def test_command_reads_mlflow_columns_as_named(mlflow_uri, capsys):
    base = ("runs", "--from", "mlflow", "--experiment", "sweep", "--metric", "val_acc", "--tracking-uri", mlflow_uri,
            "--failed", "drop-pairs")
    code, out, err = _run(capsys, *base, "--view", "all", "--format", "markdown")
    assert code == 0, err
    assert "| metric | val_acc, higher is better |" in out   # the design names the metric read
    for options, kwargs in ((("--task", "none"), dict(task=None)), (("--model", "lr"), dict(model="lr")),
                            (("--seed", "lr"), dict(seed="lr"))):
        code, out, err = _run(capsys, *base, *options, "--json")
        try:
            expected = sigeval.Report(read_mlflow("sweep", metric="val_acc", tracking_uri=mlflow_uri, **kwargs),
                                      failed="drop-pairs")
        except ValueError as library:
            assert code == 1 and err == f"sigeval runs: error: MLflow experiment 'sweep': {library}\n", options
        else:
            assert code == 0 and json.loads(out)["report"] == repr(expected), options


# --------------------------------------------------------------------------- lm-evaluation-harness: every refusal in full

_DATE = "2026-03-01T10-00-00.000001"


@pytest.fixture
def small_run(tmp_path: Path) -> Path:
    """One model, two tasks of three documents: arc (acc, filter none) and gsm (exact_match, filter strict)."""
    out = tmp_path / "out"
    write_lm_eval_run(out, "m", _DATE, {"arc": [lm_eval_line(i, "none", {"acc": float(i % 2)}) for i in range(3)],
                                       "gsm": [lm_eval_line(i, "strict", {"exact_match": 1.0}) for i in range(3)]})
    return out


def _samples(out: Path, task: str = "arc") -> Path:
    return out / "m" / f"samples_{task}_{_DATE}.jsonl"


def _results(out: Path) -> Path:
    return out / "m" / f"results_{_DATE}.json"


def _rewrite(file: Path, edit) -> None:
    file.write_text("\n".join(edit(file.read_text().splitlines())) + "\n")


def _several_results(out):
    for name in ("a", "b"):
        shutil.copy(_results(out), out / "m" / f"{name}_{_DATE}.json")
    _results(out).unlink()


def _write(path: Path, text: str) -> Path:
    path.write_text(text)
    return path


_SAMPLES = "{out}/m/samples_arc_" + _DATE + ".jsonl"
_RESULTS = "{out}/m/results_" + _DATE + ".json"
_NO_MODEL = _RESULTS + ": no 'model_name' (nor 'config.model_args') naming the model of this run"


@pytest.mark.parametrize("prepare, call, error, message", [
    (None, lambda out: read_lm_eval(out, metric={"arc": "acc", "mmlu": "acc", "hella": "x"}), ValueError,
     "`metric` names task(s) 'mmlu', 'hella' that the files do not hold (the tasks are 'arc', 'gsm')."),
    (None, lambda out: read_lm_eval(out, metric={"arc": "acc"}), ValueError,
     "`metric` gives no metric for task(s) 'gsm': a mapping must name one metric for every task read (or read those "
     "tasks' files separately)."),
    (None, lambda out: read_lm_eval(out, metric={"arc": "acc", "gsm": 3}), TypeError,
     "`metric` must name each task's metric as text; got 3 for task 'gsm'."),
    (None, lambda out: read_lm_eval(out, metric="f1"), ValueError,
     "`metric` 'f1' matches no metric of task 'arc', which holds 'acc,none' (name one as the harness writes it, "
     "'name,filter')."),
    (lambda out: (out.parent / "e").mkdir(), lambda out: read_lm_eval(out.parent / "e"), FileNotFoundError,
     "{out}/../e: no samples_<task>_<date>.jsonl file in this folder or below; lm-evaluation-harness writes them "
     "with --output_path and --log_samples"),
    *[(lambda out, name=name: _write(out.parent / name, "{}\n"), lambda out, name=name: read_lm_eval(out.parent / name),
       ValueError, "{out}/../" + name + ": not a sample file of lm-evaluation-harness, whose names are "
       "samples_<task>_<date>.jsonl (the task and the run's date are read from the name)")
      for name in ("samples_arc.jsonl", "results_arc_x.jsonl", "samples_arc_x.json")],
    (lambda out: _results(out).unlink(), read_lm_eval, FileNotFoundError,
     _SAMPLES + ": no results_" + _DATE + ".json beside it; lm-evaluation-harness writes the run's results file, "
     "which names the model, next to its sample files: keep them together"),
    (_several_results, read_lm_eval, ValueError,
     _SAMPLES + ": several results files of run " + _DATE + " beside it (a_" + _DATE + ".json, b_" + _DATE +
     ".json); keep the one the harness wrote"),
    (lambda out: _results(out).write_text("{"), read_lm_eval, ValueError,
     _RESULTS + ": not a readable results file of lm-evaluation-harness (Expecting property name enclosed in double "
     "quotes: line 1 column 2 (char 1))"),
    (lambda out: _results(out).write_text("[1]"), read_lm_eval, ValueError, _NO_MODEL),
    (lambda out: _results(out).write_text('{"model_name": 123}'), read_lm_eval, ValueError, _NO_MODEL),
    (lambda out: _results(out).write_text('{"model_name": "", "config": {"model_args": ""}}'), read_lm_eval,
     ValueError, _NO_MODEL),
    (lambda out: _rewrite(_samples(out), lambda lines: [lines[0], lines[1][:20]]), read_lm_eval, ValueError,
     _SAMPLES + ", line 2: not a JSON object (Expecting value at column 1); is the file truncated?"),
    (lambda out: _samples(out).write_text(json.dumps({**lm_eval_line(1, "none", {"acc": 1.0}), "metrics": "acc"})),
     read_lm_eval, ValueError, _SAMPLES + ", line 1: 'metrics' must list the metrics' names; it holds 'acc'"),
    (lambda out: _samples(out).write_text(json.dumps({**lm_eval_line(1, "none", {"acc": 1.0}), "metrics": [1] * 40})),
     read_lm_eval, ValueError, _SAMPLES + ", line 1: 'metrics' must list the metrics' names; it holds [1, 1, 1, 1, 1, 1, "
     "1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,..."),
    (lambda out: _samples(out).write_text(json.dumps(lm_eval_line(1, "none", {"bleu": ["ref " * 20, "pred"]}))),
     read_lm_eval, ValueError, _SAMPLES + ", line 1: metric 'bleu' holds ['ref ref ref ref ref ref ref ref ref ref ref "
     "ref ref ref..., not a number; a metric whose per-document value is an input to a corpus-level aggregate (BLEU, "
     "F1, MCC) has no per-item score to compare"),
    (lambda out: _samples(out).write_text("\n"), read_lm_eval, ValueError, _SAMPLES + ": no samples in the file"),
    (lambda out: _samples(out).write_text('{"doc_id": 1}\n'), read_lm_eval, ValueError,
     _SAMPLES + ", line 1: no 'filter', 'metrics' field: not a sample of lm-evaluation-harness 0.4.x (a line of "
     "--log_samples holds doc_id, filter, metrics and a value per metric)"),
    # A value shown whole up to 60 characters (its repr), cut beyond.
    (lambda out: _samples(out).write_text(json.dumps({**lm_eval_line(1, "none", {"acc": 1.0}), "metrics": "m" * 58})),
     read_lm_eval, ValueError, _SAMPLES + ", line 1: 'metrics' must list the metrics' names; it holds '" + "m" * 58 + "'"),
    (lambda out: _rewrite(_samples(out), lambda lines: [*lines, lines[0], lines[0], lines[1]]), read_lm_eval,
     ValueError, "document model 'm', task 'arc', run '" + _DATE + "', metric 'acc,none', item 0 appears 3 times ("
     + _SAMPLES + ", line 1 and " + _SAMPLES + ", line 4); 2 keys are repeated in all: an item is matched by its id, "
     "so each must appear once. Remove the repeated file or line."),
    (lambda out: _rewrite(_samples(out), lambda lines: [*lines, lines[0]]), read_lm_eval, ValueError,
     "document model 'm', task 'arc', run '" + _DATE + "', metric 'acc,none', item 0 appears 2 times (" + _SAMPLES +
     ", line 1 and " + _SAMPLES + ", line 4): an item is matched by its id, so each must appear once. Remove the "
     "repeated file or line."),
    (lambda out: write_lm_eval_run(out, "m", _DATE, {"hella": [lm_eval_line(0, "none", {"acc": 1.0})]}),
     lambda out: read_lm_eval(out, metric={"arc": "acc"}), ValueError,
     "`metric` gives no metric for task(s) 'gsm', 'hella': a mapping must name one metric for every task read (or "
     "read those tasks' files separately)."),
    (None, lambda out: read_lm_eval(3), TypeError, "`paths` must be a file or folder name, or a list of them; got int."),
    (None, lambda out: read_lm_eval([out, 3]), TypeError, "`paths` must hold file or folder names; got 3."),
])
def test_lm_eval_refusals_in_full(small_run, prepare, call, error, message):
    if prepare is not None:
        prepare(small_run)
    with pytest.raises(error) as caught:
        call(small_run)
    assert str(caught.value) == message.format(out=small_run).replace(f"{small_run}/../", f"{small_run.parent}/")


def test_lm_eval_details_of_a_read(small_run):
    chosen = read_lm_eval(small_run, metric={"arc": "acc", "gsm": "exact_match"})
    assert chosen.columns.tolist() == ["model", "task", "item", "sample", "metric", "score", "run", "file", "line"]
    assert chosen.index.equals(pd.RangeIndex(6))
    # Blank lines are skipped, and the lines after them read.
    _rewrite(_samples(small_run), lambda lines: [lines[0], "", "  ", *lines[1:]])
    arc = read_lm_eval(_samples(small_run), metric="acc")
    assert arc[["item", "line"]].values.tolist() == [[0, 1], [1, 4], [2, 5]]
    # A boolean is a score; an older results file names the model by its arguments.
    _samples(small_run).write_text(json.dumps(lm_eval_line(1, "none", {"acc": True})) + "\n")
    _results(small_run).write_text('{"config": {"model_args": "pretrained=x"}}')
    table = read_lm_eval(small_run)
    assert table[table.task == "arc"].score.tolist() == [1.0] and set(table.model) == {"pretrained=x"}


# --------------------------------------------------------------------------- Inspect: names, values and refusals in full


def test_inspect_folders_of_any_name_dict_values_and_the_file_of_each_row(tmp_path):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    # Inspect lists a folder's logs as file:// names without percent-encoding: '#' and '%41' are the folder's own.
    for folder in ("a#b", "e%41f"):
        logs = write_inspect_logs(tmp_path / folder, epochs=1, models=("a",), scorer_value={"x": 1, "y": "C"})
        table = read_inspect(tmp_path / folder)
        assert set(table.file) == {str(p) for p in logs} and len(logs) == 1
        # A dict value is one metric per key, each mapped as Inspect maps it ('C' is 1).
        assert sorted(set(table.metric)) == ["includes", "length/x", "length/y", "match"]
        assert (table[table.metric.str.startswith("length/")].score == 1.0).all()
    (tmp_path / "empty").mkdir()
    with pytest.raises(FileNotFoundError) as caught:
        read_inspect(tmp_path / "empty")
    assert str(caught.value) == f"{tmp_path / 'empty'}: no Inspect evaluation log (.eval or .json) in this folder or below"


def test_inspect_refuses_text_that_is_not_a_mark_in_full(tmp_path):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    logs = write_inspect_logs(tmp_path / "logs", epochs=1, models=("a",), scorer_value="maybe")
    with pytest.raises(ValueError) as caught:
        read_inspect(logs)
    assert str(caught.value) == (f"{logs[0]}, sample 'q00' epoch 1: scorer 'length' gave 'maybe', not a number, a boolean "
                                 "or one of Inspect's marks 'C', 'I', 'P', 'N' (correct, incorrect, partial, no answer)")


def test_inspect_a_metric_chosen_keeps_the_failed_samples_indexed_anew(tmp_path):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    logs = write_inspect_logs(tmp_path / "logs", epochs=1, failing="q04", models=("a",))
    table = read_inspect(logs, metric="match")
    assert table.index.equals(pd.RangeIndex(10)) and table.error.iloc[-1].startswith("the sample failed: ")
    assert table.columns.tolist() == read_inspect(logs).columns.tolist()
    with pytest.raises(ValueError) as caught:
        read_inspect(logs, metric="exact")
    assert str(caught.value) == "`metric` 'exact' matches no metric of task 'arith', which holds 'match', 'includes', 'length'."


def test_inspect_without_a_metric_keeps_the_rows_in_the_logs_order(tmp_path):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    table = read_inspect(write_inspect_logs(tmp_path / "logs", epochs=1, failing="q04", models=("a",)))
    assert table["item"].tolist() == sorted(table["item"]) and (table[table["item"] == "q04"].error != "").all()


def test_inspect_rows_of_samples_that_failed_were_invalidated_or_not_scored():
    """Inspect's log module stood in for: what the reader asks of it, and each kind of sample it may hold."""
    from types import SimpleNamespace as Obj

    from sigeval._harness_logs import _inspect_rows

    scorer = Obj(value_to_float=lambda: float, CORRECT="C", INCORRECT="I", PARTIAL="P", NOANSWER="N")
    asked = {}

    def sample(i, **fields):
        return Obj(**({"id": f"q{i}", "epoch": 1, "error": None, "invalidation": None,
                       "scores": {"match": Obj(value=1.0)}} | fields))

    samples = [sample(0), sample(1, error=Obj(message="boom\nmore")), sample(2, invalidation=Obj(reason=None)),
               sample(3, invalidation=Obj(reason="cheated")), sample(4, scores={})]

    def read_eval_log(path, **options):
        asked.update(options, path=path)
        return Obj(eval=Obj(model="m", task="t"), status="success", samples=samples)

    rows = _inspect_rows(Path("x.eval"), Obj(read_eval_log=read_eval_log), scorer)
    assert asked == {"path": "x.eval", "exclude_fields": {"messages", "events", "store", "attachments"}}
    assert [r[6] for r in rows] == ["", "the sample failed: boom", "the sample was invalidated (no reason given)",
                                    "the sample was invalidated (cheated)", "the sample was not scored"]
    assert rows[0] == ("m", "t", "q0", 1, "match", 1.0, "", "success", "x.eval") and rows[4][8] == "x.eval"
    empty = Obj(read_eval_log=lambda path, **options: Obj(eval=Obj(model="m", task="t"), status="started", samples=None))
    with pytest.raises(ValueError) as caught:
        _inspect_rows(Path("x.eval"), empty, scorer)
    assert str(caught.value) == "x.eval: the log holds no samples (status 'started')"
    for err, shown in ((ValueError(" "), "ValueError"), (OSError("  first line\nsecond"), "first line")):
        def broken(path, err=err, **options):
            raise err
        with pytest.raises(ValueError) as caught:
            _inspect_rows(Path("x.eval"), Obj(read_eval_log=broken), scorer)
        assert str(caught.value) == f"x.eval: not an Inspect evaluation log ({shown})"


def test_lm_eval_files_are_read_as_utf8_whatever_the_locale(tmp_path, monkeypatch):
    import io

    out = tmp_path / "out"
    write_lm_eval_run(out, "modèle", _DATE, {"arc": [lm_eval_line(i, "none", {"acc": 1.0}, doc={"question": "é?", "answer": "à"})
                                                    for i in range(2)]})
    results = out / "modèle" / f"results_{_DATE}.json"  # written unescaped, as UTF-8
    results.write_text(json.dumps(json.loads(results.read_text(encoding="utf-8")), ensure_ascii=False), encoding="utf-8")
    # Files opened without an encoding get ASCII, as on a machine whose locale is not UTF-8.
    monkeypatch.setattr(io, "text_encoding", lambda encoding, stacklevel=2: encoding or "ascii")
    with pytest.raises(UnicodeDecodeError):
        (out / "modèle" / f"results_{_DATE}.json").read_text()
    assert set(read_lm_eval(out).model) == {"modèle"}


def test_inspect_a_dict_value_that_is_not_a_number_is_named_by_its_key(tmp_path):
    pytest.importorskip("inspect_ai", reason="the inspect extra (pip install 'sigeval[inspect]') is not installed")
    logs = write_inspect_logs(tmp_path / "logs", epochs=1, models=("a",), scorer_value={"x": "maybe"})
    with pytest.raises(ValueError) as caught:
        read_inspect(logs)
    assert str(caught.value).startswith(f"{logs[0]}, sample 'q00' epoch 1: scorer 'length/x' gave 'maybe', not a number")


@pytest.mark.parametrize("name, path", [
    ("file:///tmp/logs/a#b.eval", "/tmp/logs/a#b.eval"), ("file:///C:/logs/x.eval", "C:/logs/x.eval"),
    ("file:///c:\\logs\\x.eval", "c:\\logs\\x.eval"), ("/tmp/logs/x.eval", "/tmp/logs/x.eval"),
])
def test_inspect_names_of_files_as_paths(name, path):
    from sigeval._harness_logs import _local

    assert _local(name) == Path(path)

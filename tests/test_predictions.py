"""sigeval.predictions: the library function behind ``sigeval compare``, checked against the command and the parts."""

import json
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest

from sigeval import (
    adjust_pvalues,
    bootstrap_ci,
    compare_predictions,
    delong_test,
    mcnemar,
    paired_bootstrap_ci,
    proportion_ci,
    roc_auc,
)
from sigeval._validation import TableError


def _table(n=300, seed=0):
    rng = np.random.default_rng(seed)
    label = rng.integers(0, 3, n)
    return pd.DataFrame({
        "label": label,
        "A": np.where(rng.random(n) < 0.8, label, (label + 1) % 3),
        "B": np.where(rng.random(n) < 0.7, label, (label + 2) % 3),
        "C": np.where(rng.random(n) < 0.75, label, (label + 1) % 3),
    })


def test_the_command_prints_what_the_library_returns(tmp_path):
    table = _table()
    table.to_csv(tmp_path / "p.csv", index=False)
    done = subprocess.run([sys.executable, "-m", "sigeval.cli", "compare", str(tmp_path / "p.csv"), "--json",
                           "--n-resamples", "300", "--rng", "7"], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    res = compare_predictions(table, n_resamples=300, rng=7)
    assert out["models"] == json.loads(res.models.to_json(orient="records"))
    assert out["pairs"] == json.loads(res.pairs.to_json(orient="records"))
    assert out["note"] == res.note and "rng seed 7" in res.note


def test_accuracy_comparison_is_built_from_the_library_parts():
    table = _table(seed=1)
    res = compare_predictions(table, confidence_level=0.9, n_resamples=400, rng=3)
    correct = {m: (table[m] == table.label).to_numpy(float) for m in "ABC"}
    for row in res.models.itertuples():
        ci = proportion_ci(int(correct[row.model].sum()), 300, confidence_level=0.9)
        assert (row.accuracy, row.ci_low, row.ci_high) == (correct[row.model].mean(), ci.low, ci.high)
    gen = np.random.default_rng(3)
    for row in res.pairs.itertuples():
        a, b = correct[row.model_a], correct[row.model_b]
        boot = paired_bootstrap_ci(a, b, n_resamples=400, confidence_level=0.9, rng=gen)
        assert (row.estimate, row.ci_low, row.ci_high) == (a.mean() - b.mean(), *boot.confidence_interval)
        assert row.pvalue == mcnemar(a, b).pvalue
    assert res.pairs.pvalue_holm.tolist() == adjust_pvalues(res.pairs.pvalue.to_numpy()).tolist()
    assert (res.metric, res.confidence_level, res.n_resamples) == ("accuracy", 0.9, 400)


def test_auc_comparison_uses_delong_and_bootstraps_each_auc():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    table = pd.DataFrame({"label": y, "s1": y + rng.normal(0, 1, 200), "s2": y + rng.normal(0, 2, 200)})
    res = compare_predictions(table, metric="auc", n_resamples=300, rng=4)
    gen = np.random.default_rng(4)
    for row in res.models.itertuples():
        boot = bootstrap_ci((y, table[row.model].to_numpy()), statistic=roc_auc, n_resamples=300, rng=gen)
        assert (row.auc, row.ci_low, row.ci_high) == (boot.estimate, *boot.confidence_interval)
    ref = delong_test(y, table.s1, table.s2)
    row = res.pairs.iloc[0]
    assert (row.estimate, row.pvalue) == (ref.estimate, ref.pvalue)


def test_correctness_columns_without_a_label():
    table = _table(seed=3)
    correct = pd.DataFrame({m: (table[m] == table.label).astype(int) for m in "AB"})
    plain = compare_predictions(table[["label", "A", "B"]], n_resamples=100, rng=0)
    as_01 = compare_predictions(correct, label=None, n_resamples=100, rng=0)
    pd.testing.assert_frame_equal(plain.pairs, as_01.pairs)


@pytest.mark.parametrize(
    ("table", "kwargs", "rows", "match"),
    [
        (pd.DataFrame({"label": [1, 0, 1], "A": [1, None, 1], "B": [1, 0, 0]}), {}, [1], r"model column 'A' is empty"),
        (pd.DataFrame({"label": [1, 0], "A": [1, 0]}), {}, None, r"at least 2 model columns; found \['A'\]"),
        (pd.DataFrame({"y": [1, 0], "A": [1, 0], "B": [0, 0]}), {}, None, r"no column 'label' for the labels"),
        (pd.DataFrame({"A": [1, 2], "B": [0, 1]}), dict(label=None), [1], r"model column 'A' must hold 0/1 correctness; it holds 2"),
        (pd.DataFrame({"label": ["x", "y"], "A": ["a", "b"], "B": ["b", "a"]}), {}, None, r"that no model predicts"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [0.2, "x", 0.4], "B": [0.1, 0.2, 0.3]}), dict(metric="auc"), [1],
         r"column 'A' holds 'x', not a number"),
    ],
)
def test_table_errors_name_the_rows_and_the_column(table, kwargs, rows, match):
    with pytest.raises(TableError, match=match) as err:
        compare_predictions(table, **kwargs)
    assert isinstance(err.value, ValueError)
    assert (err.value.rows is None) == (rows is None)
    if rows is not None:
        assert err.value.rows.tolist() == rows and str(err.value).startswith(f"row {rows[0]}: ")


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        (dict(table=np.ones((3, 2))), TypeError, r"`table` must be a pandas DataFrame"),
        (dict(table=pd.DataFrame()), ValueError, r"`table` must hold at least one row"),
        (dict(table=_table(), metric="f1"), ValueError, r"`metric` must be one of 'accuracy', 'auc'; got 'f1'"),
        (dict(table=_table(), confidence_level=1.0), ValueError, r"`confidence_level`"),
        (dict(table=_table(), n_resamples=0), ValueError, r"`n_resamples`"),
        (dict(table=_table(), rng="x"), TypeError, r"`rng`"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        compare_predictions(**kwargs)

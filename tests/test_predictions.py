"""sigeval.predictions: the library function behind ``sigeval compare``, checked against the command and the parts."""

import json
import warnings

import numpy as np
import pandas as pd
import pytest

from sigeval import (
    adjust_pvalues,
    bootstrap_ci,
    compare_predictions,
    delong_ci,
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


def test_the_command_prints_what_the_library_returns(tmp_path, capsys):
    from sigeval.cli import main

    table = _table()
    table.to_csv(tmp_path / "p.csv", index=False)
    assert main(["compare", str(tmp_path / "p.csv"), "--json", "--n-resamples", "300", "--rng", "7"]) == 0
    out = json.loads(capsys.readouterr().out)
    res = compare_predictions(table, n_resamples=300, rng=7)
    # The JSON holds every digit: the tables are the library's, exactly.
    pd.testing.assert_frame_equal(pd.DataFrame(out["models"]), res.per_model, check_exact=True)
    pd.testing.assert_frame_equal(pd.DataFrame(out["pairs"]), res.pairs, check_exact=True)
    assert out["note"] == res.note and "rng seed 7" in res.note


def test_max_resamples_refuses_before_any_work_counting_every_bootstrap():
    table = _table()
    groups = np.repeat(np.arange(30), 10)
    # Three models: 3 pairs, and 3 cluster bootstraps of the accuracies with groups; 2 AUC bootstraps, DeLong's none.
    cases = [(dict(), 3), (dict(groups="g"), 6), (dict(models=["A", "B"]), 1)]
    for options, bootstraps in cases:
        frame = table.assign(g=groups) if "groups" in options else table
        total = bootstraps * 50
        assert compare_predictions(frame, n_resamples=50, rng=0, max_resamples=total, progress=False, **options)
        with pytest.raises(ValueError) as refused:
            compare_predictions(frame, n_resamples=50, rng=0, max_resamples=total - 1, **options)
        n_models = len(options.get("models", "ABC"))
        assert str(refused.value) == (
            f"{n_models} models make {n_models * (n_models - 1) // 2} pairs; this comparison would draw {total} "
            f"bootstrap resamples ({bootstraps} bootstraps x 50 resamples), above the limit of {total - 1} "
            f"(`max_resamples`). Pass max_resamples={total} (--max-resamples {total} on the command line) to run it "
            "anyway, or compare fewer models (`models`, --models) or draw fewer resamples (`n_resamples`, "
            "--n-resamples)")
    rng = np.random.default_rng(0)
    scores = pd.DataFrame({"label": rng.integers(0, 2, 60), "m1": rng.random(60), "m2": rng.random(60)})
    assert compare_predictions(scores, metric="auc", max_resamples=1)  # DeLong's intervals draw nothing
    with pytest.raises(ValueError, match=r"\(2 bootstraps x 10,000 resamples\), above the limit of 1 "):
        compare_predictions(scores, metric="auc", auc_method="bootstrap", max_resamples=1)
    # Refused before a resample is drawn: a limit below the work stops even a request too large for memory.
    with pytest.raises(ValueError, match="above the limit of 1,000,000"):
        compare_predictions(table, n_resamples=10**13, max_resamples=10**6)
    for bad, error in ((0, ValueError), (1.5, TypeError), ("10", TypeError)):
        with pytest.raises(error, match="`max_resamples`"):
            compare_predictions(table, max_resamples=bad)


def test_accuracy_comparison_is_built_from_the_library_parts():
    table = _table(seed=1)
    res = compare_predictions(table, confidence_level=0.9, n_resamples=400, rng=3)
    correct = {m: (table[m] == table.label).to_numpy(float) for m in "ABC"}
    for row in res.per_model.itertuples():
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


def test_auc_comparison_uses_delong_for_each_auc_by_default():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    table = pd.DataFrame({"label": y, "s1": y + rng.normal(0, 1, 200), "s2": y + rng.normal(0, 2, 200)})
    res = compare_predictions(table, metric="auc", n_resamples=300, rng=4)
    for row in res.per_model.itertuples():
        ref = delong_ci(y, table[row.model].to_numpy())
        assert (row.auc, row.ci_low, row.ci_high) == (ref.estimate, *ref.confidence_interval)
    assert "DeLong's standard error" in res.note and "resamples" not in res.note
    row = res.pairs.iloc[0]
    assert (row.estimate, row.pvalue) == (delong_test(y, table.s1, table.s2).estimate,
                                          delong_test(y, table.s1, table.s2).pvalue)


def test_auc_comparison_uses_delong_and_bootstraps_each_auc():
    rng = np.random.default_rng(2)
    y = rng.integers(0, 2, 200)
    table = pd.DataFrame({"label": y, "s1": y + rng.normal(0, 1, 200), "s2": y + rng.normal(0, 2, 200)})
    res = compare_predictions(table, metric="auc", n_resamples=300, rng=4, auc_method="bootstrap")
    gen = np.random.default_rng(4)
    for row in res.per_model.itertuples():
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
        (dict(table=_table(), auc_method="wald"), ValueError, r"`auc_method` must be one of 'delong', 'bootstrap'"),
        (dict(table=_table(), progress="no"), TypeError, r"`progress` must be True or False"),
    ],
)
def test_bad_arguments(kwargs, error, match):
    with pytest.raises(error, match=match):
        compare_predictions(**kwargs)


# --------------------------------------------------------------------------- hostile inputs (tools/hostile_check.py)

_SMALL = pd.DataFrame({"label": [0, 1, 1, 0, 1, 1], "A": [0, 1, 1, 0, 1, 0], "B": [1, 1, 0, 0, 1, 0]})


def _renamed(table, columns):
    table = table.copy()
    table.columns = columns
    return table


@pytest.mark.parametrize(
    ("table", "kwargs", "error", "match"),
    [
        # A deep pandas TypeError ("arg must be a list, tuple, 1-d array, or Series").
        (_renamed(_SMALL, ["label", "A", "A"]), {}, TableError, r"^the table has more than one column named 'A'"),
        # "at least 2 model columns; found ['B']": the duplicated label went unnamed.
        (_renamed(_SMALL, ["label", "label", "B"]), {}, TableError, r"more than one column named 'label'"),
        # AttributeError: 'DataFrame' object has no attribute 'pvalue'.
        (_SMALL, dict(models=["A", "A"]), ValueError, r"^`models` must name each column once; got 'A' more than once\.$"),
        # Read as the columns 'A' and 'B', one character each.
        (_SMALL, dict(models="AB"), TypeError, r"^`models` must be a list of column names; got 'AB'\.$"),
        (_SMALL, dict(models=5), TypeError, r"^`models` must be a list of column names; got 5\.$"),
        # The label compared with itself: an accuracy of 1.
        (_SMALL, dict(models=["label", "A"]), ValueError, r"^`models` must not name the label or the groups column"),
        (_SMALL, dict(label=["label"]), TypeError, r"^`label` must be a column name; got \['label'\]\.$"),
        (_SMALL, dict(groups="label"), ValueError, r"^`groups` and `label` must be different columns; both are 'label'"),
    ],
)
def test_column_arguments_are_checked(table, kwargs, error, match):
    with pytest.raises(error, match=match):
        compare_predictions(table, n_resamples=50, rng=0, **kwargs)


def test_labels_compared_as_text_cell_by_cell():
    # 1e19 and 2e19 wrapped around to the same int64 (accuracy 1); inf raised deep inside pandas;
    # 1.0 beside text in a column stayed "1.0" and missed the prediction "1".
    cases = [
        (pd.DataFrame({"label": [1e19, 0, 1, 0], "A": [2e19, 0, 1, 0], "B": [1e19, 0, 1, 1]}), [0.75, 0.75]),
        (pd.DataFrame({"label": [np.inf, 0, 1, 0], "A": [-np.inf, 0, 1, 0], "B": [np.inf, 0, 1, 1]}), [0.75, 0.75]),
        (pd.DataFrame({"label": [1, "1", 1.0, "a"], "A": ["1", 1, "1", "a"], "B": [0, "0", 1, "b"]}), [1.0, 0.25]),
        (pd.DataFrame({"label": [True, False, True, False], "A": [1, 0, 1, 1], "B": [True, True, True, False]}),
         [0.75, 0.75]),
    ]
    for table, accuracies in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error", RuntimeWarning)
            res = compare_predictions(table, n_resamples=50, rng=0)
        assert res.per_model.accuracy.tolist() == accuracies


def test_auc_errors_name_the_column_not_the_bootstrap():
    table = pd.DataFrame({"label": [0, 1, 1, 0, 1, 0] * 4, "A": np.linspace(0, 1, 24), "B": np.linspace(1, 0, 24)})
    inf = table.assign(A=table.A.where(table.index != 3, np.inf))
    # Was "`data[1]` holds 1 NaN or infinite value(s)".
    with pytest.raises(TableError, match=r"^row 3: model column 'A' holds an infinite score$"):
        compare_predictions(inf, metric="auc", n_resamples=50, rng=0)
    # Was "`statistic` returned 2 non-finite value(s) out of 100": resamples of 6 items with one class only.
    # 2 (1/2)^6 = 0.03125 of the resamples, about 3 of 100: how many, and that nothing was computed.
    with pytest.raises(TableError, match=r"^the label column 'label' holds 3 positive\(s\) and 3 negative\(s\), "
                                         r"too few for a bootstrap of the AUC: a resample of the 6 items draws one "
                                         r"class only with probability 0.0312, about 3 of the 100 resamples.*"
                                         r"No interval was computed"):
        compare_predictions(table.head(6), metric="auc", n_resamples=100, rng=0, auc_method="bootstrap")
    # DeLong's intervals (the default) need no resample.
    assert len(compare_predictions(table.head(6), metric="auc").per_model) == 2


# --------------------------------------------------------------------------- exact notes, messages and the grouped path (mutation testing)


def test_grouped_accuracy_comparison_is_built_from_the_library_parts():
    from sigeval import paired_permutation_test

    table = _table(n=60, seed=5).assign(clip=np.repeat([f"c{i}" for i in range(12)], 5))
    res = compare_predictions(table, groups="clip", confidence_level=0.8, n_resamples=200, rng=np.int64(6))
    codes = pd.factorize(table["clip"])[0]
    correct = {m: (table[m] == table.label).to_numpy(float) for m in "ABC"}
    gen = np.random.default_rng(6)
    for row in res.per_model.itertuples():
        boot = bootstrap_ci(correct[row.model], groups=codes, n_resamples=200, confidence_level=0.8, rng=gen)
        assert (row.n_items, row.accuracy, row.ci_low, row.ci_high) == (60, correct[row.model].mean(),
                                                                          *boot.confidence_interval)
    for row in res.pairs.itertuples():
        a, b = correct[row.model_a], correct[row.model_b]
        boot = paired_bootstrap_ci(a, b, groups=codes, n_resamples=200, confidence_level=0.8, rng=gen)
        sums_a, sums_b = np.bincount(codes, a), np.bincount(codes, b)
        assert (row.estimate, row.ci_low, row.ci_high) == (a.mean() - b.mean(), *boot.confidence_interval)
        assert row.pvalue == paired_permutation_test(sums_a, sums_b, rng=gen).pvalue
    assert res.note == ("accuracy intervals: cluster bootstrap; differences: A minus B, paired cluster bootstrap "
                        "percentile interval (200 resamples, rng seed 6); p: sign flips of whole groups (exact or "
                        "10,000 draws), Holm-adjusted over 3 pair(s)")
    assert list(res.per_model.columns) == ["model", "n_items", "accuracy", "ci_low", "ci_high"]
    assert list(res.pairs.columns) == ["model_a", "model_b", "estimate", "ci_low", "ci_high", "pvalue", "pvalue_holm"]


def test_notes_say_exactly_how_every_number_was_computed():
    table = _table(n=50, seed=7)
    res = compare_predictions(table[["label", "A", "B"]], n_resamples=100, rng=3)
    assert res.note == ("accuracy intervals: Wilson; differences: A minus B, paired bootstrap percentile interval "
                        "(100 resamples, rng seed 3); p: McNemar (exact), Holm-adjusted over 1 pair(s)")
    # Only an integer seed is repeated in the note: a generator (or True, refused as a seed) is not.
    assert "rng seed" not in compare_predictions(table, n_resamples=100, rng=np.random.default_rng(3)).note
    with pytest.raises(TypeError, match=r"`rng`"):
        compare_predictions(table, n_resamples=100, rng=True)
    rng = np.random.default_rng(8)
    y = np.tile([0, 1], 20)
    scores = pd.DataFrame({"label": y, "s1": y + rng.normal(0, 1, 40), "s2": y + rng.normal(0, 1, 40),
                           "s3": rng.normal(0, 1, 40)})
    res = compare_predictions(scores, metric="auc", n_resamples=100, rng=4)
    assert res.note == ("AUC intervals: DeLong's standard error, normal interval clipped to [0, 1]; differences: AUC "
                        "of A minus B with DeLong's interval and test, Holm-adjusted over 3 pair(s)")
    res = compare_predictions(scores, metric="auc", n_resamples=100, rng=4, auc_method="bootstrap")
    assert res.note == ("AUC intervals: bootstrap percentile (100 resamples, rng seed 4); differences: AUC of A minus "
                        "B with DeLong's interval and test, Holm-adjusted over 3 pair(s)")
    assert res.per_model.n_items.tolist() == [40, 40, 40]
    assert list(res.per_model.columns) == ["model", "n_items", "auc", "ci_low", "ci_high"]
    assert (res.metric, res.confidence_level, res.n_resamples) == ("auc", 0.95, 100)


@pytest.mark.parametrize(
    ("table", "kwargs", "message"),
    [
        (pd.DataFrame({"label": [1, None, 1], "A": [1, 0, 1], "B": [1, 0, 0]}), {},
         r"^row 1: the label column 'label' is empty$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [1, 0, 1], "B": [1, None, None], "g": [1, 1, 2]}), dict(groups="g"),
         r"^rows 1, 2: model column 'B' is empty; every model must be scored on every item \(the models would be "
         r"compared on different numbers of items\)$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [1, 0, 1], "B": [1, 0, 0], "g": [1, None, 2]}), dict(groups="g"),
         r"^row 1: the groups column 'g' is empty$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [1, 0, 1], "B": [1, 0, 0]}), dict(groups="g"),
         r"^no column 'g' for the groups \(the columns are 'label', 'A', 'B'\)$"),
        (pd.DataFrame({"A": [1, 0, 2, 5], "B": [0, 1, 1, 1]}), dict(label=None),
         r"^row 2: without a label column, model column 'A' must hold 0/1 correctness; it holds 2$"),
        (pd.DataFrame({"A": [1.0, 0.5], "B": [0, 1]}), dict(label=None), r"^row 1: without a label column, model "
         r"column 'A' must hold 0/1 correctness; it holds 0\.5$"),
        (pd.DataFrame({"label": ["x", "y"], "A": ["a", "b"], "B": ["b", "a"]}), {},
         r"^the label column 'label' holds values \(x, y\) that no model predicts \(the models predict a, b\); are "
         r"labels and predictions encoded alike\? For 0/1 correctness columns, pass label=None \(--label none on the "
         r"command line\)$"),
        (_renamed(_SMALL, ["label", "A", "A"]), {},
         r"^the table has more than one column named 'A'; rename them so that each name is one column$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [0.1, 0.2, 0.3], "B": [0.3, 0.2, 0.1]}), dict(metric="auc", label=None),
         r"^the AUC needs a label column \(0/1\) beside the models' scores$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [0.1, 0.2, 0.3], "B": [0.3, 0.2, 0.1], "g": [1, 1, 2]}),
         dict(metric="auc", groups="g"),
         r"^groups with the AUC are not supported: DeLong's test assumes independent items$"),
        (pd.DataFrame({"label": [1, 2, 1], "A": [0.1, 0.2, 0.3], "B": [0.3, 0.2, 0.1]}), dict(metric="auc"),
         r"^for the AUC the label column 'label' must hold 0 and 1, both present$"),
        (pd.DataFrame({"label": [1, 1, 1], "A": [0.1, 0.2, 0.3], "B": [0.3, 0.2, 0.1]}), dict(metric="auc"),
         r"^for the AUC the label column 'label' must hold 0 and 1, both present$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [0.1, 0.2, 0.3], "B": [0.3, None, 0.1]}), dict(metric="auc"),
         r"^row 1: model column 'B' is empty$"),
        (pd.DataFrame({"label": [1, 0, 1], "A": [0.1, 0.2, 0.3], "B": [0.3, 0.2, -np.inf]}), dict(metric="auc"),
         r"^row 2: model column 'B' holds an infinite score$"),
    ],
)
def test_table_errors_say_exactly_what_is_wrong_and_where(table, kwargs, message):
    with pytest.raises(TableError, match=message):
        compare_predictions(table, n_resamples=50, rng=0, **kwargs)


def test_the_default_models_are_every_other_column():
    table = _table(n=40, seed=9).assign(clip=np.repeat(np.arange(8), 5))
    res = compare_predictions(table, groups="clip", n_resamples=50, rng=0)
    assert res.per_model.model.tolist() == ["A", "B", "C"]
    assert compare_predictions(table, groups="clip", models=["C", "A"], n_resamples=50, rng=0).per_model.model.tolist() == [
        "C", "A"]


@pytest.mark.parametrize(
    ("table", "kwargs", "error", "message"),
    [
        (_SMALL, dict(models=[["A"], "B"]), TypeError, r"^`models` must be a column name; got \['A'\]\.$"),
        (_SMALL, dict(models=["A", "Z"]),
         TableError, r"^no column 'Z' for the models \(the columns are 'label', 'A', 'B'\)$"),
        (_SMALL, dict(models=["A", "B", "A", "B"]), ValueError,
         r"^`models` must name each column once; got 'A', 'B' more than once\.$"),
        (_SMALL.assign(g=[1, 1, 2, 2, 3, 3]), dict(models=["A", "label", "g"], groups="g"), ValueError,
         r"^`models` must not name the label or the groups column; got 'label', 'g'\.$"),
        # A cell is shown as written: text quoted, a number (Python or NumPy) plain.
        (pd.DataFrame({"A": ["1", "2"], "B": [0, 1]}), dict(label=None), TableError, r"holds '2'$"),
        (pd.DataFrame({"A": pd.Series([1, 2], dtype=object), "B": [0, 1]}), dict(label=None), TableError,
         r"holds 2$"),
        (pd.DataFrame({"A": np.array([1.0, 2.5]), "B": [0, 1]}), dict(label=None), TableError, r"holds 2\.5$"),
        # A float32 cell as the 0/1 check saw it, widened to float64 (str of the float32 would print 0.1).
        (pd.DataFrame({"A": np.array([1.0, 0.1], dtype=np.float32), "B": [0, 1]}), dict(label=None), TableError,
         r"holds 0\.10000000149011612$"),
    ],
)
def test_model_columns_and_cells_are_named_exactly(table, kwargs, error, message):
    with pytest.raises(error, match=message):
        compare_predictions(table, n_resamples=50, rng=0, **kwargs)


@pytest.mark.parametrize(("metric", "extra"), [("accuracy", {}), ("accuracy", {"groups": "g"}),
                                               ("auc", {}), ("auc", {"auc_method": "bootstrap"})])
def test_one_progress_bar_counts_every_model_and_pair(monkeypatch, metric, extra):
    import sigeval._bootstrap_engine as engine
    import sigeval._compare_predictions as predictions

    bars, inner = [], []

    class Bar:
        def __init__(self, total, description, *, enabled=True, unit="it"):
            self.total, self.done, self.labels = total, 0, (description, enabled, unit)
            bars.append(self)

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

        def update(self, n):
            self.done += n

    real = engine.progress_bar
    monkeypatch.setattr(predictions, "progress_bar", Bar)
    monkeypatch.setattr(engine, "progress_bar", lambda *a, **k: inner.append(k["enabled"]) or real(*a, **k))
    rng = np.random.default_rng(10)
    y = np.tile([0, 1], 20)
    table = pd.DataFrame({"label": y, "A": y + rng.normal(0, 1, 40), "B": y + rng.normal(0, 1, 40),
                          "C": rng.normal(0, 1, 40), "g": np.repeat(np.arange(8), 5)})
    if metric == "accuracy":
        table[["A", "B", "C"]] = (table[["A", "B", "C"]] > 0.5).astype(int)
    if "groups" not in extra:
        table = table.drop(columns="g")
    compare_predictions(table, metric=metric, n_resamples=50, rng=0, **extra)
    # 3 pairs, and the 3 models too when each model's interval is a bootstrap (or a DeLong interval).
    steps = 3 + (3 if metric == "auc" or "groups" in extra else 0)
    assert [(bar.total, bar.done) for bar in bars] == [(steps, steps)]
    # A whole number of steps, named, and shown by default.
    assert type(bars[0].total) is int and bars[0].labels == ("compare", True, "comparison")
    assert not any(inner)  # the bootstraps inside draw no bars of their own


def test_auc_comparison_at_another_level_and_a_degenerate_pair():
    rng = np.random.default_rng(11)
    y = np.tile([0, 1], 15)
    table = pd.DataFrame({"label": y, "s1": y + rng.normal(0, 1, 30), "s2": y + rng.normal(0, 2, 30)})
    for method in ("delong", "bootstrap"):
        res = compare_predictions(table, metric="auc", confidence_level=0.8, n_resamples=100, rng=1, auc_method=method)
        gen = np.random.default_rng(1)
        for row in res.per_model.itertuples():
            s = table[row.model].to_numpy()
            ref = (delong_ci(y, s, confidence_level=0.8) if method == "delong" else
                   bootstrap_ci((y, s), statistic=roc_auc, n_resamples=100, confidence_level=0.8, rng=gen))
            assert (row.ci_low, row.ci_high) == tuple(ref.confidence_interval)
        ref = delong_test(y, table.s1, table.s2, confidence_level=0.8)
        assert (res.pairs.ci_low[0], res.pairs.ci_high[0]) == tuple(ref.confidence_interval)
    # Two perfect rankings in opposite directions: AUCs 1 and 0 with a zero standard error of their difference.
    perfect = pd.DataFrame({"label": [0, 0, 1, 1], "A": [0.1, 0.2, 0.8, 0.9], "B": [0.9, 0.8, 0.2, 0.1]})
    with pytest.raises(TableError, match=r"^models 'A' and 'B': \S"), \
            pytest.warns(UserWarning, match=r"DeLong's standard error is zero"):
        compare_predictions(perfect, metric="auc")


# --------------------------------------------------------------------------- more exact messages and paths (mutation testing, round 2)


def test_whole_numbers_beyond_float64_precision_are_not_rounded_into_a_match():
    # A bug: 2**53 + 1 was turned into the float 2**53 and then written "9007199254740992", so a prediction of
    # 2**53 counted as correct for the label 2**53 + 1. Whole numbers below 2**53 are still written as integers
    # (1000 from an int column and 1000.0 from a float cell agree).
    n = 2**53
    table = pd.DataFrame({
        "label": [n + 1, n - 1, 1000, 3],
        "A": pd.Series([n + 1, n - 1, 1000.0, 3], dtype=object),  # to_numeric reads these as float64
        "B": [n, n - 1, 1000, 4],
    })
    res = compare_predictions(table, n_resamples=50, rng=0)
    assert res.per_model.accuracy.tolist() == [1.0, 0.5]


def test_no_model_predicts_names_at_most_five_values_each_written_as_integers():
    table = pd.DataFrame({"label": [10, 11, 12, 13, 14, 15], "A": [20, 21, 22, 23, 24, 25],
                          "B": [20.0, 21.0, 22.0, 23.0, 24.0, 25.0]})
    with pytest.raises(TableError, match=r"^the label column 'label' holds values \(10, 11, 12, 13, 14\) that no "
                                         r"model predicts \(the models predict 20, 21, 22, 23, 24\); are labels"):
        compare_predictions(table, n_resamples=50, rng=0)


@pytest.mark.parametrize(
    ("table", "kwargs", "error", "message"),
    [
        (_renamed(_SMALL.assign(C=_SMALL.A, D=_SMALL.B), ["label", "A", "B", "A", "B"]), {}, TableError,
         r"^the table has more than one column named 'A', 'B'; rename them so that each name is one column$"),
        (_SMALL.assign(g=[1, 1, 2, 2, 3, 3]), dict(groups=["g"]), TypeError,
         r"^`groups` must be a column name; got \['g'\]\.$"),
        (np.ones((3, 2)), {}, TypeError,
         r"^`table` must be a pandas DataFrame, one row per test item; got ndarray\.$"),
        (pd.DataFrame({"label": [], "A": [], "B": []}), {}, ValueError,
         r"^`table` must hold at least one row \(test item\); got an empty table\.$"),
    ],
)
def test_more_arguments_are_named_exactly(table, kwargs, error, message):
    with pytest.raises(error, match=message):
        compare_predictions(table, n_resamples=50, rng=0, **kwargs)


def test_a_generator_is_not_repeated_in_the_note_and_the_defaults():
    table = _table(n=30, seed=12)[["label", "A", "B"]]
    res = compare_predictions(table, n_resamples=100, rng=np.random.default_rng(3))
    assert res.note == ("accuracy intervals: Wilson; differences: A minus B, paired bootstrap percentile interval "
                        "(100 resamples); p: McNemar (exact), Holm-adjusted over 1 pair(s)")
    # 10,000 resamples unless told otherwise.
    res = compare_predictions(table, rng=5)
    assert res.n_resamples == 10_000 and "(10000 resamples, rng seed 5)" in res.note
    correct = {m: (table[m] == table.label).to_numpy(float) for m in "AB"}
    boot = paired_bootstrap_ci(correct["A"], correct["B"], n_resamples=10_000, rng=np.random.default_rng(5))
    assert (res.pairs.ci_low[0], res.pairs.ci_high[0]) == tuple(boot.confidence_interval)


def test_auc_pairs_table_has_the_documented_columns():
    rng = np.random.default_rng(13)
    y = np.tile([0, 1], 15)
    table = pd.DataFrame({"label": y, "s1": y + rng.normal(0, 1, 30), "s2": y + rng.normal(0, 2, 30),
                          "s3": rng.normal(0, 1, 30)})
    res = compare_predictions(table, metric="auc")
    assert list(res.pairs.columns) == ["model_a", "model_b", "estimate", "ci_low", "ci_high", "pvalue", "pvalue_holm"]
    assert res.pairs[["model_a", "model_b"]].to_numpy().tolist() == [["s1", "s2"], ["s1", "s3"], ["s2", "s3"]]
    assert res.pairs.pvalue_holm.tolist() == adjust_pvalues(res.pairs.pvalue.to_numpy(), method="holm").tolist()


def test_the_bootstrap_auc_error_ends_with_what_to_do():
    table = pd.DataFrame({"label": [0, 1, 1, 0, 1, 0], "A": np.linspace(0, 1, 6), "B": np.linspace(1, 0, 6)})
    with pytest.raises(TableError, match=r"an AUC needs both classes\. No interval was computed; use DeLong's "
                                         r"interval \(auc_method='delong', the default; --auc-method delong on the "
                                         r"command line\) or add items of the rarer class$"):
        compare_predictions(table, metric="auc", n_resamples=100, rng=0, auc_method="bootstrap")


@pytest.mark.parametrize("seed", [15, 16, 17])  # three seeds: a p-value of 10,000 draws can match by chance
def test_grouped_sign_flips_beyond_the_exact_limits_draw_from_the_one_generator(seed):
    from sigeval import paired_permutation_test

    # 342 groups whose differences have the magnitudes 1, ..., 342: too much work for the exact convolution
    # (342 x 58,654 > 2e7) and too many for the enumeration, so the p-value takes 10,000 draws of the signs,
    # from the generator the bootstraps used before it.
    k = 342
    sizes = np.arange(1, k + 1)
    signs = np.where(np.random.default_rng(14).random(k) < 0.5, 1, -1)
    a = np.repeat(signs > 0, sizes).astype(int)
    table = pd.DataFrame({"A": a, "B": 1 - a, "g": np.repeat(np.arange(k), sizes)})
    res = compare_predictions(table, label=None, groups="g", n_resamples=20, rng=seed, progress=False)
    gen = np.random.default_rng(seed)
    codes = table.g.to_numpy()
    for m in "AB":
        bootstrap_ci(table[m].to_numpy(float), groups=codes, n_resamples=20, rng=gen)
    paired_bootstrap_ci(a.astype(float), 1.0 - a, groups=codes, n_resamples=20, rng=gen)
    ref = paired_permutation_test(np.bincount(codes, a), np.bincount(codes, 1 - a), rng=gen)
    assert 0.01 < ref.pvalue < 0.99 and res.pairs.pvalue[0] == ref.pvalue

"""sigeval.readers: CSV files of runs and predictions, read as pandas reads them, checked, rows indexed by line."""

import codecs
import csv
import io
import os

import numpy as np
import pandas as pd
import pytest

from sigeval import Report, compare_predictions, read_csv_table, read_runs_csv

RUNS = "task,model,seed,score\n" + "".join(
    f"t{t},{m},{s},{0.8 + 0.01 * s + 0.02 * t + (0.015 if m == 'A' else 0.0):.4f}\n"
    for t in range(2) for m in "AB" for s in range(3)
)


def _write(tmp_path, name, content):
    path = tmp_path / name
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


def _lines_by_hand(text):
    """The line each data row starts on, counted character by character (quotes may hold line breaks)."""
    starts, line, quoted, at_start, blank = [], 1, False, True, True
    for ch in text:
        if at_start:
            starts.append(line)
            at_start, blank = False, True
        if ch == '"':
            quoted = not quoted
        if ch == "\n" and not quoted:
            if blank:
                starts.pop()  # an empty or blank line is no row
            at_start = True
        elif not ch.isspace():
            blank = False
        if ch == "\n":
            line += 1
    if not at_start and blank:
        starts.pop()
    return starts[1:]  # the first row is the header


# --------------------------------------------------------------------------- read_csv_table


@pytest.mark.parametrize("sep", [",", ";", "\t", "|"])
@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "utf-16"])
def test_a_table_reads_as_pandas_reads_it_given_the_delimiter_and_the_encoding(tmp_path, sep, encoding):
    frame = pd.DataFrame({"label": [0, 1, 2, 1], "model é": ["a", "b", "c", "d"], "score": [0.5, 0.25, 1e-3, -2.0]})
    text = frame.to_csv(index=False, sep=sep)
    path = _write(tmp_path, "t.csv", text.encode(encoding))  # utf-8-sig and utf-16 write their byte-order mark
    table = read_csv_table(path)
    expected = pd.read_csv(path, sep=sep, encoding=encoding)
    pd.testing.assert_frame_equal(table.reset_index(drop=True), expected)
    assert table.index.name == "line" and table.index.tolist() == [2, 3, 4, 5]
    pd.testing.assert_frame_equal(read_csv_table(path, sep=sep), table)


def test_the_delimiter_is_the_one_that_splits_the_header_most_a_comma_on_a_tie(tmp_path):
    assert read_csv_table(_write(tmp_path, "a.csv", "a;b,c;d\n1;2,3;4\n")).columns.tolist() == ["a", "b,c", "d"]
    assert read_csv_table(_write(tmp_path, "b.csv", "a;b,c\n1;2,3\n")).columns.tolist() == ["a;b", "c"]
    assert read_csv_table(_write(tmp_path, "c.csv", "score\n1\n2\n")).columns.tolist() == ["score"]
    # A quoted name holding the other delimiter does not count for it.
    quoted = read_csv_table(_write(tmp_path, "d.csv", 'x,"a;b;c"\n1,2\n'))
    assert quoted.columns.tolist() == ["x", "a;b;c"]
    # The first rows must agree with the header: a name with a semicolon in a comma file.
    assert read_csv_table(_write(tmp_path, "f.csv", "x,y;z\n1,2\n3,4\n")).columns.tolist() == ["x", "y;z"]
    # Given, the delimiter is used as it is.
    assert read_csv_table(_write(tmp_path, "e.csv", "a;b,c\n1;2,3\n"), sep=";").columns.tolist() == ["a", "b,c"]


def test_rows_are_indexed_by_the_line_they_start_on(tmp_path):
    text = 'id,note,score\n1,plain,0.5\n\n2,"two\nlines",0.25\n   \n3,"a ""quote""",0.75\n4,last,1.0'
    table = read_csv_table(_write(tmp_path, "n.csv", text))
    assert table.index.tolist() == _lines_by_hand(text) == [2, 4, 7, 8]
    assert table.note.tolist() == ["plain", "two\nlines", 'a "quote"', "last"]
    pd.testing.assert_frame_equal(table.reset_index(drop=True), pd.read_csv(io.StringIO(text)))
    # Windows line ends and a blank last line count the same.
    crlf = read_csv_table(_write(tmp_path, "w.csv", "a,b\r\n1,2\r\n\r\n3,4\r\n\r\n"))
    assert crlf.index.tolist() == [2, 4] and crlf.b.tolist() == [2, 4]
    # And so do the carriage returns alone of old Macintosh files.
    mac = read_csv_table(_write(tmp_path, "m.csv", "a;b\r1;2\r\r3;4\r"))
    assert mac.index.tolist() == [2, 4] and mac.b.tolist() == [2, 4]


@pytest.mark.parametrize("content, message", [
    ("", r"e\.csv: the file is empty$"),
    ("label,A,B\n", r"e\.csv: the file has a header but no rows$"),
    ("task,model,score,score\nt,A,0,1\n", r"e\.csv, line 1: column 'score' appears 2 times \(columns 3, 4\); each "
     r"column needs its own name \(pandas would rename the repeats silently\)$"),
    ("run,run,result\ntask,model,score\nt,A,1\n", r"line 1: column 'run' appears 2 times.*\. Line 2 \(task, model, "
     r"score\) looks like a second header row, as pandas writes a two-level \(MultiIndex\) header: keep one header row$"),
    ("a,b,c\n1,2,3\n1,2,0,83\n", r"e\.csv, line 3: 4 fields where the header \(line 1\) has 3: a decimal comma "
     r"\('0,83'\)\? Write decimals with a point \(0\.83\)$"),
    ("a,b,c\n1,2,3\n\nx,y,z,w,v\n", r"e\.csv, line 4: 5 fields where the header \(line 1\) has 3$"),
    ("a,b\n1,x,3\n4,y,6\n", r"e\.csv, line 2: 3 fields where the header \(line 1\) has 2$"),
    (b"a,b\n1,\xff\n", r"e\.csv: not a readable CSV file \(byte 6 is not UTF-8 text\)$"),
    (codecs.BOM_UTF16_LE + b"a\x00,\x00b\x00\n\x00\x00\xd8", r"e\.csv: not a readable CSV file \(byte \d+ is not "
     r"UTF-16 text\)$"),
])
def test_what_pandas_would_read_wrongly_is_refused_naming_the_file_and_line(tmp_path, content, message):
    path = _write(tmp_path, "e.csv", content)
    with pytest.raises(ValueError, match=message):
        read_csv_table(path)


def test_a_decimal_comma_is_a_hint_only_where_a_comma_splits_fields(tmp_path):
    with pytest.raises(ValueError, match=r"line 2: 4 fields where the header \(line 1\) has 3$"):
        read_csv_table(_write(tmp_path, "s.csv", "a;b;c\n1;2;3;4\n"))


def test_missing_files_folders_and_unreadable_files_are_os_errors_naming_the_path(tmp_path, monkeypatch):
    with pytest.raises(FileNotFoundError, match=r"^.*nothing\.csv: no such file$"):
        read_csv_table(tmp_path / "nothing.csv")
    with pytest.raises(IsADirectoryError, match=r": is a directory, not a CSV file$"):
        read_csv_table(tmp_path)
    path = _write(tmp_path, "locked.csv", RUNS)
    real = io.open

    def refused(file, *args, **kwargs):
        if str(file) == str(path):
            raise PermissionError(13, "Permission denied", str(file))
        return real(file, *args, **kwargs)

    monkeypatch.setattr(io, "open", refused)
    with pytest.raises(OSError) as error:
        read_csv_table(path)
    assert str(error.value) == f"{path}: cannot read the file (Permission denied)"


@pytest.mark.parametrize("bad, match", [(dict(path=3), "`path`"), (dict(path=None), "`path`"),
                                        (dict(sep=";;"), "`sep`"), (dict(sep=1), "`sep`")])
def test_bad_arguments_are_type_errors_naming_them(tmp_path, bad, match):
    with pytest.raises(TypeError, match=match):
        read_csv_table(**{"path": _write(tmp_path, "r.csv", RUNS), **bad})


def test_ambiguous_quotes_are_refused_rather_than_misnumbered(tmp_path, monkeypatch):
    import sigeval.readers as readers

    path = _write(tmp_path, "q.csv", 'a,b\n"x\n1",2\n')
    monkeypatch.setattr(readers, "_records", lambda text, sep: iter([(1, ["a", "b"])]))
    with pytest.raises(ValueError, match=r"q\.csv: the quotes of the file are ambiguous: Python's csv module reads 0 "
                                         r"rows where pandas reads 1"):
        read_csv_table(path)


def test_the_records_are_those_of_the_csv_module(tmp_path):
    text = 'a,b\n1,"x\n\ny"\n\n2,z\n'
    rows = list(csv.reader(io.StringIO(text)))
    assert rows == [["a", "b"], ["1", "x\n\ny"], [], ["2", "z"]]
    assert read_csv_table(_write(tmp_path, "r.csv", text)).index.tolist() == [2, 6]


# --------------------------------------------------------------------------- read_runs_csv


def test_runs_are_read_for_report(tmp_path):
    path = _write(tmp_path, "runs.csv", RUNS)
    table = read_runs_csv(path)
    pd.testing.assert_frame_equal(table.reset_index(drop=True), pd.read_csv(path))
    pd.testing.assert_frame_equal(Report(table).pairwise(), Report(pd.read_csv(path)).pairwise())
    renamed = _write(tmp_path, "other.csv", RUNS.replace("task,model,seed,score", "dataset;method;run;acc")
                     .replace(",", ";"))
    table = read_runs_csv(renamed, task="dataset", model="method", seed="run", score="acc")
    assert table.columns.tolist() == ["dataset", "method", "run", "acc"]
    report = Report(table, task="dataset", model="method", seed="run", score="acc")
    pd.testing.assert_frame_equal(report.pairwise(), Report(pd.read_csv(path)).pairwise())


def test_an_empty_score_is_a_failed_run_left_to_report(tmp_path):
    path = _write(tmp_path, "f.csv", RUNS.replace("0.8150\n", "\n", 1))
    table = read_runs_csv(path)
    assert table.score.isna().sum() == 1
    assert len(Report(table, failed="drop-pairs").failed_runs) == 1


@pytest.mark.parametrize("edit, message", [
    (lambda text: text.replace("0.8250", "high", 1), r"r\.csv, line 3: column 'score' holds 'high', not a number$"),
    (lambda text: text.replace("0.8250", '"0,8250"', 1),
     r"r\.csv, line 3: column 'score' holds '0,8250', not a number \(a decimal comma\? write 0\.8250\)$"),
    (lambda text: text.replace("0.8250", "inf", 1).replace("0.8350", "-inf", 1),
     r"r\.csv, lines 3, 4: column 'score' holds an infinite score$"),
    # A blank line above the bad score: the line is the file's, not the row's position plus 2.
    (lambda text: text.replace("\n", "\n\n", 1).replace("0.8250", "high", 1), r"r\.csv, line 4: column 'score'"),
    (lambda text: text.replace("seed", "run", 1), r"r\.csv: no column 'seed' for the seeds \(the columns are 'task', "
     r"'model', 'run', 'score'\)$"),
])
def test_a_bad_score_or_a_missing_column_names_the_file_and_line(tmp_path, edit, message):
    path = _write(tmp_path, "r.csv", edit(RUNS))
    with pytest.raises(ValueError, match=message):
        read_runs_csv(path)


def test_predictions_read_here_compare_as_the_frame_they_came_from(tmp_path):
    rng = np.random.default_rng(0)
    frame = pd.DataFrame({"label": rng.integers(0, 3, 40), "A": rng.integers(0, 3, 40), "B": rng.integers(0, 3, 40)})
    path = _write(tmp_path, "p.csv", frame.to_csv(index=False, sep=";"))
    read = compare_predictions(read_csv_table(path), n_resamples=200, rng=1)
    direct = compare_predictions(frame, n_resamples=200, rng=1)
    pd.testing.assert_frame_equal(read.pairs, direct.pairs)
    pd.testing.assert_frame_equal(read.per_model, direct.per_model)


def test_the_path_may_be_text_or_a_path(tmp_path):
    path = _write(tmp_path, "r.csv", RUNS)
    pd.testing.assert_frame_equal(read_runs_csv(str(path)), read_runs_csv(path))
    pd.testing.assert_frame_equal(read_csv_table(os.fspath(path)), read_csv_table(path))


# --------------------------------------------------------------------------- the delimiter, lines and messages at the edges


@pytest.mark.parametrize("name, content, columns, lines", [
    # A quoted field holding ';' is one field: ';' still splits every row as the header, although '|' splits them too.
    ("quoted", 'a;b;c|d\n"p;q";r;s|t\n"u;v";w;x|y\n', ["a", "b", "c|d"], [2, 3]),
    # Windows line ends: the last row is read whole, and its extra comma rules the comma out.
    ("crlf", "a,b;c\r\nx,y;z\r\nx,y,w;z\r\n", ["a,b", "c"], [2, 3]),
    # Beyond the 21 lines read, the last one may be cut: it is left out, the others are read.
    ("long header", "a;b;c,d\n" + "x,y\n" * 25, ["a;b;c", "d"], [2, 3, 4, 5, 6]),
    ("line 20", "a,b;c\n" + "x,y;z\n" * 18 + "x,y,w;z\n" + "x,y;z\n" * 10, ["a,b", "c"], [2, 3, 4, 5, 6]),
    # A quoted text of many lines (a model's answer): cut by the 21 lines, it is left out of the choice.
    ("long text", 'a;b\n"' + "\n".join(f"line {i}" for i in range(25)) + '";5\nx;6\n', ["a", "b"], [2, 27]),
    # Blank lines after the header: the header alone chooses.
    ("blank lines", "a;b\n" + "\n" * 25 + "x;1\n", ["a", "b"], [27]),
    # A bare carriage return ends a line, as the csv module reads it, after a blank line.
    ("bare CR", "a,b\n\nx,1\ry,2\n", ["a", "b"], [3, 4]),
    # A quoted text cut by the 21 lines, whose lines ';' splits as it splits the header: the text's record is left out
    # (inside its quotes it has 2 fields where the header has 3), so ',' splits the rest as the header.
    ("cut text, rival", 'a,b;c,d\n1,"' + "\n".join(["x;y"] * 25) + '",2\n', ["a", "b;c", "d"], [2]),
    # One column: no delimiter on any line.
    ("one column", "a\n1\n2\n", ["a"], [2, 3]),
    # Blank lines before the header: lines are counted from the file's first.
    ("blank first", "\n\na;b\nx;1\n", ["a", "b"], [4]),
    # A field over the csv module's limit (128 KiB), which pandas reads: the records before it choose, not the
    # delimiters that cut the long field into short ones.
    ("long field", "a,b\n1," + "x;" * 70_000 + "\n2,y\n", ["a", "b"], [2, 3]),
    ("long field, rival", "a;b\n1;" + "x," * 70_000 + "\n", ["a", "b"], [2]),
    # A quote that ',' opens (and ';' reads as text) runs past the csv module's limit: a delimiter the csv module
    # cannot read ranks below those it can, even those that split nothing.
    ("unreadable", 'x,"y\n' + ("z" * 7_000 + "\n") * 20, ['x,"y'], [2, 3, 4, 5, 6]),
])
def test_the_delimiter_and_the_lines_at_the_edges(tmp_path, name, content, columns, lines):
    table = read_csv_table(_write(tmp_path, "f.csv", content.encode()))
    assert table.columns.tolist() == columns and table.index.tolist()[:5] == lines
    assert table.index.dtype == np.int64 and table.index.name == "line"


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_the_delimiter_is_chosen_from_the_first_rows_and_a_later_row_is_an_error(tmp_path, end):
    # ';' would read every line, ',' the first 21: the lines are counted as the csv module counts them, whatever ends them.
    path = _write(tmp_path, "later.csv", end.join(["a,b;c"] + ["x,y;z"] * 25 + ["x,y,w;z", ""]).encode())
    with pytest.raises(ValueError, match=r"^.*later\.csv, line 27: 3 fields where the header \(line 1\) has 2$"):
        read_csv_table(path)


def test_a_column_holds_one_type_however_long_the_file(tmp_path):
    # pandas reads a long file in chunks by default: the same '1' is then the number 1 above a text cell, '1' below.
    table = read_csv_table(_write(tmp_path, "long.csv", "label,A\n" + "1,1\n" * 300_000 + "cat,1\n1,0\n"))
    assert table["label"].map(type).nunique() == 1 and table["label"].iloc[-1] == table["label"].iloc[0] == "1"
    assert len(table) == 300_002 and table.index[-1] == 300_003


@pytest.mark.parametrize("content, message", [
    # pandas would read the first field as the index, and an index 0, 1, ... equals a default one.
    ("score,model\n0,8620,A\n1,7700,B\n", "{path}, line 2: 3 fields where the header (line 1) has 2: a decimal comma "
     "('0,8620')? Write decimals with a point (0.8620)"),
    # Repeated names, with any delimiter, with or without rows.
    ("a;a;b\n1;2;3\n", "{path}, line 1: column 'a' appears 2 times (columns 1, 2); each column needs its own name "
     "(pandas would rename the repeats silently)"),
    ("a,a\n", "{path}, line 1: column 'a' appears 2 times (columns 1, 2); each column needs its own name (pandas would "
     "rename the repeats silently)"),
    # What pandas cannot read is refused with pandas' reason.
    ('a\n"x\n', "{path}: not a readable CSV file (Error tokenizing data. C error: EOF inside string starting at row 1)"),
    # A row with fewer fields than the header, which pandas would fill with NaN: a line cut short, with or without quotes.
    ("label,A,B\n1,1,0\n1,1\n0,0,1\n", "{path}, line 3: 2 fields where the header (line 1) has 3"),
    ('label;A;B\n1;"1"\n0;0;1\n', "{path}, line 2: 2 fields where the header (line 1) has 3"),
    ("a,b\n1,2\n3\n4\n", "{path}, line 3: 1 fields where the header (line 1) has 2"),
    # A short row in a file whose long field the csv module cannot read: the row's line cannot be found.
    ("a,b\n1," + "x" * 140_000 + "\n3\n", "{path}: a row's fields differ in number from the header's"),
    # Blank lines before the header move every line named.
    ("\n\nrun,run\ntask,model\n", "{path}, line 3: column 'run' appears 2 times (columns 1, 2); each column needs its "
     "own name (pandas would rename the repeats silently). Line 4 (task, model) looks like a second header row, as "
     "pandas writes a two-level (MultiIndex) header: keep one header row"),
    ("\n\na,b\n1,2,3\n", "{path}, line 4: 3 fields where the header (line 3) has 2: a decimal comma ('2,3')? Write "
     "decimals with a point (2.3)"),
    # A quoted field over the csv module's limit: pandas reads it, but its lines cannot be counted.
    ('a,b\n1,"' + "x" * 140_000 + '"\n', "{path}: not a readable CSV file (field larger than field limit (131072)): "
     "a quoted field longer than 131,072 characters, the most Python's csv module reads"),
])
def test_refusals_in_full(tmp_path, content, message):
    path = _write(tmp_path, "f.csv", content)
    with pytest.raises(ValueError) as error:
        read_csv_table(path)
    assert str(error.value) == message.format(path=path)


def test_a_path_that_is_not_a_file_name_is_named_by_its_type():
    with pytest.raises(TypeError) as error:
        read_csv_table(3)
    assert str(error.value) == "`path` must be a file name (str or path-like); got int."


def test_runs_are_read_with_the_given_delimiter_and_name_the_missing_column(tmp_path):
    path = _write(tmp_path, "runs.csv", RUNS.replace(",", ";"))
    with pytest.raises(ValueError) as error:
        read_runs_csv(path, sep=",")
    assert str(error.value) == f"{path}: no column 'task' for the tasks (the columns are 'task;model;seed;score')"
    assert read_runs_csv(path, sep=";").shape == (12, 4)
    with pytest.raises(ValueError) as error:
        read_runs_csv(path, model="system")
    assert str(error.value) == (f"{path}: no column 'system' for the models (the columns are 'task', 'model', "
                                "'seed', 'score')")


# --------------------------------------------------------------------------- read_mlflow on a client that stands in for MLflow


class _Page(list):
    token = None


class _Client:
    """What read_mlflow asks of MLflow's client, answered from a list of runs (MLflow's own objects' fields)."""

    tracking_uri = "fake://store"

    def __init__(self, runs, experiments=("Default", "sweep")):
        self.runs, self.experiments = runs, experiments

    def get_experiment_by_name(self, name):
        from types import SimpleNamespace

        return SimpleNamespace(experiment_id="1") if name in self.experiments else None

    def search_experiments(self):
        from types import SimpleNamespace

        return [SimpleNamespace(name=n) for n in self.experiments]

    def search_runs(self, ids, max_results, order_by, page_token):
        # Pages of MLflow's default size, oldest first, as its documentation spells them.
        assert (ids, max_results, order_by, page_token) == (["1"], 1000, ["attributes.start_time ASC"], None)
        return _Page(self.runs)


def _run(i, params, tags=(), metrics=(), status="FINISHED"):
    from types import SimpleNamespace

    return SimpleNamespace(info=SimpleNamespace(run_id=f"r{i}", run_name=f"run-{i}", status=status),
                           data=SimpleNamespace(params=dict(params), tags=dict(tags), metrics=dict(metrics)))


def _read(monkeypatch, runs, experiment="sweep", experiments=("Default", "sweep"), **options):
    from sigeval import read_mlflow, readers

    monkeypatch.setattr(readers, "_mlflow_client", lambda uri: _Client(runs, experiments))
    return read_mlflow(experiment, **({"metric": "acc"} | options))


def test_mlflow_arguments_are_names(monkeypatch):
    for name in ("experiment", "metric", "model", "seed"):
        options = {"experiment": "sweep", "metric": "acc", name: ""}
        with pytest.raises(TypeError) as error:
            _read(monkeypatch, [], **options)
        assert str(error.value) == f"`{name}` must be a name (non-empty text); got ''."
    for task in ("", 3):
        with pytest.raises(TypeError) as error:
            _read(monkeypatch, [], task=task)
        assert str(error.value) == f"`task` must be a name (non-empty text) or None; got {task!r}."


def test_mlflow_names_the_experiments_there_are(monkeypatch):
    for experiments, listed in ((("Default", "sweep"), "'Default', 'sweep'"), ((), "none")):
        with pytest.raises(ValueError) as error:
            _read(monkeypatch, [], experiment="swept", experiments=experiments)
        assert str(error.value) == f"no MLflow experiment named 'swept' at fake://store (the experiments are {listed})."


def test_mlflow_runs_without_the_metric_or_a_field_say_what_they_have(monkeypatch):
    params = {"task": "cifar", "model": "A", "seed": "0"}
    runs = [_run(0, params, metrics={"acc": 0.9}), _run(1, params | {"seed": "1"}, metrics={"loss": 0.3, "f1": 0.8}),
            _run(2, params | {"seed": "2"})]
    table = _read(monkeypatch, runs)
    assert table.error.tolist() == ["", "the run logged no metric 'acc' (it logged 'f1', 'loss')",
                                    "the run logged no metric 'acc' (it logged none)"]
    assert table.seed.tolist() == [0, 1, 2] and table.score.iloc[0] == 0.9
    for role in ("task", "model", "seed"):
        run = _run(0, {k: v for k, v in params.items() if k != role}, tags={"mlflow.user": "me"})
        with pytest.raises(ValueError) as error:
            _read(monkeypatch, [run])
        has = ", ".join(repr(k) for k in sorted(params) if k != role)
        assert str(error.value) == (f"MLflow run r0 ('run-0') has no parameter or tag '{role}' for the {role} (it has "
                                    f"{has}); name the {role}'s parameter with `{role}`")
    with pytest.raises(ValueError) as error:
        _read(monkeypatch, [_run(0, {}, tags={"mlflow.user": "me"})], task=None)
    assert str(error.value).endswith("for the model (it has none); name the model's parameter with `model`")


def test_an_empty_last_field_is_a_field_and_any_one_character_may_delimit(tmp_path):
    table = read_csv_table(_write(tmp_path, "f.csv", "label,A,B\n1,1,\n0,0,1\n"))
    assert table.index.tolist() == [2, 3] and np.isnan(table.B.iloc[0])
    # '§' is two bytes in UTF-8, which pandas' C parser cannot take: read by its Python parser, checked alike.
    table = read_csv_table(_write(tmp_path, "s.csv", 'a§b\n1§2\n"x§y"§4\n'), sep="§")
    assert table.columns.tolist() == ["a", "b"] and table.a.tolist() == ["1", "x§y"] and table.index.tolist() == [2, 3]
    for content, line, n in (("a§b\n1§2\n3\n", 3, 1), ("a§b\n1§2§3\n", 2, 3)):
        path = _write(tmp_path, "s.csv", content)
        with pytest.raises(ValueError) as error:
            read_csv_table(path, sep="§")
        assert str(error.value) == f"{path}, line {line}: {n} fields where the header (line 1) has 2"

"""Files in, the library's tables out: CSV files of runs or predictions, and the logs of evaluation harnesses.

:func:`read_csv_table` reads any CSV file the library takes (a table of
predictions for :func:`~sigeval.predictions.compare_predictions`, a table of
runs for :class:`~sigeval.report.Report`) and refuses what pandas would read
wrongly without a word: a column name used twice (pandas renames the second
``a.1``), a row with more fields than the header (pandas would make the first
column the index), a decimal comma that splits a number in two. It finds the
delimiter (comma, semicolon, tab or bar) and the encoding (UTF-8, with or
without a byte-order mark as Excel writes it, or UTF-16 with its mark), and
indexes the rows by their line in the file, so that a row named in an error
can be found in an editor. :func:`read_runs_csv` adds the checks of a table
of runs: its four columns are there, and every score is a number or empty
(a failed run), never text or an infinity. ``sigeval compare`` and
``sigeval runs`` read their files with these functions.

Your harness's logs, likewise, each into one of the library's tables, so that
the comparison is a library call rather than a script:

- :func:`read_lm_eval` reads the ``--log_samples`` output of
  lm-evaluation-harness 0.4.x and :func:`read_inspect` the evaluation logs of
  Inspect AI, into one row per (model, task, item, sample, metric) with the
  score as a number, for :func:`~sigeval.predictions.compare_items`;
- :func:`read_mlflow` reads the runs of an MLflow experiment into the table
  of runs (task, model, seed, score) that :class:`~sigeval.report.Report` takes.

Nothing is dropped: a failed or killed run, an errored or invalidated
sample, is kept with a NaN score and the reason in the ``error`` column (the
comparison and ``Report`` then refuse it or list it); a repeated item is
refused with the two places it was found; a file that is not what the reader
expects is refused with its name and the line (or the sample) at fault. Items
are matched by their id, never by their order in a file, and the ids one
model has and another lacks are reported by the comparison.
``read_lm_eval`` needs nothing beyond the statistics core; ``read_inspect``
needs the ``inspect`` extra (``pip install 'sigeval[inspect]'``),
``read_mlflow`` the ``mlflow`` extra.

Every error names the file, and the line where there is one
(``runs.csv, line 4: ...``). Explained in :ref:`ch-own-results` (CSV files)
and :ref:`ch-generative` (harness logs).
"""

from __future__ import annotations

import codecs
import collections
import csv
import io
import itertools
import os
import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._harness_logs import (
    read_inspect,
    read_lm_eval,
)
from ._validation import TableError, check_numeric_column, row_list

__all__ = ["read_csv_table", "read_runs_csv", "read_lm_eval", "read_inspect", "read_mlflow"]

#: The delimiters a file may use, in the order that breaks a tie (a header with one field reads as commas).
DELIMITERS = (",", ";", "\t", "|")
#: The lines read to find the delimiter: the header and the first rows.
_SNIFFED_LINES = 21


def read_csv_table(path: str | os.PathLike, *, sep: str | None = None) -> pd.DataFrame:
    r"""A CSV file as a DataFrame, each row indexed by its line in the file, or an error naming the line.

    The header (the first line that is not blank) names the columns, one name per column. The
    delimiter is ``sep``, or the one of ``,`` ``;`` tab ``|`` that splits the
    header into the most fields and the first 20 rows into as many (a comma on
    a tie); the encoding is UTF-8, or
    what the file's byte-order mark says (UTF-8 with a mark, as Excel saves
    "CSV UTF-8"; UTF-16). Blank lines are skipped, as pandas skips them. A
    column holds one type (the file is read whole, not in chunks). A field
    may be longer than the csv module's limit (128 KiB) only outside quotes.

    Parameters
    ----------
    path : str or path-like
        The file.
    sep : str, optional
        The delimiter, one character; by default found from the header.

    Returns
    -------
    pandas.DataFrame
        The columns as ``pandas.read_csv`` types them, the index named
        ``line``: the line of the file on which each row starts (the first row
        is on line 2 when the file starts with its header).

    Raises
    ------
    FileNotFoundError, IsADirectoryError, OSError
        No such file, a folder, or a file that cannot be read (the message
        names the path).
    ValueError
        An empty file, a header without rows, a column name used twice, a
        row with more or fewer fields than the header (with the decimal comma
        that split a number, if there is one), bytes that are not text in the
        encoding; the message names the file and the line. A quoted field over
        128 KiB, whose line the csv module cannot find; the message names the
        file and the limit.
    TypeError
        ``path`` not a file name, ``sep`` not one character.

    Notes
    -----
    Explained in :ref:`ch-own-results`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from sigeval import read_csv_table
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "predictions.csv"
    >>> _ = file.write_text("label;A;B\n1;1;0\n\n0;0;0\n")
    >>> table = read_csv_table(file)
    >>> table.columns.tolist(), table.index.tolist()
    (['label', 'A', 'B'], [2, 4])
    """
    if not isinstance(path, str | os.PathLike):
        raise TypeError(f"`path` must be a file name (str or path-like); got {type(path).__name__}.")
    if sep is not None and (not isinstance(sep, str) or len(sep) != 1):
        raise TypeError(f"`sep` must be None (found from the header) or one character such as ';'; got {sep!r}.")
    text = _text(Path(path), str(path))
    sep = sep or _delimiter(text)
    try:
        _check_header(_leading_records(text, sep, 2), str(path))
        with warnings.catch_warnings():
            # Rows with more fields than the header: by default pandas would read the first column as the index
            # (silently, and as a RangeIndex when it counts 0, 1, 2, ...); without an index it warns, an error here.
            warnings.simplefilter("error", pd.errors.ParserWarning)
            # Read whole, one type per column (in chunks, '1' may read as 1 above a text cell and '1' below); pandas'
            # C parser takes a delimiter of one byte only, its Python parser (whole too) any other character.
            whole = {"low_memory": False} if len(sep.encode()) == 1 else {"engine": "python"}
            table = pd.read_csv(io.StringIO(text), sep=sep, index_col=False, **whole)
        if table.empty:
            raise ValueError(f"{path}: the file has a header but no rows")
        table.index = pd.Index(_record_lines(text, sep, len(table), str(path)), name="line")
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the file is empty") from None
    except csv.Error as err:  # pandas read the file; the csv module met a quoted field over its limit
        raise ValueError(f"{path}: not a readable CSV file ({err}): a quoted field longer than "
                         f"{csv.field_size_limit():,} characters, the most Python's csv module reads") from None
    except (pd.errors.ParserError, pd.errors.ParserWarning) as err:
        raise _shifted(text, str(path), sep) or ValueError(
            f"{path}: not a readable CSV file ({str(err).splitlines()[0]})"
        ) from None
    return table


def read_runs_csv(
    path: str | os.PathLike,
    *,
    task: Any = "task",
    model: Any = "model",
    seed: Any = "seed",
    score: Any = "score",
    sep: str | None = None,
) -> pd.DataFrame:
    r"""A CSV file of runs (task, model, seed, score), checked, for :class:`~sigeval.report.Report`.

    :func:`read_csv_table`, then: the four columns are in the header, and
    every score is a number or an empty cell (a failed run, which ``Report``
    lists), never text (a decimal comma, ``"high"``) or an infinity. The other
    checks of a table of runs (pairs, duplicates, failed runs) are
    ``Report``'s.

    Parameters
    ----------
    path : str or path-like
        The file.
    task, model, seed, score : str
        The names of the four columns, as :class:`~sigeval.report.Report` takes them.
    sep : str, optional
        As in :func:`read_csv_table`.

    Returns
    -------
    pandas.DataFrame
        Every column of the file, rows indexed by line (:func:`read_csv_table`).

    Raises
    ------
    ValueError
        What :func:`read_csv_table` raises, a missing column, or a score that is
        text or infinite; the message names the file and the line.

    Notes
    -----
    Explained in :ref:`ch-own-results`.

    Examples
    --------
    >>> import tempfile, pathlib
    >>> from sigeval import Report, read_runs_csv
    >>> file = pathlib.Path(tempfile.mkdtemp()) / "runs.csv"
    >>> _ = file.write_text("task,model,seed,score\nt,A,0,0.81\nt,A,1,0.83\nt,B,0,0.79\nt,B,1,0.80\n")
    >>> Report(read_runs_csv(file))
    Report(1 task(s), 2 models, 2 seeds per task, 0 failed run(s))
    >>> _ = file.write_text("task,model,seed,score\nt,A,0,0.81\nt,A,1,high\n")
    >>> read_runs_csv(file)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: ...runs.csv, line 3: column 'score' holds 'high', not a number
    """
    table = read_csv_table(path, sep=sep)
    for column, what in ((task, "tasks"), (model, "models"), (seed, "seeds"), (score, "scores")):
        if column not in table.columns:
            raise ValueError(f"{path}: no column {column!r} for the {what} (the columns are "
                             f"{', '.join(map(repr, table.columns))})")
    try:
        values = check_numeric_column(table, score)
        if np.isinf(values).any():
            raise TableError(np.flatnonzero(np.isinf(values)), f"column {score!r} holds an infinite score")
    except TableError as err:
        raise ValueError(f"{path}, {row_list(table.index[err.rows].to_numpy(), word='line')}: {err.detail}") from None
    return table


# --------------------------------------------------------------------------- the file's text


def _text(file: Path, path: str) -> str:
    """The file's text, decoded as its byte-order mark says (UTF-8 without one)."""
    if not file.exists():
        raise FileNotFoundError(f"{path}: no such file")
    if file.is_dir():
        raise IsADirectoryError(f"{path}: is a directory, not a CSV file")
    try:
        data = file.read_bytes()
    except OSError as err:  # permission denied, an I/O error, a special file
        raise OSError(f"{path}: cannot read the file ({err.strerror or err})") from None
    encoding = "utf-8"
    if data.startswith(codecs.BOM_UTF8):
        encoding = "utf-8-sig"
    elif data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        encoding = "utf-16"
    try:
        return data.decode(encoding)
    except UnicodeDecodeError as err:
        what = "UTF-16" if encoding == "utf-16" else "UTF-8"
        raise ValueError(f"{path}: not a readable CSV file (byte {err.start} is not {what} text)") from None


def _delimiter(text: str) -> str:
    """The delimiter that splits the header into the most fields and the first rows into as many (quotes respected).

    When no delimiter splits the first rows as it splits the header (a decimal comma, a row too long), the one
    that splits the header most, so that the error names the line; a comma on a tie.
    """
    sample = "".join(itertools.islice(io.StringIO(text, newline=""), _SNIFFED_LINES))
    scores = {}
    for sep in DELIMITERS:
        rows = [row for _, row in _leading_records(sample, sep)]
        if len(sample) < len(text) and len(rows) > 1:
            rows.pop()  # the sample may end inside the last record
        width = len(rows[0]) if rows else 0
        scores[sep] = (width > 1 and all(len(row) == width for row in rows[1:]), width)
    return max(DELIMITERS, key=lambda sep: (*scores[sep], -DELIMITERS.index(sep)))


def _records(text: str, sep: str) -> Iterator[tuple[int, list[str]]]:
    """Each record of the file with the line it starts on; blank lines (empty or spaces) skipped, as pandas skips them."""
    reader = csv.reader(io.StringIO(text, newline=""), delimiter=sep)
    end = 0
    for row in reader:
        start, end = end + 1, reader.line_num
        if row and not (len(row) == 1 and not row[0].strip()):
            yield start, row


def _leading_records(text: str, sep: str, n: int | None = None) -> list[tuple[int, list[str]]]:
    """The first ``n`` records (all if None) with their lines, up to a field over the csv module's limit (128 KiB;
    pandas has none)."""
    rows: list[tuple[int, list[str]]] = []
    try:
        rows.extend(itertools.islice(_records(text, sep), n))
    except csv.Error:
        pass
    return rows


def _record_lines(text: str, sep: str, n_rows: int, path: str) -> np.ndarray:
    """The line on which each of the ``n_rows`` rows starts (blank lines before the header counted), each row
    checked to hold as many fields as the header (pandas fills a short row with NaN silently)."""
    if (sep.isascii() and '"' not in text and "\r" not in text
            and text.count("\n") + (not text.endswith("\n")) == n_rows + 1):
        # One record per line, no quotes: each line's fields are its delimiters plus one, counted at once.
        data = np.frombuffer(text.encode(), dtype=np.uint8)
        line_of_sep = np.searchsorted(np.flatnonzero(data == ord("\n")), np.flatnonzero(data == ord(sep)))
        widths = np.bincount(line_of_sep, minlength=n_rows + 1) + 1
        lines = np.arange(1, n_rows + 2)
    else:
        records = np.array([(start, len(row)) for start, row in _records(text, sep)], dtype=np.int64).reshape(-1, 2)
        lines, widths = records[:, 0], records[:, 1]
        if lines.size != n_rows + 1:  # pandas and the csv module part the records differently (exotic quoting)
            raise ValueError(f"{path}: the quotes of the file are ambiguous: Python's csv module reads {lines.size - 1} "
                             f"rows where pandas reads {n_rows}; quote every field that holds a quote or a line break")
    if (widths != widths[0]).any():
        raise _shifted(text, path, sep) or ValueError(f"{path}: a row's fields differ in number from the header's")
    return lines[1:]


def _check_header(records: list[tuple[int, list[str]]], path: str) -> None:
    """Refuse repeated column names (pandas renames the second ``a.1``), saying if the next record is a second header."""
    if not records:
        return
    line, header = records[0][0], [name.strip() for name in records[0][1]]
    counts = collections.Counter(header)
    repeated = [name for name in counts if counts[name] > 1]
    if not repeated:
        return
    name = repeated[0]
    where = ", ".join(str(i + 1) for i, h in enumerate(header) if h == name)
    message = (f"{path}, line {line}: column {name!r} appears {counts[name]} times (columns {where}); "
               "each column needs its own name (pandas would rename the repeats silently)")
    second = [field.strip() for field in records[1][1]] if len(records) > 1 else []
    if second and len(set(second)) == len(second) and not any(_is_number(field) for field in second):
        message += (f". Line {records[1][0]} ({', '.join(second)}) looks like a second header row, as pandas writes a "
                    "two-level (MultiIndex) header: keep one header row")
    raise ValueError(message)


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


def _shifted(text: str, path: str, sep: str) -> ValueError | None:
    """The first line with more or fewer fields than the header, and a decimal comma on it if there is one."""
    try:
        records = _records(text, sep)
        line, header = next(records, (0, []))
        for number, row in records:
            if len(row) != len(header):
                comma = _decimal_comma(row) if len(row) > len(header) and sep == "," else None
                hint = f": a decimal comma ({comma!r})? Write decimals with a point ({comma.replace(',', '.')})" if comma else ""
                return ValueError(f"{path}, line {number}: {len(row)} fields where the header (line {line}) has "
                                  f"{len(header)}{hint}")
    except csv.Error:
        return None
    return None


# --------------------------------------------------------------------------- MLflow


def _mlflow_client(tracking_uri: str | None) -> Any:
    try:
        from mlflow.tracking import MlflowClient
    except ImportError as err:
        raise ImportError(
            f"read_mlflow needs MLflow, which is not installed ({err}): pip install 'sigeval[mlflow]'"
        ) from None
    return MlflowClient(tracking_uri=tracking_uri)


def _all_runs(client: Any, experiment_id: str) -> list:
    """Every run of the experiment, page after page, oldest first."""
    runs, token = [], None
    while True:
        page = client.search_runs([experiment_id], max_results=1000, order_by=["attributes.start_time ASC"],
                                  page_token=token)
        runs += list(page)
        token = page.token
        if not token:
            return runs


def _field(run: Any, name: str, role: str) -> str:
    """A run's ``name`` from its parameters, else its tags; an error naming the run if neither holds it."""
    if name in run.data.params:
        return run.data.params[name]
    if name in run.data.tags:
        return run.data.tags[name]
    shown = ", ".join(map(repr, sorted(run.data.params) + sorted(t for t in run.data.tags if not t.startswith("mlflow."))))
    raise ValueError(
        f"MLflow run {run.info.run_id} ({run.info.run_name!r}) has no parameter or tag {name!r} for the {role} "
        f"(it has {shown or 'none'}); name the {role}'s parameter with `{role}`"
    )


def _seeds(values: list[str]) -> list:
    """Parameters are text: seeds that are all whole numbers become ints, so that they sort and print as numbers."""
    try:
        return [int(v) for v in values]
    except ValueError:
        return values


def read_mlflow(
    experiment: str,
    *,
    metric: str,
    tracking_uri: str | None = None,
    task: str | None = "task",
    model: str = "model",
    seed: str = "seed",
) -> pd.DataFrame:
    r"""The runs of an MLflow experiment as the table of runs that :class:`~sigeval.report.Report` takes.

    Every run of the experiment (deleted runs excepted, as MLflow lists them)
    gives one row: its task, model and seed, each read from the run's
    parameter of that name or, failing that, its tag; its score, the last
    value of ``metric`` the run logged. A run that did not finish (MLflow's
    status ``FAILED``, ``KILLED``, or still ``RUNNING`` or ``SCHEDULED``) or
    that logged no ``metric`` is kept with a NaN score and the reason in
    ``error``: ``Report`` lists it among its failed runs (and refuses it unless
    told ``failed="drop-pairs"``), never drops it.

    Parameters
    ----------
    experiment : str
        The experiment's name.
    metric : str
        The metric that scores a run (its last logged value).
    tracking_uri : str, optional
        Where the runs are stored (``sqlite:///mlflow.db``, a server's URL, a
        folder); by default MLflow's own (``MLFLOW_TRACKING_URI``).
    task : str or None
        The parameter (or tag) naming the task; None when the experiment is
        one task, which then takes the experiment's name.
    model, seed : str
        The parameters (or tags) naming the model and the seed.

    Returns
    -------
    pandas.DataFrame
        ``task``, ``model``, ``seed`` (whole numbers as ints), ``score``, then
        ``status`` (MLflow's), ``error`` (empty, or why the score is NaN),
        ``run_id`` and ``run_name``; in the order the runs started.

    Raises
    ------
    ImportError
        MLflow is not installed (the ``mlflow`` extra).
    ValueError
        No experiment of that name (the message lists those there are), an
        experiment without runs, or a run without the parameter or tag for the
        task, the model or the seed (the message names the run).

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    Four runs logged through MLflow's client in a local store, one of them failed:

    >>> import pathlib, tempfile
    >>> from mlflow.tracking import MlflowClient
    >>> from sigeval import read_mlflow
    >>> folder = pathlib.Path(tempfile.mkdtemp())
    >>> uri = f"sqlite:///{folder / 'mlflow.db'}"
    >>> client = MlflowClient(tracking_uri=uri)
    >>> sweep = client.create_experiment("sweep", artifact_location=(folder / "artifacts").as_uri())
    >>> for model, seed, accuracy, status in [("A", 0, 0.91, "FINISHED"), ("A", 1, 0.90, "FINISHED"),
    ...                                       ("B", 0, 0.88, "FINISHED"), ("B", 1, 0.89, "FAILED")]:
    ...     run = client.create_run(sweep, tags={"model": model})
    ...     _ = client.log_param(run.info.run_id, "seed", seed)
    ...     client.log_metric(run.info.run_id, "val_acc", accuracy)
    ...     client.set_terminated(run.info.run_id, status=status)
    >>> read_mlflow("sweep", metric="val_acc", tracking_uri=uri, task=None)[["model", "seed", "score", "status"]]
      model  seed  score    status
    0     A     0   0.91  FINISHED
    1     A     1   0.90  FINISHED
    2     B     0   0.88  FINISHED
    3     B     1    NaN    FAILED
    """
    for value, name in ((experiment, "experiment"), (metric, "metric"), (model, "model"), (seed, "seed")):
        if not isinstance(value, str) or not value:
            raise TypeError(f"`{name}` must be a name (non-empty text); got {value!r}.")
    if task is not None and (not isinstance(task, str) or not task):
        raise TypeError(f"`task` must be a name (non-empty text) or None; got {task!r}.")
    client = _mlflow_client(tracking_uri)
    found = client.get_experiment_by_name(experiment)
    if found is None:
        names = [e.name for e in client.search_experiments()]
        raise ValueError(f"no MLflow experiment named {experiment!r} at {client.tracking_uri} (the experiments are "
                         f"{', '.join(map(repr, names)) or 'none'}).")
    runs = _all_runs(client, found.experiment_id)
    if not runs:
        raise ValueError(f"MLflow experiment {experiment!r} holds no runs.")
    rows = []
    for run in runs:
        status = run.info.status
        value = run.data.metrics.get(metric)
        if status != "FINISHED":
            error = f"the run's MLflow status is {status}"
        elif value is None:
            logged = ", ".join(map(repr, sorted(run.data.metrics))) or "none"
            error = f"the run logged no metric {metric!r} (it logged {logged})"
        else:
            error = ""
        rows.append({
            "task": experiment if task is None else _field(run, task, "task"),
            "model": _field(run, model, "model"),
            "seed": _field(run, seed, "seed"),
            "score": float(value) if value is not None and not error else np.nan,
            "status": status,
            "error": error,
            "run_id": run.info.run_id,
            "run_name": run.info.run_name,
        })
    table = pd.DataFrame(rows)
    table["seed"] = _seeds(table.seed.tolist())
    return table

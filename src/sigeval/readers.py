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
import json
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlparse

import numpy as np
import pandas as pd

from ._validation import TableError, check_numeric_column, row_list

__all__ = ["read_csv_table", "read_runs_csv", "read_lm_eval", "read_inspect", "read_mlflow"]

#: The delimiters a file may use, in the order that breaks a tie (a header with one field reads as commas).
DELIMITERS = (",", ";", "\t", "|")
#: The lines read to find the delimiter: the header and the first rows.
_SNIFFED_LINES = 21


def read_csv_table(path: str | os.PathLike, *, sep: str | None = None) -> pd.DataFrame:
    r"""A CSV file as a DataFrame, each row indexed by its line in the file, or an error naming the line.

    The header (line 1) names the columns, one name per column. The
    delimiter is ``sep``, or the one of ``,`` ``;`` tab ``|`` that splits the
    header into the most fields and the first 20 rows into as many (a comma on
    a tie); the encoding is UTF-8, or
    what the file's byte-order mark says (UTF-8 with a mark, as Excel saves
    "CSV UTF-8"; UTF-16). Blank lines are skipped, as pandas skips them.

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
        is on line 2).

    Raises
    ------
    FileNotFoundError, IsADirectoryError, OSError
        No such file, a folder, or a file that cannot be read (the message
        names the path).
    ValueError
        An empty file, a header without rows, a column name used twice, a
        row with more or fewer fields than the header (with the decimal comma
        that split a number, if there is one), bytes that are not text in the
        encoding; the message names the file and the line.
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
        _check_header(list(itertools.islice(csv.reader(io.StringIO(text, newline=""), delimiter=sep), 2)), str(path))
        table = pd.read_csv(io.StringIO(text), sep=sep)
        if not table.index.equals(pd.RangeIndex(len(table))):
            # More fields on each row than in the header: pandas would silently use the first column as the index
            # (a RangeIndex too when that column counts 1, 4, 7, ...).
            raise pd.errors.ParserError("the rows have more fields than the header (line 1)")
        if table.empty:
            raise ValueError(f"{path}: the file has a header but no rows")
        table.index = pd.Index(_record_lines(text, sep, len(table), str(path)), name="line")
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the file is empty") from None
    except (pd.errors.ParserError, csv.Error) as err:
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
        try:
            rows = [row for _, row in _records(sample, sep)]
        except csv.Error:
            rows = []
        if len(sample) < len(text) and len(rows) > 1:
            rows = rows[:-1]  # the sample may end inside the last record
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


def _record_lines(text: str, sep: str, n_rows: int, path: str) -> np.ndarray:
    """The line on which each of the ``n_rows`` rows starts (the header is line 1)."""
    if '"' not in text and "\r" not in text and text.count("\n") + (not text.endswith("\n")) == n_rows + 1:
        return np.arange(2, n_rows + 2)  # one record per line: no quotes, no blank line
    lines = np.fromiter((start for start, _ in _records(text, sep)), dtype=np.int64)[1:]
    if lines.size != n_rows:  # pandas and the csv module part the records differently (exotic quoting)
        raise ValueError(f"{path}: the quotes of the file are ambiguous: Python's csv module reads {lines.size} "
                         f"rows where pandas reads {n_rows}; quote every field that holds a quote or a line break")
    return lines


def _check_header(rows: list[list[str]], path: str) -> None:
    """Refuse repeated column names (pandas renames the second ``a.1``), saying if line 2 is a second header."""
    if not rows:
        return
    header = [name.strip() for name in rows[0]]
    counts = collections.Counter(header)
    repeated = [name for name in counts if counts[name] > 1]
    if not repeated:
        return
    name = repeated[0]
    where = ", ".join(str(i + 1) for i, h in enumerate(header) if h == name)
    message = (f"{path}, line 1: column {name!r} appears {counts[name]} times (columns {where}); "
               "each column needs its own name (pandas would rename the repeats silently)")
    second = [field.strip() for field in rows[1]] if len(rows) > 1 else []
    if second and len(set(second)) == len(second) and not any(_is_number(field) for field in second):
        message += (f". Line 2 ({', '.join(second)}) looks like a second header row, as pandas writes a "
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
        width = len(next(records, (0, []))[1])
        for number, row in records:
            if len(row) != width:
                comma = _decimal_comma(row) if len(row) > width and sep == "," else None
                hint = f": a decimal comma ({comma!r})? Write decimals with a point ({comma.replace(',', '.')})" if comma else ""
                return ValueError(f"{path}, line {number}: {len(row)} fields where the header (line 1) has {width}{hint}")
    except csv.Error:
        return None
    return None


# --------------------------------------------------------------------------- harness logs: shared

#: The columns of the table of items the readers of per-item logs return, in this order.
ITEM_COLUMNS = ("model", "task", "item", "sample", "metric", "score")

PathsLike = str | os.PathLike | Iterable[str | os.PathLike]


def _paths(paths: PathsLike, name: str = "paths") -> list[Path]:
    """A file or folder name, or a list of them, as paths that exist (each once, in the order given)."""
    if isinstance(paths, str | os.PathLike):
        given = [paths]
    elif isinstance(paths, Iterable) and not isinstance(paths, bytes | Mapping):
        given = list(paths)
    else:
        raise TypeError(f"`{name}` must be a file or folder name, or a list of them; got {type(paths).__name__}.")
    if not given:
        raise ValueError(f"`{name}` must name at least one file or folder; got an empty list.")
    out: dict[Path, Path] = {}
    for p in given:
        if not isinstance(p, str | os.PathLike):
            raise TypeError(f"`{name}` must hold file or folder names; got {p!r}.")
        path = Path(p)
        if not path.exists():
            raise FileNotFoundError(f"{path}: no such file or folder")
        out.setdefault(path.resolve(), path)
    return list(out.values())


def _score(value: Any) -> float | None:
    """A logged value as a float: a finite number or a boolean; None for anything else."""
    if isinstance(value, bool | np.bool_):
        return float(value)
    if isinstance(value, int | float | np.integer | np.floating) and math.isfinite(float(value)):
        return float(value)
    return None


def _plain(value: Any) -> Any:
    """A NumPy scalar as the Python value it holds, so that messages show ``2``, not ``np.int64(2)``."""
    return value.item() if isinstance(value, np.generic) else value


def _shown(value: Any, limit: int = 60) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _refuse_duplicates(table: pd.DataFrame, keys: list[str], where: Any, what: str) -> None:
    """Refuse two rows with the same keys, naming where each was found (``where(row)`` says it)."""
    repeated = table.duplicated(keys, keep=False).to_numpy()
    if not repeated.any():
        return
    first = table[repeated].iloc[0]
    same = table[repeated & (table[keys] == first[keys]).all(axis=1).to_numpy()]
    places = " and ".join(where(row) for _, row in same.head(2).iterrows())
    n = int(table[repeated].drop_duplicates(keys).shape[0])
    key = ", ".join(f"{k} {_plain(first[k])!r}" for k in keys)
    raise ValueError(
        f"{what} {key} appears {len(same)} times ({places}){f'; {n} keys are repeated in all' if n > 1 else ''}: "
        "an item is matched by its id, so each must appear once. Remove the repeated file or line."
    )


def _choose_metric(table: pd.DataFrame, metric: Any, how: str) -> pd.DataFrame:
    """The rows of one metric per task: ``metric`` None (every metric kept), a name, or a mapping task -> name.

    A name matches a metric exactly or, for lm-evaluation-harness's ``name,filter``, by the part before the
    comma when that part names a single metric of the task; otherwise the error lists what the task holds.
    """
    if metric is None:
        return table
    if isinstance(metric, Mapping):
        unknown = [t for t in metric if t not in set(table.task)]
        if unknown:
            raise ValueError(f"`metric` names task(s) {', '.join(map(repr, unknown))} that the files do not hold "
                             f"(the tasks are {', '.join(map(repr, dict.fromkeys(table.task)))}).")
        missing = [t for t in dict.fromkeys(table.task) if t not in metric]
        if missing:
            raise ValueError(f"`metric` gives no metric for task(s) {', '.join(map(repr, missing))}: a mapping must "
                             "name one metric for every task read (or read those tasks' files separately).")
        chosen = dict(metric)
    elif isinstance(metric, str):
        chosen = dict.fromkeys(table.task, metric)
    else:
        raise TypeError(f"`metric` must be None, a metric's name or a mapping task -> name; got {metric!r}.")
    keep = np.zeros(len(table), dtype=bool)
    for task, name in chosen.items():
        if not isinstance(name, str):
            raise TypeError(f"`metric` must name each task's metric as text; got {name!r} for task {task!r}.")
        in_task = (table.task == task).to_numpy()
        held = list(dict.fromkeys(table.metric[in_task]))
        matches = [m for m in held if m == name] or [m for m in held if m.split(",")[0] == name]
        if len(matches) != 1:
            problem = "matches several metrics" if matches else "matches no metric"
            raise ValueError(f"`metric` {name!r} {problem} of task {task!r}, which holds "
                             f"{', '.join(map(repr, matches or held))}{how}.")
        keep |= in_task & (table.metric == matches[0]).to_numpy()
    return table[keep].reset_index(drop=True)


# --------------------------------------------------------------------------- lm-evaluation-harness


def _lm_eval_files(paths: list[Path]) -> list[Path]:
    files: dict[Path, Path] = {}
    for path in paths:
        if path.is_dir():
            found = sorted(path.rglob("samples_*.jsonl"))
            if not found:
                raise FileNotFoundError(
                    f"{path}: no samples_<task>_<date>.jsonl file in this folder or below; lm-evaluation-harness "
                    "writes them with --output_path and --log_samples"
                )
        else:
            if not (path.name.startswith("samples_") and path.name.endswith(".jsonl") and path.name.count("_") >= 2):
                raise ValueError(
                    f"{path}: not a sample file of lm-evaluation-harness, whose names are samples_<task>_<date>.jsonl "
                    "(the task and the run's date are read from the name)"
                )
            found = [path]
        for file in found:
            files.setdefault(file.resolve(), file)
    return list(files.values())


def _lm_eval_results(file: Path, run: str) -> Path:
    """The results file of the run beside a sample file: ``results_<date>.json``, or ``<name>_<date>.json``.

    With ``--output_path OUT/`` the harness names it ``results_<date>.json``; with ``--output_path NAME.json``,
    ``NAME_<date>.json`` in the same folder as the sample files.
    """
    default = file.with_name(f"results_{run}.json")
    if default.is_file():
        return default
    found = sorted(f for f in file.parent.glob(f"*_{run}.json") if f.is_file())
    if len(found) == 1:
        return found[0]
    if not found:
        raise FileNotFoundError(
            f"{file}: no {default.name} beside it; lm-evaluation-harness writes the run's results file, which "
            "names the model, next to its sample files: keep them together"
        )
    raise ValueError(f"{file}: several results files of run {run} beside it ({', '.join(f.name for f in found)}); "
                     "keep the one the harness wrote")


def _lm_eval_model(file: Path, run: str, cache: dict[Path, str]) -> str:
    """The model that wrote ``file``: ``model_name`` of the results file of the same run, beside it."""
    results = _lm_eval_results(file, run)
    if results in cache:
        return cache[results]
    try:
        header = json.loads(results.read_text(encoding="utf-8"))
    except (json.JSONDecodeError, UnicodeDecodeError) as err:
        raise ValueError(f"{results}: not a readable results file of lm-evaluation-harness ({err})") from None
    config = header.get("config") if isinstance(header, dict) else None
    name = header.get("model_name") if isinstance(header, dict) else None
    if not name and isinstance(config, dict):
        name = config.get("model_args") or None  # older 0.4 versions: no model_name, the model's arguments
    if not isinstance(name, str) or not name:
        raise ValueError(f"{results}: no 'model_name' (nor 'config.model_args') naming the model of this run")
    cache[results] = name
    return name


def _lm_eval_rows(file: Path, model: str, task: str, run: str) -> list[tuple]:
    rows = []
    with file.open(encoding="utf-8") as handle:
        for number, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            where = f"{file}, line {number}"
            try:
                record = json.loads(text)
            except json.JSONDecodeError as err:
                raise ValueError(f"{where}: not a JSON object ({err.msg} at column {err.colno}); is the file "
                                 "truncated?") from None
            missing = [k for k in ("doc_id", "filter", "metrics") if not isinstance(record, dict) or k not in record]
            if missing:
                raise ValueError(f"{where}: no {', '.join(map(repr, missing))} field: not a sample of "
                                 "lm-evaluation-harness 0.4.x (a line of --log_samples holds doc_id, filter, metrics "
                                 "and a value per metric)")
            names = record["metrics"]
            if not isinstance(names, list) or not all(isinstance(m, str) for m in names):
                raise ValueError(f"{where}: 'metrics' must list the metrics' names; it holds {_shown(names)}")
            for name in names:
                if name not in record:
                    raise ValueError(f"{where}: metric {name!r} is listed in 'metrics' but has no value")
                value = _score(record[name])
                if value is None:
                    raise ValueError(
                        f"{where}: metric {name!r} holds {_shown(record[name])}, not a number; a metric whose "
                        "per-document value is an input to a corpus-level aggregate (BLEU, F1, MCC) has no "
                        "per-item score to compare"
                    )
                rows.append((model, task, record["doc_id"], run, f"{name},{record['filter']}", value,
                             str(file), number))
    if not rows:
        raise ValueError(f"{file}: no samples in the file")
    return rows


def read_lm_eval(paths: PathsLike, *, metric: str | Mapping[str, str] | None = None) -> pd.DataFrame:
    r"""Per-item scores from the ``--log_samples`` output of lm-evaluation-harness 0.4.x.

    ``lm_eval --output_path OUT --log_samples`` writes, per model, the folder
    ``OUT/<model>/`` holding for each run a ``results_<date>.json`` (whose
    ``model_name`` names the model; ``NAME_<date>.json`` when
    ``--output_path`` is a file ``NAME.json``) and for each task a
    ``samples_<task>_<date>.jsonl``, one JSON object per document and filter
    with the fields ``doc_id``, ``filter``, ``metrics`` (the metrics' names)
    and one value per metric (with ``doc``, ``target``, ``resps`` and hashes,
    not read here). The task and the date are read from the file's name as the
    harness reads them (between the first and the last underscore, after the
    last). Several runs of one model on one task (several dates) are several
    samples of each document, numbered by date (0 for the earliest): a
    sampled generation repeated with other seeds.

    Parameters
    ----------
    paths : str, path or list of them
        Output folders (searched for ``samples_*.jsonl`` at any depth) or
        sample files.
    metric : str, mapping or None
        The metric to read, as the harness names it in its results,
        ``name,filter`` (``"acc,none"``, ``"exact_match,strict-match"``), or by
        its name alone when the task has it under one filter only; a mapping
        ``{task: metric}`` names one per task, for every task. None (the
        default) reads every metric of every filter.

    Returns
    -------
    pandas.DataFrame
        One row per (model, task, item, sample, metric): ``model``, ``task``,
        ``item`` (the ``doc_id``), ``sample`` (the run's number), ``metric``
        (``name,filter``), ``score`` (booleans as 0/1), then ``run`` (the
        run's date), ``file`` and ``line`` where the value was read.

    Raises
    ------
    FileNotFoundError
        A path that does not exist, a folder without sample files, a sample
        file without its run's results file.
    ValueError
        A line that is not JSON (a truncated file) or not a sample of the
        harness (no ``doc_id``, ``filter`` or ``metrics``), a metric whose value
        is not a number (BLEU's and F1's per-document tuples), a document that
        appears twice for one filter, a results file that names no model, or a
        ``metric`` that matches no metric or several of a task (the message
        lists them); each message names the file and the line.

    Notes
    -----
    The field names are those of the harness's evaluator (the sample
    dictionary built under ``log_samples``) and of
    ``lm_eval/loggers/evaluation_tracker.py``, which writes the files.
    Explained in :ref:`ch-generative`.

    Examples
    --------
    >>> import json, pathlib, tempfile
    >>> from sigeval import read_lm_eval
    >>> out = pathlib.Path(tempfile.mkdtemp()) / "model-a"
    >>> out.mkdir()
    >>> _ = (out / "results_2026-01-01T00-00-00.json").write_text(json.dumps({"model_name": "model-a"}))
    >>> lines = [{"doc_id": i, "filter": "none", "metrics": ["acc"], "acc": float(i % 2)} for i in range(3)]
    >>> _ = (out / "samples_arc_easy_2026-01-01T00-00-00.jsonl").write_text(
    ...     "".join(json.dumps(line) + "\n" for line in lines))
    >>> read_lm_eval(out)[["model", "task", "item", "sample", "metric", "score"]]
         model      task  item  sample    metric  score
    0  model-a  arc_easy     0       0  acc,none    0.0
    1  model-a  arc_easy     1       0  acc,none    1.0
    2  model-a  arc_easy     2       0  acc,none    0.0
    """
    files = _lm_eval_files(_paths(paths))
    models: dict[Path, str] = {}
    rows = []
    for file in files:
        name = file.name[: -len(".jsonl")]
        task, run = name[name.find("_") + 1 : name.rfind("_")], name[name.rfind("_") + 1 :]
        rows += _lm_eval_rows(file, _lm_eval_model(file, run, models), task, run)
    table = pd.DataFrame(rows, columns=["model", "task", "item", "run", "metric", "score", "file", "line"])
    _refuse_duplicates(table, ["model", "task", "run", "metric", "item"],
                       lambda row: f"{row.file}, line {row.line}", "document")
    # The runs of a model on a task, in the order of their dates, are its samples 0, 1, ...
    runs = table[["model", "task", "run"]].drop_duplicates().sort_values("run", kind="stable")
    runs["sample"] = runs.groupby(["model", "task"], sort=False).cumcount()
    table = table.merge(runs, on=["model", "task", "run"], how="left", validate="many_to_one")
    table = _choose_metric(table, metric, " (name one as the harness writes it, 'name,filter')")
    return table[[*ITEM_COLUMNS, "run", "file", "line"]]


# --------------------------------------------------------------------------- Inspect


def _inspect() -> Any:
    try:
        import inspect_ai.log as log
        import inspect_ai.scorer as scorer
    except ImportError as err:
        raise ImportError(
            f"read_inspect needs Inspect AI, which is not installed ({err}): pip install 'sigeval[inspect]'"
        ) from None
    return log, scorer


def _local(name: str) -> Path:
    """A file that Inspect lists as a ``file://`` URI, as a path."""
    return Path(unquote(urlparse(name).path)) if name.startswith("file://") else Path(name)


def _inspect_files(paths: list[Path], log: Any) -> list[Path]:
    files: dict[Path, Path] = {}
    for path in paths:
        if path.is_dir():
            found = [_local(info.name) for info in log.list_eval_logs(str(path))]
            if not found:
                raise FileNotFoundError(f"{path}: no Inspect evaluation log (.eval or .json) in this folder or below")
        else:
            found = [path]
        for file in sorted(found):
            files.setdefault(file.resolve(), file)
    return list(files.values())


def _inspect_values(score: Any, scorer_name: str, to_float: Any, marks: tuple, where: str) -> list[tuple[str, float]]:
    """A sample's score under one scorer as (metric, number) pairs; a dict value gives one metric per key."""
    value = score.value
    if isinstance(value, dict):
        return [(f"{scorer_name}/{key}", _inspect_number(v, f"{scorer_name}/{key}", to_float, marks, where))
                for key, v in value.items()]
    return [(scorer_name, _inspect_number(value, scorer_name, to_float, marks, where))]


def _inspect_number(value: Any, name: str, to_float: Any, marks: tuple, where: str) -> float:
    """C, I, P and N, booleans and numbers, mapped by Inspect's own ``value_to_float``; anything else refused."""
    if (isinstance(value, str) and value in marks) or _score(value) is not None:
        return float(to_float(value))
    raise ValueError(
        f"{where}: scorer {name!r} gave {_shown(value)}, not a number, a boolean or one of Inspect's marks "
        f"{', '.join(map(repr, marks))} (correct, incorrect, partial, no answer)"
    )


def _inspect_rows(file: Path, log: Any, scorer: Any) -> list[tuple]:
    try:
        # The transcript (messages, events) is not needed: .eval logs skip it.
        evaluation = log.read_eval_log(str(file), exclude_fields={"messages", "events", "store", "attachments"})
    except Exception as err:  # noqa: BLE001 (Inspect raises pydantic, JSON, zip and OS errors for a file not its own)
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise ValueError(f"{file}: not an Inspect evaluation log ({first})") from None
    model, task = evaluation.eval.model, evaluation.eval.task
    to_float = scorer.value_to_float()
    marks = (scorer.CORRECT, scorer.INCORRECT, scorer.PARTIAL, scorer.NOANSWER)
    rows: list[tuple] = []
    for sample in evaluation.samples or []:
        where = f"{file}, sample {sample.id!r} epoch {sample.epoch}"
        problem = None
        if sample.error is not None:
            problem = f"the sample failed: {str(sample.error.message).splitlines()[0]}"
        elif sample.invalidation is not None:
            problem = f"the sample was invalidated ({sample.invalidation.reason or 'no reason given'})"
        elif not sample.scores:
            problem = "the sample was not scored"
        if problem is not None:
            rows.append((model, task, sample.id, sample.epoch, None, np.nan, problem, evaluation.status, str(file)))
            continue
        for scorer_name, score in sample.scores.items():
            for metric, value in _inspect_values(score, scorer_name, to_float, marks, where):
                rows.append((model, task, sample.id, sample.epoch, metric, value, "", evaluation.status, str(file)))
    if not rows:
        raise ValueError(f"{file}: the log holds no samples (status {evaluation.status!r})")
    return rows


def read_inspect(paths: PathsLike, *, metric: str | Mapping[str, str] | None = None) -> pd.DataFrame:
    r"""Per-item scores from Inspect AI evaluation logs (``.eval`` and ``.json``).

    Each log is read with Inspect's own ``inspect_ai.log.read_eval_log``: the
    model (``eval.model``), the task (``eval.task``) and, for every sample,
    its id, its epoch and each scorer's ``Score.value``. Values are mapped to
    numbers as Inspect maps them (``inspect_ai.scorer.value_to_float``):
    ``"C"`` (correct) 1, ``"I"`` (incorrect) 0, ``"P"`` (partial) 0.5, ``"N"``
    (no answer) 0, booleans 1/0, numbers as they are; a scorer that returns
    a dictionary gives one metric per key (``scorer/key``). Any other value
    (a list, other text) is refused with its value: Inspect itself would
    warn and count it as 0.

    A sample that failed (``error``), was invalidated, or has no score is
    kept, with a NaN score and the reason in ``error``; a log that did not
    finish keeps the samples it holds, and its ``status`` says so. Two logs of
    the same model and task with the same sample ids and epochs are refused:
    the epochs, not the logs, are the samples of an item.

    Parameters
    ----------
    paths : str, path or list of them
        Log files, or folders (their logs are listed by Inspect's
        ``list_eval_logs``, at any depth).
    metric : str, mapping or None
        The scorer to read (``"match"``, or ``"scorer/key"`` for a key of a
        dictionary value), or a mapping ``{task: scorer}``; None (the default)
        reads every scorer.

    Returns
    -------
    pandas.DataFrame
        One row per (model, task, item, sample, metric): ``model``, ``task``,
        ``item`` (Inspect's sample id), ``sample`` (the epoch), ``metric`` (the
        scorer), ``score``, then ``error`` (empty, or why the score is NaN),
        ``status`` (the log's: ``"success"``, ``"error"``, ``"cancelled"``,
        ``"started"``) and ``file``. A sample without a score has one row,
        its ``metric`` None.

    Raises
    ------
    ImportError
        Inspect AI is not installed (the ``inspect`` extra).
    FileNotFoundError
        A path that does not exist, a folder without logs.
    ValueError
        A file that Inspect cannot read as a log (another format, a truncated
        file), a score that is not a number, a boolean or C/I/P/N (the message
        names the file, the sample and the epoch), a sample found twice, or a
        ``metric`` that matches no scorer of a task.

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    A log written by Inspect itself, its mock model answering "2" to three questions:

    >>> import tempfile
    >>> from inspect_ai import Task, eval as inspect_eval
    >>> from inspect_ai.dataset import Sample
    >>> from inspect_ai.model import ModelOutput, ModelUsage, get_model
    >>> from inspect_ai.scorer import match
    >>> from sigeval import read_inspect
    >>> usage = ModelUsage(input_tokens=5, output_tokens=1, total_tokens=6)  # given, so that no tokens are counted
    >>> def answer(*_):
    ...     return ModelOutput.from_content(model="mockllm", content="2").model_copy(update={"usage": usage})
    >>> task = Task(dataset=[Sample(id=i, input=f"{i} + {i} = ?", target=str(2 * i)) for i in range(3)],
    ...             scorer=match(), name="sums")
    >>> logs = inspect_eval(task, model=get_model("mockllm/model", custom_outputs=answer),
    ...                     log_dir=tempfile.mkdtemp(), display="none")
    >>> read_inspect(logs[0].location)[["model", "task", "item", "sample", "metric", "score"]]
               model  task  item  sample metric  score
    0  mockllm/model  sums     0       1  match    0.0
    1  mockllm/model  sums     1       1  match    1.0
    2  mockllm/model  sums     2       1  match    0.0
    """
    log, scorer = _inspect()
    rows = []
    for file in _inspect_files(_paths(paths), log):
        rows += _inspect_rows(file, log, scorer)
    table = pd.DataFrame(rows, columns=[*ITEM_COLUMNS, "error", "status", "file"])
    _refuse_duplicates(table, ["model", "task", "item", "sample", "metric"],
                       lambda row: f"{row.file}", "sample")
    scored = table.metric.notna().to_numpy()
    kept = _choose_metric(table[scored], metric, "")
    return pd.concat([kept, table[~scored]], ignore_index=True) if metric is not None else table


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

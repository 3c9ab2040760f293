"""The per-item logs of evaluation harnesses into one row per (model, task, item, sample, metric):
lm-evaluation-harness's ``--log_samples`` files and Inspect AI's evaluation logs.

Public through :mod:`sigeval.readers` (its own module only to keep each module short). Explained in
:ref:`ch-generative`.
"""

from __future__ import annotations

import json
import math
import os
import re
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

__all__ = [
    "read_lm_eval",
    "read_inspect",
]


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
    """A file that Inspect lists as a ``file://`` URI, as a path.

    Inspect writes the path after ``file://`` as it is, without percent-encoding (a folder ``a#b`` or ``e%41f``
    stays so), so it is taken literally rather than parsed as a URL; ``/C:/...`` is a Windows drive.
    """
    if not name.startswith("file://"):
        return Path(name)
    path = name.removeprefix("file://")
    return Path(path[1:] if re.match(r"/[A-Za-z]:[/\\]", path) else path)


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

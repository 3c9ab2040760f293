"""Logs written the way the tools write them, for the readers' tests (tests/test_harness_readers.py, test_bad_inputs.py).

- :func:`write_lm_eval_run`: the files of one run of lm-evaluation-harness 0.4.x with ``--log_samples``, in the
  format of its source: ``lm_eval/loggers/evaluation_tracker.py`` writes ``<output>/<model>/results_<date>.json``
  (``model_name`` among the tracker's fields) and ``samples_<task>_<date>.jsonl``, one JSON line per document and
  filter, holding the evaluator's sample dictionary (``doc_id``, ``doc``, ``target``, ``arguments``, ``resps``,
  ``filtered_resps``, ``filter``, ``metrics``, ``doc_hash``, ``prompt_hash``, ``target_hash``, then one value per
  metric).
- :func:`inspect_logs`: evaluation logs written by Inspect AI itself, its mock model answering a small local dataset.
- :func:`mlflow_store`: an MLflow tracking store (SQLite) filled through MLflow's own client.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import tempfile
from pathlib import Path

#: Ten arithmetic questions: id, question, answer.
QUESTIONS = [(f"q{i:02d}", f"What is {i} + {i + 3}?", str(2 * i + 3)) for i in range(10)]


def _hash(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def lm_eval_line(doc_id, filter_key: str, metrics: dict, doc: dict | None = None) -> dict:
    """One line of a samples file, with every field the harness's evaluator writes."""
    doc = doc or {"question": f"question {doc_id}", "answer": "A"}
    prompt = f"Question: {doc['question']}\nAnswer:"
    line = {
        "doc_id": doc_id,
        "doc": doc,
        "target": doc["answer"],
        # The tracker rewrites the arguments as {"gen_args_i": {"arg_j": ...}} and the target as text.
        "arguments": {"gen_args_0": {"arg_0": prompt, "arg_1": " A"}},
        "resps": [[["-1.5", "False"]]],
        "filtered_resps": [["-1.5", "False"]],
        "filter": filter_key,
        "metrics": list(metrics),
        "doc_hash": _hash(json.dumps(doc, indent=2)),
        "prompt_hash": _hash(prompt),
        "target_hash": _hash(doc["answer"]),
    }
    line.update(metrics)
    return line


def write_lm_eval_run(output: Path, model: str, date: str, tasks: dict[str, list[dict]]) -> Path:
    """Write one run: ``tasks`` maps a task to its sample lines; returns the model's folder."""
    folder = output / model.replace("/", "__")
    folder.mkdir(parents=True, exist_ok=True)
    results = {
        "results": {task: {"alias": task} for task in tasks},
        "configs": {task: {"task": task} for task in tasks},
        "versions": {task: 1.0 for task in tasks},
        "n-shot": {task: 0 for task in tasks},
        "config": {"model": "hf", "model_args": f"pretrained={model}", "batch_size": 1},
        "task_hashes": {},
        "model_source": "hf",
        "model_name": model,
        "model_name_sanitized": model.replace("/", "__"),
        "start_time": 1.0,
        "end_time": 2.0,
        "total_evaluation_time_seconds": "1.0",
    }
    (folder / f"results_{date}.json").write_text(json.dumps(results, indent=2), encoding="utf-8")
    for task, lines in tasks.items():
        text = "".join(json.dumps(line, ensure_ascii=False) + "\n" for line in lines)
        (folder / f"samples_{task}_{date}.jsonl").write_text(text, encoding="utf-8")
    return folder


# --------------------------------------------------------------------------- Inspect


def _answers(model: str) -> dict[str, str]:
    """What each mock model answers: A is right on 8 questions in both epochs, B on 5, and on q03 only once."""
    wrong_a = {"q01", "q06"}
    wrong_b = {"q01", "q02", "q05", "q06", "q09"}
    wrong = wrong_a if model == "a" else wrong_b
    return {q: ("-1" if qid in wrong else a) for qid, q, a in QUESTIONS}


def write_inspect_logs(log_dir: Path, *, log_format: str = "eval", epochs: int = 2, failing: str | None = None,
                       scorer_value=None, models=("a", "b")) -> list[Path]:
    """Evaluate the mock models on :data:`QUESTIONS` with Inspect; returns the logs it wrote.

    ``failing`` names a question whose generation raises (a failed sample); ``scorer_value``, a value that an
    extra scorer gives every sample (to test values the reader refuses).
    """
    from inspect_ai import Task
    from inspect_ai import eval as inspect_eval
    from inspect_ai.dataset import Sample
    from inspect_ai.model import ModelOutput, ModelUsage, get_model
    from inspect_ai.scorer import Score, includes, match, mean, scorer
    from inspect_ai.solver import generate

    @scorer(metrics=[mean()])
    def length():
        async def score(state, target):
            value = float(len(state.output.completion)) if scorer_value is None else scorer_value
            return Score(value=value)

        return score

    logs = []
    for name in models:
        answers = _answers(name)
        calls: dict[str, int] = {}

        def respond(messages, tools, tool_choice, config, answers=answers, calls=calls, name=name):
            question = messages[-1].text
            calls[question] = calls.get(question, 0) + 1
            if failing is not None and question == dict((i, q) for i, q, _ in QUESTIONS)[failing]:
                raise RuntimeError("the mock model failed on purpose")
            answer = answers[question]
            if name == "b" and question == QUESTIONS[3][1] and calls[question] == 2:
                answer = "-1"  # B answers q03 right in its first epoch only
            # Each output carries its usage, so that the mock provider counts no tokens (offline).
            return ModelOutput.from_content(model="mockllm", content=answer).model_copy(
                update={"usage": ModelUsage(input_tokens=5, output_tokens=1, total_tokens=6)})

        task = Task(dataset=[Sample(id=i, input=q, target=a) for i, q, a in QUESTIONS], solver=generate(),
                    scorer=[match(), includes(), length()], name="arith")
        result = inspect_eval(task, model=get_model(f"mockllm/{name}", custom_outputs=respond), log_dir=str(log_dir),
                              log_format=log_format, epochs=epochs, display="none", fail_on_error=False,
                              max_samples=1, log_level="error")
        logs.append(Path(result[0].location))
    return logs


@functools.cache
def inspect_logs() -> tuple[Path, ...]:
    """Two models' logs, written once per test session."""
    return tuple(write_inspect_logs(Path(tempfile.mkdtemp(prefix="sigeval_inspect_"))))


# --------------------------------------------------------------------------- MLflow

#: Scores of the runs: (task, model) -> one per seed 0, 1, 2.
RUNS = {("cifar", "A"): [0.91, 0.90, 0.93], ("cifar", "B"): [0.88, 0.89, 0.90],
        ("svhn", "A"): [0.95, 0.96, 0.94], ("svhn", "B"): [0.96, 0.95, 0.95]}
#: (task, model, seed) -> how the run ended when it did not finish with a score.
BROKEN = {("cifar", "B", 2): "FAILED", ("svhn", "A", 1): "KILLED", ("svhn", "B", 0): "no metric"}


def write_mlflow_store(folder: Path) -> str:
    """An MLflow store in ``folder`` holding experiment "sweep" (:data:`RUNS`, :data:`BROKEN`); returns its URI."""
    os.environ.setdefault("MLFLOW_DISABLE_TELEMETRY", "true")
    os.environ.setdefault("DO_NOT_TRACK", "true")
    from mlflow.tracking import MlflowClient

    uri = f"sqlite:///{folder / 'mlflow.db'}"
    client = MlflowClient(tracking_uri=uri)
    experiment = client.create_experiment("sweep", artifact_location=(folder / "artifacts").as_uri())
    client.create_experiment("other", artifact_location=(folder / "other").as_uri())
    for (task, model), scores in RUNS.items():
        for seed, score in enumerate(scores):
            run = client.create_run(experiment, tags={"model": model}, run_name=f"{task}-{model}-{seed}")
            client.log_param(run.info.run_id, "task", task)
            client.log_param(run.info.run_id, "seed", seed)
            client.log_param(run.info.run_id, "lr", 0.1)
            broken = BROKEN.get((task, model, seed))
            if broken != "no metric":
                client.log_metric(run.info.run_id, "val_acc", score - 0.05, step=0)
                client.log_metric(run.info.run_id, "val_acc", score, step=1)  # the last value is the score
            client.set_terminated(run.info.run_id, status=broken if broken in ("FAILED", "KILLED") else "FINISHED")
    return uri


@functools.cache
def mlflow_store() -> str:
    """The store, written once per test session."""
    return write_mlflow_store(Path(tempfile.mkdtemp(prefix="sigeval_mlflow_")))

"""A multi-task benchmark of the shape classifiers, run into a :class:`~sigeval.report.Report`.

Tasks are named variants of the shape benchmark (pixel noise, contrast of the
shapes, blur of the images); models are named factories that train on a
task's training images and return a predictor. :func:`run_benchmark` runs
every model on every task for every seed and returns the report of the runs.

Used in :ref:`ch-reporting`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
from scipy.ndimage import gaussian_filter

from .._validation import check_positive_int, check_real
from ..report import FailedPolicy, Report
from .mlp import train_mlp
from .shapes import NOISE_SD, blur, make_scenes, template_matcher

__all__ = ["Task", "TASKS", "MODELS", "Predictor", "ModelFactory", "mlp_factory", "run_benchmark"]

#: A trained model: images (n, 16, 16) in, predicted class indices (n,) out.
Predictor = Callable[[np.ndarray], np.ndarray]
#: Trains a model: ``factory(train_images, train_labels, seed) -> Predictor``.
ModelFactory = Callable[[np.ndarray, np.ndarray, int], Predictor]


@dataclass(frozen=True)
class Task:
    """A variant of the shape benchmark: how its images differ from the standard ones.

    Each image of the task is ``contrast * shape + (noise / 0.8) * standard noise``,
    then blurred by ``blur`` pixels: the same draws as the standard images,
    rescaled, so tasks differ only in what the variant changes.

    Attributes
    ----------
    noise : float
        Standard deviation of the pixel noise (the standard images: 0.8).
    contrast : float
        Factor on the contrast of every shape (standard: 1).
    blur : float
        Standard deviation in pixels of a Gaussian blur of the images (standard: 0).
    """

    noise: float = NOISE_SD
    contrast: float = 1.0
    blur: float = 0.0

    def __post_init__(self) -> None:
        for name in ("noise", "contrast", "blur"):
            value = check_real(getattr(self, name), name)
            if value < 0 or (name != "blur" and value == 0):
                bound = ">= 0" if name == "blur" else "> 0"
                raise ValueError(f"`{name}` of a Task must be {bound}; got {value!r}.")

    def images(self, clean: np.ndarray, noise: np.ndarray) -> np.ndarray:
        """The task's version of images made of ``clean`` shapes and standard ``noise``."""
        images = self.contrast * clean + (self.noise / NOISE_SD) * noise
        return gaussian_filter(images, (0, self.blur, self.blur)) if self.blur > 0 else images


#: Named variants used in :ref:`ch-reporting`: the standard images, less and
#: more pixel noise, weaker shapes, and two strengths of blur.
TASKS: dict[str, Task] = {
    "standard": Task(),
    "clean": Task(noise=0.5),
    "noisy": Task(noise=1.1),
    "low contrast": Task(contrast=0.7),
    "blurred": Task(blur=1.0),
    "very blurred": Task(blur=2.0),
}


def mlp_factory(hidden: int, *, epochs: int = 10) -> ModelFactory:
    """A factory of the course's MLP (:func:`~sigeval.course.mlp.train_mlp`) on blurred pixels.

    The seed passed to the factory sets the network's initial weights and
    the order of its minibatches.

    Examples
    --------
    >>> from sigeval.course.benchmark import mlp_factory
    >>> from sigeval.course.shapes import make_images
    >>> X, y = make_images(200, rng=0)
    >>> predict = mlp_factory(8, epochs=2)(X, y, 0)
    >>> predict(X).shape
    (200,)
    """
    hidden = check_positive_int(hidden, "hidden")
    epochs = check_positive_int(epochs, "epochs")

    def factory(images: np.ndarray, labels: np.ndarray, seed: int) -> Predictor:
        net = train_mlp(blur(images), labels, seeds=[seed], hidden=hidden, epochs=epochs)
        return lambda test_images: net.predict(blur(test_images))[0]

    return factory


def _matcher_factory(sigma: float) -> ModelFactory:
    matcher = template_matcher(sigma)
    return lambda images, labels, seed: matcher


#: Named model factories used in :ref:`ch-reporting`: the source article's two
#: template matchers (A: no blur, B: blur 0.5; they do not train) and the MLP
#: of :ref:`ch-training-randomness` at two widths.
MODELS: dict[str, ModelFactory] = {
    "matcher A": _matcher_factory(0.0),
    "matcher B": _matcher_factory(0.5),
    "MLP 32": mlp_factory(32),
    "MLP 64": mlp_factory(64),
}


def _named(value: Any, registry: Mapping[str, Any], argument: str, kind: type | tuple) -> dict[str, Any]:
    """A name -> item dict from a mapping, a name, or a sequence of names in ``registry``."""
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Mapping):
        items = dict(value)
    elif isinstance(value, Iterable):
        items = {}
        for name in value:
            if name not in registry:
                raise ValueError(
                    f"`{argument}` names {name!r}, which is not one of {list(registry)!r}; "
                    "pass a mapping of name to definition for your own."
                )
            items[name] = registry[name]
    else:
        raise TypeError(f"`{argument}` must be a mapping of names, a name or a list of names; got {value!r}.")
    if not items:
        raise ValueError(f"`{argument}` must name at least one; got none.")
    for name, item in items.items():
        if not isinstance(item, kind):
            raise TypeError(f"`{argument}`[{name!r}] must be a {getattr(kind, '__name__', 'callable')}; got {item!r}.")
    return items


def _seeds(seeds: Iterable[int]) -> tuple[int, ...]:
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Iterable):
        raise TypeError(f"`seeds` must be an iterable of non-negative integers; got {seeds!r}.")
    checked = tuple(seeds)
    for s in checked:
        if not isinstance(s, int | np.integer) or isinstance(s, bool) or s < 0:
            raise ValueError(f"`seeds` must hold non-negative integers; got {s!r}.")
    if len(set(checked)) != len(checked):
        raise ValueError(f"`seeds` must be distinct; got {list(checked)!r}.")
    if len(checked) < 2:
        raise ValueError(f"`seeds` must hold at least 2 seeds for paired comparisons; got {list(checked)!r}.")
    return tuple(int(s) for s in checked)


def _score(factory: ModelFactory, train: tuple, test: tuple, seed: int) -> tuple[float, str | None]:
    """Accuracy of one trained model on the test images, or NaN and why it failed."""
    try:
        predict = factory(train[0], train[1], seed)
        predicted = np.asarray(predict(test[0]))
    except Exception as err:  # a failed run is recorded, never lost
        return float("nan"), f"{type(err).__name__}: {err}"
    labels = test[1]
    if predicted.shape != labels.shape or not np.issubdtype(predicted.dtype, np.integer):
        return float("nan"), (
            f"the predictor returned {predicted.dtype} of shape {predicted.shape}, "
            f"not {labels.size} integer class indices"
        )
    return float(np.mean(predicted == labels)), None


def _runs_of_seed(seed: int, tasks: dict, models: dict, n_train: int, n_test: int) -> list[tuple]:
    """Every task and model on one seed's training and test images."""
    data_seq, model_seq = np.random.SeedSequence(seed).spawn(2)
    data = np.random.default_rng(data_seq)
    model_seed = int(model_seq.generate_state(1)[0])
    train, test = make_scenes(n_train, data), make_scenes(n_test, data)
    rows = []
    for task_name, task in tasks.items():
        train_set = (task.images(train.clean, train.images - train.clean), train.labels)
        test_set = (task.images(test.clean, test.images - test.clean), test.labels)
        for model_name, factory in models.items():
            score, error = _score(factory, train_set, test_set, model_seed)
            rows.append((task_name, model_name, seed, score, error))
    return rows


def run_benchmark(
    tasks: str | Sequence[str] | Mapping[str, Task],
    models: Sequence[str] | Mapping[str, ModelFactory],
    seeds: Iterable[int],
    *,
    n_test: int = 1000,
    n_train: int = 2000,
    executor: Executor | None = None,
    failed: FailedPolicy = "drop-pairs",
) -> Report:
    """Train and test every model on every task for every seed; the report of the runs.

    What a seed controls, and what stays fixed: seed ``s`` seeds a
    ``numpy.random.SeedSequence`` with two independent streams. The first
    draws the training set (``n_train`` images) and then the test set
    (``n_test`` images): the shapes, their shifts and contrasts, and the pixel
    noise. The second gives the models their own seed: an MLP's initial
    weights and the order of its minibatches. So one seed is one repetition of
    the whole experiment, new training data, new test data, new
    initialisation, and every model of a task sees the same training and test
    images on that seed, which is what pairs the runs. The tasks of one seed
    are made from the same draws (a task rescales the noise and contrast, or
    blurs), so they differ only by what their variant changes. Fixed: the
    tasks' parameters, the models' architectures and training settings, the
    sizes, and the image generator. The template matchers do not train: on
    them a seed changes only the test set.

    Parameters
    ----------
    tasks : str, sequence of str or mapping of str to Task
        Names from :data:`TASKS`, or a mapping of your own names to :class:`Task`.
    models : sequence of str or mapping of str to factory
        Names from :data:`MODELS`, or a mapping of names to factories
        ``factory(train_images, train_labels, seed) -> predict``, where
        ``predict(images)`` returns class indices.
    seeds : iterable of int
        At least two distinct non-negative seeds.
    n_test, n_train : int
        Test and training images per seed.
    executor : concurrent.futures.Executor, optional
        Runs the seeds as concurrent tasks (for example a
        ``ThreadPoolExecutor``); results are identical to a serial run.
    failed : {"drop-pairs", "raise"}
        Passed to :class:`~sigeval.report.Report`. A model that raises, or
        whose predictor returns anything but one class index per image, is
        recorded as a failed run (NaN score, the error in the ``error``
        column). The default keeps the report and lists the failures in
        ``failed_runs``.

    Returns
    -------
    Report
        Over a table with columns ``task``, ``model``, ``seed``, ``score``
        (accuracy on the test set) and ``error``.

    Notes
    -----
    Explained in :ref:`ch-reporting`.

    Examples
    --------
    >>> from sigeval import run_benchmark
    >>> report = run_benchmark(["standard", "noisy"], ["matcher A", "matcher B"], seeds=range(3), n_test=300)
    >>> report
    Report(2 task(s), 2 models, 3 seeds per task, 0 failed run(s))
    >>> report.runs.score.round(3).tolist()[:4]
    [0.89, 0.887, 0.86, 0.843]
    """
    tasks = _named(tasks, TASKS, "tasks", Task)
    models = _named(models, MODELS, "models", Callable)  # type: ignore[arg-type]
    seeds = _seeds(seeds)
    n_test = check_positive_int(n_test, "n_test")
    n_train = check_positive_int(n_train, "n_train")
    if executor is None:
        per_seed = [_runs_of_seed(s, tasks, models, n_train, n_test) for s in seeds]
    else:
        futures = [executor.submit(_runs_of_seed, s, tasks, models, n_train, n_test) for s in seeds]
        per_seed = [f.result() for f in futures]
    table = pd.DataFrame(
        [row for rows in per_seed for row in rows], columns=["task", "model", "seed", "score", "error"]
    )
    order = {name: i for i, name in enumerate(tasks)}
    table = table.sort_values("task", key=lambda c: c.map(order), kind="stable").reset_index(drop=True)
    return Report(table, failed=failed)

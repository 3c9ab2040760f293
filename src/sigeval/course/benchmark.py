"""A multi-task benchmark of the shape classifiers, run into a :class:`~sigeval.report.Report`.

Tasks are named variants of the shape benchmark (pixel noise, contrast of the
shapes, blur of the images); models are named factories that train on a
task's training images and return a predictor. :func:`run_benchmark` runs
every model on every task for every seed and returns the report of the runs.

Used in :ref:`ch-reporting`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence
from concurrent.futures import Executor, as_completed
from dataclasses import dataclass
from itertools import islice
from typing import Any

import numpy as np
import pandas as pd
from scipy.ndimage import gaussian_filter

from .._progress import progress_bar
from .._report_base import FailedPolicy
from .._validation import check_choice, check_positive_int, check_real
from ..report import Report
from .mlp import MLP, train_mlp
from .shapes import NOISE_SD, blur, make_scenes, template_matcher

__all__ = ["Task", "TASKS", "SUITES", "MODELS", "Predictor", "ModelFactory", "mlp_factory", "run_benchmark"]

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
        for name, low, high in (("noise", 0, 100), ("contrast", 0, 100), ("blur", 0, 16)):
            value = check_real(getattr(self, name), name)
            if not (low <= value <= high) or (name != "blur" and value == 0):
                bound = f"in [0, {high}] pixels" if name == "blur" else f"in (0, {high}]"
                raise ValueError(f"`{name}` of a Task must be {bound}; got {value!r}.")
            object.__setattr__(self, name, float(value))

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


@dataclass(frozen=True)
class _MLPPredictor:
    net: MLP

    def __call__(self, test_images: np.ndarray) -> np.ndarray:
        return self.net.predict(blur(test_images))[0]


@dataclass(frozen=True)
class _MLPFactory:
    """:func:`mlp_factory`'s factory: a plain object, so that a process pool or Dask can pickle it."""

    hidden: int
    epochs: int

    def __call__(self, images: np.ndarray, labels: np.ndarray, seed: int) -> Predictor:
        return _MLPPredictor(train_mlp(blur(images), labels, seeds=[seed], hidden=self.hidden, epochs=self.epochs))

    def __repr__(self) -> str:
        return f"mlp_factory({self.hidden}, epochs={self.epochs})"


def mlp_factory(hidden: int, *, epochs: int = 10) -> ModelFactory:
    """A factory of the course's MLP (:func:`~sigeval.course.mlp.train_mlp`) on blurred pixels.

    The seed passed to the factory sets the network's initial weights and
    the order of its minibatches. The factory pickles, so it runs on a process
    pool or a cluster (see :func:`run_benchmark`).

    Examples
    --------
    >>> from sigeval.course.benchmark import mlp_factory
    >>> from sigeval.course.shapes import make_images
    >>> X, y = make_images(200, rng=0)
    >>> predict = mlp_factory(8, epochs=2)(X, y, 0)
    >>> predict(X).shape
    (200,)
    """
    return _MLPFactory(check_positive_int(hidden, "hidden"), check_positive_int(epochs, "epochs"))


@functools.lru_cache(maxsize=8)
def _matcher(sigma: float) -> Predictor:
    return template_matcher(sigma)


@dataclass(frozen=True)
class _MatcherFactory:
    """A template matcher as a model factory: it does not train, and it pickles."""

    sigma: float

    def __call__(self, images: np.ndarray, labels: np.ndarray, seed: int) -> Predictor:
        return _matcher(self.sigma)

    def __repr__(self) -> str:
        return f"template matcher (blur {self.sigma:g})"


#: Named groups of :data:`TASKS`, each run by its name alone: ``"shapes"`` (all six
#: variants), ``"noise"`` (less, standard and more pixel noise) and ``"blur"``
#: (no, some and strong blur).
SUITES: dict[str, tuple[str, ...]] = {
    "shapes": tuple(TASKS),
    "noise": ("clean", "standard", "noisy"),
    "blur": ("standard", "blurred", "very blurred"),
}


#: Named model factories used in :ref:`ch-reporting`: the source article's two
#: template matchers (A: no blur, B: blur 0.5; they do not train) and the MLP
#: of :ref:`ch-training-randomness` at two widths.
MODELS: dict[str, ModelFactory] = {
    "matcher A": _MatcherFactory(0.0),
    "matcher B": _MatcherFactory(0.5),
    "MLP 32": mlp_factory(32),
    "MLP 64": mlp_factory(64),
}


def _named(
    value: Any, registry: Mapping[str, Any], argument: str, kind: type | tuple,
    suites: Mapping[str, tuple[str, ...]] | None = None,
) -> dict[str, Any]:
    """A name -> item dict from a mapping, a name, or a sequence of distinct names in ``registry``.

    With ``suites``, a name of a suite stands for its members, in order (a member
    that an earlier name already brought in is not repeated).
    """
    suites = suites or {}
    if isinstance(value, str):
        value = [value]
    if isinstance(value, Mapping):
        items = dict(value)
    elif isinstance(value, Iterable) and not isinstance(value, bytes):
        items = {}
        seen = set()
        for name in value:
            if name in seen:
                raise ValueError(f"`{argument}` names {name!r} twice; names must be distinct.")
            seen.add(name)
            if name in registry:
                items[name] = registry[name]
            elif isinstance(name, str) and name in suites:
                items.update((member, registry[member]) for member in suites[name] if member not in items)
            else:
                known = list(registry) + [f"{suite} (suite)" for suite in suites]
                raise ValueError(
                    f"`{argument}` names {name!r}, which is not one of {known!r}; "
                    "pass a mapping of name to definition for your own."
                )
    else:
        raise TypeError(f"`{argument}` must be a mapping of names, a name or a list of names; got {value!r}.")
    if not items:
        raise ValueError(f"`{argument}` must name at least one; got none.")
    for name, item in items.items():
        if not isinstance(name, str) or not name:
            raise TypeError(f"`{argument}` must be named by non-empty strings; got the name {name!r}.")
        if not isinstance(item, kind):
            raise TypeError(f"`{argument}`[{name!r}] must be a {getattr(kind, '__name__', 'callable')}; got {item!r}.")
    return items


def _seeds(seeds: Iterable[int]) -> tuple[int, ...]:
    if isinstance(seeds, str | bytes) or not isinstance(seeds, Iterable):
        raise TypeError(f"`seeds` must be an iterable of non-negative integers; got {seeds!r}.")
    checked = tuple(islice(seeds, _MAX_SEEDS + 1))
    if len(checked) > _MAX_SEEDS:
        raise ValueError(f"`seeds` must hold at most {_MAX_SEEDS:,} seeds (each trains every model on every task).")
    for s in checked:
        if not isinstance(s, int | np.integer) or isinstance(s, bool) or s < 0:
            raise ValueError(f"`seeds` must hold non-negative integers; got {s!r}.")
    if len(set(checked)) != len(checked):
        raise ValueError(f"`seeds` must be distinct; got {list(checked)!r}.")
    if len(checked) < 2:
        raise ValueError(f"`seeds` must hold at least 2 seeds for paired comparisons; got {list(checked)!r}.")
    return tuple(int(s) for s in checked)


# Beyond these the runs would take hours or tens of GiB (about 6 KiB per image).
_MAX_SEEDS = 10_000
_MAX_IMAGES = 1_000_000


def _check_images(value: int, name: str) -> int:
    value = check_positive_int(value, name)
    if value > _MAX_IMAGES:
        raise ValueError(
            f"`{name}` must be at most {_MAX_IMAGES:,} images (about {6 * value / 2**20:,.0f} GiB for {value:,}); "
            f"got {value}."
        )
    return value


def _read_only(*arrays: np.ndarray) -> tuple[np.ndarray, ...]:
    # Every model of a (task, seed) gets the same arrays: one that wrote into
    # them would change the data of the models after it and break the pairing.
    for a in arrays:
        a.setflags(write=False)
    return arrays


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


def _runs_of_seed(
    seed: int, tasks: dict, models: dict, n_train: int, n_test: int, tick: Callable[[int], Any] | None = None
) -> list[tuple]:
    """Every task and model on one seed's training and test images (``tick(1)`` after each run)."""
    data_seq, model_seq = np.random.SeedSequence(seed).spawn(2)
    data = np.random.default_rng(data_seq)
    model_seed = int(model_seq.generate_state(1)[0])
    train, test = make_scenes(n_train, data), make_scenes(n_test, data)
    rows = []
    for task_name, task in tasks.items():
        train_set = _read_only(task.images(train.clean, train.images - train.clean), train.labels.copy())
        test_set = _read_only(task.images(test.clean, test.images - test.clean), test.labels.copy())
        for model_name, factory in models.items():
            score, error = _score(factory, train_set, test_set, model_seed)
            rows.append((task_name, model_name, seed, score, error))
            if tick is not None:
                tick(1)
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
    progress: bool = True,
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
        Which tasks to run. A name is looked up first among the tasks,
        :data:`TASKS` (``"noisy"`` runs that task alone), then among the
        suites, :data:`SUITES` (``"shapes"`` runs all six tasks, ``"noise"``
        and ``"blur"`` three each, in the suite's order). A sequence may mix
        task and suite names; a task that an earlier name already brought in
        runs once. A mapping of your own names to :class:`Task` is used as given.
    models : sequence of str or mapping of str to factory
        Names from :data:`MODELS`, or a mapping of names to factories
        ``factory(train_images, train_labels, seed) -> predict``, where
        ``predict(images)`` returns class indices.
    seeds : iterable of int
        At least two distinct non-negative seeds.
    n_test, n_train : int
        Test and training images per seed.
    executor : concurrent.futures.Executor, optional
        Runs the seeds as concurrent jobs, one per seed; the results are
        identical, bit for bit, to a serial run, since each seed's randomness
        comes from its own seed stream and never from the worker. A
        ``ThreadPoolExecutor``, a ``ProcessPoolExecutor`` (the built-in tasks
        and factories pickle; your own factories must too, so define them at
        module level), or a Dask cluster's
        ``distributed.Client(...).get_executor()`` (the ``distributed`` extra)
        when one machine is not enough.
    failed : {"drop-pairs", "raise"}
        Passed to :class:`~sigeval.report.Report`. A model that raises, or
        whose predictor returns anything but one class index per image, is
        recorded as a failed run (NaN score, the error in the ``error``
        column). The images and labels a model gets are read-only: a model
        that writes into them fails instead of changing the other models' data. The default keeps the report and lists the failures in
        ``failed_runs``.
    progress : bool
        Show a progress bar over the runs when the work takes more than a
        couple of seconds (with the ``progress`` extra, tqdm, and only on a
        terminal).

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

    A suite by its name, on a pool of processes:

    >>> from concurrent.futures import ProcessPoolExecutor
    >>> with ProcessPoolExecutor(2) as pool:  # doctest: +SKIP
    ...     report = run_benchmark("shapes", ["matcher A", "matcher B"], seeds=range(10), executor=pool)
    >>> run_benchmark("blur", ["matcher A", "matcher B"], seeds=range(2), n_test=100).tasks
    ('standard', 'blurred', 'very blurred')
    """
    tasks = _named(tasks, TASKS, "tasks", Task, SUITES)
    models = _named(models, MODELS, "models", Callable)  # type: ignore[arg-type]
    if len(models) < 2:
        raise ValueError(f"`models` must name at least 2 models to compare; got {list(models)!r}.")
    seeds = _seeds(seeds)
    n_test = _check_images(n_test, "n_test")
    n_train = _check_images(n_train, "n_train")
    if executor is not None and not callable(getattr(executor, "submit", None)):
        raise TypeError(f"`executor` must be a concurrent.futures.Executor or None; got {type(executor).__name__}.")
    check_choice(failed, "failed", ("raise", "drop-pairs"))  # refused before any training, not after
    runs_per_seed = len(tasks) * len(models)
    with progress_bar(len(seeds) * runs_per_seed, "run_benchmark", enabled=progress, unit="run") as bar:
        if executor is None:
            per_seed = [_runs_of_seed(s, tasks, models, n_train, n_test, bar.update) for s in seeds]
        else:
            futures = [executor.submit(_runs_of_seed, s, tasks, models, n_train, n_test) for s in seeds]
            for done in as_completed(futures):
                done.result()  # a worker's error surfaces here, as soon as it happens
                bar.update(runs_per_seed)
            per_seed = [f.result() for f in futures]
    table = pd.DataFrame(
        [row for rows in per_seed for row in rows], columns=["task", "model", "seed", "score", "error"]
    )
    order = {name: i for i, name in enumerate(tasks)}
    table = table.sort_values("task", key=lambda c: c.map(order), kind="stable").reset_index(drop=True)
    return Report(table, failed=failed)

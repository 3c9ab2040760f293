"""The article's small NumPy MLP, its checkpoints, and the seed sweeps that train it.

One-hidden-layer ReLU networks trained by minibatch SGD on blurred shape
images (:func:`sigeval.course.shapes.blur`), several seeds at once as a stack
of arrays. :func:`seed_sweep` is the article's Part 2 (many seeds of two
widths, scored on one test set and on fresh images) and
:func:`checkpoint_sweep` scores every epoch of every seed.

Like :mod:`sigeval.course.shapes`, everything here follows the source
article's reference script operation for operation and draws random numbers
in the same order, so the article's seeds give the article's numbers.

Explained in :ref:`ch-training-randomness`.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .._validation import RngLike, check_finite_array, check_positive_int, check_positive_real, check_rng
from .._validation_figures import check_distinct_positive_ints, check_executor, check_seeds
from ._compute import CHUNK, one_blas_thread
from .cache import disk_cached
from .shapes import N_CLASSES, blur, iter_images, make_images

__all__ = [
    "MLP",
    "train_mlp",
    "train_mlp_checkpoints",
    "SeedSweep",
    "seed_sweep",
    "CheckpointSweep",
    "checkpoint_sweep",
]

# Minibatch size of the article's training, and so the smallest training set of a sweep.
_BATCH = 20


# --------------------------------------------------------------------------- the MLP


@dataclass(frozen=True)
class MLP:
    """One or more one-hidden-layer ReLU networks of the same width, stacked.

    Attributes
    ----------
    seeds : tuple of int
        The seed of each network, in the order of the stack.
    W1 : ndarray, shape (networks, features, hidden)
    b1 : ndarray, shape (networks, hidden)
    W2 : ndarray, shape (networks, hidden, 4)
    b2 : ndarray, shape (networks, 4)
    """

    seeds: tuple[int, ...]
    W1: np.ndarray = field(repr=False)
    b1: np.ndarray = field(repr=False)
    W2: np.ndarray = field(repr=False)
    b2: np.ndarray = field(repr=False)

    @property
    def hidden(self) -> int:
        """Number of hidden units."""
        return self.W1.shape[2]

    @one_blas_thread
    def predict(self, features: np.ndarray) -> np.ndarray:
        """Predicted classes of every network, shape (networks, n)."""
        features = np.asarray(features, dtype=float)
        nets, dims, hidden = self.W1.shape
        # One wide product for the first layer of all networks: each column of a
        # matrix product is computed on its own, so network j's block equals
        # features @ W1[j] exactly, and BLAS runs far faster on one wide matrix.
        wide = self.W1.transpose(1, 0, 2).reshape(dims, nets * hidden)
        out = np.empty((nets, len(features)), dtype=np.int64)
        for s in range(0, len(features), CHUNK):
            h = features[s : s + CHUNK] @ wide
            h += self.b1.reshape(-1)
            np.maximum(h, 0, out=h)
            h = h.reshape(len(h), nets, hidden).transpose(1, 0, 2)
            logits = h @ self.W2 + self.b2[:, None, :]
            out[:, s : s + CHUNK] = logits.argmax(axis=2)
        return out

    def accuracy(self, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Accuracy of every network on labelled features, shape (networks,)."""
        return np.mean(self.predict(features) == np.asarray(labels), axis=1)


@one_blas_thread
def train_mlp(
    features: np.ndarray,
    labels: np.ndarray,
    seeds: int | Iterable[int],
    hidden: int,
    *,
    epochs: int = 10,
    lr: float = 0.05,
    batch: int = _BATCH,
) -> MLP:
    """Train the article's one-hidden-layer ReLU network, once per seed.

    Plain minibatch SGD on the mean cross-entropy of a softmax output. The seed
    sets everything random about a run: the He-scaled normal initial weights
    (first ``W1``, then ``W2``, biases zero) and, in every epoch, the order of
    the minibatches (a permutation split into ``len(features) // batch``
    nearly equal parts). All seeds are trained together as a stack of arrays,
    which computes each network exactly as a separate run would.

    Parameters
    ----------
    features : ndarray, shape (n, d)
        Training inputs, e.g. ``blur(images)``; finite.
    labels : ndarray of int, shape (n,)
    seeds : int or iterable of int
        One network per seed, each a non-negative integer.
    hidden : int
        Hidden units.
    epochs, lr, batch
        Passes over the data, learning rate (positive, finite), minibatch size
        (at most ``n``).

    Returns
    -------
    MLP
        The trained networks, stacked in the order of ``seeds``.

    Raises
    ------
    ValueError
        If ``features`` holds NaN or infinite values, ``lr`` is NaN, infinite
        or not positive, or a shape, label, seed or size is out of range.
    TypeError
        If a seed, size or ``lr`` is not a number.

    Examples
    --------
    >>> from sigeval.course.shapes import blur, make_images
    >>> from sigeval.course.mlp import train_mlp
    >>> X, y = make_images(400, rng=0)
    >>> nets = train_mlp(blur(X), y, seeds=[0, 1], hidden=8, epochs=2)
    >>> nets.predict(blur(X)).shape
    (2, 400)
    """
    # Only the last snapshot is wanted; iterating keeps one copy of the weights at a time.
    for trained in _sgd_epochs(features, labels, seeds, hidden, epochs, lr, batch):  # noqa: B007
        pass
    return trained


def _check_training(features, labels, seeds, hidden, epochs, lr, batch):
    """Validated inputs of :func:`train_mlp` (features as float, seeds as a tuple)."""
    # A NaN or infinite feature, or a NaN or non-positive rate, would train to NaN weights.
    features = check_finite_array(features, "features")
    labels = np.asarray(labels)
    if features.ndim != 2 or labels.shape != (len(features),):
        raise ValueError(
            "`features` must have shape (n, d) and `labels` shape (n,); "
            f"got {features.shape} and {labels.shape}."
        )
    if not np.issubdtype(labels.dtype, np.integer) or np.any((labels < 0) | (labels >= N_CLASSES)):
        raise ValueError(
            f"`labels` must be integer class indices in 0..{N_CLASSES - 1}; "
            f"got dtype {labels.dtype} with values {np.unique(labels)[:8].tolist()}."
        )
    seeds = check_seeds(seeds)
    hidden = check_positive_int(hidden, "hidden")
    epochs = check_positive_int(epochs, "epochs", minimum=0)
    lr = check_positive_real(lr, "lr")
    batch = check_positive_int(batch, "batch")
    if len(features) < batch:
        raise ValueError(
            f"`batch` must not exceed the number of examples {len(features)}; got {batch}."
        )
    return features, labels, seeds, hidden, epochs, lr, batch


def _sgd_epochs(features, labels, seeds, hidden, epochs, lr, batch) -> Iterator[MLP]:
    """The networks before training and after each epoch: ``epochs + 1`` snapshots.

    The one implementation of the training of :func:`train_mlp` and
    :func:`train_mlp_checkpoints`; each snapshot holds copies of the weights.
    """
    features, labels, seeds, hidden, epochs, lr, batch = _check_training(
        features, labels, seeds, hidden, epochs, lr, batch
    )
    n, dims = features.shape
    generators = [np.random.default_rng(seed) for seed in seeds]
    # Each seed's generator draws its W1, then its W2, as a separate run would.
    W1 = np.stack([g.normal(scale=np.sqrt(2 / dims), size=(dims, hidden)) for g in generators])
    W2 = np.stack([g.normal(scale=np.sqrt(1 / hidden), size=(hidden, N_CLASSES)) for g in generators])
    b1 = np.zeros((len(seeds), 1, hidden))
    b2 = np.zeros((len(seeds), 1, N_CLASSES))

    def snapshot() -> MLP:
        return MLP(seeds=seeds, W1=W1.copy(), b1=b1[:, 0].copy(), W2=W2.copy(), b2=b2[:, 0].copy())

    yield snapshot()
    onehot = np.eye(N_CLASSES)[labels]
    sizes = [len(part) for part in np.array_split(np.arange(n), n // batch)]
    bounds = np.cumsum([0, *sizes])
    for _ in range(epochs):
        order = np.stack([g.permutation(n) for g in generators])
        for start, stop in zip(bounds[:-1], bounds[1:]):
            idx = order[:, start:stop]
            x = features[idx]
            h = np.maximum(x @ W1 + b1, 0)
            z = h @ W2 + b2
            p = np.exp(z - z.max(axis=2, keepdims=True))
            p /= p.sum(axis=2, keepdims=True)
            g = (p - onehot[idx]) / (stop - start)  # d(mean cross-entropy)/dz
            gh = (g @ W2.transpose(0, 2, 1)) * (h > 0)
            W2 -= lr * h.transpose(0, 2, 1) @ g
            b2 -= lr * g.sum(axis=1, keepdims=True)
            W1 -= lr * x.transpose(0, 2, 1) @ gh
            b1 -= lr * gh.sum(axis=1, keepdims=True)
        yield snapshot()


@one_blas_thread
def train_mlp_checkpoints(
    features: np.ndarray,
    labels: np.ndarray,
    seeds: int | Iterable[int],
    hidden: int,
    *,
    epochs: int = 10,
    lr: float = 0.05,
    batch: int = _BATCH,
) -> list[MLP]:
    """The networks of :func:`train_mlp` after every epoch: its checkpoints.

    The same training, step for step (the last checkpoint is exactly
    ``train_mlp(...)`` with the same arguments), with a copy of the weights
    kept at the end of each epoch. Evaluating every checkpoint on the test
    set and picking the best is a search like picking the best seed: the
    chosen score is biased upwards (:func:`checkpoint_sweep` measures by how
    much).

    Parameters
    ----------
    features, labels, seeds, hidden, epochs, lr, batch
        As in :func:`train_mlp`.

    Returns
    -------
    list of MLP
        ``epochs + 1`` stacks of networks: before training (index 0) and after
        each epoch (index ``e`` after epoch ``e``).

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval.course.shapes import blur, make_images
    >>> from sigeval.course.mlp import train_mlp, train_mlp_checkpoints
    >>> X, y = make_images(400, rng=0)
    >>> checkpoints = train_mlp_checkpoints(blur(X), y, seeds=[0, 1], hidden=8, epochs=3)
    >>> len(checkpoints)
    4
    >>> final = train_mlp(blur(X), y, seeds=[0, 1], hidden=8, epochs=3)
    >>> bool(np.array_equal(checkpoints[-1].W1, final.W1))
    True
    """
    return list(_sgd_epochs(features, labels, seeds, hidden, epochs, lr, batch))


# --------------------------------------------------------------------------- the seed sweep


@dataclass(frozen=True)
class SeedSweep:
    """A seed sweep: several widths, several seeds, one training set, one test set.

    Attributes
    ----------
    runs : pandas.DataFrame
        One row per network: ``hidden``, ``seed``, ``test_acc`` (on the fixed
        test set) and ``fresh_acc`` (on fresh images, close to the network's
        population accuracy).
    test_correct : ndarray of bool, shape (networks, n_test)
        Per-image correctness on the test set, rows in the order of ``runs``.
    n_test, n_fresh : int
        Sizes of the test set and of the fresh-image evaluation.
    networks : dict of int to MLP
        The trained networks of each width, stacked in the order of the seeds.
    """

    runs: pd.DataFrame
    test_correct: np.ndarray = field(repr=False)
    n_test: int
    n_fresh: int
    networks: dict[int, MLP] = field(repr=False)


@disk_cached(ignore=("executor",))
def seed_sweep(
    hidden: Sequence[int] = (32, 64),
    seeds: Iterable[int] = range(20),
    *,
    rng: RngLike = None,
    n_train: int = 2000,
    n_test: int = 1000,
    n_fresh: int = 100_000,
    executor: Executor | None = None,
) -> SeedSweep:
    """Train one MLP per (width, seed) on fixed data; score on a test set and fresh images.

    The article's Part 2: with ``rng=1`` and the defaults it draws the training
    set, the test set and the fresh images from ``numpy.random.default_rng(1)``,
    trains 20 networks per width on blurred pixels (:func:`~sigeval.course.shapes.blur`, sigma 1) and
    reproduces the article's numbers. Fresh images are streamed in chunks.

    Parameters
    ----------
    hidden : sequence of int
        Widths to train.
    seeds : iterable of int
        Seeds of the networks of every width.
    rng : numpy.random.Generator, int or None
        Draws the training set, then the test set, then the fresh images.
    n_train, n_test, n_fresh : int
        Sizes of the three image sets.
    executor : concurrent.futures.Executor, optional
        If given (for example a ``ThreadPoolExecutor``), the widths are trained
        and the chunks of fresh images evaluated as concurrent tasks. The
        random draws stay in the calling thread and the results are identical.

    Examples
    --------
    >>> from sigeval.course.mlp import seed_sweep
    >>> sweep = seed_sweep(hidden=(8,), seeds=range(3), rng=0, n_train=200, n_test=100, n_fresh=500)
    >>> list(sweep.runs.columns)
    ['hidden', 'seed', 'test_acc', 'fresh_acc']
    """
    hidden = check_distinct_positive_ints(hidden, "hidden")
    seeds = check_seeds(seeds)
    n_train, n_test, n_fresh = _check_sizes(n_train, n_test, n_fresh)
    rng = check_rng(rng)
    check_executor(executor)
    submit = executor.submit if executor is not None else _call_now
    train_x, train_y = make_images(n_train, rng)
    test_x, test_y = make_images(n_test, rng)
    fresh = iter_images(n_fresh, rng)
    train_f, test_f = blur(train_x), blur(test_x)
    training = [submit(train_mlp, train_f, train_y, seeds, h) for h in hidden]
    nets = [task.result() for task in training]
    test_correct = np.concatenate([net.predict(test_f) == test_y for net in nets])

    fresh_hits = np.zeros(len(test_correct), dtype=np.int64)
    pending: deque[Future] = deque()
    for images, labels in fresh:
        pending.append(submit(_hits, nets, blur(images), labels))
        # A few chunks in flight keep every worker busy and memory bounded.
        if len(pending) > 4:
            fresh_hits += pending.popleft().result()
    for task in pending:
        fresh_hits += task.result()

    runs = pd.DataFrame(
        {
            "hidden": np.repeat(np.asarray(hidden), len(seeds)),
            "seed": np.tile(seeds, len(hidden)),
            "test_acc": test_correct.mean(axis=1),
            "fresh_acc": fresh_hits / n_fresh,
        }
    )
    return SeedSweep(
        runs=runs,
        test_correct=test_correct,
        n_test=n_test,
        n_fresh=n_fresh,
        networks=dict(zip(hidden, nets)),
    )


@dataclass(frozen=True)
class CheckpointSweep:
    """A seed sweep that scores every network after every epoch.

    Attributes
    ----------
    runs : pandas.DataFrame
        One row per (seed, epoch), epochs 1 to ``epochs``: ``seed``,
        ``epoch``, ``test_acc`` (on the fixed test set) and ``fresh_acc`` (on
        fresh images, close to the checkpoint's population accuracy).
    hidden : int
        Width of the networks.
    n_test, n_fresh : int
        Sizes of the test set and of the fresh-image evaluation.
    """

    runs: pd.DataFrame
    hidden: int
    n_test: int
    n_fresh: int

    def best_checkpoints(self) -> pd.DataFrame:
        """Per seed, the epoch with the highest test accuracy (the first on ties).

        Its ``test_acc`` is what "report the best checkpoint" reports; its
        ``fresh_acc`` is what that checkpoint really scores; ``last_test_acc``
        and ``last_fresh_acc`` are those of the final epoch.
        """
        runs = self.runs.sort_values(["seed", "epoch"], kind="stable")
        best = runs.loc[runs.groupby("seed", sort=True)["test_acc"].idxmax()]
        last = runs.groupby("seed", sort=True).tail(1)
        return pd.DataFrame(
            {
                "seed": best["seed"].to_numpy(),
                "best_epoch": best["epoch"].to_numpy(),
                "test_acc": best["test_acc"].to_numpy(),
                "fresh_acc": best["fresh_acc"].to_numpy(),
                "last_test_acc": last["test_acc"].to_numpy(),
                "last_fresh_acc": last["fresh_acc"].to_numpy(),
            }
        )


def checkpoint_sweep(
    hidden: int = 32,
    seeds: Iterable[int] = range(20),
    *,
    epochs: int = 10,
    rng: RngLike = None,
    n_train: int = 2000,
    n_test: int = 1000,
    n_fresh: int = 20_000,
) -> CheckpointSweep:
    """Train one MLP per seed and score every epoch's checkpoint on a test set and fresh images.

    The data are drawn as in :func:`seed_sweep` (training set, then test set,
    then fresh images, from ``rng``), so with the same ``rng``, sizes, width
    and seeds, and the default 10 epochs, the last epoch's ``test_acc`` and
    ``fresh_acc`` are those of :func:`seed_sweep`.
    Choosing the checkpoint with the best test accuracy is a search over
    ``epochs`` correlated candidates; comparing its test accuracy with its
    fresh accuracy measures how much the choice overstates the score
    (:meth:`CheckpointSweep.best_checkpoints`).

    Parameters
    ----------
    hidden : int
        Width of the networks.
    seeds : iterable of int
        One network per seed.
    epochs : int
        Epochs of training; every epoch's checkpoint is scored.
    rng : numpy.random.Generator, int or None
        Draws the training set, then the test set, then the fresh images.
    n_train, n_test, n_fresh : int
        Sizes of the three image sets. The fresh images are streamed in
        chunks and every checkpoint is scored on each, so their cost grows
        with ``epochs * len(seeds) * n_fresh``.

    Returns
    -------
    CheckpointSweep

    Notes
    -----
    Explained in :ref:`ch-training-randomness`.

    Examples
    --------
    >>> from sigeval.course.mlp import checkpoint_sweep
    >>> sweep = checkpoint_sweep(8, range(3), epochs=4, rng=0, n_train=200, n_test=100, n_fresh=500)
    >>> list(sweep.runs.columns), len(sweep.runs)
    (['seed', 'epoch', 'test_acc', 'fresh_acc'], 12)
    >>> list(sweep.best_checkpoints().columns)
    ['seed', 'best_epoch', 'test_acc', 'fresh_acc', 'last_test_acc', 'last_fresh_acc']
    """
    hidden = check_positive_int(hidden, "hidden")
    seeds = check_seeds(seeds)
    epochs = check_positive_int(epochs, "epochs")
    n_train, n_test, n_fresh = _check_sizes(n_train, n_test, n_fresh)
    rng = check_rng(rng)
    train_x, train_y = make_images(n_train, rng)
    test_x, test_y = make_images(n_test, rng)
    fresh = iter_images(n_fresh, rng)
    checkpoints = train_mlp_checkpoints(blur(train_x), train_y, seeds, hidden, epochs=epochs)[1:]
    # Every checkpoint as one stack of epochs * seeds networks, epoch-major.
    stacked = MLP(
        seeds=seeds * epochs,
        **{name: np.concatenate([getattr(c, name) for c in checkpoints]) for name in ("W1", "b1", "W2", "b2")},
    )
    test_acc = stacked.accuracy(blur(test_x), test_y)
    fresh_hits = np.zeros(len(stacked.seeds), dtype=np.int64)
    for images, labels in fresh:  # streamed in chunks, as in seed_sweep
        fresh_hits += _hits([stacked], blur(images), labels)
    runs = pd.DataFrame(
        {
            "seed": np.tile(seeds, epochs),
            "epoch": np.repeat(np.arange(1, epochs + 1), len(seeds)),
            "test_acc": test_acc,
            "fresh_acc": fresh_hits / n_fresh,
        }
    )
    return CheckpointSweep(runs=runs, hidden=hidden, n_test=n_test, n_fresh=n_fresh)


def _check_sizes(n_train: int, n_test: int, n_fresh: int) -> tuple[int, int, int]:
    """The three image-set sizes of a sweep; the training set holds one minibatch at least."""
    return (
        check_positive_int(n_train, "n_train", minimum=_BATCH),
        check_positive_int(n_test, "n_test"),
        check_positive_int(n_fresh, "n_fresh"),
    )


def _hits(nets: Sequence[MLP], features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Correct predictions of every network of every width on one chunk."""
    return np.concatenate([np.count_nonzero(net.predict(features) == labels, axis=1) for net in nets])


def _call_now(fn: Callable, *args) -> Future:
    """Run ``fn`` at once, with the interface of ``Executor.submit``."""
    task: Future = Future()
    task.set_result(fn(*args))
    return task

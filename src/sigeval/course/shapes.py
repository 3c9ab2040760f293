"""The synthetic shape benchmark: images, two template matchers and a small NumPy MLP.

Each image is 16 by 16 pixels and shows one of four classes (a disc, a
square, a cross or a triangle): the shape is moved by at most two pixels in
each direction, multiplied by a contrast drawn uniformly from [0.5, 1], and
buried in Gaussian pixel noise with standard deviation 0.8. Because the generator is ours, the *population* accuracy of a
model can be measured on as many fresh images as we like, which no real
benchmark allows.

Everything here follows the source article's reference script operation for
operation and draws random numbers in the same order, so the article's seeds
give the article's numbers; it is faster because it works on arrays (and on
chunks of images, so that memory stays bounded) instead of looping in Python.

Explained in :ref:`ch-benchmark` and :ref:`ch-training-randomness`.
"""

from __future__ import annotations

import functools
import numbers
from collections import deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import Executor, Future
from dataclasses import dataclass, field

import numpy as np
import pandas as pd
from scipy.ndimage import gaussian_filter
from threadpoolctl import ThreadpoolController

from .._validation import RngLike, check_positive_int, check_rng
from .cache import disk_cached

__all__ = [
    "SHAPE_NAMES",
    "SHAPES",
    "SHIFTS",
    "IMAGE_SIZE",
    "NOISE_SD",
    "iter_images",
    "make_images",
    "Scenes",
    "make_scenes",
    "blur",
    "TemplateMatcher",
    "template_matcher",
    "correctness",
    "MatcherExperiment",
    "matcher_experiment",
    "MLP",
    "train_mlp",
    "train_mlp_checkpoints",
    "SeedSweep",
    "seed_sweep",
    "CheckpointSweep",
    "checkpoint_sweep",
]

SHAPE_NAMES = ("disc", "square", "cross", "triangle")
IMAGE_SIZE = 16
NOISE_SD = 0.8
N_CLASSES = len(SHAPE_NAMES)

_yy, _xx = np.mgrid[:IMAGE_SIZE, :IMAGE_SIZE] - (IMAGE_SIZE - 1) / 2
#: The four noiseless shapes, centred, as an array of shape (4, 16, 16).
SHAPES = np.stack(
    [
        (_xx**2 + _yy**2 < 20),
        (np.abs(_xx) < 4) & (np.abs(_yy) < 4),
        (np.abs(_xx) < 1.5) | (np.abs(_yy) < 1.5),
        (_yy > -4) & (_yy < 5) & (np.abs(_xx) < (_yy + 4) / 2),
    ]
).astype(float)
#: The 25 (row, column) shifts of up to two pixels, in the order the generator codes them.
SHIFTS = tuple((a, b) for a in range(-2, 3) for b in range(-2, 3))
# Every shifted shape as a flat row, indexed by label * 25 + shift index: an
# image's clean content becomes a row lookup instead of a per-image np.roll.
_SHIFTED = np.stack(
    [np.roll(shape, shift, axis=(0, 1)) for shape in SHAPES for shift in SHIFTS]
).reshape(N_CLASSES * len(SHIFTS), IMAGE_SIZE * IMAGE_SIZE)

# Images per chunk when streaming. Even, because OpenBLAS computes the last row
# of an odd-sized block with a different kernel, whose rounding could flip a
# near-tied prediction relative to the article's single large product.
_CHUNK = 512




# Found once: looking up the loaded BLAS libraries takes milliseconds, while
# setting their thread count through the controller takes microseconds.
_BLAS = ThreadpoolController()


def _one_blas_thread(fn):
    """Run ``fn`` with BLAS limited to one thread.

    The work here is many small matrix products (a chunk of images, a
    minibatch), for which BLAS threads cost more than they bring: on a 2-core
    machine one thread ran them 3 to 10 times faster than two. It also lets a
    caller parallelise over chunks (``seed_sweep(executor=...)``) without
    oversubscribing the cores. The results are the same either way.
    """

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with _BLAS.limit(limits=1, user_api="blas"):
            return fn(*args, **kwargs)

    return wrapper


# --------------------------------------------------------------------------- images


def iter_images(
    n: int, rng: RngLike = None, *, chunk_size: int = _CHUNK
) -> Iterator[tuple[np.ndarray, np.ndarray]]:
    """Generate ``n`` labelled shape images in chunks of bounded memory.

    The draws are those of the article's generator, in its order: all ``n``
    labels, then all shifts, then all contrasts (these happen immediately, when
    the function is called), then the pixel noise, chunk by chunk as the images
    are consumed. Chunked draws from a NumPy ``Generator`` give the same numbers
    as one large draw, so the images are identical to :func:`make_images`
    whatever the chunk size; draw nothing else from ``rng`` until the iterator is
    exhausted. ``make_scenes`` makes the same draws and also returns the
    labels, shifts and contrasts behind the images, and their true masks.

    Parameters
    ----------
    n : int
        Number of images.
    rng : numpy.random.Generator, int or None
        Source of randomness.
    chunk_size : int
        Images per chunk.

    Yields
    ------
    images : ndarray, shape (m, 16, 16)
        A fresh array for each chunk (``m <= chunk_size``).
    labels : ndarray of int, shape (m,)
        Class indices into :data:`SHAPE_NAMES`.

    Examples
    --------
    >>> from sigeval.course.shapes import iter_images, make_images
    >>> chunks = list(iter_images(5, rng=0, chunk_size=2))
    >>> [x.shape[0] for x, _ in chunks]
    [2, 2, 1]
    >>> X, y = make_images(5, rng=0)
    >>> bool(np.array_equal(np.concatenate([x for x, _ in chunks]), X))
    True
    """
    n = check_positive_int(n, "n")
    chunk_size = check_positive_int(chunk_size, "chunk_size")
    rng = check_rng(rng)
    labels, shifts, contrasts = _draw_layout(n, rng)
    return _noisy_chunks(rng, labels, shifts, contrasts, chunk_size)


def _draw_layout(n: int, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The draws that lay out ``n`` scenes, in the article's order.

    All labels, then all (row, column) shifts, then all contrasts. The only
    place that draws them: :func:`iter_images`, :func:`make_images` and
    :func:`make_scenes` all come through here, so they agree by construction.
    """
    labels = rng.integers(0, N_CLASSES, n)
    shifts = rng.integers(-2, 3, size=(n, 2))  # the same stream as n draws of size 2
    contrasts = rng.uniform(0.5, 1.0, n)  # the same stream as the article's size (n, 1)
    return labels, shifts, contrasts


def _shifted_rows(labels: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Row of ``_SHIFTED`` holding each scene's clean shape."""
    return labels * len(SHIFTS) + (shifts[:, 0] + 2) * 5 + (shifts[:, 1] + 2)


def _noisy_chunks(rng, labels, shifts, contrasts, chunk_size):
    """Draw the pixel noise chunk by chunk and yield (images, labels)."""
    rows = _shifted_rows(labels, shifts)
    contrast = contrasts[:, None]
    for start in range(0, labels.size, chunk_size):
        stop = min(start + chunk_size, labels.size)
        # The article's normal(scale=0.8) is 0.0 + 0.8 * z; standard_normal draws
        # the same z and, unlike normal(), releases the interpreter lock.
        noise = rng.standard_normal(size=(stop - start, IMAGE_SIZE * IMAGE_SIZE))
        noise *= NOISE_SD
        # contrast * shape + noise, the article's order of operations.
        images = contrast[start:stop] * _SHIFTED[rows[start:stop]]
        images += noise
        yield images.reshape(-1, IMAGE_SIZE, IMAGE_SIZE), labels[start:stop]


def make_images(n: int, rng: RngLike = None) -> tuple[np.ndarray, np.ndarray]:
    """``n`` labelled shape images at once (see :func:`iter_images`).

    Returns
    -------
    images : ndarray, shape (n, 16, 16)
    labels : ndarray of int, shape (n,)

    Examples
    --------
    >>> from sigeval.course.shapes import make_images, SHAPE_NAMES
    >>> X, y = make_images(3, rng=1)
    >>> X.shape, [SHAPE_NAMES[c] for c in y]
    ((3, 16, 16), ['square', 'cross', 'triangle'])
    """
    (images, labels), = iter_images(n, rng, chunk_size=n)
    return images, labels


@dataclass(frozen=True, eq=False)
class Scenes:
    """Shape images together with the draws that made them.

    Built by :func:`make_scenes`. Image ``i`` is
    ``contrasts[i] * masks[i] + noise``: the shape of class ``labels[i]``,
    rolled by ``shifts[i]``, scaled by ``contrasts[i]``, plus Gaussian pixel
    noise of standard deviation :data:`NOISE_SD`.

    Attributes
    ----------
    images : ndarray, shape (n, 16, 16)
        The noisy images, identical to ``make_images(n, rng)[0]``.
    labels : ndarray of int, shape (n,)
        Class indices into :data:`SHAPE_NAMES`.
    shifts : ndarray of int, shape (n, 2)
        (row, column) shift of each shape, each in -2..2 (see :data:`SHIFTS`).
    contrasts : ndarray, shape (n,)
        Contrast of each shape, in [0.5, 1].
    """

    images: np.ndarray = field(repr=False)
    labels: np.ndarray = field(repr=False)
    shifts: np.ndarray = field(repr=False)
    contrasts: np.ndarray = field(repr=False)

    def __len__(self) -> int:
        return len(self.labels)

    def __repr__(self) -> str:
        return f"Scenes(n={len(self)})"

    @property
    def masks(self) -> np.ndarray:
        """Ground-truth segmentation: the pixels of each shifted shape, bool (n, 16, 16)."""
        rows = _shifted_rows(self.labels, self.shifts)
        return _SHIFTED[rows].reshape(-1, IMAGE_SIZE, IMAGE_SIZE).astype(bool)

    @property
    def clean(self) -> np.ndarray:
        """The noiseless images, ``contrasts * masks``, shape (n, 16, 16)."""
        rows = _shifted_rows(self.labels, self.shifts)
        clean = self.contrasts[:, None] * _SHIFTED[rows]
        return clean.reshape(-1, IMAGE_SIZE, IMAGE_SIZE)


def make_scenes(n: int, rng: RngLike = None) -> Scenes:
    """``n`` labelled shape images with their shifts, contrasts and true masks.

    The same random draws as :func:`make_images` (and :func:`iter_images`),
    made by the same code, so for the same ``rng`` the images and labels are
    identical, and the generator is left in the same state. Use it when the
    ground truth behind each image is needed, for instance the shape's pixels
    as a segmentation mask (:ref:`ch-bootstrap`) or the contrast to
    study which images a model gets wrong.

    Parameters
    ----------
    n : int
        Number of images.
    rng : numpy.random.Generator, int or None
        Source of randomness.

    Returns
    -------
    Scenes
        ``images``, ``labels``, ``shifts``, ``contrasts`` and the ``masks``
        and ``clean`` images derived from them.

    Examples
    --------
    >>> from sigeval.course.shapes import make_images, make_scenes
    >>> scenes = make_scenes(3, rng=1)
    >>> scenes.labels.tolist(), scenes.masks.shape, scenes.masks.dtype
    ([1, 2, 3], (3, 16, 16), dtype('bool'))
    >>> bool(np.array_equal(scenes.images, make_images(3, rng=1)[0]))
    True
    """
    n = check_positive_int(n, "n")
    rng = check_rng(rng)
    labels, shifts, contrasts = _draw_layout(n, rng)
    (images, _), = _noisy_chunks(rng, labels, shifts, contrasts, chunk_size=n)
    return Scenes(images=images, labels=labels, shifts=shifts, contrasts=contrasts)


def blur(images: np.ndarray, sigma: float = 1.0) -> np.ndarray:
    """Gaussian-blurred images flattened to feature rows, shape (n, 256).

    The MLP of :ref:`ch-training-randomness` takes these as its input.

    Parameters
    ----------
    images : array_like, shape (n, height, width)
    sigma : float
        Standard deviation of the blur, in pixels (0 for none).

    Examples
    --------
    >>> from sigeval.course.shapes import blur, make_images
    >>> blur(make_images(4, rng=0)[0]).shape
    (4, 256)
    """
    images = np.asarray(images, dtype=float)
    if images.ndim != 3:
        raise ValueError(
            f"`images` must have shape (n, height, width); got shape {images.shape}."
        )
    sigma = _check_sigma(sigma)
    return gaussian_filter(images, (0, sigma, sigma)).reshape(len(images), -1)


def _check_sigma(sigma: float) -> float:
    """A blur width: a non-negative number of pixels."""
    if isinstance(sigma, bool) or not isinstance(sigma, numbers.Real):
        raise TypeError(f"`sigma` must be a non-negative number of pixels; got {sigma!r}.")
    sigma = float(sigma)
    if not sigma >= 0:  # also refuses NaN
        raise ValueError(f"`sigma` must be a non-negative number of pixels; got {sigma!r}.")
    return sigma


# --------------------------------------------------------------------------- template matchers


@dataclass(frozen=True)
class TemplateMatcher:
    """Nearest-template classifier: blur, then correlate with every shifted template.

    The class score is the best normalised correlation over the 25 shifts of a
    class's template; the prediction is the class with the highest score.
    Built by :func:`template_matcher`; call it on images to get labels.

    Attributes
    ----------
    sigma : float
        Standard deviation (pixels) of the Gaussian blur of image and templates.
    templates : ndarray, shape (100, 256)
        Blurred shifted templates, centred and scaled to unit norm.
    """

    sigma: float
    templates: np.ndarray = field(repr=False)

    @_one_blas_thread
    def scores(self, images: np.ndarray) -> np.ndarray:
        """Class scores, shape (n, 4): the best correlation over shifts per class."""
        images = np.asarray(images, dtype=float)
        return np.concatenate(
            [self._chunk_scores(images[s : s + _CHUNK]) for s in range(0, len(images), _CHUNK)]
        )

    def __call__(self, images: np.ndarray) -> np.ndarray:
        """Predicted class of each image, shape (n,)."""
        return self.scores(images).argmax(axis=1)

    def _chunk_scores(self, images: np.ndarray) -> np.ndarray:
        # With sigma 0 gaussian_filter returns a copy, as in the article.
        features = gaussian_filter(images, (0, self.sigma, self.sigma)).reshape(len(images), -1)
        features -= features.mean(axis=1, keepdims=True)
        correlation = features @ self.templates.T
        return correlation.reshape(len(images), N_CLASSES, len(SHIFTS)).max(axis=2)


def template_matcher(sigma: float) -> TemplateMatcher:
    """A template matcher that blurs image and templates by ``sigma`` pixels.

    The source article's two fixed models are ``template_matcher(0.0)`` (A) and
    ``template_matcher(0.5)`` (B).

    Examples
    --------
    >>> from sigeval.course.shapes import make_images, template_matcher
    >>> X, y = make_images(1000, rng=0)
    >>> A = template_matcher(0.0)
    >>> float(np.mean(A(X) == y))
    0.869
    """
    sigma = _check_sigma(sigma)
    shifted = np.stack([np.roll(shape, shift, axis=(0, 1)) for shape in SHAPES for shift in SHIFTS])
    templates = gaussian_filter(shifted, (0, sigma, sigma)).reshape(len(shifted), -1)
    templates -= templates.mean(axis=1, keepdims=True)
    templates /= np.linalg.norm(templates, axis=1, keepdims=True)
    return TemplateMatcher(sigma=sigma, templates=templates)


@_one_blas_thread
def correctness(
    predictors: Sequence[Callable[[np.ndarray], np.ndarray]],
    n: int,
    rng: RngLike = None,
    *,
    chunk_size: int = _CHUNK,
) -> np.ndarray:
    """Per-image correctness of several predictors on ``n`` fresh images.

    The images are streamed (see :func:`iter_images`) and never held all at
    once, so ``n`` can be in the hundreds of thousands: the population of the
    :ref:`ch-benchmark`.

    Returns
    -------
    ndarray of bool, shape (len(predictors), n)
        ``True`` where a predictor labels an image correctly.

    Examples
    --------
    >>> from sigeval.course.shapes import correctness, template_matcher
    >>> right = correctness([template_matcher(0.0), template_matcher(0.5)], 2000, rng=0)
    >>> right.shape, right.mean(axis=1).round(3).tolist()
    ((2, 2000), [0.843, 0.836])
    """
    out = np.empty((len(predictors), check_positive_int(n, "n")), dtype=bool)
    start = 0
    for images, labels in iter_images(n, rng, chunk_size=chunk_size):
        stop = start + len(labels)
        for row, predict in enumerate(predictors):
            out[row, start:stop] = predict(images) == labels
        start = stop
    return out


@dataclass(frozen=True)
class MatcherExperiment:
    """The article's Part 1 data: two fixed matchers, a population and one test set.

    Attributes
    ----------
    matchers : tuple of TemplateMatcher
        Matcher A (no blur) and matcher B (blur 0.5).
    population_correct : ndarray of bool, shape (2, n_population)
        Per-image correctness of A and B on the population stand-in.
    test_images : ndarray, shape (n_test, 16, 16)
    test_labels : ndarray of int, shape (n_test,)
    test_correct : ndarray of bool, shape (2, n_test)
        Per-image correctness of A and B on the test set.
    """

    matchers: tuple[TemplateMatcher, TemplateMatcher]
    population_correct: np.ndarray = field(repr=False)
    test_images: np.ndarray = field(repr=False)
    test_labels: np.ndarray = field(repr=False)
    test_correct: np.ndarray = field(repr=False)

    @property
    def population_accuracy(self) -> np.ndarray:
        """Population accuracy of A and B."""
        return self.population_correct.mean(axis=1)

    @property
    def test_accuracy(self) -> np.ndarray:
        """Test-set accuracy of A and B."""
        return self.test_correct.mean(axis=1)


@disk_cached()
def matcher_experiment(
    rng: RngLike = 0, *, n_population: int = 200_000, n_test: int = 1000
) -> MatcherExperiment:
    """Score matchers A and B on a large population sample and on one test set.

    With the defaults this is the article's Part 1 (``default_rng(0)``: first
    200,000 population images, then the 1,000 test images). Pass a Generator to
    keep drawing from it afterwards, as the article does for its bootstrap.

    Examples
    --------
    >>> from sigeval.course.shapes import matcher_experiment
    >>> exp = matcher_experiment(rng=0, n_population=2000, n_test=500)
    >>> exp.test_correct.shape
    (2, 500)
    """
    rng = check_rng(rng)
    matchers = (template_matcher(0.0), template_matcher(0.5))
    population_correct = correctness(matchers, n_population, rng)
    images, labels = make_images(n_test, rng)
    test_correct = np.stack([matcher(images) == labels for matcher in matchers])
    return MatcherExperiment(matchers, population_correct, images, labels, test_correct)


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

    @_one_blas_thread
    def predict(self, features: np.ndarray) -> np.ndarray:
        """Predicted classes of every network, shape (networks, n)."""
        features = np.asarray(features, dtype=float)
        nets, dims, hidden = self.W1.shape
        # One wide product for the first layer of all networks: each column of a
        # matrix product is computed on its own, so network j's block equals
        # features @ W1[j] exactly, and BLAS runs far faster on one wide matrix.
        wide = self.W1.transpose(1, 0, 2).reshape(dims, nets * hidden)
        out = np.empty((nets, len(features)), dtype=np.int64)
        for s in range(0, len(features), _CHUNK):
            h = features[s : s + _CHUNK] @ wide
            h += self.b1.reshape(-1)
            np.maximum(h, 0, out=h)
            h = h.reshape(len(h), nets, hidden).transpose(1, 0, 2)
            logits = h @ self.W2 + self.b2[:, None, :]
            out[:, s : s + _CHUNK] = logits.argmax(axis=2)
        return out

    def accuracy(self, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
        """Accuracy of every network on labelled features, shape (networks,)."""
        return np.mean(self.predict(features) == np.asarray(labels), axis=1)


@_one_blas_thread
def train_mlp(
    features: np.ndarray,
    labels: np.ndarray,
    seeds: int | Iterable[int],
    hidden: int,
    *,
    epochs: int = 10,
    lr: float = 0.05,
    batch: int = 20,
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
        Training inputs, e.g. ``blur(images)``.
    labels : ndarray of int, shape (n,)
    seeds : int or iterable of int
        One network per seed.
    hidden : int
        Hidden units.
    epochs, lr, batch
        Passes over the data, learning rate, minibatch size.

    Returns
    -------
    MLP
        The trained networks, stacked in the order of ``seeds``.

    Examples
    --------
    >>> from sigeval.course.shapes import blur, make_images, train_mlp
    >>> X, y = make_images(400, rng=0)
    >>> nets = train_mlp(blur(X), y, seeds=[0, 1], hidden=8, epochs=2)
    >>> nets.predict(blur(X)).shape
    (2, 400)
    """
    for trained in _sgd_epochs(features, labels, seeds, hidden, epochs, lr, batch):
        pass
    return trained


def _check_training(features, labels, seeds, hidden, epochs, batch):
    """Validated inputs of :func:`train_mlp` (features as float, seeds as a tuple)."""
    features = np.asarray(features, dtype=float)
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
    seeds = (seeds,) if isinstance(seeds, int | np.integer) else tuple(int(s) for s in seeds)
    if not seeds:
        raise ValueError("`seeds` must hold at least one seed; got none.")
    hidden = check_positive_int(hidden, "hidden")
    epochs = check_positive_int(epochs, "epochs", minimum=0)
    batch = check_positive_int(batch, "batch")
    if len(features) < batch:
        raise ValueError(
            f"`batch` must not exceed the number of examples {len(features)}; got {batch}."
        )
    return features, labels, seeds, hidden, epochs, batch


def _sgd_epochs(features, labels, seeds, hidden, epochs, lr, batch) -> Iterator[MLP]:
    """The networks before training and after each epoch: ``epochs + 1`` snapshots.

    The one implementation of the training of :func:`train_mlp` and
    :func:`train_mlp_checkpoints`; each snapshot holds copies of the weights.
    """
    features, labels, seeds, hidden, epochs, batch = _check_training(
        features, labels, seeds, hidden, epochs, batch
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


@_one_blas_thread
def train_mlp_checkpoints(
    features: np.ndarray,
    labels: np.ndarray,
    seeds: int | Iterable[int],
    hidden: int,
    *,
    epochs: int = 10,
    lr: float = 0.05,
    batch: int = 20,
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
    >>> from sigeval.course.shapes import blur, make_images, train_mlp, train_mlp_checkpoints
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
    trains 20 networks per width on blurred pixels (:func:`blur`, sigma 1) and
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
    >>> from sigeval.course.shapes import seed_sweep
    >>> sweep = seed_sweep(hidden=(8,), seeds=range(3), rng=0, n_train=200, n_test=100, n_fresh=500)
    >>> list(sweep.runs.columns)
    ['hidden', 'seed', 'test_acc', 'fresh_acc']
    """
    seeds = tuple(int(s) for s in seeds)
    rng = check_rng(rng)
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
    >>> from sigeval.course.shapes import checkpoint_sweep
    >>> sweep = checkpoint_sweep(8, range(3), epochs=4, rng=0, n_train=200, n_test=100, n_fresh=500)
    >>> list(sweep.runs.columns), len(sweep.runs)
    (['seed', 'epoch', 'test_acc', 'fresh_acc'], 12)
    >>> list(sweep.best_checkpoints().columns)
    ['seed', 'best_epoch', 'test_acc', 'fresh_acc', 'last_test_acc', 'last_fresh_acc']
    """
    seeds = tuple(int(s) for s in seeds)
    hidden = check_positive_int(hidden, "hidden")
    epochs = check_positive_int(epochs, "epochs")
    n_fresh = check_positive_int(n_fresh, "n_fresh")
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


def _hits(nets: Sequence[MLP], features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """Correct predictions of every network of every width on one chunk."""
    return np.concatenate([np.count_nonzero(net.predict(features) == labels, axis=1) for net in nets])


def _call_now(fn: Callable, *args) -> Future:
    """Run ``fn`` at once, with the interface of ``Executor.submit``."""
    task: Future = Future()
    task.set_result(fn(*args))
    return task

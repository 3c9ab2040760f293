"""The synthetic shape benchmark: images and two template matchers.

Each image is 16 by 16 pixels and shows one of four classes (a disc, a
square, a cross or a triangle): the shape is moved by at most two pixels in
each direction, multiplied by a contrast drawn uniformly from [0.5, 1], and
buried in Gaussian pixel noise with standard deviation 0.8. Because the
generator is ours, the *population* accuracy of a model can be measured on as
many fresh images as we like, which no real benchmark allows. The small NumPy MLP trained on these images is in
:mod:`sigeval.course.mlp`.

Everything here follows the source article's reference script operation for
operation and draws random numbers in the same order, so the article's seeds
give the article's numbers; it is faster because it works on arrays (and on
chunks of images, so that memory stays bounded) instead of looping in Python.

Explained in :ref:`ch-benchmark`.
"""

from __future__ import annotations

import numbers
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

import numpy as np
from scipy.ndimage import gaussian_filter

from .._validation import RngLike, check_positive_int, check_rng
from ._compute import CHUNK, one_blas_thread
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









# --------------------------------------------------------------------------- images


def iter_images(
    n: int, rng: RngLike = None, *, chunk_size: int = CHUNK
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

    @one_blas_thread
    def scores(self, images: np.ndarray) -> np.ndarray:
        """Class scores, shape (n, 4): the best correlation over shifts per class."""
        images = np.asarray(images, dtype=float)
        return np.concatenate(
            [self._chunk_scores(images[s : s + CHUNK]) for s in range(0, len(images), CHUNK)]
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


@one_blas_thread
def correctness(
    predictors: Sequence[Callable[[np.ndarray], np.ndarray]],
    n: int,
    rng: RngLike = None,
    *,
    chunk_size: int = CHUNK,
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
    n_population = check_positive_int(n_population, "n_population")
    n_test = check_positive_int(n_test, "n_test")
    rng = check_rng(rng)
    matchers = (template_matcher(0.0), template_matcher(0.5))
    population_correct = correctness(matchers, n_population, rng)
    images, labels = make_images(n_test, rng)
    test_correct = np.stack([matcher(images) == labels for matcher in matchers])
    return MatcherExperiment(matchers, population_correct, images, labels, test_correct)

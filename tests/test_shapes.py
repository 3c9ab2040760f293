"""sigeval.course.shapes: the generator's draws and the template matchers."""

import numpy as np
import pytest

from sigeval.course.shapes import (
    IMAGE_SIZE,
    NOISE_SD,
    SHAPES,
    SHIFTS,
    blur,
    iter_images,
    make_images,
    make_scenes,
    matcher_experiment,
    template_matcher,
)

# --------------------------------------------------------------------------- images and scenes


@pytest.mark.parametrize(("n", "seed"), [(1, 0), (500, 4), (1300, 5)])
def test_scenes_have_the_images_and_labels_of_make_images(n, seed):
    scenes = make_scenes(n, rng=seed)
    images, labels = make_images(n, rng=seed)
    np.testing.assert_array_equal(scenes.images, images)
    np.testing.assert_array_equal(scenes.labels, labels)
    assert len(scenes) == n
    assert repr(scenes) == f"Scenes(n={n})"


def test_scenes_leave_the_generator_where_make_images_does():
    a, b = np.random.default_rng(9), np.random.default_rng(9)
    make_scenes(50, a)
    make_images(50, b)
    assert a.random() == b.random()


def test_masks_are_the_shifted_clean_shapes():
    scenes = make_scenes(2000, rng=3)
    expected = np.stack(
        [np.roll(SHAPES[c], tuple(s), axis=(0, 1)) for c, s in zip(scenes.labels, scenes.shifts)]
    )
    assert scenes.masks.dtype == bool
    np.testing.assert_array_equal(scenes.masks, expected.astype(bool))
    np.testing.assert_array_equal(scenes.clean, scenes.contrasts[:, None, None] * expected)
    # The draws cover their ranges, and what is left of an image is the pixel noise.
    assert set(scenes.labels.tolist()) == {0, 1, 2, 3}
    assert {tuple(s) for s in scenes.shifts.tolist()} == set(SHIFTS)
    assert 0.5 <= scenes.contrasts.min() and scenes.contrasts.max() < 1.0
    residual = scenes.images - scenes.clean
    assert residual.std() == pytest.approx(NOISE_SD, abs=0.005)
    assert abs(residual.mean()) < 0.005


@pytest.mark.parametrize("chunk_size", [1, 7, 512, 1000, 5000])
def test_chunked_iter_images_equals_make_images(chunk_size):
    images, labels = make_images(1000, rng=2)
    chunks = list(iter_images(1000, rng=2, chunk_size=chunk_size))
    assert all(len(x) == len(y) <= chunk_size for x, y in chunks)
    assert [x.shape[1:] for x, _ in chunks] == [(IMAGE_SIZE, IMAGE_SIZE)] * len(chunks)
    np.testing.assert_array_equal(np.concatenate([x for x, _ in chunks]), images)
    np.testing.assert_array_equal(np.concatenate([y for _, y in chunks]), labels)


# --------------------------------------------------------------------------- template matchers


@pytest.mark.parametrize("sigma", [0.0, 0.5])
def test_matcher_labels_every_noiseless_shape(sigma):
    clean = np.stack([np.roll(shape, shift, axis=(0, 1)) for shape in SHAPES for shift in SHIFTS])
    classes = np.repeat(np.arange(len(SHAPES)), len(SHIFTS))
    np.testing.assert_array_equal(template_matcher(sigma)(clean), classes)
    scenes = make_scenes(300, rng=1)  # the contrast does not change a correlation
    np.testing.assert_array_equal(template_matcher(sigma)(scenes.clean), scenes.labels)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: make_images(0), ValueError, "`n` must be an integer >= 1; got 0"),
        (lambda: make_scenes(-3), ValueError, "`n` must be an integer >= 1; got -3"),
        (lambda: make_scenes(2.5), TypeError, "`n` must be an integer"),
        (lambda: iter_images(10, chunk_size=0), ValueError, "`chunk_size` must be an integer >= 1"),
        (lambda: iter_images(True), TypeError, "`n` must be an integer"),
        (lambda: make_images(3, rng="seed"), TypeError, "`rng` must be a numpy.random.Generator"),
        (lambda: template_matcher(-0.5), ValueError, "`sigma` must be a non-negative number"),
        (lambda: template_matcher(float("nan")), ValueError, "`sigma` must be a non-negative"),
        (lambda: blur(np.zeros((2, 16, 16)), sigma=-1), ValueError, "`sigma` must be a non-negative"),
        (lambda: blur(np.zeros((16, 16))), ValueError, r"`images` must have shape \(n, height, width\)"),
        # matcher_experiment names its own sizes, not the `n` of the functions it calls.
        (lambda: matcher_experiment(n_population=0), ValueError, "`n_population` must be an integer >= 1; got 0"),
        (lambda: matcher_experiment(n_test=0), ValueError, "`n_test` must be an integer >= 1; got 0"),
        (lambda: matcher_experiment(n_test=10.0), TypeError, "`n_test` must be an integer"),
    ],
)
def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()

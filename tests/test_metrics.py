"""sigeval.metrics called directly: boolean inputs, degenerate resamples and errors naming the argument.

The metrics inside a bootstrap are tested in test_resampling.py (AP, IoU) and
test_roc.py (AUC) against per-resample references.
"""

import warnings

import numpy as np
import pytest

from sigeval import average_precision, ratio_of_sums, roc_auc


def _no_warnings(fn, *args):
    """``fn(*args, axis=1)``, failing on any warning (such as NumPy's RuntimeWarning for 0 / 0)."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return fn(*args, axis=1)


# --------------------------------------------------------------------------- ratio_of_sums

def test_ratio_of_sums_takes_boolean_masks_as_counts():
    # Pixel masks: intersection and union as booleans, per image and pixel.
    inter = np.array([[[True, False, False], [True, True, False]]])
    union = np.array([[[True, True, False], [True, True, True]]])
    assert ratio_of_sums(inter, union, axis=1)[0] == pytest.approx(3 / 5)
    assert ratio_of_sums(inter[0], union[0]) == pytest.approx(3 / 5)


def test_ratio_of_sums_zero_denominator_is_silent_inf_or_nan():
    # bootstrap_ci refuses these values with its own error; NumPy's warnings would only add noise.
    out = _no_warnings(ratio_of_sums, np.array([[1.0, 2.0], [0.0, 0.0]]), np.zeros((2, 2)))
    assert out[0] == np.inf
    assert np.isnan(out[1])


@pytest.mark.parametrize("name", ["numerator", "denominator"])
def test_ratio_of_sums_refuses_text_naming_the_argument(name):
    arrays = {"numerator": np.ones((1, 2)), "denominator": np.ones((1, 2)), name: np.array([["1", "2"]])}
    with pytest.raises(TypeError, match=rf"`{name}` must hold real numbers; got text"):
        ratio_of_sums(**arrays, axis=1)


# --------------------------------------------------------------------------- average_precision

def test_average_precision_takes_boolean_true_positives():
    scores = np.array([[[0.9, 0.3], [0.8, np.nan]]])
    as_bool = average_precision(scores, np.array([[[True, False], [True, False]]]), np.array([[1, 2]]), axis=1)
    assert as_bool[0] == pytest.approx((1 / 1 + 2 / 2) / 3)


def test_average_precision_without_objects_is_silent_nan():
    scores = np.array([[[0.9, np.nan]], [[0.5, 0.4]]])
    out = _no_warnings(average_precision, scores, np.zeros((2, 1, 2)), np.array([[0], [2]]))
    assert np.isnan(out[0])
    assert out[1] == 0.0   # objects but no true positive: AP 0, not NaN


def test_average_precision_true_positive_flags_must_be_zero_or_one_at_detections():
    scores = np.array([[[0.9, 0.5, np.nan]]])
    with pytest.raises(ValueError, match=r"`is_true_positive` must be 0 or 1 \(or bool\) wherever "
                                         r"`scores` holds a detection; got 0\.5\."):
        average_precision(scores, np.array([[[1.0, 0.5, 0.0]]]), np.array([[2]]), axis=1)
    # Padding slots may hold anything: they are not detections.
    padded = average_precision(scores, np.array([[[1.0, 0.0, 0.5]]]), np.array([[2]]), axis=1)
    assert padded[0] == pytest.approx(1 / 2)


def test_average_precision_names_the_first_resample_with_too_many_true_positives():
    # Resample 0 finds exactly its one object (allowed); resample 1 claims two hits for one object.
    scores = np.array([[[0.9, 0.8]], [[0.9, 0.8]]])
    tp = np.array([[[1, 0]], [[1, 1]]])
    message = (r"`is_true_positive` marks 2 true positives but `n_positives` counts only 1 "
               r"ground-truth objects \(resample 1\); each object can be matched by one detection at most\.")
    with pytest.raises(ValueError, match=message):
        average_precision(scores, tp, np.array([[1], [1]]), axis=1)


@pytest.mark.parametrize("name", ["scores", "is_true_positive", "n_positives"])
def test_average_precision_refuses_text_naming_the_argument(name):
    arrays = {"scores": np.ones((1, 1, 2)), "is_true_positive": np.zeros((1, 1, 2)),
              "n_positives": np.ones((1, 1)), name: np.array([[["a"]]])}
    with pytest.raises(TypeError, match=rf"`{name}` must hold real numbers; got text"):
        average_precision(**arrays, axis=1)


def test_average_precision_refuses_scores_without_a_resample_axis():
    with pytest.raises(ValueError, match=r"`scores` must have a leading resample axis"):
        average_precision(np.ones(3), np.ones(3), np.ones(1), axis=1)


def test_metrics_of_one_test_set_are_the_batch_of_one():
    # axis=0 (the default) reads the items on the first axis and returns a float.
    rng = np.random.default_rng(0)
    labels, scores = rng.integers(0, 2, 50), rng.normal(size=50)
    auc = roc_auc(labels, scores)
    assert isinstance(auc, float) and auc == roc_auc(labels[None], scores[None], axis=1)[0]
    # Against the pairwise definition: P(positive outscores negative), ties one half.
    pos, neg = scores[labels == 1], scores[labels == 0]
    wins = (pos[:, None] > neg[None, :]) + 0.5 * (pos[:, None] == neg[None, :])
    assert auc == pytest.approx(wins.mean(), rel=1e-14)
    inter, union = rng.integers(0, 5, (20, 3)), rng.integers(5, 9, (20, 3))
    iou = ratio_of_sums(inter, union)
    assert isinstance(iou, float) and iou == pytest.approx(inter.sum() / union.sum(), rel=1e-15)
    det = np.where(rng.random((10, 4)) < 0.3, np.nan, rng.random((10, 4)))
    tp, n_pos = np.where(np.isnan(det), 0, rng.random((10, 4)) < 0.5), np.full(10, 3)
    assert average_precision(det, tp, n_pos) == average_precision(det[None], tp[None], n_pos[None], axis=1)[0]


@pytest.mark.parametrize(
    ("call", "why"),
    [
        (lambda: roc_auc([1, 1, 1], [0.2, 0.4, 0.1]), r"all of one class"),
        (lambda: ratio_of_sums([0.0, 1.0], [0.0, 0.0]), r"the denominator sums to zero"),
        (lambda: average_precision([[0.9, np.nan]], [[0, 0]], [0]), r"no ground-truth object"),
    ],
)
def test_metric_of_one_test_set_is_refused_when_undefined(call, why):
    with pytest.raises(ValueError, match=rf"^The metric is undefined on these items: .*{why}"):
        call()


@pytest.mark.parametrize("axis", [2, -1, 1.0, True])
def test_metrics_take_axis_zero_or_one_only(axis):
    error = TypeError if isinstance(axis, (bool, float)) else ValueError
    with pytest.raises(error, match=r"`axis` must be"):
        roc_auc([1, 0], [0.2, 0.1], axis=axis)


# --------------------------------------------------------------------------- roc_auc

def test_roc_auc_takes_boolean_labels():
    labels = np.array([[True, True, False, False, False]])
    scores = np.array([[0.9, 0.4, 0.4, 0.2, 0.1]])
    assert roc_auc(labels, scores, axis=1)[0] == pytest.approx((3 + 2.5) / 6)
    assert roc_auc(labels[0], scores[0]) == pytest.approx((3 + 2.5) / 6)


@pytest.mark.parametrize("name", ["labels", "scores"])
def test_roc_auc_refuses_text_naming_the_argument(name):
    arrays = {"labels": np.array([[1, 0]]), "scores": np.array([[0.2, 0.1]]), name: np.array([["1", "0"]])}
    with pytest.raises(TypeError, match=rf"`{name}` must hold real numbers; got text"):
        roc_auc(**arrays, axis=1)


def test_roc_auc_errors_name_the_argument_and_the_expectation():
    with pytest.raises(ValueError, match=r"`labels` must have a leading resample axis"):
        roc_auc(np.array([1, 0]), np.array([0.2, 0.1]), axis=1)
    with pytest.raises(ValueError, match=r"^`labels` and `scores` must both have shape \(batch, n_items\) with axis=1; "
                                         r"got \(1, 2\) and \(1, 3\)\.$"):
        roc_auc(np.array([[1, 0]]), np.array([[0.2, 0.1, 0.3]]), axis=1)
    with pytest.raises(ValueError, match=r"^`labels` and `scores` must both have shape \(n_items,\) with axis=0; "
                                         r"got \(1, 2\) and \(1, 2\)\. For a batch of resamples pass axis=1\.$"):
        roc_auc(np.array([[1, 0]]), np.array([[0.2, 0.1]]))
    message = (r"^`labels` and `scores` must hold NaN at the same positions \(the padding of grouped "
               r"resamples\); a NaN score with a label \(or a NaN label with a score\) is a failed "
               r"item, which is never dropped silently\.$")
    with pytest.raises(ValueError, match=message):
        roc_auc(np.array([[1.0, 0.0]]), np.array([[np.nan, 0.1]]), axis=1)

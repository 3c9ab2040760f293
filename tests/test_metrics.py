"""sigeval.metrics called directly: boolean inputs, degenerate resamples and errors naming the argument.

The metrics inside a bootstrap are tested in test_resampling.py (AP, IoU) and
test_roc.py (AUC) against per-resample references.
"""

import warnings

import numpy as np
import pytest

from sigeval import average_precision, bootstrap_ci, ratio_of_sums, ratio_of_sums_ci, roc_auc


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
        (lambda: ratio_of_sums([0.0, 1.0], [0.0, 0.0]), r"`denominator` sums to zero"),
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


# --------------------------------------------------------------------------- hostile inputs (tools/hostile_check.py)

@pytest.mark.parametrize(
    ("call", "error", "message"),
    [
        # NaN in one test set is a failed item, not padding: never dropped silently.
        (lambda: roc_auc([np.nan, 0, 1, 0], [np.nan, 0.2, 0.3, 0.1]), ValueError, r"^`labels` holds NaN at position\(s\) 0"),
        (lambda: ratio_of_sums([1.0, np.nan], [2.0, 4.0]), ValueError, r"^`numerator` holds NaN at position\(s\) 1"),
        (lambda: ratio_of_sums([1.0, 3.0], [2.0, np.nan]), ValueError, r"^`denominator` holds NaN"),
        (lambda: average_precision([[0.9, 0.3], [0.8, np.nan]], [[1, 0], [1, 0]], [np.nan, 2]), ValueError,
         r"^`n_positives` holds NaN at position\(s\) 0"),
        # An infinite term made an infinite ratio (blamed on the denominator) or a ratio of 0.
        (lambda: ratio_of_sums([np.inf, 1.0], [1.0, 1.0]), ValueError, r"^`numerator` must be finite; got inf\.$"),
        (lambda: ratio_of_sums([1.0, 1.0], [np.inf, 1.0]), ValueError, r"^`denominator` must be finite; got inf\.$"),
        (lambda: ratio_of_sums([1e308, 1e308], [1.0, 1.0]), ValueError, r"^`numerator` sums beyond float64"),
        (lambda: ratio_of_sums([1.0, 2.0], [1.0, -1.0]), ValueError, r"`denominator` sums to zero\.$"),
        (lambda: ratio_of_sums(1.0, 4.0), ValueError, r"^`numerator` must hold one value per item, shape \(n_items, \.\.\.\)"),
        (lambda: average_precision(0.9, 1, 1), ValueError, r"^`scores` must hold one value per item"),
        # Object counts that are not counts gave an AP.
        (lambda: average_precision([[0.9, 0.3], [0.8, np.nan]], [[1, 0], [1, 0]], [np.inf, 2]), ValueError,
         r"^`n_positives` must hold counts of ground-truth objects, whole numbers >= 0; got inf\.$"),
        (lambda: average_precision([[0.9, 0.3], [0.8, np.nan]], [[1, 0], [1, 0]], [-1, 4]), ValueError,
         r"whole numbers >= 0; got -1\.0\.$"),
        (lambda: average_precision([[0.9, 0.3], [0.8, np.nan]], [[1, 0], [1, 0]], [1.5, 2]), ValueError,
         r"whole numbers >= 0; got 1\.5\.$"),
        (lambda: roc_auc([1, 1, 1], [0.1, 0.2, 0.3]), ValueError, r"`labels` are all of one class"),
        (lambda: roc_auc([], []), ValueError, r"^`labels` and `scores` must hold at least one item each; got none\.$"),
        # The whole messages, with the argument named.
        (lambda: ratio_of_sums([1.0, 1.0], [1e308, 1e308]), ValueError,
         r"^`denominator` sums beyond float64 \(1\.8e308\); divide `numerator` and `denominator` by the same factor\.$"),
        (lambda: roc_auc([0, 1, 1], [0.1, np.nan, 0.3]), ValueError, r"^`scores` holds NaN at position\(s\) 1 "),
        (lambda: roc_auc([1, 1, 1], [0.1, 0.2, 0.3]), ValueError,
         r"^The metric is undefined on these items: `labels` are all of one class \(an AUC needs positives and "
         r"negatives\)\.$"),
        (lambda: average_precision([[0.9, 0.3]], [[0, 0]], [0]), ValueError,
         r"^The metric is undefined on these items: there is no ground-truth object \(`n_positives` sums to zero\)\.$"),
    ],
)
def test_metrics_of_one_test_set_refuse_hostile_inputs_naming_the_argument(call, error, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning on the way to the error
        with pytest.raises(error, match=message):
            call()


def test_nan_still_pads_the_resamples_of_axis_one():
    # Grouped resamples pad with NaN: in both AUC arrays, in AP's object counts, in the sums of a ratio.
    assert roc_auc([[np.nan, 0, 1, 0]], [[np.nan, 0.2, 0.3, 0.1]], axis=1)[0] == 1.0
    ap = average_precision([[[0.9, 0.3], [np.nan, np.nan]]], [[[1, 0], [0, 0]]], [[1, np.nan]], axis=1)
    assert ap[0] == 1.0
    assert ratio_of_sums([[1.0, np.nan]], [[2.0, np.nan]], axis=1)[0] == 0.5


# --------------------------------------------------------------------------- ratio_of_sums_ci


def _delta_method_se(y, x):
    """Delta method from the covariance matrix of the two means: an independent route."""
    n = y.size
    cov = np.cov(np.vstack([y, x]), ddof=1) / n
    r = y.sum() / x.sum()
    gradient = np.array([1 / x.mean(), -r / x.mean()])
    return float(np.sqrt(gradient @ cov @ gradient))


def test_ratio_of_sums_ci_matches_the_delta_method_and_the_formula():
    gen = np.random.default_rng(3)
    union = gen.integers(40, 400, 250).astype(float)
    inter = union * gen.beta(6, 3, 250)
    res = ratio_of_sums_ci(inter, union, confidence_level=0.9)
    r = inter.sum() / union.sum()
    assert res.estimate == pytest.approx(r, rel=1e-13)
    assert res.standard_error == pytest.approx(_delta_method_se(inter, union), rel=1e-10)
    # Cochran (1977), eq. 6.13 without the finite-population correction, by hand.
    by_hand = np.sqrt(np.sum((inter - r * union) ** 2) / (250 * 249)) / union.mean()
    assert res.standard_error == pytest.approx(by_hand, rel=1e-12)
    z = 1.6448536269514722
    assert res.confidence_interval.low == pytest.approx(r - z * by_hand, rel=1e-12)
    assert res.confidence_interval.high == pytest.approx(r + z * by_hand, rel=1e-12)
    assert res.confidence_level == 0.9 and res.n == 250 and isinstance(res.estimate, float)


def test_ratio_of_sums_ci_agrees_with_the_bootstrap():
    gen = np.random.default_rng(4)
    union = gen.integers(40, 400, 400).astype(float)
    inter = union * gen.beta(6, 3, 400)
    linear = ratio_of_sums_ci(inter, union)
    boot = bootstrap_ci((inter, union), statistic=ratio_of_sums, n_resamples=4000, rng=5)
    assert linear.standard_error == pytest.approx(boot.standard_error, rel=0.05)


def test_ratio_of_sums_ci_covers_the_population_ratio():
    # 2,000 test sets of 200 images from one population: coverage near 95% (Monte Carlo SE 0.005).
    gen = np.random.default_rng(6)
    union = gen.gamma(2.0, 100.0, (2000, 200))
    inter = union * gen.beta(6, 3, (2000, 200))
    truth = 6 / 9          # E[inter] / E[union], the beta's mean times E[union] over E[union]
    hits = [ratio_of_sums_ci(i, u).confidence_interval for i, u in zip(inter, union)]
    cover = np.mean([lo <= truth <= hi for lo, hi in hits])
    assert abs(cover - 0.95) < 0.015


def test_ratio_of_sums_ci_is_scale_free_and_handles_extremes():
    y, x = np.array([3.0, 1.0, 2.0, 5.0]), np.array([4.0, 2.0, 2.5, 6.0])
    base = ratio_of_sums_ci(y, x)
    big = ratio_of_sums_ci(y * 1e300, x * 1e300)
    tiny = ratio_of_sums_ci(y * 1e-300, x * 1e-300)
    for other in (big, tiny):
        assert other.estimate == pytest.approx(base.estimate, rel=1e-12)
        assert other.standard_error == pytest.approx(base.standard_error, rel=1e-12)
    exact = ratio_of_sums_ci([1.0, 2.0, 3.0], [2.0, 4.0, 6.0])   # y proportional to x: no spread
    assert exact.estimate == 0.5 and exact.standard_error == 0.0
    assert ratio_of_sums_ci([True, False, True], [True, True, True]).estimate == pytest.approx(2 / 3)


@pytest.mark.parametrize(
    "numerator, denominator, match",
    [
        ([1.0, 2.0], [1.0, 2.0, 3.0], "same|shape"),
        ([[1.0, 2.0]], [[1.0, 2.0]], "shape"),
        ([1.0], [2.0], "at least 2"),
        ([1.0, np.nan], [1.0, 2.0], "`numerator` must be finite"),
        ([1.0, 2.0], [1.0, np.inf], "`denominator` must be finite"),
        ([1.0, 2.0], [1.0, -1.0], "sums to zero"),
        ([1.0, 2.0], [0.0, 0.0], "sums to zero"),
    ],
)
def test_ratio_of_sums_ci_refuses(numerator, denominator, match):
    with pytest.raises(ValueError, match=match):
        ratio_of_sums_ci(numerator, denominator)
    with pytest.raises(ValueError, match="confidence_level"):
        ratio_of_sums_ci([1.0, 2.0], [2.0, 3.0], confidence_level=1.0)


def test_ratio_of_sums_ci_messages_and_overflow():
    cases = [
        (([1.0, 2.0], [1.0, 2.0, 3.0]), "`numerator` and `denominator` must both have shape (n_items,); got (2,) and (3,)."),
        (([1.0, np.nan, np.inf], [1.0, 2.0, 3.0]), "`numerator` must be finite; got nan, inf."),
        (([1.0, 2.0, 3.0], [1.0, np.inf, 3.0]), "`denominator` must be finite; got inf."),
        (([1.0, 2.0], [1.0, -1.0]), "`denominator` sums to zero: the ratio is undefined."),
        (([-1e308, 1e308], [1e-308, 1e-308]),
         "The ratio or its standard error overflows float64 for these `numerator` and `denominator`."),
    ]
    for args, message in cases:
        with warnings.catch_warnings():
            warnings.simplefilter("error")          # the overflow is refused without a RuntimeWarning first
            with pytest.raises(ValueError) as info:
                ratio_of_sums_ci(*args)
        assert str(info.value) == message
    for kwargs, name in [(dict(numerator="a", denominator=[1.0, 2.0]), "`numerator`"),
                         (dict(numerator=[1.0, 2.0], denominator="a"), "`denominator`"),
                         (dict(numerator=[1.0, 2.0], denominator=[1.0, 2.0], confidence_level="a"), "`confidence_level`")]:
        with pytest.raises(TypeError, match=name):
            ratio_of_sums_ci(**kwargs)

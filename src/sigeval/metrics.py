"""Metrics that are not averages of per-item scores, as bootstrap statistics.

Dataset-level IoU (a ratio of sums) and average precision are computed on
resamples of whole items, so that an interval for them keeps each image's
detections together; the area under the ROC curve ranks every resample's
items anew. Each answers the plain call on one test set (``axis=0``, the
default: items on the first axis, a float back) and follows the callable
convention of :func:`sigeval.resampling.bootstrap_ci` with ``axis=1`` (arrays
of shape ``(batch, n_items, ...)``, one value per resample back).

Explained in :ref:`ch-bootstrap` (IoU, AP) and :ref:`ch-two-models` (AUC).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._validation import _show, check_batched, check_item_axis, real_array

__all__ = ["ratio_of_sums", "average_precision", "roc_auc"]


def ratio_of_sums(numerator: ArrayLike, denominator: ArrayLike, *, axis: int = 0) -> float | np.ndarray:
    r"""Ratio of two sums over each resample, such as dataset-level IoU.

    .. math:: \mathrm{IoU} = \frac{\sum_i |P_i \cap G_i|}{\sum_i |P_i \cup G_i|}

    over the images ``i`` of a test set or of a resample: the benchmark's IoU,
    which is not the mean of the per-image IoUs. Sums run over every axis but
    the batch axis and ignore NaN (the padding of grouped resamples). For a mean over classes of
    per-class IoUs, pass ``(n_items, C)`` arrays to a callable such as
    ``lambda i, u, axis: (np.nansum(i, axis) / np.nansum(u, axis)).mean(1)``. A zero
    denominator gives NaN or infinity, which :func:`~sigeval.resampling.bootstrap_ci` refuses.

    Follows the callable convention of this module. Explained in :ref:`ch-bootstrap`.

    Parameters
    ----------
    numerator, denominator : array_like
        Arrays of the same shape: ``(n_items, ...)`` with ``axis=0``,
        ``(batch, n_items, ...)`` with ``axis=1``.
    axis : {0, 1}
        The item axis: 0 for one test set, 1 for a batch of resamples (as
        :func:`~sigeval.resampling.bootstrap_ci` passes it).

    Returns
    -------
    float or ndarray
        The ratio (``axis=0``), or one per resample, shape ``(batch,)``.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import ratio_of_sums
    >>> inter, union = np.array([30.0, 5.0]), np.array([40.0, 20.0])
    >>> round(ratio_of_sums(inter, union), 4)   # (30 + 5) / (40 + 20), not mean(0.75, 0.25)
    0.5833
    >>> ratio_of_sums(inter[None], union[None], axis=1)   # a batch of one resample
    array([0.58333333])
    """
    num = real_array(numerator, "numerator", allow_bool=True)
    den = real_array(denominator, "denominator", allow_bool=True)
    one = check_item_axis(axis) == 0
    if one:
        num, den = num[None], den[None]
    check_batched(num, "numerator")
    if den.shape != num.shape:
        raise ValueError(
            f"`numerator` and `denominator` must have the same shape; got {num.shape} and {den.shape}."
        )
    axes = tuple(range(1, num.ndim))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = np.nansum(num, axis=axes) / np.nansum(den, axis=axes)
    return _one_value(ratio, "the denominator sums to zero") if one else ratio


def average_precision(
    scores: ArrayLike, is_true_positive: ArrayLike, n_positives: ArrayLike, *, axis: int = 0
) -> float | np.ndarray:
    r"""Average precision of the detections pooled over the images of each resample.

    All detections of the resample's images are ranked by decreasing score;
    with :math:`\mathrm{tp}_k = 1` when the detection at rank ``k`` is a true
    positive, :math:`P(k) = \sum_{j \le k} \mathrm{tp}_j / k` the precision at
    rank ``k`` and :math:`N_+` the total number of ground-truth objects of the
    resampled images,

    .. math:: \mathrm{AP} = \frac{1}{N_+} \sum_k \mathrm{tp}_k\, P(k),

    the area under the non-interpolated precision–recall curve (recall steps of
    :math:`1/N_+` at each true positive). Ground-truth objects that no detection
    found contribute precision 0, so AP < 1 unless every object is found ahead
    of every false positive. An image drawn twice contributes its detections
    and its objects twice. Ties in score are ranked in the order the detections
    appear in the resample (break them beforehand if that matters). AP is NaN
    for a resample without ground-truth objects, which :func:`~sigeval.resampling.bootstrap_ci`
    refuses. This is the AP of PASCAL VOC 2010+ and COCO without their
    precision interpolation (Everingham et al., 2015).

    Follows the callable convention of this module: detections are padded per
    image to ``D`` slots, with NaN scores marking empty slots. Explained in :ref:`ch-bootstrap`.

    Parameters
    ----------
    scores : array_like
        Shape ``(n_images, D)`` with ``axis=0``, ``(batch, n_images, D)`` with
        ``axis=1``: detection confidences, NaN for padding.
    is_true_positive : array_like
        Same shape: 1 (or True) where the detection matches a ground-truth object
        not matched by a higher-scored detection, else 0.
    n_positives : array_like
        Shape ``(n_images,)``, or ``(batch, n_images)``: ground-truth objects per image.
    axis : {0, 1}
        The image axis: 0 for one test set, 1 for a batch of resamples (as
        :func:`~sigeval.resampling.bootstrap_ci` passes it).

    Returns
    -------
    float or ndarray
        The AP (``axis=0``), or one per resample, shape ``(batch,)``.

    Raises
    ------
    ValueError
        If the shapes disagree, or a resample holds more true positives than
        ground-truth objects.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import average_precision
    >>> scores = np.array([[0.9, 0.3], [0.8, np.nan]])   # 2 images, up to 2 detections
    >>> tp = np.array([[1, 0], [1, 0]])
    >>> round(average_precision(scores, tp, [1, 2]), 4)   # (1/1 + 2/2) / 3
    0.6667
    """
    s = real_array(scores, "scores")
    hits = real_array(is_true_positive, "is_true_positive", allow_bool=True)
    positives = real_array(n_positives, "n_positives")
    one = check_item_axis(axis) == 0
    if one:
        s, hits, positives = s[None], hits[None], positives[None]
    check_batched(s, "scores")
    if hits.shape != s.shape:
        raise ValueError(
            f"`is_true_positive` must have the shape of `scores` {s.shape}; got {hits.shape}."
        )
    if positives.shape != s.shape[:2]:
        raise ValueError(
            f"`n_positives` must have shape (batch, n_images) = {s.shape[:2]}; got {positives.shape}."
        )
    detection = ~np.isnan(s)
    bad = detection & (hits != 0) & (hits != 1)
    if np.any(bad):
        raise ValueError(
            f"`is_true_positive` must be 0 or 1 (or bool) wherever `scores` holds a detection; "
            f"got {_show(hits[bad])}."
        )
    batch = s.shape[0]
    s = s.reshape(batch, -1)
    hits = (hits.reshape(batch, -1) == 1) & detection.reshape(batch, -1)
    total = np.nansum(positives.reshape(batch, -1), axis=1)
    found = hits.sum(axis=1)
    if np.any(found > total):
        row = int(np.flatnonzero(found > total)[0])
        raise ValueError(
            f"`is_true_positive` marks {int(found[row])} true positives but `n_positives` "
            f"counts only {total[row]:g} ground-truth objects (resample {row}); each object "
            "can be matched by one detection at most."
        )
    # -NaN is NaN, which argsort places last: padding never precedes a detection.
    order = np.argsort(-s, axis=1, kind="stable")
    ranked = np.take_along_axis(hits, order, axis=1)
    precision = np.cumsum(ranked, axis=1) / np.arange(1, s.shape[1] + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        ap = np.sum(precision * ranked, axis=1) / total
    return _one_value(ap, "there is no ground-truth object (`n_positives` sums to zero)") if one else ap


def roc_auc(labels: ArrayLike, scores: ArrayLike, *, axis: int = 0) -> float | np.ndarray:
    r"""Area under the ROC curve of each resample, ties counting one half.

    With :math:`m` positives (label 1) and :math:`n` negatives (label 0) in a
    resample and :math:`R_i` the midrank of item :math:`i`'s score among the
    resample's scores,

    .. math::

        \mathrm{AUC} = \frac{\sum_{i:\,y_i = 1} R_i - m(m+1)/2}{mn}
        = \frac{1}{mn} \sum_{i:\,y_i=1} \sum_{j:\,y_j=0}
          \Bigl([s_i > s_j] + \tfrac12 [s_i = s_j]\Bigr),

    the Mann–Whitney :math:`U` of the positives over :math:`mn`: the
    probability that a random positive outscores a random negative. Sorting
    makes it :math:`O(N \log N)` per resample. A resample without positives or
    without negatives has no AUC (NaN, which :func:`~sigeval.resampling.bootstrap_ci` refuses).

    Follows the callable convention of :func:`~sigeval.resampling.bootstrap_ci`,
    so a paired bootstrap of the difference of two models' AUCs is
    ``paired_bootstrap_ci((labels, scores_a), (labels, scores_b), statistic=roc_auc)``.
    With ``groups=``, the NaN padding (NaN in both arrays) is ignored. The
    same AUC and DeLong's standard error of a difference come from
    :func:`~sigeval.roc.delong_test`. Explained in :ref:`ch-two-models`.

    Parameters
    ----------
    labels : array_like
        Shape ``(n_items,)`` with ``axis=0``, ``(batch, n_items)`` with
        ``axis=1``: 1 for a positive item, 0 for a negative one (NaN only as
        padding, where ``scores`` is NaN too).
    scores : array_like
        Same shape: the model's scores, higher meaning "more positive".
    axis : {0, 1}
        The item axis: 0 for one test set, 1 for a batch of resamples (as
        :func:`~sigeval.resampling.bootstrap_ci` passes it).

    Returns
    -------
    float or ndarray
        The AUC (``axis=0``), or one per resample, shape ``(batch,)``.

    Raises
    ------
    ValueError
        If the shapes differ or are not ``(n_items,)`` (``(batch, n_items)``),
        a label is not 0 or 1, a score is infinite, NaN appears in only one of
        the arrays, or (``axis=0``) the items are all of one class.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import roc_auc
    >>> labels = [1, 1, 0, 0, 0]
    >>> scores = [0.9, 0.4, 0.4, 0.2, 0.1]
    >>> round(roc_auc(labels, scores), 4)   # (3 + 2.5) / 6: the tie at 0.4 counts one half
    0.9167

    A paired bootstrap of the difference of two models' AUCs, beside DeLong's
    standard error of the same difference:

    >>> from sigeval import delong_test, paired_bootstrap_ci
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> a, b = y + rng.normal(0, 1, 400), y + rng.normal(0, 1.5, 400)
    >>> res = paired_bootstrap_ci((y, a), (y, b), statistic=roc_auc, n_resamples=2000, rng=1)
    >>> delong = delong_test(y, a, b)
    >>> round(res.estimate, 3), round(delong.estimate, 3)
    (0.139, 0.139)
    >>> round(res.standard_error, 3), round(delong.standard_error, 3)
    (0.034, 0.034)
    """
    y = real_array(labels, "labels", allow_bool=True)
    s = real_array(scores, "scores")
    one = check_item_axis(axis) == 0
    if one:
        if y.ndim != 1 or s.shape != y.shape:
            raise ValueError(
                "`labels` and `scores` must both have shape (n_items,) with axis=0; got "
                f"{y.shape} and {s.shape}. For a batch of resamples pass axis=1."
            )
        y, s = y[None], s[None]
    check_batched(y, "labels")
    if y.ndim != 2 or s.shape != y.shape:
        raise ValueError(
            "`labels` and `scores` must both have shape (batch, n_items) with axis=1; got "
            f"{y.shape} and {s.shape}."
        )
    pad = np.isnan(y)
    if not np.array_equal(pad, np.isnan(s)):
        raise ValueError(
            "`labels` and `scores` must hold NaN at the same positions (the padding of "
            "grouped resamples); a NaN score with a label (or a NaN label with a score) "
            "is a failed item, which is never dropped silently."
        )
    bad = ~pad & (y != 0) & (y != 1)
    if np.any(bad):
        raise ValueError(f"`labels` must be 0 or 1; got {_show(y[bad])}.")
    if np.any(np.isinf(s)):
        raise ValueError(f"`scores` must be finite; got {_show(s[np.isinf(s)])}.")
    # Padding ranks above every real score, so the real items keep their midranks.
    ranks = stats.rankdata(np.where(pad, np.inf, s), axis=1)
    positive = y == 1
    m = positive.sum(axis=1)
    n = (y == 0).sum(axis=1)
    rank_sum = np.where(positive, ranks, 0.0).sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = (rank_sum - m * (m + 1) / 2) / (m * n)
    return _one_value(auc, "the items are all of one class (an AUC needs positives and negatives)") if one else auc


def _one_value(values: np.ndarray, why: str) -> float:
    """The metric of one test set, refused when it is undefined rather than returned as NaN."""
    value = float(values[0])
    if not np.isfinite(value):
        raise ValueError(f"The metric is undefined on these items: {why}.")
    return value

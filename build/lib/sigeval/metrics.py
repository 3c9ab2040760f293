"""Metrics that are not averages of per-item scores, as bootstrap statistics.

Dataset-level IoU (a ratio of sums) and average precision are computed on
resamples of whole items, so that an interval for them keeps each image's
detections together. Both follow the callable convention of
:func:`sigeval.resampling.bootstrap_ci`.

Explained in :ref:`ch-bootstrap`.
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._validation import check_batched, check_item_axis

__all__ = ["ratio_of_sums", "average_precision"]


def ratio_of_sums(numerator: ArrayLike, denominator: ArrayLike, *, axis: int = 1) -> np.ndarray:
    r"""Ratio of two sums over each resample, such as dataset-level IoU.

    .. math:: \mathrm{IoU} = \frac{\sum_i |P_i \cap G_i|}{\sum_i |P_i \cup G_i|}

    over the images ``i`` of a resample: the benchmark's IoU, which is not the
    mean of the per-image IoUs. Sums run over every axis but the first and
    ignore NaN (the padding of grouped resamples). For a mean over classes of
    per-class IoUs, pass ``(n_items, C)`` arrays to a callable such as
    ``lambda i, u, axis: (np.nansum(i, axis) / np.nansum(u, axis)).mean(1)``. A zero
    denominator gives NaN or infinity, which :func:`bootstrap_ci` refuses.

    Follows the callable convention of this module. Explained in :ref:`ch-bootstrap`.

    Parameters
    ----------
    numerator, denominator : array_like
        Arrays of the same shape ``(batch, n_items, ...)``.
    axis : int
        The item axis; 1, as :func:`~sigeval.resampling.bootstrap_ci` passes it.

    Returns
    -------
    ndarray
        Shape ``(batch,)``.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import ratio_of_sums
    >>> inter, union = np.array([[30.0, 5.0]]), np.array([[40.0, 20.0]])
    >>> ratio_of_sums(inter, union)   # (30 + 5) / (40 + 20), not mean(0.75, 0.25)
    array([0.58333333])
    """
    num = np.asarray(numerator, dtype=float)
    den = np.asarray(denominator, dtype=float)
    check_batched(num, "numerator")
    check_item_axis(axis)
    if den.shape != num.shape:
        raise ValueError(
            f"`numerator` and `denominator` must have the same shape; got {num.shape} and {den.shape}."
        )
    axes = tuple(range(1, num.ndim))
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.nansum(num, axis=axes) / np.nansum(den, axis=axes)


def average_precision(
    scores: ArrayLike, is_true_positive: ArrayLike, n_positives: ArrayLike, *, axis: int = 1
) -> np.ndarray:
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
    for a resample without ground-truth objects, which :func:`bootstrap_ci`
    refuses. This is the AP of PASCAL VOC 2010+ and COCO without their
    precision interpolation (Everingham et al., 2015).

    Follows the callable convention of this module: detections are padded per
    image to ``D`` slots, with NaN scores marking empty slots. Explained in :ref:`ch-bootstrap`.

    Parameters
    ----------
    scores : array_like
        Shape ``(batch, n_images, D)``: detection confidences, NaN for padding.
    is_true_positive : array_like
        Same shape: 1 (or True) where the detection matches a ground-truth object
        not matched by a higher-scored detection, else 0.
    n_positives : array_like
        Shape ``(batch, n_images)``: ground-truth objects per image.
    axis : int
        The image axis; 1, as :func:`~sigeval.resampling.bootstrap_ci` passes it.

    Returns
    -------
    ndarray
        Shape ``(batch,)``.

    Raises
    ------
    ValueError
        If the shapes disagree, or a resample holds more true positives than
        ground-truth objects.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import average_precision
    >>> scores = np.array([[[0.9, 0.3], [0.8, np.nan]]])   # 1 resample, 2 images
    >>> tp = np.array([[[1, 0], [1, 0]]])
    >>> average_precision(scores, tp, np.array([[1, 2]]))   # (1/1 + 2/2) / 3
    array([0.66666667])
    """
    s = np.asarray(scores, dtype=float)
    hits = np.asarray(is_true_positive)
    positives = np.asarray(n_positives, dtype=float)
    check_batched(s, "scores")
    check_item_axis(axis)
    if hits.shape != s.shape:
        raise ValueError(
            f"`is_true_positive` must have the shape of `scores` {s.shape}; got {hits.shape}."
        )
    if positives.shape != s.shape[:2]:
        raise ValueError(
            f"`n_positives` must have shape (batch, n_images) = {s.shape[:2]}; got {positives.shape}."
        )
    batch = s.shape[0]
    s = s.reshape(batch, -1)
    hits = (hits.reshape(batch, -1) == 1) & ~np.isnan(s)
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
        return np.sum(precision * ranked, axis=1) / total

"""Bootstrap intervals, grouped resampling, non-average metrics and paired permutation tests.

The bootstrap puts an interval around any score computed from ``n`` test items
by recomputing it on resamples of the items drawn with replacement (Efron &
Tibshirani, 1993). The paired bootstrap and the paired permutation test compare
two models scored on the same items.

Explained in :ref:`ch-bootstrap` (intervals,
groups, metrics that are not averages) and :ref:`ch-two-models` (paired bootstrap, permutation test).

Statistics
----------
``statistic="mean"`` (the default) takes one 1-D array of per-item scores and is
computed without materialising resamples: a resample of items taking ``r``
distinct values is described by the multinomial counts of those values, and a
resample of groups by how often each group was drawn (see :func:`bootstrap_ci`).

Any other statistic is a **callable** that follows the convention of
``scipy.stats.bootstrap`` (``vectorized=True``): it receives the resampled data
arrays, each with a leading resample axis, and the item axis as ``axis``, and
returns one value per resample::

    statistic(*arrays, axis=1) -> shape (batch,)
    arrays[j].shape == (batch, n_items, *item_shape_j)

For one-dimensional items the item axis is the last one, as in scipy, so
``np.mean``, ``np.median`` and any statistic written for
``scipy.stats.bootstrap`` work unchanged. ``batch`` varies from call to call
(resamples are drawn in chunks of bounded memory), so the callable must reduce
over every axis but the first. All data
arrays are resampled with the same item indices, so the entries of one item
stay together (the intersection and union of one image, the padded detections
and the object count of one image). The estimate is the callable on the data
itself, with ``batch = 1``.
With ``groups=``, the resample is the concatenation of the drawn groups, each
padded with NaN to the size of the largest group: arrays then have shape
``(batch, n_groups * max_group_size, *item_shape)`` and the callable must ignore
NaN padding (``np.nansum``, ``np.nanmean``). :func:`~sigeval.metrics.ratio_of_sums` and
:func:`~sigeval.metrics.average_precision` follow both rules. A callable that returns NaN or
infinity on any resample raises an error instead of being averaged away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike

from ._bootstrap_engine import (
    AUCStatistic,
    CallableStatistic,
    MeanStatistic,
    Units,
    check_bootstrap_options,
    run_bootstrap,
)
from ._options import BOOTSTRAP_METHODS, BootstrapMethod
from ._results import BootstrapResult
from ._validation import (
    RngLike,
    as_array,
    check_difference,
    check_scores,
    real_array,
)
from .metrics import roc_auc

__all__ = [
    "BOOTSTRAP_METHODS",
    "bootstrap_ci",
    "paired_bootstrap_ci",
]


Data = ArrayLike | tuple[ArrayLike, ...]
Statistic = Literal["mean"] | Callable[..., Any]



# --------------------------------------------------------------------------- results



# --------------------------------------------------------------------------- public API

def bootstrap_ci(
    data: Data,
    *,
    statistic: Statistic = "mean",
    n_resamples: int = 10_000,
    method: BootstrapMethod = "percentile",
    confidence_level: float = 0.95,
    groups: ArrayLike | None = None,
    rng: RngLike = None,
    progress: bool = True,
) -> BootstrapResult:
    r"""Bootstrap confidence interval for a statistic of one model's per-item scores.

    Each of ``n_resamples`` resamples draws ``n`` items (or, with ``groups``,
    the number of groups) with replacement and recomputes the statistic
    :math:`\hat\theta^*_b`; with :math:`q_p` the ``p``-quantile of the
    :math:`\hat\theta^*_b` and :math:`\alpha = 1 - \text{confidence\_level}`:

    ``"percentile"``
        :math:`[q_{\alpha/2},\ q_{1-\alpha/2}]` (Efron & Tibshirani, 1993, ch. 13),
        computed as ``np.percentile(dist, [100 α/2, 100 (1 − α/2)])``.
    ``"basic"``
        :math:`[2\hat\theta - q_{1-\alpha/2},\ 2\hat\theta - q_{\alpha/2}]`
        (Davison & Hinkley, 1997, section 5.2). It reflects the quantiles
        about the estimate, so it can leave the range the statistic can take:
        for a proportion near 0 or 1 the basic interval can reach below 0 or
        above 1. That is a property of the method, not rounding; the
        percentile and BCa bounds are quantiles of the resampled values and
        stay inside their range.
    ``"bca"``
        Bias-corrected and accelerated (Efron, 1987; Efron & Tibshirani, 1993,
        ch. 14): quantiles at :math:`\Phi\!\big(z_0 + \frac{z_0 + z}{1 - a(z_0 + z)}\big)`
        for :math:`z = \pm\Phi^{-1}(\alpha/2)`, with
        :math:`z_0 = \Phi^{-1}\big((\#\{\hat\theta^*_b < \hat\theta\} + \#\{\hat\theta^*_b \le \hat\theta\}) / 2B\big)`
        (SciPy's convention) and the acceleration
        :math:`a = \sum_i (\bar\theta_{(\cdot)} - \theta_{(i)})^3 / \big(6 [\sum_i (\bar\theta_{(\cdot)} - \theta_{(i)})^2]^{3/2}\big)`
        from the jackknife values :math:`\theta_{(i)}` leaving out one item, or one
        group when ``groups`` is given. The jackknife is closed-form for the mean;
        for a callable it costs ``n`` evaluations on ``n - 1`` items (in chunks).

    **Mean.** With ``statistic="mean"`` a resample is summarised without drawing
    items: if the scores take ``r <= 256`` distinct values :math:`v_j` (0/1
    correctness, differences in {−1, 0, 1}) that repeat (``32 r <= n``), the
    counts of the values in a resample are :math:`\mathrm{Multinomial}(n, c_j/n)`
    and the resample mean is :math:`\sum_j C_j v_j / n`, exactly the distribution
    of the index bootstrap at a cost independent of ``n``. Otherwise items are
    drawn with ``rng.integers(0, n, size=(chunk, n))``.

    **Groups.** Test items are often correlated: video frames from the same
    clip, several crops cut from one picture, images of the same patient. ``groups`` gives each item a group
    label, and each resample draws the ``G`` groups with replacement, keeping all
    items of a drawn group (the cluster bootstrap). For the mean,
    :math:`\hat\theta^* = \sum_g m_g S_g / \sum_g m_g N_g` with :math:`m_g` the
    number of times group ``g`` was drawn, :math:`S_g` its sum and :math:`N_g`
    its size. A callable sees the drawn groups concatenated, each padded with
    NaN to the largest group's size (see the module docstring).

    Parameters
    ----------
    data : array_like or tuple of array_like
        A 1-D array of per-item scores, or a tuple of arrays sharing axis 0 (one
        entry per item), such as ``(intersections, unions)`` or padded per-image
        detections of shape ``(n_items, D)``. Only arrays with per-item axes may
        hold NaN (as padding); 1-D scores must be finite.
    statistic : "mean" or callable
        ``"mean"``, or ``f(*arrays, axis=1)`` mapping arrays of shape
        ``(batch, n_items, *item_shape)`` to shape ``(batch,)``, such as
        ``np.median``, :func:`~sigeval.metrics.ratio_of_sums` or :func:`~sigeval.metrics.average_precision`
        (scipy's convention; see the module's notes).
    n_resamples : int
        Number of bootstrap resamples ``B``, at least 2.
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"`` (case-insensitive, so ``"BCa"``).
    confidence_level : float
        Nominal coverage, strictly between 0 and 1.
    groups : array_like, optional
        One group label per item; resample whole groups instead of items.
    rng : numpy.random.Generator, int or None
        Source of the resamples. Index resampling draws
        ``rng.integers(0, n, size=(chunk, n))`` chunk after chunk, which is the
        same stream as one ``rng.integers(0, n, (n_resamples, n))``.

    Returns
    -------
    BootstrapResult

    Raises
    ------
    ValueError
        For NaN or infinite 1-D scores (with their positions), empty data, arrays
        of different lengths, ``groups`` of the wrong length, an unknown method,
        a level outside (0, 1), a callable returning the wrong shape or a
        non-finite value, ``n_resamples`` whose distribution would need more
        than 4 GiB, or a result that overflows float64.
    TypeError
        For a non-integer ``n_resamples``, a non-numeric (text, complex) array,
        group labels that cannot be compared, or a bad ``rng``.

    Warns
    -----
    UserWarning
        When every resample gives the same value (e.g. every item correct): the
        interval is then that single point, for BCa too, and says nothing about
        the score's uncertainty. Also when BCa's bias correction or acceleration
        is undefined and had to be bounded or set to 0.

    References
    ----------
    Efron, B. (1987). Better bootstrap confidence intervals. *JASA* 82(397), 171–185.
    Efron, B. and Tibshirani, R. J. (1993). *An Introduction to the Bootstrap*. Chapman & Hall.
    Davison, A. C. and Hinkley, D. V. (1997). *Bootstrap Methods and their Application*. CUP.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import bootstrap_ci, ratio_of_sums
    >>> correct = np.r_[np.ones(845), np.zeros(155)]
    >>> res = bootstrap_ci(correct, rng=0)
    >>> round(res.estimate, 3), round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.845, 0.822, 0.867)

    Dataset-level IoU, Σ intersections / Σ unions, with a BCa interval:

    >>> gen = np.random.default_rng(1)
    >>> unions = gen.integers(500, 1500, size=40).astype(float)
    >>> inters = unions * gen.beta(6, 2, size=40)
    >>> res = bootstrap_ci((inters, unions), statistic=ratio_of_sums, method="BCa", rng=0)
    >>> round(res.estimate, 3), round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.729, 0.677, 0.769)
    """
    statistic, n_resamples, method, confidence_level, rng = check_bootstrap_options(
        statistic, n_resamples, method, confidence_level, rng
    )
    arrays = _check_data(data, "data")
    units = Units(groups, len(arrays[0]))
    if statistic == "mean":
        engine = MeanStatistic.of_items(_mean_vector(arrays, "data"), units)
    else:
        engine = _auc_engine(statistic, (arrays,), units) or CallableStatistic(statistic, (arrays,), units)
    return run_bootstrap(engine, n_resamples, method, confidence_level, rng, "`data`", progress=progress)


def paired_bootstrap_ci(
    scores_a: Data,
    scores_b: Data,
    *,
    statistic: Statistic = "mean",
    n_resamples: int = 10_000,
    method: BootstrapMethod = "percentile",
    confidence_level: float = 0.95,
    groups: ArrayLike | None = None,
    rng: RngLike = None,
    progress: bool = True,
) -> BootstrapResult:
    r"""Paired bootstrap interval for the difference of a statistic between two models.

    Both models are scored on the same resample each time, and the bootstrap
    distribution is :math:`\hat\theta^*_A - \hat\theta^*_B`: an item that defeats
    both models moves both scores together, so its difficulty cancels in the
    difference (Efron & Tibshirani, 1993; Everingham et al., 2015, section 3.5,
    for AP and segmentation scores). The estimate is
    :math:`\hat\theta_A - \hat\theta_B`. Intervals, groups and the callable
    convention are as in :func:`bootstrap_ci`; the jackknife for BCa leaves the
    same item (or group) out of both models.

    For ``statistic="mean"`` the difference of means is the mean of the per-item
    differences ``d = a - b``, which takes at most three values for 0/1
    correctness, so the multinomial fast path applies. Explained in :ref:`ch-two-models`.

    Parameters
    ----------
    scores_a, scores_b : array_like or tuple of array_like
        Each a 1-D array of per-item scores or a tuple of per-item arrays, for
        the same items in the same order.
    statistic, n_resamples, method, confidence_level, groups, rng
        As in :func:`bootstrap_ci`. A callable is applied to each model's arrays.

    Returns
    -------
    BootstrapResult
        The interval of ``statistic(A) - statistic(B)``.

    Raises
    ------
    ValueError
        As :func:`bootstrap_ci`, and when the two models have different numbers
        of items or of arrays.

    References
    ----------
    Everingham, M. et al. (2015). The PASCAL Visual Object Classes Challenge: a
    retrospective. *IJCV* 111, 98–136.

    Examples
    --------
    Two classifiers that disagree on 72 of 1,000 images (44 won by A, 28 by B):

    >>> import numpy as np
    >>> from sigeval import paired_bootstrap_ci
    >>> a = np.r_[np.ones(44), np.zeros(28), np.ones(801), np.zeros(127)]
    >>> b = np.r_[np.zeros(44), np.ones(28), np.ones(801), np.zeros(127)]
    >>> res = paired_bootstrap_ci(a, b, rng=0)
    >>> round(res.estimate, 3), round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.016, 0.0, 0.033)
    """
    statistic, n_resamples, method, confidence_level, rng = check_bootstrap_options(
        statistic, n_resamples, method, confidence_level, rng
    )
    arrays_a = _check_data(scores_a, "scores_a")
    arrays_b = _check_data(scores_b, "scores_b")
    if len(arrays_a) != len(arrays_b):
        raise ValueError(
            "`scores_a` and `scores_b` must hold the same number of arrays; "
            f"got {len(arrays_a)} and {len(arrays_b)}."
        )
    if len(arrays_a[0]) != len(arrays_b[0]):
        raise ValueError(
            "`scores_a` and `scores_b` must be paired, with the same number of items; "
            f"got {len(arrays_a[0])} and {len(arrays_b[0])}."
        )
    units = Units(groups, len(arrays_a[0]))
    if statistic == "mean":
        diff = check_difference(
            _mean_vector(arrays_a, "scores_a"), _mean_vector(arrays_b, "scores_b"),
            ("scores_a", "scores_b"),
        )
        engine = MeanStatistic.of_items(diff, units)
    else:
        samples = (arrays_a, arrays_b)
        engine = _auc_engine(statistic, samples, units) or CallableStatistic(statistic, samples, units)
    return run_bootstrap(
        engine, n_resamples, method, confidence_level, rng, "`scores_a` and `scores_b`", progress=progress
    )


def _auc_engine(statistic, samples: tuple[tuple[np.ndarray, ...], ...], units: Units) -> AUCStatistic | None:
    """The O(n)-per-resample engine for ``statistic=roc_auc`` on items, when it applies."""
    if statistic is not roc_auc or units.layout is not None:
        return None
    if any(len(arrays) != 2 or arrays[0].ndim != 1 or arrays[1].ndim != 1 for arrays in samples):
        return None  # roc_auc then explains what it needs
    labels = samples[0][0]
    if any(not np.array_equal(arrays[0], labels) for arrays in samples[1:]):
        return None  # two models with labels of their own: the general path
    return AUCStatistic(labels, tuple(arrays[1] for arrays in samples), CallableStatistic(statistic, samples, units))


# --------------------------------------------------------------------------- validation



def _check_data(data, name: str) -> tuple[np.ndarray, ...]:
    """The data as a tuple of float arrays that share axis 0."""
    arrays = data if isinstance(data, tuple) else (data,)
    if not arrays:
        raise ValueError(f"`{name}` must not be an empty tuple.")
    if len(arrays) > 1 and all(np.ndim(x) == 0 for x in arrays):
        raise ValueError(
            f"`{name}` is a tuple of {len(arrays)} single numbers; a tuple is read as several arrays, one per "
            "argument of `statistic` (for example `(labels, scores)`). Pass one sample of per-item scores as a "
            f"list or an array: `list({name})`."
        )
    labels = [name] if len(arrays) == 1 else [f"{name}[{j}]" for j in range(len(arrays))]
    checked = tuple(_check_item_array(x, label) for x, label in zip(arrays, labels))
    lengths = [len(x) for x in checked]
    if len(set(lengths)) > 1:
        raise ValueError(
            f"The arrays of `{name}` must share axis 0 (one entry per item); got lengths {lengths}."
        )
    return checked


def _check_item_array(x, name: str) -> np.ndarray:
    """Per-item values: 1-D scores must be finite; per-item arrays may hold NaN padding."""
    arr = as_array(x, name)
    if arr.ndim <= 1:
        return check_scores(arr, name)
    arr = real_array(arr, name, allow_bool=True)
    if arr.shape[0] == 0:
        raise ValueError(f"`{name}` must hold at least one item; got shape {arr.shape}.")
    if np.any(np.isinf(arr)):
        where = np.argwhere(np.isinf(arr))[:3].tolist()
        raise ValueError(f"`{name}` holds infinite values, e.g. at index {where}.")
    return arr


def _mean_vector(arrays: tuple[np.ndarray, ...], name: str) -> np.ndarray:
    if len(arrays) != 1 or arrays[0].ndim != 1:
        shapes = ", ".join(str(x.shape) for x in arrays)
        raise ValueError(
            f"statistic='mean' needs `{name}` to be one 1-D array of per-item scores; "
            f"got {'a tuple, read as several arrays, of shapes' if len(arrays) > 1 else 'an array of shape'} "
            f"{shapes}. Pass a callable `statistic` for other data."
        )
    return arrays[0]


# --------------------------------------------------------------------------- resampling engine













# --------------------------------------------------------------------------- intervals








"""Adjusted p-values for a family of tests.

Each extra test is one more chance for noise to pass for an effect: twenty
variants tested against a baseline at level 0.05 give one false "significant"
result on average when none of them helps. The procedures here turn a family
of raw p-values into *adjusted* p-values, each the smallest level at which the
procedure rejects that hypothesis, so that ``adjusted <= alpha`` are the
rejections at level ``alpha``:

================  =========================================  ===============================
``method``        procedure                                  controls
================  =========================================  ===============================
``"bonferroni"``  every test at ``alpha / m``                FWER, any dependence
``"holm"``        Holm (1979) step-down                      FWER, any dependence
``"hochberg"``    Hochberg (1988) step-up                    FWER, independent or PRDS tests
``"bh"``          Benjamini and Hochberg (1995) step-up      FDR, independent or PRDS tests
``"by"``          Benjamini and Yekutieli (2001)             FDR, any dependence
================  =========================================  ===============================

Reporting the best of several runs is the same problem in another form: a
search over noise. :func:`expected_best_of_k` gives, exactly, what the best of
``k`` runs drawn from a sweep scores on average, and what the selected run
scores elsewhere.

Explained in :ref:`ch-multiple`.
"""

from __future__ import annotations

from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import special

from ._numeric import safe_scale
from ._validation import _integer_array, _show, check_choice, check_scores, real_array

__all__ = ["ADJUST_METHODS", "adjust_pvalues", "expected_best_of_k"]

#: The methods of :func:`adjust_pvalues`.
ADJUST_METHODS = ("bonferroni", "holm", "hochberg", "bh", "by")

AdjustMethod = Literal["bonferroni", "holm", "hochberg", "bh", "by"]


def _check_pvalues(pvalues: ArrayLike) -> np.ndarray:
    arr = real_array(pvalues, "pvalues")
    if arr.size == 0:
        raise ValueError("`pvalues` must not be empty.")
    nan = np.isnan(arr)
    if np.any(nan):
        where = np.flatnonzero(nan)
        raise ValueError(
            f"`pvalues` holds {where.size} NaN value(s) at flat position(s) {_show(where)}; "
            "a failed test must be handled explicitly, not dropped from the family."
        )
    bad = (arr < 0) | (arr > 1)
    if np.any(bad):
        raise ValueError(f"`pvalues` must lie in [0, 1]; got {_show(arr[bad])}.")
    return arr


def _adjust_sorted(p: np.ndarray, method: str) -> np.ndarray:
    """Adjusted p-values of p-values sorted ascending along the last axis."""
    m = p.shape[-1]
    i = np.arange(1, m + 1)
    if method == "bonferroni":
        return np.minimum(1.0, m * p)
    if method == "holm":
        # Step-down: the running maximum of (m - i + 1) p_(i).
        return np.minimum(1.0, np.maximum.accumulate((m - i + 1) * p, axis=-1))
    if method == "hochberg":
        factor = m - i + 1
    elif method == "bh":
        factor = m / i
    else:  # "by"
        factor = m * np.sum(1.0 / i) / i
    # Step-up: the running minimum of factor * p_(i), taken from the largest p down.
    scaled = (factor * p)[..., ::-1]
    return np.minimum(1.0, np.minimum.accumulate(scaled, axis=-1)[..., ::-1])


def adjust_pvalues(
    pvalues: ArrayLike, *, method: AdjustMethod = "holm", axis: int | None = None
) -> np.ndarray:
    r"""Adjusted p-values of a family of tests, in the order and shape given.

    With :math:`m` tests, :math:`p_{(1)} \le \dots \le p_{(m)}` the sorted
    p-values and :math:`\tilde p_{(i)}` their adjusted values:

    ``"bonferroni"``
        :math:`\tilde p_{(i)} = \min(1, m\,p_{(i)})`.
    ``"holm"`` (step-down; Holm, 1979)
        :math:`\tilde p_{(i)} = \min\big(1, \max_{j \le i} (m - j + 1)\,p_{(j)}\big)`:
        reject :math:`H_{(1)}, H_{(2)}, \dots` while :math:`p_{(i)} \le \alpha/(m - i + 1)`.
    ``"hochberg"`` (step-up; Hochberg, 1988)
        :math:`\tilde p_{(i)} = \min\big(1, \min_{j \ge i} (m - j + 1)\,p_{(j)}\big)`.
    ``"bh"`` (Benjamini & Hochberg, 1995)
        :math:`\tilde p_{(i)} = \min\big(1, \min_{j \ge i} \tfrac{m}{j}\,p_{(j)}\big)`:
        reject the :math:`i` smallest for the largest :math:`i` with
        :math:`p_{(i)} \le i\alpha/m`.
    ``"by"`` (Benjamini & Yekutieli, 2001)
        As ``"bh"`` with :math:`m` replaced by :math:`m \sum_{j=1}^m 1/j`.

    Rejecting the hypotheses with :math:`\tilde p \le \alpha` is exactly the
    procedure at level :math:`\alpha`. Adjusted values are never below the raw
    ones, never above 1, and keep the order of the raw ones; tied p-values get
    equal adjusted values. Bonferroni and Holm control the family-wise error
    rate (FWER) under any dependence; Hochberg controls it, and BH the false
    discovery rate (FDR), for independent (or positively dependent) tests; BY
    controls the FDR under any dependence.

    Parameters
    ----------
    pvalues : array_like of float
        Raw p-values in [0, 1], in any order and any shape, ties allowed.
    method : str
        ``"bonferroni"``, ``"holm"`` (default), ``"hochberg"``, ``"bh"`` or ``"by"``.
    axis : int or None
        ``None`` (default): all the p-values form one family. An integer: each
        1-D slice along that axis is a family of its own (many simulated
        families at once, as ``scipy.stats.false_discovery_control``).

    Returns
    -------
    ndarray
        Adjusted p-values, same shape and order as ``pvalues``.

    Raises
    ------
    ValueError
        If ``pvalues`` is empty, holds NaN or values outside [0, 1], ``axis``
        is out of range, or ``method`` is unknown.
    TypeError
        If ``pvalues`` does not hold numbers.

    Notes
    -----
    Explained in :ref:`ch-multiple`.

    Examples
    --------
    >>> from sigeval import adjust_pvalues
    >>> p = [0.01, 0.04, 0.03, 0.005]
    >>> adjust_pvalues(p, method="bonferroni")
    array([0.04, 0.16, 0.12, 0.02])
    >>> adjust_pvalues(p, method="holm")
    array([0.03, 0.06, 0.06, 0.02])
    >>> adjust_pvalues(p, method="bh")
    array([0.02, 0.04, 0.04, 0.02])
    """
    method = check_choice(method, "method", ADJUST_METHODS)
    p = _check_pvalues(pvalues)
    if axis is None:
        shape = p.shape
        p = p.reshape(1, -1)
        axis_used = 1
    else:
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"`axis` must be an integer or None; got {axis!r}.")
        if not -p.ndim <= axis < p.ndim:
            raise ValueError(
                f"`axis` must be in [{-p.ndim}, {p.ndim - 1}] for `pvalues` of shape {p.shape}; got {axis}."
            )
        shape = None
        axis_used = int(axis)
    moved = np.moveaxis(p, axis_used, -1)
    order = np.argsort(moved, axis=-1, kind="stable")
    adjusted_sorted = _adjust_sorted(np.take_along_axis(moved, order, axis=-1), method)
    adjusted = np.empty_like(moved)
    np.put_along_axis(adjusted, order, adjusted_sorted, axis=-1)
    adjusted = np.moveaxis(adjusted, -1, axis_used)
    return adjusted.reshape(shape) if shape is not None else adjusted


def expected_best_of_k(
    scores: ArrayLike, k: int | ArrayLike, *, values: ArrayLike | None = None
) -> float | np.ndarray:
    r"""Expected score of the best of ``k`` runs drawn at random from ``n`` runs.

    Picture a sweep of ``n`` runs (seeds) and a report that trains only ``k``
    of them and keeps the one with the highest score. Over all
    :math:`\binom{n}{k}` equally likely subsets, the expected maximum is

    .. math::

        E\big[\max_{i \in K} x_i\big]
        = \sum_{v} v \,\frac{\binom{L_v + m_v}{k} - \binom{L_v}{k}}{\binom{n}{k}},

    summed over the distinct scores :math:`v`, with :math:`m_v` runs scoring
    :math:`v` and :math:`L_v` runs scoring less: the fraction is the
    probability that the subset's best score is :math:`v`. With ``values``
    (for example each run's accuracy on fresh images), it returns instead the
    expected *value* of the selected run, the run with the best score in the
    subset, ties broken at random: :math:`v` is replaced by the mean of
    ``values`` over the runs scoring :math:`v`. Exact, no simulation: at
    ``k = 1`` it is the mean, at ``k = n`` the maximum (or the value of the
    best run).

    Parameters
    ----------
    scores : array_like of float
        One score per run, the one used for the selection; no NaN.
    k : int or array_like of int
        Runs per report, each in ``1..n``.
    values : array_like of float, optional
        One value per run, paired with ``scores``.

    Returns
    -------
    float or ndarray
        A float for a scalar ``k``, otherwise an array of the shape of ``k``.

    Raises
    ------
    ValueError
        For NaN scores, ``values`` of another length, or ``k`` outside ``1..n``.

    Notes
    -----
    Explained in :ref:`ch-multiple`.

    Examples
    --------
    >>> from sigeval import expected_best_of_k
    >>> expected_best_of_k([0.60, 0.62, 0.61, 0.65], [1, 2, 4])
    array([0.62      , 0.63333333, 0.65      ])

    Of the six pairs, three contain the run scoring 0.65, whose value is 0.61:

    >>> round(expected_best_of_k([0.60, 0.62, 0.61, 0.65], 2, values=[0.61, 0.60, 0.62, 0.61]), 6)
    0.608333
    """
    x = check_scores(scores, "scores")
    n = x.size
    v = x if values is None else check_scores(values, "values")
    if v.shape != x.shape:
        raise ValueError(
            f"`values` must be paired with `scores`, one per run; got {v.size} and {n}."
        )
    k_arr = _integer_array(k, "k")
    bad = (k_arr < 1) | (k_arr > n)
    if np.any(bad):
        raise ValueError(f"`k` must be between 1 and the number of runs {n}; got {_show(k_arr[bad])}.")
    _, inverse, counts = np.unique(x, return_inverse=True, return_counts=True)
    # Sums of values near 1.8e308 would overflow: average them at a power-of-two scale.
    scale = safe_scale(v)
    level_values = np.bincount(inverse, weights=v / scale) / counts
    below = np.concatenate([[0], np.cumsum(counts)[:-1]])
    kk = k_arr.reshape(-1, 1)
    # Probability that the best score of a random k-subset is each level (exact binomials).
    prob = (special.comb(below + counts, kk, exact=False) - special.comb(below, kk, exact=False))
    prob = prob / special.comb(n, kk, exact=False)
    out = (prob * level_values).sum(axis=1).reshape(k_arr.shape) * scale
    return float(out) if out.ndim == 0 else out

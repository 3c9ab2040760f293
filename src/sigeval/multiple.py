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

FWER is the probability of at least one false rejection; FDR the expected
share of false rejections among the rejections (over repeated families: in
one family the share can be larger).

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

from ._numeric import safe_scale
from ._validation import _integer_array, _show, check_alpha, check_choice, check_scores, real_array

__all__ = ["ADJUST_METHODS", "adjust_pvalues", "decision_levels", "expected_best_of_k"]

#: The methods of :func:`adjust_pvalues`.
ADJUST_METHODS = ("bonferroni", "holm", "hochberg", "bh", "by")

AdjustMethod = Literal["bonferroni", "holm", "hochberg", "bh", "by"]


def _check_pvalues(pvalues: ArrayLike) -> np.ndarray:
    arr = real_array(pvalues, "pvalues")
    if arr.size == 0:
        raise ValueError("`pvalues` must not be empty.")
    if np.all((arr >= 0) & (arr <= 1)):  # one pass for the usual case; NaN fails it
        return arr
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


def _sort_unit(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """An order that sorts the 1-D ``p`` (values in [0, 1]) and the sorted values.

    Faster than ``np.argsort``: a value in [0, 1] has its two top bits clear, so
    its bit pattern, shifted, leaves room in a 64-bit key for its position; one
    ``np.sort`` of the keys then sorts the values by their leading bits, ties
    broken by position. Values that share those leading bits but differ further
    down (about one pair in a few thousand) are put in order afterwards, group by
    group. Tied values may come in any order: the adjustments give them equal
    values whatever their order. Returns ``order`` and ``p[order]``.
    """
    n = p.size
    index_bits = max(1, (n - 1).bit_length())
    dropped = max(0, index_bits - 2)
    # In place, one array: few temporaries of n elements (each costs a pass, and cold pages).
    keys = (p + 0.0).view(np.uint64)  # + 0.0: -0.0 becomes 0.0, whose bits sort first
    keys >>= np.uint64(dropped)
    keys <<= np.uint64(index_bits)
    keys |= np.arange(n, dtype=np.uint64)
    keys.sort()
    keys &= np.uint64((1 << index_bits) - 1)
    order = keys.view(np.intp)  # positions below 2**62: the same numbers as signed integers
    ordered = p[order]
    descents = np.flatnonzero(ordered[1:] < ordered[:-1])
    if not descents.size:
        return order, ordered
    if descents.size > n // 64:  # values that differ only in their last bits: a plain sort
        order = np.argsort(p)
        return order, p[order]
    # The groups of equal leading bits that hold a descent, sorted again by the full value.
    keys = (ordered + 0.0).view(np.uint64) >> np.uint64(dropped)
    starts = np.flatnonzero(np.r_[True, keys[1:] != keys[:-1]])
    groups = np.unique(np.searchsorted(starts, descents, side="right") - 1)
    first, sizes = starts[groups], np.r_[starts, n][groups + 1] - starts[groups]
    if sizes.sum() > n // 8:  # large groups out of order: a plain sort
        order = np.argsort(p)
        return order, p[order]
    offsets = np.cumsum(sizes) - sizes
    positions = np.arange(sizes.sum()) - np.repeat(offsets - first, sizes)
    members = order[positions]
    order[positions] = members[np.lexsort((p[members], np.repeat(groups, sizes)))]
    ordered[positions] = p[order[positions]]
    return order, ordered


def _adjust_sorted(p: np.ndarray, method: str) -> np.ndarray:
    """Adjusted p-values of p-values sorted ascending along the last axis (``p`` is overwritten).

    The arithmetic is statsmodels' (``multipletests``): ``p_(i) / (i / m)`` for BH,
    so that both give the same numbers, not just the same numbers up to rounding.
    """
    m = p.shape[-1]
    if method == "holm":
        # Step-down: the running maximum of (m - i + 1) p_(i).
        np.multiply(p, np.arange(m, 0, -1, dtype=float), out=p)
        np.maximum.accumulate(p, axis=-1, out=p)
        return np.minimum(p, 1.0, out=p)
    if method == "hochberg":
        np.multiply(p, np.arange(m, 0, -1, dtype=float), out=p)
    elif method == "bh":
        factor = np.arange(1.0, m + 1)
        factor /= m
        np.divide(p, factor, out=p)
    else:  # "by": m / i times the harmonic sum, as (i / m) / sum(1 / i)
        factor = np.arange(1.0, m + 1)
        harmonic = np.sum(np.divide(1.0, factor))
        factor /= m
        factor /= harmonic
        np.divide(p, factor, out=p)
    # Step-up: the running minimum of factor * p_(i), taken from the largest p down.
    backwards = p[..., ::-1]
    np.minimum.accumulate(backwards, axis=-1, out=backwards)
    return np.minimum(p, 1.0, out=p)


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
    rate (FWER, the probability of any false rejection) under any dependence;
    Hochberg controls it, and BH the false discovery rate (FDR, the *expected*
    share of false rejections among the rejections, not the share in any one
    family), for independent (or positively dependent) tests; BY controls the
    FDR under any dependence. A Bonferroni-adjusted p-value depends only on
    its own p-value and :math:`m`; the step-wise ones depend on the other
    p-values of the family too (Holm's keeps the order of the raw values by
    taking a maximum, so it can equal :math:`(m - j + 1)\,p_{(j)}` of another
    test :math:`j`).

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
        axis_used = None
    else:
        if isinstance(axis, bool) or not isinstance(axis, (int, np.integer)):
            raise TypeError(f"`axis` must be an integer or None; got {axis!r}.")
        if not -p.ndim <= axis < p.ndim:
            raise ValueError(
                f"`axis` must be in [{-p.ndim}, {p.ndim - 1}] for `pvalues` of shape {p.shape}; got {axis}."
            )
        axis_used = int(axis)
    if method == "bonferroni":  # no order needed
        return np.minimum(p * (p.size if axis_used is None else p.shape[axis_used]), 1.0)
    if axis_used is None:
        order, ordered = _sort_unit(p.ravel())
        adjusted = np.empty(p.size)
        adjusted[order] = _adjust_sorted(ordered, method)
        return adjusted.reshape(p.shape)
    moved = np.moveaxis(p, axis_used, -1)
    # Any sort will do: tied p-values get equal adjusted values whatever their order.
    order = np.argsort(moved, axis=-1)
    adjusted_sorted = _adjust_sorted(np.take_along_axis(moved, order, axis=-1), method)
    adjusted = np.empty_like(moved)
    np.put_along_axis(adjusted, order, adjusted_sorted, axis=-1)
    return np.moveaxis(adjusted, -1, axis_used)


def decision_levels(
    pvalues: ArrayLike, *, alpha: float = 0.05, method: Literal["holm", "bonferroni"] = "holm"
) -> np.ndarray:
    r"""The level at which each test of a family is decided: it rejects exactly when its p-value is at most it.

    Bonferroni decides every test at :math:`\alpha/m`. Holm's step-down
    procedure, with the :math:`m` p-values sorted,
    :math:`p_{(1)} \le \dots \le p_{(m)}`, rejects :math:`H_{(i)}` when
    :math:`a_i = \max_{j \le i} (m - j + 1)\,p_{(j)} \le \alpha`; that is
    :math:`p_{(i)} \le \alpha_i` with :math:`\alpha_i = \alpha/(m - i + 1)` when
    the maximum is the test's own term, and :math:`\alpha\,p_{(i)}/a_i`
    (smaller) when an earlier test's term is larger. Each level lies between
    :math:`\alpha/m` and :math:`\alpha/(m - i + 1)`: the level at which to plan
    the power of that comparison (:meth:`~sigeval.report.Report.power` with
    ``correction="holm"``).

    Parameters
    ----------
    pvalues : array_like of float
        One family of raw p-values in [0, 1], any shape.
    alpha : float
        The family-wise level.
    method : {"holm", "bonferroni"}

    Returns
    -------
    ndarray
        The levels, same shape and order as ``pvalues``;
        ``pvalues <= levels`` equals ``adjust_pvalues(pvalues, method=method) <= alpha``.

    Notes
    -----
    Explained in :ref:`ch-multiple`.

    Examples
    --------
    >>> from sigeval import decision_levels
    >>> decision_levels([0.01, 0.04, 0.03, 0.005])  # 0.04 after 2 x 0.03 = 0.06: alpha x 0.04 / 0.06
    array([0.01666667, 0.03333333, 0.025     , 0.0125    ])
    >>> decision_levels([0.01, 0.04, 0.03, 0.005], method="bonferroni")
    array([0.0125, 0.0125, 0.0125, 0.0125])
    """
    method = check_choice(method, "method", ("holm", "bonferroni"))
    alpha = check_alpha(alpha)
    p = _check_pvalues(pvalues)
    m = p.size
    if method == "bonferroni":
        return np.full(p.shape, alpha / m)
    order, ordered = _sort_unit(p.ravel())
    position = np.arange(m)
    terms = (m - position) * ordered
    running = np.maximum.accumulate(terms)
    levels = np.empty(m)
    with np.errstate(invalid="ignore"):  # 0 / 0 in the branch not taken, where p-values are 0
        # The ratio first: alpha * p underflows for subnormal p-values, p / running does not.
        levels[order] = np.where(terms >= running, alpha / (m - position), alpha * (ordered / running))
    return levels.reshape(p.shape)


#: Most order-statistic weights held at once by :func:`expected_best_of_k` (8 MiB of float64).
_WEIGHT_BLOCK = 2**20


def _best_of_k_weights(n: int, k: np.ndarray) -> np.ndarray:
    r"""Probability that the best of a random ``k``-subset of ``n`` ranked runs is the ``j``-th best, ``j = 1..n``.

    :math:`p_{(j)} = \binom{n - j}{k - 1} / \binom{n}{k}` for the run of rank ``j``
    from the top, by the recursion :math:`p_{(1)} = k / n`,
    :math:`p_{(j+1)} = p_{(j)} \, (n - j + 1 - k) / (n - j)`: every factor lies in
    [0, 1), so nothing overflows (the binomials themselves exceed float64 from
    ``n`` of about 1030 and give inf / inf) and only weights below 1e-308
    underflow. One row per ``k``, O(n) memory per row.
    """
    kk = k.reshape(-1, 1).astype(float)
    position = np.arange(n, 1, -1, dtype=float)  # the rank from the bottom, n down to 2
    ratios = np.clip(position - kk, 0.0, None) / (position - 1)
    return (kk / n) * np.concatenate([np.ones((kk.shape[0], 1)), np.cumprod(ratios, axis=1)], axis=1)


def expected_best_of_k(
    scores: ArrayLike, k: int | ArrayLike, *, values: ArrayLike | None = None
) -> np.ndarray:
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
    ndarray
        The expected score (or value) for each ``k``, of the shape of ``k``: a 0-d
        array for one ``k`` (``float(...)`` gives the number).

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

    >>> round(float(expected_best_of_k([0.60, 0.62, 0.61, 0.65], 2, values=[0.61, 0.60, 0.62, 0.61])), 6)
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
    # The value of each run in ascending order of score: the mean over its tie level.
    ascending = level_values[inverse[np.argsort(x, kind="stable")]]
    flat = k_arr.ravel()
    out = np.empty(flat.size)
    # A block of k values at a time keeps the weights within _WEIGHT_BLOCK numbers whatever len(k).
    block = max(1, _WEIGHT_BLOCK // n)
    for start in range(0, flat.size, block):
        weights = _best_of_k_weights(n, flat[start:start + block])
        out[start:start + block] = weights @ ascending[::-1]
    return (out * scale).reshape(k_arr.shape)

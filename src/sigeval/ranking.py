"""Many models compared over many tasks, or many models on one test set.

Scores on different tasks are not commensurable (one point on one
benchmark is not one point on another), so Demšar (2006) compares ``k``
models over ``N`` tasks through their *ranks* on each task: the
Friedman test and the Iman–Davenport F statistic for "are they all alike?",
the Nemenyi critical difference for every pair, Holm's procedure for every
model against a control, and how many tasks a rank gap would need. How
sure a ranking is under resampling (of the tasks, or of the test items of
one test set) is in :mod:`sigeval.rank_uncertainty`.

The score table is a ``tasks × models`` array, or a ``pandas.DataFrame``
whose columns are the models (and whose index names the tasks). Rank 1 is
the best model on a task; ties share the average of their ranks.

Explained in :ref:`ch-ranking` and :ref:`ch-multiple` (bootstrap ranks).
"""

from __future__ import annotations

import functools
import math
import numbers
from dataclasses import dataclass
from typing import Any

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._ranks import score_table, within_ranks
from ._validation import (
    MAX_COUNT,
    _show,
    check_flag,
    check_positive_int,
    check_positive_real,
    check_unit_interval,
    real_array,
)
from .multiple import adjust_pvalues

__all__ = [
    "FriedmanResult",
    "friedman",
    "nemenyi_q",
    "nemenyi_cd",
    "tasks_for_gap",
    "cd_groups",
    "HolmControlResult",
    "holm_vs_control",
]


# --------------------------------------------------------------------------- input







def _check_n_models(n_models: int) -> int:
    return check_positive_int(n_models, "n_models", minimum=2)


# --------------------------------------------------------------------------- Friedman


@dataclass(frozen=True)
class FriedmanResult:
    """Result of :func:`friedman`.

    Attributes
    ----------
    models : tuple
        Model names (DataFrame columns) or column indices, in the input order.
    mean_ranks : ndarray
        Mean rank :math:`R_j` of every model over the tasks (1 is the best).
    ranks : ndarray
        The ``(n_tasks, n_models)`` table of ranks.
    statistic : float
        Friedman's :math:`\\chi^2_F`.
    pvalue : float
        :math:`P(\\chi^2_{k-1} \\ge \\chi^2_F)`.
    statistic_f : float
        The Iman–Davenport :math:`F_F` (infinite when every task ranks the
        models the same way).
    pvalue_f : float
        :math:`P(F_{k-1, (k-1)(N-1)} \\ge F_F)`.
    df : int
        :math:`k - 1`.
    df_f : tuple of int
        :math:`(k - 1, (k-1)(N-1))`.
    n_tasks : int
    n_models : int
    higher_is_better : bool
    """

    models: tuple
    mean_ranks: np.ndarray
    ranks: np.ndarray
    statistic: float
    pvalue: float
    statistic_f: float
    pvalue_f: float
    df: int
    df_f: tuple[int, int]
    n_tasks: int
    n_models: int
    higher_is_better: bool


def friedman(scores: ArrayLike, *, higher_is_better: bool = True) -> FriedmanResult:
    r"""Friedman test and Iman–Davenport F over a tasks × models score table.

    On each of the :math:`N` tasks the :math:`k` models are ranked (1 for
    the best, average ranks for ties) and :math:`R_j` is model :math:`j`'s mean
    rank. Under the null hypothesis that all models are equivalent,

    .. math::

        \chi^2_F = \frac{12N}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big]

    is approximately :math:`\chi^2_{k-1}` (Friedman, 1937), and Iman and
    Davenport's (1980) less conservative

    .. math:: F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F}

    is approximately :math:`F` with :math:`k-1` and :math:`(k-1)(N-1)`
    degrees of freedom; Demšar (2006) recommends the latter.
    :math:`\chi^2_F` is written as Demšar writes it, without a correction for
    ties: with tied scores it is smaller than ``scipy.stats.friedmanchisquare``,
    which divides by a tie correction; without ties the two agree.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_tasks, n_models)`` table, at least 2 × 2, no NaN. A
        DataFrame's columns name the models.
    higher_is_better : bool
        ``True`` for accuracies or AUCs; ``False`` for errors or losses.

    Returns
    -------
    FriedmanResult

    Raises
    ------
    ValueError
        For fewer than 2 models or tasks, or NaN or infinite scores.
    TypeError
        For non-numeric scores or a non-boolean ``higher_is_better``.

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import friedman
    >>> auc = [[0.76, 0.77, 0.80], [0.60, 0.59, 0.57], [0.95, 0.97, 0.97],
    ...        [0.63, 0.66, 0.66], [0.88, 0.89, 0.90], [0.66, 0.67, 0.69]]
    >>> res = friedman(auc)
    >>> res.mean_ranks
    array([2.66666667, 1.83333333, 1.5       ])
    >>> round(res.statistic, 3), round(res.pvalue, 3)
    (4.333, 0.115)
    """
    table, models = score_table(scores)
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    ranks = within_ranks(table, higher_is_better)
    n, k = table.shape
    mean_ranks = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4)
    chi2 = max(float(chi2), 0.0)  # rounding can leave -1e-15 when all ranks are equal
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denominator = n * (k - 1) - chi2
    if denominator <= 1e-12 * n * (k - 1):
        stat_f, p_f = math.inf, 0.0
    else:
        stat_f = (n - 1) * chi2 / denominator
        p_f = float(stats.f.sf(stat_f, df1, df2))
    return FriedmanResult(
        models=models,
        mean_ranks=mean_ranks,
        ranks=ranks,
        statistic=chi2,
        pvalue=float(stats.chi2.sf(chi2, df1)),
        statistic_f=float(stat_f),
        pvalue_f=p_f,
        df=df1,
        df_f=(df1, df2),
        n_tasks=n,
        n_models=k,
        higher_is_better=higher_is_better,
    )


# --------------------------------------------------------------------------- Nemenyi


def nemenyi_q(n_models: int, *, alpha: float = 0.05) -> float:
    r"""Critical value :math:`q_\alpha` of the Nemenyi test for ``n_models`` models (:math:`k`).

    :math:`q_\alpha = Q_{1-\alpha}(k, \infty)/\sqrt 2`, with :math:`Q` the
    studentized range distribution of ``k`` means and infinite degrees of
    freedom (``scipy.stats.studentized_range``). These are the values of
    Demšar's (2006) Table 5(a): 1.960, 2.343, 2.569, ... at
    :math:`\alpha = 0.05` (his table, from a rounded studentized-range table,
    differs in the third decimal for some :math:`k`).

    Parameters
    ----------
    n_models : int
        Number of models :math:`k`, at least 2.
    alpha : float
        Family-wise level, in (0, 1).

    Returns
    -------
    float

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import nemenyi_q
    >>> round(nemenyi_q(4), 3), round(nemenyi_q(4, alpha=0.10), 3)
    (2.569, 2.291)
    """
    return _q(_check_n_models(n_models), check_unit_interval(alpha, "alpha"))


@functools.lru_cache(maxsize=256)
def _q(k: int, alpha: float) -> float:
    # The studentized range quantile costs milliseconds; designs reuse a few (k, alpha).
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2))


def nemenyi_cd(n_models: int, n_tasks: int, *, alpha: float = 0.05) -> float:
    r"""Nemenyi critical difference of mean ranks for ``n_models`` models on ``n_tasks`` tasks.

    .. math:: \mathrm{CD} = q_\alpha \sqrt{\frac{k(k+1)}{6N}}

    with :math:`q_\alpha` from :func:`nemenyi_q`. Two models whose mean ranks
    differ by at least the CD are significantly different (Demšar, 2006,
    section 3.2.2), with the family-wise error of all :math:`k(k-1)/2` pairs
    held at :math:`\alpha`.

    Parameters
    ----------
    n_models : int
        Number of models :math:`k`, at least 2.
    n_tasks : int
        Number of tasks :math:`N`, at least 2.
    alpha : float
        Family-wise level, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For ``n_models < 2``, ``n_tasks < 2`` or ``alpha`` outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    Demšar's example, four models on fourteen datasets (his tasks):

    >>> from sigeval import nemenyi_cd
    >>> round(nemenyi_cd(4, 14), 3)
    1.254
    """
    k = n_models
    q = nemenyi_q(k, alpha=alpha)
    n = check_positive_int(n_tasks, "n_tasks", minimum=2)
    return q * math.sqrt(k * (k + 1) / (6 * n))


def tasks_for_gap(gap: float, n_models: int, *, alpha: float = 0.05) -> int:
    r"""Fewest tasks at which a mean-rank gap reaches the Nemenyi critical difference.

    Because :math:`\mathrm{CD} \propto 1/\sqrt N`, a gap :math:`g` between two
    of :math:`k` = ``n_models`` models becomes significant once

    .. math:: N \ge \frac{q_\alpha^2\, k(k+1)}{6 g^2},

    so the breadth a benchmark needs to resolve an observed gap is a property
    of the design. The answer is the smallest whole :math:`N \ge 2` with
    :func:`nemenyi_cd` ``(k, N) <= gap``.

    Parameters
    ----------
    gap : float
        Difference of mean ranks, in :math:`(0, k - 1]` (the largest possible gap).
    n_models : int
        Number of models :math:`k`, at least 2.
    alpha : float
        Family-wise level, in (0, 1).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        For a gap outside :math:`(0, k-1]`, ``n_models < 2`` or ``alpha`` outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import tasks_for_gap
    >>> tasks_for_gap(0.80, 4)
    35
    """
    k = _check_n_models(n_models)
    gap = check_positive_real(gap, "gap")
    if gap > k - 1:
        raise ValueError(
            f"`gap` cannot exceed k - 1 = {k - 1}, the largest difference of mean ranks "
            f"among {k} models; got {gap!r}."
        )
    q = nemenyi_q(k, alpha=alpha)

    def cd(n: int) -> float:
        return q * math.sqrt(k * (k + 1) / (6 * n))

    # The CD falls with N: the answer is at most MAX_COUNT exactly when cd(MAX_COUNT) reaches the gap.
    if cd(MAX_COUNT) > gap:
        raise ValueError(
            f"`gap` = {gap!r} is too small: the critical difference reaches it only beyond "
            f"{MAX_COUNT:,} tasks, more than a count can hold."
        )
    n = max(2, math.ceil(q**2 * k * (k + 1) / (6 * gap**2)))
    # Guard the ceiling against rounding in the closed form.
    while n > 2 and cd(n - 1) <= gap:
        n -= 1
    while cd(n) > gap:
        n += 1
    return int(n)


def cd_groups(mean_ranks: ArrayLike, critical_difference: float) -> list[tuple[int, ...]]:
    r"""Groups of models whose mean ranks are not separated by the critical difference.

    Two models are *not separated* when their mean ranks differ by less than
    ``critical_difference`` (the Nemenyi test declares them different at a
    difference of at least the CD). The groups are the maximal cliques of that
    relation: sets in which every pair is non-separated, not contained in a
    larger such set. On a line these are runs of consecutive models in rank
    order whose range is below the CD, so one pass over the sorted ranks finds
    them all. A critical-difference diagram joins each group with a bar.

    Parameters
    ----------
    mean_ranks : array_like of float
        One mean rank per model (at least 2), finite.
    critical_difference : float
        The CD, positive (:func:`nemenyi_cd`).

    Returns
    -------
    list of tuple of int
        Each group as model indices sorted from best (lowest) to worst mean
        rank; groups ordered by their best member. Groups of one model (a
        model separated from all others) are left out.

    Raises
    ------
    ValueError
        For fewer than 2 ranks, non-finite ranks or a CD that is not positive.

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    Demšar's Table 6 ranks: at :math:`\alpha = 0.05` (CD = 1.254) no pair is
    separated; at 0.10 (CD = 1.118) C4.5+m+cf (3) is separated from C4.5 (0):

    >>> from sigeval import cd_groups
    >>> cd_groups([3.143, 2.000, 2.929, 1.929], 1.254)
    [(3, 1, 2, 0)]
    >>> cd_groups([3.143, 2.000, 2.929, 1.929], 1.118)
    [(3, 1, 2), (2, 0)]
    """
    ranks = real_array(mean_ranks, "mean_ranks")
    if ranks.ndim != 1 or ranks.size < 2:
        raise ValueError(
            f"`mean_ranks` must be one-dimensional with at least 2 models; got shape {ranks.shape}."
        )
    if not np.all(np.isfinite(ranks)):
        raise ValueError(f"`mean_ranks` must be finite; got {_show(ranks[~np.isfinite(ranks)])}.")
    cd = check_positive_real(critical_difference, "critical_difference")
    order = np.argsort(ranks, kind="stable")
    r = ranks[order]
    # For each start, the end (exclusive) of the run within reach: r[end - 1] - r[start] < cd.
    ends = np.searchsorted(r, r + cd, side="left")
    groups = []
    last_end = 0
    for start, end in enumerate(ends):
        if end > last_end and end - start >= 2:
            groups.append(tuple(int(j) for j in order[start:end]))
        last_end = max(last_end, end)
    return groups


# --------------------------------------------------------------------------- Holm vs control


@dataclass(frozen=True)
class HolmControlResult:
    """Result of :func:`holm_vs_control`.

    Every array is in the order of ``models``: the models other than the
    control, in the input order.

    Attributes
    ----------
    control : object
        The control model's name (or column index).
    models : tuple
        The other models.
    mean_rank_difference : ndarray
        Control's mean rank minus the model's: positive when the model ranks
        better than the control.
    statistic : ndarray
        :math:`z` statistics (same sign as ``mean_rank_difference``).
    pvalue : ndarray
        Two-sided p-values, unadjusted.
    pvalue_holm : ndarray
        Holm-adjusted p-values over the ``k - 1`` comparisons.
    reject : ndarray of bool
        ``pvalue_holm <= alpha``.
    standard_error : float
        :math:`\\sqrt{k(k+1)/(6N)}`.
    alpha : float
    """

    control: Any
    models: tuple
    mean_rank_difference: np.ndarray
    statistic: np.ndarray
    pvalue: np.ndarray
    pvalue_holm: np.ndarray
    reject: np.ndarray
    standard_error: float
    alpha: float


def _control_index(control: Any, models: tuple) -> int:
    # An array is not a model name, and `in` would compare it elementwise.
    hashable = not isinstance(control, (bool, np.ndarray, list))
    if hashable and control in models:
        return models.index(control)
    if (
        isinstance(control, numbers.Integral)
        and not isinstance(control, bool)
        and 0 <= int(control) < len(models)
        and not any(isinstance(m, numbers.Integral) for m in models)
    ):
        return int(control)
    raise ValueError(
        f"`control` must be one of the models {list(models)!r} (or a column index "
        f"0..{len(models) - 1}); got {control!r}."
    )


def holm_vs_control(
    scores: ArrayLike,
    control: Any,
    *,
    alpha: float = 0.05,
    higher_is_better: bool = True,
) -> HolmControlResult:
    r"""Every model against a control over tasks: z tests on mean ranks, Holm-adjusted.

    With :math:`R_c` the control's mean rank and :math:`R_j` model :math:`j`'s,
    Demšar (2006, section 3.2.2) compares

    .. math:: z_j = \frac{R_c - R_j}{\sqrt{k(k+1)/(6N)}}

    with the standard normal (two-sided) and adjusts the :math:`k - 1`
    p-values with Holm's step-down procedure (:func:`~sigeval.multiple.adjust_pvalues`). When a
    new method is compared only with existing ones, these :math:`k-1`
    comparisons need less correction than all :math:`k(k-1)/2` pairs, and
    Holm rejects at least what the Bonferroni–Dunn test rejects.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_tasks, n_models)`` table, at least 2 × 2, no NaN.
    control : int or column name
        The control model: a DataFrame column name, or a column index.
    alpha : float
        Family-wise level for ``reject``, in (0, 1).
    higher_is_better : bool
        ``False`` for errors or losses.

    Returns
    -------
    HolmControlResult

    Raises
    ------
    ValueError
        For a table :func:`friedman` refuses, a ``control`` that is not a model
        or ``alpha`` outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> import pandas as pd
    >>> from sigeval import holm_vs_control
    >>> auc = pd.DataFrame({"base": [0.76, 0.60, 0.95, 0.63, 0.88, 0.66],
    ...                     "new": [0.80, 0.61, 0.97, 0.66, 0.90, 0.69],
    ...                     "other": [0.77, 0.59, 0.96, 0.64, 0.87, 0.67]})
    >>> res = holm_vs_control(auc, "base")
    >>> res.models, res.statistic.round(3)
    (('new', 'other'), array([2.887, 0.577]))
    >>> res.pvalue_holm.round(4), res.reject
    (array([0.0078, 0.5637]), array([ True, False]))
    """
    alpha = check_unit_interval(alpha, "alpha")
    fr = friedman(scores, higher_is_better=higher_is_better)
    c = _control_index(control, fr.models)
    k, n = fr.n_models, fr.n_tasks
    se = math.sqrt(k * (k + 1) / (6 * n))
    others = [j for j in range(k) if j != c]
    diff = fr.mean_ranks[c] - fr.mean_ranks[others]
    z = diff / se
    p = 2 * stats.norm.sf(np.abs(z))
    p_holm = adjust_pvalues(p, method="holm")
    return HolmControlResult(
        control=fr.models[c],
        models=tuple(fr.models[j] for j in others),
        mean_rank_difference=diff,
        statistic=z,
        pvalue=p,
        pvalue_holm=p_holm,
        reject=p_holm <= alpha,
        standard_error=se,
        alpha=alpha,
    )

"""Many models compared over many tasks, or many models on one test set.

Scores on different tasks are not commensurable (one point on one
benchmark is not one point on another), so Demšar (2006) compares ``k``
models over ``N`` tasks through their *ranks* on each task: the
Friedman test and the Iman–Davenport F statistic for "are they all alike?",
the Nemenyi critical difference for every pair, Holm's procedure for every
model against a control, and how many tasks a rank gap would need. Two
models are compared on their own scores by pairwise Wilcoxon signed-rank
tests and by the sign test, which counts wins and asks nothing of the
tasks' scales. How
sure a ranking is under resampling (of the tasks, or of the test items of
one test set) is in :mod:`sigeval.rank_uncertainty`.

The score table is a ``tasks × models`` array, or a ``pandas.DataFrame``
whose columns are the models (and whose index names the tasks). Rank 1 is
the best model on a task; ties share the average of their ranks.

Explained in :ref:`ch-ranking` and :ref:`ch-multiple` (bootstrap ranks).
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._critical_difference import (
    cd_groups,
    nemenyi_cd,
    nemenyi_q,
    tasks_for_gap,
)
from ._pairwise_ranks import (
    PAIRWISE_CORRECTIONS,
    SIGN_TEST_ZERO_METHODS,
    SignTestResult,
    pairwise_wilcoxon,
    sign_test,
)
from ._ranks import score_table, within_ranks
from ._validation import (
    RngLike,
    check_alpha,
    check_choice,
    check_flag,
    check_memory,
    check_positive_int,
    check_rng,
)
from .multiple import adjust_pvalues

__all__ = [
    "FRIEDMAN_METHODS",
    "FRIEDMAN_TIES",
    "FriedmanResult",
    "friedman",
    "nemenyi_q",
    "nemenyi_cd",
    "tasks_for_gap",
    "cd_groups",
    "PAIRWISE_CORRECTIONS",
    "pairwise_wilcoxon",
    "HolmControlResult",
    "holm_vs_control",
    "SIGN_TEST_ZERO_METHODS",
    "SignTestResult",
    "sign_test",
]


#: How :func:`friedman` treats tied scores within a task.
FRIEDMAN_TIES = ("correct", "ignore")
FriedmanTies = Literal["correct", "ignore"]
#: How :func:`friedman` computes ``pvalue``.
FRIEDMAN_METHODS = ("asymptotic", "exact")
FriedmanMethod = Literal["asymptotic", "exact"]
#: The exact null distribution of the rank sums is enumerated while its array holds at most this many
#: cells and building it takes at most this many cell additions (about a second); else Monte Carlo.
EXACT_MAX_CELLS = 2_000_000
EXACT_MAX_WORK = 300_000_000


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
    scores : ndarray
        The ``(n_tasks, n_models)`` table of scores that was ranked, so that
        pairwise tests on the scores (:func:`pairwise_wilcoxon`) can follow.
    statistic : float
        Friedman's :math:`\\chi^2_F`, divided by the tie correction when
        ``ties == "correct"``.
    pvalue : float
        :math:`P(\\chi^2_F \\ge` observed :math:`)` under the null: from the
        :math:`\\chi^2_{k-1}` approximation (``method == "asymptotic"``), the
        exact permutation distribution (``"exact"``) or a Monte Carlo sample of
        it (``"monte-carlo"``).
    statistic_f : float
        The Iman–Davenport :math:`F_F` (infinite when every task ranks the
        models the same way).
    pvalue_f : float
        :math:`P(F_{k-1, (k-1)(N-1)} \\ge F_F)`, always from the F approximation
        (:math:`F_F` is an increasing function of :math:`\\chi^2_F`, so its exact
        p-value is ``pvalue`` of ``method="exact"``).
    df : int
        :math:`k - 1`.
    df_f : tuple of int
        :math:`(k - 1, (k-1)(N-1))`.
    n_tasks : int
    n_models : int
    higher_is_better : bool
    ties : str
        ``"correct"`` or ``"ignore"``.
    tie_correction : float
        :math:`C = 1 - \\sum (t^3 - t) / (N(k^3 - k))`, 1 without ties.
    method : str
        How ``pvalue`` was computed: ``"asymptotic"``, ``"exact"`` or ``"monte-carlo"``.
    monte_carlo_standard_error : float or None
        :math:`\\sqrt{p(1-p)/B}` of a Monte Carlo ``pvalue`` from ``B`` =
        ``n_resamples`` draws; ``None`` otherwise.
    """

    models: tuple
    mean_ranks: np.ndarray
    ranks: np.ndarray
    scores: np.ndarray
    statistic: float
    pvalue: float
    statistic_f: float
    pvalue_f: float
    df: int
    df_f: tuple[int, int]
    n_tasks: int
    n_models: int
    higher_is_better: bool
    ties: str
    tie_correction: float
    method: str
    monte_carlo_standard_error: float | None


def _tie_correction(ranks: np.ndarray) -> float:
    """1 - sum(t^3 - t) / (N (k^3 - k)) over the groups of tied ranks of every task."""
    n, k = ranks.shape
    ordered = np.sort(ranks, axis=1)
    # A group of t tied models shares one rank: count each value's run within its row.
    new = np.ones((n, k), dtype=bool)
    new[:, 1:] = ordered[:, 1:] != ordered[:, :-1]
    run_id = np.cumsum(new.ravel()) - 1
    t = np.bincount(run_id).astype(float)
    return float(1 - np.sum(t**3 - t) / (n * (k**3 - k)))


def _rank_sum_tail_exact(doubled: np.ndarray) -> float | None:
    """P(sum_j S_j^2 >= observed) under within-task permutations, by convolution; None if too large.

    ``doubled`` holds twice the ranks (whole numbers from 2 to 2k, ties included).
    The joint distribution of the rank sums S_1..S_{k-1} is a dense array that
    grows by 2k - 2 cells along each axis per task; each task adds one shifted
    copy of it per distinct arrangement of its ranks. S_k is the fixed total
    minus the others.
    """
    n, k = doubled.shape
    span = 2 * k - 2
    final_cells = (n * span + 1) ** (k - 1)
    n_arrangements = math.factorial(k)
    # Work: the sum over tasks of the array's size times the arrangements added.
    work = sum((i * span + 1) ** (k - 1) for i in range(n)) * n_arrangements
    if final_cells > EXACT_MAX_CELLS or work > EXACT_MAX_WORK:
        return None
    dist = np.ones((1,) * (k - 1))
    arrangements: dict[bytes, np.ndarray] = {}
    for i, row in enumerate(np.sort(doubled, axis=1)):
        key = row.tobytes()
        if key not in arrangements:
            # Every distinct arrangement of a task's ranks is equally likely under the null.
            arrangements[key] = np.unique(np.array(list(permutations(row.tolist()))), axis=0)[:, :-1] - 2
        width = i * span + 1
        new = np.zeros((width + span,) * (k - 1))
        shifts = arrangements[key]
        for shift in shifts:
            new[tuple(slice(s, s + width) for s in shift)] += dist
        dist = new / len(shifts)
    sums = np.indices(dist.shape).reshape(k - 1, -1).T + 2 * n
    last = int(doubled.sum()) - sums.sum(axis=1)
    stat = np.sum(sums**2, axis=1) + last**2
    observed = int(np.sum(doubled.sum(axis=0) ** 2))
    return float(min(1.0, dist.ravel()[stat >= observed].sum()))


def _rank_sum_tail_monte_carlo(doubled: np.ndarray, n_resamples: int, rng: np.random.Generator) -> float:
    """(1 + #{sum_j S_j^2 >= observed}) / (1 + B) over B random within-task permutations."""
    n, k = doubled.shape
    check_memory(n_resamples * n * k * 3, "n_resamples", n_resamples, "the Monte Carlo null distribution")
    order = np.argsort(rng.random((n_resamples, n, k)), axis=2)
    sums = np.take_along_axis(np.broadcast_to(doubled, (n_resamples, n, k)), order, axis=2).sum(axis=1)
    observed = np.sum(doubled.sum(axis=0) ** 2)
    extreme = np.count_nonzero(np.sum(sums**2, axis=1) >= observed)
    return (1 + extreme) / (1 + n_resamples)


def friedman(
    scores: ArrayLike,
    *,
    higher_is_better: bool = True,
    ties: FriedmanTies = "correct",
    method: FriedmanMethod = "asymptotic",
    n_resamples: int = 10_000,
    rng: RngLike = None,
) -> FriedmanResult:
    r"""Friedman test and Iman–Davenport F over a tasks × models score table.

    On each of the :math:`N` tasks the :math:`k` models are ranked (1 for
    the best, average ranks for ties) and :math:`R_j` is model :math:`j`'s mean
    rank. Under the null hypothesis that all models are equivalent (every
    ranking of them equally likely on every task),

    .. math::

        \chi^2_F = \frac{12N}{k(k+1)}\Big[\sum_j R_j^2 - \frac{k(k+1)^2}{4}\Big] \Big/ C,
        \qquad C = 1 - \frac{\sum (t^3 - t)}{N(k^3 - k)},

    is approximately :math:`\chi^2_{k-1}` (Friedman, 1937), where the sum in
    :math:`C` runs over every group of :math:`t` tied models on a task. With
    ``ties="correct"`` (the default) the statistic is divided by :math:`C`, as
    ``scipy.stats.friedmanchisquare`` and R's ``friedman.test`` do; with
    ``ties="ignore"`` :math:`C = 1` is used, Demšar's (2006) formula, which
    reproduces his numbers. Without ties the two agree. Iman and Davenport's
    (1980) less conservative

    .. math:: F_F = \frac{(N-1)\,\chi^2_F}{N(k-1) - \chi^2_F}

    is approximately :math:`F` with :math:`k-1` and :math:`(k-1)(N-1)`
    degrees of freedom; Demšar (2006) presents it as the better statistic.

    With ``method="exact"`` ``pvalue`` comes from the permutation distribution
    of :math:`\sum_j R_j^2` (every arrangement of each task's ranks equally
    likely). Demšar's rule of thumb for the :math:`\chi^2` approximation is
    :math:`N > 10` and :math:`k > 5`, but the approximation is asymptotic in
    the number of tasks :math:`N` for a fixed :math:`k`, and at
    :math:`N = 14` the :math:`\chi^2` test is about as conservative with ten
    models as with four (:ref:`ch-ranking` computes its size), so with few
    tasks the exact p-value is the reference whatever :math:`k`. It is
    enumerated exactly by convolving the tasks' rank vectors while the
    distribution of the rank sums
    stays small (at most 2 million cells and 300 million additions:
    :math:`k = 3` up to 211 tasks, :math:`k = 4` up to 20); beyond that, ``n_resamples`` random
    permutations give a Monte Carlo p-value, :math:`(1 + \#\{\ge\})/(1 + B)`,
    with its standard error. The tie correction is a constant under these
    permutations, so the exact p-value is the same for both ``ties``.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_tasks, n_models)`` table, at least 2 × 2, no NaN. A
        DataFrame's columns name the models.
    higher_is_better : bool
        ``True`` for accuracies or AUCs; ``False`` for errors or losses.
    ties : {"correct", "ignore"}
        Divide :math:`\chi^2_F` by the tie correction :math:`C`, or not.
    method : {"asymptotic", "exact"}
        The :math:`\chi^2_{k-1}` approximation, or the permutation
        distribution (exact where feasible, else Monte Carlo).
    n_resamples : int
        Random permutations when ``method="exact"`` falls back to Monte Carlo.
    rng : Generator, int or None
        Source of those permutations.

    Returns
    -------
    FriedmanResult

    Raises
    ------
    ValueError
        For fewer than 2 models or tasks, NaN or infinite scores, or an
        unknown option.
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
    (4.727, 0.094)
    >>> round(friedman(auc, ties="ignore").statistic, 3)
    4.333
    >>> exact = friedman(auc, method="exact")
    >>> exact.method, round(exact.pvalue, 3)
    ('exact', 0.098)
    """
    table, models = score_table(scores)
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    ties = check_choice(ties, "ties", FRIEDMAN_TIES)
    method = check_choice(method, "method", FRIEDMAN_METHODS)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    rng = check_rng(rng)
    ranks = within_ranks(table, higher_is_better)
    n, k = table.shape
    mean_ranks = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4)
    correction = _tie_correction(ranks)
    if ties == "correct" and correction > 0:
        chi2 = chi2 / correction
    chi2 = max(float(chi2), 0.0)  # rounding can leave -1e-15 when all ranks are equal
    df1, df2 = k - 1, (k - 1) * (n - 1)
    # N(k - 1) - chi2, the denominator of F_F, from the spread of each model's ranks across tasks
    # (SS) rather than as a difference of two nearly equal numbers, which loses every digit with
    # many models: 12 SS / (k (k + 1) C) with the tie correction C applied, and
    # 12 SS / (k (k + 1)) + N (k - 1)(1 - C) without it. It is 0, and F_F infinite, exactly when
    # every task ranks the models the same way (ties included only when corrected for).
    corrected = ties == "correct" and correction > 0
    spread = float(np.sum((ranks - mean_ranks) ** 2))
    gap = 12 * spread / (k * (k + 1) * (correction if corrected else 1.0))
    if not corrected:
        gap += n * (k - 1) * (1 - correction)
    if gap == 0:
        stat_f, p_f = math.inf, 0.0
    else:
        stat_f = (n - 1) * chi2 / gap
        p_f = float(stats.f.sf(stat_f, df1, df2))
    p_method: str = method
    mc_se: float | None = None
    if method == "asymptotic":
        pvalue = float(stats.chi2.sf(chi2, df1))
    else:
        doubled = np.rint(2 * ranks).astype(np.int64)  # average ranks are multiples of 1/2
        exact = _rank_sum_tail_exact(doubled)
        if exact is not None:
            pvalue = exact
        else:
            pvalue = _rank_sum_tail_monte_carlo(doubled, n_resamples, rng)
            p_method, mc_se = "monte-carlo", math.sqrt(pvalue * (1 - pvalue) / n_resamples)
    return FriedmanResult(
        models=models,
        mean_ranks=mean_ranks,
        ranks=ranks,
        scores=table,
        statistic=chi2,
        pvalue=pvalue,
        statistic_f=float(stat_f),
        pvalue_f=p_f,
        df=df1,
        df_f=(df1, df2),
        n_tasks=n,
        n_models=k,
        higher_is_better=higher_is_better,
        ties=ties,
        tie_correction=correction,
        method=p_method,
        monte_carlo_standard_error=mc_se,
    )


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
    alpha = check_alpha(alpha)
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



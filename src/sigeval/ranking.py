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

import functools
import math
import numbers
import warnings
from dataclasses import dataclass
from itertools import permutations
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import special, stats

from ._options import ALTERNATIVES, Alternative
from ._ranks import score_table, within_ranks
from ._validation import (
    MAX_COUNT,
    RngLike,
    _show,
    check_alpha,
    check_choice,
    check_flag,
    check_memory,
    check_paired,
    check_positive_int,
    check_positive_real,
    check_rng,
    check_unit_interval,
    real_array,
)
from .multiple import ADJUST_METHODS, adjust_pvalues

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
#: The adjustments :func:`pairwise_wilcoxon` offers.
PAIRWISE_CORRECTIONS = (*ADJUST_METHODS, "none")
PairwiseCorrection = Literal["holm", "bonferroni", "hochberg", "bh", "by", "none"]
#: The exact null distribution of the rank sums is enumerated while its array holds at most this many
#: cells and building it takes at most this many cell additions (about a second); else Monte Carlo.
EXACT_MAX_CELLS = 2_000_000
EXACT_MAX_WORK = 300_000_000


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
    # At alpha >= 1e-12 (check_alpha) the quantile is finite: 1 - alpha is still below 1 in float64.
    return _q(_check_n_models(n_models), check_alpha(alpha))


@functools.lru_cache(maxsize=256)
def _q(k: int, alpha: float) -> float:
    # The studentized range quantile costs milliseconds; designs reuse a few (k, alpha).
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2))


def nemenyi_cd(n_models: int, n_tasks: int, *, alpha: float = 0.05) -> float:
    r"""Nemenyi critical difference of mean ranks for ``n_models`` models on ``n_tasks`` tasks.

    .. math:: \mathrm{CD} = q_\alpha \sqrt{\frac{k(k+1)}{6N}}

    with :math:`q_\alpha` from :func:`nemenyi_q`. Two models whose mean ranks
    differ by at least the CD are significantly different (Demšar, 2006,
    section 3.2.2). When all :math:`k` models perform alike, the chance that
    any of the :math:`k(k-1)/2` pairs is separated is about :math:`\alpha`
    (approximately: the mean ranks are normal only as :math:`N` grows).

    That is weak control of the family-wise error, under the complete null
    hypothesis only. When some models differ, the spread of a null pair's
    rank difference depends on where the others rank, and the pair can be
    separated more often than :math:`\alpha`, whatever :math:`N`: with four
    models of which two are interchangeable specialists (each first on the
    tasks that suit it, half of them, and last on the others), the CD at 0.05
    separates the two in 18% of the designs with 14 tasks, and in about 12%
    as :math:`N` grows (:ref:`ch-ranking` computes both). Whether two models'
    mean ranks differ by the CD also depends on the other models ranked with
    them (Benavoli, Corani and Mangili, 2016): adding or dropping a third
    model can change the decision for a pair whose scores did not change.
    :func:`pairwise_wilcoxon` tests each pair on its own scores (and
    :func:`sign_test` one pair by its wins), and Holm's correction of those
    tests controls the family-wise error strongly.

    Parameters
    ----------
    n_models : int
        Number of models :math:`k`, at least 2.
    n_tasks : int
        Number of tasks :math:`N`, at least 2.
    alpha : float
        Family-wise level under the complete null hypothesis, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For ``n_models < 2``, ``n_tasks < 2``, or ``alpha`` outside (0, 1) or
        below about 1e-16 (where the quantile is infinite in float64).

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


def tasks_for_gap(
    gap: float, n_models: int, *, alpha: float = 0.05, target_power: float | None = None
) -> int:
    r"""Fewest tasks at which a mean-rank gap reaches the Nemenyi critical difference.

    Because :math:`\mathrm{CD} \propto 1/\sqrt N`, a gap :math:`g` between two
    of :math:`k` = ``n_models`` models becomes significant once

    .. math:: N \ge \frac{q_\alpha^2\, k(k+1)}{6 g^2},

    so the breadth a benchmark needs to resolve an observed gap is a property
    of the design. The answer is the smallest whole :math:`N \ge 2` with
    :func:`nemenyi_cd` ``(k, N) <= gap``, and never below the smallest
    :math:`N` whose CD is at most :math:`k - 1`: with fewer tasks no pair can
    be separated, whatever its gap. Read as a plan for a *true* gap this
    has only about 50% power: the observed gap scatters around the true one and
    falls short of the CD about half the time.

    With ``target_power`` :math:`1 - \beta`, ``gap`` is a true difference of
    expected mean ranks and the answer is the smallest :math:`N` at which the
    Nemenyi test separates the pair with that power, from the normal
    approximation of the observed gap with the null standard error
    :math:`\sqrt{k(k+1)/(6N)}`:

    .. math:: N \ge \frac{(q_\alpha + z_{1-\beta})^2\, k(k+1)}{6 g^2}.

    The standard error under the alternative is not the null's. When one
    model tends to rank above the other on every task (normal scores shifted
    in location, say) it is a little smaller, and the power reached is at least
    the target (checked by simulation in the tests). When the pair's order
    swings between the extremes (a specialist that is best on some tasks and
    worst on others) it can be larger, and the power falls short of the
    target: a two-point swing between ranks 1 and 3 of three models, 60/40,
    has 1.39 times the null's spread, and the planned design about 75% power
    instead of 80% (also in the tests).

    Parameters
    ----------
    gap : float
        Difference of mean ranks, in :math:`(0, k - 1]` (the largest possible gap).
    n_models : int
        Number of models :math:`k`, at least 2.
    alpha : float
        Family-wise level, in (0, 1).
    target_power : float, optional
        Power to reach for a true gap, in (0, 1); ``None`` (the default) for
        the gap at which an observed gap equals the CD.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        For a gap outside :math:`(0, k-1]`, ``n_models < 2``, or ``alpha`` or
        ``target_power`` outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import tasks_for_gap
    >>> tasks_for_gap(0.80, 4)
    35
    >>> tasks_for_gap(0.80, 4, target_power=0.8)
    61
    """
    k = _check_n_models(n_models)
    gap = check_positive_real(gap, "gap")
    if gap > k - 1:
        raise ValueError(
            f"`gap` cannot exceed k - 1 = {k - 1}, the largest difference of mean ranks "
            f"among {k} models; got {gap!r}."
        )
    q_alpha = nemenyi_q(k, alpha=alpha)
    # No design separates a pair before its CD falls to k - 1, the largest gap two mean ranks can show.
    floor = _fewest_tasks(q_alpha, k, k - 1)
    if target_power is None:
        return max(floor, _fewest_tasks(q_alpha, k, gap))
    target_power = check_unit_interval(target_power, "target_power")
    q = q_alpha + float(stats.norm.ppf(target_power))
    if q <= 0:  # a power below alpha's share: any design that can separate a pair reaches it
        return floor
    return max(floor, _fewest_tasks(q, k, gap))


def _fewest_tasks(q: float, k: int, gap: float) -> int:
    """The smallest whole N >= 2 with q sqrt(k (k + 1) / (6 N)) <= gap."""

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


def cd_groups(
    mean_ranks: ArrayLike,
    critical_difference: float | None = None,
    *,
    reject: ArrayLike | None = None,
) -> list[tuple[int, ...]]:
    r"""Groups of models that the pairwise tests do not separate, for a critical-difference diagram.

    Give exactly one of two kinds of decision:

    ``critical_difference`` (the Nemenyi test)
        Two models are *not separated* when their mean ranks differ by less
        than the CD (the Nemenyi test declares them different at a difference
        of at least the CD). The groups are the maximal cliques of that
        relation: sets in which every pair is non-separated, not contained in a
        larger such set. On a line these are runs of consecutive models in rank
        order whose range is below the CD.
    ``reject`` (any pairwise tests, such as :func:`pairwise_wilcoxon` with Holm)
        A ``(k, k)`` boolean matrix, true where the test of the pair rejects
        (either triangle may be filled; the matrix is read symmetrically).
        Benavoli, Corani and Mangili (2016) recommend such tests over
        mean-rank ones. These decisions need not follow the mean ranks, and a
        bar on a line can only join models that sit next to each other, so the
        groups are the maximal runs of consecutive models in mean-rank order
        within which no pair is rejected.

    A critical-difference diagram joins each group with a bar.

    Parameters
    ----------
    mean_ranks : array_like of float
        One mean rank per model (at least 2), finite.
    critical_difference : float, optional
        The CD, positive (:func:`nemenyi_cd`).
    reject : array_like of bool, optional
        ``(k, k)`` pairwise decisions.

    Returns
    -------
    list of tuple of int
        Each group as model indices sorted from best (lowest) to worst mean
        rank; groups ordered by their best member. Groups of one model (a
        model separated from all others) are left out.

    Raises
    ------
    ValueError
        For fewer than 2 ranks, non-finite ranks, a CD that is not positive,
        a ``reject`` matrix of the wrong shape, or both or neither decision.

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

    The same ranks with pairwise decisions: C4.5 (0) separated from both
    settings that tune ``m`` (1 and 3):

    >>> reject = [[False, True, False, True], [True, False, False, False],
    ...           [False, False, False, False], [True, False, False, False]]
    >>> cd_groups([3.143, 2.000, 2.929, 1.929], reject=reject)
    [(3, 1, 2), (2, 0)]
    """
    ranks = real_array(mean_ranks, "mean_ranks")
    if ranks.ndim != 1 or ranks.size < 2:
        raise ValueError(
            f"`mean_ranks` must be one-dimensional with at least 2 models; got shape {ranks.shape}."
        )
    if not np.all(np.isfinite(ranks)):
        raise ValueError(f"`mean_ranks` must be finite; got {_show(ranks[~np.isfinite(ranks)])}.")
    if (critical_difference is None) == (reject is None):
        raise ValueError(
            "Give exactly one of `critical_difference` (the Nemenyi test) and `reject` (pairwise decisions); "
            f"got critical_difference={critical_difference!r} and reject={'None' if reject is None else 'a matrix'}."
        )
    k = ranks.size
    if critical_difference is not None:
        cd = check_positive_real(critical_difference, "critical_difference")
        separated = np.abs(ranks[:, None] - ranks[None, :]) >= cd
    else:
        separated = np.asarray(reject)
        if separated.dtype != bool:
            raise TypeError(f"`reject` must be a boolean matrix; got dtype {separated.dtype}.")
        if separated.shape != (k, k):
            raise ValueError(f"`reject` must be a ({k}, {k}) matrix, one row per model; got shape {separated.shape}.")
        separated = separated | separated.T
    order = np.argsort(ranks, kind="stable")
    separated = separated[np.ix_(order, order)]
    # A run from `start` grows while its next model is separated from none of the run.
    ends = np.empty(k, dtype=int)
    for start in range(k):
        end = start + 1
        while end < k and not separated[start:end, end].any():
            end += 1
        ends[start] = end
    groups = []
    last_end = 0
    for start, end in enumerate(ends):
        if end > last_end and end - start >= 2:
            groups.append(tuple(int(j) for j in order[start:end]))
        last_end = max(last_end, end)
    return groups


# Pairs of pairwise_wilcoxon handled at once: (tasks x pairs) arrays of at most this many elements.
_PAIR_CHUNK_ELEMENTS = 2**18
# The memory of pairwise_wilcoxon: bytes per pair (its columns, the adjustment, the DataFrame) and per element
# of a chunk's (tasks x pairs) arrays, measured in tests/test_ranking.py against traced calls.
_BYTES_PER_PAIR = 150
_BYTES_PER_CHUNK_ELEMENT = 70


def _pairwise_bytes(n_tasks: int, n_pairs: int) -> float:
    chunk = min(n_pairs, max(1, _PAIR_CHUNK_ELEMENTS // n_tasks)) * n_tasks
    return float(n_pairs) * _BYTES_PER_PAIR + float(chunk) * _BYTES_PER_CHUNK_ELEMENT


def _signed_ranks(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each column of differences: the average ranks of |d| (scipy's rankdata), the sum of t^3 - t over
    the groups of tied |d| (t their sizes) and whether there is a tie, from one sort of every column."""
    n = d.shape[0]
    magnitude = np.abs(d)
    order = np.argsort(magnitude, axis=0, kind="stable")
    ordered = np.take_along_axis(magnitude, order, axis=0)
    starts = np.ones(d.shape, dtype=bool)  # where a group of equal |d| starts, in sorted order
    starts[1:] = ordered[1:] != ordered[:-1]
    ends = np.ones(d.shape, dtype=bool)
    ends[:-1] = starts[1:]
    position = np.arange(n)[:, None]
    first = np.maximum.accumulate(np.where(starts, position, 0), axis=0)
    last = np.minimum.accumulate(np.where(ends, position, n - 1)[::-1], axis=0)[::-1]
    ranks = np.empty(d.shape)
    np.put_along_axis(ranks, order, (first + last) / 2 + 1, axis=0)  # the mean of ranks first+1 .. last+1
    size = last - first + 1
    # Each of the t members of a group adds t^2 - 1: the group adds t^3 - t.
    return ranks, np.asarray((size**2 - 1).sum(axis=0), dtype=float), np.asarray((size > 1).any(axis=0))


@functools.lru_cache(maxsize=1024)
def _subset_sum_counts(doubled: tuple[int, ...]) -> np.ndarray:
    """How many of the 2^n sign patterns give each sum of the doubled ranks (a zero difference has rank 0
    here: it doubles every count), cumulated: entry s counts the patterns whose sum is at most s."""
    counts = np.ones(1, dtype=np.int64)
    for a in doubled:
        grown = np.zeros(counts.size + a, dtype=np.int64)
        grown[:counts.size] += counts
        grown[a:] += counts
        counts = grown
    return np.cumsum(counts)


def _permutation_pvalues(ranks: np.ndarray, d: np.ndarray) -> np.ndarray:
    """scipy's two-sided permutation p-value of R+ (all 2^n sign flips, zeros split), counted exactly: the
    R+ of the patterns are sums of half-integer ranks, so counts replace scipy's floating comparisons."""
    doubled = np.where(d != 0, np.rint(2 * ranks), 0).astype(np.int64)
    observed = np.where(d > 0, doubled, 0).sum(axis=0)
    keys, inverse = np.unique(np.sort(doubled, axis=0).T, axis=0, return_inverse=True)
    total = 2.0 ** d.shape[0]
    pvalues = np.empty(d.shape[1])
    for k, key in enumerate(keys):  # one count per distinct set of ranks, shared by its pairs
        cumulative = _subset_sum_counts(tuple(int(a) for a in key))
        mine = inverse.ravel() == k
        at_most = cumulative[observed[mine]]
        at_least = cumulative[-1] - np.where(observed[mine] > 0, cumulative[observed[mine] - 1], 0)
        pvalues[mine] = np.minimum(at_most / total, at_least / total) * 2
    return np.clip(pvalues, 0.0, 1.0)


@functools.lru_cache(maxsize=64)
def _exact_pvalues(n: int) -> np.ndarray:
    """scipy's exact two-sided p-value of every whole R+ = 0 .. n(n+1)/2 (no ties, no zeros)."""
    from scipy.stats._wilcoxon import WilcoxonDistribution  # the table scipy's wilcoxon reads, for equal p-values

    r = np.arange(n * (n + 1) // 2 + 1)
    dist = WilcoxonDistribution(np.full(r.size, n))
    return np.clip(2 * np.minimum(dist.sf(r), dist.cdf(r)), 0, 1)


def _wilcoxon_pvalues(d: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """R+, R- and the p-value of :func:`~sigeval.paired.wilcoxon_signed_rank` (zeros split, two-sided) for
    each column of differences, choosing per column as ``scipy.stats.wilcoxon(method="auto")`` does, and
    which columns are all zero (p = 1)."""
    n = d.shape[0]
    ranks, tie_correction, tied = _signed_ranks(d)
    zero = d == 0
    zero_share = (ranks * zero).sum(axis=0) / 2
    r_plus = (ranks * (d > 0)).sum(axis=0) + zero_share
    r_minus = (ranks * (d < 0)).sum(axis=0) + zero_share
    ties_or_zeros = tied | zero.any(axis=0)
    pvalues = np.ones(d.shape[1])  # every difference zero: no information, p = 1
    informative = ~zero.all(axis=0)
    exact = informative & ~ties_or_zeros & (n <= 50)
    permutation = informative & ties_or_zeros & (n <= 13)
    normal = informative & ~exact & ~permutation
    if exact.any():
        pvalues[exact] = _exact_pvalues(n)[np.rint(r_plus[exact]).astype(np.int64)]
    if permutation.any():
        pvalues[permutation] = _permutation_pvalues(ranks[:, permutation], d[:, permutation])
    if normal.any():  # the normal approximation, tie-corrected, without continuity correction
        count = float(n)
        se = np.sqrt((count * (count + 1.0) * (2.0 * count + 1.0) - tie_correction[normal] / 2) / 24)
        z = (r_plus[normal] - count * (count + 1.0) * 0.25) / se
        pvalues[normal] = 2 * special.ndtr(-np.abs(z))
    return r_plus, r_minus, pvalues, ~informative


def pairwise_wilcoxon(
    scores: ArrayLike,
    *,
    correction: PairwiseCorrection = "holm",
    higher_is_better: bool = True,
) -> pd.DataFrame:
    r"""Every pair of models over tasks: Wilcoxon signed-rank tests, adjusted for multiplicity.

    The remedy Benavoli, Corani and Mangili (2016) recommend for the mean-rank
    post-hoc tests (Nemenyi, :func:`holm_vs_control`): whether model A beats
    model B on a mean-rank test depends on which *other* models are in the
    comparison, while a test on the two models' own per-task scores does not.
    Each of the :math:`k(k-1)/2` pairs is tested as
    :func:`~sigeval.paired.wilcoxon_signed_rank` tests it (zeros split,
    scipy's p-value, bit for bit), all pairs at once: the differences of a
    chunk of pairs are ranked in one sort, and the exact null tables are
    shared (1,000 models on 20 tasks take about a second). The p-values of
    the family are adjusted with ``correction``
    (:func:`~sigeval.multiple.adjust_pvalues`; Holm's by default, which
    controls the family-wise error under any dependence).

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_tasks, n_models)`` table, at least 2 × 2, no NaN. A DataFrame's
        columns name the models.
    correction : {"holm", "bonferroni", "hochberg", "bh", "by", "none"}
        Adjustment of the pairs' p-values.
    higher_is_better : bool
        ``False`` for errors or losses; decides only the ``better`` column.

    Returns
    -------
    DataFrame
        One row per pair, ``model_a`` before ``model_b`` in column order:
        ``r_plus`` and ``r_minus`` (rank sums of the positive and negative
        differences A minus B), ``statistic`` (:math:`T = \min(R^+, R^-)`),
        ``pvalue`` (two-sided), ``pvalue_adjusted`` and ``better`` (the model
        the signed ranks favour, ``None`` on a tie).

    Raises
    ------
    ValueError
        For a table :func:`friedman` refuses, an unknown ``correction``, a
        difference that overflows float64, or so many models that their pairs
        would need more than 4 GiB.

    Notes
    -----
    Explained in :ref:`ch-ranking`. A pair with every difference zero gives
    p = 1 and a warning (:func:`~sigeval.paired.wilcoxon_signed_rank`).

    Examples
    --------
    >>> import pandas as pd
    >>> from sigeval import pairwise_wilcoxon
    >>> auc = pd.DataFrame({"base": [0.76, 0.60, 0.95, 0.63, 0.88, 0.66, 0.71, 0.80],
    ...                     "new": [0.80, 0.61, 0.97, 0.66, 0.90, 0.69, 0.75, 0.83],
    ...                     "other": [0.77, 0.62, 0.94, 0.60, 0.91, 0.68, 0.66, 0.85]})
    >>> pw = pairwise_wilcoxon(auc)
    >>> pw[["model_a", "model_b", "statistic", "pvalue_adjusted", "better"]].round(4)
      model_a model_b  statistic  pvalue_adjusted better
    0    base     new        0.0           0.0234    new
    1    base   other       14.5           0.7031  other
    2     new   other        9.0           0.4844    new
    """
    table, models = score_table(scores)
    correction = check_choice(correction, "correction", PAIRWISE_CORRECTIONS)
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    n, k = table.shape
    n_pairs = k * (k - 1) // 2
    check_memory(_pairwise_bytes(n, n_pairs), "scores", f"{k} models", f"the table of their {n_pairs:,} pairs",
                 itemsize=1, advice="Compare fewer models (or each against a control: holm_vs_control).")
    first, second = np.triu_indices(k, 1)  # the pairs in the order of combinations(range(k), 2)
    r_plus, r_minus, pvalues = np.empty(n_pairs), np.empty(n_pairs), np.empty(n_pairs)
    step = max(1, _PAIR_CHUNK_ELEMENTS // n)
    uninformative = False
    # Every pair at once, in chunks: the signed ranks of (tasks x pairs) differences, one sort per chunk.
    for start in range(0, n_pairs, step):
        chunk = slice(start, start + step)
        with np.errstate(over="ignore", invalid="ignore"):
            d = table[:, first[chunk]] - table[:, second[chunk]]
        if not np.isfinite(d).all():
            task, pair = np.argwhere(~np.isfinite(d))[0]
            raise ValueError(
                f"The difference of models {models[first[start + pair]]!r} and {models[second[start + pair]]!r} "
                f"overflows float64 on task {int(task)} (|difference| > 1.8e308); rescale the scores (e.g. divide "
                "every score by the same power of ten) before comparing them."
            )
        r_plus[chunk], r_minus[chunk], pvalues[chunk], silent = _wilcoxon_pvalues(d)
        uninformative = uninformative or bool(silent.any())
    if uninformative:
        warnings.warn(
            "Every difference between the scores of some pair of models is zero: those tests have no "
            "information; their p-values are set to 1.",
            UserWarning,
            stacklevel=2,
        )
    adjusted = pvalues if correction == "none" else adjust_pvalues(pvalues, method=correction)
    names = np.empty(k, dtype=object)
    names[:] = models
    a_wins = (r_plus > r_minus) == higher_is_better
    better = np.where(a_wins, names[first], names[second])
    better[r_plus == r_minus] = None
    return pd.DataFrame(
        {
            "model_a": names[first],
            "model_b": names[second],
            "r_plus": r_plus,
            "r_minus": r_minus,
            "statistic": np.minimum(r_plus, r_minus),
            "pvalue": pvalues,
            "pvalue_adjusted": adjusted,
            "better": pd.Series(better, dtype=object),  # names as given, None on a tie (never NaN for numbers)
        }
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


# --------------------------------------------------------------------------- sign test

#: How :func:`sign_test` counts the tasks on which the two models tie.
SIGN_TEST_ZERO_METHODS = ("zsplit", "wilcox")
SignTestZeroMethod = Literal["zsplit", "wilcox"]


@dataclass(frozen=True)
class SignTestResult:
    """Result of :func:`sign_test`.

    Attributes
    ----------
    statistic : float
        The wins of A that the test counts, :math:`k`: the tasks on which A
        scores higher, plus half of the tied tasks counted
        (``zero_method="zsplit"``). A whole number, referred to
        Binomial(``n``, 1/2).
    pvalue : float
        Binomial p-value of ``statistic`` among ``n``
        (``scipy.stats.binomtest``'s): exact with ``zero_method="wilcox"``; with
        ``"zsplit"`` Demšar's conservative convention, never below
        ``pvalue_conditional`` for a two-sided test.
    pvalue_conditional : float
        The exact p-value given the number of tied tasks, whatever
        ``zero_method``: A's wins among the ``n_positive + n_negative`` tasks
        that are not tied, referred to Binomial(``n_positive + n_negative``, 1/2).
        It equals ``pvalue`` with ``zero_method="wilcox"``.
    n : int
        Tasks counted: all of them, one fewer when the tied tasks are odd in
        number (``"zsplit"``), or the tasks without a tie (``"wilcox"``).
    n_positive : int
        Tasks on which A scores higher than B (the difference A minus B is
        positive).
    n_negative : int
        Tasks on which B scores higher than A.
    n_zero : int
        Tasks on which the two scores are equal.
    zero_method : str
        How the tied tasks were counted.
    alternative : str
        The alternative hypothesis.
    """

    statistic: float
    pvalue: float
    pvalue_conditional: float
    n: int
    n_positive: int
    n_negative: int
    n_zero: int
    zero_method: str
    alternative: str


def sign_test(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    alternative: Alternative = "two-sided",
    zero_method: SignTestZeroMethod = "zsplit",
) -> SignTestResult:
    r"""Sign test for two models scored on the same tasks: count A's wins, binomial p-value.

    Demšar (2006, section 3.1.4): if the two models perform alike, each wins
    a task with probability 1/2, so the number of tasks A wins is
    Binomial(:math:`N`, 1/2). Only the sign of each task's difference enters,
    never its size, so the test assumes no commensurability of scores or of
    differences across tasks. The Wilcoxon signed-rank test
    (:func:`~sigeval.paired.wilcoxon_signed_rank`) ranks the differences
    :math:`|d_i|` of different tasks against each other, which assumes that a
    larger difference on one task counts for more than a smaller one on
    another. The price of asking less is power: Demšar calls the sign test
    much weaker than the Wilcoxon test.

    Tied tasks (equal scores), by ``zero_method``:

    ``"zsplit"`` (default)
        Demšar's rule: ties support the null hypothesis, so they are split
        evenly between the two models; when their number is odd, one tie is
        ignored (a conservative convention, see below).
        :math:`k = n_+ + \lfloor n_0/2\rfloor` of
        :math:`n = n_+ + n_- + 2\lfloor n_0/2\rfloor` tasks.
    ``"wilcox"``
        Ties are discarded (the classical sign test; scipy's name for
        discarding zero differences): :math:`k = n_+` of :math:`n = n_+ + n_-`.

    ``pvalue`` is ``scipy.stats.binomtest(k, n, 0.5)`` with the same
    ``alternative`` (``"greater"``: A scores higher). With ``"wilcox"`` it is
    exact: given the number of ties, A's wins among the :math:`n_+ + n_-`
    untied tasks are Binomial(:math:`n_+ + n_-`, 1/2) under the null
    hypothesis. With ``"zsplit"`` it is not: the split ties add a fixed
    :math:`\lfloor n_0/2\rfloor` to :math:`k`, so under the null :math:`k` is
    :math:`\lfloor n_0/2\rfloor` + Binomial(:math:`n_+ + n_-`, 1/2), narrower
    than the Binomial(:math:`n`, 1/2) it is referred to. Demšar's convention
    is therefore conservative: its two-sided p-value is never below the exact
    one given the ties (nor a one-sided one whenever that is at most 1/2), so
    the test never rejects more often than its level allows, and often less.
    That exact p-value of
    the same count is the ties-dropped one, returned as
    ``pvalue_conditional`` whatever ``zero_method``; report it beside
    ``pvalue``. In Demšar's example (10 wins, 2 losses, 2 ties) the split count
    gives 0.057 and the exact conditional test 0.039.

    Demšar's Table 3 of critical numbers of wins is more lenient than the
    exact two-sided test at several :math:`N`: at :math:`N = 14` (no ties) it
    gives 11 wins, whose exact two-sided p-value is 0.057. If no task has a
    nonzero difference the data hold no information: ``pvalue`` and
    ``pvalue_conditional`` are 1 and a ``UserWarning`` says so.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of models A and B on the same tasks, in the same order, no NaN.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A scores higher) or ``"less"``.
    zero_method : str
        ``"zsplit"`` or ``"wilcox"``, as above.

    Returns
    -------
    SignTestResult

    Raises
    ------
    ValueError
        If the arrays are empty, of different lengths or hold NaN or
        infinities, or an option is unknown.

    Notes
    -----
    Explained in :ref:`ch-ranking`. Scores are compared as given: a loss
    (lower is better) needs its sign flipped, or ``alternative="less"``.

    Examples
    --------
    Demšar's example (2006, Table 2): C4.5 with *m* tuned wins 10 of 14
    datasets, loses 2 and ties 2; with one tie given to each, 11 wins of 14:

    >>> from sigeval import sign_test
    >>> tuned = [768, 591, 971, 661, 888, 931, 668, 583, 838, 1000, 962, 666, 981, 978]
    >>> plain = [763, 599, 954, 628, 882, 936, 661, 583, 775, 1000, 940, 619, 972, 957]
    >>> res = sign_test(tuned, plain)
    >>> res.n_positive, res.n_negative, res.n_zero, res.statistic, res.n
    (10, 2, 2, 11.0, 14)
    >>> round(res.pvalue, 4), round(res.pvalue_conditional, 4)   # ties split; ties dropped (exact)
    (0.0574, 0.0386)
    """
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"))
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    zero_method = check_choice(zero_method, "zero_method", SIGN_TEST_ZERO_METHODS)
    # Signs by comparison, not subtraction: no difference can overflow.
    n_positive, n_negative = int(np.sum(a > b)), int(np.sum(a < b))
    n_zero = a.size - n_positive - n_negative
    ties_counted = 2 * (n_zero // 2) if zero_method == "zsplit" else 0
    k, n = n_positive + ties_counted // 2, n_positive + n_negative + ties_counted
    if n_positive + n_negative == 0:
        warnings.warn(
            "Every score of `scores_a` equals its pair in `scores_b`: the sign test has no "
            "information; the p-value is set to 1.",
            UserWarning,
            stacklevel=2,
        )
        pvalue = pvalue_conditional = 1.0
    else:
        pvalue = float(stats.binomtest(k, n, 0.5, alternative=alternative).pvalue)
        # Given the ties, only the untied tasks vary under the null: the exact test of the same count.
        untied = n_positive + n_negative
        pvalue_conditional = float(stats.binomtest(n_positive, untied, 0.5, alternative=alternative).pvalue)
    return SignTestResult(
        statistic=float(k),
        pvalue=pvalue,
        pvalue_conditional=pvalue_conditional,
        n=n,
        n_positive=n_positive,
        n_negative=n_negative,
        n_zero=n_zero,
        zero_method=zero_method,
        alternative=alternative,
    )

"""The Nemenyi test and its critical difference: the studentized range quantile, the smallest mean-rank gap
that is significant, the tasks a gap needs, and the groups of a critical-difference diagram.

Public through :mod:`sigeval.ranking` (its own module only to keep each module short). Explained in
:ref:`ch-ranking`.
"""

from __future__ import annotations

import functools
import math

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._validation import (
    MAX_COUNT,
    _show,
    check_alpha,
    check_positive_int,
    check_positive_real,
    check_unit_interval,
    real_array,
)

__all__ = [
    "nemenyi_q",
    "nemenyi_cd",
    "tasks_for_gap",
    "cd_groups",
]


def _check_n_models(n_models: int) -> int:
    return check_positive_int(n_models, "n_models", minimum=2)


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

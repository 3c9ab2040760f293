"""Many models compared over many datasets, or many models on one test set.

Scores on different datasets are not commensurable (one point on one
benchmark is not one point on another), so Demšar (2006) compares ``k``
models over ``N`` datasets through their *ranks* on each dataset: the
Friedman test and the Iman–Davenport F statistic for "are they all alike?",
the Nemenyi critical difference for every pair, Holm's procedure for every
model against a control. Two design questions follow: how many datasets a
rank gap would need, and how stable the ranking is when the datasets
themselves are resampled. For many models scored on *one* test set, the
bootstrap over test items gives every model a rank interval.

The score table is a ``datasets × models`` array, or a ``pandas.DataFrame``
whose columns are the models (and whose index names the datasets). Rank 1 is
the best model on a dataset; ties share the average of their ranks.

Explained in :ref:`ch-ranking` and :ref:`ch-multiple` (bootstrap ranks).
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    _show,
    check_positive_int,
    check_positive_real,
    check_rng,
    check_unit_interval,
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
    "RankStabilityResult",
    "rank_stability",
    "BootstrapRanksResult",
    "bootstrap_ranks",
]


# --------------------------------------------------------------------------- input


def _check_flag(value: bool, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"`{name}` must be True or False; got {value!r}.")
    return bool(value)


def _score_table(scores: Any, name: str = "scores") -> tuple[np.ndarray, tuple]:
    """A (datasets, models) float array without NaN, and the model names.

    The names are the DataFrame's columns, or the column indices 0..k-1.
    """
    models: tuple | None = None
    datasets = None
    if hasattr(scores, "columns") and hasattr(scores, "to_numpy"):
        models = tuple(scores.columns)
        datasets = list(scores.index)
        scores = scores.to_numpy()
    arr = np.asarray(scores)
    if arr.dtype == bool or arr.dtype == object or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"`{name}` must hold numbers; got dtype {arr.dtype}.")
    arr = arr.astype(float)
    if arr.ndim != 2:
        raise ValueError(
            f"`{name}` must be a two-dimensional (datasets, models) table; got shape {arr.shape}."
        )
    n, k = arr.shape
    if k < 2:
        raise ValueError(f"`{name}` must hold at least 2 models (columns); got {k}.")
    if n < 2:
        raise ValueError(f"`{name}` must hold at least 2 datasets (rows); got {n}.")
    bad = ~np.isfinite(arr)
    if np.any(bad):
        rows, cols = np.nonzero(bad)
        names = models if models is not None else tuple(range(k))
        where = ", ".join(
            f"(dataset {datasets[r] if datasets is not None else r!r}, model {names[c]!r})"
            for r, c in zip(rows[:3], cols[:3])
        )
        more = "" if rows.size <= 3 else f", ... ({rows.size} cells)"
        raise ValueError(
            f"`{name}` holds {rows.size} NaN or infinite score(s) (a failed run?) at {where}{more}; "
            "a rank needs every model scored on every dataset: rerun, or drop the dataset "
            "or the model explicitly."
        )
    return arr, models if models is not None else tuple(range(k))


def _ranks(table: np.ndarray, higher_is_better: bool) -> np.ndarray:
    """Rank of every model on every dataset: 1 is the best, ties averaged."""
    return stats.rankdata(-table if higher_is_better else table, axis=1)


def _check_k(k: int) -> int:
    return check_positive_int(k, "k", minimum=2)


# --------------------------------------------------------------------------- Friedman


@dataclass(frozen=True)
class FriedmanResult:
    """Result of :func:`friedman`.

    Attributes
    ----------
    models : tuple
        Model names (DataFrame columns) or column indices, in the input order.
    mean_ranks : ndarray
        Mean rank :math:`R_j` of every model over the datasets (1 is the best).
    ranks : ndarray
        The ``(n_datasets, n_models)`` table of ranks.
    statistic : float
        Friedman's :math:`\\chi^2_F`.
    pvalue : float
        :math:`P(\\chi^2_{k-1} \\ge \\chi^2_F)`.
    f_statistic : float
        The Iman–Davenport :math:`F_F` (infinite when every dataset ranks the
        models the same way).
    f_pvalue : float
        :math:`P(F_{k-1, (k-1)(N-1)} \\ge F_F)`.
    df : int
        :math:`k - 1`.
    f_df : tuple of int
        :math:`(k - 1, (k-1)(N-1))`.
    n_datasets : int
    n_models : int
    higher_is_better : bool
    """

    models: tuple
    mean_ranks: np.ndarray
    ranks: np.ndarray
    statistic: float
    pvalue: float
    f_statistic: float
    f_pvalue: float
    df: int
    f_df: tuple[int, int]
    n_datasets: int
    n_models: int
    higher_is_better: bool


def friedman(scores: ArrayLike, *, higher_is_better: bool = True) -> FriedmanResult:
    r"""Friedman test and Iman–Davenport F over a datasets × models score table.

    On each of the :math:`N` datasets the :math:`k` models are ranked (1 for
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
        ``(n_datasets, n_models)`` table, at least 2 × 2, no NaN. A
        DataFrame's columns name the models.
    higher_is_better : bool
        ``True`` for accuracies or AUCs; ``False`` for errors or losses.

    Returns
    -------
    FriedmanResult

    Raises
    ------
    ValueError
        For fewer than 2 models or datasets, or NaN or infinite scores.
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
    table, models = _score_table(scores)
    higher_is_better = _check_flag(higher_is_better, "higher_is_better")
    ranks = _ranks(table, higher_is_better)
    n, k = table.shape
    mean_ranks = ranks.mean(axis=0)
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(mean_ranks**2) - k * (k + 1) ** 2 / 4)
    chi2 = max(float(chi2), 0.0)  # rounding can leave -1e-15 when all ranks are equal
    df1, df2 = k - 1, (k - 1) * (n - 1)
    denominator = n * (k - 1) - chi2
    if denominator <= 1e-12 * n * (k - 1):
        f_stat, f_p = math.inf, 0.0
    else:
        f_stat = (n - 1) * chi2 / denominator
        f_p = float(stats.f.sf(f_stat, df1, df2))
    return FriedmanResult(
        models=models,
        mean_ranks=mean_ranks,
        ranks=ranks,
        statistic=chi2,
        pvalue=float(stats.chi2.sf(chi2, df1)),
        f_statistic=float(f_stat),
        f_pvalue=f_p,
        df=df1,
        f_df=(df1, df2),
        n_datasets=n,
        n_models=k,
        higher_is_better=higher_is_better,
    )


# --------------------------------------------------------------------------- Nemenyi


def nemenyi_q(k: int, *, alpha: float = 0.05) -> float:
    r"""Critical value :math:`q_\alpha` of the Nemenyi test for ``k`` models.

    :math:`q_\alpha = Q_{1-\alpha}(k, \infty)/\sqrt 2`, with :math:`Q` the
    studentized range distribution of ``k`` means and infinite degrees of
    freedom (``scipy.stats.studentized_range``). These are the values of
    Demšar's (2006) Table 5(a): 1.960, 2.343, 2.569, ... at
    :math:`\alpha = 0.05` (his table, from a rounded studentized-range table,
    differs in the third decimal for some ``k``).

    Parameters
    ----------
    k : int
        Number of models, at least 2.
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
    return _q(_check_k(k), check_unit_interval(alpha, "alpha"))


@functools.lru_cache(maxsize=256)
def _q(k: int, alpha: float) -> float:
    # The studentized range quantile costs milliseconds; designs reuse a few (k, alpha).
    return float(stats.studentized_range.ppf(1 - alpha, k, np.inf) / math.sqrt(2))


def nemenyi_cd(k: int, n_datasets: int, *, alpha: float = 0.05) -> float:
    r"""Nemenyi critical difference of mean ranks for ``k`` models on ``n_datasets``.

    .. math:: \mathrm{CD} = q_\alpha \sqrt{\frac{k(k+1)}{6N}}

    with :math:`q_\alpha` from :func:`nemenyi_q`. Two models whose mean ranks
    differ by at least the CD are significantly different (Demšar, 2006,
    section 3.2.2), with the family-wise error of all :math:`k(k-1)/2` pairs
    held at :math:`\alpha`.

    Parameters
    ----------
    k : int
        Number of models, at least 2.
    n_datasets : int
        Number of datasets :math:`N`, at least 2.
    alpha : float
        Family-wise level, in (0, 1).

    Returns
    -------
    float

    Raises
    ------
    ValueError
        For ``k < 2``, ``n_datasets < 2`` or ``alpha`` outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    Demšar's example, four models on fourteen datasets:

    >>> from sigeval import nemenyi_cd
    >>> round(nemenyi_cd(4, 14), 3)
    1.254
    """
    q = nemenyi_q(k, alpha=alpha)
    n = check_positive_int(n_datasets, "n_datasets", minimum=2)
    return q * math.sqrt(k * (k + 1) / (6 * n))


def tasks_for_gap(gap: float, k: int, *, alpha: float = 0.05) -> int:
    r"""Fewest datasets at which a mean-rank gap reaches the Nemenyi critical difference.

    Because :math:`\mathrm{CD} \propto 1/\sqrt N`, a gap :math:`g` between two
    of ``k`` models becomes significant once

    .. math:: N \ge \frac{q_\alpha^2\, k(k+1)}{6 g^2},

    so the breadth a benchmark needs to resolve an observed gap is a property
    of the design. The answer is the smallest whole :math:`N \ge 2` with
    :func:`nemenyi_cd` ``(k, N) <= gap``.

    Parameters
    ----------
    gap : float
        Difference of mean ranks, in :math:`(0, k - 1]` (the largest possible gap).
    k : int
        Number of models, at least 2.
    alpha : float
        Family-wise level, in (0, 1).

    Returns
    -------
    int

    Raises
    ------
    ValueError
        For a gap outside :math:`(0, k-1]`, ``k < 2`` or ``alpha`` outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import tasks_for_gap
    >>> tasks_for_gap(0.80, 4)
    35
    """
    k = _check_k(k)
    gap = check_positive_real(gap, "gap")
    if gap > k - 1:
        raise ValueError(
            f"`gap` cannot exceed k - 1 = {k - 1}, the largest difference of mean ranks "
            f"among {k} models; got {gap!r}."
        )
    q = nemenyi_q(k, alpha=alpha)

    def cd(n: int) -> float:
        return q * math.sqrt(k * (k + 1) / (6 * n))

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
    ranks = np.asarray(mean_ranks)
    if ranks.dtype == bool or not np.issubdtype(ranks.dtype, np.number):
        raise TypeError(f"`mean_ranks` must hold numbers; got dtype {ranks.dtype}.")
    ranks = ranks.astype(float)
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
    if control in models and not isinstance(control, bool):
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
    r"""Every model against a control over datasets: z tests on mean ranks, Holm-adjusted.

    With :math:`R_c` the control's mean rank and :math:`R_j` model :math:`j`'s,
    Demšar (2006, section 3.2.2) compares

    .. math:: z_j = \frac{R_c - R_j}{\sqrt{k(k+1)/(6N)}}

    with the standard normal (two-sided) and adjusts the :math:`k - 1`
    p-values with Holm's step-down procedure (:func:`adjust_pvalues`). When a
    new method is compared only with existing ones, these :math:`k-1`
    comparisons need less correction than all :math:`k(k-1)/2` pairs, and
    Holm rejects at least what the Bonferroni–Dunn test rejects.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_datasets, n_models)`` table, at least 2 × 2, no NaN.
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
    k, n = fr.n_models, fr.n_datasets
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


# --------------------------------------------------------------------------- rank stability


@dataclass(frozen=True)
class RankStabilityResult:
    """Result of :func:`rank_stability`.

    Attributes
    ----------
    models : tuple
        Model names or column indices.
    mean_ranks : ndarray
        Observed mean ranks.
    order_stability : float
        Fraction of resamples in which every pair of models is ordered as
        observed (the full order reproduced).
    separation : ndarray
        ``(k, k)`` symmetric: for each pair, the fraction of resamples whose
        mean ranks differ by at least the critical difference (0 on the diagonal).
    jackknife : ndarray
        ``(n_datasets, k)``: the shift of every model's mean rank when each
        dataset is dropped in turn (leave-one-out minus observed).
    critical_difference : float
        :func:`nemenyi_cd` for ``k`` models and ``n_datasets`` at ``alpha``.
    resampled_mean_ranks : ndarray
        ``(n_resamples, k)``: the mean ranks of every resample.
    n_resamples : int
    alpha : float
    """

    models: tuple
    mean_ranks: np.ndarray
    order_stability: float
    separation: np.ndarray
    jackknife: np.ndarray
    critical_difference: float
    resampled_mean_ranks: np.ndarray
    n_resamples: int
    alpha: float


def _multiplicities(n_units: int, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """How often each unit is drawn, for ``n_resamples`` resamples of ``n_units`` with replacement."""
    drawn = rng.integers(0, n_units, size=(n_resamples, n_units))
    offsets = (np.arange(n_resamples) * n_units)[:, None]
    counts = np.bincount((drawn + offsets).ravel(), minlength=n_resamples * n_units)
    return counts.reshape(n_resamples, n_units)


def rank_stability(
    scores: ArrayLike,
    *,
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    rng: RngLike = None,
) -> RankStabilityResult:
    r"""How stable a ranking over datasets is when the datasets are resampled.

    A critical-difference diagram at small :math:`N` says nothing about whether
    its order would survive a different draw of benchmark datasets. Each of
    ``n_resamples`` resamples draws :math:`N` datasets with replacement (the
    ranks within a dataset do not change) and recomputes the mean ranks
    :math:`R^*_j`:

    ``order_stability``
        the fraction of resamples in which every pair is ordered as observed:
        :math:`\operatorname{sign}(R^*_i - R^*_j) = \operatorname{sign}(R_i - R_j)`
        for all :math:`i < j` (a tie observed must stay a tie);
    ``separation``
        for each pair, the fraction of resamples with
        :math:`|R^*_i - R^*_j| \ge \mathrm{CD}`, the Nemenyi critical difference
        of the observed design (:func:`nemenyi_cd`);
    ``jackknife``
        the shift :math:`R_{j,(-i)} - R_j = (R_j - r_{ij})/(N-1)` of every mean
        rank when dataset :math:`i` is left out.

    A low ``order_stability`` with uniformly low ``separation`` is the
    signature of an ordering that is noise; a large jackknife shift points at
    one dataset that drives the ranking. Vectorised: a resample is the vector
    of how often each dataset was drawn, and the resampled mean ranks are one
    matrix product.

    Parameters
    ----------
    scores : array_like or DataFrame
        ``(n_datasets, n_models)`` table, at least 2 × 2, no NaN.
    n_resamples : int
        Number of resamples, at least 1.
    alpha : float
        Level of the critical difference, in (0, 1).
    higher_is_better : bool
        ``False`` for errors or losses.
    rng : numpy.random.Generator, int or None
        Source of the resamples.

    Returns
    -------
    RankStabilityResult

    Raises
    ------
    ValueError
        For a table :func:`friedman` refuses, ``n_resamples < 1`` or ``alpha``
        outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Examples
    --------
    Model 0 wins on every dataset, model 2 loses on every one:

    >>> import numpy as np
    >>> from sigeval import rank_stability
    >>> scores = np.array([[0.9, 0.8, 0.7]] * 12) + np.arange(12)[:, None] / 100
    >>> res = rank_stability(scores, n_resamples=2000, rng=0)
    >>> res.order_stability, float(res.separation[0, 2])
    (1.0, 1.0)
    """
    table, models = _score_table(scores)
    higher_is_better = _check_flag(higher_is_better, "higher_is_better")
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    alpha = check_unit_interval(alpha, "alpha")
    gen = check_rng(rng)
    n, k = table.shape
    ranks = _ranks(table, higher_is_better)
    mean_ranks = ranks.mean(axis=0)
    cd = nemenyi_cd(k, n, alpha=alpha)

    counts = _multiplicities(n, n_resamples, gen).astype(float)
    resampled = counts @ ranks / n  # (B, k)
    # Pairwise differences on a grid of N-ths: compare counts of rank sums to avoid rounding.
    observed_sign = np.sign(_round_pairs(mean_ranks[:, None] - mean_ranks[None, :], n))
    iu = np.triu_indices(k, 1)
    resampled_diff = resampled[:, iu[0]] - resampled[:, iu[1]]  # (B, pairs)
    same_order = np.all(np.sign(_round_pairs(resampled_diff, n)) == observed_sign[iu], axis=1)
    separated = np.abs(resampled_diff) >= cd - 1e-12
    separation = np.zeros((k, k))
    separation[iu] = separated.mean(axis=0)
    separation = separation + separation.T
    jackknife = (mean_ranks[None, :] - ranks) / (n - 1)
    return RankStabilityResult(
        models=models,
        mean_ranks=mean_ranks,
        order_stability=float(same_order.mean()),
        separation=separation,
        jackknife=jackknife,
        critical_difference=cd,
        resampled_mean_ranks=resampled,
        n_resamples=n_resamples,
        alpha=alpha,
    )


def _round_pairs(diff: np.ndarray, n: int) -> np.ndarray:
    """Differences of mean ranks are multiples of 1/(2N): snap them to that grid."""
    return np.round(diff * 2 * n) / (2 * n)


# --------------------------------------------------------------------------- bootstrap ranks


@dataclass(frozen=True)
class BootstrapRanksResult:
    """Result of :func:`bootstrap_ranks`.

    Every array is in the order of ``models``.

    Attributes
    ----------
    models : tuple
        Model names or column indices.
    estimate : ndarray
        Every model's metric on the test set itself.
    rank : ndarray of int
        Observed rank (1 = highest metric; tied models share the better rank).
    rank_interval : ConfidenceInterval
        Percentile interval of every model's rank over the resamples, as
        integer arrays ``low`` and ``high`` ("rank 1–2").
    leader : object
        The model with rank 1 (the first of them if several tie).
    difference_ci : ConfidenceInterval
        Percentile intervals of ``leader - model`` at ``confidence_level``
        (unadjusted; zero width for the leader itself).
    pvalue : ndarray
        Two-sided bootstrap p-value of each difference to the leader (the
        smallest :math:`\\alpha` whose percentile interval excludes 0); 1 for
        the leader.
    pvalue_holm : ndarray
        Holm-adjusted over the ``k - 1`` comparisons with the leader; 1 for the leader.
    indistinguishable : ndarray of bool
        Models the leader does not significantly beat
        (``pvalue_holm > 1 - confidence_level``), the leader included.
    rank_distribution : ndarray
        ``(n_resamples, k)`` integer ranks of every resample.
    confidence_level : float
    n_resamples : int
    """

    models: tuple
    estimate: np.ndarray
    rank: np.ndarray
    rank_interval: ConfidenceInterval
    leader: Any
    difference_ci: ConfidenceInterval
    pvalue: np.ndarray
    pvalue_holm: np.ndarray
    indistinguishable: np.ndarray
    rank_distribution: np.ndarray
    confidence_level: float
    n_resamples: int


def _competition_ranks(values: np.ndarray) -> np.ndarray:
    """1 + the number of models strictly better, along the last axis (higher is better)."""
    return 1 + np.sum(values[..., None, :] > values[..., :, None], axis=-1)


_CHUNK_ELEMENTS = 4_000_000


def _resampled_metrics(data, statistic, n_items, k, n_resamples, rng) -> np.ndarray:
    """(n_resamples, k) metrics of every model on every resample of the items."""
    out = np.empty((n_resamples, k))
    if statistic == "mean":
        rows = max(1, _CHUNK_ELEMENTS // max(n_items, 1))
        for start in range(0, n_resamples, rows):
            b = min(rows, n_resamples - start)
            counts = _multiplicities(n_items, b, rng).astype(float)
            out[start : start + b] = counts @ data / n_items
        return out
    per_item = sum(int(np.prod(x.shape[1:], dtype=np.int64)) for arrays in data for x in arrays)
    rows = max(1, _CHUNK_ELEMENTS // max(n_items * max(per_item, 1), 1))
    for start in range(0, n_resamples, rows):
        b = min(rows, n_resamples - start)
        idx = rng.integers(0, n_items, size=(b, n_items))
        for j, arrays in enumerate(data):
            out[start : start + b, j] = _call_statistic(statistic, arrays, idx)
    return out


def _call_statistic(statistic: Callable, arrays: tuple[np.ndarray, ...], idx: np.ndarray) -> np.ndarray:
    rows = idx.shape[0]
    value = np.asarray(statistic(*(x[idx] for x in arrays), axis=1), dtype=float)
    if value.shape != (rows,):
        raise ValueError(
            "`statistic` must return one value per resample: given arrays of shape "
            f"(batch, n_items, ...) with batch={rows}, it must return shape ({rows},); "
            f"got shape {value.shape}."
        )
    if not np.all(np.isfinite(value)):
        raise ValueError("`statistic` returned NaN or infinity on a resample.")
    return value


def _model_data(scores: Any, statistic: Any) -> tuple[Any, tuple, int]:
    """Per-item data: an (n, k) array for the mean, or k tuples of arrays for a callable."""
    if isinstance(statistic, str):
        if statistic != "mean":
            raise ValueError(f"`statistic` must be 'mean' or a callable; got {statistic!r}.")
        table, models = _score_table(scores)
        return table, models, table.shape[0]
    if not callable(statistic):
        raise TypeError(f"`statistic` must be 'mean' or a callable; got {type(statistic).__name__}.")
    if isinstance(scores, dict):
        models = tuple(scores)
        entries = list(scores.values())
    elif isinstance(scores, Sequence) and not isinstance(scores, (str, bytes)):
        models = tuple(range(len(scores)))
        entries = list(scores)
    else:
        raise TypeError(
            "With a callable `statistic`, `scores` must be a dict or a sequence with one entry "
            "per model: an array or a tuple of arrays sharing axis 0 (the test items); "
            f"got {type(scores).__name__}."
        )
    if len(entries) < 2:
        raise ValueError(f"`scores` must hold at least 2 models; got {len(entries)}.")
    data = []
    for model, entry in zip(models, entries):
        arrays = entry if isinstance(entry, tuple) else (entry,)
        arrays = tuple(np.asarray(x) for x in arrays)
        data.append(arrays)
    n_items = {x.shape[0] if x.ndim else -1 for arrays in data for x in arrays}
    if len(n_items) != 1 or -1 in n_items:
        raise ValueError(
            "Every model's arrays must share axis 0, the same test items in the same order; "
            f"got lengths {sorted(n_items)}."
        )
    n = n_items.pop()
    if n < 2:
        raise ValueError(f"`scores` must hold at least 2 test items; got {n}.")
    return data, models, n


def bootstrap_ranks(
    scores: Any,
    *,
    statistic: Literal["mean"] | Callable = "mean",
    n_resamples: int = 10_000,
    confidence_level: float = 0.95,
    rng: RngLike = None,
) -> BootstrapRanksResult:
    r"""Rank intervals of ``k`` models scored on the same test items, and the leader's tied group.

    Each of ``n_resamples`` resamples draws the :math:`n` test items with
    replacement, recomputes every model's metric on the *same* resample, and
    ranks the models (1 for the highest metric, tied models sharing the better
    rank). A model's rank interval is the percentile interval of its ranks
    ("rank 1–2"), as the PASCAL VOC challenge reports them (Everingham et al.,
    2015, section 3.5). The leader is the model ranked first on the test set;
    for every other model, the paired bootstrap distribution of
    ``leader - model`` gives a percentile interval and a two-sided p-value
    :math:`p = \min\big(1, 2\min(\#\{d^* \le 0\}, \#\{d^* \ge 0\})/B\big)`,
    Holm-adjusted over the :math:`k - 1` comparisons; models whose adjusted
    p-value exceeds :math:`1 - \text{confidence\_level}` are the ones the leader
    does not significantly beat, which the VOC summary tables mark beside it.

    Parameters
    ----------
    scores : array_like, DataFrame, dict or sequence
        With ``statistic="mean"``: an ``(n_items, k)`` table of per-item scores
        (0/1 correctness, per-image IoU, ...), a DataFrame's columns naming the
        models. With a callable: one entry per model (a dict from name to entry,
        or a sequence), each an array or a tuple of arrays sharing axis 0, the
        test items in the same order for every model (for example
        ``(detection_scores, is_true_positive, n_positives)`` per model).
    statistic : "mean" or callable
        ``"mean"``, or ``f(*arrays, axis=1)`` mapping arrays of shape
        ``(batch, n_items, ...)`` to shape ``(batch,)``, the item axis being
        ``axis`` (the convention of :func:`bootstrap_ci` and
        ``scipy.stats.bootstrap``, so ``np.mean`` and :func:`average_precision`
        work unchanged). Higher values are better.
    n_resamples : int
        Number of resamples, at least 1.
    confidence_level : float
        Level of the rank and difference intervals, in (0, 1); the leader's
        group uses :math:`\alpha = 1 - \text{confidence\_level}`.
    rng : numpy.random.Generator, int or None
        Source of the resamples.

    Returns
    -------
    BootstrapRanksResult

    Raises
    ------
    ValueError
        For fewer than 2 models or items, NaN scores, models of different
        lengths, or a callable returning the wrong shape or non-finite values.

    Notes
    -----
    Explained in :ref:`ch-multiple`.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import bootstrap_ranks
    >>> rng = np.random.default_rng(0)
    >>> correct = rng.random((500, 3)) < [0.80, 0.79, 0.70]
    >>> res = bootstrap_ranks(correct.astype(float), n_resamples=2000, rng=1)
    >>> res.estimate
    array([0.76 , 0.782, 0.7  ])
    >>> res.leader, res.rank.tolist()
    (1, [2, 1, 3])
    >>> res.rank_interval.low.tolist(), res.rank_interval.high.tolist()
    ([1, 1, 3], [2, 2, 3])
    >>> res.indistinguishable.tolist()
    [True, True, False]
    """
    data, models, n_items = _model_data(scores, statistic)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    gen = check_rng(rng)
    k = len(models)
    if isinstance(statistic, str):
        estimate = data.mean(axis=0)
    else:
        everything = np.arange(n_items)[None]
        estimate = np.array([_call_statistic(statistic, arrays, everything)[0] for arrays in data])
    metrics = _resampled_metrics(data, statistic, n_items, k, n_resamples, gen)
    rank = _competition_ranks(estimate)
    rank_dist = _competition_ranks(metrics)
    tail = (1 - confidence_level) / 2
    low = np.quantile(rank_dist, tail, axis=0, method="inverted_cdf").astype(int)
    high = np.quantile(rank_dist, 1 - tail, axis=0, method="inverted_cdf").astype(int)

    leader = int(np.argmax(estimate))
    diffs = metrics[:, [leader]] - metrics  # (B, k)
    d_low, d_high = np.percentile(diffs, [100 * tail, 100 * (1 - tail)], axis=0)
    at_most = np.mean(diffs <= 0, axis=0)
    at_least = np.mean(diffs >= 0, axis=0)
    pvalue = np.minimum(1.0, 2 * np.minimum(at_most, at_least))
    pvalue[leader] = 1.0
    others = np.arange(k) != leader
    pvalue_holm = np.ones(k)
    pvalue_holm[others] = adjust_pvalues(pvalue[others], method="holm")
    return BootstrapRanksResult(
        models=models,
        estimate=estimate,
        rank=rank,
        rank_interval=ConfidenceInterval(low, high),
        leader=models[leader],
        difference_ci=ConfidenceInterval(d_low, d_high),
        pvalue=pvalue,
        pvalue_holm=pvalue_holm,
        indistinguishable=pvalue_holm > 1 - confidence_level,
        rank_distribution=rank_dist,
        confidence_level=confidence_level,
        n_resamples=n_resamples,
    )


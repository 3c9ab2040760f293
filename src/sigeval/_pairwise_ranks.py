"""Two models at a time over many tasks: pairwise Wilcoxon signed-rank tests with an adjustment, and the sign
test, which counts wins and asks nothing of the tasks' scales.

Public through :mod:`sigeval.ranking` (its own module only to keep each module short). Explained in
:ref:`ch-ranking`.
"""

from __future__ import annotations

import functools
import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike
from scipy import special, stats

from ._options import ALTERNATIVES, Alternative
from ._ranks import score_table
from ._validation import (
    check_choice,
    check_flag,
    check_memory,
    check_paired,
)
from .multiple import ADJUST_METHODS, adjust_pvalues

__all__ = [
    "PAIRWISE_CORRECTIONS",
    "pairwise_wilcoxon",
    "SIGN_TEST_ZERO_METHODS",
    "SignTestResult",
    "sign_test",
]


#: The adjustments :func:`pairwise_wilcoxon` offers.
PAIRWISE_CORRECTIONS = (*ADJUST_METHODS, "none")
PairwiseCorrection = Literal["holm", "bonferroni", "hochberg", "bh", "by", "none"]
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

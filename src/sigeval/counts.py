"""Counts in, inference out: intervals and tests from aggregated counts.

For accuracy-type metrics every interval and test of the course depends on the
per-item scores only through a handful of counts: how many items each model
got right (:func:`~sigeval.intervals.proportion_ci`), the 2x2 table of two
models on the same items (:class:`PairedCounts`), or each group's correct and
total items for correlated items. An evaluation aggregated elsewhere (SQL,
Spark, Dask) passes the counts, and the cost does not grow with the number of
items. Each function gives what its per-item counterpart gives on the items
the counts describe.

Explained in :ref:`ch-own-results` and :ref:`ch-two-models`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike

from ._bootstrap_engine import MeanStatistic, check_bootstrap_options, run_bootstrap
from ._options import ALTERNATIVES, Alternative, BootstrapMethod
from ._results import BootstrapResult
from ._signflip import binomial_tails, pvalue_from_tails
from ._validation import (
    RngLike,
    _integer_array,
    check_binary,
    check_choice,
    check_same_length,
)
from .paired import DifferenceSE
from .permutation import PermutationResult

__all__ = [
    "PairedCounts",
    "paired_bootstrap_ci_counts",
    "paired_permutation_test_counts",
    "difference_se_counts",
    "bootstrap_ci_counts",
]


def _count(value: int, name: str) -> int:
    arr = _integer_array(value, name)
    if arr.ndim != 0:
        raise ValueError(f"`{name}` must be one count; got an array of shape {arr.shape}.")
    count = int(arr)
    if count < 0:
        raise ValueError(f"`{name}` must be a count >= 0; got {count}.")
    return count


@dataclass(frozen=True)
class PairedCounts:
    """The 2x2 table of two models scored right or wrong on the same items.

    ============  ==================  ==================
    A (rows)      B right             B wrong
    ============  ==================  ==================
    A right       ``both_correct``    ``only_a_correct``
    A wrong       ``only_b_correct``  ``both_wrong``
    ============  ==================  ==================

    ``only_a_correct`` and ``only_b_correct`` are McNemar's ``n01`` and ``n10``
    (:func:`~sigeval.paired.mcnemar_counts`); Dietterich (1998) names them the
    other way round. A difference is A minus B: ``(only_a_correct -
    only_b_correct) / n``.

    Examples
    --------
    >>> from sigeval import PairedCounts
    >>> table = PairedCounts(both_correct=801, only_a_correct=44, only_b_correct=28, both_wrong=127)
    >>> table.n, table.accuracy_a, table.accuracy_b
    (1000, 0.845, 0.829)
    >>> PairedCounts.from_correctness([1, 1, 0, 0], [1, 0, 1, 1])
    PairedCounts(both_correct=1, only_a_correct=1, only_b_correct=2, both_wrong=0)
    """

    both_correct: int
    only_a_correct: int
    only_b_correct: int
    both_wrong: int

    def __post_init__(self) -> None:
        for name in ("both_correct", "only_a_correct", "only_b_correct", "both_wrong"):
            object.__setattr__(self, name, _count(getattr(self, name), name))
        if self.n == 0:
            raise ValueError(
                "`both_correct`, `only_a_correct`, `only_b_correct` and `both_wrong` are all 0: "
                "a table must count at least one item."
            )

    @classmethod
    def from_correctness(cls, scores_a: ArrayLike, scores_b: ArrayLike) -> PairedCounts:
        """The table of two 0/1 correctness vectors over the same items."""
        a, b = check_same_length(
            check_binary(scores_a, "scores_a").astype(bool), check_binary(scores_b, "scores_b").astype(bool),
            ("scores_a", "scores_b"),
        )
        return cls(int(np.sum(a & b)), int(np.sum(a & ~b)), int(np.sum(~a & b)), int(np.sum(~a & ~b)))

    @property
    def n(self) -> int:
        """Number of items."""
        return self.both_correct + self.only_a_correct + self.only_b_correct + self.both_wrong

    @property
    def accuracy_a(self) -> float:
        return (self.both_correct + self.only_a_correct) / self.n

    @property
    def accuracy_b(self) -> float:
        return (self.both_correct + self.only_b_correct) / self.n

    def differences(self) -> tuple[np.ndarray, np.ndarray]:
        """The distinct per-item differences A minus B (-1, 0, 1) that occur, and how often."""
        values = np.array([-1.0, 0.0, 1.0])
        counts = np.array([self.only_b_correct, self.both_correct + self.both_wrong, self.only_a_correct])
        return values[counts > 0], counts[counts > 0]


def _table(table: PairedCounts) -> PairedCounts:
    if not isinstance(table, PairedCounts):
        raise TypeError(
            "`table` must be a PairedCounts(both_correct, only_a_correct, only_b_correct, both_wrong); "
            f"got {type(table).__name__}."
        )
    return table


def paired_bootstrap_ci_counts(
    table: PairedCounts,
    *,
    n_resamples: int = 10_000,
    method: BootstrapMethod = "percentile",
    confidence_level: float = 0.95,
    rng: RngLike = None,
) -> BootstrapResult:
    """Paired bootstrap interval of the difference of two accuracies, from the 2x2 table.

    The difference of a resample is the mean of its per-item differences
    (-1, 0 or 1), whose counts are multinomial: the bootstrap of
    :func:`~sigeval.resampling.paired_bootstrap_ci` without the items, at a
    cost that does not depend on ``n``. With the same ``rng`` it returns the
    same interval and bootstrap distribution as the per-item call whenever
    that call takes its multinomial path (at least 32 items per distinct
    difference, so from 96 items on); on fewer items the per-item call draws
    items by position, and the two agree in distribution, not draw for draw.

    Parameters
    ----------
    table : PairedCounts
    n_resamples, method, confidence_level, rng
        As in :func:`~sigeval.resampling.paired_bootstrap_ci`.

    Returns
    -------
    BootstrapResult

    Notes
    -----
    Explained in :ref:`ch-own-results`.

    Examples
    --------
    >>> from sigeval import PairedCounts, paired_bootstrap_ci_counts
    >>> table = PairedCounts(801, 44, 28, 127)
    >>> res = paired_bootstrap_ci_counts(table, rng=0)
    >>> round(res.estimate, 3), [round(float(b), 3) for b in res.confidence_interval]
    (0.016, [-0.001, 0.033])
    """
    table = _table(table)
    _, n_resamples, method, confidence_level, rng = check_bootstrap_options(
        "mean", n_resamples, method, confidence_level, rng
    )
    engine = MeanStatistic.of_counts(*table.differences())
    return run_bootstrap(engine, n_resamples, method, confidence_level, rng, "`table`")


def paired_permutation_test_counts(table: PairedCounts, *, alternative: Alternative = "two-sided") -> PermutationResult:
    """Exact paired permutation (sign-flip) test of two accuracies, from the 2x2 table.

    Flipping the signs of the per-item differences changes only the items on
    which the models disagree, so the null distribution is binomial over the
    ``only_a_correct + only_b_correct`` disagreements: the p-value of
    :func:`~sigeval.permutation.paired_permutation_test` on 0/1 scores (and of
    McNemar's exact test), for any number of items, never below
    ``2 ** -disagreements``.

    Parameters
    ----------
    table : PairedCounts
    alternative : {"two-sided", "greater", "less"}
        ``"greater"``: A more accurate than B.

    Returns
    -------
    PermutationResult
        With ``method="exact"``.

    Notes
    -----
    Explained in :ref:`ch-own-results`.

    Examples
    --------
    >>> from sigeval import PairedCounts, paired_permutation_test_counts
    >>> res = paired_permutation_test_counts(PairedCounts(801, 44, 28, 127))
    >>> round(res.statistic, 3), round(res.pvalue, 4)
    (0.016, 0.0764)
    """
    table = _table(table)
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    m = table.only_a_correct + table.only_b_correct
    tails = binomial_tails(table.only_a_correct, m)
    observed = (table.only_a_correct - table.only_b_correct) / table.n
    return PermutationResult(observed, float(pvalue_from_tails(tails, alternative)), "exact", alternative, None, None)


def difference_se_counts(table: PairedCounts) -> DifferenceSE:
    r"""Paired and unpaired standard errors of the difference of two accuracies, from the 2x2 table.

    With :math:`n` items, accuracies :math:`p_A, p_B`, disagreements
    :math:`n_{01}` (only A right) and :math:`n_{10}` (only B right), and
    :math:`\bar d = (n_{01} - n_{10})/n`,

    .. math::

        \mathrm{SE}_{\text{paired}} = \sqrt{\frac{n_{01} + n_{10} - n\bar d^2}{n(n-1)}}, \qquad
        \mathrm{SE}_{\text{unpaired}} = \sqrt{\frac{p_A(1-p_A) + p_B(1-p_B)}{n}},

    the closed forms of :func:`~sigeval.paired.difference_se` on the items.

    Notes
    -----
    Explained in :ref:`ch-two-models`.

    Examples
    --------
    >>> from sigeval import PairedCounts, difference_se_counts
    >>> se = difference_se_counts(PairedCounts(801, 44, 28, 127))
    >>> round(se.estimate, 3), round(se.standard_error_unpaired, 4), round(se.standard_error, 4)
    (0.016, 0.0165, 0.0085)
    """
    table = _table(table)
    n = table.n
    if n < 2:
        raise ValueError(f"`table` must count at least 2 items; got {n}.")
    p_a, p_b = table.accuracy_a, table.accuracy_b
    n01, n10 = table.only_a_correct, table.only_b_correct
    mean = (n01 - n10) / n
    variance = max((n01 + n10 - n * mean**2) / (n - 1), 0.0)
    cov = table.both_correct / n - p_a * p_b
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = cov / np.sqrt(p_a * (1 - p_a) * p_b * (1 - p_b))
    return DifferenceSE(
        estimate=float(p_a - p_b),
        standard_error=float(np.sqrt(variance / n)),
        standard_error_unpaired=float(np.sqrt(p_a * (1 - p_a) / n + p_b * (1 - p_b) / n)),
        correlation=float(correlation),
        n=int(n),
    )


def bootstrap_ci_counts(
    k: ArrayLike,
    n: ArrayLike,
    *,
    n_resamples: int = 10_000,
    method: BootstrapMethod = "percentile",
    confidence_level: float = 0.95,
    rng: RngLike = None,
) -> BootstrapResult:
    r"""Cluster bootstrap interval of an accuracy, from each group's count of correct items ``k`` of ``n``.

    Correlated test items (frames of one clip, crops of one picture) are
    resampled by group: each resample draws the :math:`G` groups with
    replacement and its accuracy is :math:`\sum_g m_g k_g / \sum_g m_g n_g`
    (:math:`m_g` draws of group :math:`g`, with :math:`k_g` correct of
    :math:`n_g`). This is :func:`~sigeval.resampling.bootstrap_ci` with
    ``groups=``, from the counts alone: with the same ``rng`` it gives the
    same result as the per-item call whose groups, sorted by label, come in
    the order given here.

    Parameters
    ----------
    k, n : array_like of int
        Per group, the items the model got right and the items in the group
        (``0 <= k <= n``, ``n >= 1``), at least 2 groups.
    n_resamples, method, confidence_level, rng
        As in :func:`~sigeval.resampling.bootstrap_ci`.

    Returns
    -------
    BootstrapResult

    Notes
    -----
    Explained in :ref:`ch-own-results` and :ref:`ch-bootstrap`.

    Examples
    --------
    >>> from sigeval import bootstrap_ci_counts
    >>> res = bootstrap_ci_counts([9, 7, 10, 4, 8], [10, 10, 10, 10, 10], rng=0)
    >>> round(res.estimate, 2), [round(float(b), 2) for b in res.confidence_interval]
    (0.76, [0.6, 0.9])
    """
    correct_arr = _integer_array(k, "k")
    total_arr = _integer_array(n, "n")
    if correct_arr.ndim != 1 or total_arr.shape != correct_arr.shape:
        raise ValueError(
            "`k` and `n` must be 1-D, one count per group, of the same length; "
            f"got shapes {correct_arr.shape} and {total_arr.shape}."
        )
    if correct_arr.size < 2:
        raise ValueError(f"`k` and `n` must describe at least 2 groups; got {correct_arr.size}.")
    if np.any(total_arr < 1):
        raise ValueError(f"`n` must be at least 1 in every group; got {total_arr[total_arr < 1][:3].tolist()}.")
    bad = (correct_arr < 0) | (correct_arr > total_arr)
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ValueError(f"`k` must lie in [0, n] in every group; group {i} has {correct_arr[i]} of {total_arr[i]}.")
    _, n_resamples, method, confidence_level, rng = check_bootstrap_options(
        "mean", n_resamples, method, confidence_level, rng
    )
    # Sums of whole numbers keep every resampled accuracy in [0, 1] (exactly 1
    # when every group is perfect, 0 when every group is wrong): no clipping is needed.
    engine = MeanStatistic.of_groups(correct_arr.astype(float), total_arr, (0.0, 1.0))
    return run_bootstrap(engine, n_resamples, method, confidence_level, rng, "`k` and `n`")


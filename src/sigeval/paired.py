"""Two fixed models scored on the same test items.

When two trained models are evaluated on the same test set, their errors are
correlated: an image that defeats one model tends to defeat the other. The
tools here use the pairing instead of wasting it: McNemar's test on the items
where the models disagree (with its exact power and the test-set size it
needs), and the standard error of the per-item difference set beside the one
that ignores the pairing. The Wilcoxon signed-rank test
applies the same idea one level up, to two models scored on many tasks.

Explained in :ref:`ch-two-models`;
the Wilcoxon test in :ref:`ch-ranking`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._mcnemar import check_disagreements, check_form, mcnemar_core, method_name
from ._options import ALTERNATIVES, Alternative
from ._validation import (
    check_binary,
    check_choice,
    check_difference,
    check_paired,
    check_same_length,
    scalar_or_array,
)

__all__ = [
    "McNemarResult",
    "mcnemar",
    "mcnemar_counts",
    "DifferenceSE",
    "difference_se",
    "WilcoxonResult",
    "wilcoxon_signed_rank",
]


def _check_correctness(scores_a: ArrayLike, scores_b: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    return check_same_length(check_binary(scores_a, "scores_a"), check_binary(scores_b, "scores_b"), ("scores_a", "scores_b"))


# --------------------------------------------------------------------------- McNemar



@dataclass(frozen=True)
class McNemarResult:
    """Result of :func:`mcnemar` and :func:`mcnemar_counts`.

    Fields are scalars for one pair of counts and arrays of the broadcast
    shape when :func:`mcnemar_counts` was given arrays of counts.

    Attributes
    ----------
    n01 : int or ndarray
        Items that model A classifies correctly and model B does not (also
        available as ``only_a_correct``).
    n10 : int or ndarray
        Items that model B classifies correctly and model A does not (also
        available as ``only_b_correct``).
    statistic : float or ndarray
        ``min(n01, n10)`` for the exact and mid-p tests; the chi-square
        statistic otherwise.
    pvalue : float or ndarray
        Two-sided p-value for equal accuracy.
    method : str
        ``"exact"``, ``"mid-p"``, ``"chi-square"`` or
        ``"chi-square (continuity corrected)"``.

    Notes
    -----
    Dietterich (1998, Table 2) names the cells the other way round: his
    :math:`n_{01}` counts the items misclassified by A but not by B (our
    ``n10``), his :math:`n_{10}` those misclassified by B but not by A (our
    ``n01``). The test is symmetric in the two cells, so its statistic and
    p-value do not depend on the naming.
    """

    n01: int | np.ndarray
    n10: int | np.ndarray
    statistic: float | np.ndarray
    pvalue: float | np.ndarray
    method: str

    @property
    def only_a_correct(self) -> int | np.ndarray:
        """Items that only model A classifies correctly (``n01``)."""
        return self.n01

    @property
    def only_b_correct(self) -> int | np.ndarray:
        """Items that only model B classifies correctly (``n10``)."""
        return self.n10











def _mcnemar_result(n01, n10, exact, continuity, mid_p) -> McNemarResult:
    """Run the test and warn about pairs without disagreements (stack: user -> public -> here)."""
    none = (n01 + n10) == 0
    if none.any():
        if n01.ndim == 0:
            message = (
                "The two models agree on every item (n01 = n10 = 0): McNemar's test has "
                "no information about their difference; the p-value is set to 1."
            )
        else:
            message = (
                f"{int(none.sum())} of {none.size} count pairs have n01 = n10 = 0 (the models "
                "agree on every item): McNemar's test has no information there; their "
                "p-values are set to 1."
            )
        warnings.warn(message, UserWarning, stacklevel=3)
    statistic, pvalue = mcnemar_core(n01, n10, exact, continuity, mid_p)
    scalar = n01.ndim == 0
    return McNemarResult(
        n01=int(n01) if scalar else n01,
        n10=int(n10) if scalar else n10,
        statistic=scalar_or_array(statistic),
        pvalue=scalar_or_array(pvalue),
        method=method_name(exact, continuity, mid_p),
    )


def mcnemar_counts(
    n01: int | ArrayLike,
    n10: int | ArrayLike,
    *,
    exact: bool = True,
    continuity: bool = True,
    mid_p: bool = False,
) -> McNemarResult:
    r"""McNemar's test from the two disagreement counts.

    Only the :math:`m = n_{01} + n_{10}` items on which two models disagree
    carry information about their difference. Under equal accuracy each
    disagreement favours either model with probability 1/2, so
    :math:`n_{01} \sim \mathrm{Binomial}(m, 1/2)` (McNemar, 1947).

    Exact test (the default)
        :math:`p = \min\bigl(1,\; 2\,F_{\mathrm{Bin}(m, 1/2)}(\min(n_{01}, n_{10}))\bigr)`.
        The reported ``statistic`` is :math:`\min(n_{01}, n_{10})`, the
        quantity whose binomial tail is the p-value.
    Mid-p test (``mid_p=True``)
        The exact p-value less the probability of the observed count,
        :math:`p = 2\,\bigl[F(k) - \tfrac12 P(X = k)\bigr]` with
        :math:`k = \min(n_{01}, n_{10})` and :math:`X \sim \mathrm{Bin}(m, 1/2)`:
        the observed table counts one half instead of fully. When
        :math:`n_{01} = n_{10}` it is :math:`1 - \tfrac12 P(X = k)`, as
        Fagerland, Lydersen and Laake (2013) define it. The exact test is
        conservative because the binomial is discrete (its size is often
        well below :math:`\alpha`); the mid-p test is not guaranteed to keep
        the level, but in their study of 9,595 designs it never exceeded it,
        and it was nearly as powerful as the chi-square test, which they
        recommend along with it.
    Chi-square test (``exact=False``)
        :math:`\chi^2 = (n_{01} - n_{10})^2 / m`, or with the continuity
        correction :math:`\chi^2 = \max(|n_{01} - n_{10}| - 1,\, 0)^2 / m`,
        referred to a chi-square distribution with 1 degree of freedom. The
        clipping at 0 (as R's ``mcnemar.test``) keeps ``n01 == n10`` at
        :math:`\chi^2 = 0`, ``p = 1``.

    When the models never disagree (``m = 0``) the data say nothing about the
    difference: the p-value is 1 and a ``UserWarning`` says so.

    The counts broadcast against each other. Given arrays (for instance the
    counts of many simulated test sets), the test is computed for every pair
    at once and the fields of the result are arrays of the broadcast shape;
    given two numbers, they are a Python ``int`` and ``float``.

    Parameters
    ----------
    n01 : int or array_like of int
        Items that model A gets right and model B gets wrong.
    n10 : int or array_like of int
        Items that model B gets right and model A gets wrong.
    exact : bool
        Use the exact binomial test (recommended; Dietterich, 1998, found the
        test has low type I error) rather than the chi-square approximation.
    continuity : bool
        Apply the continuity correction to the chi-square statistic; ignored
        when ``exact=True``.
    mid_p : bool
        Report the mid-p value of the exact test (Fagerland et al., 2013);
        needs ``exact=True``.

    Returns
    -------
    McNemarResult

    Raises
    ------
    ValueError
        If a count is negative or not a whole number, a count array is empty,
        the two do not broadcast, or ``mid_p=True`` with ``exact=False``.
    TypeError
        If a count is not a number (booleans included) or a flag is not a bool.

    See Also
    --------
    mcnemar : the same test from two per-item correctness vectors.

    Notes
    -----
    Explained in :ref:`ch-two-models`.

    References
    ----------
    Fagerland, M. W., Lydersen, S. and Laake, P. (2013). The McNemar test for
    binary matched-pairs data: mid-p and asymptotic are better than exact
    conditional. *BMC Medical Research Methodology* 13, 91.

    McNemar, Q. (1947). Note on the sampling error of the difference between
    correlated proportions or percentages. *Psychometrika* 12(2), 153–157.

    Examples
    --------
    The article's two template matchers: 44 items only A gets right, 28 only B.

    >>> from sigeval import mcnemar_counts
    >>> res = mcnemar_counts(44, 28)
    >>> res.statistic, round(res.pvalue, 4)
    (28.0, 0.0764)
    >>> round(mcnemar_counts(44, 28, exact=False).statistic, 4)
    3.125
    >>> mid = mcnemar_counts(44, 28, mid_p=True)
    >>> mid.method, round(mid.pvalue, 4)
    ('mid-p', 0.0604)

    Many pairs of counts at once, e.g. from simulated test sets:

    >>> mcnemar_counts([44, 50, 10], [28, 22, 10]).pvalue.round(4)
    array([0.0764, 0.0013, 1.    ])
    """
    n01_arr, n10_arr = check_disagreements(n01, n10)
    exact, continuity, mid_p = check_form(exact, continuity, mid_p)
    return _mcnemar_result(n01_arr, n10_arr, exact, continuity, mid_p)


def mcnemar(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    exact: bool = True,
    continuity: bool = True,
    mid_p: bool = False,
) -> McNemarResult:
    r"""McNemar's test for two models scored on the same test items.

    Counts the items only A gets right (:math:`n_{01}`) and those only B gets
    right (:math:`n_{10}`), and tests equal accuracy from those two counts
    exactly as :func:`mcnemar_counts` does (McNemar, 1947):

    Exact test (the default)
        :math:`n_{01} \sim \mathrm{Binomial}(m, 1/2)` under equal accuracy,
        with :math:`m = n_{01} + n_{10}`, and
        :math:`p = \min\bigl(1,\; 2\,F_{\mathrm{Bin}(m, 1/2)}(\min(n_{01}, n_{10}))\bigr)`.
    Mid-p test (``mid_p=True``)
        The exact p-value less the probability of the observed count (see
        :func:`mcnemar_counts`; Fagerland et al., 2013).
    Chi-square test (``exact=False``)
        :math:`\chi^2 = (n_{01} - n_{10})^2 / m`, or with the continuity
        correction :math:`\max(|n_{01} - n_{10}| - 1,\, 0)^2 / m`, on 1
        degree of freedom.

    When the models never disagree (``m = 0``) the p-value is 1 and a
    ``UserWarning`` says so.

    Parameters
    ----------
    scores_a, scores_b : array_like of bool or 0/1
        Per-item correctness of models A and B on the same items, in the same order.
    exact : bool
        Use the exact binomial test (recommended; Dietterich, 1998, found the
        test has low type I error) rather than the chi-square approximation.
    continuity : bool
        Apply the continuity correction to the chi-square statistic; ignored
        when ``exact=True``.
    mid_p : bool
        Report the mid-p value of the exact test; needs ``exact=True``.

    Returns
    -------
    McNemarResult
        With ``n01`` and ``n10`` as ints and ``statistic`` and ``pvalue`` as floats.

    Raises
    ------
    ValueError
        If the vectors are empty, of different lengths, hold NaN or values
        other than 0/1, or ``mid_p=True`` with ``exact=False``.

    See Also
    --------
    mcnemar_counts : the test from the two counts, vectorized over arrays of counts.
    mcnemar_power : its power, for planning the size of a test set.

    Notes
    -----
    Explained in :ref:`ch-two-models`.

    Examples
    --------
    The article's two template matchers: 44 items only A gets right, 28 only B.

    >>> import numpy as np
    >>> from sigeval import mcnemar
    >>> a = np.repeat([1, 1, 0, 0], [801, 44, 28, 127])
    >>> b = np.repeat([1, 0, 1, 0], [801, 44, 28, 127])
    >>> res = mcnemar(a, b)
    >>> res.n01, res.n10, round(res.pvalue, 4)
    (44, 28, 0.0764)
    >>> round(mcnemar(a, b, exact=False).statistic, 4)
    3.125
    >>> round(mcnemar(a, b, mid_p=True).pvalue, 4)
    0.0604
    """
    a, b = _check_correctness(scores_a, scores_b)
    exact, continuity, mid_p = check_form(exact, continuity, mid_p)
    n01 = np.int64(np.count_nonzero(a & ~b))
    n10 = np.int64(np.count_nonzero(~a & b))
    return _mcnemar_result(np.asarray(n01), np.asarray(n10), exact, continuity, mid_p)


# --------------------------------------------------------------------------- standard errors


@dataclass(frozen=True)
class DifferenceSE:
    """Result of :func:`difference_se`.

    Attributes
    ----------
    estimate : float
        Difference of accuracies, ``acc_a - acc_b``.
    standard_error : float
        The paired standard error, from the per-item differences:
        ``sd(d, ddof=1) / sqrt(n)``.
    standard_error_unpaired : float
        The standard error that treats the two accuracies as independent
        samples (right only for two independent test sets).
    correlation : float
        Pearson (phi) correlation of the two correctness vectors; NaN when a
        model is right on every item or wrong on every item.
    n : int
        Number of test items.
    """

    estimate: float
    standard_error: float
    standard_error_unpaired: float
    correlation: float
    n: int


def difference_se(scores_a: ArrayLike, scores_b: ArrayLike) -> DifferenceSE:
    r"""Standard error of a difference of accuracies, with and without the pairing.

    With per-item correctness :math:`a_i, b_i \in \{0, 1\}`, accuracies
    :math:`\hat p_a, \hat p_b` and differences :math:`d_i = a_i - b_i`:

    .. math::

        \mathrm{SE}_{\text{paired}} = \frac{s_d}{\sqrt n}, \qquad
        \mathrm{SE}_{\text{unpaired}} = \sqrt{\frac{\hat p_a(1-\hat p_a)}{n}
                                             + \frac{\hat p_b(1-\hat p_b)}{n}},

    with :math:`s_d` the sample standard deviation of :math:`d` (``ddof=1``).
    The unpaired form is right only for two independent test sets. On one
    shared test set :math:`\operatorname{Var}(a - b) = \operatorname{Var}(a) +
    \operatorname{Var}(b) - 2\rho\,\mathrm{sd}(a)\,\mathrm{sd}(b)`: the
    positive correlation :math:`\rho` of the two models' errors is what the
    paired standard error takes into account.

    Parameters
    ----------
    scores_a, scores_b : array_like of bool or 0/1
        Per-item correctness of models A and B on the same items, at least 2.

    Returns
    -------
    DifferenceSE

    Raises
    ------
    ValueError
        If the vectors have fewer than 2 items, different lengths, NaN or
        values other than 0/1.

    Notes
    -----
    Explained in :ref:`ch-two-models`.

    Examples
    --------
    The article's two template matchers on 1,000 images: pairing halves the
    standard error of the difference.

    >>> import numpy as np
    >>> from sigeval import difference_se
    >>> a = np.repeat([1, 1, 0, 0], [801, 44, 28, 127])
    >>> b = np.repeat([1, 0, 1, 0], [801, 44, 28, 127])
    >>> se = difference_se(a, b)
    >>> round(se.estimate, 3), round(se.standard_error_unpaired, 4), round(se.standard_error, 4)
    (0.016, 0.0165, 0.0085)
    """
    a, b = _check_correctness(scores_a, scores_b)
    n = a.size
    if n < 2:
        raise ValueError(f"`scores_a` and `scores_b` must hold at least 2 items; got {n}.")
    a = a.astype(float)
    b = b.astype(float)
    d = a - b
    p_a, p_b = a.mean(), b.mean()
    cov = np.mean((a - p_a) * (b - p_b))
    # A model that is always right (or always wrong) has no variance: the
    # correlation is undefined and reported as NaN rather than as a warning.
    with np.errstate(invalid="ignore", divide="ignore"):
        correlation = cov / np.sqrt(p_a * (1 - p_a) * p_b * (1 - p_b))
    return DifferenceSE(
        estimate=float(p_a - p_b),
        standard_error=float(d.std(ddof=1) / np.sqrt(n)),
        standard_error_unpaired=float(np.sqrt(p_a * (1 - p_a) / n + p_b * (1 - p_b) / n)),
        correlation=float(correlation),
        n=int(n),
    )


# --------------------------------------------------------------------------- Wilcoxon

_ZERO_METHODS = ("zsplit", "wilcox", "pratt")


@dataclass(frozen=True)
class WilcoxonResult:
    """Result of :func:`wilcoxon_signed_rank`.

    Attributes
    ----------
    statistic : float
        ``min(r_plus, r_minus)`` for the two-sided test (Demšar's *T*),
        ``r_plus`` for a one-sided one (as ``scipy.stats.wilcoxon``).
    pvalue : float
        The p-value from ``scipy.stats.wilcoxon``.
    r_plus : float
        Sum of the ranks of the tasks on which A scores higher than B.
    r_minus : float
        Sum of the ranks of the tasks on which B scores higher than A.
    n : int
        Number of tasks.
    n_zero : int
        Tasks on which the two scores are equal.
    zero_method : str
        How the zero differences entered the ranks.
    alternative : str
        The alternative hypothesis.
    """

    statistic: float
    pvalue: float
    r_plus: float
    r_minus: float
    n: int
    n_zero: int
    zero_method: str
    alternative: str


def wilcoxon_signed_rank(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    alternative: Alternative = "two-sided",
    zero_method: Literal["zsplit", "wilcox", "pratt"] = "zsplit",
) -> WilcoxonResult:
    r"""Wilcoxon signed-rank test for two models scored on the same tasks.

    Demšar (2006, section 3.1.3) recommends it for comparing two methods over
    :math:`N` tasks (his datasets), because scores on different tasks are not
    commensurable but their differences can be ranked. With
    :math:`d_i = a_i - b_i` ranked by :math:`|d_i|` (average ranks for ties),

    .. math::

        R^+ = \sum_{d_i > 0} \operatorname{rank}(d_i), \qquad
        R^- = \sum_{d_i < 0} \operatorname{rank}(d_i), \qquad T = \min(R^+, R^-).

    Zero differences (the two models tie on a task), by ``zero_method``:

    ``"zsplit"`` (default)
        Zeros are ranked with the others and their ranks split evenly between
        :math:`R^+` and :math:`R^-`, as Demšar describes (he drops one zero
        when their number is odd; here its rank is split in half instead).
        :math:`R^+ + R^- = N(N+1)/2`.
    ``"wilcox"``
        Zeros are discarded before ranking (scipy's default).
    ``"pratt"``
        Zeros are ranked with the others, then their ranks are discarded.

    The p-value is that of ``scipy.stats.wilcoxon`` with the same
    ``zero_method`` and its ``method="auto"``, which (scipy 1.17) chooses:

    - more than 50 differences: the normal approximation of :math:`R^+`, with
      the variance corrected for ties and no continuity correction;
    - at most 50, no zero and no tied :math:`|d_i|`: the exact null distribution
      of :math:`R^+`;
    - at most 13 with zeros or ties: an exact permutation test, all
      :math:`2^n` sign assignments of the signed ranks enumerated (fewer than
      scipy's 9,999 resamples, so nothing is random);
    - 14 to 50 with zeros or ties: the normal approximation again.

    So Demšar's worked example (14 tasks, two zeros) gets the normal
    approximation, as in his paper, while a table of 10 tasks with a tie
    gets an exact p-value. If every difference is zero there is no
    information: ``pvalue`` is 1 and a ``UserWarning`` says so.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of models A and B on the same tasks, in the same order.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A scores higher) or ``"less"``.
    zero_method : str
        ``"zsplit"``, ``"wilcox"`` or ``"pratt"``, as above.

    Returns
    -------
    WilcoxonResult

    Raises
    ------
    ValueError
        If the arrays are empty, of different lengths or hold NaN, or an
        option is unknown.

    Notes
    -----
    Explained in :ref:`ch-ranking`.

    Differences are ranked as computed in floating point: scores such as
    0.768 - 0.763 and 0.936 - 0.931 may differ in the last bit and then do
    not count as a tie.

    Examples
    --------
    Demšar's (2006, Table 2) AUCs of C4.5 with and without tuning *m*, in
    thousandths so that equal differences tie exactly:

    >>> from sigeval import wilcoxon_signed_rank
    >>> tuned = [768, 591, 971, 661, 888, 931, 668, 583, 838, 1000, 962, 666, 981, 978]
    >>> plain = [763, 599, 954, 628, 882, 936, 661, 583, 775, 1000, 940, 619, 972, 957]
    >>> res = wilcoxon_signed_rank(tuned, plain)
    >>> res.r_plus, res.r_minus, res.statistic, res.n_zero
    (93.0, 12.0, 12.0, 2)
    >>> round(res.pvalue, 4)
    0.011
    """
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"))
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    zero_method = check_choice(zero_method, "zero_method", _ZERO_METHODS)
    d = check_difference(a, b, ("scores_a", "scores_b"))
    zero = d == 0
    ranked = ~zero if zero_method == "wilcox" else np.ones(d.size, dtype=bool)
    ranks = np.zeros(d.size)
    ranks[ranked] = stats.rankdata(np.abs(d[ranked]))
    zero_share = ranks[zero].sum() / 2 if zero_method == "zsplit" else 0.0
    r_plus = float(ranks[d > 0].sum() + zero_share)
    r_minus = float(ranks[d < 0].sum() + zero_share)
    statistic = min(r_plus, r_minus) if alternative == "two-sided" else r_plus
    if zero.all():
        warnings.warn(
            "Every difference between `scores_a` and `scores_b` is zero: the test has "
            "no information; the p-value is set to 1.",
            UserWarning,
            stacklevel=2,
        )
        pvalue = 1.0
    else:
        res = stats.wilcoxon(a, b, zero_method=zero_method, alternative=alternative)
        pvalue = float(res.pvalue)
    return WilcoxonResult(
        statistic=statistic,
        pvalue=pvalue,
        r_plus=r_plus,
        r_minus=r_minus,
        n=int(d.size),
        n_zero=int(zero.sum()),
        zero_method=zero_method,
        alternative=alternative,
    )

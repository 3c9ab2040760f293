"""The paired permutation (sign-flip) test of two models on the same items.

Exact where the null distribution can be computed (integer differences by
convolution, few nonzero differences by enumeration), Monte Carlo otherwise.

Explained in :ref:`ch-two-models`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import safe_scale
from ._options import ALTERNATIVES, Alternative
from ._signflip import ENUMERATE_MAX, EXACT_MAX_SUM, TIE_TOLERANCE, exact_tails, pvalue_from_tails, sign_flip_means
from ._validation import (
    RngLike,
    check_choice,
    check_difference,
    check_memory,
    check_paired,
    check_positive_int,
    check_rng,
)

__all__ = ["PermutationResult", "paired_permutation_test"]

PERMUTATION_METHODS = ("auto", "exact", "monte-carlo")
PermutationMethod = Literal["auto", "exact", "monte-carlo"]


@dataclass(frozen=True)
class PermutationResult:
    """A paired permutation (sign-flip) test.

    Attributes
    ----------
    statistic : float
        The observed mean difference ``mean(scores_a - scores_b)``.
    pvalue : float
        The p-value for ``alternative``.
    method : str
        The method actually used: ``"exact"`` or ``"monte-carlo"``.
    alternative : str
        ``"two-sided"``, ``"greater"`` (A better) or ``"less"`` (B better).
    n_resamples : int or None
        Random sign flips drawn; None when the null distribution was exact.
    null_distribution : ndarray or None
        The signed mean difference under each random sign flip; None when exact.
    """

    statistic: float
    pvalue: float
    method: str
    alternative: str
    n_resamples: int | None
    null_distribution: np.ndarray | None = field(repr=False)


def paired_permutation_test(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    n_resamples: int = 10_000,
    method: PermutationMethod = "auto",
    alternative: Alternative = "two-sided",
    rng: RngLike = None,
) -> PermutationResult:
    r"""Paired permutation test of the mean difference between two models.

    Under :math:`H_0` the labels A and B are exchangeable on each item, so each
    difference :math:`d_i = a_i - b_i` keeps or flips its sign with probability
    1/2. The statistic is :math:`\bar d`, its null distribution that of
    :math:`T^* = \frac1n \sum_i s_i d_i` with independent random signs
    :math:`s_i = \pm 1` (Fisher, 1935; Good, 2005). The null is symmetric, so the
    exact two-sided p-value is :math:`\min(1, 2\min(P(T^* \ge \bar d), P(T^* \le \bar d)))
    = P(|T^*| \ge |\bar d|)`.

    ``method="auto"`` uses the first of these that applies:

    1. **exact, by the binomial**: when all nonzero :math:`|d_i|` are equal,
       as for 0/1 scores, only the :math:`m = n_{01} + n_{10}` disagreements
       matter and the two-sided p-value is McNemar's exact
       :math:`\min(1, 2\,F_{\mathrm{Bin}(m, 1/2)}(\min(n_{01}, n_{10})))`, at
       any number of disagreements.
    2. **exact, by convolution**: if every :math:`d_i` is an integer with
       :math:`M = \sum_i |d_i| \le 10^6` (and the work, distinct magnitudes × M,
       is at most 2·10⁷), the distribution of :math:`\sum_i s_i d_i` is the
       product of the magnitudes' characteristic functions, inverted by one FFT
       (tail probabilities are accurate to about 1e-12 absolute).
    3. **exact, by enumeration** of the :math:`2^m` sign patterns of the
       :math:`m \le 20` nonzero differences.
    4. **Monte Carlo**: ``n_resamples`` sign vectors over all ``n`` items, drawn
       chunk by chunk as ``rng.choice([-1.0, 1.0], size=(chunk, n))`` (the same
       stream as one call of size ``(n_resamples, n)``), and
       :math:`p = (1 + \#\{|T^*_b| \ge |\bar d| - \epsilon\}) / (1 + B)`, which
       counts the observed signs as one of the permutations (Phipson & Smyth,
       2010). The tolerance :math:`\epsilon = 10^{-12} \max(1, \max_i |d_i|)` keeps
       permutations whose statistic equals :math:`|\bar d|` mathematically but
       differs in the last bits from being missed. One-sided p-values count
       :math:`T^*_b \ge \bar d - \epsilon` (``"greater"``) or
       :math:`T^*_b \le \bar d + \epsilon` (``"less"``).

    Exact p-values are never below :math:`2^{-m}`, the probability of the
    observed signs (nor below the smallest normal float, 2.2e-308, where
    :math:`2^{-m}` underflows). Differences near the float64 limits are
    divided by a power of two before summing, which changes no p-value.
    The exact methods do not draw from ``rng``. For 0/1 correctness the test is
    McNemar's exact test (the Monte Carlo version approximates it). Explained in :ref:`ch-two-models`.

    Parameters
    ----------
    scores_a, scores_b : array_like
        Per-item scores of the two models on the same items (1-D, finite).
    n_resamples : int
        Random sign flips for the Monte Carlo method, at least 1.
    method : str
        ``"auto"``, ``"exact"`` (an error if neither exact method applies) or
        ``"monte-carlo"``.
    alternative : str
        ``"two-sided"``, ``"greater"`` (mean of A larger) or ``"less"``.
    rng : numpy.random.Generator, int or None
        Source of the sign flips.

    Returns
    -------
    PermutationResult

    Warns
    -----
    UserWarning
        When every difference is zero: the p-value is then 1.0.

    References
    ----------
    McNemar, Q. (1947). Note on the sampling error of the difference between
    correlated proportions or percentages. *Psychometrika* 12(2), 153–157.
    Phipson, B. and Smyth, G. K. (2010). Permutation p-values should never be
    zero. *Stat. Appl. Genet. Mol. Biol.* 9(1), article 39.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import paired_permutation_test
    >>> a = np.r_[np.ones(44), np.zeros(28), np.ones(801), np.zeros(127)]
    >>> b = np.r_[np.zeros(44), np.ones(28), np.ones(801), np.zeros(127)]
    >>> res = paired_permutation_test(a, b)
    >>> res.method, round(res.statistic, 3), round(res.pvalue, 4)
    ('exact', 0.016, 0.0764)
    >>> res = paired_permutation_test(a, b, method="monte-carlo", n_resamples=20_000, rng=0)
    >>> res.method, round(res.pvalue, 2)
    ('monte-carlo', 0.08)
    """
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"))
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    method = check_choice(method, "method", PERMUTATION_METHODS)
    alternative = check_choice(alternative, "alternative", ALTERNATIVES)
    rng = check_rng(rng)
    d = check_difference(a, b, ("scores_a", "scores_b"))
    # Sign flips commute with a power-of-two scale: it only keeps sums of
    # differences near 1.8e308 from overflowing.
    scale = safe_scale(d)
    observed = float((d / scale).mean()) * scale
    if not np.any(d):
        warnings.warn(
            "All paired differences are zero: the two models agree on every item, "
            "so the data hold no evidence of a difference; the p-value is 1.0.",
            UserWarning,
            stacklevel=2,
        )
    if method != "monte-carlo":
        tails = exact_tails(d)
        if tails is not None:
            return PermutationResult(
                observed, float(pvalue_from_tails(tails, alternative)), "exact", alternative, None, None
            )
        if method == "exact":
            raise ValueError(
                "`method`='exact' is not feasible here: the nonzero differences take "
                f"{np.unique(np.abs(d[d != 0])).size} distinct magnitudes (exact by the binomial "
                "needs one), are not integers with a total magnitude of at most "
                f"{EXACT_MAX_SUM:,}, and number {np.count_nonzero(d)} nonzero differences "
                f"(at most {ENUMERATE_MAX} can be enumerated); use method='monte-carlo' or 'auto'."
            )
    check_memory(n_resamples, "n_resamples", n_resamples, "the null distribution")
    null = sign_flip_means(d / scale, n_resamples, rng) * scale
    tolerance = TIE_TOLERANCE * max(1.0, float(np.abs(d).max()))
    if alternative == "two-sided":
        extreme = np.count_nonzero(np.abs(null) >= abs(observed) - tolerance)
    elif alternative == "greater":
        extreme = np.count_nonzero(null >= observed - tolerance)
    else:
        extreme = np.count_nonzero(null <= observed + tolerance)
    pvalue = (1 + extreme) / (1 + n_resamples)
    return PermutationResult(observed, float(pvalue), "monte-carlo", alternative, n_resamples, null)













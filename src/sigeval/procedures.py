"""Comparing two training procedures from paired runs.

Pair *i* runs procedure A and procedure B under the same planned conditions
(seed, split), so the differences ``scores_a - scores_b`` remove what the pair
shares. This module gives the paired t interval with a decision against a
useful threshold fixed in advance, and P(A > B), the probability that a run of
A beats a run of B.

Explained in :ref:`ch-procedures`.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass, field
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._bootstrap_engine import counts_by_multinomial
from ._numeric import safe_scale
from ._paired_t import student, summarise
from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    as_array,
    check_alpha,
    check_choice,
    check_difference,
    check_flag,
    check_memory,
    check_paired,
    check_positive_int,
    check_real,
    check_rng,
    check_same_length,
    check_score_matrix,
    check_scores,
    check_scores_allowing_nan,
    check_unit_interval,
)

__all__ = [
    "DECISIONS",
    "PairedDifference",
    "paired_difference",
    "ProbImprovement",
    "prob_improvement",
]

DECISIONS = (
    "useful gain established",
    "gain established; useful gain not established",
    "gain not established",
)


@dataclass(frozen=True)
class PairedDifference:
    """Result of :func:`paired_difference`.

    Attributes
    ----------
    estimate : float
        Mean of the differences ``scores_a - scores_b``.
    median : float
        Their median.
    sigma_d : float
        Their sample standard deviation (``ddof=1``).
    n : int
        Number of complete pairs used.
    statistic : float
        Paired t statistic against a zero mean difference.
    df : int
        Degrees of freedom, ``n - 1``.
    pvalue : float
        Two-sided p-value of the paired t-test.
    confidence_interval : ConfidenceInterval
        Student t interval for the mean difference.
    confidence_level : float
        Its nominal coverage, ``1 - alpha``.
    alpha : float
        The level of the decision.
    threshold : float or None
        The useful gain stated in advance, if any.
    decision : str or None
        One of :data:`DECISIONS` when ``threshold`` is given, else None.
    n_dropped : int
        Pairs dropped because a score was NaN (``nan_policy="omit"``).
    dropped_index : ndarray
        Positions of the dropped pairs in the input.
    differences : ndarray
        The differences of the complete pairs.
    """

    estimate: float
    median: float
    sigma_d: float
    n: int
    statistic: float
    df: int
    pvalue: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    alpha: float
    threshold: float | None
    decision: str | None
    n_dropped: int
    dropped_index: np.ndarray = field(repr=False)
    differences: np.ndarray = field(repr=False)


def _complete_pairs(
    scores_a: ArrayLike, scores_b: ArrayLike, nan_policy: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs with both scores present; NaN pairs raise or are dropped, never ignored."""
    c, r = check_same_length(
        check_scores_allowing_nan(scores_a, "scores_a"), check_scores_allowing_nan(scores_b, "scores_b"),
        ("scores_a", "scores_b"),
    )
    failed = np.isnan(c) | np.isnan(r)
    dropped = np.flatnonzero(failed)
    if dropped.size and nan_policy == "raise":
        shown = "; ".join(
            f"pair {i} (scores_a={float(c[i])!r}, scores_b={float(r[i])!r})" for i in dropped[:5]
        )
        more = f"; ... ({dropped.size} pairs in all)" if dropped.size > 5 else ""
        raise ValueError(
            f"{dropped.size} pair(s) hold a NaN score (a failed run?): {shown}{more}. "
            "Failed runs are not dropped silently: repair them, or pass nan_policy='omit' "
            "to drop incomplete pairs (the result reports how many in `n_dropped`)."
        )
    c, r = c[~failed], r[~failed]
    if c.size < 2:
        after = f" after dropping {dropped.size} with NaN" if dropped.size else ""
        raise ValueError(
            f"`scores_a` and `scores_b` must hold at least 2 complete pairs; got {c.size}{after}."
        )
    return c, r, dropped


def _decide(low: float, threshold: float) -> str:
    if low > threshold:
        return DECISIONS[0]
    if low > 0:
        return DECISIONS[1]
    return DECISIONS[2]


def paired_difference(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    threshold: float | None = None,
    alpha: float = 0.05,
    nan_policy: Literal["raise", "omit"] = "raise",
) -> PairedDifference:
    r"""Paired differences of two procedures, their t interval and a decision.

    Pair *i* runs procedure B (the baseline) and procedure A (the candidate)
    under the same planned conditions (seed, split); :math:`d_i = a_i - b_i`. With mean :math:`\bar d`, standard deviation
    :math:`s_d` (:math:`n - 1` denominator) and :math:`n` pairs,

    .. math::

        t = \frac{\bar d}{s_d/\sqrt n}, \qquad
        \bar d \pm t_{n-1,\,1-\alpha/2}\, \frac{s_d}{\sqrt n},

    the paired t-test against a zero mean difference and the Student interval
    with :math:`n - 1` degrees of freedom, assuming independent pairs and
    roughly normal differences.

    If a useful gain ``threshold`` was fixed before the runs, the interval's
    lower bound :math:`L` gives one of three decisions (:data:`DECISIONS`):

    ``"useful gain established"``
        :math:`L > \text{threshold}`: the mean gain exceeds the useful threshold.
    ``"gain established; useful gain not established"``
        :math:`0 < L \le \text{threshold}`: A is better, but the
        interval reaches below the threshold, so the gain may be too small to
        matter. This is not "A is useless": collect more pairs or keep
        the baseline, as decided in advance.
    ``"gain not established"``
        :math:`L \le 0`: not even a positive gain is shown.

    The interval is the two-sided :math:`1 - \alpha` interval, so
    :math:`L > c` is the one-sided t-test of "mean gain :math:`\le c`" at
    level :math:`\alpha/2` (2.5% at the default ``alpha = 0.05``).

    The t interval assumes roughly normal differences. With few pairs and
    skewed differences (a procedure that occasionally fails badly, say) its
    level is not kept: the true coverage can fall well below the nominal
    one, and no amount of care in the code changes that; more pairs, or a
    bootstrap or permutation interval, are the remedies.

    Differences that are all equal up to rounding error (their sd at most
    about 1.4e-14 times the largest score) have zero spread, and the t statistic is undefined: it is
    refused rather than reported as astronomically large.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the paired runs, in the same order (the pairing is fixed by
        design, not by matching scores afterwards). NaN marks a failed run.
    threshold : float or None
        The smallest useful gain (``>= 0``), in the units of the scores.
    alpha : float
        Level of the decision, in (0, 1): the interval is the two-sided
        ``1 - alpha`` interval.
    nan_policy : {"raise", "omit"}
        ``"raise"`` (default): a pair with a NaN score is an error that names
        it (index and both scores). ``"omit"``: incomplete pairs are dropped
        and counted in ``n_dropped`` (their positions in ``dropped_index``).

    Returns
    -------
    PairedDifference

    Raises
    ------
    ValueError
        If the arrays differ in length, hold an infinite value or (by default)
        a NaN, fewer than 2 complete pairs remain, the differences are all
        equal (up to rounding error), a difference or the interval overflows
        float64, the threshold is negative or the level is outside (0, 1).

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    Five pairs scored out of 100, differences 0.4, 0.3, 0.1, 0.5, 0.1 point,
    and a useful gain of 0.30 point fixed in advance:

    >>> from sigeval import paired_difference
    >>> scores_b = [71.2, 70.8, 71.5, 70.9, 71.1]
    >>> scores_a = [71.6, 71.1, 71.6, 71.4, 71.2]
    >>> res = paired_difference(scores_a, scores_b, threshold=0.30)
    >>> round(res.estimate, 2), round(res.sigma_d, 3), res.n
    (0.28, 0.179, 5)
    >>> round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.058, 0.502)
    >>> res.decision
    'gain established; useful gain not established'
    """
    nan_policy = check_choice(nan_policy, "nan_policy", ("raise", "omit"))
    c, r, dropped = _complete_pairs(scores_a, scores_b, nan_policy)
    alpha = check_alpha(alpha)
    if threshold is not None:
        threshold = check_real(threshold, "threshold")
        if threshold < 0:
            raise ValueError(
                "`threshold` must be a useful gain >= 0 in the units of the scores; "
                f"got {threshold!r}."
            )
    d = check_difference(c, r, ("scores_a", "scores_b"))
    pairs = summarise(c, r)
    t, reason = student(pairs, alpha)
    if reason[0]:
        raise ValueError(reason[0])
    low, high = float(t["ci_low"][0]), float(t["ci_high"][0])
    # The median averages two middle values, which could overflow near 1.8e308.
    scale = safe_scale(d)
    return PairedDifference(
        estimate=float(pairs.mean[0]),
        median=float(np.median(d / scale)) * scale,
        sigma_d=float(pairs.sd[0]),
        n=int(d.size),
        statistic=float(t["statistic"][0]),
        df=int(d.size - 1),
        pvalue=float(t["pvalue"][0]),
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=1 - alpha,
        alpha=alpha,
        threshold=threshold,
        decision=None if threshold is None else _decide(low, threshold),
        n_dropped=int(dropped.size),
        dropped_index=dropped,
        differences=d,
    )


#: The intervals of :func:`prob_improvement`.
PROB_IMPROVEMENT_METHODS = ("clopper-pearson", "percentile")
ProbImprovementMethod = Literal["clopper-pearson", "percentile"]


@dataclass(frozen=True)
class ProbImprovement:
    """Result of :func:`prob_improvement`.

    Attributes
    ----------
    estimate : float
        Estimated probability that a run of A scores higher than a run of B
        (ties count 1/2).
    confidence_interval : ConfidenceInterval
        The interval of ``method``: Clopper–Pearson on the wins, or the
        percentile bootstrap.
    confidence_level : float
        Its nominal coverage, ``1 - alpha``.
    alpha : float
        The level of the decisions.
    reject : bool
        Lower bound above 0.5: the null :math:`P(A > B) = 1/2` is rejected
        (Bouthillier et al. (2021) call this *significant*).
    meaningful : bool
        Upper bound above ``gamma``.
    gamma : float
        The threshold for a meaningful improvement.
    paired : bool
        Whether runs were compared pair by pair or all against all.
    n_a, n_b : int
        Number of runs of A and of B (per task, for matrices).
    n_tasks : int
        Number of tasks: 1 for vectors of runs, the columns of runs x tasks matrices.
    method : str
        ``"clopper-pearson"`` or ``"percentile"``.
    n_trials : int
        The trials of the Clopper–Pearson interval: the pairs (paired) or
        ``min(n_a, n_b)`` (unpaired), times ``n_tasks``.
    bootstrap_distribution : ndarray
        The ``n_resamples`` bootstrap estimates with ``method="percentile"``;
        empty with ``method="clopper-pearson"``, which draws nothing.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    alpha: float
    reject: bool
    meaningful: bool
    gamma: float
    paired: bool
    n_a: int
    n_b: int
    n_tasks: int
    method: str
    n_trials: int
    bootstrap_distribution: np.ndarray = field(repr=False)


def _wins(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """1 where a beats b, 1/2 on a tie, 0 otherwise (broadcast)."""
    return (a > b) + 0.5 * (a == b)


def _check_all_against_all(n_a: int, n_b: int, n_tasks: int) -> None:
    """Refuse unpaired runs whose table of wins (every run of A against every run of B) is too large."""
    check_memory(
        float(n_tasks) * n_a * n_b, "scores_a", f"{n_a:,} runs against {n_b:,}" + (
            f" on {n_tasks:,} tasks" if n_tasks > 1 else ""),
        "the table of wins of every run of A against every run of B (paired=False)",
        advice="Pass fewer runs, or pair them (paired=True, one run of each per seed) if they were made in pairs.",
    )


def _mann_whitney_u(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """Per task (column), the pairs (i, j) with a_i > b_j, ties counting 1/2: from mid-ranks, no n_a x n_b table."""
    n_a = a.shape[0]
    ranks = stats.rankdata(np.concatenate([a, b]), axis=0)
    return ranks[:n_a].sum(axis=0) - n_a * (n_a + 1) / 2


def _clopper_pearson(count: float, trials: int, alpha: float) -> tuple[float, float]:
    """Clopper–Pearson bounds of ``count`` successes in ``trials``; a fractional count (a tie adds 1/2) is allowed."""
    low = 0.0 if count == 0 else float(stats.beta.ppf(alpha / 2, count, trials - count + 1))
    high = 1.0 if count == trials else float(stats.beta.isf(alpha / 2, count + 1, trials - count))
    return low, high


def prob_improvement(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    method: ProbImprovementMethod = "clopper-pearson",
    n_resamples: int = 10_000,
    alpha: float = 0.05,
    gamma: float = 0.75,
    paired: bool = True,
    rng: RngLike = None,
) -> ProbImprovement:

    r"""Probability that a run of procedure A beats a run of procedure B.

    Bouthillier et al. (2021) measure the size of an improvement by
    :math:`P(A > B)`, the probability that one run of A scores higher than
    one run of B, ties counting 1/2, and read an interval :math:`[L, U]` at
    level :math:`1 - \alpha`: the improvement is *significant* (``reject``)
    if :math:`L > 0.5` and *meaningful* if :math:`U > \gamma`, with
    :math:`\gamma = 0.75` separating benchmark noise from published
    improvements in their case studies.

    ``paired=True`` (default)
        Run *i* of A and run *i* of B share their seed, split or other
        conditions by design, as in Bouthillier et al. (2021):
        :math:`\hat P = \frac1n \sum_i \bigl(\mathbf 1[a_i > b_i] + \tfrac12 \mathbf 1[a_i = b_i]\bigr)`.
        This is the default because the course pairs runs by design
        (:ref:`ch-procedures`); a shared integer seed alone does not make a
        pair when the two procedures consume random numbers differently.
    ``paired=False``
        The runs are independent: every run of A is compared with every run of B,
        :math:`\hat P = \frac{1}{n_a n_b} \sum_{i,j} \bigl(\mathbf 1[a_i > b_j] + \tfrac12 \mathbf 1[a_i = b_j]\bigr)`,
        the Mann–Whitney estimate.

    **The interval.** ``method="clopper-pearson"`` (default) treats
    :math:`N \hat P` as a count of successes in :math:`N` trials and takes
    the exact binomial interval of Clopper and Pearson (1934): :math:`L` is
    the :math:`\alpha/2` quantile of :math:`\mathrm{Beta}(N\hat P,\, N - N\hat P + 1)`
    (0 when :math:`\hat P = 0`) and :math:`U` the :math:`1 - \alpha/2`
    quantile of :math:`\mathrm{Beta}(N\hat P + 1,\, N - N\hat P)` (1 when
    :math:`\hat P = 1`); a tie adds one half to the count.

    - Paired, :math:`N = n` pairs. Five pairs all won give :math:`[0.478, 1]`
      and no rejection, as the exact sign test (two-sided :math:`p = 0.0625`).
      Its rejections are never bolder than the exact sign test's (checked for
      every outcome of up to 60 pairs), and its exact coverage was at least
      :math:`1 - \alpha` at every win and tie rate of the tests' grid.
    - Unpaired, :math:`N = \min(n_a, n_b)`. The variance of the Mann–Whitney
      estimate never exceeds :math:`P(1 - P)/\min(n_a, n_b)` (Birnbaum & Klose,
      1957), which is the variance of a proportion over :math:`\min(n_a, n_b)`
      trials and is reached when every run of the larger set scores the
      same; the interval is built for that worst case. It is conservative
      elsewhere: never bolder than the exact Mann–Whitney test (checked up
      to 12 runs each) and wider than the bootstrap's with many runs.
    - Across tasks, :math:`N` is the above times the number of tasks.

    ``method="percentile"`` is the percentile bootstrap of Bouthillier et al.
    (2021): it resamples pairs (paired) or each set of runs (unpaired). It is
    narrower, and short of its level with few runs: with five pairs all won
    every resample gives 1, the interval is the point :math:`[1, 1]` and it
    rejects where the exact sign test does not (a ``UserWarning`` says so
    whenever the interval is a single point). A resample is summarised by
    how many times it draws each run (a multinomial count), so all
    resamples are evaluated in one matrix product.

    **Across tasks.** Given two *runs x tasks* matrices (one column per task
    of a benchmark, as :mod:`sigeval.aggregate` takes them), the estimate is
    the average over the :math:`T` tasks of each task's :math:`P(A > B)`,
    Agarwal et al.'s (2021) *average probability of improvement*:
    :math:`\hat P = \frac1T \sum_t \hat P_t`, each :math:`\hat P_t`
    paired or all against all as above (``paired=False`` is their and
    rliable's definition). The percentile interval comes from the
    *stratified* bootstrap: runs are resampled within each task (pairs of
    runs, or the runs of A and of B independently), the tasks stay fixed.
    Both matrices need the same tasks in the same columns, and with
    ``paired=True`` the same runs in the same rows.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the runs of A and of B, at least 2 each; with
        ``paired=True`` of the same length and in pair order. Or two runs x
        tasks matrices with the same tasks (columns), at least 2 runs each.
    method : {"clopper-pearson", "percentile"}
        The interval, and so the decisions: exact binomial on the wins
        (default), or Bouthillier et al.'s percentile bootstrap.
    n_resamples : int
        Number of bootstrap resamples (``method="percentile"``).
    alpha : float
        Level of the decisions, in (0, 1): the interval is at ``1 - alpha``.
    gamma : float
        Threshold in (0.5, 1) for a meaningful improvement.
    paired : bool
        Compare runs pair by pair (True) or all against all (False).
    rng : numpy.random.Generator, int or None
        Source of the bootstrap draws (``method="percentile"``).

    Returns
    -------
    ProbImprovement

    Raises
    ------
    ValueError
        If a set has fewer than 2 runs or holds NaN, paired sets differ in
        length, matrices differ in their tasks (or, paired, in their runs),
        one input is a matrix and the other is not, ``gamma`` is not in
        (0.5, 1), a level is outside (0, 1) or ``method`` is unknown.
    TypeError
        If ``paired`` is not a bool, or ``rng`` or ``n_resamples`` has the wrong type.

    Warns
    -----
    UserWarning
        With ``method="percentile"``, when every resample gives the same
        value and the interval is a single point.

    Notes
    -----
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    Five paired runs, all won by A: not significant, as with the exact sign test.

    >>> from sigeval import prob_improvement
    >>> res = prob_improvement([0.71, 0.72, 0.70, 0.73, 0.72], [0.70, 0.71, 0.69, 0.71, 0.70])
    >>> res.estimate, [round(x, 3) for x in res.confidence_interval], res.reject
    (1.0, [0.478, 1.0], False)

    Eight pairs, six won and two lost; then the runs taken as independent:

    >>> a = [0.652, 0.648, 0.661, 0.655, 0.640, 0.659, 0.650, 0.662]
    >>> b = [0.641, 0.650, 0.645, 0.638, 0.642, 0.651, 0.639, 0.644]
    >>> res = prob_improvement(a, b)
    >>> res.estimate, [round(x, 3) for x in res.confidence_interval], res.reject, res.meaningful
    (0.75, [0.349, 0.968], False, True)
    >>> prob_improvement(a, b, paired=False).estimate
    0.8515625

    Across three tasks, five runs of each model per task, with the stratified bootstrap:

    >>> import numpy as np
    >>> gen = np.random.default_rng(1)
    >>> runs_a = gen.normal([0.70, 0.80, 0.50], 0.02, size=(5, 3))
    >>> runs_b = gen.normal([0.69, 0.80, 0.48], 0.02, size=(5, 3))
    >>> res = prob_improvement(runs_a, runs_b, paired=False, method="percentile", rng=0)
    >>> round(res.estimate, 3), res.n_tasks, [round(x, 3) for x in res.confidence_interval]
    (0.787, 3, [0.6, 0.947])
    """
    paired = check_flag(paired, "paired")
    method = check_choice(method, "method", PROB_IMPROVEMENT_METHODS)
    if np.ndim(as_array(scores_a, "scores_a")) == 2 or np.ndim(as_array(scores_b, "scores_b")) == 2:
        res = _prob_improvement_tasks(scores_a, scores_b, method, n_resamples, alpha, gamma, paired, rng)
    else:
        res = _prob_improvement_runs(scores_a, scores_b, method, n_resamples, alpha, gamma, paired, rng)
    low, high = res.confidence_interval
    if method == "percentile" and low == high:
        warnings.warn(
            f"Every bootstrap resample gave P(A > B) = {low!r}: the percentile interval is a single point, "
            "and it says nothing about the uncertainty of so few runs. method='clopper-pearson' gives an "
            "interval at least as conservative as the exact sign test.",
            UserWarning,
            stacklevel=2,
        )
    return res


def _prob_improvement_runs(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    method: str,
    n_resamples: int,
    alpha: float,
    gamma: float,
    paired: bool,
    rng: RngLike,
) -> ProbImprovement:
    """P(A > B) from two vectors of runs."""
    if paired:
        a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    else:
        a = check_scores(scores_a, "scores_a", min_size=2)
        b = check_scores(scores_b, "scores_b", min_size=2)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    alpha, gamma, generator = _decision_arguments(alpha, gamma, rng)
    n_a, n_b = a.size, b.size
    if paired:
        estimate, trials = float(np.mean(_wins(a, b))), n_a
    else:
        estimate, trials = float(_mann_whitney_u(a[:, None], b[:, None])[0]) / (n_a * n_b), min(n_a, n_b)
    boot = np.empty(0)
    if method == "percentile":
        # The multinomial counts of every resample are drawn at once (and the
        # all-against-all table of wins when unpaired).
        per_resample = n_a if paired else n_a + n_b
        if not paired:
            _check_all_against_all(n_a, n_b, 1)
        check_memory(
            float(n_resamples) * per_resample + (0 if paired else n_a * n_b),
            "n_resamples", n_resamples, "the bootstrap counts",
        )
        if paired:
            counts = counts_by_multinomial(generator, n_a, n_resamples)
            boot = counts @ _wins(a, b) / n_a
        else:
            wins = _wins(a[:, None], b[None, :])
            counts_a = counts_by_multinomial(generator, n_a, n_resamples)
            counts_b = counts_by_multinomial(generator, n_b, n_resamples)
            boot = np.sum((counts_a @ wins) * counts_b, axis=1) / (n_a * n_b)
    return _result(estimate, trials, boot, method, alpha, gamma, paired, (n_a, n_b, 1))


def _decision_arguments(alpha: float, gamma: float, rng: RngLike) -> tuple[float, float, np.random.Generator]:
    alpha = check_alpha(alpha)
    gamma = check_unit_interval(gamma, "gamma")
    if gamma <= 0.5:
        raise ValueError(f"`gamma` must lie in (0.5, 1); got {gamma!r}.")
    return alpha, gamma, check_rng(rng)


def _result(
    estimate: float,
    trials: int,
    boot: np.ndarray,
    method: str,
    alpha: float,
    gamma: float,
    paired: bool,
    sizes: tuple[int, int, int],
) -> ProbImprovement:
    """The interval of ``method`` around the estimate, and the two readings of Bouthillier et al."""
    if method == "percentile":
        low, high = (float(x) for x in np.quantile(boot, [alpha / 2, 1 - alpha / 2]))
    else:
        low, high = _clopper_pearson(estimate * trials, trials, alpha)
    n_a, n_b, n_tasks = sizes
    return ProbImprovement(
        estimate=estimate,
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=1 - alpha,
        alpha=alpha,
        reject=low > 0.5,
        meaningful=high > gamma,
        gamma=gamma,
        paired=paired,
        n_a=int(n_a),
        n_b=int(n_b),
        n_tasks=int(n_tasks),
        method=method,
        n_trials=int(trials),
        bootstrap_distribution=boot,
    )


def _prob_improvement_tasks(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    method: str,
    n_resamples: int,
    alpha: float,
    gamma: float,
    paired: bool,
    rng: RngLike,
) -> ProbImprovement:
    """P(A > B) averaged over the tasks of two runs x tasks matrices, with the stratified bootstrap."""
    a = check_score_matrix(scores_a, "scores_a", min_runs=2)
    b = check_score_matrix(scores_b, "scores_b", min_runs=2)
    if a.shape[1] != b.shape[1]:
        raise ValueError(
            "`scores_a` and `scores_b` must hold the same tasks (columns); "
            f"got {a.shape[1]} and {b.shape[1]} tasks."
        )
    if paired and a.shape[0] != b.shape[0]:
        raise ValueError(
            "`scores_a` and `scores_b` must hold paired runs (rows) with paired=True; "
            f"got {a.shape[0]} and {b.shape[0]} runs. Pass paired=False for independent runs."
        )
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    alpha, gamma, generator = _decision_arguments(alpha, gamma, rng)
    (n_a, n_tasks), n_b = a.shape, b.shape[0]
    # Equal runs per task: the mean over all pairs is the mean over tasks of each task's P(A > B).
    if paired:
        estimate, trials = float(np.mean(_wins(a, b))), n_a * n_tasks
    else:
        estimate, trials = float(np.sum(_mann_whitney_u(a, b))) / (n_a * n_b * n_tasks), min(n_a, n_b) * n_tasks
    boot = np.empty(0)
    if method == "percentile":
        if not paired:
            _check_all_against_all(n_a, n_b, n_tasks)
        check_memory(
            float(n_resamples) * n_tasks * (n_a + n_b) + float(n_tasks) * n_a * n_b,
            "n_resamples", n_resamples, "the stratified bootstrap counts",
        )
        # The counts of every resample, (n_resamples, n_tasks, n_runs): runs drawn within each task.
        counts_a = counts_by_multinomial(generator, n_a, (n_resamples, n_tasks))
        if paired:
            boot = np.einsum("btr,rt->b", counts_a, _wins(a, b)) / (n_a * n_tasks)
        else:
            wins = _wins(a.T[:, :, None], b.T[:, None, :])  # tasks x runs of A x runs of B
            counts_b = counts_by_multinomial(generator, n_b, (n_resamples, n_tasks))
            boot = np.sum(np.einsum("bti,tij->btj", counts_a, wins) * counts_b, axis=(1, 2)) / (n_a * n_b * n_tasks)
    return _result(estimate, trials, boot, method, alpha, gamma, paired, (n_a, n_b, n_tasks))

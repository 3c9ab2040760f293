"""Training randomness: seed sweeps, paired runs, power and equivalence.

When a repetition of the experiment retrains the models, the runs themselves
are the sample. This module summarises a seed sweep, compares two training
procedures from their runs (paired or not), decides against a useful
threshold stated in advance, says what a design of ``n`` seeds could detect,
tests equivalence within a margin, and provides the classical tests for
repeated train/test splits.

Explained in the chapters *Why scores are noisy* (``notebooks/01_noise``),
*Training randomness* (``notebooks/06_training_randomness``), *Comparing
training procedures* (``notebooks/07_procedures``) and *Could this design
detect it?* (``notebooks/08_power``); each function names its chapter.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, stats

from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    _show,
    check_choice,
    check_paired,
    check_positive_int,
    check_rng,
    check_scores,
    check_sizes,
    check_unit_interval,
    scalar_or_array,
)

__all__ = [
    "DECISIONS",
    "VERDICTS",
    "SeedSummary",
    "seed_summary",
    "WelchResult",
    "welch_test",
    "PairedDifference",
    "paired_difference",
    "ProbImprovement",
    "prob_improvement",
    "PowerResult",
    "power_paired",
    "seeds_needed",
    "TOSTResult",
    "tost_paired",
    "Verdict",
    "verdict",
    "verdict_from_pvalues",
    "CVTTestResult",
    "CVFTestResult",
    "five_by_two_cv_t",
    "five_by_two_cv_f",
    "corrected_resampled_t",
    "VarianceSplit",
    "variance_split",
]

#: Decisions of :func:`paired_difference` against a useful threshold, from best to worst.
DECISIONS = (
    "useful gain established",
    "gain established; useful gain not established",
    "gain not established",
)

#: Verdicts of :func:`verdict`, crossing the difference test with TOST (seed report API).
VERDICTS = ("different", "equivalent", "trivial", "undetermined")


# --------------------------------------------------------------------------- private checks


def _real(value: float, name: str) -> float:
    """A finite real scalar."""
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"`{name}` must be a real number; got {value!r}.")
    value = float(value)
    if not math.isfinite(value):
        raise ValueError(f"`{name}` must be finite; got {value!r}.")
    return value


def _positive(value: float, name: str) -> float:
    value = _real(value, name)
    if value <= 0:
        raise ValueError(f"`{name}` must be positive; got {value!r}.")
    return value


def _finite_array(x: ArrayLike, name: str) -> np.ndarray:
    """A non-empty float array of finite numbers, any shape (for vectorized inputs)."""
    arr = np.asarray(x)
    if arr.dtype == bool or not np.issubdtype(arr.dtype, np.number):
        raise TypeError(f"`{name}` must hold real numbers; got dtype {arr.dtype}.")
    arr = arr.astype(float)
    if arr.size == 0:
        raise ValueError(f"`{name}` must not be empty.")
    bad = ~np.isfinite(arr)
    if np.any(bad):
        raise ValueError(f"`{name}` must be finite; got {_show(arr[bad])}.")
    return arr


def _scores_allowing_nan(x: ArrayLike, name: str) -> np.ndarray:
    """A 1-D float array in which NaN (a failed run) is kept for the caller to handle."""
    arr = np.asarray(x)
    if arr.dtype == object or not (np.issubdtype(arr.dtype, np.number) or arr.dtype == bool):
        raise TypeError(f"`{name}` must hold numbers; got dtype {arr.dtype}.")
    arr = arr.astype(float)
    if arr.ndim != 1:
        raise ValueError(f"`{name}` must be one-dimensional; got shape {arr.shape}.")
    infinite = np.flatnonzero(np.isinf(arr))
    if infinite.size:
        raise ValueError(
            f"`{name}` holds infinite value(s) at position(s) {_show(infinite)}; "
            "a score must be finite (use NaN to mark a failed run)."
        )
    return arr


def _accuracies(x: ArrayLike, name: str) -> np.ndarray:
    arr = check_scores(x, name, min_size=2)
    bad = (arr < 0) | (arr > 1)
    if np.any(bad):
        raise ValueError(f"`{name}` must hold accuracies in [0, 1]; got {_show(arr[bad])}.")
    return arr


def _check_alpha_tost(alpha: float) -> float:
    alpha = check_unit_interval(alpha, "alpha")
    if alpha >= 0.5:
        raise ValueError(
            "`alpha` must be below 0.5 for TOST (its interval has level 1 - 2 alpha); "
            f"got {alpha!r}."
        )
    return alpha


def _spread(d: np.ndarray, what: str) -> tuple[float, float, float]:
    """Mean, sample sd (ddof=1) and standard error of ``d``; refuses zero spread."""
    sd = float(d.std(ddof=1))
    if sd == 0:
        raise ValueError(
            f"The {what} have zero spread (all equal to {float(d[0])!r}): a t-based test needs "
            "variation between repetitions. Identical values often mean the runs were not "
            "independent repetitions (e.g. the same checkpoint evaluated again)."
        )
    return float(d.mean()), sd, sd / math.sqrt(d.size)


def _two_sided_p(statistic: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(statistic), df))


# --------------------------------------------------------------------------- seed summaries


@dataclass(frozen=True)
class SeedSummary:
    """Result of :func:`seed_summary`.

    Attributes
    ----------
    n : int
        Number of runs.
    mean, sd, min, max : float
        Mean, sample standard deviation (``ddof=1``), smallest and largest score.
    sem : float
        Standard error of the mean over the runs, ``sd / sqrt(n)``.
    """

    n: int
    mean: float
    sd: float
    min: float
    max: float
    sem: float


def seed_summary(scores: ArrayLike) -> SeedSummary:
    r"""Summary of a seed sweep: the numbers Picard (2021) asks authors to report.

    Mean, standard deviation (:math:`n - 1` denominator), minimum and maximum
    of the scores of :math:`n` runs that differ only in their random seed, and
    the standard error of their mean, :math:`s/\sqrt n`: the run-to-run
    spread shrinks by :math:`\sqrt n` when one reports an average of runs.

    Parameters
    ----------
    scores : array_like of float
        One score per run, at least 2, no NaN (a failed run must be handled
        explicitly, not averaged away).

    Returns
    -------
    SeedSummary

    Raises
    ------
    ValueError
        If fewer than 2 scores are given, or one is NaN or infinite.

    Notes
    -----
    Explained in the chapter *Training randomness* (``notebooks/06_training_randomness``).

    Examples
    --------
    >>> from sigeval.runs import seed_summary
    >>> s = seed_summary([0.639, 0.645, 0.628, 0.651, 0.634])
    >>> s.n, round(s.mean, 4), round(s.sd, 4), s.min, s.max
    (5, 0.6394, 0.009, 0.628, 0.651)
    """
    x = check_scores(scores, "scores", min_size=2)
    sd = float(x.std(ddof=1))
    return SeedSummary(
        n=int(x.size),
        mean=float(x.mean()),
        sd=sd,
        min=float(x.min()),
        max=float(x.max()),
        sem=sd / math.sqrt(x.size),
    )


@dataclass(frozen=True)
class WelchResult:
    """Result of :func:`welch_test`.

    Attributes
    ----------
    estimate : float
        Difference of the mean scores, ``mean(a) - mean(b)``.
    statistic : float
        Welch's t statistic.
    df : float
        Welch–Satterthwaite degrees of freedom.
    pvalue : float
        Two-sided p-value.
    confidence_interval : ConfidenceInterval
        Interval for the difference of the means.
    confidence_level : float
        Its nominal coverage.
    n_a, n_b : int
        Number of runs of each procedure.
    """

    estimate: float
    statistic: float
    df: float
    pvalue: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    n_a: int
    n_b: int


def welch_test(
    scores_a: ArrayLike, scores_b: ArrayLike, *, confidence_level: float = 0.95
) -> WelchResult:
    r"""Welch's t-test between two independent sets of runs.

    .. math::

        t = \frac{\bar a - \bar b}{\sqrt{s_a^2/n_a + s_b^2/n_b}}, \qquad
        \nu = \frac{(s_a^2/n_a + s_b^2/n_b)^2}
                   {\frac{(s_a^2/n_a)^2}{n_a - 1} + \frac{(s_b^2/n_b)^2}{n_b - 1}}

    (Welch, 1947), computed by ``scipy.stats.ttest_ind(equal_var=False)``;
    the interval is that of its ``confidence_interval()``. The runs of the
    two procedures are treated as unpaired: when they share seeds or data
    splits by design, :func:`paired_difference` uses that pairing.

    On one fixed test set the test accounts for seed-to-seed variation only,
    not for the test-set sampling that moves both procedures' scores together.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the runs of procedures A and B, at least 2 each.
    confidence_level : float
        Level of the interval for the difference of means.

    Returns
    -------
    WelchResult

    Raises
    ------
    ValueError
        If a set has fewer than 2 scores or holds NaN, both sets have zero
        spread, or the level is outside (0, 1).

    Notes
    -----
    Explained in the chapter *Training randomness* (``notebooks/06_training_randomness``).

    Examples
    --------
    >>> from sigeval.runs import welch_test
    >>> res = welch_test([0.64, 0.65, 0.66, 0.65], [0.62, 0.64, 0.63, 0.61])
    >>> round(res.estimate, 4), round(res.df, 2), round(res.pvalue, 4)
    (0.025, 5.07, 0.0217)
    """
    a = check_scores(scores_a, "scores_a", min_size=2)
    b = check_scores(scores_b, "scores_b", min_size=2)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    if a.std() == 0 and b.std() == 0:
        raise ValueError(
            "`scores_a` and `scores_b` both have zero spread: Welch's test needs "
            "run-to-run variation in at least one of them."
        )
    res = stats.ttest_ind(a, b, equal_var=False)
    ci = res.confidence_interval(confidence_level)
    return WelchResult(
        estimate=float(a.mean() - b.mean()),
        statistic=float(res.statistic),
        df=float(res.df),
        pvalue=float(res.pvalue),
        confidence_interval=ConfidenceInterval(float(ci.low), float(ci.high)),
        confidence_level=confidence_level,
        n_a=int(a.size),
        n_b=int(b.size),
    )


# --------------------------------------------------------------------------- paired differences


@dataclass(frozen=True)
class PairedDifference:
    """Result of :func:`paired_difference`.

    Attributes
    ----------
    estimate : float
        Mean of the differences ``candidate - reference``.
    median, sd : float
        Their median and sample standard deviation (``ddof=1``).
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
        Its nominal coverage.
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
    sd: float
    n: int
    statistic: float
    df: int
    pvalue: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    threshold: float | None
    decision: str | None
    n_dropped: int
    dropped_index: np.ndarray = field(repr=False)
    differences: np.ndarray = field(repr=False)


def _complete_pairs(
    candidate: ArrayLike, reference: ArrayLike, nan_policy: str
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Pairs with both scores present; NaN pairs raise or are dropped, never ignored."""
    c = _scores_allowing_nan(candidate, "candidate")
    r = _scores_allowing_nan(reference, "reference")
    if c.shape != r.shape:
        raise ValueError(
            "`candidate` and `reference` must be paired, with the same length; "
            f"got {c.size} and {r.size}."
        )
    failed = np.isnan(c) | np.isnan(r)
    dropped = np.flatnonzero(failed)
    if dropped.size and nan_policy == "raise":
        shown = "; ".join(
            f"pair {i} (candidate={float(c[i])!r}, reference={float(r[i])!r})" for i in dropped[:5]
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
            f"`candidate` and `reference` must hold at least 2 complete pairs; got {c.size}{after}."
        )
    return c, r, dropped


def _decide(low: float, threshold: float) -> str:
    if low > threshold:
        return DECISIONS[0]
    if low > 0:
        return DECISIONS[1]
    return DECISIONS[2]


def paired_difference(
    candidate: ArrayLike,
    reference: ArrayLike,
    *,
    threshold: float | None = None,
    confidence_level: float = 0.95,
    nan_policy: str = "raise",
) -> PairedDifference:
    r"""Paired differences of two procedures, their t interval and a decision.

    Pair *i* runs the reference and the candidate under the same planned
    conditions (seed, split); :math:`d_i = \text{candidate}_i -
    \text{reference}_i`. With mean :math:`\bar d`, standard deviation
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
        :math:`0 < L \le \text{threshold}`: the candidate is better, but the
        interval reaches below the threshold, so the gain may be too small to
        matter. This is not "useless candidate": collect more pairs or keep
        the baseline, as decided in advance.
    ``"gain not established"``
        :math:`L \le 0`: not even a positive gain is shown.

    With the default 95% two-sided interval, :math:`L > c` is the one-sided
    t-test of "mean gain :math:`\le c`" at level 2.5%.

    Parameters
    ----------
    candidate, reference : array_like of float
        Scores of the paired runs, in the same order (the pairing is fixed by
        design, not by matching scores afterwards). NaN marks a failed run.
    threshold : float or None
        The smallest useful gain (``>= 0``), in the units of the scores.
    confidence_level : float
        Level of the two-sided interval.
    nan_policy : str
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
        equal, the threshold is negative or the level is outside (0, 1).

    Notes
    -----
    Explained in the chapter *Comparing training procedures* (``notebooks/07_procedures``).

    Examples
    --------
    Five pairs scored out of 100, differences 0.4, 0.3, 0.1, 0.5, 0.1 point,
    and a useful gain of 0.30 point fixed in advance:

    >>> from sigeval.runs import paired_difference
    >>> reference = [71.2, 70.8, 71.5, 70.9, 71.1]
    >>> candidate = [71.6, 71.1, 71.6, 71.4, 71.2]
    >>> res = paired_difference(candidate, reference, threshold=0.30)
    >>> round(res.estimate, 2), round(res.sd, 3), res.n
    (0.28, 0.179, 5)
    >>> round(res.confidence_interval.low, 3), round(res.confidence_interval.high, 3)
    (0.058, 0.502)
    >>> res.decision
    'gain established; useful gain not established'
    """
    nan_policy = check_choice(nan_policy, "nan_policy", ("raise", "omit"))
    c, r, dropped = _complete_pairs(candidate, reference, nan_policy)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    if threshold is not None:
        threshold = _real(threshold, "threshold")
        if threshold < 0:
            raise ValueError(
                "`threshold` must be a useful gain >= 0 in the units of the scores; "
                f"got {threshold!r}."
            )
    d = c - r
    mean, sd, se = _spread(d, "differences `candidate - reference`")
    df = d.size - 1
    statistic = mean / se
    half = float(stats.t.isf((1 - confidence_level) / 2, df)) * se
    low, high = mean - half, mean + half
    return PairedDifference(
        estimate=mean,
        median=float(np.median(d)),
        sd=sd,
        n=int(d.size),
        statistic=statistic,
        df=int(df),
        pvalue=_two_sided_p(statistic, df),
        confidence_interval=ConfidenceInterval(low, high),
        confidence_level=confidence_level,
        threshold=threshold,
        decision=None if threshold is None else _decide(low, threshold),
        n_dropped=int(dropped.size),
        dropped_index=dropped,
        differences=d,
    )


# --------------------------------------------------------------------------- P(A > B)


@dataclass(frozen=True)
class ProbImprovement:
    """Result of :func:`prob_improvement`.

    Attributes
    ----------
    estimate : float
        Estimated probability that a run of A scores higher than a run of B
        (ties count 1/2).
    confidence_interval : ConfidenceInterval
        Percentile bootstrap interval.
    confidence_level : float
        Its nominal coverage.
    significant : bool
        Lower bound above 0.5 (Bouthillier et al., 2021).
    meaningful : bool
        Upper bound above ``gamma``.
    gamma : float
        The threshold for a meaningful improvement.
    paired : bool
        Whether runs were compared pair by pair or all against all.
    n_a, n_b : int
        Number of runs of A and of B.
    bootstrap_distribution : ndarray
        The ``n_resamples`` bootstrap estimates.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    significant: bool
    meaningful: bool
    gamma: float
    paired: bool
    n_a: int
    n_b: int
    bootstrap_distribution: np.ndarray = field(repr=False)


def _wins(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """1 where a beats b, 1/2 on a tie, 0 otherwise (broadcast)."""
    return (a > b) + 0.5 * (a == b)


def prob_improvement(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    n_resamples: int = 10_000,
    confidence_level: float = 0.95,
    gamma: float = 0.75,
    paired: bool = True,
    rng: RngLike = None,
) -> ProbImprovement:
    r"""Probability that a run of procedure A beats a run of procedure B.

    Bouthillier et al. (2021) measure the size of an improvement by
    :math:`P(A > B)`, the probability that one run of A scores higher than
    one run of B, ties counting 1/2, and read its percentile bootstrap
    interval :math:`[L, U]`: the improvement is *significant* if
    :math:`L > 0.5` and *meaningful* if :math:`U > \gamma`, with
    :math:`\gamma = 0.75` separating benchmark noise from published
    improvements in their case studies.

    ``paired=True`` (default)
        Run *i* of A and run *i* of B share their seed, split or other
        conditions by design, as in Bouthillier et al. (2021):
        :math:`\hat P = \frac1n \sum_i \bigl(\mathbf 1[a_i > b_i] + \tfrac12 \mathbf 1[a_i = b_i]\bigr)`;
        the bootstrap resamples pairs. This is the default because the
        course pairs runs by design (chapter 7); a shared integer seed alone
        does not make a pair when the two procedures consume random numbers
        differently.
    ``paired=False``
        The runs are independent: every run of A is compared with every run of B,
        :math:`\hat P = \frac{1}{n_a n_b} \sum_{i,j} \bigl(\mathbf 1[a_i > b_j] + \tfrac12 \mathbf 1[a_i = b_j]\bigr)`,
        the Mann–Whitney estimate; the bootstrap resamples each set of runs.

    A resample is summarised by how many times it draws each run (a
    multinomial count), so all resamples are evaluated in one matrix product.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the runs of A and of B, at least 2 each; with
        ``paired=True`` of the same length and in pair order.
    n_resamples : int
        Number of bootstrap resamples.
    confidence_level : float
        Level of the percentile interval.
    gamma : float
        Threshold in (0.5, 1) for a meaningful improvement.
    paired : bool
        Compare runs pair by pair (True) or all against all (False).
    rng : numpy.random.Generator, int or None
        Source of the bootstrap draws.

    Returns
    -------
    ProbImprovement

    Raises
    ------
    ValueError
        If a set has fewer than 2 runs or holds NaN, paired sets differ in
        length, ``gamma`` is not in (0.5, 1) or a level is outside (0, 1).
    TypeError
        If ``paired`` is not a bool, or ``rng`` or ``n_resamples`` has the wrong type.

    Notes
    -----
    Explained in the chapter *Comparing training procedures* (``notebooks/07_procedures``).

    Examples
    --------
    >>> from sigeval.runs import prob_improvement
    >>> a = [0.652, 0.648, 0.661, 0.655, 0.640, 0.659, 0.650, 0.662]
    >>> b = [0.641, 0.650, 0.645, 0.638, 0.642, 0.651, 0.639, 0.644]
    >>> res = prob_improvement(a, b, rng=0)
    >>> res.estimate, res.significant, res.meaningful
    (0.75, False, True)
    >>> prob_improvement(a, b, paired=False, rng=0).estimate
    0.8515625
    """
    if not isinstance(paired, (bool, np.bool_)):
        raise TypeError(f"`paired` must be True or False; got {paired!r}.")
    if paired:
        a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    else:
        a = check_scores(scores_a, "scores_a", min_size=2)
        b = check_scores(scores_b, "scores_b", min_size=2)
    n_resamples = check_positive_int(n_resamples, "n_resamples")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    gamma = check_unit_interval(gamma, "gamma")
    if gamma <= 0.5:
        raise ValueError(f"`gamma` must lie in (0.5, 1); got {gamma!r}.")
    rng = check_rng(rng)

    n_a, n_b = a.size, b.size
    if paired:
        wins = _wins(a, b)
        counts = rng.multinomial(n_a, np.full(n_a, 1 / n_a), size=n_resamples)
        boot = counts @ wins / n_a
    else:
        wins = _wins(a[:, None], b[None, :])
        counts_a = rng.multinomial(n_a, np.full(n_a, 1 / n_a), size=n_resamples)
        counts_b = rng.multinomial(n_b, np.full(n_b, 1 / n_b), size=n_resamples)
        boot = np.sum((counts_a @ wins) * counts_b, axis=1) / (n_a * n_b)
    tail = (1 - confidence_level) / 2
    low, high = np.quantile(boot, [tail, 1 - tail])
    return ProbImprovement(
        estimate=float(wins.mean()),
        confidence_interval=ConfidenceInterval(float(low), float(high)),
        confidence_level=confidence_level,
        significant=bool(low > 0.5),
        meaningful=bool(high > gamma),
        gamma=gamma,
        paired=bool(paired),
        n_a=int(n_a),
        n_b=int(n_b),
        bootstrap_distribution=boot,
    )


# --------------------------------------------------------------------------- power


@dataclass(frozen=True)
class PowerResult:
    """Result of :func:`power_paired`. Arrays when any input was an array.

    Attributes
    ----------
    sigma_d : float or ndarray
        Standard deviation of the paired differences assumed.
    n : int or ndarray
        Number of pairs (seeds).
    alpha : float
        Two-sided level of the paired t-test.
    target_power : float
        The power the minimum detectable effect is computed for.
    mde : float or ndarray
        Minimum detectable effect, from the formula below.
    power_at_mde : float or ndarray
        Exact (noncentral t) power of the test at ``mde``.
    effect : float, ndarray or None
        The effect asked about, if any.
    power : float, ndarray or None
        Exact power at ``effect``, if given.
    """

    sigma_d: float | np.ndarray
    n: int | np.ndarray
    alpha: float
    target_power: float
    mde: float | np.ndarray
    power_at_mde: float | np.ndarray
    effect: float | np.ndarray | None
    power: float | np.ndarray | None


def _power_two_sided(noncentrality, df, alpha: float):
    """P(|T| > t_crit) for T ~ noncentral t(df, noncentrality)."""
    t_crit = stats.t.isf(alpha / 2, df)
    # P(T < -t_crit | nc) = P(T > t_crit | -nc). scipy's nct.cdf returns NaN
    # far in the lower tail (e.g. df=19, nc=9), its sf does not.
    return stats.nct.sf(t_crit, df, noncentrality) + stats.nct.sf(t_crit, df, -noncentrality)


def _check_power_target(value: float, name: str, alpha: float) -> float:
    value = check_unit_interval(value, name)
    if value <= alpha:
        raise ValueError(
            f"`{name}` must exceed `alpha` (a test rejects with probability alpha "
            f"when there is no effect); got {value!r} with alpha={alpha!r}."
        )
    return value


def power_paired(
    sigma_d: float | ArrayLike,
    n: int | ArrayLike,
    *,
    alpha: float = 0.05,
    target_power: float = 0.8,
    effect: float | ArrayLike | None = None,
) -> PowerResult:
    r"""What a paired t-test on ``n`` seeds could detect: MDE and power.

    For paired differences with standard deviation :math:`\sigma_d` over
    :math:`n` seeds, the minimum detectable effect at two-sided level
    :math:`\alpha` and power :math:`1 - \beta` is

    .. math::

        \mathrm{MDE} = \bigl(t_{n-1,\,1-\alpha/2} + t_{n-1,\,1-\beta}\bigr)\,
                       \frac{\sigma_d}{\sqrt n}.

    It is an approximation: it ignores the far rejection tail and uses central
    t quantiles for the power term. The exact power of the two-sided test at
    a true mean difference :math:`\delta` comes from the noncentral t,

    .. math::

        \text{power}(\delta) = P\bigl(|T| > t_{n-1,\,1-\alpha/2}\bigr), \quad
        T \sim t_{n-1}\bigl(\mathrm{nc} = \delta\sqrt n/\sigma_d\bigr),

    reported at ``effect`` and at the MDE itself (``power_at_mde``). At
    :math:`\alpha = 0.05` and a target of 0.80 the power at the MDE is 0.731
    at 2 seeds, 0.791 at 5 and 0.799 at 10, and within 0.0005 of the target
    from 12 seeds on (slightly above it from 17). At stricter levels the
    formula is more optimistic: 0.782 at 10 seeds for :math:`\alpha = 0.01`.

    All of ``sigma_d``, ``n`` and ``effect`` broadcast against each other.

    Parameters
    ----------
    sigma_d : float or array_like
        Standard deviation of the paired differences (``> 0``), e.g. from a pilot.
    n : int or array_like of int
        Number of pairs (seeds), at least 2.
    alpha : float
        Two-sided level of the test.
    target_power : float
        The power :math:`1 - \beta` for the MDE, greater than ``alpha``.
    effect : float, array_like or None
        True mean differences at which to report the power.

    Returns
    -------
    PowerResult

    Raises
    ------
    ValueError
        If ``sigma_d <= 0``, ``n < 2``, a level is outside (0, 1), the target
        power does not exceed ``alpha``, or the shapes do not broadcast.

    Notes
    -----
    Explained in the chapter *Could this design detect it?* (``notebooks/08_power``).

    Examples
    --------
    >>> from sigeval.runs import power_paired
    >>> res = power_paired(0.2, 10, effect=0.1)
    >>> round(res.mde, 4), round(res.power_at_mde, 3), round(res.power, 3)
    (0.1989, 0.799, 0.293)
    >>> power_paired(0.2, [5, 10, 20]).mde.round(3)
    array([0.332, 0.199, 0.132])
    """
    sigma = _finite_array(sigma_d, "sigma_d")
    if np.any(sigma <= 0):
        raise ValueError(f"`sigma_d` must be positive; got {_show(sigma[sigma <= 0])}.")
    n_arr = check_sizes(n, "n")
    if np.any(n_arr < 2):
        raise ValueError(f"`n` must be at least 2 pairs; got {_show(n_arr[n_arr < 2])}.")
    alpha = check_unit_interval(alpha, "alpha")
    target_power = _check_power_target(target_power, "target_power", alpha)
    eff = None if effect is None else _finite_array(effect, "effect")
    try:
        # Copies: broadcast views are read-only and would leak into the result.
        sigma, n_arr, eff_b = (
            np.array(x) for x in np.broadcast_arrays(sigma, n_arr, 0.0 if eff is None else eff)
        )
    except ValueError:
        raise ValueError(
            "`sigma_d`, `n` and `effect` must broadcast to a common shape; got shapes "
            f"{np.shape(sigma)}, {np.shape(n_arr)} and {np.shape(eff)}."
        ) from None

    df = n_arr - 1
    t_crit = stats.t.isf(alpha / 2, df)
    t_power = stats.t.ppf(target_power, df)
    mde = (t_crit + t_power) * sigma / np.sqrt(n_arr)
    power = None
    if eff is not None:
        power = scalar_or_array(_power_two_sided(eff_b * np.sqrt(n_arr) / sigma, df, alpha))
    return PowerResult(
        sigma_d=scalar_or_array(sigma),
        n=int(n_arr) if n_arr.ndim == 0 else n_arr,
        alpha=alpha,
        target_power=target_power,
        mde=scalar_or_array(mde),
        # At the MDE the noncentrality is exactly t_crit + t_power.
        power_at_mde=scalar_or_array(_power_two_sided(t_crit + t_power, df, alpha)),
        effect=None if eff is None else scalar_or_array(eff_b),
        power=power,
    )


def seeds_needed(
    sigma_d: float, delta: float, *, alpha: float = 0.05, power: float = 0.8
) -> int:
    r"""Smallest number of seed pairs whose paired t-test reaches ``power`` at ``delta``.

    The smallest integer :math:`n \ge 2` with

    .. math::

        P\bigl(|T| > t_{n-1,\,1-\alpha/2}\bigr) \ge \text{power}, \quad
        T \sim t_{n-1}\bigl(\mathrm{nc} = \delta\sqrt n/\sigma_d\bigr),

    the exact noncentral-t power of :func:`power_paired`. Power increases with
    :math:`n`, so the answer is found by solving power(:math:`n`) = target
    over a continuous :math:`n` (Brent's method; scipy's noncentral t accepts
    fractional degrees of freedom) and checking the integers next to the root.

    Parameters
    ----------
    sigma_d : float
        Standard deviation of the paired differences (``> 0``).
    delta : float
        True mean difference to detect (non-zero; its sign does not matter).
    alpha : float
        Two-sided level of the test.
    power : float
        Required power, greater than ``alpha``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``sigma_d <= 0``, ``delta == 0``, a level is outside (0, 1) or
        ``power`` does not exceed ``alpha``.

    Notes
    -----
    Explained in the chapter *Could this design detect it?* (``notebooks/08_power``).

    Examples
    --------
    Paired differences whose spread gives 10 seeds an MDE of 0.014 (1.4
    accuracy points): resolving half a point (0.005) takes 65 seeds, not ten (the
    normal approximation says 62).

    >>> from sigeval.runs import power_paired, seeds_needed
    >>> round(power_paired(0.0141, 10).mde, 4)
    0.014
    >>> seeds_needed(0.0141, 0.005)
    65
    """
    sigma = _positive(sigma_d, "sigma_d")
    delta = _real(delta, "delta")
    if delta == 0:
        raise ValueError("`delta` must be a non-zero difference to detect; got 0.0.")
    alpha = check_unit_interval(alpha, "alpha")
    power = _check_power_target(power, "power", alpha)
    effect_size = abs(delta) / sigma

    def shortfall(n):
        return _power_two_sided(effect_size * np.sqrt(n), n - 1, alpha) - power

    if shortfall(2.0) >= 0:
        return 2
    # Twice the normal-approximation sample size nearly always has enough
    # power already; power tends to 1 with n, so doubling always ends.
    upper = max(4.0, 2 * ((stats.norm.isf(alpha / 2) + stats.norm.ppf(power)) / effect_size) ** 2)
    while shortfall(upper) < 0:
        upper *= 2
    root = optimize.brentq(shortfall, 2.0, upper, xtol=1e-6)
    candidates = np.arange(max(2, math.ceil(root) - 1), math.ceil(root) + 2)
    reached = shortfall(candidates.astype(float)) >= 0
    return int(candidates[np.argmax(reached)])


# --------------------------------------------------------------------------- equivalence


@dataclass(frozen=True)
class TOSTResult:
    """Result of :func:`tost_paired`.

    Attributes
    ----------
    estimate : float
        Mean paired difference ``candidate - reference``.
    margin : float
        The equivalence margin: differences within ``(-margin, margin)`` are negligible.
    statistic_lower, pvalue_lower : float
        One-sided test of ``H0: mean <= -margin``.
    statistic_upper, pvalue_upper : float
        One-sided test of ``H0: mean >= +margin``.
    pvalue : float
        The larger of the two one-sided p-values: the TOST p-value.
    df : int
        Degrees of freedom, ``n - 1``.
    confidence_interval : ConfidenceInterval
        The ``1 - 2 alpha`` interval for the mean difference.
    confidence_level : float
        ``1 - 2 alpha``.
    equivalent : bool
        ``pvalue < alpha``: the interval lies inside ``(-margin, margin)``.
    alpha : float
        The level of each one-sided test.
    n : int
        Number of pairs.
    """

    estimate: float
    margin: float
    statistic_lower: float
    pvalue_lower: float
    statistic_upper: float
    pvalue_upper: float
    pvalue: float
    df: int
    confidence_interval: ConfidenceInterval
    confidence_level: float
    equivalent: bool
    alpha: float
    n: int


def _tost(d: np.ndarray, margin: float, alpha: float) -> TOSTResult:
    mean, _, se = _spread(d, "differences `candidate - reference`")
    df = d.size - 1
    t_lower = (mean + margin) / se
    t_upper = (mean - margin) / se
    p_lower = float(stats.t.sf(t_lower, df))
    p_upper = float(stats.t.cdf(t_upper, df))
    pvalue = max(p_lower, p_upper)
    half = float(stats.t.isf(alpha, df)) * se
    return TOSTResult(
        estimate=mean,
        margin=margin,
        statistic_lower=t_lower,
        pvalue_lower=p_lower,
        statistic_upper=t_upper,
        pvalue_upper=p_upper,
        pvalue=pvalue,
        df=int(df),
        confidence_interval=ConfidenceInterval(mean - half, mean + half),
        confidence_level=1 - 2 * alpha,
        equivalent=bool(pvalue < alpha),
        alpha=alpha,
        n=int(d.size),
    )


def _checked_pairs_for_tost(candidate, reference, margin, alpha):
    c, r = check_paired(candidate, reference, ("candidate", "reference"), min_size=2)
    return c - r, _positive(margin, "margin"), _check_alpha_tost(alpha)


def tost_paired(
    candidate: ArrayLike, reference: ArrayLike, *, margin: float, alpha: float = 0.05
) -> TOSTResult:
    r"""Two one-sided paired t-tests for equivalence within ``margin`` (TOST).

    A large p-value of the difference test does not show that two procedures
    are equivalent. TOST (Schuirmann, 1987; Lakens, 2017) rejects both
    :math:`H_0^-: \mu \le -\Delta` and :math:`H_0^+: \mu \ge \Delta` for the
    mean paired difference :math:`\mu` and a margin :math:`\Delta` fixed in advance:

    .. math::

        t^- = \frac{\bar d + \Delta}{s_d/\sqrt n},\quad p^- = P(T_{n-1} \ge t^-);
        \qquad
        t^+ = \frac{\bar d - \Delta}{s_d/\sqrt n},\quad p^+ = P(T_{n-1} \le t^+).

    The TOST p-value is :math:`\max(p^-, p^+)`; equivalence is declared when
    it is below :math:`\alpha`, which happens exactly when the
    :math:`1 - 2\alpha` interval :math:`\bar d \pm t_{n-1,1-\alpha}\,s_d/\sqrt n`
    lies inside :math:`(-\Delta, \Delta)`.

    The margin has no default: it is the smallest difference that would
    change a decision, and an equivalence claim means nothing without it.

    Parameters
    ----------
    candidate, reference : array_like of float
        Scores of the paired runs, at least 2 pairs, no NaN.
    margin : float
        Equivalence margin :math:`\Delta > 0`, in the units of the scores.
    alpha : float
        Level of each one-sided test, in (0, 0.5).

    Returns
    -------
    TOSTResult

    Raises
    ------
    ValueError
        If the arrays differ in length, hold NaN or fewer than 2 pairs, the
        differences are all equal, ``margin <= 0`` or ``alpha`` is outside (0, 0.5).

    Notes
    -----
    Explained in the chapter *Could this design detect it?* (``notebooks/08_power``).

    Examples
    --------
    >>> from sigeval.runs import tost_paired
    >>> a = [0.712, 0.705, 0.718, 0.709, 0.714, 0.707]
    >>> b = [0.710, 0.707, 0.715, 0.710, 0.712, 0.708]
    >>> res = tost_paired(a, b, margin=0.01)
    >>> round(res.pvalue, 6), res.equivalent
    (4.9e-05, True)
    >>> round(res.confidence_interval.low, 4), round(res.confidence_interval.high, 4)
    (-0.0012, 0.0022)
    """
    d, margin, alpha = _checked_pairs_for_tost(candidate, reference, margin, alpha)
    return _tost(d, margin, alpha)


@dataclass(frozen=True)
class Verdict:
    """Result of :func:`verdict`.

    Attributes
    ----------
    verdict : str
        One of :data:`VERDICTS`.
    estimate : float
        Mean paired difference ``candidate - reference``.
    difference_pvalue : float
        Two-sided paired t-test of a zero mean difference.
    equivalence_pvalue : float
        TOST p-value for the margin.
    margin : float
        The equivalence margin.
    alpha : float
        The level of both tests.
    """

    verdict: str
    estimate: float
    difference_pvalue: float
    equivalence_pvalue: float
    margin: float
    alpha: float


def verdict_from_pvalues(
    difference_pvalue: float | ArrayLike,
    equivalence_pvalue: float | ArrayLike,
    *,
    alpha: float = 0.05,
) -> str | np.ndarray:
    """Cross a difference test with an equivalence test into four verdicts.

    ===========================  ================  ====================
    difference test (p < alpha)  TOST (p < alpha)  verdict
    ===========================  ================  ====================
    rejects                      does not reject   ``"different"``
    does not reject              rejects           ``"equivalent"``
    rejects                      rejects           ``"trivial"``
    does not reject              does not reject   ``"undetermined"``
    ===========================  ================  ====================

    Use it on p-values already adjusted for multiple comparisons (for
    example Holm within each family), as a report over many pairs does.

    Parameters
    ----------
    difference_pvalue, equivalence_pvalue : float or array_like
        p-values in [0, 1], broadcast against each other.
    alpha : float
        Level at which both tests reject.

    Returns
    -------
    str or ndarray of str
        A verdict per pair of p-values.

    Raises
    ------
    ValueError
        If a p-value is outside [0, 1], the shapes do not broadcast or
        ``alpha`` is outside (0, 1).

    Notes
    -----
    Explained in the chapter *Could this design detect it?* (``notebooks/08_power``).

    Examples
    --------
    >>> from sigeval.runs import verdict_from_pvalues
    >>> verdict_from_pvalues([0.01, 0.4, 0.01, 0.4], [0.3, 0.02, 0.001, 0.2])
    array(['different', 'equivalent', 'trivial', 'undetermined'], dtype='<U12')
    """
    alpha = check_unit_interval(alpha, "alpha")
    p_diff = _finite_array(difference_pvalue, "difference_pvalue")
    p_eq = _finite_array(equivalence_pvalue, "equivalence_pvalue")
    for p, name in ((p_diff, "difference_pvalue"), (p_eq, "equivalence_pvalue")):
        bad = (p < 0) | (p > 1)
        if np.any(bad):
            raise ValueError(f"`{name}` must lie in [0, 1]; got {_show(p[bad])}.")
    try:
        p_diff, p_eq = np.broadcast_arrays(p_diff, p_eq)
    except ValueError:
        raise ValueError(
            "`difference_pvalue` and `equivalence_pvalue` must broadcast to a common shape; "
            f"got shapes {p_diff.shape} and {p_eq.shape}."
        ) from None
    # Index = 2 * (difference rejects) + (TOST rejects) into this table.
    table = np.array(["undetermined", "equivalent", "different", "trivial"])
    labels = table[2 * (p_diff < alpha) + (p_eq < alpha)]
    return str(labels) if labels.ndim == 0 else labels


def verdict(
    candidate: ArrayLike, reference: ArrayLike, *, margin: float, alpha: float = 0.05
) -> Verdict:
    """Four verdicts from a paired difference test and a paired TOST.

    Runs the two-sided paired t-test of a zero mean difference and
    :func:`tost_paired` on the same pairs, both at ``alpha``, and crosses
    them (:func:`verdict_from_pvalues`):

    ``"different"``
        The difference test rejects, TOST does not: a real difference, not
        shown to lie within the margin.
    ``"equivalent"``
        TOST rejects, the difference test does not: any difference is
        smaller than the margin.
    ``"trivial"``
        Both reject: a real difference, but smaller than the margin.
    ``"undetermined"``
        Neither rejects: the design cannot support either claim (see
        :func:`power_paired`).

    Parameters
    ----------
    candidate, reference : array_like of float
        Scores of the paired runs, at least 2 pairs, no NaN.
    margin : float
        Equivalence margin, ``> 0``, in the units of the scores.
    alpha : float
        Level of both tests, in (0, 0.5).

    Returns
    -------
    Verdict

    Raises
    ------
    ValueError
        As :func:`tost_paired`.

    Notes
    -----
    Explained in the chapter *Could this design detect it?* (``notebooks/08_power``).

    Examples
    --------
    >>> from sigeval.runs import verdict
    >>> a = [0.712, 0.705, 0.718, 0.709, 0.714, 0.707]
    >>> b = [0.710, 0.707, 0.715, 0.710, 0.712, 0.708]
    >>> verdict(a, b, margin=0.01).verdict
    'equivalent'
    >>> verdict(a, b, margin=0.001).verdict
    'undetermined'
    """
    d, margin, alpha = _checked_pairs_for_tost(candidate, reference, margin, alpha)
    tost = _tost(d, margin, alpha)
    mean, _, se = _spread(d, "differences `candidate - reference`")
    difference_pvalue = _two_sided_p(mean / se, d.size - 1)
    return Verdict(
        verdict=verdict_from_pvalues(difference_pvalue, tost.pvalue, alpha=alpha),
        estimate=mean,
        difference_pvalue=difference_pvalue,
        equivalence_pvalue=tost.pvalue,
        margin=margin,
        alpha=alpha,
    )


# --------------------------------------------------------------------------- repeated splits


@dataclass(frozen=True)
class CVTTestResult:
    """Result of :func:`five_by_two_cv_t` and :func:`corrected_resampled_t`.

    Attributes
    ----------
    statistic : float
        The t statistic.
    pvalue : float
        Two-sided p-value.
    df : int
        Degrees of freedom of the reference t distribution.
    estimate : float
        Mean of all the score differences given (for reporting; the 5×2cv t
        statistic's numerator is the first difference only).
    """

    statistic: float
    pvalue: float
    df: int
    estimate: float


@dataclass(frozen=True)
class CVFTestResult:
    """Result of :func:`five_by_two_cv_f`.

    Attributes
    ----------
    statistic : float
        The F statistic.
    pvalue : float
        Upper-tail p-value.
    df : tuple of int
        Numerator and denominator degrees of freedom, ``(10, 5)``.
    """

    statistic: float
    pvalue: float
    df: tuple[int, int]


def _five_by_two(diffs: ArrayLike) -> tuple[np.ndarray, np.ndarray]:
    """The (5, 2) fold differences and each replication's variance estimate s_i^2."""
    p = _finite_array(diffs, "diffs")
    if p.shape != (5, 2):
        raise ValueError(
            "`diffs` must have shape (5, 2): 5 replications of 2-fold cross-validation, "
            f"one score difference per fold; got shape {p.shape}."
        )
    s2 = np.sum((p - p.mean(axis=1, keepdims=True)) ** 2, axis=1)
    if not np.any(s2 > 0):
        raise ValueError(
            "`diffs` has equal differences in both folds of every replication: the "
            "5x2cv variance estimate is zero and the test is undefined."
        )
    return p, s2


def five_by_two_cv_t(diffs: ArrayLike) -> CVTTestResult:
    r"""Dietterich's (1998) 5×2cv paired t-test.

    Five replications of 2-fold cross-validation give differences
    :math:`p_i^{(j)}` (replication :math:`i`, fold :math:`j`) between the two
    procedures' scores. With :math:`\bar p_i = (p_i^{(1)} + p_i^{(2)})/2` and
    :math:`s_i^2 = (p_i^{(1)} - \bar p_i)^2 + (p_i^{(2)} - \bar p_i)^2`,

    .. math:: t = \frac{p_1^{(1)}}{\sqrt{\frac15 \sum_{i=1}^5 s_i^2}} \sim t_5

    under the null hypothesis of equal performance. Dietterich found it has
    acceptable type I error and recommended it for algorithms that can be
    run ten times.

    Parameters
    ----------
    diffs : array_like, shape (5, 2)
        ``diffs[i, j]`` is the score of A minus the score of B when trained on
        one half and tested on the other, in replication ``i``, fold ``j``.

    Returns
    -------
    CVTTestResult

    Raises
    ------
    ValueError
        If ``diffs`` is not (5, 2), holds NaN, or all :math:`s_i^2` are zero.

    Notes
    -----
    Explained in the chapter *Comparing training procedures* (``notebooks/07_procedures``).

    Examples
    --------
    >>> from sigeval.runs import five_by_two_cv_t
    >>> diffs = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.02], [0.02, 0.01]]
    >>> res = five_by_two_cv_t(diffs)
    >>> round(res.statistic, 4), round(res.pvalue, 4), res.df
    (1.5811, 0.1747, 5)
    """
    p, s2 = _five_by_two(diffs)
    statistic = float(p[0, 0] / np.sqrt(s2.mean()))
    return CVTTestResult(
        statistic=statistic, pvalue=_two_sided_p(statistic, 5), df=5, estimate=float(p.mean())
    )


def five_by_two_cv_f(diffs: ArrayLike) -> CVFTestResult:
    r"""Alpaydin's (1999) combined 5×2cv F test.

    With the fold differences :math:`p_i^{(j)}` and :math:`s_i^2` of
    :func:`five_by_two_cv_t`,

    .. math::

        F = \frac{\sum_{i=1}^5 \sum_{j=1}^2 \bigl(p_i^{(j)}\bigr)^2}{2 \sum_{i=1}^5 s_i^2}
        \sim F_{10,\,5}

    under the null hypothesis. It uses all ten differences instead of the
    first one, which makes it more robust than Dietterich's t to the choice
    of that one fold.

    Parameters
    ----------
    diffs : array_like, shape (5, 2)
        As in :func:`five_by_two_cv_t`.

    Returns
    -------
    CVFTestResult

    Raises
    ------
    ValueError
        If ``diffs`` is not (5, 2), holds NaN, or all :math:`s_i^2` are zero.

    Notes
    -----
    Explained in the chapter *Comparing training procedures* (``notebooks/07_procedures``).

    Examples
    --------
    >>> from sigeval.runs import five_by_two_cv_f
    >>> diffs = [[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.00, 0.02], [0.02, 0.01]]
    >>> res = five_by_two_cv_f(diffs)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (3.25, 0.1027, (10, 5))
    """
    p, s2 = _five_by_two(diffs)
    statistic = float(np.sum(p**2) / (2 * np.sum(s2)))
    pvalue = float(stats.f.sf(statistic, 10, 5))
    return CVFTestResult(statistic=statistic, pvalue=pvalue, df=(10, 5))


def corrected_resampled_t(diffs: ArrayLike, *, n_train: int, n_test: int) -> CVTTestResult:
    r"""Nadeau and Bengio's (2003) corrected resampled t-test.

    Over :math:`J` random train/test splits (or the :math:`J = rk` folds of
    :math:`r`-times repeated :math:`k`-fold cross-validation) the score
    differences :math:`d_j` are correlated, because the training sets
    overlap; the naive t-test then rejects far too often (Dietterich, 1998).
    Nadeau and Bengio inflate the variance by the test-to-training ratio:

    .. math::

        t = \frac{\bar d}{\sqrt{\bigl(\frac1J + \frac{n_\text{test}}{n_\text{train}}\bigr)\, s^2}}
        \sim t_{J-1},

    with :math:`s^2` the sample variance of the :math:`d_j` (:math:`J - 1`
    denominator). Without the :math:`n_\text{test}/n_\text{train}` term this
    is the ordinary one-sample t-test.

    Parameters
    ----------
    diffs : array_like of float, 1-D
        One score difference (A minus B) per split, at least 2.
    n_train, n_test : int
        Sizes of each training set and each test set.

    Returns
    -------
    CVTTestResult

    Raises
    ------
    ValueError
        If ``diffs`` has fewer than 2 values, holds NaN, has zero spread, or
        a size is below 1.

    Notes
    -----
    Explained in the chapter *Comparing training procedures* (``notebooks/07_procedures``).

    Examples
    --------
    Ten 90/10 splits of 1,000 examples:

    >>> from sigeval.runs import corrected_resampled_t
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01]
    >>> res = corrected_resampled_t(d, n_train=900, n_test=100)
    >>> round(res.statistic, 3), round(res.pvalue, 4), res.df
    (3.454, 0.0072, 9)
    """
    d = check_scores(diffs, "diffs", min_size=2)
    n_train = check_positive_int(n_train, "n_train")
    n_test = check_positive_int(n_test, "n_test")
    mean, sd, _ = _spread(d, "differences `diffs`")
    df = d.size - 1
    statistic = mean / math.sqrt((1 / d.size + n_test / n_train) * sd**2)
    return CVTTestResult(
        statistic=statistic, pvalue=_two_sided_p(statistic, df), df=int(df), estimate=mean
    )


# --------------------------------------------------------------------------- variance split


@dataclass(frozen=True)
class VarianceSplit:
    """Result of :func:`variance_split`. The terms are variances; ``np.sqrt`` gives standard deviations.

    Attributes
    ----------
    n_runs : int
        Number of runs (seeds).
    n_test : int
        Size of each run's test set.
    total : float
        Variance of the test scores across runs (``ddof=1``).
    sampling : float
        Estimated test-set sampling variance, the mean of ``a (1 - a) / (n_test - 1)``.
    training : float
        ``total - sampling``: training randomness by subtraction. Not clipped:
        a negative value means the spread across runs is no larger than
        test-set sampling alone explains (or that the runs shared one test set).
    training_direct : float or None
        Variance of ``true_scores`` across runs, minus their own sampling
        variance when ``n_true`` is given: a direct estimate of the training term.
    """

    n_runs: int
    n_test: int
    total: float
    sampling: float
    training: float
    training_direct: float | None


def variance_split(
    test_scores: ArrayLike,
    n_test: int,
    *,
    true_scores: ArrayLike | None = None,
    n_true: int | None = None,
) -> VarianceSplit:
    r"""Split a seed sweep's variance into test-set sampling and training randomness.

    With :math:`\xi` the random choices of training and :math:`S` a test set of
    :math:`n` items, the law of total variance gives

    .. math::

        \operatorname{Var}[\hat a] =
        \underbrace{\mathbb E_\xi\bigl[\operatorname{Var}_S[\hat a \mid \xi]\bigr]}_{\text{sampling}}
        + \underbrace{\operatorname{Var}_\xi\bigl[a(\xi)\bigr]}_{\text{training}},

    where :math:`a(\xi)` is the population accuracy of the network trained with
    :math:`\xi` and :math:`\operatorname{Var}_S[\hat a \mid \xi] = a(1-a)/n`
    for independent test items. Estimates, from the test accuracies
    :math:`\hat a_1, \dots, \hat a_R` of :math:`R` runs:

    - ``total``: the sample variance of the :math:`\hat a_r`;
    - ``sampling``: :math:`\frac1R \sum_r \hat a_r(1-\hat a_r)/(n-1)`, unbiased
      for :math:`\mathbb E_\xi[a(1-a)/n]` because
      :math:`\mathbb E[\hat a(1-\hat a)] = a(1-a)(1 - 1/n)`;
    - ``training``: ``total - sampling``, unbiased, and left negative when it
      comes out negative: clipping at 0 would bias it upwards and hide that
      the runs show no more spread than test-set sampling explains;
    - ``training_direct``: when the population (or fresh-data) accuracies of
      the same runs are known, their sample variance, which needs no
      subtraction; with ``n_true`` fresh items their own sampling variance
      :math:`\frac1R\sum_r t_r(1-t_r)/(n_\text{true}-1)` is subtracted.

    The split assumes that each run was scored on its own independently
    drawn test set (as in a simulation, or with resampled splits). When all
    runs share one fixed test set, the part of the test-set noise common to
    all networks does not vary from seed to seed: ``total`` then leaves it
    out, and ``total - sampling`` underestimates training randomness, often
    below zero. In the seed article's sweep on one 1,000-image test set,
    the test accuracies of 20 seeds spread by sd 0.0095, less than the
    binomial standard error 0.0152 of one test accuracy, while fresh accuracies spread by 0.0040.

    Parameters
    ----------
    test_scores : array_like of float
        Test-set accuracy of each run, in [0, 1], at least 2 runs.
    n_test : int
        Number of test items behind each accuracy, at least 2.
    true_scores : array_like of float, optional
        Population or fresh-data accuracy of the same runs, in the same order.
    n_true : int, optional
        Number of fresh items behind ``true_scores``; None if they are exact.

    Returns
    -------
    VarianceSplit

    Raises
    ------
    ValueError
        If scores are outside [0, 1], NaN, fewer than 2, of different lengths,
        a size is below 2, or ``n_true`` is given without ``true_scores``.

    Notes
    -----
    Explained in the chapters *Why scores are noisy* (``notebooks/01_noise``)
    and *Training randomness* (``notebooks/06_training_randomness``).

    Examples
    --------
    Four runs, each scored on its own test set of 1,000 images:

    >>> from sigeval.runs import variance_split
    >>> v = variance_split([0.80, 0.83, 0.78, 0.85], 1000, true_scores=[0.805, 0.82, 0.79, 0.845])
    >>> round(v.total * 1e4, 3), round(v.sampling * 1e4, 3), round(v.training * 1e4, 3)
    (9.667, 1.502, 8.165)
    >>> round(v.training_direct * 1e4, 3)
    5.5
    """
    acc = _accuracies(test_scores, "test_scores")
    n_test = check_positive_int(n_test, "n_test", minimum=2)
    total = float(acc.var(ddof=1))
    sampling = float(np.mean(acc * (1 - acc)) / (n_test - 1))
    if true_scores is None:
        if n_true is not None:
            raise ValueError("`n_true` was given without `true_scores`; give both or neither.")
        training_direct = None
    else:
        true = _accuracies(true_scores, "true_scores")
        if true.shape != acc.shape:
            raise ValueError(
                "`true_scores` must be paired with `test_scores`, with the same length; "
                f"got {true.size} and {acc.size}."
            )
        own_sampling = 0.0
        if n_true is not None:
            n_true = check_positive_int(n_true, "n_true", minimum=2)
            own_sampling = float(np.mean(true * (1 - true)) / (n_true - 1))
        training_direct = float(true.var(ddof=1)) - own_sampling
    return VarianceSplit(
        n_runs=int(acc.size),
        n_test=n_test,
        total=total,
        sampling=sampling,
        training=total - sampling,
        training_direct=training_direct,
    )

"""Effect sizes with confidence intervals, and the conventions that label them.

An effect size says how large a difference is on a scale free of the units:
in standard deviations (Cohen's :math:`d_z` for paired runs, Hedges' :math:`g`
for independent ones) or as a probability of winning (Cliff's :math:`\\delta`
and the common-language effect size for two groups; the mean sign of the
paired differences and its probability of superiority for pairs). Each comes
here with a confidence interval, because an effect size from five seeds is as
uncertain as the mean difference it rescales, and with the magnitude label of
a published *convention* (Cohen, 1988; Romano et al., 2006; Vargha & Delaney,
2000) where one exists: the labels are rules of thumb chosen for other fields,
not facts about a benchmark, and no label is a decision.

This module is separate from :mod:`sigeval.procedures` by the one-idea rule:
procedures decide (a threshold, a verdict), effect sizes describe a size on a
standard scale. P(A > B) of :func:`sigeval.procedures.prob_improvement` is the
common-language effect size with Bouthillier et al.'s decision attached.

Explained beside P(A > B) in :ref:`ch-procedures`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, special, stats

from ._numeric import power_of_two_near, stable_mean_sd
from ._results import ConfidenceInterval
from ._validation import (
    RngLike,
    check_choice,
    check_flag,
    check_memory,
    check_paired,
    check_positive_int,
    check_rng,
    check_scores,
    check_unit_interval,
    has_spread,
)

__all__ = ["EFFECT_SIZES", "MAGNITUDE_CONVENTIONS", "EffectSize", "effect_size"]

#: The kinds of :func:`effect_size`.
EFFECT_SIZES = ("cohen_d", "cliff_delta", "common_language")

#: For each kind: the thresholds of "small", "medium" and "large" on the
#: effect's distance from "no effect", and the convention they come from.
#: Conventions from other fields, not facts about a benchmark.
MAGNITUDE_CONVENTIONS: dict[str, tuple[tuple[float, float, float], str]] = {
    "cohen_d": ((0.2, 0.5, 0.8), "Cohen (1988): |d| of 0.2 small, 0.5 medium, 0.8 large"),
    "cliff_delta": ((0.147, 0.33, 0.474), "Romano et al. (2006): |delta| of 0.147 small, 0.33 medium, 0.474 large"),
    "common_language": (
        (0.06, 0.14, 0.21),
        "Vargha & Delaney (2000): A of 0.56 small, 0.64 medium, 0.71 large (|A - 0.5| of 0.06, 0.14, 0.21)",
    ),
}

_LABELS = ("negligible", "small", "medium", "large")

#: The magnitude and convention of the paired kinds: every convention's thresholds
#: were set for two independent groups.
_UNLABELLED = (
    "unlabelled",
    "none: the thresholds of Romano et al. (2006) and Vargha & Delaney (2000) are for two independent "
    "groups, not for the signs of paired differences",
)
_UNLABELLED_DZ = (
    "unlabelled",
    "none: Cohen's (1988) thresholds are for the two-group d; d_z = d / sqrt(2 (1 - r)) grows with the "
    "correlation r of the pairs, so the same difference is 'large' as d_z when the pairs are correlated",
)

# Beyond this |t| scipy's noncentral t loses accuracy; the interval then comes
# from the limit in which the mean is known far better than the sd (error of
# relative order 1/t**2).
_NCT_LIMIT = 1e4


@dataclass(frozen=True)
class EffectSize:
    """Result of :func:`effect_size`.

    Attributes
    ----------
    estimate : float
        The effect size, positive when A scores higher.
    confidence_interval : ConfidenceInterval
        Its interval (see ``interval_method``).
    confidence_level : float
        Its nominal coverage.
    kind : str
        What was computed: ``"cohen_dz"``, ``"hedges_g"``, ``"cliff_delta"``,
        ``"common_language"`` (two groups), ``"paired_mean_sign"`` or
        ``"paired_superiority"`` (pairs).
    paired : bool
        Whether the scores were compared pair by pair.
    interval_method : str
        ``"noncentral t"``, ``"Cliff (1993)"`` or ``"exact binomial"``.
    magnitude : str
        ``"negligible"``, ``"small"``, ``"medium"`` or ``"large"`` by
        ``convention``: a rule of thumb, not a finding; ``"unlabelled"`` for
        the paired kinds (:math:`d_z` and the kinds of winning), which no
        convention covers.
    convention : str
        The convention behind ``magnitude`` and its thresholds (or why there
        is none).
    n_a, n_b : int
        Number of scores of A and of B.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    kind: str
    paired: bool
    interval_method: str
    magnitude: str
    convention: str
    n_a: int
    n_b: int


def _rescaled(a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Both samples divided by one power of two near their largest magnitude (exact; the effect is unchanged)."""
    top = float(max(np.max(np.abs(a)), np.max(np.abs(b))))
    s = power_of_two_near(top) if top > 0 else 1.0
    return a / s, b / s


def _refuse_zero_spread(what: str) -> None:
    raise ValueError(
        f"The {what} have zero spread (all equal up to rounding error): a standardised difference "
        "divides by their sd and is undefined. Use kind='cliff_delta' or 'common_language', or check "
        "that the runs were independent repetitions."
    )


def _increasing_root(f, start: float) -> float:
    """The root of an increasing function ``f``, bracketed by steps doubling away from ``start``."""
    step = 1.0
    lo, hi = start, start
    if f(start) > 0:
        while f(lo) > 0:
            lo, step = lo - step, 2 * step
    else:
        while f(hi) < 0:
            hi, step = hi + step, 2 * step
    return float(optimize.brentq(f, lo, hi))


def _nct_interval(t: float, df: float, confidence_level: float) -> tuple[float, float]:
    """Interval of the noncentrality of a noncentral t with ``df`` observed at ``t`` (Steiger & Fouladi, 1997)."""
    if t < 0:
        low, high = _nct_interval(-t, df, confidence_level)
        return -high, -low
    tail = (1 - confidence_level) / 2
    if t > _NCT_LIMIT:
        # T ~ nc / sqrt(chi2_df / df) when nc is huge: the bounds scale t by chi-square quantiles.
        q = stats.chi2.ppf([tail, 1 - tail], df) / df
        return float(t * math.sqrt(q[0])), float(t * math.sqrt(q[1]))
    low = _increasing_root(lambda nc: stats.nct.sf(t, df, nc) - tail, t)
    high = _increasing_root(lambda nc: tail - stats.nct.cdf(t, df, nc), t)
    return low, high


def _cohen_dz(a: np.ndarray, b: np.ndarray, confidence_level: float) -> tuple[float, float, float]:
    a, b = _rescaled(a, b)
    d = a - b
    mean, sd = stable_mean_sd(d)
    if not has_spread(sd, d, 1.0):
        _refuse_zero_spread("differences `scores_a - scores_b`")
    n = d.size
    estimate = mean / sd
    low, high = _nct_interval(estimate * math.sqrt(n), n - 1, confidence_level)
    return estimate, low / math.sqrt(n), high / math.sqrt(n)


def _hedges_g(a: np.ndarray, b: np.ndarray, confidence_level: float) -> tuple[float, float, float]:
    a, b = _rescaled(a, b)
    mean_a, sd_a = stable_mean_sd(a)
    mean_b, sd_b = stable_mean_sd(b)
    df = a.size + b.size - 2
    pooled = math.sqrt(((a.size - 1) * sd_a**2 + (b.size - 1) * sd_b**2) / df)
    if not has_spread(pooled, np.r_[a, b], 1.0):
        _refuse_zero_spread("scores of `scores_a` and `scores_b`")
    d = (mean_a - mean_b) / pooled
    # Hedges' (1981) exact correction J(df) = Gamma(df/2) / (sqrt(df/2) Gamma((df-1)/2)).
    correction = math.exp(special.gammaln(df / 2) - special.gammaln((df - 1) / 2)) / math.sqrt(df / 2)
    root = math.sqrt(1 / a.size + 1 / b.size)
    low, high = _nct_interval(d / root, df, confidence_level)
    return correction * d, low * root, high * root


def _cliff_interval(delta: float, variance: float, z: float) -> tuple[float, float]:
    """Cliff's (1993) asymmetric interval for delta, from a variance estimate and a quantile ``z``."""
    if variance == 0:
        return delta, delta
    spread = z * math.sqrt(variance) * math.sqrt((1 - delta**2) ** 2 + z**2 * variance)
    denominator = 1 - delta**2 + z**2 * variance
    return (delta - delta**3 - spread) / denominator, (delta - delta**3 + spread) / denominator


# The memory of _cliff_unpaired per score: sorted copies, counts and their differences, measured in
# tests/test_effect.py against a traced call.
_CLIFF_BYTES_PER_SCORE = 46


def _cliff_unpaired(a: np.ndarray, b: np.ndarray) -> tuple[float, float]:
    """Cliff's delta over all pairs and the variance estimate of Cliff (1993), in O(n log n)."""
    n_a, n_b = a.size, b.size
    check_memory(_CLIFF_BYTES_PER_SCORE * (float(n_a) + n_b), "scores_a", f"{n_a} and {n_b} scores",
                 "the sorted scores and their counts", itemsize=1,
                 advice="Compare random subsamples of the scores (their delta estimates the same delta).")
    sorted_a, sorted_b = np.sort(a), np.sort(b)
    # Each b_j against the sorted a: how many a lie below it and how many not above it (two searches of
    # sorted keys, which stay in cache). The counts of each a_i follow without another search: b_j lies
    # below a_i exactly when i >= (number of a not above b_j), and above it when i < (number of a below b_j).
    a_below_b = np.searchsorted(sorted_a, sorted_b)
    a_not_above_b = np.searchsorted(sorted_a, sorted_b, side="right")
    b_below_a = np.cumsum(np.bincount(a_not_above_b, minlength=n_a + 1)[:n_a])
    b_above_a = n_b - np.cumsum(np.bincount(a_below_b, minlength=n_a + 1)[:n_a])
    wins, losses = int(b_below_a.sum()), int(b_above_a.sum())  # pairs won and lost by A, exact
    # For each a_i: the fraction of b it beats minus the fraction that beats it; likewise for each b_j.
    row = (b_below_a - b_above_a) / n_b
    column = ((n_a - a_not_above_b) - a_below_b) / n_a
    delta = (wins - losses) / (n_a * n_b)
    ties = float(n_a * n_b - wins - losses)
    residual = wins * (1 - delta) ** 2 + losses * (1 + delta) ** 2 + ties * delta**2
    # Cliff's (1993) unbiased estimate, floored at (1 - delta^2) / (n_a n_b - 1): it can be negative.
    unbiased = (
        float(n_b) ** 2 * np.sum((row - delta) ** 2) + float(n_a) ** 2 * np.sum((column - delta) ** 2) - residual
    ) / (float(n_a) * n_b * (n_a - 1) * (n_b - 1))
    return delta, max(float(unbiased), (1 - delta**2) / (float(n_a) * n_b - 1))


def _paired_mean_sign(a: np.ndarray, b: np.ndarray, confidence_level: float) -> tuple[float, float, float]:
    """The mean sign of ``a - b`` and its exact interval, ties counted against each bound.

    With :math:`W` wins, :math:`T` ties and :math:`L` losses in :math:`n`
    pairs, :math:`W \\sim \\mathrm{Bin}(n, p_+)` and
    :math:`W + T \\sim \\mathrm{Bin}(n, p_+ + p_0)`, and the mean sign
    :math:`p_+ - p_-` lies between :math:`2p_+ - 1` and :math:`2(p_+ + p_0) - 1`.
    The Clopper-Pearson lower bound of :math:`p_+` from :math:`W` and upper
    bound of :math:`p_+ + p_0` from :math:`W + T`, each at one tail, bound it
    with coverage at least the level, whatever the tie probability.
    """
    n = a.size
    wins, losses = int(np.count_nonzero(a > b)), int(np.count_nonzero(a < b))
    tail = (1 - confidence_level) / 2
    low = float(stats.beta.ppf(tail, wins, n - wins + 1)) if wins > 0 else 0.0
    high = float(stats.beta.isf(tail, n - losses + 1, losses)) if losses > 0 else 1.0
    return (wins - losses) / n, 2 * low - 1, 2 * high - 1


def _warn_unused(n_resamples: int | None, rng: RngLike) -> None:
    """Check the deprecated bootstrap arguments as before, and warn that they no longer do anything."""
    if n_resamples is None and rng is None:
        return
    if n_resamples is not None:
        check_positive_int(n_resamples, "n_resamples")
    check_rng(rng)
    warnings.warn(
        "`n_resamples` and `rng` of effect_size are no longer used: the paired kinds of winning now have an "
        "exact binomial interval, and no kind resamples. Drop them; they will be removed.",
        FutureWarning,
        stacklevel=3,
    )


def _label(kind: str, distance: float) -> tuple[str, str]:
    thresholds, convention = MAGNITUDE_CONVENTIONS[kind]
    return _LABELS[int(np.searchsorted(thresholds, abs(distance), side="right"))], convention


def effect_size(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    kind: Literal["cohen_d", "cliff_delta", "common_language"] = "cohen_d",
    paired: bool = True,
    confidence_level: float = 0.95,
    n_resamples: int | None = None,
    rng: RngLike = None,
) -> EffectSize:
    r"""An effect size of A over B with its confidence interval and a conventional label.

    ``kind="cohen_d"``, ``paired=True``: Cohen's :math:`d_z`
        The mean of the paired differences :math:`d_i = a_i - b_i` in units
        of their standard deviation, :math:`d_z = \bar d / s_d`. The interval
        is exact for normal differences: :math:`\sqrt n\, d_z` is a noncentral
        t with :math:`n - 1` degrees of freedom and noncentrality
        :math:`\sqrt n\, \delta_z`, inverted for :math:`\delta_z` (Steiger &
        Fouladi, 1997).
    ``kind="cohen_d"``, ``paired=False``: Hedges' :math:`g`
        :math:`g = J\,(\bar a - \bar b)/s_p`, with the pooled sd
        :math:`s_p` and Hedges' (1981) exact small-sample correction
        :math:`J = \Gamma(\nu/2) / (\sqrt{\nu/2}\, \Gamma((\nu - 1)/2))`,
        :math:`\nu = n_a + n_b - 2`. The interval, for the population
        :math:`\delta = (\mu_a - \mu_b)/\sigma`, inverts the noncentral t of
        the two-sample t statistic (normal scores of equal variance); it
        always holds :math:`g`.
    ``kind="cliff_delta"``, ``paired=False``: Cliff's :math:`\delta`
        :math:`P(a > b) - P(a < b)` over all pairs of a run of A and a run
        of B, with Cliff's (1993) asymmetric interval built on his unbiased
        variance estimate (floored at :math:`(1 - \delta^2)/(n_a n_b - 1)`,
        since the unbiased estimate can be negative) and Student's t quantile
        with :math:`n_a + n_b - 2` degrees of freedom (Feng & Cliff, 2004), as
        the R package effsize computes it by default (effsize does not floor
        the variance).
    ``kind="cliff_delta"``, ``paired=True``: the paired mean sign
        Not Cliff's two-group :math:`\delta` (which compares every run of A
        with every run of B) but the mean sign of the paired differences,
        :math:`\frac1n \sum_i \operatorname{sign}(a_i - b_i)`, an estimate of
        :math:`P(D > 0) - P(D < 0)` for the difference :math:`D` of one pair;
        ``kind`` is ``"paired_mean_sign"``. Its interval is exact: with
        :math:`W` wins, :math:`T` ties and :math:`L` losses, the
        Clopper-Pearson lower bound of :math:`P(D > 0)` from :math:`W` and
        upper bound of :math:`P(D \ge 0)` from :math:`W + T` (each at
        :math:`(1 - \text{level})/2`), mapped by :math:`p \mapsto 2p - 1`. A
        tie is counted as a loss for the lower bound and as a win for the
        upper, so the coverage is at least the level whatever the chance of
        a tie; without ties it is the interval of the sign test.
    ``kind="common_language"``, ``paired=False``: the common-language effect size
        The probability that a run of A beats a run of B, ties counting half:
        :math:`(\delta + 1)/2` of Cliff's :math:`\delta` (Vargha and Delaney's
        :math:`A`; P(A > B) of :func:`sigeval.procedures.prob_improvement`
        with ``paired=False``), with Cliff's interval transformed likewise.
    ``kind="common_language"``, ``paired=True``: the paired probability of superiority
        :math:`P(D > 0) + P(D = 0)/2`, the probability that A beats B in a
        pair, ties counting half (P(A > B) of
        :func:`sigeval.procedures.prob_improvement`), with the exact interval
        of the mean sign mapped by :math:`(\cdot + 1)/2`; ``kind`` is
        ``"paired_superiority"``.

    ``magnitude`` labels the size by a published convention
    (:data:`MAGNITUDE_CONVENTIONS`): Cohen's (1988) 0.2, 0.5 and 0.8 for
    :math:`d`, Romano et al.'s (2006) 0.147, 0.33 and 0.474 for
    :math:`|\delta|`, Vargha and Delaney's (2000) 0.56, 0.64 and 0.71 for
    :math:`A`. These thresholds were proposed for the behavioural sciences;
    whether a difference matters on a benchmark is decided by a threshold
    fixed in advance in the units of the score (:ref:`ch-procedures`), not
    by a label. All three conventions are for two independent groups: the
    paired kinds (:math:`d_z` and the kinds of winning) are
    ``"unlabelled"``. Pairing removes the noise the two groups share, so the
    same models win more pairs than they win comparisons of two groups, and
    :math:`d_z = d / \sqrt{2(1 - r)}` exceeds the two-group :math:`d` when the
    pairs' correlation :math:`r` is above 1/2.

    Scores whose spread is zero up to rounding error leave :math:`d` and
    :math:`g` undefined: refused. When every pair of runs is won by the same
    side (:math:`|\delta| = 1`, complete separation) Cliff's variance
    estimate is 0 and his interval collapses to :math:`[\delta, \delta]`;
    that zero width is the estimator's limit, not certainty: with few runs,
    complete separation happens easily by chance. The paired interval does
    not collapse: ten wins in ten pairs give a mean sign of at least 0.38
    at 95%.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of A and of B, at least 2 each; with ``paired=True`` of the
        same length and in pair order.
    kind : {"cohen_d", "cliff_delta", "common_language"}
        The effect size.
    paired : bool
        Pair by pair (True) or all against all (False).
    confidence_level : float
        Level of the two-sided interval.
    n_resamples, rng : None
        Deprecated and unused: they set the bootstrap of the paired kinds of
        winning, whose interval is now exact. Passing either (checked as
        before) warns with a ``FutureWarning``; they will be removed.

    Returns
    -------
    EffectSize

    Raises
    ------
    ValueError
        If a sample has fewer than 2 scores or holds NaN or inf, paired
        samples differ in length, the level is outside (0, 1), or ``kind`` is
        ``"cohen_d"`` and the spread is zero.
    TypeError
        If ``paired`` is not a bool.

    Warns
    -----
    FutureWarning
        If ``n_resamples`` or ``rng`` is given.

    Notes
    -----
    Explained beside P(A > B) in :ref:`ch-procedures`.

    Examples
    --------
    >>> from sigeval import effect_size
    >>> scores_b = [71.2, 70.8, 71.5, 70.9, 71.1]
    >>> scores_a = [71.6, 71.1, 71.6, 71.4, 71.2]
    >>> res = effect_size(scores_a, scores_b)
    >>> res.kind, round(res.estimate, 2), [round(x, 2) for x in res.confidence_interval], res.magnitude
    ('cohen_dz', 1.57, [0.17, 2.9], 'unlabelled')
    >>> res = effect_size(scores_a, scores_b, kind="cliff_delta", paired=False)
    >>> round(res.estimate, 2), [round(x, 2) for x in res.confidence_interval], res.magnitude
    (0.6, [-0.18, 0.92], 'large')
    >>> res = effect_size(scores_a, scores_b, kind="cliff_delta")   # paired: A wins all five pairs
    >>> res.kind, res.estimate, round(res.confidence_interval.low, 3), res.magnitude
    ('paired_mean_sign', 1.0, -0.044, 'unlabelled')
    """
    paired = check_flag(paired, "paired")
    measure = check_choice(kind, "kind", EFFECT_SIZES)
    if paired:
        a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    else:
        a = check_scores(scores_a, "scores_a", min_size=2)
        b = check_scores(scores_b, "scores_b", min_size=2)
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    _warn_unused(n_resamples, rng)
    if measure == "cohen_d":
        name, method = ("cohen_dz" if paired else "hedges_g"), "noncentral t"
        estimate, low, high = (_cohen_dz if paired else _hedges_g)(a, b, confidence_level)
        distance = estimate
    else:
        if paired:
            delta, low, high = _paired_mean_sign(a, b, confidence_level)
            method = "exact binomial"
        else:
            delta, variance = _cliff_unpaired(a, b)
            z = float(stats.t.isf((1 - confidence_level) / 2, a.size + b.size - 2))
            low, high = _cliff_interval(delta, variance, z)
            method = "Cliff (1993)"
        name, estimate, distance = measure, delta, delta
        if measure == "common_language":
            estimate, low, high, distance = (delta + 1) / 2, (low + 1) / 2, (high + 1) / 2, delta / 2
        if paired:
            name = "paired_mean_sign" if measure == "cliff_delta" else "paired_superiority"
    if paired:
        magnitude, convention = _UNLABELLED_DZ if measure == "cohen_d" else _UNLABELLED
    else:
        magnitude, convention = _label(measure, distance)
    return EffectSize(
        estimate=float(estimate),
        confidence_interval=ConfidenceInterval(float(low), float(high)),
        confidence_level=confidence_level,
        kind=name,
        paired=bool(paired),
        interval_method=method,
        magnitude=magnitude,
        convention=convention,
        n_a=int(a.size),
        n_b=int(b.size),
    )

"""Evaluations of sampled answers: pass@k, means over samples, and where their error comes from.

A generative model is scored on ``n`` questions, often with several sampled
answers per question, and questions often come in groups (several about one
passage, one code base, one image). The unit of independence is then the
question, or the group of questions, never the single sample: a thousand
samples of a hundred questions are not a thousand independent items. This
module gives the unbiased pass@k of Chen et al. (2021) with a bootstrap over
questions, the mean over samples with its standard error clustered by question
(or by group of questions) beside the naive one that treats every sample as
independent, the split of the variance into its between-question and
within-question (sampling) parts, and the number of questions a target
standard error needs for a given number of samples per question.

Explained in :ref:`ch-generative`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._numeric import check_finite_result, safe_scale
from ._results import BootstrapResult, ConfidenceInterval
from ._validation import (
    RngLike,
    _integer_array,
    _show,
    check_broadcast,
    check_memory,
    check_positive_int,
    check_positive_real,
    check_real,
    check_unit_interval,
    group_codes,
    real_array,
)
from .resampling import bootstrap_ci

__all__ = [
    "PassAtK",
    "pass_at_k",
    "SampledMean",
    "sampled_mean",
    "sampled_paired_difference",
    "questions_needed",
]


# --------------------------------------------------------------------------- pass@k


@dataclass(frozen=True)
class PassAtK:
    """Result of :func:`pass_at_k`.

    Attributes
    ----------
    estimate : float
        The benchmark's pass@k: the mean of the per-question estimates.
    per_question : ndarray
        The unbiased estimate of each question's pass@k.
    confidence_interval : ConfidenceInterval
        Bootstrap percentile interval over questions (or groups of questions).
    standard_error : float
        Standard deviation of the bootstrap distribution.
    confidence_level : float
    k : int
    n_questions : int
    bootstrap : BootstrapResult
        The bootstrap behind the interval.
    """

    estimate: float
    per_question: np.ndarray = field(repr=False)
    confidence_interval: ConfidenceInterval
    standard_error: float
    confidence_level: float
    k: int
    n_questions: int
    bootstrap: BootstrapResult = field(repr=False)


def _pass_at_k_per_question(n: np.ndarray, c: np.ndarray, k: int) -> np.ndarray:
    r"""``1 - C(n - c, k) / C(n, k)`` for every question, from at most ``min(c, k)`` ratios.

    .. math:: \frac{\binom{n-c}{k}}{\binom{n}{k}} = \prod_{j=0}^{k-1}\Bigl(1 - \frac{c}{n-j}\Bigr)
              = \prod_{i=0}^{c-1}\Bigl(1 - \frac{k}{n-i}\Bigr)

    With :math:`x_j` the ratios of the shorter product, one minus the product
    telescopes into a sum of positive terms,

    .. math:: 1 - \prod_{j<m} (1 - x_j) = \sum_{j<m} x_j \prod_{i<j} (1 - x_i),

    and each :math:`1 - x_j` is a ratio of whole numbers. So no binomial
    coefficient is formed, nothing cancels (a small pass@k keeps its relative
    precision), and only additions, products and quotients are used: pass@1
    is exactly ``c / n``, and the result is the same on every CPU, where
    ``log`` and ``exp`` may differ by an ulp between vector kernels.
    """
    out = np.ones(n.shape)
    live = (n - c) >= k  # otherwise every draw of k samples holds a correct one
    n, c = n[live].astype(float), c[live]
    m = np.minimum(c, k)
    use_c = c <= k  # the product over the c correct samples is the shorter one
    width = int(m.max()) if m.size else 0
    if not width:
        out[live] = 0.0
        return out
    # Per factor: the mask (1 byte), n - j, the ratios x_j and 1 - x_j (8 bytes each).
    check_memory(float(n.size) * width, "k", k, "the pass@k products (questions x min(n_correct, k))", itemsize=25)
    j = np.arange(width)
    numerator = np.where(use_c, float(k), c.astype(float))[:, None]  # x_j = numerator / (n - j)
    inside = j < m[:, None]  # ratios past a question's own count are 0 (factors of 1)
    below = n[:, None] - j  # whole numbers, exact in float64 (counts are checked below 2**53)
    ratio = np.subtract(below, numerator)  # first 1 - x_j's numerator, then x_j itself
    keep = np.divide(ratio, below, out=np.ones((n.size, width)), where=inside)
    np.divide(numerator, below, out=ratio, where=inside)
    np.multiply(ratio, inside, out=ratio)  # zero past each question's count
    prefix = below  # reused: the product of the factors before each one
    prefix[:, 0] = 1.0
    np.cumprod(keep[:, :-1], axis=1, out=prefix[:, 1:])
    # The terms are positive and sum to at most 1; rounding may add an ulp.
    out[live] = np.minimum(np.multiply(ratio, prefix, out=ratio).sum(axis=1), 1.0)
    return out


def pass_at_k(
    n_samples: ArrayLike,
    n_correct: ArrayLike,
    k: int,
    *,
    groups: ArrayLike | None = None,
    confidence_level: float = 0.95,
    n_resamples: int = 10_000,
    rng: RngLike = None,
) -> PassAtK:
    r"""The unbiased pass@k of a benchmark and its bootstrap interval over questions.

    Question :math:`i` was answered :math:`n_i` times, :math:`c_i` answers
    correct. The probability that at least one of :math:`k` answers drawn
    without replacement from the :math:`n_i` is correct is

    .. math:: \widehat{\text{pass@}k}_i = 1 - \binom{n_i - c_i}{k} \Big/ \binom{n_i}{k},

    an unbiased estimate of the question's pass@k (Chen et al., 2021), and the
    benchmark's pass@k is the mean over the questions. Computing
    :math:`1 - (1 - c_i/n_i)^k` instead would be biased (low), and the
    binomial coefficients overflow for large :math:`n_i`; here they are never
    formed (a product of at most :math:`\min(c_i, k)` ratios, turned into a
    sum of positive terms), so any :math:`n_i` works, and pass@1 is exactly
    the mean of :math:`c_i / n_i`.

    The interval resamples the questions (or, with ``groups``, whole groups of
    questions, as :func:`~sigeval.resampling.bootstrap_ci` does): the samples of
    one question are not independent repetitions, and the questions are the
    sample from the population of questions.

    Parameters
    ----------
    n_samples, n_correct : array_like of int
        Per question, the answers sampled (at least ``k``) and the correct
        ones among them; broadcast together, at least 2 questions.
    k : int
        The number of attempts, at least 1.
    groups : array_like, optional
        One group label per question, for questions that come in groups.
    confidence_level, n_resamples, rng
        As in :func:`~sigeval.resampling.bootstrap_ci`.

    Returns
    -------
    PassAtK

    Raises
    ------
    ValueError
        For fewer than 2 questions, counts that are negative or not whole,
        ``n_correct > n_samples``, ``k > n_samples`` for some question, or
        counts beyond 2**53.

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    Three questions, 10 answers each, 0, 3 and 10 of them correct:

    >>> from sigeval import pass_at_k
    >>> res = pass_at_k([10, 10, 10], [0, 3, 10], k=2, n_resamples=2000, rng=0)
    >>> [round(float(p), 4) for p in res.per_question]   # 1 - C(7, 2)/C(10, 2) = 8/15
    [0.0, 0.5333, 1.0]
    >>> round(res.estimate, 4)
    0.5111
    """
    n_arr = _integer_array(n_samples, "n_samples")
    c_arr = _integer_array(n_correct, "n_correct")
    n_arr, c_arr = check_broadcast((n_arr, c_arr), ("n_samples", "n_correct"))
    n_arr, c_arr = n_arr.ravel(), c_arr.ravel()
    k = check_positive_int(k, "k")
    if n_arr.size < 2:
        raise ValueError(f"`n_samples` and `n_correct` must describe at least 2 questions; got {n_arr.size}.")
    if np.any(c_arr < 0):
        raise ValueError(f"`n_correct` must be non-negative; got {_show(c_arr[c_arr < 0])}.")
    bad = c_arr > n_arr
    if np.any(bad):
        i = int(np.argmax(bad))
        raise ValueError(f"`n_correct` must not exceed `n_samples`; question {i} has {c_arr[i]} of {n_arr[i]}.")
    short = n_arr < k
    if np.any(short):
        i = int(np.argmax(short))
        raise ValueError(
            f"`k` = {k} exceeds `n_samples` for some question (question {i} has {n_arr[i]} sample(s)): "
            "pass@k needs at least k samples of every question."
        )
    per_question = _pass_at_k_per_question(n_arr, c_arr, k)
    boot = bootstrap_ci(per_question, groups=groups, confidence_level=confidence_level,
                        n_resamples=n_resamples, rng=rng)
    return PassAtK(
        estimate=float(boot.estimate),
        per_question=per_question,
        confidence_interval=boot.confidence_interval,
        standard_error=float(boot.standard_error),
        confidence_level=boot.confidence_level,
        k=k,
        n_questions=int(n_arr.size),
        bootstrap=boot,
    )


# --------------------------------------------------------------------------- means over samples


@dataclass(frozen=True)
class SampledMean:
    """Result of :func:`sampled_mean` and :func:`sampled_paired_difference`.

    Attributes
    ----------
    estimate : float
        Mean over the questions of each question's mean over its samples (for
        a difference, of A's mean minus B's).
    standard_error : float
        Clustered by question, or by group of questions with ``groups``.
    standard_error_naive : float
        As if every sample were an independent item: the standard deviation of
        all samples over the square root of their number.
    confidence_interval : ConfidenceInterval
        Student t interval with ``n_clusters - 1`` degrees of freedom.
    confidence_level : float
    variance_between : float
        Variance of the questions' true means (of their true differences):
        the part of the noise that more questions average away and more
        samples per question do not. Unbiased, and left negative when it
        comes out negative.
    variance_within : float or None
        Variance of one sample around its question's true mean (for a
        difference, of one sample of A minus one of B): the part that more
        samples per question average away. None when no question has 2 samples.
    n_questions : int
    n_samples : float
        Samples per question (the harmonic mean when they differ; for a
        difference, of A and B together as the formula below needs).
    n_clusters : int
        Questions, or groups of questions.
    design_effect : float
        ``(standard_error / standard_error_naive) ** 2``: how many times the
        naive variance understates the real one.
    variance_groups : float or None
        With ``groups``: the part of the variance of the question means that
        the questions of a group share (the variance of the groups' true
        means), by the one-way analysis of variance of the question means
        (below). ``questions_needed(..., variance_groups=, group_size=)``
        plans with it. Unbiased when every question has as many samples, left
        negative when it comes out negative; None without groups, or when no
        group holds two questions.
    """

    estimate: float
    standard_error: float
    standard_error_naive: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    variance_between: float | None
    variance_within: float | None
    n_questions: int
    n_samples: float
    n_clusters: int
    design_effect: float
    variance_groups: float | None = None


def _sample_matrix(scores: ArrayLike, name: str) -> np.ndarray:
    """A (questions, samples) float array; NaN pads questions with fewer samples; every row has one."""
    arr = real_array(scores, name, allow_bool=True).astype(float)
    if arr.ndim != 2:
        raise ValueError(
            f"`{name}` must be a 2-D array, one row per question and one column per sample "
            f"(NaN where a question has fewer samples); got shape {arr.shape}."
        )
    if np.any(np.isinf(arr)):
        raise ValueError(f"`{name}` holds infinite values, e.g. at {np.argwhere(np.isinf(arr))[0].tolist()}.")
    empty = np.all(np.isnan(arr), axis=1)
    if np.any(empty):
        rows = np.flatnonzero(empty)
        raise ValueError(
            f"`{name}` has question(s) without any sample (rows {_show(rows)} are all NaN): a failed "
            "question is never dropped silently; score it, or remove it explicitly."
        )
    if arr.shape[0] < 2:
        raise ValueError(f"`{name}` must hold at least 2 questions (rows); got {arr.shape[0]}.")
    return arr


def _per_question(arr: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each question's mean, number of samples and sample variance (NaN with one sample)."""
    count = np.sum(~np.isnan(arr), axis=1)
    mean = np.nanmean(arr, axis=1)
    spread = np.where(np.isnan(arr), 0.0, arr - mean[:, None])
    with np.errstate(invalid="ignore", divide="ignore"):
        variance = np.where(count > 1, np.sum(spread**2, axis=1) / (count - 1), np.nan)
    return mean, count, variance


def _cluster_codes(groups: ArrayLike | None, n: int) -> np.ndarray:
    if groups is None:
        return np.arange(n)
    codes = group_codes(groups, n, "question")
    if codes.max() < 1:
        raise ValueError("`groups` must hold at least 2 distinct groups: one group gives no clustered error.")
    return codes


def _clustered(means: np.ndarray, codes: np.ndarray) -> tuple[float, float, int]:
    """Mean of the question means and its CR1 standard error over the clusters (Liang & Zeger's, times G/(G-1))."""
    n = means.size
    estimate = float(means.mean())
    sums = np.bincount(codes, weights=means - estimate)
    g = sums.size
    variance = g / (g - 1) * float(np.sum(sums**2)) / n**2
    return estimate, math.sqrt(variance), g


def _between(means: np.ndarray, sampling: np.ndarray, has_within: np.ndarray) -> float | None:
    """The between-question variance: the variance of the question means less their mean sampling variance."""
    if not np.any(has_within):
        return None  # no question with 2 samples: the sampling variance is not estimable
    return float(means.var(ddof=1) - np.mean(sampling[has_within]))


def _between_groups(means: np.ndarray, codes: np.ndarray) -> float | None:
    r"""The variance of the groups' true means, by the one-way analysis of variance of the question means.

    With :math:`G` groups of :math:`m_g` questions, :math:`n` in all,
    :math:`(\mathrm{MS}_\text{between} - \mathrm{MS}_\text{within})/n_0` with
    :math:`n_0 = (n - \sum_g m_g^2/n)/(G - 1)`: unbiased when the question
    means of a group scatter equally around it (every question with as many
    samples), balanced or not.
    """
    n, g = means.size, int(codes.max()) + 1
    if n == g:
        return None  # one question per group: nothing separates the group's share from the question's own
    sizes = np.bincount(codes, minlength=g).astype(float)
    group_means = np.bincount(codes, weights=means, minlength=g) / sizes
    within = float(np.sum((means - group_means[codes]) ** 2)) / (n - g)
    between = float(np.sum(sizes * (group_means - means.mean()) ** 2)) / (g - 1)
    n0 = (n - float(np.sum(sizes**2)) / n) / (g - 1)
    return (between - within) / n0


def _scale(*arrays: np.ndarray) -> float:
    """A power of two to divide the scores by so that their squares neither overflow nor underflow (1.0 usually)."""
    values = np.concatenate([a[~np.isnan(a)] for a in arrays])
    return safe_scale(values, power=2)


def _summarise(
    means: np.ndarray, between: float | None, within: float | None, n_samples: float, naive: float,
    codes: np.ndarray, confidence_level: float, names: str, scale: float = 1.0, grouped: bool = False,
) -> SampledMean:
    """The result from question means, variances and naive SE of the scores divided by ``scale``.

    Scores near the float64 limits (1e±154 and beyond) are divided by a power
    of two (exact) so that their squares stay in range; the question means,
    back in the scores' units, get their own power of two for the clustered
    standard error. A value that the scores' units cannot hold is refused.
    """
    with np.errstate(over="ignore"):
        means = means * scale
    check_finite_result({"estimate": means}, names)
    means_scale = safe_scale(means, power=2)
    estimate, se, g = _clustered(means / means_scale, codes)
    shared = _between_groups(means / means_scale, codes) if grouped else None
    if se == 0.0:
        raise ValueError(
            f"The question means of {names} are all equal: the clustered standard error is zero, and no "
            "interval or test can be built on it."
        )
    half = float(stats.t.isf((1 - confidence_level) / 2, g - 1)) * se
    ratio = se / naive * (means_scale / scale) if naive > 0 else math.inf
    design_effect = ratio * ratio
    # Python floats: a product beyond float64 is inf (refused just below), never a warning.
    estimate, se, half, naive = estimate * means_scale, se * means_scale, half * means_scale, naive * scale
    if between is not None:
        between, within = between * scale * scale, (within or 0.0) * scale * scale
    if shared is not None:
        shared = shared * means_scale * means_scale
    interval = ConfidenceInterval(estimate - half, estimate + half)
    check_finite_result({"estimate": estimate, "standard_error": se, "standard_error_naive": naive,
                         "variance_between": between or 0.0, "variance_within": within or 0.0,
                         "variance_groups": shared or 0.0,
                         "confidence_interval": np.array(interval)}, names)
    return SampledMean(
        estimate=estimate,
        standard_error=se,
        standard_error_naive=naive,
        confidence_interval=interval,
        confidence_level=confidence_level,
        variance_between=between,
        variance_within=within,
        n_questions=int(means.size),
        n_samples=n_samples,
        n_clusters=g,
        design_effect=design_effect,
        variance_groups=shared,
    )


def sampled_mean(
    scores: ArrayLike, *, groups: ArrayLike | None = None, confidence_level: float = 0.95
) -> SampledMean:
    r"""A benchmark score over questions answered several times, with its clustered standard error.

    ``scores[i, s]`` is sample :math:`s` of question :math:`i` (0/1
    correctness, or any score); question :math:`i` has :math:`K_i` samples and
    mean :math:`\bar x_i`, and the benchmark's score is
    :math:`\bar x = \frac1n \sum_i \bar x_i`. Its standard error is clustered by
    question (or by ``groups`` of questions): the cluster-robust variance of
    Liang & Zeger (1986) over :math:`G` clusters times the small-sample factor
    :math:`G/(G-1)` (CR1 in Cameron & Miller's 2015 terms; Liang and Zeger's
    estimator has no such factor),

    .. math:: \widehat{\mathrm{SE}}^2 = \frac{G}{G-1}\,\frac{1}{n^2}\sum_g \Bigl(\sum_{i \in g} (\bar x_i - \bar x)\Bigr)^2,

    which with one question per cluster is :math:`s^2_{\bar x}/n`, the variance
    of the question means over :math:`n`. The interval is Student's t on
    :math:`G - 1` degrees of freedom; with clusters of equal sizes it is the
    one-sample t interval on the cluster means. With few clusters of unequal
    sizes, or skewed cluster means (accuracy near 1), it is too short
    (:ref:`ch-generative` measures by how much): there use the t interval on
    the cluster means (the mean over clusters), the CR2 variance with Bell &
    McCaffrey's (2002) degrees of freedom, or, to compare two models, the
    sign-flip test over whole clusters (:func:`~sigeval.permutation.paired_permutation_test`
    on the clusters' summed differences). The naive standard error, as if every
    sample were an independent item, is reported beside it. The variance of a
    question mean splits into a between-question part and a sampling part
    (the law of total variance, :ref:`ch-noise`):

    .. math:: \operatorname{Var}(\bar x_i) = \sigma^2_b + \sigma^2_w / K,
              \qquad \mathrm{SE}^2 = \frac{\sigma^2_b + \sigma^2_w/K}{n},

    estimated by :math:`\hat\sigma^2_w`, the mean within-question sample
    variance, and :math:`\hat\sigma^2_b = s^2_{\bar x} - \frac1n\sum_i s^2_i/K_i`
    (unbiased, left negative when it comes out negative). More samples per
    question shrink only :math:`\sigma^2_w/K`; :func:`questions_needed` turns
    the two parts into a design.

    Parameters
    ----------
    scores : array_like, shape (n_questions, n_samples)
        One row per question, one column per sample; NaN where a question
        has fewer samples than the widest row. At least 2 questions.
    groups : array_like, optional
        One label per question, for questions that come in groups: the
        standard error is then clustered by group (at least 2 groups).
    confidence_level : float
        Level of the t interval (``n_clusters - 1`` degrees of freedom).

    Returns
    -------
    SampledMean

    Raises
    ------
    ValueError
        For a question without samples, infinite scores, fewer than 2
        questions or groups, a missing group label (NaN, None), question
        means that are all equal, or a result beyond float64 (a variance of
        scores near 1e154 and above).

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    Four questions, three sampled answers each (1 = correct):

    >>> from sigeval import sampled_mean
    >>> res = sampled_mean([[1, 1, 1], [1, 0, 1], [0, 0, 1], [0, 0, 0]])
    >>> round(res.estimate, 4), round(res.standard_error, 4), round(res.standard_error_naive, 4)
    (0.5, 0.2152, 0.1508)
    >>> round(res.variance_between, 4), round(res.variance_within, 4)
    (0.1296, 0.1667)
    """
    arr = _sample_matrix(scores, "scores")
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    scale = _scale(arr)  # exact: scores near 1e±154 and beyond keep their squares in range
    arr = arr / scale
    means, count, variance = _per_question(arr)
    codes = _cluster_codes(groups, arr.shape[0])
    has_within = count > 1
    between = _between(means, variance / count, has_within)
    within = float(np.mean(variance[has_within])) if between is not None else None
    values = arr[~np.isnan(arr)]
    naive = float(values.std(ddof=1)) / math.sqrt(values.size)
    return _summarise(
        means, between, within, float(count.size / np.sum(1.0 / count)), naive, codes, confidence_level, "`scores`",
        scale, grouped=groups is not None,
    )


def sampled_paired_difference(
    scores_a: ArrayLike, scores_b: ArrayLike, *, groups: ArrayLike | None = None, confidence_level: float = 0.95
) -> SampledMean:
    r"""Two models on the same questions, each answering several times: the difference A minus B.

    The pairing is by question: question :math:`i` gives
    :math:`d_i = \bar a_i - \bar b_i`, the difference of the two models'
    means over their samples (the samples of A and B are not paired with
    each other, and their numbers may differ). The estimate is the mean of the
    :math:`d_i` and its standard error is clustered by question, or by
    ``groups``, as in :func:`sampled_mean`; pairing by question removes the
    questions' common difficulty from the noise. The variance split is that
    of the :math:`d_i`: :math:`\operatorname{Var}(d_i) = \sigma^2_b +
    \sigma^2_{w,A}/K_A + \sigma^2_{w,B}/K_B`, reported with ``variance_within``
    :math:`= \sigma^2_{w,A} + \sigma^2_{w,B}` and ``n_samples`` :math:`= K`
    when both models have :math:`K` samples per question.

    Parameters
    ----------
    scores_a, scores_b : array_like, shape (n_questions, n_samples)
        The two models' samples, rows in the same question order; NaN pads
        rows with fewer samples.
    groups, confidence_level
        As in :func:`sampled_mean`.

    Returns
    -------
    SampledMean

    Raises
    ------
    ValueError
        As :func:`sampled_mean`, and for arrays with different numbers of questions.

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    >>> from sigeval import sampled_paired_difference
    >>> a = [[1, 1], [1, 0], [1, 1], [0, 0], [1, 0]]
    >>> b = [[1, 0], [0, 0], [1, 1], [0, 0], [0, 0]]
    >>> res = sampled_paired_difference(a, b)
    >>> round(res.estimate, 2), round(res.standard_error, 4)
    (0.3, 0.1225)
    """
    a = _sample_matrix(scores_a, "scores_a")
    b = _sample_matrix(scores_b, "scores_b")
    if a.shape[0] != b.shape[0]:
        raise ValueError(
            f"`scores_a` and `scores_b` must be paired by question, with the same number of rows; "
            f"got {a.shape[0]} and {b.shape[0]}."
        )
    confidence_level = check_unit_interval(confidence_level, "confidence_level")
    scale = _scale(a, b)
    a, b = a / scale, b / scale
    mean_a, count_a, var_a = _per_question(a)
    mean_b, count_b, var_b = _per_question(b)
    codes = _cluster_codes(groups, a.shape[0])
    both = (count_a > 1) & (count_b > 1)
    between = _between(mean_a - mean_b, var_a / count_a + var_b / count_b, both)
    within = float(np.mean(var_a[both] + var_b[both])) if between is not None else None
    # The K of Var(d_i) = sigma_b^2 + sigma_w^2 / K with sigma_w^2 = sigma_A^2 + sigma_B^2: 2/(1/K_A + 1/K_B).
    k_pair = 2.0 / (1.0 / count_a + 1.0 / count_b)
    n_samples = float(k_pair.size / np.sum(1.0 / k_pair))
    values_a, values_b = a[~np.isnan(a)], b[~np.isnan(b)]
    # Naive: every sample independent, so Var = s_A^2 / N_A + s_B^2 / N_B.
    naive = math.sqrt(values_a.var(ddof=1) / values_a.size + values_b.var(ddof=1) / values_b.size)
    return _summarise(
        mean_a - mean_b, between, within, n_samples, naive, codes, confidence_level, "`scores_a` and `scores_b`",
        scale, grouped=groups is not None,
    )


# --------------------------------------------------------------------------- design


def questions_needed(
    variance_between: float,
    variance_within: float,
    *,
    target_standard_error: float,
    n_samples: int | ArrayLike = 1,
    variance_groups: float = 0.0,
    group_size: int = 1,
) -> int | np.ndarray:
    r"""Questions needed for a target standard error, given the samples per question (and the groups).

    With :math:`K` samples per question and independent questions,
    :math:`\mathrm{SE}^2 = (\sigma^2_b + \sigma^2_w/K)/n` (:func:`sampled_mean`).
    When the questions come in groups of :math:`m` (the questions about one
    passage, one code base), part of the between-question variance,
    :math:`\sigma^2_g` (``variance_groups``), is shared by the questions of a
    group, and the :math:`G = n/m` groups are the independent units. The
    variance of a group's mean is
    :math:`\sigma^2_g + (\sigma^2_b - \sigma^2_g + \sigma^2_w/K)/m`, so

    .. math:: \mathrm{SE}^2 = \frac{\sigma^2_b + \sigma^2_w/K + (m - 1)\,\sigma^2_g}{n}
              = \frac{\sigma^2_b + \sigma^2_w/K}{n}\,\bigl(1 + (m - 1)\rho\bigr),
              \qquad \rho = \frac{\sigma^2_g}{\sigma^2_b + \sigma^2_w/K},

    the variance of independent questions times the design effect
    :math:`1 + (m - 1)\rho` (Kish, 1965), :math:`\rho` being the correlation of
    two question means of one group. The answer is the smallest whole number
    of groups that reaches the target, in questions:

    .. math:: n = m \Bigl\lceil \frac{\sigma^2_b + \sigma^2_w / K + (m - 1)\,\sigma^2_g}
              {m\,\mathrm{SE}^2_\text{target}} \Bigr\rceil .

    The floor. More samples per question only shrink :math:`\sigma^2_w/K`:
    however many, the benchmark needs at least
    :math:`(\sigma^2_b + (m - 1)\sigma^2_g)/\mathrm{SE}^2` questions, which is
    :math:`\sigma^2_b/\mathrm{SE}^2` only when the questions are independent
    (no groups, or :math:`\sigma^2_g = 0`); with groups of a fixed size the
    floor grows with the shared part. More questions per group do not help
    beyond a point either: however large :math:`m`, at least
    :math:`\sigma^2_g/\mathrm{SE}^2` *groups* are needed. Both floors assume
    that the questions (or groups) are a random sample from the population the
    score is meant for, and that a question's samples are independent given
    the question. Pass an array of :math:`K` for the whole trade-off.

    The ceiling is exact for the numbers as Python prints them (0.01 is read
    as 1/100, not as the binary float nearest to it), so a ratio that is a
    whole number, such as 0.25 / 0.01\ :sup:`2` = 2500, is not rounded up
    by a rounding error, and every other ratio is rounded up however large.

    Parameters
    ----------
    variance_between, variance_within : float
        The two parts of the variance of a question mean, at least 0 and not
        both 0 (estimates from :func:`sampled_mean`; a negative
        between-question estimate should be taken as 0).
    target_standard_error : float
        The standard error to reach, positive.
    n_samples : int or array_like of int
        Samples per question, at least 1.
    variance_groups : float
        The part of ``variance_between`` shared by the questions of a group,
        from 0 to ``variance_between`` (``variance_groups`` of
        :func:`sampled_mean` with ``groups``; a negative estimate should be
        taken as 0). Used with ``group_size`` > 1.
    group_size : int
        Questions per group, at least 1; the answer is a multiple of it.

    Returns
    -------
    int or ndarray of int
        Questions (``group_size`` times the groups).

    Raises
    ------
    ValueError
        For a negative variance, both variances 0, ``variance_groups`` above
        ``variance_between``, a target that is not positive, ``n_samples`` or
        ``group_size`` below 1, or a design of more than 2**53 questions.

    Notes
    -----
    Explained in :ref:`ch-generative`.

    Examples
    --------
    >>> from sigeval import questions_needed
    >>> questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=[1, 4, 16, 1000])
    array([2500, 1750, 1563, 1501])

    The same questions in passages of five, 0.09 of the 0.15 shared by a
    passage's questions:

    >>> questions_needed(0.15, 0.10, target_standard_error=0.01, n_samples=[1, 4, 16, 1000],
    ...                  variance_groups=0.09, group_size=5)
    array([6100, 5350, 5165, 5105])
    """
    between = _non_negative(variance_between, "variance_between")
    within = _non_negative(variance_within, "variance_within")
    if between == 0 and within == 0:
        raise ValueError("`variance_between` and `variance_within` are both 0: any one question would do.")
    shared = _non_negative(variance_groups, "variance_groups")
    if shared > between:
        raise ValueError(
            f"`variance_groups` is the part of `variance_between` shared within a group, so at most "
            f"`variance_between` = {between!r}; got {shared!r}."
        )
    se = check_positive_real(target_standard_error, "target_standard_error")
    m = check_positive_int(group_size, "group_size")
    k = _integer_array(n_samples, "n_samples")
    if np.any(k < 1):
        raise ValueError(f"`n_samples` must be at least 1; got {_show(k[k < 1])}.")
    groups = _groups_needed(between, within, shared, m, se, k)
    if np.any(groups > 2**53 / m):
        shared_part = " + (`group_size` - 1) `variance_groups`" if m > 1 else ""
        raise ValueError(
            f"(`variance_between` + `variance_within` / `n_samples`{shared_part}) / `target_standard_error`**2 asks "
            f"for more than 2**53 questions (target_standard_error={se!r}): no benchmark is that large."
        )
    n = np.maximum(groups, 1).astype(np.int64) * m
    return int(n) if n.ndim == 0 else n


def _groups_needed(between: float, within: float, shared: float, m: int, se: float, k: np.ndarray) -> np.ndarray:
    """The ceiling of (between + within / k + (m - 1) shared) / (m se^2), exact for the printed decimals.

    In floating point the ratio is off by a few units in the last place, which decides the ceiling only
    when the ratio lies that close to a whole number (a design that is whole in decimals, such as
    0.25 / 0.01**2). Those few are recomputed in rational arithmetic from the decimals Python prints for
    the inputs; the others are rounded up as computed.
    """
    # Divided by the target twice: its square overflows from 1.3e154 and underflows below 1e-162.
    counts = np.atleast_1d(k).ravel()
    with np.errstate(over="ignore", divide="ignore", invalid="ignore"):
        ratio = (between + within / counts + (m - 1) * shared) / m / se / se
        near = np.isfinite(ratio) & (np.abs(ratio - np.round(ratio)) <= 16 * np.finfo(float).eps * ratio)
    groups = np.ceil(ratio)
    if np.any(near):
        b, w, g, t = (Fraction(repr(x)) for x in (between, within, shared, se))
        for i in np.flatnonzero(near):  # the rare ratios within rounding error of a whole number
            groups[i] = _exact_ceiling(b, w, g, m, t, int(counts[i]))
    return groups.reshape(np.shape(k))


def _exact_ceiling(between: Fraction, within: Fraction, shared: Fraction, m: int, se: Fraction, k: int) -> int:
    """ceil((between + within / k + (m - 1) shared) / (m se^2)) in rational arithmetic."""
    ratio = (between + within / k + (m - 1) * shared) / (m * se * se)
    return -(-ratio.numerator // ratio.denominator)


def _non_negative(value: float, name: str) -> float:
    value = check_real(value, name)
    if value < 0:
        raise ValueError(f"`{name}` must be at least 0 (take a negative estimate as 0); got {value!r}.")
    return value

"""Bayesian comparisons of two models with a region of practical equivalence.

Instead of a p-value, each test returns the posterior probabilities of three
regions of the difference :math:`\\delta` (A minus B): A practically better
(:math:`\\delta > r`), practically equivalent (:math:`|\\delta| \\le r`, the
*region of practical equivalence*, ROPE, of half-width ``rope`` = :math:`r`)
and B practically better (:math:`\\delta < -r`), as Benavoli, Corani, Demšar
and Zaffalon (2017) propose and the ``baycomp`` package computes:

- :func:`correlated_ttest`: the differences of k-fold or repeated random
  splits on one dataset (Corani & Benavoli, 2015);
- :func:`bayesian_paired_t`: the differences of independent paired runs
  (seeds that are separate trainings), with the noninformative prior;
- :func:`bayesian_signed_rank` and :func:`bayesian_sign_test`: one score per
  task and model, over several tasks (Benavoli et al., 2014, 2017).

The frequentist tests over splits are explained in :ref:`ch-procedures`, the
comparisons over tasks in :ref:`ch-ranking`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from numpy.typing import ArrayLike

from ._numeric import power_of_two_near
from ._paired_t import Summaries, posterior, summarise
from ._validation import (
    RngLike,
    check_difference,
    check_memory,
    check_paired,
    check_positive_int,
    check_positive_real,
    check_real,
    check_rng,
    check_scores,
    check_unit_interval,
)

__all__ = [
    "StudentPosterior",
    "correlated_ttest",
    "bayesian_paired_t",
    "DirichletPosterior",
    "bayesian_signed_rank",
    "bayesian_sign_test",
]

# Region probabilities whose difference is below this count as a tie for the
# most probable region (only degenerate data, e.g. every difference 0, ties).
_TIE_TOLERANCE = 1e-12
# baycomp adds this to every cell of the sign test's Dirichlet, so that an
# empty cell still has a positive parameter.
_SIGN_TEST_EPSILON = 1e-4


# --------------------------------------------------------------------------- Student t posteriors


@dataclass(frozen=True)
class StudentPosterior:
    """Result of :func:`correlated_ttest` and :func:`bayesian_paired_t`.

    The posterior of the mean difference :math:`\\delta` (A minus B) is a
    Student t distribution with ``df`` degrees of freedom, location ``loc``
    and scale ``scale``; ``scale = 0`` is a point mass at ``loc`` (differences
    all equal, see the functions).

    Attributes
    ----------
    prob_a_better : float
        :math:`P(\\delta > r)`: A practically better.
    prob_rope : float
        :math:`P(|\\delta| \\le r)`: practically equivalent; 0 when ``rope = 0``.
    prob_b_better : float
        :math:`P(\\delta < -r)`: B practically better.
    rope : float
        The half-width :math:`r` of the region of practical equivalence.
    df : int
        Degrees of freedom, ``n - 1``.
    loc : float
        Location: the mean difference.
    scale : float
        Scale of the posterior t distribution (0 for a point mass).
    n : int
        Number of differences.
    """

    prob_a_better: float
    prob_rope: float
    prob_b_better: float
    rope: float
    df: int
    loc: float
    scale: float
    n: int


def _check_rope(rope: float) -> float:
    rope = check_real(rope, "rope")
    if rope < 0:
        raise ValueError(f"`rope` must be a half-width >= 0 in the units of the scores; got {rope!r}.")
    return rope


def _student_posterior(pairs: Summaries, rope: float, inflation: float, spread_of: str) -> StudentPosterior:
    """The t posterior of the mean difference of one comparison (:func:`~sigeval._paired_t.posterior`)."""
    values, reason = posterior(pairs, rope, inflation, spread_of)
    if reason[0]:
        raise ValueError(reason[0])
    return StudentPosterior(
        prob_a_better=float(values["prob_a_better"][0]),
        prob_rope=float(values["prob_rope"][0]),
        prob_b_better=float(values["prob_b_better"][0]),
        rope=rope,
        df=int(pairs.n[0] - 1),
        loc=float(values["loc"][0]),
        scale=float(values["scale"][0]),
        n=int(pairs.n[0]),
    )


def correlated_ttest(differences: ArrayLike, *, test_fraction: float, rope: float = 0.0) -> StudentPosterior:
    r"""Bayesian correlated t-test over the splits of one dataset (Corani & Benavoli, 2015).

    The :math:`n` differences :math:`d_j` (A minus B) of k-fold
    cross-validation, or of repeated random train/test splits, are correlated
    because the training sets overlap. Corani and Benavoli model them as
    normal with a correlation :math:`\rho` between any two, equal to the
    fraction of the data in each test set (Nadeau and Bengio's heuristic,
    :math:`\rho = 1/k` for k-fold). With the noninformative prior the
    posterior of the mean difference :math:`\delta` is a Student t
    distribution with :math:`n - 1` degrees of freedom,

    .. math::

        \delta \mid d \sim t_{n-1}\Bigl(\bar d,\;
        s^2 \Bigl(\frac1n + \frac{\rho}{1-\rho}\Bigr)\Bigr),

    location the mean :math:`\bar d` and squared scale the sample variance
    :math:`s^2` (:math:`n - 1` denominator) times the Nadeau–Bengio
    correction; :func:`sigeval.crossval.corrected_resampled_t` is its
    frequentist twin. The three probabilities come from the t distribution's
    cumulative distribution function (no sampling): ``prob_a_better`` =
    :math:`P(\delta > r)`, ``prob_rope`` = :math:`P(|\delta| \le r)` and
    ``prob_b_better`` = :math:`P(\delta < -r)`, for ``rope`` = :math:`r`
    (0 when ``rope = 0``). baycomp's ``CorrelatedTTest`` gives the same
    posterior (its ``runs`` repetitions of k folds are ``test_fraction = 1/k``).

    Differences that are all equal (up to rounding error: their sd at most
    about 1.4e-14 times their largest magnitude) give a posterior scale of 0,
    a point mass at their mean: the region that holds the mean gets
    probability 1 (a mean of exactly 0 with ``rope = 0`` counts half to each
    side). This is the limit of the posterior as the spread vanishes, not a
    statement of certainty worth reporting: identical differences usually
    mean the splits did not vary what they should.

    Parameters
    ----------
    differences : array_like of float, 1-D
        One difference A minus B per split (or fold), at least 2.
    test_fraction : float
        :math:`\rho`, the fraction of the data in each test set, in (0, 1):
        ``1/k`` for k-fold cross-validation, ``n_test / (n_train + n_test)``
        for random splits.
    rope : float
        Half-width :math:`r \ge 0` of the region of practical equivalence, in
        the units of the scores.

    Returns
    -------
    StudentPosterior

    Raises
    ------
    ValueError
        If ``differences`` has fewer than 2 values or holds NaN or inf,
        ``test_fraction`` is outside (0, 1), ``rope`` is negative or not
        finite, or the scale overflows float64.

    Notes
    -----
    The tests over splits are explained in :ref:`ch-procedures`.

    Examples
    --------
    Ten folds of one 10-fold cross-validation:

    >>> from sigeval import correlated_ttest
    >>> d = [0.02, 0.01, 0.03, 0.00, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01]
    >>> post = correlated_ttest(d, test_fraction=1 / 10, rope=0.01)
    >>> round(post.loc, 3), round(post.scale, 4), post.df
    (0.019, 0.0055, 9)
    >>> round(post.prob_a_better, 3), round(post.prob_rope, 3), round(post.prob_b_better, 4)
    (0.932, 0.068, 0.0003)
    """
    d = check_scores(differences, "differences", min_size=2)
    test_fraction = check_unit_interval(test_fraction, "test_fraction")
    rope = _check_rope(rope)
    return _student_posterior(summarise(d, np.zeros(d.size)), rope, test_fraction / (1 - test_fraction), "differences")


def bayesian_paired_t(scores_a: ArrayLike, scores_b: ArrayLike, *, rope: float = 0.0) -> StudentPosterior:
    r"""Bayesian paired t over independent pairs of runs, with the noninformative prior.

    Pair :math:`i` trains A and B under the same planned conditions (a seed,
    say), and the pairs are independent: separate trainings, not the folds of
    one cross-validation (those are correlated: :func:`correlated_ttest`).
    For normal differences :math:`d_i = a_i - b_i` and the noninformative
    prior :math:`p(\mu, \sigma) \propto 1/\sigma`, the posterior of the mean
    difference :math:`\delta` is a Student t distribution (e.g. Gelman et al.,
    *Bayesian Data Analysis*, section 3.2),

    .. math::

        \delta \mid d \sim t_{n-1}\bigl(\bar d,\; s^2/n\bigr),

    location the mean difference and scale its standard error
    :math:`s/\sqrt n`: the correlated t-test with :math:`\rho = 0`. Its 95%
    central interval is the paired t interval of
    :func:`sigeval.procedures.paired_difference`; what is new are the three
    region probabilities ``prob_a_better`` = :math:`P(\delta > r)`,
    ``prob_rope`` = :math:`P(|\delta| \le r)` and ``prob_b_better`` =
    :math:`P(\delta < -r)`.

    Differences all equal up to rounding error give scale 0, a point mass at
    their mean; see :func:`correlated_ttest`.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        Scores of the paired runs, at least 2 pairs, in pair order.
    rope : float
        Half-width :math:`r \ge 0` of the region of practical equivalence.

    Returns
    -------
    StudentPosterior

    Raises
    ------
    ValueError
        If the arrays differ in length, have fewer than 2 pairs, hold NaN or
        inf, a difference overflows float64, or ``rope`` is negative or not
        finite.

    Notes
    -----
    The paired t over seeds is explained in :ref:`ch-procedures`.

    Examples
    --------
    >>> from sigeval import bayesian_paired_t
    >>> scores_b = [71.2, 70.8, 71.5, 70.9, 71.1]
    >>> scores_a = [71.6, 71.1, 71.6, 71.4, 71.2]
    >>> post = bayesian_paired_t(scores_a, scores_b, rope=0.1)
    >>> round(post.loc, 2), round(post.scale, 3)
    (0.28, 0.08)
    >>> round(post.prob_a_better, 3), round(post.prob_rope, 3), round(post.prob_b_better, 4)
    (0.956, 0.039, 0.0045)
    """
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    rope = _check_rope(rope)
    check_difference(a, b, ("scores_a", "scores_b"))
    return _student_posterior(summarise(a, b), rope, 0.0, "scores")


# --------------------------------------------------------------------------- Dirichlet posteriors over tasks


@dataclass(frozen=True)
class DirichletPosterior:
    """Result of :func:`bayesian_signed_rank` and :func:`bayesian_sign_test`.

    Attributes
    ----------
    prob_a_better, prob_rope, prob_b_better : float
        The fraction of posterior draws in which A practically better,
        practical equivalence, or B practically better is the most probable
        region (baycomp's definition); they sum to 1, and ``prob_rope`` is 0
        when ``rope = 0``.
    rope : float
        The half-width of the region of practical equivalence.
    prior_strength : float
        Weight of the prior's pseudo-observation at 0.
    n : int
        Number of tasks.
    n_draws : int
        Number of posterior draws.
    posterior_samples : ndarray, shape (n_draws, 3)
        Each draw's probabilities of the three regions, in the order
        (A better, equivalent, B better); each row sums to 1.
    """

    prob_a_better: float
    prob_rope: float
    prob_b_better: float
    rope: float
    prior_strength: float
    n: int
    n_draws: int
    posterior_samples: np.ndarray = field(repr=False)


def _check_tasks(
    scores_a: ArrayLike, scores_b: ArrayLike, rope: float, prior_strength: float, n_draws: int
) -> tuple[np.ndarray, float, float, int]:
    a, b = check_paired(scores_a, scores_b, ("scores_a", "scores_b"), min_size=2)
    rope = _check_rope(rope)
    prior_strength = check_positive_real(prior_strength, "prior_strength")
    n_draws = check_positive_int(n_draws, "n_draws")
    return check_difference(a, b, ("scores_a", "scores_b")), rope, prior_strength, n_draws


def _winners(theta: np.ndarray) -> np.ndarray:
    """The fraction of draws (rows) in which each region (column) is the most probable; ties split equally."""
    top = theta >= theta.max(axis=1, keepdims=True) - _TIE_TOLERANCE
    return (top / top.sum(axis=1, keepdims=True)).mean(axis=0)


def _dirichlet_posterior(
    theta: np.ndarray, rope: float, prior_strength: float, n: int
) -> DirichletPosterior:
    a_better, middle, b_better = _winners(theta)
    return DirichletPosterior(
        prob_a_better=float(a_better),
        prob_rope=float(middle),
        prob_b_better=float(b_better),
        rope=rope,
        prior_strength=prior_strength,
        n=n,
        n_draws=int(theta.shape[0]),
        posterior_samples=theta,
    )


# Posterior samples are drawn and evaluated this many weights at a time: bounds the working memory.
_CHUNK_ELEMENTS = 2**18
# Arrays of a chunk's size alive at once at the peak of a chunk (drawn weights, sorted weights, cumulative sums,
# the gathered sums and a temporary), measured in tests/test_bayes.py against what the memory check counts.
_CHUNK_ARRAYS = 5
# The most posterior weights drawn in one call (n_draws x (tasks + 1)): a minute or two of work.
_MAX_WEIGHTS = 2**30


def _count_sums_below(v: np.ndarray, level: float, *, inclusive: bool) -> np.ndarray:
    """For each ``v[i]`` of the sorted ``v``, how many ``v[j]`` make ``v[i] + v[j]`` (rounded) less than
    ``level`` (at most ``level`` if ``inclusive``): the sums grow with ``j``, so a binary search finds it."""
    lo, hi = np.zeros(v.size, dtype=np.intp), np.full(v.size, v.size, dtype=np.intp)
    active = lo < hi
    while active.any():  # about log2(n) rounds, each over every i at once
        mid = (lo + hi) // 2
        sums = v + v[np.minimum(mid, v.size - 1)]
        below = (sums <= level) if inclusive else (sums < level)
        lo = np.where(active & below, mid + 1, lo)
        hi = np.where(active & ~below, mid, hi)
        active = lo < hi
    return lo


def _signed_rank_bytes(n_draws: int, m: int) -> float:
    """The memory of :func:`bayesian_signed_rank`: the samples returned, and the arrays of one chunk."""
    rows = min(n_draws, max(1, _CHUNK_ELEMENTS // (m + 1)))
    return 8.0 * (3.0 * n_draws + _CHUNK_ARRAYS * rows * (m + 1.0))


def _signed_rank_regions(
    values: np.ndarray, threshold: float, prior_strength: float, n_draws: int, rng: np.random.Generator
) -> np.ndarray:
    r"""The quadratic forms :math:`\theta_A = w^\top H_{>} w` and (with a rope) :math:`\theta_B = w^\top H_{<} w`
    of every posterior sample, in O(n) per sample (:class:`_SumsAbove`); :math:`\theta_B` is the mass above
    ``threshold`` of the negated values, so that swapping the models swaps the two exactly."""
    m = values.size
    sides = [_SumsAbove(values, threshold)] + ([_SumsAbove(-values, threshold)] if threshold > 0 else [])
    alpha = np.r_[prior_strength, np.ones(m - 1)]
    theta = np.zeros((n_draws, 3))
    rows = max(1, _CHUNK_ELEMENTS // (m + 1))
    for start in range(0, n_draws, rows):  # chunks of draws: the same draws as one call would make
        w = rng.dirichlet(alpha, min(rows, n_draws - start))
        for column, side in zip((0, 2), sides):
            theta[start:start + w.shape[0], column] = side.mass(w)
    return theta


class _SumsAbove:
    r"""For weights :math:`w` on ``values``, :math:`\sum_{i,j} w_i w_j H(v_i + v_j - t)` with :math:`H(0) = 1/2`.

    With the values sorted, the j whose sum with :math:`v_i` (rounded, as a table of the sums would hold it)
    exceeds :math:`t` are those from an index on, since the sums grow with j; the row sum is the weight of the
    values from that index on, plus half the weight of those whose sum meets :math:`t` exactly. Cumulative
    sums of each sample's weights give every row sum at once, without the n x n table of the sums.
    """

    def __init__(self, values: np.ndarray, threshold: float):
        self.order = np.argsort(values, kind="stable")
        v = values[self.order]
        self.beyond = _count_sums_below(v, threshold, inclusive=True)  # the first j with v_i + v_j > t
        self.level = _count_sums_below(v, threshold, inclusive=False)  # the first j with v_i + v_j >= t

    def mass(self, weights: np.ndarray) -> np.ndarray:
        """The mass of each row of ``weights`` (samples x values, in the order of ``values``)."""
        # Values along the first axis: the cumulative sums then add whole rows of samples at a time.
        w = weights.T[self.order]
        tail = np.zeros((w.shape[0] + 1, w.shape[1]))  # tail[j]: the weight of the values from the j-th on
        np.cumsum(w[::-1], axis=0, out=tail[-2::-1])
        inner = np.take(tail, self.beyond, axis=0)
        if not np.array_equal(self.beyond, self.level):  # some sums meet t exactly: they count one half
            inner += np.take(tail, self.level, axis=0)
            inner *= 0.5
        return np.einsum("ij,ij->j", w, inner)


def bayesian_signed_rank(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    rope: float = 0.0,
    prior_strength: float = 0.5,
    n_draws: int = 50_000,
    rng: RngLike = None,
) -> DirichletPosterior:
    r"""Bayesian signed-rank test over tasks (Benavoli et al., 2014, 2017).

    One score per task and model; :math:`z_i = a_i - b_i` over the
    :math:`n` tasks. The distribution of the differences gets a Dirichlet
    process prior whose base measure is a single pseudo-observation
    :math:`z_0 = 0` of weight :math:`s` (``prior_strength``); its posterior
    puts random weights :math:`w \sim \mathrm{Dirichlet}(s, 1, \dots, 1)` on
    :math:`z_0, z_1, \dots, z_n`. In each posterior draw the probabilities
    of the three regions are those of a Walsh average
    :math:`(z_i + z_j)/2` of two draws from the weighted differences,

    .. math::

        \theta_A = \sum_{i,j=0}^{n} w_i w_j\, H\!\Bigl(\frac{z_i + z_j}{2} - r\Bigr), \qquad
        \theta_B = \sum_{i,j=0}^{n} w_i w_j\, H\!\Bigl(-r - \frac{z_i + z_j}{2}\Bigr), \qquad
        \theta_0 = 1 - \theta_A - \theta_B,

    with :math:`H` the Heaviside step (:math:`H(0) = 1/2`) and :math:`r` the
    ``rope``. With ``rope = 0``, :math:`\theta_0 = 0` and
    :math:`\theta_B = 1 - \theta_A`. The reported probabilities are, as in
    the paper and baycomp's ``SignedRankTest``, the fractions of the
    ``n_draws`` draws in which each region is the most probable; a
    draw whose largest two region probabilities agree within 1e-12 (only
    degenerate data, such as all differences 0 with ``rope = 0``) counts
    half to each. The draws themselves are returned for the simplex plot
    (:func:`sigeval.plots.posterior_simplex`).

    The draws are made in chunks (``rng.dirichlet``, the same draws as one
    call) and each quadratic form :math:`w^\top H w` is evaluated in O(n)
    from cumulative sums of the weights over the sorted differences, without
    the n x n table of :math:`H`: 50,000 draws over 5,000 tasks take
    seconds, not the hours of a loop over the draws.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        One score per task for A and for B (the mean over its
        cross-validation, say), at least 2 tasks, in the same order.
    rope : float
        Half-width :math:`r \ge 0` of the region of practical equivalence.
    prior_strength : float
        Weight :math:`s > 0` of the pseudo-observation at 0 (baycomp's
        ``prior``, 0.5 by default).
    n_draws : int
        Number of posterior draws.
    rng : numpy.random.Generator, int or None
        Source of the Dirichlet draws.

    Returns
    -------
    DirichletPosterior

    Raises
    ------
    ValueError
        If the arrays differ in length, have fewer than 2 tasks or hold
        NaN or inf, ``rope`` is negative, ``prior_strength`` is not positive,
        the draws would need more than 4 GiB, or more than 2**30 posterior
        weights (``n_draws`` x (tasks + 1)) would be drawn.

    Notes
    -----
    The comparison of models over tasks is explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import bayesian_signed_rank
    >>> a = [0.81, 0.74, 0.92, 0.66, 0.88, 0.79, 0.71, 0.85]
    >>> b = [0.80, 0.70, 0.90, 0.67, 0.84, 0.78, 0.66, 0.84]
    >>> post = bayesian_signed_rank(a, b, rope=0.01, n_draws=20_000, rng=0)
    >>> round(post.prob_a_better, 2), round(post.prob_rope, 2), round(post.prob_b_better, 2)
    (0.98, 0.01, 0.0)
    >>> post.posterior_samples.shape
    (20000, 3)
    """
    z, rope, prior_strength, n_draws = _check_tasks(scores_a, scores_b, rope, prior_strength, n_draws)
    rng = check_rng(rng)
    m = z.size + 1
    check_memory(_signed_rank_bytes(n_draws, m), "n_draws", n_draws,
                 "the posterior draws and the weights of one chunk", itemsize=1)
    if float(n_draws) * m > _MAX_WEIGHTS:
        raise ValueError(
            f"`n_draws` = {n_draws} with {z.size} tasks would draw {float(n_draws) * m:.3g} posterior "
            f"weights (n_draws x (tasks + 1)); the limit is {float(_MAX_WEIGHTS):.3g}, a minute or two of "
            "work. Choose a smaller `n_draws`."
        )
    # Pairwise sums z_i + z_j against 2r, on values divided by a power of two
    # (exact) when they are large enough for the sums to overflow.
    top = max(float(np.max(np.abs(z))), rope)
    s = power_of_two_near(top) if top > 2.0**1000 else 1.0
    theta = _signed_rank_regions(np.r_[0.0, z / s], 2 * (rope / s), prior_strength, n_draws, rng)
    if rope > 0:
        theta[:, 1] = 1 - theta[:, 0] - theta[:, 2]
    else:
        theta[:, 1] = 0.0
        theta[:, 2] = 1 - theta[:, 0]
    np.clip(theta, 0.0, 1.0, out=theta)  # sums of products of weights can leave [0, 1] by a rounding error
    return _dirichlet_posterior(theta, rope, prior_strength, z.size)


def bayesian_sign_test(
    scores_a: ArrayLike,
    scores_b: ArrayLike,
    *,
    rope: float = 0.0,
    prior_strength: float = 1.0,
    n_draws: int = 50_000,
    rng: RngLike = None,
) -> DirichletPosterior:
    r"""Bayesian sign test over tasks (Benavoli et al., 2014, 2017).

    Counts the tasks on which A is practically better
    (:math:`z_i = a_i - b_i > r`), practically equivalent
    (:math:`|z_i| \le r`) and B practically better (:math:`z_i < -r`):
    :math:`n_A, n_0, n_B`. With the Dirichlet process prior of
    :func:`bayesian_signed_rank` (a pseudo-observation at 0, in the ROPE, of
    weight :math:`s`) the posterior of the three region probabilities is

    .. math::

        (\theta_A, \theta_0, \theta_B) \sim \mathrm{Dirichlet}(n_A + \epsilon,\; n_0 + s + \epsilon,\; n_B + \epsilon),

    with baycomp's :math:`\epsilon = 10^{-4}`, which keeps an empty cell's
    parameter positive. The probabilities are the fractions of draws in
    which each region is the most probable, as for the signed-rank test.

    With ``rope = 0`` the equivalence region is empty: differences of exactly
    0 and the pseudo-observation count half to each side, as the signed-rank
    test's Heaviside step counts them, so that
    :math:`\theta_A \sim \mathrm{Beta}(n_A + (n_0 + s)/2 + \epsilon,\; n_B + (n_0 + s)/2 + \epsilon)`
    and ``prob_rope`` is 0. (baycomp keeps a third cell for the zeros and
    renormalises the other two probabilities instead.)

    The sign test uses only the signs of the differences beyond the ROPE, not
    their sizes; it is the more robust and less powerful of the two.

    Parameters
    ----------
    scores_a, scores_b : array_like of float
        One score per task for A and for B, at least 2 tasks.
    rope : float
        Half-width :math:`r \ge 0` of the region of practical equivalence.
    prior_strength : float
        Weight :math:`s > 0` of the pseudo-observation (baycomp's ``prior``, 1
        by default).
    n_draws : int
        Number of posterior draws.
    rng : numpy.random.Generator, int or None
        Source of the Dirichlet draws.

    Returns
    -------
    DirichletPosterior

    Raises
    ------
    ValueError
        If the arrays differ in length, have fewer than 2 tasks or hold
        NaN or inf, ``rope`` is negative or ``prior_strength`` is not positive.

    Notes
    -----
    The comparison of models over tasks is explained in :ref:`ch-ranking`.

    Examples
    --------
    >>> from sigeval import bayesian_sign_test
    >>> a = [0.81, 0.74, 0.92, 0.66, 0.88, 0.79, 0.71, 0.85]
    >>> b = [0.80, 0.70, 0.90, 0.67, 0.84, 0.78, 0.66, 0.84]
    >>> post = bayesian_sign_test(a, b, rope=0.015, n_draws=20_000, rng=0)
    >>> round(post.prob_a_better, 2), round(post.prob_rope, 2), round(post.prob_b_better, 2)
    (0.37, 0.63, 0.0)
    """
    z, rope, prior_strength, n_draws = _check_tasks(scores_a, scores_b, rope, prior_strength, n_draws)
    rng = check_rng(rng)
    check_memory(3.0 * n_draws, "n_draws", n_draws, "the posterior draws")
    n_a = float(np.sum(z > rope))
    n_b = float(np.sum(z < -rope))
    n_0 = z.size - n_a - n_b
    theta = np.zeros((n_draws, 3))
    if rope > 0:
        alpha = np.array([n_a, n_0 + prior_strength, n_b]) + _SIGN_TEST_EPSILON
        theta[:] = rng.dirichlet(alpha, n_draws)
    else:
        half = (n_0 + prior_strength) / 2
        theta[:, 0] = rng.beta(n_a + half + _SIGN_TEST_EPSILON, n_b + half + _SIGN_TEST_EPSILON, n_draws)
        theta[:, 2] = 1 - theta[:, 0]
    return _dirichlet_posterior(theta, rope, prior_strength, z.size)

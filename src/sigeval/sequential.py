r"""Looking at a comparison while the seeds come in: group-sequential boundaries
and confidence sequences.

A fixed-sample interval is valid at the one sample size planned in advance.
Looked at after every new pair of runs, with a stop as soon as it excludes
zero, it rejects a true null far more often than its level says. Two remedies
keep the level:

- a **group-sequential design** (:func:`group_sequential_bounds`): a few planned
  looks, each with a critical value, chosen so that the probability of crossing
  any of them under the null is ``alpha``, the level being *spent* across the
  looks by a Lan--DeMets spending function;
- a **confidence sequence** (:func:`confidence_sequence`): an interval after
  every pair that covers the true mean difference at all sample sizes at once,
  so any stopping rule, even one chosen while looking, keeps its level.

:class:`SequentialComparison` drives either of them one pair of runs at a time
and says when the four verdicts of :ref:`ch-power` are reached. Explained in
:ref:`ch-sequential`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._group_sequential import (
    SPENDING_FUNCTIONS,
    GroupSequentialBounds,
    group_sequential_bounds,
    max_information_inflation,
    spending_alpha,
)
from ._numeric import power_of_two_near, running_mean_and_squares
from ._validation import (
    check_alpha,
    check_choice,
    check_finite_array,
    check_interval,
    check_memory,
    check_positive_real,
    check_real,
    check_unit_interval,
)

__all__ = [
    "SPENDING_FUNCTIONS",
    "SEQUENCE_METHODS",
    "SEQUENTIAL_VERDICTS",
    "GroupSequentialBounds",
    "ConfidenceSequence",
    "group_sequential_bounds",
    "spending_alpha",
    "max_information_inflation",
    "confidence_sequence",
    "SequentialComparison",
]

SEQUENCE_METHODS = ("betting", "t-mixture")
SEQUENTIAL_VERDICTS = ("continue", "different", "equivalent", "trivial", "undetermined")
# The betting sequence's limits are found on a grid over the scaled range [0, 1] (reported outward,
# so the interval only widens); this many points, processed this many pairs at a time.
_BETTING_GRID = 4001
_BETTING_BLOCK = 256
# The grid points carried beyond the last block's limits (at least).
_BETTING_MARGIN = 16
# The score types SequentialComparison.update checks without arrays (one pair of plain floats).
_PLAIN_FLOATS = (float, np.float64)


@dataclass(frozen=True)
class ConfidenceSequence:
    """Running limits valid at every number of pairs at once.

    Attributes
    ----------
    n : ndarray
        Number of pairs after each update, 1, 2, ...
    low, high : ndarray
        The limits after each pair, intersected over time (``low`` never falls and
        ``high`` never rises, except that an intersection that would be empty, which
        happens only once coverage has failed, starts again from that pair);
        infinite or at ``bounds`` while the data say nothing.
    confidence_level : float
    method : str
    """

    n: np.ndarray
    low: np.ndarray
    high: np.ndarray
    confidence_level: float
    method: str


def _differences(differences: ArrayLike) -> np.ndarray:
    d = check_finite_array(differences, "differences")
    if d.ndim != 1:
        raise ValueError(f"`differences` must be a 1-D array, in the order the pairs arrived; got shape {d.shape}.")
    return d


def _check_bounds(bounds: ArrayLike) -> tuple[float, float]:
    lo, hi = check_interval(bounds, "bounds")
    if lo == hi or hi - lo > 1e300:
        raise ValueError(f"`bounds` must have low < high and a finite width; got {(lo, hi)!r}.")
    return lo, hi


class _Betting:
    """The hedged capital process with predictable plug-in bets (Waudby-Smith & Ramdas 2024, Thm 3) for
    observations in [0, 1], carried over a grid of candidate means so that new observations extend it;
    the limits are the grid points just outside the set it does not reject.

    Only a window of the grid around that set is carried from block to block. The log capital of betting up,
    log K+(m), never rises as the candidate mean m grows (no factor 1 + bet (x - m) does: the bet min(lambda,
    c/m) never rises either), and that of betting down, log K-(m), never falls. So if the window's first point
    is rejected by K+ and its last by K-, every point outside is rejected too; in a row where nothing is
    inside, the edges must also reach the least capital in the window, which is then the least of the grid.
    No margin for rounding is needed. As m falls from m', the log of each factor with y = bet (x - m') > 0
    grows at a rate of y / (1 + y) = 1 - exp(-z) at least, z being that log; the other logs are not positive,
    so these z sum to log K+(m') at least, and by concavity log K+(m) >= log K+(m') + (m' - m)(1 - exp(-log
    K+(m'))). At an edge that reaches the threshold, log(2/alpha) >= log 2, the points outside lie 1/8000 per
    grid step above it at least (log K- alike, mirrored). The bets are at most sqrt(8 log(2/alpha) / log 2),
    about 21, so z <= 3.1 and the gap is also at least 0.3 x (m' - m) x the largest magnitude of a partial
    sum, whereas summing n terms rounds by n x 1.1e-16 x that magnitude at most: less for any n below 10^11.

    A point that leaves the window keeps its capital and the block it stopped at; when the window reaches it
    again it is brought up to date block by block, with the same terms summed in the same order. The capital
    of every point, and so the limits, are those of the whole grid carried at every pair
    (tests/test_sequential.py compares the two); the work is the window's width per pair instead of the
    grid's 4001 points.
    """

    def __init__(self, alpha: float):
        self.grid = np.linspace(0.0, 1.0, _BETTING_GRID)
        with np.errstate(divide="ignore"):
            # The bets on a candidate mean m are truncated at c/m and c/(1 - m), with c = 1/2, one of the two
            # values the paper recommends (1/2 or 3/4): every factor 1 +- bet (x - m) stays at 1/2 or more.
            self.cap_up, self.cap_down = 0.5 / self.grid, 0.5 / (1.0 - self.grid)
        self._up, self._down = np.zeros(self.grid.size), np.zeros(self.grid.size)
        self._done = np.zeros(self.grid.size, dtype=np.intp)  # blocks in each point's capital
        self._blocks: list[tuple[np.ndarray, np.ndarray]] = []  # every block's observations and bets
        self._window, self._margin = (0, self.grid.size), _BETTING_MARGIN
        self.n, self.total, self.squares = 0, 0.0, 0.0
        self.log_bet_numerator = np.log(2.0 * np.log(2.0 / alpha))
        self.threshold = np.log(2.0 / alpha)  # hedged: max(K+/2, K-/2) < 1/alpha

    @property
    def log_up(self) -> np.ndarray:
        """log K+ at every grid point after the observations so far."""
        self._catch_up(0, self.grid.size)
        return self._up

    @property
    def log_down(self) -> np.ndarray:
        """log K- at every grid point after the observations so far."""
        self._catch_up(0, self.grid.size)
        return self._down

    def _bets(self, x: np.ndarray) -> np.ndarray:
        t = self.n + np.arange(1, x.size + 1)
        mean_hat = (0.5 + self.total + np.cumsum(x)) / (t + 1)
        var_hat = (0.25 + self.squares + np.cumsum((x - mean_hat) ** 2)) / (t + 1)
        var_before = np.concatenate(([(0.25 + self.squares) / (self.n + 1)], var_hat[:-1]))
        self.n, self.total, self.squares = int(t[-1]), self.total + float(x.sum()), (t[-1] + 1) * var_hat[-1] - 0.25
        return np.exp(0.5 * (self.log_bet_numerator - np.log(var_before * t * np.log1p(t))))

    def _capital(self, xb: np.ndarray, lb: np.ndarray, points: slice) -> tuple[np.ndarray, np.ndarray]:
        """log K+ and log K- of ``points`` after each pair of one block (xb, lb: columns), from their capital
        before it."""
        step = xb - self.grid[points]
        up = self._up[points] + np.cumsum(np.log1p(np.minimum(lb, self.cap_up[points]) * step), axis=0)
        down = self._down[points] + np.cumsum(np.log1p(-np.minimum(lb, self.cap_down[points]) * step), axis=0)
        return up, down

    def _catch_up(self, lo: int, hi: int) -> None:
        """Bring the points lo..hi - 1 up to date, block by block from the oldest one they lack."""
        behind = lo + np.flatnonzero(self._done[lo:hi] < len(self._blocks))
        if not behind.size:
            return
        for k in range(int(self._done[behind].min()), len(self._blocks)):
            xb, lb = self._blocks[k]
            points = behind[self._done[behind] == k]  # those whose capital reaches up to block k
            if points.size:
                span = slice(int(points[0]), int(points[-1]) + 1)
                up, down = self._capital(xb, lb, span)
                keep = points - span.start
                self._up[points], self._down[points] = up[-1, keep], down[-1, keep]
                self._done[points] = k + 1

    def _block(self, xb: np.ndarray, lb: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The first and last grid index not rejected after each pair of a block, as the whole grid gives them."""
        size = self.grid.size
        lo, hi = self._window
        while True:
            self._catch_up(lo, hi)
            up, down = self._capital(xb, lb, slice(lo, hi))
            capital = np.maximum(up, down)
            inside = capital < self.threshold
            # What the edges must reach, so that every point outside exceeds it: the threshold (rejected), or
            # in a row with nothing inside the least capital in the window (which then holds the least of all).
            floor = np.maximum(capital.min(axis=1), self.threshold)
            left_ok = lo == 0 or bool(np.all(up[:, 0] >= floor))
            right_ok = hi == size or bool(np.all(down[:, -1] >= floor))
            if left_ok and right_ok:
                break
            self._margin *= 2  # widen the side that failed, by twice as much each time
            lo = lo if left_ok else max(lo - self._margin, 0)
            hi = hi if right_ok else min(hi + self._margin, size)
        self._up[lo:hi], self._down[lo:hi] = up[-1], down[-1]
        self._blocks.append((xb, lb))
        self._done[lo:hi] = len(self._blocks)
        empty = ~inside.any(axis=1)
        inside[empty, np.argmin(capital[empty], axis=1)] = True
        first = lo + np.argmax(inside, axis=1)
        last = hi - 1 - np.argmax(inside[:, ::-1], axis=1)
        # The next block's window: this block's limits and a margin, which halves back while it suffices.
        self._margin = max(_BETTING_MARGIN, self._margin // 2)
        self._window = (max(int(first.min()) - self._margin, 0), min(int(last.max()) + 1 + self._margin, size))
        return first, last

    def extend(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        lam = self._bets(x)
        low, high = np.empty(x.size), np.empty(x.size)
        for start in range(0, x.size, _BETTING_BLOCK):  # blocks of pairs, so memory stays window x block
            block = slice(start, start + _BETTING_BLOCK)
            first, last = self._block(x[block, None], lam[block, None])
            low[block] = self.grid[np.maximum(first - 1, 0)]
            high[block] = self.grid[np.minimum(last + 1, self.grid.size - 1)]
        return low, high


def _t_mixture_limits(d: np.ndarray, alpha: float, prior_precision: float) -> tuple[np.ndarray, np.ndarray]:
    r"""The t-mixture confidence sequence for a normal mean with unknown variance (Wang & Ramdas 2023's
    Gaussian-mixture version of Lai 1976): the set of :math:`\mu` where the mixture martingale
    :math:`\sqrt{c^2/(n+c^2)}\,(V/(V - S^2/(n+c^2)))^{n/2}` of the centred data (S their sum, V their
    sum of squares) stays below 1/alpha, solved in closed form."""
    n = np.arange(1, d.size + 1, dtype=float)
    mean, q = running_mean_and_squares(d)
    return _t_mixture_from_sums(mean, q, 1e-28 * n, *_t_mixture_factors(n, alpha, prior_precision))


def _t_mixture_factors(n: np.ndarray, alpha: float, prior_precision: float) -> tuple[np.ndarray, np.ndarray]:
    """What the limits at ``n`` pairs need besides the data: kappa, and n (n - kappa) (not positive where the
    sequence is still unbounded). The half-width is sqrt(q kappa / (n (n - kappa)))."""
    c2 = prior_precision
    log_a = np.log(1.0 / alpha) + 0.5 * np.log((n + c2) / c2)
    r = np.exp(2.0 * log_a / n)
    kappa = (1.0 - 1.0 / r) * (n + c2)
    return kappa, np.where(n > kappa, n * (n - kappa), 0.0)


def _t_mixture_from_sums(
    mean: np.ndarray, q: np.ndarray, flat: np.ndarray, kappa: np.ndarray, denominator: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """The limits from the running mean, the sum of squared deviations ``q`` and the factors of
    :func:`_t_mixture_factors`; ``flat`` is the ``q`` at or below which the differences count as all equal."""
    # One difference (q = 0), or differences that are all equal, say nothing about the spread: a normal model
    # would collapse the interval on the common value, which the next different pair would contradict.
    bounded = (denominator > 0) & (q > flat)
    half = np.full(mean.shape, np.inf)
    half[bounded] = np.sqrt(q[bounded] * kappa[bounded] / denominator[bounded])
    return mean - half, mean + half


class _TMixture:
    """The t-mixture limits of :class:`SequentialComparison`, carried from pair to pair: the running sum and
    sum of squared deviations (Welford's, as :func:`running_mean_and_squares`) go on where the last pair left
    them, so a new pair costs O(1) (:func:`confidence_sequence` recomputes them over every pair).

    They are kept in units of the power of two at or below the largest |difference| so far (the squares
    cannot overflow); when a larger difference arrives the sums are rescaled by a power of two, which is
    exact, so the limits are those of :func:`confidence_sequence` on the same differences up to rounding."""

    def __init__(self, alpha: float, prior_precision: float):
        self.alpha, self.prior_precision = alpha, prior_precision
        self.n, self.total, self.squares, self.mean = 0, 0.0, 0.0, 0.0
        self.scale, self.top = 1.0, 0.0
        self.kappa: list[float] = []  # the factors at n = 1, 2, ..., computed for twice the pairs seen
        self.denominator: list[float] = []

    def add(self, d: float) -> tuple[float, float]:
        """The limits after one more difference ``d``."""
        n = self.n + 1
        if n > len(self.kappa):
            kappa, denominator = _t_mixture_factors(np.arange(1.0, 2.0 * n + 1.0), self.alpha, self.prior_precision)
            self.kappa, self.denominator = kappa.tolist(), denominator.tolist()
        self.top = max(self.top, abs(d))
        scale = power_of_two_near(self.top) if self.top > 0 else 1.0
        if scale != self.scale:
            ratio = self.scale / scale
            self.total, self.squares, self.mean = self.total * ratio, self.squares * ratio * ratio, self.mean * ratio
            self.scale = scale
        x = d / scale
        self.total += x
        mean = self.total / n
        self.squares += (x - self.mean) * (x - mean)
        self.n, self.mean = n, mean
        relative = self.top / scale
        # As _t_mixture_from_sums, in floats: the same operations in the same order.
        if self.denominator[n - 1] > 0 and self.squares > 1e-28 * n * (relative * relative):
            half = math.sqrt(self.squares * self.kappa[n - 1] / self.denominator[n - 1])
        else:
            half = math.inf
        return (mean - half) * scale, (mean + half) * scale


def confidence_sequence(
    differences: ArrayLike,
    *,
    bounds: tuple[float, float] | None = None,
    confidence_level: float = 0.95,
    method: Literal["betting", "t-mixture"] = "betting",
    prior_precision: float = 1.0,
) -> ConfidenceSequence:
    r"""An interval for the mean difference after every pair, valid at all sample sizes at once.

    With probability at least ``confidence_level``, the true mean lies in every
    one of the intervals, whatever the number of pairs; a comparison may be
    looked at after every pair and stopped on any rule.

    The intervals returned are the running intersection of the intervals
    computed at each number of pairs: all of them hold the mean at once with
    that probability, so their intersection does too, and it never widens
    (where it would be empty, which happens only once coverage has failed,
    it starts again from that pair). The interval of one number of pairs
    alone is wider.

    ``method="betting"`` needs only that every difference lies within
    ``bounds`` (for differences of accuracies, ``(-1, 1)``): the hedged capital
    process with predictable plug-in bets of Waudby-Smith and Ramdas (2024),
    whose limits are found on a grid of 4001 points over ``bounds`` and reported
    outward. Over a range much wider than the spread of the differences it is
    wide at a few pairs.

    ``method="t-mixture"`` assumes normal differences with unknown variance,
    the sequential counterpart of the paired t interval: Lai's (1976)
    construction (a right-Haar mixture over the spread) with the flat mixture
    over the mean replaced by a Gaussian one, as Wang and Ramdas (2023) do to
    obtain a test martingale in the filtration of the scale-invariant
    statistics. The mixture is :math:`N(0, 1/c^2)` over the standardised mean
    (``prior_precision`` is :math:`c^2`); it decides at which sample sizes the
    sequence is tightest, not whether it is valid.

    Parameters
    ----------
    differences : array_like
        Paired differences A - B, in the order they arrived.
    bounds : (float, float), optional
        Known limits of every difference; required by ``"betting"``.
    confidence_level : float
        In (0, 1).
    method : {"betting", "t-mixture"}
    prior_precision : float
        :math:`c^2 > 0` of the t-mixture.

    Returns
    -------
    ConfidenceSequence

    Raises
    ------
    ValueError
        For differences that are empty, not finite or outside ``bounds``, a
        level outside (0, 1), missing bounds for ``"betting"``, or an unknown method.

    Notes
    -----
    Explained in :ref:`ch-sequential`.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import confidence_sequence
    >>> d = np.random.default_rng(0).normal(0.01, 0.004, size=30)
    >>> cs = confidence_sequence(d, method="t-mixture")
    >>> bool(cs.low[-1] > 0)
    True
    """
    level = check_unit_interval(confidence_level, "confidence_level")
    method = check_choice(method, "method", SEQUENCE_METHODS)
    prior_precision = check_positive_real(prior_precision, "prior_precision")
    if prior_precision > 1e12:
        raise ValueError(f"`prior_precision` must be at most 1e12; got {prior_precision!r}.")
    d = _differences(differences)
    check_memory(_sequence_bytes(d.size, method), "differences", f"{d.size} differences",
                 f"the {method} sequence", itemsize=1,
                 advice="Pass fewer differences (the limits of a prefix are the sequence's first ones).")
    alpha = 1.0 - level
    if method == "betting":
        if bounds is None:
            raise ValueError("`bounds` must be given for method='betting' (for differences of accuracies, (-1, 1)).")
        lo, hi = _check_bounds(bounds)
        outside = (d < lo) | (d > hi)
        if outside.any():
            raise ValueError(
                f"`differences` must lie within `bounds` {(lo, hi)}; got {int(outside.sum())} outside, "
                f"the first {float(d[outside][0])!r}."
            )
        low, high = _Betting(alpha).extend((d - lo) / (hi - lo))
        low, high = lo + low * (hi - lo), lo + high * (hi - lo)
    else:
        scale = float(np.max(np.abs(d))) or 1.0  # scale-free: computed on d / scale to avoid overflow
        low, high = _t_mixture_limits(d / scale, alpha, prior_precision)
        low, high = low * scale, high * scale
        if bounds is not None:
            lo, hi = _check_bounds(bounds)
            low, high = np.maximum(low, lo), np.minimum(high, hi)
    low, high = _running_intersection(low, high)
    return ConfidenceSequence(np.arange(1, d.size + 1), low, high, level, method)


def _sequence_bytes(n: int, method: str) -> float:
    """The memory of :func:`confidence_sequence` (measured in tests/test_sequential.py): arrays per difference
    (the result, the running sums or the bets and blocks kept), and for betting one block over the whole grid."""
    if method == "betting":
        return 48.0 * n + 4 * 8.0 * _BETTING_GRID * _BETTING_BLOCK
    return 96.0 * n


def _running_intersection(low: np.ndarray, high: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The intersection of the intervals so far, started afresh where it would be empty.

    Each interval covers the truth at every n simultaneously with the stated probability, so their
    intersection does too; an empty intersection means that coverage has already failed (which
    happens with probability at most alpha), and the intersection then starts again from that n.
    """
    raw_low, raw_high = low, high
    low, high = low.copy(), high.copy()
    start = 0
    while True:  # a loop over the rare restarts, not over pairs
        low[start:] = np.maximum.accumulate(raw_low[start:])
        high[start:] = np.minimum.accumulate(raw_high[start:])
        empty = np.flatnonzero(low[start:] > high[start:])
        if not empty.size:
            return low, high
        start += int(empty[0])


class SequentialComparison:
    r"""Compare two procedures one pair of runs at a time, and stop at a verdict.

    Each :meth:`update` adds pairs of scores (A and B trained with the same
    seed, say) and returns the current decision: ``"continue"`` until the
    interval has settled, then one of the verdicts of :ref:`ch-power`. With a
    confidence sequence (``method="betting"`` or ``"t-mixture"``, level
    :math:`1 - \alpha`, valid whenever one stops) the comparison stops when the
    interval

    - lies inside ``(-margin, margin)``: ``"trivial"`` if it excludes
      ``threshold`` as well, ``"equivalent"`` otherwise (more pairs could
      still show a difference, but none can take the interval out of the
      margin: the practical question is settled);
    - excludes ``threshold`` and lies wholly beyond the margin (at or above
      ``margin``, or at or below ``-margin``): ``"different"``, a difference
      shown to be larger than the margin; without a margin, as soon as it
      excludes ``threshold``.

    At ``max_pairs`` without either, the verdict is that of the interval then
    (:func:`~sigeval.equivalence.verdict_from_pvalues`'s table: ``"different"``
    if it excludes ``threshold`` though it reaches into the margin,
    ``"undetermined"`` if it holds ``threshold`` and reaches beyond the margin).

    With ``method="group-sequential"`` the paired t statistic is tested only
    at the planned ``looks`` against :func:`group_sequential_bounds`
    (O'Brien--Fleming type) mapped onto t quantiles: a crossing stops with
    ``"different"``; at the last look without one, a paired TOST at ``alpha``
    decides ``"equivalent"`` when a ``margin`` is given, else ``"undetermined"``.

    Parameters
    ----------
    threshold : float, optional
        The value the mean difference A - B is tested against (0 if omitted).
    margin : float, optional
        The equivalence margin, > 0; without it, only ``"different"`` can be reached.
    bounds : (float, float), optional
        Known limits of every score (for accuracies ``(0, 1)``); required by
        ``"betting"``, which works on differences within ``(low - high, high - low)``.
    alpha : float
        In (0, 1).
    method : {"betting", "t-mixture", "group-sequential"}
    looks : sequence of int, optional
        Numbers of pairs at which a group-sequential design looks (increasing,
        the first at least 2); required by ``"group-sequential"``.
    max_pairs : int, optional
        The most pairs a comparison may use; the last look by default.

    Attributes
    ----------
    decision : str
        One of :data:`SEQUENTIAL_VERDICTS`.
    decided_at : int or None
        The number of pairs at which the decision was reached.
    low, high : float
        The current interval. For ``"group-sequential"``, the fixed-sample
        :math:`1 - 2\alpha` t interval of the latest look (90% at the default
        ``alpha``), the one a TOST at the last look reads: not a
        :math:`1 - \alpha` interval, and not a confidence interval after an
        early stop.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import SequentialComparison
    >>> rng = np.random.default_rng(0)
    >>> comp = SequentialComparison(method="t-mixture", margin=0.005, max_pairs=50)
    >>> comp.run(lambda i: (0.80 + rng.normal(0, 0.003), 0.79 + rng.normal(0, 0.003)))
    'different'
    >>> comp.n
    6
    """

    def __init__(
        self,
        *,
        threshold: float | None = None,
        margin: float | None = None,
        bounds: tuple[float, float] | None = None,
        alpha: float = 0.05,
        method: Literal["betting", "t-mixture", "group-sequential"] = "betting",
        looks: ArrayLike | None = None,
        max_pairs: int | None = None,
    ):
        self.alpha = check_alpha(alpha)
        self.method = check_choice(method, "method", (*SEQUENCE_METHODS, "group-sequential"))
        self.threshold = 0.0 if threshold is None else check_real(threshold, "threshold")
        self.margin = None if margin is None else check_positive_real(margin, "margin")
        self.bounds = None if bounds is None else _check_bounds(bounds)
        if self.method == "betting" and self.bounds is None:
            raise ValueError("`bounds` must be given for method='betting' (for accuracies, (0, 1)).")
        self.looks: np.ndarray | None = None
        if self.method == "group-sequential":
            if looks is None:
                raise ValueError("`looks` must be given for method='group-sequential' (say [5, 10, 20]).")
            self.looks = np.asarray(looks)
            if self.looks.ndim != 1 or self.looks.size == 0 or not np.issubdtype(self.looks.dtype, np.integer):
                raise ValueError(f"`looks` must be increasing whole numbers of pairs; got {looks!r}.")
            if np.any(self.looks < 2) or np.any(np.diff(self.looks) <= 0):
                raise ValueError(f"`looks` must increase and start at 2 or more; got {self.looks.tolist()}.")
            # The information at a look is its share of the last look's pairs.
            design = group_sequential_bounds(self.looks.size, alpha=self.alpha,
                                             information_rates=self.looks / self.looks[-1])
            self.critical = design.t_critical_values(self.looks)
            if max_pairs is not None and max_pairs != self.looks[-1]:
                raise ValueError(f"`max_pairs` must be the last look, {self.looks[-1]}; got {max_pairs!r}.")
            max_pairs = int(self.looks[-1])
        elif looks is not None:
            raise ValueError(f"`looks` is for method='group-sequential'; got method={self.method!r}.")
        if max_pairs is not None and (isinstance(max_pairs, bool) or not isinstance(max_pairs, (int, np.integer))
                                      or max_pairs < 2):
            raise ValueError(f"`max_pairs` must be a whole number >= 2; got {max_pairs!r}.")
        self.max_pairs = max_pairs
        self._buffer, self._n = np.empty(16), 0
        self._betting = _Betting(self.alpha) if self.method == "betting" else None
        self._t_mixture = _TMixture(self.alpha, 1.0) if self.method == "t-mixture" else None
        self.low, self.high = -np.inf, np.inf
        self.decision = "continue"
        self.decided_at: int | None = None

    @property
    def n(self) -> int:
        """Pairs so far."""
        return self._n

    @property
    def differences(self) -> np.ndarray:
        """The differences A - B so far, in order."""
        return self._buffer[:self._n].copy()

    def update(self, scores_a: ArrayLike, scores_b: ArrayLike) -> str:
        """Add one pair of scores, or several in order, and return the decision.

        Several pairs at once decide as one update per pair would: the decision is that of the
        first pair that reached one (``decided_at`` says which); the pairs after it are kept in
        :attr:`differences` but do not change it.
        """
        if self.decision != "continue":
            raise ValueError(f"the comparison has reached its decision {self.decision!r} after {self.n} pairs; "
                             "start a new SequentialComparison for new runs.")
        new = self._one_difference(scores_a, scores_b)
        if new is None:
            new = self._differences_checked(scores_a, scores_b)
        if self._n + new.size > self._buffer.size:  # doubling: appending costs O(1) per pair on average
            self._buffer = np.concatenate((self._buffer[:self._n], np.empty(max(self._n, new.size))))
        self._buffer[self._n:self._n + new.size] = new
        self._n += new.size
        if self.method == "group-sequential":
            self._look()
        else:
            self._sequence(new)
        return self.decision

    def _one_difference(self, scores_a: object, scores_b: object) -> np.ndarray | None:
        """A - B for one pair of ordinary floats that pass every check of :meth:`update`, without building
        arrays first (most updates add one pair; this keeps them at a few microseconds); None otherwise, and
        the general checks then say what is wrong."""
        if type(scores_a) not in _PLAIN_FLOATS or type(scores_b) not in _PLAIN_FLOATS:
            return None
        a, b = float(scores_a), float(scores_b)  # type: ignore[arg-type]
        within = self.bounds is None or (self.bounds[0] <= min(a, b) and max(a, b) <= self.bounds[1])
        # (No room to check: at max_pairs the comparison has decided, and update refused before.)
        if not (math.isfinite(a) and math.isfinite(b) and within and math.isfinite(a - b)):
            return None
        return np.array([a - b])

    def _differences_checked(self, scores_a: ArrayLike, scores_b: ArrayLike) -> np.ndarray:
        """A - B for the pairs of an update, after checking them."""
        a, b = (np.atleast_1d(np.asarray(v)) for v in (scores_a, scores_b))
        for v, name in ((a, "scores_a"), (b, "scores_b")):
            if v.dtype.kind not in "iuf":  # integers or floats: no bool, complex, text or objects
                raise TypeError(f"`{name}` must hold real numbers; got dtype {v.dtype}.")
            if not np.all(np.isfinite(v)):
                raise ValueError(f"`{name}` must be finite; got {v.tolist()} (a failed run cannot be paired).")
            if self.bounds is not None and np.any((v < self.bounds[0]) | (v > self.bounds[1])):
                raise ValueError(f"`{name}` must lie within `bounds` {self.bounds}; got {v.tolist()}.")
        if a.ndim != 1 or b.ndim != 1:
            raise ValueError(f"`scores_a` and `scores_b` must be one score or a 1-D array each; got shapes {a.shape} "
                             f"and {b.shape}.")
        if a.shape != b.shape:
            raise ValueError(
                f"`scores_a` and `scores_b` must be paired, with the same length; got {a.size} and {b.size}."
            )
        if self.max_pairs is not None and self.n + a.size > self.max_pairs:
            raise ValueError(f"this update would exceed `max_pairs` ({self.max_pairs}); got {a.size} pairs after {self.n}.")
        with np.errstate(over="ignore"):  # refused just below, with its own message (both are finite)
            new = a.astype(float) - b.astype(float)
        if not np.isfinite(new).all():
            raise ValueError(f"`scores_a - scores_b` overflows float64 (|difference| > 1.8e308); got {new.tolist()}: "
                             "rescale the scores (e.g. divide both by the same power of ten).")
        return new

    def _sequence(self, new: np.ndarray) -> None:
        limits: Iterable[tuple[float, float]]
        if self._betting is not None and self.bounds is not None:
            lo, hi = self.bounds
            width = 2.0 * (hi - lo)
            low, high = self._betting.extend((new + (hi - lo)) / width)
            limits = zip((low * width - (hi - lo)).tolist(), (high * width - (hi - lo)).tolist())
        else:
            assert self._t_mixture is not None
            limits = map(self._t_mixture.add, new.tolist())  # lazily: pairs after a decision are not needed
            if self.bounds is not None:  # the differences lie within (low - high, high - low) of the scores
                width = self.bounds[1] - self.bounds[0]
                limits = ((max(lo_t, -width), min(hi_t, width)) for lo_t, hi_t in limits)
        start = self.n - new.size
        for i, (lo_t, hi_t) in enumerate(limits):
            # The running intersection (an empty one starts afresh, as in _running_intersection), pair by pair.
            if max(self.low, lo_t) <= min(self.high, hi_t):
                lo_t, hi_t = max(self.low, lo_t), min(self.high, hi_t)
            self.low, self.high = lo_t, hi_t
            last = self.max_pairs is not None and start + i + 1 >= self.max_pairs
            self.decision = self._verdict(self.low, self.high, settled=not last)
            if self.decision != "continue":  # the verdict of the first pair that reached one
                self.decided_at = start + i + 1
                break

    def _verdict(self, low: float, high: float, *, settled: bool) -> str:
        """The verdict of an interval; with ``settled``, only one that more pairs cannot change."""
        different = low > self.threshold or high < self.threshold
        inside = self.margin is not None and -self.margin < low and high < self.margin
        if settled and different and self.margin is not None and not inside:
            different = low >= self.margin or high <= -self.margin
        verdict = ("continue", "equivalent", "different", "trivial")[2 * different + inside]
        return "undetermined" if verdict == "continue" and not settled else verdict

    def _look(self) -> None:
        assert self.looks is not None
        for k in np.flatnonzero(self.looks <= self.n):
            n = int(self.looks[k])
            d = self._buffer[:n]
            se = d.std(ddof=1) / np.sqrt(n)
            mean = d.mean()
            if se == 0:
                raise ValueError(f"the first {n} differences are all equal: the paired t statistic is undefined.")
            half = stats.t.ppf(1.0 - self.alpha, n - 1) * se
            self.low, self.high = mean - half, mean + half  # the fixed-n interval at this look, for display
            if abs(mean - self.threshold) / se >= self.critical[k]:
                self.decision, self.decided_at = "different", n
                return
        if self.n >= self.looks[-1]:
            tost = self.margin is not None and -self.margin < self.low and self.high < self.margin
            self.decision, self.decided_at = ("equivalent" if tost else "undetermined"), int(self.looks[-1])

    def run(self, run_pair: Callable[[int], tuple[float, float]], *, max_pairs: int | None = None) -> str:
        """Call ``run_pair(i)`` for pairs ``i = n, n + 1, ...`` (each returns the scores of A and B)
        until a decision or ``max_pairs`` pairs; return the decision."""
        limit = self.max_pairs if max_pairs is None else max_pairs
        if limit is None:
            raise ValueError("`max_pairs` must be given, here or to SequentialComparison, so that run() ends.")
        if not callable(run_pair):
            raise TypeError(f"`run_pair` must be callable; got {type(run_pair).__name__}.")
        while self.decision == "continue" and self.n < limit:
            self.update(*run_pair(self.n))
        return self.decision


"""Group-sequential designs: a few planned looks at a comparison, the level spent across them by a
Lan--DeMets spending function, the critical values by numerical integration of the score statistic's
sub-density from look to look, and the inflation of the maximum sample size that keeps the power.

Public through :mod:`sigeval.sequential` (its own module only to keep each module short). Explained in
:ref:`ch-sequential`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Literal

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, stats

from ._validation import (
    check_alpha,
    check_choice,
    check_finite_array,
    check_positive_int,
    check_unit_interval,
)

__all__ = [
    "SPENDING_FUNCTIONS",
    "GroupSequentialBounds",
    "group_sequential_bounds",
    "spending_alpha",
    "max_information_inflation",
]


SPENDING_FUNCTIONS = ("obrien-fleming", "pocock")
_ALTERNATIVES = ("two-sided", "greater")
# Points of the grid on which the sub-density of the score statistic is carried from look to look:
# with Simpson's rule the boundaries move by less than 1e-8 from 401 to 3201 points (two-sided), and
# from 801 to 3201 (one-sided, whose region reaches 10 sd below the mean path).
_GRID_POINTS = 401
_GRID_POINTS_ONE_SIDED = 801


def spending_alpha(
    t: ArrayLike, *, alpha: float = 0.05, spending: Literal["obrien-fleming", "pocock"] = "obrien-fleming"
) -> np.ndarray:
    r"""The level spent up to information fraction ``t`` (Lan--DeMets spending functions).

    For a one-sided level :math:`\alpha_1`,

    .. math::

        \alpha_1^{\mathrm{OF}}(t) = 2 - 2\,\Phi\!\left(z_{1-\alpha_1/2}/\sqrt{t}\right),
        \qquad
        \alpha_1^{\mathrm{P}}(t) = \alpha_1 \ln\bigl(1 + (e - 1)\,t\bigr),

    the O'Brien--Fleming type and the Pocock type; both equal :math:`\alpha_1` at
    :math:`t = 1`. Here ``alpha`` is the one-sided level :math:`\alpha_1`.

    Parameters
    ----------
    t : array_like
        Information fractions in (0, 1].
    alpha : float
        One-sided level, in (0, 1).
    spending : {"obrien-fleming", "pocock"}
        The spending function.

    Returns
    -------
    ndarray
        The cumulative level spent at each ``t``.

    Examples
    --------
    >>> from sigeval.sequential import spending_alpha
    >>> spending_alpha([0.5, 1.0], alpha=0.025).round(5)
    array([0.00153, 0.025  ])
    """
    alpha = check_alpha(alpha)
    spending = check_choice(spending, "spending", SPENDING_FUNCTIONS)
    t = check_finite_array(t, "t")
    if np.any(t <= 0) or np.any(t > 1):
        raise ValueError(f"`t` must hold information fractions in (0, 1]; got {t.tolist()}.")
    return _spent(t, alpha, spending)


def _spent(t: np.ndarray, alpha: float, spending: str) -> np.ndarray:
    """The level spent by ``t`` at the one-sided level ``alpha`` (a two-sided design's half of its level)."""
    if spending == "obrien-fleming":
        # 2 sf(.) rather than 2 - 2 cdf(.): at small t the level spent is far below the float spacing near 1.
        return 2.0 * stats.norm.sf(stats.norm.isf(alpha / 2.0) / np.sqrt(t))
    return alpha * np.log1p((np.e - 1.0) * t)


@dataclass(frozen=True)
class GroupSequentialBounds:
    """Critical values of a group-sequential design.

    Attributes
    ----------
    information_rates : ndarray
        The information fraction of each look (the fraction of the planned pairs).
    critical_values : ndarray
        z critical value at each look: reject when the z statistic's absolute
        value (``"two-sided"``) or value (``"greater"``) reaches it.
    alpha_spent : ndarray
        The cumulative level spent up to each look (both sides together for a
        two-sided design); its last value is ``alpha``.
    alpha : float
    spending : str
    alternative : str
    """

    information_rates: np.ndarray
    critical_values: np.ndarray
    alpha_spent: np.ndarray
    alpha: float
    spending: str
    alternative: str

    def t_critical_values(self, n_pairs: ArrayLike) -> np.ndarray:
        r"""The critical values mapped onto paired t statistics with ``n_pairs`` pairs at the looks.

        Each z value :math:`c_k` becomes the t quantile of the same tail,
        :math:`t_{n_k - 1}^{-1}(\Phi(c_k))`, so that each look keeps the
        nominal level of its z boundary: alone, it rejects a true null as often
        as the z boundary rejects a z statistic. The design's incremental exit
        probabilities (the increments of ``alpha_spent``) are those of the
        joint law of z statistics, which the t statistics do not follow, so
        the overall level is only close to ``alpha`` (the approximate
        group-sequential t-test of Jennison & Turnbull, 2000; their 1991 paper
        computes exact boundaries). Plain z values on t statistics of a few
        seeds reject far too often (measured in ``tests/test_sequential.py``
        and :ref:`ch-sequential`).

        Examples
        --------
        >>> from sigeval import group_sequential_bounds
        >>> b = group_sequential_bounds(3)
        >>> b.t_critical_values([5, 10, 20]).round(3)
        array([12.92 ,  3.135,  2.132])
        """
        n = np.asarray(n_pairs)
        if n.shape != self.critical_values.shape or not np.issubdtype(n.dtype, np.integer):
            raise ValueError(
                f"`n_pairs` must hold one whole number of pairs per look ({self.critical_values.size}); "
                f"got {np.asarray(n_pairs).tolist()}."
            )
        if np.any(n < 2) or np.any(np.diff(n) <= 0):
            raise ValueError(f"`n_pairs` must increase and start at 2 or more; got {n.tolist()}.")
        return stats.t.ppf(stats.norm.cdf(self.critical_values), n - 1)


def _information_rates(n_looks: int, information_rates: ArrayLike | None) -> np.ndarray:
    n_looks = check_positive_int(n_looks, "n_looks")
    if n_looks > 50:
        raise ValueError(f"`n_looks` must be at most 50 (with more looks, use a confidence sequence); got {n_looks}.")
    if information_rates is None:
        return np.arange(1, n_looks + 1) / n_looks
    t = check_finite_array(information_rates, "information_rates").ravel()
    if t.size != n_looks or t[0] <= 0 or np.any(np.diff(t) <= 0) or not np.isclose(t[-1], 1.0):
        raise ValueError(
            f"`information_rates` must hold {n_looks} increasing fractions in (0, 1] ending at 1; got {t.tolist()}."
        )
    t[-1] = 1.0
    return t


def _simpson_weights(m: int, width: float) -> np.ndarray:
    w = np.ones(m)
    w[1:-1:2], w[2:-1:2] = 4.0, 2.0
    return w * width / (3.0 * (m - 1))


class _Recursion:
    """The sub-density of the score statistic W_k = Z_k sqrt(t_k) on the continuation region, look by look
    (Armitage, McPherson & Rowe 1969), under a drift ``theta`` (W(t) ~ N(theta t, t))."""

    def __init__(self, two_sided: bool, theta: float = 0.0):
        self.two_sided, self.theta = two_sided, theta
        # Before the first look W_0 = 0 surely: a one-point grid holding all the mass.
        self.grid, self.mass = np.zeros(1), np.ones(1)
        self.t_prev = 0.0

    def exit_probability(self, c: float, t: float, *, both_sides: bool = True) -> float:
        u, mass = self.grid, self.mass
        s = np.sqrt(t - self.t_prev)
        mean = u + self.theta * (t - self.t_prev)
        b = c * np.sqrt(t)
        upper = stats.norm.sf((b - mean) / s)
        lower = stats.norm.cdf((-b - mean) / s) if self.two_sided and both_sides else 0.0
        return float(np.sum(mass * (upper + lower)))

    def advance(self, c: float, t: float) -> None:
        u, mass = self.grid, self.mass
        s = np.sqrt(t - self.t_prev)
        b = c * np.sqrt(t)
        if self.two_sided:
            low, points = -b, _GRID_POINTS
        else:
            # The continuing paths' sub-density lies below W_k's own law N(theta t, t): cut 10 sd below its
            # mean (mass < 1e-23). The region is wider than a two-sided one, so it takes more points.
            low, points = min(b, self.theta * t) - 10.0 * np.sqrt(t), _GRID_POINTS_ONE_SIDED
        grid = np.linspace(low, b, points)
        mean = u + self.theta * (t - self.t_prev)
        density = stats.norm.pdf((grid[:, None] - mean[None, :]) / s) @ mass / s
        # The mass of each grid point: the density times its Simpson weight.
        self.grid, self.mass, self.t_prev = grid, density * _simpson_weights(points, b - low), t


def group_sequential_bounds(
    n_looks: int,
    *,
    alpha: float = 0.05,
    spending: Literal["obrien-fleming", "pocock"] = "obrien-fleming",
    information_rates: ArrayLike | None = None,
    alternative: Literal["two-sided", "greater"] = "two-sided",
) -> GroupSequentialBounds:
    r"""Critical values of a group-sequential test with Lan--DeMets alpha spending.

    At look :math:`k`, with information fraction :math:`t_k` and z statistic
    :math:`Z_k`, the test stops and rejects when :math:`|Z_k| \ge c_k`
    (two-sided). The :math:`c_k` are chosen one look at a time so that the
    probability, under the null, of continuing to look :math:`k` and crossing
    there equals the level the spending function assigns to it,
    :math:`\alpha(t_k) - \alpha(t_{k-1})`. For a two-sided test each side spends
    :func:`spending_alpha` at the one-sided level :math:`\alpha/2`, the
    convention of the standard group-sequential software (rpact, gsDesign).

    The probabilities are integrals over the joint normal law of the
    :math:`Z_k` (independent increments of a Brownian motion), computed by the
    recursive numerical integration of Armitage, McPherson and Rowe (1969) with
    Simpson's rule, not by simulation.

    Parameters
    ----------
    n_looks : int
        Number of looks, the last one at the planned maximum sample size.
    alpha : float
        Overall level, in (0, 1).
    spending : {"obrien-fleming", "pocock"}
        The Lan--DeMets spending function of O'Brien--Fleming type (strict early,
        nearly the fixed-sample value at the end) or of Pocock type (nearly the
        same value at every look).
    information_rates : array_like, optional
        The fraction of the maximum sample size at each look, increasing and
        ending at 1; equally spaced by default.
    alternative : {"two-sided", "greater"}
        ``"greater"`` gives the one-sided design at level ``alpha``.

    Returns
    -------
    GroupSequentialBounds

    Raises
    ------
    ValueError
        For a number of looks that is not a whole number in [1, 50], rates that
        are not increasing fractions ending at 1, or an unknown option.

    Notes
    -----
    A z statistic assumes a known variance; with a few seeds use
    :meth:`GroupSequentialBounds.t_critical_values`. Lan and DeMets (1983).
    Explained in :ref:`ch-sequential`.

    Examples
    --------
    >>> from sigeval import group_sequential_bounds
    >>> group_sequential_bounds(4).critical_values.round(4)
    array([4.3326, 2.9631, 2.359 , 2.0141])
    >>> group_sequential_bounds(4, spending="pocock").critical_values.round(4)
    array([2.3683, 2.3675, 2.3582, 2.35  ])
    """
    alpha = check_alpha(alpha)
    spending = check_choice(spending, "spending", SPENDING_FUNCTIONS)
    alternative = check_choice(alternative, "alternative", _ALTERNATIVES)
    t = _information_rates(n_looks, information_rates)
    critical, spent = _bounds(tuple(t.tolist()), alpha, spending, alternative)
    return GroupSequentialBounds(t, np.array(critical), np.array(spent), alpha, spending, alternative)


@functools.lru_cache(maxsize=256)
def _bounds(rates: tuple[float, ...], alpha: float, spending: Literal["obrien-fleming", "pocock"],
            alternative: str) -> tuple[tuple, tuple]:
    """The critical values and the level spent, cached: a driver per simulated path asks for the same design."""
    t = np.array(rates)
    two_sided = alternative == "two-sided"
    sides = 2.0 if two_sided else 1.0
    spent = sides * _spent(t, alpha / sides, spending)
    recursion = _Recursion(two_sided)
    critical = np.empty(t.size)
    for k in range(t.size):  # a loop over the few looks; each look is one vectorised integral
        target = spent[k] - (spent[k - 1] if k else 0.0)
        if target <= 1e-300:  # nothing to spend at this look: it cannot reject
            critical[k] = np.inf
            continue

        def excess(c: float, k: int = k, target: float = target) -> float:
            return recursion.exit_probability(c, t[k]) - target

        critical[k] = optimize.brentq(excess, 0.0, 40.0, xtol=1e-12, rtol=1e-12)
        recursion.advance(critical[k], t[k])
    return tuple(critical.tolist()), tuple(spent.tolist())


def _rejection_probability(bounds: GroupSequentialBounds, theta: float) -> float:
    """The probability of crossing an upper boundary at some look, under drift ``theta``: the power
    of the design counts rejections in the right direction only."""
    recursion = _Recursion(bounds.alternative == "two-sided", theta)
    total = 0.0
    for c, t in zip(bounds.critical_values, bounds.information_rates):
        if np.isfinite(c):
            total += recursion.exit_probability(c, t, both_sides=False)
            recursion.advance(c, t)
    return total


def max_information_inflation(bounds: GroupSequentialBounds, *, target_power: float = 0.8) -> float:
    r"""How much larger the maximum sample size must be than the fixed design's, for the same power.

    The drift :math:`\theta` at which the design reaches ``target_power`` (the
    probability of crossing an upper boundary at some look) is compared with the
    fixed-sample test's :math:`z_{1-\alpha/2} + z_{\text{power}}` (one-sided:
    :math:`z_{1-\alpha}`); the ratio of their squares is the factor by which the
    planned number of pairs grows.

    Parameters
    ----------
    bounds : GroupSequentialBounds
        The design, from :func:`group_sequential_bounds`.
    target_power : float
        In (0, 1).

    Returns
    -------
    float
        The inflation factor: a little above 1 (1.02 for four O'Brien--Fleming
        looks at power 0.8, 1.2 for four Pocock looks).

    Examples
    --------
    >>> from sigeval import group_sequential_bounds, max_information_inflation
    >>> round(max_information_inflation(group_sequential_bounds(4)), 4)
    1.0196
    """
    if not isinstance(bounds, GroupSequentialBounds):
        raise TypeError(f"`bounds` must be a GroupSequentialBounds; got {type(bounds).__name__}.")
    power = check_unit_interval(target_power, "target_power")
    sides = 2.0 if bounds.alternative == "two-sided" else 1.0
    if power <= bounds.alpha / sides:
        raise ValueError(
            f"`target_power` must exceed the design's one-sided level {bounds.alpha / sides:g}; got {power!r}."
        )
    if power > 1.0 - 1e-9:
        # The power is integrated to about 1e-15: a smaller chance of missing would not be resolved.
        raise ValueError(f"`target_power` must be at most 1 - 1e-9; got {power!r}.")
    fixed = stats.norm.isf(bounds.alpha / sides) + stats.norm.ppf(power)
    theta = optimize.brentq(lambda th: _rejection_probability(bounds, th) - power, 0.0, 3.0 * fixed + 10.0,
                            xtol=1e-10)
    return float((theta / fixed) ** 2)

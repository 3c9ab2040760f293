"""Power: could a design detect the difference it is looking for?

For the paired t-test over seeds: the power at a given true difference, the
minimum detectable effect (MDE) at a target power and the number of seeds
needed, all from the noncentral t distribution. McNemar's power over test
items is in :mod:`sigeval.power_mcnemar`.

Explained in :ref:`ch-power`.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import optimize, stats

from ._numeric import check_finite_result
from ._validation import (
    MAX_COUNT,
    _show,
    check_broadcast,
    check_finite_array,
    check_positive_real,
    check_real,
    check_sizes,
    check_unit_interval,
    scalar_or_array,
)

__all__ = [
    "PowerResult",
    "power_paired",
    "seeds_needed",
]


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
    delta : float, ndarray or None
        The true mean differences asked about, if any.
    power : float, ndarray or None
        Exact power at ``delta``, if given.
    """

    sigma_d: float | np.ndarray
    n: int | np.ndarray
    alpha: float
    target_power: float
    mde: float | np.ndarray
    power_at_mde: float | np.ndarray
    delta: float | np.ndarray | None
    power: float | np.ndarray | None


#: From this noncentrality on, the power is the chi-square limit of :func:`_power_far`
#: (off by about 1/nc**2 < 1e-8); scipy's noncentral t loses accuracy there when
#: the critical value is large too (0.46 instead of 0.62 at df=1, alpha=1e-6,
#: nc=5.6e5) and returns NaN from nc ~ 1e10.
_FAR_NONCENTRALITY = 1e4


def _power_two_sided(noncentrality, df, alpha: float):
    """P(|T| > t_crit) for T ~ noncentral t(df, noncentrality)."""
    t_crit = stats.t.isf(alpha / 2, df)
    far = np.abs(noncentrality) >= _FAR_NONCENTRALITY
    # scipy is not asked there: it is slow (up to a second), and off.
    near = np.where(far, 0.0, noncentrality)
    # P(T < -t_crit | nc) = P(T > t_crit | -nc). scipy's nct.cdf returns NaN
    # far in the lower tail (e.g. df=19, nc=9), its sf does not.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # should its series fail
        power = stats.nct.sf(t_crit, df, near) + stats.nct.sf(t_crit, df, -near)
    return np.where(far | np.isnan(power), _power_far(noncentrality, df, t_crit), power)


def _power_far(noncentrality, df, t_crit):
    r"""The power when the noncentrality dwarfs the normal term of T, where scipy fails.

    :math:`T = (Z + \mathrm{nc})/\sqrt{V/\nu}`; with :math:`|\mathrm{nc}| \ge 10^4`,
    :math:`Z` shifts it by a relative 1e-4 or less, whose effect on the probability
    averages out to about :math:`1/\mathrm{nc}^2`, and
    :math:`P(|T| > t) = P(V < \nu\,\mathrm{nc}^2/t^2)`, a chi-square probability
    (1 unless ``alpha`` is tiny and the degrees of freedom few).
    """
    with np.errstate(over="ignore"):  # an infinite bound has probability 1
        return stats.chi2.cdf(df * (np.asarray(noncentrality) / t_crit) ** 2, df)


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
    delta: float | ArrayLike | None = None,
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

    reported at ``delta`` and at the MDE itself (``power_at_mde``). From
    noncentralities of :math:`10^4` on (a tiny ``sigma_d``), where scipy's
    noncentral t loses accuracy or fails, the power is its limit
    :math:`P(\chi^2_{n-1} < (n-1)\,\mathrm{nc}^2/t_{n-1,1-\alpha/2}^2)`, which is 1
    unless ``alpha`` is tiny. At
    :math:`\alpha = 0.05` and a target of 0.80 the power at the MDE is 0.731
    at 2 seeds, 0.791 at 5 and 0.799 at 10, and within 0.0005 of the target
    from 12 seeds on (slightly above it from 17). At stricter levels the
    formula is more optimistic: 0.782 at 10 seeds for :math:`\alpha = 0.01`.

    All of ``sigma_d``, ``n`` and ``delta`` broadcast against each other.

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
    delta : float, array_like or None
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
    Explained in :ref:`ch-power`.

    Examples
    --------
    >>> from sigeval import power_paired
    >>> res = power_paired(0.2, 10, delta=0.1)
    >>> round(res.mde, 4), round(res.power_at_mde, 3), round(res.power, 3)
    (0.1989, 0.799, 0.293)
    >>> power_paired(0.2, [5, 10, 20]).mde.round(3)
    array([0.332, 0.199, 0.132])
    """
    sigma = check_finite_array(sigma_d, "sigma_d")
    if np.any(sigma <= 0):
        raise ValueError(f"`sigma_d` must be positive; got {_show(sigma[sigma <= 0])}.")
    n_arr = check_sizes(n, "n")
    if np.any(n_arr < 2):
        raise ValueError(f"`n` must be at least 2 pairs; got {_show(n_arr[n_arr < 2])}.")
    alpha = check_unit_interval(alpha, "alpha")
    target_power = _check_power_target(target_power, "target_power", alpha)
    eff = None if delta is None else check_finite_array(delta, "delta")
    # Copies: broadcast views are read-only and would leak into the result.
    sigma, n_arr, eff_b = check_broadcast(
        (sigma, n_arr, np.asarray(0.0) if eff is None else eff), ("sigma_d", "n", "delta")
    )

    df = n_arr - 1
    t_crit = stats.t.isf(alpha / 2, df)
    t_power = stats.t.ppf(target_power, df)
    with np.errstate(over="ignore"):  # refused below
        mde = (t_crit + t_power) * sigma / np.sqrt(n_arr)
    power = None
    if eff is not None:
        with np.errstate(over="ignore"):  # an infinite noncentrality has power 1 below
            noncentrality = eff_b * np.sqrt(n_arr) / sigma
        power = scalar_or_array(_power_two_sided(noncentrality, df, alpha))
    check_finite_result({"mde": mde}, "`sigma_d`")
    return PowerResult(
        sigma_d=scalar_or_array(sigma),
        n=int(n_arr) if n_arr.ndim == 0 else n_arr,
        alpha=alpha,
        target_power=target_power,
        mde=scalar_or_array(mde),
        # At the MDE the noncentrality is exactly t_crit + t_power.
        power_at_mde=scalar_or_array(_power_two_sided(t_crit + t_power, df, alpha)),
        delta=None if eff is None else scalar_or_array(eff_b),
        power=power,
    )


def seeds_needed(
    sigma_d: float, delta: float, *, alpha: float = 0.05, target_power: float = 0.8
) -> int:
    r"""Smallest number of seed pairs whose paired t-test reaches ``target_power`` at ``delta``.

    The smallest integer :math:`n \ge 2` with

    .. math::

        P\bigl(|T| > t_{n-1,\,1-\alpha/2}\bigr) \ge \text{target\_power}, \quad
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
    target_power : float
        Required power, greater than ``alpha``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``sigma_d <= 0``, ``delta == 0``, a level is outside (0, 1) or
        ``target_power`` does not exceed ``alpha``.

    Notes
    -----
    Explained in :ref:`ch-power`.

    Examples
    --------
    Paired differences whose spread gives 10 seeds an MDE of 0.014 (1.4
    accuracy points): resolving half a point (0.005) takes 65 seeds, not ten (the
    normal approximation says 62).

    >>> from sigeval import power_paired, seeds_needed
    >>> round(power_paired(0.0141, 10).mde, 4)
    0.014
    >>> seeds_needed(0.0141, 0.005)
    65
    """
    sigma = check_positive_real(sigma_d, "sigma_d")
    delta = check_real(delta, "delta")
    if delta == 0:
        raise ValueError("`delta` must be a non-zero difference to detect; got 0.0.")
    alpha = check_unit_interval(alpha, "alpha")
    target_power = _check_power_target(target_power, "target_power", alpha)
    effect_size = abs(delta) / sigma

    def shortfall(n):
        return _power_two_sided(effect_size * np.sqrt(n), n - 1, alpha) - target_power

    if shortfall(2.0) >= 0:
        return 2
    # Twice the normal-approximation sample size nearly always has enough
    # power already; power tends to 1 with n, so doubling always ends.
    z_sum = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
    with np.errstate(over="ignore"):
        upper = max(4.0, 2 * (z_sum / effect_size) ** 2) if effect_size > 0 else math.inf
    if not upper <= 2 * MAX_COUNT:
        raise ValueError(
            f"`delta` = {delta!r} is too small against `sigma_d` = {sigma!r}: the normal "
            f"approximation already asks for {upper / 2:.3g} seeds, beyond the {MAX_COUNT:,} "
            "a count can hold."
        )
    while shortfall(upper) < 0:
        upper *= 2
    root = optimize.brentq(shortfall, 2.0, upper, xtol=1e-6)
    candidates = np.arange(max(2, math.ceil(root) - 1), math.ceil(root) + 2)
    reached = shortfall(candidates.astype(float)) >= 0
    return int(candidates[np.argmax(reached)])

"""Power: could a design detect the difference it is looking for?

For the paired t-test over seeds: the power at a given true difference, the
minimum detectable effect (MDE) at a target power and the number of seeds
needed, all from the noncentral t distribution. McNemar's power over test
items is in :mod:`sigeval.power_mcnemar`.

Explained in :ref:`ch-power`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import ArrayLike
from scipy import stats

from ._noncentral import seeds_needed_each, too_small
from ._numeric import check_finite_result
from ._paired_t import power as power_core
from ._validation import (
    MAX_COUNT,
    _show,
    check_alpha,
    check_alpha_tost,
    check_broadcast,
    check_finite_array,
    check_memory,
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
    "TOSTPowerResult",
    "power_tost",
    "seeds_needed_tost",
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
    alpha = check_alpha(alpha)
    target_power = _check_power_target(target_power, "target_power", alpha)
    eff = None if delta is None else check_finite_array(delta, "delta")
    # Copies: broadcast views are read-only and would leak into the result.
    sigma, n_arr, eff_b = check_broadcast(
        (sigma, n_arr, np.asarray(0.0) if eff is None else eff), ("sigma_d", "n", "delta")
    )

    values, reason = power_core(sigma.ravel(), n_arr.ravel(), alpha, target_power,
                                None if eff is None else eff_b.ravel())
    refused = np.flatnonzero(reason != "")
    if refused.size:
        raise ValueError(reason[refused[0]])
    shape = sigma.shape
    return PowerResult(
        sigma_d=scalar_or_array(sigma),
        n=int(n_arr) if n_arr.ndim == 0 else n_arr,
        alpha=alpha,
        target_power=target_power,
        mde=scalar_or_array(values["mde"].reshape(shape)),
        power_at_mde=scalar_or_array(values["power_at_mde"].reshape(shape)),
        delta=None if eff is None else scalar_or_array(eff_b),
        power=None if eff is None else scalar_or_array(values["power"].reshape(shape)),
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
    alpha = check_alpha(alpha)
    target_power = _check_power_target(target_power, "target_power", alpha)
    with np.errstate(over="ignore"):  # an infinite effect size needs the fewest seeds, 2
        effect_size = abs(delta) / sigma
    answer, refused = seeds_needed_each(np.array([effect_size]), np.array([alpha]), target_power)
    if refused[0]:
        raise ValueError(too_small(delta, sigma, alpha, target_power))
    return int(answer[0])


@dataclass(frozen=True)
class TOSTPowerResult:
    """Result of :func:`power_tost`. Arrays when any input was an array.

    Attributes
    ----------
    sigma_d : float or ndarray
        Standard deviation of the paired differences assumed.
    n : int or ndarray
        Number of pairs (seeds).
    margin : float or ndarray
        The equivalence margin.
    delta : float or ndarray
        The true mean difference at which the power is computed.
    alpha : float
        Level of each one-sided test.
    power : float or ndarray
        Probability that TOST declares equivalence.
    """

    sigma_d: float | np.ndarray
    n: int | np.ndarray
    margin: float | np.ndarray
    delta: float | np.ndarray
    alpha: float
    power: float | np.ndarray


# Gauss-Legendre nodes on (0, 1) for the integral over the distribution of s_d in _tost_power.
_GL_NODES, _GL_WEIGHTS = np.polynomial.legendre.leggauss(128)
_GL_NODES, _GL_WEIGHTS = (_GL_NODES + 1) / 2, _GL_WEIGHTS / 2
#: The integral over W = s_d / sigma_d runs between its quantiles _W_TAIL and 1 - _W_TAIL.
_W_TAIL = 1e-15
#: seeds_needed_tost tries every count up to this one at once, then bisects beyond it.
_TOST_SCAN = 1024


def _tost_power(a, e, df, alpha: float):
    r"""P(TOST declares equivalence) for standardised margin ``a`` and difference ``e``.

    With :math:`W = \sqrt{V/\nu}`, :math:`V \sim \chi^2_\nu`, the test declares
    equivalence when :math:`-a + t W < Z + e < a - t W`, :math:`Z` standard normal,
    :math:`t = t_{\nu,1-\alpha}`: possible only for :math:`W < a/t`, so the power is
    :math:`\int_0^{a/t} [\Phi(a - e - tw) - \Phi(-a - e + tw)]\,f_W(w)\,dw`,
    with :math:`f_W(w) = 2\nu w\, f_{\chi^2_\nu}(\nu w^2)`. The integrand is smooth; it is
    integrated by Gauss-Legendre on 128 nodes between the :math:`10^{-15}` quantile of
    :math:`W` and the smaller of :math:`a/t` and its upper :math:`10^{-15}` quantile,
    vectorised over the inputs (the neglected tails weigh at most 2e-15).
    """
    a, e, df = np.broadcast_arrays(a, e, df)
    t = stats.t.isf(alpha, df)
    low = np.sqrt(stats.chi2.ppf(_W_TAIL, df) / df)
    with np.errstate(over="ignore"):   # a / t beyond float64 is the infinite bound it should be
        high = np.minimum(a / t, np.sqrt(stats.chi2.isf(_W_TAIL, df) / df))
    span = np.maximum(high - low, 0.0)                       # no room: the power is below 1e-15
    w = low[..., None] + span[..., None] * _GL_NODES         # (..., nodes)
    nu = df[..., None]
    density = 2 * nu * w * stats.chi2.pdf(nu * w**2, nu)
    inner = stats.norm.cdf(a[..., None] - e[..., None] - t[..., None] * w) - stats.norm.cdf(
        -a[..., None] - e[..., None] + t[..., None] * w
    )
    # The nodes lie inside (low, high) and high <= a / t, so inner >= 0 there.
    power = span * np.sum(inner * density * _GL_WEIGHTS, axis=-1)
    return np.clip(power, 0.0, 1.0)


def power_tost(
    sigma_d: float | ArrayLike,
    n: int | ArrayLike,
    margin: float | ArrayLike,
    *,
    delta: float | ArrayLike = 0.0,
    alpha: float = 0.05,
) -> TOSTPowerResult:
    r"""Power of the paired TOST: the probability that it declares equivalence.

    :func:`~sigeval.equivalence.tost_paired` declares equivalence within the margin
    :math:`\Delta` when the :math:`1 - 2\alpha` interval of the mean difference
    lies inside :math:`(-\Delta, \Delta)`: :math:`|\bar d| + t_{n-1,1-\alpha}\,s_d/\sqrt n < \Delta`.
    For paired differences :math:`\sim \mathcal N(\delta, \sigma_d^2)`, with
    :math:`a = \Delta\sqrt n/\sigma_d`, :math:`e = \delta\sqrt n/\sigma_d`,
    :math:`W = s_d/\sigma_d` (so :math:`(n-1)W^2 \sim \chi^2_{n-1}`) and
    :math:`t = t_{n-1,1-\alpha}`,

    .. math::

        \text{power} = \mathbb E_W\Bigl[\bigl(\Phi(a - e - tW) - \Phi(-a - e + tW)\bigr)^+\Bigr],

    the exact power (Owen's integral, computed by quadrature over the
    distribution of :math:`W`; within 1e-9 of adaptive quadrature). It is largest at
    :math:`\delta = 0` and never exceeds what the same data would need to put
    the interval inside the margin: with few pairs it can be zero whatever the
    truth, because :math:`t\,s_d/\sqrt n` alone already exceeds :math:`\Delta`.
    The usual large-sample approximation at :math:`\delta = 0` asks for
    :math:`n \approx (z_{1-\alpha} + z_{1-\beta/2})^2 \sigma_d^2/\Delta^2` pairs.

    All of ``sigma_d``, ``n``, ``margin`` and ``delta`` broadcast against each other.

    Parameters
    ----------
    sigma_d : float or array_like
        Standard deviation of the paired differences (``> 0``).
    n : int or array_like of int
        Number of pairs, at least 2.
    margin : float or array_like
        Equivalence margin :math:`\Delta > 0`, in the units of the scores.
    delta : float or array_like
        True mean difference (0: the procedures are identical on average).
    alpha : float
        Level of each one-sided test, in (0, 0.5).

    Returns
    -------
    TOSTPowerResult

    Raises
    ------
    ValueError
        If ``sigma_d <= 0``, ``margin <= 0``, ``n < 2``, ``alpha`` is outside
        (0, 0.5) or the shapes do not broadcast.

    Notes
    -----
    Explained in :ref:`ch-power`.

    Examples
    --------
    Ten seed pairs whose differences spread by one point rarely show
    equivalence within half a point, even when the procedures are identical:

    >>> from sigeval import power_tost
    >>> round(power_tost(1.0, 10, 0.5).power, 3)
    0.065
    >>> power_tost(1.0, [20, 40, 60], 0.5).power.round(3)
    array([0.393, 0.856, 0.971])
    """
    sigma = check_finite_array(sigma_d, "sigma_d")
    if np.any(sigma <= 0):
        raise ValueError(f"`sigma_d` must be positive; got {_show(sigma[sigma <= 0])}.")
    n_arr = check_sizes(n, "n")
    if np.any(n_arr < 2):
        raise ValueError(f"`n` must be at least 2 pairs; got {_show(n_arr[n_arr < 2])}.")
    margin_arr = check_finite_array(margin, "margin")
    if np.any(margin_arr <= 0):
        raise ValueError(f"`margin` must be positive; got {_show(margin_arr[margin_arr <= 0])}.")
    eff = check_finite_array(delta, "delta")
    alpha = check_alpha_tost(alpha)
    sigma, n_arr, margin_arr, eff = check_broadcast(
        (sigma, n_arr, margin_arr, eff), ("sigma_d", "n", "margin", "delta")
    )
    # The quadrature holds a few arrays of the broadcast shape times its nodes.
    check_memory(8 * sigma.size * _GL_NODES.size, "n", n, "the quadrature of each power")
    with np.errstate(over="ignore", invalid="ignore"):   # refused just below
        root_n = np.sqrt(n_arr) / sigma
        a, e = margin_arr * root_n, eff * root_n
    check_finite_result({"margin * sqrt(n) / sigma_d": a, "delta * sqrt(n) / sigma_d": e}, "`sigma_d`")
    power = _tost_power(a, e, n_arr - 1, alpha)
    return TOSTPowerResult(
        sigma_d=scalar_or_array(sigma),
        n=int(n_arr) if n_arr.ndim == 0 else n_arr,
        margin=scalar_or_array(margin_arr),
        delta=scalar_or_array(eff),
        alpha=alpha,
        power=scalar_or_array(power),
    )


def seeds_needed_tost(
    sigma_d: float,
    margin: float,
    *,
    delta: float = 0.0,
    alpha: float = 0.05,
    target_power: float = 0.8,
) -> int:
    r"""Smallest number of pairs whose paired TOST declares equivalence with ``target_power``.

    The smallest integer :math:`n \ge 2` at which :func:`power_tost` reaches
    the target, for a true difference ``delta`` strictly inside the margin.
    With very few pairs the power is not monotone in :math:`n` (at
    :math:`\alpha = 0.05` it dips from 2 to 4 pairs, below ``alpha``), so every
    count up to 1,024 is tried at once; beyond that the power increases with
    :math:`n`, and the answer is found by doubling and bisection.

    Parameters
    ----------
    sigma_d : float
        Standard deviation of the paired differences (``> 0``).
    margin : float
        Equivalence margin (``> 0``).
    delta : float
        True mean difference, with ``|delta| < margin``.
    alpha : float
        Level of each one-sided test, in (0, 0.5).
    target_power : float
        Required power, greater than ``alpha``.

    Returns
    -------
    int

    Raises
    ------
    ValueError
        If ``sigma_d <= 0``, ``margin <= 0``, ``|delta| >= margin`` (then the
        power never exceeds ``alpha``), a level is outside its range, or the
        answer exceeds the largest count.

    Notes
    -----
    Explained in :ref:`ch-power`.

    Examples
    --------
    >>> from sigeval import seeds_needed_tost
    >>> seeds_needed_tost(1.0, 0.5)
    36
    >>> seeds_needed_tost(1.0, 0.5, delta=0.1)
    42
    """
    sigma = check_positive_real(sigma_d, "sigma_d")
    margin = check_positive_real(margin, "margin")
    delta = check_real(delta, "delta")
    if not abs(delta) < margin:
        raise ValueError(
            f"`delta` must lie strictly inside the margin (|delta| < {margin!r}); got {delta!r}: "
            "at or beyond the margin TOST declares equivalence with probability at most alpha."
        )
    alpha = check_alpha_tost(alpha)
    target_power = _check_power_target(target_power, "target_power", alpha)
    a_unit, e_unit = margin / sigma, delta / sigma
    if not (np.isfinite(a_unit) and np.isfinite(e_unit)):
        raise ValueError(f"`margin` / `sigma_d` overflows float64: {margin!r} / {sigma!r}.")

    def reached(n: np.ndarray) -> np.ndarray:
        root_n = np.sqrt(n.astype(float))
        return _tost_power(a_unit * root_n, e_unit * root_n, n - 1, alpha) >= target_power

    # With very few pairs the power is not monotone in n (the heavy tails of s_d), so
    # every count up to _TOST_SCAN is tried at once; beyond it the power increases with n.
    first = np.arange(2, _TOST_SCAN + 1)
    hits = reached(first)
    if hits.any():
        return int(first[np.argmax(hits)])
    low, high = _TOST_SCAN, 2 * _TOST_SCAN
    while not reached(np.array([high]))[0]:
        low, high = high, 2 * high
        if high > MAX_COUNT:
            raise ValueError(
                f"`margin` = {margin!r} is too narrow against `sigma_d` = {sigma!r}: more than "
                f"{MAX_COUNT:,} pairs would be needed."
            )
    while high - low > 1:
        mid = (low + high) // 2
        if reached(np.array([mid]))[0]:
            high = mid
        else:
            low = mid
    return int(high)

"""The power of the two-sided paired t-test from the noncentral t, one comparison or many at once.

Private: :mod:`sigeval.power` answers one design; :class:`~sigeval.report.Report`
answers every comparison of a leaderboard with the same functions, element by
element, so that both give the same numbers.
"""

from __future__ import annotations

import warnings

import numpy as np
from scipy import stats

from ._validation import MAX_COUNT

#: From this noncentrality on, the power is the chi-square limit of :func:`power_far`
#: (off by about 1/nc**2 < 1e-8); scipy's noncentral t loses accuracy there when
#: the critical value is large too (0.46 instead of 0.62 at df=1, alpha=1e-6,
#: nc=5.6e5) and returns NaN from nc ~ 1e10.
FAR_NONCENTRALITY = 1e4


def power_two_sided(noncentrality, df, alpha: float | np.ndarray):
    """P(|T| > t_crit) for T ~ noncentral t(df, noncentrality)."""
    return power_beyond(noncentrality, df, stats.t.isf(alpha / 2, df))


def power_beyond(noncentrality, df, t_crit):
    """:func:`power_two_sided` given its critical value ``t_crit`` (one per ``df``)."""
    far = np.abs(noncentrality) >= FAR_NONCENTRALITY
    # scipy is not asked there: it is slow (up to a second), and off.
    near = np.where(far, 0.0, noncentrality)
    # P(T < -t_crit | nc) = P(T > t_crit | -nc). scipy's nct.cdf returns NaN
    # far in the lower tail (e.g. df=19, nc=9), its sf does not.
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)  # should its series fail
        power = stats.nct.sf(t_crit, df, near) + stats.nct.sf(t_crit, df, -near)
    limit = far | np.isnan(power)
    if not np.any(limit):
        return power
    return np.where(limit, power_far(noncentrality, df, t_crit), power)


def power_far(noncentrality, df, t_crit):
    r"""The power when the noncentrality dwarfs the normal term of T, where scipy fails.

    :math:`T = (Z + \mathrm{nc})/\sqrt{V/\nu}`; with :math:`|\mathrm{nc}| \ge 10^4`,
    :math:`Z` shifts it by a relative 1e-4 or less, whose effect on the probability
    averages out to about :math:`1/\mathrm{nc}^2`, and
    :math:`P(|T| > t) = P(V < \nu\,\mathrm{nc}^2/t^2)`, a chi-square probability
    (1 unless ``alpha`` is tiny and the degrees of freedom few).
    """
    with np.errstate(over="ignore"):  # an infinite bound has probability 1
        return stats.chi2.cdf(df * (np.asarray(noncentrality) / t_crit) ** 2, df)


# ----------------------------------------------------------------------------- many at once
#
# ``Report.power`` asks for the seeds needed by every comparison of a leaderboard
# (hundreds of thousands). The answer of :func:`~sigeval.power.seeds_needed` is the smallest
# n >= 2 whose power reaches the target; power grows with the effect size
# e = |delta| / sigma_d, so for each n there is a threshold e_n above which n
# seeds suffice, and e_n falls as n grows. The thresholds depend on alpha and
# the target alone: they are solved once for n = 2, 3, ... (cached), and each
# comparison's answer is then a search among them. A comparison whose effect
# size lies within a relative _MARGIN of a threshold, or beyond the table, is
# decided as seeds_needed decides it: by the power at integers of n.

#: Effect sizes this close (relative) to a threshold are decided by the power itself.
_MARGIN = 1e-8
#: The threshold table covers n <= _TABLE_CAP; larger answers are searched per comparison.
_TABLE_CAP = 4096
_THRESHOLDS: dict[tuple[float, float], tuple[np.ndarray, np.ndarray]] = {}


def _reached(effect_size: np.ndarray, n: np.ndarray, alpha: float | np.ndarray, target_power: float) -> np.ndarray:
    """``shortfall(n) >= 0`` of :func:`~sigeval.power.seeds_needed`, element-wise, with the same arithmetic."""
    n = np.asarray(n, dtype=float)
    return power_two_sided(effect_size * np.sqrt(n), n - 1, alpha) - target_power >= 0


def _threshold_brackets(n: np.ndarray, alpha: float, target_power: float) -> tuple[np.ndarray, np.ndarray]:
    """For each n, effect sizes ``low < e_n <= high`` with ``high / low - 1`` at most 1e-13.

    Vectorised over ``n``: the bracket starts at the MDE formula's effect size, widens
    by factors of 1.25 until the power crosses the target, then narrows by the
    Illinois variant of the false-position method (bisection when it stalls).
    """
    df = n - 1.0
    sqrt_n = np.sqrt(n)
    t_crit = stats.t.isf(alpha / 2, df)
    guess = (t_crit + stats.t.ppf(target_power, df)) / sqrt_n

    def shortfall(e, rows):
        return power_beyond(e * sqrt_n[rows], df[rows], t_crit[rows]) - target_power

    f = shortfall(guess, slice(None))
    low, high, f_low, f_high = guess.copy(), guess.copy(), f.copy(), f.copy()
    # Widen until the bracket holds the crossing: `low` falls short, `high` reaches.
    todo = np.arange(n.size)
    while todo.size:
        reaches = f_high[todo] >= 0
        falls = f_low[todo] < 0
        go_down = todo[reaches & ~falls]  # both ends still reach: move `low` down
        go_up = todo[~reaches]  # both ends still fall short: move `high` up
        if go_down.size:
            high[go_down], f_high[go_down] = low[go_down], f_low[go_down]
            low[go_down] = low[go_down] / 1.25
            f_low[go_down] = shortfall(low[go_down], go_down)
        if go_up.size:
            low[go_up], f_low[go_up] = high[go_up], f_high[go_up]
            high[go_up] = high[go_up] * 1.25
            f_high[go_up] = shortfall(high[go_up], go_up)
        todo = np.concatenate([go_down, go_up])
    side = np.zeros(n.size, dtype=np.int8)
    for step in range(200):
        todo = np.flatnonzero(high - low > 1e-13 * high)
        if not todo.size:
            break
        lo, hi, flo, fhi = low[todo], high[todo], f_low[todo], f_high[todo]
        if step % 8 == 7:  # a bisection now and then guarantees progress
            mid = lo + (hi - lo) / 2
        else:
            with np.errstate(all="ignore"):
                mid = hi - fhi * (hi - lo) / (fhi - flo)
            mid = np.where((mid > lo) & (mid < hi), mid, lo + (hi - lo) / 2)
        fm = shortfall(mid, todo)
        up = fm >= 0
        # Illinois: halve the function value kept on a side that stays twice.
        keep_low = up & (side[todo] == 1)
        keep_high = ~up & (side[todo] == -1)
        f_low[todo[keep_low]] /= 2
        f_high[todo[keep_high]] /= 2
        high[todo[up]], f_high[todo[up]] = mid[up], fm[up]
        low[todo[~up]], f_low[todo[~up]] = mid[~up], fm[~up]
        side[todo] = np.where(up, 1, -1)
    return low, high


def _thresholds(alpha: float, target_power: float, n_max: int) -> tuple[np.ndarray, np.ndarray]:
    """Brackets of e_n for n = 2 .. at least ``n_max`` (capped at _TABLE_CAP), cached per level."""
    key = (alpha, target_power)
    low, high = _THRESHOLDS.get(key, (np.empty(0), np.empty(0)))
    n_max = min(max(n_max, 64), _TABLE_CAP)
    have = low.size + 1  # the largest n covered
    if have < n_max:
        n_max = min(max(n_max, 2 * have), _TABLE_CAP)
        new_low, new_high = _threshold_brackets(np.arange(have + 1, n_max + 1, dtype=float), alpha, target_power)
        low, high = np.concatenate([low, new_low]), np.concatenate([high, new_high])
        if len(_THRESHOLDS) > 16:
            _THRESHOLDS.clear()
        _THRESHOLDS[key] = (low, high)
    return low, high


def _search_reached(
    effect_size: np.ndarray, start: np.ndarray, alpha: float | np.ndarray, target_power: float
) -> np.ndarray:
    """Smallest n >= 2 with :func:`_reached`, searched from ``start`` (gallop, then bisect), vectorised.

    ``alpha`` is one level, or one per effect size.
    """
    alpha = np.broadcast_to(np.asarray(alpha, dtype=float), effect_size.shape)
    n = np.maximum(np.asarray(start, dtype=np.int64), 2)
    reached = _reached(effect_size, n, alpha, target_power)
    # Invariant after the gallop: `low` falls short (or is 1: none below 2), `high` reaches.
    high = np.where(reached, n, 0)
    low = np.where(reached, 0, n)
    step = np.ones(n.size, dtype=np.int64)
    todo = np.flatnonzero(reached)
    while todo.size:  # step down from a start that reaches
        probe = np.maximum(high[todo] - step[todo], 1)
        at_one = probe == 1
        low[todo[at_one]] = 1
        check = todo[~at_one]
        ok = _reached(effect_size[check], probe[~at_one], alpha[check], target_power)
        high[check[ok]] = probe[~at_one][ok]
        low[check[~ok]] = probe[~at_one][~ok]
        step[check[ok]] *= 2
        todo = check[ok]
    todo = np.flatnonzero(~reached)
    while todo.size:  # step up from a start that falls short
        probe = low[todo] + step[todo]
        if probe.max() > 2**62:  # the power never reached the target: scipy failed, not the search
            raise ArithmeticError(
                f"The power of the paired t-test did not reach {target_power!r} for effect sizes "
                f"{effect_size[todo][:3].tolist()} with up to 2**62 seeds; this is a numerical failure."
            )
        ok = _reached(effect_size[todo], probe, alpha[todo], target_power)
        high[todo[ok]] = probe[ok]
        low[todo[~ok]] = probe[~ok]
        step[todo[~ok]] *= 2
        todo = todo[~ok]
    todo = np.flatnonzero(high - low > 1)
    while todo.size:
        mid = low[todo] + (high[todo] - low[todo]) // 2
        ok = _reached(effect_size[todo], mid, alpha[todo], target_power)
        high[todo[ok]] = mid[ok]
        low[todo[~ok]] = mid[~ok]
        todo = todo[high[todo] - low[todo] > 1]
    return high


def seeds_needed_many(
    effect_size: np.ndarray, alpha: float, target_power: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`~sigeval.power.seeds_needed` for many effect sizes ``|delta| / sigma_d`` at once, and where it would refuse.

    Returns the seeds needed (int64; 0 where refused) and a mask of the effect
    sizes for which :func:`~sigeval.power.seeds_needed` raises (a difference so small that the
    count would overflow). The answers equal :func:`~sigeval.power.seeds_needed`'s: both are the
    smallest n >= 2 whose exact power reaches the target, decided by the same
    power function wherever the threshold table leaves any doubt.
    """
    if not 0 < alpha < target_power < 1:  # below alpha no effect size reaches the target
        raise ValueError(
            f"`target_power` must exceed `alpha` (a test rejects with probability alpha when there is no effect); "
            f"got {target_power!r} with alpha={alpha!r}."
        )
    e = np.asarray(effect_size, dtype=float)
    with np.errstate(over="ignore", divide="ignore"):
        z_sum = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
        normal = (z_sum / e) ** 2
    low, high = _thresholds(alpha, target_power, int(min(np.nanmax(np.r_[1.0, 2 * normal + 16]), _TABLE_CAP)))
    upper = high * (1 + _MARGIN)  # decreasing in n: above it, n seeds certainly suffice
    lower = low * (1 - _MARGIN)  # below it, n seeds certainly fall short
    sure = upper[:-1] > upper[1:]
    # First n in the table with e >= upper_n (index into n = 2, 3, ...).
    first = np.searchsorted(-upper, -e, side="left")
    inside = first < upper.size
    answer = np.where(inside, first + 2, 0).astype(np.int64)
    # The n before the answer must certainly fall short; the answer 2 needs nothing below.
    prev = np.clip(first - 1, 0, None)
    decided = inside & ((first == 0) | (e <= lower[prev]))
    # Thresholds whose noncentrality is near where the power switches to its far limit.
    far = (high * np.sqrt(np.arange(2, high.size + 2)) > FAR_NONCENTRALITY / 10)
    decided &= ~far[np.minimum(first, upper.size - 1)] & ~far[prev]
    if not sure.all():  # a table that is not strictly decreasing decides nothing
        decided[:] = False
    rest = np.flatnonzero(~decided)
    refused = np.zeros(e.shape, dtype=bool)
    if rest.size:
        answer[rest], refused[rest] = _searched(e[rest], np.full(rest.size, alpha), target_power)
    return answer, refused


def seeds_needed_each(
    effect_size: np.ndarray, alpha: np.ndarray, target_power: float
) -> tuple[np.ndarray, np.ndarray]:
    """:func:`seeds_needed_many` with a level per effect size (Holm's), each searched directly.

    A threshold table serves many effect sizes at one level; with a level
    per comparison, building one table per level would cost more than the
    searches it saves. The answers and refusals are those of
    :func:`~sigeval.power.seeds_needed` at each ``alpha``.
    """
    e = np.asarray(effect_size, dtype=float)
    alpha = np.asarray(alpha, dtype=float)
    if e.ndim != 1 or e.shape != alpha.shape:
        raise ValueError(f"`alpha` must hold one level per effect size (1-D); got shapes {alpha.shape} and {e.shape}.")
    if not (target_power < 1 and np.all((0 < alpha) & (alpha < target_power))):
        raise ValueError(
            f"`target_power` must exceed every `alpha` (a test rejects with probability alpha when there is no "
            f"effect); got {target_power!r} with alpha up to {float(np.max(alpha, initial=0.0))!r}."
        )
    return _searched(e, alpha, target_power)


def _searched(e: np.ndarray, alpha: np.ndarray, target_power: float) -> tuple[np.ndarray, np.ndarray]:
    """Seeds needed (0 where refused) and refusals of ``seeds_needed``, by the power at integers of n."""
    answer = np.zeros(e.shape, dtype=np.int64)
    two = _reached(e, np.full(e.size, 2.0), alpha, target_power)
    with np.errstate(over="ignore", divide="ignore"):
        z_sum = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
        normal = (z_sum / e) ** 2
        bound = np.where(e > 0, np.maximum(4.0, 2 * normal), np.inf)
    refused = ~two & ~(bound <= 2 * MAX_COUNT)
    answer[two] = 2
    search = np.flatnonzero(~two & ~refused)
    if search.size:
        es, level = e[search], alpha[search]
        # Start at the MDE formula's n (normal quantiles, then t quantiles once).
        n0 = np.maximum(normal[search], 2.0)
        start = ((stats.t.isf(level / 2, n0 - 1) + stats.t.ppf(target_power, n0 - 1)) / es) ** 2
        start = np.clip(np.ceil(start), 2, 2 * MAX_COUNT)
        answer[search] = _search_reached(es, start, level, target_power)
    return answer, refused


def too_small(delta: float, sigma_d: float, alpha: float, target_power: float) -> str:
    """Why :func:`~sigeval.power.seeds_needed` refuses a difference: the seeds it needs exceed a count."""
    z_sum = stats.norm.isf(alpha / 2) + stats.norm.ppf(target_power)
    with np.errstate(over="ignore", divide="ignore"):  # an effect size that underflows asks for inf seeds
        asks = float((np.float64(z_sum) / (abs(delta) / np.float64(sigma_d))) ** 2)
    return (
        f"`delta` = {delta!r} is too small against `sigma_d` = {sigma_d!r}: the normal approximation already "
        f"asks for {asks:.3g} seeds, beyond the {MAX_COUNT:,} a count can hold."
    )

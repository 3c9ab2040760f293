"""The paired t family on summaries of paired differences, vectorised over comparisons.

Private: one core per statistic, shared by the public functions (one comparison:
arrays of length 1) and by :class:`~sigeval.report.Report` (every comparison of a
table at once), so that each statistic is computed in one place.

- :func:`summarise` turns rows of paired scores into :class:`Summaries`: the
  count, mean and sd of the differences (in units of a power of two, as
  :func:`~sigeval._numeric.stable_mean_sd` computes them), the pair's magnitude,
  and what a refusal has to say (the first difference, whether all are equal,
  whether one overflowed).
- :func:`student` (the paired t-test and its interval), :func:`tost` (two one-sided
  tests), :func:`power` (minimum detectable effect and power) and
  :func:`posterior` (the Student t posterior with a ROPE) take summaries and a
  level and return their values with one *reason* per row: ``""`` where the row
  was computed, else why it was refused, in the words the public functions use
  in their errors. A refused row's values are NaN.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import stats

from ._noncentral import power_beyond
from ._numeric import _SAFE_EXPONENT
from ._validation import ZERO_SPREAD_RTOL

#: What the reasons call the differences, as the public functions' errors do.
DIFFERENCES = "differences `scores_a - scores_b`"


@dataclass(frozen=True)
class Summaries:
    """The paired differences of many comparisons, one row each, as the t family needs them.

    ``mean = mean_u * unit`` and ``sd = sd_u * unit``: the mean and sample sd
    computed on the differences divided by ``unit``, a power of two (1 for
    ordinary values), so that neither overflows nor loses precision near the
    float64 limits. ``scale`` is the larger magnitude of the two scores (the
    rounding error of a difference is relative to it), ``top`` the largest
    magnitude of a difference. Rows with fewer than 2 pairs have NaN statistics.
    """

    n: np.ndarray
    mean_u: np.ndarray
    sd_u: np.ndarray
    unit: np.ndarray
    scale: np.ndarray
    top: np.ndarray
    first: np.ndarray
    constant: np.ndarray
    finite: np.ndarray

    @property
    def mean(self) -> np.ndarray:
        with np.errstate(over="ignore"):  # beyond float64 only when the scores are; the cores refuse it
            return self.mean_u * self.unit

    @property
    def sd(self) -> np.ndarray:
        with np.errstate(over="ignore"):
            return self.sd_u * self.unit

    @classmethod
    def empty(cls, size: int) -> Summaries:
        """``size`` rows with no pairs yet, for :func:`fill`."""
        nan = np.full(size, np.nan)
        return cls(n=np.zeros(size, dtype=np.int64), mean_u=nan.copy(), sd_u=nan.copy(), unit=np.ones(size),
                   scale=nan.copy(), top=nan.copy(), first=nan.copy(), constant=np.zeros(size, dtype=bool),
                   finite=np.ones(size, dtype=bool))

    def spread(self) -> np.ndarray:
        """Rows whose differences vary by more than rounding error (relative to the scores' magnitude)."""
        return self.sd > ZERO_SPREAD_RTOL * self.scale


def _unit(top: np.ndarray, n: int) -> np.ndarray:
    """:func:`~sigeval._numeric.safe_scale` with ``power=2`` of rows whose largest magnitude is ``top``."""
    exponent = np.frexp(top)[1]
    growth = 2 * exponent + np.log2(max(n, 1))
    ordinary = (growth < _SAFE_EXPONENT) & (2 * exponent > -_SAFE_EXPONENT)  # top = 0 has exponent 0: ordinary
    return np.where(ordinary, 1.0, np.ldexp(1.0, exponent - 1))


def fill(out: Summaries, rows: np.ndarray, a: np.ndarray, b: np.ndarray) -> None:
    """Summaries of the complete rows ``a``, ``b`` (shape (rows, pairs), pairs >= 2) into ``out`` at ``rows``."""
    with np.errstate(over="ignore", invalid="ignore"):
        d = a - b
    finite = np.isfinite(d).all(axis=1)
    top = np.max(np.abs(np.where(np.isfinite(d), d, 0.0)), axis=1)
    unit = _unit(top, d.shape[1])
    y = d / unit[:, None]
    out.n[rows] = d.shape[1]
    # The unit keeps sums of squares in range; only a row with an infinite difference (refused) is invalid.
    with np.errstate(invalid="ignore"):
        out.mean_u[rows] = y.mean(axis=1)
        out.sd_u[rows] = y.std(axis=1, ddof=1)
    out.unit[rows] = unit
    out.scale[rows] = np.maximum(np.max(np.abs(a), axis=1), np.max(np.abs(b), axis=1))
    out.top[rows] = top
    out.first[rows] = d[:, 0]
    out.constant[rows] = (d == d[:, :1]).all(axis=1)
    out.finite[rows] = finite


def summarise(a: np.ndarray, b: np.ndarray) -> Summaries:
    """Summaries of one comparison: checked paired scores ``a`` and ``b`` (1-D, at least 2 pairs)."""
    out = Summaries.empty(1)
    fill(out, np.array([0]), a[None, :], b[None, :])
    return out


# --------------------------------------------------------------------------- reasons


def _overflow(finite: dict[str, np.ndarray], names: str) -> np.ndarray:
    """Per row, :func:`~sigeval._numeric.check_finite_result`'s message where a field is not finite, else ""."""
    size = next(iter(finite.values())).shape[0]
    out = np.full(size, "", dtype=object)
    for r in np.flatnonzero(~np.all(np.stack(list(finite.values())), axis=0)):
        which = ", ".join(name for name, ok in finite.items() if not ok[r])
        out[r] = (f"The result overflows float64 ({which} not finite): the values of {names} are too large, or "
                  "too far apart in scale, for float64 arithmetic; rescale them (e.g. divide by a power of ten).")
    return out


def refusals(s: Summaries) -> np.ndarray:
    """Why a row's differences admit no t-based inference: too few pairs, an overflow, zero spread; else ""."""
    out = np.full(s.n.shape, "", dtype=object)
    spread = s.spread()
    for r in np.flatnonzero((s.n < 2) | ~s.finite | ~spread):
        if s.n[r] < 2:
            out[r] = (f"{int(s.n[r])} seed(s) on which both ran; a paired comparison needs at least 2 "
                      "(see `failed_runs`).")
        elif not s.finite[r]:
            out[r] = ("The differences `scores_a - scores_b` overflow float64 (|difference| > 1.8e308); rescale the "
                      "scores (e.g. divide both by the same power of ten) before comparing them.")
        else:
            out[r] = (f"The {DIFFERENCES} have zero spread (all equal to {float(s.first[r])!r}"
                      f"{'' if s.constant[r] else ' up to rounding error'}): a t-based test needs variation between "
                      "repetitions. Identical values often mean the runs were not independent repetitions (e.g. the "
                      "same checkpoint evaluated again).")
    return out


def _then(reason: np.ndarray, more: np.ndarray) -> np.ndarray:
    """The first reason of each row: ``reason``, else ``more``."""
    return np.where(reason == "", more, reason)


def _refuse(values: dict[str, np.ndarray], reason: np.ndarray) -> dict[str, np.ndarray]:
    """NaN in every value of a refused row."""
    refused = reason != ""
    for column in values.values():
        column[refused] = np.nan
    return values


def _per_df(quantile, df: np.ndarray) -> np.ndarray:
    """``quantile(df)`` computed once per distinct number of degrees of freedom."""
    distinct, inverse = np.unique(df, return_inverse=True)
    return np.asarray(quantile(distinct), dtype=float)[inverse]


def _quantile(q, level: float | np.ndarray, df: np.ndarray) -> np.ndarray:
    """A t quantile at ``level`` (one, or one per row) for each row's degrees of freedom."""
    if np.ndim(level) == 0:
        return _per_df(lambda d: q(level, d), df)
    return q(level, df)


# --------------------------------------------------------------------------- the cores


def student(s: Summaries, alpha: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """The paired t-test of a zero mean difference and its ``1 - alpha`` Student interval.

    Values ``statistic``, ``ci_low``, ``ci_high``, ``pvalue`` (two-sided), per row. Only the interval
    can overflow: a row with spread has ``sd`` above ZERO_SPREAD_RTOL times the scores' magnitude, which
    bounds ``|statistic|`` by about ``2 sqrt(n) / ZERO_SPREAD_RTOL``.
    """
    n, mean, sd = s.n, s.mean, s.sd
    df = np.maximum(n - 1, 1)
    with np.errstate(all="ignore"):
        se = sd / np.sqrt(n)
        statistic = mean / se
        half = _quantile(stats.t.isf, alpha / 2, df) * se
        low, high = mean - half, mean + half
        pvalue = 2 * stats.t.sf(np.abs(statistic), df)
    reason = _then(refusals(s), _overflow({"confidence_interval": np.isfinite(low) & np.isfinite(high)},
                                          "`scores_a` and `scores_b`"))
    values = {"statistic": statistic, "ci_low": low, "ci_high": high, "pvalue": pvalue}
    return _refuse(values, reason), reason


def tost(s: Summaries, margin: float, alpha: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
    """Two one-sided paired t-tests of ``|mean| >= margin`` and their ``1 - 2 alpha`` interval.

    Values ``statistic_lower``, ``pvalue_lower`` (of ``H0: mean <= -margin``),
    ``statistic_upper``, ``pvalue_upper`` (of ``H0: mean >= margin``), ``pvalue``
    (the larger), ``ci_low``, ``ci_high``, per row.
    """
    n, mean = s.n, s.mean
    df = np.maximum(n - 1, 1)
    with np.errstate(all="ignore"):
        se = s.sd / np.sqrt(n)
        t_lower, t_upper = (mean + margin) / se, (mean - margin) / se
        half = _quantile(stats.t.isf, alpha, df) * se
        low, high = mean - half, mean + half
        p_lower, p_upper = stats.t.sf(t_lower, df), stats.t.cdf(t_upper, df)
    reason = _then(refusals(s), _overflow(
        {"statistic_lower": np.isfinite(t_lower), "statistic_upper": np.isfinite(t_upper),
         "confidence_interval": np.isfinite(low) & np.isfinite(high)}, "`scores_a`, `scores_b` and `margin`"))
    values = {"statistic_lower": t_lower, "pvalue_lower": p_lower, "statistic_upper": t_upper,
              "pvalue_upper": p_upper, "pvalue": np.maximum(p_lower, p_upper), "ci_low": low, "ci_high": high}
    return _refuse(values, reason), reason


def power(
    sigma_d: np.ndarray, n: np.ndarray, alpha: float | np.ndarray, target_power: float, delta: np.ndarray | None = None
) -> tuple[dict[str, np.ndarray], np.ndarray]:
    r"""The paired t-test's minimum detectable effect at ``target_power``, and its power at ``delta``.

    :math:`\mathrm{MDE} = (t_{n-1,1-\alpha/2} + t_{n-1,1-\beta})\,\sigma_d/\sqrt n`; the power is the
    noncentral t's at noncentrality :math:`|\delta|\sqrt n/\sigma_d`. ``alpha`` is one level or one per
    row (Holm's). Values ``mde``, ``power_at_mde`` and, with ``delta``, ``power``.
    """
    df = n - 1
    t_crit = _quantile(stats.t.isf, np.divide(alpha, 2), df)
    t_sum = t_crit + _quantile(stats.t.ppf, target_power, df)
    with np.errstate(over="ignore"):  # refused below
        mde = t_sum * sigma_d / np.sqrt(n)
    values = {"mde": mde, "power_at_mde": power_beyond(t_sum, df, t_crit)}
    if delta is not None:
        with np.errstate(over="ignore"):  # an infinite noncentrality has power 1
            values["power"] = power_beyond(np.abs(delta) * np.sqrt(n) / sigma_d, df, t_crit)
    reason = _overflow({"mde": np.isfinite(mde)}, "`sigma_d`")
    return _refuse(values, reason), reason


def posterior(s: Summaries, rope: float, inflation: float, spread_of: str) -> tuple[dict[str, np.ndarray], np.ndarray]:
    r"""The Student t posterior of the mean difference under the noninformative prior, and its ROPE probabilities.

    Location the mean, scale :math:`s_d\sqrt{1/n + \text{inflation}}` with :math:`n - 1` degrees of freedom
    (``inflation`` = 0: the Bayesian paired t; :math:`\rho/(1-\rho)`: the correlated t). Computed in each
    row's unit (a power of two), so that the probabilities are those of the data scaled to ordinary values.
    A spread at the level of rounding error gives a point mass at the mean: judged against the scores'
    magnitude with ``spread_of="scores"``, against the differences' with ``"differences"``. Values ``loc``,
    ``scale``, ``prob_a_better`` (:math:`\delta > r`), ``prob_rope``, ``prob_b_better`` (:math:`\delta < -r`).
    """
    n, loc, unit = s.n, s.mean_u, s.unit
    against = s.scale if spread_of == "scores" else s.top
    with np.errstate(all="ignore"):
        point = ~(s.sd_u > ZERO_SPREAD_RTOL * (against / unit))
        scale = np.where(point, 0.0, s.sd_u * np.sqrt(1 / n + inflation))
        rope_u = np.float64(rope) / unit  # a ROPE beyond float64 in these units holds every difference
        a_better, middle, b_better = t_regions(loc, scale, np.maximum(n - 1, 1), rope_u)
        values = {"loc": loc * unit, "scale": scale * unit, "prob_a_better": a_better, "prob_rope": middle,
                  "prob_b_better": b_better}
    # Zero spread is a point mass, not a refusal; too few pairs, an overflowing difference or scale are.
    reason = np.where((n < 2) | ~s.finite, refusals(s), "")
    names = "`scores_a` and `scores_b`" if spread_of == "scores" else "`differences`"
    reason = _then(reason, _overflow({"scale": np.isfinite(values["scale"])}, names))
    return _refuse(values, reason), reason


def t_regions(loc, scale, df, rope) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """P(delta > r), P(|delta| <= r), P(delta < -r) under t(df, loc, scale); a point mass where scale is 0."""
    loc, scale, df, rope = np.broadcast_arrays(*(np.asarray(x, dtype=float) for x in (loc, scale, df, rope)))
    with np.errstate(all="ignore"):
        upper, lower = (rope - loc) / scale, (-rope - loc) / scale
        a_better, b_better = stats.t.sf(upper, df), stats.t.cdf(lower, df)
        # The middle from the tail on the side of zero, so that a tiny ROPE probability far out in a tail is
        # not lost to cancellation.
        middle = np.where(lower > 0, stats.t.sf(lower, df) - a_better, stats.t.cdf(upper, df) - b_better)
    point = scale == 0
    if np.any(point):
        at, r = loc[point], rope[point]
        on_boundary = (r == 0) & (at == 0)  # ties count half, as in P(A > B)
        a_better[point] = np.where(on_boundary, 0.5, at > r)
        middle[point] = np.where(on_boundary, 0.0, np.abs(at) <= r)
        b_better[point] = np.where(on_boundary, 0.5, at < -r)
    return a_better, middle, b_better

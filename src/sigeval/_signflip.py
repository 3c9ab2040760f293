"""The sign-flip engine of the paired permutation test: exact tails (binomial, convolution, enumeration) and Monte Carlo sign flips.

Private: :mod:`sigeval.permutation` and :mod:`sigeval.counts` are its front doors.
"""

from __future__ import annotations

import numpy as np
from scipy import fft, stats

from ._bootstrap_engine import chunks
from ._numeric import safe_scale

# Exact permutation null by convolution: support size and work (magnitudes x support).
EXACT_MAX_SUM = 1_000_000
_EXACT_MAX_WORK = 20_000_000
# Up to this many nonzero differences of mixed magnitudes, every sign pattern is enumerated.
ENUMERATE_MAX = 20
# The smallest p-value reported: 2**-m for m nonzero differences, but never
# below the smallest normal float when 2**-m underflows (m > 1022).
_P_FLOOR = float(np.finfo(float).tiny)
# Monte Carlo tie tolerance on the scale of a mean difference of 0/1 scores;
# it grows with the magnitude of the differences (see paired_permutation_test).
TIE_TOLERANCE = 1e-12


def exact_tails(d: np.ndarray) -> tuple[float, float] | None:
    """Exact ``(P(T* >= t), P(T* <= t))`` under random signs, or None if infeasible."""
    nonzero = d[d != 0]
    m = nonzero.size
    if m == 0:
        return 1.0, 1.0
    magnitude = np.abs(nonzero)
    floor = max(2.0**-m, _P_FLOOR)
    if np.all(magnitude == magnitude[0]):
        return binomial_tails(int(np.count_nonzero(nonzero > 0)), m)
    with np.errstate(over="ignore"):  # an infinite total is simply too large
        total = magnitude.sum()
    if np.all(magnitude == np.round(magnitude)) and total <= EXACT_MAX_SUM:
        distinct, multiplicity = np.unique(magnitude.astype(np.int64), return_counts=True)
        if distinct.size * (int(total) + 1) <= _EXACT_MAX_WORK:
            pmf = _signed_sum_pmf(distinct, multiplicity, int(total))
            w_obs = int(magnitude[nonzero > 0].sum())
            return (
                float(np.clip(pmf[w_obs:].sum(), floor, 1.0)),
                float(np.clip(pmf[: w_obs + 1].sum(), floor, 1.0)),
            )
    if m <= ENUMERATE_MAX:
        # The tails do not change with the scale, which keeps the sums finite.
        return _enumerated_tails(nonzero / safe_scale(nonzero), d.size)
    return None


def binomial_tails(n_pos: int, m: int) -> tuple[float, float]:
    """The exact tails when the ``m`` nonzero differences share one magnitude, ``n_pos`` of them positive.

    T* = u (2W - m) with W ~ Bin(m, 1/2) positive signs; by symmetry
    P(W >= n_pos) = P(W <= m - n_pos). No p-value is below 2**-m.
    """
    if m == 0:
        return 1.0, 1.0
    floor = max(2.0**-m, _P_FLOOR)
    return (
        max(float(stats.binom.cdf(m - n_pos, m, 0.5)), floor),
        max(float(stats.binom.cdf(n_pos, m, 0.5)), floor),
    )


def _signed_sum_pmf(distinct: np.ndarray, multiplicity: np.ndarray, total: int) -> np.ndarray:
    r"""pmf of :math:`W = \sum_i b_i |d_i|` over 0..total, :math:`b_i` fair coins.

    One difference of magnitude ``u`` has the DFT :math:`(1 + e^{-2\pi i f u/L})/2
    = e^{-i\pi f u/L}\cos(\pi f u / L)`, so the DFT of ``W`` is the product of the
    cosines, shifted by :math:`e^{-i\pi f\,\mathrm{total}/L}`; ``L > total`` avoids wrap-around.
    """
    length = fft.next_fast_len(total + 1, real=True)
    freq = np.arange(length // 2 + 1)
    spectrum = np.ones(freq.size)
    # One pass per distinct magnitude, not per item; integer phases are reduced
    # modulo a full turn before scaling, so large products lose no precision.
    for u, count in zip(distinct, multiplicity):
        spectrum *= np.cos(np.pi * ((u * freq) % (2 * length)) / length) ** count
    shift = np.exp(-1j * np.pi * ((total * freq) % (2 * length)) / length)
    pmf = fft.irfft(spectrum * shift, n=length)[: total + 1]
    return np.clip(pmf, 0.0, None)


def _enumerated_tails(nonzero: np.ndarray, n: int) -> tuple[float, float]:
    m = nonzero.size
    observed = nonzero.sum() / n
    tolerance = TIE_TOLERANCE * max(1.0, float(np.abs(nonzero).max()))
    bits = np.arange(m)
    at_least = at_most = 0
    for start, rows in chunks(2**m, 2 * m):
        pattern = np.arange(start, start + rows)[:, None]
        signs = 1.0 - 2.0 * ((pattern >> bits) & 1)
        null = signs @ nonzero / n
        at_least += np.count_nonzero(null >= observed - tolerance)
        at_most += np.count_nonzero(null <= observed + tolerance)
    return at_least / 2**m, at_most / 2**m


def pvalue_from_tails(tails: tuple[float, float], alternative: str) -> float:
    greater, less = tails
    if alternative == "greater":
        return greater
    if alternative == "less":
        return less
    return min(1.0, 2 * min(greater, less))


def sign_flip_means(d: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    out = np.empty(n_resamples)
    for start, rows in chunks(n_resamples, 2 * d.size):
        flips = rng.choice([-1.0, 1.0], size=(rows, d.size))
        out[start : start + rows] = (flips * d).mean(axis=1)
    return out

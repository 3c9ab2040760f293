"""Numeric helpers: safe scaling of sums near the float64 limits, a stable mean and sd, and the check that a result stayed finite.

Private; the statistics modules and the engines call these.
"""

from __future__ import annotations

import math

import numpy as np

# Sums of powers of values are rescaled when they would reach 2**1000 (float64
# overflows at 2**1024) or fall below 2**-1000 (where precision is lost).
_SAFE_EXPONENT = 1000


def safe_scale(x: np.ndarray, power: int = 1) -> float:
    """A power of two by which to divide ``x`` so that sums of its ``power``-th powers stay in range.

    1.0 when ``x.size`` terms of magnitude ``max |x| ** power`` can be summed
    without overflow or underflow, so that ordinary values give unchanged
    results; otherwise the power of two nearest the largest magnitude.
    Dividing by a power of two is exact (values more than 2**1074 times
    smaller than the largest then vanish, below any sum's rounding).
    """
    top = float(np.max(np.abs(x))) if x.size else 0.0
    if top == 0.0:
        return 1.0
    exponent = math.frexp(top)[1]
    growth = power * exponent + math.log2(max(x.size, 1))
    if growth < _SAFE_EXPONENT and power * exponent > -_SAFE_EXPONENT:
        return 1.0
    return power_of_two_near(top)


def power_of_two_near(top: float) -> float:
    """The power of two 2**(e - 1) with ``top`` in [2**(e - 1), 2**e), for a positive finite ``top``."""
    # 2**(e - 1), not 2**e: 2**1024 itself overflows.
    return math.ldexp(1.0, math.frexp(top)[1] - 1)


def stable_mean_sd(x: np.ndarray) -> tuple[float, float]:
    """Mean and sample sd (``ddof=1``) computed on ``x`` rescaled by :func:`safe_scale`.

    Values near the float64 limits then neither overflow in the sum (nor in
    the squares, from about 1e154) nor underflow; ordinary values give
    numpy's results bit for bit.
    """
    s = safe_scale(x, power=2)
    y = x / s
    return float(y.mean()) * s, float(y.std(ddof=1)) * s


def running_mean_and_squares(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The mean of the first n values and their sum of squared deviations, for every n (Welford's
    updates, which avoid the cancellation of sum(x**2) - n mean**2)."""
    n = np.arange(1, x.size + 1)
    mean = np.cumsum(x) / n
    squares = np.cumsum((x - np.concatenate(([0.0], mean[:-1]))) * (x - mean))
    return mean, squares


def check_finite_result(fields: dict[str, float | np.ndarray], names: str) -> None:
    """Refuse a result that overflowed, instead of returning inf or NaN silently."""
    bad = [k for k, v in fields.items() if not np.all(np.isfinite(v))]
    if bad:
        raise ValueError(
            f"The result overflows float64 ({', '.join(bad)} not finite): the values of {names} "
            "are too large, or too far apart in scale, for float64 arithmetic; rescale them "
            "(e.g. divide by a power of ten)."
        )

"""The t, F and z cores shared by the t-based tests (seeds, procedures, equivalence, cross-validation).

Private. The batch cores take arrays of differences with the repetitions on the last axis,
so the course's simulation of Dietterich's study runs them over thousands of replications at once.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ._validation import check_spread


def spread(d: np.ndarray, what: str, scale: float | None = None) -> tuple[float, float, float]:
    """Mean, sample sd (ddof=1) and standard error of ``d``; refuses zero spread.

    ``scale`` is the magnitude of the data ``d`` was computed from (for
    differences ``a - b``, ``max(|a|, |b|)``); see :func:`~sigeval._validation.check_spread`.
    """
    mean, sd = check_spread(d, what, scale)
    return mean, sd, sd / math.sqrt(d.size)


def pair_scale(a: np.ndarray, b: np.ndarray) -> float:
    """The magnitude that bounds the rounding error of ``a - b``."""
    return float(max(np.max(np.abs(a)), np.max(np.abs(b))))


def two_sided_p(statistic: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(statistic), df))


def five_by_two_variances(p: np.ndarray) -> np.ndarray:
    """Each replication's variance estimate s_i^2, for arrays of shape (..., 5, 2)."""
    return np.sum((p - p.mean(axis=-1, keepdims=True)) ** 2, axis=-1)


def five_by_two_t_core(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Dietterich's t and its p-value for arrays of shape (..., 5, 2) (NaN if undefined)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = p[..., 0, 0] / np.sqrt(five_by_two_variances(p).mean(axis=-1))
    return statistic, 2 * stats.t.sf(np.abs(statistic), 5)


def five_by_two_f_core(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Alpaydin's F and its p-value for arrays of shape (..., 5, 2) (NaN if undefined)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = np.sum(p**2, axis=(-2, -1)) / (2 * five_by_two_variances(p).sum(axis=-1))
    return statistic, stats.f.sf(statistic, 10, 5)


def proportions_core(k_a: np.ndarray, k_b: np.ndarray, n: np.ndarray):
    """z, two-sided p, estimate and SE for validated counts (any shape); z = 0 when SE = 0."""
    # From the counts: 1 - (p_a + p_b) / 2 and p_a - p_b cancel when p_a and p_b are close.
    pooled = (k_a + k_b) / (2 * n)
    pooled_errors = ((n - k_a) + (n - k_b)) / (2 * n)
    se = np.sqrt(2 * pooled * pooled_errors / n)
    estimate = (k_a - k_b) / n
    # SE = 0 only when both models are right (or wrong) on every item: then k_a = k_b.
    statistic = np.where(se > 0, estimate / np.where(se > 0, se, 1.0), 0.0)
    return statistic, 2 * stats.norm.sf(np.abs(statistic)), estimate, se


def paired_t_core(d: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """t = mean sqrt(J) / sd over the last axis, and its two-sided p-value.

    Where sd is exactly 0: t = +-inf and p = 0 for a constant non-zero row, NaN for zeros.
    """
    size = d.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = d.mean(axis=-1) * math.sqrt(size) / d.std(axis=-1, ddof=1)
    return statistic, 2 * stats.t.sf(np.abs(statistic), size - 1)


def corrected_t_core(d: np.ndarray, n_train: int, n_test: int) -> tuple[np.ndarray, np.ndarray]:
    """Nadeau and Bengio's t over the last axis, and its two-sided p-value.

    Where sd is exactly 0: t = +-inf and p = 0 for a constant non-zero row, NaN for zeros.
    """
    size = d.shape[-1]
    with np.errstate(divide="ignore", invalid="ignore"):
        statistic = d.mean(axis=-1) / np.sqrt(
            (1 / size + n_test / n_train) * d.var(axis=-1, ddof=1)
        )
    return statistic, 2 * stats.t.sf(np.abs(statistic), size - 1)

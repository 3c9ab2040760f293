"""Helpers shared by the t-based tests (seeds, procedures, equivalence, cross-validation)."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats

from ._validation import check_spread


def _spread(d: np.ndarray, what: str, scale: float | None = None) -> tuple[float, float, float]:
    """Mean, sample sd (ddof=1) and standard error of ``d``; refuses zero spread.

    ``scale`` is the magnitude of the data ``d`` was computed from (for
    differences ``a - b``, ``max(|a|, |b|)``); see :func:`~sigeval._validation.check_spread`.
    """
    mean, sd = check_spread(d, what, scale)
    return mean, sd, sd / math.sqrt(d.size)


def _pair_scale(a: np.ndarray, b: np.ndarray) -> float:
    """The magnitude that bounds the rounding error of ``a - b``."""
    return float(max(np.max(np.abs(a)), np.max(np.abs(b))))


def _two_sided_p(statistic: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(statistic), df))

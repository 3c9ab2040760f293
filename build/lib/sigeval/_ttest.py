"""Helpers shared by the t-based tests (seeds, procedures, equivalence, cross-validation)."""

from __future__ import annotations

import math

import numpy as np
from scipy import stats


def _spread(d: np.ndarray, what: str) -> tuple[float, float, float]:
    """Mean, sample sd (ddof=1) and standard error of ``d``; refuses zero spread."""
    sd = float(d.std(ddof=1))
    if sd == 0:
        raise ValueError(
            f"The {what} have zero spread (all equal to {float(d[0])!r}): a t-based test needs "
            "variation between repetitions. Identical values often mean the runs were not "
            "independent repetitions (e.g. the same checkpoint evaluated again)."
        )
    return float(d.mean()), sd, sd / math.sqrt(d.size)


def _two_sided_p(statistic: float, df: float) -> float:
    return float(2 * stats.t.sf(abs(statistic), df))

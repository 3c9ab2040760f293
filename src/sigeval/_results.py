"""Result types shared by several modules."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class ConfidenceInterval:
    """Lower and upper bound of a confidence interval.

    Like the ``ConfidenceInterval`` of ``scipy.stats`` results, but it also
    unpacks as a pair: ``low, high = ci``. Bounds are floats for a single
    interval and arrays when the inputs were arrays.
    """

    low: float | np.ndarray
    high: float | np.ndarray

    def __iter__(self):
        return iter((self.low, self.high))

"""Result types shared by several modules."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np


@dataclass(frozen=True)
class ConfidenceInterval:
    """Lower and upper bound of a confidence interval.

    Like the ``ConfidenceInterval`` of ``scipy.stats`` results, and usable
    both as a pair and as an array: ``low, high = ci``, ``ci[0]``,
    ``np.asarray(ci)`` (shape ``(2, ...)``: the bounds stacked on the first
    axis). Bounds are floats for a single interval and arrays when the inputs
    were arrays.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval import ConfidenceInterval
    >>> ci = ConfidenceInterval(0.81, 0.87)
    >>> low, high = ci
    >>> float(np.diff(np.asarray(ci))[0]).__round__(2), len(ci), ci[1]
    (0.06, 2, 0.87)
    """

    low: float | np.ndarray
    high: float | np.ndarray

    def __iter__(self):
        return iter((self.low, self.high))

    def __len__(self) -> int:
        return 2

    def __getitem__(self, index: int) -> Any:
        return (self.low, self.high)[index]

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        return np.asarray([self.low, self.high], dtype=dtype)


@dataclass(frozen=True)
class BootstrapResult:
    """A bootstrap confidence interval.

    Attributes
    ----------
    estimate : float
        The statistic on the original data (for a paired bootstrap, A minus B).
    confidence_interval : ConfidenceInterval
        ``low`` and ``high`` bounds.
    bootstrap_distribution : ndarray
        The statistic on each of the ``n_resamples`` resamples.
    standard_error : float
        Standard deviation of the bootstrap distribution (``ddof=1``).
    method : str
        ``"percentile"``, ``"basic"`` or ``"bca"``.
    confidence_level : float
        The nominal coverage.
    n_resamples : int
        Number of bootstrap resamples.
    """

    estimate: float
    confidence_interval: ConfidenceInterval
    bootstrap_distribution: np.ndarray = field(repr=False)
    standard_error: float
    method: str
    confidence_level: float
    n_resamples: int

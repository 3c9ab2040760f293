"""sigeval: statistical significance in evaluation.

The library of the course *Significance in Evaluation*. Each module holds one
idea of the course and names the chapter that explains it.
"""

from ._results import ConfidenceInterval
from .intervals import coverage, proportion_ci

__version__ = "0.1.0"

__all__ = ["ConfidenceInterval", "coverage", "proportion_ci", "__version__"]

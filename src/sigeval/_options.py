"""Option sets that several modules share, as tuples (for the checks) and ``Literal`` types."""

from __future__ import annotations

from typing import Literal

#: The alternatives of a test of a difference A minus B.
ALTERNATIVES = ("two-sided", "greater", "less")
Alternative = Literal["two-sided", "greater", "less"]

#: The bootstrap interval methods of :func:`sigeval.resampling.bootstrap_ci`.
BOOTSTRAP_METHODS = ("percentile", "basic", "bca")
BootstrapMethod = Literal["percentile", "basic", "bca"]

#: The Holm family of a set of comparisons: the pairs of one task, or every pair of every task.
FAMILIES = ("task", "all")
Family = Literal["task", "all"]

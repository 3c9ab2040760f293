"""Option sets that several modules share, as tuples (for the checks) and ``Literal`` types."""

from __future__ import annotations

from typing import Literal

#: The alternatives of a test of a difference A minus B.
ALTERNATIVES = ("two-sided", "greater", "less")
Alternative = Literal["two-sided", "greater", "less"]

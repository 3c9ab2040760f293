"""What every benchmark shares: a comparison, its median timing, and one table.

Each ``bench_*.py`` defines ``comparisons()``, a list of :class:`Comparison`:
what is measured, sigeval's call, and the call a user would make instead.
``run_all.py`` (``make bench``) times every comparison and prints one table of
ratios; each script run alone prints its own. Times are medians over
``repeats`` runs on this machine; only the ratios carry over to another.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Comparison:
    name: str
    ours: Callable[[], Any]
    alternative: str
    theirs: Callable[[], Any]
    # The alternative runs 1/scale of the work (e.g. fewer resamples); its time is multiplied by scale.
    scale: float = 1.0
    repeats: int = 5
    # A time sigeval's call must stay under (a goal of an issue), checked in the table.
    goal: float | None = None
    # Expensive calls skip the warm-up run (their first call is the measurement).
    warmup: bool = True
    # Given the last results of sigeval's call and of the alternative, says how far they agree (a short note),
    # or raises AssertionError when they do not.
    agree: Callable[[Any, Any], str] | None = None


def median_seconds(fn: Callable[[], Any], repeats: int, warmup: bool = True) -> tuple[float, Any]:
    """The median time of ``repeats`` calls, and the last call's result."""
    if warmup:
        fn()  # warm-up: imports, caches, first allocations
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        result = fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times), result


def measure(comparisons: list[Comparison]) -> list[dict[str, Any]]:
    rows = []
    for c in comparisons:
        ours, ours_result = median_seconds(c.ours, c.repeats, c.warmup)
        theirs, theirs_result = median_seconds(c.theirs, c.repeats, c.warmup)
        theirs *= c.scale
        note = f"x{c.scale:g} extrapolated" if c.scale != 1 else ""
        if c.agree is not None:
            note = f"{c.agree(ours_result, theirs_result)}; " + note
        if c.goal is not None:
            note = f"goal < {c.goal:g} s {'met' if ours < c.goal else 'NOT MET'}; " + note
        rows.append({"benchmark": c.name, "sigeval_s": ours, "alternative": c.alternative,
                     "alternative_s": theirs, "speedup": theirs / ours, "note": note, "repeats": c.repeats})
    return rows


def table(rows: list[dict[str, Any]]) -> str:
    head = f"{'benchmark':60s} {'sigeval':>9s} {'alternative':44s} {'theirs':>9s} {'speedup':>9s}  note"
    lines = [head, "-" * len(head)]
    for r in rows:
        lines.append(
            f"{r['benchmark']:60s} {r['sigeval_s']:8.4f}s {r['alternative']:44s} {r['alternative_s']:8.3f}s "
            f"{r['speedup']:8.2f}x  {r['note']} (median of {r['repeats']})"
        )
    return "\n".join(lines)


def run(comparisons: list[Comparison]) -> None:
    print(table(measure(comparisons)))

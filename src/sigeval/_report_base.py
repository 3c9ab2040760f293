"""The data of :class:`~sigeval.report.Report`: the runs paired by (task, seed), their options, and the
checks and result types its views share.

Private: ``sigeval.report`` builds on it, view by view (:mod:`sigeval._report_across`, the views across
tasks; :mod:`sigeval._report_within`, the comparisons within a task).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Literal

import numpy as np
import pandas as pd

from ._options import FAMILIES, Family  # noqa: F401 (the views import them from here)
from ._runs_table import Comparisons, pair_runs, read_runs, show_runs
from ._validation import check_choice, check_flag

FailedPolicy = Literal["raise", "drop-pairs"]
#: The units of a report's numbers: the scores as given, or percentage points (proportions x 100).
Units = Literal["score", "points"]
UNITS = ("score", "points")
#: The level of the power view: ``alpha`` itself, the level Holm's decision uses, or alpha over the family size.
PowerCorrection = Literal["none", "holm", "bonferroni"]
POWER_CORRECTIONS = ("none", "holm", "bonferroni")


class ReportData:
    """The runs of a report paired by (task, seed), in the models' order; the views come with its subclasses."""

    def __init__(
        self,
        table: Any,
        *,
        task: str = "task",
        model: str = "model",
        seed: str = "seed",
        score: str = "score",
        higher_is_better: bool = True,
        failed: FailedPolicy = "raise",
        models: Sequence | None = None,
        reference: Any = None,
        units: Units = "score",
    ) -> None:
        self.higher_is_better = check_flag(higher_is_better, "higher_is_better")
        self.failed = check_choice(failed, "failed", ("raise", "drop-pairs"))
        self.units = check_choice(units, "units", UNITS)
        self.scale = 100.0 if self.units == "points" else 1.0
        runs = read_runs(table, {"task": task, "model": model, "seed": seed, "score": score})
        if self.scale != 1.0:
            runs["score"] = runs["score"] * self.scale
        self.runs = runs
        self.tasks, self.models, self._scores, self.seeds, self.failed_runs = pair_runs(runs)
        self._order_models(models, reference)
        self.reference = None if reference is None else self.models[-1]
        self._comparisons: Comparisons | None = None
        if len(self.models) < 2:
            raise ValueError(
                f"A report compares at least 2 models; the table holds {len(self.models)}: {list(self.models)!r}."
            )
        if len(self.failed_runs) and self.failed == "raise":
            raise ValueError(
                f"{len(self.failed_runs)} failed or broken run(s): {show_runs(self.failed_runs)}. "
                "Failed runs are never dropped silently: repair them, or pass failed='drop-pairs' "
                "to leave out the pairs they belong to (listed in `failed_runs`)."
            )

    def _order_models(self, models: Sequence | None, reference: Any) -> None:
        """Put the models in the order asked: every model listed once, and the reference (if any) last.

        Differences are A minus B with A before B, so with the reference last every
        comparison against it reads candidate minus reference.
        """
        order = list(self.models)
        if models is not None:
            if isinstance(models, str | bytes) or not isinstance(models, Sequence | np.ndarray | pd.Index):
                raise TypeError(f"`models` must be a sequence of the table's model names; got {models!r}.")
            asked = list(models)
            if sorted(map(str, asked)) != sorted(map(str, order)) or len(set(map(str, asked))) != len(asked):
                raise ValueError(
                    f"`models` must list every model of the table once, in the order wanted; the table holds "
                    f"{order!r}, got {asked!r}."
                )
            order = [next(m for m in order if str(m) == str(a)) for a in asked]
        if reference is not None:
            if not any(str(m) == str(reference) for m in order):
                raise ValueError(f"`reference` must be one of the table's models, {order!r}; got {reference!r}.")
            base = next(m for m in order if str(m) == str(reference))
            order = [m for m in order if m is not base] + [base]
        if order == list(self.models):
            return
        where = [self.models.index(m) for m in order]
        self._scores = {t: grid[:, where] for t, grid in self._scores.items()}
        self.models = tuple(order)

    def _seeds_per_task(self, between: str) -> str:
        """``"10"``, or ``"3-10"`` when the tasks have different numbers of seeds."""
        counts = sorted({len(s) for s in self.seeds.values()})
        return f"{counts[0]}" if len(counts) == 1 else f"{counts[0]}{between}{counts[-1]}"

    def __repr__(self) -> str:
        return (
            f"Report({len(self.tasks)} task(s), {len(self.models)} models, {self._seeds_per_task('-')} seeds per task, "
            f"{len(self.failed_runs)} failed run(s))"
        )

"""The results of :class:`~sigeval.report.Report`'s views across tasks: dataclasses readable as mappings.

Private: ``sigeval.report`` exports them.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import pandas as pd


class _FieldMapping(Mapping):
    """Read-only mapping over a frozen dataclass's fields: ``r["x"]`` is ``r.x``."""

    def __getitem__(self, key: str) -> Any:
        if key not in self._field_names():
            raise KeyError(key)
        return getattr(self, key)

    def __iter__(self) -> Iterator[str]:
        return iter(self._field_names())

    def __len__(self) -> int:
        return len(self._field_names())

    def _field_names(self) -> tuple[str, ...]:
        return tuple(f.name for f in fields(self))  # type: ignore[arg-type]


@dataclass(frozen=True, eq=False)
class ReportFriedman(_FieldMapping):
    """Result of :meth:`Report.friedman`: the ranking of the models across tasks.

    Readable both as attributes and as a mapping (``f["critical_difference"]``).

    Attributes
    ----------
    statistic, pvalue : float
        Friedman's :math:`\\chi^2_F` and its p-value.
    statistic_f, pvalue_f : float
        Iman and Davenport's :math:`F_F` and its p-value. When every task ranks
        the models in the same order, :math:`F_F` is infinite and its p-value 0
        (the limit of the formula as :math:`\\chi^2_F` reaches its maximum).
    mean_ranks : pandas.Series
        Mean rank of each model over the tasks (1 is the best).
    critical_difference : float
        Nemenyi's critical difference at ``alpha`` for this many models and tasks.
    max_rank_gap : float
        The largest difference between two models' mean ranks.
    n_for_observed_gap : int or None
        Fewest tasks at which ``max_rank_gap`` would reach the critical
        difference (:func:`~sigeval.ranking.tasks_for_gap`); None when every
        model has the same mean rank, so there is no gap to resolve.
    n_tasks, n_models : int
    alpha : float
    mean_scores : pandas.DataFrame
        Tasks by models: each model's mean score over the seeds used.
    n_seeds : pandas.Series
        Seeds used per task: those on which every model has a run.
    result : FriedmanResult
        The underlying :func:`~sigeval.ranking.friedman` result (for
        :func:`~sigeval.plots.cd_diagram`).
    """

    statistic: float
    pvalue: float
    statistic_f: float
    pvalue_f: float
    mean_ranks: pd.Series
    critical_difference: float
    max_rank_gap: float
    n_for_observed_gap: int | None
    n_tasks: int
    n_models: int
    alpha: float
    mean_scores: pd.DataFrame = field(repr=False)
    n_seeds: pd.Series = field(repr=False)
    result: Any = field(repr=False)


@dataclass(frozen=True, eq=False)
class ReportRankStability(_FieldMapping):
    """Result of :meth:`Report.rank_stability`: the ranking under resampled tasks.

    Readable both as attributes and as a mapping (``st["order_stability"]``).

    Attributes
    ----------
    order_stability : float
        Fraction of resamples of the tasks that reproduce the full observed order.
    separation : pandas.DataFrame
        Models by models: fraction of resamples in which the two mean ranks
        differ by more than the critical difference.
    jackknife : pandas.DataFrame
        Tasks by models: shift of each model's mean rank when that task is dropped.
    n_boot : int
        Number of resamples (the source's name; also readable as ``n_resamples``).
    result : RankStabilityResult
        The underlying :func:`~sigeval.rank_uncertainty.rank_stability` result.
    """

    order_stability: float
    separation: pd.DataFrame
    jackknife: pd.DataFrame
    n_boot: int
    result: Any = field(repr=False)

    @property
    def n_resamples(self) -> int:
        """Number of resamples, under the library's name for it."""
        return self.n_boot

"""The views of :class:`~sigeval.report.Report` across tasks: Friedman, rank stability, aggregates.

Private: ``sigeval.report`` exports them as methods of ``Report``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from ._report_base import ReportData
from ._report_results import ReportFriedman, ReportRankStability
from ._validation import (
    RngLike,
    check_alpha,
    check_choices,
    check_positive_int,
    check_positive_real,
    check_real,
    check_rng,
    check_unit_interval,
)
from .aggregate import AGGREGATES, aggregate_ci
from .bayes import bayesian_signed_rank
from .rank_uncertainty import rank_stability
from .ranking import friedman, nemenyi_cd, tasks_for_gap


class AcrossTasks(ReportData):
    """Views whose unit is the task: each model's mean score per task, ranked or aggregated."""

    # ------------------------------------------------------------------ across tasks

    def mean_scores(self) -> tuple[pd.DataFrame, pd.Series]:
        """Each model's mean score per task over the seeds on which every model ran.

        Returns
        -------
        mean_scores : pandas.DataFrame
            Tasks by models.
        n_seeds : pandas.Series
            The number of seeds used per task.
        """
        means, used = {}, {}
        for t in self.tasks:
            grid = self._scores[t]
            complete = ~np.isnan(grid).any(axis=1)
            if not complete.any():
                raise ValueError(f"Task {t!r} has no seed on which every model ran (see `failed_runs`).")
            means[t] = grid[complete].mean(axis=0)
            used[t] = int(complete.sum())
        table = pd.DataFrame.from_dict(means, orient="index", columns=list(self.models))
        return table, pd.Series(used, name="n_seeds")

    def _task_table(self) -> tuple[pd.DataFrame, pd.Series]:
        if len(self.tasks) < 2:
            raise ValueError(
                f"A ranking across tasks needs at least 2 tasks; the table holds {len(self.tasks)}: {list(self.tasks)!r}."
            )
        return self.mean_scores()

    def friedman(self, alpha: float = 0.05) -> ReportFriedman:
        """What would the ranking across tasks need? Friedman, Nemenyi and the tasks a gap needs.

        The models are ranked on each task by their mean score over the
        seeds (:meth:`mean_scores`), and the ranks go through
        :func:`~sigeval.ranking.friedman`, :func:`~sigeval.ranking.nemenyi_cd`
        and :func:`~sigeval.ranking.tasks_for_gap`.

        Parameters
        ----------
        alpha : float
            Level of the critical difference (and of the gap's task count).

        Returns
        -------
        ReportFriedman
            A mapping with ``statistic``, ``pvalue``, ``statistic_f``,
            ``pvalue_f``, ``mean_ranks``, ``critical_difference``,
            ``max_rank_gap``, ``n_for_observed_gap`` and more.

        Examples
        --------
        >>> import numpy as np, pandas as pd
        >>> from sigeval import Report
        >>> rng = np.random.default_rng(0)
        >>> runs = pd.DataFrame([(t, m, s, 0.8 + 0.01 * i + 0.02 * rng.standard_normal())
        ...                      for t in range(6) for i, m in enumerate("ABCD") for s in range(3)],
        ...                     columns=["task", "model", "seed", "score"])
        >>> f = Report(runs).friedman(alpha=0.05)
        >>> round(f["critical_difference"], 3), f["n_tasks"]
        (1.915, 6)
        """
        alpha = check_alpha(alpha)
        table, n_seeds = self._task_table()
        res = friedman(table, higher_is_better=self.higher_is_better)
        k, n = len(self.models), len(self.tasks)
        gap = float(res.mean_ranks.max() - res.mean_ranks.min())
        return ReportFriedman(
            statistic=float(res.statistic),
            pvalue=float(res.pvalue),
            statistic_f=float(res.statistic_f),
            pvalue_f=float(res.pvalue_f),
            mean_ranks=pd.Series(res.mean_ranks, index=list(self.models), name="mean_rank"),
            critical_difference=nemenyi_cd(k, n, alpha=alpha),
            max_rank_gap=gap,
            n_for_observed_gap=tasks_for_gap(gap, k, alpha=alpha) if gap > 0 else None,
            n_tasks=n,
            n_models=k,
            alpha=alpha,
            mean_scores=table,
            n_seeds=n_seeds,
            result=res,
        )

    def rank_stability(
        self, n_boot: int | None = None, alpha: float = 0.05, rng: RngLike = None, *, n_resamples: int | None = None
    ) -> ReportRankStability:
        """How much does the draw of tasks matter? The ranking over resampled tasks.

        Resamples the tasks with replacement (:func:`~sigeval.rank_uncertainty.rank_stability`)
        on the table of :meth:`mean_scores`.

        Parameters
        ----------
        n_boot : int, optional
            Number of resamples of the tasks (the source's name), 10,000 by default.
        alpha : float
            Level of the critical difference used by ``separation``.
        rng : numpy.random.Generator, int or None
            Source of the resampling.
        n_resamples : int, optional
            The library's name for ``n_boot``; give one of the two.

        Returns
        -------
        ReportRankStability
            A mapping with ``order_stability``, ``separation`` and ``jackknife``.

        Examples
        --------
        >>> import pandas as pd
        >>> from sigeval import Report
        >>> runs = pd.DataFrame([(t, m, s, 0.1 * i + 0.01 * s + 0.001 * t)
        ...                      for t in range(4) for i, m in enumerate("AB") for s in range(3)],
        ...                     columns=["task", "model", "seed", "score"])
        >>> Report(runs).rank_stability(n_boot=200, rng=0)["order_stability"]
        1.0
        """
        if n_boot is not None and n_resamples is not None:
            raise TypeError(
                f"Give the number of resamples once, as `n_boot` or as `n_resamples`; got n_boot={n_boot!r} "
                f"and n_resamples={n_resamples!r}."
            )
        if n_resamples is not None:
            n_boot = check_positive_int(n_resamples, "n_resamples")
        n_boot = 10_000 if n_boot is None else check_positive_int(n_boot, "n_boot")
        alpha = check_alpha(alpha)
        table, _ = self._task_table()
        res = rank_stability(table, n_resamples=n_boot, alpha=alpha, higher_is_better=self.higher_is_better, rng=rng)
        models = list(self.models)
        return ReportRankStability(
            order_stability=float(res.order_stability),
            separation=pd.DataFrame(res.separation, index=models, columns=models),
            jackknife=pd.DataFrame(res.jackknife, index=list(self.tasks), columns=models),
            n_boot=n_boot,
            result=res,
        )

    def _bayesian_tasks(self, rope: float, prior_strength: float, n_draws: int, rng: RngLike) -> pd.DataFrame:
        """:meth:`bayesian` over tasks: the signed-rank test of every pair of models on the mean scores."""
        prior_strength = check_positive_real(prior_strength, "prior_strength")
        n_draws = check_positive_int(n_draws, "n_draws")
        generator = check_rng(rng)
        table, _ = self._task_table()
        rows = []
        for i, j in zip(*np.triu_indices(len(self.models), 1)):
            a, b = table.iloc[:, i].to_numpy(), table.iloc[:, j].to_numpy()
            post = bayesian_signed_rank(a, b, rope=rope, prior_strength=prior_strength, n_draws=n_draws,
                                        rng=generator)
            rows.append({"model_a": self.models[i], "model_b": self.models[j], "n_tasks": post.n,
                         "mean_diff": float(np.mean(a - b)), "rope": rope, "prob_a_better": post.prob_a_better,
                         "prob_rope": post.prob_rope, "prob_b_better": post.prob_b_better})
        return pd.DataFrame(rows)

    def aggregate(
        self,
        statistics: Sequence[str] | None = None,
        *,
        n_resamples: int = 10_000,
        confidence_level: float = 0.95,
        gamma: float = 1.0,
        rng: RngLike = None,
    ) -> pd.DataFrame:
        r"""Each model's aggregate score across tasks, with its stratified-bootstrap interval.

        Each model's runs form a *runs x tasks* matrix (its seeds of each
        task, in order), summarised as Agarwal et al. (2021) propose with
        :func:`~sigeval.aggregate.aggregate_ci`: the interquartile mean of
        all scores (``"iqm"``), the mean, the median of the task means, and
        the optimality gap below ``gamma``, each with the percentile interval
        of the stratified bootstrap (seeds resampled within each task, tasks
        fixed). The interval describes new seeds on *these* tasks, not new
        tasks. The scores should be on one scale across tasks (accuracies,
        or scores normalised between a baseline and a reference) for an
        aggregate over tasks to mean anything.

        Parameters
        ----------
        statistics : sequence of str, optional
            Aggregates from :data:`~sigeval.aggregate.AGGREGATES`, in the order
            of the columns; by default all four, or the first three when lower
            scores are better (the optimality gap assumes higher is better
            and is then refused).
        n_resamples : int
            Bootstrap resamples per model and aggregate.
        confidence_level : float
            Level of the percentile intervals.
        gamma : float
            Target of the optimality gap.
        rng : numpy.random.Generator, int or None
            One generator for every interval, model after model (the rows)
            and aggregate after aggregate (the columns).

        Returns
        -------
        pandas.DataFrame
            One row per model: ``model``, ``n_runs`` (seeds per task),
            ``n_tasks``, then for each aggregate its estimate and interval,
            ``<aggregate>``, ``<aggregate>_ci_low``, ``<aggregate>_ci_high``
            (``iqm``, ``iqm_ci_low``, ``iqm_ci_high``, ...).

        Raises
        ------
        ValueError
            If a model does not have the same number of runs on every task
            with no failed run among them (a matrix with holes has no
            stratified bootstrap here), or an argument is invalid.

        Notes
        -----
        Explained in :ref:`ch-bayes`.

        Examples
        --------
        >>> import pandas as pd
        >>> from sigeval import Report
        >>> runs = pd.DataFrame([(t, m, s, 0.5 + 0.1 * i + 0.01 * s + 0.3 * (t == 3))
        ...                      for t in range(4) for i, m in enumerate("AB") for s in range(3)],
        ...                     columns=["task", "model", "seed", "score"])
        >>> agg = Report(runs).aggregate(["iqm", "mean"], n_resamples=500, rng=0)
        >>> agg[["model", "n_runs", "n_tasks", "iqm", "mean"]].round(3).values.tolist()  # the IQM ignores task 3
        [['A', 3, 4, 0.515, 0.585], ['B', 3, 4, 0.615, 0.685]]
        """
        if statistics is None:
            statistics = AGGREGATES if self.higher_is_better else AGGREGATES[:3]
        chosen = check_choices(statistics, "statistics", AGGREGATES)
        if len(set(chosen)) < len(chosen):
            raise ValueError(f"`statistics` must be distinct; got {list(chosen)!r}.")
        if "optimality_gap" in chosen and not self.higher_is_better:
            raise ValueError(
                "`statistics`: the optimality gap measures a shortfall below `gamma` and assumes higher scores are "
                "better; this report has higher_is_better=False."
            )
        n_resamples = check_positive_int(n_resamples, "n_resamples")
        confidence_level = check_unit_interval(confidence_level, "confidence_level")
        gamma = check_real(gamma, "gamma")
        generator = check_rng(rng)
        matrices = {m: self._runs_matrix(j) for j, m in enumerate(self.models)}
        rows = []
        for model, matrix in matrices.items():
            row: dict[str, Any] = {"model": model, "n_runs": matrix.shape[0], "n_tasks": matrix.shape[1]}
            for name in chosen:
                res = aggregate_ci(matrix, statistic=name, n_resamples=n_resamples,  # type: ignore[arg-type]
                                   confidence_level=confidence_level, gamma=gamma, rng=generator)
                row[name], (row[f"{name}_ci_low"], row[f"{name}_ci_high"]) = res.estimate, res.confidence_interval
            rows.append(row)
        return pd.DataFrame(rows)

    def _runs_matrix(self, j: int) -> np.ndarray:
        """Model ``j``'s runs x tasks matrix: its scores on each task's seeds, in order; holes refused."""
        columns = [self._scores[t][:, j] for t in self.tasks]
        failed = [(t, int(np.isnan(col).sum())) for t, col in zip(self.tasks, columns) if np.isnan(col).any()]
        if failed:
            raise ValueError(
                f"Model {self.models[j]!r} has failed or missing runs on {len(failed)} task(s) "
                f"({', '.join(f'{t!r}: {k}' for t, k in failed)}); an aggregate over tasks needs every run "
                "(see `failed_runs`)."
            )
        sizes = {col.size for col in columns}
        if len(sizes) > 1:
            raise ValueError(
                f"Model {self.models[j]!r} has {min(sizes)} to {max(sizes)} runs per task; an aggregate over tasks "
                "needs the same number of runs (seeds) on every task."
            )
        return np.column_stack(columns)

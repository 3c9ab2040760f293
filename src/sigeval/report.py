"""A report over a table of runs: what does the evidence support?

One object over a long table of runs (task, model, seed, score) that answers
four questions in turn, each as a table:

``pairwise``
    is there a difference? (paired t interval and test, Holm within a task)
``power``
    could this design have seen one? (minimum detectable effect, power, seeds needed)
``equivalence``
    can we claim there is none? (TOST crossed with the difference test: four verdicts)
``friedman`` and ``rank_stability``
    what would a ranking across tasks need? (mean ranks, critical difference,
    tasks needed for the observed gap, resampled tasks)
``bayesian`` and ``aggregate``
    how probable is each region of practical equivalence (over seeds or over
    tasks), and each model's aggregate score across tasks with its interval

Runs are paired by (task, seed): within a task, every model ran on the same
seeds, and seed *s* of model A is compared with seed *s* of model B. Every
statistic comes from the core that the library's own functions use
(:func:`~sigeval.procedures.paired_difference`, :func:`~sigeval.power.power_paired`,
:func:`~sigeval.power.seeds_needed`, :func:`~sigeval.equivalence.tost_paired`,
:func:`~sigeval.bayes.bayesian_paired_t`, :func:`~sigeval.ranking.friedman`, ...),
called once on every comparison of the table, so that the views equal a loop
over those functions bit for bit (a test compares them) while a leaderboard of
100 models on 50 tasks takes seconds. A comparison those functions would
refuse (too few pairs, zero spread, an overflow) has its row marked, with the
functions' reason, in the ``note`` column, without stopping the view.
:func:`~sigeval.course.benchmark.run_benchmark` (also ``sigeval.run_benchmark``;
it needs the ``course`` extra) runs the course's shape classifiers into a report.

Explained in :ref:`ch-reporting`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ._report_base import FAMILIES, POWER_CORRECTIONS, Family, PowerCorrection
from ._report_results import ReportFriedman, ReportRankStability
from ._report_within import WithinTasks
from ._validation import RngLike, check_alpha, check_choice, check_flag, check_positive_real, check_precision

__all__ = ["Report", "ReportFriedman", "ReportRankStability"]


class Report(WithinTasks):
    """The evidence in a table of runs, view by view.

    Parameters
    ----------
    table : pandas.DataFrame or anything ``pandas.DataFrame`` accepts
        One row per run, in long form: the task, the model, the seed and the
        score. Other columns are kept but not used, except an optional
        ``error`` column whose text explains a failed run (as
        :func:`~sigeval.course.benchmark.run_benchmark` writes it).
    task, model, seed, score : str
        Names of those four columns.
    higher_is_better : bool
        Direction of the score. It sets the ranks of :meth:`friedman`; the
        differences of the other views are always A minus B.
    failed : {"raise", "drop-pairs"}
        What to do with failed or broken runs: a NaN score, a (task, model,
        seed) combination missing while other models of the task ran that
        seed, or a duplicated row. ``"raise"`` (default): the constructor
        raises a ``ValueError`` that lists each of them. ``"drop-pairs"``:
        each comparison leaves out the seeds on which either of its two
        models failed; :attr:`failed_runs` lists them and every view states
        how many pairs (or seeds) it used.
    models : sequence, optional
        The order of the models (every model of the table, once): differences
        are A minus B with A before B. By default, the order of first appearance.
    reference : optional
        The reference model (a baseline), put last, so that every comparison
        with it reads candidate minus reference (positive when the candidate
        scores higher).
    units : {"score", "points"}
        ``"points"`` works in percentage points: the scores (proportions) are
        multiplied by 100, and every view, margin and ``delta`` is in points
        (the default ``deltas`` of :meth:`power` become 1 and 0.5); the
        outputs say so. ``"score"`` (default): the scores as given.

    Attributes
    ----------
    tasks, models : tuple
        In the order of their first appearance in the table (the models in the
        order asked, the reference last).
    units, reference
        As given (``reference`` is None without one).
    scale : float
        100 with ``units="points"``, else 1.
    seeds : dict
        The seeds of each task (the union over its models), in order of appearance.
    failed_runs : pandas.DataFrame
        One row per failed or broken run: ``task``, ``model``, ``seed``, ``reason``.
    runs : pandas.DataFrame
        The table, with the four columns renamed ``task``, ``model``, ``seed``, ``score``.

    Notes
    -----
    Every difference is model A minus model B, for each pair of models in
    the order of ``models`` (A before B). The confidence intervals are
    per comparison at level ``1 - alpha``; the decisions (``reject``,
    ``verdict``) use Holm-adjusted p-values within each task, or over all
    comparisons with ``family="all"``. Explained in
    :ref:`ch-reporting`.

    Examples
    --------
    >>> import pandas as pd
    >>> from sigeval import Report
    >>> runs = pd.DataFrame({
    ...     "task": ["t"] * 8,
    ...     "model": ["A"] * 4 + ["B"] * 4,
    ...     "seed": [0, 1, 2, 3] * 2,
    ...     "score": [0.91, 0.90, 0.93, 0.92, 0.88, 0.89, 0.90, 0.88],
    ... })
    >>> report = Report(runs)
    >>> row = report.pairwise().iloc[0]
    >>> row.model_a, row.model_b, int(row.n_pairs), round(float(row.mean_diff), 4)
    ('A', 'B', 4, 0.0275)
    >>> report.equivalence(margin=0.01).verdict.tolist()
    ['different']
    """

    # ------------------------------------------------------------------ in words

    def summary(
        self,
        margin: float | None = None,
        alpha: float = 0.05,
        target_power: float = 0.80,
        *,
        family: Family = "task",
        correction: PowerCorrection = "none",
    ) -> str:
        """The four answers as a short paragraph, with their numbers.

        Parameters
        ----------
        margin : float or None
            Equivalence margin; without it the equivalence question is left out.
        alpha, target_power : float
            As in the views.
        family : {"task", "all"}
            The Holm family of the decisions, as in :meth:`pairwise`.
        correction : {"none", "holm", "bonferroni"}
            The level of the minimum detectable effects, as in :meth:`power`.

        Returns
        -------
        str

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [1, 2, 3] * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71]})
        >>> print(report.summary(margin=0.01))  # doctest: +ELLIPSIS
        1 task(s), 2 models, 3 seeds per task; no failed runs. 1 of 1 comparison(s) differ ...
        """
        if margin is not None:
            margin = check_positive_real(margin, "margin")
        # What the sentences print, and nothing more: no tables, no observed power, and no
        # seeds needed (a delta far below the spread of the scores would ask for more seeds
        # than a count holds).
        alpha = check_alpha(alpha)
        family = check_choice(family, "family", FAMILIES)
        correction = check_choice(correction, "correction", POWER_CORRECTIONS)
        pw, notes = self._pairwise(alpha)
        n_pairs = self._all().pairs.n
        rejected = int(np.count_nonzero(self._holm(pw["pvalue"], family) <= alpha))
        pwr, _ = self._power_values(alpha, target_power, (), False, correction, family)
        assessed = ~np.isnan(pwr["mde"])
        seeds = self._seeds_per_task(" to ")
        failed = (
            "no failed runs"
            if self.failed_runs.empty
            else f"{len(self.failed_runs)} failed run(s), whose pairs are left out "
            f"(comparisons use {int(n_pairs.min())} to {int(n_pairs.max())} pairs)"
        )
        holm = "Holm within each task" if family == "task" else "Holm over all comparisons"
        parts = [
            f"{len(self.tasks)} task(s), {len(self.models)} models, {seeds} seeds per task; {failed}.",
            f"{rejected} of {n_pairs.size} comparison(s) differ at alpha = {alpha:g} (paired t, {holm}).",
        ]
        untested = int(np.count_nonzero(notes != ""))
        if untested:
            parts.append(f"{untested} comparison(s) could not be tested (see the `note` column of the views).")
        if assessed.any():
            level = {"none": "", "holm": " (at the level of each Holm decision)",
                     "bonferroni": " (at the Bonferroni level)"}[correction]
            parts.append(
                f"Minimum detectable effects at {target_power:.0%} power{level} range from "
                f"{np.nanmin(pwr['mde']):.3g} to {np.nanmax(pwr['mde']):.3g}; "
                f"{int(np.count_nonzero(~pwr['detectable'][assessed]))} of {int(assessed.sum())} observed "
                "difference(s) are smaller than their own MDE."
            )
        if margin is not None:
            eq, _ = self._equivalence(margin, alpha)
            labels = self._verdicts(
                self._holm(eq["pvalue_difference"], family), self._holm(eq["pvalue_equivalence"], family), alpha
            )
            verdicts = ", ".join(
                f"{int(np.count_nonzero(labels == v))} {v}" for v in ("different", "equivalent", "trivial", "undetermined")
            )
            parts.append(f"Against a margin of {margin:g}: {verdicts}.")
        if len(self.tasks) >= 2:
            f = self.friedman(alpha=alpha)
            best = f.mean_ranks.idxmin()
            gap = (
                f"the largest mean-rank gap, {f.max_rank_gap:.2f}, would need {f.n_for_observed_gap} tasks"
                if f.n_for_observed_gap is not None
                else "every model has the same mean rank"
            )
            parts.append(
                f"Across the {f.n_tasks} tasks, {best!r} has the best mean rank ({f.mean_ranks[best]:.2f}); "
                f"Friedman p = {f.pvalue:.3g}, Iman-Davenport p = {f.pvalue_f:.3g}, "
                f"critical difference {f.critical_difference:.2f}; {gap}."
            )
        return " ".join(parts)


    # ------------------------------------------------------------------ outputs (rendered by _report_output)

    def to_markdown(self, margin: float | None = None, alpha: float = 0.05, target_power: float = 0.80, *,
                    precision: int = 4, family: Family = "task", correction: PowerCorrection = "none",
                    rope: float | None = None, n_resamples: int = 10_000, rng: RngLike = 0) -> str:
        """The report as Markdown: the summary, the design, every view, the failed runs and the environment.

        Parameters
        ----------
        margin : float or None
            Equivalence margin; without it the equivalence view is left out.
        alpha, target_power : float
            As in the views.
        precision : int
            Decimals of the numbers (p-values: 3 significant digits).
        family, correction : str
            The Holm family and the power correction, as in :meth:`summary`.
        rope : float or None
            The Bayesian view's region of practical equivalence (:meth:`bayesian`);
            None: the margin (without either, no Bayesian view).
        n_resamples : int
            Resamples of each interval of the aggregate view (:meth:`aggregate`).
        rng : numpy.random.Generator, int or None
            The aggregate view's generator; the seed 0 by default, so that the
            same runs give the same report.

        Returns
        -------
        str

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [1, 2, 3] * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71]})
        >>> print(report.to_markdown().splitlines()[0])
        # Report
        """
        from . import _report_output as ro

        precision = check_precision(precision)
        call = (f"Report.to_markdown(margin={margin!r}, alpha={alpha!r}, target_power={target_power!r}, "
                f"precision={precision}, family={family!r}, correction={correction!r}"
                f"{ro.options_given(rope, n_resamples, rng)})")
        choices = ro.Choices(margin, alpha, target_power, family, correction, rope, n_resamples, rng)
        return ro.markdown(ro.ReportOutput(self, choices, ro.views(self, choices), call=call, precision=precision))

    def to_latex(self, *, precision: int = 3, bold_best: bool = False) -> str:
        """Mean ± sd of each model on each task as a booktabs ``tabular`` (needs ``\\usepackage{booktabs}``).

        Parameters
        ----------
        precision : int
            Decimals of every number.
        bold_best : bool
            Set the best mean of each task in bold (the highest, or the
            lowest with ``higher_is_better=False``; ties all in bold).

        Returns
        -------
        str

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [1, 2, 3] * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71]})
        >>> print(report.to_latex(precision=2, bold_best=True).splitlines()[5])
        A & \\textbf{0.81 $\\pm$ 0.01} \\\\
        """
        from . import _report_output as ro

        precision, bold_best = check_precision(precision), check_flag(bold_best, "bold_best")
        described = ro.views(self, ro.Choices(), ("describe",))
        return ro.latex(ro.ReportOutput(self, ro.Choices(), described, (), precision=precision, bold_best=bold_best))

    def to_html(self, path: Any, margin: float | None = None, alpha: float = 0.05, target_power: float = 0.80, *,
                precision: int = 4, title: str | None = None, family: Family = "task",
                correction: PowerCorrection = "none", rope: float | None = None, n_resamples: int = 10_000,
                rng: RngLike = 0) -> Any:
        """Write the report as one self-contained HTML page: no request to the network, figures inline.

        The page holds the plain-words summary, the design, the scores per
        task with a figure, the pairwise, power and equivalence tables, the
        Friedman ranks with a critical-difference diagram (two tasks or more),
        the failed runs and the environment (versions, BLAS, the call, a hash
        of the runs, the date). Figures need matplotlib (the ``plots`` extra);
        without it the page says so.

        Parameters
        ----------
        path : str or path-like
            The file to write.
        margin, alpha, target_power, precision, family, correction, rope, n_resamples, rng
            As in :meth:`to_markdown`.
        title : str, optional
            The page's heading.

        Returns
        -------
        pathlib.Path
            The file written.

        Examples
        --------
        >>> import tempfile, pathlib
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [1, 2, 3] * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71]})
        >>> page = report.to_html(pathlib.Path(tempfile.mkdtemp()) / "report.html", margin=0.01)
        >>> "In plain words" in page.read_text()
        True
        """
        from . import _report_output as ro

        precision = check_precision(precision)
        call = (f"Report.to_html({str(path)!r}, margin={margin!r}, alpha={alpha!r}, target_power={target_power!r}, "
                f"family={family!r}, correction={correction!r}{ro.options_given(rope, n_resamples, rng)})")
        choices = ro.Choices(margin, alpha, target_power, family, correction, rope, n_resamples, rng)
        return ro.page(ro.ReportOutput(self, choices, ro.views(self, choices), call=call, precision=precision), path,
                       title)

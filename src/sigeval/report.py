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

from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from ._noncentral import seeds_needed_each, seeds_needed_many, too_small
from ._paired_t import posterior, refusals, student, tost
from ._paired_t import power as power_core
from ._report_results import ReportFriedman, ReportRankStability
from ._runs_table import Comparisons, comparisons, pair_runs, read_runs, show_runs
from ._validation import (
    RngLike,
    check_choice,
    check_choices,
    check_flag,
    check_positive_int,
    check_positive_real,
    check_precision,
    check_real,
    check_rng,
    check_unit_interval,
)
from .aggregate import AGGREGATES, aggregate_ci
from .bayes import bayesian_signed_rank
from .equivalence import tost_paired, verdict_from_pvalues
from .multiple import adjust_pvalues, decision_levels
from .power import power_paired
from .rank_uncertainty import rank_stability
from .ranking import friedman, nemenyi_cd, tasks_for_gap

__all__ = ["Report", "ReportFriedman", "ReportRankStability"]

FailedPolicy = Literal["raise", "drop-pairs"]
#: The units of a report's numbers: the scores as given, or percentage points (proportions x 100).
Units = Literal["score", "points"]
UNITS = ("score", "points")
#: The Holm family of a view: the comparisons of one task, or every comparison of the report.
Family = Literal["task", "all"]
FAMILIES = ("task", "all")
#: The level of the power view: ``alpha`` itself, the level Holm's decision uses, or alpha over the family size.
PowerCorrection = Literal["none", "holm", "bonferroni"]
POWER_CORRECTIONS = ("none", "holm", "bonferroni")


# Below this, 1 - alpha rounds to 1 and the quantiles of the tests overflow.
_SMALLEST_ALPHA = 1e-12


def _check_alpha(alpha: float, name: str = "alpha") -> float:
    alpha = check_unit_interval(alpha, name)
    if alpha < _SMALLEST_ALPHA:
        raise ValueError(f"`{name}` must be at least {_SMALLEST_ALPHA:g}; got {alpha!r}.")
    return alpha


class Report:
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

    # ------------------------------------------------------------------ comparisons

    def _all(self) -> Comparisons:
        """Every comparison's pairs, mean and sd of the differences, computed once."""
        if self._comparisons is None:
            self._comparisons = comparisons(self.tasks, self.models, self._scores)
        return self._comparisons

    def _notes(self, reason: np.ndarray) -> np.ndarray:
        """The ``note`` column: empty, or why the comparison was not tested."""
        return np.where(reason == "", "", np.char.add("not tested: ", reason.astype(str))).astype(object)

    def _frame(self, values: dict[str, Any]) -> pd.DataFrame:
        """One row per comparison: ``task``, ``model_a``, ``model_b``, ``n_pairs``, then ``values``."""
        c = self._all()
        columns = {}
        for name, labels, index in (("task", self.tasks, c.task), ("model_a", self.models, c.a),
                                    ("model_b", self.models, c.b)):
            boxed = np.empty(len(labels), dtype=object)
            for position, label in enumerate(labels):  # labels may be tuples: no array conversion
                boxed[position] = label
            columns[name] = boxed[index].tolist()
        return pd.DataFrame({**columns, "n_pairs": c.pairs.n, **values})

    def _families(self, family: str) -> np.ndarray:
        """The Holm family of each comparison: its task's index, or 0 for all of them."""
        c = self._all()
        return c.task if family == "task" else np.zeros(c.task.size, dtype=np.int64)

    def _per_family(self, pvalues: np.ndarray, family: str, adjust: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
        """``adjust`` applied to each family's p-values; a comparison without a p-value (NaN) is in none."""
        groups = self._families(family)
        tested = ~np.isnan(pvalues)
        out = np.full(pvalues.shape, np.nan)
        for g in np.unique(groups[tested]):  # one call per task at most
            members = tested & (groups == g)
            out[members] = adjust(pvalues[members])
        return out

    def _holm(self, pvalues: np.ndarray, family: str) -> np.ndarray:
        """Holm-adjusted p-values within each family (:func:`~sigeval.multiple.adjust_pvalues`)."""
        return self._per_family(pvalues, family, lambda p: adjust_pvalues(p, method="holm"))

    def _levels(self, pvalues: np.ndarray, alpha: float, family: str, correction: str) -> np.ndarray:
        """The level at which each comparison is decided (:func:`~sigeval.multiple.decision_levels`)."""
        method = cast(Literal["holm", "bonferroni"], correction)
        return self._per_family(pvalues, family, lambda p: decision_levels(p, alpha=alpha, method=method))

    def pairwise(self, alpha: float = 0.05, *, family: Family = "task") -> pd.DataFrame:
        """Is there a difference? The paired t test of every pair of models in every task.

        Parameters
        ----------
        alpha : float
            Level of the tests; the intervals are at ``1 - alpha``.
        family : {"task", "all"}
            The family of Holm's correction: the comparisons of each task
            (default; for claims made task by task), or every comparison of
            the report (for claims made across tasks). The family should be
            the set of comparisons the conclusion draws on.

        Returns
        -------
        pandas.DataFrame
            ``task``, ``model_a``, ``model_b``, ``n_pairs`` (seeds on which
            both ran), ``mean_diff`` (mean of A minus B over those seeds),
            ``ci_low``, ``ci_high`` (the paired Student interval),
            ``pvalue``, ``pvalue_holm`` (Holm within the ``family``),
            ``reject`` (``pvalue_holm <= alpha``) and ``note``: empty, or
            why the comparison was not tested (fewer than 2 pairs, zero
            spread); such a row has NaN statistics, ``reject`` False, and is
            in no Holm family, while the other rows are unaffected.

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [1, 2, 3] * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71]})
        >>> report.pairwise()[["mean_diff", "reject"]].round(3).to_dict("records")
        [{'mean_diff': 0.093, 'reject': True}]
        """
        alpha = _check_alpha(alpha)
        family = check_choice(family, "family", FAMILIES)
        values, notes = self._pairwise(alpha)
        frame = self._frame(values)
        frame["pvalue_holm"] = self._holm(values["pvalue"], family)
        frame["reject"] = frame["pvalue_holm"] <= alpha
        frame["note"] = notes
        return frame

    def _pairwise(self, alpha: float) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The columns of :meth:`pairwise` before Holm, and the notes, for a checked ``alpha``."""
        pairs = self._all().pairs
        t, reason = student(pairs, alpha)
        values = {"mean_diff": pairs.mean, "ci_low": t["ci_low"], "ci_high": t["ci_high"], "pvalue": t["pvalue"]}
        return values, self._notes(reason)

    def power(
        self,
        alpha: float = 0.05,
        target_power: float = 0.80,
        deltas: Sequence[float] | None = None,
        *,
        correction: PowerCorrection = "none",
        family: Family = "task",
    ) -> pd.DataFrame:
        r"""Could this design have seen a difference? Power and seeds needed per comparison.

        With :math:`S` paired seeds and the observed standard deviation
        :math:`\hat\sigma_d` of the differences, the minimum detectable effect
        at power :math:`1 - \beta` (:func:`~sigeval.power.power_paired`) is

        .. math::

            \mathrm{MDE} = \bigl(t_{S-1,\,1-\alpha/2} + t_{S-1,\,1-\beta}\bigr)\,
                           \frac{\hat\sigma_d}{\sqrt S},

        about the smallest true mean difference that the two-sided paired
        t-test at ``alpha`` rejects with probability ``target_power`` (the
        exact power there, from the noncentral t, is 0.791 at 5 seeds and
        0.799 at 10 for a target of 0.80). ``observed_power`` is that exact
        power at the observed :math:`|\bar d|`, and ``seeds_for_<delta>`` the
        seeds :func:`~sigeval.power.seeds_needed` finds for a true difference
        ``delta`` at this :math:`\hat\sigma_d`.

        Parameters
        ----------
        alpha : float
            Level of the paired t-test.
        target_power : float
            Power that defines the MDE and the seeds needed.
        deltas : sequence of float, optional
            True differences (in the units of the scores) for which to report
            the seeds needed, one ``seeds_for_<delta>`` column each; by
            default 0.01 and 0.005 times ``scale`` (one point and half a
            point of an accuracy).
        correction : {"none", "holm", "bonferroni"}
            The level :math:`\alpha'` in the formula above, shown in the
            ``alpha_used`` column. ``"none"`` (default, the source's formula):
            ``alpha`` itself. ``"holm"``: the level at which the Holm decision
            of :meth:`pairwise` (with the same ``family``) decides that
            comparison, between :math:`\alpha/m` and :math:`\alpha/(m-i+1)`
            for the comparison whose p-value is the :math:`i`-th smallest of
            the :math:`m` in its family (see Notes). ``"bonferroni"``:
            :math:`\alpha/m`, the smallest of them, a level fixed before the
            data (the conservative choice for planning).
        family : {"task", "all"}
            The family of ``"holm"`` and ``"bonferroni"``, as in :meth:`pairwise`.

        Returns
        -------
        pandas.DataFrame
            ``task``, ``model_a``, ``model_b``, ``n_pairs``, ``mean_diff``,
            ``sigma_d``, ``alpha_used``, ``mde``, ``observed_power``,
            ``detectable``, the ``seeds_for_<delta>`` columns (nullable
            integers) and ``note`` (empty, or why the comparison could not be
            assessed: that row alone has missing values).

        Notes
        -----
        ``detectable`` is ``|mean_diff| >= mde``: the observed difference is
        at least as large as the design detects with ``target_power``. It does
        not say the difference is real (that is :meth:`pairwise`), and
        ``False`` does not say there is none: the design could not have told.
        The MDE is not the rejection threshold: the test rejects at
        :math:`|\bar d| > t_{S-1,1-\alpha/2}\,\hat\sigma_d/\sqrt S`, about 0.7 MDE
        at 80% power. ``observed_power`` is the power at the observed
        :math:`|\bar d|` taken as the truth; it is a function of the p-value
        and adds nothing to it as evidence (Hoenig & Heisey, 2001): for a
        comparison that is not significant it is below about one half by
        construction. Both rest on :math:`\hat\sigma_d` from few seeds and
        on roughly normal differences.

        At ``correction="none"`` the MDE is the one of a single test at
        ``alpha``, while :meth:`pairwise` decides at Holm's stricter levels: a
        difference can be ``detectable`` and yet not rejected. Holm rejects
        the comparison of rank :math:`i` when
        :math:`a_i = \max_{j \le i}(m - j + 1)\,p_{(j)} \le \alpha`, that is
        when its own p-value is at most :math:`\alpha_i = \alpha\,p_{(i)}/a_i`
        (:math:`= \alpha/(m - i + 1)` unless an earlier term is larger). With
        ``correction="holm"`` the MDE is computed at :math:`\alpha_i`, and
        since the MDE at a level exceeds that level's rejection threshold
        (for ``target_power`` above 0.5), ``detectable`` implies ``reject``.
        That level depends on the observed p-values; ``"bonferroni"`` does
        not, and is the one to plan seeds with.

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 10, "model": list("AAAAABBBBB"), "seed": list(range(5)) * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.83, 0.80, 0.79, 0.81, 0.81, 0.80, 0.80]})
        >>> report.power(deltas=(0.01,))[["n_pairs", "mde", "seeds_for_0.01"]].round(4).to_dict("records")
        [{'n_pairs': 5, 'mde': 0.0204, 'seeds_for_0.01': 14}]
        """
        correction = check_choice(correction, "correction", POWER_CORRECTIONS)
        family = check_choice(family, "family", FAMILIES)
        if deltas is None:  # one point and half a point of an accuracy, in the report's units
            deltas = (0.01 * self.scale, 0.005 * self.scale)
        return self._power(alpha, target_power, self._check_deltas(deltas), correction=correction, family=family)

    def _power(
        self, alpha: float, target_power: float, deltas: tuple[float, ...], *, correction: str, family: str,
    ) -> pd.DataFrame:
        """:meth:`power` for checked ``deltas``; none gives no ``seeds_for_<delta>`` column."""
        values, notes = self._power_values(alpha, target_power, deltas, True, correction, family)
        frame = self._frame(values)
        for delta in deltas:
            name = f"seeds_for_{delta:g}"
            frame[name] = pd.array(np.where(notes == "", values[name], 0), dtype="Int64")
            frame.loc[notes != "", name] = pd.NA
        frame["note"] = notes
        return frame

    def _power_values(
        self, alpha: float, target_power: float, deltas: tuple[float, ...], observed: bool,
        correction: str, family: str,
    ) -> tuple[dict[str, np.ndarray], np.ndarray]:
        """The columns of :meth:`power` and its notes; without ``observed``, no ``observed_power`` (the summary's)."""
        alpha = _check_alpha(alpha)
        target_power = check_unit_interval(target_power, "target_power")
        if target_power <= alpha:  # a refusal of the arguments, not of a comparison: the view raises
            power_paired(1.0, 2, alpha=alpha, target_power=target_power)
        pairs = self._all().pairs
        size = pairs.n.size
        reason = refusals(pairs)  # too few pairs, zero spread
        if correction == "none":
            levels = np.full(size, alpha)
        else:  # a comparison pairwise() cannot test has no level to plan at
            tested, untested = student(pairs, alpha)
            levels = self._levels(tested["pvalue"], alpha, family, correction)
            reason = np.where(reason == "", untested, reason)
        ok = reason == ""
        values: dict[str, np.ndarray] = {"mean_diff": pairs.mean, "sigma_d": pairs.sd, "alpha_used": levels,
                                         "mde": np.full(size, np.nan)}
        if observed:
            values["observed_power"] = np.full(size, np.nan)
        values["detectable"] = np.zeros(size, dtype=bool)
        if ok.any():
            level = alpha if correction == "none" else levels[ok]
            mean = pairs.mean[ok]
            planned, refused = power_core(pairs.sd[ok], pairs.n[ok], level, target_power,
                                          np.abs(mean) if observed else None)
            reason[ok] = refused
            values["mde"][ok] = planned["mde"]
            values["detectable"][ok] = np.abs(mean) >= planned["mde"]
            if observed:
                values["observed_power"][ok] = planned["power"]
        for delta in deltas:
            column = values[f"seeds_for_{delta:g}"] = np.zeros(size, dtype=np.int64)
            rows = np.flatnonzero(reason == "")
            with np.errstate(over="ignore"):
                effect = abs(delta) / pairs.sd[rows]
            if correction == "holm":  # almost every comparison has a level of its own: no table per level
                column[rows], refused = seeds_needed_each(effect, levels[rows], target_power)
            else:
                refused = np.zeros(rows.size, dtype=bool)
                for level in np.unique(levels[rows]):  # alpha, or Bonferroni's alpha / m per family size
                    at = levels[rows] == level
                    column[rows[at]], refused[at] = seeds_needed_many(effect[at], float(level), target_power)
            for r in rows[refused]:
                reason[r] = too_small(delta, float(pairs.sd[r]), float(levels[r]), target_power)
        refused_rows = reason != ""
        for key in ("mde", "observed_power"):
            if key in values:
                values[key][refused_rows] = np.nan
        values["detectable"][refused_rows] = False
        return values, self._notes(reason)

    @staticmethod
    def _check_deltas(deltas: Sequence[float]) -> tuple[float, ...]:
        if isinstance(deltas, str | bytes) or not isinstance(deltas, Sequence | np.ndarray):
            raise TypeError(f"`deltas` must be a sequence of positive numbers; got {deltas!r}.")
        checked = tuple(check_positive_real(d, "deltas") for d in deltas)
        if not checked:
            raise ValueError("`deltas` must hold at least one difference; got none.")
        names = [f"{d:g}" for d in checked]
        if len(set(names)) < len(names):
            raise ValueError(f"`deltas` must be distinct (as printed in the column names); got {names!r}.")
        return checked

    def equivalence(self, margin: float, alpha: float = 0.05, *, family: Family = "task") -> pd.DataFrame:
        """Can we claim there is no difference? Four verdicts per comparison.

        The paired t-test of a zero difference is crossed with the paired
        TOST at ``±margin`` (:func:`~sigeval.equivalence.tost_paired`), each
        Holm-corrected within the ``family`` (a task by default) as in
        :meth:`pairwise`, and the pair of
        decisions gives one verdict (:func:`~sigeval.equivalence.verdict_from_pvalues`):
        ``"different"`` (only the difference test rejects: a real effect,
        not shown smaller than the margin), ``"equivalent"`` (only TOST
        rejects: any effect is within the margin), ``"trivial"`` (both: real
        but within the margin) and ``"undetermined"`` (neither: the data
        support no claim).

        Parameters
        ----------
        margin : float
            The smallest difference that would matter, in the units of the
            scores, fixed before looking at the results. Repeated in a column:
            an equivalence claim means nothing without it.
        alpha : float
            Level of both tests.
        family : {"task", "all"}
            The family of Holm's correction of each of the two tests, as in
            :meth:`pairwise`.

        Returns
        -------
        pandas.DataFrame
            ``task``, ``model_a``, ``model_b``, ``n_pairs``, ``mean_diff``,
            ``ci_low``, ``ci_high`` (the ``1 - alpha`` interval of the
            difference test), ``tost_ci_low``, ``tost_ci_high`` (the
            ``1 - 2 alpha`` interval: TOST rejects when it lies inside
            ``±margin``), ``margin``, ``pvalue_difference``, ``pvalue_equivalence`` and
            their Holm-adjusted ``pvalue_difference_holm`` and
            ``pvalue_equivalence_holm``, ``verdict``, and ``note`` (empty, or
            why the comparison was not tested: its verdict is then missing and
            it is in no Holm family).

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 10, "model": list("AAAAABBBBB"), "seed": list(range(5)) * 2,
        ...                  "score": [0.801, 0.803, 0.799, 0.802, 0.800, 0.800, 0.802, 0.801, 0.799, 0.801]})
        >>> report.equivalence(margin=0.01).verdict.tolist()
        ['equivalent']
        """
        margin = check_positive_real(margin, "margin")
        alpha = _check_alpha(alpha)
        family = check_choice(family, "family", FAMILIES)
        values, notes = self._equivalence(margin, alpha)
        frame = self._frame(values)
        frame["pvalue_difference_holm"] = self._holm(values["pvalue_difference"], family)
        frame["pvalue_equivalence_holm"] = self._holm(values["pvalue_equivalence"], family)
        frame["verdict"] = self._verdicts(frame["pvalue_difference_holm"].to_numpy(),
                                          frame["pvalue_equivalence_holm"].to_numpy(), alpha)
        frame["note"] = notes
        return frame

    @staticmethod
    def _verdicts(pvalue_difference: np.ndarray, pvalue_equivalence: np.ndarray, alpha: float) -> np.ndarray:
        """:func:`~sigeval.equivalence.verdict_from_pvalues` of the tested rows; missing (None) for the others."""
        tested = ~np.isnan(pvalue_difference) & ~np.isnan(pvalue_equivalence)
        out = np.full(tested.shape, None, dtype=object)
        if tested.any():
            out[tested] = verdict_from_pvalues(pvalue_difference[tested], pvalue_equivalence[tested], alpha=alpha)
        return out

    def _equivalence(self, margin: float, alpha: float) -> tuple[dict[str, Any], np.ndarray]:
        """The columns of :meth:`equivalence` before Holm, and the notes, for a checked ``margin`` and ``alpha``."""
        if alpha >= 0.5:  # a refusal of the arguments, not of a comparison: the view raises tost_paired's error
            tost_paired([0.0, 1.0], [0.0, 0.0], margin=margin, alpha=alpha)
        pairs = self._all().pairs
        difference, reason = student(pairs, alpha)
        equivalence, reason_tost = tost(pairs, margin, alpha)
        reason = np.where(reason == "", reason_tost, reason)
        refused = reason != ""
        values = {"mean_diff": pairs.mean, "ci_low": difference["ci_low"], "ci_high": difference["ci_high"],
                  "tost_ci_low": equivalence["ci_low"], "tost_ci_high": equivalence["ci_high"],
                  "margin": np.full(pairs.n.size, margin), "pvalue_difference": difference["pvalue"],
                  "pvalue_equivalence": equivalence["pvalue"]}
        for key in ("ci_low", "ci_high", "tost_ci_low", "tost_ci_high", "pvalue_difference", "pvalue_equivalence"):
            values[key][refused] = np.nan
        return values, self._notes(reason)

    def describe(self) -> pd.DataFrame:
        """Each model's runs per task: how many, mean, standard deviation, minimum and maximum.

        The spread over seeds that a report should show beside any comparison.
        Failed runs are not in the statistics; ``n_failed`` counts them.

        Returns
        -------
        pandas.DataFrame
            One row per task and model: ``task``, ``model``, ``n_runs``,
            ``n_failed``, ``mean``, ``sd`` (``n - 1`` denominator), ``min``, ``max``.

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [1, 2, 3] * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71]})
        >>> report.describe()[["model", "n_runs", "mean", "min", "max"]].round(3).to_dict("records")[0]
        {'model': 'A', 'n_runs': 3, 'mean': 0.81, 'min': 0.8, 'max': 0.82}
        """
        rows = []
        for t in self.tasks:
            grid = self._scores[t]
            ok = ~np.isnan(grid)
            for j, m in enumerate(self.models):
                values = grid[ok[:, j], j]
                rows.append({
                    "task": t, "model": m, "n_runs": values.size, "n_failed": int(grid.shape[0] - values.size),
                    "mean": values.mean() if values.size else np.nan,
                    "sd": values.std(ddof=1) if values.size > 1 else np.nan,
                    "min": values.min() if values.size else np.nan,
                    "max": values.max() if values.size else np.nan,
                })
        return pd.DataFrame(rows)

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
        alpha = _check_alpha(alpha)
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
        alpha = _check_alpha(alpha)
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

    # ------------------------------------------------------------------ in probabilities, and aggregates

    def bayesian(
        self,
        rope: float,
        *,
        over: Literal["seeds", "tasks"] = "seeds",
        test_fraction: float | None = None,
        prior_strength: float = 0.5,
        n_samples: int = 50_000,
        rng: RngLike = None,
    ) -> pd.DataFrame:
        r"""How probable is it that A is practically better, equivalent or worse? The ROPE probabilities.

        The Bayesian counterpart of :meth:`pairwise` and :meth:`equivalence`
        (Benavoli, Corani, Demšar & Zaffalon, 2017): instead of p-values, the
        posterior probabilities that the difference :math:`\delta` (A minus
        B) lies above the region of practical equivalence (``prob_a_better``,
        :math:`\delta > r`), inside it (``prob_rope``, :math:`|\delta| \le r`)
        or below it (``prob_b_better``, :math:`\delta < -r`), for ``rope`` =
        :math:`r`. They decide nothing and take no ``alpha``.

        ``over="seeds"`` (default): one row per task and pair of models, from the seeds.
            Which posterior depends on what a seed repeats.

            - ``test_fraction=None`` (default): the seeds are *independent*
              repetitions, each drawing its own training (and test) data or
              at least its own training run, as in
              :func:`~sigeval.course.benchmark.run_benchmark`. The
              differences are then independent, and the posterior of their
              mean under the noninformative prior is the Bayesian paired t,
              :func:`~sigeval.bayes.bayesian_paired_t`: a Student t with
              :math:`S - 1` degrees of freedom, location ``mean_diff`` and
              scale :math:`s_d/\sqrt S` over the :math:`S` pairs.
            - ``test_fraction=rho``: the seeds are *re-splits of one fixed
              dataset* (k-fold or repeated random train/test splits) and
              ``rho`` the fraction of the data in each test set (``1/k``
              for k-fold, ``0.5`` for half-and-half splits). The training sets
              overlap, so the differences are correlated and the paired t
              above is overconfident; :func:`~sigeval.bayes.correlated_ttest`
              (Corani & Benavoli, 2015) widens the scale to
              :math:`s_d \sqrt{1/S + \rho/(1-\rho)}`, which no number of
              seeds shrinks below :math:`s_d\sqrt{\rho/(1-\rho)}`.

            The correlated t is not the default because its correction rests
            on the overlap of training sets; for independent trainings it
            would only widen the posterior for no reason.
        ``over="tasks"``: one row per pair of models, across the tasks.
            Each model's mean score per task over the seeds on which every
            model ran (:meth:`mean_scores`) goes through the Bayesian
            signed-rank test, :func:`~sigeval.bayes.bayesian_signed_rank`,
            whose unit is the task; its probabilities are the fractions of
            ``n_samples`` posterior samples in which each region is the most
            probable, drawn from ``rng`` (one generator, pair after pair, in
            the order of the rows). It needs at least 2 tasks.

        When lower scores are better (``higher_is_better=False``), A is
        better where :math:`\delta < -r`: ``prob_a_better`` is then the
        functions' probability of the lower region and ``prob_b_better`` of
        the upper one (``mean_diff`` stays A minus B).

        Every row is what those functions return for the comparison, from
        the same core; a comparison they refuse (fewer than 2 pairs) has NaN
        probabilities and says why in ``note``, as in the other views.
        Differences all equal give a point mass (see
        :func:`~sigeval.bayes.correlated_ttest`).

        Parameters
        ----------
        rope : float
            Half-width :math:`r \ge 0` of the region of practical equivalence,
            in the units of the scores, fixed before looking at the results
            (as the equivalence margin); repeated in a column. With 0,
            ``prob_rope`` is 0.
        over : {"seeds", "tasks"}
            The unit of replication: the seeds within each task, or the tasks.
        test_fraction : float or None
            ``over="seeds"`` only: None for independent seeds, or the test
            fraction :math:`\rho \in (0, 1)` when the seeds are re-splits of one dataset.
        prior_strength, n_samples, rng
            ``over="tasks"`` only: as in :func:`~sigeval.bayes.bayesian_signed_rank`.

        Returns
        -------
        pandas.DataFrame
            ``over="seeds"``: ``task``, ``model_a``, ``model_b``, ``n_pairs``,
            ``mean_diff`` (the posterior's location), ``posterior_scale``,
            ``rope``, ``prob_a_better``, ``prob_rope``, ``prob_b_better``, ``note``.
            ``over="tasks"``: ``model_a``, ``model_b``, ``n_tasks``,
            ``mean_diff`` (the mean over tasks of the per-task mean
            differences), ``rope`` and the three probabilities.

        Notes
        -----
        The probabilities answer "given these runs and the prior, how
        probable is each region", not "how often would this procedure err":
        no correction for the number of comparisons is applied, and the
        prior matters with few pairs. Explained in :ref:`ch-bayes`.

        Examples
        --------
        >>> from sigeval import Report
        >>> report = Report({"task": ["t"] * 10, "model": list("AAAAABBBBB"), "seed": list(range(5)) * 2,
        ...                  "score": [0.80, 0.82, 0.81, 0.83, 0.80, 0.79, 0.81, 0.81, 0.80, 0.80]})
        >>> b = report.bayesian(rope=0.005)
        >>> b[["mean_diff", "prob_a_better", "prob_rope", "prob_b_better"]].round(3).to_dict("records")
        [{'mean_diff': 0.01, 'prob_a_better': 0.794, 'prob_rope': 0.18, 'prob_b_better': 0.026}]
        """
        rope = check_real(rope, "rope")
        if rope < 0:
            raise ValueError(f"`rope` must be a half-width >= 0 in the units of the scores; got {rope!r}.")
        over = check_choice(over, "over", ("seeds", "tasks"))
        if over == "tasks":
            if test_fraction is not None:
                raise ValueError(
                    "`test_fraction` belongs to over='seeds' (the splits within a task); the signed-rank "
                    f"test over tasks has none; got test_fraction={test_fraction!r}."
                )
            frame = self._bayesian_tasks(rope, prior_strength, n_samples, rng)
        else:
            inflation = 0.0
            if test_fraction is not None:
                test_fraction = check_unit_interval(test_fraction, "test_fraction")
                inflation = test_fraction / (1 - test_fraction)
            frame = self._frame(self._bayesian_seeds(rope, inflation, "scores" if test_fraction is None
                                                     else "differences"))
        if not self.higher_is_better:  # A is better where A - B is below -rope
            frame[["prob_a_better", "prob_b_better"]] = frame[["prob_b_better", "prob_a_better"]].to_numpy()
        return frame

    def _bayesian_seeds(self, rope: float, inflation: float, spread_of: str) -> dict[str, np.ndarray]:
        """The columns of :meth:`bayesian` over seeds: the t posterior of every comparison at once.

        :func:`~sigeval._paired_t.posterior`, the core of :func:`~sigeval.bayes.bayesian_paired_t`
        (``spread_of="scores"``) and :func:`~sigeval.bayes.correlated_ttest` (``"differences"``).
        """
        pairs = self._all().pairs
        post, reason = posterior(pairs, rope, inflation, spread_of)
        values = {"mean_diff": np.where(reason == "", post["loc"], pairs.mean), "posterior_scale": post["scale"],
                  "rope": np.full(pairs.n.size, rope)}
        for name in ("prob_a_better", "prob_rope", "prob_b_better"):
            values[name] = post[name]
        values["note"] = self._notes(reason)
        return values

    def _bayesian_tasks(self, rope: float, prior_strength: float, n_samples: int, rng: RngLike) -> pd.DataFrame:
        """:meth:`bayesian` over tasks: the signed-rank test of every pair of models on the mean scores."""
        prior_strength = check_positive_real(prior_strength, "prior_strength")
        n_samples = check_positive_int(n_samples, "n_samples")
        generator = check_rng(rng)
        table, _ = self._task_table()
        rows = []
        for i, j in zip(*np.triu_indices(len(self.models), 1)):
            a, b = table.iloc[:, i].to_numpy(), table.iloc[:, j].to_numpy()
            post = bayesian_signed_rank(a, b, rope=rope, prior_strength=prior_strength, n_samples=n_samples,
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
        alpha = _check_alpha(alpha)
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

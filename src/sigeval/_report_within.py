"""The views of :class:`~sigeval.report.Report` within each task: one row per comparison of two models.

Private: ``sigeval.report`` exports them as methods of ``Report``. Each view calls the cores of the
library's functions (:mod:`sigeval._paired_t`) on every comparison at once and arranges their
answers in a frame; a comparison the cores refuse says why in its ``note``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal, cast

import numpy as np
import pandas as pd

from ._noncentral import seeds_needed_each, seeds_needed_many, too_small
from ._paired_t import posterior, refusals, student, tost
from ._paired_t import power as power_core
from ._report_across import AcrossTasks
from ._report_base import FAMILIES, POWER_CORRECTIONS, Family, PowerCorrection
from ._runs_table import Comparisons, comparisons
from ._validation import RngLike, check_alpha, check_choice, check_positive_real, check_real, check_unit_interval
from .equivalence import tost_paired, verdict_from_pvalues
from .multiple import adjust_pvalues, decision_levels
from .power import power_paired


class WithinTasks(AcrossTasks):
    """Views whose unit is the seed within a task: every comparison of two models, computed at once."""

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
        alpha = check_alpha(alpha)
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
        alpha = check_alpha(alpha)
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
        alpha = check_alpha(alpha)
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

    def bayesian(
        self,
        rope: float,
        *,
        over: Literal["seeds", "tasks"] = "seeds",
        test_fraction: float | None = None,
        prior_strength: float = 0.5,
        n_draws: int = 50_000,
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
            ``n_draws`` posterior draws in which each region is the most
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
        prior_strength, n_draws, rng
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
            frame = self._bayesian_tasks(rope, prior_strength, n_draws, rng)
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

"""Report at leaderboard scale: every view of 50 and 100 models, against the per-comparison loop it replaced.

Before issue 23 each view looped over the comparisons and called the library's
scalar functions (paired_difference, power_paired, seeds_needed, tost_paired)
once per comparison: 5 to 7 ms each for the power view. That loop is timed here
on 190 comparisons (20 models of one task) and its time scaled to the table's
comparisons (its cost per comparison is constant). Friedman and Nemenyi on the
per-task means are compared with autorank, the package a user would reach for.

Goals (issue 23): all views of 100 models x 50 tasks x 10 seeds in under 10 s
together, of 50 x 20 x 10 in under 2 s.
"""

from __future__ import annotations

import contextlib
import io
import warnings

import numpy as np
import pandas as pd
from _bench import Comparison, run

from sigeval import Report, adjust_pvalues, paired_difference, power_paired, seeds_needed, tost_paired
from sigeval.equivalence import verdict_from_pvalues


def runs_table(n_models: int, n_tasks: int, n_seeds: int, seed: int = 0) -> pd.DataFrame:
    """Accuracies of models 0.2 points apart, seed-to-seed noise of one point."""
    gen = np.random.default_rng(seed)
    t, m, s = np.meshgrid(np.arange(n_tasks), np.arange(n_models), np.arange(n_seeds), indexing="ij")
    score = 0.7 + 0.002 * m + 0.01 * gen.standard_normal(t.shape)
    return pd.DataFrame({"task": [f"task {i}" for i in t.ravel()], "model": [f"model {i}" for i in m.ravel()],
                         "seed": s.ravel(), "score": score.ravel()})


def all_views(report: Report) -> None:
    report.pairwise()
    report.power()
    report.equivalence(margin=0.01)
    report.friedman()
    report.summary(margin=0.01)


def loop_view(report: Report, view: str, n_models: int = 20) -> None:
    """A view as it was: one call of each scalar function per comparison (one task, ``n_models`` models).

    ``view`` is "pairwise", "power", "equivalence", "summary" (which computed the
    pairwise, power without seeds, and equivalence views) or "all" (the four).
    """
    if view == "all":
        for each in ("pairwise", "power", "equivalence", "summary"):
            loop_view(report, each, n_models)
        return
    grid = report._scores[report.tasks[0]][:, :n_models]
    pvalues, tost = [], []
    for i in range(n_models):
        for j in range(i + 1, n_models):
            a, b = grid[:, i], grid[:, j]
            res = paired_difference(a, b, alpha=0.05)
            pvalues.append(res.pvalue)
            if view in ("power", "summary"):
                power_paired(res.sigma_d, res.n, delta=abs(res.estimate))
            if view == "power":
                for delta in (0.01, 0.005):
                    seeds_needed(res.sigma_d, delta)
            if view in ("equivalence", "summary"):
                tost.append(tost_paired(a, b, margin=0.01).pvalue)
    holm = adjust_pvalues(pvalues)
    if tost:
        verdict_from_pvalues(holm, adjust_pvalues(tost))


def loop_holm_seeds(view: pd.DataFrame, n_rows: int = 190) -> None:
    """seeds_needed at each comparison's Holm level (``alpha_used``), one call per comparison and delta."""
    for sd, level in view[["sigma_d", "alpha_used"]].to_numpy()[:n_rows]:
        for delta in (0.01, 0.005):
            seeds_needed(sd, delta, alpha=level)


def autorank_friedman(means: pd.DataFrame) -> None:
    from autorank import autorank

    with warnings.catch_warnings(), contextlib.redirect_stdout(io.StringIO()):
        warnings.simplefilter("ignore")
        autorank(means, alpha=0.05, force_mode="nonparametric", verbose=False)


def comparisons() -> list[Comparison]:
    rows = []
    for n_models, n_tasks, goal in ((50, 20, 2.0), (100, 50, 10.0)):
        table = runs_table(n_models, n_tasks, 10)
        comparisons_per_view = n_tasks * n_models * (n_models - 1) // 2
        loop_report = Report(table)
        rows.append(Comparison(
            f"Report, all views, {n_models} models x {n_tasks} tasks x 10 seeds",
            lambda table=table: all_views(Report(table)),
            "per-comparison loops (before issue 23)",
            lambda r=loop_report: loop_view(r, "all"), scale=comparisons_per_view / 190, repeats=1, goal=goal,
        ))
    # Holm's level differs from one comparison to the next (stop 32's note: 35 s for 180 comparisons when a
    # threshold table was built per level; now one vectorised search).
    holm = Report(runs_table(50, 20, 10))
    holm_view = holm.power(correction="holm")
    rows.append(Comparison("Report.power(correction='holm'), 50 x 20 x 10 (24,500 comparisons)",
                           lambda: holm.power(correction="holm"), "seeds_needed per comparison at its level",
                           lambda: loop_holm_seeds(holm_view), scale=24_500 / 190, repeats=3))
    big = Report(runs_table(100, 50, 10))
    big.pairwise()  # the comparisons' differences, computed once per report, are shared by the views
    means, _ = big.mean_scores()
    try:
        import autorank  # noqa: F401
    except ImportError:
        print("autorank is not installed (make bench installs the bench extra): its row is left out")
    else:
        rows.append(Comparison("Friedman + Nemenyi CD, 100 models x 50 tasks (means)", lambda: big.friedman(),
                               "autorank (nonparametric)", lambda: autorank_friedman(means), repeats=3))
    for name, view in (("pairwise", lambda: big.pairwise()), ("power", lambda: big.power()),
                       ("equivalence", lambda: big.equivalence(margin=0.01)),
                       ("summary", lambda: big.summary(margin=0.01))):
        rows.append(Comparison(f"Report.{name}, 100 x 50 x 10 (247,500 comparisons)", view,
                               "per-comparison loop (before)", lambda r=big, v=name: loop_view(r, v),
                               scale=247_500 / 190, repeats=3))
    return rows


if __name__ == "__main__":
    run(comparisons())

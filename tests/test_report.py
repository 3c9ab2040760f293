"""sigeval.report: the Report over a table of runs, and run_benchmark."""

import os
import warnings
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sigeval import (
    Report,
    adjust_pvalues,
    friedman,
    nemenyi_cd,
    paired_difference,
    power_paired,
    rank_stability,
    seeds_needed,
    tasks_for_gap,
    tost_paired,
    verdict_from_pvalues,
)
from sigeval.course.benchmark import MODELS, SUITES, TASKS, Task, run_benchmark

COURSE_MODELS = MODELS


def long_table(scores: dict, seeds=None) -> pd.DataFrame:
    """{task: {model: [score per seed]}} as a long table."""
    rows = []
    for task, by_model in scores.items():
        for model, values in by_model.items():
            for i, value in enumerate(values):
                rows.append((task, model, i if seeds is None else seeds[i], value))
    return pd.DataFrame(rows, columns=["task", "model", "seed", "score"])


HAND = {
    "t1": {
        "A": [0.80, 0.82, 0.81, 0.79, 0.83],
        "B": [0.78, 0.80, 0.80, 0.78, 0.80],
        "C": [0.70, 0.73, 0.69, 0.71, 0.72],
    },
    "t2": {
        "A": [0.60, 0.64, 0.61, 0.62, 0.60],
        "B": [0.61, 0.62, 0.62, 0.61, 0.63],
        "C": [0.55, 0.57, 0.50, 0.58, 0.52],
    },
}


@pytest.fixture
def hand():
    return Report(long_table(HAND))


# --------------------------------------------------------------------------- pairwise


def test_pairwise_by_hand(hand):
    pw = hand.pairwise(alpha=0.05)
    assert list(pw.columns) == [
        "task", "model_a", "model_b", "n_pairs", "mean_diff", "ci_low", "ci_high",
        "pvalue", "pvalue_holm", "reject", "note",
    ]
    assert list(zip(pw.task, pw.model_a, pw.model_b)) == [
        ("t1", "A", "B"), ("t1", "A", "C"), ("t1", "B", "C"),
        ("t2", "A", "B"), ("t2", "A", "C"), ("t2", "B", "C"),
    ]
    for row in pw.itertuples():
        a, b = np.array(HAND[row.task][row.model_a]), np.array(HAND[row.task][row.model_b])
        d = a - b
        ref = stats.ttest_rel(a, b)
        half = stats.t.ppf(0.975, 4) * d.std(ddof=1) / np.sqrt(5)
        assert row.n_pairs == 5
        assert row.mean_diff == pytest.approx(d.mean(), abs=1e-15)
        assert row.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
        assert (row.ci_low, row.ci_high) == pytest.approx((d.mean() - half, d.mean() + half), rel=1e-12)
    # Holm within each task, computed by hand: sort, multiply by m - i + 1, running max.
    for task in ("t1", "t2"):
        p = pw.loc[pw.task == task, "pvalue"].to_numpy()
        order = np.argsort(p)
        stepped = np.maximum.accumulate(np.minimum(1, p[order] * (3 - np.arange(3))))
        holm = np.empty(3)
        holm[order] = stepped
        np.testing.assert_allclose(pw.loc[pw.task == task, "pvalue_holm"], holm, rtol=1e-12)
    assert (pw.reject == (pw.pvalue_holm <= 0.05)).all()


def test_pairwise_alpha_sets_interval_and_decision(hand):
    wide, narrow = hand.pairwise(alpha=0.01), hand.pairwise(alpha=0.2)
    assert ((wide.ci_high - wide.ci_low) > (narrow.ci_high - narrow.ci_low)).all()
    assert (wide.reject <= narrow.reject).all()
    assert wide.reject.sum() < narrow.reject.sum()


def test_pairwise_significant_includes_p_exactly_at_alpha(hand):
    """``reject`` is ``pvalue_holm <= alpha``: a Holm p-value equal to alpha rejects."""
    p = float(hand.pairwise().pvalue_holm.iloc[0])
    at = hand.pairwise(alpha=p)
    assert at.pvalue_holm.iloc[0] == p and at.reject.iloc[0]


def test_the_smallest_alpha_is_accepted(hand):
    for view in (hand.pairwise, hand.power, hand.friedman):
        view(alpha=1e-12)
    assert np.isfinite(hand.pairwise(alpha=1e-12)[["ci_low", "ci_high"]].to_numpy()).all()


def test_pairwise_agrees_with_paired_difference(hand):
    pw = hand.pairwise(alpha=0.10)
    row = pw[(pw.task == "t2") & (pw.model_a == "A") & (pw.model_b == "C")].iloc[0]
    res = paired_difference(HAND["t2"]["A"], HAND["t2"]["C"], alpha=0.10)
    assert row.mean_diff == res.estimate and row.pvalue == res.pvalue
    assert (row.ci_low, row.ci_high) == tuple(res.confidence_interval)


# --------------------------------------------------------------------------- power


def test_power_agrees_with_power_paired_and_seeds_needed(hand):
    pwr = hand.power(alpha=0.05, target_power=0.80)
    assert list(pwr.columns) == [
        "task", "model_a", "model_b", "n_pairs", "mean_diff", "sigma_d", "alpha_used", "mde",
        "observed_power", "detectable", "seeds_for_0.01", "seeds_for_0.005", "note",
    ]
    assert (pwr.alpha_used == 0.05).all() and (pwr.note == "").all()
    for row in pwr.to_dict("records"):
        d = np.array(HAND[row["task"]][row["model_a"]]) - np.array(HAND[row["task"]][row["model_b"]])
        sd = d.std(ddof=1)
        ref = power_paired(sd, 5, alpha=0.05, target_power=0.80, delta=abs(d.mean()))
        assert row["sigma_d"] == pytest.approx(sd, rel=1e-12)
        assert row["mde"] == pytest.approx(ref.mde, rel=1e-12)
        assert row["observed_power"] == pytest.approx(ref.power, rel=1e-12)
        assert row["detectable"] == (abs(row["mean_diff"]) >= row["mde"])
        assert row["seeds_for_0.01"] == seeds_needed(sd, 0.01)
        assert row["seeds_for_0.005"] == seeds_needed(sd, 0.005)
    assert pwr.detectable.any() and not pwr.detectable.all()


def test_power_against_the_formula_and_noncentral_t(hand):
    """MDE = (t_{S-1,1-a/2} + t_{S-1,power}) sd / sqrt(S); observed power from scipy's nct."""
    row = hand.power(alpha=0.10, target_power=0.9).iloc[0]
    se = row.sigma_d / np.sqrt(5)
    assert row.mde == pytest.approx((stats.t.isf(0.05, 4) + stats.t.ppf(0.9, 4)) * se, rel=1e-12)
    crit, nc = stats.t.isf(0.05, 4), abs(row.mean_diff) / se
    assert row.observed_power == pytest.approx(stats.nct.sf(crit, 4, nc) + stats.nct.cdf(-crit, 4, nc), rel=1e-9)


def test_observed_power_is_a_function_of_the_pvalue(hand):
    """Hoenig & Heisey (2001): at a fixed level and df, the power at the observed difference falls as p grows,
    and a comparison that is not significant has less than the power at |t| = t_crit (scipy's nct), about 1/2."""
    pvalue = hand.pairwise().pvalue.to_numpy()
    pwr = hand.power()
    assert (pwr.n_pairs == 5).all()
    crit = stats.t.isf(0.025, 4)
    at_threshold = stats.nct.sf(crit, 4, crit) + stats.nct.cdf(-crit, 4, crit)
    observed = pwr.observed_power.to_numpy()
    order = np.argsort(pvalue)
    assert np.all(np.diff(observed[order]) <= 1e-12)
    assert (pvalue > 0.05).any() and (pvalue <= 0.05).any()
    assert (observed[pvalue > 0.05] < at_threshold).all() and (observed[pvalue <= 0.05] >= at_threshold).all()
    assert 0.5 < at_threshold < 0.56


def test_power_passes_alpha_and_target_power_to_seeds_needed(hand):
    row = hand.power(alpha=0.10, target_power=0.90, deltas=(0.01,)).iloc[0]
    expected = seeds_needed(row.sigma_d, 0.01, alpha=0.10, target_power=0.90)
    assert row["seeds_for_0.01"] == expected
    assert expected != seeds_needed(row.sigma_d, 0.01, target_power=0.90)
    assert expected != seeds_needed(row.sigma_d, 0.01, alpha=0.10)


def test_power_difference_exactly_at_the_mde_is_detectable(hand, monkeypatch):
    """``detectable`` is ``|mean_diff| >= mde``: a design whose MDE equals the observed difference detects it."""
    import sigeval._report_within as within

    observed = hand.pairwise().mean_diff.abs().to_numpy()
    core = within.power_core

    def at_the_observed_difference(*args, **kwargs):
        values, reason = core(*args, **kwargs)
        return {**values, "mde": observed.copy()}, reason

    monkeypatch.setattr(within, "power_core", at_the_observed_difference)
    pwr = hand.power()
    assert (pwr.mde == pwr.mean_diff.abs()).all() and pwr.detectable.all()


@pytest.mark.parametrize("target_power, error", [(1.5, ValueError), (0, ValueError), ("0.8", TypeError)])
def test_power_refuses_bad_target_power_by_name(hand, target_power, error):
    with pytest.raises(error, match="`target_power` must be"):
        hand.power(target_power=target_power)


@pytest.mark.parametrize("alpha", [0.3, 0.5])
def test_power_and_summary_refuse_a_target_power_not_above_alpha(hand, alpha):
    """At target_power == alpha no difference is needed at all; the summary (which asks no seeds) refuses too."""
    message = rf"^`target_power` must exceed `alpha` .*; got {alpha} with alpha={alpha}\.$"
    for view in (lambda: hand.power(alpha=alpha, target_power=alpha), lambda: hand.power(alpha, alpha, (1e6,)),
                 lambda: hand.summary(alpha=alpha, target_power=alpha)):
        with pytest.raises(ValueError, match=message):
            view()


def test_power_deltas_name_the_columns(hand):
    cols = hand.power(deltas=(0.02, 0.001, 0.0025)).columns
    assert {"seeds_for_0.02", "seeds_for_0.001", "seeds_for_0.0025"} <= set(cols)


@pytest.mark.parametrize(
    "deltas, error, match",
    [
        ((), ValueError, r"^`deltas` must hold at least one difference; got none\.$"),
        ((0.01, -0.01), ValueError, "`deltas` must be positive"),
        ((0.01, 0.01), ValueError, "distinct"),
        (0.01, TypeError, "sequence"),
        ("0.01", TypeError, "sequence"),
        (("0.01",), TypeError, "deltas"),
    ],
)
def test_power_refuses_bad_deltas(hand, deltas, error, match):
    with pytest.raises(error, match=match):
        hand.power(deltas=deltas)


# --------------------------------------------------------------------------- equivalence


def test_equivalence_agrees_with_tost_and_crosses_holm(hand):
    eq = hand.equivalence(margin=0.05, alpha=0.05)
    for row in eq.itertuples(index=False):
        a, b = HAND[row.task][row.model_a], HAND[row.task][row.model_b]
        assert row.margin == 0.05
        assert row.pvalue_equivalence == pytest.approx(tost_paired(a, b, margin=0.05).pvalue, rel=1e-12)
        assert row.pvalue_difference == pytest.approx(paired_difference(a, b).pvalue, rel=1e-12)
    for task in ("t1", "t2"):
        part = eq[eq.task == task]
        np.testing.assert_allclose(part.pvalue_difference_holm, adjust_pvalues(part.pvalue_difference.to_numpy()))
        np.testing.assert_allclose(part.pvalue_equivalence_holm, adjust_pvalues(part.pvalue_equivalence.to_numpy()))
    diff, same = eq.pvalue_difference_holm <= 0.05, eq.pvalue_equivalence_holm <= 0.05
    expected = np.select(
        [diff & ~same, ~diff & same, diff & same], ["different", "equivalent", "trivial"], "undetermined"
    )
    assert eq.verdict.tolist() == expected.tolist()


def test_equivalence_rows_are_the_functions_numbers(hand):
    """Every row is what paired_difference and tost_paired return: the same cores, on all comparisons at once."""
    eq = hand.equivalence(margin=0.02, alpha=0.1)
    assert (eq.note == "").all()
    for row in eq.itertuples(index=False):
        a, b = HAND[row.task][row.model_a], HAND[row.task][row.model_b]
        diff, tost = paired_difference(a, b, alpha=0.1), tost_paired(a, b, margin=0.02, alpha=0.1)
        assert [row.mean_diff, row.ci_low, row.ci_high, row.pvalue_difference] == [
            diff.estimate, *diff.confidence_interval, diff.pvalue]
        assert [row.tost_ci_low, row.tost_ci_high, row.margin, row.pvalue_equivalence] == [
            *tost.confidence_interval, 0.02, tost.pvalue]


def test_pairwise_rows_are_paired_difference_s_numbers(hand):
    pw = hand.pairwise(alpha=0.1)
    assert (pw.note == "").all()
    for row in pw.itertuples(index=False):
        res = paired_difference(HAND[row.task][row.model_a], HAND[row.task][row.model_b], alpha=0.1)
        assert [row.mean_diff, row.ci_low, row.ci_high, row.pvalue] == [res.estimate, *res.confidence_interval,
                                                                         res.pvalue]


@pytest.mark.parametrize("correction", ["none", "holm"])
def test_power_rows_are_the_functions_numbers(hand, correction):
    """Every row is what power_paired and seeds_needed return at the row's level."""
    view = hand.power(alpha=0.1, target_power=0.9, deltas=(0.01, 0.005), correction=correction)
    assert (view.note == "").all()
    if correction == "none":
        assert (view.alpha_used == 0.1).all()
    else:
        assert view.alpha_used.nunique() > 1 and (view.alpha_used < 0.1).any()
    for row in view.to_dict("records"):
        a, b = HAND[row["task"]][row["model_a"]], HAND[row["task"]][row["model_b"]]
        res = paired_difference(a, b)
        level = row["alpha_used"]
        planned = power_paired(res.sigma_d, res.n, alpha=level, target_power=0.9, delta=abs(res.estimate))
        assert [row["mean_diff"], row["sigma_d"], row["mde"], row["observed_power"]] == [
            res.estimate, res.sigma_d, planned.mde, planned.power]
        assert row["detectable"] == (abs(res.estimate) >= planned.mde)
        assert [row["seeds_for_0.01"], row["seeds_for_0.005"]] == [
            seeds_needed(res.sigma_d, delta, alpha=level, target_power=0.9) for delta in (0.01, 0.005)]
    assert view.detectable.any() and not view.detectable.all()


def test_a_spread_at_rounding_level_marks_its_own_row_as_the_functions_refuse_it():
    """Differences 0.5 and 0.5 + 2.2e-16: an sd of 1.3e-16, not 0, yet zero spread for paired_difference."""
    a, b = [1.0, 1.0 + 2.2e-16, 1.0, 1.0 + 2.2e-16], [0.5] * 4
    report = Report(long_table({"t": {"A": a, "B": b, "C": [0.1, 0.3, 0.2, 0.4]}}))
    with pytest.raises(ValueError, match="zero spread") as refusal:
        paired_difference(a, b)
    assert 0 < np.std(np.subtract(a, b), ddof=1) < 1e-15
    for view in (report.pairwise(), report.power(deltas=(0.1,)), report.equivalence(0.1)):
        assert view.note.tolist() == [f"not tested: {refusal.value}", "", ""]
        assert view.mean_diff[0] == np.mean(np.subtract(a, b))


def test_pairwise_notes_an_interval_whose_upper_end_alone_overflows():
    """Mean difference 1e300, standard error 5e299 and the level whose half-width is the largest float:
    the lower end is finite, the upper one is not; paired_difference refuses, so the row is noted."""
    a, b = [0.75e300, 0.25e300], [-0.75e300, -0.25e300]
    alpha = float(2 * stats.t.sf(np.finfo(float).max / 5e299, 1))  # about 1.77e-9
    with pytest.raises(ValueError, match=r"overflows float64 \(confidence_interval not finite\)") as refusal:
        paired_difference(a, b, alpha=alpha)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = Report(long_table({"t": {"A": a, "B": b}})).pairwise(alpha=alpha).iloc[0]
    assert row.note == f"not tested: {refusal.value}" and np.isnan([row.ci_low, row.ci_high, row.pvalue]).all()


def test_power_notes_an_mde_that_overflows_without_warning():
    """Two seeds at alpha = 1e-12: t quantile 6.4e11 times a spread near 1e300 overflows; power_paired refuses."""
    a, b = [0.5e300, -0.5e300], [-0.5e300, 0.5e300]
    report = Report(long_table({"t": {"A": a, "B": b, "C": [0.1, 0.3]}}))
    sd = np.sqrt(2) * 1e300  # differences of +-1e300
    with pytest.raises(ValueError, match=r"overflows float64 \(mde not finite\)") as refusal:
        power_paired(sd, 2, alpha=1e-12)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = report.power(alpha=1e-12, deltas=(1e299,))
    assert view.note[0] == f"not tested: {refusal.value}" and np.isnan(view.mde[0]) and not view.detectable[0]
    assert view.sigma_d[0] == pytest.approx(sd, rel=1e-15)


@pytest.mark.parametrize("correction", ["none", "holm"])
def test_power_of_a_delta_beyond_the_spread_overflows_to_two_seeds_without_warning(correction):
    """delta = 1e308 against a spread near 1e-300: delta / sigma_d overflows to inf, and 2 seeds suffice."""
    report = Report(long_table({"t": {"A": [1e-300, 3e-300, 2e-300], "B": [0.0, 1e-300, 3e-300],
                                      "C": [0.2, 0.1, 0.4]}}))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = report.power(deltas=(1e308,), correction=correction)
    assert view["seeds_for_1e+308"].tolist() == [2, 2, 2] and (view.note == "").all()


@pytest.mark.parametrize("correction", ["none", "holm"])
def test_power_keeps_seed_counts_beyond_2_53_exact(monkeypatch, correction):
    """The seeds needed are int64 counts: 2**53 + 1 (not a float64) reaches the view as it is."""
    import sigeval._report_within as module

    def huge(effect_size, alpha, target_power):
        return np.full(effect_size.size, 2**53 + 1, dtype=np.int64), np.zeros(effect_size.size, dtype=bool)

    monkeypatch.setattr(module, "seeds_needed_many", huge)
    monkeypatch.setattr(module, "seeds_needed_each", huge)
    view = Report(long_table(HAND)).power(deltas=(0.01,), correction=correction)
    assert view["seeds_for_0.01"].tolist() == [2**53 + 1] * len(view)


@pytest.mark.parametrize("correction", ["none", "bonferroni", "holm"])
def test_power_searches_holm_levels_at_once_and_tabulates_the_others(hand, monkeypatch, correction):
    """Holm gives almost every comparison a level of its own: one search over all of them per delta,
    no threshold table. Without a correction, or with Bonferroni's, one table per distinct level."""
    import sigeval._report_within as module

    calls = []
    for name in ("seeds_needed_many", "seeds_needed_each"):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda e, level, power, _real=real, _name=name:
                            calls.append((_name, np.size(e), np.size(np.unique(level)))) or _real(e, level, power))
    view = hand.power(deltas=(0.01, 0.02), correction=correction)
    tested = int((view.note == "").sum())
    levels = view.alpha_used[view.note == ""].unique()
    if correction == "holm":
        assert calls == [("seeds_needed_each", tested, len(levels))] * 2 and len(levels) > 2
    else:
        per_level = [("seeds_needed_many", int((view.alpha_used == level).sum()), 1) for level in levels]
        assert calls == per_level * 2 and len(levels) == 1  # Bonferroni: alpha / 3 in both tasks


@pytest.mark.parametrize("correction", ["none", "bonferroni", "holm"])
def test_power_asks_no_seeds_for_a_comparison_it_does_not_test(monkeypatch, correction):
    """The zero-spread comparison A-B is noted; only A-C and B-C are searched, without a warning."""
    import sigeval._report_within as module

    asked = []
    for name in ("seeds_needed_many", "seeds_needed_each"):
        real = getattr(module, name)
        monkeypatch.setattr(module, name, lambda e, *args, _real=real: asked.append(np.size(e)) or _real(e, *args))
    scores = {"A": [1.0, 2.0, 3.0, 4.0], "B": [0.5, 1.5, 2.5, 3.5], "C": [0.7, 2.4, 2.1, 3.3]}
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        view = Report(long_table({"t": scores})).power(deltas=(0.1,), correction=correction)
    assert view.note[0].startswith("not tested") and (view.note[1:] == "").all()
    assert sum(asked) == 2


def test_equivalence_notes_a_comparison_whose_statistics_overflow_without_warning():
    """A margin of 1e299 against a standard error near 1e-13: tost_paired refuses, so the view notes that row."""
    gen = np.random.default_rng(0)
    table = long_table({"t": {"A": 1 + 1e-12 * gen.standard_normal(6), "B": 1 + 1e-12 * gen.standard_normal(6) + 3e-12,
                              "C": 0.5 + 0.01 * gen.standard_normal(6)}})
    report = Report(table)
    a, b = (table[table.model == m].score.to_numpy() for m in "AB")
    with pytest.raises(ValueError, match="overflows float64"):
        tost_paired(a, b, margin=1e299)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        eq = report.equivalence(1e299)
    assert eq.note[0].startswith("not tested: The result overflows float64") and np.isnan(eq.pvalue_equivalence[0])
    assert eq.verdict[0] is None or pd.isna(eq.verdict[0])
    assert (eq.note[1:] == "").all() and eq.verdict[1:].tolist() == ["trivial", "trivial"]


def test_equivalence_notes_a_comparison_whose_two_sided_interval_alone_overflows():
    """Differences of +-4e298 on 2 seeds at alpha = 1e-10: the TOST interval (t quantile at alpha) is finite,
    the two-sided one (at alpha / 2, twice as far out) overflows, so paired_difference refuses the row."""
    x = 2e298
    report = Report(long_table({"t": {"A": [x, -x], "B": [-x, x]}}))
    tost = tost_paired([x, -x], [-x, x], margin=1.0, alpha=1e-10)
    assert np.isfinite(tost.confidence_interval).all()  # the case: only the two-sided interval overflows
    with pytest.raises(ValueError, match="overflows float64"):
        paired_difference([x, -x], [-x, x], alpha=1e-10)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # the overflow is caught and explained, not warned about
        row = report.equivalence(1.0, alpha=1e-10).iloc[0]
    assert row.note.startswith("not tested: The result overflows float64")
    assert np.isnan([row.ci_low, row.ci_high, row.tost_ci_low, row.tost_ci_high, row.pvalue_equivalence]).all()


def test_equivalence_notes_a_comparison_whose_upper_statistic_alone_overflows():
    """Mean difference about -1.9e299 and the largest float as margin: mean + margin is finite, mean - margin
    is not, so one TOST statistic overflows and tost_paired refuses; the view notes the row, without warning."""
    a, b = [-1e299, -0.9e299, -1e299], [1e299, 1e299, 0.9e299]
    margin = np.finfo(float).max
    report = Report(long_table({"t": {"A": a, "B": b}}))
    with pytest.raises(ValueError, match=r"statistic_upper not finite"):
        tost_paired(a, b, margin=margin)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        row = report.equivalence(margin).iloc[0]
    assert row.note.startswith("not tested: The result overflows float64 (statistic_upper not finite)")
    assert np.isnan(row.pvalue_equivalence) and row.verdict is None


def test_equivalence_refuses_alpha_of_one_half_as_tost_paired_does(hand):
    with pytest.raises(ValueError, match=r"^`alpha` must be below 0.5 for TOST"):
        hand.equivalence(margin=0.03, alpha=0.5)


def test_equivalence_passes_alpha_to_both_tests_and_the_verdict(hand):
    eq = hand.equivalence(margin=0.03, alpha=0.10)
    assert list(eq.columns) == [
        "task", "model_a", "model_b", "n_pairs", "mean_diff", "ci_low", "ci_high", "tost_ci_low", "tost_ci_high",
        "margin", "pvalue_difference", "pvalue_equivalence", "pvalue_difference_holm", "pvalue_equivalence_holm",
        "verdict", "note",
    ]
    for row in eq.itertuples(index=False):
        a, b = HAND[row.task][row.model_a], HAND[row.task][row.model_b]
        assert row.mean_diff == pytest.approx(np.mean(np.subtract(a, b)), abs=1e-15)
        assert (row.ci_low, row.ci_high) == tuple(paired_difference(a, b, alpha=0.10).confidence_interval)
        assert (row.tost_ci_low, row.tost_ci_high) == tuple(tost_paired(a, b, margin=0.03, alpha=0.10).confidence_interval)
    holm = eq.pvalue_difference_holm.to_numpy(), eq.pvalue_equivalence_holm.to_numpy()
    assert eq.verdict.tolist() == verdict_from_pvalues(*holm, alpha=0.10).tolist()
    assert eq.verdict.tolist() != verdict_from_pvalues(*holm, alpha=0.05).tolist()


def _two_models(mean_a, mean_b, n_seeds, sd=0.002, seed=0):
    rng = np.random.default_rng(seed)
    shared = rng.normal(0, 0.01, n_seeds)  # what the pair shares (the test set of a seed)
    return long_table({"t": {
        "A": mean_a + shared + rng.normal(0, sd, n_seeds),
        "B": mean_b + shared + rng.normal(0, sd, n_seeds),
    }})


def test_verdicts_of_the_four_situations():
    assert Report(_two_models(0.85, 0.80, 10)).equivalence(margin=0.01).verdict[0] == "different"
    assert Report(_two_models(0.80, 0.80, 20)).equivalence(margin=0.01).verdict[0] == "equivalent"
    assert Report(_two_models(0.803, 0.80, 40, sd=0.0005)).equivalence(margin=0.01).verdict[0] == "trivial"
    assert Report(_two_models(0.85, 0.80, 2, sd=0.05)).equivalence(margin=0.01).verdict[0] == "undetermined"


@pytest.mark.parametrize("margin", [0, -0.01, float("nan"), "0.01", None])
def test_equivalence_refuses_bad_margin(hand, margin):
    with pytest.raises((ValueError, TypeError), match="`margin` must be"):
        hand.equivalence(margin=margin)


# --------------------------------------------------------------------------- across tasks


def _tasks_table(n_tasks=6, seed=1):
    rng = np.random.default_rng(seed)
    return long_table({
        f"task {t}": {m: 0.7 + 0.01 * i + 0.02 * rng.standard_normal(4) for i, m in enumerate("ABCD")}
        for t in range(n_tasks)
    })


def test_friedman_agrees_with_ranking_friedman():
    table = _tasks_table()
    report = Report(table)
    f = report.friedman(alpha=0.05)
    means = table.groupby(["task", "model"], sort=False).score.mean().unstack()[list("ABCD")]
    ref = friedman(means)
    assert f["statistic"] == ref.statistic and f["pvalue"] == ref.pvalue
    assert f["statistic_f"] == ref.statistic_f and f["pvalue_f"] == ref.pvalue_f
    np.testing.assert_array_equal(f["mean_ranks"].to_numpy(), ref.mean_ranks)
    assert f["critical_difference"] == nemenyi_cd(4, 6)
    gap = ref.mean_ranks.max() - ref.mean_ranks.min()
    assert f["max_rank_gap"] == pytest.approx(gap)
    assert f["n_for_observed_gap"] == tasks_for_gap(gap, 4)
    pd.testing.assert_frame_equal(f.mean_scores, means, check_names=False)
    assert set(f) >= {"statistic", "pvalue", "critical_difference", "max_rank_gap", "n_for_observed_gap"}
    assert f.n_seeds.tolist() == [4] * 6


def test_friedman_passes_alpha_and_keeps_its_fields():
    report = Report(_tasks_table())
    f = report.friedman(alpha=0.10)
    assert f.critical_difference == nemenyi_cd(4, 6, alpha=0.10) != nemenyi_cd(4, 6)
    assert f.n_for_observed_gap == tasks_for_gap(f.max_rank_gap, 4, alpha=0.10) != tasks_for_gap(f.max_rank_gap, 4)
    assert (f.n_tasks, f.n_models, f.alpha) == (6, 4, 0.10)
    assert f.mean_ranks.name == "mean_rank" and f.mean_ranks.index.tolist() == list("ABCD")
    np.testing.assert_array_equal(f.result.mean_ranks, f.mean_ranks.to_numpy())
    assert f.result.statistic == f.statistic
    with pytest.raises(KeyError, match="nope"):
        f["nope"]


def test_friedman_gap_below_one_rank_still_has_a_task_count():
    """Two models, A best on two tasks of three: mean ranks 4/3 and 5/3, a gap of 1/3."""
    f = Report(long_table({"t0": {"A": [2, 3], "B": [1, 2]}, "t1": {"A": [2, 3], "B": [1, 1.5]},
                           "t2": {"A": [1, 2], "B": [2, 3.5]}})).friedman()
    assert f.max_rank_gap == pytest.approx(1 / 3)
    assert f.n_for_observed_gap == tasks_for_gap(f.max_rank_gap, 2)


def test_mean_scores_by_hand_and_a_task_without_a_complete_seed():
    table = _broken("nan")
    means, n_seeds = Report(table, failed="drop-pairs").mean_scores()
    assert n_seeds.name == "n_seeds" and n_seeds.to_dict() == {"t1": 5, "t2": 4}
    assert means.loc["t2", "C"] == pytest.approx(np.delete(np.array(HAND["t2"]["C"]), 1).mean())
    assert means.loc["t2", "A"] == pytest.approx(np.delete(np.array(HAND["t2"]["A"]), 1).mean())
    crossed = long_table({"t1": {"A": [1.0, np.nan, 2.0], "B": [np.nan, 1.0, 3.0]},
                          "t2": {"A": [1.0, np.nan, 2.0], "B": [np.nan, 1.0, 3.0]}})
    crossed = crossed[~((crossed.task == "t1") & (crossed.seed == 2))]
    with pytest.raises(ValueError, match=r"Task 't1' has no seed on which every model ran \(see `failed_runs`\)"):
        Report(crossed, failed="drop-pairs").mean_scores()


def test_friedman_lower_is_better_reverses_ranks():
    table = _tasks_table()
    up = Report(table).friedman().mean_ranks
    down = Report(table, higher_is_better=False).friedman().mean_ranks
    np.testing.assert_allclose(up + down, 5)


def test_friedman_with_no_gap_has_no_task_count():
    table = long_table({f"t{t}": {"A": [t, t + 1.0], "B": [t + 1.0, t]} for t in range(3)})
    f = Report(table).friedman()
    assert f.max_rank_gap == 0 and f.n_for_observed_gap is None


def test_rank_stability_keys_and_certain_order():
    table = long_table({f"t{t}": {m: [0.1 * i + 0.01 * t, 0.1 * i + 0.02 * t] for i, m in enumerate("ABC")}
                        for t in range(5)})
    st = Report(table).rank_stability(n_boot=500, rng=0)
    assert st["order_stability"] == 1.0
    assert list(st["separation"].columns) == list("ABC")
    assert st["jackknife"].shape == (5, 3) and (st["jackknife"].to_numpy() == 0).all()
    assert st["n_boot"] == 500


def test_rank_stability_reproducible_with_rng():
    report = Report(_tasks_table())
    one, two = report.rank_stability(n_boot=300, rng=5), report.rank_stability(n_boot=300, rng=5)
    assert one.order_stability == two.order_stability
    pd.testing.assert_frame_equal(one.separation, two.separation)


def test_rank_stability_agrees_with_rank_stability_on_the_mean_scores():
    report = Report(_tasks_table(), higher_is_better=False)
    st = report.rank_stability(n_boot=300, alpha=0.2, rng=5)
    means, _ = report.mean_scores()
    ref = rank_stability(means, n_resamples=300, alpha=0.2, higher_is_better=False, rng=5)
    models, tasks = list("ABCD"), [f"task {t}" for t in range(6)]
    assert st.order_stability == ref.order_stability and st.n_boot == 300
    pd.testing.assert_frame_equal(st.separation, pd.DataFrame(ref.separation, index=models, columns=models))
    pd.testing.assert_frame_equal(st.jackknife, pd.DataFrame(ref.jackknife, index=tasks, columns=models))
    assert st.result.n_resamples == 300 and st.result.alpha == 0.2
    np.testing.assert_array_equal(st.result.resampled_mean_ranks, ref.resampled_mean_ranks)
    # Each argument matters here: another count, level or direction gives other numbers.
    assert rank_stability(means, n_resamples=301, alpha=0.2, higher_is_better=False, rng=5).order_stability != st.order_stability
    assert not np.array_equal(rank_stability(means, n_resamples=300, higher_is_better=False, rng=5).separation, ref.separation)
    assert not np.array_equal(rank_stability(means, n_resamples=300, alpha=0.2, rng=5).jackknife, ref.jackknife)


def test_rank_stability_resamples_ten_thousand_times_by_default():
    report = Report(_tasks_table())
    means, _ = report.mean_scores()
    st = report.rank_stability(rng=2)
    assert st.n_boot == 10_000
    assert st.order_stability == rank_stability(means, n_resamples=10_000, rng=2).order_stability


@pytest.mark.parametrize("n_boot, error", [(0, ValueError), (2.5, TypeError)])
def test_rank_stability_refuses_bad_n_boot_by_name(n_boot, error):
    with pytest.raises(error, match="`n_boot` must be an integer >= 1"):
        Report(_tasks_table()).rank_stability(n_boot=n_boot)


def test_views_across_tasks_need_two_tasks(hand):
    one = Report(long_table({"t": HAND["t1"]}))
    for view in (one.friedman, one.rank_stability):
        with pytest.raises(ValueError, match="at least 2 tasks"):
            view()


# --------------------------------------------------------------------------- the table


def test_other_column_names():
    table = long_table(HAND).rename(columns={"task": "dataset", "model": "method", "seed": "run", "score": "acc"})
    report = Report(table, task="dataset", model="method", seed="run", score="acc")
    pd.testing.assert_frame_equal(report.pairwise(), Report(long_table(HAND)).pairwise())


def test_accepts_what_dataframe_accepts():
    records = long_table(HAND).to_dict("records")
    pd.testing.assert_frame_equal(Report(records).pairwise(), Report(long_table(HAND)).pairwise())


def test_seeds_pair_by_label_not_by_row_order():
    table = long_table(HAND)
    shuffled = Report(table.sample(frac=1, random_state=3)).pairwise().set_index(["task", "model_a", "model_b"])
    for row in Report(table).pairwise().itertuples(index=False):
        key = (row.task, row.model_a, row.model_b)
        if key in shuffled.index:
            assert shuffled.mean_diff[key] == pytest.approx(row.mean_diff)
        else:  # the shuffled table met the two models in the other order: B minus A
            assert shuffled.mean_diff[(row.task, row.model_b, row.model_a)] == pytest.approx(-row.mean_diff)


def _broken(kind):
    table = long_table(HAND)
    if kind == "missing":
        return table.drop(index=table[(table.task == "t1") & (table.model == "B") & (table.seed == 3)].index)
    if kind == "nan":
        table.loc[(table.task == "t2") & (table.model == "C") & (table.seed == 1), "score"] = np.nan
        return table
    if kind == "duplicate":
        return pd.concat([table, table.iloc[[0]]], ignore_index=True)
    raise AssertionError(kind)


@pytest.mark.parametrize(
    "kind, match",
    [
        ("missing", r"task 't1', model 'B', seed 3\): missing"),
        ("nan", r"task 't2', model 'C', seed 1\): score is NaN"),
        ("duplicate", r"task 't1', model 'A', seed 0\): duplicated row"),
    ],
)
def test_failed_runs_raise_by_default(kind, match):
    with pytest.raises(ValueError, match=match):
        Report(_broken(kind))
    remedy = (r"Failed runs are never dropped silently: repair them, or pass failed='drop-pairs' "
              r"to leave out the pairs they belong to \(listed in `failed_runs`\)\.")
    with pytest.raises(ValueError, match=remedy):
        Report(_broken(kind))


@pytest.mark.parametrize("kind, task, model, seed", [
    ("missing", "t1", "B", 3), ("nan", "t2", "C", 1), ("duplicate", "t1", "A", 0),
])
def test_drop_pairs_lists_and_leaves_out(kind, task, model, seed):
    report = Report(_broken(kind), failed="drop-pairs")
    assert report.failed_runs[["task", "model", "seed"]].values.tolist() == [[task, model, seed]]
    pw = report.pairwise()
    involved = (pw.task == task) & ((pw.model_a == model) | (pw.model_b == model))
    assert (pw.n_pairs[involved] == 4).all() and (pw.n_pairs[~involved] == 5).all()
    others = [m for m in "ABC" if m != model]
    row = pw[involved & pw.model_a.isin([others[0]]) | involved & pw.model_b.isin([others[0]])].iloc[0]
    a = np.delete(np.array(HAND[task][row.model_a]), seed)
    b = np.delete(np.array(HAND[task][row.model_b]), seed)
    assert row.mean_diff == pytest.approx((a - b).mean())
    for view in (report.power(), report.equivalence(margin=0.01)):
        assert view.n_pairs.tolist() == pw.n_pairs.tolist()
    means, n_seeds = report.mean_scores()
    assert n_seeds[task] == 4 and n_seeds.drop(task).eq(5).all()
    assert "1 failed run" in report.summary()


def test_error_column_explains_failures():
    table = _broken("nan")
    table["error"] = None
    table.loc[table.score.isna(), "error"] = "RuntimeError: diverged"
    report = Report(table, failed="drop-pairs")
    assert report.failed_runs.reason.tolist() == ["failed: RuntimeError: diverged"]


def test_drop_pairs_with_too_few_pairs_left_marks_the_comparison():
    table = long_table({"t": {"A": [1.0, 2.0, 3.0], "B": [1.5, np.nan, np.nan], "C": [0.5, 1.0, 2.5]}})
    report = Report(table, failed="drop-pairs")
    pw = report.pairwise()
    assert pw.note[0] == ("not tested: 1 seed(s) on which both ran; a paired comparison needs at least 2 "
                          "(see `failed_runs`).")
    assert pw.note[2] == pw.note[0] and pw.note[1] == ""  # B vs C too; A vs C is tested
    assert pw.loc[0, ["ci_low", "pvalue", "pvalue_holm"]].isna().all() and not pw.reject[0]
    assert pw.pvalue_holm[1] == pw.pvalue[1]  # a family of one


_TOO_LARGE = ("Scores must be finite and smaller than 1e+300 in magnitude (NaN marks a failed run), so that their sums "
              "and differences stay finite; rescale them. Too large at ")


@pytest.mark.parametrize(
    "change, error, message",
    [
        (lambda t: t[~((t.task == "t2") & (t.model == "C"))], ValueError,
         "Task 't2' has no run of model(s) ['C']: every model must run on every task (drop the task or the model "
         "from the table explicitly)."),
        (lambda t: t[t.seed == 0], ValueError,
         "Task 't1' has 1 seed ([0]); a paired comparison needs at least 2 seeds per task."),
        (lambda t: t[t.model == "A"], ValueError, "A report compares at least 2 models; the table holds 1: ['A']."),
        (lambda t: t.assign(score=t.score.astype(object).where(t.index != 4, "high")), TypeError,
         "The score column must hold numbers; 1 row(s) do not, the first 'high': (task 't1', model 'A', seed 4)."),
        (lambda t: t.assign(score=t.score + 0j), TypeError,
         "The score column must hold real numbers; it holds complex numbers."),
        (lambda t: t.assign(score=t.score > 0.7), TypeError, "The score column must hold numbers; it holds booleans."),
        (lambda t: t.assign(score=t.score.where(t.index != 2, np.inf)), ValueError,
         _TOO_LARGE + "(task 't1', model 'A', seed 2)."),
        (lambda t: t.assign(score=t.score * 1e301), ValueError,
         _TOO_LARGE + "; ".join(f"(task 't1', model 'A', seed {s})" for s in range(5)) + "; ... (30 rows)."),
        (lambda t: t.assign(score=pd.to_datetime(t.score * 1e9)), TypeError,
         "The score column must hold numbers; it holds datetime64[ns]."),
        (lambda t: t.assign(score=t.score.astype(object).where(t.index != 3, True)), TypeError,
         "The score column must hold real numbers; 1 row(s) hold booleans or complex numbers: (task 't1', model "
         "'A', seed 3)."),
        (lambda t: t.assign(model=t.model.where(t.index != 1, None)), ValueError,
         "The task, model and seed columns must not be empty; 1 row(s) have a missing key (the first is row 1 of "
         "the table)."),
        (lambda t: t.assign(seed=t.seed.where(~t.index.isin([3, 5]), None)), ValueError,
         "The task, model and seed columns must not be empty; 2 row(s) have a missing key (the first is row 3 of "
         "the table)."),
        (lambda t: t[(t.task != "t2") | (t.seed == 0)], ValueError,
         "Task 't2' has 1 seed ([0]); a paired comparison needs at least 2 seeds per task."),
        (lambda t: t.assign(score=t.score.where(t.index != 2, 1e300)), ValueError,
         _TOO_LARGE + "(task 't1', model 'A', seed 2)."),
        (lambda t: t.assign(model=t.model.astype(object).where(t.index != 2, pd.Series([["A"]] * len(t)))), TypeError,
         "The model column must hold labels (text or numbers); row 2 holds ['A']."),
        (lambda t: t.assign(seed=t.seed.astype(object).where(t.index != 4, True)), TypeError,
         "The seed column mixes booleans and numbers (row 4 holds True, row 0 holds 0); as labels True equals 1 and "
         "False equals 0, so they would be merged into one seed. Use numbers only (or text)."),
        (lambda t: pd.concat([t.assign(error=None), pd.DataFrame({"error": [None] * len(t)})], axis=1), ValueError,
         "`error` names column 'error', which the table has 2 times."),
        (lambda t: t.iloc[:0], ValueError, "`table` must hold at least one run; it is empty."),
        (lambda t: 5, TypeError,
         "`table` must be a pandas DataFrame, or what pandas.DataFrame accepts (a dict of columns, a list of "
         "records); got int. To read a file, pass pandas.read_csv(path)."),
        (lambda t: None, TypeError,
         "`table` must be a pandas DataFrame, or what pandas.DataFrame accepts (a dict of columns, a list of "
         "records); got NoneType. To read a file, pass pandas.read_csv(path)."),
        (lambda t: {"task": ["t"] * 2, "model": ["A"]}, TypeError,
         "`table` could not be read as a table of runs: All arrays must be of the same length"),
        (lambda t: t.set_axis(pd.MultiIndex.from_tuples([(c, "x") for c in t.columns]), axis=1), ValueError,
         "`task` names column 'task', but the table has a header of 2 rows (a MultiIndex), under which 'task' "
         "heads 1 column(s): ['x']. Name one column by its full tuple, or flatten the header first "
         "(table.columns = ['_'.join(map(str, c)) for c in table.columns])."),
    ],
)
def test_broken_tables_are_refused_clearly(change, error, message):
    with pytest.raises(error) as caught:
        Report(change(long_table(HAND)), failed="drop-pairs")
    assert str(caught.value) == message


@pytest.mark.parametrize("column", ["task", "model", "seed", "score"])
def test_unknown_column_is_named(column):
    with pytest.raises(ValueError, match=rf"`{column}` names column 'nope'.*columns are"):
        Report(long_table(HAND), **{column: "nope"})


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(failed="drop"), ValueError, "`failed` must be one of 'raise', 'drop-pairs'"),
        (dict(higher_is_better="yes"), TypeError, "higher_is_better"),
        (dict(score="task"), ValueError, "four different columns"),
    ],
)
def test_bad_options(kwargs, error, match):
    with pytest.raises(error, match=match):
        Report(long_table(HAND), **kwargs)


@pytest.mark.parametrize("alpha", [0, 1, 1.5, float("nan"), "0.05", None])
def test_views_refuse_bad_alpha(hand, alpha):
    for view in (hand.pairwise, hand.power, lambda alpha: hand.equivalence(0.01, alpha=alpha)):
        with pytest.raises((ValueError, TypeError), match="alpha"):
            view(alpha=alpha)


def test_a_zero_spread_comparison_marks_its_own_row():
    """One zero-spread pair: its row says why it was not tested, the others are as without it."""
    scores = {"A": [1.0, 2.0, 3.0, 4.0], "B": [0.5, 1.5, 2.5, 3.5], "C": [0.7, 2.4, 2.1, 3.3]}
    report = Report(long_table({"t": scores}))
    pw, pwr, eq = report.pairwise(), report.power(deltas=(0.1,)), report.equivalence(0.1)
    for view in (pw, pwr, eq):
        assert view.note[0].startswith("not tested: The differences `scores_a - scores_b` have zero spread (all equal to 0.5)")
        assert (view.note[1:] == "").all()
        assert view.mean_diff[0] == 0.5  # the mean of the differences is defined; the test is not
    assert np.isnan(pw.pvalue[0]) and np.isnan(pw.pvalue_holm[0]) and not pw.reject[0]
    assert np.isnan(pwr.mde[0]) and not pwr.detectable[0] and pwr["seeds_for_0.1"].isna().tolist() == [True, False, False]
    assert pd.isna(eq.verdict[0]) and np.isnan(eq.pvalue_equivalence_holm[0])
    # The others: Holm over the two comparisons that were tested, as scipy and a hand-written Holm give them.
    ref = [stats.ttest_rel(scores[a], scores[b]).pvalue for a, b in (("A", "C"), ("B", "C"))]
    np.testing.assert_allclose(pw.pvalue[1:], ref, rtol=1e-12)
    np.testing.assert_allclose(pw.pvalue_holm[1:], _hand_holm(ref), rtol=1e-12)
    np.testing.assert_allclose(eq.pvalue_difference_holm[1:], _hand_holm(ref), rtol=1e-12)
    assert "1 comparison(s) could not be tested" in report.summary(0.1)


def test_arguments_the_tests_refuse_still_raise():
    report = Report(long_table({"t": {"A": [1.0, 2.0, 3.0, 4.0], "B": [0.5, 1.5, 2.5, 3.5], "C": [0.7, 2.4, 2.1, 3.3]}}))
    with pytest.raises(ValueError, match="`target_power` must exceed `alpha`"):
        report.power(alpha=0.3, target_power=0.2)
    with pytest.raises(ValueError, match="`alpha` must be below 0.5 for TOST"):
        report.equivalence(0.1, alpha=0.6)


def _hand_holm(pvalues) -> np.ndarray:
    """Holm's adjusted p-values written out: sort, multiply by m - i + 1, running maximum, cap at 1."""
    p = np.asarray(pvalues, dtype=float)
    m = p.size
    order = np.argsort(p, kind="stable")
    out = np.empty(m)
    running = 0.0
    for i, index in enumerate(order):
        running = max(running, (m - i) * p[index])
        out[index] = min(1.0, running)
    return out


def test_family_all_is_holm_over_every_comparison(hand):
    for view, column in ((hand.pairwise, "pvalue"), (lambda **kw: hand.equivalence(0.03, **kw), "pvalue_difference"),
                         (lambda **kw: hand.equivalence(0.03, **kw), "pvalue_equivalence")):
        by_task, over_all = view(family="task"), view(family="all")
        np.testing.assert_allclose(over_all[f"{column}_holm"], _hand_holm(over_all[column]), rtol=1e-12)
        for task in ("t1", "t2"):
            part = by_task[by_task.task == task]
            np.testing.assert_allclose(part[f"{column}_holm"], _hand_holm(part[column]), rtol=1e-12)
        assert (over_all[f"{column}_holm"] >= by_task[f"{column}_holm"] - 1e-15).all()
    pw = hand.pairwise(alpha=0.01, family="all")
    assert (pw.reject == (pw.pvalue_holm <= 0.01)).all()
    assert "Holm over all comparisons" in hand.summary(family="all")


@pytest.mark.parametrize("correction", ["none", "bonferroni", "holm"])
def test_power_notes_the_comparisons_whose_delta_seeds_needed_refuses(correction):
    """A delta too small against one comparison's spread (the seeds overflow a count) marks that row alone,
    with seeds_needed's message at the row's level; the other delta is not asked about that row."""
    report = Report(long_table({"t": {"A": [0.0, 1.0, 2.0], "B": [0.1, 1.0, 1.9], "C": [0.0, 1.2e-7, 0.0]}}))
    view = report.power(deltas=(1e-8, 10.0), correction=correction)
    assert view.sigma_d.tolist()[1:] == pytest.approx([1.0, 1.0], rel=0.2) and view.sigma_d[0] < 0.2
    for r in (1, 2):
        with pytest.raises(ValueError, match="too small") as refusal:
            seeds_needed(view.sigma_d[r], 1e-8, alpha=view.alpha_used[r])
        assert view.note[r] == f"not tested: {refusal.value}"
        assert view[["seeds_for_1e-08", "seeds_for_10"]].iloc[r].isna().all() and np.isnan(view.mde[r])
    assert view.note[0] == "" and view["seeds_for_1e-08"][0] == seeds_needed(view.sigma_d[0], 1e-8,
                                                                           alpha=view.alpha_used[0])
    assert view["seeds_for_10"][0] == 2


@pytest.mark.parametrize("family", ["task", "all"])
@pytest.mark.parametrize("alpha", [0.01, 0.05, 0.2])
def test_power_at_the_holm_level_agrees_with_the_decisions(family, alpha):
    """At Holm's level, a comparison is rejected exactly when its p-value is at most that level,
    and a detectable one is always rejected; Bonferroni's level is alpha over the family size."""
    gen = np.random.default_rng(4)
    table = long_table({f"t{t}": {m: 0.8 + 0.004 * i * (t + 1) + 0.006 * gen.standard_normal(8)
                                  for i, m in enumerate("ABCDE")} for t in range(3)})
    report = Report(table)
    pw = report.pairwise(alpha=alpha, family=family)
    holm = report.power(alpha=alpha, family=family, correction="holm", deltas=(0.01,))
    bonf = report.power(alpha=alpha, family=family, correction="bonferroni", deltas=(0.01,))
    m = 10 if family == "task" else 30
    np.testing.assert_allclose(bonf.alpha_used, alpha / m, rtol=1e-15)
    assert ((pw.pvalue <= holm.alpha_used) == pw.reject).all()
    assert (holm.alpha_used >= alpha / m * (1 - 1e-12)).all() and (holm.alpha_used <= alpha * (1 + 1e-12)).all()
    assert not (holm.detectable & ~pw.reject).any()
    assert (bonf.mde >= holm.mde * (1 - 1e-12)).all()
    # The level of each Holm step by hand: alpha / (m - i + 1) when that comparison's own term is the running max.
    for _, part in pw.groupby("task" if family == "task" else np.zeros(len(pw)), sort=False):
        p = part.pvalue.to_numpy()
        order = np.argsort(p, kind="stable")
        terms = (p.size - np.arange(p.size)) * p[order]
        own = terms >= np.maximum.accumulate(terms)
        np.testing.assert_allclose(holm.alpha_used.to_numpy()[part.index[order[own]]],
                                   alpha / (p.size - np.arange(p.size))[own], rtol=1e-15)
    # Every number at the row's level is the library's own function at that level.
    for row in holm.to_dict("records"):
        d = np.subtract(table[(table.task == row["task"]) & (table.model == row["model_a"])].score.to_numpy(),
                        table[(table.task == row["task"]) & (table.model == row["model_b"])].score.to_numpy())
        ref = power_paired(d.std(ddof=1), d.size, alpha=row["alpha_used"], delta=abs(d.mean()))
        assert row["mde"] == pytest.approx(ref.mde, rel=1e-12)
        assert row["observed_power"] == pytest.approx(ref.power, rel=1e-9)
        assert row["seeds_for_0.01"] == seeds_needed(d.std(ddof=1), 0.01, alpha=row["alpha_used"])


def test_holm_levels_of_a_family_with_zero_and_tied_pvalues_step_by_step():
    """Every row's Holm level by a plain loop over the sorted p-values, ties kept in table order.

    Four models a constant offset apart give p-values of exactly 0 (ties); three noisy ones give
    p-values whose weighted terms do not rise in order, so some levels are alpha p / a_i.
    """
    gen = np.random.default_rng(7)
    scores = {f"M{j}": 0.5 + 0.01 * j + (1e-14 if j < 4 else 0.01) * gen.standard_normal(31) for j in range(7)}
    report = Report(long_table({"t": scores}))
    p = report.pairwise().pvalue.to_list()
    alpha, m = 0.05, len(p)
    expected, running, own = [0.0] * m, 0.0, []
    for rank, i in enumerate(sorted(range(m), key=lambda i: p[i])):  # Python's sort is stable
        term = (m - rank) * p[i]
        own.append(term >= running)
        if term >= running:
            running, expected[i] = term, alpha / (m - rank)
        else:
            expected[i] = alpha * p[i] / running
    assert m == 21 and p.count(0.0) == 6 and not all(own)  # ties, a family past numpy's small-sort size, both cases
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0 / 0 for the zero p-values must not be computed into a warning
        levels = report.power(correction="holm", deltas=(0.01,)).alpha_used.to_numpy()
    np.testing.assert_allclose(levels, expected, rtol=1e-15)


def test_the_mde_at_a_level_against_scipys_noncentral_t():
    """The power at the MDE of Bonferroni's level, by scipy's noncentral t: the formula's, a little below target.

    At alpha / 3 with 5 seeds the t-quantile sum undershoots more than at alpha (0.76 rather than 0.79).
    """
    report = Report(long_table(HAND))
    bonf = report.power(correction="bonferroni")
    assert (bonf.alpha_used == 0.05 / 3).all()
    for row in bonf.itertuples(index=False):
        df = row.n_pairs - 1
        crit = stats.t.isf(row.alpha_used / 2, df)
        nc = row.mde / (row.sigma_d / np.sqrt(row.n_pairs))
        achieved = stats.nct.sf(crit, df, nc) + stats.nct.cdf(-crit, df, nc)
        assert achieved == pytest.approx(power_paired(row.sigma_d, row.n_pairs, alpha=row.alpha_used).power_at_mde,
                                         rel=1e-9)
        assert 0.75 < achieved < 0.80


@pytest.mark.parametrize("kwargs, match", [(dict(family="seed"), "`family` must be one of 'task', 'all'"),
                                           (dict(correction="sidak"), "`correction` must be one of 'none'")])
def test_bad_family_and_correction_are_named(hand, kwargs, match):
    with pytest.raises(ValueError, match=match):
        hand.power(**kwargs)
    views = (hand.pairwise, lambda **kw: hand.equivalence(0.01, **kw)) if "family" in kwargs else ()
    for view in (*views, hand.summary, hand.to_markdown):
        with pytest.raises(ValueError, match=match):
            view(**kwargs)


def test_summary_reports_the_numbers(hand):
    text = hand.summary(margin=0.01)
    pw, f = hand.pairwise(), hand.friedman()
    assert f"{int(pw.reject.sum())} of 6 comparison(s) differ" in text
    assert f"critical difference {f.critical_difference:.2f}" in text
    assert "margin of 0.01" in text


def test_summary_of_scores_in_the_millions():
    """The summary states MDEs, not seeds needed: no delta of 0.01 (or the margin) may be asked about.

    Against a spread of 1.5e6, seeds_needed(sd, 0.01) asks for more seeds than a count holds and
    raises; the summary used to compute that column without printing it, and failed.
    """
    report = Report({"task": ["t"] * 6, "model": list("AAABBB"), "seed": [0, 1, 2] * 2,
                     "score": [1e6, 3e6, 2e6, 0.0, 1e6, 3e6]})
    mde = report.power(deltas=(1e5,)).mde.iloc[0]
    for text in (report.summary(), report.summary(margin=0.01)):
        assert f"range from {mde:.3g} to {mde:.3g}; 1 of 1 observed difference(s)" in text


def test_summary_sentence_by_sentence():
    """Every number of the summary is the one of its view, at the alpha and power asked for."""
    table = long_table(HAND)
    report = Report(table[~((table.task == "t2") & (table.seed == 4))])
    alpha, power, margin = 0.10, 0.90, 0.03
    pw, pwr = report.pairwise(alpha=alpha), report.power(alpha=alpha, target_power=power)
    verdicts = report.equivalence(margin, alpha=alpha).verdict.value_counts()
    f = report.friedman(alpha=alpha)
    # The case is chosen so that a view at the default level or power would give other numbers.
    assert pwr.detectable.sum() != (~pwr.detectable).sum()
    assert report.power().mde.min() != pytest.approx(pwr.mde.min(), rel=1e-2)
    assert report.equivalence(margin).verdict.value_counts().to_dict() != verdicts.to_dict()
    assert len(verdicts) < 4  # a verdict nobody got is printed as 0
    assert f.mean_ranks.idxmin() == "A" and f.n_for_observed_gap is not None
    expected = " ".join([
        "2 task(s), 3 models, 4 to 5 seeds per task; no failed runs.",
        f"{pw.reject.sum()} of 6 comparison(s) differ at alpha = 0.1 (paired t, Holm within each task).",
        f"Minimum detectable effects at 90% power range from {pwr.mde.min():.3g} to {pwr.mde.max():.3g}; "
        f"{(~pwr.detectable).sum()} of 6 observed difference(s) are smaller than their own MDE.",
        f"Against a margin of 0.03: {verdicts.get('different', 0)} different, {verdicts.get('equivalent', 0)} equivalent, "
        f"{verdicts.get('trivial', 0)} trivial, {verdicts.get('undetermined', 0)} undetermined.",
        f"Across the 2 tasks, 'A' has the best mean rank ({f.mean_ranks['A']:.2f}); Friedman p = {f.pvalue:.3g}, "
        f"Iman-Davenport p = {f.pvalue_f:.3g}, critical difference {f.critical_difference:.2f}; the largest mean-rank gap, {f.max_rank_gap:.2f}, "
        f"would need {f.n_for_observed_gap} tasks.",
    ])
    assert report.summary(margin=margin, alpha=alpha, target_power=power) == expected


def test_summary_when_every_model_has_the_same_mean_rank():
    table = long_table({f"t{t}": {"A": [t, t + 1.0], "B": [t + 1.0, t]} for t in range(3)})
    text = Report(table).summary()
    assert text.endswith("; every model has the same mean rank.")
    assert "Against a margin" not in text


def test_repr(hand):
    assert repr(hand) == "Report(2 task(s), 3 models, 5 seeds per task, 0 failed run(s))"


def test_repr_and_summary_give_the_range_of_seeds_per_task():
    table = long_table({"t1": {"A": [0.1, 0.2], "B": [0.3, 0.5]}, "t2": {"A": [0.1, 0.2, 0.4], "B": [0.3, 0.5, 0.4]},
                        "t3": {"A": [0.1, 0.2, 0.4, 0.5], "B": [0.3, 0.5, 0.4, 0.7]}})
    report = Report(table)
    assert repr(report) == "Report(3 task(s), 2 models, 2-4 seeds per task, 0 failed run(s))"
    assert report.summary().startswith("3 task(s), 2 models, 2 to 4 seeds per task; no failed runs.")


def test_run_benchmark_is_reached_from_the_package_not_the_report_module():
    import sigeval
    import sigeval.report

    assert sigeval.run_benchmark is run_benchmark
    assert not hasattr(sigeval.report, "run_benchmark")


def test_rank_stability_takes_n_resamples_beside_the_sources_n_boot():
    report = Report(long_table({t: {"A": [0.1, 0.2, 0.3], "B": [0.3, 0.5, 0.4], "C": [0.0, 0.1, 0.2]} for t in "abcd"}))
    one, two = report.rank_stability(n_boot=50, rng=1), report.rank_stability(n_resamples=50, rng=1)
    assert one.n_boot == two.n_boot == two.n_resamples == 50
    pd.testing.assert_frame_equal(one.separation, two.separation)
    assert report.rank_stability(rng=1).n_boot == 10_000
    with pytest.raises(TypeError, match=r"Give the number of resamples once, as `n_boot` or as `n_resamples`"):
        report.rank_stability(n_boot=50, n_resamples=50)
    with pytest.raises(ValueError, match=r"`n_resamples` must be an integer >= 1"):
        report.rank_stability(n_resamples=0)


# --------------------------------------------------------------------------- run_benchmark


def test_run_benchmark_deterministic_and_parallel_identical():
    args = (["standard", "blurred"], ["matcher A", "matcher B"], range(3))
    one = run_benchmark(*args, n_test=200, n_train=100)
    two = run_benchmark(*args, n_test=200, n_train=100)
    with ThreadPoolExecutor(2) as pool:
        par = run_benchmark(*args, n_test=200, n_train=100, executor=pool)
    pd.testing.assert_frame_equal(one.runs, two.runs)
    pd.testing.assert_frame_equal(one.runs, par.runs)
    assert one.runs.groupby(["task", "model"]).size().eq(3).all()


def test_run_benchmark_pairs_models_on_the_same_test_set():
    """On a seed, both matchers see the same test images: a model against itself differs by zero."""
    same = {"A": lambda x, y, s: (lambda images: np.zeros(len(images), dtype=int)),
            "B": lambda x, y, s: (lambda images: np.zeros(len(images), dtype=int))}
    report = run_benchmark("standard", same, range(3), n_test=100, n_train=10)
    scores = report.runs.pivot(index="seed", columns="model", values="score")
    assert (scores.A == scores.B).all() and scores.A.nunique() == 3


def test_run_benchmark_seed_controls_mlp_initialisation():
    """The MLP's seed is the run's: two seeds give two networks, the same seed the same one."""
    args = ("standard", ["MLP 32", "matcher A"])
    one = run_benchmark(*args, [0, 1], n_test=100, n_train=200).runs
    again = run_benchmark(*args, [1, 2], n_test=100, n_train=200).runs
    mlp = one[one.model == "MLP 32"].set_index("seed").score
    mlp_again = again[again.model == "MLP 32"].set_index("seed").score
    assert mlp[1] == mlp_again[1] and mlp[0] != mlp[1]


def test_task_variants_transform_the_same_draws():
    clean = np.ones((2, 16, 16))
    noise = np.full((2, 16, 16), 0.8)
    out = Task(noise=1.6, contrast=0.5).images(clean, noise)
    np.testing.assert_allclose(out, 0.5 + 1.6)
    assert Task().images(clean, noise) is not None
    np.testing.assert_allclose(Task().images(clean, noise), clean + noise)


def test_failed_models_are_recorded_not_lost():
    def crashes(images, labels, seed):
        raise RuntimeError("out of memory")

    def returns_nan(images, labels, seed):
        return lambda test: np.full(len(test), np.nan)

    models = {"A": lambda x, y, s: (lambda test: np.zeros(len(test), dtype=int)), "crash": crashes, "nan": returns_nan}
    report = run_benchmark("standard", models, range(2), n_test=50, n_train=10)
    failed = report.failed_runs
    assert len(failed) == 4
    assert set(failed.model) == {"crash", "nan"}
    assert failed.reason[failed.model == "crash"].str.contains("RuntimeError: out of memory").all()
    assert failed.reason[failed.model == "nan"].str.contains("not 50 integer class indices").all()
    with pytest.raises(ValueError, match="failed or broken"):
        run_benchmark("standard", models, range(2), n_test=50, n_train=10, failed="raise")


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(tasks="nope"), ValueError, "`tasks` names 'nope'"),
        (dict(tasks=[]), ValueError, "tasks"),
        (dict(tasks={"x": (0.8, 1, 0)}), TypeError, r"`tasks`\['x'\]"),
        (dict(models=["nope"]), ValueError, "`models` names 'nope'"),
        (dict(models={"m": 3}), TypeError, r"`models`\['m'\]"),
        (dict(seeds=[1]), ValueError, "at least 2 seeds"),
        (dict(seeds=[1, 1]), ValueError, "distinct"),
        (dict(seeds=[1, -2]), ValueError, "non-negative"),
        (dict(seeds="12"), TypeError, "seeds"),
        (dict(seeds=[1.5, 2]), ValueError, "seeds"),
        (dict(n_test=0), ValueError, "n_test"),
        (dict(n_train="100"), TypeError, "n_train"),
    ],
)
def test_run_benchmark_refuses_bad_arguments(kwargs, error, match):
    args = dict(tasks="standard", models=["matcher A", "matcher B"], seeds=range(2), n_test=50, n_train=10)
    with pytest.raises(error, match=match):
        run_benchmark(**{**args, **kwargs})


@pytest.mark.parametrize("kwargs", [dict(noise=0), dict(contrast=-1), dict(blur=-0.5), dict(noise=float("nan"))])
def test_task_refuses_bad_parameters(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        Task(**kwargs)


def test_describe_by_hand():
    report = Report(_broken("nan"), failed="drop-pairs")
    d = report.describe().set_index(["task", "model"])
    values = np.array(HAND["t1"]["A"])
    row = d.loc[("t1", "A")]
    assert row.n_runs == 5 and row.n_failed == 0
    assert (row["mean"], row.sd, row["min"], row["max"]) == pytest.approx(
        (values.mean(), values.std(ddof=1), values.min(), values.max()))
    broken = d.loc[("t2", "C")]
    assert broken.n_runs == 4 and broken.n_failed == 1
    assert broken["mean"] == pytest.approx(np.delete(np.array(HAND["t2"]["C"]), 1).mean())


def test_describe_models_with_zero_one_and_two_runs_left():
    """No run: NaN statistics; one run: NaN sd; two: the n - 1 sd. Without a NumPy warning."""
    table = long_table({"t": {"A": [1.0, 2.0, 3.0], "B": [np.nan] * 3, "C": [np.nan, 1.5, np.nan],
                              "D": [np.nan, 2.0, 2.6]}})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        d = Report(table, failed="drop-pairs").describe().set_index("model")
    assert d.n_runs.tolist() == [3, 0, 1, 2] and d.n_failed.tolist() == [0, 3, 2, 1]
    assert d.loc["B", ["mean", "sd", "min", "max"]].isna().all()
    assert d.loc["C", ["mean", "min", "max"]].tolist() == [1.5, 1.5, 1.5] and np.isnan(d.loc["C", "sd"])
    assert d.loc["D", "sd"] == pytest.approx(0.6 / np.sqrt(2))


def test_equivalence_intervals_are_the_tests_intervals(hand):
    eq = hand.equivalence(margin=0.02, alpha=0.05)
    row = eq.iloc[0]
    a, b = HAND["t1"]["A"], HAND["t1"]["B"]
    assert (row.ci_low, row.ci_high) == tuple(paired_difference(a, b, alpha=0.05).confidence_interval)
    assert (row.tost_ci_low, row.tost_ci_high) == tuple(tost_paired(a, b, margin=0.02).confidence_interval)


def test_the_source_calls_work_as_written():
    """The calls of the source's report page, on our benchmark (small, to keep the suite fast)."""
    from sigeval.course.benchmark import MODELS

    report = run_benchmark(["standard", "blurred", "very blurred"], MODELS, seeds=range(3), n_test=300, n_train=300)
    power = report.power(alpha=0.05, target_power=0.80)
    assert power[["task", "model_a", "model_b", "mean_diff", "mde", "observed_power", "detectable"]].shape == (18, 7)
    assert power[["task", "model_a", "model_b", "sigma_d", "seeds_for_0.01", "seeds_for_0.005"]].notna().all().all()
    eq = report.equivalence(margin=0.01)
    assert eq["verdict"].value_counts().sum() == 18
    f = report.friedman(alpha=0.05)
    assert f["critical_difference"] > 0 and f["max_rank_gap"] > 0 and f["n_for_observed_gap"] >= 2
    st = report.rank_stability(n_boot=10_000)
    assert 0 <= st["order_stability"] <= 1 and st["separation"].shape == (4, 4) and st["jackknife"].shape == (3, 4)
    pw, pwr, eq, f = report.pairwise(), report.power(), report.equivalence(margin=0.01), report.friedman()
    assert len(pw) == len(pwr) == len(eq) == 18 and f["n_tasks"] == 3


def test_a_column_shadowed_by_the_chosen_one_is_ignored():
    table = long_table(HAND)
    table["accuracy"] = table.score
    table["score"] = "not used"
    pd.testing.assert_frame_equal(Report(table, score="accuracy").pairwise(), Report(long_table(HAND)).pairwise())


@pytest.mark.parametrize(
    "table, kwargs, error, match",
    [
        ("runs.csv", {}, TypeError, "read_csv"),
        (5, {}, TypeError, "`table` must be a pandas DataFrame"),
        (None, {}, TypeError, "`table`"),
        (long_table(HAND), {"score": ["score"]}, TypeError, "`score` must be a column name"),
        (pd.concat([long_table(HAND), long_table(HAND)[["score"]]], axis=1), {}, ValueError, "2 times"),
        (long_table(HAND).assign(task=[[1]] * 30), {}, TypeError, "task column must hold labels"),
    ],
)
def test_unreadable_tables_name_the_problem(table, kwargs, error, match):
    with pytest.raises(error, match=match):
        Report(table, **kwargs)


def test_nullable_dtypes_and_many_tasks():
    table = _tasks_table(n_tasks=300)
    nullable = table.astype({"score": "Float64"})
    nullable.loc[5, "score"] = pd.NA
    report = Report(nullable, failed="drop-pairs")
    assert len(report.tasks) == 300 and len(report.failed_runs) == 1
    assert report.failed_runs.reason.tolist() == ["score is NaN"]


@pytest.mark.parametrize("alpha", [1e-13, 1e-300])
def test_tiny_alpha_is_refused_by_name(hand, alpha):
    for view in (hand.pairwise, hand.power, hand.friedman):
        with pytest.raises(ValueError, match="`alpha` must be at least"):
            view(alpha=alpha)


@pytest.mark.parametrize("margin", ["0.05", -0.01, float("nan")])
def test_summary_checks_its_margin(hand, margin):
    with pytest.raises((ValueError, TypeError), match="`margin`"):
        hand.summary(margin=margin)


def test_a_model_cannot_change_the_data_of_the_others():
    def vandal(images, labels, seed):
        images[:] = 0
        return lambda test: np.zeros(len(test), dtype=int)

    honest = {"matcher B": run_benchmark("standard", ["matcher A", "matcher B"], range(2), n_test=100, n_train=10)}
    report = run_benchmark("standard", {"vandal": vandal, "matcher B": MODELS["matcher B"], "z": MODELS["matcher A"]},
                           range(2), n_test=100, n_train=10)
    assert "read-only" in report.failed_runs.reason.iloc[0]
    mine = report.runs[report.runs.model == "matcher B"].score.to_numpy()
    theirs = honest["matcher B"].runs
    np.testing.assert_array_equal(mine, theirs[theirs.model == "matcher B"].score.to_numpy())


@pytest.mark.parametrize(
    "kwargs, error, match",
    [
        (dict(models=["matcher A"]), ValueError, "at least 2 models"),
        (dict(models=["matcher A", "matcher A"]), ValueError, "twice"),
        (dict(models={None: MODELS["matcher A"], "b": MODELS["matcher B"]}), TypeError, "non-empty strings"),
        (dict(tasks=b"standard"), TypeError, "tasks"),
        (dict(n_test=10**7), ValueError, r"at most 1,000,000 images"),
        (dict(seeds=iter(range(10**6))), ValueError, "at most 10,000 seeds"),
        (dict(executor=5), TypeError, "executor"),
        (dict(failed="ignore"), ValueError, "failed"),
        (dict(progress="yes"), TypeError, "`progress` must be True or False"),
        (dict(tasks=["shapes", "shapes"]), ValueError, "twice"),
        (dict(tasks="shape"), ValueError, r"not one of .*'shapes \(suite\)'"),
    ],
)
def test_run_benchmark_refuses_before_running(kwargs, error, match):
    args = dict(tasks="standard", models=["matcher A", "matcher B"], seeds=range(2), n_test=50, n_train=10)
    with pytest.raises(error, match=match):
        run_benchmark(**{**args, **kwargs})


@pytest.mark.parametrize("kwargs", [dict(blur=17), dict(noise=1e308), dict(contrast=101)])
def test_task_bounds(kwargs):
    with pytest.raises(ValueError, match=next(iter(kwargs))):
        Task(**kwargs)


def test_task_stores_floats():
    assert repr(Task(noise=np.float32(0.5))) == "Task(noise=0.5, contrast=1.0, blur=0.0)"


# --------------------------------------------------------------------------- vectorised = per comparison


def _per_comparison(report: Report, compute) -> pd.DataFrame:
    """The views as they were computed before they were vectorised: a loop over every comparison."""
    rows = []
    k = len(report.models)
    for t in report.tasks:
        grid = report._scores[t]
        for i in range(k):
            for j in range(i + 1, k):
                both = ~np.isnan(grid[:, i]) & ~np.isnan(grid[:, j])
                a, b = grid[both, i], grid[both, j]
                rows.append({"task": t, "model_a": report.models[i], "model_b": report.models[j], "n_pairs": a.size,
                             **compute(a, b)})
    return pd.DataFrame(rows)


def _holm_by_task(frame: pd.DataFrame, column: str) -> np.ndarray:
    adjusted = np.empty(len(frame))
    for _, index in frame.groupby("task", sort=False).indices.items():
        adjusted[index] = adjust_pvalues(frame[column].to_numpy()[index], method="holm")
    return adjusted


def _old_pairwise(report, alpha):
    def compute(a, b):
        res = paired_difference(a, b, alpha=alpha)
        return {"mean_diff": res.estimate, "ci_low": res.confidence_interval.low,
                "ci_high": res.confidence_interval.high, "pvalue": res.pvalue}

    frame = _per_comparison(report, compute)
    frame["pvalue_holm"] = _holm_by_task(frame, "pvalue")
    frame["reject"] = frame["pvalue_holm"] <= alpha
    frame["note"] = ""
    return frame


def _old_power(report, alpha, target_power, deltas):
    def compute(a, b):
        res = paired_difference(a, b)
        planned = power_paired(res.sigma_d, res.n, alpha=alpha, target_power=target_power, delta=abs(res.estimate))
        row = {"mean_diff": res.estimate, "sigma_d": res.sigma_d, "alpha_used": alpha, "mde": float(planned.mde),
               "observed_power": float(planned.power)}
        row["detectable"] = abs(res.estimate) >= row["mde"]
        for delta in deltas:
            row[f"seeds_for_{delta:g}"] = seeds_needed(res.sigma_d, delta, alpha=alpha, target_power=target_power)
        return row

    frame = _per_comparison(report, compute)
    for delta in deltas:
        frame[f"seeds_for_{delta:g}"] = frame[f"seeds_for_{delta:g}"].astype("Int64")
    frame["note"] = ""
    return frame


def _old_equivalence(report, margin, alpha):
    def compute(a, b):
        diff = paired_difference(a, b, alpha=alpha)
        tost = tost_paired(a, b, margin=margin, alpha=alpha)
        return {"mean_diff": diff.estimate, "ci_low": diff.confidence_interval.low,
                "ci_high": diff.confidence_interval.high, "tost_ci_low": tost.confidence_interval.low,
                "tost_ci_high": tost.confidence_interval.high, "margin": margin,
                "pvalue_difference": diff.pvalue, "pvalue_equivalence": tost.pvalue}

    frame = _per_comparison(report, compute)
    frame["pvalue_difference_holm"] = _holm_by_task(frame, "pvalue_difference")
    frame["pvalue_equivalence_holm"] = _holm_by_task(frame, "pvalue_equivalence")
    frame["verdict"] = verdict_from_pvalues(frame["pvalue_difference_holm"].to_numpy(),
                                            frame["pvalue_equivalence_holm"].to_numpy(), alpha=alpha).astype(object)
    frame["note"] = ""
    return frame


def _mid_size_table() -> pd.DataFrame:
    """9 models, 5 tasks of 3 to 12 seeds, failed runs, and one task scored in the millions."""
    gen = np.random.default_rng(23)
    rows = []
    for t, n_seeds in enumerate([8, 12, 3, 8, 6]):
        for m in range(9):
            for s in range(n_seeds):
                score = 0.7 + 0.004 * m + 0.01 * gen.standard_normal() + (0.003 * s if t == 1 else 0.0)
                rows.append((f"task {t}", f"model {m}", 10 * s + t, score * (1e6 if t == 3 else 1.0)))
    table = pd.DataFrame(rows, columns=["task", "model", "seed", "score"])
    failed = gen.choice(len(table), size=12, replace=False)
    table.loc[failed[table.task.iloc[failed].to_numpy() != "task 2"], "score"] = np.nan
    return table.drop(index=[5, 40])  # and two missing runs


@pytest.mark.parametrize("alpha, target_power, margin", [(0.05, 0.80, 0.01), (0.10, 0.90, 0.004), (0.01, 0.5, 0.02)])
def test_vectorised_views_equal_the_per_comparison_functions(alpha, target_power, margin):
    """Every view equals, bit for bit, the loop of per-comparison library calls it replaced."""
    report = Report(_mid_size_table(), failed="drop-pairs")
    assert len(report.failed_runs) > 5 and report.pairwise().n_pairs.nunique() > 4
    deltas = (0.01, 0.003, 2e4)
    pd.testing.assert_frame_equal(report.pairwise(alpha=alpha), _old_pairwise(report, alpha), check_exact=True)
    pd.testing.assert_frame_equal(report.power(alpha=alpha, target_power=target_power, deltas=deltas),
                                  _old_power(report, alpha, target_power, deltas), check_exact=True)
    pd.testing.assert_frame_equal(report.equivalence(margin, alpha=alpha), _old_equivalence(report, margin, alpha),
                                  check_exact=True)


def test_vectorised_summary_equals_the_sentences_of_the_per_comparison_views():
    report = Report(_mid_size_table(), failed="drop-pairs")
    alpha, target_power, margin = 0.05, 0.8, 0.01
    pw, pwr = _old_pairwise(report, alpha), _old_power(report, alpha, target_power, ())
    counts = _old_equivalence(report, margin, alpha).verdict.value_counts()
    text = report.summary(margin=margin, alpha=alpha, target_power=target_power)
    assert f"comparisons use {pw.n_pairs.min()} to {pw.n_pairs.max()} pairs" in text
    assert f"{pw.reject.sum()} of {len(pw)} comparison(s) differ" in text
    assert (f"range from {pwr.mde.min():.3g} to {pwr.mde.max():.3g}; {(~pwr.detectable).sum()} of {len(pwr)} "
            "observed") in text
    verdicts = ", ".join(f"{counts.get(v, 0)} {v}" for v in ("different", "equivalent", "trivial", "undetermined"))
    assert f"Against a margin of {margin:g}: {verdicts}." in text


@pytest.mark.parametrize("family", ["task", "all"])
@pytest.mark.parametrize("correction", ["none", "holm", "bonferroni"])
def test_summary_follows_the_family_and_the_correction_of_the_views(family, correction):
    """Each sentence of the summary is its view's at the same Holm family and power correction."""
    report = Report(_mid_size_table(), failed="drop-pairs")
    margin = 0.03
    pw = report.pairwise(family=family)
    # A delta far above the spread: its seed count is 2 at once (the summary prints no seed counts).
    pwr = report.power(family=family, correction=correction, deltas=(1e6,))
    counts = report.equivalence(margin, family=family).verdict.value_counts()
    holm = {"task": "Holm within each task", "all": "Holm over all comparisons"}[family]
    level = {"none": "", "holm": " (at the level of each Holm decision)",
             "bonferroni": " (at the Bonferroni level)"}[correction]
    verdicts = ", ".join(f"{counts.get(v, 0)} {v}" for v in ("different", "equivalent", "trivial", "undetermined"))
    text = report.summary(margin=margin, family=family, correction=correction)
    assert f"{pw.reject.sum()} of {len(pw)} comparison(s) differ at alpha = 0.05 (paired t, {holm})." in text
    assert (f"Minimum detectable effects at 80% power{level} range from {pwr.mde.min():.3g} to {pwr.mde.max():.3g}; "
            f"{(~pwr.detectable).sum()} of {len(pwr)} observed difference(s) are smaller than their own MDE.") in text
    assert f"Against a margin of 0.03: {verdicts}." in text
    # The case is chosen so that the other family, or no correction, would print other numbers.
    other = "all" if family == "task" else "task"
    assert report.pairwise(family=other).reject.sum() != pw.reject.sum()
    assert report.equivalence(margin, family=other).verdict.value_counts().to_dict() != counts.to_dict()
    assert correction == "none" or report.power(family=family, deltas=(1e6,)).mde.max() != pwr.mde.max()
    assert correction == "none" or (
        report.power(family=other, correction=correction, deltas=(1e6,)).mde.max() != pwr.mde.max())


def test_summary_counts_a_holm_pvalue_exactly_at_alpha_as_a_difference(hand):
    alpha = float(hand.pairwise().pvalue_holm.sort_values().iloc[1])  # a level that one adjusted p-value meets exactly
    pw = hand.pairwise(alpha=alpha)
    assert (pw.pvalue_holm == alpha).sum() == 1
    assert f"{pw.reject.sum()} of 6 comparison(s) differ at alpha = {alpha:g}" in hand.summary(alpha=alpha)


def test_vectorised_views_mark_each_failing_comparison_and_keep_the_others():
    """A short pair and a zero-spread pair each mark their own row; every other row is the per-comparison loop's."""
    table = long_table({"t": {"A": [1.0, 2.0, 3.0, 4.0], "B": [0.5, 1.5, 2.5, 3.5], "C": [1.0, np.nan, np.nan, np.nan]},
                        "u": {"A": [1.0, 2.0, 3.0, 4.0], "B": [0.5, 1.5, 2.5, 3.6], "C": [1.0, 0.0, 2.0, 2.0]}})
    report = Report(table, failed="drop-pairs")
    for view in (report.pairwise(), report.power(), report.equivalence(0.1)):
        assert "zero spread" in view.note[0] and "1 seed(s) on which both ran" in view.note[1]
        assert "1 seed(s) on which both ran" in view.note[2] and (view.note[3:] == "").all()
    pw = report.pairwise()
    good = Report(table[table.task == "u"])
    pd.testing.assert_frame_equal(pw[pw.task == "u"].reset_index(drop=True), good.pairwise(), check_exact=True)
    pwr = report.power()
    pd.testing.assert_frame_equal(pwr[pwr.task == "u"].reset_index(drop=True), good.power(), check_exact=True)
    assert "3 comparison(s) could not be tested" in report.summary(0.1)


# --------------------------------------------------------------------------- suites, pools and clusters


def test_suites_name_groups_of_tasks_and_a_task_name_still_runs_one_task():
    assert not set(SUITES) & set(TASKS) and SUITES["shapes"] == tuple(TASKS)
    assert all(set(members) <= set(TASKS) for members in SUITES.values())
    args = dict(models=["matcher A", "matcher B"], seeds=range(2), n_test=50, n_train=10)
    assert run_benchmark("shapes", **args).tasks == tuple(TASKS)
    assert run_benchmark("noisy", **args).tasks == ("noisy",)
    # A list mixes suites and tasks; a task already brought in runs once.
    assert run_benchmark(["noise", "blurred", "blur"], **args).tasks == (
        "clean", "standard", "noisy", "blurred", "very blurred")
    one = run_benchmark("blur", **args).runs
    pd.testing.assert_frame_equal(one, run_benchmark(list(SUITES["blur"]), **args).runs)


def test_the_guides_putting_it_together_block_with_a_suite_name():
    """The source guide's block, with the suite "shapes" for its catalogue "social", otherwise as written.

    MODELS is the guide's own dictionary of models; here the course's two template matchers.
    """
    MODELS = {name: COURSE_MODELS[name] for name in ("matcher A", "matcher B")}  # noqa: N806

    report = run_benchmark("shapes", MODELS, seeds=range(10))

    pw   = report.pairwise()                  # is there a difference?  # noqa: E221
    pwr  = report.power()                     # could we have seen one?  # noqa: E221
    eq   = report.equivalence(margin=0.01)    # can we claim there isn't?  # noqa: E221
    f    = report.friedman()                  # what would it take across tasks?  # noqa: E221

    assert len(pw) == len(pwr) == len(eq) == 6 and f.n_tasks == 6 and report.seeds["standard"] == tuple(range(10))
    assert f.mean_ranks.idxmin() == "matcher A" and eq.verdict.isin(["different", "equivalent", "trivial", "undetermined"]).all()


def test_built_in_tasks_and_factories_pickle():
    import pickle

    for item in (*TASKS.values(), *MODELS.values()):
        copy = pickle.loads(pickle.dumps(item))
        assert type(copy) is type(item) and repr(copy) == repr(item)


def _small_grid():
    return (["standard", "noisy"], MODELS, range(3)), dict(n_test=150, n_train=200)


def test_run_benchmark_on_a_process_pool_equals_the_serial_run_bit_for_bit():
    from concurrent.futures import ProcessPoolExecutor

    args, kwargs = _small_grid()
    serial = run_benchmark(*args, **kwargs)
    with ProcessPoolExecutor(2) as pool:
        pooled = run_benchmark(*args, executor=pool, **kwargs)
    pd.testing.assert_frame_equal(serial.runs, pooled.runs, check_exact=True)
    assert serial.runs.model.nunique() == 4


# Under mutation testing (tools/mutation.py) a mutated function that runs in dask's worker processes makes this
# test hang, not fail: mutmut counted such mutants as timeouts, i.e. killed, although no test had caught them.
@pytest.mark.skipif("MUTANT_UNDER_TEST" in os.environ, reason="dask's workers hang under mutmut's trampoline")
def test_run_benchmark_on_a_local_dask_cluster_equals_the_serial_run_bit_for_bit():
    """The three lines of the README: a cluster, its client, and the client's executor."""
    distributed = pytest.importorskip("distributed")
    args, kwargs = _small_grid()
    serial = run_benchmark(*args, **kwargs)
    with (distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                   dashboard_address="127.0.0.1:0") as cluster,
          distributed.Client(cluster) as client):
        on_dask = run_benchmark(*args, executor=client.get_executor(), **kwargs)
        assert len(client.scheduler_info()["workers"]) == 2
    pd.testing.assert_frame_equal(serial.runs, on_dask.runs, check_exact=True)


def test_a_worker_error_reaches_the_caller():
    class Broken:
        def submit(self, fn, *args):
            from concurrent.futures import Future

            future = Future()
            future.set_exception(RuntimeError("worker lost"))
            return future

    with pytest.raises(RuntimeError, match="worker lost"):
        run_benchmark("standard", ["matcher A", "matcher B"], range(2), n_test=50, n_train=10, executor=Broken())


# --------------------------------------------------------------------------- issue 24: values that were silently wrong


def _runs_of_two(seeds, scores):
    return pd.DataFrame({"task": ["t"] * 6, "model": ["a"] * 3 + ["b"] * 3, "seed": list(seeds) * 2, "score": scores})


def test_report_names_a_multiindex_header():
    """A two-row header used to give "which the table has 1 times"."""
    runs = _runs_of_two([0, 1, 2], [0.1, 0.2, 0.3, 0.2, 0.25, 0.5])
    runs.columns = pd.MultiIndex.from_tuples([(c, "x") for c in runs.columns])
    with pytest.raises(ValueError, match=r"`task` names column 'task', but the table has a header of 2 rows "
                                         r"\(a MultiIndex\), under which 'task' heads 1 column\(s\): \['x'\]"):
        Report(runs)
    report = Report(runs, task=("task", "x"), model=("model", "x"), seed=("seed", "x"), score=("score", "x"))
    assert report.models == ("a", "b")


def test_report_refuses_seeds_that_mix_booleans_and_numbers():
    """Seeds True and 1 used to be merged into one seed (and reported as duplicated rows)."""
    runs = _runs_of_two([True, 1, 2], [0.1, 0.2, 0.3, 0.2, 0.25, 0.5])
    with pytest.raises(TypeError, match=r"The seed column mixes booleans and numbers \(row 0 holds True, row 1 "
                                        r"holds 1\).*merged into one seed"):
        Report(runs)
    assert len(Report(_runs_of_two([0, 1, 2], runs["score"])).seeds["t"]) == 3


def test_report_refuses_integer_scores_float64_would_round():
    """Scores near 2**62 used to be refused as "zero spread" after rounding to one float."""
    big = 2**62
    runs = _runs_of_two([0, 1, 2], [big, big + 1, big + 5, big + 2, big + 2, big + 2])
    with pytest.raises(ValueError, match=r"cannot represent exactly \(beyond 2\*\*53\): 4611686018427387905 would "
                                         r"become 4611686018427387904.*\(task 't', model 'a', seed 1\)"):
        Report(runs)
    shifted = runs.assign(score=runs.score - big)
    assert Report(shifted).pairwise().mean_diff.iloc[0] == pytest.approx((0 + 1 + 5 - 6) / 3)


def test_power_seed_counts_are_nullable_integers_missing_where_a_comparison_is_not_tested():
    table = long_table({"t": {"A": [1.0, 2.0, 3.0, 4.0], "B": [0.5, 1.7, 2.4, 3.6], "C": [1.0, np.nan, np.nan, np.nan]}})
    power = Report(table, failed="drop-pairs").power(deltas=(0.5,))
    column = power["seeds_for_0.5"]
    assert str(column.dtype) == "Int64"
    assert column.isna().tolist() == [False, True, True] and (power.note != "").tolist() == [False, True, True]
    d = np.subtract([1.0, 2.0, 3.0, 4.0], [0.5, 1.7, 2.4, 3.6])
    assert column[0] == seeds_needed(d.std(ddof=1), 0.5)


@pytest.mark.parametrize("role", ["model", "task", "seed"])
def test_labels_that_print_alike_are_refused(role):
    runs = pd.DataFrame({"task": ["t"] * 4, "model": ["a", "b"] * 2, "seed": [0, 0, 1, 1], "score": [0.1, 0.2, 0.3, 0.5]})
    runs[role] = runs[role].astype(object)
    runs.loc[0, role] = 1
    runs.loc[1 if role != "model" else 2, role] = "1"
    with pytest.raises(ValueError, match=rf"^The {role} column names the {role} '1' as 1 and '1'"):
        Report(runs)


def test_a_report_too_large_for_memory_is_refused_before_it_starts():
    # 10^4 models: 5 x 10^7 comparisons in one task (it used to end in a MemoryError).
    k = 10_000
    runs = pd.DataFrame({"task": "t", "model": np.repeat([f"m{i}" for i in range(k)], 3), "seed": np.tile([0, 1, 2], k),
                         "score": np.random.default_rng(0).random(3 * k)})
    with pytest.raises(ValueError) as caught:
        Report(runs).pairwise()
    assert str(caught.value) == (
        "`table` = 10,000 models on 1 task(s) would need 28.9 GiB of memory for every comparison of the report "
        "(49,995,000 pairs of models); the limit is 4.0 GiB. Compare fewer models at a time (for example the leading "
        "ones, or one family of models), or fewer tasks.")


@pytest.mark.parametrize("n_seeds", [5, 20])
def test_the_memory_check_of_the_views_counts_what_they_allocate(n_seeds):
    import tracemalloc

    from sigeval._runs_table import COMPARISON_BYTES, SEED_BYTES

    k, n_tasks = 60, 2
    rng = np.random.default_rng(0)
    runs = pd.DataFrame([(t, f"m{m}", s, rng.random()) for t in range(n_tasks) for m in range(k)
                         for s in range(n_seeds)], columns=["task", "model", "seed", "score"])
    counted = n_tasks * k * (k - 1) // 2 * (COMPARISON_BYTES + SEED_BYTES * n_seeds)
    peaks = []
    for view in ("pairwise", "power", "equivalence"):
        report = Report(runs)
        tracemalloc.start()
        getattr(report, view)(**({"margin": 0.01} if view == "equivalence" else {}))
        peaks.append(tracemalloc.get_traced_memory()[1])
        tracemalloc.stop()
    assert counted / 1.5 <= max(peaks) <= 1.5 * counted, peaks


# --------------------------------------------------------------------------- the user's units and order (issue 42)


def test_a_reference_goes_last_so_differences_read_candidate_minus_reference(hand):
    plain = hand.pairwise()
    based = Report(hand.runs, reference=hand.models[0])
    assert based.models == (*hand.models[1:], hand.models[0]) and based.reference == hand.models[0]
    assert "the reference, A, is B" in based.to_markdown()
    against = based.pairwise()
    against = against[against.model_b == hand.models[0]]
    assert len(against) == len(plain[plain.model_a == hand.models[0]]) > 0
    for row in against.itertuples(index=False):
        original = plain[(plain.task == row.task) & (plain.model_a == row.model_b) & (plain.model_b == row.model_a)]
        assert row.mean_diff == -original.mean_diff.iloc[0]
        assert row.pvalue == original.pvalue.iloc[0]
        assert (row.ci_low, row.ci_high) == pytest.approx((-original.ci_high.iloc[0], -original.ci_low.iloc[0]),
                                                          rel=1e-12)


def test_an_explicit_order_of_the_models_is_kept_and_checked(hand):
    order = list(reversed(hand.models))
    report = Report(hand.runs, models=order)
    assert report.models == tuple(order)
    assert report.describe().equals(hand.describe()) is False  # rows follow the new order
    assert sorted(report.friedman().mean_ranks.items()) == sorted(hand.friedman().mean_ranks.items())
    with pytest.raises(ValueError, match=r"^`models` must list every model of the table once"):
        Report(hand.runs, models=order[:-1])
    with pytest.raises(ValueError, match=r"^`models` must list every model of the table once"):
        Report(hand.runs, models=[*order, order[0]])
    with pytest.raises(TypeError, match=r"^`models` must be a sequence"):
        Report(hand.runs, models="ABC")
    with pytest.raises(ValueError, match=r"^`reference` must be one of the table's models"):
        Report(hand.runs, reference="nobody")


def test_points_scale_every_view_and_the_outputs_say_so(hand):
    points = Report(hand.runs, units="points")
    np.testing.assert_allclose(points.pairwise().mean_diff, 100 * hand.pairwise().mean_diff, rtol=1e-12)
    np.testing.assert_allclose(points.pairwise().pvalue, hand.pairwise().pvalue, rtol=1e-9)
    # The default deltas are one point and half a point: the same seeds as 0.01 and 0.005 unscaled.
    view = points.power()
    assert [c for c in view.columns if c.startswith("seeds_for_")] == ["seeds_for_1", "seeds_for_0.5"]
    assert view["seeds_for_1"].tolist() == hand.power()["seeds_for_0.01"].tolist()
    verdicts = points.equivalence(margin=1.0).verdict.tolist()
    assert verdicts == hand.equivalence(margin=0.01).verdict.tolist()
    text = points.to_markdown(margin=1.0)
    assert "| metric | score, in points (x 100), higher is better |" in text and "| margin | 1, in points |" in text
    with pytest.raises(ValueError, match=r"^`units` must be one of 'score', 'points'"):
        Report(hand.runs, units="percent")


def test_power_with_holm_refuses_the_rows_pairwise_cannot_test_with_its_reason():
    # Scores near the limit, alpha at its floor: the t interval of two pairs overflows although the scores do not.
    table = pd.DataFrame([("t", "A", 0, 9e299), ("t", "A", 1, -9e299), ("t", "B", 0, 0.0), ("t", "B", 1, 0.0),
                          ("t", "C", 0, 1.0), ("t", "C", 1, 2.0)], columns=["task", "model", "seed", "score"])
    report = Report(table)
    pairwise = report.pairwise(alpha=1e-12)
    power = report.power(alpha=1e-12, correction="holm")
    assert (pairwise.note.str.contains("overflows float64") == [True, True, False]).all()
    assert power.note.tolist() == pairwise.note.tolist()
    assert power.mde.isna().tolist() == [True, True, False]
    # A comparison with one pair: the same reason in both views, whatever the correction.
    rows = [(t, m, s, v) for s in range(4) for t, m, v in
            (("t", "A", 0.8 + 0.01 * s), ("t", "B", 0.78 if s == 0 else np.nan), ("t", "C", 0.7 + 0.003 * s * s))]
    report = Report(pd.DataFrame(rows, columns=["task", "model", "seed", "score"]), failed="drop-pairs")
    notes = report.pairwise().note.tolist()
    assert notes[0].startswith("not tested: 1 seed(s) on which both ran")
    for correction in ("none", "holm", "bonferroni"):
        assert report.power(correction=correction).note.tolist() == notes, correction
    bayesian = report.bayesian(0.01)
    assert bayesian.note.tolist() == notes and bayesian.mean_diff.dtype == np.float64


def test_a_comparison_refused_by_the_seeds_search_has_no_power_or_mde():
    rows = [("t", m, s, v) for s in range(4) for m, v in (("A", 0.8 + 0.01 * s), ("C", 0.7 + 0.003 * s * s))]
    power = Report(pd.DataFrame(rows, columns=["task", "model", "seed", "score"])).power(deltas=(1e-30, 0.01))
    row = power.iloc[0]
    assert row.note.startswith("not tested: `delta` = 1e-30 is too small against `sigma_d`")
    assert np.isnan(row.observed_power) and np.isnan(row.mde) and not row.detectable


def _runs_with_scores(scores):
    rows = [{"task": "t", "model": m, "seed": s, "score": 0.5 + 0.01 * s} for m in "AB" for s in range(12)]
    table = pd.DataFrame(rows)
    table["score"] = table["score"].astype(object)
    for i, value in scores.items():
        table.loc[i, "score"] = value
    return table


@pytest.mark.parametrize("n", [10, 11])
def test_failed_runs_message_lists_ten_and_counts_the_rest(n):
    with pytest.raises(ValueError) as caught:
        Report(_runs_with_scores(dict.fromkeys(range(n), np.nan)))
    runs = "; ".join(f"(task 't', model 'A', seed {s}): score is NaN" for s in range(10))
    assert str(caught.value) == (
        f"{n} failed or broken run(s): {runs}{'; ... (11 in all)' if n == 11 else ''}. Failed runs are never "
        "dropped silently: repair them, or pass failed='drop-pairs' to leave out the pairs they belong to "
        "(listed in `failed_runs`).")


@pytest.mark.parametrize("n", [5, 6])
def test_score_errors_list_five_rows_and_count_the_rest(n):
    with pytest.raises(TypeError) as caught:
        Report(_runs_with_scores(dict.fromkeys(range(n), "x")))
    rows = "; ".join(f"(task 't', model 'A', seed {s})" for s in range(5))
    assert str(caught.value) == (f"The score column must hold numbers; {n} row(s) do not, the first 'x': {rows}"
                                 f"{'; ... (6 rows)' if n == 6 else ''}.")


def test_a_comparison_left_with_two_pairs_is_still_computed():
    # B's third run failed: with failed='drop-pairs' A - B rests on seeds 0 and 1, the fewest a paired t allows.
    rows = [{"task": "t", "model": m, "seed": s, "score": v}
            for m, values in {"A": [0.71, 0.74, 0.70], "B": [0.69, 0.70, np.nan]}.items() for s, v in enumerate(values)]
    row = Report(pd.DataFrame(rows), failed="drop-pairs").pairwise().iloc[0]
    ref = stats.ttest_rel([0.71, 0.74], [0.69, 0.70])
    assert row.n_pairs == 2
    assert (row.mean_diff, row.pvalue) == pytest.approx((0.03, ref.pvalue), abs=1e-12)


def test_the_largest_unsigned_score_is_refused_without_a_warning():
    # 2**64 - 1 rounds to 2**64 in float64, which does not cast back to uint64 (numpy's "invalid"): refused, quietly.
    rows = [{"task": "t", "model": m, "seed": s, "score": s} for m in "AB" for s in range(3)]
    table = pd.DataFrame(rows).astype({"score": np.uint64})
    table.loc[0, "score"] = np.uint64(2**64 - 1)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(ValueError, match=r"^The score column holds whole numbers that float64 cannot represent "
                                             r"exactly \(beyond 2\*\*53\): 18446744073709551615 would become "
                                             r"18446744073709551616, and differences"):
            Report(table)


def test_the_seeds_both_ran_are_kept_in_seed_order():
    # B failed on seeds 3, 17 and 31. The 37 differences left are summed in seed order, as paired_difference sums
    # them, bit for bit on every machine: an unstable sort of the seeds kept would reorder them, and with scores
    # this far apart in size change the last bits of the mean and the interval.
    a = 10 ** np.random.default_rng(1).uniform(-3, 3, 40)
    b = np.zeros(40)
    b[[3, 17, 31]] = np.nan
    rows = [{"task": "t", "model": m, "seed": s, "score": v}
            for m, values in {"A": a, "B": b}.items() for s, v in enumerate(values)]
    row = Report(pd.DataFrame(rows), failed="drop-pairs").pairwise().iloc[0]
    ref = paired_difference(np.delete(a, [3, 17, 31]), np.zeros(37))
    assert row.n_pairs == 37
    assert (row.mean_diff, row.ci_low, row.ci_high, row.pvalue) == (ref.estimate, *ref.confidence_interval,
                                                                      ref.pvalue)


def test_a_report_without_a_reference_names_none():
    assert Report(long_table(HAND)).reference is None


def test_a_flag_that_is_not_a_bool_is_refused_naming_it():
    with pytest.raises(TypeError) as caught:
        Report(long_table(HAND), higher_is_better="yes")
    assert str(caught.value) == "`higher_is_better` must be True or False; got 'yes'."


def test_scores_held_as_text_are_read_as_the_numbers():
    # A CSV read with dtype=str, or pandas' string dtype: the numbers they spell, as from floats.
    table = long_table(HAND)
    as_text = table.assign(score=table.score.astype(str).astype("string"))
    pd.testing.assert_frame_equal(Report(as_text).pairwise(), Report(table).pairwise())


def test_failed_runs_give_the_error_column_as_their_reason():
    # Seed 3 of A on t1 failed with a message, seed 0 of B on t2 without one; a run that kept its score keeps its
    # message out of the failed runs.
    table = long_table(HAND)
    error = pd.Series([None] * len(table), dtype=object)
    error[[3, 7]] = ["out of memory", "slow node"]
    table = table.assign(score=table.score.where(~table.index.isin([3, 20]), np.nan), error=error)
    failed = Report(table, failed="drop-pairs").failed_runs
    expected = pd.DataFrame({"task": ["t1", "t2"], "model": ["A", "B"], "seed": [3, 0],
                             "reason": ["failed: out of memory", "score is NaN"]})
    pd.testing.assert_frame_equal(failed, expected, check_dtype=False)


def test_a_score_column_named_error_is_read_as_the_scores_only():
    runs = Report(long_table(HAND).rename(columns={"score": "error"}), score="error").runs
    assert list(runs.columns) == ["task", "model", "seed", "score"]


def test_a_tasks_seeds_keep_their_order_of_first_appearance():
    # Rows seed by seed, the two tasks interleaved: each task's 40 seeds are kept in the order they came (a stable
    # sort of the (task, seed) pairs by task), descending here, not sorted.
    seeds = list(range(39, -1, -1))
    rows = [{"task": t, "model": m, "seed": s, "score": 0.5 + 0.001 * s + 0.01 * (m == "A")}
            for s in seeds for t in ("t1", "t2") for m in "AB"]
    report = Report(pd.DataFrame(rows))
    assert report.seeds == {"t1": tuple(seeds), "t2": tuple(seeds)}


def test_whole_number_scores_are_held_as_floats():
    # Scores counted in whole numbers (correct answers, say) are read as float64, as every other score.
    table = long_table(HAND).assign(score=lambda t: (t.score * 100).round().astype(np.int64))
    runs = Report(table).runs
    assert runs.score.dtype == np.float64
    np.testing.assert_array_equal(runs.score.to_numpy(), table.score.to_numpy(dtype=float))

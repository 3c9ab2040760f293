"""The regression gate: decisions and exit statuses on constructed cases, the numbers against scipy, the
state of a confidence sequence, the tables, and the repeated-use simulation (issue 39)."""

from __future__ import annotations

import json
import math
import warnings

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from sigeval import (
    EXIT_STATUS,
    GATE_DECISIONS,
    GateResult,
    GateState,
    confidence_sequence,
    gate,
    gate_table,
    paired_difference,
)
from sigeval.gating import _mixture_critical, _sequence_needed

#: A standardised pattern (mean 0, sample sd 1): differences mean + sd * Z have exactly that mean and sd.
Z = np.array([-1.5, -0.5, 0.0, 0.25, 1.75])
Z = (Z - Z.mean()) / Z.std(ddof=1)
BASE = np.array([0.80, 0.82, 0.79, 0.81, 0.83])


def scores(mean: float, sd: float = 0.01) -> tuple[np.ndarray, np.ndarray]:
    """Candidate and baseline scores whose differences A - B have this mean and sd."""
    return BASE + mean + sd * Z, BASE.copy()


# --------------------------------------------------------------------------- decisions on constructed cases
# n = 5, sd 0.01, margin 0.01, alpha 0.05: the 90% interval is the mean +- 0.00953.

CASES = [
    # mean, fail_on, decision, better
    (+0.002, "margin", "pass", False),
    (+0.012, "margin", "pass", True),
    (-0.004, "margin", "undetermined", False),
    (-0.025, "margin", "fail", False),
    (-0.012, "margin", "undetermined", False),
    (-0.012, "zero", "fail", False),
    (-0.004, "zero", "undetermined", False),
]


@pytest.mark.parametrize("mean, fail_on, decision, better", CASES)
def test_decisions_and_exit_statuses(mean, fail_on, decision, better):
    a, b = scores(mean)
    res = gate(a, b, margin=0.01, fail_on=fail_on)
    assert (res.decision, res.better) == (decision, better)
    assert res.exit_status == EXIT_STATUS[decision] == {"pass": 0, "fail": 1, "undetermined": 2}[decision]
    assert res.estimate == pytest.approx(mean, abs=1e-15)


@pytest.mark.parametrize("mean, fail_on, decision, better", CASES)
def test_lower_is_better_mirrors(mean, fail_on, decision, better):
    # A loss: the candidate's is lower by `mean` where the accuracy above was higher.
    a, b = scores(mean)
    res = gate(-a, -b, margin=0.01, fail_on=fail_on, higher_is_better=False)
    up = gate(a, b, margin=0.01, fail_on=fail_on)
    assert (res.decision, res.better) == (decision, better)
    assert res.estimate == pytest.approx(-mean, abs=1e-15)
    assert res.confidence_interval.low == pytest.approx(-up.confidence_interval.high, abs=1e-15)
    assert res.confidence_interval.high == pytest.approx(-up.confidence_interval.low, abs=1e-15)
    assert res.pvalue == pytest.approx(up.pvalue, rel=1e-12)


def test_a_fail_overrides_a_pass():
    # Within the margin yet shown below zero: fail_on="zero" fails what fail_on="margin" passes.
    a, b = scores(-0.005, sd=0.002)
    assert gate(a, b, margin=0.01).decision == "pass"
    assert gate(a, b, margin=0.01, fail_on="zero").decision == "fail"


def test_no_significant_difference_is_not_a_pass():
    # The two-sided paired t-test finds nothing, and the gate does not pass: the interval reaches past the margin.
    a, b = scores(0.0, sd=0.03)
    assert stats.ttest_rel(a, b).pvalue > 0.5
    res = gate(a, b, margin=0.01)
    assert res.decision == "undetermined" and res.n_more > 0
    assert "no significant difference is not a pass" in res.note


# --------------------------------------------------------------------------- the numbers, against scipy


@pytest.mark.parametrize("higher_is_better", [True, False])
@pytest.mark.parametrize("fail_on", ["margin", "zero"])
def test_pvalues_and_interval_match_scipy(higher_is_better, fail_on):
    rng = np.random.default_rng(3)
    a, b = rng.normal(0.8, 0.02, 9), rng.normal(0.8, 0.02, 9)
    res = gate(a, b, margin=0.015, alpha=0.1, higher_is_better=higher_is_better, fail_on=fail_on)
    up = (a - b) if higher_is_better else (b - a)
    worse_at = -0.015 if fail_on == "margin" else 0.0
    assert res.pvalue == pytest.approx(stats.ttest_1samp(up, -0.015, alternative="greater").pvalue, rel=1e-12)
    assert res.pvalue_worse == pytest.approx(stats.ttest_1samp(up, worse_at, alternative="less").pvalue, rel=1e-12)
    better = stats.ttest_1samp(up, 0.0, alternative="greater").pvalue <= 0.1
    assert res.better == better
    ci = stats.ttest_1samp(a - b, 0.0).confidence_interval(confidence_level=0.8)
    assert res.confidence_interval.low == pytest.approx(ci.low, rel=1e-12)
    assert res.confidence_interval.high == pytest.approx(ci.high, rel=1e-12)
    assert res.confidence_level == pytest.approx(0.8)
    assert res.sigma_d == pytest.approx(np.std(a - b, ddof=1), rel=1e-12)


def _settles(effect: float, n: int, t_crit: float) -> float:
    """P(|T| > t_crit), T noncentral t(n - 1, effect sqrt(n)): scipy directly."""
    nc = effect * math.sqrt(n)
    return stats.nct.sf(t_crit, n - 1, nc) + stats.nct.cdf(-t_crit, n - 1, nc)


def _brute_needed(effect: float, critical, target: float = 0.8) -> int:
    return next(n for n in range(2, 100_000) if _settles(effect, n, critical(n)) >= target)


@pytest.mark.parametrize("mean, fail_on", [(-0.004, "margin"), (-0.001, "margin"), (-0.004, "zero"), (-0.016, "margin"),
                                           (-0.008, "zero")])
def test_pairs_needed_fixed_by_brute_force(mean, fail_on):
    a, b = scores(mean)
    res = gate(a, b, margin=0.01, fail_on=fail_on)
    boundaries = [-0.01] + ([0.0] if fail_on == "zero" else [])
    expected = min(_brute_needed(abs(mean - x) / 0.01, lambda n: stats.t.isf(0.05, n - 1)) for x in boundaries)
    assert res.decision == "undetermined"
    assert res.n_needed == expected and res.n_more == expected - 5
    assert f"{expected - 5} more" in res.note


def _mixture_c(n: int, alpha: float, prior_precision: float = 1.0) -> float:
    """The t-mixture's half-width in standard errors from its martingale (Wang & Ramdas 2023): at the limit
    mu = mean + h, the mixture sqrt(c2/(n+c2)) (V/(V - S^2/(n+c2)))^(n/2) of the centred data equals 1/alpha."""
    c2, q = prior_precision, n - 1.0  # sd 1: q = (n - 1) s^2

    def log_martingale(h):
        s, v = -n * h, q + n * h * h
        return 0.5 * math.log(c2 / (n + c2)) - 0.5 * n * math.log1p(-s * s / (n + c2) / v) - math.log(1 / alpha)

    if log_martingale(1e6) < 0:
        return math.inf
    return optimize.brentq(log_martingale, 1e-9, 1e6, xtol=1e-14, rtol=1e-14) * math.sqrt(n)


def test_mixture_critical_values_from_the_martingale():
    table = _mixture_critical(0.05, 400)
    assert table[0] == math.inf
    for n in (2, 3, 4, 5, 6, 10, 37, 400):
        assert table[n - 1] == pytest.approx(_mixture_c(n, 0.05), rel=1e-9)


@pytest.mark.parametrize("effect", [0.9, 0.35, 0.12])
def test_pairs_needed_by_a_sequence_by_brute_force(effect):
    expected = _brute_needed(effect, lambda n: _mixture_c(n, 0.05))
    assert _sequence_needed(effect, 0.05, 0.8) == expected


def test_sequence_interval_is_the_confidence_sequence():
    rng = np.random.default_rng(5)
    a, b = rng.normal(0.8, 0.01, 12), rng.normal(0.8, 0.01, 12)
    res = gate(a, b, margin=0.01, method="t-mixture")
    cs = confidence_sequence(a - b, confidence_level=0.95, method="t-mixture")
    assert (res.confidence_interval.low, res.confidence_interval.high) == (cs.low[-1], cs.high[-1])
    assert math.isnan(res.pvalue) and res.confidence_level == 0.95
    loss = gate(-a, -b, margin=0.01, method="t-mixture", higher_is_better=False)
    assert loss.confidence_interval.low == pytest.approx(-cs.high[-1]) and loss.decision == res.decision
    betting = gate(a, b, margin=0.01, method="betting", bounds=(0, 1))
    cs = confidence_sequence(a - b, bounds=(-1, 1), confidence_level=0.95, method="betting")
    assert (betting.confidence_interval.low, betting.confidence_interval.high) == (cs.low[-1], cs.high[-1])
    assert betting.n_needed is None and "no closed-form power" in betting.note


# --------------------------------------------------------------------------- failed runs


def test_failed_runs_are_counted_named_and_flagged():
    a, b = scores(0.002)
    a[[1, 3]] = np.nan
    b[4] = np.nan
    res = gate(a, b, margin=0.05)
    assert (res.n, res.n_pairs, res.n_failed_a, res.n_failed_b) == (2, 5, 2, 1)
    assert res.failed_a == (1, 3) and res.failed_b == (4,)
    assert res.flagged and "Flagged" in res.note and "flagged" in res.to_line()
    kept = [0, 2]
    assert res.estimate == pytest.approx(np.mean(a[kept] - b[kept]))
    assert not gate(b, a, margin=0.05).flagged  # the baseline failing more is no flag


def test_missing_labels_count_as_failures():
    a, b = scores(0.002)
    sa = pd.Series(a, index=[10, 11, 12, 13, 14])
    sb = pd.Series(np.r_[b, 0.8], index=[14, 13, 12, 11, 10, 15])  # another order, and seed 15 that A lacks
    res = gate(sa, sb, margin=0.05)
    assert (res.n, res.n_failed_a, res.n_failed_b, res.failed_a) == (5, 1, 0, (15,))
    assert res.flagged
    assert res.estimate == pytest.approx(np.mean(a - b[::-1]))


def test_too_few_pairs_is_an_error():
    with pytest.raises(ValueError, match=r"share 1 seed\(s\) on which both ran, of 3: the gate needs at least 2 \(A failed 2"):
        gate([np.nan, 0.8, np.nan], [0.8, 0.81, 0.82], margin=0.01)


@pytest.mark.parametrize(("candidate", "decision", "better"), [
    ([0.80, 0.81, 0.82], "pass", False),   # identical runs: a pipeline that did not change
    ([0.81, 0.82, 0.83], "pass", True),    # better by exactly 0.01 on every seed
    ([0.795, 0.805, 0.815], "pass", False),  # worse by 0.005, within the margin of 0.01
    ([0.78, 0.79, 0.80], "fail", False),   # worse by 0.02, beyond it
])
def test_a_deterministic_pipeline_is_decided_exactly(candidate, decision, better):
    """Differences without spread (the same on every seed) leave nothing to infer: the decision compares
    that difference with the boundaries; a test would refuse zero spread."""
    baseline = [0.80, 0.81, 0.82]
    res = gate(candidate, baseline, margin=0.01)
    assert (res.decision, res.better) == (decision, better)
    d = np.mean(np.subtract(candidate, baseline))
    assert res.estimate == pytest.approx(d) and tuple(res.confidence_interval) == pytest.approx((d, d))
    assert res.n_needed is None and "no spread between runs" in res.note
    with pytest.raises(ValueError, match="zero spread"):  # the paired t itself refuses such runs
        paired_difference(candidate, baseline)
    fail_on_zero = gate([0.795, 0.805, 0.815], baseline, margin=0.01, fail_on="zero")
    assert fail_on_zero.decision == "fail"


# --------------------------------------------------------------------------- the state


def test_state_accumulates_as_one_sequence():
    rng = np.random.default_rng(7)
    a, b = rng.normal(0.8, 0.01, 14), rng.normal(0.8, 0.01, 14)
    first = gate(a[:6], b[:6], margin=0.01, method="t-mixture")
    again = gate(a[:14], b[:14], margin=0.01, method="t-mixture", state=first.state)
    whole = gate(a, b, margin=0.01, method="t-mixture")
    assert again.confidence_interval == whole.confidence_interval and again.n == 14
    # Passing only the new pairs, labelled, gives the same.
    new = pd.Index(range(6, 14))
    labelled = gate(pd.Series(a, index=range(14)), pd.Series(b, index=range(14)), margin=0.01, method="t-mixture")
    first = gate(pd.Series(a[:6]), pd.Series(b[:6]), margin=0.01, method="t-mixture")
    only_new = gate(pd.Series(a[6:], index=new), pd.Series(b[6:], index=new), margin=0.01, method="t-mixture",
                    state=first.state)
    assert only_new.confidence_interval == labelled.confidence_interval == whole.confidence_interval


def test_state_round_trips_through_json():
    a = pd.Series([0.81, np.nan, 0.80, 0.83], index=pd.MultiIndex.from_tuples([("t", 1), ("t", 2), ("t", 3), ("u", 1)]))
    b = pd.Series([0.80, 0.82, 0.81, 0.80], index=a.index)
    state = gate(a, b, margin=0.02, method="betting", bounds=(0, 1)).state
    text = state.to_json()
    back = GateState.from_json(text)
    assert back.keys == (("t", 1), ("t", 2), ("t", 3), ("u", 1)) and back.bounds == (0.0, 1.0)
    assert np.isnan(back.scores_a[1]) and back.scores_b == state.scores_b
    assert json.loads(text)["scores_a"][1] is None
    with pytest.raises(ValueError, match="not a gate state"):
        GateState.from_json('{"margin": 1}')
    with pytest.raises(ValueError, match="not JSON"):
        GateState.from_json("{")


def test_state_refuses_a_changed_history_or_design():
    a, b = scores(0.002)
    state = gate(a, b, margin=0.02, method="t-mixture").state
    changed = a.copy()
    changed[2] += 0.001
    with pytest.raises(ValueError, match="differ from those the state saw"):
        gate(changed, b, margin=0.02, method="t-mixture", state=state)
    failed = a.copy()
    failed[1] = np.nan
    state_failed = gate(failed, b, margin=0.02, method="t-mixture").state
    with pytest.raises(ValueError, match="a rerun of a failed or changed run is a new pair"):
        gate(a, b, margin=0.02, method="t-mixture", state=state_failed)
    with pytest.raises(ValueError, match="`margin` = 0.01 differs from the state's 0.02"):
        gate(a, b, margin=0.01, method="t-mixture", state=state)
    with pytest.raises(ValueError, match="`method` = 'betting' differs"):
        gate(a, b, margin=0.02, method="betting", bounds=(0, 1), state=state)
    with pytest.raises(ValueError, match="the fixed-sample gate keeps no history"):
        gate(a, b, margin=0.02, state=state)
    with pytest.raises(TypeError, match="`state` must be a GateState"):
        gate(a, b, margin=0.02, method="t-mixture", state=state.to_json())


# --------------------------------------------------------------------------- looking again (issue 39, item 2)


def _wrong_pass_rate(method: str, n_replications: int, looks: range, rng: np.random.Generator) -> float:
    """A job that calls the gate after every new seed and stops at the first decision, when the candidate is worse
    by exactly the margin (the worst case for a wrong pass): the share of jobs that ever pass."""
    margin, passes = 0.01, 0
    for _ in range(n_replications):
        b = rng.normal(0.80, 0.01, looks.stop)
        a = b - margin + rng.normal(0.0, 0.01, looks.stop)
        state = None
        for n in looks:
            res = gate(a[:n], b[:n], margin=margin, method=method, state=state)
            state = res.state
            if res.decision != "undetermined":
                passes += res.decision == "pass"
                break
    return passes / n_replications


def test_looking_again_keeps_the_error_rate_only_with_a_state():
    # 250 jobs, each calling the gate at 3, 4, ..., 12 seeds. Monte Carlo standard error of a rate p:
    # sqrt(p (1 - p) / 250), 0.014 at p = 0.05. Measured: 0.148 (se 0.022) without a state, 0.008 (se 0.006)
    # with one.
    n_replications, looks, alpha = 250, range(3, 13), 0.05
    fixed = _wrong_pass_rate("fixed", n_replications, looks, np.random.default_rng(2026))
    sequence = _wrong_pass_rate("t-mixture", n_replications, looks, np.random.default_rng(2026))
    se_fixed = math.sqrt(fixed * (1 - fixed) / n_replications)
    assert fixed - 3 * se_fixed > alpha, (fixed, se_fixed)  # each look holds alpha; ten of them do not
    assert sequence <= alpha, sequence


# --------------------------------------------------------------------------- output


def test_line_markdown_and_json():
    a, b = scores(-0.004)
    res = gate(a, b, margin=0.01)
    line = res.to_line()
    assert line.startswith("undetermined: A - B = -0.004 (90% interval ") and line.endswith(
        f"about {res.n_more} more seeds to settle it")
    md = res.to_markdown()
    assert md.startswith("### sigeval gate: undetermined\n") and "| decision | **undetermined** (exit status 2) |" in md
    assert "| pass: the interval lies wholly | above -0.01 |" in md and res.note in md
    record = json.loads(json.dumps(res.to_dict(), allow_nan=False))
    assert record["decision"] == "undetermined" and record["exit_status"] == 2
    assert record["ci_low"] == res.confidence_interval.low and record["n_needed"] == res.n_needed
    seq = gate(a, b, margin=0.01, method="t-mixture")
    assert json.loads(json.dumps(seq.to_dict(), allow_nan=False))["pvalue"] is None
    loss = gate(-a, -b, margin=0.01, higher_is_better=False).to_markdown()
    assert "| pass: the interval lies wholly | below +0.01 |" in loss and "lower is better" in loss
    assert set(GATE_DECISIONS) == set(EXIT_STATUS)


# --------------------------------------------------------------------------- tables


def _runs() -> pd.DataFrame:
    a, b = scores(0.002)
    return pd.DataFrame({"task": "val", "model": ["new"] * 5 + ["main"] * 5, "seed": list(range(5)) * 2,
                         "score": np.r_[a, b]})


def test_gate_table_runs():
    runs = _runs()
    res = gate_table(runs, model_a="new", model_b="main", margin=0.01)
    direct = gate(*scores(0.002), margin=0.01)
    assert res.confidence_interval == direct.confidence_interval
    # A seed the baseline ran and the candidate did not is a failure of the candidate.
    res = gate_table(runs.drop(index=2), model_a="new", model_b="main", margin=0.05)
    assert (res.n, res.n_failed_a, res.failed_a, res.flagged) == (4, 1, (2,), True)
    # Several tasks: each seed's score is its mean over the tasks; a seed that failed on one task failed.
    other = runs.assign(task="test", score=runs["score"] + np.r_[np.full(5, 0.004), np.zeros(5)])
    two_tasks = pd.concat([runs, other])
    res = gate_table(two_tasks, model_a="new", model_b="main", margin=0.01)
    a, b = scores(0.002)
    assert res.confidence_interval == gate((a + a + 0.004) / 2, b, margin=0.01).confidence_interval
    res = gate_table(two_tasks.drop(index=two_tasks.index[(two_tasks.task == "test") & (two_tasks.seed == 3)][:1]),
                     model_a="new", model_b="main", margin=0.05)
    assert (res.n, res.failed_a, res.failed_b) == (4, (3,), ())
    with pytest.raises(ValueError, match=r"more than one row for \('val', 1\)"):
        gate_table(pd.concat([runs, runs.iloc[[1]]]), model_a="new", model_b="main", margin=0.01)
    with pytest.raises(ValueError, match="`model_a` = 'old' is not in the model column"):
        gate_table(runs, model_a="old", model_b="main", margin=0.01)


def test_gate_table_items_long_and_wide():
    rng = np.random.default_rng(11)
    correct_a, correct_b = rng.random(300) < 0.82, rng.random(300) < 0.80
    direct = gate(correct_a.astype(float), correct_b.astype(float), margin=0.03, paired_by="item")
    wide = pd.DataFrame({"item": [f"q{i}" for i in range(300)], "new": correct_a.astype(int),
                         "main": correct_b.astype(int)})
    res = gate_table(wide, model_a="new", model_b="main", margin=0.03, paired_by="item")
    assert res.confidence_interval == direct.confidence_interval and res.paired_by == "item"
    assert "more items" in res.to_line() or res.decision != "undetermined"
    labels = rng.integers(0, 3, 300)
    predictions = pd.DataFrame({"label": labels, "new": np.where(correct_a, labels, (labels + 1) % 3),
                                "main": np.where(correct_b, labels, (labels + 2) % 3)})
    res = gate_table(predictions, model_a="new", model_b="main", margin=0.03, paired_by="item", label="label")
    assert res.confidence_interval == direct.confidence_interval
    long = pd.DataFrame({"task": "qa", "model": ["new"] * 300 + ["main"] * 300, "item": list(wide["item"]) * 2,
                         "score": np.r_[correct_a, correct_b].astype(float)})
    res = gate_table(long.iloc[::-1], model_a="new", model_b="main", margin=0.03, paired_by="item")
    assert res.estimate == pytest.approx(direct.estimate) and res.n == 300
    with pytest.raises(ValueError, match="`label` is for a table of predictions"):
        gate_table(_runs(), model_a="new", model_b="main", margin=0.01, label="label")
    with pytest.raises(ValueError, match="needs the column"):
        gate_table(wide, model_a="new", model_b="old", margin=0.03, paired_by="item")


# --------------------------------------------------------------------------- every message, note and field in full

_A, _B = [0.8, 0.82, 0.81], [0.79, 0.8, 0.8]


@pytest.mark.parametrize("call, error, message", [
    (lambda: gate(_A, _B, margin=-1), ValueError, "`margin` must be positive; got -1.0."),
    (lambda: gate(_A, _B, margin=0.1, higher_is_better="yes"), TypeError,
     "`higher_is_better` must be True or False; got 'yes'."),
    (lambda: gate(_A, _B, margin=0.1, paired_by="run"), ValueError,
     "`paired_by` must be one of 'seed', 'item'; got 'run'."),
    (lambda: gate(_A, _B, margin=0.1, fail_on="never"), ValueError,
     "`fail_on` must be one of 'margin', 'zero'; got 'never'."),
    (lambda: gate(_A, _B, margin=0.1, method="bayes"), ValueError,
     "`method` must be one of 'fixed', 't-mixture', 'betting'; got 'bayes'."),
    (lambda: gate(_A, _B, margin=0.1, target_power=1.5), ValueError,
     "`target_power` must be strictly between 0 and 1; got 1.5."),
    (lambda: gate(_A, _B, margin=0.1, target_power=0.1), ValueError,
     "`target_power` must exceed 2 * alpha (the chance that a 1 - 2 alpha interval excludes a boundary at the true "
     "mean); got 0.1 with alpha=0.05."),
    (lambda: gate(_A, _B, margin=0.1, method="betting"), ValueError,
     "`bounds` must be given for method='betting': the limits of every score (for accuracies, (0, 1))."),
    (lambda: gate(_A, _B, margin=0.1, method="betting", bounds=(1, 1)), ValueError,
     "`bounds` must have low < high; got (1.0, 1.0)."),
    (lambda: gate(_A, _B, margin=0.1, method="betting", bounds="x"), TypeError,
     "`bounds` must hold real numbers; got text 'x'."),
    (lambda: gate([0.8, 1.2, 0.9], _B, margin=0.1, method="betting", bounds=(0, 1)), ValueError,
     "`scores_a` must lie within `bounds` (0.0, 1.0); got 1.2."),
    (lambda: gate(_A, [0.8, -0.2, 0.9], margin=0.1, method="t-mixture", bounds=(0, 1)), ValueError,
     "`scores_b` must lie within `bounds` (0.0, 1.0); got -0.2."),
    (lambda: gate(_A, _B, margin=0.1, method="t-mixture", state="s"), TypeError,
     "`state` must be a GateState (GateResult.state, or GateState.from_json); got str."),
    (lambda: gate([np.nan], [0.5], margin=0.1, method="t-mixture"), ValueError,
     "`scores_a` and `scores_b` share 0 seed(s) on which both ran, of 1: the gate needs at least 1 (A failed 1, B 0)."),
    (lambda: gate([0.5, np.nan], [0.5, 0.4], margin=0.1), ValueError,
     "`scores_a` and `scores_b` share 1 seed(s) on which both ran, of 2: the gate needs at least 2 (A failed 1, B 0)."),
    (lambda: gate([1e308, -1e308, 1e308], [-1e308, 1e308, 0], margin=0.1), ValueError,
     "The differences `scores_a - scores_b` overflow float64 (|difference| > 1.8e308); rescale the scores (e.g. "
     "divide both by the same power of ten) before comparing them."),
    (lambda: gate_table([1], model_a="a", model_b="b", margin=0.1), TypeError,
     "`table` must be a pandas DataFrame; got list."),
    (lambda: gate_table(pd.DataFrame(), model_a=["a"], model_b="b", margin=0.1), TypeError,
     "`model_a` must be a model's name (a label); got ['a']."),
    (lambda: gate_table(pd.DataFrame(), model_a="a", model_b=["b"], margin=0.1), TypeError,
     "`model_b` must be a model's name (a label); got ['b']."),
    (lambda: gate_table(pd.DataFrame(), model_a="a", model_b="b", margin=0.1, label=["l"]), TypeError,
     "`label` must be a model's name (a label); got ['l']."),
    (lambda: gate_table(pd.DataFrame(), model_a="a", model_b="a", margin=0.1), ValueError,
     "`model_a` and `model_b` must be two models; got 'a' twice."),
    (lambda: gate_table(pd.DataFrame(), model_a="a", model_b="b", margin=0.1, label="l"), ValueError,
     "`label` is for a table of predictions (paired_by='item'); a table of runs has scores."),
    (lambda: gate_table(pd.DataFrame(), model_a="a", model_b="b", margin=0.1, paired_by="x"), ValueError,
     "`paired_by` must be one of 'seed', 'item'; got 'x'."),
    (lambda: GateState.from_json(3), TypeError, "`text` must be the JSON text of a gate state; got int."),
    (lambda: GateState.from_json("{"), ValueError,
     "`text` is not JSON (Expecting property name enclosed in double quotes at line 1); is it a gate state?"),
    (lambda: GateState.from_json('{"sigeval_gate_state": 1, "margin": 1}'), ValueError,
     "`text` is not a gate state written by GateState.to_json (sigeval gate --state)."),
    (lambda: GateState.from_json(gate(_A, _B, margin=0.1, method="t-mixture").state.to_json().replace(
        '"keys": [\n  0,', '"keys": [\n  7, 8,')), ValueError, "the state holds 4 keys but 3 and 3 scores; it was altered."),
    (lambda: gate(_A, _B, margin=0.2, method="t-mixture", state=gate(_A, _B, margin=0.1, method="t-mixture").state),
     ValueError, "`margin` = 0.2 differs from the state's 0.1: a sequence's design is fixed at its first call (start a "
     "new state for a new design)."),
    (lambda: gate([0.8, 0.83, 0.81], _B, margin=0.1, method="t-mixture",
                  state=gate(_A, _B, margin=0.1, method="t-mixture").state), ValueError,
     "`scores_a`, `scores_b`: the scores of 1 differ from those the state saw (A 0.82, B 0.8; now 0.83, 0.8): a state "
     "keeps one experiment's history, and a rerun of a failed or changed run is a new pair with a new label."),
    (lambda: gate(pd.Series(_A, index=[(1, 2), (3, 4), None]), pd.Series(_B, index=[(1, 2), (3, 4), None]),
                  margin=0.1, method="t-mixture").state.to_json(), TypeError,
     "a pair's label must be text or a number to be kept in a state; got None."),
])
def test_errors_in_full(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


@pytest.mark.parametrize("args, note", [
    (("pass", False, False, None, 5, "fixed", "seed", 0.8, (0, 0, 5)),
     "Pass: the candidate is shown not to be worse than the baseline by the margin or more."),
    (("fail", False, True, None, 5, "t-mixture", "item", 0.8, (2, 1, 7)),
     "Fail: the candidate is shown to be worse than the baseline. Failed runs are left out of the pairs: the "
     "candidate failed 2 of 7, the baseline 1. Flagged: the candidate fails more often than the baseline, whatever "
     "its scores say."),
    (("pass", True, False, None, 4, "fixed", "seed", 0.8, (0, 1, 5), True),
     "Pass: the candidate is shown not to be worse than the baseline by the margin or more. Every seed gives the same "
     "difference (no spread between runs: a deterministic pipeline), so the decision compares that difference with "
     "the boundaries, with no test. The candidate is shown to be better than the baseline. Failed runs are left out "
     "of the pairs: the candidate failed 0 of 5, the baseline 1."),
    (("undetermined", False, False, 12, 5, "fixed", "seed", 0.9, (0, 0, 5)),
     "Undetermined: the data show neither that the candidate is within the margin nor that it is worse; no "
     "significant difference is not a pass. About 12 seeds in all (7 more) would settle it with probability 90% if "
     "the difference and spread were those observed. Calling the fixed-sample gate again on more runs looks twice; "
     "keep a state (a confidence sequence) to keep the error rate."),
    (("undetermined", False, False, 4, 5, "t-mixture", "item", 0.8, (0, 0, 5)),
     "Undetermined: the data show neither that the candidate is within the margin nor that it is worse; no "
     "significant difference is not a pass. About 4 items in all (0 more) would settle it with probability 80% if "
     "the difference and spread were those observed."),
    (("undetermined", False, False, None, 5, "betting", "item", 0.8, (0, 0, 5)),
     "Undetermined: the data show neither that the candidate is within the margin nor that it is worse; no "
     "significant difference is not a pass. Run more items and call again with the state: the betting sequence has "
     "no closed-form power to plan with."),
    (("undetermined", False, False, None, 5, "t-mixture", "seed", 0.8, (0, 0, 5)),
     "Undetermined: the data show neither that the candidate is within the margin nor that it is worse; no "
     "significant difference is not a pass. No number of pairs settles it at the observed difference and spread."),
])
def test_the_note_sentence_by_sentence(args, note):
    from sigeval.gating import _note

    assert _note(*args) == note


def test_markdown_and_line_in_full():
    res = gate([0.83, 0.84, 0.82, 0.85], [0.83, 0.83, 0.82, 0.84], margin=0.02)
    assert res.to_markdown() == (
        "### sigeval gate: pass\n\nCandidate (A) against baseline (B), higher is better, margin 0.02, alpha 0.05.\n\n"
        "| | |\n|---|---|\n| decision | **pass** (exit status 0) |\n| A - B, mean over 4 seeds | +0.005 |\n"
        "| 90% interval | -0.001794 to +0.01179 |\n| pass: the interval lies wholly | above -0.02 |\n"
        "| fail: the interval lies wholly | below -0.02 |\n| failed runs | A 0 of 4, B 0 of 4 |\n"
        "| method | paired t-test at one sample size |\n\n"
        "Pass: the candidate is shown not to be worse than the baseline by the margin or more.\n")
    assert res.to_line() == ("pass: A - B = +0.005 (90% interval -0.00179 to +0.0118) on 4 seeds, margin 0.02; A failed "
                             "0 of 4, B 0")
    res = gate([0.30, np.nan, 0.35, 0.33, np.nan, 0.36], [0.20, 0.21, 0.22, 0.20, 0.21, 0.22], margin=0.05,
               higher_is_better=False, fail_on="zero", method="t-mixture")
    assert res.to_markdown() == (
        "### sigeval gate: undetermined\n\nCandidate (A) against baseline (B), lower is better, margin 0.05, alpha "
        "0.05.\n\n| | |\n|---|---|\n| decision | **undetermined** (exit status 2) |\n"
        "| A - B, mean over 4 seeds | +0.125 |\n| 95% interval | -inf to +inf |\n"
        "| pass: the interval lies wholly | below +0.05 |\n| fail: the interval lies wholly | above +0 |\n"
        "| failed runs | A 2 of 6, B 0 of 6 (**flagged**) |\n"
        "| method | t-mixture confidence sequence over 4 pairs seen by every call |\n\n" + res.note + "\n")
    assert res.to_line() == ("undetermined: A - B = +0.125 (95% interval -inf to +inf) on 4 seeds, margin 0.05; A failed "
                             "2 of 6, B 0 (flagged: A fails more often); about 1 more seeds to settle it")
    lower = gate([0.2, 0.21, 0.19, 0.2], [0.3, 0.3, 0.31, 0.29], margin=0.01, higher_is_better=False)
    assert "| fail: the interval lies wholly | above +0.01 |" in lower.to_markdown()
    # An undetermined result without a plan says nothing of more runs; a decided one never does.
    betting = gate(_A, _B, margin=0.001, method="betting", bounds=(0, 1))
    assert betting.decision == "undetermined" and betting.n_more is None and betting.to_line().endswith("B 0")


def test_to_dict_holds_every_field_but_the_interval_and_the_state():
    res = gate(pd.Series([0.3, np.nan, 0.35, 0.33], index=["a", "b", "c", "d"]),
               pd.Series([0.2, 0.21, np.nan, 0.2], index=["a", "b", "c", "d"]), margin=0.05, method="t-mixture")
    record = res.to_dict()
    fields = set(GateResult.__dataclass_fields__) - {"confidence_interval", "state"}
    assert set(record) == fields | {"ci_low", "ci_high", "exit_status"}
    assert record["failed_a"] == ["b"] and record["failed_b"] == ["c"] and record["exit_status"] == res.exit_status
    assert record["method"] == "t-mixture" and record["fail_on"] == "margin" and record["target_power"] == 0.8


def test_state_json_is_indented_and_reads_back_each_field_with_its_type():
    res = gate(pd.Series(_A, index=["x", "y", "z"]), pd.Series(_B, index=["x", "y", "z"]), margin=1, alpha=0.1,
               higher_is_better=False, paired_by="item", fail_on="zero", method="t-mixture")
    text = res.state.to_json()
    assert text.startswith('{\n "sigeval_gate_state": 1,\n "margin": 1.0,\n')
    back = GateState.from_json(text)
    assert back == res.state and back.keys == ("x", "y", "z") and back.bounds is None
    assert (type(back.margin), type(back.alpha), back.higher_is_better, back.paired_by, back.fail_on, back.method) == (
        float, float, False, "item", "zero", "t-mixture")
    record = json.loads(text) | {"margin": 1, "alpha": 1, "higher_is_better": 0}  # as another writer may
    back = GateState.from_json(json.dumps(record))
    assert (type(back.margin), type(back.alpha), back.higher_is_better) == (float, float, False)


def test_gate_table_passes_every_argument_and_has_gates_defaults(monkeypatch):
    from sigeval import gating

    seen = {}
    monkeypatch.setattr(gating, "gate", lambda a, b, **kwargs: seen.update(kwargs))
    given = dict(margin=0.3, alpha=0.1, higher_is_better=False, fail_on="zero", target_power=0.7, method="betting",
                 state=object(), bounds=(0, 1))
    gating.gate_table(_runs(), model_a="new", model_b="main", **given)
    assert seen == given | {"paired_by": "seed"}
    seen.clear()
    gating.gate_table(_runs(), model_a="new", model_b="main", margin=0.3)
    assert seen == {"margin": 0.3, "alpha": 0.05, "higher_is_better": True, "paired_by": "seed", "fail_on": "margin",
                    "target_power": 0.8, "method": "fixed", "state": None, "bounds": None}


def test_a_deterministic_pipeline_on_a_boundary_is_undetermined():
    # Differences exactly -margin (binary fractions): neither shown within the margin nor worse than it.
    res = gate([0.5, 0.5, 0.5], [0.75, 0.75, 0.75], margin=0.25)
    assert (res.decision, res.pvalue, res.pvalue_worse) == ("undetermined", 1.0, 1.0)
    res = gate([0.5, 0.5, 0.5], [0.625, 0.625, 0.625], margin=0.25)
    assert (res.decision, res.pvalue, res.pvalue_worse, res.better) == ("pass", 0.0, 1.0, False)
    res = gate([0.5, 0.5, 0.5], [0.5, 0.5, 0.5], margin=0.25, fail_on="zero")
    assert (res.decision, res.pvalue_worse) == ("pass", 1.0)


def test_sequences_decide_by_their_interval():
    rng = np.random.default_rng(3)
    b = rng.normal(0.8, 0.01, 200)
    a = b + 0.002 + rng.normal(0, 0.002, 200)
    for alpha in (0.05, 0.1):
        res = gate(a, b, margin=0.01, alpha=alpha, method="t-mixture", fail_on="zero")
        cs = confidence_sequence(a - b, confidence_level=1 - alpha, method="t-mixture")
        assert (res.confidence_interval.low, res.confidence_interval.high) == (cs.low[-1], cs.high[-1])
        # The interval lies above -margin and above 0, below +margin: a pass, shown better; fail_on="zero" keeps it.
        assert 0 < cs.low[-1] < 0.01 and res.decision == "pass" and res.better
        assert "Every seed" not in res.note and "The candidate is shown to be better than the baseline." in res.note
    # Betting on scores in (1, 2) is betting on the same scores shifted into (0, 1).
    res = gate(a + 1 - 0.5, b + 1 - 0.5, margin=0.01, method="betting", bounds=(1, 2))
    shifted = gate(a - 0.5, b - 0.5, margin=0.01, method="betting", bounds=(0, 1))
    assert res.confidence_interval == shifted.confidence_interval
    # One pair is enough to start a sequence: its difference is the estimate.
    one = gate([0.9], [0.7], margin=0.05, method="t-mixture", higher_is_better=False)
    assert one.estimate == pytest.approx(0.2, rel=1e-12) and one.n == 1 and one.n_needed is None
    two = gate([0.9, 0.8], [0.7, 0.7], margin=0.05, method="t-mixture")
    assert two.estimate == pytest.approx(0.15) and two.n_needed is not None


def test_pairs_needed_by_a_sequence_is_the_least_over_the_boundaries():
    a, b = scores(-0.004)
    for mean, fail_on, boundaries in ((-0.004, "margin", [-0.01]), (-0.008, "zero", [-0.01, 0.0])):
        # At -0.008 the boundary 0 is the farther one, so the closer to settle: fail_on="zero" changes the plan.
        a, b = scores(mean)
        res = gate(a, b, margin=0.01, method="t-mixture", fail_on=fail_on)
        expected = min(_sequence_needed(abs(mean - x) / 0.01, 0.05, 0.8) for x in boundaries)
        assert res.n_needed == expected and res.n_more == expected - 5
        assert f"About {expected} seeds in all ({expected - 5} more)" in res.note
    assert expected < _sequence_needed(0.2, 0.05, 0.8)
    # Decided at a size beyond what power asks: none more.
    rng = np.random.default_rng(2)
    b = rng.normal(0.8, 0.01, 20)
    res = gate(b + 0.03 + rng.normal(0, 0.01, 20), b, margin=0.01)
    assert res.decision == "pass" and res.n_needed < res.n and res.n_more == 0


def test_flagged_only_when_the_candidate_fails_more():
    res = gate([0.8, np.nan, 0.81, 0.82], [0.79, 0.8, np.nan, 0.81], margin=0.05)
    assert (res.n_failed_a, res.n_failed_b, res.flagged) == (1, 1, False)


def _nct_settles(effect: float, n: int, alpha: float = 0.05) -> float:
    c = _mixture_critical(alpha, n)[n - 1]
    return stats.nct.sf(c, n - 1, effect * math.sqrt(n)) + stats.nct.cdf(-c, n - 1, effect * math.sqrt(n))


# 0.18137 and 0.38952 settle with power just above 0.8 (0.80098 and 0.80001): one degree of freedom more or less
# moves them; at alpha = 0.45 the sequence says something from 3 pairs on.
@pytest.mark.parametrize("effect, alpha", [(20.0, 0.05), (5.0, 0.05), (2.0, 0.05), (1.5, 0.05), (0.6, 0.05),
                                           (0.2, 0.05), (0.18137, 0.05), (0.38952, 0.05), (3.0, 0.45)])
def test_pairs_needed_by_a_sequence_is_the_first_that_settles(effect, alpha):
    n = _sequence_needed(effect, alpha, 0.8)
    assert _nct_settles(effect, n, alpha) >= 0.8 > _nct_settles(effect, n - 1, alpha)


def test_pairs_needed_by_a_sequence_at_the_ends_of_its_table():
    # Beyond the first table (2**10) and within the second (2**20): found.
    n = _sequence_needed(0.006, 0.05, 0.8)
    assert n is not None and 2**18 < n <= 2**20 and _nct_settles(0.006, 2**18) < 0.8
    # Needing more than 2**20 pairs (scipy: power 0.29 at 2**20, 0.83 at 2**21): None.
    assert _sequence_needed(0.0038, 0.05, 0.8) is None
    assert _nct_settles(0.0038, 2**20) < 0.8 <= _nct_settles(0.0038, 2**21)


def test_labels_bounds_and_levels_at_their_edges():
    from sigeval.gating import _json_key

    assert _json_key(np.int64(3)) == 3 and type(_json_key(np.int64(3))) is int
    assert _json_key(("t", np.float64(0.5))) == ["t", 0.5]
    with pytest.raises(TypeError) as caught:
        _json_key(("t", object()))
    assert str(caught.value).startswith("a pair's label must be text or a number to be kept in a state; got <object")
    # Scores on the bounds are within them.
    res = gate([1.0, 0.0, 1.0], [0.0, 1.0, 1.0], margin=0.1, method="betting", bounds=(0, 1))
    assert res.n == 3
    # A target power between 2 and 3 alphas is allowed.
    assert gate(_A, _B, margin=0.1, target_power=0.12).target_power == 0.12
    # A state's flag reads back True as well as False.
    state = gate(_A, _B, margin=0.1, method="t-mixture").state
    assert GateState.from_json(json.dumps(json.loads(state.to_json()) | {"higher_is_better": 1})).higher_is_better is True


def test_the_critical_values_are_kept_per_level_and_grown_on_demand(monkeypatch):
    from sigeval import gating

    # An empty cache: the values are computed here (a cache filled by another test would hide the computation).
    monkeypatch.setattr(gating, "_MIXTURE_CRITICAL", {})
    small = _mixture_critical(0.05, 10)
    assert small.size == 10 and gating._MIXTURE_CRITICAL[0.05].size == 64
    assert small[4] == pytest.approx(_mixture_c(5, 0.05), rel=1e-9)
    big = _mixture_critical(0.05, 100)
    assert big.size == 100 and gating._MIXTURE_CRITICAL[0.05].size == 128 and np.array_equal(big[:10], small)
    assert _mixture_critical(0.05, 300).size == 300 and gating._MIXTURE_CRITICAL[0.05].size == 300
    assert _mixture_critical(0.05, 300).size == 300 and gating._MIXTURE_CRITICAL[0.05].size == 300  # large enough
    # Each level its own table, computed without a warning (the sequence says nothing at n = 1: an infinity).
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert _mixture_critical(0.1, 10)[4] == pytest.approx(_mixture_c(5, 0.1), rel=1e-9)
    # At most 17 levels are kept: the 18th clears the others.
    for alpha in np.linspace(0.2, 0.3, 15):
        _mixture_critical(float(alpha), 5)
    assert len(gating._MIXTURE_CRITICAL) == 17
    _mixture_critical(0.35, 5)
    assert list(gating._MIXTURE_CRITICAL) == [0.35]


# --------------------------------------------------------------------------- the pairs (sigeval._gate_pairs)

_RUNS = pd.DataFrame({"task": "val", "model": ["new"] * 3 + ["main"] * 3, "seed": [0, 1, 2] * 2,
                      "score": [0.8, 0.82, 0.81, 0.79, 0.8, 0.8]})


@pytest.mark.parametrize("call, error, message", [
    (lambda: gate(pd.Series([1.0, 2.0]), [1.0, 2.0], margin=0.1), TypeError,
     "`scores_a` and `scores_b` must both be arrays (paired by position) or both pandas Series (paired by label); "
     "got Series and list."),
    (lambda: gate([1.0, 2.0], pd.Series([1.0, 2.0]), margin=0.1), TypeError,
     "`scores_a` and `scores_b` must both be arrays (paired by position) or both pandas Series (paired by label); "
     "got list and Series."),
    (lambda: gate([1.0, 2.0, 3.0], [1.0, 2.0], margin=0.1), ValueError,
     "`scores_a` and `scores_b` must be paired, with the same length (NaN for a failed run); got 3 and 2."),
    (lambda: gate(pd.Series([1.0] * 5, index=[1, 1, 2, 2, 3]), pd.Series([1.0], index=[1]), margin=0.1), ValueError,
     "`scores_a` must hold one score per label; labels [1, 2] repeat."),
    (lambda: gate(pd.Series([1.0], index=[1]), pd.Series([1.0] * 9, index=[1, 1, 2, 2, 3, 3, 4, 4, 5]), margin=0.1),
     ValueError, "`scores_b` must hold one score per label; labels [1, 2, 3] repeat."),
    (lambda: gate(["x", 1.0], [1.0, 2.0], margin=0.1), TypeError, "`scores_a` must hold numbers; got text 'x', '1.0'."),
    (lambda: gate([1.0, 2.0], [1.0, "y"], margin=0.1), TypeError, "`scores_b` must hold numbers; got text '1.0', 'y'."),
    (lambda: gate(pd.Series(["x", 1.0]), pd.Series([1.0, 2.0]), margin=0.1), TypeError,
     "`scores_a` must hold real numbers; element 0 is 'x' of type str."),
    (lambda: gate(pd.Series([1.0, 2.0]), pd.Series([1.0, "y"]), margin=0.1), TypeError,
     "`scores_b` must hold real numbers; element 1 is 'y' of type str."),
    (lambda: gate_table(_RUNS.drop(columns="seed"), model_a="new", model_b="main", margin=0.1), ValueError,
     "`table`: `seed` names column 'seed', which the table does not have; its columns are ['task', 'model', 'score']."),
    (lambda: gate_table(_RUNS, model_a="new", model_b="old", margin=0.1), ValueError,
     "`model_b` = 'old' is not in the model column; its models are 'new', 'main'."),
    (lambda: gate_table(pd.DataFrame({"model": [f"m{i}" for i in range(12)], "item": 0, "score": 1.0}), model_a="x",
                        model_b="m0", margin=0.1, paired_by="item"), ValueError,
     "`model_a` = 'x' is not in the model column; its models are 'm0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6', 'm7', "
     "'m8', 'm9'."),
    (lambda: gate_table(pd.DataFrame({"model": ["a"], "score": [1.0]}), model_a="a", model_b="b", margin=0.1,
                        paired_by="item"), ValueError,
     "a long table of items (a model column) needs the column(s) 'item'; the table has 'model', 'score'"),
    (lambda: gate_table(pd.DataFrame({"model": ["a", "b", "a", None], "item": [1, 1, 2, 2], "score": 1.0}),
                        model_a="a", model_b="b", margin=0.1, paired_by="item"), ValueError,
     "row 3: the model, item columns must not be empty"),
    (lambda: gate_table(pd.DataFrame({"model": ["a", "b", "a", "b"], "task": ["t", "t", "u", None], "item": 1,
                                      "score": 1.0}), model_a="a", model_b="b", margin=0.1, paired_by="item"),
     ValueError, "row 3: the model, task, item columns must not be empty"),
    (lambda: gate_table(pd.DataFrame({"model": ["a"] * 4 + ["b"] * 2, "item": ["x", "y", "x", "y", "x", "y"],
                                      "score": 1.0}), model_a="a", model_b="b", margin=0.1, paired_by="item"),
     ValueError, "rows 0, 1, 2, 3: model 'a' has more than one row for 'x'"),
    (lambda: gate_table(pd.DataFrame({"a": [1.0]}), model_a="a", model_b="b", margin=0.1, paired_by="item"), ValueError,
     "a table of predictions (one column per model) needs the column(s) 'b'; the table has 'a'"),
    (lambda: gate_table(pd.DataFrame({"c": [1.0], "d": [1.0]}), model_a="a", model_b="b", margin=0.1,
                        paired_by="item"), ValueError,
     "a table of predictions (one column per model) needs the column(s) 'a', 'b'; the table has 'c', 'd'"),
    (lambda: gate_table(pd.DataFrame({"model": ["a"], "item": [1], "score": [1.0]}), model_a="a", model_b="b",
                        margin=0.1, paired_by="item"), ValueError,
     "`model_b` = 'b' is not in the model column; its models are 'a'."),
    (lambda: gate_table(pd.DataFrame({"a": [1], "b": [1]}), model_a="a", model_b="b", margin=0.1, paired_by="item",
                        label="gold"), ValueError, "the label needs the column(s) 'gold'; the table has 'a', 'b'"),
    (lambda: gate_table(pd.DataFrame({"a": [1.0, 0.0], "b": ["x", 1.0]}), model_a="a", model_b="b", margin=0.1,
                        paired_by="item"), ValueError, "row 0: column 'b' holds 'x', not a number"),
])
def test_pairs_errors_in_full(call, error, message):
    with pytest.raises(error) as caught:
        call()
    assert str(caught.value) == message


def test_series_are_paired_by_label_in_the_candidates_order_then_the_baselines():
    a = pd.Series([0.8, 0.9, 0.7], index=["x", "y", "z"])
    b = pd.Series([0.6, 0.8, 0.7], index=["w", "y", "x"])
    res = gate(a, b, margin=0.5, method="t-mixture")
    assert res.state.keys == ("x", "y", "z", "w") and res.failed_b == ("z",) and res.failed_a == ("w",)
    assert res.state.scores_b[:2] == (0.7, 0.8) and res.estimate == pytest.approx(0.1)


def test_tables_pair_by_task_and_seed_or_item_and_name_failures_by_label():
    # Runs: a seed whose score failed on one task of two failed; a model without a task failed every seed.
    runs = pd.concat([_RUNS, _RUNS.assign(task="test")], ignore_index=True)
    runs.loc[(runs.task == "test") & (runs.model == "new") & (runs.seed == 1), "score"] = np.nan
    res = gate_table(runs, model_a="new", model_b="main", margin=0.1)
    assert (res.n, res.failed_a, res.failed_b) == (2, (1,), ())
    with pytest.raises(ValueError, match=r"share 0 seed\(s\) on which both ran, of 3: .* \(A failed 3, B 0\)\.$"):
        gate_table(runs[~((runs.task == "test") & (runs.model == "new"))], model_a="new", model_b="main", margin=0.1,
                   method="t-mixture")
    # Long items without a task: labelled by item; with one, by (task, item); a column named "index" is a column.
    long = pd.DataFrame({"model": ["a", "a", "b", "b"], "item": ["q1", "q2", "q1", "q3"], "score": [1.0, 0.0, 1.0, 1.0],
                         "index": 7, "level_0": 8})
    res = gate_table(long, model_a="a", model_b="b", margin=0.5, paired_by="item", method="t-mixture")
    assert res.state.keys == ("q1", "q2", "q3") and res.failed_a == ("q3",) and res.failed_b == ("q2",)
    res = gate_table(long.assign(task="t"), model_a="a", model_b="b", margin=0.5, paired_by="item", method="t-mixture")
    assert res.state.keys == (("t", "q1"), ("t", "q2"), ("t", "q3"))
    # Wide predictions: labelled by the item column if there is one, else by position.
    wide = pd.DataFrame({"item": ["q1", "q2", "q3"], "a": [1.0, 0.0, np.nan], "b": [1.0, 1.0, 0.0], "index": 7,
                         "level_0": 8})
    res = gate_table(wide, model_a="a", model_b="b", margin=0.5, paired_by="item", method="t-mixture")
    assert res.state.keys == ("q1", "q2", "q3") and res.failed_a == ("q3",)
    res = gate_table(wide.drop(columns="item"), model_a="a", model_b="b", margin=0.5, paired_by="item",
                     method="t-mixture")
    assert res.state.keys == (0, 1, 2)
    labels = pd.DataFrame({"gold": [1, 2, 3], "a": [1, 2, 0], "b": [1, 0, 3], "index": 7, "level_0": 8})
    res = gate_table(labels, model_a="a", model_b="b", label="gold", margin=0.5, paired_by="item", method="t-mixture")
    assert res.state.scores_a == (1.0, 1.0, 0.0) and res.state.scores_b == (1.0, 0.0, 1.0)


def test_a_repeated_item_is_named_as_written_first_of_those_repeated():
    table = pd.DataFrame({"model": ["a"] * 4 + ["b"] * 2, "item": ["y", "x", "y", "x", "x", "y"], "score": 1.0})
    with pytest.raises(ValueError) as caught:
        gate_table(table, model_a="a", model_b="b", margin=0.1, paired_by="item")
    assert str(caught.value) == "rows 0, 1, 2, 3: model 'a' has more than one row for 'y'"
    table = pd.DataFrame({"model": ["a", "a", "b"], "item": [np.int64(4), np.int64(4), np.int64(4)], "score": 1.0})
    with pytest.raises(ValueError, match="more than one row for 4$"):
        gate_table(table, model_a="a", model_b="b", margin=0.1, paired_by="item")

"""The regression gate: decisions and exit statuses on constructed cases, the numbers against scipy, the
state of a confidence sequence, the tables, and the repeated-use simulation (issue 39)."""

from __future__ import annotations

import json
import math

import numpy as np
import pandas as pd
import pytest
from scipy import optimize, stats

from sigeval import EXIT_STATUS, GATE_DECISIONS, GateState, confidence_sequence, gate, gate_table, paired_difference
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


@pytest.mark.parametrize("mean, fail_on", [(-0.004, "margin"), (-0.001, "margin"), (-0.004, "zero"), (-0.016, "margin")])
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

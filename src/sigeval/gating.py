r"""A regression gate: did a change make the model worse? Pass, fail, or run more.

A CI job asks it on every change: is the candidate (A) worse than the baseline
(B) by the margin that matters? :func:`gate` answers from paired runs (seeds)
or paired items with one of three decisions (:data:`GATE_DECISIONS`):

- ``"pass"``: the candidate is shown non-inferior: worse by less than
  ``margin``, one-sided at ``alpha``;
- ``"fail"``: it is shown worse: by more than the margin, or below zero
  (``fail_on``);
- ``"undetermined"``: neither, with the number of pairs that would settle it.

Each decision has an exit status (:data:`EXIT_STATUS`: 0, 1, 2) that
``sigeval gate`` returns. The fixed-sample gate reads the paired t-test at one
sample size; called again on more runs of the same comparison it looks again,
and its error rate grows with the looks. With a confidence sequence
(``method="t-mixture"`` or ``"betting"``) and the :class:`GateState` of the
previous calls, the chance of a wrong decision over any number of calls stays
at most ``alpha``. :func:`gate_table` takes the library's tidy tables (runs or
items). Explained in :ref:`ch-gating`.
"""

from __future__ import annotations

import json
import math
from dataclasses import asdict, dataclass
from typing import Any, Literal

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike

from ._gate_pairs import items_pairs, pairs, runs_pairs
from ._noncentral import power_beyond, seeds_needed_many
from ._paired_t import Summaries, refusals, summarise, tost
from ._results import ConfidenceInterval
from ._validation import (
    check_alpha_tost,
    check_choice,
    check_flag,
    check_interval,
    check_positive_real,
    check_unit_interval,
)
from .sequential import confidence_sequence

__all__ = [
    "GATE_DECISIONS",
    "EXIT_STATUS",
    "GATE_METHODS",
    "GateState",
    "GateResult",
    "gate",
    "gate_table",
]

#: The decisions of :func:`gate`.
GATE_DECISIONS = ("pass", "fail", "undetermined")
#: The exit status of ``sigeval gate`` for each decision (stable: CI jobs branch on it); an error exits with 3.
EXIT_STATUS = {"pass": 0, "fail": 1, "undetermined": 2}
#: How :func:`gate` decides: the paired t-test at one sample size, or a confidence sequence over the calls.
GATE_METHODS = ("fixed", "t-mixture", "betting")
_FAIL_ON = ("margin", "zero")
_PAIRED_BY = ("seed", "item")
GateMethod = Literal["fixed", "t-mixture", "betting"]
#: The most pairs the planning of a confidence sequence searches (its critical values are tabulated up to here).
_MAX_SEQUENCE_PAIRS = 2**20
#: The t-mixture sequence's critical values c_n (n = 1, 2, ...), per level, extended on demand.
_MIXTURE_CRITICAL: dict[float, np.ndarray] = {}


# --------------------------------------------------------------------------- the state of a sequence


@dataclass(frozen=True)
class GateState:
    """The history of a gated comparison: its design and every pair seen, in the order it arrived.

    Returned by :func:`gate` with a confidence sequence (``GateResult.state``) and
    passed to the next call, which checks that the design is the same and the pairs
    already seen unchanged, and appends the new ones. :meth:`to_json` and
    :meth:`from_json` carry it between CI runs (``sigeval gate --state FILE``).

    Attributes
    ----------
    margin, alpha, fail_on, higher_is_better, paired_by, method, bounds
        The design, fixed at the first call.
    keys : tuple
        The pairs' labels (seeds, items, ``(task, seed)``; positions for arrays).
    scores_a, scores_b : tuple of float
        Their scores, NaN for a failed or missing run.
    """

    margin: float
    alpha: float
    fail_on: str
    higher_is_better: bool
    paired_by: str
    method: str
    bounds: tuple[float, float] | None
    keys: tuple
    scores_a: tuple[float, ...]
    scores_b: tuple[float, ...]

    def to_json(self) -> str:
        """The state as JSON text (failed runs as ``null``; tuple labels as lists).

        Examples
        --------
        >>> from sigeval import gate
        >>> res = gate([0.81, 0.83, 0.80], [0.80, 0.82, 0.81], margin=0.02, method="t-mixture")
        >>> GateState.from_json(res.state.to_json()) == res.state
        True
        """
        record = asdict(self)
        record["keys"] = [_json_key(k) for k in self.keys]
        for side in ("scores_a", "scores_b"):
            record[side] = [None if math.isnan(v) else v for v in record[side]]
        record["bounds"] = None if self.bounds is None else list(self.bounds)
        return json.dumps({"sigeval_gate_state": 1, **record}, indent=1)

    @classmethod
    def from_json(cls, text: str) -> GateState:
        """A state written by :meth:`to_json`; a text that is not one raises ValueError."""
        if not isinstance(text, str):
            raise TypeError(f"`text` must be the JSON text of a gate state; got {type(text).__name__}.")
        try:
            record = json.loads(text)
        except json.JSONDecodeError as err:
            raise ValueError(f"`text` is not JSON ({err.msg} at line {err.lineno}); is it a gate state?") from None
        fields = {f for f in cls.__dataclass_fields__}
        if not isinstance(record, dict) or record.pop("sigeval_gate_state", None) != 1 or set(record) != fields:
            raise ValueError("`text` is not a gate state written by GateState.to_json (sigeval gate --state).")
        keys = tuple(tuple(k) if isinstance(k, list) else k for k in record["keys"])
        a, b = ([np.nan if v is None else float(v) for v in record[side]] for side in ("scores_a", "scores_b"))
        if not len(keys) == len(a) == len(b):
            raise ValueError(f"the state holds {len(keys)} keys but {len(a)} and {len(b)} scores; it was altered.")
        bounds = record["bounds"]
        return cls(margin=float(record["margin"]), alpha=float(record["alpha"]), fail_on=record["fail_on"],
                   higher_is_better=bool(record["higher_is_better"]), paired_by=record["paired_by"],
                   method=record["method"], bounds=None if bounds is None else (float(bounds[0]), float(bounds[1])),
                   keys=keys, scores_a=tuple(a), scores_b=tuple(b))


def _json_key(key: Any) -> Any:
    """A pair's label as JSON holds it: text, a number, or a list of them."""
    if isinstance(key, tuple):
        return [_json_key(k) for k in key]
    if isinstance(key, np.generic):
        key = key.item()
    if key is None or not isinstance(key, str | int | float):
        raise TypeError(f"a pair's label must be text or a number to be kept in a state; got {key!r}.")
    return key


# --------------------------------------------------------------------------- the result


@dataclass(frozen=True)
class GateResult:
    """Result of :func:`gate`.

    Attributes
    ----------
    decision : str
        One of :data:`GATE_DECISIONS`; :attr:`exit_status` is its exit status.
    estimate : float
        Mean of the paired differences ``scores_a - scores_b`` (candidate minus
        baseline) over the pairs on which both ran.
    confidence_interval : ConfidenceInterval
        The interval of ``estimate`` the decision reads: the paired t interval at
        ``1 - 2 alpha`` (fixed), or the confidence sequence at ``1 - alpha``.
    confidence_level : float
    pvalue : float
        The one-sided paired t-test of non-inferiority (the null: the candidate is
        worse by ``margin`` or more); NaN under a confidence sequence, which
        decides by its interval.
    pvalue_worse : float
        The one-sided test of the null "not worse by the margin" (``fail_on="margin"``)
        or "not worse" (``"zero"``); NaN under a confidence sequence.
    better : bool
        The candidate is shown better than the baseline (the one-sided test of
        "not better" rejects at ``alpha``; under a sequence, its interval excludes 0).
    flagged : bool
        The candidate failed more runs (or items) than the baseline, whatever the scores say.
    n : int
        Pairs on which both ran.
    n_pairs : int
        Pairs in all (seeds or items either side ran or was to run).
    n_failed_a, n_failed_b : int
        Failed or missing runs of the candidate and of the baseline.
    failed_a, failed_b : tuple
        Their labels.
    sigma_d : float
        Sample standard deviation of the differences (NaN below 2 pairs).
    n_needed : int or None
        Pairs at which the decision is reached with probability ``target_power``
        if the true difference and spread were those observed (None when no
        number of pairs would, or the method has no closed-form power).
    n_more : int or None
        ``n_needed - n`` when positive, else 0.
    target_power : float
    margin, alpha, fail_on, higher_is_better, paired_by, method
        The arguments.
    note : str
        The decision in words, with the notes (better, flagged, what to run).
    state : GateState or None
        Under a confidence sequence, the history to pass to the next call.
    """

    decision: str
    estimate: float
    confidence_interval: ConfidenceInterval
    confidence_level: float
    pvalue: float
    pvalue_worse: float
    better: bool
    flagged: bool
    n: int
    n_pairs: int
    n_failed_a: int
    n_failed_b: int
    failed_a: tuple
    failed_b: tuple
    sigma_d: float
    n_needed: int | None
    n_more: int | None
    target_power: float
    margin: float
    alpha: float
    fail_on: str
    higher_is_better: bool
    paired_by: str
    method: str
    note: str
    state: GateState | None

    @property
    def exit_status(self) -> int:
        """0, 1 or 2 for pass, fail, undetermined (:data:`EXIT_STATUS`)."""
        return EXIT_STATUS[self.decision]

    def to_line(self) -> str:
        """The decision in one line, for a terminal or a CI log.

        Examples
        --------
        >>> from sigeval import gate
        >>> gate([0.83, 0.84, 0.82, 0.85], [0.83, 0.83, 0.82, 0.84], margin=0.02).to_line()
        'pass: A - B = +0.005 (90% interval -0.00179 to +0.0118) on 4 seeds, margin 0.02; A failed 0 of 4, B 0'
        """
        low, high = self.confidence_interval
        line = (f"{self.decision}: A - B = {self.estimate:+.3g} ({self.confidence_level:.0%} interval {low:+.3g} to "
                f"{high:+.3g}) on {self.n} {self.paired_by}s, margin {self.margin:g}; A failed {self.n_failed_a} of "
                f"{self.n_pairs}, B {self.n_failed_b}")
        if self.flagged:
            line += " (flagged: A fails more often)"
        if self.decision == "undetermined" and self.n_more is not None:
            line += f"; about {self.n_more} more {self.paired_by}s to settle it"
        return line

    def to_markdown(self) -> str:
        """The summary a CI job shows (GitHub's ``$GITHUB_STEP_SUMMARY``): the decision, a table and the note."""
        low, high = self.confidence_interval
        sign = -1.0 if self.higher_is_better else 1.0
        passes = ("above" if self.higher_is_better else "below") + f" {sign * self.margin:+g}"
        worse = sign * (self.margin if self.fail_on == "margin" else 0.0)
        fails = ("below" if self.higher_is_better else "above") + f" {worse:+g}"
        how = ("paired t-test at one sample size" if self.method == "fixed" else
               f"{self.method} confidence sequence over {self.n} pairs seen by every call")
        rows = [
            ("decision", f"**{self.decision}** (exit status {self.exit_status})"),
            (f"A - B, mean over {self.n} {self.paired_by}s", f"{self.estimate:+.4g}"),
            (f"{self.confidence_level:.0%} interval", f"{low:+.4g} to {high:+.4g}"),
            ("pass: the interval lies wholly", passes),
            ("fail: the interval lies wholly", fails),
            ("failed runs", f"A {self.n_failed_a} of {self.n_pairs}, B {self.n_failed_b} of {self.n_pairs}"
             + (" (**flagged**)" if self.flagged else "")),
            ("method", how),
        ]
        table = "\n".join(f"| {k} | {v} |" for k, v in rows)
        better = "higher" if self.higher_is_better else "lower"
        return (f"### sigeval gate: {self.decision}\n\nCandidate (A) against baseline (B), {better} is better, "
                f"margin {self.margin:g}, alpha {self.alpha:g}.\n\n| | |\n|---|---|\n{table}\n\n{self.note}\n")

    def to_dict(self) -> dict[str, Any]:
        """Every field as JSON-ready values (the interval as ``ci_low``, ``ci_high``), with ``exit_status``."""
        record = {k: v for k, v in asdict(self).items() if k not in ("confidence_interval", "state")}
        record["ci_low"], record["ci_high"] = (float(v) for v in self.confidence_interval)
        record["failed_a"] = [_json_key(k) for k in self.failed_a]
        record["failed_b"] = [_json_key(k) for k in self.failed_b]
        for key in ("pvalue", "pvalue_worse", "sigma_d", "ci_low", "ci_high"):
            if not math.isfinite(record[key]):
                record[key] = None
        record["exit_status"] = self.exit_status
        return record


# --------------------------------------------------------------------------- pairs


def _same(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Element-wise equality in which NaN equals NaN (a failed run stays failed)."""
    return (x == y) | (np.isnan(x) & np.isnan(y))


def _history(state: GateState | None, design: dict, keys: tuple, a: np.ndarray, b: np.ndarray):
    """The pairs of every call so far: the state's, checked against this call's, then the new ones in order."""
    if state is None:
        return keys, a, b
    if not isinstance(state, GateState):
        raise TypeError(f"`state` must be a GateState (GateResult.state, or GateState.from_json); got "
                        f"{type(state).__name__}.")
    for name, value in design.items():
        if getattr(state, name) != value:
            raise ValueError(f"`{name}` = {value!r} differs from the state's {getattr(state, name)!r}: a sequence's "
                             "design is fixed at its first call (start a new state for a new design).")
    old = pd.Index(state.keys, tupleize_cols=False)
    position = old.get_indexer(pd.Index(keys, tupleize_cols=False))
    seen = position >= 0
    old_a, old_b = np.asarray(state.scores_a, dtype=float), np.asarray(state.scores_b, dtype=float)
    changed = seen & ~(_same(a, old_a[position]) & _same(b, old_b[position]))
    if changed.any():
        first = int(np.argmax(changed))
        raise ValueError(
            f"`scores_a`, `scores_b`: the scores of {keys[first]!r} differ from those the state saw (A {float(old_a[position[first]])!r}, "
            f"B {float(old_b[position[first]])!r}; now {float(a[first])!r}, {float(b[first])!r}): a state keeps one experiment's "
            "history, and a rerun of a failed or changed run is a new pair with a new label."
        )
    new = ~seen
    return (state.keys + tuple(k for k, s in zip(keys, new) if s), np.concatenate([old_a, a[new]]),
            np.concatenate([old_b, b[new]]))


# --------------------------------------------------------------------------- the decisions


def _tost(s: Summaries, margin: float, alpha: float) -> dict[str, float]:
    """TOST's core at any real ``margin``: ``pvalue_lower`` tests ``H0: mean <= -margin``, ``pvalue_upper``
    ``H0: mean >= margin``; with margins Δ, 0 and -Δ they are the gate's one-sided tests."""
    values, reason = tost(s, margin, alpha)
    if reason[0]:
        raise ValueError(reason[0])
    return {key: float(column[0]) for key, column in values.items()}


def _fixed(up: Summaries, margin: float, fail_on: str, alpha: float) -> tuple[float, float, float, float, float]:
    """p-values of non-inferiority, of worse (by the margin, or at all) and of better; the 1 - 2 alpha interval."""
    at_margin = _tost(up, margin, alpha)  # lower: H0 mean <= -margin
    at_zero = _tost(up, 0.0, alpha)  # lower: H0 mean <= 0; upper: H0 mean >= 0
    worse = at_zero if fail_on == "zero" else _tost(up, -margin, alpha)  # upper: H0 mean >= -margin
    return (at_margin["pvalue_lower"], worse["pvalue_upper"], at_zero["pvalue_lower"], at_margin["ci_low"],
            at_margin["ci_high"])


def _mixture_critical(alpha: float, n_max: int) -> np.ndarray:
    r"""The t-mixture sequence's half-width at n in standard errors, :math:`c_n`, for n = 1 .. ``n_max``.

    The t-mixture interval at n is the mean :math:`\pm\, c_n s/\sqrt n` (it depends on the
    data through their mean and spread alone). Read from :func:`~sigeval.sequential.confidence_sequence`
    on the differences 1, -1, 0, 0, ...: mean 0 and sum of squared deviations 2 from n = 2 on,
    so :math:`s = \sqrt{2/(n-1)}`, and its intervals are nested (their intersection is the raw interval).
    """
    table = _MIXTURE_CRITICAL.get(alpha)
    if table is None or table.size < n_max:
        size = max(n_max, 64, 0 if table is None else 2 * table.size)
        d = np.zeros(size)
        d[:2] = 1.0, -1.0
        cs = confidence_sequence(d, confidence_level=1.0 - alpha, method="t-mixture")
        n = np.arange(1, size + 1, dtype=float)
        with np.errstate(invalid="ignore"):  # inf * 0 at n = 1, where the sequence says nothing
            table = cs.high * np.sqrt(n * (n - 1) / 2.0)
        table[0] = np.inf
        if len(_MIXTURE_CRITICAL) > 16:
            _MIXTURE_CRITICAL.clear()
        _MIXTURE_CRITICAL[alpha] = table
    return table[:n_max]


def _sequence_needed(effect_size: float, alpha: float, target_power: float) -> int | None:
    r"""Pairs at which the t-mixture interval alone excludes a boundary with probability ``target_power``.

    The interval at n excludes a boundary at distance :math:`e\,\sigma_d` from the true mean when
    :math:`|T| > c_n`, :math:`T` noncentral t with n - 1 degrees of freedom and noncentrality
    :math:`e\sqrt n` (:func:`~sigeval._noncentral.power_beyond`). The running intersection only
    narrows the interval, so these pairs suffice. The power grows with n: the smallest n is
    bracketed among the powers of two, then found among the integers of the bracket (narrowed on
    grids of 64 points while it is wider than 512), each grid's powers computed at once; None
    beyond the table.
    """

    def reached(n: np.ndarray) -> np.ndarray:
        c = _mixture_critical(alpha, int(n.max()))[n - 1]
        return power_beyond(effect_size * np.sqrt(n), n - 1.0, c) >= target_power

    for exponents in (np.arange(1, 11), np.arange(10, int(math.log2(_MAX_SEQUENCE_PAIRS)) + 1)):
        doubling = 2**exponents  # a short table first: the long one only for small differences
        ok = reached(doubling)
        if ok.any():
            break
    else:
        return None
    first = int(np.argmax(ok))
    low, high = int(doubling[first]) // 2, int(doubling[first])
    while high - low > 1:
        grid = (np.arange(low + 1, high) if high - low <= 512 else
                np.unique(np.linspace(low, high, 66).round().astype(np.int64))[1:-1])
        ok = reached(grid)
        low = int(grid[~ok].max()) if (~ok).any() else low
        high = int(grid[ok].min()) if ok.any() else high
    return high


def _needed(up: Summaries, boundaries: list[float], method: str, alpha: float, target_power: float) -> int | None:
    """The fewest pairs at which one of the boundaries is excluded with probability ``target_power``."""
    mean, sd = float(up.mean[0]), float(up.sd[0])
    if method == "betting" or not (sd > 0):
        return None
    effect = np.array([abs(mean - b) / sd for b in boundaries if mean != b])
    if method == "fixed":
        # Excluding a boundary from a 1 - 2 alpha interval: the two-sided paired t-test at 2 alpha.
        answer, refused = seeds_needed_many(effect, 2 * alpha, target_power)
        found = [int(n) for n, r in zip(answer, refused) if not r]
    else:
        found = [n for n in (_sequence_needed(float(e), alpha, target_power) for e in effect) if n is not None]
    return min(found) if found else None


def _decide(worse: bool, passes: bool) -> str:
    return "fail" if worse else "pass" if passes else "undetermined"


def _note(decision: str, better: bool, flagged: bool, n_needed: int | None, n: int, method: str, unit: str,
          target_power: float, failed: tuple[int, int, int], exact: bool = False) -> str:
    words = {
        "pass": "Pass: the candidate is shown not to be worse than the baseline by the margin or more.",
        "fail": "Fail: the candidate is shown to be worse than the baseline.",
        "undetermined": "Undetermined: the data show neither that the candidate is within the margin nor that it "
                        "is worse; no significant difference is not a pass.",
    }
    parts = [words[decision]]
    if exact:
        parts.append(f"Every {unit} gives the same difference (no spread between runs: a deterministic pipeline), "
                     "so the decision compares that difference with the boundaries, with no test.")
    if better:
        parts.append("The candidate is shown to be better than the baseline.")
    n_a, n_b, n_pairs = failed
    if n_a or n_b:
        parts.append(f"Failed runs are left out of the pairs: the candidate failed {n_a} of {n_pairs}, the baseline "
                     f"{n_b}.")
    if flagged:
        parts.append("Flagged: the candidate fails more often than the baseline, whatever its scores say.")
    if decision == "undetermined":
        if n_needed is not None:
            parts.append(f"About {n_needed} {unit}s in all ({max(n_needed - n, 0)} more) would settle it with "
                         f"probability {target_power:.0%} if the difference and spread were those observed.")
        elif method == "betting":
            parts.append(f"Run more {unit}s and call again with the state: the betting sequence has no closed-form "
                         "power to plan with.")
        else:
            parts.append("No number of pairs settles it at the observed difference and spread.")
        if method == "fixed":
            parts.append("Calling the fixed-sample gate again on more runs looks twice; keep a state "
                         "(a confidence sequence) to keep the error rate.")
    return " ".join(parts)


def _check_target_power(target_power: float, alpha: float) -> float:
    target_power = check_unit_interval(target_power, "target_power")
    if target_power <= 2 * alpha:
        raise ValueError(f"`target_power` must exceed 2 * alpha (the chance that a 1 - 2 alpha interval excludes a "
                         f"boundary at the true mean); got {target_power!r} with alpha={alpha!r}.")
    return target_power


def _check_bounds(bounds: Any, method: str, a: np.ndarray, b: np.ndarray) -> tuple[float, float] | None:
    if bounds is None:
        if method == "betting":
            raise ValueError("`bounds` must be given for method='betting': the limits of every score (for "
                             "accuracies, (0, 1)).")
        return None
    low, high = check_interval(bounds, "bounds")
    if low == high:
        raise ValueError(f"`bounds` must have low < high; got ({low!r}, {high!r}).")
    for scores, name in ((a, "scores_a"), (b, "scores_b")):
        outside = (scores < low) | (scores > high)
        if outside.any():
            raise ValueError(f"`{name}` must lie within `bounds` ({low!r}, {high!r}); got {float(scores[outside][0])!r}.")
    return low, high


def gate(
    scores_a: ArrayLike | pd.Series,
    scores_b: ArrayLike | pd.Series,
    *,
    margin: float,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    paired_by: Literal["seed", "item"] = "seed",
    fail_on: Literal["margin", "zero"] = "margin",
    target_power: float = 0.8,
    method: GateMethod = "fixed",
    state: GateState | None = None,
    bounds: tuple[float, float] | None = None,
) -> GateResult:
    r"""Pass, fail or undetermined: is the candidate A worse than the baseline B by ``margin``?

    On the pairs on which both ran, with differences :math:`d_i` oriented so that
    positive means A is better (``scores_a - scores_b``, or its negative when
    lower is better), the gate reads an interval for their mean :math:`\mu`:

    - **pass** when it lies wholly above :math:`-\Delta` (``margin``): the
      one-sided paired t-test of :math:`H_0: \mu \le -\Delta` rejects at
      ``alpha``, the lower test of TOST (:func:`~sigeval.equivalence.tost_paired`);
    - **fail** when it lies wholly below :math:`-\Delta` (``fail_on="margin"``)
      or below 0 (``fail_on="zero"``): the one-sided test of
      :math:`H_0: \mu \ge -\Delta` (or :math:`\ge 0`) rejects; a fail overrides a pass;
    - **undetermined** otherwise. A large p-value of a difference test is not a pass:
      the gate passes only a candidate shown to be within the margin.

    ``better`` notes a candidate shown better (:math:`H_0: \mu \le 0` rejected).
    With ``method="fixed"`` the interval is the paired t interval at
    :math:`1 - 2\alpha`, each side a test at ``alpha`` (the decisions use
    :math:`p \le \alpha`). With a confidence sequence (``"t-mixture"``, or
    ``"betting"`` for scores within ``bounds``; :func:`~sigeval.sequential.confidence_sequence`)
    at :math:`1 - \alpha` over the pairs of every call so far (``state``), the
    decisions stay valid however many times the gate is called: the chance that
    any call passes a candidate worse by the margin, or fails one that is not
    worse, is at most ``alpha``.

    When undetermined, ``n_needed`` is the number of pairs at which a boundary
    (:math:`-\Delta`, and 0 with ``fail_on="zero"``) is excluded with probability
    ``target_power`` if the mean and spread were those observed: for the fixed gate,
    :func:`~sigeval.power.seeds_needed` at level :math:`2\alpha` (the same answers, from its table of
    thresholds; a two-sided test at
    :math:`2\alpha` excludes the boundary on either side exactly when the
    :math:`1 - 2\alpha` interval does); for the t-mixture, the noncentral t with the
    sequence's own critical value at n. For seeds that are more runs; for items, more items.

    Failed runs (NaN, or a label one side lacks) are left out of the pairs,
    counted and named; a candidate with more failures than the baseline is ``flagged``.

    Parameters
    ----------
    scores_a, scores_b : array_like or pandas.Series
        The candidate's and the baseline's scores: arrays paired by position, or
        Series paired by their labels (seeds, items); NaN marks a failed run.
    margin : float
        :math:`\Delta > 0`, the largest loss that does not matter, in the units of the scores.
    alpha : float
        Level of each one-sided decision, in (0, 0.5).
    higher_is_better : bool
        False for losses and error rates.
    paired_by : {"seed", "item"}
        What a pair is: runs with the same seed, or one test item (says what to run more of).
    fail_on : {"margin", "zero"}
        Fail when the candidate is shown worse by more than the margin, or worse at all.
    target_power : float
        Probability of settling for ``n_needed``, above ``2 * alpha``.
    method : {"fixed", "t-mixture", "betting"}
        The paired t-test at this sample size, or a confidence sequence over the calls.
    state : GateState, optional
        The previous call's ``state`` (a confidence sequence only); None starts a history.
    bounds : (float, float), optional
        Limits of every score, required by ``"betting"`` (for accuracies ``(0, 1)``).

    Returns
    -------
    GateResult

    Raises
    ------
    ValueError
        Fewer than 2 pairs on which both ran (1 for a sequence), differences with
        zero spread (fixed), a margin that is not positive, levels out of range, a
        state of another design or whose pairs changed, scores outside ``bounds``.
    TypeError
        One Series and one array, a state that is not a :class:`GateState`, a flag
        that is not True or False.

    Notes
    -----
    Explained in :ref:`ch-gating`.

    Examples
    --------
    >>> from sigeval import gate
    >>> a = [0.842, 0.851, 0.838, 0.847, 0.845, 0.849]   # the candidate, six seeds
    >>> b = [0.840, 0.846, 0.839, 0.842, 0.843, 0.845]   # the baseline, same seeds
    >>> res = gate(a, b, margin=0.002)
    >>> res.decision, res.exit_status, res.better
    ('pass', 0, True)
    >>> seq = gate(a, b, margin=0.002, method="t-mixture")   # valid whenever one looks: wider
    >>> seq.decision, seq.n_needed
    ('undetermined', 8)
    """
    margin = check_positive_real(margin, "margin")
    alpha = check_alpha_tost(alpha)
    higher_is_better = check_flag(higher_is_better, "higher_is_better")
    paired_by = check_choice(paired_by, "paired_by", _PAIRED_BY)
    fail_on = check_choice(fail_on, "fail_on", _FAIL_ON)
    target_power = _check_target_power(target_power, alpha)
    method = check_choice(method, "method", GATE_METHODS)
    if method == "fixed" and state is not None:
        raise ValueError("`state` is for a confidence sequence (method='t-mixture' or 'betting'); the fixed-sample "
                         "gate keeps no history.")
    keys, a, b = pairs(scores_a, scores_b)
    checked_bounds = _check_bounds(bounds, method, a[~np.isnan(a)], b[~np.isnan(b)])
    design: dict[str, Any] = {"margin": margin, "alpha": alpha, "fail_on": fail_on, "higher_is_better": higher_is_better,
              "paired_by": paired_by, "method": method, "bounds": checked_bounds}
    keys, a, b = _history(state, design, keys, a, b)
    failed_a, failed_b = np.isnan(a), np.isnan(b)
    both = ~failed_a & ~failed_b
    n = int(both.sum())
    if n < (2 if method == "fixed" else 1):
        raise ValueError(f"`scores_a` and `scores_b` share {n} {paired_by}(s) on which both ran, of {len(keys)}: "
                         f"the gate needs at least {2 if method == 'fixed' else 1} (A failed {int(failed_a.sum())}, "
                         f"B {int(failed_b.sum())}).")
    sign = 1.0 if higher_is_better else -1.0
    good, other = (a[both], b[both]) if higher_is_better else (b[both], a[both])
    worse_at = -margin if fail_on == "margin" else 0.0
    exact = False
    if method == "fixed":
        up = summarise(good, other)
        exact = bool(up.finite[0]) and not bool(up.spread()[0])
        if exact:  # every pair differs by the same amount (a deterministic pipeline): nothing to infer
            d = float(up.mean[0])
            low = high = d
            passes, worse, better = d > -margin, d < worse_at, d > 0.0
            pvalue, pvalue_worse = float(not passes), float(not worse)
        else:
            pvalue, pvalue_worse, pvalue_better, low, high = _fixed(up, margin, fail_on, alpha)
            worse, passes, better = pvalue_worse <= alpha, pvalue <= alpha, pvalue_better <= alpha
        level = 1.0 - 2.0 * alpha
    else:
        up = summarise(good, other) if n >= 2 else Summaries.empty(1)
        spread = None if checked_bounds is None else (checked_bounds[0] - checked_bounds[1],
                                                      checked_bounds[1] - checked_bounds[0])
        cs = confidence_sequence(good - other, bounds=spread, confidence_level=1.0 - alpha, method=method)
        low, high = float(cs.low[-1]), float(cs.high[-1])
        pvalue = pvalue_worse = math.nan
        worse, passes, better = high < worse_at, low > -margin, low > 0.0
        level = 1.0 - alpha
    decision = _decide(worse, passes)
    boundaries = [-margin] + ([0.0] if fail_on == "zero" else [])
    n_needed = (_needed(up, boundaries, method, alpha, target_power) if n >= 2 and not refusals(up)[0] and not exact
                else None)
    n_failed_a, n_failed_b = int(failed_a.sum()), int(failed_b.sum())
    flagged = n_failed_a > n_failed_b
    estimate = sign * float(up.mean[0]) if n >= 2 else sign * float(good[0] - other[0])
    low, high = (low, high) if higher_is_better else (-high, -low)
    return GateResult(
        decision=decision, estimate=estimate, confidence_interval=ConfidenceInterval(low, high),
        confidence_level=level, pvalue=pvalue, pvalue_worse=pvalue_worse, better=bool(better), flagged=flagged,
        n=n, n_pairs=len(keys), n_failed_a=n_failed_a, n_failed_b=n_failed_b,
        failed_a=tuple(k for k, f in zip(keys, failed_a) if f), failed_b=tuple(k for k, f in zip(keys, failed_b) if f),
        sigma_d=float(up.sd[0]), n_needed=n_needed,
        n_more=None if n_needed is None else max(n_needed - n, 0), target_power=target_power, margin=margin,
        alpha=alpha, fail_on=fail_on, higher_is_better=higher_is_better, paired_by=paired_by, method=method,
        note=_note(decision, bool(better), flagged, n_needed, n, method, paired_by, target_power,
                   (n_failed_a, n_failed_b, len(keys)), exact),
        state=None if method == "fixed" else GateState(keys=keys, scores_a=tuple(a.tolist()),
                                                       scores_b=tuple(b.tolist()), **design),
    )


def gate_table(
    table: pd.DataFrame,
    *,
    model_a: Any,
    model_b: Any,
    margin: float,
    alpha: float = 0.05,
    higher_is_better: bool = True,
    paired_by: Literal["seed", "item"] = "seed",
    fail_on: Literal["margin", "zero"] = "margin",
    target_power: float = 0.8,
    method: GateMethod = "fixed",
    state: GateState | None = None,
    bounds: tuple[float, float] | None = None,
    label: Any = None,
) -> GateResult:
    """:func:`gate` on the library's tidy tables: the candidate ``model_a`` against the baseline ``model_b``.

    - ``paired_by="seed"``: a table of runs as :class:`~sigeval.report.Report` reads
      it, columns ``task``, ``model``, ``seed``, ``score`` (NaN for a failed run); the
      runs of the two models are paired by seed. With several tasks, a seed's score is
      its mean over the tasks (the benchmark's score), and a seed that failed or is
      missing on any task counts as failed.
    - ``paired_by="item"``, with a ``model`` column: one row per (model, item), columns
      ``model``, ``item``, ``score`` and optionally ``task`` (items are then paired by
      task and item).
    - ``paired_by="item"``, without one: a table of predictions as
      :func:`~sigeval.predictions.compare_predictions` reads it, one row per item and
      one column per model (``model_a`` and ``model_b`` name them) holding a score per
      item, 0/1 correctness, or predicted labels compared with the ``label`` column;
      an ``item`` column, if there is one, labels the items.

    A run or item one model has and the other lacks counts as a failure of the
    other. Everything else is :func:`gate`'s.

    Parameters
    ----------
    table : pandas.DataFrame
    model_a, model_b : label
        The candidate and the baseline: values of the ``model`` column, or columns.
    margin, alpha, higher_is_better, paired_by, fail_on, target_power, method, state, bounds
        As :func:`gate`.
    label : column name, optional
        The column of true labels of a table of predictions.

    Returns
    -------
    GateResult

    Raises
    ------
    ValueError
        A column missing, a model not in the table, a run twice, a score that is
        not a number (the error names the rows), and
        :func:`gate`'s errors.

    Notes
    -----
    Explained in :ref:`ch-gating`.

    Examples
    --------
    >>> import pandas as pd
    >>> from sigeval import gate_table
    >>> runs = pd.DataFrame({"task": "val", "model": ["new"] * 4 + ["main"] * 4, "seed": [0, 1, 2, 3] * 2,
    ...                      "score": [0.84, 0.85, 0.83, 0.86, 0.84, 0.84, 0.83, 0.85]})
    >>> res = gate_table(runs, model_a="new", model_b="main", margin=0.02)
    >>> res.decision, res.n
    ('pass', 4)
    """
    paired_by = check_choice(paired_by, "paired_by", _PAIRED_BY)
    if not isinstance(table, pd.DataFrame):
        raise TypeError(f"`table` must be a pandas DataFrame; got {type(table).__name__}.")
    for value, name in ((model_a, "model_a"), (model_b, "model_b"), (label, "label")):
        try:
            hash(value)
        except TypeError:
            raise TypeError(f"`{name}` must be a model's name (a label); got {value!r}.") from None
    if model_a == model_b:
        raise ValueError(f"`model_a` and `model_b` must be two models; got {model_a!r} twice.")
    if label is not None and paired_by == "seed":
        raise ValueError("`label` is for a table of predictions (paired_by='item'); a table of runs has scores.")
    a, b = runs_pairs(table, model_a, model_b) if paired_by == "seed" else items_pairs(table, model_a, model_b,
                                                                                         label)
    return gate(a, b, margin=margin, alpha=alpha, higher_is_better=higher_is_better, paired_by=paired_by,
                fail_on=fail_on, target_power=target_power, method=method, state=state, bounds=bounds)

"""Adversarial self-check of public functions: every call in its own child process.

Not part of the test suite (each call forks a child with a memory cap and a
timeout, which is slow and machine-dependent); run it by hand after adding or
changing a public function::

    .venv/bin/python tools/hostile_check.py            # every case
    .venv/bin/python tools/hostile_check.py -f pass_at_k -v
    .venv/bin/python tools/hostile_check.py --list

Each case is one call as a hostile user would make it (text, complex, None,
NaN, inf, 1e308, -0.0, booleans, object arrays, nested and ragged lists,
constant and empty arrays, one element, huge sizes, counts beyond int64, odd
DataFrames) with what a good outcome is:

``error``
    a ``ValueError`` or ``TypeError`` raised from sigeval's own code whose
    message contains one of the given names (an argument in backticks, or a
    table column);
``value``
    a return value that the case's ``check`` accepts (compared with an
    independent computation where there is one);
``either``
    one or the other.

Anything else is bad: another exception type, an error raised from inside
numpy, pandas or matplotlib, a message that does not name the argument, a
warning that leaks, a wrong or non-finite number, a hang past the timeout, or
running out of the memory cap (``RLIMIT_AS``, default 2 GiB above what the
imports already mapped). The children are forked from this process after the
imports, so a call costs milliseconds, not an interpreter start.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")
os.environ.setdefault("MPLBACKEND", "Agg")

import argparse  # noqa: E402
import math  # noqa: E402
import multiprocessing as mp  # noqa: E402
import resource  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import traceback  # noqa: E402
import warnings  # noqa: E402
from collections import Counter  # noqa: E402
from collections.abc import Callable  # noqa: E402
from dataclasses import dataclass, fields, is_dataclass  # noqa: E402
from decimal import Decimal, localcontext  # noqa: E402
from fractions import Fraction  # noqa: E402
from math import comb  # noqa: E402
from types import SimpleNamespace  # noqa: E402
from typing import Any  # noqa: E402

import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
import pandas as pd  # noqa: E402
from scipy import stats  # noqa: E402

import sigeval  # noqa: E402
from sigeval import plots  # noqa: E402

NAN, INF = float("nan"), float("inf")
GiB = 2**30


@dataclass
class Case:
    func: str
    label: str
    call: Callable[[], Any]
    expect: str = "error"  # "error", "value" or "either"
    names: tuple[str, ...] = ()
    check: Callable[[Any], None] | None = None


CASES: list[Case] = []


def case(func: str, label: str, call: Callable[[], Any], expect: str = "error",
         names: tuple[str, ...] | str = (), check: Callable[[Any], None] | None = None) -> None:
    if isinstance(names, str):
        names = (names,)
    CASES.append(Case(func, label, call, expect, tuple(names), check))


# --------------------------------------------------------------------------- checks


def close(got: float, want: float, rel: float = 1e-9, abs_: float = 0.0, what: str = "value") -> None:
    got, want = float(got), float(want)
    if not math.isfinite(got) or not math.isclose(got, want, rel_tol=rel, abs_tol=abs_):
        raise AssertionError(f"{what} = {got!r}, expected {want!r}")


def all_finite(result: Any, allow: tuple[str, ...] = ()) -> None:
    """No inf or NaN anywhere in a result's float fields (those in ``allow`` excepted)."""
    items: list[tuple[str, Any]]
    if is_dataclass(result):
        items = [(f.name, getattr(result, f.name)) for f in fields(result)]
    elif isinstance(result, dict):
        items = list(result.items())
    else:
        items = [("result", result)]
    for name, value in items:
        if name in allow or value is None:
            continue
        if is_dataclass(value) and not isinstance(value, type):
            all_finite(value)
        elif isinstance(value, pd.DataFrame | pd.Series):
            if isinstance(value, pd.DataFrame):
                value = value.drop(columns=[c for c in ("model", "model_a", "model_b") if c in value.columns])
            numeric = value.select_dtypes("number") if isinstance(value, pd.DataFrame) else value
            if pd.api.types.is_numeric_dtype(getattr(numeric, "dtype", float)) or isinstance(numeric, pd.DataFrame):
                arr = np.asarray(numeric, dtype=float)
                if not np.all(np.isfinite(arr)):
                    raise AssertionError(f"{name} holds non-finite values")
        elif isinstance(value, float | np.floating | np.ndarray) and np.asarray(value).dtype.kind == "f":
            if not np.all(np.isfinite(value)):
                raise AssertionError(f"{name} = {value!r} is not finite")


# --------------------------------------------------------------------------- hostile values

SCALAR_HOSTILE: list[tuple[str, Any]] = [
    ("text '0.5'", "0.5"), ("complex", 0.5 + 1j), ("None", None), ("nan", NAN), ("inf", INF),
    ("-inf", -INF), ("1e308", 1e308), ("-0.0", -0.0), ("True", True), ("False", False),
    ("2**70", 2**70), ("list [0.5]", [0.5]), ("np.nan", np.float64("nan")), ("object array", np.array([0.5], dtype=object)),
]


# --------------------------------------------------------------------------- independent computations


def pass_at_k_exact(n: int, c: int, k: int) -> Fraction:
    """1 - C(n-c, k)/C(n, k), exactly: by binomials when small, else the product over the c correct ones."""
    if n - c < k:
        return Fraction(1)
    if n <= 5000:
        return 1 - Fraction(comb(n - c, k), comb(n, k))
    ratio = Fraction(1)
    for i in range(c):
        ratio *= 1 - Fraction(k, n - i)
    return 1 - ratio


def _dec(x: float | Fraction) -> Decimal:
    x = Fraction(x)
    return Decimal(x.numerator) / Decimal(x.denominator)


def cr1(means: list[float], groups: list) -> float:
    """CR1 standard error in exact arithmetic (Decimal has no overflow or underflow at float64's range)."""
    with localcontext() as ctx:
        ctx.prec = 40
        d = [_dec(m) for m in means]
        n = len(d)
        mean = sum(d) / n
        sums: dict = {}
        for m, g in zip(d, groups):
            sums[g] = sums.get(g, Decimal(0)) + (m - mean)
        g = len(sums)
        return float((Decimal(g) / (g - 1) * sum(s * s for s in sums.values()) / n**2).sqrt())


def exact_var(values: list[float]) -> float:
    with localcontext() as ctx:
        ctx.prec = 40
        d = [_dec(v) for v in values]
        mean = sum(d) / len(d)
        return float(sum((v - mean) ** 2 for v in d) / (len(d) - 1))


def exact_sd(values: list[float]) -> float:
    with localcontext() as ctx:
        ctx.prec = 40
        d = [_dec(v) for v in values]
        mean = sum(d) / len(d)
        return float((sum((v - mean) ** 2 for v in d) / (len(d) - 1)).sqrt())


def sampled_mean_check(rows: list[list[float]], groups: list | None = None) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        vals = [[v for v in r if not math.isnan(v)] for r in rows]
        means = [math.fsum(r) / len(r) for r in vals]
        close(res.estimate, math.fsum(means) / len(means), what="estimate")
        close(res.standard_error, cr1(means, groups if groups is not None else list(range(len(means)))),
              what="standard_error")
        flat = [v for r in vals for v in r]
        naive = exact_sd(flat) / math.sqrt(len(flat))
        close(res.standard_error_naive, naive, what="standard_error_naive")
        multi = [r for r in vals if len(r) > 1]
        if multi:
            within = [exact_var(r) for r in multi]
            close(res.variance_within, sum(within) / len(within), abs_=1e-15, what="variance_within")
            samp = [exact_var(r) / len(r) for r in multi]
            close(res.variance_between, exact_var(means) - sum(samp) / len(samp), abs_=1e-12,
                  what="variance_between")
        all_finite(res, allow=("design_effect",))
    return check


def auc_brute(labels: list, scores: list) -> float:
    pos = [s for y, s in zip(labels, scores) if y == 1]
    neg = [s for y, s in zip(labels, scores) if y == 0]
    total = sum((p > q) + 0.5 * (p == q) for p in pos for q in neg)
    return total / (len(pos) * len(neg))


def ap_brute(scores: list[list[float]], tp: list[list[int]], n_pos: list[float]) -> float:
    dets = [(s, t) for row_s, row_t in zip(scores, tp) for s, t in zip(row_s, row_t) if not math.isnan(s)]
    order = sorted(range(len(dets)), key=lambda i: (-dets[i][0], i))
    hits, total = 0, 0.0
    for rank, i in enumerate(order, start=1):
        if dets[i][1]:
            hits += 1
            total += hits / rank
    return total / sum(n_pos)


# --------------------------------------------------------------------------- cases: compare_predictions

CP = "compare_predictions"
_cp = sigeval.compare_predictions


def cp_table(n: int = 12) -> pd.DataFrame:
    y = [0, 1, 1, 0, 1, 1, 0, 1, 0, 0, 1, 1][:n]
    a = [0, 1, 1, 0, 1, 1, 0, 0, 0, 1, 1, 1][:n]
    b = [0, 1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 0][:n]
    return pd.DataFrame({"label": y, "A": a, "B": b})


def cp_check(table: pd.DataFrame, label: Any = "label", models: list | None = None,
             mcnemar: bool = True) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        ms = models or [c for c in table.columns if c != label]
        truth = table[label].to_numpy()
        acc = {m: float(np.mean(table[m].to_numpy() == truth)) for m in ms}
        for row in res.per_model.itertuples():
            close(row.accuracy, acc[row.model], what=f"accuracy of {row.model}")
        for row in res.pairs.itertuples():
            close(row.estimate, acc[row.model_a] - acc[row.model_b], abs_=1e-15, what="estimate")
            ca = table[row.model_a].to_numpy() == truth
            cb = table[row.model_b].to_numpy() == truth
            n01, n10 = int(np.sum(ca & ~cb)), int(np.sum(~ca & cb))
            p = 1.0 if n01 + n10 == 0 else stats.binomtest(n01, n01 + n10, 0.5).pvalue
            if mcnemar:
                close(row.pvalue, min(p, 1.0), rel=1e-9, what="McNemar p")
        all_finite(res.per_model)
        all_finite(res.pairs)
    return check


def _cp_cases() -> None:
    t = cp_table()
    case(CP, "valid 12 items", lambda: _cp(t, n_resamples=200, rng=0), "value", check=cp_check(t))
    case(CP, "label=None, 0/1 columns", lambda: _cp(pd.DataFrame({"A": [1, 0, 1, 1], "B": [0, 0, 1, 0]}),
         label=None, n_resamples=100, rng=0), "value",
         check=lambda r: close(r.pairs.estimate[0], 0.5, what="estimate"))
    case(CP, "bool correctness columns, label=None", lambda: _cp(
        pd.DataFrame({"A": [True, False, True, True], "B": [False, False, True, False]}), label=None,
        n_resamples=100, rng=0), "either", ("'A'", "`table`"),
        check=lambda r: close(r.pairs.estimate[0], 0.5, what="estimate"))
    # table itself
    for lab, tbl in [("None", None), ("text", "table.csv"), ("dict", {"label": [0, 1], "A": [0, 1], "B": [1, 1]}),
                     ("ndarray", np.ones((4, 3))), ("list of lists", [[0, 1, 1], [1, 1, 0]])]:
        case(CP, f"table={lab}", lambda tbl=tbl: _cp(tbl, n_resamples=50, rng=0), names="`table`")
    case(CP, "empty DataFrame", lambda: _cp(pd.DataFrame(), n_resamples=50, rng=0), names="`table`")
    case(CP, "columns but no rows", lambda: _cp(pd.DataFrame({"label": [], "A": [], "B": []}), n_resamples=50,
                                                  rng=0), names="`table`")
    case(CP, "one row", lambda: _cp(cp_table(1), n_resamples=50, rng=0), "either", ("`table`", "row"),
         check=cp_check(cp_table(1)))
    case(CP, "one model column", lambda: _cp(cp_table()[["label", "A"]], n_resamples=50, rng=0),
         names=("2 model columns",))
    # odd columns
    mi = cp_table().copy()
    mi.columns = pd.MultiIndex.from_tuples([("x", "label"), ("x", "A"), ("y", "B")])
    case(CP, "MultiIndex columns, label=('x','label')", lambda: _cp(mi, label=("x", "label"), n_resamples=50, rng=0),
         "either", ("`table`", "`label`", "MultiIndex"),
         check=lambda r: (close(r.per_model.accuracy[0], 10 / 12, what="accuracy of A"),
                          close(r.per_model.accuracy[1], 6 / 12, what="accuracy of B")))
    case(CP, "MultiIndex columns, label='label'", lambda: _cp(mi, n_resamples=50, rng=0),
         names=("`table`", "`label`", "MultiIndex", "'label'"))
    dup = cp_table().copy()
    dup.columns = ["label", "A", "A"]
    case(CP, "duplicated model column names", lambda: _cp(dup, n_resamples=50, rng=0),
         names=("`table`", "'A'", "duplicate"))
    dup2 = cp_table().copy()
    dup2.columns = ["label", "label", "B"]
    case(CP, "duplicated label column name", lambda: _cp(dup2, n_resamples=50, rng=0),
         names=("`table`", "'label'", "`label`", "duplicate"))
    num = cp_table().copy()
    num.columns = [0, 1, 2]
    case(CP, "integer column names, label=0", lambda: _cp(num, label=0, n_resamples=100, rng=0), "value",
         check=cp_check(num, label=0))
    nanc = cp_table().copy()
    nanc.columns = ["label", np.nan, "B"]
    case(CP, "a NaN column name (model)", lambda: _cp(nanc, n_resamples=100, rng=0), "either",
         ("`table`", "nan", "column"), check=lambda r: all_finite(r.pairs))
    case(CP, "models=['A', 'A'] (repeated)", lambda: _cp(t, models=["A", "A"], n_resamples=50, rng=0),
         names=("`models`",))
    case(CP, "models='AB' (a string)", lambda: _cp(t, models="AB", n_resamples=50, rng=0),
         names=("`models`",))
    case(CP, "models includes the label column", lambda: _cp(t, models=["label", "A"], n_resamples=50, rng=0),
         names=("`models`", "'label'"))
    case(CP, "models=[] ", lambda: _cp(t, models=[], n_resamples=50, rng=0), names=("2 model columns", "`models`"))
    case(CP, "models=['A', 'Z'] (missing)", lambda: _cp(t, models=["A", "Z"], n_resamples=50, rng=0),
         names=("'Z'",))
    case(CP, "models=5", lambda: _cp(t, models=5, n_resamples=50, rng=0), names=("`models`",))
    case(CP, "label=['label'] (unhashable)", lambda: _cp(t, label=["label"], n_resamples=50, rng=0),
         names=("`label`",))
    case(CP, "label='nope'", lambda: _cp(t, label="nope", n_resamples=50, rng=0), names=("'nope'",))
    case(CP, "groups='label' (the label column)", lambda: _cp(t, groups="label", n_resamples=50, rng=0),
         names=("`groups`", "'label'"))
    # cell contents
    for lab, col in [("NaN prediction", [0, 1, NAN, 0, 1, 1, 0, 1, 0, 0, 1, 1]),
                     ("None prediction", [0, 1, None, 0, 1, 1, 0, 1, 0, 0, 1, 1]),
                     ("pd.NA prediction", pd.array([0, 1, pd.NA, 0, 1, 1, 0, 1, 0, 0, 1, 1], dtype="Int64"))]:
        bad = t.copy()
        bad["A"] = col
        case(CP, lab, lambda bad=bad: _cp(bad, n_resamples=50, rng=0), names=("'A'",))
    bad = t.copy()
    bad["label"] = bad["label"].astype(float)
    bad.loc[3, "label"] = NAN
    case(CP, "NaN label", lambda bad=bad: _cp(bad, n_resamples=50, rng=0), names=("'label'",))
    # numbers that do not fit int64 must not be merged into one value
    big = pd.DataFrame({"label": [1e19, 0, 1, 0, 1, 0], "A": [2e19, 0, 1, 0, 1, 0], "B": [1e19, 0, 1, 1, 1, 0]})
    case(CP, "labels 1e19 vs prediction 2e19 (beyond int64)", lambda: _cp(big, n_resamples=50, rng=0), "either",
         ("'label'",), check=cp_check(big))
    inf_t = pd.DataFrame({"label": [INF, 0, 1, 0, 1, 0], "A": [-INF, 0, 1, 0, 1, 0], "B": [INF, 0, 1, 1, 1, 0]})
    case(CP, "inf and -inf predictions", lambda: _cp(inf_t, n_resamples=50, rng=0), "either",
         ("'label'", "'A'"), check=cp_check(inf_t))
    neg0 = pd.DataFrame({"label": [0.0, 1, 1, 0], "A": [-0.0, 1, 1, 0], "B": [1, 1, 0, -0.0]})
    case(CP, "-0.0 predictions equal 0", lambda: _cp(neg0, n_resamples=50, rng=0), "value", check=cp_check(neg0))
    mixed = pd.DataFrame({"label": [1, "1", 1.0, "a"], "A": ["1", 1, "1", "a"], "B": [0, "0", 1, "b"]})
    case(CP, "mixed text/number labels", lambda: _cp(mixed, n_resamples=50, rng=0), "value",
         check=lambda r: close(r.per_model.accuracy[0], 1.0, what="accuracy of A"))
    boolean = pd.DataFrame({"label": [True, False, True, False], "A": [True, False, True, True],
                            "B": [False, False, True, False]})
    case(CP, "boolean labels and predictions", lambda: _cp(boolean, n_resamples=50, rng=0), "either",
         ("'label'", "`table`"), check=cp_check(boolean))
    cplx = pd.DataFrame({"label": [1 + 0j, 0, 1, 0], "A": [1 + 0j, 0, 1, 1], "B": [1 + 1j, 0, 1, 0]})
    case(CP, "complex predictions", lambda: _cp(cplx, n_resamples=50, rng=0), "either",
         ("'label'", "'A'", "'B'", "complex"), check=lambda r: all_finite(r.pairs))
    objs = pd.DataFrame({"label": [0, 1, 1, 0], "A": [[0], [1], [1], [0]], "B": [0, 1, 0, 0]})
    case(CP, "list-valued cells", lambda: _cp(objs, n_resamples=50, rng=0), "either", ("'A'",),
         check=lambda r: all_finite(r.pairs))
    # groups
    g = t.assign(g=[1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6])
    case(CP, "groups column", lambda: _cp(g, groups="g", n_resamples=100, rng=0), "value",
         check=cp_check(g.drop(columns="g"), mcnemar=False))
    gn = t.assign(g=[1, 1, 2, 2, NAN, 3, 4, 4, 5, 5, 6, 6])
    case(CP, "groups with NaN", lambda: _cp(gn, groups="g", n_resamples=50, rng=0), names=("'g'",))
    gm = t.assign(g=[1, "1", 2, "2", 3, "3", 4, "4", 5, "5", 6, "6"])
    case(CP, "groups mixing 1 and '1'", lambda: _cp(gm, groups="g", n_resamples=50, rng=0), "either",
         ("'g'", "`groups`"), check=lambda r: all_finite(r.pairs))
    g1 = t.assign(g=1)
    case(CP, "one group", lambda: _cp(g1, groups="g", n_resamples=50, rng=0), "either", ("'g'", "`groups`", "group"),
         check=lambda r: all_finite(r.pairs))
    case(CP, "groups='nope'", lambda: _cp(t, groups="nope", n_resamples=50, rng=0), names=("'nope'",))
    # metric
    for lab, m in [("'f1'", "f1"), ("None", None), ("1", 1), ("'AUC'", "AUC")]:
        exp = "value" if m == "AUC" else "error"
        case(CP, f"metric={lab}", lambda m=m: _cp(t, metric=m, n_resamples=50, rng=0), exp, names=("`metric`",),
             check=lambda r: all_finite(r.pairs))
    small = pd.DataFrame({"label": [0, 1, 1, 0, 1, 0], "A": [0.1, 0.9, 0.8, 0.3, 0.7, 0.2],
                          "B": [0.5, 0.4, 0.6, 0.3, 0.7, 0.2]})
    case(CP, "metric='auc', 6 items (resamples of one class)", lambda: _cp(small, metric="auc", n_resamples=100, rng=0),
         "either", ("'label'",), check=lambda r: all_finite(r.pairs))
    auc_t = pd.concat([small] * 8, ignore_index=True)
    auc_t["A"] = auc_t["A"] + np.arange(48) / 1000
    case(CP, "metric='auc' valid", lambda: _cp(auc_t, metric="auc", n_resamples=100, rng=0), "value",
         check=lambda r: (close(r.per_model.auc[0], auc_brute(auc_t.label.tolist(), auc_t.A.tolist()), what="auc A"),
                          close(r.pairs.estimate[0], auc_brute(auc_t.label.tolist(), auc_t.A.tolist())
                                - auc_brute(auc_t.label.tolist(), auc_t.B.tolist()), abs_=1e-12, what="estimate")))
    for lab, col in [("inf score", [INF, 0.9, 0.8, 0.3, 0.7, 0.2]), ("1e308 scores", [1e308, -1e308, 1e308, 0, 1, 0]),
                     ("text score", ["0.1", "x", 0.8, 0.3, 0.7, 0.2]), ("NaN score", [NAN, 0.9, 0.8, 0.3, 0.7, 0.2])]:
        bad = auc_t.copy()
        bad["A"] = col + auc_t["A"].tolist()[6:]
        exp = "either" if lab == "1e308 scores" else "error"
        case(CP, f"metric='auc', {lab}", lambda bad=bad: _cp(bad, metric="auc", n_resamples=50, rng=0), exp,
             ("'A'",), check=lambda r: all_finite(r.pairs))
    one_class = small.assign(label=1)
    case(CP, "metric='auc', one class", lambda: _cp(one_class, metric="auc", n_resamples=50, rng=0),
         names=("'label'",))
    case(CP, "metric='auc', label=None", lambda: _cp(auc_t, label=None, metric="auc", n_resamples=50, rng=0),
         names=("label column",))
    case(CP, "metric='auc' with groups", lambda: _cp(small.assign(g=[1, 1, 2, 2, 3, 3]), groups="g", metric="auc",
                                                   n_resamples=50, rng=0), names=("groups",))
    # scalars
    for lab, v in SCALAR_HOSTILE:
        case(CP, f"confidence_level={lab}", lambda v=v: _cp(t, confidence_level=v, n_resamples=50, rng=0),
             names="`confidence_level`")
    for lab, v in SCALAR_HOSTILE + [("0", 0), ("-1", -1), ("10**12", 10**12)]:
        case(CP, f"n_resamples={lab}", lambda v=v: _cp(t, n_resamples=v, rng=0), names="`n_resamples`")
    for lab, v in [("text", "0"), ("-1", -1), ("1.5", 1.5), ("True", True), ("complex", 1j)]:
        case(CP, f"rng={lab}", lambda v=v: _cp(t, n_resamples=50, rng=v), names="`rng`")
    case(CP, "rng=2**70 (a large seed is fine)", lambda: _cp(t, n_resamples=50, rng=2**70), "value", check=cp_check(t))
    case(CP, "n_resamples=1", lambda: _cp(t, n_resamples=1, rng=0), "either", ("`n_resamples`",),
         check=cp_check(t))
    shuffled = t.set_index(pd.Index([5, 5, 3, 3, 1, 1, 0, 0, 9, 9, 7, 7]))
    case(CP, "duplicated, unordered index", lambda: _cp(shuffled, n_resamples=100, rng=0), "value",
         check=cp_check(t))
    cat = t.astype("category")
    case(CP, "categorical columns", lambda: _cp(cat, n_resamples=100, rng=0), "value", check=cp_check(t))
    case(CP, "one row with groups", lambda: _cp(cp_table(1).assign(g=1), groups="g", n_resamples=50, rng=0), "either",
         ("`groups`", "'g'", "row"), check=lambda r: all_finite(r.pairs))
    big_t = pd.DataFrame({"label": np.tile([0, 1], 100_000), "A": np.tile([0, 1, 1, 0], 50_000),
                          "B": np.tile([1, 1, 0, 0], 50_000)})
    case(CP, "200,000 items, n_resamples=2000 (memory)", lambda: _cp(big_t, n_resamples=2000, rng=0), "either",
         ("`n_resamples`",), check=lambda r: close(r.per_model.accuracy[0], 0.5))


# --------------------------------------------------------------------------- cases: pass_at_k

PK = "pass_at_k"
_pk = sigeval.pass_at_k


def pk_check(n: list[int], c: list[int], k: int) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        nn, cc = np.broadcast_arrays(np.asarray(n, dtype=object), np.asarray(c, dtype=object))
        exact = [pass_at_k_exact(int(a), int(b), k) for a, b in zip(nn.ravel(), cc.ravel())]
        for got, want in zip(res.per_question, exact):
            close(got, float(want), rel=1e-12, abs_=0.0 if want else 1e-300, what="per_question")
        close(res.estimate, float(sum(exact) / len(exact)), rel=1e-12, abs_=1e-300, what="estimate")
        lo, hi = res.confidence_interval
        if not (lo <= res.estimate + 1e-12 and res.estimate - 1e-12 <= hi):
            raise AssertionError(f"estimate {res.estimate} outside its interval {(lo, hi)}")
        all_finite(res)
    return check


def _pk_cases() -> None:
    base = dict(n_resamples=200, rng=0)
    case(PK, "valid", lambda: _pk([10, 10, 10], [0, 3, 10], 2, **base), "value", check=pk_check([10] * 3, [0, 3, 10], 2))
    for name in ("n_samples", "n_correct"):
        good = {"n_samples": [10, 10, 10], "n_correct": [0, 3, 10]}
        for lab, v in [("text", ["10", "10", "10"]), ("complex", [10j, 10, 10]), ("None", None), ("NaN", [NAN, 10, 10]),
                       ("inf", [INF, 10, 10]), ("1e308", [1e308, 10, 10]), ("booleans", [True, True, False]),
                       ("2**70", [2**70, 10, 10]), ("empty", []), ("ragged", [[10, 10], [10]]),
                       ("non-whole 2.5", [2.5, 10, 10]), ("negative", [-1, 10, 10]),
                       ("object strings", np.array(["a", "b", "c"], dtype=object)),
                       ("mixed object", np.array([10, "x", 10], dtype=object)), ("scalar text", "10"),
                       ("dict", {"a": 10})]:
            args = dict(good)
            args[name] = v
            case(PK, f"{name}={lab}", lambda args=args: _pk(args["n_samples"], args["n_correct"], 2, **base),
                 names=(f"`{name}`", "`n_correct`", "`n_samples`", "`k`"))
    case(PK, "-0.0 correct", lambda: _pk([10, 10], [-0.0, 3], 2, **base), "value", check=pk_check([10, 10], [0, 3], 2))
    case(PK, "float whole counts", lambda: _pk([10.0, 10.0], [1.0, 3.0], 2, **base), "value",
         check=pk_check([10, 10], [1, 3], 2))
    case(PK, "object-dtype int arrays", lambda: _pk(np.array([10, 10], dtype=object), np.array([1, 3], dtype=object), 2,
                                                   **base), "value", check=pk_check([10, 10], [1, 3], 2))
    case(PK, "uint64 counts", lambda: _pk(np.array([10, 10], dtype=np.uint64), np.array([1, 3], dtype=np.uint64), 2,
                                         **base), "value", check=pk_check([10, 10], [1, 3], 2))
    case(PK, "pandas Series, k=np.int32(2)", lambda: _pk(pd.Series([10, 10]), pd.Series([1, 3]), np.int32(2), **base),
         "value", check=pk_check([10, 10], [1, 3], 2))
    case(PK, "uint64 beyond int64", lambda: _pk(np.array([2**63 + 5, 10], dtype=np.uint64), [1, 3], 2, **base),
         names="`n_samples`")
    case(PK, "one question", lambda: _pk([10], [3], 2, **base), names=("`n_samples`",))
    case(PK, "scalar n, vector c (broadcast)", lambda: _pk(10, [1, 3, 5], 2, **base), "value",
         check=pk_check([10], [1, 3, 5], 2))
    case(PK, "2-D arrays (ravelled)", lambda: _pk([[10, 12], [14, 16]], [[1, 2], [3, 4]], 3, **base), "value",
         check=pk_check([10, 12, 14, 16], [1, 2, 3, 4], 3))
    case(PK, "shapes that do not broadcast", lambda: _pk([10, 10, 10], [1, 2], 2, **base),
         names=("`n_samples`", "`n_correct`"))
    case(PK, "n_correct > n_samples", lambda: _pk([10, 10], [11, 2], 2, **base), names="`n_correct`")
    case(PK, "n_samples 0", lambda: _pk([0, 10], [0, 2], 1, **base), names=("`n_samples`", "`k`"))
    case(PK, "all correct (constant 1)", lambda: _pk([5, 5, 5], [5, 5, 5], 3, **base), "value",
         check=pk_check([5] * 3, [5] * 3, 3))
    case(PK, "none correct (constant 0)", lambda: _pk([5, 5, 5], [0, 0, 0], 3, **base), "value",
         check=pk_check([5] * 3, [0] * 3, 3))
    # k at its limits
    for lab, k in [("0", 0), ("-1", -1), ("1.5", 1.5), ("2.0", 2.0), ("True", True), ("None", None), ("'2'", "2"),
                   ("nan", NAN), ("complex", 2j), ("2**70", 2**70), ("11 > n", 11), ("np.array([2])", np.array([2]))]:
        case(PK, f"k={lab}", lambda k=k: _pk([10, 10], [1, 3], k, **base), names="`k`")
    case(PK, "k=np.int64(2)", lambda: _pk([10, 10], [1, 3], np.int64(2), **base), "value",
         check=pk_check([10, 10], [1, 3], 2))
    case(PK, "k=1 is c/n", lambda: _pk([7, 9, 13], [1, 4, 13], 1, **base), "value", check=pk_check([7, 9, 13], [1, 4, 13], 1))
    case(PK, "k=n (limit)", lambda: _pk([10, 10], [0, 1], 10, **base), "value", check=pk_check([10, 10], [0, 1], 10))
    case(PK, "k=n-c exactly", lambda: _pk([10, 10], [3, 4], 7, **base), "value", check=pk_check([10, 10], [3, 4], 7))
    case(PK, "k=n-c+1", lambda: _pk([10, 10], [3, 4], 8, **base), "value", check=pk_check([10, 10], [3, 4], 8))
    # precision and size
    case(PK, "n=2**53, c=1, k=1", lambda: _pk([2**53, 2**53], [1, 3], 1, **base), "value",
         check=pk_check([2**53, 2**53], [1, 3], 1))
    case(PK, "n=2**53, c=3, k=2**40", lambda: _pk([2**53, 2**53], [3, 2], 2**40, **base), "value",
         check=pk_check([2**53, 2**53], [3, 2], 2**40))
    case(PK, "n=2**53+1 (beyond 2**53)", lambda: _pk([2**53 + 1, 10], [1, 2], 1, **base), names="`n_samples`")
    case(PK, "n=1000, c=500, k=500 (tiny complement)", lambda: _pk([1000, 1000], [500, 10], 500, **base), "value",
         check=pk_check([1000, 1000], [500, 10], 500))
    case(PK, "n=10**6, c=1, k=1 (small pass@k)", lambda: _pk([10**6, 10**6], [1, 0], 1, **base), "value",
         check=pk_check([10**6, 10**6], [1, 0], 1))
    case(PK, "2**52 correct of 2**53, k=2**52 (memory)", lambda: _pk([2**53, 2**53], [2**52, 2**52], 2**52, **base),
         "either", ("`n_correct`", "`k`", "`n_samples`"), check=lambda r: close(r.estimate, 1.0))
    case(PK, "225,000 questions, k=2000, c=5000 (memory)",
         lambda: _pk(np.full(225_000, 10_000), np.full(225_000, 5_000), 2000, n_resamples=50, rng=0),
         "either", ("`n_correct`", "`k`", "`n_samples`"), check=lambda r: close(r.estimate, 1.0))
    case(PK, "20,000 questions, k=2000, c=1 (memory, width 1)",
         lambda: _pk(np.full(20_000, 10_000), np.full(20_000, 1), 2000, n_resamples=50, rng=0), "value",
         check=lambda r: close(r.estimate, 0.2))
    case(PK, "10**6 questions (huge)", lambda: _pk(np.full(10**6, 10), np.arange(10**6) % 11, 2, n_resamples=100, rng=0),
         "either", ("`n_resamples`",), check=lambda r: all_finite(r))
    # groups
    case(PK, "groups valid", lambda: _pk([10] * 4, [0, 3, 5, 10], 2, groups=["a", "a", "b", "b"], **base), "value",
         check=pk_check([10] * 4, [0, 3, 5, 10], 2))
    for lab, grp in [("NaN", [NAN, 1.0, 2.0, 2.0]), ("None", [None, "a", "b", "b"]),
                     ("mixed 1 and '1'", [1, "1", 2, "2"]), ("wrong length", ["a", "b"]), ("one group", ["a"] * 4),
                     ("2-D", [["a", "b"], ["a", "b"]]), ("text scalar", "abab"), ("complex", [1j, 1j, 2, 2]),
                     ("object NaN", np.array([NAN, "a", "b", "b"], dtype=object))]:
        case(PK, f"groups={lab}", lambda grp=grp: _pk([10] * 4, [0, 3, 5, 10], 2, groups=grp, **base), "either",
             ("`groups`",), check=pk_check([10] * 4, [0, 3, 5, 10], 2))
    for lab, v in SCALAR_HOSTILE:
        case(PK, f"confidence_level={lab}", lambda v=v: _pk([10] * 3, [0, 3, 10], 2, confidence_level=v, **base),
             names="`confidence_level`")
    for lab, v in SCALAR_HOSTILE + [("0", 0), ("10**12", 10**12)]:
        case(PK, f"n_resamples={lab}", lambda v=v: _pk([10] * 3, [0, 3, 10], 2, n_resamples=v, rng=0),
             names="`n_resamples`")
    for lab, v in [("text", "0"), ("-1", -1), ("1.5", 1.5), ("True", True)]:
        case(PK, f"rng={lab}", lambda v=v: _pk([10] * 3, [0, 3, 10], 2, n_resamples=50, rng=v), names="`rng`")


# --------------------------------------------------------------------------- cases: sampled_mean / paired difference

SM, SD = "sampled_mean", "sampled_paired_difference"
_sm, _sd = sigeval.sampled_mean, sigeval.sampled_paired_difference
GOOD_ROWS = [[1, 1, 1], [1, 0, 1], [0, 0, 1], [0, 0, 0]]
ARRAY_HOSTILE: list[tuple[str, Any]] = [
    ("text", [["1", "0"], ["0", "1"]]), ("complex", [[1j, 0], [0, 1]]), ("None", None), ("scalar", 0.5),
    ("1-D", [1, 0, 1]), ("3-D", [[[1, 0]], [[0, 1]]]), ("empty list", []), ("[[]]", [[]]),
    ("shape (0, 3)", np.empty((0, 3))), ("ragged", [[1, 0, 1], [1, 0]]), ("one question", [[1, 0, 1]]),
    ("all-NaN row", [[1, 0], [NAN, NAN], [0, 1]]), ("inf", [[1, INF], [0, 1]]), ("-inf", [[1, -INF], [0, 1]]),
    ("object floats", np.array([[1.0, 0.0], [0.0, 1.0]], dtype=object)),
    ("object mixed", np.array([[1.0, "a"], [0.0, 1.0]], dtype=object)), ("2**70 + 1", [[2**70 + 1, 0], [0, 1]]),
    ("constant", [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5]]), ("equal question means", [[1, 0], [0, 1], [1, 0]]),
    ("string scalar", "scores"), ("dict", {"a": [1, 0]}),
]


def _sm_cases() -> None:
    case(SM, "valid", lambda: _sm(GOOD_ROWS), "value", check=sampled_mean_check(GOOD_ROWS))
    for lab, v in ARRAY_HOSTILE:
        case(SM, f"scores={lab}", lambda v=v: _sm(v), names=("`scores`",))
    bools = [[True, True], [True, False], [False, False]]
    case(SM, "booleans", lambda: _sm(bools), "value", check=sampled_mean_check([[1, 1], [1, 0], [0, 0]]))
    padded = [[1, 0, NAN], [1, 1, 1], [0, NAN, NAN], [0, 0, 1]]
    case(SM, "NaN padding", lambda: _sm(padded), "value", check=sampled_mean_check(padded))
    one = [[0.2], [0.7], [0.4]]
    case(SM, "one sample per question", lambda: _sm(one), "value",
         check=lambda r: (sampled_mean_check(one)(r), r.variance_within is None or _fail("variance_within not None")))
    two = [[0.1, 0.3], [0.9, 0.2]]
    case(SM, "two questions", lambda: _sm(two), "value", check=sampled_mean_check(two))
    neg0 = [[-0.0, 1.0], [0.0, 0.0], [1.0, 1.0]]
    case(SM, "-0.0 scores", lambda: _sm(neg0), "value", check=sampled_mean_check(neg0))
    tiny = [[1e-300, 3e-300], [2e-300, 0.0], [5e-300, 1e-300]]
    case(SM, "1e-300 scores", lambda: _sm(tiny), "value", check=sampled_mean_check(tiny))
    for lab, rows in [("1e308 scores", [[1e308, 1e308], [0.0, 1e308], [1e308, 0.0]]),
                      ("±1e200 within a question", [[1e200, -1e200], [1.0, 0.0], [0.0, 1.0]]),
                      ("1e154 scores", [[1e154, -1e154], [3e154, 0.0], [0.0, 1e154]]),
                      ("offset 1e9 + spread of 1 (relative 1e-9)", [[1e9, 1e9 + 1], [1e9 + 2, 1e9], [1e9, 1e9 + 0.5]])]:
        case(SM, lab, lambda rows=rows: _sm(rows), "either", ("`scores`",),
             check=lambda r, rows=rows: sampled_mean_check(rows)(r))
    frame = pd.DataFrame(padded)
    case(SM, "a DataFrame with NaN padding", lambda: _sm(frame), "value", check=sampled_mean_check(padded))
    big = np.random.default_rng(0).integers(0, 2, size=(2000, 2000)).astype(float)
    case(SM, "2000 x 2000 (memory)", lambda: _sm(big), "value",
         check=lambda r: close(r.estimate, float(big.mean()), rel=1e-12))
    grp = ["a", "a", "b", "b"]
    case(SM, "groups valid", lambda: _sm(GOOD_ROWS, groups=grp), "value", check=sampled_mean_check(GOOD_ROWS, grp))
    case(SM, "integer groups", lambda: _sm(GOOD_ROWS, groups=[0, 0, 1, 1]), "value",
         check=sampled_mean_check(GOOD_ROWS, grp))
    for lab, g in [("NaN", [NAN, 1.0, 2.0, 2.0]), ("None in object", [None, "a", "b", "b"]),
                   ("NaN in object", np.array([NAN, "a", "b", "b"], dtype=object)),
                   ("pd.NA", pd.array(["a", pd.NA, "b", "b"], dtype="string")), ("None labels all", [None] * 4)]:
        # A missing group label is refused, as a float NaN is: never a group of its own.
        case(SM, f"groups={lab}", lambda g=g: _sm(GOOD_ROWS, groups=g), names=("`groups`",))
    for lab, g in [("mixed 1 and '1'", [1, "1", 2, "2"]), ("wrong length", ["a", "b"]), ("one group", ["a"] * 4),
                   ("2-D", [["a", "b"], ["a", "b"]]), ("scalar", "a"),
                   ("booleans", [True, True, False, False]), ("complex", [1j, 1j, 2, 2]),
                   ("unhashable dicts", np.array([{}, {}, {"a": 1}, {"a": 1}], dtype=object))]:
        case(SM, f"groups={lab}", lambda g=g: _sm(GOOD_ROWS, groups=g), "either", ("`groups`",),
             check=sampled_mean_check(GOOD_ROWS, [str(x) for x in np.asarray(g, dtype=object).ravel()]
                                      if np.asarray(g, dtype=object).shape == (4,) else None))
    for lab, v in SCALAR_HOSTILE:
        case(SM, f"confidence_level={lab}", lambda v=v: _sm(GOOD_ROWS, confidence_level=v), names="`confidence_level`")
    case(SM, "confidence_level=1 - 1e-16", lambda: _sm(GOOD_ROWS, confidence_level=1 - 1e-16), "either",
         ("`confidence_level`",), check=lambda r: all_finite(r))

    # paired difference
    a = [[1, 1], [1, 0], [1, 1], [0, 0], [1, 0]]
    b = [[1, 0], [0, 0], [1, 1], [0, 0], [0, 0]]

    def sd_check(a: list, b: list, groups: list | None = None) -> Callable[[Any], None]:
        def check(res: Any) -> None:
            ma = [np.nanmean(r) for r in np.asarray(a, float)]
            mb = [np.nanmean(r) for r in np.asarray(b, float)]
            d = [x - y for x, y in zip(ma, mb)]
            close(res.estimate, math.fsum(d) / len(d), abs_=1e-15, what="estimate")
            close(res.standard_error, cr1(d, groups if groups is not None else list(range(len(d)))), what="se")
            va = np.asarray(a, float)
            vb = np.asarray(b, float)
            va, vb = va[~np.isnan(va)], vb[~np.isnan(vb)]
            close(res.standard_error_naive, math.sqrt(va.var(ddof=1) / va.size + vb.var(ddof=1) / vb.size),
                  what="naive")
            all_finite(res, allow=("design_effect",))
        return check

    case(SD, "valid", lambda: _sd(a, b), "value", check=sd_check(a, b))
    for lab, v in ARRAY_HOSTILE:
        if lab in ("constant", "equal question means"):
            continue
        case(SD, f"scores_a={lab}", lambda v=v: _sd(v, b), names=("`scores_a`",))
        case(SD, f"scores_b={lab}", lambda v=v: _sd(a, v), names=("`scores_b`",))
    case(SD, "different numbers of questions", lambda: _sd(a, b[:4]), names=("`scores_a`",))
    case(SD, "different samples per question", lambda: _sd(a, [[1, 0, 1], [0, 0, 0], [1, 1, 1], [0, 1, 0], [0, 0, 0]]),
         "value", check=sd_check(a, [[1, 0, 1], [0, 0, 0], [1, 1, 1], [0, 1, 0], [0, 0, 0]]))
    case(SD, "identical models", lambda: _sd(a, a), names=("`scores_a`",))
    case(SD, "constant both", lambda: _sd([[0.5, 0.5]] * 3, [[0.2, 0.2]] * 3), names=("`scores_a`",))
    case(SD, "1e308 vs -1e308", lambda: _sd([[1e308, 1e308], [1e308, 0]], [[-1e308, -1e308], [0, 0]]),
         names=("`scores_a`",))
    case(SD, "±1e200 within", lambda: _sd([[1e200, -1e200], [1, 0], [0, 1]], [[0, 0], [0, 1], [1, 1]]), "either",
         ("`scores_a`",), check=sd_check([[1e200, -1e200], [1, 0], [0, 1]], [[0, 0], [0, 1], [1, 1]]))
    case(SD, "one sample each (no within)", lambda: _sd([[1], [0], [1]], [[0], [0], [1]]), "value",
         check=sd_check([[1], [0], [1]], [[0], [0], [1]]))
    case(SD, "groups", lambda: _sd(a, b, groups=[1, 1, 2, 2, 3]), "value", check=sd_check(a, b, [1, 1, 2, 2, 3]))
    case(SD, "groups with None", lambda: _sd(a, b, groups=[None, 1, 2, 2, 3]), names=("`groups`",))
    case(SD, "groups with NaN (object)", lambda: _sd(a, b, groups=np.array([NAN, "x", "y", "y", "z"], dtype=object)),
         names=("`groups`",))
    for lab, v in SCALAR_HOSTILE:
        case(SD, f"confidence_level={lab}", lambda v=v: _sd(a, b, confidence_level=v), names="`confidence_level`")


def _fail(msg: str) -> None:
    raise AssertionError(msg)


# --------------------------------------------------------------------------- cases: questions_needed

QN = "questions_needed"
_qn = sigeval.questions_needed


def qn_exact(vb: float, vw: float, se: float, k: int) -> int:
    v = (Fraction(vb) + Fraction(vw) / k) / (Fraction(se) ** 2)
    # The function's documented slack: a ratio whole up to a relative 1e-12 counts as whole.
    return max(1, math.ceil(v * (1 - Fraction(1, 10**12))))


def _qn_cases() -> None:
    case(QN, "valid", lambda: _qn(0.15, 0.10, target_standard_error=0.01, n_samples=[1, 4, 16, 1000]), "value",
         check=lambda r: [close(g, w) for g, w in zip(r, [2500, 1750, 1563, 1501])])
    for name in ("variance_between", "variance_within", "target_standard_error"):
        for lab, v in SCALAR_HOSTILE + [("-1", -1.0), ("np.array(0.1)", np.array(0.1))]:
            args = dict(variance_between=0.15, variance_within=0.10, target_standard_error=0.01, n_samples=4)
            args[name] = v
            expect = "error"
            if lab in ("-0.0",) and name != "target_standard_error":
                expect = "value"
            if lab == "np.array(0.1)":
                expect = "either"
            if lab in ("1e308", "2**70") and name == "target_standard_error":
                expect = "value"
            a = dict(args)

            def chk(r: Any, a: dict = a) -> None:
                want = qn_exact(float(a["variance_between"]), float(a["variance_within"]),
                                float(a["target_standard_error"]), a["n_samples"])
                if int(r) != want:
                    raise AssertionError(f"{int(r)} questions, expected {want}")

            case(QN, f"{name}={lab}", lambda a=a: _qn(a["variance_between"], a["variance_within"],
                                                      target_standard_error=a["target_standard_error"],
                                                      n_samples=a["n_samples"]), expect, f"`{name}`", check=chk)
    for lab, v in [("text", "4"), ("complex", 4j), ("None", None), ("nan", NAN), ("inf", INF), ("1e308", 1e308),
                   ("True", True), ("2**70", 2**70), ("0", 0), ("-1", -1), ("2.5", 2.5), ("empty", []),
                   ("ragged", [[1, 2], [3]]), ("object strings", np.array(["a"], dtype=object))]:
        case(QN, f"n_samples={lab}", lambda v=v: _qn(0.15, 0.1, target_standard_error=0.01, n_samples=v),
             names="`n_samples`")
    case(QN, "n_samples nested 2-D", lambda: _qn(0.15, 0.1, target_standard_error=0.01, n_samples=[[1, 4], [16, 1000]]),
         "value", check=lambda r: [close(g, w) for g, w in zip(np.ravel(r), [2500, 1750, 1563, 1501])])
    case(QN, "n_samples=2**53", lambda: _qn(0.15, 0.1, target_standard_error=0.01, n_samples=2**53), "value",
         check=lambda r: close(r, qn_exact(0.15, 0.1, 0.01, 2**53)))
    case(QN, "n_samples=-0.0", lambda: _qn(0.15, 0.1, target_standard_error=0.01, n_samples=-0.0), names="`n_samples`")
    case(QN, "n_samples=4.0 float", lambda: _qn(0.15, 0.1, target_standard_error=0.01, n_samples=4.0), "value",
         check=lambda r: close(r, 1750))
    case(QN, "both variances 0", lambda: _qn(0, 0, target_standard_error=0.01), names="`variance_between`")
    case(QN, "target_standard_error=1e-300 (too many questions)",
         lambda: _qn(0.15, 0.1, target_standard_error=1e-300), names="`target_standard_error`")
    case(QN, "target_standard_error=1e-160 (square underflows)",
         lambda: _qn(0.15, 0.1, target_standard_error=1e-160), names="`target_standard_error`")
    case(QN, "target_standard_error=1e200 (square overflows)", lambda: _qn(0.15, 0.1, target_standard_error=1e200),
         "value", check=lambda r: close(r, 1))
    case(QN, "variances 1e308, se 1", lambda: _qn(1e308, 1e308, target_standard_error=1.0), names="`target_standard_error`")
    case(QN, "variances 1e-300, se 1e-150", lambda: _qn(1e-300, 1e-300, target_standard_error=1e-150), "value",
         check=lambda r: close(r, qn_exact(1e-300, 1e-300, 1e-150, 1)))
    case(QN, "exact whole ratio", lambda: _qn(0.25, 0.0, target_standard_error=0.05), "value", check=lambda r: close(r, 100))
    case(QN, "just above a whole ratio", lambda: _qn(0.25 * (1 + 1e-9), 0.0, target_standard_error=0.05), "value",
         check=lambda r: close(r, 101))
    case(QN, "huge n_samples array (memory)", lambda: _qn(0.15, 0.1, target_standard_error=0.01,
                                                           n_samples=np.arange(1, 10**7)), "value",
         check=lambda r: close(r[0], 2500))


# --------------------------------------------------------------------------- cases: metrics (axis=0)

RA, AP, RS = "roc_auc", "average_precision", "ratio_of_sums"
_ra, _ap, _rs = sigeval.roc_auc, sigeval.average_precision, sigeval.ratio_of_sums
VEC_HOSTILE: list[tuple[str, Any]] = [
    ("text", ["1", "0", "1"]), ("complex", [1j, 0, 1]), ("None", None), ("scalar", 1.0), ("empty", []),
    ("ragged", [[1, 0], [1]]), ("nested 2-D", [[1, 0], [0, 1]]), ("object mixed", np.array([1.0, "a", 1.0], dtype=object)),
    ("2**70 + 1", [2**70 + 1, 0, 1]), ("dict", {"a": 1}), ("string scalar", "abc"),
]


def _metric_cases() -> None:
    y, s = [1, 1, 0, 0, 0], [0.9, 0.4, 0.4, 0.2, 0.1]
    case(RA, "valid (tie)", lambda: _ra(y, s), "value", check=lambda r: close(r, auc_brute(y, s)))
    for lab, v in VEC_HOSTILE:
        case(RA, f"labels={lab}", lambda v=v: _ra(v, [0.1, 0.2, 0.3]), names=("`labels`", "`scores`"))
        case(RA, f"scores={lab}", lambda v=v: _ra([1, 0, 1], v), names=("`scores`", "`labels`"))
    # Object arrays of real numbers are numbers (issue 24): the same answer as the float arrays.
    case(RA, "object floats", lambda: _ra(np.array([1.0, 0.0, 1.0], dtype=object),
                                          np.array([0.9, 0.2, 0.3], dtype=object)), "value",
         check=lambda r: close(r, 1.0))
    case(RS, "object floats", lambda: _rs(np.array([1.0, 2.0], dtype=object), np.array([3.0, 3.0], dtype=object)),
         "value", check=lambda r: close(r, 0.5))
    case(RA, "labels 2", lambda: _ra([2, 0, 1], [0.1, 0.2, 0.3]), names="`labels`")
    case(RA, "labels -1", lambda: _ra([-1, 0, 1], [0.1, 0.2, 0.3]), names="`labels`")
    case(RA, "labels 0.5", lambda: _ra([0.5, 0, 1], [0.1, 0.2, 0.3]), names="`labels`")
    case(RA, "labels booleans", lambda: _ra([True, False, True], [0.9, 0.2, 0.3]), "value",
         check=lambda r: close(r, 1.0))
    case(RA, "labels -0.0", lambda: _ra([-0.0, 1.0, 1.0], [0.1, 0.2, 0.3]), "value", check=lambda r: close(r, 1.0))
    case(RA, "scores booleans", lambda: _ra([1, 0, 1], [True, False, False]), "either", ("`scores`",),
         check=lambda r: close(r, 0.75))
    case(RA, "NaN label with a score", lambda: _ra([NAN, 0, 1], [0.1, 0.2, 0.3]), names=("`labels`",))
    case(RA, "NaN score with a label", lambda: _ra([1, 0, 1], [NAN, 0.2, 0.3]), names=("`scores`",))
    case(RA, "NaN in both at one position (axis=0)", lambda: _ra([NAN, 0, 1, 0], [NAN, 0.2, 0.3, 0.1]),
         names=("`labels`", "`scores`"))
    case(RA, "all NaN", lambda: _ra([NAN, NAN], [NAN, NAN]), names=("`labels`", "`scores`"))
    case(RA, "inf score", lambda: _ra([1, 0, 1], [INF, 0.2, 0.3]), names="`scores`")
    case(RA, "-inf score", lambda: _ra([1, 0, 1], [-INF, 0.2, 0.3]), names="`scores`")
    case(RA, "±1e308 scores", lambda: _ra([1, 0, 1, 0], [1e308, -1e308, 1.7e308, 1e308]), "value",
         check=lambda r: close(r, auc_brute([1, 0, 1, 0], [1e308, -1e308, 1.7e308, 1e308])))
    case(RA, "tiny differences 5e-324", lambda: _ra([1, 0], [5e-324, 0.0]), "value", check=lambda r: close(r, 1.0))
    case(RA, "-0.0 vs 0.0 scores tie", lambda: _ra([1, 0], [-0.0, 0.0]), "value", check=lambda r: close(r, 0.5))
    case(RA, "constant scores", lambda: _ra([1, 0, 1, 0, 0], [0.3] * 5), "value", check=lambda r: close(r, 0.5))
    case(RA, "all one class", lambda: _ra([1, 1, 1], [0.1, 0.2, 0.3]), names="`labels`")
    case(RA, "one item", lambda: _ra([1], [0.3]), names="`labels`")
    case(RA, "empty both", lambda: _ra([], []), names=("`labels`", "`scores`"))
    case(RA, "length mismatch", lambda: _ra([1, 0, 1], [0.1, 0.2]), names=("`labels`", "`scores`"))
    case(RA, "0-d arrays", lambda: _ra(1, 0.5), names=("`labels`",))
    case(RA, "axis=2", lambda: _ra(y, s, axis=2), names="`axis`")
    case(RA, "axis=True", lambda: _ra(y, s, axis=True), names="`axis`")
    case(RA, "axis=None", lambda: _ra(y, s, axis=None), names="`axis`")
    case(RA, "axis=-1", lambda: _ra(y, s, axis=-1), names="`axis`")
    rng = np.random.default_rng(0)
    yy = rng.integers(0, 2, 300)
    ss = np.round(rng.normal(size=300) + yy, 1)
    case(RA, "300 items with ties (brute force)", lambda: _ra(yy, ss), "value",
         check=lambda r: close(r, auc_brute(yy.tolist(), ss.tolist()), rel=1e-12))
    from sklearn.metrics import roc_auc_score
    case(RA, "300 items vs sklearn", lambda: _ra(yy.astype(bool), ss), "value",
         check=lambda r: close(r, roc_auc_score(yy, ss), rel=1e-12))
    big_y = np.tile([0, 1], 5 * 10**6)
    big_s = np.tile([0.2, 0.7], 5 * 10**6)
    case(RA, "10**7 items (memory)", lambda: _ra(big_y, big_s), "value", check=lambda r: close(r, 1.0))
    case(RA, "pandas Series input", lambda: _ra(pd.Series(y), pd.Series(s)), "value",
         check=lambda r: close(r, auc_brute(y, s)))
    case(RA, "nullable Int64 labels with NA", lambda: _ra(pd.array([1, 0, pd.NA], dtype="Int64"), [0.3, 0.2, 0.1]),
         names=("`labels`",))

    # average_precision
    sc = [[0.9, 0.3], [0.8, NAN]]
    tp = [[1, 0], [1, 0]]
    case(AP, "valid", lambda: _ap(sc, tp, [1, 2]), "value", check=lambda r: close(r, ap_brute(sc, tp, [1, 2])))
    for lab, v in VEC_HOSTILE:
        if lab == "nested 2-D":
            continue
        # A scalar with axis=0 once got "must have a leading resample axis ... call with axis=0".
        case(AP, f"scores={lab}", lambda v=v: _ap(v, tp, [1, 2]),
             names=("`scores` must hold one value per item",) if lab == "scalar" else ("`scores`",))
        case(AP, f"is_true_positive={lab}", lambda v=v: _ap(sc, v, [1, 2]), names=("`is_true_positive`",))
        case(AP, f"n_positives={lab}", lambda v=v: _ap(sc, tp, v), names=("`n_positives`",))
    for lab, npos in [("NaN", [NAN, 2]), ("inf", [INF, 2]), ("negative", [-1, 4]), ("non-whole", [1.5, 2]),
                      ("1e308", [1e308, 2])]:
        case(AP, f"n_positives {lab}", lambda npos=npos: _ap(sc, tp, npos), "either" if lab == "1e308" else "error",
             ("`n_positives`",),
             check=lambda r, npos=npos: close(r, ap_brute(sc, tp, npos)))
    case(AP, "n_positives booleans", lambda: _ap(sc, tp, [True, True]), "either", ("`n_positives`",),
         check=lambda r: close(r, ap_brute(sc, tp, [1, 1])))
    case(AP, "n_positives -0.0", lambda: _ap([[0.9], [0.8]], [[1], [0]], [1, -0.0]), "value",
         check=lambda r: close(r, 1.0))
    case(AP, "is_true_positive 2", lambda: _ap(sc, [[2, 0], [1, 0]], [1, 2]), names="`is_true_positive`")
    case(AP, "is_true_positive NaN at a detection", lambda: _ap(sc, [[NAN, 0], [1, 0]], [1, 2]),
         names="`is_true_positive`")
    case(AP, "is_true_positive booleans", lambda: _ap(sc, [[True, False], [True, False]], [1, 2]), "value",
         check=lambda r: close(r, ap_brute(sc, tp, [1, 2])))
    case(AP, "more hits than objects", lambda: _ap(sc, [[1, 1], [1, 0]], [1, 1]), names=("`is_true_positive`",))
    case(AP, "inf score", lambda: _ap([[INF, 0.3], [0.8, NAN]], tp, [1, 2]), "either", ("`scores`",),
         check=lambda r: close(r, ap_brute([[INF, 0.3], [0.8, NAN]], tp, [1, 2])))
    case(AP, "-inf score", lambda: _ap([[-INF, 0.3], [0.8, NAN]], tp, [1, 2]), "either", ("`scores`",),
         check=lambda r: close(r, ap_brute([[-INF, 0.3], [0.8, NAN]], tp, [1, 2])))
    case(AP, "1e308 scores", lambda: _ap([[1e308, -1e308], [1.5e308, NAN]], tp, [1, 2]), "value",
         check=lambda r: close(r, ap_brute([[1e308, -1e308], [1.5e308, NAN]], tp, [1, 2])))
    case(AP, "no detections (all NaN)", lambda: _ap([[NAN, NAN]], [[0, 0]], [2]), "value", check=lambda r: close(r, 0.0))
    case(AP, "no objects", lambda: _ap([[0.9]], [[0]], [0]), names=("`n_positives`",))
    case(AP, "constant scores", lambda: _ap([[0.5, 0.5], [0.5, 0.5]], [[0, 1], [1, 0]], [1, 1]), "value",
         check=lambda r: close(r, ap_brute([[0.5, 0.5], [0.5, 0.5]], [[0, 1], [1, 0]], [1, 1])))
    case(AP, "one image, one detection", lambda: _ap([[0.4]], [[1]], [1]), "value", check=lambda r: close(r, 1.0))
    case(AP, "1-D scores (one detection per image)", lambda: _ap([0.9, 0.2, 0.5], [1, 0, 1], [1, 1, 1]), "either",
         ("`scores`",), check=lambda r: close(r, ap_brute([[0.9], [0.2], [0.5]], [[1], [0], [1]], [1, 1, 1])))
    case(AP, "0-d scores", lambda: _ap(0.9, 1, 1), names=("`scores` must hold one value per item",))
    case(AP, "shape mismatch tp", lambda: _ap(sc, [[1, 0]], [1, 2]), names="`is_true_positive`")
    case(AP, "shape mismatch n_positives", lambda: _ap(sc, tp, [1, 2, 3]), names="`n_positives`")
    case(AP, "empty images", lambda: _ap(np.empty((0, 3)), np.empty((0, 3)), []), names=("`n_positives`", "`scores`"))
    rng = np.random.default_rng(1)
    bs = np.where(rng.random((40, 5)) < 0.2, NAN, np.round(rng.random((40, 5)), 2))
    bt = (rng.random((40, 5)) < 0.5) & ~np.isnan(bs)
    bn = bt.sum(axis=1) + rng.integers(0, 2, 40)
    case(AP, "40 images (brute force)", lambda: _ap(bs, bt, bn), "value",
         check=lambda r: close(r, ap_brute(bs.tolist(), bt.astype(int).tolist(), bn.tolist()), rel=1e-12))
    hs = np.random.default_rng(2).random((10**6, 4))
    case(AP, "10**6 x 4 detections (memory)", lambda: _ap(hs, hs > 0.5, np.full(10**6, 4)), "value",
         check=lambda r: all_finite(r))

    # ratio_of_sums
    case(RS, "valid", lambda: _rs([30.0, 5.0], [40.0, 20.0]), "value", check=lambda r: close(r, 35 / 60))
    for lab, v in VEC_HOSTILE:
        if lab == "nested 2-D":
            continue
        if lab == "scalar":
            case(RS, "numerator=scalar", lambda v=v: _rs(v, [1.0, 2.0, 3.0]),
                 names=("`numerator` must hold one value per item",))
            case(RS, "denominator=scalar", lambda v=v: _rs([1.0, 2.0, 3.0], v),
                 names=("`denominator` must hold one value per item",))
            continue
        case(RS, f"numerator={lab}", lambda v=v: _rs(v, [1.0, 2.0, 3.0]), names=("`numerator`", "`denominator`"))
        case(RS, f"denominator={lab}", lambda v=v: _rs([1.0, 2.0, 3.0], v), names=("`denominator`", "`numerator`"))
    case(RS, "nested 2-D (items x classes)", lambda: _rs([[1, 2], [3, 4]], [[2, 2], [4, 4]]), "value",
         check=lambda r: close(r, 10 / 12))
    case(RS, "NaN in numerator", lambda: _rs([1.0, NAN], [2.0, 4.0]), names="`numerator`")
    case(RS, "NaN in denominator", lambda: _rs([1.0, 3.0], [2.0, NAN]), names="`denominator`")
    case(RS, "inf in numerator", lambda: _rs([INF, 1.0], [1.0, 1.0]), names="`numerator`")
    case(RS, "inf in denominator", lambda: _rs([1.0, 1.0], [INF, 1.0]), names="`denominator`")
    case(RS, "sums overflow (1e308 + 1e308)", lambda: _rs([1e308, 1e308], [1e308, 1e308]), "either",
         ("`numerator`", "`denominator`"), check=lambda r: close(r, 1.0))
    case(RS, "1e308 / 1e308 single", lambda: _rs([1e308], [1e308]), "value", check=lambda r: close(r, 1.0))
    case(RS, "zero denominator", lambda: _rs([1.0, 2.0], [0.0, 0.0]), names="`denominator`")
    case(RS, "denominator sums to zero (±)", lambda: _rs([1.0, 2.0], [1.0, -1.0]), names="`denominator`")
    case(RS, "-0.0 denominator", lambda: _rs([1.0], [-0.0]), names="`denominator`")
    case(RS, "0 / 0", lambda: _rs([0.0, 0.0], [0.0, 0.0]), names="`denominator`")
    case(RS, "booleans", lambda: _rs([True, False, True], [True, True, True]), "value", check=lambda r: close(r, 2 / 3))
    case(RS, "one item", lambda: _rs([1.0], [4.0]), "value", check=lambda r: close(r, 0.25))
    case(RS, "0-d scalars", lambda: _rs(1.0, 4.0), "either", ("`numerator` must hold one value per item",),
         check=lambda r: close(r, 0.25))
    case(RS, "empty", lambda: _rs([], []), names=("`numerator`", "`denominator`"))
    case(RS, "shape mismatch", lambda: _rs([1.0, 2.0], [1.0, 2.0, 3.0]), names=("`numerator`", "`denominator`"))
    case(RS, "subnormal", lambda: _rs([5e-324, 5e-324], [1e-323, 1e-323]), "value", check=lambda r: close(r, 0.5))
    case(RS, "large ints beyond 2**53", lambda: _rs(np.array([2**62, 1], dtype=np.int64), np.array([2**62, 1])),
         "value", check=lambda r: close(r, 1.0))
    case(RS, "10**7 items (memory)", lambda: _rs(np.ones(10**7), np.full(10**7, 2.0)), "value",
         check=lambda r: close(r, 0.5))
    case(RS, "axis='0'", lambda: _rs([1.0], [2.0], axis="0"), names="`axis`")


# --------------------------------------------------------------------------- cases: Report.rank_stability, cd_diagram

RK, CD = "Report.rank_stability", "plots.cd_diagram"


def runs_table(n_tasks: int = 5, models: tuple = ("A", "B", "C"), n_seeds: int = 3, seed: int = 0,
               offsets: tuple | None = None) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    offsets = offsets or tuple(0.02 * i for i in range(len(models)))
    rows = [(t, m, s, 0.7 + off + 0.01 * rng.standard_normal())
            for t in range(n_tasks) for m, off in zip(models, offsets) for s in range(n_seeds)]
    return pd.DataFrame(rows, columns=["task", "model", "seed", "score"])


def rank_check(table: pd.DataFrame, higher_is_better: bool = True) -> Callable[[Any], None]:
    def check(res: Any) -> None:
        means = table.groupby(["task", "model"], sort=False)["score"].mean().unstack()
        means = means[list(dict.fromkeys(table["model"]))]
        ranks = means.rank(axis=1, ascending=not higher_is_better).to_numpy()
        n = ranks.shape[0]
        jack = (ranks.mean(axis=0)[None, :] - ranks) / (n - 1)
        if not np.allclose(res.jackknife.to_numpy(), jack, rtol=0, atol=1e-12):
            raise AssertionError("jackknife differs from the direct computation")
        if not 0 <= res.order_stability <= 1:
            raise AssertionError(f"order_stability {res.order_stability}")
        sep = res.separation.to_numpy()
        if not (np.all((sep >= 0) & (sep <= 1)) and np.allclose(sep, sep.T)):
            raise AssertionError("separation not a symmetric matrix of fractions")
    return check


def _report_cases() -> None:
    R = sigeval.Report
    t = runs_table()
    case(RK, "valid n_resamples=200", lambda: R(t).rank_stability(n_resamples=200, rng=0), "value", check=rank_check(t))
    clear = runs_table(offsets=(0.3, 0.2, 0.1))
    case(RK, "clear order gives order_stability 1", lambda: R(clear).rank_stability(n_resamples=200, rng=0), "value",
         check=lambda r: (rank_check(clear)(r), close(r.order_stability, 1.0)))
    for lab, v in SCALAR_HOSTILE + [("0", 0), ("-1", -1), ("10**10", 10**10), ("np.float64(5)", np.float64(5))]:
        if lab == "None":
            continue
        case(RK, f"n_resamples={lab}", lambda v=v: R(t).rank_stability(n_resamples=v, rng=0), names="`n_resamples`")
    case(RK, "n_resamples=None (default 10,000)", lambda: R(t).rank_stability(n_resamples=None, rng=0), "value",
         check=rank_check(t))
    case(RK, "n_resamples=1", lambda: R(t).rank_stability(n_resamples=1, rng=0), "value", check=rank_check(t))
    case(RK, "n_resamples=np.int64(50)", lambda: R(t).rank_stability(n_resamples=np.int64(50), rng=0), "value",
         check=rank_check(t))
    case(RK, "n_boot and n_resamples both", lambda: R(t).rank_stability(50, n_resamples=50), names=("`n_resamples`",))
    for lab, v in SCALAR_HOSTILE:
        case(RK, f"alpha={lab}", lambda v=v: R(t).rank_stability(n_resamples=50, alpha=v, rng=0), names="`alpha`")
    for lab, v in [("text", "0"), ("-1", -1), ("1.5", 1.5), ("True", True)]:
        case(RK, f"rng={lab}", lambda v=v: R(t).rank_stability(n_resamples=50, rng=v), names="`rng`")
    case(RK, "one task", lambda: R(runs_table(n_tasks=1)).rank_stability(n_resamples=50, rng=0), names=("task",))
    case(RK, "two tasks, two models", lambda: R(runs_table(2, ("A", "B"))).rank_stability(n_resamples=50, rng=0),
         "value", check=rank_check(runs_table(2, ("A", "B"))))
    const = runs_table().assign(score=0.5)
    case(RK, "constant scores (all ties)", lambda: R(const).rank_stability(n_resamples=50, rng=0), "value",
         check=lambda r: (rank_check(const)(r), close(r.order_stability, 1.0)))
    case(RK, "lower is better", lambda: R(t, higher_is_better=False).rank_stability(n_resamples=50, rng=0), "value",
         check=rank_check(t, higher_is_better=False))
    odd = runs_table(models=(0, "0", 1.5), offsets=(0.0, 0.1, 0.2))
    case(RK, "model labels 0, '0', 1.5", lambda: R(odd).rank_stability(n_resamples=50, rng=0), "either",
         ("model",), check=lambda r: close(float(r.jackknife.shape[1]), 3.0))
    nan_model = runs_table(models=("A", NAN, "C"))
    case(RK, "a NaN model label", lambda: R(nan_model).rank_stability(n_resamples=50, rng=0), names=("model", "empty"))
    tup = runs_table(models=(("a", 1), ("b", 2), ("c", 3)))
    case(RK, "tuple model labels", lambda: R(tup).rank_stability(n_resamples=50, rng=0), "either", ("model",),
         check=lambda r: close(float(r.separation.shape[0]), 3.0))
    mi = runs_table().copy()
    mi.columns = pd.MultiIndex.from_tuples([("k", "task"), ("k", "model"), ("k", "seed"), ("v", "score")])
    case(RK, "MultiIndex columns", lambda: R(mi).rank_stability(n_resamples=50, rng=0), names=("`task`", "column"))
    case(RK, "MultiIndex columns named by tuples", lambda: R(mi, task=("k", "task"), model=("k", "model"),
                                                             seed=("k", "seed"), score=("v", "score"))
         .rank_stability(n_resamples=50, rng=0), "either", ("`task`",), check=rank_check(runs_table()))
    dup = runs_table().copy()
    dup.columns = ["task", "model", "score", "score"]
    case(RK, "duplicated column names", lambda: R(dup).rank_stability(n_resamples=50, rng=0),
         names=("`seed`", "`score`", "'score'"))
    num = runs_table().copy()
    num.columns = [0, 1, 2, 3]
    case(RK, "integer column names", lambda: R(num, task=0, model=1, seed=2, score=3)
         .rank_stability(n_resamples=50, rng=0), "value", check=rank_check(runs_table()))
    nan_task = runs_table().astype({"task": object})
    nan_task.loc[0, "task"] = NAN
    case(RK, "NaN task label", lambda: R(nan_task).rank_stability(n_resamples=50, rng=0), names=("task",))
    big_score = runs_table().assign(score=lambda d: d.score * 1e299)
    case(RK, "scores ~7e298", lambda: R(big_score).rank_stability(n_resamples=50, rng=0), "value",
         check=rank_check(big_score))
    failed = runs_table().astype({"score": float})
    failed.loc[4, "score"] = NAN
    case(RK, "a failed run, failed='drop-pairs'", lambda: R(failed, failed="drop-pairs").rank_stability(
        n_resamples=50, rng=0), "value", check=lambda r: all_finite(r.jackknife))
    case(RK, "a failed run, failed='raise'", lambda: R(failed).rank_stability(n_resamples=50, rng=0),
         names=("NaN",))
    all_failed = runs_table().astype({"score": float})
    all_failed.loc[(all_failed.task == 0) & (all_failed.model == "B"), "score"] = NAN
    case(RK, "a model failing every seed of a task, drop-pairs", lambda: R(all_failed, failed="drop-pairs")
         .rank_stability(n_resamples=50, rng=0), "either", ("task", "model", "NaN"),
         check=lambda r: all_finite(r.jackknife))
    case(RK, "higher_is_better='yes'", lambda: R(t, higher_is_better="yes").rank_stability(n_resamples=50, rng=0),
         names=("`higher_is_better`",))
    case(RK, "rng=Generator", lambda: R(t).rank_stability(n_resamples=50, rng=np.random.default_rng(1)), "value",
         check=rank_check(t))
    many = runs_table(n_tasks=3000, n_seeds=2)
    case(RK, "3000 tasks, default n_resamples (memory)", lambda: R(many).rank_stability(rng=0), "either",
         ("`n_resamples`",), check=lambda r: all_finite(r.jackknife))
    wide = runs_table(n_tasks=4, models=tuple(f"m{i}" for i in range(200)), n_seeds=2)
    case(RK, "200 models, 4 tasks (memory)", lambda: R(wide).rank_stability(n_resamples=2000, rng=0), "either",
         ("`n_resamples`",), check=lambda r: all_finite(r.jackknife))

    # cd_diagram with Report(...).friedman()
    def draw(result: Any, n_labels: int | None = None, **kw: Any) -> Any:
        fig, ax = plt.subplots(figsize=(6, 3))
        try:
            out = plots.cd_diagram(ax, result, **kw)
            fig.canvas.draw()
            if out is not ax:
                raise AssertionError("cd_diagram did not return its ax")
            labels = [tx.get_text() for tx in ax.texts if "(" in tx.get_text()]
            return labels
        finally:
            plt.close(fig)

    def labels_check(k: int) -> Callable[[Any], None]:
        def check(labels: Any) -> None:
            if len(labels) != k:
                raise AssertionError(f"{len(labels)} model labels drawn, expected {k}")
        return check

    case(CD, "valid Report.friedman()", lambda: draw(R(t).friedman()), "value", check=labels_check(3))
    case(CD, "its .result (FriedmanResult)", lambda: draw(R(t).friedman().result), "value", check=labels_check(3))
    case(CD, "two tasks two models", lambda: draw(R(runs_table(2, ("A", "B"))).friedman()), "value",
         check=labels_check(2))
    case(CD, "all ties", lambda: draw(R(const).friedman()), "value", check=labels_check(3))
    case(CD, "lower is better", lambda: draw(R(t, higher_is_better=False).friedman()), "value", check=labels_check(3))
    for lab, names in [("dollar signs", ("$x", "a$b$c", r"$\frac$")), ("empty string", ("", " ", "\n")),
                       ("ints and floats", (0, 1.5, -2)), ("tuples", (("a", 1), ("b", 2), ("c", 3))),
                       ("long names", ("x" * 300, "y" * 300, "z" * 300)), ("mixed 0 and '0'", (0, "0", "00")),
                       ("braces and percent", ("{}", "%s", "{0}")), ("bytes", (b"a", b"b", b"c")),
                       ("unicode", ("ρ", "ü", "\u202e"))]:
        tbl = runs_table(models=names)
        case(CD, f"model names: {lab}", lambda tbl=tbl: draw(R(tbl).friedman()), "either", ("model", "`result`"),
             check=labels_check(3))
    case(CD, "many models (60)", lambda: draw(R(runs_table(5, tuple(f"m{i}" for i in range(60)), 2)).friedman()),
         "value", check=labels_check(60))
    for lab, v in SCALAR_HOSTILE:
        if lab == "None":  # the default: the result's own alpha
            case(CD, "alpha=None", lambda: draw(R(t).friedman(), alpha=None), "value", check=labels_check(3))
            continue
        case(CD, f"alpha={lab}", lambda v=v: draw(R(t).friedman(), alpha=v), names="`alpha`")
    case(CD, "alpha=1e-300", lambda: draw(R(t).friedman(), alpha=1e-300), "either", ("`alpha`",), check=labels_check(3))
    case(CD, "alpha=0.999999", lambda: draw(R(t).friedman(), alpha=0.999999), "either", ("`alpha`",),
         check=labels_check(3))
    for lab, res in [("None", None), ("a dict", dict(R(t).friedman())), ("ReportRankStability",
                     R(t).rank_stability(n_resamples=10, rng=0)), ("text", "friedman"), ("ndarray", np.ones((3, 3))),
                     ("namespace with NaN rank", SimpleNamespace(mean_ranks=[1.0, NAN], models=["a", "b"], n_tasks=3)),
                     ("namespace n_tasks=0", SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a", "b"], n_tasks=0)),
                     ("namespace n_tasks='5'", SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a", "b"], n_tasks="5")),
                     ("namespace ranks text", SimpleNamespace(mean_ranks=["1", "2"], models=["a", "b"], n_tasks=3)),
                     ("namespace models=None", SimpleNamespace(mean_ranks=[1.0, 2.0], models=None, n_tasks=3)),
                     ("namespace ranks 2-D", SimpleNamespace(mean_ranks=[[1.0, 2.0]], models=["a", "b"], n_tasks=3)),
                     ("namespace rank 1e308", SimpleNamespace(mean_ranks=[1.0, 1e308], models=["a", "b"], n_tasks=3)),
                     ("namespace alpha=5", SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a", "b"], n_tasks=3,
                                                           alpha=5))]:
        case(CD, f"result={lab}", lambda res=res: draw(res), names=("`result", "`alpha`", "`n_tasks`", "`n_models`"))
    case(CD, "result: namespace n_tasks=2**70", lambda: draw(SimpleNamespace(mean_ranks=[1.0, 2.0], models=["a", "b"],
                                                                           n_tasks=2**70)), "either", ("`n_tasks`",),
         check=labels_check(2))
    for lab, ax in [("None", None), ("text", "ax"), ("a Figure", "figure")]:
        def call(ax: Any = ax) -> Any:
            if ax == "figure":
                ax = plt.figure()
            return plots.cd_diagram(ax, R(t).friedman())
        case(CD, f"ax={lab}", call, names="`ax`")


# --------------------------------------------------------------------------- the runner


def _child(c: Case, conn: Any, cap: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    out: dict[str, Any] = {}
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            value = c.call()
            out["kind"] = "return"
            try:
                if c.check is not None:
                    c.check(value)
                out["detail"] = _short(value)
            except AssertionError as err:
                out["kind"] = "wrong"
                out["detail"] = str(err)
            except Exception as err:  # a check that cannot even read the result
                out["kind"] = "wrong"
                out["detail"] = f"{type(err).__name__} reading the result: {err}"
        except MemoryError:
            out["kind"] = "memory"
            out["detail"] = "MemoryError"
        except BaseException as err:  # noqa: BLE001 - every outcome is classified
            frames = traceback.extract_tb(err.__traceback__)
            last = frames[-1] if frames else None
            out["kind"] = "raise"
            out["type"] = type(err).__name__
            out["is_value_or_type"] = isinstance(err, ValueError | TypeError)
            out["message"] = str(err)
            out["origin"] = f"{last.filename}:{last.lineno}" if last else "?"
            out["from_sigeval"] = bool(last and os.sep + "sigeval" + os.sep in last.filename)
    # A UserWarning that sigeval issues on purpose (a degenerate bootstrap, say) is part of the
    # answer; any other warning (numpy's overflow, pandas', matplotlib's) has leaked.
    own = [w for w in caught if issubclass(w.category, UserWarning) and not issubclass(w.category, RuntimeWarning)
           and os.sep + "sigeval" + os.sep in w.filename]
    out["warnings"] = [f"{w.category.__name__}: {w.message}" for w in caught if w not in own]
    out["own_warnings"] = [f"{w.category.__name__}: {w.message}" for w in own]
    conn.send(out)
    conn.close()


def _short(value: Any) -> str:
    text = repr(value) if not isinstance(value, pd.DataFrame) else f"DataFrame{value.shape}"
    return text if len(text) < 120 else text[:117] + "..."


def classify(c: Case, out: dict[str, Any]) -> tuple[bool, str]:
    if out.get("warnings"):
        return False, f"warning leaked: {out['warnings'][0]}" + (
            f" (then {out['kind']}: {out.get('message') or out.get('detail')})")
    kind = out["kind"]
    if kind == "return":
        if c.expect == "error":
            return False, f"returned instead of raising: {out['detail']}"
        note = f" (warned: {out['own_warnings'][0][:90]})" if out.get("own_warnings") else ""
        return True, f"returned {out['detail']}{note}"
    if kind == "wrong":
        return False, f"wrong result: {out['detail']}"
    if kind == "memory":
        return False, "MemoryError (the memory cap was reached)"
    if kind in ("timeout", "died"):
        return False, out["detail"]
    msg = out["message"].replace("\n", " ")
    if c.expect == "value":
        return False, f"raised {out['type']} on a valid input: {msg[:200]}"
    if not out["is_value_or_type"]:
        return False, f"{out['type']} (not ValueError/TypeError) at {out['origin']}: {msg[:200]}"
    if not out["from_sigeval"]:
        return False, f"{out['type']} from deep inside {out['origin']}: {msg[:200]}"
    if c.names and not any(n in out["message"] for n in c.names):
        return False, f"{out['type']} does not name {' or '.join(c.names)}: {msg[:200]}"
    return True, f"{out['type']}: {msg[:140]}"


def run_case(c: Case, cap: int, timeout: float) -> dict[str, Any]:
    ctx = mp.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    p = ctx.Process(target=_child, args=(c, child, cap))
    start = time.monotonic()
    p.start()
    child.close()
    out: dict[str, Any] | None = None
    if parent.poll(timeout):
        try:
            out = parent.recv()
        except EOFError:
            out = None
    p.join(timeout=5)
    if p.is_alive():
        p.kill()
        p.join()
        if out is None:
            out = {"kind": "timeout", "detail": f"no answer within {timeout:g} s (a hang?)"}
    if out is None:
        out = {"kind": "died", "detail": f"the child died (exit code {p.exitcode}; killed by the memory cap?)"}
    out["seconds"] = time.monotonic() - start
    return out


def _vm_size() -> int:
    with open("/proc/self/status") as fh:
        for line in fh:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


# --------------------------------------------------------------------------- cases: sequential comparisons


def _seq_cases() -> None:
    gsb, cs, sc = sigeval.group_sequential_bounds, sigeval.confidence_sequence, sigeval.SequentialComparison

    def obf4(res: Any) -> None:
        for got, want in zip(res.critical_values, [4.3326, 2.9631, 2.3590, 2.0141]):
            close(got, want, abs_=1e-4, what="critical value")

    case("group_sequential_bounds", "valid 4 looks", lambda: gsb(4), "value", check=obf4)
    for lab, v in SCALAR_HOSTILE + [("0", 0), ("51", 51), ("2.0", 2.0), ("-3", -3), ("numpy int", np.int64(2))]:
        expect = "value" if lab == "numpy int" else "error"
        case("group_sequential_bounds", f"n_looks={lab}", lambda v=v: gsb(v), expect, names="`n_looks`",
             check=(lambda r: close(r.critical_values[-1], gsb(2).critical_values[-1])) if expect == "value" else None)
        case("group_sequential_bounds", f"alpha={lab}", lambda v=v: gsb(3, alpha=v),
             "either" if lab in ("numpy int",) else "error", names="`alpha`")
    for lab, v in [("text", ["0.5", "1"]), ("decreasing", [0.6, 0.4, 1.0]), ("not ending at 1", [0.3, 0.6, 0.9]),
                   ("NaN", [NAN, 0.5, 1.0]), ("zero first", [0.0, 0.5, 1.0]), ("2-D", [[0.3, 0.6, 1.0]]),
                   ("complex", [0.3j, 0.6, 1.0]), ("wrong length", [0.5, 1.0]), ("empty", [])]:
        case("group_sequential_bounds", f"information_rates={lab}", lambda v=v: gsb(3, information_rates=v),
             "either" if lab == "2-D" else "error", names="`information_rates`")
    case("group_sequential_bounds", "tiny alpha 1e-300", lambda: gsb(3, alpha=1e-300), "either", names="`alpha`",
         check=lambda r: all_finite(r, allow=("critical_values",)))
    case("group_sequential_bounds", "50 looks", lambda: gsb(50), "value", check=lambda r: all_finite(r))
    case("max_information_inflation", "power below alpha/2", lambda: sigeval.max_information_inflation(gsb(2), target_power=0.01),
         names="`target_power`")
    case("max_information_inflation", "power 0.999999", lambda: sigeval.max_information_inflation(gsb(2), target_power=0.999999),
         "either", names="`target_power`", check=lambda r: close(max(r, 1.0), r))
    case("max_information_inflation", "not a design", lambda: sigeval.max_information_inflation(None), names="`bounds`")
    d = np.random.default_rng(0).normal(0.01, 0.02, 50)
    for method in ("betting", "t-mixture"):
        kw = {"bounds": (-1, 1)} if method == "betting" else {}
        case("confidence_sequence", f"{method} valid", lambda kw=kw, method=method: cs(d, method=method, **kw), "value",
             check=lambda r: None if np.all(r.low <= r.high) else (_ for _ in ()).throw(AssertionError("low > high")))
        for lab, v in [("text", ["0.1", "0.2"]), ("complex", [0.1j, 0.2]), ("None", None), ("NaN", [0.1, NAN]),
                       ("inf", [0.1, INF]), ("empty", []), ("2-D", [[0.1, 0.2]]), ("object strings", np.array(["a"], dtype=object)),
                       ("dict", {"a": 1})]:
            case("confidence_sequence", f"{method} differences={lab}", lambda v=v, kw=kw, method=method: cs(v, method=method, **kw),
                 names="`differences`")
        case("confidence_sequence", f"{method} one difference", lambda kw=kw, method=method: cs([0.1], method=method, **kw),
             "value", check=lambda r: None)
        case("confidence_sequence", f"{method} constant", lambda kw=kw, method=method: cs(np.full(30, 0.25), method=method, **kw),
             "value", check=lambda r: None)
        case("confidence_sequence", f"{method} 1e5 pairs", lambda kw=kw, method=method: cs(
            np.random.default_rng(1).uniform(-0.5, 0.5, 100_000), method=method, **kw), "value",
            check=lambda r: None if np.all(np.isfinite(r.low[-10:])) else (_ for _ in ()).throw(AssertionError("inf")))
        for lab, v in SCALAR_HOSTILE:
            case("confidence_sequence", f"{method} confidence_level={lab}",
                 lambda v=v, kw=kw, method=method: cs(d, confidence_level=v, method=method, **kw), names="`confidence_level`")
    case("confidence_sequence", "t-mixture 1e300 scale", lambda: cs(d * 1e300, method="t-mixture"), "value",
         check=lambda r: None if np.all(r.low[5:] <= r.high[5:]) else (_ for _ in ()).throw(AssertionError("order")))
    for lab, v in [("None", None), ("text", "ab"), ("reversed", (1, -1)), ("equal", (0, 0)), ("inf", (-INF, 1)),
                   ("three", (0, 1, 2)), ("huge", (-1e308, 1e308))]:
        case("confidence_sequence", f"bounds={lab}", lambda v=v: cs(d, bounds=v), names="`bounds`")
    case("confidence_sequence", "outside bounds", lambda: cs([0.1, 3.0], bounds=(-1, 1)), names="`differences`")
    for lab, v in SCALAR_HOSTILE:
        case("SequentialComparison", f"margin={lab}", lambda v=v: sc(method="t-mixture", margin=v),
             "either" if lab in ("None", "1e308", "2**70") else "error", names="`margin`")
        case("SequentialComparison", f"update scores_a={lab}", lambda v=v: sc(method="t-mixture").update(v, 0.5),
             "either" if lab in ("-0.0", "1e308", "list [0.5]", "True", "False", "2**70") else "error",
             names=("`scores_a`",))
    case("SequentialComparison", "looks not increasing", lambda: sc(method="group-sequential", looks=[10, 5]),
         names="`looks`")
    case("SequentialComparison", "looks text", lambda: sc(method="group-sequential", looks=["5", "10"]), names="`looks`")
    case("SequentialComparison", "group-sequential constant differences",
         lambda: sc(method="group-sequential", looks=[3, 6]).update([0.5] * 6, [0.4] * 6), names=("differences",))
    case("SequentialComparison", "run with a bad pair function", lambda: sc(method="t-mixture", max_pairs=5).run(42),
         names="`run_pair`")
    sa = sigeval.spending_alpha
    case("spending_alpha", "valid", lambda: sa([0.25, 1.0], alpha=0.025), "value",
         check=lambda r: close(r[-1], 0.025, abs_=1e-15))
    for lab, v in [("text", ["0.5"]), ("complex", [0.5j]), ("None", None), ("NaN", [NAN]), ("inf", [INF]),
                   ("empty", []), ("zero", [0.0]), ("above one", [1.5]), ("1e308", [1e308]), ("negative", [-0.5])]:
        case("spending_alpha", f"t={lab}", lambda v=v: sa(v), names="`t`")
    for lab, v in SCALAR_HOSTILE:
        case("spending_alpha", f"alpha={lab}", lambda v=v: sa([0.5], alpha=v), names="`alpha`")
    case("spending_alpha", "tiny t 1e-300", lambda: sa([1e-300, 1.0]), "value",
         check=lambda r: close(r[0], 0.0, abs_=1e-300))
    case("spending_alpha", "1e6 fractions", lambda: sa(np.linspace(1e-6, 1.0, 10**6), spending="pocock"), "value",
         check=lambda r: all_finite({"r": r}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-f", "--function", action="append", help="only the cases of this function (repeatable)")
    parser.add_argument("-k", "--keyword", help="only cases whose label contains this text")
    parser.add_argument("--cap-gib", type=float, default=2.0, help="memory cap above the imports, GiB (default 2)")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per call (default 60)")
    parser.add_argument("--list", action="store_true", help="list the cases and exit")
    parser.add_argument("-v", "--verbose", action="store_true", help="print good outcomes too")
    args = parser.parse_args(argv)

    for build in (_cp_cases, _pk_cases, _sm_cases, _qn_cases, _metric_cases, _report_cases, _seq_cases):
        build()
    cases = [c for c in CASES if (not args.function or c.func in args.function)
             and (not args.keyword or args.keyword in c.label)]
    if args.list:
        for c in cases:
            print(f"{c.func:28s} {c.expect:6s} {c.label}")
        print(f"{len(cases)} cases")
        return 0
    cap = _vm_size() + int(args.cap_gib * GiB)
    print(f"{len(cases)} calls, each in a forked child: RLIMIT_AS {cap / GiB:.1f} GiB "
          f"({args.cap_gib:g} GiB above the imports), timeout {args.timeout:g} s")
    tally: dict[str, Counter] = {}
    bad: list[tuple[Case, str]] = []
    for c in cases:
        out = run_case(c, cap, args.timeout)
        good, why = classify(c, out)
        tally.setdefault(c.func, Counter())["good" if good else "bad"] += 1
        if not good:
            bad.append((c, why))
        if args.verbose or not good:
            print(f"{'ok ' if good else 'BAD'} {c.func}: {c.label} [{out['seconds']:.1f}s] -> {why}", flush=True)
    print("\nfunction                       calls  good  bad")
    for func, count in tally.items():
        print(f"{func:30s} {count['good'] + count['bad']:5d} {count['good']:5d} {count['bad']:4d}")
    total = sum(sum(c.values()) for c in tally.values())
    print(f"{'total':30s} {total:5d} {total - len(bad):5d} {len(bad):4d}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

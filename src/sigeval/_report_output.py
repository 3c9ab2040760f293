"""The one renderer of the library's front doors: text, Markdown, LaTeX, CSV, JSON and one HTML page.

Two things are rendered: a :class:`~sigeval.report.Report`'s views (what
``Report.to_markdown``, ``to_latex``, ``to_html`` and ``sigeval runs`` show)
and the tables of :func:`~sigeval.predictions.compare_predictions` (what
``sigeval compare`` shows). Rendering only: the views are computed once, by
:func:`views`, whatever the number of formats an output is written in, and
every number comes from them, formatted at a stated precision. The
statistical choices behind them (level, Holm family, power correction,
margin, the Bayesian view's ROPE, the aggregate's resamples and generator)
are a :class:`Choices`, which ``Report``'s outputs and the command pass
through. The page needs nothing but the file: styles inline, figures as
inline SVG (matplotlib, the ``plots`` extra; without it the page says so), no
script and no request to the network.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import io
import json
import math
import platform
import re
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ._tables import formatted, text_table, wrapped
from ._validation import check_positive_int, check_rng

#: The width of the text when it is not printed on a terminal (a file, a pipe): the terminal's own otherwise.
WIDTH = 100
# < > | print as other glyphs under LaTeX's default (OT1) font encoding; a newline in a cell would end it.
_LATEX_SPECIAL = {"&": r"\&", "%": r"\%", "$": r"\$", "#": r"\#", "_": r"\_", "{": r"\{", "}": r"\}",
                  "~": r"\textasciitilde{}", "^": r"\textasciicircum{}", "\\": r"\textbackslash{}",
                  "<": r"\textless{}", ">": r"\textgreater{}", "|": r"\textbar{}", "\n": " ", "\r": " "}
# In Markdown: what would start raw HTML (a tag, a comment) or an entity, and a newline or a bar that would end a
# table's cell, are shown as text instead; "p <= alpha" is left as it reads.
_MARKDOWN_LIVE = re.compile(r"<(?=[A-Za-z/!?])|&(?=#?[A-Za-z0-9]+;)|[|\n\r]")
_MARKDOWN_SHOWN = {"<": "&lt;", "&": "&amp;", "|": "\\|", "\n": "\\n", "\r": "\\r"}


# --------------------------------------------------------------------------- environment


def blas() -> str:
    """The BLAS numpy was built with, as numpy's build configuration names it."""
    try:
        config = np.show_config(mode="dicts")
        library = config["Build Dependencies"]["blas"]
        return f"{library.get('name', 'unknown')} {library.get('version', '')}".strip()
    except Exception:  # noqa: BLE001 (an older numpy or an unusual build: say so, never fail a report)
        return "unknown"


def versions() -> dict[str, str]:
    """sigeval, Python, numpy, scipy, pandas (and matplotlib if installed), the platform and the BLAS."""
    import scipy

    from ._version import __version__

    out = {"sigeval": __version__, "Python": platform.python_version(), "numpy": np.__version__,
           "scipy": scipy.__version__, "pandas": pd.__version__}
    try:
        import matplotlib

        out["matplotlib"] = matplotlib.__version__
    except ImportError:
        out["matplotlib"] = "not installed"
    out["platform"] = platform.platform()
    out["BLAS"] = blas()
    return out


def table_hash(runs: pd.DataFrame) -> str:
    """sha256 of the runs (task, model, seed, score) written as CSV, the first 16 hex digits."""
    text = runs[["task", "model", "seed", "score"]].to_csv(index=False)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def environment(report: Any, call: str | None = None) -> dict[str, str]:
    """What produced a report: versions, platform, BLAS, the call, the input table's hash, the date (UTC)."""
    out = versions()
    out["call"] = call if call is not None else " ".join(sys.argv)
    out["input table"] = f"sha256 {table_hash(report.runs)} ({len(report.runs)} runs as CSV: task, model, seed, score)"
    out["date"] = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
    return out


# --------------------------------------------------------------------------- the views, computed once

#: Every view of a report an output can show, in the order the outputs show them.
VIEWS = ("describe", "pairwise", "power", "equivalence", "bayesian", "friedman", "aggregate")
#: The views, the plain-words summary and the failed runs: the whole report.
EVERY = ("summary", "failed_runs", *VIEWS)


@dataclass(frozen=True)
class Choices:
    """The statistical choices behind a report's views; the defaults are ``Report.to_markdown``'s.

    ``rope`` is the Bayesian view's region of practical equivalence (None: the
    margin; no Bayesian view without either); ``n_resamples`` and ``rng`` are the
    aggregate's stratified bootstrap; ``metric`` names the score in the design
    and the figures.
    """

    margin: float | None = None
    alpha: float = 0.05
    target_power: float = 0.80
    family: str = "task"
    correction: str = "none"
    rope: float | None = None
    n_resamples: int = 10_000
    rng: Any = 0
    metric: str = "score"

    @property
    def rope_used(self) -> float | None:
        return self.margin if self.rope is None else self.rope


def options_given(rope: Any, n_resamples: Any, rng: Any) -> str:
    """The Bayesian and aggregate options of an output's call that differ from the defaults, as ``, name=value``."""
    given = {"rope": rope, "n_resamples": n_resamples, "rng": rng}
    return "".join(f", {name}={value!r}" for name, value in given.items()
                   if not (type(value) is type(getattr(Choices, name)) and value == getattr(Choices, name)))


def views(report: Any, choices: Choices, which: tuple[str, ...] = EVERY) -> dict[str, Any]:
    """The views named in ``which`` (and the failed runs), each computed once with ``choices``.

    The equivalence view without a margin, the Bayesian one without a ROPE and the ranking
    with fewer than 2 tasks are left out; an aggregate over runs with holes is left out with
    the reason under ``aggregate_note``.
    """
    c, rope = choices, choices.rope_used
    # Checked here: the aggregate's refusal of the runs below would otherwise hide a bad argument in its note.
    n_resamples = check_positive_int(c.n_resamples, "n_resamples")
    check_rng(c.rng)
    out: dict[str, Any] = {}
    if "describe" in which:
        out["describe"] = report.describe()
    if "pairwise" in which:
        out["pairwise"] = report.pairwise(alpha=c.alpha, family=c.family)
    if "power" in which:
        out["power"] = report.power(alpha=c.alpha, target_power=c.target_power, correction=c.correction,
                                    family=c.family)
    if "summary" in which:
        out["summary"] = report.summary(margin=c.margin, alpha=c.alpha, target_power=c.target_power,
                                        family=c.family, correction=c.correction)
    out["failed_runs"] = report.failed_runs
    if "equivalence" in which and c.margin is not None:
        out["equivalence"] = report.equivalence(c.margin, alpha=c.alpha, family=c.family)
    if "bayesian" in which and rope is not None:  # a comparison it refuses (fewer than 2 pairs) is noted in its row
        out["bayesian"] = report.bayesian(rope)
    if "friedman" in which and len(report.tasks) >= 2:
        out["friedman"] = report.friedman(alpha=c.alpha)
    if "aggregate" in which:
        try:  # aggregates need every model's runs complete and equal in number on every task
            out["aggregate"] = report.aggregate(n_resamples=n_resamples, rng=c.rng)
        except ValueError as error:
            out["aggregate_note"] = str(error)
    return out


@dataclass(frozen=True)
class ReportOutput:
    """A report's views, computed once, and what an output of them shows.

    ``shown`` names the views the text, JSON, CSV and Markdown show (and
    ``"failed_runs"``, their table when there are any); with the summary among
    them the Markdown is the whole report, otherwise each view's table. The
    page shows every view in ``views``. ``written`` lists the files written
    beside the output (``("plot", path)``, ``("html", path)``).
    """

    report: Any
    choices: Choices
    views: dict[str, Any]
    shown: tuple[str, ...] = EVERY
    call: str | None = None
    precision: int = 4
    bold_best: bool = True
    written: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class ComparisonOutput:
    """The result of :func:`~sigeval.predictions.compare_predictions` or :func:`~sigeval.predictions.compare_items`,
    the note of how it was computed, and its source."""

    result: Any
    note: str
    source: str
    call: str


def design(report: Any, c: Choices) -> list[tuple[str, str]]:
    """The design of the comparison, as (what, value) rows."""
    # The views take the options in any case ("TASK" is "task"); the design names them as the views read them.
    family, correction = c.family.lower(), c.correction.lower()
    seeds = sorted({len(s) for s in report.seeds.values()})
    return [
        ("tasks", f"{len(report.tasks)}: {', '.join(map(str, report.tasks))}"),
        ("models", f"{len(report.models)}: {', '.join(map(str, report.models))}"),
        ("seeds per task", f"{seeds[0]}" if len(seeds) == 1 else f"{seeds[0]} to {seeds[-1]}"),
        ("metric", f"{c.metric}{_scaled(report)}, {'higher' if report.higher_is_better else 'lower'} is better"),
        ("differences", "model A minus model B, paired by (task, seed)"
                        + (f"; the reference, {report.models[-1]}, is B" if report.reference is not None else "")),
        ("test", f"paired t; Holm-adjusted {_holm_family(family)}; reject when p <= alpha = {c.alpha:g}"),
        ("intervals", f"paired t at {1 - c.alpha:.0%}; TOST at {1 - 2 * c.alpha:.0%}"),
        ("margin", "none given (no equivalence view)" if c.margin is None
                   else f"{c.margin:g}, in {'points' if report.units == 'points' else 'the units of the score'}"),
        ("power", f"minimum detectable effect at {c.target_power:.0%} power"
                  + ("" if correction == "none" else f", at the level of the {correction} decision")),
        ("failed runs", f"{len(report.failed_runs)} ({report.failed})"),
    ]


def _scaled(report: Any) -> str:
    """How the scores were scaled, for the design: ``", in points (x 100)"``, or nothing."""
    return ", in points (x 100)" if report.units == "points" else ""


def _holm_family(family: str) -> str:
    return "within each task" if family.lower() == "task" else "over every comparison"


def _design_frame(report: Any, c: Choices) -> pd.DataFrame:
    return pd.DataFrame(design(report, c), columns=["", "value"])


def ranks_frame(friedman: Any) -> pd.DataFrame:
    return friedman.mean_ranks.rename("mean_rank").rename_axis("model").reset_index()


def friedman_line(f: Any) -> str:
    gap = f"{f.n_for_observed_gap} tasks would be needed for that gap" if f.n_for_observed_gap else "no gap"
    return (f"Friedman chi2 = {f.statistic:.4f}, p = {f.pvalue:.3g}; Iman–Davenport F = {f.statistic_f:.4f}, "
            f"p = {f.pvalue_f:.3g}; critical difference {f.critical_difference:.4f} at alpha = {f.alpha:g} "
            f"with {f.n_tasks} tasks; largest mean-rank gap {f.max_rank_gap:.4f}; {gap}.")


def _rng_text(rng: Any) -> str:
    return f"rng={rng!r}" if rng is None or isinstance(rng, int | np.integer) else "rng: the generator given"


def _sections(shown: dict[str, Any], c: Choices) -> list[tuple[str, pd.DataFrame | None, str]]:
    """(title, table, note) in the order every whole report shows them."""
    out: list[tuple[str, pd.DataFrame | None, str]] = [
        ("Scores per task (mean ± sd over the seeds)", shown["describe"], ""),
        ("Is there a difference? (pairwise)", shown["pairwise"], "mean_diff is A minus B; reject uses pvalue_holm."),
        ("Could this design see one? (power)", shown["power"], "detectable: the observed difference is at least the MDE."),
    ]
    if "equivalence" in shown:
        out.append(("Can we claim there is none? (equivalence)", shown["equivalence"],
                    "TOST crossed with the difference test, Holm-adjusted as the design says: four verdicts."))
    if "bayesian" in shown:
        rope = "the margin" if c.rope is None or c.rope == c.margin else f"{c.rope:g}"
        out.append((f"How probable is a practical difference? (Bayesian paired t, ROPE = {rope})", shown["bayesian"],
                    "posterior probabilities under the noninformative prior, over the seeds of each task; no "
                    "correction for the number of comparisons."))
    if "friedman" in shown:
        out.append(("Ranking across tasks (Friedman)", ranks_frame(shown["friedman"]), friedman_line(shown["friedman"])))
    if "aggregate" in shown or "aggregate_note" in shown:
        resamples = "" if c.n_resamples == Choices.n_resamples else f", {c.n_resamples:,} resamples"
        out.append(("Aggregate scores across tasks (IQM, mean, median, optimality gap)", shown.get("aggregate"),
                    shown.get("aggregate_note", "95% stratified-bootstrap intervals (runs resampled within each "
                              f"task{resamples}, {_rng_text(c.rng)}).")))
    failed = shown["failed_runs"]
    out.append(("Failed runs", failed if len(failed) else None,
                "none" if not len(failed) else "their pairs are left out of every comparison"))
    return out


#: What the files written beside an output hold, as the text output names them.
WRITTEN = {"plot": "CD diagram", "html": "HTML report"}

#: The titles of the views in the text output and the Markdown of some views.
VIEW_TITLES = {"describe": "scores per task (mean and sd over the seeds)", "pairwise": "pairwise", "power": "power",
               "equivalence": "equivalence", "bayesian": "bayesian (posterior probabilities; no correction for the "
               "number of comparisons)", "friedman": "friedman (over the tasks' mean scores)",
               "aggregate": "aggregate (over the tasks, with 95% stratified-bootstrap intervals)"}
#: What a view asked for needs, said when the runs or the options leave it out.
NEEDS = {"equivalence": "a margin (--margin)", "bayesian": "a ROPE (--rope) or a margin (--margin)",
         "friedman": "at least 2 tasks"}


def tables(output: ReportOutput | ComparisonOutput) -> dict[str, pd.DataFrame]:
    """The tables an output shows, by name (the failed runs when there are any, the Friedman ranks)."""
    if isinstance(output, ComparisonOutput):
        res = output.result
        shown = {"models": res.per_model, "pairs": res.pairs}
        if hasattr(res, "missing"):  # compare_items: pass@k, the rank sets and the items left out where there are any
            optional = {"pass_at_k": res.pass_at_k, "rank_sets": res.rank_sets, "missing": res.missing}
            shown |= {k: v for k, v in optional.items() if len(v)}
        return shown
    shown = output.views
    out = {"failed_runs": shown["failed_runs"]} if "failed_runs" in output.shown and len(shown["failed_runs"]) else {}
    for view in VIEWS:
        if view in output.shown and view in shown:
            out[view] = ranks_frame(shown[view]) if view == "friedman" else shown[view]
    return out


def left_out(output: ReportOutput) -> list[str]:
    """The views asked for that the options or the runs leave out, each with what it needs."""
    return [f"{view} (needs {NEEDS[view]})" for view in VIEWS
            if view in output.shown and view not in output.views and f"{view}_note" not in output.views]


def method_note(output: ReportOutput) -> str:
    """How the views shown were computed, in one sentence: a clause for each view that needs one."""
    c, shown = output.choices, [v for v in output.shown if v in output.views]
    level = {"none": "", "holm": ", at the level of each Holm decision",
             "bonferroni": ", at the Bonferroni level"}[c.correction.lower()]
    lower = ", lower is better" if not output.report.higher_is_better else ""
    clauses = {
        "differences": "differences are model A minus model B over the seeds both ran (paired by task and seed)",
        "test": f"paired t test and {1 - c.alpha:.0%} intervals, p-values Holm-adjusted {_holm_family(c.family)}, "
                f"a difference rejects at p <= alpha = {c.alpha:g}",
        "power": f"minimum detectable effects at {c.target_power:.0%} power and alpha = {c.alpha:g}{level}",
        "equivalence": f"equivalence by TOST at margin {c.margin or 0:g}",
        "bayesian": f"posterior probabilities of the Bayesian paired t (noninformative prior) with a ROPE of "
                    f"{c.rope_used or 0:g}",
        "friedman": f"ranks over the tasks' mean scores{lower}",
        "aggregate": f"aggregates of every model's runs over the tasks, 95% stratified-bootstrap intervals "
                     f"({c.n_resamples:,} resamples, {_rng_text(c.rng)})",
    }
    wanted = {"differences": bool({"pairwise", "power", "equivalence", "bayesian"} & set(shown)),
              "test": "pairwise" in shown or "equivalence" in shown} | {view: view in shown for view in VIEWS}
    sentence = "; ".join(clause for name, clause in clauses.items() if wanted[name])
    return sentence[:1].upper() + sentence[1:] + "."


def _environment(output: ReportOutput | ComparisonOutput) -> dict[str, str]:
    if isinstance(output, ComparisonOutput):
        return versions() | {"call": output.call}
    return environment(output.report, output.call)


def render(output: ReportOutput | ComparisonOutput, fmt: str, width: int = WIDTH) -> str:
    """The output in one of the formats ``text`` (``width`` columns wide), ``markdown``, ``latex``, ``csv``, ``json``."""
    if fmt == "text":
        return text(output, width)
    return {"markdown": markdown, "latex": latex, "csv": csv_text, "json": json_text}[fmt](output)


# --------------------------------------------------------------------------- text

def text(output: ReportOutput | ComparisonOutput, width: int = WIDTH) -> str:
    """The tables as a terminal ``width`` columns wide shows them, with the note of how they were computed."""
    if isinstance(output, ComparisonOutput):
        titles = {"models": f"models ({output.result.confidence_level:.0%} intervals)",
                  "missing": "items left out (held by another model of the task, not by this one)"}
        lines = []
        for name, frame in tables(output).items():
            lines += [titles.get(name, name.replace("_", " ")), text_table(frame, width), ""]
        return "\n".join([*lines, wrapped(output.note, width)]) + "\n"
    shown, c = output.views, output.choices
    lines = [wrapped(repr(output.report), width)]
    if "summary" in output.shown:
        lines += ["", "summary", wrapped(shown["summary"], width)]
    if "failed_runs" in output.shown and len(shown["failed_runs"]):
        lines += ["", "failed runs (their pairs are left out)", text_table(shown["failed_runs"], width)]
    for view, title in VIEW_TITLES.items():
        if view in output.shown and f"{view}_note" in shown:
            lines += ["", title, wrapped(shown[f"{view}_note"], width)]
        if view not in output.shown or view not in shown:
            continue
        if view == "bayesian":
            title = title.replace("probabilities;", f"probabilities, ROPE = {c.rope_used:g};")
        lines += ["", wrapped(title, width), text_table(ranks_frame(shown[view]) if view == "friedman" else shown[view],
                                                         width)]
        if view == "friedman":
            f = shown[view]
            gap = f"tasks for that gap: {f.n_for_observed_gap}" if f.n_for_observed_gap else "no gap"
            lines += [wrapped(f"chi2_F = {f.statistic:.4f}, p = {f.pvalue:.4g}; Iman-Davenport F_F = "
                               f"{f.statistic_f:.4f}, p = {f.pvalue_f:.4g}", width),
                      wrapped(f"critical difference = {f.critical_difference:.4f} at alpha = {f.alpha:g} with "
                               f"{f.n_tasks} tasks; largest mean-rank gap = {f.max_rank_gap:.4f}; {gap}", width)]
    if left_out(output):
        lines += ["", wrapped("left out: " + "; ".join(left_out(output)) + ".", width)]
    lines += ["", wrapped(method_note(output), width)]
    for key, path in output.written:
        lines += ["", f"{WRITTEN[key]} written to {path}"]
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------- CSV and JSON


def csv_text(output: ReportOutput | ComparisonOutput) -> str:
    """Every table in one CSV, its name in a first column ``table``."""
    frames = [t.assign(table=name)[["table", *t.columns]] for name, t in tables(output).items()]
    return pd.concat(frames, ignore_index=True).to_csv(index=False)


def _jsonable(value: Any, where: str, infinite: dict[str, str]) -> Any:
    """``value`` as strict JSON: floats at full precision, NaN as null, an infinity as null listed in ``infinite``."""
    if isinstance(value, pd.DataFrame):
        return [_jsonable(row, f"{where}[{i}]", infinite) for i, row in enumerate(value.to_dict(orient="records"))]
    if isinstance(value, pd.Series):
        return _jsonable(value.to_dict(), where, infinite)
    if hasattr(value, "keys") and hasattr(value, "__getitem__"):
        return {str(k): _jsonable(value[k], f"{where}.{k}" if where else str(k), infinite)
                for k in value.keys() if k not in ("result", "mean_scores", "n_seeds")}
    if isinstance(value, list | tuple):
        return [_jsonable(v, f"{where}[{i}]", infinite) for i, v in enumerate(value)]
    if isinstance(value, np.generic):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        if not math.isnan(value):
            infinite[where] = "inf" if value > 0 else "-inf"
        return None
    return value


def _json_fields(output: ReportOutput | ComparisonOutput) -> dict[str, Any]:
    if isinstance(output, ComparisonOutput):
        return tables(output) | {"note": output.note, "confidence_level": output.result.confidence_level}
    shown = output.views
    fields: dict[str, Any] = {"report": repr(output.report), "failed_runs": shown["failed_runs"]}
    for view in ("summary", *VIEWS):
        if view in output.shown:
            fields |= {key: shown[key] for key in (view, f"{view}_note") if key in shown}
    if left_out(output):
        fields["left_out"] = left_out(output)
    return fields | {"note": method_note(output)} | dict(output.written)


def json_text(output: ReportOutput | ComparisonOutput) -> str:
    """The output as JSON that a strict parser reads; infinities are null, named under ``non_finite``."""
    infinite: dict[str, str] = {}
    shown = _jsonable(_json_fields(output), "", infinite)
    if infinite:
        shown["non_finite"] = infinite  # JSON has no infinity: which nulls were +inf or -inf
    return json.dumps({**shown, "environment": _environment(output)}, indent=2, allow_nan=False) + "\n"


# --------------------------------------------------------------------------- Markdown


def md(text: Any) -> str:
    """Text as Markdown shows it literally: no live HTML, no newline or bar that would break a table."""
    return _MARKDOWN_LIVE.sub(lambda m: _MARKDOWN_SHOWN[m.group()], str(text))


def markdown_table(frame: pd.DataFrame, precision: int) -> str:
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
               for c in frame.columns]
    head = "| " + " | ".join(md(c) for c in frame.columns) + " |"
    rule = "|" + "|".join("---:" if n else ":---" for n in numeric) + "|"
    rows = ["| " + " | ".join(md(cell) for cell in row) + " |" for row in formatted(frame, precision)]
    return "\n".join([head, rule, *rows])


def markdown(output: ReportOutput | ComparisonOutput) -> str:
    """The whole report (the summary among the views shown), or each table shown, with the environment."""
    precision = output.precision if isinstance(output, ReportOutput) else 4
    env = markdown_table(pd.DataFrame(list(_environment(output).items()), columns=["", "value"]), precision)
    if not isinstance(output, ReportOutput) or "summary" not in output.shown:
        parts = [f"## {name}\n\n{markdown_table(t, precision)}" for name, t in tables(output).items()]
        note = output.note if isinstance(output, ComparisonOutput) else method_note(output)
        return "\n\n".join([*parts, md(note), "## environment\n\n" + env]) + "\n"
    shown, c = output.views, output.choices
    parts = ["# Report", "", md(shown["summary"]), "", "## Design", "",
             markdown_table(_design_frame(output.report, c), precision)]
    for title, frame, note in _sections(shown, c):
        parts += ["", f"## {title}", ""]
        if frame is not None:
            parts += [markdown_table(frame, precision), ""]
        if note:
            parts.append(md(note))
    parts += ["", "## Environment", "", env]
    return "\n".join(parts) + "\n"


# --------------------------------------------------------------------------- LaTeX


def _tex(text: Any) -> str:
    return "".join(_LATEX_SPECIAL.get(ch, ch) for ch in str(text))


def latex_table(frame: pd.DataFrame, precision: int) -> str:
    """Any table in booktabs: text columns left, numbers right, at ``precision`` decimals."""
    numeric = [pd.api.types.is_numeric_dtype(frame[c]) and not pd.api.types.is_bool_dtype(frame[c])
               for c in frame.columns]
    lines = [r"\begin{tabular}{" + "".join("r" if n else "l" for n in numeric) + "}", r"\toprule",
             " & ".join(_tex(c) for c in frame.columns) + r" \\", r"\midrule"]
    lines += [" & ".join(_tex(v) for v in row) + r" \\" for row in formatted(frame, precision)]
    return "\n".join([*lines, r"\bottomrule", r"\end{tabular}"]) + "\n"


def latex(output: ReportOutput | ComparisonOutput) -> str:
    """Each table in booktabs; a report's first is the mean ± sd of every model on every task."""
    if isinstance(output, ComparisonOutput):
        return "\n".join(latex_table(t, 4) for t in tables(output).values())
    described = output.views["describe"]
    others = [latex_table(t, output.precision) for name, t in tables(output).items() if name != "describe"]
    return "\n".join([_mean_sd(output.report, described, output.precision, output.bold_best), *others])


def _mean_sd(report: Any, described: pd.DataFrame, precision: int, bold_best: bool) -> str:
    """Mean ± sd of every model on every task (booktabs), the best mean per task in bold if asked."""
    means = described.pivot(index="model", columns="task", values="mean")  # cells read by name below
    sds = described.pivot(index="model", columns="task", values="sd")
    best = means.max() if report.higher_is_better else means.min()
    lines = [r"\begin{tabular}{l" + "r" * len(report.tasks) + "}", r"\toprule",
             "model & " + " & ".join(_tex(t) for t in report.tasks) + r" \\", r"\midrule"]
    for model in report.models:
        cells = []
        for task in report.tasks:
            mean, sd = means.at[model, task], sds.at[model, task]
            text = f"{mean:.{precision}f} $\\pm$ {sd:.{precision}f}" if np.isfinite(sd) else f"{mean:.{precision}f}"
            cells.append(f"\\textbf{{{text}}}" if bold_best and mean == best[task] else text)
        lines.append(_tex(model) + " & " + " & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    seeds = sorted({len(s) for s in report.seeds.values()})
    n_seeds = f"{seeds[0]}" if len(seeds) == 1 else f"{seeds[0]}–{seeds[-1]}"
    caption = (f"% Mean $\\pm$ sd over {n_seeds} seeds per task, {precision} decimals"
               + ("; the best mean per task in bold." if bold_best else "."))
    return caption + "\n" + "\n".join(lines) + "\n"




# --------------------------------------------------------------------------- HTML

_STYLE = """
body{font-family:-apple-system,'Segoe UI',Helvetica,Arial,sans-serif;max-width:1200px;margin:2em auto;
padding:0 1.5em;color:#1f2328;line-height:1.5}
h1{font-size:1.7em;border-bottom:2px solid #d0d7de;padding-bottom:.3em}
h2{font-size:1.25em;margin-top:1.8em;border-bottom:1px solid #d0d7de;padding-bottom:.2em}
p.summary{font-size:1.05em;background:#f6f8fa;border-left:4px solid #0969da;padding:.8em 1em}
table{border-collapse:collapse;margin:.6em 0;font-size:.88em;font-variant-numeric:tabular-nums}
th,td{padding:.25em .7em;border-bottom:1px solid #d8dee4;text-align:right;white-space:nowrap}
th{background:#f6f8fa;border-bottom:2px solid #afb8c1}
td.text,th.text{text-align:left}
tr.yes td{background:#dafbe1}
.note{color:#57606a;font-size:.9em}
figure{margin:1em 0}
figcaption{color:#57606a;font-size:.9em}
div.wrap{overflow-x:auto}
pre{background:#f6f8fa;padding:.8em;overflow-x:auto;font-size:.85em}
"""


def html_table(frame: pd.DataFrame, precision: int, highlight: str | None = None) -> str:
    text = [not pd.api.types.is_numeric_dtype(frame[c]) or pd.api.types.is_bool_dtype(frame[c]) for c in frame.columns]
    head = "".join(f"<th class='{'text' if t else 'num'}'>{html.escape(str(c))}</th>" for c, t in zip(frame.columns, text))
    marks = frame[highlight].to_numpy(bool) if highlight in frame.columns else np.zeros(len(frame), bool)
    body = []
    for row, mark in zip(formatted(frame, precision), marks):
        cells = "".join(f"<td class='{'text' if t else 'num'}'>{html.escape(v)}</td>" for v, t in zip(row, text))
        body.append(f"<tr class='{'yes' if mark else ''}'>{cells}</tr>")
    return f"<div class='wrap'><table><thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>"


def _svg(draw: Any, name: str) -> str | None:
    """A figure drawn by ``draw(Figure)`` as inline SVG text (fonts as paths), or None without matplotlib.

    A bare :class:`matplotlib.figure.Figure`, not pyplot: no backend is chosen
    or changed, so a notebook's own figures are left alone. ``name`` salts the
    SVG's element ids, which must differ between the figures of one page.
    """
    try:
        import matplotlib
        from matplotlib.figure import Figure
    except ImportError:
        return None
    with matplotlib.rc_context({"svg.fonttype": "path", "svg.hashsalt": f"sigeval-{name}"}):
        fig = draw(Figure)
        buffer = io.StringIO()
        fig.savefig(buffer, format="svg", bbox_inches="tight", metadata={"Date": None})
    text = buffer.getvalue()
    # The XML prologue cannot sit inside HTML; the metadata block only names matplotlib's site.
    svg = re.sub(r"<metadata>.*?</metadata>", "", text[text.index("<svg"):], flags=re.DOTALL)
    # matplotlib numbers its ids per figure (figure_1, axes_1): prefixed, they stay unique on the page.
    ids = set(re.findall(r'\bid="([^"]+)"', svg))
    return re.sub(r'(\bid="|href="#|url\(#)([^")]+)',
                  lambda m: f"{m.group(1)}{name}-{m.group(2)}" if m.group(2) in ids else m.group(0), svg)


def _scores_figure(report: Any, described: pd.DataFrame, metric: str) -> Any:
    def draw(figure_class):
        n_tasks, n_models = len(report.tasks), len(report.models)
        fig = figure_class(figsize=(min(3.6 * n_tasks, 12), 1.3 + 0.4 * n_models), layout="constrained")
        axes = fig.subplots(1, n_tasks, squeeze=False, sharey=True)[0]
        colours = [f"C{i % 10}" for i in range(n_models)]
        for ax, task in zip(axes, report.tasks):
            rows = described[described.task == task]
            y = np.arange(len(rows))
            ax.errorbar(rows["mean"], y, xerr=rows["sd"].fillna(0), fmt="none", ecolor="0.45", capsize=3)
            ax.scatter(rows["mean"], y, c=colours, zorder=3)
            ax.set_yticks(y, [str(m) for m in rows.model])
            ax.set_title(str(task), fontsize=10)
            ax.set_xlabel(metric)
            ax.grid(axis="x", alpha=0.3)
        axes[0].invert_yaxis()
        return fig

    return draw


def _cd_figure(friedman: Any) -> Any:
    """The view's critical-difference diagram, at the level the view was computed at (its own ``alpha``)."""
    def draw(figure_class):
        from .plots import cd_diagram

        fig = figure_class(figsize=(7, 0.5 + 0.45 * friedman.n_models), layout="constrained")
        cd_diagram(fig.subplots(), friedman)
        return fig

    return draw


#: The most rows an interval figure draws; a longer table is left to speak for itself.
FOREST_ROWS = 60


def _forest_figure(estimates: pd.Series, intervals: pd.DataFrame, labels: list[str], xlabel: str,
                   reference: float | None) -> Any:
    def draw(figure_class):
        from .plots import interval_forest

        fig = figure_class(figsize=(7, 0.9 + 0.32 * len(labels)), layout="constrained")
        ax = interval_forest(fig.subplots(), estimates.to_numpy(float), intervals.to_numpy(float), labels,
                             reference=reference)
        ax.set_xlabel(xlabel)
        ax.grid(axis="x", alpha=0.3)
        return fig

    return draw


def _comparison_figures(res: Any) -> dict[str, str]:
    """The figures of a comparison's page: each model's score and each pair's difference, with their intervals
    (task by task for :func:`~sigeval.predictions.compare_items`), by the name of the table they go with."""
    level = f"{res.confidence_level:.0%}"
    metric = getattr(res, "metric", "score")  # compare_items' scores are accuracies or mean scores, by task
    models, pairs = res.per_model, res.pairs

    def labelled(frame: pd.DataFrame, names: list[str]) -> list[str]:
        return [f"{t}: {n}" for t, n in zip(frame.task, names)] if "task" in frame.columns else names

    rows = [(models, metric, labelled(models, list(map(str, models.model))), metric, None,
             f"Each model's {metric} with its {level} interval", "models"),
            (pairs, "estimate", labelled(pairs, [f"{a} − {b}" for a, b in zip(pairs.model_a, pairs.model_b)]),
             f"difference in {metric}, A minus B", 0.0,
             f"Each pair's difference (A minus B) with its {level} interval; the vertical line is no difference",
             "pairs")]
    out = {}
    for frame, column, labels, xlabel, reference, caption, name in rows:
        if len(frame) > FOREST_ROWS:
            out[name] = (f"<p class='note'>({html.escape(caption)}: not drawn, {len(frame)} rows are too many for "
                         "one figure; the table lists them)</p>")
            continue
        draw = _forest_figure(frame[column], frame[["ci_low", "ci_high"]], labels, xlabel, reference)
        out[name] = _figure(_svg(draw, name), caption)
    return out


def _figure(svg: str | None, caption: str) -> str:
    if svg is None:
        return (f"<p class='note'>({html.escape(caption)}: not drawn: matplotlib is not installed; "
                "sigeval's plots extra installs it, as the README shows)</p>")
    return f"<figure role='img' aria-label='{html.escape(caption)}'>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def page(output: ReportOutput | ComparisonOutput, path: str | Path, title: str | None = None) -> Path:
    """Write the output as one self-contained HTML page: the whole report, or the comparison's tables."""
    env = _environment(output)
    if isinstance(output, ComparisonOutput):
        res = output.result
        heading = f"Comparison of {res.per_model.model.nunique()} models: {output.source}"
        body = [f"<h1>{html.escape(heading)}</h1>"]
        figures = _comparison_figures(res)
        for name, frame in tables(output).items():
            body += [f"<h2>{html.escape(name)}</h2>", figures.get(name, ""), html_table(frame, 4)]
        body += [f"<p class='note'>{html.escape(output.note)}</p>", "<h2>Environment</h2>",
                 html_table(pd.DataFrame(list(env.items()), columns=["", "value"]), 4)]
        return _write_page(path, heading, body)
    report, shown, c, precision = output.report, output.views, output.choices, output.precision
    heading = title or f"Report: {len(report.models)} models on {len(report.tasks)} task(s)"
    body = [f"<h1>{html.escape(heading)}</h1>",
            f"<p class='note'>sigeval {html.escape(env['sigeval'])}, {html.escape(env['date'])}</p>",
            "<h2>In plain words</h2>", f"<p class='summary'>{html.escape(shown['summary'])}</p>",
            "<h2>Design</h2>", html_table(_design_frame(report, c), precision)]
    for section, frame, note in _sections(shown, c):
        body.append(f"<h2>{html.escape(section)}</h2>")
        if section.startswith("Scores per task"):
            body.append(_figure(_svg(_scores_figure(report, shown["describe"], c.metric), "scores"),
                                f"Mean score of each model on each task, with ± one sd over the seeds ({c.metric})"))
        if section.startswith("Ranking") and "friedman" in shown:
            body.append(_figure(_svg(_cd_figure(shown["friedman"]), "cd"),
                                f"Critical-difference diagram: mean ranks over {shown['friedman'].n_tasks} tasks, "
                                f"Nemenyi at alpha = {c.alpha:g}"))
        if frame is not None:
            body.append(html_table(frame, precision, "reject"))  # html_table marks nothing without a reject column
        if note:
            body.append(f"<p class='note'>{html.escape(note)}</p>")
    body += ["<h2>Environment</h2>", html_table(pd.DataFrame(list(env.items()), columns=["", "value"]), precision)]
    return _write_page(path, heading, body)


def cd_diagram_file(friedman: Any, path: str | Path) -> None:
    """The critical-difference diagram, saved to ``path`` (its suffix names the format); needs matplotlib."""
    from matplotlib.figure import Figure

    fig = _cd_figure(friedman)(Figure)
    fig.savefig(path)


def _write_page(path: str | Path, heading: str, body: list[str]) -> Path:
    page = ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(heading)}</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    out = Path(path)
    out.write_text(page, encoding="utf-8")
    return out

"""The outputs of :class:`~sigeval.report.Report`: Markdown, LaTeX, one self-contained HTML page, and the environment.

Rendering only: every number comes from the report's own views
(``describe``, ``pairwise``, ``power``, ``equivalence``, ``bayesian``, ``friedman``, ``aggregate``,
``summary``), formatted at a stated precision. The page needs nothing but
the file: styles inline, figures as inline SVG (matplotlib, the ``plots``
extra; without it the page says so), no script and no request to the network.
"""

from __future__ import annotations

import datetime
import hashlib
import html
import io
import platform
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

#: Columns shown as p-values (3 significant digits) rather than at the stated precision.
_PVALUE = ("pvalue", "pvalue_holm", "pvalue_difference", "pvalue_equivalence", "pvalue_difference_holm",
           "pvalue_equivalence_holm")
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

    from . import __version__

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


# --------------------------------------------------------------------------- the views, formatted


def views(report: Any, margin: float | None, alpha: float, target_power: float, family: str = "task",
          correction: str = "none") -> dict[str, Any]:
    """Every view the outputs show, computed once, with the Holm ``family`` and the power ``correction``."""
    out: dict[str, Any] = {
        "describe": report.describe(),
        "pairwise": report.pairwise(alpha=alpha, family=family),
        "power": report.power(alpha=alpha, target_power=target_power, correction=correction, family=family),
        "summary": report.summary(margin=margin, alpha=alpha, target_power=target_power, family=family,
                                  correction=correction),
        "failed_runs": report.failed_runs,
    }
    if margin is not None:
        out["equivalence"] = report.equivalence(margin, alpha=alpha, family=family)
        try:  # a comparison the Bayesian paired t refuses (fewer than 2 pairs) leaves the view out
            out["bayesian"] = report.bayesian(margin)
        except ValueError as error:
            out["bayesian_note"] = str(error)
    if len(report.tasks) >= 2:
        out["friedman"] = report.friedman(alpha=alpha)
    try:  # aggregates need every model's runs complete and equal in number on every task
        out["aggregate"] = report.aggregate(rng=0)
    except ValueError as error:
        out["aggregate_note"] = str(error)
    return out


def design(report: Any, margin: float | None, alpha: float, target_power: float, metric: str, family: str = "task",
           correction: str = "none") -> list[tuple[str, str]]:
    """The design of the comparison, as (what, value) rows."""
    # The views take the options in any case ("TASK" is "task"); the design names them as the views read them.
    family, correction = family.lower(), correction.lower()
    seeds = sorted({len(s) for s in report.seeds.values()})
    return [
        ("tasks", f"{len(report.tasks)}: {', '.join(map(str, report.tasks))}"),
        ("models", f"{len(report.models)}: {', '.join(map(str, report.models))}"),
        ("seeds per task", f"{seeds[0]}" if len(seeds) == 1 else f"{seeds[0]} to {seeds[-1]}"),
        ("metric", f"{metric}, {'higher' if report.higher_is_better else 'lower'} is better"),
        ("differences", "model A minus model B, paired by (task, seed)"),
        ("test", f"paired t; Holm-adjusted {'within each task' if family == 'task' else 'over every comparison'}; "
                 f"reject when p <= alpha = {alpha:g}"),
        ("intervals", f"paired t at {1 - alpha:.0%}; TOST at {1 - 2 * alpha:.0%}"),
        ("margin", "none given (no equivalence view)" if margin is None else f"{margin:g}, in the units of the score"),
        ("power", f"minimum detectable effect at {target_power:.0%} power"
                  + ("" if correction == "none" else f", at the level of the {correction} decision")),
        ("failed runs", f"{len(report.failed_runs)} ({report.failed})"),
    ]


def _design_frame(*arguments: Any) -> pd.DataFrame:
    return pd.DataFrame(design(*arguments), columns=["", "value"])


def _cell(value: Any, column: str, precision: int) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return "–"
        return f"{value:.3g}" if column in _PVALUE else f"{value:.{precision}f}"
    return str(value)


def formatted(frame: pd.DataFrame, precision: int) -> list[list[str]]:
    """The cells of ``frame`` as text: floats at ``precision`` decimals, p-values at 3 significant digits."""
    return [[_cell(v, c, precision) for c, v in zip(frame.columns, row)] for row in frame.itertuples(index=False)]


def ranks_frame(friedman: Any) -> pd.DataFrame:
    return friedman.mean_ranks.rename("mean_rank").rename_axis("model").reset_index()


def friedman_line(f: Any) -> str:
    gap = f"{f.n_for_observed_gap} tasks would be needed for that gap" if f.n_for_observed_gap else "no gap"
    return (f"Friedman chi2 = {f.statistic:.4f}, p = {f.pvalue:.3g}; Iman–Davenport F = {f.statistic_f:.4f}, "
            f"p = {f.pvalue_f:.3g}; critical difference {f.critical_difference:.4f} at alpha = {f.alpha:g} "
            f"with {f.n_tasks} tasks; largest mean-rank gap {f.max_rank_gap:.4f}; {gap}.")


def _sections(shown: dict[str, Any]) -> list[tuple[str, pd.DataFrame | None, str]]:
    """(title, table, note) in the order every output shows them."""
    out: list[tuple[str, pd.DataFrame | None, str]] = [
        ("Scores per task (mean ± sd over the seeds)", shown["describe"], ""),
        ("Is there a difference? (pairwise)", shown["pairwise"], "mean_diff is A minus B; reject uses pvalue_holm."),
        ("Could this design see one? (power)", shown["power"], "detectable: the observed difference is at least the MDE."),
    ]
    if "equivalence" in shown:
        out.append(("Can we claim there is none? (equivalence)", shown["equivalence"],
                    "TOST crossed with the difference test, Holm-adjusted as the design says: four verdicts."))
    if "bayesian" in shown or "bayesian_note" in shown:
        out.append(("How probable is a practical difference? (Bayesian paired t, ROPE = the margin)",
                    shown.get("bayesian"),
                    shown.get("bayesian_note", "posterior probabilities under the noninformative prior, over the "
                              "seeds of each task; no correction for the number of comparisons.")))
    if "friedman" in shown:
        out.append(("Ranking across tasks (Friedman)", ranks_frame(shown["friedman"]), friedman_line(shown["friedman"])))
    if "aggregate" in shown or "aggregate_note" in shown:
        out.append(("Aggregate scores across tasks (IQM, mean, median, optimality gap)", shown.get("aggregate"),
                    shown.get("aggregate_note", "95% stratified-bootstrap intervals (runs resampled within each "
                              "task, rng=0).")))
    failed = shown["failed_runs"]
    out.append(("Failed runs", failed if len(failed) else None,
                "none" if not len(failed) else "their pairs are left out of every comparison"))
    return out


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


def to_markdown(report: Any, margin: float | None, alpha: float, target_power: float, precision: int,
                call: str | None, metric: str = "score", family: str = "task", correction: str = "none") -> str:
    shown = views(report, margin, alpha, target_power, family, correction)
    parts = ["# Report", "", md(shown["summary"]), "", "## Design", "",
             markdown_table(_design_frame(report, margin, alpha, target_power, metric, family, correction), precision)]
    for title, frame, note in _sections(shown):
        parts += ["", f"## {title}", ""]
        if frame is not None:
            parts += [markdown_table(frame, precision), ""]
        if note:
            parts.append(md(note))
    env = environment(report, call)
    parts += ["", "## Environment", "", markdown_table(pd.DataFrame(list(env.items()), columns=["", "value"]), precision)]
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


def to_latex(report: Any, precision: int, bold_best: bool) -> str:
    """Mean ± sd of every model on every task (booktabs), the best mean per task in bold if asked."""
    described = report.describe()
    means = described.pivot(index="model", columns="task", values="mean").reindex(index=list(report.models),
                                                                                 columns=list(report.tasks))
    sds = described.pivot(index="model", columns="task", values="sd").reindex_like(means)
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


def _scores_figure(report: Any, metric: str) -> Any:
    described = report.describe()

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


def _cd_figure(friedman: Any, alpha: float) -> Any:
    def draw(figure_class):
        from .plots import cd_diagram

        fig = figure_class(figsize=(7, 0.5 + 0.45 * friedman.n_models), layout="constrained")
        cd_diagram(fig.subplots(), friedman.result, alpha=alpha)
        return fig

    return draw


def _figure(svg: str | None, caption: str) -> str:
    if svg is None:
        return (f"<p class='note'>({html.escape(caption)}: not drawn: matplotlib is not installed; "
                "sigeval's plots extra installs it, as the README shows)</p>")
    return f"<figure role='img' aria-label='{html.escape(caption)}'>{svg}<figcaption>{html.escape(caption)}</figcaption></figure>"


def to_html(report: Any, path: str | Path, margin: float | None, alpha: float, target_power: float, precision: int,
            call: str | None, title: str | None, metric: str = "score", family: str = "task",
            correction: str = "none") -> Path:
    shown = views(report, margin, alpha, target_power, family, correction)
    heading = title or f"Report: {len(report.models)} models on {len(report.tasks)} task(s)"
    env = environment(report, call)
    body = [f"<h1>{html.escape(heading)}</h1>",
            f"<p class='note'>sigeval {html.escape(env['sigeval'])}, {html.escape(env['date'])}</p>",
            "<h2>In plain words</h2>", f"<p class='summary'>{html.escape(shown['summary'])}</p>",
            "<h2>Design</h2>", html_table(_design_frame(report, margin, alpha, target_power, metric, family, correction),
                                          precision)]
    for section, frame, note in _sections(shown):
        body.append(f"<h2>{html.escape(section)}</h2>")
        if section.startswith("Scores per task"):
            body.append(_figure(_svg(_scores_figure(report, metric), "scores"),
                                f"Mean score of each model on each task, with ± one sd over the seeds ({metric})"))
        if section.startswith("Ranking") and "friedman" in shown:
            body.append(_figure(_svg(_cd_figure(shown["friedman"], alpha), "cd"),
                                f"Critical-difference diagram: mean ranks over {shown['friedman'].n_tasks} tasks, "
                                f"Nemenyi at alpha = {alpha:g}"))
        if frame is not None:
            body.append(html_table(frame, precision, "reject"))  # html_table marks nothing without a reject column
        if note:
            body.append(f"<p class='note'>{html.escape(note)}</p>")
    body += ["<h2>Environment</h2>", html_table(pd.DataFrame(list(env.items()), columns=["", "value"]), precision)]
    return _write_page(path, heading, body)


def tables_page(path: str | Path, heading: str, tables: dict[str, pd.DataFrame], note: str,
                env: dict[str, str]) -> Path:
    """A page of tables only (what ``sigeval compare`` writes), self-contained like :func:`to_html`."""
    body = [f"<h1>{html.escape(heading)}</h1>"]
    for name, frame in tables.items():
        body += [f"<h2>{html.escape(name)}</h2>", html_table(frame, 4)]
    body += [f"<p class='note'>{html.escape(note)}</p>", "<h2>Environment</h2>",
             html_table(pd.DataFrame(list(env.items()), columns=["", "value"]), 4)]
    return _write_page(path, heading, body)


def _write_page(path: str | Path, heading: str, body: list[str]) -> Path:
    page = ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'><title>{html.escape(heading)}</title>"
            f"<style>{_STYLE}</style></head><body>\n" + "\n".join(body) + "\n</body></html>\n")
    out = Path(path)
    out.write_text(page, encoding="utf-8")
    return out

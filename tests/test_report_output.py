"""Report's outputs (sigeval._report_output): Markdown, LaTeX, the HTML page in a browser, the environment."""

import html
import importlib.util
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from sigeval import Report

ROOT = Path(__file__).parents[1]
EXAMPLE = ROOT / "src" / "sigeval" / "data" / "example_runs.csv"


@pytest.fixture(scope="module")
def report():
    return Report(pd.read_csv(EXAMPLE))


def test_markdown_holds_every_view_with_the_numbers_of_the_tables(report):
    text = report.to_markdown(margin=0.01, precision=4)
    for heading in ("## Design", "## Scores per task", "(pairwise)", "(power)", "(equivalence)", "(Friedman)",
                    "## Failed runs", "## Environment"):
        assert heading in text
    pairwise = report.pairwise()
    # The plain-words count of differences is the table's count of rejections.
    assert f"{int(pairwise.reject.sum())} of {len(pairwise)} comparison(s) differ" in text
    first = pairwise.iloc[0]
    assert f"| {first.task} | {first.model_a} | {first.model_b} | 5 | {first.mean_diff:.4f} |" in text
    assert f"{pairwise.pvalue.iloc[0]:.3g}" in text
    for key in ("sigeval", "Python", "numpy", "scipy", "pandas", "platform", "BLAS", "call", "input table", "date"):
        assert re.search(rf"^\| {key} \| .+ \|$", text, flags=re.MULTILINE), key


def test_latex_is_booktabs_at_the_stated_precision_with_the_best_in_bold(report):
    text = report.to_latex(precision=2, bold_best=True)
    assert "\\toprule" in text and "\\midrule" in text and "\\bottomrule" in text
    means = report.describe().pivot(index="model", columns="task", values="mean")
    bold = re.findall(r"\\textbf\{(\d\.\d\d) \$\\pm\$", text)
    assert len(bold) == len(report.tasks)
    assert sorted(bold) == sorted(f"{v:.2f}" for v in means.max())
    assert "\\textbf" not in report.to_latex(precision=2)
    assert re.search(r"0\.854 \$\\pm\$ 0\.009", report.to_latex())
    lower = Report(pd.read_csv(EXAMPLE), higher_is_better=False).to_latex(bold_best=True)
    assert sorted(re.findall(r"\\textbf\{(\d\.\d+) ", lower)) == sorted(f"{v:.3f}" for v in means.min())
    special = Report({"task": ["a_b"] * 4, "model": ["x&y"] * 2 + ["50%"] * 2, "seed": [0, 1] * 2,
                      "score": [1.0, 2.0, 3.0, 5.0]}).to_latex()
    assert "a\\_b" in special and "x\\&y" in special and "50\\%" in special


@pytest.mark.parametrize("bad, error, match", [
    (dict(precision=-1), ValueError, "`precision` must be an integer >= 0"),
    (dict(precision=2.5), TypeError, "`precision`"),
    (dict(bold_best="yes"), TypeError, "`bold_best`"),
])
def test_outputs_refuse_bad_options(report, bad, error, match):
    with pytest.raises(error, match=match):
        report.to_latex(**bad)


def test_the_page_is_one_self_contained_file(report, tmp_path):
    page = report.to_html(tmp_path / "report.html", margin=0.01)
    text = page.read_text()
    assert text.count("<svg") == 2  # the scores per task and the CD diagram
    assert "<script" not in text and "<link" not in text and "src=" not in text
    assert not re.search(r"url\((?!#)|@import", text)  # url(#clip-id) points inside the page
    ids = re.findall(r"\bid=\"([^\"]+)\"", text)
    assert len(ids) == len(set(ids))
    assert "In plain words" in text and report.summary(margin=0.01).replace("'", "&#x27;") in text


def test_the_page_in_headless_chromium(report, tmp_path):
    """Opened offline: the text is there, the figures are drawn, nothing is requested; a screenshot in _build/."""
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium is None or importlib.util.find_spec("playwright") is None:
        pytest.skip("Chromium or playwright is missing (apt-get install chromium)")
    from playwright.sync_api import sync_playwright

    page_file = report.to_html(tmp_path / "report.html", margin=0.01, title="The shape benchmark")
    shots = ROOT / "_build" / "report_page"
    shots.mkdir(parents=True, exist_ok=True)
    requests = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        try:
            context = browser.new_context(offline=True, viewport={"width": 1200, "height": 900})
            page = context.new_page()
            page.on("request", lambda req: requests.append(req.url))
            page.goto(page_file.as_uri(), wait_until="load")
            body = page.inner_text("body")
            sizes = page.evaluate("[...document.querySelectorAll('figure svg')].map(s => {"
                                  "const r = s.getBoundingClientRect(); return [r.width, r.height,"
                                  " s.querySelectorAll('path, use').length]; })")
            page.screenshot(path=str(shots / "report.png"), full_page=True)
            context.close()
        finally:
            browser.close()
    assert requests == [page_file.as_uri()]
    for text in ("The shape benchmark", "In plain words", "matcher A", "critical difference", "Environment",
                 "undetermined", "BLAS"):
        assert text in body
    assert len(sizes) == 2 and all(w > 200 and h > 80 and marks > 10 for w, h, marks in sizes), sizes
    assert (shots / "report.png").stat().st_size > 50_000


def test_environment_block_names_versions_call_hash_and_date(report):
    from sigeval._report_output import environment, table_hash

    env = environment(report, call="sigeval runs runs.csv")
    assert env["call"] == "sigeval runs runs.csv"
    assert env["numpy"] == np.__version__ and env["pandas"] == pd.__version__
    assert re.fullmatch(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC", env["date"])
    # The hash follows the runs, not the order of the columns or the extra columns of the file.
    shuffled = Report(pd.read_csv(EXAMPLE)[["score", "seed", "model", "task"]].assign(note="x"))
    assert table_hash(shuffled.runs) == table_hash(report.runs)
    changed = pd.read_csv(EXAMPLE)
    changed.loc[0, "score"] += 1e-4
    assert table_hash(Report(changed).runs) != table_hash(report.runs)


def test_outputs_follow_the_holm_family_and_the_power_correction(report):
    text = report.to_markdown(margin=0.01, family="all", correction="holm")
    assert "Holm-adjusted over every comparison" in text and "at the level of the holm decision" in text
    pairwise = report.pairwise(family="all")
    assert f"{int(pairwise.reject.sum())} of {len(pairwise)} comparison(s) differ" in text
    assert report.summary(margin=0.01, family="all", correction="holm") in text


def test_outputs_show_the_bayesian_and_aggregate_views_with_their_numbers(report, tmp_path):
    text = report.to_markdown(margin=0.01, precision=4)
    assert "## How probable is a practical difference? (Bayesian paired t, ROPE = the margin)" in text
    assert "## Aggregate scores across tasks (IQM, mean, median, optimality gap)" in text
    aggregate = report.aggregate(rng=0).iloc[0]
    assert f"| {aggregate.model} | {aggregate.n_runs} | {aggregate.n_tasks} | {aggregate.iqm:.4f} |" in text
    bayes = report.bayesian(0.01).iloc[0]
    assert f"{bayes.prob_rope:.4f}" in text
    # Without a margin there is no ROPE, so no Bayesian view; the aggregates stay.
    plain = report.to_markdown(precision=4)
    assert "Bayesian paired t" not in plain and "Aggregate scores" in plain
    page = report.to_html(tmp_path / "page.html", margin=0.01).read_text()
    assert "Bayesian paired t" in page and "Aggregate scores across tasks" in page


def test_a_view_the_runs_cannot_support_is_explained_not_raised():
    runs = pd.read_csv(EXAMPLE)
    runs.loc[runs.index[0], "score"] = np.nan  # a failed run: the aggregates refuse it
    report = Report(runs, failed="drop-pairs")
    with pytest.raises(ValueError) as refused:
        report.aggregate(rng=0)
    text = report.to_markdown(precision=4)
    section = text.split("## Aggregate scores across tasks (IQM, mean, median, optimality gap)")[1]
    assert section.split("##")[0].strip() == str(refused.value)


def test_the_environment_records_each_output_call_with_its_defaults(report, tmp_path):
    text = report.to_markdown()
    assert ("| call | Report.to_markdown(margin=None, alpha=0.05, target_power=0.8, precision=4, "
            "family='task', correction='none') |") in text
    path = tmp_path / "defaults.html"
    page = report.to_html(path).read_text()
    call = (f"Report.to_html({str(path)!r}, margin=None, alpha=0.05, target_power=0.8, "
            "family='task', correction='none')")
    assert f"<td class='text'>{html.escape(call)}</td>" in page
    # Without a title the heading counts the models and tasks; with one, it is the title.
    assert f"<h1>Report: {len(report.models)} models on {len(report.tasks)} task(s)</h1>" in page
    titled = report.to_html(tmp_path / "titled.html", title="Shapes & matchers").read_text()
    assert "<h1>Shapes &amp; matchers</h1>" in titled and "<title>Shapes &amp; matchers</title>" in titled


def test_outputs_print_the_stated_number_of_decimals(report, tmp_path):
    first = report.pairwise().iloc[0]
    for precision in (0, 4):  # 4 by default
        cell = f"{first.mean_diff:.{precision}f}"
        markdown = report.to_markdown(**({} if precision == 4 else {"precision": precision}))
        assert f"| {first.task} | {first.model_a} | {first.model_b} | 5 | {cell} |" in markdown
        page = report.to_html(tmp_path / f"p{precision}.html",
                              **({} if precision == 4 else {"precision": precision})).read_text()
        assert f"<td class='num'>5</td><td class='num'>{cell}</td>" in page


@pytest.mark.parametrize("output", ["to_markdown", "to_html"])
def test_markdown_and_html_refuse_a_negative_precision_by_name(report, tmp_path, output):
    args = (tmp_path / "x.html",) if output == "to_html" else ()
    with pytest.raises(ValueError, match=r"^`precision` must be an integer >= 0; got -1\.$"):
        getattr(report, output)(*args, precision=-1)
    assert not (tmp_path / "x.html").exists()


def test_the_page_follows_the_holm_family_and_the_power_correction(report, tmp_path):
    page = report.to_html(tmp_path / "holm.html", margin=0.01, family="all", correction="holm").read_text()
    assert "Holm-adjusted over every comparison" in page and "at the level of the holm decision" in page
    pairwise = report.pairwise(family="all")
    assert f"{int(pairwise.reject.sum())} of {len(pairwise)} comparison(s) differ" in page


def test_latex_table_is_booktabs_text_left_numbers_right_specials_escaped():
    from sigeval._report_output import latex_table

    frame = pd.DataFrame({"model_a": ["a_b", "x&y"], "estimate": [0.123456, -1.5], "pvalue": [0.000123456, np.nan],
                          "reject": [True, False], "n": [3, 4], "note": ["50%", "{#~^$\\}"]})
    expected = "\n".join([
        r"\begin{tabular}{lrrlrl}",
        r"\toprule",
        r"model\_a & estimate & pvalue & reject & n & note \\",
        r"\midrule",
        r"a\_b & 0.1235 & 0.000123 & yes & 3 & 50\% \\",
        r"x\&y & -1.5000 & – & no & 4 & \{\#\textasciitilde{}\textasciicircum{}\$\textbackslash{}\} \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]) + "\n"
    assert latex_table(frame, 4) == expected
    assert latex_table(frame[["estimate"]], 2).splitlines()[4] == r"0.12 \\"


def test_the_comparison_page_holds_each_table_its_figure_the_note_and_the_environment(tmp_path, monkeypatch):
    from sigeval import _report_output as ro
    from sigeval import compare_predictions

    _figure_summary(monkeypatch)
    table = pd.DataFrame({"label": [0, 1, 1, 0, 1, 1, 0, 1], "A<1>": [0, 1, 1, 0, 1, 1, 0, 0],
                          "B": [0, 1, 0, 1, 1, 0, 0, 0]})
    res = compare_predictions(table, n_resamples=200, rng=0, confidence_level=0.9)
    out = ro.page(ro.ComparisonOutput(res, "p < 0.05 & more", "x & <y>.csv", "sigeval compare x.csv"),
                  tmp_path / "page.html")
    assert out == tmp_path / "page.html"
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>")
    heading = "Comparison of 2 models: x &amp; &lt;y&gt;.csv"
    assert f"<title>{heading}</title>" in page and page.endswith("\n</body></html>\n")
    body = page.split("</style></head><body>\n", 1)[1].removesuffix("\n</body></html>\n").split("\n")
    env = ro.versions() | {"call": "sigeval compare x.csv"}
    models = "Each model&#x27;s accuracy with its 90% interval"
    pairs = "Each pair&#x27;s difference (A minus B) with its 90% interval; the vertical line is no difference"
    assert body == [
        f"<h1>{heading}</h1>", "<h2>models</h2>",
        f"<figure role='img' aria-label='{models}'><svg models>;accuracy</svg><figcaption>{models}</figcaption></figure>",
        ro.html_table(res.per_model, 4), "<h2>pairs</h2>",
        f"<figure role='img' aria-label='{pairs}'><svg pairs>;difference in accuracy, A minus B</svg><figcaption>"
        f"{pairs}</figcaption></figure>",
        ro.html_table(res.pairs, 4), "<p class='note'>p &lt; 0.05 &amp; more</p>", "<h2>Environment</h2>",
        ro.html_table(pd.DataFrame(list(env.items()), columns=["", "value"]), 4)]
    assert "<td class='text'>A&lt;1&gt;</td><td class='num'>8</td>" in body[3]


def test_the_comparison_figures_draw_every_interval_and_stop_at_too_many_rows(monkeypatch):
    from matplotlib.figure import Figure

    from sigeval import _report_output as ro
    from sigeval import compare_predictions

    drawn = {}
    monkeypatch.setattr(ro, "_svg", lambda draw, name: drawn.setdefault(name, draw(Figure)) and f"<svg {name}/>")
    rng = np.random.default_rng(0)
    table = pd.DataFrame({"label": rng.integers(0, 2, 60)} | {f"m{i}": rng.integers(0, 2, 60) for i in range(4)})
    res = compare_predictions(table, n_resamples=100, rng=0)
    figures = ro._comparison_figures(res)
    assert figures["models"].startswith("<figure") and figures["pairs"].startswith("<figure")
    for name, frame, column, reference in (("models", res.per_model, "accuracy", None), ("pairs", res.pairs, "estimate", 0)):
        ax = drawn[name].axes[0]
        segments = [line.get_xdata() for line in ax.get_lines() if len(line.get_xdata()) == 2 and
                    line.get_ydata()[0] == line.get_ydata()[1]]
        np.testing.assert_array_equal(sorted(map(tuple, segments)),
                                      sorted(zip(frame.ci_low, frame.ci_high)))
        dots = sorted(float(line.get_xdata()[0]) for line in ax.get_lines() if line.get_marker() == "o")
        assert dots == sorted(frame[column])
        assert any(list(line.get_xdata()) == [reference, reference] for line in ax.get_lines()) == (reference == 0)
    many = pd.DataFrame({"label": rng.integers(0, 2, 30)} | {f"m{i}": rng.integers(0, 2, 30) for i in range(12)})
    res = compare_predictions(many, n_resamples=20, rng=0)  # 66 pairs
    figures = ro._comparison_figures(res)
    assert figures["models"].startswith("<figure") and figures["pairs"] == (
        "<p class='note'>(Each pair&#x27;s difference (A minus B) with its 95% interval; the vertical line is no "
        "difference: not drawn, 66 rows are too many for one figure; the table lists them)</p>")


def test_the_figures_of_compare_items_label_each_row_with_its_task(monkeypatch):
    from matplotlib.figure import Figure

    from sigeval import _report_output as ro
    from sigeval import compare_items

    drawn = {}
    monkeypatch.setattr(ro, "_svg", lambda draw, name: drawn.setdefault(name, draw(Figure)) and f"<svg {name}/>")
    rng = np.random.default_rng(1)
    rows = [(t, m, i, float(rng.random() < 0.7)) for t in ("arc", "gsm") for m in ("a", "b") for i in range(40)]
    res = compare_items(pd.DataFrame(rows, columns=["task", "model", "item", "score"]), sample=None, metric=None,
                        n_resamples=50,
                        rng=0)
    figures = ro._comparison_figures(res)
    assert set(figures) == {"models", "pairs"} and all(f.startswith("<figure") for f in figures.values())
    labels = [t.get_text() for t in drawn["models"].axes[0].get_yticklabels()]
    assert sorted(labels) == ["arc: a", "arc: b", "gsm: a", "gsm: b"]
    assert sorted(t.get_text() for t in drawn["pairs"].axes[0].get_yticklabels()) == ["arc: a − b", "gsm: a − b"]
    assert "Each model&#x27;s score" in figures["models"]


def test_latex_of_a_small_report_line_by_line():
    runs = pd.DataFrame({"task": ["t_1"] * 4 + ["t2"] * 6, "model": ["A", "A", "B", "B"] + ["A"] * 3 + ["B"] * 3,
                         "seed": [0, 1, 0, 1, 0, 1, 2, 0, 1, 2],
                         "score": [1.0, 3.0, 0.5, 1.5, 1.0, 2.0, 3.0, 4.0, 5.0, 9.0]})
    report = Report(runs)
    # sd: t_1 A sqrt(2), B sqrt(0.5); t2 A 1, B sqrt(7)
    cell = {("A", "t_1"): r"\textbf{2.000 $\pm$ 1.414}", ("B", "t_1"): r"1.000 $\pm$ 0.707",
            ("A", "t2"): r"2.000 $\pm$ 1.000", ("B", "t2"): r"\textbf{6.000 $\pm$ 2.646}"}
    tex = {"t_1": r"t\_1", "t2": "t2"}
    expected = "\n".join([
        r"% Mean $\pm$ sd over 2–3 seeds per task, 3 decimals; the best mean per task in bold.",
        r"\begin{tabular}{lrr}",
        r"\toprule",
        "model & " + " & ".join(tex[t] for t in report.tasks) + r" \\",
        r"\midrule",
        *[m + " & " + " & ".join(cell[m, t] for t in report.tasks) + r" \\" for m in ("A", "B")],
        r"\bottomrule",
        r"\end{tabular}",
    ]) + "\n"
    assert list(report.models) == ["A", "B"] and sorted(report.tasks) == ["t2", "t_1"]
    assert report.to_latex(precision=3, bold_best=True) == expected
    plain = report.to_latex(precision=1)
    assert plain.splitlines()[0] == r"% Mean $\pm$ sd over 2–3 seeds per task, 1 decimals."
    assert r"\textbf" not in plain and r"2.0 $\pm$ 1.4" in plain
    same = Report(runs[runs.task == "t2"]).to_latex(precision=2)
    assert same.splitlines()[0] == r"% Mean $\pm$ sd over 3 seeds per task, 2 decimals."


def test_html_table_cell_by_cell():
    from sigeval._report_output import html_table

    frame = pd.DataFrame({"model": ["A<b>", "B"], "estimate": [0.5, -0.25], "pvalue": [0.0123456, np.nan],
                          "reject": [True, False]})
    head = ("<th class='text'>model</th><th class='num'>estimate</th><th class='num'>pvalue</th>"
            "<th class='text'>reject</th>")
    first = ("<td class='text'>A&lt;b&gt;</td><td class='num'>0.50</td><td class='num'>0.0123</td>"
             "<td class='text'>yes</td>")
    second = "<td class='text'>B</td><td class='num'>-0.25</td><td class='num'>–</td><td class='text'>no</td>"

    def table(first_class):
        return (f"<div class='wrap'><table><thead><tr>{head}</tr></thead><tbody><tr class='{first_class}'>{first}</tr>"
                f"<tr class=''>{second}</tr></tbody></table></div>")

    assert html_table(frame, 2, highlight="reject") == table("yes")
    assert html_table(frame, 2) == table("")
    assert html_table(frame, 2, highlight="absent") == table("")


def test_svg_is_inline_deterministic_without_metadata_and_its_ids_prefixed():
    pytest.importorskip("matplotlib")
    from sigeval._report_output import _svg

    def draw(figure_class):
        fig = figure_class(figsize=(2, 1))
        ax = fig.subplots()
        ax.plot([0, 1], [0, 1], clip_on=True)
        ax.set_title("x")
        return fig

    svg = _svg(draw, "cd")
    assert svg.startswith("<svg") and svg.rstrip().endswith("</svg>")
    assert "<metadata" not in svg and "<?xml" not in svg and "<!DOCTYPE" not in svg
    assert re.match(r"<svg [^>]*>\s*<defs>", svg)  # the metadata block is gone, with nothing in its place
    assert "<text" not in svg  # fonts as paths
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids and all(i.startswith("cd-") for i in ids)
    references = re.findall(r'(?:href="#|url\(#)([^")]+)', svg)
    assert references and set(references) <= set(ids)
    assert _svg(draw, "cd") == svg  # the same figure, the same text (no date, salted ids)
    other = _svg(draw, "scores")
    assert not set(re.findall(r'\bid="([^"]+)"', other)) & set(ids)


# --------------------------------------------------------------------------- whole outputs of small fixed reports

FIXED_DATE = "2001-02-03 04:05:06 UTC"


def _two_tasks():
    """Two tasks, A ahead on both (mean ranks 1 and 2), 3 seeds, no failed run."""
    return Report(pd.DataFrame({"task": ["t1"] * 6 + ["t2"] * 6, "model": list("AAABBB") * 2, "seed": [0, 1, 2] * 4,
                                "score": [0.80, 0.82, 0.81, 0.70, 0.74, 0.71, 0.66, 0.65, 0.61, 0.62, 0.60, 0.60]}))


def _one_pair():
    """Task t keeps one pair (A's seed 1 failed), task u has 3 seeds; lower is better."""
    return Report(pd.DataFrame({"task": ["t"] * 4 + ["u"] * 6, "model": list("AABB") + list("AAABBB"),
                                "seed": [0, 1, 0, 1, 0, 1, 2, 0, 1, 2],
                                "score": [0.8, np.nan, 0.7, 0.74, 0.5, 0.4, 0.45, 0.3, 0.35, 0.2]}),
                  failed="drop-pairs", higher_is_better=False)


@pytest.fixture
def fixed_date(monkeypatch):
    """The environment block as computed, with its date fixed so that whole outputs can be compared."""
    from sigeval import _report_output as ro

    real = ro.environment

    def environment(report, call=None):
        out = real(report, call)
        out["date"] = FIXED_DATE
        return out

    monkeypatch.setattr(ro, "environment", environment)


def _markdown(report, margin, alpha, target_power, precision, call, **options):
    """The renderer's whole Markdown of ``report``, its views computed with these choices."""
    from sigeval import _report_output as ro

    choices = ro.Choices(margin, alpha, target_power, **options)
    return ro.markdown(ro.ReportOutput(report, choices, ro.views(report, choices), call=call, precision=precision))


def _page(report, path, margin, alpha, target_power, precision, call, title, **options):
    """The renderer's page of ``report``, its views computed with these choices."""
    from sigeval import _report_output as ro

    choices = ro.Choices(margin, alpha, target_power, **options)
    return ro.page(ro.ReportOutput(report, choices, ro.views(report, choices), call=call, precision=precision),
                   path, title)


def _environment_rows(report, call):
    """The environment block's rows, in order, from the libraries themselves."""
    import hashlib
    import platform

    import matplotlib
    import scipy

    import sigeval
    from sigeval._report_output import blas

    csv = report.runs[["task", "model", "seed", "score"]].to_csv(index=False)
    return [("sigeval", sigeval.__version__), ("Python", platform.python_version()), ("numpy", np.__version__),
            ("scipy", scipy.__version__), ("pandas", pd.__version__), ("matplotlib", matplotlib.__version__),
            ("platform", platform.platform()), ("BLAS", blas()), ("call", call),
            ("input table", f"sha256 {hashlib.sha256(csv.encode()).hexdigest()[:16]} ({len(report.runs)} runs as CSV: "
                            "task, model, seed, score)"),
            ("date", FIXED_DATE)]


def test_markdown_table_cell_by_cell():
    from sigeval._report_output import markdown_table

    frame = pd.DataFrame({"model": ["a|b", "C"], "estimate": [0.5, -1.25], "pvalue_holm": [0.0123456, np.nan],
                          "reject": [True, False], "n": [3, 12]})
    assert markdown_table(frame, 2) == "\n".join([
        "| model | estimate | pvalue_holm | reject | n |",
        "|:---|---:|---:|:---|---:|",
        "| a\\|b | 0.50 | 0.0123 | yes | 3 |",
        "| C | -1.25 | – | no | 12 |",
    ])
    assert markdown_table(frame[["estimate"]], 0) == "| estimate |\n|---:|\n| 0 |\n| -1 |"


def test_design_rows_state_every_choice():
    from sigeval._report_output import Choices, design

    assert design(_two_tasks(), Choices(0.05, 0.1, 0.9, "all", "holm", metric="acc")) == [
        ("tasks", "2: t1, t2"),
        ("models", "2: A, B"),
        ("seeds per task", "3"),
        ("metric", "acc, higher is better"),
        ("differences", "model A minus model B, paired by (task, seed)"),
        ("test", "paired t; Holm-adjusted over every comparison; reject when p <= alpha = 0.1"),
        ("intervals", "paired t at 90%; TOST at 80%"),
        ("margin", "0.05, in the units of the score"),
        ("power", "minimum detectable effect at 90% power, at the level of the holm decision"),
        ("failed runs", "0 (raise)"),
    ]
    assert design(_one_pair(), Choices(None, 0.05, 0.8, metric="err")) == [
        ("tasks", "2: t, u"),
        ("models", "2: A, B"),
        ("seeds per task", "2 to 3"),
        ("metric", "err, lower is better"),
        ("differences", "model A minus model B, paired by (task, seed)"),
        ("test", "paired t; Holm-adjusted within each task; reject when p <= alpha = 0.05"),
        ("intervals", "paired t at 95%; TOST at 90%"),
        ("margin", "none given (no equivalence view)"),
        ("power", "minimum detectable effect at 80% power"),
        ("failed runs", "1 (drop-pairs)"),
    ]


def test_views_are_the_reports_own_views_with_the_options_passed_on():
    from sigeval._report_output import Choices, friedman_line, views

    report = _two_tasks()
    shown = views(report, Choices(0.05, 0.1, 0.9, "all", "holm"))
    assert list(shown) == ["describe", "pairwise", "power", "summary", "failed_runs", "equivalence", "bayesian",
                           "friedman", "aggregate"]
    same = pd.testing.assert_frame_equal
    same(shown["describe"], report.describe())
    same(shown["pairwise"], report.pairwise(alpha=0.1, family="all"))
    same(shown["power"], report.power(alpha=0.1, target_power=0.9, correction="holm", family="all"))
    assert shown["summary"] == report.summary(margin=0.05, alpha=0.1, target_power=0.9, family="all",
                                              correction="holm")
    same(shown["failed_runs"], report.failed_runs)
    same(shown["equivalence"], report.equivalence(0.05, alpha=0.1, family="all"))
    same(shown["bayesian"], report.bayesian(0.05))
    assert shown["friedman"].alpha == 0.1
    assert friedman_line(shown["friedman"]) == friedman_line(report.friedman(alpha=0.1))
    same(shown["aggregate"], report.aggregate(rng=0))
    # The options change these views here, so a dropped option would show.
    assert not shown["pairwise"].equals(report.pairwise())
    assert not shown["power"].equals(report.power(alpha=0.1, target_power=0.9, family="all"))
    # The bootstrap of so few runs gives the same intervals under any seed: eight runs per task make rng=0 show.
    scores = np.random.default_rng(5).uniform(0.5, 0.9, 32)
    many = Report(pd.DataFrame({"task": np.repeat(["t1", "t2"], 16), "model": np.tile(np.repeat(["A", "B"], 8), 2),
                                "seed": np.tile(np.arange(8), 4), "score": scores}))
    aggregate = views(many, Choices())["aggregate"]
    same(aggregate, many.aggregate(rng=0))
    assert not aggregate.equals(many.aggregate(rng=1))

    refused = _one_pair()
    shown = views(refused, Choices(0.05))
    assert list(shown) == ["describe", "pairwise", "power", "summary", "failed_runs", "equivalence", "bayesian",
                           "friedman", "aggregate_note"]
    with pytest.raises(ValueError) as aggregate:
        refused.aggregate(rng=0)
    # The comparison of one pair is noted in its row of the Bayesian view, as in the pairwise view.
    same(shown["bayesian"], refused.bayesian(0.05))
    assert shown["bayesian"].note.tolist() == shown["pairwise"].note.tolist() and "at least 2" in shown["bayesian"].note[0]
    assert shown["aggregate_note"] == str(aggregate.value) and "needs every run" in shown["aggregate_note"]
    # The options of the Bayesian and aggregate views: a ROPE of its own, the resamples and the generator.
    own = views(many, Choices(0.05, rope=0.01, n_resamples=300, rng=4))
    same(own["bayesian"], many.bayesian(0.01))
    same(own["aggregate"], many.aggregate(n_resamples=300, rng=4))
    assert "bayesian" in views(many, Choices(rope=0.0)) and "bayesian" not in views(many, Choices())
    for bad, error in ((dict(rope=-0.1), ValueError), (dict(rope="x"), TypeError), (dict(n_resamples=0), ValueError),
                       (dict(rng="x"), TypeError)):
        with pytest.raises(error, match=f"`{next(iter(bad))}`"):  # checked before a view could hide it in a note
            views(refused, Choices(0.05, **bad))
    assert list(views(refused, Choices())) == ["describe", "pairwise", "power", "summary", "failed_runs",
                                                     "friedman", "aggregate_note"]
    single = Report(pd.DataFrame({"task": ["t"] * 4, "model": list("AABB"), "seed": [0, 1] * 2,
                                  "score": [1.0, 2.0, 0.5, 1.0]}))
    assert "friedman" not in views(single, Choices()) and "aggregate" in views(single, Choices())


def test_friedman_line_and_ranks_frame():
    from types import SimpleNamespace

    from sigeval._report_output import friedman_line, ranks_frame

    f = SimpleNamespace(statistic=2.0, pvalue=0.15729, statistic_f=1.23456, pvalue_f=0.012345,
                        critical_difference=1.5, alpha=0.05, n_tasks=4, max_rank_gap=1.0, n_for_observed_gap=7,
                        mean_ranks=pd.Series([1.25, 1.75], index=["A", "B"]))
    assert friedman_line(f) == ("Friedman chi2 = 2.0000, p = 0.157; Iman–Davenport F = 1.2346, p = 0.0123; "
                                "critical difference 1.5000 at alpha = 0.05 with 4 tasks; largest mean-rank gap "
                                "1.0000; 7 tasks would be needed for that gap.")
    f.n_for_observed_gap = None
    assert friedman_line(f).endswith("; largest mean-rank gap 1.0000; no gap.")
    pd.testing.assert_frame_equal(ranks_frame(f), pd.DataFrame({"model": ["A", "B"], "mean_rank": [1.25, 1.75]}))


def _markdown_sections(report, margin, alpha, target_power, family, correction, precision):
    """The sections of the Markdown, written out: titles and notes by hand, the tables from the report's views."""
    from sigeval._report_output import markdown_table

    def table(frame):
        return [markdown_table(frame, precision), ""]

    out = [("Scores per task (mean ± sd over the seeds)", table(report.describe())),
           ("Is there a difference? (pairwise)", [*table(report.pairwise(alpha=alpha, family=family)),
                                                  "mean_diff is A minus B; reject uses pvalue_holm."]),
           ("Could this design see one? (power)",
            [*table(report.power(alpha=alpha, target_power=target_power, correction=correction, family=family)),
             "detectable: the observed difference is at least the MDE."])]
    if margin is not None:
        out.append(("Can we claim there is none? (equivalence)",
                    [*table(report.equivalence(margin, alpha=alpha, family=family)),
                     "TOST crossed with the difference test, Holm-adjusted as the design says: four verdicts."]))
    return out


def test_markdown_of_a_small_report_whole(fixed_date):
    from sigeval._report_output import markdown_table

    report = _two_tasks()
    text = _markdown(report, 0.05, 0.1, 0.9, 3, "CALL", metric="acc", family="all", correction="holm")
    lines = ["# Report", "", report.summary(margin=0.05, alpha=0.1, target_power=0.9, family="all", correction="holm"),
             "", "## Design", "",
             "|  | value |",
             "|:---|:---|",
             "| tasks | 2: t1, t2 |",
             "| models | 2: A, B |",
             "| seeds per task | 3 |",
             "| metric | acc, higher is better |",
             "| differences | model A minus model B, paired by (task, seed) |",
             "| test | paired t; Holm-adjusted over every comparison; reject when p <= alpha = 0.1 |",
             "| intervals | paired t at 90%; TOST at 80% |",
             "| margin | 0.05, in the units of the score |",
             "| power | minimum detectable effect at 90% power, at the level of the holm decision |",
             "| failed runs | 0 (raise) |"]
    sections = _markdown_sections(report, 0.05, 0.1, 0.9, "all", "holm", 3)
    sections += [
        ("How probable is a practical difference? (Bayesian paired t, ROPE = the margin)",
         [markdown_table(report.bayesian(0.05), 3), "",
          "posterior probabilities under the noninformative prior, over the seeds of each task; no correction for "
          "the number of comparisons."]),
        ("Ranking across tasks (Friedman)",
         ["| model | mean_rank |", "|:---|---:|", "| A | 1.000 |", "| B | 2.000 |", "",
          "Friedman chi2 = 2.0000, p = 0.157; Iman–Davenport F = inf, p = 0; critical difference 1.1631 at alpha = 0.1 "
          "with 2 tasks; largest mean-rank gap 1.0000; 3 tasks would be needed for that gap."]),
        ("Aggregate scores across tasks (IQM, mean, median, optimality gap)",
         [markdown_table(report.aggregate(rng=0), 3), "",
          "95% stratified-bootstrap intervals (runs resampled within each task, rng=0)."]),
        ("Failed runs", ["none"]),
    ]
    for title, body in sections:
        lines += ["", f"## {title}", "", *body]
    lines += ["", "## Environment", "", "|  | value |", "|:---|:---|",
              *[f"| {key} | {value} |" for key, value in _environment_rows(report, "CALL")]]
    assert text == "\n".join(lines) + "\n"
    assert "| t1 | A | B | 3 | 0.093 | " in text and "| B | 2.000 |" in text


def test_markdown_explains_the_views_the_runs_cannot_support(fixed_date):
    from sigeval._report_output import markdown_table

    report = _one_pair()
    text = _markdown(report, 0.05, 0.05, 0.8, 2, "CALL")
    bayesian = report.bayesian(0.05)
    with pytest.raises(ValueError) as aggregate:
        report.aggregate(rng=0)
    lines = ["# Report", "", report.summary(margin=0.05), "", "## Design", "",
             "|  | value |",
             "|:---|:---|",
             "| tasks | 2: t, u |",
             "| models | 2: A, B |",
             "| seeds per task | 2 to 3 |",
             "| metric | score, lower is better |",
             "| differences | model A minus model B, paired by (task, seed) |",
             "| test | paired t; Holm-adjusted within each task; reject when p <= alpha = 0.05 |",
             "| intervals | paired t at 95%; TOST at 90% |",
             "| margin | 0.05, in the units of the score |",
             "| power | minimum detectable effect at 80% power |",
             "| failed runs | 1 (drop-pairs) |"]
    sections = _markdown_sections(report, 0.05, 0.05, 0.8, "task", "none", 2)
    sections += [
        ("How probable is a practical difference? (Bayesian paired t, ROPE = the margin)",
         [markdown_table(bayesian, 2), "", "posterior probabilities under the noninformative prior, over the seeds of "
          "each task; no correction for the number of comparisons."]),
        # Lower is better: B is ahead on both tasks.
        ("Ranking across tasks (Friedman)",
         ["| model | mean_rank |", "|:---|---:|", "| A | 2.00 |", "| B | 1.00 |", "",
          "Friedman chi2 = 2.0000, p = 0.157; Iman–Davenport F = inf, p = 0; critical difference 1.3859 at alpha = 0.05 "
          "with 2 tasks; largest mean-rank gap 1.0000; 4 tasks would be needed for that gap."]),
        ("Aggregate scores across tasks (IQM, mean, median, optimality gap)", [str(aggregate.value)]),
        ("Failed runs", ["| task | model | seed | reason |", "|:---|:---|---:|:---|", "| t | A | 1 | score is NaN |",
                         "", "their pairs are left out of every comparison"]),
    ]
    for title, body in sections:
        lines += ["", f"## {title}", "", *body]
    lines += ["", "## Environment", "", "|  | value |", "|:---|:---|",
              *[f"| {key} | {value} |" for key, value in _environment_rows(report, "CALL")]]
    assert text == "\n".join(lines) + "\n"
    assert "at least 2" in bayesian.note[0] and "needs every run" in str(aggregate.value)
    assert "| not tested: 1 seed(s) on which both ran" in text
    # Without a margin: no equivalence view and no Bayesian one (no ROPE); the sections keep their order.
    assert re.findall(r"^## (.*)$", _markdown(report, None, 0.05, 0.8, 2, "CALL"), flags=re.MULTILINE) == [
        "Design", "Scores per task (mean ± sd over the seeds)", "Is there a difference? (pairwise)",
        "Could this design see one? (power)", "Ranking across tasks (Friedman)",
        "Aggregate scores across tasks (IQM, mean, median, optimality gap)", "Failed runs", "Environment"]


def _figure_summary(monkeypatch):
    """Stand in for the SVG: draw the figure, then write its name, axes titles and x labels (figures are tested apart)."""
    from matplotlib.figure import Figure

    from sigeval import _report_output as ro

    def svg(draw, name):
        fig = draw(Figure)
        return f"<svg {name}>{'|'.join(ax.get_title() for ax in fig.axes)};{'|'.join(ax.get_xlabel() for ax in fig.axes)}</svg>"

    monkeypatch.setattr(ro, "_svg", svg)


def _page_body(page):
    head, body = page.split("</style></head><body>\n", 1)
    return head, body.removesuffix("\n</body></html>\n").split("\n")


def test_page_of_a_small_report_whole(fixed_date, monkeypatch, tmp_path):
    from sigeval import _report_output as ro

    _figure_summary(monkeypatch)
    report = _two_tasks()
    out = _page(report, tmp_path / "p.html", 0.05, 0.1, 0.9, 3, "CALL", None, metric="acc", family="all",
                correction="holm")
    assert out == tmp_path / "p.html"
    head, body = _page_body(out.read_text(encoding="utf-8"))
    assert head == ("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'><meta name='viewport' "
                    "content='width=device-width, initial-scale=1'><title>Report: 2 models on 2 task(s)</title>"
                    f"<style>{ro._STYLE}")

    def table(frame, highlight=None):
        return ro.html_table(frame, 3, highlight)

    def note(text):
        return f"<p class='note'>{text}</p>"

    scores = "Mean score of each model on each task, with ± one sd over the seeds (acc)"
    cd = "Critical-difference diagram: mean ranks over 2 tasks, Nemenyi at alpha = 0.1"
    rows = [(what, value) for what, value in ro.design(report, ro.Choices(0.05, 0.1, 0.9, "all", "holm", metric="acc"))]
    summary = report.summary(margin=0.05, alpha=0.1, target_power=0.9, family="all", correction="holm")
    assert body == [
        "<h1>Report: 2 models on 2 task(s)</h1>",
        f"<p class='note'>sigeval {_environment_rows(report, 'CALL')[0][1]}, {FIXED_DATE}</p>",
        "<h2>In plain words</h2>", f"<p class='summary'>{html.escape(summary)}</p>",
        "<h2>Design</h2>", table(pd.DataFrame(rows, columns=["", "value"])),
        "<h2>Scores per task (mean ± sd over the seeds)</h2>",
        f"<figure role='img' aria-label='{scores}'><svg scores>t1|t2;acc|acc</svg><figcaption>{scores}</figcaption>"
        "</figure>",
        table(report.describe()),
        "<h2>Is there a difference? (pairwise)</h2>", table(report.pairwise(alpha=0.1, family="all"), "reject"),
        note("mean_diff is A minus B; reject uses pvalue_holm."),
        "<h2>Could this design see one? (power)</h2>",
        table(report.power(alpha=0.1, target_power=0.9, correction="holm", family="all")),
        note("detectable: the observed difference is at least the MDE."),
        "<h2>Can we claim there is none? (equivalence)</h2>", table(report.equivalence(0.05, alpha=0.1, family="all")),
        note("TOST crossed with the difference test, Holm-adjusted as the design says: four verdicts."),
        "<h2>How probable is a practical difference? (Bayesian paired t, ROPE = the margin)</h2>",
        table(report.bayesian(0.05)),
        note("posterior probabilities under the noninformative prior, over the seeds of each task; no correction for "
             "the number of comparisons."),
        "<h2>Ranking across tasks (Friedman)</h2>",
        f"<figure role='img' aria-label='{cd}'><svg cd>mean rank (1 = best); Nemenyi CD = 1.163 at α = 0.1, 2 models, "
        f"N = 2;</svg><figcaption>{cd}</figcaption></figure>",
        table(pd.DataFrame({"model": ["A", "B"], "mean_rank": [1.0, 2.0]})),
        note("Friedman chi2 = 2.0000, p = 0.157; Iman–Davenport F = inf, p = 0; critical difference 1.1631 at alpha = "
             "0.1 with 2 tasks; largest mean-rank gap 1.0000; 3 tasks would be needed for that gap."),
        "<h2>Aggregate scores across tasks (IQM, mean, median, optimality gap)</h2>", table(report.aggregate(rng=0)),
        note("95% stratified-bootstrap intervals (runs resampled within each task, rng=0)."),
        "<h2>Failed runs</h2>", note("none"),
        "<h2>Environment</h2>", table(pd.DataFrame(_environment_rows(report, "CALL"), columns=["", "value"])),
    ]
    # The pairwise rows that reject are marked (t1 does, t2 does not), and the design's cells are text.
    assert "<tr class='yes'><td class='text'>t1</td>" in body[10] and "<tr class=''><td class='text'>t2</td>" in body[10]
    assert "<td class='text'>acc, higher is better</td>" in body[5]


def test_page_with_a_title_refused_views_and_failed_runs(fixed_date, monkeypatch, tmp_path):
    from sigeval import _report_output as ro

    _figure_summary(monkeypatch)
    report = _one_pair()
    out = _page(report, str(tmp_path / "q.html"), None, 0.05, 0.8, 2, "CALL", "A & <B>")
    assert out == tmp_path / "q.html"
    head, body = _page_body(out.read_text(encoding="utf-8"))
    assert head.endswith(f"<title>A &amp; &lt;B&gt;</title><style>{ro._STYLE}")
    with pytest.raises(ValueError) as aggregate:
        report.aggregate(rng=0)
    scores = "Mean score of each model on each task, with ± one sd over the seeds (score)"
    cd = "Critical-difference diagram: mean ranks over 2 tasks, Nemenyi at alpha = 0.05"
    assert body[0] == "<h1>A &amp; &lt;B&gt;</h1>"
    assert body[5] == ro.html_table(pd.DataFrame(ro.design(report, ro.Choices()), columns=["", "value"]), 2)
    assert "<td class='text'>paired t; Holm-adjusted within each task; reject when p &lt;= alpha = 0.05</td>" in body[5]
    assert body[7] == (f"<figure role='img' aria-label='{scores}'><svg scores>t|u;score|score</svg>"
                       f"<figcaption>{scores}</figcaption></figure>")
    assert body[15:] == [
        "<h2>Ranking across tasks (Friedman)</h2>",
        f"<figure role='img' aria-label='{cd}'><svg cd>mean rank (1 = best); Nemenyi CD = 1.386 at α = 0.05, 2 models, "
        f"N = 2;</svg><figcaption>{cd}</figcaption></figure>",
        ro.html_table(pd.DataFrame({"model": ["A", "B"], "mean_rank": [2.0, 1.0]}), 2),
        "<p class='note'>Friedman chi2 = 2.0000, p = 0.157; Iman–Davenport F = inf, p = 0; critical difference 1.3859 "
        "at alpha = 0.05 with 2 tasks; largest mean-rank gap 1.0000; 4 tasks would be needed for that gap.</p>",
        "<h2>Aggregate scores across tasks (IQM, mean, median, optimality gap)</h2>",
        f"<p class='note'>{html.escape(str(aggregate.value))}</p>",
        "<h2>Failed runs</h2>",
        ro.html_table(report.failed_runs, 2),
        "<p class='note'>their pairs are left out of every comparison</p>",
        "<h2>Environment</h2>",
        ro.html_table(pd.DataFrame(_environment_rows(report, "CALL"), columns=["", "value"]), 2),
    ]
    assert "<td class='text'>score is NaN</td>" in body[22]


def test_without_matplotlib_the_page_says_so(monkeypatch):
    import sys

    from sigeval import _report_output as ro

    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    assert ro._svg(lambda figure_class: pytest.fail("drawn"), "x") is None
    assert ro._figure(None, "A & 'B'") == ("<p class='note'>(A &amp; &#x27;B&#x27;: not drawn: matplotlib is not "
                                           "installed; sigeval's plots extra installs it, as the README shows)</p>")
    assert ro._figure("<svg/>", "A & B") == ("<figure role='img' aria-label='A &amp; B'><svg/>"
                                             "<figcaption>A &amp; B</figcaption></figure>")
    assert ro.versions()["matplotlib"] == "not installed"


def test_versions_blas_and_the_table_hash(monkeypatch):
    import hashlib
    import platform

    import matplotlib
    import scipy

    import sigeval
    from sigeval import _report_output as ro

    assert ro.versions() == {"sigeval": sigeval.__version__, "Python": platform.python_version(),
                             "numpy": np.__version__, "scipy": scipy.__version__, "pandas": pd.__version__,
                             "matplotlib": matplotlib.__version__, "platform": platform.platform(), "BLAS": ro.blas()}
    assert list(ro.versions()) == ["sigeval", "Python", "numpy", "scipy", "pandas", "matplotlib", "platform", "BLAS"]
    blas = np.show_config(mode="dicts")["Build Dependencies"]["blas"]
    assert ro.blas() == f"{blas['name']} {blas['version']}"

    def config(library):
        def show_config(mode="stdout"):
            assert mode == "dicts"
            return {"Build Dependencies": {"blas": library}}
        return show_config

    for library, expected in [({"name": "openblas", "version": "0.3.1"}, "openblas 0.3.1"),
                              ({"name": "mkl"}, "mkl"), ({"version": "1.0"}, "unknown 1.0"), ({}, "unknown")]:
        monkeypatch.setattr(np, "show_config", config(library))
        assert ro.blas() == expected
    monkeypatch.setattr(np, "show_config", lambda mode="stdout": {})
    assert ro.blas() == "unknown"
    runs = pd.DataFrame({"note": ["x", "y"], "score": [0.5, 1.0], "seed": [0, 1], "model": ["A", "A"],
                         "task": ["t", "t"]})
    assert ro.table_hash(runs) == hashlib.sha256(b"task,model,seed,score\nt,A,0,0.5\nt,A,1,1.0\n").hexdigest()[:16]


def test_environment_in_order_with_the_date_in_utc(monkeypatch):
    import sys
    import time
    from datetime import UTC, datetime

    from sigeval import _report_output as ro

    report = _two_tasks()
    monkeypatch.setattr(sys, "argv", ["sigeval", "runs", "a b.csv"])
    monkeypatch.setenv("TZ", "Pacific/Kiritimati")  # UTC+14: a local date would show
    time.tzset()
    try:
        before = datetime.now(UTC).replace(microsecond=0)
        env = ro.environment(report)
        after = datetime.now(UTC)
    finally:
        monkeypatch.undo()
        time.tzset()
    assert list(env) == ["sigeval", "Python", "numpy", "scipy", "pandas", "matplotlib", "platform", "BLAS", "call",
                         "input table", "date"]
    assert {k: env[k] for k in list(env)[:8]} == ro.versions()
    assert env["call"] == "sigeval runs a b.csv"
    assert env["input table"] == f"sha256 {ro.table_hash(report.runs)} (12 runs as CSV: task, model, seed, score)"
    assert env["date"].endswith(" UTC")
    assert before <= datetime.strptime(env["date"], "%Y-%m-%d %H:%M:%S UTC").replace(tzinfo=UTC) <= after
    assert ro.environment(report, call="given")["call"] == "given"


def test_scores_figure_one_panel_per_task_mean_and_sd_of_each_model():
    pytest.importorskip("matplotlib")
    from matplotlib.colors import to_rgba
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from sigeval._report_output import _scores_figure

    fig = _scores_figure(_one_pair(), _one_pair().describe(), "err")(Figure)
    assert tuple(fig.get_size_inches()) == pytest.approx((7.2, 2.1))  # 3.6 per task, 1.3 + 0.4 per model
    assert isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)
    axes = fig.axes
    assert [ax.get_title() for ax in axes] == ["t", "u"] and {ax.title.get_fontsize() for ax in axes} == {10}
    assert [ax.get_xlabel() for ax in axes] == ["err", "err"]
    assert list(axes[0].get_yticks()) == [0, 1] and [t.get_text() for t in axes[0].get_yticklabels()] == ["A", "B"]
    assert axes[0].get_shared_y_axes().joined(axes[0], axes[1])
    assert all(ax.yaxis_inverted() for ax in axes)  # the first model on top
    # t: A has one run (sd NaN, drawn as no bar), B has two; u: both have three.
    means = {"t": [0.8, 0.72], "u": [0.45, 0.85 / 3]}
    sds = {"t": [0.0, np.sqrt(0.0008)], "u": [0.05, np.sqrt(0.0175 / 3)]}
    for ax, task in zip(axes, ["t", "u"]):
        (bars,), (points,) = [c for c in ax.collections if type(c).__name__ == "LineCollection"], \
            [c for c in ax.collections if type(c).__name__ == "PathCollection"]
        segments = np.array(bars.get_segments())
        expected = [[[m - s, y], [m + s, y]] for y, (m, s) in enumerate(zip(means[task], sds[task]))]
        np.testing.assert_allclose(segments, expected)
        np.testing.assert_allclose(bars.get_colors(), [to_rgba("0.45")])
        container = ax.containers[0]
        assert container.lines[0] is None  # fmt="none": no line through the means
        assert [cap.get_markersize() for cap in container.lines[1]] == [6.0, 6.0]  # capsize 3
        np.testing.assert_allclose(points.get_offsets(), [[m, y] for y, m in enumerate(means[task])])
        np.testing.assert_allclose(points.get_facecolors(), [to_rgba("C0"), to_rgba("C1")])
        assert points.get_zorder() == 3
        assert all(g.get_visible() and g.get_alpha() == 0.3 for g in ax.xaxis.get_gridlines())
        assert not any(g.get_visible() for g in ax.yaxis.get_gridlines())

    # One task: a single panel (still indexable); many tasks: at most 12 inches wide; colours repeat after ten.
    from cycler import cycler
    from matplotlib import rc_context

    models = [f"m{i:02d}" for i in range(11)]
    runs = pd.DataFrame({"task": "only", "model": np.repeat(models, 2), "seed": [0, 1] * 11,
                         "score": np.arange(22.0)})
    with rc_context({"axes.prop_cycle": cycler(color=[f"#0000{i:02x}" for i in range(12)]), "font.size": 7}):
        single = _scores_figure(Report(runs), Report(runs).describe(), "acc")(Figure)
        colours = single.axes[0].collections[-1].get_facecolors()
    assert single.axes[0].title.get_fontsize() == 10  # whatever the default size
    assert tuple(single.get_size_inches()) == pytest.approx((3.6, 1.3 + 0.4 * 11))
    np.testing.assert_allclose(colours, [to_rgba(f"#0000{i % 10:02x}") for i in range(11)])
    wide = pd.DataFrame({"task": np.repeat(list("abcd"), 4), "model": list("AABB") * 4, "seed": [0, 1] * 8,
                         "score": np.arange(16.0)})
    assert tuple(_scores_figure(Report(wide), Report(wide).describe(), "acc")(Figure).get_size_inches()) == pytest.approx(
        (12, 2.1))


def test_cd_figure_at_the_views_alpha():
    pytest.importorskip("matplotlib")
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from sigeval._report_output import _cd_figure

    friedman = _two_tasks().friedman(alpha=0.1)   # the diagram cannot disagree with the view's own level
    fig = _cd_figure(friedman)(Figure)
    assert tuple(fig.get_size_inches()) == pytest.approx((7, 0.5 + 0.45 * 2))
    assert isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)
    assert [ax.get_title() for ax in fig.axes] == ["mean rank (1 = best); Nemenyi CD = 1.163 at α = 0.1, 2 models, N = 2"]


def test_svg_is_cropped_to_its_drawing_and_keeps_links_that_lead_outside_it():
    pytest.importorskip("matplotlib")
    from sigeval._report_output import _svg

    def draw(figure_class):
        fig = figure_class(figsize=(4, 4))
        ax = fig.add_axes((0.4, 0.4, 0.2, 0.2))
        ax.set_axis_off()
        (line,) = ax.plot([0, 1], [0, 1])
        line.set_gid("mine")
        line.set_url("#elsewhere")  # a link to the page, not to the figure: left as it is
        return fig

    svg = _svg(draw, "x")
    # bbox_inches="tight": the 0.8 in axes and 0.1 in of padding each side, not the 4 in figure.
    assert re.match(r'<svg [^>]*width="72pt" height="72pt" viewBox="0 0 72 72"', svg)
    assert 'id="x-mine"' in svg and 'href="#elsewhere"' in svg and "x-elsewhere" not in svg


def test_latex_leaves_out_an_undefined_sd_and_names_the_range_of_seeds():
    from sigeval._report_output import Choices, design

    # Lower is better, so B (lower on both tasks) is in bold; A ran once on t: no sd to show.
    assert _one_pair().to_latex(precision=2, bold_best=True) == "\n".join([
        r"% Mean $\pm$ sd over 2–3 seeds per task, 2 decimals; the best mean per task in bold.",
        r"\begin{tabular}{lrr}",
        r"\toprule",
        r"model & t & u \\",
        r"\midrule",
        r"A & 0.80 & 0.45 $\pm$ 0.05 \\",
        r"B & \textbf{0.72 $\pm$ 0.03} & \textbf{0.28 $\pm$ 0.08} \\",
        r"\bottomrule",
        r"\end{tabular}",
    ]) + "\n"
    # Three tasks with 2, 3 and 4 seeds: the range runs from the fewest to the most.
    seeds = [0, 1] * 2 + [0, 1, 2] * 2 + [0, 1, 2, 3] * 2
    runs = pd.DataFrame({"task": ["a"] * 4 + ["b"] * 6 + ["c"] * 8,
                         "model": list("AABB") + list("AAABBB") + list("AAAABBBB"), "seed": seeds,
                         "score": np.arange(18.0)})
    report = Report(runs)
    assert report.to_latex().splitlines()[0] == r"% Mean $\pm$ sd over 2–4 seeds per task, 3 decimals."
    assert design(report, Choices(metric="acc"))[2] == ("seeds per task", "2 to 4")


def test_the_design_reads_the_options_in_any_case_as_the_views_do():
    """family="TASK" is Holm within each task in every view, so the design says so (it said "over every comparison")."""
    report = _two_tasks()
    text = report.to_markdown(family="TASK", correction="HOLM")
    assert "| test | paired t; Holm-adjusted within each task; reject when p <= alpha = 0.05 |" in text
    assert "| power | minimum detectable effect at 80% power, at the level of the holm decision |" in text
    assert report.summary(family="task", correction="holm") in text
    plain = report.to_markdown(family="Task", correction="None")
    assert "Holm-adjusted within each task;" in plain and "| power | minimum detectable effect at 80% power |" in plain


def test_pages_are_written_in_utf8_whatever_the_locale(tmp_path):
    import locale

    from sigeval import _report_output as ro
    from sigeval import compare_predictions

    result = compare_predictions(pd.DataFrame({"label": [0, 1, 1], "±": [0, 1, 0], "B": [0, 0, 1]}), n_resamples=20,
                                 rng=0)
    before = locale.setlocale(locale.LC_CTYPE)
    locale.setlocale(locale.LC_CTYPE, "C")  # an ASCII locale: a page written in its encoding would fail on "±"
    try:
        out = ro.page(ro.ComparisonOutput(result, "", "mean ± sd – α", ""), tmp_path / "page.html")
    finally:
        locale.setlocale(locale.LC_CTYPE, before)
    assert "<meta charset='utf-8'>" in out.read_text(encoding="utf-8")
    assert "<h1>Comparison of 2 models: mean ± sd – α</h1>".encode() in out.read_bytes()


# --------------------------------------------------------------------------- text tables that fit a terminal


def _read_back(text):
    """The header and the rows of a text table, read back: cells split at two spaces, a row's lines joined."""
    lines = text.split("\n")
    start = next((i for i, line in enumerate(lines) if line.startswith("(") and " = " in line), len(lines))
    legend = dict(pair.split(" = ") for pair in " ".join(lines[start:]).strip("()").split("; ") if pair)
    body = "\n".join(lines[:start])
    records = body.split("\n\n") if "\n\n" in body else body.split("\n")  # wrapped rows: a blank line between
    cells = [[c for part in record.split("\n") for c in re.split(r" {2,}", part.strip()) if c] for record in records]
    return [legend.get(c, c) for c in cells[0]], cells[1:]


@pytest.mark.parametrize("width", [40, 60, 80, 100, 300])
def test_text_tables_fit_the_width_keep_every_row_whole_and_show_the_cells_of_the_other_formats(report, width):
    from sigeval._tables import formatted, text_table

    frames = [report.describe(), report.pairwise(), report.power(), report.equivalence(0.01), report.bayesian(0.01),
              report.aggregate(n_resamples=200, rng=0), report.failed_runs.head(0)]
    for frame in frames[:-1]:
        text = text_table(frame, width)
        assert max(len(line) for line in text.split("\n")) <= width, text
        assert not any(line.endswith("\\") for line in text.split("\n"))  # no block continued below, as pandas does
        names, rows = _read_back(text)
        kept = [c for c in frame.columns if c != "note"]  # the notes are all empty here: left out
        assert names == kept
        assert rows == formatted(frame[kept], 4)
        assert ("note" in frame.columns) <= ("note" not in text)
    assert text_table(frames[-1], width) == "task  model  seed  reason"  # no rows: every column kept


def test_text_tables_shorten_headers_only_when_the_table_is_too_wide_and_say_how():
    from sigeval._tables import text_table

    frame = pd.DataFrame({"task": ["t"], "model_a": ["A"], "model_b": ["B"], "n_pairs": [5], "mean_diff": [0.0125],
                          "pvalue_holm": [0.0001234], "reject": [True], "note": [""]})
    assert text_table(frame, 100) == ("task  model_a  model_b  n_pairs  mean_diff  pvalue_holm  reject\n"
                                      "t     A        B              5     0.0125     0.000123  yes")
    assert text_table(frame, 40) == ("task  model_a  model_b  n\n"
                                     "      diff    p_holm  reject\n\n"
                                     "t     A        B        5\n"
                                     "    0.0125  0.000123  yes\n"
                                     "(n = n_pairs; diff = mean_diff; p_holm =\npvalue_holm)")
    # One line per row as soon as the short headers fit: 51 columns here.
    assert text_table(frame, 51).split("\n") == ["task  model_a  model_b  n    diff    p_holm  reject",
                                                 "t     A        B        5  0.0125  0.000123  yes",
                                                 "(n = n_pairs; diff = mean_diff; p_holm =", "pvalue_holm)"]
    assert "\n\n" in text_table(frame, 50)


def test_a_long_text_in_a_wrapped_table_is_wrapped_on_lines_of_its_own():
    from sigeval._tables import text_table

    reason = "not tested: 1 seed(s) on which both ran; a paired comparison needs at least 2 (see `failed_runs`)."
    frame = pd.DataFrame({"task": ["t", "u"], "n_pairs": [1, 5], "mean_diff": [np.nan, 0.5], "note": [reason, ""]})
    text = text_table(frame, 40)
    assert max(len(line) for line in text.split("\n")) <= 40
    assert text.split("\n\n")[1].split("\n") == ["t     1       –", "    not tested: 1 seed(s) on which both",
                                                 "    ran; a paired comparison needs at",
                                                 "    least 2 (see `failed_runs`)."]
    assert text.split("\n\n")[2].split("\n")[0] == "u     5  0.5000"  # an empty note takes no line
    assert text.split("\n\n")[2].split("\n")[1].startswith("(n = n_pairs")


def test_wrapped_rows_are_balanced_over_their_lines():
    from sigeval._tables import text_table

    frame = pd.DataFrame({"model": ["A"], **{f"c{i}": [0.25 * i] for i in range(8)}})
    lines = text_table(frame, 40).split("\n\n")[1].split("\n")
    # Eight numbers of 6 characters after a name need two lines at 40 columns; four on each, not six and two.
    assert lines == ["A      0.0000  0.2500  0.5000  0.7500", "    1.0000  1.2500  1.5000  1.7500"]


def _best_balance(sizes, names, width, indent=4):
    """Brute force: the fewest lines a row needs within ``width``, then the narrowest widest line among them.

    The names (the first ``names`` columns) stay on the first line; the others are cut into runs, in order.
    """
    import itertools

    values = list(range(names, len(sizes)))
    best = None
    for cuts in range(len(values) + 1):
        for where in itertools.combinations(range(1, len(values)), cuts) if values else [()]:
            bounds = [0, *where, len(values)]
            groups = [values[a:b] for a, b in zip(bounds, bounds[1:])]
            lines = [list(range(names)) + groups[0], *groups[1:]] if groups else [list(range(names))]
            lines = [line for line in lines if line]
            widths = [indent * (k > 0) + sum(sizes[j] + 2 for j in line) - 2 for k, line in enumerate(lines)]
            if max(widths) <= width:
                key = (len(lines), max(widths))
                best = key if best is None or key < best else best
    return best


def test_wrapped_rows_use_the_fewest_lines_and_the_narrowest_balance():
    from sigeval._tables import text_table

    rng = np.random.default_rng(7)
    checked = 0
    for _ in range(150):
        n = int(rng.integers(2, 8))
        frame = pd.DataFrame({"name": ["x" * int(rng.integers(1, 9))],
                              **{f"c{i}": [float(10.0 ** rng.integers(0, 5))] for i in range(n)}})
        width = int(rng.integers(20, 70))
        text = text_table(frame, width)
        if "\n\n" not in text:
            continue
        record = text.split("\n\n")[1].split("\n")
        record = [line for line in record if not line.startswith("(")]  # the legend is no part of the row
        header = text.split("\n\n")[0].split("\n")
        sizes = [max(len(h), len(v)) for h, v in zip(
            [c for line in header for c in line.split()], [c for line in record for c in line.split()])]
        assert (len(record), max(map(len, record + header))) == _best_balance(sizes, 1, width), (width, text)
        checked += 1
    assert checked > 50


def test_the_table_of_its_full_width_fits_exactly_and_one_column_less_shortens():
    from sigeval._tables import text_table

    frame = pd.DataFrame({"task": ["t"], "n_pairs": [5], "mean_diff": [0.0125], "pvalue": [0.5]})
    full = "task  n_pairs  mean_diff  pvalue\nt           5     0.0125     0.5"
    assert text_table(frame, len(full.split("\n")[0])) == full
    assert text_table(frame, len(full.split("\n")[0]) - 1) == ("task  n    diff    p\nt     5  0.0125  0.5\n"
                                                              "(n = n_pairs; diff = mean_diff;\np = pvalue)")


def test_columns_without_content_are_left_out_and_a_table_of_names_only_stays_whole():
    from sigeval._tables import text_table

    frame = pd.DataFrame({"task": ["t", "u"], "n_pairs": [1, 2], "scale": [np.nan, np.nan], "note": ["", ""]})
    assert text_table(frame, 80) == "task  n_pairs\nt           1\nu           2"
    names = pd.DataFrame({"task": ["a long task name"], "model": ["a long model name"], "reason": ["failed"]})
    # Names only: nothing to move to a second line; the row stays one line, wider than asked.
    assert text_table(names, 40) == ("task              model              reason\n"
                                     "a long task name  a long model name  failed")


def test_a_long_text_is_wrapped_at_spaces_only_and_the_columns_after_it_stay():
    from sigeval._tables import text_table

    note = "the Iman-Davenport statistic is infinite: every task ranks the models alike, so F cannot be computed"
    frame = pd.DataFrame({"task": ["t", "u"], "n": [1, 2], "note": [note, ""], "after": [0.5, 0.25]})
    lines = text_table(frame, 40).split("\n\n")
    assert lines[0].split("\n") == ["task  n", "    note", "     after"]
    assert lines[1].split("\n") == ["t     1", "    the Iman-Davenport statistic is", "    infinite: every task ranks the",
                                    "    models alike, so F cannot be", "    computed", "    0.5000"]
    # An empty text takes no line: the row goes on with the columns after it.
    assert lines[2].split("\n") == ["u     2", "    0.2500"]


def test_a_line_of_a_row_with_nothing_on_it_is_left_out():
    from sigeval._tables import text_table

    frame = pd.DataFrame({"model": ["A", "B"], "x": [0.5, 0.25], "y": [0.125, 0.75], "why": ["too few pairs", ""]})
    rows = text_table(frame, 18).split("\n\n")
    assert rows[0].split("\n") == ["model       x", "         y", "    why"]
    assert rows[1].split("\n") == ["A      0.5000", "    0.1250", "    too few pairs"]
    assert rows[2].split("\n") == ["B      0.2500", "    0.7500"]  # no blank line where B's reason would be


def test_a_text_column_as_wide_as_the_rest_of_a_line_keeps_its_place():
    from sigeval._tables import text_table

    # Width 40, so an indented line holds 36 characters. A text of 36 after a one-digit number fills the first
    # line to 39 and stays there; one of 37 would fill it to 40 but is longer than any indented line: it goes
    # below, alone, wrapped. The number after it goes to a line of its own either way.
    for size, first in ((36, ["1", "x" * 26 + " yyyyyyyyy"]), (37, ["1"])):
        frame = pd.DataFrame({"n": [1], "text": ["x" * (size - 10) + " yyyyyyyyy"], "v": [0.5]})
        row = text_table(frame, 40).split("\n\n")[1].split("\n")
        assert row[0].split("  ") == first and row[-1] == "    0.5000" and max(map(len, row)) <= 40, row
    # Names (the text columns a table starts with) stay on the first line, however long.
    frame = pd.DataFrame({"m": ["A"], "text": ["x" * 38], "v": [0.5]})
    assert text_table(frame, 40).split("\n\n")[1].split("\n") == ["A  " + "x" * 38, "    0.5000"]


def test_a_long_text_breaks_at_spaces_not_hyphens():
    from sigeval._tables import text_table

    note = "x" * 28 + " Iman-Davenport has no spread"
    frame = pd.DataFrame({"task": ["t"], "n": [1], "note": [note]})
    assert text_table(frame, 40).split("\n\n")[1].split("\n")[1:] == ["    " + "x" * 28,
                                                                      "    Iman-Davenport has no spread"]


def test_text_shows_line_breaks_and_tabs_in_names_rather_than_obeying_them():
    from sigeval._tables import text_table

    frame = pd.DataFrame({"model\nname": ["a\nb", "c\td"], "score": [0.5, 0.25]})
    assert text_table(frame, 80) == "model\\nname   score\na\\nb         0.5000\nc\\td         0.2500"


def test_columns_as_wide_as_an_indented_line_are_aligned_and_followed_as_any_other():
    from sigeval._tables import text_table

    wide = "w" * 36  # as wide as an indented line at width 40: an ordinary column, right-aligned, not a long text
    frame = pd.DataFrame({"m": ["A"], "v": [0.5], wide: [0.25]})
    assert text_table(frame, 40).split("\n\n")[1].split("\n") == ["A  0.5000", "    " + "0.2500".rjust(36)]
    # After it on the first line, a one-digit column still fits (36 + 2 + 1 = 39): two lines, not three.
    a, b = "a" * 17, "b" * 17
    frame = pd.DataFrame({wide: [0.5], "n": [1], a: [0.25], b: [0.75]})
    assert text_table(frame, 40).split("\n\n")[1].split("\n") == ["0.5000".rjust(36) + "  1",
                                                                  "    " + "0.2500".rjust(17) + "  " + "0.7500".rjust(17)]


def test_to_markdown_and_to_html_pass_every_option_to_the_views_and_the_call(tmp_path, monkeypatch):
    scores = np.random.default_rng(5).uniform(0.5, 0.9, 32)
    many = Report(pd.DataFrame({"task": np.repeat(["t1", "t2"], 16), "model": np.tile(np.repeat(["A", "B"], 8), 2),
                                "seed": np.tile(np.arange(8), 4), "score": scores}))
    options = "rope=0.01, n_resamples=300, rng=4)"
    markdown = many.to_markdown(0.05, rope=0.01, n_resamples=300, rng=4)
    page = many.to_html(tmp_path / "r.html", 0.05, precision=2, rope=0.01, n_resamples=300, rng=4).read_text()
    for text in (markdown, html.unescape(page)):
        assert "(Bayesian paired t, ROPE = 0.01)" in text             # not the margin's 0.05
        assert "(runs resampled within each task, 300 resamples, rng=4)." in text
        assert f"correction='none', {options}" in text
    mean = many.describe()["mean"].iloc[0]
    assert f"{mean:.2f}" in page and f"{mean:.4f}" not in page     # the page at the precision asked
    # The LaTeX table computes the scores per task only.
    for view in ("pairwise", "power", "summary", "aggregate", "friedman"):
        monkeypatch.setattr(Report, view, lambda self, *a, **k: pytest.fail("to_latex computed another view"))
    assert "\\begin{tabular}{lrr}" in many.to_latex()


def test_the_design_and_the_methods_sentence_name_the_reference_the_units_and_the_generator():
    from sigeval._report_output import VIEWS, Choices, ReportOutput, design, method_note, views

    scores = np.random.default_rng(5).uniform(0.5, 0.9, 48)
    table = pd.DataFrame({"task": np.repeat(["t1", "t2"], 24), "model": np.tile(np.repeat(["A", "B", "C"], 8), 2),
                          "seed": np.tile(np.arange(8), 6), "score": scores})
    report = Report(table, reference="A", units="points")
    choices = Choices(0.05, correction="bonferroni", rng=np.random.default_rng(1))
    rows = dict(design(report, choices))
    assert rows["models"] == "3: B, C, A"
    assert rows["metric"] == "score, in points (x 100), higher is better"
    assert rows["differences"] == "model A minus model B, paired by (task, seed); the reference, A, is B"
    assert rows["margin"] == "0.05, in points"
    plain = dict(design(Report(table), Choices(0.05)))
    assert plain["metric"] == "score, higher is better" and plain["margin"] == "0.05, in the units of the score"
    assert plain["differences"] == "model A minus model B, paired by (task, seed)"
    output = ReportOutput(report, choices, views(report, choices), ("summary", "failed_runs", "describe", *VIEWS))
    note = method_note(output)
    assert "minimum detectable effects at 80% power and alpha = 0.05, at the Bonferroni level;" in note
    assert note.endswith("95% stratified-bootstrap intervals (10,000 resamples, rng: the generator given).")
    for rng, text in ((None, "rng=None"), (7, "rng=7"), (np.int64(7), "rng=np.int64(7)")):
        seeded = Choices(0.05, rng=rng)
        assert method_note(ReportOutput(report, seeded, views(report, seeded, ("aggregate",)), ("aggregate",))) == (
            f"Aggregates of every model's runs over the tasks, 95% stratified-bootstrap intervals (10,000 resamples, "
            f"{text}).")
    # The equivalence view alone has its test clause and the differences' clause.
    alone = ReportOutput(report, choices, views(report, choices, ("equivalence",)), ("equivalence",))
    assert method_note(alone).startswith("Differences are model A minus model B over the seeds both ran (paired by "
                                         "task and seed); paired t test and 95% intervals")


# --------------------------------------------------------------------------- details each output must keep


def _report_output(report, **options):
    from sigeval import _report_output as ro

    choices = ro.Choices()
    return ro.ReportOutput(report, choices, ro.views(report, choices), **options)


def test_tables_start_with_the_failed_runs_and_show_the_friedman_ranks():
    from sigeval import _report_output as ro

    out = _report_output(_one_pair())
    shown = ro.tables(out)
    assert list(shown) == ["failed_runs", "describe", "pairwise", "power", "friedman"]
    pd.testing.assert_frame_equal(shown["failed_runs"], out.views["failed_runs"])
    pd.testing.assert_frame_equal(shown["friedman"], ro.ranks_frame(out.views["friedman"]))
    assert "failed_runs" not in ro.tables(_report_output(_one_pair(), shown=("describe",)))


def test_text_of_a_report_block_by_block():
    from sigeval import _report_output as ro

    report = _one_pair()
    out = _report_output(report, written=(("plot", "cd.png"),))
    blocks = ro.text(out, width=300).split("\n\n")
    assert blocks[0] == repr(report) and blocks[1].startswith("summary\n")
    assert blocks[2] == ("failed runs (their pairs are left out)\n"
                         + ro.text_table(out.views["failed_runs"], 300).rstrip("\n"))
    assert blocks[-3] == "left out: equivalence (needs a margin (--margin)); bayesian (needs a ROPE (--rope) or a margin " \
                         "(--margin))."
    assert blocks[-2] == ro.wrapped(ro.method_note(out), 300) and blocks[-1] == "CD diagram written to cd.png\n"
    assert "\n\naggregate (over the tasks, with 95% stratified-bootstrap intervals)\n" in ro.text(out, width=300)


@pytest.mark.parametrize("scores, gap", [
    # A ahead on both tasks: the largest gap, 1, and the tasks it would need.
    ([0.80, 0.82, 0.81, 0.70, 0.74, 0.71, 0.66, 0.65, 0.61, 0.62, 0.60, 0.60], "tasks for that gap: "),
    # One task each: mean ranks equal, no gap.
    ([0.80, 0.82, 0.81, 0.70, 0.74, 0.71, 0.60, 0.62, 0.61, 0.66, 0.65, 0.67], "no gap"),
])
def test_text_of_the_friedman_view_names_the_gap_or_its_absence(scores, gap):
    from sigeval import _report_output as ro

    report = Report(pd.DataFrame({"task": ["t1"] * 6 + ["t2"] * 6, "model": list("AAABBB") * 2,
                                  "seed": [0, 1, 2] * 4, "score": scores}))
    out = _report_output(report)
    f = out.views["friedman"]
    line = next(line for line in ro.text(out, width=300).splitlines() if line.startswith("critical difference"))
    assert line.endswith(f"; {gap}{f.n_for_observed_gap}" if f.n_for_observed_gap else "; no gap")
    assert bool(f.n_for_observed_gap) == (gap != "no gap")


def _items_with_missing():
    from sigeval import compare_items

    rng = np.random.default_rng(1)
    rows = [(t, m, i, float(rng.random() < 0.7)) for t in ("arc", "gsm") for m in ("a", "b") for i in range(40)
            if not (t == "arc" and m == "b" and i < 2)]  # b left out two items of arc
    return compare_items(pd.DataFrame(rows, columns=["task", "model", "item", "score"]), sample=None, metric=None,
                         n_resamples=50, rng=0)


def test_every_format_of_a_comparison_shows_each_table_once_with_the_note():
    import io

    from sigeval import _report_output as ro

    res = _items_with_missing()
    out = ro.ComparisonOutput(res, "the note", "items.csv", "sigeval compare items.csv")
    shown = ro.tables(out)
    assert list(shown) == ["models", "pairs", "rank_sets", "missing"]
    text = ro.text(out, width=300)
    assert ("\nitems left out (held by another model of the task, not by this one)\n"
            + ro.text_table(res.missing, 300)) in text and text.endswith("\n\nthe note\n")
    read = pd.read_csv(io.StringIO(ro.csv_text(out)))
    assert read.columns[0] == "table" and "Unnamed: 0" not in read.columns
    assert read.table.tolist() == [name for name, t in shown.items() for _ in range(len(t))]
    tex = ro.latex(out)
    assert tex.split("\n\n") == [ro.latex_table(t, 4).rstrip("\n") for t in shown.values()][:-1] + [
        ro.latex_table(shown["missing"], 4)]
    env = ro.markdown_table(pd.DataFrame(list((ro.versions() | {"call": out.call}).items()), columns=["", "value"]), 4)
    assert ro.markdown(out) == "\n\n".join([*(f"## {n}\n\n{ro.markdown_table(t, 4)}" for n, t in shown.items()),
                                            "the note", "## environment\n\n" + env]) + "\n"


def test_the_json_of_an_output_is_indented_by_two(report):
    from sigeval import _report_output as ro

    out = ro.json_text(ro.ComparisonOutput(_items_with_missing(), "n", "s", "c"))
    assert out.startswith('{\n  "models": [\n    {\n      "task": "arc",')


def test_a_comparison_page_puts_a_table_without_figure_right_under_its_heading(tmp_path, monkeypatch):
    from sigeval import _report_output as ro

    _figure_summary(monkeypatch)
    res = _items_with_missing()
    page = ro.page(ro.ComparisonOutput(res, "n", "s", "c"), tmp_path / "p.html").read_text(encoding="utf-8")
    assert f"<h2>missing</h2>\n\n{ro.html_table(res.missing, 4)}" in page
    assert f"<h2>rank_sets</h2>\n\n{ro.html_table(res.rank_sets, 4)}" in page


def test_jsonable_names_each_infinity_by_its_path_and_unwraps_numpy_scalars():
    from sigeval._report_output import _jsonable

    infinite = {}
    value = {"frame": pd.DataFrame({"a": [1.0, np.inf]}), "series": pd.Series({"b": -np.inf, "c": np.float64(0.5)}),
             "list": [np.int64(3), np.inf, np.nan], "result": object(), "mean_scores": 1, "n_seeds": 2}
    shown = _jsonable(value, "", infinite)
    assert shown == {"frame": [{"a": 1.0}, {"a": None}], "series": {"b": None, "c": 0.5}, "list": [3, None, None]}
    assert type(shown["series"]["c"]) is float and type(shown["list"][0]) is int
    assert infinite == {"frame[1].a": "inf", "series.b": "-inf", "list[1]": "inf"}


def test_latex_of_a_report_shows_the_scores_once_as_mean_and_sd():
    from sigeval import _report_output as ro

    out = _report_output(_two_tasks())
    tex = ro.latex(out)
    others = [name for name in ro.tables(out) if name != "describe"]
    assert tex.count(r"\begin{tabular}") == 1 + len(others)
    assert tex.split("\n\\begin{tabular}")[0].startswith("% Mean $\\pm$ sd")
    assert tex == "\n".join([ro._mean_sd(out.report, out.views["describe"], 4, True),
                             *(ro.latex_table(ro.tables(out)[name], 4) for name in others)])


def test_the_forest_figure_is_seven_inches_wide_a_third_of_an_inch_a_row_with_x_gridlines():
    from matplotlib.figure import Figure
    from matplotlib.layout_engine import ConstrainedLayoutEngine

    from sigeval._report_output import _forest_figure

    frame = pd.DataFrame({"estimate": [0.1, 0.2, 0.3], "ci_low": [0.0, 0.1, 0.2], "ci_high": [0.2, 0.3, 0.4]})
    fig = _forest_figure(frame.estimate, frame[["ci_low", "ci_high"]], ["a", "b", "c"], "diff", 0.0)(Figure)
    np.testing.assert_allclose(fig.get_size_inches(), [7, 0.9 + 0.32 * 3])
    assert isinstance(fig.get_layout_engine(), ConstrainedLayoutEngine)
    ax = fig.axes[0]
    assert ax.get_xlabel() == "diff"
    assert all(line.get_visible() and line.get_alpha() == 0.3 for line in ax.xaxis.get_gridlines())
    assert not any(line.get_visible() for line in ax.yaxis.get_gridlines())


def test_the_comparison_figures_draw_up_to_their_limit_and_each_table_on_its_own(monkeypatch):
    from sigeval import _report_output as ro

    monkeypatch.setattr(ro, "_svg", lambda draw, name: f"<svg {name}/>")
    row = {"ci_low": 0.1, "ci_high": 0.3, "confidence_level": 0.95}

    class Result:
        confidence_level = 0.95
        # 61 models (one too many to draw), their 60 pairs (as many as are drawn) in a stand-in result.
        per_model = pd.DataFrame([{"model": f"m{i}", "score": 0.2} | row for i in range(ro.FOREST_ROWS + 1)])
        pairs = pd.DataFrame([{"model_a": "m0", "model_b": f"m{i}", "estimate": 0.2} | row
                              for i in range(1, ro.FOREST_ROWS + 1)])

    figures = ro._comparison_figures(Result)
    assert figures["models"].startswith("<p class='note'>(Each model&#x27;s score") and "61 rows" in figures["models"]
    assert figures["pairs"].startswith("<figure") and "<svg pairs/>" in figures["pairs"]


def test_views_check_the_generator_whatever_views_are_asked_for():
    from sigeval import _report_output as ro

    with pytest.raises(TypeError, match="`rng` must be a numpy.random.Generator"):
        ro.views(_two_tasks(), ro.Choices(rng="seed"), which=("describe",))


def test_the_methods_sentence_names_a_rope_of_zero():
    from sigeval import _report_output as ro

    report = _two_tasks()
    choices = ro.Choices(rope=0.0)
    out = ro.ReportOutput(report, choices, ro.views(report, choices), shown=("bayesian",))
    assert ro.method_note(out).endswith("with a ROPE of 0.")

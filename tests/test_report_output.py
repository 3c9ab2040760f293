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


def test_tables_page_holds_each_table_the_note_and_the_environment(tmp_path):
    from sigeval._report_output import html_table, tables_page

    a = pd.DataFrame({"model": ["A<1>"], "accuracy": [0.875]})
    b = pd.DataFrame({"model_a": ["A"], "pvalue": [0.25]})
    env = {"sigeval": "1.0", "call": "sigeval compare x.csv"}
    out = tables_page(tmp_path / "page.html", "Comparison & <more>", {"models": a, "pairs": b}, "p < 0.05 & more",
                      env)
    assert out == tmp_path / "page.html"
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>\n<html lang='en'><head><meta charset='utf-8'>")
    assert "<title>Comparison &amp; &lt;more&gt;</title>" in page and page.endswith("\n</body></html>\n")
    body = page.split("</style></head><body>\n", 1)[1].removesuffix("\n</body></html>\n").split("\n")
    environment = html_table(pd.DataFrame(list(env.items()), columns=["", "value"]), 4)
    assert body == ["<h1>Comparison &amp; &lt;more&gt;</h1>", "<h2>models</h2>", html_table(a, 4), "<h2>pairs</h2>",
                    html_table(b, 4), "<p class='note'>p &lt; 0.05 &amp; more</p>", "<h2>Environment</h2>",
                    environment]
    assert "<td class='text'>A&lt;1&gt;</td><td class='num'>0.8750</td>" in html_table(a, 4)


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
    assert "<text" not in svg  # fonts as paths
    ids = re.findall(r'\bid="([^"]+)"', svg)
    assert ids and all(i.startswith("cd-") for i in ids)
    references = re.findall(r'(?:href="#|url\(#)([^")]+)', svg)
    assert references and set(references) <= set(ids)
    assert _svg(draw, "cd") == svg  # the same figure, the same text (no date, salted ids)
    other = _svg(draw, "scores")
    assert not set(re.findall(r'\bid="([^"]+)"', other)) & set(ids)

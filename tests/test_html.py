"""What a reader of the built book gets (tools/check_html.py, as `make check-html`).

Runs on the book that `make book` built in _build/html: every page in a real
browser, offline, and the first chapter's downloadable notebook in plain
Jupyter. Skipped, with the reason, when there is no built book or when
Chromium or Playwright is missing; but in CI (the environment variable ``CI``
set to true, 1 or yes, as `.ci/run` and the usual CI services set it) a built
book makes a missing browser a failure, not a skip.
"""

import importlib.util
import os
import sys
from pathlib import Path

import nbformat
import pytest

ROOT = Path(__file__).parents[1]
_spec = importlib.util.spec_from_file_location("tools_check_html", ROOT / "tools" / "check_html.py")
check_html = sys.modules.setdefault("tools_check_html", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(check_html)


def in_ci() -> bool:
    """CI sets CI=true (GitHub Actions, GitLab, and .ci/run)."""
    return os.environ.get("CI", "").strip().lower() in {"1", "true", "yes"}


def book_built() -> bool:
    return (check_html.HTML / "index.html").exists()


def needs(condition: bool, reason: str) -> None:
    """Skip when ``condition`` fails, except in CI once the book is built: there it fails."""
    if condition:
        return
    if in_ci() and book_built():
        pytest.fail(f"{reason}; in CI (CI={os.environ['CI']}) the check of the built book must run, not skip")
    pytest.skip(reason)


def needs_browser() -> None:
    needs(check_html.chromium_path() is not None, "Chromium is not installed (apt-get install chromium)")
    needs(
        importlib.util.find_spec("playwright") is not None,
        "the playwright package is not installed (the test extra has it)",
    )


def test_every_page_renders_offline_in_chromium():
    needs(book_built(), f"no built book in {check_html.HTML}: run `make book` first")
    needs_browser()
    reports = check_html.check_book(check_html.HTML)
    assert len(reports) == len(check_html.pages(check_html.HTML)) > 0
    assert sum(r.formulas for r in reports) > 0, "no formula found: the check would prove nothing"
    assert sum(r.figures for r in reports) > 0, "no figure found: the check of alt texts would prove nothing"
    problems = [f"{r.page}: {p}" for r in reports for p in r.problems]
    assert not problems, "built book (rebuild it with `make book` if it is old):\n" + "\n".join(problems)


def test_a_downloaded_notebook_runs_in_plain_jupyter():
    """The first chapter's download runs top to bottom without myst_nb, from an empty folder, as the book shows."""
    needs(book_built(), f"no built book in {check_html.HTML}: run `make book` first")
    notebooks = check_html.downloads(check_html.HTML)
    assert notebooks, "the built book offers no notebook for download"
    report = check_html.check_download(notebooks[0])
    assert report.myst_nb_blocked and report.code_cells > 0, report
    assert not report.problems, f"{report.notebook}:\n" + "\n".join(report.problems)


def test_the_check_reports_each_kind_of_breakage(tmp_path):
    # A page as an offline reader would see it broken: MathJax from a CDN
    # (so nothing is typeset), a missing image, a script error, an image
    # whose alt text is its path, a figure whose alt text is not its caption.
    needs_browser()
    (tmp_path / "index.html").write_text("<html><body>index</body></html>")
    pixel = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
    (tmp_path / "chapter.html").write_text(
        "<html><head><script defer src='https://cdn.invalid/mathjax/tex-chtml.js'></script></head><body>"
        "<p>Inline <span class='math'>\\(\\sigma = 0.5\\)</span> and raw $$x^2$$.</p>"
        "<p>On <code>{glue:text}</code>name`` the settings differ.</p>"
        f"<img src='{pixel}' alt='../_images/plot.png'>"
        f"<figure><img src='{pixel}' alt='Something else entirely'>"
        "<figcaption><span class='caption-text'>Coverage of the Wald interval against the accuracy</span>"
        "</figcaption></figure>"
        "<img src='missing.png'><script>throw new Error('boom')</script></body></html>"
    )
    (report,) = check_html.check_book(tmp_path, tmp_path / "shots")
    kinds = {problem.split(":")[0] for problem in report.problems}
    assert kinds >= {
        "external request",
        "formula not typeset",
        "raw TeX in the page text",
        "image did not load",
        "JavaScript error",
        "image without alt text (or its path as alt text)",
        "MyST markup left raw in the page",
    }, report.problems
    assert any("figure 1's alt text is not its caption" in p for p in report.problems), report.problems
    assert (tmp_path / "shots" / "chapter.png").exists()
    assert (tmp_path / "shots" / "chapter.figure-1.png").exists()


def test_the_download_check_notices_a_notebook_that_needs_myst_nb(tmp_path):
    notebook = nbformat.v4.new_notebook(
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}},
        cells=[nbformat.v4.new_code_cell("from myst_nb import glue")],
    )
    path = tmp_path / "chapter.ipynb"
    nbformat.write(notebook, path)
    report = check_html.check_download(path)
    assert len(report.problems) == 1 and "myst_nb is not installed here" in report.problems[0], report.problems

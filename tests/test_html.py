"""The built book reads offline in a real browser (tools/check_html.py, as `make check-html`).

Runs on the book that `make book` built in _build/html; skipped, with the
reason, when there is none or when Chromium or Playwright is missing.
"""

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]
_spec = importlib.util.spec_from_file_location("tools_check_html", ROOT / "tools" / "check_html.py")
check_html = sys.modules.setdefault("tools_check_html", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(check_html)


def test_every_page_renders_offline_in_chromium():
    if check_html.chromium_path() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright", reason="the playwright package is not installed (the test extra has it)")
    if not (check_html.HTML / "index.html").exists():
        pytest.skip(f"no built book in {check_html.HTML}: run `make book` first")
    reports = check_html.check_book(check_html.HTML)
    assert len(reports) == len(check_html.pages(check_html.HTML)) > 0
    assert sum(r.formulas for r in reports) > 0, "no formula found: the check would prove nothing"
    problems = [f"{r.page}: {p}" for r in reports for p in r.problems]
    assert not problems, "built book (rebuild it with `make book` if it is old):\n" + "\n".join(problems)


def test_the_check_reports_each_kind_of_breakage(tmp_path):
    # A page as an offline reader would see it broken: MathJax from a CDN
    # (so nothing is typeset), a missing image, a script error.
    if check_html.chromium_path() is None:
        pytest.skip("Chromium is not installed (apt-get install chromium)")
    pytest.importorskip("playwright", reason="the playwright package is not installed (the test extra has it)")
    (tmp_path / "index.html").write_text("<html><body>index</body></html>")
    (tmp_path / "chapter.html").write_text(
        "<html><head><script defer src='https://cdn.invalid/mathjax/tex-chtml.js'></script></head><body>"
        "<p>Inline <span class='math'>\\(\\sigma = 0.5\\)</span> and raw $$x^2$$.</p>"
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
    }, report.problems
    assert (tmp_path / "shots" / "chapter.png").exists()

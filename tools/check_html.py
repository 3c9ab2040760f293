"""Open every page of the built book in headless Chromium, offline, and check what a reader sees.

    python tools/check_html.py [_build/html]          # make check-html

Each page is opened from the file system with the network disabled (Chromium's
offline emulation, and every request that is not to a local file is recorded
and refused). The check fails a page when a formula was not typeset by MathJax
(a ``.math`` element without MathJax output, a MathJax error, or raw ``\\(``,
``\\[`` or ``$$`` left in the text outside code), when an image did not load,
when the page raised a JavaScript error or logged a console error, or when it
requested anything outside the book. A screenshot of each page's first screen
(``<page>.png``) and of the screen around its first formula
(``<page>.formula.png``) is saved in ``_build/screenshots/`` beside the HTML
folder, for review.

Needs Chromium (Debian's ``chromium`` package) and the ``playwright`` Python
package, which drives the installed Chromium; Playwright's own browser
download is never used.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HTML = ROOT / "_build" / "html"
# Pages Sphinx generates around the book's own (index, search); not chapters.
SKIPPED = {"genindex.html", "search.html", "py-modindex.html", "index.html"}
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
LOCAL_SCHEMES = ("file:", "data:", "blob:", "about:")
# Console errors that are not a fault of the book. pydata-sphinx-theme 0.17
# logs this one on a reader's first visit, when no light/dark preference is
# stored yet, and then follows the system setting.
KNOWN_CONSOLE_ERRORS = {"Got invalid theme mode: . Resetting to auto."}

# Runs in the page once it has loaded: waits for MathJax's first typesetting
# and the web fonts, then reports what a reader would see as broken.
_INSPECT = """
async () => {
  if (window.MathJax && MathJax.startup && MathJax.startup.promise) await MathJax.startup.promise;
  await document.fonts.ready;
  const formulas = [...document.querySelectorAll('.math')];
  const untypeset = formulas.filter(el => !el.querySelector('mjx-container'))
                            .map(el => el.textContent.trim().slice(0, 80));
  const texErrors = [...document.querySelectorAll('mjx-merror')].map(el => el.textContent.slice(0, 80));
  const images = [...document.images];
  const broken = images.filter(img => !(img.complete && img.naturalWidth > 0)).map(img => img.src);
  // The page's visible text outside code, scripts and typeset formulas.
  const skip = new Set(['PRE', 'CODE', 'SCRIPT', 'STYLE', 'MJX-CONTAINER', 'TEXTAREA']);
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      for (let el = node.parentElement; el; el = el.parentElement) {
        if (skip.has(el.tagName)) return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_ACCEPT;
    }
  });
  const raw = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const text = node.textContent;
    for (const mark of ['\\\\(', '\\\\[', '$$']) {
      const at = text.indexOf(mark);
      if (at >= 0) raw.push(text.slice(Math.max(0, at - 30), at + 50).trim());
    }
  }
  return {formulas: formulas.length, untypeset, texErrors, images: images.length, broken, raw};
}
"""


@dataclass
class PageReport:
    """What the check found on one page."""

    page: str
    formulas: int = 0
    images: int = 0
    problems: list[str] = field(default_factory=list)


def chromium_path() -> str | None:
    """The installed Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pages(html: Path) -> list[Path]:
    """The book's own pages (front matter, chapters, reference) in the built HTML."""
    return sorted(p for p in html.rglob("*.html") if p.name not in SKIPPED and "_static" not in p.parts)


def check_book(html: Path = HTML, screenshots: Path | None = None) -> list[PageReport]:
    """Check every page of the book built in ``html``; screenshots go to ``screenshots``."""
    from playwright.sync_api import sync_playwright

    executable = chromium_path()
    if executable is None:
        raise FileNotFoundError("Chromium is not installed (apt-get install chromium)")
    if not (html / "index.html").exists():
        raise FileNotFoundError(f"no built book in {html}: run `make book` first")
    screenshots = screenshots or html.parent / "screenshots"
    screenshots.mkdir(parents=True, exist_ok=True)
    reports = []
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=executable, args=CHROMIUM_ARGS)
        try:
            for path in pages(html):
                reports.append(_check_page(browser, html, path, screenshots))
        finally:
            browser.close()
    return reports


def _check_page(browser, html: Path, path: Path, screenshots: Path) -> PageReport:
    name = path.relative_to(html).as_posix()
    report = PageReport(name)
    # A fresh context per page: nothing cached or logged by one page affects another.
    context = browser.new_context(offline=True, viewport={"width": 1280, "height": 900})
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: report.problems.append(f"JavaScript error: {exc}"))
        page.on(
            "console",
            lambda msg: (
                msg.type == "error"
                and msg.text not in KNOWN_CONSOLE_ERRORS
                and report.problems.append(f"console error: {msg.text}")
            ),
        )
        page.on(
            "request",
            lambda req: req.url.startswith(LOCAL_SCHEMES) or report.problems.append(f"external request: {req.url}"),
        )
        page.route(
            "**/*", lambda route: route.continue_() if route.request.url.startswith(LOCAL_SCHEMES) else route.abort()
        )
        page.goto(path.as_uri(), wait_until="load")
        found = page.evaluate(_INSPECT)
        report.formulas, report.images = found["formulas"], found["images"]
        report.problems += [f"formula not typeset: {text!r}" for text in found["untypeset"]]
        report.problems += [f"MathJax error: {text!r}" for text in found["texErrors"]]
        report.problems += [f"image did not load: {src}" for src in found["broken"]]
        report.problems += [f"raw TeX in the page text: {text!r}" for text in found["raw"]]
        stem = name.replace("/", "__").removesuffix(".html")
        page.screenshot(path=str(screenshots / f"{stem}.png"))
        if report.formulas:
            # The first screen rarely shows a formula; this one does, to see how MathJax set it.
            page.locator("div.math, .math").first.scroll_into_view_if_needed()
            page.screenshot(path=str(screenshots / f"{stem}.formula.png"))
    finally:
        context.close()
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("html", nargs="?", type=Path, default=HTML, help="the built HTML folder")
    args = parser.parse_args(argv)
    try:
        reports = check_book(args.html.resolve())  # file URIs need an absolute path
    except FileNotFoundError as exc:
        print(exc)
        return 2
    for report in reports:
        verdict = "ok" if not report.problems else f"{len(report.problems)} problem(s)"
        print(f"{report.page:40s} {report.formulas:4d} formulas  {report.images:3d} images  {verdict}")
        for problem in report.problems:
            print(f"    {problem}")
    failed = sum(bool(r.problems) for r in reports)
    print(f"screenshots in {args.html.parent / 'screenshots'}")
    print("every page renders offline" if not failed else f"{failed} page(s) with problems")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

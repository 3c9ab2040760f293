"""Check what a reader of the built book gets: every page in headless Chromium, offline, and a download.

    python tools/check_html.py [_build/html]          # make check-html

Each page is opened from the file system with the network disabled (Chromium's
offline emulation, and every request that is not to a local file is recorded
and refused). The check fails a page when a formula was not typeset by MathJax
(a ``.math`` element without MathJax output, a MathJax error, or raw ``\\(``,
``\\[`` or ``$$`` left in the text outside code), when a MyST role was left unparsed
(``{glue:text}`` in the text or in inline code), when an image did not load,
when the page raised a JavaScript error or logged a console error, when it
requested anything outside the book, or when an image has no alt text of its
own (none, or its file's path) or a figure's image is not described by its
caption. A screenshot of each whole page (``<page>.png``, the first
``MAX_SHOT_HEIGHT`` pixels of a longer one) and one of each figure
(``<page>.figure-<n>.png``) are saved in ``_build/screenshots/`` beside the
HTML folder, for review.

Then the notebook a reader downloads from the first chapter's page
(``_sources/notebooks/<chapter>.ipynb``) is run top to bottom, as in plain
Jupyter: copied to an empty folder, in a fresh kernel that cannot import
``myst_nb`` (a stand-in module on ``PYTHONPATH`` refuses the import) and
without the course's result cache. It must run, and print what the book shows.

Needs Chromium (Debian's ``chromium`` package) and the ``playwright`` Python
package, which drives the installed Chromium; Playwright's own browser
download is never used.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import sys
import tempfile
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
# Whole-page screenshots stop here (pixels): the chapters are 10,000 to 25,000 tall,
# the API reference over 150,000, which would take a minute and a gigabyte of pixels.
MAX_SHOT_HEIGHT = 32000

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
  // Alt texts: none, or a file name, says nothing; a figure's must say what its caption says.
  const pathLike = (alt, src) => !alt.trim() || alt.trim() === src || /^\\S+\\.(png|jpe?g|svg|gif|webp)$/i.test(alt.trim());
  const noAlt = images.filter(img => pathLike(img.getAttribute('alt') || '', img.getAttribute('src')))
                      .map(img => img.getAttribute('src'));
  const figures = [...document.querySelectorAll('figure')].map(figure => {
    const img = figure.querySelector('img');
    const caption = figure.querySelector('figcaption .caption-text') || figure.querySelector('figcaption');
    return {alt: img ? (img.getAttribute('alt') || '') : null, caption: caption ? caption.textContent : ''};
  });
  // MyST roles that reached the page unparsed (in the text, or in inline code as in `{glue:text}`x``).
  const myst = [];
  const inline = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT, {
    acceptNode(node) {
      for (let el = node.parentElement; el; el = el.parentElement) {
        if (['PRE', 'SCRIPT', 'STYLE', 'TEXTAREA'].includes(el.tagName)) return NodeFilter.FILTER_REJECT;
      }
      return NodeFilter.FILTER_ACCEPT;
    }
  });
  for (let node = inline.nextNode(); node; node = inline.nextNode()) {
    const found = node.textContent.match(/\\{(glue|ref|numref|cite|doc|eq|term|math)(:[a-z]+)?\\}/);
    if (found) myst.push(node.textContent.trim().slice(0, 80));
  }
  return {formulas: formulas.length, untypeset, texErrors, images: images.length, broken, raw, noAlt, figures, myst};
}
"""


# Opens what a reader can open: <details> (dropdowns) and sphinx-togglebutton's toggles.
_OPEN_COLLAPSED = """
() => {
  document.querySelectorAll('details').forEach(d => { d.open = true; });
  document.querySelectorAll('.toggle-hidden').forEach(el => el.classList.remove('toggle-hidden'));
  document.querySelectorAll('.toggle-details__container').forEach(el => { el.style.display = 'block'; });
}
"""


@dataclass
class PageReport:
    """What the check found on one page."""

    page: str
    formulas: int = 0
    images: int = 0
    figures: int = 0
    problems: list[str] = field(default_factory=list)


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z]{4,}", text.lower()))


def caption_problems(figures: list[dict]) -> list[str]:
    """Figures whose image is missing or whose alt text does not carry most of the caption's words."""
    problems = []
    for number, figure in enumerate(figures, 1):
        if figure["alt"] is None:
            problems.append(f"figure {number} shows no image")
            continue
        words = _words(figure["caption"])
        if not words:
            problems.append(f"figure {number} has no caption")
        elif len(words & _words(figure["alt"])) < 0.8 * len(words):
            problems.append(f"figure {number}'s alt text is not its caption: {figure['alt'][:80]!r}")
    return problems


def chromium_path() -> str | None:
    """The installed Chromium, or None."""
    return shutil.which("chromium") or shutil.which("chromium-browser")


def pages(html: Path) -> list[Path]:
    """The book's own pages (front matter, chapters, reference) in the built HTML.

    Files a reader downloads (``_downloads``, such as chapter 11's report page, whose
    figures are inline SVG and which tests/test_report_output.py opens in Chromium) and
    static assets are not pages of the book.
    """
    return sorted(p for p in html.rglob("*.html")
                  if p.name not in SKIPPED and "_static" not in p.parts and "_downloads" not in p.parts)


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
        report.formulas, report.images, report.figures = found["formulas"], found["images"], len(found["figures"])
        report.problems += [f"formula not typeset: {text!r}" for text in found["untypeset"]]
        report.problems += [f"MathJax error: {text!r}" for text in found["texErrors"]]
        report.problems += [f"image did not load: {src}" for src in found["broken"]]
        report.problems += [f"raw TeX in the page text: {text!r}" for text in found["raw"]]
        report.problems += [f"MyST markup left raw in the page: {text!r}" for text in found["myst"]]
        report.problems += [f"image without alt text (or its path as alt text): {src}" for src in found["noAlt"]]
        report.problems += caption_problems(found["figures"])
        stem = name.replace("/", "__").removesuffix(".html")
        height = page.evaluate("document.documentElement.scrollHeight")
        # The whole page; a very long one (the API reference) down to MAX_SHOT_HEIGHT.
        clip = {"x": 0, "y": 0, "width": 1280, "height": MAX_SHOT_HEIGHT} if height > MAX_SHOT_HEIGHT else None
        page.screenshot(path=str(screenshots / f"{stem}.png"), full_page=True, clip=clip)
        # Figures in collapsed blocks (solutions, dropdowns) are shown opened, as a reader who opens them sees them.
        page.evaluate(_OPEN_COLLAPSED)
        figures = page.locator("figure")
        for i in range(figures.count()):
            figure = figures.nth(i)
            if figure.is_visible():
                figure.screenshot(path=str(screenshots / f"{stem}.figure-{i + 1}.png"), timeout=10_000)
            else:
                report.problems.append(f"figure {i + 1} cannot be shown, even with every collapsed block opened")
    finally:
        context.close()
    return report


# --------------------------------------------------------------------------- the download


@dataclass
class DownloadReport:
    """What running a downloaded notebook in plain Jupyter gave."""

    notebook: str
    code_cells: int = 0
    myst_nb_blocked: bool = False
    problems: list[str] = field(default_factory=list)


_BLOCK_MYST_NB = 'raise ImportError("myst_nb is not installed here (blocked by tools/check_html.py)")\n'
_PROBE = "try:\n    import myst_nb\nexcept ImportError:\n    print('myst_nb: blocked')\nelse:\n    print('myst_nb: importable')"


def downloads(html: Path = HTML) -> list[Path]:
    """The notebooks the book's pages offer for download (``_sources/**/*.ipynb``)."""
    return sorted((html / "_sources").rglob("*.ipynb"))


def _shown(cell) -> list[str]:
    """What a code cell shows: its printed text, plain-text results and errors, and a digest of each image."""
    import hashlib

    lines = []
    for output in cell.get("outputs", []):
        if output.output_type == "stream":
            lines.append(f"[{output.name}] {output.text}")
        elif output.output_type == "error":
            lines.append(f"[error] {output.ename}: {output.evalue}")
        else:
            data = output.get("data", {})
            lines += [f"[text/plain] {data['text/plain']}"] if "text/plain" in data else []
            lines += [f"[{m}] {hashlib.sha256(v.encode()).hexdigest()}" for m, v in sorted(data.items()) if m.startswith("image/")]
    # The kernel may split a cell's printing into several messages at any moment.
    merged: list[str] = []
    for line in lines:
        if merged and line.startswith("[stdout] ") and merged[-1].startswith("[stdout] "):
            merged[-1] += line.removeprefix("[stdout] ")
        else:
            merged.append(line)
    return merged


def check_download(notebook: Path, timeout: int = 300) -> DownloadReport:
    """Run a downloaded notebook top to bottom as plain Jupyter would, without myst_nb; compare with the book."""
    import nbformat
    from nbclient import NotebookClient

    sys.path.insert(0, str(ROOT / "book" / "_ext"))
    import chapter_cache

    chapter_cache.encrypt_kernels()
    report = DownloadReport(notebook.name)
    book = nbformat.read(notebook, as_version=4)
    run = nbformat.read(notebook, as_version=4)
    run.cells.append(nbformat.v4.new_code_cell(_PROBE))
    report.code_cells = sum(cell.cell_type == "code" for cell in book.cells)
    with tempfile.TemporaryDirectory(prefix="sigeval-download-") as folder:
        downloads_folder, blocked = Path(folder) / "Downloads", Path(folder) / "blocked"
        downloads_folder.mkdir()
        blocked.mkdir()
        (blocked / "myst_nb.py").write_text(_BLOCK_MYST_NB)
        shutil.copy(notebook, downloads_folder)
        env = {k: v for k, v in os.environ.items() if k != "SIGEVAL_CACHE_DIR"}
        env["PYTHONPATH"] = os.pathsep.join([str(blocked), *filter(None, [env.get("PYTHONPATH")])])
        client = NotebookClient(run, timeout=timeout, kernel_name="python3", record_timing=False)
        try:
            client.execute(env=env, cwd=str(downloads_folder))
        except Exception as exc:  # noqa: BLE001  (the report says what failed)
            report.problems.append(f"does not run in plain Jupyter: {type(exc).__name__}: {str(exc)[-1500:]}")
            return report
    report.myst_nb_blocked = _shown(run.cells[-1]) == ["[stdout] myst_nb: blocked\n"]
    if not report.myst_nb_blocked:
        report.problems.append(f"myst_nb was not blocked in the kernel: {_shown(run.cells[-1])}")
    ran = [cell for cell in run.cells[:-1] if cell.cell_type == "code"]
    shown = [cell for cell in book.cells if cell.cell_type == "code"]
    for number, (got, want) in enumerate(zip(ran, shown), 1):
        if _shown(got) != _shown(want):
            first = next((a, b) for a, b in zip(_shown(got) + ["(nothing)"], _shown(want) + ["(nothing)"]) if a != b)
            report.problems.append(f"code cell {number} shows other output than the book: {first[0][:120]!r}, book: {first[1][:120]!r}")
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
        print(
            f"{report.page:40s} {report.formulas:4d} formulas  {report.images:3d} images  "
            f"{report.figures:3d} figures  {verdict}"
        )
        for problem in report.problems:
            print(f"    {problem}")
    failed = sum(bool(r.problems) for r in reports)
    print(f"screenshots (whole pages, and each figure) in {args.html.parent / 'screenshots'}")
    print("every page renders offline" if not failed else f"{failed} page(s) with problems")
    notebooks = downloads(args.html.resolve())
    if not notebooks:
        print("no downloadable notebook in the built book")
        return 1
    download = check_download(notebooks[0])
    print(
        f"downloaded {notebooks[0].relative_to(args.html.resolve()).as_posix()}: {download.code_cells} code cells run "
        f"in a fresh kernel without myst_nb, from an empty folder: "
        + ("same outputs as the book" if not download.problems else f"{len(download.problems)} problem(s)")
    )
    for problem in download.problems:
        print(f"    {problem}")
    return 1 if failed or download.problems else 0


if __name__ == "__main__":
    sys.exit(main())

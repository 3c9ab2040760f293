"""Rerun the chapters and compare what they print with the outputs recorded in book/outputs/.

    python tools/verify.py verify [CHAPTER]   # make verify [CHAPTER=05]
    python tools/verify.py record [CHAPTER]   # make record [CHAPTER=05]

Each chapter (``notebooks/*.md``, Jupytext MyST) is executed in a fresh
``python3`` kernel with the chapter folder as working directory, as in the book
build, against the ``sigeval`` that the kernel imports, and never reads the
course's result cache. Its record,
``book/outputs/<chapter>.txt``, holds per code cell the text the cell printed
(stdout, stderr, ``text/plain`` results, so tables as text, and error
messages), a SHA-256 digest of each figure, and per glued value the text the
book prints for it. ``verify`` compares a fresh run with the record exactly and
exits with status 1 on any difference; ``record`` rewrites the record and is
run only on purpose, when a change of the printed results is intended.

The functions are used by ``tests/test_notebooks.py`` too, so that the test
suite checks the same thing with one execution per chapter. That execution
also checks that the visible cells need no hidden cell
(``tools/visible_cells_guard.py``, in the same kernel) and is stored where the
book build finds it (``book/_ext/chapter_cache.py``), so that ``make book``
after ``make test`` or ``make verify`` executes nothing.

Platform. The numbers a chapter prints depend on the machine by an ulp at
most: NumPy evaluates ``exp``, ``log`` and their kin with vector kernels chosen
at run time (AVX-512, AVX2, plain SSE, ARM's), which may differ in the last
bit, and a value that lies on a rounding tie of its printed precision then
prints differently. So ``verify`` compares numbers, not characters: the text
around the numbers must be identical, and a number printed with decimals (or
an exponent) may differ from the record by one unit in its last printed digit
or, for a value printed at full precision, by 1e-9 relatively (``REL_TOL``).
Such a chapter is "reproduced to the last printed digit (N numbers)";
``--strict`` compares every line exactly, as text. Whole numbers (counts,
sizes) and figures (their PNG digests) are always compared exactly. The
records are kept free of rounding ties (``tools/rounding_ties.py`` lists the
glued values that lie within 1e-9 of one), and CI reruns the chapters with
NumPy's AVX-512 and AVX2 kernels switched off (``NPY_DISABLE_CPU_FEATURES``,
see ``.ci/run``), so that a record that depends on them fails there. The BLAS
kernel was found to change nothing: recorded with OpenBLAS's SkylakeX
kernels, chapters 1 to 10 reproduced exactly with OpenBLAS forced to its
Haswell kernels (``OPENBLAS_CORETYPE=Haswell make verify``), and the chapters
that train networks or resample most (4, 6, 7, 9, 10) also with its
Sandybridge kernels, which use no fused multiply-add. The MLP's code keeps its
matrix products in even-sized blocks for that reason (``course/shapes.py``).
"""

from __future__ import annotations

import argparse
import hashlib
import os
import platform
import re
import sys
import time
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from pathlib import Path

import jupytext
import nbformat
from myst_nb.core.variables import format_plain_text
from nbclient import NotebookClient

from sigeval.course.cache import CACHE_ENV

ROOT = Path(__file__).resolve().parents[1]
TOOLS = ROOT / "tools"
sys.path.insert(0, str(ROOT / "book" / "_ext"))
import chapter_cache  # noqa: E402  (book/_ext: the executions the book build reuses)

chapter_cache.encrypt_kernels()  # no "Kernel is running over TCP without encryption" warnings

NOTEBOOKS = ROOT / "notebooks"
RECORDS = ROOT / "book" / "outputs"
TIMEOUT = 300  # seconds per cell, as in the book's execute.timeout, with room for a slow CI machine
#: A number printed at full precision (a glued value's repr) may differ by this much, relatively.
REL_TOL = 1e-9

# The roles by which the prose prints a glued value; only {glue:text} takes a format.
_GLUE_ROLE = re.compile(r"\{glue(?::(text|md|math|any))?\}`([^`]+)`")
_CODE_CELL = re.compile(r"^\s*`{3,}\s*\{code-cell\}")
_HEADER = "# "
_SECTION = "=== "
_GLUE_SECTION = "=== glued values"
# Output text that may be pasted instead of text/plain, in order of preference.
_TEXT_MIMES = ("text/plain", "text/markdown", "text/latex", "text/html")


def chapters(selection: str | None = None, notebooks: Path = NOTEBOOKS) -> list[Path]:
    """The chapter files, all of them or those whose name starts with ``selection`` ("05")."""
    paths = sorted(notebooks.glob("*.md"))
    if selection:
        paths = [p for p in paths if p.stem.startswith(selection)]
        if not paths:
            raise SystemExit(f"no chapter in {notebooks} starts with {selection!r}")
    return paths


HIDDEN_CODE = {"remove-cell", "remove-input"}  # tags of the code cells a reader never sees


def is_hidden(cell: nbformat.NotebookNode) -> bool:
    """A code cell the page does not show (its output may show, with ``remove-input``)."""
    return bool(HIDDEN_CODE & set(cell.metadata.get("tags", [])))


def _guard_visible_cells(client: NotebookClient, notebook: nbformat.NotebookNode):
    """A hook that installs tools/visible_cells_guard.py in the kernel before the first cell."""
    plan = [(cell.source, is_hidden(cell)) for cell in notebook.cells if cell.cell_type == "code"]
    source = (TOOLS / "visible_cells_guard.py").read_text(encoding="utf-8")
    # One expression, run silently: no output, no execution count, no name left behind.
    code = f"exec(compile({source!r} + '\\ninstall(PLAN)', 'visible_cells_guard', 'exec'), {{'PLAN': {plan!r}}})"

    async def hook(**_):
        reply = await client.async_wait_for_reply(client.kc.execute(code, silent=True, store_history=False))
        if reply is None or reply["content"]["status"] != "ok":
            content = reply["content"] if reply else {}
            raise RuntimeError(f"could not install the visible-cells guard: {content.get('evalue', 'no reply')}")

    return hook


def execute(path: Path, *, store: bool = True) -> tuple[nbformat.NotebookNode, float]:
    """Execute a chapter in a fresh kernel; returns the notebook and the seconds it took.

    One execution answers three questions: what the chapter prints (its
    record), whether its visible cells run without the hidden ones
    (tools/visible_cells_guard.py, installed in the same kernel), and what the
    book shows: the executed notebook is stored where the book build finds
    it (book/_ext/chapter_cache.py), unless ``store`` is False.
    """
    notebook = jupytext.read(path)
    kernel = notebook.metadata.get("kernelspec", {}).get("name")
    if kernel != "python3":
        raise ValueError(f"{path.name}: the kernelspec name must be 'python3'; got {kernel!r}")
    client = NotebookClient(
        notebook,
        timeout=TIMEOUT,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        # No timestamps in the cells' metadata: the book build finds a stored
        # execution by its code cells, metadata included.
        record_timing=False,
    )
    client.on_notebook_start = _guard_visible_cells(client, notebook)
    # Never from the course's result cache (sigeval.course.cache): a
    # verification computes everything the chapter computes.
    env = {k: v for k, v in os.environ.items() if k != CACHE_ENV}
    start = time.perf_counter()
    client.execute(env=env)
    seconds = time.perf_counter() - start
    if store:
        chapter_cache.store(path, notebook, seconds)
    return notebook, seconds


def platform_line() -> str:
    """Machine, Python, NumPy and the BLAS kernels NumPy and SciPy use: what the numbers may depend on."""
    import numpy
    import scipy.linalg  # noqa: F401  (loads SciPy's BLAS too, so that the line lists both every time)
    from threadpoolctl import threadpool_info

    blas = sorted(
        f"{lib.get('internal_api')} {lib.get('version')} ({lib.get('architecture', '?')})"
        for lib in threadpool_info()
        if lib.get("user_api") == "blas"
    )
    return (
        f"{platform.system()} {platform.machine()}, Python {platform.python_version()}, "
        f"NumPy {numpy.__version__} ({numpy_kernels()}), BLAS {', '.join(blas) or 'unknown'}"
    )


def numpy_kernels() -> str:
    """The SIMD extensions whose kernels NumPy dispatches to on this machine (as ``numpy.show_runtime()``)."""
    from numpy._core._multiarray_umath import __cpu_baseline__, __cpu_dispatch__, __cpu_features__

    found = [name for name in __cpu_dispatch__ if __cpu_features__.get(name)]
    return "kernels " + " ".join([*__cpu_baseline__, *found])


# --------------------------------------------------------------------------- the record


@dataclass
class Record:
    """A chapter's outputs: per code cell its output lines, per glued value its printed text."""

    cells: dict[int, list[str]] = field(default_factory=dict)  # code cell number -> output lines
    glue: dict[str, str] = field(default_factory=dict)  # "name:format" -> the text the book prints
    n_cells: int = 0  # code cells in the chapter, those without output included
    cell_titles: dict[int, str] = field(default_factory=dict)  # cell number -> "line L: first code line"


def _digest(data: str) -> str:
    # Notebook images are base64 text; the digest of that text identifies the PNG.
    return "sha256:" + hashlib.sha256(data.encode()).hexdigest()


def _bundle_lines(data: dict) -> list[str]:
    """The text of one mime bundle: its best text form and a digest of each image."""
    lines = []
    for mime in _TEXT_MIMES:
        if mime in data:
            lines += [f"[{mime}]", *str(data[mime]).splitlines()]
            break
    lines += [f"[{mime}] {_digest(value)}" for mime, value in sorted(data.items()) if mime.startswith("image/")]
    return lines


def _code_cell_lines(source: str) -> list[int]:
    """Line numbers (1-based) of the code cells in a chapter's MyST source."""
    return [i for i, line in enumerate(source.splitlines(), 1) if _CODE_CELL.match(line)]


def _glue_uses(source: str) -> list[tuple[str, str]]:
    """Each (name, format) by which the prose prints a glued value, in order, without repeats."""
    uses = []
    for role, content in _GLUE_ROLE.findall(source):
        if "::" in content:
            continue  # a value glued in another chapter is checked with that chapter
        name, _, spec = content.rpartition(":") if role == "text" and ":" in content else (content, "", "")
        if (name, spec) not in uses:
            uses.append((name, spec))
    return uses


def _glued_bundle(output: nbformat.NotebookNode) -> tuple[str, dict]:
    """The name and mime bundle of one glued value (myst-nb's ``glue`` output)."""
    prefix = output.metadata.scrapbook.get("mime_prefix", "")
    return output.metadata.scrapbook.name, {m.removeprefix(prefix): v for m, v in output.data.items()}


def glued_values(notebook: nbformat.NotebookNode) -> dict[str, str]:
    """Each glued value's plain text (a number's repr, a string's quoted repr), as the kernel gave it."""
    bundles = (
        _glued_bundle(output)
        for cell in notebook.cells
        if cell.cell_type == "code"
        for output in cell.outputs
        if "scrapbook" in output.get("metadata", {})
    )
    return {name: bundle.get("text/plain", "") for name, bundle in bundles}


def glue_uses(path: Path) -> list[tuple[str, str]]:
    """Each (name, format) by which a chapter's prose prints a glued value of its own."""
    return _glue_uses(path.read_text(encoding="utf-8"))


def extract(path: Path, notebook: nbformat.NotebookNode) -> Record:
    """The record of an executed chapter."""
    source = path.read_text(encoding="utf-8")
    code_cells = [cell for cell in notebook.cells if cell.cell_type == "code"]
    starts = _code_cell_lines(source)
    if len(starts) != len(code_cells):
        raise ValueError(f"{path.name}: found {len(starts)} code-cell fences but Jupytext read {len(code_cells)} cells")
    record = Record(n_cells=len(code_cells))
    glued: dict[str, dict] = {}
    for number, (cell, line) in enumerate(zip(code_cells, starts), 1):
        first = next((s for s in cell.source.splitlines() if s.strip()), "")
        record.cell_titles[number] = f"line {line}: {first}"
        blocks: list[list[str]] = []  # [label, text]: one per visible output
        for output in cell.outputs:
            if "scrapbook" in output.get("metadata", {}):
                name, bundle = _glued_bundle(output)
                glued[name] = bundle
                if not output.metadata.scrapbook.get("mime_prefix", ""):  # glue(..., display=True) shows it here
                    blocks.append(["", "\n".join(_bundle_lines(output.data))])
            elif output.output_type == "stream":
                # The kernel splits a cell's printing into several outputs at
                # arbitrary moments; the book shows them merged (nb_merge_streams).
                if blocks and blocks[-1][0] == f"[{output.name}]":
                    blocks[-1][1] += output.text
                else:
                    blocks.append([f"[{output.name}]", output.text])
            elif output.output_type == "error":
                blocks.append(["[error]", f"{output.ename}: {output.evalue}"])
            else:
                blocks.append(["", "\n".join(_bundle_lines(output.data))])
        lines = [line for label, text in blocks for line in ([label] if label else []) + text.splitlines()]
        if lines:
            record.cells[number] = lines
    used = set()
    for name, spec in _glue_uses(source):
        if name not in glued:
            raise ValueError(f"{path.name}: the prose prints glued value {name!r}, which no cell glued")
        # As myst-nb's {glue:text} role: no format given means "s".
        record.glue[f"{name}:{spec}"] = format_plain_text(glued[name].get("text/plain", ""), spec or "s")
        used.add(name)
    for name in sorted(set(glued) - used):  # glued but not printed by this chapter's prose
        images = [
            f"[{mime}] {_digest(value)}" for mime, value in sorted(glued[name].items()) if mime.startswith("image/")
        ]
        record.glue[name] = " ".join([glued[name].get("text/plain", ""), *images])
    return record


def render(path: Path, record: Record) -> str:
    """The record as the text file kept in book/outputs/."""
    rel = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path
    out = [
        f"{_HEADER}Recorded outputs of {rel.as_posix()}: {record.n_cells} code cells, {len(record.glue)} glued values.",
        f"{_HEADER}Rewritten only on purpose, by `make record`; `make verify CHAPTER={path.stem[:2]}` reruns the chapter",
        f"{_HEADER}and compares: the text exactly, a number with decimals to one unit in its last printed digit",
        f"{_HEADER}(or 1e-9 relatively at full precision), whole numbers and figures exactly; --strict: all exactly.",
        f"{_HEADER}Cells: what each code cell printed ([stdout], [stderr], [error]) and the plain-text form",
        f"{_HEADER}of its results ([text/plain]: tables as pandas prints them). Cells without output are omitted.",
        f"{_HEADER}Figures: [image/png] sha256 of the PNG the cell produced, reproducible on one platform with",
        f"{_HEADER}the pinned packages (matplotlib's Agg renderer is deterministic); the data behind each",
        f"{_HEADER}figure is printed or glued by the chapter's cells, and compared above as text.",
        f"{_HEADER}Glued values: `name:format` = the text the book prints for {{glue:text}}`name:format`;",
        f"{_HEADER}values glued but not printed by the prose are listed by name with their plain text.",
        f"{_HEADER}Recorded on: {platform_line()}.",
        f"{_HEADER}Reproduced on other CPUs (NumPy's AVX-512 and AVX2 kernels off) and BLAS kernels: see",
        f"{_HEADER}tools/verify.py; no printed value lies on a rounding tie (tools/rounding_ties.py).",
        f"{_HEADER}(The record's header lines and the text after a cell's line number are not compared.)",
    ]
    for number, lines in record.cells.items():
        out += ["", f"{_SECTION}cell {number} ({record.cell_titles.get(number, '')})", *lines]
    out += ["", _GLUE_SECTION, *(f"{key} = {text}" for key, text in record.glue.items())]
    return "\n".join(out) + "\n"


def parse(text: str) -> Record:
    """Read a record file back (what :func:`render` wrote)."""
    record = Record()
    section: list[str] | None = None
    in_glue = False
    for line in text.splitlines():
        if line.startswith(_HEADER) and section is None and not in_glue:
            match = re.search(r": (\d+) code cells, \d+ glued values", line)
            if match:
                record.n_cells = int(match.group(1))
            continue
        # One blank line separates sections; it belongs to none.
        starts_section = line == _GLUE_SECTION or line.startswith(_SECTION + "cell ")
        if starts_section and section and section[-1] == "":
            section.pop()
        if line == _GLUE_SECTION:
            in_glue, section = True, None
        elif line.startswith(_SECTION + "cell "):
            number_text, _, title = line.removeprefix(_SECTION + "cell ").partition(" ")
            number = int(number_text)
            record.cell_titles[number] = title.removeprefix("(").removesuffix(")")
            section = record.cells.setdefault(number, [])
        elif in_glue and line:
            key, sep, value = line.partition(" = ")
            if not sep:
                raise ValueError(f"record: a glued value line needs `name:format = text`; got {line!r}")
            record.glue[key] = value
        elif section is not None:
            section.append(line)
    return record


# --------------------------------------------------------------------------- comparison


@dataclass(frozen=True)
class Difference:
    """Where a fresh run differs from the record: a cell (``cell`` number) or a glued value (``glue`` key)."""

    where: str
    line: int | None  # 1-based line of the cell's output; None for a glued value
    got: str
    recorded: str
    cell: int | None = None
    glue: str | None = None

    def __str__(self) -> str:
        at = f"{self.where}, output line {self.line}" if self.line is not None else self.where
        return f"{at}\n      got:      {self.got}\n      recorded: {self.recorded}"


# A number as printed: an optional sign, digits with an optional fraction, an optional exponent.
_NUMBER = re.compile(r"[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?")


def _unit(token: str) -> Decimal | None:
    """One unit in the last printed digit of a number with decimals or an exponent; None for a whole number."""
    mantissa, _, exponent = token.lower().partition("e")
    if "." not in mantissa and not exponent:
        return None
    decimals = len(mantissa.partition(".")[2])
    return Decimal(1).scaleb(-decimals + int(exponent or 0))


def _numbers_agree(got: str, want: str) -> bool:
    """Two printed numbers that differ at most as two CPUs' last bits can make them differ.

    By one unit in the last printed digit when both are printed at the same
    precision (a value on a rounding tie that one machine rounds up and the
    other down), or by ``REL_TOL`` relatively (a value printed at full
    precision, such as a glued float's repr). Whole numbers must be equal.
    """
    unit_got, unit_want = _unit(got), _unit(want)
    if unit_got is None or unit_want is None:
        return False
    try:
        a, b = Decimal(got), Decimal(want)
    except InvalidOperation:
        return False
    if unit_got == unit_want and abs(a - b) <= unit_got:
        return True
    return abs(a - b) <= Decimal(REL_TOL) * max(abs(a), abs(b))


def _line_matches(got: str, want: str) -> int | None:
    """How many numbers of ``got`` differ from ``want``'s within the tolerance; None if the line differs.

    The text between the numbers must be identical, and so must the number of numbers.
    """
    got_text, want_text = _NUMBER.split(got), _NUMBER.split(want)
    if got_text != want_text:
        return None
    near = 0
    for a, b in zip(_NUMBER.findall(got), _NUMBER.findall(want)):
        if a == b:
            continue
        if not _numbers_agree(a, b):
            return None
        near += 1
    return near


@dataclass
class Comparison:
    """A fresh run against the record: what differs, and what agrees only to the last printed digit."""

    differences: list[Difference] = field(default_factory=list)
    #: Each cell or glued value whose numbers agree only within the tolerance, with how many such numbers.
    last_digit: list[tuple[Difference, int]] = field(default_factory=list)

    @property
    def n_last_digit(self) -> int:
        return sum(count for _, count in self.last_digit)

    @property
    def verdict(self) -> str:
        if self.differences:
            return f"DIFFERS ({len(self.differences)})"
        if self.last_digit:
            return f"reproduced to the last printed digit ({self.n_last_digit} numbers)"
        return "reproduced"


def _compare_lines(got: list[str], want: list[str], strict: bool) -> tuple[int | None, int | None, int]:
    """The first line that differs (None if none), the first that agrees within the tolerance, and its numbers."""
    first_near, near = None, 0
    for i in range(max(len(got), len(want))):
        if i >= len(got) or i >= len(want):
            return i, first_near, near
        if got[i] == want[i]:
            continue
        matched = None if strict else _line_matches(got[i], want[i])
        if matched is None:
            return i, first_near, near
        first_near = i if first_near is None else first_near
        near += matched
    return None, first_near, near


def compare(recorded: Record, fresh: Record, *, strict: bool = False) -> Comparison:
    """Every cell and glued value that differs (for a cell, its first differing line).

    With ``strict``, lines are compared exactly as text; otherwise numbers may
    differ as :func:`_numbers_agree` allows, and the cells and glued values
    where they do are listed in ``last_digit``.
    """
    result = Comparison()
    if recorded.n_cells != fresh.n_cells:
        result.differences.append(
            Difference("the chapter", None, f"{fresh.n_cells} code cells", f"{recorded.n_cells} code cells")
        )
    for number in sorted(set(recorded.cells) | set(fresh.cells)):
        got, want = fresh.cells.get(number, []), recorded.cells.get(number, [])
        title = fresh.cell_titles.get(number) or recorded.cell_titles.get(number, "")
        i, first_near, near = _compare_lines(got, want, strict)
        if i is not None:
            result.differences.append(
                Difference(
                    f"cell {number} ({title})",
                    i + 1,
                    got[i] if i < len(got) else "(no more output)",
                    want[i] if i < len(want) else "(no more output)",
                    cell=number,
                )
            )
        elif first_near is not None:
            where = f"cell {number} ({title})"
            result.last_digit.append((Difference(where, first_near + 1, got[first_near], want[first_near],
                                                 cell=number), near))
    for key in list(recorded.glue) + [k for k in fresh.glue if k not in recorded.glue]:
        got_value, want_value = fresh.glue.get(key, "(not glued)"), recorded.glue.get(key, "(not recorded)")
        if got_value == want_value:
            continue
        both = key in fresh.glue and key in recorded.glue
        near = _line_matches(got_value, want_value) if both and not strict else None
        difference = Difference(f"glued value {key}", None, got_value, want_value, glue=key)
        if near is None:
            result.differences.append(difference)
        else:
            result.last_digit.append((difference, near))
    return result


def record_path(path: Path, records: Path = RECORDS) -> Path:
    return records / f"{path.stem}.txt"


def check(path: Path, notebook: nbformat.NotebookNode, records: Path = RECORDS, *, strict: bool = False) -> Comparison:
    """Compare an executed chapter with its record; a missing record is an error."""
    file = record_path(path, records)
    if not file.exists():
        raise FileNotFoundError(
            f"{path.name}: no recorded outputs in {file}; run `make record CHAPTER={path.stem[:2]}`"
        )
    return compare(parse(file.read_text(encoding="utf-8")), extract(path, notebook), strict=strict)


# --------------------------------------------------------------------------- command line


def _verify(paths: list[Path], records: Path, *, strict: bool = False, store: bool = True) -> int:
    print(f"this machine: {platform_line()}")
    print("comparing " + ("every line exactly, as text" if strict else
                          "the text exactly, numbers with decimals to one unit in their last printed digit"))
    failed = 0
    for path in paths:
        notebook, seconds = execute(path, store=store)
        fresh = extract(path, notebook)
        file = record_path(path, records)
        if not file.exists():
            print(f"{path.stem:28s} no record in {file}: run `make record CHAPTER={path.stem[:2]}`  {seconds:6.1f} s")
            failed += 1
            continue
        comparison = compare(parse(file.read_text(encoding="utf-8")), fresh, strict=strict)
        print(
            f"{path.stem:28s} {fresh.n_cells:3d} cells  {len(fresh.glue):3d} glued values  "
            f"{comparison.verdict:14s} {seconds:6.1f} s"
        )
        for difference in comparison.differences:
            print(f"    {difference}")
        for difference, count in comparison.last_digit:
            print(f"    to the last digit ({count} number{'s' * (count > 1)}): {difference}")
        failed += bool(comparison.differences)
    if len(paths) > 1:
        orphans = sorted(set(records.glob("*.txt")) - {record_path(p, records) for p in paths})
        for orphan in orphans:
            print(f"{orphan.name}: a record of no chapter in notebooks/ (remove it, or run `make record`)")
        failed += len(orphans)
    print("all chapters reproduced" if not failed else f"{failed} chapter(s) differ from the record")
    return 1 if failed else 0


def _record(paths: list[Path], records: Path, every_chapter: bool) -> int:
    records.mkdir(parents=True, exist_ok=True)
    for path in paths:
        notebook, seconds = execute(path)
        record = extract(path, notebook)
        record_path(path, records).write_text(render(path, record), encoding="utf-8")
        print(
            f"{path.stem:28s} {record.n_cells:3d} cells  {len(record.glue):3d} glued values  recorded  {seconds:6.1f} s"
        )
    if every_chapter:
        for orphan in sorted(set(records.glob("*.txt")) - {record_path(p, records) for p in paths}):
            orphan.unlink()
            print(f"{orphan.name}: removed (its chapter is gone)")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("action", choices=["verify", "record"])
    parser.add_argument("chapter", nargs="?", default="", help="a chapter number or name prefix, e.g. 05")
    parser.add_argument("--strict", action="store_true", help="compare every line exactly, as text")
    parser.add_argument(
        "--no-store",
        action="store_true",
        help="do not keep the executions for the book build (for runs on purpose on another CPU setting)",
    )
    args = parser.parse_args(argv)
    paths = chapters(args.chapter)
    if args.action == "record":
        return _record(paths, RECORDS, every_chapter=not args.chapter)
    return _verify(paths, RECORDS, strict=args.strict, store=not args.no_store)


if __name__ == "__main__":
    sys.exit(main())

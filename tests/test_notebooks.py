"""Every chapter executes and reproduces the outputs recorded in book/outputs/.

CI does not build the HTML book, so this is what catches a broken chapter
there, and a change that alters a printed number: the test fails until the
record is deliberately regenerated with ``make record``. The comparison is the
one ``make verify`` makes (``tools/verify.py``). Each chapter is executed once
per test run, in a fresh kernel with the chapter folder as working directory
as in the book build, and never from the course's result cache; the tests of
the comparison itself reuse those executions.
"""

import functools
import importlib.util
import re
import shutil
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient import NotebookClient

ROOT = Path(__file__).parents[1]
# tools/ is not a package: load tools/verify.py by path (registered first, as
# its dataclasses need their module in sys.modules).
_spec = importlib.util.spec_from_file_location("tools_verify", ROOT / "tools" / "verify.py")
verify = sys.modules.setdefault("tools_verify", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(verify)

NOTEBOOKS = verify.chapters()


@functools.cache
def executed(path: Path):
    """The chapter executed once for the whole test run."""
    notebook, _seconds = verify.execute(path)
    return notebook


def test_there_are_chapters():
    assert NOTEBOOKS, "no chapters found in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_reproduces_its_record(path):
    differences = verify.check(path, executed(path))
    assert not differences, (
        f"{path.name} differs from book/outputs/{path.stem}.txt (if the change is intended, "
        f"run `make record CHAPTER={path.stem[:2]}` and review the diff):\n" + "\n".join(map(str, differences))
    )


HIDDEN_CODE = {"remove-cell", "remove-input"}


def visible_cells(notebook):
    """The code cells a reader sees on the page (and can copy), in order."""
    return [
        cell
        for cell in notebook.cells
        if cell.cell_type == "code" and not HIDDEN_CODE & set(cell.metadata.get("tags", []))
    ]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_visible_cells_run_alone(path):
    """Copied from the page, the visible code runs: it needs no hidden cell.

    Hidden cells (``remove-cell``, ``remove-input``) hold only glue for the
    prose and the assertions that guard it; every name a visible cell uses,
    imports included, is defined in a visible cell above it. Exercise
    solutions are visible cells too.
    """
    notebook = jupytext.read(path)
    notebook.cells = visible_cells(notebook)
    assert notebook.cells, f"{path.name} shows no code"
    first = notebook.cells[0].source
    assert "import" in first, f"{path.name} does not start with a visible imports cell"
    client = NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()


GUARDED = [p for p in NOTEBOOKS if p.stem[:2] in {f"{k:02d}" for k in range(1, 9)}]


@pytest.mark.parametrize("path", GUARDED, ids=lambda p: p.stem)
def test_hidden_cells_hold_glue_and_guards(path):
    """Chapters 1-8: the prose's claims are guarded, and hidden cells hide no analysis.

    Every qualitative claim about a computed value has an ``assert`` in a
    hidden glue cell; a hidden cell defines no function other than the
    chapter's ``glue`` helper (analysis a reader may copy is visible).
    """
    notebook = jupytext.read(path)
    hidden = [
        cell.source
        for cell in notebook.cells
        if cell.cell_type == "code" and HIDDEN_CODE & set(cell.metadata.get("tags", []))
    ]
    asserts = sum(line.lstrip().startswith("assert ") for source in hidden for line in source.splitlines())
    assert asserts >= 10, f"{path.name}: only {asserts} guards in its hidden cells"
    defined = {line.split("(")[0][4:] for source in hidden for line in source.splitlines() if line.startswith("def ")}
    assert defined <= {"glue"}, f"{path.name}: hidden cells define {sorted(defined - {'glue'})}"



def test_every_record_has_its_chapter():
    orphans = {p.stem for p in verify.RECORDS.glob("*.txt")} - {p.stem for p in NOTEBOOKS}
    assert not orphans, f"records of no chapter in notebooks/: {sorted(orphans)}"


def _first_number_in_a_cell(lines: list[str]) -> tuple[int, int, int]:
    """(file line index, cell number, output line in that cell) of the first output line with a digit."""
    cell, line_in_cell = None, 0
    for i, line in enumerate(lines):
        if line.startswith("=== cell "):
            cell, line_in_cell = int(line.split()[2]), 0
        elif line.startswith("=== "):
            cell = None
        elif cell is not None and line:
            line_in_cell += 1
            if not line.startswith("[") and re.search(r"\d", line):
                return i, cell, line_in_cell
    raise AssertionError("no cell output with a number in the record")


def _altered(line: str, pattern: str = r"\d") -> str:
    """The line with its first match of ``pattern``'s first digit changed."""
    match = re.search(pattern, line)
    at = match.start() + re.search(r"\d", match.group()).start()
    return line[:at] + str((int(line[at]) + 1) % 10) + line[at + 1 :]


@pytest.fixture
def chapter_and_record_copy(tmp_path):
    """The first chapter (already executed by the tests above) and a copy of its record."""
    path = NOTEBOOKS[0]
    shutil.copy(verify.record_path(path), tmp_path)
    return path, verify.record_path(path, tmp_path)


def test_verification_reports_exactly_the_altered_cell(chapter_and_record_copy):
    path, copy = chapter_and_record_copy
    lines = copy.read_text(encoding="utf-8").splitlines()
    i, cell, line_in_cell = _first_number_in_a_cell(lines)
    recorded = lines[i] = _altered(lines[i])
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")

    differences = verify.check(path, executed(path), copy.parent)

    assert [(d.cell, d.line) for d in differences] == [(cell, line_in_cell)]
    assert differences[0].recorded == recorded
    assert differences[0].got != recorded


def test_verification_reports_exactly_the_altered_glued_value(chapter_and_record_copy):
    path, copy = chapter_and_record_copy
    lines = copy.read_text(encoding="utf-8").splitlines()
    start = lines.index("=== glued values")
    i = next(j for j in range(start + 1, len(lines)) if re.search(r" = .*\d", lines[j]))
    lines[i] = _altered(lines[i], r" = .*\d")
    copy.write_text("\n".join(lines) + "\n", encoding="utf-8")

    differences = verify.check(path, executed(path), copy.parent)

    assert [d.glue for d in differences] == [lines[i].partition(" = ")[0]]


def test_record_text_round_trips():
    # Output lines that look like the record's own syntax, and blank lines at
    # the end of a cell's output, read back unchanged.
    record = verify.Record(
        cells={2: ["[stdout]", "# not a header", "", ""], 5: ["[text/plain]", "   a  b", "0  1  2"]},
        glue={"x:.3f": "0.123", "label:": "a = b", "unused": "1.5"},
        n_cells=6,
        cell_titles={2: "line 10: print('# x')", 5: "line 20: df"},
    )
    assert verify.parse(verify.render(ROOT / "notebooks" / "99_example.md", record)) == record


def test_a_missing_record_names_the_command_that_writes_it(tmp_path):
    path = NOTEBOOKS[0]
    with pytest.raises(FileNotFoundError, match=rf"make record CHAPTER={path.stem[:2]}"):
        verify.check(path, executed(path), tmp_path)


def test_printing_split_by_the_kernel_is_recorded_as_printed(tmp_path):
    # The kernel may deliver one print() in several stream messages; a glued
    # value in between is invisible. The record depends on neither.
    chapter = tmp_path / "01_x.md"
    chapter.write_text("```{code-cell} ipython3\nprint('a b')\n```\n", encoding="utf-8")
    glue = nbformat.v4.new_output(
        "display_data",
        data={"application/papermill.record/text/plain": "0.5"},
        metadata={"scrapbook": {"name": "x", "mime_prefix": "application/papermill.record/"}},
    )

    def notebook(*outputs):
        cell = nbformat.v4.new_code_cell("print('a b')", outputs=list(outputs))
        return nbformat.v4.new_notebook(cells=[cell])

    def stream(text):
        return nbformat.v4.new_output("stream", name="stdout", text=text)

    whole = verify.extract(chapter, notebook(stream("a b\nc\n"), glue))
    split = verify.extract(chapter, notebook(stream("a "), glue, stream("b\nc\n")))
    assert whole == split
    assert whole.cells == {1: ["[stdout]", "a b", "c"]}
    assert whole.glue == {"x": "0.5"}


def test_records_hold_no_memory_addresses():
    """An object's repr with its address (``<... at 0x7f...>``) changes on every run: print something stable."""
    for record in sorted(verify.RECORDS.glob("*.txt")):
        found = re.search(r"<[^>\n]* at 0x[0-9a-f]{6,}>", record.read_text(encoding="utf-8"))
        assert not found, f"{record.name} records {found.group()}"

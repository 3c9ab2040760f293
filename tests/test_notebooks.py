"""Every chapter executes from top to bottom without an error.

CI does not build the HTML book, so this is what catches a broken chapter
there. The chapters are Jupytext MyST markdown; they run in a fresh kernel
with the chapter folder as working directory, as in the book build.
"""

from pathlib import Path

import jupytext
import pytest
from nbclient import NotebookClient

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.md"))


def test_there_are_chapters():
    assert NOTEBOOKS, "no chapters found in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_executes(path):
    notebook = jupytext.read(path)
    assert notebook.metadata["kernelspec"]["name"] == "python3"
    client = NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
    )
    client.execute()


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

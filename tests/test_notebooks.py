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

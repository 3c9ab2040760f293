"""Every chapter executes, reproduces the outputs recorded in book/outputs/, and its visible cells run alone.

Each chapter is executed once per test run (``tools/verify.py``), in a fresh
kernel with the chapter folder as working directory as in the book build, and
never from the course's result cache. That one execution answers three
questions: does the chapter reproduce its record (the comparison ``make
verify`` makes: the test fails until the record is deliberately regenerated
with ``make record``), do its visible cells run without the hidden ones (a
guard installed in the same kernel, ``tools/visible_cells_guard.py``), and what
does the book show: the executed notebook is stored where ``make book`` looks
it up (``book/_ext/chapter_cache.py``), so a book built after the tests
executes nothing. The tests of the comparison itself reuse these executions.
"""

import importlib.util
import re
import shutil
import sys
from pathlib import Path

import jupytext
import nbformat
import pytest
from nbclient.exceptions import CellExecutionError

ROOT = Path(__file__).parents[1]
# tools/ is not a package: load tools/verify.py by path (registered first, as
# its dataclasses need their module in sys.modules).
_spec = importlib.util.spec_from_file_location("tools_verify", ROOT / "tools" / "verify.py")
verify = sys.modules.setdefault("tools_verify", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(verify)
chapter_cache = verify.chapter_cache
sys.modules.setdefault("verify", verify)  # tools/rounding_ties.py imports it by that name
_spec = importlib.util.spec_from_file_location("tools_rounding_ties", ROOT / "tools" / "rounding_ties.py")
rounding_ties = sys.modules.setdefault("tools_rounding_ties", importlib.util.module_from_spec(_spec))
_spec.loader.exec_module(rounding_ties)

NOTEBOOKS = verify.chapters()
_EXECUTIONS: dict[Path, nbformat.NotebookNode | Exception] = {}
GUARD_MESSAGE = "is defined only by a hidden cell"


def executed(path: Path):
    """The chapter executed once for the whole test run (a failure too is kept, not repeated)."""
    if path not in _EXECUTIONS:
        try:
            _EXECUTIONS[path] = verify.execute(path)[0]
        except Exception as exc:  # noqa: BLE001  (reported by each test that needs the execution)
            _EXECUTIONS[path] = exc
    outcome = _EXECUTIONS[path]
    if isinstance(outcome, Exception):
        raise outcome
    return outcome


def test_there_are_chapters():
    assert NOTEBOOKS, "no chapters found in notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_chapter_reproduces_its_record(path):
    differences = verify.check(path, executed(path)).differences
    assert not differences, (
        f"{path.name} differs from book/outputs/{path.stem}.txt (if the change is intended, "
        f"run `make record CHAPTER={path.stem[:2]}` and review the diff):\n" + "\n".join(map(str, differences))
    )


HIDDEN_CODE = verify.HIDDEN_CODE


def visible_cells(notebook):
    """The code cells a reader sees on the page (and can copy), in order."""
    return [cell for cell in notebook.cells if cell.cell_type == "code" and not verify.is_hidden(cell)]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_visible_cells_run_alone(path):
    """Copied from the page, the visible code runs: it needs no hidden cell.

    Hidden cells (``remove-cell``, ``remove-input``) hold only glue for the
    prose and the assertions that guard it; every name a visible cell uses,
    imports included, is defined in a visible cell above it. Exercise
    solutions are visible cells too. Checked during the chapter's one
    execution: while a visible cell runs, the names that only hidden cells
    bound are out of the namespace (tools/visible_cells_guard.py).
    """
    cells = visible_cells(jupytext.read(path))
    assert cells, f"{path.name} shows no code"
    assert "import" in cells[0].source, f"{path.name} does not start with a visible imports cell"
    try:
        executed(path)
    except CellExecutionError as exc:
        if GUARD_MESSAGE in str(exc):
            pytest.fail(f"{path.name}: a visible cell uses a name that only a hidden cell defines:\n{exc}")
        pytest.fail(f"{path.name} failed before its visible cells could all be checked:\n{exc}")


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

    differences = verify.check(path, executed(path), copy.parent).differences

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

    differences = verify.check(path, executed(path), copy.parent).differences

    assert [d.glue for d in differences] == [lines[i].partition(" = ")[0]]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_no_printed_glued_value_lies_on_a_rounding_tie(path):
    """A value on a tie of its printed precision prints differently where exp or log differ by an ulp."""
    found, _ = rounding_ties.ties(path, executed(path))
    assert not found, "\n".join(map(str, found)) + "\n(print more digits, or change the seed or the data)"


@pytest.mark.parametrize(
    ("value", "spec", "on_tie"),
    [
        (0.3225, ".3f", True),  # pass@1 of chapter 15's first record: 1032 / 3200
        (0.32250000000000006, ".3f", True),
        (0.3225, ".4f", False),
        (0.4650000000000034, ".2f", True),  # 7e-15 from the tie: within 1e-9
        (0.465001, ".2f", False),
        (0.9275, ".1%", True),
        (0.9275, ".2%", False),
        (12345.0, ".3e", True),  # 1.2345e4 at 3 decimals of the mantissa
        (12345.0, ".4g", True),
        (12345.0, ".5g", False),
        (0.125, "f", False),  # six decimals by default
        (0.0000125, "f", True),
        (7, "d", None),  # whole numbers do not round
        (0.0, ".3f", None),
    ],
)
def test_rounding_tie_distance(value, spec, on_tie):
    distance = rounding_ties.tie_distance(value, spec)
    assert (None if distance is None else distance <= rounding_ties.REL_TOL) is on_tie


def _one_cell(*lines: str) -> "verify.Record":
    return verify.Record(cells={1: ["[text/plain]", *lines]}, n_cells=1, cell_titles={1: "line 1: x"})


@pytest.mark.parametrize(
    ("got", "recorded", "near"),
    [
        ("estimate   0.322   0.608", "estimate   0.323   0.608", 1),  # a rounding tie rounded the other way
        ("p = 1.235e-05", "p = 1.234e-05", 1),
        ("-0.000  1.00", "0.000  1.00", 1),  # noise around zero printing with a sign
        ("x 0.32250000000000006", "x 0.3225", 1),  # a full-precision repr, within REL_TOL
        ("0.10 and 0.21", "0.11 and 0.20", 2),
    ],
)
def test_numbers_may_differ_by_one_unit_in_their_last_printed_digit(got, recorded, near):
    comparison = verify.compare(_one_cell(recorded), _one_cell(got))
    assert comparison.differences == []
    assert comparison.n_last_digit == near
    assert comparison.verdict == f"reproduced to the last printed digit ({near} numbers)"
    strict = verify.compare(_one_cell(recorded), _one_cell(got), strict=True)
    assert [(d.cell, d.line, d.got) for d in strict.differences] == [(1, 2, got)]


@pytest.mark.parametrize(
    ("got", "recorded"),
    [
        ("estimate   0.321", "estimate   0.323"),  # two units
        ("estimate   0.32", "estimate   0.323"),  # another precision
        ("n = 1001", "n = 1000"),  # whole numbers are counts: exact
        ("estimate  0.323", "estimate   0.323"),  # the text around the numbers: exact
        ("estimates 0.323", "estimate  0.323"),
        ("0.3 0.4", "0.3"),  # another count of numbers
        ("x 0.322500001", "x 0.3225"),  # beyond REL_TOL (3e-9) at full precision, and not a unit of either
        ("1.5e-05", "1.5e-06"),
    ],
)
def test_anything_else_differs(got, recorded):
    comparison = verify.compare(_one_cell(recorded), _one_cell(got))
    assert [(d.cell, d.line, d.got, d.recorded) for d in comparison.differences] == [(1, 2, got, recorded)]
    assert comparison.verdict == "DIFFERS (1)"


def test_glued_values_follow_the_same_rule_and_the_first_difference_of_a_cell_is_reported():
    recorded = verify.Record(cells={1: ["a 0.5", "b 0.25", "c 7"]}, glue={"x:.3f": "0.323", "y": "0.1"}, n_cells=1)
    fresh = verify.Record(cells={1: ["a 0.6", "b 0.26", "c 8"]}, glue={"x:.3f": "0.322", "y": "0.10000000000000002"},
                          n_cells=1)
    comparison = verify.compare(recorded, fresh)
    assert [(d.cell, d.line) for d in comparison.differences] == [(1, 3)]  # "c 8": a whole number
    assert [(d.where, count) for d, count in comparison.last_digit] == [("glued value x:.3f", 1), ("glued value y", 1)]
    assert comparison.verdict == "DIFFERS (1)"
    identical = verify.compare(recorded, recorded)
    assert (identical.differences, identical.last_digit, identical.verdict) == ([], [], "reproduced")


def test_a_glued_value_missing_on_one_side_differs():
    recorded = verify.Record(glue={"x:.3f": "0.323"}, n_cells=0)
    fresh = verify.Record(glue={"x:.2f": "0.32"}, n_cells=0)
    assert [d.glue for d in verify.compare(recorded, fresh).differences] == ["x:.3f", "x:.2f"]


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


def test_the_book_build_finds_each_execution_of_this_run():
    """What `make book` reads (myst-nb's reading of the chapter) matches the stored execution, outputs included."""
    from myst_nb.core.read import read_myst_markdown_notebook

    for path in NOTEBOOKS:
        notebook = executed(path)
        as_the_book_reads_it = read_myst_markdown_notebook(path.read_text(encoding="utf-8"), path=str(path))
        found = chapter_cache.lookup(as_the_book_reads_it)
        assert found is not None, f"{path.name}: the book build would not find this run's execution"
        ran = [cell.outputs for cell in notebook.cells if cell.cell_type == "code"]
        assert [cell.outputs for cell in found.cells if cell.cell_type == "code"] == ran


CHAPTER_HEADER = """---
jupytext:
  text_representation:
    extension: .md
    format_name: myst
kernelspec:
  display_name: Python 3 (ipykernel)
  language: python
  name: python3
---

"""


def _chapter(tmp_path, *cells):
    """A chapter file of code cells: each (source, hidden)."""
    text = CHAPTER_HEADER + "\n".join(
        "```{code-cell} ipython3\n" + (":tags: [remove-cell]\n\n" if hidden else "") + source + "\n```\n"
        for source, hidden in cells
    )
    path = tmp_path / "01_example.md"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_guard_leaves_a_chapter_that_follows_the_rule_as_a_plain_run(tmp_path):
    path = _chapter(
        tmp_path,
        ("import math\nx = 1\nscratch = 0", False),
        ("helper = 2\nx = 5  # a hidden cell may change a visible name\nscratch = 7", True),
        ("print(x, scratch)", False),
        ("helper = 3  # bound by a visible cell, it is a visible name from now on\nprint(helper)", False),
        ("print(sorted(n for n in dir() if not n.startswith('_')))", False),
    )
    notebook, _ = verify.execute(path, store=False)
    code = [cell for cell in notebook.cells if cell.cell_type == "code"]
    assert [cell.execution_count for cell in code] == [1, 2, 3, 4, 5]
    printed = [cell.outputs[0].text if cell.outputs else "" for cell in code]
    assert printed[2:] == ["5 7\n", "3\n", "['In', 'Out', 'exit', 'get_ipython', 'helper', 'math', 'open', 'quit', 'scratch', 'x']\n"]


def test_the_guard_names_a_visible_use_of_a_hidden_name(tmp_path):
    path = _chapter(
        tmp_path,
        ("def total():\n    return base + 1", False),
        ("base = 41", True),
        ("print(total())", False),
    )
    with pytest.raises(CellExecutionError, match=f"'base' {GUARD_MESSAGE} \\('base = 41'\\)"):
        verify.execute(path, store=False)


# --------------------------------------------------------------------------- the downloadable notebook

import standalone  # noqa: E402  (book/_ext, on the path through tools/verify.py)


@pytest.fixture(scope="module")
def book_references():
    return standalone.BookReferences.from_sources()


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_the_download_reads_with_its_numbers(path, book_references):
    """The notebook a reader downloads holds the prose as the book prints it: numbers in, no MyST left."""
    notebook = executed(path)
    download = standalone.standalone(notebook, f"notebooks/{path.stem}", book_references)
    markdown = "\n".join(cell.source for cell in download.cells if cell.cell_type == "markdown")
    raw = [m.group() for m in standalone.RAW_MYST.finditer(markdown)]
    assert not raw, f"{path.name}: the download keeps MyST markup {raw[:5]}"
    printed = {key: text for key, text in verify.extract(path, notebook).glue.items() if ":" in key}
    missing = {key: text for key, text in printed.items() if text not in markdown}
    assert not missing, f"{path.name}: glued values not written into the download's prose: {missing}"
    code = [cell.source for cell in download.cells if cell.cell_type == "code"]
    unguarded = [s for s in code if re.search(r"^from myst_nb import", s, re.M) and "except ImportError" not in s]
    assert not unguarded, f"{path.name}: the download imports myst_nb without a fallback"
    assert not any("scrapbook" in o.get("metadata", {}) for cell in download.cells for o in cell.get("outputs", []))


def test_the_conversion_writes_myst_as_markdown():
    refs = standalone.BookReferences(
        titles={"ch-x": "Intervals for one score"},
        documents={"book/api": "The API"},
        figures={"fig-a": ("notebooks/01_x", "2.1"), "fig-b": ("notebooks/02_y", "3.3")},
        exercises={"ex-one": ("notebooks/01_x", "2.1")},
        chapters={"notebooks/01_x": 2, "notebooks/02_y": 3},
        citations={"dietterich1998": ("Dietterich", "1998"), "efron1993": ("Efron and Tibshirani", "1993")},
        entries={"dietterich1998": "Thomas G\\. Dietterich\\. Tests\\.", "efron1993": "Bradley Efron\\. Bootstrap\\."},
    )
    glue = nbformat.v4.new_output(
        "display_data",
        data={"application/papermill.record/text/plain": "0.84512"},
        metadata={"scrapbook": {"name": "acc", "mime_prefix": "application/papermill.record/"}},
    )
    notebook = nbformat.v4.new_notebook(
        metadata={"jupytext": {}, "kernelspec": {"name": "python3", "display_name": "Python 3"}},
        cells=[
            nbformat.v4.new_markdown_cell(
                "(ch-x)=\n# Intervals\n\n% a comment\nSee {ref}`ch-x`, {ref}`the API <ch-x>` and {doc}`../book/api`.\n"
                "An accuracy of {glue:text}`acc:.3f` ({glue:text}`acc:.1%`), as {numref}`fig-a` and {numref}`fig-b`"
                " show; {cite:t}`dietterich1998` and {cite}`dietterich1998,efron1993`. Code: `{ref}` stays.\n\n"
                "Wilson\n: an interval\n  over two lines.\n\n"
                "````{admonition} A note\n:class: dropdown\n\nIt says {glue:text}`acc:.2f`.\n\n```python\nx = 1\n```\n````"
            ),
            nbformat.v4.new_code_cell(
                "from myst_nb import glue\nglue('acc', 0.84512, display=False)",
                metadata={"tags": ["remove-cell"], "mystnb": {"figure": {"caption": "Coverage at {glue:text}`acc:.2f`."}}},
                outputs=[glue],
            ),
            nbformat.v4.new_markdown_cell(
                "```{exercise-start}\n:label: ex-one\n```\n\nDo it.\n\n```{exercise-end}\n```\n\n"
                "```{solution-start} ex-one\n:class: dropdown\n```\nDone.\n```{solution-end}\n```"
            ),
        ],
    )
    out = standalone.standalone(notebook, "notebooks/01_x", refs)
    assert out.cells[0].source == (
        "# Intervals\n\nSee *Intervals for one score*, the API and *The API*.\n"
        "An accuracy of 0.845 (84.5%), as Figure 2.1 and Figure 3.3 of *notebooks/02_y*"
        " show; Dietterich [1998] and [Dietterich, 1998, Efron and Tibshirani, 1993]. Code: `{ref}` stays.\n\n"
        "- **Wilson**: an interval\n  over two lines.\n\n"
        "> **A note**\n>\n> It says 0.85.\n>\n> ```python\n> x = 1\n> ```"
    )
    code = out.cells[1]
    assert code.outputs == [] and code.metadata["jupyter"] == {"source_hidden": True}
    assert "except ImportError:" in code.source and "def glue(name, variable, display=True):" in code.source
    assert out.cells[2].source == "**Figure 2.1.** Coverage at 0.85."
    assert out.cells[3].source == "**Exercise 2.1**\n\nDo it.\n\n**Solution to Exercise 2.1**\n\nDone."
    assert out.cells[4].source == "## Works cited\n\n- Thomas G\\. Dietterich\\. Tests\\.\n- Bradley Efron\\. Bootstrap\\."
    assert "jupytext" not in out.metadata
    with pytest.raises(standalone.ConversionError, match="no page, section, figure or exercise is labelled 'nowhere'"):
        standalone.standalone(nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell("{ref}`nowhere`")]), "x", refs)

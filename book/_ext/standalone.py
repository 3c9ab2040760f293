"""A chapter's executed notebook turned into one that stands on its own in plain Jupyter.

The chapters are MyST markdown: their prose holds roles (``{glue:text}``,
``{ref}``, ``{numref}``, ``{cite}``, ...), targets (``(ch-intervals)=``) and
directives (admonitions, exercises, solutions) that only the book build
understands, and their hidden cells import ``myst_nb`` to glue values. The
notebook a reader downloads from a page is converted here so that, opened in
JupyterLab or Jupyter Notebook with only ``sigeval[course,plots]`` installed:

- every glued value is written into the prose as the book prints it (from the
  glue outputs of the executed notebook, formatted by myst-nb's own rule);
- references read as the book's link text (a chapter's or section's title, in
  italics, "Figure 3.4", "Exercise 3.2"), citations as the book prints them
  ("Dietterich [1998]", "[Efron, 1987]"), with a list of the works cited at the end;
- targets and comments are gone, admonitions become block quotes,
  exercises and solutions numbered paragraphs, definition lists lists;
- each captioned figure is followed by its caption ("**Figure 3.2.** ...");
- the hidden cells stay (they hold the assertions that guard the prose), with
  their input collapsed as on the page, and their ``from myst_nb import glue``
  falls back to a function that only displays, so the notebook runs top to
  bottom without myst-nb.

Used by ``notebook_download`` (the book build) and by the test suite, which
converts an executed chapter and runs it with myst-nb blocked. Imports no
Sphinx.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[2]
#: Where the book's pages are (the targets of references).
PAGE_FOLDERS = ("notebooks", "book")
BIBLIOGRAPHY = ROOT / "book" / "references.bib"

_TARGET = re.compile(r"^\s*\(([^()\s]+)\)=\s*$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_DIRECTIVE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|:{3,})\{(?P<name>[\w:.-]+)\}\s*(?P<argument>.*?)\s*$")
_CODE_FENCE = re.compile(r"^(?P<indent>\s*)(?P<fence>`{3,}|~{3,})")
_OPTION = re.compile(r"^\s*:(?P<key>[\w-]+):\s*(?P<value>.*?)\s*$")
_ROLE = re.compile(r"\{(?P<name>[a-zA-Z][\w:+.-]*)\}`(?P<content>[^`]+)`")
# A role, or a code span (whose text is left alone); the leftmost wins.
_INLINE = re.compile(_ROLE.pattern + r"|(?P<code>(?P<ticks>`+)[^`].*?(?P=ticks))", re.DOTALL)
_EXPLICIT = re.compile(r"^(?P<text>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)
_COMMENT = re.compile(r"^\s*%")
_GLUE_IMPORT = re.compile(r"^(?P<indent>[ \t]*)from myst_nb import glue(?: as (?P<alias>\w+))?[ \t]*(?:#.*)?$", re.M)
_ADMONITIONS = {
    "admonition", "note", "warning", "tip", "important", "hint", "caution", "attention", "danger", "error",
    "seealso", "dropdown", "margin", "sidebar", "topic", "epigraph", "card",
}  # fmt: skip
_DROPPED = {"bibliography", "toctree", "tableofcontents", "nb-exec-table", "eval-rst", "literalinclude", "raw"}
_CODE_LITERAL_ROLES = {"code", "literal", "file", "command", "samp", "kbd", "envvar", "program", "option"}
_HIDDEN_INPUT = {"remove-cell", "remove-input", "hide-input", "hide-cell"}
_HIDDEN_OUTPUT = {"hide-output", "hide-cell"}


class ConversionError(ValueError):
    """A MyST construct the conversion cannot write as plain Markdown."""


@dataclass
class BookReferences:
    """What the prose of any page may point at: titles, figures, exercises, bibliography entries."""

    titles: dict[str, str] = field(default_factory=dict)  # target label -> the heading after it
    documents: dict[str, str] = field(default_factory=dict)  # page path without suffix, from ROOT -> title
    figures: dict[str, tuple[str, str]] = field(default_factory=dict)  # figure name -> (page, "3.4")
    exercises: dict[str, tuple[str, str]] = field(default_factory=dict)  # exercise label -> (page, "3.1")
    chapters: dict[str, int] = field(default_factory=dict)  # page -> its chapter number (numbered parts)
    citations: dict[str, tuple[str, str]] = field(default_factory=dict)  # key -> (authors, year)
    entries: dict[str, str] = field(default_factory=dict)  # key -> the formatted entry (Markdown)

    @classmethod
    def from_sources(cls, root: Path = ROOT, bibliography: Path | None = BIBLIOGRAPHY) -> BookReferences:
        """Read the book's pages (``notebooks/*.md``, ``book/*.md``) and its bibliography."""
        refs = cls()
        toc = root / "book" / "_toc.yml"
        if toc.exists():
            refs._read_toc(toc)
        for folder in PAGE_FOLDERS:
            for path in sorted((root / folder).glob("*.md")):
                refs._read_page(path, path.relative_to(root).with_suffix("").as_posix())
        if bibliography is not None and bibliography.exists():
            refs._read_bibliography(bibliography)
        return refs

    def _read_toc(self, path: Path) -> None:
        """Chapter numbers as the book gives them: consecutive over the parts marked ``numbered``."""
        import yaml

        number = 0
        for part in yaml.safe_load(path.read_text(encoding="utf-8")).get("parts", []):
            for chapter in part.get("chapters", []):
                if part.get("numbered"):
                    number += 1
                    self.chapters[chapter["file"]] = number

    def number(self, page: str, position: int) -> str:
        """The number the book gives the ``position``-th figure or exercise of a page ("3.4")."""
        return f"{self.chapters[page]}.{position}" if page in self.chapters else str(position)

    def _read_page(self, path: Path, page: str) -> None:
        lines = path.read_text(encoding="utf-8").splitlines()
        pending: list[str] = []
        n_figures = n_exercises = 0
        for i, line in enumerate(lines):
            target = _TARGET.match(line)
            heading = _HEADING.match(line)
            if target:
                pending.append(target.group(1))
            elif heading:
                title = heading.group(2)
                self.documents.setdefault(page, title)
                for label in pending:
                    self.titles[label] = title
                pending = []
            elif line.strip():
                pending = []
            directive = _DIRECTIVE.match(line)
            if directive and directive.group("name") in {"exercise-start", "exercise"}:
                n_exercises += 1
                for option in lines[i + 1 : i + 6]:
                    found = _OPTION.match(option)
                    if not found:
                        break
                    if found.group("key") == "label":
                        self.exercises[found.group("value")] = (page, self.number(page, n_exercises))
        # Figures are named in the cells' metadata (mystnb: figure: name:), read as a notebook.
        if path.parent.name == "notebooks":
            import jupytext

            for cell in jupytext.read(path).cells:
                name = cell.metadata.get("mystnb", {}).get("figure", {}).get("name")
                if cell.cell_type == "code" and "figure" in cell.metadata.get("mystnb", {}):
                    n_figures += 1
                    if name:
                        self.figures[name] = (page, self.number(page, n_figures))

    def _read_bibliography(self, path: Path) -> None:
        from pybtex.database import parse_file
        from pybtex.plugin import find_plugin
        from pybtex.richtext import Text

        database = parse_file(str(path))
        for key, entry in database.entries.items():
            persons = entry.persons.get("author") or entry.persons.get("editor") or []
            names = [Text(*person.rich_last_names).render_as("text") for person in persons]
            if len(names) >= 3:
                authors = f"{names[0]} *et al.*"
            elif names:
                authors = " and ".join(names)
            else:
                authors = key
            self.citations[key] = (authors, entry.fields.get("year", ""))
        style = find_plugin("pybtex.style.formatting", "plain")()
        for formatted in style.format_entries(database.entries.values()):
            self.entries[formatted.key] = " ".join(formatted.text.render_as("markdown").split("\n"))

    # ---------------------------------------------------------------- what a reference prints

    def title(self, label: str) -> str:
        if label in self.titles:
            return self.titles[label]
        if label in self.exercises:
            return f"Exercise {self.exercises[label][1]}"
        if label in self.figures:
            return f"Figure {self.figures[label][1]}"
        raise ConversionError(f"no page, section, figure or exercise is labelled {label!r}")

    def document(self, target: str, page: str) -> str:
        resolved = (Path(page).parent / target).as_posix() if not target.startswith("/") else target.lstrip("/")
        resolved = str(Path(resolved)).replace("\\", "/")
        parts: list[str] = []
        for part in resolved.split("/"):
            if part == "..":
                parts = parts[:-1]
            elif part not in ("", "."):
                parts.append(part)
        key = "/".join(parts).removesuffix(".md").removesuffix(".ipynb")
        if key not in self.documents:
            raise ConversionError(f"no page {target!r} (from {page})")
        return self.documents[key]


@dataclass
class _Context:
    """The state of one notebook's conversion."""

    refs: BookReferences
    page: str
    glued: dict[str, dict[str, str]]
    exercise: int = 0
    exercise_numbers: dict[str, str] = field(default_factory=dict)
    cited: list[str] = field(default_factory=list)


# ------------------------------------------------------------------------- inline


def _glue_text(context: _Context, name: str) -> dict[str, str]:
    if "::" in name:
        raise ConversionError(f"{{glue}} of another page's value ({name!r}) is not supported in a download")
    if name not in context.glued:
        raise ConversionError(f"the prose prints glued value {name!r}, which no cell glued")
    return context.glued[name]


def _role(context: _Context, name: str, content: str) -> str:
    from myst_nb.core.variables import format_plain_text

    explicit = _EXPLICIT.match(content)
    text, target = (explicit.group("text"), explicit.group("target")) if explicit else ("", content)
    if name == "glue:text":
        key, spec = content.rsplit(":", 1) if ":" in content else (content, "s")
        return format_plain_text(_glue_text(context, key).get("text/plain", ""), spec)
    if name in {"glue", "glue:any"}:
        data = _glue_text(context, content)
        return data.get("text/markdown") or format_plain_text(data.get("text/plain", ""), "")
    if name == "glue:md":
        return _glue_text(context, content).get("text/markdown", "")
    if name == "glue:math":
        return "$" + _glue_text(context, content).get("text/latex", "").strip().strip("$") + "$"
    if name == "ref":
        if text:
            return text
        title = context.refs.title(target)
        return title if title.startswith(("Figure ", "Exercise ")) else f"*{title}*"
    if name == "numref":
        if target in context.refs.figures:
            page, number = context.refs.figures[target]
            label = f"Figure {number}"
        elif target in context.refs.exercises:
            page, number = context.refs.exercises[target]
            label = f"Exercise {number}"
        else:
            raise ConversionError(f"{{numref}} to {target!r}, which is no figure or exercise")
        if text:
            return text.replace("%s", str(number)).replace("{number}", str(number))
        if page != context.page:
            label += f" of *{context.refs.documents.get(page, page)}*"
        return label
    if name == "doc":
        return text or f"*{context.refs.document(target, context.page)}*"
    if name.startswith("cite"):
        keys = [key.strip() for key in content.split(",") if key.strip()]
        for key in keys:
            if key not in context.refs.citations:
                raise ConversionError(f"no entry {key!r} in the bibliography")
            if key not in context.cited:
                context.cited.append(key)
        cites = [context.refs.citations[key] for key in keys]
        if name in {"cite:t", "cite:ts", "cite:alt"}:
            return ", ".join(f"{authors} [{year}]" for authors, year in cites)
        if name in {"cite:author", "cite:authors"}:
            return ", ".join(authors for authors, _ in cites)
        if name in {"cite:year", "cite:yearpar"}:
            return ", ".join(year for _, year in cites)
        return "[" + ", ".join(f"{authors}, {year}" for authors, year in cites) + "]"
    if name == "math":
        return f"${content}$"
    if name in {"eq"}:
        return f"({target})" if not text else text
    if name in _CODE_LITERAL_ROLES:
        return f"`{content}`"
    if name.startswith("py:") or name in {"func", "class", "meth", "mod", "obj", "attr", "data", "exc"}:
        shown = text or target
        return f"`{shown.lstrip('~').split('.')[-1] if shown.startswith('~') else shown}`"
    # Any other role (term, abbr, sub, sup, ...): its text.
    return text or target


def _inline(context: _Context, text: str) -> str:
    """Roles replaced by what the book prints for them; code spans left as they are."""

    def replace(match: re.Match) -> str:
        if match.group("code"):
            return match.group("code")
        return _role(context, match.group("name"), match.group("content"))

    return _INLINE.sub(replace, text)


# ------------------------------------------------------------------------- blocks


def _quote(lines: list[str]) -> list[str]:
    return [f"> {line}" if line.strip() else ">" for line in lines]


def _directive(context: _Context, name: str, argument: str, options: dict[str, str], body: list[str]) -> list[str]:
    converted = _markdown(context, "\n".join(body)).split("\n") if body else []
    if name in _ADMONITIONS:
        title = _inline(context, argument) if argument else name.capitalize()
        return _quote([f"**{title}**", "", *converted])
    if name in {"exercise-start", "exercise"}:
        context.exercise += 1
        label = options.get("label", "")
        number = context.refs.exercises.get(label, ("", context.refs.number(context.page, context.exercise)))[1]
        context.exercise_numbers[label] = number
        title = f" ({_inline(context, argument)})" if argument else ""
        return [f"**Exercise {number}**{title}", "", *converted]
    if name in {"solution-start", "solution"}:
        number = context.exercise_numbers.get(argument.strip())
        heading = f"**Solution to Exercise {number}**" if number else "**Solution**"
        return [heading, "", *converted]
    if name in {"exercise-end", "solution-end"}:
        return []
    if name in {"math"}:
        return ["$$", *body, "$$"]
    if name in {"code-block", "code", "sourcecode", "code-cell"}:
        return [f"```{argument}", *body, "```"]
    if name in {"figure", "image"}:
        caption = " ".join(converted).strip()
        alt = options.get("alt", caption or argument)
        return [f"![{alt}]({argument})", *(["", f"*{caption}*"] if caption and name == "figure" else [])]
    if name in _DROPPED:
        return []
    # Any other directive: its argument as a title, then its body.
    return ([f"**{_inline(context, argument)}**", ""] if argument else []) + converted


def _definition_lists(lines: list[str]) -> list[str]:
    """``Term`` then ``: definition`` (MyST's deflist) as a list item ``- **Term**: definition``."""
    out: list[str] = []
    for line in lines:
        if line.startswith(": ") and out and out[-1].strip() and not out[-1].startswith(("- ", ">", "#")):
            term = out.pop()
            out.append(f"- **{term.strip()}**: {line[2:]}")
        else:
            out.append(line)
    return out


def _markdown(context: _Context, text: str) -> str:
    """One markdown cell (or a directive's body) as plain Markdown."""
    lines = text.split("\n")
    out: list[str] = []
    prose: list[str] = []

    def flush() -> None:
        if prose:
            out.extend(_inline(context, "\n".join(_definition_lists(prose))).split("\n"))
            prose.clear()

    i = 0
    while i < len(lines):
        line = lines[i]
        directive = _DIRECTIVE.match(line)
        code = _CODE_FENCE.match(line)
        if directive:
            flush()
            fence = directive.group("fence")
            i += 1
            options: dict[str, str] = {}
            while i < len(lines) and _OPTION.match(lines[i]):
                found = _OPTION.match(lines[i])
                options[found.group("key")] = found.group("value")
                i += 1
            body = []
            closing = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
            while i < len(lines) and not closing.match(lines[i]):
                body.append(lines[i])
                i += 1
            i += 1  # the closing fence
            while body and not body[0].strip():
                body.pop(0)
            out.extend(
                directive.group("indent") + part
                for part in _directive(context, directive.group("name"), directive.group("argument"), options, body)
            )
        elif code:
            flush()
            fence = code.group("fence")
            closing = re.compile(rf"^\s*{re.escape(fence[0])}{{{len(fence)},}}\s*$")
            out.append(line)
            i += 1
            while i < len(lines) and not closing.match(lines[i]):
                out.append(lines[i])
                i += 1
            if i < len(lines):
                out.append(lines[i])
            i += 1
        elif _TARGET.match(line) or _COMMENT.match(line):
            i += 1
        else:
            prose.append(line)
            i += 1
    flush()
    # No blank lines at either end, and no runs of them.
    cleaned = "\n".join(out).strip("\n")
    return re.sub(r"\n{3,}", "\n\n", cleaned)


# ------------------------------------------------------------------------- notebook

_GLUE_FALLBACK = """{indent}try:
{indent}    from myst_nb import glue as {alias}
{indent}except ImportError:  # plain Jupyter: the glued values are already written into the text

{indent}    def {alias}(name, variable, display=True):
{indent}        if display:
{indent}            from IPython.display import display as show

{indent}            show(variable)"""


def _guard_glue_import(source: str) -> str:
    """``from myst_nb import glue`` that falls back to a function that only displays."""
    return _GLUE_IMPORT.sub(
        lambda m: _GLUE_FALLBACK.format(indent=m.group("indent"), alias=m.group("alias") or "glue"), source
    )


def glued_values(notebook: nbformat.NotebookNode) -> dict[str, dict[str, str]]:
    """Every value the executed notebook glued: name -> mime bundle (without myst-nb's prefix)."""
    glued = {}
    for cell in notebook.cells:
        for output in cell.get("outputs", []):
            scrapbook = output.get("metadata", {}).get("scrapbook")
            if scrapbook:
                prefix = scrapbook.get("mime_prefix", "")
                glued[scrapbook["name"]] = {mime.removeprefix(prefix): value for mime, value in output.data.items()}
    return glued


def standalone(
    notebook: nbformat.NotebookNode, page: str, refs: BookReferences, glued: dict[str, dict[str, str]] | None = None
) -> nbformat.NotebookNode:
    """The executed chapter ``notebook`` (at ``page``, e.g. ``notebooks/03_intervals``) for plain Jupyter.

    The glued values are read from the notebook's glue outputs and from
    ``glued`` (name -> mime bundle), for a notebook whose glue outputs myst-nb
    has moved to its ``<page>.glue.json``.
    """
    context = _Context(refs=refs, page=page, glued={**(glued or {}), **glued_values(notebook)})
    result = copy.deepcopy(notebook)
    result.metadata.pop("jupytext", None)
    result.metadata.pop("mystnb", None)
    cells = []
    n_figures = 0
    for cell in result.cells:
        cell.metadata.pop("jupyter", None)
        if cell.cell_type == "markdown":
            cell.source = _markdown(context, cell.source)
            if cell.source.strip():
                cells.append(cell)
            continue
        if cell.cell_type != "code":
            cells.append(cell)
            continue
        cell.source = _guard_glue_import(cell.source)
        cell.outputs = [o for o in cell.get("outputs", []) if "scrapbook" not in o.get("metadata", {})]
        tags = set(cell.metadata.get("tags", []))
        hidden = {"source_hidden": True} if tags & _HIDDEN_INPUT else {}
        hidden |= {"outputs_hidden": True} if tags & _HIDDEN_OUTPUT else {}
        if hidden:
            cell.metadata["jupyter"] = hidden
        cells.append(cell)
        figure = cell.metadata.get("mystnb", {}).get("figure")
        if figure is not None:
            n_figures += 1
            number = refs.figures.get(figure.get("name", ""), ("", refs.number(page, n_figures)))[1]
            caption = _inline(context, " ".join(str(figure.get("caption", "")).split()))
            cells.append(nbformat.v4.new_markdown_cell(f"**Figure {number}.** {caption}".strip()))
    if context.cited:
        listed = "\n".join(f"- {refs.entries.get(key, key)}" for key in sorted(context.cited))
        cells.append(nbformat.v4.new_markdown_cell(f"## Works cited\n\n{listed}"))
    for cell in cells:
        if "id" in cell and result.nbformat_minor < 5:
            del cell["id"]
    result.cells = cells
    return result


#: What no downloaded notebook may contain in its Markdown: MyST that only the book build understands.
RAW_MYST = re.compile(r"\{[a-zA-Z][\w:+.-]*\}`|^\s*\([^()\s]+\)=\s*$|^\s*(`{3,}|:{3,})\{", re.M)

"""Offer each chapter as a notebook that stands on its own (.ipynb) in the page's download menu.

The chapters are MyST markdown. myst-nb executes each one at build time (or
finds its stored execution) and writes the notebook to
``_build/jupyter_execute/<page>.ipynb`` (without the outputs when they came
from the store: they are merged in from there); its prose is still MyST, which plain
Jupyter shows raw. This extension converts it (``standalone.py``: glued values
written into the prose, references and citations as the book prints them,
figures captioned, the glue import made optional) and puts the result next to
the page's ``.md`` source in ``_sources``. sphinx-book-theme lists a ``.ipynb``
entry in its download menu when the page context holds ``ipynb_source``, but
fills it in only when a launch service (Binder, JupyterHub, Colab) is
configured; this extension sets it. Nothing is fetched; the build stays offline.

It also gives every figure an alt text: a figure of a chapter is an image
that myst-nb took from a cell's output, whose ``alt`` is the image file's
path, and a screen reader (or a browser that cannot show the image) would read
that path. The image takes the caption's text instead.
"""

from __future__ import annotations

import json
from pathlib import Path

import nbformat
from docutils import nodes
from sphinx.util import logging
from standalone import RAW_MYST, BookReferences, ConversionError, standalone

logger = logging.getLogger(__name__)


def _alt_from_captions(app, doctree, docname) -> None:
    """Every image of a figure without an alt text of its own gets the caption's text."""
    for figure in doctree.findall(nodes.figure):
        captions = list(figure.findall(nodes.caption))
        if not captions:
            continue
        text = " ".join(captions[0].astext().split())
        for image in figure.findall(nodes.image):
            if not image.get("alt") or image.get("alt") == image.get("uri"):
                image["alt"] = text


def _references(app) -> BookReferences:
    if not hasattr(app, "_sigeval_references"):
        refs = BookReferences.from_sources()
        # The numbers Sphinx gave the figures and exercises, where it gave them.
        for doc, kinds in getattr(app.env, "toc_fignumbers", {}).items():
            for kind, target in (("figure", refs.figures), ("exercise", refs.exercises)):
                for name, numbers in kinds.get(kind, {}).items():
                    target[name] = (doc, ".".join(map(str, numbers)))
        app._sigeval_references = refs
    return app._sigeval_references


def _executed(app, path: Path) -> nbformat.NotebookNode:
    """The executed notebook of a page, with its outputs.

    myst-nb writes ``jupyter_execute/<page>.ipynb`` from the notebook it read;
    when it took the outputs from its cache (``execute_notebooks: cache``)
    that file has none, so they are merged in from the same store.
    """
    notebook = nbformat.read(path, as_version=4)
    config = getattr(app.env, "mystnb_config", None)
    if config is not None and config.execution_mode == "cache" and config.execution_cache_path:
        from jupyter_cache import get_cache

        try:
            return get_cache(config.execution_cache_path).merge_match_into_notebook(notebook)[1]
        except KeyError:  # executed in this build, in place: the file has the outputs
            pass
    return notebook


def _add_notebook(app, pagename, templatename, context, doctree):
    if doctree is None or not str(context.get("sourcename", "")).endswith(".md"):
        return
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if not executed.is_file():  # a page without code cells
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    # myst-nb moves the glue outputs of the executed notebook into <page>.glue.json.
    glue_file = executed.with_name(f"{executed.stem}.glue.json")
    glued = {name: entry.get("data", {}) for name, entry in json.loads(glue_file.read_text()).items()} if glue_file.is_file() else {}
    try:
        notebook = standalone(_executed(app, executed), pagename, _references(app), glued)
    except ConversionError as exc:
        logger.warning(f"[notebook_download] {pagename}.ipynb: {exc}", location=pagename)
        return
    markdown = "\n".join(cell.source for cell in notebook.cells if cell.cell_type == "markdown")
    for raw in RAW_MYST.finditer(markdown):
        logger.warning(f"[notebook_download] {pagename}.ipynb keeps MyST markup: {raw.group()!r}", location=pagename)
    nbformat.write(notebook, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app):
    app.connect("doctree-resolved", _alt_from_captions)
    # Before sphinx-book-theme builds its header buttons (priority 501).
    app.connect("html-page-context", _add_notebook, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

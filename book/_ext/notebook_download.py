"""Offer each chapter's executed notebook (.ipynb) in the page's download menu.

The chapters are MyST markdown. myst-nb executes each one at build time and
writes the executed notebook to ``_build/jupyter_execute/<page>.ipynb``.
sphinx-book-theme lists a ``.ipynb`` entry in its download menu when the page
context holds ``ipynb_source``, but fills it in only when a launch service
(Binder, JupyterHub, Colab) is configured. This extension does that part
alone: it copies the executed notebook next to the page's ``.md`` source in
``_sources`` and sets ``ipynb_source``, so the menu offers both. Nothing is
fetched; the build stays offline.
"""

from __future__ import annotations

from pathlib import Path
from shutil import copy2


def _add_notebook(app, pagename, templatename, context, doctree):
    if doctree is None or not str(context.get("sourcename", "")).endswith(".md"):
        return
    executed = Path(app.outdir).parent / "jupyter_execute" / f"{pagename}.ipynb"
    if not executed.is_file():  # a page without code cells
        return
    target = Path(app.outdir) / "_sources" / f"{pagename}.ipynb"
    target.parent.mkdir(parents=True, exist_ok=True)
    copy2(executed, target)
    context["ipynb_source"] = f"{pagename}.ipynb"


def setup(app):
    # Before sphinx-book-theme builds its header buttons (priority 501).
    app.connect("html-page-context", _add_notebook, priority=400)
    return {"parallel_read_safe": True, "parallel_write_safe": True}

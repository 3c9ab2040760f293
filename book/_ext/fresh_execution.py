"""Never serve a chapter executed against another library, and execute it only when needed.

myst-nb runs with ``execute_notebooks: cache``: it looks each chapter up in a
jupyter-cache store, keyed on the chapter's code cells, and executes only on a
miss. A chapter's output also depends on the ``sigeval`` it imports and on the
installed packages, which that key does not see. This extension points myst-nb
at the store of the current *fingerprint* of those
(``chapter_cache.folder``: ``_build/.jupyter_cache/<fingerprint>``), where
``make test`` has stored the chapters it executed, so that a build after the
tests executes nothing, and an edit of the library that changes its code
(not a comment or a docstring) looks every chapter up in another store.

Sphinx itself re-reads only the documents whose source changed. When the
fingerprint differs from the previous build's, this extension marks every
executed chapter outdated, so that it is read again and looked up in the new
store; undoing the edit finds the executions of before again.

The expensive experiments that several chapters share are cached by
``sigeval.course.cache``; this extension points that cache at a folder inside
the build directory. It also has the kernels started over encrypted sockets
(``chapter_cache.encrypt_kernels``), so that ipykernel does not warn that they
are not.
"""

from __future__ import annotations

import os
from pathlib import Path

from chapter_cache import encrypt_kernels, fingerprint, folder, prune
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sigeval.course.cache import CACHE_ENV

logger = logging.getLogger(__name__)


def _build_dir(app: Sphinx) -> Path:
    # jupyter-book builds into <path-output>/_build/{html,.doctrees,jupyter_execute}.
    return Path(app.outdir).parent


def _point_caches_at_build_dir(app: Sphinx) -> None:
    # The kernels that execute the chapters inherit this process's environment.
    os.environ.setdefault(CACHE_ENV, str(_build_dir(app) / "sigeval_cache"))
    config = getattr(app.env, "mystnb_config", None)
    if config is None:  # myst-nb not loaded
        return
    store = folder(_build_dir(app))
    store.mkdir(parents=True, exist_ok=True)
    store.touch()  # most recently used (chapter_cache.prune keeps the latest few)
    prune(_build_dir(app))
    app.env.mystnb_config = config.copy(execution_cache_path=str(store))
    logger.info(f"[fresh_execution] chapters are looked up in {store}")


def _outdated_chapters(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    current = fingerprint()
    previous = getattr(env, "sigeval_fingerprint", None)
    env.sigeval_fingerprint = current
    if previous is None or previous == current:
        # None: a new build environment, in which every chapter is read anyway.
        return []
    # The documents myst-nb executed in the previous build are the chapters.
    executed = sorted(doc for doc, data in getattr(env, "nb_metadata", {}).items() if data.get("exec_data"))
    logger.info(f"[fresh_execution] sigeval or the installed packages changed: reading {len(executed)} chapters again")
    return executed


def setup(app: Sphinx) -> dict:
    encrypt_kernels()
    # After myst-nb's own builder-inited handler (priority 500), which sets the store's path.
    app.connect("builder-inited", _point_caches_at_build_dir, priority=600)
    app.connect("env-get-outdated", _outdated_chapters)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 2}

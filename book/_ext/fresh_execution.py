"""Never serve a chapter executed against another library: a Sphinx extension of the book.

Sphinx re-reads (and myst-nb, with ``execute_notebooks: force``, re-executes)
only the documents whose source changed. A chapter's output also depends on
the ``sigeval`` it imports and on the installed packages, which Sphinx does not
see: after an edit in ``src/`` alone an incremental build would keep every
chapter's old output. This extension stores a fingerprint of those inputs in
the build environment and, when it differs from the last build's, marks every
executed chapter outdated, so that it is executed again.

Why ``force`` plus this rather than myst-nb's ``cache`` mode: jupyter-cache
keys a notebook on its code cells only, so it would serve a stale execution
after a library change even when Sphinx re-reads the chapter. The expensive
experiments that several chapters share are cached instead by
``sigeval.course.cache``, keyed on the library's source and the arguments; this
extension points that cache at a folder inside the build directory.
"""

from __future__ import annotations

import hashlib
import os
from importlib import metadata
from pathlib import Path

from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util import logging

from sigeval.course.cache import CACHE_ENV, library_fingerprint

logger = logging.getLogger(__name__)


def build_fingerprint() -> str:
    """The library's source hash and every installed distribution's version."""
    installed = sorted(f"{d.metadata['Name']}=={d.version}" for d in metadata.distributions())
    return hashlib.sha256("\n".join([library_fingerprint(), *installed]).encode()).hexdigest()


def _point_cache_at_build_dir(app: Sphinx) -> None:
    # The kernels that execute the chapters inherit this process's environment.
    os.environ.setdefault(CACHE_ENV, str(Path(app.doctreedir).parent / "sigeval_cache"))


def _outdated_chapters(
    app: Sphinx, env: BuildEnvironment, added: set[str], changed: set[str], removed: set[str]
) -> list[str]:
    current = build_fingerprint()
    previous = getattr(env, "sigeval_fingerprint", None)
    env.sigeval_fingerprint = current
    if previous is None or previous == current:
        # None: a new build environment, in which every chapter is read anyway.
        return []
    # The documents myst-nb executed in the previous build are the chapters.
    executed = sorted(doc for doc, data in getattr(env, "nb_metadata", {}).items() if data.get("exec_data"))
    logger.info(f"[fresh_execution] sigeval or the installed packages changed: re-executing {len(executed)} chapters")
    return executed


def setup(app: Sphinx) -> dict:
    app.connect("builder-inited", _point_cache_at_build_dir)
    app.connect("env-get-outdated", _outdated_chapters)
    return {"parallel_read_safe": True, "parallel_write_safe": True, "env_version": 1}

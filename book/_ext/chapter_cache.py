"""The chapters' executions, stored once and shared by the test suite and the book build.

A chapter's outputs follow from its code cells and from what its kernel
imports: the code of ``sigeval`` and the installed packages. The executed
chapters are kept in jupyter-cache's store, the one myst-nb reads with
``execute_notebooks: cache``, in one folder per *fingerprint* of those imports,
``_build/.jupyter_cache/<fingerprint>``. Inside a folder jupyter-cache finds a
chapter by its code cells (their source and metadata) and its kernelspec.

- ``make test`` (``tools/verify.py``) executes each chapter once and stores
  the executed notebook here; ``make book`` then finds it and executes nothing.
- An edit of a chapter's prose keeps its entry; an edit of a code cell misses,
  and the chapter is executed again (by the book build, or by the next test run).
- An edit of the code of ``sigeval``, or another version of an installed
  package, changes the fingerprint, so every chapter is looked up in another
  folder and executed again; undoing the edit restores the fingerprint and
  finds the executions of before. Comments, docstrings and layout are not part
  of it (``sigeval.course.cache.library_fingerprint`` hashes syntax trees).
- The packages that count are those the chapters can import: the dependency
  closure of ``sigeval[book]`` (which holds the ``course`` and ``plots``
  extras). Tools installed beside it, such as JupyterLab (``make lab``, the
  ``lab`` extra) or the test tools, do not change the fingerprint.

This module imports no Sphinx: ``tools/verify.py`` and the book's extension
(``fresh_execution``) share it.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
from importlib import metadata
from pathlib import Path

import nbformat
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from sigeval.course.cache import library_fingerprint

ROOT = Path(__file__).resolve().parents[2]
#: The build folder of ``make book`` (``jupyter-book build .`` writes ``_build/html``).
BUILD_DIR = ROOT / "_build"
#: The extras of ``sigeval`` whose packages the chapters run against.
CHAPTER_EXTRAS = ("book",)
#: How many fingerprint folders are kept (the most recently used): enough to undo a few edits.
KEEP = 8


def chapter_packages(root: str = "sigeval", extras: tuple[str, ...] = CHAPTER_EXTRAS) -> dict[str, str]:
    """Name and version of every installed distribution in the dependency closure of ``root[extras]``."""
    versions: dict[str, str] = {}
    seen: set[tuple[str, frozenset[str]]] = set()
    todo = [(root, frozenset(extras))]
    while todo:
        name, wanted = todo.pop()
        key = canonicalize_name(name)
        if (key, wanted) in seen:
            continue
        seen.add((key, wanted))
        try:
            dist = metadata.distribution(name)
        except metadata.PackageNotFoundError:
            continue  # an optional dependency that is not installed
        versions[key] = dist.version
        for text in dist.requires or []:
            requirement = Requirement(text)
            if requirement.marker is not None:
                environments = [{"extra": extra} for extra in sorted(wanted)] or [{"extra": ""}]
                if not any(requirement.marker.evaluate(env) for env in environments):
                    continue
            todo.append((requirement.name, frozenset(requirement.extras)))
    return versions


def fingerprint() -> str:
    """What the chapters' outputs depend on besides their code cells: sigeval's code, Python, the packages."""
    lines = [library_fingerprint(), f"python {sys.version}"]
    lines += [f"{name}=={version}" for name, version in sorted(chapter_packages().items())]
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def folder(build_dir: Path = BUILD_DIR) -> Path:
    """The jupyter-cache folder of the current fingerprint inside a build folder (``_build``)."""
    return Path(build_dir) / ".jupyter_cache" / fingerprint()[:16]


def prune(build_dir: Path = BUILD_DIR, keep: int = KEEP) -> list[Path]:
    """Remove all but the ``keep`` most recently used fingerprint folders; returns those removed."""
    parent = Path(build_dir) / ".jupyter_cache"
    if not parent.is_dir():
        return []
    folders = sorted((p for p in parent.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in folders[keep:]:
        shutil.rmtree(old, ignore_errors=True)
    return folders[keep:]


def _touch(path: Path) -> None:
    path.mkdir(parents=True, exist_ok=True)
    path.touch()  # a directory's mtime marks it as recently used, for prune()


def store(chapter: Path, notebook: nbformat.NotebookNode, seconds: float, build_dir: Path = BUILD_DIR) -> Path:
    """Keep an executed chapter where the book build looks for it; returns the cache folder."""
    from jupyter_cache import get_cache
    from jupyter_cache.base import CacheBundleIn

    path = folder(build_dir)
    _touch(path)
    get_cache(str(path)).cache_notebook_bundle(
        CacheBundleIn(notebook, str(Path(chapter).resolve()), data={"execution_seconds": seconds}),
        check_validity=False,
        overwrite=True,
    )
    prune(build_dir)
    return path


def lookup(notebook: nbformat.NotebookNode, build_dir: Path = BUILD_DIR) -> nbformat.NotebookNode | None:
    """The stored execution of a chapter read as ``notebook`` (outputs merged in), or None."""
    from jupyter_cache import get_cache

    path = folder(build_dir)
    if not path.is_dir():
        return None
    try:
        return get_cache(str(path)).merge_match_into_notebook(notebook)[1]
    except KeyError:
        return None


def encrypt_kernels() -> None:
    """Kernels started by this process talk to it over encrypted sockets (CurveZMQ).

    ipykernel warns "Kernel is running over TCP without encryption" at the
    start of every kernel that a client starts without keys. jupyter_client
    provisions the keys when its ``transport_encryption`` policy is "auto"
    and the kernelspec declares support (ipykernel's does); its default is
    "disabled", and neither nbclient nor myst-nb let a caller set it, so this
    sets the default of the class for this process. Needs a pyzmq with
    CurveZMQ (the wheels have it); without, the kernels run as before.
    """
    import zmq
    from jupyter_client import KernelManager

    if zmq.has("curve"):
        KernelManager.class_traits()["transport_encryption"].default_value = "auto"

"""An on-disk cache for the course's experiments that several chapters recompute.

``matcher_experiment`` is called in four chapters and ``seed_sweep`` in three
with the same arguments; during a book build the first call computes and the
others read the stored result. A stored result is found again only for the
same function, the same arguments (the random generator's *state* included,
so ``rng=0`` and ``rng=np.random.default_rng(0)`` are the same call) and the
same library: the key contains a hash of the code of ``sigeval`` (its syntax
trees, without comments and docstrings, and its data files) and the versions
of NumPy, SciPy and pandas, so a change to the library's code or an upgrade
recomputes instead of serving a stale result, while an edit of a comment or a
docstring, or undoing an edit, finds the stored results again.

A function that draws from a Generator passed by the caller leaves it
advanced; a cache hit sets the caller's Generator to the state the original
call left, so that later draws in the chapter are the same with or without
the cache.

The cache is off unless the environment variable ``SIGEVAL_CACHE_DIR`` names
a folder. The book build sets it (to a folder inside its build directory, see
``book/_ext/fresh_execution.py``); the test suite and ``make verify`` leave it
unset, so they always compute.

Used by :ref:`ch-benchmark` and :ref:`ch-training-randomness`.
"""

from __future__ import annotations

import ast
import functools
import hashlib
import inspect
import json
import numbers
import os
import pickle
import tempfile
from collections.abc import Callable, Iterable
from importlib import metadata
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

__all__ = ["CACHE_ENV", "code_digest", "disk_cached", "library_fingerprint"]

#: The environment variable that names the cache folder (the cache is off if unset).
CACHE_ENV = "SIGEVAL_CACHE_DIR"
_PACKAGE_ROOT = Path(__file__).resolve().parents[1]
# The libraries whose numerics shape the cached results.
_DEPENDENCIES = ("numpy", "scipy", "pandas")

F = TypeVar("F", bound=Callable[..., Any])


@functools.cache
def library_fingerprint() -> str:
    """SHA-256 of the code of ``sigeval`` (every module's syntax tree), its data files and the dependencies' versions.

    A module enters by its syntax tree without docstrings (``ast.dump``), so
    that an edit of a comment, a docstring or the layout leaves the
    fingerprint, and the results keyed on it, unchanged, and undoing an edit
    restores it; any change of the code changes it. A module that reads
    docstrings at run time (its source names ``__doc__``) keeps them in its
    tree. Other files of the package (``data/*.csv``) enter byte for byte.

    Computed once per process: a running kernel keeps using the modules it
    imported, so a later edit of the files does not change what it computes.

    Examples
    --------
    >>> from sigeval.course.cache import library_fingerprint
    >>> len(library_fingerprint())
    64
    """
    digest = hashlib.sha256()
    for path in sorted(_PACKAGE_ROOT.rglob("*")):
        if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
            continue
        digest.update(path.relative_to(_PACKAGE_ROOT).as_posix().encode())
        digest.update(b"\0")
        digest.update(code_digest(path.read_bytes()) if path.suffix == ".py" else path.read_bytes())
        digest.update(b"\0")
    for name in _DEPENDENCIES:
        digest.update(f"{name}=={metadata.version(name)}\0".encode())
    return digest.hexdigest()


def code_digest(source: bytes | str) -> bytes:
    """The Python code of a module's source, without its comments, docstrings and layout.

    The dump of its syntax tree (no line numbers) with the docstrings of the
    module, its classes and functions removed, unless the source names
    ``__doc__``. Source that does not parse enters as it is.

    Examples
    --------
    >>> from sigeval.course.cache import code_digest
    >>> documented = "def f():\\n    'The number one.'\\n    return 1  # one\\n"
    >>> code_digest(documented) == code_digest("def f(): return 1")
    True
    >>> code_digest("def f(): return 1") == code_digest("def f(): return 2")
    False
    """
    text = source.decode("utf-8") if isinstance(source, bytes) else source
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return text.encode()
    if "__doc__" not in text:
        for node in ast.walk(tree):
            body = getattr(node, "body", None)
            if (
                isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
                and body
                and isinstance(body[0], ast.Expr)
                and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)
            ):
                node.body = body[1:]
    return ast.dump(tree, include_attributes=False).encode()


def _canonical(value: Any, name: str) -> Any:
    """A JSON-able form of an argument that identifies what the call computes."""
    if isinstance(value, np.random.Generator):
        return {"generator_state": value.bit_generator.state}
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return value
    if isinstance(value, numbers.Integral):
        return int(value)
    if isinstance(value, numbers.Real):
        return float(value)
    if isinstance(value, Iterable):
        return [_canonical(v, name) for v in value]
    raise TypeError(f"`{name}`: cannot key the cache on a {type(value).__name__}.")


def disk_cached(*, ignore: tuple[str, ...] = ()) -> Callable[[F], F]:
    """Store a function's results on disk, keyed on the library and the arguments.

    The function must take an ``rng`` argument (a Generator, an integer seed
    or None); calls with ``rng=None`` draw fresh entropy and are never cached.

    Parameters
    ----------
    ignore : tuple of str
        Arguments that do not change the result (an ``executor``, say) and
        are left out of the key.

    Notes
    -----
    Iterable arguments are turned into tuples before the call (so a ``range``
    and the tuple of its values share a key, and a one-shot iterator is not
    consumed by the key). An integer ``rng`` is keyed as the state of
    ``numpy.random.default_rng(rng)``. Files are written atomically, so an interrupted build leaves no
    half-written entry.

    Examples
    --------
    >>> import numpy as np
    >>> from sigeval.course.cache import disk_cached
    >>> @disk_cached()
    ... def draw(n, rng):
    ...     return np.random.default_rng(rng).normal(size=n)
    >>> draw(3, rng=0).shape
    (3,)
    """

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn)

        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            folder = os.environ.get(CACHE_ENV)
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            rng = bound.arguments["rng"]
            seeded = isinstance(rng, numbers.Integral) and not isinstance(rng, bool)
            if not folder or not (seeded or isinstance(rng, np.random.Generator)):
                # No cache, or fresh entropy (None), or an invalid rng that the
                # function itself will refuse with its own message.
                return fn(*args, **kwargs)
            for name, value in bound.arguments.items():
                if isinstance(value, Iterable) and not isinstance(value, str):
                    bound.arguments[name] = tuple(value)
            # An integer seed stands for the generator default_rng(seed), which
            # is what the function itself would make of it (check_rng); passing
            # that generator lets the cache read the state the call leaves.
            generator = np.random.default_rng(rng) if seeded else rng
            bound.arguments["rng"] = generator
            key_arguments = {
                name: _canonical(value, name) for name, value in bound.arguments.items() if name not in ignore
            }
            key = hashlib.sha256(
                json.dumps(
                    [library_fingerprint(), fn.__module__, fn.__qualname__, key_arguments], sort_keys=True
                ).encode()
            ).hexdigest()
            path = Path(folder) / f"{fn.__qualname__}-{key[:32]}.pickle"
            if path.exists():
                with path.open("rb") as f:
                    result, state_after = pickle.load(f)
                generator.bit_generator.state = state_after
                return result
            result = fn(*bound.args, **bound.kwargs)
            path.parent.mkdir(parents=True, exist_ok=True)
            with tempfile.NamedTemporaryFile(dir=path.parent, delete=False) as f:
                pickle.dump((result, generator.bit_generator.state), f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(f.name, path)
            return result

        return wrapper  # type: ignore[return-value]

    return decorate

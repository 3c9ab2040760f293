"""The type stub of the package, ``src/sigeval/__init__.pyi``, written from the one module registry.

``sigeval/__init__.py`` imports the exported modules by reading ``sigeval._registry``, a loop that type
checkers and editors cannot follow: without the stub, ``from sigeval import proportion_ci`` would be ``Any``
to mypy and complete to nothing in an editor, in a package that ships ``py.typed``. The stub says statically
what ``import sigeval`` holds. ``tests/test_package.py`` fails when the stub is not the one this writes, so
a module added to the registry asks for one command more::

    python tools/package_stub.py
"""

from __future__ import annotations

import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUB = ROOT / "src" / "sigeval" / "__init__.pyi"
sys.path.insert(0, str(ROOT / "src"))
from sigeval._registry import EXPORTED  # noqa: E402


def text() -> str:
    """The stub: the exported modules and their names, the shared result types, the version, run_benchmark.

    The imports are sorted as ruff's isort sorts them (by module, then name), so that the stub passes
    ``make lint`` as written.
    """
    imports = [
        *((".", name, f"from . import {name} as {name}") for name in EXPORTED),
        ("._results", "BootstrapResult", "from ._results import BootstrapResult as BootstrapResult"),
        ("._results", "ConfidenceInterval", "from ._results import ConfidenceInterval as ConfidenceInterval"),
        ("._version", "__version__", "from ._version import __version__ as __version__"),
        (".course.benchmark", "run_benchmark", "from .course.benchmark import run_benchmark as run_benchmark"
                                               "  # imported on first use (the course extra)"),
        *((f".{name}", "*", f"from .{name} import *  # noqa: F403") for name in EXPORTED),
    ]
    header = "# Written by tools/package_stub.py from sigeval._registry (the modules the package exports): do not edit."
    return "\n".join([header, *(line for _, _, line in sorted(imports)), ""])


def main() -> int:
    STUB.write_text(text())
    print(f"wrote {STUB.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

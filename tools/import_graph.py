"""The import graph of ``sigeval``: who imports whom, on which floor, and what must never happen.

    python tools/import_graph.py          # the floors and every arrow
    python tools/import_graph.py --check  # exit 1 on a circle, a private name reached across, or an arrow back up

Each module's floor comes from its kind in the one registry (``sigeval._registry``): 0 the private helpers
and engines (checks, option sets, results, numeric helpers, the bootstrap, sign-flip, McNemar, t and rank
engines); 1 the statistics modules; 2 the front doors (``report``, ``predictions``, ``cli``), ``Report``'s
renderer ``_report_output``, ``plots`` and ``course``; 3 the package itself (``sigeval``, its
``__init__``), which imports every exported module, so that a module importing the package (for a name
it re-exports, or ``__version__``) is an arrow back up and a circle. An arrow may point down or along a
floor, never up; a module missing from the registry is a problem too. ``tests/test_import_graph.py``
runs the checks.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sigeval"
sys.path.insert(0, str(ROOT / "src"))
from sigeval._registry import EXPORTED, FLOORS, MODULES, PACKAGE_FLOOR  # noqa: E402

#: The package itself, ``sigeval/__init__.py``.
PACKAGE_NODE = "sigeval"


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts) or PACKAGE_NODE


def floor(module: str) -> int:
    """The floor of a module's kind in the registry (the package on top); -1 for a module it does not list."""
    if module == PACKAGE_NODE:
        return PACKAGE_FLOOR
    entry = MODULES.get(module.split(".")[0])
    return -1 if entry is None else FLOORS[entry.kind]


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def _resolve(package: list[str], node: ast.ImportFrom) -> list[tuple[str, tuple[str, ...]]]:
    """(imported module, names) of one ``from ... import ...`` inside the package; [] for another package."""
    names = tuple(a.name for a in node.names)
    if node.level:
        base = package[: len(package) - node.level + 1]
    elif node.module and node.module.split(".")[0] == PACKAGE_NODE:  # from sigeval[.x] import ...
        base, node = [], ast.ImportFrom(module=".".join(node.module.split(".")[1:]) or None, names=node.names)
    else:
        return []
    if node.module:
        return [(".".join(base + node.module.split(".")) or PACKAGE_NODE, names)]
    found = []  # from . import a, b: a submodule each, or names of the package
    for name in names:
        sub = ".".join(base + [name])
        if (PACKAGE / Path(*sub.split("."))).with_suffix(".py").exists() or (PACKAGE / sub).is_dir():
            found.append((sub, ()))
        else:
            found.append((".".join(base) or PACKAGE_NODE, (name,)))
    return found


def imports() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every import of one sigeval module by another, as (importer, imported, names), lazy ones included.

    The package itself is the node ``sigeval``: its arrows to the exported modules come from the registry,
    which ``__init__`` reads to import them; an import of the package by a module is an arrow to it.
    """
    arrows = [(PACKAGE_NODE, name, ()) for name in EXPORTED]
    for path in sorted(PACKAGE.rglob("*.py")):
        here = module_name(path)
        package = here.split(".")[:-1] if path.name != "__init__.py" else here.split(".")
        if here == PACKAGE_NODE:
            package = []
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                arrows += [(here, target, names) for target, names in _resolve(package, node)]
            elif isinstance(node, ast.Import):  # import sigeval[.x]
                arrows += [(here, ".".join(a.name.split(".")[1:]) or PACKAGE_NODE, ()) for a in node.names
                           if a.name.split(".")[0] == PACKAGE_NODE]
    return [(a, b, n) for a, b, n in arrows if a != b]


def problems(arrows=None) -> list[str]:
    arrows = imports() if arrows is None else arrows
    found = []
    modules = sorted({a for a, _, _ in arrows} | {b for _, b, _ in arrows})
    found += [f"{m} is not in the registry (sigeval._registry.MODULES)" for m in modules if floor(m) < 0]
    for here, target, names in arrows:
        for name in names:
            if name.startswith("_") and not name.startswith("__") and not is_private(target) and target != here:
                found.append(f"{here} imports the private name {name!r} of the public module {target}")
        if floor(target) > floor(here) >= 0 and floor(here) == 0:
            found.append(f"the engine {here} imports {target}: engines sit below every public module")
        elif floor(target) > floor(here) >= 0:
            found.append(f"{here} (floor {floor(here)}) imports {target} (floor {floor(target)}): an arrow back up")
    found += [f"import circle: {' -> '.join(c)}" for c in circles(arrows)]
    return found


def circles(arrows) -> list[list[str]]:
    graph: dict[str, set[str]] = {}
    for here, target, _ in arrows:
        graph.setdefault(here, set()).add(target)
    found, state = [], {}

    def visit(node, path):
        state[node] = 1
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                found.append(path[path.index(nxt):] + [nxt])
            elif nxt not in state:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in sorted(graph):
        if node not in state:
            visit(node, [node])
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check; exit 1 on a problem")
    args = parser.parse_args()
    arrows = imports()
    if not args.check:
        by_floor: dict[int, list[str]] = {}
        for module in sorted({a for a, _, _ in arrows} | {b for _, b, _ in arrows}):
            by_floor.setdefault(floor(module), []).append(module)
        for level in sorted(by_floor, reverse=True):
            print(f"floor {level}: {', '.join(by_floor[level])}")
        print()
        for here in sorted({a for a, _, _ in arrows}):
            targets = sorted({b for a, b, _ in arrows if a == here})
            print(f"{here} -> {', '.join(targets)}")
    found = problems(arrows)
    for line in found:
        print(line, file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())

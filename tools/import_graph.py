"""The import graph of ``sigeval``: who imports whom, on which floor, and what must never happen.

    python tools/import_graph.py          # the floors and every arrow
    python tools/import_graph.py --check  # exit 1 on a circle, a private name reached across, or an arrow back up

Floors, from the bottom: 0 the private helpers and engines (checks, option sets,
results, numeric helpers, the bootstrap, sign-flip, McNemar, t and rank engines);
1 the statistics modules; 2 the front doors (``report`` and its renderer ``_report_output``, ``predictions``, ``cli``,
``plots``, ``course``). An arrow may point down or along a floor, never up.
``tests/test_import_graph.py`` runs the checks.
"""

from __future__ import annotations

import argparse
import ast
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "sigeval"
sys.path.insert(0, str(ROOT / "src"))
from sigeval._registry import STATISTICS  # noqa: E402

FRONT_DOORS = ("report", "_report_base", "_report_across", "_report_within", "_report_output", "predictions", "cli", "plots",
               "course")


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def floor(module: str) -> int:
    top = module.split(".")[0]
    if top in FRONT_DOORS:
        return 2
    if top in STATISTICS:
        return 1
    return 0


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def imports() -> list[tuple[str, str, tuple[str, ...]]]:
    """Every import of one sigeval module by another, as (importer, imported, names), lazy ones included."""
    arrows = []
    for path in sorted(PACKAGE.rglob("*.py")):
        here = module_name(path)
        if here == "":
            continue  # the package itself re-exports everything
        package = here.split(".")[:-1] if path.name != "__init__.py" else here.split(".")
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level:
                base = package[: len(package) - node.level + 1]
                names = tuple(a.name for a in node.names)
                if node.module:
                    target = ".".join(base + node.module.split("."))
                    arrows.append((here, target, names))
                else:  # from . import a, b
                    for name in names:
                        sub = ".".join(base + [name])
                        if (PACKAGE / Path(*sub.split("."))).with_suffix(".py").exists() or (PACKAGE / sub).is_dir():
                            arrows.append((here, sub, ()))
                        else:
                            arrows.append((here, ".".join(base) or "", (name,)))
    return [(a, b, n) for a, b, n in arrows if b != ""]


def problems(arrows=None) -> list[str]:
    arrows = imports() if arrows is None else arrows
    found = []
    for here, target, names in arrows:
        for name in names:
            if name.startswith("_") and not is_private(target) and target != here:
                found.append(f"{here} imports the private name {name!r} of the public module {target}")
        if floor(target) > floor(here) and not is_private(here):
            found.append(f"{here} (floor {floor(here)}) imports {target} (floor {floor(target)}): an arrow back up")
        if floor(target) > floor(here) and is_private(here) and here.split(".")[0] not in FRONT_DOORS:
            found.append(f"the engine {here} imports {target}: engines sit below every public module")
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

"""``make bench``: every benchmark's comparison in one table of ratios.

Collects ``comparisons()`` from each ``benchmarks/bench_*.py`` and prints one
table: sigeval's median time, the alternative a user would reach for (scipy,
the seed script, a plain loop, the per-item path), its median time and the
ratio. Takes a few minutes; absolute times vary between machines, ratios much
less.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from _bench import measure, table

HERE = Path(__file__).resolve().parent


def main() -> int:
    rows = []
    for path in sorted(HERE.glob("bench_*.py")):
        spec = importlib.util.spec_from_file_location(path.stem, path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        print(f"timing {path.name} ...", file=sys.stderr, flush=True)
        rows += measure(module.comparisons())
    print(table(rows))
    return 0


if __name__ == "__main__":
    sys.exit(main())

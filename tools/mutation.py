"""Mutation testing of the modules that compute (the registry's statistics, engines, front doors and renderer),
one module at a time (``make mutation``).

For each module, a scratch copy of the repository gets a ``[tool.mutmut]``
section that mutates that module alone, runs the module's own test files, and
copies the rest of the package beside the mutants so that it imports. mutmut
(pinned in the ``test`` extra) then runs, and this script prints one table:
module, mutants, killed, survived, timeouts, score, and the survivors judged
equivalent, which are listed with a one-line reason in
``tools/mutation_equivalent/<module>.txt``. The score counts killed (and timed-out)
mutants among the non-equivalent ones.

Usage::

    python tools/mutation.py                 # every module
    python tools/mutation.py power paired    # some modules
    python tools/mutation.py _runs_table     # a helper with tests of its own, when named
    python tools/mutation.py --list          # the modules and their tests
    python tools/mutation.py --diffs power   # and the diff of each open survivor

It takes minutes per module and is not part of ``make test``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EQUIVALENT_DIR = ROOT / "tools" / "mutation_equivalent"

sys.path.insert(0, str(ROOT / "src"))
from sigeval._registry import MODULES as REGISTRY  # noqa: E402
from sigeval._registry import MUTATED_KINDS  # noqa: E402

# Every module that computes (statistics, engines, front doors, the renderer), with the test files that test
# it: the one registry.
MODULES: dict[str, list[str]] = {
    name: list(module.tests) for name, module in REGISTRY.items() if module.kind in MUTATED_KINDS
}
#: A helper with tests of its own is mutated when named (the run table of Report, the gate's pairs).
NAMED: dict[str, list[str]] = {name: list(module.tests) for name, module in REGISTRY.items() if module.tests}


def equivalent_survivors() -> dict[str, str]:
    """Mutant name -> why it cannot change behaviour, from the reviewed files (one per module)."""
    reviewed = {}
    lines = [line for path in sorted(EQUIVALENT_DIR.glob("*.txt")) for line in path.read_text().splitlines()]
    for line in lines:
        line = line.strip()
        if line and not line.startswith("#"):
            name, _, why = line.partition(" ")
            reviewed[name] = why.strip()
    return reviewed


def _scratch_copy(module: str, tests: list[str], timeout_multiplier: float | None = None) -> Path:
    scratch = Path(tempfile.mkdtemp(prefix=f"mutation-{module}-"))
    shutil.copytree(ROOT / "src", scratch / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    (scratch / "tests").mkdir()
    # Every file of tests/ (a test file may import another's tables); only the module's own tests are run.
    for path in (ROOT / "tests").iterdir():
        if path.is_file():
            shutil.copy2(path, scratch / "tests" / path.name)
    # Some tests read the repository's tools (test_cli checks the example files against their generator).
    shutil.copytree(ROOT / "tools", scratch / "tools", ignore=shutil.ignore_patterns("__pycache__"))
    if (ROOT / "tests" / "data").exists():
        shutil.copytree(ROOT / "tests" / "data", scratch / "tests" / "data")
    package = scratch / "src" / "sigeval"
    # The rest of the package: its other files, and its subpackages whole.
    others = sorted(
        str(p.relative_to(scratch)) + ("/" if p.is_dir() else "")
        for p in package.iterdir()
        if p.name not in (f"{module}.py", "__pycache__")
    )
    selected = [t for t in tests if (ROOT / t).exists()]
    config = (
        "\n[tool.mutmut]\n"
        f'source_paths = ["src/sigeval/{module}.py"]\n'
        # tools/ too: mutmut runs the tests in its own copy (mutants/), which holds only what is listed here.
        f"also_copy = {json.dumps([*others, 'tools/'])}\n"
        f"pytest_add_cli_args_test_selection = {json.dumps(selected)}\n"
        'pytest_add_cli_args = ["-p", "no:cacheprovider", "-o", "addopts=", "-q", "-x"]\n'
        # mutmut's CPU limit per mutant is (tests' time + 1 s) x multiplier x 2: at its default of 15, a mutant
        # that loops under tests of 15 s costs 8 minutes.
        + (f"timeout_multiplier = {timeout_multiplier}\n" if timeout_multiplier else "")
    )
    text = (ROOT / "pyproject.toml").read_text()
    text = re.sub(r"\n\[tool\.mutmut\][^\[]*", "\n", text)
    (scratch / "pyproject.toml").write_text(text + config)
    return scratch


def run_module(module: str, jobs: int, keep: bool = False, timeout_multiplier: float | None = None) -> dict:
    tests = NAMED[module]
    if not (ROOT / "src" / "sigeval" / f"{module}.py").exists():
        return {"module": module, "missing": True}
    scratch = _scratch_copy(module, tests, timeout_multiplier)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1", "MPLBACKEND": "Agg"}
    mutmut = [sys.executable, "-m", "mutmut"]
    subprocess.run([*mutmut, "run", "--max-children", str(jobs)], cwd=scratch, env=env,
                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    listing = subprocess.run([*mutmut, "results", "--all", "true"], cwd=scratch, env=env,
                             capture_output=True, text=True, check=False).stdout
    status: dict[str, str] = {}
    for line in listing.splitlines():
        name, sep, state = line.strip().rpartition(": ")
        if sep and name:
            status[name] = state.strip()
    if keep:
        return {"module": module, "status": status, "scratch": scratch}
    shutil.rmtree(scratch, ignore_errors=True)
    return {"module": module, "status": status}


def show_mutant(scratch: Path, name: str) -> str:
    """The diff of one mutant, as ``mutmut show`` prints it."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, "-m", "mutmut", "show", name], cwd=scratch, env=env,
                          capture_output=True, text=True, check=False).stdout


def summarise(result: dict, reviewed: dict[str, str]) -> dict:
    status = result["status"]
    counts = {k: sum(1 for s in status.values() if s == k)
              for k in ("killed", "survived", "timeout", "suspicious", "no tests", "skipped", "not checked")}
    survivors = sorted(n for n, s in status.items() if s in ("survived", "no tests"))
    equivalent = [n for n in survivors if n in reviewed]
    relevant = len(status) - len(equivalent) - counts["skipped"]
    caught = counts["killed"] + counts["timeout"]
    return {
        "module": result["module"],
        "mutants": len(status),
        "killed": counts["killed"],
        "survived": len(survivors),
        "timeouts": counts["timeout"],
        "equivalent": len(equivalent),
        "score": caught / relevant if relevant else float("nan"),
        "open": [n for n in survivors if n not in reviewed],
        "matched": equivalent,
        # mutmut checks no mutant when the module's tests fail on the unmutated code.
        "unchecked": counts["not checked"],
        # Reviewed names of this module that did not survive: killed by a later test, or renumbered (stale).
        "stale": sorted(n for n in reviewed if n.startswith(f"sigeval.{result['module']}.") and n not in survivors),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", help="modules to mutate (default: all)")
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1, help="parallel mutmut workers")
    parser.add_argument("--list", action="store_true", help="list the modules and their tests")
    parser.add_argument("--diffs", action="store_true",
                        help="print the diff of every survivor not judged equivalent")
    parser.add_argument("--keep", action="store_true",
                        help="keep the scratch copies (mutmut show/run work there) and print their paths")
    parser.add_argument("--timeout-multiplier", type=float, default=None,
                        help="mutmut's timeout_multiplier (default 15): lower it for modules whose tests take long")
    args = parser.parse_args(argv)
    if args.list:
        for module, tests in MODULES.items():
            print(f"{module:12s} {' '.join(tests)}")
        return 0
    unknown = [m for m in args.modules if m not in NAMED]
    if unknown:
        parser.error(f"unknown module(s) {unknown}; choose from {sorted(NAMED)}")
    reviewed = equivalent_survivors()
    rows = []
    for module in args.modules or list(MODULES):
        result = run_module(module, args.jobs, keep=args.keep or args.diffs, timeout_multiplier=args.timeout_multiplier)
        if result.get("missing"):
            continue
        row = summarise(result, reviewed)
        rows.append(row)
        if args.diffs:
            for name in row["open"]:
                print(show_mutant(result["scratch"], name), flush=True)
        if args.keep:
            print(f"{module}: scratch copy kept in {result['scratch']}", flush=True)
        elif args.diffs:
            shutil.rmtree(result["scratch"], ignore_errors=True)
        print(f"{row['module']:12s} mutants {row['mutants']:5d}  killed {row['killed']:5d}  "
              f"survived {row['survived']:4d}  timeouts {row['timeouts']:3d}  "
              f"equivalent {row['equivalent']:3d}  score {row['score']:.1%}", flush=True)
        if row["unchecked"]:
            print(f"  {row['unchecked']} mutants not checked: do the module's tests pass unmutated? "
                  "(--keep, then `python -m mutmut run` in the scratch copy shows the failure)", flush=True)
    print()
    print("| module | mutants | killed | survived | timeouts | equivalent | score |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['module']} | {r['mutants']} | {r['killed']} | {r['survived']} | {r['timeouts']} "
              f"| {r['equivalent']} | {r['score']:.1%} |")
    for r in rows:
        if r["open"]:
            print(f"\nsurvivors in {r['module']} not judged equivalent ({len(r['open'])}):")
            for name in r["open"]:
                print(f"  {name}")
    equivalents = [(n, reviewed[n]) for r in rows for n in r["matched"]]
    if equivalents:
        print("\nsurvivors judged equivalent (tools/mutation_equivalent/):")
        for name, why in equivalents:
            print(f"  {name}: {why}")
    stale = [n for r in rows if not r["unchecked"] for n in r["stale"]]
    if stale:
        print("\nreviewed as equivalent but not among the survivors (killed since, or renumbered: remove them):")
        for name in stale:
            print(f"  {name}")
    return 1 if any(r["unchecked"] for r in rows) else 0


if __name__ == "__main__":
    raise SystemExit(main())

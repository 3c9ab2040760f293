"""The package's shape: a statistics core without plotting, every public name exported."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import sigeval
from sigeval._registry import EXPORTED, FLOORS, MODULES, of_kind

PACKAGE = Path(sigeval.__file__).parent
# The modules the package exports, from the one registry; a test below checks it lists every module.
CORE_MODULES = sorted(EXPORTED)


def test_the_registry_lists_every_module_of_the_package():
    on_disk = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"}
    on_disk |= {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    assert on_disk == set(MODULES)


def test_each_module_has_a_kind_with_a_floor_and_test_files_that_exist():
    root = PACKAGE.parents[1]
    for name, module in MODULES.items():
        assert module.kind in FLOORS, name
        assert all((root / path).is_file() for path in module.tests), name
        if FLOORS[module.kind] == 0 or module.kind == "renderer":
            assert name.startswith("_"), name
        if module.part_of is not None:  # a private part of a public module, which re-exports its names
            public = MODULES[module.part_of]
            assert name.startswith("_") and public.exported and public.kind == module.kind, name
        elif module.kind == "statistics" or module.exported:
            assert not name.startswith("_"), name
    parts = {name for name, module in MODULES.items() if module.part_of is not None}
    assert set(EXPORTED) == set(of_kind("statistics")) - parts | {"report", "predictions", "readers"}


def test_no_module_is_longer_than_800_lines():
    lengths = {p.relative_to(PACKAGE).as_posix(): len(p.read_text(encoding="utf-8").splitlines())
               for p in PACKAGE.rglob("*.py")}
    assert len(lengths) > 40 and {name: n for name, n in lengths.items() if n > 800} == {}


def test_a_part_of_a_module_is_exported_by_that_module():
    parts = {name: module.part_of for name, module in MODULES.items() if module.part_of is not None}
    assert parts, "the registry names no part: this test would check nothing"
    for name, public in parts.items():
        part, home = importlib.import_module(f"sigeval.{name}"), importlib.import_module(f"sigeval.{public}")
        assert part.__all__ and set(part.__all__) <= set(home.__all__), name
        assert all(getattr(home, n) is getattr(part, n) for n in part.__all__), name


def test_the_package_exports_what_the_registry_says():
    assert [m for m in EXPORTED if getattr(sigeval, m) is not importlib.import_module(f"sigeval.{m}")] == []
    expected = ["ConfidenceInterval", "BootstrapResult",
                *(n for m in EXPORTED for n in importlib.import_module(f"sigeval.{m}").__all__), "__version__"]
    assert sigeval.__all__ == expected
    assert not any(hasattr(sigeval, leftover) for leftover in ("_name", "_module", "_public"))


def test_the_api_page_documents_every_public_module():
    page = (PACKAGE.parents[1] / "book" / "api.md").read_text()
    public = [m for m in of_kind("statistics", "front door", "plots") if not m.startswith("_")]
    assert [m for m in public if f".. automodule:: sigeval.{m}\n" not in page] == []


def test_importing_the_core_does_not_import_matplotlib_or_the_course():
    code = (
        "import sys, sigeval\n"
        "heavy = [m for m in ('matplotlib', 'threadpoolctl', 'sklearn', 'sigeval.course', 'sigeval.plots') "
        "if m in sys.modules]\n"
        "assert not heavy, heavy\n"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


@pytest.mark.parametrize("name", CORE_MODULES)
def test_every_public_name_of_a_statistics_module_is_exported_by_the_package(name):
    module = importlib.import_module(f"sigeval.{name}")
    missing = [n for n in module.__all__ if n not in sigeval.__all__ or getattr(sigeval, n) is not getattr(module, n)]
    assert not missing, f"sigeval.{name} exports {missing} that the package does not"


def test_the_core_modules_are_found():
    assert {"intervals", "paired", "power", "multiple", "ranking"} <= set(CORE_MODULES)


def test_package_all_names_exist_and_are_unique():
    assert len(sigeval.__all__) == len(set(sigeval.__all__))
    for name in sigeval.__all__:
        assert hasattr(sigeval, name), name


@pytest.mark.parametrize("name", CORE_MODULES)
def test_docstrings_point_to_a_chapter(name):
    module = importlib.import_module(f"sigeval.{name}")
    assert ":ref:`ch-" in module.__doc__, f"sigeval.{name}'s docstring names no chapter"


def test_one_version_number():
    import tomllib
    from importlib.metadata import version

    project = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text())["project"]
    assert "version" not in project and project["dynamic"] == ["version"]
    assert version("sigeval") == sigeval.__version__
    from sigeval._version import __version__

    assert __version__ is sigeval.__version__
    changelog = (PACKAGE.parents[1] / "CHANGELOG.md").read_text()
    assert f"## [{sigeval.__version__}]" in changelog


def test_the_type_stub_is_written_from_the_registry():
    # __init__ imports the registry's modules in a loop no type checker follows; the stub says what it holds.
    sys.path.insert(0, str(PACKAGE.parents[1] / "tools"))
    import package_stub

    sys.path.pop(0)
    assert (PACKAGE / "__init__.pyi").read_text() == package_stub.text(), "run python tools/package_stub.py"


def test_a_type_checker_sees_the_exported_signatures(tmp_path):
    api = pytest.importorskip("mypy.api")
    user = tmp_path / "user.py"
    user.write_text("from sigeval import Report, proportion_ci, run_benchmark\n"
                    "proportion_ci(45, 100, method='nope')\nReport([], units=3)\nrun_benchmark(1, 2, 3)\n")
    out, _, status = api.run([str(user), "--no-incremental", "--cache-dir", str(tmp_path / "cache")])
    assert status == 1 and {line.split(":")[1] for line in out.splitlines() if "[arg-type]" in line} == {"2", "3", "4"}, out

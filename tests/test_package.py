"""The package's shape: a statistics core without plotting, every public name exported."""

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import sigeval
from sigeval._registry import ENGINES, FRONT_ENDS, STATISTICS

# Private modules that are neither engines nor statistics: checks, option sets, result types (Report's too),
# the registry, the run table of Report, progress bars.
PRIVATE_HELPERS = {"_validation", "_options", "_results", "_report_results", "_registry", "_runs_table", "_progress"}

PACKAGE = Path(sigeval.__file__).parent
# The statistics modules, from the one registry; a test below checks it lists every public module.
CORE_MODULES = sorted(STATISTICS)


def test_the_registry_lists_every_module_of_the_package():
    on_disk = {p.stem for p in PACKAGE.glob("*.py") if p.stem != "__init__"} | {"plots"}
    assert on_disk == set(STATISTICS) | set(ENGINES) | set(FRONT_ENDS) | PRIVATE_HELPERS


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
    changelog = (PACKAGE.parents[1] / "CHANGELOG.md").read_text()
    assert f"## [{sigeval.__version__}]" in changelog

"""The import graph (tools/import_graph.py): no circle, no private name reached across modules, no arrow back up.

The package itself (`sigeval`, its `__init__`) is a node of the graph: a module that imports it closes a loop.
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
import import_graph  # noqa: E402

sys.path.pop(0)


def test_the_package_has_no_circle_no_private_reach_and_no_arrow_up():
    assert import_graph.problems() == []


def test_the_graph_sees_the_arrows_it_must_see():
    arrows = import_graph.imports()
    assert ("counts", "_bootstrap_engine", ("MeanStatistic", "check_bootstrap_options", "run_bootstrap")) in arrows
    assert any(a == "_report_output" and b == "plots" for a, b, _ in arrows)  # a lazy import, inside a function
    assert not any(b == "course.benchmark" for a, b, _ in arrows if a == "report")


def test_each_kind_of_problem_is_reported():
    found = import_graph.problems([
        ("ranking", "paired", ("_check_flag",)),  # a private name of another public module
        ("power", "report", ("Report",)),  # a statistics module importing a front door
        ("_ranks", "ranking", ("friedman",)),  # an engine importing a statistics module
        ("report", "course.benchmark", ("run_benchmark",)), ("course.benchmark", "report", ("Report",)),
    ])
    assert any("private name '_check_flag' of the public module paired" in f for f in found)
    assert any("power (floor 1) imports report (floor 2)" in f for f in found)
    assert any("the engine _ranks imports ranking" in f for f in found)
    assert any(f.startswith("import circle: ") and "course.benchmark" in f for f in found)


def test_imports_of_the_package_itself_are_counted():
    arrows = import_graph.imports()
    # The package imports every exported module (it reads them from the registry) and its helpers.
    assert ("sigeval", "report", ()) in arrows and ("sigeval", "_version", ("__version__",)) in arrows
    # The version number comes from its own module, not from the package that imports the renderer's caller.
    assert any(a == "_report_output" and b == "_version" for a, b, _ in arrows)
    assert not any(b == "sigeval" for _, b, _ in arrows)


def test_a_module_importing_the_package_is_a_circle_and_an_arrow_up():
    # The loop of issue 36: the renderer took __version__ from the package, which imports report.
    found = import_graph.problems([("_report_output", "sigeval", ("__version__",)), ("sigeval", "report", ()),
                                   ("report", "_report_output", ("render",))])
    assert "import circle: _report_output -> sigeval -> report -> _report_output" in found
    assert "_report_output (floor 2) imports sigeval (floor 3): an arrow back up" in found


def test_every_module_has_a_floor_from_the_registry():
    assert import_graph.problems([("power", "_unlisted", ())]) == [
        "_unlisted is not in the registry (sigeval._registry.MODULES)"]
    assert import_graph.floor("course.benchmark") == 2 and import_graph.floor("plots._style") == 2
    assert import_graph.floor("_bootstrap_engine") == 0 and import_graph.floor("sigeval") == 3

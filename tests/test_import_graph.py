"""The import graph (tools/import_graph.py): no circle, no private name reached across modules, no arrow back up."""

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

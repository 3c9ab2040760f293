"""Every resample is drawn by the bootstrap engine (issue 36): the same numbers as before, on the same seeds.

The draws of ``aggregate``, ``procedures`` and ``rank_uncertainty`` moved into
``sigeval._bootstrap_engine`` (``resample_indices``, ``counts_by_index``, ``counts_by_multinomial``). Each
engine function is checked against the generator call it replaces, and each public function that draws
against a fingerprint of its output recorded on the code before the move (commit 53730f8).
"""

from __future__ import annotations

import ast
import math
from pathlib import Path

import numpy as np
import pytest

import sigeval as sg
from sigeval._bootstrap_engine import counts_by_index, counts_by_multinomial, resample_indices
from sigeval._registry import MODULES

PACKAGE = Path(sg.__file__).parent


@pytest.mark.parametrize("n_units, rows", [(1, 3), (7, 5), (40, 1)])
def test_resample_indices_is_the_integers_draw(n_units, rows):
    expected = np.random.default_rng(3).integers(0, n_units, size=(rows, n_units))
    np.testing.assert_array_equal(resample_indices(np.random.default_rng(3), n_units, rows), expected)


@pytest.mark.parametrize("n_units, rows", [(1, 3), (7, 5), (40, 200)])
def test_counts_by_index_count_the_drawn_indices(n_units, rows):
    drawn = np.random.default_rng(4).integers(0, n_units, size=(rows, n_units))
    by_hand = np.array([np.bincount(row, minlength=n_units) for row in drawn])
    np.testing.assert_array_equal(counts_by_index(np.random.default_rng(4), n_units, rows), by_hand)


@pytest.mark.parametrize("n_units, shape", [(1, 4), (9, 300), (5, (30, 4))])
def test_counts_by_multinomial_is_the_multinomial_draw(n_units, shape):
    expected = np.random.default_rng(5).multinomial(n_units, np.full(n_units, 1 / n_units), size=shape)
    got = counts_by_multinomial(np.random.default_rng(5), n_units, shape)
    np.testing.assert_array_equal(got, expected)
    assert got.shape == (*np.atleast_1d(shape), n_units) and np.all(got.sum(axis=-1) == n_units)


_rng = np.random.default_rng(2024)
_A = _rng.normal(0.8, 0.02, 9)
_B = _A - _rng.normal(0.01, 0.02, 9)
_RUNS_A = _rng.normal(0.7, 0.05, (5, 4))
_RUNS_B = _RUNS_A - _rng.normal(0.02, 0.05, (5, 4))
_RUNS_C = _rng.normal(0.68, 0.05, (7, 4))
_TABLE = _rng.normal(0.7, 0.05, (8, 4)) + np.arange(4) * 0.01
_ITEMS = (_rng.random((60, 3)) < np.array([0.8, 0.75, 0.7])).astype(float)


def _rank_intervals(res) -> list:
    return [res.rank_interval.low, res.rank_interval.high, res.pvalue, res.difference_interval.low,
            res.difference_interval.high]


#: What each function that draws returns on fixed data and seeds: its bootstrap distribution, or its intervals.
DRAWS = {
    "aggregate_ci": lambda: sg.aggregate_ci(_RUNS_A, n_resamples=300, rng=1, statistic="iqm").bootstrap_distribution,
    "performance_profile": lambda: list(sg.performance_profile(_RUNS_A, taus=[0.6, 0.7, 0.8], n_resamples=300,
                                                               rng=2).confidence_interval),
    "prob_improvement_paired": lambda: sg.prob_improvement(_A, _B, method="percentile", n_resamples=400, rng=4).bootstrap_distribution,
    "prob_improvement_unpaired": lambda: sg.prob_improvement(_A, _B[:7], paired=False, method="percentile", n_resamples=400,
                                                             rng=5).bootstrap_distribution,
    "prob_improvement_tasks_paired": lambda: sg.prob_improvement(_RUNS_A, _RUNS_B, method="percentile", n_resamples=400,
                                                                 rng=6).bootstrap_distribution,
    "prob_improvement_tasks_unpaired": lambda: sg.prob_improvement(_RUNS_A, _RUNS_C, paired=False, method="percentile", n_resamples=400,
                                                                   rng=7).bootstrap_distribution,
    "rank_stability": lambda: sg.rank_stability(_TABLE, n_resamples=300, rng=8).resampled_mean_ranks,
    "bootstrap_ranks_mean": lambda: _rank_intervals(sg.bootstrap_ranks(_ITEMS, n_resamples=300, rng=9)),
    "bootstrap_ranks_callable": lambda: _rank_intervals(sg.bootstrap_ranks(
        {m: _ITEMS[:, j] + _TABLE[j % 8, 0] * np.arange(60) / 60 for j, m in enumerate("xyz")},
        statistic=lambda x, axis: np.median(x, axis=axis), n_resamples=200, rng=10)),
    "rank_confidence_sets": lambda: [sg.rank_confidence_sets(_ITEMS, n_resamples=300, rng=11).rank_interval.low,
                                     sg.rank_confidence_sets(_ITEMS, n_resamples=300, rng=11).rank_interval.high],
}

#: (number of values, sum of value_i * sqrt(i + 1)) of each output above, on the code before the draws moved.
BEFORE = {
    "aggregate_ci": (300, 2400.6060813130402),
    "performance_profile": (6, 4.877708254086792),
    "prob_improvement_paired": (400, 3613.2207627461094),
    "prob_improvement_unpaired": (400, 3860.3553055080647),
    "prob_improvement_tasks_paired": (400, 3766.5765834621448),
    "prob_improvement_tasks_unpaired": (400, 2976.9044625716506),
    "rank_stability": (1200, 69307.44334015298),
    "bootstrap_ranks_mean": (15, 29.983699275149597),
    "bootstrap_ranks_callable": (15, 29.584550960441266),
    "rank_confidence_sets": (6, 24.202937530790877),
}


def _fingerprint(values) -> tuple[int, float]:
    flat = np.concatenate([np.atleast_1d(np.asarray(v, dtype=float)).ravel() for v in values]) \
        if isinstance(values, list) else np.asarray(values, dtype=float).ravel()
    return flat.size, math.fsum(x * math.sqrt(i + 1) for i, x in enumerate(flat.tolist()))


@pytest.mark.parametrize("name", sorted(DRAWS))
def test_the_numbers_are_those_drawn_before_the_engine_drew_them(name):
    size, weighted = _fingerprint(DRAWS[name]())
    assert size == BEFORE[name][0]
    # The weights make the sum depend on the order of the draws; 1e-12 allows a BLAS that sums in another order.
    assert weighted == pytest.approx(BEFORE[name][1], rel=1e-12, abs=1e-12)


def test_the_fingerprint_tells_another_order_of_the_same_draws():
    draws = np.asarray(DRAWS["prob_improvement_paired"]())
    assert _fingerprint(draws[::-1])[1] != pytest.approx(BEFORE["prob_improvement_paired"][1], rel=1e-6)


RESAMPLING_CALLS = {"integers", "multinomial", "choice", "permutation", "permuted", "shuffle"}


def _resampling_calls(path: Path) -> list[str]:
    return [f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.func.attr}(...)"
            for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in RESAMPLING_CALLS]


def test_only_the_engines_draw_resamples():
    # The statistics, front doors and renderer resample through the engines; the course draws its own data.
    found = [call for name, module in MODULES.items() if module.kind in ("statistics", "front door", "renderer")
             for call in _resampling_calls(PACKAGE / f"{name}.py")]
    assert not found, "draw through sigeval._bootstrap_engine:\n" + "\n".join(found)
    assert _resampling_calls(PACKAGE / "_bootstrap_engine.py")  # the guard sees a draw where there is one

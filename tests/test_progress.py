"""Progress bars: shown on a terminal for long work, never in logs, pipes, notebooks, or when turned off."""

import io
import sys

import numpy as np
import pytest

from sigeval import _progress, bootstrap_ci, paired_bootstrap_ci, roc_auc
from sigeval.course.benchmark import run_benchmark


class Terminal(io.StringIO):
    def isatty(self):
        return True


def on_terminal(monkeypatch) -> Terminal:
    """Standard error as a terminal, and bars drawn at once rather than after two seconds.

    Called in the test itself: pytest sets its own sys.stderr when a test starts.
    """
    pytest.importorskip("tqdm")
    screen = Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    return screen


def test_bars_on_a_terminal(monkeypatch):
    terminal = on_terminal(monkeypatch)
    bootstrap_ci(np.r_[np.ones(60), np.zeros(40)] + np.arange(100) * 1e-3, n_resamples=500, rng=0)
    assert "bootstrap" in terminal.getvalue() and "500" in terminal.getvalue()
    run_benchmark("standard", ["matcher A", "matcher B"], range(2), n_test=50, n_train=10)
    assert "run_benchmark" in terminal.getvalue() and "0/4 " in terminal.getvalue()


def test_no_bar_when_turned_off(monkeypatch):
    terminal = on_terminal(monkeypatch)
    y = np.tile([0, 1], 50)
    scores = y + np.random.default_rng(0).normal(size=100)
    bootstrap_ci((y, scores), statistic=roc_auc, n_resamples=200, rng=0, progress=False)
    paired_bootstrap_ci((y, scores), (y, scores[::-1]), statistic=roc_auc, n_resamples=200, rng=0, progress=False)
    run_benchmark("standard", ["matcher A", "matcher B"], range(2), n_test=50, n_train=10, progress=False)
    assert terminal.getvalue() == ""


def test_no_bar_off_a_terminal(capsys, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(_progress, "DELAY", 0.0)
    bar = _progress.progress_bar(10, "x")
    assert bar.disable
    bootstrap_ci(np.arange(20.0), n_resamples=100, rng=0)
    assert capsys.readouterr().err == ""


def test_without_tqdm_the_work_runs_without_a_bar(monkeypatch):
    monkeypatch.setitem(sys.modules, "tqdm", None)  # import tqdm now raises ImportError
    bar = _progress.progress_bar(10, "x")
    with bar:
        bar.update(3)
    assert isinstance(bar, _progress._Silent)
    assert bootstrap_ci(np.arange(20.0), n_resamples=100, rng=0).n_resamples == 100


@pytest.mark.parametrize("value", ["yes", 1, None])
def test_progress_is_a_flag(value):
    with pytest.raises(TypeError, match="`progress` must be True or False"):
        bootstrap_ci(np.arange(20.0), n_resamples=100, rng=0, progress=value)


def test_every_bootstrap_engine_counts_its_resamples_on_the_bar(monkeypatch):
    y = np.tile([0.0, 1.0], 30)
    x = y + np.random.default_rng(0).normal(size=60)
    calls = {
        "items": lambda: bootstrap_ci(x, n_resamples=500, rng=0),
        "groups": lambda: bootstrap_ci(x, groups=np.repeat(np.arange(20), 3), n_resamples=500, rng=0),
        "callable": lambda: bootstrap_ci(x, statistic=lambda v, axis: np.median(v, axis=axis), n_resamples=500, rng=0),
        "auc": lambda: bootstrap_ci((y, x), statistic=roc_auc, n_resamples=500, rng=0),
        "paired": lambda: paired_bootstrap_ci(x, x[::-1], n_resamples=500, rng=0),
    }
    for name, call in calls.items():
        terminal = on_terminal(monkeypatch)
        call()  # a bar fed a wrong count raises inside tqdm
        shown = terminal.getvalue()
        assert "\rbootstrap:" in shown and "/500 " in shown and "resample/s" in shown, (name, shown)


class _Recorder:
    """A stand-in for progress_bar that keeps what each bar was told."""

    def __init__(self):
        self.bars = []

    def __call__(self, total, description, *, enabled=True, unit="it"):
        bar = {"total": total, "description": description, "enabled": enabled, "unit": unit, "updates": []}
        self.bars.append(bar)

        class Bar:
            def update(self, n=1):
                bar["updates"].append(n)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                return None

        return Bar()


def test_every_bootstrap_engine_ticks_exactly_its_resamples(monkeypatch):
    """The bar advances by whole chunks of resamples, to exactly n_resamples, on every engine path."""
    from sigeval import PairedCounts, _bootstrap_engine, paired_bootstrap_ci_counts

    record = _Recorder()
    monkeypatch.setattr(_bootstrap_engine, "_CHUNK_ELEMENTS", 500)  # several chunks per call
    monkeypatch.setattr(_bootstrap_engine, "progress_bar", record)
    y = np.tile([0.0, 1.0], 30)
    x = y + np.random.default_rng(0).normal(size=60)
    calls = {
        "items": lambda: bootstrap_ci(x, n_resamples=500, rng=0, progress=True),
        "counts": lambda: bootstrap_ci(np.r_[np.ones(70), np.zeros(30)], n_resamples=500, rng=0, progress=True),
        "groups": lambda: bootstrap_ci(x, groups=np.repeat(np.arange(20), 3), n_resamples=500, rng=0, progress=True),
        "callable": lambda: bootstrap_ci(x, statistic=lambda v, axis: np.median(v, axis=axis), n_resamples=500,
                                         rng=0, progress=True),
        "auc": lambda: bootstrap_ci((y, x), statistic=roc_auc, n_resamples=500, rng=0, progress=True),
        "table": lambda: paired_bootstrap_ci_counts(PairedCounts(40, 10, 5, 45), n_resamples=500, rng=0),
    }
    for name, call in calls.items():
        call()
        bar = record.bars.pop()
        assert bar["total"] == 500 and bar["description"] == "bootstrap" and bar["unit"] == "resample", name
        assert bar["enabled"] is (name != "table"), name  # the count functions take no progress flag: no bar
        ticks = bar["updates"]
        assert len(ticks) > 1 and all(type(t) is int and t > 0 for t in ticks), (name, ticks)
        assert sum(ticks) == 500, (name, ticks)
    assert record.bars == []


def test_the_count_bootstraps_draw_no_bar(monkeypatch):
    from sigeval import PairedCounts, bootstrap_ci_counts, paired_bootstrap_ci_counts

    terminal = on_terminal(monkeypatch)
    paired_bootstrap_ci_counts(PairedCounts(40, 10, 5, 45), n_resamples=2_000, rng=0)
    bootstrap_ci_counts([9, 7, 10, 4, 8], [10, 10, 10, 10, 10], n_resamples=2_000, rng=0)
    assert terminal.getvalue() == ""

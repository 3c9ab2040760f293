"""The course's on-disk result cache: same results and generator states with or without it, never stale."""

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from sigeval.course import cache
from sigeval.course.cache import CACHE_ENV, disk_cached
from sigeval.course.mlp import seed_sweep
from sigeval.course.shapes import matcher_experiment

ROOT = Path(__file__).parents[1]


@pytest.fixture
def cache_dir(tmp_path, monkeypatch):
    monkeypatch.setenv(CACHE_ENV, str(tmp_path))
    return tmp_path


def counted():
    """A cached function that draws from its generator, and the list of its real calls."""
    calls = []

    @disk_cached(ignore=("executor",))
    def draw(n, seeds=range(2), *, rng=None, executor=None):
        calls.append(n)
        generator = np.random.default_rng(rng)
        return generator.normal(size=n) + sum(seeds)

    return draw, calls


def test_a_hit_returns_the_result_and_leaves_the_generator_where_the_call_did(cache_dir):
    draw, calls = counted()
    first_rng = np.random.default_rng(7)
    first = draw(3, rng=first_rng)
    after_first = first_rng.random(4)
    second_rng = np.random.default_rng(7)
    second = draw(3, rng=second_rng)
    assert calls == [3]
    np.testing.assert_array_equal(second, first)
    np.testing.assert_array_equal(second_rng.random(4), after_first)


def test_an_integer_seed_and_its_generator_share_an_entry(cache_dir):
    draw, calls = counted()
    by_seed = draw(3, rng=5)
    by_generator = draw(3, rng=np.random.default_rng(5))
    assert calls == [3]
    np.testing.assert_array_equal(by_generator, by_seed)


def test_the_key_holds_every_argument_but_the_ignored_ones(cache_dir):
    draw, calls = counted()
    draw(3, rng=5)
    draw(3, rng=5, executor=object())  # ignored: same entry
    draw(3, range(3), rng=5)  # other seeds
    draw(3, rng=6)  # other seed
    draw(4, rng=5)  # other size
    draw(3, (0, 1), rng=5)  # the tuple of range(2): same entry
    assert calls == [3, 3, 3, 4]


def test_a_one_shot_iterator_reaches_the_function_intact(cache_dir):
    draw, _ = counted()
    np.testing.assert_array_equal(draw(2, iter([1, 2]), rng=0), draw(2, [1, 2], rng=0))
    assert draw(2, iter([1, 2]), rng=1)[0] == pytest.approx(np.random.default_rng(1).normal() + 3)


def test_fresh_entropy_is_never_cached(cache_dir):
    draw, calls = counted()
    draw(2)
    draw(2)
    assert calls == [2, 2]
    assert not list(cache_dir.iterdir())


def test_off_without_the_environment_variable(monkeypatch, tmp_path):
    monkeypatch.delenv(CACHE_ENV, raising=False)
    draw, calls = counted()
    draw(2, rng=0)
    draw(2, rng=0)
    assert calls == [2, 2]


def test_a_change_of_the_library_recomputes(cache_dir, monkeypatch):
    draw, calls = counted()
    draw(2, rng=0)
    monkeypatch.setattr(cache, "library_fingerprint", lambda: "another library")
    draw(2, rng=0)
    assert calls == [2, 2]


def test_the_fingerprint_follows_every_source_file(tmp_path, monkeypatch):
    (tmp_path / "sub").mkdir()
    (tmp_path / "a.py").write_text("x = 1\n")
    (tmp_path / "sub" / "b.py").write_text("y = 2\n")
    monkeypatch.setattr(cache, "_PACKAGE_ROOT", tmp_path)
    fingerprint = cache.library_fingerprint.__wrapped__
    before = fingerprint()
    (tmp_path / "sub" / "b.py").write_text("y = 3\n")
    edited = fingerprint()
    (tmp_path / "c.py").write_text("")
    added = fingerprint()
    assert len({before, edited, added}) == 3


def test_an_invalid_rng_gets_the_functions_own_error(cache_dir):
    with pytest.raises(TypeError, match="`rng` must be a numpy.random.Generator"):
        matcher_experiment(rng=1.5, n_population=10, n_test=10)


def test_matcher_experiment_cached_equals_computed(cache_dir, monkeypatch):
    args = {"n_population": 1000, "n_test": 200}
    cold_rng = np.random.default_rng(0)
    cold = matcher_experiment(cold_rng, **args)
    warm_rng = np.random.default_rng(0)
    warm = matcher_experiment(warm_rng, **args)
    monkeypatch.delenv(CACHE_ENV)
    plain_rng = np.random.default_rng(0)
    plain = matcher_experiment(plain_rng, **args)
    assert len(list(cache_dir.glob("matcher_experiment-*.pickle"))) == 1
    for result in (cold, warm):
        np.testing.assert_array_equal(result.population_correct, plain.population_correct)
        np.testing.assert_array_equal(result.test_images, plain.test_images)
    # Chapter 5 draws its bootstrap from the same generator afterwards.
    cold_next, warm_next, plain_next = (g.integers(0, 100, 5) for g in (cold_rng, warm_rng, plain_rng))
    np.testing.assert_array_equal(cold_next, plain_next)
    np.testing.assert_array_equal(warm_next, plain_next)


def test_seed_sweep_cached_equals_computed(cache_dir, monkeypatch):
    args = {"hidden": (4,), "seeds": range(2), "rng": 3, "n_train": 100, "n_test": 50, "n_fresh": 200}
    cold, warm = seed_sweep(**args), seed_sweep(**args)
    monkeypatch.delenv(CACHE_ENV)
    plain = seed_sweep(**args)
    assert len(list(cache_dir.glob("seed_sweep-*.pickle"))) == 1
    for result in (cold, warm):
        assert result.runs.equals(plain.runs)
        np.testing.assert_array_equal(result.test_correct, plain.test_correct)


def _fresh_execution():
    spec = importlib.util.spec_from_file_location("fresh_execution", ROOT / "book" / "_ext" / "fresh_execution.py")
    module = sys.modules.setdefault("fresh_execution", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


def test_the_book_reexecutes_every_chapter_when_the_library_changes(monkeypatch):
    ext = _fresh_execution()
    metadata = {
        "notebooks/02_b": {"exec_data": {"runtime": 1.0}},
        "notebooks/01_a": {"exec_data": {"runtime": 2.0}},
        "book/api": {},
    }
    env = SimpleNamespace(nb_metadata=metadata, sigeval_fingerprint=ext.build_fingerprint())
    assert ext._outdated_chapters(None, env, set(), set(), set()) == []
    monkeypatch.setattr(ext, "build_fingerprint", lambda: "after an edit of src/")
    assert ext._outdated_chapters(None, env, set(), set(), set()) == ["notebooks/01_a", "notebooks/02_b"]
    assert env.sigeval_fingerprint == "after an edit of src/"
    assert ext._outdated_chapters(None, env, set(), set(), set()) == []


def test_an_argument_the_key_cannot_hold_is_named(cache_dir):
    draw, calls = counted()
    with pytest.raises(TypeError, match="`seeds`: cannot key the cache on a object"):
        draw(2, [object()], rng=0)
    assert calls == []

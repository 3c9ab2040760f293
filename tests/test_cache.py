"""The course's on-disk result cache: same results and generator states with or without it, never stale."""

import importlib.util
import os
import sys
from pathlib import Path
from types import SimpleNamespace

import nbformat
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


def test_the_fingerprint_ignores_comments_docstrings_and_layout_and_a_revert_restores_it(tmp_path, monkeypatch):
    module = tmp_path / "m.py"
    original = 'def f(x):\n    """Twice x."""\n    return 2 * x\n'
    module.write_text(original)
    monkeypatch.setattr(cache, "_PACKAGE_ROOT", tmp_path)
    fingerprint = cache.library_fingerprint.__wrapped__
    before = fingerprint()
    module.write_text('"""A module."""\n\n\ndef f(x):  # doubled\n    """Two times x, documented at length."""\n\n    return 2*x\n')
    assert fingerprint() == before
    module.write_text(original.replace("2 * x", "3 * x"))
    assert fingerprint() != before
    module.write_text(original)
    assert fingerprint() == before


def test_a_module_that_reads_docstrings_keeps_them_in_the_fingerprint():
    reads = 'def f():\n    """Help."""\n    return f.__doc__\n'
    assert cache.code_digest(reads) != cache.code_digest(reads.replace("Help.", "Other help."))
    assert cache.code_digest("x = 1  # one") == cache.code_digest("x = 1")
    assert cache.code_digest("x = (") == b"x = ("  # does not parse: the text itself


def test_the_fingerprint_follows_the_data_files(tmp_path, monkeypatch):
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / "runs.csv").write_text("a,b\n1,2\n")
    monkeypatch.setattr(cache, "_PACKAGE_ROOT", tmp_path)
    fingerprint = cache.library_fingerprint.__wrapped__
    before = fingerprint()
    (tmp_path / "data" / "runs.csv").write_text("a,b\n1,3\n")
    assert fingerprint() != before


# --------------------------------------------------------------------------- the book's chapter cache

sys.path.insert(0, str(ROOT / "book" / "_ext"))  # as Sphinx's local_extensions does
import chapter_cache  # noqa: E402


def _fresh_execution():
    spec = importlib.util.spec_from_file_location("fresh_execution", ROOT / "book" / "_ext" / "fresh_execution.py")
    module = sys.modules.setdefault("fresh_execution", importlib.util.module_from_spec(spec))
    spec.loader.exec_module(module)
    return module


def test_the_book_reads_every_chapter_again_when_the_library_changes(monkeypatch):
    ext = _fresh_execution()
    metadata = {
        "notebooks/02_b": {"exec_data": {"runtime": 1.0}},
        "notebooks/01_a": {"exec_data": {"runtime": 2.0}},
        "book/api": {},
    }
    env = SimpleNamespace(nb_metadata=metadata, sigeval_fingerprint=chapter_cache.fingerprint())
    assert ext._outdated_chapters(None, env, set(), set(), set()) == []
    monkeypatch.setattr(ext, "fingerprint", lambda: "after an edit of src/")
    assert ext._outdated_chapters(None, env, set(), set(), set()) == ["notebooks/01_a", "notebooks/02_b"]
    assert env.sigeval_fingerprint == "after an edit of src/"
    assert ext._outdated_chapters(None, env, set(), set(), set()) == []


def test_the_book_looks_chapters_up_in_the_store_of_the_current_fingerprint(tmp_path, monkeypatch):
    from myst_nb.core.config import NbParserConfig

    ext = _fresh_execution()
    monkeypatch.delenv(CACHE_ENV, raising=False)
    app = SimpleNamespace(outdir=str(tmp_path / "_build" / "html"), env=SimpleNamespace(mystnb_config=NbParserConfig()))
    ext._point_caches_at_build_dir(app)
    assert app.env.mystnb_config.execution_cache_path == str(chapter_cache.folder(tmp_path / "_build"))
    assert Path(app.env.mystnb_config.execution_cache_path).name == chapter_cache.fingerprint()[:16]


def test_the_chapters_packages_are_those_the_chapters_can_import():
    packages = chapter_cache.chapter_packages()
    assert {"sigeval", "numpy", "scipy", "pandas", "matplotlib", "scikit-learn", "myst-nb", "ipykernel"} <= set(packages)
    # Tools beside them (the test extra, JupyterLab of the lab extra) are not.
    assert not {"hypothesis", "mutmut", "ruff", "mypy", "playwright", "jupyterlab"} & set(packages)


def _executed_notebook(source, output):
    notebook = nbformat.v4.new_notebook(
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}
    )
    cell = nbformat.v4.new_code_cell(source, outputs=[nbformat.v4.new_output("stream", name="stdout", text=output)])
    notebook.cells = [nbformat.v4.new_markdown_cell("# A chapter"), cell]
    return notebook


def test_a_stored_execution_is_found_for_the_same_code_and_library_only(tmp_path, monkeypatch):
    build = tmp_path / "_build"
    monkeypatch.setattr(chapter_cache, "fingerprint", lambda: "a" * 64)
    chapter_cache.store(tmp_path / "01_a.md", _executed_notebook("print(1)", "1\n"), 1.5, build)

    read = _executed_notebook("print(1)", "")  # as the book reads it: no outputs
    read.cells[0].source = "# A chapter whose prose changed"
    found = chapter_cache.lookup(read, build)
    assert found.cells[1].outputs[0].text == "1\n" and found.cells[0].source.endswith("changed")
    assert chapter_cache.lookup(_executed_notebook("print(2)", ""), build) is None  # other code: never its outputs
    monkeypatch.setattr(chapter_cache, "fingerprint", lambda: "b" * 64)  # an edit of sigeval's code
    assert chapter_cache.lookup(read, build) is None
    monkeypatch.setattr(chapter_cache, "fingerprint", lambda: "a" * 64)  # and its revert
    assert chapter_cache.lookup(read, build).cells[1].outputs[0].text == "1\n"


def test_only_the_latest_stores_are_kept(tmp_path):
    stores = tmp_path / ".jupyter_cache"
    for i in range(5):
        (stores / f"{i:016d}").mkdir(parents=True)
        os.utime(stores / f"{i:016d}", (i, i))
    removed = chapter_cache.prune(tmp_path, keep=3)
    assert sorted(p.name for p in removed) == [f"{i:016d}" for i in (0, 1)]
    assert sorted(p.name for p in stores.iterdir()) == [f"{i:016d}" for i in (2, 3, 4)]


def test_an_argument_the_key_cannot_hold_is_named(cache_dir):
    draw, calls = counted()
    with pytest.raises(TypeError, match="`seeds`: cannot key the cache on a object"):
        draw(2, [object()], rng=0)
    assert calls == []

"""sigeval.course.mlp: the stacked MLP, its checkpoints and the seed sweeps."""

from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pandas as pd
import pytest

from sigeval.course.mlp import checkpoint_sweep, seed_sweep, train_mlp, train_mlp_checkpoints
from sigeval.course.shapes import blur, make_images

# --------------------------------------------------------------------------- the MLP and the sweep


def test_stacked_training_equals_separate_runs():
    images, labels = make_images(300, rng=0)
    features = blur(images)
    seeds = [3, 0, 7]
    together = train_mlp(features, labels, seeds, hidden=8, epochs=2)
    assert together.seeds == tuple(seeds)
    for j, seed in enumerate(seeds):
        alone = train_mlp(features, labels, seed, hidden=8, epochs=2)
        for name in ("W1", "b1", "W2", "b2"):
            np.testing.assert_array_equal(getattr(together, name)[j], getattr(alone, name)[0])
    alone = train_mlp(features, labels, [0], hidden=8, epochs=2)
    np.testing.assert_array_equal(together.predict(features)[1], alone.predict(features)[0])


def test_checkpoints_are_the_training_stopped_after_each_epoch():
    images, labels = make_images(300, rng=1)
    features = blur(images)
    checkpoints = train_mlp_checkpoints(features, labels, [4, 2], hidden=8, epochs=3)
    assert len(checkpoints) == 4
    for epochs, checkpoint in enumerate(checkpoints):
        # Training for e epochs gives exactly the e-th checkpoint (e = 0: the initial weights).
        direct = train_mlp(features, labels, [4, 2], hidden=8, epochs=epochs)
        for name in ("W1", "b1", "W2", "b2"):
            np.testing.assert_array_equal(getattr(checkpoint, name), getattr(direct, name))
    # Checkpoints are copies: later epochs did not overwrite earlier ones.
    assert not np.array_equal(checkpoints[1].W1, checkpoints[2].W1)


def test_checkpoint_sweep_last_epoch_is_the_seed_sweep():
    kwargs = dict(seeds=range(3), rng=5, n_train=200, n_test=100, n_fresh=700)
    sweep = checkpoint_sweep(8, epochs=10, **kwargs)  # seed_sweep trains for 10 epochs
    plain = seed_sweep(hidden=(8,), **kwargs)
    last = sweep.runs[sweep.runs["epoch"] == 10]
    np.testing.assert_array_equal(last["test_acc"].to_numpy(), plain.runs["test_acc"].to_numpy())
    np.testing.assert_array_equal(last["fresh_acc"].to_numpy(), plain.runs["fresh_acc"].to_numpy())
    assert len(sweep.runs) == 30 and sweep.hidden == 8

    best = sweep.best_checkpoints()
    for row in best.itertuples():
        runs = sweep.runs[sweep.runs["seed"] == row.seed]
        assert row.test_acc == runs["test_acc"].max()
        # The first epoch reaching the maximum, and its own fresh accuracy.
        assert row.best_epoch == runs.loc[runs["test_acc"].idxmax(), "epoch"]
        chosen = runs[runs["epoch"] == row.best_epoch]
        assert row.fresh_acc == chosen["fresh_acc"].item()
        assert row.last_test_acc == runs[runs["epoch"] == 10]["test_acc"].item()


def test_seed_sweep_in_threads_equals_serial():
    kwargs = dict(hidden=(8, 16), seeds=range(3), rng=0, n_train=200, n_test=100, n_fresh=1500)
    serial = seed_sweep(**kwargs)
    with ThreadPoolExecutor(2) as pool:
        threaded = seed_sweep(**kwargs, executor=pool)
    pd.testing.assert_frame_equal(threaded.runs, serial.runs, check_exact=True)
    np.testing.assert_array_equal(threaded.test_correct, serial.test_correct)
    for h in (8, 16):
        np.testing.assert_array_equal(threaded.networks[h].W1, serial.networks[h].W1)
    assert len(serial.runs) == 6 and (serial.n_test, serial.n_fresh) == (100, 1500)


# --------------------------------------------------------------------------- bad input

_X = np.zeros((30, 256))
_Y = np.zeros(30, dtype=int)


def _with(features, value):
    """A copy of ``features`` with one entry replaced by ``value``."""
    out = features.copy()
    out[3, 7] = value
    return out


@pytest.mark.parametrize(
    ("call", "error", "match"),
    [
        (lambda: train_mlp(_X, _Y, 0, hidden=0), ValueError, "`hidden` must be an integer >= 1; got 0"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, batch=0), ValueError, "`batch` must be an integer >= 1"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, batch=31), ValueError, "`batch` must not exceed"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, epochs=-1), ValueError, "`epochs` must be an integer >= 0"),
        (lambda: train_mlp(_X, _Y[:-1], 0, hidden=4), ValueError, r"`features` must have shape \(n, d\)"),
        (lambda: train_mlp(_X[0], _Y, 0, hidden=4), ValueError, r"`features` must have shape \(n, d\)"),
        (lambda: train_mlp(_X, _Y + 4, 0, hidden=4), ValueError, "`labels` must be integer class indices"),
        (lambda: train_mlp(_X, _Y * 1.0, 0, hidden=4), ValueError, "`labels` must be integer class indices"),
        (lambda: train_mlp(_X, _Y, [], hidden=4), ValueError, "`seeds` must hold at least one seed"),
        (lambda: train_mlp(_X, _Y, [0, -1], hidden=4), ValueError, "`seeds` must hold non-negative integer seeds; got -1"),
        (lambda: train_mlp(_X, _Y, [0, 2.5], hidden=4), TypeError, "`seeds` must hold integer seeds; got 2.5"),
        (lambda: train_mlp(_X, _Y, "0", hidden=4), TypeError, "`seeds` must be an integer seed or an iterable"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, lr=float("nan")), ValueError, "`lr` must be finite; got nan"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, lr=float("inf")), ValueError, "`lr` must be finite; got inf"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, lr=0.0), ValueError, "`lr` must be positive; got 0.0"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, lr=-0.05), ValueError, "`lr` must be positive; got -0.05"),
        (lambda: train_mlp(_X, _Y, 0, hidden=4, lr="0.05"), TypeError, "`lr` must be a real number"),
        (lambda: train_mlp(_with(_X, np.nan), _Y, 0, hidden=4), ValueError, "`features` must be finite; got nan"),
        (lambda: train_mlp(_with(_X, np.inf), _Y, 0, hidden=4), ValueError, "`features` must be finite; got inf"),
        (lambda: train_mlp(_X[:0], _Y[:0], 0, hidden=4), ValueError, "`features` must not be empty"),
        (lambda: train_mlp_checkpoints(_X, _Y, 0, hidden=4, lr=0), ValueError, "`lr` must be positive"),
        # The sweeps name their own arguments, never those of the functions they call (`batch`, `n`).
        (lambda: seed_sweep(n_train=19), ValueError, "`n_train` must be an integer >= 20; got 19"),
        (lambda: seed_sweep(n_test=0), ValueError, "`n_test` must be an integer >= 1; got 0"),
        (lambda: seed_sweep(n_fresh=0), ValueError, "`n_fresh` must be an integer >= 1; got 0"),
        (lambda: seed_sweep(n_test=2.5), TypeError, "`n_test` must be an integer"),
        (lambda: seed_sweep(hidden=(8, 0)), ValueError, "`hidden` must be an integer >= 1; got 0"),
        (lambda: seed_sweep(hidden=32), TypeError, "`hidden` must be a sequence of integers >= 1; got 32"),
        (lambda: seed_sweep(hidden=()), ValueError, "`hidden` must hold at least one value"),
        (lambda: seed_sweep(hidden=(8, 8)), ValueError, r"`hidden` must not repeat a value; got \[8, 8\]"),
        (lambda: seed_sweep(seeds=[]), ValueError, "`seeds` must hold at least one seed"),
        (lambda: seed_sweep(seeds=[-1]), ValueError, "`seeds` must hold non-negative integer seeds"),
        (lambda: seed_sweep(rng="1"), TypeError, "`rng` must be a numpy.random.Generator"),
        (lambda: seed_sweep(executor="pool"), TypeError, "`executor` must be a concurrent.futures.Executor"),
        (lambda: checkpoint_sweep(n_train=5), ValueError, "`n_train` must be an integer >= 20; got 5"),
        (lambda: checkpoint_sweep(n_test=0), ValueError, "`n_test` must be an integer >= 1; got 0"),
        (lambda: checkpoint_sweep(n_fresh=-1), ValueError, "`n_fresh` must be an integer >= 1; got -1"),
        (lambda: checkpoint_sweep(hidden=0), ValueError, "`hidden` must be an integer >= 1; got 0"),
        (lambda: checkpoint_sweep(epochs=0), ValueError, "`epochs` must be an integer >= 1; got 0"),
        (lambda: checkpoint_sweep(seeds=[1.5]), TypeError, "`seeds` must hold integer seeds; got 1.5"),
    ],
)
def test_bad_input_names_the_argument(call, error, match):
    with pytest.raises(error, match=match):
        call()

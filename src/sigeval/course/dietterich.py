"""Dietterich's (1998) type I error study, simulated in a few seconds.

Two learning algorithms that are *equally good on the population* are
compared on many simulated datasets, each with the tests Dietterich studied;
the share of datasets on which a test rejects at level alpha is its type I
error. The setting keeps the structure of his study, the variability of the
training set and of the test set, at a cost small enough for a chapter:

- **Population.** Two classes of equal prior; two features that, within a
  class, are bivariate normal with unit variances and correlation
  ``correlation``; the class means differ by ``separation`` on each feature
  (by ``separation + advantage`` on the first).
- **Algorithms.** A learns a nearest-class-mean rule on the first feature, B
  the same rule on the second: each estimates the two class means from its
  training items and predicts the class whose mean is nearer. With
  ``advantage=0`` the two features play symmetric roles, so the two
  algorithms have the same expected error *at every training-set size*; yet
  on any one dataset one of them looks better, on its test items and through
  its training items.
- **Datasets.** Each replication draws ``n_items`` fresh items. On them:
  one 2/3 : 1/3 split for the difference of proportions and McNemar's test;
  30 random 2/3 : 1/3 splits for the resampled t-test (and its correction);
  10-fold cross-validation; five replications of 2-fold cross-validation for
  the 5x2cv t and F tests.

Every test is computed by the same code as the public functions
(:func:`~sigeval.crossval.difference_of_proportions_test`,
:func:`~sigeval.paired.mcnemar_counts`, :func:`~sigeval.crossval.resampled_paired_t`,
:func:`~sigeval.crossval.corrected_resampled_t`, :func:`~sigeval.crossval.kfold_cv_paired_t`,
:func:`~sigeval.crossval.five_by_two_cv_t`, :func:`~sigeval.crossval.five_by_two_cv_f`),
vectorized over the replications.

Explained in :ref:`ch-procedures`.
"""

from __future__ import annotations

import math
import numbers
from dataclasses import dataclass, field

import numpy as np
from scipy import stats

from .._mcnemar import mcnemar_core
from .._ttest import (
    corrected_t_core,
    five_by_two_f_core,
    five_by_two_t_core,
    paired_t_core,
    proportions_core,
)
from .._validation import RngLike, check_alpha, check_positive_int, check_rng

__all__ = ["TESTS", "RejectionRates", "rejection_rates", "type_one_error"]

#: The tests of the study, in the order of the result's tables, with their labels.
TESTS = {
    "proportions": "difference of proportions",
    "mcnemar": "McNemar (exact)",
    "mcnemar_mid_p": "McNemar (mid-p)",
    "resampled_t": "resampled paired t (30 splits)",
    "corrected_resampled_t": "corrected resampled t (30 splits)",
    "kfold_t": "10-fold cross-validated paired t",
    "five_by_two_t": "5x2cv paired t",
    "five_by_two_f": "5x2cv combined F",
}

_N_RESAMPLES = 30  # Dietterich's 30 random train/test splits
_N_FOLDS = 10
_CHUNK = 250  # replications simulated at once (fixed, so results do not depend on memory)


@dataclass(frozen=True)
class RejectionRates:
    """Result of :func:`rejection_rates` and :func:`type_one_error`.

    Attributes
    ----------
    rejection_rate : dict of str to float
        For each test (keys of :data:`TESTS`), the share of replications on
        which it rejected at level ``alpha`` (p <= alpha): the type I error
        when ``advantage == 0``, the power otherwise.
    standard_error : dict of str to float
        Monte Carlo standard error of each rate, ``sqrt(r (1 - r) / n_replications)``.
    pvalues : dict of str to ndarray
        Each test's p-value on every replication (a test left undefined by
        zero spread counts as p = 1).
    alpha : float
        The level of the tests.
    n_items : int
        Items per simulated dataset.
    n_replications : int
        Simulated datasets.
    error_a, error_b : float
        Population error of the best rule on each algorithm's feature (the
        error each algorithm approaches with an unlimited training set).
    """

    rejection_rate: dict[str, float]
    standard_error: dict[str, float]
    pvalues: dict[str, np.ndarray] = field(repr=False)
    alpha: float
    n_items: int
    n_replications: int
    error_a: float
    error_b: float


def _sums(x: np.ndarray, y: np.ndarray):
    """Per-class sums and counts over the last axis."""
    return (x * y).sum(axis=-1), y.sum(axis=-1), (x * (1 - y)).sum(axis=-1), (1 - y).sum(axis=-1)


def _correct(x, y, sum1, n1, sum0, n0):
    """Correctness of the nearest-class-mean rule fitted from class sums, on items (x, y)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        m1, m0 = sum1 / n1, sum0 / n0
    # Predict class 1 when x is nearer m1 than m0. A training set without one
    # of the classes gives NaN means: every prediction is then wrong.
    predict_one = (x - ((m0 + m1) / 2)[..., None]) * np.sign(m1 - m0)[..., None] > 0
    return predict_one == (y == 1)


def _split_correctness(x, y, n_train):
    """Correctness of both algorithms on the test part of permuted data (..., N, 2)."""
    out = []
    for j in (0, 1):
        xj = x[..., j]
        sums = _sums(xj[..., :n_train], y[..., :n_train])
        out.append(_correct(xj[..., n_train:], y[..., n_train:], *sums))
    return out


def _permute(x, y, rng, shape):
    """Copies of (x, y) with the items permuted independently for each index of ``shape``."""
    r, n = y.shape
    order = rng.permuted(np.broadcast_to(np.arange(n), (r, *shape, n)), axis=-1)
    # Flat indices into the (r * n) items: gathering with np.take is much
    # faster than take_along_axis on broadcast arrays.
    flat = order + (n * np.arange(r)).reshape((r,) + (1,) * (len(shape) + 1))
    xs = np.take(x.reshape(r * n, 2), flat, axis=0)
    ys = np.take(y.reshape(r * n), flat)
    return xs, ys


def _draw(rng, r, n, separation_a, separation_b, correlation):
    y = (rng.random((r, n)) < 0.5).astype(float)
    z = rng.standard_normal((r, n, 2))
    x = np.empty_like(z)
    x[..., 0] = z[..., 0]
    x[..., 1] = correlation * z[..., 0] + math.sqrt(1 - correlation**2) * z[..., 1]
    sign = 2 * y - 1
    x[..., 0] += sign * separation_a / 2
    x[..., 1] += sign * separation_b / 2
    return x, y


def _simulate_chunk(rng, r, n, separation_a, separation_b, correlation) -> dict[str, np.ndarray]:
    """What each test sees on ``r`` simulated datasets: counts and score differences.

    Keys: ``k_a``, ``k_b`` (correct test items of the single split), ``n01``,
    ``n10`` (its disagreements), ``resampled`` (r, 30) and ``kfold`` (r, 10)
    accuracy differences, ``five_by_two`` (r, 5, 2) fold differences, all A minus B.
    """
    x, y = _draw(rng, r, n, separation_a, separation_b, correlation)
    n_train = round(2 * n / 3)
    raw = {}

    # One 2/3 : 1/3 split: difference of proportions and McNemar.
    xs, ys = _permute(x, y, rng, ())
    ca, cb = _split_correctness(xs, ys, n_train)
    raw["k_a"], raw["k_b"] = ca.sum(axis=-1), cb.sum(axis=-1)
    raw["n01"], raw["n10"] = (ca & ~cb).sum(axis=-1), (~ca & cb).sum(axis=-1)

    # 30 random 2/3 : 1/3 splits.
    xs, ys = _permute(x, y, rng, (_N_RESAMPLES,))
    ca, cb = _split_correctness(xs, ys, n_train)
    raw["resampled"] = ca.mean(axis=-1) - cb.mean(axis=-1)

    # 10-fold cross-validation: train on the other nine folds (totals less the fold).
    xs, ys = _permute(x, y, rng, ())
    size = n // _N_FOLDS
    folds_y = ys[:, : size * _N_FOLDS].reshape(r, _N_FOLDS, size)
    acc = []
    for j in (0, 1):
        folds_x = xs[:, : size * _N_FOLDS, j].reshape(r, _N_FOLDS, size)
        fold_sums = _sums(folds_x, folds_y)
        train_sums = [part.sum(axis=-1, keepdims=True) - part for part in fold_sums]
        acc.append(_correct(folds_x, folds_y, *train_sums).mean(axis=-1))
    raw["kfold"] = acc[0] - acc[1]

    # 5 x 2-fold cross-validation: train on one half, test on the other, then swap.
    xs, ys = _permute(x, y, rng, (5,))
    half = n // 2
    halves_y = ys[..., : 2 * half].reshape(r, 5, 2, half)
    acc = []
    for j in (0, 1):
        halves_x = xs[..., : 2 * half, j].reshape(r, 5, 2, half)
        # Fold t tests on half t with the rule fitted on the other half.
        swapped = [part[..., ::-1] for part in _sums(halves_x, halves_y)]
        acc.append(_correct(halves_x, halves_y, *swapped).mean(axis=-1))
    raw["five_by_two"] = acc[0] - acc[1]
    return raw


def _pvalues(raw: dict[str, np.ndarray], n: int) -> dict[str, np.ndarray]:
    """Every test's p-value from what it sees (the cores of the public functions)."""
    n_train = round(2 * n / 3)
    n_test = n - n_train
    d = raw["resampled"]
    return {
        "proportions": proportions_core(raw["k_a"], raw["k_b"], np.full(raw["k_a"].shape, n_test))[1],
        "mcnemar": mcnemar_core(raw["n01"], raw["n10"], True, True)[1],
        "mcnemar_mid_p": mcnemar_core(raw["n01"], raw["n10"], True, True, True)[1],
        "resampled_t": paired_t_core(d)[1],
        "corrected_resampled_t": corrected_t_core(d, n_train, n_test)[1],
        "kfold_t": paired_t_core(raw["kfold"])[1],
        "five_by_two_t": five_by_two_t_core(raw["five_by_two"])[1],
        "five_by_two_f": five_by_two_f_core(raw["five_by_two"])[1],
    }


def rejection_rates(
    *,
    n_items: int = 300,
    n_replications: int = 1000,
    alpha: float = 0.05,
    separation: float = 1.0,
    correlation: float = 0.5,
    advantage: float = 0.0,
    rng: RngLike = None,
) -> RejectionRates:
    r"""How often each of Dietterich's tests rejects, over simulated datasets.

    Simulates ``n_replications`` datasets of ``n_items`` items from the
    population described in the module docstring, runs on each the tests of
    :data:`TESTS` to compare algorithm A (nearest class mean on feature 1)
    with algorithm B (the same on feature 2), and counts the rejections at
    level ``alpha``. With ``advantage = 0`` the two algorithms are equally
    good at every training-set size, so the rate is each test's type I
    error; with ``advantage > 0`` A's feature separates the classes better
    and the rate is the power.

    The best rule on a feature with class means :math:`\pm s/2` has error
    :math:`\Phi(-s/2)`: 0.31 at the default separation 1.

    Parameters
    ----------
    n_items : int
        Items per dataset, at least 30; the 10-fold and 2-fold splits use the
        largest multiple of 10 and of 2 that fits.
    n_replications : int
        Number of simulated datasets.
    alpha : float
        Level of every test.
    separation : float
        Distance between the class means on each feature, in within-class
        standard deviations (positive).
    correlation : float
        Within-class correlation of the two features, in (-1, 1): the higher,
        the more the two algorithms agree item by item.
    advantage : float
        Extra separation on A's feature (0 for the null hypothesis).
    rng : numpy.random.Generator, int or None
        Source of every random draw.

    Returns
    -------
    RejectionRates

    Raises
    ------
    ValueError
        If a size is too small, ``alpha`` is outside (0, 1), ``separation``
        is not positive, ``correlation`` is outside (-1, 1) or
        ``separation + advantage`` is not positive.

    Notes
    -----
    Runs 81 trainings of each algorithm per dataset on arrays; 2,000
    datasets of 300 items take a few seconds. The replications are simulated
    in chunks of 250 datasets, so a given ``rng`` seed gives the same result
    whatever the machine.

    Explained in :ref:`ch-procedures`.

    References
    ----------
    Dietterich, T. G. (1998). Approximate statistical tests for comparing
    supervised classification learning algorithms. *Neural Computation*
    10(7), 1895–1923.

    Examples
    --------
    >>> from sigeval.course.dietterich import rejection_rates
    >>> res = rejection_rates(n_replications=250, rng=0)
    >>> sorted(res.rejection_rate) == sorted(res.pvalues)
    True
    >>> res.rejection_rate["resampled_t"] > 0.1 > res.rejection_rate["five_by_two_t"]
    True
    """
    n_items = check_positive_int(n_items, "n_items", minimum=30)
    n_replications = check_positive_int(n_replications, "n_replications")
    alpha = check_alpha(alpha)
    separation = _positive(separation, "separation")
    advantage = _real(advantage, "advantage")
    correlation = _real(correlation, "correlation")
    if not -1 < correlation < 1:
        raise ValueError(f"`correlation` must lie strictly between -1 and 1; got {correlation!r}.")
    separation_a = separation + advantage
    if separation_a <= 0:
        raise ValueError(
            "`separation + advantage` (A's separation) must be positive; got "
            f"{separation!r} + {advantage!r}."
        )
    generator = check_rng(rng)
    chunks = []
    for start in range(0, n_replications, _CHUNK):
        r = min(_CHUNK, n_replications - start)
        raw = _simulate_chunk(generator, r, n_items, separation_a, separation, correlation)
        chunks.append(_pvalues(raw, n_items))
    pvalues = {
        name: np.nan_to_num(np.concatenate([c[name] for c in chunks]), nan=1.0) for name in TESTS
    }
    rates = {name: float(np.mean(pvalues[name] <= alpha)) for name in TESTS}
    return RejectionRates(
        rejection_rate=rates,
        standard_error={
            name: math.sqrt(rate * (1 - rate) / n_replications) for name, rate in rates.items()
        },
        pvalues=pvalues,
        alpha=alpha,
        n_items=n_items,
        n_replications=n_replications,
        error_a=float(stats.norm.cdf(-separation_a / 2)),
        error_b=float(stats.norm.cdf(-separation / 2)),
    )


def type_one_error(
    *,
    n_items: int = 300,
    n_replications: int = 1000,
    alpha: float = 0.05,
    separation: float = 1.0,
    correlation: float = 0.5,
    rng: RngLike = None,
) -> RejectionRates:
    """Type I error of each of Dietterich's tests: :func:`rejection_rates` with no advantage.

    The two algorithms are equally good on the population, so every
    rejection is a false alarm; a test that keeps its level rejects at most
    about ``alpha`` of the time. Parameters as in :func:`rejection_rates`.
    Explained in :ref:`ch-procedures`.

    Examples
    --------
    >>> from sigeval.course.dietterich import type_one_error
    >>> res = type_one_error(n_replications=250, rng=1)
    >>> res.rejection_rate["mcnemar"] <= 0.05 + 2 * res.standard_error["mcnemar"]
    True
    """
    return rejection_rates(
        n_items=n_items,
        n_replications=n_replications,
        alpha=alpha,
        separation=separation,
        correlation=correlation,
        advantage=0.0,
        rng=rng,
    )


def _real(value, name: str) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real) or not math.isfinite(value):
        raise TypeError(f"`{name}` must be a finite real number; got {value!r}.")
    return float(value)


def _positive(value, name: str) -> float:
    value = _real(value, name)
    if value <= 0:
        raise ValueError(f"`{name}` must be positive; got {value!r}.")
    return value

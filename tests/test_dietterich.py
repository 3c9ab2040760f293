"""sigeval.course.dietterich: the simulated type I error study of Dietterich (1998)."""

import math
import warnings

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    corrected_resampled_t,
    difference_of_proportions_test,
    five_by_two_cv_f,
    five_by_two_cv_t,
    kfold_cv_paired_t,
    mcnemar_counts,
    resampled_paired_t,
)
from sigeval.course.dietterich import (
    TESTS,
    _correct,
    _pvalues,
    _simulate_chunk,
    _sums,
    rejection_rates,
    type_one_error,
)


def test_nearest_mean_rule_by_hand():
    # Class 1 at 2 and 4 (mean 3), class 0 at -1 and 0 (mean -0.5): threshold 1.25.
    x_train = np.array([2.0, 4.0, -1.0, 0.0])
    y_train = np.array([1.0, 1.0, 0.0, 0.0])
    x_test = np.array([1.3, 1.2, -5.0, 9.0])
    y_test = np.array([1.0, 1.0, 0.0, 0.0])
    correct = _correct(x_test, y_test, *_sums(x_train, y_train))
    np.testing.assert_array_equal(correct, [True, False, True, False])
    # Classes reversed on the feature: the rule flips its direction.
    flipped = _correct(-x_test, y_test, *_sums(-x_train, y_train))
    np.testing.assert_array_equal(flipped, correct)


def test_simulated_pvalues_are_those_of_the_public_functions():
    rng = np.random.default_rng(5)
    n = 150
    raw = _simulate_chunk(rng, 6, n, 1.0, 1.0, 0.5)
    p = _pvalues(raw, n)
    n_train, n_test = 100, 50
    assert raw["resampled"].shape == (6, 30) and raw["kfold"].shape == (6, 10)
    assert raw["five_by_two"].shape == (6, 5, 2)
    for i in range(6):
        assert p["proportions"][i] == pytest.approx(
            difference_of_proportions_test(raw["k_a"][i], raw["k_b"][i], n_test).pvalue, rel=1e-12
        )
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # a split without disagreements
            assert p["mcnemar"][i] == mcnemar_counts(raw["n01"][i], raw["n10"][i]).pvalue
            assert p["mcnemar_mid_p"][i] == mcnemar_counts(raw["n01"][i], raw["n10"][i], mid_p=True).pvalue
        d = raw["resampled"][i]
        assert p["resampled_t"][i] == pytest.approx(resampled_paired_t(d).pvalue, rel=1e-12)
        assert p["resampled_t"][i] == pytest.approx(stats.ttest_1samp(d, 0).pvalue, rel=1e-10)
        assert p["corrected_resampled_t"][i] == pytest.approx(
            corrected_resampled_t(d, n_train=n_train, n_test=n_test).pvalue, rel=1e-12
        )
        assert p["kfold_t"][i] == pytest.approx(kfold_cv_paired_t(raw["kfold"][i]).pvalue, rel=1e-12)
        assert p["five_by_two_t"][i] == pytest.approx(five_by_two_cv_t(raw["five_by_two"][i]).pvalue, rel=1e-12)
        assert p["five_by_two_f"][i] == pytest.approx(five_by_two_cv_f(raw["five_by_two"][i]).pvalue, rel=1e-12)
    # Counts and differences are what accuracies on 50 (or 15, or 75) items can be.
    assert np.all(raw["n01"] <= raw["k_a"]) and np.all(raw["n10"] <= raw["k_b"])
    np.testing.assert_allclose(raw["kfold"] * 15, np.round(raw["kfold"] * 15), atol=1e-9)
    np.testing.assert_allclose(raw["five_by_two"] * 75, np.round(raw["five_by_two"] * 75), atol=1e-9)


def test_study_is_deterministic():
    first = type_one_error(n_items=120, n_replications=300, rng=3)
    again = type_one_error(n_items=120, n_replications=300, rng=np.random.default_rng(3))
    assert first.rejection_rate == again.rejection_rate
    for name in TESTS:
        np.testing.assert_array_equal(first.pvalues[name], again.pvalues[name])
        assert first.pvalues[name].shape == (300,)
    other = type_one_error(n_items=120, n_replications=300, rng=4)
    assert any(not np.array_equal(first.pvalues[k], other.pvalues[k]) for k in TESTS)


def test_type_one_error_reproduces_dietterichs_findings():
    # 1,000 datasets of 300 items, algorithms equally good on the population.
    res = type_one_error(n_replications=1000, rng=2024)
    alpha = res.alpha

    def keeps_level(name):
        return res.rejection_rate[name] <= alpha + 2 * res.standard_error[name]

    # McNemar's test and the 5x2cv tests keep their level ...
    for name in ("mcnemar", "mcnemar_mid_p", "five_by_two_t", "five_by_two_f"):
        assert keeps_level(name), (name, res.rejection_rate[name])
    # ... the exact McNemar test is conservative and the mid-p test less so ...
    assert res.rejection_rate["mcnemar"] < res.rejection_rate["mcnemar_mid_p"]
    # ... while the resampled t-test rejects far too often, and Nadeau and
    # Bengio's correction brings it back to about alpha.
    assert res.rejection_rate["resampled_t"] > 0.3
    assert keeps_level("corrected_resampled_t")
    mc = math.sqrt(alpha * (1 - alpha) / res.n_replications)
    assert abs(res.rejection_rate["corrected_resampled_t"] - alpha) < 3 * mc
    assert res.error_a == res.error_b == pytest.approx(stats.norm.cdf(-0.5))


def test_rejection_rates_grow_with_an_advantage():
    null = rejection_rates(n_replications=250, rng=7)
    power = rejection_rates(n_replications=250, advantage=0.8, rng=7)
    assert power.error_a < power.error_b
    for name in ("mcnemar", "kfold_t", "five_by_two_t", "corrected_resampled_t"):
        assert power.rejection_rate[name] > null.rejection_rate[name] + 0.2, name


@pytest.mark.parametrize(
    ("kwargs", "error", "match"),
    [
        ({"n_items": 20}, ValueError, r"`n_items` must be an integer >= 30"),
        ({"n_replications": 0}, ValueError, r"`n_replications`"),
        ({"alpha": 1.5}, ValueError, r"`alpha`"),
        ({"separation": 0.0}, ValueError, r"`separation` must be positive"),
        ({"correlation": 1.0}, ValueError, r"`correlation` must lie strictly between"),
        ({"advantage": -2.0}, ValueError, r"`separation \+ advantage`"),
        ({"advantage": "big"}, TypeError, r"`advantage` must be a finite real"),
        ({"rng": "seed"}, TypeError, r"`rng`"),
    ],
)
def test_rejection_rates_rejects_bad_input(kwargs, error, match):
    with pytest.raises(error, match=match):
        rejection_rates(**{"n_replications": 10, **kwargs})

"""sigeval.ranking: Friedman, Nemenyi, Holm vs control, rank stability, bootstrap ranks."""

import math
from itertools import combinations, permutations

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sigeval import (
    adjust_pvalues,
    bootstrap_ranks,
    cd_groups,
    friedman,
    holm_vs_control,
    nemenyi_cd,
    nemenyi_q,
    rank_stability,
    tasks_for_gap,
    wilcoxon_signed_rank,
)
from sigeval._validation import MAX_COUNT

# Demšar (2006), Table 6: AUC of C4.5 with four settings on fourteen UCI datasets.
DEMSAR_MODELS = ["C4.5", "C4.5+m", "C4.5+cf", "C4.5+m+cf"]
DEMSAR_DATASETS = [
    "adult (sample)", "breast cancer", "breast cancer wisconsin", "cmc", "ionosphere", "iris",
    "liver disorders", "lung cancer", "lymphography", "mushroom", "primary tumor", "rheum",
    "voting", "wine",
]
DEMSAR_AUC = np.array([
    [0.763, 0.768, 0.771, 0.798], [0.599, 0.591, 0.590, 0.569], [0.954, 0.971, 0.968, 0.967],
    [0.628, 0.661, 0.654, 0.657], [0.882, 0.888, 0.886, 0.898], [0.936, 0.931, 0.916, 0.931],
    [0.661, 0.668, 0.609, 0.685], [0.583, 0.583, 0.563, 0.625], [0.775, 0.838, 0.866, 0.875],
    [1.000, 1.000, 1.000, 1.000], [0.940, 0.962, 0.965, 0.962], [0.619, 0.666, 0.614, 0.669],
    [0.972, 0.981, 0.975, 0.975], [0.957, 0.978, 0.946, 0.970],
])

# Demšar (2006), Table 5(a): q_alpha of the Nemenyi test for k = 2..10.
TABLE5 = {
    0.05: [1.960, 2.343, 2.569, 2.728, 2.850, 2.949, 3.031, 3.102, 3.164],
    0.10: [1.645, 2.052, 2.291, 2.459, 2.589, 2.693, 2.780, 2.855, 2.920],
}


def demsar_frame():
    return pd.DataFrame(DEMSAR_AUC, index=DEMSAR_DATASETS, columns=DEMSAR_MODELS)


# --------------------------------------------------------------------------- Friedman


def test_demsar_table6_ranks_and_statistics():
    res = friedman(demsar_frame())
    # The ranks computed from the table (the paper prints 2.893 and 1.964 for the last two,
    # which needs C4.5+cf ahead of C4.5+m+cf on "voting", where both score 0.975).
    np.testing.assert_allclose(res.mean_ranks, [44 / 14, 28 / 14, 41 / 14, 27 / 14], rtol=1e-14)
    assert [round(r, 3) for r in res.mean_ranks] == [3.143, 2.000, 2.929, 1.929]
    assert res.models == tuple(DEMSAR_MODELS)
    n, k = 14, 4
    chi2 = 12 * n / (k * (k + 1)) * (np.sum(res.mean_ranks**2) - k * (k + 1) ** 2 / 4)
    assert res.statistic == pytest.approx(chi2, rel=1e-13)
    assert res.statistic == pytest.approx(69 / 7, rel=1e-12)  # 12*14/20 * (sum R^2 - 25) by hand
    f = (n - 1) * chi2 / (n * (k - 1) - chi2)
    assert res.statistic_f == pytest.approx(f, rel=1e-12)
    assert res.pvalue_f == pytest.approx(stats.f.sf(f, 3, 39), rel=1e-12)
    assert res.pvalue == pytest.approx(stats.chi2.sf(chi2, 3), rel=1e-12)
    assert (res.df, res.df_f, res.n_tasks, res.n_models) == (3, (3, 39), 14, 4)
    # Demšar's printed ranks give his chi2_F = 9.28 and F_F = 3.69 through the same formulas.
    printed = np.array([3.143, 2.000, 2.893, 1.964])
    chi2_paper = 12 * n / (k * (k + 1)) * (np.sum(printed**2) - k * (k + 1) ** 2 / 4)
    assert round(chi2_paper, 2) == 9.28
    assert round((n - 1) * chi2_paper / (n * (k - 1) - chi2_paper), 2) == 3.69


def test_friedman_matches_scipy_without_ties():
    rng = np.random.default_rng(0)
    for n, k in [(5, 3), (12, 4), (30, 6)]:
        x = rng.normal(size=(n, k)) + np.linspace(0, 1, k)
        res = friedman(x)
        ref = stats.friedmanchisquare(*x.T)
        assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
        assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-10)
        # Lower is better reverses the ranks, not the statistic.
        low = friedman(x, higher_is_better=False)
        np.testing.assert_allclose(low.mean_ranks, k + 1 - res.mean_ranks)
        assert low.statistic == pytest.approx(res.statistic)


def test_friedman_ties_average_ranks_and_no_tie_correction():
    x = np.array([[1.0, 1.0, 0.5], [0.9, 0.8, 0.8], [0.7, 0.6, 0.5]])
    res = friedman(x)
    np.testing.assert_allclose(res.ranks, [[1.5, 1.5, 3], [1, 2.5, 2.5], [1, 2, 3]])
    # scipy divides by a tie correction, so with ties it is larger.
    assert res.statistic < stats.friedmanchisquare(*x.T).statistic


def test_friedman_perfect_agreement_and_all_equal():
    x = np.tile([0.9, 0.8, 0.7], (6, 1)) + np.arange(6)[:, None] / 100
    res = friedman(x)
    assert res.statistic == pytest.approx(6 * 2)  # N(k - 1)
    assert res.statistic_f == math.inf and res.pvalue_f == 0.0
    flat = friedman(np.ones((4, 3)))
    assert flat.statistic == 0.0 and flat.pvalue == 1.0 and flat.pvalue_f == 1.0


@pytest.mark.parametrize(("n", "k"), [(200, 10), (3, 250)])
def test_friedman_perfect_agreement_is_infinite_f_despite_rounding(n, k):
    # On these sizes the computed chi2_F falls a hair (1e-13) below N(k - 1): still perfect agreement.
    res = friedman(np.tile(np.arange(k, 0, -1.0), (n, 1)))
    assert res.statistic == pytest.approx(n * (k - 1), rel=1e-14)
    assert res.statistic_f == math.inf and res.pvalue_f == 0.0


def test_friedman_smallest_tables_and_result_fields():
    # Two datasets are enough; the result says which direction was ranked.
    x = np.array([[0.9, 0.5, 0.7], [0.8, 0.6, 0.4]])
    res = friedman(x)
    np.testing.assert_array_equal(res.ranks, [[1, 3, 2], [1, 2, 3]])
    assert res.n_tasks == 2 and res.higher_is_better is True
    assert friedman(x, higher_is_better=False).higher_is_better is False


# --------------------------------------------------------------------------- Nemenyi


@pytest.mark.parametrize("alpha", [0.05, 0.10])
def test_nemenyi_q_matches_demsar_table5(alpha):
    q = np.array([nemenyi_q(k, alpha=alpha) for k in range(2, 11)])
    np.testing.assert_allclose(q, TABLE5[alpha], atol=1e-3)
    # Demšar divided a three-decimal studentized-range table by sqrt(2):
    # rounding Q to three decimals first reproduces his table exactly.
    from_rounded_table = np.round(np.round(q * np.sqrt(2), 3) / np.sqrt(2), 3)
    np.testing.assert_array_equal(from_rounded_table, TABLE5[alpha])
    assert nemenyi_q(2, alpha=alpha) == pytest.approx(stats.norm.isf(alpha / 2), rel=1e-6)


def test_nemenyi_cd_demsar_example():
    # CD = 2.569 * sqrt(4 * 5 / (6 * 14)) = 1.25 (Demšar, section 3.2.4).
    cd = nemenyi_cd(4, 14)
    assert cd == pytest.approx(nemenyi_q(4) * math.sqrt(20 / 84), rel=1e-14)
    assert round(cd, 2) == 1.25
    assert nemenyi_cd(4, 14, alpha=0.10) < cd


def test_tasks_for_gap_by_brute_force():
    assert tasks_for_gap(0.80, 4) == 35
    for k in (2, 3, 5, 8):
        for gap in (0.1, 0.37, 0.5, 1.0, k - 1):
            for alpha in (0.05, 0.1):
                n_brute = next(n for n in range(2, 100_000) if nemenyi_cd(k, n, alpha=alpha) <= gap)
                assert tasks_for_gap(gap, k, alpha=alpha) == n_brute, (gap, k, alpha)


@pytest.mark.parametrize("k", [2, 3, 4, 5])
@pytest.mark.parametrize("alpha", [0.05, 0.10, 0.30])
def test_tasks_for_gap_exactly_at_a_critical_difference(k, alpha):
    # A gap equal to CD(N) needs exactly N datasets, one a hair smaller N + 1: the closed form
    # rounds to either side of N (to 3 for CD(2) with k = 4 at alpha = 0.3), and the answer must not.
    for n in range(2, 60):
        cd = nemenyi_cd(k, n, alpha=alpha)
        if cd > k - 1:  # beyond the largest possible gap
            continue
        assert tasks_for_gap(cd, k, alpha=alpha) == n
        assert tasks_for_gap(np.nextafter(cd, 0), k, alpha=alpha) == n + 1


def test_tasks_for_gap_is_two_when_even_one_dataset_would_do():
    # At alpha = 0.9, q is 0.126 for k = 2 and CD(1) < 1: the answer is still the minimum of 2.
    assert nemenyi_cd(2, 2, alpha=0.9) < 1.0
    assert tasks_for_gap(1.0, 2, alpha=0.9) == 2


@pytest.mark.parametrize("k", [2, 3, 7])
def test_tasks_for_gap_at_the_largest_count(k):
    # The smallest gap accepted is CD(2**53); its answer is a count that float64 holds exactly.
    gap = nemenyi_cd(k, MAX_COUNT)
    n = tasks_for_gap(gap, k)
    assert n <= MAX_COUNT
    assert nemenyi_cd(k, n) <= gap < nemenyi_cd(k, n - 1)
    with pytest.raises(ValueError, match=r"`gap` = .* is too small: .* beyond 9,007,199,254,740,992 tasks"):
        tasks_for_gap(np.nextafter(gap, 0), k)


# --------------------------------------------------------------------------- CD groups


def _cd_groups_by_brute_force(ranks, cd):
    """Maximal sets of at least 2 models whose mean ranks all differ by less than ``cd``."""
    k = len(ranks)
    close = [set(s) for size in range(2, k + 1) for s in combinations(range(k), size)
             if max(ranks[j] for j in s) - min(ranks[j] for j in s) < cd]
    maximal = [s for s in close if not any(s < t for t in close)]
    groups = [tuple(sorted(s, key=lambda j: (ranks[j], j))) for s in maximal]
    return sorted(groups, key=lambda g: (ranks[g[0]], g[0]))


def test_cd_groups_demsar_example():
    ranks = friedman(demsar_frame()).mean_ranks
    assert cd_groups(ranks, nemenyi_cd(4, 14)) == [(3, 1, 2, 0)]
    # At alpha = 0.10 (CD = 1.118) C4.5+m+cf (3) is separated from C4.5 (0), and so is C4.5+m (1).
    assert cd_groups(ranks, nemenyi_cd(4, 14, alpha=0.10)) == [(3, 1, 2), (2, 0)]


def test_cd_groups_are_the_maximal_cliques_by_brute_force():
    # Ranks on a grid of halves, so that ties and differences of exactly the CD occur:
    # a difference equal to the CD separates.
    rng = np.random.default_rng(9)
    for _ in range(300):
        k = int(rng.integers(2, 8))
        ranks = rng.integers(2, 2 * k + 1, size=k) / 2
        cd = float(rng.choice([0.5, 1.0, 1.5, 2.5]))
        assert cd_groups(ranks, cd) == _cd_groups_by_brute_force(ranks.tolist(), cd), (ranks, cd)
    assert cd_groups([1.0, 2.0], 1.0) == [] and cd_groups([1.0, 1.5], 1.0) == [(0, 1)]


def test_cd_groups_list_tied_models_in_column_order():
    # Many ties: within a group, equal mean ranks keep the order of the columns.
    ranks = np.random.default_rng(10).integers(0, 4, size=40) / 2.0
    for group in cd_groups(ranks, 0.75):
        assert list(group) == sorted(group, key=lambda j: (ranks[j], j))


@pytest.mark.parametrize(
    ("args", "error", "match"),
    [
        (([[1.0, 2.0], [3.0, 4.0]], 1.0), ValueError,
         r"`mean_ranks` must be one-dimensional with at least 2 models; got shape \(2, 2\)"),
        (([1.0], 1.0), ValueError, r"`mean_ranks` must be one-dimensional .*got shape \(1,\)"),
        (([1.0, np.nan, 2.0], 1.0), ValueError, r"`mean_ranks` must be finite; got nan"),
        ((["a", "b"], 1.0), TypeError, r"`mean_ranks` must hold real numbers"),
        (([1.0, 2.0], 0.0), ValueError, r"`critical_difference` must be positive; got 0\.0"),
        (([1.0, 2.0], None), TypeError, r"`critical_difference` must be a real number"),
    ],
)
def test_cd_groups_rejects_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        cd_groups(*args)


# --------------------------------------------------------------------------- Holm vs control


def test_holm_vs_control_demsar_example():
    res = holm_vs_control(demsar_frame(), "C4.5")
    assert res.models == ("C4.5+m", "C4.5+cf", "C4.5+m+cf")
    se = math.sqrt(4 * 5 / (6 * 14))
    assert res.standard_error == pytest.approx(se)
    np.testing.assert_allclose(res.statistic, np.array([16, 3, 17]) / 14 / se, rtol=1e-13)
    np.testing.assert_allclose(res.pvalue, 2 * stats.norm.sf(res.statistic), rtol=1e-12)
    # Holm by hand: 0.0128 <= 0.05/3, 0.0192 <= 0.05/2, 0.66 > 0.05.
    assert res.pvalue[2] <= 0.05 / 3 and res.pvalue[0] <= 0.05 / 2 and res.pvalue[1] > 0.05
    np.testing.assert_array_equal(res.reject, [True, False, True])
    np.testing.assert_allclose(res.pvalue_holm, adjust_pvalues(res.pvalue, method="holm"))
    # The same by column index, on the plain array.
    by_index = holm_vs_control(DEMSAR_AUC, 0)
    assert by_index.models == (1, 2, 3)
    np.testing.assert_allclose(by_index.statistic, res.statistic)


def test_holm_vs_control_fields_and_column_index_of_a_dataframe():
    res = holm_vs_control(demsar_frame(), 0, alpha=0.10)
    assert res.control == "C4.5" and res.alpha == 0.10
    np.testing.assert_allclose(res.mean_rank_difference, np.array([16, 3, 17]) / 14, rtol=1e-13)
    np.testing.assert_allclose(res.statistic, holm_vs_control(demsar_frame(), "C4.5").statistic)
    # Integer column names are names, not positions.
    numbered = demsar_frame().set_axis([10, 20, 30, 40], axis=1)
    assert holm_vs_control(numbered, 20).control == 20
    for control in (0, True):
        with pytest.raises(ValueError, match=r"`control` must be one of the models \[10, 20, 30, 40\]"):
            holm_vs_control(numbered, control)
    with pytest.raises(ValueError, match=r"or a column index 0\.\.3\); got 4"):
        holm_vs_control(demsar_frame(), 4)
    with pytest.raises(ValueError, match=r"`control` must be one of the models"):
        holm_vs_control(demsar_frame(), True)


def test_holm_vs_control_lower_is_better_and_reject_at_alpha():
    errors = 1 - DEMSAR_AUC
    low = holm_vs_control(errors, 0, higher_is_better=False)
    np.testing.assert_allclose(low.statistic, holm_vs_control(DEMSAR_AUC, 0).statistic, rtol=1e-13)
    # Rejection is p_holm <= alpha: at alpha equal to an adjusted p-value, that test rejects.
    at = float(low.pvalue_holm[0])
    assert holm_vs_control(errors, 0, alpha=at, higher_is_better=False).reject[0]


def test_wilcoxon_over_datasets_demsar_example():
    # Demšar, section 3.1.3: C4.5+m vs C4.5, R+ = 93, R- = 12 (thousandths so ties are exact).
    auc = np.round(DEMSAR_AUC * 1000)
    res = wilcoxon_signed_rank(auc[:, 1], auc[:, 0])
    assert (res.r_plus, res.r_minus, res.statistic) == (93.0, 12.0, 12.0)


# --------------------------------------------------------------------------- rank stability


def test_rank_stability_certain_order():
    x = np.tile([0.9, 0.8, 0.7, 0.6], (12, 1)) + np.arange(12)[:, None] / 100
    res = rank_stability(x, n_resamples=500, rng=0)
    assert res.order_stability == 1.0
    cd = nemenyi_cd(4, 12)
    gaps = np.abs(np.subtract.outer(np.arange(4.0), np.arange(4.0)))
    np.testing.assert_array_equal(res.separation, (gaps >= cd).astype(float) * (gaps > 0))
    np.testing.assert_array_equal(res.jackknife, np.zeros((12, 4)))
    assert res.resampled_mean_ranks.shape == (500, 4)


def test_rank_stability_pure_noise():
    rng = np.random.default_rng(5)
    x = rng.normal(size=(10, 5))
    res = rank_stability(x, n_resamples=4000, rng=1)
    # 5! = 120 orders: a noise ranking is reproduced rarely, and pairs rarely separate.
    assert res.order_stability < 0.2
    assert res.separation.max() < 0.5
    np.testing.assert_allclose(res.separation, res.separation.T)
    # The resampled mean ranks centre on the observed ones.
    np.testing.assert_allclose(res.resampled_mean_ranks.mean(axis=0), res.mean_ranks, atol=0.05)


def test_rank_stability_jackknife_by_brute_force_and_seeded():
    x = demsar_frame()
    res = rank_stability(x, n_resamples=200, rng=3)
    full = friedman(x).mean_ranks
    for i in range(14):
        dropped = friedman(x.drop(index=x.index[i])).mean_ranks
        np.testing.assert_allclose(res.jackknife[i], dropped - full, atol=1e-14)
    again = rank_stability(x, n_resamples=200, rng=3)
    assert again.order_stability == res.order_stability
    # The resampled mean ranks are those of explicit index resamples with the same draws.
    idx = np.random.default_rng(3).integers(0, 14, size=(200, 14))
    ranks = friedman(x).ranks
    np.testing.assert_allclose(res.resampled_mean_ranks, ranks[idx].mean(axis=1), atol=1e-12)
    sep = np.mean(np.abs(ranks[idx].mean(axis=1)[:, 0] - ranks[idx].mean(axis=1)[:, 3])
                  >= nemenyi_cd(4, 14))
    assert res.separation[0, 3] == pytest.approx(sep)


def test_order_stability_counts_every_pair():
    # Observed order is 0 < 1 < 2 in rank; count by brute force over permutations.
    x = np.random.default_rng(8).normal(size=(8, 3)) + [1.0, 0.5, 0.0]
    res = rank_stability(x, n_resamples=1000, rng=2)
    observed = np.argsort(res.mean_ranks)
    orders = np.argsort(res.resampled_mean_ranks, axis=1, kind="stable")
    ties = np.any(np.diff(np.sort(res.resampled_mean_ranks, axis=1), axis=1) < 1e-12, axis=1)
    assert res.order_stability == pytest.approx(np.mean(np.all(orders == observed, axis=1) & ~ties))
    assert len(list(permutations(range(3)))) == 6


# --------------------------------------------------------------------------- bootstrap ranks


def test_bootstrap_ranks_mean_matches_index_bootstrap():
    rng = np.random.default_rng(0)
    correct = (rng.random((400, 4)) < [0.80, 0.78, 0.70, 0.60]).astype(float)
    res = bootstrap_ranks(correct, n_resamples=3000, rng=7)
    np.testing.assert_allclose(res.estimate, correct.mean(axis=0))
    assert res.leader == 0 and res.rank.tolist() == [1, 2, 3, 4]
    # Same draws as an explicit index bootstrap.
    idx = np.random.default_rng(7).integers(0, 400, size=(3000, 400))
    metrics = correct[idx].mean(axis=1)
    ranks = 1 + (metrics[:, None, :] > metrics[:, :, None]).sum(axis=2)
    np.testing.assert_array_equal(res.rank_distribution, ranks)
    d = metrics[:, [0]] - metrics
    np.testing.assert_allclose(res.difference_interval.low, np.percentile(d, 2.5, axis=0))
    p = np.minimum(1, 2 * np.minimum((d <= 0).mean(0), (d >= 0).mean(0)))
    p[0] = 1
    np.testing.assert_allclose(res.pvalue, p)
    np.testing.assert_allclose(res.pvalue_holm[1:], adjust_pvalues(p[1:], method="holm"))
    assert res.indistinguishable.tolist() == [True, True, False, False]
    assert res.rank_interval.low[0] == 1 and res.rank_interval.high[3] == 4
    assert np.all(res.rank_interval.low <= res.rank) and np.all(res.rank <= res.rank_interval.high)


def test_bootstrap_ranks_callable_with_dataframe_names():
    rng = np.random.default_rng(1)
    n = 300
    y = rng.random(n) < 0.5
    preds = {"good": y ^ (rng.random(n) < 0.1), "bad": y ^ (rng.random(n) < 0.4)}

    def accuracy(pred, truth, axis):
        return (pred == truth).mean(axis=axis)

    data = {name: (p, y) for name, p in preds.items()}
    res = bootstrap_ranks(data, statistic=accuracy, n_resamples=500, rng=0)
    assert res.models == ("good", "bad") and res.leader == "good"
    assert res.indistinguishable.tolist() == [True, False]
    as_mean = bootstrap_ranks(pd.DataFrame({k: (v == y).astype(float) for k, v in preds.items()}),
                              n_resamples=500, rng=0)
    np.testing.assert_allclose(as_mean.estimate, res.estimate)


# --------------------------------------------------------------------------- bad input


@pytest.mark.parametrize("fn", [friedman, lambda x: rank_stability(x, n_resamples=10, rng=0),
                                lambda x: holm_vs_control(x, 0), bootstrap_ranks])
def test_bad_tables(fn):
    with pytest.raises(ValueError, match=r"`scores` must hold at least 2 models \(columns\); got 1"):
        fn(np.ones((5, 1)))
    with pytest.raises(TypeError, match="`scores` must be given as numbers; got None"):
        fn(None)
    with pytest.raises(ValueError, match="two-dimensional"):
        fn(pd.Series([0.1, 0.2, 0.3]))
    with pytest.raises(ValueError, match="at least 2 (tasks|items)"):
        fn(np.ones((1, 4)))
    with pytest.raises(ValueError, match="two-dimensional"):
        fn(np.ones(4))
    with pytest.raises(ValueError, match=r"NaN .*\((task|item) 'cmc', model 'C4\.5\+cf'\)"):
        bad = demsar_frame()
        bad.iloc[3, 2] = np.nan
        fn(bad)
    with pytest.raises(TypeError, match="must hold numbers"):
        fn(np.array([["a", "b"], ["c", "d"]]))


def test_bad_arguments():
    with pytest.raises(ValueError, match="`control` must be one of the models"):
        holm_vs_control(demsar_frame(), "C5.0")
    with pytest.raises(ValueError, match="`control` must be one of the models"):
        holm_vs_control(DEMSAR_AUC, 4)
    for alpha in (0.0, 1.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="`alpha`"):
            nemenyi_cd(4, 14, alpha=alpha)
        with pytest.raises(ValueError, match="`alpha`"):
            holm_vs_control(DEMSAR_AUC, 0, alpha=alpha)
        with pytest.raises(ValueError, match="`alpha`"):
            rank_stability(DEMSAR_AUC, alpha=alpha)
        with pytest.raises(ValueError, match="`alpha`"):
            tasks_for_gap(0.5, 4, alpha=alpha)
    with pytest.raises(ValueError, match="`n_models`"):
        nemenyi_cd(1, 14)
    with pytest.raises(ValueError, match="`n_tasks`"):
        nemenyi_cd(4, 1)
    with pytest.raises(ValueError, match=r"`gap` cannot exceed k - 1 = 3, the largest difference of mean ranks "
                                          r"among 4 models; got 3\.5"):
        tasks_for_gap(3.5, 4)
    with pytest.raises(ValueError, match="`gap`"):
        tasks_for_gap(0.0, 4)
    with pytest.raises(TypeError, match="`higher_is_better`"):
        friedman(DEMSAR_AUC, higher_is_better="yes")
    with pytest.raises(ValueError, match="`alpha`"):
        bootstrap_ranks(DEMSAR_AUC, alpha=1.0)
    with pytest.raises(ValueError, match="`statistic`"):
        bootstrap_ranks(DEMSAR_AUC, statistic="median")
    with pytest.raises(ValueError, match="share axis 0"):
        bootstrap_ranks([np.ones(5), np.ones(6)], statistic=np.mean)
    with pytest.raises(ValueError, match="one value per resample"):
        bootstrap_ranks([np.ones(5), np.ones(5)], statistic=lambda x, axis: x.mean(), n_resamples=5)


def test_bootstrap_ranks_with_average_precision():
    from sigeval import average_precision

    rng = np.random.default_rng(4)
    n, d = 60, 3
    npos = np.full(n, d)
    data = {}
    for name, skill in (("sharp", 1.5), ("blurry", 0.2)):
        tp = rng.random((n, d)) < 0.6
        scores = rng.random((n, d)) + skill * tp
        data[name] = (scores, tp, npos)  # one object per detection slot at most
    res = bootstrap_ranks(data, statistic=average_precision, n_resamples=300, rng=0)
    for j, (scores, tp, pos) in enumerate(data.values()):
        assert res.estimate[j] == pytest.approx(average_precision(scores, tp, pos))
    assert res.leader == "sharp" and res.rank_distribution.shape == (300, 2)


def test_nan_scores_are_located_in_the_message():
    x = np.full((6, 3), 0.5) + np.arange(3) / 10
    x[1, 2] = np.nan
    with pytest.raises(ValueError, match=r"holds 1 NaN or infinite score\(s\) \(a failed run\?\) at "
                                          r"\(task 1, model 2\); a rank needs every model"):
        friedman(x)
    x[[0, 4], [1, 0]] = np.inf
    with pytest.raises(ValueError, match=r"at \(task 0, model 1\), \(task 1, model 2\), "
                                          r"\(task 4, model 0\); a rank"):
        friedman(x)
    x[5, :] = np.nan
    # Three cells are shown, then how many there are.
    with pytest.raises(ValueError, match=r"holds 6 NaN .*\(task 4, model 0\), \.\.\. \(6 cells\); a rank"):
        friedman(x)
    x[5, 1:] = 0.5
    with pytest.raises(ValueError, match=r"holds 4 NaN .*\(task 4, model 0\), \.\.\. \(4 cells\); a rank"):
        friedman(x)

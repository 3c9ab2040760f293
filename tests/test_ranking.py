"""sigeval.ranking: Friedman, Nemenyi, Holm vs control, rank stability, bootstrap ranks."""

import math
from itertools import combinations, permutations
from itertools import product as itertools_product

import numpy as np
import pandas as pd
import pytest
from scipy import stats

from sigeval import _pairwise_ranks as pairwise_module
from sigeval import (
    adjust_pvalues,
    bootstrap_ranks,
    cd_groups,
    friedman,
    holm_vs_control,
    nemenyi_cd,
    nemenyi_q,
    pairwise_wilcoxon,
    rank_stability,
    sign_test,
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
    res = friedman(demsar_frame(), ties="ignore")
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


def test_friedman_ties_average_ranks_and_the_tie_correction():
    x = np.array([[1.0, 1.0, 0.5], [0.9, 0.8, 0.8], [0.7, 0.6, 0.5]])
    res = friedman(x)
    np.testing.assert_allclose(res.ranks, [[1.5, 1.5, 3], [1, 2.5, 2.5], [1, 2, 3]])
    # By default it divides by the tie correction, as scipy does; Demšar's formula does not.
    ref = stats.friedmanchisquare(*x.T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    assert res.tie_correction == pytest.approx(1 - 12 / (3 * 24))  # two pairs: 2 * (8 - 2) / (N (k^3 - k))
    plain = friedman(x, ties="ignore")
    assert plain.statistic == pytest.approx(res.statistic * res.tie_correction, rel=1e-12)
    assert plain.statistic < res.statistic and plain.ties == "ignore" and res.ties == "correct"


def test_friedman_tie_correction_matches_scipy_on_demsar_table6():
    res = friedman(DEMSAR_AUC)
    ref = stats.friedmanchisquare(*DEMSAR_AUC.T)
    assert res.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert res.pvalue == pytest.approx(ref.pvalue, rel=1e-12)
    # Ties on five tasks, by hand from the table.
    t = [2, 2, 4, 2, 2]  # iris, lung cancer, mushroom (all four), primary tumor, voting
    assert res.tie_correction == pytest.approx(1 - sum(v**3 - v for v in t) / (14 * 60), rel=1e-12)
    # Random tables with many ties.
    rng = np.random.default_rng(3)
    for n, k in [(6, 3), (15, 5), (40, 4)]:
        x = rng.integers(0, 3, size=(n, k)).astype(float)
        ref = stats.friedmanchisquare(*x.T)
        assert friedman(x).statistic == pytest.approx(ref.statistic, rel=1e-12)


def _brute_force_friedman_p(x):
    # Every combination of one arrangement per task, each arrangement of a task's ranks equally likely.
    ranks = stats.rankdata(-x, axis=1)
    observed = np.sum(ranks.sum(axis=0) ** 2)
    rows = [list(permutations(r)) for r in ranks]
    count = total = 0
    for combo in itertools_product(*rows):
        total += 1
        count += np.sum(np.sum(combo, axis=0) ** 2) >= observed - 1e-9
    return count / total


@pytest.mark.parametrize(("n", "k", "ties"), [(4, 3, False), (5, 3, True), (3, 4, True), (2, 5, False)])
def test_friedman_exact_by_brute_force(n, k, ties):
    rng = np.random.default_rng(n * 10 + k)
    x = rng.integers(0, 3, size=(n, k)).astype(float) if ties else rng.normal(size=(n, k))
    res = friedman(x, method="exact")
    assert res.method == "exact" and res.monte_carlo_standard_error is None
    assert res.pvalue == pytest.approx(_brute_force_friedman_p(x), rel=1e-12)
    # The tie correction is constant under the permutations: the same exact p either way.
    assert friedman(x, method="exact", ties="ignore").pvalue == pytest.approx(res.pvalue, rel=1e-12)
    assert res.statistic == friedman(x).statistic  # only the p-value changes


@pytest.mark.parametrize(("n", "k", "method"), [(20, 4, "exact"), (21, 4, "monte-carlo"),
                                                 (211, 3, "exact"), (212, 3, "monte-carlo")])
def test_friedman_exact_enumerates_up_to_the_sizes_its_docstring_gives(n, k, method):
    # The docstring's limits (k = 4 up to 20 tasks, k = 3 up to 211), from the cell and work budgets.
    span = 2 * k - 2
    cells = (n * span + 1) ** (k - 1)
    work = sum((i * span + 1) ** (k - 1) for i in range(n)) * math.factorial(k)
    import sigeval.ranking as ranking
    assert (cells <= ranking.EXACT_MAX_CELLS and work <= ranking.EXACT_MAX_WORK) == (method == "exact")
    if method == "monte-carlo":  # the enumeration itself is tested on smaller tables; this one only routes
        scores = np.random.default_rng(n).normal(size=(n, k))
        assert friedman(scores, method="exact", n_resamples=50, rng=0).method == method


def test_friedman_exact_large_and_monte_carlo():
    # Many tasks: the exact p approaches the chi-square approximation.
    rng = np.random.default_rng(5)
    x = rng.normal(size=(80, 3)) + np.array([0.0, 0.1, 0.2])
    exact = friedman(x, method="exact")
    assert exact.method == "exact"
    assert exact.pvalue == pytest.approx(friedman(x).pvalue, abs=0.03)
    # Too large to enumerate: Monte Carlo, seeded, within 3 of its standard errors of the exact p.
    y = rng.normal(size=(10, 6)) + np.linspace(0, 0.8, 6)
    mc = friedman(y, method="exact", n_resamples=20_000, rng=1)
    assert mc.method == "monte-carlo" and mc.monte_carlo_standard_error > 0
    assert mc.pvalue == friedman(y, method="exact", n_resamples=20_000, rng=1).pvalue
    assert mc.monte_carlo_standard_error == pytest.approx(math.sqrt(mc.pvalue * (1 - mc.pvalue) / 20_000))
    small = rng.normal(size=(8, 4))
    exact = friedman(small, method="exact").pvalue
    # Force the Monte Carlo path on a table that can be enumerated, to compare the two.
    import sigeval.ranking as ranking
    cells = ranking.EXACT_MAX_CELLS
    try:
        ranking.EXACT_MAX_CELLS = 0
        mc = friedman(small, method="exact", n_resamples=20_000, rng=2)
    finally:
        ranking.EXACT_MAX_CELLS = cells
    assert mc.method == "monte-carlo"
    assert abs(mc.pvalue - exact) < 3 * mc.monte_carlo_standard_error + 1 / 20_001


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


def test_nemenyi_controls_the_family_wise_error_only_weakly():
    # Four models: A and B interchangeable specialists (first on the tasks that suit them, half at
    # random, last on the others), C and D always in between. A and B perform alike, but their rank
    # difference per task is +-3 (variance 9, where the CD assumes k(k+1)/6 = 10/3), so the CD
    # separates them with probability P(3 |2X - N| / N >= CD), X ~ Binomial(N, 1/2).
    def exact(n):
        wins = np.arange(n + 1)
        return stats.binom.pmf(wins, n, 0.5)[3 * np.abs(2 * wins - n) / n >= nemenyi_cd(4, n)].sum()

    assert exact(14) == pytest.approx(2 * (1001 + 364 + 91 + 14 + 1) / 2**14)   # X <= 4 or X >= 10
    assert round(exact(14), 2) == 0.18
    limit = 2 * stats.norm.sf(nemenyi_q(4) * math.sqrt(10 / 3) / 3)
    assert round(limit, 2) == 0.12 and all(exact(n) > 0.1 for n in (50, 200, 1000, 5000))
    # The same through friedman's mean ranks of simulated score tables (seeded).
    rng = np.random.default_rng(6)
    n_tables, separated = 1000, 0
    for _ in range(n_tables):
        suits_a = np.where(rng.random(14) < 0.5, 1.0, -1.0)
        table = np.column_stack([suits_a, -suits_a, 0.1 * rng.standard_normal(14), 0.1 * rng.standard_normal(14)])
        ranks = friedman(table, ties="ignore").mean_ranks
        separated += abs(ranks[0] - ranks[1]) >= nemenyi_cd(4, 14)
    assert abs(separated / n_tables - exact(14)) < 3 * math.sqrt(exact(14) * (1 - exact(14)) / n_tables)


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


def test_tasks_for_gap_falls_short_when_the_pair_swings_between_the_extremes():
    # The planned N assumes the null's spread of a mean-rank gap, sqrt(k(k+1)/(6N)). Three models, the
    # third always second, the pair ranked (1, 3) with probability 0.6 and (3, 1) otherwise: the per-task
    # rank difference is +-2, expected gap 0.4, variance 4 - 0.16 = 3.84 in closed form against the
    # null's k(k+1)/6 = 2, so the power at the planned N is below the target.
    k, gap, target = 3, 0.4, 0.8
    n = tasks_for_gap(gap, k, target_power=target)
    sd_ratio = math.sqrt((4 - gap**2) / (k * (k + 1) / 6))
    assert sd_ratio == pytest.approx(1.3856, abs=1e-4)
    # The exact power: the gap is 2 (2 W - n) / n with W ~ Binomial(n, 0.6) the tasks where the pair is (1, 3).
    w_needed = math.ceil((nemenyi_cd(k, n) * n / 2 + n) / 2 - 1e-12)
    power = stats.binom.sf(w_needed - 1, n, 0.6)
    normal = stats.norm.sf((nemenyi_cd(k, n) - gap) / (sd_ratio * math.sqrt(k * (k + 1) / (6 * n))))
    assert power == pytest.approx(normal, abs=0.03)
    assert 0.70 < power < target - 0.03


def test_tasks_for_gap_reaches_its_target_power_by_simulation():
    # Normal scores whose expected mean ranks differ by 0.8 between the extremes (delta found by
    # bisection on 400,000 simulated tasks: 0.727); the Nemenyi test of that pair at the planned N.
    rng = np.random.default_rng(11)
    k, delta = 4, 0.727
    mu = delta * np.array([1.0, 2 / 3, 1 / 3, 0.0])
    assert stats.rankdata(-(mu + rng.standard_normal((100_000, k))), axis=1).mean(axis=0)[[0, 3]] @ [-1, 1] \
        == pytest.approx(0.8, abs=0.01)
    for target in (0.8, 0.9):
        n = tasks_for_gap(0.8, k, target_power=target)
        reps = 4000
        powers = []
        for tasks in (n, n - 8):
            r = stats.rankdata(-(mu + rng.standard_normal((reps, tasks, k))), axis=2).mean(axis=1)
            powers.append(np.mean(r[:, 3] - r[:, 0] >= nemenyi_cd(k, tasks)))
        se = math.sqrt(target * (1 - target) / reps)
        assert powers[0] >= target - 2 * se  # reached at the planned N
        assert powers[1] < target            # and not with eight tasks fewer
    # Without a target: the N at which the gap equals the CD, about 50% power for a true gap.
    assert tasks_for_gap(0.8, k) == tasks_for_gap(0.8, k, target_power=0.5) == 35
    assert tasks_for_gap(0.8, k, target_power=0.01) == 3  # a power below what any design that can separate has
    assert tasks_for_gap(0.8, k, target_power=0.8) == 61
    with pytest.raises(ValueError, match="`target_power`"):
        tasks_for_gap(0.8, k, target_power=1.0)


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
        (([1.0, 2.0], "1"), TypeError, r"`critical_difference` must be a real number"),
        (([1.0, 2.0], None), ValueError, r"Give exactly one of `critical_difference` .* and `reject`"),
        (([1.0, 2.0], 1.0, np.zeros((2, 2), bool)), ValueError, r"Give exactly one"),
        (([1.0, 2.0], None, np.zeros((3, 3), bool)), ValueError, r"`reject` must be a \(2, 2\) matrix"),
        (([1.0, 2.0], None, np.zeros((2, 2))), TypeError, r"`reject` must be a boolean matrix"),
    ],
)
def test_cd_groups_rejects_bad_input(args, error, match):
    with pytest.raises(error, match=match):
        cd_groups(*args[:2], reject=args[2] if len(args) > 2 else None)


def test_cd_groups_from_pairwise_decisions():
    ranks = [1.0, 2.0, 3.0, 4.0]
    none = np.zeros((4, 4), bool)
    assert cd_groups(ranks, reject=none) == [(0, 1, 2, 3)]
    assert cd_groups(ranks, reject=~np.eye(4, dtype=bool)) == []
    # Only the extremes separated (one triangle given): two overlapping runs.
    only = none.copy()
    only[3, 0] = True
    assert cd_groups(ranks, reject=only) == [(0, 1, 2), (1, 2, 3)]
    # A decision that contradicts the order (1 and 3 separated, 1 and 4 not): runs stay consecutive.
    odd = none.copy()
    odd[0, 2] = True
    assert cd_groups(ranks, reject=odd) == [(0, 1), (1, 2, 3)]
    # The rank order, not the column order, decides what is consecutive.
    assert cd_groups([4.0, 1.0, 3.0, 2.0], reject=none) == [(1, 3, 2, 0)]
    # A Nemenyi CD and its decisions give the same groups.
    r = np.array([3.143, 2.000, 2.929, 1.929])
    for cd in (1.254, 1.118, 0.5, 0.2):
        separated = np.abs(r[:, None] - r[None, :]) >= cd
        assert cd_groups(r, reject=separated) == cd_groups(r, cd)


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


def _holm_by_hand(p):
    m = len(p)
    order = np.argsort(p)
    adjusted = np.empty(m)
    running = 0.0
    for i, j in enumerate(order):
        running = max(running, min(1.0, (m - i) * p[j]))
        adjusted[j] = running
    return adjusted


def test_pairwise_wilcoxon_matches_scipy_and_a_hand_written_holm():
    rng = np.random.default_rng(4)
    for table in (demsar_frame(), pd.DataFrame(rng.normal(size=(20, 5)) + np.linspace(0, 1, 5))):
        pw = pairwise_wilcoxon(table)
        models = list(table.columns)
        assert list(zip(pw.model_a, pw.model_b)) == list(combinations(models, 2))
        x = table.to_numpy()
        p = np.array([stats.wilcoxon(x[:, models.index(a)], x[:, models.index(b)], zero_method="zsplit").pvalue
                      for a, b in zip(pw.model_a, pw.model_b)])
        np.testing.assert_allclose(pw.pvalue, p, rtol=1e-12)
        np.testing.assert_allclose(pw.pvalue_adjusted, _holm_by_hand(p), rtol=1e-12)
        bonferroni = pairwise_wilcoxon(table, correction="bonferroni")
        np.testing.assert_allclose(bonferroni.pvalue_adjusted, np.minimum(1, len(p) * p), rtol=1e-12)
        np.testing.assert_allclose(pairwise_wilcoxon(table, correction="none").pvalue_adjusted, p)
    # Demšar's pair: C4.5+m against C4.5, in thousandths so that equal differences tie.
    milli = (demsar_frame() * 1000).round()
    pw = pairwise_wilcoxon(milli).set_index(["model_a", "model_b"])
    row = pw.loc[("C4.5", "C4.5+m")]
    assert (row.r_plus, row.r_minus, row.statistic, row.better) == (12.0, 93.0, 12.0, "C4.5+m")
    # Lower is better changes only which model is better.
    low = pairwise_wilcoxon(-milli, higher_is_better=False).set_index(["model_a", "model_b"])
    assert low.loc[("C4.5", "C4.5+m"), "better"] == "C4.5+m"
    np.testing.assert_allclose(low.pvalue, pw.pvalue)
    with pytest.raises(ValueError, match="`correction` must be one of"):
        pairwise_wilcoxon(milli, correction="tukey")
    with pytest.warns(UserWarning, match="zero"):
        tied = pairwise_wilcoxon(np.array([[1.0, 1.0, 0.0], [2.0, 2.0, 1.0], [3.0, 3.0, 5.0]]))
    assert tied.better[0] is None and tied.pvalue[0] == 1.0


def test_wilcoxon_over_datasets_demsar_example():
    # Demšar, section 3.1.3: C4.5+m vs C4.5, R+ = 93, R- = 12 (thousandths so ties are exact).
    auc = np.round(DEMSAR_AUC * 1000)
    res = wilcoxon_signed_rank(auc[:, 1], auc[:, 0])
    assert (res.r_plus, res.r_minus, res.statistic) == (93.0, 12.0, 12.0)


# --------------------------------------------------------------------------- sign test


def _enumerated_sign_pvalue(k, n, alternative):
    """The sign test's p-value by counting all 2**n equally likely win/loss patterns (no scipy)."""
    wins = np.array([bin(pattern).count("1") for pattern in range(2**n)])
    if alternative == "greater":
        return np.mean(wins >= k)
    if alternative == "less":
        return np.mean(wins <= k)
    return min(1.0, np.mean(np.abs(wins - n / 2) >= abs(k - n / 2) - 1e-12))


def _enumerated_conditional_pvalue(plus, minus, half_ties, alternative):
    """The p-value of Demšar's split count k = plus + half_ties given the ties, by brute force.

    Under the null the tied tasks stay tied and each of the plus + minus untied tasks is won by A with
    probability 1/2: enumerate their 2**(plus + minus) win/loss patterns, build the split count of each,
    and measure its tail around the centre of the n = plus + minus + 2 half_ties counted tasks.
    """
    untied = plus + minus
    counts = np.array([bin(pattern).count("1") for pattern in range(2**untied)]) + half_ties
    observed, centre = plus + half_ties, (untied + 2 * half_ties) / 2
    if alternative == "greater":
        return np.mean(counts >= observed)
    if alternative == "less":
        return np.mean(counts <= observed)
    return min(1.0, np.mean(np.abs(counts - centre) >= abs(observed - centre) - 1e-12))


def test_sign_test_demsar_example():
    # Demšar, section 3.1.4: C4.5+m better on 10 datasets, worse on 2, tied on 2 ->
    # "11 out of 14 (counting also one of the two data sets on which [they] were tied)".
    auc = np.round(DEMSAR_AUC * 1000)
    res = sign_test(auc[:, 1], auc[:, 0])
    assert (res.n_positive, res.n_negative, res.n_zero, res.statistic, res.n) == (10, 2, 2, 11.0, 14)
    assert res.pvalue == stats.binomtest(11, 14, 0.5).pvalue
    # 2 * (C(14,11) + C(14,12) + C(14,13) + C(14,14)) / 2**14 = 940 / 16384: above 0.05, although
    # Demšar's Table 3 lists 11 wins as enough at N = 14 (the exact two-sided test needs 12).
    assert res.pvalue == 940 / 16384 and res.pvalue > 0.05
    assert stats.binomtest(12, 14, 0.5).pvalue <= 0.05
    # Given the two ties the split count is 1 + Binomial(12, 1/2): the exact p-value of 11 is
    # P(|wins of 12 - 6| >= 4) = 2 * (C(12,10) + C(12,11) + C(12,12)) / 2**12 = 158 / 4096, below 0.05.
    assert res.pvalue_conditional == pytest.approx(158 / 4096, abs=1e-15) and res.pvalue_conditional < 0.05
    assert res.pvalue_conditional == sign_test(auc[:, 1], auc[:, 0], zero_method="wilcox").pvalue
    assert isinstance(res.statistic, float) and isinstance(res.n, int)
    assert (res.zero_method, res.alternative) == ("zsplit", "two-sided")


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox"])
def test_sign_test_matches_binomtest_and_an_enumeration(alternative, zero_method):
    rng = np.random.default_rng(37)
    for _ in range(40):
        n_tasks = int(rng.integers(1, 13))
        a = rng.integers(0, 4, n_tasks).astype(float)   # few values: many ties
        b = rng.integers(0, 4, n_tasks).astype(float)
        signs = [(x > y) - (x < y) for x, y in zip(a.tolist(), b.tolist())]   # counted one by one
        plus, minus, zero = signs.count(1), signs.count(-1), signs.count(0)
        if plus + minus == 0:
            continue
        kept = zero - zero % 2 if zero_method == "zsplit" else 0
        k, n = plus + kept // 2, plus + minus + kept
        res = sign_test(a, b, alternative=alternative, zero_method=zero_method)
        assert (res.n_positive, res.n_negative, res.n_zero, res.statistic, res.n) == (plus, minus, zero, k, n)
        assert res.pvalue == stats.binomtest(k, n, 0.5, alternative=alternative).pvalue
        assert res.pvalue == pytest.approx(_enumerated_sign_pvalue(k, n, alternative), abs=1e-12)
        conditional = _enumerated_conditional_pvalue(plus, minus, kept // 2, alternative)
        assert res.pvalue_conditional == pytest.approx(conditional, abs=1e-12)
        assert res.pvalue_conditional == stats.binomtest(plus, plus + minus, 0.5, alternative=alternative).pvalue
        if zero_method == "wilcox":
            assert res.pvalue_conditional == res.pvalue


def test_sign_test_odd_ties_ignore_one_and_wilcox_drops_them():
    a = [3.0, 2.0, 2.0, 2.0, 5.0, 1.0]
    b = [1.0, 2.0, 2.0, 2.0, 4.0, 0.0]   # A wins 3, three ties
    split = sign_test(a, b)
    assert (split.statistic, split.n, split.n_zero) == (4.0, 5, 3)   # one tie to each, one ignored
    drop = sign_test(a, b, zero_method="wilcox")
    assert (drop.statistic, drop.n) == (3.0, 3)
    assert drop.pvalue == stats.binomtest(3, 3).pvalue == 0.25
    # Splitting the ties pulls the count towards n/2: never a smaller two-sided p-value here.
    assert split.pvalue >= drop.pvalue


def test_sign_test_is_antisymmetric():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=15), rng.normal(size=15)
    ab, ba = sign_test(a, b), sign_test(b, a)
    assert ab.statistic + ba.statistic == ab.n == ba.n
    assert ab.pvalue == ba.pvalue
    assert sign_test(a, b, alternative="greater").pvalue == sign_test(b, a, alternative="less").pvalue


@pytest.mark.parametrize("alternative", ["two-sided", "greater"])
def test_sign_test_split_ties_are_conservative_given_the_ties(alternative):
    # Demšar's split count refers plus + m to Binomial(plus + minus + 2m, 1/2), wider than its null
    # distribution m + Binomial(plus + minus, 1/2) given the ties: its p-value is never below the exact
    # conditional one (one-sided: whenever that is at most 1/2), and its size given the ties is at most alpha.
    for untied in range(1, 21):
        wins = np.arange(untied + 1)
        pmf = stats.binom.pmf(wins, untied, 0.5)
        for ties in range(0, 7):
            results = [sign_test([1.0] * w + [0.0] * (untied - w) + [0.5] * ties,
                                 [0.5] * (untied + ties), alternative=alternative) for w in wins]
            split = np.array([r.pvalue for r in results])
            exact = np.array([r.pvalue_conditional for r in results])
            relevant = exact <= 0.5 if alternative == "greater" else np.ones_like(exact, dtype=bool)
            assert np.all(split[relevant] >= exact[relevant] - 1e-12)
            for alpha in (0.01, 0.05, 0.10):
                assert pmf[split <= alpha].sum() <= alpha + 1e-12
                assert pmf[exact <= alpha].sum() <= alpha + 1e-12


def test_sign_test_holds_its_level_exactly():
    # The size at alpha: the probability under the null of a count whose p-value is <= alpha.
    for n in range(1, 40):
        pmf = stats.binom.pmf(np.arange(n + 1), n, 0.5)
        size = sum(pmf[k] for k in range(n + 1) if sign_test([1.0] * k + [0.0] * (n - k), [0.5] * n).pvalue <= 0.05)
        assert size <= 0.05 + 1e-12


def test_sign_test_without_information_warns_and_gives_one():
    with pytest.warns(UserWarning, match="no information"):
        res = sign_test([0.7, 0.8, 0.9], [0.7, 0.8, 0.9])
    assert (res.pvalue, res.statistic, res.n) == (1.0, 1.0, 2)   # three ties: one to each, one ignored
    assert res.pvalue_conditional == 1.0
    with pytest.warns(UserWarning, match="no information"):
        assert sign_test([0.5], [0.5]).n == 0
    with pytest.warns(UserWarning, match="no information"):
        assert sign_test([0.5, 0.5], [0.5, 0.5], zero_method="wilcox").pvalue == 1.0


def test_sign_test_compares_extreme_scores_without_overflow():
    res = sign_test([1.7e308, -1.7e308, 1.0], [-1.7e308, 1.7e308, 0.0])
    assert (res.n_positive, res.n_negative) == (2, 1)


@pytest.mark.parametrize(
    "kwargs, match",
    [
        (dict(scores_a=[0.1, np.nan], scores_b=[0.2, 0.3]), "`scores_a`"),
        (dict(scores_a=[0.1, 0.2], scores_b=[0.2]), "same length"),
        (dict(scores_a=[], scores_b=[]), "`scores_a`"),
        (dict(scores_a=[0.1], scores_b=[0.2], alternative="bigger"), "`alternative`"),
        (dict(scores_a=[0.1], scores_b=[0.2], zero_method="pratt"), "`zero_method`"),
    ],
)
def test_sign_test_refuses_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        sign_test(**kwargs)


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


def test_nemenyi_q_refuses_a_level_whose_quantile_is_infinite():
    # 1 - 1e-300 rounds to 1: nemenyi_q and nemenyi_cd returned inf without a word. The one rule for alpha
    # (at least 1e-12) keeps the quantile finite, for any number of models.
    for n_models in (2, 3, 100, 10**5):
        assert math.isfinite(nemenyi_q(n_models, alpha=1e-12))
    with pytest.raises(ValueError, match=r"^`alpha` must be at least 1e-12; got 1e-300\.$"):
        nemenyi_q(3, alpha=1e-300)
    with pytest.raises(ValueError, match=r"^`alpha` must be at least 1e-12; got 1e-17\.$"):
        nemenyi_cd(4, 14, alpha=1e-17)


# --------------------------------------------------------------------------- details the mutants found


def test_cd_groups_says_which_decisions_it_got():
    start = r"^Give exactly one of `critical_difference` \(the Nemenyi test\) and `reject` \(pairwise decisions\); "
    with pytest.raises(ValueError, match=start + r"got critical_difference=None and reject=None\.$"):
        cd_groups([1.0, 2.0])
    with pytest.raises(ValueError, match=start + r"got critical_difference=1\.0 and reject=a matrix\.$"):
        cd_groups([1.0, 2.0], 1.0, reject=np.zeros((2, 2), bool))


def test_friedman_names_n_resamples_and_its_memory():
    with pytest.raises(ValueError, match=r"^`n_resamples` must be an integer >= 1; got 0\.$"):
        friedman(DEMSAR_AUC, n_resamples=0)
    # Ten tasks of six models cannot be enumerated: B = 10^8 permutations of 60 ranks, three arrays'
    # worth of 8-byte cells, is 1.44e11 bytes = 134.1 GiB (1.44e11 / 1024**3 = 134.11).
    y = np.random.default_rng(0).normal(size=(10, 6))
    with pytest.raises(ValueError, match=r"^`n_resamples` = 100000000 would need 134\.1 GiB of memory for the "
                                          r"Monte Carlo null distribution; the limit is 4\.0 GiB\. "
                                          r"Choose a smaller `n_resamples`\.$"):
        friedman(y, method="exact", n_resamples=10**8)


def test_friedman_exact_budget_is_inclusive(monkeypatch):
    # Three tasks of three models: the rank sums S_1, S_2 (doubled) span 3 * (2k - 2) + 1 = 13 values each,
    # 13^2 = 169 cells; building them adds (1^2 + 5^2 + 9^2) * 3! = 642 cells.
    import sigeval.ranking as ranking
    x = np.array([[0.9, 0.5, 0.1], [0.4, 0.8, 0.2], [0.3, 0.6, 0.7]])
    exact = _brute_force_friedman_p(x)
    for cells, work, method in [(169, 642, "exact"), (168, 642, "monte-carlo"), (169, 641, "monte-carlo")]:
        monkeypatch.setattr(ranking, "EXACT_MAX_CELLS", cells)
        monkeypatch.setattr(ranking, "EXACT_MAX_WORK", work)
        res = friedman(x, method="exact", n_resamples=100, rng=0)
        assert res.method == method, (cells, work)
        if method == "exact":
            assert res.pvalue == pytest.approx(exact, rel=1e-12)


@pytest.mark.parametrize("k", [2, 3])
def test_friedman_exact_with_a_task_where_every_model_ties(k):
    # A task on which all models tie has a single arrangement.
    x = np.random.default_rng(k).normal(size=(4, k))
    x[1] = 0.5
    res = friedman(x, method="exact")
    assert res.method == "exact"
    assert res.pvalue == pytest.approx(_brute_force_friedman_p(x), rel=1e-12)


def test_friedman_exact_p_is_one_when_every_rank_sum_is_equal():
    # Nine tasks, three cyclic orders three times each: every model has rank sum 18, chi2 = 0, the
    # smallest statistic there is, so P(chi2 >= 0) = 1 exactly (the summed probabilities round above 1).
    x = np.array([np.roll([0.9, 0.5, 0.1], i) for i in range(9)])
    res = friedman(x, method="exact")
    np.testing.assert_array_equal(res.ranks.sum(axis=0), [18, 18, 18])
    assert res.method == "exact" and res.statistic == 0.0 and res.pvalue == 1.0


def test_friedman_keeps_the_scores_it_ranked():
    res = friedman(demsar_frame())
    np.testing.assert_array_equal(res.scores, DEMSAR_AUC)
    assert res.scores.shape == (14, 4)


def test_tasks_for_gap_with_a_target_power_near_or_below_alpha():
    # Power 0.001 is below what alpha alone gives: q + z = 2.569 - 3.090 < 0, and the first design that can
    # separate a pair at all does: 3 tasks (with 2 the CD is 3.32, beyond the largest gap of 4 models, 3).
    assert nemenyi_q(4) + stats.norm.ppf(0.001) < 0
    assert nemenyi_cd(4, 2) > 3 >= nemenyi_cd(4, 3)
    assert tasks_for_gap(0.8, 4, target_power=0.001) == 3
    # Between 0 and 1: q + z = 0.5 for two models, N >= 0.5^2 * 2 * 3 / (6 * 0.05^2) = 100.
    tp = stats.norm.cdf(0.5 - nemenyi_q(2))
    qz = nemenyi_q(2) + stats.norm.ppf(tp)
    assert qz == pytest.approx(0.5, abs=1e-12)
    n = next(n for n in range(2, 1000) if qz * math.sqrt(2 * 3 / (6 * n)) <= 0.05)
    assert n in (100, 101)  # 100 up to the rounding of 0.5
    assert tasks_for_gap(0.05, 2, target_power=tp) == n


def test_pairwise_wilcoxon_better_either_way_and_its_flag():
    auc = pd.DataFrame({"base": [0.76, 0.60, 0.95, 0.63, 0.88, 0.66, 0.71, 0.80],
                        "new": [0.80, 0.61, 0.97, 0.66, 0.90, 0.69, 0.75, 0.83],
                        "other": [0.77, 0.62, 0.94, 0.60, 0.91, 0.68, 0.66, 0.85]})
    # new beats base on all eight tasks; other beats base on 5 of 8; new beats other on 5 of 8.
    pw = pairwise_wilcoxon(auc)
    assert pw.better.tolist() == ["new", "other", "new"]
    # The same table as losses: the model with the lower loss is better, so the same names.
    assert pairwise_wilcoxon(1 - auc, higher_is_better=False).better.tolist() == ["new", "other", "new"]
    assert pairwise_wilcoxon(1 - auc).better.tolist() == ["base", "base", "other"]
    with pytest.raises(TypeError, match=r"^`higher_is_better` must be True or False; got 'yes'\.$"):
        pairwise_wilcoxon(auc, higher_is_better="yes")


def test_friedman_names_its_options():
    with pytest.raises(ValueError, match=r"^`ties` must be one of 'correct', 'ignore'; got 'x'\.$"):
        friedman(DEMSAR_AUC, ties="x")
    with pytest.raises(ValueError, match=r"^`method` must be one of 'asymptotic', 'exact'; got 'x'\.$"):
        friedman(DEMSAR_AUC, method="x")


def test_friedman_monte_carlo_p_at_the_extremes(monkeypatch):
    # Forced onto the Monte Carlo path. Every rank sum equal (chi2 = 0): every permutation is at least as
    # extreme, so p = (1 + B) / (1 + B) = 1 with standard error 0.
    import sigeval.ranking as ranking
    monkeypatch.setattr(ranking, "EXACT_MAX_CELLS", 0)
    balanced = np.array([np.roll([0.9, 0.5, 0.1], i) for i in range(9)])
    res = friedman(balanced, method="exact", n_resamples=500, rng=0)
    assert (res.method, res.pvalue, res.monte_carlo_standard_error) == ("monte-carlo", 1.0, 0.0)
    # Nine tasks in the same order: a random permutation reaches that only if all nine tasks fall into
    # one common order, probability 6 / 6^9 = 6e-7 per draw, so with the default B = 10,000 none does
    # (seeded) and p = 1 / (1 + B).
    agree = np.tile([0.9, 0.5, 0.1], (9, 1))
    res = friedman(agree, method="exact", rng=0)
    assert res.method == "monte-carlo" and res.pvalue == 1 / 10_001
    assert res.monte_carlo_standard_error == pytest.approx(math.sqrt(1 / 10_001 * (1 - 1 / 10_001) / 10_000),
                                                           rel=1e-12)


def test_friedman_f_is_infinite_exactly_when_every_task_ranks_alike():
    # Five tasks, each with the first two models tied ahead of the third: ranks (1.5, 1.5, 3) every time.
    # C = 1 - 5 * (2^3 - 2) / (5 * (3^3 - 3)) = 0.75. Corrected, chi2 = N(k - 1) = 10, its maximum: F infinite.
    x = np.tile([0.9, 0.9, 0.1], (5, 1))
    res = friedman(x)
    assert res.tie_correction == 0.75 and res.statistic == pytest.approx(10.0, rel=1e-14)
    assert (res.statistic_f, res.pvalue_f) == (math.inf, 0.0)
    # Uncorrected, chi2 = 0.75 * 10 = 7.5 and F = 4 * 7.5 / (10 - 7.5) = 12 on (2, 8) degrees of freedom,
    # whose tail is (1 + 2 * 12 / 8)^(-8 / 2) = 4^-4.
    plain = friedman(x, ties="ignore")
    assert plain.statistic == pytest.approx(7.5, rel=1e-14)
    assert plain.statistic_f == pytest.approx(12.0, rel=1e-13)
    assert plain.pvalue_f == pytest.approx(4.0**-4, rel=1e-12)
    # Without ties both agree: the same order on every task is infinite either way.
    strict = np.tile([0.1, 0.9, 0.5, 0.3], (3, 1))
    for ties in ("correct", "ignore"):
        res = friedman(strict, ties=ties)
        assert res.statistic == pytest.approx(9.0, rel=1e-14)
        assert (res.statistic_f, res.pvalue_f) == (math.inf, 0.0)
    # One task out of order is finite: ranks (4, 1, 2, 3) twice and (4, 1, 3, 2), rank sums (12, 3, 7, 8),
    # chi2 = 12 * 3 / 20 * ((144 + 9 + 49 + 64) / 9 - 25) = 8.2 and F = 2 * 8.2 / (9 - 8.2) = 20.5.
    strict[2] = [0.1, 0.9, 0.3, 0.5]
    res = friedman(strict)
    assert res.statistic == pytest.approx(8.2, rel=1e-13) and res.statistic_f == pytest.approx(20.5, rel=1e-12)


@pytest.mark.parametrize("k", [20_000, 1_000_000])
def test_friedman_f_is_finite_when_one_task_of_many_models_differs(k):
    # Three tasks rank k models alike but for one swapped pair on one task. Against perfect agreement
    # that pair's rank sums go from (3, 6) to (4, 5): sum S^2 falls by 2N - 2 = 4, so
    # N(k - 1) - chi2 = 12 * 4 / (N k (k + 1)) = d, 4e-8 for 20,000 models (below the 1e-12 N(k - 1) = 6e-8
    # where F was once taken for infinite) and 1.6e-11 for a million (where N(k - 1) - chi2, computed as a
    # difference, came out negative: F < 0 and p = 1). F = (N - 1) chi2 / d, with chi2 = N(k - 1) - d.
    n = 3
    x = np.tile(-np.arange(k, dtype=float), (n, 1))
    x[0, [0, 1]] = x[0, [1, 0]]
    d = 12 * 4 / (n * k * (k + 1))
    assert d < 1e-12 * n * (k - 1)
    res = friedman(x)
    assert res.statistic == pytest.approx(n * (k - 1) - d, rel=1e-14)  # chi2 itself is right to rounding
    assert res.statistic_f == pytest.approx((n - 1) * (n * (k - 1) - d) / d, rel=1e-10)
    assert res.pvalue_f == 0.0


def test_friedman_f_with_ties_corrected_is_iman_davenport_on_scipys_chi2():
    # Ties in two tasks and tasks that disagree: scipy's tie-corrected chi2, then F_F = (N - 1) chi2 / (N(k - 1) - chi2).
    x = np.array([[0.8, 0.8, 0.6], [0.7, 0.9, 0.5], [0.6, 0.7, 0.7], [0.9, 0.6, 0.5], [0.8, 0.7, 0.6]])
    chi2 = stats.friedmanchisquare(*x.T).statistic
    n, k = x.shape
    res = friedman(x)
    assert res.statistic == pytest.approx(chi2, rel=1e-12)
    assert res.statistic_f == pytest.approx((n - 1) * chi2 / (n * (k - 1) - chi2), rel=1e-12)


# --------------------------------------------------------------------------- issue 40: every pair at once


def _pairwise_wilcoxon_before_issue_40(table, higher_is_better=True):
    """The previous implementation, kept as the oracle: one wilcoxon_signed_rank (scipy's p-value) per pair."""
    import warnings as warnings_module

    rows = []
    for i, j in combinations(range(table.shape[1]), 2):
        with warnings_module.catch_warnings():
            warnings_module.simplefilter("ignore")
            res = wilcoxon_signed_rank(table[:, i], table[:, j])
        better = None if res.r_plus == res.r_minus else (i if (res.r_plus > res.r_minus) == higher_is_better else j)
        rows.append((i, j, res.r_plus, res.r_minus, res.statistic, res.pvalue, better))
    return rows


@pytest.mark.parametrize("n_tasks", [2, 5, 12, 13, 14, 20, 50, 51])
@pytest.mark.parametrize("decimals", [1, 15])
def test_pairwise_wilcoxon_equals_one_scipy_test_per_pair(n_tasks, decimals):
    # Exact tables (no ties), exact permutations (ties or zeros, up to 13 tasks) and the normal approximation,
    # chosen per pair as scipy chooses: the same numbers bit for bit.
    rng = np.random.default_rng(n_tasks * 100 + decimals)
    n_models = 5 if n_tasks <= 13 else 7  # scipy's permutation test of each pair takes seconds
    table = np.round(rng.normal(0, 1, (n_tasks, n_models)) * 0.3 + rng.normal(0, 1, (n_tasks, 1)), decimals)
    table[:, 3] = table[:, 2]  # a pair with every difference zero
    table[: n_tasks // 2, 4] = table[: n_tasks // 2, 1]  # a pair with many zeros
    with pytest.warns(UserWarning, match="zero"):
        pw = pairwise_wilcoxon(table, correction="none")
    expected = _pairwise_wilcoxon_before_issue_40(table)
    assert list(zip(pw.model_a, pw.model_b)) == [(i, j) for i, j, *_ in expected]
    for column, index in (("r_plus", 2), ("r_minus", 3), ("statistic", 4), ("pvalue", 5)):
        np.testing.assert_array_equal(pw[column].to_numpy(), [row[index] for row in expected], err_msg=column)
    assert pw.better.tolist() == [row[6] for row in expected]


def test_pairwise_wilcoxon_chunks_give_the_same_table(monkeypatch):
    rng = np.random.default_rng(5)
    table = np.round(rng.normal(0, 1, (10, 30)), 1)
    whole = pairwise_wilcoxon(table)
    monkeypatch.setattr(pairwise_module, "_PAIR_CHUNK_ELEMENTS", 37)  # 3 pairs of 10 tasks per chunk
    pd.testing.assert_frame_equal(pairwise_module.pairwise_wilcoxon(table), whole)


def test_pairwise_wilcoxon_better_holds_the_names_and_none():
    table = pd.DataFrame({1: [0.1, 0.2, 0.3], 2: [0.2, 0.3, 0.4], 3: [0.1, 0.2, 0.3]})
    with pytest.warns(UserWarning, match="zero"):
        pw = pairwise_wilcoxon(table)
    assert pw.better.tolist() == [2, None, 2] and pw.model_a.tolist() == [1, 1, 2]


def test_pairwise_wilcoxon_refuses_an_overflowing_difference_naming_the_models():
    table = pd.DataFrame({"a": [1e308, 0.0, 1.0], "b": [-1e308, 0.5, 0.0]})
    with pytest.raises(ValueError, match=r"^The difference of models 'a' and 'b' overflows float64 on task 0"):
        pairwise_wilcoxon(table)


def test_pairwise_wilcoxon_refuses_many_models_up_front_with_the_memory_they_need():
    with pytest.raises(ValueError, match=r"^`scores` = 20000 models would need 28\.0 GiB of memory for the table of "
                                         r"their 199,990,000 pairs; the limit is 4\.0 GiB\. Compare fewer models "
                                         r"\(or each against a control: holm_vs_control\)\.$"):
        pairwise_wilcoxon(np.zeros((3, 20_000)))


@pytest.mark.parametrize("n_tasks, n_models", [(20, 300), (20, 1000), (5, 500), (60, 120), (3, 40)])
def test_pairwise_wilcoxon_memory_check_counts_what_is_allocated(n_tasks, n_models):
    import tracemalloc

    table = np.random.default_rng(0).normal(size=(n_tasks, n_models))
    tracemalloc.start()
    try:
        pairwise_wilcoxon(table)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    counted = pairwise_module._pairwise_bytes(n_tasks, n_models * (n_models - 1) // 2)
    assert counted / 1.5 <= peak <= 1.5 * counted, (peak, counted)


# --------------------------------------------------------------------------- issue 35: names and object arrays


@pytest.mark.parametrize("function", [friedman, pairwise_wilcoxon])
def test_repeated_or_alike_model_names_are_refused(function):
    scores = np.random.default_rng(0).random((6, 4))
    with pytest.raises(ValueError, match=r"^`scores` names the model 'a' twice; every model needs a name of its own"):
        function(pd.DataFrame(scores, columns=["a", "a", "b", "c"]))
    with pytest.raises(ValueError, match=r"^`scores` names the model '1' as 1 and '1'"):
        function(pd.DataFrame(scores, columns=[1, "1", "b", "c"]))


def test_friedman_takes_an_object_array_of_floats_as_other_functions_do():
    scores = np.random.default_rng(1).random((6, 3))
    assert friedman(scores.astype(object)).pvalue == friedman(scores).pvalue
    with pytest.raises(TypeError, match=r"^`scores` must hold numbers; got values of type float, str"):
        friedman(np.array([[0.1, "x"], [0.2, 0.3]], dtype=object))


def test_pairwise_wilcoxon_names_the_better_model_as_given_and_none_on_a_tie():
    scores = pd.DataFrame({10: [0.8, 0.7, 0.9, 0.6, 0.5], 20: [0.7, 0.6, 0.8, 0.5, 0.4], 30: [0.8, 0.7, 0.9, 0.6, 0.5]})
    with pytest.warns(UserWarning):
        better = pairwise_wilcoxon(scores)["better"].tolist()
    assert better == [10, None, 30]
    assert [type(b) for b in better] == [int, type(None), int]


@pytest.mark.parametrize("target_power", [None, 0.001, 0.01, 0.5, 0.8])
@pytest.mark.parametrize("n_models", [2, 3, 4, 10])
def test_tasks_for_gap_is_never_below_the_first_design_that_can_separate_a_pair(n_models, target_power):
    # Below that N the CD exceeds k - 1, the largest possible gap: no test can reject, whatever the power asked.
    floor = next(n for n in range(2, 1000) if nemenyi_cd(n_models, n) <= n_models - 1)
    for gap in (n_models - 1, (n_models - 1) / 2):
        n = tasks_for_gap(gap, n_models, target_power=target_power)
        assert n >= floor
        assert nemenyi_cd(n_models, n) <= n_models - 1
    assert tasks_for_gap(0.8, 4, target_power=0.001) == 3  # was 2, where the CD is 3.32 > 3

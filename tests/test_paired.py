"""sigeval.paired against scipy, closed forms, published values and simulation."""

import warnings

import numpy as np
import pytest
from scipy import stats

from sigeval import (
    difference_se,
    mcnemar,
    mcnemar_counts,
    wilcoxon_signed_rank,
)
from sigeval._mcnemar import mcnemar_core


def _vectors(n11, n01, n10, n00):
    """Correctness vectors of A and B with the given 2x2 table (A right/B wrong = n01)."""
    a = np.repeat([1, 1, 0, 0], [n11, n01, n10, n00]).astype(bool)
    b = np.repeat([1, 0, 1, 0], [n11, n01, n10, n00]).astype(bool)
    return a, b


# The article's Part 1: 1,000 images, A 0.845, B 0.829, 44 only A right, 28 only B right.
ARTICLE = _vectors(801, 44, 28, 127)

# --------------------------------------------------------------------------- McNemar


def _assert_attributed_to_the_caller(record):
    """The warnings point at the caller's line (stacklevel), not into sigeval/paired.py.

    Under a tool that wraps every function (mutmut's trampolines) the caller's frame is the
    wrapper's, so the check is that the attributed file is not the library module.
    """
    for w in record:
        assert not w.filename.endswith(("sigeval/paired.py", "sigeval\\paired.py"))
        assert w.filename == __file__ or "mutmut" in w.filename


def test_mcnemar_exact_matches_scipy_binomtest():
    for n01 in range(0, 26):
        for n10 in range(0, 26):
            if n01 + n10 == 0:
                continue
            res = mcnemar(*_vectors(5, n01, n10, 3))
            ref = stats.binomtest(n01, n01 + n10, 0.5).pvalue
            assert (res.n01, res.n10) == (n01, n10)
            assert res.pvalue == pytest.approx(ref, rel=1e-12, abs=1e-15)
            assert res.statistic == min(n01, n10)


def test_mcnemar_exact_is_the_article_formula():
    res = mcnemar(*ARTICLE)
    assert (res.n01, res.n10, res.method) == (44, 28, "exact")
    hand = min(1.0, 2 * stats.binom.cdf(28, 72, 0.5))
    assert res.pvalue == pytest.approx(hand, rel=1e-13)
    assert f"{res.pvalue:.4f}" == "0.0764"  # printed by the article
    assert isinstance(res.pvalue, float) and isinstance(res.statistic, float)


@pytest.mark.parametrize(("n01", "n10"), [(44, 28), (10, 3), (3, 10), (7, 8), (5, 5), (0, 9), (120, 80)])
def test_mcnemar_chi_square_by_hand(n01, n10):
    a, b = _vectors(50, n01, n10, 20)
    m = n01 + n10
    plain = mcnemar(a, b, exact=False, continuity=False)
    assert plain.statistic == pytest.approx((n01 - n10) ** 2 / m, rel=1e-14)
    assert plain.pvalue == pytest.approx(stats.chi2.sf((n01 - n10) ** 2 / m, 1), rel=1e-12)
    assert plain.method == "chi-square"
    corrected = mcnemar(a, b, exact=False)
    expected = max(abs(n01 - n10) - 1, 0) ** 2 / m
    assert corrected.statistic == pytest.approx(expected, rel=1e-14)
    assert corrected.pvalue == pytest.approx(stats.chi2.sf(expected, 1), rel=1e-12)
    assert corrected.method == "chi-square (continuity corrected)"


def test_mcnemar_article_chi_square_value():
    assert mcnemar(*ARTICLE, exact=False).statistic == pytest.approx(15**2 / 72, rel=1e-14)


def test_continuity_correction_never_produces_evidence_from_a_tie():
    # Like R's mcnemar.test: |n01 - n10| <= 1 gives chi2 = 0, p = 1 with the correction.
    for n01, n10 in [(5, 5), (6, 5), (5, 6)]:
        res = mcnemar(*_vectors(3, n01, n10, 3), exact=False)
        assert res.statistic == 0.0 and res.pvalue == 1.0


def test_chi_square_approaches_exact_for_many_disagreements():
    a, b = _vectors(100, 440, 360, 100)
    exact = mcnemar(a, b).pvalue
    approx = mcnemar(a, b, exact=False).pvalue
    assert approx == pytest.approx(exact, rel=0.02)


def test_mcnemar_is_symmetric_in_the_models():
    a, b = ARTICLE
    ab, ba = mcnemar(a, b), mcnemar(b, a)
    assert (ab.n01, ab.n10) == (ba.n10, ba.n01)
    assert ab.pvalue == ba.pvalue


@pytest.mark.parametrize(
    "kwargs", [dict(), dict(mid_p=True), dict(exact=False), dict(exact=False, continuity=False)]
)
def test_mcnemar_without_disagreements_warns_and_gives_p_one(kwargs):
    a = np.array([1, 1, 0, 1, 0], dtype=bool)
    with pytest.warns(UserWarning, match="agree on every item"):
        res = mcnemar(a, a, **kwargs)
    assert res.pvalue == 1.0 and res.statistic == 0.0
    assert (res.n01, res.n10) == (0, 0)


def test_mcnemar_accepts_bool_int_and_float_correctness():
    a, b = ARTICLE
    ref = mcnemar(a, b)
    assert mcnemar(a.astype(int), b.astype(int)) == ref
    assert mcnemar(a.astype(float), list(b)) == ref


def test_mcnemar_exact_size_under_the_null():
    # 2,000 simulated test sets of 150 items where the models have equal
    # accuracy: each disagreement favours either model with probability 1/2.
    rng = np.random.default_rng(20240601)
    n_sets, n, alpha = 2000, 150, 0.05
    outcome = rng.choice(4, p=[0.6, 0.1, 0.1, 0.2], size=(n_sets, n))  # both, A only, B only, neither
    correct_a = (outcome == 0) | (outcome == 1)
    correct_b = (outcome == 0) | (outcome == 2)
    rejected = np.array([mcnemar(a, b).pvalue <= alpha for a, b in zip(correct_a, correct_b)])
    mc_se = np.sqrt(alpha * (1 - alpha) / n_sets)
    assert rejected.mean() <= alpha + 3 * mc_se
    # The exact test is conservative, but not absurdly so at about 30 disagreements.
    assert rejected.mean() >= 0.02


@pytest.mark.parametrize(
    ("a", "b", "error", "match"),
    [
        ([1, 0, 1], [1, 0], ValueError, r"`scores_a` and `scores_b` must be paired, with the same length; got 3 and 2"),
        ([1, 2, 0], [1, 0, 0], ValueError, r"`scores_a` must be binary correctness \(0/1 or bool\); got 2.0"),
        ([1, 0, 0], [0.5, 1, 0], ValueError, r"`scores_b` must be binary correctness.*got 0.5"),
        ([], [], ValueError, r"`scores_a` must hold at least 1 value\(s\); got 0"),
        ([1, np.nan, 0], [1, 0, 0], ValueError, r"`scores_a` holds 1 NaN or infinite value\(s\).*position\(s\) 1"),
        ([[1, 0]], [[1, 0]], ValueError, r"`scores_a` must be one-dimensional"),
        (["right", "wrong"], [1, 0], TypeError, r"`scores_a` must hold numbers"),
    ],
)
def test_mcnemar_rejects_bad_input(a, b, error, match):
    with pytest.raises(error, match=match):
        mcnemar(a, b)


# --------------------------------------------------------------------------- McNemar from counts


def test_mcnemar_counts_is_mcnemar_on_the_table():
    for n01, n10 in [(44, 28), (0, 9), (7, 8), (120, 80), (3, 0)]:
        for kwargs in (dict(), dict(exact=False), dict(exact=False, continuity=False)):
            assert mcnemar_counts(n01, n10, **kwargs) == mcnemar(*_vectors(13, n01, n10, 5), **kwargs)


def test_mcnemar_counts_article_values_and_types():
    res = mcnemar_counts(44, 28)
    assert (res.n01, res.n10, res.statistic, res.method) == (44, 28, 28.0, "exact")
    assert f"{res.pvalue:.4f}" == "0.0764"
    assert type(res.n01) is int and type(res.pvalue) is float and type(res.statistic) is float
    # Whole numbers given as floats or NumPy integers are counts too.
    assert mcnemar_counts(44.0, np.int32(28)) == res


def test_mcnemar_counts_vectorized_matches_scipy_and_the_scalar_test():
    n01, n10 = np.meshgrid(np.arange(0, 31), np.arange(0, 31), indexing="ij")
    n01, n10 = n01.ravel()[1:], n10.ravel()[1:]  # drop (0, 0)
    for kwargs in (dict(), dict(exact=False), dict(exact=False, continuity=False)):
        res = mcnemar_counts(n01, n10, **kwargs)
        assert res.pvalue.shape == res.statistic.shape == n01.shape
        np.testing.assert_array_equal(res.n01, n01)
        scalar = [mcnemar_counts(int(a), int(b), **kwargs).pvalue for a, b in zip(n01[::37], n10[::37])]
        np.testing.assert_array_equal(res.pvalue[::37], scalar)
    ref = [stats.binomtest(int(a), int(a + b), 0.5).pvalue for a, b in zip(n01, n10)]
    np.testing.assert_allclose(mcnemar_counts(n01, n10).pvalue, ref, rtol=1e-12, atol=1e-15)
    chi2 = (n01 - n10) ** 2 / (n01 + n10)
    np.testing.assert_allclose(mcnemar_counts(n01, n10, exact=False, continuity=False).statistic, chi2, rtol=1e-14)


def test_mcnemar_counts_broadcasts():
    res = mcnemar_counts([[10], [20], [30]], [5, 15])
    assert res.pvalue.shape == (3, 2) and res.n01.shape == (3, 2)
    assert res.pvalue[1, 0] == mcnemar_counts(20, 5).pvalue


def test_mcnemar_counts_without_disagreements_warns():
    with pytest.warns(UserWarning, match=r"agree on every item \(n01 = n10 = 0\)"):
        res = mcnemar_counts(0, 0)
    assert res.pvalue == 1.0
    with pytest.warns(UserWarning, match=r"2 of 3 count pairs have n01 = n10 = 0 .*agree on every item"):
        res = mcnemar_counts([0, 5, 0], [0, 1, 0], exact=False)
    np.testing.assert_array_equal(res.pvalue[[0, 2]], 1.0)


def test_mcnemar_no_disagreement_warnings_say_why_and_point_at_the_caller():
    with pytest.warns(UserWarning) as record:
        mcnemar_counts(0, 0)
        mcnemar_counts([0, 5, 0], [0, 1, 0])
        mcnemar(*_vectors(4, 0, 0, 2))
    assert [str(w.message) for w in record] == [
        "The two models agree on every item (n01 = n10 = 0): McNemar's test has "
        "no information about their difference; the p-value is set to 1.",
        "2 of 3 count pairs have n01 = n10 = 0 (the models agree on every item): McNemar's "
        "test has no information there; their p-values are set to 1.",
        "The two models agree on every item (n01 = n10 = 0): McNemar's test has "
        "no information about their difference; the p-value is set to 1.",
    ]
    _assert_attributed_to_the_caller(record)


@pytest.mark.parametrize("kwargs", [dict(), dict(mid_p=True), dict(exact=False)])
def test_mcnemar_tied_disagreements_do_not_warn(kwargs):
    # n01 == n10 > 0 is evidence of equal accuracy, not a lack of information.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        res = mcnemar_counts(5, 5, **kwargs)
        many = mcnemar_counts([5, 3], [5, 1], **kwargs)
    assert res.pvalue == many.pvalue[0]
    assert res.pvalue == pytest.approx(1 - stats.binom.pmf(5, 10, 0.5) / 2 if kwargs.get("mid_p") else 1.0, rel=1e-14)


def test_mcnemar_counts_scalar_fields_are_python_numbers():
    res = mcnemar_counts(np.int64(9), np.int64(2))
    assert type(res.n01) is int and type(res.n10) is int
    assert type(res.statistic) is float and type(res.pvalue) is float
    many = mcnemar_counts([9], [2])
    assert many.n01.shape == many.n10.shape == (1,)


def test_mcnemar_core_default_form_is_the_exact_test():
    # sigeval.course.dietterich calls the core without mid_p and expects the exact test.
    n01, n10 = np.array([44, 1, 6]), np.array([28, 7, 6])
    statistic, pvalue = mcnemar_core(n01, n10, True, True)
    np.testing.assert_array_equal(pvalue, mcnemar_counts(n01, n10).pvalue)
    np.testing.assert_array_equal(statistic, [28.0, 1.0, 6.0])
    assert pvalue[1] == pytest.approx(18 / 256, rel=1e-14)


def test_mcnemar_counts_up_to_two_to_the_53_disagreements():
    # The sum n01 + n10 may reach 2**53 (float64 still holds every count) but not pass it.
    half = 2**52
    assert mcnemar_counts(half, half).pvalue == 1.0
    # Tie convention of the mid-p test: 1 - P(X = m/2)/2 ~ 1 - 1/sqrt(2 pi m) by Stirling.
    mid = mcnemar_counts(half, half, mid_p=True).pvalue
    assert 1 - mid == pytest.approx(1 / np.sqrt(2 * np.pi * 2**53), rel=1e-6)
    assert mcnemar_counts(2**53, 0).pvalue == 0.0
    with pytest.raises(ValueError, match=r"`n01 \+ n10` must be at most 2\*\*53 = 9,007,199,254,740,992; got 9007199254740993\.$"):
        mcnemar_counts(2**53, 1)
    with pytest.raises(ValueError, match=r"`n01 \+ n10` must be at most 2\*\*53.*; got 9007199254740993, 9007199254740994\.$"):
        mcnemar_counts([1, 2**53, 2**53], [0, 1, 2])


@pytest.mark.parametrize(
    ("n01", "n10", "kwargs", "error", "match"),
    [
        (-1, 5, {}, ValueError, r"`n01` must be a non-negative count; got -1"),
        (3, [2, -4], {}, ValueError, r"`n10` must be a non-negative count; got -4"),
        ([0, -3, 1, 0, -1], 2, {}, ValueError, r"`n01` must be a non-negative count; got -3, -1\.$"),
        (2.5, 5, {}, ValueError, r"`n01` must hold whole numbers; got 2.5"),
        (3, np.nan, {}, ValueError, r"`n10` must hold whole numbers; got nan"),
        ([], [], {}, ValueError, r"`n01` must not be empty"),
        (True, 3, {}, TypeError, r"`n01` must hold integer counts; got dtype bool"),
        (3, "4", {}, TypeError, r"`n10` must hold integer counts"),
        ([1, 2, 3], [1, 2], {}, ValueError, r"`n01` and `n10` must broadcast to a common shape; got shapes \(3,\) and \(2,\)"),
        (3, 4, dict(exact="yes"), TypeError, r"`exact` must be True or False; got 'yes'"),
        (3, 4, dict(continuity=1), TypeError, r"`continuity` must be True or False; got 1"),
        (3, 4, dict(mid_p="yes"), TypeError, r"`mid_p` must be True or False; got 'yes'"),
        (3, 4, dict(mid_p=True, exact=False), ValueError, r"`mid_p=True` .* needs `exact=True`"),
    ],
)
def test_mcnemar_counts_rejects_bad_input(n01, n10, kwargs, error, match):
    with pytest.raises(error, match=match):
        mcnemar_counts(n01, n10, **kwargs)


def test_mcnemar_checks_its_flags_too():
    with pytest.raises(TypeError, match=r"`exact` must be True or False"):
        mcnemar(*ARTICLE, exact=None)
    with pytest.raises(ValueError, match=r"`mid_p=True`"):
        mcnemar(*ARTICLE, exact=False, mid_p=True)


# --------------------------------------------------------------------------- McNemar mid-p


def test_mid_p_fagerland_worked_example():
    # Fagerland, Lydersen & Laake (2013), Table 1 (Bentur et al., 2009): airway
    # hyper-responsiveness of 21 children before and after stem cell transplantation,
    # discordant pairs n12 = 1 and n21 = 7. By hand, with X ~ Binomial(8, 1/2):
    # exact p = 2 P(X <= 1) = 18/256, mid-p = 2 [P(X <= 1) - P(X = 1)/2] = 10/256.
    # The paper reports 0.070 (exact conditional), 0.039 (mid-p), 0.034 (asymptotic)
    # and 0.077 (asymptotic with continuity correction).
    mid = mcnemar_counts(1, 7, mid_p=True)
    exact = mcnemar_counts(1, 7)
    assert mid.method == "mid-p" and mid.statistic == 1.0
    assert exact.pvalue == pytest.approx(18 / 256, rel=1e-14)
    assert mid.pvalue == pytest.approx(10 / 256, rel=1e-14)
    rounded = [
        round(r.pvalue, 3)
        for r in (
            exact,
            mid,
            mcnemar_counts(1, 7, exact=False, continuity=False),
            mcnemar_counts(1, 7, exact=False),
        )
    ]
    assert rounded == [0.070, 0.039, 0.034, 0.077]


def test_mid_p_by_hand_for_every_small_table():
    for n01 in range(0, 30):
        for n10 in range(0, 30):
            m = n01 + n10
            if m == 0:
                continue
            k = min(n01, n10)
            point = stats.binom.pmf(k, m, 0.5)
            if n01 == n10:
                hand = 1 - point / 2  # Fagerland et al.'s convention for a tie
            else:
                hand = 2 * (stats.binom.cdf(k, m, 0.5) - point / 2)
            res = mcnemar_counts(n01, n10, mid_p=True)
            assert res.pvalue == pytest.approx(hand, rel=1e-12, abs=1e-15)
            # The exact p-value less the probability of the observed count.
            if n01 != n10:
                exact = stats.binomtest(n01, m, 0.5).pvalue
                assert res.pvalue == pytest.approx(exact - point, rel=1e-10, abs=1e-15)
            assert res.pvalue <= mcnemar_counts(n01, n10).pvalue


def test_mid_p_from_vectors_and_vectorized_counts_agree():
    a, b = ARTICLE
    res = mcnemar(a, b, mid_p=True)
    assert (res.n01, res.n10, res.method) == (44, 28, "mid-p")
    assert res.pvalue == pytest.approx(
        2 * stats.binom.cdf(28, 72, 0.5) - stats.binom.pmf(28, 72, 0.5), rel=1e-13
    )
    many = mcnemar_counts([44, 1, 6], [28, 7, 6], mid_p=True)
    assert many.pvalue[0] == res.pvalue
    assert many.pvalue[2] == pytest.approx(1 - stats.binom.pmf(6, 12, 0.5) / 2, rel=1e-14)


def test_mid_p_size_is_closer_to_alpha_than_exact():
    # Exact size of each test for m disagreements, averaged over m ~ Binomial(150, 0.2):
    # the mid-p test keeps the level here but wastes less of it than the exact test.
    m = np.arange(0, 151)
    weights = stats.binom.pmf(m, 150, 0.2)
    sizes = {}
    for mid_p in (False, True):
        size = np.zeros(m.size)
        for i, mi in enumerate(m):
            k = np.arange(mi + 1)
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                p = mcnemar_counts(k, mi - k, mid_p=mid_p).pvalue
            size[i] = stats.binom.pmf(k, mi, 0.5)[p <= 0.05].sum()
        sizes[mid_p] = float(weights @ size)
    assert sizes[False] < sizes[True] <= 0.05
    assert sizes[True] > 0.045


# --------------------------------------------------------------------------- standard errors


def test_difference_se_reproduces_the_article():
    se = difference_se(*ARTICLE)
    assert f"{se.standard_error_unpaired:.4f}" == "0.0165"
    assert f"{se.standard_error:.4f}" == "0.0085"
    assert se.estimate == pytest.approx(0.016, abs=1e-15)
    assert se.n == 1000
    assert se.standard_error < se.standard_error_unpaired / 1.9  # "pairing halves the standard error"


def test_difference_se_formulas_and_correlation():
    rng = np.random.default_rng(7)
    a = rng.random(500) < 0.8
    b = np.where(rng.random(500) < 0.7, a, rng.random(500) < 0.75)
    se = difference_se(a, b)
    d = a.astype(float) - b
    n = a.size
    assert se.standard_error == pytest.approx(d.std(ddof=1) / np.sqrt(n), rel=1e-13)
    pa, pb = a.mean(), b.mean()
    assert se.standard_error_unpaired == pytest.approx(np.sqrt(pa * (1 - pa) / n + pb * (1 - pb) / n), rel=1e-13)
    assert se.correlation == pytest.approx(np.corrcoef(a, b)[0, 1], rel=1e-12)
    # Var(a - b) = Var(a) + Var(b) - 2 rho sd(a) sd(b), with population (ddof=0) moments.
    var_d = se.standard_error**2 * n * (n - 1) / n
    assert var_d == pytest.approx(
        se.standard_error_unpaired**2 * n - 2 * se.correlation * np.sqrt(pa * (1 - pa) * pb * (1 - pb)), rel=1e-12
    )


def test_difference_se_of_a_perfect_model_has_undefined_correlation():
    a = np.ones(20, dtype=bool)
    b = np.array([1, 0] * 10, dtype=bool)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        se = difference_se(a, b)
    assert np.isnan(se.correlation)
    assert se.standard_error_unpaired == pytest.approx(np.sqrt(0.25 / 20))
    assert np.isfinite(se.standard_error)


@pytest.mark.parametrize(("n_right", "n"), [(1, 3), (1, 10), (3, 10)])
def test_difference_se_correlation_is_nan_whenever_a_model_is_constant(n_right, n):
    # With 1/3 or 3/10 right, b - mean(b) does not sum to exactly 0 in floating point:
    # the covariance must still be exactly 0 (a constant model has no variance), so the
    # correlation is 0/0 = NaN, never a rounding error divided by 0 (= inf).
    other = np.repeat([1, 0], [n_right, n - n_right])
    for constant in (np.ones(n), np.zeros(n)):
        for a, b in ((constant, other), (other, constant)):
            with warnings.catch_warnings():
                warnings.simplefilter("error")
                se = difference_se(a, b)
            assert np.isnan(se.correlation)
            assert se.estimate == pytest.approx(a.mean() - b.mean(), abs=1e-15)


def test_difference_se_of_two_items():
    # The smallest test set: n = 2, one disagreement. d = (1, 0): sd = 1/sqrt(2), SE = 1/2.
    se = difference_se([1, 1], [0, 1])
    assert (se.n, se.estimate) == (2, 0.5)
    assert se.standard_error == pytest.approx(0.5, rel=1e-15)
    assert se.standard_error_unpaired == pytest.approx(np.sqrt(0.25 / 2), rel=1e-15)


@pytest.mark.parametrize(
    ("a", "b", "match"),
    [
        ([1], [0], r"must hold at least 2 items; got 1"),
        ([1, 0, 1], [1, 0], r"same length; got 3 and 2"),
        ([1, 0, 3], [1, 0, 1], r"`scores_a` must be binary"),
        ([1, 0, 1], [1, np.nan, 1], r"`scores_b` holds 1 NaN"),
    ],
)
def test_difference_se_rejects_bad_input(a, b, match):
    with pytest.raises(ValueError, match=match):
        difference_se(a, b)


# --------------------------------------------------------------------------- Wilcoxon

# Demšar (2006), Table 2: AUC of C4.5 with tuned m (first) and with m = 0, in thousandths.
DEMSAR_TUNED = [768, 591, 971, 661, 888, 931, 668, 583, 838, 1000, 962, 666, 981, 978]
DEMSAR_PLAIN = [763, 599, 954, 628, 882, 936, 661, 583, 775, 1000, 940, 619, 972, 957]


def test_wilcoxon_demsar_worked_example():
    res = wilcoxon_signed_rank(DEMSAR_TUNED, DEMSAR_PLAIN)
    # Demšar: R+ = 93, R- = 12, T = min(R+, R-) = 12 (critical value 21 for N = 14).
    assert (res.r_plus, res.r_minus, res.statistic) == (93.0, 12.0, 12.0)
    assert (res.n, res.n_zero, res.zero_method) == (14, 2, "zsplit")
    assert res.pvalue < 0.05
    assert isinstance(res.pvalue, float)


def _integer_pairs(seed, n):
    rng = np.random.default_rng(seed)
    a = rng.integers(0, 6, n)
    b = rng.integers(0, 6, n)
    return a, b  # many ties and some zero differences


@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
def test_wilcoxon_matches_scipy(zero_method, alternative):
    for seed, n in [(1, 9), (2, 14), (3, 30), (4, 60)]:
        a, b = _integer_pairs(seed, n)
        ours = wilcoxon_signed_rank(a, b, zero_method=zero_method, alternative=alternative)
        ref = stats.wilcoxon(a, b, zero_method=zero_method, alternative=alternative)
        assert ours.statistic == pytest.approx(ref.statistic, abs=1e-12)
        assert ours.pvalue == pytest.approx(ref.pvalue, rel=1e-12)


def test_wilcoxon_rank_sums_add_up():
    a, b = _integer_pairs(5, 25)
    d = a - b
    n, n_zero = d.size, int(np.sum(d == 0))
    assert n_zero > 0
    zsplit = wilcoxon_signed_rank(a, b)
    assert zsplit.r_plus + zsplit.r_minus == n * (n + 1) / 2
    wilcox = wilcoxon_signed_rank(a, b, zero_method="wilcox")
    kept = n - n_zero
    assert wilcox.r_plus + wilcox.r_minus == kept * (kept + 1) / 2
    pratt = wilcoxon_signed_rank(a, b, zero_method="pratt")
    # Zeros take the smallest ranks 1..n_zero (tied at their mean), which pratt discards.
    assert pratt.r_plus + pratt.r_minus == n * (n + 1) / 2 - n_zero * (n_zero + 1) / 2


def test_wilcoxon_r_plus_by_walsh_averages():
    # Without ties or zeros, R+ counts the pairs i <= j with d_i + d_j > 0.
    rng = np.random.default_rng(11)
    a, b = rng.normal(size=20), rng.normal(size=20)
    d = a - b
    walsh = sum(d[i] + d[j] > 0 for i in range(d.size) for j in range(i, d.size))
    res = wilcoxon_signed_rank(a, b)
    assert res.r_plus == walsh
    assert res.r_minus == d.size * (d.size + 1) / 2 - walsh


def test_wilcoxon_one_sided_statistic_is_r_plus():
    res = wilcoxon_signed_rank(DEMSAR_TUNED, DEMSAR_PLAIN, alternative="greater")
    assert res.statistic == res.r_plus == 93.0
    assert res.pvalue < wilcoxon_signed_rank(DEMSAR_TUNED, DEMSAR_PLAIN).pvalue


def test_wilcoxon_all_ties_warns_and_gives_p_one():
    with pytest.warns(UserWarning, match="Every difference .* is zero"):
        res = wilcoxon_signed_rank([0.7, 0.8, 0.9], [0.7, 0.8, 0.9])
    assert res.pvalue == 1.0 and res.n_zero == 3
    assert res.r_plus == res.r_minus == 3.0


def test_wilcoxon_all_ties_warning_says_why_and_points_at_the_caller():
    with pytest.warns(UserWarning) as record:
        wilcoxon_signed_rank([0.7, 0.8], [0.7, 0.8])
    assert [str(w.message) for w in record] == [
        "Every difference between `scores_a` and `scores_b` is zero: the test has "
        "no information; the p-value is set to 1."
    ]
    _assert_attributed_to_the_caller(record)


@pytest.mark.parametrize("alternative", ["two-sided", "greater", "less"])
@pytest.mark.parametrize("zero_method", ["zsplit", "wilcox", "pratt"])
def test_wilcoxon_reports_its_options(alternative, zero_method):
    res = wilcoxon_signed_rank(DEMSAR_TUNED, DEMSAR_PLAIN, alternative=alternative.upper(), zero_method=zero_method)
    assert (res.alternative, res.zero_method) == (alternative, zero_method)
    default = wilcoxon_signed_rank(DEMSAR_TUNED, DEMSAR_PLAIN)
    assert (default.alternative, default.zero_method) == ("two-sided", "zsplit")


def test_wilcoxon_refuses_differences_that_overflow():
    with pytest.raises(ValueError, match=r"The differences `scores_a - scores_b` overflow float64 at position\(s\) 1"):
        wilcoxon_signed_rank([0.0, 1e308, 2.0], [1.0, -1e308, 0.0])


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        (dict(scores_a=[1.0, 2.0], scores_b=[1.0]), r"`scores_a` and `scores_b` must be paired, with the same length"),
        (dict(scores_a=[1.0, np.nan], scores_b=[1.0, 2.0]), r"`scores_a` holds 1 NaN"),
        (dict(scores_a=[], scores_b=[]), r"`scores_a` must hold at least 1 value"),
        (dict(scores_a=[1.0, 2.0], scores_b=[2.0, 1.0], zero_method="drop"), r"`zero_method` must be one of 'zsplit', 'wilcox', 'pratt'; got 'drop'"),
        (dict(scores_a=[1.0, 2.0], scores_b=[2.0, 1.0], alternative="bigger"), r"`alternative` must be one of 'two-sided', 'greater', 'less'; got 'bigger'"),
    ],
)
def test_wilcoxon_rejects_bad_input(kwargs, match):
    with pytest.raises(ValueError, match=match):
        wilcoxon_signed_rank(**kwargs)

"""Rerun the source article's worked example through ``sigeval`` and print its output.

``python -m sigeval.course.reproduce`` (or ``make reproduce``) prints the article's
example output line for line, in its format: Part 1 compares two fixed template
matchers on one test set, Part 2 sweeps the seeds of a small MLP. Every number
is computed by the library (the SciPy cross-checks the article prints are
computed by SciPy, as in the article); ``tests/test_reproduce.py`` checks the
text against the article's.

The two parts draw from independent generators (``default_rng(0)`` and
``default_rng(1)``), so they run concurrently: Part 1 in one worker thread,
while Part 2 trains its two widths and evaluates its fresh images as tasks for
the same two workers. NumPy, SciPy and BLAS release the interpreter lock in
their heavy loops, so two cores share the work; BLAS itself is kept to one
thread per worker.
"""

from __future__ import annotations

import sys
from concurrent.futures import Executor, ThreadPoolExecutor

import numpy as np
from scipy import stats
from threadpoolctl import threadpool_limits

from ..intervals import coverage, proportion_ci
from ..paired import difference_se, mcnemar
from ..permutation import paired_permutation_test
from ..resampling import bootstrap_ci
from ..seeds import seed_summary, welch_test
from .mlp import seed_sweep
from .shapes import matcher_experiment

__all__ = ["part1_two_fixed_models", "part2_training_randomness", "article_output", "main"]


def part1_two_fixed_models() -> list[str]:
    """Part 1: template matchers A (no blur) and B (blur 0.5) on one test set of 1,000 images."""
    rng = np.random.default_rng(0)
    experiment = matcher_experiment(rng)  # 200,000 population images, then the test set
    pa, pb = experiment.population_accuracy
    ca, cb = experiment.test_correct
    n, ka = ca.size, int(ca.sum())
    lines = [
        f"population accuracy  A {pa:.4f}  B {pb:.4f}  difference {pa - pb:+.4f}",
        f"test accuracy (n={n})  A {ca.mean():.3f}  B {cb.mean():.3f}  "
        f"difference {ca.mean() - cb.mean():+.3f}",
    ]
    wald, wilson = (proportion_ci(ka, n, method=m) for m in ("wald", "wilson"))
    scipy_wilson = stats.binomtest(ka, n).proportion_ci(0.95, method="wilson")
    lines.append(
        f"A: Wald 95% [{wald.low:.3f}, {wald.high:.3f}]  Wilson 95% [{wilson.low:.3f}, {wilson.high:.3f}]"
        f"  scipy Wilson [{scipy_wilson.low:.3f}, {scipy_wilson.high:.3f}]"
    )

    lines.append("exact coverage of nominal 95% intervals (Wald / Wilson) for a true accuracy p:")
    for p in (pa, 0.98):
        cells = [
            f"n={m}: {coverage(m, p, method='wald'):.3f} / {coverage(m, p, method='wilson'):.3f}"
            for m in (20, 50, 100, 1000)
        ]
        lines.append(f"  p={p:.4f}  " + "   ".join(cells))

    se = difference_se(ca, cb)
    lines.append(
        f"SE of A - B: treating the accuracies as independent {se.standard_error_unpaired:.4f}, "
        f"paired {se.standard_error:.4f}"
    )

    # For a mean, the paired bootstrap resamples the per-image differences.
    d = ca.astype(float) - cb
    ours = bootstrap_ci(d, statistic=np.mean, n_resamples=10_000, rng=rng).confidence_interval
    parts = [f"percentile [{ours.low:+.3f}, {ours.high:+.3f}]"]
    for method, ci in _scipy_paired_bootstrap(ca, cb).items():
        parts.append(f"scipy {method} [{ci.low:+.3f}, {ci.high:+.3f}]")
    lines.append("paired bootstrap 95% CI of A - B: " + "  ".join(parts))

    test = mcnemar(ca, cb)
    scipy_p = stats.binomtest(test.n01, test.n01 + test.n10, 0.5).pvalue
    lines.append(
        f"McNemar: A right/B wrong {test.n01}, A wrong/B right {test.n10}; "
        f"exact p = {test.pvalue:.4f} (scipy {scipy_p:.4f})"
    )
    perm = paired_permutation_test(ca, cb, n_resamples=20_000, method="monte-carlo", rng=rng)
    lines.append(f"paired permutation test (20,000 sign flips): p = {perm.pvalue:.4f}")
    return lines


def _scipy_paired_bootstrap(ca: np.ndarray, cb: np.ndarray) -> dict:
    """SciPy's percentile and BCa intervals of the mean difference, the article's cross-check.

    Both of the article's calls use ``rng=default_rng(1)`` and so the same
    resamples; the BCa interval is therefore computed from the percentile call's
    bootstrap distribution. A vectorised statistic gives the same distribution
    as the article's per-resample one, since every resample mean is an exact
    integer divided by ``n``.
    """
    data = (ca.astype(float), cb.astype(float))

    def mean_difference(a, b, axis):
        return np.mean(a - b, axis=axis)

    options = dict(paired=True, vectorized=True, batch=1000)
    percentile = stats.bootstrap(
        data, mean_difference, n_resamples=10_000, method="percentile", rng=np.random.default_rng(1), **options
    )
    bca = stats.bootstrap(
        data, mean_difference, n_resamples=0, method="BCa", bootstrap_result=percentile, **options
    )
    return {"percentile": percentile.confidence_interval, "BCa": bca.confidence_interval}


def part2_training_randomness(executor: Executor | None = None) -> list[str]:
    """Part 2: 20 seeds each of a 32- and a 64-unit MLP, on a fixed test set and on fresh images."""
    # Widest first: with two workers, training 64 units and then 32 takes about
    # as long as Part 1.
    runs = seed_sweep(hidden=(64, 32), seeds=range(20), rng=1, executor=executor).runs
    res = {h: runs.loc[runs.hidden == h, ["test_acc", "fresh_acc"]].to_numpy() for h in (32, 64)}
    lines = [
        "",
        "20 seeds per model; same training and test images",
        "hidden  test acc: mean  sd     min-max       | fresh acc: mean  sd",
    ]
    for h, r in res.items():
        test, fresh = seed_summary(r[:, 0]), seed_summary(r[:, 1])
        lines.append(
            f"{h:6d}  {test.mean:.3f}  {test.sd:.4f}  {test.min:.3f}-{test.max:.3f}"
            f"  |  {fresh.mean:.4f}  {fresh.sd:.4f}"
        )
    a = res[32][:, 0].mean()
    lines.append(f"binomial SE of one test accuracy (n=1000): {np.sqrt(a * (1 - a) / 1000):.4f}")
    # Every run of one width against every run of the other.
    pair = res[64][:, 0][:, None] - res[32][:, 0][None, :]
    lines.append(
        f"single-run comparisons on the test set (400 pairs): 64 higher {np.mean(pair > 0):.2f}, "
        f"tied {np.mean(pair == 0):.2f}, lower {np.mean(pair < 0):.2f}"
    )
    both = np.vstack([res[32], res[64]])
    lines.append(
        f"correlation of test and fresh accuracy over the 40 networks: {np.corrcoef(both.T)[0, 1]:.2f}"
    )
    for j, name in ((0, "test set"), (1, "fresh images")):
        welch = welch_test(res[64][:, j], res[32][:, j])
        lines.append(
            f"Welch t-test, 20 runs vs 20 runs, {name}: difference of means "
            f"{welch.estimate:+.4f}, p = {welch.pvalue:.4f}"
        )
    return lines


def article_output() -> str:
    """The article's whole example output, computed by ``sigeval``."""
    with threadpool_limits(limits=1, user_api="blas"), ThreadPoolExecutor(max_workers=2) as pool:
        part1 = pool.submit(part1_two_fixed_models)
        part2 = part2_training_randomness(executor=pool)
        lines = part1.result() + part2
    return "\n".join(lines) + "\n"


def main() -> None:
    # Hand the interpreter lock over more often than every 5 ms: the training
    # loop holds it between its many small NumPy calls, which otherwise starves
    # the other worker.
    sys.setswitchinterval(1e-4)
    sys.stdout.write(article_output())


if __name__ == "__main__":
    main()

"""Paired bootstrap of a difference in accuracy: sigeval against scipy.stats.bootstrap.

The design budget: one million test items, 10,000 resamples, under 1 s and
under 200 MB peak memory. sigeval's mean fast path draws multinomial counts of
the per-item differences (-1, 0, +1) instead of item indices; scipy draws and
gathers n indices per resample. At 10^6 x 10^4 that is 10^10 indices (80 GB),
so scipy runs here in batches with fewer resamples and its time is
extrapolated linearly in the number of resamples (its cost per resample is
constant). A smaller problem, 10^4 items x 10^4 resamples, is compared directly.

Run: ``python benchmarks/bench_bootstrap.py`` (about a minute on 2 cores).
"""

from __future__ import annotations

import resource
import time
import tracemalloc

import numpy as np
from _bench import Comparison, run
from scipy import stats

from sigeval import paired_bootstrap_ci

N_RESAMPLES = 10_000
SCIPY_RESAMPLES = 500   # at one million items; extrapolated to N_RESAMPLES


def correlated_classifiers(n: int, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """Per-item correctness of two classifiers that agree on most items (A ~85%, B ~84%)."""
    gen = np.random.default_rng(seed)
    a = gen.random(n) < 0.85
    b = np.where(gen.random(n) < 0.93, a, gen.random(n) < 0.75)
    return a, b


def mean_difference(x, y, axis=-1):
    return np.mean(x, axis=axis) - np.mean(y, axis=axis)


def maxrss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024   # kB on Linux


def timed(fn):
    start = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - start


def run_scipy(a, b, n_resamples, batch):
    return stats.bootstrap(
        (a.astype(float), b.astype(float)), mean_difference, paired=True, vectorized=True,
        method="percentile", n_resamples=n_resamples, batch=batch, rng=np.random.default_rng(1),
    )


def show(res) -> str:
    low, high = res.confidence_interval
    return f"[{low:+.4f}, {high:+.4f}]"


def main() -> None:
    n = 1_000_000
    a, b = correlated_classifiers(n)
    print(f"{n:,} paired 0/1 items, A {a.mean():.4f}, B {b.mean():.4f}, "
          f"disagreements {np.count_nonzero(a != b):,}; {N_RESAMPLES:,} resamples, 95% percentile interval")

    paired_bootstrap_ci(a[:1000], b[:1000], n_resamples=100, rng=0)   # warm-up (imports, caches)
    rss_before = maxrss_mb()
    ours, t_ours = timed(lambda: paired_bootstrap_ci(a, b, n_resamples=N_RESAMPLES, rng=0))
    rss_delta = maxrss_mb() - rss_before
    tracemalloc.start()
    paired_bootstrap_ci(a, b, n_resamples=N_RESAMPLES, rng=0)
    peak_mb = tracemalloc.get_traced_memory()[1] / 1e6
    tracemalloc.stop()
    print(f"  sigeval (multinomial fast path): {t_ours:.3f} s, tracemalloc peak {peak_mb:.0f} MB, "
          f"ru_maxrss increase {rss_delta:.0f} MB; CI {show(ours)}")
    budget = "within" if t_ours < 1 and peak_mb < 200 else "OUTSIDE"
    print(f"  design budget (< 1 s, < 200 MB): {budget}")

    ref, t_ref = timed(lambda: run_scipy(a, b, SCIPY_RESAMPLES, batch=10))
    t_ref_full = t_ref * N_RESAMPLES / SCIPY_RESAMPLES
    print(f"  scipy.stats.bootstrap (paired, vectorized, batch=10): {SCIPY_RESAMPLES} resamples in "
          f"{t_ref:.1f} s -> {t_ref_full:.0f} s for {N_RESAMPLES:,} (extrapolated linearly); "
          f"CI from {SCIPY_RESAMPLES} resamples {show(ref)}")
    print(f"  => sigeval {t_ours:.3f} s vs scipy {t_ref_full:.0f} s (extrapolated): "
          f"{t_ref_full / t_ours:,.0f}x faster")

    n = 10_000
    a, b = correlated_classifiers(n, seed=1)
    print(f"\n{n:,} paired 0/1 items, {N_RESAMPLES:,} resamples, both run in full")
    fast, t_fast = timed(lambda: paired_bootstrap_ci(a, b, n_resamples=N_RESAMPLES, rng=0))
    index, t_index = timed(lambda: paired_bootstrap_ci(
        a, b, statistic=lambda x, axis: x.mean(axis=axis), n_resamples=N_RESAMPLES, rng=0))
    ref, t_ref = timed(lambda: run_scipy(a, b, N_RESAMPLES, batch=500))
    print(f"  sigeval fast path:                      {t_fast:7.3f} s  CI {show(fast)}")
    print(f"  sigeval index resampling (callable):    {t_index:7.3f} s  CI {show(index)}")
    print(f"  scipy.stats.bootstrap (batch=500):      {t_ref:7.3f} s  CI {show(ref)}")
    print(f"  => sigeval {t_fast:.3f} s vs scipy {t_ref:.2f} s: {t_ref / t_fast:,.0f}x faster "
          f"(index resampling: {t_ref / t_index:.1f}x)")


def comparisons() -> list[Comparison]:
    big_a, big_b = correlated_classifiers(1_000_000)
    small_a, small_b = correlated_classifiers(10_000, seed=1)
    return [
        Comparison("paired bootstrap, 10^6 items x 10^4 resamples",
                   lambda: paired_bootstrap_ci(big_a, big_b, n_resamples=N_RESAMPLES, rng=0),
                   "scipy.stats.bootstrap (paired)",
                   lambda: run_scipy(big_a, big_b, SCIPY_RESAMPLES // 5, batch=10),
                   scale=5 * N_RESAMPLES / SCIPY_RESAMPLES, repeats=1),
        Comparison("paired bootstrap, 10^4 items x 10^4 resamples",
                   lambda: paired_bootstrap_ci(small_a, small_b, n_resamples=N_RESAMPLES, rng=0),
                   "scipy.stats.bootstrap (paired)",
                   lambda: run_scipy(small_a, small_b, N_RESAMPLES, batch=500), repeats=3),
    ]


if __name__ == "__main__":
    main()
    print()
    run(comparisons())

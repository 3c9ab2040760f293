"""Confidence sequences at scale: the betting sequence over 10^6 differences, and 10^5 updates of the
t-mixture comparison (issue 40).

The betting sequence carries only a window of its 4001-point grid of candidate means (the points that can
still be accepted, and a margin); the alternative is the same process over the whole grid at every pair,
the algorithm before issue 40 (the ``confseq`` package, the peer, does not install from PyPI here: it
builds C++ against Boost headers that pip cannot bring), run on 10^4 differences and scaled. The
t-mixture driver keeps running sums; the alternative recomputes the sequence of all pairs at each update
(the driver before issue 40), whose cost grows as the square of the updates: 10^4 of them, scaled by 100.
Goals: 10^6 differences under 30 s, 10^5 updates under 5 s.
"""

from __future__ import annotations

import numpy as np
from _bench import Comparison, run

from sigeval import SequentialComparison, confidence_sequence
from sigeval.sequential import _Betting

N_BETTING, N_DENSE = 1_000_000, 10_000
N_UPDATES, N_RECOMPUTED = 100_000, 10_000


def dense_betting(x: np.ndarray, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """The hedged capital process over the whole grid at every pair (before issue 40), for x in [0, 1]."""
    bet = _Betting(alpha)
    lam = bet._bets(x)
    up, down = np.zeros(bet.grid.size), np.zeros(bet.grid.size)
    low, high = np.empty(x.size), np.empty(x.size)
    for start in range(0, x.size, 256):
        xb, lb = x[start:start + 256, None], lam[start:start + 256, None]
        step = xb - bet.grid
        ups = up + np.cumsum(np.log1p(np.minimum(lb, bet.cap_up) * step), axis=0)
        downs = down + np.cumsum(np.log1p(-np.minimum(lb, bet.cap_down) * step), axis=0)
        up, down = ups[-1], downs[-1]
        capital = np.maximum(ups, downs)
        inside = capital < bet.threshold
        empty = ~inside.any(axis=1)
        inside[empty, np.argmin(capital[empty], axis=1)] = True
        first = np.argmax(inside, axis=1)
        last = bet.grid.size - 1 - np.argmax(inside[:, ::-1], axis=1)
        low[start:start + xb.shape[0]] = bet.grid[np.maximum(first - 1, 0)]
        high[start:start + xb.shape[0]] = bet.grid[np.minimum(last + 1, bet.grid.size - 1)]
    return np.maximum.accumulate(low), np.minimum.accumulate(high)


def updates(a: np.ndarray, b: np.ndarray, driver: type[SequentialComparison]) -> SequentialComparison:
    comp = driver(method="t-mixture", threshold=0.01, alpha=0.001)  # the true difference: no stop
    for x, y in zip(a.tolist(), b.tolist()):
        comp.update(x, y)
    return comp


class Recomputing(SequentialComparison):
    """The driver before issue 40: the whole t-mixture sequence recomputed at each update."""

    def _sequence(self, new):
        cs = confidence_sequence(self.differences, confidence_level=1.0 - self.alpha, method="t-mixture")
        self.low, self.high = max(self.low, float(cs.low[-1])), min(self.high, float(cs.high[-1]))
        self.decision = self._verdict(self.low, self.high, settled=True)
        if self.decision != "continue":
            self.decided_at = self.n


def comparisons() -> list[Comparison]:
    gen = np.random.default_rng(0)
    d = np.clip(gen.normal(0.01, 0.1, N_BETTING), -1.0, 1.0)
    a, b = gen.normal(0.80, 0.02, N_UPDATES), gen.normal(0.79, 0.02, N_UPDATES)  # differences of mean 0.01

    def same_limits(ours, theirs) -> str:
        prefix = confidence_sequence(d[:N_DENSE], bounds=(-1, 1))
        low, high = theirs
        assert np.array_equal(prefix.low, -1 + 2 * low) and np.array_equal(prefix.high, -1 + 2 * high)
        return f"first {N_DENSE:,} limits identical"

    def same_interval(ours, theirs) -> str:
        check = updates(a[:N_RECOMPUTED], b[:N_RECOMPUTED], SequentialComparison)
        gap = max(abs(check.low - theirs.low), abs(check.high - theirs.high)) / abs(theirs.high)
        assert gap <= 1e-12 and check.decision == theirs.decision, (gap, check.decision, theirs.decision)
        return f"interval at {N_RECOMPUTED:,} within {gap:.0e} relative"

    return [
        Comparison("betting confidence sequence, 10^6 differences",
                   lambda: confidence_sequence(d, bounds=(-1, 1)), "whole 4001-point grid (before issue 40)",
                   lambda: dense_betting((d[:N_DENSE] + 1) / 2), scale=N_BETTING / N_DENSE, repeats=1,
                   goal=30.0, warmup=False, agree=same_limits),
        Comparison("t-mixture SequentialComparison, 10^5 updates",
                   lambda: updates(a, b, SequentialComparison), "recompute at each update, 10^4 (quadratic)",
                   lambda: updates(a[:N_RECOMPUTED], b[:N_RECOMPUTED], Recomputing),
                   scale=(N_UPDATES / N_RECOMPUTED) ** 2, repeats=1, goal=5.0, warmup=False, agree=same_interval),
    ]


if __name__ == "__main__":
    run(comparisons())

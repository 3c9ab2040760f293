"""The figure of the definitions page: the null and the alternative t distributions behind a power.

    python tools/definitions_figure.py          # rewrites book/figures/power_noncentral_t.svg

The definitions page is not executed, so its one figure is drawn here and committed. With S = 10
paired runs and a true mean difference of one standard deviation of the differences, the paired
t statistic follows the central t with 9 degrees of freedom if there is no difference, and the
noncentral t with noncentrality sqrt(10) if there is; the power is the alternative's probability
beyond the two critical values. The numbers printed on the figure are computed here.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")

import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from scipy import stats  # noqa: E402

OUT = Path(__file__).resolve().parents[1] / "book" / "figures" / "power_noncentral_t.svg"
S, EFFECT, ALPHA = 10, 1.0, 0.05  # pairs, delta / sigma_d, level


def draw(path: Path = OUT) -> float:
    """Draw the figure into ``path``; returns the power it shows."""
    df, noncentrality = S - 1, EFFECT * np.sqrt(S)
    critical = stats.t.isf(ALPHA / 2, df)
    power = stats.nct.sf(critical, df, noncentrality) + stats.nct.cdf(-critical, df, noncentrality)
    x = np.linspace(-5, 9, 1401)
    null, alternative = stats.t.pdf(x, df), stats.nct.pdf(x, df, noncentrality)
    plt.rcParams.update({"font.size": 9, "svg.hashsalt": "sigeval", "svg.fonttype": "path"})
    fig, ax = plt.subplots(figsize=(6.4, 2.6))
    ax.plot(x, null, color="#7f7f7f", lw=1.4, label=f"no difference: $t_{{{df}}}$")
    ax.set_ylim(0, 1.45 * max(null.max(), alternative.max()))
    ax.plot(x, alternative, color="#1f77b4", lw=1.4,
            label=rf"$\delta = \sigma_d$: noncentral $t_{{{df}}}(\lambda = {noncentrality:.2f})$")
    for side in (-1, 1):
        ax.axvline(side * critical, color="#d62728", lw=0.9, ls="--")
        tail = x * side >= critical
        ax.fill_between(x[tail], null[tail], color="#7f7f7f", alpha=0.35, lw=0)
    reject = np.abs(x) >= critical
    ax.fill_between(x, alternative, where=reject, color="#1f77b4", alpha=0.25, lw=0)
    ax.annotate(f"power = {power:.2f}", xy=(noncentrality + 0.8, stats.nct.pdf(noncentrality, df, noncentrality) / 2),
                ha="left", color="#1f77b4")
    ax.annotate(f"{ALPHA / 2:.3f} each side", xy=(-critical - 0.2, 0.06), ha="right", color="#555555")
    top = ax.get_ylim()[1]
    ax.text(-critical - 0.15, 0.9 * top, f"$-t_{{{df},\\,{1 - ALPHA / 2}}}$", color="#d62728", ha="right", va="top")
    ax.text(critical - 0.15, 0.9 * top, f"$t_{{{df},\\,{1 - ALPHA / 2}}} = {critical:.3f}$",
            color="#d62728", ha="right", va="top")
    ax.set(xlabel=f"paired t statistic, S = {S} pairs", ylabel="density", yticks=[])
    ax.spines[["top", "right", "left"]].set_visible(False)
    ax.legend(loc="upper right", frameon=False, fontsize=8)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, metadata={"Date": None, "Creator": None})
    plt.close(fig)
    return float(power)


if __name__ == "__main__":
    print(f"power {draw():.4f}; wrote {OUT.relative_to(Path.cwd()) if OUT.is_relative_to(Path.cwd()) else OUT}")

"""Posteriors of Bayesian comparisons: the t posterior with its ROPE, the simplex of three regions."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from matplotlib.axes import Axes
from scipy import stats

from .._validation import check_finite_array, check_positive_int, check_real
from .._validation_figures import check_result, check_sequence

#: One colour per region: A practically better, practically equivalent, B practically better.
REGION_COLORS = ("#1f77b4", "#7f7f7f", "#ff7f0e")


def _names(names: Sequence[str]) -> tuple[str, str]:
    name_a, name_b = check_sequence(names, "names", 2, "model")
    return str(name_a), str(name_b)


def posterior_density(ax: Axes, posterior, *, names: Sequence[str] = ("A", "B")) -> Axes:
    """The Student t posterior of a mean difference, its three regions shaded.

    Draws the density of a :class:`~sigeval.bayes.StudentPosterior` (from
    :func:`~sigeval.bayes.correlated_ttest` or
    :func:`~sigeval.bayes.bayesian_paired_t`), the area under it filled in
    the colour of its region: A practically better (:math:`\\delta > r`),
    practically equivalent (:math:`|\\delta| \\le r`, the ROPE, also shaded as
    a band) and B practically better; the legend gives each region's
    probability. A posterior of scale 0 (all differences equal) is a point
    mass, drawn as a vertical bar at its location.

    Used in :ref:`ch-procedures`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval import correlated_ttest
    >>> from sigeval.plots import posterior_density
    >>> post = correlated_ttest([0.02, 0.01, 0.03, 0.0, 0.02, 0.04, 0.01, 0.02, 0.03, 0.01],
    ...                         test_fraction=0.1, rope=0.01)
    >>> fig, ax = plt.subplots()
    >>> _ = posterior_density(ax, post)
    >>> plt.close(fig)
    """
    fields = ("df", "loc", "scale", "rope", "prob_a_better", "prob_rope", "prob_b_better")
    df, loc, scale, rope, *given = check_result(posterior, "posterior", "StudentPosterior", fields)
    loc, scale, rope = (check_real(v, f"posterior.{n}") for v, n in zip((loc, scale, rope), ("loc", "scale", "rope")))
    df = check_positive_int(df, "posterior.df")
    probs = check_finite_array(given, "posterior probabilities")
    name_a, name_b = _names(names)
    labels = (
        f"{name_a} better: {probs[0]:.3f}",
        f"equivalent: {probs[1]:.3f}",
        f"{name_b} better: {probs[2]:.3f}",
    )
    if rope > 0:
        ax.axvspan(-rope, rope, color=REGION_COLORS[1], alpha=0.15, lw=0)
    if scale == 0:
        region = 0 if loc > rope else 2 if loc < -rope else 1
        ax.vlines(loc, 0, 1, color=REGION_COLORS[region], lw=3, label=labels[region] + " (point mass)")
        ax.set(xlabel="difference A - B", ylabel="probability")
        ax.legend(loc="upper left", fontsize="small")
        return ax
    dist = stats.t(df, loc=loc, scale=scale)
    low = min(float(dist.ppf(0.001)), -1.2 * rope)
    high = max(float(dist.ppf(0.999)), 1.2 * rope)
    x = np.linspace(low, high, 600)
    y = dist.pdf(x)
    ax.plot(x, y, color="black", lw=1)
    for region, mask, label in zip(range(3), (x >= rope, np.abs(x) <= rope, x <= -rope), labels):
        if rope == 0 and region == 1:
            continue
        ax.fill_between(x, 0, y, where=mask, color=REGION_COLORS[region], alpha=0.6, lw=0, label=label)
    ax.axvline(0, color="black", lw=0.6, ls=":")
    ax.set(xlabel="difference A - B", ylabel="posterior density", ylim=(0, None))
    ax.legend(loc="upper left", fontsize="small")
    return ax


# The triangle's corners: A better (bottom left), B better (bottom right), equivalent (top).
_CORNERS = np.array([[0.0, 0.0], [0.5, np.sqrt(3) / 2], [1.0, 0.0]])


def posterior_simplex(ax: Axes, posterior, *, names: Sequence[str] = ("A", "B"), gridsize: int = 40) -> Axes:
    """Posterior samples of three region probabilities in a triangle (barycentric coordinates).

    Each sample of a :class:`~sigeval.bayes.DirichletPosterior` (from
    :func:`~sigeval.bayes.bayesian_signed_rank` or
    :func:`~sigeval.bayes.bayesian_sign_test`) is a point
    :math:`(\\theta_A, \\theta_0, \\theta_B)` on the simplex: the nearer a
    corner, the more probable that region. The lines from the centre to the
    sides' midpoints split the triangle into the three areas where each
    region is the most probable; the fraction of samples in each area is the
    probability written at its corner (baycomp's picture, Benavoli et al.,
    2017). The samples are drawn as a hexagonal density.

    Used in :ref:`ch-ranking`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval import bayesian_signed_rank
    >>> from sigeval.plots import posterior_simplex
    >>> post = bayesian_signed_rank([0.81, 0.74, 0.92, 0.66, 0.88], [0.80, 0.70, 0.90, 0.67, 0.84],
    ...                             rope=0.01, n_draws=5000, rng=0)
    >>> fig, ax = plt.subplots()
    >>> _ = posterior_simplex(ax, post)
    >>> plt.close(fig)
    """
    samples, *given = check_result(
        posterior, "posterior", "DirichletPosterior", ("posterior_samples", "prob_a_better", "prob_rope", "prob_b_better")
    )
    samples = check_finite_array(samples, "posterior.posterior_samples")
    if samples.ndim != 2 or samples.shape[1] != 3:
        raise ValueError(
            f"`posterior.posterior_samples` must have shape (n_draws, 3); got {samples.shape}."
        )
    probs = check_finite_array(given, "posterior probabilities")
    name_a, name_b = _names(names)
    gridsize = check_positive_int(gridsize, "gridsize")
    points = samples @ _CORNERS  # barycentric to Cartesian
    outline = np.vstack([_CORNERS, _CORNERS[:1]])
    ax.plot(outline[:, 0], outline[:, 1], color="black", lw=1)
    centre = _CORNERS.mean(axis=0)
    for i in range(3):
        middle = (_CORNERS[i] + _CORNERS[(i + 1) % 3]) / 2
        ax.plot([centre[0], middle[0]], [centre[1], middle[1]], color="black", lw=0.6, ls="--")
    ax.hexbin(points[:, 0], points[:, 1], gridsize=gridsize, mincnt=1, cmap="Blues", extent=(0, 1, 0, 0.9),
              linewidths=0)
    ax.text(0.0, -0.04, f"{name_a} better\n{probs[0]:.3f}", ha="center", va="top", color=REGION_COLORS[0])
    ax.text(1.0, -0.04, f"{name_b} better\n{probs[2]:.3f}", ha="center", va="top", color=REGION_COLORS[2])
    ax.text(0.5, np.sqrt(3) / 2 + 0.03, f"equivalent\n{probs[1]:.3f}", ha="center", va="bottom",
            color=REGION_COLORS[1])
    ax.set(xlim=(-0.2, 1.2), ylim=(-0.2, 1.08))
    ax.set_aspect("equal")
    ax.axis("off")
    return ax

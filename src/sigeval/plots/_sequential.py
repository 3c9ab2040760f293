"""Comparisons looked at while the seeds come in: confidence sequences and group-sequential boundaries."""

from __future__ import annotations

import numpy as np
from matplotlib.axes import Axes
from numpy.typing import ArrayLike
from scipy import stats

from .._numeric import running_mean_and_squares
from .._validation import check_finite_array, check_real
from .._validation_figures import check_axes, check_result


def confidence_sequence_plot(
    ax: Axes,
    sequence: object,
    differences: ArrayLike,
    *,
    truth: float | None = None,
    scale: float = 1.0,
) -> Axes:
    """A confidence sequence over the pairs, with the fixed-n t interval at each n beside it.

    The band is the sequence (valid at every n at once); the two thin lines are
    the paired t interval one would compute at each n as if that n had been
    planned (valid at one n only), both at the sequence's level. The vertical
    extent is set by the t intervals, so a sequence far wider than them runs off
    the axes rather than flattening them.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    sequence : ConfidenceSequence
        From :func:`sigeval.sequential.confidence_sequence` on ``differences``.
    differences : array_like
        The paired differences, in order (at least 2).
    truth : float, optional
        A true mean difference to mark (in a simulation).
    scale : float
        Multiplies every value drawn (100 draws accuracies in points).

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Used in :ref:`ch-sequential`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> import numpy as np
    >>> from sigeval import confidence_sequence
    >>> from sigeval.plots import confidence_sequence_plot
    >>> d = np.random.default_rng(0).normal(0.002, 0.003, 50)
    >>> fig, ax = plt.subplots()
    >>> _ = confidence_sequence_plot(ax, confidence_sequence(d, method="t-mixture"), d, scale=100)
    >>> plt.close(fig)
    """
    check_axes(ax)
    n_seq, low, high, level = check_result(
        sequence, "sequence", "ConfidenceSequence", ("n", "low", "high", "confidence_level"))
    d = check_finite_array(differences, "differences").ravel()
    if d.size < 2 or np.shape(low) != d.shape:
        raise ValueError(
            f"`differences` must be the {np.size(low)} differences of `sequence`, at least 2; got {d.size}."
        )
    scale = check_real(scale, "scale")
    n = np.arange(1, d.size + 1)
    mean, squares = running_mean_and_squares(d)
    sd = np.sqrt(np.maximum(squares[1:], 0.0) / (n[1:] - 1))
    half = stats.t.isf((1 - level) / 2, n[1:] - 1) * sd / np.sqrt(n[1:])
    band_low, band_high = np.asarray(low) * scale, np.asarray(high) * scale
    ax.fill_between(n, band_low, band_high, color="C0", alpha=0.25, lw=0,
                    label=f"confidence sequence ({level:.0%}, every n at once)")
    ax.plot(n[1:], (mean[1:] - half) * scale, color="C3", lw=1, label="fixed-n t interval at each n")
    ax.plot(n[1:], (mean[1:] + half) * scale, color="C3", lw=1)
    ax.plot(n, mean * scale, color="black", lw=0.8, label="running mean")
    if truth is not None:
        ax.axhline(check_real(truth, "truth") * scale, color="black", ls=":", lw=1, label="true mean difference")
    finite = np.isfinite(half)
    if finite.any():
        spread = float(np.max(half[finite]) * abs(scale))
        centre = float(np.median(mean) * scale)
        ax.set_ylim(centre - 1.5 * spread, centre + 1.5 * spread)
    ax.set(xlabel="pairs", ylabel="mean difference", xlim=(1, d.size))
    ax.legend(fontsize=7)
    return ax


def group_sequential_plot(
    ax: Axes,
    bounds: object,
    n_pairs: ArrayLike,
    *,
    statistics: ArrayLike | None = None,
    t_scale: bool = True,
) -> Axes:
    """The critical values of a group-sequential design at its looks, and an observed path.

    Parameters
    ----------
    ax : matplotlib.axes.Axes
    bounds : GroupSequentialBounds
        From :func:`sigeval.sequential.group_sequential_bounds`.
    n_pairs : array_like of int
        The number of pairs at each look.
    statistics : array_like, optional
        Observed statistics at the looks reached so far (their absolute values
        are drawn for a two-sided design).
    t_scale : bool
        Draw the boundaries mapped onto paired t statistics
        (:meth:`~sigeval.sequential.GroupSequentialBounds.t_critical_values`), as
        the statistics of a few seeds need; ``False`` draws the z values.

    Returns
    -------
    matplotlib.axes.Axes

    Notes
    -----
    Used in :ref:`ch-sequential`.

    Examples
    --------
    >>> import matplotlib.pyplot as plt
    >>> from sigeval import group_sequential_bounds
    >>> from sigeval.plots import group_sequential_plot
    >>> fig, ax = plt.subplots()
    >>> _ = group_sequential_plot(ax, group_sequential_bounds(3), [5, 10, 20], statistics=[1.2, 3.5])
    >>> plt.close(fig)
    """
    check_axes(ax)
    critical, spending, alternative = check_result(
        bounds, "bounds", "GroupSequentialBounds", ("critical_values", "spending", "alternative"))
    if t_scale not in (True, False):
        raise TypeError(f"`t_scale` must be True or False; got {t_scale!r}.")
    looks = np.asarray(n_pairs)
    if looks.shape != np.shape(critical):
        raise ValueError(f"`n_pairs` must give one number of pairs per look ({np.size(critical)}); got {looks.tolist()}.")
    values = bounds.t_critical_values(looks) if t_scale else np.asarray(critical)  # type: ignore[attr-defined]
    kind = "t" if t_scale else "z"
    name = {"obrien-fleming": "O'Brien-Fleming", "pocock": "Pocock"}.get(str(spending), str(spending))
    ax.plot(looks, values, "o-", color="C0", label=f"{name} boundary ({kind})")
    if statistics is not None:
        path = check_finite_array(statistics, "statistics").ravel()
        if path.size > looks.size:
            raise ValueError(f"`statistics` must hold at most one value per look ({looks.size}); got {path.size}.")
        shown = np.abs(path) if alternative == "two-sided" else path
        ax.plot(looks[: path.size], shown, "x--", color="black",
                label="|statistic|" if alternative == "two-sided" else "statistic")
        crossed = np.flatnonzero(shown >= values[: path.size])
        if crossed.size:
            k = int(crossed[0])
            ax.plot(looks[k], shown[k], "o", ms=10, mfc="none", color="C3", label=f"stop at {looks[k]} pairs")
    top = float(np.max(values[np.isfinite(values)])) if np.isfinite(values).any() else 5.0
    ax.set(xlabel="pairs", ylabel=f"critical value / {kind} statistic", xticks=looks, ylim=(0, min(top, 12) * 1.1))
    ax.legend(fontsize=7)
    return ax

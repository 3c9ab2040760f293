"""Tables as text: the cells every output shows, and a layout that fits a terminal's width.

The renderer's floor below (:mod:`sigeval._report_output`): a table's cells at a stated
precision, as the Markdown, LaTeX, HTML and text outputs all show them, and a text layout
that keeps each row whole within a width, shortening headers (with a legend) and wrapping
rows onto indented lines before a table would be split into blocks.
"""

from __future__ import annotations

import textwrap
from typing import Any

import numpy as np
import pandas as pd

#: Columns shown as p-values (3 significant digits) rather than at the stated precision.
_PVALUE = ("pvalue", "pvalue_holm", "pvalue_difference", "pvalue_equivalence", "pvalue_difference_holm",
           "pvalue_equivalence_holm")


def _cell(value: Any, column: str, precision: int) -> str:
    if isinstance(value, bool | np.bool_):
        return "yes" if value else "no"
    if isinstance(value, float | np.floating):
        if np.isnan(value):
            return "–"
        return f"{value:.3g}" if column in _PVALUE else f"{value:.{precision}f}"
    return str(value)


def formatted(frame: pd.DataFrame, precision: int) -> list[list[str]]:
    """The cells of ``frame`` as text: floats at ``precision`` decimals, p-values at 3 significant digits."""
    return [[_cell(v, c, precision) for c, v in zip(frame.columns, row)] for row in frame.itertuples(index=False)]


#: Shorter headers for tables wider than the terminal; each one used is spelled out in a legend below the table.
SHORT = {"n_pairs": "n", "mean_diff": "diff", "ci_low": "low", "ci_high": "high", "pvalue": "p", "pvalue_holm": "p_holm",
         "n_runs": "runs", "n_failed": "failed", "n_tasks": "tasks", "sigma_d": "sd_d", "alpha_used": "alpha",
         "observed_power": "power", "detectable": "detect", "pvalue_difference": "p_diff",
         "pvalue_equivalence": "p_eq", "pvalue_difference_holm": "p_diff_holm", "pvalue_equivalence_holm": "p_eq_holm",
         "posterior_scale": "scale", "prob_a_better": "P(A)", "prob_rope": "P(rope)", "prob_b_better": "P(B)",
         "optimality_gap": "gap", "mean_rank": "rank", "confidence_level": "level"}
_INDENT = "    "
_SHOWN = str.maketrans({"\n": "\\n", "\r": "\\r", "\t": "\\t"})


def _short(name: str) -> str:
    """A header's short form: its own, or its stem's with ``_lo`` and ``_hi`` for the ends of an interval."""
    for end, short_end in (("_ci_low", "_lo"), ("_ci_high", "_hi")):
        if name.endswith(end):
            return SHORT.get(name[: -len(end)], name[: -len(end)]) + short_end
    return "seeds@" + name.removeprefix("seeds_for_") if name.startswith("seeds_for_") else SHORT.get(name, name)


def text_table(frame: pd.DataFrame, width: int, precision: int = 4) -> str:
    """``frame`` as a terminal shows it within ``width`` columns, each row whole.

    The cells are those of the other formats (:func:`formatted`: floats at ``precision`` decimals, p-values at
    3 significant digits, yes and no); a column with no content (every cell empty or missing) is left out. A
    table wider than ``width`` gets shorter headers, spelled out in a legend below it; one still wider prints
    each row on several lines, the first holding the row's names (the text columns it starts with), the others
    indented, with a blank line between rows; a text longer than a line is wrapped on lines of its own.
    """
    # A line break or a tab in a name is shown, not obeyed: it would break the row (as Markdown shows it).
    cells = [[cell.translate(_SHOWN) for cell in row] for row in formatted(frame, precision)]
    keep = [i for i in range(frame.shape[1]) if not cells or any(row[i] not in ("", "–") for row in cells)]
    cells = [[row[i] for i in keep] for row in cells]
    right = [pd.api.types.is_numeric_dtype(frame.iloc[:, i]) and not pd.api.types.is_bool_dtype(frame.iloc[:, i])
             for i in keep]
    headers = [str(frame.columns[i]).translate(_SHOWN) for i in keep]
    if _span(headers, cells) <= width:
        return "\n".join(_layout(headers, cells, right, width))
    short = [_short(h) for h in headers]
    legend = "; ".join(f"{s} = {h}" for s, h in zip(short, headers) if s != h)
    return "\n".join(_layout(short, cells, right, width) + ([wrapped(f"({legend})", width)] if legend else []))


def _sizes(headers: list[str], cells: list[list[str]]) -> list[int]:
    return [max([len(h), *(len(row[i]) for row in cells)]) for i, h in enumerate(headers)]


def _span(headers: list[str], cells: list[list[str]]) -> int:
    """The width of the table with one line per row."""
    sizes = _sizes(headers, cells)
    return sum(sizes) + 2 * (len(sizes) - 1)


def _layout(headers: list[str], cells: list[list[str]], right: list[bool], width: int) -> list[str]:
    """The header and the rows, one line each if they fit in ``width``, else each on as many lines as it needs."""
    sizes = _sizes(headers, cells)
    room = width - len(_INDENT)  # on an indented line
    names = next((i for i, r in enumerate(right) if r), len(right))  # the leading text columns name a row

    def split(limit: int) -> list[list[int]]:
        """The columns of each line of a row: as many as fit in ``limit``, the names on the first."""
        lines: list[list[int]] = [list(range(names))]
        for i in range(names, len(headers)):
            used = sum(sizes[j] + 2 for j in lines[-1]) + (len(_INDENT) if len(lines) > 1 else 0)
            if lines[-1] and (used + sizes[i] > limit or sizes[i] > room or sizes[lines[-1][-1]] > room):
                lines.append([])
            lines[-1].append(i)
        return lines

    lines: list[list[int]] = [list(range(len(headers)))]
    if _span(headers, cells) > width:
        lines = split(width)
        while True:  # as many lines, balanced: the narrowest limit that needs no more of them
            narrower = split(max(len(_INDENT) * (k > 0) + sum(sizes[j] + 2 for j in line) - 2
                                   for k, line in enumerate(lines)) - 1)
            if len(narrower) != len(lines) or narrower == lines:
                break
            lines = narrower

    def record(values: list[str]) -> list[str]:
        out = []
        for k, columns in enumerate(lines):
            if k and sizes[columns[0]] > room:  # a long text alone on its lines, wrapped (none when empty)
                out += [_INDENT + part for part in textwrap.wrap(values[columns[0]], room, break_on_hyphens=False)]
                continue
            text = "  ".join(values[i].rjust(sizes[i]) if right[i] else values[i].ljust(sizes[i]) for i in columns)
            line = ((_INDENT if k else "") + text).rstrip()
            if line or not k:  # a line of the rest of a row with nothing on it is left out: a blank ends a row
                out.append(line)
        return out

    out = record(headers)
    for row in cells:
        out += ([""] if len(lines) > 1 else []) + record(row)
    return out


def wrapped(words: str, width: int) -> str:
    return textwrap.fill(words, width=width, break_on_hyphens=False)

"""List the glued values that lie on a rounding tie of the precision the book prints them at.

    python tools/rounding_ties.py [CHAPTER]     # make ties [CHAPTER=05]

A value printed with ``{glue:text}`name:.3f``` whose digits beyond the third
decimal are 5000... (within ``REL_TOL`` relatively of the half-way point)
rounds up or down depending on its last bit, and the last bit of ``exp``,
``log`` and their kin depends on the vector kernel NumPy picks for the CPU
(AVX-512, AVX2, SSE, ARM's). Such a value prints differently on another
machine, so none may be left in the records: change the seed, the data or the
precision until this script finds none.

What is checked: every glued number that the prose prints with a float format
(``f``, ``%``, ``e``, ``g``; a bare ``{glue:text}`name``` prints the full
repr and cannot be on a tie). Whole-number formats are exact. Values glued as
pre-formatted text are listed as not checked. Numbers printed by the cells
themselves (tables) are not seen here; CI reruns the chapters with NumPy's
AVX-512 and AVX2 kernels off (``.ci/run``) to catch those that flip.

Each chapter's execution is taken from the store that ``make test`` and
``make verify`` fill (``book/_ext/chapter_cache.py``) when it holds one for
this code and this ``sigeval``; otherwise the chapter is executed (and stored).
Exit status 1 when a tie is found.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from pathlib import Path

import nbformat

sys.path.insert(0, str(Path(__file__).resolve().parent))
import verify  # noqa: E402  (tools/verify.py: the chapters' one execution and their glued values)

#: A value within this relative distance of a half-way point is on a tie.
REL_TOL = Decimal("1e-9")
# The float presentation types of Python's format mini-language, and the precision each defaults to.
_FORMAT = re.compile(r"^(?:.?[<>=^])?[-+ ]?z?#?0?\d*[,_]?(?:\.(?P<precision>\d+))?(?P<type>[eEfFgG%n]?)$")


@dataclass(frozen=True)
class Tie:
    chapter: str
    name: str
    spec: str
    value: str
    distance: Decimal  # relative distance to the half-way point

    def __str__(self) -> str:
        return (
            f"{self.chapter}: {self.name} = {self.value} printed as {{glue:text}}`{self.name}:{self.spec}` "
            f"lies {float(self.distance):.1e} (relative) from a rounding tie"
        )


def _scaled(value: Decimal, spec: str) -> Decimal | None:
    """``|value|`` in units of the last digit the format prints; None for a format that does not round."""
    match = _FORMAT.match(spec)
    if match is None or not match["type"] or value == 0:
        return None  # whole numbers, strings, or a zero: nothing rounds
    kind, precision = match["type"].lower(), match["precision"]
    magnitude = abs(value)
    if kind in "f%":
        digits = int(precision) if precision is not None else 6
        return magnitude.scaleb(digits + (2 if kind == "%" else 0))
    significant = int(precision) if precision is not None else 6
    significant = significant + 1 if kind == "e" else max(significant, 1)
    return magnitude.scaleb(significant - 1 - magnitude.adjusted())


def tie_distance(value: float | str, spec: str) -> Decimal | None:
    """The relative distance of ``value`` from the nearest half-way point of ``format(value, spec)``.

    None when the format does not round the value (a whole-number or string
    format). The distance is measured on the value's shortest repr, which
    stands for the double within half an ulp.
    """
    try:
        number = Decimal(repr(value) if isinstance(value, float) else value)
    except InvalidOperation:
        return None
    if not number.is_finite():
        return None
    scaled = _scaled(number, spec)
    if scaled is None:
        return None
    half = scaled.to_integral_value(rounding="ROUND_FLOOR") + Decimal("0.5")
    return abs(scaled - half) / scaled


def ties(path: Path, notebook: nbformat.NotebookNode) -> tuple[list[Tie], list[str]]:
    """The ties of one executed chapter, and the glued values printed with a format but glued as text."""
    raw = verify.glued_values(notebook)
    found, unchecked = [], []
    for name, spec in verify.glue_uses(path):
        text = raw.get(name)
        if text is None or not spec:
            continue
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            continue
        if isinstance(value, str):
            unchecked.append(name)
            continue
        if isinstance(value, bool) or not isinstance(value, int | float):
            continue
        distance = tie_distance(float(value) if isinstance(value, float) else str(value), spec)
        if distance is not None and distance <= REL_TOL:
            found.append(Tie(path.stem, name, spec, text, distance))
    return found, unchecked


def executed(path: Path) -> nbformat.NotebookNode:
    """The chapter's stored execution for this code and library, or a fresh one (stored)."""
    from myst_nb.core.read import read_myst_markdown_notebook

    as_the_book_reads_it = read_myst_markdown_notebook(path.read_text(encoding="utf-8"), path=str(path))
    stored = verify.chapter_cache.lookup(as_the_book_reads_it)
    return stored if stored is not None else verify.execute(path)[0]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("chapter", nargs="?", default="", help="a chapter number or name prefix, e.g. 05")
    args = parser.parse_args(argv)
    n_ties = 0
    for path in verify.chapters(args.chapter):
        found, unchecked = ties(path, executed(path))
        n_checked = sum(1 for _, spec in verify.glue_uses(path) if spec)
        print(f"{path.stem:28s} {n_checked:3d} formatted glued values  {len(found)} on a tie"
              + (f"  ({len(unchecked)} glued as text, not checked: {', '.join(unchecked)})" if unchecked else ""))
        for tie in found:
            print(f"    {tie}")
        n_ties += len(found)
    print("no glued value lies on a rounding tie" if not n_ties else f"{n_ties} glued value(s) on a rounding tie")
    return 1 if n_ties else 0


if __name__ == "__main__":
    sys.exit(main())

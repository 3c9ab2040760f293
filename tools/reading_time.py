"""Reading times of the chapters, counted from their text; the numbers on the front page and in each chapter.

    python tools/reading_time.py                  # one line per chapter: main line, deeper blocks, exercises
    python tools/reading_time.py --sections 05    # the same per section of one chapter
    python tools/reading_time.py --paths          # the reading paths of the front page
    python tools/reading_time.py --write          # rewrite the generated lines of book/intro.md and the chapters
    python tools/reading_time.py --check          # exit 1 if a written time is off by more than TOLERANCE

A chapter is read in three layers. The *main line* is what a reader sees without opening
anything; the *deeper* layer is what sits in a collapsed block (a ``{dropdown}``, an
admonition with ``:class: dropdown``, a code cell tagged ``hide-cell``, the output of one
tagged ``hide-output``); the *exercises* are the statements, their collapsed solutions and
the time to try them. Cells tagged ``remove-cell`` or ``remove-input`` (the glue and its
assertions) are never shown and never counted. The basis, stated on the front page:

- prose at ``WORDS_PER_MINUTE`` words a minute (a word: a run of characters between spaces,
  after the MyST markup of directives, labels and comments is dropped; an inline formula
  counts as one word per space-separated piece);
- a displayed formula (``$$ ... $$``) ``MINUTES_PER_FORMULA`` minutes;
- a code cell ``SECONDS_PER_CELL`` seconds to look at its output plus ``SECONDS_PER_LINE``
  seconds per line of code shown; a figure (a cell with a ``mystnb: figure:`` caption)
  ``MINUTES_PER_FIGURE`` minutes besides its caption;
- an exercise ``MINUTES_PER_EXERCISE`` minutes to try, plus the reading of its solution.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = ROOT / "notebooks"
INTRO = ROOT / "book" / "intro.md"

WORDS_PER_MINUTE = 150
MINUTES_PER_FORMULA = 2.0
SECONDS_PER_CELL = 60
SECONDS_PER_LINE = 10
MINUTES_PER_FIGURE = 1.0
MINUTES_PER_EXERCISE = 15.0
#: A written time may drift this far from the text before --check fails: chapters change by small edits.
TOLERANCE = (5, 0.15)  # minutes, or this share of the time, whichever is larger

HIDDEN = {"remove-cell", "remove-input"}
LAYERS = ("main", "deeper", "exercises")


@dataclass
class Tally:
    """What one layer of one section holds, and the minutes it takes."""

    words: int = 0
    formulas: int = 0
    cells: int = 0
    lines: int = 0
    figures: int = 0
    exercises: int = 0

    def add(self, other: Tally) -> None:
        for name in self.__dataclass_fields__:
            setattr(self, name, getattr(self, name) + getattr(other, name))

    @property
    def minutes(self) -> float:
        return (
            self.words / WORDS_PER_MINUTE
            + self.formulas * MINUTES_PER_FORMULA
            + (self.cells * SECONDS_PER_CELL + self.lines * SECONDS_PER_LINE) / 60
            + self.figures * MINUTES_PER_FIGURE
            + self.exercises * MINUTES_PER_EXERCISE
        )


@dataclass
class Section:
    title: str
    layers: dict[str, Tally] = field(default_factory=lambda: {name: Tally() for name in LAYERS})


@dataclass
class Chapter:
    path: Path
    title: str
    sections: list[Section]

    def total(self, layer: str, titles: list[str] | None = None) -> Tally:
        out = Tally()
        for section in self.sections:
            if titles is None or section.title in titles:
                out.add(section.layers[layer])
        return out

    def section(self, title: str) -> Section:
        for section in self.sections:
            if section.title == title:
                return section
        known = "; ".join(s.title for s in self.sections)
        raise SystemExit(f"{self.path.name}: no section titled {title!r} (the sections: {known})")


_FENCE = re.compile(r"^(`{3,}|:{3,})\s*(\{[^}]+\})?\s*(.*)$")
_WORD = re.compile(r"\S+")
_MARKUP = re.compile(r"^\s*(\(.*\)=|%.*|<!--.*-->|:[a-z-]+:.*)\s*$")


def _tags_and_figure(options: list[str]) -> tuple[set[str], bool]:
    """The tags of a code cell (``:tags: [...]`` or a YAML block) and whether it has a figure caption."""
    text = "\n".join(options)
    tags: set[str] = set()
    for found in re.findall(r"tags:\s*\[([^\]]*)\]", text):
        tags |= {t.strip().strip("'\"") for t in found.split(",") if t.strip()}
    return tags, "figure:" in text


def _caption(options: list[str]) -> list[str]:
    """The lines of a figure's caption in a code cell's YAML options (``caption:`` and its continuation)."""
    for k, line in enumerate(options):
        found = re.match(r"^(\s*)caption:(.*)$", line)
        if found:
            indent = len(found.group(1))
            more = []
            for o in options[k + 1:]:
                if len(o) - len(o.lstrip()) <= indent or re.match(r"^\s*\w+:", o):
                    break
                more.append(o)
            return [found.group(2), *more]
    return []


def _words(line: str) -> int:
    return len(_WORD.findall(line.replace("**", "").replace("`", " ")))


def read_chapter(path: Path) -> Chapter:
    """Count every section of a chapter, layer by layer (see the module's docstring)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    if lines and lines[0] == "---":  # the Jupytext header
        lines = lines[lines.index("---", 1) + 1:]
    title, sections = "", [Section("(opening)")]
    # The stack of open fences: (marker, layer the block puts its content in, or None to keep the current one).
    stack: list[tuple[str, str | None]] = []
    gated: str | None = None  # "exercises" between exercise-start/-end and solution-start/-end
    in_math = False
    i = 0

    def layer() -> str:
        current = gated or "main"
        for _, name in stack:
            if name is not None:
                current = name
        return current

    while i < len(lines):
        line = lines[i]
        here = sections[-1].layers
        if in_math:
            in_math = line.strip() != "$$" and not line.rstrip().endswith("$$")
            i += 1
            continue
        fence = _FENCE.match(line)
        if stack and fence and fence.group(1) == stack[-1][0] and not fence.group(2) and not fence.group(3):
            stack.pop()
            i += 1
            continue
        if fence and fence.group(2):
            marker, directive = fence.group(1), fence.group(2)
            # The directive's options: ":key: value" lines, or a YAML block between --- lines.
            j, options = i + 1, []
            if j < len(lines) and lines[j].strip() == "---":
                end = lines.index("---", j + 1)
                options, j = lines[j + 1:end], end + 1
            while j < len(lines) and re.match(r"^:[a-z-]+:", lines[j]):
                options.append(lines[j])
                j += 1
            dropdown = any("dropdown" in o for o in options if o.startswith(":class:")) or directive == "{dropdown}"
            if directive == "{code-cell}":
                end = next(k for k in range(j, len(lines)) if lines[k].rstrip() == marker)
                tags, figure = _tags_and_figure(options)
                code = [c for c in lines[j:end] if c.strip()]
                if not tags & HIDDEN:
                    name = "deeper" if "hide-cell" in tags and layer() == "main" else layer()
                    here[name].cells += 1
                    if "hide-input" not in tags:
                        here[name].lines += len(code)
                    if figure:
                        here[name].figures += 1
                    here[name].words += sum(_words(line) for line in _caption(options))  # prose the reader reads
                i = end + 1
                continue
            if directive in ("{exercise-start}", "{solution-start}"):
                gated = "exercises"
                if directive == "{exercise-start}":
                    here["exercises"].exercises += 1
                i = lines.index(marker, j) + 1 if marker in lines[j:j + 1] else j
                continue
            if directive in ("{exercise-end}", "{solution-end}"):
                gated = None if directive == "{solution-end}" else gated
                i = j + (1 if j < len(lines) and lines[j] == marker else 0)
                continue
            stack.append((marker, "deeper" if dropdown and layer() == "main" else None))
            title_words = fence.group(3)
            if title_words:
                here[layer()].words += _words(title_words)
            i = j
            continue
        if line.strip().startswith("$$"):
            here[layer()].formulas += 1
            in_math = not (line.strip() != "$$" and line.rstrip().endswith("$$"))
            i += 1
            continue
        heading = re.match(r"^(#{1,2}) (.*)$", line)
        if heading and not stack:
            if heading.group(1) == "#":
                title = heading.group(2).strip()
            else:
                sections.append(Section(heading.group(2).strip()))
                sections[-1].layers["main"].words += _words(heading.group(2))
            i += 1
            continue
        if not _MARKUP.match(line):
            here[layer()].words += _words(line)
        i += 1
    return Chapter(path, title, sections)


def chapters() -> list[Chapter]:
    return [read_chapter(p) for p in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.md"))]


def chapter(number: str) -> Chapter:
    found = [p for p in sorted(NOTEBOOKS.glob(f"{number}_*.md"))]
    if not found:
        raise SystemExit(f"no chapter {number!r} in {NOTEBOOKS}")
    return read_chapter(found[0])


def rounded(minutes: float) -> int:
    """Minutes to the nearest 5 (at least 5): a reading time is not known to the minute."""
    return max(5, 5 * round(minutes / 5))


def duration(minutes: float) -> str:
    m = rounded(minutes)
    return f"{m} min" if m < 60 else f"{m // 60} h {m % 60:02d} min" if m % 60 else f"{m // 60} h"


# --------------------------------------------------------------------------- the reading paths

# Each path: a name, and steps (chapter number, the sections read, or None for the whole chapter). A path
# holds every section its own sections lean on (a result they quote, a tool they use), so that it reads
# without a gap; what it assumes from chapters it does not read is in PREREQUISITES.
PATHS: dict[str, list[tuple[str, list[str] | None]]] = {
    "thesis": [
        ("03", ["The Wald interval", "The Wilson interval: invert the test instead", "Three more intervals",
                "Exact coverage", "How the methods compare overall", "When the choice matters"]),
        ("05", ["The question", "The standard error of a difference", "The paired bootstrap", "McNemar's test",
                "The paired permutation test", "Why overlapping intervals mislead",
                'Not significant is not "no difference"', "Fixed models, not training procedures"]),
        ("07", ["Decide before the first run", "Paired differences against a useful gain",
                "What a shared seed pairs", "A design that pairs something real", "The probability of improvement"]),
        ("08", ["Power of the paired t-test", "How many seeds?", "What the course's 20 seeds could detect",
                "A large p-value is not equivalence", "Four verdicts"]),
        ("09", ["One test, twenty chances", "Four procedures, as adjusted p-values", "Which error rate?"]),
        ("10", ["Why not average the scores?", "The Friedman test and the Iman–Davenport statistic",
                "The critique: a mean rank depends on the other methods"]),
        ("11", ["The checklist", "The conclusion"]),
        ("12", ["Predictions on one test set", "Runs: many splits of three datasets"]),
    ],
    "csv": [
        ("12", ["Real data, real classifiers", "Predictions on one test set", "Runs: many splits of three datasets"]),
    ],
    "llm": [
        ("01", ["The law of total variance"]),
        ("03", ["The Wald interval", "The Wilson interval: invert the test instead", "Exact coverage"]),
        ("05", ["The question", "The standard error of a difference"]),
        ("15", None),
    ],
}

#: The sections a path skims before it starts: what its sections assume from chapters it does not read
#: (chapter 2's matchers, chapter 4's bootstrap and correlated items, chapter 6's seed sweep, chapter 8's plan).
PREREQUISITES: dict[str, list[tuple[str, list[str]]]] = {
    "thesis": [
        ("02", ["Two fixed template matchers"]),
        ("04", ["The idea: the test set stands in for the population", "A first example: the accuracy of matcher A"]),
        ("06", ["What a seed decides", "The sweep"]),
    ],
    "csv": [],
    "llm": [
        ("02", ["Two fixed template matchers"]),
        ("04", ["Correlated test items"]),
        ("08", ["How many seeds?"]),
    ],
}

#: How many exercises a path counts in each chapter it reads (the front page says "two per chapter").
EXERCISES_PER_CHAPTER = 2
DEFINITIONS = ROOT / "book" / "definitions.md"


def _sections(number: str, titles: list[str] | None) -> Chapter:
    """The chapter, after checking that every title names one of its sections (fails loudly after a rename)."""
    ch = chapter(number)
    for title in titles or []:
        ch.section(title)
    return ch


def path_minutes(name: str) -> tuple[float, list[tuple[str, float]]]:
    """The main-line minutes of a path's own sections, in all and per step."""
    steps = [(number, _sections(number, titles).total("main", titles).minutes) for number, titles in PATHS[name]]
    return sum(m for _, m in steps), steps


def definitions_minutes() -> float:
    """The reading time of the definitions page (it is all main line)."""
    return read_chapter(DEFINITIONS).total("main").minutes


def exercise_minutes(ch: Chapter, count: int) -> tuple[int, float]:
    """How many of a chapter's exercises a reader tries (``count``, or all if fewer), and the minutes they take.

    An exercise is counted at the chapter's average: its time to try plus the reading of its solution.
    """
    ex = ch.total("exercises")
    tried = min(count, ex.exercises)
    return tried, (tried * ex.minutes / ex.exercises if tried else 0.0)


@dataclass
class PathTime:
    """A path's reading time, part by part (minutes)."""

    steps: list[tuple[str, float]]  # the main line of its sections, per chapter
    skims: float  # the prerequisites' sections
    definitions: float
    n_exercises: int
    exercises: float

    @property
    def reading(self) -> float:
        return sum(m for _, m in self.steps)

    @property
    def total(self) -> float:
        return self.reading + self.skims + self.definitions + self.exercises

    @property
    def shown_steps(self) -> list[int]:
        """Each chapter's minutes as the front page shows them (rounded to 5)."""
        return [rounded(m) for _, m in self.steps]

    @property
    def shown_reading(self) -> int:
        """The sections' minutes as shown: the sum of the shown chapters, so that the parts add up on the page."""
        return sum(self.shown_steps)

    @property
    def shown_parts(self) -> list[int]:
        """The parts the front page shows, in its order: sections, skims (if any), definitions, exercises."""
        skims = [rounded(self.skims)] if self.skims else []
        return [self.shown_reading, *skims, rounded(self.definitions), rounded(self.exercises)]

    @property
    def shown_total(self) -> int:
        """The total the front page shows: the sum of the parts it shows, not the rounded sum of the exact parts."""
        return sum(self.shown_parts)


def path_time(name: str) -> PathTime:
    _, steps = path_minutes(name)
    skims = sum(_sections(n, titles).total("main", titles).minutes for n, titles in PREREQUISITES[name])
    tried = [exercise_minutes(chapter(n), EXERCISES_PER_CHAPTER) for n, _ in PATHS[name]]
    return PathTime(steps, skims, definitions_minutes(), sum(k for k, _ in tried), sum(m for _, m in tried))


# --------------------------------------------------------------------------- the written times

# The generated text: in a chapter, the line "Reading time: about ..." of its note; on the front page the
# table between its two markers, the line after each "% reading-time path NAME" or "% reading-time total"
# marker, and the time in brackets after each chapter of the list.
_INTRO_TABLE = ("% reading-time table begin", "% reading-time table end")
_CHAPTER_LINE = re.compile(r"^Reading time: about .*$", re.M)
_MARKED_LINE = re.compile(r"^(% reading-time (path (\w+)|total|definitions)\n)(.*)$", re.M)
_LIST_ITEM = re.compile(r"^(\d+\. \{doc\}`\.\./notebooks/(\d\d)_\w+` )\*\([^)]*\)\*", re.M)


def chapter_sentence(ch: Chapter) -> str:
    main, deeper, exercises = (ch.total(layer) for layer in LAYERS)
    parts = [f"Reading time: about {duration(main.minutes)}"]
    if deeper.minutes:
        parts.append(f"the deeper blocks add about {duration(deeper.minutes)}")
    if exercises.exercises:
        parts.append(f"the {exercises.exercises} exercises about {duration(exercises.minutes)}")
    return "; ".join(parts) + " ({ref}`how these are counted <reading-times>`)."


def _nowrap(minutes: float) -> str:
    """A duration whose parts stay on one line of a table cell (no-break spaces)."""
    return duration(minutes).replace(" ", "\u00a0")


def intro_table(all_chapters: list[Chapter]) -> str:
    rows = ["| chapter | main line | deeper blocks | exercises: number, time |", "|---|---:|---:|---:|"]
    for ch in all_chapters:
        main, deeper, exercises = (ch.total(layer) for layer in LAYERS)
        rows.append(
            f"| {ch.path.stem[:2].lstrip('0')}. {{doc}}`../notebooks/{ch.path.stem}` | {_nowrap(main.minutes)} | "
            f"{_nowrap(deeper.minutes) if deeper.minutes else '–'} | "
            f"{exercises.exercises}: {_nowrap(exercises.minutes)} |"
        )
    return "\n".join(rows)


def total_sentence(all_chapters: list[Chapter]) -> str:
    total = {layer: sum(ch.total(layer).minutes for ch in all_chapters) for layer in LAYERS}
    hours = {layer: round(m / 60) for layer, m in total.items()}
    n_exercises = sum(ch.total("exercises").exercises for ch in all_chapters)
    return (
        f"*In all: about {hours['main']} hours of main line, {hours['deeper']} of deeper blocks and "
        f"{hours['exercises']} of exercises (an exercise about {duration(total['exercises'] / n_exercises)} "
        f"in all, trying it and reading its statement and solution), {(sum(total.values()) + definitions_minutes()) / 60:.0f} hours "
        "for the whole course with the definitions page.*"
    )


def definitions_sentence() -> str:
    return f"*Reading time of the definitions page: about {duration(definitions_minutes())}.*"


def path_sentence(name: str) -> str:
    """A path's reading time, part by part; the stated sums are those of the rounded parts the sentence shows."""
    t = path_time(name)
    each = ", ".join(f"chapter {n.lstrip('0')} {duration(m)}" for (n, _), m in zip(t.steps, t.shown_steps))
    parts = [f"about {duration(t.shown_reading)} for its sections" + (f" ({each})" if len(t.steps) > 1 else "")]
    if t.skims:
        parts.append(f"{duration(t.skims)} to skim the prerequisites")
    parts.append(f"{duration(t.definitions)} for the definitions page")
    per = f", {EXERCISES_PER_CHAPTER} per chapter" if len(t.steps) > 1 else ""
    parts.append(f"{duration(t.exercises)} for {t.n_exercises} exercises{per}")
    return f"*Reading time: {'; '.join(parts)}: about {duration(t.shown_total)} in all.*"


def written() -> dict[Path, str]:
    """Every file with generated text, rewritten from the chapters as they are."""
    all_chapters = chapters()
    by_number = {ch.path.stem[:2]: ch for ch in all_chapters}
    out = {}
    for ch in all_chapters:
        text = ch.path.read_text(encoding="utf-8")
        if _CHAPTER_LINE.search(text):
            out[ch.path] = _CHAPTER_LINE.sub(chapter_sentence(ch).replace("\\", "\\\\"), text, count=1)
    text = INTRO.read_text(encoding="utf-8")
    begin, end = _INTRO_TABLE
    if begin in text:
        head, rest = text.split(begin + "\n", 1)
        _, tail = rest.split(end, 1)
        text = f"{head}{begin}\n{intro_table(all_chapters)}\n{end}{tail}"

    def marked(m: re.Match) -> str:
        if m.group(3):
            return m.group(1) + path_sentence(m.group(3))
        return m.group(1) + (definitions_sentence() if m.group(2) == "definitions" else total_sentence(all_chapters))

    text = _MARKED_LINE.sub(marked, text)
    text = _LIST_ITEM.sub(lambda m: f"{m.group(1)}*({duration(by_number[m.group(2)].total('main').minutes)})*", text)
    out[INTRO] = text
    return out


def _generated(text: str) -> list[str]:
    """The generated lines of a file, in order."""
    lines = text.splitlines()
    found = [ln for ln in lines if _CHAPTER_LINE.match(ln) or _LIST_ITEM.match(ln)]
    found += [ln for ln in lines if ln.startswith("| ") and "{doc}" in ln]
    found += [m.group(4) for m in _MARKED_LINE.finditer(text)]
    return found


def _minutes_in(line: str) -> list[int]:
    """The durations a generated line states, in minutes ("1 h 05 min", "45 min", "36 hours")."""
    out = []
    for match in re.finditer(r"(\d+)[ \u00a0]h(?:[ \u00a0](\d+)[ \u00a0]min)?|(\d+)[ \u00a0]min|(\d+) hours", line):
        hours, minutes_after, minutes, whole_hours = match.groups()
        if whole_hours:
            out.append(int(whole_hours) * 60)
        elif hours:
            out.append(int(hours) * 60 + int(minutes_after or 0))
        else:
            out.append(int(minutes))
    return out


def check() -> list[str]:
    """The written times that drifted from the text by more than TOLERANCE."""
    problems = []
    for path, fresh in written().items():
        old, new = _generated(path.read_text(encoding="utf-8")), _generated(fresh)
        if len(old) != len(new):
            problems.append(f"{path.relative_to(ROOT)}: {len(old)} generated lines, {len(new)} expected")
            continue
        for before, after in zip(old, new):
            a, b = _minutes_in(before), _minutes_in(after)
            if len(a) != len(b) or any(abs(x - y) > max(TOLERANCE[0], TOLERANCE[1] * y) for x, y in zip(a, b)):
                problems.append(f"{path.relative_to(ROOT)}: {before.strip()!r} is now {after.strip()!r}")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", metavar="NN", help="per section of chapter NN")
    parser.add_argument("--paths", action="store_true", help="the reading paths of the front page")
    parser.add_argument("--write", action="store_true", help="rewrite the generated lines")
    parser.add_argument("--check", action="store_true", help="exit 1 if a written time drifted")
    args = parser.parse_args(argv)
    if args.write:
        for path, text in written().items():
            if path.read_text(encoding="utf-8") != text:
                path.write_text(text, encoding="utf-8")
                print(f"rewrote {path.relative_to(ROOT)}")
        return 0
    if args.check:
        problems = check()
        for p in problems:
            print(p)
        if problems:
            print("Run `python tools/reading_time.py --write` to rewrite the reading times.")
        return 1 if problems else 0
    if args.paths:
        for name in PATHS:
            t = path_time(name)
            print(f"{name:8s} {t.total:6.1f} min in all: sections {t.reading:.1f} ("
                  + "  ".join(f"ch{n} {m:.1f}" for n, m in t.steps)
                  + f"), skims {t.skims:.1f}, definitions {t.definitions:.1f}, "
                  f"{t.n_exercises} exercises {t.exercises:.1f}")
        return 0
    header = f"{'':40s} {'words':>6s} {'formulas':>8s} {'cells':>5s} {'lines':>5s} {'figs':>4s} {'min':>6s}"
    targets = [chapter(args.sections)] if args.sections else chapters()
    print(header)
    for ch in targets:
        rows = [(s.title, s.layers) for s in ch.sections] if args.sections else [
            (ch.path.stem, {layer: ch.total(layer) for layer in LAYERS})
        ]
        for name, layers in rows:
            for layer in LAYERS:
                t = layers[layer]
                if not (t.words or t.cells or t.exercises):
                    continue
                print(f"{(name[:30] + ' ' + layer):40s} {t.words:6d} {t.formulas:8d} {t.cells:5d} {t.lines:5d} "
                      f"{t.figures:4d} {t.minutes:6.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

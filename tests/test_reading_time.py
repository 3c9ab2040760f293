"""tools/reading_time.py: what it counts in a chapter, layer by layer, and that the written times are current."""

import re
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parents[1] / "tools"))
import reading_time  # noqa: E402

sys.path.pop(0)

CHAPTER = '''---
jupytext:
  text_representation:
    extension: .md
kernelspec:
  name: python3
---

(ch-x)=
# A chapter

Four words of prose.

```{code-cell} ipython3
import numpy as np
x = 1
```

```{code-cell} ipython3
:tags: [remove-cell]

glue("x", x)
```

## First section

Five more words of prose.

$$
a = b
$$

````{admonition} Deeper: three words
:class: dropdown

Six words inside the collapsed block.
````

```{code-cell} ipython3
:tags: [hide-cell]

y = 2
z = 3
w = 4
```

```{code-cell} ipython3
---
tags: [hide-input]
mystnb:
  figure:
    caption: Two words.
    name: fig-x
---
plot = 1
```

```{admonition} A warning
:class: warning

Still on the main line.
```

## Exercises

```{exercise-start}
:label: ex-x
```

Try this one exercise now.

```{exercise-end}
```

```{solution-start} ex-x
:class: dropdown
```

```{code-cell} ipython3
answer = 42
```

The answer is forty-two.

```{solution-end}
```
'''


@pytest.fixture
def chapter(tmp_path):
    path = tmp_path / "99_x.md"
    path.write_text(CHAPTER, encoding="utf-8")
    return reading_time.read_chapter(path)


def test_each_layer_counts_what_the_reader_sees_there(chapter):
    assert chapter.title == "A chapter"
    assert [s.title for s in chapter.sections] == ["(opening)", "First section", "Exercises"]
    opening, first, exercises = (s.layers for s in chapter.sections)
    # The opening: four words and one visible cell of two lines; the remove-cell is never counted.
    assert (opening["main"].words, opening["main"].cells, opening["main"].lines) == (4, 1, 2)
    # The section: its title (2), five words, one formula, the figure's caption (2) and cell (no code shown),
    # the warning's title (2) and text (5); deeper: the dropdown's title (3) and text (6), the hide-cell's 3 lines.
    main, deeper = first["main"], first["deeper"]
    assert (main.words, main.formulas, main.cells, main.lines, main.figures) == (2 + 5 + 2 + 2 + 5, 1, 1, 0, 1)
    assert (deeper.words, deeper.cells, deeper.lines) == (3 + 6, 1, 3)
    # The exercise: its statement (5 words), the solution's code (1 line) and text (4 words), one exercise.
    ex = exercises["exercises"]
    assert (ex.exercises, ex.words, ex.cells, ex.lines) == (1, 5 + 4, 1, 1)
    assert exercises["main"].words == 1  # the section title


def test_minutes_follow_the_stated_rates(chapter):
    first = chapter.section("First section").layers
    main = first["main"]
    expected = (main.words / reading_time.WORDS_PER_MINUTE + reading_time.MINUTES_PER_FORMULA
                + reading_time.SECONDS_PER_CELL / 60 + reading_time.MINUTES_PER_FIGURE)
    assert main.minutes == pytest.approx(expected)
    ex = chapter.total("exercises")
    assert ex.minutes == pytest.approx(
        reading_time.MINUTES_PER_EXERCISE + 9 / reading_time.WORDS_PER_MINUTE
        + (reading_time.SECONDS_PER_CELL + reading_time.SECONDS_PER_LINE) / 60
    )
    with pytest.raises(SystemExit, match="no section titled 'Nope'"):
        chapter.section("Nope")


@pytest.mark.parametrize(
    ("minutes", "text"),
    [(0.4, "5 min"), (7.4, "5 min"), (7.6, "10 min"), (58, "1 h"), (63, "1 h 05 min"), (211, "3 h 30 min")],
)
def test_durations_are_rounded_to_five_minutes(minutes, text):
    assert reading_time.duration(minutes) == text
    assert reading_time._minutes_in(f"about {text}") == [reading_time.rounded(minutes)]


def test_every_path_names_sections_that_exist():
    assert reading_time.PREREQUISITES.keys() == reading_time.PATHS.keys()
    for name in reading_time.PATHS:
        minutes, steps = reading_time.path_minutes(name)
        assert minutes == pytest.approx(sum(m for _, m in steps)) and minutes > 0
        for number, titles in reading_time.PREREQUISITES[name]:   # a renamed section fails here too
            assert titles and reading_time._sections(number, titles).total("main", titles).minutes > 0


def test_a_path_counts_its_sections_skims_definitions_and_two_exercises_per_chapter():
    t = reading_time.path_time("thesis")
    per_chapter = [reading_time.exercise_minutes(reading_time.chapter(n), 2) for n, _ in reading_time.PATHS["thesis"]]
    assert t.n_exercises == sum(k for k, _ in per_chapter) == 2 * len(reading_time.PATHS["thesis"])
    assert t.exercises == pytest.approx(sum(m for _, m in per_chapter))
    assert t.definitions == pytest.approx(reading_time.read_chapter(reading_time.DEFINITIONS).total("main").minutes)
    assert t.total == pytest.approx(t.reading + t.skims + t.definitions + t.exercises)
    assert t.skims > 0 and reading_time.path_time("csv").skims == 0


@pytest.mark.parametrize("name", list(reading_time.PATHS))
def test_a_path_sentence_adds_up_as_shown(name):
    """The front page's sums are those of the parts it shows: chapters to sections, parts to the total."""
    t = reading_time.path_time(name)
    shown = reading_time._minutes_in(reading_time.path_sentence(name))
    k = len(t.steps) if len(t.steps) > 1 else 0
    sections, steps, others, total = shown[0], shown[1:1 + k], shown[1 + k:-1], shown[-1]
    assert len(others) == (3 if t.skims else 2)   # skims, definitions, exercises
    assert not steps or sum(steps) == sections
    assert total == sections + sum(others) == t.shown_total


def test_a_shown_total_is_the_sum_of_rounded_parts_not_the_rounded_sum():
    # Five parts of 7.4 minutes each show as 5 min; their exact sum, 37, would round to 35, not the 25 shown.
    t = reading_time.PathTime(steps=[("01", 7.4), ("02", 7.4)], skims=7.4, definitions=7.4, n_exercises=2,
                              exercises=7.4)
    assert t.shown_parts == [10, 5, 5, 5] and t.shown_total == 25 != reading_time.rounded(t.total)
    # Parts of 7.6 minutes show as 10 min: 50 in all, where the exact sum, 38, would round to 40.
    t = reading_time.PathTime(steps=[("01", 7.6), ("02", 7.6)], skims=7.6, definitions=7.6, n_exercises=2,
                              exercises=7.6)
    assert t.shown_parts == [20, 10, 10, 10] and t.shown_total == 50 != reading_time.rounded(t.total)
    # No skims: the part is neither shown nor counted.
    t = reading_time.PathTime(steps=[("01", 7.6)], skims=0.0, definitions=7.6, n_exercises=2, exercises=7.6)
    assert t.shown_parts == [10, 10, 10] and t.shown_total == 30


def test_exercises_are_counted_at_the_chapter_average(chapter):
    ex = chapter.total("exercises")
    assert reading_time.exercise_minutes(chapter, 2) == (1, pytest.approx(ex.minutes))   # only one to try
    assert reading_time.exercise_minutes(chapter, 0) == (0, 0.0)


def test_the_written_reading_times_are_current():
    problems = reading_time.check()
    assert not problems, "\n".join(problems) + "\nRun `python tools/reading_time.py --write`."


def test_a_drifted_time_is_reported(monkeypatch):
    fresh = reading_time.written()
    intro = fresh[reading_time.INTRO]
    stale = intro.replace("*Reading time: about ", "*Reading time: about 9 h 00 min and ", 1)
    monkeypatch.setattr(reading_time, "written", lambda: {reading_time.INTRO: intro})
    monkeypatch.setattr(Path, "read_text", lambda self, encoding=None: stale)
    assert any("9 h 00 min" in p for p in reading_time.check())


def _assumed_on_front_page() -> dict[str, set[str]]:
    """The chapters each line of the front page's chapter list says its chapter assumes ("Assumes chapters 1 and 3–6.")."""
    out = {}
    for number, note in re.findall(r"^\d+\. \{doc\}`\.\./notebooks/(\d\d)_\w+` .*?Assumes (.*)\.$",
                                   reading_time.INTRO.read_text(encoding="utf-8"), re.M):
        named: set[str] = set()
        for low, high in re.findall(r"(\d+)(?:–(\d+))?", note):
            named |= {f"{k:02d}" for k in range(int(low), int(high or low) + 1)}
        out[number] = named
    return out


def test_the_chapter_list_states_what_each_before_you_read_box_assumes():
    labels = {}
    for path in sorted(reading_time.NOTEBOOKS.glob("[0-9][0-9]_*.md")):
        found = re.search(r"^\((ch-[a-z-]+)\)=$", path.read_text(encoding="utf-8"), re.M)
        labels[found.group(1)] = path.stem[:2]
    # Chapters a box names without assuming them: ch. 1 says intervals are "taught from" ch. 3 on,
    # ch. 11 mentions sequential designs "in passing", ch. 15 uses the betting sequence once and explains it there.
    named_only = {"01": {"03"}, "11": {"14"}, "15": {"14"}}
    stated = _assumed_on_front_page()
    assert sorted(stated) == sorted(labels.values())
    for path in sorted(reading_time.NOTEBOOKS.glob("[0-9][0-9]_*.md")):
        number = path.stem[:2]
        box = re.search(r"Before you read\n(.*?)\nReading time:", path.read_text(encoding="utf-8"), re.S).group(1)
        in_box = {labels[label] for label in re.findall(r"\{ref\}`(ch-[a-z-]+)`", box)}
        assert stated[number] == in_box - named_only.get(number, set()), number

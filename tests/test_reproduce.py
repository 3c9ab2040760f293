"""`make reproduce` prints the seed article's example output, line for line."""

import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).parent
EXPECTED = (HERE / "data" / "article_output.txt").read_text()
ARTICLE = HERE.parents[1] / "shared" / "seeds" / "000_f04883485e57c7e4.txt"


@pytest.fixture(scope="module")
def printed() -> str:
    result = subprocess.run(
        [sys.executable, "-m", "sigeval.course.reproduce"], capture_output=True, text=True, check=True
    )
    return result.stdout


def _part(text: str, number: int) -> list[str]:
    part1, part2 = text.split("\n\n", 1)
    return (part1 if number == 1 else part2).splitlines()


def test_part_1_two_fixed_models_is_identical(printed):
    assert _part(printed, 1) == _part(EXPECTED, 1)


def test_part_2_training_randomness_is_identical(printed):
    assert _part(printed, 2) == _part(EXPECTED, 2)


def test_whole_output_is_identical(printed):
    assert printed == EXPECTED


@pytest.mark.skipif(not ARTICLE.exists(), reason="the seed article is not next to the repository")
def test_stored_expectation_is_the_articles_printed_output():
    text = ARTICLE.read_text()
    block = text[text.index("\nOutput:\n") + len("\nOutput:\n"):]
    printed_lines = [line for line in EXPECTED.splitlines() if line]
    article_lines = [line for line in block.splitlines()[: len(printed_lines) + 5] if line]
    assert article_lines[: len(printed_lines)] == printed_lines

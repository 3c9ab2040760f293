"""`make reproduce` against the seed article's own script, side by side.

Runs the article's reference script and ``python -m sigeval.course.reproduce`` in
fresh interpreters on the same machine, alternating between the two, checks
that both print the same text, and reports the wall times and their ratio
(goal: sigeval at most a quarter of the script's time).

The reference script is read from ``../shared/seeds/`` next to the repository
when that folder exists; otherwise the benchmark says so and stops.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _bench import Comparison

ROOT = Path(__file__).resolve().parents[1]
ARTICLE = ROOT.parent / "shared" / "seeds" / "000_f04883485e57c7e4.txt"
REPEATS = 5


def reference_script(article: Path) -> str:
    """The code block of the article: from its first import to the printed output."""
    text = article.read_text()
    start = text.index("import numpy as np")
    end = text.index("\nOutput:", start)
    return text[start:end]


def timed_run(command: list[str]) -> tuple[float, str]:
    start = time.perf_counter()
    out = subprocess.run(command, check=True, capture_output=True, text=True, cwd=ROOT).stdout
    return time.perf_counter() - start, out


def main() -> int:
    if not ARTICLE.exists():
        print(f"skipped: the seed article is not at {ARTICLE}")
        return 0
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "article_script.py"
        script.write_text(reference_script(ARTICLE))
        commands = {
            "article script": [sys.executable, str(script)],
            "sigeval.course.reproduce": [sys.executable, "-m", "sigeval.course.reproduce"],
        }
        times: dict[str, list[float]] = {name: [] for name in commands}
        outputs: dict[str, str] = {}
        for _ in range(REPEATS):
            for name, command in commands.items():
                seconds, outputs[name] = timed_run(command)
                times[name].append(seconds)

    same = outputs["article script"] == outputs["sigeval.course.reproduce"]
    print(f"identical output: {'yes' if same else 'NO'}")
    for name, values in times.items():
        print(
            f"{name:18s} median {statistics.median(values):6.2f} s   "
            f"min {min(values):6.2f} s   ({REPEATS} runs)"
        )
    ratio = statistics.median(times["sigeval.course.reproduce"]) / statistics.median(times["article script"])
    print(f"ratio sigeval / article (medians): {ratio:.3f}   (goal <= 0.25)")
    return 0 if same else 1


def comparisons() -> list[Comparison]:
    if not ARTICLE.exists():
        print(f"bench_reproduce skipped: the seed article is not at {ARTICLE}", file=sys.stderr)
        return []
    folder = tempfile.mkdtemp()
    script = Path(folder) / "article_script.py"
    script.write_text(reference_script(ARTICLE))
    ours = [sys.executable, "-m", "sigeval.course.reproduce"]
    theirs = [sys.executable, str(script)]
    if timed_run(ours)[1] != timed_run(theirs)[1]:
        raise SystemExit("make reproduce no longer prints the article's output")
    return [Comparison("make reproduce (the article's example, same output)",
                       lambda: timed_run(ours), "the seed article's script", lambda: timed_run(theirs), repeats=3)]


if __name__ == "__main__":
    sys.exit(main())

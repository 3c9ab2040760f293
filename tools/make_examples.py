"""Write the example files that ``sigeval example`` prints (src/sigeval/data/).

Run from the repository root: ``python tools/make_examples.py``. The test suite
checks that the shipped files are what this script writes.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from sigeval.course.benchmark import run_benchmark
from sigeval.course.mlp import train_mlp
from sigeval.course.shapes import SHAPE_NAMES, blur, make_images, template_matcher

DATA = Path(__file__).resolve().parents[1] / "src" / "sigeval" / "data"


def predictions() -> pd.DataFrame:
    """1,000 test images: the true shape and three classifiers' predicted shapes."""
    train_x, train_y = make_images(2000, rng=1)
    test_x, test_y = make_images(1000, rng=2)
    mlp = train_mlp(blur(train_x), train_y, seeds=[0], hidden=64)
    names = np.asarray(SHAPE_NAMES)
    return pd.DataFrame({
        "label": names[test_y],
        "matcher_A": names[template_matcher(0.0)(test_x)],
        "matcher_B": names[template_matcher(0.5)(test_x)],
        "MLP_64": names[mlp.predict(blur(test_x))[0]],
    })


def runs() -> pd.DataFrame:
    """Three tasks, four classifiers, five seeds: the long table of chapter 11's benchmark."""
    report = run_benchmark(["standard", "noisy", "very blurred"], ["matcher A", "matcher B", "MLP 32", "MLP 64"],
                           seeds=range(5))
    return report.runs[["task", "model", "seed", "score"]]


def write() -> None:
    DATA.mkdir(exist_ok=True)
    predictions().to_csv(DATA / "example_predictions.csv", index=False)
    runs().to_csv(DATA / "example_runs.csv", index=False, float_format="%.4f")


if __name__ == "__main__":
    write()

"""Every public statistics function refuses bad numbers with a clear error.

Generated from the ``__all__`` of each statistics module, so a new function is
covered as soon as it is exported: it must then have an entry in ``VALID``,
the arguments of one call that succeeds. Each argument that holds a number
(or an array of numbers) is replaced in turn by a string, a complex number,
None, an empty array and a NaN; the call must raise an error whose message
names that argument in backticks: a ``TypeError`` for the string, the complex
number and None, a ``ValueError`` or ``TypeError`` for the others.
"""

from __future__ import annotations

import functools
import inspect
import numbers
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import sigeval
from sigeval._registry import EXPORTED

STATISTICS_MODULES = EXPORTED


def _public_functions() -> dict[str, object]:
    found = {}
    for module_name in STATISTICS_MODULES:
        module = getattr(sigeval, module_name)
        for name in module.__all__:
            obj = getattr(module, name)
            if inspect.isfunction(obj):
                found[name] = obj
    return found


FUNCTIONS = _public_functions()


class _Lazy:
    """An argument built on first use rather than at collection: a log that a tool writes (seconds to import it)."""

    def __init__(self, build):
        self.build = build


@functools.cache
def _lm_eval_output() -> Path:
    from harness_logs import lm_eval_line, write_lm_eval_run

    out = Path(tempfile.mkdtemp(prefix="sigeval_lm_eval_"))
    for model, correct in (("a", [1, 0, 1, 1]), ("b", [0, 0, 1, 0])):
        lines = [lm_eval_line(i, "none", {"acc": float(c)}) for i, c in enumerate(correct)]
        write_lm_eval_run(out, model, "2026-01-01T00-00-00.000000", {"arc_easy": lines})
    return out


def _inspect_log() -> Path:
    pytest.importorskip("inspect_ai", reason="the inspect extra is not installed")
    from harness_logs import inspect_logs

    return inspect_logs()[0]


def _mlflow_uri() -> str:
    pytest.importorskip("mlflow", reason="the mlflow extra is not installed")
    from harness_logs import mlflow_store

    return mlflow_store()

_A = [0.71, 0.69, 0.74, 0.70, 0.72, 0.68]
_B = [0.70, 0.69, 0.71, 0.71, 0.69, 0.66]
_CORRECT_A = [1, 1, 0, 1, 0, 1, 1, 0]
_CORRECT_B = [1, 0, 1, 1, 0, 0, 1, 0]
_EXAMPLES = Path(sigeval.__file__).parent / "data"
_TABLE = [[0.76, 0.77, 0.80], [0.60, 0.59, 0.57], [0.95, 0.97, 0.96], [0.63, 0.66, 0.65]]

#: Arguments of one valid call of every public function, all by keyword.
VALID: dict[str, dict] = {
    "proportion_ci": dict(k=45, n=100),
    "coverage": dict(n=50, p=0.3),
    "bootstrap_ci": dict(data=[0.1, 0.5, 0.7, 0.2, 0.9], n_resamples=50, confidence_level=0.9, rng=0),
    "paired_bootstrap_ci": dict(scores_a=_A, scores_b=_B, n_resamples=50, confidence_level=0.9, rng=0),
    "ratio_of_sums": dict(numerator=[[3.0, 1.0]], denominator=[[4.0, 2.0]], axis=1),
    "average_precision": dict(
        scores=[[[0.9, 0.3], [0.8, 0.2]]], is_true_positive=[[[1, 0], [1, 0]]],
        n_positives=[[1, 2]], axis=1,
    ),
    "roc_auc": dict(labels=[[1, 0, 1, 0]], scores=[[0.9, 0.2, 0.6, 0.4]], axis=1),
    "ratio_of_sums_ci": dict(numerator=[30.0, 5.0, 12.0], denominator=[40.0, 20.0, 15.0], confidence_level=0.9),
    "paired_permutation_test": dict(scores_a=_A, scores_b=_B, n_resamples=50, rng=0),
    "mcnemar": dict(scores_a=_CORRECT_A, scores_b=_CORRECT_B),
    "mcnemar_counts": dict(n01=44, n10=28),
    "pass_at_k": dict(n_samples=[10, 10, 10], n_correct=[0, 3, 10], k=2, n_resamples=50, confidence_level=0.9, rng=0),
    "sampled_mean": dict(scores=[[1, 1, 0], [0, 1, 0], [1, 1, 1]], confidence_level=0.9),
    "sampled_paired_difference": dict(scores_a=[[1, 1, 0], [0, 1, 0], [1, 1, 1]],
                                      scores_b=[[1, 0, 0], [0, 0, 0], [1, 0, 1]], confidence_level=0.9),
    "questions_needed": dict(variance_between=0.15, variance_within=0.1, target_standard_error=0.01, n_samples=4,
                             variance_groups=0.05, group_size=5),
    "paired_bootstrap_ci_counts": dict(table=sigeval.PairedCounts(801, 44, 28, 127), n_resamples=50,
                                       confidence_level=0.9, rng=0),
    "paired_permutation_test_counts": dict(table=sigeval.PairedCounts(801, 44, 28, 127)),
    "difference_se_counts": dict(table=sigeval.PairedCounts(801, 44, 28, 127)),
    "difference_ci_counts": dict(table=sigeval.PairedCounts(36, 12, 2, 0), confidence_level=0.9),
    "bootstrap_ci_counts": dict(k=[9, 7, 10, 4], n=[10, 10, 10, 10], n_resamples=50, confidence_level=0.9, rng=0),
    "compare_predictions": dict(
        table=pd.DataFrame({"label": [0, 1, 1, 0, 1, 1], "A": [0, 1, 1, 0, 1, 0], "B": [1, 1, 0, 0, 1, 0]}),
        n_resamples=50, confidence_level=0.9, rng=0, max_resamples=10_000,
    ),
    "compare_items": dict(
        table=pd.DataFrame({"task": "t", "model": ["A"] * 6 + ["B"] * 6, "item": list(range(6)) * 2, "sample": 0,
                            "metric": "acc", "score": _CORRECT_A[:6] + _CORRECT_B[:6]}),
        n_resamples=50, confidence_level=0.9, rng=0,
    ),
    "read_lm_eval": dict(paths=_Lazy(_lm_eval_output), metric="acc"),
    "read_inspect": dict(paths=_Lazy(_inspect_log), metric="match"),
    "read_mlflow": dict(experiment="sweep", metric="val_acc", tracking_uri=_Lazy(_mlflow_uri)),
    "read_csv_table": dict(path=_EXAMPLES / "example_predictions.csv"),
    "read_runs_csv": dict(path=_EXAMPLES / "example_runs.csv", sep=","),
    "difference_se": dict(scores_a=_CORRECT_A, scores_b=_CORRECT_B),
    "wilcoxon_signed_rank": dict(scores_a=_A, scores_b=_B),
    "delong_test": dict(
        labels=[1, 1, 1, 0, 0, 0], scores_a=[0.9, 0.8, 0.3, 0.4, 0.2, 0.1],
        scores_b=[0.7, 0.6, 0.5, 0.55, 0.3, 0.2], confidence_level=0.9,
    ),
    "delong_ci": dict(labels=[1, 1, 1, 0, 0, 0], scores=[0.9, 0.8, 0.3, 0.4, 0.2, 0.1], confidence_level=0.9),
    "seed_summary": dict(scores=_A),
    "welch_test": dict(scores_a=_A, scores_b=_B, confidence_level=0.9),
    "variance_split": dict(test_scores=_A, n_test=1000, true_scores=_B, n_true=500),
    "paired_difference": dict(scores_a=_A, scores_b=_B, threshold=0.01, alpha=0.1),
    "prob_improvement": dict(
        scores_a=_A, scores_b=_B, n_resamples=50, alpha=0.1, gamma=0.75, rng=0
    ),
    "difference_of_proportions_test": dict(k_a=845, k_b=829, n=1000),
    "resampled_paired_t": dict(differences=[0.02, 0.01, 0.03, 0.0]),
    "kfold_cv_paired_t": dict(differences=[0.02, 0.01, 0.03, 0.0]),
    "five_by_two_cv_t": dict(differences=[[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.0, 0.02], [0.02, 0.01]]),
    "five_by_two_cv_f": dict(differences=[[0.02, 0.03], [0.01, 0.04], [0.03, 0.02], [0.0, 0.02], [0.02, 0.01]]),
    "corrected_resampled_t": dict(differences=[0.02, 0.01, 0.03, 0.0], n_train=900, n_test=100),
    "power_paired": dict(sigma_d=0.2, n=10, alpha=0.05, target_power=0.8, delta=0.1),
    "seeds_needed": dict(sigma_d=0.02, delta=0.01, alpha=0.05, target_power=0.8),
    "power_tost": dict(sigma_d=1.0, n=30, margin=0.5, delta=0.1, alpha=0.05),
    "seeds_needed_tost": dict(sigma_d=1.0, margin=0.5, delta=0.1, alpha=0.05, target_power=0.8),
    "mcnemar_power": dict(n=500, p01=0.05, p10=0.03, alpha=0.05),
    "mcnemar_sample_size": dict(p01=0.3, p10=0.1, alpha=0.05, target_power=0.8),
    "tost_paired": dict(scores_a=_A, scores_b=_B, margin=0.05, alpha=0.05),
    "verdict": dict(scores_a=_A, scores_b=_B, margin=0.05, alpha=0.05),
    "verdict_from_pvalues": dict(pvalue_difference=0.01, pvalue_equivalence=0.3, alpha=0.05),
    "adjust_pvalues": dict(pvalues=[0.01, 0.04, 0.03]),
    "decision_levels": dict(pvalues=[0.01, 0.04, 0.03], alpha=0.05),
    "expected_best_of_k": dict(scores=[0.60, 0.62, 0.61, 0.65], k=2, values=[0.6, 0.6, 0.62, 0.61]),
    "friedman": dict(scores=_TABLE, ties="correct", method="exact", n_resamples=100, rng=0),
    "nemenyi_q": dict(n_models=4, alpha=0.05),
    "nemenyi_cd": dict(n_models=4, n_tasks=14, alpha=0.05),
    "tasks_for_gap": dict(gap=0.8, n_models=4, alpha=0.05, target_power=0.8),
    "cd_groups": dict(mean_ranks=[3.1, 2.0, 2.9, 1.9], critical_difference=1.25),
    "holm_vs_control": dict(scores=_TABLE, control=0, alpha=0.05),
    "pairwise_wilcoxon": dict(scores=_TABLE, correction="holm"),
    "sign_test": dict(scores_a=_A, scores_b=_B, alternative="two-sided", zero_method="zsplit"),
    "rank_stability": dict(scores=_TABLE, n_resamples=50, alpha=0.05, rng=0),
    "bootstrap_ranks": dict(scores=np.array(_TABLE).T, n_resamples=50, alpha=0.1, rng=0),
    "rank_confidence_sets": dict(scores=np.array(_TABLE).T, n_resamples=50, confidence_level=0.9, rng=0),
    "correlated_ttest": dict(differences=[0.02, 0.01, 0.03, 0.0], test_fraction=0.1, rope=0.01),
    "bayesian_paired_t": dict(scores_a=_A, scores_b=_B, rope=0.01),
    "bayesian_signed_rank": dict(scores_a=_A, scores_b=_B, rope=0.01, prior_strength=0.5, n_draws=50, rng=0),
    "bayesian_sign_test": dict(scores_a=_A, scores_b=_B, rope=0.01, prior_strength=1.0, n_draws=50, rng=0),
    "iqm": dict(scores=_TABLE),
    "optimality_gap": dict(scores=_TABLE, gamma=0.9),
    "aggregate_mean": dict(scores=_TABLE),
    "aggregate_median": dict(scores=_TABLE),
    "aggregate_ci": dict(scores=_TABLE, n_resamples=50, confidence_level=0.9, gamma=0.9, rng=0),
    "performance_profile": dict(scores=_TABLE, taus=[0.5, 0.7, 0.9], n_resamples=50, confidence_level=0.9, rng=0),
    "effect_size": dict(scores_a=_A, scores_b=_B, confidence_level=0.9),
    "group_sequential_bounds": dict(n_looks=3, alpha=0.05, information_rates=[0.3, 0.6, 1.0]),
    "spending_alpha": dict(t=[0.5, 1.0], alpha=0.025),
    "max_information_inflation": dict(bounds=sigeval.group_sequential_bounds(2), target_power=0.8),
    "confidence_sequence": dict(differences=[0.1, -0.2, 0.3, 0.05], bounds=(-1.0, 1.0), confidence_level=0.9,
                                prior_precision=2.0),
    "gate": dict(scores_a=_A, scores_b=_B, margin=0.02, alpha=0.05, target_power=0.8, bounds=(0.0, 1.0)),
    "gate_table": dict(
        table=pd.DataFrame({"task": "t", "model": ["new"] * 6 + ["main"] * 6, "seed": list(range(6)) * 2,
                            "score": _A + _B}),
        model_a="new", model_b="main", margin=0.02, alpha=0.05, target_power=0.8, bounds=(0.0, 1.0),
    ),
}

#: Arguments that hold numbers but are not numeric inputs of the statistic.
NOT_NUMERIC = {"rng"}

#: (function, argument): why NaN is a valid value there.
NAN_IS_VALID = {
    ("ratio_of_sums", "numerator"): "NaN pads grouped resamples; the sums ignore it",
    ("ratio_of_sums", "denominator"): "NaN pads grouped resamples; the sums ignore it",
    ("average_precision", "scores"): "a NaN score marks an empty detection slot",
    ("average_precision", "n_positives"): "NaN pads grouped resamples; the sum ignores it",
    ("sampled_mean", "scores"): "NaN pads a question with fewer samples (a question without any is refused)",
    ("sampled_paired_difference", "scores_a"): "NaN pads a question with fewer samples",
    ("sampled_paired_difference", "scores_b"): "NaN pads a question with fewer samples",
    ("gate", "scores_a"): "NaN marks a failed run: counted, named, and its pair left out",
    ("gate", "scores_b"): "NaN marks a failed run: counted, named, and its pair left out",
}


#: (function, argument): why a string or None there is a ValueError, not a TypeError.
NAMES_ARE_VALID = {
    ("holm_vs_control", "control"): "a model may be named by any label, a string included",
}

# A value of the wrong type is a TypeError; a wrong value of the right type a ValueError.
WRONG_TYPE = ("string", "complex", "none")


def _is_number(value) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)


def _holds_numbers(value) -> bool:
    if _is_number(value):
        return True
    if isinstance(value, (list, tuple, np.ndarray)):
        arr = np.asarray(value)
        return arr.size > 0 and arr.dtype.kind in "iuf"
    return False


def _bad_values(value) -> dict[str, object]:
    """The five bad inputs for an argument whose valid value is ``value``."""
    if _is_number(value):
        return {
            "string": "0.5",
            "complex": complex(value, 1.0),
            "none": None,
            "empty": np.array([]),
            "nan": float("nan"),
        }
    arr = np.asarray(value, dtype=float)
    with_nan = arr.copy()
    with_nan.flat[0] = np.nan
    return {
        "string": arr.astype(str),
        "complex": arr + 1j,
        "none": None,
        "empty": np.array([]),
        "nan": with_nan,
    }


def _cases():
    for name, fn in FUNCTIONS.items():
        base = VALID.get(name, {})
        defaults = {
            p.name: p.default for p in inspect.signature(fn).parameters.values()
        }
        for arg, value in base.items():
            if arg in NOT_NUMERIC or not _holds_numbers(value):
                continue
            for kind, bad in _bad_values(value).items():
                if kind == "none" and defaults.get(arg, inspect.Parameter.empty) is None:
                    continue  # None is the documented "not given"
                if kind == "nan" and (name, arg) in NAN_IS_VALID:
                    continue
                error = (
                    TypeError
                    if kind in WRONG_TYPE and (name, arg) not in NAMES_ARE_VALID
                    else (ValueError, TypeError)
                )
                yield pytest.param(name, arg, bad, error, id=f"{name}-{arg}-{kind}")


CASES = list(_cases())


def test_every_public_function_has_valid_base_arguments():
    missing = sorted(set(FUNCTIONS) - set(VALID))
    assert not missing, (
        f"Add an entry to VALID in tests/test_bad_inputs.py for {', '.join(missing)}: the "
        "arguments of one call that succeeds, all by keyword, so that the generated "
        "bad-input cases can cover the new function."
    )
    assert not set(VALID) - set(FUNCTIONS), "VALID lists functions that are no longer public"


@pytest.mark.parametrize("name", sorted(VALID))
def test_base_arguments_are_valid(name):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        FUNCTIONS[name](**{k: v.build() if isinstance(v, _Lazy) else v for k, v in VALID[name].items()})


def test_the_generated_table_is_large():
    # Five bad values for every numeric argument, less None where it is a default.
    assert len(CASES) > 500


@pytest.mark.parametrize(("name", "arg", "bad", "error"), CASES)
def test_bad_number_is_refused_naming_the_argument(name, arg, bad, error):
    kwargs = {**VALID[name], arg: bad}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)
        with pytest.raises(error) as info:
            FUNCTIONS[name](**kwargs)
    # The argument in backticks, or shown with its value (``scores_a=nan``).
    assert f"`{arg}`" in str(info.value) or f"{arg}=" in str(info.value), (
        f"{name}({arg}={bad!r}) raised {type(info.value).__name__} without naming `{arg}`: "
        f"{info.value}"
    )


_RNG_FUNCTIONS = sorted(n for n in VALID if "rng" in VALID[n])


@pytest.mark.parametrize("bad", ["0", 1.5, 1 + 0j, -1, [0, 1]], ids=repr)
@pytest.mark.parametrize("name", _RNG_FUNCTIONS)
def test_bad_rng_is_refused_naming_it(name, bad):
    with pytest.raises((ValueError, TypeError), match="`rng`"):
        FUNCTIONS[name](**{**VALID[name], "rng": bad})


# --------------------------------------------------------------------------- Report's outputs and the command's JSON

_REPORT_OUTPUTS = {
    "to_markdown": dict(margin=0.01, alpha=0.05, target_power=0.8, precision=4, rope=0.005, n_resamples=200),
    "to_latex": dict(precision=3),
    "to_html": dict(margin=0.01, alpha=0.05, target_power=0.8, precision=4, rope=0.005, n_resamples=200),
}


def _report_output_cases():
    for method, base in _REPORT_OUTPUTS.items():
        for arg, value in base.items():
            bad_values = _bad_values(value)
            if arg not in ("margin", "rope"):  # a margin or ROPE of 1e308 is valid, None its default
                bad_values["huge"] = 10**9 if arg == "precision" else 1e308
            else:
                del bad_values["none"]
            for kind, bad in bad_values.items():
                error = TypeError if kind in WRONG_TYPE else (ValueError, TypeError)
                yield pytest.param(method, arg, bad, error, id=f"Report.{method}-{arg}-{kind}")


@pytest.fixture(scope="module")
def small_report():
    rng = np.random.default_rng(0)
    return sigeval.Report(pd.DataFrame([(t, m, s, rng.random()) for t in "xy" for m in "abc" for s in range(4)],
                                       columns=["task", "model", "seed", "score"]))


@pytest.mark.parametrize(("method", "arg", "bad", "error"), list(_report_output_cases()))
def test_report_outputs_refuse_bad_options_naming_them(small_report, tmp_path, method, arg, bad, error):
    kwargs = {**_REPORT_OUTPUTS[method], arg: bad}
    call = getattr(small_report, method)
    with pytest.raises(error) as info:
        call(tmp_path / "r.html", **kwargs) if method == "to_html" else call(**kwargs)
    assert f"`{arg}`" in str(info.value), f"Report.{method}({arg}={bad!r}): {info.value}"


_HOSTILE_NAMES = ["a\nb", "<script>alert(1)</script>", "x | y", "&amp; 50% $_{}#~^\\", "<b>bold</b>", "c\r\nd"]


def test_names_pass_through_every_output_as_text(small_report, tmp_path):
    # A newline, raw HTML or a bar in a model or task name is shown, never obeyed (issue 35, item 4).
    runs = small_report.runs.copy()
    runs["model"] = runs["model"].map(dict(zip("abc", _HOSTILE_NAMES[:3])))
    runs["task"] = runs["task"].map(dict(zip("xy", _HOSTILE_NAMES[3:5])))
    report = sigeval.Report(runs)
    markdown = report.to_markdown(margin=0.01)
    assert "<script>" not in markdown and "<b>" not in markdown and "&lt;script>" in markdown
    assert "&amp;amp; 50%" in markdown
    for line in markdown.splitlines():
        if line.startswith("|"):  # a table row is one line with its cells intact
            assert line.endswith("|") and line.count("|") - line.count("\\|") >= 3, line
    assert "a\\nb" in markdown and "x \\| y" in markdown
    latex = report.to_latex()
    assert "\\textless{}script\\textgreater{}" in latex and "x \\textbar{} y" in latex and "a b" in latex
    assert "\\&amp; 50\\% \\$\\_\\{\\}\\#\\textasciitilde{}\\textasciicircum{}\\textbackslash{}" in latex
    page = report.to_html(tmp_path / "r.html", margin=0.01).read_text(encoding="utf-8")
    assert "<script>alert" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_the_command_writes_strict_json_for_hostile_tables(tmp_path, capsys):
    import json

    from sigeval.cli import main

    def refuse(constant):
        raise ValueError(f"not JSON: {constant}")

    rng = np.random.default_rng(1)
    rows = [(t, m, s, (1e-300 if m == _HOSTILE_NAMES[0] else 1.0) * rng.random() + 1e-12 * s)
            for t in ("t1", "t2") for m in _HOSTILE_NAMES[:4] for s in range(3)]
    rows += [("t1", "alike", s, 0.5) for s in range(3)] + [("t2", "alike", s, 0.5) for s in range(3)]
    pd.DataFrame(rows, columns=["task", "model", "seed", "score"]).to_csv(tmp_path / "r.csv", index=False)
    for view in ("all", "pairwise", "power", "equivalence", "friedman"):
        status = main(["runs", str(tmp_path / "r.csv"), "--view", view, "--margin", "0.01", "--json"])
        out, err = capsys.readouterr()
        assert status == 0, err
        shown = json.loads(out, parse_constant=refuse)
        assert shown["environment"]["call"].startswith("sigeval runs")

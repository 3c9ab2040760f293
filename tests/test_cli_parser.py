"""The command's interface: every command, option, default, choice and help text, and the checks of each value.

The interface is a contract (scripts and CI steps call it) and its help is what a user reads, so a change to
either must be deliberate: the record is ``tests/data/cli_interface.json``. After a deliberate change, rewrite
it with ``SIGEVAL_WRITE_INTERFACE=1 pytest tests/test_cli_parser.py`` and read its diff. The record is read from
argparse's objects, not from the text of ``--help``, whose layout changes between Python versions.
"""

from __future__ import annotations

import argparse
import json
import math
import os
from pathlib import Path

import pytest

from sigeval import _cli_parser as cp

RECORD = Path(__file__).parent / "data" / "cli_interface.json"


def _value(value):
    """A default or const as JSON can hold it: numbers and strings as they are, other objects by repr."""
    if value is None or isinstance(value, bool | int | str) or (isinstance(value, float) and math.isfinite(value)):
        return value
    return repr(value)


def interface(parser: argparse.ArgumentParser) -> dict:
    """Everything a user of ``parser`` meets, as JSON."""
    out: dict = {"prog": parser.prog, "description": parser.description, "epilog": parser.epilog,
                 "layout": parser.formatter_class.__name__, "options": []}
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction):  # argparse's own -h
            continue
        if isinstance(action, argparse._SubParsersAction):
            out["command"] = {"dest": action.dest, "required": action.required, "metavar": action.metavar}
            out["command_help"] = {a.dest: a.help for a in action._choices_actions}
            out["commands"] = {name: interface(sub) for name, sub in action.choices.items()}
            continue
        out["options"].append({
            "flags": action.option_strings, "dest": action.dest, "action": type(action).__name__,
            "nargs": action.nargs, "required": action.required, "metavar": action.metavar,
            "default": _value(action.default), "const": _value(action.const),
            "choices": None if action.choices is None else list(action.choices), "help": action.help,
            "checked": action.type is not None,
        })
    return out


def test_the_interface_is_the_recorded_one():
    now = json.loads(json.dumps(interface(cp.build_parser())))  # tuples as JSON lists
    if os.environ.get("SIGEVAL_WRITE_INTERFACE"):
        RECORD.write_text(json.dumps(now, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    assert now == recorded, ("the command's interface changed; if on purpose, rewrite the record with "
                             "SIGEVAL_WRITE_INTERFACE=1 pytest tests/test_cli_parser.py and read its diff")


def test_the_record_holds_every_command_and_option():
    recorded = json.loads(RECORD.read_text(encoding="utf-8"))
    assert set(recorded["commands"]) == {"compare", "runs", "gate", "example"}
    flags = {f for o in recorded["commands"]["gate"]["options"] for f in o["flags"]}
    assert {"--model-a", "--model-b", "--margin", "--state", "--summary", "--json", "--item"} <= flags


def _check(option: str, command: str = "runs"):
    """The type of ``option`` of ``command``: argparse's check of its value."""
    sub = next(a for a in cp.build_parser()._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return next(a for a in sub._actions if option in a.option_strings).type


@pytest.mark.parametrize("command, option, accepted, refused, message", [
    ("runs", "--alpha", ["1e-300", "0.5", "0.999999"], ["0", "1", "-0.1", "nan", "inf"],
     "must be strictly between 0 and 1; got {!r}"),
    ("runs", "--margin", ["1e-300", "3", "1e300"], ["0", "-1", "inf", "nan"], "must be a positive float; got {!r}"),
    ("runs", "--rope", ["0", "0.5", "1e300"], ["-1e-300", "inf", "nan"], "must be a float >= 0; got {!r}"),
    ("runs", "--width", ["40", "500"], ["39", "0", "-40"], "must be a whole number >= 40; got {!r}"),
    ("runs", "--n-resamples", ["2", "10000"], ["1", "0", "-3"], "must be a whole number >= 2; got {!r}"),
    ("runs", "--rng", ["0", "12345"], ["-1"], "must be a non-negative integer; got {!r}"),
    ("compare", "--k", ["1", "7"], ["0", "-2"], "must be a whole number >= 1; got {!r}"),
    ("compare", "--max-resamples", ["1", "100"], ["0", "-1"], "must be a positive int; got {!r}"),
    ("gate", "--alpha", ["1e-300", "0.25", "0.4999"], ["0", "0.5", "0.9", "nan"],
     "must be strictly between 0 and 0.5; got {!r}"),
])
def test_each_value_is_checked_with_what_it_must_be(command, option, accepted, refused, message):
    check = _check(option, command)
    kind = float if "." in message or "float" in message or "between" in message else int
    for text in accepted:
        assert check(text) == kind(text)
    for text in refused:
        with pytest.raises(argparse.ArgumentTypeError) as error:
            check(text)
        assert str(error.value) == message.format(text), text


@pytest.mark.parametrize("command, option, text, message", [
    ("runs", "--alpha", "five", "must be a number strictly between 0 and 1; got 'five'"),
    ("runs", "--width", "80.5", "must be a whole number >= 40; got '80.5'"),
    ("runs", "--margin", "a lot", "must be a positive float; got 'a lot'"),
])
def test_a_value_that_is_not_a_number_says_what_it_must_be(command, option, text, message):
    with pytest.raises(argparse.ArgumentTypeError) as error:
        _check(option, command)(text)
    assert str(error.value) == message


def test_the_constants_the_command_reads():
    assert cp.GATE_ERROR == 3 and cp.MAX_RESAMPLES == 100_000_000
    assert cp.VIEWS == ("pairwise", "power", "equivalence", "bayesian", "friedman", "aggregate")
    assert set(cp.LOG_READERS) == {"lm-eval", "inspect"} and set(cp.EXAMPLES) == {"predictions", "runs"}


def test_a_command_is_required_and_the_examples_keep_their_lines(capsys):
    with pytest.raises(SystemExit) as stop:
        cp.build_parser().parse_args([])
    assert stop.value.code == 2 and "the following arguments are required: COMMAND" in capsys.readouterr().err
    for command in ("compare", "runs", "gate", "example"):
        with pytest.raises(SystemExit):
            cp.build_parser().parse_args([command, "--help"])
        help_text = capsys.readouterr().out
        assert "\nexample:\n  sigeval " in help_text, command   # the epilog's lines as written, not refilled

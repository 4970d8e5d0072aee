"""An unknown bot level, preset or option on the command line is refused with a sentence
naming what is accepted (exit 2), never read as a beginner or dropped (issue 9, item 2)."""

from __future__ import annotations

import pytest

from lanuno.bots import LEVELS, BotLevel, UnknownBotLevel, make_bot
from lanuno.bots.pace import PACES, pace_for
from lanuno.cli import build_parser, main

COMMANDS_WITH_RULES = ["host", "play", "sim"]


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    assert main(argv) == 2, argv
    return capsys.readouterr().err


@pytest.mark.parametrize("command", COMMANDS_WITH_RULES)
def test_an_unknown_bot_level_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal([command, "--level", "grandmaster"], capsys)
    assert "unknown bot level 'grandmaster'" in err
    assert "beginner, intermediate, expert" in err


def test_sim_refuses_an_unknown_level_among_several(capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal(["sim", "--players", "3", "--level", "expert,wizard,beginner"], capsys)
    assert "unknown bot level 'wizard'" in err


@pytest.mark.parametrize("command", COMMANDS_WITH_RULES)
def test_an_unknown_option_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "'teleport'" in refusal([command, "--option", "teleport=on"], capsys)


@pytest.mark.parametrize("command", COMMANDS_WITH_RULES)
def test_an_unknown_option_value_is_refused(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert "'sometimes'" in refusal([command, "--option", "stacking=sometimes"], capsys)


@pytest.mark.parametrize("command", COMMANDS_WITH_RULES)
def test_an_unknown_preset_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert "'tournament'" in refusal([command, "--preset", "tournament"], capsys)


def test_levels_are_read_as_bot_levels_in_any_case() -> None:
    parser = build_parser()
    assert parser.parse_args(["host", "--level", " Expert"]).level is BotLevel.EXPERT
    assert parser.parse_args(["play"]).level is BotLevel.INTERMEDIATE
    sim = parser.parse_args(["sim", "--players", "2", "--level", "beginner,EXPERT"])
    assert sim.level == (BotLevel.BEGINNER, BotLevel.EXPERT)


def test_sim_plays_with_the_levels_it_was_given(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["sim", "--games", "1", "--players", "2", "--level", "Beginner,intermediate"]
    assert main(argv) == 0
    assert "2 players (beginner, intermediate)" in capsys.readouterr().out


def test_the_bot_levels_are_one_enum_everywhere_in_bots() -> None:
    assert LEVELS == tuple(BotLevel) == ("beginner", "intermediate", "expert")
    assert set(PACES) == set(BotLevel)
    for level in BotLevel:
        assert make_bot(level).level is level
        assert make_bot(level.value).level is level
        assert pace_for(level.value) is PACES[level]


@pytest.mark.parametrize("word", ["", "expert!", "begin", "3"])
def test_make_bot_and_pace_refuse_an_unknown_level(word: str) -> None:
    with pytest.raises(UnknownBotLevel, match="unknown bot level"):
        make_bot(word)
    with pytest.raises(UnknownBotLevel, match="unknown bot level"):
        pace_for(word)


@pytest.mark.parametrize("command", ["host", "join", "play", "screen"])
def test_an_unknown_language_is_refused(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    err = refusal([command, "--lang", "de"], capsys)
    assert "unknown language 'de': choose from en, fr" in err
    assert "Traceback" not in err


@pytest.mark.parametrize(
    ("argv", "why"),
    [
        (["play", "--age", "-3"], "an age is a whole number from 0 to 120"),
        (["join", "--age", "200"], "an age is a whole number from 0 to 120"),
        (["play", "--bot-delay", "-1"], "seconds, 0 or more, got '-1'"),
        (["host", "--bot-delay", "nan"], "seconds, 0 or more, got 'nan'"),
        (["host", "--round-pause", "soon"], "seconds, 0 or more, got 'soon'"),
        (["host", "--peer-timeout", "0"], "seconds above 0"),
        (["join", "--table", "0"], "a table number is from 1 to 64"),
        (["screen", "--table", "65"], "a table number is from 1 to 64"),
        (["play", "--name", "   "], "a name cannot be blank"),
        (["join", "--name", "Ann\u202e"], "without control or direction characters"),
        (["host", "--name", "T\x07"], "without control or direction characters"),
    ],
)
def test_a_value_out_of_bounds_is_refused_in_one_sentence(
    argv: list[str], why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Before, an age, a name or a delay the wire does not take ended in a traceback."""
    err = refusal(argv, capsys)
    assert why in err
    assert "Traceback" not in err


def test_a_name_with_tabs_and_runs_of_spaces_is_tidied_and_cut() -> None:
    parser = build_parser()
    assert parser.parse_args(["play", "--name", " Ann\t  Marie "]).name == "Ann Marie"
    assert parser.parse_args(["join", "--name", "x" * 40]).name == "x" * 32


def test_a_bare_lanuno_shows_its_commands(capsys: pytest.CaptureFixture[str]) -> None:
    """'lanuno' alone said only 'the following arguments are required: command'."""
    assert main([]) == 2
    out = capsys.readouterr().out
    for command in ("play", "host", "join", "screen", "sim"):
        assert f"    {command} " in out
    assert "required" not in out

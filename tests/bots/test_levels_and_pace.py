"""B1: the three levels behind one interface, chosen by name from ``lanuno sim --level``;
their human pace for the host."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from lanuno.bots import LEVELS, make_bot
from lanuno.bots.pace import PACES, BotPace, pace_for
from lanuno.cli import main


def test_B1_sim_runs_every_level(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        [
            "sim",
            "--games",
            "2",
            "--players",
            "3",
            "--level",
            "beginner,intermediate,expert",
            "--option",
            "target=none",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "beginner, intermediate, expert" in out
    assert "games: 2" in out


def test_B1_sim_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--games", "1", "--level", "grandmaster"]) == 2
    assert "unknown bot level" in capsys.readouterr().err


def test_B3_pace_is_quicker_with_level() -> None:
    paces = [pace_for(level) for level in LEVELS]
    assert set(PACES) == set(LEVELS)
    for slower, quicker in itertools.pairwise(paces):
        assert quicker.think < slower.think
        assert quicker.uno_reaction < slower.uno_reaction
        assert quicker.catch_reaction < slower.catch_reaction
    rng = random.Random(0)
    for pace in paces:
        delay = pace.think_delay(rng)
        assert pace.think <= delay < pace.think + pace.think_jitter
    with pytest.raises(dataclasses.FrozenInstanceError):
        paces[0].think = 0.0  # type: ignore[misc]
    with pytest.raises(ValueError, match="unknown bot level"):
        pace_for("grandmaster")
    assert isinstance(paces[0], BotPace)


def test_B1_bots_are_small_frozen_values() -> None:
    for level in LEVELS:
        bot = make_bot(level)
        assert dataclasses.is_dataclass(bot)
        with pytest.raises(dataclasses.FrozenInstanceError):
            bot.level = "other"  # type: ignore[misc]

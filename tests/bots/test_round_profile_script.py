"""``scripts/round_profile.py``: issue 13's profile of a level's rounds at four seats."""

from __future__ import annotations

from typing import Any

from helpers import load_script

from lanuno.bots import BotLevel


def test_a_round_is_profiled_from_the_seat_under_test() -> None:
    profile = load_script("round_profile")
    rounds = [profile.profile_round(BotLevel.EXPERT, i, 4) for i in range(8)]
    for each in rounds:
        assert each.won == (each.fewest == 0)  # went out: held no card after its last play
        assert not each.won or each.reached_one
        assert all(count > 0 for count in each.drawn_before.values())
        assert not each.drawn_after or each.reached_one


def test_the_report_names_the_figures(capsys: Any) -> None:
    profile = load_script("round_profile")
    assert profile.main(["--level", "intermediate", "--rounds", "8", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    assert "intermediate at 4 seats against intermediates, 8 rounds" in out
    assert "win rate: 0.250" in out  # four intermediates: one of the four seats wins each deal
    assert "reached one card:" in out

"""``scripts/tournament.py``: a match plays single rounds, or whole games with ``--target``
(the figures of issue 13's note come from it, so its two modes are checked here)."""

from __future__ import annotations

from typing import Any

import pytest
from helpers import load_script


def test_a_match_plays_single_rounds_or_whole_games_to_a_target() -> None:
    tournament = load_script("tournament")
    match = next(m for m in tournament.MATCHES if m.name == "expert_in_4p_vs_3_beginners")
    single = tournament.rules_for(match, None)
    assert single.target is None
    game = tournament.rules_for(match, 100)
    assert game.target == 100
    assert game.deck == single.deck
    # A game to 100 is won with at least 100 points; a single round by any score.
    outcomes = [tournament.play_one(match, i, 7, 4, 100) for i in range(4)]
    assert sum(o.won for o in outcomes) <= 4
    winners = [o.focus_points for o in outcomes if o.won]
    assert all(points >= 100 for points in winners)
    fields = [o.field_points for o in outcomes if not o.won]
    assert all(points >= 100 // 3 for points in fields)


@pytest.mark.system  # its worker pool starts a process
def test_game_mode_is_asked_for_on_the_command_line(capsys: Any) -> None:
    tournament = load_script("tournament")
    argv = ["--only", "kids1_expert_vs_beginner_2p", "--rounds", "2", "--playouts", "2"]
    argv += ["--target", "20", "--workers", "1", "--timing-rounds", "1"]
    assert tournament.main(argv) == 0
    out = capsys.readouterr().out
    assert "whole games to 20" in out
    assert "kids1_expert_vs_beginner_2p" in out

"""Timeouts and the autopilot (T2, T3): a timed-out move is one move, and a replay keeps
the autopilot's moves apart from the player's."""

from __future__ import annotations

from prepared import prepared_game

from lanuno.engine.actions import Timeout
from lanuno.engine.game import Game
from lanuno.engine.phases import Phase
from lanuno.engine.replay import Record, event_dicts, replay
from lanuno.engine.rules import kids1, official, with_options


def test_T2_one_timeout_also_returns_the_cards_over_the_limit() -> None:
    """K1-5 + T2: a kid at the limit who times out draws, then returns the excess card in the
    same timed-out move; that is one timeout, not two (T3 would call the bot)."""
    rules = with_options(kids1(), ["timer=30"])
    hands = ["R1 R2 R3 R4 R5 R6", "B1 B2 B3 B4 B5 B6", "Y1 Y2 Y3 Y4 Y5 Y6"]
    game = prepared_game(rules, hands, top="G9", draw="B8", first_player=0)
    rnd = game.round
    assert rnd.actor == 0
    game.apply(Timeout(0), now=31.0)
    assert len(rnd.hands[0]) == 6
    assert rnd.timeouts_in_row[0] == 1
    assert not rnd.autopilot[0]
    assert rnd.phase is Phase.TURN
    assert rnd.actor == 1


def test_T3_a_replay_keeps_the_autopilot_moves_apart() -> None:
    game = Game(with_options(official(), ["timer=30", "target=none"]), 2, seed=4)
    for _ in range(4):  # both seats time out twice in a row: the autopilot takes both
        game.apply(Timeout(game.round.actor), now=100.0)
    assert game.round.autopilot == [True, True]
    actor = game.round.actor
    game.apply(game.legal_actions(actor)[0], now=101.0, auto=True)
    assert game.round.autopilot[actor]  # the bot's move does not hand the seat back
    again = replay(Record.from_json(Record.of(game).to_json()))
    assert again.round.autopilot == game.round.autopilot
    assert event_dicts(again) == event_dicts(game)

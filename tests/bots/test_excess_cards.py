"""K2-9 [decision]: every bot level returns its highest-value cards over the hand limit."""

from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent.parent / "engine"))
from prepared import prepared_game

from lanuno.bots import make_bot
from lanuno.engine.actions import ReturnCard
from lanuno.engine.cards import Card
from lanuno.engine.phases import Phase
from lanuno.engine.rules import kids2, with_options


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_K2_9_bots_return_their_highest_value_card(level: str) -> None:
    rules = with_options(kids2(), ["target=none"])
    hands = ["R1 R2 R3 Y4 Y+2 Y6", "B1 B2 B3 B4 B5 B6", "R4 R5 R6 R7 R8 Y7"]
    game = prepared_game(rules, hands, top="G9", draw="B8", first_player=0)
    game.apply(game.legal_actions(0)[0])  # seat 0 cannot play: it draws, and passes 6 cards
    rnd = game.round
    assert rnd.phase is Phase.EXCESS
    assert rnd.actor == 0
    bot = make_bot(level, playouts=2)
    action = bot.choose(rnd.seat_view(0), random.Random(1))
    assert action == ReturnCard(0, Card.parse("Y+2"))  # 20 points beats any number

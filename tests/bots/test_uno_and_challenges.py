"""B3: UNO and Counter-UNO reliability grows with level; B4: the expert challenges a Wild
Draw Four when a bluff is likely and accepts it when the evidence says it was legal."""

from __future__ import annotations

import random
from dataclasses import dataclass

from bot_helpers import TEST_PLAYOUTS, table

from lanuno.bots import LEVELS, make_bot
from lanuno.bots.base import Bot
from lanuno.bots.expert import bluff_odds
from lanuno.bots.knowledge import read_table
from lanuno.engine.actions import (
    AcceptPenalty,
    Action,
    Challenge,
    CounterUno,
    DeclareUno,
    Draw,
    Play,
)
from lanuno.engine.cards import Color, build_deck, parse_card, parse_cards
from lanuno.engine.events import CardTurned
from lanuno.engine.game import Game
from lanuno.engine.phases import Phase
from lanuno.engine.views import SeatView
from lanuno.sim import play_game


@dataclass
class Tally:
    """Counts, for one bot, how often it said UNO / caught when it could."""

    bot: Bot
    uno_chances: int = 0
    unos: int = 0
    catch_chances: int = 0
    catches: int = 0

    @property
    def level(self) -> str:
        return self.bot.level

    def choose(self, view: SeatView, rng: random.Random) -> Action | None:
        legal = view.legal
        action = self.bot.choose(view, rng)
        can_catch = any(type(a) is CounterUno for a in legal)
        # A catch comes first when both are open (saying UNO can wait, an exposure cannot).
        if any(type(a) is DeclareUno for a in legal) and not can_catch:
            self.uno_chances += 1
            self.unos += type(action) is DeclareUno
        if can_catch:
            self.catch_chances += 1
            self.catches += type(action) is CounterUno
        return action


def _rates(level: str, games: int) -> tuple[float, float]:
    rules = table("official", ("target=none",))
    tallies: list[Tally] = []
    for game in range(games):
        # The level under test sits with beginners, who forget UNO often enough to be caught.
        bots = [Tally(make_bot(name, playouts=TEST_PLAYOUTS)) for name in (level, "beginner")]
        order = bots if game % 2 else bots[::-1]
        play_game(rules, order, f"b3/{level}/{game}")
        tallies.append(bots[0])
    uno = sum(t.unos for t in tallies) / max(1, sum(t.uno_chances for t in tallies))
    catch = sum(t.catches for t in tallies) / max(1, sum(t.catch_chances for t in tallies))
    assert sum(t.catch_chances for t in tallies) >= 10
    return uno, catch


def test_B3_uno_and_counter_uno_reliability_grows_with_level() -> None:
    games = {"beginner": 300, "intermediate": 300, "expert": 60}
    rates = {level: _rates(level, games[level]) for level in LEVELS}
    (b_uno, b_catch), (i_uno, i_catch), (e_uno, e_catch) = (rates[lv] for lv in LEVELS)
    assert b_uno < i_uno < e_uno == 1.0
    assert b_catch < i_catch < e_catch == 1.0
    assert b_uno < 0.8
    assert b_catch < 0.3


# ------------------------------------------------------------------------------ B4


def _crafted(hands: list[str], top: str, actor: int, draw_next: str = "") -> Game:
    """A two-seat single round with the hands written, ``top`` turned over, ``actor`` to
    play, and ``draw_next`` on top of the draw pile; every other card in the draw pile."""
    game = Game(table("official", ("target=none",)), 2, "b4")
    rnd = game.round
    held = [parse_cards(h) for h in hands]
    first = parse_card(top)
    pile = build_deck(rnd.rules.deck)
    for card in [c for h in held for c in h] + [first]:
        pile.remove(card)
    random.Random(4).shuffle(pile)
    for card in reversed(parse_cards(draw_next)):
        pile.remove(card)
        pile.append(card)
    rnd.hands, rnd.discard, rnd.draw_pile = held, [first], pile
    rnd.color, rnd.direction, rnd.pending_penalty = first.color, 1, 0
    rnd.turn = rnd.actor = actor
    rnd.phase = Phase.TURN
    rnd.declared, rnd.exposed = [False, False], None
    rnd.events = [CardTurned(first)]
    return game


def test_B4_expert_challenges_a_likely_bluff() -> None:
    # Seat 1 holds eleven cards besides its Wild Draw Four: it very likely holds a red.
    game = _crafted(["R1 G2 B3", "W+4 R2 R3 R5 Y1 Y2 G5 G6 B7 B8 Y9 G9"], "R9", actor=1)
    rnd = game.round
    rnd.apply(Play(1, parse_card("W+4"), Color.GREEN))
    view = rnd.seat_view(0)
    assert rnd.phase is Phase.PENALTY
    assert Challenge(0) in view.legal
    assert bluff_odds(view, read_table(view)) > 0.5
    expert = make_bot("expert", playouts=TEST_PLAYOUTS)
    assert expert.choose(view, random.Random(0)) == Challenge(0)


def test_B4_expert_accepts_when_the_player_showed_it_had_no_such_color() -> None:
    # Seat 1 draws on red (it had none), seat 0 keeps red, seat 1 plays its Wild Draw Four.
    game = _crafted(["R1 R4 G2 B3", "W+4 Y1 G2 Y5 G7"], "R9", actor=1, draw_next="B5")
    rnd = game.round
    rnd.apply(Draw(1))
    rnd.apply(Play(0, parse_card("R1")))
    rnd.apply(Play(1, parse_card("W+4"), Color.GREEN))
    view = rnd.seat_view(0)
    assert rnd.phase is Phase.PENALTY
    assert Challenge(0) in view.legal
    assert bluff_odds(view, read_table(view)) < 0.1
    expert = make_bot("expert", playouts=TEST_PLAYOUTS)
    assert expert.choose(view, random.Random(0)) == AcceptPenalty(0)


def test_B4_expert_does_not_bluff_when_an_honest_card_does_as_well() -> None:
    game = _crafted(["W+4 R5 R6 R7 G1", "Y1 Y2 Y3 Y4 Y5 Y6 Y7"], "R9", actor=0)
    rnd = game.round
    expert = make_bot("expert", playouts=16)
    action = expert.choose(rnd.seat_view(0), random.Random(1))
    assert isinstance(action, Play)
    assert action.card.color is Color.RED

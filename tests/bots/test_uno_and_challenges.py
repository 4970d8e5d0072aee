"""B3: UNO and Counter-UNO reliability grows with level; B4: the expert challenges a Wild
Draw Four when a bluff is likely and accepts it when the evidence says it was legal."""

from __future__ import annotations

import random
from dataclasses import dataclass

import pytest
from bot_helpers import TEST_PLAYOUTS, table

from lanuno.bots import LEVELS, make_bot
from lanuno.bots.base import Bot
from lanuno.bots.expert import bluff_odds, shown_share
from lanuno.bots.intermediate import IntermediateBot
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
from lanuno.engine.round import Round
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
        # With two cards, a UNO is worth saying only before a play (not before a draw).
        worth = len(view.hand) != 2 or any(type(a) is Play for a in legal)
        if any(type(a) is DeclareUno for a in legal) and worth and not can_catch:
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


@pytest.mark.parametrize(
    "bot", [IntermediateBot(declare_uno=1.0), make_bot("expert", playouts=TEST_PLAYOUTS)]
)
def test_B3_uno_is_said_before_a_play_not_before_a_forced_draw(bot: Bot) -> None:
    nothing_fits = _crafted(["G2 B3", "R1 R2 R3"], "R9", actor=0).round
    view = nothing_fits.seat_view(0)
    assert DeclareUno(0) in view.legal
    assert bot.choose(view, random.Random(0)) == Draw(0)
    one_fits = _crafted(["R2 B3", "R1 R5 R3"], "R9", actor=0).round
    assert bot.choose(one_fits.seat_view(0), random.Random(0)) == DeclareUno(0)


# ------------------------------------------------------------------------------ B4


def _crafted(hands: list[str], top: str, actor: int, draw_next: str = "") -> Game:
    """A single round of one seat per hand written, ``top`` turned over, ``actor`` to play,
    and ``draw_next`` on top of the draw pile; every other card in the draw pile."""
    seats = len(hands)
    game = Game(table("official", ("target=none",)), seats, "b4")
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
    rnd.declared, rnd.exposed = [False] * seats, None
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


def _honest_wild_draw_four(hands: list[str]) -> Round:
    """The last seat draws on red (it has none; it draws B5), the others keep red, and the
    last seat plays its Wild Draw Four on seat 0, who is asked to answer it."""
    last = len(hands) - 1
    rnd = _crafted(hands, "R9", actor=last, draw_next="B5").round
    rnd.apply(Draw(last))
    for seat in range(last):
        rnd.apply(Play(seat, rnd.hands[seat][0]))
    rnd.apply(Play(last, parse_card("W+4"), Color.GREEN))
    view = rnd.seat_view(0)
    assert rnd.phase is Phase.PENALTY
    assert Challenge(0) in view.legal
    assert bluff_odds(view, read_table(view)) < 0.1
    return rnd


def test_B4_expert_accepts_when_the_player_showed_it_had_no_such_color() -> None:
    # Four seats: the hand a challenge would show is less than half of what is hidden.
    rnd = _honest_wild_draw_four(["R1 R4 G2 B3", "R7 Y3 Y4 Y6", "R8 B1 B2 B4", "W+4 Y1 G2 Y5 G7"])
    view = rnd.seat_view(0)
    assert shown_share(view, read_table(view), 3) == 5 / 11
    expert = make_bot("expert", playouts=TEST_PLAYOUTS)
    assert expert.choose(view, random.Random(0)) == AcceptPenalty(0)


def test_B4_expert_challenges_heads_up_to_see_the_hand() -> None:
    # Heads-up the same honest Wild Draw Four is challenged: the 2 cards a lost challenge
    # costs buy a look at the only hidden hand (O21), which the card reading then keeps.
    rnd = _honest_wild_draw_four(["R1 R4 G2 B3", "W+4 Y1 G2 Y5 G7"])
    view = rnd.seat_view(0)
    assert shown_share(view, read_table(view), 1) == 1.0
    expert = make_bot("expert", playouts=TEST_PLAYOUTS)
    action = expert.choose(view, random.Random(0))
    assert action == Challenge(0)
    rnd.apply(action)
    after = rnd.seat_view(0)
    knowledge = read_table(after)
    hand = sorted(parse_cards("Y1 G2 Y5 G7 B5"), key=str)
    assert sorted(knowledge.known[1], key=str) == sorted(rnd.hands[1], key=str) == hand
    assert shown_share(after, knowledge, 1) == 0.0  # nothing left to see


def test_B4_expert_does_not_bluff_when_an_honest_card_does_as_well() -> None:
    game = _crafted(["W+4 R5 R6 R7 G1", "Y1 Y2 Y3 Y4 Y5 Y6 Y7"], "R9", actor=0)
    rnd = game.round
    expert = make_bot("expert", playouts=16)
    action = expert.choose(rnd.seat_view(0), random.Random(1))
    assert isinstance(action, Play)
    assert action.card.color is Color.RED

"""B2, honest by construction: a bot is given a frozen observation of plain data. Nothing
reachable from it (attribute by attribute, not through gc) is another hand, the order of
the draw pile, the round, the shuffler or its seed; and two rounds that differ only in what
the seat cannot see give the same observation and the same decision."""

from __future__ import annotations

import enum
import random
from collections.abc import Iterator

import pytest
from bot_helpers import TEST_PLAYOUTS, table
from helpers import note_seed
from test_hidden_information import _rehide

from lanuno.bots import LEVELS, make_bot
from lanuno.engine.actions import Action
from lanuno.engine.cards import Card
from lanuno.engine.events import Event
from lanuno.engine.game import Game
from lanuno.engine.observation import Observation, PublicTable, observe, observe_round
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import Rules
from lanuno.sim import offer_out_of_turn

LEAVES = (int, str, bool, float, type(None), enum.Enum, Card)
PLAIN = (Observation, PublicTable, Rules, Action, Event, tuple, frozenset)


def _reachable(root: object) -> Iterator[object]:
    """Every object reachable from ``root`` through attributes and items."""
    seen: set[int] = set()
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        yield obj
        if isinstance(obj, LEAVES):
            continue
        if isinstance(obj, (tuple, list, set, frozenset)):
            stack.extend(obj)
            continue
        if isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
            continue
        for klass in type(obj).__mro__:
            for name in getattr(klass, "__slots__", ()):
                if hasattr(obj, name):
                    stack.append(getattr(obj, name))
        stack.extend(getattr(obj, "__dict__", {}).values())


def _check(obs: Observation, rnd: Round, seed: str) -> None:
    seat = obs.seat
    # Sequences of cards this seat legitimately saw in private (dealt, drawn, received,
    # a hand revealed after a challenge): they may equal another hand by coincidence.
    known = {tuple(getattr(e, "cards", ())) for e in obs.private_log}
    secret_hands = {
        tuple(rnd.hands[s]) for s in range(rnd.n) if s != seat and len(rnd.hands[s]) >= 2
    }
    pile = tuple(rnd.draw_pile)
    for obj in _reachable(obs):
        assert isinstance(obj, LEAVES + PLAIN), f"{type(obj).__name__} reachable from a bot"
        assert not isinstance(obj, list), "a mutable list is shared with the round"
        if isinstance(obj, str):
            assert seed not in obj or len(obj) < 3, "the game seed is reachable"
        if isinstance(obj, Event):
            assert obj.audience in (None, seat), f"another seat's private {obj}"
        if isinstance(obj, tuple) and obj and all(isinstance(c, Card) for c in obj):
            if obj not in known:
                assert obj not in secret_hands, "another seat's hand is reachable"
            if len(pile) >= 3:
                assert obj != pile, "the order of the draw pile is reachable"


@pytest.mark.parametrize("preset", ["official", "kids1", "kids2"])
def test_B2_nothing_hidden_is_reachable_from_an_observation(preset: str) -> None:
    options = ["target=none"] + (["jump_in", "seven_o", "stacking"] if preset == "official" else [])
    checked = 0
    for game_no in range(6):
        seed = f"observation-secret-{preset}-{game_no}"
        note_seed(seed)
        game = Game(table(preset, options), 3, seed)
        bots = [make_bot(level, playouts=TEST_PLAYOUTS) for level in LEVELS]
        rng = random.Random(game_no)
        rnd = game.round
        steps = 0
        while rnd.phase is not Phase.ROUND_OVER and steps < 300:
            for seat in range(rnd.n):
                obs = observe_round(rnd, seat)
                _check(obs, rnd, seed)
                checked += 1
            offer_out_of_turn(game, bots, rng)
            if rnd.phase is Phase.ROUND_OVER:
                break
            rnd.apply(bots[rnd.actor].choose(observe(rnd.seat_view(rnd.actor)), rng))
            steps += 1
    assert checked > 300


def test_B2_observation_is_a_copy_not_a_window() -> None:
    """Once taken, an observation does not change when the round moves on."""
    game = Game(table("official", ["target=none"]), 2, 7)
    rnd = game.round
    obs = observe_round(rnd, rnd.actor)
    before = repr(obs)
    rnd.apply(make_bot("intermediate").choose(obs, random.Random(0)) or obs.legal[0])
    assert repr(obs) == before


@pytest.mark.parametrize("level", LEVELS)
def test_B2_same_observation_same_decision_under_two_hidden_deals(level: str) -> None:
    """Two rounds sharing the seat's observation but not the hidden cards: the observation
    is equal, and so is the decision (same generator seed)."""
    rules = table("official", ["target=none"])
    checked = 0
    for game_no in range(3 if level == "expert" else 8):
        note_seed(f"two-deals/{level}/{game_no}")
        game = Game(rules, 3, f"two-deals/{level}/{game_no}")
        bots = [make_bot(level, playouts=TEST_PLAYOUTS) for _ in range(3)]
        rng = random.Random(game_no)
        rnd = game.round
        while rnd.phase is not Phase.ROUND_OVER:
            seat = rnd.actor
            twin = _rehide(rnd, seat, rng)
            assert [twin.hands[s] for s in range(rnd.n) if s != seat] != [
                rnd.hands[s] for s in range(rnd.n) if s != seat
            ] or len(twin.draw_pile) < 2
            here, there = observe_round(rnd, seat), observe_round(twin, seat)
            assert here == there
            seed = rng.getrandbits(32)
            mine = bots[seat].choose(here, random.Random(seed))
            assert mine == bots[seat].choose(there, random.Random(seed))
            assert mine is not None
            rnd.apply(mine)
            checked += 1
    assert checked > 60

"""B2: a bot decides from its seat's view alone. Changing what the seat cannot see (other
hands, the order of the draw pile) never changes its decision; its search worlds agree
with its view; its card counting adds up."""

from __future__ import annotations

import random
import re
from collections import Counter
from pathlib import Path

import pytest
from bot_helpers import TEST_PLAYOUTS, table

from lanuno.bots import LEVELS, fastcore, make_bot
from lanuno.bots.knowledge import read_table
from lanuno.bots.search import WorldMaker, searchable
from lanuno.engine.cards import ALL_FACES, build_deck
from lanuno.engine.events import DrawCause, Drew
from lanuno.engine.game import Game
from lanuno.engine.observation import observe_round
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.sim import offer_out_of_turn

BOTS_DIR = Path(__file__).resolve().parents[2] / "lanuno" / "bots"


def _rehide(rnd: Round, seat: int, rng: random.Random) -> Round:
    """A copy of the round in which every card ``seat`` cannot see is dealt again: other
    hands keep their sizes, the draw pile its size, everything public stays."""
    twin = rnd.clone()
    others = [s for s in range(rnd.n) if s != seat]
    hidden = [card for s in others for card in twin.hands[s]] + twin.draw_pile
    rng.shuffle(hidden)
    for s in others:
        size = len(twin.hands[s])
        twin.hands[s], hidden = hidden[:size], hidden[size:]
    twin.draw_pile = hidden
    return twin


def _positions(level: str, rules_options: tuple[str, ...], games: int) -> int:
    """Play games with ``level`` at every seat; at each decision, check that the decision is
    the same in a round where the hidden cards were dealt again. Returns decisions checked."""
    rules = table("official", rules_options)
    checked = 0
    for game_no in range(games):
        bots = [make_bot(level, playouts=TEST_PLAYOUTS) for _ in range(3)]
        game = Game(rules, 3, f"hidden/{level}/{game_no}")
        rng = random.Random(game_no)
        rnd = game.round
        while rnd.phase is not Phase.ROUND_OVER:
            offer_out_of_turn(game, bots, rng)
            if rnd.phase is Phase.ROUND_OVER:
                break
            for seat in range(rnd.n):
                view = rnd.seat_view(seat)
                if not view.legal:
                    continue
                twin = _rehide(rnd, seat, rng)
                assert twin.fingerprint() != rnd.fingerprint() or rnd.n < 2
                seed = rng.getrandbits(32)
                here = bots[seat].choose(view, random.Random(seed))
                there = bots[seat].choose(twin.seat_view(seat), random.Random(seed))
                assert here == there, f"{level} seat {seat}: {here} became {there}"
                checked += 1
            actor = rnd.actor
            rnd.apply(bots[actor].choose(rnd.seat_view(actor), rng))
    return checked


@pytest.mark.parametrize("level", LEVELS)
def test_B2_decision_does_not_change_with_hidden_cards(level: str) -> None:
    games = 8 if level == "expert" else 20
    assert _positions(level, ("target=none",), games) > games * 20


def test_B2_expert_ignores_hidden_cards_with_house_rules() -> None:
    options = ("target=none", "stacking", "seven_o", "jump_in")
    assert _positions("expert", options, 2) > 40


def test_B2_bots_never_reach_behind_the_view() -> None:
    """The views keep the round in a private slot; bot code must never touch it."""
    forbidden = re.compile(r"\._round\b|\._live\b|\.hands\b.*view|view.*\.hands\b")
    for path in sorted(BOTS_DIR.glob("*.py")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            assert not forbidden.search(line), f"{path.name}:{number}: {line.strip()}"


def _mid_round(seed: int, steps: int, options: tuple[str, ...] = ("target=none",)) -> Game:
    game = Game(table("official", options), 3, seed)
    bots = [make_bot("intermediate") for _ in range(3)]
    rng = random.Random(seed)
    for _ in range(steps):
        rnd = game.round
        if rnd.phase is Phase.ROUND_OVER:
            break
        offer_out_of_turn(game, bots, rng)
        if rnd.phase is Phase.ROUND_OVER:
            break
        rnd.apply(bots[rnd.actor].choose(rnd.seat_view(rnd.actor), rng))
    return game


def test_B2_card_counting_adds_up() -> None:
    for seed in range(20):
        rnd = _mid_round(seed, 25).round
        for seat in range(rnd.n):
            view = observe_round(rnd, seat)
            knowledge = read_table(view)
            seen = Counter(view.hand) + Counter(view.table.discard)
            unseen = Counter(knowledge.unseen_cards())
            assert seen + unseen == Counter(build_deck(rnd.rules.deck))
            hidden = Counter(c for s in range(rnd.n) if s != seat for c in rnd.hands[s])
            assert unseen == hidden + Counter(rnd.draw_pile)


def test_B2_seat_that_drew_is_known_to_lack_what_fitted() -> None:
    """Where drawing is allowed only when nothing fits, a draw is proof: the real hand holds
    no card the reading excludes, beyond the kept drawn cards it counts as spare."""
    checked = 0
    for seed in range(30):
        options = ("target=none", "voluntary_draw=off")
        rnd = _mid_round(seed, 30, options).round
        me = rnd.actor
        knowledge = read_table(observe_round(rnd, me))
        for seat in range(rnd.n):
            lack = knowledge.lacks[seat]
            if seat == me or lack.empty:
                continue
            assert lack.holds_for(rnd.hands[seat]), (lack, rnd.hands[seat])
            checked += 1
    assert checked > 5


def test_B2_search_worlds_agree_with_the_view() -> None:
    checked = 0
    for seed in range(25):
        rnd = _mid_round(seed, 5 + seed).round
        view = observe_round(rnd, rnd.actor)
        if not searchable(view):
            continue
        knowledge = read_table(view)
        maker = WorldMaker.from_view(view, knowledge)
        for k in range(5):
            world = maker.sample(random.Random(k))
            cards = ALL_FACES
            assert world.hands[view.seat] == [c.index for c in view.hand]
            assert [len(h) for h in world.hands] == list(view.table.counts)
            assert world.discard == [c.index for c in view.table.discard]
            assert len(world.draw_pile) == view.table.draw_pile_size
            everything = Counter(cards[c] for c in world.draw_pile)
            for hand in world.hands:
                everything += Counter(cards[c] for c in hand)
            everything += Counter(cards[c] for c in world.discard)
            assert everything == Counter(build_deck(rnd.rules.deck))
            legal = [fastcore.to_engine(m) for m in world.legal_actions(view.seat)]
            assert set(map(str, legal)) == set(map(str, view.legal))
            for seat in range(rnd.n):
                if seat != view.seat and len(world.hands[seat]) <= 3:
                    lack = knowledge.lacks[seat]
                    assert lack.holds_for(cards[c] for c in world.hands[seat])
            checked += 1
    assert checked > 20


def test_B2_public_log_records_who_drew() -> None:
    """The evidence the expert counts on is public: a turn's draw shows in the table log."""
    rnd = _mid_round(3, 40).round
    draws = [e for e in rnd.table_view().log if isinstance(e, Drew)]
    assert any(e.cause is DrawCause.DRAW for e in draws)

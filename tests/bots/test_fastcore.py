"""The expert's fast simulation core plays by the engine's rules: from thousands of random
positions, under every preset and random option sets (house rules, kids switches, kids at
the table), the same random action sequences lead the core and the engine to the same
positions, the same legal actions for every seat, and the same scores."""

from __future__ import annotations

import random

import pytest
from helpers import examples, note_seed

from lanuno.bots import fastcore
from lanuno.engine.actions import Play
from lanuno.engine.cards import DeckKind
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import MAX_ROUND_WINS, Rules, Scoring, WildDrawFour, preset
from lanuno.engine.shuffle import SeededShuffler

GAMES_PER_PRESET = examples(120)  # 120 in CI
MAX_STEPS = 400


class SameShuffles:
    """The engine game's own shuffler over integer cards: the same permutation per purpose."""

    def __init__(self, seed: int | str) -> None:
        self.seeded = SeededShuffler(seed)

    def shuffle(self, cards: list[int], purpose: str) -> None:
        self.seeded.shuffle(cards, purpose)  # type: ignore[arg-type]


def _random_rules(name: str, rng: random.Random) -> Rules:
    base = preset(name)
    if rng.random() < 0.3:
        return base  # the preset as shipped
    hand_size = rng.choice([base.hand_size, 1, 2, 3, 7])
    limit = rng.choice([None, None, hand_size + rng.randrange(0, 4)])
    values: dict[str, object] = {
        "preset": name,
        "deck": rng.choice(list(DeckKind)),
        "hand_size": hand_size,
        "wild_draw_four": rng.choice(list(WildDrawFour)),
        "voluntary_draw": rng.random() < 0.5,
        "must_play_drawn": rng.random() < 0.3,
        "counter_uno": rng.random() < 0.7,
        "hand_limit": limit,
        "draw_two_gift": rng.random() < 0.3,
        "stacking": rng.random() < 0.4,
        "seven_o": rng.random() < 0.4,
        "jump_in": rng.random() < 0.5,
        "draw_until_playable": rng.random() < 0.3,
        "target": rng.choice([None, 1, 50, 500]),
        "scoring": rng.choice(list(Scoring)),
        "kids_immune_to_counter_uno": rng.random() < 0.5,
        "adults_draw_until_playable": rng.random() < 0.3,
        "kids_stack": rng.random() < 0.4,
        "kids_choose_target": rng.random() < 0.4,
        "kids_hit_all_adults": rng.random() < 0.3,
    }
    target = values["target"]
    if values["scoring"] is Scoring.ROUND_WINS and isinstance(target, int):
        values["target"] = min(target, MAX_ROUND_WINS)  # round wins: 500 of them is no game
    return Rules(**values)  # type: ignore[arg-type]


def _choice(rnd: Round, rng: random.Random) -> list[object]:
    """A random seat that has something to do (the actor most of the time)."""
    seats = [s for s in range(rnd.n) if s != rnd.actor and rnd.legal_actions(s)]
    seat = rnd.actor if not seats or rng.random() < 0.7 else rng.choice(seats)
    return list(rnd.legal_actions(seat))


def _compare(rnd: Round, core: fastcore.FastRound, where: str) -> None:
    assert fastcore.position(core) == fastcore.engine_position(rnd), where
    for seat in range(rnd.n):
        engine_legal = [fastcore.from_engine(a) for a in rnd.legal_actions(seat)]
        assert core.legal_actions(seat) == engine_legal, f"{where}, seat {seat}"


def _play(name: str, game_no: int) -> int:
    note_seed(f"fastcore/{name}/{game_no}")
    rng = random.Random(f"fastcore/{name}/{game_no}")
    rules = _random_rules(name, rng)
    n = rng.choice([2, 2, 3, 4, 6])
    kids = [rng.random() < 0.4 for _ in range(n)]
    seed = f"eq/{name}/{game_no}"
    game = Game(rules, [SeatInfo(kid=k, age=7 if k else None) for k in kids], seed)
    steps = 0
    for round_index in range(2):
        rnd = game.round
        # Positions mid-round: the core joins the engine's round at a random step.
        for _ in range(rng.randrange(0, 30)):
            if rnd.phase is Phase.ROUND_OVER:
                break
            legal = _choice(rnd, rng)
            game.apply(rng.choice(legal))  # type: ignore[arg-type]
        core = fastcore.from_round(rnd, SameShuffles(seed))
        where = f"{rules} seats {kids} round {round_index}"
        _compare(rnd, core, f"{where} at the start")
        for step in range(MAX_STEPS):
            if rnd.phase is Phase.ROUND_OVER:
                break
            legal = _choice(rnd, rng)
            action = rng.choice(legal)
            if isinstance(action, Play) and action.color is not None and rng.random() < 0.3:
                action = Play(action.seat, action.card)  # O11: the color as its own decision
            game.apply(action)  # type: ignore[arg-type]
            move = fastcore.from_engine(action)  # type: ignore[arg-type]
            assert fastcore.to_engine(move) == action
            core.apply(move)
            _compare(rnd, core, f"{where}, step {step}: {action}")
            steps += 1
        if rnd.phase is Phase.ROUND_OVER:
            assert core.phase == fastcore.ROUND_OVER
            assert (core.winner, core.scores, core.game_over) == (
                rnd.winner,
                rnd.scores,
                rnd.game_over,
            )
        if game.over or rnd.phase is not Phase.ROUND_OVER:
            break
        game.next_round()
    return steps


@pytest.mark.parametrize("name", ["official", "kids1", "kids2"])
def test_fast_core_matches_the_engine(name: str) -> None:
    steps = sum(_play(name, game_no) for game_no in range(GAMES_PER_PRESET))
    assert steps > GAMES_PER_PRESET * 20


@pytest.mark.parametrize("name", ["official", "kids1", "kids2"])
def test_fast_core_deals_like_the_engine(name: str) -> None:
    for game_no in range(150):
        note_seed(f"deal/{name}/{game_no}")
        rng = random.Random(f"deal/{name}/{game_no}")
        rules = _random_rules(name, rng)
        n = rng.choice([2, 3, 4, 7, 10])
        kids = [rng.random() < 0.4 for _ in range(n)]
        dealer = rng.randrange(n)
        seed = f"deal/{game_no}"
        rnd = Round(rules, kids, SeededShuffler(seed), round_no=3, dealer=dealer, scores=[0] * n)
        core = fastcore.deal(
            rules, kids, SameShuffles(seed), round_no=3, dealer=dealer, scores=[0] * n
        )
        _compare(rnd, core, f"{rules} seats {kids} dealer {dealer}")


def test_random_shuffler_is_a_stable_sort_by_the_generators_next_numbers() -> None:
    """The playouts' shuffler orders the cards by one ``random()`` per card, drawn first card
    first (ties keep their order): a faster way of writing it must keep the same permutation
    and the same draws, or every seeded expert decision changes."""
    for size in (0, 1, 2, 7, 55, 108):
        cards = [(i * 37) % 55 for i in range(size)]  # with repeats, as a pile has
        rng, ref = random.Random(size), random.Random(size)
        keys = [ref.random() for _ in cards]
        expected = [cards[i] for i in sorted(range(size), key=keys.__getitem__)]
        fastcore.RandomIntShuffler(rng).shuffle(cards, "test")
        assert cards == expected
        assert rng.random() == ref.random()  # as many numbers drawn

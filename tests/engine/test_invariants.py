"""Invariants over random games, for every preset and combinations of options.

- every card of the deck is somewhere, exactly as often as the deck holds it (O2, K1-1, K2-1)
- the hand limit holds whenever a turn begins (K1-5, K2-9)
- every game ends
- round scores follow O28 (points left in the other hands) or K2-11 (one per round)
- a refused action changes nothing, and every refusal names a rule
- garbage actions (wrong seat, wrong phase, cards not held, bad colors) are refused
"""

from __future__ import annotations

import random
import re
from collections import Counter

from helpers import examples, note_seed
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from lanuno.engine.actions import (
    ACTION_TYPES,
    Action,
    ChooseColor,
    CounterUno,
    Give,
    Play,
    ReturnCard,
    Timeout,
)
from lanuno.engine.cards import ALL_FACES, COLORS, DECK_SIZES, build_deck
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import RoundEnded
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import Rules, Scoring, preset, with_options

RULE_ID = re.compile(r"^(O\d+|T\d+|KA\d+|K[12]-\d+)$")
BOOLEAN_OPTIONS = (
    "stacking",
    "seven_o",
    "jump_in",
    "draw_until_playable",
    "ka1",
    "ka2",
    "ka3",
    "ka4",
    "ka5",
)
MAX_STEPS_PER_ROUND = 5_000


@st.composite
def tables(draw: st.DrawFn) -> tuple[Rules, tuple[SeatInfo, ...], int]:
    name = draw(st.sampled_from(["official", "kids1", "kids2"]))
    options = [f"{opt}=on" for opt in BOOLEAN_OPTIONS if draw(st.booleans())]
    if name == "official" and draw(st.booleans()):
        options.append("wild_draw_four=strict")
    if draw(st.booleans()):
        options.append("counter_uno=on")
    target = draw(st.sampled_from(["none", "none", "default"]))
    if target == "none":
        options.append("target=none")
    rules = with_options(preset(name), options)
    n = draw(st.integers(min_value=2, max_value=6))
    seats = tuple(
        SeatInfo(kid=draw(st.booleans()), age=draw(st.one_of(st.none(), st.integers(3, 60))))
        for _ in range(n)
    )
    return rules, seats, draw(st.integers(min_value=0, max_value=10**6))


def check_round(rnd: Round) -> None:
    deck = build_deck(rnd.rules.deck)
    assert rnd.card_count() == DECK_SIZES[rnd.rules.deck]
    everywhere = Counter(rnd.draw_pile) + Counter(rnd.discard)
    for hand in rnd.hands:
        everywhere += Counter(hand)
    assert everywhere == Counter(deck)
    limit = rnd.rules.hand_limit
    if limit is not None and rnd.phase in (Phase.TURN, Phase.PENALTY):
        assert all(len(hand) <= limit for hand in rnd.hands), [len(h) for h in rnd.hands]


def garbage(rng: random.Random, n: int) -> Action:
    """An arbitrary action: any type, any seat (some out of range), any arguments."""
    cls = rng.choice(ACTION_TYPES)
    seat = rng.choice([*range(n), -1, n, 99])
    if cls in (Play, ReturnCard):
        card = rng.choice(ALL_FACES)
        if cls is Play and rng.random() < 0.3:
            return Play(seat, card, rng.choice(COLORS))
        return cls(seat, card)  # type: ignore[call-arg]
    if cls is ChooseColor:
        return ChooseColor(seat, rng.choice([*COLORS, "purple"]))  # type: ignore[list-item]
    if cls is Give:
        return Give(seat, tuple(rng.randrange(-1, n + 1) for _ in range(rng.randrange(4))))
    if cls.verb in ("catch", "target", "swap"):
        return cls(seat, rng.randrange(-1, n + 1))  # type: ignore[call-arg]
    return cls(seat)


def accepted_without_listing(rnd: Round, action: Action) -> bool:
    """Actions the engine accepts that legal_actions deliberately does not list."""
    if isinstance(action, CounterUno):
        return action.target != action.seat  # O25: a miss is accepted, with no effect
    if isinstance(action, Timeout):
        return action.seat == rnd.actor  # the host's clock decides; the engine obeys
    if isinstance(action, Play) and action.color is None and action.card.color is None:
        colored = Play(action.seat, action.card, COLORS[0])
        return colored in rnd.legal_actions(action.seat)
    return False


def try_garbage(rnd: Round, rng: random.Random) -> None:
    action = garbage(rng, rnd.n)
    before = rnd.fingerprint()
    legal = 0 <= action.seat < rnd.n and action in rnd.legal_actions(action.seat)
    tolerated = 0 <= action.seat < rnd.n and accepted_without_listing(rnd, action)
    try:
        rnd.apply(action)
    except IllegalAction as refusal:
        assert not legal, f"{action} is listed as legal but was refused: {refusal}"
        assert RULE_ID.match(refusal.rule_id), refusal.rule_id
        assert refusal.message
        assert rnd.fingerprint() == before, f"refused {action} changed the state"
        return
    assert legal or tolerated, f"garbage {action} was accepted"


def play_out(game: Game, rng: random.Random, *, with_garbage: bool) -> int:
    """Play random legal actions (cards before draws, as players do) until the game ends."""
    steps = 0
    while True:
        rnd = game.round
        round_steps = 0
        while rnd.phase is not Phase.ROUND_OVER:
            check_round(rnd)
            if with_garbage and rng.random() < 0.3:
                try_garbage(rnd, rng)
                if rnd.phase is Phase.ROUND_OVER:
                    break
            seat = rnd.actor
            # Sometimes let another seat act out of turn (Counter-UNO, UNO, jump-in).
            if rng.random() < 0.2:
                seat = rng.randrange(rnd.n)
            legal = rnd.legal_actions(seat) or rnd.legal_actions(rnd.actor)
            if seat != rnd.actor and not rnd.legal_actions(seat):
                seat = rnd.actor
            plays = [a for a in legal if isinstance(a, Play)]
            action = rng.choice(plays if plays and rng.random() < 0.9 else legal)
            game.apply(action)
            steps += 1
            round_steps += 1
            assert round_steps < MAX_STEPS_PER_ROUND, "round did not end"
        check_round(rnd)
        check_scores(rnd)
        if game.over:
            return steps
        game.next_round()


def check_scores(rnd: Round) -> None:
    ended = [e for e in rnd.events if isinstance(e, RoundEnded)]
    assert len(ended) == 1
    assert ended[0].winner == rnd.winner
    winner = rnd.winner
    assert winner is not None
    assert not rnd.hands[winner]
    if rnd.rules.scoring is Scoring.ROUND_WINS:
        assert ended[0].points == 1  # K2-11
    else:
        # O28: number cards at face value, actions 20, wilds 50.
        expected = 0
        for hand in rnd.hands:
            for card in hand:
                if card.rank.value.isdigit():
                    expected += int(card.rank.value)
                elif card.color is None:
                    expected += 50
                else:
                    expected += 20
        assert ended[0].points == expected


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.randoms(use_true_random=False))
def test_random_games_keep_the_invariants(
    table: tuple[Rules, tuple[SeatInfo, ...], int], data: random.Random
) -> None:
    rules, seats, seed = table
    game = Game(rules, seats, seed, first_player=0)
    play_out(game, data, with_garbage=False)
    assert game.over
    assert game.winner is not None
    if rules.target is not None:
        assert max(game.scores) >= rules.target  # O29, K2-11


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(table=tables(), data=st.randoms(use_true_random=False))
def test_garbage_actions_are_refused_with_a_rule_and_change_nothing(
    table: tuple[Rules, tuple[SeatInfo, ...], int], data: random.Random
) -> None:
    rules, seats, seed = table
    rules = with_options(rules, ["target=none"])
    play_out(Game(rules, seats, seed, first_player=0), data, with_garbage=True)


def test_every_preset_and_option_combination_finishes() -> None:
    """A deterministic sweep: each preset with each single option and with all of them."""
    for name in ("official", "kids1", "kids2"):
        combos = [[opt] for opt in BOOLEAN_OPTIONS] + [list(BOOLEAN_OPTIONS)]
        for combo in combos:
            rules = with_options(preset(name), [*(f"{c}=on" for c in combo), "target=none"])
            seats = (SeatInfo(kid=True, age=5), SeatInfo(), SeatInfo(kid=True), SeatInfo())
            for seed in range(3):
                note_seed((name, combo, seed))
                game = Game(rules, seats, seed)
                play_out(game, random.Random(seed), with_garbage=False)
                assert game.over

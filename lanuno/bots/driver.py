"""The bot turn loop: which bot decides next, in what order, and bots-only rounds.

One loop for both users of bots: the host's table (``bot_step``: one decision per call, at
the pace the table schedules, human seats mixed in) and ``lanuno sim`` (``play_round``: a
whole round at once, every seat a bot). Both offer out-of-turn chances first (saying UNO
when exposed, Counter-UNO, jump-in), in ``out_of_turn_order`` (the exposed seat first,
then turn order from the actor), then the actor decides. No clock here: pace is the
host's business.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from lanuno.bots.base import Bot
from lanuno.engine.actions import Action, Timeout
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.observation import observe_round
from lanuno.engine.phases import Phase
from lanuno.engine.round import Round
from lanuno.engine.rules import Rules

MAX_ACTIONS_PER_ROUND = 20_000
"""A round that runs this long is a bug, not a game: the driver stops with an error."""

BotAt = Callable[[int], Bot | None]
"""The bot deciding for a seat, or None where a person decides."""
Apply = Callable[[Action], bool]
"""Apply a bot's action; False if nothing was applied (the host refused it)."""


@dataclass(slots=True)
class GameResult:
    winner: int
    scores: tuple[int, ...]
    rounds: int
    turns: int
    """Actions taken by actors (out-of-turn calls not counted)."""


def out_of_turn_order(rnd: Round) -> list[int]:
    """Every seat but the actor, in turn order from the actor; the exposed seat first (it
    may still say UNO before anyone catches it)."""
    n = rnd.n
    order = [(rnd.actor + k) % n for k in range(1, n)]
    if rnd.exposed is not None and rnd.exposed in order:
        order.remove(rnd.exposed)
        order.insert(0, rnd.exposed)
    return order


def offer_chances(
    game: Game, bot_at: BotAt, rng: random.Random, apply: Apply, *, first_only: bool
) -> int:
    """Give each bot seat with an out-of-turn option one chance to act, in
    ``out_of_turn_order``; stop after the first applied action if ``first_only``. Returns
    how many acted."""
    acted = 0
    for seat in out_of_turn_order(game.round):
        if game.round.winner is not None:
            break
        bot = bot_at(seat)
        if bot is None or not game.legal_actions(seat):
            continue
        action = bot.choose(observe_round(game.round, seat), rng)
        if action is not None and apply(action):
            acted += 1
            if first_only:
                break
    return acted


def bot_step(game: Game, bot_at: BotAt, rng: random.Random, apply: Apply) -> bool:
    """One bot decision, as the host takes them: the first out-of-turn chance a bot takes,
    else the actor's move if a bot plays the actor (a bot without a decision lets the
    seat's timer decide). Returns whether an action was applied."""
    if offer_chances(game, bot_at, rng, apply, first_only=True):
        return True
    actor = game.round.actor
    bot = bot_at(actor)
    if bot is None:
        return False
    action = bot.choose(observe_round(game.round, actor), rng)
    return apply(action if action is not None else Timeout(actor))


def offer_out_of_turn(game: Game, bots: Sequence[Bot], rng: random.Random) -> int:
    """Bots-only: every non-actor seat with an out-of-turn option gets one chance to act.
    Returns how many acted."""

    def apply(action: Action) -> bool:
        game.apply(action)
        return True

    return offer_chances(game, bots.__getitem__, rng, apply, first_only=False)


def play_round(game: Game, bots: Sequence[Bot], rng: random.Random) -> int:
    """Bots-only: play the current round to its end; returns the number of actor
    decisions."""
    rnd = game.round
    jump_in = game.rules.jump_in
    # Looked up once: this loop runs for every decision of every simulated round.
    over = Phase.ROUND_OVER
    apply = game.apply
    choosers = [bot.choose for bot in bots]
    limit = MAX_ACTIONS_PER_ROUND
    turns = 0
    while rnd.phase is not over:
        if rnd.exposed is not None or jump_in:
            offer_out_of_turn(game, bots, rng)
            if rnd.winner is not None:
                break
        actor = rnd.actor
        action = choosers[actor](observe_round(rnd, actor), rng)
        if action is None:
            raise RuntimeError(f"bot {bots[actor].level} at seat {actor} made no decision")
        apply(action)
        turns += 1
        if turns > limit:
            raise RuntimeError("round did not end: engine or bot bug")
    return turns


def play_game(
    rules: Rules,
    bots: Sequence[Bot],
    seed: int | str,
    *,
    seats: Sequence[SeatInfo] | None = None,
) -> GameResult:
    """Bots-only: a whole game from ``seed`` (the same seed, the same game)."""
    rng = random.Random(f"bots/{seed}")
    game = Game(rules, seats if seats is not None else len(bots), seed)
    rounds, turns = 1, play_round(game, bots, rng)
    while not game.over:
        game.next_round()
        rounds += 1
        turns += play_round(game, bots, rng)
    winner = game.winner
    assert winner is not None
    return GameResult(winner, tuple(game.scores), rounds, turns)

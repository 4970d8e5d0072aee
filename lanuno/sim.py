"""The driver loop that runs bots through whole games in-process (``lanuno sim``, tests,
scripts).

Out-of-turn chances (saying UNO when exposed, Counter-UNO, jump-in) are offered after each
action to the seats that have one, the exposed seat first, then in turn order; then the
actor decides. No clock: bots answer at once here (the host adds human pace).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from lanuno.bots.base import Bot
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.phases import Phase
from lanuno.engine.rules import Rules
from lanuno.engine.views import SeatView

MAX_ACTIONS_PER_ROUND = 20_000
"""A round that runs this long is a bug, not a game: the driver stops with an error."""


@dataclass(slots=True)
class GameResult:
    winner: int
    scores: tuple[int, ...]
    rounds: int
    turns: int
    """Actions taken by actors (out-of-turn calls not counted)."""


def offer_out_of_turn(game: Game, bots: Sequence[Bot], rng: random.Random) -> int:
    """Give every non-actor seat with an out-of-turn option one chance to act. Returns how
    many acted."""
    rnd = game.round
    n = len(bots)
    order = [(rnd.actor + k) % n for k in range(1, n)]
    if rnd.exposed is not None and rnd.exposed in order:
        order.remove(rnd.exposed)
        order.insert(0, rnd.exposed)
    acted = 0
    for seat in order:
        if game.round.winner is not None:
            break
        if not game.legal_actions(seat):
            continue
        action = bots[seat].choose(game.seat_view(seat), rng)
        if action is not None:
            game.apply(action)
            acted += 1
    return acted


def play_round(game: Game, bots: Sequence[Bot], rng: random.Random) -> int:
    """Play the current round to its end; returns the number of actor decisions."""
    rnd = game.round
    rules = game.rules
    jump_in = rules.jump_in
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
        action = choosers[actor](SeatView(rnd, actor), rng)
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

#!/usr/bin/env python3
"""Bots-only throughput of the engine against RLCard's UNO game class, in one process.

Both sides play 2-player rounds to their end with uniform random choices:
- lanuno: the official preset, beginner bots through the full bot interface (a SeatView per
  decision, UNO calls, Counter-UNO, challenges, scoring), one round per game (target=none);
- RLCard: ``rlcard.games.uno.game.UnoGame`` driven with uniform random legal actions
  (its game is one round).
The two alternate in short slices so both see the same load. Also prints full official
games (to 500 points) per second for information.

Also the expert's fast simulation core (``lanuno.bots.fastcore``) on the same rounds
(``fastcore_vs_rlcard_ratio``), and how many worlds the expert plays out per 50 ms decision.

Needs the bench extra: ``pip install -e '.[bench]'``. Last line: ``engine_vs_rlcard_ratio: X``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

from lanuno.bots.beginner import BeginnerBot
from lanuno.engine.rules import official, with_options
from lanuno.sim import play_game


class LanunoRounds:
    """2-player official rounds with beginner bots, run in short slices."""

    def __init__(self) -> None:
        self.rules = with_options(official(), ["target=none"])
        self.bots = [BeginnerBot(), BeginnerBot()]
        self.rounds = self.decisions = 0
        self.seconds = 0.0

    def run_for(self, seconds: float) -> None:
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            result = play_game(self.rules, self.bots, f"bench/{self.rounds}")
            self.rounds += 1
            self.decisions += result.turns
        self.seconds += time.perf_counter() - start


class RLCardRounds:
    """RLCard's UnoGame, 2 players, uniform random legal actions, in short slices."""

    def __init__(self) -> None:
        from rlcard.games.uno.game import UnoGame

        self.game = UnoGame(num_players=2)
        self.rng = random.Random(0)
        self.rounds = self.decisions = 0
        self.seconds = 0.0

    def run_for(self, seconds: float) -> None:
        game, rng = self.game, self.rng
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            game.init_game()
            while not game.is_over():
                legal = game.get_legal_actions()
                game.step(legal[rng.randrange(len(legal))])
                self.decisions += 1
            self.rounds += 1
        self.seconds += time.perf_counter() - start


class FastCoreRounds:
    """The expert's simulation core (``lanuno.bots.fastcore``): 2-player official rounds,
    dealt and played to the end with random legal moves: a random card when one fits (RLCard's
    legal actions only offer the draw when nothing fits), the drawn card when it fits, UNO
    said when it may be."""

    def __init__(self) -> None:
        from lanuno.bots import fastcore

        self.core = fastcore
        self.rules = with_options(official(), ["target=none"])
        self.fast_rules = fastcore.FastRules(self.rules, (False, False))
        self.rng = random.Random(0)
        self.shuffler = fastcore.RandomIntShuffler(self.rng)
        self.rounds = self.decisions = 0
        self.seconds = 0.0

    def run_for(self, seconds: float) -> None:
        core, rng = self.core, self.rng
        draw, uno, over, drawn = core.DRAW, core.UNO, core.ROUND_OVER, core.DRAWN
        random_ = rng.random
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            r = core.deal(
                self.rules,
                (False, False),
                self.shuffler,
                round_no=1,
                dealer=self.rounds % 2,
                scores=[0, 0],
                fast_rules=self.fast_rules,
            )
            apply, legal_actions = r.apply, r.legal_actions
            decisions = 0
            while r.phase != over:
                legal = legal_actions(r.actor)
                last = legal[-1]
                kind = last[0]
                if kind == uno:
                    apply(last)
                elif r.phase == drawn:
                    apply(legal[0])  # the drawn card
                elif kind == draw and len(legal) > 1:
                    apply(legal[int(random_() * (len(legal) - 1))])  # a card rather than a draw
                else:
                    apply(legal[int(random_() * len(legal))])
                decisions += 1
            self.decisions += decisions
            self.rounds += 1
        self.seconds += time.perf_counter() - start


def expert_playouts_per_50ms(seconds: float) -> float:
    """Worlds the expert plays out per 50 ms decision budget (each world plays every
    option to the horizon), over the searched decisions of expert-vs-intermediate rounds."""
    import lanuno.bots.expert as expert_module
    from lanuno.bots.expert import ExpertBot
    from lanuno.bots.intermediate import IntermediateBot
    from lanuno.engine.game import Game
    from lanuno.sim import play_round

    counts: list[int] = []
    original = expert_module.flat  # type: ignore[attr-defined]  # the name the expert calls

    def counting(*args: Any, **kwargs: Any) -> tuple[list[float], int]:
        values, worlds = original(*args, **kwargs)
        counts.append(worlds)
        return values, worlds

    expert_module.flat = counting  # type: ignore[attr-defined]
    try:
        start = time.perf_counter()
        i = 0
        while time.perf_counter() - start < seconds:
            game = Game(with_options(official(), ["target=none"]), 2, f"playouts/{i}")
            play_round(
                game,
                [ExpertBot(budget_ms=50.0, playouts=None), IntermediateBot()],
                random.Random(i),
            )
            i += 1
    finally:
        expert_module.flat = original  # type: ignore[attr-defined]
    return sum(counts) / max(len(counts), 1)


def lanuno_full_games(seconds: float) -> float:
    bots = [BeginnerBot(), BeginnerBot()]
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < seconds:
        play_game(official(), bots, f"full/{games}")
        games += 1
    return games / (time.perf_counter() - start)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="per side, in total")
    parser.add_argument("--slice", type=float, default=0.25, help="seconds per alternation")
    args = parser.parse_args()
    try:
        import rlcard  # noqa: F401
    except ImportError:
        print("RLCard is missing: pip install -e '.[bench]'", file=sys.stderr)
        return 2
    # Alternate short slices so that both sides see the same machine load.
    ours, theirs, fast = LanunoRounds(), RLCardRounds(), FastCoreRounds()
    slices = max(1, round(args.seconds / args.slice))
    for _ in range(slices):
        ours.run_for(args.slice)
        theirs.run_for(args.slice)
        fast.run_for(args.slice)
    our_rate, their_rate = ours.rounds / ours.seconds, theirs.rounds / theirs.seconds
    our_turns, their_steps = ours.decisions / ours.rounds, theirs.decisions / theirs.rounds
    print(
        f"lanuno official 2p rounds/s (beginner bots, views, events): {our_rate:,.0f} "
        f"({our_turns:.1f} decisions per round, {our_rate * our_turns:,.0f} decisions/s)"
    )
    print(
        f"rlcard UnoGame 2p rounds/s (uniform random legal actions): {their_rate:,.0f} "
        f"({their_steps:.1f} steps per round, {their_rate * their_steps:,.0f} steps/s)"
    )
    print(f"lanuno official 2p full games to 500 points/s: {lanuno_full_games(2.0):,.1f}")
    print(f"decisions_per_second_ratio: {our_rate * our_turns / (their_rate * their_steps):.2f}")
    fast_rate = fast.rounds / fast.seconds
    print(
        f"fast core 2p rounds/s (random legal moves, no events): {fast_rate:,.0f} "
        f"({fast.decisions / fast.rounds:.1f} decisions per round)"
    )
    print(f"expert playouts per 50 ms decision: {expert_playouts_per_50ms(args.seconds / 2):.1f}")
    print(f"fastcore_vs_rlcard_ratio: {fast_rate / their_rate:.2f}")
    print(f"engine_vs_rlcard_ratio: {our_rate / their_rate:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""``lanuno sim``: bots-only games in this process; prints wins per seat, mean points, mean
turns per round and games per second."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from lanuno.bots import make_bot
from lanuno.bots.base import Bot
from lanuno.bots.levels import BotLevel
from lanuno.commands.common import rules_from_args
from lanuno.engine.game import SeatInfo
from lanuno.engine.rules import Rules
from lanuno.sim import GameResult, play_game


@dataclass(slots=True)
class SimStats:
    games: int = 0
    wins: list[int] = field(default_factory=list)
    points: list[int] = field(default_factory=list)
    rounds: int = 0
    turns: int = 0
    seconds: float = 0.0

    def add(self, result: GameResult) -> None:
        if not self.wins:
            self.wins = [0] * len(result.scores)
            self.points = [0] * len(result.scores)
        self.games += 1
        self.wins[result.winner] += 1
        for seat, score in enumerate(result.scores):
            self.points[seat] += score
        self.rounds += result.rounds
        self.turns += result.turns

    def report(self) -> str:
        lines = [f"games: {self.games}  rounds: {self.rounds}"]
        for seat, wins in enumerate(self.wins):
            lines.append(
                f"seat {seat}: wins {wins} ({wins / self.games:.1%})  "
                f"mean points {self.points[seat] / self.games:.1f}"
            )
        lines.append(f"mean turns per round: {self.turns / max(self.rounds, 1):.1f}")
        lines.append(f"games per second: {self.games / max(self.seconds, 1e-9):.1f}")
        return "\n".join(lines)


def simulate(
    rules: Rules,
    bots: Sequence[Bot],
    games: int,
    seed: int,
    seats: Sequence[SeatInfo] | None = None,
) -> SimStats:
    stats = SimStats()
    start = time.perf_counter()
    for i in range(games):
        stats.add(play_game(rules, bots, f"{seed}/{i}", seats=seats))
    stats.seconds = time.perf_counter() - start
    return stats


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 10:
        print("lanuno sim: --players must be between 2 and 10 (O1)", file=sys.stderr)
        return 2
    levels: tuple[BotLevel, ...] = args.level
    if len(levels) == 1:
        levels = levels * args.players
    if len(levels) != args.players:
        print("lanuno sim: give one level, or one per seat", file=sys.stderr)
        return 2
    try:
        bots = [make_bot(level, playouts=args.playouts) for level in levels]
        rules = rules_from_args(args)
    except ValueError as exc:
        print(f"lanuno sim: {exc}", file=sys.stderr)
        return 2
    print(
        f"preset {rules.preset}, {args.players} players ({', '.join(levels)}), "
        f"{args.games} games, seed {args.seed}"
    )
    print(simulate(rules, bots, args.games, args.seed).report())
    return 0

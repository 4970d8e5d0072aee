"""``lanuno sim``: bots-only games in this process; prints wins per seat, mean points, mean
turns per round and games per second."""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TextIO

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
    interrupted: bool = False
    """Ctrl-C stopped the run: these are the games finished before it."""

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
                f"seat {seat + 1}: wins {wins} ({wins / self.games:.1%})  "
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
    progress: Callable[[int, float], None] | None = None,
) -> SimStats:
    """Play ``games`` games; ``progress(done, seconds)`` after each. Ctrl-C stops early:
    the games finished so far are the result (``stats.interrupted`` says so)."""
    stats = SimStats()
    start = time.perf_counter()
    try:
        for i in range(games):
            stats.add(play_game(rules, bots, f"{seed}/{i}", seats=seats))
            if progress is not None:
                progress(i + 1, time.perf_counter() - start)
    except KeyboardInterrupt:
        stats.interrupted = True
    stats.seconds = time.perf_counter() - start
    return stats


class ProgressBar:
    """``[#######.............]  35/100 games  12 s, about 22 s left`` on one line of
    standard error, redrawn at most five times a second (then once more at the end)."""

    WIDTH = 24

    def __init__(self, total: int, out: TextIO | None = None, every: float = 0.2) -> None:
        self.total = total
        # sys.stderr as it is now, not as it was at import (a test may have swapped it).
        self.out = out if out is not None else sys.stderr
        self.every = every
        self._drawn_at = -every
        self._shown = False

    def __call__(self, done: int, seconds: float) -> None:
        if seconds - self._drawn_at < self.every and done < self.total:
            return
        self._drawn_at = seconds
        self._shown = True
        filled = self.WIDTH * done // max(self.total, 1)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        left = seconds / done * (self.total - done) if done else 0.0
        estimate = "done" if done >= self.total else f"about {_duration(left)} left"
        count = f"{done:>{len(str(self.total))}}/{self.total}"
        line = f"[{bar}] {count} games  {_duration(seconds)}, {estimate}"
        print(f"\r{line}", end="", file=self.out, flush=True)

    def close(self) -> None:
        if self._shown:
            print(file=self.out, flush=True)


def draws_the_bar(mode: str, err: TextIO) -> bool:
    """``--progress``: ``auto`` draws the bar only on a terminal (redirected, every redraw
    would land in the file as one more line); ``always`` and ``never`` say it outright."""
    return err.isatty() if mode == "auto" else mode == "always"


def _duration(seconds: float) -> str:
    if seconds < 60:
        return f"{seconds:.0f} s"
    minutes, seconds = divmod(int(seconds), 60)
    if minutes < 60:
        return f"{minutes} min {seconds:02d} s"
    hours, minutes = divmod(minutes, 60)
    return f"{hours} h {minutes:02d} min"


def run(args: argparse.Namespace) -> int:
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
    bar = ProgressBar(args.games) if draws_the_bar(args.progress, sys.stderr) else None
    try:
        stats = simulate(rules, bots, args.games, args.seed, progress=bar)
    finally:
        if bar is not None:
            bar.close()
    if stats.interrupted:
        print(f"interrupted (Ctrl-C): results of the {stats.games} games finished so far")
    if stats.games:
        print(stats.report())
    return 130 if stats.interrupted else 0

"""Where a bot wins and loses its rounds at a table of intermediates (issue 13's profile).

The level under test sits once in each seat of the same deals (as in
``scripts/tournament.py``), single rounds of the official rules. For its seat it prints the
win rate, how often it got down to one card and how often it then won, the cards it drew by
cause (before and after it reached one card), and the fewest cards it held in the rounds it
lost. Two runs over the same ``--start`` and ``--rounds`` are paired (the same deals, the
same luck until their decisions part), so their difference is less noisy than two
tournament figures.

    python scripts/round_profile.py --level expert --rounds 2400        # about 5 min
    python scripts/round_profile.py --level intermediate --rounds 2400  # the fair-share table

Session 35's figures (``--rounds 4800``, deals 0-1199; about 10 min for the expert on 2
cores): expert 0.282, down to one card in 0.498 of its rounds and won 0.566 of those;
intermediate 0.250, 0.477 and 0.524. The rounds it lost after reaching one card were lost
mostly to draws on its turn (2.65 cards a round), then penalties (1.35) and lost challenges
(0.56).
"""

from __future__ import annotations

import argparse
import collections
import multiprocessing
import random
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lanuno.bots import BotLevel, make_bot
from lanuno.bots.expert import WORLDS
from lanuno.engine.events import Drew, HandDealt, Played
from lanuno.engine.game import Game
from lanuno.engine.rules import official, with_options
from lanuno.sim import play_round

SEATS = 4
RULES = with_options(official(), ["target=none"])


@dataclass(frozen=True, slots=True)
class Profile:
    """One round, seen from the seat under test."""

    won: bool
    reached_one: bool
    fewest: int
    """The fewest cards the seat held after one of its plays (0: it went out)."""
    drawn_before: dict[str, int] = field(default_factory=dict)
    """Cards drawn by cause before the seat first held one card."""
    drawn_after: dict[str, int] = field(default_factory=dict)
    """Cards drawn by cause after it first held one card."""


def profile_round(level: BotLevel, index: int, playouts: int) -> Profile:
    """Round ``index``: deal ``index // 4``, the level under test in seat ``index % 4``."""
    deal, seat = divmod(index, SEATS)
    levels = [BotLevel.INTERMEDIATE] * SEATS
    levels[seat] = level
    bots = [make_bot(each, playouts=playouts) for each in levels]
    game = Game(RULES, SEATS, f"profile/{deal}")
    play_round(game, bots, random.Random(f"profile/{deal}"))
    held = [0] * SEATS
    fewest = 99
    reached_one = False
    before: collections.Counter[str] = collections.Counter()
    after: collections.Counter[str] = collections.Counter()
    for event in game.round.events:
        if isinstance(event, HandDealt):
            held[event.seat] = len(event.cards)
        elif isinstance(event, Drew):
            held[event.seat] += event.count
            if event.seat == seat:
                (after if reached_one else before)[event.cause.value] += event.count
        elif isinstance(event, Played):
            held[event.seat] -= 1
            if event.seat == seat:
                fewest = min(fewest, held[seat])
                reached_one = reached_one or held[seat] == 1
    return Profile(game.round.winner == seat, reached_one, fewest, dict(before), dict(after))


def _job(job: tuple[str, int, int]) -> Profile:
    level, index, playouts = job
    return profile_round(BotLevel(level), index, playouts)


def _per_round(profiles: Sequence[Profile], attribute: str) -> dict[str, float]:
    total: collections.Counter[str] = collections.Counter()
    for each in profiles:
        total.update(getattr(each, attribute))
    return {
        cause: round(count / max(len(profiles), 1), 2) for cause, count in sorted(total.items())
    }


def report(level: str, profiles: Sequence[Profile]) -> list[str]:
    n = len(profiles)
    won = sum(p.won for p in profiles)
    one = [p for p in profiles if p.reached_one]
    lost_after_one = [p for p in one if not p.won]
    fewest_lost = collections.Counter(p.fewest for p in profiles if not p.won)
    return [
        f"{level} at {SEATS} seats against intermediates, {n} rounds",
        f"  win rate: {won / max(n, 1):.3f}",
        f"  reached one card: {len(one) / max(n, 1):.3f} of rounds, "
        f"won {sum(p.won for p in one) / max(len(one), 1):.3f} of those",
        f"  cards drawn a round before one card: {_per_round(profiles, 'drawn_before')}",
        f"  cards drawn after one card, in the {len(lost_after_one)} rounds then lost: "
        f"{_per_round(lost_after_one, 'drawn_after')}",
        f"  fewest cards held in lost rounds: {dict(sorted(fewest_lost.items()))}",
    ]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("--level", default="expert", choices=[str(level) for level in BotLevel])
    parser.add_argument("--rounds", type=int, default=2400, help="a multiple of 4 (4 a deal)")
    parser.add_argument("--start", type=int, default=0, help="the first round's index")
    parser.add_argument("--playouts", type=int, default=WORLDS, help="the expert's worlds")
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args(argv)
    jobs = [(args.level, i, args.playouts) for i in range(args.start, args.start + args.rounds)]
    if args.workers > 1:
        with multiprocessing.get_context("spawn").Pool(args.workers) as pool:
            profiles = pool.map(_job, jobs, chunksize=8)
    else:
        profiles = [_job(job) for job in jobs]
    print("\n".join(report(args.level, profiles)))
    return 0


if __name__ == "__main__":
    sys.exit(main())

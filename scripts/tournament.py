"""Seeded round-robin between the bot levels: win rates with 95% intervals, mean points,
and decision times.

Every match is played in single rounds (``target=none``) of the official rules, or of the
kids' presets for the ``kids1_``/``kids2_`` matches (as many rounds: their question, whether
skill shows at a kids' table, is within 3 points too). In two-player matches each deal is
played twice with the seats swapped; in four-player matches the level under test sits once
in each seat of the same deal, so luck of the deal cancels.
The expert searches its shipped number of worlds per decision (``expert.WORLDS``) with its
time cap lifted, so that a run measures the shipped bot and is reproducible from its seed
whatever the load; decision times are then measured separately with the shipped settings
(the cap included), on one core, after the matches, at two and four seats.

    python scripts/tournament.py            # full: about 1100 rounds a match, ±3 points
    python scripts/tournament.py --quick    # a smaller run
    python scripts/tournament.py --only expert_vs_intermediate_2p --rounds 400   # one match
    python scripts/tournament.py --only expert_in_4p_vs_3_intermediates --target 500 --rounds 600

With ``--target N`` every match plays whole games to N points instead of single rounds
(``--rounds`` then counts games): the game win rate, how a party keeps score.

The last four lines are the headline single-round win rates of the expert, among them
``expert_vs_intermediate_2p`` and ``expert_in_4p_vs_3_intermediates``.
"""

from __future__ import annotations

import argparse
import math
import multiprocessing
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lanuno.bots import BotLevel, make_bot
from lanuno.bots.base import Bot
from lanuno.bots.expert import TIME_CAP_MS, WORLDS
from lanuno.engine.actions import Action
from lanuno.engine.game import Game
from lanuno.engine.observation import Observation
from lanuno.engine.rules import Rules, preset, with_options
from lanuno.engine.views import SeatView
from lanuno.sim import play_game, play_round

RULES: dict[str, Rules] = {
    name: with_options(preset(name), ["target=none"]) for name in ("official", "kids1", "kids2")
}
Z95 = 1.959964
FULL_ROUNDS = 1100
"""Rounds per match: a 95% interval of at most ±3 points needs 1068 at a 50% win rate."""
QUICK_ROUNDS = 200
FULL_PLAYOUTS = WORLDS
QUICK_PLAYOUTS = 16
CHUNK = 20


@dataclass(frozen=True, slots=True)
class Match:
    name: str
    focus: BotLevel
    """The level whose win rate the match measures."""
    field: BotLevel
    """The level in every other seat."""
    players: int
    table: str = "official"
    """The preset (single rounds)."""
    share: float = 1.0
    """Rounds of this match, as a share of the rounds asked for."""


KIDS_SHARE = 1.0
"""Rounds of a kids' table, as a share of the rounds asked for (at 0.4, ±5 points left the
expert's 0.52 on kids1 within noise of a beginner's 0.50; 4,000 rounds gave 0.555)."""
_E, _I, _B = BotLevel.EXPERT, BotLevel.INTERMEDIATE, BotLevel.BEGINNER
MATCHES = (
    Match("expert_vs_beginner_2p", BotLevel.EXPERT, BotLevel.BEGINNER, 2),
    Match("expert_vs_intermediate_2p", BotLevel.EXPERT, BotLevel.INTERMEDIATE, 2),
    Match("intermediate_vs_beginner_2p", BotLevel.INTERMEDIATE, BotLevel.BEGINNER, 2),
    Match("expert_in_4p_vs_3_beginners", BotLevel.EXPERT, BotLevel.BEGINNER, 4),
    Match("expert_in_4p_vs_3_intermediates", BotLevel.EXPERT, BotLevel.INTERMEDIATE, 4),
    Match("intermediate_in_4p_vs_3_beginners", BotLevel.INTERMEDIATE, BotLevel.BEGINNER, 4),
    Match("kids1_expert_vs_beginner_2p", _E, _B, 2, "kids1", KIDS_SHARE),
    Match(
        "kids1_intermediate_vs_beginner_2p",
        BotLevel.INTERMEDIATE,
        BotLevel.BEGINNER,
        2,
        "kids1",
        KIDS_SHARE,
    ),
    Match("kids2_expert_vs_beginner_2p", _E, _B, 2, "kids2", KIDS_SHARE),
    Match(
        "kids2_intermediate_vs_beginner_2p",
        BotLevel.INTERMEDIATE,
        BotLevel.BEGINNER,
        2,
        "kids2",
        KIDS_SHARE,
    ),
)
HEADLINES = (
    "expert_vs_beginner_2p",
    "expert_in_4p_vs_3_beginners",
    "expert_vs_intermediate_2p",
    "expert_in_4p_vs_3_intermediates",
)


@dataclass(frozen=True, slots=True)
class Outcome:
    won: bool
    focus_points: int
    """Points the focus level scored this round (O28: the winner scores the other hands)."""
    field_points: int
    """Points scored by the field, per seat."""


def rules_for(match: Match, target: int | None) -> Rules:
    """The match's table: single rounds, or whole games to ``target`` points."""
    if target is None:
        return RULES[match.table]
    return with_options(preset(match.table), [f"target={target}"])


def play_one(
    match: Match, index: int, seed: int, playouts: int, target: int | None = None
) -> Outcome:
    """Round (or game, with a ``target``) ``index`` of a match: deal ``index // players``,
    focus seat ``index % players``."""
    n = match.players
    deal, focus_seat = divmod(index, n)
    levels = [match.field] * n
    levels[focus_seat] = match.focus
    bots = [make_bot(level, playouts=playouts) for level in levels]
    result = play_game(rules_for(match, target), bots, f"{seed}/{match.name}/{deal}")
    won = result.winner == focus_seat
    points = result.scores[result.winner]
    return Outcome(won, points if won else 0, 0 if won else points // (n - 1))


Job = tuple[int, int, int, int, int, int | None]
"""A chunk of a match: match number, first and last index, seed, playouts, target."""


def play_chunk(job: Job) -> tuple[int, list[Outcome]]:
    match_no, start, stop, seed, playouts, target = job
    match = MATCHES[match_no]
    return match_no, [play_one(match, i, seed, playouts, target) for i in range(start, stop)]


def wilson(wins: int, n: int) -> tuple[float, float]:
    """95% Wilson score interval for a win rate."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    denom = 1 + Z95**2 / n
    centre = (p + Z95**2 / (2 * n)) / denom
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95**2 / (4 * n * n)) / denom
    return centre - half, centre + half


def rounds_per_match(requested: int, players: int) -> int:
    """Whole deals: a multiple of the number of seats, so every seat gets each deal."""
    return max(players, requested - requested % players)


@dataclass
class Timed:
    """Wraps a bot and records how long each decision takes."""

    bot: Bot
    times: list[float]

    @property
    def level(self) -> BotLevel:
        return self.bot.level

    def choose(self, view: Observation | SeatView, rng: random.Random) -> Action | None:
        start = time.perf_counter()
        action = self.bot.choose(view, rng)
        self.times.append(time.perf_counter() - start)
        return action


def p99(times: Sequence[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def decision_times(rounds: int, seed: int) -> dict[BotLevel, list[float]]:
    """Expert (shipped settings) against intermediates, one process: half the rounds heads-up,
    half at four seats."""
    times: dict[BotLevel, list[float]] = {BotLevel.EXPERT: [], BotLevel.INTERMEDIATE: []}
    for i in range(rounds):
        seats = 2 if i % 2 == 0 else 4
        bots: list[Bot] = [Timed(make_bot(BotLevel.EXPERT), times[BotLevel.EXPERT])]
        bots += [
            Timed(make_bot(BotLevel.INTERMEDIATE), times[BotLevel.INTERMEDIATE])
            for _ in range(seats - 1)
        ]
        if i % 4 >= 2:
            bots.reverse()
        game = Game(RULES["official"], seats, f"{seed}/timing/{i}")
        play_round(game, bots, random.Random(f"timing/{seed}/{i}"))
    return times


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--quick", action="store_true", help="a small run, under a minute")
    parser.add_argument("--rounds", type=int, help=f"rounds per match (default {FULL_ROUNDS})")
    parser.add_argument(
        "--playouts",
        type=int,
        help=f"expert worlds per decision (default {FULL_PLAYOUTS}, quick {QUICK_PLAYOUTS})",
    )
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument(
        "--target",
        type=int,
        help="play whole games to this many points (--rounds then counts games)",
    )
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--timing-rounds", type=int, help="rounds for the decision times")
    parser.add_argument(
        "--only", action="append", help="play only this match (repeatable; for development)"
    )
    args = parser.parse_args(argv)
    chosen = [m for m in MATCHES if not args.only or m.name in args.only]
    requested = args.rounds or (QUICK_ROUNDS if args.quick else FULL_ROUNDS)
    playouts = args.playouts or (QUICK_PLAYOUTS if args.quick else FULL_PLAYOUTS)
    timing_rounds = args.timing_rounds or (4 if args.quick else 24)

    jobs: list[Job] = []
    for match_no, match in enumerate(MATCHES):
        if match not in chosen:
            continue
        total = rounds_per_match(round(requested * match.share), match.players)
        for start in range(0, total, CHUNK):
            jobs.append(
                (match_no, start, min(total, start + CHUNK), args.seed, playouts, args.target)
            )
    # The slow jobs (an expert at the table) first, so the workers finish together.
    jobs.sort(key=lambda job: MATCHES[job[0]].focus != "expert")
    print(
        f"tournament: {len(chosen)} matches, ~{requested} rounds each (kids' tables "
        f"{KIDS_SHARE:.0%}), "
        f"{'single rounds' if args.target is None else f'whole games to {args.target}'}, "
        f"expert {playouts} worlds/decision, "
        f"seed {args.seed}, {args.workers} workers"
    )
    started = time.perf_counter()
    outcomes: list[list[Outcome]] = [[] for _ in MATCHES]
    with multiprocessing.Pool(args.workers) as pool:
        for match_no, chunk in pool.imap_unordered(play_chunk, jobs):
            outcomes[match_no].extend(chunk)
    played = time.perf_counter() - started

    print()
    print(
        f"{'match':<34} {'rounds' if args.target is None else 'games':>6} {'win rate':>8}  "
        f"{'95% interval':<15} "
        f"{'pts/round' if args.target is None else 'pts/game':>9} {'field pts':>9}"
    )
    rates: dict[str, float] = {}
    for match, results in zip(MATCHES, outcomes, strict=True):
        n = len(results)
        if not n:
            continue
        wins = sum(r.won for r in results)
        low, high = wilson(wins, n)
        rates[match.name] = wins / n
        focus_points = statistics.fmean(r.focus_points for r in results)
        field_points = statistics.fmean(r.field_points for r in results)
        print(
            f"{match.name:<34} {n:>6} {wins / n:>8.3f}  [{low:.3f}, {high:.3f}]  "
            f"{focus_points:>9.1f} {field_points:>9.1f}"
        )
    print("(fair share: 0.500 with 2 players, 0.250 with 4; field pts are per field seat)")
    print(f"matches took {played:.1f} s")

    started = time.perf_counter()
    times = decision_times(timing_rounds, args.seed)
    timed = time.perf_counter() - started
    for level in (BotLevel.EXPERT, BotLevel.INTERMEDIATE):
        samples = times[level]
        print(
            f"{level} decision time: p99 {p99(samples) * 1000:.2f} ms, "
            f"median {statistics.median(samples) * 1000:.3f} ms, max "
            f"{max(samples) * 1000:.2f} ms over {len(samples)} decisions"
        )
    capped = sum(t >= TIME_CAP_MS / 1000 for t in times[BotLevel.EXPERT])
    print(
        f"timing ({timing_rounds} rounds, expert as shipped: {WORLDS} worlds, "
        f"{TIME_CAP_MS:.0f} ms cap, reached by {capped} decisions) took {timed:.1f} s"
    )
    for name in HEADLINES:
        if name in rates:
            print(f"{name}: {rates[name]:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

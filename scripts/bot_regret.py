#!/usr/bin/env python3
"""How much the expert's choices cost it, against values computed with the hidden cards.

Win rates need thousands of rounds to tell two versions of the expert apart by a point or
two; the regret of single decisions is a much quieter measure. Positions come from seeded
rounds of the expert against intermediates (or ``--field``): its searched decisions on its
turn, with at least two options. Each option of a position is valued by the same flat search, but in
worlds dealt with the opponents' *real* hands (``--oracle-worlds`` of them; only the draw
pile stays unknown). A variant of the expert then decides each position from its
observation alone, and its regret is the value of the best option minus the value of the
option it chose (every option the rules allow is valued, a wild in each color, so variants
that offer other options than the shipped expert are scored too). Variants are compared
position by position (paired), with the standard error of the difference.

    python scripts/bot_regret.py --players 2 --positions 600 \\
        worlds=150 worlds=48 search.TRUST_LIKELY=0.8

A variant is a comma-separated list of ``worlds=N`` and ``module.NAME=value`` settings
(modules of ``lanuno.bots``, e.g. ``search.TRUST_LIKELY=0.8``); the first is the reference.
The line ``real_hands`` is the same search given the real hands: what remains of the
regret once nothing is hidden (the noise of the values, and the playout policy's limits).
``--reveal Q ...`` prints what information is worth: the shipped expert's regret when each
opponent's card is shown to its search with probability Q (the others dealt at random
from the unseen cards, no card reading), from Q = 0 (nothing known) towards 1.

    python scripts/bot_regret.py --players 4 --positions 800 --reveal 0 0.25 0.5 0.75
"""

from __future__ import annotations

import argparse
import importlib
import random
import statistics
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from lanuno.bots import BotLevel, make_bot
from lanuno.bots import fastcore as fc
from lanuno.bots import search as search_module
from lanuno.bots.driver import offer_out_of_turn
from lanuno.bots.expert import ExpertBot
from lanuno.bots.knowledge import read_table
from lanuno.engine.actions import Action, CounterUno, DeclareUno, Draw, Pass, Play
from lanuno.engine.game import Game
from lanuno.engine.observation import Observation, observe_round
from lanuno.engine.phases import Phase
from lanuno.engine.rules import preset, with_options

RULES = with_options(preset("official"), ["target=none"])
HORIZON = 24


@dataclass(frozen=True)
class Position:
    observation: Observation
    hands: tuple[tuple[int, ...], ...]
    options: tuple[Action, ...]
    values: tuple[float, ...]
    """Each option's value in worlds with the real hands."""


@dataclass(frozen=True)
class RealHands:
    """Worlds as the expert's sampler deals them, but with the opponents' real hands (the
    interface ``search.flat`` asks of a world maker)."""

    maker: search_module.WorldMaker
    hands: tuple[tuple[int, ...], ...]

    @property
    def seat(self) -> int:
        return self.maker.seat

    @property
    def template(self) -> fc.FastRound:
        return self.maker.template

    def sample(self, rng: random.Random) -> fc.FastRound:
        world = self.maker.sample(rng)
        pool = list(self.maker.unseen)
        for seat, hand in enumerate(self.hands):
            if seat != self.maker.seat:
                world.hands[seat] = list(hand)
                for card in hand:
                    pool.remove(card)
        rng.shuffle(pool)
        world.draw_pile = pool
        return world


@dataclass
class Revealing:
    """While set up (``with``), the expert's worlds show each opponent's real card with
    probability ``share``; the other hidden cards are dealt at random (``--reveal``)."""

    share: float
    hands: tuple[tuple[int, ...], ...] = ()

    def __enter__(self) -> Revealing:
        self._sample = original = search_module.WorldMaker.sample
        revealing = self

        def sample(maker: search_module.WorldMaker, rng: random.Random) -> fc.FastRound:
            world = original(maker, rng)  # for its template; the hands are redealt
            pool = list(maker.unseen)
            shown = {}
            for seat, hand in enumerate(revealing.hands):
                if seat != maker.seat:
                    shown[seat] = [card for card in hand if rng.random() < revealing.share]
                    for card in shown[seat]:
                        pool.remove(card)
            rng.shuffle(pool)
            for seat, cards in shown.items():
                hidden = len(revealing.hands[seat]) - len(cards)
                world.hands[seat] = cards + pool[:hidden]
                del pool[:hidden]
            world.draw_pile = pool
            return world

        search_module.WorldMaker.sample = sample  # type: ignore[method-assign, assignment]
        return self

    def __exit__(self, *_: object) -> None:
        search_module.WorldMaker.sample = self._sample  # type: ignore[method-assign]


def revealed_regret(share: float, found: Sequence[Position]) -> float:
    bot = ExpertBot(playouts=150, budget_ms=None)
    out = []
    with Revealing(share) as revealing:
        for i, position in enumerate(found):
            revealing.hands = position.hands
            action = bot.decide(position.observation, random.Random(i))
            if action in position.options:
                out.append(max(position.values) - position.values[position.options.index(action)])
    return statistics.fmean(out)


def real_values(
    observation: Observation,
    hands: tuple[tuple[int, ...], ...],
    options: Sequence[Action],
    seed: int,
    worlds: int,
) -> tuple[float, ...]:
    maker = search_module.WorldMaker.from_view(observation, read_table(observation))
    real = RealHands(maker, hands)
    means, _ = search_module.flat(
        real,  # type: ignore[arg-type]
        search_module.to_moves(options),
        random.Random(seed),
        worlds=worlds,
        deadline=None,
        horizon=HORIZON,
    )
    return tuple(means)


def positions(players: int, count: int, oracle_worlds: int, field: BotLevel) -> list[Position]:
    out: list[Position] = []
    round_no = 0
    while len(out) < count:
        bots = [make_bot(BotLevel.EXPERT, playouts=24)]
        bots += [make_bot(field) for _ in range(players - 1)]
        rng = random.Random(round_no)
        game = Game(RULES, players, f"regret/{round_no}")
        rnd = game.round
        round_no += 1
        while rnd.phase is not Phase.ROUND_OVER and len(out) < count:
            offer_out_of_turn(game, bots, rng)
            if rnd.winner is not None:
                break
            actor = rnd.actor
            observation = observe_round(rnd, actor)
            if actor == 0 and search_module.searchable(observation) and rng.random() < 0.5:
                legal = observation.legal
                calls = any(type(a) in (DeclareUno, CounterUno) for a in legal)
                # Every option the rules allow (a wild in each color), so that variants
                # offering other options than the shipped expert can be scored too.
                options = [a for a in dict.fromkeys(legal) if type(a) in (Play, Draw, Pass)]
                if len(options) > 1 and not calls:
                    hands = tuple(tuple(card.index for card in hand) for hand in rnd.hands)
                    values = real_values(observation, hands, options, len(out), oracle_worlds)
                    out.append(Position(observation, hands, tuple(options), values))
            action = bots[actor].choose(observation, rng)
            assert action is not None
            game.apply(action)
    return out


def regrets(spec: str, found: Sequence[Position]) -> list[float | None]:
    """Each position's regret for the variant ``spec`` (its settings undone after); None
    where the variant chose an option the position did not list (a variant that changes the
    card reading may offer a wild in another color)."""
    worlds = 150
    undo = []
    for setting in filter(None, spec.split(",")):
        name, value = setting.split("=", 1)
        if name == "worlds":
            worlds = int(value)
            continue
        module_name, attribute = name.rsplit(".", 1)
        module = importlib.import_module(f"lanuno.bots.{module_name}")
        old = getattr(module, attribute)
        undo.append((module, attribute, old))
        setattr(
            module, attribute, type(old)(value) if not isinstance(old, bool) else value == "True"
        )
    try:
        bot = ExpertBot(playouts=worlds, budget_ms=None)
        out: list[float | None] = []
        for i, position in enumerate(found):
            action = bot.decide(position.observation, random.Random(i))
            if action not in position.options:
                out.append(None)
                continue
            chosen = position.options.index(action)
            out.append(max(position.values) - position.values[chosen])
        return out
    finally:
        for module, attribute, old in undo:
            setattr(module, attribute, old)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--positions", type=int, default=600)
    parser.add_argument("--oracle-worlds", type=int, default=300)
    parser.add_argument("--field", default="intermediate", help="the opponents' level")
    parser.add_argument(
        "--reveal", type=float, nargs="+", default=[], metavar="Q", help="shown card share"
    )
    parser.add_argument("variants", nargs="*", default=["worlds=150"])
    args = parser.parse_args(argv)
    started = time.perf_counter()
    found = positions(args.players, args.positions, args.oracle_worlds, BotLevel.parse(args.field))
    print(
        f"{args.players} players: {len(found)} positions in {time.perf_counter() - started:.0f} s"
    )
    reference: list[float | None] | None = None
    for spec in args.variants:
        started = time.perf_counter()
        values = regrets(spec, found)
        known = [v for v in values if v is not None]
        line = f"{spec}: mean regret {statistics.fmean(known):.4f}"
        if len(known) < len(values):
            line += f" ({len(values) - len(known)} choices not among the options)"
        if reference is None:
            reference = values
        else:
            diff = [
                a - b
                for a, b in zip(values, reference, strict=True)
                if a is not None and b is not None
            ]
            se = statistics.stdev(diff) / len(diff) ** 0.5
            line += f", against the first {statistics.fmean(diff):+.4f} ± {se:.4f}"
        print(f"{line} ({time.perf_counter() - started:.0f} s)")
    # The same search knowing the hands: a second valuation, in other worlds.
    real = []
    for i, position in enumerate(found):
        again = real_values(position.observation, position.hands, position.options, 10_000 + i, 150)
        chosen = again.index(max(again))
        real.append(max(position.values) - position.values[chosen])
    print(f"real_hands: mean regret {statistics.fmean(real):.4f}")
    for share in args.reveal:
        print(f"revealed_{share:g}: mean regret {revealed_regret(share, found):.4f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Write tests/engine/golden/*.json: seeded bots-only games with every event they caused.

The files pin the engine's behaviour; regenerate them only for a deliberate rules change,
and review the diff (``git diff tests/engine/golden``) before committing.
"""

from __future__ import annotations

import json
import pathlib
import random

from lanuno.bots.beginner import BeginnerBot
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.replay import Record, event_dicts
from lanuno.engine.rules import Rules, preset, with_options
from lanuno.sim import play_round

GOLDEN = pathlib.Path(__file__).resolve().parent.parent / "tests" / "engine" / "golden"

CASES: dict[str, tuple[Rules, list[SeatInfo], int, list[str]]] = {
    "official_4p_500": (preset("official"), [SeatInfo()] * 4, 11, []),
    "official_3p_house_rules": (
        with_options(preset("official"), ["stacking", "seven_o", "jump_in", "target=200"]),
        [SeatInfo()] * 3,
        12,
        [],
    ),
    "kids1_3p": (
        preset("kids1"),
        [SeatInfo(kid=True, age=4), SeatInfo(kid=True, age=6), SeatInfo(age=35)],
        13,
        [],
    ),
    "kids2_4p_help_the_kids": (
        with_options(preset("kids2"), ["ka1", "ka3", "ka4"]),
        [SeatInfo(kid=True, age=8), SeatInfo(age=40), SeatInfo(kid=True, age=10), SeatInfo()],
        14,
        [],
    ),
}


def build(name: str) -> tuple[Record, list[dict[str, object]]]:
    rules, seats, seed, _ = CASES[name]
    game = Game(rules, seats, seed)
    bots = [BeginnerBot()] * len(seats)
    rng = random.Random(seed)
    play_round(game, bots, rng)
    while not game.over:
        game.next_round()
        play_round(game, bots, rng)
    return Record.of(game), event_dicts(game)


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name in CASES:
        record, events = build(name)
        payload = {"record": json.loads(record.to_json()), "events": events}
        (GOLDEN / f"{name}.json").write_text(json.dumps(payload, indent=0) + "\n")
        print(f"{name}: {len(record.actions)} actions, {len(events)} events")


if __name__ == "__main__":
    main()

"""Every level takes only legal actions, in every preset and option (B1), over thousands of
seeded games; the actor always decides; every game ends."""

from __future__ import annotations

import random

import pytest
from bot_helpers import Checked, bots_for, seats, table
from helpers import examples, note_seed

from lanuno.bots import LEVELS, make_bot
from lanuno.engine.rules import Rules
from lanuno.sim import play_game

# (id, preset, options, kid seats for a 4-seat table)
CONFIGS: list[tuple[str, str, tuple[str, ...], tuple[bool, ...]]] = [
    ("official", "official", ("target=none",), ()),
    ("official-game-200", "official", ("target=200",), ()),
    ("stacking", "official", ("target=none", "stacking"), ()),
    ("seven-o", "official", ("target=none", "seven_o"), ()),
    ("jump-in", "official", ("target=none", "jump_in"), ()),
    ("draw-until-playable", "official", ("target=none", "draw_until_playable"), ()),
    ("wd4-strict", "official", ("target=none", "wild_draw_four=strict"), ()),
    (
        "all-house-rules",
        "official",
        ("target=none", "stacking", "seven_o", "jump_in", "draw_until_playable"),
        (),
    ),
    ("kids1", "kids1", (), (True, False, True, False)),
    ("kids2", "kids2", ("target=2",), (True, False, True, False)),
    (
        "kids2-ka1-4",
        "kids2",
        ("target=2", "ka1", "ka2", "ka3", "ka4", "jump_in", "counter_uno=on"),
        (True, False, True, False),
    ),
    (
        "official-ka1-5",
        "official",
        ("target=none", "ka1", "ka2", "ka3", "ka4", "ka5"),
        (True, False, False, True),
    ),
    (
        "official-ka3-4-stacking-seven-o",
        "official",
        ("target=none", "ka3", "ka4", "seven_o", "wild_draw_four=strict"),
        (False, True, True, False),
    ),
    ("kids1-counter-uno-ka1", "kids1", ("counter_uno=on", "ka1"), (True, False, False, True)),
]
QUICK_GAMES = examples(300)
"""Games per configuration between beginners and intermediates (300 in CI)."""
EXPERT_GAMES = examples(30)
"""Games per configuration with an expert at the table (30 in CI)."""


def _play(rules: Rules, levels: list[str], kids: tuple[bool, ...], seed: str) -> list[Checked]:
    bots = bots_for(levels)
    table_seats = seats(kids[: len(levels)]) if kids else None
    if table_seats is not None and len(table_seats) < len(levels):
        table_seats = None
    play_game(rules, bots, seed, seats=table_seats)
    return bots


@pytest.mark.parametrize("config", CONFIGS, ids=[c[0] for c in CONFIGS])
def test_B1_every_level_takes_only_legal_actions(
    config: tuple[str, str, tuple[str, ...], tuple[bool, ...]],
) -> None:
    name, preset_name, options, kids = config
    rules = table(preset_name, options)
    pick = random.Random(name)
    decisions = 0
    for game in range(QUICK_GAMES):
        note_seed((name, game))
        n = 2 + game % 3 if not kids else 4
        levels = [pick.choice(("beginner", "intermediate")) for _ in range(n)]
        bots = _play(rules, levels, kids, f"{name}/{game}")
        decisions += sum(b.decisions for b in bots)
    for game in range(EXPERT_GAMES):
        n = (2, 4)[game % 2] if not kids else 4
        levels = ["expert", *(pick.choice(LEVELS) for _ in range(n - 1))]
        pick.shuffle(levels)
        bots = _play(rules, levels, kids, f"{name}/expert/{game}")
        decisions += sum(b.decisions for b in bots)
    assert decisions > QUICK_GAMES * 20


def test_B1_make_bot_gives_each_level() -> None:
    for level in LEVELS:
        assert make_bot(level).level == level
    with pytest.raises(ValueError, match="unknown bot level"):
        make_bot("grandmaster")

"""Replays: (rules, seats, seed, actions) rebuild the identical game, event for event."""

from __future__ import annotations

import doctest
import json
import pathlib
import random

import pytest
from helpers import examples
from hypothesis import given, settings
from hypothesis import strategies as st

import lanuno.engine.actions
import lanuno.engine.cards
import lanuno.engine.replay
import lanuno.engine.rules
from lanuno.bots.beginner import BeginnerBot
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.replay import NEXT_ROUND, Record, event_dicts, replay
from lanuno.engine.rules import preset, with_options
from lanuno.sim import play_round

GOLDEN = pathlib.Path(__file__).parent / "golden"


def play_to_end(game: Game, seed: int) -> Game:
    bots = [BeginnerBot()] * len(game.seats)
    rng = random.Random(seed)
    play_round(game, bots, rng)
    while not game.over:
        game.next_round()
        play_round(game, bots, rng)
    return game


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*.json")), ids=lambda p: p.stem)
def test_golden_replays_give_the_same_events(path: pathlib.Path) -> None:
    golden = json.loads(path.read_text())
    record = Record.from_json(json.dumps(golden["record"]))
    game = replay(record)
    assert game.over
    assert event_dicts(game) == golden["events"]


def test_golden_files_cover_every_preset() -> None:
    records = [json.loads(path.read_text())["record"] for path in GOLDEN.glob("*.json")]
    presets = {record["rules"]["preset"] for record in records}
    assert presets == {"official", "kids1", "kids2"}


@settings(max_examples=examples(25), deadline=None)
@given(
    name=st.sampled_from(["official", "kids1", "kids2"]),
    options=st.lists(
        st.sampled_from(
            ["stacking", "seven_o", "jump_in", "draw_until_playable", "ka2", "ka3", "ka4", "ka5"]
        ),
        unique=True,
    ),
    players=st.integers(2, 6),
    seed=st.integers(0, 10**6),
)
def test_a_record_rebuilds_the_game_event_for_event(
    name: str, options: list[str], players: int, seed: int
) -> None:
    rules = with_options(preset(name), [*options, "target=none"])
    seats = [SeatInfo(kid=i % 2 == 0, age=20 + i) for i in range(players)]
    game = play_to_end(Game(rules, seats, seed), seed)
    record = Record.from_json(Record.of(game).to_json())
    again = replay(record)
    assert event_dicts(again) == event_dicts(game)
    assert again.round.fingerprint() == game.round.fingerprint()
    assert again.scores == game.scores


def test_multi_round_record_marks_each_new_deal() -> None:
    game = play_to_end(Game(preset("official"), 3, seed=5), 5)
    record = Record.of(game)
    assert record.actions.count(NEXT_ROUND) == game.round.round_no - 1
    assert replay(record).scores == game.scores


def test_same_seed_same_deal_different_seed_different_deal() -> None:
    a, b, c = (Game(preset("official"), 4, seed) for seed in (1, 1, 2))
    assert a.round.fingerprint() == b.round.fingerprint()
    assert a.round.hands != c.round.hands


@pytest.mark.parametrize(
    "text",
    [
        "not json",
        json.dumps({"format": "something else"}),
        json.dumps({"format": "lanuno-replay/1", "rules": {}, "seats": [{"kid": False}]}),
        json.dumps(
            {
                "format": "lanuno-replay/1",
                "rules": {"no_such_rule": 1},
                "seats": [],
                "seed": 1,
                "first_player": None,
                "actions": [],
            }
        ),
    ],
)
def test_a_corrupt_record_is_refused_with_a_reason(text: str) -> None:
    with pytest.raises(ValueError):
        Record.from_json(text)


def test_a_record_with_an_impossible_action_names_it() -> None:
    game = Game(preset("official"), 2, seed=3)
    record = Record.of(game)
    bad = Record(record.rules, record.seats, record.seed, None, ("0 play R7", "1 play R7"))
    with pytest.raises(ValueError, match="action 1"):
        replay(bad)


@pytest.mark.parametrize(
    "module",
    [lanuno.engine.cards, lanuno.engine.rules, lanuno.engine.actions, lanuno.engine.replay],
)
def test_doctests(module: object) -> None:
    failures, _ = doctest.testmod(module)  # type: ignore[arg-type]
    assert failures == 0

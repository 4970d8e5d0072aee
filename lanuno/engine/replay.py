"""Replay records: (rules, seats, seed, actions) rebuild a game event for event.

The action list holds engine notation (``"2 play W+4 B"``) and the marker ``"next round"``
where the next round was dealt. Records are plain JSON.

>>> from lanuno.engine.rules import kids1
>>> game = Game(kids1(), 2, seed=7, first_player=0)
>>> record = Record.of(game)
>>> replay(record).round.fingerprint() == game.round.fingerprint()
True
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from lanuno.engine.actions import Action, parse_action
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.rules import Rules
from lanuno.engine.shuffle import Shuffler

NEXT_ROUND = "next round"
FORMAT = "lanuno-replay/1"


@dataclass(frozen=True, slots=True)
class Record:
    rules: Rules
    seats: tuple[SeatInfo, ...]
    seed: int | str
    first_player: int | None
    actions: tuple[str, ...]
    auto: tuple[int, ...] = ()
    """Indices of the actions the autopilot bot made (T3): they do not count as the player
    acting again."""

    @classmethod
    def of(cls, game: Game) -> Record:
        return cls(
            rules=game.rules,
            seats=game.seats,
            seed=game.seed,
            first_player=game.first_player_pick,
            actions=tuple(NEXT_ROUND if a is None else str(a) for a in game.actions),
            auto=tuple(game.auto_moves),
        )

    def to_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "rules": self.rules.to_dict(),
                "seats": [{"kid": s.kid, "age": s.age} for s in self.seats],
                "seed": self.seed,
                "first_player": self.first_player,
                "actions": list(self.actions),
                "auto": list(self.auto),
            },
            indent=1,
        )

    @classmethod
    def from_json(cls, text: str) -> Record:
        """Read a record; anything malformed raises ValueError saying what is wrong."""
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise ValueError(f"not a replay file: {exc}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"not a {FORMAT} record")
        try:
            seats = tuple(
                SeatInfo(kid=bool(s["kid"]), age=None if s["age"] is None else int(s["age"]))
                for s in data["seats"]
            )
            seed = data["seed"]
            if not isinstance(seed, (int, str)):
                raise ValueError("seed must be a number or a string")
            first = data["first_player"]
            actions = tuple(str(a) for a in data["actions"])
            auto = tuple(int(i) for i in data.get("auto", ()))
            return cls(
                Rules.from_dict(data["rules"]),
                seats,
                seed,
                None if first is None else int(first),
                actions,
                auto,
            )
        except (KeyError, TypeError) as exc:
            raise ValueError(f"incomplete replay record: {exc}") from None


def replay(record: Record, *, shuffler: Shuffler | None = None) -> Game:
    """Rebuild the game; raises ValueError naming the position of an action that does not
    apply (a corrupt record)."""
    game = Game(
        record.rules, record.seats, record.seed, shuffler=shuffler, first_player=record.first_player
    )
    apply_actions(game, record.actions, auto=frozenset(record.auto))
    return game


def apply_actions(
    game: Game, actions: Sequence[str | Action], *, auto: frozenset[int] = frozenset()
) -> None:
    """Apply a record's actions in order; ``auto`` holds the indices of autopilot moves."""
    for index, entry in enumerate(actions):
        try:
            if entry == NEXT_ROUND:
                game.next_round()
                continue
            action = parse_action(entry) if isinstance(entry, str) else entry
            game.apply(action, auto=index in auto)
        except Exception as exc:
            raise ValueError(f"action {index + 1} ({entry}) does not apply: {exc}") from exc


def event_dicts(game: Game) -> list[dict[str, Any]]:
    """Every event of the game as plain data, with its audience (golden files)."""
    return [{**e.to_dict(), "audience": e.audience} for e in game.events]

"""Table rules: one frozen object, three named presets, every option a keyword.

>>> official().target, kids1().hand_size, kids2().deck
(500, 5, <DeckKind.WITH_BLANKS: 'with_blanks'>)
>>> with_options(official(), ["stacking=on", "target=200"]).stacking
True
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from lanuno.engine.cards import DeckKind


class WildDrawFour(enum.StrEnum):
    CHALLENGE = "challenge"
    """O21: a bluff may be played and challenged (official default)."""
    STRICT = "strict"
    """O22: the engine refuses an illegal Wild Draw Four; no challenge."""
    FREE = "free"
    """K2-6: playable on any card, no restriction, no challenge."""


class Scoring(enum.StrEnum):
    POINTS = "points"
    """O28: the winner scores the cards left in the other hands."""
    ROUND_WINS = "round_wins"
    """K2-11: one point per round won."""


class FirstPlayer(enum.StrEnum):
    LEFT_OF_DEALER = "left_of_dealer"
    """O4: a random first dealer; the player on their left starts."""
    YOUNGEST = "youngest"
    """K1-2 / K2-2: the youngest seat with an age starts."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rules:
    preset: str = "official"
    deck: DeckKind = DeckKind.STANDARD
    hand_size: int = 7
    first_player: FirstPlayer = FirstPlayer.LEFT_OF_DEALER
    wild_draw_four: WildDrawFour = WildDrawFour.CHALLENGE
    voluntary_draw: bool = True
    """O14: may draw while holding a playable card (off for K1-4 / K2-8)."""
    must_play_drawn: bool = False
    """K1-4 / K2-8: a playable drawn card must be played at once."""
    counter_uno: bool = True
    """O24: others may catch a player who forgot UNO."""
    hand_limit: int | None = None
    """K1-5 / K2-9: cards beyond this go back under the draw pile."""
    draw_two_gift: bool = False
    """K2-4: a Draw Two's player draws two and gives them away."""
    stacking: bool = False
    """T1."""
    seven_o: bool = False
    """T5."""
    jump_in: bool = False
    """T6."""
    draw_until_playable: bool = False
    """T7."""
    move_timer: int | None = None
    """T2: seconds per decision (20-60) or None."""
    target: int | None = 500
    """O29 / K2-11: points (or round wins) that end the game; None plays one round."""
    scoring: Scoring = Scoring.POINTS
    kids_immune_to_counter_uno: bool = False
    """KA1."""
    adults_draw_until_playable: bool = False
    """KA2."""
    kids_stack: bool = False
    """KA3."""
    kids_choose_target: bool = False
    """KA4."""
    kids_hit_all_adults: bool = False
    """KA5."""

    def __post_init__(self) -> None:
        if not 1 <= self.hand_size <= 15:
            raise ValueError("hand_size must be between 1 and 15")
        if self.move_timer is not None and not 20 <= self.move_timer <= 60:
            raise ValueError("move_timer must be between 20 and 60 seconds, or none")
        if self.target is not None and self.target <= 0:
            raise ValueError("target must be positive, or none for a single round")
        if self.hand_limit is not None and self.hand_limit < self.hand_size:
            raise ValueError("hand_limit cannot be below hand_size")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild rules; unknown keys are refused so a typo never goes unnoticed."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in data.items():
            if key not in known:
                raise ValueError(f"unknown rule option: {key}")
            values[key] = _coerce(key, raw)
        return cls(**values)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


_ENUM_FIELDS: dict[str, type[enum.StrEnum]] = {
    "deck": DeckKind,
    "first_player": FirstPlayer,
    "wild_draw_four": WildDrawFour,
    "scoring": Scoring,
}
_BOOL_WORDS = {
    "on": True,
    "true": True,
    "yes": True,
    "1": True,
    "off": False,
    "false": False,
    "no": False,
    "0": False,
}
_OPTIONAL_INT = {"move_timer", "target", "hand_limit"}
_NONE_WORDS = {"none", "off", "single", "no", ""}


def _coerce(key: str, raw: Any) -> Any:
    """Turn a value from JSON or the command line into the field's type."""
    if key in _ENUM_FIELDS:
        return _ENUM_FIELDS[key](str(raw))
    if key in _OPTIONAL_INT:
        if raw is None or (isinstance(raw, str) and raw.strip().lower() in _NONE_WORDS):
            return None
        return int(raw)
    if key in ("hand_size",):
        return int(raw)
    if key == "preset":
        return str(raw)
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word not in _BOOL_WORDS:
        raise ValueError(f"{key} takes on or off, not {raw!r}")
    return _BOOL_WORDS[word]


def official() -> Rules:
    return Rules()


def kids1() -> Rules:
    """K1: ages 3 to 6: numbers only, 5 cards, must play what you draw, 6-card limit."""
    return Rules(
        preset="kids1",
        deck=DeckKind.NUMBERS,
        hand_size=5,
        first_player=FirstPlayer.YOUNGEST,
        voluntary_draw=False,
        must_play_drawn=True,
        counter_uno=False,
        hand_limit=6,
        target=None,
    )


def kids2() -> Rules:
    """K2: ages 7 and up: 112 cards with blanks, Draw-Two gifting, first to 5 round wins."""
    return Rules(
        preset="kids2",
        deck=DeckKind.WITH_BLANKS,
        hand_size=5,
        first_player=FirstPlayer.YOUNGEST,
        wild_draw_four=WildDrawFour.FREE,
        voluntary_draw=False,
        must_play_drawn=True,
        counter_uno=False,
        hand_limit=6,
        draw_two_gift=True,
        target=5,
        scoring=Scoring.ROUND_WINS,
    )


PRESETS = {"official": official, "kids1": kids1, "kids2": kids2}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name.strip().lower()]()
    except KeyError:
        raise ValueError(f"unknown preset {name!r}: choose from {', '.join(PRESETS)}") from None


OPTION_ALIASES = {
    "wd4": "wild_draw_four",
    "timer": "move_timer",
    "7-0": "seven_o",
    "seven-o": "seven_o",
    "jump-in": "jump_in",
    "draw-until-playable": "draw_until_playable",
    "ka1": "kids_immune_to_counter_uno",
    "ka2": "adults_draw_until_playable",
    "ka3": "kids_stack",
    "ka4": "kids_choose_target",
    "ka5": "kids_hit_all_adults",
}


def with_options(rules: Rules, options: Iterable[str]) -> Rules:
    """Apply ``key=value`` options (``stacking`` alone means ``stacking=on``)."""
    changes: dict[str, Any] = {}
    for option in options:
        key, sep, value = option.partition("=")
        key = key.strip().lower()
        key = OPTION_ALIASES.get(key, key.replace("-", "_"))
        changes[key] = value if sep else "on"
    merged = rules.to_dict()
    for key in changes:
        if key not in merged or key == "preset":
            raise ValueError(f"unknown option {key!r}")
    merged.update(changes)
    return Rules.from_dict(merged)

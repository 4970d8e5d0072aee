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

MIN_SEATS = 2
MAX_SEATS = 10
"""O1: a table seats 2 to 10 players (every layer takes its limits from here)."""


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


MAX_HAND_LIMIT = 112
"""A hand limit above the biggest deck (112 cards with the blanks) limits nothing."""
MAX_TARGET = 10_000
"""The highest game target in points: far above any table's (500), and every score still
fits the wire (``MAX_SCORE``)."""
MAX_ROUND_WINS = 25
"""The highest target where it counts round wins (``scoring=round_wins``, kids2: 5): a
points target (``target=200``) there would be a game of 200 rounds."""


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
        if self.target is not None and not 1 <= self.target <= MAX_TARGET:
            raise ValueError("target must be between 1 and 10000, or none for a single round")
        if (
            self.scoring is Scoring.ROUND_WINS
            and self.target is not None
            and self.target > MAX_ROUND_WINS
        ):
            raise ValueError("target counts round wins at this table: at most 25")
        if self.hand_limit is not None and self.hand_limit < self.hand_size:
            raise ValueError("hand_limit cannot be below hand_size")
        if self.hand_limit is not None and self.hand_limit > MAX_HAND_LIMIT:
            raise ValueError("hand_limit must be at most 112, the biggest deck")

    def to_dict(self) -> dict[str, Any]:
        return {f.name: _plain(getattr(self, f.name)) for f in dataclasses.fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Rules:
        """Rebuild rules; unknown keys are refused so a typo never goes unnoticed."""
        known = {f.name: f for f in dataclasses.fields(cls)}
        values: dict[str, Any] = {}
        for key, raw in data.items():
            if key not in known:
                raise OptionError(f"unknown rule option: {key}")
            values[key] = _coerce(key, raw)
        return cls(**values)

    def with_options(self, options: Iterable[str] | Mapping[str, Any]) -> Rules:
        """These rules with options applied: see :func:`with_options`."""
        return with_options(self, options)

    def option_words(self) -> list[str]:
        """The options that differ from the preset: see :func:`option_words`."""
        return option_words(self)


def _plain(value: Any) -> Any:
    return value.value if isinstance(value, enum.Enum) else value


class OptionError(ValueError):
    """An option name or value the rules do not know (the message lists what they do)."""


_ENUM_FIELDS: dict[str, type[enum.StrEnum]] = {
    "deck": DeckKind,
    "first_player": FirstPlayer,
    "wild_draw_four": WildDrawFour,
    "scoring": Scoring,
}
ON_WORDS = ("on", "true", "yes", "1", "oui")
OFF_WORDS = ("off", "false", "no", "0", "non")
NONE_WORDS = ("none", "off", "single", "no", "", "non")
"""How an option's value may be written (the canonical words come first; oui and non
because a French host fills in the hall form in French)."""
_OPTIONAL_INT = {"move_timer", "target", "hand_limit"}
_INT_FIELDS = {"hand_size"}


def _coerce(key: str, raw: Any) -> Any:
    """Turn a value from JSON, the wire or the command line into the field's type."""
    if key in _ENUM_FIELDS:
        kind = _ENUM_FIELDS[key]
        word = raw.value if isinstance(raw, enum.Enum) else str(raw).strip().lower()
        try:
            return kind(word)
        except ValueError:
            choices = ", ".join(member.value for member in kind)
            raise OptionError(f"{key} takes one of {choices}, not {raw!r}") from None
    if key in _OPTIONAL_INT or key in _INT_FIELDS:
        optional = key in _OPTIONAL_INT
        if optional and (
            raw is None or (isinstance(raw, str) and raw.strip().lower() in NONE_WORDS)
        ):
            return None
        if isinstance(raw, bool) or not isinstance(raw, (int, str)):
            raise OptionError(f"{key} takes a number{' or none' if optional else ''}, not {raw!r}")
        try:
            return int(raw)
        except ValueError:
            raise OptionError(
                f"{key} takes a number{' or none' if optional else ''}, not {raw!r}"
            ) from None
    if key == "preset":
        return str(raw)
    if isinstance(raw, bool):
        return raw
    word = str(raw).strip().lower()
    if word in ON_WORDS:
        return True
    if word in OFF_WORDS:
        return False
    raise OptionError(f"{key} takes on or off, not {raw!r}")


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


PRESET_NAMES: tuple[str, ...] = tuple(PRESETS)


def preset(name: str) -> Rules:
    try:
        return PRESETS[name.strip().lower()]()
    except KeyError:
        raise OptionError(f"unknown preset {name!r}: choose from {', '.join(PRESETS)}") from None


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
"""Short names accepted for options (the canonical name is the field's)."""

OPTION_NAMES: tuple[str, ...] = tuple(
    f.name for f in dataclasses.fields(Rules) if f.name != "preset"
)
"""Every table option, by its canonical name (what the wire and journals carry)."""


def option_name(word: str) -> str:
    """The canonical name of an option written any accepted way (``ka1``, ``jump-in``)."""
    key = word.strip().lower()
    key = OPTION_ALIASES.get(key, key.replace("-", "_"))
    if key not in OPTION_NAMES:
        raise OptionError(f"unknown option {word!r}: use one of {', '.join(OPTION_NAMES)}")
    return key


def parse_option(text: str) -> tuple[str, Any]:
    """``"stacking=on"`` -> ``("stacking", True)``; a bare name means ``=on``. Unknown names
    and values raise :class:`OptionError`. (Whether the value suits the other options,
    such as a hand limit below the hand size, is checked when the rules are built.)

    >>> parse_option("ka1"), parse_option("target=none")
    (('kids_immune_to_counter_uno', True), ('target', None))
    >>> parse_option("wd4=strict")
    ('wild_draw_four', <WildDrawFour.STRICT: 'strict'>)
    >>> parse_option("stacking=maybe")  # doctest: +IGNORE_EXCEPTION_DETAIL
    Traceback (most recent call last):
    lanuno.engine.rules.OptionError: stacking takes on or off, not 'maybe'
    """
    key, sep, value = text.partition("=")
    name = option_name(key)
    return name, _coerce(name, value if sep else "on")


def option_values(name: str) -> str:
    """What ``name`` takes, for help texts: ``on|off``, ``N|none``, ``challenge|strict|free``."""
    if name in _ENUM_FIELDS:
        return "|".join(member.value for member in _ENUM_FIELDS[name])
    if name in _OPTIONAL_INT:
        return "N|none"
    if name in _INT_FIELDS:
        return "N"
    return "on|off"


def describe_options() -> str:
    """Every option with the values it takes, comma-separated (``--option`` help)."""
    return ", ".join(f"{name}={option_values(name)}" for name in OPTION_NAMES)


def format_option(name: str, value: Any) -> str:
    """The canonical ``name=value`` text of an option (parses back to the same value)."""
    if value is None:
        word = "none"
    elif isinstance(value, bool):
        word = "on" if value else "off"
    else:
        word = str(_plain(value))
    return f"{name}={word}"


def option_words(rules: Rules) -> list[str]:
    """The options of ``rules`` that differ from its preset, as canonical ``name=value``."""
    base = preset(rules.preset)
    return [
        format_option(name, getattr(rules, name))
        for name in OPTION_NAMES
        if getattr(rules, name) != getattr(base, name)
    ]


def with_options(rules: Rules, options: Iterable[str] | Mapping[str, Any]) -> Rules:
    """Apply options: ``key=value`` texts (``stacking`` alone means ``stacking=on``) or a
    mapping of names to values (as the wire carries them). Raises :class:`OptionError`
    for an unknown option or value, ValueError for values that do not fit together."""
    changes: dict[str, Any] = {}
    if isinstance(options, Mapping):
        for key, raw in options.items():
            name = option_name(str(key))
            changes[name] = _coerce(name, raw)
    else:
        for option in options:
            name, value = parse_option(option)
            changes[name] = value
    return dataclasses.replace(rules, **changes)


def rules_from_words(preset_name: str, options: Iterable[str] = ()) -> Rules:
    """The rules a preset name and option texts describe (the CLI's and positions' form)."""
    return with_options(preset(preset_name), options)

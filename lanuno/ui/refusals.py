"""The host's refusal sentences in the player's language.

The engine refuses with ``IllegalAction(rule_id, sentence)`` in English, and the host
forwards the sentence in ``ErrorReply.text``. The sentence is read back here into a
catalogue key and its values (a card, a color, a seat), then written in the player's
language: seat numbers become names (the engine counts seats from 0, players from 1),
card words become the language's card words. A sentence this module does not know stays
as it is in English and becomes a plain "not possible now" in other languages, so French
output never shows an English sentence (the rule ID still says which rule refused).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from lanuno.engine.cards import ALL_FACES, Color
from lanuno.engine.phases import WAITING_FOR
from lanuno.engine.rules import OptionError, option_name, option_values, parse_option
from lanuno.ui.i18n import EN, Translator

Names = Callable[[int | None], str]

_CARD_BY_WORDS = {card.words: str(card) for card in ALL_FACES}
_COLOR_BY_WORD = {color.word: color.value for color in Color} | {c.value: c.value for c in Color}
_PHASE_BY_WHAT = {what: phase.value for phase, (_rule, what) in WAITING_FOR.items()}

Patterns = tuple[tuple[re.Pattern[str], str], ...]
"""English sentences with values, each read back into its catalogue key."""


def exact_sentences(prefix: str, *, besides: str = "") -> dict[str, str]:
    """The catalogue's English sentences without values under ``prefix``, by their text
    (the English catalogue holds the very sentences the host and the engine say)."""
    return {
        text: key
        for key, text in EN.items()
        if key.startswith(prefix) and "{" not in text and key != besides
    }


def readings(
    sentence: str, exact: dict[str, str], patterns: Patterns
) -> Iterator[tuple[str, dict[str, str]]]:
    """Each catalogue key ``sentence`` reads as, with the values it carries."""
    key = exact.get(sentence)
    if key is not None:
        yield key, {}
    for pattern, key in patterns:
        found = pattern.fullmatch(sentence)
        if found is not None:
            yield key, found.groupdict()


_EXACT = exact_sentences("refusal.", besides="refusal.generic")
"""Sentences without values, matched whole (the English catalogue is the engine's text)."""

_PATTERNS: Patterns = (
    (re.compile(r"It is not your turn: waiting for seat (?P<seat>\d+)\."), "refusal.not_your_turn"),
    (re.compile(r"Not now: (?P<what>.+)\."), "refusal.not_now"),
    (re.compile(r"You do not hold (?P<card>.+)\."), "refusal.not_held"),
    (
        re.compile(
            r"You hold a (?P<color>\w*) ?card: Wild Draw Four is only allowed when you have "
            r"no card of the current color\."
        ),
        "refusal.wd4_held_color",
    ),
    (
        re.compile(r"(?P<card>.+) does not match (?P<top>.+) \(the color is (?P<color>\w+)\)\."),
        "refusal.no_match",
    ),
    (
        re.compile(r"Name one recipient for each of the (?P<count>\d+) cards you drew\."),
        "refusal.gift_count",
    ),
    (re.compile(r"There is no seat .* at this table\."), "refusal.no_seat"),
    (re.compile(r"\w+ is not an action of this game\."), "refusal.not_an_action"),
    (re.compile(r"A hall holds at most (?P<tables>\d+) tables\."), "refusal.host.hall_full"),
)


def translate_refusal(text: str, tr: Translator, names: Names) -> str:
    """``text`` (an engine or host refusal, in English) in ``tr``'s language."""
    for key, raw in readings(text.strip(), _EXACT, _PATTERNS):
        values = _values(raw, tr, names)
        if values is not None:
            return tr(key, **values)
    return text if tr.lang == "en" else tr("refusal.generic")


def refused_line(reason: str, tr: Translator) -> str:
    """What a player reads of a refusal: "Refused. It is not your turn: waiting for Lea."
    A reason that is a sentence follows "Refused." as a sentence of its own (after "Refused:"
    its own colon made two in a row); a bare phrase ("not connected") follows a colon."""
    key = "error.refused_sentence" if reason[:1].isupper() else "error.refused"
    return tr(key, text=reason)


def _values(raw: dict[str, str], tr: Translator, names: Names) -> dict[str, object] | None:
    """The matched pieces in the player's words; None when a piece is not understood."""
    values: dict[str, object] = {}
    for name, piece in raw.items():
        if name == "seat":
            values["name"] = names(int(piece))
        elif name == "what":
            phase = _PHASE_BY_WHAT.get(piece)
            if phase is None:
                return None
            values["what"] = tr(f"what.{phase}")
        elif name in ("card", "top"):
            code = _CARD_BY_WORDS.get(piece)
            if code is None:
                return None
            values[name] = tr.card(code)
        elif name == "color":
            letter = _COLOR_BY_WORD.get(piece)
            values["color"] = tr.color(letter) if letter else ""
        elif name == "count":
            values["count"] = tr.plural("card", int(piece))
        elif name == "tables":
            values["count"] = int(piece)
    return values


def option_refusal(word: str, tr: Translator, command: str = "host") -> str | None:
    """Why a ``key=value`` table option is refused, in the reader's language (None: it
    is not). The hall's form and ``--option`` on the command line say the same; an unknown
    option sends the reader to ``lanuno COMMAND --help``, which lists them."""
    key = word.partition("=")[0]
    try:
        name = option_name(key)
    except OptionError:
        return tr("hall.bad.option_name", value=key, command=command)
    try:
        parse_option(word)
    except OptionError:
        return tr("hall.bad.option_value", value=name, choices=option_values(name))
    return None


_RULES_REASONS = {
    "hand_size must be between 1 and 15": "rules.bad.hand_size",
    "move_timer must be between 20 and 60 seconds, or none": "rules.bad.move_timer",
    "target must be between 1 and 10000, or none for a single round": "rules.bad.target",
    "hand_limit cannot be below hand_size": "rules.bad.hand_limit",
    "hand_limit must be at most 112, the biggest deck": "rules.bad.hand_limit_max",
    "target counts round wins at this table: at most 25": "rules.bad.round_wins",
}
"""The engine's reasons for refusing a set of rules (``Rules.__post_init__``), in English:
the catalogue's keys for them."""


_ONE_OPTION = frozenset(
    {
        "rules.bad.hand_size",
        "rules.bad.move_timer",
        "rules.bad.target",
        "rules.bad.hand_limit_max",
        "rules.bad.round_wins",
    }
)
"""Reasons about one option's range (the others are about two options together)."""


def rules_reason(error: ValueError, tr: Translator) -> str:
    """Why the engine refused a set of rules, in the reader's language."""
    key = _RULES_REASONS.get(str(error))
    return str(error) if key is None else tr(key)


def rules_refusal(error: ValueError, tr: Translator) -> str:
    """The sentence for refused rules: one option out of its range is said as such, not as
    options that "do not fit together" (``move_timer=5`` alone was)."""
    reason = rules_reason(error, tr)
    if _RULES_REASONS.get(str(error)) in _ONE_OPTION:
        return tr("hall.bad.option_range", reason=reason)
    return tr("hall.bad.options_together", reason=reason)

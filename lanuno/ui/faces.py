"""How cards look on a terminal: short chips, style classes, sorting, and a block font.

Every chip carries the color letter and the value (``R 7``, ``G+2``, ``BSk``, ``W+4``) so a
hand reads the same on a monochrome terminal or to a color-blind player; the color
itself is only a second cue (the ``card.R`` ... style classes).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from lanuno.engine.cards import parse_card

_RANK_CHIPS = {"S": "Sk", "R": "Rv", "+2": "+2"}
_WILD_CHIPS = {"W": " W ", "W+4": "W+4", "X": " X "}
COLOR_STYLES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


@dataclass(frozen=True, slots=True)
class CardFace:
    code: str
    chip: str
    """Three characters: color letter then value (``R 7``, ``G+2``, ``YRv``, ``W+4``)."""
    style: str
    """Style class: ``card.red`` ... ``card.wild``."""


def face(code: str, letters: Mapping[str, str] | None = None) -> CardFace:
    """The chip for ``code``; ``letters`` (``Translator.letters``) maps the color letters and
    the Skip/Reverse ranks to the player's language (French: ``JPa`` is a yellow Skip)."""
    letters = letters or {}
    if code in _WILD_CHIPS:
        return CardFace(code, letters.get(f"wild:{code}") or _WILD_CHIPS[code], "card.wild")
    color, rank = code[0], code[1:]
    value = letters.get(f"rank:{rank}") or _RANK_CHIPS.get(rank, f" {rank}")
    letter = letters.get(color, color)
    return CardFace(code, letter + value, f"card.{COLOR_STYLES[color]}")


def color_style(letter: str | None) -> str:
    return f"card.{COLOR_STYLES[letter]}" if letter else "card.wild"


def sort_hand(codes: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Red, yellow, green, blue, then wilds; numbers before actions within a color."""
    return tuple(sorted(codes, key=lambda code: parse_card(code).index))


# A 3x5 block font for the room code and the top card's value on the shared screen.
_GLYPHS: dict[str, tuple[str, ...]] = {
    "0": ("███", "█ █", "█ █", "█ █", "███"),
    "1": (" █ ", "██ ", " █ ", " █ ", "███"),
    "2": ("███", "  █", "███", "█  ", "███"),
    "3": ("███", "  █", " ██", "  █", "███"),
    "4": ("█ █", "█ █", "███", "  █", "  █"),
    "5": ("███", "█  ", "███", "  █", "███"),
    "6": ("███", "█  ", "███", "█ █", "███"),
    "7": ("███", "  █", "  █", " █ ", " █ "),
    "8": ("███", "█ █", "███", "█ █", "███"),
    "9": ("███", "█ █", "███", "  █", "███"),
    "+": ("   ", " █ ", "███", " █ ", "   "),
    "S": ("███", "█  ", "███", "  █", "███"),
    "R": ("██ ", "█ █", "██ ", "█ █", "█ █"),
    "W": ("█ █", "█ █", "█ █", "███", "█ █"),
    "X": ("█ █", "█ █", " █ ", "█ █", "█ █"),
    # French ranks: PA(sse), IN(version), JOK(er).
    "P": ("██ ", "█ █", "██ ", "█  ", "█  "),
    "A": (" █ ", "█ █", "███", "█ █", "█ █"),
    "I": ("███", " █ ", " █ ", " █ ", "███"),
    "N": ("█ █", "███", "███", "█ █", "█ █"),
    "J": ("███", "  █", "  █", "█ █", "██ "),
    "O": ("███", "█ █", "█ █", "█ █", "███"),
    "K": ("█ █", "██ ", "█  ", "██ ", "█ █"),
    " ": ("   ", "   ", "   ", "   ", "   "),
    "-": ("   ", "   ", "███", "   ", "   "),
    ".": ("   ", "   ", "   ", "   ", " █ "),
    ":": ("   ", " █ ", "   ", " █ ", "   "),
}
BIG_HEIGHT = 5


def big_text(text: str, gap: int = 1) -> tuple[str, ...]:
    """Five lines spelling ``text`` in the block font (unknown characters as spaces)."""
    rows = ["" for _ in range(BIG_HEIGHT)]
    for index, char in enumerate(text.upper()):
        glyph = _GLYPHS.get(char, _GLYPHS[" "])
        for row in range(BIG_HEIGHT):
            rows[row] += (" " * gap if index else "") + glyph[row]
    return tuple(rows)


def big_rank(code: str) -> str:
    """What the shared screen writes large for a top card: ``7``, ``+2``, ``S``, ``W+4``."""
    if code in ("W", "W+4", "X"):
        return code
    return code[1:]

"""Actions as a person of the line client reads and types them.

In English that is the wire's notation (``play R7``, ``play W+4 B``, ``draw``, ``catch 2``):
it reads as English. In French a hand of ``YS G7 W`` and a choice of ``draw`` read as
nothing, so the client shows French verbs and the cards as the French screens write them
(``jouer JPa``, ``jouer Jok V``, ``piocher``, ``contre-uno 2``). What is typed is read in
either language at any table, so an English habit or a script works at a French table.
Seats are shown and typed from 1; the wire counts them from 0.
"""

from __future__ import annotations

import unicodedata

from lanuno.ui.i18n import CATALOGUES, Translator

VERBS = (
    "play",
    "draw",
    "pass",
    "color",
    "challenge",
    "accept",
    "uno",
    "catch",
    "give",
    "target",
    "swap",
    "return",
)
"""The wire's verbs a person may type (``timeout`` is the host's alone)."""
SEAT_VERBS = frozenset({"catch", "give", "swap", "target"})
"""Verbs whose arguments are seats."""
CARD_VERBS = frozenset({"play", "return"})

COLOR_LETTERS = {"R": "R", "Y": "Y", "G": "G", "B": "B", "J": "Y", "V": "G"}
"""A typed color letter, English (red, yellow, green, blue) or French (rouge, jaune, vert,
bleu), as the wire writes it. The two languages share R and B, and use no letter of each
other's for another color."""
RANKS = {"S": "S", "R": "R", "PA": "S", "IN": "R"}
"""Skip and Reverse, in the wire's letters or the French screens' (Passe, Inversion)."""
WILDS = {"W": "W", "W+4": "W+4", "X": "X", "JOK": "W", "+4": "W+4", "J+4": "W+4", "?": "X"}
"""Wild cards as typed: the wire's codes, and French ``Jok`` and ``+4`` (``J+4``, as the
French screens once wrote it, still reads: there is no yellow +4)."""
"""The black cards and the blank card, in either language's writing."""


def _plain(word: str) -> str:
    """``Échanger`` -> ``echanger``: a verb matched without case or accents."""
    decomposed = unicodedata.normalize("NFKD", word.lower())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


VERBS_TYPED = {verb: verb for verb in VERBS} | {
    _plain(catalogue[f"verb.{verb}"]): verb for catalogue in CATALOGUES.values() for verb in VERBS
}
"""A typed verb (without case or accents), in the wire's words or any language's."""


class MissingWord(ValueError):
    """A verb typed without the seat, card or color it needs (``catch``, ``play``)."""

    def __init__(self, verb: str, kind: str) -> None:
        super().__init__(f"{verb} needs a {kind}")
        self.kind = kind
        self.example = EXAMPLES[verb]
        """The verb with a made-up argument, in the wire's notation (seats from 0)."""


EXAMPLES = {
    "catch": "catch 1", "give": "give 1", "target": "target 1", "swap": "swap 1",
    "play": "play R7", "return": "return R7", "color": "color G",
}  # fmt: skip
"""Each verb that needs a word after it, with one."""


class ActionWords:
    """Shows the wire's actions in ``tr``'s language, and reads typed ones in any."""

    def __init__(self, tr: Translator) -> None:
        self.tr = tr

    def card(self, code: str) -> str:
        """``YS`` -> ``JPa`` in French; the wire's code in English."""
        return code if self.tr.lang == "en" else self.tr.code(code)

    def color(self, color: str) -> str:
        return color if self.tr.lang == "en" else self.tr(f"letter.{color}")

    def show(self, notation: str) -> str:
        """A legal action (the wire's notation, seats from 0) as the person reads it."""
        verb, *args = notation.split(" ")
        if verb in SEAT_VERBS:
            shown = [str(int(arg) + 1) if arg.isdigit() else arg for arg in args]
        elif verb in CARD_VERBS and args:
            shown = [self.card(args[0]), *(self.color(arg) for arg in args[1:])]
        elif verb == "color":
            shown = [self.color(arg) for arg in args]
        else:
            shown = args
        word = verb if self.tr.lang == "en" or verb not in VERBS else self.tr(f"verb.{verb}")
        return " ".join([word, *shown])

    def read(self, text: str) -> str:
        """What a person typed -> the wire's notation (seats from 0). ValueError when it
        is not an action; the host judges whether it is legal."""
        words = text.split()
        if not words:
            raise ValueError("nothing typed")
        verb = VERBS_TYPED.get(_plain(words[0]))
        if verb is None:
            raise ValueError(f"not a verb: {words[0]!r}")
        args = [word.upper() for word in words[1:]]
        if not args and verb in EXAMPLES:
            kind = "seat" if verb in SEAT_VERBS else "color" if verb == "color" else "card"
            raise MissingWord(verb, kind)
        if verb in SEAT_VERBS:
            if not all(arg.isdigit() and arg != "0" for arg in args):
                raise ValueError("seats are numbers from 1")
            wire = [str(int(arg) - 1) for arg in args]
        elif verb in CARD_VERBS and args:
            wire = [read_card(args[0]), *(read_color(arg) for arg in args[1:])]
        elif verb == "color":
            wire = [read_color(arg) for arg in args]
        else:
            wire = args
        return " ".join([verb, *wire])


COLOR_WORDS = {
    "RED": "R", "YELLOW": "Y", "GREEN": "G", "BLUE": "B",
    "ROUGE": "R", "JAUNE": "Y", "VERT": "G", "BLEU": "B", "VERTE": "G", "BLEUE": "B",
}  # fmt: skip
"""A color typed as a word: ``couleur rouge``, ``play W blue``; French in either gender
(``couleur verte``, as one says "la couleur verte")."""


def read_color(typed: str) -> str:
    word = _plain(typed).upper()
    color = COLOR_LETTERS.get(word) or COLOR_WORDS.get(word)
    if color is None:
        raise ValueError(f"not a color: {typed!r}")
    return color


def read_card(typed: str) -> str:
    """``j7``, ``JPa``, ``Jok``, ``+4`` (French) or ``Y7``, ``YS``, ``W``, ``W+4`` (the
    wire) -> the wire's code. A French J is yellow (jaune) before a value."""
    code = typed.upper()
    if code in WILDS:
        return WILDS[code]
    color, value = COLOR_LETTERS.get(code[:1]), code[1:]
    if color is None or not value:
        raise ValueError(f"not a card: {typed!r}")
    return color + RANKS.get(value, value)

"""The hall as plain data: one row per table of this host, the new-table form, and which
part of the list fits the screen.

Pure: no prompt_toolkit, no clock, no I/O. A row is drawn from the same
:class:`~lanuno.ui.table_model.TableModel` that the table's full shared screen shows (a
spectator's feed: public only), plus the two codes only the host sees. The screen code
belongs on the hall alone: a shared screen never shows it.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

from lanuno.bots.levels import LEVELS, BotLevel, UnknownBotLevel
from lanuno.engine.rules import (
    MAX_SEATS,
    PRESET_NAMES,
    OptionError,
    format_option,
    parse_option,
    preset,
    with_options,
)
from lanuno.ui.client_model import Presence, everyone_away, presence
from lanuno.ui.contracts import NewTable
from lanuno.ui.i18n import Translator
from lanuno.ui.refusals import option_refusal, rules_refusal
from lanuno.ui.table_model import TableModel
from lanuno.wire.messages import MAX_NAME

HallPhase = Literal["lobby", "playing", "between", "game_over", "closed", "paused"]


@dataclass(frozen=True, slots=True)
class HallPlayer:
    """One occupied seat of a table, as the hall lists it."""

    name: str
    kind: str
    """``human`` or ``bot``."""
    score: int | None
    """The running total (None in the lobby, before any score)."""
    presence: Presence = "here"
    """``away`` while a dropped player's seat is held, ``bot`` once a bot plays it."""


@dataclass(frozen=True, slots=True)
class HallRow:
    """One table of the hall: public facts, and the codes only the host's screen shows."""

    number: int
    name: str
    phase: HallPhase
    round: int
    players: tuple[HallPlayer, ...]
    seats_free: int
    room_code: str
    screen_code: str
    turn: str | None = None
    """Who is to act, while a round is played."""
    winner: str | None = None
    """The winner of the round just over, or of the game."""

    @property
    def away(self) -> tuple[str, ...]:
        """The players who are not at the table (dropped, or replaced by a bot for now)."""
        return tuple(p.name for p in self.players if p.presence != "here")

    @property
    def waiting(self) -> bool:
        """A round in play with every player away (after a host restart, until one is
        back): nothing is played for them, the table waits."""
        seats = ((p.kind, p.presence) for p in self.players)
        return self.phase == "playing" and everyone_away(seats)


def hall_row(
    number: int,
    name: str,
    room_code: str,
    screen_code: str,
    model: TableModel,
    *,
    paused: bool = False,
) -> HallRow:
    """The hall's row for a table whose shared-screen feed ``model`` has taken in;
    ``paused`` when the table stopped by itself (``HallTable.paused``)."""
    seats = model.seats
    state = model.state
    phase: HallPhase
    if paused:
        # Not over: its journal failed, its players keep their seats for a --resume.
        phase = "paused"
    elif model.closed:
        phase = "closed"
    elif model.screen == "play":
        phase = "playing"
    elif model.screen == "round_end":
        phase = "between"
    elif model.screen == "game_end":
        phase = "game_over"
    else:
        phase = "lobby"
    scores: dict[str, int] = {}
    end = model.game_end or model.round_end
    if phase in ("between", "game_over") and end is not None:
        # By name: the lobby after a game may have freed a seat and moved the others down.
        scores = {model.end_name(seat): score for seat, score in enumerate(end.scores)}
    elif state is not None and phase != "lobby":
        scores = {model.name_of(seat): score for seat, score in enumerate(state.scores)}
    players = tuple(
        HallPlayer(
            name=model.name_of(index),
            kind=seat.kind,
            score=scores.get(model.name_of(index)),
            presence=presence(seat, index in model.autopilot),
        )
        for index, seat in enumerate(seats)
        if seat.kind != "empty"
    )
    turn = winner = None
    if phase == "playing" and state is not None and state.actor is not None:
        turn = model.name_of(state.actor)
    if phase in ("between", "game_over") and end is not None and end.winner is not None:
        winner = model.end_name(end.winner)
    # Seats are free in the lobby only (a game in progress takes nobody new), as the
    # table's mDNS record says; bots hold their seats.
    free = MAX_SEATS - len(players) if phase == "lobby" else 0
    return HallRow(
        number=number,
        name=name,
        phase=phase,
        round=state.round if state is not None else 0,
        players=players,
        seats_free=free,
        room_code=room_code,
        screen_code=screen_code,
        turn=turn,
        winner=winner,
    )


# ---------------------------------------------------------------------------- words


def spaced(code: str) -> str:
    """``482913`` -> ``482 913`` (how codes are read aloud and shown on the screens)."""
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


def phase_text(tr: Translator, row: HallRow) -> str:
    """``round 2 in play · Ana to play``, ``lobby · 7 seats free``, ``game over · Lea wins``
    (``round 2 in play · waiting for the players to come back``: every player away)."""
    if row.phase == "lobby":
        return f"{tr('hall.phase.lobby')} · {tr.plural('hall.free', row.seats_free)}"
    if row.phase == "playing":
        text = tr("hall.phase.playing", round=row.round)
        if row.waiting:
            return f"{text} · {tr('hall.waiting')}"
        return f"{text} · {tr('hall.turn', name=row.turn)}" if row.turn else text
    if row.phase == "between":
        text = tr("hall.phase.between", round=row.round)
        return f"{text} · {tr('hall.round_won', name=row.winner)}" if row.winner else text
    if row.phase == "game_over":
        text = tr("hall.phase.game_over")
        return f"{text} · {tr('hall.game_won', name=row.winner)}" if row.winner else text
    if row.phase == "paused":
        return tr("hall.phase.paused")
    return tr("hall.phase.closed")


def player_text(tr: Translator, player: HallPlayer) -> str:
    """``Lea 120``, ``Max 0 (away)``, ``Ana (bot playing)`` (no score in the lobby)."""
    text = player.name if player.score is None else f"{player.name} {player.score}"
    if player.presence == "away":
        return f"{text} ({tr('status.away')})"
    if player.presence == "bot":
        return f"{text} ({tr('status.bot')})"
    return text


def codes_text(tr: Translator, row: HallRow) -> str:
    """``room 482 913  screen 105 227``: what players type, what a ``lanuno screen`` types."""
    room = tr("hall.room_code", code=spaced(row.room_code))
    return f"{room}  {tr('hall.screen_code', code=spaced(row.screen_code))}"


# ---------------------------------------------------------------------------- scrolling


@dataclass(frozen=True, slots=True)
class Visible:
    """The rows shown: ``first`` to ``last`` (exclusive), with a marker line above when
    rows are hidden above, and below when rows are hidden below."""

    first: int
    last: int

    def above(self) -> int:
        return self.first

    def below(self, count: int) -> int:
        return count - self.last


def visible_rows(heights: Sequence[int], selected: int, top: int, height: int) -> Visible:
    """Which rows fit ``height`` lines, starting at ``top`` if the selected row stays in
    view, else scrolled just enough to show it. A hidden row above or below costs one
    line for its marker."""
    count = len(heights)
    if count == 0:
        return Visible(0, 0)
    selected = max(0, min(selected, count - 1))
    first = max(0, min(top, selected))

    def last_from(first: int) -> int:
        used = 1 if first > 0 else 0
        last = first
        while last < count:
            # A row ends with a blank line, which the "more below" marker may take.
            if used + heights[last] > height and last > first:
                break
            used += heights[last]
            last += 1
        return last

    last = last_from(first)
    while selected >= last and first < selected:
        first += 1
        last = last_from(first)
    # Room left below the last row (a taller window, fewer rows): show earlier rows again.
    while first > 0 and last == count and last_from(first - 1) == count:
        first -= 1
    return Visible(first, last)


# ---------------------------------------------------------------------------- the form

FIELDS = ("name", "preset", "options", "bots", "level")
"""The new-table form's fields, top to bottom."""
OPTION_EXAMPLE = "stacking=on target=300"


class NewTableForm:
    """The form N opens: five text fields, typed at their end, checked on Enter."""

    def __init__(self, tr: Translator, number: int, defaults: NewTable | None = None) -> None:
        """``defaults``: what the host's command line gave every table (its preset,
        options, bots and level, and the name its tables are numbered after, if any)."""
        self.tr = tr
        start = defaults or NewTable(name="", preset=PRESET_NAMES[0])
        name = f"{start.name} {number}" if start.name else ""
        self.values: dict[str, str] = {
            "name": name[:MAX_NAME] or tr("hall.form.default_name", number=number),
            "preset": tr.preset(start.preset),
            "options": " ".join(start.options),
            "bots": str(start.bots),
            "level": tr(f"level.{BotLevel.parse(start.level).value}"),
        }
        self.untouched = set(FIELDS)
        """Fields still holding their proposed value: the first key typed replaces it
        ("Table 2Quiz", "12" bots), but for the options, where it adds one."""
        self.field = 0
        self.errors: dict[str, str] = {}

    @property
    def current(self) -> str:
        return FIELDS[self.field]

    def move(self, delta: int) -> None:
        self.field = (self.field + delta) % len(FIELDS)

    def type(self, text: str) -> None:
        field = self.current
        if field in self.untouched:
            kept = self.values[field].strip() if field == "options" else ""
            self.values[field] = f"{kept} " if kept else ""
        self._touch()
        self.values[field] += text

    def erase(self) -> None:
        self._touch()
        self.values[self.current] = self.values[self.current][:-1]

    def clear(self) -> None:
        self._touch()
        self.values[self.current] = ""

    def _touch(self) -> None:
        self.untouched.discard(self.current)
        self.errors.pop(self.current, None)

    def hint(self, field: str) -> str:
        tr = self.tr
        if field == "name":
            return tr("hall.form.hint.name", count=MAX_NAME)
        if field == "preset":
            return tr("hall.form.hint.preset", choices=", ".join(preset_words(tr)))
        if field == "options":
            return tr("hall.form.hint.options", choices=OPTION_EXAMPLE)
        if field == "bots":
            return tr("hall.form.hint.bots", count=MAX_SEATS)
        return tr("hall.form.hint.level", choices=", ".join(level_words(tr)))

    def submit(self) -> NewTable | None:
        """The checked table, or None with ``errors`` set and the cursor on the first bad
        field."""
        table, self.errors = check_new_table(self.values, self.tr)
        if table is None:
            self.field = min(FIELDS.index(field) for field in self.errors)
        return table


def check_new_table(
    values: Mapping[str, str], tr: Translator
) -> tuple[NewTable | None, dict[str, str]]:
    """The form's text checked with the engine's own parsers (``preset``, ``parse_option``,
    ``with_options``) and :class:`BotLevel`: the table, or a sentence per bad field."""
    errors: dict[str, str] = {}
    name = values.get("name", "").strip()
    if not name:
        errors["name"] = tr("hall.bad.name_blank")
    elif len(name) > MAX_NAME:
        errors["name"] = tr("hall.bad.name_long", count=MAX_NAME)
    preset_word = values.get("preset", "").strip()
    words = zip(PRESET_NAMES, preset_words(tr), strict=True)
    translated = {word.lower(): name for name, word in words}
    try:
        rules = preset(translated.get(preset_word.lower(), preset_word.lower()))
    except OptionError:
        rules = None
        choices = ", ".join(preset_words(tr))
        errors["preset"] = tr("hall.bad.preset", value=preset_word, choices=choices)
    options: list[str] = []
    for word in re.split(r"[\s,]+", values.get("options", "").strip()):
        if not word:
            continue
        error = option_refusal(word, tr)
        if error is not None:
            errors.setdefault("options", error)
            continue
        options.append(format_option(*parse_option(word)))
    if rules is not None and "options" not in errors:
        try:
            with_options(rules, options)
        except ValueError as error:  # out of range, or hand_limit < hand_size
            errors["options"] = rules_refusal(error, tr)
    bots_word = values.get("bots", "").strip() or "0"
    bots = int(bots_word) if bots_word.isdecimal() else -1
    if not 0 <= bots <= MAX_SEATS:
        errors["bots"] = tr("hall.bad.bots", count=MAX_SEATS, value=bots_word)
    level_word = values.get("level", "").strip()
    translated = {word.lower(): level for level, word in zip(LEVELS, level_words(tr), strict=True)}
    try:
        level = BotLevel.parse(translated.get(level_word.lower(), level_word))
    except UnknownBotLevel:
        choices = ", ".join(level_words(tr))
        errors["level"] = tr("hall.bad.level", value=level_word, choices=choices)
    if errors:
        return None, errors
    return NewTable(name, rules.preset if rules else preset_word, tuple(options), bots, level), {}


def preset_words(tr: Translator) -> list[str]:
    """The presets as the reader's language names them (``officielles``, as every French
    screen shows them); the form takes these or the presets' own names (``official``)."""
    return [tr.preset(name) for name in PRESET_NAMES]


def level_words(tr: Translator) -> list[str]:
    """The bot levels as the reader's language names them (``débutant``); the form takes
    these or the levels' own names (``beginner``)."""
    return [tr(f"level.{level.value}") for level in LEVELS]


# ---------------------------------------------------------------------------- the hall

Confirm = Literal["close", "quit"]


class HallModel:
    """What the hall screen shows besides the rows: the selection, the open table, the
    form, a confirmation, and the last notice."""

    def __init__(self, tr: Translator, defaults: NewTable | None = None) -> None:
        self.tr = tr
        self.defaults = defaults
        """What the form N opens starts from (the host's command line)."""
        self.rows: list[HallRow] = []
        self.selected = 0
        self.top = 0
        """The first row shown (the list scrolls to keep the selected row in view)."""
        self.open_table: int | None = None
        """The number of the table whose full shared screen is shown, or None: the hall."""
        self.form: NewTableForm | None = None
        self.confirm: Confirm | None = None
        self.confirm_number: int | None = None
        """The table C asked to close."""
        self.notice: str | None = None
        self.notice_is_refusal = False
        """The notice says why a request was refused (else it says what was done)."""

    def set_rows(self, rows: Sequence[HallRow]) -> None:
        """New rows; the selection stays on the same table when it is still there."""
        number = self.selected_number
        self.rows = list(rows)
        numbers = [row.number for row in self.rows]
        if number in numbers:
            self.selected = numbers.index(number)
        self.selected = max(0, min(self.selected, len(self.rows) - 1))

    @property
    def selected_number(self) -> int | None:
        if 0 <= self.selected < len(self.rows):
            return self.rows[self.selected].number
        return None

    def select_number(self, number: int) -> None:
        for index, row in enumerate(self.rows):
            if row.number == number:
                self.selected = index

    def move(self, delta: int) -> None:
        if self.rows:
            self.selected = max(0, min(len(self.rows) - 1, self.selected + delta))

    def next_number(self) -> int:
        """The number a new table would likely get (the host decides): the first unused."""
        used = {row.number for row in self.rows}
        return next(n for n in range(1, len(used) + 2) if n not in used)

    def open_form(self) -> NewTableForm:
        self.notice = None
        self.form = NewTableForm(self.tr, self.next_number(), self.defaults)
        return self.form

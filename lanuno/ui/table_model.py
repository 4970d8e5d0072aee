"""The shared screen as plain data: the public table, and the host's lobby controls.

Pure: no prompt_toolkit, no clock, no I/O. The shared screen sees what a spectator sees
(public State: no hand, no legal actions), so nothing here could show a card of a hand.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from lanuno.bots.levels import LEVELS, BotLevel
from lanuno.engine.rules import PRESETS, OptionError, official, preset
from lanuno.ui.client_model import (
    Presence,
    end_names,
    everyone_away,
    note_autopilot,
    presence,
    seat_name,
)
from lanuno.ui.i18n import EN, Translator
from lanuno.ui.narrate import EventLog, LogLine, mid_round_line, started_round
from lanuno.wire.messages import (
    Bye,
    Event,
    GameEnd,
    Lobby,
    LobbySeat,
    Message,
    OptionValue,
    RoundEnd,
    State,
)

ScreenName = Literal["lobby", "play", "round_end", "game_end"]
PRESET_NAMES = tuple(PRESETS)

_ON_OFF = ("off", "on")
OPTION_CHOICES: dict[str, tuple[str, ...]] = {
    "stacking": _ON_OFF,
    "seven_o": _ON_OFF,
    "jump_in": _ON_OFF,
    "draw_until_playable": _ON_OFF,
    "wild_draw_four": ("challenge", "strict", "free"),
    "target": ("200", "300", "500", "none"),
    "move_timer": ("none", "30", "45", "60"),
    "kids_immune_to_counter_uno": _ON_OFF,
    "adults_draw_until_playable": _ON_OFF,
    "kids_stack": _ON_OFF,
    "kids_choose_target": _ON_OFF,
    "kids_hit_all_adults": _ON_OFF,
}
"""The options the host cycles through on the shared screen (engine rule names), and the
values ``HostControls.set_option`` receives for them."""
ROUND_WIN_TARGETS = ("3", "5", "7", "10", "none")
"""O cycles these for the target where it counts round wins (kids2's is 5)."""


@dataclass(frozen=True, slots=True)
class OptionRow:
    key: str
    value: str
    """The current value as ``set_option`` spells it (``on``, ``none``, ``300``)."""


def option_word(value: OptionValue) -> str:
    """A lobby option value in ``set_option`` spelling."""
    if value is None:
        return "none"
    if value is True:
        return "on"
    if value is False:
        return "off"
    return str(value)


def option_rows(options: Mapping[str, OptionValue]) -> list[OptionRow]:
    """The host-editable options with their current values (the first choice if unset)."""
    rows = []
    for key, choices in OPTION_CHOICES.items():
        value = option_word(options[key]) if key in options else choices[0]
        rows.append(OptionRow(key, value))
    return rows


_VALUE_WORDS = frozenset({"on", "off", "none", "challenge", "strict", "free"})
_QUIET_VALUES = frozenset({"off", "challenge", "none"})


def value_text(tr: Translator, value: str) -> str:
    return tr(f"host.value.{value}") if value in _VALUE_WORDS else value


RULES_SAID = (
    "deck",
    "hand_size",
    "hand_limit",
    "first_player",
    "voluntary_draw",
    "must_play_drawn",
    "counter_uno",
    "draw_two_gift",
    "wild_draw_four",
    "target",
    "stacking",
    "seven_o",
    "jump_in",
    "draw_until_playable",
    "move_timer",
    "kids_immune_to_counter_uno",
    "adults_draw_until_playable",
    "kids_stack",
    "kids_choose_target",
    "kids_hit_all_adults",
)
"""Every rule the lobby's summary may tell, in the order it tells them (the deal and the
draw first); ``scoring`` is told with the target ("Rounds to win: 5")."""

_COUNTED = frozenset({"hand_size", "hand_limit"})
"""Rules whose value is a number of cards (``rules.hand_size`` takes ``{count}``)."""


def rules_summary(preset_name: str, options: Mapping[str, OptionValue], tr: Translator) -> str:
    """:func:`rules_told` in one line, comma-separated."""
    return ", ".join(rules_told(preset_name, options, tr))


def rules_told(preset_name: str, options: Mapping[str, OptionValue], tr: Translator) -> list[str]:
    """Every rule of this table that a player would not expect, in words ("Cards dealt: 5,
    Hand limit: 6, Counter-UNO: on, Points to win: none (one round)"): each one that
    differs from the official rules (what anyone who knows UNO expects) or from the table's
    preset (what its name promises: Counter-UNO turned on at a kids' table). The target is
    always told. An option the lobby did not send is the preset's."""
    official_rules = official().to_dict()
    try:
        preset_rules = preset(preset_name).to_dict()
    except OptionError:  # a preset from a newer host: the official rules are the measure
        preset_rules = official_rules
    rules = {**preset_rules, **options}
    told = [
        key
        for key in RULES_SAID
        if key == "target" or {official_rules.get(key), preset_rules.get(key)} != {rules.get(key)}
    ]
    said = [_rule_text(key, rules.get(key), rules, tr) for key in told]
    if rules.get("voluntary_draw") is False and rules.get("must_play_drawn") is True:
        # K1-4 / K2-8 are one rule (draw only when stuck, play what fits): told as one.
        # Both differ from the official rules, so both are in ``told``.
        said[told.index("voluntary_draw")] = tr("rules.draw_when_stuck")
        del said[told.index("must_play_drawn")]
    return said


def _rule_text(
    key: str, value: OptionValue, rules: Mapping[str, OptionValue], tr: Translator
) -> str:
    word = option_word(value)
    if key == "target":
        if value is None:
            return tr("host.option_value", name=tr("opt.target"), value=tr("host.value.one_round"))
        name = tr("rules.rounds_to_win" if rules.get("scoring") == "round_wins" else "opt.target")
        return tr("host.option_value", name=name, value=word)
    if key in OPTION_CHOICES:  # the host's options: the names its option list shows
        return tr("host.option_value", name=tr("opt." + key), value=value_text(tr, word))
    if key in _COUNTED and value is not None:
        return tr(f"rules.{key}", count=word)
    phrase = f"rules.{key}.{word}"
    if phrase in EN:
        return tr(phrase)
    return tr("host.option_value", name=key, value=word)  # a value from a newer host


@dataclass(frozen=True, slots=True)
class SeatTile:
    """One seat around the table: public facts only."""

    seat: int
    name: str
    kind: str
    count: int
    score: int
    declared: bool
    exposed: bool
    is_turn: bool
    is_actor: bool
    connected: bool
    presence: Presence = "here"
    check: int | None = None
    """The seat's check number (a player's live connection; a new one after a resume)."""


class TableModel:
    def __init__(
        self, tr: Translator, bot_level: BotLevel = BotLevel.INTERMEDIATE, *, remote: bool = False
    ) -> None:
        self.tr = tr
        self.remote = remote
        """A paired screen elsewhere (``lanuno screen``): the host's own controls (the
        selected seat, the level of new bots, S to start) are not shown."""
        self.lobby: Lobby | None = None
        self.state: State | None = None
        self.log = EventLog()
        self.round_end: RoundEnd | None = None
        self.game_end: GameEnd | None = None
        self.end_names: tuple[str, ...] = ()
        """Who held each seat when the last round ended (``end_name``)."""
        self.screen: ScreenName = "lobby"
        self.deadline_at: float | None = None
        self.closed = False
        self._story_round: int | None = None
        """The round the log tells from its start (None: none yet)."""
        # The host's own controls:
        self.cursor = 0
        """The selected seat (remove a bot, kick a player)."""
        self.bot_level = bot_level
        """The level B adds (L cycles it): at first the table's own (``--level``)."""
        self.options_open = False
        self.option_cursor = 0
        self.notice: str | None = None
        """The sentence of the last refused request (HostControls raised ValueError)."""
        self.autopilot: set[int] = set()
        """Seats the engine's autopilot plays (T3), from the ``autopilot`` events."""
        self.room_code: str | None = None
        """The room code last shown; a different one means the host rotated it."""
        self.code_rotated = False
        self.confirm_quit = False
        self.help_open = False
        self.log_scroll = 0

    def see_room_code(self, code: str) -> bool:
        """Note the room code the host has now; True (and a warning stays on screen) when it
        changed since the last look: too many wrong codes made the host pick a new one."""
        if not code:
            return False  # not known yet (a remote screen before the host's first info)
        changed = self.room_code is not None and code != self.room_code
        self.room_code = code
        if changed:
            self.code_rotated = True
        return changed

    def scroll_log(self, lines: int) -> None:
        self.log_scroll = max(0, self.log_scroll + lines)

    # ------------------------------------------------------------------ reading

    @property
    def seats(self) -> tuple[LobbySeat, ...]:
        return self.lobby.seats if self.lobby else ()

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        return seat_name(self.seats[seat] if 0 <= seat < len(self.seats) else None, seat, self.tr)

    @property
    def preset(self) -> str:
        return self.lobby.preset if self.lobby else PRESET_NAMES[0]

    def seconds_left(self, now: float) -> int | None:
        if self.deadline_at is None:
            return None
        return max(0, int(self.deadline_at - now + 0.999))

    def tiles(self) -> list[SeatTile]:
        state = self.state
        if state is None:
            return []
        tiles = []
        for seat, count in enumerate(state.counts):
            lobby_seat = self.seats[seat] if seat < len(self.seats) else None
            tiles.append(
                SeatTile(
                    seat=seat,
                    name=self.name_of(seat),
                    kind=lobby_seat.kind if lobby_seat else "human",
                    count=count,
                    score=state.scores[seat],
                    declared=state.uno[seat].declared,
                    exposed=state.uno[seat].exposed,
                    is_turn=seat == state.turn,
                    is_actor=seat == state.actor,
                    connected=lobby_seat.connected if lobby_seat else True,
                    presence=presence(lobby_seat, seat in self.autopilot),
                    check=lobby_seat.check if lobby_seat else None,
                )
            )
        return tiles

    def option_rows(self) -> list[OptionRow]:
        return option_rows(self.lobby.options if self.lobby else {})

    def presence_of(self, seat: int) -> Presence:
        """Whether the player of ``seat`` is here, away, or replaced by a bot right now."""
        lobby_seat = self.seats[seat] if 0 <= seat < len(self.seats) else None
        return presence(lobby_seat, seat in self.autopilot)

    @property
    def waiting_for_players(self) -> bool:
        """A round in play with every player away (after a host restart, until one is
        back): the host plays nothing for them, the table waits."""
        seats = ((s.kind, self.presence_of(i)) for i, s in enumerate(self.seats))
        return self.screen == "play" and everyone_away(seats)

    def end_name(self, seat: int | None) -> str:
        """The name of whoever held ``seat`` when the last round ended: once the game is
        over the lobby may free a seat (its player gone), and the seats after it move down,
        but the scores on screen are still the game's."""
        names = self.end_names
        return names[seat] if seat is not None and 0 <= seat < len(names) else self.name_of(seat)

    def scoreboard(self) -> list[tuple[int, str, int, bool]]:
        """(seat, name, score, winner?) in seat order, from the last round or game end."""
        end: RoundEnd | GameEnd | None = self.game_end or self.round_end
        if end is None:
            return []
        return [(s, self.end_name(s), score, s == end.winner) for s, score in enumerate(end.scores)]

    # ------------------------------------------------------------------ messages

    def apply(self, message: Message, now: float) -> None:
        if isinstance(message, Lobby):
            self.lobby = message
            self.cursor = min(self.cursor, len(message.seats) - 1)
            if (
                self.remote
                and self.screen == "game_end"
                and any(seat.kind == "human" and seat.ready for seat in message.seats)
            ):
                # Players get ready for the next game: a TV nobody presses Enter on shows
                # the lobby they gather in (the host's own screen waits for its Enter).
                self.screen = "lobby"
        elif isinstance(message, State):
            self.state = message
            line = mid_round_line(self.tr, message, self._story_round)
            if line is not None:  # a screen that came in mid-round, a host resumed mid-round
                self._story_round = message.round
                self.log.add(LogLine(line, "info"))
            self.deadline_at = (
                None if message.deadline_ms is None else now + message.deadline_ms / 1000
            )
            if message.phase not in ("round_over", "game_over"):
                self.screen = "play"
                self.options_open = False
        elif isinstance(message, Event):
            note_autopilot(self.autopilot, message.type, message.fields)
            round_no = started_round(message.type, message.fields)
            if round_no is not None:
                self._story_round = round_no  # the log tells the round from its start
            self.log.add_event(message.type, message.fields, self.name_of, self.tr)
        elif isinstance(message, RoundEnd):
            self.round_end = message
            self.end_names = end_names(self.name_of, message)
            self.screen = "round_end"
            self.deadline_at = None
        elif isinstance(message, GameEnd):
            self.game_end = message
            self.autopilot.clear()  # back in the lobby: no bot plays for anyone there
            if len(self.end_names) != len(message.scores):  # no round end came before it
                self.end_names = end_names(self.name_of, message)
            self.screen = "game_end"
            self.deadline_at = None
        elif isinstance(message, Bye):
            self.closed = True

    # ------------------------------------------------------------------ host keys

    def move_cursor(self, delta: int) -> None:
        if self.options_open:
            self.option_cursor = (self.option_cursor + delta) % len(OPTION_CHOICES)
        elif self.seats:
            self.cursor = (self.cursor + delta) % len(self.seats)

    def cycle_level(self) -> BotLevel:
        self.bot_level = LEVELS[(LEVELS.index(self.bot_level) + 1) % len(LEVELS)]
        return self.bot_level

    def next_preset(self) -> str:
        current = self.preset if self.preset in PRESET_NAMES else PRESET_NAMES[-1]
        return PRESET_NAMES[(PRESET_NAMES.index(current) + 1) % len(PRESET_NAMES)]

    def next_option(self) -> tuple[str, str]:
        """(key, value) that cycles the selected option to its next value."""
        row = self.option_rows()[self.option_cursor]
        choices = OPTION_CHOICES[row.key]
        if row.key == "target" and self.lobby and self.lobby.options.get("scoring") == "round_wins":
            choices = ROUND_WIN_TARGETS  # kids2 counts round wins: 200 of them is no game
        position = choices.index(row.value) if row.value in choices else -1
        return row.key, choices[(position + 1) % len(choices)]

    def removable_seat(self) -> int | None:
        """The selected seat if it holds a bot or a player (an empty seat has nothing to
        remove)."""
        seats = self.seats
        if 0 <= self.cursor < len(seats) and seats[self.cursor].kind != "empty":
            return self.cursor
        return None

    @property
    def between_rounds(self) -> bool:
        """Seats may change and the next round or game may start (the table is back in its
        lobby once a game has ended, while the screen still shows the winner)."""
        return self.screen in ("lobby", "round_end", "game_end")

    def to_lobby(self) -> None:
        """Enter on the winner: the lobby, to change bots, preset or options before the
        next game."""
        if self.screen == "game_end":
            self.screen = "lobby"

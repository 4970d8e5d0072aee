"""The player's client as plain data: what the host told us, and what the keys mean.

Pure: no prompt_toolkit, no clock, no I/O. :meth:`ClientModel.apply` takes one wire message
and the current time, and returns the actions to send by itself (the color of a wild played
in two steps, see below). Every key handler of the app calls one method here that returns
the action notations to send, so the keyboard, the mouse and the tests all go through the
same decisions.

The model never decides legality: it highlights what ``State.legal`` lists, and sends what
the player asks for; the host refuses the rest with a sentence that the model logs.

Wilds: the player picks the color before the card leaves the hand. If the wire accepts
``play W B`` the model sends that one action; otherwise it sends ``play W`` and answers the
``choose_color`` phase that follows with the color already picked.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Literal

from lanuno.client.notices import FairnessAlarm, HostStillLost, Notice, SeatLost, SeedUnused
from lanuno.ui.faces import sort_hand
from lanuno.ui.i18n import EN, Translator
from lanuno.ui.narrate import EventLog, LogLine, TimeAway, mid_round_line, started_round
from lanuno.ui.reasons import alarm_text, bye_line
from lanuno.ui.refusals import refused_line, translate_refusal
from lanuno.wire.messages import (
    ACTION_NOTATIONS,
    Bye,
    ErrorReply,
    Event,
    GameEnd,
    Lobby,
    LobbySeat,
    Message,
    OptionValue,
    RoundEnd,
    State,
    Welcome,
)

ScreenName = Literal["lobby", "play", "round_end", "game_end"]
PickerKind = Literal["color", "gift", "target", "swap"]
WILDS = frozenset({"W", "W+4", "X"})
COLOR_LETTERS = ("R", "Y", "G", "B")
_OVER = ("round_over", "game_over")
SEAT_PICKER_PHASES: dict[str, PickerKind] = {
    "gift": "gift",
    "choose_target": "target",
    "swap": "swap",
}


@dataclass(frozen=True, slots=True)
class Picker:
    """A pending choice shown over the hand: a color, or a seat."""

    kind: PickerKind
    options: tuple[str, ...]
    """Color letters, or seat numbers as text."""
    selected: int = 0
    card: str | None = None
    """The wild being played from the hand (color picker only; None in ``choose_color``)."""
    first: int | None = None
    """Gift: the seat already chosen for the first card."""

    @property
    def value(self) -> str:
        return self.options[self.selected]

    @property
    def cancellable(self) -> bool:
        """Esc undoes something: a wild not played yet, a gift's first recipient. Any
        other picker is a choice the host waits for."""
        return self.card is not None or self.first is not None


@dataclass(frozen=True, slots=True)
class SeatRow:
    """One seat as the table panel shows it."""

    seat: int
    name: str
    count: int
    score: int
    declared: bool
    exposed: bool
    is_turn: bool
    is_actor: bool
    is_me: bool
    presence: Presence = "here"


Presence = Literal["here", "away", "bot"]
"""A human seat's player: at the table, dropped (seat held), or replaced by a bot for now."""

_BOT_NAME = re.compile(r"Bot (\d+) \((\w+)\)")


def decision_prompt(tr: Translator, phase: str, legal: tuple[str, ...], pending: int) -> str:
    """The instruction for the player's own decision in ``phase``, naming only the answers
    ``legal`` allows: a Draw Two cannot be challenged (O21), stacking is a table option
    (T1), a kids' table has no voluntary draw and its drawn card must be played (K1-4). The
    full screen and the line client both say it."""
    if phase == "penalty":
        stack = any(action.startswith("play ") for action in legal)
        challenge = "challenge" in legal
        if stack:
            key = "prompt.penalty" if challenge else "prompt.penalty_stack"
        else:
            key = "prompt.penalty_challenge" if challenge else "prompt.penalty_simple"
        return tr(key, count=tr.plural("card", pending))
    if phase == "drawn":
        return tr("prompt.drawn" if "pass" in legal else "prompt.drawn_must")
    if phase == "turn":
        # Kids' tables have no voluntary draw (K1-4): "or draw" would be refused.
        plays = any(action.startswith("play ") for action in legal)
        draws = "draw" in legal
        if plays != draws:
            return tr("prompt.turn_play" if plays else "prompt.turn_draw")
    return tr(f"prompt.{phase}")


def seat_name(seat: LobbySeat | None, number: int, tr: Translator) -> str:
    """The name to show for a seat: the player's name, a bot's name in the reader's language
    ("Robot 2 (expert)"), or "Seat 3" for a seat without one (seats count from 1)."""
    if seat is None or not seat.name:
        return tr("seat_name", seat=number + 1)
    found = _BOT_NAME.fullmatch(seat.name) if seat.kind == "bot" else None
    if found is not None and f"level.{found.group(2)}" in EN:
        return tr("bot_name", number=found.group(1), level=tr(f"level.{found.group(2)}"))
    return seat.name


def end_names(name_of: Callable[[int | None], str], end: RoundEnd | GameEnd) -> tuple[str, ...]:
    """Who holds the seats an end's scores are for, as the seats are when it comes: once a
    game is over the lobby may free a seat (its player gone) and move those after it down,
    and the scores still on screen are the game's."""
    return tuple(name_of(seat) for seat in range(len(end.scores)))


def note_autopilot(seats: set[int], kind: str, fields: Mapping[str, object]) -> None:
    """Keep ``seats``, those T3's autopilot plays, up to date with an event: ``autopilot``
    turns one on or off, and a new round starts with none (the engine's autopilot lasts a
    round: a screen showed 'bot playing' for the rest of the game)."""
    seat = fields.get("seat")
    if kind == "round_started":
        seats.clear()
    elif kind == "autopilot" and type(seat) is int:
        if fields.get("on") is True:
            seats.add(seat)
        else:
            seats.discard(seat)


def presence(seat: LobbySeat | None, autopilot: bool = False) -> Presence:
    """``away`` while a dropped player's seat is held, ``bot`` once a bot plays it (the
    host's takeover, or T3's autopilot after two timeouts)."""
    if seat is None or seat.kind != "human":
        return "here"
    if seat.bot_playing or autopilot:
        return "bot"
    return "here" if seat.connected else "away"


def everyone_away(seats: Iterable[tuple[str, Presence]]) -> bool:
    """(kind, presence) of each seat: every human seat is away, and there is one (a table
    restored from its journal waits for its players: the host's screen and hall row say so)."""
    humans = [seen for kind, seen in seats if kind == "human"]
    return bool(humans) and all(seen == "away" for seen in humans)


def presence_word(tr: Translator, presence: str) -> str:
    """``away`` or ``bot playing`` for a human seat whose player is not at the table."""
    return {"away": tr("status.away"), "bot": tr("status.bot")}.get(presence, "")


def keys_in_play(options: Mapping[str, OptionValue]) -> frozenset[str]:
    """The action keys that exist at this table: no Counter-UNO key where the preset has no
    Counter-UNO (kids1, kids2), no challenge key where a Wild Draw Four cannot be
    challenged, no "take" key with a numbers-only deck (kids1: nothing to take), no "pass"
    key where a drawn card that fits must be played (K1-4: a pass is never allowed)."""
    verbs = {"draw", "pass", "uno", "catch", "challenge", "accept"}
    if options.get("must_play_drawn") is True:
        verbs.discard("pass")
    if options.get("counter_uno") is False:
        verbs.discard("catch")
    if options.get("wild_draw_four", "challenge") != "challenge":
        verbs.discard("challenge")
    if options.get("deck") == "numbers":
        verbs.discard("accept")
        verbs.discard("challenge")
    return frozenset(verbs)


class ClientModel:
    def __init__(self, tr: Translator) -> None:
        self.tr = tr
        self.seat: int | None = None
        self.check: int | None = None
        self.table = ""
        self.preset = ""
        self._story_round: int | None = None
        """The round whose story the log tells (from its start, or from when we arrived)."""
        self._away = TimeAway()
        """Back after a drop: the events missed, until the first state."""
        self._drawn: tuple[str, ...] = ()
        """The cards of this seat's last draw (its own private event)."""
        self.gift_cards: tuple[str, ...] = ()
        """The cards of the Draw Two gift being decided, in the order they are given."""
        self.options: dict[str, OptionValue] = {}
        self.lobby: Lobby | None = None
        self.state: State | None = None
        self.hand: tuple[str, ...] = ()
        self.selected = 0
        self.picker: Picker | None = None
        self.log = EventLog()
        self.refusal: str | None = None
        self.screen: ScreenName = "lobby"
        self.round_end: RoundEnd | None = None
        self.game_end: GameEnd | None = None
        self.end_names: tuple[str, ...] = ()
        """Who held each seat when the last round ended (``end_name``)."""
        self.end_seat: int | None = None
        """This player's seat when the last round ended."""
        self.bye: Bye | None = None
        self.host_still_lost: str | None = None
        """The warning of a host silent for minutes, until it welcomes this player again
        (the lobby has no log panel: it shows it where it asks for R)."""
        self.deadline_at: float | None = None
        self.ready = False
        self.watching = False
        """Welcomed without a seat (the game had started): watching until the next one."""
        self.local = False
        """``lanuno play``: a game on this computer (no check number, no connection state)."""
        self.hold_summary = False
        """The round's result stays on screen until the player presses Enter."""
        self.confirm_quit = False
        """Q was pressed during a game: the next key says whether to leave."""
        self.help_open = False
        self.log_scroll = 0
        """Lines of the log scrolled back (PgUp); 0 shows the newest."""
        self.autopilot: set[int] = set()
        """Seats the engine's autopilot plays (T3), from the ``autopilot`` events."""
        self._wild_color: str | None = None
        """Color picked for a wild sent as ``play W`` (wire without ``play W B``)."""

    # ------------------------------------------------------------------ names and views

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        seats = self.lobby.seats if self.lobby else ()
        return seat_name(seats[seat] if 0 <= seat < len(seats) else None, seat, self.tr)

    def end_name(self, seat: int | None) -> str:
        """The name of whoever held ``seat`` when the last round ended (``end_names``)."""
        names = self.end_names
        return names[seat] if seat is not None and 0 <= seat < len(names) else self.name_of(seat)

    def presence_of(self, seat: int) -> Presence:
        seats = self.lobby.seats if self.lobby else ()
        lobby_seat = seats[seat] if 0 <= seat < len(seats) else None
        return presence(lobby_seat, seat in self.autopilot)

    @property
    def keys(self) -> frozenset[str]:
        """The action verbs that exist under this table's rules (kids' presets hide some)."""
        return keys_in_play(self.options)

    @property
    def legal(self) -> tuple[str, ...]:
        return self.state.legal if self.state else ()

    @property
    def phase(self) -> str | None:
        return self.state.phase if self.state else None

    @property
    def my_decision(self) -> bool:
        state = self.state
        return state is not None and self.seat is not None and state.actor == self.seat

    def card_is_legal(self, code: str) -> bool:
        """The host lists this card among what we may play (or return) now."""
        for action in self.legal:
            verb, _, rest = action.partition(" ")
            if verb in ("play", "return") and rest.split(" ", 1)[0] == code:
                return True
        return False

    def can(self, verb: str) -> bool:
        return any(a == verb or a.startswith(verb + " ") for a in self.legal)

    @property
    def selected_card(self) -> str | None:
        return self.hand[self.selected] if self.hand else None

    def seconds_left(self, now: float) -> int | None:
        if self.deadline_at is None:
            return None
        return max(0, int(self.deadline_at - now + 0.999))

    def seat_rows(self) -> list[SeatRow]:
        state = self.state
        if state is None:
            return []
        rows = []
        for seat, count in enumerate(state.counts):
            flags = state.uno[seat]
            rows.append(
                SeatRow(
                    seat=seat,
                    name=self.name_of(seat),
                    count=count,
                    score=state.scores[seat],
                    declared=flags.declared,
                    exposed=flags.exposed,
                    is_turn=seat == state.turn,
                    is_actor=seat == state.actor,
                    is_me=seat == self.seat,
                    presence=self.presence_of(seat),
                )
            )
        return rows

    def exposed_seats(self) -> list[int]:
        state = self.state
        if state is None:
            return []
        return [s for s, flags in enumerate(state.uno) if flags.exposed and s != self.seat]

    def prompt(self, _now: float) -> str:
        """The one-line instruction for this moment."""
        state = self.state
        tr = self.tr
        if state is None:
            return tr("lobby.waiting")
        if state.phase in ("round_over", "game_over"):
            return tr("prompt.round_over")
        if self.watching and self.seat is None:
            return tr("prompt.watching")
        if not self.my_decision:
            exposed = self.exposed_seats()
            if exposed and self.can("catch"):
                return tr("prompt.catch", name=self.name_of(exposed[0]))
            jump = [a.split()[1] for a in state.legal if a.startswith("play ")]
            if jump:  # T6: out of turn, a play is a jump-in
                return tr("prompt.jump_in", card=tr.card(jump[0]))
            return tr("prompt.wait", name=self.name_of(state.actor))
        phase = state.phase
        limit = self.options.get("hand_limit")
        if phase == "excess" and type(limit) is int and len(self.hand) > limit:
            # How many in all: after a penalty the same question comes back several times.
            extra = tr.plural("card", len(self.hand) - limit)
            return tr("prompt.excess_count", limit=limit, count=extra)
        return decision_prompt(tr, phase, state.legal, state.pending)

    # ------------------------------------------------------------------ messages

    def apply(self, message: Message | Notice, now: float) -> tuple[str, ...]:
        """Take one message from the host (or a notice from the client itself); returns
        actions the model sends by itself."""
        if isinstance(message, Notice):
            self._apply_notice(message)
            return ()
        if isinstance(message, State):
            return self._apply_state(message, now)
        if isinstance(message, Event):
            note_autopilot(self.autopilot, message.type, message.fields)
            round_no = started_round(message.type, message.fields)
            if round_no is not None:
                self._story_round = round_no  # the log tells the round from its start
            self._note_gift(message)
            self._away.before_event(self.log, self.tr)
            self.log.add_event(message.type, message.fields, self.name_of, self.tr, self.seat)
        elif isinstance(message, Welcome):
            self.host_still_lost = None
            self._away.welcomed(self.state, message.seat)  # mid-game: back after a drop
            self.seat = message.seat
            self.watching = message.seat is None  # a late joiner: seated at the next game
            self.table = message.table
            self.preset = message.preset
            self.options = dict(message.options)
        elif isinstance(message, Lobby):
            self.lobby = message
            self.preset = message.preset
            self.options = dict(message.options)
            if self.seat is not None and self.seat < len(message.seats):
                self.ready = message.seats[self.seat].ready
        elif isinstance(message, ErrorReply):
            self._refused(message.text, message.rule)
        elif isinstance(message, RoundEnd):
            self.round_end = message
            self.end_names, self.end_seat = end_names(self.name_of, message), self.seat
            self.screen = "round_end"
            self.hold_summary = True
            self.picker = None
            self.deadline_at = None
        elif isinstance(message, GameEnd):
            self.game_end = message
            self.autopilot.clear()  # back in the lobby: no bot plays for anyone there
            if len(self.end_names) != len(message.scores):  # no round end came before it
                self.end_names, self.end_seat = end_names(self.name_of, message), self.seat
            self.screen = "game_end"
            self.picker = None
            self.deadline_at = None
        elif isinstance(message, Bye):
            self.bye = message
            self.deadline_at = None
            self.log.add(LogLine(bye_line(message.code, message.reason, self.tr), "error"))
        return ()

    def _note_gift(self, message: Event) -> None:
        """K2-4: the cards just drawn (our own private event) are the ones the Draw Two
        gift hands out, in that order: the gift picker names them."""
        fields = message.fields
        cards = fields.get("cards")
        if message.type == "cards_drawn" and isinstance(cards, tuple):
            self._drawn = tuple(c for c in cards if isinstance(c, str))
        elif message.type == "drew" and fields.get("seat") == self.seat:
            self.gift_cards = self._drawn if fields.get("cause") == "gift" else ()

    def _refused(self, text: str, rule: str | None, *, from_host: bool = True) -> None:
        self._wild_color = None
        # The host's sentences are the engine's (translated); the client's own are shown as
        # they are: a fairness alarm must never turn into a vague "not possible now".
        self.refusal = translate_refusal(text, self.tr, self.name_of) if from_host else text
        rule_text = f" {self.tr('error.rule', rule=rule)}" if rule else ""
        self.log.add(LogLine(refused_line(self.refusal, self.tr) + rule_text, "error"))

    def _apply_notice(self, notice: Notice) -> None:
        if isinstance(notice, SeedUnused):
            self.log.add_event("my_seed_unused", {"round": notice.round}, self.name_of, self.tr)
        elif isinstance(notice, FairnessAlarm | SeatLost):
            self._refused(alarm_text(notice, self.tr), None, from_host=False)
        elif isinstance(notice, HostStillLost):  # a warning, not a refusal of an action
            self.host_still_lost = alarm_text(notice, self.tr)
            self.log.add(LogLine(self.host_still_lost, "error"))

    def _apply_state(self, state: State, now: float) -> tuple[str, ...]:
        previous = self.state
        keep = self.selected_card
        self.state = state
        line = mid_round_line(self.tr, state, self._story_round)
        if line is not None:  # arrived mid-round: the log has none of the round's story
            self._story_round = state.round
            self.log.add(LogLine(line, "info"))
        self._away.at_state(self.log, self.tr, state)
        self.hand = sort_hand(state.hand)
        self.deadline_at = None if state.deadline_ms is None else now + state.deadline_ms / 1000
        if state.phase not in _OVER and not self._summary_stays(state):
            self.screen = "play"
        elif state.phase == "round_over" and previous is None and self.screen == "lobby":
            # Came in between two rounds (a late guest, a client started again): the table,
            # whose round is over, not a lobby the table is not in.
            self.screen = "play"
        new_decision = self.my_decision and (
            previous is None
            or previous.actor != state.actor
            or previous.phase != state.phase
            or previous.round != state.round
        )
        if new_decision:
            self.refusal = None  # it answered an earlier moment (the log keeps it)
            self.log_scroll = 0  # the newest lines say what was just played
        self._restore_selection(keep, prefer_legal=new_decision)
        return self._settle_picker()

    def _summary_stays(self, state: State) -> bool:
        """The round's result stays up until Enter, unless a timed decision of ours comes
        (a move timer would otherwise play for the player while they read)."""
        if self.screen != "round_end" or not self.hold_summary:
            return False
        timed = state.deadline_ms is not None and state.actor == self.seat
        if timed:
            self.hold_summary = False
        return not timed

    @property
    def next_round_started(self) -> int | None:
        """The new round's number when it began while the summary is still shown."""
        state, end = self.state, self.round_end
        if self.screen != "round_end" or state is None or end is None:
            return None
        if state.round > end.round and state.phase not in ("round_over", "game_over"):
            return state.round
        return None

    def continue_(self) -> None:
        """Enter on the round's result: back to the table (or wait there for the next
        round); on the game's: the lobby, where the next game gathers."""
        self.hold_summary = False
        if self.screen == "game_end":
            self.screen = "lobby"
        elif self.next_round_started is not None:
            self.screen = "play"

    def scroll_log(self, lines: int) -> None:
        """PgUp (positive) and PgDn (negative); the log view clamps it to what exists."""
        self.log_scroll = max(0, self.log_scroll + lines)

    def _restore_selection(self, keep: str | None, *, prefer_legal: bool) -> None:
        if not self.hand:
            self.selected = 0
            return
        if prefer_legal and (keep is None or not self.card_is_legal(keep)):
            for index, code in enumerate(self.hand):
                if self.card_is_legal(code):
                    self.selected = index
                    return
        if keep in self.hand:
            # The same card, or the nearest copy of it, stays selected across updates.
            self.selected = self.hand.index(keep)
        self.selected = min(self.selected, len(self.hand) - 1)

    def _settle_picker(self) -> tuple[str, ...]:
        """Open, keep or close the picker for the phase we are in; answer a pending wild."""
        picker = self.picker
        phase = self.phase
        if not self.my_decision:
            if picker is not None and picker.card is None:
                self.picker = None
            if picker is not None and picker.card is not None and not self.can("play"):
                self.picker = None
            return ()
        if phase == "choose_color":
            color = self._wild_color
            self._wild_color = None
            if color is not None and f"color {color}" in self.legal:
                self.picker = None
                return (f"color {color}",)
            if picker is None or picker.kind != "color" or picker.card is not None:
                self.picker = Picker("color", self._legal_colors())
            return ()
        seat_kind = SEAT_PICKER_PHASES.get(phase or "")
        if seat_kind is not None:
            options = self._seat_options(seat_kind, None)
            # A gift half-chosen (first recipient picked) survives an unrelated update.
            half_chosen = (
                picker is not None and picker.kind == seat_kind and picker.first is not None
            )
            if not half_chosen and (picker is None or picker.options != options):
                self.picker = Picker(seat_kind, options)
            return ()
        if picker is not None and (picker.card is None or not self.card_is_legal(picker.card)):
            self.picker = None
        return ()

    def _legal_colors(self) -> tuple[str, ...]:
        listed = tuple(c for c in COLOR_LETTERS if f"color {c}" in self.legal)
        return listed or COLOR_LETTERS

    def _seat_options(self, kind: PickerKind, first: int | None) -> tuple[str, ...]:
        seats: list[str] = []
        for action in self.legal:
            words = action.split(" ")
            if kind == "gift" and words[0] == "give":
                choice = words[1] if first is None else (words[2] if len(words) > 2 else None)
                if first is not None and words[1] != str(first):
                    continue
            elif words[0] == kind and len(words) == 2:
                choice = words[1]
            else:
                continue
            if choice is not None and choice not in seats:
                seats.append(choice)
        return tuple(sorted(seats, key=int))

    # ------------------------------------------------------------------ the player's keys

    def move(self, delta: int) -> None:
        if self.hand:
            self._choose_card((self.selected + delta) % len(self.hand))

    def select(self, index: int) -> bool:
        """Choose the card at ``index`` (0-based); False when there is no such card."""
        if 0 <= index < len(self.hand):
            self._choose_card(index)
            return True
        return False

    def _choose_card(self, index: int) -> None:
        if index != self.selected:
            # Another card: the status line names it again, no longer a refusal that was
            # about the card before (the log keeps the refusal).
            self.refusal = None
        self.selected = index

    def activate(self) -> tuple[str, ...]:
        """Enter (or a click) on the selected card: play it, return it, or pick a color."""
        if self.picker is not None:
            return self.choose()
        card = self.selected_card
        if card is None or self.state is None:
            return ()
        self.refusal = None
        if self.phase == "excess" and self.my_decision:
            return (f"return {card}",)
        if card in WILDS and self.card_is_legal(card):
            self.picker = Picker("color", COLOR_LETTERS, card=card)
            return ()
        return (f"play {card}",)

    def play_index(self, index: int) -> tuple[str, ...]:
        return self.activate() if self.select(index) else ()

    def simple(self, verb: str) -> tuple[str, ...]:
        """``draw``, ``pass``, ``uno``, ``challenge``, ``accept``: sent as they are, if this
        table has them (P at a kids' table drew "You may pass only after drawing a card.",
        where a turn passes by itself)."""
        if self.state is None:
            return ()
        if verb not in self.keys:
            self.refusal = self.tr("refusal.no_key")
            return ()
        self.refusal = None
        self.picker = None if self.picker and self.picker.card else self.picker
        return (verb,)

    def catch(self) -> tuple[str, ...]:
        """Counter-UNO on the seat the host lists, else on the seat shown as exposed."""
        listed = [a for a in self.legal if a.startswith("catch ")]
        if listed:
            return (listed[0],)
        exposed = self.exposed_seats()
        if exposed:
            return (f"catch {exposed[0]}",)
        # Nobody to name: the key would do nothing at all, so say why.
        if "catch" not in self.keys:
            self.refusal = self.tr("refusal.no_counter_uno")
        elif self._silent_kids():
            self.refusal = f"{self.tr('refusal.kids_immune')} {self.tr('error.rule', rule='KA1')}"
        else:
            self.refusal = self.tr("catch.nobody")
        return ()

    def _silent_kids(self) -> bool:
        """KA1: a kid down to one card without saying UNO, whom nobody may catch here (the
        host never shows a kid exposed)."""
        state, lobby = self.state, self.lobby
        if (
            state is None
            or lobby is None
            or self.options.get("kids_immune_to_counter_uno") is not True
        ):
            return False
        return any(
            seat != self.seat
            and count == 1
            and not state.uno[seat].declared
            and seat < len(lobby.seats)
            and lobby.seats[seat].kid
            for seat, count in enumerate(state.counts)
        )

    def toggle_ready(self) -> bool:
        self.ready = not self.ready
        return self.ready

    # ------------------------------------------------------------------ the picker

    def picker_move(self, delta: int) -> None:
        picker = self.picker
        if picker is not None and picker.options:
            self.picker = replace(picker, selected=(picker.selected + delta) % len(picker.options))

    def picker_select(self, index: int) -> bool:
        picker = self.picker
        if picker is not None and 0 <= index < len(picker.options):
            self.picker = replace(picker, selected=index)
            return True
        return False

    def choose_color(self, letter: str) -> tuple[str, ...]:
        picker = self.picker
        if picker is None or picker.kind != "color" or letter not in picker.options:
            return ()
        return self.choose(picker.options.index(letter))

    def cancel(self) -> None:
        """Esc: drop a wild's color picker; a phase's picker stays (the host waits for it)."""
        picker = self.picker
        if picker is None:
            return
        if picker.card is not None:
            self.picker = None
        elif picker.first is not None:
            self.picker = Picker("gift", self._seat_options("gift", None))

    def choose(self, index: int | None = None) -> tuple[str, ...]:
        picker = self.picker
        if picker is None or not picker.options:
            return ()
        if index is not None:
            if not 0 <= index < len(picker.options):
                return ()
            picker = replace(picker, selected=index)
        value = picker.value
        self.refusal = None
        if picker.kind == "color":
            if picker.card is None:
                self.picker = None
                return (f"color {value}",)
            self.picker = None
            one_step = f"play {picker.card} {value}"
            if one_step in ACTION_NOTATIONS:
                return (one_step,)
            self._wild_color = value
            return (f"play {picker.card}",)
        if picker.kind == "gift":
            if picker.first is None:
                seconds = self._seat_options("gift", int(value))
                if seconds:
                    self.picker = Picker("gift", seconds, first=int(value))
                    return ()
                self.picker = None
                return (f"give {value}",)
            self.picker = None
            return (f"give {picker.first} {value}",)
        self.picker = None
        return (f"{picker.kind} {value}",)

    # ------------------------------------------------------------------ end screens

    def final_scores(self) -> list[tuple[str, int, bool, bool]]:
        """(name, score, winner?, mine?) for the round-end or game-end table, best first."""
        end: RoundEnd | GameEnd | None = self.game_end if self.screen == "game_end" else None
        end = end or self.round_end
        if end is None:
            return []
        rows = [
            (self.end_name(s), score, s == end.winner, s == self.end_seat)
            for s, score in enumerate(end.scores)
        ]
        return sorted(rows, key=lambda row: (-row[1], row[0]))

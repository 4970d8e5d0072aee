"""Wire events as plain sentences ("Lea played Wild Draw Four and chose blue.").

The host sends the engine's events (lanuno/engine/events.py) as ``Event(type, fields)`` with
the engine's field names. A field that is missing or of an unexpected type never breaks the
log: the sentence falls back to "?" for it, and an unknown event type is shown by name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from lanuno.ui.i18n import EN, Translator
from lanuno.wire.messages import EventValue, State

Names = Callable[[int | None], str]
"""Seat number -> the name to show."""


@dataclass(frozen=True, slots=True)
class LogLine:
    text: str
    kind: str = "event"
    """``event``, ``mine`` (private to this seat), ``error`` or ``info``: a style class."""


def _int(fields: Mapping[str, EventValue], key: str) -> int | None:
    value = fields.get(key)
    return value if type(value) is int else None


_DRAW_REASONS = ("penalty", "counter_uno", "challenge", "timeout", "gift")
"""Draw causes narrated with their reason; any other draw is a plain one."""


def _str(fields: Mapping[str, EventValue], key: str) -> str:
    value = fields.get(key)
    return value if isinstance(value, str) else "?"


def _list(fields: Mapping[str, EventValue], key: str) -> tuple[int | str, ...]:
    value = fields.get(key)
    return value if isinstance(value, tuple) else ()


def _card(tr: Translator, code: str) -> str:
    try:
        return tr.card(code)
    except (KeyError, IndexError):
        return code


def _cards(tr: Translator, codes: tuple[int | str, ...]) -> str:
    return ", ".join(_card(tr, str(code)) for code in codes) or "-"


def describe(
    kind: str,
    fields: Mapping[str, EventValue],
    names: Names,
    tr: Translator,
    me: int | None = None,
) -> LogLine:
    """One sentence for one event; ``me`` (the reader's seat) is narrated in the second
    person ("You played red 7", "Max caught you"), never by name; a move a bot made in
    that seat while its player was away (``bot``: sent again after a resume) says so ("A
    bot played your red 7 for you")."""
    seat = _int(fields, "seat")
    count = _int(fields, "count") or 0
    narration = _Narration(
        fields, names, tr, me, seat, names(seat), count, tr.plural("card", count), by_bot(fields)
    )
    for part in (_table_events, _call_events, _private_events):
        line = part(kind, narration)
        if line is not None:
            return line
    return LogLine(tr("ev.other", type=kind.replace("_", " ")), "info")


def by_bot(fields: Mapping[str, EventValue]) -> bool:
    """The event is of a move a bot made in the reader's seat (messages.md, "After a
    resume": only a resumed seat's own missed moves are marked)."""
    return fields.get("bot") is True


class _Unset:
    """The default subject of ``_Narration.say``: the event's seat (None names nobody)."""


_UNSET = _Unset()


@dataclass(frozen=True, slots=True)
class _Narration:
    """One event's words: its fields, the names, and the reader's seat (``me``)."""

    fields: Mapping[str, EventValue]
    names: Names
    tr: Translator
    me: int | None
    seat: int | None
    name: str
    count: int
    cards: str
    bot: bool
    """A bot made this move in the reader's seat."""

    def say(
        self,
        key: str,
        subject: int | _Unset | None = _UNSET,
        obj: int | None = None,
        **values: object,
    ) -> str:
        """``key.you`` when the reader is the subject (the event's seat unless named),
        ``key.bot`` when a bot acted as the reader, ``key.you_target`` when the object."""
        me, tr = self.me, self.tr
        if isinstance(subject, _Unset):
            subject = self.seat
        if me is not None and subject == me and self.bot and f"{key}.bot" in EN:
            return tr(f"{key}.bot", **values)
        if me is not None and subject == me and f"{key}.you" in EN:
            return tr(f"{key}.you", **values)
        if me is not None and obj == me and f"{key}.you_target" in EN:
            return tr(f"{key}.you_target", **values)
        return tr(key, **values)


def _table_events(kind: str, n: _Narration) -> LogLine | None:
    """Deals, plays, draws, turns and the pile."""
    fields = n.fields
    names = n.names
    tr = n.tr
    name = n.name
    count = n.count
    cards = n.cards
    say = n.say
    if kind == "round_started":
        hand = _int(fields, "hand_size")
        return LogLine(
            say(
                "ev.round_started",
                subject=_int(fields, "dealer"),
                round=_int(fields, "round_no") or "?",
                name=names(_int(fields, "dealer")),
                count=tr.plural("card", hand) if hand is not None else "?",
            )
        )
    if kind in ("card_turned", "card_returned"):
        return LogLine(tr(f"ev.{kind}", card=_card(tr, _str(fields, "card"))))
    if kind == "played":
        key = "ev.jumped_in" if fields.get("jump_in") is True else "ev.played"
        return LogLine(say(key, name=name, card=_card(tr, _str(fields, "card"))))
    if kind == "color_chosen":
        return LogLine(say("ev.color_chosen", name=name, color=_color(tr, fields)))
    if kind == "drew":
        cause = _str(fields, "cause")
        if cause in _DRAW_REASONS:
            key = {"counter_uno": "caught"}.get(cause, cause)
            return LogLine(say(f"ev.drew_{key}", name=name, count=cards))
        key = "ev.drew_one" if count == 1 else "ev.drew_many"
        return LogLine(say(key, name=name, count=cards))
    if kind in ("passed", "skipped", "uno_declared", "uno_exposed", "timed_out"):
        return LogLine(say(f"ev.{kind}", name=name))
    if kind in ("direction_changed", "hands_rotated"):
        if kind == "hands_rotated":
            return LogLine(tr("ev.hands_rotated"))
        ccw = _int(fields, "direction") == -1
        return LogLine(tr("ev.direction_ccw" if ccw else "ev.direction_cw"))
    if kind == "reshuffled":
        key = "ev.reshuffled_stalled" if fields.get("gathered") is True else "ev.reshuffled"
        return LogLine(tr(key, count=cards))
    if kind == "my_seed_unused":
        return LogLine(tr("ev.my_seed_unused", round=fields.get("round", "?")))
    if kind == "penalty_pending":
        amount = tr.plural("card", _int(fields, "amount") or 0)
        return LogLine(say("ev.penalty_pending", name=name, count=amount))
    return None


def _call_events(kind: str, n: _Narration) -> LogLine | None:
    """Calls, challenges, gifts, swaps and the round's end."""
    fields = n.fields
    names = n.names
    tr = n.tr
    me = n.me
    name = n.name
    cards = n.cards
    say = n.say
    if kind == "counter_uno":
        caught = fields.get("caught") is True
        caller, target = _int(fields, "caller"), _int(fields, "target")
        return LogLine(
            say(
                "ev.counter_uno_caught" if caught else "ev.counter_uno_missed",
                subject=caller,
                obj=target,
                caller=names(caller),
                target=names(target),
            )
        )
    if kind == "challenged":
        bluff = fields.get("bluff") is True
        challenger, target = _int(fields, "challenger"), _int(fields, "target")
        return LogLine(
            say(
                "ev.challenged_bluff" if bluff else "ev.challenged_fair",
                subject=challenger,
                obj=target,
                challenger=names(challenger),
                target=names(target),
            )
        )
    if kind == "gave":
        # One recipient per card: both cards to one player name them once ("to you, you").
        seats = dict.fromkeys(r for r in _list(fields, "recipients") if isinstance(r, int))
        recipients = ", ".join(tr("you_object") if r == me else names(r) for r in seats)
        return LogLine(say("ev.gave", name=name, recipients=recipients or "?"))
    if kind == "hands_swapped":
        target = _int(fields, "target")
        return LogLine(say("ev.hands_swapped", obj=target, name=name, target=names(target)))
    if kind == "pile_dealt_out":
        dealt = sum(c for c in _list(fields, "counts") if isinstance(c, int))
        return LogLine(say("ev.pile_dealt_out" if dealt else "ev.pile_dealt_out_none", name=name))
    if kind == "cards_returned":
        return LogLine(say("ev.cards_returned", name=name, count=cards))
    if kind == "autopilot":
        on = fields.get("on") is True
        return LogLine(say("ev.autopilot_on" if on else "ev.autopilot_off", name=name))
    if kind in ("round_ended", "game_ended"):
        winner = _int(fields, "winner")
        points = tr.plural("point", _int(fields, "points") or 0)
        return LogLine(say(f"ev.{kind}", subject=winner, name=names(winner), points=points))
    return None


def _private_events(kind: str, n: _Narration) -> LogLine | None:
    """What only the reader sees: its cards and a hand shown to it."""
    fields = n.fields
    names = n.names
    tr = n.tr
    say = n.say
    if kind in ("hand_dealt", "cards_drawn"):
        key = f"ev.{kind}.bot" if n.bot and kind == "cards_drawn" else f"ev.{kind}"
        return LogLine(tr(key, cards=_cards(tr, _list(fields, "cards"))), "mine")
    if kind == "cards_received":
        return LogLine(
            tr(
                "ev.cards_received",
                cards=_cards(tr, _list(fields, "cards")),
                name=names(_int(fields, "source")),
            ),
            "mine",
        )
    if kind == "hand_revealed":
        owner = _int(fields, "owner")
        return LogLine(
            say(
                "ev.hand_revealed",
                subject=owner,
                name=names(owner),
                cards=_cards(tr, _list(fields, "cards")),
            ),
            "mine",
        )
    return None


def _color(tr: Translator, fields: Mapping[str, EventValue]) -> str:
    letter = _str(fields, "color")
    return tr.color(letter) if letter in ("R", "Y", "G", "B") else letter


class EventLog:
    """The last ``limit`` lines, with a wild and its color merged into one sentence, and
    a player's cards returned one by one (K1-5, K2-9) into one line."""

    def __init__(self, limit: int = 200, *, merge_returns: bool = True) -> None:
        """``merge_returns``: False where lines are printed as they come (a line once
        printed cannot be rewritten)."""
        self.limit = limit
        self.merge_returns = merge_returns
        self.lines: list[LogLine] = []
        self._open_wild: tuple[int | None, str] | None = None
        """(seat, card) of a wild just logged, whose color may follow in the next event."""
        self._open_draw: tuple[int | None, int] | None = None
        """(seat, count) of the reader's own cards just logged by face ("You drew red 7."):
        the public "drew" that follows says it again, so a plain draw is not logged twice."""
        self._open_timeout: int | None = None
        """The seat whose timeout was just logged: the draw that the timeout makes is then a
        plain draw ("ran out of time" once, not twice)."""
        self._open_returns: tuple[int | None, int] | None = None
        """(seat, count) of the cards a player just returned under the draw pile: the next
        return of theirs adds to that line (16 returns were 16 lines)."""

    def add(self, line: LogLine) -> None:
        self._open_wild = self._open_draw = self._open_timeout = self._open_returns = None
        self._append(line)

    def add_event(
        self,
        kind: str,
        fields: Mapping[str, EventValue],
        names: Names,
        tr: Translator,
        me: int | None = None,
    ) -> None:
        open_wild, self._open_wild = self._open_wild, None
        open_draw, self._open_draw = self._open_draw, None
        open_timeout, self._open_timeout = self._open_timeout, None
        open_returns, self._open_returns = self._open_returns, None
        seat = _int(fields, "seat")
        if kind == "cards_returned" and self.merge_returns:
            count = _int(fields, "count") or 0
            if open_returns is not None and open_returns[0] == seat:
                count += open_returns[1]
                self.lines.pop()
            self._open_returns = (seat, count)
            fields = {**fields, "count": count}
        if kind == "drew" and open_timeout == seat and _str(fields, "cause") == "timeout":
            fields = {**fields, "cause": "draw"}
        if (
            kind == "drew"
            and open_draw == (seat, _int(fields, "count"))
            and _str(fields, "cause") not in _DRAW_REASONS
        ):
            return  # "You drew red 7." already said it; a penalty's line still says why
        if kind == "color_chosen" and open_wild is not None and open_wild[0] == seat:
            mine = me is not None and seat == me
            voice = (".bot" if by_bot(fields) else ".you") if mine else ""
            self.lines[-1] = LogLine(
                tr(
                    f"ev.played_chose{voice}",
                    name=names(seat),
                    card=_card(tr, open_wild[1]),
                    color=_color(tr, fields),
                )
            )
            return
        self._append(describe(kind, fields, names, tr, me))
        card = _str(fields, "card")
        if kind == "played" and card in ("W", "W+4", "X"):
            self._open_wild = (seat, card)
        if kind == "cards_drawn":
            self._open_draw = (seat, len(_list(fields, "cards")))
            self._open_timeout = open_timeout  # the private draw sits between the two
        if kind == "timed_out":
            self._open_timeout = seat
        if kind == "autopilot":  # T3 comes between the second timeout and its draw
            self._open_timeout = open_timeout

    def _append(self, line: LogLine) -> None:
        self.lines.append(line)
        if len(self.lines) > self.limit:
            del self.lines[: len(self.lines) - self.limit]

    def last(self, count: int) -> list[LogLine]:
        return self.lines[-count:] if count > 0 else []


def started_round(kind: str, fields: Mapping[str, EventValue]) -> int | None:
    """The round a ``round_started`` event starts (None for any other event)."""
    return _int(fields, "round_no") if kind == "round_started" else None


class TimeAway:
    """A player's log back after a drop, for both clients. A resumed seat's host sends the
    events of the round it missed between its ``welcome`` and the first ``state``
    (messages.md, "After a resume"): the log tells them under a heading ("While you were
    disconnected:") and closes them ("You are back at the table."). A host from before
    that sends none: one line then says where the round stands (``went_on_line``)."""

    def __init__(self) -> None:
        self._before: State | None = None
        """The last state before the drop, from the welcome back to the first state."""
        self._told = 0
        """Events of the time away told so far."""

    def welcomed(self, last: State | None, seat: int | None) -> None:
        """A ``welcome``: a seat's, with a game under way before (not over: a welcome in
        the lobby seats a player for the next game), is the seat back after a drop."""
        away = seat is not None and last is not None and last.phase != "game_over"
        self._before, self._told = (last if away else None), 0

    def before_event(self, log: EventLog, tr: Translator) -> None:
        """Call before logging an event: the heading, before the first one missed."""
        if self._before is None:
            return
        if not self._told:
            log.add(LogLine(tr("log.away"), "info"))
        self._told += 1

    def at_state(self, log: EventLog, tr: Translator, state: State) -> bool:
        """Call at every state: the close of the time away (or where the round stands, if
        no events came); True when the log got a line."""
        before, told = self._before, self._told
        self._before, self._told = None, 0
        if before is None:
            return False
        line = tr("log.back") if told else went_on_line(tr, before, state)
        if line is None:
            return False
        log.add(LogLine(line, "info"))
        return True


def went_on_line(tr: Translator, before: State | None, state: State) -> str | None:
    """Back at the table after a drop (a new welcome, then this state), from a host that
    sends no events of the time away (``TimeAway``): say that the round went on and where
    it stands. None when nothing happened meanwhile (the same state id), when there was no
    round before, or when the round is another (``mid_round_line`` says where it stands)."""
    if before is None or state.sid == before.sid or state.round != before.round:
        return None
    if state.top is None or state.phase in ("round_over", "game_over"):
        return None
    cards = tr.plural("card", len(state.hand))
    return tr("log.went_on", card=tr.card(state.top), cards=cards)


def mid_round_line(tr: Translator, state: State, told_round: int | None) -> str | None:
    """Where the round stands, for a log that did not tell this round from its start (it
    came in mid-round: a late guest, a restarted client, a screen paired late); None when
    it did, or when no round is being played."""
    if state.round == told_round or state.top is None or state.phase in ("round_over", "game_over"):
        return None
    return tr("log.mid_round", round=state.round, card=tr.card(state.top))

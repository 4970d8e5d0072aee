"""What each seat may see: the security boundary between the engine and the wire.

The engine knows every hand; a seat may see its own hand and legal actions, the public
table, and the events addressed to everyone or to it. Everything a client receives about
the game is built here, from the engine's views (``Game.table_view`` and
``Game.seat_view``), never from its internal state:

- ``public_state``: the table as a spectator or the shared screen sees it (no hand).
- ``seat_state``: the public state plus that seat's hand and legal actions, derived with
  ``dataclasses.replace`` so a public field cannot differ between seats.
- ``event_message``: an engine event as the wire ``event``, with its audience (None:
  public; a seat: that seat alone).
- ``missed_events``: the events of the round a seat missed while away, as it may see them
  (sent again after its resume).
- ``check_recipient``: the rule the table's one sending point (``Table._out``) asserts:
  nothing private reaches anyone but its owner.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from lanuno.engine.actions import Action
from lanuno.engine.events import Event as EngineEvent
from lanuno.engine.game import Game
from lanuno.engine.rules import Rules
from lanuno.wire.messages import MAX_DEADLINE_MS, Event, Message, OptionValue, State, UnoFlags


def action_notation(action: Action) -> str:
    """Wire notation: the engine notation without the seat prefix (``play W+4 B``)."""
    return " ".join((action.verb, *action.args()))


def rules_options(rules: Rules) -> dict[str, OptionValue]:
    return {k: v for k, v in rules.to_dict().items() if k != "preset"}


def public_state(game: Game, *, sid: int, playing: bool, now: float) -> State:
    """The table anyone may see: counts, top card, turn, scores; no hand, no legal list.
    ``playing``: a round is being played (the actor's deadline is shown)."""
    table = game.table_view()
    deadline = game.next_deadline() if playing else None
    deadline_ms = (
        None if deadline is None else max(0, min(MAX_DEADLINE_MS, int((deadline - now) * 1000)))
    )
    exposed = table.exposed
    color = table.color
    return State(
        sid=sid,
        round=table.round_no,
        hand=(),
        counts=table.counts,
        top=table.top.code if table.discard else None,
        color=None if color is None else color.value,
        direction=table.direction,
        turn=table.turn,
        actor=table.actor if table.winner is None else None,
        phase="game_over" if game.over else table.phase.value,
        pending=table.pending,
        legal=(),
        uno=tuple(UnoFlags(d, exposed == s) for s, d in enumerate(table.declared)),
        scores=table.scores,
        draw_pile=table.draw_pile_size,
        discard_count=len(table.discard),
        deadline_ms=deadline_ms,
        dealer=table.dealer,
    )


def seat_state(game: Game, seat: int, public: State, *, playing: bool) -> State:
    """``public`` plus what ``seat`` alone may see: its hand, and its legal actions while a
    round is played. Only ever sent to that seat (``check_recipient``)."""
    view = game.seat_view(seat)
    hand = tuple(card.code for card in view.hand)
    legal = tuple(action_notation(a) for a in view.legal) if playing else ()
    if not hand and not legal:
        return public
    return dataclasses.replace(public, hand=hand, legal=legal)


def event_message(event: EngineEvent, sid: int) -> tuple[int | None, Event]:
    """The wire event and its audience: None for everyone, else the one seat it is for."""
    data = event.to_dict()
    kind = data.pop("type")
    return event.audience, Event(sid=sid, type=kind, fields=_event_fields(data))


MAX_MISSED_EVENTS = 500
"""A resumed seat gets at most the latest this many events it missed: about 140 KB of
frames, far below the 1 MiB a peer may have queued before it is cut off (framing.md), and
more than a player's log keeps."""


class SentEvent(NamedTuple):
    """How one engine event of the round went out."""

    sid: int
    bot_for: int | None
    """The seat whose move a bot made (the autopilot, or a takeover of a dropped seat)."""


def missed_events(
    events: Sequence[EngineEvent], sent: Sequence[SentEvent], seat: int, seen_sid: int
) -> list[tuple[int | None, Event]]:
    """The events (one round's, each sent as ``sent`` says) after ``seen_sid`` that ``seat``
    may see, in order, with their audience as ``event_message`` gives it: the public ones
    and the seat's own private ones, never another seat's; the latest
    ``MAX_MISSED_EVENTS`` of them. An event of a move a bot made for ``seat`` carries
    ``bot: true`` (what the player did not do themselves)."""
    assert len(events) == len(sent), "an event of the round without its sid"
    missed: list[tuple[int | None, Event]] = []
    for event, (sid, bot_for) in zip(events, sent, strict=True):
        if sid <= seen_sid:
            continue
        audience, message = event_message(event, sid)
        if audience is not None and audience != seat:
            continue
        if bot_for == seat:
            message = dataclasses.replace(message, fields={**message.fields, "bot": True})
        missed.append((audience, message))
    return missed[-MAX_MISSED_EVENTS:]


def _event_fields(data: Mapping[str, Any]) -> dict[str, Any]:
    fields: dict[str, Any] = {}
    for key, value in data.items():
        fields[key] = tuple(value) if isinstance(value, list) else value
    return fields


def check_recipient(recipient_seat: int | None, message: Message, owner: int | None) -> None:
    """Refuse (AssertionError: a bug, never a runtime choice) to address private data to
    anyone but its owner. ``owner``: the seat whose private cards ``message`` carries, None
    for a public message; ``recipient_seat``: the receiving connection's seat, if any."""
    if owner is not None and recipient_seat != owner:
        raise AssertionError(f"private data of seat {owner} addressed to seat {recipient_seat}")
    if isinstance(message, State) and message.hand and owner is None:
        raise AssertionError("a state with a hand must name its owner")

"""Line-based views: a plain client a person can play a whole game with, and a plain log
of the shared screen (for ``--headless`` hosts and terminals without the full-screen app).

The client prints the table when something changes and reads lines: an action in
notation (``play R7``, ``play W+4 B``, ``draw``, ``uno``, ``catch 2``), or the number of a
legal action from the list, or ``ready``, ``state``, ``help``, ``quit``.
"""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Callable
from typing import TextIO

from lanuno.ui.contracts import ClientSession, HostScreen
from lanuno.wire.crypto import format_check_number
from lanuno.wire.messages import (
    Bye,
    ErrorReply,
    Event,
    GameEnd,
    HostSeedReveal,
    Lobby,
    Message,
    RoundEnd,
    SeedCommit,
    State,
    Welcome,
)

HELP = (
    "Type an action (play R7, play W+4 B, draw, pass, uno, color G, catch 2, challenge,\n"
    "accept), or the number of one listed under 'you may', or: ready, state, help, quit."
)


def normalize_action(line: str) -> str:
    """``Play r7`` -> ``play R7``: verbs lower case, cards and colors upper case."""
    words = line.split()
    if not words:
        return ""
    return " ".join([words[0].lower(), *(w.upper() for w in words[1:])])


def describe_event(event: Event, names: list[str]) -> str:
    def who(key: str) -> str:
        value = event.fields.get(key)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value < len(names):
            return names[value]
        return str(value)

    f = event.fields
    kind = event.type
    if kind == "played":
        return f"{who('seat')} plays {f.get('card')}"
    if kind == "drew":
        return f"{who('seat')} draws {f.get('count')} ({f.get('cause')})"
    if kind == "color_chosen":
        return f"{who('seat')} chooses {f.get('color')}"
    if kind in ("cards_drawn", "hand_dealt", "cards_received"):
        cards = " ".join(str(c) for c in f.get("cards") or ())  # type: ignore[union-attr]
        return f"you get {cards}"
    if kind == "uno_declared":
        return f"{who('seat')} says UNO!"
    if kind == "counter_uno":
        caught = "caught" if f.get("caught") else "missed"
        return f"{who('caller')} calls Counter-UNO on {who('target')}: {caught}"
    if kind == "round_started":
        return f"round {f.get('round_no')} starts"
    details = ", ".join(f"{k}={v}" for k, v in f.items())
    return f"{kind} {details}".strip()


def render_state(state: State, seat: int | None, names: list[str]) -> str:
    def name(s: int | None) -> str:
        return "-" if s is None else (names[s] if s < len(names) else f"seat {s}")

    lines = [
        f"round {state.round}  top {state.top} (color {state.color})  "
        f"draw pile {state.draw_pile}  waiting for {name(state.actor)} [{state.phase}]"
        + (f"  {state.deadline_ms // 1000} s left" if state.deadline_ms is not None else ""),
        "  "
        + "  ".join(
            f"{name(s)}:{count}{'*' if s == state.actor else ''}"
            f"{' UNO' if state.uno[s].declared else ''}"
            for s, count in enumerate(state.counts)
        ),
    ]
    if seat is not None:
        lines.append(f"your hand ({name(seat)}): {' '.join(state.hand) or '-'}")
        if state.legal:
            choices = "  ".join(f"{i}) {a}" for i, a in enumerate(state.legal, 1))
            lines.append(f"you may: {choices}")
    return "\n".join(lines)


class PlainClient:
    """Shows what the session receives and sends what the person types."""

    def __init__(self, session: ClientSession, out: TextIO = sys.stdout) -> None:
        self.session = session
        self.out = out
        self.names: list[str] = []
        self.state: State | None = None
        self.finished = False

    def say(self, text: str) -> None:
        print(text, file=self.out, flush=True)

    def show(self, message: Message) -> None:
        seat = self.session.seat
        if isinstance(message, Welcome):
            check = self.session.check_number
            shown = format_check_number(check) if check is not None else "?"
            where = (
                "you are watching: you will be seated when this game ends"
                if message.seat is None
                else f"you are seat {message.seat}"
            )
            self.say(
                f"welcome to {message.table} ({message.preset}); {where}."
                f" Check number {shown}: it must match the shared screen."
            )
        elif isinstance(message, Lobby):
            self.names = [s.name or "(empty)" for s in message.seats]
            seats = ", ".join(
                f"{s.name}{' (ready)' if s.ready else ''}" for s in message.seats if s.name
            )
            self.say(f"lobby: {seats}. Type 'ready' when you are.")
        elif isinstance(message, State):
            changed = (
                self.state is None
                or self.state.legal != message.legal
                or (message.actor == seat and self.state.sid != message.sid)
            )
            self.state = message
            if changed:
                self.say(render_state(message, seat, self.names))
        elif isinstance(message, Event):
            self.say("  " + describe_event(message, self.names))
        elif isinstance(message, ErrorReply):
            self.say(f"! {message.text}" + (f" [{message.rule}]" if message.rule else ""))
            if message.seq is not None and self.state is not None:
                # The action was refused: show again what may be done now.
                self.say(render_state(self.state, seat, self.names))
        elif isinstance(message, RoundEnd):
            winner = self.names[message.winner] if message.winner is not None else "nobody"
            self.say(
                f"round {message.round} won by {winner} (+{message.points}); "
                f"scores {list(message.scores)}"
            )
        elif isinstance(message, GameEnd):
            winner = self.names[message.winner] if message.winner is not None else "nobody"
            self.say(f"game over: {winner} wins with scores {list(message.scores)}")
            self.finished = True
        elif isinstance(message, Bye):
            self.say(f"the host closed the connection: {message.reason or message.code}")
        elif isinstance(message, (SeedCommit, HostSeedReveal)):
            pass  # the session checks the deck itself and reports a mismatch as an error

    async def handle_line(self, line: str) -> bool:
        """False when the person wants to quit."""
        text = line.strip()
        if not text:
            return True
        if text in ("quit", "exit", "q"):
            return False
        if text == "help":
            self.say(HELP)
        elif text == "state":
            if self.state is not None:
                self.say(render_state(self.state, self.session.seat, self.names))
        elif text in ("ready", "r"):
            await self.session.set_ready(True)
        elif text.isdigit() and self.state is not None:
            index = int(text) - 1
            if 0 <= index < len(self.state.legal):
                await self.session.act(self.state.legal[index])
            else:
                self.say(f"! choose 1 to {len(self.state.legal)}")
        else:
            try:
                await self.session.act(normalize_action(text))
            except ValueError as error:
                self.say(f"! {error}")
        return True

    async def run(self, lines: AsyncIterator[str], *, until_game_end: bool = True) -> int:
        """Play until the game ends (or the session ends, or 'quit')."""
        self.say(HELP)

        async def feed() -> None:
            async for message in self.session.updates():
                self.show(message)
                if until_game_end and self.finished:
                    return

        feeder = asyncio.create_task(feed())
        reader = asyncio.create_task(self._read(lines))
        await asyncio.wait({feeder, reader}, return_when=asyncio.FIRST_COMPLETED)
        for task in (feeder, reader):
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.session.close()
        return 0

    async def _read(self, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            if not await self.handle_line(line):
                return


async def stdin_lines() -> AsyncGenerator[str, None]:
    """Lines typed on standard input, without blocking the event loop."""
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[str | None] = asyncio.Queue()

    def ready() -> None:
        line = sys.stdin.readline()
        queue.put_nowait(line if line else None)

    loop.add_reader(sys.stdin.fileno(), ready)
    try:
        while (line := await queue.get()) is not None:
            yield line
    finally:
        loop.remove_reader(sys.stdin.fileno())


async def log_screen(screen: HostScreen, say: Callable[[str], None]) -> None:
    """The shared screen as log lines (public information only)."""
    names: list[str] = []
    async for message in screen.updates():
        if isinstance(message, Lobby):
            names = [s.name or "(empty)" for s in message.seats]
            seats = ", ".join(
                f"{s.name} [{s.kind}{', ready' if s.ready else ''}"
                f"{', check ' + format_check_number(s.check) if s.check is not None else ''}]"
                for s in message.seats
                if s.name
            )
            say(f"lobby: {seats or '(empty)'}  code {screen.room_code}")
        elif isinstance(message, Event):
            say(describe_event(message, names))
        elif isinstance(message, RoundEnd):
            say(
                f"round {message.round} over: winner seat {message.winner}, "
                f"scores {list(message.scores)}"
            )
        elif isinstance(message, GameEnd):
            say(f"game over: winner seat {message.winner}, scores {list(message.scores)}")

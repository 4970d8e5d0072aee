"""Line-based views: a plain client a person can play a whole game with, and a plain log
of the shared screen (for ``--headless`` hosts and terminals without the full-screen app).

The client prints the table when something changes and reads lines: an action (``play R7``,
``play W+4 B``, ``draw``, ``uno``, ``catch 2``; in French ``jouer J7``, ``piocher``: see
:mod:`lanuno.ui.typed`), or the number of a legal action from the list, or ``ready``,
``state``, ``help``, ``quit``.
"""

from __future__ import annotations

import asyncio
import codecs
import collections
import contextlib
import os
import shutil
import sys
from collections.abc import AsyncGenerator, AsyncIterator, Callable, Iterable, Mapping, Sequence
from typing import TextIO

from prompt_toolkit.utils import get_cwidth

from lanuno.client.notices import FairnessAlarm, HostStillLost, Notice, SeatLost, SeedUnused
from lanuno.ui.client_model import decision_prompt, keys_in_play, note_autopilot, seat_name
from lanuno.ui.contracts import ClientSession, HostScreen
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.narrate import EventLog, Names, TimeAway, mid_round_line, started_round
from lanuno.ui.reasons import alarm_text, bye_line, ended_line
from lanuno.ui.refusals import refused_line, translate_refusal
from lanuno.ui.table_model import rules_summary
from lanuno.ui.typed import ActionWords, MissingWord
from lanuno.ui.widgets import terminal_lines
from lanuno.wire.crypto import format_check_number
from lanuno.wire.messages import (
    Bye,
    ErrorReply,
    Event,
    GameEnd,
    HostSeedReveal,
    Lobby,
    LobbySeat,
    Message,
    OptionValue,
    RoundEnd,
    SeedCommit,
    State,
    Welcome,
)

# The client's own words, in either language (actions: ui/typed.py).
QUIT_WORDS = frozenset({"quit", "exit", "q", "quitter"})
HELP_WORDS = frozenset({"help", "?", "aide"})
STATE_WORDS = frozenset({"state", "état", "etat"})
READY_WORDS = frozenset({"ready", "r", "prêt", "pret"})


def plain_help(tr: Translator, words: ActionWords, options: Mapping[str, OptionValue]) -> str:
    """What may be typed, with an example of each action this table's rules have (a kids'
    table has no Wild Draw Four to challenge, no Counter-UNO, but gifts or a hand limit)."""
    verbs = keys_in_play(options)
    wilds = options.get("deck") != "numbers"  # K1-1: the kids' first deck has no wild
    examples = [
        ("play R7", True),
        ("play W+4 B", wilds),
        ("draw", True),
        ("pass", "pass" in verbs),
        ("uno", True),
        ("color G", wilds),
        ("catch 1", "catch" in verbs),
        ("challenge", "challenge" in verbs),
        ("accept", "accept" in verbs),
        ("give 1", options.get("draw_two_gift") is True),
        ("target 1", options.get("kids_choose_target") is True),
        ("swap 1", options.get("seven_o") is True),
        ("return R7", options.get("hand_limit") not in (None, False)),
    ]
    actions = [tr("plain.help_example", action=words.show(a)) for a, shown in examples if shown]
    # The letters of the cards this deck holds (kids1's has neither Skip nor Reverse nor wild).
    letters = tr("plain.letters_actions" if wilds else "plain.letters")
    return tr("plain.help", actions=", ".join(actions), letters=letters)


class Narrator:
    """Events as the full-screen log tells them (the same sentences, the same merged
    "played a wild and chose blue"), printed as lines: a wild's line waits for its color."""

    def __init__(self, tr: Translator, names: Names, me: Callable[[], int | None]) -> None:
        self.tr = tr
        self.names = names
        self.me = me
        self.log = EventLog(limit=1_000_000, merge_returns=False)
        self.printed = 0

    def event(self, event: Event) -> list[str]:
        self.log.add_event(event.type, event.fields, self.names, self.tr, self.me())
        if event.type == "played" and event.fields.get("card") in WILD_CODES:
            return []  # its color comes next: one sentence for both
        return self.flush()

    def flush(self) -> list[str]:
        lines = [line.text for line in self.log.lines[self.printed :]]
        self.printed = len(self.log.lines)
        return lines


WILD_CODES = ("W", "W+4", "X")


def scores_text(_tr: Translator, names: Names, scores: Sequence[int]) -> str:
    return ", ".join(f"{names(seat)} {score}" for seat, score in enumerate(scores))


def render_state(
    state: State, seat: int | None, names: Names, tr: Translator, words: ActionWords
) -> str:
    """The table in three lines: the top card and whose decision it is, the seats, and
    this player's hand with what they may do (numbered from 1), in ``words``."""
    top = tr.card(state.top) if state.top else "-"
    color = f" ({tr.color(state.color)})" if state.color else ""
    waiting = tr("prompt.wait", name=names(state.actor)) if state.actor is not None else ""
    if state.actor is not None and state.actor == seat:
        waiting = decision_prompt(tr, state.phase, state.legal, state.pending)
    head = (
        f"{tr('header.round', round=state.round)}  {tr('table.top')} {top}{color}  "
        f"{tr('table.draw_pile', count=state.draw_pile)}  {waiting}"
    )
    if state.deadline_ms is not None:
        head += "  " + tr("prompt.timer", seconds=state.deadline_ms // 1000)
    seats = "  ".join(
        tr(
            "plain.seat_cards",
            seat=f"{s + 1}. {names(s)}{' ▶' if s == state.actor else ''}",
            cards=tr.plural("card", count),
        )
        + (f" {tr('table.uno')}" if state.uno[s].declared else "")
        for s, count in enumerate(state.counts)
    )
    lines = [head, "  " + seats]
    if seat is not None:
        hand = " ".join(words.card(card) for card in state.hand) or "-"
        lines.append(tr("plain.hand", cards=hand))
        if state.legal:
            choices = "  ".join(f"{i}) {words.show(a)}" for i, a in enumerate(state.legal, 1))
            lines.append(tr("plain.may", choices=choices))
        gifts = [a for a in state.legal if a.startswith("give ") and a.count(" ") == 2]
        if gifts:  # "give 2 3" says nothing of which card goes where
            first, second = (int(arg) + 1 for arg in gifts[-1].split(" ")[1:])
            lines.append(
                tr("plain.give_two", example=words.show(gifts[-1]), first=first, second=second)
            )
    return "\n".join(lines)


def round_sentence(tr: Translator, names: Names, end: RoundEnd, me: int | None) -> str:
    """The round's result: who won and what it scored, then every seat's score."""
    title = tr("end.round_title", round=end.round)
    if end.winner is None:
        result = tr("end.round_nowinner")
    else:
        points = tr.plural("point", end.points)
        result = tr.you("end.round_winner", end.winner == me, name=names(end.winner), points=points)
    return f"{title}. {result} " + tr("plain.scores", scores=scores_text(tr, names, end.scores))


def game_sentence(tr: Translator, names: Names, end: GameEnd, me: int | None) -> str:
    if end.winner is None:
        result = tr("end.game_nowinner")
    else:
        result = tr.you("end.game_winner", end.winner == me, name=names(end.winner))
    return f"{tr('end.game_title')}. {result} " + tr(
        "plain.scores", scores=scores_text(tr, names, end.scores)
    )


CONNECTION_POLL = 0.5
"""Seconds between looks at the connection state (a drop is said within this)."""


class PlainClient:
    """Shows what the session receives, in sentences, and sends what the person types."""

    def __init__(
        self,
        session: ClientSession,
        out: TextIO = sys.stdout,
        lang: str | None = None,
        *,
        local: bool = False,
    ) -> None:
        self.session = session
        self.local = local
        """``lanuno play``: one computer, so no check number to compare."""
        self.out = out
        self.tr = translator(lang)
        self.words = ActionWords(self.tr)
        self.lobby: Lobby | None = None
        self.state: State | None = None
        self._at_table = asyncio.Event()
        """Set by the first lobby: lines typed ahead wait for it (the welcome before it
        tells the session where its action numbers carry on)."""
        self.narrator = Narrator(self.tr, self.name_of, lambda: self.session.seat)
        self.said_bye = False
        self._away = TimeAway()
        self._autopilot: set[int] = set()
        """Seats whose bot an ``autopilot`` event told (the lobby says it too: not twice)."""
        """Back after a drop: the events missed, until the first state."""
        self.connection = session.connection
        """The connection state last told (a drop and a reconnection are said once each)."""
        self._seen_a_game = False
        """A state has come: ``lanuno play``'s lobby before it starts the first game itself."""
        self._rules = SaidOnChange(self.say)
        """The table's rules, said again only if they change (not at a resume's welcome)."""
        self._welcomed = False
        """A welcome came (a resume): its first state is shown whole, even unchanged (the
        turn and its choices were lines above the drop and the welcome)."""
        self._lobby_said: str | None = None
        """The lobby's line, while it is the last line printed (the same lobby again, a
        seat's presence changing or a resume's, is not printed twice in a row)."""
        self.options: Mapping[str, OptionValue] = {}
        """This table's rules, as the host last said them (the help, the verbs in play)."""
        self._helped = False
        """The help was said (once, after the first welcome)."""

    @property
    def verbs(self) -> frozenset[str]:
        """The verbs this table's rules have (a kids' table has no pass: K1-4, K2-8)."""
        return keys_in_play(self.options)

    def name_of(self, seat: int | None) -> str:
        if seat is None:
            return "?"
        seats = self.lobby.seats if self.lobby else ()
        return seat_name(seats[seat] if 0 <= seat < len(seats) else None, seat, self.tr)

    def say(self, text: str) -> None:
        self._lobby_said = None
        if self.out.isatty():  # a terminal: lines broken at words (a pipe gets them whole)
            text = "\n".join(terminal_lines(text, shutil.get_terminal_size().columns))
        print(text, file=self.out, flush=True)

    def show(self, message: Message | Notice) -> None:
        self.note_connection()  # "connected again" before what the new link brings
        seat = self.session.seat
        tr = self.tr
        if isinstance(message, FairnessAlarm | SeatLost | HostStillLost):
            self.say(f"! {alarm_text(message, tr)}")
            if isinstance(message, SeatLost):
                self.state = None  # that seat's game is not this player's now: the lobby is
        elif isinstance(message, SeedUnused):
            self.say("  " + tr("ev.my_seed_unused", round=message.round))
        elif isinstance(message, Welcome):
            self._show_welcome(message)
        elif isinstance(message, Lobby):
            self._show_lobby(message)
        elif isinstance(message, State):
            self._show_state(message)
        elif isinstance(message, Event):
            note_autopilot(self._autopilot, message.type, message.fields)
            self._away.before_event(self.narrator.log, tr)
            for line in self.narrator.event(message):
                self.say("  " + line)
        elif isinstance(message, ErrorReply):
            self._show_refusal(message)
        elif isinstance(message, RoundEnd):
            self.say(round_sentence(tr, self.name_of, message, seat))
        elif isinstance(message, GameEnd):
            self.say(game_sentence(tr, self.name_of, message, seat))
            self.state = None  # the table is back in its lobby: its next line says who is there
        elif isinstance(message, Bye):
            self.said_bye = True
            self.say(bye_line(message.code, message.reason, tr))
        elif isinstance(message, (SeedCommit, HostSeedReveal)):
            pass  # the session checks the deck itself and reports a mismatch as an error

    def note_connection(self) -> None:
        """Say when the link to the host drops and when it is back: reconnects happen
        underneath the session (``ClientSession.connection``), with no message of their own."""
        now = self.session.connection
        if now == "quiet":  # said by no message: a line client can only tell the drop
            now = "connected"
        if now == self.connection:
            return
        if now == "reconnecting":
            self.say("! " + self.tr("plain.reconnecting"))
        elif now == "connected" and self.connection == "reconnecting":
            self.say(self.tr("plain.reconnected"))
        self.connection = now

    def _show_welcome(self, message: Welcome) -> None:
        tr = self.tr
        self.options = message.options
        self._away.welcomed(self.state, message.seat)  # mid-game: back after a drop
        self._welcomed = True
        check = self.session.check_number
        if message.seat is None:  # a late joiner watches until the next game
            self.say(
                tr("plain.welcome_watch", table=message.table, preset=tr.preset(message.preset))
            )
        else:
            self.say(
                tr(
                    "plain.welcome",
                    table=message.table,
                    preset=tr.preset(message.preset),
                    seat=message.seat + 1,
                )
            )
        self._rules.say(rules_sentence(tr, message.preset, message.options))
        # Compared with the number next to one's name on the shared screen: a spectator
        # has none there (it is said again with the seat, when the game ends).
        if check is not None and not self.local and message.seat is not None:
            self.say(tr("lobby.check", check=format_check_number(check)))
        if not self._helped:  # once, with this table's rules: its actions, not every one
            self._helped = True
            self.say(plain_help(tr, self.words, self.options))

    def _show_lobby(self, message: Lobby) -> None:
        before, self.lobby = self.lobby, message
        if before is not None and self.state is not None:
            # In a game, as the shared screen shows it: who is away, played by a bot, back.
            changes = presence_changes(self.tr, self.name_of, before, message, self._autopilot)
            for line in changes:
                self.say(line)
        self.options = message.options  # the host may change the rules
        self._at_table.set()
        if self.local and not self._seen_a_game:
            return  # lanuno play seats its bots and starts: no "type ready" meanwhile
        if self.state is None:  # in the lobby: who is there (later: presence only)
            line = self._lobby_line(message)
            if line != self._lobby_said:
                self.say(line)
                self._lobby_said = line

    def _lobby_line(self, message: Lobby) -> str:
        """Who is at the table, and 'type ready' only to a player who may and is not: not
        to a spectator, nor in a game under way (a player back before its first state)."""
        tr = self.tr
        seat = self.session.seat
        if seat is None or game_under_way(message):
            names = (f"{i + 1}. {self.name_of(i)}" for i, s in enumerate(message.seats) if s.name)
            return tr("plain.at_table", seats=", ".join(names))
        seats = ", ".join(
            f"{index + 1}. {self.name_of(index)}"
            + (f" ({tr('lobby.ready')})" if s.ready and s.kind == "human" else "")
            for index, s in enumerate(message.seats)
            if s.name
        )
        ready = seat < len(message.seats) and message.seats[seat].ready
        return tr("plain.lobby_ready" if ready else "plain.lobby", seats=seats)

    def _show_state(self, message: State) -> None:
        seat = self.session.seat
        back = self._away.at_state(self.narrator.log, self.tr, message)
        for line in self.narrator.flush() if message.phase != "choose_color" or back else []:
            self.say("  " + line)
        if message.phase == "game_over":
            return  # the game's end was said; the table is in its lobby until the next one
        changed = (
            self.state is None
            or back
            or self._welcomed
            or self.state.legal != message.legal
            or (message.actor == seat and self.state.sid != message.sid)
        )
        self.state = message
        self._seen_a_game = True
        self._welcomed = False
        if changed:
            self.say(render_state(message, seat, self.name_of, self.tr, self.words))

    def _show_refusal(self, message: ErrorReply) -> None:
        tr = self.tr
        text = translate_refusal(message.text, tr, self.name_of)
        rule = f" {tr('error.rule', rule=message.rule)}" if message.rule else ""
        self.say("! " + refused_line(text, tr) + rule)
        if message.seq is not None and self.state is not None:
            # The action was refused: show again what may be done now.
            self.say(render_state(self.state, self.session.seat, self.name_of, tr, self.words))

    async def handle_line(self, line: str) -> bool:
        """False when the person wants to quit."""
        text = line.strip()
        if not text:
            return True
        word = text.lower()
        if word in QUIT_WORDS:
            return False
        if word in HELP_WORDS:
            self.say(plain_help(self.tr, self.words, self.options))
        elif word in STATE_WORDS:
            if self.state is not None:
                self.say(
                    render_state(self.state, self.session.seat, self.name_of, self.tr, self.words)
                )
            elif self.lobby is not None:  # in the lobby: who is there (it said nothing)
                self.say(self._lobby_line(self.lobby))
        elif word in READY_WORDS and self.state is not None:  # the host would ignore it
            self.say("! " + self.tr("plain.ready_in_game"))
        elif word in READY_WORDS:
            await self.session.set_ready(True)
        elif text.isdigit() and self.state is not None:
            await self._act_by_number(int(text), self.state.legal)
        else:
            await self._act_typed(text)
        return True

    async def _send(self, notation: str) -> None:
        """Send an action; while the link is down, say that it waits for the host (it went
        out silently, and was played minutes later, or refused as stale, unexplained)."""
        if self.session.connection not in ("connected", "quiet"):
            self.say("! " + self.tr("plain.sent_later"))
        await self.session.act(notation)

    async def _act_by_number(self, number: int, legal: tuple[str, ...]) -> None:
        """The action listed under that number, or why there is none."""
        if 1 <= number <= len(legal):
            await self._send(legal[number - 1])
        elif not legal:  # not "choose 1 to 0"
            self.say("! " + self.tr("plain.nothing_to_choose"))
        elif len(legal) == 1:  # not "choose 1 to 1"
            self.say("! " + self.tr("plain.choose_one"))
        else:
            self.say("! " + self.tr("plain.choose", count=len(legal)))

    async def _act_typed(self, text: str) -> None:
        """An action typed in words, or what is wrong with it."""
        try:
            notation = self.words.read(text)
            if notation in ("pass", "challenge", "accept") and notation not in self.verbs:
                # The host would refuse it by a rule this table does not play: a pass "only
                # after drawing" where a turn passes by itself.
                self.say("! " + self.tr("plain.not_at_table", text=_echo(text)))
                return
            await self._send(notation)
        except MissingWord as missing:  # "catch": say what it lacks, not "not an action"
            example = self.words.show(missing.example)
            needs = self.tr(f"plain.needs_{missing.kind}", text=_echo(text), example=example)
            self.say("! " + needs)
        except ValueError:
            self.say("! " + self.tr("plain.not_an_action", text=_echo(text)))

    async def run(self, lines: AsyncIterator[str]) -> int:
        """Play game after game until 'quit' (or the end of the input, or of the session)."""

        async def feed() -> None:
            async for message in self.session.updates():
                self.show(message)
            if not self.said_bye:  # an end with no goodbye still says why
                self.say("! " + ended_line(self.session.end_reason, self.tr))

        async def watch() -> None:
            while True:
                self.note_connection()
                await asyncio.sleep(CONNECTION_POLL)

        feeder = asyncio.create_task(feed())
        reader = asyncio.create_task(self._read(lines))
        watcher = asyncio.create_task(watch())
        try:
            await asyncio.wait({feeder, reader}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            # Also when cancelled (Ctrl-C): a feeder left running would tell the player, who
            # just quit, that "the host closed the table" as lanuno play closes its host.
            for task in (feeder, reader, watcher):
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
            await self.session.close()
        return 0

    async def _read(self, lines: AsyncIterator[str]) -> None:
        async for line in lines:
            if line.strip().lower() not in QUIT_WORDS:
                await self._at_table.wait()
            if not await self.handle_line(line):
                return


ECHO_WIDTH = 40
"""The most of a line typed in error that is said back (a paste may be pages long)."""


def _echo(text: str) -> str:
    """What was typed, to say back: control characters shown as escapes, cut short to
    ``ECHO_WIDTH`` terminal cells (a CJK character or an emoji takes two)."""
    shown = text if text.isprintable() else repr(text)[1:-1]
    if get_cwidth(shown) <= ECHO_WIDTH:
        return shown
    cut, cells = [], 0
    for char in shown:
        cells += get_cwidth(char)
        if cells > ECHO_WIDTH - 1:
            break
        cut.append(char)
    return "".join(cut) + "…"


class TypedLines:
    """Standard input cut into lines, from what its file descriptor gives. A buffered
    ``readline`` would keep the second line of one read (a paste, a fast script) in its
    buffer, unseen until more input came; here every complete line is taken at once, and
    the lines one reader leaves wait for the next (the room-code prompt, then the game)."""

    def __init__(self, encoding: str = "utf-8") -> None:
        self.lines: collections.deque[str] = collections.deque()
        self.ended = False
        self._partial = ""
        self._decoder = codecs.getincrementaldecoder(encoding)(errors="replace")

    def take(self, data: bytes) -> None:
        """What one read gave (b"": the end of the input)."""
        if not data:
            self.ended = True
            if self._partial:
                self.lines.append(self._partial)  # a last line without its newline
                self._partial = ""
            return
        *complete, self._partial = (self._partial + self._decoder.decode(data)).split("\n")
        self.lines.extend(line + "\n" for line in complete)


_TYPED = TypedLines((sys.stdin.encoding if sys.stdin else None) or "utf-8")
"""This process's standard input (one per process, as ``sys.stdin`` is)."""


async def stdin_lines() -> AsyncGenerator[str, None]:
    """Lines typed on standard input, without blocking the event loop."""
    loop = asyncio.get_running_loop()
    fd = sys.stdin.fileno()
    typed = _TYPED
    wake = asyncio.Event()

    def ready() -> None:
        try:
            data = os.read(fd, 65536)
        except BlockingIOError:
            return
        typed.take(data)
        if typed.ended:
            loop.remove_reader(fd)  # the end stays readable: do not spin on it
        wake.set()

    if not typed.ended:
        loop.add_reader(fd, ready)
    try:
        while True:
            if typed.lines:
                yield typed.lines.popleft()
            elif typed.ended:
                return
            else:
                wake.clear()
                await wake.wait()
    finally:
        loop.remove_reader(fd)


async def log_screen(
    screen: HostScreen,
    say: Callable[[str], None],
    lang: str | None = None,
    *,
    code_check_every: float = 0.5,
    watch_room_code: bool = True,
) -> None:
    """The shared screen as lines (public information only), in the same sentences as its
    full-screen log; who is away or played by a bot, a remote screen's link dropping and
    coming back, and a new room code, at once (unless ``watch_room_code`` is off: the
    headless host's own log already says it)."""
    tr = translator(lang)
    lobby: Lobby | None = None

    def name_of(seat: int | None) -> str:
        if seat is None:
            return "?"
        seats = lobby.seats if lobby else ()
        return seat_name(seats[seat] if 0 <= seat < len(seats) else None, seat, tr)

    narrator = Narrator(tr, name_of, lambda: None)
    watcher = asyncio.create_task(
        _watch_screen(screen, say, tr, code_check_every, room_code=watch_room_code)
    )
    playing = False
    story_round: int | None = None  # the round whose start the log told
    rules = SaidOnChange(say)  # at the first lobby, then when the host changes them
    autopilot: set[int] = set()  # seats whose bot the autopilot event told (not twice)
    try:
        async for message in screen.updates():
            if isinstance(message, Lobby):
                before, lobby = lobby, message
                if playing and before is not None:
                    for line in presence_changes(tr, name_of, before, message, autopilot):
                        say(line)
                    continue
                say(_lobby_sentence(tr, name_of, message, screen.room_code))
                rules.say(rules_sentence(tr, message.preset, message.options))
            elif isinstance(message, State):
                playing = message.phase not in ("game_over",)
                for line in narrator.flush() if message.phase != "choose_color" else []:
                    say(line)
                # Came in mid-round (a screen paired late, a host whose log began after its
                # first players): say where the round stands, as a player's log does.
                where = mid_round_line(tr, message, story_round)
                if where is not None:
                    story_round = message.round
                    say(where)
            elif isinstance(message, Event):
                note_autopilot(autopilot, message.type, message.fields)
                round_no = started_round(message.type, message.fields)
                if round_no is not None:
                    story_round = round_no  # the log tells the round from its start
                for line in narrator.event(message):
                    say(line)
            elif isinstance(message, RoundEnd):
                say(round_sentence(tr, name_of, message, None))
            elif isinstance(message, GameEnd):
                say(game_sentence(tr, name_of, message, None))
                playing = False
    finally:
        watcher.cancel()


class SaidOnChange:
    """Says a line unless it is the one it said last."""

    def __init__(self, say: Callable[[str], None]) -> None:
        self._say = say
        self._last: str | None = None

    def say(self, line: str) -> None:
        if line != self._last:
            self._last = line
            self._say(line)


def _lobby_sentence(tr: Translator, name_of: Names, lobby: Lobby, room_code: str) -> str:
    """Who sits where, ready or not, and the room code: the headless log's lobby line."""
    seats = ", ".join(
        f"{name_of(index)} [{', '.join(_lobby_tags(s, tr))}]"
        for index, s in enumerate(lobby.seats)
        if s.name
    )
    code = tr("header.code", code=_spaced(room_code))
    return tr("log.lobby", seats=seats or tr("hall.nobody"), code=code)


def rules_sentence(tr: Translator, preset: str, options: Mapping[str, OptionValue]) -> str:
    """ "Rules: kids1. Deck: numbers only, ...": the preset and every rule a player would
    not expect (:func:`rules_summary`), in one line."""
    return tr("plain.rules", preset=tr.preset(preset), rules=rules_summary(preset, options, tr))


def game_under_way(lobby: Lobby) -> bool:
    """Whether the lobby is sent during a game: two seats taken, and yet the host could
    not start (its ``can_start`` is true in its lobby whenever two seats are taken)."""
    return not lobby.can_start and sum(1 for s in lobby.seats if s.kind != "empty") >= 2


def _lobby_tags(seat: LobbySeat, tr: Translator) -> list[str]:
    """What the headless log says of a lobby seat: a bot, or a player ready or not (a kid),
    with the check number the player compares."""
    if seat.kind == "bot":
        return [tr("lobby.bot")]
    tags = [tr("lobby.ready" if seat.ready else "lobby.not_ready")]
    if seat.kid:
        tags.append(tr("lobby.kid"))
    if seat.check is not None:
        tags.append(tr("header.check", check=format_check_number(seat.check)))
    return tags


def presence_changes(
    tr: Translator, names: Names, before: Lobby, after: Lobby, told: Iterable[int] = ()
) -> list[str]:
    """Lines for seats whose player left, was replaced by a bot, or came back (with the
    new check number the returning player compares). ``told``: seats whose bot an
    ``autopilot`` event has just told (the lobby says it too)."""
    told = set(told)
    lines = []
    for index, (old, new) in enumerate(zip(before.seats, after.seats, strict=False)):
        if new.kind != "human":
            continue
        name = names(index)
        if old.connected and not new.connected:
            lines.append(tr("plain.away", name=name))
        if new.bot_playing and not old.bot_playing and index not in told:
            lines.append(tr("ev.autopilot_on", name=name))
        if new.connected and not old.connected:
            check = format_check_number(new.check) if new.check is not None else "?"
            lines.append(tr("plain.back", name=name, check=check))
    return lines


def _spaced(code: str) -> str:
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


async def _watch_screen(
    screen: HostScreen, say: Callable[[str], None], tr: Translator, every: float, *, room_code: bool
) -> None:
    """A remote screen's link dropping and coming back, and (with ``room_code``) a room
    code rotated after repeated wrong codes, said at once. A remote screen knows no code
    until the host's first info: learning it is no rotation."""
    code, linked = screen.room_code, screen.linked
    while True:
        await asyncio.sleep(every)
        now = screen.room_code
        if room_code and now and code and now != code:
            say("! " + tr("host.code_rotated", code=_spaced(now)))
        code = now or code
        if screen.linked != linked:
            linked = screen.linked
            say(tr("screen.link_back") if linked else "! " + tr("screen.link_lost"))

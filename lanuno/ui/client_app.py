"""``lanuno join``'s full-screen hand view (prompt_toolkit).

Three parts, as in ptpython: the :class:`~lanuno.ui.client_model.ClientModel` (plain data),
layout functions that *pull* text from it at render time, and
:func:`client_key_bindings`, a factory over the controller. The controller connects them
to a :class:`~lanuno.ui.contracts.ClientSession`: it feeds every message from the host into
the model and sends what the model returns.
"""

from __future__ import annotations

import asyncio
import math
import shutil
import time
from collections.abc import Callable, Sequence

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
)
from prompt_toolkit.layout import (
    ConditionalContainer,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output
from prompt_toolkit.utils import get_cwidth

from lanuno.ui.client_model import ClientModel, presence_word
from lanuno.ui.contracts import ClientSession
from lanuno.ui.faces import color_style, face
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.narrate import LogLine
from lanuno.ui.reasons import ended_line
from lanuno.ui.refusals import refused_line
from lanuno.ui.table_model import rules_told
from lanuno.ui.widgets import (
    MIN_HEIGHT,
    MIN_WIDTH,
    KeyItem,
    MinimumSize,
    Render,
    SizedTextControl,
    bottom_window,
    fit,
    full_screen_application,
    keys_line,
    log_fragments,
    modal_key_bindings,
    on_click,
    still_running,
    terminal_lines,
    wrap_items,
    wrap_words,
)
from lanuno.wire.crypto import format_check_number
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import LobbySeat

E = KeyPressEvent
CHIP_WIDTH = 6
"""Columns per card in the hand: ``[R 7]`` and a space."""
SEAT_PANEL_WIDTH = 42
Render0 = Callable[[], StyleAndTextTuples]


DOUBLE_PRESS = 0.5
"""Seconds after a key that chose by itself (Enter on a round's result, a number or a color
letter in a question) during which Enter does not act (on the next question, or a card)."""


class ClientController:
    """Glue between the session, the model and the running app."""

    def __init__(
        self,
        session: ClientSession,
        model: ClientModel,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.model = model
        self.clock = clock
        self.app: Application[int] | None = None
        self.per_row = 12
        """Cards per hand row at the last render (Up/Down move by a row)."""
        self.finished = False
        """The session's updates ended: the host is gone for good."""
        self.chosen_by_key_at = -math.inf
        """When a key closed a round's result or answered a question by itself (a number,
        a color letter): an Enter right after it, meant for that, answers nothing more."""
        self._sending = asyncio.Lock()
        """Actions leave in the order the keys were pressed (a Lock wakes waiters FIFO)."""

    @property
    def tr(self) -> Translator:
        return self.model.tr

    def key_chose(self) -> None:
        """A key answered by itself (Enter on a result, a number, a color letter)."""
        self.chosen_by_key_at = self.clock()

    def key_moved(self) -> None:
        """A card or an answer chosen since: the next Enter acts on it."""
        self.chosen_by_key_at = -math.inf

    def enter_held(self) -> bool:
        """Is an Enter now the habit that followed a key that chose by itself?"""
        return self.clock() - self.chosen_by_key_at < DOUBLE_PRESS

    def connection(self) -> str:
        return "closed" if self.finished else self.session.connection

    def perform(self, notations: Sequence[str]) -> None:
        """Send actions in order, in the background; a failure to send goes to the log."""
        if notations and self.app is not None:
            self.app.create_background_task(self._send(tuple(notations)))
        self.invalidate()

    async def _send(self, notations: tuple[str, ...]) -> None:
        async with self._sending:
            for notation in notations:
                try:
                    await self.session.act(notation)
                except Exception as error:  # a closed connection or a refused notation
                    self.model.refusal = str(error) or type(error).__name__
        self.invalidate()

    def toggle_ready(self) -> None:
        # Reconnecting, the host would never hear it: no false mark. A quiet link may be
        # only slow; if it drops, the lobby the host sends on return shows the real mark.
        if self.connection() not in ("connected", "quiet"):
            return
        if self.model.seat is None:  # watching: the host seats spectators when a game ends
            return
        ready = self.model.toggle_ready()
        if self.app is not None:
            self.app.create_background_task(self._send_ready(ready))
        self.invalidate()

    async def _send_ready(self, ready: bool) -> None:
        try:
            await self.session.set_ready(ready)
        except Exception as error:  # shown, not raised into prompt_toolkit's handler
            self.model.refusal = str(error) or type(error).__name__
        self.invalidate()

    def invalidate(self) -> None:
        if self.app is not None:
            self.app.invalidate()

    async def pump(self) -> None:
        """Every message from the host into the model, until the session ends."""
        try:
            async for message in self.session.updates():
                self.model.check = self.session.check_number
                automatic = self.model.apply(message, self.clock())
                if automatic:
                    await self._send(automatic)
                self.invalidate()
        except Exception as error:  # the screen stays up to say why, instead of a traceback
            reason = str(error) or type(error).__name__
            self.model.log.add(LogLine(self.tr("bye.failed", reason=reason), "error"))
        else:
            if self.model.bye is None:  # a close without a goodbye still gets a line
                self.model.log.add(LogLine(ended_line(self.session.end_reason, self.tr), "error"))
        self.finished = True
        self.invalidate()

    def quit(self) -> None:
        if self.app is not None and still_running(self.app):
            self.app.exit(result=0)

    def ask_quit(self) -> None:
        """Q: during a game, ask first (a stray Q must not cost a seat); else leave."""
        if self.model.screen in ("play", "round_end") and not self.finished:
            self.model.confirm_quit = True
            self.invalidate()
        else:
            self.quit()

    def toggle_help(self) -> None:
        self.model.help_open = not self.model.help_open
        self.invalidate()

    def parting_line(self) -> str | None:
        """What the terminal says once the screen is gone: a player who left a game under
        way (Q, Ctrl-C) keeps the seat, held by the host (the screen went without a word,
        and the player could not tell whether the seat was lost)."""
        model = self.model
        if model.local or self.finished or model.seat is None:
            return None  # lanuno play keeps no game; a closed table has no seat to keep
        if model.screen not in ("play", "round_end"):
            return None  # leaving the lobby frees the seat
        return self.tr("quit.seat_kept", table=model.table)


# ---------------------------------------------------------------------------- layout


def _header(ctl: ClientController) -> Render0:
    def render() -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        left = f" {tr('app.title')}"
        if model.table:
            left += f" · {model.table}"
        if model.state is not None and model.state.round and model.screen != "lobby":
            left += f" · {tr('header.round', round=model.state.round)}"  # not the last game's
        check = model.check if model.check is not None else ctl.session.check_number
        if check is not None and not model.local:
            left += f" · {tr('header.check', check=format_check_number(check))}"
        state = ctl.connection()
        if model.local and state == "connected":
            return [("class:header", left)]  # one computer: nothing to check, nothing to lose
        right = f"{tr('conn.' + state)} "
        style = "class:header" if state == "connected" else "class:header.conn.bad"
        return [("class:header", left), (style, f"  {right}")]

    return render


def _table_line(ctl: ClientController) -> Render0:
    def render() -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        state = model.state
        if state is None:
            return []
        out: StyleAndTextTuples = [("", f" {tr('table.top')} ")]
        if state.top is not None:
            top = face(state.top, tr.letters())
            out.append((f"class:{top.style}", f"[{top.chip}]"))
        out.append(("", f"  {tr('table.color')} "))
        if state.color is not None:
            out.append((f"class:{color_style(state.color)}", f" {tr.color(state.color)} "))
        else:
            out.append(("class:dim", tr("table.no_color")))
        clockwise = state.direction == 1
        arrow = "↻" if clockwise else "↺"
        direction = tr("table.direction.cw" if clockwise else "table.direction.ccw")
        out.append(("", f"  {arrow} {direction}  {tr('table.draw_pile', count=state.draw_pile)}"))
        if state.pending:
            out.append(("class:timer", f"  {tr('table.pending', count=state.pending)}"))
        return out

    return render


def _seats_window(ctl: ClientController) -> Window:
    control = SizedTextControl(lambda width: _seat_lines(ctl, width, control.height))
    return Window(control, width=SEAT_PANEL_WIDTH)


def _seat_lines(ctl: ClientController, width: int, height: int | None) -> StyleAndTextTuples:
    """One seat per line; two per line (shorter) when a big table does not fit the height."""
    model, tr = ctl.model, ctl.tr
    rows = model.seat_rows()
    extra = sum(1 for row in rows if row.presence != "here")
    if height is not None and len(rows) + extra > height:
        return _compact_seat_lines(ctl, width)
    out: StyleAndTextTuples = []
    seconds = model.seconds_left(ctl.clock())
    name_width = max(6, width - 29)  # room for the timer
    for row in rows:
        marker = "▶ " if row.is_actor else ("· " if row.is_turn else "  ")
        name = row.name
        if row.is_me:  # a long name is cut, never the "(you)" that says which row is yours
            room = name_width - get_cwidth(tr("you_suffix", name=""))
            name = tr("you_suffix", name=fit(name, max(1, room)).rstrip())
        style = "class:seat.turn" if row.is_actor else ("class:seat.me" if row.is_me else "")
        out.append((style, marker + fit(name, name_width)))
        out.append(("", " " + fit(tr.plural("card", row.count), 9)))
        flag = tr("table.uno") if row.declared else (tr("table.exposed") if row.exposed else "")
        out.append(("class:seat.uno", fit(flag, 6)))
        out.append(("", f"{row.score:>5}"))
        if row.is_actor and seconds is not None:
            out.append(("class:timer", f" {tr('table.timer', seconds=seconds)}"))
        status = presence_word(tr, row.presence)
        if status:  # its own line: the name and the counts stay whole
            out.append(("class:seat.away", f"\n    {status}"))
        out.append(("", "\n"))
    return out[:-1]


def _compact_seat_lines(ctl: ClientController, width: int) -> StyleAndTextTuples:
    cell = width // 2
    out: StyleAndTextTuples = []
    for index, row in enumerate(ctl.model.seat_rows()):
        marker = "▶" if row.is_actor else ("·" if row.is_turn else " ")
        style = "class:seat.turn" if row.is_actor else ("class:seat.me" if row.is_me else "")
        flag = "U" if row.declared else ("!" if row.exposed else " ")
        away = {"away": "~", "bot": "*"}.get(row.presence, "")  # legend in the help
        out.append((style, marker + fit(row.name + away, cell - 13)))
        out.append(("", f"{row.count:>3}"))
        out.append(("class:seat.uno", f" {flag}"))
        out.append(("", f"{row.score:>5} "))
        out.append(("", "\n" if index % 2 else "│"))
    return out[:-1]


def _log_window(ctl: ClientController) -> Window:
    model = ctl.model

    def scrolled(offset: int) -> None:
        model.log_scroll = offset

    return bottom_window(
        lambda width: log_fragments(model.log.lines, width),
        scroll=lambda: model.log_scroll,
        clamp=scrolled,
        marker=lambda: ctl.tr("log.scrolled"),
    )


def _prompt_line(ctl: ClientController) -> Render0:
    def render() -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if ctl.finished:  # the log beside says why; nothing here may be played any more
            saved = model.bye is not None and model.bye.code == CloseCode.TABLE_SAVED
            return [("class:refusal", " " + tr("prompt.saved" if saved else "prompt.closed"))]
        now = ctl.clock()
        style = "class:prompt.mine" if model.my_decision else "class:prompt"
        out: StyleAndTextTuples = [(style, " " + model.prompt(now))]
        seconds = model.seconds_left(now)
        if seconds is not None and model.my_decision:
            out.append(("class:timer", f"  {tr('prompt.timer', seconds=seconds)}"))
        return out

    return render


def _hand(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if model.seat is None:
            return []  # watching: no hand, and no keys to play one
        hand = model.hand
        title = f" {tr('hand.title', count=len(hand))}"
        # Over the hand limit every card may go back: Enter returns one, it plays none.
        excess = model.phase == "excess" and model.my_decision
        legend = tr("hand.legend_excess" if excess else "hand.legend")
        out: StyleAndTextTuples = [("class:title", title), ("class:dim", f"   {legend}")]
        if not hand:
            return [*out, ("", "\n "), ("class:dim", tr("hand.empty"))]
        per_row = max(1, (width - 1) // CHIP_WIDTH)
        ctl.per_row = per_row
        any_legal = any(model.card_is_legal(code) for code in hand)
        letters = tr.letters()
        for start in range(0, len(hand), per_row):
            indices = range(start, min(start + per_row, len(hand)))
            if start < 10:  # number keys reach the first ten cards; arrows the rest
                out.append(("", "\n "))
                for i in indices:
                    label = str(i + 1) if i < 9 else ("0" if i == 9 else "")
                    out.append(("class:dim", fit(f" {label}", CHIP_WIDTH)))
            out.append(("", "\n "))
            for i in indices:
                out += _chip(ctl, i, hand[i], any_legal, letters)
            out.append(("", "\n "))
            for i in indices:
                cursor = "^^^^^ " if i == model.selected else " " * CHIP_WIDTH
                out.append(("class:selected", cursor))
        return out

    return render


def _chip(
    ctl: ClientController, index: int, code: str, any_legal: bool, letters: dict[str, str]
) -> StyleAndTextTuples:
    model = ctl.model
    card = face(code, letters)
    legal = model.card_is_legal(code)
    style = f"class:{card.style}"
    if any_legal and not legal:
        style = "class:card.off"
    if legal:
        style += " class:card.legal"
    if index == model.selected:
        style += " class:card.cursor"
    # Brackets mark a playable card without relying on color (monochrome, color-blind).
    text = f"[{card.chip}]" if legal else f" {card.chip} "

    def click() -> None:
        ctl.perform(model.play_index(index))

    return [(style, text, on_click(click)), ("", " ")]


def _status_line(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if model.refusal:
            # One line: a long reason ends in an ellipsis (the log has it whole, wrapped).
            text = fit(" " + refused_line(model.refusal, tr), width).rstrip()
            return [("class:refusal", text)]
        card = model.selected_card
        if card is None or model.state is None:
            return []
        out: StyleAndTextTuples = []
        if "uno" in model.legal and (
            len(model.hand) != 2 or any(a.startswith("play ") for a in model.legal)
        ):
            # With two cards and none to play, a UNO said now is lost with the card drawn.
            out.append(("class:prompt.mine", " " + tr("prompt.say_uno")))
        out.append(("", " " + tr("prompt.selected", card=tr.card(card))))
        if model.my_decision and model.picker is None and not model.card_is_legal(card):
            out.append(("class:dim", " " + tr("prompt.not_legal")))
        return out

    return render


def _picker(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        picker = model.picker
        if picker is None:
            return []
        if picker.kind == "color":
            title = (
                tr("picker.color", card=tr.card(picker.card))
                if picker.card
                else tr("picker.color_phase")
            )
            hint = "picker.hint_color"
        elif picker.kind == "gift":
            one = not any(a.count(" ") == 2 for a in model.legal if a.startswith("give "))
            key = "picker.gift_one" if one else "picker.gift_first"
            title = tr("picker.gift_second" if picker.first is not None else key)
            giving = model.gift_cards[0 if picker.first is None else 1 :]
            if giving and len(model.gift_cards) == (1 if one else 2):
                title = tr("picker.gift_card", card=tr.card(giving[0]))
            hint = "picker.hint"
        else:
            title = tr(f"picker.{picker.kind}")
            hint = "picker.hint"
        if not picker.cancellable:
            hint += "_owed"  # Esc has nothing to cancel: no "Esc to cancel"
        out: StyleAndTextTuples = [("class:picker class:title", f" {title} ")]
        out.append(("class:picker", " "))
        used = get_cwidth(title) + 3
        for index, option in enumerate(picker.options):
            if picker.kind == "color":
                text = f" {index + 1} {tr.color(option)} "
                style = f"class:{color_style(option)}"
            else:
                text = f" {index + 1} {model.name_of(int(option))} "
                style = "class:picker.option"
            if index == picker.selected:
                style += " class:picker.cursor"

            def click(index: int = index) -> None:
                ctl.perform(model.choose(index))

            if used + get_cwidth(text) + 1 > width:  # wrap: every choice stays on screen
                out.append(("class:picker", "\n "))
                used = 1
            out += [(style, text, on_click(click)), ("class:picker", " ")]
            used += get_cwidth(text) + 1
        out.append(("class:picker", "\n"))
        for piece in wrap_words(tr(hint), width - 2):
            out.append(("class:picker class:dim", f" {piece}\n"))
        return [*out[:-1], ("class:picker class:dim", out[-1][1].rstrip("\n"))]

    return render


KEYS: tuple[tuple[str, str, str], ...] = (
    ("D", "key.draw", "draw"),
    ("P", "key.pass", "pass"),
    ("U", "key.uno", "uno"),
    ("K", "key.catch", "catch"),
    ("C", "key.challenge", "challenge"),
    ("A", "key.accept", "accept"),
)


def _keys_bar(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if model.confirm_quit:
            # lanuno play keeps no journal: its game ends with the program, for good.
            lost = model.local and model.screen in ("play", "round_end")
            return [("class:refusal", " " + tr("quit.confirm_local" if lost else "quit.confirm"))]
        items: list[KeyItem] = []
        if model.screen == "play" and model.seat is not None and not ctl.finished:
            for letter, label, verb in KEYS:
                if verb not in model.keys:
                    continue  # not at this table (kids' presets): no dead key on screen
                enabled = model.can(verb) or (verb == "catch" and bool(model.exposed_seats()))

                def click(verb: str = verb) -> None:
                    ctl.perform(model.catch() if verb == "catch" else model.simple(verb))

                items.append(KeyItem(letter, tr(label), click, enabled))
        elif model.screen == "lobby" and not ctl.finished and model.seat is not None:
            label = "key.not_ready" if model.ready else "key.ready"
            items.append(KeyItem("R", tr(label), ctl.toggle_ready))
        items.append(KeyItem("Q", tr("key.quit"), ctl.ask_quit))
        items.append(KeyItem("?", tr("key.help"), ctl.toggle_help, optional=True))
        return keys_line(items, width)

    return render


def _lobby(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        out: StyleAndTextTuples = [("class:title", " " + tr("lobby.title", table=model.table))]
        out.append(("", "\n\n"))
        out += _lobby_intro(ctl, width)
        out.append(("", "\n"))
        out += _lobby_seat_lines(model, tr, width)
        out.append(("", "\n"))
        out += _lobby_prompt(ctl, width)
        return out

    return render


def _lobby_intro(ctl: ClientController, width: int) -> StyleAndTextTuples:
    """Above the seats: watching or which seat is yours, the check number, the preset."""
    model, tr = ctl.model, ctl.tr
    out: StyleAndTextTuples = []
    if model.watching and model.seat is None:
        for piece in wrap_words(tr("prompt.watching"), width - 2):
            out.append(("class:prompt.mine", f" {piece}\n"))
    if model.seat is not None:
        name = model.name_of(model.seat)
        out.append(("", " " + tr("lobby.you_are", name=name, seat=model.seat + 1) + "\n"))
    check = ctl.session.check_number
    # One computer: no shared screen to compare; watching: no name on it to look for.
    if check is not None and not model.local and model.seat is not None:
        for piece in wrap_words(tr("lobby.check", check=format_check_number(check)), width - 2):
            out.append(("class:prompt.mine", f" {piece}\n"))
    if model.preset:
        out.append(("", " " + tr("lobby.preset", preset=tr.preset(model.preset)) + "\n"))
        for piece in wrap_items(rules_told(model.preset, model.options, tr), width - 4):
            out.append(("class:dim", f"   {piece}\n"))
    return out


def _lobby_seat_lines(model: ClientModel, tr: Translator, width: int) -> StyleAndTextTuples:
    """One line a seat: its number, its name, and what it is (a bot, ready, offline)."""
    seats = model.lobby.seats if model.lobby else ()
    rows: list[tuple[str, str]] = []
    for index, seat in enumerate(seats):
        if seat.kind == "empty":
            label, state = tr("lobby.empty"), ""
        else:
            label = model.name_of(index)  # a bot's in the reader's language
            state = _lobby_seat_state(tr, seat)
        rows.append((label, state))
    # Names as long as they are ("Robot 10 (intermédiaire)"), while the states fit.
    longest = max((get_cwidth(label) for label, _ in rows), default=0)
    states = max((get_cwidth(state) for _, state in rows), default=0)
    column = max(20, min(longest, width - 6 - states))
    out: StyleAndTextTuples = []
    for index, (label, state) in enumerate(rows):
        style = "class:seat.me" if index == model.seat else ""
        out.append((style, f" {index + 1:>2}. {fit(label, column)} {state}\n"))
    return out


def _lobby_seat_state(tr: Translator, seat: LobbySeat) -> str:
    """``bot, kid`` or ``ready``: what the lobby says after a taken seat's name."""
    tags = [tr("lobby.bot")] if seat.kind == "bot" else []
    if seat.kid:
        tags.append(tr("lobby.kid"))
    if seat.kind == "human" and not seat.connected:
        tags.append(tr("lobby.offline"))
    elif seat.kind == "human":
        tags.append(tr("lobby.ready" if seat.ready else "lobby.not_ready"))
    return ", ".join(tags)


def _ended_lines(ctl: ClientController, width: int) -> StyleAndTextTuples:
    """Why the table ended for this player (its last error line), and how to leave."""
    tr = ctl.tr
    ended = [line.text for line in ctl.model.log.lines if line.kind == "error"]
    out: StyleAndTextTuples = []
    for piece in wrap_words(ended[-1] if ended else tr("bye.closed"), width - 2):
        out.append(("class:refusal", f" {piece}\n"))
    out.append(("class:prompt", " " + tr("lobby.closed_leave")))
    return out


def _lobby_prompt(ctl: ClientController, width: int) -> StyleAndTextTuples:
    """Below the seats: what to press, what the table waits for, or why it ended."""
    model, tr = ctl.model, ctl.tr
    out: StyleAndTextTuples = []
    if ctl.finished:  # kicked, the table closed, the link lost for good: say so here too
        return _ended_lines(ctl, width)
    if ctl.connection() == "reconnecting":  # R would reach nobody: say why it waits
        said = [tr("plain.reconnecting")]
        if model.host_still_lost:
            said.append(model.host_still_lost)
        for text in said:
            for piece in wrap_words(text, width - 2):
                out.append(("class:refusal", f" {piece}\n"))
        return out
    if model.seat is None:  # watching (said above): nothing to press, nothing to wait for
        pass
    elif model.local:  # `lanuno play`: the game starts when this player is ready
        out.append(("class:prompt", " " + tr("lobby.press_ready_local")))
    else:  # a player who is ready is not asked again (R still takes it back)
        ready = "lobby.you_are_ready" if model.ready else "lobby.press_ready"
        out.append(("class:prompt", " " + tr(ready) + "\n"))
        auto = model.lobby is not None and model.lobby.auto_start
        out.append(("class:dim", " " + tr("lobby.auto_start" if auto else "lobby.waiting")))
    if model.refusal:
        out.append(("class:refusal", "\n\n " + refused_line(model.refusal, tr)))
    return out


def _end_screen(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        out: StyleAndTextTuples = []

        def paragraph(style: str, text: str) -> None:
            # Wrapped to the panel: a long name never cuts the result off at 80 columns.
            for piece in wrap_words(text, width - 1):
                out.append((style, f" {piece}\n"))
            out.append(("", "\n"))

        if model.screen == "game_end" and model.game_end is not None:
            end_winner = model.game_end.winner
            out.append(("class:title", " " + tr("end.game_title") + "\n\n"))
            if end_winner is None:
                paragraph("", tr("end.game_nowinner"))
            else:
                mine = end_winner == model.end_seat
                paragraph(
                    "class:winner", tr.you("end.game_winner", mine, name=model.end_name(end_winner))
                )
        elif model.round_end is not None:
            end = model.round_end
            out.append(("class:title", " " + tr("end.round_title", round=end.round) + "\n\n"))
            if end.winner is None:
                paragraph("", tr("end.round_nowinner"))
            else:
                sentence = tr.you(
                    "end.round_winner",
                    end.winner == model.end_seat,
                    name=model.end_name(end.winner),
                    points=tr.plural("point", end.points),
                )
                paragraph("class:winner", sentence)
        header = f"   {fit(tr('end.col_player'), 24)} {tr('end.col_score'):>7}"
        out.append(("class:title", header + "\n"))
        for name, score, winner, mine in model.final_scores():
            if mine:  # as in the seats panel (a default name reads as the column's title)
                room = 24 - get_cwidth(tr("you_suffix", name=""))
                name = tr("you_suffix", name=fit(name, room).rstrip())
            style = "class:winner" if winner else ""
            out.append((style, f" {'★' if winner else ' '} {fit(name, 24)} {score:>7}\n"))
        out.append(("", "\n"))
        if ctl.finished:  # the table closed, kicked, the link lost: no lobby, no next round
            out.extend(_ended_lines(ctl, width))
            return out
        if model.screen == "game_end":
            waiting = tr("end.next_game_local" if model.local else "end.next_game")
        elif model.next_round_started is not None:
            waiting = tr("end.next_started", round=model.next_round_started)
        elif model.hold_summary:
            waiting = tr("end.continue")
        else:
            waiting = tr("end.next_round")
        style = "class:prompt.mine" if model.hold_summary else "class:dim"
        for piece in wrap_words(waiting, width - 2):
            out.append((style, f" {piece}\n"))
        return out

    return render


HELP_LINES = (
    ("help.c.cards", None),
    ("help.c.enter", None),
    ("help.c.basic", None),
    ("help.c.catch", "catch"),
    ("help.c.challenge", "challenge"),
    ("help.c.take", "accept"),
    ("help.c.scroll", None),
    ("help.c.misc", None),
)
"""The help's lines, each with the action it needs (kids' tables have fewer keys)."""


def _help(ctl: ClientController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        out: StyleAndTextTuples = [("class:title", f" {tr('help.title')}\n\n")]
        for key, verb in HELP_LINES:
            if key == "help.c.enter" and model.options.get("deck") == "numbers":
                key = "help.c.enter_numbers"  # kids1: a deck without wilds
            if key == "help.c.basic" and "pass" not in model.keys:
                key = "help.c.basic_no_pass"  # kids' tables: a drawn card that fits is played
            if verb is None or verb in model.keys:
                for piece in wrap_words(tr(key), width - 4):
                    out.append(("", f"   {piece}\n"))
        if model.preset:  # the table's rules, for whoever never saw the lobby (lanuno play)
            out.append(("", "\n"))
            out.append(("class:title", " " + tr("lobby.preset", preset=tr.preset(model.preset))))
            out.append(("", "\n"))
            for piece in wrap_items(rules_told(model.preset, model.options, tr), width - 4):
                out.append(("", f"   {piece}\n"))
        out.append(("", "\n"))
        out.append(("class:dim", f" {tr('help.close')}"))
        return out

    return render


def build_client_layout(ctl: ClientController) -> Layout:
    model = ctl.model

    def screen_is(*names: str) -> Condition:
        return Condition(lambda: model.screen in names)

    has_picker = Condition(lambda: model.picker is not None)

    def line(render: Render0, **kwargs: object) -> Window:
        return Window(
            SizedTextControl(lambda _width: render()),
            height=1,
            **kwargs,  # type: ignore[arg-type]
        )

    play = HSplit(
        [
            line(_table_line(ctl)),
            Window(height=1, char="─", style="class:dim"),
            VSplit(
                [
                    _seats_window(ctl),
                    Window(width=1, char="│", style="class:dim"),
                    _log_window(ctl),
                ],
                height=Dimension(min=3),
            ),
            Window(height=1, char="─", style="class:dim"),
            line(_prompt_line(ctl)),
            Window(SizedTextControl(_hand(ctl)), dont_extend_height=True, wrap_lines=False),
            Window(SizedTextControl(_status_line(ctl)), height=1),
            ConditionalContainer(
                Window(
                    SizedTextControl(_picker(ctl)),
                    dont_extend_height=True,
                    style="class:picker",
                ),
                filter=has_picker,
            ),
        ]
    )
    end = VSplit(
        [
            Window(SizedTextControl(_end_screen(ctl)), width=Dimension(preferred=44)),
            Window(width=1, char="│", style="class:dim"),
            _log_window(ctl),
        ]
    )
    helping = Condition(lambda: model.help_open)
    root = HSplit(
        [
            line(_header(ctl), style="class:header"),
            ConditionalContainer(
                Window(SizedTextControl(_help(ctl), squeeze=True)), filter=helping
            ),
            ConditionalContainer(
                Window(SizedTextControl(_lobby(ctl), squeeze=True)),
                filter=screen_is("lobby") & ~helping,
            ),
            ConditionalContainer(play, filter=screen_is("play") & ~helping),
            ConditionalContainer(end, filter=screen_is("round_end", "game_end") & ~helping),
            Window(SizedTextControl(_keys_bar(ctl)), height=1),
        ]
    )
    return Layout(MinimumSize(root, MIN_WIDTH, MIN_HEIGHT, ctl.tr))


# ---------------------------------------------------------------------------- keys


def client_key_bindings(ctl: ClientController) -> KeyBindingsBase:
    """The game's keys, and above them two modal states that take the next key: the
    "leave the game?" question and the help overlay."""

    def _quit_now(_event: E) -> None:
        ctl.quit()

    return modal_key_bindings(ctl.model, ctl.tr, _quit_now, _game_key_bindings(ctl))


def _game_key_bindings(ctl: ClientController) -> KeyBindings:
    kb = KeyBindings()
    _screen_keys(kb, ctl)
    _hand_keys(kb, ctl)
    _verb_keys(kb, ctl)
    return kb


def _screen_keys(kb: KeyBindings, ctl: ClientController) -> None:
    """Quit, help, the log, and going on after a round's summary."""
    model = ctl.model
    summary = Condition(lambda: model.screen in ("round_end", "game_end"))

    @kb.add("q")
    @kb.add("Q")
    def _quit(_event: E) -> None:
        ctl.ask_quit()

    @kb.add("?")
    def _help(_event: E) -> None:
        ctl.toggle_help()

    @kb.add("pageup")
    def _older(_event: E) -> None:
        model.scroll_log(5)

    @kb.add("pagedown")
    def _newer(_event: E) -> None:
        model.scroll_log(-5)

    @kb.add("enter", filter=summary)
    @kb.add("space", filter=summary)
    def _continue(_event: E) -> None:
        model.continue_()
        if model.screen == "play":
            ctl.key_chose()


def _hand_keys(kb: KeyBindings, ctl: ClientController) -> None:
    """Moving through the hand and the pickers, choosing, playing."""
    model = ctl.model
    picker_open = Condition(lambda: model.picker is not None)
    playing = Condition(lambda: model.screen == "play")

    @kb.add("left", filter=playing & ~picker_open)
    def _left(_event: E) -> None:
        ctl.key_moved()  # a card chosen since: its Enter plays it
        model.move(-1)

    @kb.add("right", filter=playing & ~picker_open)
    def _right(_event: E) -> None:
        ctl.key_moved()
        model.move(1)

    @kb.add("up", filter=playing & ~picker_open)
    def _up(_event: E) -> None:
        ctl.key_moved()
        model.move(-ctl.per_row)

    @kb.add("down", filter=playing & ~picker_open)
    def _down(_event: E) -> None:
        ctl.key_moved()
        model.move(ctl.per_row)

    @kb.add("left", filter=picker_open)
    @kb.add("up", filter=picker_open)
    def _picker_left(_event: E) -> None:
        ctl.key_moved()  # an answer moved to since: its Enter chooses it
        model.picker_move(-1)

    @kb.add("right", filter=picker_open)
    @kb.add("down", filter=picker_open)
    @kb.add("tab", filter=picker_open)
    def _picker_right(_event: E) -> None:
        ctl.key_moved()
        model.picker_move(1)

    for digit in "1234567890":
        index = 9 if digit == "0" else int(digit) - 1

        @kb.add(digit, filter=playing & ~picker_open)
        def _select(_event: E, index: int = index) -> None:
            ctl.key_moved()
            model.select(index)

        @kb.add(digit, filter=picker_open)
        def _pick(_event: E, index: int = index) -> None:
            picker = model.picker
            if picker is not None and index < len(picker.options):  # not a number it lacks
                ctl.key_chose()
            ctl.perform(model.choose(index))

    @kb.add("enter", filter=playing)
    @kb.add("space", filter=playing)
    def _activate(_event: E) -> None:
        if ctl.enter_held():
            return  # "2, Enter" or Enter twice on a result: the Enter plays nothing
        ctl.perform(model.activate())

    @kb.add("escape", filter=picker_open, eager=True)
    def _cancel(_event: E) -> None:
        model.cancel()


def _verb_keys(kb: KeyBindings, ctl: ClientController) -> None:
    """The letters: colors in the color picker, verbs in play, ready in the lobby."""
    model = ctl.model
    color_picker = Condition(lambda: model.picker is not None and model.picker.kind == "color")
    # A question open (a color, who gets a card, whom to swap with): the verbs wait for its
    # answer (each was refused, "Not now: choose a player..."); Counter-UNO does not.
    question = Condition(lambda: model.picker is not None)
    playing = Condition(lambda: model.screen == "play")
    in_lobby = Condition(lambda: model.screen in ("lobby", "round_end"))

    # Color letters in both languages: R Y/J G/V B.
    for letters, color in (("rR", "R"), ("yYjJ", "Y"), ("gGvV", "G"), ("bB", "B")):
        for letter in letters:

            @kb.add(letter, filter=color_picker)
            def _color(_event: E, color: str = color) -> None:
                ctl.key_chose()
                ctl.perform(model.choose_color(color))

    for letters, verb in (("dD", "draw"), ("pP", "pass"), ("uU", "uno"), ("cC", "challenge")):
        for letter in letters:

            @kb.add(letter, filter=playing & ~question)
            def _verb(_event: E, verb: str = verb) -> None:
                ctl.perform(model.simple(verb))

    for letter in "aA":

        @kb.add(letter, filter=playing & ~question)
        def _accept(_event: E) -> None:
            ctl.perform(model.simple("accept"))

    for letter in "kK":

        @kb.add(letter, filter=playing & ~color_picker)
        def _catch(_event: E) -> None:
            ctl.perform(model.catch())

    game_over = Condition(lambda: model.screen == "game_end")
    for letter in "rR":

        @kb.add(letter, filter=in_lobby)
        def _ready(_event: E) -> None:
            ctl.toggle_ready()

        @kb.add(letter, filter=game_over)
        def _ready_again(_event: E) -> None:
            # "Press Enter, then R": R alone did nothing; it is both.
            model.continue_()
            if not model.ready:
                ctl.toggle_ready()


# ---------------------------------------------------------------------------- app


def build_client_application(
    ctl: ClientController,
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[int]:
    app = full_screen_application(
        build_client_layout(ctl), client_key_bindings(ctl), input=input, output=output
    )
    ctl.app = app
    return app


async def run_client_app(
    session: ClientSession,
    *,
    lang: str | None = None,
    input: Input | None = None,
    output: Output | None = None,
    clock: Callable[[], float] = time.monotonic,
    local: bool = False,
) -> int:
    """Run the hand view until the player quits; returns the exit status (0).

    ``local``: ``lanuno play`` on this computer (no check number, no connection state).
    ``input``/``output`` default to the terminal (tests pass a pipe and DummyOutput)."""
    model = ClientModel(translator(lang))
    model.local = local
    ctl = ClientController(session, model, clock)
    app = build_client_application(ctl, input=input, output=output)

    def start_pump() -> None:
        app.create_background_task(ctl.pump())

    try:
        status = await app.run_async(pre_run=start_pump)
    finally:
        await session.close()
    parting = ctl.parting_line()
    if parting is not None:
        columns = shutil.get_terminal_size().columns
        print("\n".join(terminal_lines(parting, columns)), flush=True)
    return status

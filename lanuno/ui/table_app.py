"""``lanuno host``'s shared screen (prompt_toolkit): lobby, table, scoreboard.

Same shape as the client: :class:`~lanuno.ui.table_model.TableModel` holds the data,
layout functions pull text from it, :func:`table_key_bindings` maps the host's keys to
:class:`~lanuno.ui.contracts.HostControls` requests. Only public information reaches
this screen (``HostScreen.updates`` is a spectator's feed).
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
)
from prompt_toolkit.layout import (
    ConditionalContainer,
    Container,
    FormattedTextControl,
    HSplit,
    Layout,
    VSplit,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output
from prompt_toolkit.utils import get_cwidth

from lanuno.bots.levels import BotLevel
from lanuno.ui.client_model import presence_word
from lanuno.ui.contracts import HostControls, HostScreen
from lanuno.ui.faces import big_text, color_style
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.reasons import screen_end_line
from lanuno.ui.refusals import translate_refusal
from lanuno.ui.table_model import SeatTile, TableModel, rules_told, value_text
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
    hstack,
    keys_line,
    log_fragments,
    modal_key_bindings,
    still_running,
    wrap_items,
    wrap_words,
)
from lanuno.wire.crypto import format_check_number

E = KeyPressEvent
CARD_WIDTH = 19
RING_MIN_WIDTH = 110
"""From this width the shared screen seats players on both sides of the top card."""
LEFT_WIDTH = 34


class TableController:
    def __init__(
        self,
        screen: HostScreen,
        controls: HostControls,
        model: TableModel,
        clock: Callable[[], float] = time.monotonic,
        screen_code: Callable[[], str] | None = None,
    ) -> None:
        self.screen = screen
        self.controls = controls
        self.model = model
        self.clock = clock
        self.screen_code = screen_code
        """A plain host's own table only: the code that pairs another screen (its help
        says it, since no hall screen shows it)."""
        self.app: Application[int] | None = None

    @property
    def tr(self) -> Translator:
        return self.model.tr

    def request(self, make: Callable[[], Awaitable[None]]) -> None:
        """Run a HostControls request in the background; its refusal becomes the notice."""
        self.model.notice = None
        if self.app is not None:
            self.app.create_background_task(self._run(make))

    async def _run(self, make: Callable[[], Awaitable[None]]) -> None:
        try:
            await make()
        except ValueError as refusal:
            self.model.notice = translate_refusal(str(refusal), self.tr, self.model.name_of)
        self.invalidate()

    def invalidate(self) -> None:
        if self.app is not None:
            self.app.invalidate()

    async def pump(self) -> None:
        try:
            async for message in self.screen.updates():
                self.model.apply(message, self.clock())
                self.invalidate()
        except Exception as error:  # the screen stays up to say why, instead of a traceback
            self.model.notice = str(error) or type(error).__name__
        reason = self.screen.end_reason
        if reason and not self.model.notice:  # a remote screen: the host closed, say so
            self.model.notice = screen_end_line(reason, self.tr)
        self.model.closed = True
        self.invalidate()

    async def quit(self) -> None:
        try:
            await self.controls.shutdown()
        finally:
            if self.app is not None and still_running(self.app):
                self.app.exit(result=0)


# ---------------------------------------------------------------------------- layout


def _header(ctl: TableController) -> Callable[[], StyleAndTextTuples]:
    def render() -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        text = f" {tr('app.title')} · {ctl.screen.table_name}"
        if model.state is not None and model.state.round and model.screen != "lobby":
            text += f" · {tr('header.round', round=model.state.round)}"
        text += f" · {tr('host.preset', preset=tr.preset(model.preset))}"
        code = ctl.screen.room_code
        model.see_room_code(code)
        if model.screen != "lobby":  # the lobby shows it large; later, a returning player needs it
            text += f" · {tr('header.code', code=_spaced(code))}"
        # The screen closed, or a remote screen pairs again (what it shows is not current).
        state = None if ctl.screen.linked else "conn.reconnecting"
        if model.closed:
            state = "conn.closed"
        if state is not None:
            return [("class:header", text), ("class:header.conn.bad", f" · {tr(state)} ")]
        return [("class:header", text)]

    return render


def _spaced(code: str) -> str:
    """``482913`` -> ``482 913`` (the way the code is read aloud and shown large)."""
    return f"{code[:3]} {code[3:]}" if len(code) == 6 else code


def _seat_info(tr: Translator, tile: SeatTile, *, short: bool = False) -> tuple[str, str]:
    """(style, text) under or beside a seat: who is away or replaced by a bot, else the
    seat's check number (a returning player compares the new one)."""
    if tile.presence != "here":
        return "class:seat.away", presence_word(tr, tile.presence)
    if tile.check is not None:
        number = format_check_number(tile.check)
        return "class:dim", number if short else tr("status.check", check=number)
    return "", ""


def _room(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        out: StyleAndTextTuples = [("class:title", f" {tr('host.join_code')}\n")]
        code = ctl.screen.room_code
        for row in big_text(code):
            out.append(("class:big", f" {row}\n"))
        out.append(("class:dim", f" {_spaced(code)}\n"))
        if model.code_rotated:
            for piece in wrap_words(tr("host.code_rotated", code=_spaced(code)), width - 2):
                out.append(("class:refusal", f" {piece}\n"))
        out.append(("", "\n"))
        out += _join_how(ctl, width)
        out.append(("", "\n"))
        if not model.remote:
            out.append(("", f" {tr('host.bot_level', level=tr('level.' + model.bot_level))}\n"))
        return out

    return render


def _join_how(ctl: TableController, width: int) -> StyleAndTextTuples:
    """Under the code: the ``lanuno join`` commands for this table's addresses."""
    tr = ctl.tr
    out: StyleAndTextTuples = []
    addresses = list(ctl.screen.addresses)
    if addresses:
        out.append(("", f" {tr('host.join_how')}\n"))
    else:
        out.append(("class:dim", " " + tr("host.no_address") + "\n"))
    for address in addresses[:3]:
        # Wrapped, not cut: a hall's table N > 1 adds ``--table N`` to its address.
        for piece in wrap_words(f"lanuno join {address}", width - 3):
            out.append(("class:prompt.mine", f"   {piece}\n"))
    if addresses and all(a.startswith(("127.", "localhost")) for a in addresses):
        # No LAN interface is up: the other laptops cannot reach this table.
        for piece in wrap_words(tr("host.loopback_only"), width - 2):
            out.append(("class:refusal", f" {piece}\n"))
    big_address = big_text(addresses[0]) if addresses else ()
    if big_address and len(big_address[0]) <= width - 2:
        # Wide screens: the address too, readable from across the room.
        out.append(("", "\n"))
        out += [("class:big", f" {row}\n") for row in big_address]
    if ctl.screen.announced:  # without mDNS a bare `lanuno join` would find nothing
        for piece in wrap_words(tr("host.join_lan"), width - 1):
            out.append(("class:dim", f" {piece}\n"))
    return out


def _options(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        out: StyleAndTextTuples = [("class:title", f" {tr('host.options')}\n")]
        by_rounds = model.lobby is not None and model.lobby.options.get("scoring") == "round_wins"
        for index, option in enumerate(model.option_rows()):
            cursor = "›" if index == model.option_cursor else " "
            style = "class:picker.cursor" if index == model.option_cursor else ""
            name = f"opt.{option.key}"
            if option.key == "target" and by_rounds:  # kids2 counts round wins (K2-11)
                name = "rules.rounds_to_win"
            label = fit(tr(name), width - 14)
            out.append((style, f" {cursor}{label} {value_text(tr, option.value):>10}\n"))
        return out

    return render


def _players(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if model.options_open:
            return _options(ctl)(width)
        out: StyleAndTextTuples = [("class:title", f" {tr('host.players')}\n")]
        # Names as long as they are on a wider pane ("Robot 10 (intermédiaire)").
        longest = max((get_cwidth(model.name_of(i)) for i in range(len(model.seats))), default=0)
        column = max(14, min(longest, width - 30))
        for index, seat in enumerate(model.seats):
            selected = index == model.cursor and not (model.options_open or model.remote)
            cursor = "›" if selected else " "
            if seat.kind == "empty":
                out.append(("class:dim", f" {cursor}{index + 1:>2}. {tr('lobby.empty')}\n"))
                continue
            name = model.name_of(index)  # a bot's in the reader's language
            tags = [tr("lobby.bot")] if seat.kind == "bot" else []
            if seat.kid:
                tags.append(tr("lobby.kid"))
            if seat.kind == "human":
                ready = "lobby.ready" if seat.ready else "lobby.not_ready"
                tags.append(tr(ready if seat.connected else "lobby.offline"))
            check = f"  {format_check_number(seat.check)}" if seat.check is not None else ""
            style = "class:picker.cursor" if cursor == "›" else ""
            out.append((style, f" {cursor}{index + 1:>2}. {fit(name, column)}"))
            out.append(("class:dim", f" {fit(', '.join(tags), 12)}"))
            out.append(("class:prompt.mine", f"{check}\n"))
        out.append(("", "\n"))
        can_start = model.lobby is not None and model.lobby.can_start
        key = "host.can_start" if can_start else "host.cannot_start"
        if can_start and model.remote:
            # only the host's own screen starts the game, unless readiness does
            auto = model.lobby is not None and model.lobby.auto_start
            key = "screen.remote.auto_start" if auto else "screen.remote.can_start"
        for piece in wrap_words(tr(key), width - 2):
            out.append(("class:prompt" if can_start else "class:dim", f" {piece}\n"))
        return out + _rules(model, width)

    return render


def _rules(model: TableModel, width: int) -> StyleAndTextTuples:
    """Under the players: every rule a player would not expect (kids' tables have many),
    where a ten-seat table still leaves the room they take."""
    if model.lobby is None:
        return []
    out: StyleAndTextTuples = [("", "\n"), ("class:title", f" {model.tr('host.rules')}\n")]
    told = rules_told(model.preset, model.lobby.options, model.tr)
    for piece in wrap_items(told, width - 2):
        out.append(("", f" {piece}\n"))
    return out


def _top_card(ctl: TableController) -> Render:
    def render(_width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        state = model.state
        if state is None or state.top is None:
            return []
        style = f"class:{color_style(state.color)}"
        inner = CARD_WIDTH - 2
        color = tr.color(state.color).upper() if state.color else tr("table.no_color")
        rows = [fit(f" {tr.code(state.top)}  {color}", inner), " " * inner]
        rows += [fit(row.center(inner), inner) for row in big_text(tr.big(state.top))]
        rows.append(" " * inner)
        out: StyleAndTextTuples = [(style, "┌" + "─" * inner + "┐\n")]
        for row in rows:
            out.append((style, f"│{row}│\n"))
        out.append((style, "└" + "─" * inner + "┘\n"))
        return out

    return render


def _seats(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        seconds = model.seconds_left(ctl.clock())
        name_width = max(8, min(18, width - 40))
        bar_width = max(4, width - name_width - 30)
        out: StyleAndTextTuples = []
        state = model.state
        if state is not None:
            clockwise = state.direction == 1
            arrow = "↻" if clockwise else "↺"
            direction = tr("table.direction.cw" if clockwise else "table.direction.ccw")
            out.append(("class:big", f" {arrow} {direction}"))
            out.append(("", f"   {tr('table.draw_pile', count=state.draw_pile)}"))
            if state.pending:
                out.append(("class:timer", f"   {tr('table.pending', count=state.pending)}"))
            out.append(("", "\n\n" if len(state.counts) <= 5 else "\n"))
        flag_width = 1 + max(len(tr("table.uno")), len(tr("table.exposed")))
        tiles = model.tiles()
        roomy = len(tiles) <= 5
        info_width = max(7, len(tr("status.away")), len(tr("status.bot"))) + 1
        if not roomy:  # one line per seat: the away/check column replaces the card backs
            name_width = max(6, min(18, width - info_width - flag_width - 20))
        for tile in tiles:
            marker = "▶ " if tile.is_actor else ("· " if tile.is_turn else "  ")
            style = "class:seat.turn" if tile.is_actor else ""
            out.append((style, marker + fit(tile.name, name_width)))
            info_style, info = _seat_info(tr, tile, short=not roomy)
            if roomy:
                # Card backs, never faces: the shared screen knows only how many.
                backs = "▮" * min(tile.count, bar_width)
                if tile.count > bar_width:
                    backs = backs[:-1] + "+"
                out.append(("class:dim", f" {fit(backs, bar_width)}"))
            else:
                out.append((info_style, f" {fit(info, info_width)}"))
            out.append(("", f"{tile.count:>3} "))
            flag = (
                tr("table.uno") if tile.declared else (tr("table.exposed") if tile.exposed else "")
            )
            out.append(("class:seat.uno", fit(flag, flag_width)))
            out.append(("", f"{tile.score:>5}"))
            if tile.is_actor and seconds is not None:
                out.append(("class:timer", f" {tr('table.timer', seconds=seconds)}"))
            if roomy:
                out.append(("", "\n    "))
                out.append((info_style, fit(info, width - 5).rstrip()))
            out.append(("", "\n"))
        return out

    return render


def _table_top(ctl: TableController) -> Render:
    """The top card with the seats beside it; on wide screens, seats on both sides of it."""
    card, seats = _top_card(ctl), _seats(ctl)

    def render(width: int) -> StyleAndTextTuples:
        card_lines = card(CARD_WIDTH)
        if width >= RING_MIN_WIDTH:
            return _ring(ctl, width, card_lines)
        seat_lines = seats(width - CARD_WIDTH - 3)
        height = max(len(list(split_lines(card_lines))), len(list(split_lines(seat_lines))))
        bar: StyleAndTextTuples = [("class:dim", "│\n")] * height
        return hstack(
            [(card_lines, CARD_WIDTH + 2), (bar, 1), (seat_lines, width - CARD_WIDTH - 3)]
        )

    return render


def _ring(ctl: TableController, width: int, card_lines: StyleAndTextTuples) -> StyleAndTextTuples:
    """Half the seats left of the card, half right, each seat on two lines."""
    model, tr = ctl.model, ctl.tr
    tiles = model.tiles()
    column = (width - CARD_WIDTH - 8) // 2
    seconds = model.seconds_left(ctl.clock())
    flag_width = 1 + max(len(tr("table.uno")), len(tr("table.exposed")))
    bar_width = max(4, min(20, column - flag_width - 14))

    def block(tile: SeatTile) -> StyleAndTextTuples:
        marker = "▶ " if tile.is_actor else ("· " if tile.is_turn else "  ")
        style = "class:seat.turn" if tile.is_actor else ""
        backs = "▮" * min(tile.count, bar_width)
        if tile.count > bar_width:
            backs = backs[:-1] + "+"
        flag = ""
        if tile.declared or tile.exposed:
            flag = tr("table.uno" if tile.declared else "table.exposed")
        timer = ""
        if tile.is_actor and seconds is not None:
            timer = tr("table.timer", seconds=seconds)
        info_style, info = _seat_info(tr, tile)
        return [
            (style, marker + fit(tile.name, column - 9)),
            ("", f"{tile.score:>6}\n"),
            ("class:dim", f"  {fit(backs, bar_width)}"),
            ("", f"{tile.count:>3} "),
            ("class:seat.uno", fit(flag, flag_width)),
            ("class:timer", f"{timer}\n"),
            (info_style, f"  {fit(info, column - 2).rstrip()}\n\n"),
        ]

    half = (len(tiles) + 1) // 2
    left: StyleAndTextTuples = []
    right: StyleAndTextTuples = []
    for tile in tiles[:half]:
        left += block(tile)
    for tile in tiles[half:]:
        right += block(tile)
    header: StyleAndTextTuples = []
    state = model.state
    if state is not None:
        clockwise = state.direction == 1
        arrow = "↻" if clockwise else "↺"
        direction = tr("table.direction.cw" if clockwise else "table.direction.ccw")
        text = f"{arrow} {direction}   {tr('table.draw_pile', count=state.draw_pile)}"
        if state.pending:
            text += f"   {tr('table.pending', count=state.pending)}"
        header = [("class:big", text.center(width).rstrip()), ("", "\n\n")]
    gap: StyleAndTextTuples = [("", " ")]
    body = hstack(
        [(gap, 2), (left, column), (gap, 2), (card_lines, CARD_WIDTH + 2), (right, column)]
    )
    return header + body


def _events(ctl: TableController) -> Container:
    title = Window(
        FormattedTextControl(lambda: [("class:title", f" {ctl.tr('host.last_events')}")]),
        height=1,
    )
    model = ctl.model

    def scrolled(offset: int) -> None:
        model.log_scroll = offset

    log = bottom_window(
        lambda width: log_fragments(model.log.lines, width),
        scroll=lambda: model.log_scroll,
        clamp=scrolled,
        marker=lambda: ctl.tr("log.scrolled"),
    )
    return HSplit([title, log])


def _scoreboard(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        out: StyleAndTextTuples = []
        if model.screen == "game_end" and model.game_end is not None:
            winner = model.game_end.winner
            title = (
                tr("end.game_winner", name=model.end_name(winner))
                if winner is not None
                else tr("end.game_nowinner")
            )
            out.append(("class:winner", f" ★ {tr('host.winner')} ★\n\n"))
            for piece in wrap_words(title, width - 1):
                out.append(("class:winner", f" {piece}\n"))
            out.append(("", "\n"))
        elif model.round_end is not None:
            end = model.round_end
            out.append(("class:title", " " + tr("end.round_title", round=end.round) + "\n"))
            if end.winner is not None:
                points = tr.plural("point", end.points)
                sentence = tr("end.round_winner", name=model.end_name(end.winner), points=points)
            else:
                sentence = tr("end.round_nowinner")
            # Wrapped, never cut: a long name and French words fit the 44-column panel.
            for piece in wrap_words(sentence, width - 1):
                out.append(("class:winner", f" {piece}\n"))
            out.append(("", "\n"))
        rows = model.scoreboard()
        # Between rounds the host decides whom to kick: say who is not at the table, whole
        # ("bot playing"), at the cost of a few letters of the longest names.
        aways = [presence_word(tr, model.presence_of(seat)) for seat, *_ in rows]
        widest = max((get_cwidth(a) for a in aways if a), default=0)
        names_width = max(12, min(24, width - 13 - widest)) if widest else 24
        room = width - names_width - 13  # for the presence word after the score
        kicking = not model.remote  # the scores show between rounds: Del kicks the selected
        out.append(
            (
                "class:title",
                f"   {fit(tr('end.col_player'), names_width)} {tr('end.col_score'):>7}\n",
            )
        )
        for (seat, name, score, winner), away in zip(rows, aways, strict=True):
            cursor = "›" if seat == model.cursor and kicking else " "
            style = "class:winner" if winner else ""
            star = "★" if winner else " "
            out.append((style, f" {cursor}{star}{fit(name, names_width)} {score:>7}"))
            if away and room > 0:
                out.append(("class:seat.away", " " + fit(away, room).rstrip()))
            out.append(("", "\n"))
        return out

    return render


NOTICE_LINES = 3
"""At most this many lines above the keys (a remote screen's end says what to do next)."""


def _notice_line(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if model.confirm_quit:
            text = tr("quit.confirm_host")
        elif model.notice:
            text = model.notice
        elif model.code_rotated and model.screen != "lobby":
            text = tr("host.code_rotated", code=_spaced(ctl.screen.room_code))
        elif model.waiting_for_players:
            return [("class:seat.away", f" {tr('table.waiting_players')}")]
        else:
            return []
        pieces = wrap_words(text, width - 2)[:NOTICE_LINES]
        return [("class:refusal", "\n".join(f" {piece}" for piece in pieces))]

    return render


def _keys_line(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        model, tr = ctl.model, ctl.tr
        if model.options_open:
            key = "host.keys_options"
        elif model.remote:
            key = "screen.remote.keys"  # only the host's own screen changes the table
        elif model.screen == "lobby":
            key = "host.keys_lobby"
        elif model.screen == "round_end":
            key = "host.keys_between"
        elif model.screen == "game_end":
            key = "host.keys_game_end"
        else:
            key = "host.keys_play"

        # The catalogue writes a bar as "S start  Q quit": its entries, two spaces apart.
        items = [KeyItem(*entry.partition(" ")[::2]) for entry in tr(key).split("  ")]
        items.append(KeyItem("?", tr("key.help"), optional=True))
        return keys_line(items, width, dim=True)

    return render


def build_table_layout(ctl: TableController) -> Layout:
    model = ctl.model

    def screen_is(*names: str) -> Condition:
        return Condition(lambda: model.screen in names)

    def line(render: Callable[[], StyleAndTextTuples], **kwargs: object) -> Window:
        return Window(SizedTextControl(lambda _w: render()), height=1, **kwargs)  # type: ignore[arg-type]

    def pane(render: Render, **kwargs: object) -> Window:
        return Window(SizedTextControl(render), **kwargs)  # type: ignore[arg-type]

    lobby = VSplit(
        [
            pane(_room(ctl), width=Dimension(min=LEFT_WIDTH, weight=1)),
            Window(width=1, char="│", style="class:dim"),
            Window(
                SizedTextControl(_players(ctl), squeeze=True), width=Dimension(min=44, weight=1)
            ),
        ]
    )
    play = HSplit(
        [
            pane(_table_top(ctl), dont_extend_height=True),
            Window(height=1, char="─", style="class:dim"),
            _events(ctl),
        ]
    )
    between = VSplit(
        [
            pane(_scoreboard(ctl), width=44),
            Window(width=1, char="│", style="class:dim"),
            _events(ctl),
        ]
    )
    helping = Condition(lambda: model.help_open)
    root = HSplit(
        [
            line(_header(ctl), style="class:header"),
            ConditionalContainer(pane(_help(ctl)), filter=helping),
            ConditionalContainer(lobby, filter=screen_is("lobby") & ~helping),
            ConditionalContainer(play, filter=screen_is("play") & ~helping),
            ConditionalContainer(between, filter=screen_is("round_end", "game_end") & ~helping),
            pane(
                _notice_line(ctl),
                height=Dimension(min=1, max=NOTICE_LINES),
                dont_extend_height=True,
            ),
            pane(_keys_line(ctl), height=1),
        ]
    )
    return Layout(MinimumSize(root, MIN_WIDTH, MIN_HEIGHT, ctl.tr))


HELP_KEYS = ("help.h.lobby", "help.h.start", "help.h.between", "help.h.scroll", "help.h.misc")
REMOTE_HELP_KEYS = ("help.r.watch", "help.r.between", "help.h.scroll", "help.r.misc")
"""A remote screen's keys change nothing at the table: its help says what it does."""


def _help(ctl: TableController) -> Render:
    def render(width: int) -> StyleAndTextTuples:
        tr = ctl.tr
        out: StyleAndTextTuples = [("class:title", f" {tr('help.title')}\n\n")]
        for key in REMOTE_HELP_KEYS if ctl.model.remote else HELP_KEYS:
            for piece in wrap_words(tr(key), width - 4):
                out.append(("", f"   {piece}\n"))
        addresses = list(ctl.screen.addresses)
        if ctl.screen_code is not None and addresses:
            command = f"lanuno screen {addresses[0]} --code {ctl.screen_code()}"
            out.append(("", "\n"))
            for piece in wrap_words(tr("help.h.screen"), width - 4):
                out.append(("", f"   {piece}\n"))
            out.append(("class:title", f"     {command}\n"))
        out.append(("", "\n"))
        out.append(("class:dim", f" {tr('help.close')}"))
        return out

    return render


# ---------------------------------------------------------------------------- keys


def table_key_bindings(ctl: TableController) -> KeyBindingsBase:
    """The host's keys, under two modal states that take the next key: "close the table
    for everyone?" and the help overlay."""

    def _quit_now(event: E) -> None:
        event.app.create_background_task(ctl.quit())

    return modal_key_bindings(ctl.model, ctl.tr, _quit_now, _host_key_bindings(ctl))


def _host_key_bindings(ctl: TableController) -> KeyBindings:
    kb = KeyBindings()
    _screen_keys(kb, ctl)
    _seat_keys(kb, ctl)
    _rule_keys(kb, ctl)
    return kb


def _screen_keys(kb: KeyBindings, ctl: TableController) -> None:
    """Quit, help, the log, and the cursor between rounds."""
    model = ctl.model
    between = Condition(lambda: model.between_rounds)

    @kb.add("q")
    @kb.add("Q")
    def _quit(event: E) -> None:
        # A game in progress ends for everyone: ask first. The lobby and the end close now.
        if model.screen in ("play", "round_end") and not model.closed:
            model.confirm_quit = True
        else:
            event.app.create_background_task(ctl.quit())

    @kb.add("?")
    def _help(_event: E) -> None:
        model.help_open = True

    @kb.add("pageup")
    def _older(_event: E) -> None:
        model.scroll_log(5)

    @kb.add("pagedown")
    def _newer(_event: E) -> None:
        model.scroll_log(-5)

    @kb.add("up", filter=between)
    def _up(_event: E) -> None:
        model.move_cursor(-1)

    @kb.add("down", filter=between)
    def _down(_event: E) -> None:
        model.move_cursor(1)


def _seat_keys(kb: KeyBindings, ctl: TableController) -> None:
    """Bots in, players out, and the start."""
    model, controls = ctl.model, ctl.controls
    between = Condition(lambda: model.between_rounds)
    in_lobby = Condition(lambda: model.screen == "lobby")
    options_open = Condition(lambda: model.options_open)

    for letter in "bB":

        @kb.add(letter, filter=in_lobby & ~options_open)
        def _add_bot(_event: E) -> None:
            level = model.bot_level
            ctl.request(lambda: controls.add_bot(level))

    for letter in "lL":

        @kb.add(letter, filter=in_lobby)
        def _level(_event: E) -> None:
            model.cycle_level()

    for key in ("delete", "backspace", "x", "X"):

        @kb.add(key, filter=between & ~options_open)
        def _remove(_event: E) -> None:
            seat = model.removable_seat()
            if seat is not None:
                ctl.request(lambda: controls.remove_seat(seat))

    @kb.add("s", filter=between & ~options_open)
    @kb.add("S", filter=between & ~options_open)
    def _start(_event: E) -> None:
        ctl.request(controls.start)

    @kb.add("enter", filter=Condition(lambda: model.screen == "game_end"))
    def _lobby(_event: E) -> None:
        model.to_lobby()


def _rule_keys(kb: KeyBindings, ctl: TableController) -> None:
    """The preset and the options, in the lobby."""
    model, controls = ctl.model, ctl.controls
    in_lobby = Condition(lambda: model.screen == "lobby")
    options_open = Condition(lambda: model.options_open)

    for letter in "pP":

        @kb.add(letter, filter=in_lobby & ~options_open)
        def _preset(_event: E) -> None:
            preset = model.next_preset()
            ctl.request(lambda: controls.set_preset(preset))

    for letter in "oO":

        @kb.add(letter, filter=in_lobby)
        def _options(_event: E) -> None:
            model.options_open = not model.options_open

    @kb.add("escape", filter=options_open, eager=True)
    def _close_options(_event: E) -> None:
        model.options_open = False

    @kb.add("enter", filter=options_open)
    @kb.add("space", filter=options_open)
    @kb.add("right", filter=options_open)
    def _change_option(_event: E) -> None:
        key, value = model.next_option()
        ctl.request(lambda: controls.set_option(key, value))


# ---------------------------------------------------------------------------- app


def build_table_application(
    ctl: TableController,
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[int]:
    app = full_screen_application(
        build_table_layout(ctl), table_key_bindings(ctl), input=input, output=output
    )
    ctl.app = app
    return app


async def run_table_app(
    screen: HostScreen,
    controls: HostControls,
    *,
    lang: str | None = None,
    remote: bool = False,
    bot_level: BotLevel = BotLevel.INTERMEDIATE,
    input: Input | None = None,
    output: Output | None = None,
    clock: Callable[[], float] = time.monotonic,
    screen_code: Callable[[], str] | None = None,
) -> int:
    """Run the shared screen until the host quits (Q calls ``controls.shutdown()``);
    ``remote``: a paired screen elsewhere, whose keys change nothing at the table;
    ``bot_level``: the level B adds until L changes it (the table's ``--level``);
    ``screen_code``: a plain host's own table, whose help (?) gives the code that pairs
    another screen."""
    tr = translator(lang)
    model = TableModel(tr, bot_level, remote=remote)
    ctl = TableController(screen, controls, model, clock, screen_code)
    app = build_table_application(ctl, input=input, output=output)

    def start_pump() -> None:
        app.create_background_task(ctl.pump())

    return await app.run_async(pre_run=start_pump)

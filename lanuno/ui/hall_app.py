"""The hall (prompt_toolkit): the host's own terminal when it serves several tables.

One line block per table (phase, players with their scores, who is away, seats free, the
room code players type and the screen code a ``lanuno screen`` types), arrows and Enter to
show one table's full shared screen, N to open a table, C to close one, Q to quit.

A table's full screen is today's table app, not a copy of it: each table keeps its own
:class:`~lanuno.ui.table_app.TableController` (fed all the time, so its log is complete
when it is shown), and the hall shows that controller's layout and keys in its place.
Only Esc/Q change meaning there (back to the hall: the table goes on), and the keys line
says so (:class:`InHallTranslator`).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import dataclass

from prompt_toolkit.application import Application
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    ConditionalKeyBindings,
    DynamicKeyBindings,
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.layout import (
    ConditionalContainer,
    Container,
    DynamicContainer,
    HSplit,
    Layout,
    Window,
)
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.output import Output
from prompt_toolkit.utils import get_cwidth

from lanuno.ui.contracts import HallControls, HallTable, NewTable
from lanuno.ui.hall_model import (
    FIELDS,
    HallModel,
    HallRow,
    codes_text,
    hall_row,
    phase_text,
    player_text,
    visible_rows,
)
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.refusals import translate_refusal
from lanuno.ui.table_app import TableController, build_table_layout, table_key_bindings
from lanuno.ui.table_model import TableModel
from lanuno.ui.widgets import (
    MIN_HEIGHT,
    MIN_WIDTH,
    MinimumSize,
    SizedTextControl,
    bind_yes_keys,
    fit,
    full_screen_application,
    still_running,
    wrap_words,
)
from lanuno.wire.messages import Message

E = KeyPressEvent
SYNC_EVERY = 0.5
"""Seconds between two looks at the host's list of tables (one may close by itself)."""
PLAYER_LINES = 2
"""A table's players take at most this many lines on the hall (ten long names are cut)."""
INDENT = 6

IN_HALL = {
    "host.keys_lobby": "hall.in.keys_lobby",
    "host.keys_play": "hall.in.keys_play",
    "host.keys_between": "hall.in.keys_between",
    "host.keys_game_end": "hall.in.keys_game_end",
    "help.h.misc": "hall.in.help_misc",
}
"""The table app's sentences that change inside the hall: Esc/Q go back to the hall."""


@dataclass(frozen=True, slots=True)
class InHallTranslator(Translator):
    """The table app's translator when it is shown inside the hall (its keys line and help
    say that Esc goes back to the hall instead of closing the table)."""

    def __call__(self, key: str, **values: object) -> str:
        return Translator.__call__(self, IN_HALL.get(key, key), **values)


class NumberedScreen:
    """A table's ``HostScreen`` with its number in the name (``table 2 · Kitchen``), so the
    full screen says which table of the hall it is."""

    def __init__(self, table: HallTable, tr: Translator) -> None:
        self._table = table
        self._tr = tr

    @property
    def table_name(self) -> str:
        number = self._tr("hall.table", number=self._table.number)
        name = self._table.name
        # "Table 2" (the default names of --tables) needs no "table 2 · " in front.
        return name if name.casefold() == number.casefold() else f"{number} · {name}"

    @property
    def room_code(self) -> str:
        return self._table.screen.room_code

    @property
    def addresses(self) -> Sequence[str]:
        """Where players join this table: ``lanuno join`` alone means table 1, so the
        others' addresses carry their ``--table N``."""
        number = self._table.number
        addresses = self._table.screen.addresses
        if number == 1:
            return addresses
        return [a if "--table" in a else f"{a} --table {number}" for a in addresses]

    @property
    def announced(self) -> bool:
        return self._table.screen.announced

    @property
    def end_reason(self) -> str:
        return self._table.screen.end_reason

    @property
    def linked(self) -> bool:
        return self._table.screen.linked

    def updates(self) -> AsyncIterator[Message]:
        return self._table.screen.updates()


@dataclass(slots=True)
class TableView:
    """One table of the hall with its full shared screen, built once and fed all along."""

    table: HallTable
    ctl: TableController
    container: Container
    keys: KeyBindingsBase
    pumping: bool = False


class HallController:
    def __init__(
        self,
        controls: HallControls,
        model: HallModel,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.controls = controls
        self.model = model
        self.clock = clock
        self.views: dict[int, TableView] = {}
        self.app: Application[int] | None = None

    @property
    def tr(self) -> Translator:
        return self.model.tr

    # ------------------------------------------------------------------ tables

    def sync(self) -> None:
        """Follow the host's list of tables: a view for each new one (its feed starts when
        the app runs), none for a closed one."""
        tables = {table.number: table for table in self.controls.tables()}
        for number in [n for n in self.views if n not in tables]:
            del self.views[number]
        for number, table in sorted(tables.items()):
            if number not in self.views:
                self.views[number] = self._view(table)
        if self.model.open_table not in self.views:
            self.model.open_table = None
        if self.app is not None and self.app.is_running:
            for view in self.views.values():
                if not view.pumping:
                    view.pumping = True
                    self.app.create_background_task(self._pump(view))
        self.refresh()

    def _view(self, table: HallTable) -> TableView:
        model = TableModel(InHallTranslator(self.tr.lang), table.bot_level)
        ctl = TableController(NumberedScreen(table, self.tr), table.controls, model, self.clock)
        ctl.app = self.app
        container = build_table_layout(ctl).container
        return TableView(table, ctl, container, table_key_bindings(ctl))

    async def _pump(self, view: TableView) -> None:
        await view.ctl.pump()  # returns when the table closes (its feed ends)
        self.invalidate()

    def rows(self) -> list[HallRow]:
        return [
            hall_row(
                number,
                view.table.name,
                view.table.screen.room_code,
                view.table.screen_code,
                view.ctl.model,
                paused=view.table.paused,
            )
            for number, view in sorted(self.views.items())
        ]

    def refresh(self) -> None:
        self.model.set_rows(self.rows())

    async def watch(self) -> None:
        """Keep the list in step with the host (a table may stop by itself)."""
        while True:
            self.sync()
            self.invalidate()
            await asyncio.sleep(SYNC_EVERY)

    # ------------------------------------------------------------------ requests

    def request(self, make: Callable[[], Awaitable[None]]) -> None:
        """Run a HallControls request in the background; its refusal becomes the notice."""
        self.model.notice, self.model.notice_is_refusal = None, False
        if self.app is not None:
            self.app.create_background_task(self._run(make))

    async def _run(self, make: Callable[[], Awaitable[None]]) -> None:
        try:
            await make()
        except ValueError as refusal:
            self.model.notice = translate_refusal(str(refusal), self.tr, lambda _seat: "?")
            self.model.notice_is_refusal = True
        self.sync()
        self.invalidate()

    async def open_new(self, new: NewTable) -> None:
        table = await self.controls.open_table(new)
        self.model.form = None
        self.sync()
        self.model.select_number(table.number)
        self.model.notice = self.tr("hall.opened", number=table.number)

    async def close(self, number: int) -> None:
        await self.controls.close_table(number)
        self.sync()
        self.model.notice = self.tr("hall.closed", number=number)

    def show(self, number: int | None) -> None:
        """Show that table's full shared screen (None: back to the hall)."""
        if number is None or number in self.views:
            self.model.open_table = number
            self.model.notice = None
        self.invalidate()

    def shown(self) -> TableView | None:
        number = self.model.open_table
        return self.views.get(number) if number is not None else None

    def invalidate(self) -> None:
        if self.app is not None:
            self.app.invalidate()

    async def quit(self) -> None:
        try:
            await self.controls.shutdown()
        finally:
            if self.app is not None and still_running(self.app):
                self.app.exit(result=0)


# ---------------------------------------------------------------------------- layout


def _header(ctl: HallController) -> StyleAndTextTuples:
    return [("class:header", f" {ctl.tr('app.title')} · {ctl.tr('hall.title')}")]


def _join_line(ctl: HallController) -> StyleAndTextTuples:
    for view in ctl.views.values():
        addresses = view.table.screen.addresses
        if addresses:
            command = f"lanuno join|screen {addresses[0]} --table N"
            return [("class:dim", f" {ctl.tr('hall.join_how')} {command}")]
    return []


def _player_lines(tr: Translator, row: HallRow, width: int) -> list[StyleAndTextTuples]:
    """The players, ``Lea 120 · Max 0 (away) · ...``, on at most PLAYER_LINES lines."""
    if not row.players:
        return [[("class:dim", tr("hall.nobody"))]]
    lines: list[StyleAndTextTuples] = [[]]
    used = 0
    for player in row.players:
        text = player_text(tr, player)
        style = "class:seat.away" if player.presence != "here" else ""
        gap = 3 if used else 0
        if used and used + gap + get_cwidth(text) > width:
            lines.append([])
            used, gap = 0, 0
        if gap:
            lines[-1].append(("class:dim", " · "))
        lines[-1].append((style, text))
        used += gap + get_cwidth(text)
    if len(lines) > PLAYER_LINES:
        # The last line shown ends with an ellipsis: more players than the lines hold.
        lines = lines[:PLAYER_LINES]
        last = lines[-1]
        lines[-1] = [*last[:-1], (last[-1][0], fit(last[-1][1] + " …", len(last[-1][1]) + 2))]
    return lines


def _row_block(
    ctl: HallController, row: HallRow, width: int, chosen: bool
) -> list[StyleAndTextTuples]:
    tr = ctl.tr
    codes = codes_text(tr, row)
    marker = " › " if chosen else "   "
    title_width = max(10, width - get_cwidth(codes) - 2)
    title = fit(f"{marker}{row.number:>2}  {row.name}", title_width)
    style = "class:picker.cursor" if chosen else "class:title"
    phase_style = "class:dim" if row.phase in ("closed", "game_over") else "class:prompt"
    pad = " " * INDENT
    block: list[StyleAndTextTuples] = [
        [(style, title), ("", "  "), ("class:prompt.mine", codes)],
        [("", pad), (phase_style, fit(phase_text(tr, row), width - INDENT).rstrip())],
    ]
    block += [[("", pad), *line] for line in _player_lines(tr, row, width - INDENT)]
    block.append([])
    return block


def _hall_list(ctl: HallController, width: int, height: int) -> StyleAndTextTuples:
    """The tables that fit ``height`` lines, scrolled to keep the selected one in view."""
    model, tr = ctl.model, ctl.tr
    ctl.refresh()
    if not model.rows:
        return [("", "\n"), ("class:prompt", f" {tr('hall.none')}")]
    blocks = [
        _row_block(ctl, row, width, index == model.selected) for index, row in enumerate(model.rows)
    ]
    shown = visible_rows([len(b) for b in blocks], model.selected, model.top, height)
    model.top = shown.first
    lines: list[StyleAndTextTuples] = []
    if shown.above():
        lines.append([("class:dim", " " + tr("hall.more_above", count=shown.above()))])
    for block in blocks[shown.first : shown.last]:
        lines += block
    below = shown.below(len(blocks))
    if below:
        lines = lines[: min(height, len(lines)) - 1]  # the marker takes the last blank line
        lines.append([("class:dim", " " + tr("hall.more_below", count=below))])
    out: StyleAndTextTuples = []
    for line in lines[:height]:
        out += [*line, ("", "\n")]
    return out[:-1]


LABEL_WIDTH = 20
VALUE_WIDTH = 34


def _form(ctl: HallController) -> Callable[[int], StyleAndTextTuples]:
    def render(width: int) -> StyleAndTextTuples:
        tr, form = ctl.tr, ctl.model.form
        if form is None:
            return []
        out: StyleAndTextTuples = [("class:title", f" {tr('hall.form.title')}\n\n")]
        for index, field in enumerate(FIELDS):
            here = index == form.field
            label = fit(tr(f"hall.form.{field}"), LABEL_WIDTH)
            value = form.values[field]
            shown = value[-(VALUE_WIDTH - 1) :] if here else fit(value, VALUE_WIDTH).rstrip()
            out.append(("class:picker.cursor" if here else "", f" {'›' if here else ' '} {label}"))
            out.append(("class:prompt.mine", f" {shown}"))
            if here:
                out.append(("reverse", " "))
            out.append(("", "\n"))
            error = form.errors.get(field)
            if error:
                for piece in wrap_words(error, width - LABEL_WIDTH - 6):
                    out.append(("class:refusal", " " * (LABEL_WIDTH + 4) + f"{piece}\n"))
        out.append(("", "\n"))
        for piece in wrap_words(form.hint(form.current), width - 4):
            out.append(("class:dim", f"   {piece}\n"))
        return out

    return render


def _notice(ctl: HallController, width: int) -> StyleAndTextTuples:
    """A question or a notice above the keys, wrapped at its words (the terminal cut the
    quit question mid-word: 'Press Y to quit, an' / 'y other key to stay.')."""
    model, tr = ctl.model, ctl.tr
    style = "class:refusal"
    if model.confirm == "quit":
        text = tr("hall.confirm_quit")
    elif model.confirm == "close" and model.confirm_number is not None:
        name = next((r.name for r in model.rows if r.number == model.confirm_number), "?")
        text = tr("hall.confirm_close", number=model.confirm_number, table=name)
    elif model.notice:
        text = model.notice
        style = "class:refusal" if model.notice_is_refusal else "class:prompt"
    else:
        return []
    return [(style, "\n".join(f" {piece}" for piece in wrap_words(text, width - 2)[:2]))]


def _keys(ctl: HallController, width: int) -> StyleAndTextTuples:
    key = "hall.keys_form" if ctl.model.form is not None else "hall.keys"
    return [("class:dim", fit(f" {ctl.tr(key)}", width).rstrip())]


def build_hall_layout(ctl: HallController) -> Layout:
    model = ctl.model

    def line(render: Callable[[int], StyleAndTextTuples], **kwargs: object) -> Window:
        return Window(SizedTextControl(render), height=1, **kwargs)  # type: ignore[arg-type]

    def tables(width: int) -> StyleAndTextTuples:
        # The list scrolls by the height its window gives it (known once drawn).
        return _hall_list(ctl, width, listing.height or MIN_HEIGHT - 4)

    listing = SizedTextControl(tables)
    form_open = Condition(lambda: model.form is not None)
    hall = MinimumSize(
        HSplit(
            [
                line(lambda _w: _header(ctl), style="class:header"),
                line(lambda _w: _join_line(ctl)),
                ConditionalContainer(Window(listing), filter=~form_open),
                ConditionalContainer(Window(SizedTextControl(_form(ctl))), filter=form_open),
                # Two lines at most: a confirmation names the table (32 characters).
                Window(
                    SizedTextControl(lambda width: _notice(ctl, width)),
                    height=Dimension(min=1, max=2),
                    dont_extend_height=True,
                ),
                line(lambda width: _keys(ctl, width)),
            ]
        ),
        MIN_WIDTH,
        MIN_HEIGHT,
        ctl.tr,
    )

    def current() -> Container:
        view = ctl.shown()
        return view.container if view is not None else hall

    return Layout(DynamicContainer(current))


# ---------------------------------------------------------------------------- keys


def hall_key_bindings(ctl: HallController) -> KeyBindingsBase:
    """The hall's keys, a table's own keys while its screen is shown (with Esc/Q back to
    the hall), and Ctrl-C/Ctrl-Q, which close everything at once as they do on a table."""
    model = ctl.model
    in_table = Condition(lambda: ctl.shown() is not None)

    def shown_keys() -> KeyBindingsBase:
        view = ctl.shown()
        return view.keys if view is not None else KeyBindings()

    table_keys = ConditionalKeyBindings(DynamicKeyBindings(shown_keys), in_table)
    back = ConditionalKeyBindings(_back_to_hall(ctl), in_table)
    hall = ConditionalKeyBindings(merge_key_bindings([_hall_keys(ctl), _form_keys(ctl)]), ~in_table)
    always = KeyBindings()

    @always.add("c-c")
    @always.add("c-q")
    def _quit_now(event: E) -> None:
        model.confirm = None
        event.app.create_background_task(ctl.quit())

    return merge_key_bindings([hall, table_keys, back, always])


def _back_to_hall(ctl: HallController) -> KeyBindings:
    kb = KeyBindings()

    def table_model() -> TableModel | None:
        view = ctl.shown()
        return view.ctl.model if view is not None else None

    # The table's own modal states keep their keys: its help overlay and options list.
    free = Condition(
        lambda: (
            (m := table_model()) is not None
            and not m.help_open
            and not m.options_open
            and not m.confirm_quit
        )
    )

    @kb.add("escape", filter=free, eager=True)
    @kb.add("q", filter=free)
    @kb.add("Q", filter=free)
    def _back(_event: E) -> None:
        ctl.show(None)

    return kb


def _hall_keys(ctl: HallController) -> KeyBindings:
    model = ctl.model
    kb = KeyBindings()
    form_open = Condition(lambda: model.form is not None)
    confirming = Condition(lambda: model.confirm is not None)
    browsing = ~form_open & ~confirming
    _confirm_keys(kb, ctl, confirming)
    _cursor_keys(kb, model, browsing)
    _action_keys(kb, ctl, browsing)
    return kb


def _confirm_keys(kb: KeyBindings, ctl: HallController, confirming: Filter) -> None:
    """Y (O in French) does what is asked, any other key keeps things as they are."""
    model = ctl.model

    def _yes(event: E) -> None:
        what, number = model.confirm, model.confirm_number
        model.confirm, model.confirm_number = None, None
        if what == "quit":
            event.app.create_background_task(ctl.quit())
        elif number is not None:
            ctl.request(lambda: ctl.close(number))

    bind_yes_keys(kb, ctl.tr, confirming, _yes)

    @kb.add("<any>", filter=confirming)
    def _no(_event: E) -> None:
        model.confirm, model.confirm_number = None, None


def _cursor_keys(kb: KeyBindings, model: HallModel, browsing: Filter) -> None:
    """The cursor on the list: arrows (and j/k), pages, a table's number."""

    @kb.add("up", filter=browsing)
    @kb.add("k", filter=browsing)
    def _up(_event: E) -> None:
        model.move(-1)

    @kb.add("down", filter=browsing)
    @kb.add("j", filter=browsing)
    def _down(_event: E) -> None:
        model.move(1)

    @kb.add("pageup", filter=browsing)
    def _page_up(_event: E) -> None:
        model.move(-3)

    @kb.add("pagedown", filter=browsing)
    def _page_down(_event: E) -> None:
        model.move(3)

    for digit in "123456789":

        @kb.add(digit, filter=browsing)
        def _jump(event: E) -> None:
            model.select_number(int(event.data))


def _action_keys(kb: KeyBindings, ctl: HallController, browsing: Filter) -> None:
    """Show the table under the cursor, open a new one, close it, quit the hall."""
    model = ctl.model

    @kb.add("enter", filter=browsing)
    @kb.add("space", filter=browsing)
    def _show(_event: E) -> None:
        ctl.refresh()
        ctl.show(model.selected_number)

    for letter in "nN":

        @kb.add(letter, filter=browsing)
        def _new(_event: E) -> None:
            ctl.refresh()
            model.open_form()

    for letter in "cC":

        @kb.add(letter, filter=browsing)
        def _close(_event: E) -> None:
            if model.selected_number is not None:
                model.confirm, model.confirm_number = "close", model.selected_number
                model.notice = None

    for letter in "qQ":

        @kb.add(letter, filter=browsing)
        def _quit(_event: E) -> None:
            model.confirm = "quit"
            model.notice = None


def _form_keys(ctl: HallController) -> KeyBindings:
    """The new-table form: typed text goes to the field under the cursor."""
    model = ctl.model
    kb = KeyBindings()
    form_open = Condition(lambda: model.form is not None)

    @kb.add("<any>", filter=form_open)
    def _type(event: E) -> None:
        form = model.form
        if form is not None and len(event.data) == 1 and event.data.isprintable():
            form.type(event.data)

    @kb.add("backspace", filter=form_open)
    def _erase(_event: E) -> None:
        if model.form is not None:
            model.form.erase()

    @kb.add("c-u", filter=form_open)
    def _clear(_event: E) -> None:
        if model.form is not None:
            model.form.clear()

    @kb.add("up", filter=form_open)
    @kb.add("s-tab", filter=form_open)
    def _field_up(_event: E) -> None:
        if model.form is not None:
            model.form.move(-1)

    @kb.add("down", filter=form_open)
    @kb.add("tab", filter=form_open)
    def _field_down(_event: E) -> None:
        if model.form is not None:
            model.form.move(1)

    @kb.add("escape", filter=form_open, eager=True)
    def _cancel(_event: E) -> None:
        model.form = None

    @kb.add("enter", filter=form_open)
    def _submit(_event: E) -> None:
        form = model.form
        if form is None:
            return
        new = form.submit()
        if new is not None:
            ctl.request(lambda: ctl.open_new(new))

    return kb


# ---------------------------------------------------------------------------- app


def build_hall_application(
    ctl: HallController,
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[int]:
    app = full_screen_application(
        build_hall_layout(ctl), hall_key_bindings(ctl), input=input, output=output
    )
    ctl.app = app
    for view in ctl.views.values():
        view.ctl.app = app
    return app


async def run_hall_app(
    controls: HallControls,
    *,
    lang: str | None = None,
    defaults: NewTable | None = None,
    input: Input | None = None,
    output: Output | None = None,
    clock: Callable[[], float] = time.monotonic,
) -> int:
    """Run the hall until the host quits it (Q then Y: ``controls.shutdown()``);
    ``defaults``: what the new-table form starts from."""
    ctl = HallController(controls, HallModel(translator(lang), defaults), clock)
    ctl.sync()
    app = build_hall_application(ctl, input=input, output=output)

    def start() -> None:
        app.create_background_task(ctl.watch())

    return await app.run_async(pre_run=start)

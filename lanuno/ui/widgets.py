"""Small prompt_toolkit pieces shared by the two apps, and a text renderer for snapshots."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from prompt_toolkit.application import Application
from prompt_toolkit.application.current import set_app
from prompt_toolkit.filters import Condition, Filter
from prompt_toolkit.formatted_text import OneStyleAndTextTuple, StyleAndTextTuples
from prompt_toolkit.formatted_text.utils import split_lines
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import (
    ConditionalKeyBindings,
    KeyBindings,
    KeyBindingsBase,
    KeyPressEvent,
    merge_key_bindings,
)
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import Container, DynamicContainer, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl, UIContent
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.mouse_handlers import MouseHandlers
from prompt_toolkit.layout.screen import Screen, WritePosition
from prompt_toolkit.mouse_events import MouseEvent, MouseEventType
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style
from prompt_toolkit.utils import get_cwidth

from lanuno.ui.i18n import Translator
from lanuno.ui.narrate import LogLine

Render = Callable[[int], StyleAndTextTuples]
"""Fragments for a given width (the hand wraps its cards by the window's width)."""

STYLE = Style.from_dict(
    {
        "header": "bg:#1f3a5f #ffffff bold",
        "header.conn.bad": "bg:#aa5500 #ffffff bold",
        "title": "bold underline",
        "dim": "#8a8a8a",
        "prompt": "bold",
        "prompt.mine": "bold #ffd75f",
        "timer": "bold #ff8787",
        "refusal": "bold #ff5f5f",
        "selected": "bold",
        "card.red": "bg:#c00000 #ffffff",
        "card.yellow": "bg:#d7af00 #000000",
        "card.green": "bg:#008700 #ffffff",
        "card.blue": "bg:#005fd7 #ffffff",
        "card.wild": "bg:#303030 #ffffff",
        "card.off": "bg:#3a3a3a #9e9e9e",
        "card.legal": "bold",
        "card.cursor": "bold underline",
        "seat.turn": "bold #ffd75f",
        "seat.me": "#87d7ff",
        "seat.uno": "bold #ff5f5f",
        "seat.away": "bold #ff8700",
        "log.error": "#ff5f5f",
        "log.mine": "#87d7ff",
        "log.info": "#8a8a8a",
        "key": "bold reverse",
        "key.off": "#6c6c6c",
        "picker": "bg:#262626",
        "picker.option": "bold",
        "picker.cursor": "reverse bold",
        "big": "bold",
        "winner": "bold #ffd75f",
    }
)


class SizedTextControl(FormattedTextControl):
    """A FormattedTextControl whose text callable receives the width it will be drawn at.

    With ``tail=True`` it keeps only the last lines that fit the window (a log whose newest
    line must stay in view); the window's scroll offset would lag one frame behind. With
    ``squeeze=True``, text taller than the window loses its blank lines, the lowest first,
    until it fits (a lobby with ten seats and a kids' table's rules keeps its last line)."""

    def __init__(
        self,
        render: Render,
        *,
        tail: bool = False,
        scroll: Callable[[], int] | None = None,
        clamp: Callable[[int], None] | None = None,
        marker: Callable[[], str] | None = None,
        squeeze: bool = False,
        **kwargs: object,
    ) -> None:
        self._render = render
        self._squeeze = squeeze
        self._width = 80
        self.height: int | None = None
        """Lines the window gave this control at the last render (None before the first)."""
        self._tail = tail
        self._scroll = scroll
        self._clamp = clamp
        self._marker = marker
        super().__init__(self._tail_fragments, **kwargs)  # type: ignore[arg-type]

    def _tail_fragments(self) -> StyleAndTextTuples:
        fragments = self._render(self._width)
        if self._squeeze and self.height is not None:
            return squeeze_lines(fragments, self.height)
        if not self._tail or self.height is None:
            return fragments
        lines = list(split_lines(fragments))
        wanted = self._scroll() if self._scroll is not None else 0
        # Scrolled back (PgUp) by ``offset`` lines, never past the first line.
        offset = max(0, min(wanted, len(lines) - self.height))
        if offset != wanted and self._clamp is not None:
            self._clamp(offset)
        lines = lines[: len(lines) - offset][-self.height :]
        if offset and self._marker is not None and lines:
            lines[-1] = [("class:dim", " " + fit(self._marker(), self._width - 1).rstrip())]
        out: StyleAndTextTuples = []
        for line in lines:
            out += [*line, ("", "\n")]
        return out[:-1]

    def preferred_height(
        self,
        width: int,
        max_available_height: int,
        wrap_lines: bool,
        get_line_prefix: object,
    ) -> int | None:
        self._set_width(width)
        return super().preferred_height(
            width,
            max_available_height,
            wrap_lines,
            get_line_prefix,  # type: ignore[arg-type]
        )

    def create_content(self, width: int, height: int | None) -> UIContent:
        self._set_width(width)
        if height != self.height:
            self.height = height
            self._fragment_cache.clear()
        return super().create_content(width, height)

    def _set_width(self, width: int) -> None:
        if width != self._width:
            self._width = width
            self._fragment_cache.clear()


def squeeze_lines(fragments: StyleAndTextTuples, height: int) -> StyleAndTextTuples:
    """``fragments`` without as many of their blank lines (the lowest first) as it takes to
    fit ``height`` lines; text that fits, or has no blank line left, is kept as it is."""
    lines = list(split_lines(fragments))
    if lines and not any(text for _style, text, *_ in lines[-1]):
        lines.pop()  # the empty line after a final newline is not drawn
    excess = len(lines) - height
    if excess <= 0:
        return fragments
    for index in reversed(range(len(lines))):
        if excess <= 0:
            break
        if not "".join(text for _style, text, *_ in lines[index]).strip():
            del lines[index]
            excess -= 1
    out: StyleAndTextTuples = []
    for line in lines:
        out += [*line, ("", "\n")]
    return out[:-1]


def bottom_window(
    render: Render,
    *,
    scroll: Callable[[], int] | None = None,
    clamp: Callable[[int], None] | None = None,
    marker: Callable[[], str] | None = None,
) -> Window:
    """A window that shows the end of its text (a log: the newest lines stay in view), or,
    scrolled back by ``scroll()`` lines, older ones with ``marker()`` on its last line."""
    control = SizedTextControl(render, tail=True, scroll=scroll, clamp=clamp, marker=marker)
    return Window(control, wrap_lines=False)


def _wrap_whole_sizes(text: str, width: int) -> str:
    """``text`` wrapped by words, one space in, with a size (``80 x 24``) kept on one line:
    the window's own wrap cut "80 x 2|4" and "lanu|no" on a small terminal."""
    glued = re.sub(r"(\d) x (\d)", "\\1\u00a0x\u00a0\\2", text)
    lines = wrap_words(glued, max(width - 1, 1))
    return "\n".join(" " + line.replace("\u00a0", " ") for line in lines)


MIN_WIDTH = 80
MIN_HEIGHT = 24
"""The smallest terminal both screens are drawn for (README says so); below it they show
a "make the window bigger" screen instead of losing the hand or the seats."""


class MinimumSize(Container):
    """``content``, or a plain request to enlarge the window when it is drawn smaller than
    ``width`` x ``height``."""

    def __init__(self, content: Container, width: int, height: int, tr: Translator) -> None:
        self.content = content
        self.width = width
        self.height = height
        self.tr = tr
        self._size = (width, height)
        self.small = Window(FormattedTextControl(self._message))

    def too_small(self, width: int, height: int) -> bool:
        return width < self.width or height < self.height

    @property
    def showing_small(self) -> bool:
        """Last drawn as the "make the window bigger" screen."""
        return self.too_small(*self._size)

    def _message(self) -> StyleAndTextTuples:
        now_w, now_h = self._size
        need = self.tr("small.need", width=self.width, height=self.height, now_w=now_w, now_h=now_h)
        title, need, leave = (
            _wrap_whole_sizes(text, now_w)
            for text in (self.tr("small.title"), need, self.tr("small.quit"))
        )
        # Ctrl-C: the one key that acts here (full_screen_application).
        return [("class:title", f"{title}\n\n"), ("class:prompt", f"{need}\n\n"), ("", leave)]

    def reset(self) -> None:
        self.content.reset()

    def preferred_width(self, max_available_width: int) -> Dimension:
        return self.content.preferred_width(max_available_width)

    def preferred_height(self, width: int, max_available_height: int) -> Dimension:
        return self.content.preferred_height(width, max_available_height)

    def write_to_screen(
        self,
        screen: Screen,
        mouse_handlers: MouseHandlers,
        write_position: WritePosition,
        parent_style: str,
        erase_bg: bool,
        z_index: int | None,
    ) -> None:
        self._size = (write_position.width, write_position.height)
        chosen = self.small if self.too_small(*self._size) else self.content
        chosen.write_to_screen(
            screen, mouse_handlers, write_position, parent_style, erase_bg, z_index
        )

    def get_children(self) -> list[Container]:
        return [self.content, self.small]


def hstack(columns: Sequence[tuple[StyleAndTextTuples, int]]) -> StyleAndTextTuples:
    """Columns of text side by side: each (fragments, width) cut or padded to its width."""
    split = [(list(split_lines(fragments)), width) for fragments, width in columns]
    height = max((len(lines) for lines, _ in split), default=0)
    out: StyleAndTextTuples = []
    for row in range(height):
        for lines, width in split:
            line = lines[row] if row < len(lines) else []
            out += _fit_fragments(line, width)
        out.append(("", "\n"))
    return out[:-1]


def _fit_fragments(line: StyleAndTextTuples, width: int) -> StyleAndTextTuples:
    out: StyleAndTextTuples = []
    used = 0
    for fragment in line:
        text = fragment[1]
        cells = get_cwidth(text)
        if used + cells > width:
            text = fit(text, width - used) if width > used else ""
            cells = get_cwidth(text)
        if text:
            out.append((fragment[0], text))
        used += cells
        if used >= width:
            break
    return [*out, ("", " " * (width - used))] if used < width else out


def log_fragments(lines: Iterable[LogLine], width: int) -> StyleAndTextTuples:
    """Log lines word-wrapped to ``width``, one style class per kind of line."""
    out: StyleAndTextTuples = []
    for entry in lines:
        for piece in wrap_words(entry.text, max(10, width - 2)):
            out += [(f"class:log.{entry.kind}", f" {piece}"), ("", "\n")]
    return out[:-1]


@dataclass(frozen=True, slots=True)
class KeyItem:
    """One key of a keys bar: ``D draw``."""

    key: str
    label: str
    action: Callable[[], None] | None = None
    enabled: bool = True
    optional: bool = False
    """The first to leave a full line (``? help``), whole: never a bare key."""


def keys_line(items: Sequence[KeyItem], width: int, *, dim: bool = False) -> StyleAndTextTuples:
    """A keys bar that fits ``width``: the gaps shrink to one space, then optional keys
    leave, then the last keys; an entry is shown whole (its key and its label) or not at
    all, so the line never ends on a bare key or half a phrase. ``dim``: a bar of keys that
    are read, not clicked (the shared screen's), grey with its keys in bold."""

    def build(gap: str, shown: Sequence[KeyItem]) -> StyleAndTextTuples:
        out: StyleAndTextTuples = [("", " ")]
        for index, item in enumerate(shown):
            enabled = "class:key" if item.enabled else "class:key.off"
            style = "class:dim bold" if dim else enabled
            key: OneStyleAndTextTuple = (
                (style, item.key, on_click(item.action)) if item.action else (style, item.key)
            )
            out += [key, ("class:dim" if dim else "", f" {item.label}")]
            if index < len(shown) - 1:
                out.append(("class:dim" if dim else "", gap))
        return out

    def cells(line: StyleAndTextTuples) -> int:
        return sum(get_cwidth(fragment[1]) for fragment in line)

    needed = [item for item in items if not item.optional]
    for shown in (list(items), needed):
        for gap in ("  ", " "):
            line = build(gap, shown)
            if cells(line) <= width:
                return line
    while len(needed) > 1:
        needed = needed[:-1]
        line = build(" ", needed)
        if cells(line) <= width:
            return line
    return build(" ", needed)


def on_click(action: Callable[[], None]) -> Callable[[MouseEvent], object]:
    """A mouse handler that runs ``action`` on a click (button release)."""

    def handler(event: MouseEvent) -> object:
        if event.event_type == MouseEventType.MOUSE_UP:
            action()
            return None
        return NotImplemented

    return handler


def bind_yes_keys(
    kb: KeyBindings, tr: Translator, asking: Filter, answer: Callable[[KeyPressEvent], None]
) -> None:
    """Bind the keys that answer yes to a "quit?" or "close?" question while ``asking``: Y,
    and the language's own letter (O for oui), in either case."""
    for letter in dict.fromkeys(("y", tr("key.yes"))):
        for key in (letter, letter.upper()):
            kb.add(key, filter=asking)(answer)


class QuitAndHelp(Protocol):
    """A screen's model with a "quit?" question and a help overlay."""

    confirm_quit: bool
    help_open: bool


def modal_key_bindings(
    model: QuitAndHelp,
    tr: Translator,
    quit_now: Callable[[KeyPressEvent], None],
    game: KeyBindings,
) -> KeyBindingsBase:
    """``game``'s keys, under two modal states that take the next key: the "quit?"
    question (yes quits, any other key stays) and the help overlay (any key closes it).
    Ctrl-C and Ctrl-Q quit at once, whatever is open."""
    modal = KeyBindings()
    confirming = Condition(lambda: model.confirm_quit)
    helping = Condition(lambda: model.help_open)
    modal.add("c-c")(quit_now)
    modal.add("c-q")(quit_now)
    bind_yes_keys(modal, tr, confirming, quit_now)

    @modal.add("<any>", filter=confirming & ~helping)
    def _stay(_event: KeyPressEvent) -> None:
        model.confirm_quit = False

    @modal.add("<any>", filter=helping)
    def _close_help(_event: KeyPressEvent) -> None:
        model.help_open = False

    return merge_key_bindings([ConditionalKeyBindings(game, ~confirming & ~helping), modal])


def fit(text: str, width: int) -> str:
    """``text`` cut (with an ellipsis) or padded to exactly ``width`` cells."""
    if width <= 0:
        return ""
    if get_cwidth(text) > width:
        while text and get_cwidth(text) > width - 1:
            text = text[:-1]
        text += "…"
    return text + " " * (width - get_cwidth(text))


GLUED_TO_THE_WORD_BEFORE = frozenset({":", ";", "!", "?", "»"})
"""French sets these apart from the word before with a space: a line must not begin with
one (nor end with a "«")."""


def _unbreakable(text: str) -> list[str]:
    """``text``'s words, with French punctuation kept on the line of its word."""
    units: list[str] = []
    for word in text.split(" "):
        if units and (word in GLUED_TO_THE_WORD_BEFORE or units[-1] == "«"):
            units[-1] += " " + word
        else:
            units.append(word)
    return units


def wrap_words(text: str, width: int) -> list[str]:
    """Plain word wrap (log lines in a narrow panel)."""
    lines: list[str] = []
    line = ""
    for word in _unbreakable(text):
        candidate = f"{line} {word}" if line else word
        if get_cwidth(candidate) <= width or not line:
            line = candidate
        else:
            lines.append(line)
            line = word
    lines.append(line)
    return [fit(item, width).rstrip() for item in lines]


def wrap_items(items: Sequence[str], width: int) -> list[str]:
    """Comma-separated ``items`` wrapped at their words to ``width``. An item told as
    ``name: value`` keeps a short name whole and a one-word value on the line of its name
    ("Draw Two: ...", "Hand limit: 6"; never "Draw" with "Two:" under it, nor "Hand limit:"
    with "6")."""
    return [line.replace(_GLUE, " ") for line in wrap_words(", ".join(map(_glued, items)), width)]


_GLUE = "\u00a0"
_NAME_AND_VALUE = re.compile(r"^(.*?)( ?: )(.*)$")
_SHORT_NAME = 12
"""Cells up to which a name stays whole (a longer one may break like any text)."""


def _glued(item: str) -> str:
    """``item`` with the spaces that must not break (see :func:`wrap_items`) made hard."""
    found = _NAME_AND_VALUE.match(item)
    if found is None:
        return item
    name, colon, value = found.groups()
    if get_cwidth(name) <= _SHORT_NAME:
        name = name.replace(" ", _GLUE)
    if " " not in value:
        colon = colon.replace(" ", _GLUE)
    return name + colon + value


def terminal_lines(text: str, width: int) -> list[str]:
    """``text`` as a terminal ``width`` cells wide is to show it: each line broken at its
    words, not cut mid-word by the terminal (French lines were: ``couleu`` / ``r V``), its
    continuation indented as the line is. A word wider than the terminal stays whole (a
    path, a command to copy): the terminal wraps it."""
    out: list[str] = []
    for line in text.split("\n"):
        if get_cwidth(line) <= width:
            out.append(line)
            continue
        body = line.lstrip(" ")
        indent = line[: len(line) - len(body)]
        current = ""
        for word in _unbreakable(body):
            candidate = f"{current} {word}" if current else word
            if current and get_cwidth(indent + candidate) > width:
                out.append((indent + current).rstrip())
                current = word
            else:
                current = candidate
        out.append(indent + current)
    return out


def list_item_lines(prefix: str, text: str, width: int) -> list[str]:
    """One item of a numbered list printed in a terminal ``width`` cells wide: ``prefix``
    (``"  2) "``), then ``text`` wrapped at its words under itself. The terminal cut a
    French table's line in the middle of a word (``officielle`` / ``s``)."""
    if get_cwidth(prefix + text) <= width:
        return [prefix + text]
    indent = " " * get_cwidth(prefix)
    lines = wrap_words(text, max(20, width - len(indent)))
    return [prefix + lines[0], *(indent + line for line in lines[1:])]


def render_text(app: Application[Any], width: int = 80, height: int = 24) -> str:
    """The app's current layout drawn to plain text (no styles): golden snapshots, bench.

    Deterministic: it draws straight onto a Screen, without the terminal or event loop."""
    screen = Screen(initial_width=width, initial_height=height)
    app.render_counter += 1  # a fresh frame for the controls' per-render caches
    with set_app(app):
        app.layout.container.write_to_screen(
            screen,
            MouseHandlers(),
            WritePosition(xpos=0, ypos=0, width=width, height=height),
            parent_style="",
            erase_bg=False,
            z_index=None,
        )
        screen.draw_all_floats()
    lines = []
    for y in range(height):
        row = screen.data_buffer[y]
        lines.append("".join(row[x].char for x in range(width)).rstrip())
    return "\n".join(lines) + "\n"


def full_screen_application(
    layout: Layout,
    key_bindings: KeyBindingsBase,
    *,
    input: Input | None = None,
    output: Output | None = None,
) -> Application[int]:
    """The one application shape both screens use: full screen, mouse, and a redraw every
    half second so that the move timer counts down. While the window is too small only
    Ctrl-C and Ctrl-Q act: a key must not play a card, start a game or kick a player on a
    screen nobody sees (a D drew a card behind "make the window bigger")."""
    hidden = Condition(lambda: _showing_small(layout.container))
    return Application(
        layout=layout,
        key_bindings=_inert_while(hidden, key_bindings),
        style=STYLE,
        full_screen=True,
        mouse_support=True,
        refresh_interval=0.5,
        input=input,
        output=output,
    )


def _showing_small(container: Container) -> bool:
    if isinstance(container, MinimumSize):
        return container.showing_small
    if isinstance(container, DynamicContainer):  # the hall: the hall or a table's screen
        return any(_showing_small(child) for child in container.get_children())
    return False


ALWAYS_KEYS = frozenset({(Keys.ControlC,), (Keys.ControlQ,)})
"""Quit at once, whatever the screen shows."""


def _inert_while(hidden: Filter, key_bindings: KeyBindingsBase) -> KeyBindingsBase:
    """``key_bindings`` off while ``hidden`` (a table's keys in the hall stay dynamic), but
    for its Ctrl-C and Ctrl-Q."""
    quit_keys = KeyBindings()
    for binding in key_bindings.bindings:
        if binding.keys in ALWAYS_KEYS:
            quit_keys.add(*binding.keys, filter=binding.filter & hidden)(binding.handler)
    return merge_key_bindings([ConditionalKeyBindings(key_bindings, ~hidden), quit_keys])


def still_running(app: Application[int]) -> bool:
    """Running and not already exiting (a second Q must not raise)."""
    return app.is_running and app.future is not None and not app.future.done()

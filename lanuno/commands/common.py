"""What several commands share: rules and bot pace from the arguments, the default journal
path. Light on purpose: ``cli.py`` imports it to refuse bad rules before any command
loads."""

from __future__ import annotations

import argparse
import contextlib
import errno
import ipaddress
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from lanuno.engine.rules import Rules, preset, with_options
from lanuno.host.pace import NO_PACE, FixedPace, LevelPace, Pace
from lanuno.ui.i18n import Translator, translator
from lanuno.ui.plain import stdin_lines
from lanuno.wire.crypto import normalize_room_code
from lanuno.wire.messages import MAX_NAME, MessageError, check_name

if TYPE_CHECKING:
    from lanuno.net.client import Locator


CODE_TRIES = 3
"""Room or screen codes typed at the prompt before giving up (the host paces wrong codes
anyway)."""


def say(text: str) -> None:
    _print_wrapped(text, sys.stdout)


def complain(command: str, text: str) -> None:
    """``lanuno COMMAND: text`` on standard error, broken at words in a terminal as
    ``say`` does (at 80 columns a failed join read 'the ho' / 'st refused')."""
    _print_wrapped(f"lanuno {command}: {text}", sys.stderr)


def _print_wrapped(text: str, out: TextIO) -> None:
    if out.isatty():  # a terminal: lines broken at words (a pipe gets them whole)
        from lanuno.ui.widgets import terminal_lines  # prompt_toolkit: not for every command

        text = "\n".join(terminal_lines(text, shutil.get_terminal_size().columns))
    try:
        print(text, file=out, flush=True)
    except OSError as error:
        if not terminal_gone(error):
            raise  # a closed terminal has nobody left to tell


def say_item(prefix: str, text: str) -> None:
    """One item of a numbered list (``"  2) "``, then the text), wrapped at its words to
    the terminal's width."""
    from lanuno.ui.widgets import list_item_lines  # prompt_toolkit: not for every command

    for line in list_item_lines(prefix, text, shutil.get_terminal_size().columns):
        say(line)


def terminal_gone(error: BaseException) -> bool:
    """Whether ``error`` says the terminal was closed under us (SIGHUP): reads end, writes
    fail with EIO (a pty whose other side is gone) or EPIPE."""
    if isinstance(error, EOFError | BrokenPipeError):
        return True
    return isinstance(error, OSError) and error.errno == errno.EIO


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The preset named by ``--preset`` with every ``--option key=value`` applied."""
    return with_options(preset(args.preset), args.option or [])


def pace_from_args(args: argparse.Namespace) -> Pace:
    delay = getattr(args, "bot_delay", None)
    if delay is None:
        return LevelPace()
    return NO_PACE if delay <= 0 else FixedPace(delay)


def default_journal() -> Path:
    base = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    directory = base / "lanuno"
    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
    return directory / f"table-{time.strftime('%Y%m%d-%H%M%S')}.journal"


def split_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:7777`` for IPv6) as typed after ``lanuno join`` or ``lanuno
    screen``; a ValueError names what is wrong, before any connection is tried."""
    host, sep, port = text.rpartition(":")
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    if not sep or not host or not (port.isascii() and port.isdigit()):
        raise ValueError(f"expected HOST:PORT, got {text!r}")
    if not 1 <= int(port) <= 65535:
        raise ValueError(f"the port must be between 1 and 65535, got {port}")
    return host, int(port)


def clean_name(text: str) -> str:
    """A name as typed (``--name``, the login name): runs of spaces and tabs become one
    space, cut to what the wire takes; ValueError when blank or holding control or
    direction characters."""
    cleaned = " ".join(text.split())[:MAX_NAME]
    if not cleaned:
        raise ValueError("a name cannot be blank")
    try:
        return check_name(cleaned)
    except MessageError:
        raise ValueError(
            f"{text!r}: a name is printable text, without control or direction characters"
        ) from None


def on_loopback(host: str) -> bool:
    """An address of this machine only (``127.x``, ``::1``, ``localhost``): a host there
    never moves, and a client told to use it has no business browsing the LAN."""
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host.lower() in ("localhost", "localhost.")


def table_locator(interface: str | None) -> Callable[[bytes, int], Locator]:
    """For a table on the LAN: look for it again, on the same interfaces as they are then,
    whenever its host is lost (it may be announced at a new address)."""

    def locate(room_id: bytes, table: int) -> Locator:
        from lanuno.net.discovery import TableLocator, discovery_addresses  # zeroconf: late

        return TableLocator(discovery_addresses(interface), room_id, table)

    return locate


def locator_for(args: argparse.Namespace, host: str) -> Callable[[bytes, int], Locator] | None:
    """What ``join`` and ``screen`` look for a lost host with: its table where it is
    announced, unless the address was typed as this machine (a host there never moves)."""
    if args.address and on_loopback(host):
        return None
    return table_locator(getattr(args, "interface", None))


async def read_answer(prompt: str) -> str | None:
    """One line typed on standard input after ``prompt``, stripped; None at its end."""
    print(prompt, end="", flush=True)
    # Closed at once, so its stdin reader is gone before the next one is installed.
    async with contextlib.aclosing(stdin_lines()) as lines:
        async for line in lines:
            return line.strip()
    return None


def well_formed_code(text: str) -> bool:
    """Whether ``text`` reads as a room or screen code (6 digits, grouping aside)."""
    try:
        normalize_room_code(text)
    except ValueError:
        return False
    return True


def refuse_malformed_code(command: str, args: argparse.Namespace) -> bool:
    """Say so (in the player's language) when ``--code`` is not 6 digits: refused before any
    connection, as a typo would be."""
    if args.code and not well_formed_code(args.code):
        complain(command, translator(args.lang)("code.format"))
        return True
    return False


async def read_code(command: str, prompt: str, tr: Translator) -> str:
    """A room or screen code typed after ``prompt``, asked again while it is not 6 digits:
    a typo is named for what it is and costs no connection ("" at the end of input)."""
    while True:
        answer = await read_answer(prompt)
        if answer is None:
            return ""
        if well_formed_code(answer):
            return answer
        complain(command, tr("code.format"))


async def read_line(prompt: str) -> str:
    """One line typed on standard input after ``prompt``, stripped ("" at its end)."""
    return await read_answer(prompt) or ""

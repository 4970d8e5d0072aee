"""``lanuno host | join | screen | play | sim``: argument parsing only; each command lives in
its module."""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Sequence

from lanuno import __version__
from lanuno.bots.levels import BotLevel, UnknownBotLevel
from lanuno.commands.common import clean_name, rules_from_args
from lanuno.engine.rules import PRESETS
from lanuno.ui.i18n import resolve_lang
from lanuno.wire.crypto import MAX_TABLES
from lanuno.wire.messages import MAX_AGE

LEVEL_CHOICES = "{" + ",".join(BotLevel) + "}"


def bot_level(word: str) -> BotLevel:
    """``--level`` of host and play: one level, refused (exit 2) when unknown."""
    try:
        return BotLevel.parse(word)
    except UnknownBotLevel as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def name(text: str) -> str:
    """``--name``: refused (exit 2) when blank or holding control or direction characters."""
    try:
        return clean_name(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def age(text: str) -> int:
    """``--age``: whole years, 0 to 120 (as the wire takes it)."""
    if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= MAX_AGE:
        raise argparse.ArgumentTypeError(f"an age is a whole number from 0 to {MAX_AGE}")
    return int(text)


def seconds(text: str) -> float:
    """A duration in seconds: a number, 0 or more."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value) or value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, 0 or more, got {text!r}")
    return value


def positive_seconds(text: str) -> float:
    """A duration in seconds that must not be 0 (a timeout)."""
    value = seconds(text)
    if value == 0:
        raise argparse.ArgumentTypeError("expected a number of seconds above 0, got 0")
    return value


def table_number(text: str) -> int:
    """``--table``: 1 to the most tables a hall holds."""
    if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_TABLES:
        raise argparse.ArgumentTypeError(f"a table number is from 1 to {MAX_TABLES}")
    return int(text)


def bot_levels(text: str) -> tuple[BotLevel, ...]:
    """``--level`` of sim: one level for every seat, or one per seat, comma-separated."""
    return tuple(bot_level(word) for word in text.split(","))


def _add_rules_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--preset",
        default="official",
        choices=sorted(PRESETS),
        help="rule preset (default: official)",
    )
    parser.add_argument(
        "--option",
        action="append",
        metavar="KEY=VALUE",
        help="table option, repeatable: stacking=on, seven_o=on, jump_in=on, "
        "draw_until_playable=on, wild_draw_four=strict, target=200|300|500|"
        "none, move_timer=30, ka1..ka5=on",
    )


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="lanuno", description="UNO for a room full of laptops.")
    parser.add_argument("--version", action="version", version=f"lanuno {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sim = sub.add_parser("sim", help="bots-only games in this process, with statistics")
    sim.add_argument("--games", type=int, default=100)
    sim.add_argument("--players", type=int, default=4)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument(
        "--playouts",
        type=int,
        metavar="N",
        help="expert: sampled worlds per decision instead of its 150 (with no time cap: "
        "reproducible whatever the load)",
    )
    sim.add_argument(
        "--level",
        type=bot_levels,
        default=(BotLevel.BEGINNER,),
        metavar="LEVEL[,LEVEL...]",
        help=f"bot level for all seats, or one per seat ({', '.join(BotLevel)})",
    )
    sim.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="the progress bar on standard error: auto draws it on a terminal only (default: auto)",
    )
    _add_rules_arguments(sim)

    host = sub.add_parser("host", help="host a table on this LAN (shared screen)")
    host.add_argument(
        "--name",
        type=name,
        help="table name (default: this computer's name; with --tables: the names' prefix, "
        "'Table 1', 'Table 2'...)",
    )
    host.add_argument(
        "--tables",
        type=int,
        metavar="N",
        help="host N tables on one port (a hall; its journal is a directory)",
    )
    host.add_argument("--port", type=int, default=0, help="TCP port (default: any free port)")
    host.add_argument("--bots", type=int, default=0, help="bots to seat at start")
    host.add_argument(
        "--level",
        type=bot_level,
        default=BotLevel.INTERMEDIATE,
        metavar=LEVEL_CHOICES,
        help="level of the bots seated with --bots, of those the screen adds (L changes it) "
        "and of the bots that play for dropped players (default: intermediate)",
    )
    host.add_argument(
        "--code", help="room code to use instead of a random one (with --tables: every table's)"
    )
    host.add_argument(
        "--interface", help="IPv4 address to serve and announce on (default: every LAN one)"
    )
    host.add_argument("--headless", action="store_true", help="log events instead of a screen")
    host.add_argument(
        "--resume", metavar="FILE|DIR", help="rebuild a table from its journal (a hall: DIR)"
    )
    host.add_argument(
        "--salvage",
        action="store_true",
        help="with --resume: restore a journal damaged in the middle up to the damage "
        "(a copy of the file is kept)",
    )
    host.add_argument(
        "--journal", metavar="FILE|DIR", help="where to write the journal (a hall: DIR)"
    )
    host.add_argument("--no-mdns", action="store_true", help="do not announce on the LAN")
    host.add_argument("--lang", help="interface language (en, fr)")
    host.add_argument(
        "--round-pause", type=seconds, default=5.0, help="headless: seconds between rounds"
    )
    host.add_argument(
        "--bot-delay", type=seconds, help="seconds a bot waits before acting (default: human pace)"
    )
    host.add_argument(
        "--peer-timeout",
        type=positive_seconds,
        default=15.0,
        help="seconds of silence before a peer is gone",
    )
    _add_rules_arguments(host)

    join = sub.add_parser("join", help="join a table (lists tables on the LAN without ADDRESS)")
    join.add_argument("address", nargs="?", metavar="HOST:PORT")
    join.add_argument("--name", type=name, help="your name at the table (default: your login name)")
    join.add_argument(
        "--table", type=table_number, help="the table number at HOST:PORT (default 1)"
    )
    join.add_argument("--code", help="the room code shown on the shared screen")
    join.add_argument("--kid", action="store_true", help="play as a kid (kids' options)")
    join.add_argument(
        "--age", type=age, help="your age: at kids' tables the youngest player starts"
    )
    join.add_argument("--plain", action="store_true", help="line-based client, no full screen")
    join.add_argument("--lang", help="interface language (en, fr)")
    join.add_argument(
        "--interface", help="IPv4 address to look for tables on (default: every LAN one)"
    )

    screen = sub.add_parser(
        "screen", help="be a table's shared screen (pairs with the screen code on the host)"
    )
    screen.add_argument("address", nargs="?", metavar="HOST:PORT")
    screen.add_argument(
        "--table", type=table_number, help="the table number at HOST:PORT (default 1)"
    )
    screen.add_argument("--code", help="the table's screen code (shown on the host)")
    screen.add_argument("--headless", action="store_true", help="a plain log, no full screen")
    screen.add_argument("--lang", help="interface language (en, fr)")
    screen.add_argument(
        "--interface", help="IPv4 address to look for tables on (default: every LAN one)"
    )

    play = sub.add_parser("play", help="play against bots on this computer")
    play.add_argument(
        "--players",
        type=int,
        default=4,
        help="seats at the table, yours included (2 to 10, default 4)",
    )
    play.add_argument(
        "--level",
        type=bot_level,
        default=BotLevel.INTERMEDIATE,
        metavar=LEVEL_CHOICES,
        help="the bots' level (default: intermediate)",
    )
    play.add_argument(
        "--name", type=name, help="your name at the table (default: Player, in your language)"
    )
    play.add_argument("--kid", action="store_true", help="play as a kid (kids' options)")
    play.add_argument(
        "--age", type=age, help="your age: at kids' tables the youngest player starts"
    )
    play.add_argument("--lang", help="interface language (en, fr)")
    play.add_argument("--plain", action="store_true", help="line-based client, no full screen")
    play.add_argument(
        "--bot-delay", type=seconds, help="seconds a bot waits before acting (default: human pace)"
    )
    _add_rules_arguments(play)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (2 for a usage error, after saying why)."""
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        # A bare "lanuno" said only "the following arguments are required: command".
        parser.print_help()
        return 2
    try:
        args = parser.parse_args(argv)
        if hasattr(args, "preset"):
            try:
                rules_from_args(args)
            except ValueError as exc:
                parser.error(str(exc))
        if getattr(args, "lang", None):
            try:
                resolve_lang(args.lang)
            except ValueError as exc:
                parser.error(str(exc))
    except SystemExit as stop:  # argparse exits on --help, --version and usage errors
        return stop.code if isinstance(stop.code, int) else 2
    # Imported on demand: ``lanuno sim`` need not load the network and the terminal apps.
    if args.command == "sim":
        from lanuno.commands import sim

        return sim.run(args)
    if args.command == "host":
        from lanuno.commands import host

        return host.run(args)
    if args.command == "join":
        from lanuno.commands import join

        return join.run(args)
    if args.command == "screen":
        from lanuno.commands import screen

        return screen.run(args)
    if args.command == "play":
        from lanuno.commands import play

        return play.run(args)
    parser.error(f"unknown command {args.command}")
    return 2


if __name__ == "__main__":
    sys.exit(main())

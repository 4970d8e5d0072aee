"""``lanuno host | join | screen | play | sim``: argument parsing only; each command lives in
its module."""

from __future__ import annotations

import argparse
import functools
import math
import re
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn

from lanuno import __version__
from lanuno.bots.levels import BotLevel, UnknownBotLevel
from lanuno.commands.common import clean_name, rules_from_args
from lanuno.engine.rules import MAX_SEATS, MIN_SEATS, PRESETS
from lanuno.ui.i18n import LANGUAGES, Translator, resolve_lang
from lanuno.ui.refusals import option_refusal, rules_refusal
from lanuno.wire.crypto import MAX_TABLES
from lanuno.wire.messages import MAX_AGE

LEVEL_CHOICES = "{" + ",".join(BotLevel) + "}"


def bot_level(tr: Translator) -> Callable[[str], BotLevel]:
    """``--level`` of host and play: one level, refused (exit 2) when unknown."""

    def parse(word: str) -> BotLevel:
        try:
            return BotLevel.parse(word)
        except UnknownBotLevel as error:
            if tr.lang == "en":
                raise argparse.ArgumentTypeError(str(error)) from None
            choices = ", ".join(BotLevel)
            raise argparse.ArgumentTypeError(
                tr("hall.bad.level", value=word.strip(), choices=choices)
            ) from None

    return parse


def name(tr: Translator) -> Callable[[str], str]:
    """``--name``: refused (exit 2) when blank or holding control or direction characters."""

    def parse(text: str) -> str:
        try:
            return clean_name(text)
        except ValueError:
            blank = not text.split()
            key = "cli.err.name_blank" if blank else "cli.err.name_chars"
            raise argparse.ArgumentTypeError(tr(key, value=repr(text))) from None

    return parse


def age(tr: Translator) -> Callable[[str], int]:
    """``--age``: whole years, 0 to 120 (as the wire takes it)."""

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not 0 <= int(text) <= MAX_AGE:
            raise argparse.ArgumentTypeError(tr("cli.err.age", max=MAX_AGE))
        return int(text)

    return parse


def seconds(tr: Translator, *, above_zero: bool = False) -> Callable[[str], float]:
    """A duration in seconds: a number, 0 or more (``above_zero``: a timeout, not 0)."""

    def parse(text: str) -> float:
        try:
            value = float(text)
        except ValueError:
            value = math.nan
        if not math.isfinite(value) or value < 0:
            raise argparse.ArgumentTypeError(tr("cli.err.seconds", value=repr(text)))
        if above_zero and value == 0:
            raise argparse.ArgumentTypeError(tr("cli.err.positive"))
        return value

    return parse


def seat_count(tr: Translator) -> Callable[[str], int]:
    """``--players``: a table of 2 to 10 seats (O1)."""

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not MIN_SEATS <= int(text) <= MAX_SEATS:
            raise argparse.ArgumentTypeError(
                tr("cli.err.players", min=MIN_SEATS, max=MAX_SEATS, value=repr(text))
            )
        return int(text)

    return parse


def table_number(tr: Translator) -> Callable[[str], int]:
    """``--table``: 1 to the most tables a hall holds."""

    def parse(text: str) -> int:
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= MAX_TABLES:
            raise argparse.ArgumentTypeError(tr("cli.err.table", max=MAX_TABLES))
        return int(text)

    return parse


def bot_levels(tr: Translator) -> Callable[[str], tuple[BotLevel, ...]]:
    """``--level`` of sim: one level for every seat, or one per seat, comma-separated."""
    one = bot_level(tr)
    return lambda text: tuple(one(word) for word in text.split(","))


_GLUED = re.compile(r" (?=[:;?!»])|(?<=«) ")
"""The spaces French puts before its double punctuation and inside «»: never a line break."""


class _Formatter(argparse.HelpFormatter):
    def __init__(self, prog: str, *, usage_prefix: str) -> None:
        super().__init__(prog)
        self._usage_prefix = usage_prefix

    def add_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None = None) -> None:
        # argparse passes "" when it builds a subcommand's prog: no prefix there.
        super().add_usage(usage, actions, groups, self._usage_prefix if prefix is None else prefix)

    def _split_lines(self, text: str, width: int) -> list[str]:
        glued = _GLUED.sub("\u00a0", text)  # argparse and textwrap break at ASCII spaces only
        return [line.replace("\u00a0", " ") for line in super()._split_lines(glued, width)]


# argparse's own refusals, as it words them (Python 3.11+), and the catalogue key of each.
_ARGPARSE_ERRORS = (
    (re.compile(r"the following arguments are required: (?P<names>.*)"), "cli.err.required"),
    (
        re.compile(
            r"argument (?P<name>\S+): invalid choice: (?P<value>.*) \(choose from (?P<choices>.*)\)"
        ),
        "cli.err.choice",
    ),
    (re.compile(r"unrecognized arguments: (?P<names>.*)"), "cli.err.unrecognized"),
    (re.compile(r"argument (?P<name>\S+): expected one argument"), "cli.err.expected"),
    (
        re.compile(r"ambiguous option: (?P<name>\S+) could match (?P<names>.*)"),
        "cli.err.ambiguous",
    ),
    (
        re.compile(r"argument (?P<name>\S+): ignored explicit argument (?P<value>.*)"),
        "cli.err.no_value",
    ),
    (
        re.compile(r"argument (?P<name>\S+): invalid (?P<kind>\S+) value: (?P<value>.*)"),
        "cli.err.value",
    ),
    (re.compile(r"argument (?P<name>\S+): (?P<message>.*)"), "cli.err.argument"),
)


class Parser(argparse.ArgumentParser):
    """argparse in the player's language: the help, the usage line, the section titles and
    the refusals (argparse's own words come from its English templates, reworded here)."""

    def __init__(self, *, tr: Translator, **kwargs: Any) -> None:
        kwargs["formatter_class"] = functools.partial(_Formatter, usage_prefix=tr("cli.usage"))
        kwargs["add_help"] = False  # its own -h, in the player's language
        super().__init__(**kwargs)
        self.tr = tr
        self._positionals.title = tr("cli.positionals")
        self._optionals.title = tr("cli.optionals")
        self.add_argument(
            "-h", "--help", action="help", default=argparse.SUPPRESS, help=tr("cli.help")
        )

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        said = self.tr("cli.error", prog=self.prog, message=self.reword(message))
        self.exit(2, said + "\n")

    def reword(self, message: str) -> str:
        if self.tr.lang == "en":
            return message
        for pattern, key in _ARGPARSE_ERRORS:
            found = pattern.fullmatch(message)
            if found:
                return self.tr(key, **found.groupdict())
        return message


def _add_rules_arguments(parser: argparse.ArgumentParser, tr: Translator) -> None:
    parser.add_argument(
        "--preset", default="official", choices=sorted(PRESETS), help=tr("cli.preset")
    )
    parser.add_argument("--option", action="append", metavar="KEY=VALUE", help=tr("cli.option"))


def help_language(argv: Sequence[str], environ: Mapping[str, str] | None = None) -> str:
    """The language of the help and the refusals: ``--lang``'s if it names a known one,
    else the environment's (a wrong ``--lang`` is refused later, in that language)."""
    for i, word in enumerate(argv):
        value = word.partition("=")[2] if word.startswith("--lang=") else None
        if word == "--lang" and i + 1 < len(argv):
            value = argv[i + 1]
        if value is not None:
            try:
                return resolve_lang(value)
            except ValueError:
                break
    return resolve_lang(None, environ)


def build_parser(lang: str = "en") -> argparse.ArgumentParser:
    tr = Translator(lang)
    parser = Parser(prog="lanuno", description=tr("cli.description"), tr=tr)
    parser.add_argument(
        "--version", action="version", version=f"lanuno {__version__}", help=tr("cli.version")
    )
    sub = parser.add_subparsers(dest="command", required=True)
    levels = ", ".join(f"«{level}»" for level in BotLevel)
    age_type, table_type = age(tr), table_number(tr)
    level_type, name_type = bot_level(tr), name(tr)
    duration, timeout = seconds(tr), seconds(tr, above_zero=True)

    sim = sub.add_parser("sim", help=tr("cli.sim"), tr=tr)
    sim.add_argument("--games", type=int, default=100, help=tr("cli.sim.games"))
    sim.add_argument("--players", type=seat_count(tr), default=4, help=tr("cli.sim.players"))
    sim.add_argument("--seed", type=int, default=0, help=tr("cli.sim.seed"))
    sim.add_argument("--playouts", type=int, metavar="N", help=tr("cli.sim.playouts"))
    sim.add_argument(
        "--level",
        type=bot_levels(tr),
        default=(BotLevel.BEGINNER,),
        metavar="LEVEL[,LEVEL...]",
        help=tr("cli.sim.level", levels=levels),
    )
    sim.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help=tr("cli.sim.progress"),
    )
    _add_rules_arguments(sim, tr)

    host = sub.add_parser("host", help=tr("cli.host"), tr=tr)
    host.add_argument("--name", type=name_type, help=tr("cli.host.name"))
    host.add_argument("--tables", type=int, metavar="N", help=tr("cli.host.tables"))
    host.add_argument("--port", type=int, default=0, help=tr("cli.host.port"))
    host.add_argument("--bots", type=int, default=0, help=tr("cli.host.bots"))
    host.add_argument(
        "--level",
        type=level_type,
        default=BotLevel.INTERMEDIATE,
        metavar=LEVEL_CHOICES,
        help=tr("cli.host.level"),
    )
    host.add_argument("--code", help=tr("cli.host.code"))
    host.add_argument("--interface", help=tr("cli.host.interface"))
    host.add_argument("--headless", action="store_true", help=tr("cli.host.headless"))
    host.add_argument("--resume", metavar="FILE|DIR", help=tr("cli.host.resume"))
    host.add_argument("--salvage", action="store_true", help=tr("cli.host.salvage"))
    host.add_argument("--journal", metavar="FILE|DIR", help=tr("cli.host.journal"))
    host.add_argument("--no-mdns", action="store_true", help=tr("cli.host.no_mdns"))
    host.add_argument("--lang", help=tr("cli.lang"))
    host.add_argument("--round-pause", type=duration, default=5.0, help=tr("cli.host.round_pause"))
    host.add_argument("--bot-delay", type=duration, help=tr("cli.bot_delay"))
    host.add_argument(
        "--peer-timeout", type=timeout, default=15.0, help=tr("cli.host.peer_timeout")
    )
    _add_rules_arguments(host, tr)

    join = sub.add_parser("join", help=tr("cli.join"), tr=tr)
    join.add_argument("address", nargs="?", metavar="HOST:PORT")
    join.add_argument("--name", type=name_type, help=tr("cli.join.name"))
    join.add_argument("--table", type=table_type, help=tr("cli.table"))
    join.add_argument("--code", help=tr("cli.join.code"))
    join.add_argument("--kid", action="store_true", help=tr("cli.kid"))
    join.add_argument("--age", type=age_type, help=tr("cli.age"))
    join.add_argument("--plain", action="store_true", help=tr("cli.plain"))
    join.add_argument("--lang", help=tr("cli.lang"))
    join.add_argument("--interface", help=tr("cli.look_interface"))

    screen = sub.add_parser("screen", help=tr("cli.screen"), tr=tr)
    screen.add_argument("address", nargs="?", metavar="HOST:PORT")
    screen.add_argument("--table", type=table_type, help=tr("cli.table"))
    screen.add_argument("--code", help=tr("cli.screen.code"))
    screen.add_argument("--headless", action="store_true", help=tr("cli.screen.headless"))
    screen.add_argument("--lang", help=tr("cli.lang"))
    screen.add_argument("--interface", help=tr("cli.look_interface"))

    play = sub.add_parser("play", help=tr("cli.play"), tr=tr)
    play.add_argument("--players", type=seat_count(tr), default=4, help=tr("cli.play.players"))
    play.add_argument(
        "--level",
        type=level_type,
        default=BotLevel.INTERMEDIATE,
        metavar=LEVEL_CHOICES,
        help=tr("cli.play.level"),
    )
    play.add_argument("--name", type=name_type, help=tr("cli.play.name"))
    play.add_argument("--kid", action="store_true", help=tr("cli.kid"))
    play.add_argument("--age", type=age_type, help=tr("cli.age"))
    play.add_argument("--lang", help=tr("cli.lang"))
    play.add_argument("--plain", action="store_true", help=tr("cli.plain"))
    play.add_argument("--bot-delay", type=duration, help=tr("cli.bot_delay"))
    _add_rules_arguments(play, tr)
    return parser


def _check_rules(parser: argparse.ArgumentParser, args: argparse.Namespace, tr: Translator) -> None:
    """``--preset`` and ``--option``: a refusal names what is wrong (exit 2), in French as
    the hall's form says it."""
    if tr.lang != "en":
        for word in args.option or []:
            refusal = option_refusal(word, tr, args.command)
            if refusal is not None:
                parser.error(refusal)
    try:
        rules_from_args(args)
    except ValueError as error:
        parser.error(str(error) if tr.lang == "en" else rules_refusal(error, tr))


def _command_parser(parser: argparse.ArgumentParser, command: str) -> argparse.ArgumentParser:
    """The parser of one command (``lanuno play``): its refusals show its own usage line."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            found: argparse.ArgumentParser = action.choices[command]
            return found
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; returns the exit status (2 for a usage error, after saying why)."""
    words = sys.argv[1:] if argv is None else argv
    tr = Translator(help_language(words))
    parser = build_parser(tr.lang)
    if not words:
        # A bare "lanuno" said only "the following arguments are required: command".
        parser.print_help()
        return 2
    try:
        args = parser.parse_args(argv)
        if hasattr(args, "preset"):
            _check_rules(_command_parser(parser, args.command), args, tr)
        if getattr(args, "lang", None):
            try:
                resolve_lang(args.lang)
            except ValueError:
                choices = ", ".join(LANGUAGES)
                # tr already fell back to the environment's language (help_language)
                parser.error(tr("cli.err.lang", value=repr(args.lang), choices=choices))
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

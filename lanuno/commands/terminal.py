"""The terminal a player plays in (``lanuno join`` and ``lanuno play``)."""

from __future__ import annotations

import argparse
import sys

from lanuno.commands.common import say
from lanuno.net.client import NetClientSession
from lanuno.ui.client_app import run_client_app
from lanuno.ui.i18n import translator
from lanuno.ui.plain import PlainClient, stdin_lines


async def play_in_terminal(
    session: NetClientSession, args: argparse.Namespace, *, local: bool = False
) -> int:
    """The full-screen hand app, or the plain line-based client with ``--plain``.
    ``local``: ``lanuno play`` (no check number or connection state to show)."""
    plain = getattr(args, "plain", False)
    if not plain and not sys.stdin.isatty():
        # A pipe, a file, /dev/null: the full screen cannot read keys from it.
        say(translator(args.lang)("terminal.not_a_tty"))
        plain = True
    if not plain:
        return await run_client_app(session, lang=args.lang, local=local)
    return await PlainClient(session, lang=args.lang, local=local).run(stdin_lines())

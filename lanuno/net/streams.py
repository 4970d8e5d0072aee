"""What every TCP stream of lanuno needs from asyncio beyond its defaults."""

from __future__ import annotations

import asyncio

_settling: set[asyncio.Task[None]] = set()
"""Streams not ended yet (a strong reference: the event loop keeps only weak ones)."""


def settle_quietly(writer: asyncio.StreamWriter) -> None:
    """Take the error a stream may end with (its peer gone mid-write: a broken pipe, a
    reset) as soon as it ends. Left untaken, asyncio may print it as a traceback, "Future
    exception was never retrieved", when the stream is collected: seen on the host's side
    at the end of a ``lanuno play`` whose player quit at once."""
    closing = asyncio.ensure_future(writer.wait_closed())
    _settling.add(closing)
    closing.add_done_callback(_settled)


def _settled(closing: asyncio.Task[None]) -> None:
    _settling.discard(closing)
    if not closing.cancelled():
        closing.exception()  # taken: nothing to report, the connection's owner knows

"""``stdin_lines``: every line of one read is delivered at once, and lines one reader
leaves wait for the next (a pasted code and first move, a fast script)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
from collections.abc import Iterator

import pytest

from lanuno.ui import plain
from lanuno.ui.plain import TypedLines, stdin_lines


@pytest.fixture
def pipe_stdin(monkeypatch: pytest.MonkeyPatch) -> Iterator[int]:
    """Standard input replaced by a pipe; yields the end the test writes to."""
    read_end, write_end = os.pipe()
    monkeypatch.setattr(sys, "stdin", os.fdopen(read_end, "r"))
    monkeypatch.setattr(plain, "_TYPED", TypedLines())
    try:
        yield write_end
    finally:
        with contextlib.suppress(OSError):
            os.close(write_end)
        sys.stdin.close()


async def _next(lines: object) -> str:
    return await asyncio.wait_for(lines.__anext__(), 2)  # type: ignore[attr-defined]


async def test_two_lines_in_one_read_both_arrive_without_more_input(pipe_stdin: int) -> None:
    os.write(pipe_stdin, b"123456\nquit\n")
    async with contextlib.aclosing(stdin_lines()) as lines:
        assert await _next(lines) == "123456\n"
        assert await _next(lines) == "quit\n"  # the old reader waited for a third line here


async def test_lines_left_by_one_reader_go_to_the_next(pipe_stdin: int) -> None:
    os.write(pipe_stdin, "123456\nready\nprêt\n".encode())
    async with contextlib.aclosing(stdin_lines()) as prompt:
        assert await _next(prompt) == "123456\n"  # the room code; the prompt is done
    async with contextlib.aclosing(stdin_lines()) as game:
        assert await _next(game) == "ready\n"
        assert await _next(game) == "prêt\n"
        os.write(pipe_stdin, b"dr")
        os.write(pipe_stdin, b"aw\nlast")  # a line in two reads, then no newline
        assert await _next(game) == "draw\n"
        os.close(pipe_stdin)
        assert await _next(game) == "last"
        with pytest.raises(StopAsyncIteration):
            await _next(game)


def test_a_character_cut_between_two_reads_is_decoded_whole() -> None:
    typed = TypedLines()
    word = "prêt\n".encode()
    typed.take(word[:3])  # "pr" and the first byte of "ê"
    typed.take(word[3:])
    assert list(typed.lines) == ["prêt\n"]

"""``lanuno join --lang fr`` and ``lanuno screen --lang fr``: what is read before the game
screen, from the code question to the reasons a join or a pairing fails (the commands run
in this process against a table served on loopback)."""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from lanuno.cli import build_parser
from lanuno.client import ResumeTicket
from lanuno.commands import common
from lanuno.commands import join as join_command
from lanuno.commands import screen as screen_command
from lanuno.net.client import NetClientSession
from lanuno.net.seat_store import SeatFile, state_dir
from lanuno.net.server import TableServer
from lanuno.ui.i18n import translator

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("own_seat_store")]

CODE = "482913"
WRONG_CODE_FR = "le code de la salle est faux (ou l'hôte a refusé cette connexion)"
CODE_QUESTION_FR = "code de la salle (sur l'écran commun) : "


@pytest.fixture
def typed(monkeypatch: pytest.MonkeyPatch) -> Iterator[Callable[[str], None]]:
    """``typed("lines")``: what the player types at the command's questions (a pipe: the
    command reads standard input through the event loop)."""
    opened = []

    def type_lines(text: str) -> None:
        read, write = os.pipe()
        os.write(write, text.encode())
        os.close(write)
        stdin = os.fdopen(read)
        opened.append(stdin)
        monkeypatch.setattr(sys, "stdin", stdin)

    yield type_lines
    for stdin in opened:
        stdin.close()


@pytest.fixture
def joined(monkeypatch: pytest.MonkeyPatch) -> list[int | None]:
    """The check numbers of the sessions that reached the game screen (a stub here, which
    closes the session at once)."""
    seen: list[int | None] = []

    async def play(session: NetClientSession, _args: object) -> int:
        seen.append(session.check_number)  # the channel is open: the game screen next
        await session.close()
        return 0

    monkeypatch.setattr(join_command, "play_in_terminal", play)
    return seen


def closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def run_join(*argv: str) -> int:
    args = build_parser().parse_args(["join", *argv, "--name", "Zoé", "--lang", "fr"])
    return await join_command._join(args)


async def test_a_wrong_room_code_is_said_in_french(
    server: TableServer, capsys: pytest.CaptureFixture[str]
) -> None:
    assert await run_join(f"127.0.0.1:{server.port}", "--code", "000000") == 1
    assert capsys.readouterr().err == (
        f"lanuno join: impossible de rejoindre 127.0.0.1:{server.port} : {WRONG_CODE_FR}\n"
        # A hall's tables share an address: another table's code is wrong at table 1.
        "lanuno join: si cet hôte a plusieurs tables, ajoutez --table N (N est le numéro de "
        "votre table sur l'écran de l'hôte)\n"
    )
    # Named with --table, the table is the one meant: no hint.
    assert await run_join(f"127.0.0.1:{server.port}", "--table", "1", "--code", "000000") == 1
    assert capsys.readouterr().err == (
        f"lanuno join: impossible de rejoindre 127.0.0.1:{server.port} : {WRONG_CODE_FR}\n"
    )


async def test_no_host_at_the_address_and_the_code_question_are_in_french(
    typed: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    typed("123456\n")
    port = closed_port()
    assert await run_join(f"127.0.0.1:{port}") == 1
    out = capsys.readouterr()
    assert out.out == CODE_QUESTION_FR
    assert out.err == (
        f"lanuno join: impossible de rejoindre 127.0.0.1:{port} : personne ne répond à cette "
        "adresse (l'hôte est-il lancé ?)\n"
    )


async def test_a_screen_with_a_wrong_screen_code_is_told_in_french(
    server: TableServer, capsys: pytest.CaptureFixture[str]
) -> None:
    wrong = "000000" if server.screen_code != "000000" else "111111"
    argv = ["screen", f"127.0.0.1:{server.port}", "--code", wrong, "--lang", "fr"]
    assert await screen_command._screen(build_parser().parse_args(argv)) == 1
    assert capsys.readouterr().err == (
        f"lanuno screen: impossible de s'associer à 127.0.0.1:{server.port} : le code d'écran "
        "est faux (il s'affiche sur l'écran de l'hôte)\n"
    )


async def test_a_room_code_typed_wrong_is_asked_again_up_to_three_times(
    server: TableServer, typed: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    typed("000000\n111111\n222222\n")
    assert await run_join(f"127.0.0.1:{server.port}") == 1
    out = capsys.readouterr()
    assert out.out == CODE_QUESTION_FR * 3
    assert out.err.count(WRONG_CODE_FR) == 3


async def test_a_code_that_is_not_6_digits_is_asked_again_without_a_connection(
    server: TableServer,
    typed: Callable[[str], None],
    joined: list[int | None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    # Two typos of the form, then the code: no "wrong code" (nothing was sent), and the
    # three tries a wrong code gets are all still there.
    typed(f"12ab\n48291\n{CODE[:3]} {CODE[3:]}\n")
    assert await run_join(f"127.0.0.1:{server.port}") == 0
    assert len(joined) == 1
    out = capsys.readouterr()
    assert out.out == CODE_QUESTION_FR * 3
    assert out.err == "lanuno join: un code a 6 chiffres, comme 482 915\n" * 2


@pytest.mark.parametrize(
    ("command", "lang", "said"),
    [
        ("join", "fr", "lanuno join: un code a 6 chiffres, comme 482 915\n"),
        ("screen", "en", "lanuno screen: a code is 6 digits, like 482 915\n"),
    ],
)
def test_a_code_given_that_is_not_6_digits_is_refused_before_any_connection(
    command: str, lang: str, said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    port = closed_port()  # nothing listens: a connection would fail another way
    args = build_parser().parse_args(
        [command, f"127.0.0.1:{port}", "--code", "48-29-1x", "--lang", lang]
    )
    run = join_command.run if command == "join" else screen_command.run
    assert run(args) == 2
    assert capsys.readouterr().err == said


async def test_the_right_code_typed_after_a_wrong_one_joins(
    server: TableServer,
    typed: Callable[[str], None],
    joined: list[int | None],
    capsys: pytest.CaptureFixture[str],
) -> None:
    typed(f"000000\n{CODE}\n")
    assert await run_join(f"127.0.0.1:{server.port}") == 0
    assert len(joined) == 1
    assert joined[0] is not None
    assert capsys.readouterr().err.count(WRONG_CODE_FR) == 1


async def test_a_saved_seat_the_host_does_not_hold_is_forgotten(
    server: TableServer,
    typed: Callable[[str], None],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """A seat saved for this address that the table now there does not hold (a new table
    on the same port): said once, forgotten, and the join goes on with the room code."""
    stale = ResumeTicket(seat=1, generation=1, secret=os.urandom(32), room_id=os.urandom(16))
    SeatFile(state_dir(), "127.0.0.1", server.port, "Zoé").keep(stale)
    assert list(state_dir().glob("seat-*.json"))
    typed("000000\n000000\n000000\n")
    assert await run_join(f"127.0.0.1:{server.port}") == 1
    out = capsys.readouterr().out
    assert "reprise de votre place 2" in out
    assert "; on rejoint avec le code de la salle" in out
    assert not list(state_dir().glob("seat-*.json")), "the refused seat is offered again"


async def test_a_damaged_saved_seat_is_said_and_set_aside(
    server: TableServer, typed: Callable[[str], None], capsys: pytest.CaptureFixture[str]
) -> None:
    """A saved seat file that cannot be read: the player is told where it was put, once,
    and the join goes on with the room code."""
    state_dir().mkdir(parents=True, exist_ok=True)
    damaged = state_dir() / "seat-00ff-1.json"
    damaged.write_text('{"format": 1, "seat"')
    typed("000000\n000000\n000000\n")
    assert await run_join(f"127.0.0.1:{server.port}") == 1
    out = capsys.readouterr().out
    aside = state_dir() / "seat-00ff-1.json.damaged"
    assert f"une place sauvegardée est illisible : elle est mise de côté ({aside})" in out
    assert aside.read_text() == '{"format": 1, "seat"'
    assert not damaged.exists()


@pytest.mark.parametrize(
    ("lang", "hint"),
    [
        ("en", "each table of a hall has its own room code: is this the one on the shared "
         "screen of table 2?"),
        ("fr", "chaque table d'une salle a son propre code : est-ce bien celui de l'écran "
         "commun de la table 2 ?"),
    ],
)  # fmt: skip
def test_a_wrong_code_at_table_2_of_a_hall_asks_if_it_is_that_tables(lang: str, hint: str) -> None:
    """Seen in the lab: a guest sent to table 2 typed the code of table 1 (the one they
    had seen), and read only that the code was wrong."""
    tr = translator(lang)
    argv = ["join", "10.0.0.1:7777", "--table", "2", "--code", "405777"]
    assert join_command._wrong_code_hint(build_parser().parse_args(argv), 2, tr) == hint
    one = build_parser().parse_args(["join", "10.0.0.1:7777", "--table", "1"])
    assert join_command._wrong_code_hint(one, 1, tr) is None  # the table meant: no hint


class _Terminal:
    """Standard error in a terminal of 80 columns."""

    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_a_failed_join_breaks_its_lines_at_words_in_a_terminal(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80 columns it read 'the room code is wrong (or the ho' / 'st refused ...'."""
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    monkeypatch.setattr(common.shutil, "get_terminal_size", lambda: os.terminal_size((80, 24)))
    common.complain(
        "join",
        "could not join 10.221.134.1:7777: the room code is wrong (or the host refused this "
        "connection)",
    )
    assert terminal.text.splitlines() == [
        "lanuno join: could not join 10.221.134.1:7777: the room code is wrong (or the",
        "host refused this connection)",
    ]

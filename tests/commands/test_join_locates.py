"""``lanuno join`` and ``lanuno screen`` look for a lost host's table again where it is
announced, unless they were told a loopback address: a host there never moves, and
nothing is browsed for it (the tests' own network hygiene rests on that too)."""

from __future__ import annotations

import pytest
from helpers import until

from lanuno.cli import build_parser
from lanuno.commands import join as join_command
from lanuno.commands import screen as screen_command
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.discovery import TableInfo, TableLocator
from lanuno.net.screen_client import ScreenError
from lanuno.net.server import TableServer

pytestmark = [pytest.mark.timeout(60), pytest.mark.usefixtures("own_seat_store")]
CODE = "482913"


def refusing(error: Exception, made: list[object]) -> type:
    """A client class whose connection fails with ``error``; ``made`` gets each one's
    locator factory (None: nothing is browsed)."""

    class Refused:
        def __init__(self, *_args: object, locate: object = None, **_kwargs: object) -> None:
            made.append(locate)

        async def connect(self) -> None:
            raise error

    return Refused


@pytest.fixture
def sessions(monkeypatch: pytest.MonkeyPatch) -> list[NetClientSession]:
    joined: list[NetClientSession] = []

    async def play(session: NetClientSession, _args: object) -> int:
        joined.append(session)
        await session.close()
        return 0

    monkeypatch.setattr(join_command, "play_in_terminal", play)
    return joined


async def test_a_table_found_by_discovery_is_looked_for_again_by_its_room(
    server: TableServer, sessions: list[NetClientSession], monkeypatch: pytest.MonkeyPatch
) -> None:
    room_id = server.table.room_id
    found = TableInfo("Salon._lanuno._tcp.local.", "Salon", "127.0.0.1", server.port, 3,
                      "official", room_id.hex(), addresses=("127.0.0.1",))  # fmt: skip

    async def choose(_interfaces: object, _mine: object, _tr: object, _saved: object) -> TableInfo:
        return found

    monkeypatch.setattr(join_command, "_choose_table", choose)
    args = build_parser().parse_args(
        ["join", "--interface", "127.0.0.1", "--code", CODE, "--name", "Zoé"]
    )
    assert await join_command._join(args) == 0
    locate = sessions[0]._locate
    assert locate is not None
    locator = locate(room_id, 1)
    assert isinstance(locator, TableLocator)
    assert (locator.room, locator.table) == (room_id.hex(), 1)


async def test_a_table_joined_by_a_loopback_address_is_not_looked_for(
    server: TableServer, sessions: list[NetClientSession]
) -> None:
    args = build_parser().parse_args(
        ["join", f"127.0.0.1:{server.port}", "--code", CODE, "--name", "Zoé"]
    )
    assert await join_command._join(args) == 0
    assert sessions[0]._locate is None


@pytest.mark.parametrize(
    ("address", "locates"),
    [("192.0.2.7:7777", True), ("salon.local:7777", True), ("localhost:7777", False),
     ("[::1]:7777", False), ("127.3.0.1:7777", False)],
)  # fmt: skip
async def test_a_typed_lan_address_is_looked_for_again_a_loopback_one_is_not(
    address: str, locates: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No connection is tried: the client is a fake that records its locator."""
    made: list[object] = []
    no_host = JoinError(address, "nobody answers at that address (is the host running?)")
    monkeypatch.setattr(join_command, "NetClientSession", refusing(no_host, made))
    args = build_parser().parse_args(["join", address, "--code", CODE, "--name", "Zoé"])
    assert await join_command._join(args) == 1
    assert (made[0] is not None) == locates


@pytest.mark.parametrize("discovered", [True, False])
async def test_a_screen_looks_for_its_table_again_unless_told_a_loopback_address(
    discovered: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    made: list[object] = []
    wrong_code = ScreenError("127.0.0.1:7777", "the screen code is wrong")
    found = TableInfo("Salon._lanuno._tcp.local.", "Salon", "127.0.0.1", 7777, 3, "official",
                      "00" * 16)  # fmt: skip

    async def choose(_interfaces: object, _tr: object) -> TableInfo:
        return found

    monkeypatch.setattr(screen_command, "RemoteScreen", refusing(wrong_code, made))
    monkeypatch.setattr(screen_command, "_choose", choose)
    where = ["--interface", "127.0.0.1"] if discovered else ["127.0.0.1:7777"]  # typed: loopback
    args = build_parser().parse_args(["screen", *where, "--code", "123456"])
    assert await screen_command._screen(args) == 1
    assert (made[0] is not None) == discovered


async def test_a_screen_code_typed_wrong_is_asked_again_as_a_room_code_is(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A typo in the screen code ended lanuno screen (list the tables, choose, type it all
    again), where lanuno join asks the room code again."""
    codes = iter(["456195", "456194"])
    tried: list[str] = []

    class Screen:
        def __init__(self, _host: str, _port: int, code: str, **_kwargs: object) -> None:
            tried.append(code)
            self.code = code

        async def connect(self) -> None:
            if self.code != "456194":
                wrong = "the screen code is wrong (it is shown on the host's own screen)"
                raise ScreenError("127.0.0.1:7777", wrong)

        async def close(self) -> None:
            pass

    async def typed(_command: str, _prompt: str, _tr: object) -> str:
        return next(codes)

    async def shown(*_args: object, **_kwargs: object) -> int:
        return 0

    monkeypatch.setattr(screen_command, "RemoteScreen", Screen)
    monkeypatch.setattr(screen_command, "read_code", typed)
    monkeypatch.setattr(screen_command, "run_table_app", shown)
    args = build_parser().parse_args(["screen", "127.0.0.1:7777"])
    assert await screen_command._screen(args) == 0
    assert tried == ["456195", "456194"]


class NothingAnnounced:
    """A browser that finds no table: the host runs with ``--no-mdns``."""

    def __init__(self, _interfaces: object) -> None:
        pass

    async def start(self) -> None:
        pass

    async def wait_for_change(self, _timeout: float) -> None:
        pass

    def listed(self) -> list[TableInfo]:
        return []

    async def close(self) -> None:
        pass


async def test_a_bare_join_resumes_a_seat_whose_host_is_not_announced(
    server: TableServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The host runs with ``--no-mdns``: a bare ``lanuno join`` said "no table found",
    though the seat file knows the table's address."""
    monkeypatch.setattr(join_command, "TableBrowser", NothingAnnounced)
    seated: list[tuple[int | None, bool]] = []

    async def killed(session: NetClientSession, _args: object) -> int:
        # Seated, then the terminal is closed: no goodbye, the seat file stays.
        seat_file = session._seat_file
        assert seat_file is not None
        await until(lambda: seat_file.path is not None and seat_file.path.exists(), "saved")
        seated.append((session.seat, session.ticket is not None))
        assert session._runner is not None
        assert session._writer is not None
        session._runner.cancel()
        session._writer.transport.abort()
        seat_file.release()  # as the process's end does
        return 0

    monkeypatch.setattr(join_command, "play_in_terminal", killed)
    typed = build_parser().parse_args(
        ["join", f"127.0.0.1:{server.port}", "--code", CODE, "--name", "Zoé"]
    )
    assert await join_command._join(typed) == 0
    bare = build_parser().parse_args(["join", "--interface", "127.0.0.1", "--name", "Zoé"])
    assert await join_command._join(bare) == 0  # no code asked: the seat was resumed
    assert len(seated) == 2
    assert seated[0] == (0, True)
    said = capsys.readouterr().out
    assert f"resuming your seat 1 at 127.0.0.1:{server.port}" in said
    assert f"your seat at 127.0.0.1:{server.port} is waiting for you" in said
    assert "no table found" not in said


async def test_a_bare_join_with_no_seat_and_nothing_announced_says_no_table_was_found(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(join_command, "TableBrowser", NothingAnnounced)
    bare = build_parser().parse_args(["join", "--interface", "127.0.0.1", "--name", "Zoé"])
    assert await join_command._join(bare) == 1
    assert "no table found" in capsys.readouterr().out

"""The commands end to end: ``lanuno play --plain`` played by a script typing numbers, and
``lanuno join`` against a headless host."""

from __future__ import annotations

import asyncio
import io
import os
import shutil
import socket
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from lanuno.commands.common import complain, split_address
from lanuno.commands.host import default_table_name
from lanuno.commands.join import choose_number, describe_table, tables_to_list
from lanuno.net.discovery import TableInfo
from lanuno.net.journal_files import read_journal
from lanuno.ui.i18n import translator
from lanuno.ui.widgets import list_item_lines

pytestmark = pytest.mark.timeout(90)


@pytest.mark.parametrize(
    ("typed", "address"),
    [("10.0.0.5:7777", ("10.0.0.5", 7777)), ("[::1]:7777", ("::1", 7777)), ("h:1", ("h", 1))],
)
def test_an_address_is_host_and_port(typed: str, address: tuple[str, int]) -> None:
    assert split_address(typed) == address


@pytest.mark.parametrize(
    ("typed", "why"),
    [
        ("127.0.0.1:99999", "between 1 and 65535"),
        ("127.0.0.1:0", "between 1 and 65535"),
        ("127.0.0.1", "expected HOST:PORT"),
        (":7777", "expected HOST:PORT"),
        ("host:7²", "expected HOST:PORT"),
    ],
)
def test_a_wrong_address_is_refused_before_any_connection(typed: str, why: str) -> None:
    with pytest.raises(ValueError, match=why):
        split_address(typed)


@pytest.mark.system
def test_join_and_screen_refuse_a_port_out_of_range_in_one_line() -> None:
    for command in ("join", "screen"):
        done = subprocess.run(
            [sys.executable, "-m", "lanuno", command, "127.0.0.1:99999", "--code", "123456"],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert done.returncode == 2, done.stderr
        assert done.stderr.strip().splitlines() == [
            f"lanuno {command}: the port must be between 1 and 65535, got 99999"
        ]


@pytest.mark.system
def test_a_host_that_cannot_listen_says_why_in_one_line(tmp_path: Path) -> None:
    with socket.socket() as squatter:
        squatter.bind(("127.0.0.1", 0))
        squatter.listen()
        taken = squatter.getsockname()[1]
        cases = [
            ("127.0.0.1", str(taken), f"127.0.0.1:{taken}: port {taken} is taken"),
            ("192.0.2.1", "0", "192.0.2.1: this computer has no address 192.0.2.1"),  # TEST-NET-1
        ]
        for interface, port, why in cases:
            command = [
                sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
                "--interface", interface, "--port", port,
                "--journal", str(tmp_path / f"{interface}.journal"),
            ]  # fmt: skip
            done = subprocess.run(
                command,
                capture_output=True,
                text=True,
                timeout=60,
                stdin=subprocess.DEVNULL,
            )
            assert done.returncode == 1, done.stderr
            [line] = done.stderr.strip().splitlines()
            assert line.startswith(f"lanuno host: cannot listen on {why}"), line


@pytest.mark.system
def test_a_journal_in_a_folder_not_made_yet_gets_its_folder(tmp_path: Path) -> None:
    """As a hall's --journal DIR is made: it was "[Errno 2] No such file or directory"."""
    journal = tmp_path / "friday" / "night" / "table.journal"
    command = [
        sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
        "--interface", "127.0.0.1", "--journal", str(journal),
    ]  # fmt: skip
    host = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, stdin=subprocess.DEVNULL
    )
    try:
        assert host.stdout is not None
        first = host.stdout.readline().decode()
        assert first.startswith(f"journal: {journal} "), first
        assert journal.is_file()
    finally:
        host.terminate()
        _, errors = host.communicate(timeout=30)
    assert host.returncode == 0, errors


@pytest.mark.system
def test_a_resume_of_a_hall_whose_host_still_runs_is_refused(tmp_path: Path) -> None:
    """Seen in the lab: ``kill -9`` hit another process, the host ran on, and ``lanuno host
    --resume DIR`` served the same tables on another port ("port 7777 ... is taken"), both
    hosts writing one journal; the players, still at the first, saw nothing happen."""
    hall = tmp_path / "hall"
    base = [sys.executable, "-m", "lanuno", "host", "--headless", "--no-mdns",
            "--interface", "127.0.0.1"]  # fmt: skip
    first = subprocess.Popen(
        [*base, "--tables", "2", "--journal", str(hall)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert first.stdout is not None
        assert first.stdout.readline().decode().startswith("journal: ")  # the hall is open
        again = subprocess.run(
            [*base, "--resume", str(hall)],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
        )
        assert again.returncode == 1, again.stderr
        [line] = again.stderr.strip().splitlines()
        assert line == (
            f"lanuno host: {hall} is in use by another lanuno host that is still running: "
            "quit that host first (Q, or Ctrl-C in its terminal), or use another journal"
        )
        assert again.stdout == ""  # nothing served, nothing read
        assert first.poll() is None
    finally:
        first.kill()  # as kill -9: the lock goes with the process
        first.communicate(timeout=30)
    for journal in sorted(hall.glob("*.journal")):  # the first host's records alone
        recovery = read_journal(journal)
        assert not recovery.damaged
        assert [r["k"] for r in recovery.records].count("port") == 1
    resumed = subprocess.Popen(
        [*base, "--resume", str(hall)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
    )
    try:
        assert resumed.stdout is not None
        said = [resumed.stdout.readline().decode() for _ in range(3)]
        assert any("(restart with: lanuno host --resume" in line for line in said), said
    finally:
        resumed.terminate()
        _, errors = resumed.communicate(timeout=30)
    assert resumed.returncode == 0, errors


@pytest.mark.system
def test_play_without_a_terminal_plays_line_by_line() -> None:
    """The full screen cannot read keys from a pipe or /dev/null: it was a traceback."""
    done = subprocess.run(
        [sys.executable, "-m", "lanuno", "play", "--lang", "en", "--bot-delay", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("The input is not a terminal: playing line by line")
    assert "Traceback" not in done.stderr


Answer = Callable[[str], bytes]
"""What a person types on reading a line of the game (b"": nothing)."""


def first_action_until_the_game_ends(text: str) -> bytes:
    """Every 'You may' answered with the first listed action; 'quit' at the game's end."""
    if text.startswith("You may:"):
        return b"1\n"
    return b"quit\n" if text.startswith("Game over") else b""


async def transcript_of(process: asyncio.subprocess.Process, answer: Answer) -> list[str]:
    """Every line the command prints, answered as ``answer`` says, until it exits (0)."""
    assert process.stdout is not None
    assert process.stdin is not None
    transcript: list[str] = []

    async def drive() -> None:
        assert process.stdout is not None
        assert process.stdin is not None
        while line := await process.stdout.readline():
            text = line.decode(errors="replace").rstrip()
            transcript.append(text)
            if reply := answer(text):
                process.stdin.write(reply)
                await process.stdin.drain()

    try:
        try:
            await asyncio.wait_for(drive(), 75)
        except TimeoutError:
            raise AssertionError("\n".join(transcript[-30:])) from None
        assert await asyncio.wait_for(process.wait(), 10) == 0
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return transcript


async def play_plain(*options: str) -> asyncio.subprocess.Process:
    """``lanuno play --plain`` against beginners with no bot delay, piped."""
    return await asyncio.create_subprocess_exec(
        sys.executable, "-m", "lanuno", "play", "--plain", "--level", "beginner",
        "--bot-delay", "0", *options,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
    )  # fmt: skip


@pytest.mark.system
async def test_play_plain_a_whole_game_by_typing() -> None:
    process = await play_plain("--players", "3", "--option", "target=60")
    transcript = await transcript_of(process, first_action_until_the_game_ends)
    text = "\n".join(transcript)
    assert "Welcome to Practice table" in text
    assert "Your hand" in text
    assert any(line.startswith("Game over") for line in transcript), text[-2000:]


@pytest.mark.system
async def test_play_plain_goes_on_to_a_second_game_when_ready() -> None:
    """After the game, the table is back in its lobby: 'ready' deals the next game."""
    games_over = 0

    def two_games(text: str) -> bytes:
        nonlocal games_over
        if text.startswith("You may:"):
            return b"1\n"
        if text.startswith("Game over"):
            games_over += 1
        elif text.startswith("Lobby:") and games_over == 1:
            return b"ready\n"
        elif "Round 1 starts" in text and games_over == 1:
            return b"quit\n"
        return b""

    process = await play_plain("--players", "2", "--option", "target=60")
    transcript = await transcript_of(process, two_games)
    assert games_over == 1
    assert sum("Round 1 starts" in line for line in transcript) == 2, transcript[-40:]


@pytest.mark.system
async def test_play_in_french_names_the_player_in_french() -> None:
    process = await play_plain("--players", "2", "--lang", "fr")
    assert process.stdout is not None
    assert process.stdin is not None
    try:
        seats = ""
        while not seats.lstrip().startswith("1. "):  # the table's seats, under its first state
            line = await asyncio.wait_for(process.stdout.readline(), 20)
            assert line, "lanuno play ended before its first deal"
            seats = line.decode(errors="replace")
        assert "1. Joueur" in seats  # not "Player": lanuno play's default name is French too
        process.stdin.write(b"quit\n")
        await process.stdin.drain()
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


@pytest.mark.parametrize(
    ("machine", "name"),
    [("kitchen-laptop.local", "kitchen-laptop"), ("lea", "lea"), ("", "lanuno table")],
)
def test_a_host_table_is_named_after_its_computer(
    monkeypatch: pytest.MonkeyPatch, machine: str, name: str
) -> None:
    """Two hosts in one room need no --name to be told apart in the join list."""
    monkeypatch.setattr(socket, "gethostname", lambda: machine)
    assert default_table_name() == name


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "kitchen  (table 2 at 10.0.0.2:4000)  3 seats free, kids2 rules"),
        ("fr", "kitchen  (table 2 à 10.0.0.2:4000)  places libres : 3, règles enfants 2"),
    ],
)
def test_the_join_list_names_each_tables_rules_in_the_players_language(
    lang: str, line: str
) -> None:
    table = TableInfo("kitchen", "kitchen", "10.0.0.2", 4000, 3, "kids2", "00", table=2)
    assert describe_table(table, translator(lang)) == line


@pytest.mark.parametrize(
    ("lang", "line"),
    [
        ("en", "kitchen  (table 1 at 10.0.0.2:4000)  in a game: watch it, play the next"),
        (
            "fr",
            "kitchen  (table 1 à 10.0.0.2:4000)  partie en cours : regardez-la, jouez la suivante",
        ),
    ],
)
def test_a_bare_join_offers_a_table_in_a_game_after_those_with_seats_free(
    lang: str, line: str
) -> None:
    """A late guest's bare join said "no table with seats free found; ask the host for its
    address" of the one table in the room, in a game (its seats free are 0 then); joining
    it, the guest watches and is seated for the next game."""
    playing = TableInfo("kitchen", "kitchen", "10.0.0.2", 4000, 0, "official", "00")
    open_one = TableInfo("hall", "Hall 2", "10.0.0.3", 4001, 4, "official", "01", table=2)
    assert tables_to_list([playing], set()) == [playing]
    assert tables_to_list([playing, open_one], set()) == [open_one, playing]
    assert tables_to_list([playing, open_one], {bytes.fromhex("00")}) == [playing, open_one]
    assert describe_table(playing, translator(lang)) == line


def test_a_french_table_in_the_join_list_wraps_at_its_words_in_80_columns() -> None:
    """The terminal cut it mid-word: '... règles officielle' then 's' on a line alone."""
    table = TableInfo("salon", "Salon", "10.207.73.1", 37367, 10, "official", "00")
    text = describe_table(table, translator("fr"))
    lines = list_item_lines("  1) ", text, 80)
    assert lines == [
        "  1) Salon  (table 1 à 10.207.73.1:37367)  places libres : 10, règles",
        "     officielles",
    ]
    assert list_item_lines("  1) ", describe_table(table, translator("en")), 80) == [
        "  1) Salon  (table 1 at 10.207.73.1:37367)  10 seats free, official rules"
    ]


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_a_table_number_out_of_the_list_is_asked_again(
    lang: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typing 2 when one table was listed ended lanuno join (and screen) without a word."""
    typed = iter(["2", "one", "1"])
    prompts: list[str] = []

    async def read_line(prompt: str) -> str:
        prompts.append(prompt)
        return next(typed)

    tr = translator(lang)
    assert await choose_number(1, tr, read_line) == 1
    assert len(prompts) == 3
    said = capsys.readouterr().out.splitlines()
    assert said == [tr("join.choose_one_again")] * 2

    async def enter_alone(_prompt: str) -> str:
        return ""

    assert await choose_number(3, tr, enter_alone) is None


@pytest.mark.parametrize("lang", ["en", "fr"])
async def test_one_table_listed_is_taken_with_enter_and_never_offered_as_1_to_1(
    lang: str,
) -> None:
    """The one table listed read 'choose 1-1:' (and 'a number from 1 to 1'), and Enter,
    the natural answer, left lanuno join."""
    prompts: list[str] = []

    async def enter_alone(prompt: str) -> str:
        prompts.append(prompt)
        return ""

    async def end_of_input(prompt: str) -> None:
        prompts.append(prompt)

    tr = translator(lang)
    assert await choose_number(1, tr, enter_alone) == 1
    assert await choose_number(1, tr, end_of_input) is None  # a closed input still leaves
    assert await choose_number(2, tr, end_of_input) is None
    assert prompts[:2] == [tr("join.choose_one")] * 2
    assert not any(character.isdigit() for character in prompts[0])  # no "1-1"
    assert prompts[2] == tr("join.choose", count=2)


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.mark.parametrize("tty", [True, False])
def test_a_join_failure_breaks_at_its_words_in_a_terminal(
    tty: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At 80 columns the terminal cut 'lanuno join: impossible de rejoindre ... : le code de
    la salle est' / ' faux (...)' wherever the edge fell (a longer address, mid-word)."""
    tr = translator("fr")
    text = tr("join.failed", address="192.168.100.200:41234", reason=tr("reason.room_code"))
    shown = _Terminal() if tty else io.StringIO()
    monkeypatch.setattr(sys, "stderr", shown)
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *_a: os.terminal_size((80, 24)))
    complain("join", text)
    lines = shown.getvalue().splitlines()
    assert " ".join(lines) == f"lanuno join: {text}"
    if tty:
        assert len(lines) > 1
        assert all(len(line) <= 80 for line in lines)
    else:
        assert len(lines) == 1  # a pipe or a log gets the line whole

"""The simulated LAN (scripts/netlab): a host and 3 clients in network namespaces joined by
a bridge. Players find the table by mDNS; one client's link goes down and up mid-game."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

import pytest

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"
sys.path.insert(0, str(SCRIPTS))
from netlab_ns import REPO, NetLab, unavailable_reason  # noqa: E402

from lanuno.net.journal_files import read_journal  # noqa: E402

REASON = unavailable_reason()
pytestmark = [
    pytest.mark.system,
    pytest.mark.skipif(REASON is not None, reason=f"netlab: {REASON}"),
    pytest.mark.timeout(120),
]
CODE = "271828"


def read_json_line(process: subprocess.Popen[bytes], event: str, timeout: float) -> dict:
    assert process.stdout is not None
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        line = process.stdout.readline()
        if not line:
            break
        if line.startswith(b"{"):
            data = json.loads(line)
            if data.get("event") == event:
                return data
    raise AssertionError(f"no {event!r} from the client within {timeout} s")


def wait_for_text(path: Path, text: str, timeout: float) -> None:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if text in path.read_text(errors="replace"):
            return
        time.sleep(0.05)
    said = path.read_text(errors="replace")[-1500:]
    raise AssertionError(f"{text!r} not in {path.name} within {timeout} s:\n{said}")


def test_game_across_namespaces_with_a_link_down_and_up() -> None:
    with NetLab(clients=3) as lab:
        journal = lab.scratch / "table.journal"
        log = open(lab.scratch / "host.log", "wb")  # noqa: SIM115
        lab.spawn(
            "host",
            [
                sys.executable,
                "-m",
                "lanuno",
                "host",
                "--headless",
                "--interface",
                lab.addresses["host"],
                "--port",
                "7777",
                "--code",
                CODE,
                "--journal",
                str(journal),
                "--bots",
                "1",
                "--level",
                "beginner",
                "--bot-delay",
                "0.05",
                "--round-pause",
                "0.3",
                "--option",
                "target=100",
                "--peer-timeout",
                "3",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        clients = {
            node: lab.spawn(
                node,
                [
                    sys.executable,
                    str(SCRIPTS / "netlab_client.py"),
                    "--interface",
                    lab.addresses[node],
                    "--code",
                    CODE,
                    "--name",
                    f"player {node}",
                    "--think",
                    "0.05",
                    "--ping",
                    "1",
                    "--silence",
                    "3",
                    "--wait-for",
                    "3",
                ],
                stdout=subprocess.PIPE,
            )
            for node in ("c0", "c1", "c2")
        }
        joined = {node: read_json_line(p, "joined", 30) for node, p in clients.items()}
        assert all(j["discovery_ms"] is not None for j in joined.values())
        # Mid-game for sure: a game to 100 can end in a second (a bot once scored 329 in
        # round 1 before the link went down); it cannot end while c0 is away.
        wait_for_text(lab.scratch / "host.log", " played ", 30)  # a move: the game is on
        lab.link_down("c0")  # the Wi-Fi drops for longer than the 3 s silence limit
        time.sleep(6)
        lab.link_up("c0")
        done = {node: read_json_line(p, "done", 90) for node, p in clients.items()}
        records = read_journal(journal).records
        namespaces = [*lab.nodes.values(), lab.switch]
    assert lab.leftovers() == []
    assert not lab.scratch.exists()
    listed = subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout
    assert not any(ns in listed for ns in namespaces)
    assert done["c0"]["reconnects"] >= 1, done
    scores = {tuple(d["scores"]) for d in done.values()}
    assert len(scores) == 1
    assert len(next(iter(scores))) == 4
    acts = [r for r in records if r["k"] == "act" and r["seq"]]
    # Each player's seat during the game, from the lobby it started with: seats move down
    # when players leave after the game, and a client may learn its new seat (a welcome)
    # before it has read the game's end, so the seat it reports last can be a later one.
    start = next(i for i, r in enumerate(records) if r["k"] == "start")
    lobby = next(r for r in reversed(records[:start]) if r["k"] == "lobby")
    seat_of = {s["name"]: seat for seat, s in enumerate(lobby["seats"])}
    for node, result in done.items():
        seat = seat_of[f"player {node}"]
        seqs = [r["seq"] for r in acts if r["a"].split()[0] == str(seat)]
        assert len(seqs) == len(set(seqs))
        lost = set(result["acked"]) - set(seqs)
        assert not lost, (node, seat, result, [r for r in acts if r["seq"] in lost])


def test_a_host_given_a_new_address_mid_game_is_found_there_by_its_players() -> None:
    """The host laptop gets a new DHCP lease mid-game. With no --interface it serves every
    address and announces them as they change; its players, who found it by mDNS, lose it,
    look for its table, and resume their seats at the new address."""
    with NetLab(clients=2) as lab:
        log = open(lab.scratch / "host.log", "wb")  # noqa: SIM115
        lab.spawn(
            "host",
            [
                sys.executable, "-m", "lanuno", "host", "--headless", "--port", "7777",
                "--code", CODE, "--journal", str(lab.scratch / "t.journal"),
                "--bots", "1", "--level", "beginner", "--bot-delay", "0.05",
                "--round-pause", "0.3", "--option", "target=100", "--peer-timeout", "3",
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )  # fmt: skip
        player = [
            sys.executable, str(SCRIPTS / "netlab_client.py"), "--code", CODE, "--think",
            "0.05", "--ping", "1", "--silence", "3", "--wait-for", "2",
        ]  # fmt: skip
        clients = {
            node: lab.spawn(
                node,
                [*player, "--interface", lab.addresses[node], "--name", f"player {node}"],
                stdout=subprocess.PIPE,
            )
            for node in ("c0", "c1")
        }
        for process in clients.values():
            read_json_line(process, "joined", 30)
        wait_for_text(lab.scratch / "host.log", " played ", 30)  # a move: mid-game
        moved = f"{lab.subnet}.2"
        lab.readdress("host", moved)
        done = {node: read_json_line(p, "done", 90) for node, p in clients.items()}
    for result in done.values():
        assert result["reconnects"] >= 1, done
        assert result["address"] == f"{moved}:7777", done
    assert len({tuple(d["scores"]) for d in done.values()}) == 1


def test_the_lab_is_torn_down_even_when_the_run_fails() -> None:
    lab = NetLab(clients=1)
    with pytest.raises(RuntimeError, match="boom"), lab:
        assert len(lab.leftovers()) == 3
        lab.spawn("c0", ["sleep", "30"])
        raise RuntimeError("boom")
    assert lab.leftovers() == []
    assert all(p.poll() is not None for p in lab.processes) or not lab.processes


def test_no_packet_leaves_the_lab() -> None:
    """A node has no route out: only its own subnet and multicast on the bridge."""
    with NetLab(clients=1) as lab:
        routes = subprocess.run(
            lab.command("c0", ["ip", "route"]),
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(REPO)},
        ).stdout
    assert "default" not in routes
    assert lab.subnet in routes


def test_lanuno_join_lists_the_tables_it_finds_and_joins_the_chosen_one() -> None:
    with NetLab(clients=1) as lab:
        log = open(lab.scratch / "host.log", "wb")  # noqa: SIM115
        lab.spawn(
            "host",
            [
                sys.executable,
                "-m",
                "lanuno",
                "host",
                "--headless",
                "--name",
                "Salon",
                "--interface",
                lab.addresses["host"],
                "--port",
                "7777",
                "--code",
                CODE,
                "--journal",
                str(lab.scratch / "t.journal"),
            ],
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        time.sleep(1.0)
        join = lab.spawn(
            "c0",
            [
                sys.executable,
                "-m",
                "lanuno",
                "join",
                "--plain",
                "--interface",
                lab.addresses["c0"],
                "--code",
                CODE,
                "--name",
                "Zoe",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        assert join.stdin is not None
        assert join.stdout is not None
        lines: list[str] = []
        end = time.monotonic() + 30
        while time.monotonic() < end:
            line = join.stdout.readline().decode(errors="replace")
            if not line:
                break
            lines.append(line)
            if "Salon" in line and "7777" in line:
                join.stdin.write(b"1\n")
                join.stdin.flush()
            if "Welcome to Salon" in line:  # after the prompt, on its line (stdin is a pipe)
                join.stdin.write(b"quit\n")
                join.stdin.flush()
                break
        assert any("Welcome to Salon" in line for line in lines), lines
        assert join.wait(10) == 0

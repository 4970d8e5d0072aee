"""A resumed table stays off the networks its host kept it off: a table started with
``--interface 127.0.0.1 --no-mdns`` and resumed with a bare ``lanuno host --resume FILE``
(the command the host itself prints) was served on every network and announced there."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from lanuno.commands.host import Restored, _keep_network_limits, _restore_all
from lanuno.host.records import PortRecord, decode
from lanuno.host.table import Table, TableConfig
from lanuno.net.journal_files import JournalWriter
from lanuno.wire.crypto import counter_drbg


def _journal(path: Path, **served: object) -> None:
    table = Table(TableConfig(), counter_drbg(b"limits"))
    table.served_on(40123, **served)  # type: ignore[arg-type]
    writer = JournalWriter(path)
    writer.append(table.take_records())
    writer.close()


def _args(path: Path, *extra: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--interface")
    parser.add_argument("--no-mdns", action="store_true")
    return argparse.Namespace(
        **vars(parser.parse_args(list(extra))),
        resume=str(path),
        salvage=False,
        lang="en",
    )


def _resumed(path: Path, *extra: str) -> tuple[argparse.Namespace, list[Restored]]:
    args = _args(path, *extra)
    restored = _restore_all(args, TableConfig())
    _keep_network_limits(args, restored)
    return args, restored


def test_the_journal_keeps_where_the_table_was_served(tmp_path: Path) -> None:
    path = tmp_path / "t.journal"
    _journal(path, interface="127.0.0.1", announced=False)
    _, restored = _resumed(path, "--interface", "127.0.0.1", "--no-mdns")
    assert restored[0].table.served == PortRecord(
        port=40123, interface="127.0.0.1", announced=False
    )


def test_a_bare_resume_keeps_the_interface_and_no_mdns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "t.journal"
    _journal(path, interface="127.0.0.1", announced=False)
    args, _ = _resumed(path)
    assert args.interface == "127.0.0.1"
    assert args.no_mdns is True
    said = capsys.readouterr().out
    assert "served on 127.0.0.1 only, as before the restart" in said
    assert "not announced on the network (--no-mdns), as before the restart" in said


def test_an_interface_named_again_wins_and_a_table_served_everywhere_stays_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    limited, open_ = tmp_path / "limited.journal", tmp_path / "open.journal"
    _journal(limited, interface="127.0.0.1", announced=True)
    args, _ = _resumed(limited, "--interface", "127.0.0.2")
    assert (args.interface, args.no_mdns) == ("127.0.0.2", False)
    _journal(open_)  # served on every network, announced: a resume changes nothing
    args, _ = _resumed(open_)
    assert (args.interface, args.no_mdns) == (None, False)
    assert "as before the restart" not in capsys.readouterr().out


def test_a_journal_from_before_the_limits_were_kept_reads_as_every_network() -> None:
    record = decode({"k": "port", "port": 7777})
    assert record == PortRecord(port=7777, interface=None, announced=True)

"""Several tables served by one process on one event loop, sharing the process's group
commit: the crash test's host (run as ``python tests/net/multi_table_host.py``).

    multi_table_host.py DIR PORT [PORT ...] [--resume]

Table ``i`` listens on the i-th port with room code ``CODE`` and journals to
``DIR/table-i.journal``; ``--resume`` restores every table from its journal. It prints
``ready`` once every table listens, and runs until SIGTERM/SIGKILL.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

from lanuno.engine.rules import preset, with_options
from lanuno.host.pace import FixedPace
from lanuno.host.table import Table, TableConfig
from lanuno.net.journal_files import JournalWriter, read_journal
from lanuno.net.server import TableServer

CODE = "246810"


def config() -> TableConfig:
    rules = with_options(preset("official"), ["target=250"])
    return TableConfig(rules=rules, pace=FixedPace(0.03), auto_start=True, next_round_after=0.1)


def open_table(path: Path, resume: bool) -> tuple[Table, JournalWriter]:
    if resume:
        recovery = read_journal(path)
        table = Table.restore(recovery.records, config(), os.urandom, now=0.0)
        return table, JournalWriter(path, existing=recovery)
    table = Table(config(), os.urandom, room_code=CODE)
    table.add_bot("beginner")
    return table, JournalWriter(path)


async def main(directory: Path, ports: list[int], resume: bool) -> None:
    servers = []
    for number, port in enumerate(ports):
        table, journal = open_table(directory / f"table-{number}.journal", resume)
        server = TableServer(table, port=port, journal=journal)
        await server.start()
        servers.append(server)
    print("ready", flush=True)
    stop = asyncio.Event()
    asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
    await stop.wait()
    for server in servers:
        await server.close()


if __name__ == "__main__":
    arguments = sys.argv[1:]
    resume = "--resume" in arguments
    arguments = [a for a in arguments if a != "--resume"]
    asyncio.run(main(Path(arguments[0]), [int(p) for p in arguments[1:]], resume))

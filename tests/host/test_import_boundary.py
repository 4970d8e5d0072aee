"""Only lanuno/net, lanuno/ui and cli.py may import asyncio, zeroconf or prompt_toolkit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "lanuno"
FORBIDDEN = {"asyncio", "zeroconf", "prompt_toolkit", "socket", "selectors", "threading"}
PURE = ["engine", "wire", "host", "bots"]


def imported_roots(path: Path) -> set[str]:
    roots: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            roots |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            roots.add(node.module.split(".")[0])
    return roots


@pytest.mark.parametrize("package", PURE)
def test_pure_packages_do_no_io_of_their_own(package: str) -> None:
    files = sorted((ROOT / package).rglob("*.py"))
    assert files
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & FORBIDDEN)
        for f in files
        if imported_roots(f) & FORBIDDEN
    }
    assert offenders == {}


def test_the_checker_sees_an_import(tmp_path: Path) -> None:
    sample = tmp_path / "x.py"
    sample.write_text("import asyncio\nfrom zeroconf.asyncio import AsyncZeroconf\n")
    assert imported_roots(sample) >= {"asyncio", "zeroconf"}


SANS_IO_CORES = ["engine", "wire", "host"]
FILES_AND_CLOCKS = {"os", "io", "tempfile", "pathlib", "shutil", "time", "datetime"}
"""The sans-I/O cores read no file and no clock: the journal's files live in
lanuno/net/journal_files.py, and time comes in as ``now`` (bots may time their search)."""


@pytest.mark.parametrize("package", SANS_IO_CORES)
def test_sans_io_cores_touch_no_file_and_no_clock(package: str) -> None:
    offenders = {
        str(f.relative_to(ROOT)): sorted(imported_roots(f) & FILES_AND_CLOCKS)
        for f in sorted((ROOT / package).rglob("*.py"))
        if imported_roots(f) & FILES_AND_CLOCKS
    }
    assert offenders == {}

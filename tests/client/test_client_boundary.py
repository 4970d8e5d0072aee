"""The client core is sans-I/O, like the host's table: no event loop, socket, file or clock."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "lanuno" / "client"
FORBIDDEN = {
    "asyncio",
    "zeroconf",
    "prompt_toolkit",
    "socket",
    "selectors",
    "threading",
    "os",
    "io",
    "tempfile",
    "pathlib",
    "shutil",
    "time",
    "datetime",
}
ALLOWED_LANUNO = {"lanuno.client", "lanuno.engine", "lanuno.wire"}
"""Layers below the client core (engine < bots < wire < client)."""


def imports(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.add(node.module)
    return found


def test_the_client_core_does_no_io_and_imports_only_lower_layers() -> None:
    files = sorted(CORE.rglob("*.py"))
    assert files
    for path in files:
        names = imports(path)
        assert {n.split(".")[0] for n in names} & FORBIDDEN == set(), path.name
        ours = {".".join(n.split(".")[:2]) for n in names if n.startswith("lanuno.")}
        assert ours <= ALLOWED_LANUNO, path.name

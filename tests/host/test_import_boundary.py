"""The import boundaries: only lanuno/net, lanuno/ui, lanuno/commands and cli.py may import
asyncio, zeroconf or prompt_toolkit; the sans-I/O cores touch no file and no clock; and
lanuno's own packages import downwards only, in the order

    engine < bots < wire < client, host < net, ui < commands < cli

A module imports from its own package or from a lower layer. Two packages on the same
layer (client and host, net and ui) do not import each other: the layer above wires them.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "lanuno"
FORBIDDEN = {"asyncio", "zeroconf", "prompt_toolkit", "socket", "selectors", "threading"}
PURE = ["engine", "wire", "host", "bots"]
if (ROOT / "client").is_dir():  # the pure client core (issue 9, being written this round)
    PURE.append("client")


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


SANS_IO_CORES = ["engine", "wire", "host", *(["client"] if "client" in PURE else [])]
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


LAYERS: list[set[str]] = [
    {"engine"},
    {"bots"},
    {"wire"},
    {"client", "host"},
    {"net", "ui"},
    {"commands"},
    {"cli"},
    {"__main__"},
]
PACKAGE_ALIASES = {"sim": "bots"}
"""``lanuno/sim.py`` is the bots' driver loop (bound for ``bots/driver.py``)."""
LAYER_OF = {package: rank for rank, layer in enumerate(LAYERS) for package in layer}


def package_of(path: Path, root: Path = ROOT) -> str:
    """``lanuno/net/server.py`` -> ``net``; ``lanuno/cli.py`` -> ``cli``."""
    first = path.relative_to(root).parts[0].removesuffix(".py")
    return PACKAGE_ALIASES.get(first, first)


def lanuno_imports(path: Path) -> set[str]:
    """The lanuno packages a module imports (``from lanuno import __version__`` is the
    package root, importable from anywhere, so it is not listed)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        names: list[str] = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "lanuno":
                names = [f"lanuno.{alias.name}" for alias in node.names]
            else:
                names = [node.module]
        for name in names:
            parts = name.split(".")
            if parts[0] == "lanuno" and len(parts) > 1 and parts[1] != "__version__":
                found.add(PACKAGE_ALIASES.get(parts[1], parts[1]))
    return found


def layer_violations(root: Path) -> dict[str, list[str]]:
    offenders: dict[str, list[str]] = {}
    for path in sorted(root.rglob("*.py")):
        if path.parent == root and path.name == "__init__.py":
            continue
        package = package_of(path, root)
        rank = LAYER_OF[package]
        wrong = sorted(
            imported
            for imported in lanuno_imports(path)
            if imported != package and LAYER_OF[imported] >= rank
        )
        if wrong:
            offenders[str(path.relative_to(root))] = wrong
    return offenders


def test_every_package_has_a_layer() -> None:
    packages = {package_of(path) for path in ROOT.rglob("*.py") if path.parent != ROOT}
    packages |= {package_of(path) for path in ROOT.glob("*.py") if path.name != "__init__.py"}
    assert packages - set(LAYER_OF) == set()


def test_packages_import_only_from_lower_layers() -> None:
    assert layer_violations(ROOT) == {}


def test_the_layer_checker_sees_an_upward_and_a_sideways_import(tmp_path: Path) -> None:
    (tmp_path / "net").mkdir()
    (tmp_path / "net" / "client.py").write_text("from lanuno.ui.contracts import X\n")
    (tmp_path / "engine").mkdir()
    (tmp_path / "engine" / "cards.py").write_text("import lanuno.bots.base\n")
    (tmp_path / "commands").mkdir()
    (tmp_path / "commands" / "host.py").write_text(
        "from lanuno.net.server import S\nfrom lanuno import __version__\n"
    )
    assert layer_violations(tmp_path) == {
        "engine/cards.py": ["bots"],
        "net/client.py": ["ui"],
    }

"""The shape of the repository: a collectable test tree whose files are named by subject,
and a changelog of dated versions that agrees with the package's version."""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from datetime import date
from pathlib import Path

import lanuno

TESTS = Path(__file__).parent


def test_test_modules_have_unique_file_names() -> None:
    """Test folders have no __init__.py, so two test modules (or helpers) with the same
    file name would shadow each other when pytest imports them."""
    names = Counter(path.name for path in TESTS.rglob("*.py") if path.name != "conftest.py")
    assert [name for name, count in names.items() if count > 1] == []


HISTORY_WORDS = ("review", "fixes", "regression", "regressions", "bugfix", "bugfixes")
"""A test file says what it tests; when a test was written belongs in git's history."""


def test_test_files_are_named_by_subject_not_by_history() -> None:
    named_by_history = [
        str(path.relative_to(TESTS))
        for path in TESTS.rglob("test_*.py")
        if any(word in path.stem.split("_") for word in HISTORY_WORDS)
    ]
    assert named_by_history == []


ROOT = TESTS.parent
VERSION_HEADING = re.compile(r"^## \[(\d+)\.(\d+)\.(\d+)\] - (\d{4}-\d{2}-\d{2})$")
GROUPS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")


def changelog_versions() -> list[tuple[tuple[int, int, int] | None, date | None, list[str]]]:
    """(version, date, its groups in order) for each ``## [X.Y.Z] - YYYY-MM-DD`` heading,
    after (None, None, groups) for ``## [Unreleased]`` when the changelog has one."""
    versions: list[tuple[tuple[int, int, int] | None, date | None, list[str]]] = []
    for line in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## "):
            if line == "## [Unreleased]":
                assert not versions, "[Unreleased] comes first"
                versions.append((None, None, []))
                continue
            found = VERSION_HEADING.match(line)
            assert found, f"a version heading is '## [X.Y.Z] - YYYY-MM-DD', not {line!r}"
            major, minor, patch, day = found.groups()
            versions.append(((int(major), int(minor), int(patch)), date.fromisoformat(day), []))
        elif line.startswith("### "):
            assert versions, f"{line!r} before any version"
            versions[-1][2].append(line.removeprefix("### "))
    return versions


def released() -> list[tuple[tuple[int, int, int], date]]:
    return [(number, day) for number, day, _ in changelog_versions() if number and day]


def test_the_changelog_lists_dated_versions_newest_first() -> None:
    versions = released()
    assert versions
    numbers = [number for number, _ in versions]
    days = [day for _, day in versions]
    assert numbers == sorted(numbers, reverse=True)
    assert len(set(numbers)) == len(numbers)
    assert days == sorted(days, reverse=True)
    for number, _, groups in changelog_versions():  # [Unreleased] too
        assert set(groups) <= set(GROUPS), (number, groups)
        assert groups == sorted(groups, key=GROUPS.index), (number, groups)


def test_the_newest_changelog_version_is_the_package_version() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    newest = ".".join(map(str, released()[0][0]))
    assert project["version"] == lanuno.__version__ == newest

"""The test tree stays collectable: test folders have no __init__.py, so two test modules
(or helpers) with the same file name would shadow each other when pytest imports them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path


def test_test_modules_have_unique_file_names() -> None:
    names = Counter(
        path.name for path in Path(__file__).parent.rglob("*.py") if path.name != "conftest.py"
    )
    assert [name for name, count in names.items() if count > 1] == []

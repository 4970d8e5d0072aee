#!/usr/bin/env python3
"""Fail unless every rule ID of docs/rules.md is named by a test under tests/.

A rule counts as named when its ID appears as a whole word in a test file
(``test_O21_challenge`` or ``# rule O21``; K1-5 may be written K1_5).
The rules reference lives in the repository (docs/rules.md), so a clean clone checks itself;
another copy may be given as an argument.
"""

from __future__ import annotations

import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent
RULE_ID = re.compile(r"\*\*((?:O|T|B|KA)\d+|K[12]-\d+)\*\*")


def rule_ids(rules_text: str) -> list[str]:
    return list(dict.fromkeys(RULE_ID.findall(rules_text)))


def missing_rules(ids: list[str], tests_text: str) -> list[str]:
    missing = []
    for rule in ids:
        forms = {rule, rule.replace("-", "_")}
        if not any(
            re.search(rf"(?<![A-Za-z0-9]){re.escape(form)}(?![0-9])", tests_text) for form in forms
        ):
            missing.append(rule)
    return missing


def main(argv: list[str]) -> int:
    rules_path = pathlib.Path(argv[1]) if len(argv) > 1 else ROOT / "docs" / "rules.md"
    if not rules_path.is_file():
        print(
            f"rule coverage: {rules_path} not found; pass the path to the rules reference",
            file=sys.stderr,
        )
        return 2
    ids = rule_ids(rules_path.read_text(encoding="utf-8"))
    tests_text = "\n".join(
        path.read_text(encoding="utf-8", errors="replace")
        for path in sorted((ROOT / "tests").rglob("*.py"))
    )
    missing = missing_rules(ids, tests_text)
    print(f"{len(ids) - len(missing)} of {len(ids)} rules named by a test")
    if missing:
        print("not named by any test: " + " ".join(missing))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

"""protocol/messages.md and lanuno/wire/messages.py describe the same messages.

The message classes are the one schema in code; the spec is the one schema in prose. These
tests keep the two in step: a field added to a class without the spec (or the other way
round) fails here.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
from pathlib import Path

import pytest

from lanuno.engine import events as engine_events
from lanuno.wire.connection import _clip
from lanuno.wire.messages import (
    CLIENT_MESSAGES,
    ERROR_CODES,
    HOST_MESSAGES,
    Bye,
    LobbySeat,
    Message,
    Role,
    SeatSeed,
    State,
    _Record,
    field_names,
)

ROOT = Path(__file__).resolve().parents[2]
SPEC = ROOT / "protocol" / "messages.md"


def section(title: str) -> str:
    text = SPEC.read_text(encoding="utf-8")
    start = text.index(f"## {title}\n")
    end = text.find("\n## ", start + 1)
    return text[start : end if end != -1 else len(text)]


def table_rows(text: str) -> list[list[str]]:
    """The rows of the first table in ``text``, without its header."""
    rows: list[list[str]] = []
    for line in text.splitlines():
        if line.startswith("|"):
            if not line.startswith("|---"):
                rows.append([cell.strip() for cell in line.strip("|").split("|")])
        elif rows:
            break
    return rows[1:]


def spec_fields(cell: str) -> tuple[str, ...]:
    """The field names of a Fields cell: the first `code` of each ``;``-separated part."""
    names = []
    for part in cell.split(";"):
        found = re.search(r"`([a-z_]+)`", part)
        if found:
            names.append(found.group(1))
    return tuple(names)


def spec_messages(title: str) -> dict[str, str]:
    return {row[0].strip("`"): row[1] for row in table_rows(section(title))}


@pytest.mark.parametrize(
    ("title", "registry", "role"),
    [("Client → host", CLIENT_MESSAGES, Role.CLIENT), ("Host → client", HOST_MESSAGES, Role.HOST)],
)
def test_every_message_in_the_spec_has_the_classes_fields(
    title: str, registry: dict[str, type[Message]], role: Role
) -> None:
    spec = spec_messages(title)
    assert set(spec) == set(registry), f"{title}: spec and code list different types"
    for tag, cell in spec.items():
        cls = registry[tag]
        assert tag == cls.TYPE
        assert cls.SENDER in (role, None)
        if cell == "as above":  # bye, either side
            cell = spec_messages("Client → host")[tag]
        if cls is State:
            continue  # its own table, below
        assert spec_fields(cell) == field_names(cls), f"{tag}: spec fields differ from code"


def test_state_table_lists_the_state_fields_in_order() -> None:
    text = section("Host → client")
    table = text[text.index("**`state`**") :]
    table = table[: table.index("\n\n", table.index("| Field |"))]
    names = tuple(row[0].strip("`") for row in table_rows(table))
    assert names == field_names(State)


def test_nested_records_match_the_spec() -> None:
    text = section("Host → client")
    lobby_seat = text[text.index("**Lobby seat map**") :].split("\n\n", 1)[0]
    assert tuple(re.findall(r"`([a-z_]+)`: ", lobby_seat)) == field_names(LobbySeat)
    reveal = spec_messages("Host → client")["seed_reveal"]
    triple = re.search(r"\[(seat), (seed) bin 32, (commit) bin 32\]", reveal)
    assert triple is not None
    assert triple.groups() == field_names(SeatSeed)


def test_error_codes_match_the_spec() -> None:
    text = section("Host → client")
    listed = text[text.index("`error.code` values in version 1:") :].split("(treat", 1)[0]
    assert set(re.findall(r"`([a-z_]+)`", listed)) - {"error"} == ERROR_CODES


def test_messages_and_records_are_keyword_only_frozen_dataclasses() -> None:
    classes = {*CLIENT_MESSAGES.values(), *HOST_MESSAGES.values(), LobbySeat, SeatSeed}
    for cls in classes:
        parameters = list(inspect.signature(cls).parameters.values())
        assert parameters, cls
        assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in parameters), cls
        assert cls.__dataclass_params__.frozen, cls  # type: ignore[attr-defined]


def test_the_event_table_is_generated_from_the_engine_events() -> None:
    """M-25: messages.md lists every engine event with its fields and audience; a change to
    lanuno/engine/events.py without ``python scripts/gen_vectors.py`` fails here."""
    spec = importlib.util.spec_from_file_location(
        "gen_vectors", ROOT / "scripts" / "gen_vectors.py"
    )
    assert spec is not None
    assert spec.loader is not None
    gen_vectors = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen_vectors)
    text = SPEC.read_text(encoding="utf-8")
    assert gen_vectors.messages_md_with_event_table(text) == text
    table = text[text.index(gen_vectors.EVENTS_BEGIN) : text.index(gen_vectors.EVENTS_END)]
    for cls in vars(engine_events).values():
        if isinstance(cls, type) and issubclass(cls, engine_events.Event) and cls.kind != "event":
            assert f"| `{cls.kind}` |" in table


def test_every_requirement_number_is_unique_and_sections_count_from_one() -> None:
    tags = re.findall(
        r"\[([GHFMR])-(\d+)\]",
        "".join(p.read_text(encoding="utf-8") for p in sorted((ROOT / "protocol").glob("*.md"))),
    )
    by_section: dict[str, list[int]] = {}
    for section_letter, number in tags:
        by_section.setdefault(section_letter, []).append(int(number))
    for section_letter, numbers in by_section.items():
        assert sorted(numbers) == list(range(1, len(numbers) + 1)), section_letter
    assert sum(len(n) for n in by_section.values()) >= 40


def test_the_base_classes_have_no_codec_of_their_own() -> None:
    """Only ``@message``/``@record`` classes get a generated codec."""
    with pytest.raises(NotImplementedError):
        Message().to_wire()
    with pytest.raises(NotImplementedError):
        Message.from_wire({})
    with pytest.raises(NotImplementedError):
        _Record().to_wire()
    with pytest.raises(NotImplementedError):
        _Record.from_wire({})


def test_a_goodbye_reason_is_clipped_to_printable_text() -> None:
    assert _clip("a\x00b") == "a?b"
    long = _clip("x" * 300)
    assert len(long) == 200
    assert long.endswith("...")
    Bye(code=2, reason=long)  # valid as a bye.reason

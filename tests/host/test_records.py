"""Typed journal records: one encode/decode, the stored format unchanged, phases as data."""

from __future__ import annotations

import pytest
from table_harness import Harness

from lanuno.engine.rules import preset, with_options
from lanuno.host.pace import FixedPace
from lanuno.host.records import KINDS, ActRecord, SecretRecord, decode, encode
from lanuno.host.table import TRANSITIONS, Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg


def _played_journal() -> list[dict[str, object]]:
    rules = with_options(preset("official"), ["move_timer=20"])
    table = Table(TableConfig(rules=rules, pace=FixedPace(0.5)), counter_drbg(b"rec"))
    h = Harness(table)
    h.join("A"), h.join("B")
    table.add_bot("beginner")
    table.remove_seat(2)
    table.add_bot("beginner")
    table.start(h.now)
    h.pump()
    for _ in range(200):
        deadline = table.next_deadline()
        if deadline is None or table.phase is not TablePhase.PLAYING:
            break
        h.now = max(h.now, deadline)
        table.tick(h.now)
        h.pump()
    return h.records


def test_every_stored_record_decodes_and_encodes_back_to_the_same_map() -> None:
    journal = _played_journal()
    kinds = {r["k"] for r in journal}
    assert {"open", "lobby", "remove", "secret", "start", "round", "act"} <= kinds
    for stored in journal:
        record = decode(stored)
        assert encode(record) == stored
        assert list(encode(record)) == list(stored)  # the same keys in the same order


def test_the_stored_format_is_the_one_journals_always_had() -> None:
    act = ActRecord(action="0 draw", now=1.5, auto=False, seq=3)
    assert encode(act) == {"k": "act", "a": "0 draw", "now": 1.5, "auto": False, "seq": 3}
    secret = SecretRecord(seat=1, generation=2, secret=b"s" * 32)
    assert encode(secret) == {"k": "secret", "seat": 1, "gen": 2, "secret": b"s" * 32}
    # The journal's number is not part of the record.
    assert decode({**encode(act), "n": 17}) == act


@pytest.mark.parametrize(
    "stored",
    [
        {"k": "nope"},
        {"seat": 1},
        {"k": "act", "a": "0 draw", "now": 1.0, "seq": 1},  # no "auto"
        {"k": "lobby", "seats": [{"kind": "bot"}], "rules": {}},
        {"k": "open", "room_id": b"r" * 16, "code": "x", "name": "t", "rules": {"nope": 1}},
    ],
)
def test_a_malformed_record_is_a_value_error_naming_it(stored: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=r"journal record|rule option"):
        decode(stored)


def test_records_are_keyword_only_and_frozen() -> None:
    for cls in KINDS.values():
        with pytest.raises(TypeError):
            cls(*range(len(cls.__dataclass_fields__)))  # type: ignore[arg-type]
    act = ActRecord(action="0 draw", now=1.0, auto=False, seq=1)
    with pytest.raises(AttributeError):
        act.seq = 2  # type: ignore[misc]


def test_phase_changes_outside_the_transition_table_are_refused() -> None:
    assert set(TRANSITIONS) == set(TablePhase)
    table = Table(TableConfig(), counter_drbg(b"t"))
    with pytest.raises(AssertionError, match=r"LOBBY -> TablePhase\.PLAYING"):
        table._enter(TablePhase.PLAYING)
    table._enter(TablePhase.DEALING)
    assert table.phase is TablePhase.DEALING

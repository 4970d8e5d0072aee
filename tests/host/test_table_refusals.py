"""The host's own entry points refuse an unknown bot level, preset or option with a sentence
that names what is accepted, and change nothing (issue 9, item 2). A level used to fall
back to a beginner without a word."""

from __future__ import annotations

import dataclasses

import pytest
from table_harness import Harness

from lanuno.bots import BotLevel, UnknownBotLevel
from lanuno.host.records import LobbyRecord, decode, encode
from lanuno.host.table import Table, TableConfig, TablePhase, default_bot_factory
from lanuno.wire import messages
from lanuno.wire.crypto import counter_drbg


def lobby_table() -> tuple[Table, Harness]:
    table = Table(TableConfig(), counter_drbg(b"refusals"))
    return table, Harness(table)


def test_adding_a_bot_of_an_unknown_level_is_refused_and_seats_nobody() -> None:
    table, h = lobby_table()
    h.join("Ann")
    h.pump()
    before = [dataclasses.replace(slot) for slot in table.slots]
    with pytest.raises(UnknownBotLevel, match=r"unknown bot level 'wizard'.*beginner, inter"):
        table.add_bot("wizard")
    assert table.slots == before
    assert table.take_records() == []


def test_a_bot_level_is_read_in_any_case_and_kept_as_a_bot_level() -> None:
    table, _ = lobby_table()
    seat = table.add_bot(" Expert")
    assert table.slots[seat].level is BotLevel.EXPERT
    assert table.slots[seat].name == "Bot 1 (expert)"


def test_the_default_bot_factory_refuses_an_unknown_level() -> None:
    with pytest.raises(UnknownBotLevel):
        default_bot_factory("grandmaster")


def test_a_table_config_with_an_unknown_bot_level_is_refused() -> None:
    with pytest.raises(UnknownBotLevel, match="'wizard'"):
        TableConfig(bot_level="wizard")  # type: ignore[arg-type]
    assert TableConfig(bot_level="EXPERT").bot_level is BotLevel.EXPERT  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("key", "value", "named"),
    [("teleport", "on", "'teleport'"), ("stacking", "sometimes", "'sometimes'")],
)
def test_setting_an_unknown_option_or_value_is_refused(key: str, value: str, named: str) -> None:
    table, _ = lobby_table()
    rules = table.rules
    with pytest.raises(ValueError, match=named):
        table.set_option(key, value)
    assert table.rules == rules
    assert table.phase is TablePhase.LOBBY


def test_setting_an_unknown_preset_is_refused() -> None:
    table, _ = lobby_table()
    rules = table.rules
    with pytest.raises(ValueError, match="'tournament'"):
        table.set_preset("tournament")
    assert table.rules == rules


def test_a_journal_naming_an_unknown_bot_level_does_not_restore() -> None:
    table, _ = lobby_table()
    table.add_bot("beginner")
    lobby = next(r for r in map(decode, table.take_records()) if isinstance(r, LobbyRecord))
    stored = encode(lobby)
    stored["seats"][0]["level"] = "wizard"
    with pytest.raises(ValueError, match="unknown bot level 'wizard'"):
        decode(stored)


CHOICE_FIELDS = {"level", "bot_level", "preset", "options", "option", "rules"}


def test_no_message_a_client_sends_can_name_a_bot_level_or_an_option() -> None:
    """The wire entry point: levels and options reach the host only from its own controls.
    A client message that grew such a field would need the parsing above (BotLevel.parse,
    the engine's option parser): this test is the reminder."""
    client_messages = [
        cls
        for cls in vars(messages).values()
        if isinstance(cls, type)
        and issubclass(cls, messages.Message)
        and cls.SENDER in (messages.Role.CLIENT, None)  # None: either side (Bye, ...)
    ]
    assert {cls.__name__ for cls in client_messages} >= {"Hello", "ActionRequest", "Ready"}
    named = {
        cls.__name__: sorted({f.name for f in dataclasses.fields(cls)} & CHOICE_FIELDS)
        for cls in client_messages
    }
    assert {name: fields for name, fields in named.items() if fields} == {}

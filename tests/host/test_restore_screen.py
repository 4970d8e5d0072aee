"""A table rebuilt from its journal shows itself on the shared screens at once (the
host's own table app, a hall's row, a remote ``lanuno screen``): its lobby and public
state go to the screen; before, the screen stayed an empty lobby until the next change."""

from __future__ import annotations

from table_harness import Harness

from lanuno.host.table import SCREEN, Send, Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.messages import Lobby, State


def screen_messages(table: Table) -> list[object]:
    return [o.message for o in table.take_outbox() if isinstance(o, Send) and o.peer == SCREEN]


def test_a_restored_game_shows_its_lobby_and_public_state_on_the_screen() -> None:
    table = Table(TableConfig(name="Kitchen"), counter_drbg(b"t"))
    h = Harness(table)
    h.join("Ann")
    h.join("Bob")
    table.start(h.now)
    h.pump()
    assert table.phase is TablePhase.PLAYING
    restored = Table.restore(h.records, TableConfig(name="Kitchen"), counter_drbg(b"r"), h.now)
    shown = screen_messages(restored)
    lobby = [m for m in shown if isinstance(m, Lobby)]
    states = [m for m in shown if isinstance(m, State)]
    assert [s.name for s in lobby[-1].seats] == ["Ann", "Bob"]
    assert not any(s.connected for s in lobby[-1].seats)  # both away until they resume
    assert states
    assert states[-1].hand == ()  # public only: the screen never gets a hand
    assert states[-1].legal == ()
    assert all(not isinstance(o, Send) or o.peer == SCREEN for o in restored.take_outbox())


def test_a_restored_lobby_shows_its_bots() -> None:
    table = Table(TableConfig(), counter_drbg(b"t"))
    h = Harness(table)
    table.add_bot("beginner")
    h.pump()
    restored = Table.restore(h.records, TableConfig(), counter_drbg(b"r"), now=h.now)
    lobby = [m for m in screen_messages(restored) if isinstance(m, Lobby)]
    assert [s.kind for s in lobby[-1].seats][:1] == ["bot"]


def test_a_new_table_shows_its_rules_on_the_screen_before_anyone_sits_down() -> None:
    """Before, the host's screen said 'Points to win: 200' (the first choice it offers)
    until the first player joined and the lobby came: an official game goes to 500."""
    table = Table(TableConfig(name="Kitchen"), counter_drbg(b"t"))
    lobby = [m for m in screen_messages(table) if isinstance(m, Lobby)]
    assert lobby, "no lobby for the shared screens"
    assert lobby[-1].options["target"] == 500
    assert lobby[-1].can_start is False

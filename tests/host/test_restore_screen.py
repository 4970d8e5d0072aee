"""A table rebuilt from its journal shows itself on the shared screens at once (the
host's own table app, a hall's row, a remote ``lanuno screen``): its lobby and public
state go to the screen; before, the screen stayed an empty lobby until the next change."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from table_harness import FakeClient, Harness

from lanuno.engine.rules import preset, with_options
from lanuno.host.table import SCREEN, Send, Table, TableConfig, TablePhase
from lanuno.ui.hall_model import hall_row
from lanuno.ui.i18n import translator
from lanuno.ui.table_model import TableModel
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.messages import GameEnd, Lobby, Message, RoundEnd, State


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


def _play_until(h: Harness, clients: list[FakeClient], done: Callable[[], bool]) -> None:
    rng = random.Random(7)
    for _ in range(20000):
        if done():
            return
        for client in clients:
            state = client.state
            if client.closed is None and state and state.legal and state.actor == client.seat:
                plays = [a for a in state.legal if a.startswith("play ")]
                h.act(client, rng.choice(plays or list(state.legal)))
                break
        else:
            h.advance(1.0)
    raise AssertionError("the game did not get there")


@pytest.mark.parametrize(("target", "phase"), [("500", "between"), ("none", "game_over")])
def test_a_table_restored_after_a_round_shows_its_results_not_a_lobby(
    target: str, phase: str
) -> None:
    """Between two rounds (or after the game) a restored table showed a lobby on the host's
    screen and the hall (its row said "lobby", its O said the rules could not change): the
    results go to the screen again, as they go to each player who resumes."""
    config = TableConfig(rules=with_options(preset("official"), [f"target={target}"]))
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table)
    ann, bob = h.join("Ann"), h.join("Bob")
    table.start(h.now)
    h.pump()
    _play_until(h, [ann, bob], lambda: table.phase is not TablePhase.PLAYING)
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=h.now)
    shown = screen_messages(restored)
    ends = [m for m in shown if isinstance(m, RoundEnd)]
    assert len(ends) == 1
    assert ends[0].round == 1
    assert ends[0].winner in (0, 1)
    games = [m for m in shown if isinstance(m, GameEnd)]
    assert len(games) == (1 if phase == "game_over" else 0)
    model = TableModel(translator("en"))
    for message in shown:
        assert isinstance(message, Message)
        model.apply(message, h.now)
    row = hall_row(1, "Table 1", "123456", "654321", model)
    assert row.phase == phase

"""A restarted host waits for its players (seen in the lab: after ``lanuno host --resume``
everyone had to start ``lanuno join`` again; those who took longer than the drop grace
found bots in their seats, and with everyone away the round played itself to its end).
Nothing is played for a human seat until the first player is back; the seats still away
then get the usual grace, counted from that return."""

from __future__ import annotations

import os
import random

from table_harness import FakeClient, Harness

from lanuno.engine.rules import preset, with_options
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.messages import Lobby, Message, State

BOT_SEAT = 2


def _config(move_timer: int | None = None) -> TableConfig:
    rules = preset("official")
    if move_timer is not None:
        rules = with_options(rules, [f"move_timer={move_timer}"])
    return TableConfig(rules=rules, drop_grace=30.0)


def _quit_mid_round(config: TableConfig) -> tuple[Harness, FakeClient, FakeClient]:
    """Ann, Bob and a bot play a few moves; the host quits with the bot to play next."""
    h = Harness(Table(config, os.urandom, rng=random.Random(5)))
    ann, bob = h.join("Ann"), h.join("Bob")
    h.table.add_bot("beginner")
    h.now = 100.0
    h.table.start(h.now)
    h.pump()
    rng = random.Random(3)
    moves = 0
    for _ in range(500):
        state = ann.state
        assert state is not None
        if moves >= 3 and state.actor == BOT_SEAT:
            return h, ann, bob
        player = next((p for p in (ann, bob) if p.seat == state.actor), None)
        state = player.state if player is not None else None
        if player is not None and state is not None and state.legal:
            plays = [a for a in state.legal if a.startswith("play ")]
            h.act(player, rng.choice(plays or list(state.legal)))
            moves += 1
        else:
            h.advance(0.5)  # the bot plays
    raise AssertionError("the bot never came to play")


def _restarted(h: Harness, config: TableConfig) -> Harness:
    """``lanuno host --resume``: the table from its journal, the clock going on from it."""
    restored = Table.restore(h.records, config, os.urandom, now=0.0)
    h2 = Harness(restored)
    h2.now = restored.last_now
    return h2


def _screen_deadline(h: Harness) -> int | None:
    """The move timer the shared screen shows (its latest state's)."""
    states = [m for m in h.screen if isinstance(m, State)]
    return states[-1].deadline_ms


def _seats_played(records: list[dict[str, object]]) -> set[int]:
    return {int(str(r["a"]).split()[0]) for r in records if r["k"] == "act"}


def test_a_restored_game_plays_nothing_for_its_away_players_however_long_they_take() -> None:
    config = _config()
    h2 = _restarted(_quit_mid_round(config)[0], config)
    h2.advance(10 * config.drop_grace)
    table = h2.table
    assert table.phase is TablePhase.PLAYING
    assert not any(slot.taken_over for slot in table.slots)
    # The bot played its own turn (at least), and nothing for Ann or Bob.
    assert _seats_played(h2.records) == {BOT_SEAT}
    assert table.game is not None
    assert table.game.round.actor != BOT_SEAT  # play stopped at an away player


def test_a_restored_game_nobody_comes_back_to_is_played_by_bots_after_the_restore_grace() -> None:
    """Seen at a hall: the only player had left for good, a guest watched, and the table
    waited for ever ("waiting for the players to come back"). The wait ends after
    ``restore_grace``; the away seats then get the usual grace, and bots play them."""
    config = TableConfig(rules=preset("official"), drop_grace=30.0, restore_grace=120.0)
    h2 = _restarted(_quit_mid_round(config)[0], config)
    start = h2.now
    h2.advance(config.restore_grace - 1.0)
    table = h2.table
    assert not any(slot.taken_over for slot in table.slots)
    assert _seats_played(h2.records) == {BOT_SEAT}
    h2.advance(1.0 + config.drop_grace + 5.0)
    assert h2.now - start < config.restore_grace + config.drop_grace + 10.0
    humans = [slot for slot in table.slots if slot.kind == "human"]
    assert all(slot.taken_over for slot in humans)
    h2.advance(30.0)
    assert _seats_played(h2.records) - {BOT_SEAT}, "bots play the away seats"


def test_once_one_player_is_back_a_seat_still_away_gets_the_grace_from_then() -> None:
    config = _config()
    h, ann, bob = _quit_mid_round(config)
    h2 = _restarted(h, config)
    h2.advance(100.0)
    back = h2.now
    h2.resume(ann)
    assert bob.seat is not None
    bob_slot = h2.table.slots[bob.seat]
    h2.advance(config.drop_grace - 0.5)
    assert not bob_slot.taken_over
    h2.advance(0.5)
    assert bob_slot.taken_over
    assert bob_slot.dropped_at == back


def test_with_a_move_timer_nothing_times_out_until_a_player_is_back() -> None:
    config = _config(move_timer=20)
    h, ann, bob = _quit_mid_round(config)
    h2 = _restarted(h, config)
    restarted_at = h2.now
    h2.advance(300.0)
    table = h2.table
    assert _seats_played(h2.records) == {BOT_SEAT}
    assert not any(slot.taken_over for slot in table.slots)
    assert table.game is not None
    assert table.game.round.timeouts_in_row == [0, 0, 0]
    # No clock runs out for an away player, and the host's screen shows none.
    # Only the wait's own end (restore_grace), no move timer.
    assert table.next_deadline() == restarted_at + config.restore_grace
    assert _screen_deadline(h2) is None
    # Ann is back: the decision under way gets its whole move timer from her return, not
    # the one that ran out while everyone was away.
    back = h2.now
    acted_before = len([r for r in h2.records if r["k"] == "act"])
    returned = h2.resume(ann)
    state = returned.state
    assert state is not None
    assert state.deadline_ms == 20_000
    assert _screen_deadline(h2) == 20_000
    assert bob.seat is not None
    bob_slot = table.slots[bob.seat]
    h2.advance(19.5)
    assert len([r for r in h2.records if r["k"] == "act"]) == acted_before
    assert not bob_slot.taken_over
    h2.advance(0.5)
    assert bob_slot.taken_over  # Bob's grace ran from Ann's return
    assert bob_slot.dropped_at == back


def test_a_restored_game_without_players_away_plays_on() -> None:
    """Bots only (the humans were replaced by bots between rounds): nothing to wait for."""
    config = _config()
    h = Harness(Table(config, os.urandom, rng=random.Random(5)))
    h.table.add_bot("beginner")
    h.table.add_bot("beginner")
    h.table.start(h.now)
    h.pump()
    h2 = _restarted(h, config)
    h2.advance(5.0)
    assert len(_seats_played(h2.records)) == 2


def _ann_on_autopilot(config: TableConfig) -> tuple[Harness, FakeClient, FakeClient]:
    """Ann lets her move timer run out twice in a row (T3: a bot plays her seat from then
    on, her client still connected); the host quits when her seat is to play next. A
    fixed deal: a random one may end the round before her autopilot comes to play."""
    h = Harness(Table(config, counter_drbg(b"autopilot table"), rng=random.Random(5)))
    ann, bob = h.join("Ann"), h.join("Bob")
    h.table.add_bot("beginner")
    h.now = 100.0
    h.table.start(h.now)
    h.pump()
    assert ann.seat is not None
    rng = random.Random(3)
    for _ in range(2000):
        game = h.table.game
        assert game is not None
        assert h.table.phase is TablePhase.PLAYING
        actor = game.round.actor
        autopilot = game.round.autopilot[ann.seat]
        if autopilot and actor == ann.seat and game.round.phase.value == "turn":
            return h, ann, bob
        state = bob.state
        if actor == bob.seat and state is not None and state.legal:
            plays = [a for a in state.legal if a.startswith("play ")]
            h.act(bob, rng.choice(plays or list(state.legal)))
        else:
            h.advance(0.5)  # Ann's timer runs, the bot (or Ann's autopilot) plays
    raise AssertionError("Ann's autopilot never came to play")


def _bot_playing(messages: list[Message], seat: int) -> bool:
    """What the latest lobby among ``messages`` says of ``seat``: is a bot playing it?"""
    lobbies = [m for m in messages if isinstance(m, Lobby)]
    return lobbies[-1].seats[seat].bot_playing


def test_T3_the_lobby_says_a_bot_plays_a_seat_on_autopilot_until_its_player_moves() -> None:
    """A screen paired late, or a host's own screen after a restart, heard no ``autopilot``
    event: the lobby tells it, and again when the player is back at the keyboard."""
    h, ann, _bob = _ann_on_autopilot(_config(move_timer=20))
    assert ann.seat is not None
    assert _bot_playing(h.screen, ann.seat)
    assert _bot_playing(ann.inbox, ann.seat)
    state = ann.state
    assert state is not None
    assert state.actor == ann.seat
    h.act(ann, "draw")  # her own move: the autopilot hands the seat back
    assert h.table.game is not None
    assert not h.table.game.round.autopilot[ann.seat]
    assert not _bot_playing(h.screen, ann.seat)


def _acts_of(records: list[dict[str, object]], seat: int) -> list[dict[str, object]]:
    return [r for r in records if r["k"] == "act" and int(str(r["a"]).split()[0]) == seat]


def test_T3_an_autopilot_seat_waits_at_a_restored_table_then_plays_on() -> None:
    """Ann's seat was on autopilot when the host died. Restored, the autopilot plays
    nothing while every player is away (the round would play itself out otherwise); once
    Bob is back it plays her seat again at once, as before: she is still not back herself,
    and the grace of a dropped seat is not what hands it to a bot."""
    config = _config(move_timer=20)
    h, ann, bob = _ann_on_autopilot(config)
    assert ann.seat is not None
    assert bob.seat is not None
    h2 = _restarted(h, config)
    restarted_at = h2.now
    table = h2.table
    assert table.game is not None
    assert table.game.round.autopilot[ann.seat]  # the journal's timeouts, replayed
    h2.advance(10 * config.drop_grace)
    assert _acts_of(h2.records, ann.seat) == []
    assert table.game.round.actor == ann.seat
    # Only the wait's own end (restore_grace), no move timer.
    assert table.next_deadline() == restarted_at + config.restore_grace
    # The restored host's screen had no autopilot event: the lobby says who a bot plays.
    assert not _bot_playing(h2.screen, ann.seat)  # nobody plays her seat while it waits
    returned = h2.resume(bob)
    assert _bot_playing(h2.screen, ann.seat)
    assert _bot_playing(returned.inbox, ann.seat)
    h2.advance(5.0)  # a bot's pace, far less than the drop grace or the move timer
    played = _acts_of(h2.records, ann.seat)
    assert played
    assert all(r["auto"] for r in played)
    assert not table.slots[ann.seat].taken_over  # the autopilot, not a takeover
    assert returned.state is not None  # Bob reads the table


def test_T3_the_autopilot_lasts_a_round_and_the_lobby_says_so_at_the_next_deal() -> None:
    """The engine's autopilot is a round's: the next round deals Ann her seat back. The
    screens showed her 'bot playing' for the rest of the game (no event turns it off)."""
    h, ann, bob = _ann_on_autopilot(_config(move_timer=20))
    assert ann.seat is not None
    rng = random.Random(4)
    for _ in range(5000):
        if h.table.phase is not TablePhase.PLAYING:
            break
        state = bob.state
        if state is not None and state.actor == bob.seat and state.legal:
            plays = [a for a in state.legal if a.startswith("play ")]
            h.act(bob, rng.choice(plays or list(state.legal)))
        else:
            h.advance(0.5)
    assert h.table.phase is TablePhase.BETWEEN_ROUNDS  # a game to 500: more rounds to come
    assert _bot_playing(h.screen, ann.seat)  # the round's result: she did not play it
    h.table.start(h.now)  # the host deals the next round
    h.pump()
    assert h.table.phase is TablePhase.PLAYING
    assert h.table.game is not None
    assert not h.table.game.round.autopilot[ann.seat]
    assert not _bot_playing(h.screen, ann.seat)

"""Recovery of a table from its journal (issue 11): the deal's commit-reveal, a finished
game, and seed commitments that survive a refused reveal."""

from __future__ import annotations

import random
from collections.abc import Callable

from table_harness import FakeClient, Harness

from lanuno.engine.cards import build_deck
from lanuno.engine.rules import Rules, preset, with_options
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.fairness import host_seed_commitment, verify_round
from lanuno.wire.messages import (
    Ack,
    ActionRequest,
    ClientSeedReveal,
    ErrorReply,
    GameEnd,
    HostSeedReveal,
    RoundEnd,
    SeedCommit,
)


def _play_until(h: Harness, clients: list[FakeClient], done: Callable[[], bool], seed: str) -> None:
    """Humans play random legal cards (draws rarely) until ``done``; the clock moves on
    when nobody can act."""
    rng = random.Random(seed)
    for _ in range(20000):
        if done():
            return
        acted = False
        for client in clients:
            state = client.state
            if client.closed is None and state and state.legal and state.actor == client.seat:
                plays = [a for a in state.legal if a.startswith("play ")]
                h.act(client, rng.choice(plays if plays and rng.random() < 0.9 else state.legal))
                acted = True
                break
        if not acted:
            h.advance(1.0)
    raise AssertionError("the game did not get there")


def _verify(client: FakeClient, table: Table, rules: Rules, round_no: int, commit: bytes) -> None:
    (reveal,) = [m for m in client.of_type(HostSeedReveal) if m.round == round_no][-1:]
    assert isinstance(reveal, HostSeedReveal)
    verify_round(
        reveal,
        room_id=table.room_id,
        host_commit=commit,
        my_seat=client.seat,
        my_seed=client.seeds.revealed.get(round_no),
        canonical_deck=[c.code for c in build_deck(rules.deck)],
    )


# ---------------------------------------------------------------------- 1: restart in the deal


def test_a_restart_during_the_deal_resumes_the_commit_reveal_clients_can_verify() -> None:
    rules = with_options(preset("official"), ["target=none"])
    config = TableConfig(rules=rules)
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table, auto_reveal=False)
    a, b = h.join("A"), h.join("B")
    h.now = 100.0
    table.start(h.now)
    h.pump()
    (commit,) = [m.commit for m in a.of_type(SeedCommit) if isinstance(m, SeedCommit)]
    h.reveal(a, 1)  # A's reveal is in; the host dies before B's
    assert table.phase is TablePhase.DEALING

    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=0.0)
    assert restored.phase is TablePhase.DEALING, "the deal waits for the players to come back"
    h2 = Harness(restored)
    a2, b2 = h2.resume(a), h2.resume(b)
    assert restored.phase is TablePhase.PLAYING
    # Both players' seeds went into the deal, under the commitment they saw before.
    _play_until(h2, [a2, b2], lambda: restored.phase is not TablePhase.PLAYING, "deal")
    for client in (a2, b2):
        _verify(client, restored, rules, 1, commit)
        (reveal,) = client.of_type(HostSeedReveal)
        assert isinstance(reveal, HostSeedReveal)
        assert {s.seat for s in reveal.seeds} == {0, 1}
    assert host_seed_commitment(restored.room_id, 1, reveal.host_seed) == commit


def test_a_restart_during_the_deal_deals_when_the_reveal_window_ends() -> None:
    config = TableConfig(rules=with_options(preset("official"), ["move_timer=20"]))
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table, auto_reveal=False)
    h.join("A"), h.join("B")
    h.now = 500.0
    table.start(h.now)
    h.pump()
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=0.0)
    assert restored.phase is TablePhase.DEALING
    assert restored.next_deadline() == 500.0 + config.reveal_wait
    restored.tick(500.0 + config.reveal_wait)
    assert restored.phase is TablePhase.PLAYING


# ---------------------------------------------------------------------- 2: a finished game


def test_a_restart_after_the_last_action_restores_the_finished_game() -> None:
    rules = with_options(preset("official"), ["target=none"])
    config = TableConfig(rules=rules)
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table)
    a, b = h.join("A"), h.join("B")
    table.start(h.now)
    h.pump()
    commit = [m for m in a.of_type(SeedCommit) if isinstance(m, SeedCommit)][-1].commit
    _play_until(h, [a, b], lambda: table.phase is TablePhase.LOBBY, "end")
    last = [r for r in h.records if r["k"] == "act"][-1]
    assert last["seq"], "a player's own action ended the game"
    winner = a if int(str(last["a"]).split()[0]) == a.seat else b

    # The host dies after journaling the winning action, before sending anything of it.
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=h.now)
    assert restored.phase is TablePhase.LOBBY
    assert [s.name for s in restored.slots] == ["A", "B"], "the seats are kept"
    h2 = Harness(restored)
    back = {c.name: h2.resume(c) for c in (a, b)}
    for client in back.values():
        assert client.closed is None
        assert client.of_type(RoundEnd), "results are sent again"
        assert client.of_type(GameEnd), "results are sent again"
        _verify(client, restored, rules, 1, commit)
    # The winner never got its ack: the resend is acknowledged as applied.
    again = back[winner.name]
    h2.send(again, ActionRequest(seq=int(last["seq"]), sid=0, a="draw"))
    assert again.inbox[-1] == Ack(seq=int(last["seq"]))
    # The seats and their resume secrets carry into the next game.
    assert restored.resume_lookup(0, back["A"].generation) == back["A"].secret


def test_held_seats_of_a_finished_game_free_up_if_nobody_comes_back() -> None:
    config = TableConfig(rules=with_options(preset("official"), ["target=none"]), drop_grace=30)
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table)
    a, b = h.join("A"), h.join("B")
    table.start(h.now)
    h.pump()
    _play_until(h, [a, b], lambda: table.phase is TablePhase.LOBBY, "free")
    restored = Table.restore(h.records, config, counter_drbg(b"r"), now=h.now)
    h2 = Harness(restored)
    h2.now = h.now
    h2.resume(a)
    assert len(restored.slots) == 2
    # B's player must start ``lanuno join`` again by hand (a saved table): the seat waits
    # longer than a dropped connection's grace, then it is given up.
    h2.advance(31.0)
    assert len(restored.slots) == 2
    h2.advance(config.restore_grace - 31.0 + 1.0)
    assert [s.name for s in restored.slots] == ["A"]


# ---------------------------------------------------------------------- 14: a refused reveal


def test_a_refused_seed_reveal_keeps_the_seats_next_commitment() -> None:
    rules = with_options(preset("official"), ["target=500"])
    config = TableConfig(rules=rules, next_round_after=1.0)
    table = Table(config, counter_drbg(b"t"))
    h = Harness(table, auto_reveal=False)
    a, b = h.join("A"), h.join("B")
    table.start(h.now)
    h.pump()
    # A's round-1 reveal is refused (damaged: its seed does not match), but it carries A's
    # commitment to its next seed, the one A reveals in round 2.
    sent = h.reveal_message(a, 1)
    h.send(a, ClientSeedReveal(round=1, seed=b"\0" * 32, next_commit=sent.next_commit))
    assert isinstance(a.inbox[-1], ErrorReply)
    assert a.inbox[-1].code == "bad_seed"
    h.reveal(b, 1)
    h.advance(config.reveal_wait)
    assert table.phase is TablePhase.PLAYING
    h.auto_reveal = True
    _play_until(
        h, [a, b], lambda: table._round_no == 2 and table.phase is not TablePhase.DEALING, "r2"
    )
    assert not [m for m in a.of_type(ErrorReply) if m.code == "bad_seed"][1:]
    round_two = [r for r in h.records if r["k"] == "round" and r["r"] == 2]
    assert round_two
    assert {s for s, *_ in round_two[0]["seeds"]} == {0, 1}

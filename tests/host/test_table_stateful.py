"""Hypothesis drives the table with any order of joins, drops, resumes, actions (legal,
illegal, out of turn, stale, duplicated) and passing time. Invariants: refused actions
change nothing, every hand stays private, and the journal's records rebuild the same table."""

from __future__ import annotations

import random

from helpers import examples
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule
from table_harness import PRIVATE_EVENTS, FakeClient, Harness

from lanuno.engine.rules import preset, with_options
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.messages import ActionRequest, ErrorReply, Event, State, Welcome

RULES = with_options(preset("official"), ["stacking", "jump_in", "move_timer=20", "target=100"])
ODD_ACTIONS = [
    "draw",
    "pass",
    "uno",
    "challenge",
    "accept",
    "play R7",
    "play W+4 B",
    "catch 1",
    "color G",
    "swap 1",
    "give 0 1",
]


class TableMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        config = TableConfig(rules=RULES, next_round_after=1.0, reveal_wait=1.0)
        self.h = Harness(Table(config, counter_drbg(b"table"), rng=random.Random(0)))
        self.clients: list[FakeClient] = [self.h.join("Ann"), self.h.join("Bob")]
        self.h.table.add_bot("beginner")
        self.h.table.start(self.h.now)
        self.h.pump()
        self.seen = 0

    def live(self) -> list[FakeClient]:
        return [c for c in self.clients if c.closed is None and c.seat is not None]

    @rule(index=st.integers(0, 9), pick=st.integers(0, 200))
    def legal_action(self, index: int, pick: int) -> None:
        live = [c for c in self.live() if c.state is not None and c.state.legal]
        if live:
            client = live[index % len(live)]
            self.h.act(client, client.state.legal[pick % len(client.state.legal)])

    @rule(index=st.integers(0, 9), notation=st.sampled_from(ODD_ACTIONS), stale=st.booleans())
    def odd_action(self, index: int, notation: str, stale: bool) -> None:
        live = [c for c in self.live() if c.state is not None]
        if not live or self.h.table.game is None:
            return
        client = live[index % len(live)]
        before = self.h.table.game.round.fingerprint()
        sid = self.h.table.sid - 1 if stale else None
        self.h.act(client, notation, sid=sid)
        reply = client.inbox[-1]
        if isinstance(reply, ErrorReply):
            assert self.h.table.game.round.fingerprint() == before

    @rule(index=st.integers(0, 9))
    def resend_last(self, index: int) -> None:
        # Only an action the table applied can come back (after a resume); the wire refuses
        # any other repeated seq on a connection.
        live = [
            c
            for c in self.live()
            if c.seq and c.state is not None and c.seq <= self.h.table.slots[c.seat].last_seq
        ]
        if live:
            client = live[index % len(live)]
            sid = self.h.table.sid
            self.h.send(client, ActionRequest(seq=client.seq, sid=client.state.sid, a="draw"))
            assert self.h.table.sid == sid  # a resend never applies anything

    @precondition(lambda self: len(self.live()) >= 1)
    @rule(index=st.integers(0, 9))
    def drop(self, index: int) -> None:
        live = self.live()
        self.h.drop(live[index % len(live)])

    @rule(index=st.integers(0, 9), seen=st.sampled_from(["last", "none", "zero"]))
    def resume(self, index: int, seen: str) -> None:
        gone = [
            c
            for c in self.clients
            if c.closed is not None
            and c.seat is not None
            and c.seat < len(self.h.table.slots)  # a lobby seat is freed after the grace
            and self.h.table.slots[c.seat].peer is None
            and self.h.table.slots[c.seat].kind == "human"
            and self.h.table.resume_lookup(c.seat, c.generation) == c.secret
        ]
        if gone:
            old = gone[index % len(gone)]
            self.clients.remove(old)
            # The events missed come again (M-31): after the last state, or all the round's.
            last = old.state.sid if old.state is not None else 0
            seen_sid = {"last": last, "none": None, "zero": 0}[seen]
            self.clients.append(self.h.resume(old, seen_sid=seen_sid))

    @rule(seconds=st.sampled_from([0.5, 5.0, 25.0]))
    def wait(self, seconds: float) -> None:
        self.h.advance(seconds)
        table = self.h.table
        if table.phase is TablePhase.LOBBY and table.game is not None and len(table.slots) >= 2:
            table.start(self.h.now)  # another game with whoever is seated
            self.h.pump()

    @invariant()
    def hands_stay_private(self) -> None:
        for client in self.clients:
            seat = None  # the seat at the time of each message (the lobby renumbers seats)
            for message in client.inbox:
                if isinstance(message, Welcome):
                    seat = message.seat
                if isinstance(message, Event) and message.type in PRIVATE_EVENTS:
                    assert message.fields["seat"] == seat
        for message in self.h.screen[self.seen :]:
            assert not (isinstance(message, State) and message.hand)
            assert not (isinstance(message, Event) and message.type in PRIVATE_EVENTS)
        self.seen = len(self.h.screen)

    @invariant()
    def cards_are_conserved(self) -> None:
        game = self.h.table.game
        if game is not None:
            assert game.round.card_count() == len(game.round.draw_pile) + len(
                game.round.discard
            ) + sum(len(h) for h in game.round.hands)

    def teardown(self) -> None:
        table = self.h.table
        numbered = [{**r, "n": i} for i, r in enumerate(self.h.records)]
        rebuilt = Table.restore(numbered, table.config, counter_drbg(b"again"), now=self.h.now)
        assert rebuilt.sid == table.sid
        assert rebuilt._sent == table._sent  # a resume after a restart gets the same events
        if table.game is not None:
            assert rebuilt.game is not None
            assert rebuilt.game.round.fingerprint() == table.game.round.fingerprint()
            assert rebuilt.game.scores == table.game.scores
            assert rebuilt.game.next_deadline() == table.game.next_deadline()


TableMachine.TestCase.settings = settings(
    max_examples=examples(30),
    stateful_step_count=40,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
test_table_state_machine = TableMachine.TestCase

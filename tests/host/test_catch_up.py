"""A seat back after a drop gets the events of the round it missed (messages.md, M-31)."""

from __future__ import annotations

import os
import random

from table_harness import PRIVATE_EVENTS, FakeClient, Harness

from lanuno.engine.events import DrawCause, Drew
from lanuno.engine.rules import preset
from lanuno.host.projection import MAX_MISSED_EVENTS, SentEvent, missed_events
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.messages import Event, Message, RoundEnd, State, Welcome


def seated(**config: object) -> tuple[Harness, FakeClient, FakeClient]:
    """Ann and Bob and a bot, the game started, with a short hold for a dropped seat. The
    host's seed is fixed too, so the deal is (a random one ended the round before Ann's
    stand-in drew, now and then)."""
    cfg = TableConfig(rules=preset("official"), drop_grace=2.0, **config)  # type: ignore[arg-type]
    h = Harness(Table(cfg, counter_drbg(b"catch up"), rng=random.Random(11)))
    ann, bob = h.join("Ann"), h.join("Bob")
    h.table.add_bot("beginner")
    h.table.start(h.now)
    h.pump()
    return h, ann, bob


def play_on(h: Harness, bob: FakeClient, rng: random.Random) -> None:
    """Bob plays at his turn; the clock moves on (the bots, Ann's stand-in among them)."""
    state = bob.state
    if state is not None and state.actor == bob.seat and state.legal:
        plays = [a for a in state.legal if a.startswith("play ")]
        h.act(bob, rng.choice(plays or list(state.legal)))
    else:
        h.advance(0.5)


def catch_up(client: FakeClient) -> list[Event]:
    """The events a resumed connection got before its first state."""
    events: list[Event] = []
    for message in client.inbox:
        if isinstance(message, State):
            return events
        if isinstance(message, Event):
            events.append(message)
    raise AssertionError("no state after the resume")


def public(events: list[Message], after: int) -> list[tuple[int, str, dict[str, object]]]:
    return [
        (m.sid, m.type, {k: v for k, v in m.fields.items() if k != "bot"})
        for m in events
        if isinstance(m, Event) and m.sid > after and m.type not in PRIVATE_EVENTS
    ]


def test_a_resumed_seat_gets_the_events_it_missed_its_own_draws_and_no_other_hand() -> None:
    """Seen in the lab: back after a drop, a player's log went on from the last move they
    saw, the card a bot played for them gone without a word. The host now sends the
    round's events after the client's last state, as that seat may see them."""
    h, ann, bob = seated()
    rng = random.Random(4)
    seen = ann.state
    assert seen is not None
    h.drop(ann)
    game = h.table.game
    assert game is not None
    start = len(game.round.events)
    # Play on until a bot, standing in for Ann, has drawn for her (a private event).
    for _ in range(400):
        drawn = [
            e for e in game.round.events[start:] if e.kind == "cards_drawn" and e.seat == ann.seat
        ]
        if drawn and h.table.phase is TablePhase.PLAYING:
            break
        assert h.table.phase is TablePhase.PLAYING, "the round ended before Ann's bot drew"
        play_on(h, bob, rng)
    else:
        raise AssertionError("Ann's bot never drew")
    back = h.resume(ann, seen_sid=seen.sid)
    missed = catch_up(back)
    assert isinstance(back.inbox[0], Welcome)
    # Exactly the round's events after the state Ann saw that she may see, in order.
    expected = [
        _plain(e.to_dict()) for e in game.round.events[start:] if e.audience in (None, ann.seat)
    ]
    unmarked = [{k: v for k, v in m.fields.items() if k != "bot"} for m in missed]
    assert [{"type": m.type, **fields} for m, fields in zip(missed, unmarked, strict=True)] == (
        expected
    )
    assert all(seen.sid < m.sid <= h.table.sid for m in missed)
    assert [m.sid for m in missed] == sorted(m.sid for m in missed)
    # Its own private draw is there; nobody else's private event ever is.
    assert any(m.type == "cards_drawn" for m in missed)
    assert all(m.fields["seat"] == ann.seat for m in missed if m.type in PRIVATE_EVENTS)
    # The public events are those Bob got live, with the same sids.
    assert public(list(missed), seen.sid) == public(bob.inbox, seen.sid)
    # The events of a move a bot made in Ann's seat say so; those of other moves do not.
    for sid in {m.sid for m in missed}:
        move = [m for m in missed if m.sid == sid]
        players = {m.fields["seat"] for m in move if m.type == "played"}
        marked = {m.fields.get("bot") is True for m in move}
        if players == {ann.seat}:
            assert marked == {True}, move
        elif players:
            assert marked == {False}, move
    assert any(m.fields.get("bot") is True for m in missed)


def _plain(data: dict[str, object]) -> dict[str, object]:
    """An engine event's data as the wire carries it (lists as tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}


def test_a_client_that_saw_the_last_state_or_says_nothing_gets_no_events_again() -> None:
    h, ann, bob = seated()
    rng = random.Random(8)
    seen = ann.state
    assert seen is not None
    h.drop(ann)
    back = h.resume(ann, seen_sid=seen.sid)  # nothing happened meanwhile
    assert catch_up(back) == []
    h.drop(back)
    for _ in range(20):
        play_on(h, bob, rng)
    assert h.table.sid > seen.sid
    old = h.resume(back)  # a client from before seen_sid: where the table stands only
    assert catch_up(old) == []
    assert old.state is not None
    assert old.state.sid == h.table.sid


def test_a_round_that_ended_while_away_is_told_by_its_results_not_its_events() -> None:
    """At most the current round: the one Ann missed the end of is in its results."""
    h, ann, bob = seated(next_round_after=1.0)
    rng = random.Random(2)
    seen = ann.state
    assert seen is not None
    h.drop(ann)
    for _ in range(4000):
        if h.table.game is not None and h.table.game.round.round_no == 2:
            break
        play_on(h, bob, rng)
    game = h.table.game
    assert game is not None
    assert game.round.round_no == 2
    back = h.resume(ann, seen_sid=seen.sid)
    missed = catch_up(back)
    assert missed[0].type == "round_started"
    assert missed[0].fields["round_no"] == 2
    assert len(missed) == sum(1 for e in game.round.events if e.audience in (None, ann.seat))
    assert not back.of_type(RoundEnd)  # a round was dealt since: its results are not sent


def test_a_host_restarted_from_its_journal_sends_the_same_missed_events() -> None:
    """The journal replays every move: each event gets back the sid it went out with, and
    which moves a bot made, so a player back after a host restart reads the same story."""
    h, ann, bob = seated()
    rng = random.Random(5)
    seen = ann.state
    assert seen is not None
    h.drop(ann)
    for _ in range(30):
        if h.table.phase is not TablePhase.PLAYING:
            break
        play_on(h, bob, rng)
    live = catch_up(h.resume(ann, seen_sid=seen.sid))
    assert any(m.fields.get("bot") is True for m in live)
    restored = Harness(Table.restore(h.records, h.table.config, os.urandom, now=h.now))
    restored.now = h.now
    assert restored.table.sid == h.table.sid
    assert catch_up(restored.resume(ann, seen_sid=seen.sid)) == live


def test_a_very_long_round_sends_only_the_latest_missed_events() -> None:
    """The host queues at most 1 MiB for a peer before cutting it off (framing.md): a
    returning seat gets the latest MAX_MISSED_EVENTS of a round, never the whole of one
    that went on for thousands of moves."""
    events = [Drew(seat, 1, DrawCause.DRAW) for seat in (0, 1, 2)] * 400
    sent = [SentEvent(sid, None) for sid in range(1, len(events) + 1)]
    missed = missed_events(events, sent, 1, 0)
    assert len(missed) == MAX_MISSED_EVENTS
    assert [event.sid for _owner, event in missed] == list(range(701, 1201))
    assert len(missed_events(events, sent, 1, 1000)) == 200

"""The client core against a real host table, in memory: fairness verdicts, seq/ack,
resume and refusals, with no socket and a fake clock."""

from __future__ import annotations

import dataclasses
import random

import pytest
from client_harness import TIMING, Player_, Room

from lanuno.client import (
    ClientCore,
    ClientTiming,
    Credentials,
    FairnessAlarm,
    HostStillLost,
    Player,
    ResumeTicket,
    SeatLost,
    SessionEnded,
    SessionPhase,
)
from lanuno.engine.rules import preset
from lanuno.host.table import Table, TableConfig
from lanuno.wire.connection import MAGIC_TABLE_REFUSED
from lanuno.wire.crypto import counter_drbg
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import (
    Ack,
    Event,
    GameEnd,
    HostSeedReveal,
    Lobby,
    RoundEnd,
    SeedCommit,
    State,
    Welcome,
)

ONE_ROUND = dataclasses.replace(preset("official"), target=None)
"""Every game is one round: games end quickly, so several fit in a test."""


def make_room(**config: object) -> Room:
    cfg = TableConfig(rules=ONE_ROUND, reveal_wait=1.0, drop_grace=5.0, **config)  # type: ignore[arg-type]
    return Room(Table(cfg, counter_drbg(b"table"), rng=random.Random(7)))


def play_until(room: Room, players: list[Player_], done, *, steps: int = 20_000) -> None:  # type: ignore[no-untyped-def]
    """Seated players play random legal actions whenever it is their turn."""
    rng = random.Random(3)
    for _ in range(steps):
        if done():
            return
        for player in players:
            core = player.core
            state = core.last_state
            if (
                core.phase is SessionPhase.OPEN
                and state is not None
                and state.actor == core.seat
                and state.legal
                and not core.unacked
            ):
                # Cards before draws, as people play: uniform choices that include drawing
                # make a round run for thousands of moves.
                plays = [a for a in state.legal if a.startswith("play ")]
                core.act(rng.choice(plays if plays and rng.random() < 0.9 else state.legal))
        room.settle()
        room.advance(0.05)
    raise AssertionError("the game did not get there")


def games_ended(player: Player_) -> int:
    return len(player.of_type(GameEnd))


def test_a_whole_game_checks_out_for_every_player() -> None:
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.add_bot("beginner", room.now)
    room.table.start(room.now)
    room.settle()
    play_until(room, [ann, bob], lambda: games_ended(ann) and games_ended(bob))
    for player in (ann, bob):
        assert player.core.deals.verdicts == {(0, 1): True}
        assert not player.of_type(FairnessAlarm)
        acked = {a.seq for a in player.of_type(Ack)}  # type: ignore[attr-defined]
        assert acked
        assert not player.core.unacked
        assert max(acked) == player.core.seq


def test_a_game_missed_commitment_is_not_checked_against_the_last_game() -> None:
    """Issue 11 item 11: Ann is away while game 2's round 1 is committed; when its seeds are
    revealed she must not compare them with game 1's commitment for round 1."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    play_until(room, [ann, bob], lambda: games_ended(ann) and games_ended(bob))
    assert ann.core.deals.verdicts == {(0, 1): True}
    room.table.start(room.now)  # game 2, round 1: its commitment is queued for everyone...
    room.drop(ann)  # ...but Ann's connection dies before it arrives
    room.advance(1.5)  # the deal goes on without Ann's seed
    assert ann.core.phase is SessionPhase.OPEN  # back, mid-round, after the deal
    assert ann.of_type(SeedCommit)[-1].round == 1
    assert len(ann.of_type(SeedCommit)) == 1
    assert ann.core.last_state is not None
    assert ann.core.last_state.round == 1
    play_until(room, [ann, bob], lambda: games_ended(ann) >= 2 and games_ended(bob) >= 2)
    assert len(ann.of_type(HostSeedReveal)) == 2
    assert not ann.of_type(FairnessAlarm)
    assert (1, 1) not in ann.core.deals.verdicts  # not judged: nothing to judge it by
    assert bob.core.deals.verdicts == {(0, 1): True, (1, 1): True}


def test_a_commitment_from_a_game_whose_end_was_missed_is_not_used() -> None:
    """The same, when the client also missed the end of game 1: a second, different
    commitment for round 1 starts a new game in the book."""
    room = make_room()
    ann = room.add("Ann")
    room.add("Bob")
    room.table.start(room.now)
    room.settle()
    first = ann.of_type(SeedCommit)[-1]
    book = ann.core.deals
    book.on_commit(SeedCommit(round=first.round, commit=bytes(32)))
    assert book.game == 1  # another commitment for round 1: not game 0 any more
    book.on_commit(SeedCommit(round=first.round, commit=bytes(32)))
    assert book.game == 1  # the same again is a resend


def test_actions_not_acknowledged_are_sent_again_after_a_resume() -> None:
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    room.advance(1.5)
    actor = ann if ann.core.last_state and ann.core.last_state.actor == ann.core.seat else bob
    state = actor.core.last_state
    assert state is not None
    assert state.legal
    ticket = actor.core.ticket
    assert ticket is not None
    # The action is written, but the connection dies before the host reads it.
    conn, actor.conn = actor.conn, None
    actor.core.act(state.legal[0])
    actor.conn = conn
    actor.core.data_to_send()  # lost with the connection
    room.drop(actor)
    assert actor.core.unacked
    room.advance(0.0)
    assert actor.core.phase is SessionPhase.OPEN
    assert actor.core.reconnects == 1
    assert not actor.core.unacked  # resent on the new connection and acknowledged
    assert actor.core.ticket is not None
    assert actor.core.ticket.generation == ticket.generation + 1
    assert actor.core.seat == ticket.seat


def test_a_saved_ticket_gets_the_seat_and_hand_back() -> None:
    """What a restarted client does (issue 10 item 1): RESUME at once with the ticket it
    kept, without the room code."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    room.advance(1.5)
    saved = [e for e in ann.of_type(Credentials) if e.ticket is not None][-1]  # type: ignore[attr-defined]
    assert saved.ticket == ann.core.ticket  # type: ignore[attr-defined]
    hand = ann.core.last_state.hand if ann.core.last_state else None
    room.drop(ann)
    room.players.remove(ann)  # the process is gone
    again = room.add("Ann", ticket=saved.ticket, code="")  # type: ignore[attr-defined]
    assert again.core.phase is SessionPhase.OPEN
    assert again.core.seat == ann.core.seat
    assert again.core.last_state is not None
    assert again.core.last_state.hand == hand
    assert bob.core.phase is SessionPhase.OPEN


def test_a_client_started_again_numbers_its_actions_after_the_applied_ones() -> None:
    """M-30: a restarted client has forgotten its action numbers; the welcome gives the
    seat's last applied one, so its next action is applied, not taken for a resend."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    play_until(room, [ann, bob], lambda: ann.core.seq >= 2 and not ann.core.unacked)
    seat = ann.core.seat
    assert seat is not None
    applied = room.table.slots[seat].last_seq
    assert applied == ann.core.seq
    saved = [e for e in ann.of_type(Credentials) if e.ticket is not None][-1]
    room.drop(ann)
    room.players.remove(ann)  # the process is gone, and its numbers with it
    again = room.add("Ann", ticket=saved.ticket, code="")
    assert again.core.welcome is not None
    assert again.core.welcome.last_seq == applied
    play_until(room, [bob], lambda: again.core.last_state and again.core.last_state.actor == seat)
    state = again.core.last_state
    assert state is not None
    request = again.core.act(state.legal[0])
    room.settle()
    assert request.seq == applied + 1
    assert room.table.slots[seat].last_seq == request.seq  # applied, not acked as a resend
    assert again.core.last_state is not None
    assert again.core.last_state.sid != state.sid


def test_a_ticket_for_another_table_is_dropped_before_the_secret_is_used() -> None:
    room = make_room()
    room.add("Ann")
    stale = ResumeTicket(0, 0, bytes(32), None, room_id=b"x" * 16)
    other = room.add("Ann", ticket=stale, code="")
    assert other.core.finished
    assert Credentials(None) in other.events
    ended = other.of_type(SessionEnded)
    assert ended
    assert "another table" in ended[0].reason


def test_a_busy_host_does_not_cost_the_ticket() -> None:
    """Issue 11 item 6: a host that hangs up before its hello (all its slots taken by
    idle connections) is busy, not refusing: the ticket is kept however long it lasts."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    ticket = ann.core.ticket
    room.drop(ann)
    for _ in range(40):  # far more than MAX_REFUSALS attempts, each closed at once
        assert ann.core.wants_connection(room.now) or ann.core.phase is SessionPhase.WAITING
        if ann.core.wants_connection(room.now):
            ann.core.connection_made(room.now)
            ann.core.data_to_send()
            ann.core.receive_data(b"", room.now)  # closed before the host's hello
        room.now += 0.5
    assert ann.core.ticket == ticket
    assert not [e for e in ann.events if isinstance(e, SeatLost)]
    room.advance(0.0)
    assert ann.core.phase is SessionPhase.OPEN
    assert ann.core.seat == ticket.seat
    assert bob.core.phase is SessionPhase.OPEN


def test_an_explicit_refusal_drops_the_ticket_and_joins_with_the_code() -> None:
    room = make_room()
    ann = room.add("Ann")
    room.add("Bob")
    room.drop(ann)  # in the lobby
    room.table.remove_seat(0, room.now)  # the host forgets the seat
    room.settle()
    for _ in range(30):
        room.advance(0.5)
        if ann.of_type(SeatLost):
            break
    assert ann.of_type(SeatLost)
    assert Credentials(None) in ann.events
    room.advance(0.5)
    assert ann.core.phase is SessionPhase.OPEN
    assert ann.core.seat is not None


def test_forged_bytes_do_not_keep_a_silent_connection_alive() -> None:
    """Issue 11 item 9: only authenticated frames count as hearing from the host."""
    room = make_room()
    ann = room.add("Ann")
    assert ann.core.phase is SessionPhase.OPEN
    conn, ann.conn = ann.conn, None  # the host goes silent (its frames are lost)
    for _ in range(int(TIMING.silence_timeout) + 2):
        room.now += 1.0
        ann.core.receive_data(b"\x00", room.now)  # a byte of a frame that never completes
        timer = ann.core.get_timer()
        if timer is not None and timer <= room.now:
            ann.core.handle_timer(room.now)
        ann.core.data_to_send()
        if ann.core.phase is not SessionPhase.OPEN:
            break
    assert ann.core.phase is SessionPhase.WAITING  # dropped, and trying to get back
    assert conn is not None


def test_a_silent_host_is_told_quiet_before_the_drop() -> None:
    """A pulled link sends no reset: once a ping's answer is overdue the player is told,
    and the first authenticated frame clears it."""
    room = make_room()
    ann = room.add("Ann")
    assert not ann.core.host_quiet(room.now)
    heard = room.now
    conn, ann.conn = ann.conn, None  # the host's frames stop coming
    quiet_at = None
    while ann.core.phase is SessionPhase.OPEN:
        room.now += 0.5
        if quiet_at is None and ann.core.host_quiet(room.now):
            quiet_at = room.now
        timer = ann.core.get_timer()
        if timer is not None and timer <= room.now:
            ann.core.handle_timer(room.now)
        ann.core.data_to_send()
    assert quiet_at is not None
    assert TIMING.quiet_after <= quiet_at - heard < TIMING.quiet_after + 0.5
    assert room.now - heard >= TIMING.silence_timeout  # then, and only then, the drop
    assert not ann.core.host_quiet(room.now)  # reconnecting says more than quiet
    assert conn is not None


def test_a_frame_from_the_host_ends_the_quiet() -> None:
    room = make_room()
    ann = room.add("Ann")
    started = room.now
    room.now += TIMING.quiet_after
    assert ann.core.host_quiet(room.now)
    room.add("Bob")  # the host speaks: a lobby with Bob in it reaches Ann
    room.advance(0.1)
    assert ann.core.phase is SessionPhase.OPEN
    assert not ann.core.host_quiet(room.now)
    assert room.now - started < TIMING.silence_timeout


def _at_play() -> tuple[Room, Player_]:
    """A two-player table whose game has started; and Ann."""
    room = make_room()
    ann = room.add("Ann")
    room.add("Bob")
    room.table.start(room.now)
    room.settle()
    return room, ann


def _after_one_game() -> tuple[Room, Player_]:
    """A two-player table whose first game is over, back in its lobby; and Ann."""
    room, ann = _at_play()
    players = list(room.players)
    play_until(room, players, lambda: all(games_ended(p) for p in players))
    return room, ann


def _credentials(player: Player_) -> list[Credentials]:
    """What the player's session told its seat file, in order."""
    return [e for e in player.events if isinstance(e, Credentials)]


def test_a_paused_table_keeps_the_credentials() -> None:
    """Issue 11 item 4: a goodbye saying the table is paused is not the end."""
    room, ann = _at_play()
    before = _credentials(ann)
    room.say_bye(ann, CloseCode.TABLE_PAUSED, "table paused: the journal cannot be written")
    assert ann.core.phase is SessionPhase.WAITING  # not finished: it will try again
    assert _credentials(ann) == before
    assert ann.core.ticket is not None


def test_a_final_goodbye_forgets_the_credentials() -> None:
    room = make_room()
    ann = room.add("Ann")
    room.say_bye(ann, CloseCode.HOST_SHUTDOWN, "the host closed the table")
    assert ann.core.finished
    assert ann.events[-2:] == [Credentials(None), SessionEnded("the host closed the table", True)]


def test_a_saved_table_ends_the_session_but_keeps_the_credentials() -> None:
    """The host closed a journaled table: stop reconnecting, but a later ``lanuno join``
    resumes the seat if the host resumes the table."""
    room, ann = _at_play()
    kept = _credentials(ann)
    assert kept[-1] == Credentials(ann.core.ticket) != Credentials(None)
    room.say_bye(ann, CloseCode.TABLE_SAVED, "the host closed the table and saved it")
    assert ann.core.finished
    assert not ann.core.socket_wanted
    assert _credentials(ann) == kept
    assert ann.events[-1] == SessionEnded("the host closed the table and saved it", True)


def test_the_game_end_forgets_the_credentials_and_a_new_game_keeps_them_again() -> None:
    room, ann = _after_one_game()
    assert _credentials(ann)[-1] == Credentials(None)
    room.table.start(room.now)
    room.settle()
    room.advance(1.5)
    assert _credentials(ann)[-1] == Credentials(ann.core.ticket)


def test_a_table_saved_between_games_puts_the_credentials_back_on_disk() -> None:
    """After a game the seats stay in the lobby; if the host then saves the table, a later
    ``lanuno join`` must find the seat to resume (it was forgotten at the game's end)."""
    room, ann = _after_one_game()
    assert _credentials(ann)[-1] == Credentials(None)
    room.say_bye(ann, CloseCode.TABLE_SAVED, "the host closed the table and saved it")
    assert ann.core.finished
    assert ann.core.ticket is not None
    assert _credentials(ann)[-1] == Credentials(ann.core.ticket)


def test_the_first_join_with_a_wrong_code_ends_with_the_reason() -> None:
    room = make_room()
    wrong = "000000" if room.table.room_code != "000000" else "111111"
    eve = room.add("Eve", code=wrong)
    assert eve.core.finished
    ended = eve.of_type(SessionEnded)
    assert ended
    assert "room code is wrong" in ended[0].reason
    assert not ended[0].joined  # type: ignore[attr-defined]


def test_a_seat_dropped_in_the_lobby_is_held_for_its_resume() -> None:
    """Issue 10 item 2: a lobby drop followed by a resume gets the same seat (it used to be
    freed at once: RESUME_REJECTED, then a new seat by the room code)."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    seat = ann.core.seat
    room.drop(ann)
    assert len(room.table.slots) == 2  # held, shown as away
    room.advance(0.0)
    assert ann.core.phase is SessionPhase.OPEN
    assert ann.core.reconnects == 1
    assert ann.core.seat == seat
    assert ann.core.ticket is not None
    assert ann.core.ticket.generation == 1
    assert not ann.of_type(SeatLost)
    assert [s.name for s in room.table.slots] == ["Ann", "Bob"]
    assert bob.core.seat == 1


def test_a_lobby_seat_that_moved_down_while_away_is_resumed() -> None:
    """A player before the away seat leaves the lobby: the seat moves down, and nobody can
    tell its client. Its resume (by the same process, or by one started again on the
    saved ticket) still names the old number, and gets the seat where it is now."""
    for restarted in (False, True):
        room = make_room()
        ann, bob, cid = room.add("Ann"), room.add("Bob"), room.add("Cid")
        saved = [e for e in cid.of_type(Credentials) if e.ticket is not None][-1]
        room.drop(cid)
        if restarted:
            room.players.remove(cid)  # the process is gone
        ann.core.close()
        room.settle()
        assert [s.name for s in room.table.slots] == ["Bob", "Cid"]
        if restarted:
            cid = room.add("Cid", ticket=saved.ticket, code="")
        else:
            room.advance(0.0)  # the same process reconnects with its ticket
            assert cid.core.reconnects == 1
        assert cid.core.phase is SessionPhase.OPEN
        assert cid.core.seat == 1
        assert cid.core.ticket is not None
        assert cid.core.ticket.seat == 1  # and saved so, for the next time
        assert [s.name for s in room.table.slots] == ["Bob", "Cid"]  # nobody new
        assert bob.core.seat == 0


def test_a_lobby_seat_nobody_comes_back_for_is_freed_after_the_grace() -> None:
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.drop(ann)
    room.players.remove(ann)  # gone for good
    room.advance(room.table.config.drop_grace - 0.1)
    assert [s.name for s in room.table.slots] == ["Ann", "Bob"]
    room.advance(0.2)
    assert [s.name for s in room.table.slots] == ["Bob"]
    assert bob.core.seat == 0  # moved down, told by a new welcome


def test_a_goodbye_in_the_lobby_frees_the_seat_at_once() -> None:
    """A player who leaves (``bye``) is not one whose connection dropped."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    ann.core.close()
    room.settle()
    assert ann.core.finished
    assert [s.name for s in room.table.slots] == ["Bob"]
    assert bob.core.seat == 0


def _lone_core(code: str = "123456") -> ClientCore:
    """A core with no host behind it: the test plays the network."""
    core = ClientCore(Player(code, "Eve"), counter_drbg(b"eve"), timing=TIMING)
    core.connection_made(0.0)
    assert core.data_to_send()  # the client hello
    return core


def test_an_action_before_the_welcome_is_refused_at_once() -> None:
    """Nothing is sent: there is no seat yet, nor (for a client started again on a saved
    seat) the number its actions carry on from."""
    core = _lone_core()
    with pytest.raises(ValueError, match="not at the table yet"):
        core.act("draw")
    assert core.seq == 0
    assert not core.unacked


def test_a_hall_without_the_table_asked_for_ends_with_its_close_code() -> None:
    core = _lone_core()
    core.receive_data(MAGIC_TABLE_REFUSED, 0.1)
    assert core.finished
    assert core.end_code is CloseCode.NO_SUCH_TABLE
    assert core.end_reason == "the host has no table 1"


def test_a_stream_cut_in_the_handshake_says_so() -> None:
    core = _lone_core()
    core.receive_data(b"", 0.1)
    assert core.finished
    assert core.end_code is CloseCode.TRUNCATED
    assert "stream ended" in core.end_reason


def test_a_host_that_never_answers_the_hello_times_out() -> None:
    core = _lone_core()
    deadline = core.get_timer()
    assert deadline is not None
    core.handle_timer(deadline)
    assert core.finished
    assert core.end_reason == "the host did not answer in time"


def test_a_room_code_that_is_not_six_digits_fails_before_any_byte() -> None:
    core = ClientCore(Player("12ab", "Eve"), counter_drbg(b"eve"), timing=TIMING)
    core.connection_made(0.0)
    assert core.finished
    assert not core.data_to_send()
    assert core.end_code is None


def test_a_silent_host_is_a_drop_and_the_seat_is_asked_back() -> None:
    room = make_room()
    ann = room.add("Ann")
    assert ann.core.phase is SessionPhase.OPEN
    silent_after = ann.core.get_timer()
    assert silent_after is not None
    for _ in range(100):  # pings go out; the host's answers are lost on the way
        due = ann.core.get_timer()
        assert due is not None
        ann.core.handle_timer(due)
        ann.core.data_to_send()
        if ann.core.phase is not SessionPhase.OPEN:
            break
    assert ann.core.phase is SessionPhase.WAITING
    assert ann.core.end_reason == "no word from the host"


def _host_gone_for(core: ClientCore, start: float, seconds: float) -> float:
    """Every attempt finds nobody (the host laptop asleep) for ``seconds``; the time then."""
    now = start
    while now < start + seconds and not core.finished:
        due = core.get_timer()
        assert due is not None
        now = max(now, due)
        if core.wants_connection(now):
            core.connection_failed(now, "nobody answers at that address")
    return now


def test_a_host_away_for_minutes_is_waited_for_and_said_once_and_the_seat_comes_back() -> None:
    """A host asleep through a break, or restarted from its journal after a while: the
    client keeps trying as long as the person stays, says once that it has been minutes,
    and takes the seat back whenever the host is up again."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    room.advance(1.5)
    hand = ann.core.last_state.hand if ann.core.last_state else None
    ann.core.timing = ClientTiming(backoff=(0.1, 0.5))  # the shipped bounds: none
    seat = ann.core.seat
    room.drop(ann)
    gone_at = room.now
    room.now = _host_gone_for(ann.core, gone_at, 20 * 60)
    ann.events.extend(iter(ann.core.next_event, None))
    assert ann.core.phase is SessionPhase.WAITING
    said = ann.of_type(HostStillLost)
    assert said == [HostStillLost(300.0)]
    assert not ann.of_type(SessionEnded)
    assert not [c for c in ann.of_type(Credentials) if c.ticket is None]  # the seat is kept
    room.advance(1.0)  # the host answers again
    assert ann.core.phase is SessionPhase.OPEN
    assert ann.core.seat == seat
    assert ann.core.reconnects == 1
    assert ann.core.last_state is not None
    assert ann.core.last_state.hand == hand
    assert bob.core.phase is SessionPhase.OPEN


def test_a_bounded_client_gives_up_when_the_host_does_not_come_back() -> None:
    room = make_room()
    ann = room.add("Ann")  # TIMING: reconnect_for=30, as scripts and tests bound it
    room.drop(ann)
    _host_gone_for(ann.core, room.now, 60)
    assert ann.core.finished
    assert ann.core.end_reason == "the host did not come back"


def test_back_after_a_drop_the_core_says_what_it_saw_and_gets_the_moves_it_missed() -> None:
    """M-31: the resume's hello names the last state this client got; the host sends the
    round's events after it (another player's move while this one was away) before the
    state, and the core passes them on in order."""
    room = make_room()
    ann, bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    room.advance(1.5)
    state = ann.core.last_state
    assert state is not None
    mover, away = (ann, bob) if state.actor == ann.core.seat else (bob, ann)
    seen = away.core.last_state
    assert seen is not None
    room.drop(away)
    moving = mover.core.last_state
    assert moving is not None
    mover.core.act(next((a for a in moving.legal if a.startswith("play ")), moving.legal[0]))
    room.settle()
    told = [e for e in mover.events if isinstance(e, Event) and e.sid > seen.sid]
    assert told
    before = len(away.events)
    room.advance(0.0)  # away reconnects
    assert away.peer is not None
    hello = room.table.peers[away.peer].hello
    assert hello is not None
    assert hello.seen_sid == seen.sid
    back = away.events[before:]
    welcome = next(i for i, e in enumerate(back) if isinstance(e, Welcome))
    first_state = next(i for i, e in enumerate(back) if isinstance(e, State))
    missed = [e for e in back[welcome:first_state] if isinstance(e, Event)]
    assert [(e.sid, e.type) for e in missed] == [(e.sid, e.type) for e in told]


def test_a_client_started_again_on_its_seat_gets_the_round_from_its_start() -> None:
    """A restarted client saw nothing of the table: its hello says 0, and its log can
    tell the round from its deal (its own hand included), not only where it stands."""
    room = make_room()
    ann, _bob = room.add("Ann"), room.add("Bob")
    room.table.start(room.now)
    room.settle()
    room.advance(1.5)
    ticket = ann.core.ticket
    room.drop(ann)
    room.players.remove(ann)  # the process is gone
    again = room.add("Ann", ticket=ticket, code="")
    assert again.peer is not None
    hello = room.table.peers[again.peer].hello
    assert hello is not None
    assert hello.seen_sid == 0
    first_state = next(i for i, e in enumerate(again.events) if isinstance(e, State))
    kinds = [e.type for e in again.events[:first_state] if isinstance(e, Event)]
    assert kinds[0] == "round_started"
    assert "hand_dealt" in kinds


def test_results_sent_again_after_a_resume_in_the_lobby_are_passed_on_once() -> None:
    """Seen in the lab: a line client back after a host restart (or a drop) just after a
    game printed the round's and the game's end again, after the lobby; the full screen went
    back to the winner its player had left for the lobby. The host sends them again (the
    seat may have missed them); the session passes on those it has, once."""
    room, ann = _after_one_game()
    ends = len(ann.of_type(GameEnd)), len(ann.of_type(RoundEnd)), len(ann.of_type(HostSeedReveal))
    room.drop(ann)
    room.advance(0.5)
    assert ann.core.phase is SessionPhase.OPEN
    assert ann.core.reconnects == 1
    again = len(ann.of_type(GameEnd)), len(ann.of_type(RoundEnd)), len(ann.of_type(HostSeedReveal))
    assert again == ends
    assert isinstance(ann.events[-1], Lobby)  # where the table is, last
    # A session that has not seen them (a client started again) gets them, as before.
    fresh = room.add("Ann", ticket=ann.core.ticket)
    assert fresh.of_type(GameEnd)

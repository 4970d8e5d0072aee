"""The pure table controller with in-memory clients and a fake clock."""

from __future__ import annotations

import os
import random

import pytest
from table_harness import PRIVATE_EVENTS, FakeClient, Harness, random_moves

from lanuno.engine.rules import preset, with_options
from lanuno.host.pace import FixedPace
from lanuno.host.table import Table, TableConfig, TablePhase
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import (
    Ack,
    ActionRequest,
    ErrorReply,
    Event,
    GameEnd,
    HostSeedReveal,
    Lobby,
    Ready,
    State,
    Welcome,
)

RULES = {
    "official": preset("official"),
    "kids1": preset("kids1"),
    "kids2": preset("kids2"),
    "house": with_options(
        preset("official"), ["stacking", "seven_o", "jump_in", "move_timer=20", "target=200"]
    ),
}


def make_table(rules_name: str = "official", **config: object) -> Table:
    cfg = TableConfig(rules=RULES[rules_name], **config)  # type: ignore[arg-type]
    return Table(cfg, os.urandom, rng=random.Random(7))


@pytest.mark.parametrize("rules_name", sorted(RULES))
def test_full_game_with_people_and_bots_keeps_every_hand_private(rules_name: str) -> None:
    h = Harness(make_table(rules_name))
    ann, bob = h.join("Ann", kid=True, age=6), h.join("Bob", age=40)
    h.table.add_bot("beginner")
    h.table.add_bot("intermediate")
    h.pump()
    h.table.start(h.now)
    h.pump()
    random_moves(h, [ann, bob], random.Random(rules_name))
    for client in (ann, bob):
        ends = client.of_type(GameEnd)
        assert len(ends) == 1
        for message in client.inbox:
            if isinstance(message, Event) and message.type in PRIVATE_EVENTS:
                assert message.fields["seat"] == client.seat
        reveals = client.of_type(HostSeedReveal)
        assert reveals
        assert all(any(s.seat == client.seat for s in r.seeds) for r in reveals)
    for message in h.screen:
        if isinstance(message, Event):
            assert message.type not in PRIVATE_EVENTS
        if isinstance(message, State):
            assert message.hand == ()
            assert message.legal == ()
    assert h.table.phase is TablePhase.LOBBY


def start_two(rules_name: str = "official", **config: object) -> tuple[Harness, list]:
    h = Harness(make_table(rules_name, **config))
    players = [h.join("Ann"), h.join("Bob")]
    h.table.start(h.now)
    h.pump()
    return h, players


def actor_and_other(h: Harness, players: list) -> tuple:
    game = h.table.game
    assert game is not None
    actor = next(p for p in players if p.seat == game.round.actor)
    other = next(p for p in players if p is not actor)
    return actor, other


def test_state_carries_legal_actions_without_seat_prefix_and_only_own_hand() -> None:
    h, players = start_two()
    game = h.table.game
    assert game is not None
    for p in players:
        state = p.state
        assert state is not None
        assert list(state.hand) == [c.code for c in game.seat_view(p.seat).hand]
        for notation in state.legal:
            assert not notation[0].isdigit()


def test_duplicate_seq_is_acked_again_and_not_applied() -> None:
    h, players = start_two()
    actor, _ = actor_and_other(h, players)
    state = actor.state
    seq = h.act(actor, state.legal[-1])
    assert actor.of_type(Ack)[-1] == Ack(seq=seq)
    sid = h.table.sid
    h.send(actor, ActionRequest(seq=seq, sid=state.sid, a=state.legal[-1]))
    assert actor.inbox[-1] == Ack(seq=seq)
    assert h.table.sid == sid


def test_stale_sid_and_out_of_turn_and_illegal_are_refused_without_change() -> None:
    h, players = start_two()
    actor, other = actor_and_other(h, players)
    fingerprint = h.table.game.round.fingerprint()
    h.act(actor, "draw", sid=actor.state.sid - 1)
    assert actor.inbox[-1].code == "stale_state"
    h.act(other, "draw")
    error = other.inbox[-1]
    assert isinstance(error, ErrorReply)
    assert error.code == "not_your_turn"
    assert error.rule == "O10"
    held = set(actor.state.hand)
    missing = next(f"play {c}" for c in ("R7", "G5", "B1", "Y2", "R0") if c not in held)
    h.act(actor, missing)
    error = actor.inbox[-1]
    assert isinstance(error, ErrorReply)
    assert error.code == "illegal"
    assert error.rule
    assert error.seq == actor.seq
    h.act(actor, "catch 9")
    assert actor.inbox[-1].code == "illegal"
    assert h.table.game.round.fingerprint() == fingerprint


def test_move_timer_plays_for_the_actor() -> None:
    h, players = start_two("house")
    actor, _ = actor_and_other(h, players)
    h.advance(19.0)
    assert not any(isinstance(m, Event) and m.type == "timed_out" for m in actor.inbox)
    h.advance(1.5)
    assert any(isinstance(m, Event) and m.type == "timed_out" for m in actor.inbox)


def test_the_autopilots_moves_reach_their_seat_marked_bot() -> None:
    """T3: a player whose time ran out twice read "You played blue 9." of the move the
    autopilot made for them; the seat's own copy of such a move is marked ``bot`` (M-31),
    its timeouts' draws are not (the timer drew, as T2 says), nor anyone else's copy."""
    h, players = start_two("house")

    def events(client: FakeClient) -> list[Event]:
        return [m for m in client.inbox if isinstance(m, Event)]

    def autopilot_on(client: FakeClient) -> int | None:
        return next(
            (
                i
                for i, e in enumerate(events(client))
                if e.type == "autopilot" and e.fields == {"seat": client.seat, "on": True}
            ),
            None,
        )

    def marked(client: FakeClient) -> list[Event]:
        return [e for e in events(client) if "bot" in e.fields]

    for _ in range(400):
        h.advance(1.0)
        if all(marked(p) for p in players) or h.table.game is None:
            break
    for player in players:
        on = autopilot_on(player)
        assert on is not None
        assert not any("bot" in e.fields for e in events(player)[:on])
        assert any(e.fields.get("seat") == player.seat for e in marked(player))
        assert all(e.fields["bot"] is True for e in marked(player))
    # Each seat's marked copies are of moves made for it: never of the other seat's.
    first, second = players
    assert {e.sid for e in marked(first)}.isdisjoint(e.sid for e in marked(second))


def test_dropped_seat_is_held_played_by_a_bot_then_taken_back_with_the_same_hand() -> None:
    h, players = start_two()
    actor, _other = actor_and_other(h, players)
    h.drop(actor)
    assert h.table.slots[actor.seat].kind == "human"
    h.advance(29.0)
    assert not h.table.bot_controlled(actor.seat)
    h.advance(2.0)
    assert h.table.bot_controlled(actor.seat)
    back = h.resume(actor)
    assert back.seat == actor.seat
    assert isinstance(back.inbox[0], Welcome)
    assert back.inbox[0].seat == actor.seat
    state = back.state
    game = h.table.game
    assert state is not None
    assert list(state.hand) == [c.code for c in game.seat_view(actor.seat).hand]
    assert not h.table.slots[actor.seat].taken_over
    # The old secret generation and the new one both open the seat; older ones do not.
    assert h.table.resume_lookup(actor.seat, back.generation) == back.secret
    assert h.table.resume_lookup(actor.seat, actor.generation) == actor.secret


def test_spectator_watches_then_sits_down_when_the_game_ends() -> None:
    h, players = start_two(next_round_after=1.0)
    late = h.join("Cat")
    # Welcomed at once as a spectator (issue 10.3: never a seatless wait), seat nil.
    assert late.seat is None
    assert [w.seat for w in late.of_type(Welcome)] == [None]
    assert isinstance(late.state, State)
    assert late.state.hand == ()
    random_moves(h, players, random.Random(3))
    assert late.seat == 2
    assert [w.seat for w in late.of_type(Welcome)] == [None, 2]


def test_kicking_waits_for_the_end_of_the_round() -> None:
    h, players = start_two()
    with pytest.raises(ValueError, match="between rounds"):
        h.table.remove_seat(0)
    h.table.game.round.winner = None  # (no shortcut: play the round out)
    rng = random.Random(5)
    while h.table.phase is TablePhase.PLAYING:
        for p in players:
            if p.state.actor == p.seat and p.state.legal:
                h.act(p, rng.choice(p.state.legal))
        h.advance(0.1)
    if h.table.phase is TablePhase.BETWEEN_ROUNDS:
        h.table.remove_seat(1)
        h.pump()
        kicked = next(p for p in players if p.seat == 1)
        assert kicked.closed is not None
        assert kicked.closed.code is CloseCode.KICKED
        assert h.table.slots[1].kind == "bot"


def test_lobby_controls_and_auto_start() -> None:
    h = Harness(make_table(auto_start=True))
    ann = h.join("Ann")
    h.table.add_bot("expert")
    h.table.set_preset("kids2")
    h.table.set_option("stacking", "on")
    h.pump()
    lobby = ann.of_type(Lobby)[-1]
    assert lobby.preset == "kids2"
    assert lobby.options["stacking"] is True
    assert [s.kind for s in lobby.seats] == ["human", "bot"]
    with pytest.raises(ValueError):
        h.table.set_option("no_such_option", "on")
    h.send(ann, Ready(ready=True))
    assert h.table.phase is TablePhase.PLAYING
    with pytest.raises(ValueError):
        h.table.add_bot("beginner")


def test_full_table_refuses_a_joiner_and_a_bot_gives_way_to_a_person() -> None:
    h = Harness(make_table())
    for _ in range(10):
        h.table.add_bot("beginner")
    with pytest.raises(ValueError, match="full"):
        h.table.add_bot("beginner")
    ann = h.join("Ann")
    assert ann.seat == 9
    assert h.table.slots[9].kind == "human"


def test_seating_a_player_sends_the_lobby_once_to_everyone() -> None:
    h = Harness(make_table())
    ann = h.join("Ann")
    seen_by_ann, seen_by_screen = (
        len(ann.of_type(Lobby)),
        len([m for m in h.screen if isinstance(m, Lobby)]),
    )
    bob = h.join("Bob")
    assert [type(m) for m in bob.inbox] == [Welcome, Lobby]
    assert len(ann.of_type(Lobby)) == seen_by_ann + 1
    assert len([m for m in h.screen if isinstance(m, Lobby)]) == seen_by_screen + 1


def lobbies(h: Harness, client: FakeClient) -> tuple[int, int]:
    """How many lobby messages ``client`` and the shared screen have had so far."""
    return len(client.of_type(Lobby)), len([m for m in h.screen if isinstance(m, Lobby)])


def plus_one(before: tuple[int, int]) -> tuple[int, int]:
    return before[0] + 1, before[1] + 1


def test_removing_a_lobby_seat_sends_the_lobby_once() -> None:
    h = Harness(make_table())
    ann, _bob = h.join("Ann"), h.join("Bob")
    h.table.add_bot("beginner")
    h.pump()
    before = lobbies(h, ann)
    h.table.remove_seat(2)
    h.pump()
    assert lobbies(h, ann) == plus_one(before)
    before = lobbies(h, ann)
    h.table.remove_seat(1)  # a player kicked from the lobby
    h.pump()
    assert lobbies(h, ann) == plus_one(before)
    assert [s.kind for s in ann.of_type(Lobby)[-1].seats] == ["human", "empty"]


def test_a_goodbye_in_the_lobby_sends_the_lobby_once() -> None:
    h = Harness(make_table())
    ann, bob = h.join("Ann"), h.join("Bob")
    before = lobbies(h, ann)
    h.table.on_leaving(bob.peer)
    h.drop(bob)
    assert len(h.table.slots) == 1  # the seat is freed, not held
    assert lobbies(h, ann) == plus_one(before)


def test_unseating_the_unready_sends_the_lobby_once() -> None:
    h = Harness(make_table(auto_start=True, ready_wait=5.0))
    ann, bob, cyd = h.join("Ann"), h.join("Bob"), h.join("Cyd")
    h.send(ann, Ready(ready=True))
    before = lobbies(h, ann)
    h.advance(6.0)
    assert [s.name for s in h.table.slots] == ["Ann"]
    assert lobbies(h, ann) == plus_one(before)
    for watcher in (bob, cyd):  # back to watching: told so, then the lobby
        assert [type(m) for m in watcher.inbox[-2:]] == [Welcome, Lobby]
        assert watcher.seat is None


def test_the_game_end_seats_the_spectators_and_sends_the_lobby_once() -> None:
    h, players = start_two(next_round_after=1.0)
    late = [h.join("Cyd"), h.join("Dan")]
    random_moves(h, players, random.Random(3))
    assert [p.seat for p in late] == [2, 3]
    for client in (*players, *late):
        inbox = client.inbox
        last_end = max(i for i, m in enumerate(inbox) if isinstance(m, GameEnd))
        assert len([m for m in inbox[last_end:] if isinstance(m, Lobby)]) == 1, client.name
    screen_end = max(i for i, m in enumerate(h.screen) if isinstance(m, GameEnd))
    assert len([m for m in h.screen[screen_end:] if isinstance(m, Lobby)]) == 1


def test_bots_wait_their_pace_before_acting() -> None:
    table = Table(
        TableConfig(rules=RULES["official"], pace=FixedPace(1.5)),
        os.urandom,
        rng=random.Random(1),
    )
    h = Harness(table)
    h.table.add_bot("beginner")
    h.table.add_bot("beginner")
    h.table.start(h.now)
    h.pump()
    sid = h.table.sid
    assert h.table.next_deadline() == pytest.approx(1.5)
    h.advance(1.4)
    assert h.table.sid == sid
    h.advance(0.2)
    assert h.table.sid == sid + 1


def test_restore_from_records_rebuilds_the_same_game() -> None:
    h, players = start_two("house", next_round_after=2.0)
    rng = random.Random(11)
    for _ in range(60):
        for p in players:
            if p.state and p.state.actor == p.seat and p.state.legal:
                h.act(p, rng.choice(p.state.legal))
        h.advance(0.3)
    original = h.table
    numbered = [{**r, "n": i} for i, r in enumerate(h.records)]
    restored = Table.restore(numbered, original.config, os.urandom, now=h.now)
    assert restored.room_id == original.room_id
    assert restored.room_code == original.room_code
    assert restored.phase == original.phase
    assert restored.game.round.fingerprint() == original.game.round.fingerprint()
    assert restored.game.scores == original.game.scores
    assert restored.sid == original.sid
    for a, b in zip(restored.slots, original.slots, strict=True):
        assert (a.kind, a.name, a.secrets, a.last_seq) == (b.kind, b.name, b.secrets, b.last_seq)


def test_a_seat_away_when_the_game_ends_is_held_from_the_end_for_its_player() -> None:
    """Seen in the lab: Ann's Wi-Fi dropped mid-game, a bot finished the game for her, and
    the lobby freed her seat at once (her grace had run out during the game): back a few
    seconds after the end, she was seated again at the end of the table, with no word of
    the game she had played. Her seat now waits the drop grace from the game's end, and
    she reads the results when she is back."""
    config = TableConfig(rules=with_options(preset("official"), ["target=none"]), drop_grace=30.0)
    h = Harness(Table(config, os.urandom, rng=random.Random(7)))
    ann, bob = h.join("Ann"), h.join("Bob")
    h.table.add_bot("beginner")
    h.table.start(h.now)
    h.pump()
    h.drop(ann)
    rng = random.Random(2)
    for _ in range(5000):
        if h.table.phase is TablePhase.LOBBY:
            break
        state = bob.state
        if state is not None and state.actor == bob.seat and state.legal:
            plays = [a for a in state.legal if a.startswith("play ")]
            h.act(bob, rng.choice(plays or list(state.legal)))
        else:
            h.advance(1.0)  # Ann's grace runs out: a bot plays her seat to the end
    assert h.table.phase is TablePhase.LOBBY
    assert ann.seat is not None
    h.advance(config.drop_grace - 2.0)  # the game ended less than 1 s ago
    assert [s.name for s in h.table.slots] == ["Ann", "Bob", "Bot 1 (beginner)"]
    back = h.resume(ann)
    assert back.seat == ann.seat
    assert back.of_type(GameEnd)  # who won the game she played
    assert isinstance(back.inbox[-1], Lobby)  # then where the table is now
    # Nobody back in time: the seat is freed, as any lobby seat held for a drop.
    h.drop(back)
    h.advance(config.drop_grace)
    assert [s.name for s in h.table.slots] == ["Bob", "Bot 1 (beginner)"]


def test_a_player_away_from_the_lobby_who_joins_again_by_name_gets_their_seat_back() -> None:
    """Seen in the lab: Léa closed her terminal after a game; her client had forgotten the
    finished game's seat, so lanuno join used the room code, and she sat at the end as
    'Léa (2)' while 'Léa', offline, waited for a resume that could not come."""
    table = Table(TableConfig(rules=RULES["official"], drop_grace=30.0), os.urandom)
    h = Harness(table)
    lea, max_ = h.join("Léa"), h.join("Max")
    h.table.add_bot("beginner")
    h.drop(lea)
    h.advance(5.0)
    again = h.join("Léa")
    assert again.seat == 0
    assert [s.name for s in h.table.slots] == ["Léa", "Max", "Bot 1 (beginner)"]
    assert h.table.slots[0].peer == again.peer
    assert h.table.resume_lookup(0, lea.generation) != lea.secret  # the old ticket: no more
    h.advance(60.0)
    assert [s.name for s in h.table.slots] == ["Léa", "Max", "Bot 1 (beginner)"]
    # A player who is here keeps their seat: a second Max sits at the end.
    other = h.join("Max")
    assert other.seat == 3
    assert h.table.slots[3].name == "Max (2)"
    assert max_.seat == 1


def test_a_numbered_name_away_from_the_lobby_is_given_back_to_its_name() -> None:
    """'Léa (2)' (a second Léa once) away: a JOIN named Léa takes it, as 'Léa' if free."""
    table = Table(TableConfig(rules=RULES["official"], drop_grace=30.0), os.urandom)
    h = Harness(table)
    first, second = h.join("Léa"), h.join("Léa")
    assert [s.name for s in h.table.slots] == ["Léa", "Léa (2)"]
    h.drop(second)
    first.closed = None
    h.table.on_leaving(first.peer)  # the first Léa says goodbye: her seat is freed
    h.drop(first)
    assert [s.name for s in h.table.slots] == ["Léa (2)"]
    again = h.join("Léa")
    assert again.seat == 0
    assert [s.name for s in h.table.slots] == ["Léa"]

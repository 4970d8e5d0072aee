"""Who sits where: the lobby, joining, late joiners, the ready wait and resuming.

The part of the table controller (:class:`lanuno.host.table.Table`) that seats people and
bots. It owns ``slots`` (one per seat) and ``peers`` (one per connection that finished its
handshake):

* a JOIN's ``hello`` takes the seat held for an away player of its name, else the next
  free seat in the lobby (or a bot's place when the table is full); once a game runs it
  is welcomed without a seat (a spectator) and seated when the game ends (``_end_game``);
* a RESUME takes back the very seat whose secret the handshake was checked against
  (``resume_lookup`` remembers that slot, ``_holds`` checks it is still there);
* a drop holds the seat ``drop_grace`` seconds, ``restore_grace`` for a seat away since a
  ``--resume`` (``_lobby_hold_end``; in a game a bot steps in instead); a goodbye in the
  lobby frees it at once;
* auto-start: once a human is ready the others have ``ready_wait`` seconds, then those not
  ready go back to watching.

Every change of the seats is a journal record (``LobbyRecord``, ``RemoveRecord``,
``SecretRecord``) committed through the table; the table's game, deal and bots are reached
through the few hooks declared at the end of the class.
"""

from __future__ import annotations

import abc
import contextlib
import re
from collections.abc import Iterator

from lanuno.bots.base import Bot
from lanuno.bots.levels import BotLevel
from lanuno.engine.game import Game
from lanuno.engine.rules import Rules
from lanuno.host.model import MAX_SEATS, Peer, Slot, TableConfig, TablePhase
from lanuno.host.projection import rules_options
from lanuno.host.records import (
    JournalRecord,
    LobbyRecord,
    RemoveRecord,
    SecretRecord,
)
from lanuno.wire.connection import HandshakeComplete
from lanuno.wire.crypto import Mode
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import (
    MAX_NAME,
    SUPPORTED_VERSIONS,
    ErrorReply,
    Hello,
    Lobby,
    LobbySeat,
    Message,
    Ready,
    State,
    Welcome,
)


class Seating(abc.ABC):
    """The seats of a table (a part of ``Table``, which provides the hooks below)."""

    config: TableConfig
    rules: Rules
    phase: TablePhase
    slots: list[Slot]
    peers: dict[int, Peer]
    game: Game | None
    last_now: float
    _ready_deadline: float | None
    """Auto-start: when the seats still not ready go back to watching."""
    _resume_found: dict[int, Slot]
    """Slots found by ``resume_lookup`` for handshakes still under way, by peer id."""
    _replaying: bool
    _moved_from: dict[int, list[Slot]]
    """Away seats the lobby moved down (a seat before them was freed), by a seat number
    their clients' tickets may still name: nobody could tell them their new seat."""
    _lobby_batches = 0
    """While above 0, lobby sends wait for the batch's end (``_one_lobby``)."""
    _lobby_owed = False
    """A lobby send was asked for during the batch."""

    @property
    def free_seats(self) -> int:
        if self.phase is not TablePhase.LOBBY:
            return 0
        return MAX_SEATS - len(self.slots)  # bots are not free seats (discovery.md)

    def resume_lookup(self, seat: int, generation: int, peer: int | None = None) -> bytes | None:
        """The password of a RESUME handshake (HostConnection's ``resume_lookup``). The
        adapter names the ``peer``: the slot found is remembered for that connection, and
        ``on_handshake`` gives that slot back, wherever it sits by then."""
        here = [self.slots[seat]] if 0 <= seat < len(self.slots) else []
        moved = [s for s in self._moved_from.get(seat, []) if s.peer is None]
        # One secret is tried: that of the seat this ticket is most likely for. A RESUME is
        # for an away seat (a connected one resumes only when its link died unseen): the one
        # at this number if its player knows the number, else those that moved from it.
        knows = bool(here) and here[0].peer is None and not self._moved(here[0])
        for slot in here + moved if knows else moved + here:
            secret = slot.secrets.get(generation) if slot.kind == "human" else None
            if secret is not None:
                if peer is not None:
                    self._resume_found[peer] = slot
                return secret
        return None

    def _held_seat(self, peer: Peer) -> int | None:
        """Where the human slot this RESUME was checked against sits now (the lobby may
        have moved it down), or None when it is gone or a bot's."""
        slot = peer.resume_slot
        if slot is None or slot.kind != "human":
            return None
        return next((i for i, s in enumerate(self.slots) if s is slot), None)

    def _moved(self, slot: Slot) -> bool:
        """Did the lobby move ``slot`` while its player was away (and not told)?"""
        return any(s is slot for moved in self._moved_from.values() for s in moved)

    def _forget_moves(self, slot: Slot) -> None:
        for seat, slots in list(self._moved_from.items()):
            slots[:] = [s for s in slots if s is not slot]
            if not slots:
                del self._moved_from[seat]

    def on_handshake(self, peer_id: int, done: HandshakeComplete, now: float) -> None:
        self.last_now = now
        peer = Peer(peer_id, done.mode, done.generation, done.resume_secret, done.check_number)
        peer.resume_slot = self._resume_found.pop(peer_id, None)
        self.peers[peer_id] = peer
        if done.mode is Mode.RESUME:
            seat = self._held_seat(peer)
            if seat is None:
                # The seat changed hands during the handshake: no takeover.
                self._close(peer_id, CloseCode.RESUME_REJECTED, "that seat is not yours now")
                return
            # Stored (and journaled) before the adapter sends the host's confirmation.
            self._commit(
                SecretRecord(seat=seat, generation=done.generation, secret=done.resume_secret)
            )

    def on_leaving(self, peer_id: int) -> None:
        """The connection ends by a goodbye (the player's, or the host's for a broken rule),
        not by a drop: in the lobby its seat is freed at once instead of held."""
        peer = self.peers.get(peer_id)
        if peer is not None:
            peer.left = True

    def on_closed(self, peer_id: int, now: float) -> None:
        self.last_now = now
        self._resume_found.pop(peer_id, None)  # a handshake that did not finish
        peer = self.peers.pop(peer_id, None)
        if peer is None or peer.seat is None or peer.seat >= len(self.slots):
            return
        slot = self.slots[peer.seat]
        if slot.peer != peer_id:
            return
        slot.peer = None
        slot.check = None
        self._reveal_lost(peer.seat, now)
        if self.phase is TablePhase.LOBBY and peer.left:
            # Leaving the lobby (a goodbye) frees the seat; the player can join again.
            # Applying the removal sends the lobby.
            self._remove_slot(peer.seat)
        else:
            # A drop: the seat is held for a resume. In a game a bot steps in after the
            # grace; in the lobby the seat is freed after it (``_lobby_hold_end``).
            slot.dropped_at = now
            self._send_lobby()
        self._replan_bots(now)
        self._maybe_auto_start(now)  # the one not ready may have been the one who left

    def add_bot(self, level: BotLevel | str, _now: float = 0.0) -> int:
        level = BotLevel.parse(level)  # an unknown name raises UnknownBotLevel, seats nothing
        self._require_lobby("Bots can be added in the lobby.")
        if len(self.slots) >= MAX_SEATS:
            raise ValueError("The table is full (10 seats).")
        self._bot(level)  # refuse an unknown level before seating it
        number = sum(1 for s in self.slots if s.kind == "bot") + 1
        self.slots.append(Slot("bot", f"Bot {number} ({level})", level=level, ready=True))
        self._commit_lobby()
        return len(self.slots) - 1

    def remove_seat(self, seat: int, _now: float = 0.0) -> None:
        if not 0 <= seat < len(self.slots):
            raise ValueError(f"There is no seat {seat} at this table.")
        slot = self.slots[seat]
        if self.phase is TablePhase.LOBBY:
            if slot.peer is not None:
                self._close(slot.peer, CloseCode.KICKED, "removed by the host")
            self._remove_slot(seat)  # applying the removal sends the lobby
            return
        if self.phase is not TablePhase.BETWEEN_ROUNDS:
            raise ValueError("Players can be removed between rounds.")
        if slot.kind == "bot":
            raise ValueError("A bot keeps its seat until the game ends.")
        if slot.peer is not None:
            self._close(slot.peer, CloseCode.KICKED, "removed by the host")
        slot.kind, slot.name = "bot", (slot.name + " (bot)")[:32]
        slot.level, slot.secrets, slot.peer, slot.check = self.config.bot_level, {}, None, None
        self._commit_lobby()

    def _commit_lobby(self) -> None:
        self._commit(LobbyRecord(seats=tuple(s.to_entry() for s in self.slots), rules=self.rules))

    def _apply_lobby(self, record: LobbyRecord) -> None:
        self.rules = record.rules
        seats = record.seats
        while len(self.slots) > len(seats):
            self.slots.pop()
        for i, entry in enumerate(seats):
            if i == len(self.slots):
                self.slots.append(Slot(entry.kind, entry.name))
            slot = self.slots[i]
            slot.kind, slot.name, slot.kid = entry.kind, entry.name, entry.kid
            slot.age, slot.level, slot.ready = entry.age, entry.level, entry.ready
            if slot.kind == "bot":
                slot.secrets, slot.ready = {}, True
        self._send_lobby()

    def _require_lobby(self, why: str) -> None:
        if self.phase is not TablePhase.LOBBY:
            raise ValueError(why)

    def _remove_slot(self, seat: int) -> None:
        """Free a lobby seat. The removal itself is the record, so a replay moves every
        later seat down with its resume secrets exactly as the live table did."""
        self._commit(RemoveRecord(seat=seat))

    def _apply_remove(self, seat: int) -> None:
        self._forget_moves(self.slots[seat])
        del self.slots[seat]
        # Seats after it move down one place: tell those players their new seat. An away
        # player cannot be told: their RESUME will name the seat they had.
        for moved in range(seat, len(self.slots)):
            slot = self.slots[moved]
            peer = slot.peer
            if peer is not None and peer in self.peers:
                self.peers[peer].seat = moved
                self._welcome(self.peers[peer], moved)
            elif slot.kind == "human" and not self._replaying:
                # Replayed, nobody knows who was away: a resume then names the seat as is.
                self._moved_from.setdefault(moved + 1, []).append(slot)
        self._send_lobby()

    def _on_hello(self, peer: Peer, hello: Hello, now: float) -> None:
        if peer.hello is not None:
            return
        common = set(hello.versions) & set(SUPPORTED_VERSIONS)
        if not common:
            self._out(
                peer.id,
                ErrorReply(code="version", rule=None, text="No common message version.", seq=None),
            )
            self._close(peer.id, CloseCode.VERSION_MISMATCH, "no common message version")
            return
        peer.hello = hello
        if peer.mode is Mode.RESUME:
            self._reclaim(peer, hello, now)
            return
        if self.phase is not TablePhase.LOBBY:
            self._spectate(peer, now)  # seated when this game ends
            return
        seat = self._held_for(hello.name)
        if seat is not None:
            self._forget_moves(self.slots[seat])  # its old tickets open it no more
        else:
            seat = self._free_seat()
        if seat is None:
            self._close(peer.id, CloseCode.TABLE_FULL, "the table is full")
            return
        self._seat(peer, seat, hello)

    def _held_for(self, name: str) -> int | None:
        """A lobby seat held for an away player of this name: theirs again when they join
        with the room code (their client was closed after a game, its ticket forgotten, or
        they came back on another laptop). They sat at the end as 'Lea (2)' while 'Lea'
        waited, away, for a resume that could not come. A lobby seat holds no cards."""
        away = [
            (i, s.name) for i, s in enumerate(self.slots) if s.kind == "human" and s.peer is None
        ]
        for seat, held in away:  # the name itself first, then 'Lea (2)' (two Leas once)
            if held == name:
                return seat
        for seat, held in away:
            numbered = re.fullmatch(r"(.*) \(\d+\)", held)
            if numbered and numbered[1] == name[: MAX_NAME - len(held) + len(numbered[1])]:
                return seat
        return None

    def _free_seat(self) -> int | None:
        """The next seat, or the last bot's when the table is full (a JOIN names no seat:
        version 1 has no seat wishes)."""
        if len(self.slots) < MAX_SEATS:
            return len(self.slots)
        bots = [i for i, s in enumerate(self.slots) if s.kind == "bot"]
        return bots[-1] if bots else None  # a person takes a bot's place

    def _unique_name(self, name: str, seat: int) -> str:
        """``Lea``, then ``Lea (2)``, ``Lea (3)``: two players never share a name."""
        taken = {s.name for i, s in enumerate(self.slots) if i != seat}
        number, unique = 1, name
        while unique in taken:
            number += 1
            suffix = f" ({number})"
            unique = name[: MAX_NAME - len(suffix)] + suffix
        return unique

    def _seat(self, peer: Peer, seat: int, hello: Hello) -> None:
        slot = Slot(
            "human",
            self._unique_name(hello.name, seat),
            hello.kid,
            hello.age,
            peer=peer.id,
            check=peer.check,
            seed_commit=hello.seed_commit,
        )
        if seat == len(self.slots):
            self.slots.append(slot)
        else:
            self.slots[seat] = slot
        peer.seat = seat
        self._welcome(peer, seat)  # first: applying the lobby record sends the lobby (M-20)
        self._commit_lobby()
        self._commit(SecretRecord(seat=seat, generation=peer.generation, secret=peer.secret))
        self._maybe_auto_start(self.last_now)

    def _spectate(self, peer: Peer, now: float) -> None:
        """A welcome without a seat at once (then the table), or a clear refusal."""
        watching = sum(1 for p in self.peers.values() if p.seat is None and p.hello is not None)
        if watching > self.config.max_spectators:  # this peer is counted too
            limit = self.config.max_spectators
            self._close(peer.id, CloseCode.TABLE_FULL, f"too many spectators ({limit})")
            return
        self._welcome(peer, None)
        self._out(peer.id, self._lobby_message())
        if self.game is not None:
            self._out(peer.id, self._state_for(None, now))

    def _reclaim(self, peer: Peer, hello: Hello, now: float) -> None:
        seat = self._held_seat(peer)
        if seat is None:
            self._close(peer.id, CloseCode.RESUME_REJECTED, "that seat is not yours now")
            return
        slot = self.slots[seat]
        self._forget_moves(slot)  # the welcome tells its client the seat it has now
        old = slot.peer
        if old is not None and old != peer.id:
            self.peers.pop(old, None)
            self._close(old, CloseCode.NORMAL, "this seat resumed on another connection")
        slot.peer, slot.check, slot.seed_commit = peer.id, peer.check, hello.seed_commit
        slot.dropped_at, slot.taken_over, slot.away_since_restore = None, False, False
        peer.seat = seat
        self._welcome(peer, seat)
        self._send_lobby()
        self._catch_up(peer, seat, hello, now)
        # A restored lobby's ready wait (never journaled) starts again with the first
        # player back: a player who never says ready does not hold the table for ever.
        self._maybe_auto_start(now)

    def _welcome(self, peer: Peer, seat: int | None) -> None:
        self._out(
            peer.id,
            Welcome(
                version=SUPPORTED_VERSIONS[-1],
                seat=seat,
                table=self.config.name,
                preset=self.rules.preset,
                options=rules_options(self.rules),
                last_seq=0 if seat is None else self.slots[seat].last_seq,
            ),
        )

    def _on_ready(self, peer: Peer, message: Ready, now: float) -> None:
        if peer.seat is None or self.phase is not TablePhase.LOBBY:
            return
        slot = self.slots[peer.seat]
        if slot.ready != message.ready:
            # Journaled with the seats (a host restarted in the lobby keeps it); applying
            # the record sends the lobby.
            slot.ready = message.ready
            self._commit_lobby()
        else:
            self._send_lobby()  # the client marked itself already: the host's word on it
        self._maybe_auto_start(now)

    def _maybe_auto_start(self, now: float) -> None:
        humans = [s for s in self.slots if s.kind == "human"]
        waiting = self.config.auto_start and self.phase is TablePhase.LOBBY
        if waiting and len(self.slots) >= 2 and humans and all(s.ready for s in humans):
            self._ready_deadline = None
            self.start(now)
        elif waiting and any(s.ready for s in humans):
            if self._ready_deadline is None:
                self._ready_deadline = now + self.config.ready_wait
        else:
            self._ready_deadline = None

    def _unseat_the_unready(self, now: float) -> None:
        """Auto-start waited ``ready_wait``: seats not ready go back to watching."""
        self._ready_deadline = None
        with self._one_lobby():  # every removal sends it: once for them all, at the end
            for seat in reversed(range(len(self.slots))):
                slot = self.slots[seat]
                if slot.kind != "human" or slot.ready:
                    continue
                peer = self.peers.get(slot.peer) if slot.peer is not None else None
                if peer is not None:
                    peer.seat = None
                self._remove_slot(seat)
                if peer is not None:
                    self._welcome(peer, None)
            self._send_lobby()  # even if nobody was unseated: the wait is over
        self._maybe_auto_start(now)

    def _lobby_message(self) -> Lobby:
        seats = [
            LobbySeat(
                name=s.name,
                kind=s.kind,
                kid=s.kid,
                connected=s.kind == "bot" or s.peer is not None,
                ready=s.ready,
                check=s.check if s.peer is not None else None,
                bot_playing=self._bot_plays_for(i),
            )
            for i, s in enumerate(self.slots)
        ]
        while len(seats) < 2:
            seats.append(
                LobbySeat(
                    name=None, kind="empty", kid=False, connected=False, ready=False, check=None
                )
            )
        can_start = self.phase is TablePhase.LOBBY and len(self.slots) >= 2
        return Lobby(
            seats=tuple(seats),
            preset=self.rules.preset,
            options=rules_options(self.rules),
            can_start=can_start,
            auto_start=self.config.auto_start,
        )

    @contextlib.contextmanager
    def _one_lobby(self) -> Iterator[None]:
        """Several seat changes, one lobby message: each change sends the lobby as it is
        applied (a replayed record must too), so inside this block the sends wait, and the
        lobby goes out once at its end, after the welcomes of seats that moved."""
        self._lobby_batches += 1
        try:
            yield
        finally:
            self._lobby_batches -= 1
        if self._lobby_batches == 0 and self._lobby_owed:
            self._send_lobby()

    def _send_lobby(self) -> None:
        if self._lobby_batches > 0:
            self._lobby_owed = True
            return
        self._lobby_owed = False
        lobby = self._lobby_message()
        for recipient in self._recipients():
            self._out(recipient, lobby)

    def _lobby_hold_end(self, slot: Slot) -> float | None:
        """When a seat whose player dropped in the lobby is given up (None: not held)."""
        if slot.kind != "human" or slot.peer is not None or slot.dropped_at is None:
            return None
        config = self.config
        return slot.dropped_at + (
            config.restore_grace if slot.away_since_restore else config.drop_grace
        )

    def _step_lobby(self, now: float) -> bool:
        """The lobby's due work (``Table.tick``): the ready wait's end, then a seat held for
        a dropped player that nobody came back for. False when nothing is due."""
        if self._ready_deadline is not None and now >= self._ready_deadline:
            self._unseat_the_unready(now)
            return True
        for seat, slot in enumerate(self.slots):
            end = self._lobby_hold_end(slot)
            if end is not None and now >= end:
                self._remove_slot(seat)  # nobody came back for it
                self._maybe_auto_start(now)
                return True
        return False

    def _lobby_deadlines(self) -> list[float | None]:
        return [self._ready_deadline, *(self._lobby_hold_end(slot) for slot in self.slots)]

    # ------------------------------------------------------------------ the table's hooks

    @abc.abstractmethod
    def start(self, now: float) -> None: ...

    @abc.abstractmethod
    def _commit(self, record: JournalRecord) -> None: ...

    @abc.abstractmethod
    def _out(self, recipient: int, message: Message, owner: int | None = None) -> None: ...

    @abc.abstractmethod
    def _close(self, peer: int, code: CloseCode, reason: str) -> None: ...

    @abc.abstractmethod
    def _recipients(self) -> list[int]: ...

    @abc.abstractmethod
    def _bot(self, level: str) -> Bot: ...

    @abc.abstractmethod
    def _replan_bots(self, now: float) -> None: ...

    @abc.abstractmethod
    def _state_for(self, seat: int | None, now: float, public: State | None = None) -> State: ...

    @abc.abstractmethod
    def _reveal_lost(self, seat: int, now: float) -> None: ...

    @abc.abstractmethod
    def _catch_up(self, peer: Peer, seat: int, hello: Hello, now: float) -> None: ...

    @abc.abstractmethod
    def _bot_plays_for(self, seat: int) -> bool: ...

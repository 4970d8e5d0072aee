"""The table controller: its state machine, rounds, actions, bots, timers and outboxes.

Theory of operation
-------------------
The controller is one class, ``Table``, written in three files by job:

    host/table.py     phases, records, restore, rounds, actions, bots, timers, ``_out``
    host/seats.py     ``Seating``: lobby, joining, late joiners, ready wait, resuming
    host/dealing.py   ``Dealing``: each round's seed commit-reveal
    host/model.py     the data they share: ``TableConfig``, ``TablePhase``, ``Slot``, ``Peer``

A ``Table`` is sans-I/O like the wire ``Connection``: no socket, clock or thread. The adapter
(lanuno.net.server) calls it with what happened and the current time ``now``:

    on_handshake(peer, handshake, now)   a connection finished its handshake
    on_message(peer, message, now)       a validated message from that connection
    on_closed(peer, now)                 the connection ended (clean or dropped)
    tick(now)                            time passed: call at ``next_deadline()``
    add_bot / remove_seat / set_preset / set_option / start    the host's keys

and after every call collects ``take_records()`` (append them to the journal and fsync),
then ``take_outbox()`` (send them). Records go to disk before anything is sent, so an
action is on disk before its ``ack`` leaves.

State changes are records. Every change of the table's state is a typed journal record
(:mod:`lanuno.host.records`) applied by ``_apply_record``; live calls build records and
``_commit`` them (apply, then journal), ``Table.restore`` applies a journal's records
again to rebuild a table after a crash. A game is reproducible from its rules, seats,
round seeds and the action list, so replay goes through the engine and never stores hands.

Who sees what: every message leaves through ``_out``, the one sending point, and is built
by :mod:`lanuno.host.projection` (public state, a seat's state, events with their
audience); ``_out`` asserts nothing private goes to anyone but its owner. The shared
screen is the peer ``SCREEN``.

Bots: :mod:`lanuno.bots.driver` decides which bot acts next (the same loop as
``lanuno sim``); the table schedules each decision at the bot's pace (``_bot_plan``).

Phases (``TRANSITIONS``; ``_enter`` asserts every change against it)::

    LOBBY --start--> DEALING --seeds in--> PLAYING --round won--> BETWEEN_ROUNDS
                        ^                     |                        |
                        |                     +--game won--> LOBBY     |
                        +-----------------next round-------------------+

DEALING is the round's seed commit-reveal (protocol/fairness.md): the host has committed
to its seed and waits for the players' reveals, at most ``reveal_wait`` seconds.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from typing import Any, assert_never

from lanuno.bots import make_bot
from lanuno.bots.base import Bot, BotThinking
from lanuno.bots.driver import bot_step, out_of_turn_order
from lanuno.bots.levels import BotLevel
from lanuno.engine.actions import Action, Timeout, parse_action
from lanuno.engine.cards import build_deck
from lanuno.engine.errors import IllegalAction
from lanuno.engine.events import Event as EngineEvent
from lanuno.engine.game import Game, SeatInfo
from lanuno.engine.rules import preset, with_options
from lanuno.host.dealing import Dealing
from lanuno.host.model import (
    MAX_SEATS,
    SCREEN,
    TRANSITIONS,
    Close,
    Outgoing,
    Peer,
    Send,
    Slot,
    TableConfig,
    TablePhase,
    clip,
)
from lanuno.host.pace import Moment
from lanuno.host.projection import (
    SentEvent,
    check_recipient,
    event_message,
    missed_events,
    public_state,
    seat_state,
)
from lanuno.host.records import (
    ActRecord,
    CodeRecord,
    DealRecord,
    JournalRecord,
    LobbyRecord,
    OpenRecord,
    PlayerInfo,
    PortRecord,
    RecordMap,
    RemoveRecord,
    RoundRecord,
    SecretRecord,
    StartRecord,
    decode,
    encode,
)
from lanuno.host.seats import Seating
from lanuno.wire.crypto import RandomBytes, RoomCodeGuard
from lanuno.wire.errors import CloseCode
from lanuno.wire.fairness import (
    FairShuffler,
    SeatSeedBook,
    combine_seeds,
    deal_purpose,
)
from lanuno.wire.messages import (
    Ack,
    ActionRequest,
    ClientSeedReveal,
    ErrorReply,
    GameEnd,
    Hello,
    HostSeedReveal,
    Message,
    Ping,
    Pong,
    Ready,
    RoundEnd,
    SeatSeed,
    SeedCommit,
    State,
)

__all__ = [
    "SCREEN",
    "TRANSITIONS",
    "Close",
    "Outgoing",
    "Send",
    "Table",
    "TableConfig",
    "TablePhase",
    "default_bot_factory",
]

MAX_STEPS_PER_TICK = 200
"""A tick does at most this much work, so the adapter's loop keeps serving connections."""

BOT_THINKING_RETRY = 0.02
"""Seconds before a bot thinking in a worker is asked again for its answer."""
BOT_FAILED_RETRY = 1.0
"""Seconds before the bots are asked again after one failed and nothing stood in."""


def default_bot_factory(level: str) -> Bot:
    """A bot of that level (an unknown level is refused, never played as a beginner)."""
    return make_bot(level)


class Table(Dealing, Seating):
    def __init__(
        self,
        config: TableConfig,
        random_bytes: RandomBytes,
        *,
        room_id: bytes | None = None,
        room_code: str | None = None,
        bot_factory: Callable[[str], Bot] = default_bot_factory,
        rng: random.Random | None = None,
    ) -> None:
        self.config = config
        self._random_bytes = random_bytes
        self.room_id = room_id if room_id is not None else random_bytes(16)
        self.guard = RoomCodeGuard(random_bytes, code=room_code)
        self.rules = config.rules
        self.phase = TablePhase.LOBBY
        self.slots: list[Slot] = []
        self.peers: dict[int, Peer] = {}
        self.game: Game | None = None
        self.sid = 1
        self.last_now = 0.0
        self.served: PortRecord | None = None
        """Where the adapter last served the table (port, interface, mDNS), as journaled
        (see ``served_on``)."""
        self._bot_factory = bot_factory
        self.log: Callable[[str], None] = lambda _line: None
        """Where the table reports what it worked around (the adapter prints it)."""
        self._bots: dict[str, Bot] = {}
        self._rng = rng or random.Random(int.from_bytes(random_bytes(8), "big"))
        self._outbox: list[Outgoing] = []
        self._records: list[JournalRecord] = []
        self._replaying = False
        self._infos: tuple[SeatInfo, ...] = ()
        self._first_player = 0
        # Fairness of the round being dealt or played.
        self._round_no = 0
        self._host_seed = b""
        self._book = SeatSeedBook()
        self._reveal_deadline = None
        self._awaiting_reveal = set()
        self._committed = set()
        self._round_seeds: tuple[SeatSeed, ...] = ()
        self._results: tuple[Message, ...] = ()
        """The last round's results (and the game's): sent again to a seat that resumes
        before the next deal, which may have missed them (a drop, or a host restart)."""
        self._deck: tuple[str, ...] = ()
        self._sent: list[SentEvent] = []
        """How each event of the current round went out (its sid, the seat a bot moved
        for), one per ``game.round.events``: a seat that resumes gets those it missed."""
        # Timers other than the engine's move timer.
        self._next_round_at = None
        self._bot_plan: tuple[float, int] | None = None
        self._known_code = self.guard.code
        self._ready_deadline = None
        self._resume_found = {}
        self._moved_from = {}
        self._waiting_for_players = False
        """A restored game waits for its players: nothing is played for a human seat (no
        takeover, no move timer) until the first of them is back (``_players_back``)."""
        self._wait_ends_at: float | None = None
        """When a restored game stops waiting though nobody came back (``restore_grace``):
        the away seats then get the usual grace, and bots play them (a guest watching, or
        the bots' seats, would wait for ever)."""
        self._commit(
            OpenRecord(
                room_id=self.room_id, code=self.guard.code, name=config.name, rules=self.rules
            )
        )
        # The shared screens (the host's own, remote ones) show the table's rules at once,
        # not the first choice of each option until someone sits down.
        self._send_lobby()

    # ------------------------------------------------------------------ adapter surface

    def take_outbox(self) -> list[Outgoing]:
        out, self._outbox = self._outbox, []
        return out

    def take_records(self) -> list[RecordMap]:
        """Records to append to the journal (and fsync) before sending the outbox, in their
        stored form (``records.encode``), as the wire connection hands out bytes."""
        out, self._records = self._records, []
        return [encode(record) for record in out]

    @property
    def room_code(self) -> str:
        return self.guard.code

    @property
    def served_port(self) -> int | None:
        """The TCP port the table was last served on."""
        return self.served.port if self.served is not None else None

    def served_on(
        self,
        port: int,
        interface: str | None = None,
        announced: bool = True,
        screen_code: str | None = None,
    ) -> None:
        """Journal where the table is served, when it changes: a ``--resume`` listens on
        that port again, where its players' clients are trying to reconnect, and only on
        ``interface`` (None: every network), announced only if ``announced``, its screens
        pairing with ``screen_code`` still."""
        record = PortRecord(
            port=port, interface=interface, announced=announced, screen_code=screen_code
        )
        if record != self.served:
            self._commit(record)

    def note_room_code(self) -> None:
        """Journal the room code after the lockout rotated it (call after handshakes)."""
        if self.guard.code != self._known_code:
            self._commit(CodeRecord(code=self.guard.code))

    def on_message(self, peer_id: int, message: Message, now: float) -> None:
        self.last_now = now
        peer = self.peers.get(peer_id)
        if peer is None:
            return
        if isinstance(message, Hello):
            self._on_hello(peer, message, now)
        elif isinstance(message, Ping):
            self._out(peer_id, Pong(n=message.n))
        elif peer.hello is None:
            return  # the wire layer already refuses anything before hello
        elif isinstance(message, ActionRequest):
            self._on_action(peer, message, now)
        elif isinstance(message, Ready):
            self._on_ready(peer, message, now)
        elif isinstance(message, ClientSeedReveal):
            self._on_seed_reveal(peer, message, now)

    def rate_limited(self, peer_id: int, message: Message) -> None:
        """The adapter's token bucket ran dry: the message is dropped; tell the sender (an
        action's ``seq`` lets the client know that action was not applied)."""
        seq = message.seq if isinstance(message, ActionRequest) else None
        self._out(
            peer_id,
            ErrorReply(
                code="rate_limited", rule=None, text="Too many messages: slow down.", seq=seq
            ),
        )

    def next_deadline(self) -> float | None:
        times = [t for t in self._deadlines() if t is not None]
        return min(times) if times else None

    def tick(self, now: float) -> None:
        self.last_now = now
        for _ in range(MAX_STEPS_PER_TICK):
            if not self._step(now):
                return

    # ------------------------------------------------------------------ host controls

    def set_preset(self, name: str) -> None:
        self._require_lobby("The rules can change in the lobby only.")
        self.rules = preset(name)
        self._commit_lobby()

    def set_option(self, key: str, value: str) -> None:
        self._require_lobby("The rules can change in the lobby only.")
        self.rules = with_options(self.rules, [f"{key}={value}"])
        self._commit_lobby()

    def start(self, now: float) -> None:
        """Start the game (lobby) or deal the next round (between rounds)."""
        self.last_now = now
        if self.phase is TablePhase.BETWEEN_ROUNDS:
            self._begin_round(self._round_no + 1, now)
            return
        self._require_lobby("The game is already running.")
        if len(self.slots) < 2:
            raise ValueError("A game needs at least 2 seats (add a bot?).")
        infos = tuple(PlayerInfo(kid=s.kid, age=s.age) for s in self.slots)
        self._commit(StartRecord(infos=infos, first=0, now=now))
        self._begin_round(1, now)

    # ------------------------------------------------------------------ records

    def _commit(self, record: JournalRecord) -> None:
        """Apply, then journal: a record that cannot be applied is never written (it would
        stop every later ``--resume``). Records the applying adds come after this one."""
        at = len(self._records)
        self._apply_record(record)
        if not self._replaying:
            self._records.insert(at, record)

    def _apply_record(self, record: JournalRecord) -> None:
        match record:
            case OpenRecord():
                self.room_id = record.room_id
                self.guard = RoomCodeGuard(self._random_bytes, code=record.code)
                self._known_code = self.guard.code
                self.rules = record.rules
            case CodeRecord():
                self.guard.code = self._known_code = record.code
                if self._replaying:  # live, the guard's rotate() has counted this epoch already
                    self.guard.epoch += 1
            case PortRecord():
                self.served = record
            case LobbyRecord():
                self._apply_lobby(record)
            case RemoveRecord():
                self._apply_remove(record.seat)
            case SecretRecord():
                slot = self.slots[record.seat]
                gen = record.generation
                slot.secrets = {g: s for g, s in slot.secrets.items() if g == (gen - 1) % 256}
                slot.secrets[gen] = record.secret
            case StartRecord():
                self._infos = tuple(SeatInfo(kid=i.kid, age=i.age) for i in record.infos)
                self._first_player = record.first
                self.last_now = max(self.last_now, record.now)
                self.game = None
                self._results = ()
                # Round 1's commit-reveal is next (its DealRecord; journals written before
                # deals were journaled have none, and a restore that stops here opens one).
                self._enter(TablePhase.DEALING)
                self._round_no, self._host_seed = 1, b""
                for slot in self.slots:
                    slot.taken_over = False
            case DealRecord():
                self._apply_deal(record)
            case RoundRecord():
                self._apply_round(record)
            case ActRecord():
                self._apply_action_record(record)
            case _:
                assert_never(record)

    def _enter(self, phase: TablePhase) -> None:
        assert phase in TRANSITIONS[self.phase], f"{self.phase} -> {phase}"
        self.phase = phase

    # ------------------------------------------------------------------ restore

    @classmethod
    def restore(
        cls,
        records: Iterable[Mapping[str, Any] | JournalRecord],
        config: TableConfig,
        random_bytes: RandomBytes,
        now: float,
        *,
        bot_factory: Callable[[str], Bot] = default_bot_factory,
    ) -> Table:
        """Rebuild a table from its journal: the same seats, secrets and game, every
        accepted action applied once through the engine. Every player counts as dropped
        until they resume. A game waits for its players: nothing is played for their seats
        until one is back (or ``restore_grace`` has passed), and the others' grace counts
        from then (bots' seats play on up to the first human's turn). A deal under way
        resumes its commit-reveal (the same host seed and commitments, so clients can verify
        the round) for ``reveal_wait`` seconds. A lobby, before a game or after one, keeps
        its seats for ``restore_grace`` seconds (after a saved table's resume, its players
        start ``lanuno join`` again by hand); a finished game sends its results again to
        whoever resumes."""
        typed = (decode(r) if isinstance(r, Mapping) else r for r in records)
        header = next(typed, None)
        if not isinstance(header, OpenRecord):
            raise ValueError("the journal does not start with the table's opening record")
        table = cls(
            # Its name, as its players knew it, and the rules it was opened with (a table
            # nobody sat at has no other record of them: not the resuming command line's).
            replace(config, name=header.name, rules=header.rules),
            random_bytes,
            room_id=header.room_id,
            room_code=header.code,
            bot_factory=bot_factory,
        )
        table._records.clear()
        table._replaying = True
        for record in typed:
            table._apply_record(record)
        table._replaying = False
        table._outbox.clear()
        # The adapter's clock carries on from the journal's: never go back before it (a
        # drop at 0 would end every seat's grace at once, a deal would time out at once).
        now = table.last_now = max(table.last_now, now)
        for slot in table.slots:
            if slot.kind == "human":
                slot.peer, slot.dropped_at, slot.away_since_restore = None, now, True
        # Everyone had to start ``lanuno join`` again: a bot playing their seats (or their
        # move timer running out) while they do would play the round to its end.
        humans = any(slot.kind == "human" for slot in table.slots)
        table._waiting_for_players = humans and table.phase is not TablePhase.LOBBY
        if table._waiting_for_players:
            table._wait_ends_at = now + config.restore_grace
        # In the lobby, before the first game or after one (whose last action may not have
        # reached anyone), the players keep their seats and secrets, held like any seat
        # dropped in the lobby (``_lobby_hold_end``) until they come back or the grace ends.
        if table.phase is TablePhase.DEALING:
            if not table._host_seed:
                # A journal from before deals were journaled: commit to a fresh seed now (the
                # players coming back commit to theirs in their hello).
                deal = DealRecord(
                    round_no=table._round_no, host_seed=random_bytes(32), commits=(), now=now
                )
                table._replaying = True
                table._apply_record(deal)
                table._replaying = False
                table._records.append(deal)
            table._open_reveals(table._human_seats(), now)
        elif table.phase is TablePhase.BETWEEN_ROUNDS and config.next_round_after is not None:
            table._next_round_at = now + config.next_round_after
        table._replan_bots(now)
        table._outbox.clear()
        # Nobody is connected yet, but the shared screens (the host's own, remote ones, a
        # hall's rows) show the restored table at once, not an empty lobby.
        table._send_lobby()
        table._deliver_states(now)
        for message in table._results:  # a round or game that ended: its results, not a lobby
            table._out(SCREEN, message)
        return table

    # ------------------------------------------------------------------ lobby

    # ------------------------------------------------------------------ rounds

    def _catch_up(self, peer: Peer, seat: int, hello: Hello, now: float) -> None:
        """A resumed seat gets what it may have missed: the current round's events after
        the state its client saw last (``hello.seen_sid``; its own private ones included,
        never another seat's), the table, the last results, and the deal's commitment when
        the deal waits for its reveal. A round that ended before is told by its results."""
        first_back = self._waiting_for_players
        if first_back:
            self._players_back(now)
        game = self.game
        if game is not None and self.phase is not TablePhase.LOBBY:
            if hello.seen_sid is not None:
                missed = missed_events(game.round.events, self._sent, seat, hello.seen_sid)
                for owner, event in missed:
                    self._out(peer.id, event, owner=owner)
            self._out(peer.id, self._state_for(seat, now), owner=seat)
        for message in self._results:
            self._out(peer.id, message)
        if self._results and self.phase is TablePhase.LOBBY:
            # Back in the lobby after the game: where the table is now, after the results
            # (a line client says the lobby when the game's end has been told).
            self._out(peer.id, self._lobby_message())
        if self.phase is TablePhase.DEALING and seat not in self._book.seeds(self._round_no):
            if seat not in self._committed and hello.seed_commit is not None:
                self._book.commit(seat, hello.seed_commit)
                self._committed.add(seat)
            self._awaiting_reveal.add(seat)
            self._out(peer.id, SeedCommit(round=self._round_no, commit=self._host_commit()))
        if first_back and game is not None and self.phase is not TablePhase.LOBBY:
            # The screens showed no move timer while the table waited: they see it now.
            public = self._state_for(None, now)
            for recipient in self._recipients():
                if recipient != peer.id and self._seat_of(recipient) is None:
                    self._out(recipient, public)
        self._replan_bots(now)

    def _players_back(self, now: float) -> None:
        """The first player is back at a restored table: the seats still away get the
        usual grace from now, and the decision under way its whole move timer."""
        self._waiting_for_players = False
        self._wait_ends_at = None
        for slot in self.slots:
            if slot.kind == "human" and slot.peer is None:
                slot.dropped_at = now
        if self.game is not None and self.phase is TablePhase.PLAYING:
            self.game.round.restart_move_timer(now)
        self._send_lobby()  # a seat on T3's autopilot is played again: "bot playing"

    def _waits_for(self, seat: int) -> bool:
        """Is nothing to be played for this seat until its players are back?"""
        return self._waiting_for_players and self.slots[seat].kind == "human"

    def _apply_round(self, record: RoundRecord) -> None:
        round_no, now = record.round_no, record.now
        self.last_now = max(self.last_now, now)
        host_seed = record.host_seed
        seeds = {e.seat: e.seed for e in record.seeds}
        self._round_no, self._host_seed = round_no, host_seed
        self._round_seeds = tuple(
            SeatSeed(seat=e.seat, seed=e.seed, commit=e.commit) for e in record.seeds
        )
        shuffler = FairShuffler(combine_seeds(self.room_id, round_no, host_seed, seeds))
        # T3's autopilot lasts a round: the lobby's "bot playing" of such a seat ends here.
        autopilot_ends = self.game is not None and any(self.game.round.autopilot)
        if round_no == 1 or self.game is None:
            self.game = Game(
                self.rules, self._infos, shuffler=shuffler, first_player=self._first_player, now=now
            )
        else:
            self.game.shuffler = shuffler
            self.game.next_round(now)
        deck = build_deck(self.rules.deck)
        shuffler.shuffle(deck, deal_purpose(round_no))
        self._deck = tuple(card.code for card in deck)
        self._results = ()
        self._enter(TablePhase.PLAYING)
        self._next_round_at = None
        self._reveal_deadline = None
        self._awaiting_reveal = set()
        self.sid += 1
        self._sent = [SentEvent(self.sid, None)] * len(self.game.round.events)
        if autopilot_ends:
            self._send_lobby()
        self._deliver_events(self.game.round.events, now)
        self._deliver_states(now)
        self._replan_bots(now)

    def _after_round(self, now: float) -> None:
        game = self.game
        assert game is not None
        assert game.round.winner is not None
        ended = [e for e in game.round.events if e.kind == "round_ended"]
        points = ended[-1].to_dict()["points"] if ended else 0
        scores = tuple(game.scores)
        public: list[Message] = [
            RoundEnd(round=self._round_no, winner=game.round.winner, points=points, scores=scores),
            HostSeedReveal(
                round=self._round_no,
                host_seed=self._host_seed,
                seeds=self._round_seeds,
                deck=self._deck,
            ),
        ]
        if game.over:
            public.append(GameEnd(winner=game.winner, scores=scores))
        self._results = tuple(public)
        for recipient in self._recipients():
            for message in public:
                self._out(recipient, message)
        self._bot_plan = None
        if game.over:
            self._end_game()
        else:
            self._enter(TablePhase.BETWEEN_ROUNDS)
            if self.config.next_round_after is not None:
                self._next_round_at = now + self.config.next_round_after

    def _end_game(self) -> None:
        """Back to the lobby with the same seats; spectators sit down where there is room."""
        self._enter(TablePhase.LOBBY)
        for slot in self.slots:
            slot.ready = slot.kind == "bot"
            slot.taken_over = False
            if slot.dropped_at is not None:
                # Held like a seat dropped in the lobby, from now: a grace that ran out
                # while a bot played the game would free it before its player is back.
                slot.dropped_at = self.last_now
        if self._replaying:
            return
        with self._one_lobby():  # each seating sends it: once for them all, at the end
            for peer in list(self.peers.values()):
                if peer.seat is None and peer.hello is not None and len(self.slots) < MAX_SEATS:
                    self._seat(peer, len(self.slots), peer.hello)
            self._send_lobby()  # even if nobody sat down: the table is back in the lobby
        self._maybe_auto_start(self.last_now)  # starts the wait for the seats not ready

    # ------------------------------------------------------------------ actions

    def _on_action(self, peer: Peer, request: ActionRequest, now: float) -> None:
        seat = peer.seat
        if seat is None:
            self._refuse(peer, request, "not_now", None, "Spectators watch until the next game.")
            return
        slot = self.slots[seat]
        if slot.peer != peer.id:
            self._refuse(peer, request, "not_now", None, "This connection does not hold a seat.")
            return
        if request.seq <= slot.last_seq:
            # A resend after a resume: ack it again if it was applied, never apply it twice.
            if request.seq in slot.applied:
                self._out(peer.id, Ack(seq=request.seq))
            else:
                self._refuse(
                    peer,
                    request,
                    "bad_seq",
                    None,
                    "That action was not applied; look at the table and try again.",
                )
            return
        game = self.game
        if self.phase is not TablePhase.PLAYING or game is None:
            self._refuse(peer, request, "not_now", None, "No round is being played right now.")
            return
        if request.sid != self.sid:
            self._refuse(
                peer,
                request,
                "stale_state",
                None,
                "The table changed before your action arrived; look again.",
            )
            return
        try:
            action = parse_action(f"{seat} {request.a}")
        except ValueError as error:
            self._refuse(peer, request, "illegal", None, str(error))
            return
        if isinstance(action, Timeout):
            self._refuse(peer, request, "illegal", "T2", "Only the host's timer times out.")
            return
        try:
            self._act(action, now, auto=False, seq=request.seq)
        except IllegalAction as error:
            code = "not_your_turn" if game.round.actor != seat else "illegal"
            self._refuse(peer, request, code, error.rule_id[:8], error.message)

    def _refuse(
        self, peer: Peer, request: ActionRequest, code: str, rule: str | None, text: str
    ) -> None:
        self._out(
            peer.id, ErrorReply(code=code, rule=rule, text=clip(text or code), seq=request.seq)
        )

    def _act(self, action: Action, now: float, *, auto: bool, seq: int) -> None:
        """Apply through the engine (which refuses without changing anything), then record."""
        game = self.game
        assert game is not None
        events = game.apply(action, now, auto=auto)
        if not self._replaying:
            self._records.append(ActRecord(action=str(action), now=now, auto=auto, seq=seq))
        self._after_action(action.seat, seq, events, now, auto=auto)

    def _apply_action_record(self, record: ActRecord) -> None:
        game = self.game
        assert game is not None, "an action record before the round record"
        action = parse_action(record.action)
        events = game.apply(action, record.now, auto=record.auto)
        self.last_now = max(self.last_now, record.now)
        self._after_action(action.seat, record.seq, events, record.now, auto=record.auto)

    def _after_action(
        self, seat: int, seq: int, events: list[EngineEvent], now: float, *, auto: bool
    ) -> None:
        slot = self.slots[seat]
        if seq:
            slot.last_seq = seq
            slot.applied.append(seq)
            if slot.peer is not None:
                self._out(slot.peer, Ack(seq=seq))
        self.sid += 1
        self._sent += [SentEvent(self.sid, seat if auto else None)] * len(events)
        self._deliver_events(events, now, bot_for=seat if auto else None)
        if any(event.kind == "autopilot" for event in events):
            self._send_lobby()  # its bot_playing changed
        game = self.game
        assert game is not None
        if game.round.winner is not None:
            self._after_round(now)
        self._deliver_states(now)
        self._replan_bots(now)

    # ------------------------------------------------------------------ timers and bots

    def _deadlines(self) -> list[float | None]:
        times: list[float | None] = [self._next_round_at, self._wait_ends_at]
        if self.phase is TablePhase.LOBBY:
            times.extend(self._lobby_deadlines())
        if self.phase is TablePhase.DEALING:
            times.append(self._reveal_deadline)
        if self.phase is TablePhase.PLAYING and self.game is not None:
            if not self._waits_for(self.game.round.actor):
                times.append(self.game.next_deadline())
            times.append(self._bot_plan[0] if self._bot_plan else None)
            times.extend(self._takeover_time(slot) for slot in self.slots)
        return times

    def _takeover_time(self, slot: Slot) -> float | None:
        if slot.kind != "human" or slot.dropped_at is None or slot.taken_over:
            return None
        if self._waiting_for_players:
            return None
        return slot.dropped_at + (self.rules.move_timer or self.config.drop_grace)

    def _step(self, now: float) -> bool:
        """Do the earliest piece of work that is due; False when nothing is."""
        if self.phase is TablePhase.LOBBY:
            return self._step_lobby(now)
        if self._wait_ends_at is not None and now >= self._wait_ends_at:
            self._players_back(now)  # nobody came back: the usual grace, then bots
            self._replan_bots(now)
            return True
        if self._next_round_at is not None and now >= self._next_round_at:
            self._next_round_at = None
            self._begin_round(self._round_no + 1, now)
            return True
        if self.phase is TablePhase.DEALING:
            if self._reveal_deadline is not None and now >= self._reveal_deadline:
                self._deal(now)  # seats that did not reveal contribute nothing
                return True
            return False
        if self.phase is not TablePhase.PLAYING or self.game is None:
            return False
        for slot in self.slots:
            due = self._takeover_time(slot)
            if due is not None and now >= due:
                slot.taken_over = True
                self._send_lobby()  # every screen shows "bot playing" for that seat
                self._replan_bots(now)
                return True
        deadline = self.game.next_deadline()
        waiting = self._waits_for(self.game.round.actor)
        if deadline is not None and now >= deadline and not waiting:
            self._act(Timeout(self.game.round.actor), now, auto=False, seq=0)
            return True
        if self._bot_plan is not None and now >= self._bot_plan[0]:
            planned_sid = self._bot_plan[1]
            self._bot_plan = None
            if planned_sid == self.sid:
                try:
                    self._run_bots(now)
                except BotThinking:  # the answer comes from a worker: ask again soon
                    self._bot_plan = (now + BOT_THINKING_RETRY, self.sid)
                except Exception as error:
                    self._bot_failed(error, now)
            else:
                self._replan_bots(now)
            return True
        return False

    @property
    def bot_factory(self) -> Callable[[str], Bot]:
        return self._bot_factory

    def use_bot_factory(self, factory: Callable[[str], Bot]) -> None:
        """Where the bots come from from now on (the adapter's: experts in a worker pool)."""
        self._bot_factory = factory
        self._bots.clear()

    def bot_controlled(self, seat: int) -> bool:
        slot = self.slots[seat]
        if slot.kind == "bot" or slot.taken_over:
            return True
        if self._waits_for(seat):
            return False  # not even its move timer's autopilot (T3) while it waits
        game = self.game
        return game is not None and game.round.autopilot[seat]

    def _bot_plays_for(self, seat: int) -> bool:
        """A bot plays this human seat now: its player's takeover after the drop grace, or
        T3's autopilot (which a table restored from its journal, or a screen paired late,
        knows from no event: the lobby says it)."""
        return (
            self.slots[seat].kind == "human"
            and self.phase is not TablePhase.LOBBY
            and self.bot_controlled(seat)
        )

    def _bot(self, level: str) -> Bot:
        bot = self._bots.get(level)
        if bot is None:
            bot = self._bots[level] = self._bot_factory(level)
        return bot

    def _level_of(self, seat: int) -> BotLevel:
        slot = self.slots[seat]
        return slot.level if slot.kind == "bot" else self.config.bot_level

    def _bot_for(self, seat: int) -> Bot:
        return self._bot(self._level_of(seat))

    def _replan_bots(self, now: float) -> None:
        """Schedule the next bot decision (the same deadline mechanism as the move timer)."""
        self._bot_plan = None
        game = self.game
        if self.phase is not TablePhase.PLAYING or game is None or self._replaying:
            return
        rnd = game.round
        delays = []
        for seat in out_of_turn_order(rnd):
            if self.bot_controlled(seat) and game.legal_actions(seat):
                moment: Moment = "uno" if seat == rnd.exposed else "catch"
                delays.append(self.config.pace.delay(self._level_of(seat), moment, self._rng))
        if self.bot_controlled(rnd.actor):
            delays.append(self.config.pace.delay(self._level_of(rnd.actor), "turn", self._rng))
        if delays:
            self._bot_plan = (now + min(delays), self.sid)

    def _run_bots(self, now: float) -> None:
        """One bot decision (the driver's order: out-of-turn chances, then the actor)."""
        game = self.game
        assert game is not None
        bot_step(game, self._bot_at, self._rng, lambda action: self._bot_act(action, now))

    def _bot_failed(self, error: Exception, now: float) -> None:
        """A bot raised (a bug): the actor's timer decision stands in for a bot playing it,
        and if nothing could be applied the bots are asked again later. Either way a plan
        is left: a table whose bot plan was dropped would wait for ever."""
        self.log(f"a bot failed: {type(error).__name__}: {error}")
        game = self.game
        assert game is not None
        actor = game.round.actor
        try:
            if self.bot_controlled(actor) and self._bot_act(Timeout(actor), now):
                return
        except Exception as again:
            self.log(f"the timer decision failed too: {type(again).__name__}: {again}")
        if self._bot_plan is None:
            self._bot_plan = (now + BOT_FAILED_RETRY, self.sid)

    def _bot_at(self, seat: int) -> Bot | None:
        return self._bot_for(seat) if self.bot_controlled(seat) else None

    def _bot_act(self, action: Action, now: float) -> bool:
        """Apply a bot's choice; if the engine refuses it (a bot bug), the seat's timer
        decision (the actor) or its first legal action stands in. False: nothing applied."""
        try:
            self._act(action, now, auto=True, seq=0)
            return True
        except IllegalAction as error:
            self.log(f"bot of seat {action.seat} chose {action}, refused: {error.message}")
        game = self.game
        assert game is not None
        seat = action.seat
        fallbacks: list[Action] = [Timeout(seat)] if seat == game.round.actor else []
        fallbacks += [a for a in game.legal_actions(seat) if a != action]
        for fallback in fallbacks:
            try:
                self._act(fallback, now, auto=True, seq=0)
            except IllegalAction:
                continue
            self.log(f"seat {seat} played {fallback} instead")
            return True
        return False

    # ------------------------------------------------------------------ outboxes

    def _recipients(self) -> list[int]:
        """Every connection that has said hello, and the shared screen."""
        return [SCREEN, *(p.id for p in self.peers.values() if p.hello is not None)]

    def _seat_of(self, recipient: int) -> int | None:
        peer = self.peers.get(recipient)
        return None if peer is None else peer.seat

    def _out(self, recipient: int, message: Message, owner: int | None = None) -> None:
        """The one redaction point: ``owner`` is the seat whose private cards the message
        carries (None: public). Nothing private ever goes to anyone else."""
        check_recipient(self._seat_of(recipient), message, owner)
        if not self._replaying:
            self._outbox.append(Send(recipient, message))

    def _close(self, peer: int, code: CloseCode, reason: str) -> None:
        """The connection ends; the table forgets it now (its seat, if any, is handled by
        the caller), so nothing more is addressed to it."""
        gone = self.peers.pop(peer, None)
        if gone is not None and gone.seat is not None and gone.seat < len(self.slots):
            slot = self.slots[gone.seat]
            if slot.peer == peer:
                slot.peer, slot.check = None, None
        if not self._replaying:
            self._outbox.append(Close(peer, code, reason))

    def _deliver_events(
        self, events: Iterable[EngineEvent], _now: float, *, bot_for: int | None = None
    ) -> None:
        """Each event to whoever may see it. ``bot_for``: the seat whose move a bot made (the
        autopilot after two timeouts, T3): that seat's player gets the events marked
        ``bot`` (M-31), so its log says "A bot played your red 5 for you.", not "You
        played red 5." to a player who did not."""
        recipients = self._recipients()
        marked_peer = self.slots[bot_for].peer if bot_for is not None else None
        for event in events:
            audience, message = event_message(event, self.sid)
            mine = message
            if marked_peer is not None:
                mine = replace(message, fields={**message.fields, "bot": True})
            if audience is None:
                for recipient in recipients:
                    self._out(recipient, mine if recipient == marked_peer else message)
            else:
                peer = self.slots[audience].peer
                if peer is not None:
                    self._out(peer, mine if peer == marked_peer else message, owner=audience)

    def _deliver_states(self, now: float) -> None:
        if self.game is None:
            return
        public = self._state_for(None, now)
        # Back in the lobby the seats may differ from the finished game's: public only.
        in_lobby = self.phase is TablePhase.LOBBY
        for recipient in self._recipients():
            seat = self._seat_of(recipient)
            if seat is None or in_lobby:
                self._out(recipient, public)
            else:
                self._out(recipient, self._state_for(seat, now, public), owner=seat)

    def _state_for(self, seat: int | None, now: float, public: State | None = None) -> State:
        """A seat's State (its hand and legal actions on top of the public table), or the
        public one (``seat`` None). ``public`` lends its public fields, built once per change."""
        game = self.game
        assert game is not None
        playing = self.phase is TablePhase.PLAYING
        if public is None:
            public = public_state(game, sid=self.sid, playing=playing, now=now)
            if playing and self._waits_for(game.round.actor):
                public = replace(public, deadline_ms=None)  # the timer waits too
        if seat is None:
            return public
        return seat_state(game, seat, public, playing=playing)

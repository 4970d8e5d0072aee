"""What the client core tells its adapter and app, besides the host's own messages.

These are local notices, never sent or received on the wire: a message from the host is
always a ``lanuno.wire.messages.Message``; anything the client concluded by itself (a deck
that does not check out, a seat the host no longer holds) is one of these.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ResumeTicket:
    """What it takes to get a seat back: the seat, its newest resume secret, and the one
    before (the host keeps it in case its confirmation of the newest was lost)."""

    seat: int
    generation: int
    secret: bytes
    previous: tuple[int, bytes] | None = None
    room_id: bytes = b""
    """The table it belongs to (the host hello's ``room_id``); empty when not known yet."""

    def __repr__(self) -> str:  # never print a secret into a log
        return f"ResumeTicket(seat={self.seat}, generation={self.generation})"


@dataclass(frozen=True, slots=True)
class Notice:
    """Base class of every local notice."""


@dataclass(frozen=True, slots=True)
class Connected(Notice):
    """A connection finished its handshake and said hello."""

    check_number: int
    resumed: bool


@dataclass(frozen=True, slots=True)
class Reconnecting(Notice):
    """The connection dropped; the core will try to get the seat back."""

    reason: str


@dataclass(frozen=True, slots=True)
class HostStillLost(Notice):
    """The host has not answered for ``seconds``: the core goes on trying (the seat is kept
    on this computer, so a person who leaves now gets it back with a later join)."""

    seconds: float


@dataclass(frozen=True, slots=True)
class SeatLost(Notice):
    """The host refused the resume ticket: the core joins again with the room code."""

    text: str = "The host no longer holds this seat; joining the table again."


@dataclass(frozen=True, slots=True)
class FairnessAlarm(Notice):
    """A round's revealed seeds or deck do not match what this client saw (fairness.md)."""

    round: int
    reason: str

    @property
    def text(self) -> str:
        return f"This round's deck does not check out: {self.reason}"[:200]


@dataclass(frozen=True, slots=True)
class SeedUnused(Notice):
    """The round checked out, but the host dealt without this client's seed (its reveal
    never reached the host in time, or was refused): a notice, not an alarm."""

    round: int

    @property
    def text(self) -> str:
        return (
            f"Round {self.round} was shuffled without your seed (it did not reach the host "
            "in time); the deck still checks out against the seeds that were used."
        )


@dataclass(frozen=True, slots=True)
class Credentials(Notice):
    """What the adapter should keep on disk for a restarted client: this ticket, or nothing
    (``None``: the game ended, the seat is gone, or the table closed for good)."""

    ticket: ResumeTicket | None


@dataclass(frozen=True, slots=True)
class SessionEnded(Notice):
    """The session is over for good (no more reconnection)."""

    reason: str
    joined: bool
    """False when even the first connection never got in (the join failed)."""


__all__ = [
    "Connected",
    "Credentials",
    "FairnessAlarm",
    "HostStillLost",
    "Notice",
    "Reconnecting",
    "ResumeTicket",
    "SeatLost",
    "SeedUnused",
    "SessionEnded",
]

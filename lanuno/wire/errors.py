"""Close codes and the two protocol errors.

Following h11: a ``LocalProtocolError`` means *we* were asked to do something the protocol
forbids (a bug in the caller); a ``RemoteProtocolError`` means the peer broke the protocol.
Both carry the close code and a sentence a person can read. Either one ends the connection:
the adapter closes the socket (and, where keys exist, may first send ``bye`` with the code).
"""

from __future__ import annotations

import enum


class CloseCode(enum.IntEnum):
    """Why a connection ended; sent in ``bye.code`` and carried by protocol errors."""

    NORMAL = 0
    """A clean goodbye: the player left or the game ended."""
    HOST_SHUTDOWN = 1
    PROTOCOL_ERROR = 2
    """A malformed frame, message or sequence (the reason says which)."""
    BAD_MAGIC = 3
    VERSION_MISMATCH = 4
    AUTH_FAILED = 5
    """Key confirmation failed: wrong room code, stale resume secret, or a MITM."""
    COMMIT_MISMATCH = 6
    """The host's SPAKE2 message does not match the commitment it sent first."""
    FRAME_TOO_LARGE = 7
    DECRYPT_FAILED = 8
    """A frame failed authentication: tampered, replayed, reordered or reflected."""
    COUNTER_EXHAUSTED = 9
    TABLE_FULL = 10
    SEAT_UNAVAILABLE = 11
    """Reserved: version 1 has no seat wishes, so no host sends it."""
    KICKED = 12
    RATE_LIMITED = 13
    TIMEOUT = 14
    ROOM_CODE_ROTATED = 15
    RESUME_REJECTED = 16
    TRUNCATED = 17
    """End of stream in the middle of a frame or before ``bye``."""
    INTERNAL_ERROR = 18
    TABLE_PAUSED = 19
    """The host stopped without ending the game (it could not save it, e.g. a full disk).
    Not a goodbye: keep the resume secret, the table can come back with ``--resume``."""
    NO_SUCH_TABLE = 20
    """The client hello named a table this host does not serve (a local close: the host
    answers the fixed bytes ``LANUNO/2 T``)."""
    TABLE_SAVED = 21
    """The host quit, and the table's journal keeps it to its last action: a goodbye (stop
    reconnecting), but keep the resume secret, so that a later ``lanuno join`` takes the
    seat back if the host resumes the table (``--resume``)."""


class ProtocolError(Exception):
    """Base class: the connection must end with ``code``."""

    def __init__(self, code: CloseCode, reason: str) -> None:
        super().__init__(f"{code.name}: {reason}")
        self.code = code
        self.reason = reason


class LocalProtocolError(ProtocolError):
    """We tried to do something the protocol forbids (a caller bug or a bad argument)."""


class RemoteProtocolError(ProtocolError):
    """The peer broke the protocol; never retry on the same connection."""

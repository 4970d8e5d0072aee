"""The lanuno wire protocol, sans-I/O: messages, framing, handshake, fairness.

The net layer drives a ``HostConnection`` or ``ClientConnection`` with bytes; see
protocol/README.md for the specification and ``connection.py`` for the theory of operation.
"""

from lanuno.wire.connection import (
    ClientConnection,
    Connection,
    ConnectionClosed,
    ConnectionEvent,
    HandshakeComplete,
    HostConnection,
    Phase,
)
from lanuno.wire.crypto import Mode, RoomCodeGuard, format_check_number, new_room_code
from lanuno.wire.errors import CloseCode, LocalProtocolError, ProtocolError, RemoteProtocolError
from lanuno.wire.fairness import (
    ClientSeeds,
    FairShuffler,
    RoundCheck,
    SeatSeedBook,
    verify_round,
)

__all__ = [
    "ClientConnection",
    "ClientSeeds",
    "CloseCode",
    "Connection",
    "ConnectionClosed",
    "ConnectionEvent",
    "FairShuffler",
    "HandshakeComplete",
    "HostConnection",
    "LocalProtocolError",
    "Mode",
    "Phase",
    "ProtocolError",
    "RemoteProtocolError",
    "RoomCodeGuard",
    "RoundCheck",
    "SeatSeedBook",
    "format_check_number",
    "new_room_code",
    "verify_round",
]

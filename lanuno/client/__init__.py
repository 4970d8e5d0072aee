"""The client core, sans-I/O: one player's session logic, the mirror of ``host.table``.

``ClientCore`` (session.py) takes bytes and ``now`` and returns bytes to send, the host's
messages and local notices (notices.py); ``DealBook`` (deal.py) checks the fair deal.
``lanuno.net.client`` is its asyncio adapter (sockets, timers, the credentials file).
"""

from lanuno.client.deal import DealBook, DealSeen
from lanuno.client.notices import (
    Connected,
    Credentials,
    FairnessAlarm,
    HostStillLost,
    Notice,
    Reconnecting,
    ResumeTicket,
    SeatLost,
    SeedUnused,
    SessionEnded,
)
from lanuno.client.session import (
    FINAL_CLOSE_CODES,
    MAX_REFUSALS,
    ClientCore,
    ClientEvent,
    ClientTiming,
    Player,
    SessionPhase,
)

__all__ = [
    "FINAL_CLOSE_CODES",
    "MAX_REFUSALS",
    "ClientCore",
    "ClientEvent",
    "ClientTiming",
    "Connected",
    "Credentials",
    "DealBook",
    "DealSeen",
    "FairnessAlarm",
    "HostStillLost",
    "Notice",
    "Player",
    "Reconnecting",
    "ResumeTicket",
    "SeatLost",
    "SeedUnused",
    "SessionEnded",
    "SessionPhase",
]

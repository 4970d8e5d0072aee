"""Handshake constants, the key schedule, check numbers and the room-code lockout.

Everything here is a pure function of its inputs; randomness is passed in as a
``RandomBytes`` callable (``os.urandom`` in production, ``counter_drbg`` in vectors and tests).
See protocol/handshake.md for the byte-level description.
"""

from __future__ import annotations

import enum
import hashlib
import hmac
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

RandomBytes = Callable[[int], bytes]
"""``random_bytes(n)`` returns ``n`` unpredictable bytes."""

LABEL = b"lanuno/v1 "
GENERATION = 2
"""The handshake generation (the digit in the magic): 2 names the table in the hello."""
MAGIC_CLIENT = b"LANUNO/2 C\n"
MAGIC_HOST = b"LANUNO/2 H\n"
MAGIC_VERSION_REFUSED = b"LANUNO/2 V\n"
"""The refusal a client of this generation recognises: a host of another generation
answers a client magic ``LANUNO/g C`` with ``LANUNO/g V`` (the client's own digit) and
closes (README, G-1)."""
MAGIC_RESUME_REFUSED = b"LANUNO/2 R\n"
"""What a host answers to a RESUME for a seat and generation it holds no secret for, before
it closes: the client gives the ticket up instead of taking the hang-up for a busy host."""
MAGIC_TABLE_REFUSED = b"LANUNO/2 T\n"
"""What a host answers to a client hello naming a table it does not serve, before it
closes: never a wrong table."""
MAGIC_LENGTH = 11
MAGIC_PREFIX = b"LANUNO/"
MAX_TABLES = 64
"""Table numbers are 1..MAX_TABLES (one hall, one port)."""

ROOM_ID_LENGTH = 16
NONCE_LENGTH = 16
COMMIT_LENGTH = 32
SPAKE2_MESSAGE_LENGTH = 33
KEY_LENGTH = 32
RESUME_SECRET_LENGTH = 32
ANY_SEAT = 255
"""Seat byte of a JOIN that lets the host choose the seat (and of a SCREEN: no seat)."""
MAX_SEATS = 10

ROOM_CODE_DIGITS = 6
CHECK_NUMBER_MODULUS = 10**6
DEFAULT_MAX_FAILURES = 10


class Mode(enum.IntEnum):
    JOIN = 1
    """Password: the room code on the shared screen."""
    RESUME = 2
    """Password: the seat's resume secret of the named generation."""
    SCREEN = 3
    """Password: the table's screen code (shown on the host's hall screen only); the link
    receives the public shared-screen feed and sends nothing but ping and bye."""


def commit_to_host_message(msg_b: bytes) -> bytes:
    """The host's commitment to its SPAKE2 message, sent before it sees the client's."""
    return hashlib.sha256(LABEL + b"commit" + msg_b).digest()


def spake2_identities(
    mode: Mode, seat: int, generation: int, room_id: bytes, table: int = 1
) -> tuple[bytes, bytes]:
    """(idA, idB): bind the SPAKE2 run to the mode, table, seat, generation and room."""
    client = LABEL + b"client " + bytes((mode, table, seat, generation))
    host = LABEL + b"host " + room_id
    return client, host


@dataclass(frozen=True, slots=True, repr=False)
class SessionKeys:
    """Everything one handshake derives. ``repr`` hides the secrets from logs."""

    c2h_key: bytes
    h2c_key: bytes
    c2h_confirm: bytes
    h2c_confirm: bytes
    check_number: int
    """The 6-digit SAS shown on the client and next to the seat on the shared screen."""
    resume_next: bytes
    """The seat's next resume secret (generation + 1 after a RESUME, 0 after a JOIN)."""

    def __repr__(self) -> str:
        return f"SessionKeys(check_number={format_check_number(self.check_number)})"


def expand(shared_key: bytes, transcript_hash: bytes, label: bytes, length: int) -> bytes:
    """okm(label, n) = HKDF-SHA256(ikm=K, salt=T, info="lanuno/v1 " + label, length=n)."""
    return HKDF(
        algorithm=hashes.SHA256(), length=length, salt=transcript_hash, info=LABEL + label
    ).derive(shared_key)


def derive_session_keys(shared_key: bytes, transcript_hash: bytes) -> SessionKeys:
    def okm(label: bytes, length: int = KEY_LENGTH) -> bytes:
        return expand(shared_key, transcript_hash, label, length)

    return SessionKeys(
        c2h_key=okm(b"c2h key"),
        h2c_key=okm(b"h2c key"),
        c2h_confirm=okm(b"c2h confirm"),
        h2c_confirm=okm(b"h2c confirm"),
        check_number=int.from_bytes(okm(b"sas", 4), "big") % CHECK_NUMBER_MODULUS,
        resume_next=okm(b"resume"),
    )


def format_check_number(check_number: int) -> str:
    """'042 917': two groups of three digits are easier to compare across a room."""
    text = f"{check_number:06d}"
    return f"{text[:3]} {text[3:]}"


def new_room_code(random_bytes: RandomBytes) -> str:
    """Six uniform decimal digits (rejection sampling: no modulo bias)."""
    limit = (1 << 32) - (1 << 32) % CHECK_NUMBER_MODULUS
    while True:
        value = int.from_bytes(random_bytes(4), "big")
        if value < limit:
            return f"{value % CHECK_NUMBER_MODULUS:06d}"


def normalize_room_code(text: str) -> str:
    """What a person typed -> the 6 ASCII digits used as the SPAKE2 password.

    NFKC turns full-width digits into ASCII ones; spaces and dashes are grouping only.
    """
    digits = unicodedata.normalize("NFKC", text).replace(" ", "").replace("-", "")
    if len(digits) != ROOM_CODE_DIGITS or not (digits.isascii() and digits.isdigit()):
        raise ValueError(f"a room code is {ROOM_CODE_DIGITS} digits, like 482 915")
    return digits


def counter_drbg(seed: bytes) -> RandomBytes:
    """Deterministic bytes from a seed: SHA-256 in counter mode.

    For test vectors and tests only: the output is reproducible by design.
    """
    counter = 0
    buffer = b""

    def random_bytes(n: int) -> bytes:
        nonlocal counter, buffer
        while len(buffer) < n:
            buffer += hashlib.sha256(seed + counter.to_bytes(8, "big")).digest()
            counter += 1
        out, buffer = buffer[:n], buffer[n:]
        return out

    return random_bytes


def constant_time_equal(a: bytes, b: bytes) -> bool:
    return hmac.compare_digest(a, b)


class RoomCodeGuard:
    """The room code and its lockout: after ``max_failures`` failed JOIN confirmations
    against the current code, the code rotates and the host shows the new one.

    Failures count per code (not per address: addresses are spoofable). A handshake
    remembers the ``epoch`` it started in; a failure from an older epoch does not count
    again, and a success from an older epoch is refused (see ``is_current``). The host
    owns one guard per table; ``HostConnection`` calls it, the UI reads ``code``.
    """

    __slots__ = ("_random_bytes", "code", "epoch", "failures", "max_failures", "total_failures")

    def __init__(
        self,
        random_bytes: RandomBytes,
        max_failures: int = DEFAULT_MAX_FAILURES,
        code: str | None = None,
    ) -> None:
        if max_failures < 1:
            raise ValueError("max_failures must be at least 1")
        self._random_bytes = random_bytes
        self.max_failures = max_failures
        self.code = normalize_room_code(code) if code is not None else new_room_code(random_bytes)
        self.epoch = 0
        self.failures = 0
        self.total_failures = 0

    def is_current(self, epoch: int) -> bool:
        return epoch == self.epoch

    def record_failure(self, epoch: int) -> bool:
        """Count one failed confirmation; True if this failure rotated the code."""
        if epoch != self.epoch:
            return False
        self.failures += 1
        self.total_failures += 1
        if self.failures >= self.max_failures:
            self.rotate()
            return True
        return False

    def rotate(self) -> None:
        """A new code (never the same as the old one); the failure count starts again."""
        old = self.code
        while self.code == old:
            self.code = new_room_code(self._random_bytes)
        self.epoch += 1
        self.failures = 0

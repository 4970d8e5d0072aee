"""Encrypted frames: ``u16be length ‖ ChaCha20-Poly1305(plaintext)``.

Plaintext is ``u16be n ‖ payload[n] ‖ zero padding`` up to a multiple of 256 bytes, so a
frame's length reveals only a bucket. The nonce is implicit: ``0x00000000 ‖ u64be counter``,
one counter per direction starting at 0 (TCP delivers in order, so a replayed, dropped or
reordered frame fails authentication). Keys differ per direction, so a frame reflected back
to its sender fails too. See protocol/framing.md.
"""

from __future__ import annotations

import enum

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from lanuno.wire.errors import CloseCode, LocalProtocolError, RemoteProtocolError

LENGTH_HEADER = 2
TAG_LENGTH = 16
PAD_BUCKET = 256
MAX_PLAINTEXT = 64 * PAD_BUCKET
"""16 KiB: a full state message for ten seats needs about 1 KiB."""
MAX_PAYLOAD = MAX_PLAINTEXT - 2
MIN_FRAME_BODY = PAD_BUCKET + TAG_LENGTH
MAX_FRAME_BODY = MAX_PLAINTEXT + TAG_LENGTH
COUNTER_LIMIT = 2**64 - 1
"""A counter never reaches this value: the connection closes first (never wraps)."""
AAD_LABEL = b"lanuno/v1"


class Direction(enum.IntEnum):
    CLIENT_TO_HOST = 1
    HOST_TO_CLIENT = 2


def frame_aad(direction: Direction, room_id: bytes, seat: int) -> bytes:
    """Associated data: binds every frame to its direction, room and handshake seat byte."""
    return AAD_LABEL + bytes((direction,)) + room_id + bytes((seat,))


def frame_nonce(counter: int) -> bytes:
    return b"\x00\x00\x00\x00" + counter.to_bytes(8, "big")


def padded_length(payload_length: int, floor: int = 0) -> int:
    """Bucketed plaintext size for a payload; ``floor`` hides payloads that may vary."""
    needed = max(payload_length, floor) + 2
    return -(-needed // PAD_BUCKET) * PAD_BUCKET


def pad(payload: bytes, floor: int = 0) -> bytes:
    if len(payload) > MAX_PAYLOAD:
        raise LocalProtocolError(
            CloseCode.FRAME_TOO_LARGE, f"payload of {len(payload)} bytes > {MAX_PAYLOAD}"
        )
    size = min(padded_length(len(payload), floor), MAX_PLAINTEXT)
    return len(payload).to_bytes(2, "big") + payload + bytes(size - 2 - len(payload))


def unpad(plaintext: bytes) -> bytes:
    """Authenticated plaintext -> payload. The padding must be zeros (no hidden channel)."""
    if len(plaintext) < 2:
        raise RemoteProtocolError(CloseCode.PROTOCOL_ERROR, "plaintext shorter than its header")
    n = int.from_bytes(plaintext[:2], "big")
    end = 2 + n
    if end > len(plaintext):
        raise RemoteProtocolError(CloseCode.PROTOCOL_ERROR, "payload length beyond the frame")
    if plaintext.count(0, end) != len(plaintext) - end:
        raise RemoteProtocolError(CloseCode.PROTOCOL_ERROR, "padding is not all zeros")
    return plaintext[2:end]


class FrameSealer:
    """One sending direction: seals payloads with consecutive counters."""

    __slots__ = ("_aad", "_aead", "counter", "key")

    def __init__(self, key: bytes, aad: bytes) -> None:
        self.key = key
        self.counter = 0
        self._aad = aad
        self._aead = ChaCha20Poly1305(key)

    def seal(self, payload: bytes, floor: int = 0) -> bytes:
        if self.counter >= COUNTER_LIMIT:
            raise LocalProtocolError(CloseCode.COUNTER_EXHAUSTED, "send counter exhausted")
        body = self._aead.encrypt(frame_nonce(self.counter), pad(payload, floor), self._aad)
        self.counter += 1
        return len(body).to_bytes(2, "big") + body


class FrameOpener:
    """One receiving direction: cuts frames out of a byte buffer and authenticates them."""

    __slots__ = ("_aad", "_aead", "counter", "key", "max_body")

    def __init__(self, key: bytes, aad: bytes, max_body: int = MAX_FRAME_BODY) -> None:
        self.key = key
        self.counter = 0
        self.max_body = max_body
        self._aad = aad
        self._aead = ChaCha20Poly1305(key)

    def open_next(self, buffer: bytearray) -> bytes | None:
        """The next frame's payload, consumed from ``buffer``; None if it is incomplete.

        The length is checked before any body byte is awaited, so a bogus header costs the
        peer its connection instead of costing us memory.
        """
        if len(buffer) < LENGTH_HEADER:
            return None
        length = int.from_bytes(buffer[:2], "big")
        if not MIN_FRAME_BODY <= length <= self.max_body or (length - TAG_LENGTH) % PAD_BUCKET:
            raise RemoteProtocolError(
                CloseCode.FRAME_TOO_LARGE if length > self.max_body else CloseCode.PROTOCOL_ERROR,
                f"bad frame length {length}",
            )
        if len(buffer) < LENGTH_HEADER + length:
            return None
        body = bytes(buffer[LENGTH_HEADER : LENGTH_HEADER + length])
        if self.counter >= COUNTER_LIMIT:
            raise RemoteProtocolError(CloseCode.COUNTER_EXHAUSTED, "receive counter exhausted")
        try:
            plaintext = self._aead.decrypt(frame_nonce(self.counter), body, self._aad)
        except InvalidTag:
            raise RemoteProtocolError(
                CloseCode.DECRYPT_FAILED, "a frame failed authentication"
            ) from None
        del buffer[: LENGTH_HEADER + length]
        self.counter += 1
        return unpad(plaintext)

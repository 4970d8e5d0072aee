"""The host's SPAKE2 computations as plain data in, plain data out, so the adapter can run
them off its event loop (a worker thread or process: pure Python group arithmetic costs
milliseconds per handshake, and 100 joins at once would stall every table of a hall).

``HostConnection(..., offload=True)`` does not compute them itself: it sets ``work`` to a
``SpakeStart`` or ``SpakeFinish`` and waits; the adapter runs :func:`run_spake` wherever it
likes and hands the result to ``complete_work``. Without ``offload`` the connection calls
:func:`run_spake` inline: the same bytes either way (the entropy is drawn by the connection,
in the same order as before, so the handshake vectors still match).
"""

from __future__ import annotations

from dataclasses import dataclass

from spake2 import SPAKE2_B

SPAKE2_ENTROPY_LENGTH = 64
"""What ``SPAKE2_B.start`` draws from its ``entropy_f`` (one call: a 512-bit number
reduced modulo the group order)."""


@dataclass(frozen=True, slots=True, repr=False)
class SpakeStart:
    """The host's side (B) starts: its message and its state (serialized, secret)."""

    password: bytes
    id_a: bytes
    id_b: bytes
    entropy: bytes

    def __repr__(self) -> str:
        return "SpakeStart(...)"  # never print a password


@dataclass(frozen=True, slots=True, repr=False)
class SpakeFinish:
    """The host's side finishes with the client's message: the shared key."""

    state: bytes
    msg_a: bytes

    def __repr__(self) -> str:
        return "SpakeFinish(...)"


SpakeWork = SpakeStart | SpakeFinish
SpakeResult = tuple[bytes, bytes] | bytes | None
"""Start: (msgB, state). Finish: the shared key, or None for a malformed client message."""


def run_spake(work: SpakeWork) -> SpakeResult:
    """Do one SPAKE2 step (pure: runs anywhere, in any thread or process)."""
    if isinstance(work, SpakeStart):
        entropy = work.entropy

        def entropy_f(n: int) -> bytes:
            if n != len(entropy):
                raise ValueError(f"spake2 asked for {n} bytes of entropy, not {len(entropy)}")
            return entropy

        spake = SPAKE2_B(work.password, idA=work.id_a, idB=work.id_b, entropy_f=entropy_f)
        msg_b: bytes = spake.start()
        state: bytes = spake.serialize()
        return msg_b, state
    try:
        key: bytes = SPAKE2_B.from_serialized(work.state).finish(work.msg_a)
    except Exception:  # spake2 raises assorted errors for a malformed element
        return None
    return key

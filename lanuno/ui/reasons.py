"""Why a join failed or a connection ended, in the player's language.

The host's close reasons and the client's own (``lanuno.client.session``,
``lanuno.net.client``) are English sentences on the wire and in ``JoinError``. The ones a
player meets (a wrong room code, a full table, a kick, a closed table) are catalogue
entries (``reason.*``) whose English text is the sentence itself; any other reason is
technical and is kept as it is inside a translated frame.
"""

from __future__ import annotations

import re

from lanuno.client.notices import FairnessAlarm, HostStillLost, SeatLost
from lanuno.ui.i18n import Translator
from lanuno.ui.refusals import Patterns, exact_sentences, readings
from lanuno.wire.errors import CloseCode

_EXACT = exact_sentences("reason.")
_PATTERNS: Patterns = (
    (re.compile(r"the host has no table (?P<number>\d+)"), "reason.no_table"),
    (re.compile(r"too many spectators \((?P<number>\d+)\)"), "reason.spectators"),
)


def translate_reason(text: str, tr: Translator) -> str:
    """``text`` (a close or join-failure reason, in English) in ``tr``'s language."""
    sentence = text.strip()
    for key, raw in readings(sentence, _EXACT, _PATTERNS):
        return tr(key, **{name: int(value) for name, value in raw.items()})
    return tr("reason.technical", text=sentence)


def bye_line(code: int, reason: str, tr: Translator) -> str:
    """What the player reads when the host says goodbye: a saved table, what to do to get
    the seat back; any other goodbye, that the host closed the connection, and why."""
    if code == CloseCode.TABLE_SAVED:
        return tr("bye.saved")
    return tr("bye.reason", reason=bye_reason(code, reason, tr))


def ended_line(reason: str, tr: Translator) -> str:
    """A session that ended with no ``bye``: why, when the core said (``reason``)."""
    if not reason:
        return tr("bye.closed")
    return tr("bye.ended", reason=translate_reason(reason, tr))


def screen_end_line(reason: str, tr: Translator) -> str:
    """What a remote screen says when its link ends for good: a table the host saved
    comes back with ``--resume``, and this screen with ``lanuno screen`` again."""
    if _EXACT.get(reason.strip()) == "reason.closed_saved":
        return tr("screen.saved")
    return tr("screen.ended", reason=translate_reason(reason, tr))


def bye_reason(code: int, reason: str, tr: Translator) -> str:
    """A ``bye``'s reason: a paused table says what pausing means (the reason is the disk's
    error, for the host's log)."""
    if code == CloseCode.TABLE_PAUSED:
        return tr("reason.paused")
    if not reason:
        try:
            return CloseCode(code).name
        except ValueError:
            return str(code)
    return translate_reason(reason, tr)


def alarm_text(notice: FairnessAlarm | SeatLost | HostStillLost, tr: Translator) -> str:
    """The client's own warnings: a seat the host no longer holds, a host silent for
    minutes, a deck that does not check out (its reason stays as the check found it)."""
    if isinstance(notice, SeatLost):
        return tr("notice.seat_lost")
    if isinstance(notice, HostStillLost):
        return tr("notice.host_still_lost", minutes=round(notice.seconds / 60))
    return tr("notice.fairness", reason=notice.reason)[:200]

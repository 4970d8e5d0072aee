"""Why a join failed or a connection ended, in the player's language (lanuno.ui.reasons)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from ui_fakes import FakeSession

from lanuno.client.notices import FairnessAlarm, HostStillLost, SeatLost
from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import EN, FR, translator
from lanuno.ui.plain import PlainClient
from lanuno.ui.reasons import alarm_text, bye_line, bye_reason, translate_reason
from lanuno.wire.errors import CloseCode

SOURCE = "\n".join(
    path.read_text(encoding="utf-8")
    for path in (Path(__file__).resolve().parents[2] / "lanuno").rglob("*.py")
    if path.name not in ("i18n.py", "reasons.py")
)
BY_CODE = ("reason.paused",)
"""Said for a bye's code, whatever its reason (``bye_reason``)."""
FIXED = sorted(
    key
    for key, text in EN.items()
    if key.startswith("reason.") and "{" not in text and key not in BY_CODE
)


@pytest.mark.parametrize("key", FIXED)
def test_every_reason_the_code_gives_reads_in_french(key: str) -> None:
    english = EN[key]
    # The catalogue's English is the very sentence the host or the client says: a reworded
    # sentence in the code must be reworded here too, or French players get the fallback.
    assert f'"{english}"' in SOURCE, english
    assert translate_reason(english, translator("en")) == english
    assert translate_reason(english, translator("fr")) == FR[key] != english


def test_reasons_with_a_number_and_unknown_ones() -> None:
    fr, en = translator("fr"), translator("en")
    assert translate_reason("the host has no table 3", fr) == "l'hôte n'a pas de table 3"
    assert translate_reason("too many spectators (16)", fr) == "trop de spectateurs (16)"
    technical = "a frame failed authentication"
    assert translate_reason(technical, en) == technical
    assert translate_reason(technical, fr) == f"problème de connexion ({technical})"


def test_a_bye_says_what_a_pause_means_and_names_a_bare_code() -> None:
    fr = translator("fr")
    full_disk = "journal write failed: [Errno 28] No space left on device"
    paused = bye_reason(CloseCode.TABLE_PAUSED, full_disk, fr)
    assert paused.startswith("l'hôte a mis la table en pause")
    assert bye_reason(CloseCode.KICKED, "removed by the host", fr) == "retiré par l'hôte"
    assert bye_reason(CloseCode.HOST_SHUTDOWN, "", fr) == "HOST_SHUTDOWN"


def test_a_saved_table_says_how_to_get_the_seat_back_and_others_say_why_they_closed() -> None:
    fr, en = translator("fr"), translator("en")
    said = "the host closed the table and saved it"
    assert bye_line(CloseCode.TABLE_SAVED, said, fr) == FR["bye.saved"]
    assert bye_line(CloseCode.TABLE_SAVED, "", en).startswith("The host saved the table")
    assert bye_line(CloseCode.KICKED, "removed by the host", fr) == (
        "L'hôte a fermé la connexion : retiré par l'hôte"
    )


def test_the_clients_own_warnings_read_in_french() -> None:
    fr = translator("fr")
    assert alarm_text(SeatLost(), fr) == FR["notice.seat_lost"]
    alarm = alarm_text(FairnessAlarm(2, "seed 1 does not match"), fr)
    assert alarm == "Le paquet de cette manche ne correspond pas : seed 1 does not match"
    assert alarm_text(SeatLost(), translator("en")) == SeatLost().text
    assert alarm_text(HostStillLost(300.0), fr) == (
        "L'hôte ne répond plus depuis 5 min : lanuno essaie encore. Si vous partez, votre "
        "place reste enregistrée sur cet ordinateur, et lanuno join la reprend."
    )
    assert alarm_text(HostStillLost(300.0), translator("en")).startswith(
        "The host has not answered for 5 minutes: still trying."
    )


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_host_silent_for_minutes_is_said_in_the_log_of_either_client(lang: str) -> None:
    """The full-screen log says it as a warning (it refuses no action); the line client
    prints it with the other warnings."""
    tr = translator(lang)
    expected = alarm_text(HostStillLost(300.0), tr)
    model = ClientModel(tr)
    model.apply(HostStillLost(300.0), 0.0)
    assert [(line.text, line.kind) for line in model.log.lines] == [(expected, "error")]
    assert model.refusal is None
    out = io.StringIO()
    PlainClient(FakeSession(seat=0), out, lang=lang).show(HostStillLost(300.0))
    assert out.getvalue() == f"! {expected}\n"

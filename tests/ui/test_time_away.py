"""Back after a drop, a player's log tells what happened meanwhile (messages.md, M-31):
the events the host sends again between the welcome and the first state, under a heading,
a bot's moves in the player's seat said as such; in both clients and both languages."""

from __future__ import annotations

import io

import pytest
from ui_fakes import FakeSession, lobby, state, welcome

from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import translator
from lanuno.ui.plain import PlainClient
from lanuno.wire.messages import Event, Message


def missed(kind: str, sid: int, **fields: object) -> Event:
    return Event(sid=sid, type=kind, fields=fields)  # type: ignore[arg-type]


BEFORE = state(sid=7, top="B5", color="B", hand=("R5", "Y3", "B2"), actor=1)
AWAY = [  # Ana (seat 2) was away: Max played, a bot played and drew for her, Lea played
    missed("played", 8, seat=1, card="B7", jump_in=False),
    missed("played", 9, seat=2, card="R5", jump_in=False, bot=True),
    missed("played", 10, seat=3, card="R1", jump_in=False),
    missed("played", 11, seat=0, card="W", jump_in=False),
    missed("color_chosen", 11, seat=0, color="G"),
    missed("cards_drawn", 12, seat=2, cards=("Y9",), bot=True),
    missed("drew", 12, seat=2, count=1, cause="draw", bot=True),
    missed("passed", 12, seat=2, bot=True),
]
AFTER = state(sid=13, top="W", color="G", hand=("Y3", "B2", "Y9"), actor=3)

TOLD = {
    "en": [
        "While you were disconnected:",
        "Max played blue 7.",
        "A bot played your red 5 for you.",
        "Bot Bob played red 1.",
        "Lea played Wild and chose green.",
        "A bot drew yellow 9 for you.",
        "A bot passed for you.",
        "You are back at the table.",
    ],
    "fr": [
        "Pendant votre déconnexion :",
        "Max a joué 7 bleu.",
        "Un robot a joué votre 5 rouge à votre place.",
        "Bot Bob a joué 1 rouge.",
        "Lea a joué Joker et choisi le vert.",
        "Un robot a pioché 9 jaune pour vous.",
        "Un robot a passé pour vous.",
        "Vous êtes de retour à la table.",
    ],
}


def both(lang: str, before: list[Message], after: list[Message]) -> tuple[list[str], list[str]]:
    """What the full-screen log and the line client say of ``after`` (``before`` first)."""
    model = ClientModel(translator(lang))
    out = io.StringIO()
    client = PlainClient(FakeSession(seat=2), out, lang=lang)
    for message in before:
        model.apply(message, 0.0)
        client.show(message)
    logged, printed = len(model.log.lines), len(out.getvalue().splitlines())
    for message in after:
        model.apply(message, 0.0)
        client.show(message)
    lines = [line.strip() for line in out.getvalue().splitlines()]
    return [line.text for line in model.log.lines[logged:]], lines[printed:]


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_back_after_a_drop_the_log_tells_the_moves_missed_a_bots_as_a_bots(lang: str) -> None:
    """Seen in the lab: a bot played Ana's red 5 while her link was down, and her log
    said only that the round went on. Now it tells each move she missed."""
    logged, printed = both(lang, [welcome(), lobby(), BEFORE], [welcome(), lobby(), *AWAY, AFTER])
    assert logged == TOLD[lang]
    start = printed.index(TOLD[lang][0])
    assert printed[start : start + len(TOLD[lang])] == TOLD[lang]
    went_on = translator(lang)("log.went_on", card="X", cards="Y").split(":")[0]
    assert not any(line.startswith(went_on) for line in logged + printed)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_player_who_missed_nothing_reads_nothing_more(lang: str) -> None:
    logged, printed = both(lang, [welcome(), lobby(), BEFORE], [welcome(), lobby(), BEFORE])
    assert logged == []
    assert not any(line in printed for line in TOLD[lang])


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_next_game_after_a_welcome_in_the_lobby_is_not_time_away(lang: str) -> None:
    """A seat's welcome after a finished game (a spectator seated, a seat moved down) is
    not a return: the next game's first events are told as they come."""
    over = state(sid=30, phase="game_over", actor=None, legal=())
    deal = missed("round_started", 31, round_no=1, dealer=0, hand_size=7)
    logged, _printed = both(lang, [welcome(), lobby(), over], [welcome(), lobby(), deal])
    assert TOLD[lang][0] not in logged

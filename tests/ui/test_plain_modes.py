"""Issue 10 item 8: the line-based client (``--plain``) and the headless log say what
matters: the same sentences as the full-screen log, seats counted from 1, who is away,
and a rotated room code at once."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import io
import os
import random
import shutil
from collections.abc import AsyncIterator

import pytest
from helpers import until
from ui_fakes import FakeScreen, FakeSession, event, lobby, opening_events, state, welcome

from lanuno.client.notices import SeatLost
from lanuno.engine.rules import preset, rules_from_words
from lanuno.host.projection import rules_options
from lanuno.host.table import Table, TableConfig
from lanuno.net.client import JoinError, NetClientSession
from lanuno.net.server import ServerLimits, TableScreen, TableServer
from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import translator
from lanuno.ui.plain import PlainClient, log_screen, plain_help
from lanuno.ui.typed import ActionWords
from lanuno.ui.widgets import terminal_lines
from lanuno.wire.errors import CloseCode
from lanuno.wire.messages import (
    ActionRequest,
    Bye,
    ErrorReply,
    GameEnd,
    Lobby,
    LobbySeat,
    RoundEnd,
    Welcome,
)

pytestmark = pytest.mark.timeout(60)


def plain(lang: str = "en", seat: int = 2) -> tuple[PlainClient, FakeSession, io.StringIO]:
    session = FakeSession(seat=seat)
    out = io.StringIO()
    return PlainClient(session, out, lang=lang), session, out


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_plain_prints_the_same_sentences_as_the_full_screen_log(lang: str) -> None:
    client, _session, out = plain(lang)
    model = ClientModel(translator(lang))
    messages = [welcome(), lobby(), *opening_events(), state()]
    messages += [event("played", seat=2, card="R7", jump_in=False)]
    messages += [event("counter_uno", caller=0, target=2, caught=True)]
    for message in messages:
        client.show(message)
        model.apply(message, 0.0)
    printed = [line.strip() for line in out.getvalue().splitlines()]
    for line in model.log.lines:
        assert line.text in printed, (line.text, printed)
    assert "Lea played Wild Draw Four and chose blue." in printed or lang == "fr"
    assert not any("plays" in line or "cause" in line for line in printed)


def test_plain_penalty_line_names_the_answers_it_lists() -> None:
    """O21: the line offers a challenge only where the numbered answers hold one."""
    client, _session, out = plain(seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(phase="penalty", pending=4, legal=("accept", "challenge"), sid=8))
    assert "4 cards are coming your way: take them, or challenge." in out.getvalue()
    assert "1) accept  2) challenge" in out.getvalue()


@pytest.mark.parametrize(
    ("legal", "line"),
    [
        (("play R7", "pass"), "You drew a card that fits: play it, or pass."),
        (("play R7",), "You drew a card that fits: play it."),  # K1-4
    ],
)
def test_plain_drawn_line_offers_a_pass_only_where_there_is_one(
    legal: tuple[str, ...], line: str
) -> None:
    client, _session, out = plain(seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(phase="drawn", legal=legal, sid=8))
    assert line in out.getvalue()


@pytest.mark.parametrize(
    ("lang", "dropped", "back"),
    [
        (
            "en",
            "! The connection to the host dropped: reconnecting...",
            "Connected to the host again.",
        ),
        (
            "fr",
            "! La connexion à l'hôte est coupée : reconnexion...",
            "De nouveau connecté à l'hôte.",
        ),
    ],
)
def test_plain_says_when_the_link_drops_and_when_it_is_back(
    lang: str, dropped: str, back: str
) -> None:
    client, session, out = plain(lang)
    client.note_connection()
    assert out.getvalue() == ""  # connected from the start: nothing to say
    session.connection_state = "reconnecting"
    client.note_connection()
    client.note_connection()
    session.connection_state = "connected"
    client.note_connection()
    assert out.getvalue().splitlines() == [dropped, back]


def test_plain_counts_seats_from_one_both_ways() -> None:
    client, session, out = plain(seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(turn=0, actor=0, legal=("catch 1",), sid=8))
    text = out.getvalue()
    assert "you are seat 3." in text
    assert "1) catch 2" in text  # Max, the second seat
    assert "3. Ana" in text
    asyncio.run(client.handle_line("catch 2"))
    assert session.acted == ["catch 1"]
    asyncio.run(client.handle_line("1"))
    assert session.acted[-1] == "catch 1"


def test_plain_translates_refusals_and_the_round_summary() -> None:
    client, _session, out = plain("fr", seat=1)
    client.show(welcome(seat=1))
    client.show(lobby())
    client.show(state())
    text = "It is not your turn: waiting for seat 2."
    client.show(ErrorReply(code="not_your_turn", rule="O10", text=text, seq=4))
    client.show(RoundEnd(round=1, winner=1, points=1, scores=(120, 1, 40, 65)))
    printed = out.getvalue()
    assert "Refusé. Ce n'est pas à vous : on attend Ana. (règle O10)" in printed
    assert "Vous gagnez la manche et marquez 1 point. Scores : Lea 120, Max 1" in printed
    assert "waiting" not in printed
    assert "round 1 won" not in printed


async def test_a_headless_remote_screen_learning_the_room_code_is_no_rotation() -> None:
    """``lanuno screen --headless`` said "Too many wrong codes" as soon as it paired: it
    knows no room code until the host's first info."""
    screen = FakeScreen()
    screen.room = ""
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, "en", code_check_every=0.01))
    await asyncio.sleep(0.05)
    screen.room = "482913"
    await asyncio.sleep(0.05)
    assert not [line for line in lines if "wrong codes" in line]
    screen.room = "105377"  # a real rotation after that is still said
    for _ in range(100):
        await asyncio.sleep(0.01)
        if any("wrong codes" in line for line in lines):
            break
    task.cancel()
    assert "! Too many wrong codes: the room code is now 105 377." in lines


@pytest.mark.parametrize(
    ("lang", "lost", "back"),
    [
        ("en", "! The link to the host dropped: pairing again...", "Paired with the host again."),
        ("fr", "! Le lien avec l'hôte est coupé : nouvelle association...",
         "De nouveau associé à l'hôte."),
    ],
)  # fmt: skip
async def test_a_headless_remote_screen_says_when_its_link_drops_and_comes_back(
    lang: str, lost: str, back: str
) -> None:
    screen = FakeScreen()
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, lang, code_check_every=0.01))
    await asyncio.sleep(0.05)
    assert lines == []
    screen.linked = False
    await until(lambda: lost in lines, "the drop said")
    screen.linked = True
    await until(lambda: back in lines, "the link back said")
    task.cancel()
    assert lines == [lost, back]


@pytest.mark.parametrize("told_from_its_start", [True, False])
async def test_a_log_that_comes_in_mid_round_says_where_the_round_stands(
    told_from_its_start: bool,
) -> None:
    """A screen paired mid-round, or a headless host whose log began after its first players
    had started (it announces the table before it logs), told the moves with no word of the
    round: no "Round 1 starts", no top card."""
    screen = FakeScreen()
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, "en"))
    screen.feed(lobby())
    if told_from_its_start:
        screen.feed(*opening_events()[:2])
    screen.feed(state(hand=(), legal=()), event("played", seat=2, card="R5", jump_in=False))
    await until(lambda: any("red 5" in line for line in lines), "the move told")
    task.cancel()
    mid = [line for line in lines if "is under way" in line]
    if told_from_its_start:
        assert not mid
        assert any(line.startswith("Round 1 starts") for line in lines)
    else:
        assert mid == ["Round 1 is under way; the top card is red 9."]


async def test_headless_log_tells_who_is_away_and_a_new_room_code() -> None:
    screen = FakeScreen()
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, "en", code_check_every=0.02))
    seats = list(lobby().seats)
    screen.feed(lobby(), *opening_events(), state(hand=(), legal=()))
    away = LobbySeat(name="Max", kind="human", kid=True, connected=False, ready=True, check=None)
    seats[1] = away
    screen.feed(Lobby(seats=tuple(seats), preset="official", options={}, can_start=False))
    seats[1] = LobbySeat(
        name="Max",
        kind="human",
        kid=True,
        connected=False,
        ready=True,
        check=None,
        bot_playing=True,
    )
    screen.feed(Lobby(seats=tuple(seats), preset="official", options={}, can_start=False))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if screen.queue.empty():
            break
    screen.room = "105377"
    for _ in range(100):
        await asyncio.sleep(0.01)
        if any("105 377" in line for line in lines):
            break
    screen.end()
    await asyncio.wait_for(task, 5)
    assert "Lea played Wild Draw Four and chose blue." in lines
    assert "Max is away: the seat is held until they come back." in lines
    assert "A bot plays for Max until they come back." in lines
    assert "! Too many wrong codes: the room code is now 105 377." in lines


async def test_headless_log_names_bots_in_its_language() -> None:
    screen = FakeScreen()
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, "fr"))
    seats = list(lobby().seats)
    seats[3] = LobbySeat(
        name="Bot 1 (expert)", kind="bot", kid=False, connected=True, ready=True, check=None
    )
    seats[2] = LobbySeat(
        name="Bot 2 (beginner)", kind="bot", kid=False, connected=True, ready=True, check=None
    )
    screen.feed(Lobby(seats=tuple(seats), preset="official", options={}, can_start=True))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if lines:
            break
    screen.end()
    await asyncio.wait_for(task, 5)
    assert "Robot 2 (débutant) [robot]" in lines[0]
    assert lines[0].startswith("salon : ")
    assert "Bot 2" not in lines[0]


async def test_real_wrong_codes_show_the_new_code_in_the_headless_log() -> None:
    config = TableConfig(rules=preset("official"))
    table = Table(config, os.urandom, rng=random.Random(1))
    limits = ServerLimits(
        rate=5000, burst=5000, pace_free_failures=99, max_failures_per_ip=99, rotate_after=3
    )
    server = TableServer(table, limits=limits)
    await server.start()
    lines: list[str] = []
    logger = asyncio.create_task(
        log_screen(TableScreen(server), lines.append, "en", code_check_every=0.02)
    )
    try:
        first = table.room_code
        wrong = f"{(int(first) + 1) % 1_000_000:06d}"
        for _ in range(3):
            session = NetClientSession("127.0.0.1", server.port, wrong, "Eve")
            with pytest.raises(JoinError):
                await session.connect()
        assert table.room_code != first
        new = f"{table.room_code[:3]} {table.room_code[3:]}"
        for _ in range(200):
            if any(new in line for line in lines):
                break
            await asyncio.sleep(0.01)
        assert f"! Too many wrong codes: the room code is now {new}." in lines
    finally:
        logger.cancel()
        await server.close()


def test_plain_local_game_shows_no_check_number() -> None:
    session = FakeSession(seat=0)
    out = io.StringIO()
    PlainClient(session, out, lang="en", local=True).show(welcome(seat=0))
    assert "check number" not in out.getvalue().lower()
    networked = io.StringIO()
    PlainClient(FakeSession(seat=0), networked, lang="en").show(welcome(seat=0))
    assert "check number" in networked.getvalue().lower()


class CheckingSession(FakeSession):
    """Refuses what is not an action's notation, as the client core does."""

    async def act(self, notation: str) -> None:
        ActionRequest(seq=1, sid=0, a=notation)  # raises ValueError
        await super().act(notation)


def test_the_plain_clients_own_words_and_its_not_an_action_answer_are_french() -> None:
    session = CheckingSession(seat=1)
    out = io.StringIO()
    client = PlainClient(session, out, lang="fr")
    asyncio.run(client.handle_line("jouez J7"))
    assert out.getvalue() == (
        "! «jouez J7» n'est pas une action : tapez-en une comme «jouer R7» ou «piocher», le "
        "numéro d'une action proposée, ou «aide».\n"
    )
    asyncio.run(client.handle_line("aide"))
    assert "«prêt», «état», «aide», «quitter»" in out.getvalue()
    assert "«jouer +4 B», «piocher»" in out.getvalue()
    asyncio.run(client.handle_line("Prêt"))
    assert session.ready_calls == [True]
    asyncio.run(client.handle_line("jouer J7"))
    asyncio.run(client.handle_line("play R7"))  # the wire's notation, as in English
    assert session.acted == ["play Y7", "play R7"]
    assert asyncio.run(client.handle_line("quitter")) is False


def test_a_line_typed_in_error_is_said_back_short_with_control_characters_shown() -> None:
    out = io.StringIO()
    client = PlainClient(CheckingSession(seat=1), out, lang="en")
    asyncio.run(client.handle_line("x" * 5000))
    asyncio.run(client.handle_line("\x1b[2Jboo"))  # an escape sequence is not obeyed
    said = [line for line in out.getvalue().splitlines() if line.startswith("! ")]
    assert said[0] == (
        f"! '{'x' * 39}…' is not an action: type one like play R7 or draw, the number "
        "of one listed, or help."
    )
    assert said[1].startswith("! '\\x1b[2Jboo' is not an action")
    assert "\x1b" not in out.getvalue()


def test_a_wide_line_typed_in_error_is_cut_by_terminal_cells_not_characters() -> None:
    out = io.StringIO()
    client = PlainClient(CheckingSession(seat=1), out, lang="en")
    asyncio.run(client.handle_line("牌" * 30))  # 60 cells: two a character
    asyncio.run(client.handle_line("牌" * 20))  # 40 cells: fits as it is
    said = [line for line in out.getvalue().splitlines() if line.startswith("! ")]
    assert said[0].startswith(f"! '{'牌' * 19}…' is not an action")
    assert said[1].startswith(f"! '{'牌' * 20}' is not an action")


def test_a_french_hand_and_its_choices_read_as_the_french_screens_write_cards() -> None:
    client, session, out = plain("fr", seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(legal=("play YS", "play W G", "play W+4 Y", "draw", "catch 1"), sid=8))
    text = out.getvalue()
    assert "Votre main : B7 R2 +4 V+2 R7 JPa Jok BIn" in text
    assert "1. Lea : 5 cartes  2. Max : 1 carte UNO !  3. Ana ▶ : 8 cartes" in text  # not "Lea:"
    assert "1) jouer JPa  2) jouer Jok V  3) jouer +4 J  4) piocher  5) contre-uno 2" in text
    assert "YS" not in text
    assert "draw" not in text
    asyncio.run(client.handle_line("jouer jok v"))
    asyncio.run(client.handle_line("2"))
    assert session.acted == ["play W G", "play W G"]


@pytest.mark.parametrize(
    ("lang", "seats"),
    [
        ("en", "  1. Lea: 5 cards  2. Max: 1 card UNO!  3. Ana ▶: 8 cards  4. Bot Bob: 3 cards"),
        ("fr", "  1. Lea : 5 cartes  2. Max : 1 carte UNO !  3. Ana ▶ : 8 cartes  "
         "4. Bot Bob : 3 cartes"),
    ],
)  # fmt: skip
def test_the_seats_line_counts_cards_with_the_languages_colon(lang: str, seats: str) -> None:
    """In French it read "1. Bruno: 7 cartes", where French sets its colon apart."""
    client, _session, out = plain(lang, seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(sid=8))
    assert seats in out.getvalue().splitlines()


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "While you were disconnected the round went on: the top card is red 5, and "
         "you hold 3 cards."),
        ("fr", "Pendant votre déconnexion, la manche a continué : la carte du dessus est 5 "
         "rouge, et vous avez 3 cartes."),
    ],
)  # fmt: skip
def test_a_player_back_after_a_drop_reads_that_the_round_went_on(lang: str, said: str) -> None:
    """Seen in the lab: a bot played Ann's red 5 while her link was down, and her log went
    from the last move she saw straight to the next, her card gone without a word. A host
    from before M-31 sends no events of the time away: the state after the welcome says
    where the round stands (tests/ui/test_time_away.py: the events, from a host that sends
    them). Nothing is said when nothing happened meanwhile."""
    before = state(sid=7, top="B5", color="B", hand=("R5", "Y3", "G1", "B2"))
    after = state(sid=9, top="R5", color="R", hand=("Y3", "G1", "B2"))
    for resumed, expected in ((after, [said]), (before, [])):
        model = ClientModel(translator(lang))
        client, _session, out = plain(lang)
        for message in (welcome(), lobby(), before, welcome(), lobby(), resumed):
            model.apply(message, 0.0)
            client.show(message)
        told = [
            line.text
            for line in model.log.lines
            if "disconnected" in line.text or "déconnexion" in line.text
        ]
        assert told == expected
        printed = [line.strip() for line in out.getvalue().splitlines() if line.strip() == said]
        assert printed == expected


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_the_lobby_line_asks_for_ready_only_a_player_who_is_not(lang: str) -> None:
    """A plain client resumed mid-game reads the lobby before the state: it said "type
    'ready' when you are" to a player whose game was under way (seen in the lab)."""
    tr = translator(lang)
    asking = tr("plain.lobby", seats="X").split("X")[1]  # ". Type 'ready' when you are."
    for ready, asked in ((False, True), (True, False)):
        client, _session, out = plain(lang, seat=2)
        client.show(welcome(seat=2))
        client.show(lobby(ready=ready))
        [line] = [line for line in out.getvalue().splitlines() if "Ana" in line]
        assert (asking in line) is asked, line


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_nobody_is_asked_for_ready_in_a_game_under_way_nor_while_watching(lang: str) -> None:
    """Seen in the lab: a player back at a host resumed from its journal (no seat ready
    there) read "Lobby: ... Type 'ready' when you are." before the round it was in; a late
    guest watching the game read the same, and was told to compare a check number with the
    one next to a name it does not have on the shared screen."""
    tr = translator(lang)
    asking = tr("plain.lobby", seats="X").split("X")[1]
    back, _session, out = plain(lang, seat=2)
    back.show(welcome(seat=2))
    back.show(lobby(ready=False, can_start=False))  # a game under way: the host cannot start
    said = out.getvalue()
    assert asking not in said
    assert tr("plain.at_table", seats="1. Lea, 2. Max, 3. Ana, 4. Bot Bob") in said
    late, watching, out = plain(lang, seat=2)
    watching._seat = None  # type: ignore[assignment]
    late.show(welcome(seat=None))  # type: ignore[arg-type]
    late.show(lobby(ready=True, can_start=False))
    said = out.getvalue()
    assert asking not in said
    assert tr("lobby.check", check="X").split("X")[0] not in said
    assert tr("plain.at_table", seats="1. Lea, 2. Max, 3. Ana, 4. Bot Bob") in said


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_state_typed_in_the_lobby_says_who_is_there(lang: str) -> None:
    """It said nothing at all (only a round has a state to show)."""
    client, _session, out = plain(lang, seat=2)
    client.show(welcome(seat=2))
    client.show(lobby(ready=False))
    before = out.getvalue()
    asyncio.run(client.handle_line("state"))
    assert out.getvalue()[len(before) :].strip() == before.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "! There is nothing for you to do now: wait for your turn."),
        ("fr", "! Vous n'avez rien à faire maintenant : attendez votre tour."),
    ],
)
def test_a_number_typed_when_nothing_is_offered_says_so(lang: str, said: str) -> None:
    """It said "Choose 1 to 0." (seen playing line by line)."""
    client, session, out = plain(lang, seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(actor=0, turn=0, legal=(), sid=8))
    asyncio.run(client.handle_line("1"))
    assert out.getvalue().splitlines()[-1] == said
    assert session.acted == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_wrong_number_with_one_action_offered_is_not_told_1_to_1(lang: str) -> None:
    """'0' or '2' with one action offered read "Choisissez entre 1 et 1." (seen in play)."""
    tr = translator(lang)
    client, session, out = plain(lang, seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(legal=("play R7",), sid=8))
    for typed in ("0", "2"):
        asyncio.run(client.handle_line(typed))
        assert out.getvalue().splitlines()[-1] == "! " + tr("plain.choose_one")
    assert session.acted == []
    client.show(state(legal=("play R7", "draw"), sid=9))
    asyncio.run(client.handle_line("3"))
    assert out.getvalue().splitlines()[-1] == "! " + tr("plain.choose", count=2)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_ready_typed_during_a_game_says_it_is_for_the_lobby(lang: str) -> None:
    """'prêt' typed mid-round said nothing at all (the host ignores it there)."""
    tr = translator(lang)
    client, session, out = plain(lang, seat=2)
    client.show(welcome(seat=2))
    client.show(lobby(ready=False))
    asyncio.run(client.handle_line("ready"))
    assert session.ready_calls == [True]  # in the lobby: sent
    client.show(state(sid=8))
    asyncio.run(client.handle_line({"en": "ready", "fr": "prêt"}[lang]))
    assert session.ready_calls == [True]
    assert out.getvalue().splitlines()[-1] == "! " + tr("plain.ready_in_game")


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_verb_this_table_does_not_play_is_not_sent(lang: str) -> None:
    """'passer' at a kids' table read "Vous ne pouvez passer qu'après avoir pioché." (K1-4,
    K2-8: a turn passes by itself there)."""
    tr = translator(lang)
    client, session, out = plain(lang, seat=2)
    options = {"counter_uno": False, "must_play_drawn": True, "deck": "numbers"}
    client.show(Welcome(version=1, seat=2, table="Kids", preset="kids1", options=options))
    client.show(dataclasses.replace(lobby(), preset="kids1", options=options))
    client.show(state(legal=("play R7", "draw"), sid=8))
    typed = {"en": "pass", "fr": "passer"}[lang]
    asyncio.run(client.handle_line(typed))
    assert out.getvalue().splitlines()[-1] == "! " + tr("plain.not_at_table", text=typed)
    asyncio.run(client.handle_line({"en": "draw", "fr": "piocher"}[lang]))
    assert session.acted == ["draw"]


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("en", "('give 4 3' gives the first card you drew to seat 4, the second to seat 3.)"),
        (
            "fr",
            "(«donner 4 3» donne la première carte piochée à la place 4, la deuxième à la "
            "place 3.)",
        ),
    ],
)
def test_a_gift_of_two_cards_says_which_number_gets_which_card(lang: str, said: str) -> None:
    """A kids2 Draw Two gift read '1) donner 2 2  2) donner 2 3 ...' and nothing said which
    card the numbers were for (seen playing kids2 line by line)."""
    client, _session, out = plain(lang, seat=2)
    client.show(welcome(seat=2))
    client.show(lobby())
    client.show(state(legal=("give 0 1", "give 1 0", "give 3 2"), sid=8))
    assert out.getvalue().splitlines()[-1] == said
    client.show(state(legal=("give 1",), sid=9))  # one card: "give 2" says it all
    assert "(" not in out.getvalue().splitlines()[-1]


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_a_plain_client_in_a_terminal_breaks_its_lines_at_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At 80 columns the terminal cut French lines mid-word ('«couleu' / 'r V»', 'la fi' /
    'n de cette partie'); piped, the lines stay whole."""
    monkeypatch.setattr(shutil, "get_terminal_size", lambda *_a: os.terminal_size((80, 24)))
    shown = Terminal()
    tr = translator("fr")
    said = plain_help(tr, ActionWords(tr), {})
    PlainClient(FakeSession(seat=2), shown, lang="fr").say(said)
    lines = shown.getvalue().splitlines()
    assert len(lines) > 1
    assert all(len(line) <= 80 for line in lines)
    assert " ".join(lines) == said
    piped = io.StringIO()
    PlainClient(FakeSession(seat=2), piped, lang="fr").say(said)
    assert piped.getvalue() == said + "\n"


@pytest.mark.parametrize(
    ("table", "lang", "shown", "hidden"),
    [
        ("official", "en", ["play W+4 B", "color G", "catch 2", "challenge", "pass"], ["give"]),
        (
            "kids1",
            "en",
            ["play R7", "draw", "return R7"],
            ["W+4", "color", "catch", "pass", "Skip"],
        ),
        ("kids1", "fr", ["«remettre R7»", "V vert"], ["Passe", "Inversion", "Joker"]),
        ("kids2", "fr", ["«donner 2»", "«remettre R7»", "«couleur V»"], ["contre-uno", "conteste"]),
    ],
)
def test_the_line_clients_help_shows_the_actions_of_its_tables_rules(
    table: str, lang: str, shown: list[str], hidden: list[str]
) -> None:
    """The help listed every action of the official rules at a kids' table too: a Counter-UNO
    and a challenge it does not play, a Wild Draw Four its deck does not hold."""
    tr = translator(lang)
    said = plain_help(tr, ActionWords(tr), rules_options(preset(table)))
    for action in shown:
        assert action in said
    for action in hidden:
        assert action not in said


def test_terminal_lines_keep_an_indent_and_never_cut_a_long_word() -> None:
    said = "  Vous avez reçu 6 bleu, 3 bleu, 1 vert, Inversion jaune, Passe vert, 2 jaune, 4 vert."
    assert terminal_lines(said, 80) == [
        "  Vous avez reçu 6 bleu, 3 bleu, 1 vert, Inversion jaune, Passe vert, 2 jaune, 4",
        "  vert.",
    ]
    path = "/tmp/" + "x" * 90
    assert terminal_lines(f"journal: {path} (restart)", 80) == ["journal:", path, "(restart)"]


def test_ctrl_c_stops_the_line_client_before_its_host_says_goodbye() -> None:
    # Ctrl-C in lanuno play --plain cancels the client, then closes the local host: the
    # client still listening printed "The host closed the connection" to the player who quit.
    async def scenario() -> tuple[str, bool]:
        client, session, out = plain("en", seat=1)
        never = asyncio.Event()

        async def no_lines() -> AsyncIterator[str]:
            await never.wait()
            yield ""

        running = asyncio.create_task(client.run(no_lines()))
        session.feed(welcome(seat=1))
        await until(lambda: "Welcome" in out.getvalue(), "the welcome is shown")
        running.cancel()  # what asyncio.run does on Ctrl-C
        with contextlib.suppress(asyncio.CancelledError):
            await running
        session.feed(Bye(code=int(CloseCode.HOST_SHUTDOWN), reason="the host closed the table"))
        session.end()
        for _ in range(10):
            await asyncio.sleep(0)
        return out.getvalue(), session.closed

    printed, closed = asyncio.run(scenario())
    assert "closed" not in printed, printed
    assert closed


@pytest.mark.parametrize(
    ("lang", "typed", "said"),
    [
        ("en", "catch", "! 'catch' needs a seat number, counted from 1: catch 2."),
        ("en", "play", "! 'play' needs a card: play R7."),
        ("en", "color", "! 'color' needs a color: color G."),
        (
            "fr",
            "contre-uno",
            "! «contre-uno» demande un numéro de place, à partir de 1 : «contre-uno 2».",
        ),
        ("fr", "jouer", "! «jouer» demande une carte : «jouer R7»."),
        ("fr", "couleur", "! «couleur» demande une couleur : «couleur V»."),
    ],
)
def test_a_verb_typed_alone_is_told_what_it_lacks(lang: str, typed: str, said: str) -> None:
    # "catch" alone was "not an action", though the help lists it.
    out = io.StringIO()
    session = CheckingSession(seat=1)
    asyncio.run(PlainClient(session, out, lang=lang).handle_line(typed))
    assert out.getvalue() == said + "\n"
    assert session.acted == []


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_lanuno_play_does_not_ask_for_ready_before_the_game_it_starts_itself(lang: str) -> None:
    # lanuno play --plain printed "Lobby: ... Type 'ready' when you are." once per bot
    # seated, though it starts the first game by itself.
    out = io.StringIO()
    client = PlainClient(FakeSession(seat=2), out, lang=lang, local=True)
    client.show(welcome(seat=2))
    client.show(lobby(ready=False))
    ask = {"en": "Type 'ready'", "fr": "Tapez «prêt»"}[lang]
    assert ask not in out.getvalue()
    client.show(state())
    client.show(GameEnd(winner=0, scores=(512, 87, 40, 65)))
    client.show(lobby(ready=False))  # after a game, R (ready) does start the next one
    assert out.getvalue().count(ask) == 1


@pytest.mark.parametrize(
    ("lang", "told"),
    [
        (
            "en",
            "Rules: kids1. Deck: numbers only, Cards dealt: 5, Hand limit: 6, The youngest "
            "plays first, Draw only when stuck and play it if it fits, Counter-UNO: on, "
            "Points to win: none (one round).",
        ),
        (
            "fr",
            "Règles : enfants 1. Paquet : chiffres seulement, Cartes distribuées : 5, Maximum "
            "en main : 6, Le plus jeune commence, Piocher seulement si bloqué et jouer la carte "
            "si elle va, Contre-UNO : oui, Points pour gagner : aucun (une seule manche).",
        ),
    ],
)
def test_the_line_client_tells_the_tables_rules_once(lang: str, told: str) -> None:
    """The line client named the preset and nothing more: at a kids' table nobody read
    that 5 cards are dealt, 6 at most kept, nor that the host turned Counter-UNO on."""
    client, _session, out = plain(lang)
    rules = rules_from_words("kids1", ["counter_uno=on"])
    options = {k: v for k, v in rules.to_dict().items() if k != "preset"}
    kids = Welcome(version=1, seat=2, table="Kitchen", preset="kids1", options=options)
    client.show(kids)
    client.show(kids)  # a resume's welcome: the rules are said once
    assert out.getvalue().count(told) == 1


async def test_a_headless_shared_screen_tells_the_rules_and_their_changes() -> None:
    """A headless host or screen told who sat down, never the rules (a kids' table's
    5 cards, its hand limit, Counter-UNO turned on)."""
    screen = FakeScreen()
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, "en"))
    official = lobby()
    rules = rules_from_words("kids1", ["counter_uno=on"])
    options = {k: v for k, v in rules.to_dict().items() if k != "preset"}
    kids = Lobby(seats=official.seats, preset="kids1", options=options, can_start=True)
    screen.feed(official, official, kids)
    await until(lambda: any("kids1" in line for line in lines), "the new rules told")
    task.cancel()
    told = [line for line in lines if line.startswith("Rules:")]
    assert told == [
        "Rules: official. Points to win: 500.",
        "Rules: kids1. Deck: numbers only, Cards dealt: 5, Hand limit: 6, The youngest plays "
        "first, Draw only when stuck and play it if it fits, Counter-UNO: on, Points to win: "
        "none (one round).",
    ]


def test_the_same_lobby_again_is_not_printed_twice_in_a_row() -> None:
    """Back after a drop in the lobby after a game, a resume brings its welcome, the lobby,
    and the lobby again after the results (which the session had already): one line."""
    client, _session, out = plain(seat=1)
    for message in (welcome(seat=1), lobby(ready=False), welcome(seat=1), lobby(ready=False)):
        client.show(message)
    client.show(lobby(ready=False))
    lines = out.getvalue().splitlines()
    assert len([line for line in lines if line.startswith("Lobby: ")]) == 2  # one each welcome
    assert lines[-1].startswith("Lobby: ")
    assert lines[-2].startswith("Your check number")


def test_a_player_whose_seat_was_freed_reads_the_lobby_they_join_again() -> None:
    """Seen in the lab: back after the lobby had freed her seat, a line client joined
    again ('joining the table again', a welcome to seat 4) and printed no lobby: it still
    held the state of the game it had left, and a lobby is said only outside a game."""
    client, _session, out = plain(seat=1)
    for message in (welcome(seat=1), lobby(ready=False), state(), SeatLost(), welcome(seat=3)):
        client.show(message)
    client.show(lobby(ready=False))
    assert out.getvalue().splitlines()[-1].startswith("Lobby: ")


async def test_headless_log_tells_the_autopilot_once_when_the_lobby_says_it_too() -> None:
    """The host's lobby now marks a seat on T3's autopilot 'bot playing' (a screen paired
    late learns it there); the log told it from the event already: one line."""
    screen = FakeScreen()
    lines: list[str] = []
    task = asyncio.create_task(log_screen(screen, lines.append, "en", code_check_every=0.02))
    seats = list(lobby().seats)
    screen.feed(lobby(can_start=False), *opening_events(), state(hand=(), legal=()))
    seats[1] = dataclasses.replace(seats[1], bot_playing=True)
    screen.feed(event("autopilot", seat=1, on=True))
    screen.feed(Lobby(seats=tuple(seats), preset="official", options={}, can_start=False))
    for _ in range(100):
        await asyncio.sleep(0.01)
        if screen.queue.empty():
            break
    screen.end()
    await asyncio.wait_for(task, 5)
    assert lines.count("A bot plays for Max until they come back.") == 1


def test_back_at_ones_turn_after_a_host_restart_the_turn_is_shown_again() -> None:
    """Seen in the lab: a host restarted while it was Ann's turn; back, her line client
    printed the welcome and its check number, and no turn: 'You may: ...' was lines above
    the drop, and her move timer ran out."""
    client, session, out = plain(seat=2)
    turn = state(sid=9)
    for message in (welcome(seat=2), lobby(can_start=False), turn):
        client.show(message)
    session.connection_state = "reconnecting"
    client.note_connection()
    session.connection_state = "connected"
    before = out.getvalue()
    for message in (welcome(seat=2), lobby(can_start=False), turn):  # nothing happened
        client.show(message)
    after = out.getvalue()[len(before) :]
    assert "You may: " in after
    assert after.rstrip().splitlines()[-1].startswith("You may: ")


@pytest.mark.parametrize(
    ("lang", "says"), [("en", "is sent when it is back"), ("fr", "à son retour")]
)
async def test_plain_says_an_action_typed_while_the_host_is_away_waits_for_it(
    lang: str, says: str
) -> None:
    """Typed while reconnecting, "pass" went out silently and was played minutes later."""
    client, session, out = plain(lang)
    client.show(welcome())
    client.show(state(legal=("draw",)))
    await client.handle_line("1")
    assert session.acted == ["draw"]
    assert says not in out.getvalue()
    session.connection_state = "reconnecting"
    await client.handle_line("1")
    assert session.acted == ["draw", "draw"]  # still sent: the core delivers it on return
    assert says in out.getvalue()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_plain_player_is_told_who_is_away_played_by_a_bot_and_back(lang: str) -> None:
    """A player's line client said nothing while Max was away, then "Max played green 9."
    as if Max had played; the shared screen said "away", then "bot playing"."""
    tr = translator(lang)
    client, _session, out = plain(lang)
    client.show(welcome())
    client.show(lobby())
    client.show(state())
    seats = list(lobby().seats)
    max_seat = seats[1]
    seats[1] = dataclasses.replace(max_seat, connected=False, check=None)
    client.show(Lobby(seats=tuple(seats), preset="official", options={}, can_start=False))
    seats[1] = dataclasses.replace(seats[1], bot_playing=True)
    client.show(Lobby(seats=tuple(seats), preset="official", options={}, can_start=False))
    seats[1] = dataclasses.replace(max_seat, check=271828)
    client.show(Lobby(seats=tuple(seats), preset="official", options={}, can_start=False))
    text = out.getvalue()
    name = client.name_of(1)
    assert tr("plain.away", name=name) in text
    assert tr("ev.autopilot_on", name=name) in text
    assert tr("plain.back", name=name, check="271 828") in text
    assert text.count(tr("ev.autopilot_on", name=name)) == 1

"""ClientModel: what each message does to it and what each key sends (no terminal)."""

from __future__ import annotations

import pytest
from ui_fakes import event, lobby, opening_events, state, welcome

from lanuno.ui import client_model
from lanuno.ui.client_model import ClientModel, Picker
from lanuno.ui.i18n import translator
from lanuno.wire.messages import (
    ACTION_NOTATIONS,
    Bye,
    ErrorReply,
    GameEnd,
    Lobby,
    RoundEnd,
    UnoFlags,
    Welcome,
)

NOW = 50.0


def model_with(*messages: object, lang: str = "en") -> ClientModel:
    model = ClientModel(translator(lang))
    for message in (welcome(), lobby(), *messages):
        model.apply(message, NOW)  # type: ignore[arg-type]
    return model


def test_hand_is_sorted_by_color_then_value_with_wilds_last() -> None:
    model = model_with(state())
    assert model.hand == ("R2", "R7", "YS", "G+2", "B7", "BR", "W", "W+4")


def test_legal_cards_are_those_the_host_lists_in_either_wild_form() -> None:
    model = model_with(state(legal=("play R7", "play W B", "return G+2", "draw")))
    assert [c for c in model.hand if model.card_is_legal(c)] == ["R7", "G+2", "W"]


def test_new_decision_selects_the_first_playable_card() -> None:
    model = model_with(state(legal=("play B7", "draw")))
    assert model.selected_card == "B7"


def test_selection_follows_the_same_card_across_updates() -> None:
    model = model_with(state())
    model.select(model.hand.index("G+2"))
    model.apply(state(hand=("G+2", "R0", "R1"), sid=8), NOW)
    assert model.selected_card == "G+2"


def test_enter_plays_a_colored_card() -> None:
    model = model_with(state())
    model.select(model.hand.index("R7"))
    assert model.activate() == ("play R7",)


def test_a_card_not_listed_is_still_sent_so_the_host_can_say_why() -> None:
    model = model_with(state())
    assert model.play_index(model.hand.index("YS")) == ("play YS",)


def test_wild_opens_a_color_picker_and_plays_with_its_color_in_one_action() -> None:
    model = model_with(state())
    assert model.play_index(model.hand.index("W+4")) == ()
    assert model.picker == Picker("color", ("R", "Y", "G", "B"), card="W+4")
    assert model.choose_color("B") == ("play W+4 B",)
    assert model.picker is None


def test_wild_falls_back_to_two_steps_where_the_wire_has_no_play_with_color(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    plain = frozenset(a for a in ACTION_NOTATIONS if a.count(" ") < 2 or a.startswith("give"))
    monkeypatch.setattr(client_model, "ACTION_NOTATIONS", plain)
    model = model_with(state())
    model.play_index(model.hand.index("W"))
    model.picker_move(1)
    assert model.activate() == ("play W",)
    colors = ("color R", "color Y", "color G", "color B")
    chooser = state(hand=("R2",), phase="choose_color", legal=colors)
    assert model.apply(chooser, NOW) == ("color Y",)
    assert model.picker is None


def test_escape_drops_the_wild_color_picker() -> None:
    model = model_with(state())
    model.play_index(model.hand.index("W"))
    model.cancel()
    assert model.picker is None


def test_choose_color_phase_opens_a_picker_that_sends_color() -> None:
    model = model_with(state(phase="choose_color", legal=("color R", "color G")))
    assert model.picker is not None
    assert model.picker.options == ("R", "G")
    model.cancel()  # the host is waiting: Esc does not drop it
    assert model.picker is not None
    assert model.choose(1) == ("color G",)


def test_gift_picker_asks_for_both_recipients() -> None:
    gives = tuple(f"give {a} {b}" for a in (0, 1, 3) for b in (0, 1, 3))
    model = model_with(state(phase="gift", legal=gives))
    assert model.picker is not None
    assert model.picker.options == ("0", "1", "3")
    assert model.choose(2) == ()
    assert model.picker is not None
    assert model.picker.first == 3
    model.apply(state(phase="gift", legal=gives, sid=9), NOW)  # unrelated update keeps it
    assert model.choose(0) == ("give 3 0",)


def test_gift_of_a_single_card_has_one_recipient() -> None:
    model = model_with(state(phase="gift", legal=("give 0", "give 1")))
    assert model.choose(1) == ("give 1",)


@pytest.mark.parametrize(("phase", "verb"), [("choose_target", "target"), ("swap", "swap")])
def test_seat_pickers(phase: str, verb: str) -> None:
    model = model_with(state(phase=phase, legal=(f"{verb} 0", f"{verb} 1", f"{verb} 3")))
    model.picker_move(-1)
    assert model.activate() == (f"{verb} 3",)


def test_excess_returns_the_selected_card() -> None:
    model = model_with(state(phase="excess", legal=("return R2", "return W")))
    model.select(model.hand.index("W"))
    assert model.activate() == ("return W",)


@pytest.mark.parametrize(
    ("lang", "prompt"),
    [
        ("en", "Too many cards, 6 at most: return 2 cards under the draw pile."),
        ("fr", "Trop de cartes, 6 au plus : remettez 2 cartes sous la pioche."),
    ],
)
def test_the_excess_prompt_says_how_many_cards_go_back(lang: str, prompt: str) -> None:
    kids = Welcome(version=1, seat=2, table="Kids", preset="kids2", options={"hand_limit": 6})
    hand = ("R2", "R7", "YS", "G+2", "B7", "BR", "W", "W+4")
    model = model_with(kids, state(phase="excess", hand=hand, legal=("return R2",)), lang=lang)
    assert model.prompt(NOW) == prompt


def test_picker_closes_when_the_decision_moves_to_someone_else() -> None:
    model = model_with(state(phase="swap", legal=("swap 0", "swap 1")))
    model.apply(state(turn=3, actor=3, legal=(), sid=8), NOW)
    assert model.picker is None


def test_counter_uno_uses_the_listed_catch_or_the_exposed_flag() -> None:
    model = model_with(state(actor=0, turn=0, legal=("catch 1",)))
    assert model.catch() == ("catch 1",)
    exposed = (UnoFlags(False, False),) * 3 + (UnoFlags(False, True),)
    model.apply(state(actor=0, turn=0, legal=(), uno=exposed), NOW)
    assert model.catch() == ("catch 3",)
    model.apply(state(actor=0, turn=0, legal=()), NOW)
    assert model.catch() == ()


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_a_key_this_table_does_not_use_says_so_and_sends_nothing(lang: str) -> None:
    """P at a kids1 table sent 'pass' and read "You may pass only after drawing a card.",
    though a turn passes by itself there (K1-4); C and A, with no Wild Draw Four in the
    deck, read "Not now: play a card or draw."."""
    options = {"counter_uno": False, "must_play_drawn": True, "deck": "numbers"}
    kids = Welcome(version=1, seat=2, table="Kids", preset="kids1", options=options)
    model = model_with(kids, state(legal=("play R7", "draw")), lang=lang)
    for verb in ("pass", "challenge", "accept"):
        assert model.simple(verb) == ()
        assert model.refusal == translator(lang)("refusal.no_key")
    assert model.simple("draw") == ("draw",)
    assert model.refusal is None
    official = model_with(state(legal=("play R7", "draw")), lang=lang)
    assert official.simple("pass") == ("pass",)


@pytest.mark.parametrize("lang", ["en", "fr"])
def test_counter_uno_with_nobody_to_catch_says_so(lang: str) -> None:
    # K with nobody exposed sent nothing and said nothing: the key seemed dead.
    model = model_with(state(actor=0, turn=0, legal=()), lang=lang)
    assert model.catch() == ()
    assert model.refusal == translator(lang)("catch.nobody")
    assert model.refusal.startswith({"en": "Nobody to catch", "fr": "Personne à contrer"}[lang])
    kids = Welcome(version=1, seat=2, table="Kids", preset="kids1", options={"counter_uno": False})
    model = model_with(kids, state(actor=0, turn=0, legal=()), lang=lang)
    assert model.catch() == ()
    assert model.refusal == translator(lang)("refusal.no_counter_uno")


def test_simple_keys_send_their_verb() -> None:
    model = model_with(state())
    assert [model.simple(v) for v in ("draw", "pass", "uno", "challenge", "accept")] == [
        ("draw",),
        ("pass",),
        ("uno",),
        ("challenge",),
        ("accept",),
    ]


def test_refusal_shows_the_host_sentence_and_the_rule() -> None:
    model = model_with(state())
    model.apply(
        ErrorReply(code="illegal", rule="O12", text="That card does not match.", seq=4), NOW
    )
    assert model.refusal == "That card does not match."
    assert model.log.lines[-1].text == "Refused. That card does not match. (rule O12)"
    model.activate()
    assert model.refusal is None


def test_a_refusal_goes_when_a_new_decision_comes_and_stays_in_the_log() -> None:
    model = model_with(state(turn=0, actor=0, legal=()))
    not_yours = "It is not your turn: waiting for Lea."
    model.apply(ErrorReply(code="illegal", rule="O10", text=not_yours, seq=4), NOW)
    model.apply(state(turn=1, actor=1, legal=(), sid=8), NOW)  # still someone else's turn
    assert model.refusal == not_yours
    model.apply(state(sid=9), NOW)  # now ours: the refusal answered an earlier moment
    assert model.refusal is None
    assert model.log.lines[-1].text == f"Refused. {not_yours} (rule O10)"
    model.apply(
        ErrorReply(code="illegal", rule="O12", text="That card does not match.", seq=5), NOW
    )
    model.apply(state(sid=10), NOW)  # the same decision: it stays
    assert model.refusal == "That card does not match."


def test_choosing_another_card_puts_the_selection_back_in_place_of_a_refusal() -> None:
    # "Refused: yellow 2 does not match..." stayed while the player moved to another card,
    # and hid the "Selected: ..." that names it.
    model = model_with(state())
    model.select(0)
    refused = "red 2 does not match red 9 (the color is red)."
    model.apply(ErrorReply(code="illegal", rule="O10", text=refused, seq=4), NOW)
    model.select(0)  # the same card: the refusal is still about it
    assert model.refusal == refused
    model.move(1)
    assert model.refusal is None
    assert model.log.lines[-1].text == f"Refused: {refused} (rule O10)"
    model.apply(ErrorReply(code="illegal", rule="O10", text=refused, seq=5), NOW)
    model.select(4)
    assert model.refusal is None


def test_wild_and_its_color_read_as_one_sentence() -> None:
    model = model_with(*opening_events())
    texts = [line.text for line in model.log.lines]
    assert "Lea played Wild Draw Four and chose blue." in texts
    assert "Lea played Wild Draw Four." not in texts


def test_color_chosen_by_someone_else_stays_its_own_sentence() -> None:
    model = model_with(
        event("played", seat=0, card="W", jump_in=False), event("color_chosen", seat=1, color="G")
    )
    assert [line.text for line in model.log.lines[-2:]] == [
        "Lea played Wild.",
        "Max chose green.",
    ]


def test_french_sentences() -> None:
    model = model_with(*opening_events(), lang="fr")
    assert "Lea a joué Joker +4 et choisi le bleu." in [line.text for line in model.log.lines]


def test_move_timer_counts_down_from_the_state_deadline() -> None:
    model = model_with(state(deadline_ms=23_000))
    assert model.seconds_left(NOW) == 23
    assert model.seconds_left(NOW + 10.2) == 13
    assert model.seconds_left(NOW + 99) == 0
    model.apply(state(deadline_ms=None), NOW)
    assert model.seconds_left(NOW) is None


def test_prompts_by_phase() -> None:
    assert model_with(state()).prompt(NOW) == "Your turn: play a card or draw."
    waiting = model_with(state(turn=0, actor=0, legal=()))
    assert waiting.prompt(NOW) == "Waiting for Lea..."
    penalty = model_with(state(phase="penalty", pending=4, legal=("accept",)))
    assert penalty.prompt(NOW) == "4 cards are coming your way: take them."


@pytest.mark.parametrize(
    ("legal", "en", "fr"),
    [
        (("accept",), "take them.", "prenez-les."),
        (("accept", "play G+2"), "take them, or stack.", "prenez-les ou empilez."),
        (("accept", "challenge"), "take them, or challenge.", "prenez-les ou contestez."),
        (
            ("accept", "challenge", "play W+4 B"),
            "take them, stack, or challenge.",
            "prenez-les, empilez ou contestez.",
        ),
    ],
)
def test_the_penalty_prompt_names_only_the_answers_allowed(
    legal: tuple[str, ...], en: str, fr: str
) -> None:
    """A Draw Two cannot be challenged (O21), and stacking is an option (T1)."""
    english = model_with(state(phase="penalty", pending=2, legal=legal))
    assert english.prompt(NOW) == f"2 cards are coming your way: {en}"
    french = model_with(state(phase="penalty", pending=2, legal=legal), lang="fr")
    assert french.prompt(NOW) == f"2 cartes pour vous : {fr}"


@pytest.mark.parametrize(
    ("legal", "en", "fr"),
    [
        (
            ("play R2", "draw"),
            "Your turn: play a card or draw.",
            "À vous : jouez une carte ou piochez.",
        ),
        (("play R2", "uno"), "Your turn: play a card.", "À vous : jouez une carte."),
        (
            ("draw",),
            "Your turn: no card fits, draw one.",
            "À vous : aucune carte ne convient, piochez.",
        ),
    ],
)
def test_the_turn_prompt_offers_a_draw_only_where_one_is_allowed(
    legal: tuple[str, ...], en: str, fr: str
) -> None:
    """K1-4: a kids' table has no voluntary draw; it said "play a card or draw" all the same."""
    assert model_with(state(legal=legal)).prompt(NOW) == en
    assert model_with(state(legal=legal), lang="fr").prompt(NOW) == fr


def test_seat_rows_carry_counts_flags_and_turn() -> None:
    rows = model_with(state()).seat_rows()
    assert [(r.name, r.count, r.declared, r.is_me, r.is_actor) for r in rows] == [
        ("Lea", 5, False, False, False),
        ("Max", 1, True, False, False),
        ("Ana", 8, False, True, True),
        ("Bot Bob", 3, False, False, False),
    ]


def test_round_end_then_next_round_then_game_end() -> None:
    model = model_with(state())
    model.apply(RoundEnd(round=1, winner=1, points=87, scores=(120, 87, 40, 65)), NOW)
    assert model.screen == "round_end"
    assert model.final_scores()[0] == ("Lea", 120, False, False)
    assert ("Max", 87, True, False) in model.final_scores()
    assert ("Ana", 40, False, True) in model.final_scores()  # seat 2: this player
    model.apply(state(round_no=2, sid=20), NOW)
    assert model.screen == "play"
    model.apply(GameEnd(winner=0, scores=(512, 87, 40, 65)), NOW)
    assert model.screen == "game_end"
    assert model.final_scores()[0] == ("Lea", 512, True, False)


def test_unknown_seat_names_fall_back_to_a_number() -> None:
    model = ClientModel(translator("en"))
    assert model.name_of(3) == "Seat 4"


def test_bye_is_logged_with_its_reason() -> None:
    model = model_with(state())
    model.apply(Bye(code=1, reason="host is closing the table"), NOW)
    assert model.log.lines[-1].text == "The host closed the connection: host is closing the table"


def test_a_guest_who_comes_between_two_rounds_sees_the_table_not_a_lobby() -> None:
    """A late guest in the hall got 'Lobby: Table 1' with its players 'offline', under a
    table whose round 1 was over (its players away, bots playing): not a lobby at all."""
    late = ClientModel(translator("en"))
    between = state(hand=(), legal=(), phase="round_over", actor=None)
    for message in (welcome(seat=None), lobby(can_start=False), between):  # type: ignore[arg-type]
        late.apply(message, NOW)
    assert late.screen == "play"
    assert model_with(state(phase="game_over", actor=None)).screen == "lobby"  # game over


def test_the_game_end_keeps_the_games_names_and_this_players_row_after_seats_move() -> None:
    """The lobby after the game freed seat 1 (Max, away): Ana, this player, is told her new
    seat (a welcome), and the scores on screen must not change hands."""
    model = model_with(state())
    model.apply(RoundEnd(round=1, winner=2, points=60, scores=(5, 0, 60, 30)), NOW)
    model.apply(GameEnd(winner=2, scores=(5, 0, 60, 30)), NOW)
    lea, _max, ana, bot = lobby().seats
    model.apply(welcome(seat=1), NOW)
    model.apply(Lobby(seats=(lea, ana, bot), preset="official", options={}, can_start=True), NOW)
    assert model.final_scores() == [
        ("Ana", 60, True, True),
        ("Bot Bob", 30, False, False),
        ("Lea", 5, False, False),
        ("Max", 0, False, False),
    ]


def test_T3_a_seat_on_autopilot_is_here_again_when_the_next_round_starts() -> None:
    """The engine's autopilot lasts one round; no event turns it off at the next deal."""
    model = model_with(welcome(), lobby(), state())
    model.apply(event("autopilot", seat=0, on=True), NOW)
    assert model.presence_of(0) == "bot"
    model.apply(event("round_started", round_no=2, dealer=1), NOW)
    assert model.presence_of(0) == "here"


def test_the_log_scrolled_back_shows_the_newest_lines_when_the_turn_comes() -> None:
    """PgUp, then the others play: the turn came with the log still scrolled back, and
    what was just played out of sight."""
    model = model_with(state(actor=0, turn=0, legal=()))
    model.scroll_log(5)
    model.apply(state(actor=1, turn=1, legal=(), sid=8), NOW)
    assert model.log_scroll == 5  # someone else's turn: the reader is left alone
    model.apply(state(sid=9), NOW)
    assert model.log_scroll == 0

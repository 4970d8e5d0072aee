"""What a seat may do: one set of predicates, behind both the legal list and the refusals.

Each rule of legality is written once here, as a predicate over the round. Two things are
built from the same predicates, so they cannot disagree:

- :func:`legal_actions`: every useful action a seat may take now (what the interface
  highlights and the bots choose from);
- the ``check_*`` functions: called by :meth:`lanuno.engine.round.Round.apply` before an
  action changes anything, they raise :class:`IllegalAction` with the rule's ID and a
  sentence the player understands.

The matching rule of O10 (a colored card goes on its color or its symbol) is the hottest
question of the engine: :func:`legal_actions` spells :func:`fits` out inline for colored
cards (a call costs twice the expression), and ``tests/engine/test_legal.py`` checks that
the list and the refusals accept exactly the same actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from lanuno.engine.actions import (
    AcceptPenalty,
    Action,
    Challenge,
    ChooseColor,
    ChooseTarget,
    CounterUno,
    DeclareUno,
    Draw,
    Give,
    Pass,
    Play,
    ReturnCard,
    SwapHands,
)
from lanuno.engine.cards import ALL_FACES, COLORS, Card, Color, Rank
from lanuno.engine.errors import IllegalAction
from lanuno.engine.phases import ACTOR_ACTIONS, WAITING_FOR, Phase
from lanuno.engine.rules import MAX_SEATS, WildDrawFour

if TYPE_CHECKING:
    from lanuno.engine.round import Round

# ----------------------------------------------------------------- shared values

# Actions are immutable values: each one is built once and shared (the legal lists are
# rebuilt on every decision, so this keeps them allocation-free).
PLAYS = [[Play(seat, card) for card in ALL_FACES] for seat in range(MAX_SEATS)]
WILD_PLAYS = [
    [
        tuple(Play(seat, card, color) for color in COLORS) if card.color is None else ()
        for card in ALL_FACES
    ]
    for seat in range(MAX_SEATS)
]
RETURNS = [[ReturnCard(seat, card) for card in ALL_FACES] for seat in range(MAX_SEATS)]
DRAWS = [Draw(seat) for seat in range(MAX_SEATS)]
PASSES = [Pass(seat) for seat in range(MAX_SEATS)]
ACCEPTS = [AcceptPenalty(seat) for seat in range(MAX_SEATS)]
CHALLENGES = [Challenge(seat) for seat in range(MAX_SEATS)]
UNOS = [DeclareUno(seat) for seat in range(MAX_SEATS)]
COLOR_CHOICES = [tuple(ChooseColor(seat, c) for c in COLORS) for seat in range(MAX_SEATS)]

BITS = tuple(1 << card.index for card in ALL_FACES)
"""One bit per card face: a hand may hold two of the same card, the lists name it once."""

# Enum members read through their class cost ~60 ns, a module global ~8 ns.
_TURN = Phase.TURN
_DRAWN = Phase.DRAWN
_CHOOSE_COLOR = Phase.CHOOSE_COLOR
_PENALTY = Phase.PENALTY
_GIFT = Phase.GIFT
_CHOOSE_TARGET = Phase.CHOOSE_TARGET
_SWAP = Phase.SWAP
_EXCESS = Phase.EXCESS
_ROUND_OVER = Phase.ROUND_OVER
_DRAW_TWO = Rank.DRAW_TWO
_WILD_DRAW_FOUR = Rank.WILD_DRAW_FOUR
_UNO_PHASES = (_TURN, _DRAWN, _PENALTY)

# ----------------------------------------------------------------- the predicates


def holds_color(hand: list[Card], color: Color | None) -> bool:
    for card in hand:  # noqa: SIM110 (a plain loop is twice as fast as any() here)
        if card.color is color:
            return True
    return False


def fits(rnd: Round, card: Card, hand: list[Card]) -> bool:
    """Whether ``card`` may be played on the current top card by the holder of ``hand``:
    O10 for colored cards; any wild, but under O22 a Wild Draw Four only without a card of
    the current color."""
    if card.color is None:
        if rnd._strict_wd4 and card.rank is _WILD_DRAW_FOUR:
            return not holds_color(hand, rnd.color)
        return True
    return card.color is rnd.color or card.rank is rnd.discard[-1].rank


def may_draw(rnd: Round, seat: int) -> bool:
    """O14: drawing is always allowed, except under K1-4 / K2-8 while a card fits."""
    if rnd.rules.voluntary_draw:
        return True
    hand = rnd.hands[seat]
    return not any(fits(rnd, card, hand) for card in hand)


def must_play_drawn(rnd: Round, seat: int) -> bool:
    """K1-4 / K2-8; KA6: an adult who drew until playable (KA2) must play that card."""
    return rnd.rules.must_play_drawn or (
        rnd.rules.adults_draw_until_playable and not rnd.kids[seat]
    )


def may_stack(rnd: Round, seat: int) -> bool:
    """T1 / KA3, and never once someone is out (O27: the next player takes the penalty)."""
    rules = rnd.rules
    if not (rules.stacking or (rules.kids_stack and rnd.kids[seat])):
        return False
    return all(rnd.hands)


def stackable(rnd: Round, card: Card, hand: list[Card]) -> bool:
    """T1: a Draw Two on a Draw Two, or a Wild Draw Four that may be played here."""
    if card.rank is _DRAW_TWO:
        return rnd.discard[-1].rank is _DRAW_TWO
    return card.rank is _WILD_DRAW_FOUR and fits(rnd, card, hand)


def challengeable(rnd: Round) -> bool:
    """O21: the penalty comes from a Wild Draw Four at a table that allows challenges."""
    return (
        rnd.rules.wild_draw_four is WildDrawFour.CHALLENGE
        and rnd.discard[-1].rank is _WILD_DRAW_FOUR
    )


def may_declare(rnd: Round, seat: int) -> bool:
    """O23: with two cards on your own turn (before playing one), or with one card."""
    if rnd.declared[seat]:
        return False
    size = len(rnd.hands[seat])
    if size == 1:
        return True
    if size != 2:
        return False
    if seat == rnd.actor:
        return rnd.phase in _UNO_PHASES
    return can_jump_in(rnd, seat)  # T6 + O23: say UNO, then jump in


def jump_in_open(rnd: Round) -> bool:
    """T6: a card was just played and the next player has not acted (no penalty waits)."""
    return (
        rnd.rules.jump_in
        and rnd.phase is _TURN
        and not rnd.pending_penalty
        and rnd.jump_window is not None
    )


def can_jump_in(rnd: Round, seat: int) -> bool:
    """T6: ``seat`` holds the card identical to the top card while jumping in is open."""
    top = rnd.discard[-1]
    return (
        jump_in_open(rnd) and seat != rnd.actor and top.color is not None and top in rnd.hands[seat]
    )


def penalty_has_choice(rnd: Round, target: int) -> bool:
    """Whether the penalty's target may do more than draw (challenge or stack)."""
    if challengeable(rnd):
        return True
    if not may_stack(rnd, target):
        return False
    hand = rnd.hands[target]
    return any(stackable(rnd, card, hand) for card in hand)


def check_other_seat(rnd: Round, seat: int, target: object, rule: str, sentence: str) -> None:
    """``target`` (of a catch, a swap, a gift) names another seat of this table: a number
    past the table is no seat at all (said so, not "choose another player"); ``seat`` itself
    is refused under ``rule`` with ``sentence``."""
    if type(target) is not int or not 0 <= target < rnd.n:
        raise IllegalAction("O1", f"There is no seat {target!r} at this table.")
    if target == seat:
        raise IllegalAction(rule, sentence)


# ----------------------------------------------------------------- the legal list


def legal_actions(rnd: Round, seat: int) -> list[Action]:
    """Every action ``seat`` may usefully take now: what the interface highlights and
    what bots choose from. (A Counter-UNO on a seat that is not exposed is accepted as a
    harmless miss, O25, and a wild played without its color asks for it afterwards; the
    list names neither.)"""
    phase = rnd.phase
    if phase is _ROUND_OVER:
        return []
    hand = rnd.hands[seat]
    if seat != rnd.actor:
        out: list[Action] = [PLAYS[seat][rnd.discard[-1].index]] if can_jump_in(rnd, seat) else []
    elif phase is _TURN:
        out = _turn_options(rnd, seat, hand)
    else:
        out = _ACTOR_OPTIONS[phase](rnd, seat, hand)
    if len(hand) <= 2 and may_declare(rnd, seat):
        out.append(UNOS[seat])
    exposed = rnd.exposed
    if exposed is not None and exposed != seat:
        out.append(CounterUno(seat, exposed))
    return out


def _turn_options(rnd: Round, seat: int, hand: list[Card]) -> list[Action]:
    """TURN: each distinct card that fits (a wild once per color), then the draw."""
    out: list[Action] = []
    plays = PLAYS[seat]
    seen = 0
    color, top_rank = rnd.color, rnd.discard[-1].rank
    for card in hand:
        suit = card.color
        if suit is None:
            bit = BITS[card.index]
            if not seen & bit and fits(rnd, card, hand):
                seen |= bit
                out.extend(WILD_PLAYS[seat][card.index])
        elif suit is color or card.rank is top_rank:  # fits(), inlined (O10)
            bit = BITS[card.index]
            if not seen & bit:
                seen |= bit
                out.append(plays[card.index])
    if rnd.rules.voluntary_draw or not out:  # may_draw(), from the plays just found
        out.append(DRAWS[seat])
    return out


def _drawn_options(rnd: Round, seat: int, _hand: list[Card]) -> list[Action]:
    drawn = rnd.drawn_card
    assert drawn is not None
    out: list[Action] = []
    if drawn.color is None:
        out.extend(WILD_PLAYS[seat][drawn.index])
    else:
        out.append(PLAYS[seat][drawn.index])
    if not must_play_drawn(rnd, seat):
        out.append(PASSES[seat])
    return out


def _color_options(_rnd: Round, seat: int, _hand: list[Card]) -> list[Action]:
    return list(COLOR_CHOICES[seat])


def _penalty_options(rnd: Round, seat: int, hand: list[Card]) -> list[Action]:
    out: list[Action] = [ACCEPTS[seat]]
    if challengeable(rnd):
        out.append(CHALLENGES[seat])
    if may_stack(rnd, seat):
        seen = 0
        for card in hand:
            bit = BITS[card.index]
            if not seen & bit and stackable(rnd, card, hand):
                seen |= bit
                if card.color is None:
                    out.extend(WILD_PLAYS[seat][card.index])
                else:
                    out.append(PLAYS[seat][card.index])
    return out


def _gift_options(rnd: Round, seat: int, _hand: list[Card]) -> list[Action]:
    opponents = [s for s in range(rnd.n) if s != seat]
    if len(rnd.gift_cards) == 2:
        return [Give(seat, (a, b)) for a in opponents for b in opponents]
    return [Give(seat, (a,)) for a in opponents]


def _target_options(rnd: Round, seat: int, _hand: list[Card]) -> list[Action]:
    return [ChooseTarget(seat, s) for s in range(rnd.n) if s != seat]


def _swap_options(rnd: Round, seat: int, _hand: list[Card]) -> list[Action]:
    return [SwapHands(seat, s) for s in range(rnd.n) if s != seat]


def _excess_options(_rnd: Round, seat: int, hand: list[Card]) -> list[Action]:
    out: list[Action] = []
    seen = 0
    for card in hand:
        bit = BITS[card.index]
        if not seen & bit:
            seen |= bit
            out.append(RETURNS[seat][card.index])
    return out


_ACTOR_OPTIONS: dict[Phase, Callable[[Round, int, list[Card]], list[Action]]] = {
    _DRAWN: _drawn_options,
    _CHOOSE_COLOR: _color_options,
    _PENALTY: _penalty_options,
    _GIFT: _gift_options,
    _CHOOSE_TARGET: _target_options,
    _SWAP: _swap_options,
    _EXCESS: _excess_options,
}
"""The actor's options in each phase but TURN (the common case, listed inline)."""


# ----------------------------------------------------------------- the refusals


def check_actor(rnd: Round, action: Action) -> None:
    """The action is the actor's, and one the current phase waits for."""
    if action.seat != rnd.actor:
        raise IllegalAction("O10", f"It is not your turn: waiting for seat {rnd.actor}.")
    if type(action) not in ACTOR_ACTIONS[rnd.phase]:
        if rnd.phase is _DRAWN and must_play_drawn(rnd, action.seat):
            # Not "play the card you drew, or pass": passing is not allowed either.
            rule = draw_rule(rnd) if rnd.rules.must_play_drawn else "KA6"
            raise IllegalAction(rule, "The card you drew fits: it must be played.")
        rule, what = WAITING_FOR[rnd.phase]
        raise IllegalAction(rule, f"Not now: {what}.")


def check_play(rnd: Round, action: Play) -> None:
    seat, card, color = action.seat, action.card, action.color
    if not isinstance(card, Card):
        raise IllegalAction("O10", "That is not a card.")
    if color is not None and (card.color is not None or not isinstance(color, Color)):
        raise IllegalAction("O11", "Only a wild card takes a color, and it must be a color.")
    if seat != rnd.actor:
        _check_jump_in(rnd, seat, card)
        return
    phase = rnd.phase
    if phase is _TURN:
        hand = rnd.hands[seat]
        if card not in hand:
            raise IllegalAction("O10", f"You do not hold {card.words}.")
        if not fits(rnd, card, hand):
            _refuse_misfit(rnd, card)
    elif phase is _DRAWN:
        if card not in rnd.hands[seat]:  # first: "only the card you drew" misleads here
            raise IllegalAction("O10", f"You do not hold {card.words}.")
        if card is not rnd.drawn_card:
            raise IllegalAction("O13", "After drawing you may play only the card you drew.")
    elif phase is _PENALTY:
        _check_stack(rnd, seat, card)
    else:
        check_actor(rnd, action)  # Play is not awaited in this phase: say what is


def _refuse_misfit(rnd: Round, card: Card) -> None:
    if card.rank is _WILD_DRAW_FOUR:
        raise IllegalAction(
            "O12",
            f"You hold a {rnd.color.word if rnd.color else ''} card: "
            "Wild Draw Four is only allowed when you have no card of the current color.",
        )
    top = rnd.discard[-1]
    color = rnd.color.word if rnd.color else "?"
    raise IllegalAction("O10", f"{card.words} does not match {top.words} (the color is {color}).")


def _check_jump_in(rnd: Round, seat: int, card: Card) -> None:
    if not rnd.rules.jump_in:
        raise IllegalAction("O10", f"It is not your turn: waiting for seat {rnd.actor}.")
    if not jump_in_open(rnd):
        raise IllegalAction("T6", "You can only jump in before the next player acts.")
    if card is not rnd.discard[-1] or card.color is None:
        raise IllegalAction("T6", "To jump in, play a card identical to the top card.")
    if card not in rnd.hands[seat]:
        raise IllegalAction("O10", f"You do not hold {card.words}.")


def _check_stack(rnd: Round, seat: int, card: Card) -> None:
    if not may_stack(rnd, seat):
        raise IllegalAction("T1", "Stacking is not allowed here: accept the penalty.")
    hand = rnd.hands[seat]
    if card not in hand:
        raise IllegalAction("O10", f"You do not hold {card.words}.")
    if stackable(rnd, card, hand):
        return
    if card.rank is _WILD_DRAW_FOUR:
        _refuse_misfit(rnd, card)  # O22: a Wild Draw Four that may not be played here
    raise IllegalAction("T1", "Only a Draw Two on a Draw Two, or a Wild Draw Four, can be stacked.")


def draw_rule(rnd: Round) -> str:
    """The kids' rule that refuses a draw or a pass: K1-4 or K2-8."""
    return "K1-4" if rnd.rules.preset == "kids1" else "K2-8"


def check_draw(rnd: Round, action: Draw) -> None:
    if action.seat != rnd.actor or rnd.phase is not _TURN:
        check_actor(rnd, action)  # refuses: a draw is awaited in the TURN phase only
    if not may_draw(rnd, action.seat):
        raise IllegalAction(draw_rule(rnd), "You can play a card, so you may not draw.")


def check_pass(rnd: Round, action: Pass) -> None:
    if action.seat == rnd.actor and rnd.phase is _TURN:
        raise IllegalAction("O13", "You may pass only after drawing a card.")
    check_actor(rnd, action)
    if must_play_drawn(rnd, action.seat):
        rule = draw_rule(rnd) if rnd.rules.must_play_drawn else "KA6"
        raise IllegalAction(rule, "The card you drew fits: it must be played.")


def check_choose_color(rnd: Round, action: ChooseColor) -> None:
    check_actor(rnd, action)
    if not isinstance(action.color, Color):
        raise IllegalAction("O11", "Choose red, yellow, green or blue.")


def check_challenge(rnd: Round, action: Challenge) -> None:
    check_actor(rnd, action)
    if rnd.rules.wild_draw_four is not WildDrawFour.CHALLENGE:
        raise IllegalAction("O22", "Wild Draw Four cannot be challenged at this table.")
    if not challengeable(rnd):
        raise IllegalAction("O21", "Only a Wild Draw Four aimed at you can be challenged.")


def check_declare_uno(rnd: Round, action: DeclareUno) -> None:
    seat = action.seat
    if rnd.declared[seat]:
        raise IllegalAction("O23", "You have already said UNO.")
    if not may_declare(rnd, seat):
        raise IllegalAction(
            "O23", "Say UNO with two cards before playing one, or with your last card."
        )


def check_counter_uno(rnd: Round, action: CounterUno) -> None:
    """O24 / KA1. A call on a seat that is not exposed is accepted: a miss (O25)."""
    target = action.target
    check_other_seat(rnd, action.seat, target, "O24", "Call Counter-UNO on another player.")
    if not rnd.rules.counter_uno:
        raise IllegalAction("O24", "Counter-UNO is not played at this table.")
    if rnd.rules.kids_immune_to_counter_uno and rnd.kids[target]:
        raise IllegalAction("KA1", "Kids cannot be caught by Counter-UNO at this table.")


def check_give(rnd: Round, action: Give) -> None:
    check_actor(rnd, action)
    recipients = action.recipients
    if not isinstance(recipients, tuple) or len(recipients) != len(rnd.gift_cards):
        raise IllegalAction(
            "K2-4", f"Name one recipient for each of the {len(rnd.gift_cards)} cards you drew."
        )
    for r in recipients:
        check_other_seat(rnd, action.seat, r, "K2-4", "Give the cards to your opponents.")


def check_choose_target(rnd: Round, action: ChooseTarget) -> None:
    check_actor(rnd, action)
    check_other_seat(
        rnd, action.seat, action.target, "KA4", "Choose another player to receive the penalty."
    )


def check_swap(rnd: Round, action: SwapHands) -> None:
    check_actor(rnd, action)
    check_other_seat(
        rnd, action.seat, action.target, "T5", "Choose another player to swap hands with."
    )


def check_return(rnd: Round, action: ReturnCard) -> None:
    check_actor(rnd, action)
    card = action.card
    if not isinstance(card, Card) or card not in rnd.hands[action.seat]:
        raise IllegalAction("K1-5", "Return a card that you hold.")

"""Phases of a round and which decisions each one waits for.

Theory of operation
-------------------
A round is always waiting for exactly one decision, from exactly one seat: the *actor*.
Usually the actor is the seat whose turn it is and the phase is ``TURN``. Every decision
that UNO makes someone take outside a plain turn is a phase of its own, listed below, so
that the engine, the timer, the bots and the interface all ask the same question: "what
phase are we in, and who is the actor?"

    TURN           play a matching card, draw, or say UNO before playing a second-to-last card
    DRAWN          the card just drawn fits: play it, or pass (kids rules: play it)
    CHOOSE_COLOR   a wild, a blank, or a wild turned over first needs its color
    PENALTY        a Draw Two / Wild Draw Four is aimed at the actor: accept, stack, challenge
    GIFT           K2-4: the Draw Two's player hands out the two cards just drawn
    CHOOSE_TARGET  KA4: a kid names who receives their Draw Two / Wild Draw Four
    SWAP           T5: the 7's player picks a seat to swap hands with
    EXCESS         K1-5 / K2-9: a seat over the hand limit returns cards, one at a time
    ROUND_OVER     nothing more; the game starts the next round or has ended

Three kinds of action are accepted from seats that are not the actor, in any live phase:
a Counter-UNO call against the exposed seat (O24), the exposed seat's own UNO (O23), and,
in ``TURN`` with the jump-in option, a card identical to the top card (T6).

An action runs to completion inside one ``apply``: it verifies everything first (a refused
action never changes the state), then mutates, then *settles*: the round checks for a
winner, the hand limit, and a pending penalty, and chooses the next phase and actor.
"""

from __future__ import annotations

import enum

from lanuno.engine.actions import (
    AcceptPenalty,
    Action,
    Challenge,
    ChooseColor,
    ChooseTarget,
    DeclareUno,
    Draw,
    Give,
    Pass,
    Play,
    ReturnCard,
    SwapHands,
    Timeout,
)


class Phase(enum.StrEnum):
    TURN = "turn"
    DRAWN = "drawn"
    CHOOSE_COLOR = "choose_color"
    PENALTY = "penalty"
    GIFT = "gift"
    CHOOSE_TARGET = "choose_target"
    SWAP = "swap"
    EXCESS = "excess"
    ROUND_OVER = "round_over"


ACTOR_ACTIONS: dict[Phase, frozenset[type[Action]]] = {
    Phase.TURN: frozenset({Play, Draw, DeclareUno, Timeout}),
    Phase.DRAWN: frozenset({Play, Pass, DeclareUno, Timeout}),
    Phase.CHOOSE_COLOR: frozenset({ChooseColor, Timeout}),
    Phase.PENALTY: frozenset({AcceptPenalty, Challenge, Play, Timeout}),
    Phase.GIFT: frozenset({Give, Timeout}),
    Phase.CHOOSE_TARGET: frozenset({ChooseTarget, Timeout}),
    Phase.SWAP: frozenset({SwapHands, Timeout}),
    Phase.EXCESS: frozenset({ReturnCard, Timeout}),
    Phase.ROUND_OVER: frozenset(),
}
"""What the actor may send in each phase (the round checks the details)."""

WAITING_FOR: dict[Phase, tuple[str, str]] = {
    Phase.TURN: ("O10", "play a card or draw"),
    Phase.DRAWN: ("O13", "play the card you drew, or pass"),
    Phase.CHOOSE_COLOR: ("O11", "choose a color for the wild"),
    Phase.PENALTY: ("O19", "take the penalty (or stack, or challenge, where allowed)"),
    Phase.GIFT: ("K2-4", "give away the two cards you drew"),
    Phase.CHOOSE_TARGET: ("KA4", "choose who receives the penalty"),
    Phase.SWAP: ("T5", "choose a player to swap hands with"),
    Phase.EXCESS: ("K1-5", "return your excess cards under the draw pile"),
    Phase.ROUND_OVER: ("O27", "the round is over"),
}
"""Rule and plain words for what the round is waiting for, used in refusals."""

"""S9: a client checks its own dealt cards and the first card against the revealed deck."""

from __future__ import annotations

import pytest

from lanuno.engine.cards import build_deck
from lanuno.engine.events import CardReturned, CardTurned, HandDealt
from lanuno.engine.game import Game
from lanuno.engine.rules import preset, with_options
from lanuno.wire.fairness import (
    FairnessError,
    FairShuffler,
    check_my_deal,
    deal_purpose,
    dealt_cards,
)


def revealed_deck(rules_name: str, seed: bytes) -> list[str]:
    deck = [card.code for card in build_deck(preset(rules_name).deck)]
    FairShuffler(seed).shuffle(deck, deal_purpose(1))
    return deck


@pytest.mark.parametrize("rules_name", ["official", "kids1", "kids2"])
@pytest.mark.parametrize("seats", [2, 5, 10])
def test_S9_dealt_hands_sit_where_the_engine_dealt_them(rules_name: str, seats: int) -> None:
    for n in range(8):
        seed = bytes([n, seats]) * 16
        rules = with_options(preset(rules_name), ["target=none"])
        game = Game(rules, seats, shuffler=FairShuffler(seed), first_player=n % seats)
        deck = revealed_deck(rules_name, seed)
        rnd = game.round
        for event in rnd.events:
            if isinstance(event, HandDealt):
                expected = dealt_cards(deck, seats=seats, dealer=rnd.dealer,
                                       hand_size=rules.hand_size, seat=event.seat)  # fmt: skip
                assert expected == tuple(card.code for card in event.cards)
        turned = next(e.card.code for e in rnd.events if isinstance(e, CardTurned))
        returned = any(isinstance(e, CardReturned) for e in rnd.events)
        hand = next(e for e in rnd.events if isinstance(e, HandDealt) and e.seat == 0)
        check_my_deal(deck, seats=seats, dealer=rnd.dealer, hand_size=rules.hand_size, seat=0,
                      my_hand=[c.code for c in hand.cards],
                      turned=None if returned else turned)  # fmt: skip


def test_S9_a_dealt_card_not_from_the_deck_is_detected() -> None:
    deck = revealed_deck("official", b"x" * 32)
    mine = list(dealt_cards(deck, seats=4, dealer=3, hand_size=7, seat=1))
    check_my_deal(deck, seats=4, dealer=3, hand_size=7, seat=1, my_hand=mine, turned=None)
    swapped = [*mine[:-1], deck[0]]  # one card that the deck holds elsewhere
    with pytest.raises(FairnessError, match="dealt"):
        check_my_deal(deck, seats=4, dealer=3, hand_size=7, seat=1, my_hand=swapped, turned=None)
    with pytest.raises(FairnessError, match="first card"):
        check_my_deal(deck, seats=4, dealer=3, hand_size=7, seat=None, my_hand=None,
                      turned=deck[0])  # fmt: skip

"""Weights of :mod:`lanuno.bots.evaluation`, written by
``scripts/fit_eval.py --rounds 20000 --seed 1`` (do not edit by hand)."""

WEIGHTS: tuple[float, ...] = (
    -1.3676,  # size_1,
    -2.0188,  # size_2,
    -2.5031,  # size_3,
    -2.7724,  # size_4,
    -3.0516,  # size_5,
    -3.3124,  # size_6,
    -3.5459,  # size_7,
    -3.7454,  # size_8,
    -3.9832,  # size_9,
    -4.1902,  # size_10,
    -4.3410,  # size_11,
    -4.8036,  # size_12+,
    0.7557,  # wilds,
    0.5477,  # wilds_small_hand,
    0.1431,  # action_cards,
    -0.0701,  # colors_held,
    -0.2747,  # actor,
    0.4773,  # actor_can_play,
    6.2824,  # actor_wins_next,
    0.0124,  # next_after_actor,
    0.0922,  # current_color_cards,
    -0.2137,  # penalty_due,
)

"""The bots-only game loop, under its historical name (``lanuno sim``, tests, scripts).

The loop itself (out-of-turn chances, then the actor) lives in :mod:`lanuno.bots.driver`,
shared with the host's table; its names are re-exported here for existing callers. The
``lanuno sim`` command (statistics over many games) is :mod:`lanuno.commands.sim`.
"""

from __future__ import annotations

from lanuno.bots.driver import (
    MAX_ACTIONS_PER_ROUND,
    GameResult,
    offer_out_of_turn,
    play_game,
    play_round,
)

__all__ = ["MAX_ACTIONS_PER_ROUND", "GameResult", "offer_out_of_turn", "play_game", "play_round"]

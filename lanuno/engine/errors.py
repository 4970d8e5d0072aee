"""The one exception the engine raises for a refused action (T4)."""

from __future__ import annotations


class IllegalAction(Exception):
    """An action the rules refuse. ``rule_id`` names the rule (``O12``); ``message`` says why
    in a sentence a player understands. A refused action never changes the state."""

    def __init__(self, rule_id: str, message: str) -> None:
        super().__init__(f"[{rule_id}] {message}")
        self.rule_id = rule_id
        self.message = message

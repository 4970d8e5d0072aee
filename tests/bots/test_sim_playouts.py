"""``lanuno sim --playouts N``: expert sims that give the same result twice (B1)."""

from __future__ import annotations

import pytest

from lanuno.cli import main


def _sim_lines(capsys: pytest.CaptureFixture[str]) -> list[str]:
    code = main(["sim", "--games", "6", "--players", "2", "--level", "expert,beginner",
                 "--playouts", "4", "--option", "target=none", "--seed", "5"])  # fmt: skip
    assert code == 0
    return [line for line in capsys.readouterr().out.splitlines() if "per second" not in line]


def test_B1_expert_sim_with_fixed_playouts_is_reproducible(
    capsys: pytest.CaptureFixture[str],
) -> None:
    first = _sim_lines(capsys)
    assert first == _sim_lines(capsys)
    assert any(line.startswith("seat 1: wins") for line in first)

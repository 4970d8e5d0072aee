"""``lanuno host``, ``join`` and ``play``: the asyncio/zeroconf/prompt_toolkit adapters are
not written yet (issues 4 and 5); until then these commands say so and exit."""

from __future__ import annotations

import argparse
import sys


def _not_yet(command: str) -> int:
    print(f"lanuno {command}: not available yet in this build; try `lanuno sim`.", file=sys.stderr)
    return 2


def run_host(args: argparse.Namespace) -> int:
    return _not_yet("host")


def run_join(args: argparse.Namespace) -> int:
    return _not_yet("join")


def run_play(args: argparse.Namespace) -> int:
    return _not_yet("play")

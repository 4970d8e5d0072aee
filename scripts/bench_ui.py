"""Terminal UI timings: client start to first full frame, and re-rendering after an update.

    python scripts/bench_ui.py [--runs 7] [--updates 300]

client start: a fresh ``python`` process runs the hand app against an in-memory session
that already holds a Welcome, a Lobby and a State (pipe input, DummyOutput); the time is
from spawning the process to the first frame that shows the hand. The reference is
``python -c "import prompt_toolkit"`` measured the same way in the same run.

render update: in this process, apply a new State to the model and draw the whole 80x24
layout (and, separately, the hand view alone) onto a screen, as prompt_toolkit does on
each redraw.

Last lines: ``client_start_ms: X`` (target <= 400) and ``render_update_ms: Y`` (target <= 5,
the hand view). Medians. Nothing here touches the network.
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

CHILD = r"""
import asyncio, sys
from lanuno.ui.client_app import ClientController, build_client_application
from lanuno.ui.client_model import ClientModel
from lanuno.ui.i18n import translator
from lanuno.wire.messages import Lobby, LobbySeat, State, UnoFlags, Welcome
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

class Session:
    seat, check_number, connection = 1, 123456, "connected"
    def __init__(self, messages): self.messages = messages
    async def updates(self):
        for message in self.messages:
            yield message
        await asyncio.Event().wait()
    async def act(self, notation): pass
    async def set_ready(self, ready): pass
    async def close(self): pass

seats = tuple(LobbySeat(n, "human", False, True, True, 1) for n in ("Lea", "Ana", "Max"))
messages = [
    Welcome(1, 1, "Bench", "official", {}),
    Lobby(seats, "official", {}, True),
    State(1, 1, ("R1", "G2", "B+2", "W", "Y7", "R9", "BS"), (7, 7, 7), "R5", "R", 1, 1, 1,
          "turn", 0, ("play R1", "play R9", "play W R", "draw"), (UnoFlags(False, False),) * 3,
          (0, 0, 0), 80, 1, 30000, 0),
]

async def main():
    ctl = ClientController(Session(messages), ClientModel(translator("en")))
    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        def rendered(_app):
            if ctl.model.hand and not app.future.done():
                print("FRAME", flush=True)
                app.exit(result=0)
        app.after_render += rendered
        await app.run_async(pre_run=lambda: app.create_background_task(ctl.pump()) and None)

asyncio.run(main())
"""


def time_process(argv: list[str], until_line: str | None) -> float:
    """Milliseconds from spawning ``argv`` to ``until_line`` on its stdout (or its exit)."""
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert process.stdout is not None
    if until_line is not None:
        for line in process.stdout:
            if line.strip() == until_line:
                break
        else:
            raise RuntimeError(f"{argv[:2]} ended without printing {until_line}")
    elapsed = (time.perf_counter() - start) * 1000
    process.wait(timeout=30)
    if until_line is None:
        elapsed = (time.perf_counter() - start) * 1000
    return elapsed


def bench_start(runs: int) -> tuple[float, float]:
    time_process([sys.executable, "-c", CHILD], "FRAME")  # warm the file cache and .pyc
    client = [time_process([sys.executable, "-c", CHILD], "FRAME") for _ in range(runs)]
    bare = [
        time_process([sys.executable, "-c", "import prompt_toolkit"], None) for _ in range(runs)
    ]
    return statistics.median(client), statistics.median(bare)


def bench_render(updates: int) -> tuple[float, float]:
    sys.path.insert(0, str(ROOT))
    from prompt_toolkit.application.current import set_app
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.layout import Window
    from prompt_toolkit.layout.mouse_handlers import MouseHandlers
    from prompt_toolkit.layout.screen import Screen, WritePosition
    from prompt_toolkit.output import DummyOutput

    from lanuno.ui.client_app import ClientController, _hand, build_client_application
    from lanuno.ui.client_model import ClientModel
    from lanuno.ui.i18n import translator
    from lanuno.ui.widgets import SizedTextControl, render_text
    from lanuno.wire.messages import Lobby, LobbySeat, State, UnoFlags, Welcome

    class Session:
        seat, check_number, connection = 1, 123456, "connected"

    seats = tuple(
        LobbySeat(name=n, kind="human", kid=False, connected=True, ready=True, check=1)
        for n in ("Lea", "Ana", "Max", "Bo")
    )
    hands = [
        ("R1", "G2", "B+2", "W", "Y7", "R9", "BS", "G7", "YR", "W+4", "B0", "R+2"),
        ("R1", "G2", "B+2", "W", "Y7", "R9", "BS", "G7", "YR", "W+4", "B0"),
    ]
    legal = ("play R1", "play R9", "play W R", "play W Y", "play W G", "play W B", "draw")
    model = ClientModel(translator("en"))
    ctl = ClientController(Session(), model)  # type: ignore[arg-type]
    model.apply(Welcome(version=1, seat=1, table="Bench", preset="official", options={}), 0.0)
    model.apply(Lobby(seats=seats, preset="official", options={}, can_start=True), 0.0)

    def new_state(sid: int) -> State:
        return State(
            sid=sid,
            round=1,
            hand=hands[sid % 2],
            counts=(7, 12, 7, 7),
            top="R5",
            color="R",
            direction=1,
            turn=1,
            actor=1,
            phase="turn",
            pending=0,
            legal=legal,
            uno=(UnoFlags(False, False),) * 4,
            scores=(0, 0, 0, 0),
            draw_pile=80,
            discard_count=1,
            deadline_ms=30000,
            dealer=0,
        )

    with create_pipe_input() as pipe:
        app = build_client_application(ctl, input=pipe, output=DummyOutput())
        hand_window = Window(SizedTextControl(_hand(ctl)), dont_extend_height=True)
        full: list[float] = []
        hand: list[float] = []
        for sid in range(updates):
            start = time.perf_counter()
            model.apply(new_state(sid), 0.0)
            render_text(app, 80, 24)
            full.append((time.perf_counter() - start) * 1000)

            start = time.perf_counter()
            model.apply(new_state(sid + 1), 0.0)
            app.render_counter += 1
            with set_app(app):
                hand_window.write_to_screen(
                    Screen(),
                    MouseHandlers(),
                    WritePosition(0, 0, 80, 9),
                    parent_style="",
                    erase_bg=False,
                    z_index=None,
                )
            hand.append((time.perf_counter() - start) * 1000)
    return statistics.median(full), statistics.median(hand)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--updates", type=int, default=300)
    args = parser.parse_args()

    client_ms, bare_ms = bench_start(args.runs)
    full_ms, hand_ms = bench_render(args.updates)
    print(f"python -c 'import prompt_toolkit': {bare_ms:.0f} ms (reference, same run)")
    print(f"client start to first full frame: {client_ms:.0f} ms ({client_ms / bare_ms:.2f}x)")
    print(f"update + full 80x24 frame: {full_ms:.2f} ms")
    print(f"update + hand view: {hand_ms:.2f} ms")
    print(f"client_start_ms: {client_ms:.0f}")
    print(f"render_update_ms: {hand_ms:.2f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

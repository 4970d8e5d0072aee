"""Heavy pure work off the event loop: SPAKE2 steps of handshakes, expert bot searches.

One pool of worker processes per host process (``shared_workers()``), so a hall's tables
share it: 100 joins arriving at once or an expert thinking for its whole time budget never
stall a playing table (pure-Python group arithmetic and searches hold the GIL, so threads
would not do: measured in ``scripts/bench_hall.py --storm``). Processes are spawned (the
host runs threads), never take SIGINT (spawned with it ignored, and ignoring it: Ctrl-C
reaches the whole process group, and the host decides) and die with their parent
(``PR_SET_PDEATHSIG``, even after a SIGKILL); ``close()`` shuts them down and waits.

Expert bots: :class:`PooledBot` wraps an expert for the table. Asked to choose, it looks
for the answer to that very observation; if there is none it sends the frozen
observation (plain data) to the pool and raises :class:`BotThinking`: the table asks again
shortly (``Table`` replans that decision) and gets the answer then. Cheap levels
(beginner, intermediate) stay in-process.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import multiprocessing
import os
import random
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any

from lanuno.bots import make_bot
from lanuno.bots.base import Bot, BotThinking, as_observation
from lanuno.bots.expert import ExpertBot
from lanuno.bots.levels import BotLevel
from lanuno.engine.actions import Action
from lanuno.engine.observation import Observation
from lanuno.engine.views import SeatView
from lanuno.wire.spake_work import SpakeResult, SpakeWork, run_spake

MAX_REMEMBERED = 64
_QUIET_SIGNALS = (signal.SIGINT, *([signal.SIGHUP] if hasattr(signal, "SIGHUP") else []))
"""Ignored by a worker from its start: the host decides when it ends (PR_SET_PDEATHSIG)."""


def _worker_init() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(Exception):
            import ctypes

            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG: die with the host
            if os.getppid() == 1:  # the host is already gone
                os._exit(0)


_TRACKER_QUIET = "ignore:resource_tracker:UserWarning"
"""The ``-W`` filter multiprocessing's resource tracker is started with (see below)."""


def _start_quiet_tracker() -> None:
    """Start multiprocessing's resource tracker, if it is not running, without its warning
    of leaked semaphores. A host killed with ``kill -9`` leaves its pool's semaphores to the
    tracker, which outlives it, removes them, and said "There appear to be 5 leaked
    semaphore objects" on the host's terminal, where its owner types ``--resume``: nothing
    stays leaked, and nothing there is theirs to act on. The tracker takes its warning
    filters from ``sys.warnoptions`` when it is spawned; the host's own are left as they
    were."""
    if os.name != "posix":
        return
    from multiprocessing import resource_tracker

    options = list(sys.warnoptions)
    sys.warnoptions.append(_TRACKER_QUIET)
    try:
        resource_tracker.ensure_running()
    finally:
        sys.warnoptions[:] = options


def _choose(bot: Bot, observation: Observation, seed: int) -> Action | None:
    """In a worker: the bot (plain frozen data, like the observation) decides, within its
    own time budget."""
    return bot.choose(observation, random.Random(seed))


class Workers:
    """A lazily started pool. ``kind``: ``process`` (default), ``thread`` (one shared
    GIL: for comparison) or ``inline`` (no pool at all: on the loop, as before)."""

    def __init__(self, processes: int | None = None, *, kind: str = "process") -> None:
        if kind not in ("process", "thread", "inline"):
            raise ValueError(f"unknown worker kind {kind!r}")
        self.kind = kind
        self.processes = processes or max(1, min(4, os.cpu_count() or 1))
        self._pool: concurrent.futures.Executor | None = None
        self._lock = threading.Lock()

    @property
    def started(self) -> bool:
        return self._pool is not None

    def pids(self) -> list[int]:
        """The worker processes' ids (tests check none is left behind)."""
        pool = self._pool
        if not isinstance(pool, concurrent.futures.ProcessPoolExecutor):
            return []
        processes: dict[int, Any] = getattr(pool, "_processes", None) or {}
        return list(processes)

    def _executor(self) -> concurrent.futures.Executor:
        with self._lock:
            if self._pool is None:
                if self.kind == "thread":
                    self._pool = concurrent.futures.ThreadPoolExecutor(self.processes)
                else:
                    _start_quiet_tracker()  # before the pool's semaphores are registered
                    self._pool = concurrent.futures.ProcessPoolExecutor(
                        self.processes,
                        mp_context=multiprocessing.get_context("spawn"),
                        initializer=_worker_init,
                    )
            return self._pool

    def submit(self, function: Callable[..., Any], *args: Any) -> concurrent.futures.Future[Any]:
        if self.kind == "inline":
            future: concurrent.futures.Future[Any] = concurrent.futures.Future()
            try:
                future.set_result(function(*args))
            except Exception as error:
                future.set_exception(error)
            return future
        # A submit may spawn a worker (and, the first time, multiprocessing's resource
        # tracker): it starts with SIGINT and SIGHUP ignored (an ignored signal stays
        # ignored through exec, and Python then installs no KeyboardInterrupt handler), so
        # a Ctrl-C while it is still importing cannot interrupt it, and the host's terminal
        # closing does not kill the tracker before the host has saved its tables. Only
        # the main thread may change a handler; the window is the fork and exec.
        if threading.current_thread() is not threading.main_thread():
            return self._executor().submit(function, *args)
        handlers = [(sig, signal.signal(sig, signal.SIG_IGN)) for sig in _QUIET_SIGNALS]
        try:
            return self._executor().submit(function, *args)
        finally:
            for sig, handler in handlers:
                signal.signal(sig, handler)

    async def spake(self, work: SpakeWork) -> SpakeResult:
        """One SPAKE2 step of a handshake, off the loop."""
        if self.kind == "inline":
            return run_spake(work)
        result: SpakeResult = await asyncio.wrap_future(self.submit(run_spake, work))
        return result

    def warm_up(self) -> None:
        """Start one worker now if none is (spawning one takes a moment, better before the
        first join); the others start when work arrives while it is busy."""
        if self.kind == "process" and self._pool is None:
            self.submit(os.getpid)

    def close(self) -> None:
        """Stop the workers and wait for them (queued work is dropped)."""
        with self._lock:
            pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=True, cancel_futures=True)

    def bot_factory(
        self, fallback: Callable[[str], Bot] = make_bot, on_ready: Callable[[], None] | None = None
    ) -> Callable[[str], Bot]:
        """A table's ``bot_factory`` over ``fallback``'s bots: experts (the searching
        level) think in the pool, the cheap levels in-process. ``on_ready`` is called (from
        any thread) when an answer arrives."""

        def factory(level: str) -> Bot:
            bot = fallback(level)
            if self.kind == "inline" or not isinstance(bot, ExpertBot):
                return bot
            return PooledBot(self, bot, on_ready)

        return factory


class PooledBot:
    """An expert whose searches run in the pool (see the module's docstring)."""

    def __init__(
        self, workers: Workers, local: Bot, on_ready: Callable[[], None] | None = None
    ) -> None:
        self._workers = workers
        self._local = local
        self.on_ready = on_ready
        self._answers: dict[Observation, concurrent.futures.Future[Any]] = {}

    @property
    def level(self) -> BotLevel:
        return self._local.level

    def choose(self, seen: Observation | SeatView, rng: random.Random) -> Action | None:
        observation = as_observation(seen)
        future = self._answers.get(observation)
        if future is None:
            if len(self._answers) >= MAX_REMEMBERED:  # questions nobody asks again
                del self._answers[next(iter(self._answers))]
            seed = rng.getrandbits(64)
            future = self._workers.submit(_choose, self._local, observation, seed)
            self._answers[observation] = future
            if self.on_ready is not None:
                on_ready = self.on_ready
                future.add_done_callback(lambda _f: on_ready())
        if not future.done():
            raise BotThinking(f"{self.level} bot thinking")
        del self._answers[observation]
        try:
            action: Action | None = future.result()
        except Exception:  # a broken pool: decide here rather than not at all
            return self._local.choose(observation, rng)
        return action


_shared: Workers | None = None
_shared_lock = threading.Lock()


def shared_workers() -> Workers:
    """This process's pool (started on first use; ``close_shared_workers`` at exit)."""
    global _shared
    with _shared_lock:
        if _shared is None:
            # LANUNO_WORKERS=thread|inline: for measurements (scripts/bench_hall.py --storm).
            _shared = Workers(kind=os.environ.get("LANUNO_WORKERS", "process"))
            atexit.register(close_shared_workers)  # if a command did not close it first
        return _shared


def close_shared_workers() -> None:
    with _shared_lock:
        workers = _shared
    if workers is not None:
        workers.close()

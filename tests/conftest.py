"""Shared by the whole test tree.

* ``tests/`` is importable (``from helpers import until``), like each folder's helpers.
* Tests that start a process (a ``lanuno`` command, tmux, ``ip netns``) carry
  ``@pytest.mark.system``, so ``pytest -m "not system"`` is the fast inner loop. A guard
  fails a test that starts one without the marker (it watches the interpreter's audit
  events for process creation), so the marker cannot be forgotten.
* A failing test's report shows the last seed it gave ``helpers.note_seed`` (Hypothesis
  prints its own reproduction line).
* Hypothesis runs the ``dev`` profile (fewer examples) unless ``HYPOTHESIS_PROFILE=ci``
  (``.ci/run``) asks for all of them; ``helpers.examples`` scales the counts tests set.
* Every test (and every process it starts) keeps lanuno's per-user state in its own
  temporary ``XDG_STATE_HOME``: a restarted ``lanuno join`` must never find a seat that a
  previous test (or the person running the tests) left in ~/.local/state/lanuno.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

sys.path.insert(0, str(Path(__file__).parent))

from helpers import DEV_SHARE, PROFILE, seeds_in_use

settings.register_profile("ci", max_examples=100)  # Hypothesis's own default
settings.register_profile("dev", max_examples=100 // DEV_SHARE)
settings.load_profile(PROFILE)

PROCESS_EVENTS = frozenset(
    {"subprocess.Popen", "os.system", "os.posix_spawn", "os.spawn", "os.exec", "os.fork"}
)
_started: list[str] = []


def _watch_processes(event: str, args: tuple[object, ...]) -> None:
    if event in PROCESS_EVENTS:
        _started.append(f"{event} {args[:2]!r}"[:200])


sys.addaudithook(_watch_processes)


@pytest.fixture(autouse=True)
def _processes_need_the_system_marker(request: pytest.FixtureRequest) -> Iterator[None]:
    first = len(_started)
    yield
    started = _started[first:]
    if started and request.node.get_closest_marker("system") is None:
        pytest.fail(
            f"this test started a process ({started[0]}): mark it @pytest.mark.system",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _private_state_dir(
    tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path_factory.mktemp("state")))


@pytest.fixture(autouse=True)
def _forget_seeds() -> None:
    seeds_in_use.clear()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report = yield
    if report.failed and seeds_in_use:
        report.sections.append(("random seed", f"random seed: {seeds_in_use[-1]!r}"))
    return report

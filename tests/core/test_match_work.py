"""A match's engine steps run in its worker thread; stopping the match stops a step that never returns."""

from __future__ import annotations

import asyncio
import sys
import threading
import time

import pytest
from stratbench.child_processes import live_children, run_child
from stratbench.core.match_work import MatchWork, StepStopped, current_work, offload
from stratbench.match.play import MatchTimeout, fault_of, within

LOCK = threading.RLock()


def _spin_holding_the_lock(started: threading.Event) -> None:
    with LOCK:
        started.set()
        count = 0
        while True:
            count += 1


def _swallowing_spin(started: threading.Event) -> None:
    while True:
        try:
            started.set()
            while True:
                pass
        except Exception:  # an engine's broad handler: StepStopped is not an Exception
            continue


async def _match(started: threading.Event, step=_spin_holding_the_lock) -> str:
    await offload(step, started)
    return "never"


def test_offload_runs_each_step_in_the_matchs_own_thread_in_order():
    async def match() -> list[str]:
        names = [await offload(lambda: threading.current_thread().name) for _ in range(3)]
        return names + [threading.current_thread().name]

    async def play() -> list[str]:
        work = MatchWork("t.py::m")
        current_work.set(work)
        try:
            return await asyncio.ensure_future(match())
        finally:
            work.close()

    names = asyncio.run(play())
    assert names[:3] == ["stratbench-match t.py::m"] * 3 and names[3] == "MainThread"
    assert asyncio.run(match())[0] == "MainThread"  # outside a match: inline


@pytest.mark.parametrize("step", [_spin_holding_the_lock, _swallowing_spin])
def test_a_step_that_never_returns_is_stopped_at_the_time_limit_and_its_thread_ends(step):
    started = threading.Event()
    with pytest.raises(MatchTimeout) as caught:
        asyncio.run(within(_match(started, step), 0.5, label="t.py::stuck"))
    error = caught.value
    assert error.waiting_on_model is False and fault_of(error) == "harness"
    assert error.stopped_in is not None and error.stopped_in.startswith(f"{step.__name__} at test_match_work.py:")
    assert str(error).startswith("the match ran past --match-timeout 0.5 s (not waiting on a model call; stopped ")
    threads = [t for t in threading.enumerate() if t.name == "stratbench-match t.py::stuck"]
    for thread in threads:
        thread.join(5)
    assert not any(t.is_alive() for t in threads)
    assert LOCK.acquire(timeout=5)  # the stopped step's `with` released it
    LOCK.release()


def test_cancelling_the_match_from_outside_stops_its_step():
    started = threading.Event()

    async def drop_it() -> None:
        task = asyncio.ensure_future(within(_match(started), None, label="t.py::dropped"))
        while not started.is_set():
            await asyncio.sleep(0.01)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(drop_it())
    threads = [t for t in threading.enumerate() if t.name == "stratbench-match t.py::dropped"]
    for thread in threads:
        thread.join(5)
    assert not any(t.is_alive() for t in threads)


def test_a_stopped_work_refuses_new_steps():
    async def after_stop() -> None:
        work = MatchWork("t.py::m")
        work.stop()
        await work.run(print, "never")

    with pytest.raises(Exception, match="t.py::m: the match was stopped; its steps no longer run"):
        asyncio.run(after_stop())
    assert issubclass(StepStopped, BaseException) and not issubclass(StepStopped, Exception)


GRANDCHILD = """
import subprocess, sys, time
child = subprocess.Popen(["sleep", "1000"], start_new_session=True)  # another session, as ENHSP's Java is
print(child.pid, flush=True)
time.sleep(1000)
"""


def test_cancelling_a_child_kills_it_and_what_it_started_in_another_session():
    async def start_and_cancel() -> int:
        task = asyncio.ensure_future(run_child([sys.executable, "-c", GRANDCHILD], b""))
        await asyncio.sleep(0)
        for _ in range(500):  # until the child has started its grandchild
            if live_children() and _grandchildren(next(iter(live_children()))):
                break
            await asyncio.sleep(0.02)
        (child,) = live_children()
        (grandchild,) = _grandchildren(child)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return grandchild

    grandchild = asyncio.run(start_and_cancel())
    assert live_children() == {}
    deadline = time.monotonic() + 10  # SIGKILL lands asynchronously: on a busy machine the state lags a moment
    while _state(grandchild) not in (None, "Z") and time.monotonic() < deadline:
        time.sleep(0.01)
    assert _state(grandchild) in (None, "Z")  # killed (a zombie until its new parent reaps it)


def _grandchildren(pid: int) -> list[int]:
    from stratbench.child_processes import children_by_parent

    return children_by_parent().get(pid, [])


def _state(pid: int) -> str | None:
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0]
    except OSError:
        return None

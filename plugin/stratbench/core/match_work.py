"""A match's synchronous engine work: in its own worker thread, which the match's time limit stops.

Matches are asyncio tasks on one event loop per process (``match_pool``), so
``--match-timeout`` fires only while the loop runs. A synchronous step that
never returns (a game's ``apply`` or ``legal_actions`` stuck in a loop, a
solver searching too long) would hold the loop, and every match on it, for
ever. So the runner and the solver agents hand their synchronous steps to
:func:`offload`: they run one at a time, in order, in the match's worker
thread, while the loop awaits a future it can give up on.

When the match is stopped (its time is up, or its task is cancelled),
:meth:`MatchWork.stop` raises :class:`StepStopped` inside the worker thread
(CPython's ``PyThreadState_SetAsyncExc``). That interrupts Python code at its
next bytecode boundary, so a ``while True`` loop ends and its ``with`` blocks
release their locks (unified-planning's lock among them). Native code that
never returns to Python (a C extension's own loop) cannot be interrupted: its
thread is a daemon, left to finish, and :func:`still_running` names it.
Work in other processes is stopped by killing the process tree
(:mod:`stratbench.child_processes`).
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import ctypes
import os
import queue
import sys
import threading
import weakref
from collections.abc import Callable
from typing import Any, TypeVar

from stratbench.core.types import HarnessError

__all__ = ["MatchWork", "StepStopped", "current_work", "offload", "still_running"]

T = TypeVar("T")

THREAD_PREFIX = "stratbench-match"
"""Worker threads are named ``stratbench-match <label>``."""


class StepStopped(BaseException):
    """Raised inside a match's worker thread to stop the step it runs.

    A ``BaseException``, so an engine's ``except Exception`` cannot swallow it.
    """


current_work: contextvars.ContextVar[MatchWork | None] = contextvars.ContextVar("stratbench_match_work", default=None)
"""The work of the match the current task belongs to (set by ``match_play.within``)."""

_STOPPED: weakref.WeakSet[MatchWork] = weakref.WeakSet()


async def offload(function: Callable[..., T], /, *args: Any) -> T:
    """Runs ``function(*args)`` in the current match's worker thread and returns its result.

    Outside a match (a test calling the runner directly) it runs inline.
    The function sees the caller's context variables (the transcript's buffer).
    """
    work = current_work.get()
    if work is None:
        return function(*args)
    return await work.run(function, *args)


class MatchWork:
    """One match's worker thread: runs its steps in order, and stops them when the match is stopped.

    Args:
        label: Names the thread (``stratbench-match <label>``).
    """

    def __init__(self, label: str) -> None:
        self.label = label
        self._calls: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._lock = threading.Lock()
        self._running = False
        self._stopped = False
        self.stopped_in: str | None = None
        """Where the step that :meth:`stop` interrupted was (``State.apply at game.py:12``); None if none ran."""

    @property
    def thread(self) -> threading.Thread | None:
        """The worker thread, once a step has run."""
        return self._thread

    async def run(self, function: Callable[..., T], /, *args: Any) -> T:
        """Runs one step in the worker thread and returns its result (or raises its exception).

        Raises:
            HarnessError: when the match was stopped already.
        """
        if self._stopped:
            raise HarnessError(f"{self.label}: the match was stopped; its steps no longer run")
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        if self._thread is None:
            self._thread = threading.Thread(target=self._serve, name=f"{THREAD_PREFIX} {self.label}", daemon=True)
            self._thread.start()
        self._calls.put((future, loop, contextvars.copy_context(), function, args))
        return await future

    def stop(self) -> str | None:
        """Stops the step running now (if any) and ends the thread; returns where the step was.

        Idempotent. The thread ends once the interrupted step unwinds; a step
        in native code unwinds only when that code returns to Python.
        """
        with self._lock:
            if self._stopped:
                return self.stopped_in
            self._stopped = True
            thread = self._thread
            if self._running and thread is not None and thread.ident is not None:
                self.stopped_in = _where(thread.ident)
                ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(thread.ident), ctypes.py_object(StepStopped))
                _STOPPED.add(self)
        self._calls.put(None)
        return self.stopped_in

    def close(self) -> None:
        """Ends the thread after the steps it was given (the match is over)."""
        with self._lock:
            self._stopped = True
        self._calls.put(None)

    def _serve(self) -> None:
        try:
            while True:
                call = self._calls.get()
                if call is None:
                    return
                future, loop, context, function, args = call
                with self._lock:
                    if self._stopped:
                        return
                    self._running = True
                try:
                    settle = (_set_result, context.run(function, *args))
                except StepStopped:
                    return
                except BaseException as error:  # noqa: BLE001 - handed to the awaiting task
                    settle = (_set_exception, error)
                finally:
                    with self._lock:
                        self._running = False
                with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: nobody awaits the step
                    loop.call_soon_threadsafe(settle[0], future, settle[1])
        except StepStopped:  # delivered just after the step returned: the match is being stopped anyway
            return


def still_running() -> list[str]:
    """Returns ``"<label>: <where>"`` for each stopped match whose worker thread has not ended yet.

    Such a thread is stuck in native code that never returned to Python.
    """
    return sorted(
        f"{work.label}: {work.stopped_in}" for work in list(_STOPPED)
        if work.thread is not None and work.thread.is_alive()
    )


def _set_result(future: asyncio.Future[Any], value: Any) -> None:
    if not future.done():
        future.set_result(value)


def _set_exception(future: asyncio.Future[Any], error: BaseException) -> None:
    if not future.done():
        future.set_exception(error)


def _where(ident: int) -> str | None:
    """Returns the innermost function a thread is running and its place: ``State.apply at game.py:12``."""
    frame = sys._current_frames().get(ident)
    if frame is None:
        return None
    code = frame.f_code
    return f"{getattr(code, 'co_qualname', code.co_name)} at {os.path.basename(code.co_filename)}:{frame.f_lineno}"

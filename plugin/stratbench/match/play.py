"""Playing a built match on the session's event loop, inside its cassette, within its time limit.

A match that raises is an *errored* match; :func:`fault_of` says whose fault
it was: ``provider`` (the model could not be called: errors that persisted
through the client's retries, rejected credentials, a timeout while a model
call was under way), ``model`` (the model's own limits refused the request:
its context window, its content policy) or ``harness`` (a bug or exception in
stratbench, an engine or a game; a cassette that does not match). A model's
unreadable or illegal answers are not errors: the runner scores them as the
suite's fallback (a forfeit or a random move).
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from stratbench.core.agent import Agent
from stratbench.core.match_work import MatchWork, current_work
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import HarnessError
from stratbench.llm import cassettes
from stratbench.llm.client import LLMError, MatchActivity, MatchCalls, current_activity, match_calls

_CLIENT_FILE = os.path.join("stratbench", "llm", "client.py")
_MODEL_LIMITS = ("ContextWindowExceededError", "ContentPolicyViolationError")


class MatchTimeout(HarnessError):
    """Raised when a match runs past ``--match-timeout``.

    Attributes:
        waiting_on_model: Whether a model call was under way when time ran out (False when an engine
            step was running: the engine held the match).
        stopped_in: Where the engine step that was running was stopped (``State.apply at game.py:12``),
            or None when none was running.
    """

    def __init__(self, timeout_s: float, waiting_on_model: bool, stopped_in: str | None = None) -> None:
        if stopped_in is not None:  # an engine step held the match, whatever else was in flight
            waiting_on_model = False
            where = f"not waiting on a model call; stopped {stopped_in}"
        else:
            where = "waiting on a model call" if waiting_on_model else "not waiting on a model call"
        super().__init__(f"the match ran past --match-timeout {timeout_s:g} s ({where})")
        self.waiting_on_model = waiting_on_model
        self.stopped_in = stopped_in


class MatchFailure:
    """A match that raised, with what it had logged until then.

    Attributes:
        error: The original exception (the one :meth:`StratbenchSession.play` raises).
        fault: ``provider``, ``harness`` or ``model`` (see :func:`fault_of`).
        transcript: The match's events up to the error.
        started: When the match began (epoch seconds).
    """

    def __init__(self, error: BaseException, transcript: list[dict[str, Any]], started: float) -> None:
        self.error = error
        self.fault = fault_of(error)
        self.transcript = transcript
        self.started = started

    def __str__(self) -> str:
        return f"{type(self.error).__name__}: {self.error}"


def fault_of(error: BaseException) -> str:
    """Returns whose fault an exception that ended a match is: ``provider``, ``model`` or ``harness``."""
    if isinstance(error, MatchTimeout):
        return "provider" if error.waiting_on_model else "harness"
    if isinstance(error, cassettes.CassetteError):
        return "harness"
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain:
        chain.append(current)
        current = current.__cause__ or current.__context__
    if any(type(e).__name__ in _MODEL_LIMITS for e in chain):
        return "model"
    return "provider" if isinstance(error, LLMError) else "harness"


def awaiting_model(tasks: set[asyncio.Task[Any]]) -> bool:
    """Tells whether any of the tasks is suspended inside the LLM client (a request or its backoff)."""
    for task in tasks:
        awaited: Any = task.get_coro()
        while awaited is not None:
            code = getattr(awaited, "cr_code", None) or getattr(awaited, "gi_code", None)
            if code is not None and code.co_filename.endswith(_CLIENT_FILE):
                return True
            awaited = getattr(awaited, "cr_await", None) or getattr(awaited, "gi_yieldfrom", None)
    return False


async def within(
    coroutine: Coroutine[Any, Any, MatchOutcome], timeout_s: float | None, *, label: str = "match"
) -> MatchOutcome:
    """Plays the match in a task of its own, stopping it with :class:`MatchTimeout` after ``timeout_s`` s.

    ``timeout_s`` None (or 0) sets no limit. The match's synchronous engine
    steps run in its own :class:`~stratbench.core.match_work.MatchWork` (a
    worker thread named after ``label``), so a step that never returns cannot
    hold the loop: when time is up, or when whoever awaits this is cancelled,
    the match's task is cancelled and the step running is stopped.

    Whether a model call was under way is read from the match's own
    :class:`MatchActivity` when it has one (other matches in flight on the
    same loop do not count), else from every other task of the loop.
    """
    work = MatchWork(label)
    token = current_work.set(work)
    try:
        task = asyncio.ensure_future(coroutine)  # the task copies the context: its steps run in ``work``
    finally:
        current_work.reset(token)
    try:
        done, _ = await asyncio.wait({task}, timeout=timeout_s or None)
        if task in done:
            return task.result()
        activity = current_activity.get()
        if activity is not None:
            waiting = activity.model_calls > 0
        else:
            others = {t for t in asyncio.all_tasks() if t is not asyncio.current_task() and not t.done()}
            waiting = awaiting_model(others)
        stopped_in = await _stop(task, work)
        raise MatchTimeout(timeout_s or 0.0, waiting, stopped_in)
    except asyncio.CancelledError:  # whoever awaits the match gave it up: stop it too
        await _stop(task, work)
        raise
    finally:
        work.close()


async def _stop(task: asyncio.Task[MatchOutcome], work: MatchWork) -> str | None:
    """Cancels the match's task, stops its running engine step, waits for the task to unwind.

    Returns where the step was stopped, or None when none was running.
    """
    task.cancel()
    stopped_in = work.stop()
    await asyncio.wait({task})
    if not task.cancelled():
        task.exception()  # retrieved: the match is abandoned, the timeout is what is reported
    return stopped_in


async def play_and_close(agents: dict[int, Agent], coroutine: Any) -> MatchOutcome:
    """Runs the match, then awaits each agent's optional ``aclose()`` (engine processes)."""
    try:
        return await coroutine
    finally:
        for agent in agents.values():
            closer = getattr(agent, "aclose", None)
            if closer is not None:
                await closer()


async def play_in_cassette(
    coroutine: Coroutine[Any, Any, MatchOutcome],
    cassette_path: Path | None,
    mode: str,
    *,
    api_base: str | None,
    timeout_s: float | None = None,
    label: str = "match",
    match: str | None = None,
) -> MatchOutcome:
    """Runs a match coroutine to its end, inside the match's cassette when it has one.

    Everything the match sets up here (its cassette, how its model calls are
    sent, its activity) lives in the context of the task awaiting this, so
    other matches in flight on the same loop keep their own.

    ``match`` names what decides the match (:func:`~stratbench.llm.cassettes.describe_match`)
    for the cassette's stamp.

    Raises:
        MatchTimeout: when the match runs past ``timeout_s`` seconds (see :func:`within`; ``label``
            names its worker thread).
    """
    current_activity.set(MatchActivity())
    if cassette_path is None:
        try:
            return await within(coroutine, timeout_s, label=label)
        finally:
            coroutine.close()
    recording = cassettes.will_record(cassette_path, mode)
    match_calls.set(MatchCalls(str(cassette_path), recording, bool(api_base) or not recording))
    try:
        with cassettes.use_cassette(cassette_path, mode, match):
            return await within(coroutine, timeout_s, label=label)
    finally:
        coroutine.close()

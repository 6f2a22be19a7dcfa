"""The per-match transcript: every observation, prompt, reply, action and error.

Events are plain dicts with builtin values so the whole transcript can travel
to the xdist controller and be written as JSON.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable
from contextvars import ContextVar
from typing import Any, TypeVar

T = TypeVar("T")
_BUFFER: ContextVar[list[dict[str, Any]] | None] = ContextVar("stratbench_transcript_buffer", default=None)


class Transcript:
    """An append-only list of timestamped match events.

    Each event has ``kind``, ``t`` (seconds since the match started) and the
    event's own fields. Kinds used by the harness: ``observation``,
    ``llm_call``, ``llm_attempt_failed``, ``action``, ``rejected``, ``fallback``, ``chance``,
    ``message``, ``message_rejected``, ``board`` (the game's snapshot after a step), ``end``; revision matches
    (``core/revision.py``) log ``initial_strategy`` and ``revision_round``; the ``revise`` scaffold logs
    ``revision`` (one per critique, :mod:`stratbench.metrics.revision`).

    Events of players who act concurrently are collected per player
    (:meth:`collect`) and merged in player order, so a replay yields the same
    event order however the concurrent calls interleaved.
    """

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self.events: list[dict[str, Any]] = []

    def add(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Appends an event and returns it."""
        event = {"kind": kind, "t": round(time.perf_counter() - self._start, 6), **fields}
        buffer = _BUFFER.get()
        (buffer if buffer is not None else self.events).append(event)
        return event

    async def collect(self, awaitable: Awaitable[T]) -> tuple[T, list[dict[str, Any]]]:
        """Runs ``awaitable`` in the current task, returning its result and the events it logged.

        Call it inside a task of its own (``asyncio.gather`` makes one per
        awaitable); the events are not added to the transcript — pass them to
        :meth:`extend` in a deterministic order.
        """
        buffer: list[dict[str, Any]] = []
        _BUFFER.set(buffer)
        try:
            return await awaitable, buffer
        except BaseException:
            self.events.extend(buffer)  # an interrupted decision (error, timeout) keeps what it logged
            raise

    def extend(self, events: list[dict[str, Any]]) -> None:
        """Appends events collected with :meth:`collect`."""
        self.events.extend(events)

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        """Returns the events of one kind, in order."""
        return [e for e in self.events if e["kind"] == kind]

    def to_list(self) -> list[dict[str, Any]]:
        """Returns the events as a list of dicts."""
        return list(self.events)

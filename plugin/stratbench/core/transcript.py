"""The per-match transcript: every observation, prompt, reply, action and error.

Events are plain dicts with builtin values so the whole transcript can travel
to the xdist controller and be written as JSON.
"""

from __future__ import annotations

import time
from typing import Any


class Transcript:
    """An append-only list of timestamped match events.

    Each event has ``kind``, ``t`` (seconds since the match started) and the
    event's own fields. Kinds used by the harness: ``observation``,
    ``llm_call``, ``action``, ``rejected``, ``fallback``, ``chance``, ``end``.
    """

    def __init__(self) -> None:
        self._start = time.perf_counter()
        self.events: list[dict[str, Any]] = []

    def add(self, kind: str, **fields: Any) -> dict[str, Any]:
        """Appends an event and returns it."""
        event = {"kind": kind, "t": round(time.perf_counter() - self._start, 6), **fields}
        self.events.append(event)
        return event

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        """Returns the events of one kind, in order."""
        return [e for e in self.events if e["kind"] == kind]

    def to_list(self) -> list[dict[str, Any]]:
        """Returns the events as a list of dicts."""
        return list(self.events)

"""One vcrpy patch for the process that sends each request to its own match's cassette.

vcrpy patches the HTTP libraries globally and binds every patch to one
cassette, so two matches in flight at once cannot each enter their own
``use_cassette``: the second patch would capture the first match's requests.
Here the patch is entered once (while at least one cassette is open) and is
bound to :data:`ROUTER`, a stand-in that forwards every attribute vcrpy reads
to the cassette of the *current match*: a :class:`contextvars.ContextVar`
set inside the match's task. asyncio copies the context into every task and
``asyncio.to_thread`` call the match starts, so a request always reaches the
cassette of the match that made it. A request made outside every match (no
cassette in its context) passes through to the network unrecorded, as it
would with no patch at all.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from typing import Any

current_cassette: contextvars.ContextVar[Any] = contextvars.ContextVar("stratbench_cassette", default=None)
"""The vcrpy cassette of the match whose context this is (None outside every match)."""


class _PassThrough:
    """What a request outside every match sees: nothing to play, nothing kept."""

    record_mode = "all"
    write_protected = False
    allow_playback_repeats = False

    def can_play_response_for(self, request: Any) -> bool:
        return False

    def filter_request(self, request: Any) -> Any:
        return request

    def append(self, request: Any, response: Any) -> None:
        """Drops the interaction: only a match's cassette keeps its traffic."""

    def play_response(self, request: Any) -> Any:  # never reached: nothing can be played
        raise LookupError("no cassette is open in this context")


_PASS_THROUGH = _PassThrough()


class CassetteRouter:
    """The cassette vcrpy's patches are bound to; it forwards to the current match's cassette."""

    custom_patches: tuple[Any, ...] = ()
    skip_patchers: tuple[str, ...] = ()

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._open = 0
        self._patches: contextlib.ExitStack | None = None

    def __getattr__(self, name: str) -> Any:
        cassette = current_cassette.get()
        return getattr(cassette if cassette is not None else _PASS_THROUGH, name)

    @property
    def _path(self) -> str:
        cassette = current_cassette.get()
        return str(cassette._path) if cassette is not None else "stratbench-cassette-router"

    def __len__(self) -> int:  # special methods bypass __getattr__; vcrpy's errors call len()
        cassette = current_cassette.get()
        return len(cassette) if cassette is not None else 0

    def __contains__(self, request: Any) -> bool:
        cassette = current_cassette.get()
        return cassette is not None and request in cassette

    @property
    def patched(self) -> bool:
        """Tells whether vcrpy's patches are in place (some cassette is open)."""
        return self._patches is not None

    def acquire(self) -> None:
        """Counts one more open cassette; the first puts vcrpy's patches in place."""
        with self._lock:
            if self._open == 0:
                from vcr.patch import CassettePatcherBuilder  # lean: vcrpy is slow; loaded at first cassette use

                stack = contextlib.ExitStack()
                try:
                    for patcher in CassettePatcherBuilder(self).build():
                        stack.enter_context(patcher)
                except BaseException:
                    stack.close()
                    raise
                self._patches = stack
            self._open += 1

    def release(self) -> None:
        """Counts one cassette closed; the last one takes vcrpy's patches away."""
        with self._lock:
            self._open -= 1
            if self._open == 0 and self._patches is not None:
                self._patches.close()
                self._patches = None


ROUTER = CassetteRouter()
"""The process's one router."""

"""Matches played ahead of pytest: up to N in flight at once on the process's event loop.

pytest runs one item at a time. When item *i* starts, the pool starts (as
asyncio tasks on the session's loop) the matches of the items this process
will run next, *i* first, until N are unfinished; item *i*'s ``match.play()``
then waits for its own task, and while it waits the loop plays every other
started match too, and each match that ends makes room for the next item's.
So pytest still reports one item per match, in its own order, each with its
own outcome, while N matches wait on models at once: a long match at the head
does not hold the others back. Matches that ended before their item's turn
keep their result until it comes; the pool starts none more than
``LOOKAHEAD`` widths ahead of the item pytest runs, which bounds those results.

Which items come next: the rest of the session's items without xdist; inside
an xdist worker, the indices still in the worker's queue (what the controller
sent it and has not stolen back). A started match whose item left that queue
(stolen by another worker, or its test never asked for it) is cancelled
before it writes anything.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Iterable
from typing import Any

from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.run.session import PlayedMatch, StratbenchSession

Upcoming = list[tuple[str, MatchSpec, SuiteSpec]]
"""The matches a process will run next, in its order: (node id, spec, suite)."""


REPLAN_S = 0.05
"""How often a waiting item re-reads what comes next (an xdist worker's queue grows while it plays)."""

LOOKAHEAD = 4
"""How far ahead of the item pytest runs the pool starts matches, in widths (``--stratbench-concurrency``)."""


class MatchPool:
    """Starts up to ``width`` upcoming matches and hands each its result when its item asks.

    Args:
        session: The process's session (its loop and :meth:`~StratbenchSession.play_async`).
        width: Matches in flight at once (``--stratbench-concurrency``).
    """

    def __init__(self, session: StratbenchSession, width: int) -> None:
        self.session = session
        self.width = width
        self.tasks: dict[str, asyncio.Task[PlayedMatch]] = {}
        self.started = 0
        """Matches this pool has started (for tests and the bench)."""
        self.cancelled = 0
        """Started matches dropped because their item left the queue."""
        self.most_in_flight = 0
        """The most matches this pool had unfinished at once."""
        self.lookahead = width * LOOKAHEAD
        """The most upcoming items the pool looks at (the plugin lists no more)."""
        self.refresh: Callable[[], Upcoming] | None = None
        self.upcoming: Upcoming = []
        self.on_done: Callable[[str, Any], None] | None = None
        """Called with a match's node id and what it played as soon as it ends, ahead of its item (the run's
        per-match line)."""

    def plan(self, upcoming: Upcoming, refresh: Callable[[], Upcoming] | None = None) -> None:
        """Starts upcoming matches, in order, until ``width`` are unfinished; cancels those no longer upcoming.

        The first entry is the item pytest runs now; the pool looks at no more
        than ``lookahead`` entries. ``refresh`` re-reads the upcoming matches;
        :meth:`result` calls it while the current item waits, so items that
        reach an xdist worker's queue after the current item started are
        started at once, not when the next item begins.
        """
        self.refresh = refresh
        self.upcoming = upcoming[: self.lookahead]
        wanted = {nodeid for nodeid, _, _ in self.upcoming}
        for nodeid in [n for n in self.tasks if n not in wanted]:
            self._cancel(nodeid)
        self._fill()

    def _fill(self) -> None:
        """Starts the upcoming matches not yet started, in order, until ``width`` are unfinished."""
        in_flight = sum(1 for task in self.tasks.values() if not task.done())
        for nodeid, spec, suite in self.upcoming:
            if in_flight >= self.width:
                break
            if nodeid not in self.tasks:
                self.tasks[nodeid] = self.session.loop.create_task(self.session.play_async(spec, suite, nodeid))
                self.tasks[nodeid].add_done_callback(functools.partial(self._ended, nodeid))
                self.started += 1
                in_flight += 1
        self.most_in_flight = max(self.most_in_flight, in_flight)

    def _ended(self, nodeid: str, task: asyncio.Task[PlayedMatch]) -> None:
        if self.on_done is not None and not task.cancelled() and task.exception() is None:
            self.on_done(nodeid, task.result())

    def has(self, nodeid: str) -> bool:
        """Tells whether the pool started this match."""
        return nodeid in self.tasks

    def result(self, nodeid: str) -> PlayedMatch:
        """Waits for the match's task (playing the others meanwhile) and returns what it played.

        Raises:
            Exception: whatever the match raised (see :meth:`StratbenchSession.play_async`).
        """
        task = self.tasks[nodeid]
        loop = self.session.loop
        while not task.done():
            unfinished = {other for other in self.tasks.values() if not other.done()}
            timeout = REPLAN_S if self.refresh is not None else None
            loop.run_until_complete(asyncio.wait(unfinished, timeout=timeout, return_when=asyncio.FIRST_COMPLETED))
            if task.done():
                break
            if self.refresh is not None:
                self.plan(self.refresh(), self.refresh)
            else:
                self._fill()  # a match ended: the next upcoming one takes its place
        del self.tasks[nodeid]
        return loop.run_until_complete(task)

    def discard(self, nodeid: str) -> None:
        """Cancels a started match whose test plays it another way (with options)."""
        if nodeid in self.tasks:
            self._cancel(nodeid)

    def close(self) -> None:
        """Cancels the started matches no item asked for (the session stopped early: ``-x``, ``--maxfail``).

        Each is awaited until it has stopped, and what a finished one raised is
        retrieved, so no task is left to fail or be reported on its own.
        """
        for nodeid in list(self.tasks):
            self._cancel(nodeid)

    def _cancel(self, nodeid: str) -> None:
        task = self.tasks.pop(nodeid)
        if not task.done():
            task.cancel()
            self.cancelled += 1
            self.session.loop.run_until_complete(asyncio.gather(task, return_exceptions=True))
        elif not task.cancelled():
            task.exception()  # retrieved: no "exception never retrieved" warning


def upcoming_items(items: list[Any], position: int, nextitem: Any, queue: list[int] | None) -> Iterable[Any]:
    """Yields the items this process runs from the current one on, in order.

    Args:
        items: The session's collected items.
        position: The current item's index in ``items``.
        nextitem: The item pytest runs after it (an xdist worker has taken it off its queue already).
        queue: Inside an xdist worker, the indices still queued for it; None without xdist.
    """
    if queue is None:
        yield from items[position:]
        return
    yield items[position]
    if nextitem is not None:
        yield nextitem
    for index in queue:
        yield items[index]


def worker_queue(config: Any) -> Callable[[], list[int]] | None:
    """Returns a reader of this xdist worker's queued item indices, or None outside a worker.

    The queue is xdist's own (``WorkerInteractor.torun``), read under its lock.
    """
    if not hasattr(config, "workerinput"):
        return None
    for plugin in config.pluginmanager.get_plugins():
        torun = getattr(plugin, "torun", None)
        if type(plugin).__name__ == "WorkerInteractor" and torun is not None and hasattr(torun, "lock"):

            def read(torun: Any = torun) -> list[int]:
                with torun.lock() as queued:
                    return [index for index in queued if isinstance(index, int)]

            return read
    return lambda: []

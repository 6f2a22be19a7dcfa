"""The match pool starts upcoming matches, re-reads what comes next while an item waits, and cancels what left."""

from __future__ import annotations

import asyncio

from stratbench.match_pool import MatchPool, upcoming_items


class FakeSession:
    """Plays a match by waiting until the test releases it; notes which matches started."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.started: list[str] = []
        self.release: dict[str, asyncio.Future] = {}

    async def play_async(self, spec, suite, nodeid):
        self.started.append(nodeid)
        self.release[nodeid] = self.loop.create_future()
        return await self.release[nodeid]


def entry(nodeid: str):
    return (nodeid, None, None)


def test_a_waiting_item_starts_the_matches_that_reach_the_queue_meanwhile():
    session = FakeSession()
    pool = MatchPool(session, width=4)
    queue = ["a"]  # the worker's queue when item a starts: the rest arrives while it plays

    def refresh():
        if len(queue) == 1:
            queue.extend(["b", "c", "d", "e"])
        return [entry(n) for n in queue]

    pool.plan([entry("a")], refresh)
    assert session.started == []  # tasks start on the loop
    session.loop.call_later(0.3, lambda: session.release["a"].set_result("a played"))
    assert pool.result("a") == "a played"
    assert session.started == ["a", "b", "c", "d"]  # width 4: e waits for a free place in the next plan
    assert pool.most_in_flight == 4
    session.loop.close()


def test_a_match_that_left_the_queue_is_cancelled():
    session = FakeSession()
    pool = MatchPool(session, width=3)
    pool.plan([entry("a"), entry("b"), entry("c")])
    session.loop.run_until_complete(asyncio.sleep(0))
    pool.plan([entry("a"), entry("c")])  # b was stolen by another worker
    assert pool.cancelled == 1 and not pool.has("b") and pool.has("c")
    session.loop.close()


def test_upcoming_items_in_a_worker_are_the_current_the_next_and_the_queue():
    items = ["i0", "i1", "i2", "i3", "i4"]
    assert list(upcoming_items(items, 1, "i3", [4])) == ["i1", "i3", "i4"]
    assert list(upcoming_items(items, 2, None, None)) == ["i2", "i3", "i4"]

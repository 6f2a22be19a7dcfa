"""The match pool starts upcoming matches, re-reads what comes next while an item waits, and cancels what left."""

from __future__ import annotations

import asyncio

from stratbench.run.pool import MatchPool, upcoming_items


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


def test_cancelling_a_match_with_a_time_limit_cancels_the_match_itself():
    """The pool cancels the task awaiting the match: the match's own task stops with it, nothing runs on."""
    from stratbench.match.play import play_in_cassette

    loop = asyncio.new_event_loop()
    answer = loop.create_future()
    unwound = []

    async def match():
        try:
            return await answer  # a model call: its answer arrives after the cancellation
        finally:
            unwound.append("match")

    async def scenario():
        outer = asyncio.ensure_future(play_in_cassette(match(), None, "none", api_base=None, timeout_s=60))
        await asyncio.sleep(0.01)
        (inner,) = [t for t in asyncio.all_tasks() if t not in (outer, asyncio.current_task())]
        outer.cancel()
        results = await asyncio.gather(outer, return_exceptions=True)
        if not answer.done():
            answer.set_result("late answer")
        await asyncio.sleep(0.01)
        return results, inner

    results, inner = loop.run_until_complete(scenario())
    loop.close()
    assert isinstance(results[0], asyncio.CancelledError)
    assert unwound == ["match"]
    assert inner.cancelled(), inner  # not left to wake on the late answer ('cannot reuse already awaited coroutine')


def test_closing_the_pool_cancels_unasked_matches_and_retrieves_what_finished_ones_raised():
    """After -x stops a session, the matches started ahead leave neither a pending task nor an unretrieved error."""
    session = FakeSession()
    pool = MatchPool(session, width=3)
    pool.plan([entry("a"), entry("b"), entry("c")])
    session.loop.run_until_complete(asyncio.sleep(0))
    session.release["b"].set_exception(RuntimeError("provider fault"))
    session.loop.run_until_complete(asyncio.sleep(0))
    errors = []
    session.loop.set_exception_handler(lambda _, context: errors.append(context["message"]))
    tasks = list(pool.tasks.values())
    pool.close()
    assert not pool.tasks and pool.cancelled == 2
    assert [t.cancelled() for t in tasks] == [True, False, True]
    del tasks
    import gc

    gc.collect()
    session.loop.close()
    assert errors == []

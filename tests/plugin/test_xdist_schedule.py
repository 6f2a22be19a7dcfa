"""Under ``-n`` with concurrency, each worker's queue is kept as long as its match pool is wide."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from stratbench.run.xdist_schedule import make_scheduler

pytest.importorskip("xdist")


class FakeConfig:
    def __init__(self, dist: str = "load", workers: int = 2) -> None:
        self.options = {"dist": dist, "maxschedchunk": None, "tx": [f"{workers}*popen"]}

    def getoption(self, name, default=None):
        return self.options.get(name, default)

    getvalue = getoption


class FakeNode:
    def __init__(self, name: str) -> None:
        self.name = name
        self.shutting_down = False
        self.sent: list[int] = []
        self.gateway = SimpleNamespace(id=name)

    def send_runtest_some(self, indices):
        self.sent.extend(indices)

    def shutdown(self):
        self.shutting_down = True


def start(width: int, items: int, workers: int = 2):
    scheduler = make_scheduler(FakeConfig(workers=workers), SimpleNamespace(loadsched=lambda *a: None), width)
    nodes = [FakeNode(f"gw{i}") for i in range(workers)]
    for node in nodes:
        scheduler.add_node(node)
    for node in nodes:
        scheduler.add_node_collection(node, [f"test_{i}" for i in range(items)])
    scheduler.schedule()
    return scheduler, nodes


def test_each_worker_gets_as_many_items_as_its_pool_plays_at_once():
    scheduler, (a, b) = start(width=32, items=64)
    assert (len(a.sent), len(b.sent)) == (32, 32)  # xdist's own ``load`` sends 8 each, then 2 at a time
    assert not scheduler.pending and a.shutting_down and b.shutting_down
    assert sorted(a.sent + b.sent) == list(range(64))


def test_a_long_running_item_does_not_stop_the_top_up():
    scheduler, (a, b) = start(width=8, items=40)
    assert (len(a.sent), len(b.sent)) == (8, 8)
    for index in a.sent[:3]:
        scheduler.mark_test_complete(a, index, duration=5.0)  # ``load`` would wait: the node still holds 2+
    assert len(scheduler.node2pending[a]) == 8 and len(a.sent) == 11
    assert sorted(a.sent + b.sent + scheduler.pending) == list(range(40))


def test_the_last_items_are_shared_out():
    scheduler, (a, b) = start(width=32, items=10)
    assert (len(a.sent), len(b.sent)) == (5, 5)


@pytest.mark.parametrize("dist, width", [("loadscope", 32), ("worksteal", 32), ("load", 1)])
def test_another_distribution_or_no_concurrency_keeps_xdists_scheduler(dist, width):
    assert make_scheduler(FakeConfig(dist=dist), SimpleNamespace(loadsched=lambda *a: None), width) is None

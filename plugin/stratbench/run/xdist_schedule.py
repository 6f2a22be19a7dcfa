"""xdist's ``load`` distribution, fed so that each worker's match pool stays full.

With ``--stratbench-concurrency N`` a worker plays at once the matches that
are in its queue (:mod:`stratbench.run.pool`). xdist's ``load`` scheduler
keeps that queue short on purpose: it first sends each worker a quarter of
its share, and once a test has taken 0.1 s or more it sends nothing new while
the worker still holds two items. Matches take seconds, so under plain
``load`` a worker holds two or three matches however large N is, and
``-n 2 --stratbench-concurrency 32`` played far fewer matches at once than one
process alone.

:class:`MatchLoadScheduling` is ``load`` with one change: every worker's queue
is topped up to N items (never above an even share of the items not yet
finished, so the last matches still spread over the workers), at the start and after each
finished item. Which worker runs which item, and the reports, are otherwise
``load``'s. It is used only under xdist's default ``--dist load`` with a
concurrency above 1; any other ``--dist`` the user picks is left alone.

Entry point: :func:`make_scheduler` (called from the plugin's
``pytest_xdist_make_scheduler``).
"""

from __future__ import annotations

import math
from typing import Any

import pytest


def make_scheduler(config: pytest.Config, log: Any, width: int) -> Any | None:
    """Returns the scheduler for a run with ``width`` matches in flight per worker, or None to keep xdist's.

    None when the user chose a distribution other than ``load`` or the width is 1.
    """
    if width <= 1 or config.getoption("dist", "load") != "load":
        return None
    from xdist.scheduler import LoadScheduling  # lean: only an -n controller loads xdist's schedulers

    class MatchLoadScheduling(LoadScheduling):
        """``load`` that keeps ``width`` items queued on each worker (see the module docstring)."""

        def schedule(self) -> None:
            super().schedule()
            if self.collection:
                for node in self.nodes:
                    self.check_schedule(node)
                if not self.pending:  # everything is sent: each worker may finish its queue and stop
                    for node in self.nodes:
                        if not node.shutting_down:
                            node.shutdown()

        def check_schedule(self, node: Any, duration: float = 0) -> None:
            if node.shutting_down:
                return
            if not self.pending:
                node.shutdown()
                return
            queued = sum(len(items) for items in self.node2pending.values())
            share = math.ceil((len(self.pending) + queued) / max(1, len(self.node2pending)))
            missing = min(width, share) - len(self.node2pending[node])
            if missing > 0:
                self._send_tests(node, min(missing, len(self.pending)))
            self.log("num items waiting for node:", len(self.pending))

    return MatchLoadScheduling(config, log)

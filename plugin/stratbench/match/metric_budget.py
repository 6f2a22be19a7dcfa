"""A time budget for each per-match metric (``--stratbench-metric-timeout``).

Metrics run on the process's scoring thread, in Python, and do not yield:
an asyncio timeout cannot stop one, and a Python thread cannot be killed.
So the budget is cooperative: :func:`~stratbench.match.score.score_match`
gives each metric a :class:`MetricBudget` (the context's
:data:`current_budget`), and a metric whose work can grow without bound
(the state–action-space enumeration of a planning task) calls
:meth:`MetricBudget.check` inside its loops. A metric past its budget
raises :class:`MetricTimeout`; what it could not compute is recorded as
not computed, with the reason, and the match still scores.

A cooperative stop also unwinds the metric's ``with`` blocks: the
state–action-space metric holds unified-planning's process-wide lock, which
an abandoned thread would keep, stalling every later planning match.
"""

from __future__ import annotations

import contextvars
import time
from collections.abc import Callable

DEFAULT_METRIC_TIMEOUT_S = 30.0
"""Seconds each per-match metric may take (``--stratbench-metric-timeout``)."""


class MetricTimeout(Exception):
    """Raised inside a metric that ran past its budget."""


class MetricBudget:
    """The time one metric of one match may take.

    Args:
        seconds: The budget; None: no limit.
        clock: Monotonic seconds (a test passes its own).
    """

    def __init__(self, seconds: float | None, clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self.clock = clock
        self.deadline = None if seconds is None else clock() + seconds
        self.not_computed: dict[str, str] = {}
        """What the metric left out because it ran out of time, by value name, with the reason."""

    def reason(self, what: str) -> str:
        """Returns the one line a record and the report give for something not computed in time."""
        return f"{what} not computed: it ran past the {self.seconds:g} s metric budget (--stratbench-metric-timeout)"

    def check(self, what: str = "the metric") -> None:
        """Raises :class:`MetricTimeout` once the budget is spent.

        Raises:
            MetricTimeout: with :meth:`reason` for ``what``.
        """
        if self.deadline is not None and self.clock() > self.deadline:
            raise MetricTimeout(self.reason(what))


current_budget: contextvars.ContextVar[MetricBudget | None] = contextvars.ContextVar(
    "stratbench_metric_budget", default=None)
"""The budget of the metric running in this context (None outside :func:`~stratbench.match.score.score_match`)."""


def budget() -> MetricBudget:
    """Returns the running metric's budget, or an unlimited one outside a scored match."""
    return current_budget.get() or MetricBudget(None)

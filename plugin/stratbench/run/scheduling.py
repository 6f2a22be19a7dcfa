"""``--schedule adaptive --budget N``: play the matches that most shrink the rating intervals' overlap.

Out of the collected two-sided matches (the candidates), the run plays one at
a time the one :class:`~stratbench.rating.adaptive.AdaptivePlanner` chooses
from the results so far, until N have been played; every other candidate is
still run, as a skipped item whose record says why. Items that are not
matches run first, as collected; matches with another number of sides, or an
agent against itself, have no pairwise rating to sharpen and are skipped with
their reason.

Adaptive scheduling runs in one process: the choice of each match needs the
results of those before it, and xdist hands its workers their items ahead of
time, so ``-n``/``--tx`` are refused. pytest tears a match's fixtures down
knowing the item that follows, so the next match is chosen while the current
one is in play: from every result finished before it, with the match in play
counted by its information (which does not depend on its outcome).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from stratbench.core.schedule import MatchSpec

ADAPTIVE = "adaptive"


def schedule_problem(config: pytest.Config) -> str | None:
    """Returns the one-line problem with the scheduling options, or None when they fit together."""
    schedule = config.getoption("stratbench_schedule")
    budget = config.getoption("stratbench_budget")
    if schedule != ADAPTIVE:
        if (budget is None or config.getoption("stratbench_gate_until_decided", False)
                or config.getoption("stratbench_gate_plan", False)):
            return None
        return "--budget needs --schedule adaptive (it is the number of matches adaptive scheduling plays)"
    if budget is None:
        return "--schedule adaptive needs --budget N, the number of matches to play"
    if config.getoption("numprocesses", None) or config.getoption("tx", None):
        return ("--schedule adaptive chooses each match from the results before it, so it runs in one "
                "process; drop -n and --tx")
    if config.getoption("stratbench_shard", None) is not None:
        return "--schedule adaptive chooses among every collected match; it cannot be combined with --stratbench-shard"
    return None


def run_in_order(session: pytest.Session,
                 order: Callable[[set[pytest.Item]], Iterator[pytest.Item]]) -> bool | None:
    """pytest's run loop over the items ``order`` yields, each item knowing the one that follows it.

    ``order`` gets the items still selected (a later plugin may have deselected
    some) and may choose each next item lazily, from the results finished so far.
    """
    if session.config.option.collectonly:
        return None
    if session.testsfailed and not session.config.option.continue_on_collection_errors:
        raise session.Interrupted(f"{session.testsfailed} error(s) during collection")
    items = order(set(session.items))
    current = next(items, None)
    while current is not None:
        following = next(items, None)  # chosen now, while ``current`` has not started
        current.config.hook.pytest_runtest_protocol(item=current, nextitem=following)
        if session.shouldfail:
            raise session.Failed(session.shouldfail)
        if session.shouldstop:
            raise session.Interrupted(session.shouldstop)
        current = following
    return True


def _seating(spec: MatchSpec) -> tuple[str, str]:
    return spec.sides[0].label, spec.sides[1].label


class AdaptiveSchedule:
    """Runs the session's items in the adaptive order; registered only under ``--schedule adaptive``."""

    def __init__(self, budget: int) -> None:
        self.budget = budget
        self.others: list[pytest.Item] = []
        self.candidates: list[tuple[pytest.Item, MatchSpec]] = []
        from stratbench.rating.adaptive import AdaptivePlanner  # lean: choix and numpy only when adaptive runs

        self.planner = AdaptivePlanner([])
        self.chosen: dict[str, tuple[str, str]] = {}
        """Node id of each chosen match (not yet recorded) → its seating."""

    def take(self, items: list[tuple[pytest.Item, MatchSpec | None]], records: list[dict[str, Any]]) -> None:
        """Sorts the collected items into candidates and the rest; the session's records so far count."""
        self.others, self.candidates = [], []
        for item, spec in items:
            if spec is None or spec.skip:
                self.others.append(item)
            elif len(spec.sides) != 2:
                item.add_marker(pytest.mark.skip(
                    reason=f"--schedule adaptive plays two-sided matches only (the ones Bradley–Terry rates); "
                           f"this one has {len(spec.sides)} side{'' if len(spec.sides) == 1 else 's'}"))
                self.others.append(item)
            elif spec.sides[0].label == spec.sides[1].label:
                item.add_marker(pytest.mark.skip(
                    reason=f"--schedule adaptive plays matches between two different agents only (the ones "
                           f"Bradley–Terry rates); both sides are {spec.sides[0].label}"))
                self.others.append(item)
            else:
                self.candidates.append((item, spec))
        agents = [label for _, spec in self.candidates for label in _seating(spec)]
        from stratbench.rating.adaptive import (  # lean: the rating stack, for --stratbench-schedule adaptive
            AdaptivePlanner,
        )

        self.planner = AdaptivePlanner(agents)
        for record in records:
            self.pytest_stratbench_match_recorded(record)

    def order(self) -> Iterator[pytest.Item]:
        """Yields the items to run: the others, then the chosen matches one by one, then the rest skipped."""
        yield from self.others
        remaining = list(self.candidates)
        played = 0
        while played < self.budget:
            index = self.planner.choose([_seating(spec) for _, spec in remaining])
            if index is None:
                break
            item, spec = remaining.pop(index)
            self.chosen[item.nodeid] = _seating(spec)
            self.planner.add_pending(_seating(spec))
            played += 1
            yield item
        for item, _ in remaining:
            item.add_marker(pytest.mark.skip(
                reason=f"not chosen by --schedule adaptive: its budget of {self.budget} matches went to "
                       f"matches that narrowed the rating intervals more"))
            yield item

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        """Runs the items in :meth:`order`, each knowing the item that follows it."""
        return run_in_order(session, self._live_order)

    def _live_order(self, live: set[pytest.Item]) -> Iterator[pytest.Item]:
        self.others = [item for item in self.others if item in live]
        self.candidates = [(item, spec) for item, spec in self.candidates if item in live]
        return self.order()

    def pytest_stratbench_match_recorded(self, record: dict[str, Any]) -> None:
        """Adds a finished match's scores to the planner (a chosen match without scores stops being pending)."""
        seating = self.chosen.pop(str(record.get("match_id")), None)
        sides, scores = record.get("sides"), record.get("scores")
        if (record.get("status", "scored") != "scored" or not isinstance(sides, list) or len(sides) != 2
                or not isinstance(scores, list) or len(scores) != 2):
            if seating is not None:
                self.planner.drop_pending(seating)
            return
        agents = (str(sides[0].get("agent")), str(sides[1].get("agent")))
        if seating is not None and seating != agents:
            self.planner.drop_pending(seating)
        from stratbench.rating.data import MatchResult  # lean: the rating stack, for --stratbench-schedule adaptive

        self.planner.add_result(MatchResult(str(record.get("game")), agents, tuple(scores), record.get("match_id")))

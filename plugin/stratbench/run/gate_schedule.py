"""``--gate-until-decided``: play pairs for the games the gate has not decided yet.

Out of the collected matches, the candidates are those that can make a pair
for a gated agent: a match of an agent under test whose twin the baseline
holds (``--baseline``), or a head-to-head match of NEW and OLD
(``--stratbench-gate-map`` without a baseline). One at a time, the run plays
the lowest seed of the undecided test (agent and game) with the fewest
matches played, so pairs complete in seed order; after every recorded match
the gate is run again on the results so far and the terminal shows that
game's LLR. It stops when every test is decided, or after ``--budget N``
matches; every candidate not played is still run, as a skipped item whose
record says why. Items that are not candidates run first, as collected.

Like ``--schedule adaptive`` it runs in one process, and the next match is
chosen while the current one is in play (pytest tears fixtures down knowing
the item that follows), so a test may get one match after its decision.
The error rates are split over every test planned from the candidates, from
the first match on. ``--resume`` carries earlier records in; cassettes
record and replay as always.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from stratbench.core.schedule import MatchSpec
from stratbench.run.scheduling import run_in_order
from stratbench.report.gate import NothingCompared, _match_key, check, head_to_head, rows_from_records

__all__ = ["GateSchedule", "until_decided_problem"]


def until_decided_problem(config: pytest.Config, baseline: Any) -> str | None:
    """Returns the one-line problem with ``--gate-until-decided``, or None."""
    if not config.getoption("stratbench_gate_until_decided"):
        return None
    if baseline is None and not config.getoption("stratbench_gate_map"):
        return "--gate-until-decided needs --baseline PATH or --stratbench-gate-map NEW=OLD (a gate to decide)"
    if config.getoption("stratbench_schedule") == "adaptive":
        return "--gate-until-decided chooses the matches itself; drop --schedule adaptive"
    if config.getoption("numprocesses", None) or config.getoption("tx", None):
        return ("--gate-until-decided chooses each match from the results before it, so it runs in one process; "
                "drop -n and --tx")
    if config.getoption("stratbench_shard", None) is not None:
        return "--gate-until-decided chooses among every collected match; it cannot be combined with --stratbench-shard"
    return None


TestKey = tuple[str, str, str]
"""(agent, compared agent, game)."""


class GateSchedule:
    """Runs the session's items until the gate decides; registered only under ``--gate-until-decided``."""

    def __init__(self, config: pytest.Config, settings: Any) -> None:
        self.config = config
        self.settings = settings
        """The gate's settings (:func:`stratbench.run.gating.settings_from_pytest`), fixed for the run."""
        self.budget: int | None = config.getoption("stratbench_budget")
        self.others: list[pytest.Item] = []
        self.queues: dict[TestKey, list[pytest.Item]] = {}
        self.records: list[dict[str, Any]] = []
        self.state: dict[TestKey, Any] = {}
        self.played: dict[TestKey, int] = {}
        self.planned_tests = 0

    # ------------------------------------------------------------ setup

    def _baseline(self) -> dict[str, Any] | None:
        controller = self.config.pluginmanager.get_plugin("stratbench-controller")
        return getattr(controller, "baseline", None)

    def _test_of(self, spec: MatchSpec, item: pytest.Item, baseline_keys: dict[TestKey, set[Any]]) -> TestKey | None:
        labels = [side.label for side in spec.sides]
        mapping = self.settings.agent_map
        if self._baseline() is None:
            for new, old in sorted(mapping.items()):
                if sorted(labels) == sorted([new, old]) and new != old:
                    return new, old, spec.game
            return None
        subject = labels[spec.subject]
        gated = mapping if mapping else {label: label for label in labels}
        for agent in [subject, *labels]:
            if agent not in gated:
                continue
            key = (agent, gated[agent], spec.game)
            keyed = {**mapping, agent: gated[agent]} if mapping or agent != gated[agent] else None
            row = {"match_id": item.nodeid, "game": spec.game, "agents": labels, "seed": spec.seed,
                   "variant": spec.variant, "subject": spec.subject}
            if _match_key(row, keyed) in baseline_keys.get(key, set()):
                return key
        return None

    def take(self, items: list[tuple[pytest.Item, MatchSpec | None]], records: list[dict[str, Any]]) -> None:
        """Sorts the collected items into per-test queues (by seed) and the rest; earlier records count."""
        baseline = self._baseline()
        mapping = self.settings.agent_map
        baseline_keys: dict[TestKey, set[Any]] = {}
        if baseline is not None:
            for row in baseline.get("matches", []):
                for base_agent in set(row["agents"]):
                    agents = [new for new, old in mapping.items() if old == base_agent] if mapping else [base_agent]
                    for agent in agents:
                        keyed = {} if mapping or agent != base_agent else None
                        baseline_keys.setdefault((agent, base_agent, row["game"]), set()).add(_match_key(row, keyed))
        self.others, self.queues = [], {}
        for item, spec in items:
            key = None if spec is None or spec.skip else self._test_of(spec, item, baseline_keys)
            if key is None:
                self.others.append(item)
            else:
                self.queues.setdefault(key, []).append((spec.seed, item.nodeid, item))
        self.queues = {key: [item for *_, item in sorted(queue, key=lambda e: e[:2])]
                       for key, queue in sorted(self.queues.items())}
        self.planned_tests = len(self.queues)
        self.records = list(records)
        self._update()

    # ------------------------------------------------------------ the gate so far

    def _update(self) -> None:
        report = rows_from_records(self.records)
        baseline = self._baseline()
        try:
            result = (check(report, baseline, self.settings, self.planned_tests) if baseline is not None
                      else head_to_head(report, self.settings, self.planned_tests))
        except NothingCompared:
            return
        self.state = {(t.agent, t.base_agent, t.game): t for t in result.tests}

    def _decided(self, key: TestKey) -> bool:
        test = self.state.get(key)
        return test is not None and test.decision != "inconclusive"

    def order(self) -> Iterator[pytest.Item]:
        """Yields the others, then one match at a time of the least-played undecided test, then the rest skipped."""
        yield from self.others
        played = 0
        while self.budget is None or played < self.budget:
            open_tests = [key for key, queue in self.queues.items() if queue and not self._decided(key)]
            if not open_tests:
                break
            key = min(open_tests, key=lambda k: (self.played.get(k, 0), k))
            self.played[key] = self.played.get(key, 0) + 1
            played += 1
            yield self.queues[key].pop(0)
        for key, queue in self.queues.items():
            test = self.state.get(key)
            if self._decided(key):
                reason = (f"--gate-until-decided: {key[0]} on {key[2]} is decided ({test.decision}) after "
                          f"{test.decided_at or test.pairs} pair(s)")
            else:
                reason = f"--gate-until-decided: its budget of {self.budget} matches is spent"
            for item in queue:
                item.add_marker(pytest.mark.skip(reason=reason))
                yield item

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        """Runs the items in :meth:`order`, each knowing the item that follows it."""
        return run_in_order(session, self._live_order)

    def _live_order(self, live: set[pytest.Item]) -> Iterator[pytest.Item]:
        self.others = [item for item in self.others if item in live]
        self.queues = {key: [item for item in queue if item in live] for key, queue in self.queues.items()}
        return self.order()

    def pytest_stratbench_match_recorded(self, record: dict[str, Any]) -> None:
        """Reruns the gate on the results so far and shows the LLR of the record's game."""
        self.records.append(record)
        self._update()
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        if terminal is None or record.get("status", "scored") != "scored":
            return
        for key, test in self.state.items():
            if key[2] == record.get("game") and key[0] in [side.get("agent") for side in record.get("sides", [])]:
                terminal.write_line(
                    f"stratbench gate: {key[0]} on {key[2]}: LLR {test.llr:+.2f} ({test.lower:+.2f}, "
                    f"{test.upper:+.2f}) after {test.decided_at or test.pairs} pair(s): {test.decision}")

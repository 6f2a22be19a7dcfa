"""``--gate-until-decided``: play units for the games the gate has not decided yet.

Out of the collected matches, the candidates are those that can complete a
unit for a gated agent: a seed in both seatings (one match against a
baseline recorded without ``--pairs``) of an agent under test whose twins
the baseline holds (``--baseline``), or of NEW against OLD head to head
(``--stratbench-gate-map`` without a baseline). Before the first match the
run says its plan (tests, units that can pair, the units a decision takes
on average, the budget). Then, one unit at a time, it plays the next unit
in the gate's order (a hash of test, variant and seed: unrelated to seeds
and seatings) of the undecided test with the fewest units played; after
every recorded match the gate is run again on the results so far and the
terminal shows that game's LLR. It stops when every test is decided, or
when ``--budget N`` matches (counted across ``--resume``) cannot finish the
next unit; every candidate not played is still run, as a skipped item
whose record says why, and so is every match that cannot complete a unit
(never played). When nothing collected can complete a unit the run stops
before playing anything (exit 4). Items that are not candidates run first,
as collected.

Like ``--schedule adaptive`` it runs in one process, and the next match is
chosen while the current one is in play (pytest tears fixtures down knowing
the item that follows), so a test may get one unit after its decision.
The error rates are split over every test planned from the candidates, from
the first match on. ``--resume`` carries earlier records in; cassettes
record and replay as always.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from stratbench.core.obfuscation import Obfuscation
from stratbench.core.schedule import MatchSpec
from stratbench.run.scheduling import run_in_order
from stratbench.report.gate import (
    NothingCompared,
    _errored_rows,
    _unit_key,
    check,
    head_to_head,
    plan_lines,
    rows_from_records,
    unit_place,
)
from stratbench.stash import SESSION_KEY


def _renaming_tag(spec: MatchSpec, salt: str) -> str | None:
    """A memorisation probe's renaming as its records name it (:attr:`Obfuscation.tag` with the run's salt, as the
    match is played), None for an original."""
    return None if spec.obfuscation is None else Obfuscation.parse(spec.obfuscation, salt).tag


def until_decided_problem(config: pytest.Config, baseline: Any) -> str | None:
    """Returns the one-line problem with ``--gate-until-decided`` (or ``--gate-plan``), or None."""
    if config.getoption("stratbench_gate_until_decided"):
        flag = "--gate-until-decided"
    elif config.getoption("stratbench_gate_plan", False):
        flag = "--gate-plan"
    else:
        return None
    if baseline is None and not config.getoption("stratbench_gate_map"):
        return f"{flag} needs --baseline PATH or --stratbench-gate-map NEW=OLD (a gate to decide)"
    if config.getoption("stratbench_schedule") == "adaptive":
        return f"{flag} chooses the matches itself; drop --schedule adaptive"
    if config.getoption("numprocesses", None) or config.getoption("tx", None):
        return (f"{flag} chooses each match from the results before it, so it runs in one process; "
                "drop -n and --tx")
    if config.getoption("stratbench_shard", None) is not None:
        return f"{flag} chooses among every collected match; it cannot be combined with --stratbench-shard"
    return None


TestKey = tuple[str, str, str]
"""(agent, compared agent, game)."""


class GateSchedule:
    """Runs the session's items until the gate decides (``--gate-until-decided``, ``--gate-plan``); in any other
    gated run (``until_decided=False``) only says the plan and skips the matches that cannot complete a unit,
    the run playing the rest as collected."""

    def __init__(self, config: pytest.Config, settings: Any, baseline: dict[str, Any] | None = None, *,
                 until_decided: bool = True) -> None:
        self.config = config
        self.baseline = baseline
        """The ``--baseline`` results, loaded and checked (None: head to head)."""
        self.settings = settings
        """The gate's settings (:func:`stratbench.run.gating.settings_from_pytest`), fixed for the run."""
        self.until_decided = until_decided
        self.budget: int | None = config.getoption("stratbench_budget") if until_decided else None
        self.others: list[pytest.Item] = []
        self.queues: dict[TestKey, list[list[pytest.Item]]] = {}
        """Per test, its units (each the items of one seed: both seatings, or one match) in the gate's order."""
        self.unpaired: list[tuple[pytest.Item, str]] = []
        """Matches of a gated test that cannot complete a unit, with why: never played."""
        self.records: list[dict[str, Any]] = []
        self.state: dict[TestKey, Any] = {}
        self.played: dict[TestKey, int] = {}
        self.spent_before = 0
        """Matches of the gated tests played by the runs this one resumes: they count against ``--budget``."""
        self.planned_tests = 0

    # ------------------------------------------------------------ setup

    def _baseline(self) -> dict[str, Any] | None:
        return self.baseline

    def _baseline_units(self, baseline: dict[str, Any]) -> dict[TestKey, dict[Any, set]]:
        """Per test, the baseline's units and the seatings each holds (its errored matches count: they are charged)."""
        mapping = self.settings.agent_map
        units: dict[TestKey, dict[Any, set]] = {}
        for row in [*baseline.get("matches", []), *_errored_rows(baseline)]:
            subject = row["agents"][row.get("subject", 0)]
            found = _unit_key(row, subject, None)
            if found is None:
                continue
            agents = [new for new, old in mapping.items() if old == subject] if mapping else [subject]
            for agent in agents:
                units.setdefault((agent, subject, row["game"]), {}).setdefault(found[0], set()).add(found[1])
        return units

    def _classify(self, spec: MatchSpec, item: pytest.Item, base_units: dict[TestKey, dict[Any, set]] | None,
                  ) -> tuple[TestKey | None, Any, Any, str | None]:
        """``(test, unit, seating, why not)`` of a collected match; test None: not gated (played as collected)."""
        labels = [side.label for side in spec.sides]
        mapping = self.settings.agent_map
        renaming = _renaming_tag(spec, self.config.stash[SESSION_KEY].settings.seed_salt)
        row = {"match_id": item.nodeid, "game": spec.game, "agents": labels, "seed": spec.seed,
               "variant": spec.variant, "subject": spec.subject, "renaming": renaming,
               "openings": spec.openings if spec.openings != "empty" else None}
        test = item.nodeid.split("[", 1)[0]
        if base_units is None:  # head to head: NEW against OLD, a unit is a seed in both seatings
            for new, old in sorted(mapping.items()):
                if sorted(labels) == sorted([new, old]) and new != old:
                    return ((new, old, spec.game), ("h2h", test, spec.variant, spec.seed, renaming, row["openings"]),
                            labels.index(new), None)
            return None, None, None, None
        subject = labels[spec.subject]
        if mapping and subject not in mapping:
            return None, None, None, None
        key = (subject, mapping.get(subject, subject) if mapping else subject, spec.game)
        if key not in base_units:
            return None, None, None, None  # not in the baseline: played, and named as not compared
        unit, seat = _unit_key(row, subject, {subject: key[1]})
        seats = base_units[key].get(unit)
        if seats is None:
            return key, unit, seat, "the baseline has no match of this seed"
        if seat not in seats:
            return key, unit, seat, "the baseline played this seed in the other seating"
        if any(len(held) == 2 for held in base_units[key].values()) and len(seats) < 2:
            return key, unit, seat, "the baseline played this seed in one seating only"
        return key, unit, seat, None

    def take(self, items: list[tuple[pytest.Item, MatchSpec | None]], records: list[dict[str, Any]]) -> None:
        """Sorts the collected items into per-test units (in the gate's order) and the rest; earlier records count.

        Raises:
            pytest.UsageError: Nothing collected can complete a unit (exit 4, before any match).
        """
        baseline = self._baseline()
        base_units = self._baseline_units(baseline) if baseline is not None else None
        self.others, self.unpaired = [], []
        groups: dict[TestKey, dict[Any, list[tuple[Any, str, pytest.Item]]]] = {}
        for item, spec in items:
            if spec is None or spec.skip:
                self.others.append(item)
                continue
            key, unit, seat, why = self._classify(spec, item, base_units)
            if key is None:
                self.others.append(item)
            elif why is not None:
                self.unpaired.append((item, why))
            else:
                groups.setdefault(key, {}).setdefault(unit, []).append((-1 if seat is None else seat, item.nodeid, item))
        self.queues = {}
        for key, units in sorted(groups.items()):
            complete = []
            for unit, entries in units.items():
                entries.sort(key=lambda e: e[:2])
                needed = 2 if unit[0] in ("seed", "h2h") and (base_units is None or any(
                    len(held) == 2 for held in base_units[key].values())) else 1
                if len({e[0] for e in entries}) < needed:
                    self.unpaired += [(e[2], "its other seating was not collected") for e in entries]
                    continue
                complete.append((unit_place(unit), repr(unit), [e[2] for e in entries]))
            self.queues[key] = [unit_items for *_, unit_items in sorted(complete, key=lambda c: c[:2])]
        self.queues = {key: queue for key, queue in self.queues.items() if queue}
        if not self.queues and self.unpaired and (self.until_decided or not hasattr(self.config, "workerinput")):
            why = sorted({reason for _, reason in self.unpaired})
            raise pytest.UsageError(
                f"stratbench gate: nothing compared: no collected match can complete a unit ({'; '.join(why)}); "
                "nothing was played")
        if not self.until_decided:  # the run plays as collected, but never a match that cannot complete a unit
            for item, why in self.unpaired:
                item.add_marker(pytest.mark.skip(reason=f"stratbench gate: cannot complete a unit: {why}"))
        self.planned_tests = len(self.queues)
        self.records = list(records)
        gated = {(key[0], key[2]) for key in self.queues}
        self.spent_before = sum(
            1 for r in records if r.get("status", "scored") != "skipped" and r.get("sides")
            and (r["sides"][r.get("subject", 0)].get("agent"), r.get("game")) in gated)
        self._update()
        self._say_plan()
        if self.config.getoption("stratbench_gate_plan", False):
            pytest.exit("stratbench gate: the plan above (--gate-plan); nothing was played", returncode=0)

    def _say_plan(self) -> None:
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        if terminal is None:
            return
        for line in plan_lines(self.queues, self.settings, self.budget, self.spent_before, len(self.unpaired),
                               self._cost_per_match()):
            terminal.write_line(line)

    def _cost_per_match(self) -> float | None:
        """The mean cost of a match of the gated tests as recorded: the baseline's (head to head: the runs
        resumed); None when none carries a price."""
        gated = {(key[1], key[2]) for key in self.queues} | {(key[0], key[2]) for key in self.queues}
        baseline = self._baseline()
        rows = baseline.get("matches", []) if baseline is not None else rows_from_records(self.records)["matches"]
        costs = [float(row.get("cost_usd") or 0.0) for row in rows
                 if (row["agents"][row.get("subject", 0)], row["game"]) in gated]
        return sum(costs) / len(costs) if costs and sum(costs) > 0 else None

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
        """Yields the others, then one unit at a time of the least-played undecided test, then the rest skipped.

        A unit is never begun that the budget cannot finish; the matches that cannot complete a unit are skipped.
        """
        yield from self.others
        played = self.spent_before
        while self.budget is None or played < self.budget:
            open_tests = [key for key, queue in self.queues.items() if queue and not self._decided(key)]
            if not open_tests:
                break
            key = min(open_tests, key=lambda k: (self.played.get(k, 0), k))
            unit = self.queues[key][0]
            if self.budget is not None and played + len(unit) > self.budget:
                break
            self.queues[key].pop(0)
            self.played[key] = self.played.get(key, 0) + 1
            played += len(unit)
            yield from unit
        for key, queue in self.queues.items():
            test = self.state.get(key)
            if self._decided(key):
                reason = (f"--gate-until-decided: {key[0]} on {key[2]} is decided ({test.decision}) after "
                          f"{test.decided_at or test.pairs} {test.noun}(s)")
            else:
                reason = f"--gate-until-decided: its budget of {self.budget} matches is spent"
            for unit in queue:
                for item in unit:
                    item.add_marker(pytest.mark.skip(reason=reason))
                    yield item
        for item, why in self.unpaired:
            item.add_marker(pytest.mark.skip(reason=f"--gate-until-decided: cannot complete a unit: {why}"))
            yield item

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtestloop(self, session: pytest.Session) -> bool | None:
        """Runs the items in :meth:`order`, each knowing the item that follows it (until decided only)."""
        if not self.until_decided:
            return None
        return run_in_order(session, self._live_order)

    def _live_order(self, live: set[pytest.Item]) -> Iterator[pytest.Item]:
        self.others = [item for item in self.others if item in live]
        self.queues = {key: [unit for unit in queue if all(item in live for item in unit)]
                       for key, queue in self.queues.items()}
        self.unpaired = [(item, why) for item, why in self.unpaired if item in live]
        return self.order()

    def pytest_stratbench_match_recorded(self, record: dict[str, Any]) -> None:
        """Reruns the gate on the results so far and shows the LLR of the record's game (until decided only)."""
        if not self.until_decided:
            return
        self.records.append(record)
        self._update()
        terminal = self.config.pluginmanager.get_plugin("terminalreporter")
        if terminal is None or record.get("status", "scored") != "scored":
            return
        for key, test in self.state.items():
            if key[2] == record.get("game") and key[0] in [side.get("agent") for side in record.get("sides", [])]:
                terminal.write_line(
                    f"stratbench gate: {key[0]} on {key[2]}: LLR {test.llr:+.2f} ({test.lower:+.2f}, "
                    f"{test.upper:+.2f}) after {test.decided_at or test.pairs} {test.noun}(s): {test.decision}")

"""System programs some matches need (registered by their family: Stockfish), and the notice when one is missing.

A suite skips a match whose program is missing (``suites/spin/test_chess.py``
skips every match with a Stockfish side, with the reason
:data:`~stratbench.games.spin.agents.stockfish.STOCKFISH_MISSING`). So that a run never
skips them silently, :class:`MissingComponentNotice` says so in one line at
the start of the run and once more in the terminal summary:

* a plain run: after "collected N items", with the number of collected
  matches that will be skipped, per game;
* under xdist (the controller collects nothing): at the first match skipped
  for that reason.

The summary line counts the matches actually skipped with that reason.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from stratbench.core.schedule import MatchSpec

__all__ = ["Component", "MissingComponentNotice", "register_notice"]


@dataclass(frozen=True)
class Component:
    """A program outside Python that some matches need.

    Attributes:
        name: The program's name as users know it.
        install: How to get it (shown in the notice).
        option: The command-line option that points at it.
        skip_reason: The reason suites skip a match with when it is missing.
        find: Returns the program's path for the ``--option`` value given (or None), or None when absent.
        needed_by: Tells whether a scheduled match needs the program.
    """

    name: str
    install: str
    option: str
    skip_reason: str
    find: Callable[[str | None], str | None]
    needed_by: Callable[[MatchSpec], bool]




def _skip_reason(report: pytest.TestReport) -> str | None:
    if not report.skipped or not isinstance(report.longrepr, tuple):
        return None
    message = str(report.longrepr[2])
    return message.removeprefix("Skipped: ")


class MissingComponentNotice:
    """Announces missing components once at the start and once in the summary (controller only)."""

    def __init__(self, config: pytest.Config, missing: list[tuple[Component, str | None]]) -> None:
        self.config = config
        self.missing = missing
        self.skipped: Counter[str] = Counter()
        self.announced: set[str] = set()

    def _head(self, component: Component, given: str | None) -> str:
        where = f" at --{component.option} {given}" if given else ""
        return (f"stratbench: {component.name} not found{where} "
                f"(install: {component.install}, or --{component.option} PATH)")

    def pytest_report_collectionfinish(self, items: list[pytest.Item]) -> list[str]:
        """Names, after collection, the collected matches each missing component will skip."""
        lines = []
        for component, given in self.missing:
            games: Counter[str] = Counter()
            for item in items:
                params = getattr(item, "callspec", None)
                spec = params.params.get("match", (None,))[0] if params is not None else None
                if isinstance(spec, MatchSpec) and spec.skip is None and component.needed_by(spec):
                    games[spec.game] += 1
            if games:
                self.announced.add(component.name)
                counts = ", ".join(f"{n} {game} match{'es' if n != 1 else ''}" for game, n in sorted(games.items()))
                lines.append(f"{self._head(component, given)}: {counts} will be skipped")
        return lines

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        """Counts skips for a missing component; under xdist announces the first one."""
        reason = _skip_reason(report)
        if reason is None:
            return
        for component, given in self.missing:
            if reason != component.skip_reason:
                continue
            self.skipped[component.name] += 1
            if component.name not in self.announced:
                self.announced.add(component.name)
                reporter = self.config.pluginmanager.get_plugin("terminalreporter")
                if reporter is not None:
                    # xdist's progress letters leave the cursor mid-line; end that line first.
                    if getattr(getattr(reporter, "_tw", None), "width_of_current_line", 0):
                        reporter.write("\n")
                    reporter.write_line(f"{self._head(component, given)}: matches that need it are skipped",
                                        yellow=True)

    def pytest_terminal_summary(self, terminalreporter: Any) -> None:
        """Repeats each missing component with the number of matches it skipped."""
        for component, given in self.missing:
            count = self.skipped[component.name]
            if count:
                terminalreporter.write_line(
                    f"{self._head(component, given)}: {count} match{'es' if count != 1 else ''} skipped",
                    yellow=True)


def register_notice(config: pytest.Config, components: list[Callable[[], Component]], options: dict[str, Any]) -> None:
    """Registers the notice on the controller when a component is missing.

    Args:
        config: The pytest config.
        components: The registered components' factories (``Registry.system_components``).
        options: Option values by component option name (``{"stockfish": PATH or None}``).
    """
    missing = []
    for factory in components:
        component = factory()
        given = options.get(component.option)
        if component.find(given) is None:
            missing.append((component, given))
    if missing:
        config.pluginmanager.register(MissingComponentNotice(config, missing), "stratbench-missing-components")

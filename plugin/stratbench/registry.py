"""The registry of games, agents, scaffolds and metrics.

It is filled through the pluggy hooks in :mod:`stratbench.hookspecs`; the
built-ins register through the same hooks (:mod:`stratbench.builtins`), so a
third-party package with a ``pytest11`` entry point is indistinguishable from
the core. Names of third-party components should be namespaced by package
(``mypkg/myagent``); bare names are the built-ins'.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stratbench.core.agent import Agent, AgentContext
    from stratbench.core.game import Game
    from stratbench.core.runner import MatchOutcome
    from stratbench.scaffolds.base import Scaffold

GameFactory = Callable[[], "Game"]
AgentFactory = Callable[["AgentContext"], "Agent"]
ScaffoldFactory = Callable[..., "Scaffold"]
MatchMetric = Callable[["Game", "MatchOutcome", int], dict[int, dict[str, Any]]]
"""A per-match metric: ``(game, outcome, seed) -> {player: {name: value}}``."""


@dataclass
class Registry:
    """Named factories for every pluggable component."""

    games: dict[str, GameFactory] = field(default_factory=dict)
    agents: dict[str, AgentFactory] = field(default_factory=dict)
    scaffolds: dict[str, ScaffoldFactory] = field(default_factory=dict)
    metrics: dict[str, dict[str, MatchMetric]] = field(default_factory=dict)

    def add_game(self, name: str, factory: GameFactory) -> None:
        """Registers a game factory under ``name``."""
        _add(self.games, "game", name, factory)

    def add_agent(self, name: str, factory: AgentFactory) -> None:
        """Registers an agent factory ``factory(context) -> Agent`` under ``name``."""
        if name == "llm":
            raise ValueError("'llm' is reserved: LLM agents are chosen with --model")
        _add(self.agents, "agent", name, factory)

    def add_scaffold(self, name: str, factory: ScaffoldFactory) -> None:
        """Registers a scaffold factory ``factory(**settings) -> Scaffold`` under ``name``."""
        _add(self.scaffolds, "scaffold", name, factory)

    def add_metric(self, game: str, name: str, metric: MatchMetric) -> None:
        """Registers a per-match metric computed for every match of ``game``."""
        _add(self.metrics.setdefault(game, {}), f"metric for {game}", name, metric)

    def game(self, name: str) -> Game:
        """Builds the game registered as ``name``."""
        return _get(self.games, "game", name)()

    def agent_factory(self, name: str) -> AgentFactory:
        """Returns the agent factory registered as ``name``."""
        return _get(self.agents, "agent", name)

    def scaffold(self, name: str, **settings: Any) -> Scaffold:
        """Builds the scaffold registered as ``name``."""
        return _get(self.scaffolds, "scaffold", name)(**settings)

    def check_agent(self, name: str) -> None:
        """Raises ValueError if no agent is registered as ``name``."""
        _get(self.agents, "agent", name)

    def check_scaffold(self, name: str) -> None:
        """Raises ValueError if no scaffold is registered as ``name``."""
        _get(self.scaffolds, "scaffold", name)


def _add(table: dict[str, Any], kind: str, name: str, value: Any) -> None:
    if not name or not isinstance(name, str):
        raise ValueError(f"a {kind} needs a non-empty name")
    if name in table:
        raise ValueError(f"{kind} {name!r} is registered twice")
    table[name] = value


def _get(table: dict[str, Any], kind: str, name: str) -> Any:
    try:
        return table[name]
    except KeyError:
        known = ", ".join(sorted(table)) or "none"
        raise ValueError(f"unknown {kind} {name!r}; known: {known}") from None

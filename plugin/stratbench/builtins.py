"""stratbench's own games, agents, scaffolds and metrics, registered through the hooks."""

from __future__ import annotations

import pytest

from stratbench.registry import Registry


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers the built-in games."""
    from stratbench.games.tictactoe import TicTacToe

    registry.add_game("tictactoe", TicTacToe)

    from stratbench.games.gamebench.air_land_sea import AirLandSea
    from stratbench.games.gamebench.sea_battle import SeaBattle

    registry.add_game("air_land_sea", AirLandSea)
    registry.add_game("sea_battle", SeaBattle)

    from stratbench.games.gamebench.hive import Hive
    from stratbench.games.gamebench.santorini import Santorini

    registry.add_game("hive", Hive)
    registry.add_game("santorini", Santorini)


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers the built-in agents: random, minimax, human."""
    from stratbench.agents.human import HumanAgent
    from stratbench.agents.minimax import MinimaxAgent
    from stratbench.agents.random_agent import RandomAgent

    registry.add_agent("random", RandomAgent)
    registry.add_agent("minimax", MinimaxAgent)
    registry.add_agent("human", HumanAgent)


@pytest.hookimpl
def pytest_stratbench_add_scaffolds(registry: Registry) -> None:
    """Registers the built-in scaffolds: direct, cot."""
    from stratbench.scaffolds.cot import cot
    from stratbench.scaffolds.direct import direct

    registry.add_scaffold("direct", direct)
    registry.add_scaffold("cot", cot)


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers the built-in per-match metrics."""
    from stratbench.metrics.tictactoe import move_quality

    registry.add_metric("tictactoe", "move_quality", move_quality)

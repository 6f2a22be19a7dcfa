"""The AdvGameBench family as a plugin: its three strategy games, writers, metrics, report section, protocol and
``--advgame-rounds``.

:mod:`stratbench.families` imports this module at pytest start, so it stays cheap to import: each hook
imports its family's modules only when called (the lean rule for function-local imports).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from stratbench.family_settings import FamilySettings
from stratbench.registry import Registry


@dataclass(frozen=True)
class AdvGameSettings(FamilySettings):
    """AdvGameBench's option: the rounds per match (None: the game's own, the paper's 10)."""

    family = "advgame"
    advgame_rounds: int | None = None

    def deciding(self) -> dict[str, Any]:
        """The rounds decide a match, hashed only where given (other hashes stay those of earlier runs)."""
        return {"advgame_rounds": self.advgame_rounds} if self.advgame_rounds is not None else {}


@pytest.hookimpl
def pytest_stratbench_addoption(parser: pytest.Parser) -> None:
    """Adds ``--advgame-rounds``."""
    from stratbench.options import positive_int

    parser.getgroup("stratbench-advgame", "stratbench: AdvGameBench").addoption(
        "--advgame-rounds", type=positive_int, default=None, metavar="N",
        help="Rounds per AdvGameBench match (default 10, the paper's)")


@pytest.hookimpl
def pytest_stratbench_family_settings(config: pytest.Config) -> AdvGameSettings:
    """Reads ``--advgame-rounds``."""
    return AdvGameSettings(advgame_rounds=config.getoption("advgame_rounds"))


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers Tower Defense, Battle Card and the turn-based game."""
    from stratbench.games.advgame import GAME_IDS
    from stratbench.games.advgame import game as advgame

    for game_id in GAME_IDS:
        registry.add_game(game_id, advgame.factory(game_id), variants=advgame.variants)


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers the baseline strategy writers: greedy and climber."""
    from stratbench.games.advgame.writers import baseline_agent

    registry.add_agent("greedy", baseline_agent("greedy"))
    registry.add_agent("climber", baseline_agent("climber"))


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers AdvGameBench's process metrics for each game."""
    from stratbench.games.advgame import GAME_IDS
    from stratbench.metrics.advgame import match_metrics

    for game_id in GAME_IDS:
        registry.add_metric(game_id, "advgame", match_metrics)


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers the AdvGameBench report section."""
    from stratbench.games.advgame.report import advgame

    registry.add_report_section("advgame", advgame)


@pytest.hookimpl
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers AdvGameBench's paper protocol and its strategy guides."""
    from stratbench.games.advgame import paper_protocol

    paper_protocol.register(registry)
    registry.add_guide_folder("stratbench.games.advgame", "guides")

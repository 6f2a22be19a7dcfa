"""The LLM-PySC2 family as a plugin: StarCraft II's games, baselines, metrics, report section, protocol and
``--sc2-backend`` / ``--sc2-maps``.

:mod:`stratbench.families` imports this module at pytest start, so it stays cheap to import: each hook
imports its family's modules only when called (the lean rule for function-local imports). The games and
the scripted baselines are registered by name (:func:`_on_first_call`): the battle engine, the text layer
and numpy load when a StarCraft II match is collected or built, not in every run.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from stratbench.family_settings import FamilySettings
from stratbench.registry import Registry


@dataclass(frozen=True)
class Sc2Settings(FamilySettings):
    """What plays the StarCraft II suites: the offline engine or the game, and the game's maps."""

    family = "sc2"
    sc2_backend: str = "engine"
    sc2_maps: Path | None = None


def pytest_addhooks(pluginmanager: pytest.PytestPluginManager) -> None:
    """Asks protobuf for the pure-Python backend pysc2 needs, before any conftest or test module loads it."""
    from stratbench.games.sc2.pysc2_compat import prepare_protobuf

    prepare_protobuf()


@pytest.hookimpl
def pytest_stratbench_addoption(parser: pytest.Parser) -> None:
    """Adds ``--sc2-backend`` and ``--sc2-maps``."""
    from stratbench.options import existing_folder

    group = parser.getgroup("stratbench-sc2", "stratbench: StarCraft II (LLM-PySC2)")
    group.addoption("--sc2-backend", choices=("engine", "live"), default="engine",
                    help="What plays the StarCraft II suites: engine (the offline battle engine, default) or live "
                         "(the game: needs SC2PATH and --sc2-maps)")
    group.addoption("--sc2-maps", type=existing_folder, default=None, metavar="DIR",
                    help="StarCraft II maps for live play (the released llm_smac and llm_pysc2 folders); needs SC2PATH")


@pytest.hookimpl
def pytest_stratbench_family_settings(config: pytest.Config) -> Sc2Settings:
    """Reads the options and points the StarCraft II games at the backend; live play without the game or maps
    is a usage error."""
    from stratbench.games.sc2.backend import select_backend

    maps = config.getoption("sc2_maps")
    settings = Sc2Settings(sc2_backend=config.getoption("sc2_backend"), sc2_maps=Path(maps).resolve() if maps else None)
    if settings.sc2_backend == "live":
        from stratbench.games.sc2.live import live_problem

        problem = live_problem(settings.sc2_maps)
        if problem is not None:
            raise pytest.UsageError(f"--sc2-backend live: {problem} (set SC2PATH to the game and give --sc2-maps DIR)")
    select_backend(settings.sc2_backend, settings.sc2_maps)
    return settings


@pytest.hookimpl
def pytest_stratbench_add_games(registry: Registry) -> None:
    """Registers the mock skirmish, the SMAC tasks and LLM-PySC2's tasks."""
    mock, engine = "stratbench.games.sc2.game", "stratbench.games.sc2.engine.games"
    registry.add_game("sc2_mock", _on_first_call(mock, "mock_game"), variants=_on_first_call(mock, "mock_variants"))
    registry.add_game("sc2_smac", _on_first_call(engine, "smac_game"), variants=_on_first_call(engine, "smac_variants"))
    registry.add_game("sc2_tasks", _on_first_call(engine, "tasks_game"),
                      variants=_on_first_call(engine, "tasks_variants"))


@pytest.hookimpl
def pytest_stratbench_add_agents(registry: Registry) -> None:
    """Registers the scripted baselines: no-op, attack-nearest, focus fire, attack-move."""
    baselines, text_baselines = "stratbench.games.sc2.baselines", "stratbench.games.sc2.engine.text_baselines"
    registry.add_agent("sc2-noop", _on_first_call(baselines, "NoOpAgent"))
    registry.add_agent("sc2-attack-nearest", _on_first_call(baselines, "AttackNearestAgent"))
    registry.add_agent("sc2-focus-fire", _on_first_call(text_baselines, "FocusFireAgent"))
    registry.add_agent("sc2-attack-move", _on_first_call(text_baselines, "AttackMoveAgent"))


def _on_first_call(module: str, name: str) -> Callable[..., Any]:
    """Returns a function that calls ``module.name`` with its arguments, importing the module at the first call."""

    def call(*args: Any, **kwargs: Any) -> Any:
        return getattr(importlib.import_module(module), name)(*args, **kwargs)

    call.__name__ = call.__qualname__ = name
    call.__doc__ = f"``{module}.{name}``, imported when first called."
    return call


@pytest.hookimpl
def pytest_stratbench_add_metrics(registry: Registry) -> None:
    """Registers the episode metrics of each StarCraft II game."""
    from stratbench.games.sc2.metrics import episode_metrics

    for game in ("sc2_mock", "sc2_smac", "sc2_tasks"):
        registry.add_metric(game, "sc2", episode_metrics)


@pytest.hookimpl
def pytest_stratbench_add_reporters(registry: Registry) -> None:
    """Registers the StarCraft II tables."""
    from stratbench.games.sc2.report import sc2_tables

    registry.add_report_section("sc2", sc2_tables)


@pytest.hookimpl
def pytest_stratbench_add_protocols(registry: Registry) -> None:
    """Registers LLM-PySC2's paper protocol, its reply reader and its strategy guides."""
    from stratbench.games.sc2 import paper_protocol as sc2

    sc2.register(registry)
    registry.add_answer_reader("sc2-reply", "stratbench.games.sc2.game:read_reply")
    registry.add_guide_folder("stratbench.games.sc2", "guides")

"""The registered games on the engine: ``sc2_smac`` (the nine LLM-SMAC maps) and ``sc2_tasks`` (LLM-PySC2 tasks).

Each variant is a scenario file; the game is :class:`SC2TextGame` over pysc2's
``SC2Env`` created inside :func:`engine_backend`, so the text interface plays
exactly as it would on the game. Teams follow LLM-PySC2's Table D3 (one team
per own unit type for the tasks, as the released single-agent configurations).
"""

from __future__ import annotations

from typing import Any

from stratbench.games.sc2.backend import BACKEND, select_backend  # noqa: F401  # select_backend: still importable here
from stratbench.games.sc2.config import AgentConfig, Layout, TeamConfig, interface_format, smac_layout
from stratbench.games.sc2.engine.scenarios import load_scenario, scenario_names
from stratbench.games.sc2.pysc2_compat import import_pysc2, unavailable_reason
from stratbench.games.sc2.game import SC2TextGame
from stratbench.registry import Variant

SMAC_TASK_TEXT = "Kill as much as enemy units as possible and avoid losing unit."
"""The released SMAC task text once the enemy is on screen (LLM-PySC2 2025 ``lib/obs/task.py``)."""
TEAM_ACTIONS = {"Zealot": ("Attack_Unit",), "Stalker": ("Attack_Unit", "Move_Screen"), "Colossus": ("Attack_Unit", "Move_Screen")}
"""Released SMAC action sets per unit type (digest §2.2); other types get Attack_Unit and Move_Screen."""


def family_variants(family: str) -> list[str]:
    """The scenario names of ``family`` (``llm-smac`` or ``llm-pysc2``)."""
    return [n for n in scenario_names() if load_scenario(n).get("family") == family]


def engine_env_factory(map_name: str, *, step_mul: int = 8, seed: int | None = None):
    """A factory of pysc2 ``SC2Env`` s playing ``map_name`` on the engine (``factory(seed=n)``: a seeded episode)."""
    from stratbench.games.sc2.engine.run_config import engine_backend  # lean: the engine, when a match is built

    def factory(seed: int | None = seed) -> Any:
        import_pysc2()
        from pysc2.env import sc2_env  # optional: the [sc2] extra, after import_pysc2()

        with engine_backend():
            return sc2_env.SC2Env(map_name=map_name, players=[sc2_env.Agent(sc2_env.Race.protoss)],
                                  agent_interface_format=interface_format(), step_mul=step_mul, random_seed=seed)

    factory.takes_seed = True
    return factory


def _layout(scenario: dict):
    """The scenario's agents (``agents``: the released task configurations) or one team per own unit type (SMAC)."""
    text = scenario.get("task_text", SMAC_TASK_TEXT)
    if scenario.get("agents"):
        agents = tuple(AgentConfig(a["name"], a["describe"],
                                   tuple(TeamConfig(t["name"], tuple(t["types"])) for t in a.get("teams", ())),
                                   always=bool(a.get("always", False)))
                       for a in scenario["agents"])
        return Layout(agents, communication=bool(scenario.get("communication", False)), task={"*": text})
    kinds: list[str] = []
    for group in scenario["units"]:
        kind = group["type"].split(".")[1]
        if group["owner"] == 1 and kind not in kinds:
            kinds.append(kind)
    teams = tuple(TeamConfig(f"{kind}-1", (kind,), actions=TEAM_ACTIONS.get(kind, ("Attack_Unit", "Move_Screen")))
                  for kind in kinds)
    return smac_layout(teams, text)


def _engine_game(name: str, family: str, variant: str | None, protocol: str, max_decisions: int):
    names = family_variants(family)
    variant = variant or names[0]
    if variant not in names:
        raise ValueError(f"unknown {name} variant {variant!r}; known: {', '.join(names)}")
    scenario = load_scenario(variant)
    if BACKEND["name"] == "live":
        from stratbench.games.sc2.live import live_env_factory  # lean: live play only with --sc2-backend live

        factory = live_env_factory(variant, BACKEND["maps"])
    else:
        factory = engine_env_factory(variant)
    return SC2TextGame(name, factory, _layout(scenario), protocol=protocol,
                       max_decisions=max_decisions, family=family, backend=BACKEND["name"])


def smac_game(variant: str | None = None, *, protocol: str = "default", max_decisions: int = 60):
    """``sc2_smac``: an LLM-SMAC map on the engine."""
    return _engine_game("sc2_smac", "llm-smac", variant, protocol, max_decisions)


def tasks_game(variant: str | None = None, *, protocol: str = "default", max_decisions: int = 90):
    """``sc2_tasks``: an LLM-PySC2 task at a level on the engine."""
    return _engine_game("sc2_tasks", "llm-pysc2", variant, protocol, max_decisions)


def smac_variants(options: dict[str, Any]):
    return [Variant(n, unavailable_reason()) for n in family_variants("llm-smac")]


def tasks_variants(options: dict[str, Any]):
    return [Variant(n, unavailable_reason()) for n in family_variants("llm-pysc2")]

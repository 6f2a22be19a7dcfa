"""Agent and team configurations (the paper's Table D2/D3, the released defaults) and the team roster.

An :class:`AgentConfig` is one LLM agent (Commander, CombatGroup1...) with a
description and its :class:`TeamConfig` unit teams; each team names the unit
types it controls and how it is selected. Each decision, :func:`assign_teams`
gives every own unit to the first team (agents in configuration order) whose
types include it, so a team's members never depend on set iteration order:
units are taken in tag order. A ``select`` team is split into one team per unit,
``<name>-1``, ``<name>-2``... Agents with no unit this decision sit out, except
those marked ``always`` (Commander, Developer).

:data:`DEFAULTS` are the released code's settings (temperature 0.1, 5 query
attempts, at most 3 actions per team, one decision per game second, 15 s
waiting time per decision).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratbench.games.sc2.action_space import actions_for
from stratbench.games.sc2.unit_table import SELF, UnitInfo, UnitTable
from stratbench.games.sc2.pysc2_compat import import_pysc2


@dataclass(frozen=True)
class Defaults:
    """The released code's agent settings (``AgentConfig``).

    Attributes:
        temperature: Sampling temperature.
        query_attempts: Attempts per query (``MAX_LLM_QUERY_TIMES``).
        max_actions: Actions executed per team and decision (``MAX_NUM_ACTIONS``).
        decision_hz: Decisions per game second (``MAX_LLM_DECISION_FREQUENCY``).
        decision_timeout_s: Wall seconds a decision may wait for all agents (``MAX_LLM_WAITING_TIME``).
        screen_size, minimap_size: Feature layer resolutions.
        game_loops_per_second: StarCraft II's loop rate on "faster".
        select_to_observe: Select each team before its observation, so its valid actions are those pysc2
            makes available for that selection (the released main loop's first stage).
    """

    temperature: float = 0.1
    query_attempts: int = 5
    max_actions: int = 3
    decision_hz: float = 1.0
    decision_timeout_s: float = 15.0
    screen_size: int = 128
    minimap_size: int = 64
    game_loops_per_second: float = 22.4
    select_to_observe: bool = True


DEFAULTS = Defaults()


@dataclass(frozen=True)
class TeamConfig:
    """One unit team.

    Attributes:
        name: The team's name (``Stalker-1``); a ``select`` team's units get ``<name>-<i>``.
        unit_types: The unit type names it controls (``("Stalker",)``).
        select: ``"group"`` (all its units together) or ``"select"`` (one team per unit).
        actions: The text actions it may use; empty: the default space of its unit types.
    """

    name: str
    unit_types: tuple[str, ...]
    select: str = "group"
    actions: tuple[str, ...] = ()

    def action_names(self) -> tuple[str, ...]:
        """Returns the team's text actions."""
        return self.actions or actions_for(self.unit_types)


@dataclass(frozen=True)
class AgentConfig:
    """One LLM agent.

    Attributes:
        name: The agent's name, used in messages (``CombatGroup1``).
        describe: Its description (the system prompt's identity and others' target list).
        teams: Its unit teams.
        always: Whether it plays even without units (Commander, Developer).
    """

    name: str
    describe: str
    teams: tuple[TeamConfig, ...]
    always: bool = False


@dataclass(frozen=True)
class TeamView:
    """A team as it stands this decision.

    Attributes:
        name: The team's name (a ``select`` team's unit gets ``<name>-<i>``).
        config: The team's configuration.
        units: Its units, by tag.
    """

    name: str
    config: TeamConfig
    units: tuple[UnitInfo, ...]

    @property
    def tags(self) -> tuple[int, ...]:
        """The team's unit tags."""
        return tuple(u.tag for u in self.units)


@dataclass(frozen=True)
class Layout:
    """The agents of one side and whether they may talk.

    Attributes:
        agents: The agents, in configuration order (new units go to the first that fits).
        communication: Whether messages are on (released: tasks 7, 8 and full games).
        task: The task text per team name (``"*"``: every team).
    """

    agents: tuple[AgentConfig, ...]
    communication: bool = False
    task: dict[str, str] = field(default_factory=dict)

    def agent(self, name: str) -> AgentConfig:
        """Returns the agent called ``name``.

        Raises:
            KeyError: naming the known agents.
        """
        for agent in self.agents:
            if agent.name == name:
                return agent
        raise KeyError(f"no agent {name!r}; agents: {[a.name for a in self.agents]}")


def assign_teams(layout: Layout, table: UnitTable) -> dict[str, tuple[TeamView, ...]]:
    """Gives each own unit to the first team whose types include it; returns each agent's teams.

    Every agent appears in the result; a team without units is left out.
    """
    claimed: dict[tuple[int, int], list[UnitInfo]] = {}
    for unit in table.of(SELF):
        for a, agent in enumerate(layout.agents):
            index = next((t for t, team in enumerate(agent.teams) if unit.type_name in team.unit_types), None)
            if index is not None:
                claimed.setdefault((a, index), []).append(unit)
                break
    result: dict[str, tuple[TeamView, ...]] = {}
    for a, agent in enumerate(layout.agents):
        views: list[TeamView] = []
        for t, team in enumerate(agent.teams):
            members = tuple(claimed.get((a, t), ()))
            if not members:
                continue
            if team.select == "select":
                views.extend(TeamView(f"{team.name}-{i}", team, (unit,)) for i, unit in enumerate(members, 1))
            else:
                views.append(TeamView(team.name, team, members))
        result[agent.name] = tuple(views)
    return result


def interface_format(*, screen: int = DEFAULTS.screen_size, minimap: int = DEFAULTS.minimap_size,
                     raw_actions: bool = False) -> Any:
    """Returns the pysc2 ``AgentInterfaceFormat`` the text interface expects.

    Feature layers at ``screen``/``minimap``, feature and raw units, raw
    positions at minimap resolution. ``raw_actions`` switches the action space
    to pysc2's raw functions (only the ``Raw_`` text forms then act).
    """
    pysc2 = import_pysc2()
    features = pysc2.features
    return features.AgentInterfaceFormat(
        feature_dimensions=features.Dimensions(screen=(screen, screen), minimap=(minimap, minimap)),
        use_feature_units=True,
        use_raw_units=True,
        raw_resolution=minimap,
        use_raw_actions=raw_actions,
        action_space=pysc2.actions.ActionSpace.RAW if raw_actions else pysc2.actions.ActionSpace.FEATURES,
    )


def smac_layout(teams: tuple[TeamConfig, ...], task: str = "") -> Layout:
    """Returns LLM-SMAC's layout: one agent, ``CombatGroupSmac``, with the map's teams (Table D3)."""
    agent = AgentConfig("CombatGroupSmac", "Protoss military commander, controls units to fight against enemy.", teams)
    return Layout((agent,), communication=False, task={"*": task} if task else {})

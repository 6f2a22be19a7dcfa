"""One pysc2 observation as the text an LLM-PySC2 agent reads.

The sections follow the released CombatGroup wrapper: ``Game Info`` (time),
per team its minimap position, controlled units (tag, screen position,
health + shields with percentage, energy, weapon cooldown), nearby allies and
nearby enemies (with distance in world units), ``Valid Actions`` per team,
``Action Args``, ``Last Step Actions``, the communication block (received
messages, targets, functions) when messages are on, ``Tasks`` and the final
instruction. The project's default adds two things the released v0.1 prompt
lacks: ``Last Step Action Errors`` (the validators' reasons, item 9 of the
paper's list) and ``Other Visible Enemy Units`` (enemies seen off screen, by
minimap position). ``paper=True`` leaves both out.

Units are listed by tag, teams and agents in configuration order, messages in
the order sent: nothing depends on set iteration or the clock, so prompts
replay byte for byte.

Entry points: :func:`observation_text`, and :func:`agent_text` (teams assigned from the layout).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from stratbench.games.sc2.action_space import ACTIONS
from stratbench.games.sc2.config import DEFAULTS, AgentConfig, Layout, TeamView, assign_teams
from stratbench.games.sc2.unit_table import ALLY, ENEMY, SELF, UnitInfo, UnitTable

SCREEN_WORLD_GRID = 24
"""World units across the screen (the released ``SCREEN_WORLD_GRID``)."""

COMMUNICATION_FUNCTIONS = (
    "Available Communication Functions:\n"
    "\t<MessageTo(AgentName, message)>\n"
    "\t<MessageTo(ChannelName, message)>\n"
    "\t<ListenTo(ChannelName)>\n"
    "Args explanation:\n"
    "\t(1)AgentName: refers to a name mentioned in Available Communication Targets.\n"
    "\t(2)ChannelName: shape as Channel-i, i refers to an integer.\n"
    "\t(2)message: any text wrapped between ''' and '''.\n"
)


@dataclass(frozen=True)
class Received:
    """A message delivered to an agent: from ``sender``, directly or in ``channel``."""

    sender: str
    text: str
    channel: str = ""


@dataclass(frozen=True)
class TextContext:
    """What the text needs besides the observation.

    Attributes:
        layout: The side's agents.
        teams: Every agent's teams this decision (:func:`~stratbench.games.sc2.config.assign_teams`).
        last_actions: The agent's accepted actions last decision, per team.
        errors: Last decision's refused actions: ``(action text, reason)``.
        received: Messages delivered to the agent this decision.
        max_actions: Actions per team.
        paper: Word it exactly as the released v0.1 code (no error or off-screen sections).
        available: pysc2's available function ids per team name, taken with the team selected; a team
            listed here shows only the actions whose every function is available (the released filter);
            a team not listed shows all its actions.
    """

    layout: Layout
    teams: dict[str, tuple[TeamView, ...]]
    last_actions: dict[str, list[str]] = field(default_factory=dict)
    errors: tuple[tuple[str, str], ...] = ()
    received: tuple[Received, ...] = ()
    max_actions: int = DEFAULTS.max_actions
    paper: bool = False
    available: dict[str, frozenset[int]] = field(default_factory=dict)


def observation_text(observation: Any, agent: AgentConfig, context: TextContext) -> str:
    """Renders ``agent``'s text observation.

    Args:
        observation: A pysc2 ``TimeStep.observation`` (raw and feature units).
        agent: The agent it is for.
        context: Teams, last actions, errors and messages.
    """
    table = UnitTable.from_observation(observation)
    screen = int(observation["feature_screen"].shape[-1]) if "feature_screen" in observation else DEFAULTS.screen_size
    minimap = int(observation["feature_minimap"].shape[-1]) if "feature_minimap" in observation else DEFAULTS.minimap_size
    teams = context.teams.get(agent.name, ())
    seconds = int(int(observation["game_loop"][0]) / DEFAULTS.game_loops_per_second)
    parts = [f"Game Info:\nTime: {seconds // 60}:{seconds % 60:02d}\n"]
    for team in teams:
        parts.append(_team_info(team, table, screen, context.paper))
    parts.append(_valid_actions(teams, context.available))
    parts.append(_action_args(screen, minimap))
    parts.append(_last_actions(teams, context.last_actions))
    if context.errors and not context.paper:
        lines = ["Last Step Action Errors:"]
        for action, reason in context.errors:
            lines.append(f"\t{action}:\n\t\t{reason}")
        parts.append("\n".join(lines) + "\n")
    if context.layout.communication:
        parts.append(_communication(agent, context))
    parts.append(_tasks(teams, context.layout))
    ending = "analysis, actions and communication" if context.layout.communication else "analysis and actions"
    parts.append(
        f"Give each team no more than {context.max_actions} actions, among which activity release should "
        f"usually before move and attack.\nNow, start generating your {ending}:"
    )
    return "\n".join(parts)


def agent_text(observation: Any, layout: Layout, agent: str, **context: Any) -> str:
    """Renders one agent's text from an observation and the side's layout, assigning the teams first.

    Args:
        observation: A pysc2 ``TimeStep.observation``.
        layout: The side's agents and teams.
        agent: The agent's name.
        **context: Further :class:`TextContext` fields (``last_actions``, ``errors``, ``received``...).
    """
    teams = assign_teams(layout, UnitTable.from_observation(observation))
    return observation_text(observation, layout.agent(agent), TextContext(layout, teams, **context))


def _team_info(team: TeamView, table: UnitTable, screen: int, paper: bool) -> str:
    members = set(team.tags)
    controlled = [u for u in team.units if u.screen is not None]
    centre = _centre([u.screen for u in controlled if u.screen is not None])
    minimap_centre = _centre([u.minimap for u in team.units])
    lines = [f"Team {team.name} Info:",
             f"\tTeam minimap position: [{round(minimap_centre[0])}, {round(minimap_centre[1])}]",
             "\tControled Team Units:"]
    lines.extend(f"\t\t{_unit_line(u, with_cooldown=True)}" for u in controlled)
    off = [u for u in team.units if u.screen is None]
    if off and not paper:
        lines.extend(f"\t\tUnit: {u.type_name}    Tag: {hex(u.tag)}    MinimapPos: [{u.minimap[0]}, {u.minimap[1]}]"
                     f"    Health: {u.vitality}({u.vitality_percent} %)    (off screen)" for u in off)
    allies = [u for u in table.units if u.alliance in (SELF, ALLY) and u.tag not in members and u.screen is not None]
    if allies:
        lines.append("\tNearby Ally Units:")
        lines.extend(f"\t\t{_unit_line(u)}" for u in allies)
    enemies = [u for u in table.of(ENEMY) if u.screen is not None]
    if enemies:
        lines.append("\tNearby Enemy Units:")
        for u in enemies:
            distance = int(math.dist(centre, u.screen) / (screen / SCREEN_WORLD_GRID)) if u.screen else 0
            lines.append(f"\t\t{_unit_line(u, distance=distance)}")
    unseen = [u for u in table.of(ENEMY) if u.screen is None]
    if unseen and not paper:
        lines.append("\tOther Visible Enemy Units:")
        lines.extend(f"\t\tUnit: {u.type_name}    Tag: {hex(u.tag)}    MinimapPos: [{u.minimap[0]}, {u.minimap[1]}]"
                     f"    Health: {u.vitality}({u.vitality_percent} %)" for u in unseen)
    return "\n".join(lines) + "\n"


def _unit_line(unit: UnitInfo, *, with_cooldown: bool = False, distance: int | None = None) -> str:
    assert unit.screen is not None
    parts = [f"Unit: {unit.type_name}", f"Tag: {hex(unit.tag)}", f"ScreenPos: [{unit.screen[0]}, {unit.screen[1]}]"]
    if distance is not None:
        parts.append(f"Distance: {distance}")
    parts.append(f"Health: {unit.vitality}({unit.vitality_percent} %)")
    if unit.energy:
        parts.append(f"Energy: {unit.energy}")
    if with_cooldown:
        parts.append(f"Weapon_cooldown: {unit.weapon_cooldown}")
    return "    ".join(parts)


def _valid_actions(teams: tuple[TeamView, ...], available: dict[str, frozenset[int]]) -> str:
    lines = ["Valid Actions:"]
    for team in teams:
        lines.append(f"\tTeam {team.name} Valid Actions:")
        names = team.config.action_names()
        if team.name in available:
            names = tuple(name for name in names if _available(name, available[team.name]))
        lines.extend(f"\t\t{ACTIONS[name].signature()}" for name in names)
    return "\n".join(lines) + "\n"


def _available(name: str, ids: frozenset[int]) -> bool:
    """Tells whether every function of a text action is available (selection steps always are)."""
    return all(function_id in ids or function_name.startswith("select_")
               for function_id, function_name, _ in ACTIONS[name].calls)


def _action_args(screen: int, minimap: int) -> str:
    return (
        "Action Args: \n"
        "\t(1) tag: tag refers to a hexadecimal number, shape as 0x000000000.\n"
        f"\t(2) screen: screen refers to a screen coordinate, shape as [x, y], where x and y range from 0 to {screen}.\n"
        f"\t(3) minimap: minimap refers to a minimap coordinate, shape as [x, y], where x and y range from 0 to "
        f"{minimap}.\n"
        "For example, when you want to use an action like <Action_Name(tag, screen)>, you should output like "
        "<Action_Name(0x100580001, [37, 55])>; when you want to use an action like <Action_Name(screen)>, you should "
        "output like <Action_Name([66, 78])>. What's more, You need to see clearly whether an action is using screen "
        "coordinates or minimap coordinates, If an action name as XXXX_Screen, it uses screen coordinate; if an action "
        "name as XXXX_Minimap, it uses minimap coordinate.\n"
    )


def _last_actions(teams: tuple[TeamView, ...], last: dict[str, list[str]]) -> str:
    lines = ["Last Step \nActions:"]
    for team in teams:
        lines.append(f"\tTeam {team.name}:")
        lines.extend(f"\t\t{text}" for text in last.get(team.name, []) or ["<No_Operation()>"])
    lines.append("You need to confirm whether the previous action finished executing, and based on this, determine "
                 "whether to continue the old strategy or immediately take other actions.")
    return "\n".join(lines) + "\n"


def _communication(agent: AgentConfig, context: TextContext) -> str:
    lines = ["Communication information:"]
    direct = [m for m in context.received if not m.channel]
    for message in direct:
        lines.append(f"\tFrom {message.sender}: \n\t\t{message.text}")
    channels: dict[str, list[Received]] = {}
    for message in context.received:
        if message.channel:
            channels.setdefault(message.channel, []).append(message)
    for channel, messages in channels.items():
        lines.append(f"\tIn {channel}: ")
        lines.extend(f"\t\tFrom {m.sender}: {m.text}" for m in messages)
    lines.append("Available Communication Targets:")
    for other in context.layout.agents:
        if other.name != agent.name and (other.always or context.teams.get(other.name)):
            lines.append(f"\t{other.name}: {other.describe}")
    return "\n".join(lines) + "\n" + COMMUNICATION_FUNCTIONS


def _tasks(teams: tuple[TeamView, ...], layout: Layout) -> str:
    lines = ["Tasks:"]
    for team in teams:
        task = layout.task.get(team.name) or layout.task.get(team.config.name) or layout.task.get("*", "")
        if task:
            lines.append(f"\tTeam {team.name}' task: {task}")
    return "\n".join(lines) + "\n"


def _centre(points: list[tuple[int, int]]) -> tuple[float, float]:
    if not points:
        return (0.0, 0.0)
    return (sum(p[0] for p in points) / len(points), sum(p[1] for p in points) / len(points))


def describe_table(table: UnitTable) -> str:
    """Summarises a unit table in one line per unit (for logs and tests)."""
    return "\n".join(f"{hex(u.tag)} {u.race}.{u.type_name} alliance={u.alliance} hp={u.vitality} "
                     f"screen={u.screen} minimap={u.minimap}" for u in table.units)

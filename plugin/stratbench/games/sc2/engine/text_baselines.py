"""Scripted baselines that write action text, as a model would (parser and translator exercised).

* ``sc2-focus-fire``: each team attacks the enemy with the least health+shield
  within range of its centre (else the nearest), one ``<Attack_Unit(tag)>``;
  a Stalker team whose weapons are reloading with a melee enemy close steps
  back with ``<Move_Screen([x, y])>`` (kiting);
* ``sc2-attack-move``: each team attack-moves to the enemy army's centre with
  pysc2's own ``<Attack_screen(now, [x, y])>``.
"""

from __future__ import annotations

import math

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation
from stratbench.games.sc2.game import REPLY
from stratbench.games.sc2.unit_table import ENEMY, UnitTable

RANGE_PX = 10.0
"""Screen pixels counted as "in range" of a team (about 6 world units at the default 128 px / 24 units)."""
KITE_PX = 16.0
"""A reloading Stalker team steps back from melee enemies closer than this (screen pixels, about 3 world units)."""
MELEE_TYPES = frozenset({"Zealot", "Zergling", "Baneling", "Ultralisk"})


def _teams(observation: Observation):
    table = UnitTable.from_observation(observation.data["observation"])
    enemies = [u for u in table.of(ENEMY) if u.screen is not None]
    for team, tags in observation.data["teams"].items():
        members = [table.by_tag(int(tag, 16)) for tag in tags]
        members = [u for u in members if u is not None and u.screen is not None]
        if members and enemies:
            centre = (sum(u.screen[0] for u in members) / len(members), sum(u.screen[1] for u in members) / len(members))
            yield team, members, centre, enemies


def focus_fire_reply(observation: Observation) -> str:
    """The focus-fire reply text for one decision."""
    lines = ["Analysis:", "  Focus the weakest enemy in range; Stalkers kite melee units while reloading.", "Actions:"]
    for team, members, centre, enemies in _teams(observation):
        lines.append(f"  Team {team}:")
        melee = [e for e in enemies if e.type_name in MELEE_TYPES and math.dist(centre, e.screen) < KITE_PX]
        reloading = any(u.weapon_cooldown > 0 for u in members)
        if all(u.type_name == "Stalker" for u in members) and reloading and melee:
            near = min(melee, key=lambda e: (math.dist(centre, e.screen), e.tag))
            dx, dy = centre[0] - near.screen[0], centre[1] - near.screen[1]
            length = math.hypot(dx, dy) or 1.0
            x, y = (round(min(max(centre[0] + dx / length * 8, 0), 127)), round(min(max(centre[1] + dy / length * 8, 0), 127)))
            lines.append(f"    <Move_Screen([{x}, {y}])>")
            continue
        in_range = [e for e in enemies if math.dist(centre, e.screen) <= RANGE_PX]
        if in_range:
            target = min(in_range, key=lambda e: (e.health + e.shield, e.tag))
        else:
            target = min(enemies, key=lambda e: (math.dist(centre, e.screen), e.tag))
        lines.append(f"    <Attack_Unit({hex(target.tag)})>")
    return "\n".join(lines) + "\n"


def attack_move_reply(observation: Observation) -> str:
    """The attack-move reply text for one decision."""
    lines = ["Analysis:", "  Attack-move to the enemy army.", "Actions:"]
    for team, _members, _centre, enemies in _teams(observation):
        x = round(sum(e.screen[0] for e in enemies) / len(enemies))
        y = round(sum(e.screen[1] for e in enemies) / len(enemies))
        lines.append(f"  Team {team}:")
        lines.append(f"    <Attack_screen(now, [{x}, {y}])>")
    return "\n".join(lines) + "\n"


class FocusFireAgent:
    """``sc2-focus-fire``: :func:`focus_fire_reply` as an agent."""

    def __init__(self, context: AgentContext | None = None) -> None:
        self.context = context

    async def act(self, observation: Observation) -> Action:
        return Action(REPLY, focus_fire_reply(observation))


class AttackMoveAgent:
    """``sc2-attack-move``: :func:`attack_move_reply` as an agent."""

    def __init__(self, context: AgentContext | None = None) -> None:
        self.context = context

    async def act(self, observation: Observation) -> Action:
        return Action(REPLY, attack_move_reply(observation))

"""Scripted baselines that write action text, as a model would (parser and translator exercised).

* ``sc2-focus-fire``: each ranged team attacks the enemy with the least
  health+shield within its weapon range, one ``<Attack_Unit(tag)>``; with
  none in range, and always for melee teams (which at this pace do best
  fighting what they meet), it attack-moves on the nearest enemy
  (``<Attack_screen(now, [x, y])>``);
  a Stalker team with a melee enemy close fires that shot (one environment
  step) and then steps back with ``<Move_Screen([x, y])>`` until the next
  decision (kiting at the text interface's pace: the released loop spends
  camera and selection steps, so decisions come every two to three seconds);
* ``sc2-attack-move``: each team attack-moves to the enemy army's centre with
  pysc2's own ``<Attack_screen(now, [x, y])>``.

With no enemy on screen, both attack-move on the minimap to the nearest
enemy the observation lists (``<Attack_minimap(now, [x, y])>``).
"""

from __future__ import annotations

import math

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation
from stratbench.games.sc2.game import REPLY
from stratbench.games.sc2.unit_table import ENEMY, UnitTable

RANGE_PX = 32.0
"""Screen pixels counted as "in range" of a ranged team: 6 world units at the default 128 px for 24 units."""
KITE_PX = 24.0
"""A Stalker team kites melee enemies closer than this (screen pixels, about 4.5 world units)."""
RETREAT_PX = 40
"""How far a kiting Stalker team steps back (screen pixels, about 7.5 world units)."""
MINIMAP_MARGIN = 6
"""Retreat points keep this far (minimap pixels) from the map's edge."""
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


def _advance_off_screen(observation: Observation) -> list[str]:
    """With no enemy on screen: every team attack-moves on the minimap to the nearest known enemy."""
    table = UnitTable.from_observation(observation.data["observation"])
    if any(u.screen is not None for u in table.of(ENEMY)) or not table.of(ENEMY):
        return []
    lines = []
    for team, tags in observation.data["teams"].items():
        members = [u for u in (table.by_tag(int(tag, 16)) for tag in tags) if u is not None]
        if not members:
            continue
        centre = (sum(u.minimap[0] for u in members) / len(members), sum(u.minimap[1] for u in members) / len(members))
        near = min(table.of(ENEMY), key=lambda e: (math.dist(centre, e.minimap), e.tag))
        lines += [f"  Team {team}:", f"    <Attack_minimap(now, [{near.minimap[0]}, {near.minimap[1]}])>"]
    return lines


def _retreat_point(centre, members, threat, enemies) -> tuple[int, int]:
    """A screen point ``RETREAT_PX`` away from ``threat``, turned toward open ground near the map's edges.

    The map's extent is the minimap's (square maps fill it); the screen-to-minimap
    scale is read off the team and the threat's two positions.
    """
    mini = (sum(u.minimap[0] for u in members) / len(members), sum(u.minimap[1] for u in members) / len(members))
    screen_gap = math.dist(centre, threat.screen) or 1.0
    scale = (math.dist(mini, threat.minimap) or screen_gap / 2.66) / screen_gap
    away = math.atan2(centre[1] - threat.screen[1], centre[0] - threat.screen[0])
    best = None
    for turn in (0, 30, -30, 60, -60, 90, -90, 120, -120, 150, -150, 180):
        angle = away + math.radians(turn)
        dx, dy = math.cos(angle) * RETREAT_PX, math.sin(angle) * RETREAT_PX
        mx, my = mini[0] + dx * scale, mini[1] + dy * scale
        if MINIMAP_MARGIN <= mx <= 63 - MINIMAP_MARGIN and MINIMAP_MARGIN <= my <= 63 - MINIMAP_MARGIN:
            best = (dx, dy)
            break
    dx, dy = best or (math.cos(away) * RETREAT_PX, math.sin(away) * RETREAT_PX)
    return round(min(max(centre[0] + dx, 0), 127)), round(min(max(centre[1] + dy, 0), 127))


def focus_fire_reply(observation: Observation) -> str:
    """The focus-fire reply text for one decision."""
    lines = ["Analysis:", "  Focus the weakest enemy in range; Stalkers kite melee units while reloading.", "Actions:"]
    lines += _advance_off_screen(observation)
    for team, members, centre, enemies in _teams(observation):
        lines.append(f"  Team {team}:")
        melee_team = all(u.type_name in MELEE_TYPES for u in members)
        in_range = [] if melee_team else [e for e in enemies if math.dist(centre, e.screen) <= RANGE_PX]
        if not in_range:  # melee teams, or nothing in range: attack-move on the nearest enemy
            near = min(enemies, key=lambda e: (math.dist(centre, e.screen), e.tag))
            lines.append(f"    <Attack_screen(now, [{near.screen[0]}, {near.screen[1]}])>")
            continue
        target = min(in_range, key=lambda e: (e.health + e.shield, e.tag))
        lines.append(f"    <Attack_Unit({hex(target.tag)})>")
        melee = [e for e in enemies if e.type_name in MELEE_TYPES and math.dist(centre, e.screen) < KITE_PX]
        if all(u.type_name == "Stalker" for u in members) and melee:
            # fire once (one environment step), then step back until the next decision: the melee enemies,
            # slower than Stalkers, cannot strike while they follow
            near = min(melee, key=lambda e: (math.dist(centre, e.screen), e.tag))
            x, y = _retreat_point(centre, members, near, enemies)
            lines.append(f"    <Move_Screen([{x}, {y}])>")
    return "\n".join(lines) + "\n"


def attack_move_reply(observation: Observation) -> str:
    """The attack-move reply text for one decision."""
    lines = ["Analysis:", "  Attack-move to the enemy army.", "Actions:"]
    lines += _advance_off_screen(observation)
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

"""Scripted baselines that write action text, as a model would (parser and translator exercised).

* ``sc2-focus-fire``, one rule per team each decision (the decision pace of
  the released loop is two to four game seconds, so each reply sets up what
  the units do until the next one):

  - a ranged team attacks the enemy with the least health+shield within its
    weapon range, incoming melee enemies first (the released SMAC hint:
    "concentrate all teams fire on the incoming melee enemies"), and queues
    the next two (``<Attack_Unit(tag)>`` x3: the game's shift-queue retargets
    when the first dies);
  - a Stalker team with a melee enemy within ``KITE_RANGE`` of a member fires
    that shot and then steps back, ``<Move_screen(now, [x, y])>`` one
    environment step later (hit and run while the weapon reloads: the slower
    Zealot cannot strike while it follows): ``STEP_PX`` beside its own melee
    units, ``RETREAT_PX`` (a decision's walk) without them;
  - a melee team attacks one enemy (``<Attack_screen(now, [x, y])>`` on it):
    the one nearest to the side's ranged units when it is within
    ``PEEL_RANGE`` of them (protecting the Stalkers), else the one nearest to
    the team;
  - with nothing in range, a team attacks the nearest enemy;
  - a team casts its key ability first when the rule of
    :mod:`.text_abilities` says so and its action space has the ability's
    action (Graviton Beam, Psionic Storm, Purification Nova, Guardian Shield,
    Blink, warp-in at a Warp Prism; the observation's ``actions``, its Valid Actions);
  - ranged teams are written first, so their orders are the first executed
    (each team's selection takes environment steps);

* ``sc2-attack-move``: each team attack-moves to the enemy army's centre with
  pysc2's own ``<Attack_screen(now, [x, y])>``.

With no enemy on screen, both attack-move on the minimap to the nearest enemy
the observation lists (``<Attack_minimap(now, [x, y])>``). Distances are read
off the screen (128 px for the camera's 24 world units) and weapon ranges
off the published unit table (:mod:`.unit_data`).
"""

from __future__ import annotations

import math

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation
from stratbench.games.sc2.engine import text_abilities as cast
from stratbench.games.sc2.engine.text_abilities import PX_PER_UNIT, stats_of
from stratbench.games.sc2.game import REPLY
from stratbench.games.sc2.unit_table import ENEMY, SELF, UnitInfo, UnitTable

KITE_RANGE = 2.5
"""A Stalker team fires then steps back when a melee enemy is this close to a member (world units, edge to edge)."""
PEEL_RANGE = 4.0
"""A melee team turns on an enemy this close to its side's ranged units (world units, centre to centre)."""
RETREAT_PX = 80
"""How far a kiting Stalker team without melee allies steps back (screen pixels, 15 world units: at 4.13 per
second it is still walking away when the next decision comes, 3-4 game seconds later)."""
STEP_PX = 10
"""How far it steps back when its side has melee units fighting (screen pixels, about 2 world units: out of a
Zealot's reach, still beside its own melee line)."""
MINIMAP_MARGIN = 6
"""Retreat points keep this far (minimap pixels) from the map's edge."""
MELEE_RANGE = 1.0
"""Weapons of at most this range are melee."""
MAX_ACTIONS = 3
"""Actions the released loop executes per team and decision."""
DEFAULT_RANGE = 5.0
"""The weapon range assumed for a unit type the table does not list."""


def _range(unit: UnitInfo) -> float:
    stats = stats_of(unit)
    return DEFAULT_RANGE if stats is None else stats.range


def _radius(unit: UnitInfo) -> float:
    stats = stats_of(unit)
    return 0.5 if stats is None else stats.radius


def _melee(unit: UnitInfo) -> bool:
    stats = stats_of(unit)
    return stats is not None and stats.has_weapon and stats.range <= MELEE_RANGE


def _gap(a: UnitInfo, b: UnitInfo) -> float:
    """Edge-to-edge distance in world units, read off the screen."""
    return math.dist(a.screen, b.screen) / PX_PER_UNIT - _radius(a) - _radius(b)


def _can_hit(unit: UnitInfo, enemy: UnitInfo) -> bool:
    mine, theirs = stats_of(unit), stats_of(enemy)
    return mine is None or theirs is None or mine.can_hit(theirs)


def _in_range(members, enemy: UnitInfo) -> bool:
    return any(_gap(m, enemy) <= _range(m) and _can_hit(m, enemy) for m in members)


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


def _retreat_point(centre, members, threat, enemies, length: int = RETREAT_PX) -> tuple[int, int]:
    """A screen point ``length`` pixels away from ``threat``, turned toward open ground near the map's edges.

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
        dx, dy = math.cos(angle) * length, math.sin(angle) * length
        mx, my = mini[0] + dx * scale, mini[1] + dy * scale
        if MINIMAP_MARGIN <= mx <= 63 - MINIMAP_MARGIN and MINIMAP_MARGIN <= my <= 63 - MINIMAP_MARGIN:
            best = (dx, dy)
            break
    dx, dy = best or (math.cos(away) * length, math.sin(away) * length)
    return round(min(max(centre[0] + dx, 0), 127)), round(min(max(centre[1] + dy, 0), 127))


def _nearest(point, enemies) -> UnitInfo:
    return min(enemies, key=lambda e: (math.dist(point, e.screen), e.tag))


def _click(unit: UnitInfo) -> str:
    return f"    <Attack_screen(now, [{unit.screen[0]}, {unit.screen[1]}])>"


def _melee_team_actions(centre, enemies, ranged_allies) -> list[str]:
    """One target for the whole melee team: the enemy pressing the ranged allies, else the nearest."""
    if ranged_allies:
        pressing = min(enemies, key=lambda e: (min(math.dist(e.screen, r.screen) for r in ranged_allies), e.tag))
        if min(math.dist(pressing.screen, r.screen) for r in ranged_allies) <= PEEL_RANGE * PX_PER_UNIT:
            return [_click(pressing)]
    return [_click(_nearest(centre, enemies))]


def _ranged_team_actions(members, centre, enemies, escorted: bool) -> list[str]:
    """Focus the weakest enemy in range (melee first), queue the next two; Stalkers fire then step back from melee."""
    in_range = sorted((e for e in enemies if _in_range(members, e)),
                      key=lambda e: (not _melee(e), e.health + e.shield, e.tag))
    if not in_range:
        return [_click(_nearest(centre, enemies))]
    close = [e for e in enemies if _melee(e) and any(_gap(m, e) < KITE_RANGE for m in members)]
    if close and all(u.type_name == "Stalker" for u in members):
        threat = _nearest(centre, close)
        x, y = _retreat_point(centre, members, threat, enemies, STEP_PX if escorted else RETREAT_PX)
        return [f"    <Attack_Unit({hex(in_range[0].tag)})>", f"    <Move_screen(now, [{x}, {y}])>"]
    return [f"    <Attack_Unit({hex(e.tag)})>" for e in in_range[:3]]


def _team_actions(team, members, centre, enemies, side, loop: int, memory: dict) -> list[str]:
    """One team's actions: its key ability when the rule of :mod:`.text_abilities` says so, then fighting."""

    kinds = {u.type_name for u in members}
    allowed = set(side["actions"].get(team, ()))
    if kinds == {"WarpPrism"} and "Morph_WarpPrismPhasingMode" in allowed:
        return cast.warp_ins(members, side["own"], memory)
    if "Phoenix" in kinds and "Ability_GravitonBeam_Unit" in allowed:
        lifting = cast.graviton(members, enemies, loop, memory)
        if lifting:
            return lifting
    casts: list[str] = []
    if "HighTemplar" in kinds and "Ability_PsiStorm_Screen" in allowed:
        casts = cast.storms(members, enemies, side["own"], loop, memory)
    elif "Disruptor" in kinds and "Ability_PurificationNova_Attack" in allowed:
        casts = cast.nova(team, members, enemies, side["own"], loop, memory)
    elif "Sentry" in kinds and "Ability_GuardianShield" in allowed:
        casts = cast.guardian_shield(team, members, enemies, loop, memory)
    if not any((s := stats_of(u)) is None or s.has_weapon for u in members):
        return casts or cast.follow(members, enemies, side["own"])
    if all(_melee(u) for u in members):
        fighting = _melee_team_actions(centre, enemies, side["ranged"])
    else:
        fighting = _ranged_team_actions(members, centre, enemies, side["escorted"])
    blinks = cast.blink(members, enemies, loop, memory) if "Select_Unit_Blink_Screen" in allowed else []
    return (casts + fighting)[:MAX_ACTIONS - len(blinks)] + blinks


def focus_fire_reply(observation: Observation, memory: dict | None = None) -> str:
    """The focus-fire reply text for one decision (``memory``: the agent's record of its own casts)."""
    memory = {} if memory is None else memory
    lines = ["Analysis:", ("  Focus the weakest enemy in range, incoming melee first; Stalkers fire then step back from "
                           "melee; melee units protect the ranged ones; cast the key abilities."), "Actions:"]
    lines += _advance_off_screen(observation)
    raw = observation.data["observation"]
    loop = int(raw["game_loop"][0])
    teams = sorted(_teams(observation), key=lambda team: all(_melee(u) for u in team[1]))  # ranged teams act first
    side = {"own": [u for u in UnitTable.from_observation(raw).of(SELF) if u.screen is not None],
            "ranged": [u for _, members, _, _ in teams for u in members if not _melee(u)],
            "escorted": any(_melee(u) for _, members, _, _ in teams for u in members),
            "actions": observation.data.get("actions", {})}
    for team, members, centre, enemies in teams:
        lines.append(f"  Team {team}:")
        lines += _team_actions(team, members, centre, enemies, side, loop, memory)
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
        self.memory: dict = {}

    async def act(self, observation: Observation) -> Action:
        return Action(REPLY, focus_fire_reply(observation, self.memory))


class AttackMoveAgent:
    """``sc2-attack-move``: :func:`attack_move_reply` as an agent."""

    def __init__(self, context: AgentContext | None = None) -> None:
        self.context = context

    async def act(self, observation: Observation) -> Action:
        return Action(REPLY, attack_move_reply(observation))

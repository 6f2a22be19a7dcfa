"""The focus-fire text baseline's ability rules: one simple rule per key ability of the tasks' units.

Each rule reads a team, the enemies and own units on screen, the game loop
and the baseline's memory of its own casts (cooldowns and buffs are not in
the observation), and returns action text in the grammar a model uses, or
nothing:

- Graviton Beam (Phoenix team; Phoenixes hit only air units): the team
  attacks the unit it lifted last decision while it floats (7.14 s), then a
  member with 50 energy lifts the enemy worker nearest to the team (any
  liftable ground unit when no worker is on screen); the beam is queued
  behind the attack, so it comes once the floating unit is dead.
- Psionic Storm (High Templar team, 75 energy): on the enemy with the most
  enemies within the storm's radius (at least ``CLUMP``) when no own unit is
  within ``SAFE_DISTANCE`` of it and a templar is within 9; a second storm
  on another clump when two templars have the energy.
- Purification Nova (Disruptor team, one nova per Disruptor per 21.4 s): the
  same clump rule, within 13.
- Guardian Shield (Sentry team, 75 energy): when an enemy with a ranged
  weapon is within 9 of the team and the last shield (5.71 s) has ended.
- Blink (Stalker team): the weakest member with no shield left, an enemy
  within 7 of it and no blink of its own in the last 7 s, blinks
  ``BLINK_DISTANCE`` away from the nearest enemy and holds there.

- Warp-in (Warp Prism team, task 8): the Warp Prism flies to its side's
  armed units (one decision's flight), phases, and each decision the Warp
  Gates warp in Zealots (what minerals alone buy) 1.5 from it, two a decision.

Force Field is not cast: its use is to cut off a ramp or a retreat, and the
engine has no terrain. Casters without a weapon (High Templar, Disruptor)
that cast nothing keep ``FOLLOW_DISTANCE`` behind their side's armed units.
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.abilities import ABILITIES
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND, UnitStats, unit_stats
from stratbench.games.sc2.unit_table import UnitInfo

PX_PER_UNIT = 128 / 24
"""Screen pixels per world unit at the default 128 px screen over the camera's 24 world units."""
CLUMP = 3
"""Enemies a storm or nova must catch."""
SAFE_DISTANCE = 3.0
"""No own unit may be this close (world units) to a storm's or nova's centre."""
BLINK_DISTANCE = 7.0
"""How far from the nearest enemy a Stalker blinks (world units; Blink reaches 8)."""
FOLLOW_DISTANCE = 3.0
"""How far behind its side's armed units a caster without a weapon keeps (world units)."""
WORKERS = frozenset({"Drone", "Probe", "SCV"})


def _world(a, b) -> float:
    """Centre distance in world units between two screen points."""
    return math.dist(a, b) / PX_PER_UNIT


def _loops(seconds: float) -> int:
    return round(seconds * LOOPS_PER_SECOND)


def stats_of(unit: UnitInfo) -> UnitStats | None:
    """The published stats of an observed unit's type (None for a type the table does not list)."""
    return unit_stats().get(f"{unit.race}.{unit.type_name}")


def _screen(point) -> tuple[int, int]:
    return round(min(max(point[0], 0), 127)), round(min(max(point[1], 0), 127))


def _clumps(enemies, own, casters, reach: float, radius: float) -> list[UnitInfo]:
    """Enemy units to centre an area spell on, best first: at least ``CLUMP`` enemies caught, no own unit near."""
    scored = []
    for centre in enemies:
        caught = sum(1 for e in enemies if _world(e.screen, centre.screen) <= radius + 0.5)
        safe = all(_world(o.screen, centre.screen) > SAFE_DISTANCE for o in own)
        near = min(_world(c.screen, centre.screen) for c in casters) <= reach
        if caught >= CLUMP and safe and near:
            scored.append((-caught, centre.tag, centre))
    return [c for _, _, c in sorted(scored)]


def _apart(centres, radius: float) -> list[UnitInfo]:
    """Keep centres whose areas do not overlap (best first)."""
    kept: list[UnitInfo] = []
    for centre in centres:
        if all(_world(centre.screen, k.screen) > 2 * radius for k in kept):
            kept.append(centre)
    return kept


def storms(members, enemies, own, loop: int, memory: dict) -> list[str]:
    """Psionic Storm on up to two clumps (one per templar with 75 energy)."""
    data = ABILITIES["psionic_storm"]
    casters = [m for m in members if m.type_name == "HighTemplar" and m.energy >= data.energy]
    if not casters:
        return []
    centres = _apart(_clumps(enemies, own, casters, data.range, data.radius), data.radius)[:len(casters)][:2]
    return [f"    <Ability_PsiStorm_Screen([{c.screen[0]}, {c.screen[1]}])>" for c in centres]


def nova(team: str, members, enemies, own, loop: int, memory: dict) -> list[str]:
    """Purification Nova on the best clump, one per Disruptor per cooldown."""
    data = ABILITIES["purification_nova"]
    casters = [m for m in members if m.type_name == "Disruptor"]
    fired = [t for t in memory.setdefault("nova", {}).get(team, []) if loop - t < _loops(data.cooldown)]
    if not casters or len(fired) >= len(casters):
        return []
    centres = _clumps(enemies, own, casters, data.range, data.radius)
    if not centres:
        return []
    memory["nova"][team] = fired + [loop]
    return [f"    <Ability_PurificationNova_Attack({hex(centres[0].tag)})>"]


def guardian_shield(team: str, members, enemies, loop: int, memory: dict) -> list[str]:
    """Guardian Shield when a ranged enemy is within 9 and the last one has ended."""
    data = ABILITIES["guardian_shield"]
    if not any(m.type_name == "Sentry" and m.energy >= data.energy for m in members):
        return []
    if loop - memory.setdefault("shield", {}).get(team, -10**9) < data.duration_loops:
        return []
    ranged = [e for e in enemies if (s := stats_of(e)) is not None and s.has_weapon and s.range > 1.0]
    if not any(_world(e.screen, m.screen) <= 9.0 for e in ranged for m in members):
        return []
    memory["shield"][team] = loop
    return ["    <Ability_GuardianShield()>"]


def blink(members, enemies, loop: int, memory: dict) -> list[str]:
    """Blink the weakest shield-less Stalker under fire away from the nearest enemy, then hold."""
    data = ABILITIES["blink"]
    blinked = memory.setdefault("blink", {})
    hurt = [m for m in members if m.type_name == "Stalker" and m.shield < 1
            and loop - blinked.get(m.tag, -10**9) >= data.cooldown_loops
            and any(_world(m.screen, e.screen) <= 7.0 for e in enemies)]
    if not hurt:
        return []
    stalker = min(hurt, key=lambda m: (m.health, m.tag))
    threat = min(enemies, key=lambda e: (_world(stalker.screen, e.screen), e.tag))
    dx, dy = stalker.screen[0] - threat.screen[0], stalker.screen[1] - threat.screen[1]
    length = math.hypot(dx, dy) or 1.0
    gap = _world(stalker.screen, threat.screen)
    step = max(1.0, BLINK_DISTANCE - gap) * PX_PER_UNIT
    x, y = _screen((stalker.screen[0] + dx / length * step, stalker.screen[1] + dy / length * step))
    blinked[stalker.tag] = loop
    return [f"    <Select_Unit_Blink_Screen({hex(stalker.tag)}, [{x}, {y}])>", "    <Hold_Position()>"]


def graviton(members, enemies, loop: int, memory: dict) -> list[str]:
    """Attack the unit lifted last decision while it floats; a Phoenix with energy lifts the nearest worker."""
    data = ABILITIES["graviton_beam"]
    lifted = memory.setdefault("lifted", {})
    lines = []
    floating = [e for e in enemies if loop - lifted.get(e.tag, -10**9) < data.duration_loops]
    if floating:
        lines.append(f"    <Attack_Unit({hex(floating[0].tag)})>")
    if any(m.energy >= data.energy for m in members):
        centre = (sum(m.screen[0] for m in members) / len(members), sum(m.screen[1] for m in members) / len(members))
        ground = [e for e in enemies if e not in floating and (s := stats_of(e)) is not None
                  and s.layer == "ground" and "Massive" not in s.attributes and not s.is_structure]
        workers = [e for e in ground if e.type_name in WORKERS]
        pool = workers or ground
        if pool:
            target = min(pool, key=lambda e: (math.dist(centre, e.screen), e.tag))
            lifted[target.tag] = loop
            lines.append(f"    <Ability_GravitonBeam_Unit({hex(target.tag)})>")
    return lines


def follow(members, enemies, own) -> list[str]:
    """A caster without a weapon keeps ``FOLLOW_DISTANCE`` behind its side's armed units."""
    armed = [o for o in own if (s := stats_of(o)) is not None and s.has_weapon and not s.is_structure]
    if not armed or not enemies:
        return []
    ax, ay = sum(o.screen[0] for o in armed) / len(armed), sum(o.screen[1] for o in armed) / len(armed)
    ex, ey = sum(e.screen[0] for e in enemies) / len(enemies), sum(e.screen[1] for e in enemies) / len(enemies)
    dx, dy = ax - ex, ay - ey
    length = math.hypot(dx, dy) or 1.0
    x, y = _screen((ax + dx / length * FOLLOW_DISTANCE * PX_PER_UNIT, ay + dy / length * FOLLOW_DISTANCE * PX_PER_UNIT))
    return [f"    <Move_screen(now, [{x}, {y}])>"]


def warp_ins(members, own, memory: dict) -> list[str]:
    """A Warp Prism flies to its side's armed units (one decision), phases, and the Warp Gates warp Zealots around it."""
    prism = members[0]
    armed = [o for o in own if (s := stats_of(o)) is not None and s.has_weapon and not s.is_structure]
    if not memory.get("phased"):
        if armed and not memory.get("flown"):
            ax, ay = sum(o.screen[0] for o in armed) / len(armed), sum(o.screen[1] for o in armed) / len(armed)
            if _world(prism.screen, (ax, ay)) > WARP_SPOT_DISTANCE:
                memory["flown"] = True
                x, y = _screen((ax, ay))
                return [f"    <Move_screen(now, [{x}, {y}])>"]
        memory["phased"] = True
        return ["    <Morph_WarpPrismPhasingMode()>", "    <select_warp_gates(select)>", _warp(prism, memory)]
    return ["    <select_warp_gates(select)>", _warp(prism, memory), _warp(prism, memory)]


WARP_SPOT_DISTANCE = 3.0
"""A Warp Prism this close (world units) to its side's armed units phases and warps in."""
WARP_OFFSET = 1.5
"""Warped units appear this far from the Warp Prism (world units; its power field reaches 3.75)."""


def _warp(prism: UnitInfo, memory: dict) -> str:
    count = memory.get("warps", 0)
    memory["warps"] = count + 1
    angle = math.radians(60 * count)
    x, y = _screen((prism.screen[0] + math.cos(angle) * WARP_OFFSET * PX_PER_UNIT,
                    prism.screen[1] + math.sin(angle) * WARP_OFFSET * PX_PER_UNIT))
    return f"    <TrainWarp_Zealot_screen(now, [{x}, {y}])>"

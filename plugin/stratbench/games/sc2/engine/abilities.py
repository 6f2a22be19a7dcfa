"""Unit abilities: casting them and the timed effects they leave (their numbers: :mod:`.ability_data`).

Each ability, its numbers and the approximation made (times on "faster"):

- ``blink`` (Stalker): teleport up to 8 toward the point, 7 s cooldown; instant, no vision check.
- ``guardian_shield`` (Sentry, 75 energy): for 5.71 s every allied unit within 4.5 of the Sentry
  (which it follows) takes 2 less damage from each ranged hit (weapon range above 1), never below 0.5.
- ``force_field`` (Sentry, 50 energy, range 9): a disc of radius 1.7 for 11 s that ground units may not
  step into; units standing in it when cast are pushed to its edge; a Massive unit walking into it breaks it.
- ``psionic_storm`` (High Templar, 75 energy, range 9): radius 1.5 for 2.86 s, 10 damage every 8 loops
  (8 ticks, the first on the cast loop: 80 in all) to every unit of both sides inside, ignoring armour;
  storms do not stack (a unit takes at most one tick per loop).
- ``purification_nova`` (Disruptor, 21.4 s cooldown): the ball travels to the point (at most 13 away,
  farther points are pulled in) and detonates 2.1 s after the cast for 145 damage (+55 to shields) to every
  ground unit of both sides within 1.5, ignoring armour; the Disruptor itself is not hit.
- ``corrosive_bile`` (Ravager, 7 s cooldown, range 9): lands 2.5 s after the cast, 60 damage to every unit
  (ground and air, both sides) within 0.5, ignoring armour; it also destroys Force Fields it lands on.
- ``graviton_beam`` (Phoenix, 50 energy, range 4): lifts a non-massive ground unit for 7.14 s: it cannot act
  and counts as flying (anti-air weapons hit it, ground-only ones cannot); the Phoenix channels (cannot act)
  as long, or until the lifted unit dies. The channel is not broken by damage.
- ``volatile_burst`` (Baneling): explodes at once (its attack already does, see :mod:`.battle`).
- ``fungal_growth``, ``abduct``, ``blinding_cloud``, ``parasitic_bomb``, ``spawn_locusts`` (Infestor, Viper,
  Swarm Host): see :mod:`.zerg_spells`.

A unit given a cast out of range walks into range first (order ``cast``), as the game does. Ability damage
counts as the caster's damage in the score; friendly-fire damage is not counted. The pysc2 ability ids
(feature and raw functions share them) that reach each ability are in :data:`.ability_data.ABILITY_IDS`.
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.ability_data import ABILITIES, AbilityData
from stratbench.games.sc2.engine.battle_types import STOP, Effect, Order
from stratbench.games.sc2.engine.unit_data import stats_for
from stratbench.games.sc2.engine.zerg_spells import (
    SPELLS,
    apply_spell_effects,
    cast_spell,
)

STORM_TICK_LOOPS = 8
STORM_TICK_DAMAGE = 10.0
NOVA_SHIELD_BONUS = 55.0


def abilities_of(unit_name: str) -> list[AbilityData]:
    return [a for a in ABILITIES.values() if a.caster == unit_name]


def ready(battle, unit, name: str) -> bool:
    """Whether ``unit`` may cast ``name`` now (type, energy, cooldown, not channelling)."""
    data = ABILITIES[name]
    return (unit.alive and unit.name == data.caster and unit.energy >= data.energy
            and battle.loop >= unit.ready.get(name, 0) and battle.loop >= unit.busy_until)


INSTANT = frozenset({"blink", "purification_nova", "guardian_shield", "volatile_burst", "spawn_locusts"})
"""Abilities cast at once when their order comes up (no walk into range: Blink and the Nova pull the point in)."""


def order_cast(battle, tag: int, name: str, point=None, target: int | None = None, *, queued: bool = False) -> bool:
    """Order a cast (walk into range first); False when the unit cannot cast it or the target is missing.

    A ``queued`` cast waits behind the unit's orders (the game's shift-queue);
    otherwise an instant ability is cast now and the others replace the unit's orders.
    """
    unit = battle.units.get(tag)
    data = ABILITIES.get(name)
    if unit is None or data is None or not ready(battle, unit, name):
        return False
    if data.target == "unit" and (target is None or target not in battle.units):
        return False
    if data.target == "point" and point is None:
        return False
    order = Order("cast", point=point, target=target, ability=name)
    if queued and (unit.order.kind != STOP or unit.queue):
        return battle.command(tag, order, queued=True)
    if name in INSTANT:
        unit.queue = []
        return cast(battle, unit, name, point, target)
    battle.command(tag, order)
    return True


def cast_in_range(battle, unit, data: AbilityData, point, target) -> bool:
    if data.target == "unit":
        other = battle.units[target]
        return unit.distance_to(other) <= data.range + 1e-9
    return math.hypot(point[0] - unit.x, point[1] - unit.y) <= data.range + 1e-9


def cast(battle, unit, name: str, point=None, target: int | None = None) -> bool:
    """Cast ``name`` now (in range or pulled into range); False when not ready or the target is invalid."""
    data = ABILITIES[name]
    if not ready(battle, unit, name):
        return False
    loop = battle.loop
    if point is not None and data.range and data.target == "point":
        dx, dy = point[0] - unit.x, point[1] - unit.y
        length = math.hypot(dx, dy)
        if length > data.range:
            point = (unit.x + dx / length * data.range, unit.y + dy / length * data.range)
        point = battle._clamp(*point)
    if name in SPELLS:
        if not cast_spell(battle, unit, name, point, target):
            return False
    elif name == "blink":
        unit.x, unit.y = point
        unit.order = Order()
    elif name == "guardian_shield":
        battle.effects.append(Effect(name, unit.owner, unit.x, unit.y, data.radius, loop, loop + data.duration_loops, unit.tag))
    elif name == "force_field":
        battle.effects.append(Effect(name, unit.owner, point[0], point[1], data.radius, loop, loop + data.duration_loops))
        _push_out(battle, point, data.radius)
    elif name == "psionic_storm":
        battle.effects.append(Effect(name, unit.owner, point[0], point[1], data.radius, loop,
                                     loop + STORM_TICK_LOOPS * round(data.damage / STORM_TICK_DAMAGE), unit.tag))
    elif name in ("purification_nova", "corrosive_bile"):
        battle.effects.append(Effect(name, unit.owner, point[0], point[1], data.radius, loop, loop + data.duration_loops, unit.tag))
    elif name == "graviton_beam":
        other = battle.units.get(target)
        view = other.view(loop) if other is not None else None
        if other is None or not other.alive or view.flying or "Massive" in view.attributes or view.is_structure:
            return False
        if unit.distance_to(other) > data.range + 1e-9:
            return False
        other.lifted_until = unit.busy_until = loop + data.duration_loops
        unit.channel_target = other.tag
        other.order, other.queue = Order(), []
    elif name == "volatile_burst":
        stats = stats_for("Zerg.Baneling")
        for victim in list(battle.alive(3 - unit.owner)):
            if not victim.stats.flying and math.hypot(victim.x - unit.x, victim.y - unit.y) <= data.radius + victim.stats.radius:
                battle.deal(unit.owner, victim, stats.hit_damage(victim.view(loop)))
        unit.health = 0.0
    unit.energy -= data.energy
    if data.cooldown:
        unit.ready[name] = loop + data.cooldown_loops
    return True


def _push_out(battle, point, radius: float) -> None:
    for unit in battle.alive():
        if unit.stats.flying or unit.stats.speed <= 0:
            continue
        dx, dy = unit.x - point[0], unit.y - point[1]
        distance = math.hypot(dx, dy)
        reach = radius + unit.stats.radius
        if distance < reach:
            ux, uy = (dx / distance, dy / distance) if distance > 1e-9 else (1.0, 0.0)
            unit.x, unit.y = battle._clamp(point[0] + ux * reach, point[1] + uy * reach)


def _inside(unit, effect, *, ground_only: bool) -> bool:
    if ground_only and unit.stats.flying:
        return False
    return math.hypot(unit.x - effect.x, unit.y - effect.y) <= effect.radius + unit.stats.radius


def apply_effects(battle) -> None:
    """Tick every effect of this loop (storm ticks, detonations) and drop those that ended."""
    loop = battle.loop
    apply_spell_effects(battle)
    stormed: set[int] = set()
    for effect in battle.effects:
        if effect.kind == "psionic_storm" and loop < effect.end and (loop - effect.start) % STORM_TICK_LOOPS == 0:
            for unit in battle.alive():
                if unit.tag not in stormed and _inside(unit, effect, ground_only=False):
                    stormed.add(unit.tag)
                    battle.deal(effect.owner, unit, STORM_TICK_DAMAGE, armor=False)
        elif effect.kind == "purification_nova" and loop == effect.end:
            for unit in battle.alive():
                if unit.tag != effect.source and _inside(unit, effect, ground_only=True):
                    if unit.shield > 0:
                        battle.deal(effect.owner, unit, min(unit.shield, NOVA_SHIELD_BONUS), armor=False)
                    battle.deal(effect.owner, unit, ABILITIES["purification_nova"].damage, armor=False)
        elif effect.kind == "corrosive_bile" and loop == effect.end:
            for unit in battle.alive():
                if _inside(unit, effect, ground_only=False):
                    battle.deal(effect.owner, unit, ABILITIES["corrosive_bile"].damage, armor=False)
            for other in battle.effects:
                if other.kind == "force_field" and math.hypot(other.x - effect.x, other.y - effect.y) <= other.radius + effect.radius:
                    other.end = loop
    battle.effects = [e for e in battle.effects if loop < e.end]

"""The Infestor's, Viper's and Swarm Host's abilities: casting them and the timed effects they leave.

Numbers are in :data:`.ability_data.ABILITIES` (one source per row); the approximations made:

- ``fungal_growth`` (Infestor, 75 energy, range 10): every enemy unit (ground and air) within 2.25 of the
  point when cast takes 30 damage over 2.85 s (30 / 64 per loop, ignoring armour) and cannot move as long
  (it may still attack and cast); the missile's travel time is not modelled; a second Fungal on a unit
  restarts its root and adds its own damage.
- ``abduct`` (Viper, 75 energy, range 9): the target is pulled at once to the Viper's side (1 toward the
  target from the Viper's centre, edge to edge); its orders stay.
- ``blinding_cloud`` (Viper, 100 energy, range 11): for 5.71 s ground units (of both sides, not
  structures) standing within 2 of the point attack at melee range (:data:`.battle.BLINDED_RANGE`).
- ``parasitic_bomb`` (Viper, 125 energy, range 8, an air target): for 7 s every enemy air unit within 3 of
  the target (the target too) takes 120 / 157 damage per loop, ignoring armour; bombs do not stack on a
  unit; the bomb ends early if its target dies.
- ``spawn_locusts`` (Swarm Host, 43 s cooldown): two Locusts appear beside the Swarm Host, landed (their
  flight and Swoop are not modelled), and live 18 s (``life`` in ``units.csv``).

Not modelled: Neural Parasite (needs the Neural Parasite research, which no task grants) and Consume.
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.ability_data import ABILITIES
from stratbench.games.sc2.engine.battle_types import Effect

SPELLS = ("fungal_growth", "abduct", "blinding_cloud", "parasitic_bomb", "spawn_locusts")
"""The abilities this module casts."""
LOCUSTS_PER_SPAWN = 2


def cast_spell(battle, unit, name: str, point, target) -> bool:
    """Cast one of :data:`SPELLS` (already checked ready and in range); False when the target is invalid."""
    data = ABILITIES[name]
    loop = battle.loop
    other = battle.units.get(target) if target is not None else None
    if name == "fungal_growth":
        for victim in battle.alive(3 - unit.owner):
            if math.hypot(victim.x - point[0], victim.y - point[1]) <= data.radius + victim.stats.radius:
                end = loop + data.duration_loops
                victim.rooted_until = max(victim.rooted_until, end)
                battle.effects.append(Effect(name, unit.owner, victim.x, victim.y, 0.0, loop, end, victim.tag))
    elif name == "abduct":
        if other is None or not other.alive or other.owner == unit.owner or other.stats.is_structure:
            return False
        dx, dy = other.x - unit.x, other.y - unit.y
        length = math.hypot(dx, dy) or 1.0
        reach = unit.stats.radius + other.stats.radius + 1.0
        other.x, other.y = battle._clamp(unit.x + dx / length * reach, unit.y + dy / length * reach)
    elif name == "blinding_cloud":
        battle.effects.append(Effect(name, unit.owner, point[0], point[1], data.radius, loop, loop + data.duration_loops))
    elif name == "parasitic_bomb":
        if other is None or not other.alive or other.owner == unit.owner or not other.view(loop).flying:
            return False
        battle.effects.append(Effect(name, unit.owner, other.x, other.y, data.radius, loop,
                                     loop + data.duration_loops, other.tag))
    elif name == "spawn_locusts":
        for index in range(LOCUSTS_PER_SPAWN):
            side = 1 if index % 2 == 0 else -1
            x, y = battle._clamp(unit.x + side * (unit.stats.radius + 0.5), unit.y)
            battle.add("Zerg.Locust", unit.owner, x, y, ai="attack")
    return True


def apply_spell_effects(battle) -> None:
    """This loop's Fungal Growth and Parasitic Bomb damage (Blinding Cloud acts through :mod:`.battle`)."""
    loop = battle.loop
    fungal = ABILITIES["fungal_growth"]
    bomb = ABILITIES["parasitic_bomb"]
    bombed: set[int] = set()
    for effect in battle.effects:
        if not effect.start <= loop < effect.end:
            continue
        if effect.kind == "fungal_growth":
            victim = battle.units.get(effect.source)
            if victim is not None and victim.alive:
                battle.deal(effect.owner, victim, fungal.damage / fungal.duration_loops, armor=False)
        elif effect.kind == "parasitic_bomb":
            carrier = battle.units.get(effect.source)
            if carrier is None or not carrier.alive:
                effect.end = loop
                continue
            effect.x, effect.y = carrier.x, carrier.y
            for victim in battle.alive(3 - effect.owner):
                if victim.tag not in bombed and victim.view(loop).flying and \
                        math.hypot(victim.x - carrier.x, victim.y - carrier.y) <= effect.radius + victim.stats.radius:
                    bombed.add(victim.tag)
                    battle.deal(effect.owner, victim, bomb.damage / bomb.duration_loops, armor=False)

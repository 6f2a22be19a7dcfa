"""A Carrier's Interceptors: launched at its target, leashed to it, docked again when it has none.

The approximations (numbers in ``units.csv``: the Carrier's "weapon" is its launch bay, range 8, one
Interceptor every 0.27 s; the Interceptor's own row has its 5 x 2 weapon):

- a Carrier starts with ``HANGAR`` Interceptors docked; each time its launch bay "fires" at a target in
  range 8, one docked Interceptor appears at the Carrier and attacks that target;
- every loop each Interceptor attacks its Carrier's target (the unit the Carrier attacks or has engaged)
  while that target is within ``LEASH`` of the Carrier, else it flies back and docks (leaves the field, no
  loss) once within reach of the Carrier;
- Interceptors die with their Carrier (no one's kill); lost Interceptors are not rebuilt (the tasks give
  the player no minerals to spend).
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.battle_types import ATTACK_UNIT, MOVE, Order

HANGAR = 8
"""Interceptors a Carrier carries (Liquipedia "Carrier", LotV 5.0)."""
LEASH = 14.0
"""How far from its Carrier an Interceptor follows a target (Liquipedia "Carrier", LotV 5.0: leash range 14)."""
CARRIER = "Protoss.Carrier"
INTERCEPTOR = "Protoss.Interceptor"


def launch(battle, carrier, target) -> None:
    """The Carrier's launch bay fired at ``target``: one docked Interceptor joins the fight."""
    if carrier.hangar <= 0:
        return
    carrier.hangar -= 1
    interceptor = battle.add(INTERCEPTOR, carrier.owner, carrier.x, carrier.y, ai="carrier")
    interceptor.carrier = carrier.tag
    interceptor.order = Order(ATTACK_UNIT, target=target.tag)


def carrier_target(battle, carrier):
    """The enemy the Carrier is attacking or has engaged, if alive and within ``LEASH``; else None."""
    tag = carrier.order.target if carrier.order.kind == "attack_unit" else carrier.engaged_tag
    target = battle.units.get(tag) if tag is not None else None
    if target is None or not target.alive or target.owner == carrier.owner:
        return None
    return target if math.hypot(target.x - carrier.x, target.y - carrier.y) <= LEASH else None


def update_interceptors(battle) -> None:
    """Leash, recall and dock every Interceptor (called at the start of each loop)."""
    for unit in list(battle.units.values()):
        if unit.name != INTERCEPTOR or not unit.alive:
            continue
        carrier = battle.units.get(unit.carrier)
        if carrier is None or not carrier.alive:
            unit.health = unit.shield = 0.0  # an Interceptor dies with its Carrier
            continue
        target = carrier_target(battle, carrier)
        if target is not None:
            if unit.order.kind != ATTACK_UNIT or unit.order.target != target.tag:
                unit.order, unit.queue = Order(ATTACK_UNIT, target=target.tag), []
            continue
        if math.hypot(unit.x - carrier.x, unit.y - carrier.y) <= carrier.stats.radius + 0.5:
            del battle.units[unit.tag]  # docked: off the field until launched again
            carrier.hangar += 1
        else:
            unit.order, unit.queue = Order(MOVE, point=(carrier.x, carrier.y)), []

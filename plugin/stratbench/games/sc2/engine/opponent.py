"""The scripted enemy: what the built-in AI does in these maps.

Each unit follows its scenario ``ai``:

- ``attack`` (SMAC's maps, and every task's enemy once its ``attack_at`` time
  has come): attack-move toward the nearest player unit, fighting whatever it
  meets first (attack-move acquires the nearest enemy in sight);
- ``defend``: stay at its post; attack-move on a player unit that comes within
  its sight of the post, return to the post when none does;
- ``passive``: never acts (workers mining).

A transport under way to its ``drop`` point keeps flying there. Casters use
their abilities as the built-in AI does, whenever ready and in range:
Ravagers cast Corrosive Bile on the nearest player unit; Infestors Fungal
Growth on a clump of at least 3 player units (within 2.25 of one); Vipers
Parasitic Bomb on a player air unit with another within 3, else Blinding Cloud
on at least 3 ranged ground units (within 2 of one), else Abduct the most
valuable Massive unit; Swarm Hosts spawn Locusts when a player unit is within 15.
"""

from __future__ import annotations

import math

import numpy as np

from stratbench.games.sc2.engine.abilities import ABILITIES, cast, ready
from stratbench.games.sc2.engine.battle import ATTACK_MOVE, HOLD, MOVE, STOP, Battle, Order


def _nearest(unit, foes):
    return min(foes, key=lambda foe: (math.hypot(foe.x - unit.x, foe.y - unit.y), foe.tag))


DECISION_LOOPS = 4
"""The scripted side re-decides every 4 game loops (0.18 s), as the built-in AI re-targets periodically."""


def scripted_opponent_orders(battle: Battle, owner: int = 2) -> None:
    """Give every unit of ``owner`` its order (on loops that are a multiple of ``DECISION_LOOPS``)."""
    if battle.loop % DECISION_LOOPS:
        return
    foes = [u for u in battle.alive() if u.owner != owner]
    units = [u for u in battle.alive(owner) if not (u.ai == "passive" or u.passive or battle.loop < u.busy_until
                                                    or u.lifted(battle.loop) or (u.cargo and u.order.kind == MOVE))]
    if not foes or not units:
        return
    foe_xy = np.array([(f.x, f.y) for f in foes])
    own_xy = np.array([(u.x, u.y) for u in units])
    nearest_index = np.argmin(np.hypot(own_xy[:, None, 0] - foe_xy[None, :, 0], own_xy[:, None, 1] - foe_xy[None, :, 1]), axis=1)
    for unit, index in zip(units, nearest_index):
        nearest = foes[int(index)]
        if unit.name == "Zerg.Ravager" and ready(battle, unit, "corrosive_bile") and \
                math.hypot(nearest.x - unit.x, nearest.y - unit.y) <= 9.0:
            cast(battle, unit, "corrosive_bile", (nearest.x, nearest.y))
        elif unit.name in CASTERS:
            _cast_spells(battle, unit, foes)
        attacking = unit.ai == "attack" and battle.loop >= unit.attack_loop
        if attacking:
            if unit.order.kind in (STOP, ATTACK_MOVE, HOLD):
                unit.order = Order(ATTACK_MOVE, point=(nearest.x, nearest.y))
            continue
        post = unit.post or (unit.x, unit.y)
        from_post = np.hypot(foe_xy[:, 0] - post[0], foe_xy[:, 1] - post[1])
        if (from_post <= unit.stats.sight).any():
            target = _nearest(unit, [f for f, d in zip(foes, from_post) if d <= unit.stats.sight])
            unit.order = Order(ATTACK_MOVE, point=(target.x, target.y))
        elif math.hypot(unit.x - post[0], unit.y - post[1]) > 1.0:
            if unit.order.kind != MOVE:
                unit.order = Order(MOVE, point=post)
                unit.engaged_tag = None
        elif unit.order.kind != STOP:
            unit.order = Order()


CASTERS = frozenset({"Zerg.Infestor", "Zerg.Viper", "Zerg.SwarmHost"})
CLUMP = 3
LOCUST_TRIGGER = 15.0
"""A Swarm Host spawns Locusts when a player unit is this close."""


def _clump_centre(unit, foes, name: str, minimum: int):
    """The foe in the ability's range with the most foes within its radius (at least ``minimum``), ties by tag."""
    data = ABILITIES[name]
    best = None
    for foe in foes:
        if math.hypot(foe.x - unit.x, foe.y - unit.y) > data.range:
            continue
        caught = sum(1 for other in foes if math.hypot(other.x - foe.x, other.y - foe.y) <= data.radius + other.stats.radius)
        if caught >= minimum and (best is None or (caught, -foe.tag) > (best[0], -best[1].tag)):
            best = (caught, foe)
    return None if best is None else best[1]


def _cast_spells(battle: Battle, unit, foes) -> None:
    """Infestor, Viper and Swarm Host abilities, as the built-in AI uses them."""
    if unit.name == "Zerg.SwarmHost":
        if ready(battle, unit, "spawn_locusts") and any(math.hypot(f.x - unit.x, f.y - unit.y) <= LOCUST_TRIGGER
                                                        for f in foes):
            cast(battle, unit, "spawn_locusts")
        return
    if unit.name == "Zerg.Infestor":
        if ready(battle, unit, "fungal_growth"):
            centre = _clump_centre(unit, foes, "fungal_growth", CLUMP)
            if centre is not None:
                cast(battle, unit, "fungal_growth", (centre.x, centre.y))
        return
    air = [f for f in foes if f.view(battle.loop).flying]
    if ready(battle, unit, "parasitic_bomb"):
        centre = _clump_centre(unit, air, "parasitic_bomb", 2)
        if centre is not None and cast(battle, unit, "parasitic_bomb", target=centre.tag):
            return
    if ready(battle, unit, "blinding_cloud"):
        ranged = [f for f in foes if not f.stats.flying and f.stats.has_weapon and f.stats.range > 1.0]
        centre = _clump_centre(unit, ranged, "blinding_cloud", CLUMP)
        if centre is not None and cast(battle, unit, "blinding_cloud", (centre.x, centre.y)):
            return
    if ready(battle, unit, "abduct"):
        reach = ABILITIES["abduct"].range
        massive = [f for f in foes if "Massive" in f.stats.attributes and unit.distance_to(f) <= reach]
        if massive:
            prize = max(massive, key=lambda f: (f.stats.minerals + 2 * f.stats.vespene, -f.tag))
            cast(battle, unit, "abduct", target=prize.tag)

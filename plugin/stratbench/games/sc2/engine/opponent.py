"""The scripted enemy: what the built-in AI does in these maps.

Each unit follows its scenario ``ai``:

- ``attack`` (SMAC's maps, and every task's enemy once its ``attack_at`` time
  has come): attack-move toward the nearest player unit, fighting whatever it
  meets first (attack-move acquires the nearest enemy in sight);
- ``defend``: stay at its post; attack-move on a player unit that comes within
  its sight of the post, return to the post when none does;
- ``passive``: never acts (workers mining).

A transport under way to its ``drop`` point keeps flying there. Ravagers cast
Corrosive Bile on the nearest player unit in range whenever it is ready.
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.abilities import cast, ready
from stratbench.games.sc2.engine.battle import ATTACK_MOVE, HOLD, MOVE, STOP, Battle, Order


def _nearest(unit, foes):
    return min(foes, key=lambda foe: (math.hypot(foe.x - unit.x, foe.y - unit.y), foe.tag))


def scripted_opponent_orders(battle: Battle, owner: int = 2) -> None:
    """Give every unit of ``owner`` its order for this loop."""
    foes = [u for u in battle.alive() if u.owner != owner]
    if not foes:
        return
    for unit in battle.alive(owner):
        if unit.ai == "passive" or unit.passive or battle.loop < unit.busy_until or unit.lifted(battle.loop):
            continue
        if unit.cargo and unit.order.kind == MOVE:
            continue
        nearest = _nearest(unit, foes)
        if unit.name == "Zerg.Ravager" and ready(battle, unit, "corrosive_bile") and \
                math.hypot(nearest.x - unit.x, nearest.y - unit.y) <= 9.0:
            cast(battle, unit, "corrosive_bile", (nearest.x, nearest.y))
        attacking = unit.ai == "attack" and battle.loop >= unit.attack_loop
        if attacking:
            if unit.order.kind in (STOP, ATTACK_MOVE, HOLD):
                unit.order = Order(ATTACK_MOVE, point=(nearest.x, nearest.y))
            continue
        post = unit.post or (unit.x, unit.y)
        near_post = [f for f in foes if math.hypot(f.x - post[0], f.y - post[1]) <= unit.stats.sight]
        if near_post:
            target = _nearest(unit, near_post)
            unit.order = Order(ATTACK_MOVE, point=(target.x, target.y))
        elif math.hypot(unit.x - post[0], unit.y - post[1]) > 1.0:
            if unit.order.kind != MOVE:
                unit.order = Order(MOVE, point=post)
                unit.engaged_tag = None
        elif unit.order.kind != STOP:
            unit.order = Order()

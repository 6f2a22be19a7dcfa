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

import numpy as np

from stratbench.games.sc2.engine.abilities import cast, ready
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

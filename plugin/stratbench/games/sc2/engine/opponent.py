"""The scripted enemy of SMAC-style maps: attack-move toward the nearest player unit."""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.battle import ATTACK_MOVE, Battle, Order


def scripted_opponent_orders(battle: Battle, owner: int = 2) -> None:
    """Give every idle or attack-moving unit of ``owner`` an attack-move to its nearest foe.

    This mirrors what SMAC's maps ask of the built-in AI: every enemy unit
    attack-moves toward the opposing army and fights whatever it meets first
    (the engine's attack-move acquires the nearest enemy in sight).
    """
    foes = [u for u in battle.alive() if u.owner != owner]
    if not foes:
        return
    for unit in battle.alive(owner):
        nearest = min(foes, key=lambda foe: (math.hypot(foe.x - unit.x, foe.y - unit.y), foe.tag))
        if unit.order.kind in ("stop", ATTACK_MOVE):
            unit.order = Order(ATTACK_MOVE, point=(nearest.x, nearest.y))

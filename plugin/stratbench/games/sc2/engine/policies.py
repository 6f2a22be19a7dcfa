"""Engine-level scripted micro: focus fire with Stalker kiting, and plain attack-move.

These act on a :class:`Battle` directly (for the engine's figures and tests);
the suites' baselines express the same decisions as action text.
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.battle import ATTACK_MOVE, ATTACK_UNIT, MOVE, Battle, Order, Unit
from stratbench.games.sc2.engine.opponent import scripted_opponent_orders

KITE_DISTANCE = 2.0
"""A Stalker reloading steps back when a melee enemy is closer than this (edge to edge)."""


def focus_target(battle: Battle, unit: Unit, foes: list[Unit]) -> Unit:
    """The lowest health+shield foe in range, else the nearest foe (ties by tag)."""
    in_range = [f for f in foes if unit.distance_to(f) <= unit.stats.range]
    if in_range:
        return min(in_range, key=lambda f: (f.health + f.shield, f.tag))
    return min(foes, key=lambda f: (unit.distance_to(f), f.tag))


def _outranged_by(unit: Unit, foes: list[Unit]) -> Unit | None:
    """A foe out-ranging ``unit`` that is shooting at it (a Spine Crawler against Stalkers), if any."""
    return next((f for f in foes if f.engaged_tag == unit.tag and f.stats.range > unit.stats.range), None)


def focus_fire_orders(battle: Battle, owner: int = 1) -> None:
    """Every unit of ``owner`` attacks its focus target; reloading Stalkers step away from melee foes.

    Against a foe that out-ranges them, units take turns: the one under fire
    steps out of range once its shields are gone, so the foe turns to another
    while the shields regenerate (SMAC's 2s_vs_1sc).
    """
    foes = battle.alive(3 - owner)
    if not foes:
        return
    own = battle.alive(owner)
    for unit in own:
        hunter = _outranged_by(unit, foes)
        if hunter is not None and unit.shield < 1 and any(o is not unit and o.shield > unit.shield for o in own):
            dx, dy = unit.x - hunter.x, unit.y - hunter.y
            length = math.hypot(dx, dy) or 1.0
            reach = hunter.stats.range + hunter.stats.radius + unit.stats.radius + 1.0
            battle.command(unit.tag, Order(MOVE, point=(hunter.x + dx / length * reach, hunter.y + dy / length * reach)))
            continue
        if unit.order.kind == MOVE and hunter is None and any(_outranged_by(o, foes) for o in own if o is not unit) \
                and unit.shield < unit.stats.shield:
            continue  # resting out of range while another unit draws the fire
        reloading = battle.loop < unit.weapon_ready_loop
        melee = [f for f in foes if f.stats.range < 1 and unit.distance_to(f) < KITE_DISTANCE]
        if unit.name == "Protoss.Stalker" and reloading and melee:
            near = min(melee, key=lambda f: (unit.distance_to(f), f.tag))
            dx, dy = unit.x - near.x, unit.y - near.y
            length = math.hypot(dx, dy) or 1.0
            battle.command(unit.tag, Order(MOVE, point=(unit.x + dx / length * 3, unit.y + dy / length * 3)))
        else:
            battle.command(unit.tag, Order(ATTACK_UNIT, target=focus_target(battle, unit, foes).tag))


def attack_move_orders(battle: Battle, owner: int = 1) -> None:
    """Every idle unit of ``owner`` attack-moves to the centre of the enemy army."""
    foes = battle.alive(3 - owner)
    if not foes:
        return
    centre = (sum(f.x for f in foes) / len(foes), sum(f.y for f in foes) / len(foes))
    for unit in battle.alive(owner):
        if unit.order.kind != ATTACK_MOVE:
            battle.command(unit.tag, Order(ATTACK_MOVE, point=centre))


def play(battle: Battle, policy, limit_loops: int, decide_every: int = 8) -> dict:
    """Play ``policy`` for player 1 against the scripted opponent; the outcome with kills, deaths."""
    start = {owner: len(battle.alive(owner)) for owner in (1, 2)}
    while battle.winner() is None and battle.loop < limit_loops:
        if battle.loop % decide_every == 0:
            policy(battle, 1)
        scripted_opponent_orders(battle, 2)
        battle.step()
    winner = battle.winner()
    return {"won": winner == 1, "kills": start[2] - len(battle.alive(2)),
            "deaths": start[1] - len(battle.alive(1)), "loops": battle.loop}

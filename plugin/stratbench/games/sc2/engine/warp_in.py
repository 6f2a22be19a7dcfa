"""Warp-in: Warp Gates send units into a phasing Warp Prism's power field, paid from the player's resources.

Numbers (Liquipedia "Warp Gate" and "Warp Prism", LotV 5.0; times on "faster"):

- a Warp Prism in Phasing Mode powers a field of radius 3.75 and cannot move; Transport Mode ends it;
- a warp-in at a Warp Prism is fast: the unit appears 4 s after the command (16 s is the slow warp at a
  Pylon with no Nexus or Warp Gate near, which no task has);
- after a warp-in the Warp Gate waits ``GATE_COOLDOWN`` for its unit type before it can warp again.

Approximations: the player's minerals and vespene are the scenario's ``resources`` (task 8: 1600 minerals,
no vespene), spent at the command (the game also spends them then); supply is not counted; the morph to
Phasing Mode is instant; a unit warping in cannot be hit (in the game it can, taking more damage) and
counts as alive for the win conditions (it is scheduled, :meth:`.battle.Battle.schedule`).

Reached as the game is: ``select_warp_gates`` selects every Warp Gate, each ``TrainWarp_<Unit>`` command
warps one unit through the first ready Warp Gate (by tag) at the point, ``Morph_WarpPrismPhasingMode`` and
``Morph_WarpPrismTransportMode`` act on the selected Warp Prisms.
"""

from __future__ import annotations

import math

from stratbench.games.sc2.engine.battle_types import HOLD, Order
from stratbench.games.sc2.engine.unit_data import LOOPS_PER_SECOND, stats_for

POWER_RADIUS = 3.75
"""A phasing Warp Prism's power field (Liquipedia "Warp Prism", LotV 5.0)."""
WARP_SECONDS = 4.0
"""A fast warp-in (at a Warp Prism), seconds (Liquipedia "Warp Gate", LotV 5.0)."""
GATE_COOLDOWN = {"Protoss.Zealot": 20.0, "Protoss.Adept": 20.0, "Protoss.Stalker": 23.0, "Protoss.Sentry": 23.0,
                 "Protoss.HighTemplar": 32.0}
"""Seconds a Warp Gate waits after warping in each unit type (Liquipedia "Warp Gate", LotV 5.0)."""
TRAIN_WARP = {1413: "Protoss.Zealot", 1414: "Protoss.Stalker", 1416: "Protoss.HighTemplar",
              1418: "Protoss.Sentry", 1419: "Protoss.Adept"}
"""pysc2 ability ids of ``TrainWarp_*`` -> the unit warped in (not the Dark Templar: cloaking is not modelled,
so it is not in the table; its warp-in answers NotSupported)."""
PHASE, TRANSPORT = 1528, 1530
"""pysc2 ability ids of the Warp Prism's Phasing and Transport modes."""
WARP_GATE, WARP_PRISM = "Protoss.WarpGate", "Protoss.WarpPrism"
SUCCESS, ERROR, COOLDOWN, NO_MINERALS, NO_VESPENE, NO_POWER = 1, 3, 6, 9, 10, 69
"""s2clientprotocol ``ActionResult`` values (``CantWarpInUnitsThere`` = 69)."""


def powered(battle, owner: int, point) -> bool:
    """Whether ``point`` lies in the power field of one of ``owner``'s phasing Warp Prisms."""
    return any(u.name == WARP_PRISM and u.phasing and math.hypot(u.x - point[0], u.y - point[1]) <= POWER_RADIUS
               for u in battle.alive(owner))


def gate_ready(battle, gate) -> bool:
    return gate.alive and gate.name == WARP_GATE and battle.loop >= gate.ready.get("warp", 0)


def affordable(battle, owner: int, unit_name: str) -> int:
    """``SUCCESS`` when ``owner`` can pay for ``unit_name``, else the ActionResult saying what is short."""
    stats, purse = stats_for(unit_name), battle.resources.get(owner, {})
    if purse.get("minerals", 0) < stats.minerals:
        return NO_MINERALS
    if purse.get("vespene", 0) < stats.vespene:
        return NO_VESPENE
    return SUCCESS


def warp_in(battle, gates, unit_name: str, point) -> int:
    """Warp one ``unit_name`` in at ``point`` through the first ready gate of ``gates``; the ActionResult."""
    ready = [g for g in gates if gate_ready(battle, g)]
    if not ready:
        return COOLDOWN if any(g.name == WARP_GATE for g in gates) else ERROR
    gate = ready[0]
    paid = affordable(battle, gate.owner, unit_name)
    if paid != SUCCESS:
        return paid
    if not powered(battle, gate.owner, point):
        return NO_POWER
    stats, purse = stats_for(unit_name), battle.resources[gate.owner]
    purse["minerals"] -= stats.minerals
    purse["vespene"] -= stats.vespene
    gate.ready["warp"] = battle.loop + round(GATE_COOLDOWN[unit_name] * LOOPS_PER_SECOND)
    x, y = battle._clamp(*point)
    battle.schedule(battle.loop + round(WARP_SECONDS * LOOPS_PER_SECOND), {"name": unit_name, "owner": gate.owner,
                                                                           "x": x, "y": y})
    return SUCCESS


def morph_prisms(battle, prisms, phasing: bool) -> int:
    """Put the selected Warp Prisms in Phasing (or back in Transport) Mode; the ActionResult."""
    prisms = [p for p in prisms if p.alive and p.name == WARP_PRISM]
    for prism in prisms:
        prism.phasing = phasing
        if phasing:
            prism.order, prism.queue = Order(HOLD), []
    return SUCCESS if prisms else ERROR


def ready_warp_abilities(battle, unit) -> tuple[int, ...]:
    """The warp-in and morph ability ids a selected unit offers now (for ``available_actions``)."""
    if unit.name == WARP_PRISM:
        return (TRANSPORT,) if unit.phasing else (PHASE,)
    if unit.name == WARP_GATE and gate_ready(battle, unit):
        return tuple(i for i, name in TRAIN_WARP.items() if affordable(battle, unit.owner, name) == SUCCESS)
    return ()

"""Diplomacy baselines: ``hold`` (SPIN-Bench's neutral power) and ``random-orders``.

Both answer with SPIN-Bench's JSON ``{"orders": {"FRANCE": [...]}}`` built
from ``observation.data["possible_orders"]`` and stay silent in
negotiations (they have no ``negotiate`` method).
"""

from __future__ import annotations

import json
from typing import Any

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation
from stratbench.games.diplomacy import random_orders

__all__ = ["HoldAgent", "RandomOrdersAgent"]

_GAMES = ("diplomacy", "diplomacy-nopress")


def _check_game(name: str, context: AgentContext) -> None:
    if context.game.info.name not in _GAMES:
        raise ValueError(f"agent {name!r} plays only {', '.join(_GAMES)}, not {context.game.info.name!r}")


def _answer(power: str, orders: list[str]) -> Action:
    return Action("orders", json.dumps({"orders": {power: orders}}))


class HoldAgent:
    """Holds every unit, builds nothing, and disbands only when it must.

    Dislodged units disband (a retreat is a move); when the power has more
    units than centers it disbands the required number, in location order.
    """

    def __init__(self, context: AgentContext) -> None:
        _check_game("hold", context)

    async def act(self, observation: Observation) -> Action:
        """Returns hold orders (movement), disbands (retreat), or the required disbands (winter)."""
        data: dict[str, Any] = observation.data
        possible: dict[str, list[str]] = data["possible_orders"]
        kind = data["phase_type"]
        if kind == "M":
            orders = [o for options in possible.values() for o in options if o.endswith(" H")]
        elif kind == "R":
            orders = [o for options in possible.values() for o in options if o.endswith(" D")]
        else:
            disbands = [o for options in possible.values() for o in options if o.endswith(" D")]
            orders = disbands[: max(0, -data["build_count"])]
        return _answer(data["power"], orders)


class RandomOrdersAgent:
    """Orders each unit with a uniformly random possible order (seeded per match and power).

    The same choice is the ``random`` fallback of a Diplomacy order decision.

    In winter it picks random build locations (a build or ``WAIVE`` each) up
    to the allowed number, or random units to disband up to the required number.
    """

    def __init__(self, context: AgentContext) -> None:
        _check_game("random-orders", context)
        self.rng = context.rng

    async def act(self, observation: Observation) -> Action:
        """Returns one random possible order per location (within the adjustment count)."""
        data: dict[str, Any] = observation.data
        orders = random_orders(data["possible_orders"], data["phase_type"], data["build_count"], self.rng)
        return _answer(data["power"], orders)

"""Diplomacy baselines: ``hold`` (SPIN-Bench's neutral power) and ``random-orders``.

Both answer with SPIN-Bench's JSON ``{"orders": {"FRANCE": [...]}}`` built
from ``observation.data["possible_orders"]`` (for every power the seat plays,
``possible_orders_by_power``, in the paper protocol) and stay silent in
negotiations (they have no ``negotiate`` method). ``OfflineOpponent`` plays
the paper protocol's LLM-opponent seats as ``random-orders`` when the run
has no model.
"""

from __future__ import annotations

import json
from typing import Any

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation
from stratbench.games.spin.diplomacy import random_orders

__all__ = ["HoldAgent", "OfflineOpponent", "RandomOrdersAgent"]

_GAMES = ("diplomacy", "diplomacy-nopress")


def _check_game(name: str, context: AgentContext) -> None:
    if context.game.info.name not in _GAMES:
        raise ValueError(f"agent {name!r} plays only {', '.join(_GAMES)}, not {context.game.info.name!r}")


def _per_power(observation: Observation) -> list[tuple[str, dict[str, list[str]], int]]:
    """Returns ``(power, possible orders, build count)`` for every power the seat orders for."""
    data: dict[str, Any] = observation.data
    if "possible_orders_by_power" in data:
        return [(p, data["possible_orders_by_power"][p], data["build_counts"][p]) for p in data["powers"]]
    return [(data["power"], data["possible_orders"], data["build_count"])]


def _answer_all(orders: dict[str, list[str]]) -> Action:
    return Action("orders", json.dumps({"orders": orders}))


class HoldAgent:
    """Holds every unit, builds nothing, and disbands only when it must.

    Dislodged units disband (a retreat is a move); when the power has more
    units than centers it disbands the required number, in location order.
    """

    def __init__(self, context: AgentContext) -> None:
        _check_game("hold", context)

    async def act(self, observation: Observation) -> Action:
        """Returns hold orders (movement), disbands (retreat), or the required disbands (winter)."""
        kind = observation.data["phase_type"]
        chosen = {}
        for power, possible, build_count in _per_power(observation):
            if kind == "M":
                orders = [o for options in possible.values() for o in options if o.endswith(" H")]
            elif kind == "R":
                orders = [o for options in possible.values() for o in options if o.endswith(" D")]
            else:
                disbands = [o for options in possible.values() for o in options if o.endswith(" D")]
                orders = disbands[: max(0, -build_count)]
            chosen[power] = orders
        return _answer_all(chosen)


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
        kind = observation.data["phase_type"]
        return _answer_all({power: random_orders(possible, kind, count, self.rng)
                            for power, possible, count in _per_power(observation)})


class OfflineOpponent(RandomOrdersAgent):
    """A paper-protocol LLM-opponent seat without a model: plays as ``random-orders``."""

    def __init__(self, context: AgentContext) -> None:
        _check_game(context.spec.kind, context)
        self.rng = context.rng

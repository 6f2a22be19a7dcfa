"""Seeded instances of the market trader domain.

Two or three markets, each pair linked by a two-way road; each market has its
own price, buy-back price and stock for each good. The cash
target is set by playing a simple greedy trader for a tier-dependent number of
rounds (buy the best good here, carry it to the neighbouring market that pays
most, sell it) and taking the cash it ends with, so every instance is solvable
by construction (:func:`witness` returns that trader's plan); markets are
redrawn until the trader gains in every round.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate", "witness"]

NAME = "markettrader"
CATEGORY = "resource"
DESCRIPTION = "Buy goods cheaply, carry them by camel and sell them dearly to reach a cash target."
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"

_GOODS = ("spice", "silk", "salt", "tea")
# tier -> (markets, goods, camel capacity, greedy rounds behind the target)
_SIZES = {
    "easy": (2, 2, 2, 1),
    "medium": (3, 2, 3, 1),
    "hard": (3, 2, 3, 2),
}
_START_CASH = 12


def generate(seed: int, tier: str) -> str:
    """Returns a problem in PDDL, deterministic for (seed, tier).

    Args:
        seed: Any integer; equal seeds give equal problems.
        tier: One of ``TIERS``.

    Returns:
        The problem file's text.
    """
    markets, goods, capacity, world, start, (target, _) = _instance(seed, tier)
    price, sell, stock, roads, tolls = world
    init = [f"(camel-at camel1 {start})", f"(= (cash) {_START_CASH})", f"(= (capacity) {capacity})"]
    init += [f"(can-drive {a} {b})" for a, b in roads]
    init += [f"(= (toll {m}) {tolls[m]})" for m in markets]
    for g in goods:
        init.append(f"(= (bought {g}) 0)")
        for m in markets:
            init += [
                f"(= (price {g} {m}) {price[g, m]})",
                f"(= (sell-price {g} {m}) {sell[g, m]})",
                f"(= (on-sale {g} {m}) {stock[g, m]})",
            ]
    goal = [f"(>= (cash) {target})"]
    objects = [("market", markets), ("camel", ["camel1"]), ("goods", goods)]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal)


def witness(seed: int, tier: str) -> str:
    """Returns the greedy trader's plan for ``generate(seed, tier)``, one action a line.

    It reaches the cash target exactly, which proves the instance solvable.
    """
    *_, (_, plan) = _instance(seed, tier)
    return "\n".join(plan)


def _instance(seed: int, tier: str):
    """Returns the markets, goods, capacity, world tables, start and greedy trader of one instance."""
    check_tier(tier, TIERS)
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_markets, n_goods, capacity, rounds = _SIZES[tier]
    markets = [f"market{i + 1}" for i in range(n_markets)]
    goods = list(_GOODS[:n_goods])
    while True:
        world = _draw_world(rng, markets, goods)
        start = rng.choice(markets)
        trader = _greedy_trader(world, start, capacity, rounds)
        if trader is not None:
            return markets, goods, capacity, world, start, trader


def _draw_world(rng: random.Random, markets: list[str], goods: list[str]):
    """Returns random (price, sell price, stock, roads, tolls) tables."""
    price, sell, stock = {}, {}, {}
    for g in goods:
        for m in markets:
            price[g, m] = rng.randint(3, 9)
            sell[g, m] = price[g, m] - rng.randint(1, 2)
            stock[g, m] = rng.randint(0, 4)
    links = list(zip(markets, markets[1:] + markets[:1])) if len(markets) > 2 else [tuple(markets)]
    roads = sorted(links + [(b, a) for a, b in links])
    tolls = {m: rng.randint(1, 3) for m in markets}
    return price, sell, stock, roads, tolls


def _greedy_trader(world, start: str, capacity: int, rounds: int) -> tuple[int, list[str]] | None:
    """Returns the cash a greedy trader ends with and its plan, or None if some round gains nothing."""
    price, sell, stock, roads, tolls = world
    stock = dict(stock)
    cash, here, plan = _START_CASH, start, []
    for _ in range(rounds):
        best = None
        for a, b in roads:
            if a != here:
                continue
            for (g, m), cost_each in sorted(price.items()):
                if m != here:
                    continue
                # keep enough cash for the toll of the market it travels to
                quantity = min(capacity, stock[g, m], max(0, cash - tolls[b]) // cost_each)
                gain = quantity * (sell[g, b] - cost_each) - tolls[b]
                if quantity > 0 and gain > 0 and (best is None or gain > best[0]):
                    best = (gain, g, b, quantity)
        if best is None:
            return None
        gain, g, there, quantity = best
        plan += [f"(buy camel1 {g} {here})"] * quantity
        plan.append(f"(travel camel1 {here} {there})")
        plan += [f"(sell camel1 {g} {there})"] * quantity
        stock[g, here] -= quantity
        stock[g, there] += quantity
        cash += gain
        here = there
    return cash, plan

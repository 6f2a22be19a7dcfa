"""Seeded instances of the sugar domain.

Farms hold standing cane, the mill may already hold some cut cane (all the
cane needed in the easy tier), trucks start anywhere, and the goal asks each
depot for a number of units of white sugar. Every instance is solvable by
construction: the farms' standing cane alone covers the total demand, any
truck can drive anywhere, and :func:`witness` builds a valid (if long) plan
that hauls one unit at a time through the first mill.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate", "witness"]

NAME = "sugar"
CATEGORY = "resource"
DESCRIPTION = "Harvest cane, haul it to mills, crush and refine it, and deliver white sugar to depots."
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"

# tier -> (farms, mills, depots, trucks, units wanted per depot (low, high))
_SIZES = {
    "easy": (1, 1, 1, 1, (2, 2)),  # two units: one is often delivered by random moves
    "medium": (1, 1, 1, 1, (2, 2)),
    "hard": (2, 1, 2, 2, (1, 2)),
}


def generate(seed: int, tier: str) -> str:
    """Returns a problem in PDDL, deterministic for (seed, tier).

    Args:
        seed: Any integer; equal seeds give equal problems.
        tier: One of ``TIERS``.

    Returns:
        The problem file's text.
    """
    world = _world(seed, tier)
    farms, mills, depots, trucks = world["farms"], world["mills"], world["depots"], world["trucks"]
    places = farms + mills + depots
    init = [f"(truck-at {t} {world['start'][t]})" for t in trucks]
    init += [f"(= (standing-cane {f}) {world['standing'][f]})" for f in farms]
    init += [f"(= (cut-cane {p}) {world['cut'].get(p, 0)})" for p in places]
    init += [f"(= (raw-sugar {m}) 0)" for m in mills]
    init += [f"(= (white-sugar {p}) 0)" for p in places]
    for t in trucks:
        init += [
            f"(= (carried-cane {t}) 0)",
            f"(= (carried-sugar {t}) 0)",
            f"(= (truck-capacity {t}) {world['capacity'][t]})",
        ]
    init += [f"(= (stored {d}) 0)" for d in depots]
    init.append("(= (labour) 0)")
    goal = [f"(>= (stored {d}) {world['demand'][d]})" for d in depots]
    objects = [("farm", farms), ("mill", mills), ("depot", depots), ("truck", trucks)]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal)


def witness(seed: int, tier: str) -> str:
    """Returns a valid plan for ``generate(seed, tier)``, one action a line.

    The plan uses the first truck and the first mill only, carrying one unit
    at a time; it proves the instance solvable and is far from short.
    """
    world = _world(seed, tier)
    truck, mill = world["trucks"][0], world["mills"][0]
    here = world["start"][truck]
    plan: list[str] = []

    def drive(to: str) -> None:
        nonlocal here
        if here != to:
            plan.append(f"(drive {truck} {here} {to})")
            here = to

    standing = dict(world["standing"])
    total = sum(world["demand"].values())
    for _ in range(total):
        farm = next(f for f in world["farms"] if standing[f] > 0)
        standing[farm] -= 1
        plan.append(f"(harvest {farm})")
        drive(farm)
        plan.append(f"(load-cane {truck} {farm})")
        drive(mill)
        plan += [f"(unload-cane {truck} {mill})", f"(crush {mill})", f"(refine {mill})"]
    for depot, units in world["demand"].items():
        for _ in range(units):
            drive(mill)
            plan.append(f"(load-sugar {truck} {mill})")
            drive(depot)
            plan.append(f"(unload-sugar {truck} {depot})")
    return "\n".join(plan)


def _world(seed: int, tier: str) -> dict:
    """Returns the random choices behind one instance."""
    check_tier(tier, TIERS)
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_farms, n_mills, n_depots, n_trucks, (low, high) = _SIZES[tier]
    farms = [f"farm{i + 1}" for i in range(n_farms)]
    mills = [f"mill{i + 1}" for i in range(n_mills)]
    depots = [f"depot{i + 1}" for i in range(n_depots)]
    trucks = [f"truck{i + 1}" for i in range(n_trucks)]
    demand = {d: rng.randint(low, high) for d in depots}
    total = sum(demand.values())
    standing = {f: 0 for f in farms}
    for _ in range(total + rng.randint(0, 1)):
        standing[rng.choice(farms)] += 1
    cut = {}
    if tier == "easy":
        cut[mills[0]] = total  # the cane is already at the mill
        start = {t: mills[0] for t in trucks}
    else:
        if tier == "hard" and rng.random() < 0.5:
            cut[rng.choice(mills)] = 1
        start = {t: rng.choice(farms + mills + depots) for t in trucks}
    capacity = {t: rng.randint(2, 3) for t in trucks}
    return {
        "farms": farms, "mills": mills, "depots": depots, "trucks": trucks, "demand": demand,
        "standing": standing, "cut": cut, "start": start, "capacity": capacity,
    }

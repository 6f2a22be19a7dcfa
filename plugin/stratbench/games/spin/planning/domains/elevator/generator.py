"""Seeded instances of the elevator domain.

Floors are numbered from the ground up. The easy tier has one lift serving
every floor. Larger tiers split the building between a lower and an upper
slow lift that meet at one floor, and the hard tier adds a fast express lift
that stops at even floors only. Passengers start on random floors and want
other floors. Every instance is solvable: each floor is served, the lifts'
floor sets overlap along the building, and every lift holds at least one
passenger.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "elevator"
CATEGORY = "sequential"
DESCRIPTION = "Lifts that serve only some floors and hold few people carry passengers to their floors."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"

# tier -> (floors, passengers, split into two slow lifts?, express lift?)
_SIZES = {
    "easy": (4, 2, False, False),
    "medium": (6, 3, True, False),
    "hard": (9, 4, True, True),
}


def generate(seed: int, tier: str) -> str:
    """Returns a problem in PDDL, deterministic for (seed, tier).

    Args:
        seed: Any integer; equal seeds give equal problems.
        tier: One of ``TIERS``.

    Returns:
        The problem file's text.
    """
    check_tier(tier, TIERS)
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_floors, n_passengers, split, express = _SIZES[tier]
    floors = [f"floor{i}" for i in range(n_floors)]
    lifts: dict[str, tuple[list[int], int]] = {}  # name -> (served floors, capacity)
    if split:
        middle = rng.randint(2, n_floors - 3)
        lifts["slow1"] = (list(range(middle + 1)), rng.randint(1, 2))
        lifts["slow2"] = (list(range(middle, n_floors)), rng.randint(1, 2))
    else:
        lifts["slow1"] = (list(range(n_floors)), 2)
    if express:
        lifts["fast1"] = (list(range(0, n_floors, 2)), 3)
    max_capacity = max(capacity for _, capacity in lifts.values())
    counts = [f"n{i}" for i in range(max_capacity + 1)]
    passengers = [f"p{i + 1}" for i in range(n_passengers)]

    init = [f"(above {floors[hi]} {floors[lo]})" for hi in range(n_floors) for lo in range(hi)]
    init += [f"(next-count {a} {b})" for a, b in zip(counts, counts[1:])]
    for lift, (served, capacity) in lifts.items():
        init.append(f"(lift-at {lift} {floors[rng.choice(served)]})")
        init += [f"(serves {lift} {floors[f]})" for f in served]
        init.append(f"(load {lift} n0)")
        init += [f"(room-for {lift} {counts[n]})" for n in range(1, capacity + 1)]
    init.append("(= (total-cost) 0)")
    goal = []
    for passenger in passengers:
        origin, destination = rng.sample(range(n_floors), 2)
        init.append(f"(passenger-at {passenger} {floors[origin]})")
        goal.append(f"(passenger-at {passenger} {floors[destination]})")
    objects = [
        ("slow-lift", [lift for lift in lifts if lift.startswith("slow")]),
        ("fast-lift", [lift for lift in lifts if lift.startswith("fast")]),
        ("passenger", passengers),
        ("floor", floors),
        ("count", counts),
    ]
    return problem_text(
        f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal, metric="minimize (total-cost)"
    )

"""Generates seeded depots problems: restack crates across depots and distributors."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "depots"
CATEGORY = "resource"
DESCRIPTION = (
    "Move crates between stacks at depots and distributors using a hoist at each "
    "place and trucks that drive between places."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"
"""The default planner that solves every tier within seconds."""

# tier -> (depots, distributors, trucks, crates, goal crates)
_SIZES = {
    "easy": (1, 1, 1, 2, 1),
    "medium": (1, 1, 1, 3, 2),
    "hard": (2, 1, 1, 4, 4),
}


def generate(seed: int, tier: str) -> str:
    """Returns a depots problem in PDDL, deterministic for (seed, tier).

    Each place has one pallet and one hoist, and trucks have no capacity
    limit, so any arrangement of crates into stacks on pallets is reachable:
    the goal is a random such arrangement, different from the start.

    Args:
        seed: The instance seed.
        tier: One of :data:`TIERS`.

    Returns:
        The problem text.

    Raises:
        ValueError: If ``tier`` is unknown.
    """
    if tier not in _SIZES:
        raise ValueError(f"unknown tier {tier!r}; expected one of {TIERS}")
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_depots, n_distributors, n_trucks, n_crates, n_goals = _SIZES[tier]
    depots = [f"depot{i}" for i in range(n_depots)]
    distributors = [f"distributor{i}" for i in range(n_distributors)]
    places = depots + distributors
    pallets = [f"pallet{i}" for i in range(len(places))]
    hoists = [f"hoist{i}" for i in range(len(places))]
    trucks = [f"truck{i}" for i in range(n_trucks)]
    crates = [f"crate{i}" for i in range(n_crates)]

    start = _random_stacks(rng, crates, pallets)
    while True:
        target = _random_stacks(rng, crates, pallets)
        goal_crates = rng.sample(crates, n_goals)
        if any(target[c] != start[c] for c in goal_crates):
            break

    init = []
    for place, pallet, hoist in zip(places, pallets, hoists):
        init += [f"(at {pallet} {place})", f"(at {hoist} {place})", f"(available {hoist})"]
    for truck in trucks:
        init.append(f"(at {truck} {rng.choice(places)})")
    supports = set(start.values())
    for crate in crates:
        init += [f"(on {crate} {start[crate]})", f"(at {crate} {places[pallets.index(_base(start, crate))]})"]
    init += [f"(clear {s})" for s in pallets + crates if s not in supports]
    goal = [f"(on {c} {target[c]})" for c in crates if c in goal_crates]

    objects = [
        f"{' '.join(depots)} - depot", f"{' '.join(distributors)} - distributor",
        f"{' '.join(trucks)} - truck", f"{' '.join(pallets)} - pallet",
        f"{' '.join(hoists)} - hoist", f"{' '.join(crates)} - crate",
    ]
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal)


def _random_stacks(rng: random.Random, crates: list[str], pallets: list[str]) -> dict[str, str]:
    """Stacks the crates in random order onto random pallets; maps each crate to what it is on."""
    tops = {p: p for p in pallets}
    below = {}
    for crate in rng.sample(crates, len(crates)):
        pallet = rng.choice(pallets)
        below[crate] = tops[pallet]
        tops[pallet] = crate
    return below


def _base(below: dict[str, str], crate: str) -> str:
    """Follows a stack down to its pallet."""
    surface = below[crate]
    while surface in below:
        surface = below[surface]
    return surface


def _render(name: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    """Formats a typed problem."""
    lines = [f"(define (problem {name})", f"  (:domain {NAME})", "  (:objects"]
    lines += [f"    {group}" for group in objects]
    lines += ["  )", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"

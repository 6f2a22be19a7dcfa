"""Generates seeded drone problems: visit locations on a 3-D grid and return to base."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "drone"
CATEGORY = "spatial"
DESCRIPTION = (
    "Fly a drone with a limited battery over a 3-D grid to visit every target "
    "location and return to base, recharging there when needed."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "tamer"
"""The default planner that solves every tier within seconds."""

# tier -> (max x, max y, max z, locations, spare battery beyond a round trip to the
#          farthest location, least sum of the locations' distances from base)
_SIZES = {
    "easy": (2, 2, 0, 1, 2, 2),
    "medium": (3, 3, 1, 2, 2, 6),
    "hard": (4, 3, 1, 4, 2, 14),
}


def generate(seed: int, tier: str) -> str:
    """Returns a drone problem in PDDL, deterministic for (seed, tier).

    The drone starts at base with a full battery whose capacity covers a round
    trip from base to the farthest location plus a small margin; flying to
    each location and straight back (recharging in between) is a plan, so
    every instance is solvable. Larger tiers need several recharges.

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
    max_x, max_y, max_z, n_locs, spare, spread = _SIZES[tier]
    cells = [(x, y, z) for x in range(max_x + 1) for y in range(max_y + 1) for z in range(max_z + 1)]
    while True:
        spots = rng.sample([c for c in cells if c != (0, 0, 0)], n_locs)
        if sum(sum(c) for c in spots) >= spread:
            break
    capacity = 2 * max(sum(c) for c in spots) + spare
    names = [f"loc{i}" for i in range(1, n_locs + 1)]

    init = ["(= (x) 0)", "(= (y) 0)", "(= (z) 0)"]
    init += ["(= (min-x) 0)", f"(= (max-x) {max_x})", "(= (min-y) 0)", f"(= (max-y) {max_y})"]
    init += ["(= (min-z) 0)", f"(= (max-z) {max_z})"]
    init += [f"(= (battery-level) {capacity})", f"(= (battery-capacity) {capacity})"]
    for name, (x, y, z) in zip(names, spots):
        init += [f"(= (loc-x {name}) {x})", f"(= (loc-y {name}) {y})", f"(= (loc-z {name}) {z})"]
    goal = [f"(visited {name})" for name in names]
    goal += ["(= (x) 0)", "(= (y) 0)", "(= (z) 0)"]
    return _render(f"{NAME}-{tier}-s{seed}", [f"{' '.join(names)} - location"], init, goal)


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

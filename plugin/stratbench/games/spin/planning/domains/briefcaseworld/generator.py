"""Generates seeded briefcaseworld problems: deliver objects with one briefcase."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "briefcaseworld"
CATEGORY = "sequential"
DESCRIPTION = (
    "Move a briefcase between locations to deliver objects; objects inside travel "
    "with it, so they must be taken out at their destinations."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"
"""The default planner that solves every tier within seconds (conditional effects rule out pyperplan and tamer)."""

# tier -> (locations, objects, objects starting in the briefcase, least plan-length bound)
_SIZES = {
    "easy": (3, 1, 0, 3),
    "medium": (4, 3, 1, 7),
    "hard": (6, 6, 1, 14),
}


def generate(seed: int, tier: str) -> str:
    """Returns a briefcaseworld problem in PDDL, deterministic for (seed, tier).

    The briefcase can move between any two locations, so every instance is
    solvable: fetch each object, carry it to its destination, take it out.
    Every object's destination differs from where it starts, and instances
    are redrawn until a simple lower bound on the plan length reaches the
    tier's minimum.

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
    n_locs, n_objects, n_inside, least = _SIZES[tier]
    locations = [f"loc{i}" for i in range(1, n_locs + 1)]
    objects = [f"obj{i}" for i in range(1, n_objects + 1)]
    while True:
        here = rng.choice(locations)
        inside = set(rng.sample(objects, n_inside))
        start = {o: here if o in inside else rng.choice(locations) for o in objects}
        target = {o: rng.choice([loc for loc in locations if loc != start[o]]) for o in objects}
        final = rng.choice(locations)
        if _lower_bound(here, inside, start, target, final) >= least:
            break
    init = [f"(briefcase-at {here})"]
    for obj in objects:
        init.append(f"(at {obj} {start[obj]})")
        if obj in inside:
            init.append(f"(in {obj})")
    goal = [f"(at {obj} {target[obj]})" for obj in objects]
    goal.append(f"(briefcase-at {final})")
    groups = [f"{' '.join(locations)} - location", f"{' '.join(objects)} - portable"]
    return _render(f"{NAME}-{tier}-s{seed}", groups, init, goal)


def _lower_bound(here: str, inside: set, start: dict, target: dict, final: str) -> int:
    """Bounds the plan length from below: put-ins, take-outs, and one move per other place to visit."""
    put_ins = len(start) - len(inside)
    take_outs = sum(1 for o in target if target[o] != final)
    places = {target[o] for o in target} | {start[o] for o in start if o not in inside} | {final}
    return put_ins + take_outs + len(places - {here})


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

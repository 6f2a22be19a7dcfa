"""Generates seeded logistics problems: packages to deliver across cities."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "logistics"
CATEGORY = "spatial"
DESCRIPTION = "Deliver packages between locations with city-bound trucks and airplanes flying between airports."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"
"""The default planner that solves every tier within seconds."""

# tier -> (cities, locations per city, packages, airplanes, packages that must change city)
_SIZES = {
    "easy": (2, 2, 1, 1, 0),
    "medium": (2, 2, 2, 1, 1),
    "hard": (3, 2, 4, 1, 2),
}


def generate(seed: int, tier: str) -> str:
    """Returns a logistics problem in PDDL, deterministic for (seed, tier).

    Every city has one airport and one truck, and at least one airplane
    exists, so any package can reach any location: every instance is solvable.
    Larger tiers send some packages to another city, so they need a flight.

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
    n_cities, n_locs, n_packages, n_planes, n_flown = _SIZES[tier]
    cities = [f"city{c}" for c in range(1, n_cities + 1)]
    locations = {c: [f"{c}-loc{i}" for i in range(1, n_locs + 1)] for c in cities}
    airports = {c: locations[c][0] for c in cities}
    trucks = [f"truck{i}" for i in range(1, n_cities + 1)]
    planes = [f"plane{i}" for i in range(1, n_planes + 1)]
    packages = [f"pkg{i}" for i in range(1, n_packages + 1)]
    all_locations = [loc for c in cities for loc in locations[c]]

    init = [f"(city {c})" for c in cities]
    for c in cities:
        init += [f"(location {loc})" for loc in locations[c]]
        init += [f"(in-city {loc} {c})" for loc in locations[c]]
        init.append(f"(airport {airports[c]})")
    for truck, c in zip(trucks, cities):
        init += [f"(truck {truck})", f"(at {truck} {rng.choice(locations[c])})"]
    for plane in planes:
        init += [f"(airplane {plane})", f"(at {plane} {rng.choice(list(airports.values()))})"]
    city_of = {loc: c for c in cities for loc in locations[c]}
    goal = []
    for i, pkg in enumerate(packages):
        start = rng.choice(all_locations)
        away = [loc for loc in all_locations if city_of[loc] != city_of[start]]
        target = rng.choice(away if i < n_flown else [loc for loc in all_locations if loc != start])
        init += [f"(package {pkg})", f"(at {pkg} {start})"]
        goal.append(f"(at {pkg} {target})")

    objects = " ".join(cities + all_locations + trucks + planes + packages)
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal)


def _render(name: str, objects: str, init: list[str], goal: list[str]) -> str:
    """Formats an untyped problem."""
    lines = [f"(define (problem {name})", f"  (:domain {NAME})", f"  (:objects {objects})", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"

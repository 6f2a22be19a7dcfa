"""Generates seeded termes problems: build small towers next to a block depot."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "termes"
CATEGORY = "spatial"
DESCRIPTION = (
    "A robot builds towers of blocks on a grid, fetching blocks from a depot and "
    "climbing temporary staircases it must remove again."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "tamer"
"""The default planner that solves every tier within seconds (negative preconditions rule out pyperplan)."""

_STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))
# tier -> (width, height, tower heights)
_SIZES = {
    "easy": (3, 3, (1,)),
    "medium": (3, 3, (2,)),
    "hard": (4, 3, (2, 1)),
}


def generate(seed: int, tier: str) -> str:
    """Returns a termes problem in PDDL, deterministic for (seed, tier).

    The goal fixes the height of every non-depot position (towers at their
    target heights, every other position back at 0) and an empty-handed robot.
    Towers are at most 2 high and touch neither the depot nor each other (so
    no tower serves as a step for another). Layouts are drawn until the
    positions without towers are connected and hold the depot, every tower
    touches one of them, and every 2-high tower has a free neighbour (not the
    depot) that itself touches another free position, where a one-block step
    can stand. Building the 2-high towers first, each with a temporary step,
    then the 1-high ones, solves the instance, so every instance is solvable.

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
    width, height, heights = _SIZES[tier]
    cells = [(x, y) for y in range(height) for x in range(width)]
    border = [c for c in cells if c[0] in (0, width - 1) or c[1] in (0, height - 1)]
    while True:
        depot = rng.choice(border)
        spots = rng.sample([c for c in cells if c != depot], len(heights))
        towers = dict(zip(spots, heights))
        if _buildable(towers, depot, width, height):
            break

    def pos(cell: tuple[int, int]) -> str:
        return f"pos-{cell[0]}-{cell[1]}"

    top = max(heights)
    numbers = [f"n{i}" for i in range(top + 1)]
    init = [f"(at {pos(depot)})", f"(is-depot {pos(depot)})"]
    init += [f"(height {pos(c)} n0)" for c in cells]
    init += [f"(succ n{i} n{i + 1})" for i in range(top)]
    for cell in cells:
        init += [f"(neighbor {pos(cell)} {pos(n)})" for n in _neighbours(cell, width, height)]
    goal = [f"(height {pos(c)} n{towers.get(c, 0)})" for c in cells if c != depot]
    goal.append("(not (has-block))")
    objects = [f"{' '.join(numbers)} - numb", f"{' '.join(pos(c) for c in cells)} - position"]
    picture = [
        " ".join("D" if (x, y) == depot else str(towers.get((x, y), ".")) for x in range(width))
        for y in range(height)
    ]
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal, picture)


def _neighbours(cell: tuple[int, int], width: int, height: int) -> list[tuple[int, int]]:
    """Lists the orthogonal neighbours of a cell inside the grid."""
    x, y = cell
    return [(x + dx, y + dy) for dx, dy in _STEPS if 0 <= x + dx < width and 0 <= y + dy < height]


def _buildable(towers: dict, depot: tuple[int, int], width: int, height: int) -> bool:
    """Checks the sufficient conditions for solvability stated in :func:`generate`."""
    for tower in towers:
        if any(n == depot or n in towers for n in _neighbours(tower, width, height)):
            return False
    free = {(x, y) for x in range(width) for y in range(height)} - set(towers)
    seen, stack = {depot}, [depot]
    while stack:
        for n in _neighbours(stack.pop(), width, height):
            if n in free and n not in seen:
                seen.add(n)
                stack.append(n)
    if seen != free:
        return False
    for tower, h in towers.items():
        around = [n for n in _neighbours(tower, width, height) if n in free]
        if not around:
            return False
        if h == 2 and not any(
            s != depot and any(a in free and a != tower for a in _neighbours(s, width, height))
            for s in around
        ):
            return False
    return True


def _render(name: str, objects: list[str], init: list[str], goal: list[str], picture: list[str]) -> str:
    """Formats a typed problem, with the target drawn in a comment (D depot, digits heights)."""
    lines = [f";; target: {row}" for row in picture]
    lines += [f"(define (problem {name})", f"  (:domain {NAME})", "  (:objects"]
    lines += [f"    {group}" for group in objects]
    lines += ["  )", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"

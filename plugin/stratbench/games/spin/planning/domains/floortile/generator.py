"""Generates seeded floortile problems: paint the upper rows of a grid in a chequered pattern."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "floortile"
CATEGORY = "spatial"
DESCRIPTION = (
    "Robots move over a grid of tiles and paint the upper rows in a chequered "
    "pattern; painted tiles can no longer be stepped on."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"
"""The default planner that solves every tier within seconds (it ignores the action costs, which do not affect validity)."""

_COLORS = ("white", "black")
# tier -> (rows to paint, columns, robots)
_SIZES = {
    "easy": (1, 3, 1),
    "medium": (2, 3, 1),
    "hard": (2, 4, 2),
}


def generate(seed: int, tier: str) -> str:
    """Returns a floortile problem in PDDL, deterministic for (seed, tier).

    Row 0 is never painted and the robots start there in distinct columns.
    Every robot can take the columns from its own up to the next robot's
    (the first robot also those to its left): for each, climb to the row
    below the top, paint upwards while stepping down, and return to row 0.
    So every instance is solvable.

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
    n_rows, n_cols, n_robots = _SIZES[tier]
    first = rng.randrange(2)

    def tile(row: int, col: int) -> str:
        return f"tile-{row}-{col}"

    robots = [f"robot{i}" for i in range(1, n_robots + 1)]
    columns = sorted(rng.sample(range(n_cols), n_robots))
    init = []
    for robot, col in zip(robots, columns):
        init += [f"(robot-at {robot} {tile(0, col)})", f"(robot-has {robot} {rng.choice(_COLORS)})"]
    for row in range(n_rows + 1):
        for col in range(n_cols):
            if not (row == 0 and col in columns):
                init.append(f"(clear {tile(row, col)})")
            if row > 0:
                init.append(f"(above {tile(row, col)} {tile(row - 1, col)})")
            if col > 0:
                init.append(f"(right-of {tile(row, col)} {tile(row, col - 1)})")
    init += [f"(available-color {c})" for c in _COLORS]
    init.append("(= (total-cost) 0)")
    goal = [
        f"(painted {tile(row, col)} {_COLORS[(row + col + first) % 2]})"
        for row in range(1, n_rows + 1) for col in range(n_cols)
    ]
    tiles = [tile(row, col) for row in range(n_rows + 1) for col in range(n_cols)]
    objects = [f"{' '.join(robots)} - robot", f"{' '.join(tiles)} - tile", f"{' '.join(_COLORS)} - color"]
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal)


def _render(name: str, objects: list[str], init: list[str], goal: list[str]) -> str:
    """Formats a typed problem that minimises the total action cost."""
    lines = [f"(define (problem {name})", f"  (:domain {NAME})", "  (:objects"]
    lines += [f"    {group}" for group in objects]
    lines += ["  )", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", "  (:metric minimize (total-cost))", ")"]
    return "\n".join(lines) + "\n"

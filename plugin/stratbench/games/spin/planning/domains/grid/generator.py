"""Generates seeded grid problems: fetch keys, open locked places, deliver keys."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "grid"
CATEGORY = "spatial"
DESCRIPTION = (
    "Navigate a robot on a grid where some places are locked and must be opened "
    "with keys of matching shapes, then bring keys to target places."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"
"""The default planner that solves every tier within seconds."""

_SHAPES = ("circle", "square", "triangle", "diamond")
# tier -> (width, height, locked places, keys, goal keys)
_SIZES = {
    "easy": (3, 3, 1, 1, 1),
    "medium": (4, 4, 2, 2, 1),
    "hard": (4, 4, 3, 3, 2),
}


def generate(seed: int, tier: str) -> str:
    """Returns a grid problem in PDDL, deterministic for (seed, tier).

    Draws layouts until the robot can, by repeatedly fetching reachable keys
    and unlocking places next to its reachable area, reach every goal key and
    goal place, and at least one lock stands in the way. That fixpoint is a
    plan sketch, so every instance is solvable.

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
    width, height, n_locks, n_keys, n_goals = _SIZES[tier]
    cells = [(x, y) for y in range(height) for x in range(width)]
    while True:
        robot, *locks = rng.sample(cells, 1 + n_locks)
        lock_shape = {cell: rng.choice(_SHAPES[: max(1, n_locks - 1)]) for cell in locks}
        needed = sorted(set(lock_shape.values()))
        key_shapes = needed + [rng.choice(_SHAPES) for _ in range(n_keys - len(needed))]
        key_pos = [rng.choice(cells) for _ in key_shapes]
        before = _reachable(robot, width, height, lock_shape, [], [])
        after = _reachable(robot, width, height, lock_shape, key_shapes, key_pos)
        movable = [k for k, pos in enumerate(key_pos) if pos in after]
        if len(movable) < n_goals:
            continue
        goal_keys = rng.sample(movable, n_goals)
        targets = {k: rng.choice([c for c in sorted(after) if c != key_pos[k]]) for k in goal_keys}
        if any(key_pos[k] not in before or targets[k] not in before for k in goal_keys):
            break

    def place(cell: tuple[int, int]) -> str:
        return f"node{cell[0]}-{cell[1]}"

    keys = [f"key{i}" for i in range(1, n_keys + 1)]
    shapes = sorted(set(lock_shape.values()) | set(key_shapes))
    init = [f"(place {place(c)})" for c in cells]
    init += [f"(shape {s})" for s in shapes]
    for x, y in cells:
        for nx, ny in _neighbours(x, y, width, height):
            init.append(f"(conn {place((x, y))} {place((nx, ny))})")
    for cell in cells:
        if cell in lock_shape:
            init += [f"(locked {place(cell)})", f"(lock-shape {place(cell)} {lock_shape[cell]})"]
        else:
            init.append(f"(open {place(cell)})")
    for key, shape, pos in zip(keys, key_shapes, key_pos):
        init += [f"(key {key})", f"(key-shape {key} {shape})", f"(at {key} {place(pos)})"]
    init += [f"(at-robot {place(robot)})", "(arm-empty)"]
    goal = [f"(at {keys[k]} {place(targets[k])})" for k in sorted(goal_keys)]
    objects = " ".join([place(c) for c in cells] + shapes + keys)
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal)


def _neighbours(x: int, y: int, width: int, height: int) -> list[tuple[int, int]]:
    """Lists the orthogonal neighbours of a cell inside the grid."""
    steps = ((1, 0), (-1, 0), (0, 1), (0, -1))
    return [(x + dx, y + dy) for dx, dy in steps if 0 <= x + dx < width and 0 <= y + dy < height]


def _reachable(start, width, height, lock_shape, key_shapes, key_pos) -> set[tuple[int, int]]:
    """Computes the places the robot can eventually reach, unlocking what its keys open."""
    opened: set[tuple[int, int]] = set()
    while True:
        seen, stack = {start}, [start]
        while stack:
            for nxt in _neighbours(*stack.pop(), width, height):
                if nxt not in seen and (nxt not in lock_shape or nxt in opened):
                    seen.add(nxt)
                    stack.append(nxt)
        shapes = {s for s, pos in zip(key_shapes, key_pos) if pos in seen}
        new = {
            cell for cell, s in lock_shape.items()
            if cell not in opened and s in shapes
            and any(n in seen for n in _neighbours(*cell, width, height))
        }
        if not new:
            return seen
        opened |= new


def _render(name: str, objects: str, init: list[str], goal: list[str]) -> str:
    """Formats an untyped problem."""
    lines = [f"(define (problem {name})", f"  (:domain {NAME})", f"  (:objects {objects})", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"

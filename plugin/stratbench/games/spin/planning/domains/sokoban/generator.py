"""Generates seeded sokoban problems by pulling stones backwards from their goals."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "sokoban"
CATEGORY = "spatial"
DESCRIPTION = "Push stones through a walled room onto goal cells; stones can be pushed but never pulled."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"
"""The default planner that solves every tier within seconds."""

_DIRECTIONS = {"dir-up": (0, -1), "dir-down": (0, 1), "dir-left": (-1, 0), "dir-right": (1, 0)}
# tier -> (room width, room height, inner walls, stones, pulls, shortest plan length range)
_SIZES = {
    "easy": (4, 3, 0, 1, 4, (3, 8)),
    "medium": (5, 4, 1, 2, 8, (8, 20)),
    "hard": (6, 5, 3, 2, 16, (16, 40)),
}


def generate(seed: int, tier: str) -> str:
    """Returns a sokoban problem in PDDL, deterministic for (seed, tier).

    Starts from stones standing on their goals and makes random *pulls*
    (the reverse of pushes) with walks in between. Replaying the pulls
    backwards as pushes solves the instance, so every instance is solvable.
    Rooms are redrawn until a breadth-first search finds the shortest plan
    within the tier's length range.

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
    width, height, n_walls, n_stones, n_pulls, (shortest, longest) = _SIZES[tier]
    while True:
        cells = [(x, y) for y in range(height) for x in range(width)]
        walls = set(rng.sample(cells, n_walls))
        floor = [c for c in cells if c not in walls]
        if len(_region(floor[0], set(floor), set())) != len(floor):
            continue
        goals = rng.sample(floor, n_stones)
        stones = list(goals)
        player = rng.choice([c for c in floor if c not in stones])
        floor_set = set(floor)
        for _ in range(n_pulls):
            reach = _region(player, floor_set, set(stones))
            pulls = []
            for q in sorted(reach):
                for dx, dy in _DIRECTIONS.values():
                    stone = (q[0] + dx, q[1] + dy)
                    back = (q[0] - dx, q[1] - dy)
                    if stone in stones and back in floor_set and back not in stones:
                        pulls.append((q, stone, back))
            if not pulls:
                break
            q, stone, back = rng.choice(pulls)
            stones[stones.index(stone)] = q
            player = back
        player = rng.choice(sorted(_region(player, floor_set, set(stones))))
        if shortest <= _plan_length(floor_set, goals, stones, player) <= longest:
            break

    def loc(cell: tuple[int, int]) -> str:
        return f"pos-{cell[0]}-{cell[1]}"

    names = [f"stone{i}" for i in range(1, n_stones + 1)]
    init = [f"(at player1 {loc(player)})"]
    for name, cell in zip(names, stones):
        init.append(f"(at {name} {loc(cell)})")
        if cell in goals:
            init.append(f"(at-goal {name})")
    for cell in floor:
        init.append(f"(is-goal {loc(cell)})" if cell in goals else f"(is-nongoal {loc(cell)})")
        if cell != player and cell not in stones:
            init.append(f"(clear {loc(cell)})")
        for d, (dx, dy) in _DIRECTIONS.items():
            nxt = (cell[0] + dx, cell[1] + dy)
            if nxt in floor_set:
                init.append(f"(move-dir {loc(cell)} {loc(nxt)} {d})")
    goal = [f"(at-goal {name})" for name in names]
    objects = [
        "player1 - player", f"{' '.join(names)} - stone",
        f"{' '.join(loc(c) for c in floor)} - location", f"{' '.join(_DIRECTIONS)} - direction",
    ]
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal, _picture(width, height, walls, goals, stones, player))


def _region(start: tuple[int, int], floor: set, blocked: set) -> set[tuple[int, int]]:
    """Computes the floor cells reachable from ``start`` without crossing ``blocked`` cells."""
    seen, stack = {start}, [start]
    while stack:
        x, y = stack.pop()
        for dx, dy in _DIRECTIONS.values():
            nxt = (x + dx, y + dy)
            if nxt in floor and nxt not in blocked and nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return seen


def _plan_length(floor: set, goals: list, stones: list, player: tuple[int, int]) -> int:
    """Counts the steps (walks and pushes) of a shortest solution, by breadth-first search."""
    goal_set = frozenset(goals)
    start = (player, frozenset(stones))
    frontier, seen, depth = [start], {start}, 0
    while frontier:
        nxt_frontier = []
        for pos, boxes in frontier:
            if boxes == goal_set:
                return depth
            for dx, dy in _DIRECTIONS.values():
                step = (pos[0] + dx, pos[1] + dy)
                if step not in floor:
                    continue
                if step in boxes:
                    beyond = (step[0] + dx, step[1] + dy)
                    if beyond not in floor or beyond in boxes:
                        continue
                    state = (step, boxes - {step} | {beyond})
                else:
                    state = (step, boxes)
                if state not in seen:
                    seen.add(state)
                    nxt_frontier.append(state)
        frontier, depth = nxt_frontier, depth + 1
    raise AssertionError("a pulled-back position is always solvable")


def _picture(width, height, walls, goals, stones, player) -> list[str]:
    """Draws the room as comment lines (# wall, . goal, $ stone, * stone on goal, @ player)."""
    rows = ["#" * (width + 2)]
    for y in range(height):
        row = "#"
        for x in range(width):
            cell = (x, y)
            if cell in walls:
                row += "#"
            elif cell in stones:
                row += "*" if cell in goals else "$"
            elif cell == player:
                row += "+" if cell in goals else "@"
            else:
                row += "." if cell in goals else " "
        rows.append(row + "#")
    rows.append("#" * (width + 2))
    return rows


def _render(name: str, objects: list[str], init: list[str], goal: list[str], picture: list[str]) -> str:
    """Formats a typed problem, with the room drawn in a comment."""
    lines = [f";; {row}" for row in picture]
    lines += [f"(define (problem {name})", f"  (:domain {NAME})", "  (:objects"]
    lines += [f"    {group}" for group in objects]
    lines += ["  )", "  (:init"]
    lines += [f"    {fact}" for fact in init]
    lines += ["  )", "  (:goal (and"]
    lines += [f"    {fact}" for fact in goal]
    lines += ["  ))", ")"]
    return "\n".join(lines) + "\n"

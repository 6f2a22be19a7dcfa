"""Seeded instances of the cooperative sequential gripper domain.

Rooms form a corridor, with a shortcut from the last room back to the first
in the hard tier. Robots start in random rooms; balls start in random rooms
and must be delivered to other rooms in a random order. Each robot has one
gripper, and heavy balls need two robots, so every tier has at least two.
Every instance is solvable: the rooms are connected, robots roam freely, and
any ball can be brought to its target and delivered in turn.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "cooperate_sequential_gripper"
CATEGORY = "sequential"
DESCRIPTION = "Robots share the lifting of heavy balls and must deliver all balls in a fixed order."
TIERS = ("easy", "medium", "hard")
PLANNER = "tamer"

# tier -> (rooms, robots, heavy balls, light balls)
_SIZES = {
    "easy": (2, 2, 1, 0),
    "medium": (3, 2, 1, 2),
    "hard": (4, 3, 2, 2),
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
    n_rooms, n_robots, n_heavy, n_light = _SIZES[tier]
    rooms = [f"room{i}" for i in range(n_rooms)]
    robots = [f"robot{i + 1}" for i in range(n_robots)]
    balls = [f"ball{i + 1}" for i in range(n_heavy + n_light)]
    heavy = set(rng.sample(balls, n_heavy))
    turns = [f"turn{i}" for i in range(len(balls) + 1)]
    order = rng.sample(balls, len(balls))

    links = list(zip(rooms, rooms[1:]))
    if n_rooms > 3:
        links.append((rooms[-1], rooms[0]))
    init = []
    for a, b in links:
        init += [f"(connected {a} {b})", f"(connected {b} {a})"]
    for robot in robots:
        init.append(f"(robot-at {robot} {rng.choice(rooms)})")
    goal = []
    for ball in balls:
        start, end = rng.sample(rooms, 2)
        init.append(f"(ball-at {ball} {start})")
        init.append(f"(target {ball} {end})")
        if ball in heavy:
            init.append(f"(heavy {ball})")
        init.append(f"(turn-of {ball} {turns[order.index(ball)]})")
        goal.append(f"(delivered {ball})")
    init += [f"(next {a} {b})" for a, b in zip(turns, turns[1:])]
    init.append(f"(current {turns[0]})")
    objects = [
        ("robot", robots),
        ("ball", balls),
        ("room", rooms),
        ("turn", turns),
    ]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal)

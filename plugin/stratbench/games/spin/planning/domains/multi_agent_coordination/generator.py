"""Seeded instances of the multi-agent coordination domain.

Rooms form a corridor ``room0 - room1 - ...``. The corridor is cut into one
zone per robot, neighbouring zones sharing one or two rooms, and a robot may
only enter the rooms of its zone. Balls start and end in rooms of different
zones where the tier allows, so robots must relay them. Every instance is
solvable: the zones cover the corridor and overlap, so any ball can be passed
from zone to zone along the corridor.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "multi_agent_coordination"
CATEGORY = "sequential"
DESCRIPTION = "Zoned gripper robots must pass balls to each other to deliver them across rooms."
TIERS = ("easy", "medium", "hard")
PLANNER = "tamer"

# tier -> (rooms, robots, grippers per robot, balls)
_SIZES = {
    "easy": (3, 2, 1, 1),
    "medium": (5, 2, 2, 2),
    "hard": (6, 3, 2, 3),
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
    n_rooms, n_robots, n_grippers, n_balls = _SIZES[tier]
    rooms = [f"room{i}" for i in range(n_rooms)]
    zones = _zones(rng, n_rooms, n_robots)
    robots = [f"robot{i + 1}" for i in range(n_robots)]
    grippers = {r: [f"grip{i + 1}{'abc'[j]}" for j in range(n_grippers)] for i, r in enumerate(robots)}
    balls = [f"ball{i + 1}" for i in range(n_balls)]

    init = []
    for a, b in zip(rooms, rooms[1:]):
        init += [f"(connected {a} {b})", f"(connected {b} {a})"]
    for robot, zone in zip(robots, zones):
        init.append(f"(robot-at {robot} {rooms[rng.choice(zone)]})")
        init += [f"(may-enter {robot} {rooms[i]})" for i in zone]
        init += [f"(gripper-of {g} {robot})" for g in grippers[robot]]
    goal = []
    for ball in balls:
        start_zone, end_zone = rng.sample(range(n_robots), 2)
        start = rng.choice(_own_rooms(zones, start_zone))
        end = rng.choice([room for room in _own_rooms(zones, end_zone) if room != start])
        init.append(f"(ball-at {ball} {rooms[start]})")
        goal.append(f"(ball-at {ball} {rooms[end]})")
    objects = [
        ("robot", robots),
        ("gripper", [g for r in robots for g in grippers[r]]),
        ("ball", balls),
        ("room", rooms),
    ]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal)


def _zones(rng: random.Random, n_rooms: int, n_robots: int) -> list[list[int]]:
    """Returns one contiguous room interval per robot, neighbours overlapping."""
    # Zone i runs from cut i-1 to cut i, so neighbouring zones share the cut room.
    cuts = sorted(rng.sample(range(1, n_rooms - 1), n_robots - 1))
    starts = [0, *cuts]
    ends = [*cuts, n_rooms - 1]
    zones = []
    for i, (lo, hi) in enumerate(zip(starts, ends)):
        if i > 0 and rng.random() < 0.3 and lo > 1:
            lo -= 1  # a wider overlap with the previous zone now and then
        zones.append(list(range(lo, hi + 1)))
    return zones


def _own_rooms(zones: list[list[int]], index: int) -> list[int]:
    """Returns the rooms only zone ``index`` may enter (all its rooms if none)."""
    others = {room for i, zone in enumerate(zones) if i != index for room in zone}
    own = [room for room in zones[index] if room not in others]
    return own or zones[index]

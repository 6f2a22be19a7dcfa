"""Generates seeded rovers problems: collect soil, rock and image data for a lander."""

from __future__ import annotations

import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "rovers"
CATEGORY = "resource"
DESCRIPTION = (
    "Drive planetary rovers between waypoints to analyse soil and rock samples and "
    "take camera images, then send the data to a lander."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"
"""The default planner that solves every tier within seconds."""

_MODES = ("colour", "high-res", "low-res")
# tier -> (waypoints, rovers, objectives, soil goals, rock goals, image goals)
_SIZES = {
    "easy": (4, 1, 1, 1, 1, 0),  # two samples: one is often communicated by random moves
    "medium": (5, 2, 2, 1, 1, 1),
    "hard": (6, 2, 2, 2, 2, 2),
}


def generate(seed: int, tier: str) -> str:
    """Returns a rovers problem in PDDL, deterministic for (seed, tier).

    Every rover can traverse a spanning tree of the waypoint graph, the lander
    is visible from a neighbouring waypoint, and each goal kind has an
    equipped rover (with a camera supporting each image goal's mode), so every
    instance is solvable.

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
    n_way, n_rovers, n_obj, n_soil, n_rock, n_image = _SIZES[tier]
    ways = [f"waypoint{i}" for i in range(n_way)]
    rovers = [f"rover{i}" for i in range(n_rovers)]
    stores = [f"{r}-store" for r in rovers]
    cameras = [f"camera{i}" for i in range(n_rovers)]
    objectives = [f"objective{i}" for i in range(n_obj)]

    tree = set()
    for i in range(1, n_way):
        j = rng.randrange(i)
        tree |= {(ways[i], ways[j]), (ways[j], ways[i])}
    extra = set()
    for a in ways:
        for b in ways:
            if a < b and (a, b) not in tree and rng.random() < 0.3:
                extra |= {(a, b), (b, a)}
    visible = tree | extra

    # Equipment: each kind of goal gets at least one equipped rover.
    kinds = {r: set() for r in rovers}
    for kind in ("soil", "rock", "imaging"):
        for r in rovers:
            if rng.random() < 0.5:
                kinds[r].add(kind)
        kinds[rng.choice(rovers)].add(kind)

    image_modes: set[str] = set()
    init = [f"(at-lander general {rng.choice(ways)})"]
    init += [f"(visible {a} {b})" for a, b in sorted(visible)]
    for r, store, cam in zip(rovers, stores, cameras):
        init += [f"(at {r} {rng.choice(ways)})", f"(store-of {store} {r})", f"(empty {store})"]
        own = tree | {e for e in sorted(extra) if rng.random() < 0.5}
        init += [f"(can-traverse {r} {a} {b})" for a, b in sorted(own)]
        init += [f"(equipped-for-{k}{'' if k == 'imaging' else '-analysis'} {r})" for k in sorted(kinds[r])]
        init += [f"(on-board {cam} {r})", f"(calibration-target {cam} {rng.choice(objectives)})"]
        modes = rng.sample(_MODES, rng.randint(1, 2))
        init += [f"(supports {cam} {m})" for m in sorted(modes)]
        if "imaging" in kinds[r]:
            image_modes.update(modes)
    for obj in objectives:
        init += [f"(visible-from {obj} {w})" for w in sorted(rng.sample(ways, rng.randint(1, 2)))]

    soil = rng.sample(ways, min(n_way, n_soil + 1))
    rock = rng.sample(ways, min(n_way, n_rock + 1))
    init += [f"(at-soil-sample {w})" for w in sorted(soil)]
    init += [f"(at-rock-sample {w})" for w in sorted(rock)]
    goal = [f"(communicated-soil-data {w})" for w in sorted(rng.sample(soil, n_soil))]
    goal += [f"(communicated-rock-data {w})" for w in sorted(rng.sample(rock, n_rock))]
    pairs = [(o, m) for o in objectives for m in sorted(image_modes)]
    goal += [f"(communicated-image-data {o} {m})" for o, m in sorted(rng.sample(pairs, n_image))]

    objects = [
        f"{' '.join(rovers)} - rover", f"{' '.join(ways)} - waypoint", f"{' '.join(stores)} - store",
        f"{' '.join(cameras)} - camera", f"{' '.join(_MODES)} - mode", "general - lander",
        f"{' '.join(objectives)} - objective",
    ]
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, goal)


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

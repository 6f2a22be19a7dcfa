"""Seeded instances of the numeric settlers domain.

Places lie on a ring of roads, some of them rough. One place is woodland and
one is a mountain (the same place in the smaller tiers); some industry may
already stand (in the hard tier always the quarry), and the goal asks for
houses at one place. Every instance is
solvable by construction: woodland and mountain exist, a cart links places
that differ, and :func:`witness` builds a valid (if long) plan that carries
one unit at a time.
"""

from __future__ import annotations

import random
from collections import deque

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate", "witness"]

NAME = "settlersnumeric"
CATEGORY = "resource"
DESCRIPTION = "Fell timber, saw wood, quarry stone and cart materials around to build houses."
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"
_RESOURCES = ("timber", "wood", "stone")

# tier -> (places, carts, houses wanted)
_SIZES = {
    "easy": (1, 0, 2),  # two houses: one is often built by random moves
    "medium": (2, 1, 1),
    "hard": (4, 1, 2),
}


def generate(seed: int, tier: str) -> str:
    """Returns a problem in PDDL, deterministic for (seed, tier).

    Args:
        seed: Any integer; equal seeds give equal problems.
        tier: One of ``TIERS``.

    Returns:
        The problem file's text.
    """
    world = _world(seed, tier)
    places, carts = world["places"], world["carts"]
    init = [f"(road {a} {b})" for a, b in world["roads"]]
    init += [f"(rough-road {a} {b})" for a, b in world["rough"]]
    init += [f"(woodland {world['woodland']})", f"(mountain {world['mountain']})"]
    if world["managed"]:
        init.append(f"(managed-forest {world['woodland']})")
    init += [f"({building} {place})" for building, place in world["built"]]
    for cart in carts:
        init += [
            f"(cart-at {cart} {world['cart_at'][cart]})",
            f"(= (cart-load {cart}) 0)",
            f"(= (cart-capacity {cart}) {world['capacity'][cart]})",
        ]
        init += [f"(= (carried {r} {cart}) 0)" for r in _RESOURCES]
    init += [f"(= (trees {p}) {world['trees'] if p == world['woodland'] else 0})" for p in places]
    init += [f"(= (rock {p}) {world['rock'] if p == world['mountain'] else 0})" for p in places]
    init += [f"(= (available {r} {p}) 0)" for r in _RESOURCES for p in places]
    init += [f"(= (housing {p}) 0)" for p in places]
    init += ["(= (labour) 0)", "(= (pollution) 0)"]
    goal = [f"(>= (housing {p}) {n})" for p, n in world["houses"].items()]
    objects = [("place", places), ("cart", carts)]
    return problem_text(
        f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal,
        metric="minimize (+ (labour) (pollution))",
    )


def witness(seed: int, tier: str) -> str:
    """Returns a valid plan for ``generate(seed, tier)``, one action a line.

    The plan builds what is missing, makes all materials at the woodland and
    the mountain, and carries them one unit per trip with the first cart.
    """
    world = _world(seed, tier)
    wood_at, mountain = world["woodland"], world["mountain"]
    built = set(world["built"])
    houses = sum(world["houses"].values())
    plan: list[str] = []
    cart = world["carts"][0] if world["carts"] else None
    here = world["cart_at"].get(cart)

    def carry(resource: str, source: str, target: str) -> None:
        nonlocal here
        if source == target:
            return
        for place in _path(world["roads"], here, source)[1:] + ["load"] + _path(world["roads"], source, target)[1:]:
            if place == "load":
                plan.append(f"(load {cart} {resource} {source})")
            else:
                plan.append(f"(move-cart {cart} {here} {place})")
                here = place
        plan.append(f"(unload {cart} {resource} {target})")

    wood_needed = houses + (0 if ("has-quarry", mountain) in built else 1)
    timber_needed = wood_needed + (0 if ("has-sawmill", wood_at) in built else 2)
    if ("has-cabin", wood_at) not in built:
        plan.append(f"(build-cabin {wood_at})")
    plan += [f"(fell-timber {wood_at})"] * -(-timber_needed // (2 if world["managed"] else 1))
    if ("has-sawmill", wood_at) not in built:
        plan.append(f"(build-sawmill {wood_at})")
    plan += [f"(saw-wood {wood_at})"] * wood_needed
    if ("has-quarry", mountain) not in built:
        carry("wood", wood_at, mountain)
        plan.append(f"(build-quarry {mountain})")
    plan += [f"(break-stone {mountain})"] * houses
    for place, count in world["houses"].items():
        for _ in range(count):
            carry("wood", wood_at, place)
            carry("stone", mountain, place)
            plan.append(f"(build-house {place})")
    return "\n".join(plan)


def _path(roads: list[tuple[str, str]], start: str, end: str) -> list[str]:
    """Returns the places on a shortest road path from ``start`` to ``end``, both included."""
    previous = {start: start}
    queue = deque([start])
    while queue:
        place = queue.popleft()
        for a, b in roads:
            if a == place and b not in previous:
                previous[b] = place
                queue.append(b)
    path = [end]
    while path[-1] != start:
        path.append(previous[path[-1]])
    return path[::-1]


def _world(seed: int, tier: str) -> dict:
    """Returns the random choices behind one instance."""
    check_tier(tier, TIERS)
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_places, n_carts, n_houses = _SIZES[tier]
    places = [f"place{i + 1}" for i in range(n_places)]
    carts = [f"cart{i + 1}" for i in range(n_carts)]
    links = list(zip(places, places[1:] + places[:1])) if n_places > 2 else list(zip(places, places[1:]))
    roads = sorted(links + [(b, a) for a, b in links])
    rough = sorted(road for road in roads if rng.random() < 0.3)
    if tier == "hard":
        woodland, mountain = rng.sample(places, 2)
    else:
        woodland = mountain = places[0]
    if tier == "easy":
        built = [("has-cabin", woodland), ("has-sawmill", woodland), ("has-quarry", mountain)]
    else:
        built = [(b, woodland) for b in ("has-cabin", "has-sawmill") if rng.random() < 0.4]
        # The quarry stands already where wood would have to be carted to the mountain:
        # the default planner handles one cart destination well, two badly.
        if woodland != mountain or rng.random() < 0.3:
            built.append(("has-quarry", mountain))
    houses = {rng.choice(places): n_houses}  # one place: planners cope badly with several
    managed = rng.random() < 0.5
    # Enough trees and rock for the witness plan, and a little more.
    timber = n_houses + 1 + (0 if ("has-sawmill", woodland) in built else 2)
    trees = -(-timber // (2 if managed else 1)) + rng.randint(0, 1)
    rock = n_houses + rng.randint(0, 1)
    return {
        "places": places, "carts": carts, "roads": roads, "rough": rough,
        "woodland": woodland, "mountain": mountain, "managed": managed, "built": built,
        "trees": trees, "rock": rock,
        "cart_at": {c: rng.choice(places) for c in carts},
        "capacity": {c: rng.randint(2, 3) for c in carts}, "houses": houses,
    }

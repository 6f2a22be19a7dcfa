"""Generates seeded assembly problems: a product tree with resources, order constraints and jigs."""

from __future__ import annotations

import itertools
import random

__all__ = ["CATEGORY", "DESCRIPTION", "NAME", "TIERS", "generate"]

NAME = "assembly"
CATEGORY = "sequential"
DESCRIPTION = (
    "Build a product from parts and sub-assemblies in the required order, committing "
    "the resources each step needs and removing temporary jigs."
)
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"
"""The default planner that solves every tier within seconds (quantified conditions and conditional effects rule out pyperplan and tamer)."""

# tier -> (sub-assemblies, base parts per whole (low, high), jigs, resources, chance of an order constraint)
_SIZES = {
    "easy": (1, (2, 2), 0, 1, 0.5),  # a sub-assembly: a bare product is often built by random moves
    "medium": (1, (2, 2), 1, 2, 0.4),
    "hard": (3, (1, 2), 2, 2, 0.4),
}


def generate(seed: int, tier: str) -> str:
    """Returns an assembly problem in PDDL, deterministic for (seed, tier).

    The product and its sub-assemblies form a tree; order constraints follow
    one random order of each whole's parts, and a jig must go in before one
    part and come out after it. Building the wholes bottom-up, one at a time
    (commit its resources, put the parts in that order with the jig around its
    part, release the resources), is a plan, so every instance is solvable.

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
    n_subs, (low, high), n_jigs, n_resources, order_chance = _SIZES[tier]
    wholes = ["product"] + [f"sub{i}" for i in range(1, n_subs + 1)]
    children: dict[str, list[str]] = {w: [] for w in wholes}
    for i, sub in enumerate(wholes[1:], start=1):
        children[rng.choice(wholes[:i])].append(sub)
    parts = []
    for whole in wholes:
        for _ in range(rng.randint(low, high)):
            parts.append(f"part{len(parts) + 1}")
            children[whole].append(parts[-1])
    resources = [f"tool{i}" for i in range(1, n_resources + 1)]
    jigs = [f"jig{i}" for i in range(1, n_jigs + 1)]

    init = [f"(resource-free {r})" for r in resources]
    init += [f"(available {a})" for a in parts + jigs]
    for whole in wholes:
        order = rng.sample(children[whole], len(children[whole]))
        init += [f"(part-of {p} {whole})" for p in sorted(children[whole])]
        init.append(f"(requires {whole} {rng.choice(resources)})")
        for before, after in itertools.pairwise(order):
            if rng.random() < order_chance:
                init.append(f"(assemble-order {before} {after} {whole})")
        children[whole] = order
    for jig, whole in zip(jigs, rng.sample(wholes, n_jigs)):
        held = rng.choice(children[whole])
        init += [
            f"(transient-part {jig} {whole})",
            f"(assemble-order {jig} {held} {whole})",
            f"(remove-order {held} {jig} {whole})",
        ]
    objects = [f"{' '.join(wholes + parts + jigs)} - assembly", f"{' '.join(resources)} - resource"]
    return _render(f"{NAME}-{tier}-s{seed}", objects, init, ["(complete product)"])


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

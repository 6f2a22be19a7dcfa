"""Seeded instances of the barman domain.

Each ingredient has its own dispenser; each cocktail is made of two different
ingredients. The goals ask for shots holding given ingredients or cocktails.
There is one shaker holding up to two portions, and one shot glass more than
there are goals. Every instance is solvable: every ingredient can be
dispensed, every goal drink is an ingredient or a cocktail of two
ingredients, and glasses can always be emptied and cleaned.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "barman"
CATEGORY = "sequential"
DESCRIPTION = "A two-handed robot barman fills shot glasses with ingredients and shaken cocktails."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"

# tier -> (ingredients, cocktails, cocktail goals, ingredient goals)
_SIZES = {
    "easy": (2, 1, 0, 2),
    "medium": (3, 2, 1, 0),
    "hard": (4, 2, 1, 3),
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
    n_ingredients, n_cocktails, n_cocktail_goals, n_ingredient_goals = _SIZES[tier]
    ingredients = [f"ingredient{i + 1}" for i in range(n_ingredients)]
    dispensers = [f"dispenser{i + 1}" for i in range(n_ingredients)]
    cocktails = [f"cocktail{i + 1}" for i in range(n_cocktails)]
    n_goals = n_cocktail_goals + n_ingredient_goals
    shots = [f"shot{i + 1}" for i in range(n_goals + 1)]
    levels = ["l0", "l1", "l2"]

    init = ["(hand-empty left)", "(hand-empty right)"]
    for shot in shots:
        init += [f"(on-table {shot})", f"(empty {shot})", f"(clean {shot})"]
    init += ["(on-table shaker1)", "(empty shaker1)", "(clean shaker1)", "(shaker-level shaker1 l0)"]
    init += [f"(next-level {a} {b})" for a, b in zip(levels, levels[1:])]
    init += ["(bottom-level l0)"] + [f"(filled-level {level})" for level in levels[1:]]
    init += [f"(dispenses {d} {i})" for d, i in zip(dispensers, ingredients)]
    for cocktail in cocktails:
        first, second = rng.sample(ingredients, 2)
        init += [f"(first-part {cocktail} {first})", f"(second-part {cocktail} {second})"]
    init.append("(= (total-cost) 0)")
    drinks = rng.sample(cocktails, n_cocktail_goals) + rng.sample(ingredients, n_ingredient_goals)
    goal_shots = rng.sample(shots, n_goals)
    goal = [f"(contains {shot} {drink})" for shot, drink in zip(goal_shots, drinks)]
    objects = [
        ("hand", ["left", "right"]),
        ("level", levels),
        ("dispenser", dispensers),
        ("shot", shots),
        ("shaker", ["shaker1"]),
        ("ingredient", ingredients),
        ("cocktail", cocktails),
    ]
    return problem_text(
        f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal, metric="minimize (total-cost)"
    )

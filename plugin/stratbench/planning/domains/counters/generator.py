"""Seeded instances of the counters domain.

Counters start at random values in ``[0, max-value]``; the goal asks for a
random order of all counters to be strictly increasing, and the start values
are dealt so that they decrease along that order (so no pair starts right). Every instance is
solvable: ``max-value`` is at least one less than the number of counters, so
the values ``0, 1, 2, ...`` along the goal order are reachable by single
steps.
"""

from __future__ import annotations

import random

from stratbench.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "counters"
CATEGORY = "resource"
DESCRIPTION = "Raise, lower and move units between numeric counters until they stand in a required order."
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"

# tier -> (counters, max-value)
_SIZES = {
    "easy": (3, 4),
    "medium": (5, 6),
    "hard": (7, 9),
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
    n_counters, max_value = _SIZES[tier]
    counters = [f"c{i}" for i in range(n_counters)]
    order = rng.sample(counters, n_counters)
    start = sorted((rng.randint(0, max_value) for _ in counters), reverse=True)
    values = dict(zip(order, start))
    init = [f"(= (max-value) {max_value})"]
    init += [f"(= (value {c}) {values[c]})" for c in counters]
    goal = [f"(<= (+ (value {a}) 1) (value {b}))" for a, b in zip(order, order[1:])]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, [("counter", counters)], init, goal)

"""Seeded instances of the counters domain.

Counters start at random values in ``[0, max-value]``, dealt so that they
decrease along a random goal order; the goal asks for that order to be
strictly increasing. Every instance is solvable: ``max-value`` is at least
one less than the number of counters, so some strictly increasing values fit.
The shortest plan length is known exactly (:func:`shortest_length`), and
values are redrawn until it reaches the tier's minimum; :func:`witness`
returns a shortest plan.
"""

from __future__ import annotations

import itertools
import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate", "shortest_length", "witness"]

NAME = "counters"
CATEGORY = "resource"
DESCRIPTION = "Raise, lower and move units between numeric counters until they stand in a required order."
TIERS = ("easy", "medium", "hard")
PLANNER = "enhsp"

# tier -> (counters, max-value, least shortest-plan length)
_SIZES = {
    "easy": (3, 4, 3),
    "medium": (5, 6, 7),
    "hard": (7, 9, 14),
}


def generate(seed: int, tier: str) -> str:
    """Returns a problem in PDDL, deterministic for (seed, tier).

    Args:
        seed: Any integer; equal seeds give equal problems.
        tier: One of ``TIERS``.

    Returns:
        The problem file's text.
    """
    counters, max_value, order, values = _instance(seed, tier)
    init = [f"(= (max-value) {max_value})"]
    init += [f"(= (value {c}) {values[c]})" for c in counters]
    goal = [f"(<= (+ (value {a}) 1) (value {b}))" for a, b in zip(order, order[1:])]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, [("counter", counters)], init, goal)


def witness(seed: int, tier: str) -> str:
    """Returns a shortest plan for ``generate(seed, tier)``, one action a line."""
    _, max_value, order, values = _instance(seed, tier)
    start = [values[c] for c in order]
    target = _best_target(start, max_value)
    raise_ = [c for c, a, b in zip(order, start, target) for _ in range(b - a)]
    lower = [c for c, a, b in zip(order, start, target) for _ in range(a - b)]
    plan = [f"(transfer {a} {b})" for a, b in zip(lower, raise_)]
    plan += [f"(increment {c})" for c in raise_[len(lower):]]
    plan += [f"(decrement {c})" for c in lower[len(raise_):]]
    return "\n".join(plan)


def shortest_length(start: list[int], max_value: int) -> int:
    """Returns the length of a shortest plan making ``start`` strictly increasing.

    Each action moves one unit up, one unit down, or one unit from one counter
    to another, so reaching a target takes ``max(units up, units down)``
    actions; the shortest plan picks the best strictly increasing target in
    ``[0, max_value]``.

    Examples:
        >>> shortest_length([3, 2, 2], 4)  # e.g. to 1, 2, 4: two transfers
        2
    """
    return _cost(start, _best_target(start, max_value))


def _best_target(start: list[int], max_value: int) -> tuple[int, ...]:
    targets = itertools.combinations(range(max_value + 1), len(start))
    return min(targets, key=lambda target: _cost(start, target))


def _cost(start: list[int], target: tuple[int, ...]) -> int:
    up = sum(max(0, b - a) for a, b in zip(start, target))
    down = sum(max(0, a - b) for a, b in zip(start, target))
    return max(up, down)


def _instance(seed: int, tier: str) -> tuple[list[str], int, list[str], dict[str, int]]:
    """Returns the counters, max-value, goal order and start values of one instance."""
    check_tier(tier, TIERS)
    rng = random.Random(f"{NAME}:{tier}:{seed}")
    n_counters, max_value, least = _SIZES[tier]
    counters = [f"c{i}" for i in range(n_counters)]
    while True:
        order = rng.sample(counters, n_counters)
        start = sorted((rng.randint(0, max_value) for _ in counters), reverse=True)
        if shortest_length(start, max_value) >= least:
            return counters, max_value, order, dict(zip(order, start))

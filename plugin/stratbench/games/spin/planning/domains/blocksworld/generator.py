"""Seeded instances of the blocksworld domain.

Blocks start in random towers and must end in other random towers. Any two
tower arrangements of the same blocks are mutually reachable, so every
instance is solvable.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "blocksworld"
CATEGORY = "sequential"
DESCRIPTION = "A single gripper unstacks and restacks blocks to turn one set of towers into another."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"

_BLOCKS = {"easy": 3, "medium": 5, "hard": 7}


def _towers(rng: random.Random, blocks: list[str]) -> list[list[str]]:
    """Splits the blocks, in a random order, into random towers (bottom first)."""
    order = blocks[:]
    rng.shuffle(order)
    towers: list[list[str]] = []
    for block in order:
        if towers and rng.random() < 0.6:
            rng.choice(towers).append(block)
        else:
            towers.append([block])
    return towers


def _facts(towers: list[list[str]], *, with_hand: bool) -> list[str]:
    facts = []
    for tower in towers:
        facts.append(f"(ontable {tower[0]})")
        facts.extend(f"(on {upper} {lower})" for lower, upper in zip(tower, tower[1:]))
        facts.append(f"(clear {tower[-1]})")
    if with_hand:
        facts.append("(handempty)")
    return facts


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
    blocks = [f"b{i + 1}" for i in range(_BLOCKS[tier])]
    start = _towers(rng, blocks)
    goal = _towers(rng, blocks)
    while goal == start:
        goal = _towers(rng, blocks)
    goal_facts = [f for f in _facts(goal, with_hand=False) if not f.startswith("(clear")]
    return problem_text(
        f"{NAME}-{tier}-s{seed}",
        NAME,
        [("block", blocks)],
        _facts(start, with_hand=True),
        goal_facts,
    )

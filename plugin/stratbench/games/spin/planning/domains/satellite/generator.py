"""Seeded instances of the satellite domain.

Directions are calibration stars and observation targets. Each instrument
supports one mode or more and has one calibration star. Instruments are dealt
evenly over the satellites, so a satellite switches its power between at most
two of them (more switching makes the hard tier slow for the default
planner). The goals ask for images of targets in modes, and in the hard tier
also for where a satellite ends up pointing. Every instance is solvable:
every mode is supported by some instrument, and every instrument can be
switched on, calibrated at its star and turned to any direction.
"""

from __future__ import annotations

import random

from stratbench.games.spin.planning.domains._problem_text import check_tier, problem_text

__all__ = ["NAME", "CATEGORY", "DESCRIPTION", "TIERS", "PLANNER", "generate"]

NAME = "satellite"
CATEGORY = "resource"
DESCRIPTION = "Satellites turn, power and calibrate their instruments to take images in several modes."
TIERS = ("easy", "medium", "hard")
PLANNER = "pyperplan"

_MODES = ("infrared", "thermal", "spectral", "visible")
# tier -> (satellites, instruments, modes, stars, targets, image goals, pointing goals)
_SIZES = {
    "easy": (1, 1, 2, 1, 3, 2, 0),
    "medium": (2, 3, 3, 2, 5, 4, 0),
    "hard": (3, 3, 4, 3, 8, 7, 1),
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
    n_sats, n_instruments, n_modes, n_stars, n_targets, n_images, n_pointing = _SIZES[tier]
    satellites = [f"sat{i + 1}" for i in range(n_sats)]
    instruments = [f"instrument{i + 1}" for i in range(n_instruments)]
    modes = list(_MODES[:n_modes])
    stars = [f"star{i}" for i in range(n_stars)]
    targets = [f"target{i + 1}" for i in range(n_targets)]
    directions = stars + targets

    owners = [satellites[i % n_sats] for i in range(n_instruments)]  # at most two each
    rng.shuffle(owners)
    supported = _mode_sets(rng, n_instruments, modes)
    init = []
    for satellite in satellites:
        init += [f"(pointing {satellite} {rng.choice(directions)})", f"(power-available {satellite})"]
    for instrument, owner, modes_of in zip(instruments, owners, supported):
        init.append(f"(on-board {instrument} {owner})")
        init += [f"(supports {instrument} {mode})" for mode in modes_of]
        init.append(f"(calibration-target {instrument} {rng.choice(stars)})")
    pairs = [(target, mode) for target in targets for mode in modes]
    goal = [f"(have-image {target} {mode})" for target, mode in rng.sample(pairs, n_images)]
    goal += [f"(pointing {s} {rng.choice(targets)})" for s in rng.sample(satellites, n_pointing)]
    objects = [
        ("satellite", satellites),
        ("instrument", instruments),
        ("mode", modes),
        ("direction", directions),
    ]
    return problem_text(f"{NAME}-{tier}-s{seed}", NAME, objects, init, goal)


def _mode_sets(rng: random.Random, n_instruments: int, modes: list[str]) -> list[list[str]]:
    """Returns each instrument's modes, every mode supported by some instrument."""
    sets = [[rng.choice(modes)] for _ in range(n_instruments)]
    for mode in modes:
        if not any(mode in modes_of for modes_of in sets):
            sets[rng.randrange(n_instruments)].append(mode)
    for modes_of in sets:
        extra = rng.choice(modes)
        if len(modes_of) == 1 and extra not in modes_of and rng.random() < 0.5:
            modes_of.append(extra)
    return [sorted(modes_of) for modes_of in sets]

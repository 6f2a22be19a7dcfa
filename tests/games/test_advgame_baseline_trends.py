"""The baselines make the process metrics meaningful: the hill-climber improves, the random writer does not.

Each baseline plays the greedy one (a fixed strategy) in 10-round revision
matches, both roles, both move orders, 8 seeds (32 matches, 320 rounds per
figure). The slope is one OLS fit over all (round number, win) points; its
standard error here is about 0.008, so the bounds below sit about three
standard errors from the measured values (docs/ADVGAME.md gives them).
"""

import asyncio
import random

import pytest

from stratbench.core.revision import play_revision_match
from stratbench.games.advgame import simulator
from stratbench.games.advgame.baselines import BaselineWriter
from stratbench.metrics.advgame import aggregate_paper

SEEDS = 8


def _against_greedy(game: str, subject: str) -> dict:
    module = simulator(game)
    traces = []
    for seed in range(SEEDS):
        for role in module.SIDES:
            other = next(side for side in module.SIDES if side != role)
            for first in module.SIDES:
                rng = random.Random(f"{game}-{subject}-{seed}-{role}-{first}")
                writers = {role: BaselineWriter(subject, game, role, rng),
                           other: BaselineWriter("greedy", game, other, rng)}
                match = asyncio.run(play_revision_match(module, writers, first_reviser=first, rounds=10))
                traces.append(match.trace(role))
    assert len(traces) == 4 * SEEDS
    return aggregate_paper(traces)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["battle_card", "turn_based"])
def test_the_hill_climber_improves_and_the_random_writer_does_not(game):
    climber, rand = _against_greedy(game, "climber"), _against_greedy(game, "random")
    assert climber["improvement_slope"] > 0.03
    assert climber["correction_success_rate"] > 0.2
    assert climber["correction_success_rate"] > rand["correction_success_rate"]
    assert abs(rand["improvement_slope"]) < 0.025
    assert rand["over_correction_rate"] == 1.0  # it re-rolls at every turn
    assert climber["over_correction_rate"] < 1.0  # it keeps its strategy when no mutation does better

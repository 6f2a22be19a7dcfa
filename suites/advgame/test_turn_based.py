"""AdvGameBench Turn-based Attribute (the paper's TAG): three characters' skills a side within 20.

A match is a 10-round strategy-and-revision match (`--advgame-rounds N`):
both sides write a whole strategy as one JSON object, the simulator plays
it, the budget rule decides the round, and exactly one side revises, in
turn, seeing the opponent's strategy. Each subject plays the greedy and
random baselines (and every other `--model`) in both roles (the two
seeds) and both move orders (the variants `first`, `second`); each side
scores its share of the rounds. The climber (hill-climbing reviser),
greedy and random baselines are subjects too, so the suite plays offline.
"""

import pytest


@pytest.mark.stratbench(
    game="turn_based",
    opponents=["greedy", "random"],
    baselines=["climber", "greedy", "random"],
    matches=2,
    seats="alternate",
)
def test_turn_based(match):
    match.play()

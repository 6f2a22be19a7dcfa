"""GameBench Air, Land and Sea: the subject plays the random baseline, seats swapped every match.

GameBench retries an unreadable or illegal answer 3 times, then plays a
random legal action. The score is each player's share of the victory points,
so a match is rarely a clean 1/0.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="air_land_sea",
    opponents=["random"],
    baselines=["random"],
    matches=10,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_air_land_sea(match):
    match.play()

"""GameBench Sea Battle: three ships per team; the subject's agent is duplicated on each of its ships.

Every live ship acts at once each round (the runner asks the three ships of a
team concurrently). GameBench retries an unreadable or illegal answer 3
times, then plays a random legal action.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="sea_battle",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_sea_battle(match):
    match.play()

"""GameBench Arctic Scavengers: the subject plays the random baseline, seats swapped every match.

GameBench retries an unreadable or illegal answer 3 times, then plays a
random legal action. A gathering action naming cards the player does not
hold, or an action already used this round, is rejected with the reason.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="arctic_scavengers",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_arctic_scavengers(match):
    match.play()

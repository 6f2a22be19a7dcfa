"""GameBench Pit: four traders, the subject's agent duplicated on two of them (seats 1 and 3 or 2 and 4).

All traders act at once every trading round. GameBench plays a random legal
action for an invalid answer; here an offer of cards the trader does not hold
is rejected with the reason and retried up to 3 times first. The score is
each side's share of the points made by cornering markets, so a match is
rarely a clean 1/0.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="pit",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_pit(match):
    match.play()

"""GameBench Santorini: the subject plays the random baseline, seats swapped every match.

No god powers. GameBench replaces an unusable answer with a random legal
action; here after 3 attempts. Every match has a winner.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="santorini",
    opponents=["random"],
    baselines=["random"],
    matches=10,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_santorini(match):
    match.play()

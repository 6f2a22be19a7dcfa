"""GameBench Hive: the subject plays the random baseline, seats swapped every match.

The observation is an image of the board (sent to vision models) with a text
rendering of the same board for text-only models. GameBench replaces an
unusable answer with a random legal action; here after 3 attempts. Random
play rarely surrounds a Queen, so most matches against random run to the
250-turns-per-player limit and are draws.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="hive",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_hive(match):
    match.play()

"""GameBench Codenames: two teams of a spymaster and an operative; the subject's agent plays both seats of its team.

The spymaster's clue is open-ended text (``submit_clue: <word>, <number>``),
checked against the rules' Forbidden Actions; a rejected clue is retried with
the reason, and after 3 attempts GameBench's substitute clue ``none, 1`` is
played. An operative's unusable guess becomes a random legal guess. The
random baseline's spymaster gives no valid clue, so it plays the substitute.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="codenames",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_codenames(match):
    match.play()

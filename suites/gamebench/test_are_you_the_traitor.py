"""GameBench Are You the Traitor?: Evil (players 0-1) against Good (players 2-4), the agent duplicated per seat.

Every exchange opens with a conversation turn through the message channels
(one public message of at most 300 characters per seat; at most 3 exchanges a
round), then a questioner asks a seat a question and everyone but the
Traitor may shout Stop! and accuse. Seats alternate between the teams.
GameBench falls back to a random target or a canned answer; here after 3
attempts.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="are_you_the_traitor",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_are_you_the_traitor(match):
    match.play()

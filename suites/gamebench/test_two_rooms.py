"""GameBench Two Rooms and a Boom: six seats, the subject's agent duplicated on its team's three.

Each round the players of a room talk privately (messages to room-mates only,
300 characters at most, 2 messages in each of 2 talk rounds), share colours
or cards, and the Leaders exchange hostages. GameBench's agent 1 plays Blue
and agent 2 Red; seats alternate here so the subject plays both teams.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="two_rooms_and_a_boom",
    opponents=["random"],
    baselines=["random"],
    matches=4,
    seats="alternate",
    illegal_tolerance=3,
    fallback="random",
)
def test_two_rooms(match):
    match.play()

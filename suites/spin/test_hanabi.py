"""SPIN-Bench Hanabi: self-play with 2, 3, 4 and 5 copies of the subject.

Each subject plays every seat of the team (one item per player count and
seed; 5 games per count, as in SPIN-Bench's code). The score is the sum of
the fireworks (0-25). An illegal or unreadable action is retried up to 5
times (SPIN-Bench's Hanabi tolerance), then a random legal action is played
and counted as a fallback. Baselines: uniformly random legal actions and the
rule-based ``hanabi-rules`` agent. Needs ``pytest-stratbench[hanabi]``;
without OpenSpiel the items are skipped with the install hint.

``--protocol paper`` plays as SPIN-Bench's released runner: each seat first
gets the rules primer and keeps its reply, then the released prompts; answers
are read by its JSON reader, retried 5 times with "Illegal move, try again",
after which the match ends (left out of the mean, as the released runner saved
no such game); the score is the fireworks before the last action; temperature
0.95 (docs/PROTOCOLS.md lists every difference).
"""

import pytest


@pytest.mark.stratbench(
    game="hanabi",
    baselines=["random", "hanabi-rules"],
    matches=5,
    illegal_tolerance=5,
    fallback="random",
)
def test_hanabi(match):
    match.play()

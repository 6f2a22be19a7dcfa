"""GameBench Atari Boxing: the subject boxes the cartridge's computer boxer.

The one real-time game: each answer is held for 30 frames (half a second)
while the bout runs on. The observation is the screen as an image with the
boxers' positions, the points and the time left as text. The suite plays
the 20-second bout (variant ``20s``); ``variants=["2min"]`` plays the
cartridge's full 2 minutes. Score: 0.5 + point
difference / 200. An unusable answer is retried 3 times, then a random
joystick action is held instead (GameBench's fallback). Needs the
``atari`` extra; without ale-py the matches are skipped with the install
hint.

``--protocol paper`` plays it as GameBench's released agent did: its prompt, JSON
answers, action ids and retries (docs/PROTOCOLS.md, "GameBench").
"""

import pytest


@pytest.mark.stratbench(
    game="atari_boxing",
    baselines=["random"],
    variants=["20s"],
    matches=2,
    illegal_tolerance=3,
    fallback="random",
)
def test_atari_boxing(match):
    match.play()

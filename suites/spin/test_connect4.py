"""SPIN-Bench Connect Four: each subject plays the perfect solver.

10 games per pairing with seats swapped halfway (the solver plays X in the
first half), 10 attempts per move before an illegal-move loss; LLM subjects
also play each other in a round robin. Per match: the result against the
solver (for the draw rate) and the solver rank of every move (top-1 and
top-3 shares), in ``metrics[player]``.

Paper protocol (``--protocol paper``): SPIN-Bench's released conversation (a
JSON ``{"reason", "action"}`` answer, ``Illegal move, try again``, 11
attempts, temperature 0.95); see docs/PROTOCOLS.md::

    pytest suites/spin/test_connect4.py --protocol paper --model openai/gpt-4o
"""

import pytest


@pytest.mark.stratbench(
    game="connect4",
    opponents=["c4solver"],
    baselines=["random"],
    matches=10,
    seats="half",
    illegal_tolerance=10,
    fallback="forfeit",
)
def test_connect4(match):
    match.play()

"""SPIN-Bench Tic-Tac-Toe: each subject plays the perfect minimax solver.

10 games per pairing with seats swapped halfway (the solver plays X in the
first half), 10 attempts per move before an illegal-move loss; LLM subjects
also play each other in a round robin. Per match: the result against the
solver (for the draw rate) and the share of moves minimax rates optimal.

Paper protocol (``--protocol paper``): SPIN-Bench's released conversation
(cells numbered by column, a JSON ``{"reason", "action"}`` answer, ``Illegal
move, try again``, 11 attempts, temperature 0.95); see docs/PROTOCOLS.md::

    pytest suites/spin/test_tictactoe.py --protocol paper --model openai/gpt-4o
"""

import pytest


@pytest.mark.stratbench(
    game="tictactoe",
    opponents=["minimax"],
    baselines=["random"],
    matches=10,
    seats="half",
    illegal_tolerance=10,
    fallback="forfeit",
)
def test_tictactoe(match):
    match.play()

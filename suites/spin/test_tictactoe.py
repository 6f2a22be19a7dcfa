"""SPIN-Bench Tic-Tac-Toe: each subject plays the perfect minimax solver.

10 games per pairing with seats swapped halfway (the solver plays X in the
first half), 10 attempts per move before an illegal-move loss; LLM subjects
also play each other in a round robin. Per match: the result against the
solver (for the draw rate) and the share of moves minimax rates optimal.
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

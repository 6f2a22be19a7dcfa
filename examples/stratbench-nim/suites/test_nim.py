"""Nim (normal play, heaps 3,4,5 unless ``--nim-heaps`` says otherwise): each subject plays the perfect agent.

10 matches per pairing with seats swapped halfway, 3 attempts per move
before an illegal-move loss. Per match: the share of the subject's moves
that were optimal (left a zero nim-sum)::

    pytest suites/test_nim.py --nim-heaps 3,4,5 --nim-heaps 1,2,3 --report-dir reports/nim
"""

import pytest


@pytest.mark.stratbench(
    game="nim/nim",
    opponents=["nim/perfect"],
    baselines=["random"],
    matches=10,
    seats="half",
    illegal_tolerance=3,
    fallback="forfeit",
)
def test_nim(match):
    match.play()

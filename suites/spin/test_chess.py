"""SPIN-Bench chess: each subject plays Stockfish.

4 games per pairing with seats swapped halfway (Stockfish plays White in the
first half), 10 attempts per move before an illegal-move loss; LLM subjects
also play each other in a round robin. The opponent's skill level is
``STRATBENCH_CHESS_LEVEL`` (0-20, default 20: SPIN-Bench's draw rate is
against level 20); the agent is then ``stockfish<level>``. Its search depth
per move is ``STRATBENCH_STOCKFISH_DEPTH`` (default 15).

Per match: the result, the rank of every non-engine move among Stockfish's
top 10 lines (``STRATBENCH_CHESS_ANNOTATION_DEPTH``, default 12), and the
final FEN and PGN. Matches with a Stockfish side are skipped when the binary
is missing.

Paper protocol (``--protocol paper``): SPIN-Bench's released conversation
(FEN and board in tags, UCI moves, a JSON ``{"reason", "action"}`` answer,
``Illegal move, try again``, 11 attempts, temperature 0.95) against Stockfish
at levels 0, 5, 10, 15 and 20 in one run (``stockfish<level>`` in each match
id; ``STRATBENCH_CHESS_LEVEL`` is then not used), move quality at depth 15;
see docs/PROTOCOLS.md::

    pytest suites/spin/test_chess.py --protocol paper --model openai/gpt-4o
"""

import os

import pytest
from stratbench.games.spin.agents.stockfish import STOCKFISH_MISSING, find_stockfish

LEVEL = int(os.environ.get("STRATBENCH_CHESS_LEVEL", "20"))


@pytest.mark.stratbench(
    game="chess",
    opponents=[f"stockfish{LEVEL}"],
    baselines=["random"],
    matches=4,
    seats="half",
    illegal_tolerance=10,
    fallback="forfeit",
)
def test_chess(match):
    engine_side = any(side.kind.startswith("stockfish") for side in match.spec.sides)
    if engine_side and find_stockfish(match.session.settings.families["spin"].stockfish) is None:
        pytest.skip(STOCKFISH_MISSING)
    match.play()

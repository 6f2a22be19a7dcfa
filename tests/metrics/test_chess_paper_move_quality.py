"""Chess move quality under the paper protocol: SPIN-Bench's depth and its rank by list position."""

from __future__ import annotations

from stratbench.games.spin.agents.stockfish import RankedMove
from stratbench.core.runner import MatchOutcome
from stratbench.games.spin.chess_game import PAPER_ANNOTATION_DEPTH, ChessGame
from stratbench.games.spin.metrics import chess as chess_metrics

HISTORY = [{0: "e4"}, {1: "e5"}]


def _outcome():
    return MatchOutcome(scores=[0.5, 0.5], terminal="end", turns=2, decisions={0: 1, 1: 1}, illegal={0: 0, 1: 0},
                        fallbacks={0: 0, 1: 0}, forfeited_by=None, history=HISTORY, duration_s=0.0)


def _quality(game, monkeypatch):
    depths = []

    async def lines(path, boards, *, multipv, depth):
        depths.append(depth)
        # e4 ties the first line's score but is listed second; e5 is listed fourth behind three equal lines.
        return [[RankedMove("d2d4", 30), RankedMove("e2e4", 30), RankedMove("g1f3", 20)],
                [RankedMove("c7c5", 0), RankedMove("e7e6", 0), RankedMove("d7d5", 0), RankedMove("e7e5", 0)]]

    monkeypatch.setattr(chess_metrics, "analyse_positions", lines)
    game.stockfish_path = "/bin/true"
    return chess_metrics.move_quality(game, _outcome(), 0), depths


def test_the_paper_protocol_ranks_by_position_at_the_papers_depth(monkeypatch):
    metrics, depths = _quality(ChessGame(protocol="paper"), monkeypatch)
    assert depths == [PAPER_ANNOTATION_DEPTH]
    assert metrics[0]["ranks"] == [1] and metrics[1]["ranks"] == [3]
    assert metrics[1]["top3_share"] == 0.0
    assert metrics[0]["annotation"] == {"engine": "stockfish", "depth": PAPER_ANNOTATION_DEPTH, "multipv": 10,
                                        "rank": "list position"}


def test_the_default_protocol_still_ranks_by_score_with_ties_best(monkeypatch):
    metrics, depths = _quality(ChessGame(), monkeypatch)
    assert depths == [chess_metrics.ANNOTATION_DEPTH]
    assert metrics[0]["ranks"] == [0] and metrics[1]["ranks"] == [0]
    assert "rank" not in metrics[0]["annotation"]


"""Per-match move quality for Connect Four (solver) and chess (Stockfish MultiPV), and the chess record."""

import chess
import pytest
from stratbench.agents.stockfish import STOCKFISH_MISSING, RankedMove, find_stockfish
from stratbench.core.runner import MatchOutcome
from stratbench.games.c4_solver import OpeningBook
from stratbench.games.chess_game import ChessGame
from stratbench.games.connect_four import ConnectFour
from stratbench.metrics import chess as chess_metrics
from stratbench.metrics import connect_four


def _outcome(history):
    players = {p for joint in history for p in joint}
    return MatchOutcome(
        scores=[0.0, 1.0],
        terminal="end",
        turns=len(history),
        decisions={p: 0 for p in players},
        illegal={p: 0 for p in players},
        fallbacks={p: 0 for p in players},
        forfeited_by=None,
        history=history,
        duration_s=0.0,
    )


@pytest.mark.skipif(not OpeningBook().available, reason="bitbully-databases is not installed")
def test_connect_four_ranks_come_from_exact_solver_scores():
    columns = [0, 3, 0, 3, 0, 3, 6, 3]  # both stack a column; X neither wins nor blocks, O wins
    history = [{i % 2: str(c)} for i, c in enumerate(columns)]
    metrics = connect_four.move_quality(ConnectFour(), _outcome(history), 0)
    x, o = metrics[0], metrics[1]
    # Empty board scores -2 -1 0 1 0 -1 -2: column 0 ranks 5th (0-based, ties best).
    assert x["ranks"][0] == 5
    # X could win at once in column 0 (rank 0), blocking column 3 comes next (rank 1); column 6
    # loses at once, tied with the other losing columns: rank 2.
    assert x["ranks"][3] == 2
    assert o["ranks"][3] == 0  # the winning move
    assert x["moves"] == o["moves"] == 4
    assert x["top1_share"] == sum(r == 0 for r in x["ranks"]) / 4
    assert x["top3_share"] == sum(r < 3 for r in x["ranks"]) / 4
    assert x["optimal_moves"] == sum(r == 0 for r in x["ranks"])


FOOLS_MATE = [{0: "f3"}, {1: "e5"}, {0: "g4"}, {1: "Qh4#"}]


def test_chess_record_has_the_final_fen_last_move_and_pgn():
    record = chess_metrics.game_record(ChessGame(), _outcome(FOOLS_MATE), 0)
    assert record[0] == record[1]
    assert record[0]["final_fen"] == "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3"
    assert record[0]["last_move"] == "d8h4"
    assert "2. g4 Qh4# 0-1" in record[0]["pgn"]
    assert chess_metrics.board_svg(record[0]["final_fen"]).startswith("<svg")


def test_chess_annotates_only_non_engine_players(monkeypatch):
    seen = []

    async def fake_analyse(path, boards, *, multipv, depth):
        seen.extend(b.fen() for b in boards)
        return [[RankedMove("f2f3", 10), RankedMove("e2e4", 10), RankedMove("a2a3", 0)],
                [RankedMove("e1f2", -50)]]

    monkeypatch.setattr(chess_metrics, "analyse_positions", fake_analyse)
    game = ChessGame()
    game.engine_players.add(1)
    game.stockfish_path = "/bin/true"
    metrics = chess_metrics.move_quality(game, _outcome(FOOLS_MATE), 0)
    assert seen == [chess.STARTING_FEN, "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"]
    assert metrics[1] == {"annotated": False}
    assert metrics[0]["ranks"] == [0, None]  # f3 ties the best line; g4 is not among the lines
    assert metrics[0]["top1_share"] == 0.5 and metrics[0]["top3_share"] == 0.5
    assert metrics[0]["annotation"]["multipv"] == 10


def test_chess_without_stockfish_says_why(monkeypatch):
    monkeypatch.setattr(chess_metrics, "find_stockfish", lambda explicit=None: None)
    metrics = chess_metrics.move_quality(ChessGame(), _outcome(FOOLS_MATE), 0)
    assert metrics[0] == metrics[1] == {"annotated": False, "annotation_skipped": STOCKFISH_MISSING}


@pytest.mark.skipif(find_stockfish() is None, reason=STOCKFISH_MISSING)
def test_chess_annotation_with_stockfish_ranks_a_mate_in_one_first(monkeypatch):
    monkeypatch.setattr(chess_metrics, "ANNOTATION_DEPTH", 6)
    metrics = chess_metrics.move_quality(ChessGame(), _outcome(FOOLS_MATE), 0)
    assert metrics[1]["ranks"][1] == 0  # Qh4# is the best move
    assert len(metrics[0]["ranks"]) == len(metrics[1]["ranks"]) == 2
    assert metrics[0]["annotation"]["depth"] == 6

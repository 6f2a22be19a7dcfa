"""Per-match move quality for Connect Four (solver) and chess (Stockfish MultiPV), and the chess record."""

import json
import random

import chess
import pytest
from stratbench.games.spin.agents.c4_solver_agent import C4SolverAgent
from stratbench.games.spin.agents.stockfish import STOCKFISH_MISSING, RankedMove, find_stockfish
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchOutcome
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action
from stratbench.games.spin.c4_solver import OpeningBook, default_solver
from stratbench.games.spin.chess_game import ChessGame
from stratbench.games.spin.connect_four import ConnectFour
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.games.spin.metrics import chess as chess_metrics
from stratbench.games.spin.metrics import connect_four, tictactoe
from stratbench.games.spin.metrics.solver import engine_sides, register_engine


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


@pytest.mark.slow
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


def _json_round_trip(value):
    return json.loads(json.dumps(value))


@pytest.mark.slow
@pytest.mark.skipif(not OpeningBook().available, reason="bitbully-databases is not installed")
def test_connect_four_metrics_name_the_solver_side_and_how_positions_were_scored():
    game = ConnectFour()
    context = AgentContext(spec=AgentSpec(kind="c4solver"), game=game, player=1, side=1,
                           rng=random.Random(0), transcript=Transcript())
    C4SolverAgent(context)  # registers itself as the engine of player 1
    # 14 discs: each player's first 6 positions have fewer than 12 discs (scored through the
    # book), the last one is searched.
    columns = [0, 1, 0, 2, 3, 6, 1, 3, 4, 0, 4, 1, 0, 5]
    history = [{i % 2: str(c)} for i, c in enumerate(columns)]
    metrics = connect_four.move_quality(game, _outcome(history), 0)
    solver = default_solver().describe()
    for player in (0, 1):
        context = metrics[player]["context"]
        assert _json_round_trip(context) == context
        assert context["solver"] == solver and solver["book"]["exact_plies"] == 12
        assert context["solver"]["search"] in ("numba", "python")
        assert context["positions"] == {"book": 6, "search": 1}
        assert context["engine"] is (player == 1)
        assert [(e["player"], e["role"], e["agent"]) for e in context["engines"]] == [(1, "O", "c4solver")]
        assert context["engines"][0]["ties"].startswith("uniform")


def test_engine_registration_creates_what_a_game_lacks_and_reads_back_sorted():
    game = TicTacToe()
    assert engine_sides(game) == []
    register_engine(game, 1, {"agent": "minimax"})
    register_engine(game, 0, {"agent": "other", "depth": 3})
    assert engine_sides(game) == [
        {"player": 0, "role": game.role(0), "agent": "other", "depth": 3},
        {"player": 1, "role": game.role(1), "agent": "minimax"},
    ]


def test_tictactoe_metrics_carry_the_rater_and_the_engine_players():
    game = TicTacToe()
    register_engine(game, 1, {"agent": "minimax"})
    state = game.new_initial_state(0)
    history = []
    for _ in range(3):
        (player,) = state.current_players()
        action = state.legal_actions(player)[0]
        history.append({player: action})
        state.apply({player: Action(action)})
    metrics = tictactoe.move_quality(game, _outcome(history), 0)
    for player in (0, 1):
        context = metrics[player]["context"]
        assert _json_round_trip(context) == context
        assert context["rater"] == {"solver": "minimax", "depth": "full game", "ties": "ranked best"}
        assert context["engine"] is (player == 1)
        assert [e["player"] for e in context["engines"]] == [1]


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
    settings = {"agent": "stockfish", "level": 5.0, "elo": None, "depth": 12, "nodes": None, "threads": 1}
    register_engine(game, 1, settings)
    game.stockfish_path = "/bin/true"
    metrics = chess_metrics.move_quality(game, _outcome(FOOLS_MATE), 0)
    assert seen == [chess.STARTING_FEN, "rnbqkbnr/pppp1ppp/8/4p3/8/5P2/PPPPP1PP/RNBQKBNR w KQkq - 0 2"]
    engines = [{"player": 1, "role": "Black", **settings}]
    annotation = {"engine": "stockfish", "depth": chess_metrics.ANNOTATION_DEPTH, "multipv": 10}
    assert metrics[1] == {"annotated": False,
                          "context": {"annotation": annotation, "engine": True, "engines": engines}}
    assert metrics[0]["ranks"] == [0, None]  # f3 ties the best line; g4 is not among the lines
    assert metrics[0]["top1_share"] == 0.5 and metrics[0]["top3_share"] == 0.5
    assert metrics[0]["annotation"]["multipv"] == 10
    assert metrics[0]["context"] == {"annotation": annotation, "engine": False, "engines": engines}
    assert _json_round_trip(metrics[0]) == metrics[0]


def test_chess_without_stockfish_says_why(monkeypatch):
    monkeypatch.setattr(chess_metrics, "find_stockfish", lambda explicit=None: None)
    metrics = chess_metrics.move_quality(ChessGame(), _outcome(FOOLS_MATE), 0)
    context = {"annotation": None, "engine": False, "engines": []}
    assert metrics[0] == metrics[1] == {"annotated": False, "annotation_skipped": STOCKFISH_MISSING,
                                        "context": context}


@pytest.mark.skipif(find_stockfish() is None, reason=STOCKFISH_MISSING)
def test_chess_annotation_with_stockfish_ranks_a_mate_in_one_first(monkeypatch):
    monkeypatch.setattr(chess_metrics, "ANNOTATION_DEPTH", 6)
    metrics = chess_metrics.move_quality(ChessGame(), _outcome(FOOLS_MATE), 0)
    assert metrics[1]["ranks"][1] == 0  # Qh4# is the best move
    assert len(metrics[0]["ranks"]) == len(metrics[1]["ranks"]) == 2
    assert metrics[0]["annotation"]["depth"] == 6

"""The opening books of Tic-Tac-Toe, Connect Four and chess (``--openings book``): balanced, distinct, legal, and
the games, metrics and records start from them."""

from __future__ import annotations

import random

import chess
import chess.engine
import pytest
from stratbench.core.types import Action
from stratbench.games.spin import c4_solver
from stratbench.games.spin import chess_game, connect_four, tictactoe
from stratbench.games.spin.agents.stockfish import find_stockfish
from stratbench.games.spin.openings import pick


def test_every_tictactoe_book_position_is_a_draw_two_or_four_plies_in_and_distinct():
    book = tictactoe.opening_book()
    assert len(book) == len(set(book)) == 160
    for board in book:
        assert board.count("X") == board.count("O") in (1, 2)  # X to move, two or four plies in
        assert tictactoe.winner(board) is None and tictactoe.position_value(board) == 0
    # consecutive seeds start from different positions until the book is used up, then it wraps
    assert len({pick(book, seed) for seed in range(160)}) == 160 and pick(book, 160) == pick(book, 0)


def test_connect_four_book_positions_are_four_plies_in_distinct_and_solved_draws():
    book = connect_four.opening_book()
    assert len(book) == 200
    keys = {c4_solver.Position.from_moves(moves).key() for moves in book}
    assert len(keys) == 200 and all(len(moves) == 4 for moves in book)
    solver = c4_solver.default_solver()
    for moves in random.Random(3).sample(book, 12):  # the script solved all 2,401 sequences; a sample here
        assert solver.solve(c4_solver.Position.from_moves(moves)) == 0


def test_chess_book_openings_are_legal_distinct_and_near_equal_by_stockfish():
    book = chess_game.opening_book()
    assert len(book) >= 100
    boards = []
    for moves in book:
        board = chess.Board()
        for uci in moves:
            board.push_uci(uci)  # raises on an illegal move
        boards.append(board)
    assert len({board.epd() for board in boards}) == len(book)
    path = find_stockfish(None)
    if path is None:
        pytest.skip("Stockfish is not installed")
    with chess.engine.SimpleEngine.popen_uci(path) as engine:
        for board in random.Random(5).sample(boards, 4):
            score = engine.analyse(board, chess.engine.Limit(depth=10))["score"].white().score()
            assert score is not None and abs(score) <= 100, (board.fen(), score)


@pytest.mark.parametrize("make", [tictactoe.TicTacToe, connect_four.ConnectFour, chess_game.ChessGame])
def test_a_book_game_starts_each_seed_from_its_position_and_the_paper_protocol_keeps_the_empty_board(make):
    game, empty = make(openings="book"), make()
    for seed in (0, 1, 7):
        state = game.new_initial_state(seed)
        assert state.turn == 0 and not state.history  # the opening is the start, not the players' moves
        assert str(state) != str(empty.new_initial_state(seed)) and game.opening(seed)
        assert state.current_players() == [0]  # the first seat moves first: both seatings play it alike
    assert empty.opening(0) is None and game.opening(0) != game.opening(1)
    with pytest.raises(ValueError, match="paper protocol keeps the empty board"):
        make(protocol="paper", openings="book")
    with pytest.raises(ValueError, match="openings must be one of empty, book"):
        make(openings="random")


def test_the_metrics_rate_the_players_moves_from_the_book_position():
    from stratbench.core.runner import MatchOutcome
    from stratbench.games.spin.metrics import connect_four as c4_metrics
    from stratbench.games.spin.metrics import tictactoe as ttt_metrics

    game = connect_four.ConnectFour(openings="book")
    state = game.new_initial_state(4)
    history = []
    for _ in range(3):  # three of the solver's moves from the book position (a whole game costs seconds)
        (player,) = state.current_players()
        move = c4_solver.default_solver().score_moves(c4_solver.Position.from_moves(state.moves))
        column = str(max(move, key=move.get))
        history.append({player: column})
        state.apply({player: Action(column)})
    outcome = MatchOutcome(scores=state.scores(), terminal="", turns=state.turn, decisions={}, illegal={},
                           fallbacks={}, forfeited_by=None, history=history, duration_s=0.0)
    quality = c4_metrics.move_quality(game, outcome, 4)
    assert quality[0]["moves"] + quality[1]["moves"] == len(history)  # the book's four discs are nobody's moves
    assert quality[0]["top1_share"] == quality[1]["top1_share"] == 1.0  # the solver's moves from that position

    ttt = tictactoe.TicTacToe(openings="book")
    start = ttt.new_initial_state(2)
    (player,) = start.current_players()
    best = max(tictactoe.move_values(start.board).items(), key=lambda kv: kv[1])[0]
    outcome = MatchOutcome(scores=[0.5, 0.5], terminal="", turns=1, decisions={}, illegal={}, fallbacks={},
                           forfeited_by=None, history=[{player: str(best)}], duration_s=0.0)
    assert ttt_metrics.move_quality(ttt, outcome, 2)[player]["optimal_move_share"] == 1.0

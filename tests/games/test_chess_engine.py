"""Chess engine wrapper: SAN/UCI answers, outcomes, observations, random playouts."""

import random

import chess
import pytest
from stratbench.core.types import Action
from stratbench.games.spin.chess_game import ChessGame, board_svg, move_list_text, pgn_of


def _play(game: ChessGame, answers: list[str]):
    state = game.new_initial_state(0)
    for answer in answers:
        (player,) = state.current_players()
        canonical = game.canonical_action(state, player, answer)
        assert canonical is not None, answer
        state.apply({player: Action(canonical)})
    return state


def test_fools_mate_is_a_black_win_by_checkmate():
    state = _play(ChessGame(), ["f3", "e7e5", "g4", "Qh4#"])
    assert state.is_terminal()
    assert state.scores() == [0.0, 1.0]
    assert state.terminal_reason() == "Black wins by checkmate"
    assert state.history == [{0: "f3"}, {1: "e5"}, {0: "g4"}, {1: "Qh4#"}]
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []


def test_stalemate_and_insufficient_material_are_draws():
    game = ChessGame()
    stalemate = game.new_initial_state(0)
    stalemate.board = chess.Board("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1")
    assert stalemate.is_terminal() and stalemate.scores() == [0.5, 0.5]
    assert stalemate.terminal_reason() == "draw by stalemate"
    bare = game.new_initial_state(0)
    bare.board = chess.Board("8/8/8/4k3/8/8/3K4/8 w - - 0 1")
    assert bare.terminal_reason() == "draw by insufficient_material"


def test_threefold_repetition_is_not_claimed():
    shuffle = ["Nf3", "Nf6", "Ng1", "Ng8"] * 2 + ["Nf3"]
    state = _play(ChessGame(), shuffle)
    assert state.board.can_claim_threefold_repetition()
    assert not state.is_terminal()


def test_canonical_action_accepts_san_and_uci_and_returns_san():
    game = ChessGame()
    state = game.new_initial_state(0)
    assert game.canonical_action(state, 0, "e2e4") == "e4"
    assert game.canonical_action(state, 0, "Nf3") == "Nf3"
    assert game.canonical_action(state, 0, " g1f3 ") == "Nf3"
    assert game.canonical_action(state, 0, "e5") is None
    assert game.canonical_action(state, 0, "e2e5") is None
    assert game.canonical_action(state, 1, "e7e5") is None  # not Black's turn
    promotion = game.new_initial_state(0)
    promotion.board = chess.Board("8/4P3/8/8/8/k7/8/K7 w - - 0 1")
    assert game.canonical_action(promotion, 0, "e7e8q") == "e8=Q"
    assert game.canonical_action(promotion, 0, "e8=N") == "e8=N"
    castle = _play(game, ["e4", "e5", "Nf3", "Nc6", "Bc4", "Bc5"])
    assert game.canonical_action(castle, 0, "e1g1") == "O-O"
    assert game.canonical_action(castle, 0, "O-O") == "O-O"


def test_observation_gives_fen_board_history_and_san_moves_without_the_live_board():
    game = ChessGame()
    state = _play(game, ["e4", "e5"])
    observation = game.observe(state, 0)
    assert observation.role == "White"
    assert "FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2" in observation.text
    assert "Moves so far: 1. e4 e5" in observation.text
    assert "8 r n b q k b n r" in observation.text and "  a b c d e f g h" in observation.text
    assert "Nf3" in observation.legal_actions and "g1f3" not in observation.legal_actions
    assert list(observation.legal_actions) == sorted(observation.legal_actions)
    assert observation.data["moves"] == ["e2e4", "e7e5"]
    copy = observation.data["board"]
    assert copy is not state.board and copy.move_stack == []
    copy.push_san("Nf3")
    assert state.board.fen() == observation.data["fen"]


@pytest.mark.parametrize("seed", range(2))
def test_random_playouts_terminate_and_replay(seed):
    def playout():
        game = ChessGame()
        state = game.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            assert state.turn < game.info.max_turns
            (player,) = state.current_players()
            state.apply({player: Action(rng.choice(state.legal_actions(player)))})
        return state

    first, second = playout(), playout()
    assert first.history == second.history
    scores = first.scores()
    assert sum(scores) == 1.0 and all(s in (0.0, 0.5, 1.0) for s in scores)
    assert first.board.outcome(claim_draw=False) is not None


def test_move_list_pgn_and_svg_render_the_game():
    state = _play(ChessGame(), ["f3", "e5", "g4", "Qh4#"])
    assert move_list_text(state.board) == "1. f3 e5 2. g4 Qh4#"
    pgn = pgn_of(state.board, white="random", black="stockfish")
    assert '[White "random"]' in pgn and '[Result "0-1"]' in pgn and "2. g4 Qh4# 0-1" in pgn
    svg = board_svg(state.board.fen(), lastmove="d8h4")
    assert svg.startswith("<svg") and "</svg>" in svg

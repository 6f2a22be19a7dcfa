"""Tic-Tac-Toe engine: rules, exact values, property tests and a golden trace."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from stratbench.core.types import Action, IllegalActionError
from stratbench.games.spin.tictactoe import TicTacToe, move_values, position_value, winner


def random_playout(seed):
    game = TicTacToe()
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        (player,) = state.current_players()
        legal = state.legal_actions(player)
        assert legal == sorted(legal, key=int)
        state.apply({player: Action(rng.choice(legal))})
    return state


@settings(max_examples=200, deadline=None)
@given(st.integers(min_value=0, max_value=10**6))
def test_random_playouts_terminate_with_scores_summing_to_one(seed):
    state = random_playout(seed)
    assert state.turn <= TicTacToe.info.max_turns
    scores = state.scores()
    assert sum(scores) == 1.0 and all(0 <= s <= 1 for s in scores)
    assert state.current_players() == [] and state.legal_actions(0) == [] == state.legal_actions(1)


def test_a_seed_replays_the_same_game():
    assert random_playout(11).history == random_playout(11).history


def test_only_legal_moves_are_applied():
    state = TicTacToe().new_initial_state(0)
    state.apply({0: Action("4")})
    with pytest.raises(IllegalActionError):
        state.apply({1: Action("4")})  # occupied
    with pytest.raises(IllegalActionError):
        state.apply({0: Action("0")})  # not X's turn
    assert state.board == "....X...." and state.turn == 1


def test_exact_values():
    assert position_value("." * 9) == 0  # perfect play draws
    assert move_values("XX.OO....")[2] == 1  # X completes the row
    assert move_values("XO.......")[4] == 1  # known forced win for X in the centre
    # X in opposite corners, O in the centre: O must answer on an edge; a corner loses.
    assert move_values("X...O...X") == {1: 0, 2: -1, 3: 0, 5: 0, 6: -1, 7: 0}


def test_golden_trace_x_wins_on_the_diagonal():
    game = TicTacToe()
    state = game.new_initial_state(0)
    for player, cell in [(0, "4"), (1, "1"), (0, "0"), (1, "2"), (0, "8")]:
        state.apply({player: Action(cell)})
    assert state.board == "XOO.X...X"
    assert winner(state.board) == "X" and state.scores() == [1.0, 0.0]
    assert state.terminal_reason() == "X wins"
    assert state.history == [{0: "4"}, {1: "1"}, {0: "0"}, {1: "2"}, {0: "8"}]


def test_observation_shows_board_and_legal_cells_only():
    game = TicTacToe()
    state = game.new_initial_state(0)
    state.apply({0: Action("4")})
    obs = game.observe(state, 1)
    assert obs.legal_actions == ("0", "1", "2", "3", "5", "6", "7", "8")
    assert ". | . | .\n. | X | .\n. | . | ." in obs.text and obs.role == "O"
    assert obs.data == {"board": "....X...."}
    assert game.canonical_action(state, 1, " #5 ") == "5" and game.canonical_action(state, 1, "4") is None


def test_forfeit_gives_the_other_side_the_win():
    state = TicTacToe().new_initial_state(0)
    state.forfeit(1)
    assert state.is_terminal() and state.scores() == [1.0, 0.0]

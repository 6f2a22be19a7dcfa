"""Connect Four rules engine: properties of random playouts, golden games, notation helpers."""

import random

import pytest
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.spin.connect_four import (
    ConnectFour,
    from_pons,
    render,
    to_pons,
    winner_of,
)


def _random_playout(seed: int):
    game = ConnectFour()
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < game.info.max_turns
        (player,) = state.current_players()
        legal = state.legal_actions(player)
        assert legal == sorted(legal, key=int)
        state.apply({player: Action(rng.choice(legal))})
    return state


@pytest.mark.parametrize("seed", range(40))
def test_random_playouts_end_legally_with_scores_in_range(seed):
    state = _random_playout(seed)
    game = state.game
    assert state.turn <= game.info.max_turns
    assert state.current_players() == []
    assert state.legal_actions(0) == [] and state.legal_actions(1) == []
    scores = state.scores()
    assert all(game.info.score_range[0] <= s <= game.info.score_range[1] for s in scores)
    assert sum(scores) == pytest.approx(game.info.score_sum)
    # The engine's winner agrees with an independent replay of the move list.
    assert winner_of(state.moves) == state.winner
    if state.winner is None:
        assert len(state.moves) == 42 and scores == [0.5, 0.5]


def test_a_seed_replays_the_same_game():
    assert _random_playout(7).moves == _random_playout(7).moves
    assert _random_playout(7).moves != _random_playout(8).moves


def test_full_column_and_moves_after_the_end_are_illegal():
    game = ConnectFour()
    state = game.state_from_moves([0, 0, 0, 0, 0, 0])
    assert "0" not in state.legal_actions(0)
    with pytest.raises(IllegalActionError):
        state.apply({0: Action("0")})
    won = game.state_from_moves([3, 4, 3, 4, 3, 4, 3])
    assert won.is_terminal() and won.terminal_reason() == "X wins"
    with pytest.raises(IllegalActionError):
        won.apply({1: Action("4")})
    with pytest.raises(ValueError):
        game.state_from_moves([3, 4, 3, 4, 3, 4, 3, 4])


@pytest.mark.parametrize(
    ("moves", "winner"),
    [
        ([3, 4, 3, 4, 3, 4, 3], "X"),  # vertical
        ([0, 0, 1, 1, 2, 2, 3], "X"),  # horizontal along the bottom
        ([0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3], "X"),  # diagonal rising to the right
        ([6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3], "X"),  # diagonal rising to the left
        ([0, 3, 0, 4, 1, 5, 1, 6], "O"),  # O completes the bottom row 3-6
        ([0, 6, 0, 6, 1, 5, 2, 4], None),  # no four yet
    ],
)
def test_golden_games_end_as_checked_by_hand(moves, winner):
    state = ConnectFour().state_from_moves(moves)
    assert state.winner == winner
    assert state.is_terminal() == (winner is not None)
    if winner == "O":
        assert state.scores() == [0.0, 1.0]


def test_golden_trace_renders_the_grid_bottom_row_last():
    state = ConnectFour().state_from_moves(from_pons("4453"))
    assert str(state) == (
        "|. . . . . . .|\n"
        "|. . . . . . .|\n"
        "|. . . . . . .|\n"
        "|. . . . . . .|\n"
        "|. . . O . . .|\n"
        "|. . O X X . .|\n"
        " 0 1 2 3 4 5 6"
    )
    assert state.current_players() == [0]


def test_observation_shows_the_board_and_hides_nothing_live():
    game = ConnectFour()
    state = game.state_from_moves([3, 3, 2])
    observation = game.observe(state, 1)
    assert observation.legal_actions == tuple(str(c) for c in range(7))
    assert "You play O" in observation.text and "3, 3, 2" in observation.text
    assert observation.data["moves"] == [3, 3, 2]
    # The data is a copy: changing it cannot touch the state.
    observation.data["moves"].append(0)
    observation.data["board"][0][0] = "O"
    assert state.moves == [3, 3, 2] and state.grid[0][0] == "."


def test_canonical_action_reads_column_numbers():
    game = ConnectFour()
    state = game.new_initial_state(0)
    assert game.canonical_action(state, 0, " 4 ") == "4"
    assert game.canonical_action(state, 0, "column 2") == "2"
    assert game.canonical_action(state, 0, "7") is None
    assert game.canonical_action(state, 0, "x") is None


def test_pons_notation_round_trips():
    assert from_pons("4455") == [3, 3, 4, 4]
    assert to_pons(from_pons("44455554221")) == "44455554221"
    assert from_pons("") == []
    with pytest.raises(ValueError):
        from_pons("4085")
    assert render([["."] * 7 for _ in range(6)]).count("|") == 12

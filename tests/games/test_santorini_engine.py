"""Santorini engine: placement, move and build rules, alternating pawns, endings, playouts."""

from __future__ import annotations

import random

import pytest

from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.santorini import INFO, Santorini, SantoriniState, parse_square, square_name

GAME = Santorini()


def play(state: SantoriniState, *actions: str) -> None:
    for action in actions:
        (player,) = state.current_players()
        state.apply({player: Action(action)})


def placed(a="c3", x="c4", b="a1", y="e5") -> SantoriniState:
    state = GAME.new_initial_state(0)
    play(state, f"place A {a}", f"place X {x}", f"place B {b}", f"place Y {y}")
    return state


def set_levels(state: SantoriniState, **levels: int) -> None:
    for name, level in levels.items():
        column, row = parse_square(name)
        state.levels[row][column] = level


def random_playout(seed: int) -> SantoriniState:
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < INFO.max_turns
        (player,) = state.current_players()
        legal = state.legal_actions(player)
        assert legal == sorted(legal)
        state.apply({player: Action(rng.choice(legal))})
    return state


def test_squares_are_named_like_chess_squares():
    assert square_name((0, 0)) == "a1" and square_name((4, 4)) == "e5" and parse_square("c3") == (2, 2)
    with pytest.raises(ValueError):
        parse_square("f1")


def test_placement_phase_alternates_a_x_b_y_on_free_squares():
    state = GAME.new_initial_state(0)
    assert state.legal_actions(0) == [f"place A {c}{r}" for c in "abcde" for r in "12345"]
    play(state, "place A c3")
    assert state.current_players() == [1] and "place X c3" not in state.legal_actions(1)
    assert len(state.legal_actions(1)) == 24
    play(state, "place X c4")
    assert state.legal_actions(0)[0] == "place B a1"
    play(state, "place B a1", "place Y e5")
    assert state.current_players() == [0] and state.pawn_to_move(0) == "A"


def test_a_turn_moves_one_step_then_builds_next_to_the_moved_pawn():
    state = placed()
    legal = state.legal_actions(0)
    moves = sorted({" ".join(a.split()[:3]) for a in legal})
    assert moves == ["move A E", "move A NE", "move A NW", "move A S", "move A SE", "move A SW", "move A W"]
    builds = [a.split()[-1] for a in legal if a.startswith("move A NE build")]
    # From d4: e5 holds Y and c4 holds X; the vacated c3 is free.
    assert sorted(builds) == ["E", "N", "NW", "S", "SE", "SW"]
    play(state, "move A NE build SW")
    assert state.pawns["A"] == parse_square("d4") and state.levels[2][2] == 1


def test_pawns_climb_at_most_one_level_and_never_onto_domes():
    state = placed()
    set_levels(state, d3=2, d4=1, b3=4, b2=3)
    moves = {" ".join(a.split()[:3]) for a in state.legal_actions(0)}
    assert "move A NE" in moves  # up one level
    assert "move A E" not in moves and "move A SW" not in moves  # two levels up
    assert "move A W" not in moves  # a dome
    assert "move A S build W" in state.legal_actions(0)  # b2 is level 3: a dome may be built on it
    assert "move A S build NW" not in state.legal_actions(0)  # b3 is complete


def test_pawns_alternate_a_b_a_for_each_player():
    state = placed()
    play(state, "move A NE build SW")
    assert all(a.startswith("move X") for a in state.legal_actions(1))
    play(state, state.legal_actions(1)[0])
    assert all(a.startswith("move B") for a in state.legal_actions(0))
    play(state, state.legal_actions(0)[0])
    assert all(a.startswith("move Y") for a in state.legal_actions(1))
    play(state, state.legal_actions(1)[0])
    assert all(a.startswith("move A") for a in state.legal_actions(0))


def test_moving_onto_level_three_wins_at_once():
    state = placed()
    set_levels(state, c3=2, d3=3)
    assert "move A E" in state.legal_actions(0)
    assert not any(a.startswith("move A E build") for a in state.legal_actions(0))
    play(state, "move A E")
    assert state.is_terminal() and state.scores() == [1.0, 0.0]
    assert state.terminal_reason() == "player 1 reached level 3"
    assert state.legal_actions(0) == state.legal_actions(1) == []


def test_a_player_whose_pawn_cannot_move_loses_even_if_the_other_could():
    state = placed(a="a1", b="c3", x="e4", y="e5")
    set_levels(state, a2=4, b1=4, b2=4)
    assert state.is_terminal() and state.scores() == [0.0, 1.0]
    assert state.terminal_reason() == "player 1 cannot finish a turn"


def test_illegal_actions_are_rejected_and_leave_the_state_unchanged():
    state = placed()
    for bad in ("move A N build S", "move B N build S", "place A c3", "move A NE build NE"):
        with pytest.raises(IllegalActionError):
            state.apply({0: Action(bad)})
    assert state.turn == 4 and state.pawns["A"] == (2, 2)


def test_observation_shows_the_board_pawns_and_pawn_to_move():
    state = placed()
    set_levels(state, b2=2, e1=4)
    observation = GAME.observe(state, 0)
    assert "2." in observation.text and "4." in observation.text and "0A" in observation.text
    assert "Pawn X: c4, level 0" in observation.text
    assert "you must move pawn A" in observation.text
    assert observation.data["pawns"] == {"A": "c3", "B": "a1", "X": "c4", "Y": "e5"}
    assert observation.legal_actions == tuple(state.legal_actions(0))
    assert GAME.observe(state, 1).legal_actions == ()


def test_answers_in_gamebench_notation_are_canonicalised():
    state = placed()
    assert GAME.canonical_action(state, 0, "Move NE, build SW") == "move A NE build SW"
    assert GAME.canonical_action(state, 0, "move a ne build sw") == "move A NE build SW"
    assert GAME.canonical_action(state, 0, "move B NE build SW") is None


def test_golden_trace_a_climbs_a_staircase_and_wins():
    state = placed(a="b2", x="e5", b="a5", y="e4")
    play(
        state,
        "move A E build N", "move X W build W", "move B S build S", "move Y S build S",
        "move A N build E", "move X W build W", "move B S build N", "move Y N build N",
        "move A E build W", "move X E build E", "move B S build N", "move Y S build S",
        "move A W build E", "move X W build E", "move B S build N", "move Y SW build E",
        "move A E build W", "move X W build E", "move B N build S", "move Y S build N",
    )  # fmt: skip
    assert "move A W" in state.legal_actions(0)  # c3 is level 3, A stands on level 2
    assert not any(a.startswith("move A W build") for a in state.legal_actions(0))
    play(state, "move A W")
    assert state.is_terminal() and state.scores() == [1.0, 0.0] and state.turn == 25
    assert {square_name((c, r)): state.levels[r][c] for r in range(5) for c in range(5) if state.levels[r][c]} == {
        "a1": 1, "a2": 1, "a3": 2, "a4": 1, "b5": 1, "c3": 3, "c5": 2, "d2": 1, "d3": 2, "d5": 1, "e2": 3, "e5": 2,
    }
    assert {p: square_name(sq) for p, sq in state.pawns.items()} == {"A": "c3", "B": "a2", "X": "b5", "Y": "d1"}


def test_seeded_random_playouts_terminate_replay_and_score():
    for seed in range(5):
        state = random_playout(seed)
        assert state.scores() in ([1.0, 0.0], [0.0, 1.0])
        assert random_playout(seed).history == state.history


def test_one_hundred_random_matches_complete():
    reasons = set()
    for seed in range(100):
        state = random_playout(2000 + seed)
        assert state.turn <= INFO.max_turns and sum(state.scores()) == 1.0
        reasons.add(state.terminal_reason().split(" ", 2)[2])
    assert reasons == {"reached level 3", "cannot finish a turn"}

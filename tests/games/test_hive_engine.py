"""Hive engine: bug movement, placement, one-hive and sliding rules, endings, rendering, playouts."""

from __future__ import annotations

import io
import random

import pytest

from stratbench.core.runner import run_match
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.hive import INFO, Hive, HiveState, neighbours, parse_cell

GAME = Hive()


def position(pieces: dict[str, str], *, to_move: int = 0, hands: tuple[dict, dict] | None = None) -> HiveState:
    """Builds a mid-game position: ``{"0:0": "wQ", ...}``, empty hands unless given."""
    state = GAME.new_initial_state(0)
    state.board = {parse_cell(cell): ("wb".index(piece[0]), piece[1]) for cell, piece in pieces.items()}
    state.hands = [dict(h) for h in hands] if hands else [{b: 0 for b in "QSGA"}, {b: 0 for b in "QSGA"}]
    state.queens = [None, None]
    for cell, (owner, bug) in state.board.items():
        if bug == "Q":
            state.queens[owner] = cell
    state.turns_taken = [10, 10]
    state.turn = 20 + to_move
    return state


def play(state: HiveState, *actions: str) -> None:
    for action in actions:
        (player,) = state.current_players()
        state.apply({player: Action(action)})


def random_playout(seed: int) -> HiveState:
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < INFO.max_turns
        (player,) = state.current_players()
        legal = state.legal_actions(player)
        assert legal == sorted(legal)
        state.apply({player: Action(rng.choice(legal))})
    return state


# -- golden positions: each bug's exact moves ---------------------------------------------------


def test_grasshopper_jumps_a_line_to_the_first_empty_cell():
    state = position({"-1:0": "wG", "0:0": "wQ", "1:0": "bQ", "2:0": "bS"})
    # The White Queen holds the hive together (one-hive rule), so only the Grasshopper moves.
    assert state.legal_actions(0) == ["move G -1:0 to 3:0"]


def test_queen_slides_one_space_but_not_through_a_gate():
    # Five Black pieces ring the empty cell 1:0; the Queen's slide east is a gate.
    state = position({"0:0": "wQ", "1:-1": "bA", "2:-1": "bG", "2:0": "bQ", "1:1": "bS", "0:1": "bA"})
    assert state.legal_actions(0) == ["move Q 0:0 to -1:1", "move Q 0:0 to 0:-1"]


def test_spider_moves_exactly_three_spaces_around_the_hive():
    state = position({"-1:0": "wS", "0:0": "wQ", "1:0": "bQ"})
    assert state.legal_actions(0) == ["move S -1:0 to 1:1", "move S -1:0 to 2:-1"]


def test_ant_reaches_every_outside_cell_but_not_an_enclosed_one():
    pieces = {"0:0": "wA", "1:-1": "bA", "2:-1": "bG", "2:0": "bQ", "1:1": "bS", "0:1": "bA", "3:-1": "wQ"}
    state = position(pieces)
    ant = {action.split(" to ")[1] for action in state.legal_actions(0) if action.startswith("move A")}
    others = {parse_cell(c) for c in pieces if c != "0:0"}
    outside = {n for c in others for n in neighbours(c) if n not in others} - {(1, 0), (0, 0)}
    assert ant == {f"{q}:{r}" for q, r in outside}
    assert "1:0" not in ant and "4:-2" in ant


def test_a_piece_that_holds_the_hive_together_cannot_move():
    state = position({"-1:0": "bQ", "0:0": "wQ", "1:0": "bA"})
    assert state.legal_actions(0) == ["pass"]
    play(state, "pass")
    assert state.current_players() == [1] and len(state.board) == 3 and state.turns_taken[0] == 11


# -- placement and the Queen deadline ----------------------------------------------------------


def test_placement_rules_of_the_opening():
    state = GAME.new_initial_state(0)
    assert state.legal_actions(0) == ["place A at 0:0", "place G at 0:0", "place Q at 0:0", "place S at 0:0"]
    play(state, "place G at 0:0")
    assert len(state.legal_actions(1)) == 4 * 6  # any bug next to the first piece
    play(state, "place G at 1:0")
    cells = {a.split(" at ")[1] for a in state.legal_actions(0)}
    assert cells == {"0:-1", "-1:0", "-1:1"}  # touching White only
    assert not any(a.startswith("move") for a in state.legal_actions(0))


def test_queen_must_be_placed_by_the_fourth_turn_and_nothing_moves_before():
    state = GAME.new_initial_state(0)
    play(state, "place G at 0:0", "place G at 1:0", "place A at -1:0", "place A at 2:0", "place S at -2:0")
    play(state, "place S at 3:0")
    legal = state.legal_actions(0)
    assert legal and all(a.startswith("place Q at ") for a in legal)
    assert GAME.observe(state, 0).legal_actions == tuple(legal)
    assert "fourth turn" in GAME.observe(state, 0).text
    play(state, "place Q at -3:0")
    assert any(a.startswith("move") for a in state.legal_actions(1)) is False  # Black has no Queen yet


def test_illegal_actions_are_rejected_and_leave_the_state_unchanged():
    state = GAME.new_initial_state(0)
    play(state, "place Q at 0:0")
    for bad in ("place Q at 5:5", "move Q 0:0 to 1:0", "pass"):
        with pytest.raises(IllegalActionError):
            state.apply({1: Action(bad)})
    assert state.turn == 1 and list(state.board) == [(0, 0)]


# -- endings -------------------------------------------------------------------------------------


def test_surrounding_the_enemy_queen_wins():
    pieces = {"0:0": "bQ", "1:0": "wA", "1:-1": "wG", "0:-1": "wS", "-1:0": "bA", "-1:1": "bG"}
    state = position({**pieces, "2:-1": "wQ", "3:-1": "wA"})
    assert "move A 3:-1 to 0:1" in state.legal_actions(0)
    play(state, "move A 3:-1 to 0:1")
    assert state.is_terminal() and state.scores() == [1.0, 0.0]
    assert state.terminal_reason() == "Black Queen surrounded"
    assert state.legal_actions(0) == state.legal_actions(1) == []


def test_surrounding_both_queens_at_once_is_a_draw():
    white = {"0:0": "wQ", "1:-1": "wS", "0:-1": "wS", "-1:0": "wA", "0:3": "wG"}
    black = {"1:0": "bQ", "-1:1": "bA", "2:0": "bA", "2:-1": "bG", "1:1": "bG", "0:2": "bS"}
    state = position({**white, **black})
    play(state, "move G 0:3 to 0:1")
    assert state.surrounded() == [True, True]
    assert state.scores() == [0.5, 0.5] and state.terminal_reason() == "both Queens surrounded: draw"


def test_the_turn_limit_is_a_draw():
    state = position({"-1:0": "bQ", "0:0": "wQ", "1:0": "bA"}, to_move=1)
    state.turn = INFO.max_turns - 1
    assert not state.is_terminal()
    (action,) = [a for a in state.legal_actions(1) if a.startswith("move Q")][:1]
    play(state, action)
    assert state.is_terminal() and state.scores() == [0.5, 0.5]
    assert state.terminal_reason().startswith("turn limit")


def test_a_shorter_turn_limit_ends_random_play_early_as_a_draw_and_shows_in_the_prompt():
    game = Hive(max_turns_per_player=3)
    assert game.info.max_turns == 6 and INFO.max_turns == 500
    state = game.new_initial_state(0)
    assert "Turn 1 of 3 for you." in game.observe(state, 0).text
    rng = random.Random(4)
    while not state.is_terminal():
        (player,) = state.current_players()
        play(state, rng.choice(state.legal_actions(player)))
    assert state.turn == 6 and state.scores() == [0.5, 0.5]
    assert state.terminal_reason() == "turn limit (3 turns per player): draw"
    with pytest.raises(ValueError, match="max_turns_per_player"):
        Hive(max_turns_per_player=0)


# -- observation: text, image, answers ----------------------------------------------------------


def test_observation_text_lists_every_piece_with_its_cell():
    state = random_prefix(7, 30)
    observation = GAME.observe(state, state.current_players()[0])
    for (q, r), (owner, bug) in state.board.items():
        assert f"{('White', 'Black')[owner]} " in observation.text and f" at {q}:{r}" in observation.text
        assert f"{'wb'[owner]}{bug} {q}:{r}" in observation.text  # on the map
    assert len(observation.data["pieces"]) == len(state.board)
    assert observation.legal_actions == tuple(state.legal_actions(observation.player))


def test_observation_png_is_valid_and_deterministic():
    from PIL import Image

    first = GAME.observe(random_prefix(3, 40), 0).image_png
    again = GAME.observe(random_prefix(3, 40), 0).image_png
    assert first is not None and first.startswith(b"\x89PNG\r\n\x1a\n")
    assert first == again
    image = Image.open(io.BytesIO(first))
    image.verify()
    assert GAME.observe(random_prefix(3, 41), 1).image_png != first


def test_answers_in_other_notations_are_canonicalised():
    state = GAME.new_initial_state(0)
    play(state, "place Q at 0:0")
    assert GAME.canonical_action(state, 1, "place  s at (1, 0)") == "place S at 1:0"
    assert GAME.canonical_action(state, 1, "Place Spider 1,0") == "place S at 1:0"
    assert GAME.canonical_action(state, 1, "place S at 2:0") is None
    state = position({"-1:0": "wG", "0:0": "wQ", "1:0": "bQ", "2:0": "bS"})
    assert GAME.canonical_action(state, 0, "move -1:0 to 3:0") == "move G -1:0 to 3:0"
    assert GAME.canonical_action(state, 0, "Move grasshopper (-1, 0) -> (3, 0)") == "move G -1:0 to 3:0"
    assert GAME.canonical_action(state, 0, "move 0:0 to 3:0") is None


def random_prefix(seed: int, turns: int) -> HiveState:
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(turns):
        (player,) = state.current_players()
        state.apply({player: Action(rng.choice(state.legal_actions(player)))})
    return state


# -- property tests ------------------------------------------------------------------------------


def test_move_generation_matches_a_brute_force_reference():
    for seed in range(2):
        state = GAME.new_initial_state(seed)
        rng = random.Random(seed)
        while not state.is_terminal() and state.turn < 200:
            (player,) = state.current_players()
            if state.turn % 3 == 0 and state.queens[player] is not None:
                assert sorted(state.moves(player)) == sorted(reference_moves(state.board, player))
            state.apply({player: Action(rng.choice(state.legal_actions(player)))})


def test_seeded_random_playouts_terminate_replay_and_score():
    for seed in range(3):
        state = random_playout(seed)
        assert state.turn <= INFO.max_turns
        scores = state.scores()
        assert sum(scores) == 1.0 and all(s in (0.0, 0.5, 1.0) for s in scores)
        assert state.legal_actions(0) == state.legal_actions(1) == []
        assert random_playout(seed).history == state.history


@pytest.mark.slow  # about 4 s of CPU: most random matches run to the 500-turn limit
def test_one_hundred_random_matches_complete():
    endings = {"surrounded": 0, "limit": 0}
    for seed in range(100):
        state = random_playout(1000 + seed)
        assert sum(state.scores()) == 1.0
        endings["limit" if state.terminal_reason().startswith("turn limit") else "surrounded"] += 1
    assert endings["limit"] > 0 and endings["surrounded"] > 0


def test_a_match_runs_through_the_runner_with_random_agents():
    import asyncio

    from stratbench.agents.random_agent import RandomAgent
    from stratbench.core.agent import AgentContext, AgentSpec
    from stratbench.core.transcript import Transcript

    state = GAME.new_initial_state(5)
    state.turn = INFO.max_turns - 40  # a short tail of a match: observations render every turn
    transcript = Transcript()
    agents = {
        p: RandomAgent(AgentContext(AgentSpec("random"), GAME, p, p, random.Random(p), transcript))
        for p in (0, 1)
    }
    outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(0), transcript=transcript))
    assert outcome.turns == INFO.max_turns and outcome.scores == [0.5, 0.5]
    observations = [e for e in transcript.to_list() if e["kind"] == "observation"]
    assert len(observations) == 40 and all(e["has_image"] for e in observations)


# -- an independent, slow reference for move generation ------------------------------------------


def reference_moves(board, player):
    """Moves by the rules' wording: connectivity by flood fill, slides checked one by one."""
    moves = []
    for start, (owner, bug) in board.items():
        if owner != player:
            continue
        rest = set(board) - {start}
        if not connected(rest):
            continue
        for end in reference_destinations(start, bug, rest):
            moves.append((start, end))
    return moves


def connected(cells):
    cells = set(cells)
    if not cells:
        return True
    seen, todo = set(), [next(iter(cells))]
    while todo:
        cell = todo.pop()
        if cell in seen:
            continue
        seen.add(cell)
        todo.extend(n for n in neighbours(cell) if n in cells)
    return seen == cells


def slide_ok(a, b, occupied):
    common = [n for n in neighbours(a) if n in neighbours(b)]
    assert len(common) == 2
    return b not in occupied and sum(c in occupied for c in common) == 1


def reference_destinations(start, bug, occupied):
    def steps(cell):
        return [n for n in neighbours(cell) if slide_ok(cell, n, occupied)]

    if bug == "Q":
        return set(steps(start))
    if bug == "G":
        ends = set()
        for n in neighbours(start):
            if n in occupied:
                dq, dr = n[0] - start[0], n[1] - start[1]
                cell = n
                while cell in occupied:
                    cell = (cell[0] + dq, cell[1] + dr)
                ends.add(cell)
        return ends
    if bug == "S":
        ends = set()

        def walk(path):
            if len(path) == 4:
                ends.add(path[-1])
                return
            for n in steps(path[-1]):
                if n not in path:
                    walk(path + [n])

        walk([start])
        return ends - {start}
    seen, todo = {start}, [start]
    while todo:
        for n in steps(todo.pop()):
            if n not in seen:
                seen.add(n)
                todo.append(n)
    return seen - {start}

"""Sea Battle engine: property tests, simultaneous resolution, hidden damage, golden scenarios."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.sea_battle import ACTIONS, ROUND_CAP, SIZE, SeaBattle, Ship

GAME = SeaBattle()


def playout(seed, game=GAME):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < game.info.max_turns
        players = state.current_players()
        assert players == [p for p, s in enumerate(state.ships) if s.alive]
        joint = {}
        for player in players:
            legal = state.legal_actions(player)
            assert legal == list(ACTIONS)
            joint[player] = Action(rng.choice(legal))
        state.apply(joint)
    return state


def setup(ships, rocks=()):
    """Builds a board with the given interior rocks and ships ``(row, col, heading)`` or None (sunk)."""
    state = GAME.new_initial_state(0)
    state.rocks = frozenset(rocks)
    state.ships = []
    for spec in ships:
        ship = Ship((0, 0), "N") if spec is None else Ship(spec[:2], spec[2])
        ship.alive = spec is not None
        state.ships.append(ship)
    return state


def act(state, **moves):
    """Plays one round: ``p0="move forward then shoot left"``; live ships not named stay and shoot left."""
    joint = {p: Action(moves.get(f"p{p}", "stay then shoot left")) for p in state.current_players()}
    state.apply(joint)
    return state


def where(state):
    return [(s.position, s.heading, s.damage) for s in state.ships]


# -- properties -----------------------------------------------------------------


def test_the_eight_actions_are_moves_then_shots_and_contain_no_commas():
    assert len(ACTIONS) == 8 and list(ACTIONS) == sorted(ACTIONS)
    assert all("," not in a and " then shoot " in a for a in ACTIONS)


def test_setup_has_a_rock_border_fourteen_interior_rocks_and_six_ships_on_free_squares():
    for seed in range(20):
        state = GAME.new_initial_state(seed)
        assert len(state.rocks) == 14 and all(0 < r < SIZE - 1 and 0 < c < SIZE - 1 for r, c in state.rocks)
        squares = [s.position for s in state.ships]
        assert len(set(squares)) == 6 and not any(state.is_rock(q) for q in squares)
        assert all(state.is_rock((0, i)) and state.is_rock((i, SIZE - 1)) for i in range(SIZE))
        assert state.current_players() == [0, 1, 2, 3, 4, 5]
    assert where(GAME.new_initial_state(1)) != where(GAME.new_initial_state(2))


def test_random_playouts_terminate_with_scores_summing_to_one():
    for seed in range(20):
        state = playout(seed)
        assert state.turn <= ROUND_CAP
        scores = state.scores()
        assert sum(scores) == 1.0 and scores in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
        assert state.current_players() == [] and all(state.legal_actions(p) == [] for p in range(6))
        red, blue = (any(s.alive for s in state.ships[i : i + 3]) for i in (0, 3))
        assert scores == ([1.0, 0.0] if red and not blue else [0.0, 1.0] if blue and not red else [0.5, 0.5])


def test_a_seed_replays_the_same_game():
    first, again = playout(5), playout(5)
    assert first.history == again.history and where(first) == where(again)


def test_one_hundred_seeded_random_matches_complete():
    states = [playout(seed) for seed in range(100)]
    assert all(s.is_terminal() for s in states)
    assert sum(s.terminal_reason().endswith("all enemy ships sunk") for s in states) > 50


def test_the_round_cap_ends_the_match_as_a_draw():
    game = SeaBattle(max_rounds=3)
    state = playout(0, game)
    assert state.turn == 3 and state.scores() == [0.5, 0.5] and "round cap (3)" in state.terminal_reason()


def test_every_live_ship_must_act_and_only_with_a_legal_action():
    state = GAME.new_initial_state(0)
    with pytest.raises(IllegalActionError):
        state.apply({p: Action(ACTIONS[0]) for p in range(5)})
    with pytest.raises(IllegalActionError):
        state.apply({**{p: Action(ACTIONS[0]) for p in range(5)}, 5: Action("fire everything")})
    assert state.turn == 0


def test_random_agents_complete_a_match_through_the_runner():
    state = GAME.new_initial_state(2)
    agents = {
        p: RandomAgent(AgentContext(AgentSpec("random"), GAME, p, p // 3, random.Random(p), Transcript()))
        for p in range(6)
    }
    outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(2), rules=MatchRules(3, "random")))
    assert sum(outcome.scores) == 1.0 and all(len(joint) >= 2 for joint in outcome.history)


# -- hidden information -------------------------------------------------------------


def test_a_ship_sees_positions_and_headings_but_only_its_own_damage():
    state = GAME.new_initial_state(4)
    for _ in range(3):
        act(state)
    for viewer in range(6):
        clone = state.clone()
        for p, ship in enumerate(clone.ships):
            if p != viewer:
                ship.damage += 7
        seen, again = GAME.observe(state, viewer), GAME.observe(clone, viewer)
        assert (seen.text, seen.data) == (again.text, again.data)
    clone = state.clone()
    clone.ships[0].damage += 3
    assert GAME.observe(clone, 0).data["damage"] == GAME.observe(state, 0).data["damage"] + 3
    data = GAME.observe(state, 1).data
    assert data["you"] == "Red 2" and [s["name"] for s in data["teammates"]] == ["Red 1", "Red 3"]
    assert [s["name"] for s in data["opponents"]] == ["Blue 1", "Blue 2", "Blue 3"]


# -- golden scenarios (hand-checked) -----------------------------------------------------


def test_moves_forward_left_and_right_sail_two_squares_around_a_corner():
    state = setup([(10, 10, "N"), (10, 14, "N"), (10, 18, "E"), (20, 5, "S"), (20, 9, "W"), (20, 13, "S")])
    act(state, p0="move forward then shoot left", p1="move left then shoot left", p2="move right then shoot left")
    assert where(state)[:3] == [((9, 10), "N", 0), ((9, 13), "W", 0), ((11, 19), "S", 0)]


def test_sailing_into_a_rock_costs_one_and_the_ship_still_turns():
    state = setup([(1, 5, "N"), (5, 5, "E"), (9, 9, "N"), (20, 5, "S"), (20, 9, "W"), (20, 13, "S")], rocks=[(5, 6)])
    act(state, p0="move forward then shoot left", p1="move left then shoot left")
    assert where(state)[:2] == [((1, 5), "N", 1), ((4, 5), "N", 1)]


def test_ships_claiming_the_same_square_or_meeting_head_on_collide_and_stay():
    state = setup([(5, 5, "E"), (5, 7, "W"), (10, 5, "E"), (10, 6, "W"), (20, 5, "S"), (20, 9, "W")])
    act(state, p0="move forward then shoot left", p1="move forward then shoot left",
        p2="move forward then shoot left", p3="move forward then shoot left")
    assert [(s.position, s.damage) for s in state.ships[:4]] == [((5, 5), 1), ((5, 7), 1), ((10, 5), 1), ((10, 6), 1)]


def test_ramming_a_ship_that_stays_damages_both_and_a_ship_may_follow_another():
    state = setup([(5, 5, "E"), (5, 6, "S"), (10, 5, "E"), (10, 6, "E"), (20, 5, "S"), (20, 9, "W")])
    act(state, p0="move forward then shoot left", p2="move forward then shoot left", p3="move forward then shoot left")
    assert [(s.position, s.damage) for s in state.ships[:4]] == [((5, 5), 1), ((5, 6), 1), ((10, 6), 0), ((10, 7), 0)]


def test_cannons_fire_sideways_after_moving_up_to_three_squares_and_stop_at_rocks():
    # Red 1 heads N at (10,10): left is W. Blue 1 three squares W is hit; Red 2's shot E stops at a rock.
    state = setup(
        [(10, 10, "N"), (15, 10, "N"), (2, 2, "S"), (10, 7, "N"), (15, 14, "N"), (20, 20, "N")],
        rocks=[(15, 12)],
    )
    act(state, p0="stay then shoot left", p1="stay then shoot right", p2="stay then shoot right",
        p3="stay then shoot right", p4="stay then shoot right", p5="stay then shoot right")
    # Blue 1 (10,7) shoots E (right of N): Red 1 three squares away is hit too; Blue 2 (15,14) E: (15,15..17) empty.
    assert [s.damage for s in state.ships] == [2, 0, 0, 2, 0, 0]
    # Red 1 sails to (9,10) and fires E into its own teammate Red 2; Red 2 fires W at Red 1's new square.
    state = setup([(10, 10, "N"), (9, 12, "N"), (2, 2, "S"), (20, 5, "S"), (20, 9, "W"), (20, 13, "S")])
    act(state, p0="move forward then shoot right")
    assert [s.damage for s in state.ships] == [2, 2, 0, 0, 0, 0]


def test_ships_sink_at_ten_damage_at_the_end_of_the_round_and_the_last_team_afloat_wins():
    state = setup([(10, 10, "N"), None, None, (10, 12, "N"), None, None])
    state.ships[0].damage = 8
    state.ships[3].damage = 8
    act(state, p0="stay then shoot right", p3="stay then shoot left")  # they hit each other: both sink
    assert state.is_terminal() and state.scores() == [0.5, 0.5] and "same round" in state.terminal_reason()
    state = setup([(10, 10, "N"), (15, 15, "N"), None, (10, 12, "N"), None, None])
    state.ships[3].damage = 8
    act(state, p0="stay then shoot right", p3="stay then shoot right")
    assert state.current_players() == [] and state.scores() == [1.0, 0.0] and state.terminal_reason().startswith("Red")
    state = setup([(10, 10, "N"), (15, 15, "N"), None, (10, 12, "N"), (3, 3, "N"), None])
    state.ships[0].damage = 9
    act(state, p0="stay then shoot right", p3="stay then shoot left")
    assert state.current_players() == [1, 3, 4] and not state.is_terminal()
    assert GAME.observe(state, 3).data["opponents"][0] == {"name": "Red 1", "position": [10, 10], "heading": "N",
                                                            "alive": False}


def test_observation_text_names_the_ship_its_damage_and_draws_the_map():
    state = setup([(10, 10, "N"), (15, 10, "N"), (2, 2, "S"), (10, 7, "N"), (15, 14, "N"), (20, 20, "N")])
    state.ships[4].damage = 3
    text = GAME.observe(state, 4).text
    assert "You are Blue 2 of the Blue team" in text and "damage 3 (you sink at 10)" in text
    row = next(line for line in text.splitlines() if line.startswith("15 "))
    assert row[3 + 3 * 10 : 6 + 3 * 10] == " R2" and row[3 + 3 * 14 : 6 + 3 * 14] == " B2"

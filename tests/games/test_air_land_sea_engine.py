"""Air, Land and Sea engine: property tests, hidden information, abilities and golden traces."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.air_land_sea import CARDS, DECISION_CAP, AirLandSea, withdrawal_points

GAME = AirLandSea()
ID = {card.label: card.id for card in CARDS}


def playout(seed, check=None):
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < GAME.info.max_turns
        (player,) = state.current_players()
        legal = state.legal_actions(player)
        assert legal == sorted(legal) and len(set(legal)) == len(legal)
        if check is not None:
            check(state, player)
        state.apply({player: Action(rng.choice(legal))})
    return state


def setup(hands, *, first=0, lineup=("Air", "Land", "Sea"), board=()):
    """Builds a battle with the given hands (card labels) and cards on the board."""
    state = GAME.new_initial_state(0)
    state.first = state.regular = state.to_move = first
    state.lineup = list(lineup)
    state.hands = [[ID[label] for label in hand] for hand in hands]
    placed = {ID[label] for _, _, label, _ in board}
    used = {c for hand in state.hands for c in hand} | placed
    state.deck = [c.id for c in CARDS if c.id not in used]
    state.board = {t: [[], []] for t in ("Air", "Land", "Sea")}
    for player, theater, label, face_up in board:
        state.board[theater][player].append([ID[label], face_up])
    state.log = []
    return state


def play(state, *actions):
    for text in actions:
        (player,) = state.current_players()
        state.apply({player: Action(text)})
    return state


# -- properties -----------------------------------------------------------------


def test_random_playouts_terminate_legally_with_vp_share_scores():
    for seed in range(30):
        state = playout(seed)
        assert state.turn <= DECISION_CAP
        scores = state.scores()
        assert abs(sum(scores) - 1.0) < 1e-12 and all(0.0 <= s <= 1.0 for s in scores)
        assert max(state.vp) >= 12 and scores == [v / sum(state.vp) for v in state.vp]
        assert state.current_players() == [] and state.legal_actions(0) == state.legal_actions(1) == []


def test_a_seed_replays_the_same_game_and_seeds_differ():
    assert playout(7).history == playout(7).history
    assert playout(7).history != playout(8).history


def test_illegal_actions_are_rejected_and_leave_the_state_unchanged():
    state = GAME.new_initial_state(3)
    (player,) = state.current_players()
    before = (state.hands, state.board, state.turn)
    not_mine = next(c for c in CARDS if c.id not in state.hands[player])
    for text in (f"deploy {not_mine.label} to Air", "pass", "withdraw now"):
        with pytest.raises(IllegalActionError):
            state.apply({player: Action(text)})
    with pytest.raises(IllegalActionError):
        state.apply({1 - player: Action("withdraw")})
    assert (state.hands, state.board, state.turn) == before


def test_one_hundred_seeded_random_matches_complete():
    finished = [playout(seed) for seed in range(100)]
    assert all(s.is_terminal() and s.terminal_reason().endswith("VP") for s in finished)


def test_random_agents_complete_matches_through_the_runner():
    for seed in range(3):
        state = GAME.new_initial_state(seed)
        agents = {
            p: RandomAgent(AgentContext(AgentSpec("random"), GAME, p, p, random.Random(seed * 2 + p), Transcript()))
            for p in (0, 1)
        }
        outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(seed), rules=MatchRules(3, "random")))
        assert abs(sum(outcome.scores) - 1.0) < 1e-12 and outcome.fallbacks == {0: 0, 1: 0}


# -- hidden information -------------------------------------------------------------


def _swap_hidden(state, viewer, rng):
    """Returns a copy where the opponent's hand and facedown cards trade identities with deck cards."""
    clone = state.clone()
    other = 1 - viewer

    def swap(old):
        if not clone.deck:
            return old
        i = rng.randrange(len(clone.deck))
        new, clone.deck[i] = clone.deck[i], old
        return new

    clone.hands[other] = [swap(c) for c in clone.hands[other]]
    for stacks in clone.board.values():
        for entry in stacks[other]:
            if not entry[1]:
                entry[0] = swap(entry[0])
    return clone


def test_observations_never_reveal_the_opponents_hand_or_facedown_cards():
    rng = random.Random(0)
    varied = 0

    def check(state, player):
        nonlocal varied
        for viewer in (0, 1):
            clone = _swap_hidden(state, viewer, rng)
            varied += (clone.hands, clone.board) != (state.hands, state.board)
            seen, again = GAME.observe(state, viewer), GAME.observe(clone, viewer)
            assert (seen.text, seen.data, seen.legal_actions) == (again.text, again.data, again.legal_actions)

    for seed in range(4):
        playout(seed, check)
    assert varied > 100


def test_own_facedown_cards_are_visible_to_their_owner_only():
    state = setup([["Heavy Tanks (Land 6)"], ["Support (Air 1)"]])
    play(state, "improvise Heavy Tanks (Land 6) to Sea")
    mine, theirs = GAME.observe(state, 0), GAME.observe(state, 1)
    assert mine.data["theaters"]["Sea"]["you"][0]["card"] == "Heavy Tanks (Land 6)"
    assert theirs.data["theaters"]["Sea"]["opponent"][0] == {"card": None, "face_up": False, "strength": 2}
    assert "Heavy Tanks" not in theirs.text and "Heavy Tanks" in mine.text
    assert theirs.data["opponent_hand"] == 0 and "Support (Air 1)" in theirs.text


# -- rules and abilities: hand-checked scenarios ------------------------------------------


def test_withdrawal_tables_follow_the_supreme_commander_cards():
    first = [withdrawal_points(True, n) for n in range(7)]
    second = [withdrawal_points(False, n) for n in range(7)]
    assert first == [6, 6, 4, 3, 3, 2, 2]
    assert second == [6, 4, 3, 3, 2, 2, 2]


def test_golden_battle_of_facedown_cards_then_withdrawal_and_new_battle_setup():
    p0 = ["Heavy Bombers (Air 6)", "Support (Air 1)", "Heavy Tanks (Land 6)", "Ambush (Land 2)",
          "Super Battleship (Sea 6)", "Escalation (Sea 2)"]
    p1 = ["Air Drop (Air 2)", "Maneuver (Air 3)", "Aerodrome (Air 4)", "Reinforce (Land 1)",
          "Maneuver (Land 3)", "Cover Fire (Land 4)"]
    state = setup([p0, p1], first=0)
    moves = []
    for i in range(6):
        moves.append(f"improvise {p0[i]} to {('Air', 'Land', 'Sea')[i // 2]}")
        moves.append(f"improvise {p1[i]} to {('Air', 'Land')[i // 3]}")
    play(state, *moves[:-1])
    assert [state.strength(0, t) for t in ("Air", "Land", "Sea")] == [4, 4, 4]
    assert [state.strength(1, t) for t in ("Air", "Land", "Sea")] == [6, 4, 0]
    assert [state.controller(t) for t in ("Air", "Land", "Sea")] == [1, 0, 0]  # the 1st Player wins the Land tie
    play(state, moves[-1])  # Land becomes 6 vs 4: Player B controls Air and Land
    assert state.vp == [0, 6] and state.battle == 2
    assert state.lineup == ["Sea", "Air", "Land"] and state.first == 1 and state.current_players() == [1]
    assert sorted(len(h) for h in state.hands) == [6, 6] and len(state.deck) == 6
    assert sorted(state.hands[0] + state.hands[1] + state.deck) == list(range(18))
    play(state, "withdraw")  # the 1st Player withdraws with 6 cards: the 2nd Player gains 2
    assert state.vp == [2, 6] and state.battle == 3 and state.first == 0


def test_the_game_ends_at_twelve_vp_with_vp_share_scores():
    state = setup([["Support (Air 1)"], ["Maneuver (Sea 3)"]], first=1)
    state.vp = [9, 11]
    play(state, "withdraw")  # Player B (1st) withdraws with 1 card: Player A (2nd) gains 4
    assert state.is_terminal() and state.vp == [13, 11]
    assert state.scores() == [13 / 24, 11 / 24] and state.terminal_reason() == "Player A reaches 13 VP"


def test_deploy_is_restricted_to_the_matching_theater():
    state = setup([["Heavy Tanks (Land 6)"], ["Support (Air 1)"]])
    legal = state.legal_actions(0)
    assert [a for a in legal if a.startswith("deploy")] == ["deploy Heavy Tanks (Land 6) to Land"]
    assert len([a for a in legal if a.startswith("improvise")]) == 3 and "withdraw" in legal


def test_support_escalation_and_cover_fire_strengths():
    board = [
        (0, "Air", "Support (Air 1)", True),
        (0, "Land", "Heavy Tanks (Land 6)", False),
        (0, "Sea", "Escalation (Sea 2)", True),
        (1, "Land", "Ambush (Land 2)", True),
        (1, "Land", "Transport (Sea 1)", False),
        (1, "Land", "Cover Fire (Land 4)", True),
    ]
    state = setup([["Maneuver (Air 3)"], ["Disrupt (Land 5)"]], board=board)
    assert state.card_strengths(0, "Land") == [4]  # facedown, Escalation
    assert state.strength(0, "Land") == 7  # + Support next door
    assert state.strength(0, "Sea") == 2 and state.strength(0, "Air") == 1  # Sea is not adjacent to Air
    assert state.card_strengths(1, "Land") == [4, 4, 4]  # both covered by Cover Fire
    assert state.controller("Land") == 1


def test_containment_destroys_facedown_plays_to_the_bottom_of_the_deck():
    board = [(1, "Air", "Containment (Air 5)", True)]
    state = setup([["Heavy Tanks (Land 6)", "Ambush (Land 2)"], ["Support (Air 1)"]], board=board)
    play(state, "improvise Heavy Tanks (Land 6) to Sea")
    assert state.board["Sea"][0] == [] and state.deck[-1] == ID["Heavy Tanks (Land 6)"]
    assert "Containment destroys it" in GAME.observe(state, 1).text


def test_blockade_destroys_a_card_played_to_a_crowded_adjacent_theater_without_its_ability():
    board = [
        (1, "Sea", "Blockade (Sea 5)", True),
        (0, "Land", "Heavy Tanks (Land 6)", True),
        (1, "Land", "Cover Fire (Land 4)", True),
        (1, "Land", "Reinforce (Land 1)", False),
    ]
    state = setup([["Ambush (Land 2)", "Support (Air 1)"], ["Air Drop (Air 2)"]], board=board)
    play(state, "deploy Ambush (Land 2) to Land")
    assert [e[0] for e in state.board["Land"][0]] == [ID["Heavy Tanks (Land 6)"]]
    assert state.decision is None and state.current_players() == [1]  # no Ambush choice


def test_maneuver_flips_an_uncovered_card_in_an_adjacent_theater_and_triggers_instants():
    board = [
        (0, "Land", "Heavy Tanks (Land 6)", True),
        (1, "Land", "Support (Air 1)", True),
        (1, "Sea", "Transport (Sea 1)", True),
        (1, "Land", "Air Drop (Air 2)", False),
    ]
    state = setup([["Maneuver (Air 3)", "Ambush (Land 2)"], ["Escalation (Sea 2)"]], board=board)
    play(state, "deploy Maneuver (Air 3) to Air")
    assert state.current_players() == [0]
    assert state.legal_actions(0) == ["flip opponent card in Land", "flip your card in Land"]
    play(state, "flip opponent card in Land")  # Air Drop turns face up: Player B may deploy anywhere next turn
    assert state.board["Land"][1][-1] == [ID["Air Drop (Air 2)"], True]
    assert "deploy Escalation (Sea 2) to Air" in state.legal_actions(1)


def test_ambush_may_flip_any_uncovered_card_but_itself():
    board = [(0, "Air", "Support (Air 1)", True), (1, "Sea", "Redeploy (Sea 4)", False)]
    state = setup([["Ambush (Land 2)", "Heavy Tanks (Land 6)"], ["Escalation (Sea 2)"]], board=board)
    play(state, "deploy Ambush (Land 2) to Land")
    assert state.legal_actions(0) == ["flip opponent card in Sea", "flip your card in Air"]
    play(state, "flip opponent card in Sea")
    # Redeploy (Player B's, now face up) lets B return a facedown card: B has none, so it is ignored.
    assert state.decision is None and state.current_players() == [1]


def test_air_drop_and_aerodrome_allow_non_matching_deploys():
    state = setup([["Air Drop (Air 2)", "Heavy Tanks (Land 6)"], ["Support (Air 1)", "Blockade (Sea 5)"]])
    play(state, "deploy Air Drop (Air 2) to Air")
    assert "deploy Support (Air 1) to Sea" not in state.legal_actions(1)
    play(state, "improvise Support (Air 1) to Sea")
    assert {"deploy Heavy Tanks (Land 6) to Air", "deploy Heavy Tanks (Land 6) to Sea"} <= set(state.legal_actions(0))
    board = [(0, "Air", "Aerodrome (Air 4)", True)]
    state = setup([["Transport (Sea 1)", "Heavy Tanks (Land 6)"], ["Support (Air 1)"]], board=board)
    deploys = [a for a in state.legal_actions(0) if a.startswith("deploy")]
    assert deploys == ["deploy Heavy Tanks (Land 6) to Land", "deploy Transport (Sea 1) to Air",
                       "deploy Transport (Sea 1) to Land", "deploy Transport (Sea 1) to Sea"]


def test_transport_moves_one_of_your_cards_or_nothing():
    board = [(0, "Air", "Support (Air 1)", False), (0, "Air", "Heavy Bombers (Air 6)", True)]
    state = setup([["Transport (Sea 1)", "Heavy Tanks (Land 6)"], ["Escalation (Sea 2)"]], board=board)
    play(state, "deploy Transport (Sea 1) to Sea")
    legal = state.legal_actions(0)
    assert "do not move" in legal and "move facedown Support (Air 1) from Air to Land" in legal
    assert len(legal) == 1 + 3 * 2  # three cards, two other theaters each
    play(state, "move facedown Support (Air 1) from Air to Land")
    assert state.board["Land"][0] == [[ID["Support (Air 1)"], False]]
    assert GAME.observe(state, 1).data["theaters"]["Land"]["opponent"][0]["card"] is None


def test_redeploy_returns_a_facedown_card_and_gives_an_extra_turn():
    board = [(0, "Land", "Heavy Tanks (Land 6)", False)]
    state = setup([["Redeploy (Sea 4)", "Support (Air 1)"], ["Escalation (Sea 2)", "Ambush (Land 2)"]], board=board)
    play(state, "deploy Redeploy (Sea 4) to Sea")
    assert state.legal_actions(0) == ["do not return", "return Heavy Tanks (Land 6) from Land to hand"]
    play(state, "return Heavy Tanks (Land 6) from Land to hand")
    assert state.current_players() == [0] and ID["Heavy Tanks (Land 6)"] in state.hands[0]
    play(state, "deploy Heavy Tanks (Land 6) to Land")
    assert state.current_players() == [1]


def test_reinforce_plays_the_top_card_of_the_deck_facedown_to_an_adjacent_theater():
    state = setup([["Reinforce (Land 1)", "Support (Air 1)"], ["Escalation (Sea 2)"]], lineup=("Land", "Air", "Sea"))
    top = state.deck[0]
    play(state, "deploy Reinforce (Land 1) to Land")
    assert state.legal_actions(0) == ["play drawn card facedown to Air"]  # Land is leftmost: one neighbour
    assert GAME.observe(state, 0).data["drawn_card"] == CARDS[top].label
    assert GAME.observe(state, 1).data["drawn_card"] is None
    play(state, "play drawn card facedown to Air")
    assert state.board["Air"][0] == [[top, False]] and top not in state.deck


def test_disrupt_makes_both_players_flip_their_own_card_then_resolves_revealed_instants():
    board = [
        (0, "Air", "Maneuver (Air 3)", False),
        (1, "Sea", "Escalation (Sea 2)", True),
        (1, "Air", "Support (Air 1)", True),
    ]
    state = setup([["Disrupt (Land 5)", "Heavy Tanks (Land 6)"], ["Ambush (Land 2)"]], board=board)
    play(state, "deploy Disrupt (Land 5) to Land")
    assert state.legal_actions(0) == ["flip your card in Air", "flip your card in Land"]
    play(state, "flip your card in Air")  # reveals Maneuver: it waits until Disrupt is done
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["flip your card in Air", "flip your card in Sea"]
    play(state, "flip your card in Sea")
    assert state.current_players() == [0]  # now Player A's Maneuver resolves (adjacent to Air: Land)
    assert state.legal_actions(0) == ["flip your card in Land"]
    play(state, "flip your card in Land")
    assert state.board["Land"][0][-1] == [ID["Disrupt (Land 5)"], False] and state.current_players() == [1]


def test_both_hands_empty_ends_the_battle_and_empty_theaters_go_to_the_first_player():
    state = setup([["Heavy Tanks (Land 6)"], ["Heavy Bombers (Air 6)"]], first=1)
    play(state, "deploy Heavy Bombers (Air 6) to Air", "deploy Heavy Tanks (Land 6) to Land")
    assert state.vp == [0, 6]  # B: Air and the empty Sea (1st Player); A: Land

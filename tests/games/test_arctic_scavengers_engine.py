"""Arctic Scavengers engine: property tests, gathering actions, skirmishes, hidden hands, golden trace."""

from __future__ import annotations

import asyncio
import random
from collections import Counter

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError, IllegalActionError
from stratbench.games.gamebench.arctic_scavengers import (
    CONTESTED,
    JUNKYARD,
    MERCENARIES,
    START_DECK,
    ArcticScavengers,
    fight_strength,
)

GAME = ArcticScavengers()
ALL_CARDS = Counter(START_DECK * 2) + Counter(JUNKYARD) + Counter(CONTESTED) + Counter(MERCENARIES)


def all_cards(state):
    cards = Counter(state.junkyard) + Counter(state.contested) + Counter(state.dug)
    cards += Counter({t: n for t, n in state.mercenaries.items() if n})
    for p in range(2):
        cards += Counter(state.decks[p]) + Counter(state.discards[p]) + Counter(state.hands[p])
    return cards


def playout(seed, check=True):
    state = GAME.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < GAME.info.max_turns
        (player,) = state.current_players()
        state.apply({player: Action(rng.choice(state.legal_actions(player)))})
        if check:
            assert all_cards(state) == ALL_CARDS
    return state


def act(state, text):
    (player,) = state.current_players()
    state.apply({player: Action(text)})
    return state


# -- properties ---------------------------------------------------------------------


def test_the_start_gives_ten_card_decks_five_card_hands_and_full_supply_piles():
    state = GAME.new_initial_state(0)
    for p in range(2):
        assert len(state.hands[p]) == 5 and len(state.decks[p]) == 5
        assert Counter(state.hands[p] + state.decks[p]) == Counter(START_DECK)
    assert len(state.junkyard) == 42 and sorted(state.contested) == sorted(CONTESTED)
    assert state.mercenaries == MERCENARIES and state.current_players() == [0] and state.step == "gather"
    assert all_cards(state) == ALL_CARDS
    assert GAME.new_initial_state(1).junkyard != state.junkyard


def test_random_playouts_last_five_rounds_conserve_cards_and_score_the_larger_tribe():
    for seed in range(20):
        state = playout(seed)
        assert state.round == 5 and state.step == "over" and state.contested == []
        tribes = [state.tribe(0), state.tribe(1)]
        expected = [0.5, 0.5] if tribes[0] == tribes[1] else [1.0, 0.0] if tribes[0] > tribes[1] else [0.0, 1.0]
        assert state.scores() == expected and state.current_players() == []


def test_a_seed_replays_the_same_game():
    first, again = playout(11), playout(11)
    assert first.history == again.history and first.log == again.log and first.discards == again.discards


def test_one_hundred_seeded_random_matches_complete_with_wins_for_both_seats():
    scores = [playout(seed, check=False).scores()[0] for seed in range(100)]
    assert 20 < sum(scores) < 80 and scores.count(0.5) < 50


# -- rules --------------------------------------------------------------------------------


def test_fight_strength_pairs_each_tribe_member_with_one_tool_and_one_group_leaders():
    assert fight_strength(["Brawler", "Spear", "Shovel"]) == 2 + 2
    assert fight_strength(["Brawler", "Scavenger", "Spear", "Shovel", "Group Leaders"]) == 2 + 1 + 2 + 1 + 2
    assert fight_strength(["Spear", "Grenade", "Refugee"]) == 0
    assert fight_strength(["Tribe Family", "Grenade", "Wolf Pack"]) == 3


def gathering_state(hand, other=("Refugee",) * 5):
    state = GAME.new_initial_state(0)
    state.hands = [sorted(hand), sorted(other)]
    return state


def test_gathering_actions_list_valid_card_sets_once_per_round():
    state = gathering_state(["Hunter", "Spear", "Net", "Pills", "Refugee"])
    legal = state.legal_actions(0)
    assert "HUNT with Hunter + Spear" in legal and "HUNT with Hunter" in legal
    assert "HUNT with Hunter + Net + Spear" not in legal and "HUNT with Spear" not in legal and "HUNT with Refugee" not in legal
    assert "HIRE Hunter paying Pills" in legal and not any(a.startswith("HIRE Brawler") for a in legal)
    assert "TRASH Net + Pills + Refugee" in legal and "TRASH Hunter + Net + Pills + Refugee" not in legal
    act(state, "HUNT with Hunter + Spear")
    assert state.food[0] == 3 and not any(a.startswith("HUNT") for a in state.legal_actions(0))
    assert "HIRE Brawler" in state.legal_actions(0) and "HIRE Thug" not in state.legal_actions(0)


def test_bad_gathering_actions_are_rejected_with_the_reason():
    state = gathering_state(["Hunter", "Spear", "Net", "Pills", "Refugee"])
    with pytest.raises(IllegalActionError, match=r"you do not hold Thug in that number"):
        GAME.canonical_action(state, 0, "DIG with Thug")
    with pytest.raises(IllegalActionError, match=r"a Scout costs 2 FOOD and you have 0 this round"):
        GAME.canonical_action(state, 0, "HIRE Scout paying Pills")
    with pytest.raises(IllegalActionError, match=r"Pills cannot HUNT"):
        GAME.canonical_action(state, 0, "HUNT with Pills, Hunter")
    with pytest.raises(ActionParseError, match=r"not a JSON list"):
        GAME.canonical_action(state, 0, '["HUNT", ')
    assert GAME.canonical_action(state, 0, "hunt with Spear,  Hunter") == "HUNT with Hunter + Spear"
    assert GAME.canonical_action(state, 0, "HUNT with Spear+Hunter") == "HUNT with Hunter + Spear"
    assert not any("," in a for a in state.legal_actions(0))
    assert GAME.canonical_action(state, 0, '["HUNT", ["Spear", "Hunter"]]') == "HUNT with Hunter + Spear"
    assert GAME.canonical_action(state, 0, '["HIRE", ["Pills"], "Hunter"]') == "HIRE Hunter paying Pills"
    act(state, "HUNT with Hunter")
    with pytest.raises(IllegalActionError, match=r"you have already used HUNT this round"):
        GAME.canonical_action(state, 0, "HUNT with Hunter")


# -- golden trace (hand-checked) ---------------------------------------------------------------


def test_golden_round_hunt_hire_dig_draw_stop_snipe_and_skirmish():
    state = gathering_state(["Hunter", "Spear", "Pills", "Brawler", "Scout"],
                            other=["Sniper Team", "Thug", "Refugee", "Refugee", "Pickaxe"])
    state.decks = [["Junk", "Medkit"], ["Refugee"]]
    state.discards = [[], []]
    state.junkyard = ["Net", "Junk", "Pills"] + state.junkyard[3:]
    state.contested = ["Grenade", "Wolf Pack"]
    act(state, "HUNT with Hunter + Spear")
    act(state, "HIRE Saboteur paying Pills")
    assert state.food[0] == 2 and state.mercenaries["Saboteur"] == 7 and state.discards[0] == ["Hunter", "Spear", "Pills", "Saboteur"]
    act(state, "DIG with Brawler")
    assert state.step == "dig" and state.dug == ["Net"] and state.legal_actions(0) == ["keep Net"]
    assert GAME.observe(state, 1).data["dug"] == [] and "Net" not in GAME.observe(state, 1).text
    act(state, "keep Net")
    assert state.junkyard[:2] == ["Junk", "Pills"] and state.discards[0][-1] == "Net"
    act(state, "DRAW with Scout")
    assert state.hands[0] == ["Junk", "Medkit"] and state.private[0][-1] == "Round 1: you drew Junk, Medkit."
    act(state, "STOP")
    assert state.current_players() == [1]
    act(state, "STOP")
    # Skirmish: player 2's Sniper Team has no tribe member to snipe in Junk, Medkit, so the skirmish resolves:
    # FIGHT 0 to Thug 3 + Pickaxe 2 = 5.
    assert state.round == 2 and "Grenade" in state.discards[1] + state.decks[1] + state.hands[1]
    assert "Round 1: FIGHT 0 to 5, people 0 to 7: player 2 wins the Grenade." in state.log
    assert state.initiator == 1 and state.current_players() == [1]


def test_golden_skirmish_snipe_and_sabotage_then_a_tie_sends_the_prize_to_the_junkyard():
    state = gathering_state(["Brawler", "Saboteur", "Refugee", "Refugee", "Refugee"],
                            other=["Sniper Team", "Brawler", "Spear", "Refugee", "Junk"])
    state.contested = ["Field Crew", "Wolf Pack"]
    act(state, "STOP")
    act(state, "STOP")
    assert state.step == "skirmish" and state.current_players() == [0]
    assert state.legal_actions(0) == ["SABOTAGE Spear", "STOP"]
    act(state, "SABOTAGE Spear")
    assert state.current_players() == [1]
    assert state.legal_actions(1) == ["SNIPE Brawler", "SNIPE Refugee", "SNIPE Saboteur", "STOP"]
    act(state, "SNIPE Saboteur")
    # Both hold a Brawler (FIGHT 2) and 4 people against 4: a tie; the Field Crew goes to the junkyard.
    assert state.junkyard[-1] == "Field Crew" and state.round == 2 and state.contested == ["Wolf Pack"]
    assert "Round 1: player 2 uses SNIPE on player 1's Saboteur." in state.log


def test_the_larger_tribe_wins_and_equal_tribes_draw():
    state = playout(3)
    state.decks, state.discards, state.hands = [["Thug"], ["Thug"]], [["Tribe Family"], []], [[], ["Junk"]]
    assert state.scores() == [1.0, 0.0] and state.terminal_reason() == "player 1 wins with the larger tribe (8 to 3 people)"
    state.discards[0] = []
    assert state.scores() == [0.5, 0.5] and state.terminal_reason() == "draw: both tribes have 3 people"


# -- hidden information ------------------------------------------------------------------------


def test_a_player_never_sees_the_opponents_hand_deck_or_dig_until_the_skirmish_shows_the_hand():
    for seed in range(10):
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed)
        while not state.is_terminal():
            for viewer in range(2):
                other = 1 - viewer
                seen = GAME.observe(state, viewer)
                clone = state.clone()
                pool = clone.hands[other] + clone.decks[other]
                rng.shuffle(pool)
                if state.step == "skirmish":  # the hand is shown: only the deck stays secret
                    clone.decks[other] = list(reversed(clone.decks[other]))
                else:
                    clone.hands[other] = sorted(pool[: len(state.hands[other])])
                    clone.decks[other] = pool[len(state.hands[other]) :]
                if state.step == "dig" and state.actor == other:
                    clone.dug = list(reversed(clone.dug))
                again = GAME.observe(clone, viewer)
                assert (seen.text, seen.data) == (again.text, again.data), (seed, state.step)
                assert seen.data["hand"] == state.secret_state(viewer)["hand"] or state.step == "skirmish"
            (player,) = state.current_players()
            state.apply({player: Action(rng.choice(state.legal_actions(player)))})


def test_secrets_are_the_opponents_hand_until_the_skirmish_and_each_unsorted_deck_order():
    state = gathering_state(["Brawler", "Refugee", "Refugee", "Sniper Team", "Spear"],
                            other=["Thug", "Junk", "Refugee", "Refugee", "Pickaxe"])
    # Top card last. Player 2's deck reads alphabetically from the top, like a shown list: only bottom-first counts.
    state.decks = [["Net", "Shovel", "Junk"], ["Pills", "Medkit"]]
    assert GAME.secrets(state, 0) == [
        ("opponent", "Junk, Pickaxe, Refugee, Refugee, Thug"), ("Junk, Shovel, Net",), ("Net, Shovel, Junk",),
        ("Pills, Medkit",),
    ]
    assert GAME.secrets(state, 1)[0] == ("opponent", "Brawler, Refugee, Refugee, Sniper Team, Spear")
    act(state, "STOP")
    act(state, "STOP")
    assert state.step == "skirmish"  # the Sniper Team may act; both hands are shown: only the deck orders stay secret
    assert GAME.secrets(state, 0) == [("Junk, Shovel, Net",), ("Net, Shovel, Junk",), ("Pills, Medkit",)]
    assert "the opponent's hand Junk, Pickaxe, Refugee, Refugee, Thug" in GAME.observe(state, 0).text
    over = playout(3)  # the last skirmish showed the hands, and they stay shown
    assert over.step == "over" and over.hands[1] and over.secret_state(1)["hand"] == []
    assert not any(fact[0] == "opponent" for fact in GAME.secrets(over, 0))


def test_random_agents_complete_a_match_through_the_runner():
    state = GAME.new_initial_state(4)
    agents = {p: RandomAgent(AgentContext(AgentSpec("random"), GAME, p, p, random.Random(p), Transcript())) for p in range(2)}
    outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(4), rules=MatchRules(3, "random")))
    assert sum(outcome.scores) == 1.0 and outcome.illegal == {0: 0, 1: 0} and state.round == 5

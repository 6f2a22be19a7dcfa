"""Pit engine: property tests, trades, corners with the Bull and the Bear, hidden hands, golden trace."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError, IllegalActionError
from stratbench.games.gamebench.pit import COMMODITIES, Pit, TradeSet

GAME = Pit()
FAST = Pit(target_score=200)


def playout(seed, game=GAME, check=True):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < game.info.max_turns
        assert state.current_players() == [0, 1, 2, 3]
        joint = {p: Action(rng.choice(state.legal_actions(p))) for p in state.current_players()}
        state.apply(joint)
        if check:
            assert_cards_conserved(state)
    return state


def assert_cards_conserved(state):
    totals = {}
    for hand in state.hands:
        assert all(n > 0 for n in hand.values())
        for card, n in hand.items():
            totals[card] = totals.get(card, 0) + n
    assert totals == {**{c: 9 for c in COMMODITIES}, "Bull": 1, "Bear": 1}


def setup(hands, points=(0, 0, 0, 0), game=GAME):
    state = game.new_initial_state(0)
    state.hands = [dict(h) for h in hands]
    state.points = list(points)
    state.offers = {}
    return state


def act(state, **moves):
    """Plays one round: ``p0="offer 2 Wheat"``; traders not named pass."""
    state.apply({p: Action(moves.get(f"p{p}", "pass")) for p in range(4)})
    return state


# Four hands of 38 cards with no corner: 9 of each commodity, the Bull and the Bear.
HANDS = [
    {"Wheat": 4, "Corn": 3, "Barley": 2, "Soybeans": 1},
    {"Wheat": 3, "Soybeans": 4, "Barley": 2, "Bear": 1},
    {"Corn": 4, "Barley": 3, "Soybeans": 2},
    {"Wheat": 2, "Corn": 2, "Barley": 2, "Soybeans": 2, "Bull": 1},
]


# -- properties ---------------------------------------------------------------------


def test_the_deal_gives_nine_of_each_commodity_the_bull_and_the_bear_to_four_traders():
    for seed in range(10):
        state = GAME.new_initial_state(seed)
        assert_cards_conserved(state)
        assert sorted(sum(h.values()) for h in state.hands) == [9, 9, 10, 10]
    assert GAME.new_initial_state(1).hands != GAME.new_initial_state(2).hands


def test_random_playouts_terminate_with_point_share_scores():
    for seed in range(10):
        state = playout(seed)
        scores = state.scores()
        assert abs(sum(scores) - 1.0) < 1e-9 and all(0 <= s <= 1 for s in scores)
        side_points = [state.points[0] + state.points[2], state.points[1] + state.points[3]]
        assert scores[0] == pytest.approx(side_points[0] / sum(side_points))
        assert max(state.points) >= 500 and "reached" in state.terminal_reason()
        assert all(state.legal_actions(p) == [] for p in range(4))


def test_a_seed_replays_the_same_game_and_seeds_differ():
    first, again = playout(3, FAST), playout(3, FAST)
    assert first.history == again.history and first.points == again.points
    assert playout(4, FAST).history != first.history


def test_one_hundred_seeded_random_matches_complete():
    states = [playout(seed, FAST, check=False) for seed in range(100)]
    assert all(max(s.points) >= 200 for s in states)
    assert len({tuple(s.points) for s in states}) > 50


def test_the_round_cap_ends_the_match_on_the_points_so_far():
    state = playout(0, Pit(max_rounds=3))
    assert state.turn == 3 and state.terminal_reason() == "round cap (3) reached"
    assert state.scores() == [0.5, 0.5] if sum(state.points) == 0 else abs(sum(state.scores()) - 1) < 1e-9


def test_no_points_scores_a_draw():
    assert setup(HANDS).scores() == [0.5, 0.5]
    assert setup(HANDS, points=(100, 0, 55, 0)).scores() == [1.0, 0.0]
    assert setup(HANDS, points=(100, 75, 0, 25)).scores() == [0.5, 0.5]


def test_bad_options_are_refused():
    for kwargs in ({"corner_size": 1}, {"corner_size": 10}, {"target_score": 0}, {"max_rounds": 0}):
        with pytest.raises(ValueError):
            Pit(**kwargs)


# -- offers and accepts ------------------------------------------------------------------


def test_legal_offers_are_sets_of_one_to_four_cards_the_trader_holds():
    state = setup(HANDS)
    legal = state.legal_actions(0)
    assert "offer 4 Wheat" in legal and "offer 1 Soybeans" in legal
    assert "offer 3 Barley" not in legal and "offer 2 Soybeans" not in legal and "offer 1 Wheat + Bull" not in legal
    assert not any("," in a for p in range(4) for a in state.legal_actions(p))  # listed comma-separated to models
    bull = state.legal_actions(3)
    assert "offer 2 Wheat + Bull" in bull and "offer 1 Corn + Bull" in bull and "offer 3 Wheat" not in bull
    assert not any(a.startswith("accept") for a in legal) and "withdraw" not in legal and legal == sorted(legal)


def test_an_offer_of_cards_not_held_is_rejected_with_the_reason():
    state = setup(HANDS)
    with pytest.raises(IllegalActionError, match=r"you cannot trade 3 Barley: you hold 2 Barley"):
        GAME.canonical_action(state, 0, "offer 3 Barley")
    with pytest.raises(IllegalActionError, match=r"you hold 0 Bear"):
        GAME.canonical_action(state, 0, "offer 1 Wheat + Bear")
    with pytest.raises(IllegalActionError, match=r"1 to 4 cards"):
        GAME.canonical_action(state, 3, "offer 4 Wheat + Bull")
    with pytest.raises(ActionParseError, match=r"not a set of cards"):
        GAME.canonical_action(state, 0, "offer 2 Gold")
    with pytest.raises(IllegalActionError, match=r"Trader 2 has no standing offer"):
        GAME.canonical_action(state, 0, "accept Trader 2 with 1 Wheat")
    assert GAME.canonical_action(state, 0, "OFFER  2 wheat") == "offer 2 Wheat"


def test_a_rejected_offer_is_retried_through_the_runner_with_the_reason():
    class Scripted:
        def __init__(self, answers):
            self.answers, self.seen = list(answers), []

        async def act(self, observation):
            self.seen.append(observation.feedback)
            return Action(self.answers.pop(0) if self.answers else "pass")

    state = setup(HANDS, game=Pit(max_rounds=1))
    trader = Scripted(["offer 3 Barley", "offer 2 Barley"])
    agents = {0: trader, **{p: Scripted([]) for p in (1, 2, 3)}}
    outcome = asyncio.run(run_match(state.game, state, agents, rng=random.Random(0), rules=MatchRules(3, "random")))
    assert trader.seen == [None, "you cannot trade 3 Barley: you hold 2 Barley. Your hand: 2 Barley, 3 Corn, 1 Soybeans, 4 Wheat"]
    assert outcome.illegal[0] == 1 and outcome.history[0][0] == "offer 2 Barley" and state.offers[0] == TradeSet("Barley", 2)


def test_a_trader_trades_once_a_round_and_is_told_when_its_new_offer_is_dropped():
    state = act(setup(HANDS), p1="offer 1 Wheat", p2="offer 1 Corn")
    # Trader 2 takes Trader 3's Corn while Trader 4 takes Trader 2's Wheat: Trader 2 may trade only once.
    act(state, p1="accept Trader 3 with 1 Wheat", p3="accept Trader 2 with 1 Wheat")
    assert state.public_log == ["Round 2: Trader 4 and Trader 2 traded 1 card."]
    assert state.private_log[1][-1] == "Your accept of Trader 3's offer failed: you had already traded this round."
    assert state.offers == {2: TradeSet("Corn", 1)}
    state = act(setup(HANDS), p2="offer 2 Corn")
    act(state, p0="accept Trader 3 with 2 Barley", p2="offer 4 Corn")
    assert state.offers == {} and state.private_log[2][-1] == (
        "Your offer of 4 Corn was dropped: you traded those cards away this round.")


def test_an_accept_must_give_as_many_cards_as_the_offer():
    state = act(setup(HANDS), p1="offer 2 Soybeans + Bear")
    assert "accept Trader 2 with 3 Wheat" in state.legal_actions(0) and "accept Trader 2 with 2 Wheat" not in state.legal_actions(0)
    with pytest.raises(IllegalActionError, match=r"Trader 2 offers 3 cards; give exactly that many, not 2"):
        GAME.canonical_action(state, 0, "accept Trader 2 with 2 Wheat")
    assert "withdraw" in state.legal_actions(1)


# -- golden trace (hand-checked) --------------------------------------------------------------


def test_golden_trace_offer_accept_collision_and_bull_corner():
    state = setup(HANDS)
    act(state, p1="offer 2 Soybeans + Bear", p2="offer 2 Corn")
    assert state.offers == {1: TradeSet("Soybeans", 2, "Bear"), 2: TradeSet("Corn", 2)}
    # Traders 1 and 4 both accept Trader 3's two Corn; seed 0's order lets Trader 4 trade, Trader 1's accept fails.
    act(state, p0="accept Trader 3 with 2 Barley", p3="accept Trader 3 with 2 Barley")
    assert state.hands[3] == {"Wheat": 2, "Corn": 4, "Soybeans": 2, "Bull": 1} and state.hands[0] == HANDS[0]
    assert state.hands[2] == {"Corn": 2, "Barley": 5, "Soybeans": 2}
    assert state.private_log[0] == ["Your accept of Trader 3's offer failed: it was no longer standing."]
    assert state.private_log[3] == ["You gave 2 Barley to Trader 3 and received 2 Corn."]
    assert state.private_log[2] == ["Trader 4 took your offer: you gave 2 Corn and received 2 Barley."]
    assert state.public_log == ["Round 2: Trader 4 and Trader 3 traded 2 cards."]
    assert state.offers == {1: TradeSet("Soybeans", 2, "Bear")}
    state.hands = [dict(h) for h in HANDS]
    state.hands[0] = {"Wheat": 5, "Corn": 3, "Barley": 1, "Bull": 1}
    state.hands[3] = {"Wheat": 1, "Corn": 2, "Barley": 3, "Soybeans": 3}
    act(state, p0="offer 1 Barley")
    # Five Wheat and the Bull corner Wheat at once (a Bull corner scores the plain value), then a new deal.
    assert state.points == [100, 0, 0, 0] and state.public_log[-2] == "Round 3: Trader 1 cornered Wheat for 100 points."
    assert state.deals == 2 and state.offers == {} and state.public_log[-1].startswith("The cards were shuffled")
    assert_cards_conserved(state)


def test_corner_values_double_with_the_bull_and_lose_twenty_with_the_bear():
    hands = [
        {"Wheat": 6, "Bull": 1, "Corn": 2},
        {"Wheat": 3, "Soybeans": 5, "Barley": 1},
        {"Corn": 4, "Barley": 4, "Bear": 1},
        {"Corn": 3, "Barley": 4, "Soybeans": 4},
    ]
    state = act(setup(hands))
    assert state.points == [200, 0, 0, 0]
    hands = [
        {"Corn": 6, "Bear": 1, "Wheat": 2},
        {"Wheat": 3, "Soybeans": 4, "Barley": 2, "Bull": 1},
        {"Corn": 3, "Barley": 4, "Wheat": 4},
        {"Barley": 4, "Soybeans": 4},
    ]
    state = act(setup(hands))
    assert state.points == [55, 0, 0, 0]


def test_the_target_score_ends_the_match_without_a_new_deal():
    state = act(setup([{"Wheat": 6, "Corn": 3}, *HANDS[1:]], points=(450, 0, 0, 0)))
    assert state.is_terminal() and state.points == [550, 0, 0, 0] and state.deals == 1
    assert state.terminal_reason() == "Trader 1 reached 550 points" and state.scores() == [1.0, 0.0]


# -- hidden information ------------------------------------------------------------------------


def test_a_trader_sees_only_its_own_hand_and_the_sizes_of_the_others_offers():
    for seed in range(20):
        state = playout(seed, Pit(max_rounds=5 + seed))
        for viewer in range(4):
            seen = GAME.observe(state, viewer)
            clone = state.clone()
            others = [p for p in range(4) if p != viewer]
            # Shuffle the other traders' cards among them, sizes kept, and change their offers' contents.
            pool = [c for p in others for c, n in clone.hands[p].items() for _ in range(n)]
            random.Random(seed).shuffle(pool)
            for p in others:
                size = sum(state.hands[p].values())
                clone.hands[p] = {}
                for card in pool[:size]:
                    clone.hands[p][card] = clone.hands[p].get(card, 0) + 1
                del pool[:size]
                if p in clone.offers:
                    clone.offers[p] = TradeSet("Wheat" if clone.offers[p].commodity != "Wheat" else "Corn",
                                               clone.offers[p].count, clone.offers[p].extra)
            again = GAME.observe(clone, viewer)
            assert (seen.text, seen.data) == (again.text, again.data)
            assert state.secret_state(viewer)["hand"] == seen.data["hand"]
            for p in others:
                if p in state.offers:
                    assert seen.data["offers"][f"Trader {p + 1}"] == state.offers[p].size


def test_secrets_word_the_other_traders_hands_and_offers_as_the_observation_would():
    state = act(setup(HANDS), p1="offer 2 Soybeans + Bear", p2="offer 1 Corn")
    assert GAME.secrets(state, 0) == [
        ("Trader 2", "2 Barley, 1 Bear, 4 Soybeans, 3 Wheat"), ("Trader 2 offers", "2 Soybeans + Bear"),
        ("Trader 3", "3 Barley, 4 Corn, 2 Soybeans"), ("Trader 3 offers", "1 Corn"), ("Trader 4", "2 Barley, 1 Bull, 2 Corn, 2 Soybeans, 2 Wheat"),
    ]
    assert ("Trader 1", "2 Barley, 3 Corn, 1 Soybeans, 4 Wheat") in GAME.secrets(state, 1)
    assert not any(f[0].startswith("Trader 2") for f in GAME.secrets(state, 1))
    # What the observation does say of an offer is its size, which is no fact.
    assert "Trader 2 offers 3 cards" in GAME.observe(state, 0).text


def test_random_agents_complete_a_match_through_the_runner():
    state = FAST.new_initial_state(7)
    agents = {
        p: RandomAgent(AgentContext(AgentSpec("random"), FAST, p, p % 2, random.Random(p), Transcript())) for p in range(4)
    }
    outcome = asyncio.run(run_match(FAST, state, agents, rng=random.Random(7), rules=MatchRules(3, "random")))
    assert abs(sum(outcome.scores) - 1) < 1e-9 and max(state.points) >= 200 and outcome.illegal == {p: 0 for p in range(4)}

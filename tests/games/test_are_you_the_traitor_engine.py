"""Are You the Traitor? engine: properties, conversation through the message channels, Stop!, treasure."""

from __future__ import annotations

import asyncio
import itertools
import random
from pathlib import Path

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.messages import Outgoing
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.are_you_the_traitor import (
    CANNED_ANSWER, MAX_CHARS, POINTS, TARGETS, AreYouTheTraitor, conversation_stats,
)

GAME = AreYouTheTraitor()
GOLDEN = Path(__file__).parent / "golden" / "are_you_the_traitor_seed3.txt"


def playout(seed, game=GAME):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < game.info.max_turns
        (player,) = state.current_players()
        legal, open_ended = state.legal_actions(player), state.open_ended(player)
        if legal and (not open_ended or rng.random() < 0.5):
            action = Action(rng.choice(legal))
        else:
            action = GAME.check_open_ended(state, player, Action(sorted(open_ended)[0], f"words {state.turn}"))
        assert state.is_legal(player, action)
        state.apply({player: action})
    return state


def step(state, text, response=None):
    (player,) = state.current_players()
    state.apply({player: Action(text, response)})
    return player


def agents_for(seed, factory=None):
    def make(p):
        context = AgentContext(AgentSpec("random"), GAME, p, GAME.info.side_of(p), random.Random(seed * 10 + p),
                               Transcript())
        return (factory or RandomAgent)(context)

    return {p: make(p) for p in range(5)}


# -- properties -----------------------------------------------------------------


def test_every_round_deals_the_roles_within_the_fixed_teams():
    state = GAME.new_initial_state(1)
    seen = set()
    for _ in range(30):
        assert sorted(state.roles[p] for p in (0, 1)) == ["Evil Wizard", "Traitor"]
        assert sorted(state.roles[p] for p in (2, 3, 4)) == ["Good Wizard", "Guard", "Key Holder"]
        seen.add(tuple(state.roles[p] for p in range(5)))
        state._start_round()
    assert len(seen) > 3


def test_random_playouts_terminate_with_scores_summing_to_one():
    for seed in range(100):
        state = playout(seed)
        scores = state.scores()
        assert sum(scores) == 1.0 and scores in ([1.0, 0.0], [0.0, 1.0], [0.5, 0.5])
        assert state.current_players() == [] and all(state.legal_actions(p) == [] for p in range(5))
        best = [max(state.points(p) for p in side) for side in GAME.info.sides]
        assert max(best) >= 10 or len(state.results) == GAME.max_rounds
        assert scores == ([0.5, 0.5] if best[0] == best[1] else [1.0, 0.0] if best[0] > best[1] else [0.0, 1.0])
        assert sum(len(cards) for cards in state.treasure.values()) + len(state.deck) <= 42


def test_a_seed_replays_the_same_game():
    assert playout(4).history == playout(4).history and playout(4).history != playout(5).history


def test_one_hundred_seeded_random_matches_through_the_runner():
    outcomes = []
    for seed in range(100):
        state = GAME.new_initial_state(seed)
        outcome = asyncio.run(run_match(GAME, state, agents_for(seed), rng=random.Random(seed),
                                        rules=MatchRules(3, "random")))
        assert sum(outcome.scores) == 1.0 and outcome.messages == []  # the random baseline stays silent
        outcomes.append(outcome)
    assert {tuple(o.scores) for o in outcomes} >= {(1.0, 0.0), (0.0, 1.0)}


def test_the_round_cap_ends_the_game_and_an_even_treasure_is_a_draw():
    game = AreYouTheTraitor(max_rounds=1, max_exchanges=1)
    state = game.new_initial_state(0)
    step(state, "ask player 1" if state.questioner != 1 else "ask player 0")
    step(state, "skip question")
    for _ in range(4):
        step(state, "pass")
    assert state.is_terminal() and state.scores() == [0.5, 0.5]
    assert state.results[0].text() == "Round 1: nobody shouted Stop!; no treasure was won."
    assert state.terminal_reason() == "draw: round cap (1) reached, the richest players of both teams hold 0 points"
    with pytest.raises(ValueError, match="at least 1"):
        AreYouTheTraitor(max_rounds=0)


# -- Stop! and treasure (hand-checked) ---------------------------------------------------------


def _stop_by(state, stopper):
    """Plays the exchange up to ``stopper``'s Stop!: others pass until it is asked."""
    step(state, f"ask player {(state.questioner + 1) % 5}")
    step(state, "skip question")
    while state.current_players() != [stopper]:
        step(state, "pass")
    step(state, "stop")


def test_a_right_accusation_wins_the_round_for_the_accuser_and_a_wrong_one_for_the_other_team():
    state = GAME.new_initial_state(2)
    hunter = next(p for p in (2, 3, 4) if state.roles[p] in ("Good Wizard", "Guard"))
    traitor = next(p for p in (0, 1) if state.roles[p] == "Traitor")
    deck = list(state.deck)
    _stop_by(state, hunter)
    assert state.current_players() == [hunter] and f"accuse player {hunter}" not in state.legal_actions(hunter)
    step(state, f"accuse player {traitor}")
    result = state.results[0]
    assert (result.right, result.winner) == (True, 1)
    assert "magic ring" not in deck[:3]  # seed 2 deals chest of copper, silver goblets, platinum pyramids
    assert [state.treasure[p] for p in (2, 3, 4)] == [[deck[0]], [deck[1]], [deck[2]]]
    assert state.treasure[0] == state.treasure[1] == [] and state.points(4) == POINTS[deck[2]] == 4
    assert result.text() == (f"Round 1: player {hunter} shouted Stop! and accused player {traitor}. "
                             "The accusation was right. The Good team won the round.")
    assert state.round == 2 and state.exchanges == []
    # Round 2: the Evil Wizard accuses a Good seat that is not the Key Holder: Good wins.
    wizard = next(p for p in (0, 1) if state.roles[p] == "Evil Wizard")
    innocent = next(p for p in (2, 3, 4) if state.roles[p] != TARGETS["Evil Wizard"])
    _stop_by(state, wizard)
    step(state, f"accuse player {innocent}")
    assert (state.results[1].right, state.results[1].winner) == (False, 1)


def test_the_traitor_is_never_asked_to_stop():
    state = GAME.new_initial_state(6)
    traitor = next(p for p in (0, 1) if state.roles[p] == "Traitor")
    step(state, f"ask player {(state.questioner + 1) % 5}")
    step(state, "skip question")
    asked = []
    while state.step == "stop":
        asked.append(step(state, "pass"))
    assert sorted(asked) == sorted(p for p in range(5) if p != traitor)


def test_a_magic_ring_steals_a_gilded_statue_first_and_is_discarded():
    state = GAME.new_initial_state(0)
    state.treasure = {0: ["magic ring", "silver goblets"], 1: [], 2: ["bags of gold", "gilded statue"], 3: [], 4: []}
    state._use_magic_rings()
    assert state.treasure[0] == ["silver goblets", "gilded statue"] and state.treasure[2] == ["bags of gold"]
    assert state.points(0) == POINTS["silver goblets"] == 2


def test_ten_points_end_the_game_for_the_richest_player_s_team():
    state = GAME.new_initial_state(0)
    state.treasure[3] = ["crown jewels", "crown jewels"]
    assert state.is_terminal() and state.scores() == [0.0, 1.0]
    assert state.terminal_reason() == "Good wins: a player reached 10 points; its richest player holds 10 points"


# -- conversation, open-ended answers and the cap -------------------------------------------


class Talker:
    """Says two messages each conversation turn (the second is over the cap) and one too-long question."""

    def __init__(self, context):
        self.player = context.player
        self.rng = context.rng
        self.feedback = []

    async def negotiate(self, observation):
        assert observation.negotiation.max_chars == MAX_CHARS and observation.legal_actions == ()
        return [Outgoing(f"player {self.player} says hello"), Outgoing("second message")]

    async def act(self, observation):
        if observation.feedback:
            self.feedback.append(observation.feedback)
        if observation.open_ended:
            action_id = sorted(observation.open_ended)[0]
            text = "x" * (MAX_CHARS + 1) if observation.attempt == 1 else "why?"
            return Action(action_id, text)
        return Action(self.rng.choice(observation.legal_actions))


def test_conversation_runs_through_the_message_channels_within_the_cap():
    state = GAME.new_initial_state(3)
    agents = agents_for(3, Talker)
    transcript = Transcript()
    outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(3), rules=MatchRules(3, "random"),
                                    transcript=transcript))
    exchanges = {m["phase"] for m in outcome.messages}
    assert all(m["recipients"] == [] for m in outcome.messages)
    assert len(outcome.messages) == 5 * len(exchanges)  # one message per seat per exchange
    rejected = [e for e in transcript.events if e["kind"] == "message_rejected"]
    assert len(rejected) == len(outcome.messages) and {e["error"] for e in rejected} == {"only 1 messages per round"}
    reasons = {f for a in agents.values() for f in a.feedback}
    assert reasons <= {f"your question is {MAX_CHARS + 1} characters long; the limit is {MAX_CHARS}",
                       f"your answer is {MAX_CHARS + 1} characters long; the limit is {MAX_CHARS}"}
    assert reasons and all(len(text) < MAX_CHARS for joint in outcome.history for text in joint.values())
    stats = {p: values["conversation"] for p, values in conversation_stats(GAME, outcome, 3).items()}
    assert sum(s["messages"] for s in stats.values()) == len(outcome.messages)
    assert stats[0]["cap"] == {"exchanges_per_round": 3, "messages_per_exchange": 1, "max_chars": MAX_CHARS}
    assert stats[0]["chars"] == stats[0]["messages"] * len("player 0 says hello")


def test_an_answer_that_never_comes_becomes_gamebench_s_canned_answer():
    state = GAME.new_initial_state(0)
    step(state, f"ask player {(state.questioner + 1) % 5}")
    step(state, "ask", "who are you?")
    assert state.fallback_action(state.current_players()[0], random.Random(0)) == Action("answer", CANNED_ANSWER)
    with pytest.raises(IllegalActionError, match="the limit is 300"):
        GAME.check_open_ended(state, state.current_players()[0], Action("answer", "y" * 301))


def _swap(state, a, b):
    clone = state.clone()
    clone.roles[a], clone.roles[b] = state.roles[b], state.roles[a]
    return clone


def test_a_seat_sees_its_own_role_but_no_other_seat_s():
    wizards = ("Good Wizard", "Evil Wizard")
    for seed in range(10):
        state = GAME.new_initial_state(seed)
        for viewer in range(5):
            own = state.roles[viewer]
            seen = GAME.observe(state, viewer)
            assert f"Your role this round: {own}" in seen.text and seen.data["me"]["role"] == own
            others = [p for p in range(5) if p != viewer]
            pairs = []
            if own not in wizards:  # which wizard is which is secret
                pairs.append(tuple(p for p in others if state.roles[p] in wizards))
            hidden = [p for p in others if state.roles[p] not in wizards
                      and not (own == "Traitor" and state.roles[p] == "Key Holder")]
            pairs += list(itertools.combinations(hidden, 2))  # so is who holds the key, who is the Traitor
            assert pairs
            for a, b in pairs:
                again = GAME.observe(_swap(state, a, b), viewer)
                assert (again.text, again.data) == (seen.text, seen.data)
    traitor_view = GAME.observe(state, next(p for p in range(5) if state.roles[p] == "Traitor"))
    key_holder = next(p for p in range(5) if state.roles[p] == "Key Holder")
    assert f"The key is held by player {key_holder}." in traitor_view.text


def test_golden_trace_of_a_seeded_random_playout():
    state = playout(3)
    trace = "\n".join(r.text() for r in state.results) + f"\n{state.terminal_reason()}\nscores: {state.scores()}\n"
    assert trace == GOLDEN.read_text()

"""Two Rooms and a Boom engine: property tests, shares, hostages, room conversations, hidden cards, golden trace."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.messages import Outgoing
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, IllegalActionError
from stratbench.games.gamebench.two_rooms import NAMES, TwoRooms

GAME = TwoRooms()


def playout(seed, game=GAME):
    state = game.new_initial_state(seed)
    rng = random.Random(seed)
    while not state.is_terminal():
        assert state.turn < game.info.max_turns
        joint = {p: Action(rng.choice(state.legal_actions(p))) for p in state.current_players()}
        state.apply(joint)
        assert sorted(len(state.in_room(i)) for i in range(2)) == [3, 3]
    return state


def setup(rooms, leaders, cards=None):
    """Builds a state: ``rooms`` gives each seat's room (0 or 1); ``leaders`` the two Leaders."""
    state = GAME.new_initial_state(0)
    state.room = list(rooms)
    state.leaders = tuple(leaders)
    if cards is not None:
        state.cards = list(cards)
    return state


def play(state, **moves):
    """Applies one step: ``p0="wait"``; seats not named wait (share step)."""
    state.apply({p: Action(moves.get(f"p{p}", "wait")) for p in state.current_players()})
    return state


CARDS = ["President", "Blue Team", "Blue Team", "Bomber", "Red Team", "Red Team"]


# -- properties ----------------------------------------------------------------------


def test_the_deal_has_one_president_one_bomber_two_rooms_of_three_and_a_leader_in_each():
    for seed in range(30):
        state = GAME.new_initial_state(seed)
        assert state.cards[:3].count("President") == 1 and state.cards[3:].count("Bomber") == 1
        assert sorted(len(state.in_room(i)) for i in range(2)) == [3, 3]
        assert [state.room[p] for p in state.leaders] == [0, 1]
    assert len({tuple(GAME.new_initial_state(s).room) for s in range(30)}) > 5
    assert {GAME.new_initial_state(s).cards.index("President") for s in range(30)} == {0, 1, 2}


def test_random_playouts_last_three_rounds_and_score_the_rooms():
    for seed in range(30):
        state = playout(seed)
        assert state.turn == 6 and state.round == 4
        together = state.room[state.cards.index("President")] == state.room[state.cards.index("Bomber")]
        assert state.scores() == ([0.0, 1.0] if together else [1.0, 0.0])
        assert all(state.legal_actions(p) == [] for p in range(6)) and state.negotiation() is None


def test_a_seed_replays_the_same_game():
    first, again = playout(9), playout(9)
    assert first.history == again.history and first.room == again.room and first.log == again.log


def test_one_hundred_seeded_random_matches_complete_and_both_teams_win_some():
    results = [playout(seed).scores()[0] for seed in range(100)]
    assert 20 < sum(results) < 80


def test_bad_options_are_refused():
    for kwargs in ({"rounds": 0}, {"talk_rounds": -1}, {"max_chars": 0}):
        with pytest.raises(ValueError):
            TwoRooms(**kwargs)
    assert TwoRooms(rounds=1).info.max_turns == 2
    assert TwoRooms(talk_rounds=0).new_initial_state(0).negotiation() is None
    assert GAME.new_initial_state(0).negotiation().rounds == 2


def test_only_legal_shares_and_hostages_are_accepted():
    state = setup([0, 0, 1, 0, 1, 1], (0, 2), CARDS)
    assert state.legal_actions(1) == [
        "card share with Casey", "card share with Drew", "colour share with Casey", "colour share with Drew",
        "reveal card to the room", "wait",
    ]
    assert not any("," in a for p in range(6) for a in state.legal_actions(p))  # listed comma-separated to models
    with pytest.raises(IllegalActionError):
        state.apply({**{p: Action("wait") for p in range(5)}, 5: Action("card share with Drew")})
    play(state)
    assert state.current_players() == [0, 2]
    assert state.legal_actions(0) == ["send Alex", "send Casey"] and state.legal_actions(2) == ["send Blair", "send Emery"]


# -- golden trace (hand-checked) ---------------------------------------------------------------


def test_golden_trace_shares_reveal_and_hostages_decide_the_game():
    # Room A: Drew (President, Leader), Alex, Casey (Bomber); Room B: Finley (Leader), Emery, Blair.
    state = setup([0, 0, 1, 0, 1, 1], (0, 2), CARDS)
    play(state, p0="colour share with Casey", p3="colour share with Drew", p1="card share with Drew", p4=
         "reveal card to the room", p5="card share with Finley")
    assert state.known[0] == {3: "Red"} and state.known[3] == {0: "Blue"}
    assert state.known[2] == {4: "Red Team"} and state.known[5] == {4: "Red Team"} and state.known[1] == {}
    assert state.log[1] == ["Round 1: Drew did not card share with you."]
    assert state.log[2] == ["Round 1: Emery revealed their card to the room: Emery is a Red Team member."]
    play(state, p0="send Casey", p2="send Emery")
    assert state.in_room(0) == [0, 1, 4] and state.in_room(1) == [2, 3, 5] and state.round == 2
    assert state.log[0][-1] == "Round 1: Casey was sent from Room A to Room B and Emery from Room B to Room A."
    play(state, p0="card share with Alex", p1="card share with Drew")
    assert state.known[0] == {1: "Blue Team", 3: "Red"} and state.known[1] == {0: "President"}
    play(state, p0="send Alex", p2="send Casey")
    play(state, p0="colour share with Emery", p4="colour share with Drew")
    assert state.known[4][0] == "Blue"
    play(state, p0="send Emery", p2="send Alex")
    assert state.is_terminal() and state.in_room(0) == [0, 1, 3]
    assert state.scores() == [0.0, 1.0]
    assert state.terminal_reason() == "Red wins: the President and the Bomber are in the same room"


def test_a_colour_share_never_overwrites_a_known_card():
    state = setup([0, 0, 1, 0, 1, 1], (0, 2), CARDS)
    play(state, p0="card share with Alex", p1="card share with Drew")
    play(state, p0="send Casey", p2="send Emery")
    play(state, p0="colour share with Alex", p1="colour share with Drew")
    assert state.known[0][1] == "Blue Team" and state.known[1][0] == "President"


# -- conversation ---------------------------------------------------------------------------


class Talker:
    """Says one line to its room-mates each talk round, and one over-long line; acts at random."""

    def __init__(self, player, rng):
        self.player, self.rng = player, rng
        self.heard = []

    async def negotiate(self, observation):
        self.heard.append([m["text"] for m in observation.messages])
        mates = tuple(observation.negotiation.recipients)
        return [Outgoing(f"{NAMES[self.player]} says hi", mates), Outgoing("x" * 301, mates)]

    async def act(self, observation):
        return Action(self.rng.choice(observation.legal_actions))


def test_rooms_talk_privately_with_capped_messages_through_the_runner():
    state = GAME.new_initial_state(3)
    start_rooms = list(state.room)
    agents = {p: Talker(p, random.Random(p)) for p in range(6)}
    transcript = Transcript()
    outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(3), rules=MatchRules(3, "random"),
                                    transcript=transcript))
    assert state.messages.held == [f"round {r} Room {x}" for r in (1, 2, 3) for x in "AB"]
    first = [m for m in outcome.messages if m["phase"] == "round 1 Room A"]
    room_a = [p for p in range(6) if start_rooms[p] == 0]
    assert {m["sender"] for m in first} == set(room_a)
    assert all(set(m["recipients"]) == set(room_a) - {m["sender"]} for m in first)
    rejected = transcript.of_kind("message_rejected")
    assert len(rejected) == 6 * 2 * 3 and {e["error"] for e in rejected} == {"the message is longer than 300 characters"}
    # A seat never hears the other room's conversation of round 1.
    other = next(p for p in range(6) if start_rooms[p] == 1)
    assert not any(f"{NAMES[p]} says hi" in agents[other].heard[1] for p in room_a)
    assert sum(outcome.scores) == 1.0


def test_secrets_name_each_unshown_card_and_team_and_drop_what_a_share_or_reveal_showed():
    # Drew (President) colour-shares with Casey (Bomber); Emery (Red Team) reveals to Room B.
    state = setup([0, 0, 1, 0, 1, 1], (0, 2), CARDS)
    assert GAME.secrets(state, 0) == [
        ("Alex is a Blue Team member",), ("Alex Blue Team",), ("Alex is on the Blue team",), ("Alex Blue",),
        ("Finley is a Blue Team member",), ("Finley Blue Team",), ("Finley is on the Blue team",), ("Finley Blue",),
        ("Casey is the Bomber",), ("Casey Bomber",), ("Casey is on the Red team",), ("Casey Red",),
        ("Emery is a Red Team member",), ("Emery Red Team",), ("Emery is on the Red team",), ("Emery Red",),
        ("Blair is a Red Team member",), ("Blair Red Team",), ("Blair is on the Red team",), ("Blair Red",),
    ]
    play(state, p0="colour share with Casey", p3="colour share with Drew", p4="reveal card to the room")
    casey = [f for f in GAME.secrets(state, 0) if f[0].startswith("Casey")]
    assert casey == [("Casey is the Bomber",), ("Casey Bomber",)]  # the colour was shared, the card was not
    assert "Casey is on the Red team" in GAME.observe(state, 0).text
    assert not any(f[0].startswith("Emery") for f in GAME.secrets(state, 2))  # Finley saw Emery's card
    assert ("Drew is the President",) in GAME.secrets(state, 2)


def test_random_agents_complete_a_match_through_the_runner():
    state = GAME.new_initial_state(5)
    agents = {
        p: RandomAgent(AgentContext(AgentSpec("random"), GAME, p, p // 3, random.Random(p), Transcript())) for p in range(6)
    }
    outcome = asyncio.run(run_match(GAME, state, agents, rng=random.Random(5), rules=MatchRules(3, "random")))
    assert outcome.turns == 6 and outcome.scores in ([1.0, 0.0], [0.0, 1.0]) and outcome.messages == []


# -- hidden information ----------------------------------------------------------------------


def test_no_seat_sees_another_seats_card_except_through_shares_and_reveals():
    for seed in range(40):
        rng = random.Random(seed)
        state = GAME.new_initial_state(seed)
        while not state.is_terminal():
            for viewer in range(6):
                seen = GAME.observe(state, viewer)
                assert seen.data["card"] == state.secret_state(viewer)["card"]
                for q, known in state.known[viewer].items():
                    assert known in (state.secret_state(q)["card"], state.secret_state(q)["team"])
                clone = state.clone()
                others = [q for q in range(6) if q != viewer]
                cards = [clone.cards[q] for q in others]
                rng.shuffle(cards)
                for q, card in zip(others, cards):
                    clone.cards[q] = card
                again = GAME.observe(clone, viewer)
                assert (seen.text, seen.data, seen.legal_actions) == (again.text, again.data, again.legal_actions)
                unknown = [q for q in others if q not in state.known[viewer]]
                for q in unknown:
                    assert f"{NAMES[q]} is " not in seen.text
            state.apply({p: Action(rng.choice(state.legal_actions(p))) for p in state.current_players()})

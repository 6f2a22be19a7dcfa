"""Two Rooms and a Boom with model seats: room conversations through litellm, private to the room."""

from __future__ import annotations

import asyncio
import json
import random
import re

from stratbench.agents.llm import LLMAgent
from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.games.gamebench.two_rooms import NAMES, TwoRooms
from stratbench.llm.client import LLMClient
from stratbench.scaffolds.direct import direct
from stratbench.testing.fake_llm import FakeLLMServer, first_legal_responder

_RECIPIENTS = re.compile(r"Recipients: (.+)\.\n")
_YOU = re.compile(r"You are (\w+)\. Your card: (.+?)\. Round")


def responder(body):
    """Talks when asked to negotiate (a card claim to every room-mate, plus one over-long line), else acts."""
    prompt = " ".join(str(m.get("content")) for m in body["messages"] if m["role"] == "user")
    if "# Negotiation" not in prompt:
        return first_legal_responder(body)
    name, card = _YOU.search(prompt).groups()
    mates = _RECIPIENTS.search(prompt).group(1).split(", ")
    return json.dumps({"messages": [{"to": mates, "text": f"{name} here, trust me: {card}"},
                                    {"to": "ALL", "text": "public shout"}]})


def test_model_seats_talk_privately_in_their_room_and_each_sees_only_its_own_card():
    game = TwoRooms(rounds=1)
    state = game.new_initial_state(6)
    rooms = list(state.room)
    assert rooms[:3] == [1, 1, 0]  # two Blue seats in Room B, one in Room A: the other room's talk stays unheard
    transcript = Transcript()
    with FakeLLMServer(responder=responder) as server:
        client = LLMClient(api_base=server.api_base, allow_placeholder_key=True, max_attempts=1)
        llm = AgentSpec(kind="llm", model="openai/m", scaffold="direct")
        agents = {}
        for p in range(6):
            if p < 3:
                context = AgentContext(llm, game, p, 0, random.Random(p), transcript, llm=client, options={"vision": "off"})
                agents[p] = LLMAgent(context, direct())
            else:
                agents[p] = RandomAgent(AgentContext(AgentSpec("random"), game, p, 1, random.Random(p), transcript))
        outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(6), rules=MatchRules(3, "random"),
                                        transcript=transcript))
    assert outcome.illegal == {p: 0 for p in range(6)} and outcome.turns == 2
    # Each Blue seat sent its claim to its room-mates in both talk rounds; public messages were refused.
    sent = [m for m in outcome.messages]
    assert sorted(m["sender"] for m in sent) == [0, 0, 1, 1, 2, 2]
    for message in sent:
        mates = {q for q in range(6) if rooms[q] == rooms[message["sender"]] and q != message["sender"]}
        assert set(message["recipients"]) == mates
        assert message["text"] == f"{NAMES[message['sender']]} here, trust me: {_card(state, message['sender'])}"
    refused = transcript.of_kind("message_rejected")
    assert len(refused) == 6 and {e["error"] for e in refused} == {"public messages are not allowed here"}
    # Every model prompt names the seat's own card and never another seat's card or message from the other room.
    for call in transcript.of_kind("llm_call"):
        user = " ".join(str(m["content"]) for m in call["messages"] if m["role"] == "user")
        player = call["player"]
        assert f"You are {NAMES[player]}. Your card: {_card(state, player)}." in user
        for other in range(3):
            if rooms[other] != rooms[player]:
                assert f"{NAMES[other]} here" not in user


def _card(state, player):
    card = state.cards[player]
    return {"President": "the President (Blue team)", "Bomber": "the Bomber (Red team)"}.get(card, f"a {card} member")

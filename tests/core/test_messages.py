"""Message channels: negotiation rounds, limits, visibility and the transcript."""

from __future__ import annotations

import asyncio
import random

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.messages import Negotiation, Outgoing
from stratbench.core.runner import run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, Observation, Rules


class TalkState(State):
    def _current_players(self):
        return [0, 1, 2]

    def _legal_actions(self, player):
        return ["done"]

    def _apply(self, actions):
        self.finished = True

    def _is_terminal(self):
        return getattr(self, "finished", False)

    def _scores(self):
        return [1 / 3] * 3

    def negotiation(self):
        return Negotiation("P1", (0, 1, 2), rounds=2, max_messages=2, max_chars=20)


class TalkGame(Game):
    info = GameInfo("talk", 3, ((0,), (1,), (2,)), max_turns=2)
    rules = Rules("Talk", "Talk, then finish.")

    def new_initial_state(self, seed):
        return TalkState(self)

    def observe(self, state, player):
        return Observation("talk", player, "", ("done",), self.rules)

    def role(self, player):
        return ["RED", "GREEN", "BLUE"][player]


class Talker:
    def __init__(self, plan):
        self.plan = plan
        self.seen = []

    async def negotiate(self, observation):
        self.seen.append(observation)
        return self.plan.get(observation.negotiation.round, [])

    async def act(self, observation):
        self.seen.append(observation)
        return Action("done")


class Silent:
    async def act(self, observation):
        return Action("done")


def test_negotiation_rounds_deliver_public_and_private_messages():
    red = Talker({1: [Outgoing("hello all"), Outgoing("psst", (1,))], 2: [Outgoing("a" * 21), Outgoing("x", (7,))]})
    green = Talker({2: [Outgoing("1"), Outgoing("2"), Outgoing("3")]})
    blue = Silent()
    transcript = Transcript()
    outcome = asyncio.run(
        run_match(TalkGame(), TalkGame().new_initial_state(0), {0: red, 1: green, 2: blue},
                  rng=random.Random(0), transcript=transcript)
    )
    texts = [(m["sender"], tuple(m["recipients"]), m["text"]) for m in outcome.messages]
    assert texts == [(0, (), "hello all"), (0, (1,), "psst"), (1, (), "1"), (1, (), "2")]
    errors = sorted(e["error"] for e in transcript.of_kind("message_rejected"))
    assert errors == ["only 2 messages per round", "recipients [7] are not other participants",
                      "the message is longer than 20 characters"]
    # Round 2 observations show round 1's messages; private ones only to their parties.
    green_round2 = green.seen[1]
    assert [m["text"] for m in green_round2.messages] == ["hello all", "psst"]
    assert green_round2.negotiation.recipients == {0: "RED", 2: "BLUE"}
    # The action observation after the negotiation shows red every message it sent or received.
    assert [m["text"] for m in red.seen[-1].messages] == ["hello all", "psst", "1", "2"]


def test_each_negotiation_phase_is_held_once():
    agents = {0: Talker({1: [Outgoing("hi")]}), 1: Silent(), 2: Silent()}
    outcome = asyncio.run(run_match(TalkGame(), TalkGame().new_initial_state(0), agents, rng=random.Random(0)))
    assert len(outcome.messages) == 1 and outcome.turns == 1

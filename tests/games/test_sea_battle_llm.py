"""Sea Battle with LLM ships: the three ships of a team ask the model concurrently each round."""

from __future__ import annotations

import asyncio
import random
import re
import threading

from stratbench.agents.llm import LLMAgent
from stratbench.agents.random_agent import RandomAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.games.gamebench.sea_battle import SeaBattle
from stratbench.llm.client import LLMClient
from stratbench.scaffolds.direct import direct
from stratbench.testing.fake_llm import FakeLLMServer, first_legal_responder

_SHIP = re.compile(r"You are (\w+ \d) of the")


def test_the_three_llm_ships_of_a_team_are_asked_concurrently_every_round():
    barrier = threading.Barrier(3, timeout=20)
    seen: list[tuple[str, bool]] = []
    lock = threading.Lock()

    def responder(body):
        prompt = " ".join(str(m.get("content")) for m in body["messages"] if m["role"] == "user")
        try:
            barrier.wait()  # released only when all three requests are in flight at once
            together = True
        except threading.BrokenBarrierError:
            together = False
        with lock:
            seen.append((_SHIP.search(prompt).group(1), together))
        return first_legal_responder(body)

    game = SeaBattle(max_rounds=2)
    transcript = Transcript()
    with FakeLLMServer(responder=responder) as server:
        client = LLMClient(api_base=server.api_base, allow_placeholder_key=True, max_attempts=1)
        llm = AgentSpec(kind="llm", model="openai/m", scaffold="direct")
        agents = {}
        for p in range(6):
            if p < 3:
                context = AgentContext(llm, game, p, 0, random.Random(p), transcript, llm=client,
                                       options={"vision": "off"})
                agents[p] = LLMAgent(context, direct())
            else:
                agents[p] = RandomAgent(AgentContext(AgentSpec("random"), game, p, 1, random.Random(p), transcript))
        outcome = asyncio.run(
            run_match(game, game.new_initial_state(0), agents, rng=random.Random(0),
                      rules=MatchRules(3, "random"), transcript=transcript)
        )
    assert outcome.turns == 2 and outcome.illegal == {p: 0 for p in range(6)}
    assert len(seen) == 6 and all(together for _, together in seen)
    assert sorted(name for name, _ in seen) == ["Red 1", "Red 1", "Red 2", "Red 2", "Red 3", "Red 3"]
    calls = transcript.of_kind("llm_call")
    assert sorted(c["player"] for c in calls) == [0, 0, 1, 1, 2, 2]
    # Each ship's own prompt names that ship: the agent is duplicated per seat without being told.
    for call in calls:
        user = " ".join(str(m["content"]) for m in call["messages"] if m["role"] == "user")
        assert f"You are {game.role(call['player'])} of the Red team" in user

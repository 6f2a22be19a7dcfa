"""Observation.asking.primer: a first user turn sent once per player, its reply kept at the head of later conversations."""

from __future__ import annotations

import asyncio
import itertools
from dataclasses import replace

import pytest
from stratbench.core.transcript import Transcript
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.cot import cot
from stratbench.scaffolds.direct import direct
from stratbench.scaffolds.prompt import SYSTEM_PROMPT, game_prompt
from stratbench.testing.fake_llm import FakeLLMServer

PRIMER = "Before we start: you play X. Say ready."


def _counting():
    count = itertools.count(1)
    return lambda body: f"Action: 4\nreply {next(count)}"


def _decide(scaffold, observations, api_base):
    client = LLMClient(api_base=api_base, max_attempts=1, allow_placeholder_key=True)
    session = ModelSession(client, "openai/m", 0, Transcript())

    async def run():
        for observation in observations:
            await scaffold.decide(observation, session)
    asyncio.run(run())


def test_the_primer_is_asked_once_and_kept_before_every_decision():
    game = TicTacToe()
    first = game.observe(game.new_initial_state(0), 0).with_asking(primer=PRIMER)
    later = replace(first, turn=2)
    with FakeLLMServer(responder=_counting()) as server:
        _decide(direct(), [first, later], server.api_base)
        bodies = [r.body["messages"] for r in server.requests]
    system = {"role": "system", "content": SYSTEM_PROMPT}
    kept = [system, {"role": "user", "content": PRIMER}, {"role": "assistant", "content": "Action: 4\nreply 1"}]
    assert bodies == [
        [system, {"role": "user", "content": PRIMER}],
        [*kept, {"role": "user", "content": game_prompt(first)}],
        [*kept, {"role": "user", "content": game_prompt(later)}],
    ]


@pytest.mark.slow
def test_each_player_gets_its_own_primer_turn_and_no_primer_changes_nothing():
    game = TicTacToe()
    state = game.new_initial_state(0)
    mine, theirs = (replace(game.observe(state, p), player=p).with_asking(primer=PRIMER) for p in (0, 1))
    with FakeLLMServer(responder=_counting()) as server:
        _decide(direct(), [mine, theirs], server.api_base)
        primed = [r.body["messages"] for r in server.requests]
    assert [len(m) for m in primed] == [2, 4, 2, 4]  # player 0's primer and decision, then player 1's
    assert primed[3][2] == {"role": "assistant", "content": "Action: 4\nreply 3"}
    plain = game.observe(state, 0)
    with FakeLLMServer(responder=_counting()) as server:
        _decide(cot(), [plain], server.api_base)
        (reason, answer) = [r.body["messages"] for r in server.requests]
    assert [m["role"] for m in reason] == ["system", "user"] and [m["role"] for m in answer] == [
        "system", "user", "assistant", "user"]
    assert PRIMER not in str(reason) + str(answer)

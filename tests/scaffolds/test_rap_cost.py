"""GameBench's RAP cost estimate against the calls a real loopback Tic-Tac-Toe match makes."""

from __future__ import annotations

import asyncio

import pytest
from stratbench.core.transcript import Transcript
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.rap import Rap, call_bound, gamebench_cost_estimate
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.rap_responder import rap_responder


@pytest.mark.slow
def test_measured_calls_per_decision_against_gamebench_estimate():
    game = TicTacToe()
    state = game.new_initial_state(0)
    measured = []
    with FakeLLMServer(responder=rap_responder()) as server:
        client = LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True)
        sessions = {p: ModelSession(client, "openai/m", p, Transcript(), scaffold="rap") for p in (0, 1)}
        scaffolds = {p: Rap(depth=2, iterations=10) for p in (0, 1)}
        while not state.is_terminal():
            player = state.current_players()[0]
            observation = game.observe(state, player)
            before = len(server.requests)
            action = asyncio.run(scaffolds[player].decide(observation, sessions[player]))
            measured.append((len(observation.legal_actions), len(server.requests) - before))
            state.apply({player: action})
    # root: 1 selection + R self-evaluations; the first iteration: 3 calls per new state (2 states) and one
    # expansion (actions, selection, 2 self-evaluations); the later iterations revisit that trace
    assert measured == [(r, r + 11) for r in range(9, 9 - len(measured), -1)]
    assert len(measured) == 8
    for actions, calls in measured:
        assert calls <= call_bound(actions, depth=2, iterations=10, predicted=2)
        assert calls < gamebench_cost_estimate(1, 2, actions)
    total = sum(calls for _, calls in measured)
    estimate = sum(gamebench_cost_estimate(1, 2, actions) for actions, _ in measured)
    assert (total, estimate) == (132, 528)

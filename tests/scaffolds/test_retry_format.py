"""A retry asks for the same answer format as the decision's first prompt, under every scaffold."""

from __future__ import annotations

import asyncio

import pytest

from stratbench.core.transcript import Transcript
from stratbench.core.game import CHANCE
from stratbench.core.types import Action, ActionParseError
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.constrained import JSON_ANSWER_FORMAT, constrained
from stratbench.scaffolds.cot import cot
from stratbench.scaffolds.direct import direct
from stratbench.scaffolds.prompt import ANSWER_FORMAT
from stratbench.testing.fake_llm import FakeLLMServer

SCAFFOLDS = {"direct": direct, "cot": cot, "constrained": constrained}
DIPLOMACY_FORMAT = (
    'Reply with the JSON object in the format given above, with your orders as "orders": {"FRANCE": '
    '["A PAR - BUR", ...]}, one order per orderable location, each chosen from the possible orders.'
)
HANABI_FORMAT = (
    'Your output should be in this format:\n{"reason": string, "action": int} And the action should be one of '
    "the legal actions provided above."
)


def _first_observation(game_name):
    if game_name == "hanabi":
        pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel")
        from stratbench.games.spin.hanabi import Hanabi

        game, player = Hanabi("2p"), 0
    elif game_name == "diplomacy":
        pytest.importorskip("diplomacy", reason="Diplomacy needs the engine")
        from stratbench.games.spin.diplomacy import POWERS, DiplomacyNoPress

        game, player = DiplomacyNoPress("to1901"), POWERS.index("FRANCE")
    else:
        from stratbench.games.spin.tictactoe import TicTacToe

        game, player = TicTacToe(), 0
    state = game.new_initial_state(0)
    while state.current_players() == [CHANCE]:  # Hanabi deals first
        state.apply({CHANCE: Action(state.chance_outcomes()[0][0])})
    return game.observe(state, player)


def _expected_format(game_name, scaffold):
    if scaffold == "constrained" and game_name != "diplomacy":  # a finite list: the JSON schema's answer
        return JSON_ANSWER_FORMAT
    return {"hanabi": HANABI_FORMAT, "diplomacy": DIPLOMACY_FORMAT}.get(game_name, ANSWER_FORMAT)


def _user_texts(body):
    return [m["content"] if isinstance(m["content"], str) else m["content"][0]["text"]
            for m in body["messages"] if m["role"] == "user"]


async def _decide_twice(scaffold, observation, api_base):
    client = LLMClient(api_base=api_base, max_attempts=1, allow_placeholder_key=True)
    session = ModelSession(client, "openai/m", observation.player, Transcript())
    for attempt in (1, 2):
        current = observation if attempt == 1 else observation.with_feedback("that was not an answer", 2)
        try:
            await scaffold.decide(current, session)
        except ActionParseError:
            pass


@pytest.mark.parametrize("scaffold", sorted(SCAFFOLDS))
@pytest.mark.parametrize("game_name", ["hanabi", "diplomacy", "tictactoe"])
def test_the_retry_repeats_the_first_prompts_answer_format(game_name, scaffold):
    observation = _first_observation(game_name)
    expected = _expected_format(game_name, scaffold)
    with FakeLLMServer(responder=lambda body: "I am not sure what to do.") as server:
        asyncio.run(_decide_twice(SCAFFOLDS[scaffold](max_tokens=16), observation, server.api_base))
        bodies = [r.body for r in server.requests]
    first, retry = _user_texts(bodies[0]), _user_texts(bodies[-1])
    assert retry[-1] == f"Your answer was rejected: that was not an answer\n{expected}"
    if game_name == "diplomacy":  # the verbatim prompt's JSON carries "orders" keyed by the power
        assert '"orders": {' in first[0] and '"FRANCE": [' in first[0]
    else:
        assert expected in first[0]
    if scaffold == "cot":  # the second ask of the first attempt already names the same format
        assert retry[1].startswith("To summarize") and retry[1].endswith(expected)
    if expected != ANSWER_FORMAT:  # the generic format never appears in a conversation that has its own
        assert all(ANSWER_FORMAT not in text for text in retry)

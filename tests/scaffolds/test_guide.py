"""The ``guide`` scaffold: a non-empty guide for every registered game, sent in the system prompt."""

from __future__ import annotations

import asyncio
import tomllib
from dataclasses import replace
from pathlib import Path

import pytest

from stratbench.families import standalone_registry
from stratbench.core.transcript import Transcript
from stratbench.core.types import HarnessError
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.guide import guide, strategy_guide, with_guide
from stratbench.scaffolds.prompt import SYSTEM_PROMPT
from stratbench.testing.fake_llm import FakeLLMServer

ROOT = Path(__file__).resolve().parents[2]


def _registered_games():
    registry = standalone_registry(("games",))
    return sorted(registry.games)


def test_every_registered_game_has_a_short_non_empty_guide():
    games = _registered_games()
    assert len(games) >= 25
    for game in games:
        text = strategy_guide(game)
        words = len(text.split())
        assert 30 <= words <= 150, (game, words)


def test_a_missing_guide_is_an_error_naming_the_game():
    with pytest.raises(HarnessError, match="no strategy guide for game 'no_such_game'"):
        strategy_guide("no_such_game")


def test_the_guides_are_package_data():
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]
    assert "guides/*.md" in data["*"]  # any family's guides/ folder ships, with no line naming the family
    guides = sorted(path.stem for path in (ROOT / "plugin/stratbench").rglob("guides/*.md"))
    assert guides == _registered_games()


def test_the_guide_joins_the_system_prompt_or_becomes_it():
    assert with_guide([{"role": "system", "content": "S"}, {"role": "user", "content": "U"}], "G") == [
        {"role": "system", "content": "S\n\nG"}, {"role": "user", "content": "U"}]
    assert with_guide([{"role": "user", "content": "U"}], "G") == [
        {"role": "system", "content": "G"}, {"role": "user", "content": "U"}]


def test_the_guide_text_is_in_every_request_the_server_receives():
    game = TicTacToe()
    first = game.observe(game.new_initial_state(0), 0)
    retry = first.with_feedback("'9' is not a legal action", 2)
    transcript = Transcript()
    replies = iter(["Action: 9", "Action: 4"])
    with FakeLLMServer(responder=lambda body: next(replies)) as server:
        session = ModelSession(LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True),
                               "openai/m", 0, transcript)
        scaffold = guide()

        async def run():
            await scaffold.decide(first, session)
            return await scaffold.decide(retry, session)

        action = asyncio.run(run())
        bodies = [r.body["messages"] for r in server.requests]
    assert action.id == "4" and len(bodies) == 2
    expected = f"{SYSTEM_PROMPT}\n\nStrategy guide for Tic-Tac-Toe:\n{strategy_guide('tictactoe')}"
    for messages in bodies:
        assert messages[0] == {"role": "system", "content": expected}
        assert sum(strategy_guide("tictactoe") in str(m["content"]) for m in messages) == 1
    logged = [e["messages"][0]["content"] for e in transcript.to_list() if e["kind"] == "llm_call"]
    assert logged == [expected, expected]


def test_a_game_without_a_guide_fails_before_any_call():
    game = TicTacToe()
    observation = replace(game.observe(game.new_initial_state(0), 0), game="unguided")
    with FakeLLMServer(responder=lambda body: "Action: 4") as server:
        session = ModelSession(LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True),
                               "openai/m", 0, Transcript())
        with pytest.raises(HarnessError, match="'unguided'"):
            asyncio.run(guide().decide(observation, session))
        assert server.requests == []

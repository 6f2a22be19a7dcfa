"""Hive and Santorini with a model (loopback fake server): the image message, Explain, a suite run."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

from stratbench.agents.llm import LLMAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action
from stratbench.games.gamebench.hive import Hive
from stratbench.llm.client import LLMClient
from stratbench.scaffolds.direct import direct

SUITES = Path(__file__).resolve().parents[2] / "suites" / "gamebench"


def hive_midgame():
    game = Hive()
    state = game.new_initial_state(0)
    rng = random.Random(4)
    for _ in range(12):
        (player,) = state.current_players()
        state.apply({player: Action(rng.choice(state.legal_actions(player)))})
    return game, state


def decide(server, game, state, vision: str) -> Action:
    (player,) = state.current_players()
    context = AgentContext(
        spec=AgentSpec("llm", model="openai/m", scaffold="direct"),
        game=game,
        player=player,
        side=player,
        rng=random.Random(0),
        transcript=Transcript(),
        llm=LLMClient(api_base=server.api_base, allow_placeholder_key=True),
        options={"vision": vision},
    )
    return asyncio.run(LLMAgent(context, direct()).act(game.observe(state, player)))


def image_parts(request) -> list[dict]:
    parts = []
    for message in request.body["messages"]:
        if isinstance(message["content"], list):
            parts.extend(p for p in message["content"] if p.get("type") == "image_url")
    return parts


def test_a_vision_model_gets_the_hive_board_as_a_png_image(fake_llm):
    game, state = hive_midgame()
    action = decide(fake_llm, game, state, "on")
    assert action.id in state.legal_actions(state.current_players()[0])
    (part,) = image_parts(fake_llm.requests[0])
    assert part["image_url"]["url"].startswith("data:image/png;base64,iVBORw0KGgo")


def test_a_text_only_model_gets_the_text_board_instead(fake_llm):
    game, state = hive_midgame()
    decide(fake_llm, game, state, "off")
    request = fake_llm.requests[0]
    assert image_parts(request) == []
    prompt = request.body["messages"][-1]["content"]
    assert "Map (w = White, b = Black" in prompt and "Pieces:" in prompt


def test_explain_expands_a_hive_rule_topic(fake_llm):
    replies = iter(["Explain(H3)", "Action: pass"])
    fake_llm.responder = lambda body: next(replies, "Action: pass")
    game, state = hive_midgame()
    decide(fake_llm, game, state, "off")
    follow_up = fake_llm.requests[1].body["messages"][-1]["content"]
    assert follow_up == "Spider Movement: The Spider can move exactly three spaces."


def test_the_santorini_suite_runs_a_model_against_random(pytester, fake_llm):
    pytester.makepyfile(test_santorini=(SUITES / "test_santorini.py").read_text())
    result = pytester.runpytest(
        "-p", "no:cacheprovider", "-q", "--matches", "1", "-k", "openai",
        "--model", "openai/m", "--api-base", fake_llm.api_base, "--record-mode=once",
        "--stratbench-cassette-dir", str(pytester.path / "cassettes"), "--report-dir", "reports",
    )  # fmt: skip
    assert result.ret == 0, result.stdout.str()
    (record,) = [json.loads(line) for line in (pytester.path / "reports" / "results.jsonl").read_text().splitlines()]
    assert record["game"] == "santorini" and sorted(record["scores"]) == [0.0, 1.0]
    assert record["illegal"] == [0, 0] and record["fallbacks"] == [0, 0]
    prompts = [r.body["messages"][-1]["content"] for r in fake_llm.requests]
    assert prompts and all("You are player 1 and control pawns A and B" in p for p in prompts)

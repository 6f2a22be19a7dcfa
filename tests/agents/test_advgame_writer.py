"""A loopback model writes AdvGameBench strategies: prompts, re-prompts, and a 10-round match recorded and replayed."""

import asyncio
import hashlib
import json
import random
import re

import pytest

from stratbench.games.advgame.writers import ModelStrategyWriter
from stratbench.core.revision import RevisionRequest, play_revision_match
from stratbench.core.transcript import Transcript
from stratbench.games.advgame import battle_card, turn_based
from stratbench.games.advgame.baselines import random_strategy
from stratbench.games.advgame.prompts import catalogue_text, initial_prompt, revision_prompt
from stratbench.llm import cassettes
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.testing.fake_llm import FakeLLMServer

_SIDE = re.compile(r"You play the (\w+) side")


def _last_user_text(body):
    return next(m["content"] for m in reversed(body["messages"]) if m["role"] == "user")


def strategy_responder(game):
    """Answers every prompt with a random-valid strategy for the side it names, seeded by the prompt."""

    def respond(body):
        text = _last_user_text(body)
        if text.startswith("[Attempt"):
            return "```json\n{\"defenders\": [{\"name\": \"Sapling\"}]}\n```"
        side = _SIDE.search(text).group(1)
        seed = int.from_bytes(hashlib.sha256(text.encode()).digest()[:4], "big")
        return "```json\n" + json.dumps(random_strategy(game, side, random.Random(seed))) + "\n```"

    return respond


def _play(game_module, game, api_base, rounds=10):
    client = LLMClient(api_base=api_base, max_attempts=1, allow_placeholder_key=True)
    transcript = Transcript()
    writers = {side: ModelStrategyWriter(ModelSession(client, "openai/m", i, transcript), game, side)
               for i, side in enumerate(game_module.SIDES)}
    match = asyncio.run(play_revision_match(game_module, writers, first_reviser=game_module.SIDES[1], rounds=rounds,
                                            transcript=transcript))
    return match, transcript


@pytest.mark.slow
def test_a_ten_round_match_is_recorded_and_replays_identically(tmp_path):
    path = tmp_path / "advgame-turn_based.yaml"
    with FakeLLMServer(responder=strategy_responder("turn_based")) as server:
        with cassettes.use_cassette(path, "all"):
            recorded, transcript = _play(turn_based, "turn_based", server.api_base)
        api_base = server.api_base
    kinds = [e["kind"] for e in transcript.events]
    assert kinds.count("llm_call") == 2 + 9  # one initial strategy per side, then one revision per round but the last
    assert kinds.count("initial_strategy") == 2 and kinds.count("revision_round") == 10
    # Each round's event follows the calls that wrote its strategies, and carries the record.
    rounds = [e for e in transcript.events if e["kind"] == "revision_round"]
    assert [e["round"] for e in rounds] == list(range(1, 11))
    assert rounds[3]["strategies"] == recorded.rounds[3].strategies and rounds[3]["summary"]["remaining"] >= 0
    assert [r.reviser for r in recorded.rounds] == ["defender", "invader"] * 4 + ["defender", None]
    assert all(not r.violations[s] for r in recorded.rounds for s in turn_based.SIDES)
    with cassettes.use_cassette(path, "none"):  # the server is gone: only the cassette can answer
        replayed, _ = _play(turn_based, "turn_based", api_base)
    assert replayed.to_dict() == recorded.to_dict()


def test_an_over_budget_first_answer_is_re_prompted_in_the_same_conversation():
    def respond(body):
        text = _last_user_text(body)
        if text.startswith("[Attempt 1]"):
            return '{"defenders": [{"name": "Sapling"}]}'
        if "You play the defender side" in text:
            return '{"defenders": [{"name": "King", "tier": "Gold"}, {"name": "King", "tier": "Gold"}]}'
        return '{"invaders": [{"name": "FireLizard"}]}'

    with FakeLLMServer(responder=respond) as server:
        match, _ = _play(battle_card, "battle_card", server.api_base, rounds=1)
        retry = server.requests[-1].body["messages"]
    assert [m["role"] for m in retry] == ["user", "assistant", "user"]
    assert retry[2]["content"].startswith("[Attempt 1] cost 24 exceeds budget 20. Please adjust layout.")
    assert [a["cost"] for a in match.initial_attempts["defender"]] == [24, 1]


def test_prompts_carry_budget_catalogue_result_and_both_strategies():
    first = initial_prompt("battle_card", "invader")
    assert "Your budget is 20" in first
    assert "TideLord (Water): attack 4, health 10, cost 4; doubles its attack when damaged" in first
    assert 'key "invaders"' in first
    request = RevisionRequest("invader", 3, "defender", 18, 20, {"invaders": [{"name": "FireLizard"}]},
                              {"defenders": [{"name": "King", "tier": "Gold"}]}, {})
    revised = revision_prompt("battle_card", request)
    assert "Last round: defender won the game." in revised
    assert "Your strategy cost 18; your budget is 20." in revised
    assert "The opponent's units:\nKing (Guardian): attack 3, health 12, cost 4;" in revised
    assert '"tier": "Gold"' in revised and "FireLizard" in revised


@pytest.mark.parametrize(("game", "side", "line"), [
    ("tower_defense", "human", "RifleSoldier: HP 3, cost 200, fires every 500 ms for 1"),
    ("tower_defense", "demon", "DemonKing: HP 80, cost 800, speed 2, 5 damage per strike"),
    ("turn_based", "defender", "core_rebound (Earth, cost 5): factor 1.2"),
])
def test_catalogue_lines_come_from_the_simulator_tables(game, side, line):
    assert line in catalogue_text(game, side).splitlines()

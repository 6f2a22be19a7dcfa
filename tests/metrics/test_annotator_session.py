"""Annotator calls: temperature 0 and the match's seed in every request, recorded in the match record."""

from __future__ import annotations

from pathlib import Path

from stratbench.families import standalone_registry
from stratbench.core.agent import AgentSpec
from stratbench.core.game import Game, GameInfo, State
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.types import Observation, Rules
from stratbench.run.session import RunSettings, StratbenchSession, annotator_settings
from stratbench.testing.fake_llm import FakeLLMServer

NODE = "suites/demo/test_coin.py::test_coin[random-vs-random-s7]"
SPEC = MatchSpec("coin", (AgentSpec("random"), AgentSpec("random")), 0, 7, "random-vs-random-s7")


class CoinState(State):
    def _current_players(self):
        return [0, 1]

    def _legal_actions(self, player):
        return ["heads", "tails"]

    def _apply(self, actions):
        self.same = actions[0].id == actions[1].id

    def _is_terminal(self):
        return self.turn >= 1

    def _scores(self):
        return [1.0, 0.0] if self.same else [0.0, 1.0]


class Coin(Game):
    info = GameInfo("coin", 2, ((0,), (1,)), max_turns=1, simultaneous=True)
    rules = Rules("Coin", "Match the other's coin.")

    def new_initial_state(self, seed):
        return CoinState(self)

    def observe(self, state, player):
        return Observation("coin", player, "flip", tuple(state.legal_actions(player)), self.rules)


async def judge(game, outcome, session):
    reply = await session.complete([{"role": "user", "content": f"Judge {outcome.history}"}], purpose="annotate")
    return {0: {"judged": reply.text}}


def _play(tmp_path: Path, mode: str, api_base: str | None):
    registry = standalone_registry(("games", "agents", "scaffolds", "metrics"))
    registry.add_game("coin", Coin)
    registry.add_annotator("coin", "judge", judge)
    settings = RunSettings(api_base=api_base, report_dir=tmp_path / "reports", cassette_dir=tmp_path / "cassettes",
                           record_mode=mode, run_id="test", annotator_model="openai/judge", temperature=0.7)
    runner = StratbenchSession(settings, registry, is_controller=False)
    try:
        return runner.play(SPEC, SuiteSpec("coin"), NODE)
    finally:
        runner.close()


def test_annotator_requests_carry_temperature_zero_and_the_match_seed(tmp_path, monkeypatch):
    monkeypatch.setenv("OPENAI_API_KEY", "sk-test")
    with FakeLLMServer(responder=lambda body: "fair") as server:
        played = _play(tmp_path, "once", server.api_base)
    (request,) = server.requests
    assert request.body["seed"] == 7 and request.body["temperature"] == 0.0
    assert played.record["annotator"]["model"] == "openai/judge"
    assert played.record["annotator"]["settings"] == annotator_settings(7) == {"temperature": 0.0, "seed": 7}
    assert played.record["annotator"]["annotators"] == ["judge"]
    assert played.record["annotator"]["usage"]["calls"] == 1
    assert played.record["metrics"]["0"]["judged"] == "fair"
    (call,) = [e for e in played.transcript if e["kind"] == "llm_call"]
    assert call["settings"] == {"temperature": 0.0, "seed": 7}
    monkeypatch.delenv("OPENAI_API_KEY")
    replayed = _play(tmp_path, "none", None)  # the seed is part of the recorded request: the replay finds it
    assert replayed.record["metrics"] == played.record["metrics"]

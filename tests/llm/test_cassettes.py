"""Record and replay through cassettes: identical replays, scrubbed secrets, loud failures."""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from stratbench.families import standalone_registry
from stratbench.core.agent import AgentSpec
from stratbench.core.game import Game, GameInfo, State
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.types import Observation, Rules
from stratbench.llm import cassettes
from stratbench.run.session import RunSettings, StratbenchSession
from stratbench.testing.fake_llm import FakeLLMServer

SECRET = "sk-test-SECRET0123456789abcdef"


class DuelState(State):
    """Both players pick a number at once, three times."""

    def _current_players(self):
        return [0, 1]

    def _legal_actions(self, player):
        return ["1", "2", "3"]

    def _apply(self, actions):
        self.points = getattr(self, "points", [0, 0])
        a, b = int(actions[0].id), int(actions[1].id)
        if a != b:
            self.points[0 if a > b else 1] += 1

    def _is_terminal(self):
        return self.turn >= 3

    def _scores(self):
        p = getattr(self, "points", [0, 0])
        return [1.0, 0.0] if p[0] > p[1] else [0.0, 1.0] if p[1] > p[0] else [0.5, 0.5]


class Duel(Game):
    info = GameInfo("duel", 2, ((0,), (1,)), max_turns=3, simultaneous=True)
    rules = Rules("Duel", "Pick a number; the higher wins the round.")

    def new_initial_state(self, seed):
        return DuelState(self)

    def observe(self, state, player):
        return Observation("duel", player, f"Round {state.turn + 1} of 3.", tuple(state.legal_actions(player)),
                           self.rules, turn=state.turn)


def play(tmp_path: Path, mode: str, api_base: str | None, spec=None, node=None):
    """Plays a match in a fresh session and closes it."""
    runner = session(tmp_path, mode, api_base)
    try:
        return runner.play(spec or DUEL, SuiteSpec("duel"), node or NODE)
    finally:
        runner.close()


def session(tmp_path: Path, mode: str, api_base: str | None) -> StratbenchSession:
    registry = standalone_registry(("games", "agents", "scaffolds", "metrics"))
    registry.add_game("duel", Duel)
    settings = RunSettings(
        models=["openai/m"], api_base=api_base, report_dir=tmp_path / "reports", cassette_dir=tmp_path / "cassettes",
        record_mode=mode, run_id="test",
    )
    return StratbenchSession(settings, registry, is_controller=False)


DUEL = MatchSpec("duel", (AgentSpec("llm", "openai/m", "direct"), AgentSpec("llm", "openai/m", "cot")), 0, 4, "duel-s4")
NODE = "suites/demo/test_duel.py::test_duel[openai/m+direct-vs-openai/m+cot-s4]"


def stable(events):
    drop = {"t", "duration_s"}
    return [{k: v for k, v in e.items() if k not in drop} for e in events]


@pytest.fixture
def recorded(tmp_path, monkeypatch):
    """Records the duel against a slow fake server with a real-looking key, then stops the server."""
    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    server = FakeLLMServer(delay_s=0.05).start()
    try:
        played = play(tmp_path, "once", server.api_base)
    finally:
        server.stop()
    path = cassettes.cassette_path(tmp_path / "cassettes", NODE)
    return played, path, server


def test_replay_is_identical_with_the_server_gone(recorded, tmp_path, monkeypatch):
    played, path, server = recorded
    assert path.is_file() and played.record["cassette"]["sha256"] == cassettes.file_sha256(path)
    # Two LLM agents called concurrently: each round's two requests overlapped on the server.
    assert len(server.requests) == 3 + 6  # direct: 1 call per round; cot: 2 calls per round
    monkeypatch.delenv("OPENAI_API_KEY")
    replayed = play(tmp_path, "none", None)
    assert replayed.outcome.history == played.outcome.history
    assert replayed.outcome.scores == played.outcome.scores
    assert stable(replayed.transcript) == stable(played.transcript)
    assert replayed.record["usage"] == played.record["usage"]


def test_llm_calls_of_simultaneous_players_overlap(recorded):
    played, _, _ = recorded
    calls = [e for e in played.transcript if e["kind"] == "llm_call" and e["purpose"] in ("act", "reason")]
    first_round = [c for c in calls if "Round 1 of 3" in str(c["messages"])]
    ends = sorted(c["t"] for c in first_round)
    starts = sorted(c["t"] - c["duration_s"] for c in first_round)
    assert starts[1] < ends[0], "the two players' first calls did not overlap"


def test_no_secret_or_auth_header_reaches_the_cassette(recorded):
    _, path, server = recorded
    assert server.requests[0].headers["authorization"] == f"Bearer {SECRET}"  # the key was really sent
    text = path.read_text()
    assert SECRET not in text and "authorization" not in text.lower() and "bearer" not in text.lower()
    assert "x-stainless" not in text and "127.0.0.1" in text  # only content-type headers are kept


def test_an_edited_cassette_fails_loudly(recorded, tmp_path):
    _, path, _ = recorded
    path.write_text(path.read_text().replace("Action: ", "Action:  ", 1))
    with pytest.raises(cassettes.CassetteIntegrityError, match=f"cassette {re.escape(str(path))}: .*edited after recording"):
        play(tmp_path, "none", None)


def test_a_malformed_cassette_names_the_file(recorded, tmp_path):
    _, path, _ = recorded
    path.write_text("interactions: [unclosed")
    with pytest.raises(cassettes.CassetteIntegrityError, match=f"cassette {re.escape(str(path))}: not valid cassette YAML"):
        play(tmp_path, "none", None)


def test_a_missing_cassette_in_none_mode_names_it(tmp_path):
    with pytest.raises(cassettes.CassetteMissError, match="no cassette .*test_duel.*--record-mode=once"):
        play(tmp_path, "none", None)


def test_an_unrecorded_request_names_the_cassette_and_request(recorded, tmp_path):
    _, path, _ = recorded
    other = MatchSpec("duel", DUEL.sides, 0, 5, "duel-s5")  # the seed is part of every request
    other_node = NODE.replace("-s4]", "-s5]")
    target = cassettes.cassette_path(tmp_path / "cassettes", other_node)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(path.read_bytes())
    with pytest.raises(cassettes.CassetteOtherMatchError, match=(
            r"cassette .*s5\.yaml was recorded for another match \(seats .*; seed 4\), not this one "
            r"\(seats .*; seed 5\); record this match with --record-mode=all$")):
        play(tmp_path, "none", None, other, other_node)
    # the same match asking what its recording does not hold (a prompt change): the request is named
    target.write_bytes(path.read_bytes().replace(b"; seed 4", b"; seed 5"))
    with pytest.raises(cassettes.CassetteMissError, match=r"cassette .*s5\.yaml holds no response .*model='m'"):
        play(tmp_path, "none", None, other, other_node)


def test_sync_and_async_litellm_calls_record_and_replay(tmp_path, monkeypatch):
    import litellm

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    path = tmp_path / "sync.yaml"
    kwargs = dict(model="openai/m", messages=[{"role": "user", "content": "Legal actions: x, y"}], max_retries=0)
    with FakeLLMServer() as server:
        with cassettes.use_cassette(path, "once"):
            live_sync = litellm.completion(api_base=server.api_base, **kwargs).choices[0].message.content
            kwargs_async = {**kwargs, "messages": [{"role": "user", "content": "Legal actions: p, q"}]}
            live_async = asyncio.run(litellm.acompletion(api_base=server.api_base, **kwargs_async)).choices[0].message.content
    with cassettes.use_cassette(path, "none"):
        again_async = asyncio.run(litellm.acompletion(api_base="https://api.openai.com/v1", **kwargs_async))
        again_sync = litellm.completion(api_base="https://api.openai.com/v1", **kwargs)
    assert again_sync.choices[0].message.content == live_sync
    assert again_async.choices[0].message.content == live_async
    assert SECRET not in path.read_text()


def test_a_replay_that_makes_fewer_requests_than_recorded_fails_naming_the_first(tmp_path, monkeypatch):
    import litellm

    monkeypatch.setenv("OPENAI_API_KEY", SECRET)
    path = tmp_path / "shorter.yaml"
    asks = [{"model": "openai/m", "messages": [{"role": "user", "content": f"Legal actions: {n}"}], "max_retries": 0}
            for n in ("x, y", "p, q")]
    with FakeLLMServer() as server, cassettes.use_cassette(path, "once"):
        for kwargs in asks:
            litellm.completion(api_base=server.api_base, **kwargs)
    with cassettes.use_cassette(path, "none"):  # the same match again: every request made
        for kwargs in asks:
            litellm.completion(api_base="https://api.openai.com/v1", **kwargs)
    unplayed = pytest.raises(cassettes.CassetteUnplayedError, match=r"shorter\.yaml: .* 1 of 2 .*Legal actions: p, q")
    with unplayed, cassettes.use_cassette(path, "none"):
        litellm.completion(api_base="https://api.openai.com/v1", **asks[0])


def test_cassette_paths_come_from_test_ids(tmp_path):
    path = cassettes.cassette_path(tmp_path, "suites/spin/test_tictactoe.py::test_tictactoe[gpt-4o+cot-vs-minimax-s3]")
    assert path == tmp_path / "spin" / "test_tictactoe" / "test_tictactoe" / "gpt-4o+cot-vs-minimax-s3.yaml"
    odd = cassettes.cassette_path(tmp_path, "suites/x.py::test_x[openai/m+direct-vs-a b/c-s0]")
    assert odd.name == "openai_m+direct-vs-a_b_c-s0.yaml"
    dotted = [cassettes.cassette_path(tmp_path, f"suites/x.py::test_x[local/qwen2.5-coder-0.5b+{scaffold}-vs-random-s0]")
              for scaffold in ("direct", "cot")]
    assert [p.name for p in dotted] == ["local_qwen2.5-coder-0.5b+direct-vs-random-s0.yaml",
                                        "local_qwen2.5-coder-0.5b+cot-vs-random-s0.yaml"]


def test_body_hash_ignores_key_order_and_user_field():
    a = b'{"model": "m", "messages": [1], "user": "u1"}'
    b = b'{"messages": [1], "model": "m", "user": "u2"}'
    assert cassettes.canonical_body_hash(a) == cassettes.canonical_body_hash(b)
    assert cassettes.canonical_body_hash(a) != cassettes.canonical_body_hash(b'{"model": "m", "messages": [2]}')


TRANSPORT_SCRIPT = """
import asyncio, json, sys
from pathlib import Path

import litellm
from litellm.llms.custom_httpx.http_handler import AsyncHTTPHandler

from stratbench.llm import cassettes

path, mode, api_base = sys.argv[1:4]


async def ask():
    answers = []
    for actions in ("x, y", "p, q"):
        reply = await litellm.acompletion(model="openai/m", api_base=api_base, api_key="sk-test", max_retries=0,
                                          messages=[{"role": "user", "content": f"Legal actions: {actions}"}])
        answers.append(reply.choices[0].message.content)
    return answers


with cassettes.use_cassette(Path(path), mode):
    answers = asyncio.run(ask())
print(json.dumps({"aiohttp": AsyncHTTPHandler.should_use_aiohttp_transport(), "answers": answers}))
"""


@pytest.mark.slow
@pytest.mark.parametrize("recorded_with, replayed_with", [("aiohttp", "httpx"), ("httpx", "aiohttp")])
def test_each_litellm_transport_records_a_call_once_and_replays_the_others_cassette(
        tmp_path, recorded_with, replayed_with):
    """litellm's default aiohttp transport and plain httpx (``DISABLE_AIOHTTP_TRANSPORT=True``) are interchangeable."""
    script = tmp_path / "ask.py"
    script.write_text(TRANSPORT_SCRIPT)
    path = tmp_path / "transport.yaml"

    def run(transport: str, mode: str, api_base: str) -> dict:
        env = {k: v for k, v in os.environ.items() if k != "DISABLE_AIOHTTP_TRANSPORT"}
        if transport == "httpx":
            env["DISABLE_AIOHTTP_TRANSPORT"] = "True"
        done = subprocess.run([sys.executable, str(script), str(path), mode, api_base], env=env,
                              capture_output=True, text=True, timeout=300, check=False)
        assert done.returncode == 0, done.stderr[-3000:]
        result = json.loads(done.stdout.strip().splitlines()[-1])
        assert result["aiohttp"] is (transport == "aiohttp")  # the transport asked for is the one litellm used
        return result

    with FakeLLMServer() as server:
        live = run(recorded_with, "once", server.api_base)
    assert len(server.requests) == 2
    interactions = yaml.safe_load(path.read_text())["interactions"]
    assert [i["request"]["method"] for i in interactions] == ["POST", "POST"]  # each call once, not twice
    again = run(replayed_with, "none", "https://api.openai.com/v1")
    assert again["answers"] == live["answers"] and len(set(live["answers"])) == 2

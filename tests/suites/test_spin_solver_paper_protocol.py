"""End to end: ``--protocol paper`` plays Tic-Tac-Toe through litellm as SPIN-Bench's released code.

A loopback model first answers without JSON, then (after ``Illegal move, try
again``) with a JSON move read from the prompt's by-column legal list; every
request carries temperature 0.95 and the fixed opening exchange. A model that
never answers in JSON loses after exactly 11 requests (the first answer and 10
retries).
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
_LEGAL = re.compile(r"Legal moves: \[([0-9, ]*)\]")


def _pytest(tmp_path, name, api_base):
    args = ["suites/spin/test_tictactoe.py", "--protocol", "paper", "--model", "openai/m", "-k", "openai",
            "--api-base", api_base, "--record-mode=once",
            "--stratbench-cassette-dir", str(tmp_path / name / "cassettes"), "--report-dir", str(tmp_path / name)]
    result = run_pytest(
        [*args, "--matches", "2" if name == "plays" else "1",
         "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=ROOT, env=dict(os.environ), timeout=600,
    )
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    lines = (tmp_path / name / "results.jsonl").read_text().splitlines()
    return {r["test_id"]: r for r in map(json.loads, lines) if r.get("type") == "match"}


def _json_after_retry(body):
    messages = body["messages"]
    if messages[-1]["content"] != "Illegal move, try again":
        return "Action: 4"
    legal = _LEGAL.search(messages[2]["content"]).group(1).split(", ")
    return json.dumps({"reason": "first legal cell", "action": int(legal[0])})


@pytest.mark.slow
def test_paper_protocol_plays_with_the_released_conversation_retry_and_temperature(tmp_path):
    with FakeLLMServer(responder=_json_after_retry) as server:
        records = _pytest(tmp_path, "plays", server.api_base)
        bodies = [r.body for r in server.requests]
    assert set(records) == {"paper-openai/m+direct-vs-minimax-second-s0", "paper-openai/m+direct-vs-minimax-s1"}
    assert {body["temperature"] for body in bodies} == {0.95}
    assert all(body["messages"][1] == {"role": "assistant", "content": "Sure, let's start. "} for body in bodies)
    retries = [body for body in bodies if len(body["messages"]) == 5]
    assert len(retries) * 2 == len(bodies)  # every decision: one non-JSON answer, then one JSON answer
    for body in retries:
        assert body["messages"][3:] == [{"role": "assistant", "content": "Action: 4"},
                                        {"role": "user", "content": "Illegal move, try again"}]
    for record in records.values():
        side = record["subject"]
        assert record["protocol"] == "paper"
        assert record["illegal"][side] == record["decisions"][side] >= 1
        assert record["result"] in ("lost", "draw")


@pytest.mark.slow
def test_paper_protocol_loses_after_the_first_answer_and_ten_retries(tmp_path):
    with FakeLLMServer(responder=lambda body: "I would play the centre.") as server:
        records = _pytest(tmp_path, "forfeits", server.api_base)
        requests = len(server.requests)
    (record,) = records.values()
    assert requests == 11
    assert record["forfeited_by_side"] == record["subject"]
    assert record["illegal"][record["subject"]] == 11
    assert record["result"] == "lost"


def _collected(*args):
    result = run_pytest(
        ["suites/spin/test_chess.py", "--collect-only", "-q", "-p", "no:cacheprovider",
         "-p", "no:randomly", "--matches", "1", *args],
        cwd=ROOT, env={k: v for k, v in os.environ.items() if k != "STRATBENCH_CHESS_LEVEL"},
        timeout=300,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    return sorted(line.split("[", 1)[1].rstrip("]") for line in result.stdout.splitlines() if "::test_chess[" in line)


def test_paper_chess_plays_every_stockfish_level_in_one_run_and_names_it_in_the_id():
    assert _collected("--protocol", "paper") == [
        f"paper-random-vs-stockfish{level}-s0" for level in (0, 10, 15, 20, 5)
    ]
    default = _collected()  # the default also schedules the committed reference subjects
    assert [test_id for test_id in default if "stockfish" in test_id and test_id.startswith("random")] == [
        "random-vs-stockfish20-s0"]
    assert all(test_id.endswith("-vs-stockfish20-s0") for test_id in default)

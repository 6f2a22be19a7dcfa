"""End to end: the Hanabi suite in SPIN-Bench's paper protocol with a model, recorded and replayed offline.

A loopback fake model answers the rules primer and the released decision
prompts (now and then an illegal id first, to exercise the released retry).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from pathlib import Path

import pytest

pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'")

from stratbench.games.spin.hanabi_paper import PRIMER  # noqa: E402
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]


def responder(body):
    """Acknowledges the primer; answers a decision with a legal id (sometimes 99 first)."""
    last = body["messages"][-1]["content"]
    if last == PRIMER:
        return "Understood: hints, plays and discards, for the team."
    decision = next(m["content"] for m in body["messages"][3:] if m["role"] == "user")
    legal = ast.literal_eval(decision.split("to their descriptions:\n", 1)[1].split("\n", 1)[0])
    digest = hashlib.sha256(decision.encode()).digest()
    if last == decision and digest[1] % 4 == 0:
        return '{"reason": "a guess", "action": 99}'
    return json.dumps({"reason": "pick", "action": sorted(legal)[digest[0] % len(legal)]})


def _pytest(tmp_path, name, *extra):
    report = tmp_path / f"report-{name}"
    args = ["suites/spin/test_hanabi.py", "-q", "-p", "no:cacheprovider",
            "-p", "no:randomly", "--report-dir", str(report), "--stratbench-reference=off", "--protocol", "paper",
            "--model", "openai/m", "--stratbench-cassette-dir", str(tmp_path / "cassettes"), "-k", "direct and 2p-s0",
            *extra]
    result = run_pytest(args, cwd=ROOT, env=dict(os.environ), timeout=300)
    return result, report


@pytest.mark.slow
def test_hanabi_paper_protocol_primes_each_seat_and_replays(tmp_path):
    with FakeLLMServer(responder=responder) as server:
        recorded, first = _pytest(tmp_path, "record", "--api-base", server.api_base, "--record-mode=once")
        bodies = [r.body for r in server.requests]
    assert recorded.returncode == 0, recorded.stdout[-3000:] + recorded.stderr[-3000:]
    (record,) = [json.loads(line) for line in (first / "results.jsonl").read_text().splitlines()]
    assert record["protocol"] == "paper" and "[paper-openai/m+direct-2p-s0]" in record["match_id"]
    assert record["rules"] == {"illegal_tolerance": 6, "fallback": "forfeit", "on_truncation": "read"}
    assert record["result"] == "scored" and record["scores"][0] == record["metrics"]["0"]["released_score"]
    assert sum(record["illegal"]) > 0 and record["forfeited_by_side"] is None
    primers = [b for b in bodies if b["messages"][-1]["content"] == PRIMER]
    assert len(primers) == 2  # one per seat, once per match
    assert all([m["role"] for m in b["messages"]] == ["system", "user"] for b in primers)
    decisions = [b for b in bodies if b not in primers]
    assert all(b["messages"][1]["content"] == PRIMER and b["messages"][2]["role"] == "assistant" for b in decisions)
    retries = [b["messages"][-1]["content"] for b in decisions if len(b["messages"]) > 4]
    assert retries and set(retries) == {"Illegal move, try again"}
    assert {b.get("temperature") for b in bodies} == {0.95}

    replayed, second = _pytest(tmp_path, "replay", "--record-mode=none")
    assert replayed.returncode == 0, replayed.stdout[-3000:] + replayed.stderr[-3000:]
    (again,) = [json.loads(line) for line in (second / "results.jsonl").read_text().splitlines()]
    for key in ("scores", "terminal", "turns", "illegal", "metrics"):
        assert again[key] == record[key], key

"""End to end: the SC2 suite with a loopback model, recorded into cassettes and replayed identically.

A loopback fake model (``stratbench.testing.fake_llm``) reads each text
observation and answers as an agent would: every team attacks the first
enemy listed, and with messages on each agent also writes to the other. The
real litellm/vcrpy path runs; a second run, with the server gone, replays the
cassettes and must reproduce every score, metric, action and message. The
paper protocol's first request is pinned against the released prompt.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from stratbench.run.results import read_transcript
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]
SUITE = "suites/sc2/test_mock_skirmish.py"


def responder(body):
    """Attacks the first listed enemy with every team; talks to the first communication target."""
    text = body["messages"][-1]["content"]
    teams = re.findall(r"^Team (\S+) Info:", text, re.MULTILINE)
    lines = ["Analysis:", "  Focus fire on the first enemy listed.", "Actions:"]
    for team in teams:
        block = text.split(f"Team {team} Info:", 1)[1].split("\n\n", 1)[0]
        enemy = re.search(r"Nearby Enemy Units:\n\t\tUnit: \w+    Tag: (0x[0-9a-f]+)", block)
        if enemy:
            lines += [f"  Team {team}:", f"    <Attack_Unit({enemy.group(1)})>"]
    targets = re.search(r"Available Communication Targets:\n\t(\w+):", text)
    if targets:
        lines += ["Communications:", f"  <MessageTo({targets.group(1)}, '''Focus fire with me.''')>"]
    return "\n".join(lines) + "\n"


def _pytest(tmp_path, name, *extra, select="direct"):
    report = tmp_path / f"report-{name}"
    args = [SUITE, "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
            "--report-dir", str(report), "--stratbench-reference=off", "--model", "openai/m",
            "--stratbench-cassette-dir", str(tmp_path / "cassettes"), "-k", select, *extra]
    result = run_pytest(args, cwd=ROOT, env=dict(os.environ), timeout=300)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    lines = (report / "results.jsonl").read_text().splitlines()
    return report, {r["test_id"]: r for r in map(json.loads, lines)}


def _events(report, record, kinds):
    events = read_transcript(report / record["transcript"])["events"]
    return [{k: v for k, v in e.items() if k != "t"} for e in events if e["kind"] in kinds]


@pytest.mark.slow
def test_a_multi_agent_episode_records_and_replays_identically(pysc2, tmp_path):
    with FakeLLMServer(responder=responder) as server:
        first, records = _pytest(tmp_path, "record", "--api-base", server.api_base, "--record-mode=once")
        requests = len(server.requests)
    assert set(records) == {"openai/m+direct-2s1z_vs_4zg-s0", "openai/m+direct-2s1z_vs_4zg-2agents-s0",
                            "openai/m+direct-3s_vs_2r-s0"}
    talking = records["openai/m+direct-2s1z_vs_4zg-2agents-s0"]
    assert talking["result"] == "scored" and talking["terminal"] == "win" and talking["scores"] == [1.0]
    team = talking["metrics"]["0"]
    assert team["outcome"] == "win" and team["killed_value"] > 0 and team["backend"] == "mock"
    assert team["actions"] > 0 and 0 <= team["invalid_rate"] <= 1
    assert talking["metrics"]["1"]["agent"]["name"] == "CombatGroup1"
    messages = team["messages"]
    per_agent = [talking["metrics"][str(p)]["agent"]["decisions"] for p in (0, 1)]
    # Each agent writes to the other every decision both still have units (a dead team's agent sits out).
    assert 2 <= len(messages) <= sum(per_agent) and {m["text"] for m in messages} == {"Focus fire with me."}
    assert {(m["sender"], tuple(m["recipients"])) for m in messages} == {
        ("CombatGroup0", ("CombatGroup1",)), ("CombatGroup1", ("CombatGroup0",))}
    assert all(1 <= m["decision"] <= team["decisions"] for m in messages)
    calls = _events(first, talking, {"llm_call"})
    assert len(calls) == sum(per_agent)  # one query per acting agent per decision
    assert requests == sum(len(_events(first, r, {"llm_call"})) for r in records.values())

    second, again = _pytest(tmp_path, "replay", "--record-mode=none")
    assert set(again) == set(records)
    for test_id, record in records.items():
        other = again[test_id]
        for key in ("scores", "result", "terminal", "turns", "illegal", "fallbacks", "metrics"):
            assert other[key] == record[key], (test_id, key)
        assert other["cassette"]["sha256"] == record["cassette"]["sha256"]
        kinds = {"action", "message", "rejected", "fallback", "observation"}
        assert _events(second, other, kinds) == _events(first, record, kinds), test_id


PAPER_SYSTEM = """
1.Identity
  You are a Protoss military commander, controls units to fight against enemy..
  Your should command your troops, complete the tactical tasks assigned by the superior. You will have several teams of units, you can command these teams to fight together or perform different tasks.

2.Rules

1. Concentrating firepower is always necessary, attack different unit at the same time will definitely reduce killing speed and leading to terrible result. Always concentrating all teams' fire at one unit that (1)with highest DPS(most valuable) (2)most vulnerable (3)closest.


3.Action Output
  You should make decisions according to observed information, tactic task and rules, give analysis and decisions for each team. For example, if you have 2 teams name as 'TeamName-1' and 'TeamName-2', you should output as:
  
Analysis:
  xxxxx
Actions:
  Team TeamName-1:
    <ActionName1(...)>  # format like **ActionName1(...)** and -ActionName1(...)- are not valid, must use <>
    <ActionName2(...)>
  Team TeamName-2:
    <ActionName1(...)>

      
Note that actions must in the shape <ActionName(...)>, do not generate action like 'ActionName(...)' or **ActionName(...)**.
"""
"""The released 2025 CombatGroupPrompt system prompt for LLM-SMAC's agent (its description ends in a period,
which the template follows with another, as released)."""

PAPER_EXAMPLE_OUTPUT = """
Analysis:
  xxxxx
Actions:
  Team TeamName-1:
    <ActionName1(...)>  # format like **ActionName1(...)** and -ActionName1(...)- are not valid, must use <>
    <ActionName2(...)>
  Team TeamName-2:
    <ActionName1(...)>
"""


@pytest.mark.slow
def test_the_paper_protocol_sends_the_released_prompt(pysc2, tmp_path):
    with FakeLLMServer(responder=responder) as server:
        _, records = _pytest(tmp_path, "paper", "--api-base", server.api_base, "--record-mode=once",
                             "--protocol", "paper", select="direct and 3s_vs_2r")
        first = server.requests[0].body
    assert set(records) == {"paper-openai/m+direct-3s_vs_2r-s0"}
    messages = first["messages"]
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "user"]
    assert messages[0]["content"] == PAPER_SYSTEM
    assert messages[1]["content"] == "xxxxx"
    assert messages[2]["content"] == PAPER_EXAMPLE_OUTPUT
    # Selecting the team before it is observed took 3 steps of 8 game loops: 24 / 22.4 s.
    assert messages[3]["content"].startswith("Game Info:\nTime: 0:01\n\nTeam Stalker-1 Info:\n")
    assert messages[3]["content"].endswith("Now, start generating your analysis and actions:")
    assert first["temperature"] == 0.1

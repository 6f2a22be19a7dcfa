"""Protocols: a suite plays the default or a registered protocol, and everything downstream says which."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from stratbench.protocols import DEFAULT_PROTOCOL, Protocol, agent_options, effective_name
from stratbench.registry import Registry
from stratbench.testing.fake_llm import FakeLLMServer

QUICK = ["-p", "no:cacheprovider", "-n", "0", "--stratbench-bootstrap", "50"]

# A third-party protocol for tictactoe: other retry rules, one match per pairing, a hotter model.
CONFTEST = """
import pytest
from stratbench.protocols import Protocol

@pytest.hookimpl
def pytest_stratbench_add_protocols(registry):
    registry.add_protocol("tictactoe", Protocol(
        "strict", source="a test", agent_options={"temperature": 0.95},
        suite={"illegal_tolerance": 1, "matches": 1, "baselines": ("random",)},
    ))
"""

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=2)
def test_tictactoe(match):
    match.play()

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=2, protocol="strict")
def test_pinned(match):
    match.play()
"""


def _records(report: Path) -> list[dict]:
    return [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines() if line.strip()]


def test_the_registry_knows_each_games_protocols():
    registry = Registry()
    registry.add_protocol("tictactoe", Protocol("paper", suite={"illegal_tolerance": 1}))
    assert registry.protocol("tictactoe", "default") is DEFAULT_PROTOCOL
    assert registry.protocol("tictactoe", "paper").suite == {"illegal_tolerance": 1}
    with pytest.raises(ValueError, match="game 'chess' has no protocol 'paper'; its protocols: default"):
        registry.protocol("chess", "paper")
    with pytest.raises(ValueError, match="registered twice"):
        registry.add_protocol("tictactoe", Protocol("paper"))
    with pytest.raises(ValueError, match="the game's own"):
        registry.add_protocol("tictactoe", Protocol("default"))
    with pytest.raises(ValueError, match=r"unknown suite fields \['tolerance'\]"):
        Protocol("paper", suite={"tolerance": 1})


def test_a_pinned_protocol_wins_and_an_explicit_temperature_wins_over_the_protocols():
    assert effective_name("paper", "default") == "paper"
    assert effective_name(None, "paper") == "paper"
    assert effective_name(None, None) == "default"
    hot = Protocol("paper", agent_options={"temperature": 0.95, "max_tokens": 64})
    assert agent_options(hot, {"temperature": 0.0}, temperature_given=False) == {"temperature": 0.95, "max_tokens": 64}
    assert agent_options(hot, {"temperature": 0.2}, temperature_given=True) == {"temperature": 0.2, "max_tokens": 64}


@pytest.mark.slow
def test_a_protocol_changes_the_schedule_the_ids_the_request_and_the_records(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_ttt=SUITE)
    with FakeLLMServer() as server:
        result = pytester.runpytest_subprocess(*QUICK, "--model", "openai/m", "--api-base", server.api_base, "-v")
        temperatures = sorted({r.body.get("temperature") for r in server.requests})
    assert result.ret == 0, result.stdout.str()[-3000:]
    records = _records(pytester.path / "reports/latest")
    by_test = {}
    for record in records:
        by_test.setdefault(record["match_id"].split("[")[0].rsplit("::", 1)[-1], []).append(record)
    default, pinned = by_test["test_tictactoe"], by_test["test_pinned"]
    # The default suite: 2 matches per pairing, ids as before, protocol named.
    assert {r["protocol"] for r in default} == {"default"}
    assert all("[paper" not in r["match_id"] and "[strict" not in r["match_id"] for r in default)
    assert len(default) == 4  # (openai/m, random) against minimax, 2 matches each
    # The pinned suite: one match per pairing (the protocol's), ids prefixed, rules replaced.
    assert {r["protocol"] for r in pinned} == {"strict"}
    assert all("[strict-" in r["match_id"] for r in pinned)
    assert len(pinned) == 2
    assert all(r["rules"]["illegal_tolerance"] == 1 for r in pinned)
    assert {r["settings_hash"] for r in pinned}.isdisjoint({r["settings_hash"] for r in default})
    # The model got the protocol's temperature in the pinned suite only.
    assert temperatures == [0.0, 0.95]
    report = (pytester.path / "reports/latest/report.md").read_text()
    assert "protocol: default, strict" in report
    assert "mix protocols (default, strict)" in report


def test_protocol_from_the_command_line_and_unknown_protocols(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_ttt=SUITE.split("@pytest.mark.stratbench(game=\"tictactoe\", opponents=[\"minimax\"], "
                                             "baselines=[\"random\"], matches=2, protocol")[0])
    result = pytester.runpytest_subprocess(*QUICK, "--protocol", "strict")
    assert result.ret == 0, result.stdout.str()[-3000:]
    records = _records(pytester.path / "reports/latest")
    assert len(records) == 1 and records[0]["protocol"] == "strict"
    assert "protocol: strict" in (pytester.path / "reports/latest/report.md").read_text()
    unknown = pytester.runpytest_subprocess(*QUICK, "--protocol", "papr")
    assert unknown.ret == 2
    unknown.stdout.fnmatch_lines(["*game 'tictactoe' has no protocol 'papr'; its protocols: default, paper, strict*"])

"""--gate-until-decided with the built-in agents: it stops at the decision, keeps to --budget and resumes."""

from __future__ import annotations

import json

import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=4)
def test_tictactoe(match):
    match.play()
"""
FAST = ("-p", "no:cacheprovider", "--stratbench-bootstrap", "100", "--matches", "60")


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    # In the baseline random won every match against minimax; now it cannot: a regression to find.
    rows = [{"match_id": f"test_ttt.py::test_tictactoe[random-vs-minimax-s{k}]", "game": "tictactoe",
             "agents": ["random", "minimax"], "scores": [1.0, 0.0], "seed": k, "variant": None, "subject": 0,
             "score_range": [0.0, 1.0]} for k in range(60)]
    (pytester.path / "base").mkdir()
    (pytester.path / "base" / "results.json").write_text(json.dumps({"agents": ["minimax", "random"], "matches": rows}))
    return pytester


def _records(pytester):
    lines = (pytester.path / "reports" / "latest" / "results.jsonl").read_text().splitlines()
    return {r["match_id"]: r for r in map(json.loads, lines) if r.get("type") == "match"}


@pytest.mark.slow
def test_until_decided_stops_at_the_decision_and_resumes_within_its_budget(suite):
    small = suite.runpytest_subprocess(*FAST, "--baseline", "base", "--gate-until-decided", "--budget", "6")
    assert small.ret == 6, small.stdout.str()
    records = _records(suite)
    scored = [r for r in records.values() if r["status"] == "scored"]
    assert len(scored) == 6 and [r["seed"] for r in sorted(scored, key=lambda r: r["seed"])] == list(range(6))
    assert {r["reason"] for r in records.values() if r["status"] == "skipped"} == {
        "--gate-until-decided: its budget of 6 matches is spent"}
    assert sum(line.startswith("stratbench gate: random on tictactoe: LLR ") for line in small.stdout.lines) == 6

    resumed = suite.runpytest_subprocess(*FAST, "--baseline", "base", "--gate-until-decided", "--budget", "40",
                                         "--resume")
    assert resumed.ret == 1, resumed.stdout.str()
    resumed.stdout.fnmatch_lines(["stratbench gate: FAILED", "  FAIL  random: tictactoe: LLR -*"])
    records = _records(suite)
    scored = sorted((r for r in records.values() if r["status"] == "scored"), key=lambda r: r["seed"])
    data = json.loads((suite.path / "reports" / "latest" / "results.json").read_text())
    (test,) = data["gate"]["tests"]
    assert test["decision"] == "fail" and test["decided_at"] in (len(scored), len(scored) - 1)
    assert 6 < len(scored) <= 6 + 40 and [r["seed"] for r in scored] == list(range(len(scored)))
    skipped = {r["reason"] for r in records.values() if r["status"] == "skipped"}
    assert skipped == {f"--gate-until-decided: random on tictactoe is decided (fail) after {test['decided_at']} pair(s)"}

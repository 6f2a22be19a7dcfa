"""--gate-until-decided with the built-in agents: it stops at the decision, keeps to --budget and resumes."""

from __future__ import annotations

import json

import pytest
from stratbench.report.gate import unit_order

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
    # In the baseline random won every match against minimax, seated as this run seats it (even seeds first); now it
    # cannot: a regression to find. Recorded without --pairs: each unit is one match, in the same seating.
    rows = [{"match_id": f"test_ttt.py::test_tictactoe[random-vs-minimax-s{k}]", "game": "tictactoe",
             "agents": ["random", "minimax"] if k % 2 == 0 else ["minimax", "random"],
             "scores": [1.0, 0.0] if k % 2 == 0 else [0.0, 1.0], "seed": k, "variant": None, "subject": k % 2,
             "score_range": [0.0, 1.0]} for k in range(60)]
    (pytester.path / "base").mkdir()
    (pytester.path / "base" / "results.json").write_text(json.dumps({"agents": ["minimax", "random"], "matches": rows}))
    return pytester


def _records(pytester):
    lines = (pytester.path / "reports" / "latest" / "results.jsonl").read_text().splitlines()
    return {r["match_id"]: r for r in map(json.loads, lines) if r.get("type") == "match"}


GATE_ORDER = sorted(range(60), key=lambda k: unit_order("test_ttt.py::test_tictactoe", None, k, None))
"""The seeds in the gate's order: a hash of test, variant and seed, not the seeds' own order."""


@pytest.mark.slow
def test_until_decided_stops_at_the_decision_and_resumes_within_its_budget(suite):
    small = suite.runpytest_subprocess(*FAST, "--baseline", "base", "--gate-until-decided", "--budget", "6")
    assert small.ret == 6, small.stdout.str()
    small.stdout.fnmatch_lines(["stratbench gate plan: 1 test(s); 60 unit(s) can pair (60 match(es)); *",
                                "stratbench gate plan: a test has only 60 unit(s) to play, *",
                                "stratbench gate plan: budget 6 match(es), 0 spent by the runs resumed; *"])
    records = _records(suite)
    scored = [r for r in records.values() if r["status"] == "scored"]
    assert len(scored) == 6 and sorted(r["seed"] for r in scored) == sorted(GATE_ORDER[:6])
    assert GATE_ORDER[:6] != sorted(GATE_ORDER[:6])  # the gate's order is not the seeds' order
    assert {r["reason"] for r in records.values() if r["status"] == "skipped"} == {
        "--gate-until-decided: its budget of 6 matches is spent"}
    assert sum(line.startswith("stratbench gate: random on tictactoe: LLR ") for line in small.stdout.lines) == 6

    resumed = suite.runpytest_subprocess(*FAST, "--baseline", "base", "--gate-until-decided", "--budget", "40",
                                         "--resume")
    assert resumed.ret == 1, resumed.stdout.str()
    resumed.stdout.fnmatch_lines(["stratbench gate plan: budget 40 match(es), 6 spent by the runs resumed; *",
                                  "stratbench gate: FAILED", "  FAIL  random: tictactoe: LLR -*"])
    records = _records(suite)
    scored = [r for r in records.values() if r["status"] == "scored"]
    data = json.loads((suite.path / "reports" / "latest" / "results.json").read_text())
    (test,) = data["gate"]["tests"]
    assert test["decision"] == "fail" and test["decided_at"] in (len(scored), len(scored) - 1)
    assert 6 < len(scored) <= 40 and sorted(r["seed"] for r in scored) == sorted(GATE_ORDER[:len(scored)])
    skipped = {r["reason"] for r in records.values() if r["status"] == "skipped"}
    assert skipped == {f"--gate-until-decided: random on tictactoe is decided (fail) after {test['decided_at']} unit(s)"}


@pytest.mark.slow
def test_until_decided_plays_nothing_that_cannot_complete_a_unit(pytester):
    """Seeds the baseline played in the other seating are never played; when none can pair, nothing is played."""
    pytester.makepyfile(test_ttt=SUITE)
    rows = [{"match_id": f"test_ttt.py::test_tictactoe[random-vs-minimax-s{k}]", "game": "tictactoe",
             "agents": ["random", "minimax"], "scores": [1.0, 0.0], "seed": k, "variant": None, "subject": 0,
             "score_range": [0.0, 1.0]} for k in range(1, 60, 2)]  # odd seeds, but random in the first seat
    (pytester.path / "base").mkdir()
    (pytester.path / "base" / "results.json").write_text(json.dumps({"agents": ["minimax", "random"], "matches": rows}))
    result = pytester.runpytest_subprocess(*FAST, "--baseline", "base", "--gate-until-decided", "--budget", "6")
    assert result.ret == 4, result.stdout.str()
    result.stderr.fnmatch_lines(["*stratbench gate: nothing compared: no collected match can complete a unit "
                                 "(the baseline has no match of this seed; the baseline played this seed in the "
                                 "other seating); nothing was played*"])
    assert not (pytester.path / "reports" / "latest" / "results.jsonl").exists() or not _records(pytester)


@pytest.mark.slow
def test_gate_plan_prints_the_plan_and_plays_nothing(suite):
    result = suite.runpytest_subprocess(*FAST, "--baseline", "base", "--gate-plan", "--budget", "10")
    assert result.ret == 0, result.stdout.str()
    result.stdout.fnmatch_lines([
        "stratbench gate plan: 1 test(s); 60 unit(s) can pair (60 match(es)); a win/draw/loss test decides after "
        "about 256 unit(s) if nothing changed and 256 at the regression it is built to catch (H0 -50 normalized Elo "
        "or a score drop of 0.1, Bonferroni over 1)",
        "stratbench gate plan: a test has only 60 unit(s) to play, fewer than a decision takes on average: *",
        "stratbench gate plan: budget 10 match(es), 0 spent by the runs resumed; *",
        "*stratbench gate: the plan above (--gate-plan); nothing was played*",
    ])
    path = suite.path / "reports" / "latest" / "results.jsonl"
    assert not path.exists() or not _records(suite)


def test_a_probe_is_keyed_by_the_renaming_its_records_carry():
    from stratbench.core.agent import AgentSpec
    from stratbench.core.obfuscation import Obfuscation
    from stratbench.core.schedule import MatchSpec, with_obfuscations
    from stratbench.run.gate_schedule import _renaming_tag

    original = MatchSpec("tictactoe", (AgentSpec(kind="random"), AgentSpec(kind="minimax")), 0, 3,
                         "random-vs-minimax-s3")
    salted = Obfuscation("mystery", 7, "run-salt")
    plain, probe = with_obfuscations([original], [salted])
    assert _renaming_tag(plain, "run-salt") is None
    assert _renaming_tag(probe, "run-salt") == salted.tag and salted.tag.startswith("obf-mystery-s7-k")
    assert probe.id.endswith("-" + salted.tag)  # the id's ending, as the records name it


@pytest.mark.slow
@pytest.mark.parametrize("workers", [(), ("-n", "2")], ids=["one-process", "xdist"])
def test_any_gated_run_says_its_plan_and_never_plays_a_match_that_cannot_complete_a_unit(suite, workers):
    """Without --gate-until-decided too: the plan first (one process), the seeds the baseline lacks skipped with
    why, under -n on the workers alike; when nothing can pair, exit 4 before any match."""
    rows = json.loads((suite.path / "base" / "results.json").read_text())["matches"]
    (suite.path / "base" / "results.json").write_text(json.dumps({"agents": ["minimax", "random"],
                                                                  "matches": rows[:4]}))
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-bootstrap", "50", "--matches", "8",
                                        "--baseline", "base", *workers)
    assert result.ret == 6, result.stdout.str()
    if workers:  # the plan cannot be printed by the controller: said aloud, with where to get it
        result.stdout.fnmatch_lines(["stratbench gate: under -n the workers collect the matches, so the plan *"])
    if not workers:
        result.stdout.fnmatch_lines(["stratbench gate plan: 1 test(s); 4 unit(s) can pair (4 match(es)); *",
                                     "stratbench gate plan: cost not estimated (no recorded match of these tests "
                                     "carries a price; *",
                                     "stratbench gate plan: 4 match(es) cannot complete a unit and are not played"])
    records = _records(suite)
    played = sorted(r["seed"] for r in records.values() if r["status"] == "scored" and r["sides"][r["subject"]][
        "agent"] == "random")
    skipped = {r["seed"]: r["reason"] for r in records.values() if r["status"] == "skipped"}
    assert played == [0, 1, 2, 3]
    assert skipped == {k: "stratbench gate: cannot complete a unit: the baseline has no match of this seed"
                       for k in range(4, 8)}
    if workers:
        return
    (suite.path / "base" / "results.json").write_text(json.dumps({"agents": ["minimax", "random"], "matches": [
        {**row, "seed": row["seed"] + 100, "match_id": row["match_id"].replace("-s", "-s10")} for row in rows[:4]]}))
    nothing = suite.runpytest_subprocess("-p", "no:cacheprovider", "--matches", "8", "--baseline", "base",
                                         "--report-dir", "nothing")
    assert nothing.ret == 4, nothing.stdout.str()
    nothing.stderr.fnmatch_lines(["*stratbench gate: nothing compared: no collected match can complete a unit (the "
                                  "baseline has no match of this seed); nothing was played*"])
    assert not (suite.path / "nothing" / "results.jsonl").exists()

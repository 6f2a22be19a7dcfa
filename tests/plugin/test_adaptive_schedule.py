"""--schedule adaptive --budget N: the planner's choices, and a run that plays N matches and skips the rest."""

from __future__ import annotations

import json

import numpy as np
import pytest
from stratbench.rating import MatchResult
from stratbench.rating.adaptive import AdaptivePlanner, interval_overlap

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=8)
def test_tictactoe(match):
    match.play()


def test_not_a_match():
    assert True
"""
NOT_CHOSEN = ("not chosen by --schedule adaptive: its budget of 3 matches went to matches that narrowed the "
              "rating intervals more")


def _wins(first: str, second: str, n: int) -> list[MatchResult]:
    return [MatchResult("g", (first, second), (1.0, 0.0), f"{first}-{second}-{k}") for k in range(n)]


def test_overlap_of_two_equal_intervals_is_their_width():
    assert interval_overlap(np.array([0.0, 0.0]), np.array([1.0, 1.0]), z=2.0) == pytest.approx(4.0)
    assert interval_overlap(np.array([0.0, 5.0]), np.array([1.0, 1.0]), z=2.0) == 0.0
    # three agents: pairs (0,1) overlap by 1, (1,2) by 1, (0,2) not at all
    assert interval_overlap(np.array([0.0, 1.0, 2.0]), np.array([1.0, 1.0, 1.0]), z=1.0) == pytest.approx(2.0)


def test_a_pair_already_told_apart_is_not_chosen():
    planner = AdaptivePlanner(["strong", "middle", "weak"])
    for match in _wins("strong", "weak", 12) + _wins("middle", "weak", 2):
        planner.add_result(match)
    means = planner.ratings()
    assert means[0] > means[1] > means[2]
    # strong-weak is settled; strong-middle overlaps the most
    assert planner.choose([("strong", "weak"), ("weak", "strong"), ("strong", "middle")]) == 2


def test_an_unplayed_agent_is_brought_in_first():
    planner = AdaptivePlanner(["a", "b", "c"])
    for match in _wins("a", "b", 3) + _wins("b", "a", 3):
        planner.add_result(match)
    assert planner.choose([("a", "b"), ("b", "a"), ("b", "c")]) == 2


def test_the_seating_played_least_comes_next_and_pending_matches_count():
    planner = AdaptivePlanner(["a", "b"])
    candidates = [("a", "b"), ("a", "b"), ("b", "a")]
    assert planner.choose(candidates) == 0
    planner.add_pending(("a", "b"))
    assert planner.choose(candidates) == 2  # same pair, the other seating
    before = np.diag(planner.covariance(planner.ratings())).copy()
    planner.add_pending(("b", "a"))
    assert np.all(np.diag(planner.covariance(planner.ratings())) < before)
    planner.add_result(MatchResult("g", ("a", "b"), (0.5, 0.5)))  # finished: no longer pending
    assert planner.pending == [("b", "a")] and len(planner.played) == 1


def test_an_agent_against_itself_is_never_chosen():
    planner = AdaptivePlanner(["a", "b"])
    assert planner.choose([("a", "a"), ("b", "b")]) is None
    assert planner.choose([("a", "a"), ("b", "a")]) == 1


def test_results_that_are_not_win_shares_are_left_out():
    planner = AdaptivePlanner(["a", "b"])
    planner.add_result(MatchResult("diplomacy", ("a", "b"), (3.0, 0.0)))
    planner.add_result(MatchResult("g", ("a", "z"), (1.0, 0.0)))  # an agent no candidate names
    assert planner.played == [] and list(planner.ratings()) == [0.0, 0.0]


def _records(report) -> list[dict]:
    return [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines() if line.strip()]


@pytest.mark.slow
def test_adaptive_plays_its_budget_and_skips_the_rest_with_the_reason(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-bootstrap", "20", "-v",
                                           "--schedule", "adaptive", "--budget", "3", "-rs")
    assert result.ret == 0, result.stdout.str()
    records = _records(pytester.path / "reports" / "latest")
    assert len(records) == 8  # every collected match ends in the results
    scored = [r for r in records if r["status"] == "scored"]
    skipped = [r for r in records if r["status"] == "skipped"]
    assert len(scored) == 3 and len(skipped) == 5
    assert {r["reason"] for r in skipped} == {NOT_CHOSEN}
    seatings = sorted(tuple(side["agent"] for side in r["sides"]) for r in scored)
    assert sorted(seatings.count(s) for s in set(seatings)) == [1, 2]  # both seatings, balanced
    lines = [line for line in result.stdout.lines if "::" in line and "%]" in line]
    assert "test_not_a_match PASSED" in lines[0]  # the plain test first, then the chosen, then the rest
    assert all("SKIPPED" in line for line in lines[4:]) and len(lines) == 9
    assert not any("SKIPPED" in line for line in lines[:4])


@pytest.mark.parametrize(("arguments", "message"), [
    (["--budget", "4"],
     "stratbench: --budget needs --schedule adaptive (it is the number of matches adaptive scheduling plays)"),
    (["--schedule", "adaptive"], "stratbench: --schedule adaptive needs --budget N, the number of matches to play"),
    (["--schedule", "adaptive", "--budget", "4", "-n", "2"],
     "stratbench: --schedule adaptive chooses each match from the results before it, so it runs in one process; "
     "drop -n and --tx"),
    (["--schedule", "adaptive", "--budget", "4", "--stratbench-shard", "1/2"],
     "stratbench: --schedule adaptive chooses among every collected match; it cannot be combined with "
     "--stratbench-shard"),
])
def test_scheduling_options_that_do_not_fit_are_refused(pytester, arguments, message):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", *arguments)
    assert result.ret == 4
    assert message in result.stderr.str()
    assert not (pytester.path / "reports").exists()


@pytest.mark.slow
def test_adaptive_runs_only_what_k_selected(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-bootstrap", "20",
                                           "--schedule", "adaptive", "--budget", "10", "-k", "not s7 and not s6")
    assert result.ret == 0, result.stdout.str()
    records = _records(pytester.path / "reports" / "latest")
    assert len(records) == 6 and all(r["status"] == "scored" for r in records)  # the budget exceeds the choice
    assert not any(r["match_id"].endswith(("s6]", "s7]")) for r in records)
    assert "2 deselected" in result.stdout.str() and "1 passed" in result.stdout.str()


@pytest.mark.slow
def test_an_agent_against_itself_is_skipped_with_the_reason(pytester):
    pytester.makepyfile(test_self="""
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random", "minimax"], matches=2)
def test_t(match):
    match.play()
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--stratbench-bootstrap", "20",
                                           "--schedule", "adaptive", "--budget", "5")
    assert result.ret == 0, result.stdout.str()
    records = {r["match_id"].split("[")[1]: r for r in _records(pytester.path / "reports" / "latest")}
    assert {key: r["status"] for key, r in records.items()} == {
        "minimax-vs-minimax-s0]": "skipped", "minimax-vs-minimax-s1]": "skipped",
        "random-vs-minimax-s0]": "scored", "random-vs-minimax-s1]": "scored"}
    assert records["minimax-vs-minimax-s0]"]["reason"] == (
        "--schedule adaptive plays matches between two different agents only (the ones Bradley–Terry rates); "
        "both sides are minimax")

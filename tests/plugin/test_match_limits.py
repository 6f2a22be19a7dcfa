"""--match-timeout holds for engines that never return: the match ends, its step is stopped, the next one plays."""

from __future__ import annotations

import json

import pytest

CONFTEST = """
import json
import threading
import time
from dataclasses import replace

from stratbench.games.spin.tictactoe import TicTacToe, TicTacToeState


class StuckState(TicTacToeState):
    def _apply(self, actions):
        spins = 0
        while True: spins += 1  # a pure-Python loop that never returns


class Stuck(TicTacToe):
    info = replace(TicTacToe.info, name="stuck")

    def new_initial_state(self, seed):
        return StuckState(self)


def pytest_stratbench_add_games(registry):
    registry.add_game("stuck", Stuck)


def pytest_unconfigure(config):
    before = time.process_time()
    time.sleep(0.5)
    spent = time.process_time() - before
    threads = sorted(t.name for t in threading.enumerate() if t.name.startswith("stratbench-match"))
    with open("after_run.json", "w") as out:
        json.dump({"match_threads": threads, "cpu_s_while_idle": spent}, out)
"""

SUITE = """
import pytest

@pytest.mark.stratbench(game="stuck", opponents=["random"], baselines=[], matches=1)
def test_stuck(match):
    match.play()

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=1)
def test_after(match):
    match.play()
"""


LOOP_LINE = next(n for n, line in enumerate(CONFTEST.strip().splitlines(), 1) if "while True" in line)


def _records(pytester):
    lines = (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()
    return {json.loads(line)["match_id"].split("::")[1].split("[")[0]: json.loads(line) for line in lines}


@pytest.mark.slow
def test_an_engine_step_that_never_returns_is_stopped_at_the_match_timeout(pytester):
    pytester.makeconftest(CONFTEST)
    pytester.makepyfile(test_limits=SUITE)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--stratbench-agent", "random", "--match-timeout", "2",
        timeout=120,  # today's main never gets here: the loop is held for ever
    )
    records = _records(pytester)
    assert sorted(records) == ["test_after", "test_stuck"]  # one record per match
    stuck = records["test_stuck"]
    assert (stuck["status"], stuck["fault"]) == ("errored", "harness")
    assert stuck["reason"] == ("MatchTimeout: the match ran past --match-timeout 2 s "
                               f"(not waiting on a model call; stopped StuckState._apply at conftest.py:{LOOP_LINE})")
    assert records["test_after"]["status"] == "scored" and sum(records["test_after"]["scores"]) == 1.0
    after = json.loads((pytester.path / "after_run.json").read_text())
    assert after["match_threads"] == []  # the stopped step's thread ended
    assert after["cpu_s_while_idle"] < 0.25  # nothing burns CPU once the run is over (a spinning thread: ~0.5)
    result.stdout.fnmatch_lines([f"ERRORED  harness  *stopped StuckState._apply at conftest.py:{LOOP_LINE})"])

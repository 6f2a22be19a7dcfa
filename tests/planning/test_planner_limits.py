"""--match-timeout stops the planner agent's search: its whole process tree dies with the match, the next plays."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import threading
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, write_dataset

SUITE = (Path(__file__).resolve().parents[2] / "suites" / "spin" / "test_pddl.py").read_text()

# x moves in steps of 2 from 0, the goal is x = 1: every relaxation says it is reachable, so ENHSP (a numeric task
# goes to it first) searches the endless states 0, ±2, ±4, ... and never ends.
ENDLESS_DOMAIN = """(define (domain swing)
  (:requirements :strips :numeric-fluents)
  (:functions (x))
  (:action up :parameters () :precondition (and) :effect (increase (x) 2))
  (:action down :parameters () :precondition (and) :effect (decrease (x) 2)))
"""
ENDLESS_P01 = "(define (problem odd) (:domain swing) (:init (= (x) 0)) (:goal (= (x) 1)))"
TAG = "STRATBENCH_TEST_PROCESS_TAG"


def _tagged(tag: str) -> dict[int, str]:
    """Returns the live processes (not zombies) whose environment carries the tag: pid -> command line."""
    found = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if f"{TAG}={tag}".encode() not in Path(f"/proc/{entry}/environ").read_bytes().split(b"\0"):
                continue
            state = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()[0]
            command = Path(f"/proc/{entry}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except (OSError, IndexError):
            continue
        if state != "Z":
            found[int(entry)] = command
    return found


def _watch(tag: str, seen: dict[int, str], done: threading.Event) -> None:
    while not done.wait(0.2):
        seen.update(_tagged(tag))


@contextlib.contextmanager
def watched_processes(monkeypatch) -> Iterator[tuple[str, dict[int, str]]]:
    """Tags the processes started inside, records them (pid -> command line) while it lasts, then kills any left.

    Yields the tag (for :func:`_tagged`) and the record of every tagged process seen.
    """
    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    seen: dict[int, str] = {}
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(tag, seen, done), daemon=True)
    watcher.start()
    try:
        yield tag, seen
    finally:
        done.set()
        watcher.join()
        for pid in _tagged(tag):  # never leave a search running on the machine, whatever the outcome
            os.kill(pid, signal.SIGKILL)


@pytest.mark.runs_first
@pytest.mark.slow
def test_a_planner_past_the_match_timeout_dies_with_every_process_it_started(pytester, monkeypatch):
    pytester.makepyfile(test_pddl=SUITE)
    data = write_dataset(pytester.path / "data", {
        "aimless": (ENDLESS_DOMAIN, {"p01": ENDLESS_P01}),  # first: the planner never finishes it
        "blocksworld": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01}),  # then a task it solves at once
    })
    with watched_processes(monkeypatch) as (tag, seen):
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-v", "--pddl-dir", str(data), "--stratbench-agent", "planner",
            "-k", "not random_planner", "--match-timeout", "8", "--report-dir", "reports",
            timeout=240,  # today's main never gets here: the abandoned search keeps the lock the next match needs
        )
        left = _tagged(tag)  # the run is over: nothing it started may remain
    assert any("enhsp.jar" in command for command in seen.values())  # the search really ran in ENHSP's Java
    assert any("stratbench.games.spin.planning.planner_process" in command for command in seen.values())
    assert left == {}
    lines = (pytester.path / "reports/results.jsonl").read_text().splitlines()
    records = {r["variant"]: r for r in map(json.loads, lines)}
    assert sorted(records) == ["aimless/p01", "blocksworld/p01"]
    endless = records["aimless/p01"]
    assert (endless["status"], endless["fault"]) == ("errored", "harness")
    assert endless["reason"] == "MatchTimeout: the match ran past --match-timeout 8 s (not waiting on a model call)"
    solved = records["blocksworld/p01"]
    assert solved["status"] == "scored" and solved["scores"] == [1.0] and solved["metrics"]["0"]["valid"]
    result.stdout.fnmatch_lines(["*test_pddl?planner-blocksworld/p01-s0? SCORE 1.00*"])


@pytest.mark.slow
def test_solve_isolated_out_of_time_leaves_no_process(monkeypatch):
    from stratbench.games.spin.planning.planner_process import solve_isolated

    with watched_processes(monkeypatch) as (tag, seen):
        assert solve_isolated(ENDLESS_DOMAIN, ENDLESS_P01, "enhsp", timeout=8) is None
        left = _tagged(tag)
    assert any("enhsp.jar" in command for command in seen.values())  # today's main leaves this one running
    assert left == {}

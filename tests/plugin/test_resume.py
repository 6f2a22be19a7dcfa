"""--resume and durability: nothing a process finished is lost, and a resumed run equals an uninterrupted one."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from stratbench.child_processes import children_by_parent
from stratbench.run.results import without_volatile

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=4, seats="half")
def test_tictactoe(match):
    match.play()
"""


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _comparable(report: Path) -> tuple[dict, dict]:
    data = json.loads((report / "results.json").read_text())
    latest = {r["match_id"]: r for r in _lines(report / "results.jsonl")}
    return without_volatile(data), without_volatile(latest)


@pytest.mark.slow  # four runs of a small suite
def test_resume_plays_only_what_is_missing_or_changed(pytester):
    pytester.makepyfile(test_ttt=SUITE)
    args = ["-p", "no:cacheprovider", "--stratbench-bootstrap", "50"]
    assert pytester.runpytest_subprocess(*args, "--report-dir", "full").ret == 0
    assert pytester.runpytest_subprocess(*args, "--report-dir", "cut").ret == 0
    cut = pytester.path / "cut" / "results.jsonl"
    records = _lines(cut)
    assert len(records) == 4
    kept = records[:3]  # as if the run had died after three matches
    kept[0] = {**kept[0], "settings_hash": "0" * 16}  # played with other settings: must be played again
    cut.write_text("".join(json.dumps(r) + "\n" for r in kept))

    resumed = pytester.runpytest_subprocess(*args, "--report-dir", "cut", "--resume", "-v")

    assert resumed.ret == 0
    played = [line for line in resumed.stdout.lines if "test_ttt.py::test_tictactoe[" in line and "%]" in line]
    assert len(played) == 2  # one missing, one with other settings
    resumed.stdout.fnmatch_lines(["resumed: 2 scored match(es) carried from earlier runs"])
    assert _comparable(pytester.path / "cut") == _comparable(pytester.path / "full")
    aside = [p.name for p in (pytester.path / "cut").glob("results.*.jsonl")]
    assert len(aside) == 1  # the interrupted run's file is kept beside the new one
    again = pytester.runpytest_subprocess(*args, "--report-dir", "cut", "--resume")
    assert again.ret == 0 and "collected 4 items / 4 deselected" in again.stdout.str()
    assert _comparable(pytester.path / "cut") == _comparable(pytester.path / "full")


def _children(pid: int) -> list[int]:
    return sorted(children_by_parent().get(pid, []))


def _finished(report: Path) -> int:
    return sum(
        1 for path in (report / ".workers").rglob("*.jsonl")
        for entry in _lines(path) if entry["event"] == "finished"
    )


def _wait_for(condition, what: str, limit_s: float = 240) -> None:
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.2)


@pytest.mark.runs_first
@pytest.mark.slow  # three runs of the suite under xdist, one of them killed
def test_killing_a_worker_then_the_controller_loses_nothing_and_resume_completes_it(pytester):
    from stratbench.testing.fake_llm import FakeLLMServer

    pytester.makepyfile(test_ttt=SUITE)
    server = FakeLLMServer(delay_s=1.0).start()  # slow answers: the kills land mid-run
    try:
        args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--model", "openai/m",
                "--api-base", server.api_base, "--stratbench-bootstrap", "50"]
        report = pytester.path / "run"
        first = subprocess.Popen([*args, "--report-dir", str(report)], cwd=pytester.path,
                                 stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            _wait_for(lambda: first.poll() is not None or _finished(report) >= 2, "two finished matches")
            workers = _children(first.pid)
            assert first.poll() is None and len(workers) == 2
            os.kill(workers[0], signal.SIGKILL)
            _wait_for(lambda: first.poll() is not None or _finished(report) >= 5,
                      "more finished matches after the worker died")
            assert first.poll() is None, "the run ended before the controller could be killed"
            survivors = _children(first.pid)
            os.kill(first.pid, signal.SIGKILL)
            for pid in survivors:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        finally:
            first.wait(timeout=60)
        finished_before = {
            e["record"]["match_id"] for p in (report / ".workers").rglob("*.jsonl")
            for e in _lines(p) if e["event"] == "finished"
        }
        server.delay_s = 0.05  # the kills are done: the rest need no slow answers

        resumed = subprocess.run([*args, "--report-dir", str(report), "--resume"], cwd=pytester.path,
                                 capture_output=True, text=True, timeout=600)
        assert resumed.returncode == 0, resumed.stdout[-3000:]
        assert "resumed: " in resumed.stdout
        requests_before_clean = len(server.requests)
        clean = subprocess.run([*args, "--report-dir", str(pytester.path / "clean")], cwd=pytester.path,
                               capture_output=True, text=True, timeout=600)
        assert clean.returncode == 0, clean.stdout[-3000:]
        assert len(server.requests) == requests_before_clean  # the clean run replayed the same cassettes
    finally:
        server.stop()
    clean_records = _lines(pytester.path / "clean" / "results.jsonl")
    total = len(clean_records)
    assert total >= 8 and all(r["status"] == "scored" for r in clean_records)
    aside = sorted(report.glob("results.*.jsonl"))
    assert len(aside) == 1
    interrupted = {r["match_id"]: r for r in _lines(aside[0])}
    assert finished_before <= set(interrupted)  # every match a worker finished reached the results
    assert len(finished_before) >= 5
    assert not (report / ".workers").exists() or not any((report / ".workers").iterdir())
    assert _comparable(report) == _comparable(pytester.path / "clean")


@pytest.mark.slow
def test_a_second_run_on_a_report_directory_in_use_is_refused_naming_the_first_and_loses_nothing(pytester):
    """A --resume started beside a run still writing the same directory: refused before it reads or writes
    anything there, naming the first run's pid; the first run's records stay one per match."""
    from stratbench.testing.fake_llm import FakeLLMServer

    pytester.makepyfile(test_ttt=SUITE)
    server = FakeLLMServer(delay_s=0.2).start()
    try:
        args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "--model", "openai/m", "--api-base",
                server.api_base, "--stratbench-bootstrap", "50", "--report-dir", "run"]
        first = subprocess.Popen(args, cwd=pytester.path, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            results = pytester.path / "run" / "results.jsonl"
            _wait_for(lambda: first.poll() is not None or (results.exists() and _lines(results)), "a first record")
            os.kill(first.pid, signal.SIGSTOP)  # the first run is mid-way, whatever the machine's speed
            try:
                assert first.poll() is None, "the first run ended before the second could start"
                second = subprocess.run([*args, "--resume"], cwd=pytester.path, capture_output=True, text=True,
                                        timeout=120)
            finally:
                os.kill(first.pid, signal.SIGCONT)
            assert second.returncode == 4, second.stdout[-2000:] + second.stderr[-2000:]
            assert (f"ERROR: stratbench: --report-dir {pytester.path / 'run'}: another run (pid {first.pid}) is "
                    "writing its results there; let it finish, or give this run another --report-dir"
                    ) in second.stderr
        finally:
            assert first.wait(timeout=300) == 0
        records = [r for r in _lines(pytester.path / "run" / "results.jsonl") if r.get("type") == "match"]
        assert len(records) == len({r["match_id"] for r in records}) == 8  # the model's 4 and random's 4, once each
        assert not list((pytester.path / "run").glob("results.*.jsonl"))  # nothing moved aside by the second run
        again = subprocess.run([*args, "--resume"], cwd=pytester.path, capture_output=True, text=True, timeout=300)
        assert again.returncode == 0, again.stdout[-2000:]  # the lock ends with its run
    finally:
        server.stop()

"""xdist workers whose controller was killed: they journal what they finished and exit quietly."""

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

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], matches=6, seats="half")
def test_tictactoe(match):
    match.play()
"""


def _lines(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def _children(pid: int) -> list[int]:
    return sorted(children_by_parent().get(pid, []))


def _running(pid: int) -> bool:
    """Tells whether a process exists and is not a zombie (an orphan's parent may never reap it)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def _journaled(report: Path, event: str) -> dict[str, dict]:
    return {entry["record"]["match_id"]: entry["record"] for path in (report / ".workers").rglob("*.jsonl")
            for entry in _lines(path) if entry["event"] == event}


def _wait_for(condition, what: str, limit_s: float = 240) -> None:
    deadline = time.monotonic() + limit_s
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"gave up waiting for {what}")
        time.sleep(0.2)


@pytest.mark.slow  # two runs under xdist, the first one's controller killed
def test_workers_of_a_killed_controller_journal_their_matches_exit_quietly_and_resume_completes(pytester):
    from stratbench.testing.fake_llm import FakeLLMServer

    pytester.makepyfile(test_ttt=SUITE)
    report = pytester.path / "run"
    stderr = pytester.path / "stderr.txt"
    server = FakeLLMServer(delay_s=0.5).start()  # slow answers: the controller dies mid-run
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "-n", "2", "--model", "openai/m",
            "--api-base", server.api_base, "--stratbench-bootstrap", "20", "--report-dir", str(report)]
    workers: list[int] = []
    try:
        with stderr.open("w") as errors:
            first = subprocess.Popen(args, cwd=pytester.path, stdout=subprocess.DEVNULL, stderr=errors)
        try:
            _wait_for(lambda: first.poll() is not None or len(_journaled(report, "finished")) >= 2,
                      "two finished matches")
            workers = _children(first.pid)
            assert first.poll() is None and len(workers) == 2
            os.kill(first.pid, signal.SIGKILL)
            first.wait(timeout=60)
            _wait_for(lambda: not any(_running(pid) for pid in workers), "the orphaned workers to exit")
        finally:
            for pid in [first.pid, *workers]:
                if _running(pid):
                    os.kill(pid, signal.SIGKILL)
            first.wait(timeout=60)
        said = stderr.read_text()
        assert "PluggyTeardownRaisedWarning" not in said and "cannot send" not in said and "Traceback" not in said
        finished = _journaled(report, "finished")
        assert len(finished) >= 2 and all(r["status"] == "scored" for r in finished.values())
        (first_run,) = [p.name for p in (report / ".workers").iterdir()]
        server.delay_s = 0.05  # the controller's death is over: the resumed matches need no slow answers

        resumed = subprocess.run([*args, "--resume"], cwd=pytester.path, capture_output=True, text=True,
                                 timeout=600)
    finally:
        server.stop()
    assert resumed.returncode == 0, resumed.stdout[-3000:]
    records = {r["match_id"]: r for r in _lines(report / "results.jsonl")}
    assert len(records) == 12 and all(r["status"] == "scored" for r in records.values())
    carried = {k for k, r in records.items() if r.get("played_run_id") == first_run}
    assert set(finished) <= carried  # every match a worker finished before exiting was kept, not played again
    assert not (report / ".workers").exists() or not any((report / ".workers").iterdir())

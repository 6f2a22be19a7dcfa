"""A throwaway suite played against the loopback model in a pytest subprocess (shared by the bench scripts).

``write_suite`` puts one suite (the model against ``random``) and a
``pytest.ini`` in a folder; ``run_suite`` runs it once with a given plugin
tree first on the path, recording its cassettes from scratch, and returns
its timings (wall time with start-up, playing time from results.jsonl),
decision latencies, CPU and peak RSS. Not a benchmark itself.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SUITES = {
    "ttt": """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches={n}, seats="alternate")
def test_tictactoe(match):
    match.play()
""",
    "c4": """
import pytest

@pytest.mark.stratbench(game="connect4", opponents=["random"], baselines=[], matches={n}, seats="alternate")
def test_connect4(match):
    match.play()
""",
    "sea": """
import pytest

@pytest.mark.stratbench(game="sea_battle", opponents=["random"], baselines=[], matches={n}, seats="alternate",
                        illegal_tolerance=3, fallback="random")
def test_sea_battle(match):
    match.play()
""",
}
"""Suite name → its test file (``{n}``: model matches; the model plays each seat in turn against random)."""

LEAN_INI = "[pytest]\naddopts = -p no:hypothesispytest -p no:anyio\n"
"""A project's pytest.ini without the plugins of the ``test`` extra (hypothesis, anyio), as a user's install runs."""


def write_suite(project: Path, suite: str, matches: int, ini: str = "[pytest]\n") -> None:
    """Writes ``test_<suite>.py`` with ``matches`` model matches and the project's ``pytest.ini``."""
    project.mkdir(parents=True, exist_ok=True)
    (project / "pytest.ini").write_text(ini)
    (project / f"test_{suite}.py").write_text(SUITES[suite].format(n=matches))


def plugin_env(plugin: Path) -> dict[str, str]:
    """The environment of a run with ``plugin`` (a tree's ``plugin/`` folder) first on the path."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(plugin), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run it: compiled (and assert-rewritten) modules are cached
    return env


def run_suite(project: Path, suite: str, api_base: str, workers: int, concurrency: int, tag: str, *,
              plugin: Path = ROOT / "plugin", latencies: bool = True) -> dict:
    """Runs one suite once; returns its timings, match count, decision latencies, CPU and peak RSS.

    Args:
        project: The folder ``write_suite`` filled.
        suite: A key of ``SUITES``.
        api_base: The loopback server's ``api_base``.
        workers: xdist workers (``-n``); 0 for one process.
        concurrency: ``--stratbench-concurrency``.
        tag: Names this run's report and cassette folders (fresh ones record from scratch).
        plugin: The ``plugin/`` folder of the stratbench tree to run.
        latencies: Whether to read every model call's latency from the transcripts.

    Returns:
        ``matches``, ``wall_s`` (the command, start-up included), ``play_s`` (first match start to last
        match end), ``latencies`` (seconds per model call), ``rss``, ``pytest_cpu_s`` and ``server_cpu_s``
        (the loopback server runs in this process).
    """
    report = project / "reports" / tag
    command = [
        sys.executable, "-m", "pytest", f"test_{suite}.py", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
        "--model", "openai/m", "--api-base", api_base, "--record-mode", "all",
        "--stratbench-cassette-dir", str(project / "cassettes" / tag), "--report-dir", str(report),
        "--stratbench-concurrency", str(concurrency), "--stratbench-bootstrap", "10", "-n", str(workers),
    ]
    start, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = time.process_time()
    done = subprocess.run(command, cwd=project, env=plugin_env(plugin), capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    server_cpu = time.process_time() - server_cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    pytest_cpu = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{tag}: pytest exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    records = [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines()]
    begin = min(r["started_at"] for r in records)
    end = max(r["started_at"] + r["duration_s"] for r in records)
    calls = []
    for record in records if latencies else ():
        path = report / record["transcript"]
        transcript = json.loads(gzip.decompress(path.read_bytes()) if path.suffix == ".gz" else path.read_text())
        calls.extend(e["duration_s"] for e in transcript["events"] if e.get("kind") == "llm_call")
    rss = re.search(r"^peak RSS: (.+)$", done.stdout, re.M)
    return {"matches": len(records), "wall_s": wall, "play_s": end - begin, "latencies": calls,
            "rss": rss.group(1) if rss else "?", "pytest_cpu_s": pytest_cpu, "server_cpu_s": server_cpu}

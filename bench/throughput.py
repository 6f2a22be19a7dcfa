"""Match throughput against a loopback model that answers in 200 ms: -n, concurrency, both.

A throwaway project with two suites (Tic-Tac-Toe and Connect Four, the model
against ``random``) is run by pytest in a subprocess, with this checkout's
plugin first on the path, in four ways: serial (one process, one match at a
time), ``-n 2``, ``--stratbench-concurrency 32`` and both. Each run records
its cassettes from scratch. Then Sea Battle (three ships of a team ask the
model at once) is played with 1, 4 and 16 matches in flight in one process,
and 16 across two xdist workers, to show how long one model decision takes
as more matches share the machine ("vs 1": the median against one match in
flight), with the CPU each call costs the pytest processes and the loopback
server.

Figures per run: the wall time of the pytest command (startup included), the
playing time (first match start to last match end, from results.jsonl),
matches per second of playing, its speed-up over serial, and the peak RSS of
each process (the plugin's summary line).

Usage:
    python bench/throughput.py [--ttt 64] [--c4 16] [--delay 0.2] [--only ttt,c4,sea]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "plugin"))

from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402

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

MODES = {"serial": (0, 1), "-n 2": (2, 1), "concurrency 32": (0, 32), "-n 2 + concurrency 32": (2, 32)}
"""Run name → (xdist workers, --stratbench-concurrency)."""

SEA_MODES = {"1 (one process)": (0, 1), "4 (one process)": (0, 4), "16 (one process)": (0, 16),
             "16 (-n 2, 8 per worker)": (2, 8)}
"""Sea Battle runs: matches in flight → (xdist workers, --stratbench-concurrency)."""


def run(project: Path, suite: str, api_base: str, workers: int, concurrency: int, tag: str) -> dict:
    """Runs one suite once; returns its timings, match count, decision latencies and peak RSS."""
    report = project / "reports" / tag
    command = [
        sys.executable, "-m", "pytest", f"test_{suite}.py", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
        "--model", "openai/m", "--api-base", api_base, "--record-mode", "all",
        "--stratbench-cassette-dir", str(project / "cassettes" / tag), "--report-dir", str(report),
        "--stratbench-concurrency", str(concurrency), "--stratbench-bootstrap", "10", "-n", str(workers),
    ]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT / "plugin"), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # as users run it: compiled (and assert-rewritten) modules are cached
    start, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    server_cpu = time.process_time()  # the loopback model server runs in this process
    done = subprocess.run(command, cwd=project, env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    server_cpu = time.process_time() - server_cpu
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    pytest_cpu = (after.ru_utime - children.ru_utime) + (after.ru_stime - children.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{tag}: pytest exited {done.returncode}\n{done.stdout[-3000:]}\n{done.stderr[-2000:]}")
    records = [json.loads(line) for line in (report / "results.jsonl").read_text().splitlines()]
    begin = min(r["started_at"] for r in records)
    end = max(r["started_at"] + r["duration_s"] for r in records)
    latencies = []
    for record in records:
        transcript = json.loads((report / record["transcript"]).read_text())
        latencies.extend(e["duration_s"] for e in transcript["events"] if e.get("kind") == "llm_call")
    rss = re.search(r"^peak RSS: (.+)$", done.stdout, re.M)
    return {"matches": len(records), "wall_s": wall, "play_s": end - begin, "latencies": latencies,
            "rss": rss.group(1) if rss else "?", "pytest_cpu_s": pytest_cpu, "server_cpu_s": server_cpu}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ttt", type=int, default=64, help="Tic-Tac-Toe model matches")
    parser.add_argument("--c4", type=int, default=16, help="Connect Four model matches")
    parser.add_argument("--sea", type=int, default=16, help="Sea Battle model matches")
    parser.add_argument("--delay", type=float, default=0.2, help="Seconds the loopback model takes per answer")
    parser.add_argument("--only", default="ttt,c4,sea")
    args = parser.parse_args()
    wanted = args.only.split(",")
    print(f"load before: {os.getloadavg()[0]:.2f} (1-min load average, {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp, FakeLLMServer(delay_s=args.delay) as server:
        project = Path(tmp)
        (project / "pytest.ini").write_text("[pytest]\n")
        for suite, count in (("ttt", args.ttt), ("c4", args.c4)):
            if suite not in wanted:
                continue
            # matches per pairing: the model plays each seat in turn against random
            (project / f"test_{suite}.py").write_text(SUITES[suite].format(n=count))
            print(f"\n{suite}: {count} model matches, model answers in {args.delay * 1000:.0f} ms")
            print(f"{'run':<22} {'matches':>7} {'wall s':>7} {'play s':>7} {'matches/s':>9} {'speed-up':>8}  peak RSS")
            serial = None
            for name, (workers, concurrency) in MODES.items():
                figures = run(project, suite, server.api_base, workers, concurrency, f"{suite}-{name.replace(' ', '')}")
                rate = figures["matches"] / figures["play_s"]
                serial = serial or rate
                print(f"{name:<22} {figures['matches']:>7} {figures['wall_s']:>7.1f} {figures['play_s']:>7.1f} "
                      f"{rate:>9.2f} {rate / serial:>7.1f}x  {figures['rss']}")
        if "sea" in wanted:
            (project / "test_sea.py").write_text(SUITES["sea"].format(n=args.sea))
            print(f"\nsea battle: {args.sea} model matches; one model decision (a ship's call), in ms")
            print(f"{'matches in flight':<24} {'calls':>6} {'median':>7} {'p90':>7} {'max':>7} {'vs 1':>6} "
                  f"{'pytest CPU ms/call':>18} {'server CPU ms/call':>18}")
            alone = None
            for name, (workers, concurrency) in SEA_MODES.items():
                figures = run(project, "sea", server.api_base, workers, concurrency, f"sea-{workers}x{concurrency}")
                calls = sorted(figures["latencies"])
                median, p90 = statistics.median(calls), calls[int(0.9 * (len(calls) - 1))]
                alone = alone or median
                print(f"{name:<24} {len(calls):>6} {median * 1000:>7.0f} {p90 * 1000:>7.0f} {calls[-1] * 1000:>7.0f} "
                      f"{median / alone:>5.2f}x {figures['pytest_cpu_s'] * 1000 / len(calls):>18.1f} "
                      f"{figures['server_cpu_s'] * 1000 / len(calls):>18.1f}")
    print(f"\nload after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

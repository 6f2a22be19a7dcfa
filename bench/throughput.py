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
import os
import statistics
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugin"))

from loopback_suite import run_suite, write_suite  # noqa: E402
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402

MODES = {"serial": (0, 1), "-n 2": (2, 1), "concurrency 32": (0, 32), "-n 2 + concurrency 32": (2, 32)}
"""Run name → (xdist workers, --stratbench-concurrency)."""

SEA_MODES = {"1 (one process)": (0, 1), "4 (one process)": (0, 4), "16 (one process)": (0, 16),
             "16 (-n 2, 8 per worker)": (2, 8)}
"""Sea Battle runs: matches in flight → (xdist workers, --stratbench-concurrency)."""


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
        for suite, count in (("ttt", args.ttt), ("c4", args.c4)):
            if suite not in wanted:
                continue
            # matches per pairing: the model plays each seat in turn against random
            write_suite(project, suite, count)
            print(f"\n{suite}: {count} model matches, model answers in {args.delay * 1000:.0f} ms")
            print(f"{'run':<22} {'matches':>7} {'wall s':>7} {'play s':>7} {'matches/s':>9} {'speed-up':>8}  peak RSS")
            serial = None
            for name, (workers, concurrency) in MODES.items():
                tag = f"{suite}-{name.replace(' ', '')}"
                figures = run_suite(project, suite, server.api_base, workers, concurrency, tag)
                rate = figures["matches"] / figures["play_s"]
                serial = serial or rate
                print(f"{name:<22} {figures['matches']:>7} {figures['wall_s']:>7.1f} {figures['play_s']:>7.1f} "
                      f"{rate:>9.2f} {rate / serial:>7.1f}x  {figures['rss']}")
        if "sea" in wanted:
            write_suite(project, "sea", args.sea)
            print(f"\nsea battle: {args.sea} model matches; one model decision (a ship's call), in ms")
            print(f"{'matches in flight':<24} {'calls':>6} {'median':>7} {'p90':>7} {'max':>7} {'vs 1':>6} "
                  f"{'pytest CPU ms/call':>18} {'server CPU ms/call':>18}")
            alone = None
            for name, (workers, concurrency) in SEA_MODES.items():
                tag = f"sea-{workers}x{concurrency}"
                figures = run_suite(project, "sea", server.api_base, workers, concurrency, tag)
                calls = sorted(figures["latencies"])
                median, p90 = statistics.median(calls), calls[int(0.9 * (len(calls) - 1))]
                alone = alone or median
                print(f"{name:<24} {len(calls):>6} {median * 1000:>7.0f} {p90 * 1000:>7.0f} {calls[-1] * 1000:>7.0f} "
                      f"{median / alone:>5.2f}x {figures['pytest_cpu_s'] * 1000 / len(calls):>18.1f} "
                      f"{figures['server_cpu_s'] * 1000 / len(calls):>18.1f}")
    print(f"\nload after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

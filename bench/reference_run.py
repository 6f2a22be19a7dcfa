"""Times the reference run: live local-model decisions, and the offline replay of the main job.

``python bench/reference_run.py summarize DIR [DIR ...]`` reads report
directories written while recording (``scripts/record-reference.sh`` writes
``reports/reference``; a later directory's record of a match replaces an
earlier one's) and prints, per game and scaffold, the matches,
decisions, model calls, mean prompt tokens and the live model time per
call and per decision (from each call's logged ``duration_s``).

``python bench/reference_run.py replay [-n N]`` runs ``pytest suites/``
(the README's main job, replaying the committed recordings) twice into
temporary report directories and prints the wall time of each run and
whether the two ``results.json`` agree apart from timestamps.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from stratbench.run.results import TRANSCRIPT_DIR, transcript_name

REPO = Path(__file__).resolve().parents[1]


def summarize(directories: list[Path]) -> None:
    """Prints live model time per call and per decision, by game and scaffold."""
    latest: dict[str, tuple[Path, dict]] = {}
    for directory in directories:
        for line in (directory / "results.jsonl").read_text().splitlines():
            record = json.loads(line)
            if record["sides"][record["subject"]].get("model"):
                latest[record["match_id"]] = (directory, record)
    rows: dict[tuple[str, str], dict[str, list[float]]] = defaultdict(lambda: defaultdict(list))
    for directory, record in latest.values():
        side = record["sides"][record["subject"]]
        key = (record["game"], f"{side['model'].split('/')[-1]} {side['scaffold']}")
        # Transcripts live under transcripts/<run id>/ (the record names the file); older runs kept them flat.
        named = directory / record["transcript"] if record.get("transcript") else None
        path = named if named and named.is_file() else directory / TRANSCRIPT_DIR / transcript_name(record["match_id"])
        transcript = json.loads(path.read_text())
        calls = [e for e in transcript["events"] if e.get("kind") == "llm_call"]
        rows[key]["matches"].append(1)
        rows[key]["decisions"].append(record["decisions"][record["subject"]])
        rows[key]["calls"].extend(e["duration_s"] for e in calls)
        rows[key]["prompt_tokens"].extend(e["prompt_tokens"] for e in calls)
    print(f"{'game':<20} {'model scaffold':<26} {'matches':>7} {'decisions':>9} {'calls':>6} {'prompt tok':>10} "
          f"{'s/call':>7} {'s/decision':>10}")
    total_time = total_decisions = 0.0
    for (game, scaffold), data in sorted(rows.items()):
        seconds = sum(data["calls"])
        decisions = sum(data["decisions"])
        total_time += seconds
        total_decisions += decisions
        print(f"{game:<20} {scaffold:<26} {len(data['matches']):>7} {decisions:>9.0f} {len(data['calls']):>6} "
              f"{statistics.mean(data['prompt_tokens'] or [0]):>10.0f} "
              f"{seconds / max(1, len(data['calls'])):>7.2f} {seconds / max(1, decisions):>10.2f}")
    print(f"total live model time {total_time:.0f} s over {total_decisions:.0f} decisions "
          f"({total_time / max(1, total_decisions):.2f} s per decision)")


def replay(workers: int) -> None:
    """Runs the main job twice and prints wall times and whether results agree."""
    outputs = []
    with tempfile.TemporaryDirectory() as scratch:
        for run in ("first", "second"):
            report = Path(scratch) / run
            command = [sys.executable, "-m", "pytest", "suites/", "-q", "-p", "no:cacheprovider",
                       "--report-dir", str(report)]
            if workers:
                command += ["-n", str(workers)]
            start = time.perf_counter()
            result = subprocess.run(command, cwd=REPO, capture_output=True, text=True)
            wall = time.perf_counter() - start
            print(f"{run} run: exit {result.returncode}, {wall:.0f} s wall ({' '.join(command[2:])})")
            outputs.append(json.loads((report / "results.json").read_text()))
    from stratbench.run.results import without_volatile

    same = without_volatile(outputs[0]) == without_volatile(outputs[1])
    print(f"results.json identical apart from timestamps: {same} ({len(outputs[0]['matches'])} matches)")


def main() -> None:
    """Parses the command line and runs one measurement."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    summary = commands.add_parser("summarize", help="live model time from a recording's report directory")
    summary.add_argument("directories", type=Path, nargs="+")
    again = commands.add_parser("replay", help="time the offline main job twice")
    again.add_argument("-n", type=int, default=2, help="xdist workers (0: none)")
    args = parser.parse_args()
    if args.command == "summarize":
        summarize(args.directories)
    else:
        replay(args.n)


if __name__ == "__main__":
    main()

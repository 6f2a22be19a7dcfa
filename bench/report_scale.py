"""How a report scales: build time and report.html load time for many matches, and a directory's size.

``build``: writes a synthetic run of N matches (default 5,000) into DIR
through the real :class:`~stratbench.run.results.ResultStore`: Tic-Tac-Toe and
Connect Four matches between LLM agents and engines, each with its transcript
(a board snapshot per move, the observation, a model call whose prompt is the
whole conversation so far, its reply and tokens, the action). It then times
``stratbench report DIR`` (a subprocess, as a user runs it: analysis with B
bootstrap resamples, report.html, report.md, results.json and every match
page), and the load of report.html in headless Chromium (DevTools: the page's
own ``performance`` timing from navigation start to its DOMContentLoaded and
load events, median of a few loads), then prints the directory's size as
``size`` does.

``size``: a report directory's total size, its largest files and how many
files are over 1 MB.

Usage:
    python bench/report_scale.py build DIR [--matches 5000] [--resamples 200] [--loads 3]
    python bench/report_scale.py size DIR [--top 10]
"""

from __future__ import annotations

import argparse
import json
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from stratbench.run.results import ResultStore
from stratbench.testing.browser import Chromium, find_chromium

MB = 1_000_000
AGENTS = ("openai/gpt-4o-mini", "anthropic/claude-haiku", "gemini/flash", "random", "minimax")


def _sides(agents: tuple[str, str]) -> list[dict[str, Any]]:
    return [{"agent": a, "kind": "llm" if "/" in a else a, "model": a if "/" in a else None,
             "scaffold": "direct" if "/" in a else None, "players": [k], "roles": [f"P{k}"]}
            for k, a in enumerate(agents)]


def _transcript(game: str, rng: random.Random, agents: tuple[str, str]) -> tuple[list[dict[str, Any]], int, int]:
    """A plausible transcript: (events, turns, tokens)."""
    cells = 9 if game == "tictactoe" else 42
    board = ["."] * cells
    events: list[dict[str, Any]] = [{"kind": "board", "t": 0.0, "turn": 0, "board": _snapshot(game, board, None)}]
    messages: list[dict[str, str]] = [{"role": "system", "content": f"You play {game}. Answer with 'Action: <cell>'."}]
    tokens, t = 0, 0.0
    free = list(range(cells))
    turns = rng.randint(5, min(cells, 20))
    for turn in range(turns):
        player = turn % 2
        rng.shuffle(free)
        move = free.pop()
        text = f"Turn {turn}. Board: {''.join(board)}. You are {'XO'[player]}."
        legal = [str(c) for c in sorted(free + [move])]
        t += 0.01
        events.append({"kind": "observation", "t": t, "turn": turn, "player": player, "text": text, "legal": legal})
        if "/" in agents[player]:
            messages = [*messages, {"role": "user", "content": text + " Legal: " + ", ".join(legal)}]
            prompt = sum(len(m["content"]) for m in messages) // 4
            events.append({"kind": "llm_call", "t": t, "player": player, "model": agents[player],
                           "messages": messages, "response": f"I take the cell {move}. Action: {move}",
                           "prompt_tokens": prompt, "completion_tokens": 12, "duration_s": 0.4})
            messages = [*messages, {"role": "assistant", "content": f"Action: {move}"}]
            tokens += prompt + 12
        events.append({"kind": "action", "t": t, "turn": turn, "player": player, "attempt": 1, "action": str(move)})
        board[move] = "XO"[player]
        events.append({"kind": "board", "t": t, "turn": turn + 1, "board": _snapshot(game, board, move)})
    events.append({"kind": "end", "t": t + 0.01, "scores": [1.0, 0.0], "terminal": "done"})
    return events, turns, tokens


def _snapshot(game: str, board: list[str], last: int | None) -> dict[str, Any]:
    if game == "tictactoe":
        return {"board": "".join(board), "last": last}
    return {"grid": ["".join(board[r * 7:(r + 1) * 7]) for r in range(6)], "moves": [], "last": last}


def write_run(directory: Path, matches: int, seed: int = 0) -> None:
    """Writes ``matches`` synthetic records with their transcripts into ``directory``."""
    rng = random.Random(seed)
    store = ResultStore(directory, "bench-run")
    for k in range(matches):
        game = ("tictactoe", "connect4")[k % 2]
        a, b = rng.sample(AGENTS, 2)
        events, turns, tokens = _transcript(game, rng, (a, b))
        score = rng.choice((1.0, 0.0, 0.5))
        match_id = f"suites/test_{game}.py::test_{game}[{a}-vs-{b}-s{k}]"
        store.append({
            "type": "match", "match_id": match_id, "test_id": f"test_{game}[{a}-vs-{b}-s{k}]", "game": game,
            "sides": _sides((a, b)), "scores": [score, 1.0 - score], "subject": 0,
            "result": {1.0: "won", 0.0: "lost", 0.5: "draw"}[score], "terminal": "done", "turns": turns,
            "illegal": [0, 0], "decisions": [turns // 2, turns - turns // 2], "metrics": {}, "seed": k,
            "run_id": "bench-run", "cassette": None, "versions": {"pytest-stratbench": "0.1.0"},
            "tokens": tokens, "cost_usd": tokens * 1e-7,
        }, events)


def time_report(directory: Path, resamples: int) -> tuple[float, float]:
    """Seconds ``stratbench report DIR`` takes: wall time, and CPU time of it and its page writers."""
    command = [sys.executable, "-m", "stratbench.cli", "report", str(directory), "--resamples", str(resamples)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(command, check=True, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_load(page: Path, loads: int) -> dict[str, float]:
    """The page's own timing in headless Chromium, ms from navigation start (median of ``loads``)."""
    binary = find_chromium()
    if binary is None:
        raise SystemExit("needs Chromium (apt-get install chromium)")
    timings: list[dict[str, float]] = []
    with tempfile.TemporaryDirectory() as profile, Chromium(binary, Path(profile), timeout=120) as browser:
        for _ in range(loads):
            browser.open(page)
            timings.append(json.loads(browser.evaluate(
                "JSON.stringify((function (t) { return {dom_content_loaded_ms: t.domContentLoadedEventEnd,"
                " load_ms: t.loadEventEnd, rows: document.querySelectorAll('.match-table tr').length}; })"
                "(performance.getEntriesByType('navigation')[0]))")))
    return {key: statistics.median(t[key] for t in timings) for key in timings[0]}


def sizes(directory: Path, top: int) -> dict[str, Any]:
    """Total bytes, the largest files and the count over 1 MB of a report directory (hidden folders left out)."""
    files = [p for p in directory.rglob("*") if p.is_file()
             and not any(part.startswith(".") for part in p.relative_to(directory).parts)]
    by_size = sorted(files, key=lambda p: p.stat().st_size, reverse=True)
    parts: dict[str, int] = {}
    for path in files:
        relative = path.relative_to(directory)
        kind = ("transcripts/*.html" if relative.parts[0] == "transcripts" and path.suffix == ".html"
                else "transcripts/<run>/*" if relative.parts[0] == "transcripts" else relative.as_posix())
        parts[kind] = parts.get(kind, 0) + path.stat().st_size
    return {"total_mb": round(sum(p.stat().st_size for p in files) / MB, 2), "files": len(files),
            "over_1mb": sum(p.stat().st_size > MB for p in files),
            "parts_mb": {k: round(v / MB, 2) for k, v in sorted(parts.items(), key=lambda kv: -kv[1])},
            "largest": [(p.relative_to(directory).as_posix(), p.stat().st_size) for p in by_size[:top]]}


def _print_sizes(directory: Path, top: int) -> None:
    found = sizes(directory, top)
    print(f"{directory}: {found['total_mb']} MB in {found['files']} files, {found['over_1mb']} over 1 MB")
    for kind, mb in found["parts_mb"].items():
        print(f"  {mb:8.2f} MB  {kind}")
    print("largest:")
    for name, size in found["largest"]:
        print(f"  {size / MB:8.3f} MB  {name}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    build = commands.add_parser("build", help="write N synthetic matches, time the report build and its load")
    build.add_argument("dir", type=Path)
    build.add_argument("--matches", type=int, default=5000)
    build.add_argument("--resamples", type=int, default=200)
    build.add_argument("--loads", type=int, default=3)
    size = commands.add_parser("size", help="a report directory's size, largest files and files over 1 MB")
    size.add_argument("dir", type=Path)
    size.add_argument("--top", type=int, default=10)
    args = parser.parse_args(argv)
    if args.command == "size":
        _print_sizes(args.dir, args.top)
        return 0
    if args.dir.exists():
        shutil.rmtree(args.dir)
    started = time.perf_counter()
    write_run(args.dir, args.matches)
    print(f"wrote {args.matches} synthetic matches in {time.perf_counter() - started:.1f} s")
    wall, cpu = time_report(args.dir, args.resamples)
    print(f"stratbench report: {wall:.1f} s wall, {cpu:.1f} s CPU")
    load = time_load(args.dir / "report.html", args.loads)
    print(f"report.html in Chromium: DOMContentLoaded {load['dom_content_loaded_ms']:.0f} ms, "
          f"load {load['load_ms']:.0f} ms (median of {args.loads}); {load['rows']:.0f} rows in the matches table")
    _print_sizes(args.dir, 5)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

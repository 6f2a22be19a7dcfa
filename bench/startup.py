"""A small run's fixed cost and the concurrent run's speed-up, beside a previous commit's.

Two measurements, each made on this tree and on a previous commit (a
``git worktree`` of it in a temporary folder, its ``plugin/`` first on
``PYTHONPATH``), the two interleaved run by run so that both see the same load:

- the 2-match run, ``pytest suites/spin/test_tictactoe.py --matches 2
  --stratbench-reference off -q -p no:cacheprovider --report-dir <tmp>``,
  from the tree's own root with its own pyproject.toml: wall time, best and
  median of ``--repeats`` (after one untimed run that compiles the modules);
- 128 Tic-Tac-Toe matches of a model (``--model openai/m``) against the loopback
  server answering in 200 ms, in a throwaway project (``loopback_suite``; its
  pytest.ini leaves out the ``test`` extra's plugins, as a user's install has
  none), serially and at ``--stratbench-concurrency 32``, each run recording its
  cassettes from scratch: wall time with start-up, the playing time, pytest's
  CPU (medians over ``--repeats`` concurrent runs; one serial run per tree), and
  the speed-up of the concurrent run over the serial one (walls).

Usage:
    python bench/startup.py [--previous daa92e1] [--repeats 3] [--matches 128] [--write FILE]
"""

from __future__ import annotations

import argparse
import datetime
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugin"))

from loopback_suite import LEAN_INI, ROOT, plugin_env, run_suite, write_suite  # noqa: E402
from stratbench.testing.fake_llm import FakeLLMServer  # noqa: E402

SMALL_RUN = ["suites/spin/test_tictactoe.py", "--matches", "2", "--stratbench-reference", "off", "-q",
             "-p", "no:cacheprovider"]
"""The 2-match run's arguments after ``python -m pytest`` (``--report-dir`` is added)."""


def check_tree(tree: Path) -> None:
    """Exits unless ``stratbench`` imports from ``tree``'s plugin folder under ``plugin_env``."""
    found = subprocess.run([sys.executable, "-c", "import stratbench.plugin as p; print(p.__file__)"], cwd=tree,
                           env=plugin_env(tree / "plugin"), capture_output=True, text=True, check=True).stdout.strip()
    if not Path(found).resolve().is_relative_to((tree / "plugin").resolve()):
        raise SystemExit(f"stratbench resolves to {found}, not to {tree / 'plugin'}")


def small_run(tree: Path, report: Path) -> tuple[float, float]:
    """Runs the 2-match run from ``tree``'s root; returns its wall time and CPU time (user + system) in seconds."""
    start, before = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "pytest", *SMALL_RUN, "--report-dir", str(report)], cwd=tree,
                          env=plugin_env(tree / "plugin"), capture_output=True, text=True, check=False)
    wall, after = time.perf_counter() - start, resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{tree}: the 2-match run exited {done.returncode}\n{done.stdout[-3000:]}\n"
                         f"{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--previous", default="daa92e1", help="the commit to compare with")
    parser.add_argument("--repeats", type=int, default=3, help="timed 2-match runs and concurrent runs per tree")
    parser.add_argument("--matches", type=int, default=128, help="model matches of the concurrent and serial runs")
    parser.add_argument("--concurrency", type=int, default=32)
    parser.add_argument("--delay", type=float, default=0.2, help="seconds the loopback model takes per answer")
    parser.add_argument("--skip-serial", action="store_true", help="leave out the serial runs (no speed-up)")
    parser.add_argument("--write", type=Path, help="also write the tables as Markdown to this file")
    args = parser.parse_args()
    started = datetime.datetime.now(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC")
    loads = [os.getloadavg()[0]]
    print(f"{started}; load before: {loads[0]:.2f} (1-min load average, {os.cpu_count()} cores)")
    with tempfile.TemporaryDirectory() as tmp:
        previous = Path(tmp) / "previous"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(previous), args.previous], cwd=ROOT,
                       check=True)
        try:
            trees = {f"previous ({args.previous})": previous, "this tree": ROOT}
            for tree in trees.values():
                check_tree(tree)
            lines = measure(trees, Path(tmp), args, loads)
        finally:
            subprocess.run(["git", "worktree", "remove", "--force", str(previous)], cwd=ROOT, check=False)
    loads.append(os.getloadavg()[0])
    ended = datetime.datetime.now(datetime.UTC).strftime("%H:%M UTC")
    footer = f"{started} to {ended}; load {min(loads):.1f}–{max(loads):.1f} (1-min, sampled between runs)"
    print(footer)
    if args.write:
        args.write.write_text("\n".join([*lines, "", footer, ""]))


def measure(trees: dict[str, Path], tmp: Path, args: argparse.Namespace, loads: list[float]) -> list[str]:
    """Runs both measurements on every tree, interleaved; prints and returns the Markdown tables."""
    projects = {name: tmp / f"project-{index}" for index, name in enumerate(trees)}
    small: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
    for repeat in range(args.repeats + 1):  # the first round compiles the modules and is not timed
        for name, tree in trees.items():
            timed = small_run(tree, projects[name] / "small" / str(repeat))
            if repeat:
                small[name].append(timed)
        loads.append(os.getloadavg()[0])
    lines = ["| 2-match Tic-Tac-Toe run | best wall s | median wall s | median CPU s |", "|---|---:|---:|---:|"]
    lines += [f"| {name} | {min(w for w, _ in timed):.2f} | {statistics.median(w for w, _ in timed):.2f} "
              f"| {statistics.median(c for _, c in timed):.2f} |" for name, timed in small.items()]
    print("\n".join(lines))

    runs: dict[tuple[str, str], list[dict]] = {}
    modes = {"serial": 1, f"concurrency {args.concurrency}": args.concurrency}
    with FakeLLMServer(delay_s=args.delay) as server:
        for project in projects.values():
            write_suite(project, "ttt", args.matches, LEAN_INI)
        for repeat in range(args.repeats):
            for mode, concurrency in modes.items():
                if mode == "serial" and (args.skip_serial or repeat):
                    continue  # one serial run per tree: it waits on the model, 200 ms a call
                for name, tree in trees.items():
                    tag = f"{mode.replace(' ', '')}-{repeat}"
                    figures = run_suite(projects[name], "ttt", server.api_base, 0, concurrency, tag,
                                        plugin=tree / "plugin", latencies=False)
                    runs.setdefault((name, mode), []).append(figures)
                    loads.append(os.getloadavg()[0])
    table = [f"| {args.matches} Tic-Tac-Toe matches, model {args.delay * 1000:.0f} ms | wall s, median (runs) "
             "| play s | pytest CPU s | speed-up (wall) |", "|---|---:|---:|---:|---:|"]
    for name in trees:
        serial = runs.get((name, "serial"), [{}])[0].get("wall_s")
        for mode in modes:
            figures = runs.get((name, mode))
            if not figures:
                continue
            wall = statistics.median(f["wall_s"] for f in figures)
            play = statistics.median(f["play_s"] for f in figures)
            cpu = statistics.median(f["pytest_cpu_s"] for f in figures)
            walls = ", ".join(f"{f['wall_s']:.1f}" for f in figures)
            speed_up = f"{serial / wall:.1f}×" if serial else "—"
            table.append(f"| {name}, {mode} | {wall:.1f} ({walls}) | {play:.1f} | {cpu:.1f} | {speed_up} |")
    print("\n" + "\n".join(table))
    return [*lines, "", *table]


if __name__ == "__main__":
    main()

"""Benchmarks the planning suite: collection, validation and planner times.

Measured, on the committed default dataset (``plugin/stratbench/games/spin/planning/dataset``):

* **collection** of 1,280 items (SPIN-Bench's size): a temporary directory in
  SPIN-Bench's layout is filled with 1,280 instances (the default dataset's
  instances, copied round-robin under new names, in as many domains as the
  dataset has) and ``pytest --collect-only suites/spin/test_pddl.py
  --pddl-dir DIR`` is timed in a subprocess (one subject: the suite's
  ``random_planner`` baseline, so 1,280 items). The default dataset's own
  collection is timed the same way. Both include interpreter start-up and
  the import of unified-planning for the per-domain readability check,
  with an empty task cache (a second collection reads the verdicts
  instead: ``bench/pddl_speed.py``).
* **parse** time per instance (unified-planning's PDDL reader, uncached).
* **validation** time per plan: each instance's reference plan (valid) and
  the same plan without its first step (usually an inapplicable action),
  through :func:`stratbench.games.spin.planning.validation.check_answer`, answer parsing included.
* **planner** time per instance: :func:`stratbench.games.spin.planning.planners.solve`
  in this process, as the ``planner`` agent runs it; and the ``random_planner`` walk.

With ``--floor K`` it measures instead how often the ``random_planner``
floor solves each task: K goal-blind walks per instance
(:func:`stratbench.games.spin.planning.planners.blind_walk`, bound 50, seeds
``<task>:0`` .. ``<task>:K-1``), each validated with the project's
validator, averaged per domain, tier and overall. This is the expected
Plan Accuracy of the floor, with less noise than one suite run.

Usage::

    python bench/pddl.py [--limit N] [--per-domain N] [--write FILE]
    python bench/pddl.py --floor K [--domains a,b]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from stratbench.games.spin.planning.dataset import DATASET_DIR, default_instances, domain_problem

ROOT = Path(__file__).resolve().parents[1]
SPIN_ITEMS = 1280


def _collect_seconds(extra: list[str]) -> tuple[float, str]:
    command = [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider",
               str(ROOT / "suites" / "spin" / "test_pddl.py"), *extra]
    with tempfile.TemporaryDirectory() as cache:  # an empty task cache: every instance is decided, as at first
        start = time.perf_counter()
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=False,
                              env=dict(os.environ, STRATBENCH_CACHE_DIR=cache))
        seconds = time.perf_counter() - start
    last = [line for line in done.stdout.splitlines() if line.strip()][-1:] or [done.stderr[-200:]]
    return seconds, last[0]


def _synthetic_dataset(root: Path, count: int) -> None:
    instances = list(default_instances())
    for index in range(count):
        source = instances[index % len(instances)]
        folder = root / source.domain
        (folder / "instances").mkdir(parents=True, exist_ok=True)
        if not (folder / "domain.pddl").exists():
            shutil.copy(source.domain_path, folder / "domain.pddl")
        shutil.copy(source.problem_path, folder / "instances" / f"x{index:04d}.pddl")


def _summary(values: list[float]) -> str:
    if not values:
        return "n/a"
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    return (f"mean {statistics.mean(values) * 1000:.1f} ms, median {statistics.median(values) * 1000:.1f} ms, "
            f"p95 {p95 * 1000:.1f} ms, max {max(values) * 1000:.1f} ms")


def _floor(instances: list, walks: int) -> str:
    """Returns a markdown report of the random_planner floor's success rate over ``walks`` walks per task."""
    from stratbench.games.spin.planning.planners import blind_walk
    from stratbench.games.spin.planning.reading import read_problem
    from stratbench.games.spin.planning.validation import check_steps

    tiers = {e["name"]: e["tier"] for e in json.loads((DATASET_DIR / "manifest.json").read_text())["instances"]}
    rate: dict[str, float] = {}
    start = time.perf_counter()
    for instance in instances:
        problem = read_problem(*domain_problem(instance))
        solved = sum(
            check_steps(problem, blind_walk(problem, random.Random(f"{instance.name}:{k}"), 50)).valid
            for k in range(walks)
        )
        rate[instance.name] = solved / walks
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    seconds = time.perf_counter() - start
    lines = [
        (f"random_planner floor: {walks} walks per task over {len(rate)} tasks ({seconds:.0f} s, load average at "
         f"the end {load})."),
        "",
        f"- overall: {statistics.mean(rate.values()):.3f}",
    ]
    for tier in ("easy", "medium", "hard"):
        values = [r for name, r in rate.items() if tiers.get(name) == tier]
        if values:
            lines.append(f"- {tier}: {statistics.mean(values):.3f} over {len(values)} tasks")
    lines += ["", "| domain | tasks | floor | easy | medium | hard | tasks ever solved |"]
    lines += ["|---|---:|---:|---:|---:|---:|---:|"]
    by_domain: dict[str, list[str]] = defaultdict(list)
    for name in rate:
        by_domain[name.split("/")[0]].append(name)
    for domain, names in sorted(by_domain.items()):
        cells = []
        for tier in ("easy", "medium", "hard"):
            values = [rate[n] for n in names if tiers.get(n) == tier]
            cells.append(f"{statistics.mean(values):.2f}" if values else "–")
        ever = sum(rate[n] > 0 for n in names)
        lines.append(f"| {domain} | {len(names)} | {statistics.mean(rate[n] for n in names):.3f} | "
                     f"{' | '.join(cells)} | {ever} |")
    return "\n".join(lines)


def main() -> int:
    """Runs the benchmark and prints (or writes) a markdown report."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--limit", type=int, default=0, help="use only the first N instances for the timings (0: all)")
    parser.add_argument("--per-domain", type=int, default=0,
                        help="use only the first N instances of each domain for the timings (0: all)")
    parser.add_argument("--write", type=Path, default=None, help="write the report to this markdown file")
    parser.add_argument("--floor", type=int, default=0, metavar="K",
                        help="only measure the random_planner floor: K walks per instance")
    parser.add_argument("--domains", default="", help="with --floor: comma-separated domains (default: all)")
    args = parser.parse_args()
    instances = list(default_instances())
    if not instances:
        print(f"no default dataset under {DATASET_DIR}; run python -m stratbench.games.spin.planning.build_dataset",
              file=sys.stderr)
        return 1
    if args.floor:
        wanted = {d.strip() for d in args.domains.split(",") if d.strip()}
        print(_floor([i for i in instances if not wanted or i.domain in wanted], args.floor))
        return 0
    timed = instances[: args.limit] if args.limit else instances
    if args.per_domain:
        by_domain: dict[str, list] = defaultdict(list)
        for instance in timed:
            by_domain[instance.domain].append(instance)
        timed = [i for group in by_domain.values() for i in group[: args.per_domain]]
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [f"Machine: {platform.platform()}, Python {platform.python_version()}, {os.cpu_count()} CPUs, "
             f"load average at start {load}.",
             f"Dataset: {len(instances)} instances of {len({i.domain for i in instances})} domains; "
             f"timings over {len(timed)}.", ""]

    with tempfile.TemporaryDirectory() as tmp:
        _synthetic_dataset(Path(tmp), SPIN_ITEMS)
        seconds, tail = _collect_seconds(["--pddl-dir", tmp])
        lines.append(f"- collection, {SPIN_ITEMS} items via --pddl-dir: {seconds:.2f} s ({tail})")
    seconds, tail = _collect_seconds([])
    lines.append(f"- collection, default dataset: {seconds:.2f} s ({tail})")

    from stratbench.games.spin.planning import reading
    from stratbench.games.spin.planning.planners import blind_walk, solve
    from stratbench.games.spin.planning.validation import check_answer

    start = time.perf_counter()
    reading.up()
    lines.append(f"- import unified-planning: {time.perf_counter() - start:.2f} s")
    manifest = json.loads((DATASET_DIR / "manifest.json").read_text())
    reference = {e["name"]: e["reference_plan"] for e in manifest["instances"]}
    parse, valid, invalid, planner, walk = [], [], [], defaultdict(list), []
    engines = defaultdict(int)
    unsolved = []
    for instance in timed:
        domain, problem_text = domain_problem(instance)
        reading._read.cache_clear()
        start = time.perf_counter()
        problem = reading.read_problem(domain, problem_text)
        parse.append(time.perf_counter() - start)
        plan = reference[instance.name]
        for steps, bucket in ((plan, valid), (plan[1:], invalid)):
            answer = "$$\n" + json.dumps({"plan": "\n".join(steps)}) + "\n$$"
            start = time.perf_counter()
            check_answer(problem, answer)
            bucket.append(time.perf_counter() - start)
        start = time.perf_counter()
        solution = solve(problem)
        planner[instance.domain].append(time.perf_counter() - start)
        if solution is None:
            unsolved.append(instance.name)
        else:
            engines[solution.engine] += 1
        start = time.perf_counter()
        blind_walk(problem, random.Random(0), 50)
        walk.append(time.perf_counter() - start)
    everything = [s for values in planner.values() for s in values]
    lines += [
        f"- parse per instance: {_summary(parse)}",
        f"- validation per plan, valid reference plans: {_summary(valid)}",
        f"- validation per plan, reference plan minus its first step: {_summary(invalid)}",
        f"- planner per instance: {_summary(everything)}; total {sum(everything):.1f} s; "
        f"solved {len(everything) - len(unsolved)}/{len(everything)}; engines {dict(sorted(engines.items()))}",
        f"- random_planner walk (length drawn from 1..50) per instance: {_summary(walk)}; total {sum(walk):.1f} s",
        "",
        "| domain | instances | planner mean s | planner max s |",
        "|---|---:|---:|---:|",
    ]
    for domain, values in sorted(planner.items()):
        lines.append(f"| {domain} | {len(values)} | {statistics.mean(values):.2f} | {max(values):.2f} |")
    if unsolved:
        lines.append(f"\nUnsolved: {', '.join(unsolved)}")
    report = "\n".join(lines)
    print(report)
    if args.write:
        command = "python bench/pddl.py" + (f" --limit {args.limit}" if args.limit else "") + (
            f" --per-domain {args.per_domain}" if args.per_domain else "")
        args.write.write_text(f"# Planning benchmarks\n\nCommand: `{command}`\n\n{report}\n")
    return 0 if not unsolved else 1


if __name__ == "__main__":
    raise SystemExit(main())

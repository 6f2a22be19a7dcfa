"""Benchmarks reading PDDL: normalise, parse and validate time per task over the built-in domains.

For every task of the committed default dataset (or ``--per-domain N`` of each domain), in one process:

* **normalise**: :func:`stratbench.games.spin.planning.normalise.normalise` (the s-expression pass; the built-in
  tasks need no change, so this is the cost every task pays);
* **parse**: unified-planning's reader on the normalised texts (the reader's caches cleared first, so
  each domain is parsed again with each task: the uncached cost);
* **validate**: the task's reference plan with unified-planning's validator, and again with the
  VAL-semantics path (support check off, no quality metric; :func:`stratbench.games.spin.planning.validation.check_steps`
  with ``relaxed=True``), whose verdicts on every task and on the plan without its first step must equal
  the stock validator's (a mismatch is printed and fails the run);
* **check**: the per-instance decision ``--pddl-dir`` makes at collection
  (:func:`stratbench.games.spin.planning.dataset.scan_directory` over a copy of the dataset), per task.

Usage::

    python bench/pddl_read.py [--per-domain N] [--write FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

from stratbench.games.spin.planning import dataset, reading
from stratbench.games.spin.planning.normalise import normalise
from stratbench.games.spin.planning.plan_parsing import parse_plan_text
from stratbench.games.spin.planning.validation import check_steps


def _clear_caches() -> None:
    reading._read.cache_clear()  # noqa: SLF001 - measuring the uncached cost
    reading._domain_result.cache_clear()  # noqa: SLF001


def _summary(values: list[float]) -> str:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))]
    mean, median = statistics.mean(values) * 1000, statistics.median(values) * 1000
    return f"mean {mean:.1f} ms, median {median:.1f} ms, p95 {p95 * 1000:.1f} ms, max {max(values) * 1000:.1f} ms"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-domain", type=int, default=0, metavar="N", help="Tasks per domain (0: all)")
    parser.add_argument("--write", metavar="FILE", help="Append the figures as Markdown to FILE")
    args = parser.parse_args()
    manifest = dataset.load_manifest()
    assert manifest is not None, "the default dataset is not built"
    by_domain: dict[str, list[dict]] = defaultdict(list)
    for entry in manifest["instances"]:
        if not args.per_domain or len(by_domain[entry["domain"]]) < args.per_domain:
            by_domain[entry["domain"]].append(entry)
    entries = [e for group in by_domain.values() for e in group]
    reading.up()
    times: dict[str, list[float]] = defaultdict(list)
    mismatches = 0
    plans = 0
    for entry in entries:
        domain_text, problem_text = dataset.domain_problem(dataset.resolve(entry["name"]))
        _clear_caches()
        start = time.perf_counter()
        normalise(domain_text, problem_text)
        times["normalise"].append(time.perf_counter() - start)
        start = time.perf_counter()
        task = reading.read_task(domain_text, problem_text)
        times["normalise + parse"].append(time.perf_counter() - start)
        reference = parse_plan_text("\n".join(entry["reference_plan"]))
        for steps in (reference, reference[1:]):
            start = time.perf_counter()
            stock = check_steps(task, steps, relaxed=False)
            times["validate (unified-planning)"].append(time.perf_counter() - start)
            start = time.perf_counter()
            relaxed = check_steps(task, steps, relaxed=True)
            times["validate (VAL semantics)"].append(time.perf_counter() - start)
            plans += 1
            if (stock.valid, stock.error, stock.step, stock.reason) != (
                relaxed.valid, relaxed.error, relaxed.step, relaxed.reason
            ):
                mismatches += 1
                print(f"MISMATCH {entry['name']}: {stock.reason!r} vs {relaxed.reason!r}")
    with tempfile.TemporaryDirectory() as scratch:
        root = Path(scratch) / "data"
        for domain, group in by_domain.items():
            (root / domain / "instances").mkdir(parents=True)
            shutil.copy(dataset.DATASET_DIR / domain / "domain.pddl", root / domain / "domain.pddl")
            for entry in group:
                shutil.copy(dataset.DATASET_DIR / domain / "instances" / f"{entry['instance']}.pddl",
                            root / domain / "instances")
        _clear_caches()
        start = time.perf_counter()
        scanned = dataset.scan_directory(root)
        scan_seconds = time.perf_counter() - start
    skipped = [i for i in scanned if i.skip]
    lines = [
        f"- tasks: {len(entries)} in {len(by_domain)} domains; plans validated: {plans} (reference, and without "
        f"its first step); verdict mismatches between the two validations: {mismatches}",
        *(f"- {name} per task: {_summary(values)}" if "validate" not in name
          else f"- {name} per plan: {_summary(values)}" for name, values in times.items()),
        f"- `--pddl-dir` per-instance check (scan_directory, caches cleared): {scan_seconds:.1f} s for "
        f"{len(scanned)} tasks, {scan_seconds / max(1, len(scanned)) * 1000:.0f} ms per task; skipped: {len(skipped)}",
        f"- machine: {platform.processor() or platform.machine()}, {os.cpu_count()} CPUs, Python "
        f"{platform.python_version()}",
    ]
    text = "\n".join(lines)
    print(text)
    if args.write:
        with open(args.write, "a", encoding="utf-8") as handle:
            handle.write(text + "\n")
    print(json.dumps({"mismatches": mismatches, "tasks": len(entries)}))
    return 1 if mismatches or skipped else 0


if __name__ == "__main__":
    sys.exit(main())

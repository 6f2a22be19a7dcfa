"""Benchmarks Fig. 3b's measure: enumerating each task's reachable state–action pairs.

For the first ``--per-domain N`` tasks of each domain of the committed default
dataset, in one process: the time :func:`stratbench.games.spin.metrics.action_space.state_action_space`
takes on the task already read (the cost a ``pddl`` match's metric adds once per
task), whether the space was enumerated (at most ``--limit`` reachable states)
and its number of pairs.

Usage::

    python bench/state_action_space.py [--per-domain N] [--limit STATES]
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections import defaultdict

from stratbench.games.spin.metrics.action_space import STATE_LIMIT, state_action_space
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.reading import read_problem_files


def main() -> None:
    """Times the enumeration per task and prints a summary per domain and overall."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-domain", type=int, default=1)
    parser.add_argument("--limit", type=int, default=STATE_LIMIT)
    args = parser.parse_args()
    chosen: dict[str, list] = defaultdict(list)
    for instance in dataset.default_instances():
        if len(chosen[instance.domain]) < args.per_domain:
            chosen[instance.domain].append(instance)
    times, enumerated = [], 0
    for domain, instances in sorted(chosen.items()):
        for instance in instances:
            problem = read_problem_files(instance.domain_path, instance.problem_path)
            start = time.perf_counter()
            pairs = state_action_space(problem, limit=args.limit)
            elapsed = time.perf_counter() - start
            times.append(elapsed)
            enumerated += pairs is not None
            shown = "past the limit" if pairs is None else f"{pairs} pairs"
            print(f"{instance.name:40s} {elapsed * 1000:8.0f} ms  {shown}")
    print(f"load average {os.getloadavg()[0]:.1f}; limit {args.limit} states; tasks {len(times)}, "
          f"enumerated {enumerated}, left out {len(times) - enumerated}")
    print(f"per task: mean {statistics.mean(times) * 1000:.0f} ms, median {statistics.median(times) * 1000:.0f} ms, "
          f"max {max(times) * 1000:.0f} ms, total {sum(times):.1f} s")


if __name__ == "__main__":
    main()

"""Solves generated instances of the group-A planning domains and times the planners.

For each domain, tier and seed it generates a problem, parses it with
unified-planning, solves it with the generator's ``PLANNER``, validates the
plan and prints one Markdown table row: plan length, wall-clock solve time
and the CPU time of the solve (this process plus child processes such as
ENHSP's JVM, which makes the figure less sensitive to a busy machine).
A final line counts the instances solved and validated.

Usage::

    python bench/planning_domains_a.py                        # all group-A domains, seed 0
    python bench/planning_domains_a.py termes drone --seeds 0 1 2 --tiers hard
"""

from __future__ import annotations

import argparse
import importlib
import re
import resource
import time
import warnings
from pathlib import Path

GROUP_A = (
    "drone", "floortile", "grid", "depots", "logistics", "rovers", "sokoban", "termes",
    "assembly", "briefcaseworld",
)


def _cpu() -> float:
    own = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def requirements(name: str) -> str:
    """Returns the ``:requirements`` of a domain, space-separated."""
    module = importlib.import_module(f"stratbench.games.spin.planning.domains.{name}.generator")
    text = Path(module.__file__).with_name("domain.pddl").read_text(encoding="utf-8")
    found = re.search(r"\(:requirements([^)]*)\)", text)
    return " ".join(found.group(1).split()) if found else ""


def solve(name: str, tier: str, seed: int, planner: str | None = None) -> tuple[int | None, float, float, str]:
    """Returns (plan length or None, wall seconds, CPU seconds, validation status) for one instance."""
    from unified_planning.engines import PlanGenerationResultStatus
    from unified_planning.io import PDDLReader
    from unified_planning.shortcuts import (
        OneshotPlanner,
        PlanValidator,
        get_environment,
    )

    get_environment().credits_stream = None
    module = importlib.import_module(f"stratbench.games.spin.planning.domains.{name}.generator")
    domain_file = Path(module.__file__).with_name("domain.pddl")
    problem = PDDLReader().parse_problem_string(domain_file.read_text(encoding="utf-8"), module.generate(seed, tier))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cpu, start = _cpu(), time.perf_counter()
        with OneshotPlanner(name=planner or module.PLANNER) as engine:
            result = engine.solve(problem)
        elapsed, cpu = time.perf_counter() - start, _cpu() - cpu
    solved = result.status in (
        PlanGenerationResultStatus.SOLVED_SATISFICING, PlanGenerationResultStatus.SOLVED_OPTIMALLY
    )
    if not solved:
        return None, elapsed, cpu, result.status.name
    with PlanValidator(name="sequential_plan_validator") as validator:
        status = validator.validate(problem, result.plan).status.name
    return len(result.plan.actions), elapsed, cpu, status


def main() -> None:
    """Parses the arguments and prints the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="*", default=list(GROUP_A))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--tiers", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--planner", default=None, help="override the generator's PLANNER")
    args = parser.parse_args()
    print("| domain | category | requirements | planner | tier | seed | plan length | solve s | CPU s | validation |")
    print("|---|---|---|---|---|---:|---:|---:|---:|---|")
    total = valid = 0
    for name in args.domains:
        module = importlib.import_module(f"stratbench.games.spin.planning.domains.{name}.generator")
        planner = args.planner or module.PLANNER
        for tier in args.tiers:
            for seed in args.seeds:
                length, seconds, cpu, status = solve(name, tier, seed, planner)
                total += 1
                valid += status == "VALID"
                shown = "–" if length is None else str(length)
                print(
                    f"| {name} | {module.CATEGORY} | {requirements(name)} | {planner} | {tier} | {seed} "
                    f"| {shown} | {seconds:.2f} | {cpu:.2f} | {status} |",
                    flush=True,
                )
    print(f"\n{valid}/{total} instances solved with a valid plan")


if __name__ == "__main__":
    main()

"""Solves generated instances of the group-B planning domains and times the planners.

For each domain, tier and seed it generates a problem, solves it with the
generator's ``PLANNER`` in a child process killed after ``--timeout``
seconds, validates the plan with the project's validator (unified-planning's
sequential plan validator) and prints one Markdown table row: plan length,
the solve's wall-clock time, and its CPU time (the child process and its
children, such as ENHSP's JVM; less sensitive to a busy machine). Generators
with a ``witness`` function also get their witness plan's length and
validity. A final line counts the instances solved and validated.

Usage::

    python bench/planning_domains_b.py                          # all group-B domains, seed 0
    python bench/planning_domains_b.py sugar counters --seeds 0 1 2 --tiers hard
"""

from __future__ import annotations

import argparse
import importlib
import re
import resource
from pathlib import Path

GROUP_B = (
    "multi_agent_coordination", "cooperate_sequential_gripper", "elevator", "barman", "counters",
    "markettrader", "satellite", "freecell", "settlersnumeric", "sugar",
)


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def requirements(domain_text: str) -> str:
    """Returns the ``:requirements`` of a domain, space-separated."""
    found = re.search(r"\(:requirements([^)]*)\)", domain_text)
    return " ".join(found.group(1).split()) if found else ""


def run(name: str, tier: str, seed: int, planner: str, timeout: float) -> dict:
    """Returns the figures of one instance: plan length, seconds, CPU seconds, verdicts."""
    from stratbench.games.spin.planning.planner_process import solve_isolated
    from stratbench.games.spin.planning.plan_parsing import parse_plan_text
    from stratbench.games.spin.planning.reading import read_problem
    from stratbench.games.spin.planning.validation import check_steps

    module = importlib.import_module(f"stratbench.games.spin.planning.domains.{name}.generator")
    domain_text = Path(module.__file__).with_name("domain.pddl").read_text(encoding="utf-8")
    problem_text = module.generate(seed, tier)
    problem = read_problem(domain_text, problem_text)
    before = _children_cpu()
    solution = solve_isolated(domain_text, problem_text, planner, timeout)
    row = {"cpu": _children_cpu() - before, "length": None, "seconds": None, "verdict": "no plan"}
    if solution is not None:
        check = check_steps(problem, solution.steps)
        row.update(length=len(solution.steps), seconds=solution.seconds, verdict=check.reason)
    if hasattr(module, "witness"):
        steps = parse_plan_text(module.witness(seed, tier))
        check = check_steps(problem, steps)
        row["witness"] = f"{len(steps)} ({check.reason})"
    return row


def main() -> None:
    """Parses the arguments and prints the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("domains", nargs="*", default=list(GROUP_B))
    parser.add_argument("--seeds", type=int, nargs="+", default=[0])
    parser.add_argument("--tiers", nargs="+", default=["easy", "medium", "hard"])
    parser.add_argument("--planner", default=None, help="override the generator's PLANNER")
    parser.add_argument("--timeout", type=float, default=60.0, help="seconds per solve")
    args = parser.parse_args()
    print("| domain | tier | seed | planner | plan length | solve s | CPU s | validation | witness |")
    print("|---|---|---|---|---:|---:|---:|---|---|")
    solved = total = 0
    for name in args.domains:
        module = importlib.import_module(f"stratbench.games.spin.planning.domains.{name}.generator")
        planner = args.planner or module.PLANNER
        for tier in args.tiers:
            for seed in args.seeds:
                row = run(name, tier, seed, planner, args.timeout)
                total += 1
                solved += row["verdict"] == "valid"
                length = "–" if row["length"] is None else row["length"]
                seconds = "–" if row["seconds"] is None else f"{row['seconds']:.2f}"
                print(
                    f"| {name} | {tier} | {seed} | {planner} | {length} | {seconds} | {row['cpu']:.2f} "
                    f"| {row['verdict']} | {row.get('witness', '–')} |",
                    flush=True,
                )
    print(f"\n{solved}/{total} instances solved with a valid plan")


if __name__ == "__main__":
    main()

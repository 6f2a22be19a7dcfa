"""A planner search in a child process, so that a time limit stops it whatever the engine is.

unified-planning's engines run in-process (tamer's C++, pyperplan's Python)
or start their own process in a new session (ENHSP's Java, Fast Downward), and
none of them can be interrupted from another thread. So the planner agent
(:func:`solve_in_child`) and the dataset builder (:func:`solve_isolated`)
run the search in ``python -m stratbench.games.spin.planning.planner_process``: the
child reads the task (the same normalisation, so plans come back in the names
the parent's :class:`~stratbench.games.spin.planning.reading.ReadTask` maps back) and
answers with the plan as JSON. When the match's time is up its task is
cancelled and :func:`stratbench.child_processes.run_child` kills the child
with every process it started; the parent never held unified-planning's lock
for the search, so the next match reads its task at once.

The child pays Python's start and unified-planning's import on each search
(about 2 s of CPU, most of it the SciPy that unified-planning imports); a
child kept warm between matches would outlive its match, which the time
limit must not allow.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path
from typing import Any

from stratbench.child_processes import die_with_parent, run_child, run_child_sync
from stratbench.core.types import HarnessError
from stratbench.games.spin.planning.planners import Solution, _solve_with, solve
from stratbench.games.spin.planning.reading import read_problem

__all__ = ["solve_in_child", "solve_isolated"]


async def solve_in_child(domain: str, problem: str, engines: tuple[str, ...]) -> Solution | None:
    """Returns :func:`~stratbench.games.spin.planning.planners.solve`'s answer, searched in a child process.

    Cancelling the awaiting task kills the search and every process it started.

    Raises:
        HarnessError: when the child fails (its last line of error output is named).
    """
    status, out, err = await run_child(_command(), _request(domain, problem, engines, check=True), env=_environment())
    return _answer(status, out, err)


def solve_isolated(domain: str, problem: str, engine: str, timeout: float) -> Solution | None:
    """Solves with one engine in a child process, killed with its descendants after ``timeout`` seconds.

    Returns None when the engine fails, finds no plan, or runs out of time.
    The plan is not validated (the builder validates every plan it keeps).
    """
    finished = run_child_sync(_command(), _request(domain, problem, (engine,), check=False), timeout,
                              env=_environment())
    if finished is None:
        return None
    try:
        return _answer(*finished)
    except HarnessError:
        return None


def _command() -> list[str]:
    return [sys.executable, "-m", "stratbench.games.spin.planning.planner_process"]


def _environment() -> dict[str, str]:
    """The parent's environment, with the folder this stratbench is imported from first on the path."""
    package_root = str(Path(__file__).resolve().parents[4])
    path = os.environ.get("PYTHONPATH")
    return {**os.environ, "PYTHONPATH": package_root + (os.pathsep + path if path else "")}


def _request(domain: str, problem: str, engines: tuple[str, ...], *, check: bool) -> bytes:
    return json.dumps({"domain": domain, "problem": problem, "engines": list(engines), "check": check}).encode()


def _answer(status: int, out: bytes, err: bytes) -> Solution | None:
    if status != 0:
        lines = err.decode(errors="replace").strip().splitlines()
        raise HarnessError(f"the planner process exited with status {status}: {lines[-1] if lines else 'no output'}")
    lines = out.decode(errors="replace").strip().splitlines()
    found = json.loads(lines[-1]) if lines else None  # the answer is the last line: an engine may print before it
    if found is None:
        return None
    steps = tuple((name, tuple(args)) for name, args in found["steps"])
    return Solution(steps, found["engine"], found["engine_version"], found["seconds"])


def _solve(request: dict[str, Any]) -> dict[str, Any] | None:
    """The child's work: reads the task and searches it as the request says."""
    problem = read_problem(request["domain"], request["problem"])
    engines = tuple(request["engines"])
    solution = solve(problem, engines) if request["check"] else _solve_with(problem, engines[0])
    if solution is None:
        return None
    return {"steps": [[name, list(args)] for name, args in solution.steps], "engine": solution.engine,
            "engine_version": solution.engine_version, "seconds": solution.seconds}


def main() -> None:
    """Reads a request on stdin, writes the solution (or ``null``) as JSON on stdout."""
    die_with_parent()
    request = json.loads(sys.stdin.buffer.read())
    answer = _solve(request)
    sys.stdout.write("\n" + json.dumps(answer) + "\n")


if __name__ == "__main__":
    main()

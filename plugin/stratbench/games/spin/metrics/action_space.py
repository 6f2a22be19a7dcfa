"""A planning task's action-space size (SPIN-Bench §4.3.1, Fig. 3a and 3b).

Fig. 3a relates plan accuracy to "the average number of legal actions per
step". Here that is, for one task, the mean number of applicable ground
actions in the states its reference plan passes through (the initial state
and every state before the last step). The reference plan comes from the
dataset's ``manifest.json`` (the committed set has one per task); a task
without one gets None.

Fig. 3b relates it to the total state–action space, "the complete set of
possible state–action pairs given an initial state and action space": here
every state reachable from the initial state, each counted with its
applicable ground actions (:func:`state_action_space`). The count is exact;
a task with more than :data:`STATE_LIMIT` reachable states gets None (its
space is not enumerated). The enumeration also stops when the metric's time
budget (:mod:`stratbench.match.metric_budget`) is spent, checked before each state
and while one state's applicable actions are listed (a task with many
objects and parameters can take minutes for one state); the task's count
is then not computed, and later matches of the same task in the process do
not try again.
"""

from __future__ import annotations

import warnings
from functools import lru_cache
from pathlib import Path
from typing import Any

from stratbench.games.spin.planning.dataset import load_manifest
from stratbench.games.spin.planning.plan_parsing import parse_plan_text
from stratbench.games.spin.planning.planners import _Successors
from stratbench.games.spin.planning.reading import ReadTask, holds_up_lock, read_problem_files
from stratbench.games.spin.planning.validation import _resolve
from stratbench.match.metric_budget import MetricBudget, MetricTimeout, budget

__all__ = [
    "STATE_LIMIT", "legal_actions_per_step", "reference_plan", "state_action_space", "task_legal_actions",
    "task_state_action_space",
]

STATE_LIMIT = 200
"""Reachable states enumerated at most per task for Fig. 3b; a larger space is left out (None)."""


@lru_cache(maxsize=8)
def _plans(root: Path) -> dict[str, list[str]]:
    manifest = load_manifest(root) or {}
    return {str(e["name"]): list(e["reference_plan"]) for e in manifest.get("instances", [])
            if isinstance(e, dict) and e.get("reference_plan")}


def reference_plan(instance: Any) -> list[str] | None:
    """Returns the instance's reference plan (one ``(action args)`` line per step) from its dataset's manifest."""
    problem_path = getattr(instance, "problem_path", None)
    if problem_path is None:
        return None
    root = Path(problem_path).resolve().parents[2]  # <root>/<domain>/instances/<instance>.pddl
    return _plans(root).get(str(instance.name))


@lru_cache(maxsize=1024)
def _task_legal_actions(domain_path: Path, problem_path: Path, name: str) -> float | None:
    plan = _plans(Path(problem_path).resolve().parents[2]).get(name)
    return None if plan is None else legal_actions_per_step(read_problem_files(domain_path, problem_path), plan)


def task_legal_actions(instance: Any) -> float | None:
    """Returns :func:`legal_actions_per_step` of an instance's reference plan, once per task in a process.

    None without an instance or a reference plan.
    """
    if getattr(instance, "problem_path", None) is None:
        return None
    return _task_legal_actions(Path(instance.domain_path), Path(instance.problem_path), str(instance.name))


@holds_up_lock
def legal_actions_per_step(problem: Any, plan: list[str]) -> float | None:
    """Returns the mean number of applicable ground actions in the states before each step of ``plan``.

    None when the plan is empty or does not execute on ``problem`` (a stale manifest).
    """
    from unified_planning.engines.sequential_simulator import (  # lean: unified_planning costs seconds
        UPSequentialSimulator,
    )

    steps = parse_plan_text("\n".join(plan))
    resolved = _resolve(ReadTask(problem=problem), steps, None)
    if not steps or not isinstance(resolved, list):
        return None
    counts = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulator = UPSequentialSimulator(problem, error_on_failed_checks=False)
        successors = _Successors(problem)
        state = simulator.get_initial_state()
        for action, objects in resolved:
            counts.append(len(successors.applicable(state)))
            state = simulator.apply(state, action, objects)
            if state is None:
                return None
    return sum(counts) / len(counts)


class _BudgetedSuccessors(_Successors):
    """The backtracking grounder, checking a time budget at every binding it tries."""

    def __init__(self, problem: Any, budget: MetricBudget) -> None:
        super().__init__(problem)
        self.budget = budget

    def _bind(self, state: Any, domains: list[list[Any]], buckets: list[list[Any]], bound: list[Any]) -> Any:
        self.budget.check(WHAT)
        yield from super()._bind(state, domains, buckets, bound)


WHAT = "the state–action space (Fig. 3b)"
"""What a record and the report say was not computed when the enumeration runs out of time."""


@holds_up_lock
def state_action_space(problem: Any, limit: int = STATE_LIMIT, budget: MetricBudget | None = None) -> int | None:
    """Returns the number of state–action pairs reachable from the initial state, or None past ``limit`` states.

    Every reachable state (breadth-first from the initial state) contributes
    its applicable ground actions; an action whose effects cannot apply
    leads nowhere new but still counts as a pair of its state. A task whose
    states the simulator cannot compute (an effect reading a numeric fluent
    never assigned, which VAL allows until read) is not enumerated: None.

    ``budget``'s seconds count from when this holds unified-planning's lock:
    the time spent waiting while another match plans with it is not the
    enumeration's, and does not use them up.

    Raises:
        MetricTimeout: when ``budget`` is spent, before a state or while one state's actions are listed.
    """
    from unified_planning.exceptions import UPException  # lean: unified_planning costs seconds

    own = MetricBudget(budget.seconds, budget.clock) if budget is not None else MetricBudget(None)
    try:
        return _state_action_space(problem, limit, own)
    except UPException:
        return None


def _state_action_space(problem: Any, limit: int, budget: MetricBudget) -> int | None:
    from unified_planning.engines.sequential_simulator import (  # lean: unified_planning costs seconds
        UPSequentialSimulator,
    )

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulator = UPSequentialSimulator(problem, error_on_failed_checks=False)
        successors = _BudgetedSuccessors(problem, budget)
        initial = simulator.get_initial_state()
        seen, frontier, pairs = {initial}, [initial], 0
        while frontier:
            budget.check(WHAT)
            state = frontier.pop()
            options = successors.applicable(state)
            pairs += len(options)
            for _, action, objects in options:
                budget.check(WHAT)
                following = simulator.apply(state, action, objects)
                if following is not None and following not in seen:
                    if len(seen) == limit:
                        return None
                    seen.add(following)
                    frontier.append(following)
    return pairs


@lru_cache(maxsize=1024)
def _task_state_action_space(domain_path: Path, problem_path: Path) -> int | None:
    return state_action_space(read_problem_files(domain_path, problem_path), budget=budget())


_OUT_OF_TIME: dict[tuple[Path, Path], str] = {}
"""Tasks whose enumeration ran out of time in this process, with the reason (not tried again)."""


def task_state_action_space(instance: Any) -> int | None:
    """Returns :func:`state_action_space` of an instance, once per task in a process; None without an instance.

    It runs within the current metric's budget (:func:`stratbench.match.metric_budget.budget`).

    Raises:
        MetricTimeout: when the budget ran out, now or for the same task earlier in the process.
    """
    if getattr(instance, "problem_path", None) is None:
        return None
    key = (Path(instance.domain_path), Path(instance.problem_path))
    if key in _OUT_OF_TIME:
        raise MetricTimeout(_OUT_OF_TIME[key])
    try:
        return _task_state_action_space(*key)
    except MetricTimeout as error:
        _OUT_OF_TIME[key] = str(error)
        raise

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
is then not computed.

Both are properties of the task, computed once per task and kept
(:func:`task_state_action_space`, :func:`task_legal_actions`): a dataset's
``manifest.json`` may carry them (the committed one does, built with
``build_dataset --metrics-only``), used when the manifest's entry has the
task's sha256 and was computed under :data:`METRICS_VERSION`; otherwise
they come from the task cache (:mod:`stratbench.games.spin.planning.task_cache`),
keyed by the task's texts and this code, and are computed and stored there
on a miss. "Not computed in time" is kept as such, with the budget it ran
out of: it stands for any budget no larger, and a larger one tries again.
"""

from __future__ import annotations

import hashlib
import warnings
from functools import lru_cache
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from stratbench.games.spin.planning import task_cache
from stratbench.games.spin.planning.dataset import load_manifest
from stratbench.games.spin.planning.plan_parsing import parse_plan_text
from stratbench.games.spin.planning.derivation import simulator_for
from stratbench.games.spin.planning.planners import _Successors
from stratbench.games.spin.planning.reading import ReadTask, holds_up_lock, read_problem
from stratbench.games.spin.planning.validation import _resolve
from stratbench.match.metric_budget import MetricBudget, MetricTimeout, budget

__all__ = [
    "LEGAL", "METRICS_VERSION", "PAIRS", "STATE_LIMIT", "legal_actions_per_step", "manifest_stamp", "reference_plan",
    "state_action_space", "task_legal_actions", "task_metrics", "task_state_action_space",
]

STATE_LIMIT = 200
"""Reachable states enumerated at most per task for Fig. 3b; a larger space is left out (None)."""

METRICS_VERSION = 1
"""The version of what this module computes. Bump it with any change that alters a task's value: a manifest's
values computed under another version are then not used (rebuild them: ``build_dataset --metrics-only``)."""

PAIRS, LEGAL = "state_action_pairs", "legal_actions_per_step"
"""The names of the two task metrics, in a match record, a manifest entry and the task cache."""

_PLANNING = Path(__file__).resolve().parents[1] / "planning"
_SOURCES = (Path(__file__).resolve(), *(_PLANNING / name for name in (
    "planners.py", "reading.py", "normalise.py", "sexpr.py", "validation.py", "plan_parsing.py")))
"""The code a task's metric values come from: a change to any of it computes the cached values again."""
_KNOWN: dict[str, Any] = {}
"""The values decided in this process, by their task-cache key (as stored: see :func:`_usable`)."""
_UNKNOWN = object()


def manifest_stamp() -> dict[str, Any]:
    """Returns what a manifest's ``task_metrics`` must say for its values to be used here."""
    try:
        planning = version("unified-planning")
    except PackageNotFoundError:
        planning = None
    return {"version": METRICS_VERSION, "state_limit": STATE_LIMIT, "unified-planning": planning}


@lru_cache(maxsize=8)
def _manifest(root: Path) -> tuple[dict[str, dict[str, Any]], bool]:
    """Returns a dataset's manifest entries by name, and whether its task metrics are current."""
    manifest = load_manifest(root) or {}
    entries = {str(e["name"]): e for e in manifest.get("instances", []) if isinstance(e, dict) and "name" in e}
    return entries, manifest.get("task_metrics") == manifest_stamp()


def _entry(instance: Any) -> tuple[dict[str, Any], bool]:
    """Returns the instance's manifest entry ({} if none) and whether the manifest's task metrics are current."""
    problem_path = getattr(instance, "problem_path", None)
    if problem_path is None or getattr(instance, "name", None) is None:
        return {}, False
    parents = Path(problem_path).resolve().parents  # <root>/<domain>/instances/<instance>.pddl
    if len(parents) < 3:
        return {}, False
    entries, current = _manifest(parents[2])
    return entries.get(str(instance.name), {}), current


def reference_plan(instance: Any) -> list[str] | None:
    """Returns the instance's reference plan (one ``(action args)`` line per step) from its dataset's manifest."""
    plan = _entry(instance)[0].get("reference_plan")
    return list(plan) if plan else None


def _sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _known(instance: Any, texts: tuple[str, str], name: str, key: str, current: MetricBudget) -> Any:
    """Returns the value kept for a task (manifest, this process, the task cache), or :data:`_UNKNOWN`."""
    entry, fresh = _entry(instance)
    same = entry.get("sha256") == {"domain": _sha256(texts[0]), "problem": _sha256(texts[1])}
    if fresh and same and name in entry and _usable(name, entry[name], current):
        return entry[name]
    if key in _KNOWN and _usable(name, _KNOWN[key], current):
        return _KNOWN[key]
    stored = task_cache.load(key) or {}
    if name in stored and _usable(name, stored[name], current):
        _KNOWN[key] = stored[name]
        return stored[name]
    return _UNKNOWN


def _usable(name: str, value: Any, current: MetricBudget) -> bool:
    """Whether a kept value answers now: a number or None (not enumerated: past the limit) always; "out of time"
    (``{"out_of_time_s": S}``) for a budget no larger than the ``S`` seconds it ran out of."""
    if isinstance(value, dict):
        spent = value.get("out_of_time_s")
        return (name == PAIRS and isinstance(spent, (int, float)) and current.seconds is not None
                and current.seconds <= spent)
    if name == PAIRS:
        return value is None or (isinstance(value, int) and not isinstance(value, bool))
    return value is None or (isinstance(value, (int, float)) and not isinstance(value, bool))


def _keep(key: str, name: str, value: Any) -> Any:
    _KNOWN[key] = value
    task_cache.store(key, {name: value})
    return value


def _texts(instance: Any) -> tuple[str, str]:
    return (Path(instance.domain_path).read_text(encoding="utf-8"),
            Path(instance.problem_path).read_text(encoding="utf-8"))


def task_legal_actions(instance: Any) -> float | None:
    """Returns :func:`legal_actions_per_step` of an instance's reference plan, computed once per task.

    From the manifest or the task cache when kept there (module docstring);
    None without an instance or a reference plan.
    """
    plan = reference_plan(instance)
    if plan is None:
        return None
    texts = _texts(instance)
    key = task_cache.task_key(LEGAL, task_cache.code_version(*_SOURCES), *texts, "\n".join(plan))
    known = _known(instance, texts, LEGAL, key, budget())
    if known is not _UNKNOWN:
        return known
    return _keep(key, LEGAL, legal_actions_per_step(read_problem(*texts), plan))


@holds_up_lock
def legal_actions_per_step(problem: Any, plan: list[str]) -> float | None:
    """Returns the mean number of applicable ground actions in the states before each step of ``plan``.

    None when the plan is empty or does not execute on ``problem`` (a stale manifest).
    """
    steps = parse_plan_text("\n".join(plan))
    resolved = _resolve(ReadTask(problem=problem), steps, None)
    if not steps or not isinstance(resolved, list):
        return None
    counts = []
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulator = simulator_for(problem)  # derived atoms closed as VAL closes them
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
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulator = simulator_for(problem)  # derived atoms closed as VAL closes them
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


def task_state_action_space(instance: Any) -> int | None:
    """Returns :func:`state_action_space` of an instance, computed once per task; None without an instance.

    From the manifest or the task cache when kept there (module docstring);
    otherwise it runs within the current metric's budget
    (:func:`stratbench.match.metric_budget.budget`), and its value, or that
    it ran out of time, is kept.

    Raises:
        MetricTimeout: when the budget ran out, now or for the same task before under a budget no smaller.
    """
    if getattr(instance, "problem_path", None) is None:
        return None
    texts = _texts(instance)
    current = budget()
    key = task_cache.task_key(PAIRS, task_cache.code_version(*_SOURCES), *texts, str(STATE_LIMIT))
    known = _known(instance, texts, PAIRS, key, current)
    if known is _UNKNOWN:
        known = _keep(key, PAIRS, _count_pairs(read_problem(*texts), current))
    if isinstance(known, dict):
        raise MetricTimeout(current.reason(WHAT))
    return known


def _count_pairs(problem: Any, current: MetricBudget) -> int | None | dict[str, float]:
    """Returns the task's count, None past the limit, or ``{"out_of_time_s": S}`` when ``current`` ran out."""
    try:
        return state_action_space(problem, STATE_LIMIT, budget=current)
    except MetricTimeout:
        return {"out_of_time_s": current.seconds}


def task_metrics(domain_text: str, problem_text: str, plan: list[str] | None, seconds: float | None) -> dict[str, Any]:
    """Returns both task metrics of a task as a manifest entry keeps them, computed now within ``seconds`` each.

    ``legal_actions_per_step`` is None without a reference ``plan``;
    ``state_action_pairs`` is the count, None past :data:`STATE_LIMIT`
    states, or ``{"out_of_time_s": seconds}`` when the enumeration ran out of time.
    """
    problem = read_problem(domain_text, problem_text)
    legal = legal_actions_per_step(problem, plan) if plan else None
    return {LEGAL: legal, PAIRS: _count_pairs(problem, MetricBudget(seconds))}

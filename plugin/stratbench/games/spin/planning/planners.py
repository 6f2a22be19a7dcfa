"""Solving planning tasks with unified-planning's planners, and random walks.

:func:`solve` tries the installed engines in order (Fast Downward when the
optional ``planners`` extra is installed, then pyperplan, tamer and ENHSP)
and returns the first plan the validator accepts, with the engine that found
it. None of them reads derived predicates: a task keeping recursive ones
(:mod:`stratbench.games.spin.planning.derivation`) is searched breadth-first
here instead, over states holding their least fixpoint (engine
``breadth-first``; shortest plans, for small tasks).
One engine in a child process with a hard timeout (the dataset builder:
pyperplan and tamer ignore timeouts; the planner agent's searches) is
:mod:`stratbench.games.spin.planning.planner_process`.
:func:`random_walk` applies random applicable actions with unified-planning's
sequential simulator, blind to the goal; :func:`blind_walk` is the
``random_planner`` agent's procedure (a walk of a random length).
"""

from __future__ import annotations

import random
import time
import warnings
from collections import deque
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any

from stratbench.games.spin.planning.derivation import Derivation, derivation_of, simulator_for
from stratbench.games.spin.planning.reading import holds_up_lock, up
from stratbench.games.spin.planning.validation import check_steps

__all__ = [
    "DEFAULT_ENGINES", "Solution", "available_engines", "blind_walk", "engine_version", "random_walk", "solve",
]

DEFAULT_ENGINES = ("fast-downward", "pyperplan", "tamer", "enhsp")
"""Engines tried in order; engines not installed are skipped."""

_DISTRIBUTIONS = {
    "pyperplan": "up-pyperplan",
    "tamer": "up-tamer",
    "enhsp": "up-enhsp",
    "fast-downward": "up-fast-downward",
    "breadth-first": "pytest-stratbench",
}
_SEARCH_LIMIT = 200_000
"""States the breadth-first search may reach before it gives up."""


@dataclass(frozen=True)
class Solution:
    """A plan an engine found.

    Attributes:
        steps: ``(action, (args...))`` per step, lower-cased.
        engine: The engine's name (``tamer``).
        engine_version: The engine's package version.
        seconds: Wall time of the solve.
    """

    steps: tuple[tuple[str, tuple[str, ...]], ...]
    engine: str
    engine_version: str
    seconds: float


def engine_version(engine: str) -> str:
    """Returns the installed version of an engine's package, or ``"unknown"``."""
    distribution = _DISTRIBUTIONS.get(engine, engine)
    for name in (distribution, distribution.replace("-", "_")):
        try:
            return version(name)
        except PackageNotFoundError:
            continue
    return "unknown"


_NUMERIC = {"SIMPLE_NUMERIC_PLANNING", "GENERAL_NUMERIC_PLANNING"}


def available_engines(engines: tuple[str, ...] = DEFAULT_ENGINES, problem: Any = None) -> list[str]:
    """Returns the engines of ``engines`` that are installed, in the order to try them.

    For a numeric task (numeric fluents beyond action costs) ENHSP, a
    numeric planner, moves to the front.
    """
    up()
    from unified_planning.environment import get_environment  # lean: unified_planning costs seconds

    installed = set(get_environment().factory.engines)
    order = [name for name in engines if name in installed]
    if problem is not None and _NUMERIC & set(problem.kind.features) and "enhsp" in order:
        order.remove("enhsp")
        order.insert(0, "enhsp")
    return order


@holds_up_lock
def solve(problem: Any, engines: tuple[str, ...] = DEFAULT_ENGINES) -> Solution | None:
    """Returns the first valid plan an engine finds, in engine order, or None if none does.

    Every installed engine is tried, even one that does not declare support
    for the task's features (pyperplan ignores action costs, which do not
    affect validity); a plan is accepted only if the validator accepts it.
    A task with recursive derived predicates is searched breadth-first.
    """
    derivation = derivation_of(problem)
    if derivation is not None:
        solution = _breadth_first(problem, derivation)
        return solution if solution is not None and check_steps(problem, solution.steps).valid else None
    for name in available_engines(engines, problem):
        solution = _solve_with(problem, name)
        if solution is not None and check_steps(problem, solution.steps).valid:
            return solution
    return None


def _solve_with(problem: Any, engine: str) -> Solution | None:
    up()
    from unified_planning.engines import PlanGenerationResultStatus  # lean: unified_planning costs seconds
    from unified_planning.shortcuts import OneshotPlanner  # lean: unified_planning costs seconds

    solved = (PlanGenerationResultStatus.SOLVED_SATISFICING, PlanGenerationResultStatus.SOLVED_OPTIMALLY)
    start = time.perf_counter()
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with OneshotPlanner(name=engine) as planner:
                result = planner.solve(problem)
    except Exception:  # an engine failing on a task means "not solved by it"
        return None
    if result.status not in solved or result.plan is None:
        return None
    steps = tuple(
        (a.action.name.lower(), tuple(str(p).lower() for p in a.actual_parameters)) for a in result.plan.actions
    )
    return Solution(steps, engine, engine_version(engine), time.perf_counter() - start)


@holds_up_lock
def random_walk(problem: Any, rng: random.Random, length: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Applies ``length`` uniformly random applicable actions, fewer only at a dead end.

    At each step every applicable grounding is listed (:class:`_Successors`),
    sorted by its text, and one is drawn with ``rng``; unified-planning's
    sequential simulator applies it. The walk never looks at the goal: it
    goes on through goal states. A seed replays the same walk.
    """
    up()
    from unified_planning.exceptions import UPUsageError  # lean: unified_planning costs seconds

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulator = simulator_for(problem)
        successors = _Successors(problem)
        state = simulator.get_initial_state()
        steps: list[tuple[str, tuple[str, ...]]] = []
        while len(steps) < length:
            options = successors.applicable(state)
            following = None
            while options and following is None:
                step, action, objects = options.pop(rng.randrange(len(options)))
                try:
                    following = simulator.apply(state, action, objects)
                except UPUsageError:  # an effect reads a numeric fluent no step has given a value yet
                    following = None
                    # The simulator's evaluator is left mid-walk by the exception: start a fresh one.
                    simulator = simulator_for(problem)
            if following is None:
                break  # a dead end: no action applies
            state = following
            steps.append(step)
    return tuple(steps)


def _breadth_first(problem: Any, derivation: Derivation) -> Solution | None:
    """Returns a shortest plan, searched over states holding the derived atoms' least fixpoint, or None when none
    is found within :data:`_SEARCH_LIMIT` states."""
    up()
    from unified_planning.exceptions import UPUsageError  # lean: unified_planning costs seconds

    start = time.perf_counter()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        simulator = simulator_for(problem, derivation)
        successors = _Successors(problem)
        initial = simulator.get_initial_state()
        reached: dict[Any, tuple[Any, tuple[str, tuple[str, ...]]] | None] = {initial: None}
        frontier = deque([initial])
        goal = initial if simulator.is_goal(initial) else None
        while frontier and goal is None and len(reached) < _SEARCH_LIMIT:
            state = frontier.popleft()
            for step, action, objects in successors.applicable(state):
                try:
                    following = simulator.apply(state, action, objects)
                except UPUsageError:  # an effect reads a numeric fluent with no value: not applicable
                    simulator = simulator_for(problem, derivation)  # the exception leaves its evaluator mid-walk
                    continue
                if following is None or following in reached:
                    continue
                reached[following] = (state, step)
                if simulator.is_goal(following):
                    goal = following
                    break
                frontier.append(following)
    if goal is None:
        return None
    steps = []
    while (parent := reached[goal]) is not None:
        goal, step = parent
        steps.append(step)
    return Solution(tuple(reversed(steps)), "breadth-first", engine_version("breadth-first"),
                    time.perf_counter() - start)


@holds_up_lock
def blind_walk(problem: Any, rng: random.Random, bound: int) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Draws a length uniformly from ``1..bound`` with ``rng`` and walks that far (:func:`random_walk`).

    This is the ``random_planner`` agent's answer. The length does not depend
    on the task, so the walk is a floor that knows nothing of the goal.

    Raises:
        ValueError: if ``bound`` is below 1.
    """
    if bound < 1:
        raise ValueError(f"the walk bound must be at least 1, not {bound}")
    return random_walk(problem, rng, rng.randint(1, bound))


class _Successors:
    """Lists the applicable groundings of a task's actions in a state, by backtracking.

    unified-planning's grounder instantiates every action's effects for every
    parameter tuple, which takes minutes on mid-sized tasks; this binds the
    parameters one at a time and checks each precondition conjunct as soon as
    its parameters are bound. Literals and (in)equalities are checked with
    direct state look-ups; any other conjunct (numeric, quantified,
    disjunctive) is substituted and evaluated by unified-planning.
    """

    def __init__(self, problem: Any) -> None:
        from unified_planning.model.walkers import StateEvaluator  # lean: unified_planning costs seconds

        self.problem = problem
        self.manager = problem.environment.expression_manager
        self.evaluator = StateEvaluator(problem)
        self.atoms: dict[tuple[Any, tuple[Any, ...]], Any] = {}
        self.actions = [self._compile(action) for action in problem.actions]

    def _compile(self, action: Any) -> tuple[Any, list[Any], list[list[Any]]]:
        params = list(action.parameters)
        index = {p: i for i, p in enumerate(params)}
        domains = [list(self.problem.objects(p.type)) for p in params]
        buckets: list[list[Any]] = [[] for _ in range(len(params) + 1)]
        for precondition in action.preconditions:
            for part in _conjuncts(precondition):
                used = _parameters(part)
                last = max((index[p] for p in used), default=-1)
                buckets[last + 1].append(self._checker(part, index))
        return action, domains, buckets

    def _checker(self, node: Any, index: dict[Any, int]) -> Any:
        from unified_planning.exceptions import UPUsageError  # lean: unified_planning costs seconds
        from unified_planning.model.walkers import StateEvaluator  # lean: unified_planning costs seconds

        negated = node.is_not()
        inner = node.arg(0) if negated else node
        if inner.is_fluent_exp() and inner.fluent().type.is_bool_type() and all(
            a.is_parameter_exp() or a.is_object_exp() for a in inner.args
        ):
            specs = [(index[a.parameter()], None) if a.is_parameter_exp() else (-1, a.object()) for a in inner.args]
            fluent = inner.fluent()
            return lambda state, bound: self._atom(state, fluent, specs, bound) != negated
        if inner.is_equals() and all(a.is_parameter_exp() or a.is_object_exp() for a in inner.args):
            left, right = (
                (index[a.parameter()], None) if a.is_parameter_exp() else (-1, a.object()) for a in inner.args
            )
            return lambda state, bound: (_value(left, bound) == _value(right, bound)) != negated
        params = [p for p in index]

        def general(state: Any, bound: list[Any]) -> bool:
            binding = {p: self.manager.ObjectExp(bound[index[p]]) for p in params if index[p] < len(bound)}
            grounded = self.problem.environment.substituter.substitute(node, binding)
            try:
                value = self.evaluator.evaluate(grounded, state)
            except UPUsageError:  # it reads a numeric fluent with no value yet: an error, so not applicable
                self.evaluator = StateEvaluator(self.problem)  # the exception leaves the old one mid-walk
                return False
            return value.is_bool_constant() and value.bool_constant_value()

        return general

    def _atom(self, state: Any, fluent: Any, specs: list[Any], bound: list[Any]) -> bool:
        objects = tuple(_value(spec, bound) for spec in specs)
        key = (fluent, objects)
        atom = self.atoms.get(key)
        if atom is None:
            atom = self.atoms[key] = self.manager.FluentExp(fluent, [self.manager.ObjectExp(o) for o in objects])
        return state.get_value(atom).bool_constant_value()

    def applicable(self, state: Any) -> list[tuple[tuple[str, tuple[str, ...]], Any, tuple[Any, ...]]]:
        """Returns ``(step, action, objects)`` for every applicable grounding, sorted by step."""
        found = []
        for action, domains, buckets in self.actions:
            if not all(check(state, []) for check in buckets[0]):
                continue
            for objects in self._bind(state, domains, buckets, []):
                step = (action.name.lower(), tuple(o.name.lower() for o in objects))
                found.append((step, action, tuple(objects)))
        found.sort(key=lambda option: option[0])
        return found

    def _bind(self, state: Any, domains: list[list[Any]], buckets: list[list[Any]], bound: list[Any]) -> Any:
        depth = len(bound)
        if depth == len(domains):
            yield list(bound)
            return
        for obj in domains[depth]:
            bound.append(obj)
            if all(check(state, bound) for check in buckets[depth + 1]):
                yield from self._bind(state, domains, buckets, bound)
            bound.pop()


def _value(spec: tuple[int, Any], bound: list[Any]) -> Any:
    position, obj = spec
    return obj if position < 0 else bound[position]


def _conjuncts(node: Any) -> list[Any]:
    if node.is_and():
        return [part for arg in node.args for part in _conjuncts(arg)]
    return [node]


def _parameters(node: Any) -> set[Any]:
    if node.is_parameter_exp():
        return {node.parameter()}
    found: set[Any] = set()
    for arg in node.args:
        found |= _parameters(arg)
    return found

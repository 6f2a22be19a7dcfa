"""Derived predicates valued in each state as VAL values them: the least fixpoint of their rules.

In a task with a derived predicate defined through itself, directly or
through others, the normaliser (:mod:`stratbench.games.spin.planning.normalise`)
keeps every derived predicate as a predicate of the task unified-planning
reads, which no action sets, and hands their rules over in the reader's
names (:attr:`~stratbench.games.spin.planning.normalise.Normalised.derived_rules`).

:class:`Derivation` values them in a state. Their least fixpoint is what
rounds of every rule, starting from no atom, derive until a round adds none
(each round but the last adds an atom, so there are at most as many rounds
as ground atoms); it is computed with a worklist that tries a rule's binding
again only when an atom it lacked is derived (:class:`_Fixpoint`).
Predicates defined through each other form a group; a group using
another's atoms (negated, even) is valued after it. Rules may compare
numbers (``(> (load ?x) 0)``, arithmetic included); a value no step has
given is an error, as in unified-planning's simulator.

:func:`simulator_for` gives unified-planning's sequential simulator with
every state it makes closed that way, and with a grounder that does not take
these predicates (which no action sets) for static ones; :func:`validate`
replays a plan with it, step for step as unified-planning's sequential
validator does. :func:`attach` ties a derivation to the ``Problem`` read and
:func:`derivation_of` finds it, so whatever holds the problem (the validator,
the planners, the random walk) judges states with it.

Nothing here imports unified-planning at module load.
"""

from __future__ import annotations

import re
import weakref
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from functools import lru_cache
from itertools import product
from typing import Any

from stratbench.games.spin.planning.normalise import reached_from
from stratbench.games.spin.planning.sexpr import SExpr, parse

__all__ = ["VALIDATOR_NAME", "Derivation", "attach", "derivation_of", "simulator_for", "validate"]

VALIDATOR_NAME = "sequential_plan_validator+least_fixpoint"
"""The validator named in a verdict on a task with recursive derived predicates."""

Atom = tuple[str, tuple[str, ...]]
"""A ground atom: ``(predicate, (object, ...))``, in the reader's names."""
Check = Callable[[dict[str, str]], bool]
"""A condition compiled to a test of a binding (``{?variable: object}``) in the state being valued."""
Value = Callable[[dict[str, str]], Any]
"""A numeric expression compiled to its value under a binding in the state being valued."""

_COMPARISONS = {"<": lambda a, b: a < b, ">": lambda a, b: a > b, "<=": lambda a, b: a <= b,
                ">=": lambda a, b: a >= b, "=": lambda a, b: a == b}
_ARITHMETIC = {"+": lambda a, b: a + b, "-": lambda a, b: a - b, "*": lambda a, b: a * b,
               "/": lambda a, b: a / b}
_NUMBER = re.compile(r"[-+]?\d+(?:\.\d*)?\Z|[-+]?\.\d+\Z")

_ATTACHED: dict[int, Derivation] = {}
"""The derivation of each problem read with one, by the problem's id (dropped when the problem is)."""


@dataclass
class _Rule:
    """One ``(:derived (name ?x - t ...) body)``: its head, and its body's conjuncts by the last head variable
    they use (index 0: none), so a binding is dropped as soon as a conjunct fails."""

    name: str
    parameters: list[tuple[str, str | None]]
    conjuncts: list[list[SExpr]]
    checks: list[list[Check]] = field(default_factory=list)


class Derivation:
    """The derived predicates of a task with recursive ones, valued in a state as the least fixpoint of their rules.

    Rules are compiled once into tests of a binding; :meth:`derive` values
    them in one state at a time (its atoms are read once each, then kept
    while that state is valued).
    """

    def __init__(self, problem: Any, rules: tuple[str, ...]) -> None:
        self._manager = problem.environment.expression_manager
        self._true = self._manager.TRUE()
        self._false = self._manager.FALSE()
        self._fluents = {fluent.name: fluent for fluent in problem.fluents}
        self._objects = {obj.name: obj for obj in problem.all_objects}
        self._typed = {kind.name: [o.name for o in problem.objects(kind)] for kind in problem.user_types}
        self._expressions: dict[Atom, Any] = {}
        self._state: Any = None
        self._read: dict[Atom, bool] = {}
        self._derived: set[Atom] = set()
        self._waits: list[Atom] = []
        self.rules = [_rule(parse(text, "derived predicate")) for text in rules]
        self.predicates = {rule.name for rule in self.rules}
        for rule in self.rules:
            rule.checks = [[self._compiled(conjunct) for conjunct in level] for level in rule.conjuncts]
        self.groups = _groups(self.rules)

    def derive(self, state: Any) -> frozenset[Atom]:
        """Returns the derived atoms true in ``state`` (whose other atoms it reads)."""
        self._state, self._read, self._derived = state, {}, set()
        try:
            for group in self.groups:
                _Fixpoint(self, group).run()
            return frozenset(self._derived)
        finally:
            self._state, self._read, self._derived = None, {}, set()

    def updates(self, state: Any, before: frozenset[Atom]) -> tuple[frozenset[Atom], dict[Any, Any]]:
        """Returns the derived atoms of ``state`` and the values to change from ``before``, the atoms it holds."""
        derived = self.derive(state)
        changed = {self._expression(atom): self._true for atom in derived - before}
        changed.update({self._expression(atom): self._false for atom in before - derived})
        return derived, changed

    def _compiled(self, node: SExpr) -> Check:
        """Compiles a condition (``and``, ``or``, ``not``, ``imply``, quantifiers, ``=``, atoms) into a test."""
        if not isinstance(node, list) or not node:
            return lambda binding: True
        head = node[0]
        if head in ("and", "or"):
            parts = [self._compiled(part) for part in node[1:]]
            if head == "and":
                return lambda binding: all(part(binding) for part in parts)
            return lambda binding: any(part(binding) for part in parts)
        if head == "not":
            inner = self._compiled(node[1])
            return lambda binding: not inner(binding)
        if head == "imply":
            condition, consequence = self._compiled(node[1]), self._compiled(node[2])
            return lambda binding: not condition(binding) or consequence(binding)
        if head in ("exists", "forall") and isinstance(node[1], list):
            return self._quantifier(_typed_variables(node[1]), self._compiled(node[2]), head == "exists")
        if head in _COMPARISONS and (head != "=" or any(isinstance(p, list) or _NUMBER.match(p) for p in node[1:])):
            compare, left_value, right_value = _COMPARISONS[head], self._value(node[1]), self._value(node[2])
            return lambda binding: compare(left_value(binding), right_value(binding))
        terms = [part for part in node[1:] if isinstance(part, str)]
        if head == "=":
            left, right = terms[0], terms[-1]
            return lambda binding: binding.get(left, left) == binding.get(right, right)
        name = str(head)
        if name in self.predicates:
            def derived(binding: dict[str, str]) -> bool:
                atom = (name, tuple(binding.get(t, t) for t in terms))
                if atom in self._derived:
                    return True
                self._waits.append(atom)
                return False

            return derived
        return lambda binding: self._holds((name, tuple(binding.get(t, t) for t in terms)))

    def _value(self, node: SExpr) -> Value:
        """Compiles a numeric expression: a number, a function's value, or arithmetic on them."""
        if isinstance(node, str) and _NUMBER.match(node):
            number = Fraction(node)
            return lambda binding: number
        if isinstance(node, str):
            return lambda binding: self._number((node, ()))
        head = node[0]
        if head in _ARITHMETIC and len(node) == 3:
            operation, left, right = _ARITHMETIC[head], self._value(node[1]), self._value(node[2])
            return lambda binding: operation(left(binding), right(binding))
        if head == "-" and len(node) == 2:
            negated = self._value(node[1])
            return lambda binding: -negated(binding)
        name, terms = str(head), [part for part in node[1:] if isinstance(part, str)]
        return lambda binding: self._number((name, tuple(binding.get(t, t) for t in terms)))

    def _quantifier(self, variables: list[tuple[str, str | None]], body: Check, existential: bool) -> Check:
        domains = [self._objects_of(kind) for _, kind in variables]
        names = [variable for variable, _ in variables]

        def test(binding: dict[str, str]) -> bool:
            saved = {name: binding[name] for name in names if name in binding}
            try:
                for objects in product(*domains):
                    binding.update(zip(names, objects))
                    if body(binding) == existential:
                        return existential
                return not existential
            finally:
                for name in names:
                    binding.pop(name, None)
                binding.update(saved)

        return test

    def _objects_of(self, kind: str | None) -> list[str]:
        if kind is None or kind not in self._typed:
            return list(self._objects)
        return self._typed[kind]

    def _holds(self, atom: Atom) -> bool:
        """Returns whether a basic atom holds in the state being valued (read once)."""
        known = self._read.get(atom)
        if known is None:
            known = self._read[atom] = self._state.get_value(self._expression(atom)).bool_constant_value()
        return known

    def _number(self, term: Atom) -> Any:
        """Returns a numeric fluent's value in the state being valued (unified-planning's error when it has none)."""
        return self._state.get_value(self._expression(term)).constant_value()

    def _expression(self, atom: Atom) -> Any:
        found = self._expressions.get(atom)
        if found is None:
            name, arguments = atom
            found = self._manager.FluentExp(
                self._fluents[name], [self._manager.ObjectExp(self._objects[a]) for a in arguments]
            )
            self._expressions[atom] = found
        return found


class _Fixpoint:
    """Values one group of predicates defined through each other in one state, by a worklist.

    Each rule binds its parameters one at a time, testing each conjunct as
    soon as its variables are bound. A test that fails notes the derived atoms
    it found false; it is tried again only when one of them is derived (the
    rules use their group's atoms positively, and the state's other atoms do
    not change, so nothing else can make it pass). Each binding prefix that
    passes is explored once. The atoms derived when no test is left to try
    again are the least fixpoint, as rounds of every rule would find it.
    """

    def __init__(self, derivation: Derivation, rules: list[_Rule]) -> None:
        self.derivation = derivation
        self.rules = rules
        self.domains = [[derivation._objects_of(kind) for _, kind in rule.parameters] for rule in rules]
        self.waiting: dict[Atom, list[tuple[int, tuple[str, ...]]]] = {}
        self.passed: set[tuple[int, tuple[str, ...]]] = set()
        self.pending: deque[tuple[int, tuple[str, ...]]] = deque()

    def run(self) -> None:
        self.pending.extend((index, ()) for index in range(len(self.rules)))
        while self.pending:
            self._try(*self.pending.popleft())

    def _try(self, index: int, prefix: tuple[str, ...]) -> None:
        """Tests the conjuncts a binding prefix completes; explores it when they hold, else waits."""
        if (index, prefix) in self.passed:
            return
        rule, derivation = self.rules[index], self.derivation
        full = len(prefix) == len(rule.parameters)
        if full and (rule.name, prefix) in derivation._derived:
            return
        binding = {variable: obj for (variable, _), obj in zip(rule.parameters, prefix)}
        derivation._waits = []
        if not all(check(binding) for check in rule.checks[len(prefix)]):
            for atom in set(derivation._waits):
                self.waiting.setdefault(atom, []).append((index, prefix))
            return
        self.passed.add((index, prefix))
        if full:
            derivation._derived.add((rule.name, prefix))
            self.pending.extend(self.waiting.pop((rule.name, prefix), ()))
            return
        for obj in self.domains[index][len(prefix)]:
            self._try(index, (*prefix, obj))


def attach(problem: Any, derivation: Derivation) -> None:
    """Ties ``derivation`` to ``problem`` for as long as the problem lives."""
    key = id(problem)
    _ATTACHED[key] = derivation
    weakref.finalize(problem, _ATTACHED.pop, key, None)


def derivation_of(problem: Any) -> Derivation | None:
    """Returns the derivation tied to ``problem``, or None for a task without recursive derived predicates."""
    return _ATTACHED.get(id(problem))


def simulator_for(problem: Any, derivation: Derivation | None = None) -> Any:
    """Returns a sequential simulator of ``problem``: unified-planning's, or, with a derivation (given or tied to
    the problem), one whose every state holds the derived atoms' least fixpoint."""
    derivation = derivation or derivation_of(problem)
    if derivation is None:
        from unified_planning.engines.sequential_simulator import (  # lean: unified_planning costs seconds
            UPSequentialSimulator,
        )

        return UPSequentialSimulator(problem, error_on_failed_checks=False)
    return _classes()[1](problem, derivation)


def validate(problem: Any, plan: Any, derivation: Derivation) -> Any:
    """Replays a sequential plan as unified-planning's sequential validator does, with states closed by
    ``derivation``; returns its ``ValidationResult`` (the trace, the failure and its reason alike)."""
    from unified_planning.engines.results import (  # lean: unified_planning costs seconds
        FailedValidationReason,
        LogLevel,
        LogMessage,
        ValidationResult,
        ValidationResultStatus,
    )
    from unified_planning.exceptions import (  # lean: unified_planning costs seconds
        UPConflictingEffectsException,
        UPInvalidActionError,
        UPUsageError,
    )

    simulator = simulator_for(problem, derivation)
    trace = [simulator.get_initial_state()]
    for index, instance in enumerate(plan.actions, start=1):
        message = None
        try:
            unmet, _ = simulator.get_unsatisfied_conditions(trace[-1], instance)
            if unmet:
                message = f"Preconditions {unmet} of {index}-th action instance {instance} are not satisfied."
            else:
                following = simulator.apply_unsafe(trace[-1], instance)
        except UPUsageError as error:
            message = f"{index}-th action instance {instance} creates a UsageError: {error}"
        except UPInvalidActionError as error:
            message = f"{index}-th action instance {instance} creates an Invalid Action: {error}"
        except UPConflictingEffectsException as error:
            message = f"{index}-th action instance {instance} creates Conflicting Effects: {error}"
        if message is not None:
            return ValidationResult(
                ValidationResultStatus.INVALID, VALIDATOR_NAME, [LogMessage(LogLevel.INFO, message)], None,
                FailedValidationReason.INAPPLICABLE_ACTION, inapplicable_action=instance, trace=trace,
            )
        trace.append(following)
    unmet_goals = simulator.get_unsatisfied_goals(trace[-1])
    if not unmet_goals:
        return ValidationResult(ValidationResultStatus.VALID, VALIDATOR_NAME, [], None, trace=trace)
    message = f"Goals {unmet_goals} are not satisfied by the plan."
    return ValidationResult(
        ValidationResultStatus.INVALID, VALIDATOR_NAME, [LogMessage(LogLevel.INFO, message)], None,
        FailedValidationReason.UNSATISFIED_GOALS, trace=trace,
    )


@lru_cache(maxsize=1)
def _classes() -> tuple[type, type]:
    """Returns the closed state and the deriving simulator classes (built on first use: they extend
    unified-planning's)."""
    from unified_planning.engines.compilers.grounder import GrounderHelper  # lean: unified_planning costs seconds
    from unified_planning.engines.sequential_simulator import (  # lean: unified_planning costs seconds
        UPSequentialSimulator,
    )
    from unified_planning.model import UPState  # lean: unified_planning costs seconds

    class ClosedState(UPState):
        """A state holding its derived atoms' least fixpoint, and the set of them (``derived``)."""

        def __init__(self, values: dict[Any, Any], fluents: Any, father: Any, derived: frozenset[Atom]) -> None:
            super().__init__(values, fluents, father)
            self.derived = derived

    class DerivingSimulator(UPSequentialSimulator):
        """unified-planning's sequential simulator whose states hold the derived atoms' least fixpoint."""

        def __init__(self, problem: Any, derivation: Derivation) -> None:
            super().__init__(problem, error_on_failed_checks=False)
            # The default grounder replaces a fluent no action sets by its initial value: not a derived one.
            self._grounder = GrounderHelper(problem, prune_actions=False)
            self.derivation = derivation
            self._closed_initial: Any = None

        def _get_initial_state(self) -> Any:
            if self._closed_initial is None:
                self._closed_initial = self._closed(super()._get_initial_state(), frozenset())
            return self._closed_initial

        def apply_unsafe(self, state: Any, action_or_action_instance: Any, parameters: Any = None) -> Any:
            following = super().apply_unsafe(state, action_or_action_instance, parameters)
            return self._closed(following, getattr(state, "derived", frozenset()))

        def _closed(self, state: Any, before: frozenset[Atom]) -> Any:
            derived, changed = self.derivation.updates(state, before)
            return ClosedState(changed, self._problem, state, derived)

    return ClosedState, DerivingSimulator


def _rule(tree: list[SExpr]) -> _Rule:
    """Reads ``(:derived (name ?x - t ...) body)`` into a rule with its body's conjuncts sorted by variable."""
    head, body = tree[1], tree[2]
    assert isinstance(head, list)
    parameters = _typed_variables(head[1:])
    position = {variable: index for index, (variable, _) in enumerate(parameters)}
    conjuncts: list[list[SExpr]] = [[] for _ in range(len(parameters) + 1)]
    for conjunct in _conjuncts(body):
        last = max((position[v] for v in _free(conjunct) if v in position), default=-1)
        conjuncts[last + 1].append(conjunct)
    return _Rule(str(head[0]), parameters, conjuncts)


def _groups(rules: list[_Rule]) -> list[list[_Rule]]:
    """Returns the rules in groups of predicates defined through each other, each after the groups it uses."""
    names = {rule.name for rule in rules}
    uses: dict[str, set[str]] = {name: set() for name in names}
    for rule in rules:
        for level in rule.conjuncts:
            uses[rule.name] |= {head for part in level for head in _heads(part) if head in names}
    reached = {name: reached_from(name, uses) for name in names}
    pending = sorted(names)
    order: list[set[str]] = []
    done: set[str] = set()
    while pending:
        name = next(n for n in pending if all(u in done or n in reached[u] for u in reached[n]))
        group = {n for n in pending if n == name or (n in reached[name] and name in reached[n])}
        order.append(group)
        done |= group
        pending = [n for n in pending if n not in group]
    return [[rule for rule in rules if rule.name in group] for group in order]


def _typed_variables(items: list[SExpr]) -> list[tuple[str, str | None]]:
    """Reads ``?a ?b - t ?c`` into ``[(?a, t), (?b, t), (?c, None)]``."""
    pairs: list[tuple[str, str | None]] = []
    pending: list[str] = []
    index = 0
    while index < len(items):
        item = items[index]
        if item == "-" and index + 1 < len(items):
            kind = items[index + 1]
            pairs.extend((name, kind if isinstance(kind, str) else None) for name in pending)
            pending = []
            index += 2
            continue
        if isinstance(item, str):
            pending.append(item)
        index += 1
    return [*pairs, *((name, None) for name in pending)]


def _conjuncts(node: SExpr) -> list[SExpr]:
    if isinstance(node, list) and node and node[0] == "and":
        return [part for arg in node[1:] for part in _conjuncts(arg)]
    return [node]


def _free(node: SExpr) -> set[str]:
    """Returns the variables a condition uses and does not quantify."""
    if isinstance(node, str):
        return {node} if node.startswith("?") else set()
    if len(node) == 3 and node[0] in ("exists", "forall") and isinstance(node[1], list):
        return _free(node[2]) - {v for v, _ in _typed_variables(node[1])}
    return set().union(*(_free(part) for part in node)) if node else set()


def _heads(node: SExpr) -> set[str]:
    if isinstance(node, str) or not node:
        return set()
    heads = {node[0]} if isinstance(node[0], str) else set()
    return heads.union(*(_heads(part) for part in node))

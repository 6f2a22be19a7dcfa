"""Plan validation with unified-planning, with reasons and SPIN-Bench's error classes.

:func:`check_answer` reads a plan out of a model's answer and validates it
against a unified-planning ``Problem``; :func:`check_steps` validates steps
already parsed. The verdict comes from unified-planning's
``SequentialPlanValidator`` (for a task with recursive derived predicates,
the same replay with every state holding their least fixpoint,
:func:`stratbench.games.spin.planning.derivation.validate`); on failure the
result names why, precisely:

* ``parse_error`` — no plan could be read, or a line is not an action;
* ``unknown_action`` / ``unknown_object`` — a name the task does not declare;
* ``wrong_arity`` / ``type_mismatch`` — arguments that do not fit the action;
* ``inapplicable_action`` — the first step whose preconditions do not hold,
  with those preconditions;
* ``goal_not_satisfied`` — every step applies but goals remain unmet, listed.

A task may be given as a :class:`~stratbench.games.spin.planning.reading.ReadTask`:
the plan is then read in the task's original names (those the model saw)
and every message names them, whatever the normaliser renamed.

**Numeric fluents without an initial value.** unified-planning's validator
refuses tasks where some numeric fluent has no initial value. VAL accepts
them: such a fluent is an error only when a step (or the goal) reads it
before a step assigns it. For these tasks the validator runs with its
support check off (``skip_checks``, unified-planning's own switch) and
without the quality metric (which never decides validity); its simulator
then fails on a read of an undefined value, and that step is reported as
``inapplicable_action`` naming the fluent; a goal that reads one is unmet.

SPIN-Bench sorts failures into three classes (§4.2, Table 2) from VAL's
output: **BC** (breaking constraints: execution failures, type mismatches,
bad plan descriptions), **GS** (goal not satisfied) and **Other** (parse and
format errors). :data:`ERROR_CLASSES` maps each error above to its class.
"""

from __future__ import annotations

import warnings
from dataclasses import asdict, dataclass, field
from typing import Any

import re

from stratbench.games.spin.planning.derivation import VALIDATOR_NAME, derivation_of, validate
from stratbench.games.spin.planning.normalise import NameMap
from stratbench.games.spin.planning.plan_parsing import PlanParseError, extract_plan, parse_plan_text, released_plan, render_plan
from stratbench.games.spin.planning.reading import ReadTask, holds_up_lock, up

__all__ = [
    "ERROR_CLASSES", "PlanCheck", "check_answer", "check_released_answer", "check_steps", "render_condition",
    "unsupported_features",
]

ERROR_CLASSES: dict[str, str] = {
    "parse_error": "Other",
    "no_answer": "Other",
    "unknown_action": "BC",
    "unknown_object": "BC",
    "wrong_arity": "BC",
    "type_mismatch": "BC",
    "inapplicable_action": "BC",
    "goal_not_satisfied": "GS",
}
"""Each validation error and its SPIN-Bench class (BC, GS or Other)."""

_MAX_LISTED = 8
_UNDEFINED = "UNDEFINED_INITIAL_NUMERIC"
_UNDEFINED_READ = re.compile(r"does not have a value for the value (.+?)\s*$")
_WORD = re.compile(r"[\w-]+")
_UP_FLUENT = re.compile(r"^([^\s(]+)(?:\((.*)\))?$")


@dataclass(frozen=True)
class PlanCheck:
    """The verdict on one plan.

    Attributes:
        valid: Whether the plan reaches the goal with every step applicable.
        error: None, or one of :data:`ERROR_CLASSES`' keys.
        reason: ``"valid"`` or a one-line explanation of the failure.
        plan_length: Steps in the plan read (None when none could be read).
        step: The 1-based step that failed, when one did.
        action: That step's text, ``(name args)``.
        unmet: The unmet preconditions of that step, or the unmet goals.
        form: How the plan was given (``dollar-json``, ``json``, ``fenced``, ``lines``).
        validator: The unified-planning validator that gave the verdict.
    """

    valid: bool
    error: str | None
    reason: str
    plan_length: int | None = None
    step: int | None = None
    action: str | None = None
    unmet: tuple[str, ...] = field(default_factory=tuple)
    form: str | None = None
    validator: str | None = None

    @property
    def error_class(self) -> str | None:
        """Returns SPIN-Bench's class of the error: ``BC``, ``GS``, ``Other``, or None if valid."""
        return None if self.error is None else ERROR_CLASSES[self.error]

    def to_dict(self) -> dict[str, Any]:
        """Returns a JSON-safe dict, with the error class."""
        return {**asdict(self), "unmet": list(self.unmet), "error_class": self.error_class}


@holds_up_lock
def check_answer(task: Any, answer: str | None) -> PlanCheck:
    """Reads the plan in ``answer`` and validates it against ``task``.

    Args:
        task: A :class:`~stratbench.games.spin.planning.reading.ReadTask`, or a unified-planning ``Problem``.
        answer: The model's whole answer; None or empty when it gave none.
    """
    if answer is None or not answer.strip():
        return PlanCheck(False, "no_answer", "no answer was given")
    try:
        parsed = extract_plan(answer)
    except PlanParseError as error:
        return PlanCheck(False, "parse_error", f"parse error: {error}")
    return check_steps(task, parsed.steps, form=parsed.form)


def unsupported_features(problem: Any) -> list[str]:
    """Returns the features of a task that no validation here can check (lower-case), or [] if it can be checked."""
    up()
    from unified_planning.engines.plan_validator import SequentialPlanValidator  # lean: unified_planning costs seconds

    supported = SequentialPlanValidator.supported_kind().features | {_UNDEFINED}
    return sorted(f.lower() for f in problem.kind.features if f not in supported)


@holds_up_lock
def check_released_answer(task: Any, answer: str | None) -> PlanCheck:
    """Validates an answer read as SPIN-Bench's released code reads it (the paper protocol).

    Only the ``$$ ... $$`` JSON's ``plan`` string is read
    (:func:`~stratbench.games.spin.planning.plan_parsing.released_plan`), then taken
    line by line as VAL's plan file; anything else is a ``parse_error``.
    """
    if answer is None or not answer.strip():
        return PlanCheck(False, "no_answer", "no answer was given")
    try:
        steps = parse_plan_text(released_plan(answer))
    except PlanParseError as error:
        return PlanCheck(False, "parse_error", f"parse error: {error}")
    return check_steps(task, steps, form="dollar-json")


@holds_up_lock
def check_steps(
    task: Any, steps: tuple[tuple[str, tuple[str, ...]], ...], *, form: str | None = None, relaxed: bool | None = None
) -> PlanCheck:
    """Validates parsed ``(name, args)`` steps (original names) against ``task`` (a ``ReadTask`` or a ``Problem``).

    Args:
        task: The task.
        steps: The plan.
        form: How the plan was given, recorded in the verdict.
        relaxed: Whether to validate with VAL's semantics for undefined numeric fluents (the validator's support
            check off, no quality metric); None (the default) does so only for tasks that need it, those with
            numeric fluents lacking an initial value. The verdicts agree wherever both apply (tested).
    """
    up()
    from unified_planning.engines.plan_validator import SequentialPlanValidator  # lean: unified_planning costs seconds
    from unified_planning.engines.results import (  # lean: unified_planning costs seconds
        FailedValidationReason,
        ValidationResultStatus,
    )
    from unified_planning.exceptions import UPUsageError  # lean: unified_planning costs seconds
    from unified_planning.plans import ActionInstance, SequentialPlan  # lean: unified_planning costs seconds

    task = task if isinstance(task, ReadTask) else ReadTask(task)
    problem, names = task.problem, task.names
    length = len(steps)
    resolved = _resolve(task, steps, form)
    if isinstance(resolved, PlanCheck):
        return resolved
    instances = [ActionInstance(action, objects) for action, objects in resolved]
    relaxed = _UNDEFINED in problem.kind.features if relaxed is None else relaxed
    checked = _relaxed_problem(task) if relaxed else problem
    plan = SequentialPlan(instances, environment=problem.environment)
    validator = SequentialPlanValidator(environment=problem.environment)
    validator.skip_checks = relaxed
    derivation = derivation_of(problem)
    name = validator.name if derivation is None else VALIDATOR_NAME
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            result = validator.validate(checked, plan) if derivation is None else validate(checked, plan, derivation)
        except UPUsageError as error:  # only reading the goal can get here: every step applied
            undefined = _undefined_fluent(str(error), names)
            if undefined is None:
                raise
            return PlanCheck(
                False, "goal_not_satisfied", f"goal not satisfied after {length} steps: it reads {undefined}, "
                f"which no step has given a value", length, unmet=(f"{undefined} is undefined",), form=form,
                validator=name,
            )
    if result.status == ValidationResultStatus.VALID:
        return PlanCheck(True, None, "valid", length, form=form, validator=name)
    trace = result.trace or []
    if result.reason == FailedValidationReason.INAPPLICABLE_ACTION:
        index = len(trace)
        action, objects = resolved[index - 1]
        text = render_plan([steps[index - 1]])
        undefined = _undefined_fluent(_log_text(result), names)
        if undefined is not None:
            return PlanCheck(
                False, "inapplicable_action", f"step {index} {text} reads {undefined} before any step gives it a value",
                length, index, text, (f"{undefined} is undefined",), form, name,
            )
        unmet = _unmet_preconditions(checked, action, objects, trace[-1], names) if trace else ()
        detail = ", ".join(unmet[:_MAX_LISTED]) if unmet else _log_text(result)
        return PlanCheck(
            False, "inapplicable_action", f"step {index} {text} is not applicable: unmet precondition {detail}",
            length, index, text, unmet, form, name,
        )
    unmet = _unmet_goals(checked, trace[-1], names) if trace else ()
    shown = ", ".join(unmet[:_MAX_LISTED]) + (", ..." if len(unmet) > _MAX_LISTED else "")
    return PlanCheck(
        False, "goal_not_satisfied", f"goal not satisfied after {length} steps: {shown or _log_text(result)}",
        length, unmet=unmet, form=form, validator=name,
    )


def _relaxed_problem(task: ReadTask) -> Any:
    """Returns the task's problem without its quality metrics (made once per task, kept on it).

    A metric never decides validity, and evaluating one may read a numeric
    fluent that has no value.
    """
    problem = task.problem
    if not problem.quality_metrics:
        return problem
    cached = task.__dict__.get("_relaxed")
    if cached is None:
        cached = problem.clone()
        cached.clear_quality_metrics()
        object.__setattr__(task, "_relaxed", cached)
    return cached


def _undefined_fluent(message: str, names: NameMap) -> str | None:
    """Returns ``(f a b)`` in original names for unified-planning's "no value for f(a, b)" message, else None."""
    found = _UNDEFINED_READ.search(message)
    if found is None:
        return None
    parts = _UP_FLUENT.match(found.group(1).strip())
    if parts is None:
        return found.group(1).strip()
    args = [names.original("object", a.strip()) for a in (parts.group(2) or "").split(",") if a.strip()]
    return "(" + " ".join([names.original_fluent(parts.group(1)), *args]) + ")"


def _resolve(
    task: ReadTask, steps: tuple[tuple[str, tuple[str, ...]], ...], form: str | None
) -> list[tuple[Any, tuple[Any, ...]]] | PlanCheck:
    """Maps original names to the problem's actions and objects, or returns the first naming error."""
    problem, names = task.problem, task.names
    actions = {names.original("action", a.name.lower()): a for a in problem.actions}
    objects = {names.original("object", o.name.lower()): o for o in problem.all_objects}
    resolved = []
    for index, (name, args) in enumerate(steps, start=1):
        text = render_plan([(name, args)])

        def failure(error: str, why: str, index: int = index, text: str = text) -> PlanCheck:
            return PlanCheck(False, error, f"step {index} {text}: {why}", len(steps), index, text, form=form)

        action = actions.get(name)
        if action is None:
            return failure("unknown_action", f"unknown action {name!r}")
        if len(args) != len(action.parameters):
            return failure("wrong_arity", f"{name} takes {len(action.parameters)} arguments, got {len(args)}")
        either = task.either_parameters.get(action.name.lower(), ())
        bound = []
        for position, (arg, parameter) in enumerate(zip(args, action.parameters)):
            obj = objects.get(arg)
            if obj is None:
                return failure("unknown_object", f"unknown object {arg!r}")
            members = either[position] if position < len(either) else None
            if members is not None:
                if not any(obj.type.is_subtype(problem.user_type(m)) for m in members if problem.has_type(m)):
                    wanted = "(either " + " ".join(names.original("type", m) for m in members) + ")"
                    return failure(
                        "type_mismatch",
                        f"{arg} is of type {_type_name(obj.type, names)}, parameter "
                        f"{_variable(parameter.name, names)} needs {wanted}",
                    )
            elif not obj.type.is_subtype(parameter.type):
                return failure(
                    "type_mismatch",
                    f"{arg} is of type {_type_name(obj.type, names)}, parameter "
                    f"{_variable(parameter.name, names)} needs {_type_name(parameter.type, names)}",
                )
            bound.append(obj)
        resolved.append((action, tuple(bound)))
    return resolved


def _type_name(kind: Any, names: NameMap) -> str:
    """Returns a type's name in the original names (as unified-planning prints it when not renamed)."""
    return names.original("type", kind.name) if kind.is_user_type() else str(kind)


def _variable(name: str, names: NameMap) -> str:
    """Returns ``?name`` as the model saw it (renamed under an obfuscation)."""
    return f"?{names.original('variable', name)}"


def _unmet_preconditions(
    problem: Any, action: Any, objects: tuple[Any, ...], state: Any, names: NameMap | None = None
) -> tuple[str, ...]:
    """Returns the conjuncts of ``action``'s preconditions, grounded, that are false in ``state``."""
    try:
        from unified_planning.model.walkers import StateEvaluator  # lean: unified_planning costs seconds

        manager = problem.environment.expression_manager
        binding = {p: manager.ObjectExp(o) for p, o in zip(action.parameters, objects)}
        evaluator = StateEvaluator(problem)
        unmet = []
        for precondition in action.preconditions:
            grounded = problem.environment.substituter.substitute(precondition, binding)
            for part in _conjuncts(grounded):
                if not _holds(evaluator, part, state):
                    unmet.append(render_condition(part, names))
        return tuple(unmet)
    except Exception:  # the details are a courtesy; the verdict stands without them
        return ()


def _unmet_goals(problem: Any, state: Any, names: NameMap | None = None) -> tuple[str, ...]:
    """Returns the goal conjuncts that are false in ``state``."""
    try:
        from unified_planning.model.walkers import StateEvaluator  # lean: unified_planning costs seconds

        evaluator = StateEvaluator(problem)
        return tuple(
            render_condition(part, names)
            for goal in problem.goals
            for part in _conjuncts(goal)
            if not _holds(evaluator, part, state)
        )
    except Exception:  # the details are a courtesy; the verdict stands without them
        return ()


def _holds(evaluator: Any, condition: Any, state: Any) -> bool:
    value = evaluator.evaluate(condition, state)
    return value.is_bool_constant() and value.bool_constant_value()


def _conjuncts(node: Any) -> list[Any]:
    if node.is_and():
        return [part for arg in node.args for part in _conjuncts(arg)]
    return [node]


def render_condition(node: Any, names: NameMap | None = None) -> str:
    """Renders a unified-planning condition in PDDL syntax (``(on a b)``, ``(not (clear c))``), in original names."""
    names = names or NameMap()
    if node.is_fluent_exp():
        args = " ".join(render_condition(a, names) for a in node.args)
        return f"({names.original_fluent(node.fluent().name)}{' ' + args if args else ''})"
    if node.is_object_exp():
        return names.original("object", node.object().name)
    if node.is_parameter_exp():
        return _variable(node.parameter().name, names)
    if node.is_variable_exp():
        return _variable(node.variable().name, names)
    if node.is_bool_constant():
        return "true" if node.bool_constant_value() else "false"
    if node.is_int_constant() or node.is_real_constant():
        return str(node.constant_value())
    if node.is_exists() or node.is_forall():
        declared = " ".join(f"{_variable(v.name, names)} - {_type_name(v.type, names)}" for v in node.variables())
        body = render_condition(node.arg(0), names)
        return f"({'exists' if node.is_exists() else 'forall'} ({declared}) {body})"
    operators = {
        "is_not": "not", "is_and": "and", "is_or": "or", "is_implies": "imply", "is_equals": "=",
        "is_le": "<=", "is_lt": "<", "is_plus": "+", "is_minus": "-", "is_times": "*", "is_div": "/",
    }
    for test, symbol in operators.items():
        if getattr(node, test)():
            return f"({symbol} {' '.join(render_condition(a, names) for a in node.args)})"
    return _original_words(str(node), names) if names else str(node)


def _original_words(text: str, names: NameMap) -> str:
    """Replaces each renamed name in unified-planning's own rendering of an expression by its original."""
    back = {}
    for role in ("type", "function", "predicate", "object"):
        back.update({new: old for old, new in names.renamed.get(role, {}).items()})
    return _WORD.sub(lambda word: back.get(word.group(), word.group()), text)


def _log_text(result: Any) -> str:
    return "; ".join(m.message for m in (result.log_messages or [])) or "no details"

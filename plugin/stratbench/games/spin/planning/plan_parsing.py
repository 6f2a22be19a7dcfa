"""Reading a plan out of a model's answer.

SPIN-Bench asks for the plan as JSON between ``$$`` markers,
``$$ {"plan": "(a x)\\n(b y)"} $$``, and takes the text between the first
``$$`` and the last ``$$``. This reader accepts, in order of trust:

1. a ``$$ ... $$`` block holding a JSON object with a ``plan`` key (the last one);
2. any other JSON object with a ``plan`` key, fenced or bare (the last one);
3. the last fenced code block made only of actions;
4. the last run of consecutive lines that are only actions.

:func:`released_plan` is SPIN-Bench's released reader instead (the paper
protocol): the text between the first ``$$`` + newline and the last newline +
``$$`` (the whole answer when either is missing) must be a JSON object whose
``plan`` is a string; nothing else is read.

The plan itself is VAL's sequential plan format: one grounded action per
line, ``(name arg1 arg2)``. Step numbers (``1.``, ``0.000:``), durations
(``[1]``), ``;`` comments and blank lines are tolerated. A ``plan`` given as
a JSON list may omit the parentheses of its items. Names are lower-cased
(PDDL is case-insensitive).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from stratbench.scaffolds.parsing import json_objects as _scan_json

__all__ = [
    "ParsedPlan", "PlanParseError", "extract_plan", "json_objects", "parse_plan_text", "released_plan", "render_plan",
]

_DOLLARS = re.compile(r"\$\$(.*?)\$\$", re.DOTALL)
_FENCE = re.compile(r"```[\w-]*[ \t]*\n?(.*?)```", re.DOTALL)
_STEP_PREFIX = re.compile(r"^\s*(?:step\s*)?\d+(?:\.\d+)?\s*[:.)]\s*", re.IGNORECASE)
_DURATION = re.compile(r"\[\s*\d+(?:\.\d+)?\s*\]")
_GROUP = re.compile(r"\(([^()]*)\)")
_ACTION_LINE = re.compile(
    r"^\s*(?:(?:step\s*)?\d+(?:\.\d+)?\s*[:.)]\s*)?(?:\([^()]+\)\s*(?:\[[\d.\s]+\])?\s*)+(?:;.*)?$", re.IGNORECASE
)
_NAME = re.compile(r"^[^\s()]+$")


class PlanParseError(ValueError):
    """Raised when no plan can be read from an answer, or the plan is malformed."""


@dataclass(frozen=True)
class ParsedPlan:
    """A plan read from an answer.

    Attributes:
        steps: ``(action name, (argument, ...))`` per step, lower-cased.
        form: Where it was found: ``dollar-json``, ``json``, ``fenced`` or ``lines``.
    """

    steps: tuple[tuple[str, tuple[str, ...]], ...]
    form: str

    def __len__(self) -> int:
        return len(self.steps)

    def to_text(self) -> str:
        """Renders the plan in VAL's format, one ``(name args)`` per line."""
        return render_plan(self.steps)


def render_plan(steps: tuple[tuple[str, tuple[str, ...]], ...] | list[tuple[str, tuple[str, ...]]]) -> str:
    """Renders ``(name, args)`` steps as VAL plan text.

    Examples:
        >>> render_plan([("pick-up", ("a",)), ("stack", ("a", "b"))])
        '(pick-up a)\\n(stack a b)'
    """
    return "\n".join("(" + " ".join((name, *args)) + ")" for name, args in steps)


def extract_plan(answer: str) -> ParsedPlan:
    """Reads the plan from a model's whole answer.

    Raises:
        PlanParseError: when no plan is found or the plan found is malformed.

    Examples:
        >>> extract_plan('Reasoning: ...\\n$$\\n{"plan": "(pick-up a)\\\\n(stack a b)"}\\n$$').steps
        (('pick-up', ('a',)), ('stack', ('a', 'b')))
    """
    if not answer or not answer.strip():
        raise PlanParseError("the answer is empty")
    for block in reversed(_DOLLARS.findall(answer)):
        value = _plan_value(_loads(_unfence(block)))
        if value is not None:
            return ParsedPlan(_steps_from_value(value), "dollar-json")
    for candidate in reversed(json_objects(answer)):
        value = _plan_value(candidate)
        if value is not None:
            return ParsedPlan(_steps_from_value(value), "json")
    for block in reversed(_FENCE.findall(answer)):
        lines = [line for line in block.splitlines() if line.strip() and not line.strip().startswith(";")]
        if lines and all(_ACTION_LINE.match(line) for line in lines):
            return ParsedPlan(parse_plan_text(block), "fenced")
    run = _last_action_run(answer)
    if run:
        return ParsedPlan(parse_plan_text("\n".join(run)), "lines")
    raise PlanParseError('no plan found: give it as $$ {"plan": "(action1 arg)\\n(action2 arg)"} $$')


def released_plan(answer: str) -> str:
    """Returns the plan string of an answer as SPIN-Bench's released code reads it.

    The JSON is read strictly (``json.loads``: no control characters inside
    strings); the plan string is returned as written, for VAL's plan reader.

    Raises:
        PlanParseError: when the JSON does not parse or has no string ``plan``.

    Examples:
        >>> released_plan('Reason: ...\\n$$\\n{"plan": "(pick-up a)\\\\n(stack a b)"}\\n$$')
        '(pick-up a)\\n(stack a b)'
    """
    start, end = answer.find("$$\n"), answer.rfind("\n$$")
    text = answer[start + 3 : end].strip() if start != -1 and end != -1 else answer
    try:
        value = json.loads(text)
    except json.JSONDecodeError as error:
        raise PlanParseError(f"the $$ ... $$ block is not JSON ({error.msg})") from None
    if not isinstance(value, dict) or "plan" not in value:
        raise PlanParseError('the $$ ... $$ JSON has no "plan" key')
    if not isinstance(value["plan"], str):
        raise PlanParseError(f'"plan" must be a string, not {type(value["plan"]).__name__}')
    return value["plan"]


def parse_plan_text(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Parses VAL-style plan text into ``(name, args)`` steps.

    Raises:
        PlanParseError: naming the first line that is not a sequence of actions.

    Examples:
        >>> parse_plan_text("1. (Pick-Up A)\\n(stack a b) ; done")
        (('pick-up', ('a',)), ('stack', ('a', 'b')))
    """
    steps: list[tuple[str, tuple[str, ...]]] = []
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(";", 1)[0]
        if not line.strip():
            continue
        line = _DURATION.sub(" ", _STEP_PREFIX.sub("", line, count=1))
        groups = _GROUP.findall(line)
        rest = _GROUP.sub(" ", line).strip()
        if rest or not groups:
            raise PlanParseError(f"plan line {number} is not an action in (name arg ...) form: {raw.strip()[:80]!r}")
        for group in groups:
            steps.append(_step(group, raw))
    return tuple(steps)


def _step(body: str, raw: str) -> tuple[str, tuple[str, ...]]:
    tokens = body.lower().split()
    if not tokens:
        raise PlanParseError(f"empty action () in {raw.strip()[:80]!r}")
    for token in tokens:
        if not _NAME.match(token):
            raise PlanParseError(f"malformed name {token!r} in {raw.strip()[:80]!r}")
    return tokens[0], tuple(tokens[1:])


def _steps_from_value(value: object) -> tuple[tuple[str, tuple[str, ...]], ...]:
    if isinstance(value, str):
        return parse_plan_text(value.replace("\\n", "\n"))
    if isinstance(value, list):
        steps: list[tuple[str, tuple[str, ...]]] = []
        for item in value:
            if isinstance(item, list) and all(isinstance(t, str) for t in item) and item:
                item = "(" + " ".join(item) + ")"
            if not isinstance(item, str):
                raise PlanParseError(f"plan list item {item!r} is not an action string")
            text = item.strip()
            if text and not text.startswith("(") and not _STEP_PREFIX.match(text):
                text = f"({text})"
            steps.extend(parse_plan_text(text))
        return tuple(steps)
    raise PlanParseError(f'"plan" must be a string or a list of actions, not {type(value).__name__}')


def _plan_value(candidate: object) -> object | None:
    if not isinstance(candidate, dict):
        return None
    for key, value in candidate.items():
        if isinstance(key, str) and key.strip().lower() == "plan":
            return value
    return None


def _unfence(block: str) -> str:
    fenced = _FENCE.search(block)
    return fenced.group(1) if fenced else block


def _loads(text: str) -> object | None:
    text = text.strip()
    if not text.startswith("{"):
        objects = json_objects(text)
        return objects[-1] if objects else None
    try:
        return json.loads(text, strict=False)
    except json.JSONDecodeError:
        objects = json_objects(text)
        return objects[-1] if objects else None


def json_objects(text: str) -> list[object]:
    """Returns every top-level ``{...}`` in ``text`` that parses as JSON (control characters allowed)."""
    return _scan_json(text, strict=False)


def _last_action_run(text: str) -> list[str]:
    """Returns the last run of consecutive lines that hold only actions."""
    runs: list[list[str]] = []
    current: list[str] = []
    for line in text.splitlines():
        if _ACTION_LINE.match(line):
            current.append(line)
        elif line.strip():
            if current:
                runs.append(current)
            current = []
    if current:
        runs.append(current)
    return runs[-1] if runs else []

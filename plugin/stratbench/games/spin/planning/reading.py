"""Reading PDDL with unified-planning: lazy import, one cache, readable failures.

unified-planning takes over a second to import, so nothing here imports it at
module load; :func:`up` does on first use and configures the environment once
(no credits banner; names shared by different kinds of element, such as an
action and a predicate both called ``up``, are accepted, as PDDL allows).

:func:`read_task` first normalises the texts (:mod:`stratbench.games.spin.planning.normalise`:
names, ``either`` types, names declared twice, derived predicates, repeated
parameter names... that unified-planning's reader refuses but VAL accepts),
then parses them (tying the rules of recursive derived predicates to the
problem, :mod:`stratbench.games.spin.planning.derivation`), and caches the
result by content, so the game, the
planner agent and the metrics share one parse; the
:class:`ReadTask` carries the names to map back and the changes made.
:func:`read_problem` returns only the parsed ``Problem``.
:func:`unreadable_reason` turns a parse failure into one short line naming
the PDDL construct unified-planning could not read.
"""

from __future__ import annotations

import functools
import re
import threading
import warnings
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from types import ModuleType
from typing import Any

from stratbench.games.spin.planning.derivation import Derivation, attach
from stratbench.games.spin.planning.normalise import NameMap, UnrepairableTask, normalise

__all__ = [
    "PDDLReadError",
    "ReadTask",
    "check_readable",
    "read_problem",
    "read_problem_files",
    "read_task",
    "strip_comments",
    "unreadable_reason",
    "up",
]

_CACHE_SIZE = 64

# Constructs unified-planning's PDDL reader rejects, found lexically, in the
# order they are reported: (pattern, description).
_CONSTRUCTS: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"\(\s*:(?:process|event)\b", re.IGNORECASE), "PDDL+ processes or events"),
    (re.compile(r"\(\s*preference\b", re.IGNORECASE), "preferences"),
    (re.compile(r":constraints\b", re.IGNORECASE), "trajectory constraints (:constraints)"),
    (re.compile(r":timed-initial-literals\b|\(\s*at\s+\d+(?:\.\d+)?\s+\(", re.IGNORECASE), "timed initial literals"),
)
_SELF_SUBTYPE = re.compile(r"Type '([^']+)' is defined as a subtype of itself")
_USED_NAME = re.compile(r"(?:Name|type name) (\S+) (?:already defined|is already used)")
_INVALID_EXPRESSION = re.compile(r"Found invalid expression: ([^.\s]+)")
_NOT_HANDLED = re.compile(r"Not able to handle: (.+?) found at")
_MAX_REASON = 160


class PDDLReadError(ValueError):
    """Raised when unified-planning cannot read a domain or problem.

    Attributes:
        reason: One line naming the construct it could not read.
    """

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True, eq=False)
class ReadTask:
    """A task as unified-planning reads it, after normalisation.

    Attributes:
        problem: The unified-planning ``Problem`` (in the normalised names).
        names: The renamed names, to map plans and messages back to the original ones.
        changes: One line per change the normaliser made; empty for a task read as written.
        either_parameters: The ``either`` types of actions' parameters (see
            :class:`~stratbench.games.spin.planning.normalise.Normalised`).
    """

    problem: Any
    names: NameMap = field(default_factory=NameMap)
    changes: tuple[str, ...] = ()
    either_parameters: dict[str, tuple[tuple[str, ...] | None, ...]] = field(default_factory=dict)

    def original_steps(
        self, steps: tuple[tuple[str, tuple[str, ...]], ...]
    ) -> tuple[tuple[str, tuple[str, ...]], ...]:
        """Returns plan steps in unified-planning's names written in the task's original names."""
        return tuple(
            (self.names.original("action", name), tuple(self.names.original("object", a) for a in args))
            for name, args in steps
        )


UP_LOCK = threading.RLock()
"""unified-planning's environment (its walkers' memo tables) is shared and not thread-safe; every entry
point of this package into it holds this lock, so matches playing at once (planner searches and scoring run
in threads) never walk it together."""


def holds_up_lock(function: Any) -> Any:
    """Runs ``function`` holding :data:`UP_LOCK`."""
    @functools.wraps(function)
    def locked(*args: Any, **kwargs: Any) -> Any:
        with UP_LOCK:
            return function(*args, **kwargs)
    return locked


@lru_cache(maxsize=1)
def up() -> ModuleType:
    """Imports unified-planning once, configures its environment, and returns the package."""
    import unified_planning  # lean: unified_planning costs seconds
    from unified_planning.environment import get_environment  # lean: unified_planning costs seconds

    environment = get_environment()
    environment.credits_stream = None
    environment.error_used_name = False
    return unified_planning


def strip_comments(text: str) -> str:
    """Returns PDDL text without its ``;`` comments."""
    return re.sub(r";[^\n]*", "", text)


@holds_up_lock
def read_task(domain_text: str, problem_text: str) -> ReadTask:
    """Normalises and parses a domain and a problem (cached by content).

    Raises:
        PDDLReadError: naming the construct that could not be read or repaired.
    """
    return _read(domain_text, problem_text)


@holds_up_lock
def read_problem(domain_text: str, problem_text: str) -> Any:
    """Parses a domain and a problem into a unified-planning ``Problem`` (cached by content).

    Its names are the normalised ones (:func:`read_task` gives the map back).

    Raises:
        PDDLReadError: naming the construct that could not be read.
    """
    return _read(domain_text, problem_text).problem


def read_problem_files(domain_path: Path | str, problem_path: Path | str) -> Any:
    """Reads and parses a domain file and a problem file (cached by content).

    Raises:
        PDDLReadError: naming the construct that could not be read.
        OSError: when a file cannot be read.
    """
    return _read(Path(domain_path).read_text(encoding="utf-8"), Path(problem_path).read_text(encoding="utf-8")).problem


def check_readable(domain_text: str, problem_text: str) -> str | None:
    """Returns None if unified-planning reads both texts, else the reason it cannot."""
    try:
        _read(domain_text, problem_text)
    except PDDLReadError as error:
        return error.reason
    return None


@lru_cache(maxsize=_CACHE_SIZE)
def _read(domain_text: str, problem_text: str) -> ReadTask:
    try:
        normalised = normalise(domain_text, problem_text)
    except UnrepairableTask as error:
        raise PDDLReadError(error.reason) from None
    except RecursionError:
        raise PDDLReadError("nesting too deep to parse") from None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            problem = _parse(normalised.domain, normalised.problem)
    except RecursionError:
        raise PDDLReadError("nesting too deep to parse") from None
    except Exception as error:  # the reader raises pyparsing, SyntaxError, KeyError, UP errors...
        raise PDDLReadError(unreadable_reason(error, normalised.domain, normalised.problem)) from None
    if normalised.derived_rules:
        attach(problem, Derivation(problem, normalised.derived_rules))
    return ReadTask(problem, normalised.names, normalised.changes, normalised.either_parameters)


@lru_cache(maxsize=1)
def _reader() -> Any:
    """Returns one ``PDDLReader``, reused: building its grammar costs as much as a parse."""
    up()
    from unified_planning.io import PDDLReader  # lean: unified_planning costs seconds

    return PDDLReader()


@lru_cache(maxsize=16)
def _domain_result(domain_text: str) -> tuple[str, Any]:
    """Returns the reader's parse of a domain text, cached: a dataset's tasks share a domain."""
    from unified_planning.io.utils import parse_string  # lean: unified_planning costs seconds

    lowered = domain_text.replace("\t", " ").lower()
    return lowered, parse_string(_reader()._pp_domain, lowered, parse_all=True)  # noqa: SLF001


def _parse(domain_text: str, problem_text: str) -> Any:
    """Parses like ``PDDLReader.parse_problem_string``, reusing the reader and the domain's parse.

    This follows that method's body in unified-planning 1.3 (lower-case,
    tabs to spaces, parse both, build the problem), and falls back to it if
    the reader's internals are not there.
    """
    reader = _reader()
    if not (hasattr(reader, "_pp_problem") and hasattr(reader, "_parse_problem")):
        return reader.parse_problem_string(domain_text, problem_text)
    from unified_planning.io.utils import parse_string  # lean: unified_planning costs seconds

    domain_lowered, domain_result = _domain_result(domain_text)
    problem_lowered = problem_text.replace("\t", " ").lower()
    problem_result = parse_string(reader._pp_problem, problem_lowered, parse_all=True)  # noqa: SLF001
    return reader._parse_problem(domain_result, domain_lowered, problem_result, problem_lowered)  # noqa: SLF001


def unreadable_reason(error: BaseException, domain_text: str = "", problem_text: str = "") -> str:
    """Names the construct behind a unified-planning parse failure, in one short line.

    Known unsupported constructs found in the texts come first (preferences,
    PDDL+...; derived predicates are compiled away before, by the normaliser);
    otherwise the reader's message is condensed.

    Examples:
        >>> unreadable_reason(SyntaxError("Type 'robot' is defined as a subtype of itself"))
        "a type declared as a subtype of itself ('robot')"
    """
    message = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    match = _SELF_SUBTYPE.search(message)
    if match:
        return f"a type declared as a subtype of itself ({match.group(1)!r})"
    for text, where in ((domain_text, "domain"), (problem_text, "problem")):
        clean = strip_comments(text)
        for pattern, description in _CONSTRUCTS:
            if pattern.search(clean):
                return f"{description} in the {where}"
    match = _USED_NAME.search(message)
    if match:
        return f"a name declared twice ({match.group(1)!r})"
    match = _INVALID_EXPRESSION.search(message)
    if match:
        return f"an undeclared name in an expression ({match.group(1)!r})"
    match = _NOT_HANDLED.search(message)
    if match:
        return _short(f"an expression it does not support: {match.group(1)}")
    if isinstance(error, KeyError):
        return f"an undeclared type or name ({message.strip(chr(39))!r})"
    if type(error).__module__.startswith("pyparsing"):
        return _short(f"PDDL syntax it cannot parse ({_pyparsing_context(error, domain_text, problem_text)})")
    return _short(f"{type(error).__name__}: {message}")


def _pyparsing_context(error: BaseException, domain_text: str, problem_text: str) -> str:
    """Returns ``near '<text>'`` for a pyparsing error, from whichever text it points into."""
    location = getattr(error, "loc", None)
    source = getattr(error, "pstr", None)
    if isinstance(source, str) and isinstance(location, int):
        snippet = " ".join(source[max(0, location - 20) : location + 25].split())
        which = "domain" if source == domain_text else "problem" if source == problem_text else "input"
        return f"{which}, near {snippet!r}"
    return str(error).splitlines()[0]


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= _MAX_REASON else text[: _MAX_REASON - 3] + "..."

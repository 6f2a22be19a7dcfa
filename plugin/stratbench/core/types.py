"""Value types every part of stratbench shares: rules, observations, actions, errors.

These are plain frozen dataclasses so they can be logged, compared and turned
into JSON. Games produce :class:`Observation` objects; agents answer with an
:class:`Action`; the runner validates the action against the observation.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import sys
import warnings
from dataclasses import dataclass, field, fields, replace
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from stratbench.core.messages import NegotiationTurn


class ActionParseError(ValueError):
    """Raised when a reply cannot be read as an action.

    The message is shown to the agent on its next attempt, so it explains what
    was wrong and what a valid answer looks like.

    Attributes:
        kind: Why, as a reason kind of :mod:`stratbench.core.rejection` (``"empty"``,
            ``"several actions found"``...), when the reader knows; None leaves it to the runner.
    """

    def __init__(self, message: str = "", *, kind: str | None = None) -> None:
        super().__init__(message)
        self.kind = kind


class TruncatedAnswer(Exception):
    """Raised when the output-token limit cut a decision's answer, and the brief re-ask for it too.

    Not an illegal move: the runner applies the fallback at once, with the reason ``truncated``.
    """


class AgentForfeit(Exception):
    """Raised by an agent that gives up its decision (a person who left or stopped answering).

    The runner forfeits the player's side at once, whatever the suite's fallback, and logs the
    ``fallback`` event with the reason and ``fault`` (``"human"``).

    Attributes:
        fault: Whose fault the forfeit is.
    """

    def __init__(self, reason: str, *, fault: str = "human") -> None:
        super().__init__(reason)
        self.fault = fault


class IllegalActionError(ValueError):
    """Raised when a well-formed action is not legal in the current state."""


class HarnessError(RuntimeError):
    """Raised for faults of the harness, never of an agent; the match is not scored."""


@dataclass(frozen=True)
class Rules:
    """The rules text shown to agents.

    Attributes:
        title: The game's display name.
        summary: Rules every agent always sees.
        topics: Extra rule sections, by heading, that an agent may ask to
            expand (GameBench's ``Explain(<heading>)``).
    """

    title: str
    summary: str
    topics: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Action:
    """One action an agent takes.

    Attributes:
        id: The action's canonical text, one of the observation's legal actions
            (``"4"``, ``"e2e4"``) or an open-ended action id.
        response: The free-text answer for an open-ended action, else None.
    """

    id: str
    response: str | None = None

    @classmethod
    def from_text(cls, text: str) -> Action:
        """Parses ``"id"`` or ``"id: response"`` (the form :meth:`to_text` writes)."""
        action_id, sep, response = text.partition(": ")
        return cls(action_id.strip(), response if sep else None)

    def to_text(self) -> str:
        """Renders the action as ``id`` or ``id: response``."""
        return self.id if self.response is None else f"{self.id}: {self.response}"

    def __repr__(self) -> str:
        if self.response is None:
            return f"Action({self.id!r})"
        return f"Action({self.id!r}, {self.response!r})"


@dataclass(frozen=True)
class Asking:
    """How one decision is asked: the prompt protocol's settings, apart from what the game shows.

    The default, :data:`SCAFFOLD_DEFAULT`, leaves every choice to the scaffold.
    A game fills in what its protocol prescribes (a paper's verbatim prompt,
    answer format, retry wording, strict reader, opening exchange).

    Attributes:
        instructions: How to answer, game-specific (may be empty).
        answer_format: The answer format as this decision's first prompt words
            it, when the game prescribes its own (Hanabi's E.2 JSON, Diplomacy's
            orders JSON); empty: the scaffold's default. A retry repeats it.
        retry_prompt: The retry message as the benchmark's released code words
            it (SPIN-Bench's ``Illegal move, try again``), sent instead of the
            scaffold's own; ``{feedback}`` in it is replaced by the rejection
            reason. Empty: the scaffold's retry message.
        answer_parser: The name of the reader for this decision's answers
            (:data:`stratbench.scaffolds.parsing.PARSERS`: a paper protocol's
            strict reader); empty: the lenient :func:`~stratbench.scaffolds.parsing.parse_action`.
        prompt_style: The name of the prompt structure a paper protocol prescribes
            (:data:`stratbench.scaffolds.prompt.PROMPT_STYLES`: GameBench's released
            agent prompt, its retries and request options); empty: the project's own.
        prompt: The complete user prompt, when the benchmark prescribes one
            verbatim (SPIN-Bench's planning prompt); scaffolds then send it
            instead of building their own.
        system_prompt: The system prompt to use with ``prompt``, if any.
        primer: A first user turn the player's conversation opens with, once
            per player (SPIN-Bench Hanabi's rules primer): the scaffold sends
            it before the first decision and keeps it and the model's reply
            at the head of every later conversation. Empty: none.
        preamble: Fixed messages (``role``, ``content``) sent verbatim before
            ``prompt``, after the system prompt: a released code's opening
            exchange (SPIN-Bench's game intro and its canned reply). Only
            used with ``prompt``.
        conversation: A key naming the conversation this request belongs to:
            a request with the key of the agent's previous request continues
            that conversation with ``prompt`` as a new user turn (SPIN-Bench's
            Diplomacy keeps a phase's negotiation rounds and orders in one
            conversation); empty: each decision opens its own.
    """

    instructions: str = ""
    answer_format: str = ""
    retry_prompt: str = ""
    answer_parser: str = ""
    prompt_style: str = ""
    prompt: str | None = None
    system_prompt: str | None = None
    primer: str = ""
    preamble: tuple[dict[str, str], ...] = ()
    conversation: str = ""


SCAFFOLD_DEFAULT = Asking()
"""The scaffold's own way of asking: no setting prescribed."""

ASKING_FIELDS = frozenset(f.name for f in fields(Asking))
"""The names :class:`Observation` once held itself; still accepted there, deprecated."""


@dataclass(frozen=True)
class Observation:
    """What one player sees when it must act, and how the decision is asked.

    Attributes:
        game: The registered game name.
        player: The acting player's index.
        text: The state as this player may see it.
        legal_actions: The predefined actions, sorted and deterministic.
        rules: The rules text.
        open_ended: Open-ended action ids mapped to the prompt for their free text.
        role: A short description of who the player is (``"X"``, ``"White"``).
        turn: The number of decisions taken in the match so far.
        image_png: An optional rendered image of the state.
        feedback: Why the previous attempt at this decision was rejected, on a retry.
        attempt: The attempt number for this decision, from 1.
        data: The same view as structured builtins, for programmatic agents
            (solvers, engines); never more than the player may see.
        messages: The messages this player sent or received so far, as dicts
            (``sender``, ``recipients``, ``text``, ``phase``, ``round``).
        negotiation: Set when the player is asked to talk, not to act.
        outcome: What happened since this player's last decision, where the
            game reports it (Hanabi's play and hint results, Diplomacy's phase
            results); empty before the player's first decision and in games
            without such feedback. The ``revise`` scaffold critiques its last
            decision against it.
        outcome_negative: The game judges that outcome bad for the player (a
            misplay or lost life token, a failed order or a lost supply centre).
        asking: How this decision is asked (:class:`Asking`); the default is
            the scaffold's own way.

    The protocol settings once held here directly (``answer_format``,
    ``prompt``, ...) are still accepted as keyword arguments and attributes,
    with a :class:`DeprecationWarning`; they live in :attr:`asking`.
    """

    game: str
    player: int
    text: str
    legal_actions: tuple[str, ...]
    rules: Rules
    open_ended: dict[str, str] = field(default_factory=dict)
    role: str = ""
    turn: int = 0
    image_png: bytes | None = None
    feedback: str | None = None
    attempt: int = 1
    data: dict[str, Any] = field(default_factory=dict)
    messages: tuple[dict[str, Any], ...] = ()
    negotiation: NegotiationTurn | None = None
    outcome: str = ""
    outcome_negative: bool = False
    asking: Asking = SCAFFOLD_DEFAULT

    def with_feedback(self, feedback: str, attempt: int) -> Observation:
        """Returns a copy carrying the rejection reason for a retry."""
        return replace(self, feedback=feedback, attempt=attempt)

    def with_asking(self, **changes: Any) -> Observation:
        """Returns a copy whose :attr:`asking` has ``changes`` applied."""
        return replace(self, asking=replace(self.asking, **changes))

    def is_legal(self, action: Action) -> bool:
        """Tells whether ``action`` is one of this observation's legal actions."""
        if action.id in self.legal_actions and action.response is None:
            return True
        return action.id in self.open_ended and bool(action.response)

    def __getattr__(self, name: str) -> Any:
        """Reads a protocol setting by its old name (deprecated: read ``observation.asking.<name>``)."""
        if name in ASKING_FIELDS:
            warnings.warn(
                f"Observation.{name} is deprecated; read Observation.asking.{name}",
                DeprecationWarning,
                stacklevel=2,
            )
            return getattr(self.asking, name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")


_dataclass_init = Observation.__init__


@functools.wraps(_dataclass_init)
def _observation_init(self: Observation, *args: Any, **kwargs: Any) -> None:
    """Accepts the old protocol keywords (deprecated) by moving them into ``asking``."""
    moved = {name: kwargs.pop(name) for name in sorted(ASKING_FIELDS & kwargs.keys())}
    if moved:
        names = ", ".join(f"{name}=..." for name in moved)
        warnings.warn(
            f"Observation({names}) is deprecated; pass asking=Asking({names})",
            DeprecationWarning,
            stacklevel=_caller_stacklevel(),
        )
        kwargs["asking"] = replace(kwargs.get("asking", SCAFFOLD_DEFAULT), **moved)
    _dataclass_init(self, *args, **kwargs)


def _caller_stacklevel() -> int:
    """The stack level of the code that built the observation, past :func:`dataclasses.replace`."""
    frame = sys._getframe(2)
    level = 2
    while frame is not None and frame.f_code.co_filename == dataclasses.__file__:
        frame = frame.f_back
        level += 1
    return level


Observation.__init__ = _observation_init  # type: ignore[method-assign]


def to_builtin(value: Any) -> Any:
    """Converts numpy scalars, tuples and dataclass-like values to JSON-safe builtins.

    Values crossing the xdist boundary must be builtin types (execnet dispatches
    on the exact type), so everything in an outcome passes through here.
    """
    return json.loads(json.dumps(value, default=_default))


def _default(value: Any) -> Any:
    if hasattr(value, "item"):
        return value.item()
    if hasattr(value, "to_dict"):
        return value.to_dict()
    if isinstance(value, (set, frozenset)):
        return sorted(value)
    if isinstance(value, bytes):
        return value.decode("ascii", "replace")
    raise TypeError(f"cannot serialise {type(value).__name__}")

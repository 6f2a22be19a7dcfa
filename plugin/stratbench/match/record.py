"""The match record: one typed, versioned :class:`MatchRecord` per collected match, and its builders.

The record is built once, when everything about the match is known
(:func:`build_record` for a played match, :func:`unscored_record` for a
skipped or errored one), and stored as :meth:`MatchRecord.to_json`, builtin
types only, one line of ``results.jsonl``. :meth:`MatchRecord.from_json`
reads one back; its JSON Schema is generated from these types by
:mod:`stratbench.match.record_schema` (``docs/match-record.schema.json``).
"""

from __future__ import annotations

import functools
import hashlib
import json
import platform
import types
import typing
from dataclasses import dataclass, field, fields, is_dataclass, replace
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, Union

from stratbench.core.types import to_builtin
from stratbench.llm import cassettes
from stratbench.llm.client import REPORTED_COUNTS
from stratbench.match.cost import decision_cost
from stratbench.metrics.revision import revision_record

if TYPE_CHECKING:
    from stratbench.core.runner import MatchOutcome
    from stratbench.core.schedule import MatchSpec, SuiteSpec

RECORD_VERSION = 1
"""The shape of the record this code writes and reads, stored as ``version``.

Records written before the field existed read as version 1. Raise it when a
field is removed or changes meaning, and teach :meth:`MatchRecord.from_json`
to read the older versions."""
SCORED, SKIPPED, ERRORED = "scored", "skipped", "errored"
FAULTS = ("provider", "harness", "model")

ALWAYS, SCORED_ONLY, UNSCORED_ONLY, WHEN_GIVEN = "always", "scored", "unscored", "given"
"""When a field is stored: always, for scored records only, for skipped and errored records only, or
only when it is not None (the field is then absent, never null)."""


class RecordError(ValueError):
    """A stored record this code cannot read: the message is one line naming the field."""


def _only(when: str, *, null: bool = False) -> Any:
    """A field stored only ``when`` (see :data:`WHEN_GIVEN`); ``null``: it may be stored as null."""
    return field(default=None, metadata={"only": when, "null": null})


@dataclass(frozen=True)
class Side:
    """One side of a match: its agent and, for a played match, its seats and model session.

    Attributes:
        agent: The agent's label (``gpt-4o+cot``, ``minimax``), as in test ids and ratings.
        kind: The registered agent name.
        model: The litellm model string, or None.
        scaffold: The scaffold name, or None.
        params: The agent factory's extra keyword arguments.
        players: The side's players (played matches only).
        roles: Each player's seat name (played matches only).
        vision: Whether a player's model was sent images (sides a model plays).
        retries: Model calls retried after a provider error (sides a model plays).
        dropped_params: Call settings the provider refused and that were dropped (sides a model plays).
        truncation_retries: Answers asked for again because the output-token limit cut them (sides a
            model plays).
    """

    agent: str
    kind: str
    model: str | None
    scaffold: str | None
    params: dict[str, Any]
    players: tuple[int, ...] | None = _only(WHEN_GIVEN)
    roles: tuple[str, ...] | None = _only(WHEN_GIVEN)
    vision: bool | None = _only(WHEN_GIVEN)
    retries: int | None = _only(WHEN_GIVEN)
    dropped_params: tuple[str, ...] | None = _only(WHEN_GIVEN)
    truncation_retries: int | None = _only(WHEN_GIVEN)


@dataclass(frozen=True)
class Usage:
    """Model usage: calls, tokens and cost (counted by the model sessions).

    Attributes:
        reasoning_tokens: Of ``completion_tokens``, the thinking ones (given when a provider reported them).
        cached_tokens: Of ``prompt_tokens``, those read from the provider's cache (given when reported).
        cache_write_tokens: Prompt tokens written to the provider's cache (given when reported).
    """

    calls: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    reasoning_tokens: int | None = _only(WHEN_GIVEN)
    cached_tokens: int | None = _only(WHEN_GIVEN)
    cache_write_tokens: int | None = _only(WHEN_GIVEN)


@dataclass(frozen=True)
class Rules:
    """The suite's rules for bad replies: attempts per decision, then the fallback.

    Attributes:
        on_truncation: What a model's cut answer got (``retry``: asked for once more, then the fallback with
            the reason ``truncated``; ``read``: read as it was); given when a model plays.
    """

    illegal_tolerance: int
    fallback: str
    on_truncation: str | None = _only(WHEN_GIVEN)


@dataclass(frozen=True)
class Cassette:
    """The cassette a match's model calls were recorded in or replayed from.

    Attributes:
        path: Relative to the cassette directory's parent (the repository root by default).
        sha256: The file's hash when the match ended.
        record_mode: The vcrpy record mode it was played under.
    """

    path: str
    sha256: str
    record_mode: str


@dataclass(frozen=True)
class DecisionCost:
    """One modelled side's calls and tokens, in all and per decision (:mod:`stratbench.match.cost`)."""

    decisions: int
    calls: int
    prompt_tokens: int
    completion_tokens: int
    calls_per_decision: float | None
    prompt_tokens_per_decision: float | None
    completion_tokens_per_decision: float | None
    reasoning_tokens: int | None = _only(WHEN_GIVEN)
    reasoning_tokens_per_decision: float | None = _only(WHEN_GIVEN)


@dataclass(frozen=True)
class Annotator:
    """The annotators' model and what judging the match cost (``--annotator-model``).

    Attributes:
        model: The litellm model string.
        settings: Its call settings (temperature 0, the match's seed).
        annotators: The annotators that ran, in name order.
        usage: Their model usage.
        retries: Calls retried after a provider error.
        dropped_params: Call settings the provider refused.
    """

    model: str
    settings: dict[str, Any]
    annotators: tuple[str, ...]
    usage: Usage
    retries: int
    dropped_params: tuple[str, ...]


@dataclass(frozen=True)
class MatchRecord:
    """The result record of one collected match (see docs/ARCHITECTURE.md, "The match record").

    A field marked *scored* is stored for scored records only, *unscored*
    for skipped and errored ones only, *given* only when it is not None; the
    others are always stored. Lists are tuples here and arrays in JSON.

    Attributes:
        match_id: The pytest node id.
        test_id: The pytest parameter id (``gpt-4o+cot-vs-minimax-s3``).
        run_id: The run it is stored in (a resumed record: the resuming run).
        status: ``scored`` (played; only these are rated), ``skipped`` or ``errored``.
        result: For the subject: ``won``, ``lost``, ``draw``, ``scored`` (one side, or every side
            the subject's), else the status.
        settings_hash: The hash of the settings that decide the outcome (``--resume`` replays
            a match whose hash changed); None when unknown.
        game: The registered game name; None only when a worker died before the match began.
        seed: The match seed; None as ``game``.
        variant: The game variant, or None.
        protocol: The protocol it was played in; None as ``game``.
        game_options: The options the game was built with.
        sides: Each side's agent, in seat order.
        subject: The index of the side under test; None as ``game``.
        scores: One score per side; None unless scored.
        rules: The suite's rules for bad replies; None as ``game``.
        duration_s: Wall time of the match (0 when it never started).
        started_at: When it started, in seconds since the epoch; None when it never started.
        cassette: The cassette of its model calls; None when no model took part.
        versions: The versions of Python and of the packages that shape a result.
        type: Always ``match``.
        version: The record's shape, :data:`RECORD_VERSION` when written; a record without it reads as 1.
        family: *scored*: the game's family (``spin``, ``gamebench``).
        score_range: *scored*: the lowest and highest score of a side.
        score_sum: *scored*: what the sides' scores always sum to, or None.
        terminal: *scored*: how the game ended.
        forfeited_by_side: *scored*: the side that forfeited, or None.
        turns: *scored*: joint actions applied.
        decisions: *scored*: decisions taken per side.
        illegal: *scored*: rejected attempts per side (parse errors and illegal actions).
        format_errors: *scored*: of those, replies not readable as an action, per side; None
            when the runner does not count them (a strategy-and-revision match).
        fallbacks: *scored*: decisions made by the fallback, per side.
        truncated: *given*: of the fallbacks, per side, those taken because the output-token limit cut
            the answer twice (a match a model plays).
        rejected: *given*: rejected answers per side, by reason kind (``"not legal here"``,
            ``"legal action in another notation"``..., :data:`~stratbench.core.rejection.REASON_KINDS`; a cut
            answer counts as ``"cut off"``); absent when no answer of the match was rejected.
        metrics: *scored*: metric values per player (``"0"``, ``"1"``) by metric name.
        usage: *scored*: model usage per side (zero for a side no model plays).
        cost_usd: *scored*: the sides' model cost in all.
        tokens: *scored*: the sides' prompt and completion tokens in all.
        reason: *unscored*: why it was skipped, or the error (one line).
        fault: *unscored*: for an errored match ``provider``, ``harness`` or ``model``; else None.
        decision_cost: *given*: per side, its calls and tokens per decision; None for a side no model plays.
        metrics_not_computed: *given*: metrics that failed or ran out of time, with why.
        advgame: *given*: a strategy-and-revision match as played (its rounds and strategies).
        annotator: *given*: the annotators' model and usage.
        transcript: *given*: the transcript file, relative to the report directory (added when stored).
        played_run_id: *given*: for a record carried over by ``--resume``, the run that played it.
        opening: *given*: the book position the match started from (``--openings book``: ``"1. e4 c5"``); absent
            when it started from the game's own start.
        game_digest: *given*: a digest of the game as played (the game, variant, start position and every action,
            16 hex digits): two matches with one digest played the same game (the gate counts a repeat once).
    """

    match_id: str
    test_id: str
    run_id: str
    status: Literal["scored", "skipped", "errored"]
    result: Literal["won", "lost", "draw", "scored", "skipped", "errored"]
    settings_hash: str | None
    game: str | None
    seed: int | None
    variant: str | None
    protocol: str | None
    game_options: dict[str, Any]
    sides: tuple[Side, ...]
    subject: int | None
    scores: tuple[float, ...] | None
    rules: Rules | None
    duration_s: float
    started_at: float | None
    cassette: Cassette | None
    versions: dict[str, str]
    type: Literal["match"] = "match"
    version: int = RECORD_VERSION
    family: str | None = _only(SCORED_ONLY)
    score_range: tuple[float, ...] | None = _only(SCORED_ONLY)
    score_sum: float | None = _only(SCORED_ONLY, null=True)
    terminal: str | None = _only(SCORED_ONLY)
    forfeited_by_side: int | None = _only(SCORED_ONLY, null=True)
    turns: int | None = _only(SCORED_ONLY)
    decisions: tuple[int, ...] | None = _only(SCORED_ONLY)
    illegal: tuple[int, ...] | None = _only(SCORED_ONLY)
    format_errors: tuple[int, ...] | None = _only(SCORED_ONLY, null=True)
    fallbacks: tuple[int, ...] | None = _only(SCORED_ONLY)
    truncated: tuple[int, ...] | None = _only(WHEN_GIVEN)
    rejected: tuple[dict[str, int], ...] | None = _only(WHEN_GIVEN)
    metrics: dict[str, dict[str, Any]] | None = _only(SCORED_ONLY)
    usage: tuple[Usage, ...] | None = _only(SCORED_ONLY)
    cost_usd: float | None = _only(SCORED_ONLY)
    tokens: int | None = _only(SCORED_ONLY)
    reason: str | None = _only(UNSCORED_ONLY)
    fault: Literal["provider", "harness", "model"] | None = _only(UNSCORED_ONLY, null=True)
    decision_cost: tuple[DecisionCost | None, ...] | None = _only(WHEN_GIVEN)
    metrics_not_computed: dict[str, str] | None = _only(WHEN_GIVEN)
    advgame: dict[str, Any] | None = _only(WHEN_GIVEN)
    annotator: Annotator | None = _only(WHEN_GIVEN)
    transcript: str | None = _only(WHEN_GIVEN)
    played_run_id: str | None = _only(WHEN_GIVEN)
    opening: str | None = _only(WHEN_GIVEN)
    game_digest: str | None = _only(WHEN_GIVEN)

    @property
    def is_scored(self) -> bool:
        """Tells whether the match was played and scored (the only kind that is rated)."""
        return self.status == SCORED

    def to_json(self) -> dict[str, Any]:
        """Returns the record as stored: builtin types only, each field as :func:`stored_fields` says."""
        return _to_json(self)

    @classmethod
    def from_json(cls, data: Any) -> MatchRecord:
        """Reads a stored record.

        Records without ``version`` (written before it existed) read as version 1.

        Raises:
            RecordError: one line naming the field: a ``version`` newer than
                :data:`RECORD_VERSION`, a missing or unknown field, a value of the wrong type.
        """
        if not isinstance(data, dict):
            raise RecordError(f"a match record is a JSON object, not {_json_type(data)}")
        problem = version_problem(data)
        if problem is not None:
            raise RecordError(problem)
        return _read_dataclass(cls, {**data, "version": data.get("version", 1)}, "")

    def interrupted(self, reason: str) -> MatchRecord:
        """Returns the errored record of this match, whose process died while playing it (a harness fault)."""
        return replace(self, status=ERRORED, result=ERRORED, reason=reason, fault="harness")

    def carried_into(self, run_id: str) -> MatchRecord:
        """Returns the record carried into run ``run_id`` by ``--resume`` (``played_run_id``: who played it)."""
        return replace(self, run_id=run_id, played_run_id=self.played_run_id or self.run_id)


def version_problem(data: dict[str, Any]) -> str | None:
    """Returns why this code cannot read a stored record's version (one line), or None when it can.

    A record without ``version`` was written before the field existed: version 1.
    """
    found = data.get("version", 1)
    if isinstance(found, bool) or not isinstance(found, int) or found < 1:
        return f"field 'version': {found!r} is not a record version (a whole number from 1)"
    if found > RECORD_VERSION:
        return (f"field 'version': {found} is newer than this stratbench reads ({RECORD_VERSION}); "
                f"upgrade stratbench to read it")
    return None


def stored_fields(record: Any) -> list[str]:
    """Returns the names of the fields a record (or part) stores, in declaration order."""
    status = getattr(record, "status", SCORED)
    names = []
    for item in fields(record):
        when = item.metadata.get("only", ALWAYS)
        value = getattr(record, item.name)
        if (when == WHEN_GIVEN and value is None) or (when == SCORED_ONLY and status != SCORED) or (
                when == UNSCORED_ONLY and status == SCORED):
            continue
        names.append(item.name)
    return names


def required_fields(cls: type, status: str | None = None) -> list[str]:
    """Returns the fields a stored record (or part) of this class must hold: for a record of ``status``,
    or (None) whatever its status."""
    names = []
    for item in fields(cls):
        when = item.metadata.get("only", ALWAYS)
        if item.name == "version" or when == WHEN_GIVEN:
            continue
        if when != ALWAYS and (status is None or (when == SCORED_ONLY) != (status == SCORED)):
            continue
        names.append(item.name)
    return names


@functools.cache
def stored_types(cls: type) -> dict[str, Any]:
    """Returns each field's stored type: a field stored only sometimes is absent then, never null,
    unless declared with ``null``."""
    hints = typing.get_type_hints(cls)
    found = {}
    for item in fields(cls):
        hint = hints[item.name]
        if item.metadata.get("only", ALWAYS) != ALWAYS and not item.metadata.get("null"):
            arms = tuple(arm for arm in typing.get_args(hint) if arm is not type(None))
            hint = arms[0] if len(arms) == 1 else Union[arms]  # noqa: UP007 - a Union built at run time
        found[item.name] = hint
    return found


def _to_json(value: Any) -> Any:
    if is_dataclass(value) and not isinstance(value, type):
        return {name: _to_json(getattr(value, name)) for name in stored_fields(value)}
    if isinstance(value, (list, tuple)):
        return [_to_json(item) for item in value]
    if isinstance(value, dict):
        return {key: _to_json(item) for key, item in value.items()}
    return value


def _read_dataclass(cls: type, data: Any, path: str) -> Any:
    if not isinstance(data, dict):
        raise RecordError(f"field '{path}': expected an object, got {_json_type(data)}")
    names = {item.name for item in fields(cls)}
    unknown = sorted(set(data) - names)
    if unknown:
        raise RecordError(f"unknown field '{_join(path, unknown[0])}' (this stratbench reads record version "
                          f"{RECORD_VERSION})")
    status = data.get("status", SCORED) if cls is MatchRecord else SCORED
    if cls is MatchRecord and status not in (SCORED, SKIPPED, ERRORED):
        status = SCORED  # the status field's own check names it below
    for name in required_fields(cls, status):
        if name not in data:
            raise RecordError(f"missing field '{_join(path, name)}'")
    for item in fields(cls):
        when = item.metadata.get("only", ALWAYS)
        if item.name in data and when in (SCORED_ONLY, UNSCORED_ONLY) and (when == SCORED_ONLY) != (status == SCORED):
            raise RecordError(f"field '{_join(path, item.name)}' is not stored for a {status} match")
    expected = stored_types(cls)
    values = {name: _read(value, expected[name], _join(path, name)) for name, value in data.items()}
    return cls(**values)


def _read(value: Any, hint: Any, path: str) -> Any:
    """Checks a JSON value against a field's type; returns it with arrays as tuples and objects as parts."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if origin in (Union, types.UnionType):
        arms = typing.get_args(hint)
        if value is None and type(None) in arms:
            return None
        problems = []
        for arm in arms:
            if arm is type(None):
                continue
            try:
                return _read(value, arm, path)
            except RecordError as error:
                problems.append(str(error))
        raise RecordError(problems[0] if len(problems) == 1 else
                          f"field '{path}': expected {_describe(hint)}, got {_json_type(value)}")
    if origin is Literal:
        if value in typing.get_args(hint) and isinstance(value, str):
            return value
        allowed = ", ".join(repr(choice) for choice in typing.get_args(hint))
        raise RecordError(f"field '{path}': {value!r} is not one of {allowed}")
    if origin is tuple:
        if not isinstance(value, list):
            raise RecordError(f"field '{path}': expected an array, got {_json_type(value)}")
        item = typing.get_args(hint)[0]
        return tuple(_read(entry, item, f"{path}[{index}]") for index, entry in enumerate(value))
    if origin is dict:
        if not isinstance(value, dict):
            raise RecordError(f"field '{path}': expected an object, got {_json_type(value)}")
        item = typing.get_args(hint)[1]
        return {key: _read(entry, item, f"{path}.{key}") for key, entry in value.items()}
    if is_dataclass(hint):
        return _read_dataclass(hint, value, path)
    if _fits(value, hint):
        return value
    raise RecordError(f"field '{path}': expected {_describe(hint)}, got {_json_type(value)}")


def _fits(value: Any, hint: Any) -> bool:
    if isinstance(value, bool):
        return hint is bool
    if hint is float:
        return isinstance(value, (int, float))
    return hint in (int, str) and isinstance(value, hint)


def _describe(hint: Any) -> str:
    if typing.get_origin(hint) in (Union, types.UnionType):
        return " or ".join(_describe(arm) for arm in typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        return "an array"
    if typing.get_origin(hint) is dict or is_dataclass(hint):
        return "an object"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string",
            type(None): "null"}.get(hint, str(hint))


def _json_type(value: Any) -> str:
    if value is None:
        return "null"
    return {bool: "a boolean", int: "an integer", float: "a number", str: "a string", list: "an array",
            dict: "an object"}.get(type(value), type(value).__name__)


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def build_record(
    spec: MatchSpec,
    suite: SuiteSpec,
    nodeid: str,
    game: Any,
    game_options: dict[str, Any],
    outcome: MatchOutcome,
    sessions: dict[int, Any],
    metrics: dict[str, Any],
    cassette_path: Path | None,
    started: float,
    mode: str,
    *,
    run_id: str,
    cassette_dir: Path,
    versions: dict[str, str],
    settings_hash: str | None = None,
    transcript: list[dict[str, Any]] | None = None,
    metrics_not_computed: dict[str, str] | None = None,
    annotation: dict[str, Any] | None = None,
    annotator_model: str | None = None,
) -> MatchRecord:
    """Returns the record of a played match (see docs/ARCHITECTURE.md, "The match record").

    With the match's ``transcript``, the record gains ``decision_cost`` (per
    side: calls and tokens per decision, :mod:`stratbench.match.cost`, from
    the sides' usage and decisions) and each critiquing player's ``revise``
    metric (:mod:`stratbench.metrics.revision`). A strategy-and-revision
    match (``outcome.extra["advgame"]``) is kept as played.

    Args:
        metrics_not_computed: Metrics that failed or ran out of time, with why (kept when any).
        annotation: What :func:`stratbench.match.annotate.annotate` returned (its model's
            usage is kept under ``annotator`` when it ran).
        annotator_model: The annotators' model.
    """
    info = game.info
    sides = []
    illegal, fallbacks, decisions, usage, modelled = [], [], [], [], []
    for side, players in enumerate(info.sides):
        played = [sessions[p] for p in players if p in sessions]
        modelled.append(bool(played))
        sides.append(Side(
            **to_builtin(spec.sides[side].to_dict()), players=tuple(players),
            roles=tuple(game.role(p) for p in players),
            vision=any(s.vision for s in played) if played else None,
            retries=sum(s.retries for s in played) if played else None,
            dropped_params=tuple(sorted(set().union(*(s.dropped_params for s in played)))) if played else None,
            truncation_retries=sum(s.truncation_retries for s in played) if played else None,
        ))
        illegal.append(int(sum(outcome.illegal[p] for p in players)))
        fallbacks.append(int(sum(outcome.fallbacks[p] for p in players)))
        decisions.append(int(sum(outcome.decisions[p] for p in players)))
        usage.append(sum_usage([s.usage.to_dict() for s in played]))
    metrics = to_builtin(metrics)
    costs = None
    if transcript is not None:
        costs = tuple(None if cost is None else DecisionCost(**cost) for cost in
                      decision_cost([u if m else None for u, m in zip(usage, modelled)], decisions))
        for player, values in revision_record(transcript, sorted(sessions)).items():
            metrics = {**metrics, player: {**metrics.get(player, {}), **to_builtin(values)}}
    scores = tuple(to_builtin(list(outcome.scores)))
    annotation = annotation or {}
    opening = getattr(game, "opening", lambda seed: None)(spec.seed)
    return MatchRecord(
        status=SCORED,
        settings_hash=settings_hash,
        run_id=run_id,
        match_id=nodeid,
        test_id=spec.id,
        game=info.name,
        family=info.family,
        score_range=tuple(to_builtin(list(info.score_range))),
        score_sum=to_builtin(info.score_sum),
        seed=spec.seed,
        variant=spec.variant,
        protocol=spec.protocol,
        game_options=to_builtin(game_options),
        sides=tuple(sides),
        subject=spec.subject,
        scores=scores,
        result=result_for(list(scores), spec.subject, same_agent_sides(spec)),
        terminal=outcome.terminal,
        forfeited_by_side=None if outcome.forfeited_by is None else info.side_of(outcome.forfeited_by),
        turns=int(outcome.turns),
        decisions=tuple(decisions),
        illegal=tuple(illegal),
        format_errors=None if outcome.format_errors is None else tuple(
            int(sum(outcome.format_errors.get(p, 0) for p in players)) for players in info.sides
        ),
        fallbacks=tuple(fallbacks),
        truncated=tuple(int(sum(outcome.truncated.get(p, 0) for p in players)) for players in info.sides)
        if any(modelled) else None,
        rejected=rejected_by_side(outcome.rejected, info.sides),
        rules=Rules(illegal_tolerance=suite.illegal_tolerance, fallback=suite.fallback,
                    on_truncation=next((s.on_truncation for s in sessions.values()), None)),
        metrics=metrics,
        usage=tuple(Usage(**u) for u in usage),
        cost_usd=round(sum(u["cost_usd"] for u in usage), 8),
        tokens=sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage),
        duration_s=round(outcome.duration_s, 6),
        started_at=started,
        cassette=None if cassette_path is None else Cassette(
            path=relative_path(cassette_path, cassette_dir.parent),
            sha256=cassettes.file_sha256(cassette_path),
            record_mode=mode,
        ),
        versions=dict(versions),
        decision_cost=costs,
        metrics_not_computed=dict(metrics_not_computed) if metrics_not_computed else None,
        advgame=to_builtin(outcome.extra["advgame"]) if "advgame" in outcome.extra else None,
        annotator=None if "usage" not in annotation else Annotator(
            model=str(annotator_model),
            settings=to_builtin(annotation["settings"]),
            annotators=tuple(annotation["annotators"]),
            usage=Usage(**annotation["usage"]),
            retries=annotation["retries"],
            dropped_params=tuple(annotation["dropped_params"]),
        ),
        opening=opening,
        game_digest=game_digest(info.name, spec.variant, opening, outcome.history) if outcome.history else None,
    )


def opening_part(record: dict[str, Any]) -> dict[str, Any]:
    """A book start as a match row's ``openings`` (``"book"``, which keeps it from pairing with a match from the
    game's own start), ``opening`` (the position, when scored) and ``game_digest``; nothing for a match from the
    game's own start (its digest only)."""
    options = record.get("game_options") or {}
    part = {"openings": "book"} if isinstance(options, dict) and options.get("openings") == "book" else {}
    for name in ("opening", "game_digest"):
        if record.get(name):
            part[name] = record[name]
    return part


def game_digest(game: str, variant: str | None, opening: str | None, history: list[dict[int, str]]) -> str:
    """A digest of a game as played: its name, variant, start position and every joint action (16 hex digits)."""
    text = json.dumps([game, variant, opening, [{str(p): a for p, a in joint.items()} for joint in history]],
                      sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def unscored_record(
    spec: MatchSpec,
    suite: SuiteSpec,
    nodeid: str,
    *,
    status: str,
    reason: str,
    fault: str | None = None,
    run_id: str,
    settings_hash: str | None,
    versions: dict[str, str],
    game_options: dict[str, Any] | None = None,
    started: float | None = None,
    duration_s: float = 0.0,
) -> MatchRecord:
    """Returns the record of a match that was not scored: ``skipped`` or ``errored``.

    It carries the same ids, sides, seed, rules and settings hash as a scored
    record, so it can be listed per agent, with ``scores`` None (never rated).

    Args:
        status: ``skipped`` or ``errored``.
        reason: Why it was skipped, or the error (one line).
        fault: For an errored match: ``provider``, ``harness`` or ``model``.
    """
    if status not in (SKIPPED, ERRORED):
        raise ValueError(f"an unscored record is skipped or errored, not {status!r}")
    return MatchRecord(
        status=status,  # type: ignore[arg-type]
        reason=" ".join(str(reason).split())[:2000],
        fault=fault if status == ERRORED else None,  # type: ignore[arg-type]
        settings_hash=settings_hash,
        run_id=run_id,
        match_id=nodeid,
        test_id=spec.id,
        game=spec.game,
        seed=spec.seed,
        variant=spec.variant,
        protocol=spec.protocol,
        game_options=to_builtin({**(game_options or {}),
                                 **({"openings": spec.openings} if spec.openings != "empty" else {})}),
        sides=tuple(Side(**to_builtin(side.to_dict())) for side in spec.sides),
        subject=spec.subject,
        scores=None,
        result=status,  # type: ignore[arg-type]
        rules=Rules(illegal_tolerance=suite.illegal_tolerance, fallback=suite.fallback),
        duration_s=round(duration_s, 6),
        started_at=started,
        cassette=None,
        versions=dict(versions),
    )


def unstarted_record(match_id: str, test_id: str, run_id: str, reason: str) -> MatchRecord:
    """Returns the errored record of a match whose xdist worker died before it began (only its ids are known)."""
    return MatchRecord(
        status=ERRORED, result=ERRORED, reason=reason, fault="harness", settings_hash=None, run_id=run_id,
        match_id=match_id, test_id=test_id, game=None, seed=None, variant=None, protocol=None, game_options={},
        sides=(), subject=None, scores=None, rules=None, duration_s=0.0, started_at=None, cassette=None,
        versions={},
    )


def same_agent_sides(spec: MatchSpec) -> list[int]:
    """Returns every side the subject's agent controls (several Diplomacy powers).

    In a two-sided game the subject is its own seat, even against a copy of itself.
    """
    if len(spec.sides) <= 2:
        return [spec.subject]
    return [i for i, side in enumerate(spec.sides) if side == spec.sides[spec.subject]]


def result_for(scores: list[float], subject: int, subject_sides: list[int] | None = None) -> str:
    """Returns ``won``, ``lost`` or ``draw`` for the subject (``scored`` for solo games).

    When the subject's agent controls several sides, their scores are summed
    and compared with the best side of any other agent.
    """
    if len(scores) == 1:
        return "scored"
    mine_sides = subject_sides or [subject]
    others = [s for i, s in enumerate(scores) if i not in mine_sides]
    if not others:
        return "scored"
    mine = sum(scores[i] for i in mine_sides)
    best_other = max(others)
    if mine > best_other:
        return "won"
    return "draw" if mine == best_other else "lost"


def sum_usage(items: list[dict[str, Any]]) -> dict[str, Any]:
    """Adds up model usage dicts (calls, tokens, cost); a count only some providers report
    (``reasoning_tokens``...) is in the sum when any item has it."""
    total: dict[str, Any] = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    for item in items:
        for key in total:
            total[key] += item[key]
    for key in REPORTED_COUNTS:
        reported = [item[key] for item in items if item.get(key) is not None]
        if reported:
            total[key] = sum(reported)
    total["cost_usd"] = round(total["cost_usd"], 8)
    return total


def relative_path(path: Path, root: Path) -> str:
    """Returns ``path`` relative to ``root`` when it lies under it, else as given."""
    try:
        return str(path.resolve().relative_to(root.resolve()))
    except ValueError:
        return str(path)


def package_versions() -> dict[str, str]:
    """Returns the versions of Python and the packages that shape a result."""
    found = {"python": platform.python_version()}
    for package in ("pytest-stratbench", "litellm", "vcrpy", "pytest"):
        try:
            found[package] = version(package)
        except PackageNotFoundError:
            pass
    return found


def rejected_by_side(
    rejected: dict[int, dict[str, int]], sides: tuple[tuple[int, ...], ...] | list[tuple[int, ...]]
) -> tuple[dict[str, int], ...] | None:
    """Sums players' rejected answers by reason kind into their sides; None when none was rejected."""
    if not any(rejected.values()):
        return None
    summed = []
    for players in sides:
        counts: dict[str, int] = {}
        for player in players:
            for kind, count in rejected.get(player, {}).items():
                counts[kind] = counts.get(kind, 0) + int(count)
        summed.append(counts)
    return tuple(summed)

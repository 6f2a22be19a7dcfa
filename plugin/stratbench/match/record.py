"""Recording a played match: the result record (builtin types only) and its helpers."""

from __future__ import annotations

import platform
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

from stratbench.core.runner import MatchOutcome
from stratbench.core.schedule import MatchSpec, SuiteSpec
from stratbench.core.types import to_builtin
from stratbench.llm import cassettes
from stratbench.match.cost import decision_cost
from stratbench.metrics.revision import revision_record
from stratbench.run.results import ERRORED, RECORD_VERSION, SCORED, SKIPPED


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
) -> dict[str, Any]:
    """Returns the result record of a played match (see docs/ARCHITECTURE.md, Results).

    With the match's ``transcript``, the record gains ``decision_cost`` (per
    side: calls and tokens per decision, :mod:`stratbench.match.cost`, from
    the sides' usage and decisions) and each critiquing player's ``revise``
    metric (:mod:`stratbench.metrics.revision`).
    """
    info = game.info
    sides = []
    illegal, fallbacks, decisions, usage, modelled = [], [], [], [], []
    for side, players in enumerate(info.sides):
        sides.append({**spec.sides[side].to_dict(), "players": list(players),
                      "roles": [game.role(p) for p in players]})
        illegal.append(sum(outcome.illegal[p] for p in players))
        fallbacks.append(sum(outcome.fallbacks[p] for p in players))
        decisions.append(sum(outcome.decisions[p] for p in players))
        side_usage = [sessions[p].usage.to_dict() for p in players if p in sessions]
        modelled.append(bool(side_usage))
        if modelled[-1]:
            sides[-1]["vision"] = any(sessions[p].vision for p in players if p in sessions)
            sides[-1]["retries"] = sum(sessions[p].retries for p in players if p in sessions)
            sides[-1]["dropped_params"] = sorted(set().union(*(sessions[p].dropped_params for p in players
                                                               if p in sessions)))
        usage.append(sum_usage(side_usage))
    record = {
        "type": "match",
        "version": RECORD_VERSION,
        "status": SCORED,
        "settings_hash": settings_hash,
        "run_id": run_id,
        "match_id": nodeid,
        "test_id": spec.id,
        "game": info.name,
        "family": info.family,
        "score_range": list(info.score_range),
        "score_sum": info.score_sum,
        "seed": spec.seed,
        "variant": spec.variant,
        "protocol": spec.protocol,
        "game_options": game_options,
        "sides": sides,
        "subject": spec.subject,
        "scores": outcome.scores,
        "result": result_for(outcome.scores, spec.subject, same_agent_sides(spec)),
        "terminal": outcome.terminal,
        "forfeited_by_side": None if outcome.forfeited_by is None else info.side_of(outcome.forfeited_by),
        "turns": outcome.turns,
        "decisions": decisions,
        "illegal": illegal,
        "format_errors": None if outcome.format_errors is None else [
            sum(outcome.format_errors.get(p, 0) for p in players) for players in info.sides
        ],
        "fallbacks": fallbacks,
        "rules": {"illegal_tolerance": suite.illegal_tolerance, "fallback": suite.fallback},
        "metrics": metrics,
        "usage": usage,
        "cost_usd": round(sum(u["cost_usd"] for u in usage), 8),
        "tokens": sum(u["prompt_tokens"] + u["completion_tokens"] for u in usage),
        "duration_s": round(outcome.duration_s, 6),
        "started_at": started,
        "cassette": None,
        "versions": versions,
    }
    if transcript is not None:
        record["decision_cost"] = decision_cost([u if m else None for u, m in zip(usage, modelled)], decisions)
        for player, values in revision_record(transcript, sorted(sessions)).items():
            record["metrics"] = {**record["metrics"], player: {**record["metrics"].get(player, {}), **values}}
    if cassette_path is not None:
        record["cassette"] = {
            "path": relative_path(cassette_path, cassette_dir.parent),
            "sha256": cassettes.file_sha256(cassette_path),
            "record_mode": mode,
        }
    return to_builtin(record)


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
) -> dict[str, Any]:
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
    record = {
        "type": "match",
        "version": RECORD_VERSION,
        "status": status,
        "reason": " ".join(str(reason).split())[:2000],
        "fault": fault if status == ERRORED else None,
        "settings_hash": settings_hash,
        "run_id": run_id,
        "match_id": nodeid,
        "test_id": spec.id,
        "game": spec.game,
        "seed": spec.seed,
        "variant": spec.variant,
        "protocol": spec.protocol,
        "game_options": game_options or {},
        "sides": [side.to_dict() for side in spec.sides],
        "subject": spec.subject,
        "scores": None,
        "result": status,
        "rules": {"illegal_tolerance": suite.illegal_tolerance, "fallback": suite.fallback},
        "duration_s": round(duration_s, 6),
        "started_at": started,
        "cassette": None,
        "versions": versions,
    }
    return to_builtin(record)


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
    """Adds up model usage dicts (calls, tokens, cost)."""
    total = {"calls": 0, "prompt_tokens": 0, "completion_tokens": 0, "cost_usd": 0.0}
    for item in items:
        for key in total:
            total[key] += item[key]
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

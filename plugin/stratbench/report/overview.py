"""The report's first table: each model's answers and scores per game (shown a row per model and game).

For every model (its scaffolds pooled) and game: matches, answers given,
the legal-move rate (accepted answers over all answers), the format-error
rate (replies that could not be read as an action, over all answers) and the
mean score of the model's side. A decision's accepted answer is the one
that was not replaced by the fallback, so answers = decisions − fallbacks +
rejected attempts. A plan game whose validator calls the plan unreadable
(metric ``error`` = ``parse_error``) counts that answer as a format error
and not as legal. Records written before format errors were counted show
the format-error rate as unknown. Matches of the model that errored or were
skipped (no answers or score recorded) are counted beside, per cell, so no
match leaves the table unseen.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from stratbench.report.unplayed import unplayed_counts

NONE_UNPLAYED = {"errored": 0, "skipped": 0}
UNREADABLE_PLAN = "parse_error"
"""The planning validator's verdict on a plan it could not read."""


def model_overview(
    records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()
) -> dict[str, Any] | None:
    """Returns ``{"models", "games": [{"game", "score_range", "cells": {model: cell}}]}``, or None without models.

    A cell holds ``matches`` (scored), ``answers``, ``legal``, ``format_errors`` (None when unknown),
    ``legal_rate``, ``format_error_rate``, ``mean_score`` (rates None when no answer was given, the
    score None without a scored match), and ``errored`` and ``skipped``, the model's matches in
    ``unscored`` (skipped and errored records), which have no answers or score to count.
    """
    totals: dict[tuple[str, str], dict[str, Any]] = defaultdict(
        lambda: {"matches": 0, "answers": 0, "legal": 0, "format_errors": 0, "score": 0.0}
    )
    unplayed = unplayed_counts(
        unscored, lambda r: [(side["model"], r.get("game")) for side in r.get("sides", []) if side.get("model")]
    )
    for key in unplayed:
        totals[key]  # noqa: B018 - a model with only unscored matches still gets its cell
    ranges: dict[str, list[float]] = {}
    for record in records:
        for side, info in enumerate(record["sides"]):
            model = info.get("model")
            if not model:
                continue
            cell = totals[(model, record["game"])]
            _add(cell, record, side)
            if record.get("score_range"):
                ranges.setdefault(record["game"], list(record["score_range"]))
    if not totals:
        return None
    models = sorted({model for model, _ in totals})
    games = sorted({game for _, game in totals})
    rows = []
    for game in games:
        cells = {model: {**_finish(totals[(model, game)]), **unplayed.get((model, game), NONE_UNPLAYED)}
                 for model in models if (model, game) in totals}
        rows.append({"game": game, "score_range": ranges.get(game), "cells": cells})
    return {"models": models, "games": rows}


def _add(cell: dict[str, Any], record: dict[str, Any], side: int) -> None:
    decisions = _count(record, "decisions", side)
    rejected = _count(record, "illegal", side)
    accepted = decisions - _count(record, "fallbacks", side)
    format_errors = record.get("format_errors")
    unreadable = _unreadable_plan(record, side) and accepted > 0
    cell["matches"] += 1
    cell["answers"] += accepted + rejected
    cell["legal"] += accepted - int(unreadable)
    cell["score"] += float(record["scores"][side])
    if format_errors is None or cell["format_errors"] is None:
        cell["format_errors"] = None
    else:
        cell["format_errors"] += int(format_errors[side]) + int(unreadable)


def _unreadable_plan(record: dict[str, Any], side: int) -> bool:
    """Tells whether a plan game's validator found the side's (one) plan unreadable; metrics are per player."""
    metrics = record.get("metrics") or {}
    players = record["sides"][side].get("players") or [side]
    for player in players:
        player_metrics = metrics.get(str(player), metrics.get(player))
        if isinstance(player_metrics, dict) and player_metrics.get("error") == UNREADABLE_PLAN:
            return True
    return False


def _count(record: dict[str, Any], key: str, side: int) -> int:
    values = record.get(key)
    return int(values[side]) if isinstance(values, list) and side < len(values) else 0


def _finish(cell: dict[str, Any]) -> dict[str, Any]:
    answers = cell["answers"]
    return {
        "matches": cell["matches"],
        "answers": answers,
        "legal": cell["legal"],
        "format_errors": cell["format_errors"],
        "legal_rate": cell["legal"] / answers if answers else None,
        "format_error_rate": None if cell["format_errors"] is None or not answers else cell["format_errors"] / answers,
        "mean_score": cell["score"] / cell["matches"] if cell["matches"] else None,
    }


__all__ = ["model_overview"]

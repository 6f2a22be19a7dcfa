"""Scoring a played match: the registered per-game metrics, merged with the annotators' metrics."""

from __future__ import annotations

from typing import Any

from stratbench.core.runner import MatchOutcome
from stratbench.registry import Registry


def score_match(
    registry: Registry, game: Any, outcome: MatchOutcome, seed: int, annotation: dict[str, Any]
) -> dict[str, dict[str, Any]]:
    """Returns the match's metrics per player (string keys), metrics in name order, annotators last."""
    merged: dict[str, dict[str, Any]] = {}
    for _, metric in sorted(registry.metrics.get(game.info.name, {}).items()):
        for player, values in metric(game, outcome, seed).items():
            merged.setdefault(str(player), {}).update(values)
    for player, values in annotation.get("metrics", {}).items():
        merged.setdefault(str(player), {}).update(values)
    return merged

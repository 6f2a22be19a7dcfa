"""Scoring a played match: the registered per-game metrics, merged with the annotators' metrics."""

from __future__ import annotations

from typing import Any

from stratbench.core.runner import MatchOutcome
from stratbench.match.metric_budget import DEFAULT_METRIC_TIMEOUT_S, MetricBudget, MetricTimeout, current_budget
from stratbench.registry import Registry


def score_match(
    registry: Registry, game: Any, outcome: MatchOutcome, seed: int, annotation: dict[str, Any],
    timeout_s: float | None = DEFAULT_METRIC_TIMEOUT_S,
) -> tuple[dict[str, dict[str, Any]], dict[str, str]]:
    """Returns the match's metrics per player (string keys), metrics in name order, annotators last, and what
    was not computed within each metric's ``timeout_s`` budget (None: no limit), by name, with the reason.

    A metric that runs out of time as a whole is named by its registered name
    and adds no values; one that leaves out a part (see
    :class:`~stratbench.match.metric_budget.MetricBudget`) names that value.
    """
    merged: dict[str, dict[str, Any]] = {}
    not_computed: dict[str, str] = {}
    for name, metric in sorted(registry.metrics.get(game.info.name, {}).items()):
        budget = MetricBudget(timeout_s)
        token = current_budget.set(budget)
        try:
            values_by_player = metric(game, outcome, seed)
        except MetricTimeout as error:
            not_computed[name] = str(error)
            continue
        finally:
            current_budget.reset(token)
            not_computed.update(budget.not_computed)
        for player, values in values_by_player.items():
            merged.setdefault(str(player), {}).update(values)
    for player, values in annotation.get("metrics", {}).items():
        merged.setdefault(str(player), {}).update(values)
    return merged, not_computed

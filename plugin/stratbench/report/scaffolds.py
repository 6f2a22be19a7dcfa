"""The scaffolds report section: scaffolds side by side per game, and the revise metrics.

(What each model agent's decisions cost is the models section,
:mod:`stratbench.report.model_cost`.)

- Side by side (GameBench Table 1 style), one table per game where a model
  played under several scaffolds: each scaffold's mean score, its paired
  difference from ``direct`` with a bootstrap 95% interval, and its calls per
  decision. Matches pair when they share game, variant, seed, the model's
  seat and the opponents; the difference is the mean over pairs of
  (scaffold's score − direct's score), the interval the 2.5th and 97.5th
  percentiles of the mean over :data:`RESAMPLES` resamples of the pairs
  (seed 0).
- Revision: the ``revise`` scaffold's critiques per agent, pooled over its
  matches, with AdvGameBench's ORR, CSR and slope
  (:mod:`stratbench.metrics.revision`).
"""

from __future__ import annotations

import random
from collections import defaultdict
from typing import Any

from stratbench.core.obfuscation import renaming_of
from stratbench.metrics.revision import RevisionRow, pooled_revision_metrics
from stratbench.report.labels import model_with_settings
from stratbench.report.unplayed import NONE, unplayed_counts

__all__ = ["RESAMPLES", "paired_difference", "paired_scores", "scaffolds"]

RESAMPLES = 2000
"""Bootstrap resamples of the paired difference."""

BASELINE = "direct"


def paired_difference(differences: list[float], *, resamples: int = RESAMPLES, seed: int = 0,
                      level: float = 0.95) -> tuple[float, float, float]:
    """Returns the mean of paired differences and its percentile bootstrap interval (low, high).

    Raises:
        ValueError: for no pairs.
    """
    if not differences:
        raise ValueError("no paired matches")
    n = len(differences)
    mean = sum(differences) / n
    rng = random.Random(seed)
    means = sorted(sum(rng.choice(differences) for _ in range(n)) / n for _ in range(resamples))
    tail = (1 - level) / 2
    low = means[int(tail * (resamples - 1))]
    high = means[int(round((1 - tail) * (resamples - 1)))]
    return mean, low, high


def _model_sides(record: dict[str, Any]) -> list[tuple[int, dict[str, Any]]]:
    return [(i, side) for i, side in enumerate(record["sides"]) if side.get("model")]


def pairing_key(record: dict[str, Any], index: int) -> tuple:
    """What two matches of one game share to be paired for a side: variant, renaming (a memorisation probe pairs
    with probes only), seed, seat and opponents."""
    opponents = tuple(other.get("agent") for j, other in enumerate(record["sides"]) if j != index)
    return record.get("variant"), renaming_of(record), record.get("seed"), index, opponents


def paired_scores(records: list[dict[str, Any]]) -> dict[tuple[str, str], dict[tuple, dict[str, float]]]:
    """Maps (game, model) to the pairing keys, each to the score of every scaffold that played it. A model
    played with settings (``effort=high``, ``answers=tools``) is its own model here: ``openai/m(answers=tools)``."""
    found: dict[tuple[str, str], dict[tuple, dict[str, float]]] = defaultdict(dict)
    for record in records:
        for index, side in _model_sides(record):
            scores = found[(record["game"], model_with_settings(side))].setdefault(pairing_key(record, index), {})
            scores[side.get("scaffold") or BASELINE] = float(record["scores"][index])
    return found


def _unplayed(unscored: list[dict[str, Any]]) -> dict[Any, dict[str, int]]:
    """Counts the errored and skipped matches per ``(game, model, scaffold)``."""
    def keys(record: dict[str, Any]) -> list[tuple[str, ...]]:
        sides = [side for side in record.get("sides", []) if side.get("model")]
        return [(record.get("game", "?"), model_with_settings(side), side.get("scaffold") or BASELINE)
                for side in sides]

    return unplayed_counts(unscored, keys)


def _calls_per_decision(records: list[dict[str, Any]], game: str, model: str, scaffold: str) -> float | None:
    calls = decisions = 0
    for record in records:
        if record["game"] != game:
            continue
        for index, side in _model_sides(record):
            cost = (record.get("decision_cost") or [None] * len(record["sides"]))[index]
            if model_with_settings(side) == model and (side.get("scaffold") or BASELINE) == scaffold and cost:
                calls += int(cost["calls"])
                decisions += int(cost["decisions"])
    return calls / decisions if decisions else None


def _side_by_side(records: list[dict[str, Any]], unplayed: dict[Any, dict[str, int]]) -> list[dict[str, Any]]:
    tables = []
    by_game: dict[str, list[list[Any]]] = defaultdict(list)
    for (game, model), keyed in sorted(paired_scores(records).items()):
        played = sorted({s for scores in keyed.values() for s in scores}, key=lambda s: (s != BASELINE, s))
        if len(played) < 2:
            continue
        for scaffold in played:
            scores = [scores[scaffold] for scores in keyed.values() if scaffold in scores]
            counts = unplayed.get((game, model, scaffold), NONE)
            row: list[Any] = [model, scaffold, len(scores), counts["errored"], counts["skipped"],
                              sum(scores) / len(scores)]
            differences = [s[scaffold] - s[BASELINE] for s in keyed.values() if scaffold in s and BASELINE in s]
            if scaffold != BASELINE and differences:
                mean, low, high = paired_difference(differences)
                row += [len(differences), mean, f"[{low:.3f}, {high:.3f}]"]
            else:
                row += [None, None, None]
            row.append(_calls_per_decision(records, game, model, scaffold))
            by_game[game].append(row)
    for game, rows in sorted(by_game.items()):
        tables.append({
            "title": f"Side by side: {game}",
            "columns": ["model", "scaffold", "matches", "errored", "skipped", "mean score", "pairs", "Δ vs direct",
                        "95% interval", "calls / decision"],
            "rows": rows,
            "note": None,
            "label_columns": ["model", "scaffold"],
            "key_columns": ["mean score", "Δ vs direct", "95% interval"],
        })
    return tables


def _revision_rows(records: list[dict[str, Any]]) -> list[list[Any]]:
    per_agent: dict[str, list[list[RevisionRow]]] = defaultdict(list)
    matches: dict[str, set[str]] = defaultdict(set)
    for record in records:
        for index, side in _model_sides(record):
            for player in record["sides"][index].get("players", [index]):
                revision = record.get("metrics", {}).get(str(player), {}).get("revise")
                if revision:
                    per_agent[side["agent"]].append([RevisionRow.from_dict(r) for r in revision["rows"]])
                    matches[side["agent"]].add(record["match_id"])
    rows = []
    for agent, seats in sorted(per_agent.items()):
        m = pooled_revision_metrics(seats)
        rows.append([agent, len(matches[agent]), m["revisions"], m["negative"], m["changed"],
                     m["over_correction_rate"], m["correction_success_rate"], m["improvement_slope"]])
    return rows


def scaffolds(records: list[dict[str, Any]], unscored: list[dict[str, Any]] = ()) -> dict[str, Any] | None:
    """The section (see the module); None when no model played under two scaffolds of one game and none
    revised. Errored and skipped matches are counted beside the scored ones (they have no scores to pool)."""
    unplayed = _unplayed(list(unscored))
    tables = _side_by_side(records, unplayed)
    revision = _revision_rows(records)
    if revision:
        tables.append({
            "title": "Revision (revise scaffold, AdvGameBench's process metrics)",
            "columns": ["agent", "matches", "critiques", "negative feedback", "changed", "ORR", "CSR", "slope"],
            "rows": revision,
            "note": "One row per critique: after a rejected answer (negative; changed when the new answer differs; "
                    "improved when it was accepted) or after outcome feedback (negative as the game judges it; "
                    "changed when the model said 'Revise: yes'; improved when the next outcome was not negative). "
                    "ORR = P(changed | negative), CSR = share of changes that removed the violation or turned bad "
                    "feedback good, slope = OLS of good feedback on the critique index.",
        })
    if not tables:
        return None
    return {
        "title": "Scaffolds: side by side and revision",
        "note": "Side by side: matches pair on game, variant, seed, the model's seat and the opponents; Δ is the "
                "mean paired score difference from direct, with a percentile bootstrap 95% interval "
                f"({RESAMPLES} resamples, seed 0).",
        "tables": tables,
    }

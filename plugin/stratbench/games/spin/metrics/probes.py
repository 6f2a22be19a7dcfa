"""Per-match metrics of the planning probes, and their aggregate per setting."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from stratbench.core.game import Game
from stratbench.core.runner import MatchOutcome
from stratbench.core.types import Action
from stratbench.report.unplayed import subject_agent
from stratbench.run.results import ERRORED, SKIPPED, status_of

__all__ = ["accuracy_by_setting", "accuracy_grid", "probe_score"]

GAMES = ("factual_retrieval", "spatial_tracking")


def probe_score(game: Game, outcome: MatchOutcome, seed: int) -> dict[int, dict[str, Any]]:
    """Returns, for player 0: ``correct``, the setting (``length``, ``difficulty``), and scoring details.

    The task is regenerated from the variant and ``seed`` and the answer
    re-scored; a forfeit (no answer) is incorrect.
    """
    task = game.generate(seed)  # type: ignore[attr-defined]
    answer = None
    for joint in outcome.history:
        if 0 in joint:
            answer = Action.from_text(joint[0]).response
    correct, detail = game.score(task, answer)  # type: ignore[attr-defined]
    row: dict[str, Any] = {"correct": bool(correct), "answered": answer is not None, "length": game.length, **detail}  # type: ignore[attr-defined]
    if game.info.name == "factual_retrieval":
        row.update(difficulty=game.difficulty, asked_step=task.asked_step)  # type: ignore[attr-defined]
    return {0: row}


def accuracy_by_setting(records: Iterable[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Returns ``{"<game> <variant>": {"items", "correct", "accuracy"}}`` over probe records.

    Examples:
        >>> recs = [{"game": "spatial_tracking", "variant": "l5", "metrics": {"0": {"correct": c}}}
        ...         for c in (True, False)]
        >>> accuracy_by_setting(recs)["spatial_tracking l5"]["accuracy"]
        0.5
    """
    groups: dict[str, list[bool]] = {}
    for record in records:
        if record.get("game") not in GAMES:
            continue
        key = f"{record['game']} {record.get('variant')}"
        groups.setdefault(key, []).append(bool(record["metrics"]["0"]["correct"]))
    return {k: {"items": len(v), "correct": sum(v), "accuracy": sum(v) / len(v)} for k, v in sorted(groups.items())}


def _setting(record: dict[str, Any]) -> tuple[int | None, int | None]:
    """Returns ``(mutable properties or None, length)`` from the record's metrics, else from its variant."""
    metrics = record.get("metrics", {}).get("0", {})
    depth, length = metrics.get("difficulty"), metrics.get("length")
    for part in str(record.get("variant") or "").split("-"):
        if part[1:].isdigit():
            if part[0] == "d" and depth is None:
                depth = int(part[1:])
            elif part[0] == "l" and length is None:
                length = int(part[1:])
    return depth, length


def accuracy_grid(
    records: Iterable[dict[str, Any]], unscored: Iterable[dict[str, Any]] = ()
) -> dict[str, dict[str, Any]]:
    """Returns per probe game ``{"lengths": [...], "cells": {(agent, properties): {length: cell}}}``.

    A cell is ``{"items", "correct", "accuracy", "errored", "skipped"}``;
    ``properties`` is None for spatial tracking. An item whose match errored
    (in ``unscored``) got no answer and counts as an item not answered
    correctly, as a missing answer does; a skipped one was never asked and
    is only counted (``skipped``), in no denominator. Rows and lengths are
    sorted; records without a readable length are left out.
    """
    groups: dict[str, dict[tuple[str, int | None], dict[int, dict[str, Any]]]] = {}

    def cell(record: dict[str, Any]) -> dict[str, Any] | None:
        depth, length = _setting(record)
        if length is None:
            return None
        rows = groups.setdefault(record["game"], {}).setdefault((subject_agent(record), depth), {})
        return rows.setdefault(int(length), {"flags": [], ERRORED: 0, SKIPPED: 0})

    for record in records:
        if record.get("game") in GAMES and "0" in record.get("metrics", {}) and (found := cell(record)) is not None:
            found["flags"].append(bool(record["metrics"]["0"].get("correct")))
    for record in unscored:
        status = status_of(record)
        if record.get("game") in GAMES and status in (ERRORED, SKIPPED) and (found := cell(record)) is not None:
            found[status] += 1
            if status == ERRORED:
                found["flags"].append(False)
    out = {}
    for game, rows in sorted(groups.items()):
        lengths = sorted({n for cells in rows.values() for n in cells})
        out[game] = {
            "lengths": lengths,
            "cells": {key: {n: _cell(c) for n, c in sorted(cells.items())}
                      for key, cells in sorted(rows.items(), key=lambda kv: (kv[0][0], kv[0][1] or 0))},
        }
    return out


def _cell(tally: dict[str, Any]) -> dict[str, Any]:
    flags = tally["flags"]
    return {"items": len(flags), "correct": sum(flags), "accuracy": sum(flags) / len(flags) if flags else None,
            "errored": tally["errored"], "skipped": tally["skipped"]}

"""Nim's report section: per agent and heap set, wins and the share of optimal moves, counts beside rates."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from stratbench_nim.game import NAME


def nim_section(records: list[dict[str, Any]]) -> dict[str, Any] | None:
    """Builds the Nim table from the scored records (None when there are no Nim matches)."""
    rows: dict[tuple[str, str], dict[str, int]] = defaultdict(
        lambda: {"matches": 0, "wins": 0, "moves": 0, "optimal": 0})
    for record in records:
        if record.get("game") != NAME:
            continue
        heaps = record.get("variant") or ""
        for side, entry in enumerate(record["sides"]):
            row = rows[(entry["agent"], heaps)]
            row["matches"] += 1
            row["wins"] += record["scores"][side] > record["scores"][1 - side]
            for player in entry["players"]:
                metric = record.get("metrics", {}).get(str(player), {})
                row["moves"] += int(metric.get("moves") or 0)
                row["optimal"] += int(metric.get("optimal_moves") or 0)
    if not rows:
        return None
    return {
        "title": "Nim",
        "columns": ["agent", "heaps", "matches", "wins", "win rate", "moves", "optimal moves", "optimal-move share"],
        "rows": [
            [agent, heaps, row["matches"], row["wins"], row["wins"] / row["matches"], row["moves"], row["optimal"],
             row["optimal"] / row["moves"] if row["moves"] else None]
            for (agent, heaps), row in sorted(rows.items())
        ],
        "note": "Over the scored matches. An optimal move leaves a zero nim-sum (the XOR of the heap sizes), "
                "the position Bouton's strategy plays to; from a zero nim-sum no move is optimal.",
    }

"""What each agent's matches cost: tokens, USD and wall time per match, and USD per rating point over a baseline.

Pure computation over a pool's records and its ratings. A side's tokens and
USD come from the record's ``usage`` of that side; a record without ``usage``
(a ``results.json`` alone) gives its match totals to the subject side. Wall
time is the match's own ``duration_s``.

USD per rating point over a baseline agent B, for agent A::

    (USD per match of A - USD per match of B) / (rating of A - rating of B)

given only where A is rated above B: what each point A gains over B costs per
match, beyond what B costs.
"""

from __future__ import annotations

import math
from typing import Any

from stratbench.report.gate import finite_number
from stratbench.run.results import is_scored

__all__ = ["COST_RULE", "cost_rows", "usd_per_point"]

COST_RULE = (
    "Per match the agent played (scored matches only): prompt + completion tokens and USD of the agent's own "
    "side(s), and the match's wall time. USD per rating point over the baseline B = (USD per match − B's USD per "
    "match) / (rating − B's rating), given where the agent is rated above B."
)
"""How the cost table is formed (stated under it)."""


def usd_per_point(usd: float | None, rating: float | None, base_usd: float | None,
                  base_rating: float | None) -> float | None:
    """Returns the extra USD per match for each rating point gained over the baseline (None: no gain or unknown)."""
    if None in (usd, rating, base_usd, base_rating):
        return None
    gained = rating - base_rating  # type: ignore[operator]
    if not gained > 0:
        return None
    return (usd - base_usd) / gained  # type: ignore[operator]


def cost_rows(records: list[dict[str, Any]], ratings: dict[str, Any] | None,
              baseline: str | None = None) -> list[dict[str, Any]]:
    """Returns one row per agent: matches, tokens, USD and wall seconds per match, rating, and USD per point.

    Args:
        records: The pool's records.
        ratings: The pool's Bradley–Terry ratings (``analyse()["ratings"]``), or None.
        baseline: The agent whose rating and cost the others are measured from.

    Returns:
        Rows ``{"agent", "matches", "tokens_per_match", "usd_per_match", "wall_s_per_match", "rating",
        "gain", "usd_per_point", "unpriced"}`` sorted by agent; ``gain`` and ``usd_per_point`` are None without a
        baseline (or where it is not rated), ``usd_per_point`` also where either cost is unpriced (tokens no price
        covered: ``unpriced``, never a cost of 0).
    """
    totals: dict[str, dict[str, float]] = {}
    for record in records:
        if not is_scored(record):
            continue
        usage = record.get("usage") if isinstance(record.get("usage"), list) else None
        wall = record.get("duration_s")
        for index, side in enumerate(record["sides"]):
            row = totals.setdefault(side["agent"], {"matches": 0, "tokens": 0.0, "usd": 0.0, "wall": 0.0,
                                                    "timed": 0})
            row["matches"] += 1
            if usage is not None:
                used = usage[index] if index < len(usage) and isinstance(usage[index], dict) else {}
                row["tokens"] += _number(used.get("prompt_tokens")) + _number(used.get("completion_tokens"))
                row["usd"] += _number(used.get("cost_usd"))
            elif index == record.get("subject", 0):
                row["tokens"] += _number(record.get("tokens"))
                row["usd"] += _number(record.get("cost_usd"))
            if isinstance(wall, (int, float)) and math.isfinite(wall):
                row["wall"] += wall
                row["timed"] += 1
    rated = dict(zip(ratings["agents"], ratings["mean"])) if ratings else {}
    rows = []
    for agent, row in sorted(totals.items()):
        rows.append({
            "agent": agent,
            "matches": int(row["matches"]),
            "tokens_per_match": row["tokens"] / row["matches"],
            "usd_per_match": row["usd"] / row["matches"],
            "wall_s_per_match": row["wall"] / row["timed"] if row["timed"] else None,
            "rating": rated.get(agent),
            "unpriced": row["tokens"] > 0 and row["usd"] == 0 and not agent.startswith("local/"),
        })
    base = next((row for row in rows if row["agent"] == baseline), None)
    for row in rows:
        known = base is not None and base["rating"] is not None and row["rating"] is not None
        row["gain"] = row["rating"] - base["rating"] if known else None  # type: ignore[index]
        priced = not row["unpriced"] and not base["unpriced"] if base is not None else False
        row["usd_per_point"] = (usd_per_point(row["usd_per_match"], row["rating"], base["usd_per_match"],
                                              base["rating"]) if known and priced and row is not base else None)
    return rows


def _number(value: Any) -> float:
    return float(value) if finite_number(value) else 0.0

"""The model cost of each side's decisions: calls and tokens per decision, from a match transcript.

Every model call an agent makes (deciding, reasoning, critiquing,
negotiating, expanding a rule) is one ``llm_call`` event carrying the player
and the call's tokens; failed attempts that were retried are not calls. The
decisions are the runner's count per player (for a strategy-and-revision
match: each initial attempt and each revision).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def decision_cost(
    events: Sequence[dict[str, Any]], sides: Sequence[Sequence[int]], decisions: dict[int, int],
    model_players: set[int],
) -> list[dict[str, Any] | None]:
    """Returns, per side, its calls, prompt and completion tokens in all and per decision; None for a side
    without a model.

    Args:
        events: The match transcript.
        sides: Each side's players.
        decisions: Decisions taken per player.
        model_players: The players a model plays.
    """
    found: list[dict[str, Any] | None] = []
    for players in sides:
        if not any(p in model_players for p in players):
            found.append(None)
            continue
        calls = [e for e in events if e["kind"] == "llm_call" and e.get("player") in players]
        totals = {
            "decisions": sum(decisions.get(p, 0) for p in players),
            "calls": len(calls),
            "prompt_tokens": sum(int(e.get("prompt_tokens") or 0) for e in calls),
            "completion_tokens": sum(int(e.get("completion_tokens") or 0) for e in calls),
        }
        n = totals["decisions"]
        for key in ("calls", "prompt_tokens", "completion_tokens"):
            totals[f"{key}_per_decision"] = round(totals[key] / n, 6) if n else None
        found.append(totals)
    return found

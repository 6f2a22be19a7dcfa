"""The model cost of each side's decisions: calls and tokens per decision.

Every model call an agent makes (deciding, reasoning, critiquing,
negotiating, expanding a rule) goes through its player's
:class:`~stratbench.llm.session.ModelSession`, whose usage counts it once
(failed attempts that were retried are not calls). The decisions are the
runner's count per side (for a strategy-and-revision match: each initial
attempt and each revision).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

COUNTED = ("calls", "prompt_tokens", "completion_tokens")
"""The usage counts given in all and per decision."""


def decision_cost(usage: Sequence[dict[str, Any] | None], decisions: Sequence[int]) -> list[dict[str, Any] | None]:
    """Returns, per side, its calls, prompt and completion tokens (and the reasoning ones, where reported) in
    all and per decision; None for a side without a model.

    Args:
        usage: Each side's model usage (``calls``, ``prompt_tokens``, ``completion_tokens``), None for a
            side no model plays.
        decisions: Decisions taken per side.
    """
    found: list[dict[str, Any] | None] = []
    for side_usage, n in zip(usage, decisions, strict=True):
        if side_usage is None:
            found.append(None)
            continue
        totals = {"decisions": n, **{key: int(side_usage[key]) for key in COUNTED}}
        for key in COUNTED:
            totals[f"{key}_per_decision"] = round(totals[key] / n, 6) if n else None
        if side_usage.get("reasoning_tokens") is not None:  # of the completion tokens, where reported
            totals["reasoning_tokens"] = int(side_usage["reasoning_tokens"])
            totals["reasoning_tokens_per_decision"] = round(totals["reasoning_tokens"] / n, 6) if n else None
        found.append(totals)
    return found

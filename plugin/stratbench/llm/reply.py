"""Reading a model reply: its text, why it stopped, its thinking, its cache use and its tool calls."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TRUNCATION_REASONS = ("length", "max_tokens", "MAX_TOKENS")
"""Finish reasons of a reply cut by the output-token limit (litellm's, and providers' own it may pass on)."""


def is_truncation(finish_reason: str | None) -> bool:
    """Tells whether a finish reason says the output-token limit cut the reply."""
    return finish_reason in TRUNCATION_REASONS


@dataclass(frozen=True)
class ToolCall:
    """One function call in a reply."""

    id: str | None
    name: str
    arguments: str

    def parsed(self) -> dict[str, Any] | None:
        """Returns the arguments as a JSON object, or None when they are not one."""
        try:
            value = json.loads(self.arguments)
        except (TypeError, ValueError):
            return None
        return value if isinstance(value, dict) else None


@dataclass(frozen=True)
class ReplyParts:
    """What a reply holds besides its token counts."""

    text: str
    finish_reason: str | None
    truncated: bool
    reasoning_tokens: int | None
    reasoning_text: str | None
    cached_tokens: int | None
    cache_write_tokens: int | None
    tool_calls: tuple[ToolCall, ...]


def read_reply(response: Any) -> ReplyParts:
    """Reads a litellm response's first choice; a missing part reads as None (never raises)."""
    choice = response.choices[0]
    message = getattr(choice, "message", None)
    usage = getattr(response, "usage", None)
    finish = getattr(choice, "finish_reason", None)
    details = getattr(usage, "completion_tokens_details", None)
    prompt_details = getattr(usage, "prompt_tokens_details", None)
    calls = []
    for call in getattr(message, "tool_calls", None) or []:
        function = getattr(call, "function", None)
        calls.append(ToolCall(getattr(call, "id", None), str(getattr(function, "name", "") or ""),
                              str(getattr(function, "arguments", "") or "")))
    return ReplyParts(
        text=getattr(message, "content", None) or "",
        finish_reason=finish,
        truncated=is_truncation(finish),
        reasoning_tokens=_count(getattr(details, "reasoning_tokens", None)),
        reasoning_text=getattr(message, "reasoning_content", None) or None,
        cached_tokens=_count(getattr(prompt_details, "cached_tokens", None)),
        cache_write_tokens=_count(getattr(usage, "cache_creation_input_tokens", None)),
        tool_calls=tuple(calls),
    )


def _count(value: Any) -> int | None:
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None

"""Reads the parts of a model's reply from litellm's response: text, thinking, tool calls, cache counts.

litellm normalises every provider's reply into an OpenAI-style ``ModelResponse``, but not every
part lands in one place. Where litellm 1.106.2 puts each part (found by running it against
``stratbench.testing.fake_llm`` in each provider's shape):

=================  ============================================  ==========================================
part               OpenAI / Azure / DeepSeek (openai-compatible)  Anthropic / Gemini
=================  ============================================  ==========================================
finish reason      ``choice.finish_reason`` as sent ("length")   mapped: ``max_tokens`` / ``MAX_TOKENS`` ->
                                                                 "length", ``tool_use`` -> "tool_calls";
                                                                 Gemini's own in ``choice.provider_specific_
                                                                 fields["native_finish_reason"]``
reasoning tokens   ``usage.completion_tokens_details.            the same field; Gemini from
                   reasoning_tokens``                            ``thoughtsTokenCount`` (added to
                                                                 completion_tokens); Anthropic from
                                                                 ``output_tokens_details.thinking_tokens``
                                                                 when sent, else litellm's own count of the
                                                                 thinking text (0 with no thinking)
reasoning text     ``message.reasoning_content`` (DeepSeek-R1,   ``message.reasoning_content`` (joined
                   Qwen3 servers); none from the o-series        thinking), ``message.thinking_blocks``
                                                                 (Anthropic's with their ``signature``)
tool calls         ``message.tool_calls`` (content None)         the same (``tool_use`` blocks, Gemini
                                                                 ``functionCall`` parts; ids made up)
cached tokens      ``usage.prompt_tokens_details.cached_tokens``  the same, and ``usage.cache_read_input_
                   (DeepSeek also ``usage.prompt_cache_hit_      tokens``
                   tokens``)
cache writes       none                                          Anthropic: ``usage.cache_creation_input_
                                                                 tokens`` (also ``prompt_tokens_details.
                                                                 cache_creation_tokens``)
prompt tokens      include the cached ones                       include them; Anthropic's are input +
                                                                 cache reads + cache writes
=================  ============================================  ==========================================

A count the provider did not report reads as None, with one exception litellm makes: on the
Anthropic path it fills ``reasoning_tokens``, ``cache_read_input_tokens`` and
``cache_creation_input_tokens`` with 0 when the reply had no thinking and touched no cache.
Every reader here tolerates a missing attribute (None, never an error), so a reply recorded by an
older litellm, or a provider that reports less, reads as "not reported".
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

TRUNCATED_FINISH_REASONS = frozenset({"length", "max_tokens", "MAX_TOKENS"})
"""Finish reasons of a reply cut by the output-token limit: litellm's normalised one, and the
providers' own (Anthropic, Gemini) should one reach the response unmapped."""


def is_truncation(finish_reason: str | None) -> bool:
    """Tells whether a finish reason says the output-token limit cut the reply."""
    return finish_reason in TRUNCATED_FINISH_REASONS


@dataclass(frozen=True)
class ToolCall:
    """A function the model called.

    Attributes:
        id: The call's id (None when the provider gave none).
        name: The function's name.
        arguments: The arguments' JSON text as the model returned it (may be invalid JSON).
    """

    id: str | None
    name: str
    arguments: str

    def parsed(self) -> dict[str, Any] | None:
        """Returns the arguments as a dict, or None when they are not a JSON object."""
        try:
            value = json.loads(self.arguments)
        except (TypeError, ValueError):
            return None
        return value if isinstance(value, dict) else None


@dataclass(frozen=True)
class ReplyParts:
    """The parts of one reply; counts are None where the provider reported none.

    ``completion_tokens`` (read by the client) includes ``reasoning_tokens``.
    """

    text: str
    finish_reason: str | None
    truncated: bool
    reasoning_tokens: int | None
    reasoning_text: str | None
    cached_tokens: int | None
    cache_write_tokens: int | None
    tool_calls: tuple[ToolCall, ...]


def read_reply(response: Any) -> ReplyParts:
    """Reads a litellm ``ModelResponse`` (or anything shaped like it) into its parts.

    >>> read_reply(object()).tool_calls, read_reply(object()).reasoning_tokens
    ((), None)
    """
    choice = _first(_get(response, "choices"))
    message = _get(choice, "message")
    usage = _get(response, "usage")
    finish_reason = _get(choice, "finish_reason")
    finish_reason = finish_reason if isinstance(finish_reason, str) else None
    native = _get(_get(choice, "provider_specific_fields"), "native_finish_reason")
    content = _get(message, "content")
    return ReplyParts(
        text=content if isinstance(content, str) else "",
        finish_reason=finish_reason,
        truncated=finish_reason in TRUNCATED_FINISH_REASONS or native in TRUNCATED_FINISH_REASONS,
        reasoning_tokens=_count(_get(_get(usage, "completion_tokens_details"), "reasoning_tokens")),
        reasoning_text=_reasoning_text(message),
        cached_tokens=_first_count(_get(_get(usage, "prompt_tokens_details"), "cached_tokens"),
                                   _get(usage, "cache_read_input_tokens"), _get(usage, "prompt_cache_hit_tokens")),
        cache_write_tokens=_first_count(_get(usage, "cache_creation_input_tokens"),
                                        _get(_get(usage, "prompt_tokens_details"), "cache_creation_tokens")),
        tool_calls=tuple(call for call in map(_tool_call, _get(message, "tool_calls") or ()) if call is not None),
    )


def _get(value: Any, name: str) -> Any:
    """An attribute or mapping key, None when absent (litellm objects are both, and either may be missing)."""
    if value is None:
        return None
    if isinstance(value, dict):
        return value.get(name)
    try:
        return getattr(value, name, None)
    except Exception:  # a property that fails is a part not reported
        return None


def _first(values: Any) -> Any:
    try:
        return values[0] if values else None
    except (TypeError, KeyError, IndexError):
        return None


def _count(value: Any) -> int | None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        return None
    return int(value)


def _first_count(*values: Any) -> int | None:
    for value in values:
        if _count(value) is not None:
            return _count(value)
    return None


def _reasoning_text(message: Any) -> str | None:
    """``reasoning_content``, else the joined text of ``thinking_blocks``; None when there is none."""
    text = _get(message, "reasoning_content")
    if isinstance(text, str) and text:
        return text
    blocks = _get(message, "thinking_blocks")
    if not isinstance(blocks, (list, tuple)):
        return None
    thoughts = [t for t in (_get(block, "thinking") for block in blocks) if isinstance(t, str) and t]
    return "\n".join(thoughts) or None


def _tool_call(call: Any) -> ToolCall | None:
    function = _get(call, "function")
    name = _get(function, "name")
    if not isinstance(name, str):
        return None
    arguments = _get(function, "arguments")
    if not isinstance(arguments, str):  # a provider that sent an object: keep it as the JSON text it stands for
        arguments = "" if arguments is None else json.dumps(arguments)
    call_id = _get(call, "id")
    return ToolCall(id=call_id if isinstance(call_id, str) else None, name=name, arguments=arguments)

"""A model session: one agent's view of the LLM client, with logging.

It binds the model string and request settings, writes every call into the
match transcript (messages, reply, why it stopped, tokens with the
reasoning and cached ones, cost, timing, dropped settings, the thinking text
and tool calls a provider returned) and every failed attempt
(``llm_attempt_failed``: the fault, the status and the backoff waited), and
keeps the agent's own usage, retry count, truncation re-asks and the
settings its provider did not accept.

:meth:`ModelSession.answer` asks for a decision's answer: a reply the
output-token limit cut is asked for once more, briefly (purpose
``truncation_retry``); a second cut raises
:class:`~stratbench.core.types.TruncatedAnswer`. Thinking text is logged,
never sent back to the model.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratbench.core.transcript import Transcript
from stratbench.core.types import TruncatedAnswer
from stratbench.llm.client import (
    Completion,
    LLMCapabilityError,
    LLMClient,
    Usage,
    without_stable_marks,
)
from stratbench.llm.litellm_env import import_litellm

TRUNCATION_RETRY_PROMPT = (
    "Your reply was cut off by the output-token limit before it gave an answer. Reply again with only your "
    "answer, in the format asked for, and nothing else."
)
"""The user turn that asks again, once, for an answer the output-token limit cut."""

TRUNCATION_RULES = ("retry", "read")
"""``--on-truncation``: a cut answer is asked for once more (``retry``), or read as it is (``read``: the papers'
released code, and recordings made before the re-ask existed)."""

REQUEST_OPTIONS = ("temperature", "max_tokens")
"""Run options sent with every request of a model session, when set."""

AGENT_REQUEST_PARAMS = ("reasoning_effort", "thinking_budget")
"""An LLM agent's parameters (``--reasoning-effort``, ``--thinking-budget``) sent with every request."""


def request_settings(options: dict[str, Any], params: dict[str, Any] | None = None) -> dict[str, Any]:
    """The request settings of a model session: the run's temperature, max tokens and seed, and the agent's
    reasoning parameters."""
    settings: dict[str, Any] = {key: options[key] for key in REQUEST_OPTIONS if options.get(key) is not None}
    if options.get("seed") is not None:
        settings["seed"] = int(options["seed"])
    settings.update({key: value for key, value in (params or {}).items()
                     if key in AGENT_REQUEST_PARAMS and value is not None})
    return settings


@dataclass
class ModelSession:
    """Sends one agent's requests and logs them.

    Args:
        client: The shared client.
        model: The litellm model string.
        player: The player the agent acts for (for the transcript).
        transcript: The match transcript.
        settings: Default request settings (temperature, seed, max_tokens).
        vision: Whether image observations are sent to this model.
        scaffold: The scaffold that drives this session (named when the provider lacks a capability it needs).
    """

    client: LLMClient
    model: str
    player: int
    transcript: Transcript
    settings: dict[str, Any] = field(default_factory=dict)
    vision: bool = False
    scaffold: str | None = None
    usage: Usage = field(default_factory=Usage)
    retries: int = 0
    """Failed attempts that were retried."""
    dropped_params: set[str] = field(default_factory=set)
    """Requested settings the provider did not accept (left out of its requests)."""
    truncation_retries: int = 0
    """Answers asked for again because the output-token limit cut them."""
    answer_format: str = "text"
    """How the agent answers a decision: ``text``, or ``tools`` (a ``make_move`` call, ``scaffolds.tool_answer``)."""
    on_truncation: str = "retry"
    """What :meth:`answer` does with a cut answer (:data:`TRUNCATION_RULES`)."""

    async def answer(
        self, messages: list[dict[str, Any]], *, purpose: str = "act", **overrides: Any
    ) -> tuple[Completion, list[dict[str, Any]]]:
        """Asks for a decision's answer; a cut reply is asked for once more, briefly.

        Under ``on_truncation="read"`` a cut answer is returned as it is.

        Returns:
            The completion that answered and the turns added before it (the cut
            reply and the re-ask; empty when the first reply was whole).

        Raises:
            TruncatedAnswer: when the re-asked answer is cut too.
        """
        completion = await self.complete(messages, purpose=purpose, **overrides)
        if not completion.truncated or self.on_truncation == "read":
            return completion, []
        self.truncation_retries += 1
        cut = [{"role": "assistant", "content": completion.text}] if completion.text.strip() else []
        added = [*cut, {"role": "user", "content": TRUNCATION_RETRY_PROMPT}]
        again = await self.complete([*messages, *added], purpose="truncation_retry", **overrides)
        if again.truncated:
            raise TruncatedAnswer(f"{self.model}: the answer was cut by the output-token limit twice")
        return again, added

    async def complete(self, messages: list[dict[str, Any]], *, purpose: str = "act", **overrides: Any) -> Completion:
        """Sends ``messages`` and returns the completion, logging the exchange and any failed attempts.

        Raises:
            LLMCapabilityError: naming the scaffold, when the provider lacks a setting it needs.
        """
        settings = {**self.settings, **overrides}

        def failed_attempt(event: dict[str, Any]) -> None:
            if event["backoff_s"] is not None:
                self.retries += 1
            self.transcript.add("llm_attempt_failed", player=self.player, purpose=purpose, model=self.model, **event)

        try:
            completion = await self.client.complete(self.model, messages, **settings, on_failed_attempt=failed_attempt)
        except LLMCapabilityError as error:
            if self.scaffold is None:
                raise
            needed_by = f"scaffold {self.scaffold}"
            raise LLMCapabilityError(error.model, error.provider, error.params, needed_by=needed_by,
                                     detail=error.detail) from None
        self.usage.add(completion)
        self.dropped_params.update(completion.dropped_params)
        extra = reported_parts(completion)
        self.transcript.add(
            "llm_call",
            player=self.player,
            purpose=purpose,
            model=self.model,
            messages=_loggable(messages),
            settings={k: v for k, v in settings.items() if k not in ("response_format", "tools")},
            response=completion.text,
            finish_reason=completion.finish_reason,
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            cost_usd=completion.cost_usd,
            duration_s=round(completion.duration_s, 6),
            attempts=completion.attempts,
            **extra,
        )
        return completion


def reported_parts(completion: Completion) -> dict[str, Any]:
    """The parts of a call's log that only some replies have: dropped settings, thinking, cache use, tool calls."""
    parts: dict[str, Any] = {}
    if completion.dropped_params:
        parts["dropped_params"] = list(completion.dropped_params)
    for name in ("reasoning_tokens", "cached_tokens", "cache_write_tokens"):
        if getattr(completion, name) is not None:
            parts[name] = getattr(completion, name)
    if completion.reasoning_text:
        parts["reasoning"] = completion.reasoning_text
    if completion.tool_calls:
        parts["tool_calls"] = [{"id": call.id, "name": call.name, "arguments": call.arguments}
                               for call in completion.tool_calls]
    return parts


def supports_vision(model: str, mode: str = "auto") -> bool:
    """Decides whether a model gets images: ``on``, ``off``, or ``auto`` (litellm's model map)."""
    if mode in ("on", "off"):
        return mode == "on"

    litellm = import_litellm()
    try:
        return bool(litellm.supports_vision(model=model))
    except Exception:  # models missing from litellm's map
        return False


def _loggable(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Copies messages, replacing inline image data with a marker."""
    logged = []
    for message in messages:
        content = message.get("content")
        if isinstance(content, list):
            parts = []
            for part in content:
                if isinstance(part, dict) and part.get("type") == "image_url":
                    parts.append({"type": "image_url", "image_url": "<image omitted>"})
                else:
                    parts.append(part)
            logged.append({**message, "content": parts})
        else:
            logged.append(dict(message))
    return without_stable_marks(logged)

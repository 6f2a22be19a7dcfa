"""A model session: one agent's view of the LLM client, with logging.

It binds the model string and sampling settings, writes every call into the
match transcript (messages, reply, tokens, cost, timing, dropped settings)
and every failed attempt (``llm_attempt_failed``: the fault, the status and
the backoff waited), and keeps the agent's own usage, retry count and the
settings its provider did not accept.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from stratbench.core.transcript import Transcript
from stratbench.llm.client import Completion, LLMCapabilityError, LLMClient, Usage, configure_litellm_environment


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
        extra = {"dropped_params": list(completion.dropped_params)} if completion.dropped_params else {}
        self.transcript.add(
            "llm_call",
            player=self.player,
            purpose=purpose,
            model=self.model,
            messages=_loggable(messages),
            settings={k: v for k, v in settings.items() if k != "response_format"},
            response=completion.text,
            prompt_tokens=completion.prompt_tokens,
            completion_tokens=completion.completion_tokens,
            cost_usd=completion.cost_usd,
            duration_s=round(completion.duration_s, 6),
            attempts=completion.attempts,
            **extra,
        )
        return completion


def supports_vision(model: str, mode: str = "auto") -> bool:
    """Decides whether a model gets images: ``on``, ``off``, or ``auto`` (litellm's model map)."""
    if mode in ("on", "off"):
        return mode == "on"

    configure_litellm_environment()
    import litellm  # lean: litellm costs seconds; imported after configure_litellm_environment()

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
    return logged

"""The LLM client: the only place stratbench calls ``litellm.acompletion``.

It owns retries with exponential backoff on transient errors (429, 5xx,
timeouts, connection errors), fails fast on authentication errors with a
message naming the missing key, bounds concurrency per model, counts tokens
and cost, and enforces the run's cost budget. litellm is imported lazily so
collection never needs it.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.types import HarnessError
from stratbench.llm.budget import Budget
from stratbench.llm.cassettes import (
    CassetteMissError,
    describe_request,
    is_cassette_miss,
)
from stratbench.llm.local import (
    REPLAY_API_BASE,
    LocalModels,
    is_local,
    litellm_model,
    local_name,
)

PLACEHOLDER_KEY = "sk-stratbench-placeholder"
"""Sent when no key is needed: replaying a cassette, or a local ``--api-base`` server."""


class LLMError(HarnessError):
    """Raised when the model cannot be called; the message says how to fix it."""


class LLMAuthError(LLMError):
    """Raised when the provider rejects or lacks credentials."""


def configure_litellm_environment() -> None:
    """Sets the environment litellm needs for offline, recordable use.

    ``LITELLM_LOCAL_MODEL_COST_MAP`` stops a network fetch at import, and
    ``DISABLE_AIOHTTP_TRANSPORT`` routes async calls through httpx so vcrpy
    records each call once.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("DISABLE_AIOHTTP_TRANSPORT", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")


@dataclass(frozen=True)
class Completion:
    """One model answer.

    Attributes:
        text: The reply text ("" if the model returned none).
        model: The model string asked.
        prompt_tokens: Input tokens reported by the provider.
        completion_tokens: Output tokens reported by the provider.
        cost_usd: The call's cost from litellm's price map (0 if unknown).
        cost_known: Whether the price map knew the model.
        duration_s: Wall time, retries included.
        attempts: HTTP attempts made.
        finish_reason: The provider's finish reason.
        logprobs: Token log-probabilities when asked, as builtin lists.
    """

    text: str
    model: str
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float
    cost_known: bool
    duration_s: float
    attempts: int
    finish_reason: str | None = None
    logprobs: list[dict[str, Any]] | None = None


@dataclass
class Usage:
    """Running token and cost totals."""

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0

    def add(self, completion: Completion) -> None:
        """Adds one completion's usage."""
        self.calls += 1
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        self.cost_usd += completion.cost_usd

    def to_dict(self) -> dict[str, Any]:
        """Returns the totals as builtins."""
        return {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 8),
        }


@dataclass
class LLMClient:
    """Calls models through litellm with retries, concurrency limits and a budget.

    Args:
        api_base: A base URL for every call (an OpenAI-compatible server).
        max_attempts: HTTP attempts per call before giving up on transient errors.
        backoff_s: The first retry delay; it doubles per attempt, with jitter.
        timeout_s: The per-request timeout.
        max_concurrency: Calls in flight at once per model.
        budget: The run's cost budget, or None for no limit.
        allow_placeholder_key: Send a placeholder key when the provider's key is
            not set (replay, local servers) instead of failing.
    """

    api_base: str | None = None
    max_attempts: int = 5
    backoff_s: float = 1.0
    timeout_s: float = 120.0
    max_concurrency: int = 8
    budget: Budget | None = None
    allow_placeholder_key: bool = False
    cassette: str | None = None
    """The current match's cassette path, named in replay errors."""
    recording: bool = True
    """Whether calls may reach a model (False while a cassette replays: no local server starts)."""
    local: LocalModels = field(default_factory=LocalModels)
    """Servers for ``local/<name>`` models, started on the first call that needs one."""
    usage: Usage = field(default_factory=Usage)
    _semaphores: dict[tuple[int, str], asyncio.Semaphore] = field(default_factory=dict)

    def _semaphore(self, model: str) -> asyncio.Semaphore:
        key = (id(asyncio.get_running_loop()), model)
        if key not in self._semaphores:
            self._semaphores[key] = asyncio.Semaphore(self.max_concurrency)
        return self._semaphores[key]

    def missing_key(self, model: str) -> str | None:
        """Returns the environment variable(s) the model needs but lacks, or None."""
        configure_litellm_environment()
        import litellm

        try:
            report = litellm.validate_environment(model=model, api_base=self.api_base)
        except Exception:  # unknown providers: let the call itself decide
            return None
        if report.get("keys_in_environment", True):
            return None
        return " or ".join(report.get("missing_keys") or ["the provider's API key"])

    async def complete(
        self,
        model: str,
        messages: list[dict[str, Any]],
        *,
        temperature: float | None = None,
        seed: int | None = None,
        max_tokens: int | None = None,
        logprobs: bool | None = None,
        top_logprobs: int | None = None,
        response_format: dict[str, Any] | None = None,
    ) -> Completion:
        """Sends one chat request and returns the answer.

        Raises:
            BudgetExceeded: when the run's budget is spent (no call is made).
            LLMAuthError: when credentials are missing or rejected.
            CassetteMissError: in replay, when the request was not recorded.
            LLMError: when transient errors persist or the request is rejected.
        """
        configure_litellm_environment()
        import litellm

        litellm.suppress_debug_info = True
        call_model, api_base = model, self.api_base
        if is_local(model):
            call_model = litellm_model(model)
            api_base = self.local.api_base(local_name(model)) if self.recording else REPLAY_API_BASE
        kwargs: dict[str, Any] = {"model": call_model, "messages": messages, "timeout": self.timeout_s}
        for name, value in (
            ("temperature", temperature),
            ("seed", seed),
            ("max_tokens", max_tokens),
            ("logprobs", logprobs),
            ("top_logprobs", top_logprobs),
            ("response_format", response_format),
        ):
            if value is not None:
                kwargs[name] = value
        if api_base:
            kwargs["api_base"] = api_base
        if is_local(model):
            kwargs["api_key"] = PLACEHOLDER_KEY
        elif missing := self.missing_key(model):
            if not self.allow_placeholder_key:
                raise LLMAuthError(
                    f"{model}: {missing} is not set; export it, or pass --api-base for a local "
                    f"server, or replay recorded cassettes"
                )
            kwargs["api_key"] = PLACEHOLDER_KEY
        async with self._semaphore(model):
            return await self._call_with_retries(model, kwargs)

    async def _call_with_retries(self, model: str, kwargs: dict[str, Any]) -> Completion:
        import litellm

        start = time.perf_counter()
        attempt = 0
        while True:
            attempt += 1
            if self.budget is not None:
                self.budget.check()
            try:
                response = await _acompletion(kwargs)
            except Exception as error:  # classified below; nothing is swallowed
                if is_cassette_miss(error):
                    raise CassetteMissError(
                        f"cassette {self.cassette} holds no response for this request "
                        f"({describe_request(_request_body(kwargs))}); a prompt, parser or rule "
                        f"change altered it: re-record with --record-mode=all on purpose"
                    ) from None
                if isinstance(error, litellm.AuthenticationError):
                    raise LLMAuthError(f"{model}: the provider rejected the credentials ({_short(error)})") from error
                if isinstance(error, (litellm.NotFoundError,)):
                    raise LLMError(f"{model}: model not found ({_short(error)})") from error
                if not _is_transient(error, litellm) or attempt >= self.max_attempts:
                    where = f" at {self.api_base}" if self.api_base else ""
                    raise LLMError(
                        f"{model}{where}: {type(error).__name__} after {attempt} attempt(s): {_short(error)}"
                    ) from error
                delay = self.backoff_s * (2 ** (attempt - 1)) * (0.5 + random.random() / 2)
                await asyncio.sleep(delay)
                continue
            completion = _to_completion(model, response, time.perf_counter() - start, attempt, litellm)
            self.usage.add(completion)
            if self.budget is not None:
                self.budget.spend(completion.cost_usd)
            return completion


async def _acompletion(kwargs: dict[str, Any]) -> Any:
    """Calls litellm; the one call site in stratbench."""
    import litellm

    return await litellm.acompletion(**kwargs, num_retries=0, max_retries=0)


def _request_body(kwargs: dict[str, Any]) -> str:
    import json

    model = kwargs["model"].split("/", 1)[-1]
    return json.dumps({"model": model, "messages": kwargs["messages"]})


def _is_transient(error: Exception, litellm: Any) -> bool:
    transient = (
        litellm.RateLimitError,
        litellm.InternalServerError,
        litellm.ServiceUnavailableError,
        litellm.Timeout,
        litellm.APIConnectionError,
    )
    if isinstance(error, transient):
        return True
    status = getattr(error, "status_code", None)
    return isinstance(status, int) and (status == 429 or status >= 500)


def _short(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text[:300]


def _to_completion(model: str, response: Any, duration: float, attempts: int, litellm: Any) -> Completion:
    choice = response.choices[0]
    text = choice.message.content or ""
    usage = getattr(response, "usage", None)
    prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    hidden = getattr(response, "_hidden_params", None) or {}
    cost_value = hidden.get("response_cost")  # litellm prices every response once already
    if cost_value is not None:
        cost, known = float(cost_value), True
    else:
        try:
            cost, known = float(litellm.completion_cost(completion_response=response, model=model)), True
        except Exception:  # models missing from the price map
            cost, known = 0.0, False
    logprobs = None
    raw_logprobs = getattr(choice, "logprobs", None)
    if raw_logprobs is not None and getattr(raw_logprobs, "content", None):
        logprobs = [
            {
                "token": item.token,
                "logprob": float(item.logprob),
                "top": [(t.token, float(t.logprob)) for t in (item.top_logprobs or [])],
            }
            for item in raw_logprobs.content
        ]
    return Completion(
        text=text,
        model=model,
        prompt_tokens=prompt_tokens,
        completion_tokens=completion_tokens,
        cost_usd=cost,
        cost_known=known,
        duration_s=duration,
        attempts=attempts,
        finish_reason=getattr(choice, "finish_reason", None),
        logprobs=logprobs,
    )

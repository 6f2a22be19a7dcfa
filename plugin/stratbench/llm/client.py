"""The LLM client: the only place stratbench calls ``litellm.acompletion``.

It sends each provider only the request settings litellm says it accepts
(and reports the ones it dropped), keeps the user's own API key, retries
provider faults (429, 5xx, timeouts, connection errors, a reply without a
usable message) with exponential backoff and reports each failed attempt,
fails fast on authentication errors with a message naming the missing key,
bounds concurrency per model, counts tokens and cost (litellm's price map or
a ``--price`` the user gave), and enforces the run's cost budget. litellm is
imported lazily so collection never needs it.
"""

from __future__ import annotations

import asyncio
import contextvars
import dataclasses
import functools
import json
import os
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from stratbench.core.types import HarnessError
from stratbench.long_lived import long_lived_import
from stratbench.llm.budget import Budget
from stratbench.llm.limits import DEFAULT_CONCURRENCY, LimitSettings, ModelGate, estimate_tokens, known_limits
from stratbench.llm.litellm_env import import_litellm
from stratbench.llm.cassettes import (
    CassetteMissError,
    describe_request,
    is_cassette_miss,
)
from stratbench.llm.reply import ToolCall, is_truncation, read_reply
from stratbench.llm.local import (
    REPLAY_API_BASE,
    LocalModels,
    is_local,
    litellm_model,
    local_name,
)
from stratbench.redact import redact_text

PLACEHOLDER_KEY = "sk-stratbench-placeholder"
"""Sent only when the provider's key is not set and none is needed: a replayed cassette, a keyless local server."""

SAMPLING_PARAMS = ("temperature", "seed", "max_tokens", "reasoning_effort", "thinking", "tool_choice")
"""Request settings a provider may lack: they are dropped (and the drop is recorded)."""

CAPABILITY_PARAMS = ("logprobs", "top_logprobs", "response_format", "tools")
"""Request settings a request needs: a provider without one fails the call (:class:`LLMCapabilityError`)."""

REASONING_EFFORTS = ("low", "medium", "high")
"""The reasoning efforts ``--reasoning-effort`` takes (litellm's ``reasoning_effort``)."""

PROMPT_CACHE_MODES = ("auto", "off")
"""``--prompt-cache``: mark the stable prefix for providers that cache on request (``auto``), or never."""

CACHE_ON_REQUEST = ("anthropic",)
"""litellm providers that cache a prompt prefix only where the request marks it (``cache_control``)."""

AttemptListener = Callable[[dict[str, Any]], None]
"""Called with each failed attempt: attempt, attempts, failure, status, error, backoff_s (None: gave up)."""


class LLMError(HarnessError):
    """Raised when the model cannot be called; the message says how to fix it."""


class LLMAuthError(LLMError):
    """Raised when the provider rejects or lacks credentials."""


class LLMCapabilityError(LLMError):
    """Raised when a request needs a setting (``response_format``, ``logprobs``) the provider does not accept."""

    def __init__(self, model: str, provider: str, params: list[str], needed_by: str = "this request",
                 detail: str | None = None) -> None:
        self.model, self.provider, self.params, self.detail = model, provider, params, detail
        why = detail or f"litellm's supported parameters for the {provider} provider"
        hint = ""
        if "tools" in params:
            hint = "; answer with --answer-format text for this model"
        elif needed_by.startswith("scaffold"):
            hint = "; use another --scaffold for this model"
        super().__init__(f"{needed_by} needs {', '.join(params)}, which {model} does not accept ({why}){hint}")


def load_litellm() -> None:
    """Imports litellm with its environment set, and the OpenAI SDK's chat client (seconds, once per process).

    litellm's OpenAI-compatible providers (OpenAI, Azure, local servers) call
    the SDK's chat client, which the SDK imports at its first use: half a
    second inside the first model call otherwise. A later call costs nothing.
    """
    import_litellm()
    with long_lived_import("openai.resources.chat"):
        import openai.resources.chat  # noqa: F401  # lean: preloads the SDK's chat client


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
        dropped_params: Requested settings the provider does not accept, left out of the request.
        reasoning_tokens: Of ``completion_tokens``, those the model spent thinking; None when not reported.
        reasoning_text: The visible thinking a provider returned (reasoning content, thinking blocks), or None.
        cached_tokens: Of ``prompt_tokens``, those read from the provider's prompt cache; None when not reported.
        cache_write_tokens: Prompt tokens written to the provider's cache; None when not reported.
        tool_calls: The functions the model called.
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
    dropped_params: tuple[str, ...] = ()
    reasoning_tokens: int | None = None
    reasoning_text: str | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None
    tool_calls: tuple[ToolCall, ...] = ()

    @property
    def truncated(self) -> bool:
        """Tells whether the output-token limit cut the reply (finish reason ``length``)."""
        return is_truncation(self.finish_reason)


REPORTED_COUNTS = ("reasoning_tokens", "cached_tokens", "cache_write_tokens")
"""Token counts only some providers report: a total stays None until a call reports one."""


@dataclass
class Usage:
    """Running token and cost totals.

    ``reasoning_tokens`` are part of ``completion_tokens`` and ``cached_tokens``
    part of ``prompt_tokens``; each of :data:`REPORTED_COUNTS` is None until a
    call reports it.
    """

    calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    cost_usd: float = 0.0
    reasoning_tokens: int | None = None
    cached_tokens: int | None = None
    cache_write_tokens: int | None = None

    def add(self, completion: Completion) -> None:
        """Adds one completion's usage."""
        self.calls += 1
        self.prompt_tokens += completion.prompt_tokens
        self.completion_tokens += completion.completion_tokens
        self.cost_usd += completion.cost_usd
        for name in REPORTED_COUNTS:
            value = getattr(completion, name)
            if value is not None:
                setattr(self, name, (getattr(self, name) or 0) + value)

    def to_dict(self) -> dict[str, Any]:
        """Returns the totals as builtins (a count no call reported is left out)."""
        totals: dict[str, Any] = {
            "calls": self.calls,
            "prompt_tokens": self.prompt_tokens,
            "completion_tokens": self.completion_tokens,
            "cost_usd": round(self.cost_usd, 8),
        }
        totals.update({name: getattr(self, name) for name in REPORTED_COUNTS if getattr(self, name) is not None})
        return totals


@dataclass(frozen=True)
class MatchCalls:
    """How the calls of the match in whose context they are made are sent.

    Attributes:
        cassette: The match's cassette path, named in replay errors.
        recording: Whether calls may reach a model (False while a cassette replays).
        allow_placeholder_key: Whether a placeholder key may stand in for a missing one.
    """

    cassette: str | None
    recording: bool
    allow_placeholder_key: bool


class MatchActivity:
    """What a match is doing that its time limit needs to know: model calls under way (with their backoff)."""

    def __init__(self) -> None:
        self.model_calls = 0


current_activity: contextvars.ContextVar[MatchActivity | None] = contextvars.ContextVar(
    "stratbench_match_activity", default=None)
"""The activity of the match whose context this is; :meth:`LLMClient.complete` counts its calls in it."""

match_calls: contextvars.ContextVar[MatchCalls | None] = contextvars.ContextVar("stratbench_match_calls", default=None)
"""The current match's :class:`MatchCalls` (None: the client's own attributes hold)."""


@dataclass
class LLMClient:
    """Calls models through litellm with retries, concurrency limits and a budget.

    Args:
        api_base: A base URL for every call (an OpenAI-compatible server, or a provider's own endpoint).
        max_attempts: HTTP attempts per call before giving up on provider faults.
        backoff_s: The first retry delay; it doubles per attempt, with jitter.
        timeout_s: The per-request timeout.
        max_concurrency: Calls in flight at once per model, when ``limits`` names none for it.
        limits: Per-model concurrency, RPM and TPM limits (``--model-concurrency``, ``--model-rpm``, ``--model-tpm``).
        budget: The run's cost budget, or None for no limit.
        allow_placeholder_key: Send a placeholder key when the provider's key is
            not set (replay, local servers) instead of failing; a key the user set
            is always sent as it is.
        prices: USD per token (input, output) by model string, overriding litellm's price map.
    """

    api_base: str | None = None
    max_attempts: int = 5
    backoff_s: float = 1.0
    timeout_s: float = 120.0
    max_concurrency: int = DEFAULT_CONCURRENCY
    limits: LimitSettings = field(default_factory=LimitSettings)
    budget: Budget | None = None
    allow_placeholder_key: bool = False
    prices: dict[str, tuple[float, float]] = field(default_factory=dict)
    cassette: str | None = None
    """The current match's cassette path, named in replay errors."""
    recording: bool = True
    """Whether calls may reach a model (False while a cassette replays: no local server starts)."""
    local: LocalModels = field(default_factory=LocalModels)
    """Servers for ``local/<name>`` models, started on the first call that needs one."""
    prompt_cache: str = "auto"
    """``auto``: mark the stable prefix of a request for providers that cache on request; ``off``: never."""
    usage: Usage = field(default_factory=Usage)
    _gates: dict[tuple[int, str], ModelGate] = field(default_factory=dict)

    def gate(self, model: str) -> ModelGate:
        """Returns the model's gate on the running loop, shared by every match of the process."""
        key = (id(asyncio.get_running_loop()), model)
        if key not in self._gates:
            limits = self.limits.for_model(model, known_limits(model))
            if model not in self.limits.concurrency and "*" not in self.limits.concurrency:
                limits = dataclasses.replace(limits, concurrency=self.max_concurrency)
            self._gates[key] = ModelGate(limits)
        return self._gates[key]

    def calls(self) -> MatchCalls:
        """Returns how the current match's calls are sent (the client's own attributes outside a match)."""
        current = match_calls.get()
        return current if current is not None else MatchCalls(self.cassette, self.recording, self.allow_placeholder_key)

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
        reasoning_effort: str | None = None,
        thinking_budget: int | None = None,
        tools: list[dict[str, Any]] | None = None,
        tool_choice: Any = None,
        on_failed_attempt: AttemptListener | None = None,
    ) -> Completion:
        """Sends one chat request and returns the answer.

        Settings the provider does not accept are left out: sampling and
        reasoning settings (temperature, seed, max_tokens, reasoning_effort,
        the thinking budget, sent as litellm's ``thinking``) are dropped and
        named in ``Completion.dropped_params``; a needed capability (logprobs,
        response_format, tools) fails the call instead. For a provider that
        caches on request (:data:`CACHE_ON_REQUEST`), the stable prefix is
        marked (:func:`mark_cache_prefix`) unless ``prompt_cache`` is ``off``.

        Raises:
            BudgetExceeded: when the run's budget is spent (no call is made).
            LLMAuthError: when credentials are missing or rejected.
            LLMCapabilityError: when the provider lacks a capability the request needs.
            CassetteMissError: in replay, when the request was not recorded.
            LLMError: when provider faults persist or the request is rejected.
        """
        litellm = import_litellm()
        litellm.suppress_debug_info = True
        calls = self.calls()
        call_model, api_base = model, self.api_base
        if is_local(model):
            call_model = litellm_model(model)
            api_base = self.local.api_base(local_name(model)) if calls.recording else REPLAY_API_BASE
        requested = {
            "temperature": temperature,
            "seed": seed,
            "max_tokens": max_tokens,
            "logprobs": logprobs,
            "top_logprobs": top_logprobs,
            "response_format": response_format,
            "reasoning_effort": reasoning_effort,
            "thinking": None if thinking_budget is None else {"type": "enabled", "budget_tokens": int(thinking_budget)},
            "tools": tools,
            "tool_choice": tool_choice,
        }
        requested = {name: value for name, value in requested.items() if value is not None}
        accepted = accepted_params(call_model)
        refused = [name for name in requested if accepted is not None and name not in accepted]
        needed = [name for name in refused if name in CAPABILITY_PARAMS]
        provider = provider_of(call_model)
        if needed:
            raise LLMCapabilityError(model, provider or "model's", needed)
        if self.prompt_cache != "off" and provider in CACHE_ON_REQUEST:
            messages = mark_cache_prefix(messages)
        else:
            messages = without_stable_marks(messages)
        kwargs: dict[str, Any] = {"model": call_model, "messages": messages, "timeout": self.timeout_s}
        refused += thinking_conflicts(provider, requested, refused)
        kwargs.update({name: value for name, value in requested.items() if name not in refused})
        if api_base:
            kwargs["api_base"] = api_base
        if is_local(model):
            kwargs["api_key"] = PLACEHOLDER_KEY
        else:
            credentials, settings = missing_environment(model, api_base)
            if credentials:
                if not calls.allow_placeholder_key:
                    raise LLMAuthError(
                        f"{model}: {' or '.join(credentials)} is not set; export it, or pass --api-base for a "
                        f"local server, or replay recorded cassettes"
                    )
                kwargs["api_key"] = PLACEHOLDER_KEY  # no key of the user's is set: nothing is replaced
            if settings and calls.recording:
                hint = " (or pass --api-base)" if any("API_BASE" in name for name in settings) else ""
                raise LLMAuthError(f"{model}: {' and '.join(settings)} is not set; export it{hint}")
        activity = current_activity.get()
        if activity is not None:
            activity.model_calls += 1
        try:
            completion = await self._call_with_retries(model, kwargs, on_failed_attempt, calls.cassette)
        finally:
            if activity is not None:
                activity.model_calls -= 1
        if refused:
            completion = dataclasses.replace(completion, dropped_params=tuple(refused))
        return completion

    async def _call_with_retries(
        self, model: str, kwargs: dict[str, Any], on_failed_attempt: AttemptListener | None,
        cassette: str | None = None,
    ) -> Completion:
        import litellm  # lean: litellm costs seconds; a worker imports it at its first model call

        start = time.perf_counter()
        attempt = 0
        gate = self.gate(model)
        tokens = estimate_tokens(kwargs["messages"], kwargs.get("max_tokens")) if gate.limits.tpm else 0
        while True:
            attempt += 1
            if self.budget is not None:
                self.budget.check()
            await gate.acquire(tokens)
            pause: float | None = None
            try:
                response = await _acompletion(kwargs)
            except (asyncio.CancelledError, GeneratorExit):  # the match was cancelled: its slot is free again
                gate.release(ok=False)
                raise
            except Exception as error:  # classified below; nothing is swallowed
                gate.release(ok=False)
                pause = _retry_after(error)
                if is_cassette_miss(error):
                    raise CassetteMissError(
                        f"cassette {cassette} holds no response for this request "
                        f"({describe_request(_request_body(kwargs))}); a prompt, parser or rule "
                        f"change altered it: re-record with --record-mode=all on purpose"
                    ) from None
                if isinstance(error, litellm.AuthenticationError):
                    raise LLMAuthError(f"{model}: the provider rejected the credentials ({_short(error)})") from error
                if isinstance(error, (litellm.NotFoundError,)):
                    raise LLMError(f"{model}: model not found ({_short(error)})") from error
                failure = classify_failure(error, litellm)
                if failure is None:
                    where = f" at {redact_text(self.api_base)}" if self.api_base else ""
                    raise LLMError(
                        f"{model}{where}: {type(error).__name__} after {attempt} attempt(s): {_short(error)}"
                    ) from error
                status, detail = _status_of(error, failure), _short(error)
                label = fault_label(error, failure, status, kwargs.get("timeout"))
            else:
                gate.release(ok=True)
                problem = unusable_reply(response)
                if problem is None:
                    completion = _to_completion(
                        model, response, time.perf_counter() - start, attempt, litellm, self.prices.get(model)
                    )
                    self.usage.add(completion)
                    if self.budget is not None:
                        self.budget.spend(completion.cost_usd)
                    return completion
                failure, status, detail, label = "no_message", 200, problem, "no message in the reply"
            retrying = attempt < self.max_attempts
            delay = self.backoff_s * (2 ** (attempt - 1)) * (0.5 + random.random() / 2) if retrying else None
            if failure == "429":
                gate.throttle(pause or delay or self.backoff_s)
            if on_failed_attempt is not None:
                on_failed_attempt({
                    "attempt": attempt,
                    "attempts": self.max_attempts,
                    "failure": failure,
                    "label": label,
                    "status": status,
                    "error": detail,
                    "backoff_s": None if delay is None else round(delay, 3),
                })
            if delay is None:
                where = f" at {redact_text(self.api_base)}" if self.api_base else ""
                raise LLMError(f"{model}{where}: {label} after {attempt} attempt(s): {detail}")
            await asyncio.sleep(delay)


FAILURE_KINDS = ("429", "5xx", "timeout", "connection", "unreadable", "no_message")
"""The provider faults that are retried, as named in transcripts."""

_UNREADABLE = (ValueError, KeyError, AttributeError)
"""Errors raised while reading a reply (bad JSON, bad UTF-8, a missing field): the body was unreadable."""

_UNREADABLE_MESSAGES = ("Empty or invalid response from LLM endpoint",)
"""What litellm (pinned) says, with a made-up status 500, when an OpenAI-style reply body is not a chat
completion: an HTML page or plain text sent with status 200 (a proxy's login page, a wrong path)."""

_CONNECTION_ERRORS = ("ConnectionError", "ClientConnectionError", "TransportError", "APIConnectionError")
"""Exception classes (the standard library's, aiohttp's, httpx's, the OpenAI SDK's and litellm's) of a
connection that failed or broke; litellm reports most of them as an ``InternalServerError`` with status 500."""


def thinking_conflicts(provider: str | None, requested: dict[str, Any], refused: list[str]) -> list[str]:
    """Returns the requested settings a provider refuses while it thinks (dropped and recorded like the others).

    Anthropic's extended thinking takes no temperature but its default
    ("temperature may only be set to 1 when thinking is enabled") and no
    forced tool choice (only its default, ``auto``).
    """
    thinking = any(name in requested and name not in refused for name in ("thinking", "reasoning_effort"))
    if provider != "anthropic" or not thinking:
        return []
    return [name for name in ("temperature", "tool_choice") if name in requested and name not in refused]


STABLE_CHARS = "stratbench_stable_chars"
"""A message's private key (never sent): its text's first N characters are the same at every decision of
the match (the rules before the position), a prefix worth caching."""

CACHE_MARK = {"type": "ephemeral"}


def without_stable_marks(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns the messages without :data:`STABLE_CHARS` (the same list when none has it)."""
    if not any(STABLE_CHARS in message for message in messages):
        return messages
    return [{k: v for k, v in message.items() if k != STABLE_CHARS} for message in messages]


def mark_cache_prefix(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Returns the messages with their stable prefix marked for the provider's cache (a copy; no private keys).

    Two breakpoints, as Anthropic takes them (``cache_control: ephemeral`` on a
    text block; litellm passes it through): the end of everything before the
    last user turn (the system prompt, the conversation so far: a long game
    resends it with every decision), and, inside the last user turn, the end
    of its stable characters (:data:`STABLE_CHARS`: the rules), which then
    become a block of their own. A tool result is never marked.
    """
    marked = without_stable_marks(messages)
    marked = [dict(message) for message in marked]
    last_user = max((i for i, m in enumerate(marked) if m.get("role") == "user"), default=None)
    end = (last_user if last_user is not None else len(marked)) - 1
    if end >= 0 and marked[end].get("role") != "tool" and not marked[end].get("tool_calls"):
        blocks = _text_blocks(marked[end].get("content"))
        texts = [i for i, part in enumerate(blocks) if isinstance(part, dict) and part.get("type") == "text"]
        if texts:
            blocks[texts[-1]] = {**blocks[texts[-1]], "cache_control": CACHE_MARK}
            marked[end]["content"] = blocks
    stable = messages[last_user].get(STABLE_CHARS) if last_user is not None else None
    content = marked[last_user]["content"] if last_user is not None else None
    if isinstance(stable, int) and isinstance(content, str) and 0 < stable < len(content):
        marked[last_user]["content"] = [{"type": "text", "text": content[:stable], "cache_control": CACHE_MARK},
                                        {"type": "text", "text": content[stable:]}]
    if marked == [dict(message) for message in messages]:
        return messages
    return marked


def _text_blocks(content: Any) -> list[Any]:
    """A message's content as a list of blocks (a copy); none for empty content."""
    if isinstance(content, str):
        return [{"type": "text", "text": content}] if content else []
    if isinstance(content, list):
        return [dict(part) if isinstance(part, dict) else part for part in content]
    return []


def classify_failure(error: BaseException, litellm: Any) -> str | None:
    """Returns the provider-fault kind of a failed call (one of :data:`FAILURE_KINDS`), or None.

    The kind is read from the whole exception chain, not from litellm's
    class alone: litellm reports a refused or reset connection and an
    unreadable 200 reply as a 500. None means the request itself was refused
    (4xx other than 429), which a retry would not change.
    """
    causes = _causes(error)
    if any(isinstance(cause, _UNREADABLE) for cause in causes[1:]) or any(
            marker in str(cause) for cause in causes for marker in _UNREADABLE_MESSAGES):
        return "unreadable"
    if isinstance(error, litellm.Timeout) or any(isinstance(cause, TimeoutError) for cause in causes):
        return "timeout"
    status = getattr(error, "status_code", None)
    if isinstance(error, litellm.RateLimitError) or status == 429:
        return "429"
    if any(_is_a(cause, _CONNECTION_ERRORS) for cause in causes):
        return "connection"
    if isinstance(error, (litellm.InternalServerError, litellm.ServiceUnavailableError)):
        return "5xx"
    if isinstance(status, int) and status >= 500:
        return "5xx"
    return None


def fault_label(error: BaseException, failure: str, status: int | None, timeout_s: Any = None) -> str:
    """Names a provider fault for its reason line: what it was, in words a user can act on.

    ``connection refused`` / ``reset`` / ``closed`` (the server went away or
    dropped the request), ``timeout (no answer within S s)``, ``unreadable reply body``,
    ``5xx server error (HTTP 503)``, ``429 rate limit``.
    """
    if failure == "connection":
        causes = _causes(error)
        if any(isinstance(cause, ConnectionRefusedError) for cause in causes):
            return "connection refused"
        if any(isinstance(cause, ConnectionResetError) for cause in causes):
            return "connection reset"
        if any(_is_a(cause, ("ServerDisconnectedError", "RemoteProtocolError")) for cause in causes):
            return "connection closed by the server before it answered"
        return "connection failed"
    if failure == "timeout":
        return f"timeout (no answer within {timeout_s:g} s)" if isinstance(timeout_s, (int, float)) else "timeout"
    if failure == "unreadable":
        return "unreadable reply body"
    if failure == "5xx":
        return f"5xx server error (HTTP {status})" if status is not None else "5xx server error"
    if failure == "429":
        return "429 rate limit"
    return failure


def _is_a(error: BaseException, names: tuple[str, ...]) -> bool:
    """Tells whether the error's class or one of its bases has one of these names (no import of their modules)."""
    return any(cls.__name__ in names for cls in type(error).__mro__)


def unusable_reply(response: Any) -> str | None:
    """Says why a successful HTTP reply carries no usable message, or returns None.

    No choices, or a choice with neither content nor a tool call (unless the
    model itself stopped there: finish reason ``stop`` or ``length``), is a
    provider fault. A model's own empty answer is its answer.
    """
    choices = getattr(response, "choices", None) or []
    if not choices:
        return "the reply has no choices"
    choice = choices[0]
    message = getattr(choice, "message", None)
    if message is None:
        return "the reply's choice has no message"
    if message.content is None and not getattr(message, "tool_calls", None):
        if getattr(choice, "finish_reason", None) not in ("stop", "length"):
            return f"the reply has no content and no tool call (finish reason {choice.finish_reason!r})"
    return None


def _causes(error: BaseException) -> list[BaseException]:
    chain: list[BaseException] = []
    current: BaseException | None = error
    while current is not None and current not in chain and len(chain) < 10:
        chain.append(current)
        current = current.__cause__ or current.__context__
    return chain


def _status_of(error: BaseException, failure: str) -> int | None:
    if failure not in ("429", "5xx"):
        return None  # litellm puts a made-up status on timeouts, connection and decoding errors
    status = getattr(error, "status_code", None)
    return status if isinstance(status, int) else None


def provider_of(model: str) -> str | None:
    """Returns litellm's provider name for a model string, or None when litellm cannot tell."""
    litellm = import_litellm()
    try:
        return str(litellm.get_llm_provider(model)[1])
    except Exception:  # litellm raises several types for unknown providers
        return None


@functools.lru_cache(maxsize=256)
def accepted_params(model: str) -> frozenset[str] | None:
    """Returns the OpenAI-style parameters litellm sends for this model's provider, or None if unknown."""
    litellm = import_litellm()
    try:
        name, provider, _, _ = litellm.get_llm_provider(model)
        supported = litellm.get_supported_openai_params(model=name, custom_llm_provider=provider)
    except Exception:  # unknown providers: send everything and let the provider decide
        return None
    return frozenset(supported) if supported else None


def missing_environment(model: str, api_base: str | None) -> tuple[list[str], list[str]]:
    """Returns what the provider needs from the environment and lacks: (credentials, other settings).

    litellm's own check is confirmed against ``os.environ``: a variable the
    user has set is never reported missing (litellm 1.106 reports Azure's
    variables missing even when they are set).
    """
    litellm = import_litellm()
    try:
        report = litellm.validate_environment(model=model, api_base=api_base)
    except Exception:  # unknown providers: let the call itself decide
        return [], []
    if report.get("keys_in_environment", True):
        return [], []
    reported = [str(name) for name in report.get("missing_keys") or []]
    if not reported:
        return ["the provider's API key"], []
    listed = [name for name in reported if _is_credential(name)]
    # litellm lists alternatives (GOOGLE_API_KEY, GEMINI_API_KEY): one that is set is the user's key.
    credentials = [] if any(os.environ.get(name) for name in listed) else listed
    settings = [name for name in reported if not _is_credential(name) and not os.environ.get(name)]
    return credentials, settings


def _is_credential(name: str) -> bool:
    return any(word in name for word in ("KEY", "TOKEN", "SECRET", "PASSWORD"))


async def _acompletion(kwargs: dict[str, Any]) -> Any:
    """Calls litellm; the one call site in stratbench."""
    import litellm  # lean: litellm costs seconds; a worker imports it at its first model call

    if kwargs.get("tools"):
        # litellm (pinned 1.106.2) routes any request with tools through its MCP bridge first, which imports
        # the optional ``mcp`` package and fails without it; stratbench's tools are plain functions.
        kwargs = {**kwargs, "_skip_mcp_handler": True}
    return await litellm.acompletion(**kwargs, num_retries=0, max_retries=0)


def _request_body(kwargs: dict[str, Any]) -> str:
    model = kwargs["model"].split("/", 1)[-1]
    return json.dumps({"model": model, "messages": kwargs["messages"]})


def _retry_after(error: BaseException) -> float | None:
    """Returns the seconds a 429's ``Retry-After`` header asks for, or None."""
    response = getattr(error, "response", None)
    headers = getattr(response, "headers", None) or {}
    try:
        value = float(headers.get("retry-after") or headers.get("Retry-After") or "")
    except (TypeError, ValueError):
        return None
    return value if value > 0 else None


def _short(error: BaseException) -> str:
    """Returns an error's text on one line, at most 300 characters, with any URL's credentials masked."""
    text = redact_text(" ".join(str(error).split()))
    return text[:300]


_UNPRICED: set[str] = set()
"""Models litellm's price map could not price (the map does not change within a process)."""


def _to_completion(
    model: str,
    response: Any,
    duration: float,
    attempts: int,
    litellm: Any,
    price: tuple[float, float] | None = None,
) -> Completion:
    choice = response.choices[0]
    parts = read_reply(response)
    text = parts.text
    usage = getattr(response, "usage", None)
    prompt_tokens = int(getattr(usage, "prompt_tokens", 0) or 0)
    completion_tokens = int(getattr(usage, "completion_tokens", 0) or 0)
    hidden = getattr(response, "_hidden_params", None) or {}
    cost_value = hidden.get("response_cost")  # litellm prices every response once already
    if price is not None:  # the user's --price wins over the price map
        cost, known = prompt_tokens * price[0] + completion_tokens * price[1], True
    elif cost_value is not None:
        cost, known = float(cost_value), True
    elif model in _UNPRICED:  # litellm already failed to price it: asking again costs milliseconds per call
        cost, known = 0.0, False
    else:
        try:
            cost, known = float(litellm.completion_cost(completion_response=response, model=model)), True
        except Exception:  # models missing from the price map
            cost, known = 0.0, False
            _UNPRICED.add(model)
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
        finish_reason="length" if parts.truncated else parts.finish_reason,  # a provider's own cut reason too
        logprobs=logprobs,
        reasoning_tokens=parts.reasoning_tokens,
        reasoning_text=parts.reasoning_text,
        cached_tokens=parts.cached_tokens,
        cache_write_tokens=parts.cache_write_tokens,
        tool_calls=parts.tool_calls,
    )

"""A loopback chat server for tests and benchmarks, speaking four providers' APIs.

It answers, with content from a *responder* function:

- OpenAI: ``POST /v1/chat/completions`` (or ``/chat/completions``); the
  ``Authorization: Bearer`` key is checked only when ``api_key`` is set (a
  keyless local server accepts any);
- Azure OpenAI: ``POST /openai/deployments/<d>/chat/completions?api-version=V``
  with an ``api-key`` header;
- Anthropic Messages: ``POST /v1/messages`` with ``x-api-key`` and
  ``anthropic-version`` headers;
- Gemini: ``POST [/v1beta]/models/<m>:generateContent`` with the key in an
  ``x-goog-api-key`` header or a ``key`` query parameter;

and ``GET /v1/models``. A request that asks for ``logprobs`` on the OpenAI
or Azure path gets them (:func:`logprobs_content`): a responder may return a
:class:`ScriptedReply` naming its first token's top alternatives. A missing or wrong key gets a 401 in the provider's
own error shape. Every request is turned into an OpenAI-style body
(``{"model", "messages", ...}``, with ``tools``/``tool_choice`` and earlier
tool calls and results as OpenAI's) before the responder sees it, so one
responder serves every provider. Every request is recorded (path, lower-cased
headers, the OpenAI-style body and the body as sent). Optional faults, drawn
from a seeded generator, make a share of requests fail. The server binds to
127.0.0.1 on a free port and never reaches any other address.

A :class:`ScriptedReply` also answers as today's models do, in each provider's shape:

- thinking: OpenAI's ``usage.completion_tokens_details.reasoning_tokens`` (and,
  with ``reasoning_shape="deepseek"``, ``message.reasoning_content``),
  Anthropic's ``thinking`` blocks, Gemini's ``thought`` parts and
  ``thoughtsTokenCount``; completion tokens include the thinking;
- an answer cut by the output limit (``truncate_at_max_tokens``, or scripted):
  finish reason ``length``, ``max_tokens`` or ``MAX_TOKENS``;
- a tool call: ``message.tool_calls``, a ``tool_use`` block or a
  ``functionCall`` part (:func:`tool_legal_responder` calls the request's tool
  with a legal action);
- prompt caching (``cache``): cached-token counts in OpenAI's, DeepSeek's,
  Gemini's and Anthropic's fields, Anthropic's only for prefixes marked with
  ``cache_control``, written first and read after.

Token counts are word counts: one word, one token.

Examples:
    >>> with FakeLLMServer(responder=lambda body: "4") as server:  # doctest: +SKIP
    ...     server.api_base   # 'http://127.0.0.1:PORT/v1'
"""

from __future__ import annotations

import hashlib
import json
import random
import re
import socket
import struct
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit



@dataclass(frozen=True)
class ScriptedReply:
    """A reply a responder scripts beyond its text.

    Attributes:
        text: The answer.
        top_logprobs: The top alternatives of its first token (token, log-probability), for ``logprobs`` requests.
        reasoning: Visible thinking text, reported in each provider's shape before the answer.
        reasoning_tokens: The thinking tokens reported (default: the words of ``reasoning``); given alone,
            hidden thinking (OpenAI's o-series) is reported as a count only. Anthropic's path reports a
            count only when one is set here (in ``output_tokens_details.thinking_tokens``); otherwise its
            client counts the thinking text, as with the real API.
        tool_call: The (function name, arguments) the model calls; a non-empty ``text`` goes with it.
            A tool call is never cut by the output limit.
        truncate: The answer was cut by the output limit (``text`` is what came before the cut).
    """

    text: str
    top_logprobs: tuple[tuple[str, float], ...] = ()
    reasoning: str | None = None
    reasoning_tokens: int | None = None
    tool_call: tuple[str, dict[str, Any]] | None = None
    truncate: bool = False

    @property
    def thinking_tokens(self) -> int | None:
        """Returns the reasoning tokens to report, or None when the reply has no thinking."""
        if self.reasoning_tokens is not None:
            return self.reasoning_tokens
        return len(self.reasoning.split()) if self.reasoning else None


Responder = Callable[[dict[str, Any]], "str | ScriptedReply"]

_LEGAL_LIST = re.compile(r"Legal actions:\s*(.+)")
_GEMINI_PATH = re.compile(r"/models/([^/:]+):generateContent$")
_AZURE_PATH = re.compile(r"/openai/deployments/([^/]+)/chat/completions$")

FAULT_KINDS = ("429", "500", "503", "hang", "non_utf8", "no_message", "html", "reset")
"""Faults the server can inject: HTTP 429, 500 or 503, no answer, a body not in UTF-8, a 200 without a
message, a 200 with an HTML page (a proxy's login page), a connection reset once the request is read."""

REASONING_SHAPES = ("openai", "deepseek")
"""How the OpenAI-compatible path reports thinking (see :class:`FakeLLMServer`)."""

CACHE_MODES = ("off", "auto", "on_request")
"""The server's prompt-caching rules (see :class:`PromptCache`)."""

HTML_BODY = b"<html><head><title>Sign in</title></head><body>Sign in to continue</body></html>"

NON_UTF8_BODY = b'{"choices": "\xff\xfe\xfd not utf-8 \x80"}'


class _LoopbackHTTPServer(ThreadingHTTPServer):
    """A threading server whose listen backlog takes a burst of concurrent clients.

    The standard backlog (5) drops the SYNs of a larger burst; the client then
    retries after a second, which a benchmark of concurrent agents would
    measure as model latency.
    """

    request_queue_size = 128


def first_legal_responder(body: dict[str, Any]) -> str:
    """Answers with a legal action read from the last user message.

    The action is chosen by hashing the prompt, so the same prompt always gets
    the same answer. It looks for a line ``Legal actions: a, b, c``.
    """
    text = _last_user_text(body)
    match = None
    for match in _LEGAL_LIST.finditer(text):
        pass
    if match is None:
        return "I am not sure."
    actions = [a.strip() for a in match.group(1).split(",") if a.strip()]
    if not actions:
        return "I am not sure."
    digest = hashlib.sha256(text.encode()).digest()
    return f"Action: {actions[digest[0] % len(actions)]}"


def tool_legal_responder(body: dict[str, Any]) -> str | ScriptedReply:
    """Calls the request's first tool with a legal action.

    The actions are the ``enum`` of the first tool's first string parameter,
    else a line ``Legal actions: a, b, c`` in the last user message; one is
    chosen by hashing that message, as :func:`first_legal_responder` does.
    A request without tools gets :func:`first_legal_responder`'s text answer.
    """
    tools = body.get("tools") or []
    function = (tools[0].get("function") or {}) if tools and isinstance(tools[0], dict) else {}
    if not function.get("name"):
        return first_legal_responder(body)
    properties = (function.get("parameters") or {}).get("properties") or {}
    strings = [(name, spec) for name, spec in properties.items()
               if isinstance(spec, dict) and spec.get("type") == "string"]
    parameter, spec = strings[0] if strings else ("action", {})
    actions = [str(a) for a in spec.get("enum") or []]
    text = _last_user_text(body)
    if not actions:
        listed = list(_LEGAL_LIST.finditer(text))
        actions = [a.strip() for a in listed[-1].group(1).split(",") if a.strip()] if listed else []
    if not actions:
        return "I am not sure."
    digest = hashlib.sha256(text.encode()).digest()
    return ScriptedReply("", tool_call=(function["name"], {parameter: actions[digest[0] % len(actions)]}))


def _last_user_text(body: dict[str, Any]) -> str:
    for message in reversed(body.get("messages", [])):
        if message.get("role") == "user":
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(p.get("text", "") for p in content if isinstance(p, dict))
            return str(content)
    return ""


@dataclass
class Faults:
    """Makes a share of requests fail, drawn from a seeded generator.

    Args:
        rate: The share of requests that fail (0 to 1).
        kinds: The faults to choose from (see :data:`FAULT_KINDS`), uniformly.
        seed: Seeds the generator, so a run fails the same requests again.
        hang_s: How long a ``hang`` holds the request before closing it unanswered.
    """

    rate: float = 0.0
    kinds: tuple[str, ...] = ("429", "500")
    seed: int = 0
    hang_s: float = 30.0
    _rng: random.Random = field(init=False, repr=False)

    def __post_init__(self) -> None:
        unknown = [kind for kind in self.kinds if kind not in FAULT_KINDS]
        if unknown or not 0.0 <= self.rate <= 1.0:
            raise ValueError(f"faults: rate must be in [0, 1] and kinds in {FAULT_KINDS}, got {self.rate}, {unknown}")
        self._rng = random.Random(self.seed)

    def draw(self) -> str | None:
        """Returns the fault for the next request, or None."""
        fails = self._rng.random() < self.rate
        kind = self._rng.choice(self.kinds)
        return kind if fails else None


@dataclass
class RecordedRequest:
    """One request the server received.

    Attributes:
        path: The request path with its query string.
        headers: The headers, names lower-cased.
        body: The request as an OpenAI-style chat body (what the responder saw).
        provider: ``openai``, ``azure``, ``anthropic``, ``gemini`` or ``unknown``.
        raw: The JSON body as sent.
        fault: The injected fault answered instead, if any.
    """

    path: str
    headers: dict[str, str]
    body: dict[str, Any]
    provider: str = "openai"
    raw: dict[str, Any] = field(default_factory=dict)
    fault: str | None = None


@dataclass
class FakeLLMServer:
    """Serves chat completions on loopback from a responder function.

    Args:
        responder: Maps the OpenAI-style request body to the reply text or a
            :class:`ScriptedReply`.
        fail_first: Answer this many requests with ``fail_status`` first
            (to exercise client retries).
        fail_status: The HTTP status of those failures (429, 500, ...).
        delay_s: Sleep this long before each answer.
        api_key: The one key every provider path accepts; None accepts any
            non-empty key (and, on the OpenAI path, none).
        faults: Injected faults, or None.
        logprobs: Whether a request that asks for ``logprobs`` gets them (False: a server that ignores them).
        model_faults: A fault (one of :data:`FAULT_KINDS`) that every request for the named model gets,
            by the model name in the request body (``"m"`` for ``openai/m``).
        reasoning_shape: How the OpenAI-compatible path reports a reply's thinking: ``openai`` (the
            o-series: a reasoning-token count only) or ``deepseek`` (DeepSeek-R1, Qwen3 servers: also
            ``message.reasoning_content``, and DeepSeek's cache-hit counts).
        truncate_at_max_tokens: Whether a reply longer than the request's output limit is cut to it
            (thinking first, then the answer; one word is one token) and reported as cut.
        cache: Prompt caching: ``off``; ``auto`` (OpenAI, DeepSeek, Gemini: the longest message-list
            prefix of an earlier request for the model is read from the cache); ``on_request``
            (Anthropic: only prefixes ending at a block or message with ``cache_control``). Either
            rule applies on every path; each path reports the counts in its provider's fields.
    """

    responder: Responder = first_legal_responder
    fail_first: int = 0
    fail_status: int = 500
    delay_s: float = 0.0
    api_key: str | None = None
    faults: Faults | None = None
    logprobs: bool = True
    model_faults: dict[str, str] = field(default_factory=dict)
    reasoning_shape: str = "openai"
    truncate_at_max_tokens: bool = False
    cache: str = "off"
    requests: list[RecordedRequest] = field(default_factory=list)
    in_flight: int = 0
    """Requests being answered now."""
    most_in_flight: int = 0
    """The most requests it was answering at once."""
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _stopping: threading.Event = field(default_factory=threading.Event)
    prompt_cache: PromptCache = field(init=False, repr=False)
    """The prefixes cached so far (per model), under the ``cache`` mode."""

    def __post_init__(self) -> None:
        if self.reasoning_shape not in REASONING_SHAPES:
            raise ValueError(f"reasoning_shape: expected one of {REASONING_SHAPES}, got {self.reasoning_shape!r}")
        if self.cache not in CACHE_MODES:
            raise ValueError(f"cache: expected one of {CACHE_MODES}, got {self.cache!r}")
        self.prompt_cache = PromptCache(self.cache)

    @property
    def port(self) -> int:
        """Returns the bound port."""
        assert self._server is not None, "server not started"
        return self._server.server_address[1]

    @property
    def base_url(self) -> str:
        """Returns ``http://127.0.0.1:PORT`` (Anthropic's and Azure's ``--api-base``)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        """Returns the OpenAI-style base URL, ending in ``/v1``."""
        return f"{self.base_url}/v1"

    @property
    def gemini_api_base(self) -> str:
        """Returns Gemini's base URL, ending in ``/v1beta`` as Google's does."""
        return f"{self.base_url}/v1beta"

    def start(self) -> FakeLLMServer:
        """Starts serving in a daemon thread."""
        self._stopping.clear()
        handler = _make_handler(self)
        self._server = _LoopbackHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stops the server, ends hanging requests and closes its socket."""
        self._stopping.set()
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


# -- the providers' shapes ---------------------------------------------------------


def provider_of_path(path: str) -> str:
    """Tells which provider's API a request path belongs to."""
    if _AZURE_PATH.search(path):
        return "azure"
    if path.endswith("chat/completions"):
        return "openai"
    if path.endswith("/v1/messages"):
        return "anthropic"
    if _GEMINI_PATH.search(path):
        return "gemini"
    return "unknown"


def to_openai_body(provider: str, path: str, raw: dict[str, Any]) -> dict[str, Any]:
    """Turns a provider's request body into an OpenAI-style chat body.

    Tools and the tool choice become OpenAI's ``tools``/``tool_choice``; earlier
    tool calls and their results in the conversation (Anthropic ``tool_use``/
    ``tool_result`` blocks, Gemini ``functionCall``/``functionResponse`` parts)
    become assistant ``tool_calls`` and ``tool`` messages.
    """
    if provider == "anthropic":
        messages = [m for message in raw.get("messages", []) for m in _from_anthropic(message)]
        if raw.get("system"):
            messages.insert(0, {"role": "system", "content": _text_of(raw["system"])})
        body = {k: v for k, v in raw.items() if k not in ("messages", "system", "tools", "tool_choice")}
        body["messages"] = messages
        if raw.get("tools"):
            body["tools"] = [_function(t.get("name"), t.get("description"), t.get("input_schema"))
                             for t in raw["tools"] if isinstance(t, dict)]
        if isinstance(raw.get("tool_choice"), dict):
            body["tool_choice"] = _choice_from_anthropic(raw["tool_choice"])
        return body
    if provider == "gemini":
        messages = [m for content in raw.get("contents", []) for m in _from_gemini(content)]
        system = raw.get("systemInstruction") or raw.get("system_instruction")
        if system:
            messages.insert(0, {"role": "system", "content": _text_of(system.get("parts"))})
        config = dict(raw.get("generationConfig") or raw.get("generation_config") or {})
        renamed = {"max_output_tokens": "max_tokens", "maxOutputTokens": "max_tokens"}
        body = {renamed.get(k, k): v for k, v in config.items()}
        match = _GEMINI_PATH.search(path)
        body = {"model": match.group(1) if match else "gemini", **body, "messages": messages}
        declarations = [d for tool in raw.get("tools") or [] if isinstance(tool, dict)
                        for d in tool.get("functionDeclarations") or tool.get("function_declarations") or []]
        if declarations:
            body["tools"] = [_function(d.get("name"), d.get("description"), d.get("parameters")) for d in declarations]
        calling = (raw.get("toolConfig") or raw.get("tool_config") or {})
        calling = calling.get("functionCallingConfig") or calling.get("function_calling_config")
        if isinstance(calling, dict):
            body["tool_choice"] = _choice_from_gemini(calling)
        return body
    if provider == "azure":
        match = _AZURE_PATH.search(path)
        return {"model": match.group(1) if match else "azure", **raw}
    return raw


def _function(name: Any, description: Any, parameters: Any) -> dict[str, Any]:
    function = {"name": name, "description": description, "parameters": parameters}
    return {"type": "function", "function": {k: v for k, v in function.items() if v is not None}}


def _tool_call(call_id: Any, name: Any, arguments: Any) -> dict[str, Any]:
    return {"id": call_id, "type": "function", "function": {"name": name, "arguments": json.dumps(arguments)}}


def _from_anthropic(message: dict[str, Any]) -> list[dict[str, Any]]:
    """One Anthropic message as OpenAI messages (its tool results first, as OpenAI orders them)."""
    role, content = message.get("role", "user"), message.get("content")
    if not isinstance(content, list):
        return [{"role": role, "content": _text_of(content)}]
    blocks = [b for b in content if isinstance(b, dict)]
    uses = [b for b in blocks if b.get("type") == "tool_use"]
    results = [b for b in blocks if b.get("type") == "tool_result"]
    rest = [b for b in blocks if b.get("type") not in ("tool_use", "tool_result", "thinking", "redacted_thinking")]
    converted = [{"role": "tool", "tool_call_id": r.get("tool_use_id"), "content": _text_of(r.get("content"))}
                 for r in results]
    if uses:
        calls = [_tool_call(u.get("id"), u.get("name"), u.get("input") or {}) for u in uses]
        converted.append({"role": "assistant", "content": _text_of(rest) or None, "tool_calls": calls})
    elif rest or not results:
        converted.append({"role": role, "content": _text_of(rest)})
    return converted


def _from_gemini(content: dict[str, Any]) -> list[dict[str, Any]]:
    """One Gemini content as OpenAI messages; a call's id is its function name (Gemini has no ids).

    Parts come in the REST API's camelCase or the snake_case its JSON parser also takes (litellm sends that).
    """
    role = "assistant" if content.get("role") == "model" else "user"
    parts = [p for p in content.get("parts") or [] if isinstance(p, dict)]
    calls = [c for c in (p.get("functionCall") or p.get("function_call") for p in parts) if isinstance(c, dict)]
    answers = [a for a in (p.get("functionResponse") or p.get("function_response") for p in parts)
               if isinstance(a, dict)]
    tool_keys = {"functionCall", "function_call", "functionResponse", "function_response"}
    rest = [p for p in parts if not tool_keys & set(p) and not p.get("thought")]
    converted = [{"role": "tool", "tool_call_id": a.get("name"), "content": json.dumps(a.get("response"))}
                 for a in answers]
    if calls:
        tool_calls = [_tool_call(c.get("name"), c.get("name"), c.get("args") or {}) for c in calls]
        converted.append({"role": "assistant", "content": _text_of(rest) or None, "tool_calls": tool_calls})
    elif rest or not answers:
        converted.append({"role": role, "content": _text_of(rest)})
    return converted


def _choice_from_anthropic(choice: dict[str, Any]) -> str | dict[str, Any]:
    kind = choice.get("type")
    if kind == "tool":
        return {"type": "function", "function": {"name": choice.get("name")}}
    return {"any": "required", "none": "none"}.get(str(kind), "auto")


def _choice_from_gemini(calling: dict[str, Any]) -> str | dict[str, Any]:
    mode = str(calling.get("mode", "AUTO")).upper()
    names = calling.get("allowedFunctionNames") or calling.get("allowed_function_names") or []
    if mode == "ANY" and len(names) == 1:
        return {"type": "function", "function": {"name": names[0]}}
    return {"ANY": "required", "NONE": "none"}.get(mode, "auto")


def _text_of(content: Any) -> str:
    """Joins the text of a string, a list of text blocks/parts, or a dict with ``text``."""
    if isinstance(content, str):
        return content
    if isinstance(content, dict):
        return str(content.get("text", ""))
    if isinstance(content, list):
        return "\n".join(_text_of(part) for part in content if isinstance(part, (str, dict)))
    return ""


def logprobs_content(text: str, top: tuple[tuple[str, float], ...], top_n: int) -> list[dict[str, Any]]:
    """Returns OpenAI's ``logprobs.content`` for ``text``, deterministically.

    The tokens are the text's words, each but the first with its leading
    whitespace. The first token's alternatives are ``top`` (sorted by
    log-probability, highest first; the token itself at 0.0 when empty) and
    its log-probability is the one listed for it, else the highest listed;
    every later token has log-probability 0.0 and itself as its only
    alternative. Each list of alternatives keeps ``top_n`` entries.
    """
    content = []
    for position, token in enumerate(re.findall(r"\s*\S+", text)):
        alternatives = sorted(top, key=lambda item: -item[1]) if position == 0 and top else [(token, 0.0)]
        logprob = dict(alternatives).get(token, alternatives[0][1])
        content.append({
            "token": token, "logprob": logprob, "bytes": list(token.encode()),
            "top_logprobs": [{"token": t, "logprob": lp, "bytes": list(t.encode())} for t, lp in alternatives[:top_n]],
        })
    return content


def prompt_tokens_of(body: dict[str, Any]) -> int:
    """Counts a request's prompt tokens as the words of its messages' text."""
    return sum(len(_text_of(m.get("content")).split()) for m in body.get("messages", []) if isinstance(m, dict))


def _pieces(text: str) -> list[str]:
    """The text's words, each but the first with its leading whitespace (the server's tokens)."""
    return re.findall(r"\s*\S+", text)


def _cut(scripted: ScriptedReply, limit: int | None) -> tuple[str, str | None, int | None, bool]:
    """Cuts a text reply to the output limit: thinking is spent first, the answer gets the rest.

    Returns the answer, the thinking text, the thinking tokens and whether the reply was cut.
    """
    text, reasoning, thinking = scripted.text, scripted.reasoning, scripted.thinking_tokens
    words = _pieces(text)
    if limit is None or scripted.tool_call is not None or limit >= (thinking or 0) + len(words):
        return text, reasoning, thinking, scripted.truncate
    if thinking is not None and limit < thinking:
        reasoning = "".join(_pieces(reasoning)[:limit]).lstrip() if reasoning else reasoning
        thinking = limit
    return "".join(words[: limit - (thinking or 0)]), reasoning, thinking, True


def _max_tokens(body: dict[str, Any]) -> int | None:
    value = body.get("max_completion_tokens") or body.get("max_tokens")
    return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _reply(provider: str, body: dict[str, Any], scripted: ScriptedReply | str, digest: str, *,
           logprobs: bool = True, reasoning_shape: str = "openai", truncate_at_max_tokens: bool = False,
           cache: tuple[int, int] | None = None) -> dict[str, Any]:
    """The reply in the provider's shape.

    ``cache`` is (prompt tokens read from the cache, prompt tokens written to it), None when the
    server caches nothing. Completion tokens include the reasoning tokens.
    """
    scripted = scripted if isinstance(scripted, ScriptedReply) else ScriptedReply(scripted)
    prompt_tokens = prompt_tokens_of(body)
    content, reasoning, thinking, truncated = _cut(scripted, _max_tokens(body) if truncate_at_max_tokens else None)
    call = scripted.tool_call
    answer_tokens = len(json.dumps(call[1]).split()) if call else len(content.split())
    completion_tokens = max(1, answer_tokens + (thinking or 0))
    read, written = cache if cache is not None else (0, 0)
    model = body.get("model", "fake")
    if provider == "anthropic":
        blocks: list[dict[str, Any]] = []
        if reasoning:
            blocks.append({"type": "thinking", "thinking": reasoning, "signature": f"sig_{digest}"})
        if content or call is None:
            blocks.append({"type": "text", "text": content})
        if call is not None:
            blocks.append({"type": "tool_use", "id": f"toolu_{digest}", "name": call[0], "input": call[1]})
        usage = {"input_tokens": max(0, prompt_tokens - read - written), "output_tokens": completion_tokens}
        if cache is not None:
            usage.update(cache_creation_input_tokens=written, cache_read_input_tokens=read)
        if scripted.reasoning_tokens is not None:  # a count the script set (else the client counts the text)
            usage["output_tokens_details"] = {"thinking_tokens": thinking}
        stop = "tool_use" if call else "max_tokens" if truncated else "end_turn"
        return {
            "id": f"msg_{digest}", "type": "message", "role": "assistant", "model": model,
            "content": blocks, "stop_reason": stop, "stop_sequence": None, "usage": usage,
        }
    if provider == "gemini":
        parts: list[dict[str, Any]] = [{"text": reasoning, "thought": True}] if reasoning else []
        if content or call is None:
            parts.append({"text": content})
        if call is not None:
            parts.append({"functionCall": {"name": call[0], "args": call[1]}})
        metadata = {"promptTokenCount": prompt_tokens, "candidatesTokenCount": completion_tokens - (thinking or 0),
                    "totalTokenCount": prompt_tokens + completion_tokens}
        if thinking is not None:
            metadata["thoughtsTokenCount"] = thinking
        if cache is not None:
            metadata["cachedContentTokenCount"] = read
        return {
            "candidates": [{"content": {"parts": parts, "role": "model"},
                            "finishReason": "MAX_TOKENS" if truncated else "STOP", "index": 0}],
            "usageMetadata": metadata,
            "modelVersion": model,
        }
    message: dict[str, Any] = {"role": "assistant", "content": content}
    if call is not None:
        message = {"role": "assistant", "content": content or None,
                   "tool_calls": [_tool_call(f"call_{digest}", call[0], call[1])]}
    if reasoning and reasoning_shape == "deepseek":
        message["reasoning_content"] = reasoning
    finish = "tool_calls" if call else "length" if truncated else "stop"
    choice: dict[str, Any] = {"index": 0, "message": message, "finish_reason": finish}
    if body.get("logprobs") and logprobs:
        choice["logprobs"] = {"content": logprobs_content(content, scripted.top_logprobs,
                                                          int(body.get("top_logprobs") or 0))}
    usage = {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
             "total_tokens": prompt_tokens + completion_tokens}
    if thinking is not None:
        usage["completion_tokens_details"] = {"reasoning_tokens": thinking}
    if cache is not None:
        usage["prompt_tokens_details"] = {"cached_tokens": read}
        if reasoning_shape == "deepseek":
            usage.update(prompt_cache_hit_tokens=read, prompt_cache_miss_tokens=prompt_tokens - read)
    return {
        "id": f"chatcmpl-{digest}", "object": "chat.completion", "created": 1700000000, "model": model,
        "choices": [choice], "usage": usage,
    }


# -- prompt caching ------------------------------------------------------------------


@dataclass
class PromptCache:
    """The prompt prefixes a server has cached, per model.

    ``auto`` caches every request's messages: a later request reads the
    longest message-list prefix it shares with an earlier one. ``on_request``
    caches only prefixes that end at a block or message carrying
    ``cache_control``: the first request with such a prefix writes it, later
    ones read it (the longest one stored).
    """

    mode: str = "off"
    _prefixes: dict[str, set[str]] = field(default_factory=dict)

    def use(self, provider: str, body: dict[str, Any], raw: dict[str, Any]) -> tuple[int, int] | None:
        """Returns (tokens read, tokens written) for a request and stores its prefixes; None when off."""
        if self.mode == "off":
            return None
        model = str(body.get("model"))
        stored = self._prefixes.setdefault(model, set())
        if self.mode == "auto":
            segments = [(json.dumps(m, sort_keys=True), len(_text_of(m.get("content")).split()), True)
                        for m in body.get("messages", []) if isinstance(m, dict)]
        else:
            segments = _cache_segments(provider, raw)
        running, total, marks = hashlib.sha256(model.encode()), 0, []
        for text, tokens, marked in segments:
            running.update(text.encode())
            total += tokens
            if marked:
                marks.append((running.hexdigest(), total))
        read = max((tokens for key, tokens in marks if key in stored), default=0)
        written = marks[-1][1] - read if self.mode == "on_request" and marks and marks[-1][0] not in stored else 0
        stored.update(key for key, _ in marks)
        return read, written


def _cache_segments(provider: str, raw: dict[str, Any]) -> list[tuple[str, int, bool]]:
    """The prompt's blocks in order as (its JSON without ``cache_control``, its tokens, whether it is marked).

    A message's last block is marked when the message itself carries ``cache_control``.
    """
    if provider not in ("anthropic", "openai", "azure"):
        return []
    messages = [m for m in raw.get("messages", []) if isinstance(m, dict)]
    if provider == "anthropic" and raw.get("system"):
        messages.insert(0, {"role": "system", "content": raw["system"]})
    segments = []
    for message in messages:
        content = message.get("content")
        blocks = [b for b in content if isinstance(b, dict)] if isinstance(content, list) else [{"text": content}]
        for position, block in enumerate(blocks):
            marked = "cache_control" in block or (position == len(blocks) - 1 and "cache_control" in message)
            text = _text_of(block.get("content")) if block.get("type") == "tool_result" else _text_of(block)
            unmarked = {k: v for k, v in block.items() if k != "cache_control"}
            segments.append((json.dumps([message.get("role"), unmarked], sort_keys=True), len(text.split()), marked))
    return segments


def _no_message(provider: str, body: dict[str, Any], digest: str) -> dict[str, Any]:
    """A 200 reply that carries no message, in the provider's shape."""
    reply = _reply(provider, body, ScriptedReply(""), digest)
    if provider == "anthropic":
        del reply["content"]
    elif provider == "gemini":
        reply["candidates"] = []
    else:
        reply["choices"] = []
    return reply


def _error(provider: str, status: int, message: str) -> dict[str, Any]:
    """An error body in the provider's shape."""
    if provider == "anthropic":
        kinds = {401: "authentication_error", 429: "rate_limit_error", 400: "invalid_request_error"}
        kind = kinds.get(status, "api_error")
        return {"type": "error", "error": {"type": kind, "message": message}}
    if provider == "gemini":
        state = {401: "UNAUTHENTICATED", 429: "RESOURCE_EXHAUSTED", 400: "INVALID_ARGUMENT", 404: "NOT_FOUND"}
        return {"error": {"code": status, "message": message, "status": state.get(status, "INTERNAL")}}
    if provider == "azure":
        return {"error": {"code": str(status), "message": message}}
    kind = {401: "invalid_request_error", 429: "rate_limit_error"}.get(status, "server_error")
    return {"error": {"message": message, "type": kind, "code": "invalid_api_key" if status == 401 else None}}


def _auth_problem(
    owner: FakeLLMServer, provider: str, headers: dict[str, str], query: dict[str, list[str]]
) -> tuple[int, str] | None:
    """Checks the credentials each provider expects; returns (status, message) when they fail."""
    if provider == "anthropic":
        if not headers.get("anthropic-version"):
            return 400, "anthropic-version: header is required"
        key = headers.get("x-api-key", "")
    elif provider == "gemini":
        key = headers.get("x-goog-api-key") or (query.get("key") or [""])[0]
    elif provider == "azure":
        if not (query.get("api-version") or [""])[0]:
            return 400, "Missing required query parameter: api-version"
        key = headers.get("api-key", "")
    else:
        if owner.api_key is None:
            return None  # a keyless local server
        key = headers.get("authorization", "").removeprefix("Bearer ").strip()
    if not key or (owner.api_key is not None and key != owner.api_key):
        names = {"anthropic": "x-api-key", "gemini": "x-goog-api-key", "azure": "api-key"}
        header = names.get(provider, "Authorization")
        return 401, f"missing or invalid API key ({header})"
    return None


def _make_handler(owner: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"
        disable_nagle_algorithm = True
        """Headers and body go out in two writes: with Nagle's algorithm the body waits for the
        client's delayed ACK, adding about 40 ms to every answer (more than the client's own work)."""

        def log_message(self, *args: object) -> None:  # silence stderr
            pass

        def _send(self, status: int, payload: dict[str, Any] | bytes, content_type: str = "application/json") -> None:
            data = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def do_GET(self) -> None:  # noqa: N802 - http.server naming
            if self.path.rstrip("/").endswith("/models"):
                self._send(200, {"object": "list", "data": [{"id": "fake", "object": "model"}]})
            else:
                self._send(404, {"error": {"message": "not found"}})

        def do_POST(self) -> None:  # noqa: N802 - http.server naming
            length = int(self.headers.get("Content-Length", "0"))
            raw_bytes = self.rfile.read(length)
            url = urlsplit(self.path)
            provider = provider_of_path(url.path.rstrip("/"))
            try:
                raw = json.loads(raw_bytes or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error(provider, 400, "body is not JSON"))
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            query = parse_qs(url.query)
            body = to_openai_body(provider, url.path, raw) if isinstance(raw, dict) else {}
            recorded = RecordedRequest(self.path, headers, body, provider, raw if isinstance(raw, dict) else {})
            with lock:
                owner.requests.append(recorded)
                failing = owner.fail_first > 0
                if failing:
                    owner.fail_first -= 1
                fault = owner.faults.draw() if owner.faults is not None and not failing else None
                fault = owner.model_faults.get(str(body.get("model")), fault)
                recorded.fault = fault or (str(owner.fail_status) if failing else None)
                owner.in_flight += 1
                owner.most_in_flight = max(owner.most_in_flight, owner.in_flight)
            try:
                self._answer(provider, raw_bytes, recorded.raw, headers, query, body, failing, fault)
            finally:
                with lock:
                    owner.in_flight -= 1

        def _answer(self, provider: str, raw_bytes: bytes, raw: dict[str, Any], headers: dict[str, str],
                    query: dict[str, list[str]], body: dict[str, Any], failing: bool, fault: str | None) -> None:
            if owner.delay_s:
                time.sleep(owner.delay_s)
            if provider == "unknown":
                self._send(404, _error("openai", 404, f"unknown path {self.path}"))
                return
            problem = _auth_problem(owner, provider, headers, query)
            if problem is not None:
                self._send(problem[0], _error(provider, problem[0], problem[1]))
                return
            if failing:
                self._send(owner.fail_status, _error(provider, owner.fail_status, "injected failure"))
                return
            digest = hashlib.sha256(raw_bytes).hexdigest()[:12]
            if fault in ("429", "500", "503"):
                self._send(int(fault), _error(provider, int(fault), "injected failure"))
                return
            if fault == "hang":
                owner._stopping.wait(owner.faults.hang_s if owner.faults is not None else Faults.hang_s)
                self.close_connection = True  # no answer: the client's timeout decides
                return
            if fault == "html":
                self._send(200, HTML_BODY, content_type="text/html")
                return
            if fault == "reset":  # a zero linger time makes close() send a reset, not an orderly FIN
                self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                self.close_connection = True
                return
            if fault == "non_utf8":
                self._send(200, NON_UTF8_BODY)
                return
            if fault == "no_message":
                self._send(200, _no_message(provider, body, digest))
                return
            answer = owner.responder(body)
            scripted = answer if isinstance(answer, ScriptedReply) else ScriptedReply(answer)
            with lock:
                cache = owner.prompt_cache.use(provider, body, raw)
            self._send(200, _reply(provider, body, scripted, digest, logprobs=owner.logprobs,
                                   reasoning_shape=owner.reasoning_shape,
                                   truncate_at_max_tokens=owner.truncate_at_max_tokens, cache=cache))

    return Handler

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
(``{"model", "messages", ...}``) before the responder sees it, so one
responder serves every provider. Every request is recorded (path, lower-cased
headers, the OpenAI-style body and the body as sent). Optional faults, drawn
from a seeded generator, make a share of requests fail. The server binds to
127.0.0.1 on a free port and never reaches any other address.

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
    """A reply with the top alternatives of its first token (token, log-probability), for ``logprobs`` requests."""

    text: str
    top_logprobs: tuple[tuple[str, float], ...] = ()


Responder = Callable[[dict[str, Any]], "str | ScriptedReply"]

_LEGAL_LIST = re.compile(r"Legal actions:\s*(.+)")
_GEMINI_PATH = re.compile(r"/models/([^/:]+):generateContent$")
_AZURE_PATH = re.compile(r"/openai/deployments/([^/]+)/chat/completions$")

FAULT_KINDS = ("429", "500", "503", "hang", "non_utf8", "no_message", "html", "reset")
"""Faults the server can inject: HTTP 429, 500 or 503, no answer, a body not in UTF-8, a 200 without a
message, a 200 with an HTML page (a proxy's login page), a connection reset once the request is read."""

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
    """

    responder: Responder = first_legal_responder
    fail_first: int = 0
    fail_status: int = 500
    delay_s: float = 0.0
    api_key: str | None = None
    faults: Faults | None = None
    logprobs: bool = True
    model_faults: dict[str, str] = field(default_factory=dict)
    requests: list[RecordedRequest] = field(default_factory=list)
    in_flight: int = 0
    """Requests being answered now."""
    most_in_flight: int = 0
    """The most requests it was answering at once."""
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None
    _stopping: threading.Event = field(default_factory=threading.Event)

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
    """Turns a provider's request body into an OpenAI-style chat body."""
    if provider == "anthropic":
        messages = [
            {"role": m.get("role", "user"), "content": _text_of(m.get("content"))} for m in raw.get("messages", [])
        ]
        if raw.get("system"):
            messages.insert(0, {"role": "system", "content": _text_of(raw["system"])})
        return {**{k: v for k, v in raw.items() if k not in ("messages", "system")}, "messages": messages}
    if provider == "gemini":
        messages = [
            {"role": "assistant" if c.get("role") == "model" else "user", "content": _text_of(c.get("parts"))}
            for c in raw.get("contents", [])
        ]
        system = raw.get("systemInstruction") or raw.get("system_instruction")
        if system:
            messages.insert(0, {"role": "system", "content": _text_of(system.get("parts"))})
        config = dict(raw.get("generationConfig") or raw.get("generation_config") or {})
        renamed = {"max_output_tokens": "max_tokens", "maxOutputTokens": "max_tokens"}
        body = {renamed.get(k, k): v for k, v in config.items()}
        match = _GEMINI_PATH.search(path)
        return {"model": match.group(1) if match else "gemini", **body, "messages": messages}
    if provider == "azure":
        match = _AZURE_PATH.search(path)
        return {"model": match.group(1) if match else "azure", **raw}
    return raw


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


def _reply(provider: str, body: dict[str, Any], content: str, digest: str,
           top: tuple[tuple[str, float], ...] = (), logprobs: bool = True) -> dict[str, Any]:
    prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
    completion_tokens = max(1, len(content.split()))
    model = body.get("model", "fake")
    if provider == "anthropic":
        return {
            "id": f"msg_{digest}", "type": "message", "role": "assistant", "model": model,
            "content": [{"type": "text", "text": content}], "stop_reason": "end_turn", "stop_sequence": None,
            "usage": {"input_tokens": prompt_tokens, "output_tokens": completion_tokens},
        }
    if provider == "gemini":
        return {
            "candidates": [{"content": {"parts": [{"text": content}], "role": "model"}, "finishReason": "STOP",
                            "index": 0}],
            "usageMetadata": {"promptTokenCount": prompt_tokens, "candidatesTokenCount": completion_tokens,
                              "totalTokenCount": prompt_tokens + completion_tokens},
            "modelVersion": model,
        }
    choice: dict[str, Any] = {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
    if body.get("logprobs") and logprobs:
        choice["logprobs"] = {"content": logprobs_content(content, top, int(body.get("top_logprobs") or 0))}
    return {
        "id": f"chatcmpl-{digest}", "object": "chat.completion", "created": 1700000000, "model": model,
        "choices": [choice],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
                  "total_tokens": prompt_tokens + completion_tokens},
    }


def _no_message(provider: str, body: dict[str, Any], digest: str) -> dict[str, Any]:
    """A 200 reply that carries no message, in the provider's shape."""
    reply = _reply(provider, body, "", digest)
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
                self._answer(provider, raw_bytes, headers, query, body, failing, fault)
            finally:
                with lock:
                    owner.in_flight -= 1

        def _answer(self, provider: str, raw_bytes: bytes, headers: dict[str, str],
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
            self._send(200, _reply(provider, body, scripted.text, digest, scripted.top_logprobs, owner.logprobs))

    return Handler

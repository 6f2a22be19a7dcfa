"""A loopback OpenAI-compatible chat server for tests and benchmarks.

It answers ``POST /v1/chat/completions`` (and ``/chat/completions``) with a
``chat.completion`` object whose content comes from a *responder* function, and
``GET /v1/models``. It records every request (headers and JSON body) so tests can
check what a client sent. It binds to 127.0.0.1 on a free port and never
reaches any other address.

Examples:
    >>> with FakeLLMServer(responder=lambda body: "4") as server:  # doctest: +SKIP
    ...     server.api_base   # 'http://127.0.0.1:PORT/v1'
"""

from __future__ import annotations

import hashlib
import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Responder = Callable[[dict[str, Any]], str]

_LEGAL_LIST = re.compile(r"Legal actions:\s*(.+)")


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
class RecordedRequest:
    """One request the server received."""

    path: str
    headers: dict[str, str]
    body: dict[str, Any]


@dataclass
class FakeLLMServer:
    """Serves chat completions on loopback from a responder function.

    Args:
        responder: Maps the request JSON to the reply text.
        fail_first: Answer this many requests with ``fail_status`` first
            (to exercise client retries).
        fail_status: The HTTP status of those failures (429, 500, ...).
        delay_s: Sleep this long before each answer.
    """

    responder: Responder = first_legal_responder
    fail_first: int = 0
    fail_status: int = 500
    delay_s: float = 0.0
    requests: list[RecordedRequest] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _thread: threading.Thread | None = None

    @property
    def port(self) -> int:
        """Returns the bound port."""
        assert self._server is not None, "server not started"
        return self._server.server_address[1]

    @property
    def api_base(self) -> str:
        """Returns the OpenAI-style base URL, ending in ``/v1``."""
        return f"http://127.0.0.1:{self.port}/v1"

    def start(self) -> FakeLLMServer:
        """Starts serving in a daemon thread."""
        handler = _make_handler(self)
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stops the server and closes its socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None

    def __enter__(self) -> FakeLLMServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def _make_handler(owner: FakeLLMServer) -> type[BaseHTTPRequestHandler]:
    lock = threading.Lock()

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: object) -> None:  # silence stderr
            pass

        def _send(self, status: int, payload: dict[str, Any]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
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
            raw = self.rfile.read(length)
            try:
                body = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                self._send(400, {"error": {"message": "body is not JSON"}})
                return
            with lock:
                owner.requests.append(
                    RecordedRequest(self.path, {k.lower(): v for k, v in self.headers.items()}, body)
                )
                failing = owner.fail_first > 0
                if failing:
                    owner.fail_first -= 1
            if owner.delay_s:
                time.sleep(owner.delay_s)
            if failing:
                self._send(owner.fail_status, {"error": {"message": "injected failure", "type": "server_error"}})
                return
            if not self.path.rstrip("/").endswith("chat/completions"):
                self._send(404, {"error": {"message": f"unknown path {self.path}"}})
                return
            content = owner.responder(body)
            prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in body.get("messages", []))
            completion_tokens = max(1, len(content.split()))
            self._send(
                200,
                {
                    "id": "chatcmpl-" + hashlib.sha256(raw).hexdigest()[:12],
                    "object": "chat.completion",
                    "created": 1700000000,
                    "model": body.get("model", "fake"),
                    "choices": [
                        {
                            "index": 0,
                            "message": {"role": "assistant", "content": content},
                            "finish_reason": "stop",
                        }
                    ],
                    "usage": {
                        "prompt_tokens": prompt_tokens,
                        "completion_tokens": completion_tokens,
                        "total_tokens": prompt_tokens + completion_tokens,
                    },
                },
            )

    return Handler

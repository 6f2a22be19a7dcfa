"""The page's HTTP server: loopback only, every request carrying the run's one-time token.

Routes (each needs ``?token=<token>``, else 403):

- ``GET /``: the page (:mod:`stratbench.human_web.page`);
- ``GET /state``: the table's view as JSON (polled by the page every second);
- ``POST /move``: ``{"decision": N, "move": "text"}``; 200 ``{"ok": true}`` or 400 ``{"ok": false, "error": ...}``.

The server binds 127.0.0.1 only, so no other machine reaches it; the token
(``secrets.token_urlsafe``) keeps other users of this machine from acting for
the person.
"""

from __future__ import annotations

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, urlsplit

from stratbench.human_web.page import HEADER_CSP, page_html
from stratbench.human_web.table import HumanTable

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
"""The largest move request read (a Diplomacy order list is a few hundred bytes)."""


class PortInUse(OSError):
    """Raised when the page's port cannot be bound."""


class HumanWebServer:
    """Serves one :class:`HumanTable` on 127.0.0.1 in a daemon thread.

    Args:
        table: The shared state.
        port: The port (0: a free one the system picks).
        token: The secret every request must carry (default: a fresh ``secrets.token_urlsafe(24)``).

    Raises:
        PortInUse: when ``port`` cannot be bound.
    """

    def __init__(self, table: HumanTable, port: int = 0, token: str | None = None) -> None:
        self.table = table
        self.token = token or secrets.token_urlsafe(24)
        handler = type("Handler", (_Handler,), {"table": table, "token": self.token})
        try:
            self._server = ThreadingHTTPServer((HOST, port), handler)
        except OSError as error:
            raise PortInUse(f"--port {port}: cannot listen on {HOST}:{port} ({error.strerror or error})") from None
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, name="stratbench-human-web", daemon=True)

    @property
    def port(self) -> int:
        """The port listened on."""
        return int(self._server.server_address[1])

    @property
    def url(self) -> str:
        """The page's address, with its token."""
        return f"http://{HOST}:{self.port}/?token={self.token}"

    def start(self) -> HumanWebServer:
        """Starts serving in the background."""
        self._thread.start()
        return self

    def stop(self) -> None:
        """Ends every wait on the table and stops serving (the thread is joined)."""
        self.table.close()
        if self._thread.is_alive():
            self._server.shutdown()
            self._thread.join(timeout=10)
        self._server.server_close()


class _Handler(BaseHTTPRequestHandler):
    table: HumanTable
    token: str
    server_version = "stratbench"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Silent: a poll a second would flood the terminal."""

    def _authorised(self) -> bool:
        given = parse_qs(urlsplit(self.path).query).get("token", [""])[0]
        if secrets.compare_digest(given.encode("utf-8"), self.token.encode("utf-8")):
            return True
        self._send(403, "text/plain; charset=utf-8", b"forbidden: this page needs the token from its address\n")
        return False

    def _send(self, status: int, kind: str, body: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", HEADER_CSP)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, "application/json", json.dumps(value).encode("utf-8"))

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if not self._authorised():
            return
        route = urlsplit(self.path).path
        if route == "/":
            self._send(200, "text/html; charset=utf-8", page_html().encode("utf-8"))
        elif route == "/state":
            self._json(200, self.table.view())
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        if not self._authorised():
            return
        if urlsplit(self.path).path != "/move":
            self._send(404, "text/plain; charset=utf-8", b"not found\n")
            return
        try:
            length = int(self.headers.get("Content-Length") or 0)
            if not 0 < length <= MAX_BODY:
                raise ValueError(f"a move request is 1 to {MAX_BODY} bytes")
            body = json.loads(self.rfile.read(length))
            number, move = body["decision"], body["move"]
            if not isinstance(number, int) or not isinstance(move, str):
                raise ValueError("'decision' must be a number and 'move' a text")
        except (ValueError, KeyError, TypeError) as error:
            self._json(400, {"ok": False, "error": f"unreadable move request: {error}"})
            return
        accepted, reason = self.table.submit(number, move)
        self._json(200 if accepted else 400, {"ok": accepted, "error": reason})

    def do_PUT(self) -> None:  # noqa: N802 - the base class's name
        if self._authorised():
            self._send(405, "text/plain; charset=utf-8", b"method not allowed\n")

    do_DELETE = do_PUT

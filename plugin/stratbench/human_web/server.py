"""The page's HTTP server: loopback only, every request carrying the run's secret token.

Routes (each needs the token, else 403):

- ``POST /login``: the form of the browser's hand-off file (:mod:`stratbench.human_web.handoff`), its body
  ``token=<token>``: sets the page's cookie and sends the browser on to ``/``;
- ``GET /``: the page (:mod:`stratbench.human_web.page`), setting the cookie (the printed address carries
  ``?token=``; the page's script then drops it from the address bar);
- ``GET /state``: the table's view as JSON (polled by the page every half second);
- ``POST /move``: ``{"decision": N, "move": "text"}``; 200 ``{"ok": true}``, 400 ``{"ok": false, "error": ...}``
  for a move refused (the person tries again), 409 for a decision already answered (one move per decision).

A request carries the token in one of three places, read in this order, the
first one present deciding: the query (``?token=``, once), the
``X-Stratbench-Token`` header (once), the page's cookie (``stratbench_<port>``,
HttpOnly, SameSite=Strict; once). The value is compared as sent, never
percent-decoded. The server binds 127.0.0.1 only, so no other machine
reaches it; the token (``secrets.token_urlsafe``) keeps other users of this
machine from acting for the person. A connection that stalls is dropped after
:data:`REQUEST_TIMEOUT_S`.
"""

from __future__ import annotations

import json
import secrets
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from stratbench.human_web.page import HEADER_CSP, LANDING_CSP, landing_html, page_html
from stratbench.human_web.table import DecisionAnswered, HumanTable

HOST = "127.0.0.1"
MAX_BODY = 64 * 1024
"""The largest move request read (a Diplomacy order list is a few hundred bytes)."""
MAX_DEPTH = 16
"""The deepest nesting of arrays and objects a move request may have (a move request is one flat object)."""
MAX_LOGIN_BODY = 1024
"""The largest login form read (it holds the token alone)."""
REQUEST_TIMEOUT_S = 30.0
"""Seconds a connection may stall (no byte of its request arriving) before the server drops it."""
STOP_POLL_S = 0.05
"""How often the serving thread looks whether it was told to stop (how long :meth:`HumanWebServer.stop` waits)."""
TOKEN_HEADER = "X-Stratbench-Token"
"""The header a script or a test may carry the token in."""


class PortInUse(OSError):
    """Raised when the page's port cannot be bound."""


class HumanWebServer:
    """Serves one :class:`HumanTable` on 127.0.0.1 in a daemon thread.

    Args:
        table: The shared state.
        port: The port (0: a free one the system picks).
        token: The secret every request must carry (default: a fresh ``secrets.token_urlsafe(24)``).
        request_timeout: Seconds a connection may stall before it is dropped.

    Raises:
        PortInUse: when ``port`` cannot be bound.
    """

    def __init__(self, table: HumanTable, port: int = 0, token: str | None = None,
                 request_timeout: float = REQUEST_TIMEOUT_S) -> None:
        self.table = table
        self.token = token or secrets.token_urlsafe(24)
        handler = type("Handler", (_Handler,), {"table": table, "token": self.token, "timeout": request_timeout})
        try:
            self._server = _Server((HOST, port), handler)
        except OSError as error:
            raise PortInUse(f"--port {port}: cannot listen on {HOST}:{port} ({error.strerror or error})") from None
        handler.cookie = f"stratbench_{self.port}"  # cookies ignore ports: one name per page
        self._thread = threading.Thread(target=self._server.serve_forever, args=(STOP_POLL_S,),
                                        name="stratbench-human-web", daemon=True)

    @property
    def port(self) -> int:
        """The port listened on."""
        return int(self._server.server_address[1])

    @property
    def origin(self) -> str:
        """The page's origin (no token): ``http://127.0.0.1:<port>``."""
        return f"http://{HOST}:{self.port}"

    @property
    def url(self) -> str:
        """The page's address, with its token (for the person's terminal; never a command line)."""
        return f"{self.origin}/?token={self.token}"

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


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = 64  # connections at once (a few tabs, each a poll and a move) are queued, not dropped


class _Handler(BaseHTTPRequestHandler):
    table: HumanTable
    token: str
    cookie: str
    server_version = "stratbench"
    sys_version = ""

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002 - the base class's name
        """Silent: a poll a second would flood the terminal."""

    def _given(self) -> list[str]:
        """The token values of the first place that holds any: the query, the header, the cookie (as sent)."""
        query = urlsplit(self.path).query
        given = [value for name, _, value in (part.partition("=") for part in query.split("&")) if name == "token"]
        if given:
            return given
        given = self.headers.get_all(TOKEN_HEADER) or []
        if given:
            return given
        for line in self.headers.get_all("Cookie") or []:
            for pair in line.split(";"):
                name, _, value = pair.strip().partition("=")
                if name == self.cookie:
                    given.append(value)
        return given

    def _matches(self, given: list[str]) -> bool:
        """Whether ``given`` is the token, once."""
        return len(given) == 1 and secrets.compare_digest(given[0].encode("utf-8"), self.token.encode("utf-8"))

    def _authorised(self) -> bool:
        if self._matches(self._given()):
            return True
        self._forbidden()
        return False

    def _forbidden(self) -> None:
        self._send(403, "text/plain; charset=utf-8", b"forbidden: this page needs the token from its address\n")

    def _send(self, status: int, kind: str, body: bytes, *, headers: dict[str, str] | None = None,
              policy: str = HEADER_CSP) -> None:
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "no-store")
        self.send_header("Content-Security-Policy", policy)
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        for name, value in (headers or {}).items():
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _json(self, status: int, value: Any) -> None:
        self._send(status, "application/json", json.dumps(value).encode("utf-8"))

    def _set_cookie(self) -> dict[str, str]:
        return {"Set-Cookie": f"{self.cookie}={self.token}; HttpOnly; SameSite=Strict; Path=/"}

    def do_GET(self) -> None:  # noqa: N802 - the base class's name
        if not self._authorised():
            return
        parts = urlsplit(self.path)
        if parts.path == "/":
            self._send(200, "text/html; charset=utf-8", page_html().encode("utf-8"), headers=self._set_cookie())
        elif parts.path == "/state":
            self._json(200, self.table.view())
        else:
            self._send(404, "text/plain; charset=utf-8", b"not found\n")

    def do_POST(self) -> None:  # noqa: N802 - the base class's name
        route = urlsplit(self.path).path
        if route == "/login":
            self._login()
            return
        if not self._authorised():
            return
        if route != "/move":
            self._send(404, "text/plain; charset=utf-8", b"not found\n")
            return
        try:
            number, move = read_move_request(self.headers.get("Content-Length"), self.rfile)
        except ValueError as error:
            self._json(400, {"ok": False, "error": f"unreadable move request: {error}"})
            return
        try:
            accepted, reason = self.table.submit(number, move)
        except DecisionAnswered as error:
            self._json(409, {"ok": False, "error": str(error)})
            return
        self._json(200 if accepted else 400, {"ok": accepted, "error": reason})

    def _login(self) -> None:
        """The hand-off file's form: the token in the body (never in an address); sets the cookie, then the
        browser goes on to ``/`` from this origin (so the SameSite=Strict cookie goes with it)."""
        try:
            length = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            length = -1
        if not 0 < length <= MAX_LOGIN_BODY:
            self._forbidden()
            return
        body = self.rfile.read(length).decode("ascii", "replace")
        given = [value for name, _, value in (part.partition("=") for part in body.split("&")) if name == "token"]
        if not self._matches(given):
            self._forbidden()
            return
        self._send(200, "text/html; charset=utf-8", landing_html().encode("utf-8"), headers=self._set_cookie(),
                   policy=LANDING_CSP)

    def do_PUT(self) -> None:  # noqa: N802 - the base class's name
        if self._authorised():
            self._send(405, "text/plain; charset=utf-8", b"method not allowed\n")

    do_DELETE = do_PUT


def read_move_request(length_header: str | None, stream: Any) -> tuple[int, str]:
    """Reads a move request's body: ``{"decision": N, "move": "text"}``, at most :data:`MAX_BODY` bytes nested
    at most :data:`MAX_DEPTH` deep.

    Raises:
        ValueError: naming what is wrong (one line).
    """
    try:
        length = int(length_header or 0)
    except ValueError:
        length = -1
    if not 0 < length <= MAX_BODY:
        raise ValueError(f"a move request is 1 to {MAX_BODY} bytes")
    raw = stream.read(length)
    if nesting_depth(raw) > MAX_DEPTH:
        raise ValueError(f"nested more than {MAX_DEPTH} deep (a move request is one flat object)")
    try:
        body = json.loads(raw)
    except ValueError as error:
        raise ValueError(f"not JSON ({error})") from None
    if not isinstance(body, dict) or "decision" not in body or "move" not in body:
        raise ValueError("expected an object with 'decision' and 'move'")
    number, move = body["decision"], body["move"]
    if isinstance(number, bool) or not isinstance(number, int) or not isinstance(move, str):  # true is an int
        raise ValueError("'decision' must be a whole number and 'move' a text")
    return number, move


def nesting_depth(raw: bytes) -> int:
    """The deepest nesting of JSON arrays and objects in ``raw`` (brackets inside strings do not count)."""
    depth = deepest = 0
    in_string = escaped = False
    for byte in raw:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            deepest = max(deepest, depth)
        elif byte in (0x5D, 0x7D):  # ] }
            depth -= 1
    return deepest

"""The page's server in-process: how the browser gets the token (never on a command line), which tokens are
refused, one move per decision however many arrive at once, and requests it must not choke on."""

from __future__ import annotations

import http.client
import json
import re
import socket
import stat
import threading
import time
import urllib.request
import webbrowser
from pathlib import Path

import pytest

from stratbench.core.types import Action
from stratbench.human_web.page import SCRIPT
from stratbench.human_web.run import HumanWebRun
from stratbench.human_web.server import TOKEN_HEADER, HumanWebServer
from stratbench.human_web.table import DecisionAnswered, HumanTable


def _request(port: int, method: str, path: str, *, headers: list[tuple[str, str]] = (),
             body: bytes | None = None) -> tuple[int, dict[str, str], bytes]:
    """One request with exactly these headers (a header named twice is sent twice); (status, headers, body)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.putrequest(method, path, skip_accept_encoding=True)
        for name, value in headers:
            connection.putheader(name, value)
        if body is not None:
            connection.putheader("Content-Length", str(len(body)))
        connection.endheaders(body)
        reply = connection.getresponse()
        return reply.status, dict(reply.getheaders()), reply.read()
    finally:
        connection.close()


def _move(port: int, token: str, body: bytes) -> tuple[int, dict]:
    status, _, raw = _request(port, "POST", "/move", headers=[(TOKEN_HEADER, token)], body=body)
    return status, json.loads(raw)


@pytest.fixture
def served():
    """A table served on a free port (stopped after the test)."""
    table = HumanTable(idle_timeout=60)
    server = HumanWebServer(table).start()
    yield table, server
    server.stop()


def _asked(table: HumanTable, check=Action) -> tuple[threading.Thread, list]:
    """Asks one decision in a thread (its answer lands in the list); returns once the page would show it."""
    answers: list = []
    asking = threading.Thread(target=lambda: answers.append(table.ask({"legal": []}, check)))
    asking.start()
    deadline = time.monotonic() + 10
    while table.view()["decision"] is None:
        assert time.monotonic() < deadline, "the decision was never shown"
        time.sleep(0.01)
    return asking, answers


def test_the_browser_gets_a_private_file_that_signs_it_in_and_no_token_in_its_address(monkeypatch):
    opened: list[str] = []
    monkeypatch.setattr(webbrowser, "open", lambda url, *args, **kwargs: opened.append(url) or True)
    web = HumanWebRun(open_browser=True).start()
    try:
        printed: list[str] = []
        web.announce(printed.append)
        token, port = web.server.token, web.server.port
        assert printed == [f"stratbench: play at http://127.0.0.1:{port}/?token={token}"]  # the terminal's copy
        (address,) = opened
        assert address.startswith("file:///") and token not in address
        handoff = Path(urllib.request.url2pathname(address.removeprefix("file://")))
        assert stat.S_IMODE(handoff.stat().st_mode) == 0o600
        assert stat.S_IMODE(handoff.parent.stat().st_mode) == 0o700
        form = handoff.read_text(encoding="utf-8")
        assert f'action="http://127.0.0.1:{port}/login"' in form and f'value="{token}"' in form

        status, headers, landing = _request(port, "POST", "/login", body=f"token={token}".encode(),
                                            headers=[("Content-Type", "application/x-www-form-urlencoded")])
        assert status == 200
        assert headers["Set-Cookie"] == f"stratbench_{port}={token}; HttpOnly; SameSite=Strict; Path=/"
        assert b'<meta http-equiv="refresh" content="0;url=/">' in landing  # from the page's origin, not a redirect
        cookie = [("Cookie", f"stratbench_{port}={token}")]
        status, _, page = _request(port, "GET", "/", headers=cookie)
        assert status == 200 and b"<script>" in page and token.encode() not in page
        assert _request(port, "GET", "/state", headers=cookie)[0] == 200
        for wrong in ("", "x", token[:-1]):
            status, headers, _ = _request(port, "POST", "/login", body=f"token={wrong}".encode())
            assert status == 403 and "Set-Cookie" not in headers
    finally:
        web.stop()
    assert not handoff.parent.exists()


def _percent_encoded(text: str) -> str:
    return "".join(f"%{ord(char):02X}" for char in text)


@pytest.mark.parametrize("where", ["query", "header", "cookie"])
def test_a_token_is_taken_once_and_exactly_as_sent(served, where):
    _, server = served
    token, port = server.token, server.port
    cookie = f"stratbench_{port}"

    def status(*values: str) -> int:
        if where == "query":
            return _request(port, "GET", "/state?" + "&".join(f"token={v}" for v in values))[0]
        if where == "header":
            return _request(port, "GET", "/state", headers=[(TOKEN_HEADER, v) for v in values])[0]
        return _request(port, "GET", "/state", headers=[("Cookie", "; ".join(f"{cookie}={v}" for v in values))])[0]

    assert status(token) == 200
    for refused in ([""], ["wrong"], [token[:-1]], [token + "x"], ["x" + token], [_percent_encoded(token)],
                    [token, token], [token, "wrong"]):
        assert status(*refused) == 403, refused
    assert _request(port, "GET", "/state")[0] == 403
    assert _request(port, "GET", "/state", headers=[("Cookie", f"stratbench_1={token}")])[0] == 403  # another page's


def test_twelve_moves_at_once_for_one_decision_play_one(served):
    table, server = served
    asking, answers = _asked(table)
    number = table.view()["decision"]["decision"]
    start = threading.Barrier(12)
    replies: dict[str, tuple[int, dict]] = {}

    def send(move: str) -> None:
        body = json.dumps({"decision": number, "move": move}).encode()
        start.wait()
        replies[move] = _move(server.port, server.token, body)

    senders = [threading.Thread(target=send, args=(f"m{i}",)) for i in range(12)]
    for sender in senders:
        sender.start()
    for sender in senders:
        sender.join(timeout=30)
    asking.join(timeout=10)
    accepted = [move for move, (status, _) in replies.items() if status == 200]
    assert len(replies) == 12 and len(accepted) == 1
    assert answers == [Action(accepted[0])]  # the move accepted is the move played
    for move, (status, body) in replies.items():
        if move != accepted[0]:
            assert (status, body) == (409, {"ok": False, "error": f"decision {number} was already answered: only "
                                                                  "the first move sent for it is played"})


def test_a_second_move_for_a_decision_is_refused_even_before_the_match_took_the_first():
    """Two moves with the waiting match unable to run between them (the table's lock held across both, as when
    many arrive at once): the first is played, the second refused."""
    table = HumanTable(idle_timeout=60)
    asking, answers = _asked(table)
    with table._changed:  # the match cannot take the first move before the second arrives
        assert table.submit(1, "first") == (True, "")
        with pytest.raises(DecisionAnswered, match="^decision 1 was already answered"):
            table.submit(1, "second")
    asking.join(timeout=10)
    assert answers == [Action("first")]


@pytest.mark.parametrize("body", [
    b"[" * 30000 + b"]" * 30000,
    b'{"decision": ' + b"[" * 30000 + b"]" * 30000 + b', "move": "a"}',
])
def test_a_deeply_nested_move_request_is_refused_with_one_line(served, body):
    table, server = served
    asking, answers = _asked(table)
    status, reply = _move(server.port, server.token, body)
    assert (status, reply) == (400, {"ok": False, "error": "unreadable move request: nested more than 16 deep (a "
                                                           "move request is one flat object)"})
    assert table.view()["decision"]["decision"] == 1  # still waiting
    assert _move(server.port, server.token, b'{"decision": 1, "move": "a"}')[0] == 200
    asking.join(timeout=10)
    assert answers == [Action("a")]


@pytest.mark.parametrize("decision", ["true", "1.0", '"1"', "null"])
def test_a_decision_number_must_be_a_whole_number(served, decision):
    table, server = served
    asking, answers = _asked(table)
    status, reply = _move(server.port, server.token, b'{"decision": %s, "move": "a"}' % decision.encode())
    assert (status, reply) == (400, {"ok": False, "error": "unreadable move request: 'decision' must be a whole "
                                                           "number and 'move' a text"})
    assert _move(server.port, server.token, b'{"decision": 1, "move": "a"}')[0] == 200
    asking.join(timeout=10)
    assert answers == [Action("a")]


def test_a_stalled_request_is_dropped():
    table = HumanTable(idle_timeout=60)
    server = HumanWebServer(table, request_timeout=0.2).start()
    try:
        body_stalls = f"POST /move HTTP/1.0\r\n{TOKEN_HEADER}: {server.token}\r\nContent-Length: 100\r\n\r\n{{"
        for partial in (b"", b"POST /move HTTP/1.1\r\n", body_stalls.encode()):
            with socket.create_connection(("127.0.0.1", server.port), timeout=30) as stalled:
                stalled.sendall(partial)
                assert stalled.recv(1024) == b""  # closed without a reply (a server that waits forever: timeout)
        assert _request(server.port, "GET", "/state", headers=[(TOKEN_HEADER, server.token)])[0] == 200
    finally:
        server.stop()


def test_the_page_script_sends_no_token_its_cookie_does():
    assert re.findall(r'fetch\("([^"]*)"', SCRIPT) == ["/move", "/state"]

"""Every collected match ends in the results as scored, skipped or errored, whatever the provider does."""

from __future__ import annotations

import hashlib
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from stratbench.testing.fake_llm import first_legal_responder
from stratbench.run.results import read_transcript

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=2, seats="half")
def test_tictactoe(match):
    match.play()

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=1)
def test_single(match):
    match.play()
"""


class FaultyProvider:
    """A loopback chat server whose behaviour depends on the requested model.

    ``flaky``: a request whose body hashes to an even number always gets a 500
    (so about half the distinct requests fail through every retry);
    ``garbled``: a 200 whose body is not UTF-8; ``hang``: no answer for a minute;
    anything else: a legal move.
    """

    def __init__(self) -> None:
        self.requests = 0
        self.stopping = threading.Event()
        owner = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 - http.server naming
                raw = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                body = json.loads(raw)
                owner.requests += 1
                model = body.get("model", "")
                if model == "hang":
                    owner.stopping.wait(60)
                    return
                if model == "flaky" and hashlib.sha256(raw).digest()[0] % 2 == 0:
                    self._send(500, b'{"error": {"message": "injected", "type": "server_error"}}')
                    return
                if model == "garbled":
                    self._send(200, b'{"id": "x", "choices": [{"message": {"content": "\xff\xfe\xfa"}}]}')
                    return
                content = first_legal_responder(body)
                self._send(200, json.dumps({
                    "id": "chatcmpl-1", "object": "chat.completion", "created": 1700000000, "model": model,
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content},
                                 "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 2, "total_tokens": 12},
                }).encode())

            def _send(self, status: int, data: bytes) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.server.daemon_threads = True
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    @property
    def api_base(self) -> str:
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def stop(self) -> None:
        self.stopping.set()
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def provider():
    server = FaultyProvider()
    yield server
    server.stop()


def _records(pytester, directory="reports/latest"):
    return [json.loads(line) for line in (pytester.path / directory / "results.jsonl").read_text().splitlines()]


@pytest.mark.slow
def test_failing_and_garbled_providers_lose_no_match(pytester, provider):
    pytester.makepyfile(test_ttt=SUITE)
    args = ["-k", "test_single", "--model", "openai/flaky", "--model", "openai/garbled",
            "--api-base", provider.api_base, "--retry-backoff", "0.05"]
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider", "-n", "2", "-v", *args)
    records = _records(pytester)
    collected = sorted({line.split("::")[1].split(" ")[0] for line in result.stdout.lines
                        if "test_ttt.py::" in line and "[" in line})
    assert len(collected) == 3  # flaky and garbled each against random, and against each other
    assert sorted(r["match_id"].split("::")[1] for r in records) == collected  # one record per match
    by_status = {s: [r for r in records if r["status"] == s] for s in ("scored", "skipped", "errored")}
    assert len(records) == sum(len(v) for v in by_status.values())
    garbled = [r for r in records if any(side["model"] == "openai/garbled" for side in r["sides"])]
    assert garbled and all(r["status"] == "errored" and r["fault"] == "provider" for r in garbled)
    flaky_errors = [r for r in by_status["errored"] if r not in garbled]
    assert flaky_errors and all(r["fault"] == "provider" and "after 5 attempt(s)" in r["reason"]
                                for r in flaky_errors)
    for record in by_status["errored"]:  # listable like a scored record, never rated
        assert record["scores"] is None and record["settings_hash"] and record["sides"][record["subject"]]["agent"]
        assert (pytester.path / "reports/latest" / record["transcript"]).is_file()
    result.stdout.fnmatch_lines(["*stratbench: skipped and errored matches*",
                                 f"openai/garbled+direct * 0 * {len(garbled)}  provider {len(garbled)}"])
    data = json.loads((pytester.path / "reports/latest/results.json").read_text())
    assert data["n_matches"] == len(by_status["scored"])
    assert {m["match_id"] for m in data["unscored"]} == {r["match_id"] for r in by_status["errored"]}
    assert "Skipped and errored matches" in (pytester.path / "reports/latest/report.md").read_text()
    assert result.ret == 1


@pytest.mark.slow
def test_a_hung_provider_times_the_match_out_with_its_transcript(pytester, provider):
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "-k", "test_single", "--model", "openai/hang", "--api-base", provider.api_base,
        "--match-timeout", "2",
    )
    records = _records(pytester)
    assert len(records) == 1
    record = records[0]
    assert record["status"] == "errored" and record["fault"] == "provider"
    assert record["reason"] == ("MatchTimeout: the match ran past --match-timeout 2 s "
                                "(waiting on a model call)")
    events = read_transcript(pytester.path / "reports/latest" / record["transcript"])["events"]
    assert events[0]["kind"] == "board" and events[0]["board"]["board"] == "." * 9  # the start position
    played = [e for e in events if e["kind"] != "board"]
    assert played[0]["kind"] == "observation" and "Legal actions" in str(played[0]) or played[0]["player"] >= 0
    assert events[-1] == {**events[-1], "kind": "error", "fault": "provider", "error": record["reason"]}
    result.stdout.fnmatch_lines(["*MatchTimeout: the match ran past --match-timeout 2 s*[fault: provider]*"])


def test_skips_at_collection_and_during_the_run_are_recorded(pytester):
    pytester.makepyfile(test_skips="""
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_played(match):
    match.play()

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_skipped_inside(match):
    pytest.skip("no engine here")

@pytest.mark.skip(reason="not today")
@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_marked(match):
    match.play()

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=1)
def test_broken(match):
    raise RuntimeError("a bug in the suite")
""")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    records = {r["match_id"].split("::")[1].split("[")[0]: r for r in _records(pytester)}
    assert len(_records(pytester)) == 4
    assert records["test_played"]["status"] == "scored"
    assert (records["test_skipped_inside"]["status"], records["test_skipped_inside"]["reason"]) == (
        "skipped", "no engine here")
    assert (records["test_marked"]["status"], records["test_marked"]["reason"]) == ("skipped", "not today")
    broken = records["test_broken"]
    assert (broken["status"], broken["fault"], broken["reason"]) == (
        "errored", "harness", "RuntimeError: a bug in the suite")
    result.stdout.fnmatch_lines(["*SKIPPED  –        random-vs-minimax-s0: no engine here*"])
    assert result.ret == 1

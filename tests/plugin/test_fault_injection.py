"""Fault injection through the real client: 20% and 50% of requests fail (hangs included).

Every collected match must end as exactly one record, scored or errored by the
provider's fault; none may be lost, and none may be blamed on the harness.
"""

from __future__ import annotations

import json
import threading

import pytest

from stratbench.testing.fake_llm import Faults, FakeLLMServer, first_legal_responder

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=6, seats="half")
def test_tictactoe(match):
    match.play()
"""


@pytest.mark.slow
@pytest.mark.parametrize("rate", [0.2, 0.5])
def test_a_faulty_provider_leaves_one_record_per_match_and_no_harness_errors(pytester, rate):
    pytester.makepyfile(test_ttt=SUITE)
    faults = Faults(rate=rate, kinds=("429", "500", "hang", "non_utf8", "no_message"), seed=11, hang_s=3.0)
    with FakeLLMServer(faults=faults) as server:
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-n", "2", "-v", "--model", "openai/flaky", "--api-base", server.api_base,
            "--request-timeout", "1", "--retries", "2", "--retry-backoff", "0.05", "--match-timeout", "120",
        )
        injected = [r.fault for r in server.requests if r.fault]
    collected = sorted({line.split("::")[1].split(" ")[0] for line in result.stdout.lines
                        if "test_ttt.py::test_tictactoe[" in line})
    assert len(collected) == 6, result.stdout.str()
    records = [json.loads(line) for line in
               (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    assert sorted(r["match_id"].split("::")[1] for r in records) == collected  # one record per match
    assert injected and (rate < 0.5 or "hang" in injected)  # faults really happened, hangs among them
    harness = [r for r in records if r.get("fault") == "harness"]
    assert harness == [], [r["reason"] for r in harness]
    errored = [r for r in records if r["status"] == "errored"]
    assert all(r["fault"] == "provider" for r in errored)
    scored = [r for r in records if r["status"] == "scored"]
    assert all(sum(r["scores"]) == 1.0 for r in scored)
    assert all(isinstance(side["retries"], int) for r in scored for side in r["sides"] if side["model"])
    if rate == 0.2:  # most matches score, over dozens of requests: some of them survived a fault by retrying
        assert sum(side["retries"] for r in scored for side in r["sides"] if side["model"]) > 0
    failed_attempts = 3 * len(errored)  # an errored match spent its 3 attempts on one request
    assert len(injected) >= failed_attempts


CANCELLED_SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], baselines=[], matches=4, seats="half")
def test_tictactoe(match):
    if match.spec.subject == 1:  # the model plays O: the pool's started match is cancelled and played here
        match.play(temperature=0.5)
    else:
        match.play()
"""


class HoldStartedOMatches:
    """Holds each request of a match the pool started in which the model plays O until its test plays it again.

    The pool starts the next four matches at once. Those in which the model
    plays O are played again by their test, at temperature 0.5 (the pool's
    copy asks at 0), so the pool's copy is cancelled by its item while its
    request is held here (unless it had not begun: the first item's own).
    The replay's same request releases the held one, whose answer then
    reaches a match that was cancelled.
    """

    def __init__(self, cap_s: float) -> None:
        self.cap_s = cap_s
        self.lock = threading.Lock()
        self.held: dict[str, threading.Event] = {}
        self.released_by_replay = 0

    def __call__(self, body: dict) -> str:
        text = json.dumps(body["messages"], sort_keys=True)
        if "You play O" in text:
            with self.lock:
                if body.get("temperature"):  # the test's own play: it releases the pool's copy of this request
                    held = self.held.pop(text, None)
                    if held is not None:
                        self.released_by_replay += 1
                        held.set()
                    held = None
                else:
                    held = self.held[text] = threading.Event()
            if held is not None:
                held.wait(self.cap_s)
        return first_legal_responder(body)


@pytest.mark.slow
def test_cancelled_matches_under_faults_leave_no_orphaned_task_and_one_record_each(pytester):
    """A match cancelled while it waits on a faulty model stops there: no task is left to fail on its own."""
    pytester.makepyfile(test_ttt=CANCELLED_SUITE)
    responder = HoldStartedOMatches(cap_s=60.0)
    faults = Faults(rate=0.3, kinds=("500",), seed=5)  # no 429: its pause would hold every call meanwhile
    with FakeLLMServer(responder=responder, faults=faults) as server:
        try:
            result = pytester.runpytest_subprocess(
                "-p", "no:cacheprovider", "-v", "--model", "openai/flaky", "--api-base", server.api_base,
                "--request-timeout", "120", "--retries", "8", "--retry-backoff", "0.1",
                "--stratbench-concurrency", "4",
                "--log-file", "run.log", "--log-file-level", "WARNING",
            )
        finally:
            for held in list(responder.held.values()):
                held.set()
        injected = [r.fault for r in server.requests if r.fault]
    output = result.stdout.str() + result.stderr.str() + (pytester.path / "run.log").read_text()
    assert "cannot reuse already awaited coroutine" not in output
    assert "Task exception was never retrieved" not in output
    assert "Task was destroyed but it is pending" not in output
    assert "was never awaited" not in output
    assert responder.released_by_replay >= 1  # a started match was cancelled while its request waited
    assert len(injected) >= 2  # faults really happened
    records = [json.loads(line) for line in
               (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    collected = sorted({line.split("::")[1].split(" ")[0] for line in result.stdout.lines
                        if "test_ttt.py::test_tictactoe[" in line})
    assert len(collected) == 4, result.stdout.str()
    assert sorted(r["match_id"].split("::")[1] for r in records) == collected  # one record per match
    assert [r for r in records if r.get("fault") == "harness"] == []
    assert all(r["status"] == "scored" for r in records)

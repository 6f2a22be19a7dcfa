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


@pytest.mark.slow  # failed attempts wait through the client's backoff
@pytest.mark.parametrize("rate", [0.2, 0.5])
def test_a_faulty_provider_leaves_one_record_per_match_and_no_harness_errors(pytester, rate):
    pytester.makepyfile(test_ttt=SUITE)
    faults = Faults(rate=rate, kinds=("429", "500", "hang", "non_utf8", "no_message"), seed=11, hang_s=3.0)
    with FakeLLMServer(faults=faults) as server:
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-n", "2", "-v", "--model", "openai/flaky", "--api-base", server.api_base,
            "--request-timeout", "1", "--retries", "2", "--match-timeout", "120",
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
    if match.spec.subject == 1:  # the model plays O: the pool's started match is cancelled, played again here
        match.play(played_again=True)
    else:
        match.play()
"""


class HoldFirstAsO:
    """Holds the first request of a model playing O until the same request comes again (at most ``cap_s``).

    The pool starts the four matches at once; the first match in which the
    model plays O to ask is held, so it is still waiting on the model when its
    item cancels it and plays it again; the replay's first request releases
    the held one.
    """

    def __init__(self, cap_s: float) -> None:
        self.cap_s = cap_s
        self.lock = threading.Lock()
        self.held: str | None = None
        self.released = threading.Event()
        self.released_by_twin = False

    def __call__(self, body: dict) -> str:
        text = json.dumps(body["messages"], sort_keys=True)
        with self.lock:
            hold = self.held is None and "You play O" in text
            if hold:
                self.held = text
            elif text == self.held and not self.released.is_set():
                self.released_by_twin = True
                self.released.set()
        if hold:
            self.released.wait(self.cap_s)
        return first_legal_responder(body)


@pytest.mark.slow  # failed attempts wait through the client's backoff
def test_cancelled_matches_under_faults_leave_no_orphaned_task_and_one_record_each(pytester):
    """A match cancelled while it waits on a faulty model stops there: no task is left to fail on its own."""
    pytester.makepyfile(test_ttt=CANCELLED_SUITE)
    responder = HoldFirstAsO(cap_s=90.0)
    faults = Faults(rate=0.3, kinds=("429", "500"), seed=5)
    with FakeLLMServer(responder=responder, faults=faults) as server:
        result = pytester.runpytest_subprocess(
            "-p", "no:cacheprovider", "-v", "--model", "openai/flaky", "--api-base", server.api_base,
            "--request-timeout", "120", "--retries", "8", "--stratbench-concurrency", "4",
            "--log-file", "run.log", "--log-file-level", "WARNING",
        )
        injected = [r.fault for r in server.requests if r.fault]
    output = result.stdout.str() + result.stderr.str() + (pytester.path / "run.log").read_text()
    assert "cannot reuse already awaited coroutine" not in output
    assert "Task exception was never retrieved" not in output
    assert "Task was destroyed but it is pending" not in output
    assert "was never awaited" not in output
    # the held match was cancelled in flight and its model slot freed: its replay reached the server at once
    assert responder.released_by_twin
    assert len(injected) >= 2  # faults really happened
    records = [json.loads(line) for line in
               (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    ids = sorted(r["match_id"].split("[")[1].rstrip("]") for r in records)
    assert ids == [f"openai/flaky+direct-vs-random-s{i}" for i in range(4)], ids  # one record per match
    assert [r for r in records if r.get("fault") == "harness"] == []

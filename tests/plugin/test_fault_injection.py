"""Fault injection through the real client: 20% and 50% of requests fail (hangs included).

Every collected match must end as exactly one record, scored or errored by the
provider's fault; none may be lost, and none may be blamed on the harness.
"""

from __future__ import annotations

import json

import pytest

from stratbench.testing.fake_llm import Faults, FakeLLMServer

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

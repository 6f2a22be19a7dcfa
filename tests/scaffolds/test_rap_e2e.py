"""``--scaffold rap`` end to end through pytest against the loopback server: scored matches, exact replay."""

from __future__ import annotations

import json

import pytest

from stratbench.testing.rap_responder import rap_responder
from stratbench.run.results import read_transcript

SUITE = """
import pytest

@pytest.mark.stratbench(game="{game}", opponents=["random"], baselines=[], matches=1, seats="alternate"{extra})
def test_{game}(match):
    match.play()
"""


def results(pytester):
    path = pytester.path / "reports/latest/results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()]


def transcript(pytester, record):
    return read_transcript(pytester.path / "reports/latest" / record["transcript"])["events"]


def played(events):
    """The transcript without timings: each model call's request and reply, each search and each move."""
    kept = []
    for event in events:
        if event.get("kind") == "llm_call":
            kept.append(("call", event["purpose"], json.dumps(event["messages"]), event["response"]))
        elif event.get("kind") == "rap_search":
            kept.append(("search", event["chosen"], json.dumps(event.get("root"))))
        elif event.get("kind") in ("action", "move"):
            kept.append(("move", json.dumps({k: v for k, v in event.items() if k != "t"}, sort_keys=True)))
    return kept


def play(pytester, fake_llm, game, *args, extra=""):
    fake_llm.responder = rap_responder()
    pytester.makepyfile(**{f"test_{game}": SUITE.format(game=game, extra=extra)})
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--scaffold", "rap",
                                         "--api-base", fake_llm.api_base, *args)


@pytest.mark.slow
@pytest.mark.parametrize(("game", "args", "extra"), [
    ("tictactoe", (), ""),
    ("connect4", ("--rap-iterations", "3"), ""),
    ("air_land_sea", ("--rap-depth", "1", "--rap-iterations", "2"), ", illegal_tolerance=3, fallback=\"random\""),
])
def test_a_match_under_rap_is_scored(pytester, fake_llm, game, args, extra):
    result = play(pytester, fake_llm, game, *args, extra=extra)
    assert result.ret == 0, result.stdout.str()[-3000:]
    [record] = results(pytester)
    assert record["status"] == "scored" and record["game"] == game
    assert record["sides"][record["subject"]]["scaffold"] == "rap"
    assert sum(record["scores"]) == pytest.approx(1.0)
    searches = [e for e in transcript(pytester, record) if e.get("kind") == "rap_search"]
    assert searches and any(e["searched"] for e in searches)
    logprob_requests = [r for r in fake_llm.requests if r.body.get("logprobs")]
    assert logprob_requests and all(r.body["max_tokens"] == 1 for r in logprob_requests)


@pytest.mark.slow
def test_record_then_replay_offline_gives_the_same_transcript_and_actions(pytester, fake_llm):
    recorded = play(pytester, fake_llm, "tictactoe", "--record-mode=once", "--rap-iterations", "4")
    assert recorded.ret == 0, recorded.stdout.str()[-3000:]
    [first] = results(pytester)
    live = played(transcript(pytester, first))
    assert any(step[0] == "search" for step in live) and any(step[0] == "call" for step in live)
    fake_llm.stop()  # replay must not need the server
    replayed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/m", "--scaffold", "rap",
                                             "--rap-iterations", "4", "--record-mode=none")
    assert replayed.ret == 0, replayed.stdout.str()[-3000:]
    [again] = results(pytester)
    assert again["status"] == "scored" and again["scores"] == first["scores"] and again["turns"] == first["turns"]
    assert again["settings_hash"] == first["settings_hash"]
    assert played(transcript(pytester, again)) == live

"""A model that must be called without its key is refused once, at start-up; replays need no key."""

from __future__ import annotations

import json

import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=["random"], matches=2)
def test_tictactoe(match):
    match.play()
"""
MESSAGE = (
    "stratbench: {model} needs OPENAI_API_KEY, which is not set, and {n} collected match(es) have no cassette to "
    "replay: export the key, pass --api-base for a local server or gateway, or replay recorded cassettes with "
    "--record-mode=none"
)


@pytest.fixture
def suite(pytester, no_provider_keys):
    pytester.makepyfile(test_ttt=SUITE)
    return pytester


def _records(pytester):
    path = pytester.path / "reports/latest/results.jsonl"
    return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


@pytest.mark.slow
@pytest.mark.parametrize("workers", [[], ["-n", "2"]])
def test_a_missing_key_is_said_once_before_any_match(suite, workers):
    result = suite.runpytest_subprocess("-p", "no:cacheprovider", "--model", "gpt-4o", *workers)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert result.stderr.lines.count("ERROR: " + MESSAGE.format(model="gpt-4o", n=2)) == 1, result.stderr.str()
    output = result.stdout.str() + result.stderr.str()
    assert "Traceback" not in output and "LLMAuthError" not in output
    assert _records(suite) == []  # nothing played, not even the baseline's matches


@pytest.mark.slow
def test_recorded_matches_replay_without_a_key_and_only_the_unrecorded_ones_need_it(suite, fake_llm):
    args = ["-p", "no:cacheprovider", "--model", "openai/m"]
    recorded = suite.runpytest_subprocess(*args, "--matches", "1", "--api-base", fake_llm.api_base)
    assert recorded.ret == 0, recorded.stdout.str()
    fake_llm.stop()

    replayed = suite.runpytest_subprocess(*args, "--matches", "1")  # record mode once: the cassette replays
    assert replayed.ret == 0, replayed.stdout.str() + replayed.stderr.str()
    assert {r["status"] for r in _records(suite)} == {"scored"} and len(_records(suite)) == 2

    more = suite.runpytest_subprocess(*args, "--matches", "2")  # seed 1 has no cassette: it would call the model
    assert more.ret == pytest.ExitCode.USAGE_ERROR
    assert "ERROR: " + MESSAGE.format(model="openai/m", n=1) in more.stderr.lines
    assert len(_records(suite)) == 2  # the refused run played nothing and kept the results before it
    only_replays = suite.runpytest_subprocess(*args, "--matches", "2", "-k", "s0")
    assert only_replays.ret == 0, only_replays.stdout.str()

"""One id, one match: under seats="half" a match's id and cassette name its seating.

A replay never meets another match's recording.
"""

from __future__ import annotations

import json
import shutil

import pytest

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=4, seats="half")
def test_tictactoe(match):
    match.play()
"""
CASSETTES = "test_ttt/test_tictactoe"


@pytest.fixture
def suite(pytester, no_provider_keys):
    pytester.makepyfile(test_ttt=SUITE)
    return pytester


def _run(pytester, *args):
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--model", "openai/fake",
                                         "--stratbench-cassette-dir", "cas", *args)


def _records(pytester):
    lines = (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()
    return {r["match_id"]: r for r in map(json.loads, lines)}


@pytest.mark.slow
@pytest.mark.parametrize("replay_mode", ["none", "once"])
def test_a_recording_under_four_matches_is_never_replayed_as_another_seating(suite, fake_llm, replay_mode):
    recorded = _run(suite, "--matches", "4", "--record-mode", "all", "--api-base", fake_llm.api_base)
    assert recorded.ret == 0, recorded.stdout.str()
    four = _records(suite)
    assert sorted((r["match_id"].split("[")[1], r["subject"]) for r in four.values()) == [
        ("openai/fake+direct-vs-minimax-s2]", 0), ("openai/fake+direct-vs-minimax-s3]", 0),
        ("openai/fake+direct-vs-minimax-second-s0]", 1), ("openai/fake+direct-vs-minimax-second-s1]", 1)]
    folder = suite.path / "cas" / CASSETTES
    assert sorted(p.name for p in folder.iterdir()) == [
        "openai_fake+direct-vs-minimax-s2.yaml", "openai_fake+direct-vs-minimax-s3.yaml",
        "openai_fake+direct-vs-minimax-second-s0.yaml", "openai_fake+direct-vs-minimax-second-s1.yaml"]
    seat_two = (folder / "openai_fake+direct-vs-minimax-second-s0.yaml").read_bytes()
    live = ["--api-base", fake_llm.api_base] if replay_mode == "once" else []
    if replay_mode == "none":
        fake_llm.stop()

    # --matches 1 seats the model first at seed 0: no recording holds that match, so it is
    # recorded afresh (once) or reported missing by its own name (none), never replayed from seat 2's
    one = _run(suite, "--matches", "1", "--record-mode", replay_mode, *live)
    (record,) = _records(suite).values()
    assert record["match_id"].endswith("[openai/fake+direct-vs-minimax-s0]") and record["subject"] == 0
    if replay_mode == "none":
        assert record["status"] == "errored", one.stdout.str()
        assert record["reason"] == (
            f"CassetteMissError: no cassette {folder / 'openai_fake+direct-vs-minimax-s0.yaml'} for this match "
            "(--record-mode=none); record it with --record-mode=once and a model API key or --api-base")
    else:
        assert record["status"] == "scored", one.stdout.str()
        assert (folder / "openai_fake+direct-vs-minimax-s0.yaml").is_file()
    assert (folder / "openai_fake+direct-vs-minimax-second-s0.yaml").read_bytes() == seat_two

    # --matches 2 plays seed 0 in seat 2 again: it replays the recording made under --matches 4
    calls = len(fake_llm.requests)
    two = _run(suite, "--matches", "2", "-k", "second", "--record-mode", replay_mode, *live)
    assert two.ret == 0, two.stdout.str()
    (again,) = _records(suite).values()
    assert again["status"] == "scored" and again["subject"] == 1
    original = four[again["match_id"]]
    assert (again["scores"], again["turns"], again["tokens"]) == (
        original["scores"], original["turns"], original["tokens"])
    assert len(fake_llm.requests) == calls  # replayed, not asked again


@pytest.mark.slow
def test_a_cassette_of_another_match_is_refused_by_name(suite, fake_llm):
    recorded = _run(suite, "--matches", "1", "--record-mode", "all", "--api-base", fake_llm.api_base)
    assert recorded.ret == 0, recorded.stdout.str()
    folder = suite.path / "cas" / CASSETTES
    shutil.copy(folder / "openai_fake+direct-vs-minimax-s0.yaml",
                folder / "openai_fake+direct-vs-minimax-second-s0.yaml")
    replay = _run(suite, "--matches", "2", "-k", "second", "--record-mode", "none")
    (record,) = _records(suite).values()
    assert record["status"] == "errored" and record["fault"] == "harness", replay.stdout.str()
    assert record["reason"] == (
        f"CassetteOtherMatchError: cassette {folder / 'openai_fake+direct-vs-minimax-second-s0.yaml'} was "
        "recorded for another match (seats openai/fake+direct, minimax (subject: seat 1); seed 0), not this one "
        "(seats minimax, openai/fake+direct (subject: seat 2); seed 0); record this match with --record-mode=all"
    )

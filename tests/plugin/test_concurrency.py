"""Concurrent matches in one process (--stratbench-concurrency): same results, same order, own cassettes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratbench.run.config import DEFAULT_CONCURRENCY_WITH_MODEL, default_concurrency
from stratbench.run.results import read_transcript
from stratbench.testing.fake_llm import FakeLLMServer

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax", "random"], matches=2, seats="half")
def test_tictactoe(match):
    match.play()

@pytest.mark.stratbench(game="connect4", opponents=["random"], matches=2, seats="half")
def test_connect4(match):
    match.play()
"""

VOLATILE = {"t", "run_id", "started", "started_at", "finished_at", "duration_s", "cassette", "transcript", "wall_s", "played_run_id"}
"""Record fields that differ between two runs of the same matches (times, paths, run ids)."""


def _stable(value):
    """Drops the volatile fields, and every duration, at any depth."""
    if isinstance(value, dict):
        return {k: _stable(v) for k, v in value.items() if k not in VOLATILE and not k.endswith(("_s", "_ms"))}
    if isinstance(value, list):
        return [_stable(v) for v in value]
    return value


def _run(pytester, tag: str, *args: str):
    report_dir = f"reports/{tag}"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--model", "openai/m", "--report-dir", report_dir, "-v",
        "--stratbench-bootstrap", "50", *args)
    path = pytester.path / report_dir / "results.jsonl"
    records = [json.loads(line) for line in path.read_text().splitlines()]
    transcripts = {r["match_id"]: _transcript(pytester.path / report_dir / r["transcript"]) for r in records}
    return result, records, transcripts


def _transcript(path: Path):
    if path.suffix == ".jsonl":
        return _stable([json.loads(line) for line in path.read_text().splitlines() if line.strip()])
    return _stable([read_transcript(path)])  # plain .json, or .json.gz when large


def _cassettes(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*.yaml"))}


@pytest.fixture
def suite(pytester):
    pytester.makepyfile(test_games=SUITE)
    return pytester


@pytest.mark.runs_first
@pytest.mark.slow
def test_a_concurrent_run_equals_a_serial_run_and_so_do_their_replays(suite):
    with FakeLLMServer(delay_s=0.05) as server:
        serial = _run(suite, "serial", "--api-base", server.api_base, "--stratbench-concurrency", "1",
                      "--stratbench-cassette-dir", "cassettes-serial")
        serial_most = server.most_in_flight
        server.most_in_flight = 0
        concurrent = _run(suite, "concurrent", "--api-base", server.api_base, "--stratbench-concurrency", "8",
                          "--stratbench-cassette-dir", "cassettes-concurrent")
        concurrent_most = server.most_in_flight
    for result, _, _ in (serial, concurrent):
        assert result.ret == 0, result.stdout.str()
    # one LLM seat per match: serially one call at a time; concurrently several matches wait at once
    assert serial_most == 1
    assert 2 <= concurrent_most <= 8
    # the same matches, reported in the same (collection) order, with the same records and transcripts
    serial_ids = [r["match_id"] for r in serial[1]]
    assert len(serial_ids) >= 8 and [r["match_id"] for r in concurrent[1]] == serial_ids
    assert [_stable(r) for r in concurrent[1]] == [_stable(r) for r in serial[1]]
    assert concurrent[2] == serial[2]
    statuses = [line for line in concurrent[0].stdout.lines if "::test_" in line and ("WON" in line or "LOST" in line
                                                                                      or "DRAW" in line)]
    assert [line.split(" ")[0] for line in statuses] == serial_ids
    # each match's requests went to its own cassette: the two runs wrote the same files
    serial_files = _cassettes(suite.path / "cassettes-serial")
    with_model = [r for r in serial[1] if any("openai/m" in side["agent"] for side in r["sides"])]
    assert len(serial_files) == len(with_model) >= 6
    assert _cassettes(suite.path / "cassettes-concurrent") == serial_files
    # a replay of the concurrent recording (played concurrently) equals a replay of the serial one (serially)
    replay_serial = _run(suite, "replay-serial", "--record-mode=none", "--stratbench-concurrency", "1",
                         "--stratbench-cassette-dir", "cassettes-serial")
    replay_concurrent = _run(suite, "replay-concurrent", "--record-mode=none", "--stratbench-concurrency", "8",
                             "--stratbench-cassette-dir", "cassettes-concurrent")
    for result, _, _ in (replay_serial, replay_concurrent):
        assert result.ret == 0, result.stdout.str()
    assert [_stable(r) for r in replay_concurrent[1]] == [_stable(r) for r in replay_serial[1]]
    assert [_stable(r) for r in replay_serial[1]] == [_stable(r) for r in serial[1]]
    assert replay_concurrent[2] == replay_serial[2] == serial[2]


@pytest.mark.slow
def test_concurrency_inside_each_xdist_worker_keeps_every_match_once(suite):
    with FakeLLMServer(delay_s=0.05) as server:
        result, records, _ = _run(suite, "xdist", "--api-base", server.api_base, "--stratbench-concurrency", "4",
                                  "-n", "2")
        calls = len(server.requests)
    assert result.ret == 0, result.stdout.str()
    ids = [r["match_id"] for r in records]
    assert len(ids) == len(set(ids)) >= 8
    assert all(r["status"] == "scored" for r in records)
    # no match was played twice (a match taken by the other worker is cancelled before its first call)
    assert calls == sum(r["usage"][str(r["subject"])]["calls"] if str(r["subject"]) in r["usage"]
                        else r["usage"][r["subject"]]["calls"] for r in records)


@pytest.mark.slow
def test_a_match_that_errors_in_flight_keeps_its_own_record(suite):
    """A match whose replay misses its cassette errors alone; the matches around it still score."""
    with FakeLLMServer(delay_s=0.02) as server:
        result, records, _ = _run(suite, "record", "--api-base", server.api_base, "--stratbench-concurrency", "8")
    assert result.ret == 0
    broken = [r for r in records if r.get("cassette")][2]
    (suite.path / broken["cassette"]["path"]).unlink()
    result, replayed, _ = _run(suite, "replay", "--record-mode=none", "--stratbench-concurrency", "8")
    assert result.ret == 1
    by_id = {r["match_id"]: r for r in replayed}
    assert by_id[broken["match_id"]]["status"] == "errored"
    assert "no cassette" in by_id[broken["match_id"]]["reason"]
    assert sorted(r["status"] for r in replayed) == ["errored"] + ["scored"] * (len(replayed) - 1)


@pytest.mark.parametrize(("given", "models", "agents", "budgeted", "expected"), [
    (None, ["openai/m"], [], False, DEFAULT_CONCURRENCY_WITH_MODEL),
    (None, [], [], False, 1),
    (None, ["openai/m"], [], True, 1),
    (4, ["openai/m"], [], True, 4),
    (8, [], ["human"], False, 1),
])
def test_the_default_concurrency(given, models, agents, budgeted, expected):
    assert default_concurrency(given, models, agents, budgeted=budgeted) == expected


def test_a_bad_concurrency_is_one_line(pytester):
    result = pytester.runpytest_subprocess("--stratbench-concurrency", "0")
    result.stderr.fnmatch_lines(["*--stratbench-concurrency: expected a whole number of at least 1, got '0'*"])
    assert result.ret == 4

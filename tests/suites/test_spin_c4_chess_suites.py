"""End to end: the Connect Four and chess suites offline and with a (loopback) model.

Connect Four: a fake model and the random baseline each play the solver;
every move of both sides gets its solver rank. Chess: the fake model plays
Stockfish at a small depth; the model's moves are ranked by Stockfish
MultiPV. A second chess run with the server gone replays the cassettes under
``-n 2`` and must reproduce every game and metric.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from stratbench.games.spin.agents.stockfish import STOCKFISH_MISSING, find_stockfish
from stratbench.games.spin.c4_solver import OpeningBook
from stratbench.testing.fake_llm import FakeLLMServer
from stratbench.testing.warm_pytest import run_pytest

ROOT = Path(__file__).resolve().parents[2]


def _pytest(args, tmp_path, **env):
    environment = {**os.environ, "STRATBENCH_STOCKFISH_DEPTH": "3", "STRATBENCH_CHESS_ANNOTATION_DEPTH": "3", **env}
    result = run_pytest(
        [*args, "-q", "-p", "no:cacheprovider", "-p", "no:randomly"],
        cwd=ROOT, env=environment, timeout=600)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    return result


def _records(report_dir: Path) -> dict[str, dict]:
    lines = (report_dir / "results.jsonl").read_text().splitlines()
    return {r["test_id"]: r for r in map(json.loads, lines) if r.get("type") == "match"}


@pytest.mark.slow
@pytest.mark.skipif(not OpeningBook().available, reason="bitbully-databases is not installed")
def test_connect4_suite_ranks_every_move_against_the_solver(tmp_path):
    with FakeLLMServer().start() as server:
        _pytest(
            ["suites/spin/test_connect4.py", "--matches", "1", "--model", "openai/m",
             "--api-base", server.api_base, "--record-mode=once",
             "--stratbench-cassette-dir", str(tmp_path / "cassettes"), "--report-dir", str(tmp_path / "report")],
            tmp_path,
        )
    records = _records(tmp_path / "report")
    assert set(records) == {"openai/m+direct-vs-c4solver-s0", "random-vs-c4solver-s0"}
    for record in records.values():
        solver_side = 1 - record["subject"]
        assert record["result"] in ("lost", "draw")
        for side in (0, 1):
            metrics = record["metrics"][str(side)]
            assert metrics["moves"] == len(metrics["ranks"]) == record["decisions"][side]
            assert 0 <= metrics["top1_share"] <= metrics["top3_share"] <= 1
        assert record["metrics"][str(solver_side)]["top1_share"] == 1.0
    assert records["openai/m+direct-vs-c4solver-s0"]["usage"][0]["calls"] >= 1


@pytest.mark.slow
@pytest.mark.skipif(find_stockfish() is None, reason=STOCKFISH_MISSING)
def test_chess_suite_records_move_quality_and_replays_identically_under_xdist(tmp_path):
    common = ["suites/spin/test_chess.py", "--matches", "1", "--model", "openai/m", "-k", "openai",
              "--stratbench-cassette-dir", str(tmp_path / "cassettes")]
    with FakeLLMServer().start() as server:
        _pytest([*common, "--api-base", server.api_base, "--record-mode=once",
                 "--report-dir", str(tmp_path / "record")], tmp_path)
    _pytest([*common, "--record-mode=none", "-n", "2", "--report-dir", str(tmp_path / "replay")], tmp_path)
    recorded, replayed = _records(tmp_path / "record"), _records(tmp_path / "replay")
    assert set(recorded) == {"openai/m+direct-vs-stockfish20-s0"}
    for test_id, record in recorded.items():
        llm, engine = str(record["subject"]), str(1 - record["subject"])
        assert record["metrics"][engine]["annotated"] is False
        quality = record["metrics"][llm]
        assert quality["annotated"] is True and quality["moves"] == len(quality["ranks"]) >= 1
        assert quality["annotation"] == {"engine": "stockfish", "depth": 3, "multipv": 10}
        assert record["metrics"][llm]["pgn"].count("[") >= 7 and record["metrics"][llm]["final_fen"]
        again = replayed[test_id]
        assert again["scores"] == record["scores"] and again["turns"] == record["turns"]
        assert again["metrics"] == record["metrics"]

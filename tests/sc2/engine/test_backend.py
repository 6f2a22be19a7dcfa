"""``--sc2-backend``: the engine games play on the engine or the live game, and every record names which."""

from __future__ import annotations

import os

import pytest
from stratbench.games.sc2.engine import games
from stratbench.games.sc2.metrics import kd_wr
from stratbench.games.sc2.report import sc2_tables
from stratbench.testing.warm_pytest import run_pytest


@pytest.fixture
def restore_backend():
    yield
    games.select_backend("engine")


def test_engine_games_name_their_backend(tmp_path, restore_backend):
    assert games.smac_game("3s_vs_3z").backend == "engine"
    assert games.tasks_game("pvz_task3_level2").backend == "engine"
    (tmp_path / "3s_vs_3z.SC2Map").write_bytes(b"")
    games.select_backend("live", tmp_path)
    game = games.smac_game("3s_vs_3z")
    assert game.backend == "live"
    assert game.env_factory.__qualname__.startswith("live_env_factory")
    with pytest.raises(ValueError, match="known: engine, live"):
        games.select_backend("replay")


def test_the_report_keeps_engine_and_live_rows_apart():
    def record(backend: str, killed: float, lost: float, outcome: str) -> dict:
        return {"game": "sc2_smac", "variant": "2s3z", "sides": [{"agent": "m"}],
                "metrics": {"0": {"killed_value": killed, "lost_value": lost, "outcome": outcome, "backend": backend}}}

    records = [record("engine", 500, 250, "win"), record("live", 100, 500, "loss"), record("engine", 0, 250, "loss")]
    cells = kd_wr(records)
    assert set(cells) == {("m", "engine", "2s3z"), ("m", "live", "2s3z")}
    table = sc2_tables(records)
    runs = [r for r in table["rows"] if r[1].startswith("this run")]
    assert [r[1] for r in runs] == ["this run (engine backend)", "this run (live backend)"]
    column = table["columns"].index("2s3z")
    assert [r[column] for r in runs] == ["1.00 (50%)", "0.20 (0%)"]


@pytest.mark.slow
def test_live_backend_without_the_game_is_a_one_line_usage_error(tmp_path):
    env = {k: v for k, v in os.environ.items() if k != "SC2PATH"}
    result = run_pytest(["--sc2-backend", "live", "-p", "no:cacheprovider",
                             "--collect-only", "-q", str(tmp_path)], cwd=tmp_path, timeout=120, env=env)
    assert result.returncode == 4
    assert "--sc2-backend live: " in result.stderr and "SC2PATH" in result.stderr
    assert "Traceback" not in result.stderr + result.stdout

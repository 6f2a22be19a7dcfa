"""Live StarCraft II: what is checked without the game, and one live episode that needs it (marked ``sc2_live``)."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from stratbench.games.sc2.live import live_env_factory, live_problem, map_file

ROOT = Path(__file__).resolve().parents[2]


def test_why_live_play_cannot_happen_is_one_line(pysc2, tmp_path, monkeypatch):
    monkeypatch.delenv("SC2PATH", raising=False)
    assert live_problem(tmp_path) == "StarCraft II is not installed here (SC2PATH is not set)"
    monkeypatch.setenv("SC2PATH", str(tmp_path / "nope"))
    assert live_problem(tmp_path) == f"SC2PATH={tmp_path / 'nope'} is not a folder"
    monkeypatch.setenv("SC2PATH", str(tmp_path))
    assert live_problem(None) == "no maps folder given (--sc2-maps DIR)"
    assert live_problem(tmp_path) is None


def test_a_missing_map_is_named_with_its_folder(pysc2, tmp_path):
    (tmp_path / "llm_smac").mkdir()
    (tmp_path / "llm_smac" / "2s3z.SC2Map").write_bytes(b"map")
    assert map_file(tmp_path, "2s3z") == (tmp_path / "llm_smac" / "2s3z.SC2Map").resolve()
    with pytest.raises(FileNotFoundError) as error:
        live_env_factory("3s5z", tmp_path)
    assert str(error.value) == f"--sc2-maps: no 3s5z.SC2Map in {tmp_path}"


@pytest.mark.sc2_live
def test_a_live_episode_plays_through_the_text_interface(pysc2, request):
    maps = request.config.getoption("sc2_maps")
    problem = live_problem(Path(maps) if maps else None)
    if problem is not None:
        pytest.skip(f"live StarCraft II: {problem}")
    from stratbench.core.runner import MatchRules, run_match
    from stratbench.games.sc2.baselines import AttackNearestAgent
    from stratbench.games.sc2.config import TeamConfig, smac_layout
    from stratbench.games.sc2.game import SC2TextGame

    layout = smac_layout((TeamConfig("Stalker-1", ("Stalker",)), TeamConfig("Zealot-1", ("Zealot",))),
                         "Kill as much as enemy units as possible and avoid losing unit.")
    game = SC2TextGame("llm_smac", live_env_factory("2s3z", Path(maps)), layout, backend="live")
    state = game.new_initial_state(0)
    outcome = asyncio.run(run_match(game, state, {0: AttackNearestAgent()}, rng=random.Random(0),
                                    rules=MatchRules(fallback="drop")))
    assert outcome.terminal in ("win", "tie", "loss") and game.results[-1].decisions > 0

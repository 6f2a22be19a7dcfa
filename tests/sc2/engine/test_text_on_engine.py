"""The text interface plays on SC2Env-on-engine: baselines write action text, parser and translator act."""

import asyncio

import pytest

from stratbench.core.types import Observation
from stratbench.games.sc2.config import TeamConfig, interface_format, smac_layout
from stratbench.games.sc2.engine.run_config import engine_backend
from stratbench.games.sc2.engine.text_baselines import attack_move_reply, focus_fire_reply
from stratbench.games.sc2.multi_agent import LockStepEpisode, play_episode
from stratbench.games.sc2.pysc2_compat import import_pysc2

TEAMS = {
    "3s_vs_3z": (TeamConfig("Stalker-1", ("Stalker",)),),
    "2s3z": (TeamConfig("Zealot-1", ("Zealot",)), TeamConfig("Stalker-1", ("Stalker",))),
}


def _play(map_name: str, reply, seed: int):
    import_pysc2()
    from pysc2.env import sc2_env

    def factory():
        return sc2_env.SC2Env(map_name=map_name, players=[sc2_env.Agent(sc2_env.Race.protoss)],
                              agent_interface_format=interface_format(), step_mul=8, random_seed=seed)

    with engine_backend():
        episode = LockStepEpisode(factory, smac_layout(TEAMS[map_name]))
        texts = []

        async def decide(text: str) -> str:
            teams = {t.name: [hex(tag) for tag in t.tags] for t in episode.teams("CombatGroupSmac")}
            observation = Observation(game=map_name, player=0, text=text, legal_actions=(), rules="",
                                      data={"teams": teams, "observation": episode.timestep.observation})
            texts.append(reply(observation))
            return texts[-1]

        try:
            result = asyncio.run(play_episode(episode, {"CombatGroupSmac": decide}, timeout_s=60))
        finally:
            episode.close()
    return result, texts


@pytest.mark.slow
@pytest.mark.parametrize("map_name", ["3s_vs_3z"])
def test_focus_fire_text_outkills_attack_move_text_on_the_engine(map_name):
    focus, focus_texts = _play(map_name, focus_fire_reply, 1)
    plain, plain_texts = _play(map_name, attack_move_reply, 1)
    assert any("<Attack_Unit(0x" in t for t in focus_texts)
    assert any("<Attack_screen(now, [" in t for t in plain_texts)
    assert focus.agents["CombatGroupSmac"]["invalid"] == 0 and plain.agents["CombatGroupSmac"]["invalid"] == 0
    # focus fire fires then walks a decision's length away from the slower Zealots: it kills all three
    # (100 minerals each) and loses none; attack-move kills one and loses all three (125 + 2 x 50 each)
    assert (focus.outcome, plain.outcome) == ("win", "loss")
    assert (focus.killed_value, plain.killed_value) == (300.0, 100.0)
    assert (focus.lost_value, plain.lost_value) == (0.0, 3 * (125 + 2 * 50))
    assert focus.game_loop > plain.game_loop


@pytest.mark.slow
def test_the_same_text_episode_replays_identically():
    first, first_texts = _play("3s_vs_3z", focus_fire_reply, 1)
    second, second_texts = _play("3s_vs_3z", focus_fire_reply, 1)
    assert first_texts == second_texts
    assert (first.outcome, first.game_loop, first.killed_value, first.lost_value) == \
        (second.outcome, second.game_loop, second.killed_value, second.lost_value)


@pytest.mark.slow
def test_focus_fire_text_beats_attack_move_text_on_2s3z_over_eight_seeds():
    # the mirror match against the scripted enemy (which re-decides every 4 game loops, the text side every
    # decision of the released loop: 3-4 game seconds here): focus fire wins some, attack-move none
    focus = [_play("2s3z", focus_fire_reply, seed)[0] for seed in range(8)]
    plain = [_play("2s3z", attack_move_reply, seed)[0] for seed in range(8)]
    wins = lambda runs: sum(r.outcome == "win" for r in runs)  # noqa: E731
    kd = lambda runs: sum(r.killed_value for r in runs) / sum(r.lost_value for r in runs)  # noqa: E731
    assert (wins(focus), wins(plain)) == (3, 0)
    assert round(kd(focus), 2) == 0.89 and round(kd(plain), 2) == 0.40

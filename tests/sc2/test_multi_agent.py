"""The lock-step loop: concurrent agents, messages on the next decision, timeouts, and outcomes."""

from __future__ import annotations

import asyncio
import re

import pytest
from stratbench.games.sc2.game import mock_game, mock_multi_layout
from stratbench.games.sc2.mock_battle import make_env_factory, skirmish
from stratbench.games.sc2.multi_agent import LockStepEpisode, play_episode

UNITS = skirmish((("Protoss.Stalker", 2), ("Protoss.Zealot", 1)), (("Zerg.Zergling", 4),))


def _episode(**kwargs):
    episode = LockStepEpisode(make_env_factory(UNITS), mock_multi_layout("2s1z_vs_4zg"), **kwargs)
    episode.start()
    return episode


def _attack(team, tag="0x100040001"):
    return f"Actions:\n  Team {team}:\n    <Attack_Unit({tag})>\n"


def _first_enemy(text):
    """Reads the first enemy tag the text observation lists."""
    enemies = text.split("Nearby Enemy Units:", 1)[1]
    return re.search(r"Tag: (0x[0-9a-f]+)", enemies).group(1)


def test_messages_arrive_at_the_next_decision_only(pysc2):
    episode = _episode()
    assert episode.acting() == ("CombatGroup0", "CombatGroup1")
    assert "Communication information:\nAvailable Communication Targets:\n\tCombatGroup1:" in episode.text("CombatGroup0")
    deliveries = episode.submit({
        "CombatGroup0": _attack("Stalker-1") + "Communications:\n<MessageTo(CombatGroup1, '''Hit 0x100040001''')>\n"
                        "<ListenTo(Channel-1)>",
        "CombatGroup1": _attack("Zealot-1") + "Communications:\n<MessageTo(Channel-1, '''nobody hears this yet''')>\n"
                        "<MessageTo(Nobody, '''lost''')>",
    })
    # Channel-1 had no listener but its sender when the message went out... CombatGroup0 joined in the same reply.
    assert [(d.sender, d.recipients, d.text, d.channel) for d in deliveries] == [
        ("CombatGroup0", ("CombatGroup1",), "Hit 0x100040001", ""),
        ("CombatGroup1", ("CombatGroup0",), "nobody hears this yet", "Channel-1"),
    ]
    assert "\tFrom CombatGroup0: \n\t\tHit 0x100040001\n" in episode.text("CombatGroup1")
    assert "\tIn Channel-1: \n\t\tFrom CombatGroup1: nobody hears this yet\n" in episode.text("CombatGroup0")
    episode.submit({"CombatGroup0": "", "CombatGroup1": ""})
    assert "From CombatGroup0" not in episode.text("CombatGroup1")  # delivered once
    assert episode.stats["CombatGroup1"].messages == 2


def test_agents_decide_concurrently_and_the_result_ignores_their_latency(pysc2):
    def run(delays):
        in_flight, peak = [0], [0]

        def decider(team, delay):
            async def decide(text):
                in_flight[0] += 1
                peak[0] = max(peak[0], in_flight[0])
                await asyncio.sleep(delay)
                in_flight[0] -= 1
                return _attack(team, _first_enemy(text))
            return decide

        episode = LockStepEpisode(make_env_factory(UNITS), mock_multi_layout("2s1z_vs_4zg"))
        result = asyncio.run(play_episode(episode, {"CombatGroup0": decider("Stalker-1", delays[0]),
                                                    "CombatGroup1": decider("Zealot-1", delays[1])}))
        return result, peak[0]

    fast, peak = run((0.0, 0.02))
    slow, _ = run((0.03, 0.0))
    assert peak == 2
    strip = lambda r: {**r.to_dict(), "agents": {k: {**v, "latency_s": None} for k, v in r.agents.items()}}
    assert strip(fast) == strip(slow)
    # Four Zerglings killed (25 each); both Stalkers lost (125 + 2 × 50 each) while the teams were selected.
    assert fast.outcome == "win" and fast.killed_value == 100 and fast.lost_value == 450


def test_a_late_agent_counts_a_timeout_and_plays_nothing(pysc2):
    async def late(text):
        await asyncio.sleep(5)
        return _attack("Zealot-1")

    async def quick(text):
        return _attack("Stalker-1")

    episode = LockStepEpisode(make_env_factory(UNITS, max_steps=6), mock_multi_layout("2s1z_vs_4zg"))
    result = asyncio.run(play_episode(episode, {"CombatGroup0": quick, "CombatGroup1": late}, timeout_s=0.01))
    assert result.agents["CombatGroup1"]["timeouts"] == result.agents["CombatGroup1"]["decisions"] >= 1
    assert result.agents["CombatGroup1"]["actions"] == 0
    assert result.agents["CombatGroup0"]["timeouts"] == 0


def test_outcome_and_kill_values_follow_the_last_timestep(pysc2):
    episode = LockStepEpisode(make_env_factory(UNITS), mock_multi_layout("2s1z_vs_4zg"))
    result = asyncio.run(play_episode(episode, {"CombatGroup0": _noop, "CombatGroup1": _noop}))
    # Nobody attacks: the Zerglings kill the 2 Stalkers (125+2*50 each) and the Zealot (100).
    assert (result.outcome, result.reward, result.killed_value, result.lost_value) == ("loss", -1.0, 0.0, 550.0)


async def _noop(text):
    return "Actions:\n"


def test_the_game_scores_and_records_the_episode(pysc2):
    game = mock_game("2s1z_vs_4zg-2agents")
    assert game.info.num_players == 2 and game.info.sides == ((0, 1),) and game.info.simultaneous
    state = game.new_initial_state(0)
    observation = game.observe(state, 1)
    assert observation.role == "CombatGroup1" and observation.asking.answer_parser == "sc2-reply"
    assert observation.asking.system_prompt.startswith("1.Identity\n  You are a Protoss frontline commander")
    assert [m["role"] for m in observation.asking.preamble] == ["user", "assistant"]
    with pytest.raises(TypeError, match="cannot be copied"):
        state.clone()

"""Hanabi metrics: play statistics of a played match, the score table with its references."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.games.spin.metrics.hanabi import HUMAN_REFERENCE, SPIN_BENCH_TABLE1, score_table


def _record(agent, variant, score):
    return {"game": "hanabi", "variant": variant, "sides": [{"agent": agent, "players": [0, 1]}], "scores": [score]}


def test_score_table_averages_per_agent_and_player_count_and_adds_references():
    records = [_record("random", "2p", 1), _record("random", "2p", 3), _record("rules", "3p", 15),
               {"game": "tictactoe", "variant": None, "sides": [], "scores": [1, 0]}]
    rows = score_table(records)
    assert rows[0] == {"agent": "random", "source": "run", "2p": {"mean": 2, "sd": 1, "n": 2}}
    assert rows[1]["3p"] == {"mean": 15, "sd": 0, "n": 1}
    published = [r for r in rows if r["source"] == "SPIN-Bench Table 1"]
    assert len(published) == len(SPIN_BENCH_TABLE1) and published[0]["2p"] == {"mean": 16.4}
    assert rows[-1]["agent"] == "human" and rows[-1]["typical_range"] == HUMAN_REFERENCE["typical_range"]


def test_play_stats_count_every_decision():
    pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'")
    from stratbench.agents.random_agent import RandomAgent
    from stratbench.core.agent import AgentContext, AgentSpec
    from stratbench.core.runner import run_match
    from stratbench.core.transcript import Transcript
    from stratbench.games.spin.hanabi import Hanabi
    from stratbench.games.spin.metrics.hanabi import play_stats

    game = Hanabi("2p")
    agents = {p: RandomAgent(AgentContext(AgentSpec("random"), game, p, 0, random.Random(p), Transcript()))
              for p in range(2)}
    state = game.new_initial_state(5)
    outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(5)))
    stats = play_stats(game, outcome, 5)
    assert sum(s["hints"] + s["plays"] + s["discards"] for s in stats.values()) == outcome.turns
    assert stats[0]["score"] == outcome.scores[0] and stats[0]["hle_score"] == state.hle_score()
    assert sum(s["misplays"] for s in stats.values()) == 3 - stats[0]["life_tokens_left"]
    assert stats[0]["bombed_out"] == (stats[0]["life_tokens_left"] == 0)


def test_the_paper_protocols_mean_leaves_out_matches_ended_by_exhausted_retries():
    from stratbench.games.spin.report import hanabi

    def paper(score, forfeited):
        return {**_record("m", "2p", score), "protocol": "paper", "forfeited_by_side": 0 if forfeited else None}

    rows = score_table([paper(10, False), paper(14, False), paper(0, True), paper(0, True)])
    assert rows[0] == {"agent": "m", "source": "run", "left_out": 2, "2p": {"mean": 12, "sd": 2, "n": 2}}
    # The default protocol's forfeits stay in its mean (its fallback plays on; a forfeit there scores 0).
    default = [{**_record("m", "2p", 10), "protocol": "default"},
               {**_record("m", "2p", 0), "protocol": "default", "forfeited_by_side": 0}]
    assert score_table(default)[0] == {"agent": "m", "source": "run", "2p": {"mean": 5, "sd": 5, "n": 2}}
    section = hanabi([paper(10, False), paper(0, True)])
    assert "left out of the mean (1 here)" in section["note"] and section["rows"][0][2] == "10.0 ± 0.0 (n=1)"
    # Only forfeits: the agent keeps a row, with no score.
    assert score_table([paper(0, True)])[0] == {"agent": "m", "source": "run", "left_out": 1}

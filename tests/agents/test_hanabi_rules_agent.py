"""The rule-based Hanabi baseline: its priorities on hand-made views, and its strength."""

from __future__ import annotations

import asyncio
import random
from statistics import mean

import pytest

from stratbench.games.spin.agents.hanabi_rules import choose


def _view(my_hand, other_hands, legal, fireworks=None, info_tokens=8):
    return {
        "fireworks": fireworks or dict.fromkeys("RYGWB", 0),
        "info_tokens": info_tokens,
        "my_hand": [{"known": k, "possible": p} for k, p in my_hand],
        "other_hands": [[{"card": c, "known": k, "possible": p} for c, k, p in hand] for hand in other_hands],
        "legal": legal,
    }


UNKNOWN = ("XX", "RYGWB12345")
LEGAL = {
    "0": "(Discard 0)", "1": "(Discard 1)", "5": "(Play 0)", "6": "(Play 1)",
    "10": "(Reveal player +1 color R)", "11": "(Reveal player +1 color Y)",
    "15": "(Reveal player +1 rank 1)", "16": "(Reveal player +1 rank 2)",
}


def test_plays_a_card_known_to_be_playable():
    view = _view([UNKNOWN, ("X1", "RYGWB1")], [[("R1", "XX", "RYGWB12345")]], LEGAL)
    assert choose(view) == "6"  # every 1 is playable on empty fireworks


def test_does_not_play_a_card_that_might_not_be_playable():
    fireworks = {"R": 1, "Y": 0, "G": 0, "W": 0, "B": 0}
    view = _view([UNKNOWN, ("X1", "RYGWB1")], [[("B4", "XX", "RYGWB12345")]], LEGAL, fireworks, info_tokens=3)
    assert choose(view) == "0"  # R1 is possible and dead: discard the oldest unhinted card instead


def test_hints_the_rank_then_the_colour_of_a_teammates_playable_card():
    view = _view([UNKNOWN, UNKNOWN], [[("Y2", "XX", "RYGWB12345"), ("R1", "XX", "RYGWB12345")]], LEGAL)
    assert choose(view) == "15"  # rank 1 first
    fireworks = {"R": 1, "Y": 1, "G": 0, "W": 0, "B": 0}
    hinted = _view([UNKNOWN, UNKNOWN], [[("Y2", "X2", "RYGWB2"), ("B3", "XX", "RYGWB12345")]], LEGAL, fireworks)
    assert choose(hinted) == "11"  # the rank is known but not sure to be playable: hint the colour


def test_discards_a_known_useless_card_before_the_oldest_unhinted_one():
    fireworks = {"R": 2, "Y": 0, "G": 0, "W": 0, "B": 0}
    view = _view([UNKNOWN, ("R2", "R12")], [[("B4", "XX", "RYGWB12345")]], LEGAL, fireworks, info_tokens=2)
    assert choose(view) == "1"


def test_always_answers_a_legal_action():
    only_hint = {"20": "(Reveal player +1 rank 5)"}
    view = _view([UNKNOWN], [[("B4", "XX", "RYGWB12345")]], only_hint)
    assert choose(view) == "20"


def test_scores_clearly_above_random():
    pytest.importorskip("pyspiel", reason="Hanabi needs OpenSpiel: pip install 'pytest-stratbench[hanabi]'")
    from stratbench.games.spin.agents.hanabi_rules import HanabiRulesAgent
    from stratbench.agents.random_agent import RandomAgent
    from stratbench.core.agent import AgentContext, AgentSpec
    from stratbench.core.runner import run_match
    from stratbench.core.transcript import Transcript
    from stratbench.games.spin.hanabi import Hanabi

    game = Hanabi("3p")

    def play(kind, seed):
        agents = {}
        for player in range(3):
            context = AgentContext(AgentSpec(kind), game, player, 0, random.Random(f"{seed}:{player}"), Transcript())
            agents[player] = HanabiRulesAgent(context) if kind == "hanabi-rules" else RandomAgent(context)
        outcome = asyncio.run(run_match(game, game.new_initial_state(seed), agents, rng=random.Random(seed)))
        assert outcome.illegal == {0: 0, 1: 0, 2: 0}
        return outcome.scores[0]

    rules = mean(play("hanabi-rules", seed) for seed in range(8))
    rand = mean(play("random", seed) for seed in range(8))
    assert rules >= 10 and rules > rand + 8

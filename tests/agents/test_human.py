"""The human agent, driven by scripted stdin."""

from __future__ import annotations

import asyncio
import io
import random

from stratbench.agents.human import HumanAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.games.spin.tictactoe import TicTacToe


def human(script: str, out: io.StringIO) -> HumanAgent:
    game = TicTacToe()
    context = AgentContext(AgentSpec("human"), game, 0, 0, random.Random(0), Transcript(),
                           options={"human_input": io.StringIO(script), "human_output": out})
    return HumanAgent(context)


class Replay:
    def __init__(self, moves):
        self.moves = list(moves)

    async def act(self, observation):
        from stratbench.core.types import Action

        return Action(self.moves.pop(0))


def test_a_person_plays_with_board_legal_moves_and_retry_feedback():
    out = io.StringIO()
    game = TicTacToe()
    agents = {0: human("4\n4\n0\n8\n", out), 1: Replay(["1", "2"])}
    outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0)))
    text = out.getvalue()
    assert outcome.scores == [1.0, 0.0] and outcome.illegal[0] == 1  # the second "4" was occupied
    assert "=== Tic-Tac-Toe ===" in text and "Legal actions: 0, 1, 2, 3, 4, 5, 6, 7, 8" in text
    assert "Rejected: '4' is not a legal action" in text
    assert "Your action (X)> " in text and ". | X | ." in text


def test_closed_input_stops_the_match_as_a_harness_fault():
    out = io.StringIO()
    game = TicTacToe()
    agents = {0: human("", out), 1: Replay([])}
    try:
        asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0), rules=MatchRules()))
    except Exception as error:  # noqa: BLE001 - checking the type below
        assert type(error).__name__ == "HarnessError" and "run pytest with -s" in str(error)
    else:
        raise AssertionError("a closed input must stop the match")

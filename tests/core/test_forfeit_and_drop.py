"""Forfeit scores in games without a constant score sum, and the ``drop`` fallback (``State.pass_action``)."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.core.game import Game, GameInfo, State
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, HarnessError, Observation, Rules, TruncatedAnswer


class CollectState(State):
    """Three players act together for three turns; each ``take`` is worth a point."""

    def __init__(self, game):
        super().__init__(game)
        self.points = [0, 0, 0]

    def _current_players(self):
        return [0, 1, 2]

    def _legal_actions(self, player):
        return ["pass", "take"]

    def _apply(self, actions):
        for player, action in actions.items():
            self.points[player] += action.id == "take"

    def _is_terminal(self):
        return self.turn >= 3

    def _scores(self):
        return [float(p) for p in self.points]

    def pass_action(self, player):
        return Action("pass") if self.game.can_pass else None


class Collect(Game):
    info = GameInfo("collect", 3, ((0,), (1,), (2,)), max_turns=5, score_range=(0.0, 10.0), score_sum=None)
    rules = Rules("Collect", "Take points.")

    def __init__(self, can_pass=True):
        self.can_pass = can_pass

    def new_initial_state(self, seed):
        return CollectState(self)

    def observe(self, state, player):
        return Observation("collect", player, str(state.points), tuple(state.legal_actions(player)), self.rules,
                           turn=state.turn)


class Taker:
    async def act(self, observation):
        return Action("take")


class TakesTwiceThenMumbles:
    """Takes on the first two turns, then answers nothing readable."""

    async def act(self, observation):
        return Action("take") if observation.turn < 2 else Action("mumble")


def _play(game, fallback):
    transcript = Transcript()
    state = game.new_initial_state(0)
    agents = {0: Taker(), 1: Taker(), 2: TakesTwiceThenMumbles()}
    rules = MatchRules(illegal_tolerance=3, fallback=fallback)
    outcome = asyncio.run(run_match(game, state, agents, rng=random.Random(0), rules=rules, transcript=transcript))
    return outcome, transcript


def test_a_forfeit_without_a_score_sum_leaves_the_others_what_the_rules_give_them():
    outcome, _ = _play(Collect(), "forfeit")
    assert outcome.forfeited_by == 2 and outcome.turns == 2 and outcome.terminal == "forfeit by player 2"
    # The others keep their two points; nobody is handed the score range's top (10).
    assert outcome.scores == [2.0, 2.0, 0.0]


def test_the_drop_fallback_plays_the_pass_action_and_the_game_goes_on():
    outcome, transcript = _play(Collect(), "drop")
    assert outcome.forfeited_by is None and outcome.turns == 3 and outcome.terminal == "end"
    assert outcome.scores == [3.0, 3.0, 2.0]
    assert outcome.illegal == {0: 0, 1: 0, 2: 3} and outcome.fallbacks == {0: 0, 1: 0, 2: 1}
    assert outcome.history[-1] == {0: "take", 1: "take", 2: "pass"}
    fallbacks = transcript.of_kind("fallback")
    assert [(e["player"], e["policy"], e["action"]) for e in fallbacks] == [(2, "drop", "pass")]


def test_the_drop_fallback_without_a_pass_action_is_a_harness_error():
    with pytest.raises(HarnessError) as raised:
        _play(Collect(can_pass=False), "drop")
    assert str(raised.value) == "collect: the drop fallback needs State.pass_action, which this game lacks"


def test_an_unknown_fallback_is_refused_naming_the_choices():
    with pytest.raises(ValueError) as raised:
        MatchRules(fallback="skip")
    assert str(raised.value) == "fallback must be one of ('forfeit', 'random', 'drop'), got 'skip'"


class CutOffOnTheLastTurn:
    """Takes on the first two turns; on the third the output-token limit cuts its answer twice."""

    def __init__(self):
        self.asked = 0

    async def act(self, observation):
        if observation.turn < 2:
            return Action("take")
        self.asked += 1
        raise TruncatedAnswer("m: the answer was cut by the output-token limit twice")


@pytest.mark.parametrize("fallback, forfeits", [("drop", False), ("random", False), ("forfeit", True)])
def test_a_truncated_answer_falls_back_at_once_and_is_not_an_illegal_move(fallback, forfeits):
    game, cut = Collect(), CutOffOnTheLastTurn()
    transcript = Transcript()
    agents = {0: Taker(), 1: Taker(), 2: cut}
    rules = MatchRules(illegal_tolerance=3, fallback=fallback)
    outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0), rules=rules,
                                    transcript=transcript))
    assert cut.asked == 1  # no further attempt after a truncation
    assert outcome.illegal == {0: 0, 1: 0, 2: 0} and outcome.format_errors == {0: 0, 1: 0, 2: 0}
    assert outcome.truncated == {0: 0, 1: 0, 2: 1} and outcome.fallbacks == {0: 0, 1: 0, 2: 1}
    assert transcript.of_kind("rejected") == []
    [event] = transcript.of_kind("fallback")
    assert (event["player"], event["policy"], event["reason"]) == (2, fallback, "truncated")
    assert (outcome.forfeited_by == 2) is forfeits

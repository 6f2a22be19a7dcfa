"""The match runner: retries with feedback, fallbacks, simultaneous moves, chance, transcript."""

from __future__ import annotations

import asyncio
import random

import pytest

from stratbench.core.game import CHANCE, Game, GameInfo, State
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError, HarnessError, Observation, Rules
from stratbench.games.spin.tictactoe import TicTacToe


class Scripted:
    """Answers with the given texts in order, recording what it saw."""

    def __init__(self, answers):
        self.answers = list(answers)
        self.seen: list[Observation] = []

    async def act(self, observation):
        self.seen.append(observation)
        answer = self.answers.pop(0)
        if isinstance(answer, Exception):
            raise answer
        return Action(answer)


def play(game, agents, rules=MatchRules(), seed=0):
    transcript = Transcript()
    outcome = asyncio.run(
        run_match(game, game.new_initial_state(seed), agents, rng=random.Random(seed), rules=rules, transcript=transcript)
    )
    return outcome, transcript


def test_illegal_answer_is_fed_back_then_retried():
    x = Scripted(["9", "nonsense", "4", "0", "8"])
    o = Scripted(["1", "2"])
    outcome, transcript = play(TicTacToe(), {0: x, 1: o})
    assert outcome.illegal == {0: 2, 1: 0}
    assert outcome.history[0] == {0: "4"}
    assert x.seen[1].feedback is not None and "'9' is not a legal action" in x.seen[1].feedback
    assert x.seen[1].attempt == 2 and x.seen[2].attempt == 3
    rejected = transcript.of_kind("rejected")
    assert [r["attempt"] for r in rejected] == [1, 2]
    assert outcome.scores == [1.0, 0.0]  # X: 4, 0, 8 diagonal


def test_parse_errors_count_as_illegal_attempts():
    x = Scripted([ActionParseError("no action"), "4", "0", "8"])
    o = Scripted(["1", "2"])
    outcome, _ = play(TicTacToe(), {0: x, 1: o})
    assert outcome.illegal[0] == 1
    assert x.seen[1].feedback == "no action"


def test_unreadable_replies_are_counted_apart_from_illegal_moves():
    x = Scripted([ActionParseError("no action"), "9", ActionParseError("no action"), "4", "0", "8"])
    o = Scripted(["1", "4", "2"])
    outcome, _ = play(TicTacToe(), {0: x, 1: o})
    assert outcome.illegal == {0: 3, 1: 1}  # x: two unreadable, one off the board; o: an occupied cell
    assert outcome.format_errors == {0: 2, 1: 0}


def test_forfeit_after_tolerance_loses_the_match():
    x = Scripted(["9"] * 3)
    o = Scripted([])
    outcome, transcript = play(TicTacToe(), {0: x, 1: o}, MatchRules(illegal_tolerance=3, fallback="forfeit"))
    assert outcome.forfeited_by == 0
    assert outcome.scores == [0.0, 1.0]
    assert outcome.illegal[0] == 3 and outcome.fallbacks[0] == 1
    assert outcome.terminal == "forfeit by player 0"
    assert transcript.of_kind("fallback")[0]["policy"] == "forfeit"


def test_random_fallback_plays_a_legal_move_and_counts_it():
    x = Scripted(["9", "9"] * 5)
    o = Scripted(["9", "9"] * 5)
    outcome, _ = play(TicTacToe(), {0: x, 1: o}, MatchRules(illegal_tolerance=2, fallback="random"))
    assert outcome.forfeited_by is None
    assert sum(outcome.fallbacks.values()) == outcome.turns
    assert sum(outcome.illegal.values()) == 2 * outcome.turns


def test_bad_rules_are_rejected():
    with pytest.raises(ValueError, match="fallback"):
        MatchRules(fallback="coinflip")
    with pytest.raises(ValueError, match="illegal_tolerance"):
        MatchRules(illegal_tolerance=0)


def test_missing_agent_is_a_harness_error():
    with pytest.raises(HarnessError, match="no agent for players"):
        play(TicTacToe(), {0: Scripted(["4"])})


# -- a tiny simultaneous game with chance -------------------------------------------------


class PickState(State):
    def __init__(self, game):
        super().__init__(game)
        self.bonus = None
        self.picks: dict[int, int] = {}

    def _current_players(self):
        return [CHANCE] if self.bonus is None else [0, 1]

    def chance_outcomes(self):
        return [("0", 0.5), ("1", 0.5)]

    def _legal_actions(self, player):
        return ["1", "2", "3"]

    def _apply(self, actions):
        if CHANCE in actions:
            self.bonus = int(actions[CHANCE].id)
        else:
            self.picks = {p: int(a.id) for p, a in actions.items()}

    def _is_terminal(self):
        return bool(self.picks)

    def _scores(self):
        a, b = self.picks[0] + self.bonus, self.picks[1]
        return [1.0, 0.0] if a > b else [0.0, 1.0] if b > a else [0.5, 0.5]


class PickGame(Game):
    info = GameInfo("pick", 2, ((0,), (1,)), max_turns=3, simultaneous=True, chance=True)
    rules = Rules("Pick", "Both pick a number at once.")

    def new_initial_state(self, seed):
        return PickState(self)

    def observe(self, state, player):
        return Observation("pick", player, "pick", tuple(state.legal_actions(player)), self.rules, turn=state.turn)


class Slow:
    def __init__(self, answer, log):
        self.answer, self.log = answer, log

    async def act(self, observation):
        self.log.append(("start", observation.player))
        await asyncio.sleep(0.05)
        self.log.append(("end", observation.player))
        return Action(self.answer)


def test_simultaneous_movers_act_concurrently_and_chance_is_seeded():
    log: list = []
    outcome, transcript = play(PickGame(), {0: Slow("2", log), 1: Slow("3", log)}, seed=5)
    assert log[:2] == [("start", 0), ("start", 1)]  # both started before either finished
    chance = transcript.of_kind("chance")[0]["outcome"]
    again, _ = play(PickGame(), {0: Slow("2", []), 1: Slow("3", [])}, seed=5)
    assert again.history == outcome.history and again.history[0] == {CHANCE: chance}
    assert outcome.history[1] == {0: "2", 1: "3"}


def test_transcript_records_observations_actions_and_end():
    outcome, transcript = play(TicTacToe(), {0: Scripted(["4", "0", "8"]), 1: Scripted(["1", "2"])})
    kinds = [e["kind"] for e in transcript.events]
    assert kinds.count("observation") == outcome.turns == 5
    assert kinds.count("action") == 5 and kinds[-1] == "end"
    first = transcript.of_kind("observation")[0]
    assert first["legal"] == [str(i) for i in range(9)] and "You play X" in first["text"]
    assert all(e["t"] >= 0 for e in transcript.events)

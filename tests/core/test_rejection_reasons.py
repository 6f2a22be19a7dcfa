"""Every rejected answer keeps why: a reason kind on the ``rejected`` event and counts per side."""

from __future__ import annotations

import asyncio
import random

from stratbench.core import rejection
from stratbench.core.rejection import (
    CUT_OFF,
    EMPTY,
    NO_ACTION,
    NOT_LEGAL,
    OTHER_NOTATION,
    SEVERAL,
    classify_rejection,
)
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import ActionParseError, IllegalActionError, TruncatedAnswer
from stratbench.games.spin.chess_game import ChessGame
from stratbench.games.spin.paper_protocols.solver_games import read_json_action
from stratbench.games.spin.tictactoe import TicTacToe
from stratbench.match.record import MatchRecord, rejected_by_side
from stratbench.scaffolds.parsing import parse_action


class Replying:
    """Reads scripted reply texts as a model agent does, keeping the last one (``last_answer``)."""

    def __init__(self, replies, reader=None):
        self.replies = list(replies)
        self.reader = reader or (lambda reply, observation: parse_action(reply, observation.legal_actions))
        self.last_answer = None

    async def act(self, observation):
        reply = self.replies.pop(0)
        if isinstance(reply, Exception):
            self.last_answer = None
            raise reply
        self.last_answer = reply
        return self.reader(reply, observation)


def play(game, agents, rules=None):
    rules = rules or MatchRules(illegal_tolerance=3)
    transcript = Transcript()
    outcome = asyncio.run(run_match(game, game.new_initial_state(0), agents, rng=random.Random(0), rules=rules,
                                    transcript=transcript))
    return outcome, transcript


def test_reader_answers_get_their_reason_kinds():
    x = Replying(["", "Maybe 4 or 0", "9", "Action: 4", "0", "8"])
    o = Replying(["1", "2"])
    outcome, transcript = play(TicTacToe(), {0: x, 1: o}, MatchRules(illegal_tolerance=4))
    rejected = transcript.of_kind("rejected")
    assert [r["why"] for r in rejected] == [EMPTY, SEVERAL, NOT_LEGAL]
    assert [r["answer"] for r in rejected] == ["", "Maybe 4 or 0", "9"]
    assert outcome.rejected == {0: {EMPTY: 1, SEVERAL: 1, NOT_LEGAL: 1}, 1: {}}


def test_a_uci_move_the_san_reader_misses_is_another_notation():
    white = Replying(["I develop the knight: g1f3 looks best here", "Action: e4"])
    black = Replying([ActionParseError("stop")] * 3)
    outcome, transcript = play(ChessGame(), {0: white, 1: black})
    first = transcript.of_kind("rejected")[0]
    assert first["player"] == 0 and first["why"] == OTHER_NOTATION
    assert outcome.rejected[0] == {OTHER_NOTATION: 1}


def test_a_by_row_cell_under_the_by_column_protocol_is_another_notation():
    game = TicTacToe(protocol="paper")
    x = Replying(['{"reason": "r", "action": "5"}'], read_json_action)
    o = Replying(['{"reason": "by row", "action": "5"}', "no json", ""], read_json_action)
    outcome, transcript = play(game, {0: x, 1: o})
    first = transcript.of_kind("rejected")[0]
    assert first["player"] == 1 and first["why"] == OTHER_NOTATION  # "5" by row is empty; by column it is X's 7
    assert outcome.rejected[1] == {OTHER_NOTATION: 1, EMPTY: 1, NO_ACTION: 1}


def test_a_cut_answer_counts_as_cut_off():
    x = Replying([TruncatedAnswer("cut twice")])
    outcome, transcript = play(TicTacToe(), {0: x, 1: Replying([])})
    assert transcript.of_kind("fallback")[0]["why"] == CUT_OFF
    assert outcome.rejected[0] == {CUT_OFF: 1}


def test_classification_without_the_reply_text():
    game = TicTacToe()
    observation = game.observe(game.new_initial_state(0), 0)
    assert classify_rejection(ActionParseError("?"), observation) == NO_ACTION
    assert classify_rejection(ActionParseError("?"), observation, answer="  ") == EMPTY
    assert classify_rejection(IllegalActionError("no"), observation, chosen="12") == NOT_LEGAL
    assert rejection.reason_counts([NOT_LEGAL, EMPTY, NOT_LEGAL]) == {EMPTY: 1, NOT_LEGAL: 2}


def test_the_record_counts_rejections_per_side():
    counts = rejected_by_side({0: {NOT_LEGAL: 2}, 1: {EMPTY: 1}, 2: {NOT_LEGAL: 1}}, ((0, 2), (1,)))
    assert counts == ({NOT_LEGAL: 3}, {EMPTY: 1})
    assert rejected_by_side({0: {}, 1: {}}, ((0,), (1,))) is None
    stored = {
        "match_id": "m", "test_id": "m", "run_id": "r", "status": "skipped", "result": "skipped", "settings_hash": None,
        "game": "tictactoe", "seed": 0, "variant": None, "protocol": "default", "game_options": {},
        "sides": [{"agent": "a", "kind": "a", "model": None, "scaffold": None, "params": {}}] * 2,
        "subject": 0, "scores": None, "reason": "stopped", "fault": None, "rules": {"illegal_tolerance": 3, "fallback": "forfeit"},
        "duration_s": 0.0, "started_at": None, "cassette": None, "versions": {}, "type": "match",
        "rejected": [counts[0], counts[1]],
    }
    read = MatchRecord.from_json(stored)
    assert read.rejected == ({NOT_LEGAL: 3}, {EMPTY: 1})
    assert read.to_json()["rejected"] == [{NOT_LEGAL: 3}, {EMPTY: 1}]


def test_a_cut_reply_read_as_it_was_and_refused_is_cut_off_not_unreadable():
    from stratbench.report.health import harness_health

    game = TicTacToe()
    observation = game.observe(game.new_initial_state(0), 0)
    cut = '{ "phase": "S1901M", "step_by_step_reasoning": "I will start by'
    assert classify_rejection(ActionParseError("no orders"), observation, answer=cut, cut=True) == CUT_OFF
    assert classify_rejection(ActionParseError("no orders"), observation, answer=cut) == NO_ACTION
    assert classify_rejection(IllegalActionError("no"), observation, chosen="12", cut=True) == NOT_LEGAL
    # in the health table such refusals count as truncated answers, not as the model's unreadable ones
    record = {"status": "scored", "match_id": "m", "game": "diplomacy", "scores": [0.0, 1.0],
              "sides": [{"agent": "m", "model": "openai/m", "players": [0]}, {"agent": "hold", "players": [1]}],
              "decisions": [10, 10], "illegal": [6, 0], "format_errors": [6, 0], "truncated": [0, 0],
              "fallbacks": [2, 0], "rejected": [{CUT_OFF: 5, NO_ACTION: 1}, {}]}
    (row,) = [r for r in harness_health([record])["rows"] if r["agent"] == "m"]
    assert (row["unreadable"], row["truncated"], row["illegal"]) == (1, 5, 0)

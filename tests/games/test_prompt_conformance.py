"""Prompt conformance: in every registered game and protocol, an answer written as the prompt asks reads back
as the action meant, and the prompt lists exactly the legal actions (a few sampled states each); the check
also catches a reader that drops a notation and a prompt that lists an action too many."""

from __future__ import annotations

import functools
from dataclasses import replace

import pytest
from stratbench.families import standalone_registry
from stratbench.testing.prompt_conformance import (
    LISTED_NOT_LEGAL,
    MISREAD,
    REJECTED,
    TEXT,
    TOOLS,
    UNREADABLE,
    Problem,
    check_game,
    games_to_check,
)

SAMPLES = 3


@functools.cache
def _registry():
    return standalone_registry(("games", "protocols"))


@pytest.fixture
def registry():
    return _registry()


@pytest.mark.parametrize("case", games_to_check(_registry()), ids=lambda case: case.label)
def test_every_prompt_is_answerable(registry, case):
    problems = check_game(registry, case.name, case.variant, case.protocol, samples=SAMPLES, seed=0)
    assert not problems, "\n".join(map(str, problems))


def test_every_moves_game_is_checked_in_every_protocol(registry):
    cases = games_to_check(registry)
    names = {case.name for case in cases}
    assert len(names) >= 20 and {"chess", "tictactoe", "hanabi", "santorini"} <= names
    for name in names:
        assert {case.protocol for case in cases if case.name == name} == {"default", *registry.protocols.get(name, {})}


def test_a_long_action_answered_by_tool_call_reads_back(registry):
    """Arctic Scavengers' combined actions run past 40 characters; a ``make_move`` call naming one exactly was
    once refused as naming several (the shorter actions it starts with)."""
    problems = check_game(registry, "arctic_scavengers", None, "default", samples=SAMPLES * 10, seed=0)
    assert problems == []


def test_a_reader_that_drops_uci_is_caught(registry, monkeypatch):
    chess_game = type(registry.game("chess"))
    own = chess_game.canonical_action

    def san_only(self, state, player, text):
        is_uci = len(text) in (4, 5) and text[1].isdigit() and text[3].isdigit()
        return None if is_uci else own(self, state, player, text)

    monkeypatch.setattr(chess_game, "canonical_action", san_only)
    problems = check_game(registry, "chess", None, "default", samples=SAMPLES, seed=0)
    assert problems and {p.kind for p in problems} == {REJECTED} and {p.way for p in problems} == {TEXT}


def test_a_reader_that_drops_the_paper_answer_ids_is_caught(registry, monkeypatch):
    own = registry.answer_reader("spin-json")

    def without_answer_ids(reply, observation):
        data = {k: v for k, v in observation.data.items() if k != "answer_ids"}
        return own(reply, replace(observation, data=data))

    monkeypatch.setitem(registry.answer_readers, "spin-json", without_answer_ids)
    kinds = {p.kind for p in check_game(registry, "tictactoe", None, "paper", samples=SAMPLES, seed=0)}
    assert MISREAD in kinds and kinds <= {MISREAD, REJECTED}  # a by-column cell read as a by-row one


def test_a_prompt_that_lists_an_illegal_action_is_caught(registry, monkeypatch):
    tictactoe = type(registry.game("tictactoe"))
    own = tictactoe.observe

    def one_too_many(self, state, player):
        observation = own(self, state, player)
        return replace(observation, legal_actions=(*observation.legal_actions, "99"))

    monkeypatch.setattr(tictactoe, "observe", one_too_many)
    problems = check_game(registry, "tictactoe", None, "default", samples=SAMPLES, seed=0)
    assert {p.kind for p in problems} == {LISTED_NOT_LEGAL}
    assert {p.way for p in problems} == {TEXT, TOOLS} and all("'99'" in p.detail for p in problems)


def test_problems_say_where_they_were_found():
    problem = Problem(MISREAD, "tictactoe", None, "paper", TEXT, 0, 4, 1, "'3' read as '3', meant '1'")
    assert str(problem) == "misread: tictactoe paper/text seed 0 turn 4 player 1: '3' read as '3', meant '1'"

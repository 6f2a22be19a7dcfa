"""The action reader: accepted shapes, ambiguity, open-ended answers, messages."""

from __future__ import annotations

import pytest

from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, ActionParseError
from stratbench.scaffolds.parsing import parse_action, parse_messages

CELLS = [str(i) for i in range(9)]
MOVES = ["e2e4", "d2d4", "g1f3"]


@pytest.mark.parametrize(
    "reply",
    [
        "4",
        "'4'",
        '"4"',
        "`4`",
        "**4**",
        "Action: 4",
        "action = 4",
        "Final answer: 4.",
        "I considered many options.\nAction: 4",
        "```\n4\n```",
        '{"action": "4"}',
        '```json\n{"action": 4, "reason": "centre"}\n```',
        'Reasoning... {"reason": "x {y}", "move": "4"}',
        "I will take the centre, cell 4.",
    ],
)
def test_common_shapes_are_read(reply):
    assert parse_action(reply, CELLS) == Action("4")


def test_the_last_explicit_answer_wins():
    assert parse_action("Action: 3\nOn second thought...\nAction: 5", CELLS) == Action("5")
    assert parse_action('{"action": "1"} then {"action": "2"}', CELLS) == Action("2")


def test_an_explicit_illegal_choice_is_returned_for_the_runner_to_reject():
    assert parse_action("Action: e2e5", MOVES) == Action("e2e5")


def test_ambiguous_prose_is_rejected_with_an_explanation():
    with pytest.raises(ActionParseError) as error:
        parse_action("Either e2e4 or d2d4 would be good here.", MOVES)
    message = str(error.value)
    assert "several actions (e2e4, d2d4)" in message and "Action: <action>" in message and "g1f3" in message


@pytest.mark.parametrize("reply", ["", "   ", "I have no idea what to do in this situation at all."])
def test_empty_or_actionless_replies_are_rejected(reply):
    with pytest.raises(ActionParseError, match="Legal actions"):
        parse_action(reply, MOVES)


def test_open_ended_answers():
    open_ended = {"submit_clue": "a one-word clue and a number"}
    assert parse_action("Action: submit_clue: ocean, 2", ["end_turn"], open_ended) == Action("submit_clue", "ocean, 2")
    assert parse_action('{"action": "submit_clue", "openended_response": "ocean,2"}', ["end_turn"], open_ended) == Action(
        "submit_clue", "ocean,2"
    )
    assert parse_action("Action: end_turn", ["end_turn"], open_ended) == Action("end_turn")


def test_a_sole_open_ended_action_takes_the_whole_reply():
    plan = "(pick-up a)\n(stack a b)"
    assert parse_action(plan, [], {"plan": "your plan"}) == Action("plan", plan)


def test_words_inside_other_words_do_not_count():
    with pytest.raises(ActionParseError):
        parse_action("I would play e2e45 maybe, or something like xd2d4x", MOVES)


def test_messages_are_read_and_recipients_mapped():
    reply = 'Sure. {"messages": [{"to": "ALL", "text": "peace"}, {"to": ["france"], "text": "ally?"},' \
            ' {"to": ["Narnia"], "text": "?"}, {"to": "ALL", "text": "  "}]}'
    assert parse_messages(reply, {1: "FRANCE", 2: "ITALY"}) == [
        Outgoing("peace", ()),
        Outgoing("ally?", (1,)),
        Outgoing("?", (-1,)),
    ]
    assert parse_messages("no json here", {1: "FRANCE"}) == []

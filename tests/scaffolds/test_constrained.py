"""The ``constrained`` scaffold: a JSON-schema enum of the legal actions, free text elsewhere."""

from __future__ import annotations

import json

import pytest

from stratbench.core.types import ActionParseError, Observation, Rules
from stratbench.scaffolds.constrained import (
    JSON_ANSWER_FORMAT,
    action_schema,
    is_constrainable,
    parse_json_action,
)

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["minimax"], baselines=[], matches=2, seats="half")
def test_tictactoe(match):
    match.play()
"""


def _observation(**kwargs):
    return Observation(game="g", player=0, text="state", legal_actions=("a", "b"), rules=Rules("G", "rules"), **kwargs)


def test_schema_lists_exactly_the_legal_actions():
    schema = action_schema(("0", "4", "8"))
    assert schema["type"] == "json_schema"
    inner = schema["json_schema"]["schema"]
    assert inner["properties"]["action"]["enum"] == ["0", "4", "8"]
    assert inner["required"] == ["action"] and inner["additionalProperties"] is False


def test_only_finite_lists_are_constrained():
    assert is_constrainable(_observation())
    assert not is_constrainable(_observation(open_ended={"say": "your text"}))
    assert not is_constrainable(
        Observation(game="g", player=0, text="s", legal_actions=(), rules=Rules("G", "r"), open_ended={"plan": "p"})
    )


def test_json_answers_are_read_and_other_text_falls_back_to_the_usual_parser():
    assert parse_json_action('{"action": "b"}', ["a", "b"]).id == "b"
    assert parse_json_action("Action: a", ["a", "b"]).id == "a"
    with pytest.raises(ActionParseError):
        parse_json_action("   ", ["a", "b"])


def _schema_responder(body):
    """Answers like a constrained decoder: an enum member, or free text when no schema was sent."""
    response_format = body.get("response_format")
    if response_format is None:
        return "Action: 4"
    enum = response_format["json_schema"]["schema"]["properties"]["action"]["enum"]
    return json.dumps({"action": enum[-1]})


@pytest.mark.slow
def test_tictactoe_with_the_constrained_scaffold_sends_the_schema_and_records_it(pytester, fake_llm):
    fake_llm.responder = _schema_responder
    pytester.makepyfile(test_ttt=SUITE)
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--model", "openai/m", "--scaffold", "constrained",
        "--api-base", fake_llm.api_base, "--record-mode=once",
    )
    assert result.ret == 0, result.stdout.str()
    records = [json.loads(line) for line in (pytester.path / "reports/latest/results.jsonl").read_text().splitlines()]
    assert len(records) == 2
    for record in records:
        subject = record["sides"][record["subject"]]
        assert subject["scaffold"] == "constrained" and subject["agent"] == "openai/m+constrained"
        assert record["illegal"][record["subject"]] == 0  # a schema-bound answer is always legal
    bodies = [r.body for r in fake_llm.requests]
    assert bodies and all("response_format" in b for b in bodies)
    for body in bodies:
        prompt = body["messages"][-1]["content"]
        enum = body["response_format"]["json_schema"]["schema"]["properties"]["action"]["enum"]
        assert prompt.endswith(JSON_ANSWER_FORMAT)
        assert "Legal actions: " + ", ".join(enum) in prompt

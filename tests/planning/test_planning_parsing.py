"""Reading plans out of answers: every accepted form, and malformed plans."""

import pytest

from stratbench.games.spin.planning.plan_parsing import PlanParseError, extract_plan, parse_plan_text, render_plan

TWO = (("pick-up", ("a",)), ("stack", ("a", "b")))


@pytest.mark.parametrize(
    ("answer", "form"),
    [
        ('Reasoning: ...\n\n$$\n{\n  "plan": "(pick-up a)\\n(stack a b)"\n}\n$$', "dollar-json"),
        ('$$ {"plan": "(pick-up a)\\n(stack a b)"} $$', "dollar-json"),
        ('$$\n```json\n{"plan": "(pick-up a)\\n(stack a b)"}\n```\n$$', "dollar-json"),
        ('$$\n{"plan": ["(pick-up a)", "(stack a b)"]}\n$$', "dollar-json"),
        ('$$\n{"plan": ["pick-up a", "stack a b"]}\n$$', "dollar-json"),
        ('$$\n{"Plan": "(PICK-UP A)\\n(Stack A B)"}\n$$', "dollar-json"),
        ('$$\n{"plan": "(pick-up a)\n(stack a b)"}\n$$', "dollar-json"),  # raw newlines inside the string
        ('$$\n{"plan": "(pick-up a)\\\\n(stack a b)"}\n$$', "dollar-json"),  # a doubly escaped \\n
        ('The plan:\n```json\n{"plan": "(pick-up a)\\n(stack a b)"}\n```', "json"),
        ('{"plan": "(pick-up a) (stack a b)"}', "json"),
        ("Here it is:\n```\n(pick-up a)\n(stack a b)\n```\nDone.", "fenced"),
        ("```pddl\n1. (pick-up a)\n2. (stack a b)\n```", "fenced"),
        ("So the plan is\n(pick-up a)\n(stack a b)\n", "lines"),
        ("0.000: (pick-up a) [1]\n1.000: (stack a b) [1]", "lines"),
        ("(pick-up a) ; first\n\n(stack a b)", "lines"),
    ],
)
def test_extract_plan_reads_every_form(answer, form):
    parsed = extract_plan(answer)
    assert parsed.steps == TWO
    assert parsed.form == form


def test_extract_plan_takes_the_last_dollar_block():
    answer = '$$ {"plan": "(pick-up z)"} $$ then corrected: $$ {"plan": "(pick-up a)\\n(stack a b)"} $$'
    assert extract_plan(answer).steps == TWO


def test_extract_plan_prefers_the_json_answer_over_reasoning_lines():
    answer = 'Step 1:\n(pick-up q)\nwhy...\n$$\n{"plan": "(pick-up a)\\n(stack a b)"}\n$$'
    assert extract_plan(answer).steps == TWO


def test_extract_plan_takes_the_last_run_of_action_lines():
    answer = "Try:\n(pick-up q)\nNo, instead:\n(pick-up a)\n(stack a b)\n"
    assert extract_plan(answer).steps == TWO


def test_empty_plan_string_is_an_empty_plan():
    assert extract_plan('$$ {"plan": ""} $$').steps == ()


@pytest.mark.parametrize(
    "answer",
    [
        "",
        "   \n",
        "I could not find a plan.",
        '$$ {"steps": "(pick-up a)"} $$',
        '$$ {"plan": "pick-up a\\nstack a b"} $$',  # lines without parentheses
        '$$ {"plan": "(pick-up a)\\nthen (stack a b)"} $$',
        '$$ {"plan": "(pick-up (a))"} $$',
        '$$ {"plan": "()"} $$',
        '$$ {"plan": 42} $$',
        '$$ {"plan": [1, 2]} $$',
    ],
)
def test_malformed_answers_raise(answer):
    with pytest.raises(PlanParseError):
        extract_plan(answer)


def test_parse_error_names_the_line():
    with pytest.raises(PlanParseError, match="line 2"):
        parse_plan_text("(pick-up a)\nstack a b")


def test_render_and_parse_round_trip():
    assert parse_plan_text(render_plan(TWO)) == TWO

"""Plan validation: verdicts, failure details and SPIN-Bench's error classes."""

import pytest
from planning_toys import (
    BLOCKS_DOMAIN,
    BLOCKS_P01,
    BLOCKS_P01_PLAN,
    COUNTERS_DOMAIN,
    COUNTERS_P01,
    ROOMS_DOMAIN,
    ROOMS_P01,
    ROOMS_P01_PLAN,
)

from stratbench.games.spin.planning.reading import read_problem
from stratbench.games.spin.planning.validation import ERROR_CLASSES, check_answer


def dollars(plan: str) -> str:
    return "Reasoning: ...\n$$\n" + '{"plan": "' + plan.replace("\n", "\\n") + '"}\n$$'


@pytest.fixture(scope="module")
def blocks():
    return read_problem(BLOCKS_DOMAIN, BLOCKS_P01)


def test_valid_plan(blocks):
    check = check_answer(blocks, dollars(BLOCKS_P01_PLAN))
    assert check.valid and check.error is None and check.error_class is None
    assert check.plan_length == 6 and check.form == "dollar-json"
    assert check.validator == "sequential_plan_validator"


def test_first_inapplicable_action_and_its_unmet_precondition(blocks):
    check = check_answer(blocks, dollars("(unstack a b)\n(pick-up b)\n(stack b c)"))
    assert not check.valid
    assert (check.error, check.error_class, check.step, check.action) == ("inapplicable_action", "BC", 2, "(pick-up b)")
    assert check.unmet == ("(handempty)",)
    assert "step 2 (pick-up b)" in check.reason and "(handempty)" in check.reason


def test_several_unmet_preconditions_are_listed(blocks):
    check = check_answer(blocks, dollars("(stack c b)"))
    assert check.error == "inapplicable_action"
    assert set(check.unmet) == {"(holding c)", "(clear b)"}


def test_goal_not_satisfied_lists_the_unmet_goals(blocks):
    check = check_answer(blocks, dollars("(unstack a b)\n(put-down a)"))
    assert (check.error, check.error_class) == ("goal_not_satisfied", "GS")
    assert check.unmet == ("(on b c)", "(on a b)")
    assert check.step is None


def test_empty_plan_is_goal_not_satisfied(blocks):
    check = check_answer(blocks, '$$ {"plan": ""} $$')
    assert check.error == "goal_not_satisfied" and check.plan_length == 0


@pytest.mark.parametrize(
    ("plan", "error", "detail"),
    [
        ("(unstack a b)\n(fly a)", "unknown_action", "unknown action 'fly'"),
        ("(pick-up z)", "unknown_object", "unknown object 'z'"),
        ("(stack a)", "wrong_arity", "takes 2 arguments, got 1"),
        ("(unstack a b c)", "wrong_arity", "takes 2 arguments, got 3"),
    ],
)
def test_naming_errors_break_constraints(blocks, plan, error, detail):
    check = check_answer(blocks, dollars(plan))
    assert check.error == error and check.error_class == "BC"
    assert detail in check.reason


def test_type_mismatch():
    problem = read_problem(ROOMS_DOMAIN, ROOMS_P01)
    check = check_answer(problem, dollars("(grab bot r1 r1)"))
    assert check.error == "type_mismatch" and check.error_class == "BC"
    assert "r1 is of type room" in check.reason


@pytest.mark.parametrize("answer", ["", "   ", None])
def test_no_answer_is_other(blocks, answer):
    check = check_answer(blocks, answer)
    assert (check.error, check.error_class) == ("no_answer", "Other")


@pytest.mark.parametrize("answer", ["I give up.", '$$ {"plan": "unstack a b"} $$', "$$ not json $$"])
def test_unreadable_plans_are_parse_errors(blocks, answer):
    check = check_answer(blocks, answer)
    assert (check.error, check.error_class) == ("parse_error", "Other")
    assert check.plan_length is None


def test_conditional_effects_and_negative_preconditions():
    problem = read_problem(ROOMS_DOMAIN, ROOMS_P01)
    assert check_answer(problem, dollars(ROOMS_P01_PLAN)).valid
    # Without grab, the crate does not travel along: the goal fails.
    check = check_answer(problem, dollars("(move bot r1 r2)"))
    assert check.error == "goal_not_satisfied" and "(in crate r2)" in check.unmet
    # Grabbing twice breaks the negative precondition (not (busy bot)).
    check = check_answer(problem, dollars("(grab bot crate r1)\n(grab bot crate r1)"))
    assert check.error == "inapplicable_action" and check.step == 2
    assert check.unmet == ("(not (busy bot))",)


def test_numeric_preconditions_and_goals():
    problem = read_problem(COUNTERS_DOMAIN, COUNTERS_P01)
    assert check_answer(problem, dollars("(increment c1)\n(increment c1)\n(increment c1)")).valid
    check = check_answer(problem, dollars("(increment c0)\n(increment c0)"))
    assert check.error == "inapplicable_action" and check.step == 2
    assert check.unmet and "max-value" in check.unmet[0]
    check = check_answer(problem, dollars("(increment c1)"))
    assert check.error == "goal_not_satisfied" and "value c1" in check.unmet[0]


def test_every_error_has_a_spin_bench_class():
    assert set(ERROR_CLASSES.values()) == {"BC", "GS", "Other"}
    assert ERROR_CLASSES["goal_not_satisfied"] == "GS"


def test_to_dict_is_json_safe(blocks):
    import json

    data = check_answer(blocks, dollars("(stack c b)")).to_dict()
    assert json.loads(json.dumps(data))["error_class"] == "BC"

"""PDDL that VAL accepts and unified-planning's reader refuses as written: read, validated, mapped back."""

import json
import re

import pytest
from wild_toys import (
    DOTTED_DOMAIN,
    DOTTED_PROBLEM,
    EITHER_DOMAIN,
    EITHER_PROBLEM,
    SELF_DOMAIN,
    SELF_PROBLEM,
    TWICE_DOMAIN,
    TWICE_PROBLEM,
    UNDEFINED_DOMAIN,
    UNDEFINED_PROBLEM,
    WILD_TASKS,
)

from stratbench.games.spin.planning.normalise import normalise
from stratbench.games.spin.planning.reading import check_readable, read_task
from stratbench.games.spin.planning.sexpr import SExprError, parse, render
from stratbench.games.spin.planning.validation import check_answer, check_steps


def dollars(plan: str) -> str:
    return "$$ " + json.dumps({"plan": plan}) + " $$"


@pytest.mark.parametrize("name", sorted(WILD_TASKS))
def test_each_construct_reads_and_its_plan_in_original_names_is_valid(name):
    domain, problem, plan = WILD_TASKS[name]
    assert check_readable(domain, problem) is None
    check = check_answer(read_task(domain, problem), dollars(plan))
    assert (check.valid, check.reason, check.plan_length) == (True, "valid", plan.count("\n") + 1)


def test_sexpr_reader_drops_comments_lowercases_and_names_unbalanced_text():
    assert parse("(Define (Domain X) ; note (\n (:Types a.b))") == ["define", ["domain", "x"], [":types", "a.b"]]
    assert render(["define", ["problem", "p"], [":goal", ["a", "b"]]]) == "(define\n (problem p)\n (:goal (a b)))"
    for text, message in [("(a (b)", "1 unclosed '('"), (")", "unmatched ')'"), ("(a))", "text after"),
                          ("(a) b", "text after"),
                          ("x (a)", "text outside"), ("; only", "no PDDL expression")]:
        with pytest.raises(SExprError, match=re.escape(message)):
            parse(text, "domain")


def test_dotted_names_are_renamed_and_mapped_back_in_messages_and_plans():
    task = read_task(DOTTED_DOMAIN, DOTTED_PROBLEM)
    assert task.changes == (
        "renamed 3 objects (characters unified-planning's names do not allow): "
        "'c0.0' -> 'c0_0', 'c0.1' -> 'c0_1', 'c1/1' -> 'c1_1'",
        "renamed the domain 'grid-3-3-pg0.5' -> 'grid-3-3-pg0_5' (characters unified-planning rejects)",
        "renamed the problem 'grid-3-3-s1-k2-l2-pg0.5-typedfalse-seed1' -> "
        "'grid-3-3-s1-k2-l2-pg0_5-typedfalse-seed1' (characters unified-planning rejects)",
    )
    assert {o.name for o in task.problem.all_objects} == {"c0_0", "c0_1", "c1_1"}
    wrong = check_answer(task, dollars("(move c0.0 c1/1)"))
    assert wrong.reason == "step 1 (move c0.0 c1/1) is not applicable: unmet precondition (adjacent c0.0 c1/1)"
    short = check_answer(task, dollars("(move c0.0 c0.1)"))
    assert short.reason == "goal not satisfied after 1 steps: (visited c1/1)"
    # The internal spelling is not a name of the task the model saw.
    unknown = check_answer(task, dollars("(move c0_0 c0_1)"))
    assert (unknown.error, unknown.reason) == ("unknown_object", "step 1 (move c0_0 c0_1): unknown object 'c0_0'")
    assert task.original_steps((("move", ("c0_0", "c0_1")),)) == (("move", ("c0.0", "c0.1")),)


def test_either_parameters_keep_their_typing_and_quantifiers_range_over_the_members():
    task = read_task(EITHER_DOMAIN, EITHER_PROBLEM)
    assert task.changes[1] == (
        "parameter ?v of 'refuel' has type (either truck plane): typed as their common supertype 'vehicle' "
        "with a membership precondition"
    )
    bike = check_answer(task, dollars("(refuel b1 depot)"))
    assert (bike.error, bike.reason) == (
        "type_mismatch", "step 1 (refuel b1 depot): b1 is of type bike, parameter ?v needs (either truck plane)"
    )
    # The bike is not fuelled, but the forall ranges over trucks and planes only.
    assert not check_answer(task, dollars("(refuel t1 depot)\n(finish)")).valid
    assert check_answer(task, dollars("(refuel p1 depot)\n(refuel t1 depot)\n(finish)")).valid


def test_either_whose_supertype_holds_only_members_needs_no_membership_predicate():
    domain = EITHER_DOMAIN.replace("truck plane bike - vehicle", "truck plane - vehicle bike")
    task = read_task(domain, EITHER_PROBLEM)
    assert not any("membership" in change for change in task.changes)
    assert not any(f.name.startswith("either") for f in task.problem.fluents)
    assert check_answer(task, dollars("(refuel t1 depot)\n(refuel p1 depot)\n(finish)")).valid


def test_names_declared_twice_are_told_apart_and_objects_keep_their_names():
    task = read_task(TWICE_DOMAIN, TWICE_PROBLEM)
    assert {f.name for f in task.problem.fluents} == {"fuel", "fuel-fn", "spare-pred", "stored"}
    assert {o.name for o in task.problem.all_objects} == {"crate", "spare", "home"}
    twice = check_answer(task, dollars("(store crate home)\n(store spare home)"))
    assert twice.reason == "step 2 (store spare home) is not applicable: unmet precondition (<= 1 (fuel home))"


def test_a_constant_redeclared_as_an_object_is_kept_once_and_a_type_conflict_is_named():
    domain = TWICE_DOMAIN.replace("(:predicates", "(:constants home - place)\n  (:predicates")
    task = read_task(domain, TWICE_PROBLEM)
    assert "object 'home' is declared twice: the problem's declaration is dropped" in task.changes
    assert check_answer(task, dollars("(store crate home)")).valid
    clash = domain.replace("(:constants home - place)", "(:constants home - crate)")
    assert check_readable(clash, TWICE_PROBLEM) == (
        "an object declared twice with different types ('home': crate and place)"
    )


def test_self_subtyping_is_dropped_and_undeclared_function_values_are_dropped_with_a_note():
    task = read_task(SELF_DOMAIN, SELF_PROBLEM)
    assert task.changes == (
        "type 'robot' was declared a subtype of itself: that declaration is dropped",
        "dropped 2 initial values of undeclared functions 'battery', 'total-cost' (nothing can read them): "
        "(= (battery r1) 10), (= (total-cost) 0)",
    )
    assert task.problem.user_type("gripper").father.name == "robot"
    assert task.problem.user_type("robot").father is None
    # A gripper is a robot: it may move, as in the original typing.
    assert check_answer(task, dollars("(go g1 kitchen hall)")).error == "inapplicable_action"


def test_an_undefined_numeric_fluent_is_an_error_only_when_read_before_assigned():
    task = read_task(UNDEFINED_DOMAIN, UNDEFINED_PROBLEM)
    assert "UNDEFINED_INITIAL_NUMERIC" in task.problem.kind.features
    assert check_answer(task, dollars("(charge d1)\n(fly d1)")).valid
    early = check_answer(task, dollars("(fly d1)"))
    assert (early.valid, early.error, early.step, early.unmet) == (
        False, "inapplicable_action", 1, ("(charge d1) is undefined",)
    )
    assert early.reason == "step 1 (fly d1) reads (charge d1) before any step gives it a value"
    increase = check_answer(task, dollars("(top-up d1)"))
    assert increase.reason == "step 1 (top-up d1) reads (charge d1) before any step gives it a value"
    goal = check_steps(task, ())
    assert (goal.error, goal.unmet) == ("goal_not_satisfied", ("(charge d1) is undefined",))
    assert goal.reason == "goal not satisfied after 0 steps: it reads (charge d1), which no step has given a value"
    low = check_answer(task, dollars("(charge d1)\n(fly d1)\n(fly d1)"))
    assert low.reason == "step 3 (fly d1) is not applicable: unmet precondition (<= 2 (charge d1))"


@pytest.mark.parametrize(
    ("domain_text", "problem_text", "construct"),
    [
        (EITHER_DOMAIN.replace("bike - vehicle", "bike - vehicle car - (either truck plane)"), EITHER_PROBLEM,
         "a type declared as a subtype of an 'either' type ('car - (either truck plane)')"),
        (EITHER_DOMAIN, EITHER_PROBLEM.replace("b1 - bike", "b1 - (either bike truck)"),
         "an object declared with an 'either' type ('b1 - (either bike truck)')"),
        ("(define (domain d) (:types a)", EITHER_PROBLEM, "the domain has 1 unclosed '('"),
        (EITHER_DOMAIN, EITHER_PROBLEM.replace(":goal (done)", ":goal (and (done) (fuelled p2))"),
         "an undeclared object or constant ('p2')"),
        (EITHER_DOMAIN, EITHER_PROBLEM.replace(":goal (done)", ":goal (finished)"),
         "an undeclared predicate ('finished' in (finished))"),
        (EITHER_DOMAIN, "(problem p)", "the problem does not start with (define (problem <name>) ...)"),
    ],
)
def test_what_cannot_be_repaired_is_named(domain_text, problem_text, construct):
    assert check_readable(domain_text, problem_text) == construct


def test_untouched_tasks_come_back_byte_for_byte():
    from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01

    result = normalise(BLOCKS_DOMAIN, BLOCKS_P01)
    assert (result.domain, result.problem, result.changes) == (BLOCKS_DOMAIN, BLOCKS_P01, ())


def test_a_metric_reading_an_undefined_fluent_does_not_decide_validity():
    problem = UNDEFINED_PROBLEM.rstrip()[:-1] + " (:metric minimize (charge d1)))"
    task = read_task(UNDEFINED_DOMAIN, problem)
    assert task.problem.quality_metrics  # kept on the task; only the validation leaves it out
    assert check_answer(task, dollars("(charge d1)\n(fly d1)")).valid
    assert check_answer(task, dollars("(fly d1)")).error == "inapplicable_action"

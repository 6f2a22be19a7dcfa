"""Derived predicates compiled away and repeated parameter names renamed apart: read, validated, solved.

Recursive derived predicates, kept and valued as least fixpoints: test_planning_recursive_derived.py.
"""

import json

import pytest
from planning_toys import write_dataset
from wild_toys import DERIVED_DOMAIN, DERIVED_PLAN, DERIVED_PROBLEM, REPEATED_DOMAIN, REPEATED_PLAN, REPEATED_PROBLEM

from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.planners import solve
from stratbench.games.spin.planning.reading import check_readable, read_task
from stratbench.games.spin.planning.validation import check_answer, check_steps


def dollars(plan: str) -> str:
    return "$$ " + json.dumps({"plan": plan}) + " $$"


def test_derived_predicates_are_compiled_away_and_judge_plans_as_their_definitions_do():
    task = read_task(DERIVED_DOMAIN, DERIVED_PROBLEM)
    assert task.changes == (
        "compiled away 4 derived predicates ('clear', 'handempty', 'low', 'tower-of-two'): "
        "each use is replaced by its definition",
    )
    assert {f.name for f in task.problem.fluents} == {"on", "ontable", "holding"}
    assert check_answer(task, dollars(DERIVED_PLAN)).valid
    # c is on a: a is not clear.
    covered = check_answer(task, dollars("(pick-up a)"))
    assert (covered.error, covered.reason) == (
        "inapplicable_action",
        "step 1 (pick-up a) is not applicable: unmet precondition (not (exists (?y-2 - block) (on ?y-2 a)))",
    )
    # stack's ?y and clear's quantified ?y stay apart: b under c is not clear.
    onto_covered = check_answer(task, dollars("(unstack c a)\n(stack c b)\n(pick-up a)\n(stack a b)"))
    assert (onto_covered.error, onto_covered.step) == ("inapplicable_action", 4)
    # The goal is derived: a on the table is low but not a tower of two.
    short = check_answer(task, dollars("(unstack c a)\n(put-down c)"))
    assert (short.error, short.unmet) == ("goal_not_satisfied", ("(not (ontable a))",))
    # A tower of two on c (a on c on the table) is one too: the second rule of 'low' is a disjunct.
    assert check_answer(task, dollars("(unstack c a)\n(put-down c)\n(pick-up a)\n(stack a c)")).valid


def test_the_planner_solves_a_derived_predicate_task_and_its_plan_validates_in_original_names():
    task = read_task(DERIVED_DOMAIN, DERIVED_PROBLEM)
    solution = solve(task.problem)
    assert solution is not None and solution.engine == "enhsp"
    assert check_steps(task, task.original_steps(solution.steps)).valid


def test_a_repeated_predicate_parameter_is_renamed_apart_and_plans_validate():
    task = read_task(REPEATED_DOMAIN, REPEATED_PROBLEM)
    assert task.changes == (
        "the predicate 'in' declares a parameter name more than once (names mean nothing there): "
        "renamed apart as (in ?obj ?obj-2)",
    )
    assert [p.name for p in task.problem.fluent("in").signature] == ["obj", "obj-2"]
    assert check_answer(task, dollars(REPEATED_PLAN)).valid
    locked = check_answer(task, dollars("(put toy box)"))
    assert locked.reason == "step 1 (put toy box) is not applicable: unmet precondition (unlocked box)"
    solution = solve(task.problem)
    assert solution is not None and check_steps(task, task.original_steps(solution.steps)).valid
    numeric = REPEATED_DOMAIN.replace("(:predicates", "(:functions (distance ?p ?p))\n  (:predicates")
    assert check_readable(numeric, REPEATED_PROBLEM) is None


RECURSIVE = DERIVED_DOMAIN.replace(
    "(:derived (low ?x - block) (ontable ?x))",
    "(:derived (low ?x - block) (exists (?z - block) (and (on ?x ?z) (low ?z))))",
)


@pytest.mark.parametrize(
    ("domain_text", "problem_text", "construct"),
    [
        (DERIVED_DOMAIN.replace(":effect (and (not (ontable ?x)) (holding ?x))",
                                ":effect (and (not (ontable ?x)) (holding ?x) (not (clear ?x)))"), DERIVED_PROBLEM,
         "a derived predicate set by an action's effect ('clear'): PDDL derives it from its definition only"),
        (DERIVED_DOMAIN, DERIVED_PROBLEM.replace("(ontable b))", "(ontable b) (clear b))"),
         "a derived predicate given in the initial state ('clear'): PDDL derives it from its definition only"),
        (DERIVED_DOMAIN.replace("(tower-of-two ?x - block) (and", "(tower-of-two ?x - block ?x - block) (and"),
         DERIVED_PROBLEM, "a derived predicate declaring a parameter twice ('?x' in 'tower-of-two')"),
        (DERIVED_DOMAIN, DERIVED_PROBLEM.replace("(tower-of-two a)", "(tower-of-two a b)"),
         "the derived predicate 'tower-of-two' used with 2 arguments, declared with 1 ((tower-of-two a b))"),
        (REPEATED_DOMAIN.replace(":parameters (?a ?b)", ":parameters (?a ?a)"), REPEATED_PROBLEM,
         "an action declaring a parameter twice ('?a' in 'put')"),
        (REPEATED_DOMAIN.replace("(not (unlocked ?b))", "(not (exists (?c ?c) (in ?c ?b)))"), REPEATED_PROBLEM,
         "a quantifier declaring a variable twice ('?c' in (exists (?c ?c) (in ?c ?b)))"),
    ],
)
def test_what_cannot_be_compiled_is_named(domain_text, problem_text, construct):
    assert check_readable(domain_text, problem_text) == construct


def test_a_dataset_directory_runs_derived_repeated_and_recursive_tasks(tmp_path):
    root = write_dataset(tmp_path / "wild", {
        "derived": (DERIVED_DOMAIN, {"p01": DERIVED_PROBLEM}),
        "boxes": (REPEATED_DOMAIN, {"p01": REPEATED_PROBLEM}),
        "recursive": (RECURSIVE, {"p01": DERIVED_PROBLEM}),
    })
    skips = {i.name: i.skip for i in dataset.scan_directory(root)}
    assert skips == {"boxes/p01": None, "derived/p01": None, "recursive/p01": None}

"""A domain naming an object only its problems declare: the object is read as a constant of the task, and said so."""

import json

import pytest
from planning_toys import write_dataset

from stratbench.core.obfuscation import Obfuscation
from stratbench.games.spin.pddl import PddlGame
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.plan_parsing import parse_plan_text, render_plan
from stratbench.games.spin.planning.planners import solve
from stratbench.games.spin.planning.reading import check_readable, read_task
from stratbench.games.spin.planning.validation import check_answer, check_steps

# As in the competition's tyreworld: the actions need (have wrench), and each problem declares the wrench.
TYRES_DOMAIN = """(define (domain tyres)
  (:requirements :strips :typing)
  (:types tool nut hub)
  (:predicates (have ?t - tool) (in-boot ?t - tool) (tight ?n - nut ?h - hub) (loose ?n - nut ?h - hub))
  (:action fetch :parameters (?t - tool)
    :precondition (in-boot ?t)
    :effect (and (have ?t) (not (in-boot ?t))))
  (:action loosen :parameters (?n - nut ?h - hub)
    :precondition (and (have wrench) (tight ?n ?h))
    :effect (and (loose ?n ?h) (not (tight ?n ?h)))))
"""
TYRES_PROBLEM = """(define (problem tyres-1) (:domain tyres)
  (:objects wrench jack - tool n1 n2 - nut h1 - hub)
  (:init (in-boot wrench) (in-boot jack) (tight n1 h1) (tight n2 h1))
  (:goal (and (loose n1 h1) (loose n2 h1))))
"""
TYRES_PLAN = "(fetch wrench)\n(loosen n1 h1)\n(loosen n2 h1)"
NOTE = ("promoted 1 object the domain names but only the problem declares to a constant of the domain "
        "(as common planners read it): 'wrench' - tool")


def dollars(plan: str) -> str:
    return "$$ " + json.dumps({"plan": plan}) + " $$"


def test_the_object_becomes_a_constant_and_the_record_says_so():
    task = read_task(TYRES_DOMAIN, TYRES_PROBLEM)
    assert task.changes == (NOTE,)
    assert {o.name for o in task.problem.all_objects} == {"wrench", "jack", "n1", "n2", "h1"}


def test_plans_are_judged_as_written():
    task = read_task(TYRES_DOMAIN, TYRES_PROBLEM)
    assert check_answer(task, dollars(TYRES_PLAN)).valid
    early = check_answer(task, dollars("(loosen n1 h1)"))
    assert (early.error, early.step, early.unmet) == ("inapplicable_action", 1, ("(have wrench)",))
    wrong_tool = check_answer(task, dollars("(fetch jack)\n(loosen n1 h1)"))
    assert (wrong_tool.error, wrong_tool.step) == ("inapplicable_action", 2)
    short = check_answer(task, dollars("(fetch wrench)\n(loosen n1 h1)"))
    assert (short.error, short.unmet) == ("goal_not_satisfied", ("(loose n2 h1)",))
    solution = solve(task.problem)
    assert solution is not None and check_steps(task, task.original_steps(solution.steps)).valid


def test_several_objects_are_listed_and_an_undeclared_one_is_still_named():
    domain = TYRES_DOMAIN.replace("(have wrench)", "(have wrench) (have jack)")
    assert read_task(domain, TYRES_PROBLEM).changes == (
        "promoted 2 objects the domain names but only the problem declares to constants of the domain "
        "(as common planners read them): 'jack' - tool, 'wrench' - tool",
    )
    assert check_readable(TYRES_DOMAIN.replace("(have wrench)", "(have spanner)"), TYRES_PROBLEM) \
        == "an undeclared object or constant ('spanner')"


def test_a_domain_constant_is_left_as_declared():
    domain = TYRES_DOMAIN.replace("(:types tool nut hub)", "(:types tool nut hub)\n  (:constants wrench - tool)")
    problem = TYRES_PROBLEM.replace("(:objects wrench jack - tool", "(:objects jack - tool")
    assert read_task(domain, problem).changes == ()


@pytest.mark.parametrize("spec", ["random:0", "mystery:0"])
def test_a_renamed_task_keeps_its_verdicts(tmp_path, spec):
    write_dataset(tmp_path / "wild", {"tyres": (TYRES_DOMAIN, {"p01": TYRES_PROBLEM})})
    dataset.list_variants({"pddl_dir": tmp_path / "wild"})
    try:
        game = PddlGame("tyres/p01", obfuscation=Obfuscation.parse(spec))
        for plan, valid in ((TYRES_PLAN, True), ("(loosen n1 h1)", False)):
            shown = game.renamed.renamed_steps(parse_plan_text(plan))
            assert game.check(dollars(render_plan(shown))).valid is valid
            assert check_steps(read_task(*game.texts), shown).valid is valid
    finally:
        dataset.list_variants({})

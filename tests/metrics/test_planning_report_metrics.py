"""Planning aggregates the report shows: per-domain rows, action space along the reference plan, correlations."""

from __future__ import annotations

import pytest
from stratbench.games.spin.metrics.action_space import legal_actions_per_step, reference_plan, task_legal_actions
from stratbench.games.spin.metrics.planning import action_space_by_domain, by_domain, pearson, spearman
from stratbench.games.spin.planning.dataset import load_manifest, resolve
from stratbench.games.spin.planning.reading import read_problem

DOMAIN = """(define (domain lights)
  (:requirements :strips :typing)
  (:types light)
  (:predicates (off ?l - light) (on ?l - light))
  (:action turn-on :parameters (?l - light) :precondition (off ?l) :effect (and (on ?l) (not (off ?l))))
  (:action turn-off :parameters (?l - light) :precondition (on ?l) :effect (and (off ?l) (not (on ?l)))))
"""
PROBLEM = """(define (problem three) (:domain lights)
  (:objects l1 l2 l3 - light)
  (:init (off l1) (off l2) (off l3))
  (:goal (and (on l1) (on l2))))
"""


def test_legal_actions_per_step_counts_applicable_groundings_before_each_step():
    problem = read_problem(DOMAIN, PROBLEM)
    # Before step 1: three lights off, three turn-on. Before step 2: two turn-on, one turn-off.
    assert legal_actions_per_step(problem, ["(turn-on l1)", "(turn-on l2)"]) == 3.0
    # Before step 2 of this plan: l1 on -> turn-off l1, turn-on l2, turn-on l3 (3); before step 3: l1 off again (3).
    assert legal_actions_per_step(problem, ["(turn-on l1)", "(turn-off l1)", "(turn-on l1)"]) == 3.0
    assert legal_actions_per_step(problem, ["(turn-off l1)"]) is None  # does not execute: no number
    assert legal_actions_per_step(problem, []) is None


def test_reference_plan_comes_from_the_dataset_manifest():
    instance = resolve("blocksworld/p01")
    entry = next(e for e in load_manifest()["instances"] if e["name"] == "blocksworld/p01")
    assert reference_plan(instance) == entry["reference_plan"]
    assert len(reference_plan(instance)) == instance.reference_length
    assert reference_plan(None) is None
    # The per-match metric's value: the reference plan walked on the task, the same number on every call.
    problem = read_problem(*(p.read_text() for p in (instance.domain_path, instance.problem_path)))
    expected = legal_actions_per_step(problem, entry["reference_plan"])
    assert expected is not None and expected >= 1.0  # the reference plan's own first step applies
    assert task_legal_actions(instance) == expected == task_legal_actions(instance)
    assert task_legal_actions(None) is None


def _row(agent, domain, valid, legal, error_class=None):
    metrics = {"valid": valid, "domain": domain, "category": "c", "error_class": error_class,
               "reference_length": 4, "legal_actions_per_step": legal}
    return {"game": "pddl", "sides": [{"agent": agent}], "subject": 0, "metrics": {"0": metrics}}


def test_action_space_by_domain_and_correlations_are_hand_computed():
    records = [
        _row("a", "d1", True, 2.0), _row("a", "d1", True, 4.0),  # acc 1.0, legal 3.0
        _row("a", "d2", False, 10.0, "GS"), _row("a", "d2", True, 6.0),  # acc 0.5, legal 8.0
        _row("a", "d3", False, 20.0, "BC"), _row("a", "d3", False, None, "BC"),  # acc 0.0 over 1 task, legal 20.0
    ]
    space = action_space_by_domain(records)["a"]
    assert space == {"d1": {"tasks": 2, "plan_accuracy": 1.0, "legal_actions": 3.0},
                     "d2": {"tasks": 2, "plan_accuracy": 0.5, "legal_actions": 8.0},
                     "d3": {"tasks": 1, "plan_accuracy": 0.0, "legal_actions": 20.0}}
    xs, ys = [3.0, 8.0, 20.0], [1.0, 0.5, 0.0]
    # Pearson by hand: means 31/3 and 0.5; deviations (-22/3, -7/3, 29/3) and (0.5, 0, -0.5).
    sxy = -22 / 3 * 0.5 + 29 / 3 * -0.5
    sxx = (22 / 3) ** 2 + (7 / 3) ** 2 + (29 / 3) ** 2
    assert pearson(xs, ys) == pytest.approx(sxy / (sxx * 0.5) ** 0.5)
    assert spearman(xs, ys) == pytest.approx(-1.0)
    assert spearman([1, 1, 2], [1, 2, 3]) == pytest.approx(0.8660254)  # ties share rank 1.5
    assert pearson([1, 1], [2, 3]) is None and pearson([1], [2]) is None
    domains = by_domain(records)["a"]
    assert domains["d3"] == {"category": "c", "tasks": 2, "valid": 0, "plan_accuracy": 0.0, "n_step": 0.0,
                             "BC": 1.0, "GS": 0.0, "Other": 0.0, "errored": 0, "skipped": 0, "errored_share": 0.0}


def test_state_action_space_counts_every_reachable_state_with_its_actions():
    from stratbench.games.spin.metrics.action_space import state_action_space, task_state_action_space

    problem = read_problem(DOMAIN, PROBLEM)
    # Three lights, each on or off: 8 reachable states, each with exactly 3 applicable actions.
    assert state_action_space(problem) == 24
    assert state_action_space(problem, limit=8) == 24
    assert state_action_space(problem, limit=7) is None  # more states than the limit: not enumerated
    assert task_state_action_space(None) is None


def test_a_committed_tasks_state_action_space_is_enumerated_and_cached():
    from stratbench.games.spin.metrics.action_space import state_action_space, task_state_action_space

    instance = resolve("blocksworld/p01")
    problem = read_problem(*(p.read_text() for p in (instance.domain_path, instance.problem_path)))
    pairs = state_action_space(problem)
    assert pairs is not None and pairs >= len(reference_plan(instance))
    assert task_state_action_space(instance) == pairs

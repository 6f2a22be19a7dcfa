"""Recursive derived predicates: read, judged as least fixpoints (as VAL does), solved, renamed."""

import asyncio
import json
import random

import pytest
from planning_toys import write_dataset

from stratbench.core.obfuscation import Obfuscation
from stratbench.games.spin.pddl import PddlGame
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.plan_parsing import parse_plan_text, render_plan
from stratbench.games.spin.planning.planner_process import solve_in_child
from stratbench.games.spin.planning.planners import DEFAULT_ENGINES, random_walk, solve
from stratbench.games.spin.planning.reading import check_readable, read_task
from stratbench.games.spin.planning.validation import check_answer, check_steps

# A feeder network: a closed node is live if it is a source or fed, and fed if a live node links to it ('live' and
# 'fed' are defined through each other); 'dark' (not live) is defined on them; 'downstream' is a transitive
# closure, defined through itself.
FEEDERS_DOMAIN = """(define (domain feeders)
  (:requirements :strips :typing :derived-predicates :negative-preconditions :existential-preconditions)
  (:types node)
  (:predicates (link ?from - node ?to - node) (source ?n - node) (closed ?n - node) (lit ?n - node)
               (live ?n - node) (fed ?n - node) (dark ?n - node) (downstream ?a - node ?b - node))
  (:derived (live ?n - node) (and (closed ?n) (or (source ?n) (fed ?n))))
  (:derived (fed ?n - node) (exists (?m - node) (and (link ?m ?n) (live ?m))))
  (:derived (dark ?n - node) (not (live ?n)))
  (:derived (downstream ?a - node ?b - node) (link ?a ?b))
  (:derived (downstream ?a - node ?b - node) (exists (?m - node) (and (link ?a ?m) (downstream ?m ?b))))
  (:action close :parameters (?n - node)
    :precondition (not (closed ?n))
    :effect (closed ?n))
  (:action open :parameters (?n - node)
    :precondition (closed ?n)
    :effect (not (closed ?n)))
  (:action light :parameters (?n - node)
    :precondition (and (live ?n) (exists (?s - node) (and (source ?s) (downstream ?s ?n))))
    :effect (lit ?n)))
"""
# s -> a -> b -> c and b -> d; only the source s is closed.
FEEDERS_PROBLEM = """(define (problem feeders-1) (:domain feeders)
  (:objects s a b c d - node)
  (:init (source s) (closed s) (link s a) (link a b) (link b c) (link b d))
  (:goal (and (lit c) (dark d))))
"""
FEEDERS_PLAN = "(close a)\n(close b)\n(close c)\n(light c)"


def dollars(plan: str) -> str:
    return "$$ " + json.dumps({"plan": plan}) + " $$"


def test_a_recursive_derived_task_reads_and_says_how():
    task = read_task(FEEDERS_DOMAIN, FEEDERS_PROBLEM)
    assert task.changes == (
        "kept 4 derived predicates ('dark', 'downstream', 'fed', 'live') as predicates, since 'downstream', 'fed' "
        "and 'live' are recursive: their value in each state is the least fixpoint of their rules, as VAL computes it",
    )
    assert {f.name for f in task.problem.fluents} == {"link", "source", "closed", "lit", "live", "fed", "dark",
                                                       "downstream"}


def test_plans_are_judged_with_the_least_fixpoint():
    task = read_task(FEEDERS_DOMAIN, FEEDERS_PROBLEM)
    assert check_answer(task, dollars(FEEDERS_PLAN)).valid
    # b is open: c is closed but not fed, two links away from the source.
    gap = check_answer(task, dollars("(close a)\n(close c)\n(light c)"))
    assert (gap.error, gap.step, gap.unmet) == ("inapplicable_action", 3, ("(live c)",))
    # Opening a upstream cuts c off again: the fixpoint is computed afresh in every state.
    cut = check_answer(task, dollars("(close a)\n(close b)\n(close c)\n(open a)\n(light c)"))
    assert (cut.error, cut.step, cut.unmet) == ("inapplicable_action", 5, ("(live c)",))
    assert check_answer(task, dollars("(close a)\n(close b)\n(close c)\n(open a)\n(close a)\n(light c)")).valid
    # d closed behind b is live: the goal's (dark d) fails.
    lit = check_answer(task, dollars(FEEDERS_PLAN + "\n(close d)"))
    assert (lit.error, lit.unmet) == ("goal_not_satisfied", ("(dark d)",))
    # Nothing links to s: s is not downstream of a source, though live.
    source = check_answer(task, dollars("(light s)"))
    assert (source.error, source.step) == ("inapplicable_action", 1)


def test_the_planner_solves_it_and_random_walks_stay_applicable():
    task = read_task(FEEDERS_DOMAIN, FEEDERS_PROBLEM)
    solution = solve(task.problem)
    assert solution is not None and solution.engine == "breadth-first"
    assert len(solution.steps) == 4
    assert check_steps(task, task.original_steps(solution.steps)).valid
    # The planner agent's path: the search in a child process, which reads the task itself.
    child = asyncio.run(solve_in_child(FEEDERS_DOMAIN, FEEDERS_PROBLEM, DEFAULT_ENGINES))
    assert child is not None and child.steps == solution.steps
    for seed in range(5):
        walk = random_walk(task.problem, random.Random(seed), 12)
        check = check_steps(task, task.original_steps(walk))
        assert check.valid or check.error == "goal_not_satisfied", (walk, check.reason)


def test_self_and_mutual_recursion_in_the_blocks_task_read_and_judge():
    from wild_toys import DERIVED_DOMAIN, DERIVED_PROBLEM

    # 'low': on the table, on a block on the table, or (now) on a low block.
    recursive = DERIVED_DOMAIN.replace(
        "(:derived (low ?x - block) (ontable ?x))",
        "(:derived (low ?x - block) (exists (?z - block) (and (on ?x ?z) (low ?z))))",
    )
    task = read_task(recursive, DERIVED_PROBLEM)
    # a on c on b (on the table): a is low through c, a tower of two by its definition.
    assert check_answer(task, dollars("(unstack c a)\n(stack c b)\n(pick-up a)\n(stack a c)")).valid
    # a, on the table, is not low now (no rule makes it so): the goal, kept as a predicate, is named.
    assert check_answer(task, dollars("(unstack c a)\n(stack c b)")).unmet == ("(tower-of-two a)",)
    # 'clear' and 'low' defined through each other, with no base case: their least fixpoint is empty.
    mutual = DERIVED_DOMAIN \
        .replace("(:derived (low ?x - block) (ontable ?x))", "(:derived (low ?x - block) (clear ?x))") \
        .replace("(and (not (holding ?x)) (not (exists (?y - block) (on ?y ?x))))", "(low ?x)")
    assert check_readable(mutual, DERIVED_PROBLEM) is None
    stuck = check_answer(read_task(mutual, DERIVED_PROBLEM), dollars("(pick-up b)"))
    assert (stuck.error, stuck.step) == ("inapplicable_action", 1)


def test_keeping_derived_predicates_changes_no_verdict():
    """The blocks task's derived predicates, substituted (no recursion) or kept (a recursive one added, unused),
    give every plan the same verdict, error and failed step."""
    from wild_toys import DERIVED_DOMAIN, DERIVED_PROBLEM

    kept_domain = DERIVED_DOMAIN.replace(
        "(tower-of-two ?x - block))", "(tower-of-two ?x - block) (above ?x - block ?y - block))"
    ).replace(
        "  (:action pick-up",
        "  (:derived (above ?x - block ?y - block) (or (on ?x ?y) (exists (?z - block) (and (on ?x ?z) "
        "(above ?z ?y)))))\n  (:action pick-up",
    )
    substituted, kept = read_task(DERIVED_DOMAIN, DERIVED_PROBLEM), read_task(kept_domain, DERIVED_PROBLEM)
    assert kept.changes[0].startswith("kept 5 derived predicates") and substituted.changes[0].startswith("compiled")
    names = ("a", "b", "c")
    rng = random.Random(0)
    kinds = set()
    for seed in range(40):
        steps = list(substituted.original_steps(random_walk(substituted.problem, random.Random(seed), 6)))
        if seed % 2:  # a random step somewhere: often inapplicable
            action = rng.choice(("pick-up", "put-down", "stack", "unstack"))
            arity = 2 if action in ("stack", "unstack") else 1
            steps.insert(rng.randrange(len(steps) + 1), (action, tuple(rng.choice(names) for _ in range(arity))))
        expected, got = check_steps(substituted, tuple(steps)), check_steps(kept, tuple(steps))
        kinds.add(expected.error)
        assert (got.valid, got.error, got.step) == (expected.valid, expected.error, expected.step), steps
    assert {"inapplicable_action", "goal_not_satisfied"} <= kinds


def test_a_rule_negating_its_own_recursion_is_named():
    unstratified = FEEDERS_DOMAIN.replace("(or (source ?n) (fed ?n))", "(or (source ?n) (not (fed ?n)))")
    assert check_readable(unstratified, FEEDERS_PROBLEM) == (
        "a recursive derived predicate negated in its own recursion ('fed' in 'live'): PDDL requires derived "
        "predicates to be stratified"
    )


def test_rules_may_compare_numbers():
    domain = FEEDERS_DOMAIN.replace("(:predicates", "(:functions (capacity ?n - node))\n  (:predicates") \
        .replace("(and (link ?m ?n) (live ?m))", "(and (link ?m ?n) (live ?m) (> (capacity ?m) (* 2 0.5)))")
    problem = FEEDERS_PROBLEM.replace("(link b d))", "(link b d) (= (capacity s) 3) (= (capacity a) 2) "
                                                     "(= (capacity b) 1) (= (capacity c) 0) (= (capacity d) 0))")
    task = read_task(domain, problem)
    # b's capacity (1) is not above 1: nothing past b is fed.
    weak = check_answer(task, dollars(FEEDERS_PLAN))
    assert (weak.error, weak.step, weak.unmet) == ("inapplicable_action", 4, ("(live c)",))
    # a's capacity (2) is: b is fed, and lit (the goal, c lit, is not reached).
    assert check_answer(task, dollars("(close a)\n(close b)\n(light b)")).error == "goal_not_satisfied"


@pytest.mark.parametrize("spec", ["random:0", "mystery:0", "deceptive:0"])
def test_renamed_recursive_tasks_keep_every_verdict(tmp_path, spec):
    write_dataset(tmp_path / "wild", {"feeders": (FEEDERS_DOMAIN, {"p01": FEEDERS_PROBLEM})})
    dataset.list_variants({"pddl_dir": tmp_path / "wild"})
    try:
        original = PddlGame("feeders/p01")
        game = PddlGame("feeders/p01", obfuscation=Obfuscation.parse(spec))
        reread = read_task(*game.texts)
        for plan in (FEEDERS_PLAN, "(close a)\n(close c)\n(light c)", FEEDERS_PLAN + "\n(close d)"):
            steps = parse_plan_text(plan)
            shown = game.renamed.renamed_steps(steps)
            expected = original.check(dollars(plan))
            for got in (game.check(dollars(render_plan(shown))),
                        check_steps(reread, shown)):
                assert (got.valid, got.error, got.step) == (expected.valid, expected.error, expected.step)
    finally:
        dataset.list_variants({})


def test_a_dataset_directory_runs_a_recursive_task(tmp_path):
    root = write_dataset(tmp_path / "wild", {"feeders": (FEEDERS_DOMAIN, {"p01": FEEDERS_PROBLEM})})
    assert {i.name: i.skip for i in dataset.scan_directory(root)} == {"feeders/p01": None}

"""Planners and random walks: the successor listing against unified-planning's, the builder's pieces."""

from __future__ import annotations

import random
import types

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P02, COUNTERS_DOMAIN, COUNTERS_P01, ROOMS_DOMAIN, ROOMS_P01

from stratbench.games.spin.planning import build_dataset
from stratbench.games.spin.planning.planners import _Successors, blind_walk, random_walk, solve
from stratbench.games.spin.planning.reading import read_problem
from stratbench.games.spin.planning.validation import check_steps


@pytest.mark.parametrize(
    ("domain", "problem"),
    [(BLOCKS_DOMAIN, BLOCKS_P02), (ROOMS_DOMAIN, ROOMS_P01), (COUNTERS_DOMAIN, COUNTERS_P01)],
)
def test_successors_match_unified_planning_along_a_walk(domain, problem):
    from unified_planning.engines.sequential_simulator import UPSequentialSimulator

    task = read_problem(domain, problem)
    simulator = UPSequentialSimulator(task, error_on_failed_checks=False)
    successors = _Successors(task)
    state = simulator.get_initial_state()
    rng = random.Random(4)
    for _ in range(12):
        ours = sorted(step for step, _, _ in successors.applicable(state))
        theirs = sorted(
            (a.name, tuple(str(p) for p in params)) for a, params in simulator.get_applicable_actions(state)
        )
        assert ours == theirs
        if not ours:
            break
        _, action, objects = successors.applicable(state)[rng.randrange(len(ours))]
        state = simulator.apply(state, action, objects)


def test_random_walks_are_applicable_bounded_and_seeded():
    task = read_problem(BLOCKS_DOMAIN, BLOCKS_P02)
    walks = [random_walk(task, random.Random(seed), 9) for seed in (1, 1, 2)]
    assert walks[0] == walks[1]
    for walk in walks:
        assert len(walk) <= 9
        assert check_steps(task, walk).error in (None, "goal_not_satisfied")


HOLD_A = """(define (problem hold-a) (:domain toy-blocks) (:objects a b - block)
  (:init (clear a) (clear b) (ontable a) (ontable b) (handempty)) (:goal (holding a)))"""


def test_random_walks_ignore_the_goal():
    task = read_problem(BLOCKS_DOMAIN, HOLD_A)  # (pick-up a) reaches the goal; blocksworld never dead-ends
    through_goal = 0
    for seed in range(12):
        walk = random_walk(task, random.Random(seed), 6)
        assert len(walk) == 6
        through_goal += any(check_steps(task, walk[:n]).valid for n in range(1, 6))
    assert through_goal  # some walks passed a goal state and went on


def test_blind_walk_lengths_are_drawn_from_one_to_the_bound():
    task = read_problem(BLOCKS_DOMAIN, HOLD_A)
    lengths = {len(blind_walk(task, random.Random(seed), 4)) for seed in range(30)}
    assert lengths == {1, 2, 3, 4}
    assert len(blind_walk(task, random.Random(3), 4)) == random.Random(3).randint(1, 4)
    with pytest.raises(ValueError, match="at least 1"):
        blind_walk(task, random.Random(0), 0)


def test_solve_returns_a_valid_plan_and_its_engine():
    task = read_problem(ROOMS_DOMAIN, ROOMS_P01)
    solution = solve(task)
    assert solution is not None and check_steps(task, solution.steps).valid
    assert solution.engine in ("fast-downward", "pyperplan", "tamer", "enhsp") and solution.engine_version != "unknown"
    assert solve(task, engines=("no-such-engine",)) is None


def test_tier_plan_spreads_evenly_with_earlier_tiers_first():
    assert build_dataset.tier_plan(("easy", "medium", "hard"), 20).count("easy") == 7
    assert build_dataset.tier_plan(("easy", "medium", "hard"), 20)[-6:] == ["hard"] * 6
    assert build_dataset.tier_plan(("only",), 3) == ["only"] * 3


@pytest.mark.slow
def test_build_domain_writes_files_and_redraws_duplicates(tmp_path):
    tasks = {
        "easy": "(define (problem e{seed}) (:domain toy-blocks) (:objects a b - block)"
                " (:init (clear a) (clear b) (ontable a) (ontable b) (handempty)) (:goal (on a b)))",
        "hard": "(define (problem h{seed}) (:domain toy-blocks) (:objects a b c - block)"
                " (:init (clear a) (clear b) (clear c) (ontable a) (ontable b) (ontable c) (handempty))"
                " (:goal (and (on b a) (on c b))))",
    }
    module = types.SimpleNamespace(TIERS=("easy", "hard"), CATEGORY="sequential", PLANNER="pyperplan",
                                   generate=lambda seed, tier: tasks[tier].format(seed=3 if seed == 4 else seed))
    folder = tmp_path / "pkg"
    folder.mkdir()
    (folder / "domain.pddl").write_text(BLOCKS_DOMAIN)
    package = build_dataset.DomainPackage("toyblocks", folder, module)
    entries = build_dataset.build_domain(package, tmp_path / "out", 4, timeout=30, log=lambda *_: None)
    assert [e["name"] for e in entries] == ["toyblocks/p01", "toyblocks/p02", "toyblocks/p03", "toyblocks/p04"]
    assert [e["tier"] for e in entries] == ["easy", "easy", "hard", "hard"]
    assert entries[0]["reference_length"] == 2 and entries[2]["reference_length"] == 4
    # Seed 4 repeats seed 3's task: p04 was redrawn with the next seed of its series.
    assert [e["seed"] for e in entries] == [1, 2, 3, 1004]
    assert len({e["sha256"]["problem"] for e in entries}) == 4
    assert (tmp_path / "out" / "toyblocks" / "instances" / "p04.pddl").is_file()

"""The blocksworld domain: generator determinism, parsing, planner solutions, a wrong plan."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from stratbench.games.spin.planning.domains.blocksworld import generator
from unified_planning.engines import ValidationResultStatus
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import OneshotPlanner, PlanValidator, get_environment

get_environment().credits_stream = None
DOMAIN = Path(generator.__file__).with_name("domain.pddl")


def parse(text: str):
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "p.pddl"
        path.write_text(text)
        return PDDLReader().parse_problem(str(DOMAIN), str(path))


@pytest.mark.parametrize("tier", generator.TIERS)
def test_generation_is_seeded(tier):
    assert generator.generate(3, tier) == generator.generate(3, tier)
    assert generator.generate(3, tier) != generator.generate(4, tier)
    assert f"(define (problem blocksworld-{tier}-s3)" in generator.generate(3, tier)


@pytest.mark.parametrize("tier", ["easy", "medium"])
@pytest.mark.parametrize("seed", [0, 1])
def test_the_planner_solves_and_the_plan_validates(tier, seed):
    problem = parse(generator.generate(seed, tier))
    with OneshotPlanner(name="pyperplan") as planner:
        plan = planner.solve(problem).plan
    assert plan is not None and len(plan.actions) >= 2
    with PlanValidator(name="sequential_plan_validator") as validator:
        assert validator.validate(problem, plan).status == ValidationResultStatus.VALID


def test_a_wrong_plan_is_invalid():
    problem = parse(generator.generate(0, "easy"))
    plan = PDDLReader().parse_plan_string(problem, "(put-down b1)")
    with PlanValidator(name="sequential_plan_validator") as validator:
        assert validator.validate(problem, plan).status == ValidationResultStatus.INVALID


def test_unknown_tier_is_named():
    with pytest.raises(ValueError, match="unknown tier 'giant'"):
        generator.generate(0, "giant")

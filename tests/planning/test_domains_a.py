"""Group-A planning domains: generators, parsing, default planners and hand-checked plans.

Covers drone, floortile, grid, depots, logistics, rovers, sokoban, termes,
assembly and briefcaseworld. Planner runs use the easy and medium tiers; the
hard tiers are solved and timed by ``bench/planning_domains_a.py``.
"""

from __future__ import annotations

import hashlib
import importlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import warnings
from functools import cache
from pathlib import Path

import pytest
from stratbench.games.spin.planning.domains import DOMAIN_NAMES
from unified_planning.engines import PlanGenerationResultStatus, ValidationResultStatus
from unified_planning.engines.results import FailedValidationReason
from unified_planning.io import PDDLReader
from unified_planning.shortcuts import OneshotPlanner, PlanValidator, get_environment

get_environment().credits_stream = None

CATEGORIES = {
    "drone": "spatial", "floortile": "spatial", "grid": "spatial", "depots": "resource",
    "logistics": "spatial", "rovers": "resource", "sokoban": "spatial", "termes": "spatial",
    "assembly": "sequential", "briefcaseworld": "sequential",
}
DOMAINS = tuple(CATEGORIES)
TIERS = ("easy", "medium", "hard")
SEEDS = (0, 1)
DOMAINS_DIR = Path(importlib.import_module("stratbench.games.spin.planning.domains").__file__).parent


def generator(domain: str):
    return importlib.import_module(f"stratbench.games.spin.planning.domains.{domain}.generator")


@cache
def parsed(domain: str, tier: str, seed: int):
    """Parses a generated problem from its files with unified-planning (cached per instance)."""
    with tempfile.TemporaryDirectory() as folder:
        problem_file = Path(folder) / f"{domain}-{tier}-s{seed}.pddl"
        problem_file.write_text(generator(domain).generate(seed, tier), encoding="utf-8")
        return PDDLReader().parse_problem(str(DOMAINS_DIR / domain / "domain.pddl"), str(problem_file))


def validate(problem, plan_text: str):
    plan = PDDLReader().parse_plan_string(problem, plan_text)
    with PlanValidator(name="sequential_plan_validator") as validator:
        return validator.validate(problem, plan)


def enhsp_missing() -> str | None:
    try:
        importlib.import_module("up_enhsp")
    except ImportError:
        return "up-enhsp is not installed (pip install 'pytest-stratbench[planners]')"
    if shutil.which("java") is None:
        return "ENHSP needs java on PATH"
    return None


def test_every_group_a_domain_is_a_listed_package():
    assert set(DOMAINS) <= set(DOMAIN_NAMES)
    for domain in DOMAINS:
        assert (DOMAINS_DIR / domain / "domain.pddl").is_file()
        assert (DOMAINS_DIR / domain / "__init__.py").is_file()


@pytest.mark.parametrize("domain", DOMAINS)
def test_generator_interface(domain):
    module = generator(domain)
    assert module.NAME == domain
    assert module.CATEGORY == CATEGORIES[domain]
    assert module.TIERS == TIERS
    assert module.DESCRIPTION.endswith(".") and len(module.DESCRIPTION) > 20
    assert module.PLANNER in ("pyperplan", "tamer", "enhsp")
    with pytest.raises(ValueError, match="unknown tier"):
        module.generate(0, "impossible")


@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_generation_is_deterministic_and_depends_on_the_seed(domain, tier):
    module = generator(domain)
    texts = [module.generate(seed, tier) for seed in SEEDS]
    assert texts == [module.generate(seed, tier) for seed in SEEDS]
    assert texts[0] != texts[1]
    for seed, text in zip(SEEDS, texts):
        assert f"(problem {domain}-{tier}-s{seed})" in text
        assert f"(:domain {domain})" in text
        body = "\n".join(line for line in text.splitlines() if not line.startswith(";"))
        assert "." not in body, "unified-planning rejects dots in names"
        assert body.count("(") == body.count(")")


def test_generation_does_not_depend_on_the_hash_seed():
    script = (
        "import hashlib, importlib, json\n"
        "out = {}\n"
        f"for d in {list(DOMAINS)!r}:\n"
        "    m = importlib.import_module(f'stratbench.games.spin.planning.domains.{d}.generator')\n"
        f"    out[d] = hashlib.sha256(''.join(m.generate(s, t) for t in {list(TIERS)!r} for s in (0, 1)).encode()).hexdigest()\n"
        "print(json.dumps(out))\n"
    )
    here = {
        d: hashlib.sha256("".join(generator(d).generate(s, t) for t in TIERS for s in SEEDS).encode()).hexdigest()
        for d in DOMAINS
    }
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        run = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
        assert json.loads(run.stdout) == here


@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("domain", DOMAINS)
def test_problem_parses_and_its_goal_does_not_already_hold(domain, tier, seed):
    problem = parsed(domain, tier, seed)
    assert problem.name == f"{domain}-{tier}-s{seed}"
    assert problem.goals
    result = validate(problem, "")
    assert result.status == ValidationResultStatus.INVALID
    assert result.reason == FailedValidationReason.UNSATISFIED_GOALS


@pytest.mark.slow
@pytest.mark.slow
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("tier", ("easy", "medium"))
@pytest.mark.parametrize("domain", DOMAINS)
def test_default_planner_finds_a_valid_plan(domain, tier, seed):
    planner = generator(domain).PLANNER
    if planner == "enhsp" and (reason := enhsp_missing()):
        pytest.skip(reason)
    problem = parsed(domain, tier, seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with OneshotPlanner(name=planner) as engine:
            result = engine.solve(problem)
    assert result.status == PlanGenerationResultStatus.SOLVED_SATISFICING
    assert len(result.plan.actions) >= 3
    with PlanValidator(problem_kind=problem.kind, plan_kind=result.plan.kind) as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID


# Hand-checked plans for the easy tier, seed 0, and a wrong variant of each:
# (valid plan, wrong plan, why the wrong plan fails).
GOLDEN = {
    # pkg1 waits at the city2 airport; the only airplane is at the city1 airport, the goal.
    "logistics": (
        """(fly-airplane plane1 city1-loc1 city2-loc1)
        (load-airplane pkg1 plane1 city2-loc1)
        (fly-airplane plane1 city2-loc1 city1-loc1)
        (unload-airplane pkg1 plane1 city1-loc1)""",
        """(load-airplane pkg1 plane1 city2-loc1)
        (fly-airplane plane1 city2-loc1 city1-loc1)
        (unload-airplane pkg1 plane1 city1-loc1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # the airplane is not at city2 yet
    ),
    # The robot at node1-0 fetches key1 from node2-0 and opens node2-1 (circle lock) to put it there.
    "grid": (
        """(move node1-0 node2-0)
        (pickup node2-0 key1)
        (unlock node2-0 node2-1 key1 circle)
        (move node2-0 node2-1)
        (putdown node2-1 key1)""",
        """(move node1-0 node2-0)
        (pickup node2-0 key1)
        (move node2-0 node2-1)
        (putdown node2-1 key1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # node2-1 is still locked
    ),
    # crate1 travels from the distributor's pallet onto crate0 at the depot.
    "depots": (
        """(lift hoist1 crate1 pallet1 distributor0)
        (drive truck0 depot0 distributor0)
        (load hoist1 crate1 truck0 distributor0)
        (drive truck0 distributor0 depot0)
        (unload hoist0 crate1 truck0 depot0)
        (drop hoist0 crate1 crate0 depot0)""",
        """(lift hoist1 crate1 pallet1 distributor0)
        (drop hoist1 crate1 crate0 distributor0)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # crate0 is at the depot, not the distributor
    ),
    # Soil and rock at waypoint1, where the rover stands; the lander at waypoint0 is visible from it.
    "rovers": (
        """(sample-soil rover0 rover0-store waypoint1)
        (communicate-soil-data rover0 general waypoint1 waypoint1 waypoint0)
        (drop rover0 rover0-store)
        (sample-rock rover0 rover0-store waypoint1)
        (communicate-rock-data rover0 general waypoint1 waypoint1 waypoint0)""",
        """(sample-soil rover0 rover0-store waypoint1)
        (communicate-soil-data rover0 general waypoint1 waypoint1 waypoint0)
        (sample-rock rover0 rover0-store waypoint1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # the store is still full
    ),
    # Player (0,1), stone (2,1), goal (1,2): push the stone down, then left onto the goal.
    "sokoban": (
        """(move player1 pos-0-1 pos-0-0 dir-up)
        (move player1 pos-0-0 pos-1-0 dir-right)
        (move player1 pos-1-0 pos-2-0 dir-right)
        (push-to-nongoal player1 stone1 pos-2-0 pos-2-1 pos-2-2 dir-down)
        (move player1 pos-2-1 pos-3-1 dir-right)
        (move player1 pos-3-1 pos-3-2 dir-down)
        (push-to-goal player1 stone1 pos-3-2 pos-2-2 pos-1-2 dir-left)""",
        """(move player1 pos-0-1 pos-0-0 dir-up)
        (move player1 pos-0-0 pos-1-0 dir-right)
        (move player1 pos-1-0 pos-2-0 dir-right)
        (push-to-goal player1 stone1 pos-2-0 pos-2-1 pos-2-2 dir-down)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # pos-2-2 is not a goal cell
    ),
    # Depot pos-1-2; one block goes on pos-2-1, diagonal to the depot.
    "termes": (
        """(create-block pos-1-2)
        (move pos-1-2 pos-2-2 n0)
        (place-block pos-2-2 pos-2-1 n0 n1)""",
        """(create-block pos-1-2)
        (place-block pos-1-2 pos-2-1 n0 n1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # not neighbours
    ),
    # loc1 is at (2, 0, 0); battery 6.
    "drone": (
        """(increase-x)
        (increase-x)
        (visit loc1)
        (decrease-x)
        (decrease-x)""",
        """(increase-x)
        (visit loc1)
        (decrease-x)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # x is 1, loc1 is at x = 2
    ),
    # robot1 at tile-0-1 holding black paints tile-1-1 black, then tiles 1-0 and 1-2 white.
    "floortile": (
        """(paint-up robot1 tile-1-1 tile-0-1 black)
        (change-color robot1 black white)
        (move-left robot1 tile-0-1 tile-0-0)
        (paint-up robot1 tile-1-0 tile-0-0 white)
        (move-right robot1 tile-0-0 tile-0-1)
        (move-right robot1 tile-0-1 tile-0-2)
        (paint-up robot1 tile-1-2 tile-0-2 white)""",
        """(paint-up robot1 tile-1-1 tile-0-1 black)
        (move-up robot1 tile-0-1 tile-1-1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # tile-1-1 is painted
    ),
    # sub1 (part3 before part4) and the product (part2 before part1) share tool1; sub1 completes it.
    "assembly": (
        """(commit tool1 sub1)
        (assemble part3 sub1)
        (assemble part4 sub1)
        (release tool1 sub1)
        (commit tool1 product)
        (assemble part2 product)
        (assemble part1 product)
        (assemble sub1 product)""",
        """(commit tool1 sub1)
        (assemble part3 sub1)
        (assemble part4 sub1)
        (commit tool1 product)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # tool1 is still committed to sub1
    ),
    # obj1 goes from loc3 to loc1, the briefcase ends at loc2; obj1 must be taken out at loc1.
    "briefcaseworld": (
        """(move loc1 loc3)
        (put-in obj1 loc3)
        (move loc3 loc1)
        (take-out obj1)
        (move loc1 loc2)""",
        """(move loc1 loc3)
        (put-in obj1 loc3)
        (move loc3 loc1)
        (move loc1 loc2)""",
        FailedValidationReason.UNSATISFIED_GOALS,  # obj1 rode on to loc2
    ),
}


def test_every_domain_has_a_hand_checked_plan():
    assert set(GOLDEN) == set(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS)
def test_hand_checked_plan_is_valid_and_its_wrong_variant_is_not(domain):
    good, bad, reason = GOLDEN[domain]
    problem = parsed(domain, "easy", 0)
    assert validate(problem, re.sub(r"\n\s+", "\n", good)).status == ValidationResultStatus.VALID
    result = validate(problem, re.sub(r"\n\s+", "\n", bad))
    assert result.status == ValidationResultStatus.INVALID
    assert result.reason == reason

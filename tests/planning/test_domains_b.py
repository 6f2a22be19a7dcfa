"""Group-B planning domains: generators, parsing, default planners, witnesses and hand-checked plans.

Covers multi_agent_coordination, cooperate_sequential_gripper, elevator,
barman, counters, markettrader, satellite, freecell, settlersnumeric and
sugar. Planner runs use the easy and medium tiers; the hard tiers are solved
and timed by ``bench/planning_domains_b.py``. Plans are judged by
unified-planning's sequential plan validator, whose semantics (deletes
before adds) are VAL's.
"""

from __future__ import annotations

import hashlib
import importlib
import itertools
import json
import os
import random
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
from unified_planning.io.pddl_reader import parse_string
from unified_planning.shortcuts import OneshotPlanner, PlanValidator, get_environment

get_environment().credits_stream = None

# domain -> (category, default planner)
DOMAINS = {
    "multi_agent_coordination": ("sequential", "tamer"),
    "cooperate_sequential_gripper": ("sequential", "tamer"),
    "elevator": ("sequential", "pyperplan"),
    "barman": ("sequential", "pyperplan"),
    "counters": ("resource", "enhsp"),
    "markettrader": ("resource", "enhsp"),
    "satellite": ("resource", "pyperplan"),
    "freecell": ("resource", "pyperplan"),
    "settlersnumeric": ("resource", "enhsp"),
    "sugar": ("resource", "enhsp"),
}
WITNESSED = ("counters", "markettrader", "freecell", "settlersnumeric", "sugar")
TIERS = ("easy", "medium", "hard")
SEEDS = (0, 1)
DOMAINS_DIR = Path(importlib.import_module("stratbench.games.spin.planning.domains").__file__).parent


def generator(domain: str):
    return importlib.import_module(f"stratbench.games.spin.planning.domains.{domain}.generator")


READER = PDDLReader()


def parse_files(domain: str, problem_text: str):
    """Parses a domain and a problem from files with the public reader API."""
    with tempfile.TemporaryDirectory() as folder:
        problem_file = Path(folder) / "problem.pddl"
        problem_file.write_text(problem_text, encoding="utf-8")
        return PDDLReader().parse_problem(str(DOMAINS_DIR / domain / "domain.pddl"), str(problem_file))


@cache
def domain_tree(domain: str):
    """Returns a domain's text and grammar tree, parsed once (most of a parse's time goes here)."""
    text = (DOMAINS_DIR / domain / "domain.pddl").read_text(encoding="utf-8").replace("\t", " ").lower()
    return text, parse_string(READER._pp_domain, text, parse_all=True)


def parse_text(domain: str, problem_text: str):
    """Parses a problem as ``PDDLReader.parse_problem_string`` does, reusing the domain's tree.

    ``test_cached_domain_parse_matches_the_public_reader`` checks this gives
    the same problem as the public API.
    """
    text, tree = domain_tree(domain)
    problem_text = problem_text.replace("\t", " ").lower()
    problem_tree = parse_string(READER._pp_problem, problem_text, parse_all=True)
    return READER._parse_problem(tree, text, problem_tree, problem_text)


@cache
def parsed(domain: str, tier: str, seed: int):
    """Parses a generated problem (cached per instance)."""
    return parse_text(domain, generator(domain).generate(seed, tier))


def validate(problem, plan_text: str):
    plan = PDDLReader().parse_plan_string(problem, re.sub(r"\n\s+", "\n", plan_text.strip()))
    with PlanValidator(name="sequential_plan_validator") as validator:
        return validator.validate(problem, plan)


def enhsp_missing() -> str | None:
    try:
        importlib.import_module("up_enhsp")
    except ImportError:
        return "up-enhsp is not installed"
    if shutil.which("java") is None:
        return "ENHSP needs java on PATH"
    return None


def test_every_group_b_domain_is_a_listed_package():
    assert set(DOMAINS) <= set(DOMAIN_NAMES)
    for domain in DOMAINS:
        assert (DOMAINS_DIR / domain / "domain.pddl").is_file()
        assert (DOMAINS_DIR / domain / "__init__.py").is_file()


@pytest.mark.parametrize("domain", DOMAINS)
def test_generator_interface(domain):
    module = generator(domain)
    assert module.NAME == domain
    assert (module.CATEGORY, module.PLANNER) == DOMAINS[domain]
    assert module.TIERS == TIERS
    assert module.DESCRIPTION.endswith(".") and len(module.DESCRIPTION) > 20
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
        assert text.startswith(f"(define (problem {domain}-{tier}-s{seed})\n  (:domain {domain})")
        assert "." not in text, "unified-planning rejects dots in names"
        assert text.count("(") == text.count(")")


@pytest.mark.slow
def test_generation_does_not_depend_on_the_hash_seed():
    script = (
        "import hashlib, importlib, json\n"
        "out = {}\n"
        f"for d in {list(DOMAINS)!r}:\n"
        "    m = importlib.import_module(f'stratbench.games.spin.planning.domains.{d}.generator')\n"
        f"    out[d] = hashlib.sha256(''.join(m.generate(s, t) for t in {list(TIERS)!r} for s in (0, 1))"
        ".encode()).hexdigest()\n"
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
@pytest.mark.parametrize("domain", DOMAINS)
def test_cached_domain_parse_matches_the_public_reader(domain):
    text = generator(domain).generate(0, "medium")
    assert parse_text(domain, text) == parse_files(domain, text)


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


# ENHSP needs a JVM per call (1-2 s), so its numeric domains solve the easy
# tier twice and the medium tier once here; witnesses cover every tier.
PLANNER_RUNS = [
    (domain, tier, seed)
    for domain, (_, planner) in DOMAINS.items()
    for tier in ("easy", "medium")
    for seed in SEEDS
    if planner != "enhsp" or tier == "easy" or seed == 0
]


@pytest.mark.slow
@pytest.mark.parametrize(("domain", "tier", "seed"), PLANNER_RUNS)
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
    with PlanValidator(name="sequential_plan_validator") as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID
    with PlanValidator(problem_kind=problem.kind, plan_kind=result.plan.kind) as validator:
        assert validator.validate(problem, result.plan).status == ValidationResultStatus.VALID


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("tier", TIERS)
@pytest.mark.parametrize("domain", WITNESSED)
def test_witness_plan_is_valid(domain, tier, seed):
    witness = generator(domain).witness(seed, tier)
    assert validate(parsed(domain, tier, seed), witness).status == ValidationResultStatus.VALID


# Hand-checked plans for the easy tier, seed 0 (barman also medium), and a wrong
# variant of each: (tier, valid plan, wrong plan, why the wrong plan fails).
GOLDEN = {
    # ball1 in room2 (robot2's zone) must reach room0 (robot1's zone); they meet in room1.
    "multi_agent_coordination": ("easy", """
        (move robot2 room1 room2)
        (pick robot2 grip2a ball1 room2)
        (move robot2 room2 room1)
        (move robot1 room0 room1)
        (hand-over robot2 grip2a robot1 grip1a ball1 room1)
        (move robot1 room1 room0)
        (drop robot1 grip1a ball1 room0)""", """
        (move robot2 room1 room2)
        (pick robot2 grip2a ball1 room2)
        (move robot2 room2 room1)
        (move robot2 room1 room0)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # room0 is outside robot2's zone
    ),
    # The heavy ball1 needs both robots: one grasps, the other lifts, both carry.
    "cooperate_sequential_gripper": ("easy", """
        (grasp-heavy robot1 ball1 room0)
        (lift-heavy robot1 robot2 ball1 room0)
        (carry-heavy robot1 robot2 ball1 room0 room1)
        (deliver-heavy robot1 robot2 ball1 room1 turn0 turn1)""", """
        (grasp-heavy robot1 ball1 room0)
        (move robot1 room0 room1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # robot1 is anchored to the ball
    ),
    # The lift at floor3 takes p2 from floor0 to floor1 and p1 from floor1 to floor3.
    "elevator": ("easy", """
        (move-down-slow slow1 floor3 floor0)
        (board p2 slow1 floor0 n0 n1)
        (move-up-slow slow1 floor0 floor1)
        (board p1 slow1 floor1 n1 n2)
        (leave p2 slow1 floor1 n2 n1)
        (move-up-slow slow1 floor1 floor3)
        (leave p1 slow1 floor3 n1 n0)""", """
        (move-down-slow slow1 floor3 floor1)
        (board p1 slow1 floor1 n1 n2)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # the lift's load is n0, not n1
    ),
    # Two shots of single ingredients; filling needs the other hand free.
    "barman": ("easy", """
        (grasp left shot3)
        (fill-shot shot3 ingredient1 left right dispenser1)
        (leave left shot3)
        (grasp left shot1)
        (fill-shot shot1 ingredient2 left right dispenser2)""", """
        (grasp left shot3)
        (grasp right shot1)
        (fill-shot shot3 ingredient1 left right dispenser1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # the right hand is not empty
    ),
    # c0=4, c1=4, c2=2 must become c1 < c0 < c2 (max 4): e.g. 2, 3, 4.
    "counters": ("easy", """
        (transfer c1 c2)
        (transfer c1 c2)
        (decrement c0)""", """
        (increment c2)
        (increment c2)
        (increment c2)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # c2 would pass the maximum 4
    ),
    # Cash 12 -> 14: spice costs 3 at market1, the toll into market2 is 2, market2 pays 7.
    "markettrader": ("easy", """
        (buy camel1 spice market1)
        (travel camel1 market1 market2)
        (sell camel1 spice market2)""", """
        (buy camel1 spice market1)
        (sell camel1 spice market1)""",
        FailedValidationReason.UNSATISFIED_GOALS,  # market1 buys back for 2: cash 11
    ),
    # Calibrate at star0, then image target2 and target3 in infrared.
    "satellite": ("easy", """
        (switch-on instrument1 sat1)
        (turn-to sat1 star0 target2)
        (calibrate sat1 instrument1 star0)
        (turn-to sat1 target2 star0)
        (take-image sat1 target2 instrument1 infrared)
        (turn-to sat1 target3 target2)
        (take-image sat1 target3 instrument1 infrared)""", """
        (switch-on instrument1 sat1)
        (take-image sat1 target2 instrument1 infrared)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # not calibrated
    ),
    # Every card goes home from a column top except hearts2, which sits on hearts1: park it.
    "freecell": ("easy", """
        (move-home spades1 spades2 spades0)
        (move-home spades2 col1 spades1)
        (move-home diamonds1 hearts3 diamonds0)
        (move-home diamonds2 spades3 diamonds1)
        (move-home spades3 col3 spades2)
        (move-home clubs1 clubs2 clubs0)
        (move-home clubs2 col5 clubs1)
        (move-home clubs3 diamonds3 clubs2)
        (move-home diamonds3 col4 diamonds2)
        (move-to-cell hearts2 hearts1 cell1)
        (move-home hearts1 col6 hearts0)
        (cell-home hearts2 cell1 hearts1)
        (move-home hearts3 col2 hearts2)""", """
        (move-home hearts1 col6 hearts0)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # hearts2 lies on hearts1
    ),
    # All industry stands at place1; two houses: fell, saw and break stone twice, build twice.
    "settlersnumeric": ("easy", """
        (fell-timber place1)
        (fell-timber place1)
        (saw-wood place1)
        (saw-wood place1)
        (break-stone place1)
        (break-stone place1)
        (build-house place1)
        (build-house place1)""", """
        (fell-timber place1)
        (fell-timber place1)
        (saw-wood place1)
        (break-stone place1)
        (break-stone place1)
        (build-house place1)
        (build-house place1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # one timber was not sawn into wood
    ),
    # Two units of cane are at the mill, and so is the truck; the depot wants two units.
    "sugar": ("easy", """
        (crush mill1)
        (crush mill1)
        (refine mill1)
        (refine mill1)
        (load-sugar truck1 mill1)
        (load-sugar truck1 mill1)
        (drive truck1 mill1 depot1)
        (unload-sugar truck1 depot1)
        (unload-sugar truck1 depot1)""", """
        (crush mill1)
        (refine mill1)
        (load-sugar truck1 mill1)
        (load-sugar truck1 mill1)""",
        FailedValidationReason.INAPPLICABLE_ACTION,  # only one unit was refined
    ),
}

# cocktail2 = ingredient1 then ingredient3, poured into shot1 via the shaker.
BARMAN_MEDIUM = ("""
    (grasp left shot2)
    (fill-shot shot2 ingredient1 left right dispenser1)
    (pour-shot-to-clean-shaker shot2 ingredient1 shaker1 left l0 l1)
    (clean-shot shot2 ingredient1 left right)
    (fill-shot shot2 ingredient3 left right dispenser3)
    (pour-shot-to-used-shaker shot2 ingredient3 shaker1 left l1 l2)
    (leave left shot2)
    (grasp left shaker1)
    (shake cocktail2 ingredient1 ingredient3 shaker1 left right)
    (pour-shaker-to-shot cocktail2 shot1 left shaker1 l2 l1)""", """
    (grasp left shot2)
    (fill-shot shot2 ingredient1 left right dispenser1)
    (pour-shot-to-clean-shaker shot2 ingredient1 shaker1 left l0 l1)
    (fill-shot shot2 ingredient3 left right dispenser3)""",
    FailedValidationReason.INAPPLICABLE_ACTION,  # the shot is used and not cleaned
)


def test_every_domain_has_a_hand_checked_plan():
    assert set(GOLDEN) == set(DOMAINS)


@pytest.mark.parametrize("domain", DOMAINS)
def test_hand_checked_plan_is_valid_and_its_wrong_variant_is_not(domain):
    tier, good, bad, reason = GOLDEN[domain]
    problem = parsed(domain, tier, 0)
    assert validate(problem, good).status == ValidationResultStatus.VALID
    result = validate(problem, bad)
    assert result.status == ValidationResultStatus.INVALID
    assert result.reason == reason


def test_barman_cocktail_plan_is_valid_and_an_unclean_refill_is_not():
    good, bad, reason = BARMAN_MEDIUM
    problem = parsed("barman", "medium", 0)
    assert validate(problem, good).status == ValidationResultStatus.VALID
    result = validate(problem, bad)
    assert (result.status, result.reason) == (ValidationResultStatus.INVALID, reason)


# Two light balls, both to room1; ball2 has the first turn.
COOPERATE_ORDER = """(define (problem order) (:domain cooperate_sequential_gripper)
  (:objects robot1 robot2 - robot ball1 ball2 - ball room0 room1 - room turn0 turn1 turn2 - turn)
  (:init (connected room0 room1) (connected room1 room0) (robot-at robot1 room0) (robot-at robot2 room0)
    (ball-at ball1 room0) (ball-at ball2 room0) (target ball1 room1) (target ball2 room1)
    (turn-of ball2 turn0) (turn-of ball1 turn1) (next turn0 turn1) (next turn1 turn2) (current turn0))
  (:goal (and (delivered ball1) (delivered ball2))))"""
COOPERATE_CARRY = """
    (pick robot1 ball1 room0)
    (pick robot2 ball2 room0)
    (move robot1 room0 room1)
    (move robot2 room0 room1)"""


@pytest.mark.parametrize(
    ("steps", "valid"),
    [
        ("(deliver robot2 ball2 room1 turn0 turn1)\n(deliver robot1 ball1 room1 turn1 turn2)", True),
        ("(deliver robot1 ball1 room1 turn1 turn2)", False),  # not ball1's turn yet
        ("(deliver robot1 ball1 room1 turn0 turn1)", False),  # turn0 is ball2's
    ],
)
def test_cooperate_balls_are_delivered_in_turn(steps, valid):
    result = validate(parse_text("cooperate_sequential_gripper", COOPERATE_ORDER), COOPERATE_CARRY + "\n" + steps)
    if valid:
        assert result.status == ValidationResultStatus.VALID
    else:
        assert (result.status, result.reason) == (
            ValidationResultStatus.INVALID, FailedValidationReason.INAPPLICABLE_ACTION)


def test_cooperate_heavy_ball_needs_two_different_robots():
    result = validate(parsed("cooperate_sequential_gripper", "easy", 0), """
        (grasp-heavy robot1 ball1 room0)
        (lift-heavy robot1 robot1 ball1 room0)""")
    assert (result.status, result.reason) == (
        ValidationResultStatus.INVALID, FailedValidationReason.INAPPLICABLE_ACTION)


def test_counters_transfer_needs_two_different_counters():
    result = validate(parsed("counters", "easy", 0), "(transfer c0 c0)")
    assert (result.status, result.reason) == (
        ValidationResultStatus.INVALID, FailedValidationReason.INAPPLICABLE_ACTION)


def test_satellite_turn_to_its_own_direction_changes_nothing():
    # Deletes apply before adds (VAL's semantics), so pointing survives the no-op turn.
    _, good, _, _ = GOLDEN["satellite"]
    with_noop = good.replace("(calibrate sat1", "(turn-to sat1 star0 star0)\n(calibrate sat1", 1)
    assert with_noop != good
    assert validate(parsed("satellite", "easy", 0), with_noop).status == ValidationResultStatus.VALID


def _fewest_counter_steps(start: tuple[int, ...], max_value: int) -> int:
    """Returns the shortest plan length by breadth-first search over counter values."""
    frontier, seen = [start], {start}
    for depth in range(100):
        if any(all(a < b for a, b in zip(v, v[1:])) for v in frontier):
            return depth
        following = []
        for v in frontier:
            for i, j in itertools.product(range(len(v)), range(-1, len(v))):
                w = list(v)
                if j == -1:  # increment or decrement counter i
                    for step in (1, -1):
                        u = tuple(w[:i] + [w[i] + step] + w[i + 1:])
                        if 0 <= u[i] <= max_value and u not in seen:
                            seen.add(u)
                            following.append(u)
                elif i != j and w[i] > 0 and w[j] < max_value:
                    w[i], w[j] = w[i] - 1, w[j] + 1
                    if tuple(w) not in seen:
                        seen.add(tuple(w))
                        following.append(tuple(w))
        frontier = following
    raise AssertionError("no plan found")


def test_counters_shortest_length_matches_a_search():
    module = generator("counters")
    rng = random.Random(7)
    for _ in range(40):
        size = rng.randint(2, 4)
        max_value = rng.randint(size - 1, 5)
        start = tuple(rng.randint(0, max_value) for _ in range(size))
        assert module.shortest_length(list(start), max_value) == _fewest_counter_steps(start, max_value)


@pytest.mark.parametrize("tier", TIERS)
def test_counters_witness_is_a_shortest_plan(tier):
    module = generator("counters")
    for seed in SEEDS:
        text = module.generate(seed, tier)
        max_value = int(re.search(r"\(max-value\) (\d+)", text).group(1))
        values = dict(re.findall(r"\(= \(value (c\d+)\) (\d+)\)", text))
        pairs = re.findall(r"\(<= \(\+ \(value (c\d+)\) 1\) \(value (c\d+)\)\)", text)
        order = [pairs[0][0]] + [b for _, b in pairs]
        start = [int(values[c]) for c in order]
        assert len(module.witness(seed, tier).splitlines()) == module.shortest_length(start, max_value)


def test_freecell_search_needs_the_second_cell():
    # One column, bottom to top: hearts1, spades1, hearts2, spades2.
    column = [(0, 1), (1, 1), (0, 2), (1, 2)]
    solve_deal = generator("freecell").solve_deal
    assert solve_deal([column], n_cells=1, n_suits=2, n_ranks=2) is None
    assert solve_deal([column], n_cells=2, n_suits=2, n_ranks=2) == [
        "(move-to-cell spades2 hearts2 cell1)",
        "(move-to-cell hearts2 spades1 cell2)",
        "(move-home spades1 hearts1 spades0)",
        "(move-home hearts1 col1 hearts0)",
        "(cell-home spades2 cell1 spades1)",
        "(cell-home hearts2 cell2 hearts1)",
    ]


def test_multi_agent_zones_overlap_and_cover_the_corridor():
    module = generator("multi_agent_coordination")
    for tier in TIERS:
        for seed in range(20):
            text = module.generate(seed, tier)
            zones = {}
            for robot, room in re.findall(r"\(may-enter (\S+) room(\d+)\)", text):
                zones.setdefault(robot, set()).add(int(room))
            rooms = set(range(len(re.findall(r"\broom\d+\b", text.split("(:init")[0]))))
            assert set().union(*zones.values()) == rooms
            ordered = sorted(zones.values(), key=min)
            assert all(a & b for a, b in zip(ordered, ordered[1:]))

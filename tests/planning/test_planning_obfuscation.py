"""Obfuscated planning tasks (``--obfuscate``): renamed PDDL, plans mapped back, no original name shown.

The property tests run on the first task of each of the default dataset's 21
domains in every mode (seed 0, and seed 7 for ``random`` and ``mystery``);
``STRATBENCH_FULL_OBFUSCATION=1`` runs them on all 420 tasks (2 to 3.5
minutes per test and seed: every renamed task is read again by unified-planning)
and the planner on the renamed first task of every domain.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, BLOCKS_P01_PLAN
from wild_toys import WILD_TASKS

from stratbench.core.obfuscation import Obfuscation
from stratbench.core.types import Action
from stratbench.games.spin.pddl import PddlGame, pddl_game
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.dataset import load_manifest
from stratbench.games.spin.planning.obfuscate import KEYWORDS, obfuscate_task
from stratbench.games.spin.planning.plan_parsing import parse_plan_text, render_plan
from stratbench.games.spin.planning.planner_process import solve_isolated
from stratbench.games.spin.planning.planners import random_walk
from stratbench.games.spin.planning.prompt import STYLES, planning_prompt
from stratbench.games.spin.planning.reading import read_task
from stratbench.games.spin.planning.validation import check_steps
from stratbench.scaffolds.prompt import game_prompt

MODES = ("random", "mystery", "deceptive")
ENTRIES = load_manifest()["instances"]
FIRST_OF_EACH_DOMAIN = [e for i, e in enumerate(ENTRIES) if i == 0 or ENTRIES[i - 1]["domain"] != e["domain"]]
FULL = bool(os.environ.get("STRATBENCH_FULL_OBFUSCATION"))
TASKS = ENTRIES if FULL else FIRST_OF_EACH_DOMAIN
SPECS = [f"{mode}:0" for mode in MODES] + ["random:7", "mystery:7"]
PLANNER_SAMPLE = ("blocksworld/p01", "logistics/p01", "elevator/p01", "counters/p01")
"""Tasks the planner solves again under their new names by default (each in a child process, under a time limit)."""


def answer(steps):
    return "$$\n" + json.dumps({"plan": render_plan(steps)}) + "\n$$"


def reference_steps(entry):
    return parse_plan_text("\n".join(entry["reference_plan"]))


@pytest.fixture
def toy(toy_dataset):
    dataset.list_variants({"pddl_dir": toy_dataset})
    yield
    dataset.list_variants({})


# -- the game ----------------------------------------------------------------------------------------------------


def test_the_game_supports_obfuscation_and_its_factory_takes_one(toy):
    assert PddlGame.supports_obfuscation is True and pddl_game.supports_obfuscation is True
    game = pddl_game("blocksworld/p01", obfuscation=Obfuscation("mystery", 7))
    assert game.obfuscation == Obfuscation("mystery", 7)
    assert pddl_game("blocksworld/p01").texts == (BLOCKS_DOMAIN, BLOCKS_P01)


def test_every_kind_of_name_is_renamed_consistently_and_the_rest_stays(toy):
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("mystery", 0))
    renamed = game.renamed
    assert renamed.names["action"].keys() == {"pick-up", "put-down", "stack", "unstack"}
    assert renamed.names["predicate"].keys() == {"on", "ontable", "clear", "handempty", "holding"}
    assert renamed.names["type"] == {"block": renamed.names["type"]["block"]}
    assert renamed.names["object"].keys() == {"a", "b", "c"}
    assert renamed.names["variable"] == {"?x": "?a1", "?y": "?a2"}
    new = [n for kind in ("type", "object", "predicate", "action", "domain", "problem")
           for n in renamed.names[kind].values()]
    assert len(new) == len(set(new)) == 15
    domain, problem = game.texts
    assert domain.startswith(f"(define (domain {renamed.names['domain']['toy-blocks']})\n")
    assert "(:requirements :strips :typing)" in domain and ":precondition (and (" in domain
    assert "; A tiny" not in domain
    stack, on = renamed.names["action"]["stack"], renamed.names["predicate"]["on"]
    assert f"(:action {stack} :parameters (?a1 - {renamed.names['type']['block']} ?a2 - " in domain
    a, b = renamed.names["object"]["a"], renamed.names["object"]["b"]
    assert f"({on} {a} {b})" in problem and f"(:domain {renamed.names['domain']['toy-blocks']})" in problem
    # the renamed task is the same task: its own reader and validator accept the renamed reference plan
    plan = renamed.renamed_steps(parse_plan_text(BLOCKS_P01_PLAN))
    assert check_steps(read_task(domain, problem), plan).valid


def test_a_plan_in_the_new_names_is_validated_by_the_original_and_scores_as_it(toy):
    original = PddlGame("blocksworld/p01")
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("random", 3))
    steps = parse_plan_text(BLOCKS_P01_PLAN)
    shown = game.renamed.renamed_steps(steps)
    assert game.renamed.original_steps(shown) == steps
    assert game.check(answer(shown)).valid and original.check(answer(steps)).valid
    # a wrong plan: the same verdict, error kind, failed step and length; the messages in the new names
    wrong = steps[1:]
    before, after = original.check(answer(wrong)), game.check(answer(game.renamed.renamed_steps(wrong)))
    assert (after.valid, after.error, after.error_class, after.step, after.plan_length) == (
        False, "inapplicable_action", "BC", 1, 5) == (before.valid, before.error, before.error_class, before.step,
                                                     before.plan_length)
    put_down, a = game.renamed.names["action"]["put-down"], game.renamed.names["object"]["a"]
    holding = game.renamed.names["predicate"]["holding"]
    assert after.action == f"({put_down} {a})" and after.unmet == (f"({holding} {a})",)
    assert after.reason == f"step 1 ({put_down} {a}) is not applicable: unmet precondition ({holding} {a})"


def test_the_original_names_are_unknown_under_random_and_mystery(toy):
    for mode in ("random", "mystery"):
        game = PddlGame("blocksworld/p01", obfuscation=Obfuscation(mode))
        check = game.check(answer(parse_plan_text(BLOCKS_P01_PLAN)))
        assert (check.valid, check.error, check.step) == (False, "unknown_action", 1)
        assert check.reason == "step 1 (unstack a b): unknown action 'unstack'"


def test_a_wrong_arity_names_the_new_action(toy):
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("mystery"))
    names = game.renamed.names
    game_check = game.check(answer(((names["action"]["pick-up"], (names["object"]["a"], "nothing")),)))
    assert game_check.error == "wrong_arity"
    assert game_check.reason == f"step 1 ({names['action']['pick-up']} {names['object']['a']} nothing): " \
        f"{names['action']['pick-up']} takes 1 arguments, got 2"


def test_type_mismatches_and_unmet_conditions_name_the_new_variables_types_and_memberships(tmp_path):
    from planning_toys import write_dataset
    from wild_toys import EITHER_DOMAIN, EITHER_PROBLEM

    root = write_dataset(tmp_path, {"transport": (EITHER_DOMAIN, {"p01": EITHER_PROBLEM})})
    dataset.list_variants({"pddl_dir": root})
    try:
        original = PddlGame("transport/p01")
        game = PddlGame("transport/p01", obfuscation=Obfuscation("mystery"))
        n = {kind: names for kind, names in game.renamed.names.items()}
        assert original.check(answer((("refuel", ("b1", "depot")),))).reason == \
            "step 1 (refuel b1 depot): b1 is of type bike, parameter ?v needs (either truck plane)"
        mismatch = game.check(answer(((n["action"]["refuel"], (n["object"]["b1"], n["object"]["depot"])),)))
        assert mismatch.error == "type_mismatch" and mismatch.reason == (
            f"step 1 ({n['action']['refuel']} {n['object']['b1']} {n['object']['depot']}): {n['object']['b1']} is of "
            f"type {n['type']['bike']}, parameter ?a1 needs (either {n['type']['truck']} {n['type']['plane']})"
        )
        assert original.check(answer((("finish", ()),))).unmet == (
            "(forall (?v - vehicle) (imply (either-truck-plane ?v) (fuelled ?v)))",)
        unmet = game.check(answer(((n["action"]["finish"], ()),))).unmet
        assert unmet == (f"(forall (?a1 - {n['type']['vehicle']}) (imply (either-{n['type']['truck']}-"
                         f"{n['type']['plane']} ?a1) ({n['predicate']['fuelled']} ?a1)))",)
    finally:
        dataset.list_variants({})


def test_the_snapshot_carries_the_plan_mapped_back(toy):
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("mystery"))
    state = game.new_initial_state(0)
    state.answer = answer(game.renamed.renamed_steps(parse_plan_text(BLOCKS_P01_PLAN)))
    state.check = game.check(state.answer)
    board = game.snapshot(state)
    assert board["original_steps"] == BLOCKS_P01_PLAN.split("\n")
    assert board["steps"] != board["original_steps"] and board["check"]["valid"] is True


def test_the_observation_shows_only_the_new_names_and_no_file_paths(toy):
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("random"))
    observation = game.observe(game.new_initial_state(0), 0)
    domain, problem = game.texts
    assert observation.asking.prompt == planning_prompt(domain, problem)
    assert observation.text == f"Planning task.\n\nTask PDDL:\n{problem.strip()}"
    assert observation.data == {"task": "blocksworld/p01", "domain_pddl": domain, "problem_pddl": problem}


# -- no original name in anything the model reads ------------------------------------------------------------


def _whole_word(name):
    if name.startswith("?"):
        return re.compile(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", re.IGNORECASE)
    return re.compile(r"(?<![\w?:-])" + re.escape(name) + r"(?![\w-])", re.IGNORECASE)


def _shown_texts(game):
    """Every text of the task the model may read: the prompt under each style and protocol, the observation."""
    texts = []
    for protocol in ("default", "paper"):
        for style in STYLES:
            variant = PddlGame(game.variant, prompt_style=style, protocol=protocol, obfuscation=game.obfuscation)
            observation = variant.observe(variant.new_initial_state(0), 0)
            texts += [observation.asking.prompt, observation.text, game_prompt(observation),
                      observation.asking.instructions, *observation.open_ended.values(),
                      observation.rules.title, observation.rules.summary]
    return texts


def _fixed_words(game):
    """The words of the same texts around an empty task: a name spelled like one of them is checked in the PDDL."""
    empty = []
    for style in STYLES:
        empty.append(planning_prompt("", "", style=style))
    observation = game.observe(game.new_initial_state(0), 0)
    empty += [game_prompt(observation).replace(game.texts[1].strip(), ""), observation.asking.instructions,
              observation.rules.summary, observation.rules.title, "Planning task."]
    return "\n".join(empty)


def _leaks(game, entry_name):
    renamed = game.renamed
    identifiers = renamed.originals() | ({entry_name.split("/")[0]} - KEYWORDS)  # the dataset's domain label too
    fixed = _fixed_words(game)
    shown = _shown_texts(game)
    leaks = []
    for name in sorted(identifiers):
        pattern = _whole_word(name)
        scanned = list(game.texts) if pattern.search(fixed) else shown
        leaks += [name for text in scanned if pattern.search(text)][:1]
    return leaks


@pytest.mark.slow
@pytest.mark.parametrize("spec", ["random:0", "mystery:0", "mystery:7"])
def test_no_original_identifier_appears_in_any_prompt(spec):
    leaks = {}
    for entry in TASKS:
        game = PddlGame(entry["name"], obfuscation=Obfuscation.parse(spec))
        found = _leaks(game, entry["name"])
        if found:
            leaks[entry["name"]] = found
        # the validator's messages on a failing plan name only what the model saw too
        renamed = game.renamed
        steps = renamed.renamed_steps(reference_steps(entry))
        for wrong in (steps[1:], steps[:-1]):
            check = game.check(answer(wrong))
            for text in (check.action or "", *check.unmet):
                hits = [n for n in renamed.originals() if _whole_word(n).search(text)]
                if hits:
                    leaks.setdefault(entry["name"], []).extend(hits)
    assert not leaks


def test_the_original_identifiers_are_found_by_the_scan_without_an_obfuscation(toy):
    """The scan finds what it looks for: the original task's prompt holds every name."""
    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("random"))
    original = PddlGame("blocksworld/p01")
    prompt = original.observe(original.new_initial_state(0), 0).asking.prompt
    missing = [n for n in game.renamed.originals() if not _whole_word(n).search(prompt)]
    assert missing == []


# -- property tests over the dataset ---------------------------------------------------------------------------


def _random_plan(task, rng):
    """A goal-blind walk of applicable steps, then steps of random actions with random objects (any type), an
    unknown object or a wrong arity now and then: every verdict a model's plan can get."""
    problem = task.problem
    steps = list(task.original_steps(random_walk(problem, rng, rng.randrange(0, 6))))
    actions = sorted(task.names.original("action", a.name) for a in problem.actions)
    objects = sorted(task.names.original("object", o.name) for o in problem.all_objects)
    arity = {task.names.original("action", a.name): len(a.parameters) for a in problem.actions}
    for _ in range(rng.randrange(0, 3)):
        action = rng.choice(actions)
        count = arity[action] + (1 if rng.random() < 0.1 else 0)
        args = [rng.choice(objects) if objects and rng.random() > 0.05 else "nosuchthing" for _ in range(count)]
        steps.append((action, tuple(args)))
    return tuple(steps)


def _verdict(check):
    return check.valid, check.error, check.step, check.plan_length


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_renamed_tasks_keep_every_verdict(spec):
    """(a) The planner's reference plan, renamed, is valid on the renamed task both as the game checks it (mapped
    back to the original) and as unified-planning reads the renamed text; mapped back, it is the reference plan.
    (b) Seeded random plans get the same verdict, error kind and failed step on the original task, on the game
    under the obfuscation and on the renamed text read afresh."""
    obfuscation = Obfuscation.parse(spec)
    failures = []
    kinds = set()
    for entry in TASKS:
        original = PddlGame(entry["name"])
        game = PddlGame(entry["name"], obfuscation=obfuscation)
        renamed = game.renamed
        reread = read_task(*game.texts)
        reference = reference_steps(entry)
        shown = renamed.renamed_steps(reference)
        if renamed.original_steps(shown) != reference:
            failures.append((entry["name"], "mapped back", renamed.original_steps(shown)))
        if not (game.check(answer(shown)).valid and check_steps(reread, shown).valid):
            failures.append((entry["name"], "reference plan", game.check(answer(shown)).reason))
        rng = random.Random(f"{entry['name']}:{spec}")
        for _ in range(3):
            steps = _random_plan(original.task(), rng)
            expected = _verdict(original.check(answer(steps)))
            kinds.add(expected[1])
            shown = renamed.renamed_steps(steps)
            got = (_verdict(game.check(answer(shown))), _verdict(check_steps(reread, shown)))
            if got != (expected, expected):
                failures.append((entry["name"], render_plan(steps), expected, got))
    assert not failures
    assert {"goal_not_satisfied", "inapplicable_action", "type_mismatch"} <= kinds  # the plans probe every verdict


def _planner_on_renamed_text(name, obfuscation):
    entry = next(e for e in ENTRIES if e["name"] == name)
    game = PddlGame(name, obfuscation=obfuscation)
    domain, problem = game.texts
    limit = 30 + 10 * entry["planner_seconds"]
    solution = solve_isolated(domain, problem, entry["reference_engine"], limit)
    assert solution is not None, f"{name}: {entry['reference_engine']} found no plan in {limit:.0f} s"
    shown = read_task(domain, problem).original_steps(solution.steps)  # the names the model reads
    assert game.check(answer(shown)).valid, name
    assert PddlGame(name).check(answer(game.renamed.original_steps(shown))).valid, name


@pytest.mark.slow
@pytest.mark.parametrize("name", PLANNER_SAMPLE)
def test_the_planner_solves_the_renamed_text_and_its_plan_maps_back(name):
    _planner_on_renamed_text(name, Obfuscation("mystery"))


def test_total_cost_keeps_its_name_so_planners_read_action_costs():
    game = PddlGame("elevator/p01", obfuscation=Obfuscation("random"))
    assert "total-cost" in PddlGame("elevator/p01").texts[0]
    assert "(increase (total-cost) " in game.texts[0] and "(:metric minimize (total-cost))" in game.texts[1]
    assert "total-cost" not in game.renamed.names["function"]


@pytest.mark.slow
@pytest.mark.skipif(not FULL, reason="solves the first task of every domain renamed; set STRATBENCH_FULL_OBFUSCATION=1")
@pytest.mark.parametrize("entry", FIRST_OF_EACH_DOMAIN, ids=lambda e: e["name"])
def test_the_planner_solves_every_domain_renamed(entry):
    _planner_on_renamed_text(entry["name"], Obfuscation("random"))


# -- --pddl-dir tasks the reader repairs -----------------------------------------------------------------------


@pytest.mark.parametrize("spec", ["random:0", "mystery:0", "deceptive:0"])
@pytest.mark.parametrize("task", sorted(WILD_TASKS))
def test_a_pddl_dir_task_the_reader_repairs_is_renamed_too(tmp_path, task, spec):
    from planning_toys import write_dataset

    domain_text, problem_text, plan = WILD_TASKS[task]
    write_dataset(tmp_path / "wild", {task: (domain_text, {"p01": problem_text})})
    dataset.list_variants({"pddl_dir": tmp_path / "wild"})
    try:
        original = PddlGame(f"{task}/p01")
        game = PddlGame(f"{task}/p01", obfuscation=Obfuscation.parse(spec))
        steps = parse_plan_text(plan)
        shown = game.renamed.renamed_steps(steps)
        assert original.check(answer(steps)).valid
        assert game.check(answer(shown)).valid
        assert check_steps(read_task(*game.texts), shown).valid
        wrong = _verdict(original.check(answer(steps[:-1])))
        assert _verdict(game.check(answer(shown[:-1]))) == wrong
        if spec != "deceptive:0":
            assert _leaks(game, f"{task}/p01") == []
    finally:
        dataset.list_variants({})


def test_the_renaming_is_a_function_of_the_obfuscation_and_the_domain():
    first = obfuscate_task(BLOCKS_DOMAIN, BLOCKS_P01, Obfuscation("mystery", 7), "blocks")
    again = obfuscate_task(BLOCKS_DOMAIN, BLOCKS_P01, Obfuscation("mystery", 7), "blocks")
    other = obfuscate_task(BLOCKS_DOMAIN, BLOCKS_P01, Obfuscation("mystery", 8), "blocks")
    salted = obfuscate_task(BLOCKS_DOMAIN, BLOCKS_P01, Obfuscation("mystery", 7, "team"), "blocks")
    assert first == again
    assert first.names["action"] != other.names["action"] and first.names["action"] != salted.names["action"]


# -- a match: the planner agent and the per-match metric ---------------------------------------------------------


def _play_planner(game):
    from stratbench.core.agent import AgentContext, AgentSpec
    from stratbench.core.runner import MatchRules, run_match
    from stratbench.core.transcript import Transcript
    from stratbench.games.spin.agents.planner import PlannerAgent

    transcript = Transcript()
    context = AgentContext(AgentSpec("planner"), game, 0, 0, random.Random(0), transcript)
    return asyncio.run(run_match(game, game.new_initial_state(0), {0: PlannerAgent(context)}, rng=random.Random(0),
                                 rules=MatchRules(illegal_tolerance=1, fallback="forfeit"), transcript=transcript))


@pytest.mark.slow
def test_the_planner_agent_solves_an_obfuscated_task_and_the_metric_matches_the_original(toy):
    from stratbench.games.spin.metrics.pddl import plan_validity

    game = PddlGame("blocksworld/p01", obfuscation=Obfuscation("mystery"))
    outcome = _play_planner(game)
    assert outcome.scores == [1.0]
    plan = json.loads(re.search(r"\$\$\s*(\{.*\})\s*\$\$", outcome.history[0][0], re.DOTALL).group(1))["plan"]
    actions = {line.strip("()").split()[0] for line in plan.splitlines()}
    assert actions and actions <= set(game.renamed.names["action"].values())
    metrics = plan_validity(game, outcome, 0)[0]
    original = PddlGame("blocksworld/p01")
    state = original.new_initial_state(0)
    state.apply({0: Action("plan", answer(game.renamed.original_steps(parse_plan_text(plan))))})

    class Outcome:
        history = state.history
        terminal = state.terminal_reason()

    expected = plan_validity(original, Outcome, 0)[0]
    assert metrics == expected and metrics["valid"] is True and metrics["plan_length"] == len(plan.splitlines())


def test_a_task_that_is_not_pddl_is_a_harness_error_naming_it(tmp_path):
    from planning_toys import write_dataset

    from stratbench.core.types import HarnessError

    root = write_dataset(tmp_path, {"broken": (BLOCKS_DOMAIN, {"p01": BLOCKS_P01 + ")"})})
    dataset.list_variants({"pddl_dir": root})
    try:
        game = PddlGame("broken/p01", obfuscation=Obfuscation("random"))
        why = r"the problem has text after its closing parenthesis, near '\)'"
        with pytest.raises(HarnessError, match=rf"^broken/p01: cannot rename it: {why}$"):
            game.new_initial_state(0)
    finally:
        dataset.list_variants({})

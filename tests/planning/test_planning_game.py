"""The pddl game, its agents and its per-match metric, on small tasks."""

import asyncio
import random

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, BLOCKS_P01_PLAN, ROOMS_P01_PLAN

from stratbench.games.spin.agents.planner import PlannerAgent, RandomPlannerAgent
from stratbench.core.agent import AgentContext, AgentSpec
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError, HarnessError
from stratbench.games.spin.pddl import PddlGame
from stratbench.games.spin.metrics.pddl import plan_validity
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.prompt import planning_prompt


@pytest.fixture
def game(toy_dataset):
    dataset.list_variants({"pddl_dir": toy_dataset})
    yield PddlGame("blocksworld/p01")
    dataset.list_variants({})


def answer(plan):
    return Action("plan", "$$\n" + '{"plan": "' + plan.replace("\n", "\\n") + '"}\n$$')


def play(game, agent_class, seed=0, params=()):
    transcript = Transcript()
    context = AgentContext(AgentSpec(agent_class.name, params=params), game, 0, 0, random.Random(seed), transcript)
    outcome = asyncio.run(
        run_match(game, game.new_initial_state(seed), {0: agent_class(context)}, rng=random.Random(seed),
                  rules=MatchRules(illegal_tolerance=1, fallback="forfeit"), transcript=transcript)
    )
    return outcome, transcript


def test_observation_is_the_e1_prompt_with_both_texts_verbatim(game):
    state = game.new_initial_state(0)
    observation = game.observe(state, 0)
    assert observation.asking.prompt == planning_prompt(BLOCKS_DOMAIN, BLOCKS_P01)
    assert BLOCKS_DOMAIN.strip() in observation.asking.prompt and BLOCKS_P01.strip() in observation.asking.prompt
    assert observation.asking.prompt.startswith("Solve this planning problem:\n\nDomain PDDL:\n```\n")
    assert "Please solve this PDDL planning problem using the following systematic approach:" in observation.asking.prompt
    assert "The solution must be enclosed in $$ markers" in observation.asking.prompt
    assert observation.legal_actions == () and list(observation.open_ended) == ["plan"]
    assert observation.data["domain_pddl"] == BLOCKS_DOMAIN and observation.data["problem_pddl"] == BLOCKS_P01


def test_the_code_prompt_variant():
    text = planning_prompt("(define (domain d))", "(define (problem p))", style="code")
    assert "provide only the final plan in JSON format, enclosed within $$ markers" in text
    with pytest.raises(ValueError, match="unknown planning prompt style"):
        planning_prompt("d", "p", style="nope")


def test_observation_never_holds_the_reference_plan(tmp_path, toy_dataset):
    import json

    manifest = {"instances": [{"name": "blocksworld/p01", "domain": "blocksworld", "instance": "p01",
                               "reference_length": 6, "reference_plan": BLOCKS_P01_PLAN.splitlines()}]}
    (toy_dataset / "manifest.json").write_text(json.dumps(manifest))
    dataset.list_variants({"pddl_dir": toy_dataset})
    game = PddlGame("blocksworld/p01")
    observation = game.observe(game.new_initial_state(0), 0)
    assert "(put-down a)" not in json.dumps(observation.data) + observation.text + observation.asking.prompt
    dataset.list_variants({})


def test_a_valid_plan_scores_one_and_ends_the_game(game):
    state = game.new_initial_state(0)
    state.apply({0: answer(BLOCKS_P01_PLAN)})
    assert state.is_terminal() and state.scores() == [1.0] and state.terminal_reason() == "valid plan"
    assert state.legal_actions(0) == [] and state.open_ended(0) == {} and state.current_players() == []


def test_an_invalid_plan_scores_zero_with_the_reason(game):
    state = game.new_initial_state(0)
    state.apply({0: answer("(unstack a b)\n(pick-up b)")})
    assert state.is_terminal() and state.scores() == [0.0]
    assert state.terminal_reason().startswith("step 2 (pick-up b) is not applicable")


def test_a_game_without_variant_has_no_task():
    with pytest.raises(HarnessError, match="needs a variant"):
        PddlGame().new_initial_state(0)


@pytest.mark.slow
def test_planner_solves_and_records_its_engine(game, toy_dataset):
    for name in ("blocksworld/p01", "blocksworld/p02", "counters/p01", "rooms/p01"):
        task = PddlGame(name)
        outcome, transcript = play(task, PlannerAgent)
        assert outcome.scores == [1.0], (name, outcome.terminal)
        (event,) = transcript.of_kind("planner")
        assert event["solved"] and event["engine"] in {"pyperplan", "tamer", "enhsp", "fast-downward"}
        metrics = plan_validity(task, outcome, 0)[0]
        assert metrics["valid"] and metrics["error_class"] is None and metrics["domain"] == name.split("/")[0]


def test_random_planner_applies_only_applicable_actions_and_replays_by_seed(game):
    runs = {}
    for seed in (1, 2, 1):
        outcome, transcript = play(PddlGame("rooms/p01"), RandomPlannerAgent, seed, params=(("max_steps", 7),))
        (event,) = transcript.of_kind("random_walk")
        assert event["steps"] <= 7
        metrics = plan_validity(PddlGame("rooms/p01"), outcome, seed)[0]
        assert metrics["error"] in (None, "goal_not_satisfied")  # never an inapplicable step
        runs.setdefault(seed, []).append(outcome.history)
    assert runs[1][0] == runs[1][1]


def test_plan_validity_metric_for_a_failed_plan(game):
    state = game.new_initial_state(0)
    state.apply({0: answer("(stack c b)")})

    class Outcome:
        history = state.history
        terminal = state.terminal_reason()

    metrics = plan_validity(game, Outcome, 0)[0]
    assert metrics["valid"] is False and metrics["error_class"] == "BC" and metrics["failed_step"] == 1
    assert set(metrics["unmet"]) == {"(holding c)", "(clear b)"} and metrics["task"] == "blocksworld/p01"


def test_a_forfeit_is_no_answer_class_other(game):
    class Mute:
        name = "mute"

        def __init__(self, context):
            pass

        async def act(self, observation):
            raise ActionParseError("empty reply")

    outcome, _ = play(game, Mute)
    assert outcome.scores == [0.0] and outcome.forfeited_by == 0
    metrics = plan_validity(game, outcome, 0)[0]
    assert (metrics["error"], metrics["error_class"], metrics["valid"]) == ("no_answer", "Other", False)


def test_rooms_reference_plan_is_valid(game):
    state = PddlGame("rooms/p01").new_initial_state(0)
    state.apply({0: answer(ROOMS_P01_PLAN)})
    assert state.scores() == [1.0]

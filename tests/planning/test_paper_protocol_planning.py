"""The paper protocol of SPIN-Bench's PDDL tasks and probes: the released reader, the first request, the verdicts."""

from __future__ import annotations

import asyncio
import random

import pytest
from planning_toys import BLOCKS_DOMAIN, BLOCKS_P01, BLOCKS_P01_PLAN

from stratbench.families import standalone_registry
from stratbench.core.runner import MatchRules, run_match
from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, ActionParseError
from stratbench.games.spin.pddl import PddlGame
from stratbench.llm.client import LLMClient
from stratbench.llm.session import ModelSession
from stratbench.games.spin.metrics.pddl import plan_validity
from stratbench.games.spin.planning import dataset
from stratbench.games.spin.planning.plan_parsing import PlanParseError, released_plan
from stratbench.scaffolds.direct import direct
from stratbench.scaffolds.parsing import parse_answer
from stratbench.testing.fake_llm import FakeLLMServer

PLAN = BLOCKS_P01_PLAN.strip()
GOOD = "Reasoning:\nstack them.\n\n$$\n" + '{\n  "plan": "' + PLAN.replace("\n", "\\n") + '"\n}' + "\n$$\n"

# SPIN-Bench Appendix E.1 as published (digest §3.4), the two PDDL texts inserted between code fences.
E1 = """Solve this planning problem:

Domain PDDL:
```
{domain}
```

Task PDDL:
```
{problem}
```

Please solve this PDDL planning problem using the following systematic approach:

1. Initial State Analysis:
  - List all objects and their initial states
  - Identify available actions and their preconditions
2. Goal State Analysis:
  - List all goal conditions
  - Identify the gap between initial and goal states
3. Plan Generation:
  - Build the plan step by step
  - For each action, explain:
    - * Why this action is chosen
    - * What preconditions are satisfied
    - * What effects it produces
4. Plan Verification:
  - Simulate the plan execution from initial state
  - Verify each action's preconditions are met
  - Confirm the goal state is achieved
5. Solution Output:

After completing the analysis, provide the final solution in this exact format:

Reasoning:

[Your step-by-step reasoning following the above structure]

$$
{{
  "plan": "(action1)\\n(action2)\\n(action3)..."
}}
$$

Requirements:

- Each action in the plan must be valid PDDL syntax
- Actions must be separated by '\\n'
- The JSON must contain only the 'plan' key
- The solution must be enclosed in $$ markers
- Verify that each action in the final plan is executable given the previous state
"""


@pytest.fixture
def toy(toy_dataset):
    dataset.list_variants({"pddl_dir": toy_dataset})
    yield
    dataset.list_variants({})


def _registry():
    registry = standalone_registry(("games", "protocols"))
    return registry


class _ScaffoldAgent:
    """The model behind the direct scaffold, as the llm agent drives it."""

    def __init__(self, api_base, temperature):
        client = LLMClient(api_base=api_base, max_attempts=1, allow_placeholder_key=True)
        self.session = ModelSession(client, "openai/m", 0, Transcript(), settings={"temperature": temperature})
        self.scaffold = direct()

    async def act(self, observation):
        return await self.scaffold.decide(observation, self.session)


def _play(game, reply, temperature=0.0):
    with FakeLLMServer(responder=lambda body: reply) as server:
        outcome = asyncio.run(run_match(
            game, game.new_initial_state(0), {0: _ScaffoldAgent(server.api_base, temperature)},
            rng=random.Random(0), rules=MatchRules(illegal_tolerance=1, fallback="forfeit")))
        bodies = [r.body for r in server.requests]
    return outcome, bodies


@pytest.mark.parametrize("answer, reason", [
    ("Reasoning: ...\n$$ " + '{"plan": "(pick-up a)"}' + " $$", "not JSON"),  # no newline after the first $$
    ("$$\n" + '{"plan": "(pick-up a)\n(stack a b)"}' + "\n$$", "not JSON"),  # a raw newline inside the string
    ("$$\n" + '{"plan": ["(pick-up a)"]}' + "\n$$", "must be a string"),
    ("$$\n" + '{"steps": "(pick-up a)"}' + "\n$$", 'no "plan" key'),
    ("```\n(pick-up a)\n(stack a b)\n```", "not JSON"),
    ("$$\n" + '{"plan": "(a)"}' + "\n$$ and again $$\n" + '{"plan": "(b)"}' + "\n$$", "not JSON"),  # first to last
])
def test_the_released_reader_reads_only_the_dollar_json_plan(answer, reason):
    with pytest.raises(PlanParseError, match=reason):
        released_plan(answer)


def test_the_released_reader_takes_the_whole_reply_without_markers_and_keeps_the_plan_as_written():
    assert released_plan('{"plan": "(pick-up a)"}') == "(pick-up a)"
    assert released_plan(GOOD) == PLAN
    assert released_plan('$$\n{"plan": "(a)\\\\n(b)"}\n$$') == "(a)\\n(b)"  # a doubled escape stays literal


def test_the_paper_observation_names_the_strict_reader_and_the_default_stays_lenient(toy):
    paper, default = PddlGame("blocksworld/p01", protocol="paper"), PddlGame("blocksworld/p01")
    observation = paper.observe(paper.new_initial_state(0), 0)
    assert observation.asking.answer_parser == "spin_pddl_plan"
    assert parse_answer(GOOD, observation) == Action("plan", GOOD)
    one_line = "$$ " + '{"plan": "' + PLAN.replace("\n", "\\n") + '"}' + " $$"
    with pytest.raises(ActionParseError, match="Unreadable plan: the \\$\\$ ... \\$\\$ block is not JSON"):
        parse_answer(one_line, observation)
    lenient = default.observe(default.new_initial_state(0), 0)
    assert lenient.asking.answer_parser == "" and lenient.asking.system_prompt is None
    assert default.check(parse_answer(one_line, lenient).response).valid
    with pytest.raises(ValueError, match="unknown pddl protocol 'papr'; known: default, paper"):
        PddlGame("blocksworld/p01", protocol="papr")


def test_the_paper_verdict_reads_the_plan_string_as_a_plan_file(toy):
    paper, default = PddlGame("blocksworld/p01", protocol="paper"), PddlGame("blocksworld/p01")
    assert paper.check(GOOD).valid and paper.check(GOOD).form == "dollar-json"
    doubled = "$$\n" + '{"plan": "' + PLAN.replace("\n", "\\\\n") + '"}' + "\n$$"
    assert default.check(doubled).valid  # the lenient reader undoes the doubled escape
    strict = paper.check(doubled)
    assert not strict.valid and strict.error == "parse_error" and strict.error_class == "Other"
    prose = "$$\n" + '{"plan": "' + ("first (pick-up b)\\n" + PLAN.replace("\n", "\\n")) + '"}' + "\n$$"
    assert paper.check(prose).error == "parse_error"


@pytest.mark.slow
def test_golden_first_request_of_the_paper_protocol_is_e1_with_the_released_system_prompt(toy):
    registry = _registry()
    protocol = registry.protocol("pddl", "paper")
    assert protocol.game_options == {"protocol": "paper"} and protocol.agent_options == {"temperature": 0.0}
    assert protocol.suite == {"illegal_tolerance": 1, "fallback": "forfeit"}
    game = registry.game("pddl", "blocksworld/p01", **protocol.game_options)
    outcome, bodies = _play(game, GOOD)
    assert len(bodies) == 1 and outcome.scores == [1.0]
    assert bodies[0]["messages"] == [
        {"role": "system", "content": "You are a helpful, creative, and smart assistant."},
        {"role": "user", "content": E1.format(domain=BLOCKS_DOMAIN.strip(), problem=BLOCKS_P01.strip())},
    ]
    assert bodies[0]["temperature"] == 0.0


def test_the_default_first_request_is_unchanged(toy):
    outcome, bodies = _play(PddlGame("blocksworld/p01"), GOOD)
    assert outcome.scores == [1.0]
    assert bodies[0]["messages"] == [
        {"role": "user", "content": E1.format(domain=BLOCKS_DOMAIN.strip(), problem=BLOCKS_P01.strip())}]


@pytest.mark.slow
def test_an_unreadable_answer_is_asked_once_and_counts_as_a_failed_task_of_class_other(toy):
    game = PddlGame("blocksworld/p01", protocol="paper")
    fenced = "Here is my plan:\n```\n" + PLAN + "\n```"
    outcome, bodies = _play(game, fenced)
    assert len(bodies) == 1  # single-shot: no retry
    assert outcome.scores == [0.0] and outcome.forfeited_by == 0 and outcome.illegal == {0: 1}
    metrics = plan_validity(game, outcome, 0)[0]
    assert (metrics["valid"], metrics["error"], metrics["error_class"]) == (False, "parse_error", "Other")
    assert metrics["reason"].startswith("no $$ ... $$ JSON plan the released reader can read")
    default_outcome, _ = _play(PddlGame("blocksworld/p01"), fenced)
    assert default_outcome.scores == [1.0]  # the default's lenient reader takes the fenced plan


@pytest.mark.slow
@pytest.mark.parametrize("game_name, variant", [("factual_retrieval", "d2-l1"), ("spatial_tracking", "l5")])
def test_golden_probe_first_request_is_the_default_one(game_name, variant):
    registry = _registry()
    protocol = registry.protocol(game_name, "paper")
    assert "ships no prompt, data or reader" in protocol.source
    assert (protocol.game_options, protocol.agent_options, protocol.suite) == ({}, {}, {})
    requests = []
    for game in (registry.game(game_name, variant), registry.game(game_name, variant, **protocol.game_options)):
        _, bodies = _play(game, "$$\n{}\n$$")
        requests.append(bodies[0])
    assert requests[0]["messages"] == requests[1]["messages"]
    assert requests[0]["messages"][-1]["content"].startswith(registry.game(game_name, variant).observe(
        registry.game(game_name, variant).new_initial_state(0), 0).asking.prompt[:40])

"""The rap scaffold on a tiny deterministic game: the search, its call bound, its rewards, its capability check."""

from __future__ import annotations

import asyncio
import math

import pytest

from stratbench.core.transcript import Transcript
from stratbench.core.types import Action, Observation, Rules
from stratbench.llm.client import LLMCapabilityError, LLMClient
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.rap import (
    ABSENT,
    NO_STATE,
    Rap,
    call_bound,
    gamebench_cost_estimate,
    parse_actions,
    reward,
    token_probabilities,
)
from stratbench.testing.fake_llm import FakeLLMServer, ScriptedReply

RULES = Rules(title="Tiny", summary="Pick one letter; b wins.", topics={"Scoring": "b scores 1, the others 0."})
TINY = Observation(game="tiny", player=0, text="Letters a, b and c are on the table.", legal_actions=("a", "b", "c"),
                   rules=RULES)


def _text(message):
    content = message.get("content")
    return content if isinstance(content, str) else " ".join(p.get("text", "") for p in content)


def yes(p):
    return ScriptedReply("Yes", (("Yes", math.log(p)), ("No", math.log(1 - p))))


def tiny_responder(favoured="b", select=(0.2, 0.7, 0.1)):
    """Scripted answers: the selection prompt, the self-evaluation and the win probability favour ``favoured``."""

    def respond(body):
        messages = body["messages"]
        asked = _text(messages[-1])
        if "associated number" in asked:
            return ScriptedReply("1", tuple((str(i), math.log(p)) for i, p in enumerate(select)))
        if "Is this a good action" in asked:
            action = _text(messages[-2])
            return yes(0.9 if action == favoured else 0.5 if action in ("x", "y") else 0.2)
        if "eventually win" in asked:
            return yes(0.9 if f"after {favoured}" in asked else 0.3)
        if "predict your available actions" in asked:
            return "<actions>\nx\ny\n</actions>"
        if "other players might take" in asked:
            return "<others>they pass</others>"
        if "predict your new observation" in asked:
            return f"<state>after {_text(messages[-4])}</state>"
        return "?"

    return respond


def decide(scaffold, observation, server, model="openai/m"):
    client = LLMClient(api_base=server.api_base, max_attempts=1, allow_placeholder_key=True)
    session = ModelSession(client, model, 0, Transcript(), scaffold="rap")
    action = asyncio.run(scaffold.decide(observation, session))
    return action, session


def test_token_probabilities_normalise_case_and_leading_space_over_the_top_alternatives():
    p = token_probabilities([("Yes", math.log(0.5)), (" yes", math.log(0.1)), ("No", math.log(0.2))], ["yes", "no"])
    assert p["yes"] == pytest.approx(0.6 / 0.8) and p["no"] == pytest.approx(0.2 / 0.8)
    assert token_probabilities([("No", 0.0)], ["yes"])["yes"] == ABSENT == math.exp(-100)
    marked = token_probabilities([("ĠYES", math.log(0.8)), ("▁no", math.log(0.2))], ["yes"])
    assert marked["yes"] == pytest.approx(0.8)


def test_reward_is_intuition_plus_self_eval_plus_twice_win_probability_minus_one():
    assert reward(0.7, 0.8, 0.9) == pytest.approx(0.7 + 0.8 + 0.8)
    assert reward(0.7, 0.8) == pytest.approx(1.5)  # fast reward: win probability 0.5


def test_the_search_picks_the_move_the_rewards_favour():
    with FakeLLMServer(responder=tiny_responder()) as server:
        scaffold = Rap(depth=2, iterations=10)
        action, session = decide(scaffold, TINY, server)
    assert action == Action("b")
    [event] = [e for e in session.transcript.events if e["kind"] == "rap_search"]
    assert event["chosen"] == "b" and event["searched"] and [c["action"] for c in event["root"]] == ["a", "b", "c"]


def test_another_favoured_move_is_picked_too():
    with FakeLLMServer(responder=tiny_responder(favoured="c", select=(0.1, 0.1, 0.8))) as server:
        action, _ = decide(Rap(depth=2, iterations=10), TINY, server)
    assert action == Action("c")


def test_rewards_are_computed_from_the_returned_token_probabilities():
    with FakeLLMServer(responder=tiny_responder()) as server:
        scaffold = Rap(depth=1, iterations=3)
        decide(scaffold, TINY, server)
    children = {node.action.text: node for node in scaffold.last_search.root.children}
    b, a = children["b"], children["a"]
    # b: intuition P("1") = 0.7, self_eval P(Yes) = 0.9, win probability 0.9 after b
    assert b.fast_details == pytest.approx({"intuition": 0.7, "self_eval": 0.9})
    assert b.fast_reward == pytest.approx(0.7 + 0.9)
    assert b.reward == pytest.approx(0.7 + 0.9 + (2 * 0.9 - 1))
    assert b.reward_details["win_probability"] == pytest.approx(0.9)
    assert a.fast_reward == pytest.approx(0.2 + 0.2)
    assert b.state.text == "after b" and b.state.depth == 1


def test_self_eval_of_p_yes_0_8_is_0_8():
    def respond(body):
        asked = _text(body["messages"][-1])
        if "associated number" in asked:
            return ScriptedReply("0", (("0", math.log(0.5)), ("1", math.log(0.5))))
        return yes(0.8) if "yes/no" in asked else "<state>s</state>"

    observation = Observation(game="tiny", player=0, text="t", legal_actions=("a", "b"), rules=RULES)
    with FakeLLMServer(responder=respond) as server:
        scaffold = Rap(depth=1, iterations=2)
        decide(scaffold, observation, server)
    for node in scaffold.last_search.root.children:
        assert node.fast_details["self_eval"] == pytest.approx(0.8)
        assert node.fast_details["intuition"] == pytest.approx(0.5)
    visited = [n for n in scaffold.last_search.root.children if n.state is not None]
    assert visited and all(n.reward == pytest.approx(0.5 + 0.8 + 0.6) for n in visited)


@pytest.mark.parametrize(("depth", "iterations"), [(1, 1), (2, 1), (3, 1)])
def test_one_iteration_makes_exactly_the_bounds_calls(depth, iterations):
    with FakeLLMServer(responder=tiny_responder()) as server:
        decide(Rap(depth=depth, iterations=iterations), TINY, server)
        calls = len(server.requests)
    assert calls == call_bound(3, depth=depth, iterations=iterations, predicted=2)
    assert calls == 1 + 3 + depth * 3 + (depth - 1) * 4


@pytest.mark.parametrize(("depth", "iterations"), [(1, 5), (2, 4), (2, 10), (3, 6)])
def test_depth_and_iterations_bound_the_calls(depth, iterations):
    with FakeLLMServer(responder=tiny_responder()) as server:
        decide(Rap(depth=depth, iterations=iterations), TINY, server)
        calls = len(server.requests)
    assert calls <= call_bound(3, depth=depth, iterations=iterations, predicted=2)
    assert calls >= call_bound(3, depth=depth, iterations=1, predicted=2)


@pytest.mark.slow
def test_more_iterations_never_make_fewer_calls():
    counts = []
    for iterations in (1, 2, 4, 8):
        with FakeLLMServer(responder=tiny_responder()) as server:
            decide(Rap(depth=2, iterations=iterations), TINY, server)
            counts.append(len(server.requests))
    assert counts == sorted(counts) and counts[0] < counts[-1]


def test_a_rule_request_is_answered_and_counted_in_the_bound():
    def respond(body):
        messages = body["messages"]
        asked = _text(messages[-1])
        if "predict your new observation" in asked and "Scoring:" not in asked:
            return "rule(Scoring)"
        if asked.startswith("Scoring:"):
            return "<state>after reading the rules</state>"
        return tiny_responder()(body)

    with FakeLLMServer(responder=respond) as server:
        scaffold = Rap(depth=1, iterations=1)
        decide(scaffold, TINY, server)
        asked = [_text(r.body["messages"][-1]) for r in server.requests]
    assert "Scoring: b scores 1, the others 0." in asked
    # one lookup (the state prediction's) on top of the calls without any; the bound allows one per text call
    assert len(asked) == call_bound(3, depth=1, iterations=1, predicted=2) + 1
    assert len(asked) <= call_bound(3, depth=1, iterations=1, predicted=2, lookups=1)
    assert [n.state.text for n in scaffold.last_search.root.children if n.state] == ["after reading the rules"]


def test_open_ended_actions_are_filled_first_and_searched_as_options():
    observation = Observation(game="tiny", player=0, text="t", legal_actions=("pass",), rules=RULES,
                              open_ended={"say": "Say something to the table."})

    def respond(body):
        asked = _text(body["messages"][-1])
        if "open-ended action" in asked:
            return "  I say hello.  "
        return tiny_responder(favoured="say: I say hello.", select=(0.1, 0.9))(body)

    with FakeLLMServer(responder=respond) as server:
        action, _ = decide(Rap(depth=1, iterations=2), observation, server)
        first = server.requests[0].body["messages"]
    assert action == Action("say", "I say hello.")
    assert _text(first[-2]) == "say: Say something to the table."


def test_an_image_only_observation_is_described_in_one_call_first():
    observation = Observation(game="tiny", player=0, text="", legal_actions=("a", "b", "c"), rules=RULES,
                              image_png=b"\x89PNG fake")

    def respond(body):
        if "Describe what's going on in the image" in _text(body["messages"][-1]):
            return "Three letters."
        return tiny_responder()(body)

    with FakeLLMServer(responder=respond) as server:
        action, session = decide(Rap(depth=1, iterations=1), observation, server)
        first, second = server.requests[0].body, server.requests[1].body
    assert action == Action("b")
    assert any(p.get("type") == "image_url" for p in first["messages"][-1]["content"])
    assert "<state>Three letters.</state>" in _text(second["messages"][0])
    assert len(server.requests) == 1 + call_bound(3, depth=1, iterations=1, predicted=2)


def test_a_provider_without_logprobs_fails_naming_the_scaffold(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-user")
    with FakeLLMServer(responder=tiny_responder()) as server:
        client = LLMClient(api_base=server.base_url, max_attempts=1)
        session = ModelSession(client, "anthropic/claude-x", 0, Transcript(), scaffold="rap")
        with pytest.raises(LLMCapabilityError, match=r"^scaffold rap needs logprobs, top_logprobs, which "
                                                     r"anthropic/claude-x does not accept"):
            asyncio.run(Rap().decide(TINY, session))
        assert server.requests == []


def test_a_server_that_returns_no_logprobs_fails_naming_the_scaffold():
    with FakeLLMServer(responder=tiny_responder(), logprobs=False) as server:
        with pytest.raises(LLMCapabilityError) as caught:
            decide(Rap(), TINY, server)
    assert str(caught.value) == (
        "scaffold rap needs logprobs, which openai/m does not accept (its reply carried no token "
        "log-probabilities); use another --scaffold for this model"
    )


@pytest.mark.slow
def test_the_search_is_deterministic():
    runs = []
    for _ in range(2):
        with FakeLLMServer(responder=tiny_responder()) as server:
            action, session = decide(Rap(depth=2, iterations=6), TINY, server)
            runs.append((action, [r.body for r in server.requests],
                         [e for e in session.transcript.events if e["kind"] == "rap_search"][0]["root"]))
    assert runs[0] == runs[1]


def test_ties_go_to_the_first_action():
    def respond(body):
        asked = _text(body["messages"][-1])
        if "associated number" in asked:
            return ScriptedReply("0", tuple((str(i), math.log(1 / 3)) for i in range(3)))
        return yes(0.5) if "yes/no" in asked else "<state>same</state>"

    with FakeLLMServer(responder=respond) as server:
        action, _ = decide(Rap(depth=1, iterations=1), TINY, server)
    assert action == Action("a")


def test_parse_actions_reads_lines_or_an_enumeration_and_a_missing_state_falls_back():
    assert parse_actions("<actions>\n0. left\n1. middle\n</actions>") == ["left", "middle"]
    assert parse_actions("<actions> 0. Choose the left door 1. Choose the middle door</actions>") == [
        "Choose the left door", "Choose the middle door"]
    assert parse_actions("<actions>\nup\ndown\nup\n</action>") == ["up", "down"]
    assert parse_actions("no list") == []
    assert NO_STATE == "no information about current state"


def test_gamebench_cost_estimate_is_base_times_depth_times_actions_times_six():
    assert gamebench_cost_estimate(1, 2, 3) == 36
    assert gamebench_cost_estimate(2.5, 2, 4) == 120


def test_rap_settings_enter_the_settings_hash_only_for_a_rap_side_and_reach_the_scaffold():
    from stratbench.core.agent import AgentSpec
    from stratbench.core.schedule import MatchSpec, SuiteSpec
    from stratbench.match.build import build_agents
    from stratbench.match.settings import match_settings, settings_hash
    from stratbench.families import standalone_registry
    from stratbench.games.spin.tictactoe import TicTacToe

    def settings(scaffold, depth, iterations):
        spec = MatchSpec("tictactoe", (AgentSpec("llm", "openai/m", scaffold), AgentSpec("random")), 0, 0, "x")
        options = {"scaffold_settings": {"rap": {"depth": depth, "iterations": iterations}}}
        return spec, options, match_settings(spec, SuiteSpec(game="tictactoe"), game_options={}, options=options,
                                             version="1")

    _, _, direct = settings("direct", 2, 10)
    assert "scaffold_settings" not in direct
    spec, options, two = settings("rap", 2, 10)
    _, _, three = settings("rap", 3, 10)
    assert two["scaffold_settings"] == {"rap": {"depth": 2, "iterations": 10}}
    assert len({settings_hash(direct), settings_hash(two), settings_hash(three)}) == 3

    registry = standalone_registry(("scaffolds", "agents"))
    options["scaffold_settings"]["rap"] = {"depth": 3, "iterations": 7}
    client = LLMClient(api_base="http://127.0.0.1:9/v1", allow_placeholder_key=True)
    agents, _ = build_agents(registry, client, spec, TicTacToe(), Transcript(), options)
    assert (agents[0].scaffold.depth, agents[0].scaffold.iterations) == (3, 7)


"""What the client sends for today's models: reasoning effort, a thinking budget, tools and cache marks.

Every request goes through litellm to the loopback server, which records the
body each provider's API received.
"""

from __future__ import annotations

import asyncio

import pytest

from stratbench.llm.client import STABLE_CHARS, LLMCapabilityError, LLMClient, mark_cache_prefix
from stratbench.testing.fake_llm import FakeLLMServer

MESSAGES = [{"role": "system", "content": "You play games."}, {"role": "user", "content": "Legal actions: a, b"}]


def run(coro):
    return asyncio.run(coro)


@pytest.fixture
def anthropic_env(monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-test-1234")


def test_reasoning_effort_reaches_a_reasoning_model_and_is_dropped_and_named_for_another(fake_llm):
    client = LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True)
    thinking = run(client.complete("openai/o3-mini", MESSAGES, reasoning_effort="high"))
    plain = run(client.complete("openai/gpt-4o", MESSAGES, reasoning_effort="high", temperature=0.0))
    assert fake_llm.requests[0].raw["reasoning_effort"] == "high"
    assert thinking.dropped_params == ()
    assert "reasoning_effort" not in fake_llm.requests[1].raw
    assert fake_llm.requests[1].raw["temperature"] == 0.0
    assert plain.dropped_params == ("reasoning_effort",)


def test_a_thinking_budget_reaches_anthropic_as_thinking_and_its_temperature_is_dropped(anthropic_env):
    with FakeLLMServer() as server:
        client = LLMClient(api_base=server.base_url)
        completion = run(client.complete("anthropic/claude-sonnet-4-20250514", MESSAGES, temperature=0.0,
                                         thinking_budget=1024, max_tokens=4096))
    raw = server.requests[0].raw
    assert raw["thinking"] == {"type": "enabled", "budget_tokens": 1024}
    assert "temperature" not in raw and raw["max_tokens"] == 4096
    assert set(completion.dropped_params) == {"temperature"}


def test_a_forced_tool_choice_is_dropped_while_anthropic_thinks(anthropic_env):
    tool = {"type": "function", "function": {"name": "make_move", "parameters": {
        "type": "object", "properties": {"action": {"type": "string", "enum": ["a", "b"]}}, "required": ["action"]}}}
    with FakeLLMServer() as server:
        client = LLMClient(api_base=server.base_url)
        completion = run(client.complete("anthropic/claude-sonnet-4-20250514", MESSAGES, reasoning_effort="low",
                                         tools=[tool], tool_choice="required"))
    raw = server.requests[0].raw
    assert [t["name"] for t in raw["tools"]] == ["make_move"]
    assert "tool_choice" not in raw and "thinking" in raw
    assert completion.dropped_params == ("tool_choice",)


def test_tools_to_a_provider_without_them_fail_naming_the_model_before_any_request(fake_llm):
    client = LLMClient(api_base=fake_llm.base_url, allow_placeholder_key=True)
    with pytest.raises(LLMCapabilityError, match=r"needs tools, which ollama/llama2 does not accept .*"
                                                 r"--answer-format text"):
        run(client.complete("ollama/llama2", MESSAGES, tools=[{"type": "function", "function": {"name": "f"}}]))
    assert fake_llm.requests == []


def test_the_stable_prefix_is_marked_for_anthropic_unless_caching_is_off(anthropic_env):
    conversation = [*MESSAGES, {"role": "assistant", "content": "Action: a"}, {"role": "user", "content": "Again"}]
    with FakeLLMServer() as server:
        run(LLMClient(api_base=server.base_url).complete("anthropic/claude-sonnet-4-20250514", conversation))
        run(LLMClient(api_base=server.base_url, prompt_cache="off").complete(
            "anthropic/claude-sonnet-4-20250514", conversation))
    marked, unmarked = (request.raw["messages"] for request in server.requests)
    assistant = marked[1]["content"]
    assert assistant[-1]["cache_control"] == {"type": "ephemeral"}
    assert "cache_control" not in str(unmarked)
    assert "cache_control" not in str(marked[-1])  # the new turn is not part of the prefix


def test_openai_requests_carry_no_cache_marks(fake_llm):
    run(LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True).complete("openai/gpt-4o", MESSAGES))
    assert "cache_control" not in str(fake_llm.requests[0].raw)


def test_mark_cache_prefix_marks_the_turn_before_the_last_user_turn_and_leaves_the_input_alone():
    first = mark_cache_prefix(MESSAGES)
    assert first[0]["content"] == [{"type": "text", "text": "You play games.",
                                    "cache_control": {"type": "ephemeral"}}]
    assert MESSAGES[0]["content"] == "You play games."  # a copy was marked
    assert first[1] == MESSAGES[1]
    assert mark_cache_prefix([{"role": "user", "content": "hi"}]) == [{"role": "user", "content": "hi"}]
    called = [MESSAGES[0], {"role": "assistant", "content": None, "tool_calls": [{"id": "c"}]},
              {"role": "tool", "tool_call_id": "c", "content": "x"}, {"role": "user", "content": "y"}]
    assert mark_cache_prefix(called) == called  # a tool result is not marked


@pytest.mark.slow
def test_the_rules_before_the_position_become_a_marked_block_of_their_own_and_the_key_is_never_sent(
        anthropic_env, fake_llm):
    prompt = "You are playing a game called X. The rules are as follows:\nWin.\n\n# Observation\nBoard 1"
    stable = prompt.index("# Observation")
    messages = [{"role": "system", "content": "You play games."},
                {"role": "user", "content": prompt, STABLE_CHARS: stable}]
    marked = mark_cache_prefix(messages)
    assert marked[1]["content"] == [
        {"type": "text", "text": prompt[:stable], "cache_control": {"type": "ephemeral"}},
        {"type": "text", "text": "# Observation\nBoard 1"}]
    assert STABLE_CHARS not in marked[1] and messages[1][STABLE_CHARS] == stable
    with FakeLLMServer() as server:
        run(LLMClient(api_base=server.base_url).complete("anthropic/claude-sonnet-4-20250514", messages))
    sent = server.requests[0].raw
    assert sent["messages"][0]["content"][0]["cache_control"] == {"type": "ephemeral"}
    assert "".join(block["text"] for block in sent["messages"][0]["content"]) == prompt
    assert STABLE_CHARS not in str(sent)
    run(LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True).complete("openai/gpt-4o", messages))
    assert fake_llm.requests[0].raw["messages"][1] == {"role": "user", "content": prompt}  # unmarked, no key

"""What litellm 1.106.2 sends each provider for today's parameters, read from the loopback server's recorded bodies.

Reasoning effort, a thinking budget, tools and a tool choice, ``cache_control`` blocks; which of them
litellm says each provider takes; and whether litellm prices cached prompt tokens below uncached ones.
These pin the behaviour the client builds on: a litellm upgrade that changes it fails here first.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from stratbench.llm.reply import read_reply
from stratbench.testing.fake_llm import FakeLLMServer

PROMPT = [{"role": "user", "content": "Legal actions: a"}]

TOOLS = [{
    "type": "function",
    "function": {
        "name": "make_move",
        "description": "Plays one legal action",
        "parameters": {"type": "object", "properties": {"action": {"type": "string", "enum": ["a", "b"]}},
                       "required": ["action"]},
    },
}]


def _litellm() -> Any:
    from stratbench.llm.litellm_env import configure_litellm_environment

    configure_litellm_environment()
    import litellm

    return litellm


def send(server: FakeLLMServer, model: str, messages: list[dict[str, Any]] = PROMPT, **kwargs: Any) -> Any:
    """One ``litellm.acompletion`` call to the server, with the base URL the model's provider takes."""
    litellm = _litellm()
    provider = model.split("/", 1)[0]
    base = {"anthropic": server.base_url, "gemini": server.gemini_api_base, "azure": server.base_url}.get(
        provider, server.api_base)
    if provider == "azure":
        kwargs["api_version"] = "2024-10-21"
    if kwargs.get("tools") and "_skip_mcp_handler" not in kwargs:
        kwargs["_skip_mcp_handler"] = True
    return asyncio.run(litellm.acompletion(model=model, api_base=base, api_key="k-request", messages=messages,
                                           num_retries=0, max_retries=0, **kwargs))


def settings(server: FakeLLMServer) -> dict[str, Any]:
    """The last request's body as sent, without its messages."""
    return {k: v for k, v in server.requests[-1].raw.items() if k not in ("messages", "contents")}


# -- reasoning effort and a thinking budget ------------------------------------------------

ENABLED_4096 = {"type": "enabled", "budget_tokens": 4096}


@pytest.mark.parametrize(
    ("model", "sent"),
    [
        ("openai/o3-mini", {"model": "o3-mini", "reasoning_effort": "high"}),
        ("openai/my-local-model", {"model": "my-local-model", "reasoning_effort": "high"}),  # any name on openai/
        ("anthropic/claude-3-7-sonnet-20250219",
         {"model": "claude-3-7-sonnet-20250219", "thinking": ENABLED_4096, "max_tokens": 8192}),
        ("anthropic/claude-sonnet-4-20250514",
         {"model": "claude-sonnet-4-20250514", "thinking": ENABLED_4096, "max_tokens": 8192}),
        ("gemini/gemini-2.5-flash", {"generationConfig": {"thinkingConfig": {"thinkingBudget": 4096,
                                                                             "includeThoughts": True}}}),
        ("deepseek/deepseek-reasoner", {"model": "deepseek-reasoner", "thinking": {"type": "enabled"}}),
    ],
)
def test_reasoning_effort_high_as_each_provider_receives_it(model, sent):
    with FakeLLMServer() as server:
        send(server, model, reasoning_effort="high")
    assert settings(server) == sent


def test_a_low_effort_is_a_smaller_thinking_budget():
    with FakeLLMServer() as server:
        send(server, "anthropic/claude-sonnet-4-5", reasoning_effort="low")
        anthropic = settings(server)
        send(server, "gemini/gemini-2.5-flash", reasoning_effort="low")
        gemini = settings(server)
        send(server, "openai/o3-mini", reasoning_effort="low", max_tokens=100)
        openai = settings(server)
    assert anthropic["thinking"] == {"type": "enabled", "budget_tokens": 1024} and anthropic["max_tokens"] == 5120
    assert gemini == {"generationConfig": {"thinkingConfig": {"thinkingBudget": 1024, "includeThoughts": True}}}
    assert openai == {"model": "o3-mini", "max_completion_tokens": 100, "reasoning_effort": "low"}


@pytest.mark.parametrize(
    ("model", "sent"),
    [
        ("anthropic/claude-3-7-sonnet-20250219", {"model": "claude-3-7-sonnet-20250219",
                                                  "thinking": {"type": "enabled", "budget_tokens": 1024},
                                                  "max_tokens": 5120}),  # the budget plus 4096 for the answer
        ("anthropic/claude-sonnet-4-20250514", {"model": "claude-sonnet-4-20250514",
                                                "thinking": {"type": "enabled", "budget_tokens": 1024},
                                                "max_tokens": 5120}),
        ("gemini/gemini-2.5-flash", {"generationConfig": {"thinkingConfig": {"includeThoughts": True,
                                                                             "thinkingBudget": 1024}}}),
        ("deepseek/deepseek-reasoner", {"model": "deepseek-reasoner", "thinking": {"type": "enabled"}}),  # no budget
    ],
)
def test_a_thinking_budget_as_each_provider_receives_it(model, sent):
    with FakeLLMServer() as server:
        send(server, model, thinking={"type": "enabled", "budget_tokens": 1024})
    assert settings(server) == sent


@pytest.mark.parametrize(("model", "param"), [("openai/gpt-4o", "reasoning_effort"), ("azure/dep", "reasoning_effort"),
                                              ("openai/o3-mini", "thinking")])
def test_litellm_refuses_a_reasoning_setting_it_lists_as_unsupported(model, param):
    """The client must drop these itself (it sends only what get_supported_openai_params lists)."""
    litellm = _litellm()
    value = {"reasoning_effort": "high", "thinking": {"type": "enabled", "budget_tokens": 1024}}[param]
    provider, name = model.split("/", 1)
    assert param not in litellm.get_supported_openai_params(model=name, custom_llm_provider=provider)
    with FakeLLMServer() as server, pytest.raises(litellm.UnsupportedParamsError, match=param):
        send(server, model, **{param: value})
    assert server.requests == []


SUPPORTED = {
    # model: (reasoning_effort, thinking, tools) as get_supported_openai_params lists them
    "openai/o3-mini": (True, False, True),
    "openai/my-local-model": (True, False, True),
    "openai/gpt-4o": (False, False, True),
    "azure/o3-mini": (True, False, True),
    "azure/dep": (False, False, True),
    "anthropic/claude-3-5-sonnet-20241022": (False, False, True),
    "anthropic/claude-3-7-sonnet-20250219": (True, True, True),
    "anthropic/claude-sonnet-4-20250514": (True, True, True),
    "anthropic/claude-sonnet-4-5": (True, True, True),
    "gemini/gemini-2.0-flash": (False, False, True),
    "gemini/gemini-2.5-flash": (True, True, True),
    "deepseek/deepseek-reasoner": (True, True, True),
}


def test_which_reasoning_and_tool_settings_litellm_lists_per_model():
    litellm = _litellm()
    listed = {}
    for model in SUPPORTED:
        provider, name = model.split("/", 1)
        params = litellm.get_supported_openai_params(model=name, custom_llm_provider=provider) or []
        listed[model] = tuple(p in params for p in ("reasoning_effort", "thinking", "tools"))
    assert listed == SUPPORTED


# -- tools ----------------------------------------------------------------------------------

ANTHROPIC_TOOL = {"name": "make_move", "input_schema": TOOLS[0]["function"]["parameters"], "type": "custom",
                  "description": "Plays one legal action"}
GEMINI_TOOL = {"function_declarations": [{"name": "make_move", "description": "Plays one legal action",
                                          "parameters": TOOLS[0]["function"]["parameters"]}]}


@pytest.mark.parametrize(
    ("model", "choice", "tools", "sent_choice"),
    [
        ("openai/gpt-4o", {"type": "function", "function": {"name": "make_move"}}, ("tools", TOOLS),
         ("tool_choice", {"type": "function", "function": {"name": "make_move"}})),
        ("deepseek/deepseek-chat", "required", ("tools", TOOLS), ("tool_choice", "required")),
        ("azure/dep", "auto", ("tools", TOOLS), ("tool_choice", "auto")),
        ("anthropic/claude-sonnet-4-5", {"type": "function", "function": {"name": "make_move"}},
         ("tools", [ANTHROPIC_TOOL]), ("tool_choice", {"type": "tool", "name": "make_move"})),
        ("anthropic/claude-sonnet-4-5", "required", ("tools", [ANTHROPIC_TOOL]), ("tool_choice", {"type": "any"})),
        ("anthropic/claude-sonnet-4-5", "none", ("tools", [ANTHROPIC_TOOL]), ("tool_choice", {"type": "none"})),
        ("gemini/gemini-2.5-flash", {"type": "function", "function": {"name": "make_move"}},
         ("tools", [GEMINI_TOOL]),
         ("toolConfig", {"functionCallingConfig": {"mode": "ANY", "allowed_function_names": ["make_move"]}})),
        ("gemini/gemini-2.5-flash", "required", ("tools", [GEMINI_TOOL]),
         ("toolConfig", {"functionCallingConfig": {"mode": "ANY"}})),
        ("gemini/gemini-2.5-flash", "auto", ("tools", [GEMINI_TOOL]),
         ("toolConfig", {"functionCallingConfig": {"mode": "AUTO"}})),
    ],
)
def test_tools_and_the_tool_choice_as_each_provider_receives_them(model, choice, tools, sent_choice):
    with FakeLLMServer() as server:
        send(server, model, tools=TOOLS, tool_choice=choice)
    raw = server.requests[0].raw
    assert raw[tools[0]] == tools[1]
    assert raw[sent_choice[0]] == sent_choice[1]
    assert server.requests[0].body["tools"] == TOOLS  # the responder sees them as OpenAI's again


@pytest.mark.slow
def test_litellm_needs_the_mcp_package_for_tools_unless_told_to_skip_its_mcp_gateway():
    """litellm 1.106.2 imports ``mcp`` for any call with tools; without it the call fails before sending."""
    try:
        import mcp  # noqa: F401
    except ImportError:
        pass
    else:
        pytest.skip("the mcp package is installed here")
    litellm = _litellm()
    with FakeLLMServer() as server, pytest.raises(litellm.APIConnectionError, match="No module named 'mcp'"):
        send(server, "openai/gpt-4o", tools=TOOLS, _skip_mcp_handler=False)
    assert server.requests == []
    with FakeLLMServer() as server:
        send(server, "openai/gpt-4o", tools=TOOLS, _skip_mcp_handler=True)
    assert "_skip_mcp_handler" not in server.requests[0].raw and server.requests[0].raw["tools"] == TOOLS


# -- cache_control blocks ------------------------------------------------------------------

MARKED = {"type": "text", "text": "You play well", "cache_control": {"type": "ephemeral"}}
MARKED_MESSAGES = [{"role": "system", "content": [MARKED]},
                   {"role": "user", "content": [{**MARKED, "text": "Legal actions: a"}]}]


def test_anthropic_keeps_cache_control_on_system_and_user_blocks():
    with FakeLLMServer() as server:
        send(server, "anthropic/claude-sonnet-4-5", MARKED_MESSAGES)
    raw = server.requests[0].raw
    assert raw["system"] == [MARKED]
    assert raw["messages"] == [{"role": "user", "content": [{**MARKED, "text": "Legal actions: a"}]}]


@pytest.mark.slow
def test_openai_and_azure_receive_cache_control_as_given():
    for model in ("openai/gpt-4o", "azure/dep"):
        with FakeLLMServer() as server:
            send(server, model, MARKED_MESSAGES)
        assert server.requests[0].raw["messages"] == MARKED_MESSAGES


@pytest.mark.parametrize("model", ["deepseek/deepseek-chat", "gemini/gemini-2.5-flash"])
def test_deepseek_and_gemini_receive_the_text_without_cache_control(model):
    with FakeLLMServer() as server:
        send(server, model, MARKED_MESSAGES)
    raw = server.requests[0].raw
    assert "cache_control" not in str(raw)
    if model.startswith("deepseek"):
        assert raw["messages"] == [{"role": "system", "content": "You play well"},
                                   {"role": "user", "content": "Legal actions: a"}]
    else:
        assert raw["system_instruction"] == {"parts": [{"text": "You play well"}]}
        assert raw["contents"] == [{"role": "user", "parts": [{"text": "Legal actions: a"}]}]


# -- what cached tokens cost ----------------------------------------------------------------

SYSTEM = "You play board games well and answer with one legal action"  # 11 tokens
CACHED = [{"role": "system", "content": [{"type": "text", "text": SYSTEM, "cache_control": {"type": "ephemeral"}}]},
          {"role": "user", "content": "Legal actions: a"}]  # 11 + 3 prompt tokens; the answer is 2


def _costs(model: str, cache: str, messages: list[dict[str, Any]], shape: str = "openai") -> list[tuple]:
    with FakeLLMServer(cache=cache, reasoning_shape=shape) as server:
        replies = [send(server, model, messages) for _ in range(2)]
    return [(r._hidden_params.get("response_cost"), read_reply(r).cached_tokens, read_reply(r).cache_write_tokens)
            for r in replies]


@pytest.mark.slow
def test_litellm_prices_anthropic_cache_reads_below_and_writes_above_plain_input():
    # claude-sonnet-4-5: input 3, cache write 3.75, cache read 0.30, output 15 USD per million tokens
    plain = _costs("anthropic/claude-sonnet-4-5", "off", CACHED)
    cached = _costs("anthropic/claude-sonnet-4-5", "on_request", CACHED)
    assert [c for c, _, _ in plain] == [pytest.approx(14 * 3e-6 + 2 * 15e-6)] * 2  # 7.2e-05
    assert cached[0] == (pytest.approx(3 * 3e-6 + 11 * 3.75e-6 + 2 * 15e-6), 0, 11)  # 8.025e-05
    assert cached[1] == (pytest.approx(3 * 3e-6 + 11 * 0.3e-6 + 2 * 15e-6), 11, 0)  # 4.23e-05


@pytest.mark.parametrize(
    ("model", "shape", "uncached", "cached"),
    [  # USD per million tokens: gpt-4o 2.5 in, 1.25 cached, 10 out; deepseek-chat 0.28, 0.028, 0.42;
       # gemini-2.5-flash 0.3, 0.03, 2.5
        ("openai/gpt-4o", "openai", 14 * 2.5e-6 + 2 * 10e-6, 14 * 1.25e-6 + 2 * 10e-6),  # 5.5e-05, 3.75e-05
        ("deepseek/deepseek-chat", "deepseek", 14 * 0.28e-6 + 2 * 0.42e-6, 14 * 0.028e-6 + 2 * 0.42e-6),
        ("gemini/gemini-2.5-flash", "openai", 14 * 0.3e-6 + 2 * 2.5e-6, 14 * 0.03e-6 + 2 * 2.5e-6),
    ],
)
def test_litellm_prices_automatically_cached_tokens_below_uncached(model, shape, uncached, cached):
    costs = _costs(model, "auto", [{"role": "system", "content": SYSTEM}, CACHED[1]], shape)
    assert costs[0][:2] == (pytest.approx(uncached), 0)
    assert costs[1][:2] == (pytest.approx(cached), 14)
    assert costs[1][0] < costs[0][0]


@pytest.mark.parametrize(("model", "cost"), [("anthropic/claude-3-5-sonnet-20241022", None),
                                             ("anthropic/claude-3-7-sonnet-20250219", None),
                                             ("anthropic/claude-sonnet-4-20250514", 0.0)])
def test_older_claude_names_are_not_priced_by_this_litellm(model, cost):
    """The pinned price map lacks them: no cost, or (claude-sonnet-4-20250514) a cost of 0 USD."""
    assert [c for c, _, _ in _costs(model, "on_request", CACHED)] == [cost, cost]

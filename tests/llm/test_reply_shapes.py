"""Today's reply shapes through real litellm: thinking, cut answers, tool calls and prompt caching.

The loopback server (``stratbench.testing.fake_llm``) answers in each provider's own shape;
``litellm.acompletion`` reads it as it would the provider's; ``stratbench.llm.reply.read_reply``
reads litellm's response. Every count checked here is the one the server computed (one word, one token).
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

from stratbench.llm.reply import ReplyParts, ToolCall, read_reply
from stratbench.testing.fake_llm import FakeLLMServer, ScriptedReply, first_legal_responder, tool_legal_responder

KEY = "k-shapes-1"

PROVIDERS = {
    "openai": ("openai/o3-mini", "api_base", {}),
    "azure": ("azure/dep", "base_url", {"api_version": "2024-10-21"}),
    "deepseek": ("deepseek/deepseek-reasoner", "api_base", {}),
    "anthropic": ("anthropic/claude-sonnet-4-5", "base_url", {}),
    "gemini": ("gemini/gemini-2.5-flash", "gemini_api_base", {}),
}
"""Per provider: the model, the server's base URL litellm is given, and extra arguments."""

PROMPT = [{"role": "user", "content": "Board one. Legal actions: a, b, c"}]

TOOLS = [{
    "type": "function",
    "function": {
        "name": "make_move",
        "description": "Plays one legal action",
        "parameters": {"type": "object", "properties": {"action": {"type": "string", "enum": ["a", "b", "c"]}},
                       "required": ["action"]},
    },
}]


def complete(server: FakeLLMServer, provider: str, messages: list[dict[str, Any]], **kwargs: Any) -> Any:
    """One ``litellm.acompletion`` call to the server in the provider's shape, as the client makes it."""
    from stratbench.llm.litellm_env import configure_litellm_environment

    configure_litellm_environment()
    import litellm

    model, base, extra = PROVIDERS[provider]
    if kwargs.get("tools"):
        kwargs["_skip_mcp_handler"] = True  # litellm 1.106.2 imports the optional `mcp` package for any tools
    return asyncio.run(litellm.acompletion(model=model, api_base=getattr(server, base), api_key=KEY,
                                           messages=messages, num_retries=0, max_retries=0, **extra, **kwargs))


# -- thinking ----------------------------------------------------------------------

THOUGHT = "I think the centre is the best square here"  # 9 words, 9 tokens by any tokenizer litellm uses


@pytest.mark.parametrize(
    ("provider", "shape", "shown"),
    [
        ("openai", "openai", False),  # o-series: a count, no text
        ("azure", "openai", False),
        ("openai", "deepseek", True),  # a Qwen3 or DeepSeek-R1 server behind openai/
        ("deepseek", "deepseek", True),
        ("anthropic", "openai", True),  # thinking blocks, whatever the OpenAI path's shape
        ("gemini", "openai", True),  # thought parts
    ],
)
def test_thinking_is_read_in_every_shape_and_counted_in_the_completion(provider, shape, shown):
    reply = ScriptedReply("Action: b", reasoning=THOUGHT)
    with FakeLLMServer(responder=lambda body: reply, reasoning_shape=shape) as server:
        response = complete(server, provider, PROMPT)
    parts = read_reply(response)
    assert parts == ReplyParts(text="Action: b", finish_reason="stop", truncated=False, reasoning_tokens=9,
                               reasoning_text=THOUGHT if shown else None, cached_tokens=parts.cached_tokens,
                               cache_write_tokens=parts.cache_write_tokens, tool_calls=())
    assert response.usage.completion_tokens == 2 + 9  # the answer's 2 tokens and the thinking's 9
    assert response.usage.prompt_tokens == 7
    if provider == "anthropic":
        [block] = response.choices[0].message.thinking_blocks
        assert block["thinking"] == THOUGHT and block["signature"].startswith("sig_")


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_a_set_thinking_count_without_text_is_reported_as_a_count(provider):
    with FakeLLMServer(responder=lambda body: ScriptedReply("Action: a", reasoning_tokens=120)) as server:
        response = complete(server, provider, PROMPT)
    parts = read_reply(response)
    assert (parts.reasoning_tokens, parts.reasoning_text, response.usage.completion_tokens) == (120, None, 122)


@pytest.mark.parametrize("provider", ["openai", "deepseek", "gemini"])
def test_a_reply_without_thinking_reports_no_reasoning(provider):
    with FakeLLMServer(responder=first_legal_responder) as server:
        parts = read_reply(complete(server, provider, PROMPT))
    assert (parts.reasoning_tokens, parts.reasoning_text) == (None, None)
    assert parts.text == first_legal_responder({"messages": PROMPT})


def test_the_server_refuses_unknown_shapes_and_cache_modes():
    with pytest.raises(ValueError, match=r"reasoning_shape: expected one of \('openai', 'deepseek'\), got 'o1'"):
        FakeLLMServer(reasoning_shape="o1")
    with pytest.raises(ValueError, match=r"cache: expected one of \('off', 'auto', 'on_request'\), got 'always'"):
        FakeLLMServer(cache="always")


# -- answers cut by the output limit --------------------------------------------------

LONG = ScriptedReply("Action: b because it blocks the row", reasoning="one two three four")


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_an_answer_longer_than_max_tokens_is_cut_and_reported_as_length(provider):
    with FakeLLMServer(responder=lambda body: LONG, truncate_at_max_tokens=True, reasoning_shape="deepseek") as server:
        response = complete(server, provider, PROMPT, max_tokens=6)
    parts = read_reply(response)
    assert (parts.finish_reason, parts.truncated) == ("length", True)
    assert parts.text == "Action: b"  # 4 thinking tokens spent first, 2 left for the answer
    assert parts.reasoning_tokens == 4 and response.usage.completion_tokens == 6
    raw = server.requests[0].raw  # the limit reached the server in the field litellm sends it in
    sent = raw["generationConfig"] if provider == "gemini" else raw
    assert {k: v for k, v in sent.items() if "max" in k} == {LIMIT_FIELDS[provider]: 6}


LIMIT_FIELDS = {"openai": "max_completion_tokens", "azure": "max_tokens", "deepseek": "max_tokens",
                "anthropic": "max_tokens", "gemini": "max_output_tokens"}
"""Where litellm 1.106.2 puts ``max_tokens`` (an o-series name on openai/ gets ``max_completion_tokens``)."""


@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_thinking_longer_than_the_limit_leaves_an_empty_answer(provider):
    with FakeLLMServer(responder=lambda body: LONG, truncate_at_max_tokens=True) as server:
        response = complete(server, provider, PROMPT, max_tokens=3)
    parts = read_reply(response)
    assert (parts.text, parts.truncated, parts.reasoning_tokens, response.usage.completion_tokens) == ("", True, 3, 3)


@pytest.mark.slow
@pytest.mark.parametrize("provider", ["openai", "anthropic", "gemini"])
def test_a_reply_within_the_limit_or_with_cutting_off_is_whole(provider):
    with FakeLLMServer(responder=lambda body: LONG, truncate_at_max_tokens=True) as server:
        within = read_reply(complete(server, provider, PROMPT, max_tokens=11))
    with FakeLLMServer(responder=lambda body: LONG) as server:
        uncut = read_reply(complete(server, provider, PROMPT, max_tokens=6))
    for parts in (within, uncut):
        assert (parts.text, parts.finish_reason, parts.truncated) == (LONG.text, "stop", False)


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_a_scripted_cut_is_reported_without_a_limit(provider):
    with FakeLLMServer(responder=lambda body: ScriptedReply("Action:", truncate=True)) as server:
        response = complete(server, provider, PROMPT)
    parts = read_reply(response)
    assert (parts.text, parts.finish_reason, parts.truncated, response.usage.completion_tokens) == (
        "Action:", "length", True, 1)


def test_each_provider_names_the_cut_its_own_way_before_litellm_maps_it():
    import urllib.request

    def post(url: str, body: dict, headers: dict[str, str]) -> dict:
        request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", **headers})
        with urllib.request.urlopen(request, timeout=10) as answer:
            return json.loads(answer.read())

    with FakeLLMServer(responder=lambda body: LONG, truncate_at_max_tokens=True) as server:
        base = server.base_url
        openai = post(f"{base}/v1/chat/completions", {"model": "m", "max_completion_tokens": 5, "messages": PROMPT}, {})
        anthropic = post(f"{base}/v1/messages", {"model": "c", "max_tokens": 5, "messages": PROMPT},
                         {"x-api-key": KEY, "anthropic-version": "2023-06-01"})
        gemini = post(f"{base}/v1beta/models/g:generateContent?key={KEY}",
                      {"contents": [{"role": "user", "parts": [{"text": "x"}]}],
                       "generationConfig": {"maxOutputTokens": 5}}, {})
    assert openai["choices"][0]["finish_reason"] == "length"
    assert openai["choices"][0]["message"]["content"] == "Action:"
    assert openai["usage"]["completion_tokens_details"] == {"reasoning_tokens": 4}
    assert anthropic["stop_reason"] == "max_tokens" and anthropic["usage"]["output_tokens"] == 5
    assert [b["type"] for b in anthropic["content"]] == ["thinking", "text"]
    assert gemini["candidates"][0]["finishReason"] == "MAX_TOKENS"
    assert gemini["candidates"][0]["content"]["parts"] == [{"text": "one two three four", "thought": True},
                                                          {"text": "Action:"}]
    assert gemini["usageMetadata"] == {"promptTokenCount": 1, "candidatesTokenCount": 1, "thoughtsTokenCount": 4,
                                       "totalTokenCount": 6}


# -- tool calls ----------------------------------------------------------------------

CHOICE = {"type": "function", "function": {"name": "make_move"}}


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_tools_reach_the_responder_in_openai_shape_and_the_call_comes_back(provider):
    with FakeLLMServer(responder=tool_legal_responder) as server:
        response = complete(server, provider, PROMPT, tools=TOOLS, tool_choice=CHOICE)
    [request] = server.requests
    assert request.body["tools"] == TOOLS
    assert request.body["tool_choice"] == CHOICE
    parts = read_reply(response)
    expected = first_legal_responder({"messages": PROMPT}).removeprefix("Action: ")  # the same hash picks the same
    [call] = parts.tool_calls
    assert (call.name, call.parsed(), parts.text, parts.finish_reason) == ("make_move", {"action": expected}, "",
                                                                           "tool_calls")
    assert call.id
    assert response.choices[0].message.content is None


@pytest.mark.parametrize("provider", sorted(PROVIDERS))
def test_an_earlier_call_and_its_result_reach_the_responder_as_openai_messages(provider):
    with FakeLLMServer(responder=tool_legal_responder) as server:
        [call] = read_reply(complete(server, provider, PROMPT, tools=TOOLS, tool_choice=CHOICE)).tool_calls
        history = [
            *PROMPT,
            {"role": "assistant", "content": None,
             "tool_calls": [{"id": call.id, "type": "function",
                             "function": {"name": call.name, "arguments": call.arguments}}]},
            {"role": "tool", "tool_call_id": call.id, "content": "illegal: that square is taken"},
            {"role": "user", "content": "Legal actions: c"},
        ]
        second = read_reply(complete(server, provider, history, tools=TOOLS))
    messages = server.requests[1].body["messages"]
    call_id = "make_move" if provider == "gemini" else call.id  # Gemini's calls carry no id: the name stands in
    assert [m["role"] for m in messages] == ["user", "assistant", "tool", "user"]
    [sent] = messages[1]["tool_calls"]
    assert (sent["id"], sent["function"]["name"], json.loads(sent["function"]["arguments"])) == (
        call_id, "make_move", call.parsed())
    assert messages[2]["tool_call_id"] == call_id
    assert "illegal: that square is taken" in messages[2]["content"]
    assert messages[3] == {"role": "user", "content": "Legal actions: c"}
    assert "tool_choice" not in server.requests[1].body
    chosen = tool_legal_responder({"messages": [{"role": "user", "content": "Legal actions: c"}], "tools": TOOLS})
    assert [c.parsed() for c in second.tool_calls] == [chosen.tool_call[1]]  # the responder read the last user text


def test_the_tool_responder_reads_a_legal_actions_line_without_an_enum():
    tools = [{"type": "function", "function": {"name": "play", "parameters": {
        "type": "object", "properties": {"count": {"type": "integer"}, "move": {"type": "string"}}}}}]
    reply = tool_legal_responder({"messages": [{"role": "user", "content": "Legal actions: e4, d4"}], "tools": tools})
    assert isinstance(reply, ScriptedReply) and reply.tool_call[0] == "play"
    assert reply.tool_call[1]["move"] in ("e4", "d4") and list(reply.tool_call[1]) == ["move"]
    assert reply == tool_legal_responder({"messages": [{"role": "user", "content": "Legal actions: e4, d4"}],
                                          "tools": tools})
    assert tool_legal_responder({"messages": [{"role": "user", "content": "Legal actions: a"}]}) == "Action: a"
    assert tool_legal_responder({"messages": [{"role": "user", "content": "hi"}], "tools": tools}) == "I am not sure."


# -- prompt caching -------------------------------------------------------------------

SYSTEM = "You play board games well and answer with one legal action"  # 11 words
FIRST = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Board one. Legal actions: a"}]
SECOND = [{"role": "system", "content": SYSTEM}, {"role": "user", "content": "Board two now. Legal actions: b"}]


@pytest.mark.parametrize(("provider", "shape"), [("openai", "openai"), ("azure", "openai"),
                                                 ("deepseek", "deepseek"), ("gemini", "openai")])
def test_automatic_caching_reads_the_longest_earlier_message_prefix(provider, shape):
    with FakeLLMServer(cache="auto", reasoning_shape=shape) as server:
        first = complete(server, provider, FIRST)
        second = complete(server, provider, SECOND)
        again = complete(server, provider, SECOND)
    assert [read_reply(r).cached_tokens for r in (first, second, again)] == [0, 11, 17]
    assert [r.usage.prompt_tokens for r in (first, second, again)] == [16, 17, 17]  # cached tokens included
    assert [read_reply(r).cache_write_tokens for r in (first, second, again)] == [None, None, None]
    if provider == "deepseek":
        assert (second.usage.prompt_cache_hit_tokens, second.usage.prompt_cache_miss_tokens) == (11, 6)


def test_automatic_caching_is_per_model():
    with FakeLLMServer(cache="auto") as server:
        complete(server, "openai", FIRST)
        other = complete(server, "azure", FIRST)  # deployment "dep", not "o3-mini"
    assert read_reply(other).cached_tokens == 0


def _marked(text: str) -> list[dict[str, Any]]:
    return [{"type": "text", "text": text, "cache_control": {"type": "ephemeral"}}]


def test_anthropic_caches_only_a_marked_prefix_writing_it_first_and_reading_it_after():
    marked_first = [{"role": "system", "content": _marked(SYSTEM)}, FIRST[1]]
    marked_second = [{"role": "system", "content": _marked(SYSTEM)}, SECOND[1]]
    with FakeLLMServer(cache="on_request") as server:
        unmarked = complete(server, "anthropic", FIRST)
        write = complete(server, "anthropic", marked_first)
        read = complete(server, "anthropic", marked_second)
    got = [(read_reply(r).cached_tokens, read_reply(r).cache_write_tokens, r.usage.prompt_tokens)
           for r in (unmarked, write, read)]
    assert got == [(0, 0, 16), (0, 11, 16), (11, 0, 17)]
    assert [("cache_control" in json.dumps(r.raw)) for r in server.requests] == [False, True, True]
    assert server.requests[1].raw["system"] == _marked(SYSTEM)


def test_anthropic_input_tokens_count_only_the_uncached_rest():
    """Anthropic's ``input_tokens`` leave out cache reads and writes; litellm adds them back."""
    import urllib.request

    body = {"model": "c", "max_tokens": 50, "system": _marked(SYSTEM),
            "messages": [{"role": "user", "content": [{"type": "text", "text": "Legal actions: a"}]}]}
    usages = []
    with FakeLLMServer(cache="on_request") as server:
        for _ in range(2):
            request = urllib.request.Request(f"{server.base_url}/v1/messages", data=json.dumps(body).encode(),
                                             headers={"x-api-key": KEY, "anthropic-version": "2023-06-01"})
            with urllib.request.urlopen(request, timeout=10) as answer:
                usages.append(json.loads(answer.read())["usage"])
    assert usages == [
        {"input_tokens": 3, "output_tokens": 2, "cache_creation_input_tokens": 11, "cache_read_input_tokens": 0},
        {"input_tokens": 3, "output_tokens": 2, "cache_creation_input_tokens": 0, "cache_read_input_tokens": 11},
    ]


def test_a_longer_marked_prefix_writes_only_what_the_cache_lacks():
    first = [{"role": "system", "content": _marked(SYSTEM)}, {"role": "user", "content": _marked("Board one.")},
             {"role": "user", "content": "Legal actions: a"}]
    with FakeLLMServer(cache="on_request") as server:
        complete(server, "anthropic", [first[0], first[2]])  # writes the system prompt: 11
        both = complete(server, "anthropic", first)  # reads 11, writes the 2 of "Board one."
        again = complete(server, "anthropic", first)  # reads 13
    got = [(read_reply(r).cached_tokens, read_reply(r).cache_write_tokens) for r in (both, again)]
    assert got == [(11, 2), (13, 0)]


def test_openai_path_sees_cache_control_as_litellm_passes_it_on():
    with FakeLLMServer(cache="on_request") as server:
        complete(server, "openai", [{"role": "system", "content": _marked(SYSTEM)}, FIRST[1]])
        second = complete(server, "openai", [{"role": "system", "content": _marked(SYSTEM)}, SECOND[1]])
    assert server.requests[0].raw["messages"][0]["content"] == _marked(SYSTEM)
    assert (read_reply(second).cached_tokens, read_reply(second).cache_write_tokens) == (11, None)


def test_caching_is_off_by_default():
    with FakeLLMServer() as server:
        complete(server, "openai", FIRST)
        second = complete(server, "openai", FIRST)
    assert read_reply(second).cached_tokens is None


# -- the reader on its own ---------------------------------------------------------------


class _Bare:
    """An object with only the attributes given."""

    def __init__(self, **attributes: Any) -> None:
        self.__dict__.update(attributes)


def test_the_reader_never_raises_on_missing_or_odd_parts():
    empty = ReplyParts("", None, False, None, None, None, None, ())
    assert read_reply(None) == empty
    assert read_reply(_Bare(choices=[])) == empty
    assert read_reply(_Bare(choices=[_Bare()], usage=None)) == empty
    odd = _Bare(choices=[_Bare(finish_reason=3, message=_Bare(content=["x"], tool_calls=[_Bare(function=None)]))],
                usage=_Bare(completion_tokens_details=_Bare(reasoning_tokens="9"), prompt_tokens_details=None))
    assert read_reply(odd) == empty


def test_the_reader_takes_plain_dicts_and_a_providers_own_cut():
    response = {
        "choices": [{"finish_reason": "stop", "provider_specific_fields": {"native_finish_reason": "MAX_TOKENS"},
                     "message": {"content": "Act", "thinking_blocks": [{"thinking": "a"}, {"thinking": "b"}],
                                 "tool_calls": [{"id": None, "function": {"name": "f", "arguments": {"x": 1}}}]}}],
        "usage": {"prompt_cache_hit_tokens": 5, "cache_creation_input_tokens": 2,
                  "prompt_tokens_details": {"cached_tokens": None}},
    }
    parts = read_reply(response)
    assert parts == ReplyParts("Act", "stop", True, None, "a\nb", 5, 2, (ToolCall(None, "f", '{"x": 1}'),))


@pytest.mark.parametrize(("arguments", "parsed"), [('{"action": "a"}', {"action": "a"}), ('{"action": "a"', None),
                                                   ("[1]", None), ("", None)])
def test_a_tool_calls_arguments_parse_only_when_they_are_a_json_object(arguments, parsed):
    assert ToolCall("c1", "make_move", arguments).parsed() == parsed

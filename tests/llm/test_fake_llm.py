"""The loopback server's provider shapes, key checks and seeded faults, spoken to over real HTTP."""

from __future__ import annotations

import json
import urllib.error
import urllib.request

import pytest

from stratbench.testing.fake_llm import FakeLLMServer, Faults

USER = "Legal actions: a, b"


def post(url: str, body: dict, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=10) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


ANTHROPIC = {"model": "claude-x", "max_tokens": 5, "system": [{"type": "text", "text": "S"}],
             "messages": [{"role": "user", "content": [{"type": "text", "text": USER}]}]}
GEMINI = {"contents": [{"role": "user", "parts": [{"text": USER}]}], "systemInstruction": {"parts": [{"text": "S"}]},
          "generationConfig": {"temperature": 0, "max_output_tokens": 7, "seed": 4}}
OPENAI = {"model": "m", "messages": [{"role": "system", "content": "S"}, {"role": "user", "content": USER}]}


@pytest.fixture
def server():
    with FakeLLMServer(api_key="k-1") as running:
        yield running


def test_each_provider_gets_its_own_reply_shape_and_responders_see_an_openai_body(server):
    base = server.base_url
    status, data = post(f"{base}/v1/messages", ANTHROPIC, {"x-api-key": "k-1", "anthropic-version": "2023-06-01"})
    assert status == 200 and json.loads(data)["content"][0]["text"].startswith("Action: ")
    status, data = post(f"{base}/v1beta/models/gem-1:generateContent?key=k-1", GEMINI)
    assert status == 200 and json.loads(data)["candidates"][0]["content"]["parts"][0]["text"].startswith("Action: ")
    status, data = post(f"{base}/openai/deployments/dep/chat/completions?api-version=2024-10-21", OPENAI, {"api-key": "k-1"})
    assert status == 200 and json.loads(data)["choices"][0]["message"]["content"].startswith("Action: ")
    anthropic, gemini, azure = server.requests
    assert [r.provider for r in server.requests] == ["anthropic", "gemini", "azure"]
    expected = [{"role": "system", "content": "S"}, {"role": "user", "content": USER}]
    assert anthropic.body["messages"] == expected and anthropic.body["max_tokens"] == 5
    assert gemini.body == {"model": "gem-1", "temperature": 0, "max_tokens": 7, "seed": 4, "messages": expected}
    assert azure.body["model"] == "m" and azure.body["messages"] == expected
    assert anthropic.raw == ANTHROPIC


@pytest.mark.parametrize(
    ("path", "body", "headers", "status", "shape"),
    [
        ("/v1/messages", ANTHROPIC, {"anthropic-version": "2023-06-01"}, 401,
         {"type": "error", "error": {"type": "authentication_error", "message": "missing or invalid API key (x-api-key)"}}),
        ("/v1/messages", ANTHROPIC, {"x-api-key": "wrong", "anthropic-version": "2023-06-01"}, 401,
         {"type": "error", "error": {"type": "authentication_error", "message": "missing or invalid API key (x-api-key)"}}),
        ("/v1/messages", ANTHROPIC, {"x-api-key": "k-1"}, 400,
         {"type": "error", "error": {"type": "invalid_request_error", "message": "anthropic-version: header is required"}}),
        ("/v1beta/models/g:generateContent", GEMINI, {}, 401,
         {"error": {"code": 401, "message": "missing or invalid API key (x-goog-api-key)", "status": "UNAUTHENTICATED"}}),
        ("/v1beta/models/g:generateContent?key=wrong", GEMINI, {}, 401,
         {"error": {"code": 401, "message": "missing or invalid API key (x-goog-api-key)", "status": "UNAUTHENTICATED"}}),
        ("/openai/deployments/d/chat/completions?api-version=1", OPENAI, {"api-key": "wrong"}, 401,
         {"error": {"code": "401", "message": "missing or invalid API key (api-key)"}}),
        ("/openai/deployments/d/chat/completions", OPENAI, {"api-key": "k-1"}, 400,
         {"error": {"code": "400", "message": "Missing required query parameter: api-version"}}),
        ("/v1/chat/completions", OPENAI, {"Authorization": "Bearer wrong"}, 401,
         {"error": {"message": "missing or invalid API key (Authorization)", "type": "invalid_request_error",
                    "code": "invalid_api_key"}}),
    ],
)
def test_a_missing_or_wrong_key_gets_the_providers_error(server, path, body, headers, status, shape):
    got, data = post(server.base_url + path, body, headers)
    assert (got, json.loads(data)) == (status, shape)


def test_a_keyless_openai_server_accepts_any_key():
    with FakeLLMServer() as server:
        assert post(server.api_base + "/chat/completions", OPENAI)[0] == 200
        assert post(server.api_base + "/chat/completions", OPENAI, {"Authorization": "Bearer x"})[0] == 200


@pytest.mark.slow
def test_faults_follow_the_seed_and_the_rate():
    def run(seed: int) -> list[str | None]:
        faults = Faults(rate=0.4, kinds=("429", "500", "non_utf8", "no_message"), seed=seed)
        with FakeLLMServer(faults=faults) as server:
            answers = [post(server.api_base + "/chat/completions", OPENAI) for _ in range(60)]
            for request, (status, data) in zip(server.requests, answers):
                if request.fault in ("429", "500"):
                    assert status == int(request.fault)
                elif request.fault == "non_utf8":
                    assert status == 200
                    with pytest.raises(UnicodeDecodeError):
                        data.decode("utf-8")
                elif request.fault == "no_message":
                    assert status == 200 and json.loads(data)["choices"] == []
                else:
                    assert status == 200 and json.loads(data)["choices"][0]["message"]["content"]
            return [r.fault for r in server.requests]

    first = run(7)
    assert first == run(7) != run(8)
    assert 12 <= sum(f is not None for f in first) <= 36  # 40% of 60, well inside the binomial spread
    assert {"429", "500", "non_utf8", "no_message"} <= set(first)


def test_a_hang_is_released_when_the_server_stops():
    import threading

    server = FakeLLMServer(faults=Faults(rate=1.0, kinds=("hang",), hang_s=60)).start()
    outcome: list[BaseException] = []

    def call() -> None:
        try:
            post(server.api_base + "/chat/completions", OPENAI)
        except Exception as error:  # noqa: BLE001 - the connection is closed unanswered
            outcome.append(error)

    thread = threading.Thread(target=call)
    thread.start()
    while not server.requests:
        thread.join(0.01)
    server.stop()
    thread.join(10)
    assert not thread.is_alive() and outcome  # closed without an answer


def test_bad_fault_settings_are_refused():
    with pytest.raises(ValueError, match="kinds in"):
        Faults(rate=0.1, kinds=("teapot",))
    with pytest.raises(ValueError, match=r"rate must be in \[0, 1\]"):
        Faults(rate=1.5)


FUNCTION = {"name": "f", "description": "Plays",
            "parameters": {"type": "object", "properties": {"x": {"type": "string"}}}}
OPENAI_TOOLS = [{"type": "function", "function": FUNCTION}]
HISTORY = [
    {"role": "user", "content": USER},
    {"role": "assistant", "content": None,
     "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": '{"x": "a"}'}}]},
    {"role": "tool", "tool_call_id": "c1", "content": "taken"},
    {"role": "user", "content": "again"},
]


def test_tools_and_earlier_calls_in_each_shape_reach_the_responder_as_openai_ones(server):
    anthropic = {
        "model": "claude-x", "max_tokens": 9,
        "tools": [{"name": "f", "description": "Plays", "input_schema": FUNCTION["parameters"]}],
        "tool_choice": {"type": "any"},
        "messages": [
            {"role": "user", "content": USER},
            {"role": "assistant", "content": [{"type": "thinking", "thinking": "hm", "signature": "s"},
                                              {"type": "tool_use", "id": "c1", "name": "f", "input": {"x": "a"}}]},
            {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "c1",
                                          "content": [{"type": "text", "text": "taken"}]},
                                         {"type": "text", "text": "again"}]},
        ],
    }
    gemini = {  # the REST API's camelCase
        "tools": [{"functionDeclarations": [FUNCTION]}],
        "toolConfig": {"functionCallingConfig": {"mode": "ANY", "allowedFunctionNames": ["f"]}},
        "contents": [
            {"role": "user", "parts": [{"text": USER}]},
            {"role": "model", "parts": [{"text": "hm", "thought": True},
                                        {"functionCall": {"name": "f", "args": {"x": "a"}}}]},
            {"role": "user", "parts": [{"functionResponse": {"name": "f", "response": {"content": "taken"}}}]},
            {"role": "user", "parts": [{"text": "again"}]},
        ],
    }
    headers = {"x-api-key": "k-1", "anthropic-version": "2023-06-01"}
    assert post(f"{server.base_url}/v1/messages", anthropic, headers)[0] == 200
    assert post(f"{server.base_url}/v1beta/models/g:generateContent?key=k-1", gemini)[0] == 200
    from_anthropic, from_gemini = (r.body for r in server.requests)
    assert from_anthropic["tools"] == OPENAI_TOOLS and from_anthropic["tool_choice"] == "required"
    assert from_anthropic["messages"] == HISTORY
    assert from_gemini["tools"] == OPENAI_TOOLS
    assert from_gemini["tool_choice"] == {"type": "function", "function": {"name": "f"}}
    gemini_history = json.loads(json.dumps(HISTORY).replace('"c1"', '"f"'))  # Gemini has no call ids
    gemini_history[1]["tool_calls"][0]["function"]["arguments"] = '{"x": "a"}'
    gemini_history[2]["content"] = '{"content": "taken"}'
    assert from_gemini["messages"] == gemini_history


@pytest.mark.parametrize(("anthropic", "openai"), [({"type": "auto"}, "auto"), ({"type": "none"}, "none"),
                                                   ({"type": "tool", "name": "f"},
                                                    {"type": "function", "function": {"name": "f"}})])
def test_anthropic_tool_choices_become_openai_ones(server, anthropic, openai):
    body = {**ANTHROPIC, "tools": [{"name": "f", "input_schema": {}}], "tool_choice": anthropic}
    post(f"{server.base_url}/v1/messages", body, {"x-api-key": "k-1", "anthropic-version": "2023-06-01"})
    assert server.requests[0].body["tool_choice"] == openai


def test_a_tool_call_reply_in_each_shape():
    from stratbench.testing.fake_llm import ScriptedReply

    with FakeLLMServer(responder=lambda body: ScriptedReply("", tool_call=("f", {"x": "a"}))) as server:
        _, openai = post(server.api_base + "/chat/completions", OPENAI)
        _, anthropic = post(f"{server.base_url}/v1/messages", ANTHROPIC,
                            {"x-api-key": "k", "anthropic-version": "2023-06-01"})
        _, gemini = post(f"{server.base_url}/v1beta/models/g:generateContent?key=k", GEMINI)
    choice = json.loads(openai)["choices"][0]
    assert choice["finish_reason"] == "tool_calls" and choice["message"]["content"] is None
    assert choice["message"]["tool_calls"][0]["function"] == {"name": "f", "arguments": '{"x": "a"}'}
    anthropic = json.loads(anthropic)
    assert anthropic["stop_reason"] == "tool_use"
    assert [{k: v for k, v in b.items() if k != "id"} for b in anthropic["content"]] == [
        {"type": "tool_use", "name": "f", "input": {"x": "a"}}]
    parts = json.loads(gemini)["candidates"][0]["content"]["parts"]
    assert parts == [{"functionCall": {"name": "f", "args": {"x": "a"}}}]

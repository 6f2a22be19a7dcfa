"""Today's models end to end: thinking, cut answers, tool-call moves and prompt caching.

Each test plays real matches with ``pytest`` in a subprocess: litellm and
vcrpy run for real against the loopback server (``stratbench.testing.fake_llm``),
which answers in each provider's shape; the records, transcripts and report
are read back, and a recorded match is replayed offline.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stratbench.testing.fake_llm import FakeLLMServer, ScriptedReply, first_legal_responder, tool_legal_responder
from stratbench.run.results import read_transcript

SUITE = """
import pytest

@pytest.mark.stratbench(game="tictactoe", opponents=["random"], matches=1)
def test_tictactoe(match):
    match.play()
"""

QUICK = ["-p", "no:cacheprovider", "-n", "0", "--stratbench-bootstrap", "50", "--stratbench-reference", "off"]

THOUGHT = "I weigh the centre against the corners and pick"


def _records(root: Path) -> list[dict]:
    lines = (root / "reports/latest/results.jsonl").read_text().splitlines()
    return [r for r in map(json.loads, lines) if r.get("type") == "match"]


def _model_record(root: Path) -> dict:
    [record] = [r for r in _records(root) if r["sides"][r["subject"]].get("model")]
    return record


def _events(root: Path, record: dict, kind: str) -> list[dict]:
    events = read_transcript(root / "reports/latest" / record["transcript"])["events"]
    return [e for e in events if e["kind"] == kind]


def _thinking(body: dict) -> ScriptedReply:
    return ScriptedReply(first_legal_responder(body), reasoning=THOUGHT)


def _play(pytester, server: FakeLLMServer, *args: str):
    pytester.makepyfile(test_ttt=SUITE)
    try:
        result = pytester.runpytest_subprocess(*QUICK, *args)
    finally:
        server.stop()
    assert result.ret == 0, result.stdout.str()[-3000:]
    return result


@pytest.mark.slow
def test_a_thinking_models_reasoning_is_recorded_priced_never_sent_back_and_replays(pytester, clean_env):
    server = FakeLLMServer(responder=_thinking, reasoning_shape="deepseek").start()
    args = ["--model", "openai/deepseek-r1", "--api-base", server.api_base, "--reasoning-effort", "high",
            "--price", "openai/deepseek-r1=1,4"]
    _play(pytester, server, *args)
    record = _model_record(pytester.path)
    subject = record["subject"]
    side, usage = record["sides"][subject], record["usage"][subject]
    assert side["agent"] == "openai/deepseek-r1+direct(effort=high)"
    assert side["params"] == {"reasoning_effort": "high"} and side["dropped_params"] == []
    assert all(request.raw["reasoning_effort"] == "high" for request in server.requests)
    calls = _events(pytester.path, record, "llm_call")
    assert len(calls) == usage["calls"] == len(server.requests)
    words = len(THOUGHT.split())
    assert all(c["reasoning"] == THOUGHT and c["reasoning_tokens"] == words for c in calls)
    assert usage["reasoning_tokens"] == words * usage["calls"]
    assert usage["completion_tokens"] == sum(c["completion_tokens"] for c in calls) > usage["reasoning_tokens"]
    # priced as completion tokens (--price: 1 and 4 USD per million)
    expected = (usage["prompt_tokens"] * 1 + usage["completion_tokens"] * 4) / 1e6
    assert usage["cost_usd"] == pytest.approx(expected, rel=1e-6)
    assert record["decision_cost"][subject]["reasoning_tokens"] == usage["reasoning_tokens"]
    # the thinking is never fed back: no later request carries it
    assert all(THOUGHT not in json.dumps(request.raw["messages"]) for request in server.requests)
    report = (pytester.path / "reports/latest/report.md").read_text()
    per_decision = usage["reasoning_tokens"] / record["decisions"][subject]
    assert f"{per_decision:.2f}" in report
    replayed = pytester.runpytest_subprocess(*QUICK, *args, "--record-mode=none")
    assert replayed.ret == 0, replayed.stdout.str()[-3000:]
    again = _model_record(pytester.path)
    assert (again["scores"], again["usage"], again["tokens"]) == (record["scores"], record["usage"], record["tokens"])
    assert again["cassette"]["record_mode"] == "none"


@pytest.mark.slow
def test_anthropic_thinking_blocks_are_recorded_and_its_temperature_is_dropped_and_named(pytester, clean_env):
    clean_env.setenv("ANTHROPIC_API_KEY", "sk-ant-user-5150")
    server = FakeLLMServer(responder=_thinking).start()
    _play(pytester, server, "--model", "anthropic/claude-sonnet-4-5", "--api-base", server.base_url,
          "--thinking-budget", "1024", "--stratbench-max-tokens", "2048")
    record = _model_record(pytester.path)
    side = record["sides"][record["subject"]]
    assert side["agent"] == "anthropic/claude-sonnet-4-5+direct(thinking=1024)"
    assert side["dropped_params"] == ["seed", "temperature"]
    assert all(r.raw["thinking"] == {"type": "enabled", "budget_tokens": 1024} and "temperature" not in r.raw
               for r in server.requests)
    calls = _events(pytester.path, record, "llm_call")
    assert calls and all(c["reasoning"] == THOUGHT and c["reasoning_tokens"] > 0 for c in calls)
    assert record["usage"][record["subject"]]["reasoning_tokens"] == sum(c["reasoning_tokens"] for c in calls)


@pytest.mark.slow
@pytest.mark.parametrize("model, base, env", [
    ("openai/m", "api_base", {}),
    ("anthropic/claude-sonnet-4-5", "base_url", {"ANTHROPIC_API_KEY": "sk-ant-user-5150"}),
    ("gemini/gemini-2.5-flash", "gemini_api_base", {"GEMINI_API_KEY": "AIza-user-0042"}),
])
def test_a_cut_answer_is_asked_for_once_more_and_never_counted_illegal(pytester, clean_env, model, base, env):
    for name, value in env.items():
        clean_env.setenv(name, value)
    seen: set[str] = set()

    def cut_first(body: dict) -> ScriptedReply:
        last = body["messages"][-1]["content"]
        answer = first_legal_responder(body)
        if "cut off by the output-token limit" in str(last):
            return ScriptedReply(_previous_answer(body))
        key = json.dumps(body["messages"])
        if key not in seen:  # every decision's first reply is cut mid-sentence
            seen.add(key)
            return ScriptedReply("Let me think about the board: the centre is", truncate=True)
        return ScriptedReply(answer)

    server = FakeLLMServer(responder=cut_first).start()
    _play(pytester, server, "--model", model, "--api-base", getattr(server, base))
    record = _model_record(pytester.path)
    subject = record["subject"]
    decisions = record["decisions"][subject]
    assert record["illegal"][subject] == 0 and record["truncated"] == [0, 0]
    assert record["sides"][subject]["truncation_retries"] == decisions > 0
    assert record["rules"]["on_truncation"] == "retry"
    calls = _events(pytester.path, record, "llm_call")
    assert [c["purpose"] for c in calls] == ["act", "truncation_retry"] * decisions
    assert [c["finish_reason"] for c in calls] == ["length", "stop"] * decisions
    report = (pytester.path / "reports/latest/report.md").read_text()
    assert f"0 of {decisions} decisions" in report


def _previous_answer(body: dict) -> str:
    """The answer the cut reply was heading for: the first request's legal choice."""
    first = {**body, "messages": [m for m in body["messages"] if m["role"] != "assistant"][:-1]}
    return first_legal_responder(first)


@pytest.mark.slow
def test_an_answer_cut_twice_falls_back_as_truncated_and_the_report_counts_it(pytester, clean_env):
    server = FakeLLMServer(responder=lambda body: ScriptedReply("The centre is", truncate=True)).start()
    _play(pytester, server, "--model", "openai/m", "--api-base", server.api_base)
    record = _model_record(pytester.path)
    subject = record["subject"]
    assert record["truncated"][subject] == 1 and record["fallbacks"][subject] == 1
    assert record["illegal"][subject] == 0 and record["format_errors"][subject] == 0
    assert record["sides"][subject]["truncation_retries"] == 1 and len(server.requests) == 2
    [fallback] = _events(pytester.path, record, "fallback")
    assert fallback["reason"] == "truncated" and fallback["player"] in record["sides"][subject]["players"]
    assert _events(pytester.path, record, "rejected") == []
    report = (pytester.path / "reports/latest/report.md").read_text()
    assert "1 of 1 decisions" in report


@pytest.mark.slow
def test_on_truncation_read_reads_the_cut_answer_as_it_is(pytester, clean_env):
    server = FakeLLMServer(responder=lambda body: ScriptedReply("The centre is", truncate=True)).start()
    _play(pytester, server, "--model", "openai/m", "--api-base", server.api_base, "--on-truncation", "read")
    record = _model_record(pytester.path)
    subject = record["subject"]
    assert record["truncated"][subject] == 0 and record["sides"][subject]["truncation_retries"] == 0
    assert record["illegal"][subject] == record["rules"]["illegal_tolerance"]  # read, rejected, retried
    assert record["rules"]["on_truncation"] == "read"


@pytest.mark.slow
@pytest.mark.parametrize("model, base, env", [
    ("openai/m", "api_base", {}),
    ("anthropic/claude-sonnet-4-5", "base_url", {"ANTHROPIC_API_KEY": "sk-ant-user-5150"}),
    ("gemini/gemini-2.5-flash", "gemini_api_base", {"GEMINI_API_KEY": "AIza-user-0042"}),
])
def test_moves_as_tool_calls_offer_the_legal_actions_as_an_enum_and_replay(pytester, clean_env, model, base, env):
    for name, value in env.items():
        clean_env.setenv(name, value)
    server = FakeLLMServer(responder=tool_legal_responder).start()
    args = ["--model", model, "--api-base", getattr(server, base), "--answer-format", "tools",
            "--scaffold", "direct", "--scaffold", "cot", "--scaffold", "revise"]
    _play(pytester, server, *args)
    records = [r for r in _records(pytester.path) if r["sides"][r["subject"]].get("model")]
    assert {r["sides"][r["subject"]]["agent"] for r in records} >= {
        f"{model}+direct(answers=tools)", f"{model}+cot(answers=tools)", f"{model}+revise(answers=tools)"}
    for record in records:
        assert record["status"] == "scored" and record["illegal"] == [0, 0], record["match_id"]
    tool_requests = [r for r in server.requests if r.body.get("tools")]
    assert tool_requests
    for request in tool_requests:
        [tool] = request.body["tools"]
        enum = tool["function"]["parameters"]["properties"]["action"]["enum"]
        legal = [line for line in json.dumps(request.body["messages"]).split("\\n") if line.startswith("Legal actions:")]
        assert legal and enum == legal[-1].removeprefix("Legal actions: ").split(", ")
    calls = [c for r in records for c in _events(pytester.path, r, "llm_call") if c.get("tool_calls")]
    assert calls and all(c["tool_calls"][0]["name"] == "make_move" for c in calls)
    replayed = pytester.runpytest_subprocess(*QUICK, *args, "--record-mode=none")
    assert replayed.ret == 0, replayed.stdout.str()[-3000:]
    again = {r["match_id"]: r["scores"] for r in _records(pytester.path) if r["sides"][r["subject"]].get("model")}
    assert again == {r["match_id"]: r["scores"] for r in records}


@pytest.mark.slow
def test_tools_and_text_answers_play_side_by_side_in_one_run(pytester, clean_env):
    def either(body: dict):
        return tool_legal_responder(body) if body.get("tools") else first_legal_responder(body)

    server = FakeLLMServer(responder=either).start()
    _play(pytester, server, "--model", "openai/m", "--api-base", server.api_base,
          "--answer-format", "text", "--answer-format", "tools")
    agents = {side["agent"] for r in _records(pytester.path) for side in r["sides"]}
    assert {"openai/m+direct", "openai/m+direct(answers=tools)"} <= agents
    report = (pytester.path / "reports/latest/report.md").read_text()
    assert "Answer formats side by side" in report


@pytest.mark.slow
def test_anthropic_caches_the_marked_prefix_and_the_record_counts_it(pytester, clean_env):
    clean_env.setenv("ANTHROPIC_API_KEY", "sk-ant-user-5150")
    server = FakeLLMServer(cache="on_request").start()
    _play(pytester, server, "--model", "anthropic/claude-sonnet-4-5", "--api-base", server.base_url)
    record = _model_record(pytester.path)
    usage = record["usage"][record["subject"]]
    calls = _events(pytester.path, record, "llm_call")
    assert calls[0]["cache_write_tokens"] > 0 and calls[0]["cached_tokens"] == 0
    assert all(c["cached_tokens"] > 0 for c in calls[1:])  # the system prompt and rules, read back
    assert usage["cached_tokens"] == sum(c["cached_tokens"] for c in calls) > 0
    assert usage["cache_write_tokens"] == sum(c.get("cache_write_tokens") or 0 for c in calls)
    assert all("cache_control" in json.dumps(r.raw) for r in server.requests)

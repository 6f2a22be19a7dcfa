"""The LLM client against the loopback fake server: retries, auth, cost, budget."""

from __future__ import annotations

import asyncio

import pytest

from stratbench.llm.budget import Budget, BudgetExceeded
from stratbench.llm.client import LLMAuthError, LLMClient, LLMError
from stratbench.testing.fake_llm import FakeLLMServer

MESSAGES = [{"role": "user", "content": "Legal actions: a, b"}]


def run(coro):
    return asyncio.run(coro)


def test_transient_errors_are_retried_with_backoff(fake_llm):
    fake_llm.fail_first, fake_llm.fail_status = 2, 500
    client = LLMClient(api_base=fake_llm.api_base, backoff_s=0.01, allow_placeholder_key=True)
    completion = run(client.complete("openai/m", MESSAGES))
    assert completion.attempts == 3 and completion.text.startswith("Action: ")
    assert len(fake_llm.requests) == 3


def test_rate_limits_are_retried(fake_llm):
    fake_llm.fail_first, fake_llm.fail_status = 1, 429
    client = LLMClient(api_base=fake_llm.api_base, backoff_s=0.01, allow_placeholder_key=True)
    assert run(client.complete("openai/m", MESSAGES)).attempts == 2


def test_persistent_errors_give_up_with_a_clear_message(fake_llm):
    fake_llm.fail_first, fake_llm.fail_status = 10, 503
    client = LLMClient(api_base=fake_llm.api_base, backoff_s=0.01, max_attempts=2, allow_placeholder_key=True)
    with pytest.raises(LLMError, match=r"openai/m at http://127\.0\.0\.1:\d+/v1: .* after 2 attempt\(s\)"):
        run(client.complete("openai/m", MESSAGES))


def test_client_errors_are_not_retried(fake_llm):
    fake_llm.fail_first, fake_llm.fail_status = 1, 400
    client = LLMClient(api_base=fake_llm.api_base, backoff_s=0.01, allow_placeholder_key=True)
    with pytest.raises(LLMError, match="after 1 attempt"):
        run(client.complete("openai/m", MESSAGES))


def test_a_missing_key_fails_fast_naming_it(no_provider_keys):
    client = LLMClient()
    with pytest.raises(LLMAuthError, match="OPENAI_API_KEY is not set"):
        run(client.complete("openai/gpt-4o", MESSAGES))


def test_an_unreachable_server_is_named():
    server = FakeLLMServer().start()
    base = server.api_base
    server.stop()
    client = LLMClient(api_base=base, backoff_s=0.01, max_attempts=2, allow_placeholder_key=True)
    with pytest.raises(LLMError, match=f"at {base}"):
        run(client.complete("openai/m", MESSAGES))


def test_tokens_and_cost_are_counted(fake_llm):
    client = LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True)
    completion = run(client.complete("openai/gpt-4o", MESSAGES, temperature=0, seed=3, max_tokens=5))
    assert completion.prompt_tokens == 4 and completion.completion_tokens == 2
    assert completion.cost_known and completion.cost_usd > 0
    assert client.usage.calls == 1 and client.usage.cost_usd == completion.cost_usd
    body = fake_llm.requests[0].body
    assert body["temperature"] == 0 and body["seed"] == 3 and body["max_tokens"] == 5


def test_the_budget_stops_new_calls(fake_llm, tmp_path):
    budget = Budget(max_cost=1e-9, ledger=tmp_path / "ledger")
    client = LLMClient(api_base=fake_llm.api_base, budget=budget, allow_placeholder_key=True)
    run(client.complete("openai/gpt-4o", MESSAGES))
    assert budget.spent() > 1e-9
    with pytest.raises(BudgetExceeded, match=r"--max-cost 0\.000000001 USD reached \(spent 0\.0000\d+ USD\)"):
        run(client.complete("openai/gpt-4o", MESSAGES))
    assert len(fake_llm.requests) == 1


def test_concurrency_is_bounded_per_model():
    server = FakeLLMServer(delay_s=0.05).start()
    try:
        client = LLMClient(api_base=server.api_base, max_concurrency=2, allow_placeholder_key=True)

        async def many():
            return await asyncio.gather(*(client.complete("openai/m", MESSAGES) for _ in range(6)))

        import time

        start = time.perf_counter()
        run(many())
        elapsed = time.perf_counter() - start
        assert len(server.requests) == 6
        assert elapsed >= 3 * 0.05  # three waves of two
    finally:
        server.stop()


def test_a_given_price_is_used_for_cost_and_budget(fake_llm, tmp_path):
    budget = Budget(max_cost=1.0, ledger=tmp_path / "ledger")
    client = LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True, budget=budget,
                       prices={"openai/m": (2e-6, 10e-6)})
    completion = run(client.complete("openai/m", MESSAGES))
    assert completion.cost_known
    assert completion.cost_usd == pytest.approx(completion.prompt_tokens * 2e-6 + completion.completion_tokens * 10e-6)
    assert completion.cost_usd == pytest.approx(4 * 2e-6 + 2 * 10e-6)
    assert budget.spent() == pytest.approx(completion.cost_usd)


def test_unpriced_models_are_named(fake_llm):
    from stratbench.llm.budget import unpriced_models

    assert unpriced_models(["openai/gpt-4o", "openai/m", "local/gemma3-270m", "openai/x"], {"openai/x": (1, 1)}) == [
        "openai/m"
    ]


def test_a_models_own_empty_answer_is_not_retried():
    with FakeLLMServer(responder=lambda body: "") as server:
        client = LLMClient(api_base=server.api_base, backoff_s=0.01, allow_placeholder_key=True)
        completion = run(client.complete("openai/m", MESSAGES))
    assert (completion.text, completion.finish_reason, completion.attempts) == ("", "stop", 1)
    assert len(server.requests) == 1


def test_a_reply_without_choices_is_a_provider_fault_that_is_retried():
    from stratbench.testing.fake_llm import Faults

    with FakeLLMServer(faults=Faults(rate=1.0, kinds=("no_message",))) as server:
        client = LLMClient(api_base=server.api_base, backoff_s=0.01, max_attempts=3, allow_placeholder_key=True)
        events = []
        with pytest.raises(LLMError, match=r": no message in the reply after 3 attempt\(s\): the reply has no choices"):
            run(client.complete("openai/m", MESSAGES, on_failed_attempt=events.append))
    assert [(e["attempt"], e["failure"], e["status"]) for e in events] == [(1, "no_message", 200), (2, "no_message", 200),
                                                                        (3, "no_message", 200)]
    assert [e["backoff_s"] is None for e in events] == [False, False, True]
    assert len(server.requests) == 3


def test_a_provider_without_a_setting_gets_none_and_the_drop_is_reported(fake_llm, monkeypatch):
    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-user")
    client = LLMClient(api_base=fake_llm.base_url)
    completion = run(client.complete("anthropic/claude-sonnet-4-5", MESSAGES, temperature=0, seed=3, max_tokens=9))
    assert completion.dropped_params == ("seed",)
    [request] = fake_llm.requests
    assert request.raw["temperature"] == 0 and request.raw["max_tokens"] == 9 and "seed" not in request.raw
    assert request.headers["x-api-key"] == "sk-ant-user"


def test_an_openai_request_keeps_every_setting(fake_llm):
    client = LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True)
    schema = {"type": "json_schema", "json_schema": {"name": "a", "schema": {"type": "object"}}}
    completion = run(client.complete("openai/m", MESSAGES, temperature=0.5, seed=2, max_tokens=7, logprobs=True,
                                     top_logprobs=2, response_format=schema))
    assert completion.dropped_params == ()
    assert fake_llm.requests[0].raw == {"model": "m", "messages": MESSAGES, "temperature": 0.5, "seed": 2,
                                        "max_tokens": 7, "logprobs": True, "top_logprobs": 2, "response_format": schema}


def test_a_scaffold_needing_a_missing_capability_fails_naming_it(fake_llm):
    from stratbench.core.transcript import Transcript
    from stratbench.llm.client import LLMCapabilityError
    from stratbench.llm.session import ModelSession

    session = ModelSession(client=LLMClient(api_base=fake_llm.api_base, allow_placeholder_key=True),
                           model="cohere_chat/command-r", player=0, transcript=Transcript(), scaffold="constrained")
    with pytest.raises(LLMCapabilityError) as caught:
        run(session.complete(MESSAGES, response_format={"type": "json_object"}))
    assert str(caught.value) == (
        "scaffold constrained needs response_format, which cohere_chat/command-r does not accept (litellm's "
        "supported parameters for the cohere_chat provider); use another --scaffold for this model"
    )
    assert fake_llm.requests == []


def test_logprobs_a_provider_lacks_fail_before_sending(fake_llm, monkeypatch):
    from stratbench.llm.client import LLMCapabilityError

    monkeypatch.setenv("ANTHROPIC_API_KEY", "sk-ant-user")
    client = LLMClient(api_base=fake_llm.base_url)
    with pytest.raises(LLMCapabilityError, match="this request needs logprobs, top_logprobs, which anthropic/claude-x"):
        run(client.complete("anthropic/claude-x", MESSAGES, logprobs=True, top_logprobs=3))
    assert fake_llm.requests == []


@pytest.mark.parametrize(
    ("model", "env", "header", "base"),
    [
        ("openai/m", {"OPENAI_API_KEY": "user-key-o"}, "authorization", "api_base"),
        ("gemini/gemini-2.0-flash", {"GOOGLE_API_KEY": "user-key-g"}, "x-goog-api-key", "gemini_api_base"),
        ("azure/dep", {"AZURE_API_KEY": "user-key-z", "AZURE_API_VERSION": "2024-10-21"}, "api-key", "base_url"),
    ],
)
def test_a_key_the_user_set_is_sent_even_where_a_placeholder_is_allowed(fake_llm, no_provider_keys, monkeypatch,
                                                                       model, env, header, base):
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    client = LLMClient(api_base=getattr(fake_llm, base), allow_placeholder_key=True)
    run(client.complete(model, MESSAGES))
    key = next(value for name, value in env.items() if "KEY" in name)
    assert fake_llm.requests[0].headers[header].removeprefix("Bearer ") == key


def test_the_placeholder_goes_only_where_no_key_is_set(fake_llm, no_provider_keys):
    client = LLMClient(api_base=fake_llm.gemini_api_base, allow_placeholder_key=True)
    run(client.complete("gemini/gemini-2.0-flash", MESSAGES))
    assert fake_llm.requests[0].headers["x-goog-api-key"] == "sk-stratbench-placeholder"


def test_a_cancelled_call_frees_its_place_at_the_models_gate():
    """A match cancelled while its call waits on the model gives its slot back; the next call is not held."""
    with FakeLLMServer(delay_s=2.0) as server:
        client = LLMClient(api_base=server.api_base, max_concurrency=1, allow_placeholder_key=True)

        async def scenario():
            call = asyncio.ensure_future(client.complete("openai/m", MESSAGES))
            while not server.requests:
                await asyncio.sleep(0.01)
            call.cancel()
            await asyncio.gather(call, return_exceptions=True)
            return client.gate("openai/m").in_flight

        assert run(scenario()) == 0

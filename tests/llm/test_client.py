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

"""Provider limits: per-model concurrency, RPM and TPM, and a 429 slowing the model for every caller."""

from __future__ import annotations

import asyncio

import pytest

from stratbench.llm.client import LLMClient
from stratbench.llm.limits import LimitSettings, ModelGate, ModelLimits, estimate_tokens, parse_limit
from stratbench.testing.fake_llm import FakeLLMServer


class FakeTime:
    """A clock that moves only when the gate sleeps."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def clock(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.slept.append(round(seconds, 6))
        self.now += seconds


def test_rpm_makes_the_next_request_wait_for_the_oldest_to_leave_the_minute():
    time = FakeTime()
    gate = ModelGate(ModelLimits(concurrency=10, rpm=3), clock=time.clock, sleep=time.sleep)

    async def five() -> list[float]:
        starts = []
        for _ in range(5):
            await gate.acquire()
            starts.append(time.now)
            gate.release(ok=True)
            time.now += 1.0
        return starts

    starts = asyncio.run(five())
    assert starts == [1000.0, 1001.0, 1002.0, 1060.0, 1061.0]
    assert time.slept == [57.0]


def test_tpm_counts_estimated_tokens_over_the_minute():
    time = FakeTime()
    gate = ModelGate(ModelLimits(concurrency=10, tpm=1000), clock=time.clock, sleep=time.sleep)

    async def calls() -> list[float]:
        starts = []
        for tokens in (600, 300, 200, 900):
            await gate.acquire(tokens)
            starts.append(time.now)
            gate.release(ok=True)
            time.now += 10.0
        return starts

    # 600+300 fit; +200 would be 1100: wait until the 600 leaves (t=1060);
    # at t=1070 the 300 has left, but 200+900 = 1100: wait until the 200 leaves (t=1120)
    assert asyncio.run(calls()) == [1000.0, 1010.0, 1060.0, 1120.0]
    assert time.slept == [40.0, 50.0]


def test_concurrency_caps_the_calls_in_flight_and_a_429_halves_it_for_everyone():
    gate = ModelGate(ModelLimits(concurrency=4))
    most = [0]

    async def call(hold: float) -> None:
        await gate.acquire()
        most[0] = max(most[0], gate.in_flight)
        await asyncio.sleep(hold)
        gate.release(ok=True)

    async def run() -> None:
        await asyncio.gather(*(call(0.01) for _ in range(12)))

    asyncio.run(run())
    assert most[0] == 4 and gate.in_flight == 0
    gate.throttle(0.0)
    assert gate.allowed == 2 and gate.throttled == 1
    gate.throttle(0.0)
    assert gate.allowed == 1
    for _ in range(3):
        gate.in_flight += 1
        gate.release(ok=True)
    assert gate.allowed == 4  # one back per success, never above the limit
    gate.in_flight += 1
    gate.release(ok=True)
    assert gate.allowed == 4


def test_a_429_pauses_the_model_for_a_call_of_another_match():
    """Match A gets a 429; match B, calling the same model after it, waits out the pause too."""
    with FakeLLMServer(fail_first=1, fail_status=429) as server:
        client = LLMClient(api_base=server.api_base, backoff_s=0.3, allow_placeholder_key=True)
        failed = asyncio.Event()
        waits: list[float] = []

        async def run() -> tuple[str, str, str]:
            gate = client.gate("openai/m")
            real_sleep = gate.sleep

            async def logged(seconds: float) -> None:
                waits.append(seconds)
                await real_sleep(seconds)

            gate.sleep = logged
            messages = [{"role": "user", "content": "Legal actions: a, b"}]

            async def match_a() -> str:
                completion = await client.complete("openai/m", messages, on_failed_attempt=lambda _: failed.set())
                return completion.text

            async def match_b() -> str:
                await failed.wait()
                return (await client.complete("openai/m", [{"role": "user", "content": "Legal actions: c"}])).text

            async def other_model() -> str:
                await failed.wait()
                return (await client.complete("openai/n", [{"role": "user", "content": "Legal actions: d"}])).text

            return await asyncio.gather(match_a(), match_b(), other_model())

        texts = asyncio.run(run())
    assert texts == ["Action: a", "Action: c", "Action: d"]
    gate = next(g for (_, model), g in client._gates.items() if model == "openai/m")
    other = next(g for (_, model), g in client._gates.items() if model == "openai/n")
    assert gate.throttled == 1 and other.throttled == 0
    assert waits and 0 < waits[0] <= 0.3  # match B (or A's retry) waited out the pause
    assert len(server.requests) == 4  # A's 429, A's retry, B, the other model


@pytest.mark.parametrize(("text", "expected"), [("openai/m=30", ("openai/m", 30.0)), ("12", ("*", 12.0)),
                                                ("a=b=2", ("a=b", 2.0))])
def test_a_limit_flag_reads_model_and_number(text, expected):
    assert parse_limit("--model-rpm", text) == expected


@pytest.mark.parametrize("text", ["openai/m=0", "x", "=5", "m=-1"])
def test_a_bad_limit_names_the_option(text):
    with pytest.raises(ValueError, match=r"--model-rpm .*expected MODEL=N or N with N a positive number"):
        parse_limit("--model-rpm", text)


def test_a_models_own_flag_wins_over_every_models_and_litellms():
    settings = LimitSettings(concurrency={"*": 8, "a": 2}, rpm={"a": 60}, tpm={"*": 1000})
    assert settings.for_model("a", {"rpm": 10, "tpm": 5}) == ModelLimits(concurrency=2, rpm=60, tpm=1000)
    assert settings.for_model("b", {"rpm": 10}) == ModelLimits(concurrency=8, rpm=10, tpm=1000)


def test_token_estimate_is_a_quarter_of_the_characters_plus_the_answer_cap():
    assert estimate_tokens([{"content": "x" * 400}, {"content": [{"text": "y" * 40}]}], 100) == 110 + 1 + 100


def test_bad_limit_flags_are_one_line(pytester):
    result = pytester.runpytest_subprocess("--model-tpm", "m=lots")
    result.stderr.fnmatch_lines(["*--model-tpm: expected MODEL=N or N with N a positive number, got 'm=lots'*"])
    assert result.ret == 4

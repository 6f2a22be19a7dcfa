"""Shared fixtures for stratbench's own tests."""

from __future__ import annotations

import os

import pytest

pytest_plugins = ["pytester"]

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")


@pytest.fixture
def fake_llm():
    """A running loopback OpenAI-compatible server (stopped after the test)."""
    from stratbench.testing.fake_llm import FakeLLMServer

    server = FakeLLMServer().start()
    yield server
    server.stop()


@pytest.fixture
def no_provider_keys(monkeypatch):
    """Removes provider API keys from the environment."""
    for name in list(os.environ):
        if name.endswith("_API_KEY") or name in ("OPENAI_API_BASE", "OPENAI_BASE_URL"):
            monkeypatch.delenv(name, raising=False)

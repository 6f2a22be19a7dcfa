"""Shared fixtures for stratbench's own tests."""

from __future__ import annotations

import os
import shutil

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


@pytest.fixture(autouse=True)
def _scaffolds_registry():
    """Gives each test the installed families' registry for the scaffolds' lookups, and restores it after a test
    that built a session of its own (a session installs its registry, maybe a partial one)."""
    from stratbench.scaffolds import family_parts

    if family_parts._current is None or not family_parts._current.answer_readers:
        from stratbench.families import standalone_registry

        family_parts.use_registry(standalone_registry())
    installed = family_parts._current
    yield
    family_parts.use_registry(installed)


@pytest.fixture
def chromium_profile(tmp_path):
    """An empty Chromium profile directory, removed after the test (a used profile is large)."""
    path = tmp_path / "chromium-profile"
    path.mkdir()
    yield path
    shutil.rmtree(path, ignore_errors=True)


@pytest.fixture
def browser(chromium_profile):
    """One headless Chromium with a page, driven over DevTools (the test is skipped where none is installed)."""
    from stratbench.testing.browser import Chromium, find_chromium

    binary = find_chromium()
    if binary is None:
        pytest.skip("needs Chromium (apt-get install chromium)")
    with Chromium(binary, chromium_profile) as chromium:
        yield chromium

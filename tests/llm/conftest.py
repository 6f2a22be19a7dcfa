"""Fixtures the model-client tests share."""

from __future__ import annotations

import os

import pytest


@pytest.fixture
def clean_env(monkeypatch):
    """No provider credentials or endpoints in the environment."""
    for name in list(os.environ):
        if name.endswith(("_API_KEY", "_API_VERSION", "_API_BASE", "_BASE_URL")) or name.startswith("AZURE_"):
            monkeypatch.delenv(name, raising=False)
    return monkeypatch

"""litellm's process environment, set before litellm is first imported.

Both the client (every model call) and the budget (pricing the models of a
run before it starts) import litellm; each sets this environment first.
"""

from __future__ import annotations

import os


def configure_litellm_environment() -> None:
    """Sets the environment litellm needs for offline, recordable use.

    ``LITELLM_LOCAL_MODEL_COST_MAP`` stops a network fetch at import.
    litellm's async transport is left as the user has it: its default,
    aiohttp, is recorded once by vcrpy's aiohttp stub (vcrpy >= 8.2 patches
    httpx's transports, not the client above them), and
    ``DISABLE_AIOHTTP_TRANSPORT=True`` (plain httpx) is recorded once by its
    httpx stub. A cassette recorded through either replays through the other.
    """
    os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")
    os.environ.setdefault("LITELLM_LOG", "ERROR")

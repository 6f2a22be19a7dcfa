"""litellm's process environment, set before litellm is first imported, and that first import.

Every module that calls litellm (the client, the budget pricing a run's models
before it starts, the start-up checks) imports it through :func:`import_litellm`,
which sets this environment first.
"""

from __future__ import annotations

import os
from types import ModuleType

from stratbench.long_lived import long_lived_import


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


def import_litellm() -> ModuleType:
    """Returns litellm, imported with its environment set (seconds, the first time in a process; its objects
    are then kept out of the cycle collector's scans, :mod:`stratbench.long_lived`)."""
    configure_litellm_environment()
    with long_lived_import("litellm"):
        import litellm  # lean: litellm costs seconds; collection and lean xdist workers never need it
    return litellm

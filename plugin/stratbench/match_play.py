"""Playing a built match on the session's event loop, inside its cassette when a model takes part."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any

from stratbench.core.agent import Agent
from stratbench.core.runner import MatchOutcome
from stratbench.llm import cassettes


async def play_and_close(agents: dict[int, Agent], coroutine: Any) -> MatchOutcome:
    """Runs the match, then awaits each agent's optional ``aclose()`` (engine processes)."""
    try:
        return await coroutine
    finally:
        for agent in agents.values():
            closer = getattr(agent, "aclose", None)
            if closer is not None:
                await closer()


def run_on_loop(
    loop: asyncio.AbstractEventLoop,
    client: Any,
    coroutine: Coroutine[Any, Any, MatchOutcome],
    cassette_path: Path | None,
    mode: str,
    *,
    api_base: str | None,
) -> MatchOutcome:
    """Runs a match coroutine to its end, inside the match's cassette when it has one."""
    if cassette_path is None:
        return loop.run_until_complete(coroutine)
    client.cassette = str(cassette_path)
    client.recording = cassettes.will_record(cassette_path, mode)
    client.allow_placeholder_key = bool(api_base) or not client.recording
    try:
        with cassettes.use_cassette(cassette_path, mode):
            return loop.run_until_complete(coroutine)
    finally:
        coroutine.close()

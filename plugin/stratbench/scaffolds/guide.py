"""The ``guide`` scaffold: GameBench's proposed intervention, a short strategy guide in context.

Each game has one guide, written by the project from its rules, in its
family's guide folder (``games/<family>/guides/<game>.md``, package data,
registered with ``Registry.add_guide_folder``). The scaffold asks as
``direct`` does, with the guide in the system prompt of every call it makes
for the agent (decisions, retries, negotiation rounds, rule expansions): the
system prompt gains it at the end, or the guide becomes the system prompt
where the request has none. A game without a guide is a harness error that
names it.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, HarnessError, Observation
from stratbench.llm.client import Completion
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.base import ConversationScaffold
from stratbench.scaffolds.family_parts import current_registry



@lru_cache(maxsize=None)
def strategy_guide(game: str) -> str:
    """Returns the strategy guide of a registered game (its text, stripped).

    Raises:
        HarnessError: naming the game, when it has no guide or an empty one.
    """
    folders = current_registry().guide_folders
    found = [resources.files(package).joinpath(folder, f"{game}.md") for package, folder in folders]
    path = next((candidate for candidate in found if candidate.is_file()), None)
    if path is None:
        places = ", ".join(f"{package}/{folder}" for package, folder in folders) or "none registered"
        raise HarnessError(f"the guide scaffold has no strategy guide for game {game!r}: add {game}.md to its "
                           f"family's guide folder (Registry.add_guide_folder; searched: {places})")
    text = path.read_text(encoding="utf-8").strip()
    if not text:
        raise HarnessError(f"the strategy guide of game {game!r} ({path}) is empty")
    return text


def guide_block(observation: Observation) -> str:
    """The text added to the system prompt: a heading naming the game, then its guide."""
    return f"Strategy guide for {observation.rules.title}:\n{strategy_guide(observation.game)}"


def with_guide(messages: list[dict[str, Any]], block: str) -> list[dict[str, Any]]:
    """Returns ``messages`` with ``block`` at the end of the system prompt (or as the system prompt)."""
    if messages and messages[0].get("role") == "system" and isinstance(messages[0].get("content"), str):
        return [{**messages[0], "content": f"{messages[0]['content']}\n\n{block}"}, *messages[1:]]
    return [{"role": "system", "content": block}, *messages]


class _GuidedSession:
    """A model session whose requests carry the guide; everything else is the session's own."""

    def __init__(self, session: ModelSession, block: str) -> None:
        self._session, self._block = session, block

    def __getattr__(self, name: str) -> Any:
        return getattr(self._session, name)

    async def complete(self, messages: list[dict[str, Any]], **options: Any) -> Completion:
        return await self._session.complete(with_guide(messages, self._block), **options)

    async def answer(self, messages: list[dict[str, Any]], **options: Any) -> tuple[Completion, list[dict[str, Any]]]:
        return await self._session.answer(with_guide(messages, self._block), **options)


class GuideScaffold(ConversationScaffold):
    """Decides as ``direct`` with the game's strategy guide in every request's system prompt."""

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Asks with the guide (see the module)."""
        guided: Any = _GuidedSession(session, guide_block(observation))
        return await super().decide(observation, guided)

    async def negotiate(self, observation: Observation, session: ModelSession) -> list[Outgoing]:
        """Talks with the guide (see the module)."""
        guided: Any = _GuidedSession(session, guide_block(observation))
        return await super().negotiate(observation, guided)


def guide(**settings: Any) -> GuideScaffold:
    """Builds the strategy-guide scaffold.

    Args:
        **settings: Request settings passed to every call (``max_tokens``...).
    """
    return GuideScaffold(**settings)

"""The ``cot`` scaffold: GameBench's chain-of-thought, two calls per decision.

The first call adds GameBench's instruction ("First, let's reason out loud
about which action you should take to maximize your probability of
winning.") after the state and actions and gets free reasoning; the second
asks for the action, with the reasoning kept in the conversation.
"""

from __future__ import annotations

from typing import Any

from stratbench.core.types import Observation
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.base import ConversationScaffold
from stratbench.scaffolds.prompt import (
    COT_INSTRUCTION,
    prompt_style,
    summarize_prompt,
    user_message,
)


class ChainOfThought(ConversationScaffold):
    """Reasons out loud first, then answers."""

    async def open(self, observation: Observation, session: ModelSession) -> list[dict[str, Any]]:
        """Gets the reasoning, then asks for the action."""
        style = prompt_style(observation)
        if style is not None:
            return await self._open_released(style.released_prompt(observation), observation, session)
        messages = await super().open(observation, session)
        first = messages[-1]
        if isinstance(first["content"], str):
            first["content"] += "\n\n" + COT_INSTRUCTION
        else:
            first["content"][0]["text"] += "\n\n" + COT_INSTRUCTION
        reasoning = await session.complete(messages, purpose="reason", **self.settings)
        messages.append({"role": "assistant", "content": reasoning.text})
        messages.append({"role": "user", "content": summarize_prompt(observation)})
        return messages

    async def _open_released(
        self, released: Any, observation: Observation, session: ModelSession
    ) -> list[dict[str, Any]]:
        """A paper prompt style's two calls: the body with its reasoning request, then its summary request."""
        messages = [
            {"role": "system", "content": released.system},
            user_message(released.body + released.cot, observation, vision=session.vision),
        ]
        reasoning = await session.complete(messages, purpose="reason", **self.settings)
        messages.append({"role": "assistant", "content": reasoning.text})
        messages.append({"role": "user", "content": released.summary})
        return messages


def cot(**settings: Any) -> ChainOfThought:
    """Builds GameBench's chain-of-thought scaffold."""
    return ChainOfThought(**settings)

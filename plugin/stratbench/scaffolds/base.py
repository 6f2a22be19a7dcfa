"""The Scaffold contract and the conversation loop most scaffolds share.

A scaffold turns an observation into LLM calls and one action. It is built
per agent (so it may keep state) by a factory registered under a name; the
factory's keyword arguments are recorded with the match.
"""

from __future__ import annotations

import re
from typing import Any, Protocol, runtime_checkable

from stratbench.core.messages import Outgoing
from stratbench.core.types import Action, Observation
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.parsing import parse_answer, parse_messages
from stratbench.scaffolds.prompt import (
    SYSTEM_PROMPT,
    game_prompt,
    retry_prompt,
    topic_keys,
    user_message,
)

_EXPLAIN = re.compile(r"Explain\(\s*([^)]+?)\s*\)", re.IGNORECASE)


@runtime_checkable
class Scaffold(Protocol):
    """Decides one action with a model."""

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Returns the action for ``observation``; retries carry ``observation.feedback``."""
        ...


class ConversationScaffold:
    """Keeps one conversation per decision, with retries and rule expansion.

    A new decision opens a conversation (:meth:`open`); a retry appends the
    rejection reason to it. A reply ``Explain(H2)`` is answered with that rule
    topic's text, up to ``max_explains`` times per decision.
    """

    purpose = "act"

    def __init__(self, max_explains: int = 3, **settings: Any) -> None:
        self.max_explains = max_explains
        self.settings = settings
        self._turn: int | None = None
        self._messages: list[dict[str, Any]] = []

    async def open(self, observation: Observation, session: ModelSession) -> list[dict[str, Any]]:
        """Returns the conversation that asks for this decision."""
        if observation.prompt is not None:
            system = [{"role": "system", "content": observation.system_prompt}] if observation.system_prompt else []
            preamble = [dict(message) for message in observation.preamble]
            return [*system, *preamble, user_message(observation.prompt, observation, vision=session.vision)]
        return [
            {"role": "system", "content": SYSTEM_PROMPT},
            user_message(game_prompt(observation), observation, vision=session.vision),
        ]

    async def decide(self, observation: Observation, session: ModelSession) -> Action:
        """Asks the model and parses its action."""
        if observation.feedback is None or observation.turn != self._turn:
            self._turn = observation.turn
            self._messages = await self.open(observation, session)
        else:
            self._messages.append({"role": "user", "content": self.retry_message(observation)})
        completion = await session.complete(
            self._messages, purpose=self.purpose, **self.request_options(observation), **self.settings
        )
        self._messages.append({"role": "assistant", "content": completion.text})
        for _ in range(self.max_explains):
            topic = _explained_topic(completion.text, observation)
            if topic is None:
                break
            self._messages.append({"role": "user", "content": topic})
            completion = await session.complete(self._messages, purpose="explain", **self.settings)
            self._messages.append({"role": "assistant", "content": completion.text})
        return self.parse(completion.text, observation)

    def retry_message(self, observation: Observation) -> str:
        """Returns the user message that explains a rejection and asks again."""
        return retry_prompt(observation)

    def request_options(self, observation: Observation) -> dict[str, Any]:
        """Returns extra request settings for the decision's call (``response_format``...)."""
        return {}

    def parse(self, reply: str, observation: Observation) -> Action:
        """Reads the action from the model's reply."""
        return parse_answer(reply, observation)


    async def negotiate(self, observation: Observation, session: ModelSession) -> list[Outgoing]:
        """Asks the model for this negotiation round's messages (a fresh conversation)."""
        messages = await ConversationScaffold.open(self, observation, session)
        completion = await session.complete(messages, purpose="negotiate", **self.settings)
        turn = observation.negotiation
        assert turn is not None
        return parse_messages(completion.text, turn.recipients)


def _explained_topic(reply: str, observation: Observation) -> str | None:
    """Returns the rule text an ``Explain(...)`` reply asks for, or None."""
    match = _EXPLAIN.search(reply)
    if match is None or not observation.rules.topics:
        return None
    wanted = match.group(1).strip().strip("\"'<>")
    keys = topic_keys(observation)
    heading = keys.get(wanted.upper()) or next((h for h in keys.values() if h.lower() == wanted.lower()), None)
    if heading is None:
        return f"There is no rule heading {wanted!r}. Headings: {', '.join(keys)}."
    return f"{heading}: {observation.rules.topics[heading]}"

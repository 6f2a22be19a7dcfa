"""The ``constrained`` scaffold: a JSON answer whose action is one of the legal actions.

The request carries ``response_format`` with a JSON schema whose ``action``
field is an enum of the legal actions; OpenAI's structured outputs and
llama.cpp's grammar-constrained decoding both honour it, so the model cannot
answer outside the list. Decisions without a finite list (open-ended
actions, SPIN-Bench's planning prompt, negotiation, a paper protocol's
prescribed answer format) fall back to free text exactly as ``direct`` asks.
Which scaffold played is recorded with every side of a match, so reports can
separate format-following from strategy.
"""

from __future__ import annotations

import json
from typing import Any

from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.llm.session import ModelSession
from stratbench.scaffolds.base import ConversationScaffold
from stratbench.scaffolds.parsing import parse_action
from stratbench.scaffolds.prompt import answer_format, replace_answer_format

JSON_ANSWER_FORMAT = 'Reply with a JSON object {"action": "<action>"} whose action is one of the legal actions.'


def action_schema(legal_actions: tuple[str, ...] | list[str]) -> dict[str, Any]:
    """Returns the ``response_format`` that restricts the answer to ``legal_actions``.

    Examples:
        >>> action_schema(["a", "b"])["json_schema"]["schema"]["properties"]["action"]["enum"]
        ['a', 'b']
    """
    return {
        "type": "json_schema",
        "json_schema": {
            "name": "action",
            "strict": True,
            "schema": {
                "type": "object",
                "properties": {"action": {"type": "string", "enum": list(legal_actions)}},
                "required": ["action"],
                "additionalProperties": False,
            },
        },
    }


def is_constrainable(observation: Observation) -> bool:
    """Tells whether a decision has a finite list of actions, nothing open-ended and no paper answer format.

    A paper protocol's prompt style (GameBench's released agent) or prescribed
    reader (a paper's answer format) is asked and read as the game words it,
    unconstrained.
    """
    return (bool(observation.legal_actions) and not observation.open_ended and observation.negotiation is None
            and not observation.asking.prompt_style and not observation.asking.answer_parser)


class ConstrainedScaffold(ConversationScaffold):
    """Asks for ``{"action": ...}`` under a JSON schema; free text where no list exists."""

    answers_by_tool = False

    async def open(self, observation: Observation, session: ModelSession) -> list[dict[str, Any]]:
        """Builds the usual prompt, with the JSON answer format where the answer is constrained."""
        messages = await super().open(observation, session)
        if is_constrainable(observation):
            replace_answer_format(messages[-1], answer_format(observation), JSON_ANSWER_FORMAT)
        return messages

    def retry_message(self, observation: Observation) -> str | None:
        """Asks again for the JSON answer where the answer is constrained."""
        if not is_constrainable(observation):
            return super().retry_message(observation)
        return f"Your answer was rejected: {observation.feedback}\n{JSON_ANSWER_FORMAT}"

    def request_options(self, observation: Observation) -> dict[str, Any]:
        """Sends the schema whose ``action`` enum is the legal actions."""
        if not is_constrainable(observation):
            return super().request_options(observation)
        return {"response_format": action_schema(observation.legal_actions)}

    def parse(self, reply: str, observation: Observation) -> Action:
        """Reads the ``action`` field of a constrained answer."""
        if not is_constrainable(observation):
            return super().parse(reply, observation)
        return parse_json_action(reply, observation.legal_actions)


def parse_json_action(reply: str, legal_actions: tuple[str, ...] | list[str]) -> Action:
    """Reads ``{"action": ...}``; a reply that is not that JSON goes through the usual parser.

    Raises:
        ActionParseError: when no action can be read.
    """
    try:
        value = json.loads(reply)
    except ValueError:
        value = None
    if isinstance(value, dict) and isinstance(value.get("action"), str):
        return Action(value["action"])
    if not reply.strip():
        raise ActionParseError('The reply was empty; expected {"action": "<one of the legal actions>"}.')
    return parse_action(reply, legal_actions)


def constrained(**settings: Any) -> ConstrainedScaffold:
    """Builds the JSON-schema-constrained scaffold.

    Args:
        **settings: Request settings passed to every call (``max_tokens``...).
    """
    return ConstrainedScaffold(**settings)


__all__ = [
    "JSON_ANSWER_FORMAT",
    "ConstrainedScaffold",
    "action_schema",
    "constrained",
    "is_constrainable",
    "parse_json_action",
]

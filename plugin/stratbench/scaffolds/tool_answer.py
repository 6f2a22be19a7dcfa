"""Moves as tool calls (``--answer-format tools``): the ``make_move`` function and how its call is read.

The decision's request offers one function, ``make_move(action)``. Where the
game lists its legal actions (and no open-ended action), ``action`` is an
enum of them, so a provider that constrains tool arguments can only name a
legal one; otherwise it is a string written as the prompt asks. The
request asks for a tool call (``tool_choice: required``). The action is
read from the call's ``action`` argument with the observation's usual reader,
so an illegal or unreadable call is rejected and retried like a text answer;
a reply with no call is read as text. In the conversation the call stays an
assistant tool call, and what follows it (a rejection, the next turn) is its
tool result.
"""

from __future__ import annotations

from typing import Any

from stratbench.core.types import Observation
from stratbench.llm.client import Completion

ANSWER_FORMATS = ("text", "tools")
"""``--answer-format``: the reply's text, or a ``make_move`` tool call."""

MOVE_TOOL = "make_move"

MAX_ENUM = 500
"""Legal actions offered as an enum at most; a longer list is a string parameter (the prompt lists them)."""

TOOL_INSTRUCTION = f"Give your answer by calling the {MOVE_TOOL} function with your action."

RECEIVED = "Move received."
"""The tool result of an accepted call, when the conversation goes on after it."""


def move_tool(observation: Observation) -> dict[str, Any]:
    """Returns the ``make_move`` function offered for this decision (OpenAI's tool shape, which litellm maps)."""
    legal = list(observation.legal_actions)
    action: dict[str, Any] = {"type": "string"}
    if legal and not observation.open_ended and len(legal) <= MAX_ENUM:
        action["enum"] = legal
        action["description"] = "One of the legal actions, exactly as listed."
    else:
        action["description"] = "Your action, written exactly as the prompt asks for it."
    return {
        "type": "function",
        "function": {
            "name": MOVE_TOOL,
            "description": "Plays your action for this decision.",
            "parameters": {"type": "object", "properties": {"action": action}, "required": ["action"]},
        },
    }


def tool_request(observation: Observation) -> dict[str, Any]:
    """The request settings that offer ``make_move`` and ask for a call."""
    return {"tools": [move_tool(observation)], "tool_choice": "required"}


def answer_text(completion: Completion) -> str:
    """The answer a reply gives: its ``make_move`` call's action, else (no call, unreadable arguments) its text."""
    for call in completion.tool_calls:
        arguments = call.parsed()
        if call.name == MOVE_TOOL and arguments is not None and isinstance(arguments.get("action"), str):
            return arguments["action"]
    return completion.text


def assistant_turn(completion: Completion) -> dict[str, Any]:
    """The reply as a conversation turn: its text, and its tool calls when it made any."""
    if not completion.tool_calls:
        return {"role": "assistant", "content": completion.text}
    return {
        "role": "assistant",
        "content": completion.text or None,
        "tool_calls": [
            {"id": call_id(completion, i), "type": "function",
             "function": {"name": call.name, "arguments": call.arguments}}
            for i, call in enumerate(completion.tool_calls)
        ],
    }


def call_id(completion: Completion, index: int) -> str:
    """A tool call's id (one the provider gave, else a stable one)."""
    return completion.tool_calls[index].id or f"call_{index}"


def follow_up(messages: list[dict[str, Any]], text: str) -> list[dict[str, Any]]:
    """The turns that say ``text`` after the conversation: a tool result per open call, else a user turn.

    A reply that called tools must be followed by their results before any
    other turn; ``text`` answers the first call, ``RECEIVED`` any others.
    """
    last = messages[-1] if messages else {}
    calls = last.get("tool_calls") or []
    if last.get("role") != "assistant" or not calls:
        return [{"role": "user", "content": text}]
    return [{"role": "tool", "tool_call_id": call["id"], "content": text if i == 0 else RECEIVED}
            for i, call in enumerate(calls)]


def close_calls(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The tool results an accepted call needs before the conversation goes on (none when no call is open)."""
    last = messages[-1] if messages else {}
    if last.get("role") != "assistant" or not last.get("tool_calls"):
        return []
    return [{"role": "tool", "tool_call_id": call["id"], "content": RECEIVED} for call in last["tool_calls"]]

"""A responder for :class:`~stratbench.testing.fake_llm.FakeLLMServer` that answers the ``rap`` scaffold's prompts.

It recognises each RAP prompt by its last user message and answers in the
form the scaffold reads: an ``<actions>`` list of two moves, an ``<others>``
and a ``<state>`` prediction, an open-ended description, and for the
probability prompts (``logprobs`` requests) a first token with fixed top
alternatives: "yes" at ``p_yes`` (0.7 by default), and under the selection
prompt the index ``sha256(prompt) mod n`` at 0.6 and the next index at 0.4.
Every answer depends only on the request, so it is deterministic. Other
prompts (a negotiation round, a free answer) go to ``fallback``.
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable
from typing import Any

from stratbench.testing.fake_llm import ScriptedReply, first_legal_responder

__all__ = ["rap_responder"]

_ENUMERATED = re.compile(r"^(\d+)\. ", re.MULTILINE)


def _last(body: dict[str, Any], role: str) -> str:
    for message in reversed(body.get("messages", [])):
        if message.get("role") == role:
            content = message.get("content")
            if isinstance(content, list):
                return " ".join(part.get("text", "") for part in content if isinstance(part, dict))
            return str(content)
    return ""


def rap_responder(p_yes: float = 0.7, fallback: Callable[[dict[str, Any]], Any] = first_legal_responder
                  ) -> Callable[[dict[str, Any]], str | ScriptedReply]:
    """Returns a responder for RAP's prompts with P("yes") = ``p_yes``."""

    def respond(body: dict[str, Any]) -> str | ScriptedReply:
        asked = _last(body, "user")
        if "yes/no" in asked:
            return ScriptedReply("Yes", (("Yes", math.log(p_yes)), ("No", math.log(1 - p_yes))))
        if "writing only the associated number" in asked:
            count = len(_ENUMERATED.findall(_last(body, "assistant"))) or 1
            digest = hashlib.sha256(str(body.get("messages")).encode()).digest()
            first = digest[0] % count
            second = (first + 1) % count
            top = ((str(first), math.log(0.6)), (str(second), math.log(0.4))) if count > 1 else (("0", 0.0),)
            return ScriptedReply(str(first), top)
        if "predict your available actions" in asked:
            return "<actions>\n0. Take the strongest move\n1. Block the opponent\n</actions>"
        if "other players might take" in asked:
            return "<others>The opponent answers my move.</others>"
        if "predict your new observation" in asked:
            return "<state>The game goes on after both moves.</state>"
        if "open-ended action" in asked:
            return "I will answer as the rules ask."
        if "Describe what's going on in the image" in asked:
            return "The board as the image shows it."
        return fallback(body)

    return respond

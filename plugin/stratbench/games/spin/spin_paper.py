"""SPIN-Bench's conversation for its competitive games, as its released code plays them.

Shared by Tic-Tac-Toe, Connect Four and chess under the ``paper`` protocol
(digest §4.5–4.6): every decision starts from the same two opening messages
(the game intro as a user turn and the canned reply :data:`OPENING_REPLY`),
then one user turn with the state description and the action prompt joined by
a newline; the answer is a JSON object ``{"reason", "action"}``; an illegal or
unreadable answer gets exactly :data:`RETRY_PROMPT`. The games write their own
intro, state and action prompt; this module assembles the observation fields
(the action prompt is also the answer format a ``cot`` summary asks in).
"""

from __future__ import annotations

from typing import Any

PAPER = "paper"
PROTOCOLS = ("default", PAPER)
OPENING_REPLY = "Sure, let's start. "
"""The assistant turn the released code puts after the intro (trailing space included)."""
RETRY_PROMPT = "Illegal move, try again"
"""The released code's user message after an illegal or unreadable answer."""
ANSWER_PARSER = "spin-json"
"""The strict reader of the paper protocol (see :mod:`stratbench.games.spin.paper_protocols.solver_games`)."""


def check_protocol(game: str, protocol: str) -> str:
    """Returns ``protocol`` if ``game`` knows it.

    Raises:
        ValueError: naming the game and the protocols it knows.
    """
    if protocol not in PROTOCOLS:
        raise ValueError(f"{game}: unknown protocol {protocol!r}; known: {', '.join(PROTOCOLS)}")
    return protocol


def answer_format(action_type: str) -> str:
    """Returns the JSON answer format line, ``action_type`` being ``int`` or ``string``."""
    return f'Your output should be in this format:\n{{"reason": string, "action": {action_type}}}'


def paper_fields(intro: str, state: str, action_prompt: str) -> dict[str, Any]:
    """Returns the :class:`~stratbench.core.types.Asking` fields that make a scaffold send the paper's conversation."""
    return {
        "prompt": f"{state}\n{action_prompt}",
        "answer_format": action_prompt,
        "preamble": (
            {"role": "user", "content": intro},
            {"role": "assistant", "content": OPENING_REPLY},
        ),
        "retry_prompt": RETRY_PROMPT,
        "answer_parser": ANSWER_PARSER,
    }

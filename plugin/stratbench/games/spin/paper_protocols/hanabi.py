"""The paper protocol of the hanabi family: SPIN-Bench's Hanabi as its released runner played it.

Differences from the default (``docs/PROTOCOLS.md``): the rules primer as each
player's first user turn, its reply kept (``Observation.asking.primer``); the released
state description and action prompt, and its system prompt; answers read by
:func:`read_action_answer` (registered as ``spin_hanabi_json``); a rejected
answer gets "Illegal move, try again", up to 5 times (6 attempts); a player
still without a legal answer ends the match (the released runner stopped on
it and never saved the game, so the paper protocol's mean leaves it out);
the score is the fireworks before the last action; temperature 0.95.
"""

from __future__ import annotations

import json

from stratbench.core.types import Action, ActionParseError, Observation
from stratbench.protocols import Protocol
from stratbench.registry import Registry

SOURCE = (
    "SPIN-Bench (arXiv 2503.12349) Appendix E.2; primer, wording, retries, reader and score as the released "
    "runner (spinbench/spinbench tasks/hanabi, tools/play_service.py); temperature 0.95 as its game calls"
)
RETRIES = 5
"""The released runner's retries after the first answer (its illegal-move tolerance)."""


def brace_blocks(text: str) -> list[str]:
    """Returns the balanced ``{...}`` blocks of ``text``, leftmost first, as a recursive-brace pattern finds them.

    A ``{`` whose braces never balance starts no block; braces inside JSON
    strings count like any other (the pattern does not know strings).

    Examples:
        >>> brace_blocks('a {"x": {"y": 1}} b {oops {"z": 2}')
        ['{"x": {"y": 1}}', '{"z": 2}']
    """
    blocks, start = [], 0
    while (begin := text.find("{", start)) != -1:
        depth, end = 0, None
        for index in range(begin, len(text)):
            if text[index] == "{":
                depth += 1
            elif text[index] == "}":
                depth -= 1
                if depth == 0:
                    end = index
                    break
        if end is None:
            start = begin + 1
            continue
        blocks.append(text[begin : end + 1])
        start = end + 1
    return blocks


def read_action_answer(reply: str, observation: Observation) -> Action:
    """Returns the action id of a reply as the released runner reads it.

    Every ``{...}`` block must parse as JSON (one that does not makes the
    reply unreadable); the last one must hold ``reason`` and an ``action``
    Python's ``int`` accepts (``9``, ``"9"``, ``9.7`` -> 9).

    Raises:
        ActionParseError: when the reply cannot be read so.
    """
    parsed = None
    for block in brace_blocks(reply or ""):
        try:
            parsed = json.loads(block)
        except ValueError:
            raise ActionParseError(f"Unreadable JSON in the reply: {block[:80]!r}") from None
    if parsed is None:
        raise ActionParseError('No JSON {"reason": ..., "action": ...} in the reply.')
    try:
        action = int(parsed["action"])
        parsed["reason"]  # noqa: B018 - the released reader needs the key
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        raise ActionParseError(f'The JSON needs "reason" and an integer "action" ({error!r}).') from None
    return Action(str(action))


def register(registry: Registry) -> None:
    """Registers the paper protocol of ``hanabi``."""
    registry.add_protocol("hanabi", Protocol(
        "paper",
        source=SOURCE,
        game_options={"protocol": "paper"},
        agent_options={"temperature": 0.95},
        suite={"illegal_tolerance": 1 + RETRIES, "fallback": "forfeit"},
    ))

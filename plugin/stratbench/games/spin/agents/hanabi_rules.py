"""The ``hanabi-rules`` baseline: a simple, deterministic rule-based Hanabi player.

In order of priority it:

1. plays a card it knows to be playable (every identity its hints allow is
   the next card of its colour);
2. with an information token, hints a teammate's playable card that the
   teammate does not yet know to be playable (the nearest teammate first;
   the rank if the rank is unknown to them, else the colour);
3. discards a card it knows is useless (every allowed identity is already
   played), else its oldest card without any hint, else its oldest card;
4. otherwise gives the first legal hint, or plays its oldest card.

It reads only ``observation.data`` (the player's own view), so it never sees
its own cards.
"""

from __future__ import annotations

import re
from typing import Any

from stratbench.core.agent import AgentContext
from stratbench.core.types import Action, Observation

__all__ = ["HanabiRulesAgent", "choose"]

_REVEAL = re.compile(r"Reveal player \+(\d+) (color|rank) (\w)")
_CARD_ACTION = re.compile(r"(Play|Discard) (\d+)")


class HanabiRulesAgent:
    """Plays known-playable cards, hints playable cards, discards the oldest unknown card."""

    def __init__(self, context: AgentContext) -> None:
        if context.game.info.name != "hanabi":
            raise ValueError(f"agent 'hanabi-rules' plays only hanabi, not {context.game.info.name!r}")

    async def act(self, observation: Observation) -> Action:
        """Returns the action the rules pick for this view."""
        return Action(choose(observation.data))


def choose(view: dict[str, Any]) -> str:
    """Returns the legal action id the rules pick for a player's view (``observation.data``)."""
    legal: dict[str, str] = view["legal"]
    by_text = {text.strip("()"): action for action, text in legal.items()}
    fireworks: dict[str, int] = view["fireworks"]
    hand = view["my_hand"]
    for index, card in enumerate(hand):
        if _surely(card, fireworks, _playable) and f"Play {index}" in by_text:
            return by_text[f"Play {index}"]
    if view["info_tokens"] > 0:
        for offset, other in enumerate(view["other_hands"], start=1):
            for card in other:
                if not _playable(card["card"][0], int(card["card"][1]), fireworks):
                    continue
                if _surely(card, fireworks, _playable):
                    continue
                kind, value = ("rank", card["card"][1]) if card["known"][1] == "X" else ("color", card["card"][0])
                hint = f"Reveal player +{offset} {kind} {value}"
                if hint in by_text:
                    return by_text[hint]
    discards = [a for a, t in legal.items() if t.startswith("(Discard")]
    if discards:
        useless = [i for i, c in enumerate(hand) if _surely(c, fireworks, _useless)]
        unhinted = [i for i, c in enumerate(hand) if c["known"] == "XX"]
        for pick in (useless, unhinted, list(range(len(hand)))):
            if pick and f"Discard {pick[0]}" in by_text:
                return by_text[f"Discard {pick[0]}"]
    hints = [a for a, t in legal.items() if _REVEAL.search(t)]
    if hints:
        return hints[0]
    plays = sorted((a for a, t in legal.items() if t.startswith("(Play")), key=lambda a: _position(legal[a]))
    return plays[0] if plays else sorted(legal, key=int)[0]


def _candidates(card: dict[str, str]) -> list[tuple[str, int]]:
    colors = [c for c in card["possible"] if c.isalpha()]
    ranks = [int(r) for r in card["possible"] if r.isdigit()]
    return [(c, r) for c in colors for r in ranks]


def _surely(card: dict[str, str], fireworks: dict[str, int], test: Any) -> bool:
    """Tells whether ``test`` holds for every identity the card's holder cannot rule out."""
    candidates = _candidates(card)
    return bool(candidates) and all(test(c, r, fireworks) for c, r in candidates)


def _playable(color: str, rank: int, fireworks: dict[str, int]) -> bool:
    return fireworks[color] + 1 == rank


def _useless(color: str, rank: int, fireworks: dict[str, int]) -> bool:
    return rank <= fireworks[color]


def _position(text: str) -> int:
    match = _CARD_ACTION.search(text)
    return int(match.group(2)) if match else 0
